"""Klotski / Huarong Dao: pieces slide on a grid until the target piece reaches the exit
(its top-left at the goal) or covers the goal cells. Walls stop every piece; gates stop
every piece but the target (GNOME Klotski's frames, docs/games.md#klotski-rules).

Vocabulary: a *piece* is a named rectangle, or any shape of cells touching side to side
within its rectangle; its *shape* is (height, width, cells); a *class* is the set of pieces
that are alike for the search (same shape; the target is a class of its own); a
*placement* is a class at a top-left cell. A *move* depends on the metric: under
``piece`` it is every cell one piece reaches by one-cell *slides* (a small BFS inside the
move generator), under ``straight`` a run of slides in one direction, under ``cell`` one
slide.

Under the piece metric, boards of ``LAYERED_FROM`` places or more (GNOME Klotski's) are
searched by ``solvers.klotski_layers``: breadth-first a whole layer at a time with numpy.
What follows is the search of the other metrics and of smaller boards (the classic 4×5).

The search runs over *positions*. A position is an int with a few bits per cell (4 on the
classic board): 0 for empty, else a code for the class of the piece covering it and the
cell's offset inside the piece. Alike pieces thus share codes (they are interchangeable), a
piece's top-left is known from any of its cells, a move is one addition, and when the exit
is symmetric a position and its mirror image count as one (the image is carried alongside
and marked seen with it). Walls and gates are no part of a position: a wall is never free,
a gate is free to the target alone. The moves of a position depend only on its free cells
and the codes next to them (and to the gates), so whole move lists are memoised under
those: the search touches each position once, with one dict lookup and then one addition
and one dict probe per move. The memo depends only on the piece set, so it is kept for the
process and in the table cache on disk (``solvers.tables``): a fresh process solves as fast
as a warm one.

The search is breadth-first while it is small, then A* with a consistent lower bound (the
target needs a move unless it is at the exit, and so does every other piece on a goal cell;
under ``cell`` and ``straight`` more, see ``share``), so every answer is a minimum under
the metric. The goal is a large set of positions (the target at the exit, the rest
anywhere) that is unknown until searched, so a search from both ends does not apply; and a
breadth-first search meets the goal near the far end of the graph on the classic boards
(横刀立马: 11,973 of its 13,011 merged positions), where no bound prunes much. On bigger boards
the A* half pays (under ``straight`` and ``cell``; it was measured under ``piece``): a 5×5 board with 14 pieces reaches 117,371 positions instead of 231,145.
The answer is walked back from the goal through positions one move nearer the start and
replayed on the real board to recover the piece letters. Cost (横刀立马): 11,973 positions,
~11 ms under each metric; GNOME Klotski's Red Donkey under ``straight`` (no mirror merging, the target's way
out 5 cells longer): ~24,000.

Bounds: the search gives up after ``max_positions`` positions, by default as many as fit
in ``MEMORY_BUDGET`` by ``bytes_per_position`` (the memo has its own bound), and says so —
distinct from the proof "all N reachable positions searched". When the search by layers
gives up, a beam search (``_any_answer``) answers if it can within its own bounds, then a
best-first search guided by a relaxed board's distances (``_relax``), and the answer says
it is not proved minimal.
"""
from __future__ import annotations

import json
from dataclasses import dataclass, replace

from solvers import tables
from solvers.common import BoardError, OptionError, Progress, SolveResult, check_places, check_width, split_rows

TYPE_CHECKING = False
if TYPE_CHECKING:     # annotations only: a command starts without typing (~2 ms)
    from typing import Any, Callable

    from solvers.klotski_layers import Layers

STEPS = {"U": (-1, 0), "D": (1, 0), "L": (0, -1), "R": (0, 1)}
METRICS = ("piece", "straight", "cell")
EMPTY, WALL, GATE, MARK = ".", "#", "=", "+"
SPECIAL = EMPTY + WALL + GATE + MARK
# The search's memory bounds by default (bytes): positions (the position cap follows from
# it) and the move-list memo (cleared when full). With the interpreter's ~40 MB a run
# stays under 500 MB.
MEMORY_BUDGET = 340_000_000
MEMO_BUDGET = 100_000_000
# Boards of more places are refused as too large: the search's tables hold a board-wide
# int per piece shape and place (quadratic in the places; a 200×200 board took 29 s and
# 2.7 GB before searching), a 64×64 one with a single piece 0.9 s.
MAX_PLACES = 4_096
# How often (in positions) the search checks its cap and the clock for progress lines.
CHECK_EVERY = 20_000
# The search is breadth-first up to this many positions, then A* (see ``_search``).
BOUNDED_FROM = 20_000
# Boards of this many places or more (5×5, GNOME Klotski's) are searched under the piece
# metric by layers with numpy (``solvers.klotski_layers``); smaller ones, as the classic
# 4×5, here (they take ~20 ms; importing numpy alone ~0.1 s).
LAYERED_FROM = 25
# When the search by layers gives up, beam searches of these widths look for any answer of
# at most ANY_DEPTH moves, in turn, until one finds it; they keep this many positions in all
# at most (and each, what fits in MEMORY_BUDGET). See docs/benchmarks.md (GNOME Klotski,
# branch gk-any).
ANY_WIDTHS = (1_000, 10_000, 100_000)
ANY_DEPTH = 400
ANY_POSITIONS = 10_000_000
# When the beams find none: a best-first search expanding this many positions at a time,
# this many found at most, guided by the distances to the goal of a relaxed board (the
# target and the largest classes while their placements multiply to at most
# RELAXED_PLACINGS; its positions, at most RELAXED_POSITIONS). See docs/benchmarks.md
# (GNOME Klotski, branch gk3).
BEST_BATCH = 1_000
BEST_POSITIONS = 10_000_000
RELAXED_PLACINGS = 30_000_000
RELAXED_POSITIONS = 3_000_000
# Move-list memos are kept for the process (this many piece sets) and on disk (from
# STORED_FROM entries, where building them costs a few ms, to STORED_ENTRIES: ~2 MB;
# the STORED_KINDS most recent piece sets) under this version.
KEPT_MEMOS = 8
STORED_FROM = 2_000
STORED_ENTRIES = 30_000
STORED_KINDS = 16
MEMO_VERSION = 6

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

