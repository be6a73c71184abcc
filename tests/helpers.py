"""Helpers shared by tests that need no display."""
from __future__ import annotations

import io
from typing import Callable, Sequence

import numpy as np
import pytest

from vision.profile import Profile, ProfileError
from puzzlepilot.cli import main
from solvers.onestroke import Board


def run_cli(argv: Sequence[object], stdin: str = "") -> tuple[int, str, str]:
    """Run the command line in this process: (exit status, stdout, stderr)."""
    out, err = io.StringIO(), io.StringIO()
    status = main([str(a) for a in argv], stdin=io.StringIO(stdin), stdout=out, stderr=err)
    return status, out.getvalue(), err.getvalue()


def text(found) -> str:
    """The board a parse found, as one line (rows joined by ``/``)."""
    return found.board.to_text().replace("\n", "/")


def left(board: Board, path: list[tuple[int, int]]) -> Board:
    """The one-stroke board after drawing ``path`` from the start: its cells gone, the head
    the start."""
    return Board(board.rows, board.cols, board.cells - set(path[:-1]), path[-1])


MISSING = object()   # a field left out of profile.json


def assert_field_refused(profile: Profile, field: str, value: object, parse: Callable[..., object]) -> None:
    """The profile with ``field`` set to ``value`` (or left out) is refused by ``parse`` with
    a ProfileError that names the field."""
    data = {k: v for k, v in profile.data.items() if k != field}
    if value is not MISSING:
        data[field] = value
    bad = Profile("bad", data["game"], profile.folder, data)
    with pytest.raises(ProfileError, match=f"'{field}'"):
        parse(np.zeros((64, 64, 3), np.uint8), bad)
