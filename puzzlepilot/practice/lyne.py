"""The LYNE practice board: press on a terminal and drag through the nodes of its shape
(and hubs) to the other terminal, one of the 8 neighbours at a time.

A step is refused when it would leave the shape, use an edge twice, cross a drawn
diagonal, or pass a hub more often than it has holes; dragging back onto the previous node
takes the last step back. Reaching the other terminal finishes the path; releasing before
that drops it, and pressing on a finished path's terminal draws that shape again. The
level is solved when every shape's path obeys the rules (judged by ``validate``).
Palettes change from level to level; pictures come from the fixtures' scene code, in the
game's look mid-play.
"""
from __future__ import annotations

import math
import random

import numpy as np

from puzzlepilot.scenes.lyne import PALETTES, Play, render
from solvers.lyne import Board, generate, validate

VIEW = (800, 600)
SIZES = (2, 8)
DEFAULT_SIZE = (4, 5)
Pos = tuple[int, int]


def new_level(seed: int, size: tuple[int, int] | None, view: tuple[int, int]) -> "LyneLevel":
    rows, cols = size or DEFAULT_SIZE
    places = rows * cols   # small boards hold fewer shapes: each needs two places at least
    board, _ = generate(rows, cols, random.Random(seed), hubs=places // 6, shapes="tds"[:min(3, max(1, places // 4))])
    return LyneLevel(board, seed, view)


def level_from_text(text: str, view: tuple[int, int]) -> "LyneLevel":
    """A level from a given board text (``--board``)."""
    return LyneLevel(Board.from_text(text), 1, view)


class LyneLevel:
    """One board, the finished paths and the path being drawn."""

    def __init__(self, board: Board, seed: int, view: tuple[int, int]) -> None:
        self.board, self.view = board, view
        self.palette = PALETTES[sorted(PALETTES)[seed % len(PALETTES)]]
        self.done: dict[str, list[Pos]] = {}
        self.current: list[Pos] | None = None
        self.pointer: tuple[float, float] | None = None
        hubs = sum(ch.isdigit() for row in board.grid for ch in row)
        self.summary = f"{board.rows}x{board.cols}, {len(board.shapes)} shapes, {hubs} hubs"
        _, truth = render(board, self.palette, *view)
        self.pitch = truth.pitch
        self.centres = {p: truth.cells[p[0] * board.cols + p[1]] for p in board.nodes()}

    def picture(self) -> np.ndarray:
        """The board as the game draws it mid-play: finished paths in cream, the path being
        drawn in its shape's colour up to its last node."""
        drawing = None if self.current is None else (self.board.at(self.current[0]).lower(), list(self.current))
        return render(self.board, self.palette, *self.view, play=Play(dict(self.done), drawing))[0]

    def solved(self) -> bool:
        paths = {shape: [list(p) for p in path] for shape, path in self.done.items()}
        return len(paths) == len(self.board.shapes) and validate(self.board, paths) == []

    def node_at(self, x: float, y: float) -> Pos | None:
        for pos, (cx, cy) in self.centres.items():
            if math.hypot(x - cx, y - cy) <= 0.36 * self.pitch:
                return pos
        return None

    def press(self, x: float, y: float) -> bool:
        pos = self.node_at(x, y)
        if pos is None or not self.board.at(pos).isupper():
            return False
        changed = self.done.pop(self.board.at(pos).lower(), None) is not None
        self.current, self.pointer = [pos], (x, y)
        return changed

    def drag(self, x: float, y: float) -> bool:
        if self.current is None or self.pointer is None:
            return False
        # Walk the pointer's segment in small steps: a fast drag may skip a node.
        (x0, y0), changed = self.pointer, False
        steps = max(1, math.ceil(math.hypot(x - x0, y - y0) / (self.pitch / 5)))
        for k in range(1, steps + 1):
            if self.current is None:
                break
            changed |= self._enter(self.node_at(x0 + (x - x0) * k / steps, y0 + (y - y0) * k / steps))
        self.pointer = (x, y)
        return changed

    def release(self, x: float, y: float) -> bool:
        changed = self.drag(x, y)
        if self.current is not None:   # let go before the other terminal: the path is dropped
            changed |= len(self.current) > 1
            self.current = None
        self.pointer = None
        return changed

    def _edges(self) -> set[frozenset]:
        paths = list(self.done.values()) + ([self.current] if self.current else [])
        return {frozenset(e) for path in paths for e in zip(path, path[1:])}

    def _passes(self, hub: Pos) -> int:
        paths = list(self.done.values()) + ([self.current] if self.current else [])
        return sum(path[1:].count(hub) for path in paths)

    def _enter(self, pos: Pos | None) -> bool:
        """Step onto a node if the rules allow it, or back onto the previous one."""
        path = self.current
        if pos is None or path is None or pos == path[-1]:
            return False
        if len(path) > 1 and pos == path[-2]:
            path.pop()
            return True
        (r, c), (hr, hc) = pos, path[-1]
        if max(abs(r - hr), abs(c - hc)) != 1:
            return False
        shape, ch = self.board.at(path[0]).lower(), self.board.at(pos)
        edges = self._edges()
        if frozenset((path[-1], pos)) in edges:
            return False
        if r != hr and c != hc and frozenset(((hr, c), (r, hc))) in edges:
            return False   # would cross a drawn diagonal
        if ch.isdigit():
            if self._passes(pos) >= int(ch):
                return False
        elif ch.lower() != shape or pos in path:
            return False
        path.append(pos)
        if ch == shape.upper():
            self.done[shape], self.current = path, None
        return True