# Puzzles of GNOME Klotski written from its screens (the space beyond its frame is open
# floor); the figure is the score the game gave when the solver's answer was played into it
# (the piece metric). Red Donkey is 横刀立马 whose target then leaves through the gate.
GNOME_PUZZLES: dict[str, tuple[str, int]] = {
    "Only 18 Steps": ("######/#ACCB#/#DCCE#/#FGHI#/#JKLM#/#N..O#/##==##/....++/....++", 18),
    "Red Donkey": ("######/#ACCB#/#ACCB#/#DEEF#/#DGHF#/#I..J#/##==##/....++/....++", 81),
    "Agatka": ("shapes: any/++...../+....../#####==/#CCAAB=/#CDDEF#/#GHI..#/#######", 30),
}


@dataclass(frozen=True)
class Piece:
    """A named piece: the top-left (row, col) and size in cells of the rectangle around
    it and, when it is not that whole rectangle, its ``form``: the (row, col) offsets of
    its cells inside it (any shape whose cells touch side to side)."""

    name: str
    row: int
    col: int
    height: int
    width: int
    form: frozenset[tuple[int, int]] | None = None

    @property
    def shape(self) -> tuple[int, int]:
        return (self.height, self.width)

    @property
    def length(self) -> int:
        """Its longer side, in cells."""
        return max(self.height, self.width)

    def offsets(self) -> tuple[tuple[int, int], ...]:
        """Its cells relative to ``(row, col)``, in reading order."""
        if self.form is None:
            return tuple((r, c) for r in range(self.height) for c in range(self.width))
        return tuple(sorted(self.form))

    def cells(self) -> list[tuple[int, int]]:
        return [(self.row + r, self.col + c) for r, c in self.offsets()]

    def symmetric(self) -> bool:
        """Whether it is its own mirror image (left to right)."""
        return self.form is None or self.form == {(r, self.width - 1 - c) for r, c in self.form}


Cells = frozenset[tuple[int, int]]


