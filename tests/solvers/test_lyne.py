import random

import pytest
from hypothesis import assume, given, settings, strategies as st

from solvers.common import BoardError, Progress
from solvers import lyne
from solvers.lyne import Board, generate, solve, solve_plain, validate

B25 = "TSD/2S2/tsd/D2T"


def solved(text: str) -> tuple[Board, dict]:
    board = Board.from_text(text)
    result = solve(board)
    assert result.solved, result.reason
    assert validate(board, result.solution) == []
    return board, result.solution


# ------------------------------------------------------------------------- board model

def test_canonical_and_slash_texts_read_the_same_board():
    assert Board.from_text("TSD\n2S2\ntsd\nD2T\n") == Board.from_text(B25)
    assert Board.from_text(B25).to_text() == B25.replace("/", "\n")


def test_token_format_reads_question_marks_as_empty_and_keeps_case():
    board = Board.from_text("4 3\n? A B\nc C 2\nC 3 2\nB c A")
    assert board.to_text() == ".AB\ncC2\nC32\nBcA"
    assert board.shapes == ["a", "b", "c"]


def test_a_short_row_is_refused_naming_it():
    with pytest.raises(BoardError, match="line 2: row 2 has 1 places, expected 2"):
        Board.from_text("TT\nt")


@pytest.mark.parametrize("text, words", [
    ("T.t", "shape 't' has 1 terminals"),
    ("TTT", "shape 't' has 3 terminals"),
    ("T5T", "line 1: unknown character '5'"),
    ("TT/t#", "line 2: unknown character '#'"),
    ("..\n22", "no shapes"),
    ("2 2\nT T", "header says 2 rows"),
    ("2 2\nT T\nt", "line 3: expected 2 tokens"),
    ("1 2\nTx T", "line 2: token 'Tx'"),
    ("", "empty"),
])
def test_malformed_boards_are_refused_naming_the_problem(text, words):
    with pytest.raises(BoardError, match=words):
        Board.from_text(text)


# ------------------------------------------------------------------------- rule checker

def test_checker_accepts_a_hand_made_solution_of_b25_and_rejects_a_wrong_end():
    board = Board.from_text(B25)
    answer = {"t": [[0, 0], [1, 0], [2, 0], [3, 1], [3, 2]],
              "s": [[0, 1], [1, 0], [2, 1], [1, 2], [1, 1]],
              "d": [[0, 2], [1, 2], [2, 2], [3, 1], [3, 0]]}
    assert validate(board, answer) == []
    answer["s"] = answer["s"][:-1]
    assert any("not at a terminal" in p for p in validate(board, answer))


@pytest.mark.parametrize("change, words", [
    (lambda s: s["t"].pop(), "not at a terminal"),
    (lambda s: s.pop("d"), "shape 'd': no path"),
    (lambda s: s.update(x=[[0, 0], [0, 1]]), "not a shape"),
    (lambda s: s["t"].__setitem__(1, [5, 5]), "off the board"),
    (lambda s: s["t"].__setitem__(1, "a"), "not a [row, col] pair"),
])
def test_checker_names_each_broken_rule(change, words):
    board, solution = solved(B25)
    change(solution)
    assert any(words in p for p in validate(board, solution))


def test_checker_catches_reused_edges_hub_counts_and_skipped_nodes():
    board = Board.from_text("T2T\nt..")
    # t passes the hub twice over the same edge and never visits (1,0)
    problems = validate(board, {"t": [[0, 0], [0, 1], [0, 0], [0, 1], [0, 2]]})
    text = " ".join(problems)
    assert "already used" in text and "visited 0 times" in text and "through its terminal" in text


def test_checker_catches_crossing_diagonals_and_foreign_nodes():
    board = Board.from_text("TD\nDT")
    problems = validate(board, {"t": [[0, 0], [1, 1]], "d": [[0, 1], [1, 0]]})
    assert any("diagonals cross" in p for p in problems)
    problems = validate(Board.from_text("TdT\nD.D"), {"t": [[0, 0], [0, 1], [0, 2]]})
    assert any("node of shape 'd'" in p for p in problems)


def test_checker_catches_non_neighbour_steps_and_empty_places():
    board = Board.from_text("T.T")
    problems = validate(board, {"t": [[0, 0], [0, 2]]})
    assert any("not between neighbours" in p for p in problems)
    problems = validate(board, {"t": [[0, 0], [0, 1], [0, 2]]})
    assert any("empty place" in p for p in problems)


def test_checker_counts_hub_passes():
    board = Board.from_text("T3T")
    problems = validate(board, {"t": [[0, 0], [0, 1], [0, 2]]})
    assert any("passed 1 times" in p for p in problems)


# ------------------------------------------------------------------------- solver

