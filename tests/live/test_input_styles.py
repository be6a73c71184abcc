"""How real games take input (issue 28 §5), on the practice boards that behave so: a game
that takes a one-stroke cell only once the pointer rests on it, a Klotski that moves a
piece one cell per drag, and a backdrop that never stops moving. ``live --play`` learns the
first two from how the board answered and plays each level to the end."""
from __future__ import annotations

import pytest

from tests.display import PRACTICE_TITLE, practice_board, run_puzzlepilot
from tests.live.fakes import VIEW

PHONE = ("--view", f"{VIEW[0]}x{VIEW[1]}", "--size", "4x4")


def played(out: str) -> list[str]:
    return [line for line in out.splitlines() if line.startswith("level ")]


@pytest.mark.display
def test_a_game_that_takes_a_cell_only_after_a_rest_on_it_is_learnt_and_played(display: str) -> None:
    with practice_board("onestroke", "--seed", "12", "--levels", "2", "--dwell", "150", *PHONE) as log:
        status, out, err = run_puzzlepilot("live", "--game", "onestroke", "--window", PRACTICE_TITLE, "--play",
                                           "--hints", "none", "--levels", "2", "--confirm", "2", timeout=120)
    assert status == 0, err + out
    assert "the game took the path only with a rest on each cell" in out, out
    first, second = played(out)[-2:]
    assert "second try" in first and second.endswith("played"), out      # the second level rested at once
    assert [line for line in log if line.startswith("solved")] == ["solved level 1", "solved level 2"]


@pytest.mark.display
def test_levels_are_played_though_the_backdrop_never_stops_moving(display: str) -> None:
    with practice_board("onestroke", "--seed", "31", "--levels", "2", "--animate", *PHONE) as log:
        status, out, err = run_puzzlepilot("live", "--game", "onestroke", "--window", PRACTICE_TITLE, "--play",
                                           "--hints", "none", "--levels", "2", timeout=90)
    assert status == 0, err + out
    assert len(played(out)) == 2 and "rest on each cell" not in out, out
    assert [line for line in log if line.startswith("solved")] == ["solved level 1", "solved level 2"]


@pytest.mark.display
def test_a_klotski_that_moves_a_piece_one_cell_per_drag_is_learnt_and_played(display: str, tmp_path) -> None:
    board = tmp_path / "board.txt"
    board.write_text("ACCB\nACCB\nD..E\n....\nF..G\n")      # one move: the target three cells down
    with practice_board("klotski", "--board", str(board), "--levels", "1", "--one-cell") as log:
        status, out, err = run_puzzlepilot("live", "--game", "klotski", "--window", PRACTICE_TITLE, "--play",
                                           "--hints", "none", "--levels", "1", timeout=90)
    assert status == 0, err + out
    assert "the game takes one cell per drag" in out and played(out)[-1].endswith("played"), out
    assert "solved level 1" in log, log
