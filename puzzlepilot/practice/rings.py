"""The ring-battle practice board: drag along a ring to turn it, across the rings to slide
a line; line the enemies up in full lines and blocks within the move budget.

Press on an enemy's or any tile: moving along the ring (around the centre) turns that
ring, moving toward or away from the centre slides the line through that tile; the
first clear movement decides which. While dragging the arena shows the move as it would
land; releasing makes it (a drag back to where it started is no move). The "Ring Moves"
panel counts down; when it reaches 0 unsolved, press the central disc to start the level
again. Pictures come from the fixtures' scene code.

With ``--keymap FILE`` (the key map ``live --play --keymap`` and ``overlay.rings`` use)
the keys play too: a ring's or line's keys pick it, each turn key turns the picked ring a
slice (or slides the picked line a step, inward or outward), previewed like a drag, and
the confirm key makes the move; with no moves left, confirm starts the level again.
"""
from __future__ import annotations

import math
from pathlib import Path
from typing import Any

import numpy as np

from puzzlepilot.errors import UsageError
from puzzlepilot.practice import key_name
from puzzlepilot.scenes.rings import KINDS, STYLES, arena_for, draw_enemies, draw_hud, stage
from solvers.rings import SLICES, Board, apply_move, generate, validate

VIEW = (960, 540)
DECIDE = 0.3           # movement, in ring widths, after which a drag is a turn or a slide


def new_level(seed: int, size: tuple[int, int] | None, view: tuple[int, int],
              keymap: dict[str, Any] | None = None) -> "RingsLevel":
    """A level of 2–4 groups shuffled by 2–3 moves (the arena has one size: no ``SIZES``)."""
    return RingsLevel(generate(seed, groups=2 + seed % 3, moves=2 + seed % 2, kinds=KINDS), seed, view, keymap)


def read_keymap(path: Path) -> dict[str, Any]:
    """``--keymap FILE``: the key map, checked as ``live`` checks it."""
    from overlay.rings import load_keymap

    try:
        return load_keymap(path)
    except ValueError as exc:
        raise UsageError(f"--keymap: {exc}") from None


