"""The layered search of the piece metric (solvers.klotski_layers), which serves boards of
``LAYERED_FROM`` places or more (GNOME Klotski's): judged by the plain reference search
and the rule checker on small boards (the threshold lowered), and against the dict search
of solvers.klotski on bigger ones."""
from __future__ import annotations

from contextlib import contextmanager

import numpy as np
from hypothesis import given, settings, strategies as st

import solvers.klotski as klotski
from solvers.klotski import Board, Piece, layout, solve, validate
from tests.solvers.test_klotski import reference_minimum, small_boards
from tests.solvers.test_klotski_walls import walled_boards

quick = settings(max_examples=80, deadline=None, derandomize=True)


@contextmanager
def layered(on: bool):
    """Every piece-metric search by layers (on) or none (off)."""
    kept = klotski.LAYERED_FROM
    klotski.LAYERED_FROM = 0 if on else 1 << 62
    try:
        yield
    finally:
        klotski.LAYERED_FROM = kept


def _layers(board: Board):
    from solvers.klotski_layers import Layers

    merge = board.symmetric()
    return Layers(klotski._Space(board, "piece", merge), board, merge)


@quick
@given(st.one_of(small_boards(), walled_boards()))
def test_layered_search_matches_the_reference_search(board):
    with layered(True):
        result = solve(board)
    best = reference_minimum(board, "piece")
    if best is None:
        assert not result.solved and "capped" not in result.stats and "searched" in result.reason
    else:
        assert result.solved and result.moves == best
        assert validate(board, result.solution) == []


@settings(max_examples=30, deadline=None, derandomize=True)
@given(walled_boards(most=5))
def test_layered_and_dict_searches_agree_on_walled_boards(board):
    """Both searches to the end (or both give up at the same cap): the same least move
    count, or the same count of reachable positions (mirror images apart) when there is
    no answer."""
    with layered(True):
        new = solve(board, max_positions=30_000, exact=True)
    with layered(False):
        old = solve(board, max_positions=30_000, exact=True)
    if "capped" in new.stats or "capped" in old.stats:
        return      # a bound on the test's time, not an answer: nothing to compare
    assert new.moves == old.moves and new.solved == old.solved
    if new.solved:
        assert validate(board, new.solution) == []
    else:
        assert new.stats["reachable"] == old.stats["reachable"]


FRAMED = "goal: 4,2\n######\n#ACCB#\n#ACCB#\n#DEEF#\n#DGHF#\n#I..J#\n######"


@quick
@given(st.one_of(small_boards(), walled_boards()))
def test_rows_are_read_back_from_their_keys(board):
    """A layer is kept as its keys only: the start and its children come back from them."""
    from solvers.klotski_layers import Layers

    layers = Layers(klotski._Space(board, "piece", False), board, False)
    parent, column, place, _ = layers.children(layers.start)
    rows = np.concatenate([layers.start, layers.moved(layers.start[parent], column, place)])
    assert np.array_equal(layers.rows(layers.keys(rows)), rows)


def test_mirror_images_merge_on_a_framed_classic_board():
    """横刀立马 inside a frame of walls (42 places: the layered search): its known 81 moves,
    with mirror images merged."""
    board = Board.from_text(FRAMED)
    assert board.rows * board.cols >= klotski.LAYERED_FROM and board.symmetric()
    result = solve(board)
    assert result.solved and result.moves == 81 and result.stats["mirror_merged"]
    assert validate(board, result.solution) == []
    assert result.stats["positions"] < klotski.count_positions(layout("横刀立马"))


def test_no_solution_counts_mirror_images_apart_as_the_dict_search_does():
    """走投无路 inside a frame: all 7,462 positions searched, as on the classic board."""
    stuck = "\n".join("#" + row + "#" for row in klotski.LAYOUTS["走投无路"][0].split("/"))
    board = Board.from_text("goal: 4,2\n######\n" + stuck + "\n######")
    result = solve(board)
    assert not result.solved and "capped" not in result.stats and "all 7,462 reachable" in result.reason
    assert result.stats["reachable"] == 7462


def test_pieces_that_never_move_are_walls_to_the_search():
    """B is boxed in by walls: no part of a position, its cells never free."""
    board = Board.from_text("#######\n#B#C#.#\n###A..#\n#.....#\n#...+.#\n#######")
    layers = _layers(board)
    assert layers.fixed and layers.start.shape[1] == 2
    result = solve(board)
    assert result.solved and result.moves == reference_minimum(board, "piece") == 2
    assert validate(board, result.solution) == []


def test_keys_of_several_words_on_a_crowded_board():
    """Twenty-two movable pieces of three kinds on 8×8: a key needs two words (a position
    is found by the bytes of both)."""
    pieces = [Piece("C", 0, 0, 1, 1)]
    names = iter("ABDEFGHIJKLMNOPQRSTUVWXYZ")
    pieces += [Piece(next(names), 2 + i // 5, 1 + i % 5, 1, 1) for i in range(10)]
    pieces += [Piece(next(names), 4 + i // 3, 2 * (i % 3) + 1, 1, 2) for i in range(6)]
    pieces += [Piece(next(names), 6, i + 1, 2, 1) for i in range(6)]
    board = Board.make(8, 8, pieces, "C", None, marks=frozenset({(1, 7)}))
    layers = _layers(board)
    assert layers.key_words > 1
    assert np.array_equal(layers.rows(layers.keys(layers.start)), layers.start)
    result = solve(board)
    assert result.solved and result.moves == 1 and validate(board, result.solution) == []
    # the goal cell in a corner behind a wall, its one way in held by a soldier: two moves
    pieces.append(Piece("a", 0, 6, 1, 1))
    cornered = Board.make(8, 8, pieces, "C", None, walls=frozenset({(1, 7)}), marks=frozenset({(0, 7)}))
    result = solve(cornered)
    with layered(False):
        assert result.solved and result.moves == solve(cornered).moves == 2
    assert validate(cornered, result.solution) == []


def test_layered_search_reports_progress(monkeypatch):
    from solvers.common import Progress

    monkeypatch.setattr(klotski, "Progress", lambda say: Progress(say, every=0.0))
    lines: list[str] = []
    solve(Board.from_text(FRAMED), progress=lines.append)
    assert lines and all("positions searched" in line for line in lines)
