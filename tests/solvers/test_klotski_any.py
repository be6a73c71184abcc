"""When the search for the fewest moves gives up (the piece metric, boards searched by
layers), a beam search answers with moves not proved minimal, and says so, and failing it a
best-first search guided by a relaxed board (its distances checked here); an answer the
search proves minimal says that too. The boards are made up here."""
from __future__ import annotations

from dataclasses import replace
from typing import TYPE_CHECKING

import numpy as np
import pytest

import solvers.klotski as klotski
from solvers.klotski import Board, solve, validate
from tests.solvers.test_klotski_layers import layered

if TYPE_CHECKING:
    from solvers.klotski_layers import Layers

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
    monkeypatch.setattr(klotski, "BEST_POSITIONS", 20)
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


def relaxed(board: Board, keep: str) -> tuple["Layers", "Layers"]:
    """The layers of the board and of its relaxed board of the pieces ``keep`` (and the
    target), taught to the first."""
    from solvers.klotski_layers import Layers

    layers = Layers(klotski._Space(board, "piece", False), board, False)
    small = replace(board, pieces=tuple(p for p in board.pieces if p.name in keep + board.target))
    relax = Layers(klotski._Space(small, "piece", False), small, False)
    assert layers.guide(relax, 10**6, 10**8, lambda _: None) is None
    return layers, relax


def test_a_relaxed_boards_distances_are_its_least_moves_and_a_move_changes_them_by_one_at_most():
    from solvers.klotski_layers import FAR

    layers, relax = relaxed(WALLED, "ABE")     # the 1×1 D, F, G and H removed
    _, _, _, keys, far = layers._relaxed
    small = replace(WALLED, pieces=tuple(p for p in WALLED.pieces if p.name in "ABCE"))
    with layered(False):
        assert far[np.searchsorted(keys, relax.keys(relax.start))][0] == solve(small).moves
    rows = relax.rows(keys)
    parent, column, place, _ = relax.children(rows)
    after = far[np.searchsorted(keys, relax.keys(relax.moved(rows[parent], column, place)))]
    assert (far < FAR).all() and (np.abs(after.astype(int) - far[parent].astype(int)) <= 1).all()
    # a lower bound on the whole board's moves
    assert 0 < layers.estimate(layers.start)[0] >> 32 <= least(WALLED)


def test_when_the_beams_find_nothing_a_best_first_search_guided_by_a_relaxed_board_answers(
        monkeypatch: pytest.MonkeyPatch):
    monkeypatch.setattr(klotski, "ANY_DEPTH", 2)        # too few moves for the beams
    result = solve(WALLED, max_positions=50)
    assert result.solved and validate(WALLED, result.solution) == [] and result.extra == {"minimal": False}
    assert result.stats["best_first"]["relaxed"] and "beam searches up to 100,000 wide found no answer" in result.note
    assert "found by a best-first search guided by a relaxed board" in result.note


def test_the_relaxed_board_and_the_best_first_search_have_their_bounds_and_say_when_they_are_hit(
        monkeypatch: pytest.MonkeyPatch):
    monkeypatch.setattr(klotski, "ANY_DEPTH", 2)
    monkeypatch.setattr(klotski, "RELAXED_POSITIONS", 10)
    monkeypatch.setattr(klotski, "BEST_POSITIONS", 10)
    result = solve(WALLED, max_positions=50)
    assert not result.solved and not result.stats["best_first"]["relaxed"]
    found = result.stats["best_first"]["positions"]
    assert result.reason.endswith("nor a best-first search guided by its own estimate (the relaxed board has more "
                                  f"than 10 positions or needs more than 340 MB) ({found:,} positions, its bound)")
