"""One-stroke (一笔画完): a solution as one drag through the cells, and as a drawn path.

The game follows the finger cell by cell, so ``plan`` is a single drag whose waypoints are
the cell centres in visiting order. ``hints`` draws the same path with an arrow between
every two cells, the start and end as discs and each cell's step number in its corner,
all sized from the measured pitch so they read at any scale (on small boards only
every fifth step is numbered).

Mid-level the vision reads the board that is left (the cat at the path's head is the
start), so hints solved from it follow the player; ``follows`` tells live that such a
board continues the level on screen, and ``stuck`` says where to undo to when the path
drawn so far cannot be finished.
"""
from __future__ import annotations

from dataclasses import replace
from typing import Any

from overlay.actions import Action, Drag
from overlay.draw import Label, Marker, Polyline, Shape
from solvers.onestroke import Board, Cell, reach, solve
from vision.common import Parse
from vision.onestroke import OnestrokeGeometry

PATH = (236, 64, 122)      # a strong pink-red: stands out on grey cells and pastel tints
HALO = (255, 255, 255)
START = (46, 160, 67)
END = (52, 73, 94)
SMALL_PITCH = 36.0         # px; below it only every 5th step is numbered (the numbers would cover the cells)


def path_points(parse: Parse[OnestrokeGeometry], solution: Any) -> tuple[tuple[float, float], ...]:
    """The image positions of the solution's cells, in visiting order."""
    cols = parse.geometry.cols
    return tuple(parse.cells[r * cols + c] for r, c in solution)


def plan(parse: Parse[OnestrokeGeometry], solution: Any) -> list[Action]:
    """One drag from the cat through every cell centre in order."""
    return [Drag(points=path_points(parse, solution))]


def hints(parse: Parse[OnestrokeGeometry], solution: Any) -> list[Shape]:
    """The path (haloed, an arrow per step), the start and end discs and step numbers."""
    points = path_points(parse, solution)
    pitch = min(parse.geometry.pitch)
    shapes: list[Shape] = []
    if len(points) > 1:
        shapes.append(Polyline(points, HALO, width=0.2 * pitch, arrows="none"))
        shapes.append(Polyline(points, PATH, width=0.1 * pitch, arrows="each"))
    corner = 0.3 * pitch
    every = 1 if pitch >= SMALL_PITCH else 5   # small cells: every 5th step, not clutter
    shapes += [Label((x - corner, y - corner), str(k), size=0.17 * pitch)
               for k, (x, y) in enumerate(points[1:-1], start=2) if k % every == 0]
    shapes.append(Marker(points[0], 0.2 * pitch, START, label="1"))
    if len(points) > 1:
        shapes.append(Marker(points[-1], 0.2 * pitch, END, label=str(len(points))))
    return shapes


UNDO_LIMIT = 20_000        # search nodes per prefix tried by ``stuck`` (unsettled ones are skipped)


def follows(level: Board, board: Board) -> bool:
    """Whether ``board`` is ``level`` with a path drawn from its start: the same grid and
    marked end, its cells among the level's, and the cells gone (with the new start, the path's head) one
    piece holding the level's start."""
    if (board.rows, board.cols, board.end) != (level.rows, level.cols, level.end) or not board.cells <= level.cells:
        return False
    drawn = (level.cells - board.cells) | {board.start}
    if level.start not in drawn:
        return False
    return reach(level.start, drawn) == drawn


def stuck(parse: Parse[OnestrokeGeometry], result: Any) -> str:
    """What to tell a player whose path drawn so far cannot be finished: the latest cell
    of it to cut the path back to (press it, in the game) from which a path over the rest
    still exists, when the vision read the path's order; else to undo part of it."""
    board: Board = parse.board
    head = board.start
    said = f"the path drawn so far cannot be finished ({result.reason}): "
    drawn = list(parse.geometry.drawn or ())
    path: list[Cell] = [*drawn, head]
    for j in range(len(path) - 2, -1, -1):
        cut = replace(board, cells=board.cells | set(path[j:]), start=path[j])
        tried = solve(cut, max_nodes=UNDO_LIMIT)
        if tried.solved:
            back = len(path) - 1 - j
            return said + f"undo to cell {path[j]}, {back} step{'s' if back > 1 else ''} back"
    if drawn:
        return said + "no path covers the level from its start either"
    return said + "undo part of it"
