"""Ring battles: an answer drawn over the arena, and key presses for a user's key map.

Each move is drawn whole, in its own colour, so a player finds it at a glance: a turn is
its whole ring, in parts each ending in an arrow head the way it turns; a slide is its whole
line with heads the way its cells go (the short way round). Each carries its number and
steps ("1: 2 steps"), and a list over the arena gives the text output's words for each
("1. turn ring 3 (inner) one step anticlockwise"). Both go through the parse's arena,
camera included, so on the game's tilted view they lie on the tiles the player sees;
moves on one ring or line lie side by side. ``live`` draws the same shapes.

The console game is not driven by mouse, so ``plan`` returns key presses only when given
a key map, and nothing otherwise (the hints are the output then). The key map comes as an
argument: ``live`` takes it from a rings calibration profile's ``keymap`` field (so ``live
--play --profile P`` presses keys) or from a JSON file (``live --play --keymap FILE``;
``practice rings --keymap FILE`` takes the same keys). It names the pyautogui keys that
pick each ring and line (a key sequence each), that turn the picked ring or slide the
picked line one step, and that confirm the move (``outward`` optional)::

    {"rings": [["1"], ["2"], ["3"], ["4"]],
     "lines": [["q"], ["w"], ["e"], ["r"], ["t"], ["y"]],
     "clockwise": "right", "anticlockwise": "left",
     "inward": "up", "outward": "down", "confirm": "enter"}

That example is ``EXAMPLE_KEYMAP``; ``puzzlepilot demo rings`` plays the practice arena with it.
"""
from __future__ import annotations

import math
from pathlib import Path
from typing import Any

from overlay.actions import Action, Key
from overlay.draw import Label, Polyline, Shape
from solvers.rings import apply_move, say, short_way
from vision.common import Parse
from vision.rings import Arena, RingsGeometry, check_keymap

COLOURS = ((236, 64, 122), (33, 150, 243), (255, 160, 0), (76, 175, 80), (156, 39, 176))
HALO = (255, 255, 255)
ARC_STEP = 3.0        # degrees between the points of an arc
SPREAD = 0.2          # ring widths the first and last moves are drawn off the middle
HEADS = (3, 8)        # fewest and most arrow heads round a turned ring
HEAD_ROOM = 5.0       # head lengths of ring, at least, per head
GAP = 0.25            # share of each head's part of the ring left open before the next part
LINE = 1.8            # label sizes from one line of labels to the next (plates clear of descenders)
WIDE = 0.65           # label sizes a character of a label is wide, about (OpenCV's font and Tk's)


Point = tuple[float, float]
Stroke = tuple[tuple[Point, ...], str]       # points and where its arrow heads go (draw.Polyline's ``arrows``)


def words(n: int, move: dict[str, Any]) -> str:
    """A move as the text output says it (``solvers.rings.say``), numbered."""
    return f"{n}. {say(move)}"


def mark(n: int, move: dict[str, Any]) -> str:
    """The short label on a move's drawing: its number and steps."""
    count, _ = short_way(move)
    return f"{n}: {count} step{'' if count == 1 else 's'}"


def _turn(arena: Arena, move: dict[str, Any], off: float, head: float) -> tuple[list[Stroke], Point]:
    """A turn: its whole ring (the ring's middle, ``off`` pixels out) in parts, each ending
    in an arrow head (``head`` pixels long) the way it turns, and where its label goes: on
    the ring's near side (the bottom of the screen), in the middle of a part."""
    radius = arena.mid(move["ring"]) + off
    round_ = [arena.point(radius, float(a)) for a in range(0, 360, 10)]
    length = sum(math.dist(a, b) for a, b in zip(round_, round_[1:] + round_[:1]))
    heads = max(HEADS[0], min(HEADS[1], int(length / (head * HEAD_ROOM))))
    span = 360.0 / heads
    near = 270.0 - arena.phase               # plane angle of the point nearest the camera
    many = max(2, round(span * (1 - GAP) / ARC_STEP) + 1)
    paths = []
    for j in range(heads):
        first = near - span / 2 + span * GAP / 2 + j * span
        angles = [first + span * (1 - GAP) * t / (many - 1) for t in range(many)]
        paths.append((tuple(arena.point(radius, a) for a in (angles if move["steps"] > 0 else angles[::-1])), "end"))
    return paths, arena.point(radius, near)


def _slide(arena: Arena, move: dict[str, Any], off: float) -> tuple[list[Stroke], Point]:
    """A slide: an arrow the length of its line's 8 cells (``off`` pixels to its side), with
    a head on each quarter, pointing the short way (``solvers.rings.short_way``), and where
    its label goes: past the rim it comes from."""
    _, way = short_way(move)
    ahead = 30.0 * (move["line"] + (6 if way == "inward" else 0))      # the end the cells move towards

    def at(t: float) -> Point:        # t pixels along the line towards ``ahead``, ``off`` to its side
        return arena.point(math.hypot(t, off), ahead + math.degrees(math.atan2(off, t)))
    reach = arena.mid(0)
    return [(tuple(at(reach * t) for t in (-1.0, -0.5, 0.0, 0.5, 1.0)), "each")], \
        at(-(arena.outer + 0.6 * arena.width))


