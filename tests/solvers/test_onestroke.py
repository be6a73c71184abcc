"""One-stroke: the board model, the solver judged by the independent checker, the proofs of
"no solution", the plain reference search and the level generator."""
from __future__ import annotations

from dataclasses import replace

import pytest
from hypothesis import assume, given, settings
from hypothesis import strategies as st

from solvers.common import BoardError
from solvers.onestroke import (Board, _dfs, _grid, _Matching, _moves, _one_neighbour_cells, generate, search_plain,
                               show, solve, validate)

EXAMPLE = "######\n#.##.#\n####S#\n#.##.#\n######"


def assert_solves(board: Board) -> list[list[int]]:
    result = solve(board)
    assert result.solved, result.reason
    assert validate(board, result.solution) == []
    assert result.moves == len(board.cells) - 1
    assert result.stats["nodes"] >= 1
    return result.solution


# ---------------------------------------------------------------------------- board text

def test_from_text_reads_cells_holes_and_start() -> None:
    board = Board.from_text(EXAMPLE)
    assert (board.rows, board.cols, board.start) == (5, 6, (2, 4))
    assert len(board.cells) == 26 and (1, 1) not in board.cells and (2, 4) in board.cells


def test_to_text_round_trips() -> None:
    assert Board.from_text(EXAMPLE).to_text() == EXAMPLE


def test_slash_separated_rows_equal_newline_rows() -> None:
    assert Board.from_text(EXAMPLE.replace("\n", "/")) == Board.from_text(EXAMPLE)


@pytest.mark.parametrize("text, row", [("S##\n#\n###", 2), ("S##/###/####", 3)])
def test_a_short_or_long_row_is_refused_naming_it(text: str, row: int) -> None:
    with pytest.raises(BoardError, match=f"line {row}: row {row} has .* expected 3 like the first row"):
        Board.from_text(text)


@pytest.mark.parametrize("text, line, words", [
    ("S##\n#x#", 2, ["column 2", "'x'"]),
    ("S#\n# #", 2, ["column 2", "' '"]),
    ("S##\n###\n##S", 3, ["column 3", "second start"]),
])
def test_malformed_text_names_line_column_and_character(text: str, line: int, words: list[str]) -> None:
    with pytest.raises(BoardError) as info:
        Board.from_text(text)
    assert info.value.line == line
    assert str(info.value).startswith(f"line {line}:")
    for word in words:
        assert word in str(info.value)


@pytest.mark.parametrize("text", ["###\n###", "...", ""])
def test_board_without_start_is_refused(text: str) -> None:
    with pytest.raises(BoardError):
        Board.from_text(text)


# ---------------------------------------------------------------------------- solving

def test_solves_the_games_example() -> None:
    solution = assert_solves(Board.from_text(EXAMPLE))
    assert solution[0] == [2, 4]


def test_solves_real_level_643_as_read_from_the_capture() -> None:
    board = Board.from_text(".##.S##/#######/##.####/.######/#.#####/#####.#/#######")
    assert assert_solves(board)[0] == [0, 4]


def test_single_cell_board_is_solved_with_no_moves() -> None:
    result = solve(Board.from_text("..\n.S"))
    assert result.solved and result.solution == [[1, 1]] and result.moves == 0


def test_parity_proves_no_solution_without_search() -> None:
    result = solve(Board.from_text("#S#\n###\n###"))   # 5 dark, 4 light, light start
    assert not result.solved and result.stats["nodes"] == 0
    assert result.reason.startswith("parity:") and "5 dark" in result.reason


def test_disconnected_cells_are_reported() -> None:
    result = solve(Board.from_text("S#.##"))
    assert not result.solved and "not connected" in result.reason


def test_cell_without_neighbour_is_reported() -> None:
    result = solve(Board.from_text("S#\n..\n.#"))
    assert not result.solved and result.reason == "cell (2, 1) has no neighbour"


def test_two_cells_with_one_neighbour_besides_start_cannot_both_be_the_end() -> None:
    result = solve(Board.from_text("#.#\n###\n.S."))
    assert not result.solved and "one neighbour each" in result.reason


