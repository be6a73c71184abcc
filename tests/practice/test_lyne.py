"""The LYNE practice board's rules (no display needed): paths start on a terminal, step
to neighbours of their own shape or hubs, never reuse an edge, cross a diagonal or
over-fill a hub; the level is solved when validate accepts every path, and the picture is
what the vision reads."""
from __future__ import annotations

import pytest

from overlay.lyne import plan
from puzzlepilot.practice import boards
from puzzlepilot.practice.lyne import VIEW, level_from_text, new_level
from solvers.lyne import solve
from tests.display import puzzlepilot
from vision.common import NoBoardFound
from vision.lyne import parse


def drag_through(level, points) -> None:
    level.press(*points[0])
    for p in points[1:]:
        level.drag(*p)
    level.release(*points[-1])


def at(level, r, c):
    return level.centres[(r, c)]


def test_lyne_has_a_practice_board():
    assert "lyne" in boards()


@pytest.mark.parametrize("seed, size", [(1, None), (2, (3, 4)), (3, (6, 8))])
def test_playing_the_plan_read_from_the_picture_solves_the_level(seed, size):
    level = new_level(seed, size, VIEW)
    found = parse(level.picture())
    assert found.board == level.board and not level.solved()
    for drag in plan(found, solve(found.board).solution):
        drag_through(level, drag.points)
    assert level.solved()


def test_pressing_off_a_terminal_starts_nothing():
    level = level_from_text("TSD/2S2/tsd/D2T", VIEW)
    assert not level.press(*at(level, 2, 0)) and level.current is None   # an ordinary triangle
    assert not level.press(5, 5) and not level.drag(*at(level, 1, 0))


def test_steps_onto_other_shapes_non_neighbours_or_full_hubs_are_refused():
    level = level_from_text("TSD/2S2/tsd/D2T", VIEW)
    level.press(*at(level, 0, 0))
    level.drag(*at(level, 0, 1))                 # the square terminal: not the triangle's
    assert level.current == [(0, 0)]
    level.drag(*at(level, 1, 0))                 # the hub
    level.drag(*at(level, 1, 1))                 # an ordinary square: refused
    assert level.current == [(0, 0), (1, 0)]
    level.drag(*at(level, 0, 0))                 # back onto the previous node: a step back
    assert level.current == [(0, 0)]


def test_an_edge_is_not_used_twice_and_diagonals_do_not_cross():
    level = level_from_text("T3T/t.t", VIEW)
    level.press(*at(level, 0, 0))
    for p in [(0, 1), (1, 0)]:
        level.drag(*at(level, *p))
    assert level.current == [(0, 0), (0, 1), (1, 0)]
    level.drag(*at(level, 0, 1))                 # back along the same edge: a step back
    assert level.current == [(0, 0), (0, 1)]
    level = level_from_text("TD/DT", VIEW)
    drag_through(level, [at(level, 0, 0), at(level, 1, 1)])
    assert "t" in level.done
    level.press(*at(level, 0, 1))
    level.drag(*at(level, 1, 0))                 # would cross the drawn diagonal
    assert level.current == [(0, 1)] and "d" not in level.done


def test_a_hub_takes_no_more_passes_than_holes():
    level = level_from_text("t1t/TtT", VIEW)
    level.press(*at(level, 1, 0))
    for p in [(0, 0), (0, 1), (1, 1), (0, 2), (0, 1)]:   # the last would pass the hub again
        level.drag(*at(level, *p))
    assert level.current == [(1, 0), (0, 0), (0, 1), (1, 1), (0, 2)]


def test_releasing_before_the_other_terminal_drops_the_path_and_pressing_again_redraws():
    level = level_from_text("T.T/ttt", VIEW)
    level.press(*at(level, 0, 0))
    level.drag(*at(level, 1, 0))
    assert level.release(*at(level, 1, 0)) and level.current is None and level.done == {}
    drag_through(level, [at(level, *p) for p in [(0, 0), (1, 0), (1, 1), (1, 2), (0, 2)]])
    assert level.solved()
    assert level.press(*at(level, 0, 2)) and not level.solved()


def test_the_picture_has_the_view_size_and_shows_the_drawn_path():
    level = level_from_text("TSD/2S2/tsd/D2T", (640, 480))
    before = level.picture()
    assert before.shape == (480, 640, 3)
    level.press(*at(level, 0, 0))
    assert level.drag(*at(level, 1, 0)) and (level.picture() != before).any()


@pytest.mark.parametrize("seed, size", [(12, None), (15, (3, 4))])
def test_every_picture_while_the_plan_is_played_reads_as_the_level_or_is_refused(seed, size):
    # as the live loop sees the board after each step of each drag: finished paths in
    # cream, the path being drawn in its shape's colour with that colour round its nodes
    # and in the hub holes it fills; its line down a hub's axis passed for a filled hole
    # (2 read as 3 in both)
    level = new_level(seed, size, VIEW)
    found = parse(level.picture())
    read = 0
    for drag in plan(found, solve(found.board).solution):
        level.press(*drag.points[0])
        for point in drag.points[1:]:
            level.drag(*point)
            try:
                read += parse(level.picture()).board == level.board or pytest.fail("a wrong board mid-play")
            except NoBoardFound:
                pass
        level.release(*drag.points[-1])
    assert level.solved() and read >= 1


@pytest.mark.parametrize("size", [(2, 2), (2, 3), (3, 2), (8, 8)])
def test_every_allowed_size_makes_a_level(size):
    level = new_level(1, size, VIEW)
    assert level.board.rows <= size[0] and level.board.cols <= size[1] and solve(level.board).solved


def test_the_live_loop_reads_and_plays_two_practice_levels(display: str) -> None:
    practice = puzzlepilot("practice", "lyne", "--seed", "3", "--levels", "2", "--log", "--at", "30,30")
    try:
        assert practice.stdout.readline().startswith("level 1:")
        player = puzzlepilot("live", "--game", "lyne", "--window", "puzzlepilot practice",
                              "--play", "--speed", "2", "--levels", "2")
        out, err = player.communicate(timeout=90)
        assert player.returncode == 0, err
        assert out.count("played") == 2
        assert [practice.stdout.readline().strip() for _ in range(3)] == \
            ["solved level 1", "level 2: 4x5, 3 shapes, 4 hubs, seed 4", "solved level 2"]
    finally:
        practice.kill()
        practice.wait(timeout=5)
