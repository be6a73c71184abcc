"""When the search for the fewest moves gives up (the piece metric, boards searched by
layers), a beam search answers with moves not proved minimal, and says so; an answer the
search proves minimal says that too. The boards are made up here."""
from __future__ import annotations

import pytest

import solvers.klotski as klotski
from solvers.klotski import Board, solve, validate
from tests.solvers.test_klotski_layers import layered

# A walled board with a gate: the target C leaves through it to the goal cells below
# (6 moves at least; 8,446 positions to prove it).
WALLED = Board.from_text("#######\n#ACCB.#\n#ACCB.#\n#DEEF.#\n#G..H.#\n###==##\n...++..\n...++..")


def least(board: Board) -> int:
    """The least moves by the dict search (not by layers)."""
    with layered(False):
        return solve(board).moves


def test_a_search_that_gives_up_is_followed_by_a_beam_search_labelled_not_minimal():
    result = solve(WALLED, max_positions=50)
    assert result.solved and validate(WALLED, result.solution) == []
    assert result.moves == len(result.solution) >= least(WALLED)
    assert result.extra == {"minimal": False} and result.stats["capped"] and not result.stats["minimal"]
    assert result.note.startswith("not proved minimal: the search for the fewest moves gave up after 50 positions")


def test_an_answer_the_search_proves_minimal_says_so():
    for board in (WALLED, Board.from_text("ACCB\nACCB\nDEEF\nDGHF\nI..J")):   # by layers, and the dict search
        result = solve(board)
        assert result.extra == {"minimal": True} and result.note is None and "capped" not in result.stats
        assert result.moves == least(board) and validate(board, result.solution) == []


def test_exact_gives_up_as_before():
    result = solve(WALLED, max_positions=50, exact=True)
    assert not result.solved and result.stats["capped"] and "beam" not in result.stats
    assert result.reason.startswith("gave up after 50 positions")


def test_the_beam_search_has_its_own_bound_and_says_when_it_is_hit(monkeypatch: pytest.MonkeyPatch):
    monkeypatch.setattr(klotski, "ANY_POSITIONS", 20)
    result = solve(WALLED, max_positions=50)
    assert not result.solved and result.stats["capped"] and result.stats["beam"]["positions"] > 20 - 1
    assert result.reason.startswith("gave up after 50 positions") and "beam searches up to 1,000 wide found no answer" \
        in result.reason


def test_a_target_that_cannot_reach_the_goal_even_alone_is_not_searched_for_by_beams():
    # C is 2 wide; the gate's way is 1 wide
    board = Board.from_text("#######\n#ACCB.#\n#ACCB.#\n#DEEF.#\n#G..H.#\n####=##\n...++..\n...++..")
    result = solve(board, max_positions=50)
    assert not result.solved and "beam" not in result.stats and result.reason.endswith(
        "the target C reaches the goal by no way even alone on the board")
