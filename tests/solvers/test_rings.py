"""Ring battles: the board text, the move reading, the solver judged by the independent
checker, and optimality against a plain breadth-first search."""
from __future__ import annotations

import random

import numpy as np
import pytest
from hypothesis import given, settings, strategies as st

from solvers import rings, rings_arrays
from solvers.common import BoardError, OptionError
from solvers.rings import MOVES, Board, _exact_cover, _set_cover, apply_move, generate, say, show, solve, validate

WORKED_EXAMPLE = "moves: 1\n..x.........\n..x.........\n..x.........\n...x........"
ALL_MOVES = [m.to_json() for m in MOVES]


def board_of(cells: set[tuple[int, int]], budget: int | None = None) -> Board:
    rows = ["".join("x" if (r, s) in cells else "." for s in range(12)) for r in range(4)]
    return Board.from_text((f"moves: {budget}\n" if budget is not None else "") + "\n".join(rows))


def reference_distance(board: Board, depth: int, rule: str = "strict") -> int | None:
    """Plain breadth-first search over all 86 moves with the checker's simulator."""
    def solved(grid: list[list[str]]) -> bool:
        cells = frozenset((r, s) for r in range(4) for s in range(12) if grid[r][s] != ".")
        return _set_cover(cells, -(-len(cells) // 4)) if rule == "attacks" else _exact_cover(cells)

    frontier, seen = [[list(line) for line in board.cells]], set()
    for d in range(depth + 1):
        if any(solved(g) for g in frontier):
            return d
        nxt = []
        for grid in frontier:
            for move in ALL_MOVES:
                new = apply_move(grid, move)
                key = "".join(map("".join, new))
                if key not in seen:
                    seen.add(key)
                    nxt.append(new)
        frontier = nxt
    return None


# ---------------------------------------------------------------------------- board text

def test_board_reads_moves_line_and_slash_separated_rows():
    board = Board.from_text(WORKED_EXAMPLE.replace("\n", "/"))
    assert board.budget == 1
    assert board.enemies == 4
    assert Board.from_text(board.to_text()) == board


def test_board_without_moves_line_keeps_no_budget():
    board = Board.from_text("x" * 12 + "\n" + "." * 12 + "\n" + "." * 12 + "\n" + "." * 12)
    assert board.budget is None
    assert board.to_text().splitlines()[0] == "x" * 12


@pytest.mark.parametrize("text, words", [
    ("moves: 2\n" + "." * 12, "expected 4 ring lines"),
    ("." * 12 + "\n" + "." * 11 + "\n" + "." * 12 + "\n" + "." * 12, "line 2: ring 1 has 11"),
    ("moves: 1\n" + "." * 12 + "\n" + "..#" + "." * 9 + "\n" + "." * 12 + "\n" + "." * 12,
     "line 3: column 3: unexpected character '#'"),
    ("moves: three\n" + "\n".join(["." * 12] * 4), "line 1: expected 'moves: N'"),
    ("", "empty"),
])
def test_malformed_boards_are_rejected_naming_the_line(text, words):
    with pytest.raises(BoardError, match=words):
        Board.from_text(text)


# ---------------------------------------------------------------------------- reading of moves

def test_worked_example_is_solved_by_turning_the_inner_ring_back_one_slice():
    board = Board.from_text(WORKED_EXAMPLE)
    assert validate(board, [{"op": "rotate", "ring": 3, "steps": -1}]) == []
    assert validate(board, [{"op": "rotate", "ring": 3, "steps": 1}]) != []
    result = solve(board)
    assert result.solved and result.moves == 1
    assert validate(board, result.solution) == []


def test_slide_moves_slice_i_toward_the_centre_and_wraps_slice_i_plus_6_outer_cell():
    # Along line 0: outer of slice 6, then outer, ring 1, ring 2 of slice 0; one step in
    # fills slice 0 (the outer cell of slice 6 wraps to slice 0's outer cell).
    board = board_of({(0, 6), (0, 0), (1, 0), (2, 0)}, budget=1)
    assert validate(board, [{"op": "slide", "line": 0, "steps": 1}]) == []
    assert validate(board, [{"op": "slide", "line": 0, "steps": 7}]) != []
    result = solve(board)
    assert result.solution == [{"op": "slide", "line": 0, "steps": 1}]


def test_lines_and_blocks_count_as_groups_and_blocks_wrap_from_slice_11_to_0():
    block = {(2, 11), (3, 11), (2, 0), (3, 0)}
    line = {(r, 5) for r in range(4)}
    assert solve(board_of(block | line)).moves == 0
    assert validate(board_of(block | line), []) == []
    assert validate(board_of({(1, 0), (2, 0), (1, 1), (2, 1)}), []) != []


# ---------------------------------------------------------------------------- the checker

def test_checker_rejects_malformed_moves_and_overspent_budgets():
    board = Board.from_text(WORKED_EXAMPLE)
    assert validate(board, "rotate") == ["the solution must be a list of moves"]
    assert "move 1: steps" in validate(board, [{"op": "rotate", "ring": 3, "steps": 7}])[0]
    assert "move 1: line" in validate(board, [{"op": "slide", "line": 6, "steps": 1}])[0]
    assert "move 1: not a rotate" in validate(board, [{"op": "flip"}])[0]
    two = [{"op": "rotate", "ring": 3, "steps": -1}, {"op": "rotate", "ring": 0, "steps": 6},
           {"op": "rotate", "ring": 0, "steps": 6}]
    assert any("exceed the budget of 1" in p for p in validate(board, two))
    assert validate(board, two, moves=3) == []


@settings(max_examples=300, deadline=None)
@given(st.integers(0, 2 ** 48 - 1), st.sampled_from([0, 0xFFF, 0xF0F0F0F0F0F0, 0xCCCCCCCCCCCC]))
def test_bitboard_goal_tests_agree_with_the_checker(bits, bias):
    # Bias toward whole columns and inner pairs so that goals are common in the sample.
    # Both forms: on arrays (rings_arrays) and on one int (rings, the quick path).
    state = bits & (bias | (bits >> 7)) if bias else bits
    cells = frozenset((b % 4, b // 4) for b in range(48) if state >> b & 1)
    arr = np.array([state], dtype=np.uint64)
    assert bool(rings_arrays._strict_goal(arr)[0]) == rings._strict_goal(state) == _exact_cover(cells)
    assert int(rings_arrays._attack_count(arr)[0]) == rings._attack_count(state)
    assert int(rings_arrays._canon(arr)[0]) == rings._canon(state)
    n = len(cells)
    if n <= 24:
        assert (rings._attack_count(state) <= -(-n // 4)) == _set_cover(cells, -(-n // 4))


@settings(max_examples=200, deadline=None)
@given(st.integers(0, 2 ** 48 - 1))
def test_every_move_on_one_int_is_the_rules_simulator_s_move(bits):
    # The quick path's move (a few operations on the int) against the checker's simulator.
    grid = [["x" if bits >> (4 * s + r) & 1 else "." for s in range(12)] for r in range(4)]
    for m, move in enumerate(MOVES):
        moved = apply_move(grid, move.to_json())
        assert rings._image(bits, m) == sum(1 << (4 * s + r) for r in range(4) for s in range(12) if moved[r][s] != ".")


@settings(max_examples=300, deadline=None)
@given(st.sets(st.integers(0, 11), max_size=12), st.sets(st.integers(0, 11), max_size=12))
def test_every_union_of_disjoint_lines_and_blocks_is_a_strict_goal(lines, pairs):
    cells: set[tuple[int, int]] = {(r, s) for s in lines for r in range(4)}
    for s in sorted(pairs):
        block = {(r, t % 12) for r in (2, 3) for t in (s, s + 1)}
        if not block & cells:
            cells |= block
    state = sum(1 << (4 * s + r) for r, s in cells)
    assert rings_arrays._strict_goal(np.array([state], dtype=np.uint64))[0] and rings._strict_goal(state)


# ---------------------------------------------------------------------------- the solver

@settings(max_examples=25, deadline=None)
@given(st.integers(0, 10 ** 6), st.integers(1, 6), st.integers(0, 3))
def test_scrambled_goals_are_solved_within_the_scramble_length(seed, groups, moves):
    board = generate(seed, groups, moves)
    result = solve(board, moves=3)
    assert result.solved and result.moves <= moves
    assert validate(board, result.solution, moves=3) == []


@pytest.mark.parametrize("seed", range(6))
def test_answers_are_as_short_as_a_plain_breadth_first_search_finds(seed):
    board = generate(seed, 2 + seed % 3, 1 + seed % 3)
    expected = reference_distance(board, 2)
    result = solve(board, moves=2)
    assert result.solved == (expected is not None)
    if result.solved:
        assert result.moves == expected
        assert validate(board, result.solution, moves=2) == []


@pytest.mark.parametrize("seed", range(3))
def test_attacks_rule_answers_are_shortest_and_valid(seed):
    rng = random.Random(seed)
    board = board_of({(rng.randrange(4), rng.randrange(12)) for _ in range(6)})
    expected = reference_distance(board, 2, rule="attacks")
    result = solve(board, rule="attacks", moves=2)
    assert result.solved == (expected is not None)
    if result.solved:
        assert result.moves == expected
        assert validate(board, result.solution, rule="attacks", moves=2) == []


@pytest.mark.parametrize("enemies", [5, 6, 7])
def test_attacks_rule_with_a_budget_of_5_searches_fully_up_to_7_enemies(enemies):
    board = board_of({(0, s) for s in range(enemies)}, budget=5)   # a row along the outer ring
    result = solve(board, rule="attacks")
    if result.solved:
        assert validate(board, result.solution, rule="attacks") == []
    else:
        assert result.stats["complete"] and "within 5 moves" in result.reason


@pytest.mark.parametrize("seed", range(4))
def test_listed_attack_goals_agree_with_the_forward_goal_test(seed, monkeypatch):
    rng = random.Random(seed)
    board = board_of({(rng.randrange(4), rng.randrange(12)) for _ in range(7)}, budget=4)
    meeting = solve(board, rule="attacks")
    monkeypatch.setattr(rings, "ATTACK_GOALS_UP_TO", 0)      # forward search with the goal test
    forward = solve(board, rule="attacks")
    assert (meeting.solved, meeting.moves) == (forward.solved, forward.moves)
    assert "split" in meeting.stats or not meeting.moves     # it did meet the listed goals


@pytest.mark.parametrize("seed", range(16))
def test_the_plain_int_depths_find_the_array_search_s_answer(seed):
    # solve() settles most depths ≤ 3 on plain ints (the backward levels in the table
    # cache); the array search alone, from the same state, must find the very same moves.
    rng = random.Random(seed)
    if seed % 4 == 3:
        board, rule = board_of({(rng.randrange(4), rng.randrange(12)) for _ in range(6)}, budget=3), "attacks"
    else:
        board, rule = generate(seed, 1 + seed % 3, 1 + seed % 4), "strict"
    budget = board.budget
    solve(board, rule=rule)                      # the table cache holds the levels now
    kind = "strict" if board.enemies % 4 == 0 else "attacks"
    rings._backward.cache_clear()
    quick = solve(board, rule=rule)
    rings._backward.cache_clear()
    start = rings.ForwardLevel([board.bits()], [0], [0])
    found, _ = rings_arrays.search([start], 1, rings._backward(board.enemies, kind), range(1, budget + 1),
                                   rule, board.enemies, {})
    assert quick.solution == (None if found is None else [MOVES[m].to_json() for m in found])
    assert not quick.solved or validate(board, quick.solution, rule) == []


def test_attacks_rule_beyond_7_enemies_says_how_far_it_searched():
    board = board_of({(0, s) for s in range(11)}, budget=5)
    result = solve(board, rule="attacks")
    assert not result.solved and "within 4 moves" in result.reason and "not supported" in result.reason
    assert result.stats["complete"] is False


@pytest.mark.parametrize("seed, moves", [(11, 4), (12, 5)])
def test_deep_scrambles_are_solved_within_budgets_up_to_5(seed, moves):
    board = generate(seed, 2, moves)
    result = solve(board, moves=moves)
    assert result.solved and result.moves <= moves
    assert validate(board, result.solution, moves=moves) == []


def test_an_enemy_count_not_a_multiple_of_4_has_no_strict_answer():
    result = solve(board_of({(0, 0), (1, 0), (2, 0)}))
    assert not result.solved and "multiple of 4" in result.reason
    loose = solve(board_of({(0, 0), (1, 0), (2, 0)}), rule="attacks")
    assert loose.solved and loose.moves == 0


def test_no_answer_within_the_budget_says_so():
    board = board_of({(0, 0), (1, 1), (2, 2), (3, 3)}, budget=1)   # a diagonal
    result = solve(board)
    assert not result.solved and "within 1 move " in result.reason
    assert solve(board, moves=3).solved


def test_bad_options_are_option_errors():
    board = Board.from_text(WORKED_EXAMPLE)
    with pytest.raises(OptionError, match="budget"):
        solve(board, moves=6)
    with pytest.raises(OptionError, match="rule"):
        solve(board, rule="loose")


def test_a_budget_the_board_text_gives_out_of_range_is_a_board_error():
    board = Board.from_text(WORKED_EXAMPLE.replace("moves: 1", "moves: 9"))
    with pytest.raises(BoardError, match="the move budget must be 0..5, got 9"):
        solve(board)


def test_show_lists_the_moves_in_words_and_draws_the_result():
    board = Board.from_text(WORKED_EXAMPLE)
    text = show(board, solve(board).solution)
    assert "1. turn ring 3 (inner) one step anticlockwise" in text.splitlines()
    assert "  ..x........." in text.splitlines()[-1]


@pytest.mark.parametrize("move, words", [
    ({"op": "rotate", "ring": 0, "steps": 6}, "turn ring 0 (outer) six steps clockwise"),
    ({"op": "rotate", "ring": 1, "steps": -5}, "turn ring 1 (second from the outside) five steps anticlockwise"),
    ({"op": "rotate", "ring": 2, "steps": 1}, "turn ring 2 (second from the centre) one step clockwise"),
    ({"op": "slide", "line": 4, "steps": 6}, "slide line 4 two steps outward at slice 4"),
    ({"op": "slide", "line": 0, "steps": 7}, "slide line 0 one step outward at slice 0"),
    ({"op": "slide", "line": 5, "steps": 4}, "slide line 5 four steps inward at slice 5"),
    ({"op": "slide", "line": 2, "steps": 3}, "slide line 2 three steps inward at slice 2"),
])
def test_a_move_is_said_in_a_players_words_the_short_way(move, words):
    """Issue 29: "ring 3 1 anticlockwise" and "line 4 (4 → 10) 6 steps" left the player to
    work out which ring, and that 6 steps one way are 2 the other."""
    assert say(move) == words