@dataclass(frozen=True)
class Board:
    """A Klotski position: its size, its pieces (in reading order of their top-left
    cells), the target piece's name and where the target must end: either ``goal``, the
    (row, col) of its top-left, or ``marks``, cells it must cover (then ``goal`` is
    None). ``walls`` never move and nothing enters them; ``gates`` only the target
    enters."""

    rows: int
    cols: int
    pieces: tuple[Piece, ...]
    target: str = "C"
    goal: tuple[int, int] | None = (3, 1)
    walls: Cells = frozenset()
    gates: Cells = frozenset()
    marks: Cells = frozenset()

    @property
    def size(self) -> str:
        """The board's size for people (rows × columns)."""
        return f"{self.rows}x{self.cols}"

    @classmethod
    def from_text(cls, text: str, target: str | None = None,
                  goal: tuple[int, int] | None = None) -> "Board":
        """Read one character per cell: ``.`` empty, ``#`` a wall, ``=`` a gate, ``+`` an
        empty goal cell, any other character a piece's cell. Optional header lines
        ``target: X``, ``goal: ROW,COL``, ``marks: ROW,COL ROW,COL ...`` (goal cells under
        pieces or gates) and ``gates: ROW,COL ...`` (gates under the target) override the
        defaults (``C``; bottom row band, centred).
        A piece is a solid rectangle unless the line ``shapes: any`` lets it be any shape
        whose cells touch side to side (so a slip of the keyboard is no new shape)."""
        lines = split_rows(text)
        first = 1
        hidden: dict[str, set[tuple[int, int]]] = {"marks": set(), "gates": set()}
        any_shape = False
        while lines and ":" in lines[0]:
            key, _, value = (part.strip() for part in lines[0].partition(":"))
            if key == "target" and len(value) == 1 and value not in SPECIAL:
                target = target or value
            elif key == "goal":
                goal = goal or _parse_cell(value, "goal", first)
            elif key in hidden and value:
                hidden[key] |= {_parse_cell(cell, key, first) for cell in value.replace(";", " ").split()}
            elif key == "shapes" and value == "any":
                any_shape = True
            else:
                raise BoardError(f"unknown header {lines[0]!r} (known: 'target: X', 'goal: ROW,COL', "
                                 "'marks: ROW,COL ...', 'gates: ROW,COL ...', 'shapes: any')", first)
            lines.pop(0)
            first += 1
        if not lines:
            raise BoardError("the board has no rows")
        check_places(lines, MAX_PLACES)
        width = check_width(lines, first)
        cells: dict[str, list[tuple[int, int]]] = {}
        for r, line in enumerate(lines):
            for c, ch in enumerate(line):
                if ch.isspace():
                    raise BoardError(f"blank inside a row at column {c + 1} (use '.' for empty)", first + r)
                if ch != EMPTY:
                    cells.setdefault(ch, []).append((r, c))
        marks = frozenset(hidden["marks"].union(cells.pop(MARK, ())))
        gates = frozenset(hidden["gates"].union(cells.pop(GATE, ())))
        walls = frozenset(cells.pop(WALL, ()))
        pieces = []
        for name, where in cells.items():
            r0, c0 = min(r for r, _ in where), min(c for _, c in where)
            r1, c1 = max(r for r, _ in where), max(c for _, c in where)
            if not any_shape and (r1 - r0 + 1) * (c1 - c0 + 1) != len(where):
                raise BoardError(f"piece {name!r} is not a solid rectangle "
                                 "(a line 'shapes: any' allows other shapes)", first + r0)
            if _parts(where) > 1:
                raise BoardError(f"piece {name!r} is not one shape: its cells are in {_parts(where)} parts "
                                 "that do not touch side to side", first + r0)
            form = frozenset((r - r0, c - c0) for r, c in where)
            pieces.append(Piece(name, r0, c0, r1 - r0 + 1, c1 - c0 + 1, form))
        return cls.make(len(lines), width, pieces, target or "C", goal, walls, gates, marks)

    @classmethod
    def make(cls, rows: int, cols: int, pieces: list[Piece], target: str = "C",
             goal: tuple[int, int] | None = None, walls: Cells = frozenset(), gates: Cells = frozenset(),
             marks: Cells = frozenset()) -> "Board":
        """A checked board from pieces; with no goal cells (``marks``) the goal defaults
        to the bottom row band, centred. A piece's ``form`` that fills its rectangle is
        dropped, so alike pieces compare equal."""
        pieces = sorted((replace(p, form=None) if p.form is not None and len(p.form) == p.height * p.width
                         else p for p in pieces), key=lambda p: (p.row, p.col, p.cells()[0]))
        names = {p.name: p for p in pieces}
        if len(names) != len(pieces):
            raise BoardError("two pieces share a name")
        if target not in names:
            raise BoardError(f"no target piece {target!r} on the board")
        for p in pieces:
            if any(ch in p.name for ch in SPECIAL):
                raise BoardError(f"a piece may not be named {p.name!r} ('.', '#', '=' and '+' are cells)")
            if p.form is not None and ({r for r, _ in p.form} != set(range(p.height))
                                       or {c for _, c in p.form} != set(range(p.width))
                                       or _parts(p.form) > 1):
                raise BoardError(f"piece {p.name!r}: its cells do not make one shape {p.height}×{p.width}")
        inside = {(r, c) for r in range(rows) for c in range(cols)}
        seen = set(walls)
        if not walls <= inside or not gates <= inside or walls & gates:
            raise BoardError("a wall or gate lies off the board or on another")
        for p in pieces:
            for cell in p.cells():
                if cell not in inside or cell in seen:
                    raise BoardError(f"piece {p.name!r} leaves the board or overlaps another or a wall")
                if cell in gates and p.name != target:
                    raise BoardError(f"piece {p.name!r} stands on a gate (only the target {target!r} may)")
                seen.add(cell)
        t = names[target]
        if marks:
            if goal is not None:
                raise BoardError("give the goal as 'goal: ROW,COL' or as goal cells, not both")
            if not marks <= inside or marks & walls:
                raise BoardError("a goal cell lies off the board or on a wall")
            if not any(marks <= {(r + dr, c + dc) for dr, dc in t.offsets()} <= inside - walls
                       for r, c in inside):
                raise BoardError(f"the target {target!r} fits nowhere on the board that covers the goal cells")
            return cls(rows, cols, tuple(pieces), target, None, frozenset(walls), frozenset(gates), frozenset(marks))
        if goal is None:
            if (cols - t.width) % 2:
                raise BoardError(f"the target ({t.width} wide) cannot sit centred on a board {cols} wide; "
                                 "add a line 'goal: ROW,COL'")
            goal = (rows - t.height, (cols - t.width) // 2)
        if not (0 <= goal[0] <= rows - t.height and 0 <= goal[1] <= cols - t.width):
            raise BoardError(f"the goal {goal} puts the target off the board")
        if any((goal[0] + r, goal[1] + c) in walls for r, c in t.offsets()):
            raise BoardError(f"the goal {goal} puts the target on a wall")
        return cls(rows, cols, tuple(pieces), target, tuple(goal), frozenset(walls), frozenset(gates))

    def to_text(self) -> str:
        grid = [[EMPTY] * self.cols for _ in range(self.rows)]
        for cells, ch in ((self.marks, MARK), (self.walls, WALL), (self.gates, GATE)):
            for r, c in cells:
                grid[r][c] = ch
        for p in self.pieces:
            for r, c in p.cells():
                grid[r][c] = p.name
        head = []
        if self.target != "C":
            head.append(f"target: {self.target}")
        if any(p.form is not None for p in self.pieces):
            head.append("shapes: any")
        if self.goal is not None and self.goal != self.default_goal():
            head.append(f"goal: {self.goal[0]},{self.goal[1]}")
        for key, cells, ch in (("marks", self.marks, MARK), ("gates", self.gates, GATE)):
            hidden = sorted((r, c) for r, c in cells if grid[r][c] != ch)
            if hidden:
                head.append(f"{key}: " + " ".join(f"{r},{c}" for r, c in hidden))
        return "\n".join(head + ["".join(row) for row in grid])

    def default_goal(self) -> tuple[int, int] | None:
        t = self.piece(self.target)
        if (self.cols - t.width) % 2:
            return None
        return (self.rows - t.height, (self.cols - t.width) // 2)

    def goal_cells(self) -> Cells:
        """The cells the target must cover: the goal cells, or its cells at the goal."""
        if self.goal is None:
            return self.marks
        return frozenset((self.goal[0] + r, self.goal[1] + c) for r, c in self.piece(self.target).offsets())

    def symmetric(self) -> bool:
        """Whether the board is its own mirror image left to right, but for where the
        pieces are: walls, gates, goal and every piece's shape."""
        def flip(cells: Cells) -> Cells:
            return frozenset((r, self.cols - 1 - c) for r, c in cells)

        return (all(flip(cells) == cells for cells in (self.walls, self.gates, self.goal_cells()))
                and all(p.symmetric() for p in self.pieces))

    def piece(self, name: str) -> Piece:
        for p in self.pieces:
            if p.name == name:
                return p
        raise KeyError(name)

    def relabelled(self) -> "Board":
        """The same position with the target named ``C`` and the other pieces lettered in
        reading order — the naming vision uses, so a screenshot reads as one text."""
        letters = iter(ch for ch in _NAMES if ch != "C")
        if len(self.pieces) > len(_NAMES):
            raise BoardError(f"{len(self.pieces)} pieces: more than there are names for ({len(_NAMES)})")
        pieces = [replace(p, name="C" if p.name == self.target else next(letters)) for p in self.pieces]
        goal = None if self.goal == self.default_goal() else self.goal
        return Board.make(self.rows, self.cols, pieces, "C", goal, self.walls, self.gates, self.marks)


# Piece names in reading order (boards with many pieces, as GNOME Klotski's Sunshine, go on
# into Greek letters).
_NAMES = ("ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789"
          "ΓΔΘΛΞΠΣΦΨΩαβγδεζηθικλμνξπρστυφχψω")


def _parse_cell(value: str, key: str, line: int) -> tuple[int, int]:
    try:
        r, c = (int(v) for v in value.replace(" ", "").split(","))
    except ValueError:
        raise BoardError(f"{key} must be 'ROW,COL', got {value!r}", line) from None
    return (r, c)


def _parts(cells: Any) -> int:
    """How many groups of side-to-side touching cells there are among ``cells``."""
    left, parts = set(cells), 0
    while left:
        parts += 1
        todo = [left.pop()]
        while todo:
            r, c = todo.pop()
            for near in ((r - 1, c), (r + 1, c), (r, c - 1), (r, c + 1)):
                if near in left:
                    left.remove(near)
                    todo.append(near)
    return parts


def layout(name: str) -> Board:
    """A named classic layout (see ``LAYOUTS``)."""
    return Board.from_text(LAYOUTS[name][0])


def generate(rows: int, cols: int, seed: int, empty: int = 2) -> Board:
    """A random packed board: the 2×2 target at the top centre, the rest tiled in
    reading order with random 1×2, 2×1 and (rarer) 1×1 pieces, then soldiers (or, failing
    those, other pieces) lifted until ``empty`` cells are free. The exit is the bottom row
    band, centred (left of centre on odd widths)."""
    import random   # here: a solve does not need it

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
    """Tables for one board, metric and piece set, built once per solve: cell codes,
    placement values and masks, the slides every placement allows, and — filled as the
    search meets them — every move of a position, keyed by what the moves depend on.

    A position is an int with ``bits`` bits per cell (cell i at bits ``bits*i``…): 0 empty,
    else a code naming the class and the cell's offset inside the piece. Moving a piece is
    one addition of a precomputed delta; the mirror image is carried alongside and moved by
    the mirrored delta, and marked seen with the position. Which moves a position allows
    depends only on its free cells and the codes of the cells next to them, so a position's
    whole move list is memoised under (free cells, those codes): the search does one dict
    lookup per position, then one addition and one dict probe per move.
    """

    def __init__(self, board: Board, metric: str, merge: bool) -> None:
        rows, cols = board.rows, board.cols
        self.rows, self.cols, self.n = rows, cols, rows * cols
        self.metric, self.merge = metric, merge
        target = board.piece(board.target)
        # a class is a shape: its rectangle and its cells (class 0 is the target's)
        shapes = [_shape(target)] + sorted({_shape(p) for p in board.pieces if p.name != board.target})
        self.shapes = shapes
        self.class_of = {p.name: 0 if p.name == board.target else shapes.index(_shape(p), 1) for p in board.pieces}
        self.code_class: list[int] = [-1]
        self.code_offset: list[int] = [0]
        self.first = first_code = []          # per class: the code of its first cell
        for k, (_, _, cells) in enumerate(shapes):
            first_code.append(len(self.code_class))
            for dr, dc in cells:
                self.code_class.append(k)
                self.code_offset.append(dr * cols + dc)
        self.bits = bits = max(1, (len(self.code_class) - 1).bit_length())
        self.cell = (1 << bits) - 1
        walls, gates = _mask(board.walls, cols), _mask(board.gates, cols)
        self.walls, self.gates = walls, gates
        # the cells a piece may be free to enter (a gate is free only to the target)
        self.open = (1 << self.n) - 1 & ~walls & ~gates
        # per class, per top-left cell: the placement's value, its cell mask, its slides
        self.value: list[list[int]] = []
        self.mask: list[list[int]] = []
        self.slides: list[list[list[tuple[str, int, int] | None]]] = []
        for k, (h, w, cells) in enumerate(shapes):
            barred = walls if k == 0 else walls | gates
            value, mask = [], []
            for tl in range(self.n):
                r, c = divmod(tl, cols)
                here = _mask(((r + dr, c + dc) for dr, dc in cells), cols)
                fits = r + h <= rows and c + w <= cols and not here & barred
                value.append(sum(first_code[k] + i << bits * ((r + dr) * cols + c + dc)
                                 for i, (dr, dc) in enumerate(cells)) if fits else 0)
                mask.append(here if fits else 0)
            slides = []
            for tl in range(self.n):
                r, c = divmod(tl, cols)
                out: list[tuple[str, int, int] | None] = []
                for letter, (sr, sc) in STEPS.items():
                    nr, nc = r + sr, c + sc
                    to = nr * cols + nc
                    if mask[tl] and 0 <= nr <= rows - h and 0 <= nc <= cols - w and mask[to]:
                        # the cells the piece enters: its new cells minus its old ones
                        out.append((letter, to, mask[to] & ~mask[tl]))
                    else:
                        out.append(None)
                slides.append(out)
            self.value.append(value)
            self.mask.append(mask)
            self.slides.append(slides)
        self.near = [_neighbours(e, rows, cols) for e in range(self.n)]
        goal = board.goal_cells()
        marks = _mask(goal, cols)
        self.goal_tls = frozenset(tl for tl in range(self.n) if self.mask[0][tl] and self.mask[0][tl] & marks == marks)
        # Without merging, the "mirror" is a constant above every position (never one).
        self.no_mirror = 1 << bits * self.n
        # what the memo depends on: any board with the same piece set shares it
        self.signature = (rows, cols, tuple(shapes), tuple(sorted(self.goal_tls)), walls, gates, metric, merge)
        self.by_free: dict[int, tuple[int, dict[int, list[tuple[int, int, int, bool]]]]] = {}
        self.piece_moves: dict[tuple[int, int, int], list[tuple[int, int, int, bool]]] = {}
        self.memo_size = 0      # move tuples and move lists in the memo
        self.memo_cap = MEMO_BUDGET // (16 + 72 + 2 * self.number_bytes() + 28 + self.n // 8)
        self.stored = 0         # memo entries the disk cache holds already
        self.mirror = [[self.mirror_tl(k, tl) for tl in range(self.n)] for k in range(len(shapes))]
        self.shares = [[self.share(k, tl, goal) if self.mask[k][tl] else 0 for tl in range(self.n)]
                       for k in range(len(shapes))]

    def spread(self, starts: set[tuple[int, int]], barred: int = 0) -> set[tuple[int, int]]:
        """The (class, top-left) placements pieces reach from ``starts`` on the board with
        nothing but its walls and gates (and the cells ``barred``). A gate bars every
        class but the target's by its placements' masks (0 where a gate lies under them)."""
        seen, todo = set(starts), list(starts)
        while todo:
            k, tl = todo.pop()
            for step in self.slides[k][tl]:
                if step and (k, step[1]) not in seen and not self.mask[k][step[1]] & barred:
                    seen.add((k, step[1]))
                    todo.append((k, step[1]))
        return seen

    def number_bytes(self) -> int:
        """The size of a position's int object (30 bits a digit)."""
        return 28 + 4 * -(-self.bits * self.n // 30)

    def mirror_tl(self, k: int, tl: int) -> int:
        r, c = divmod(tl, self.cols)
        return r * self.cols + self.cols - self.shapes[k][1] - c

    def encode(self, placements: dict[str, int]) -> tuple[int, int, int]:
        """(position, its mirror image or ``no_mirror``, free-cell mask) of pieces at
        top-left cells."""
        s = m = taken = 0
        for name, tl in placements.items():
            k = self.class_of[name]
            s += self.value[k][tl]
            m += self.value[k][self.mirror_tl(k, tl)]
            taken |= self.mask[k][tl]
        return s, m if self.merge else self.no_mirror, self.open & ~taken

    def code(self, s: int, e: int) -> int:
        """The code of cell e in position s (0: empty)."""
        return (s >> self.bits * e) & self.cell

    def pieces_of(self, s: int) -> list[tuple[int, int]]:
        """(class, top-left) of every piece of position s."""
        return [(self.code_class[v], e - self.code_offset[v]) for e in range(self.n)
                if (v := self.code(s, e)) and v == self.first[self.code_class[v]]]

    def mirror_of(self, s: int) -> int:
        return sum(self.value[k][self.mirror[k][tl]] for k, tl in self.pieces_of(s))

    def free_of(self, s: int) -> int:
        return self.open & ~sum(self.mask[k][tl] for k, tl in self.pieces_of(s))

    def share(self, k: int, tl: int, goal: Cells) -> int:
        """The part of ``bound`` owed to the class-k piece at tl. The target: 0 at the
        goal, else 1 (under ``cell``: its distance in rows and columns to the nearest
        goal placement; under ``straight``: 2 when it is in no such placement's row or
        column). Another piece on a goal cell: 1 (under ``cell``: the fewest slides, walls
        aside, that take it off every goal cell); else 0."""
        r, c = divmod(tl, self.cols)
        if k == 0:
            if tl in self.goal_tls:
                return 0
            if self.metric == "cell":
                return min(abs(r - gr) + abs(c - gc) for gr, gc in (divmod(g, self.cols) for g in self.goal_tls))
            return 1 if self.metric == "piece" or any(
                r == g // self.cols or c == g % self.cols for g in self.goal_tls) else 2
        cells = [(r + dr, c + dc) for dr, dc in self.shapes[k][2]]
        if not goal.intersection(cells):
            return 0
        if self.metric != "cell":
            return 1
        # the least |dr| + |dc| that shifts every cell off the goal cells
        return next(d for d in range(1, self.rows + self.cols + 1)
                    for dr in range(-d, d + 1) for dc in {d - abs(dr), abs(dr) - d}
                    if not goal.intersection((rr + dr, cc + dc) for rr, cc in cells))

    def bound(self, s: int) -> int:
        """A lower bound on the moves from position s to the goal: every piece's share
        is owed at least that many moves of that piece. A move changes one piece's share
        by at most one, so the bound is consistent (it drops by at most one a move)."""
        return sum(self.shares[k][tl] for k, tl in self.pieces_of(s))

    def reach(self, k: int, tl: int, room: int) -> dict[int, str]:
        """Every top-left a class-k piece at tl reaches in one move, with the slides that
        get there; ``room`` is the free cells plus the piece's own (the target's takes
        in the gates)."""
        slides = self.slides[k]
        if k == 0:
            room |= self.gates
        if self.metric == "piece":
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
                if self.metric == "cell":
                    break
        return paths

    def entry(self, free: int) -> "_Entry":
        """The memo entry of a free-cell mask, made on first use: the cells next to the
        free cells and gates that are neither free nor walls (where the only pieces that
        can move are), their bits, and the move lists found so far under those cells' codes."""
        entry = self.by_free.get(free)
        if entry is None:
            around, shut = free | self.gates, free | self.walls
            cells = sorted({n for e in range(self.n) if around >> e & 1 for n in self.near[e] if not shut >> n & 1})
            near = sum(self.cell << self.bits * n for n in cells)
            entry = self.by_free[free] = (near, {}, cells, free)
            self.memo_size += 1
        return entry

    def position_moves(self, s: int, entry: "_Entry") -> list["_Move"]:
        """The moves (see ``_Move``) of position s, whose free cells are the entry's;
        stored in the entry. Each piece's moves are memoised too, under (class, top-left,
        free cells)."""
        if self.memo_size >= self.memo_cap:     # a bound on the memo's memory on big boards
            self.forget()
        near, table, cells, free = entry
        bits, cell, code_class, code_offset = self.bits, self.cell, self.code_class, self.code_offset
        piece_moves = self.piece_moves
        moves: list[_Move] = []
        seen = []
        for n in cells:
            v = (s >> bits * n) & cell
            if not v:           # an empty gate
                continue
            key = (code_class[v], n - code_offset[v], free)
            if key in seen:
                continue
            seen.append(key)
            mine = piece_moves.get(key)
            if mine is None:
                mine = piece_moves[key] = self.moves_of(*key)
                self.memo_size += len(mine)
            moves += mine
        table[s & near] = moves
        self.memo_size += 1
        return moves

    def moves_of(self, k: int, tl: int, free: int) -> list["_Move"]:
        """The moves (see ``position_moves``) of the class-k piece at tl."""
        value, mask, mirror = self.value[k], self.mask[k], self.mirror[k]
        room = free | mask[tl]
        mtl = mirror[tl]
        shares = self.shares[k]
        return [(value[pos] - value[tl], value[mirror[pos]] - value[mtl] if self.merge else 0,
                 room & ~mask[pos] & self.open, k == 0 and pos in self.goal_tls, 1 + shares[pos] - shares[tl])
                for pos in self.reach(k, tl, room)]

    def forget(self) -> None:
        """Empty the move lists (the entries of free-cell masks stay: few, and the caller
        holds one)."""
        for entry in self.by_free.values():
            entry[1].clear()
        self.piece_moves.clear()
        self.memo_size = len(self.by_free)


# A move: (position delta, mirror delta, free cells after, whether it reaches the goal, how
# much it raises the estimate moves + bound: 0, 1 or 2); a memo entry: (bits of the cells
# next to the free ones, move lists under their codes, those cells, the free cells).
_Move = tuple[int, int, int, bool, int]
_Layer = tuple[list[int], list[int], list[int], list[int]]
_Entry = tuple[int, dict[int, list[_Move]], list[int], int]

_MEMOS: dict[tuple[Any, ...], tuple[int, dict[int, Any]]] = {}


def _space(board: Board, metric: str, merge: bool) -> _Space:
    """The search tables of the board, with the move-list memo of its piece set taken
    from this process or, failing that, from the disk cache: so the first solve of a
    fresh process costs what the next one does."""
    space = _Space(board, metric, merge)
    kept = _MEMOS.get(space.signature)
    if kept is None and space.n <= 64:
        kept = _memo_from(tables.load(_memo_name(space), MEMO_VERSION))
    if kept is not None:
        space.memo_size, space.by_free = kept
    space.stored = space.memo_size
    return space


def _keep(space: _Space) -> None:
    """Keep the space's memo for the next solves; store it on disk when it grew."""
    _MEMOS.pop(space.signature, None)
    _MEMOS[space.signature] = (space.memo_size, space.by_free)
    while len(_MEMOS) > KEPT_MEMOS:
        _MEMOS.pop(next(iter(_MEMOS)))
    if space.stored < space.memo_size <= STORED_ENTRIES and space.memo_size >= STORED_FROM and space.n <= 64:
        tables.store(_memo_name(space), MEMO_VERSION, _memo_bytes(space.memo_size, space.by_free), "klotski-",
                     STORED_KINDS)


def _memo_bytes(size: int, by_free: dict[int, "_Entry"]) -> bytes:
    """A memo as JSON (data only): [size, moves, [[near, [[code, [move index, ...]], ...],
    cells, free], ...]], each move once (the move lists share their moves)."""
    index: dict[int, int] = {}
    moves: list[_Move] = []
    for _, table, _, _ in by_free.values():
        for found in table.values():
            for move in found:
                if id(move) not in index:
                    index[id(move)] = len(moves)
                    moves.append(move)
    entries = [[near, [[code, [index[id(m)] for m in found]] for code, found in table.items()], cells, free]
               for near, table, cells, free in by_free.values()]
    return json.dumps([size, moves, entries], separators=(",", ":")).encode()


def _memo_from(data: bytes | None) -> tuple[int, dict[int, "_Entry"]] | None:
    """The memo of ``_memo_bytes``; None when there is none or the bytes hold anything else."""
    if data is None:
        return None
    try:
        size, listed, entries = json.loads(data)
        moves = [tuple(move) for move in listed]
        by_free = {free: (near, {code: [moves[i] for i in found] for code, found in table}, cells, free)
                   for near, table, cells, free in entries}
    except (ValueError, TypeError, IndexError):
        return None
    return (size, by_free) if isinstance(size, int) else None


def _memo_name(space: _Space) -> str:
    try:    # hashlib's own BLAKE2, without hashlib, which loads OpenSSL (~2 ms a command)
        from _blake2 import blake2b
    except ImportError:     # an interpreter built without it
        from hashlib import blake2b
    return "klotski-" + blake2b(repr(space.signature).encode(), digest_size=8).hexdigest()


def _mask(cells: Any, cols: int) -> int:
    """The bits of (row, col) cells."""
    return sum(1 << r * cols + c for r, c in cells)


def _shape(piece: Piece) -> tuple[int, int, tuple[tuple[int, int], ...]]:
    """A piece's class key: its rectangle and its cells' offsets, in reading order."""
    return (piece.height, piece.width, piece.offsets())


def _neighbours(cell: int, rows: int, cols: int) -> list[int]:
    r, c = divmod(cell, cols)
    return [nr * cols + nc for nr, nc in ((r - 1, c), (r + 1, c), (r, c - 1), (r, c + 1))
            if 0 <= nr < rows and 0 <= nc < cols]


def _placements(board: Board) -> dict[str, int]:
    return {p.name: p.row * board.cols + p.col for p in board.pieces}


def _search(space: _Space, placements: dict[str, int], stop_at_goal: bool, limit: int,
            progress: Progress) -> tuple[dict[int, int], int, int | None, bool]:
    """The least moves to the goal: breadth-first for the first ``BOUNDED_FROM``
    positions, then A* with the consistent lower bound ``space.bound`` from the last
    whole layer on. Each position is expanded once, with its least move count (a shorter
    way to a waiting position replaces it; the stale entry is skipped). A goal is found
    by the move into it: from a position of bound 1, whose estimate is the least of all
    waiting ones, so its count is the minimum.

    Returns the move count of every position reached and of its mirror image, how many
    were reached (mirror pairs once), the first goal position (None if none was met or
    ``stop_at_goal`` is off) and whether it stopped at ``limit`` positions first."""
    s, m, free = space.encode(placements)
    least = {m: 0, s: 0}
    if stop_at_goal and placements[next(n for n, k in space.class_of.items() if k == 0)] in space.goal_tls:
        return least, 1, s, False
    by_free, entry_of, merge = space.by_free, space.entry, space.merge
    count, check = 1, min(limit, CHECK_EVERY)
    # a layer: its positions, their mirror images, free cells and bounds, in four lists
    # (a tuple a position would cost ~70 bytes more)
    frontier: _Layer = ([s], [m], [free], [space.bound(s)])
    depth = 0
    # breadth-first: cheapest per position, and the bound prunes nothing this early (each
    # position carries its bound, changed by each move's rise less one)
    while frontier[0] and count < BOUNDED_FROM:
        following: _Layer = ([], [], [], [])
        to, tms, frees, bounds = following
        room = check - count
        depth += 1
        for s, m, free, h in zip(*frontier):
            if len(to) >= room:
                reached = count + len(to)
                if reached >= limit:
                    return least, reached, None, True
                progress(f"{reached:,} positions searched, {depth} moves deep")
                check = min(limit, reached + CHECK_EVERY)
                room = check - count
            entry = by_free.get(free) or entry_of(free)
            found = entry[1].get(s & entry[0])
            if found is None:
                found = space.position_moves(s, entry)
            for delta, mdelta, after, wins, rise in found:
                t = s + delta
                if t in least:
                    continue
                tm = m + mdelta if merge else m     # (m + 0 would be a new int each time)
                least[t] = least[tm] = depth
                if wins and stop_at_goal:
                    return least, count + len(to) + 1, t, False
                to.append(t)
                tms.append(tm)
                frees.append(after)
                bounds.append(h + rise - 1)
        count += len(to)
        frontier = following
    # A* in buckets of equal estimate g + bound, deepest first within one (every position
    # seen so far has g <= depth, and each move's rise of the estimate is in its tuple)
    buckets: list[list[tuple[int, int, int, int]]] = []
    for s, m, free, h in zip(*frontier):
        f = depth + h
        buckets.extend([] for _ in range(f + 1 - len(buckets)))
        buckets[f].append((s, m, free, depth))
    f = min((i for i, bucket in enumerate(buckets) if bucket), default=0)
    shorter = False             # whether a waiting position was ever reached by a shorter way
    while any(buckets[f:]):
        buckets.extend([] for _ in range(f + 3 - len(buckets)))
        bucket, lanes = buckets[f], buckets[f:f + 3]
        while bucket:
            s, m, free, g = bucket.pop()
            if shorter and least[s] != g:
                continue
            if count >= check:
                if count >= limit:
                    return least, count, None, True
                progress(f"{count:,} positions searched, {g} moves deep, at least {f} in all")
                check = min(limit, count + CHECK_EVERY)
            entry = by_free.get(free) or entry_of(free)
            found = entry[1].get(s & entry[0])
            if found is None:
                found = space.position_moves(s, entry)
            g += 1
            for delta, mdelta, after, wins, rise in found:
                t = s + delta
                if t in least:
                    if least[t] <= g:
                        continue
                    shorter = True
                else:
                    count += 1
                tm = m + mdelta if merge else m     # (m + 0 would be a new int each time)
                least[t] = least[tm] = g
                if wins and stop_at_goal:
                    return least, count, t, False
                lanes[rise].append((t, tm, after, g))
        f += 1
    return least, count, None, False


def _chain(space: _Space, least: dict[int, int], end: int, start: int) -> list[int]:
    """The positions from start to end, each a move from the one before: walked back from
    the end through positions one move fewer from the start (each count was reached
    through such a neighbour, or through its mirror image's, then mirrored back)."""
    chain, free = [end], space.free_of(end)
    while depth := least[chain[-1]]:
        s = chain[-1]
        entry = space.entry(free)
        moves = entry[1].get(s & entry[0]) or space.position_moves(s, entry)
        delta, free = next((d, after) for d, _, after, _, _ in moves if least.get(s + d) == depth - 1)
        chain.append(s + delta)
    chain.reverse()
    return chain if chain[0] == start else [space.mirror_of(s) for s in chain]


def count_positions(board: Board, merge_mirrors: bool = False) -> int:
    """How many positions are reachable from the board (alike pieces interchangeable;
    with ``merge_mirrors`` a position and its mirror image count once)."""
    space = _Space(board, "cell", merge_mirrors)
    return _search(space, _placements(board), False, 1 << 62, Progress(None))[1]


def bytes_per_position(space: _Space) -> int:
    """What one reached position costs the search in memory, from the size of its
    number: its key in the move-count table (a dict slot at the table's fullest, the int)
    and its mirror image's when mirror images merge (else the mirror is one constant),
    and, while it waits, a tuple (its free-cell mask is the memo's, shared). Checked with
    tracemalloc (peak over 150,000–300,000 positions, move memo warm): 150 bytes for 185
    estimated on GNOME Klotski's Solomon, 160 for 201 on Shark (the estimate counted a
    mirror and three ints a position until then: 399 and 439)."""
    keys = 2 if space.merge else 1
    return keys * (50 + space.number_bytes()) + 64 + space.n // 8


def solve(board: Board, metric: str = "piece", max_positions: int | None = None,
          progress: Callable[[str], None] | None = None, exact: bool = False) -> SolveResult:
    """A minimum move list under the metric, or the reason there is none. The search
    gives up after ``max_positions`` positions (default: as many as fit in
    ``MEMORY_BUDGET``); ``progress`` gets a line about once a second after the first.
    When the search by layers gives up (the piece metric, boards of ``LAYERED_FROM``
    places or more), a beam search looks for any answer (``_any_answer``), not proved
    minimal and said so (``extra["minimal"]`` False and a ``note``), unless ``exact``."""
    if metric not in METRICS:
        raise OptionError(f"unknown metric {metric!r} (metrics: {', '.join(METRICS)})")
    merge = board.symmetric()
    tick = Progress(progress)
    stats: dict[str, Any] = {"mirror_merged": merge}
    if metric == "piece" and board.rows * board.cols >= LAYERED_FROM:
        from solvers.klotski_layers import Layers

        layers = Layers(_Space(board, metric, merge), board, merge)
        limit = max_positions or max(1, MEMORY_BUDGET // layers.position_bytes())
        budget = None if max_positions else MEMORY_BUDGET     # the default cap is one of memory
        chain, reached, total, capped = layers.search(limit, budget, tick)
        stats["positions"] = reached
        if capped:
            gave_up = _gave_up(min(reached, limit), stats)
            return gave_up if exact else _any_answer(board, layers, gave_up, tick)
        if chain is None:
            return _unreachable(board, total, "reachable positions", stats)
        return _minimal(layers.moves(chain), stats)
    space = _space(board, metric, merge)
    limit = max_positions or max(1, MEMORY_BUDGET // bytes_per_position(space))
    placements = _placements(board)
    least, reached, end, capped = _search(space, placements, True, limit, tick)
    _keep(space)
    stats["positions"] = reached
    if capped:
        return _gave_up(min(reached, limit), stats)
    if end is None:
        total, kind = reached, "reachable positions"
        if merge:       # count mirror images apart, as people do (within the same bound)
            unmerged = _space(board, "cell", False)
            _, every, _, over = _search(unmerged, placements, False, 2 * limit, tick)
            _keep(unmerged)
            total, kind = (total, "reachable positions, mirror images counted once") if over else (every, kind)
        return _unreachable(board, total, kind, stats)
    return _minimal(_replay(space, placements, _chain(space, least, end, space.encode(placements)[0])), stats)


def _minimal(moves: list[dict[str, str]], stats: dict[str, Any]) -> SolveResult:
    return SolveResult(True, moves, len(moves), stats=stats, extra={"minimal": True})


def _any_answer(board: Board, layers: "Layers", gave_up: SolveResult, tick: Progress) -> SolveResult:
    """After the search by layers gave up: beam searches ever wider (``ANY_WIDTHS``), within
    ``ANY_POSITIONS`` positions in all and ``MEMORY_BUDGET`` each, until one finds a way
    to the goal; if none does, a best-first search guided by a relaxed board (``_relax``)
    within ``BEST_POSITIONS`` and ``MEMORY_BUDGET``. Its moves, not proved minimal and said
    so, or the search's give-up with what the beams and the best-first search tried."""
    kept, stats = 0, {**gave_up.stats, "minimal": False}
    if not layers.reaches_goal():
        return replace(gave_up, reason=f"{gave_up.reason}; and there is none: the target {board.target} reaches "
                                       "the goal by no way even alone on the board")
    for width in ANY_WIDTHS:
        chain, positions, capped = layers.beam(width, ANY_DEPTH, ANY_POSITIONS - kept, MEMORY_BUDGET, tick)
        kept += positions
        stats["beam"] = {"width": width, "positions": kept}
        if chain is not None:
            moves = layers.moves(chain)
            note = (f"not proved minimal: the search for the fewest moves {gave_up.reason}; these were found "
                    f"by a beam search {width:,} wide ({kept:,} positions)")
            return SolveResult(True, moves, len(moves), stats=stats, extra={"minimal": False}, note=note)
        if capped:
            break
    tried = f"beam searches up to {width:,} wide found no answer ({kept:,} positions)"
    unguided = _relax(board, layers, tick)
    guide = "guided by a relaxed board" if unguided is None else f"guided by its own estimate ({unguided})"
    chain, found, capped = layers.best_first(BEST_BATCH, BEST_POSITIONS, MEMORY_BUDGET, tick)
    stats["best_first"] = {"positions": found, "relaxed": unguided is None}
    if chain is not None:
        moves = layers.moves(chain)
        note = (f"not proved minimal: the search for the fewest moves {gave_up.reason}; {tried}; these were "
                f"found by a best-first search {guide} ({found:,} positions)")
        return SolveResult(True, moves, len(moves), stats=stats, extra={"minimal": False}, note=note)
    return replace(gave_up, stats=stats, reason=f"{gave_up.reason}; {tried}, nor a best-first search {guide} "
                                                f"({found:,} positions{', its bound' if capped else ''})")


def _relax(board: Board, layers: "Layers", tick: Progress) -> str | None:
    """Teach ``layers`` the distances of a relaxed board (``Layers.relaxed_pieces``,
    ``Layers.guide``) within ``RELAXED_POSITIONS`` and ``MEMORY_BUDGET``; why not, or None."""
    from solvers.klotski_layers import Layers

    keep = layers.relaxed_pieces(RELAXED_PLACINGS)
    relaxed = replace(board, pieces=tuple(p for p in board.pieces if p.name in keep))
    return layers.guide(Layers(_Space(relaxed, "piece", False), relaxed, False),
                        RELAXED_POSITIONS, MEMORY_BUDGET, tick)


def _gave_up(positions: int, stats: dict[str, Any]) -> SolveResult:
    return SolveResult(False, reason=f"gave up after {positions:,} positions without reaching the exit "
                                     f"(the cap; --max-positions raises it)", stats={**stats, "capped": True})


def _unreachable(board: Board, total: int, kind: str, stats: dict[str, Any]) -> SolveResult:
    return SolveResult(False, reason=f"no position with {board.target} at the exit is reachable "
                                     f"(all {total:,} {kind} searched)", stats={**stats, "reachable": total})


def _replay(space: _Space, placements: dict[str, int], chain: list[int]) -> list[dict[str, str]]:
    """Turn the chain of positions, each a move from the one before, into moves of the
    real, named pieces: the piece that moved is the one on a cell that changed."""
    moves = []
    at = {(space.class_of[name], tl): name for name, tl in placements.items()}
    s, _, free = space.encode(placements)
    for want in chain[1:]:
        v, left = next((v, e) for e in range(space.n) if (v := space.code(s, e)) and v != space.code(want, e))
        k, tl = space.code_class[v], left - space.code_offset[v]
        value, mask = space.value[k], space.mask[k]
        pos, path = next((pos, path) for pos, path in space.reach(k, tl, free | mask[tl]).items()
                         if s + value[pos] - value[tl] == want)
        name = at[k, pos] = at.pop((k, tl))
        s, free = want, (free | mask[tl]) & ~mask[pos] & space.open
        moves.append({"piece": name, "path": path})
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
                if (nr, nc) in board.walls:
                    return problems + [f"move {i}: {name} slides {letter} into a wall"]
                if (nr, nc) in board.gates and name != board.target:
                    return problems + [f"move {i}: {name} slides {letter} into a gate (only {board.target} passes)"]
                if grid[nr][nc] not in (EMPTY, name):
                    return problems + [f"move {i}: {name} slides {letter} into {grid[nr][nc]}"]
            for r, c in cells:
                grid[r][c] = EMPTY
            for r, c in cells:
                grid[r + dr][c + dc] = name
    target_cells = [(r, c) for r in range(board.rows) for c in range(board.cols) if grid[r][c] == board.target]
    corner = (min(r for r, _ in target_cells), min(c for _, c in target_cells))
    if board.goal is not None and corner != board.goal:
        problems.append(f"the target {board.target} ends at {corner}, not at the exit {board.goal}")
    bare = sorted(board.marks - set(target_cells))
    if bare:
        problems.append(f"the target {board.target} ends off the goal cells {bare}")
    return problems


def show(board: Board, solution: list[dict[str, str]]) -> str:
    """The moves as ``piece:path`` words, twelve to a line, arrows for directions."""
    arrows = str.maketrans("UDLR", "↑↓←→")
    words = [f"{m['piece']}{m['path'].translate(arrows)}" for m in solution]
    lines = [" ".join(f"{i + j + 1:>3}.{w:<5}" for j, w in enumerate(words[i:i + 8]))
             for i in range(0, len(words), 8)]
    return "\n".join(lines) if lines else "(already solved)"
