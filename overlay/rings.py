"""Ring battles: an answer drawn over the arena, and key presses for a user's key map.

Each move is an arrow in its own colour, numbered in order and labelled with the text
output's words: a rotation is an arc along its ring, starting at one of the ring's enemies
(where they stand at that point of the answer) and turning as many slices as the move; a
slide is a straight arrow along its line from slice i's rim towards slice i+6's, with its
steps. Both go through the parse's arena, camera included, so on the game's tilted view
they lie on the tiles the player sees; moves on one ring or line lie side by side.

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
from solvers.rings import apply_move
from vision.common import Parse
from vision.rings import Arena, RingsGeometry, check_keymap

COLOURS = ((236, 64, 122), (33, 150, 243), (255, 160, 0), (76, 175, 80), (156, 39, 176))
HALO = (255, 255, 255)
ARC_STEP = 3.0        # degrees between the points of an arc
SPREAD = 0.2          # ring widths the first and last moves are drawn off the middle


Point = tuple[float, float]


def words(n: int, move: dict[str, Any]) -> str:
    """A move as the text output says it (``solvers.rings.show``), numbered."""
    k = move["steps"]
    if move["op"] == "rotate":
        return f"{n}. ring {move['ring']} {abs(k)} {'clockwise' if k > 0 else 'anticlockwise'}"
    return f"{n}. line {move['line']} ({move['line']} → {move['line'] + 6}) {k} steps"


def _arrows(arena: Arena, board: Any, solution: list[dict[str, Any]]) -> list[tuple[tuple[Point, ...], str, Point]]:
    """(points, label, where the label goes) for every move, in order, through the arena's
    camera (so they lie on the tiles the player sees). A rotation is an arc along its ring
    from an enemy to where it lands; a slide an arrow along its line from slice i's rim
    towards slice i+6's, as many steps as the text says. Each move is drawn a little off
    the middle by its number, so moves on the same ring or line lie side by side; the label
    goes where the arrow starts."""
    grid = [list(ring) for ring in board.cells]
    out = []
    count = len(solution)
    for n, move in enumerate(solution, 1):
        k = move["steps"]
        off = 0.0 if count < 2 else (2 * (n - 1) / (count - 1) - 1) * SPREAD * arena.width
        if move["op"] == "rotate":
            r = move["ring"]
            start = next((s for s in range(12) if grid[r][s] != "."), 0)
            many = max(2, round(abs(k) * 30.0 / ARC_STEP) + 1)
            angles = [30.0 * start + 30.0 * k * t / (many - 1) for t in range(many)]
            points = tuple(arena.point(arena.mid(r) + off, a) for a in angles)
            out.append((points, words(n, move), points[0]))
        else:
            i = move["line"]
            ends = [arena.point(math.hypot(arena.mid(0), off), 30.0 * side + math.degrees(math.atan2(off, arena.mid(0))) * sign)
                    for side, sign in ((i, 1), (i + 6, -1))]
            out.append((tuple(ends), words(n, move), ends[0]))
        grid = apply_move(grid, move)
    return out


def _apart(points: list[Point], size: float) -> list[Point]:
    """Number places moved down until no two overlap."""
    placed: list[Point] = []
    for x, y in points:
        while any(abs(x - px) < size * 4 and abs(y - py) < size * 4 for px, py in placed):
            y += size * 4
        placed.append((x, y))
    return placed


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
    """An arrow per move (haloed, coloured in order) numbered where it starts, and the text
    output's words for each in a list over the arena; or only move number ``step``
    (0-based), drawn where the enemies stand by then. Every halo goes under every arrow and
    every label on top, so crossing moves keep their heads and numbers readable."""
    if step is not None and not 0 <= step < len(solution):
        raise ValueError(f"step {step} is out of range: the answer has {len(solution)} moves")
    arena = parse.geometry.arena
    width = max(3.0, arena.width * 0.12)
    size = max(11.0, arena.width * 0.3)
    drawn = _arrows(arena, parse.board, solution)
    # The number where each arrow starts; the words in a list over the arena (on the
    # arrows they would hide them on a small capture). Places depend on the whole answer,
    # so one step's hint is a part of the whole drawing.
    starts = _apart([at for _, _, at in drawn], size * 0.3)
    top = max(size, arena.point(arena.outer, 90.0)[1] - (len(drawn) + 0.5) * size * 1.5)
    shown = [n for n in range(len(drawn)) if step is None or n == step]
    colour = [COLOURS[n % len(COLOURS)] for n in range(len(drawn))]
    return ([Polyline(drawn[n][0], HALO, width=width * 1.8, arrows="none") for n in shown]
            + [Polyline(drawn[n][0], colour[n], width=width, arrows="end") for n in shown]
            + [Label(starts[n], str(n + 1), colour[n], size=size) for n in shown]
            + [Label((arena.cx, top + n * size * 1.5), drawn[n][1], colour[n], size=size) for n in shown])


EXAMPLE_KEYMAP: dict[str, Any] = {
    "rings": [["1"], ["2"], ["3"], ["4"]], "lines": [["q"], ["w"], ["e"], ["r"], ["t"], ["y"]],
    "clockwise": "right", "anticlockwise": "left", "inward": "up", "outward": "down", "confirm": "enter"}


def plan(parse: Parse[RingsGeometry], solution: Any, keymap: dict[str, Any] | None = None) -> list[Action]:
    """Key presses playing the answer with a user's key map (a file's or the profile's);
    none without one."""
    if not keymap:
        return []
    keys: list[str] = []
    for move in solution:
        k = move["steps"]
        if move["op"] == "rotate":
            keys += keymap["rings"][move["ring"]]
            keys += [keymap["clockwise"] if k > 0 else keymap["anticlockwise"]] * abs(k)
        else:
            keys += keymap["lines"][move["line"]]
            keys += [keymap["inward"]] * k if k <= 4 or "outward" not in keymap else [keymap["outward"]] * (8 - k)
        keys.append(keymap["confirm"])
    return [Key(key) for key in keys]


def load_keymap(path: Path) -> dict[str, Any]:
    """A key map from a JSON file, checked field by field; ValueError saying what is wrong."""
    from vision.profile import read_json

    try:
        keymap = read_json(path)   # bounded; not UTF-8, not JSON or too deep: ValueError
    except OSError as exc:
        raise ValueError(f"cannot read {path}: {exc.strerror}") from None
    return check_keymap(keymap)
