"""Ring-battle hints and key plans: arcs along the turned ring from an enemy to where it
lands, straight arrows through the centre for slides, keys only with a key map."""
from __future__ import annotations

import pytest

from overlay.actions import Key
from overlay.draw import Label, Polyline
from overlay.rings import hints, plan
from solvers.rings import Board, apply_move
from vision.common import Parse
from vision.rings import Arena

ARENA = Arena(400.0, 300.0, 240.0, 60.0)
BOARD = Board(("..x.........", "..x.........", "..x.........", "...x........"), 1)
KEYMAP = {"rings": [["1"], ["2"], ["3"], ["4"]], "lines": [["q"], ["w"], ["e"], ["r"], ["t"], ["y"]],
          "clockwise": "right", "anticlockwise": "left", "inward": "up", "outward": "down", "confirm": "enter"}


def found(board: Board = BOARD, arena: Arena = ARENA) -> Parse:
    return Parse("rings", board, 1.0, arena.cells(), arena.to_json())


def polar_of(point: tuple[float, float], arena: Arena = ARENA) -> tuple[float, float]:
    return arena.locate(*point)


def arrows(shapes) -> list[Polyline]:
    return [s for s in shapes if isinstance(s, Polyline) and s.arrows == "end"]


def test_a_rotation_is_an_arc_on_its_ring_from_the_enemy_to_where_it_lands():
    shapes = hints(found(), [{"op": "rotate", "ring": 3, "steps": -1}])
    (arc,) = arrows(shapes)
    radii = [polar_of(p)[0] for p in arc.points]
    assert max(radii) - min(radii) < 1e-6 and radii[0] == pytest.approx(ARENA.mid(3))
    assert polar_of(arc.points[0])[1] == pytest.approx(90.0)    # slice 3, where the enemy stands
    assert polar_of(arc.points[-1])[1] == pytest.approx(60.0)   # slice 2: one slice anticlockwise
    assert any(isinstance(s, Label) and s.text == "1: 1" for s in shapes)


def test_later_arcs_start_where_earlier_moves_left_the_enemies():
    board = Board(("............", "............", "............", "x..........."), 2)
    solution = [{"op": "rotate", "ring": 3, "steps": 2}, {"op": "rotate", "ring": 3, "steps": 3}]
    first, second = arrows(hints(found(board), solution))
    assert polar_of(second.points[0])[1] == pytest.approx(polar_of(first.points[-1])[1])
    assert polar_of(second.points[-1])[1] == pytest.approx(150.0)


@pytest.mark.parametrize("steps, start, end, label", [(1, 30.0, 210.0, "1: 1"), (7, 210.0, 30.0, "1: 1"),
                                                      (4, 30.0, 210.0, "1: 4")])
def test_a_slide_is_a_straight_arrow_through_the_centre_the_short_way(steps, start, end, label):
    shapes = hints(found(), [{"op": "slide", "line": 1, "steps": steps}])
    (line,) = arrows(shapes)
    assert [round(polar_of(p)[1], 6) for p in line.points] == [start, end]
    assert any(isinstance(s, Label) and s.text == label for s in shapes)


def test_hints_follow_the_parse_offset_onto_the_screen():
    moved = found().shifted(100, 50)
    (arc,) = arrows(hints(moved, [{"op": "rotate", "ring": 0, "steps": 2}]))
    assert polar_of(arc.points[0], Arena(500.0, 350.0, 240.0, 60.0))[0] == pytest.approx(ARENA.mid(0))


def test_without_a_key_map_there_is_nothing_to_press():
    assert plan(found(), [{"op": "rotate", "ring": 3, "steps": -1}]) == []


def test_a_key_map_turns_moves_into_key_presses():
    solution = [{"op": "rotate", "ring": 3, "steps": -2}, {"op": "slide", "line": 1, "steps": 6}]
    keys = [a.key for a in plan(found(), solution, keymap=KEYMAP)]
    assert keys == ["4", "left", "left", "enter", "w", "down", "down", "enter"]
    assert all(isinstance(a, Key) for a in plan(found(), solution, keymap=KEYMAP))


def test_the_arrows_follow_the_rules_simulator():
    # The arc of a rotation ends where the simulator puts the enemy it starts from.
    grid = apply_move([list(r) for r in BOARD.cells], {"op": "rotate", "ring": 3, "steps": -1})
    (arc,) = arrows(hints(found(), [{"op": "rotate", "ring": 3, "steps": -1}]))
    landed = round(polar_of(arc.points[-1])[1] / 30) % 12
    assert grid[3][landed] != "."
