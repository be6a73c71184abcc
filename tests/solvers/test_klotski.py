"""Klotski solver: known figures, minimality against a plain reference search, the board
model's errors, and the rule checker catching bad answers."""
from __future__ import annotations

from collections import deque
from contextlib import contextmanager

import pytest
from hypothesis import given, settings, strategies as st

from solvers.common import BoardError, OptionError
from solvers.klotski import LAYOUTS, Board, Piece, count_positions, layout, solve, validate

CLASSIC = "ACCB/ACCB/DEEF/DGHF/I..J"


@pytest.mark.parametrize("metric, moves", [("piece", 81), ("straight", 90), ("cell", 116)])
def test_classic_layout_needs_the_known_number_of_moves_under_each_metric(metric, moves):
    board = Board.from_text(CLASSIC)
    result = solve(board, metric=metric)
    assert result.solved and result.moves == moves == len(result.solution)
    assert validate(board, result.solution, metric) == []


@pytest.mark.parametrize("name", [n for n, (_, best) in LAYOUTS.items() if best is not None])
def test_named_layouts_are_solved_in_their_known_minimum(name):
    board = layout(name)
    result = solve(board)
    assert result.moves == LAYOUTS[name][1]
    assert validate(board, result.solution) == []


def test_layout_with_no_exit_reports_its_reachable_positions():
    result = solve(layout("走投无路"))
    assert not result.solved and result.solution is None
    assert "7,462" in result.reason and result.stats["reachable"] == 7462


def test_reachable_positions_of_the_classic_layout_match_the_known_counts():
    board = Board.from_text(CLASSIC)
    assert count_positions(board) == 25955
    assert count_positions(board, merge_mirrors=True) == 13011


def test_moves_use_the_letters_of_the_input_board():
    board = Board.from_text("target: X\nQXXR\nQXXR\nSTTU\nSVWU\nY..Z")
    result = solve(board)
    assert result.moves == 81
    assert {m["piece"] for m in result.solution} <= set("QRSTUVWXYZ")
    assert validate(board, result.solution) == []


def test_asymmetric_goal_is_reached_exactly():
    board = Board.from_text("goal: 0,0\nAB.\nDCC\nEE.")
    result = solve(board)
    assert result.solved and validate(board, result.solution) == []
    assert board.goal == (0, 0) and "goal: 0,0" in board.to_text()


def test_target_already_at_the_exit_needs_no_moves():
    result = solve(Board.from_text("AB\nCC", goal=None))
    assert result.solved and result.solution == [] and result.moves == 0


def test_unknown_metric_is_an_option_error():
    with pytest.raises(OptionError, match="metric"):
        solve(Board.from_text(CLASSIC), metric="hops")


# ------------------------------------------------------------- minimality on small boards

def grid_of(board: Board) -> tuple[str, ...]:
    """The board as rows of letters: '#' walls, '=' gates, '.' the rest of the floor."""
    rows = [["."] * board.cols for _ in range(board.rows)]
    for cells, ch in ((board.walls, "#"), (board.gates, "=")):
        for r, c in cells:
            rows[r][c] = ch
    for p in board.pieces:
        for r, c in p.cells():
            rows[r][c] = p.name
    return tuple("".join(r) for r in rows)


def slide(board: Board, grid: tuple[str, ...], name: str, dr: int, dc: int) -> tuple[str, ...] | None:
    """The grid after piece ``name`` slides one cell, or None if it cannot (off the board,
    into a wall or another piece, or into a gate when it is not the target)."""
    cells = [(r, c) for r, row in enumerate(grid) for c, ch in enumerate(row) if ch == name]
    rows = [list(row) for row in grid]
    room = (".", "=", name) if name == board.target else (".", name)
    for r, c in cells:
        nr, nc = r + dr, c + dc
        if not (0 <= nr < len(grid) and 0 <= nc < len(grid[0])) or grid[nr][nc] not in room:
            return None
    for r, c in cells:
        rows[r][c] = "=" if (r, c) in board.gates else "."
    for r, c in cells:
        rows[r + dr][c + dc] = name
    return tuple("".join(r) for r in rows)


def reference_minimum(board: Board, metric: str) -> int | None:
    """Plain BFS over letter grids: a move is any one-cell slide sequence of one piece
    (piece), a run in one direction (straight) or one slide (cell); the goal is the
    target covering its goal cells."""
    def at_goal(grid) -> bool:
        return all(grid[r][c] == board.target for r, c in board.goal_cells())

    steps = [(-1, 0), (1, 0), (0, -1), (0, 1)]
    start = grid_of(board)
    dist = {start: 0}
    queue = deque([start])
    while queue:
        grid = queue.popleft()
        if at_goal(grid):
            return dist[grid]
        for name in {p.name for p in board.pieces}:
            reached = set()
            if metric == "piece":
                todo, reached = [grid], {grid}
                while todo:
                    g = todo.pop()
                    for dr, dc in steps:
                        h = slide(board, g, name, dr, dc)
                        if h and h not in reached:
                            reached.add(h)
                            todo.append(h)
            else:
                for dr, dc in steps:
                    g = grid
                    while (g := slide(board, g, name, dr, dc)):
                        reached.add(g)
                        if metric == "cell":
                            break
            for h in reached:
                if h not in dist:
                    dist[h] = dist[grid] + 1
                    queue.append(h)
    return None


