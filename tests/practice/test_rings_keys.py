"""The ring-battle practice board played with a key map (no display): the keys the
keyboard driver plans for an answer solve the level, picks of several keys, moves
previewed until confirmed, a restart by confirm once the budget is spent, and bad options."""
from __future__ import annotations

import json
from pathlib import Path

import pytest
from hypothesis import assume, given, settings, strategies as st

from overlay.rings import plan
from puzzlepilot.practice import key_name
from puzzlepilot.practice.rings import VIEW, RingsLevel, new_level
from solvers.rings import Board, solve, validate
from tests.helpers import run_cli
from vision.common import Parse
from vision.rings import RingsGeometry

KEYMAP = {"rings": [["1"], ["2"], ["3"], ["4"]], "lines": [["q"], ["w"], ["e"], ["r"], ["t"], ["y"]],
          "clockwise": "right", "anticlockwise": "left", "inward": "up", "outward": "down", "confirm": "enter"}
# Picks of two keys sharing their first, Tk-style names, no outward key (slides go inward only).
CHORDS = {"rings": [["g", "a"], ["g", "s"], ["g", "d"], ["g", "f"]],
          "lines": [["h", "a"], ["h", "s"], ["h", "d"], ["h", "f"], ["h", "j"], ["h", "k"]],
          "clockwise": "E", "anticlockwise": "Q", "inward": "space", "confirm": "Return"}
WORKED = Board.from_text("moves: 1\n..x.........\n..x.........\n..x.........\n...x........")


def press(level: RingsLevel, keymap: dict, solution: list) -> None:
    """Every key the keyboard driver would press for the answer, as the window names them."""
    for action in plan(Parse("rings", level.start, 1.0, [], RingsGeometry(level.arena)), solution, keymap=keymap):
        level.key(key_name(action.key))


@settings(max_examples=12, deadline=None)
@given(seed=st.integers(1, 10_000), keymap=st.sampled_from([KEYMAP, CHORDS]))
def test_the_keys_planned_for_an_answer_solve_the_practice_level(seed: int, keymap: dict) -> None:
    level = new_level(seed, None, VIEW, keymap=keymap)
    solution = solve(level.start).solution
    assume(solution)        # a shuffle may undo itself: such a level starts solved
    assert validate(level.start, solution) == [] and not level.solved()
    press(level, keymap, solution)
    assert level.solved() and level.made == len(solution)


def test_a_picked_ring_turns_in_preview_until_confirmed() -> None:
    level = RingsLevel(WORKED, 1, VIEW, KEYMAP)
    before = level.picture()
    assert not level.key("4")                        # picking shows nothing yet
    assert level.key("left") and level.pending == {"op": "rotate", "ring": 3, "steps": -1}
    assert level.made == 0 and (level.picture() != before).any()
    assert level.key("right") and level.pending is None   # turned back: no move
    assert not level.key("enter") and level.made == 0
    level.key("4"), level.key("left")
    assert level.key("enter") and level.solved() and level.made == 1


def test_a_line_slides_inward_and_outward_a_step_per_key() -> None:
    level = RingsLevel(WORKED, 1, VIEW, KEYMAP)
    level.key("w")
    level.key("down")
    assert level.pending == {"op": "slide", "line": 1, "steps": 7}
    level.key("up"), level.key("up")
    assert level.pending == {"op": "slide", "line": 1, "steps": 1}


def test_with_no_moves_left_confirm_starts_the_level_again() -> None:
    level = RingsLevel(WORKED, 1, VIEW, KEYMAP)
    for key in ("1", "right", "enter"):
        level.key(key)
    assert level.made == 1 and not level.solved()
    assert not level.key("4") and not level.key("left")
    assert level.key("enter") and level.made == 0 and level.grid == [list(r) for r in WORKED.cells]


def test_keys_without_a_key_map_do_nothing() -> None:
    level = RingsLevel(WORKED, 1, VIEW)
    assert not any(level.key(k) for k in ("4", "left", "enter")) and level.made == 0


def test_tk_and_pyautogui_names_meet() -> None:
    assert [key_name(k) for k in ("Return", "enter", "Escape", "Q", "space", "Next")] == \
        ["enter", "enter", "esc", "q", "space", "pagedown"]


@pytest.mark.parametrize("game, text, message", [
    ("onestroke", json.dumps(KEYMAP), "takes no --keymap"),
    ("rings", "{", "is not JSON"),
    ("rings", json.dumps({**KEYMAP, "lines": [["q"]]}), "keymap.lines"),
    ("rings", json.dumps({**KEYMAP, "rings": [["1"], [], ["3"], ["4"]]}), "keymap.rings"),
])
def test_bad_keymaps_for_practice_are_one_line_and_status_2(tmp_path: Path, game: str, text: str,
                                                            message: str) -> None:
    path = tmp_path / "keys.json"
    path.write_text(text)
    status, _, err = run_cli(["practice", game, "--keymap", path])
    assert status == 2 and err.count("\n") == 1 and message in err
