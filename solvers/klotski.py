"""Klotski / Huarong Dao: rectangular pieces slide on a grid until the target piece
reaches the exit.

Vocabulary: a *piece* is a named rectangle; its *shape* is (height, width); a *class* is
the set of pieces that are alike for the search (same shape; the target is a class of its
own); a *placement* is a class at a top-left cell. A *move* depends on the metric: under
``piece`` it is every cell one piece reaches by one-cell *slides* (a small BFS inside the
move generator), under ``straight`` a run of slides in one direction, under ``cell`` one
slide.

The search is a breadth-first search over *positions*, so the answer is a minimum under
the metric. A position is an int with one byte per cell: 0 for empty, else a code for
the class of the piece covering it and the cell's offset inside the piece. Alike pieces
thus share codes (they are interchangeable), a piece's top-left is known from any of its
cells, a move is one addition, and when the exit is symmetric a position and its mirror
image are one key. The free cells travel along as a bitmask, so a slide is tested with
one ``&``. The answer is then replayed on the real board to recover the piece letters.
Cost: one dict entry per reachable position (横刀立马: 13,011 keys, ~40 ms).
"""
from __future__ import annotations

import random
from dataclasses import dataclass, replace
from typing import Any

from solvers.common import BoardError, SolveResult, check_width, split_rows

STEPS = {"U": (-1, 0), "D": (1, 0), "L": (0, -1), "R": (0, 1)}
METRICS = ("piece", "straight", "cell")
EMPTY = "."

# Named classic 4×5 layouts; the figure is the known minimum under the piece metric
# (None: no solution). Source: the layout table of fayaa.com, as used by many solvers.
LAYOUTS: dict[str, tuple[str, int | None]] = {
    "横刀立马": ("ACCB/ACCB/DEEF/DGHF/I..J", 81),
    "指挥若定": ("ACCB/ACCB/DEEF/GHIJ/G..J", 70),
    "将拥曹营": (".CC./ACCB/ADEB/FDEG/HHIJ", 72),
    "齐头并进": ("ACCB/ACCB/DEFG/HIIJ/H..J", 60),
    "兵分三路": ("ACCB/DCCE/DFFE/GHIJ/G..J", 72),
    "雨声淅沥": ("ACCB/ACCD/EFFG/EH.G/IH.J", 47),
    "左右布兵": ("ACCB/DCCE/FGHI/FGHI/.JJ.", 54),
    "桃花园中": ("ACCB/DCCE/DFGE/HFGI/.JJ.", 70),
    "一路进军": ("ACCB/ACCD/EFGH/EFGI/.JJ.", 58),
    "一路顺风": ("ACCB/ACCD/EFFG/EHIG/.JI.", 39),
    "走投无路": ("ACCB/ACCB/DEFG/DEHG/I..J", None),
}


@dataclass(frozen=True)
class Piece:
    """A named rectangle: top-left (row, col) and size in cells."""

    name: str
    row: int
    col: int
    height: int
    width: int

    @property
    def shape(self) -> tuple[int, int]:
        return (self.height, self.width)

    def cells(self) -> list[tuple[int, int]]:
        return [(self.row + r, self.col + c) for r in range(self.height) for c in range(self.width)]