@st.composite
def small_boards(draw) -> Board:
    rows, cols = draw(st.integers(2, 4)), draw(st.integers(2, 4))
    taken: set[tuple[int, int]] = set()
    pieces = []
    for name in "CABDEFGH":
        h, w = draw(st.integers(1, 2)), draw(st.integers(1, 2))
        r, c = draw(st.integers(0, rows - 1)), draw(st.integers(0, cols - 1))
        cells = {(r + i, c + j) for i in range(h) for j in range(w)}
        if r + h > rows or c + w > cols or cells & taken or len(taken) + len(cells) > rows * cols - 2:
            if name == "C":
                h = w = 1
                r = c = 0
                cells = {(0, 0)}
            else:
                continue
        taken |= cells
        pieces.append(Piece(name, r, c, h, w))
    target = pieces[0]
    goal = (draw(st.integers(0, rows - target.height)), draw(st.integers(0, cols - target.width)))
    return Board.make(rows, cols, pieces, "C", goal)


@contextmanager
def bounded_from(positions: int | None):
    """Run the search breadth-first for ``positions`` positions before A* (None: the
    default), so that small boards exercise both phases."""
    import solvers.klotski as klotski

    kept = klotski.BOUNDED_FROM
    klotski.BOUNDED_FROM = kept if positions is None else positions
    try:
        yield
    finally:
        klotski.BOUNDED_FROM = kept


@settings(max_examples=200, deadline=None)
@given(small_boards(), st.sampled_from(["piece", "straight", "cell"]), st.sampled_from([None, 0, 1, 6, 40]))
def test_solver_matches_a_plain_reference_search_on_small_boards(board, metric, switch):
    with bounded_from(switch):
        result = solve(board, metric=metric)
    best = reference_minimum(board, metric)
    if best is None:
        assert not result.solved and result.reason
    else:
        assert result.solved and result.moves == best
        assert validate(board, result.solution, metric) == []


@settings(max_examples=60, deadline=None)
@given(small_boards(), st.sampled_from(["piece", "straight", "cell"]))
def test_the_bound_never_overestimates_and_moves_change_it_by_at_most_one(board, metric):
    from solvers.klotski import _placements, _Space

    space = _Space(board, metric, merge=False)
    best = reference_minimum(board, metric)
    assert best is None or space.bound(space.encode(_placements(board))[0]) <= best
    with bounded_from(0):
        solve(board, metric=metric)
    space = _space_of(board, metric)
    rises = {move[4] for entry in space.by_free.values() for moves in entry[1].values() for move in moves}
    assert rises <= {0, 1, 2}


def _space_of(board: Board, metric: str):
    from solvers.klotski import _space

    target = board.piece(board.target)
    return _space(board, metric, board.goal[1] == board.cols - target.width - board.goal[1])


@pytest.mark.parametrize("name", ["兵分三路", "横刀立马"])
def test_the_bounded_search_reaches_fewer_positions_for_the_same_minimum(name):
    board = layout(name)
    with bounded_from(10**9):
        plain = solve(board)
    with bounded_from(0):
        bounded = solve(board)
    assert bounded.moves == plain.moves == LAYOUTS[name][1]
    assert bounded.stats["positions"] < plain.stats["positions"]
    assert validate(board, bounded.solution) == []


# -------------------------------------------------------------------------- board model

def test_board_text_round_trips_with_slashes_and_newlines():
    board = Board.from_text(CLASSIC)
    assert board.to_text() == CLASSIC.replace("/", "\n")
    assert Board.from_text(board.to_text()) == board
    assert board.goal == (3, 1) and board.target == "C"


def test_relabelled_names_the_target_c_and_the_rest_in_reading_order():
    board = Board.from_text("target: X\nQXXR\nQXXR\nSTTU\nSVWU\nY..Z").relabelled()
    assert board.to_text() == CLASSIC.replace("/", "\n")


