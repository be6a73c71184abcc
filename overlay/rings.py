"""Ring battles: an answer drawn over the arena, and key presses for a user's key map.

Each move is an arrow in its own colour, numbered in order: a rotation is an arc along
the middle of its ring, starting at one of the ring's enemies (where they stand at that
point of the answer) and turning as many slices as the move; a slide is a straight arrow
along its line through the centre, pointing the short way round (k ≤ 4 steps inward from
slice i, else 8 − k the other way), labelled with its steps.

The console game is not driven by mouse, so ``plan`` returns key presses only when given
a key map, and nothing otherwise (the hints are the output then). The key map comes as an
argument or from a rings calibration profile's ``keymap`` field (the vision puts it in the
parse's geometry, so ``live --play --profile P`` presses keys) or from a JSON file
(``live --play --keymap FILE``; ``practice rings --keymap FILE`` takes the same keys). It
names the pyautogui keys that pick each ring and line (a key sequence each), that turn
the picked ring or slide the picked line one step, and that confirm the move (``outward``
optional)::

    {"rings": [["1"], ["2"], ["3"], ["4"]],
     "lines": [["q"], ["w"], ["e"], ["r"], ["t"], ["y"]],
     "clockwise": "right", "anticlockwise": "left",
     "inward": "up", "outward": "down", "confirm": "enter"}

That example is ``EXAMPLE_KEYMAP``; ``puzzlepilot demo rings`` plays the practice arena with it.
"""
from __future__ import annotations

import json
from pathlib import Path
from typing import Any

from overlay.actions import Action, Key
from overlay.draw import Label, Polyline, Shape
from solvers.rings import apply_move
from vision.common import Parse
from vision.rings import Arena, check_keymap

COLOURS = ((236, 64, 122), (33, 150, 243), (255, 160, 0), (76, 175, 80), (156, 39, 176))
HALO = (255, 255, 255)
ARC_STEP = 3.0        # degrees between the points of an arc


Point = tuple[float, float]


def _arrows(arena: Arena, board: Any, solution: list[dict[str, Any]]) -> list[tuple[tuple[Point, ...], str, Point]]:
    """(points, label, where the label goes) for every move, in order: an arc's label on
    its middle, a slide's just outside the rim where it starts (its middle is the
    crowded centre)."""
    grid = [list(ring) for ring in board.cells]
    out = []
    for n, move in enumerate(solution, 1):
        k = move["steps"]
        if move["op"] == "rotate":
            r = move["ring"]
            start = next((s for s in range(12) if grid[r][s] != "."), 0)
            count = max(2, round(abs(k) * 30.0 / ARC_STEP) + 1)
            angles = [30.0 * start + 30.0 * k * t / (count - 1) for t in range(count)]
            points = tuple(arena.point(arena.mid(r), a) for a in angles)
            out.append((points, f"{n}: {abs(k)}", points[len(points) // 2]))
        else:
            i = move["line"]
            near, far = (30.0 * i, 30.0 * (i + 6)) if k <= 4 else (30.0 * (i + 6), 30.0 * i)
            reach = arena.mid(0)
            out.append(((arena.point(reach, near), arena.point(reach, far)), f"{n}: {min(k, 8 - k)}",
                        arena.point(arena.outer * 1.15, near)))
        grid = apply_move(grid, move)
    return out


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


def hints(parse: Parse, solution: Any, step: int | None = None) -> list[Shape]:
    """An arrow per move (haloed, coloured in order) with its number and steps, or only
    move number ``step`` (0-based), drawn where the enemies stand by then."""
    if step is not None and not 0 <= step < len(solution):
        raise ValueError(f"step {step} is out of range: the answer has {len(solution)} moves")
    arena = Arena.from_json(parse.geometry)
    width = max(3.0, arena.width * 0.12)
    shapes: list[Shape] = []
    labels: list[Shape] = []
    for n, (points, text, at) in enumerate(_arrows(arena, parse.board, solution)):
        if step is not None and n != step:
            continue
        colour = COLOURS[n % len(COLOURS)]
        shapes.append(Polyline(points, HALO, width=width * 1.8, arrows="none"))
        shapes.append(Polyline(points, colour, width=width, arrows="end"))
        labels.append(Label(at, text, colour, size=arena.width * 0.3))
    return shapes + labels


EXAMPLE_KEYMAP: dict[str, Any] = {
    "rings": [["1"], ["2"], ["3"], ["4"]], "lines": [["q"], ["w"], ["e"], ["r"], ["t"], ["y"]],
    "clockwise": "right", "anticlockwise": "left", "inward": "up", "outward": "down", "confirm": "enter"}


def plan(parse: Parse, solution: Any, keymap: dict[str, Any] | None = None) -> list[Action]:
    """Key presses playing the answer with a user's key map (given, or the profile's);
    none without one."""
    keymap = keymap or parse.geometry.get("keymap")
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
    from calibration.profile import read_json

    try:
        keymap = read_json(path)   # bounded; not UTF-8, not JSON or too deep: ValueError
    except OSError as exc:
        raise ValueError(f"cannot read {path}: {exc.strerror}") from None
    return check_keymap(keymap)
