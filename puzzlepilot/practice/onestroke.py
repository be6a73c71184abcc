"""The one-stroke practice board: press on the path's end (where the cat sits: it moves
with the path's head, as in the game) and drag through the cells, one orthogonal
neighbour at a time, never onto a visited cell.

Dragging back onto the previous cell takes the last step back; releasing keeps the path,
and pressing on any visited cell cuts the path back to it and goes on from there (the real
game lets you continue from the path's end). A drag that cuts a corner goes through the
one free cell it skipped. With a dwell (``--dwell MS``) a cell joins the path only once the
pointer has rested on it that long: a glide through the cells draws nothing, as in games
that take a finger's rests. Pictures come from the fixtures' scene code; with a look of the
style zoo (``--look NAME``: a game drawn by someone else) visited cells are drawn as holes
and the start marker stands on the path's head.
"""
from __future__ import annotations

import math
import time

import numpy as np

from puzzlepilot.scenes import zoo
from puzzlepilot.scenes.onestroke import CATS, Truth, render_phone
from solvers.onestroke import Board, Cell, generate

VIEW = (540, 960)
SIZES = (2, 12)
DEFAULT_SIZE = (6, 6)
BEHAVIOURS = ("dwell",)
LOOKS = zoo.LOOKS       # --look: the style zoo's looks, none of them the game's


def new_level(seed: int, size: tuple[int, int] | None, view: tuple[int, int], dwell: float = 0.0,
              look: zoo.Look | None = None) -> "OneStrokeLevel":
    rows, cols = size or DEFAULT_SIZE
    return OneStrokeLevel(generate(rows, cols, seed), seed, view, dwell, look)


class OneStrokeLevel:
    """One board and the path drawn on it so far; ``dwell``: seconds the pointer must rest
    on a cell for it to join the path (0: at once); ``look``: a style zoo look to draw it
    in (None: the game's)."""

    def __init__(self, board: Board, seed: int, view: tuple[int, int], dwell: float = 0.0,
                 look: zoo.Look | None = None) -> None:
        self.board, self.seed, self.view, self.dwell, self.look = board, seed, view, dwell, look
        self.path: list[Cell] = [board.start]
        self.dragging = False
        self.pointer: tuple[float, float] | None = None
        self.resting: tuple[Cell | None, float] = (None, 0.0)    # with a dwell: the cell under the pointer, since
        self.summary = f"{board.rows}x{board.cols}, {len(board.cells)} cells"
        # The cat changes colour from level to level, as in the game.
        self.cat = sorted(CATS)[seed % len(CATS)]
        _, truth = self._render()
        if look is not None:    # what calibrate --board takes for a look of another app
            self.summary += f", board {truth.board}"
        # Cell centres from the scene's own geometry, so the mouse maps to what is drawn.
        self.centres = {(r, c): truth.cells[r * board.cols + c] for r, c in board.cells}
        self.pitch, self.cell = truth.pitch, truth.cell

    def _render(self) -> tuple[np.ndarray, Truth]:
        if self.look is not None:   # what is left to visit, from the path's head
            head = self.path[-1]
            left = self.board.cells.difference(self.path[:-1])
            return zoo.render(Board(self.board.rows, self.board.cols, left, head, self.board.end), self.look,
                              *self.view, seed=self.seed)
        return render_phone(self.board, width=self.view[0], height=self.view[1],
                            visited=self.path, seed=self.seed, cat=self.cat)

    def picture(self) -> np.ndarray:
        return self._render()[0]

    def solved(self) -> bool:
        return len(self.path) == len(self.board.cells)

    def cell_at(self, x: float, y: float) -> Cell | None:
        """The cell whose square (not the gap around it) holds the point."""
        half = self.cell / 2
        for cell, (cx, cy) in self.centres.items():
            if abs(x - cx) <= half and abs(y - cy) <= half:
                return cell
        return None

    def press(self, x: float, y: float) -> bool:
        cell = self.cell_at(x, y)
        if cell not in self.path:
            return False
        self.dragging, self.pointer, self.resting = True, (x, y), (cell, time.monotonic())
        cut = self.path.index(cell) + 1
        changed = cut < len(self.path)
        del self.path[cut:]
        return changed

    def drag(self, x: float, y: float) -> bool:
        if not self.dragging or self.pointer is None:
            return False
        # Walk the pointer's segment in small steps: a fast drag may skip over a cell
        # between two motion events, and the game still sees the cells it crossed.
        (x0, y0), changed = self.pointer, False
        steps = max(1, math.ceil(math.hypot(x - x0, y - y0) / (self.pitch / 5)))
        for k in range(1, steps + 1):
            cell = self.cell_at(x0 + (x - x0) * k / steps, y0 + (y - y0) * k / steps)
            if not self.dwell:
                changed |= self._enter(cell)
            elif cell != self.resting[0]:
                self.resting = (cell, time.monotonic())     # passed over, not rested on: not taken
        self.pointer = (x, y)
        return changed or self.wake()

    def wake_in(self) -> float | None:
        """With a dwell: seconds until the cell the pointer rests on has waited long enough
        (None: no drag, or no cell waiting)."""
        cell, since = self.resting
        if not (self.dwell and self.dragging) or cell is None or cell == self.path[-1]:
            return None
        return max(0.0, since + self.dwell - time.monotonic())

    def wake(self) -> bool:
        """With a dwell: the cell the pointer has rested on long enough joins the path."""
        due = self.wake_in()
        return due is not None and due <= 0 and self._enter(self.resting[0])

    def release(self, x: float, y: float) -> bool:
        changed = self.drag(x, y)
        self.dragging, self.pointer = False, None
        return changed

    def _enter(self, cell: Cell | None) -> bool:
        """Extend the path onto a free neighbouring cell, or step back onto the previous one.

        A pointer that cuts a corner lands diagonally to the path's end; when exactly one
        of the two cells between is free, the path goes through it (as a finger would)."""
        if cell is None or cell == self.path[-1]:
            return False
        if len(self.path) > 1 and cell == self.path[-2]:
            self.path.pop()
            return True
        (r, c), (hr, hc) = cell, self.path[-1]
        if cell in self.path or cell not in self.board.cells:
            return False
        if abs(r - hr) + abs(c - hc) == 1:
            self.path.append(cell)
            return True
        if abs(r - hr) == abs(c - hc) == 1:
            between = [b for b in ((hr, c), (r, hc)) if b in self.board.cells and b not in self.path]
            if len(between) == 1:
                self.path += [between[0], cell]
                return True
        return False
