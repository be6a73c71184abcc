"""The ring-battle practice board's rules (no display needed): drags turn rings and slide
lines as docs/games.md#rings-rules says, the budget counts down, and the vision reads its pictures."""
from __future__ import annotations

import io
import math

from puzzlepilot.cli import main
from puzzlepilot.practice import boards
from puzzlepilot.practice.rings import VIEW, RingsLevel, new_level
from solvers.rings import Board, solve
from vision.rings import parse

WORKED = Board.from_text("moves: 1\n..x.........\n..x.........\n..x.........\n...x........")
SLIDE = Board(("x.....x.....", "x...........", "x...........", "............"), 1)


def level(board: Board = WORKED) -> RingsLevel:
    return RingsLevel(board, seed=1, view=VIEW)


def turn(lv: RingsLevel, ring: int, slice_: int, steps: int) -> None:
    """Press on a tile and drag around the centre by ``steps`` slices, through the arc."""
    radius = lv.arena.mid(ring)
    lv.press(*lv.arena.point(radius, 30.0 * slice_))
    for k in range(1, 11):
        lv.drag(*lv.arena.point(radius, 30.0 * (slice_ + steps * k / 10)))
    lv.release(*lv.arena.point(radius, 30.0 * (slice_ + steps)))


def test_the_practice_board_is_listed():
    assert "rings" in boards()


def test_dragging_along_a_ring_turns_it_and_solves_the_worked_example():
    lv = level()
    assert not lv.solved()
    turn(lv, 3, 3, -1)
    assert lv.grid[3][2] == "x" and lv.made == 1 and lv.solved()


def test_dragging_toward_the_centre_slides_the_line_through_the_tile():
    lv = level(SLIDE)
    x, y = lv.arena.cell(0, 0)
    lv.press(x, y)
    inward = lv.arena.point(lv.arena.mid(0) - lv.arena.width, 0.0)
    assert lv.drag(*inward)
    assert lv.pending == {"op": "slide", "line": 0, "steps": 1}
    lv.release(*inward)
    assert lv.solved() and lv.grid[0][6] == "." and [lv.grid[r][0] for r in range(4)] == ["x"] * 4


def test_from_the_far_side_of_a_line_moving_outward_is_the_positive_slide():
    lv = level(SLIDE)
    lv.press(*lv.arena.cell(1, 6))
    outward = lv.arena.point(lv.arena.mid(1) + lv.arena.width, 180.0)
    lv.drag(*outward)
    assert lv.pending == {"op": "slide", "line": 0, "steps": 1}


def test_the_picture_previews_the_move_until_release():
    lv = level()
    before = lv.picture()
    radius = lv.arena.mid(3)
    lv.press(*lv.arena.point(radius, 90.0))
    lv.drag(*lv.arena.point(radius, 60.0))
    assert lv.pending == {"op": "rotate", "ring": 3, "steps": -1} and lv.made == 0
    assert (lv.picture() != before).any()
    lv.drag(*lv.arena.point(radius, 90.0))
    lv.release(*lv.arena.point(radius, 90.0))
    assert lv.made == 0 and not lv.solved()           # back where it started: no move


def test_when_the_budget_is_spent_only_the_centre_disc_restarts():
    lv = level()
    turn(lv, 0, 0, 2)
    assert lv.made == 1 and not lv.solved()
    turn(lv, 3, 3, -1)
    assert lv.made == 1                               # no moves left
    assert not lv.press(*lv.arena.cell(2, 5))
    assert lv.press(lv.arena.cx, lv.arena.cy)
    assert lv.made == 0 and lv.grid == [list(r) for r in WORKED.cells]


def test_a_rotation_by_six_is_written_as_plus_six():
    lv = level()
    radius = lv.arena.mid(0)
    lv.press(*lv.arena.point(radius, 60.0))
    for k in range(1, 13):
        lv.drag(*lv.arena.point(radius, 60.0 - 15.0 * k))
    assert lv.pending == {"op": "rotate", "ring": 0, "steps": 6}


def test_levels_are_solvable_within_their_budget():
    for seed in range(1, 5):
        lv = new_level(seed, None, VIEW)
        assert solve(lv.start).solved


def test_the_size_option_is_refused_before_any_window_opens():
    err = io.StringIO()
    status = main(["practice", "rings", "--size", "4x12"], stdout=io.StringIO(), stderr=err)
    assert status == 2 and "one size" in err.getvalue()


def test_the_vision_reads_the_practice_picture_with_the_moves_left():
    lv = new_level(3, None, VIEW)
    found = parse(lv.picture())
    assert found.board.cells == tuple("".join("." if c == "." else "x" for c in r) for r in lv.start.cells)
    assert found.board.budget == lv.budget
    assert math.isclose(found.geometry.arena.cx, lv.arena.cx, abs_tol=2)