@dataclass(frozen=True)
class Board:
    """A Klotski position: its size, its pieces (in reading order of their top-left
    cells), the target piece's name and the goal (row, col) of the target's top-left."""

    rows: int
    cols: int
    pieces: tuple[Piece, ...]
    target: str = "C"
    goal: tuple[int, int] = (3, 1)

    @property
    def size(self) -> str:
        """The board's size for people (rows × columns)."""
        return f"{self.rows}x{self.cols}"

    @classmethod
    def from_text(cls, text: str, target: str | None = None,
                  goal: tuple[int, int] | None = None) -> "Board":
        """Read one character per cell (``.`` empty). Optional header lines ``target: X``
        and ``goal: ROW,COL`` override the defaults (``C``; bottom row band, centred)."""
        lines = split_rows(text)
        first = 1
        while lines and ":" in lines[0]:
            key, _, value = (part.strip() for part in lines[0].partition(":"))
            if key == "target" and len(value) == 1 and value != EMPTY:
                target = target or value
            elif key == "goal":
                goal = goal or _parse_goal(value, first)
            else:
                raise BoardError(f"unknown header {lines[0]!r} (known: 'target: X', 'goal: ROW,COL')", first)
            lines.pop(0)
            first += 1
        if not lines:
            raise BoardError("the board has no rows")
        width = check_width(lines, first)
        cells: dict[str, list[tuple[int, int]]] = {}
        for r, line in enumerate(lines):
            for c, ch in enumerate(line):
                if ch.isspace():
                    raise BoardError(f"blank inside a row at column {c + 1} (use '.' for empty)", first + r)
                if ch != EMPTY:
                    cells.setdefault(ch, []).append((r, c))
        pieces = []
        for name, where in cells.items():
            r0, c0 = min(r for r, _ in where), min(c for _, c in where)
            r1, c1 = max(r for r, _ in where), max(c for _, c in where)
            if (r1 - r0 + 1) * (c1 - c0 + 1) != len(where):
                raise BoardError(f"piece {name!r} is not a solid rectangle", first + r0)
            pieces.append(Piece(name, r0, c0, r1 - r0 + 1, c1 - c0 + 1))
        return cls.make(len(lines), width, pieces, target or "C", goal)

    @classmethod
    def make(cls, rows: int, cols: int, pieces: list[Piece], target: str = "C",
             goal: tuple[int, int] | None = None) -> "Board":
        """A checked board from pieces; the goal defaults to the bottom row band, centred."""
        pieces = sorted(pieces, key=lambda p: (p.row, p.col))
        names = {p.name: p for p in pieces}
        if len(names) != len(pieces):
            raise BoardError("two pieces share a name")
        if target not in names:
            raise BoardError(f"no target piece {target!r} on the board")
        seen: set[tuple[int, int]] = set()
        for p in pieces:
            for r, c in p.cells():
                if not (0 <= r < rows and 0 <= c < cols) or (r, c) in seen:
                    raise BoardError(f"piece {p.name!r} leaves the board or overlaps another")
                seen.add((r, c))
        t = names[target]
        if goal is None:
            if (cols - t.width) % 2:
                raise BoardError(f"the target ({t.width} wide) cannot sit centred on a board {cols} wide; "
                                 "add a line 'goal: ROW,COL'")
            goal = (rows - t.height, (cols - t.width) // 2)
        if not (0 <= goal[0] <= rows - t.height and 0 <= goal[1] <= cols - t.width):
            raise BoardError(f"the goal {goal} puts the target off the board")
        return cls(rows, cols, tuple(pieces), target, tuple(goal))

    def to_text(self) -> str:
        grid = [[EMPTY] * self.cols for _ in range(self.rows)]
        for p in self.pieces:
            for r, c in p.cells():
                grid[r][c] = p.name
        head = []
        if self.target != "C":
            head.append(f"target: {self.target}")
        if self.goal != self.default_goal():
            head.append(f"goal: {self.goal[0]},{self.goal[1]}")
        return "\n".join(head + ["".join(row) for row in grid])

    def default_goal(self) -> tuple[int, int] | None:
        t = self.piece(self.target)
        if (self.cols - t.width) % 2:
            return None
        return (self.rows - t.height, (self.cols - t.width) // 2)

    def piece(self, name: str) -> Piece:
        for p in self.pieces:
            if p.name == name:
                return p
        raise KeyError(name)

    def relabelled(self) -> "Board":
        """The same position with the target named ``C`` and the other pieces lettered in
        reading order — the naming vision uses, so a screenshot reads as one text."""
        letters = iter(ch for ch in _NAMES if ch != "C")
        pieces = [replace(p, name="C" if p.name == self.target else next(letters)) for p in self.pieces]
        goal = None if self.goal == self.default_goal() else self.goal
        return Board.make(self.rows, self.cols, pieces, "C", goal)


_NAMES = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789"


def _parse_goal(value: str, line: int) -> tuple[int, int]:
    try:
        r, c = (int(v) for v in value.replace(" ", "").split(","))
    except ValueError:
        raise BoardError(f"goal must be 'ROW,COL', got {value!r}", line) from None
    return (r, c)


def layout(name: str) -> Board:
    """A named classic layout (see ``LAYOUTS``)."""
    return Board.from_text(LAYOUTS[name][0])


def generate(rows: int, cols: int, seed: int, empty: int = 2) -> Board:
    """A random packed board: the 2×2 target at the top centre, the rest tiled in
    reading order with random 1×2, 2×1 and (rarer) 1×1 pieces, then soldiers (or, failing
    those, other pieces) lifted until ``empty`` cells are free. The exit is the bottom row
    band, centred (left of centre on odd widths)."""
    rng = random.Random(seed)
    left = cols // 2 - 1
    taken = {(r, c) for r in range(2) for c in range(left, left + 2)}
    pieces = [Piece("C", 0, left, 2, 2)]
    names = iter("ABDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz")
    for r in range(rows):
        for c in range(cols):
            if (r, c) in taken:
                continue
            fits = [(h, w) for h, w in ((1, 2), (2, 1), (1, 2), (2, 1), (1, 1))
                    if r + h <= rows and c + w <= cols
                    and not {(r + i, c + j) for i in range(h) for j in range(w)} & taken]
            h, w = rng.choice(fits)
            taken |= {(r + i, c + j) for i in range(h) for j in range(w)}
            pieces.append(Piece(next(names), r, c, h, w))
    free = 0
    while free < empty:
        soldiers = [p for p in pieces[1:] if p.shape == (1, 1)]
        gone = rng.choice(soldiers or pieces[1:])
        pieces.remove(gone)
        free += gone.height * gone.width
    return Board.make(rows, cols, pieces, goal=(rows - 2, left))


# ---------------------------------------------------------------------------------- search

class _Space:
    """Tables for one board size and piece set, built once per solve: cell codes,
    placement masks, the slides every placement allows, and the change a move makes to
    a position's number.

    A position is an int with one byte per cell (cell i at bits 8i..8i+7): 0 empty, else
    a code naming the class and the cell's offset inside the piece. Moving a piece is then
    one addition of a precomputed delta; the mirror image is carried alongside and moved
    by the mirrored delta, so the canonical key ``min(position, mirror)`` costs nothing.
    """

    def __init__(self, board: Board) -> None:
        rows, cols = board.rows, board.cols
        self.rows, self.cols, self.n = rows, cols, rows * cols
        target = board.piece(board.target)
        shapes = [target.shape] + sorted({p.shape for p in board.pieces if p.name != board.target})
        self.shapes = shapes
        # class 0 is the target; pieces of one shape share a class.
        self.class_of = {p.name: 0 if p.name == board.target else shapes.index(p.shape, 1) for p in board.pieces}
        self.code_class: list[int] = [-1]
        self.code_offset: list[int] = [0]
        self.first_code = []
        for k, (h, w) in enumerate(shapes):
            self.first_code.append(len(self.code_class))
            for dr in range(h):
                for dc in range(w):
                    self.code_class.append(k)
                    self.code_offset.append(dr * cols + dc)
        if len(self.code_class) > 256:
            raise BoardError("too many distinct piece shapes for the search")
        # per class, per top-left cell: the placement's value, its cell mask, its slides
        self.value: list[list[int]] = []
        self.mask: list[list[int]] = []
        self.slides: list[list[list[tuple[str, int, int] | None]]] = []
        for k, (h, w) in enumerate(shapes):
            value, mask, slides = [], [], []
            for tl in range(self.n):
                r, c = divmod(tl, cols)
                fits = r + h <= rows and c + w <= cols
                value.append(sum(self.first_code[k] + dr * w + dc << 8 * ((r + dr) * cols + c + dc)
                                 for dr in range(h) for dc in range(w)) if fits else 0)
                mask.append(_rect_mask(r, c, h, w, cols) if fits else 0)
                out: list[tuple[str, int, int] | None] = []
                for letter, (sr, sc) in STEPS.items():
                    nr, nc = r + sr, c + sc
                    if fits and 0 <= nr <= rows - h and 0 <= nc <= cols - w:
                        # the cells the piece enters: its new cells minus its old ones
                        enter = _rect_mask(nr, nc, h, w, cols) & ~_rect_mask(r, c, h, w, cols)
                        out.append((letter, nr * cols + nc, enter))
                    else:
                        out.append(None)
                slides.append(out)
            self.value.append(value)
            self.mask.append(mask)
            self.slides.append(slides)
        self.near = [_neighbours(e, rows, cols) for e in range(self.n)]
        self.goal_shift = 8 * (board.goal[0] * cols + board.goal[1])
        self.goal_code = self.first_code[0]
        self.full = (1 << self.n) - 1
        self.symmetric = board.goal[1] == cols - target.width - board.goal[1]
        self._moves: dict[tuple[int, int, int], list[tuple[int, int, int]]] = {}

    def mirror_tl(self, k: int, tl: int) -> int:
        r, c = divmod(tl, self.cols)
        return r * self.cols + self.cols - self.shapes[k][1] - c

    def encode(self, placements: dict[str, int]) -> tuple[int, int, int]:
        """(position, its mirror image, free-cell mask) of pieces at top-left cells."""
        s = m = taken = 0
        for name, tl in placements.items():
            k = self.class_of[name]
            s += self.value[k][tl]
            m += self.value[k][self.mirror_tl(k, tl)]
            taken |= self.mask[k][tl]
        return s, m, self.full & ~taken

    def reach(self, k: int, tl: int, room: int, metric: str) -> dict[int, str]:
        """Every top-left a class-k piece at tl reaches in one move, with the slides that
        get there; ``room`` is the free cells plus the piece's own."""
        slides = self.slides[k]
        if metric == "piece":
            paths = {tl: ""}
            queue = [tl]
            for p in queue:
                for step in slides[p]:
                    if step and step[1] not in paths and step[2] & room == step[2]:
                        paths[step[1]] = paths[p] + step[0]
                        queue.append(step[1])
            del paths[tl]
            return paths
        paths = {}
        for d in range(4):
            p, path = tl, ""
            while (step := slides[p][d]) and step[2] & room == step[2]:
                p, path = step[1], path + step[0]
                paths[p] = path
                if metric == "cell":
                    break
        return paths

    def moves(self, k: int, tl: int, room: int, metric: str) -> list[tuple[int, int, int]]:
        """(position delta, mirror delta, new piece mask) of every move of that piece;
        memoised, since few (piece, free cells) situations recur very often."""
        key = (k, tl, room)
        found = self._moves.get(key)
        if found is None:
            value, mask = self.value[k], self.mask[k]
            mtl = self.mirror_tl(k, tl)
            found = [(value[pos] - value[tl], value[self.mirror_tl(k, pos)] - value[mtl], mask[pos])
                     for pos in self.reach(k, tl, room, metric)]
            self._moves[key] = found
        return found


def _rect_mask(r: int, c: int, h: int, w: int, cols: int) -> int:
    return sum(1 << ((r + dr) * cols + c + dc) for dr in range(h) for dc in range(w))


def _neighbours(cell: int, rows: int, cols: int) -> list[int]:
    r, c = divmod(cell, cols)
    return [nr * cols + nc for nr, nc in ((r - 1, c), (r + 1, c), (r, c - 1), (r, c + 1))
            if 0 <= nr < rows and 0 <= nc < cols]


def _placements(board: Board) -> dict[str, int]:
    return {p.name: p.row * board.cols + p.col for p in board.pieces}


def _bfs(space: _Space, placements: dict[str, int], metric: str, merge: bool,
         stop_at_goal: bool) -> tuple[dict[int, int | None], int | None]:
    """Breadth-first search over position keys. Returns the parent of every key reached
    and the first goal key (None if none was met or ``stop_at_goal`` is off).

    Only pieces next to an empty cell can move, so moves are found from the empty cells.
    """
    start, mirror, free = space.encode(placements)
    key = min(start, mirror) if merge else start
    parent: dict[int, int | None] = {key: None}
    goal_shift, goal_code = space.goal_shift, space.goal_code
    if stop_at_goal and (start >> goal_shift) & 255 == goal_code:
        return parent, key
    code_class, code_offset, near, masks = space.code_class, space.code_offset, space.near, space.mask
    moves, cache = space.moves, space._moves
    frontier = [(start, mirror, free, key)]
    while frontier:
        following = []
        for s, m, f, key in frontier:
            done = []
            rest = f
            while rest:
                low = rest & -rest
                rest ^= low
                for n in near[low.bit_length() - 1]:
                    v = (s >> 8 * n) & 255
                    if not v:
                        continue
                    tl = n - code_offset[v]
                    if tl in done:
                        continue
                    done.append(tl)
                    k = code_class[v]
                    room = f | masks[k][tl]
                    found = cache.get((k, tl, room))
                    if found is None:
                        found = moves(k, tl, room, metric)
                    at_goal = stop_at_goal and k == 0     # only the target's moves can end it
                    for delta, mdelta, pmask in found:
                        t = s + delta
                        tm = m + mdelta
                        tkey = (t if t < tm else tm) if merge else t
                        if tkey in parent:
                            continue
                        parent[tkey] = key
                        if at_goal and (t >> goal_shift) & 255 == goal_code:
                            return parent, tkey
                        following.append((t, tm, room & ~pmask, tkey))
        frontier = following
    return parent, None


def count_positions(board: Board, merge_mirrors: bool = False) -> int:
    """How many positions are reachable from the board (alike pieces interchangeable;
    with ``merge_mirrors`` a position and its mirror image count once)."""
    return len(_bfs(_Space(board), _placements(board), "cell", merge_mirrors, stop_at_goal=False)[0])


def solve(board: Board, metric: str = "piece") -> SolveResult:
    """A minimum move list under the metric, or the reason there is none."""
    if metric not in METRICS:
        raise BoardError(f"unknown metric {metric!r} (metrics: {', '.join(METRICS)})")
    space = _Space(board)
    placements = _placements(board)
    merge = space.symmetric
    parent, end = _bfs(space, placements, metric, merge, stop_at_goal=True)
    stats: dict[str, Any] = {"positions": len(parent), "mirror_merged": merge}
    if end is None:
        total = len(parent) if not merge else count_positions(board)
        return SolveResult(False, reason=f"no position with {board.target} at the exit is reachable "
                                         f"(all {total:,} reachable positions searched)",
                           stats={**stats, "reachable": total})
    keys = [end]
    while parent[keys[-1]] is not None:
        keys.append(parent[keys[-1]])  # type: ignore[arg-type]
    keys.reverse()
    moves = _replay(space, placements, keys, metric, merge)
    return SolveResult(True, moves, len(moves), stats=stats)


def _replay(space: _Space, placements: dict[str, int], keys: list[int], metric: str,
            merge: bool) -> list[dict[str, str]]:
    """Turn the chain of position keys into moves of the real, named pieces."""
    moves = []
    for want in keys[1:]:
        free = space.encode(placements)[2]
        for name, tl in placements.items():
            k = space.class_of[name]
            found = None
            for pos, path in space.reach(k, tl, free | space.mask[k][tl], metric).items():
                s, m, _ = space.encode({**placements, name: pos})
                if (min(s, m) if merge else s) == want:
                    found = (pos, path)
                    break
            if found:
                placements = {**placements, name: found[0]}
                moves.append({"piece": name, "path": found[1]})
                break
        else:
            raise AssertionError("the search chain does not replay on the board")
    return moves


# --------------------------------------------------------------------------- rule checker

def validate(board: Board, solution: Any, metric: str = "piece") -> list[str]:
    """Check a move list against the rules on a plain letter grid, sharing nothing with
    the search; returns the problems found (empty: the solution is right)."""
    problems: list[str] = []
    if not isinstance(solution, list):
        return ["the solution must be a list of moves"]
    grid = [[EMPTY] * board.cols for _ in range(board.rows)]
    for p in board.pieces:
        for r, c in p.cells():
            grid[r][c] = p.name
    for i, move in enumerate(solution, 1):
        if not isinstance(move, dict) or not isinstance(move.get("piece"), str) or not isinstance(move.get("path"), str):
            return problems + [f"move {i}: not a {{'piece': ..., 'path': ...}} object"]
        name, path = move["piece"], move["path"]
        if not path or set(path) - set("UDLR"):
            return problems + [f"move {i}: path {path!r} must be letters U, D, L, R"]
        if metric == "cell" and len(path) != 1:
            problems.append(f"move {i}: the cell metric moves one cell per move")
        if metric == "straight" and len(set(path)) != 1:
            problems.append(f"move {i}: the straight metric moves in one direction per move")
        if name == EMPTY or not any(name in row for row in grid):
            return problems + [f"move {i}: no piece {name!r} on the board"]
        for letter in path:
            dr = {"U": -1, "D": 1}.get(letter, 0)
            dc = {"L": -1, "R": 1}.get(letter, 0)
            cells = [(r, c) for r in range(board.rows) for c in range(board.cols) if grid[r][c] == name]
            for r, c in cells:
                nr, nc = r + dr, c + dc
                if not (0 <= nr < board.rows and 0 <= nc < board.cols):
                    return problems + [f"move {i}: {name} slides {letter} off the board"]
                if grid[nr][nc] not in (EMPTY, name):
                    return problems + [f"move {i}: {name} slides {letter} into {grid[nr][nc]}"]
            for r, c in cells:
                grid[r][c] = EMPTY
            for r, c in cells:
                grid[r + dr][c + dc] = name
    target_cells = [(r, c) for r in range(board.rows) for c in range(board.cols) if grid[r][c] == board.target]
    corner = (min(r for r, _ in target_cells), min(c for _, c in target_cells))
    if corner != board.goal:
        problems.append(f"the target {board.target} ends at {corner}, not at the exit {board.goal}")
    return problems


def show(board: Board, solution: list[dict[str, str]]) -> str:
    """The moves as ``piece:path`` words, twelve to a line, arrows for directions."""
    arrows = str.maketrans("UDLR", "↑↓←→")
    words = [f"{m['piece']}{m['path'].translate(arrows)}" for m in solution]
    lines = [" ".join(f"{i + j + 1:>3}.{w:<5}" for j, w in enumerate(words[i:i + 8]))
             for i in range(0, len(words), 8)]
    return "\n".join(lines) if lines else "(already solved)"