class RingsLevel:
    """One battle: the arena as it is now, the moves made, and the drag in progress."""

    def __init__(self, board: Board, seed: int, view: tuple[int, int], keymap: dict[str, Any] | None = None) -> None:
        self.start, self.seed = board, seed
        self.budget = board.budget or 3
        self.arena = arena_for(*view)
        self.backdrop = stage(view[0], view[1], sorted(STYLES)[seed % len(STYLES)], seed, self.arena)
        self.grid = [list(ring) for ring in board.cells]
        self.made = 0
        self.pressed: tuple[float, float] | None = None
        self.cell: tuple[int, int] | None = None
        self.pending: dict[str, Any] | None = None
        self.mode: str | None = None       # "rotate" or "slide", fixed by the drag's first clear movement
        self.keys = Keys(keymap) if keymap else None
        self.typed: list[str] = []          # keys since the last pick, for picks of several keys
        self.picked: tuple[str, int] | None = None   # ("ring", r) or ("line", i), picked by keys
        self.summary = f"{board.enemies} enemies, {self.budget} moves"

    # ------------------------------------------------------------------------ picture

    def picture(self) -> np.ndarray:
        img = self.backdrop.copy()
        grid = apply_move(self.grid, self.pending) if self.pending else self.grid
        draw_enemies(img, Board(tuple("".join(ring) for ring in grid)), self.arena)
        draw_hud(img, self.budget - self.made, 60, 50)
        return img

    def solved(self) -> bool:
        board = Board(tuple("".join(ring) for ring in self.grid))
        return validate(board, [], moves=0) == []

    # ------------------------------------------------------------------------ mouse

    def move_for(self, x: float, y: float) -> dict[str, Any] | None:
        """The move a drag from the pressed tile to (x, y) makes, or None: a turn of the
        tile's ring by the angle swept, or a slide of its line by the distance along it
        (in ring widths)."""
        assert self.pressed is not None and self.cell is not None
        (x0, y0), (ring, slice_) = self.pressed, self.cell
        a = math.radians(30.0 * slice_)
        out = (-math.cos(a), -math.sin(a))                 # from the centre toward the tile
        dx, dy = x - x0, y - y0
        along_radius = dx * out[0] + dy * out[1]
        around = -dx * out[1] + dy * out[0]
        if self.mode is None:
            if math.hypot(dx, dy) < DECIDE * self.arena.width:
                return None
            self.mode = "rotate" if abs(around) > abs(along_radius) else "slide"
        if self.mode == "rotate":
            turn = (self.arena.locate(x, y)[1] - self.arena.locate(x0, y0)[1]) % 360.0
            steps = (round(turn / 30.0) + 5) % SLICES - 5        # −5..6, as the moves are written
            return {"op": "rotate", "ring": ring, "steps": steps} if steps else None
        # Toward the centre from slice i's side is the positive slide direction of line i.
        inward = -along_radius if slice_ < 6 else along_radius
        steps = round(inward / self.arena.width) % 8
        return {"op": "slide", "line": slice_ % 6, "steps": steps} if steps else None

    def restart(self) -> None:
        self.grid, self.made = [list(ring) for ring in self.start.cells], 0

    def press(self, x: float, y: float) -> bool:
        if self.made >= self.budget:
            if self.arena.locate(x, y)[0] < self.arena.inner:     # the centre disc: start again
                self.restart()
                return True
            return False
        self.cell = self.arena.cell_at(x, y)
        self.pressed = (x, y) if self.cell else None
        self.mode = None
        return False

    def drag(self, x: float, y: float) -> bool:
        if self.pressed is None:
            return False
        move = self.move_for(x, y)
        changed, self.pending = move != self.pending, move
        return changed

    def release(self, x: float, y: float) -> bool:
        if self.pressed is None:
            return False
        move = self.move_for(x, y)
        self.pressed, self.cell, self.pending = None, None, None
        if move is None:
            return True
        self.make(move)
        return True

    def make(self, move: dict[str, Any]) -> None:
        self.grid = apply_move(self.grid, move)
        self.made += 1

    # ------------------------------------------------------------------------ keys

    def key(self, name: str) -> bool:
        """A key pressed (its pyautogui name); True when the picture changed."""
        keys = self.keys
        if keys is None:
            return False
        if self.made >= self.budget:
            if name == keys.confirm:
                self.restart()
                return True
            return False
        if self.picked is not None and name in keys.turns[self.picked[0]]:
            kind, where = self.picked
            steps = (self.pending["steps"] if self.pending else 0) + keys.turns[kind][name]
            if kind == "ring":
                steps = (steps + 5) % SLICES - 5                # −5..6, as the moves are written
                self.pending = {"op": "rotate", "ring": where, "steps": steps} if steps else None
            else:
                steps %= 8
                self.pending = {"op": "slide", "line": where, "steps": steps} if steps else None
            return True
        if name == keys.confirm:
            move, self.pending, self.picked = self.pending, None, None
            if move is not None:
                self.make(move)
            return move is not None
        self.typed = (self.typed + [name])[-keys.longest:]
        picked = keys.pick(self.typed)
        if picked is None:
            return False
        self.typed, self.picked = [], picked
        had, self.pending = self.pending, None
        return had is not None


class Keys:
    """A key map (``overlay.rings``) in the names the board is given: the key sequences
    that pick each ring and line, the turn keys' steps for a picked ring (+1 clockwise)
    and a picked line (+1 inward), and the confirm key."""

    def __init__(self, keymap: dict[str, Any]) -> None:
        self.picks = [(tuple(map(key_name, keys)), ("ring", r)) for r, keys in enumerate(keymap["rings"])]
        self.picks += [(tuple(map(key_name, keys)), ("line", i)) for i, keys in enumerate(keymap["lines"])]
        self.picks.sort(key=lambda pick: -len(pick[0]))         # the longest sequence typed wins
        self.longest = len(self.picks[0][0])
        self.confirm = key_name(keymap["confirm"])
        self.turns: dict[str, dict[str, int]] = {
            kind: {key_name(keymap[name]): step for name, step in names if name in keymap}
            for kind, names in (("ring", (("clockwise", 1), ("anticlockwise", -1))),
                                ("line", (("inward", 1), ("outward", -1))))}

    def pick(self, typed: list[str]) -> tuple[str, int] | None:
        """The ring or line whose keys the typed keys end with, if any."""
        return next((what for keys, what in self.picks if tuple(typed[-len(keys):]) == keys), None)
