"""The klotski practice board's rules (no display needed): pieces follow the pointer
through free cells only, a press-drag-release is one move, playing the plan read from
the picture solves the level in the minimum, and levels cover layouts, sizes and texts."""
from __future__ import annotations

import pytest

from overlay.klotski import plan
from puzzlepilot.practice import boards
from puzzlepilot.practice.klotski import PLAYABLE, VIEW, level_from_text, new_level
from solvers.klotski import GNOME_PUZZLES, solve
from vision.klotski import parse


def centre(level, name: str) -> tuple[float, float]:
    p = level.pieces[name]
    x0, y0 = level.origin
    return (x0 + (p.col + p.width / 2) * level.cell, y0 + (p.row + p.height / 2) * level.cell)


def test_klotski_has_a_practice_board():
    assert "klotski" in boards()


def test_first_level_is_the_classic_layout_and_levels_cycle_through_the_bundled_ones():
    assert new_level(1, None, VIEW).name == "横刀立马"
    assert {new_level(s, None, VIEW).name for s in range(1, len(PLAYABLE) + 1)} == set(PLAYABLE)


def test_a_piece_follows_the_pointer_into_free_cells_and_stops_at_others():
    lv = new_level(1, None, VIEW)          # ACCB/ACCB/DEEF/DGHF/I..J
    x, y = centre(lv, "I")
    lv.press(x, y)
    assert lv.drag(x + 3 * lv.cell, y)     # two free cells to the right, then J
    assert (lv.pieces["I"].row, lv.pieces["I"].col) == (4, 2)
    lv.release(x + 3 * lv.cell, y)
    assert lv.moves == 1
    x, y = centre(lv, "C")
    lv.press(x, y)
    assert not lv.drag(x, y + 2 * lv.cell) and not lv.release(x, y + 2 * lv.cell) and lv.moves == 1


def test_a_corner_is_turned_in_one_move():
    lv = level_from_text("ACCB/ACCB/DEEF/DGHF/I..J", VIEW)
    x, y = centre(lv, "H")                 # H at (3,2): down, then left
    lv.press(x, y)
    lv.drag(x, y + lv.cell)
    lv.drag(x - lv.cell, y + lv.cell)
    lv.release(x - lv.cell, y + lv.cell)
    assert (lv.pieces["H"].row, lv.pieces["H"].col) == (4, 1) and lv.moves == 1


@pytest.mark.parametrize("seed", [1, 6, 10])
def test_playing_the_plan_read_from_the_picture_solves_the_level_in_the_minimum(seed):
    lv = new_level(seed, None, VIEW)
    found = parse(lv.picture())
    assert found.board.to_text() == lv.board.relabelled().to_text()
    result = solve(found.board)
    for drag in plan(found, result.solution):
        lv.press(*drag.points[0])
        for point in drag.points[1:]:
            lv.drag(*point)
        lv.release(*drag.points[-1])
    assert lv.solved() and lv.moves == result.moves == lv.best


def test_sized_levels_are_random_boards_with_an_answer():
    lv = new_level(3, (4, 5), (600, 480))
    assert (lv.start.rows, lv.start.cols) == (4, 5) and lv.best > 0
    assert lv.picture().shape == (480, 600, 3)


def test_board_option_is_checked_before_any_window_opens():
    import io

    from puzzlepilot.cli import main

    def run(argv: list[str], stdin: str = "") -> tuple[int, str]:
        err = io.StringIO()
        return main(argv, stdin=io.StringIO(stdin), stdout=io.StringIO(), stderr=err), err.getvalue()

    status, err = run(["practice", "klotski", "--board", "-"], "ACCB\nACXB\n")
    assert status == 2 and "rectangle" in err and len(err.strip().splitlines()) == 1
    status, err = run(["practice", "onestroke", "--board", "-"], "S#\n")
    assert status == 2 and "--board" in err
    # walls, gates, goal cells and shaped pieces are not drawn here: refused, not ignored
    for name, (text, _) in GNOME_PUZZLES.items():
        status, err = run(["practice", "klotski", "--board", "-"], text.replace("/", "\n"))
        assert status == 2 and "not walls, gates, goal cells or shaped pieces" in err, name
        assert len(err.strip().splitlines()) == 1


def test_board_text_level_starts_from_that_board():
    lv = level_from_text("ACCB/ACCD/EFFG/EHIG/.JI.", VIEW)
    assert lv.board.to_text() == "ACCB\nACCD\nEFFG\nEHIG\n.JI." and lv.best == 39


def test_with_one_cell_a_long_drag_moves_its_piece_one_cell_and_counts_one_move():
    """Issue 28 §5: a web Klotski moves a piece one cell per drag; the board can too."""
    lv = new_level(1, None, VIEW, one_cell=True)     # ACCB/ACCB/DEEF/DGHF/I..J
    x, y = centre(lv, "I")
    lv.press(x, y)
    assert lv.drag(x + 3 * lv.cell, y)
    assert not lv.drag(x + 2 * lv.cell, y)
    lv.release(x + 3 * lv.cell, y)
    assert (lv.pieces["I"].row, lv.pieces["I"].col) == (4, 1) and lv.moves == 1
    lv.press(*centre(lv, "I"))
    lv.release(centre(lv, "I")[0] + 2 * lv.cell, centre(lv, "I")[1])
    assert (lv.pieces["I"].row, lv.pieces["I"].col) == (4, 2) and lv.moves == 2
    assert level_from_text("ACCB/ACCB/DEEF/DGHF/I..J", VIEW, one_cell=True).one_cell
