"""Klotski: an answer as drags of the pieces, and the next move as an arrow.

A move's screen path starts at the piece's centre and moves one pitch per one-cell step,
so an L-shaped move is one drag through its corner (and a straight run one drag). The
pieces are followed through the answer on the parse's board, so every drag starts where
the piece is by then. ``hints`` draws only the next move — the one to play now — as a
haloed arrow from the piece's centre along its path, with the count of moves left.
"""
from __future__ import annotations

from typing import Any

from overlay.actions import Action, Drag
from overlay.draw import Label, Polyline, Shape
from vision.common import Parse

ARROW = (236, 64, 122)
HALO = (255, 255, 255)
STEP = {"U": (0, -1), "D": (0, 1), "L": (-1, 0), "R": (1, 0)}   # (dx, dy) in cells


def move_paths(parse: Parse, solution: Any) -> list[tuple[tuple[float, float], ...]]:
    """For every move, the screen points of its piece's centre: start, then after each step."""
    board = parse.board
    px, py = parse.geometry["pitch"]
    cols = parse.geometry["cols"]
    at = {p.name: (p.row, p.col, p.height, p.width) for p in board.pieces}
    paths = []
    for move in solution:
        r, c, h, w = at[move["piece"]]
        (x0, y0), (x1, y1) = parse.cells[r * cols + c], parse.cells[(r + h - 1) * cols + c + w - 1]
        x, y = (x0 + x1) / 2, (y0 + y1) / 2
        points = [(x, y)]
        for step in move["path"]:
            dx, dy = STEP[step]
            x, y = x + dx * px, y + dy * py
            points.append((x, y))
            r, c = r + dy, c + dx
        at[move["piece"]] = (r, c, h, w)
        paths.append(tuple(points))
    return paths


def plan(parse: Parse, solution: Any) -> list[Action]:
    """One drag per move, through the piece centre's position after every step."""
    return [Drag(points) for points in move_paths(parse, solution)]


def hints(parse: Parse, solution: Any) -> list[Shape]:
    """The next move as an arrow from the piece's centre along its path, and how many
    moves are left."""
    if not solution:
        return []
    points = move_paths(parse, solution[:1])[0]
    pitch = min(parse.geometry["pitch"])
    dx, dy = STEP[solution[0]["path"][0]]
    # the label sits behind the arrow's start, clear of the path it points along
    label = (points[0][0] - 0.35 * pitch * dx, points[0][1] - 0.35 * pitch * dy)
    return [
        Polyline(points, HALO, width=0.16 * pitch, arrows="end"),
        Polyline(points, ARROW, width=0.09 * pitch, arrows="end"),
        Label(label, f"{solution[0]['piece']}: 1/{len(solution)}", size=max(10.0, 0.2 * pitch)),
    ]
