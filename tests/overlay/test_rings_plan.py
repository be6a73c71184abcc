"""Ring-battle hints and key plans: arcs along the turned ring from an enemy to where it
lands, straight arrows through the centre for slides, keys only with a key map."""
from __future__ import annotations

import pytest

from overlay.actions import Key
from overlay.draw import Label, Polyline
from overlay.rings import hints, plan
from solvers.rings import Board, apply_move
from vision.common import Parse
from vision.rings import Arena, RingsGeometry

ARENA = Arena(400.0, 300.0, 240.0, 60.0)
BOARD = Board(("..x.........", "..x.........", "..x.........", "...x........"), 1)
KEYMAP = {"rings": [["1"], ["2"], ["3"], ["4"]], "lines": [["q"], ["w"], ["e"], ["r"], ["t"], ["y"]],
          "clockwise": "right", "anticlockwise": "left", "inward": "up", "outward": "down", "confirm": "enter"}


def found(board: Board = BOARD, arena: Arena = ARENA) -> Parse:
    return Parse("rings", board, 1.0, arena.cells(), RingsGeometry(arena))


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
    assert any(isinstance(s, Label) and s.text == "1. ring 3 1 anticlockwise" for s in shapes)


def test_later_arcs_start_where_earlier_moves_left_the_enemies():
    board = Board(("............", "............", "............", "x..........."), 2)
    solution = [{"op": "rotate", "ring": 3, "steps": 2}, {"op": "rotate", "ring": 3, "steps": 3}]
    first, second = arrows(hints(found(board), solution))
    assert polar_of(second.points[0])[1] == pytest.approx(polar_of(first.points[-1])[1])
    assert polar_of(second.points[-1])[1] == pytest.approx(150.0)


@pytest.mark.parametrize("steps", [1, 4, 6, 7])
def test_a_slide_is_a_straight_arrow_from_slice_i_through_the_centre_with_the_texts_steps(steps):
    """Issue 16: the label said "3: 2" (the short way) where the text said 6 steps."""
    shapes = hints(found(), [{"op": "slide", "line": 1, "steps": steps}])
    (line,) = arrows(shapes)
    assert [round(polar_of(p)[1], 6) for p in line.points] == [30.0, 210.0]
    assert any(isinstance(s, Label) and s.text == f"1. line 1 (1 → 7) {steps} steps" for s in shapes)


def test_every_move_is_drawn_numbered_beside_the_others_with_heads_and_labels_on_top():
    """Issue 16: three moves on one line were drawn on top of each other."""
    solution = [{"op": "slide", "line": 2, "steps": 3}, {"op": "slide", "line": 2, "steps": 2},
                {"op": "rotate", "ring": 0, "steps": 1}]
    shapes = hints(found(), solution)
    heads = arrows(shapes)
    assert len(heads) == 3 and heads[0].points != heads[1].points
    kinds = [type(s).__name__ + (s.arrows if isinstance(s, Polyline) else "") for s in shapes]
    assert kinds == ["Polylinenone"] * 3 + ["Polylineend"] * 3 + ["Label"] * 6
    labels = [s for s in shapes if isinstance(s, Label)]
    assert [s.text for s in labels[:3]] == ["1", "2", "3"]
    assert [s.text[:2] for s in labels[3:]] == ["1.", "2.", "3."]
    assert len({s.point for s in labels}) == 6


def test_hints_on_the_tilted_camera_lie_on_the_tiles_seen():
    tilted = Arena(220.0, 128.0, 130.0, 44.0, 0.55, 0.37, (130.0, 109.0, 87.0, 64.5, 44.0), 20.5)
    (arc,) = arrows(hints(found(arena=tilted), [{"op": "rotate", "ring": 1, "steps": 2}]))
    assert all(tilted.ring_of(tilted.locate(*p)[0]) == 1 for p in arc.points)


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
