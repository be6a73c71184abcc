"""The Klotski practice board: press on a piece and drag it; it follows the pointer one
cell at a time while the cells ahead are free, turning corners as a finger does.

Levels go through the bundled solvable layouts (横刀立马 first, one look per level), or
with ``--size RxC`` (3x3 to 5x5) through random boards of that size that have an answer;
``--board FILE`` starts from a given board; with ``--one-cell`` a drag moves its piece one
cell at most (a web Klotski does so). A press-drag-release that moves a piece counts
one move (the piece metric, counted as the piece starts to move), shown above the board
with the minimum. The level is solved when the target reaches the exit, or covers the
goal cells.

A given board with walls, gates or goal cells (GNOME Klotski's puzzles, say) is drawn as
that game draws its boards (``scenes.klotski.walled``, the look the vision reads walls
in) and played by its rules: walls never move and stop every piece, gates stop every
piece but the target, pieces may be of any shape. Its exit, if it has no goal cells, is
shown as the goal cells the target covers there. As that look tells walls from pieces only
by where they stand (joined to the board's edge, or ending a row of gates), a board that
would read as another (a piece that can reach the edge, a wall on its own inside) is
refused, saying why. Pictures come from the fixtures' scene code.
"""
from __future__ import annotations

from dataclasses import replace

import numpy as np

from puzzlepilot.scenes.klotski import STYLES, WALLED, render
from solvers.common import BoardError
from solvers.klotski import LAYOUTS, STEPS, Board, Piece, generate, solve

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
    """A level starting from a given board text (``--board``); BoardError for a board the
    practice board cannot show so that it reads as itself (see the module's notes)."""
    board = Board.from_text(text)
    if not (board.walls or board.gates or board.marks):
        if any(p.form is not None for p in board.pieces):
            raise BoardError("the Klotski practice board draws shaped pieces only on boards with walls, gates "
                             "or goal cells (puzzlepilot solve takes this board)")
        return KlotskiLevel(board, "your board", 1, view, one_cell)
    if board.goal is not None:      # the exit, shown as the goal cells the target covers there
        board = Board.make(board.rows, board.cols, list(board.pieces), board.target, None, board.walls,
                           board.gates, board.goal_cells())
    check_walled(board)
    level = KlotskiLevel(board, "your board", 1, view, one_cell, style=WALLED)
    read = level.reading()
    if read != board.relabelled().to_text():
        shown = read.replace("\n", "/")
        raise BoardError(f"the practice board draws walls as GNOME Klotski does, and this board would read as "
                         f"another ({shown}): walls must join the board's edge or end a row of gates "
                         "(puzzlepilot solve takes this board)")
    return level


def check_walled(board: Board) -> None:
    """BoardError when a piece but the target could ever stand on the board's edge or at the
    end of a row of gates, where the walled look would show it as a wall."""
    from vision.gnome_klotski import gate_ends

    open_cells = {(r, c) for r in range(board.rows) for c in range(board.cols)} - board.walls - board.gates
    todo = [cell for p in board.pieces if p.name != board.target for cell in p.cells()]
    reached = set(todo)
    while todo:
        r, c = todo.pop()
        for dr, dc in STEPS.values():
            n = (r + dr, c + dc)
            if n in open_cells and n not in reached:
                reached.add(n)
                todo.append(n)
    # a run of gates with a tile at both ends is a frame's: a piece at one end, a wall or
    # another piece at the other, reads as a wall (the target at an end touches the gate:
    # the vision refuses that)
    ends = gate_ends(set(board.gates), set(board.walls) | reached)
    if any(r in (0, board.rows - 1) or c in (0, board.cols - 1) for r, c in reached) or ends & reached:
        raise BoardError("on the practice board a piece but the target must never reach the board's edge or the "
                         "end of a row of gates (walls are drawn as pieces are, and stand there): close the "
                         "board with walls (puzzlepilot solve takes this board)")


class KlotskiLevel:
    """One board, the pieces where they are now, and the piece being dragged; with
    ``one_cell``, a drag moves its piece one cell at most. ``style``: its look (default:
    one of ``STYLES`` by the seed)."""

    def __init__(self, board: Board, name: str, seed: int, view: tuple[int, int], one_cell: bool = False,
                 style: str | None = None) -> None:
        self.start, self.name, self.view, self.one_cell = board, name, view, one_cell
        self.pieces = {p.name: p for p in board.pieces}
        self.style = style or STYLES[(seed - 1) % len(STYLES)]
        self.best = solve(board).moves
        self.moves = 0
        self.held: str | None = None
        self.grip = (0.0, 0.0)          # pointer minus held piece's top-left, in cells
        self.moved = False
        self.summary = f"{name}, {board.rows}x{board.cols}, {len(board.pieces)} pieces, best {self.best}"
        _, truth = render(board, style=self.style, cell=min(view[0] / (board.cols + 1.2), view[1] / (board.rows + 2.4)),
                          size=view)
        self.cell = truth.pitch         # the look may round it (walled: whole pixels)
        x, y = truth.cells[0]
        self.origin = (x - self.cell / 2, y - self.cell / 2)

    @property
    def board(self) -> Board:
        s = self.start
        goal = None if s.goal == s.default_goal() else s.goal
        return Board.make(s.rows, s.cols, list(self.pieces.values()), s.target, goal, s.walls, s.gates, s.marks)

    def picture(self) -> np.ndarray:
        title = f"moves {self.moves}  (best {self.best})"
        return render(self.board, style=self.style, cell=self.cell, size=self.view, title=title)[0]

    def reading(self) -> str:
        """The board the vision reads in the picture (its text), or why it reads none."""
        from vision.common import NoBoardFound
        from vision.klotski import parse

        try:
            return parse(self.picture()).board.to_text()
        except NoBoardFound as exc:
            return f"none: {exc}"

    def solved(self) -> bool:
        return self.start.goal_cells() <= set(self.pieces[self.start.target].cells())

    def _cell(self, x: float, y: float) -> tuple[float, float]:
        return ((y - self.origin[1]) / self.cell, (x - self.origin[0]) / self.cell)

    def press(self, x: float, y: float) -> bool:
        r, c = self._cell(x, y)
        at = (int(np.floor(r)), int(np.floor(c)))
        for p in self.pieces.values():
            if at in p.cells():
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
                    self.pieces[p.name] = replace(p, row=p.row + step[0], col=p.col + step[1])
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
        """Whether piece p can slide one cell by step: on the board, into cells no other
        piece covers, no wall, and no gate unless it is the target."""
        s = self.start
        cells = set(replace(p, row=p.row + step[0], col=p.col + step[1]).cells())
        if not all(0 <= r < s.rows and 0 <= c < s.cols for r, c in cells) or cells & s.walls:
            return False
        if p.name != s.target and cells & s.gates:
            return False
        taken = {cell for q in self.pieces.values() if q.name != p.name for cell in q.cells()}
        return not taken & cells
