"""The Klotski practice board: press on a piece and drag it; it follows the pointer one
cell at a time while the cells ahead are free, turning corners as a finger does.

Levels go through the bundled solvable layouts (横刀立马 first, one look per level), or
with ``--size RxC`` (3x3 to 5x5) through random boards of that size that have an answer;
``--board FILE`` starts from a given board; with ``--one-cell`` a drag moves its piece one
cell at most (a web Klotski does so). A press-drag-release that moves a piece counts
one move (the piece metric, counted as the piece starts to move), shown above the board
with the minimum. The level is solved when the target reaches the exit. Pictures come
from the fixtures' scene code.
"""
from __future__ import annotations

import numpy as np

from puzzlepilot.scenes.klotski import STYLES, render
from solvers.common import BoardError
from solvers.klotski import LAYOUTS, Board, Piece, generate, solve

VIEW = (480, 640)
SIZES = (3, 5)          # larger random boards can take minutes to prove solvable: use --board
PLAYABLE = [name for name, (_, best) in LAYOUTS.items() if best is not None]
BEHAVIOURS = ("one_cell",)


def new_level(seed: int, size: tuple[int, int] | None, view: tuple[int, int],
              one_cell: bool = False) -> "KlotskiLevel":
    if size is None:
        name = PLAYABLE[(seed - 1) % len(PLAYABLE)]
        return KlotskiLevel(Board.from_text(LAYOUTS[name][0]), name, seed, view, one_cell)
    rows, cols = size
    for k in range(200):   # random boards may have no answer: take the first that has one
        board = generate(rows, cols, seed + 1000 * k)
        result = solve(board)
        if result.solved and result.moves > 0:
            return KlotskiLevel(board, "random", seed, view, one_cell)
    raise ValueError(f"no solvable {rows}x{cols} board found from seed {seed}")


def level_from_text(text: str, view: tuple[int, int], one_cell: bool = False) -> "KlotskiLevel":
    """A level starting from a given board text (``--board``); BoardError for a board with
    what this board does not draw or play by (walls, gates, goal cells, shaped pieces)."""
    board = Board.from_text(text)
    if board.walls or board.gates or board.marks or any(p.form is not None for p in board.pieces):
        raise BoardError("the Klotski practice board plays only rectangles in an open frame, not walls, "
                         "gates, goal cells or shaped pieces (puzzlepilot solve takes this board)")
    return KlotskiLevel(board, "your board", 1, view, one_cell)


class KlotskiLevel:
    """One board, the pieces where they are now, and the piece being dragged; with
    ``one_cell``, a drag moves its piece one cell at most."""

    def __init__(self, board: Board, name: str, seed: int, view: tuple[int, int], one_cell: bool = False) -> None:
        self.start, self.name, self.view, self.one_cell = board, name, view, one_cell
        self.pieces = {p.name: p for p in board.pieces}
        self.style = STYLES[(seed - 1) % len(STYLES)]
        self.cell = min(view[0] / (board.cols + 1.2), view[1] / (board.rows + 2.4))
        self.best = solve(board).moves
        self.moves = 0
        self.held: str | None = None
        self.grip = (0.0, 0.0)          # pointer minus held piece's top-left, in cells
        self.moved = False
        self.summary = f"{name}, {board.rows}x{board.cols}, {len(board.pieces)} pieces, best {self.best}"
        _, truth = render(board, style=self.style, cell=self.cell, size=view)
        x, y = truth.cells[0]
        self.origin = (x - self.cell / 2, y - self.cell / 2)

    @property
    def board(self) -> Board:
        goal = None if self.start.goal == self.start.default_goal() else self.start.goal
        return Board.make(self.start.rows, self.start.cols, list(self.pieces.values()), self.start.target, goal)

    def picture(self) -> np.ndarray:
        title = f"moves {self.moves}  (best {self.best})"
        return render(self.board, style=self.style, cell=self.cell, size=self.view, title=title)[0]

    def solved(self) -> bool:
        t = self.pieces[self.start.target]
        return (t.row, t.col) == self.start.goal

    def _cell(self, x: float, y: float) -> tuple[float, float]:
        return ((y - self.origin[1]) / self.cell, (x - self.origin[0]) / self.cell)

    def press(self, x: float, y: float) -> bool:
        r, c = self._cell(x, y)
        for p in self.pieces.values():
            if p.row <= r < p.row + p.height and p.col <= c < p.col + p.width:
                self.held, self.grip, self.moved = p.name, (r - p.row, c - p.col), False
        return False

    def drag(self, x: float, y: float) -> bool:
        """Slide the held piece toward the pointer, one free cell at a time, along the
        axis with more to go first (so an L-shaped pull turns its corner)."""
        if self.held is None:
            return False
        r, c = self._cell(x, y)
        changed = False
        while not (self.one_cell and self.moved):
            p = self.pieces[self.held]
            want_r, want_c = round(r - self.grip[0]) - p.row, round(c - self.grip[1]) - p.col
            steps = sorted(((abs(want_r), (int(np.sign(want_r)), 0)), (abs(want_c), (0, int(np.sign(want_c))))),
                           reverse=True)
            for distance, step in steps:
                if distance and self._free(p, step):
                    self.pieces[p.name] = Piece(p.name, p.row + step[0], p.col + step[1], p.height, p.width)
                    if not self.moved:      # counted now: solving ends the level before the release
                        self.moves += 1
                    changed = self.moved = True
                    break
            else:
                return changed
        return changed

    def release(self, x: float, y: float) -> bool:
        changed = self.drag(x, y)
        self.held = None
        return changed

    def _free(self, p: Piece, step: tuple[int, int]) -> bool:
        """Whether piece p can slide one cell by step (on the board, into empty cells)."""
        moved = Piece(p.name, p.row + step[0], p.col + step[1], p.height, p.width)
        if not (0 <= moved.row <= self.start.rows - p.height and 0 <= moved.col <= self.start.cols - p.width):
            return False
        taken = {cell for q in self.pieces.values() if q.name != p.name for cell in q.cells()}
        return not taken & set(moved.cells())