@pytest.mark.parametrize("text, message", [
    ("ACCB\nACC\n", "line 2"),
    ("ACCB\nACCB\nDEEF\nDGHF\nI.AJ", "not a solid rectangle"),
    ("AB\nD.", "no target piece"),
    ("CC.\n...", "cannot sit centred"),
    ("goal: 9,9\nCC\n..", "off the board"),
    ("goal: x\nCC\n..", "ROW,COL"),
    ("colour: red\nCC\n..", "unknown header"),
    ("C A\n...", "blank inside a row"),
    ("", "empty"),
    # walls, gates, goal cells and pieces of any shape
    ("shapes: any\nCC.C\n....", "2 parts"),
    ("goal: 0,0\nmarks: 1,1\nC.\n..", "not both"),
    ("shapes: round\nC.", "unknown header"),
    ("marks: 0,1\nC#\n..", "on a wall"),
    ("marks: 0,1 1,1\nC.\n..", "fits nowhere"),
    ("shapes: any\n#CC\n.C.\n..+", "fits nowhere"),
    ("gates: 0,2\nC.A\n+..", "stands on a gate"),
    ("marks: 0,x\nC.", "ROW,COL"),
])
def test_malformed_boards_are_refused_with_a_reason(text, message):
    with pytest.raises(BoardError, match=message):
        Board.from_text(text)


# -------------------------------------------------------------------------- rule checker

@pytest.mark.parametrize("solution, message", [
    ([{"piece": "I", "path": "R"}], "not at the exit"),
    ([{"piece": "I", "path": "U"}], "into D"),
    ([{"piece": "J", "path": "R"}], "off the board"),
    ([{"piece": "Z", "path": "R"}], "no piece"),
    ([{"piece": "I", "path": "X"}], "letters"),
    ("IR", "list of moves"),
    ([["I", "R"]], "object"),
])
def test_rule_checker_names_what_is_wrong(solution, message):
    problems = validate(Board.from_text(CLASSIC), solution)
    assert problems and any(message in p for p in problems)


def test_rule_checker_enforces_the_metric_shape_of_moves():
    board = Board.from_text("C.\n..", goal=(1, 1))
    assert validate(board, [{"piece": "C", "path": "DR"}], "piece") == []
    assert validate(board, [{"piece": "C", "path": "DR"}], "straight")
    assert validate(board, [{"piece": "C", "path": "DR"}], "cell")


# ------------------------------------------------------------------------- search bounds

@pytest.mark.parametrize("switch", [None, 0])
def test_search_gives_up_at_its_position_cap_and_says_so(switch):
    board = Board.from_text(CLASSIC)
    with bounded_from(switch):
        result = solve(board, max_positions=1000)
        assert not result.solved and result.solution is None and result.stats["capped"]
        assert result.reason.startswith("gave up after 1,000 positions")
        assert solve(board, max_positions=result.stats["positions"] * 20).moves == 81


def test_a_proof_of_no_solution_is_not_a_give_up():
    result = solve(layout("走投无路"), max_positions=10**6)
    assert not result.solved and "capped" not in result.stats and "all 7,462" in result.reason


def test_default_cap_keeps_big_boards_within_the_memory_budget():
    from solvers.klotski import MEMORY_BUDGET, _Space, bytes_per_position

    small = Board.from_text(CLASSIC)
    big = Board.make(20, 20, [Piece("C", 0, 9, 2, 2)] + [Piece("ABDEFGHIJKLMNOPQRSTU"[i], 5 + i // 10, 2 * (i % 10), 1, 2)
                                                          for i in range(20)])
    for board in (small, big):
        per = bytes_per_position(_Space(board, "piece", True))
        assert 150 < per < 2000
    assert bytes_per_position(_Space(big, "piece", True)) > bytes_per_position(_Space(small, "piece", True))
    result = solve(big, max_positions=5000, exact=True)
    assert result.solved or result.stats.get("capped")
    assert MEMORY_BUDGET // bytes_per_position(_Space(big, "piece", True)) > 100_000


def test_long_searches_report_progress(monkeypatch):
    import solvers.klotski as klotski
    from solvers.common import Progress

    monkeypatch.setattr(klotski, "CHECK_EVERY", 500)
    monkeypatch.setattr(klotski, "Progress", lambda say: Progress(say, every=0.0))
    for switch in (None, 0):                # breadth-first, then A* from the start
        lines: list[str] = []
        with bounded_from(switch):
            solve(Board.from_text(CLASSIC), progress=lines.append)
        assert lines and all("positions searched" in line for line in lines)
    monkeypatch.undo()
    quiet: list[str] = []
    solve(Board.from_text(CLASSIC), progress=quiet.append)     # the real clock: under a second
    assert quiet == []


@pytest.mark.parametrize("rows, cols, seed", [(4, 4, s) for s in range(4)] + [(5, 4, s) for s in range(3)])
def test_solver_matches_the_reference_on_generated_packed_boards(rows, cols, seed):
    """Packed boards mix every piece shape next to one another (the move memo must keep
    the shapes apart), at sizes the hypothesis boards do not reach."""
    from solvers.klotski import generate

    board = generate(rows, cols, seed, empty=3 if rows == 4 else 2)
    for metric, switch in (("piece", None), ("cell", None), ("piece", 0), ("straight", 100)):
        with bounded_from(switch):
            result = solve(board, metric=metric)
        best = reference_minimum(board, metric)
        assert (result.moves if result.solved else None) == best
        if result.solved:
            assert validate(board, result.solution, metric) == []
