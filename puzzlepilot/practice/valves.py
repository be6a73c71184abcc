"""The valves practice board: the sewer scene with clickable wheels.

Clicking an open wheel hangs a wrench on it and shuts it (while wrenches are left);
clicking a shut one takes the wrench back. Water runs, drawn in blue, through every pipe
the inlet still reaches, and the level is solved when none reaches the outlet — the drain
runs dry. The scene is one fixed puzzle, so ``--size`` has nothing to change; from the
second level on, the seed shuts one valve of a minimum answer to start with (a wrong one
would hold a wrench the answer needs, and the assistant only closes valves). A bar under
the scene counts the wrenches left.
"""
from __future__ import annotations

import random

import cv2
import numpy as np

from puzzlepilot.scenes.valves import GRAPH, SIZE, WHEEL, render_sewer
from solvers.common import BoardError
from solvers.valves import Board, solve, validate

VIEW = (SIZE[0], SIZE[1] + 40)
BAR = (40, 40, 40)          # BGR


def new_level(seed: int, size: tuple[int, int] | None, view: tuple[int, int]) -> "ValvesLevel":
    board = Board.from_text(GRAPH)
    rng = random.Random(seed)
    useful = sorted({v for answer in solve(board, all=True).extra["solutions"] for v in answer})
    closed = {rng.choice(useful)} if seed > 1 else set()
    return ValvesLevel(board, closed, view)


def level_from_text(text: str, view: tuple[int, int]) -> "ValvesLevel":
    """The sewer from a board text (``--board``): the scene's own graph, with its
    ``closed:`` valves shut to start with (the one scene there is to draw)."""
    board, sewer = Board.from_text(text), Board.from_text(GRAPH)
    if ({frozenset(p) for p in board.pipes}, board.inlet, board.outlet) != \
            ({frozenset(p) for p in sewer.pipes}, sewer.inlet, sewer.outlet):
        raise BoardError(f"the practice sewer draws one graph, the game's (inlet {sewer.inlet}, outlet {sewer.outlet}, "
                         f"pipes {' '.join('-'.join(p) for p in sewer.pipes)}); this board's pipes, inlet or outlet differ")
    return ValvesLevel(Board(sewer.pipes, sewer.inlet, sewer.outlet, board.wrenches), set(board.closed), view)


class ValvesLevel:
    """The sewer and the valves shut so far."""

    def __init__(self, board: Board, closed: set[str], view: tuple[int, int]) -> None:
        self.board, self.closed, self.view = board, set(closed), view
        self.scale = min(view[0] / SIZE[0], (view[1] - 40) / SIZE[1])
        self.offset = (round((view[0] - SIZE[0] * self.scale) / 2), 0)
        _, truth = render_sewer(scale=self.scale)
        self.wheels = {n: (x + self.offset[0], y + self.offset[1])
                       for n, (x, y) in truth.points.items() if n in board.valves}
        self.summary = f"sewer, {len(board.valves)} valves, {board.wrenches} wrenches" + (
            f", {' '.join(sorted(closed))} shut" if closed else "")

    @property
    def wrenches_left(self) -> int:
        return self.board.wrenches - len(self.closed)

    def picture(self) -> np.ndarray:
        w, h = self.view
        out = np.full((h, w, 3), BAR, np.uint8)
        scene, _ = render_sewer(frozenset(self.closed), scale=self.scale)
        x, y = self.offset
        out[y:y + scene.shape[0], x:x + scene.shape[1]] = scene
        text = (f"wrenches left: {self.wrenches_left}    click a wheel to shut it, again to open it"
                if not self.solved() else "the drain is dry")
        cv2.putText(out, text, (16, h - 14), cv2.FONT_HERSHEY_SIMPLEX, 0.6, (230, 230, 230), 1, cv2.LINE_AA)
        return out

    def valve_at(self, x: float, y: float) -> str | None:
        reach = WHEEL * self.scale * 1.2
        for name, (cx, cy) in self.wheels.items():
            if (x - cx) ** 2 + (y - cy) ** 2 <= reach ** 2:
                return name
        return None

    def press(self, x: float, y: float) -> bool:
        name = self.valve_at(x, y)
        if name is None:
            return False
        if name in self.closed:
            self.closed.remove(name)
            return True
        if self.wrenches_left > 0:
            self.closed.add(name)
            return True
        return False

    def drag(self, x: float, y: float) -> bool:
        return False

    def release(self, x: float, y: float) -> bool:
        return False

    def solved(self) -> bool:
        shut = Board(self.board.pipes, self.board.inlet, self.board.outlet, self.board.wrenches,
                     frozenset(self.closed))
        return validate(shut, []) == []