def test_search_proves_no_solution_parity_does_not_catch() -> None:
    # Balanced colours, connected, one cell with one neighbour (of the right colour), but
    # the start cuts that cell off from the square: the path cannot come back.
    board = Board.from_text("##\n##\n.S\n.#")
    result = solve(board)
    assert not result.solved and "exhaustive search" in result.reason
    assert search_plain(board).solved is False


@pytest.mark.parametrize("text", ["##.#/S###/####", "#####/#.#.S/#####"])
def test_edge_needs_no_matching_can_meet_prove_no_solution_without_search(text: str) -> None:
    # Connected, colours balanced, no two forced ends: only counting the edges each cell
    # needs against the edges its neighbours can give shows there is no path.
    board = Board.from_text(text)
    result = solve(board)
    assert not result.solved and result.stats["nodes"] == 0
    assert "two path edges" in result.reason
    assert search_plain(board).solved is False


def test_a_marked_end_is_where_every_answer_ends() -> None:
    free = solve(Board.from_text("S##\n###\n###")).solution
    board = Board.from_text("S##\n#E#\n###")
    assert free[-1] != [1, 1] and assert_solves(board)[-1] == [1, 1]
    assert validate(board, free) == [f"the path ends at {tuple(free[-1])}, not at the marked end (1, 1)"]


@pytest.mark.parametrize("text, words", [
    ("S#E\n###", ["parity", "marked end (0, 2)"]),              # 6 cells from a dark start end on light
    ("S#E\n###\n#..", ["cell (2, 0) has one neighbour", "not at the marked end (0, 2)"]),
])
def test_a_marked_end_the_path_cannot_reach_last_is_proved_without_search(text: str, words: list[str]) -> None:
    result = solve(Board.from_text(text))
    assert not result.solved and result.stats["nodes"] == 0 and all(w in result.reason for w in words), result.reason


def test_a_second_end_is_refused_naming_both() -> None:
    with pytest.raises(BoardError, match=r"line 2: column 2: a second end 'E' \(the first is at line 1, column 3\)"):
        Board.from_text("S#E\n#E#")


def test_node_limit_gives_up_and_says_so() -> None:
    result = solve(Board.from_text(EXAMPLE), max_nodes=5)
    assert not result.solved and result.stats["capped"] and result.reason.startswith("gave up")
    assert search_plain(Board.from_text(EXAMPLE), limit=5).stats["capped"]


@pytest.mark.parametrize("size, seed", [(6, 1), (8, 2), (10, 3), (12, 4)])
def test_generated_levels_are_solved(size: int, seed: int) -> None:
    assert_solves(generate(size, size, seed))


# ---------------------------------------------------------------------------- properties

@st.composite
def small_boards(draw: st.DrawFn) -> Board:
    rows, cols = draw(st.integers(1, 5)), draw(st.integers(1, 5))
    cells = draw(st.sets(st.tuples(st.integers(0, rows - 1), st.integers(0, cols - 1)), min_size=1))
    start = draw(st.sampled_from(sorted(cells)))
    end = draw(st.sampled_from([None] + sorted(cells - {start})))     # a marked end, or none
    return Board(rows, cols, frozenset(cells), start, end)


@settings(max_examples=300, deadline=None)
@given(small_boards())
def test_solver_answers_are_valid_and_agree_with_plain_search(board: Board) -> None:
    result = solve(board)
    reference = search_plain(board)
    assert result.solved == reference.solved, board.to_text()
    if result.solved:
        assert validate(board, result.solution) == []
        assert validate(board, reference.solution) == []
    else:
        assert result.reason