def _moves(arena: Arena, solution: list[dict[str, Any]], head: float) -> list[tuple[list[Stroke], str, Point]]:
    """(paths, mark, where the mark goes) for every move, in order, through the arena's
    camera (so they lie on the tiles the player sees). A move is drawn along the middle of
    its ring or line; moves on the same ring or line are spread across it in order, so they
    lie side by side."""
    def where(move: dict[str, Any]) -> tuple[str, int]:
        return move["op"], move.get("ring", move.get("line"))
    out = []
    for n, move in enumerate(solution, 1):
        same = [k for k, other in enumerate(solution, 1) if where(other) == where(move)]
        off = 0.0 if len(same) < 2 else (2 * same.index(n) / (len(same) - 1) - 1) * SPREAD * arena.width
        paths, at = _turn(arena, move, off, head) if move["op"] == "rotate" else _slide(arena, move, off)
        out.append((paths, mark(n, move), at))
    return out


def _apart(marks: list[tuple[str, Point]], size: float) -> list[Point]:
    """Places for labels (text, place) of ``size``, each moved down a line until its plate
    (about ``WIDE`` sizes a character wide, ``LINE`` sizes tall) overlaps none before it."""
    placed: list[tuple[float, float, float]] = []
    for text, (x, y) in marks:
        half = len(text) * size * WIDE / 2
        while any(abs(x - px) < half + other and abs(y - py) < size * LINE for px, py, other in placed):
            y += size * LINE
        placed.append((x, y, half))
    return [(x, y) for x, y, _ in placed]


def steps(solution: Any) -> int:
    """Hints come one move at a time with ``step``."""
    return len(solution)


def progress(board: Any, solution: Any, seen: Any) -> int | None:
    """How many of the answer's first moves take ``board`` to the arena ``seen`` (where
    enemies stand, whatever their kind: the budget panel counts down too, and may not be
    read), or None when ``seen`` is no position along the answer."""
    def taken(grid: Any) -> list[list[bool]]:
        return [[ch != "." for ch in ring] for ring in grid]

    grid = [list(ring) for ring in board.cells]
    found = taken(seen.cells)
    for done in range(len(solution) + 1):
        if taken(grid) == found:
            return done
        if done < len(solution):
            grid = apply_move(grid, solution[done])
    return None


def hints(parse: Parse[RingsGeometry], solution: Any, step: int | None = None) -> list[Shape]:
    """Every move drawn whole, haloed and coloured in order: a turn round its whole ring
    with arrow heads the way it goes, a slide along its whole line; each with its number
    and steps on it, and the text output's words for each in a list over the arena; or
    only move number ``step`` (0-based). Every halo goes under every arrow and every label
    on top, so crossing moves keep their heads and numbers readable."""
    if step is not None and not 0 <= step < len(solution):
        raise ValueError(f"step {step} is out of range: the answer has {len(solution)} moves")
    arena = parse.geometry.arena
    width = max(3.0, arena.width * 0.12)
    size = max(11.0, arena.width * 0.3)
    drawn = _moves(arena, solution, width * 3.0)
    # Places depend on the whole answer, so one step's hint is a part of the whole drawing.
    marks = _apart([(text, at) for _, text, at in drawn], size)
    top = max(size, arena.point(arena.outer, 90.0)[1] - (len(drawn) + 0.5) * size * LINE)
    shown = [n for n in range(len(drawn)) if step is None or n == step]
    colour = [COLOURS[n % len(COLOURS)] for n in range(len(drawn))]
    return ([Polyline(points, HALO, width=width * 1.8, arrows="none") for n in shown for points, _ in drawn[n][0]]
            + [Polyline(points, colour[n], width=width, arrows=heads) for n in shown for points, heads in drawn[n][0]]
            + [Label(marks[n], drawn[n][1], colour[n], size=size) for n in shown]
            + [Label((arena.cx, top + n * size * LINE), words(n + 1, solution[n]), colour[n], size=size)
               for n in shown])


EXAMPLE_KEYMAP: dict[str, Any] = {
    "rings": [["1"], ["2"], ["3"], ["4"]], "lines": [["q"], ["w"], ["e"], ["r"], ["t"], ["y"]],
    "clockwise": "right", "anticlockwise": "left", "inward": "up", "outward": "down", "confirm": "enter"}


def plan(parse: Parse[RingsGeometry], solution: Any, keymap: dict[str, Any] | None = None) -> list[Action]:
    """Key presses playing the answer with a user's key map (a file's or the profile's):
    each move the way the text says it (``short_way``), a slide the long way inward when
    the map has no outward key; none without a key map."""
    if not keymap:
        return []
    keys: list[str] = []
    for move in solution:
        count, way = short_way(move)
        if way not in keymap:
            count, way = move["steps"], "inward"
        keys += keymap["rings"][move["ring"]] if move["op"] == "rotate" else keymap["lines"][move["line"]]
        keys += [keymap[way]] * count
        keys.append(keymap["confirm"])
    return [Key(key) for key in keys]


def load_keymap(path: Path) -> dict[str, Any]:
    """A key map from a JSON file, checked field by field; ValueError saying what is wrong."""
    from vision.profile import read_json

    return check_keymap(read_json(path))   # bounded; unreadable, not UTF-8 JSON or too deep: ValueError
