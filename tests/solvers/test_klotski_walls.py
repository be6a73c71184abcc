"""Klotski past the classic model, as GNOME Klotski's puzzles have it: walls, gates only the
target passes, goal cells anywhere (also outside the frame) and pieces of any connected
shape. The boards below are written from the game's screens; the counts are what the game
scored when the solver's answers were played into it (it counts a move per piece moved,
however far, as the ``piece`` metric does)."""
from __future__ import annotations

import pytest
from hypothesis import given, settings, strategies as st

from solvers.klotski import GNOME_PUZZLES, STEPS, Board, Piece, solve, validate
from tests.solvers.test_klotski import bounded_from, grid_of, reference_minimum, slide

RED_DONKEY = GNOME_PUZZLES["Red Donkey"][0].replace("/", "\n")
ONLY_18_STEPS, AGATKA = GNOME_PUZZLES["Only 18 Steps"][0], GNOME_PUZZLES["Agatka"][0]


def test_red_donkey_takes_81_moves_as_the_game_scores_it_and_121_one_cell_steps():
    board = Board.from_text(RED_DONKEY)
    assert board.goal is None and board.marks == {(7, 4), (7, 5), (8, 4), (8, 5)}
    for metric, moves in (("piece", 81), ("cell", 121)):
        result = solve(board, metric=metric)
        assert result.solved and result.moves == moves == len(result.solution)
        assert validate(board, result.solution, metric) == []


@pytest.mark.parametrize("name", GNOME_PUZZLES)
def test_puzzles_of_the_game_take_the_moves_it_scores(name):
    text, moves = GNOME_PUZZLES[name]
    board = Board.from_text(text)
    result = solve(board)
    assert result.moves == moves
    assert validate(board, result.solution) == []


def test_a_gate_lets_the_target_through_and_no_other_piece():
    opened = Board.from_text(".+.\n...\n#A#\n#C#", goal=None)
    gated = Board.from_text(".+.\n.=.\n#A#\n#C#")
    assert solve(opened).moves == 2
    result = solve(gated)
    assert not result.solved and "capped" not in result.stats and "all 1 reachable" in result.reason
    assert any("into a gate" in p for p in validate(gated, [{"piece": "A", "path": "U"}]))


def test_a_walled_up_exit_is_proven_unreachable():
    result = solve(Board.from_text(RED_DONKEY.replace("==", "##")))
    assert not result.solved and "capped" not in result.stats and "reachable positions searched" in result.reason


def test_the_position_cap_holds_on_walled_boards():
    result = solve(Board.from_text(RED_DONKEY), max_positions=1000, exact=True)
    assert not result.solved and result.stats["capped"] and result.reason.startswith("gave up after 1,000")


def test_mirror_images_merge_only_on_symmetric_boards():
    assert not Board.from_text(RED_DONKEY).symmetric()
    centred = RED_DONKEY.replace("....++\n....++", "..++..\n..++..")
    assert Board.from_text(centred).symmetric()
    assert solve(Board.from_text(centred)).stats["mirror_merged"]
    assert not Board.from_text("shapes: any\n#CC.#\n#C..#\n#.+.#").symmetric()


def test_a_goal_beyond_a_gate_is_searched_by_layers_within_a_small_budget(monkeypatch):
    """Under the piece metric GNOME Klotski's boards are searched by layers, keeping a key of
    8 bytes a position in every layer: Red Donkey's answer, ~23,800
    positions away, fits a 4 MB budget (the estimate of 386 bytes a position of the search
    before gave up after 10,362)."""
    import solvers.klotski as klotski

    board = Board.from_text(RED_DONKEY)
    monkeypatch.setattr(klotski, "MEMORY_BUDGET", 4_000_000)
    result = solve(board)
    assert result.solved and result.moves == 81 and validate(board, result.solution) == []
    assert result.stats["positions"] > klotski.MEMORY_BUDGET // 386


def test_goal_cells_other_pieces_reach_are_searched_to_the_minimum():
    inside = Board.from_text("#####\n#CA+#\n#B..#\n#####")
    result = solve(inside)
    assert result.solved and validate(inside, result.solution) == []
    assert result.moves == reference_minimum(inside, "piece")


def test_the_search_stops_when_its_live_layers_would_pass_the_memory_budget(monkeypatch):
    import solvers.klotski as klotski

    monkeypatch.setattr(klotski, "MEMORY_BUDGET", 150_000)
    result = solve(Board.from_text(RED_DONKEY), exact=True)
    assert not result.solved and result.stats["capped"] and result.reason.startswith("gave up after ")
    # before its cap of positions (8 bytes a key kept): a chunk's temporaries count too
    assert result.stats["positions"] < 150_000 // 8


@pytest.mark.parametrize("text", [RED_DONKEY, AGATKA.replace("/", "\n"),
                                  "shapes: any\nmarks: 0,0 1,1\nCC\n=C", "target: X\nshapes: any\nXX+\nX..\n#..",
                                  "gates: 1,1\n.+.\n.C.\n..."])
def test_board_texts_with_the_new_cells_round_trip(text):
    board = Board.from_text(text)
    assert board.to_text() == text
    assert Board.from_text(board.to_text()) == board


def test_pieces_whose_rectangles_share_a_corner_keep_one_order():
    # B sits in the notch of the L-shaped C: both rectangles start at (2, 0)
    notched = _piece("C", 2, 0, frozenset({(0, 1), (1, 0), (1, 1)}))
    board = Board.make(4, 2, [notched, Piece("B", 2, 0, 1, 1), Piece("A", 0, 0, 1, 1)], "C", None,
                       marks=frozenset({(1, 1)}))
    assert Board.from_text(board.to_text()) == board


