"""Ring-battle hints and key plans: a turn drawn round its whole ring with heads the way it
turns, a slide along its whole line the short way, both in a player's words; keys only
with a key map."""
from __future__ import annotations

import pytest

from overlay.actions import Key
from overlay.draw import Label, Polyline, arrow_heads
from overlay.rings import COLOURS, hints, plan
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
    return [s for s in shapes if isinstance(s, Polyline) and s.arrows != "none"]


def labels(shapes) -> list[str]:
    return [s.text for s in shapes if isinstance(s, Label)]


def heading(line: Polyline, arena: Arena = ARENA) -> list[float]:
    """Per arrow head of a stroke: how many degrees round the arena its tip is from its base
    (> 0: clockwise)."""
    out = []
    for tip, left, right in arrow_heads(line):
        base = ((left[0] + right[0]) / 2, (left[1] + right[1]) / 2)
        out.append((arena.locate(*tip)[1] - arena.locate(*base)[1] + 180.0) % 360.0 - 180.0)
    return out


@pytest.mark.parametrize("steps", [-5, -1, 1, 3, 6])
def test_a_turn_goes_round_its_whole_ring_with_heads_the_way_the_simulator_turns_it(steps):
    """Issue 29: a turn was a short arc by one figure, to be hunted for."""
    move = {"op": "rotate", "ring": 3, "steps": steps}
    shapes = hints(found(), [move])
    parts = arrows(shapes)
    points = [p for line in parts for p in line.points]
    assert len(parts) >= 3 and all(polar_of(p)[0] == pytest.approx(ARENA.mid(3)) for p in points)
    covered = {round(polar_of(p)[1]) // 10 for p in points}
    assert len(covered) >= 0.7 * 36                                  # most of the way round
    # The simulator moves an enemy the short way round by ``steps``: the heads point so.
    grid = apply_move([list("x...........")] * 4, move)
    landed = grid[3].index("x")
    way = 1 if 0 < landed < 6 else -1 if landed > 6 else None
    turns = [d for line in parts for d in heading(line)]
    assert len(turns) == len(parts) and all(d * (way or (1 if steps > 0 else -1)) > 0 for d in turns)
    count = abs(steps)
    assert labels(shapes)[0] == f"1: {count} step{'' if count == 1 else 's'}"


def test_a_turn_is_in_words_naming_the_ring_as_the_player_sees_it():
    shapes = hints(found(), [{"op": "rotate", "ring": 3, "steps": -1}])
    assert labels(shapes) == ["1: 1 step", "1. turn ring 3 (inner) one step anticlockwise"]
    shapes = hints(found(), [{"op": "rotate", "ring": 0, "steps": 2}])
    assert labels(shapes)[1] == "1. turn ring 0 (outer) two steps clockwise"


@pytest.mark.parametrize("steps", [1, 4, 5, 6, 7])
def test_a_slide_is_its_whole_line_with_heads_the_short_way_and_the_texts_steps(steps):
    """Issue 16: the label's steps are the text's; issue 29: both say the short way (6
    steps one way are 2 the other), and the heads point where the cells go."""
    move = {"op": "slide", "line": 1, "steps": steps}
    shapes = hints(found(), [move])
    (line,) = arrows(shapes)
    ends = [round(polar_of(p)[1], 6) for p in (line.points[0], line.points[-1])]
    # How far along the line (slice 1's rim to slice 7's, docs/games.md) the simulator takes slice
    # 1's outer enemy: in through the centre the short way, else out round the rim.
    grid = apply_move([list(".x..........")] + [list("." * 12)] * 3, move)
    line_cells = [(r, 1) for r in range(4)] + [(r, 7) for r in reversed(range(4))]
    inward = [grid[r][s] for r, s in line_cells].index("x") <= 4
    assert ends == ([30.0, 210.0] if inward else [210.0, 30.0])
    assert all(polar_of(p)[0] == pytest.approx(ARENA.mid(0)) for p in (line.points[0], line.points[-1]))
    assert len(arrow_heads(line)) == 4
    count, way = (steps, "inward") if steps <= 4 else (8 - steps, "outward")
    words = {1: "one", 2: "two", 3: "three", 4: "four"}[count]
    assert labels(shapes) == [f"1: {count} step{'' if count == 1 else 's'}",
                              f"1. slide line 1 {words} step{'' if count == 1 else 's'} {way} at slice 1"]


def test_every_move_is_drawn_numbered_beside_the_others_with_heads_and_labels_on_top():
    """Issue 16: three moves on one line were drawn on top of each other."""
    solution = [{"op": "slide", "line": 2, "steps": 3}, {"op": "slide", "line": 2, "steps": 2},
                {"op": "rotate", "ring": 0, "steps": 1}]
    shapes = hints(found(), solution)
    heads = arrows(shapes)
    assert len(heads) > 3 and heads[0].points != heads[1].points
    strokes = sum(isinstance(s, Polyline) for s in shapes)
    kinds = [type(s).__name__ + (s.arrows if isinstance(s, Polyline) else "") for s in shapes]
    assert kinds[:strokes // 2] == ["Polylinenone"] * (strokes // 2)
    assert "Polylinenone" not in kinds[strokes // 2:strokes] and kinds[strokes:] == ["Label"] * 6
    texts = labels(shapes)
    assert [t[:2] for t in texts[:3]] == ["1:", "2:", "3:"] and [t[:2] for t in texts[3:]] == ["1.", "2.", "3."]
    assert len({s.point for s in shapes if isinstance(s, Label)}) == 6


def test_a_move_alone_on_its_ring_keeps_to_its_middle_and_moves_sharing_one_lie_apart():
    """On the real capture the turn ran a fifth of a ring off the ring's middle, towards the
    disc, only because a slide (on no ring) came after it."""
    solution = [{"op": "rotate", "ring": 3, "steps": -1}, {"op": "slide", "line": 4, "steps": 6},
                {"op": "rotate", "ring": 1, "steps": 2}, {"op": "rotate", "ring": 1, "steps": 1}]
    shapes = hints(found(), solution)
    radii = {s.color: {round(polar_of(p)[0], 6) for p in s.points} for s in arrows(shapes) if s.color != COLOURS[1]}
    assert radii[COLOURS[0]] == {round(ARENA.mid(3), 6)}
    (first,), (second,) = radii[COLOURS[2]], radii[COLOURS[3]]
    assert first != second and (first + second) / 2 == pytest.approx(ARENA.mid(1))
    # Their marks both go to the ring's near side: one under the other, plates clear.
    third, fourth = [s for s in shapes if isinstance(s, Label) and s.text[:2] in ("3:", "4:")]
    assert abs(third.point[1] - fourth.point[1]) >= 1.5 * third.size


def test_hints_on_the_tilted_camera_lie_on_the_tiles_seen():
    tilted = Arena(220.0, 128.0, 130.0, 44.0, 0.55, 0.37, (130.0, 109.0, 87.0, 64.5, 44.0), 20.5)
    parts = arrows(hints(found(arena=tilted), [{"op": "rotate", "ring": 1, "steps": 2}]))
    assert len(parts) >= 3 and all(tilted.ring_of(tilted.locate(*p)[0]) == 1 for arc in parts for p in arc.points)


def test_hints_follow_the_parse_offset_onto_the_screen():
    moved = found().shifted(100, 50)
    parts = arrows(hints(moved, [{"op": "rotate", "ring": 0, "steps": 2}]))
    assert all(polar_of(p, Arena(500.0, 350.0, 240.0, 60.0))[0] == pytest.approx(ARENA.mid(0))
               for arc in parts for p in arc.points)


def test_without_a_key_map_there_is_nothing_to_press():
    assert plan(found(), [{"op": "rotate", "ring": 3, "steps": -1}]) == []


def test_a_key_map_turns_moves_into_key_presses():
    solution = [{"op": "rotate", "ring": 3, "steps": -2}, {"op": "slide", "line": 1, "steps": 6}]
    keys = [a.key for a in plan(found(), solution, keymap=KEYMAP)]
    assert keys == ["4", "left", "left", "enter", "w", "down", "down", "enter"]
    assert all(isinstance(a, Key) for a in plan(found(), solution, keymap=KEYMAP))
