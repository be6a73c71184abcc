"""Valves: the board model, the minimum vertex cut, every minimum answer, the rule checker.

Answers are judged by ``validate``; minimality and the list of every minimum answer are
checked against a plain search over subsets of valves on small graphs.
"""
from __future__ import annotations

import itertools
import random
import re
from collections import deque

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from solvers.common import BoardError, OptionError
from solvers.valves import Board, show, solve, validate

GAME = """
inlet: X
outlet: Y
wrenches: 3
X G
X H
X K
X B
Y C
Y D
Y E
Y J
Y B
Y H
Y I
A D
A C
A I
A J
A F
A G
B I
F K
"""


def blocks(board: Board, shut: set[str]) -> bool:
    """Reference: no path from inlet to outlet once ``shut`` (and the closed valves) are out."""
    seen, queue = {board.inlet}, deque([board.inlet])
    while queue:
        here = queue.popleft()
        for a, b in board.pipes:
            for u, v in ((a, b), (b, a)):
                if u == here and v not in seen and v not in shut and v not in board.closed:
                    seen.add(v)
                    queue.append(v)
    return board.outlet not in seen


def minimum_answers(board: Board) -> list[list[str]]:
    """Reference: every smallest set of open valves that blocks the water, by trying subsets."""
    valves = [v for v in board.valves if v not in board.closed]
    for k in range(len(valves) + 1):
        found = [sorted(c) for c in itertools.combinations(valves, k) if blocks(board, set(c))]
        if found:
            return sorted(found)
    return []


@st.composite
def boards(draw: st.DrawFn) -> Board:
    n = draw(st.integers(3, 9))
    names = [f"P{i}" for i in range(n)]
    pairs = list(itertools.combinations(names, 2))
    chosen = draw(st.lists(st.sampled_from(pairs), min_size=2, max_size=2 * n, unique=True))
    points = list(dict.fromkeys(p for pair in chosen for p in pair))
    inlet, outlet = draw(st.permutations(points))[:2]
    others = [p for p in points if p not in (inlet, outlet)]
    closed = draw(st.lists(st.sampled_from(others), max_size=2, unique=True)) if others else []
    return Board(tuple(chosen), inlet, outlet, 99, frozenset(closed))


# ------------------------------------------------------------------------------ the game

def test_the_games_puzzle_needs_exactly_a_b_h():
    board = Board.from_text(GAME)
    result = solve(board, all=True)
    assert result.solved and result.solution == ["A", "B", "H"] and result.moves == 3
    assert result.extra["solutions"] == [["A", "B", "H"]]
    assert validate(board, result.solution) == []
    assert minimum_answers(board) == [["A", "B", "H"]]


def test_two_wrenches_are_not_enough_for_the_game():
    result = solve(Board.from_text(GAME), wrenches=2)
    assert not result.solved and "at least 3 valves are needed" in result.reason


def test_an_already_closed_valve_holds_a_wrench_and_leaves_the_rest_to_close():
    board = Board.from_text(GAME + "closed: A\n")
    result = solve(board)
    assert result.solution == ["B", "H"] and result.moves == 2
    assert validate(board, result.solution) == []


def test_a_wrongly_closed_valve_can_use_up_the_wrenches():
    result = solve(Board.from_text(GAME + "closed: C\n"))
    assert not result.solved and "at least 3 more valves are needed" in result.reason
    assert "1 on closed valves" in result.reason


def test_inlet_joined_to_outlet_by_a_pipe_has_no_answer():
    result = solve(Board.from_text("X Y\nX A\nA Y"))
    assert not result.solved and result.reason == "inlet and outlet are joined by a pipe"


def test_inlet_already_cut_off_needs_nothing():
    board = Board.from_text("X A/A Y/closed: A")
    result = solve(board, all=True)
    assert result.solved and result.solution == [] and result.moves == 0
    assert result.extra["solutions"] == [[]]
    assert validate(board, []) == []


# ------------------------------------------------------------------ against the reference

@settings(max_examples=150, deadline=None)
@given(boards())
def test_solver_answer_is_valid_and_as_small_as_any(board):
    result = solve(board)
    if not result.solved:
        assert result.reason == "inlet and outlet are joined by a pipe"
        assert (board.inlet, board.outlet) in board.pipes or (board.outlet, board.inlet) in board.pipes
        return
    assert validate(board, result.solution) == []
    assert result.moves == len(result.solution) == len(minimum_answers(board)[0])


