"""Helpers shared by tests that need no display."""
from __future__ import annotations

import io
from typing import Sequence

from puzzlepilot.cli import main


def run_cli(argv: Sequence[object], stdin: str = "") -> tuple[int, str, str]:
    """Run the command line in this process: (exit status, stdout, stderr)."""
    out, err = io.StringIO(), io.StringIO()
    status = main([str(a) for a in argv], stdin=io.StringIO(stdin), stdout=out, stderr=err)
    return status, out.getvalue(), err.getvalue()