@pytest.mark.parametrize("text", [B25, "T.T/ttt", "TD/2d/TD", "4 3\n? A B\nc C 2\nC 3 2\nB c A"])
def test_real_and_example_levels_are_solved_by_the_rules(text):
    board, solution = solved(text)
    assert set(solution) == set(board.shapes)


def test_moves_count_the_edges_drawn():
    board = Board.from_text(B25)
    result = solve(board)
    assert result.moves == sum(len(p) - 1 for p in result.solution.values())
    assert result.stats["nodes"] >= 1


@pytest.mark.parametrize("text, words", [
    ("t2t/T2T", "no set of paths"),      # degrees fit, but no single trail joins them
    ("T.T", "impossible from the start"),    # a terminal with no neighbour
    ("T4T", "impossible from the start"),
])
def test_unsolvable_boards_get_a_reason(text, words):
    result = solve(Board.from_text(text))
    assert not result.solved and words in result.reason


def test_solver_agrees_with_the_plain_search_on_boards_that_loop_through_a_hub():
    # a hub may be passed twice by the same path: T-2-t-2-... needs a loop back through it
    for text in ("T2T/tt.", "Tt2/.tT", "T22T"):
        board = Board.from_text(text)
        result, plain = solve(board), solve_plain(board)
        assert result.solved == (plain is not None), text
        if plain is not None:
            assert validate(board, plain) == []


@st.composite
def small_boards(draw) -> Board:
    rows, cols = draw(st.integers(2, 3)), draw(st.integers(2, 4))
    places = [(r, c) for r in range(rows) for c in range(cols)]
    grid = [[draw(st.sampled_from(".tdd2233")) for _ in range(cols)] for _ in range(rows)]
    order = draw(st.permutations(places))
    for i, shape in enumerate("TD"):
        for r, c in order[2 * i: 2 * i + 2]:
            grid[r][c] = shape
    return Board.from_text("\n".join("".join(row) for row in grid))


@settings(max_examples=150, deadline=None)
@given(small_boards())
def test_solver_finds_a_solution_exactly_when_the_plain_search_does(board):
    result, plain = solve(board), solve_plain(board)
    assert result.solved == (plain is not None)
    if result.solved:
        assert validate(board, result.solution) == []
        assert validate(board, plain) == []


@pytest.mark.parametrize("seed", range(6))
def test_generated_levels_are_solvable_and_their_own_answer_checks(seed):
    board, answer = generate(5, 6, random.Random(seed), hubs=4)
    assert validate(board, answer) == []
    assert sum(ch.isdigit() for ch in board.to_text()) >= 4
    solved(board.to_text())


def test_large_generated_levels_with_many_hubs_are_solved():
    rng = random.Random(7)
    for _ in range(5):
        board, _ = generate(6, 8, rng, hubs=6)
        solved(board.to_text())


@settings(max_examples=25, deadline=None)
@given(st.integers(7, 8), st.integers(6, 15), st.integers(0, 10**6))
def test_generated_levels_up_to_8x8_with_many_hubs_are_solved(size, hubs, seed):
    try:
        board, _ = generate(size, size, random.Random(seed), hubs=hubs, tries=300)
    except ValueError:      # no level with that many hubs from this seed
        assume(False)
    result = solve(board, max_nodes=50_000)
    assert result.solved, result.reason
    assert validate(board, result.solution) == []


def test_search_gives_up_at_its_node_cap_and_says_so():
    board, _ = generate(6, 8, random.Random(7), hubs=6)
    needed = solve(board).stats["nodes"]
    assert needed > 1
    capped = solve(board, max_nodes=needed - 1)
    assert not capped.solved and capped.stats["capped"]
    assert capped.reason.startswith(f"gave up after {needed - 1:,} search nodes")
    assert solve(board, max_nodes=needed).solved


def test_a_board_too_big_for_the_solver_is_refused_as_too_large():
    rows = ["T" + "." * 68 + "T"] + ["2" * 70] * 60 + ["t" * 70]
    with pytest.raises(BoardError, match="the board is too large: 4,272 nodes, more than the 4,000 this solver takes"):
        Board.from_text("\n".join(rows))


def test_a_long_search_reports_its_nodes_and_keeps_its_answer(monkeypatch):
    """Progress lines come between chunks of the search (here one dead end each, and no
    first quiet second), and the answer stays right."""
    board = Board.from_text(".2tT..../s242s.../23s32.S./2232..s./.3T3Ss3d/t.323222/t3242232/t.2tD2dD")
    monkeypatch.setattr(lyne, "CHUNK", 1)
    monkeypatch.setattr(lyne, "Progress", lambda say: Progress(say, every=0))
    lines: list[str] = []
    chunked = solve(board, progress=lines.append)
    assert chunked.solved and validate(board, chunked.solution) == []
    assert len(lines) > chunked.stats["rounds"] > 1
    assert lines[-1] == f"LYNE: {chunked.stats['nodes']:,} search nodes, {chunked.stats['rounds']} rounds of cuts"