@settings(max_examples=150, deadline=None)
@given(boards())
def test_all_lists_every_minimum_answer_once(board):
    result = solve(board, all=True)
    if result.solved:
        answers = result.extra["solutions"]
        assert sorted(answers) == minimum_answers(board)
        assert len({tuple(a) for a in answers}) == len(answers)
        assert result.solution == answers[0] == solve(board).solution


def test_many_answers_are_listed_without_trying_subsets():
    # 12 parallel two-valve chains: 2**12 minimum answers among 24 valves (2**24 subsets).
    pipes = [p for i in range(12) for p in (("X", f"a{i}"), (f"a{i}", f"b{i}"), (f"b{i}", "Y"))]
    board = Board(tuple(pipes), wrenches=12)
    result = solve(board, all=True)
    assert len(result.extra["solutions"]) == 2 ** 12
    assert all(validate(board, a) == [] for a in result.extra["solutions"][::97])


def test_fewer_wrenches_than_needed_names_the_least_number():
    board = Board.from_text("X A/X B/X C/A Y/B Y/C Y")
    assert solve(board, wrenches=3).solved
    result = solve(board, wrenches=2)
    assert not result.solved and result.reason.startswith("at least 3 valves are needed")


def test_one_valve_short_reads_in_the_singular():
    result = solve(Board.from_text("X A/A Y"), wrenches=0)
    assert result.reason == "at least 1 valve is needed (wrenches: 0)"


def test_negative_wrenches_option_is_an_option_error():
    with pytest.raises(OptionError, match="wrenches"):
        solve(Board.from_text(GAME), wrenches=-1)


def test_fewer_wrenches_than_closed_valves_is_an_option_error():
    with pytest.raises(OptionError, match="2 valves are closed"):
        solve(Board.from_text(GAME + "closed: A B"), wrenches=1)


def test_all_stops_at_the_limit_and_says_so(monkeypatch):
    import solvers.valves

    monkeypatch.setattr(solvers.valves, "MAX_ANSWERS", 10)
    pipes = [p for i in range(12) for p in (("X", f"a{i}"), (f"a{i}", f"b{i}"), (f"b{i}", "Y"))]
    result = solve(Board(tuple(pipes), wrenches=12), all=True)
    assert len(result.extra["solutions"]) == 10 and result.extra["solutions_truncated"] is True
    assert "solutions_truncated" not in solve(Board.from_text(GAME), all=True).extra


# ------------------------------------------------------------------------- the checker

@pytest.mark.parametrize("solution, complaint", [
    (["A", "B"], "water still flows"),
    (["A", "B", "Q"], "not a point"),
    (["A", "B", "X"], "inlet"),
    (["A", "B", "Y"], "outlet"),
    (["A", "A", "B", "H"], "closed twice"),
    (["A", "B", "H", "C"], "only 3 wrenches"),
    ("A B H", "list of valve names"),
])
def test_validate_names_what_breaks_the_rules(solution, complaint):
    problems = validate(Board.from_text(GAME), solution)
    assert any(complaint in p for p in problems), problems


def test_validate_refuses_closing_a_closed_valve_again():
    board = Board.from_text(GAME + "closed: A")
    assert any("already closed" in p for p in validate(board, ["A", "B"]))


def test_validate_shows_the_water_path_left_open():
    problems = validate(Board.from_text("X A/A Y/X B/B Y"), ["A"])
    assert problems == ["water still flows: X-B-Y"]


# -------------------------------------------------------------------------- the board

def test_board_text_round_trips_and_accepts_slashes_dashes_comments():
    text = "# the sewer\ninlet: S\noutlet: T\nwrenches: 2\nclosed: B\nS-A   # first pipe\nA - T\nS B\nB T\n"
    board = Board.from_text(text)
    assert board.inlet == "S" and board.outlet == "T" and board.wrenches == 2 and board.closed == {"B"}
    assert board.pipes == (("S", "A"), ("A", "T"), ("S", "B"), ("B", "T"))
    assert Board.from_text(board.to_text()) == board
    assert Board.from_text(board.to_text().replace("\n", "/")) == board