def test_relabelled_keeps_walls_gates_and_goal_cells():
    board = Board.from_text("target: X\n" + RED_DONKEY.replace("C", "X")).relabelled()
    assert board.to_text() == RED_DONKEY


def test_rule_checker_names_walls_gates_and_bare_goal_cells():
    board = Board.from_text(RED_DONKEY)
    assert any("into a wall" in p for p in validate(board, [{"piece": "I", "path": "L"}]))
    assert any("into a gate" in p for p in validate(board, [{"piece": "I", "path": "RD"}]))
    assert any("off the goal cells" in p for p in validate(board, [{"piece": "I", "path": "R"}]))


# --------------------------------------------------- random boards with the new elements

@st.composite
def forms(draw, most: int = 3) -> frozenset[tuple[int, int]]:
    """A connected shape of 1 to ``most`` cells, as offsets from its rectangle's corner."""
    cells = {(0, 0)}
    for _ in range(draw(st.integers(0, most - 1))):
        r, c = draw(st.sampled_from(sorted(cells)))
        dr, dc = draw(st.sampled_from(list(STEPS.values())))
        cells.add((r + dr, c + dc))
    r0, c0 = min(r for r, _ in cells), min(c for _, c in cells)
    return frozenset((r - r0, c - c0) for r, c in cells)


def _piece(name: str, r: int, c: int, form: frozenset[tuple[int, int]]) -> Piece:
    return Piece(name, r, c, max(r for r, _ in form) + 1, max(c for _, c in form) + 1, form)


@st.composite
def walled_boards(draw, most: int = 4) -> Board:
    """Up to ``most``×``most`` cells, some of them walls or gates, a target and up to five
    more pieces of up to three cells, at least two free cells, and goal cells under a place
    the target fits."""
    rows, cols = draw(st.integers(2, most)), draw(st.integers(2, most))
    everywhere = [(r, c) for r in range(rows) for c in range(cols)]
    kinds = draw(st.lists(st.sampled_from(".....#="), min_size=len(everywhere), max_size=len(everywhere)))
    walls = {cell for cell, kind in zip(everywhere, kinds) if kind == "#"} - {(0, 0)}
    gates = {cell for cell, kind in zip(everywhere, kinds) if kind == "="} - {(0, 0)}
    floor = len(everywhere) - len(walls) - len(gates)
    taken: set[tuple[int, int]] = set()
    pieces = []
    for name in "CABDEF":
        form = draw(forms())
        r, c = draw(st.integers(0, rows - 1)), draw(st.integers(0, cols - 1))
        cells = {(r + dr, c + dc) for dr, dc in form}
        barred = taken | walls | (gates if name != "C" else set())
        if not cells <= set(everywhere) or cells & barred or len(taken) + len(cells) > floor - 2:
            if name != "C":
                continue
            form, r, c, cells = frozenset({(0, 0)}), 0, 0, {(0, 0)}
        taken |= cells
        pieces.append(_piece(name, r, c, form))
    target = pieces[0]
    places = [place for r, c in everywhere
              if (place := {(r + dr, c + dc) for dr, dc in target.offsets()}) <= set(everywhere) - walls]
    marks = draw(st.sets(st.sampled_from(sorted(draw(st.sampled_from(places)))), min_size=1))
    return Board.make(rows, cols, pieces, "C", None, frozenset(walls), frozenset(gates), frozenset(marks))


@settings(max_examples=150, deadline=None)
@given(walled_boards(), st.sampled_from(["piece", "straight", "cell"]), st.sampled_from([None, 0, 5]))
def test_solver_matches_a_plain_reference_search_on_walled_boards(board, metric, switch):
    assert Board.from_text(board.to_text()) == board
    with bounded_from(switch):
        result = solve(board, metric=metric)
    best = reference_minimum(board, metric)
    if best is None:
        assert not result.solved and "capped" not in result.stats and "searched" in result.reason
    else:
        assert result.solved and result.moves == best
        assert validate(board, result.solution, metric) == []


@settings(max_examples=100, deadline=None)
@given(walled_boards(), st.sampled_from(["piece", "straight", "cell"]), st.data())
def test_rule_checker_rejects_mutated_answers(board, metric, data):
    """Mutations that cannot be right: the answer without its last move (it is a minimum,
    so no shorter list reaches the goal), a slide the position does not allow put in
    anywhere, a move of a piece that is not there, and two cell moves made one."""
    result = solve(board, metric=metric)
    if not result.solved or not result.solution:
        return
    answer = result.solution
    assert validate(board, answer, metric) == []
    assert validate(board, answer[:-1], metric)
    at = data.draw(st.integers(0, len(answer)))
    grid = grid_of(board)
    for move in answer[:at]:
        for letter in move["path"]:
            grid = slide(board, grid, move["piece"], *STEPS[letter])
    barred = [(p.name, letter) for p in board.pieces for letter, step in STEPS.items()
              if slide(board, grid, p.name, *step) is None]
    if barred:
        name, letter = data.draw(st.sampled_from(barred))
        assert validate(board, answer[:at] + [{"piece": name, "path": letter}] + answer[at:], metric)
    assert validate(board, answer[:at] + [{"piece": "#", "path": "U"}] + answer[at:], metric)
    if metric == "cell" and len(answer) > 1:
        i = data.draw(st.integers(0, len(answer) - 2))
        joined = {"piece": answer[i]["piece"], "path": answer[i]["path"] + answer[i + 1]["path"]}
        assert validate(board, answer[:i] + [joined] + answer[i + 2:], metric)
