"""The size bounds the solvers hold are the ones ``solve --help`` states (the fuzz suite,
tests/fuzz/test_fuzz_bounds.py, checks that each holds)."""
from __future__ import annotations

import pytest

from solvers import klotski, lyne, onestroke, valves
from tests.helpers import run_cli


def test_solve_help_states_every_games_size_bound(capsys: pytest.CaptureFixture[str]) -> None:
    with pytest.raises(SystemExit) as info:
        run_cli(["solve", "--help"])
    out = capsys.readouterr().out
    assert info.value.code == 0
    entries: dict[str, str] = {}
    game = None
    for line in out[out.index("board texts"):].split("\n\n")[0].splitlines()[1:]:
        if line.startswith("  ") and not line.startswith("   "):      # '  name  text'
            game = line.split()[0]
            entries[game] = ""
        if game:
            entries[game] += line
    for game, bound in (("onestroke", f"{onestroke.MAX_PLACES:,} places"), ("lyne", f"{lyne.MAX_PLACES:,} nodes"),
                        ("klotski", f"{klotski.MAX_PLACES:,} places"), ("valves", f"{valves.MAX_PIPES:,} pipes"),
                        ("valves", f"{valves.MAX_FLOW_WORK:,}")):
        assert bound in entries[game], (game, bound, entries[game])