@settings(max_examples=200, deadline=None)
@given(small_boards())
def test_search_back_from_a_forced_last_cell_agrees_with_plain_search(board: Board) -> None:
    # solve() lets this search take turns with the forward one on big boards; small ones
    # rarely need it, so it is driven directly here.
    board = replace(board, end=None)     # the forced cell is the end here, not a marked one
    g = _grid(board)
    start = g.bit(board.start)
    forced = _one_neighbour_cells(g, start)
    assume(len(forced) == 1)
    rank = [0.0] * len(g.neighbours)
    matching = _Matching(g)
    path, _ = _dfs(g, forced[0], lambda head, free: _moves(g, head, free, 1 << start, rank, matching), None, set())
    assert (path is not None) == search_plain(board).solved, board.to_text()
    if path is not None:
        assert validate(board, [list(g.cell(i)) for i in reversed(path)]) == []


@settings(max_examples=100, deadline=None)
@given(small_boards())
def test_text_round_trip_keeps_the_board(board: Board) -> None:
    again = Board.from_text(board.to_text())
    assert again == board


@settings(max_examples=30, deadline=None)
@given(st.integers(2, 9), st.integers(2, 9), st.integers(0, 10**6))
def test_generated_boards_are_solvable_full_enough_and_deterministic(rows: int, cols: int, seed: int) -> None:
    board = generate(rows, cols, seed)
    assert board == generate(rows, cols, seed)
    assert len(board.cells) >= 0.75 * rows * cols
    assert_solves(board)


@st.composite
def holed_boards(draw: st.DrawFn, size: int = 8) -> Board:
    """Boards made another way than ``generate``: random holes (as many of each colour,
    9-19 % of the grid, so that parity alone rarely settles them) and a random start."""
    grid = [(r, c) for r in range(size) for c in range(size)]
    k = draw(st.integers(3, 6))
    holes = set()
    for colour in (0, 1):
        holes |= draw(st.sets(st.sampled_from([x for x in grid if sum(x) % 2 == colour]), min_size=k, max_size=k))
    cells = sorted(set(grid) - holes)
    return Board(size, size, frozenset(cells), draw(st.sampled_from(cells)))


@settings(max_examples=40, deadline=None)
@given(holed_boards())
def test_random_hole_boards_are_answered_right(board: Board) -> None:
    result = solve(board)
    assume(result.solved or "not connected" not in result.reason)
    if result.solved:
        assert validate(board, result.solution) == [], board.to_text()
    else:
        assert result.reason and not result.stats.get("capped")
        reference = search_plain(board, limit=100_000)
        if not reference.stats.get("capped"):       # plain finished: it must find nothing
            assert not reference.solved, board.to_text()


def test_generator_depends_on_the_seed() -> None:
    assert len({generate(8, 8, seed) for seed in range(5)}) > 1


# ---------------------------------------------------------------------------- checker

BOARD = Board.from_text("S#\n##")


@pytest.mark.parametrize("solution, words", [
    ([[0, 0], [0, 1], [1, 1], [1, 0]], None),
    ("0,0", "non-empty list"),
    ([], "non-empty list"),
    ([[0, 0], [0, True]], "not a [row, col]"),
    ([[0, 0], [0, 1, 2]], "not a [row, col]"),
    ([[0, 1], [0, 0], [1, 0], [1, 1]], "starts at (0, 1)"),
    ([[0, 0], [1, 1], [0, 1], [1, 0]], "not a step"),
    ([[0, 0], [0, 1], [1, 1], [1, 0], [1, 1]], "second time"),
    ([[0, 0], [0, 1], [0, 2]], "not a cell"),
    ([[0, 0], [0, 1], [1, 1]], "never visited"),
])
def test_validate_names_each_broken_rule(solution: object, words: str | None) -> None:
    problems = validate(BOARD, solution)
    if words is None:
        assert problems == []
    else:
        assert any(words in p for p in problems), problems


def test_show_numbers_the_visits_aligned() -> None:
    board = Board.from_text(EXAMPLE)
    lines = show(board, solve(board).solution).splitlines()
    assert len(lines) == 5
    assert lines[2].split()[4] == "1"
    assert lines[1].split()[1] == "."
    assert len({len(line) for line in lines}) == 1
    numbers = sorted(int(x) for line in lines for x in line.split() if x != ".")
    assert numbers == list(range(1, 27))
