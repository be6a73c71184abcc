"""Hints one step at a time: every game's step count, each step's shapes being that step's
part of the whole drawing, and rings' progress along an answer (the board after k moves)."""
from __future__ import annotations

from collections import Counter

import pytest

from puzzlepilot.games import GAMES, get
from solvers.rings import Board, apply_move, generate, solve, validate
from vision.common import Parse
from vision.rings import Arena, RingsGeometry

RINGS = get("rings")
ARENA = Arena(400.0, 300.0, 240.0, 60.0)


def rings_parse(board: Board) -> Parse:
    return Parse("rings", board, 1.0, ARENA.cells(), RingsGeometry(ARENA))


def after(board: Board, moves: list, kind: str = "x") -> Board:
    """The board once ``moves`` are made, every enemy drawn as ``kind``, budget unread."""
    grid = [list(ring) for ring in board.cells]
    for move in moves:
        grid = apply_move(grid, move)
    return Board(tuple("".join(kind if ch != "." else "." for ch in ring) for ring in grid))


@pytest.fixture(scope="module", params=[3, 8, 21])
def battle(request) -> tuple[Board, list]:
    board = generate(request.param, groups=2 + request.param % 3, moves=3)
    solution = solve(board).solution
    assert validate(board, solution) == [] and len(solution) >= 2
    return board, solution


def test_the_steps_of_a_rings_answer_are_its_moves_and_together_draw_the_whole_hint(battle) -> None:
    board, solution = battle
    parse = rings_parse(board)
    assert RINGS.steps(solution) == len(solution)
    parts = [RINGS.hints(parse, solution, step=i) for i in range(len(solution))]
    assert all(parts) and Counter(map(repr, sum(parts, []))) == Counter(map(repr, RINGS.hints(parse, solution)))
    assert all(a != b for a, b in zip(parts, parts[1:]))


def test_a_step_out_of_range_is_refused(battle) -> None:
    board, solution = battle
    with pytest.raises(ValueError, match="out of range"):
        RINGS.hints(rings_parse(board), solution, step=len(solution))


def test_rings_progress_counts_the_moves_made_whatever_the_enemy_kinds_and_budget(battle) -> None:
    board, solution = battle
    for done in range(len(solution) + 1):
        assert RINGS.progress(board, solution, after(board, solution[:done], kind="k")) == done


def test_a_board_off_the_answers_way_is_no_progress(battle) -> None:
    board, solution = battle
    on_the_way = {after(board, solution[:k]).to_text() for k in range(len(solution) + 1)}
    turned = (after(board, [{"op": "rotate", "ring": r, "steps": 1}]) for r in range(4))
    off = next(b for b in turned if b.to_text() not in on_the_way)
    assert RINGS.progress(board, solution, off) is None


def test_lyne_steps_are_its_paths_klotski_steps_its_moves_and_games_without_steps_have_one() -> None:
    assert get("lyne").steps({"t": [[0, 0], [0, 1]], "d": [[1, 0], [1, 1]]}) == 2
    assert get("klotski").steps([{"piece": "A", "path": "UL"}, {"piece": "B", "path": "D"}]) == 2
    for name in set(GAMES) - {"rings", "lyne", "klotski"}:
        assert GAMES[name].steps([1, 2, 3]) == 1 and GAMES[name].progress is None
