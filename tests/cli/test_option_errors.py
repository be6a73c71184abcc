"""A bad option is an ``OptionError`` (not a ``BoardError``): one line naming it, status 2."""
from __future__ import annotations

import io

import pytest

from puzzlepilot.cli import main

RINGS = "moves: 1\n..x.........\n..x.........\n..x.........\n...x........"
VALVES = "X A\nA Y\nX B\nB Y"


def run(argv: list[str], stdin: str) -> tuple[int, str, str]:
    out, err = io.StringIO(), io.StringIO()
    return main(argv, stdin=io.StringIO(stdin), stdout=out, stderr=err), out.getvalue(), err.getvalue()


@pytest.mark.parametrize("argv, board, message", [
    (["--game", "rings", "--moves", "6"], RINGS, "the move budget must be 0..5, got 6"),
    (["--game", "rings", "--rule", "attacks", "--moves", "-1"], RINGS, "the move budget must be 0..5, got -1"),
    (["--game", "valves", "--wrenches", "-3"], VALVES, "wrenches must be 0 or more, not -3"),
    (["--game", "valves", "--wrenches", "0"], VALVES + "\nclosed: A", "1 valve is closed but there are only 0 wrenches"),
])
def test_a_bad_option_is_one_line_and_status_2(argv, board, message):
    assert run(["solve", "--board", "-", *argv], board) == (2, "", f"puzzlepilot: error: {message}\n")


def test_the_solvers_raise_option_errors_for_options_and_board_errors_for_boards():
    from solvers import klotski, valves
    from solvers.common import BoardError, OptionError

    with pytest.raises(OptionError, match="unknown metric"):
        klotski.solve(klotski.Board.from_text("AB\nCC"), metric="hops")
    with pytest.raises(OptionError, match="wrenches"):
        valves.solve(valves.Board.from_text(VALVES), wrenches=-1)
    with pytest.raises(BoardError, match="wrenches"):
        valves.Board.from_text(VALVES + "\nwrenches: -1")
    assert not issubclass(OptionError, BoardError) and not issubclass(BoardError, OptionError)
