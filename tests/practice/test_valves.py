"""The valves practice board's rules (no display needed): wheels shut and reopen on a
click, wrenches run out, the level is solved when no water reaches the outlet, and the
picture is what the vision reads."""
from __future__ import annotations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from overlay.valves import plan
from puzzlepilot.practice import boards
from puzzlepilot.practice.valves import VIEW, level_from_text, new_level
from puzzlepilot.scenes.valves import GRAPH
from solvers.common import BoardError
from solvers.valves import solve
from vision.valves import parse


def test_valves_has_a_practice_board():
    assert "valves" in boards()


def test_clicking_a_wheel_shuts_it_and_clicking_again_opens_it():
    lv = new_level(1, None, VIEW)
    assert lv.press(*lv.wheels["C"]) and lv.closed == {"C"} and lv.wrenches_left == 2
    assert lv.press(*lv.wheels["C"]) and lv.closed == set() and lv.wrenches_left == 3


def test_clicks_off_the_wheels_change_nothing():
    lv = new_level(1, None, VIEW)
    x, y = lv.wheels["A"]
    assert not lv.press(x + 60, y + 60) and not lv.press(5, 5)
    assert not lv.drag(x, y) and not lv.release(x, y) and lv.closed == set()


def test_a_fourth_valve_needs_a_wrench_taken_back_first():
    lv = new_level(1, None, VIEW)
    for name in ("C", "D", "E"):
        assert lv.press(*lv.wheels[name])
    assert not lv.press(*lv.wheels["A"]) and "A" not in lv.closed


def test_playing_the_plan_read_from_the_picture_solves_the_level():
    lv = new_level(1, (9, 9), (800, 560))
    found = parse(lv.picture())
    assert found.board.closed == frozenset() and not lv.solved()
    for click in plan(found, solve(found.board).solution):
        assert lv.press(*click.point)
    assert lv.solved() and lv.closed == {"A", "B", "H"}


@pytest.mark.parametrize("seed", [2, 3, 4, 5])
def test_later_levels_start_with_a_valve_of_an_answer_shut_and_the_vision_sees_it(seed):
    lv = new_level(seed, None, VIEW)
    assert len(lv.closed) == 1
    board = parse(lv.picture()).board
    assert board.closed == frozenset(lv.closed)
    assert solve(board).solved


def test_the_picture_has_the_view_size_and_changes_with_a_click():
    lv = new_level(1, None, (700, 480))
    before = lv.picture()
    assert before.shape == (480, 700, 3)
    lv.press(*lv.wheels["G"])
    assert (lv.picture() != before).any()


@settings(max_examples=25, deadline=None)
@given(st.lists(st.sampled_from(sorted(new_level(1, None, VIEW).wheels)), max_size=12))
def test_any_clicks_keep_within_the_wrenches_and_solved_means_no_water_path(clicks):
    lv = new_level(1, None, VIEW)
    for name in clicks:
        lv.press(*lv.wheels[name])
        assert 0 <= lv.wrenches_left <= 3
    board = parse(lv.picture()).board
    assert lv.solved() == (solve(board).solution == [])


def test_a_board_text_of_the_sewer_starts_with_its_closed_valves():
    lv = level_from_text(GRAPH + "/closed: A B", VIEW)
    assert lv.closed == {"A", "B"} and lv.wrenches_left == 1
    assert parse(lv.picture()).board.closed == {"A", "B"}


def test_a_board_text_of_another_graph_is_refused():
    with pytest.raises(BoardError, match="one graph"):
        level_from_text("X A/A Y", VIEW)