def test_board_defaults_are_x_y_and_three_wrenches():
    board = Board.from_text("X A\nA Y")
    assert (board.inlet, board.outlet, board.wrenches, board.closed) == ("X", "Y", 3, frozenset())


@pytest.mark.parametrize("text, message", [
    ("X A\nA Y\nA ? B", "line 3: expected a pipe"),
    ("X A\nA A\nA Y", "line 2: pipe A-A joins a point to itself"),
    ("X A\nA Y\nY A", "line 3: pipe Y-A is given twice"),
    ("inlet: X\nX A\ninlet: A\nA Y", "line 3: inlet is given twice"),
    ("X A\nA Y\ncolour: red", "line 3: unknown setting 'colour'"),
    ("X A\nA Y\nwrenches: lots", "line 3: wrenches: expects a whole number"),
    ("X A\nA Y\nwrenches: -1", "line 3: wrenches must be 0 or more"),
    ("inlet: Q\nX A\nA Y", "line 1: inlet Q is on no pipe"),
    ("A B\nB Y", "inlet X (the default) is on no pipe"),
    ("inlet: Y\nX A\nA Y", "inlet and outlet are the same point"),
    ("X A\nA Y\nclosed: X", "line 3: closed: X is the inlet"),
    ("X A\nA Y\nclosed: Q", "line 3: closed: Q is on no pipe"),
    ("wrenches: 1\nX A\nA B\nB Y\nclosed: A B", "line 1: 2 valves are closed but there is only 1 wrench"),
    ("inlet: X\noutlet: Y", "no pipes"),
    ("\n\nX A\nA Y\nA B C", "line 5:"),
    ("", "empty"),
])
def test_malformed_boards_are_refused_naming_the_line(text, message):
    with pytest.raises(BoardError, match=re.escape(message)):
        Board.from_text(text)


def test_show_lists_the_valves_to_close():
    board = Board.from_text(GAME)
    text = show(board, ["A", "B", "H"])
    assert "close 3 valves: A, B, H" in text and "X" in text and "Y" in text


def test_a_thousand_point_sewer_matches_networkx_and_every_answer_is_valid():
    import networkx as nx

    from puzzlepilot.benchmarks.valves import sewer

    board = sewer(32, seed=7)
    result = solve(board, all=True)
    cut = nx.minimum_node_cut(nx.Graph(board.pipes), board.inlet, board.outlet)
    assert result.solved and result.moves == len(cut) == result.stats["flow"]
    answers = result.extra["solutions"]
    assert len({tuple(a) for a in answers}) == len(answers) > 1
    assert all(validate(board, a) == [] and len(a) == result.moves for a in answers)


@pytest.mark.parametrize("seed", range(4))
def test_the_flow_matches_networkx_minimum_node_cut_on_random_graphs(seed):
    """The solver's own max-flow against networkx's ``minimum_node_cut`` (its own split
    graph and flow) on 100 random graphs a seed: 2-40 points, sparse to dense, some valves
    already closed; the answer is as small as networkx's and valid by the rule checker."""
    import networkx as nx

    rng = random.Random(seed)
    tried = 0
    while tried < 100:
        names = ["X", "Y"] + [f"p{i}" for i in range(rng.randint(1, 38))]
        density = rng.uniform(0.05, 0.5)
        pipes = [(a, b) for i, a in enumerate(names) for b in names[i + 1:] if rng.random() < density]
        points = {p for pipe in pipes for p in pipe}
        if not {"X", "Y"} <= points or ("X", "Y") in pipes:
            continue
        closed = set(rng.sample(sorted(points - {"X", "Y"}), min(len(points) - 2, rng.randint(0, 2))))
        board = Board(tuple(pipes), wrenches=len(closed) + 40, closed=frozenset(closed))
        graph = nx.Graph([pipe for pipe in pipes if not closed & set(pipe)])
        graph.add_nodes_from("XY")
        least = len(nx.minimum_node_cut(graph, "X", "Y")) if nx.has_path(graph, "X", "Y") else 0
        result = solve(board)
        assert result.solved and result.stats["flow"] == result.moves == least, (seed, tried)
        assert validate(board, result.solution) == []
        tried += 1