# The slowest levels met while tuning the hand-made search that MiniSat with cuts replaced,
# with what that search took; MiniSat settles each within 1,200 nodes (dead ends and
# rounds of cuts), most within 200.
@pytest.mark.parametrize("text", [
    "..s.22s/Sss2232/d.dT32./22D22TS/d2d.2s2/....23s/...Dd.s",     # 16 hubs: 4,000 nodes once
    "..t2.../..322../.2223Tt/222223t/S2sTd.D/s222ss./D22ssS.",     # 80,000 nodes
    "ss.Tt../DS223s./.2222sS/.T3s2d./...23dD/...222./..tt...",     # 4,987 nodes
    "...S2t./Dds3232/224d23T/2323d2s/T333222/tt333.2/tDSs22t",     # 421,391 nodes
    "..SsS2t/ssD2422/T224s2./t3422D./22324d./.224td./..2tT..",     # 1,108,797 nodes (75 s)
    "..2t22t/t2233T2/22.222t/223s3t./222223./23SD32T/Ss.Dd2d",     # 2,504 nodes (0.42 s)
    "SsD222t/s.s2322/t.2322./t2D232d/2T2T22./2322.d./S22d...",     # 1.1 s
    "DdT.22T/d33323t/23d3332/2S23322/ss3ss4S/.32D322/.s22s2t",     # 29 hubs: strayed past 300
    # 8x8, 33 hubs: not settled in 1,000,000 nodes once
    ".2tT..../s242s.../23s32.S./2232..s./.3T3Ss3d/t.323222/t3242232/t.2tD2dD",
])
def test_hub_dense_levels_are_settled_in_few_search_nodes(text):
    board = Board.from_text(text)
    result = solve(board)
    assert result.solved and validate(board, result.solution) == []
    assert result.stats["nodes"] < 2_000


@pytest.mark.parametrize("seed", range(3))
def test_dense_generated_levels_check_their_own_answer_and_are_solved(seed):
    board, answer = generate(7, 7, random.Random(seed), hubs=14, tries=200, stretch=3, revisit=8)
    assert validate(board, answer) == []
    assert sum(ch.isdigit() for ch in board.to_text()) >= 14
    solved(board.to_text())


def test_a_board_whose_terminals_no_chain_joins_is_refused_saying_so():
    result = solve(Board.from_text("Tt...tT/tt...tt"))
    assert not result.solved and result.stats["nodes"] == 0
    assert "no chain of places shape 't' may pass joins its terminals" in result.reason


def _answer_values(formula: lyne._Formula, board: Board, answer: dict) -> dict[int, bool]:
    """Each (edge, shape) variable's value in a known answer."""
    net = formula.net
    at = {p: i for i, p in enumerate(net.pos)}
    drawn = {}
    for s, shape in enumerate(board.shapes):
        for a, b in zip(answer[shape], answer[shape][1:]):
            drawn[frozenset((at[tuple(a)], at[tuple(b)]))] = s
    return {v: drawn.get(frozenset(edge)) == s
            for edge, choice in zip(net.edges, formula.var) for s, v in choice.items()}


@pytest.mark.parametrize("seed", [0, 2, 3, 4, 6, 9])     # levels that need cuts (1 and 7 do not)
def test_every_clause_and_cut_admits_a_known_answer(seed, monkeypatch):
    """The rules as clauses leave a known answer possible (MiniSat finds values for the
    helper variables with the answer's edges fixed), and every cut made on the way to
    the solver's own answer holds for it: neither forbids an answer."""
    board, answer = generate(7, 7, random.Random(seed), hubs=20, tries=500, stretch=3, revisit=8)
    formula = lyne._Formula(lyne._Net.build(board))
    truth = _answer_values(formula, board, answer)
    from pysat.solvers import Minisat22
    with Minisat22(bootstrap_with=formula.clauses) as sat:
        assert sat.solve(assumptions=[v if on else -v for v, on in truth.items()])
    made = []
    cuts = lyne._Formula.cuts

    def recorded(self, drawn):
        new = cuts(self, drawn)
        made.extend(new)
        return new

    monkeypatch.setattr(lyne._Formula, "cuts", recorded)
    result = solve(board)
    assert result.solved and validate(board, result.solution) == []
    assert made, "no loop apart was cut off: the test shows nothing"
    for clause in made:
        assert any(truth[abs(v)] == (v > 0) for v in clause), clause
