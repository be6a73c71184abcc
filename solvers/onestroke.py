"""One-stroke (一笔画完): a Hamiltonian path over the grid's cells from a fixed start.

Vocabulary: a *cell* is a square to visit, a *hole* is a missing one, the *head* is the
path's current end and the *free* cells are those not yet visited.

The problem is NP-complete on grids with holes, so the solver is a depth-first search; its
speed comes from pruning, done on bitboards (one Python int per set of cells, with one
guard column so that shifting by one never wraps from one row into the next):

- dead ends: a free cell with fewer than two ways in or out (free neighbours, plus the head
  when adjacent) must be the last cell, so two of them fail the branch;
- parity: on a chessboard colouring a path alternates colours; this fixes, from the root,
  how many cells of each colour a solvable board has and which colour the last cell is;
- forced edges: every free cell takes two path edges (the last one an edge to an imagined
  cell past the end), so a cell with only two usable edges uses both, and a cell whose
  edges are all spoken for closes its others; propagated to a fixpoint;
- connectivity: the free cells must form one region (a bit-parallel flood fill), and a
  cell that cuts the region in two must cut off the part where the path ends, with the
  right colour balance before it (Tarjan's low points);
- matching: the edge needs of all cells at once (two per cell, one for the head and the
  imagined cell) must be met by edges between the two colours, a bipartite b-matching
  kept from node to node; it sees shortages spread over the board, which is what
  refutes most boards with random holes;
- order: the neighbour with the fewest free neighbours first (Warnsdorff), forced moves
  alone; positions that failed once are remembered, and restarts with a growing node
  budget and reshuffled ties keep one early wrong turn from trapping the search; when
  the last cell is forced, a search from it back to the start takes turns.

Many boards are proved unsolvable before any search (a cell without neighbours, cells
in pieces, parity, two cells that must both be the end, the matching), and ``reason``
says how. Generated levels of 6×6 to 12×12 take about one search node per cell; boards
with 8-20 % random holes and a random start a few ms, with rare unsolvable ones (about
1 in 20 at 10×10) needing thousands of nodes at ~100 µs each.
"""
from __future__ import annotations

import itertools
from dataclasses import dataclass
from functools import lru_cache

from solvers.common import BoardError, Progress, SolveResult, check_places, check_width, split_rows

TYPE_CHECKING = False
if TYPE_CHECKING:     # annotations only: a command starts without typing (~2 ms)
    from typing import Any, Callable, Collection

Cell = tuple[int, int]
RESTARTS = 6      # budgeted runs before the final unbudgeted one
# The search gives up after this many nodes by default, fewer when the failed positions it
# remembers (one set entry a node at most) would pass MEMORY_BUDGET bytes.
MAX_NODES = 2_000_000
MEMORY_BUDGET = 800_000_000
# A node costs time in proportion to the grid's places (bitboards that wide, the cut
# check's walk over the free cells): ~0.1 ms at 12×12, ~1 ms at 64×64. So boards of more
# than MAX_PLACES places are refused, and past WORK_PLACES places the default cap shrinks
# so that giving up takes no longer than on a 16×16 board.
MAX_PLACES = 4_096
WORK_PLACES = 256


def adjacent(cell: Cell) -> tuple[Cell, Cell, Cell, Cell]:
    """The four grid places next to a cell (up, down, left, right), on the board or not."""
    r, c = cell
    return (r - 1, c), (r + 1, c), (r, c - 1), (r, c + 1)


def reach(start: Cell, cells: Collection[Cell]) -> set[Cell]:
    """``start`` and every cell of ``cells`` joined to it by steps between neighbouring
    cells of ``cells`` (``start`` itself need not be one of them)."""
    todo, seen = [start], {start}
    while todo:
        for n in adjacent(todo.pop()):
            if n in cells and n not in seen:
                seen.add(n)
                todo.append(n)
    return seen


@dataclass(frozen=True)
class Board:
    """A one-stroke level: the cells to visit in a ``rows`` × ``cols`` grid, the start, and
    the cell where the path must end when the level marks one (else None)."""

    rows: int
    cols: int
    cells: frozenset[Cell]
    start: Cell
    end: Cell | None = None

    @property
    def size(self) -> str:
        """The board's size for people (rows × columns)."""
        return f"{self.rows}x{self.cols}"

    @classmethod
    def from_text(cls, text: str) -> "Board":
        """Read rows of ``#`` (cell), ``.`` (hole), ``S`` (the start, a cell) and at most one
        ``E`` (the cell where the path must end, where the level marks one), separated by
        newlines or ``/``; every row as wide as the first (a short row is refused)."""
        lines = split_rows(text)
        check_places(lines, MAX_PLACES)
        cells: set[Cell] = set()
        marked: dict[str, Cell] = {}
        for r, line in enumerate(lines):
            for c, ch in enumerate(line):
                if ch == ".":
                    continue
                if ch not in "#SE":
                    raise BoardError(f"column {c + 1}: unexpected character {ch!r} (use '#' for a cell, "
                                     "'.' for a hole, 'S' for the start, 'E' for a marked end)", line=r + 1)
                if ch in marked:
                    first = marked[ch]
                    raise BoardError(f"column {c + 1}: a second {'start' if ch == 'S' else 'end'} {ch!r} (the "
                                     f"first is at line {first[0] + 1}, column {first[1] + 1})", line=r + 1)
                if ch != "#":
                    marked[ch] = (r, c)
                cells.add((r, c))
        width = check_width(lines)
        if "S" not in marked:
            raise BoardError("no start cell 'S'")
        return cls(len(lines), width, frozenset(cells), marked["S"], marked.get("E"))

    def to_text(self) -> str:
        return "\n".join(
            "".join("S" if (r, c) == self.start else "E" if (r, c) == self.end else
                    "#" if (r, c) in self.cells else "." for c in range(self.cols))
            for r in range(self.rows))


# ---------------------------------------------------------------------------- bitboards

@dataclass(frozen=True)
class _Grid:
    """The board as bitboards: bit ``r * width + c``, ``width = cols + 1`` (a guard column)."""

    width: int
    full: int                 # every cell
    dark: int                 # cells with (r + c) even
    neighbours: tuple[int, ...]  # per bit index: the mask of its neighbouring cells

    def bit(self, cell: Cell) -> int:
        return cell[0] * self.width + cell[1]

    def cell(self, index: int) -> Cell:
        return divmod(index, self.width)

    def spread(self, mask: int) -> int:
        """The positions next to some bit of ``mask`` (unmasked: callers intersect)."""
        w = self.width
        return (mask << 1) | (mask >> 1) | (mask << w) | (mask >> w)

    def region(self, seed: int, within: int) -> int:
        """The cells of ``within`` connected to ``seed`` (a flood fill, one ring per step)."""
        reached = seed & within
        while True:
            grown = (reached | self.spread(reached)) & within
            if grown == reached:
                return reached
            reached = grown


@lru_cache(maxsize=64)
def _grid(board: Board) -> _Grid:
    width = board.cols + 1
    full = dark = 0
    for r, c in board.cells:
        full |= 1 << (r * width + c)
        if (r + c) % 2 == 0:
            dark |= 1 << (r * width + c)
    neighbours = [0] * (board.rows * width)
    for r, c in board.cells:
        for nr, nc in adjacent((r, c)):
            if (nr, nc) in board.cells:
                neighbours[r * width + c] |= 1 << (nr * width + nc)
    return _Grid(width, full, dark, tuple(neighbours))


def _bits(mask: int) -> list[int]:
    out = []
    while mask:
        low = mask & -mask
        out.append(low.bit_length() - 1)
        mask ^= low
    return out


# ---------------------------------------------------------------------------- solver

def node_cap(board: Board) -> int:
    """The default node cap: ``MAX_NODES``, or fewer on boards so big that the failed
    positions remembered (a set entry of a tuple and a cells-wide int, ~130 bytes plus 4
    per 30 cells) would not fit in ``MEMORY_BUDGET``, or that a node costs more than on
    ``WORK_PLACES`` places."""
    places = board.rows * board.cols
    return min(MAX_NODES, MEMORY_BUDGET // (130 + 4 * -(-len(board.cells) // 30)),
               MAX_NODES * WORK_PLACES // max(places, WORK_PLACES))


def solve(board: Board, max_nodes: int | None = None,
          progress: Callable[[str], None] | None = None) -> SolveResult:
    """A path from the start through every cell, or the reason there is none. The search
    gives up after ``max_nodes`` nodes (default ``node_cap``; ``stats["capped"]``);
    ``progress`` gets a line about once a second after the first."""
    limit = max_nodes or node_cap(board)
    tick = Progress(progress)
    g = _grid(board)
    s = g.bit(board.start)
    if g.full == 1 << s:
        return SolveResult(True, [list(board.start)], 0, stats={"nodes": 1})
    proof = _no_path_proof(board, g)
    if proof:
        return SolveResult(False, reason=proof, stats={"nodes": 0})
    end_ok = _end_colour(board, g) if board.end is None else 1 << g.bit(board.end)
    # Restarts: a wrong turn near the root of a big open board can trap a depth-first
    # search for ages, so runs with a growing node budget and reshuffled ties come
    # first. Failed positions found by any run stay failed, so no work is lost, and the
    # last run has no budget: the answer stays exact. When the last cell is forced (it
    # has one neighbour), a search from it back to the start takes turns with the
    # forward one, as either may be much the quicker; the budgets then grow for ever,
    # and the first search to finish within its budget answers.
    searches = [(s, end_ok, set())]
    searches += [(e, 1 << s, set()) for e in ([g.bit(board.end)] if board.end else _one_neighbour_cells(g, s))]
    nodes, budget = 0, 4 * g.full.bit_count()
    for run in itertools.count():
        rank = _shuffled_ties(run, len(g.neighbours))
        # The matching check costs more than the other rules; boards that need no
        # second run are solved before it would pay.
        matching = _Matching(g) if run else None
        for first, last_ok, dead in searches:
            run_limit = budget << (2 * run) if run < RESTARTS or len(searches) > 1 else limit
            run_limit = min(run_limit, limit - nodes)
            done = nodes
            path, used = _dfs(g, first, lambda head, free: _moves(g, head, free, last_ok, rank, matching),
                              run_limit, dead, lambda n: tick(f"{done + n:,} nodes searched"))
            nodes += used
            finished = used < run_limit
            if path is not None or finished or nodes >= limit:
                if path is not None and first != s:
                    path.reverse()
                return _result(g, path, nodes, not finished, "exhaustive")
    raise AssertionError("unreachable: itertools.count() never ends")


def _shuffled_ties(run: int, cells: int) -> list[float]:
    """The tie-breaking rank of each cell in restart ``run``: none in the first run (so
    a solve that needs no restart never imports ``random``), then random, seeded by the run."""
    if not run:
        return [0.0] * cells
    import random

    rng = random.Random(run)
    return [rng.random() for _ in range(cells)]


def _one_neighbour_cells(g: _Grid, start: int) -> list[int]:
    """The cells other than the start with one neighbour: each must be the last cell."""
    return [i for i in _bits(g.full & ~(1 << start)) if g.neighbours[i].bit_count() == 1]


def _result(g: _Grid, path: list[int] | None, nodes: int, capped: bool, kind: str) -> SolveResult:
    if path is not None:
        return SolveResult(True, [list(g.cell(i)) for i in path], len(path) - 1, stats={"nodes": nodes})
    if capped:
        return SolveResult(False, reason=f"gave up after {nodes:,} nodes (the cap; --max-nodes raises it)",
                           stats={"nodes": nodes, "capped": True})
    return SolveResult(False, reason=f"no path visits every cell ({kind} search, {nodes} nodes)",
                       stats={"nodes": nodes})


def _own_colour(board: Board, g: _Grid) -> int:
    """The cells of the start's colour on a chessboard colouring."""
    return g.dark if (g.dark >> g.bit(board.start)) & 1 else g.full & ~g.dark


def _end_colour(board: Board, g: _Grid) -> int:
    """The cells the path may end on: a path alternates colours, so with as many cells of
    the start's colour as of the other it ends on the other colour, else on the start's."""
    own = _own_colour(board, g)
    other = g.full & ~own
    return other if own.bit_count() == other.bit_count() else own


def _no_path_proof(board: Board, g: _Grid) -> str | None:
    """Why the board has no solution, when that shows without search; else None."""
    for i in _bits(g.full):
        if not g.neighbours[i]:
            return f"cell {g.cell(i)} has no neighbour"
    pieces, rest = 0, g.full
    while rest:
        rest &= ~g.region(rest & -rest, rest)
        pieces += 1
    if pieces > 1:
        return f"the cells are not connected: they form {pieces} separate pieces"
    s = g.bit(board.start)
    own_mask = _own_colour(board, g)
    names = ("light", "dark") if own_mask == g.dark else ("dark", "light")   # (other, own)
    own, other = own_mask.bit_count(), (g.full & ~own_mask).bit_count()
    if own - other not in (0, 1):
        return (f"parity: colouring the grid like a chessboard gives {own} {names[1]} and "
                f"{other} {names[0]} cells; a path alternates colours, so from the {names[1]} start "
                f"it visits {own} or {own - 1} {names[0]} cells, not {other}")
    ends = _one_neighbour_cells(g, s)
    if len(ends) > 1:
        listed = ", ".join(str(g.cell(i)) for i in ends)
        return f"cells {listed} have one neighbour each, so each would have to be the path's last cell"
    end_ok = _end_colour(board, g)
    colour = names[1] if end_ok & own_mask else names[0]
    if ends and not (end_ok >> ends[0]) & 1:
        return (f"cell {g.cell(ends[0])} has one neighbour, so the path must end there, but by "
                f"parity the path ends on a {colour} cell")
    if board.end is not None:
        if ends and g.cell(ends[0]) != board.end:
            return (f"cell {g.cell(ends[0])} has one neighbour, so the path must end there, not at the "
                    f"marked end {board.end}")
        if not (end_ok >> g.bit(board.end)) & 1:
            return f"by parity the path ends on a {colour} cell, and the marked end {board.end} is not one"
        ends = [g.bit(board.end)]
    last = 1 << ends[0] if ends else g.full & end_ok & ~(1 << s)
    if not _Matching(g).feasible(g, s, g.full & ~(1 << s), g.full & g.full >> 1, g.full & g.full >> g.width, last):
        return ("no set of edges gives every cell the two path edges it needs (the start and "
                "the last cell one): some cells of one colour need more edges than the cells "
                "around them can give")
    return None


def _dfs(g: _Grid, start: int, expand: Callable[[int, int], list[int]],
         limit: int | None, dead: set[tuple[int, int]] | None = None,
         tick: Callable[[int], None] | None = None) -> tuple[list[int] | None, int]:
    """Depth-first search over paths from ``start``; ``expand(head, free)`` gives the moves
    to try, last first. (path of bit indices or None, nodes visited). With ``dead``, the
    positions (head, free cells) known to fail are not searched again, and those found
    to fail are added: many paths reach the same position. ``tick(nodes)`` is called
    every 4,096 nodes (progress lines)."""
    path = [start]
    nodes = 1
    free = g.full & ~(1 << start)
    if not free:
        return path, nodes
    stack = [(expand(start, free), free)]
    while stack:
        moves, free = stack[-1]
        if not moves:
            stack.pop()
            if dead is not None:
                dead.add((path[-1], free))
            path.pop()
            continue
        if limit is not None and nodes >= limit:
            return None, nodes
        head = moves.pop()
        free &= ~(1 << head)
        if dead is not None and (head, free) in dead:
            continue
        path.append(head)
        nodes += 1
        if tick is not None and not nodes & 4095:
            tick(nodes)
        if not free:
            return path, nodes
        stack.append((expand(head, free), free))
    return None, nodes


def _moves(g: _Grid, head: int, free: int, end_ok: int, rank: list[float],
           matching: _Matching | None) -> list[int]:
    """The head's moves worth trying, best last (the stack pops from the end); empty
    when the position is dead. ``rank`` breaks ties between equally good moves;
    ``matching``, when given, checks that the cells' edge needs can be met together."""
    hb = 1 << head
    w = g.width
    avail = free | hb
    one, two, _ = _counts((avail << 1, avail >> 1, avail << w, avail >> w))
    if free & ~one:
        return []                       # a free cell no path can reach any more
    ends = free & ~two
    if ends:
        # A cell with one way in or out must be the last; two such, or one of the wrong
        # colour, and the branch is dead.
        if ends & (ends - 1) or ends & ~end_ok:
            return []
    only = g.neighbours[head] & free
    if only and not only & (only - 1):
        # One way on (a corridor): the rules below cost time in the size of the board
        # and would only say sooner what the next fork says; on a long corridor they
        # made the search's time grow with the square of its length.
        return [only.bit_length() - 1]
    last = ends or free & end_ok        # the cells the path may end on
    edges = _propagate(g, head, free, last)
    if edges is None:
        return []
    allowed = _linked(g, edges[0], edges[1], head)
    if not allowed or matching and not matching.feasible(g, head, free, *edges):
        return []
    if g.region(free & -free, free) != free:
        return []
    if _maybe_cuts(g, free, free | hb) and not _cuts_allow_path(g, head, free, ends):
        return []
    nbr = g.neighbours
    scored = []
    forced = []
    for v in _bits(allowed):
        rest = free & ~(1 << v)
        onward = (nbr[v] & rest).bit_count()
        if rest and not onward:
            continue                    # a dead end before the last cell
        if onward == 1:
            # Left now, v keeps one way out and no way in: it would have to be the end.
            forced.append(v)
        scored.append((onward, rank[v], v))
    most = 1 if ends else 2          # unless the end is known, one of them may be it
    if len(forced) > most:
        return []
    if len(forced) == most:
        scored = [x for x in scored if x[2] in forced]
    scored.sort(reverse=True)
    return [v for _, _, v in scored]


def _counts(masks: tuple[int, ...]) -> tuple[int, int, int]:
    """Bit-parallel counting: the bits set in at least one, two and three of ``masks``."""
    ge1 = ge2 = ge3 = 0
    for m in masks:
        ge3 |= ge2 & m
        ge2 |= ge1 & m
        ge1 |= m
    return ge1, ge2, ge3


def _propagate(g: _Grid, head: int, free: int, ends: int) -> tuple[int, int, int] | None:
    """The usable edges ``(across, down, last)`` once the path's edges are propagated,
    None when the position is dead.

    An imagined cell past the last one, joined to every cell the path may end on, makes
    every need exact: the head needs one more edge, the imagined cell one, every free
    cell two. A cell with no more usable edges than it needs uses them all (forced
    edges); a cell whose forced edges meet its need drops its other edges, which can
    leave a neighbour tight in turn. Too few edges or too many forced ones fail. Edges
    live on bitboards: ``across`` has bit i for the edge i to i+1, ``down`` bit i for the
    edge i to i + width, ``last`` bit i for the edge from i to the imagined cell.
    """
    w = g.width
    hb = 1 << head
    cells = free | hb
    across, down, last = cells & (cells >> 1), cells & (cells >> w), ends
    while True:
        ge1, ge2, ge3 = _counts((across, across << 1, down, down << w, last))
        if free & ~ge2 or hb & ~ge1 or not last:
            return None
        tight = (free & ~ge3) | (hb & ~ge2)
        f_across = across & (tight | (tight >> 1))
        f_down = down & (tight | (tight >> w))
        f_last = last if not last & (last - 1) else last & tight
        if f_last & (f_last - 1):
            return None
        fo1, fo2, fo3 = _counts((f_across, f_across << 1, f_down, f_down << w, f_last))
        if hb & fo2 or free & fo3:
            return None
        full = (hb & fo1) | (free & fo2)
        new_across = across & ~((full | (full >> 1)) & ~f_across)
        new_down = down & ~((full | (full >> w)) & ~f_down)
        new_last = f_last or last & ~full
        if new_across == across and new_down == down and new_last == last:
            break
        across, down, last = new_across, new_down, new_last
    return across, down, last


def _linked(g: _Grid, across: int, down: int, v: int) -> int:
    """The cells joined to cell ``v`` by a usable edge."""
    w = g.width
    out = (across >> v & 1) << (v + 1) | (down >> v & 1) << (v + w)
    if v >= 1:
        out |= (across >> (v - 1) & 1) << (v - 1)
    if v >= w:
        out |= (down >> (v - w) & 1) << (v - w)
    return out


class _Matching:
    """Whether every cell's need of path edges can be met at once: the head one more,
    each free cell two, an imagined cell past the end one (joined to the cells the path
    may end on). Each edge joins the two chessboard colours, so this is a bipartite
    b-matching (Kuhn's augmenting paths). It ignores that the edges must form one path,
    yet it sees shortages spread over the whole board that no local rule does.

    The matched edges are bitboards like the usable ones and are kept between calls:
    the search's positions follow each other closely, so the last matching, less the
    edges no longer usable, needs only a few augmenting paths."""

    PAST = -1       # the imagined cell

    def __init__(self, g: _Grid) -> None:
        # A first matching for free: the edges of dominoes laid across on even columns
        # and down on even rows meet each cell at most once each way.
        w = g.width
        self.across = sum(1 << i for i in range(len(g.neighbours)) if i % w % 2 == 0)
        self.down = sum(1 << i for i in range(len(g.neighbours)) if i // w % 2 == 0)
        self.last = 0

    def feasible(self, g: _Grid, head: int, free: int, across: int, down: int, ends: int) -> bool:
        w, past = g.width, self.PAST
        hb = 1 << head
        within = free | hb
        left_mask = within & (g.dark if ends & g.dark else ~g.dark)     # the ends' colour
        # Two per cell, one less for the head, one for the past cell: equal on both sides?
        if 4 * left_mask.bit_count() - 2 * (left_mask >> head & 1) != 2 * within.bit_count():
            return False
        ma, md, ml = self.across & across, self.down & down, self.last & ends & ~hb

        def need(u: int) -> int:
            return 1 if u == head or u == past else 2

        def mates(u: int) -> list[int]:
            if u == past:
                return _bits(ml)
            return _bits(_linked(g, ma, md, u)) + ([past] if ml >> u & 1 else [])

        def flip(v: int, u: int) -> None:
            nonlocal ma, md, ml
            if u == past:
                ml ^= 1 << v
            elif abs(u - v) == 1:
                ma ^= 1 << min(u, v)
            else:
                md ^= 1 << min(u, v)

        def augment(v: int, seen: set[int]) -> bool:
            """Match v once more, along a path that alternates unmatched and matched edges."""
            taken = mates(v)
            for u in _bits(_linked(g, across, down, v)) + ([past] if ends >> v & 1 else []):
                if u in seen or u in taken:
                    continue
                seen.add(u)
                others = mates(u)
                if len(others) >= need(u):
                    x = next((x for x in others if augment(x, seen)), None)
                    if x is None:
                        continue
                    flip(x, u)
                flip(v, u)
                return True
            return False

        for u in mates(head)[1:]:       # the head, a free cell before, keeps one edge
            flip(head, u)
        ge1, ge2, _ = _counts((ma, ma << 1, md, md << w, ml))
        short = left_mask & ~hb & ~ge2 | left_mask & hb & ~ge1
        ok = all(augment(v, set()) for v in _bits(short) for _ in range(need(v) - len(mates(v))))
        self.across, self.down, self.last = ma, md, ml
        return ok


def _maybe_cuts(g: _Grid, free: int, cells: int) -> int:
    """The free cells that may cut ``cells`` in two: those whose neighbours in ``cells``
    are not all joined around the eight cells that ring them (elsewhere a detour around
    the cell exists). Cheap and bit-parallel, so the exact search for cut cells runs only
    when some cell qualifies."""
    w = g.width

    def at(k: int) -> int:           # bit i set when cell i + k is in cells
        return cells >> k if k > 0 else cells << -k
    n, e, s_, west = at(-w), at(1), at(w), at(-1)
    ring = (n, at(1 - w) & (n | e), e, at(w + 1) & (e | s_), s_, at(w - 1) & (s_ | west), west,
            at(-w - 1) & (west | n))
    arcs = tuple(ring[k] & ~ring[k - 1] for k in range(8))   # an arc of the ring starts here
    return free & _counts(arcs)[1]


def _cuts_allow_path(g: _Grid, head: int, free: int, ends: int) -> bool:
    """Whether the cut cells of the free region agree with one path from the head.

    A free cell ``w`` whose removal cuts a part ``T`` off from the head is passed once, so
    the path covers everything else first, ending on ``w``, and finishes inside ``T``. So
    two parts cut off by one cell fail, so do parts cut off by different cells that do not
    nest, and so does a forced last cell outside them; and the cells before ``w`` must
    have the colour balance of a path from the head to ``w``. Found with Tarjan's low
    points on a depth-first tree rooted at the head.
    """
    nbr = g.neighbours
    dark = g.dark
    within = free | (1 << head)
    total = within.bit_count()
    total_dark = (within & dark).bit_count()
    head_dark = (dark >> head) & 1
    size = len(nbr)
    disc, low, parent, todo = [0] * size, [0] * size, [0] * size, [0] * size
    dark_below = [0] * size           # dark cells in the subtree
    todo[head] = nbr[head] & within
    seen, cuts, count = 1 << head, 0, 1
    lo, hi = 0, total               # the cut-off parts' intersection, in discovery order
    stack = [head]
    while stack:
        v = stack[-1]
        t = todo[v] & ~seen
        if t:
            u_bit = t & -t
            todo[v] = t ^ u_bit
            u = u_bit.bit_length() - 1
            seen |= u_bit
            disc[u] = least = count
            # Neighbours seen before u, other than its parent, are its ancestors: back
            # edges. Those seen later are its descendants and count from their side.
            back = nbr[u] & seen & ~(1 << v)
            while back:
                b_bit = back & -back
                back ^= b_bit
                d = disc[b_bit.bit_length() - 1]
                if d < least:
                    least = d
            low[u] = least
            count += 1
            dark_below[u] = (dark >> u) & 1
            parent[u] = v
            todo[u] = nbr[u] & within
            stack.append(u)
            continue
        stack.pop()
        if v == head:
            break
        p = parent[v]
        dark_below[p] += dark_below[v]
        if low[v] < low[p]:
            low[p] = low[v]
        if p != head and low[v] >= disc[p]:
            # p cuts v's subtree (discovery numbers disc[v] .. count - 1) off.
            if cuts >> p & 1:
                return False
            cuts |= 1 << p
            lo, hi = max(lo, disc[v]), min(hi, count)
            if lo >= hi:
                return False
            before, before_dark = total - (count - disc[v]), total_dark - dark_below[v]
            own = before_dark if head_dark else before - before_dark
            if own != before - own + ((dark >> p) & 1 == head_dark):
                return False
    if ends and lo > 0:
        return lo <= disc[ends.bit_length() - 1] < hi
    return True


def search_plain(board: Board, limit: int | None = None) -> SolveResult:
    """Plain backtracking over the same neighbour tables, with no pruning and no move
    ordering: the benchmark's baseline and the property tests' reference. With ``limit``
    it gives up after that many nodes (``stats["capped"]``)."""
    g = _grid(board)
    nbr = g.neighbours
    end = 1 << g.bit(board.end) if board.end else 0    # entered only as the last cell
    path, nodes = _dfs(g, g.bit(board.start),
                       lambda head, free: _bits(nbr[head] & (free if free == end else free & ~end)), limit)
    return _result(g, path, nodes, path is None and limit is not None and nodes >= limit, "plain")


# ---------------------------------------------------------------------------- checker

def validate(board: Board, solution: Any) -> list[str]:
    """Every way ``solution`` breaks the rules (empty when it is a valid answer): a JSON
    list of [row, col] that starts on S, steps up/down/left/right, stays on cells and
    visits each cell exactly once, ending on E where the board marks one."""
    if not isinstance(solution, list) or not solution:
        return ["the solution must be a non-empty list of [row, col] cells"]
    problems: list[str] = []
    path: list[Cell] = []
    for k, item in enumerate(solution):
        if (not isinstance(item, (list, tuple)) or len(item) != 2
                or not all(isinstance(x, int) and not isinstance(x, bool) for x in item)):
            problems.append(f"step {k}: {item!r} is not a [row, col] pair of integers")
            continue
        path.append((item[0], item[1]))
    if problems:
        return problems
    if path[0] != board.start:
        problems.append(f"the path starts at {path[0]}, not at the start {board.start}")
    seen: set[Cell] = set()
    for k, cell in enumerate(path):
        if cell not in board.cells:
            problems.append(f"step {k}: {cell} is not a cell of the board")
        if cell in seen:
            problems.append(f"step {k}: {cell} is visited a second time")
        seen.add(cell)
        if k and abs(cell[0] - path[k - 1][0]) + abs(cell[1] - path[k - 1][1]) != 1:
            problems.append(f"step {k}: {path[k - 1]} to {cell} is not a step to a neighbouring cell")
    if board.end is not None and path[-1] != board.end:
        problems.append(f"the path ends at {path[-1]}, not at the marked end {board.end}")
    missed = sorted(board.cells - seen)
    if missed:
        problems.append(f"{len(missed)} cell(s) never visited, e.g. {missed[0]}")
    return problems


def show(board: Board, solution: list[list[int]]) -> str:
    """The grid with each cell's place in the visiting order (1 = the start), aligned."""
    order = {(r, c): k for k, (r, c) in enumerate(solution, 1)}
    width = len(str(len(solution)))
    return "\n".join(
        " ".join(str(order[(r, c)]).rjust(width) if (r, c) in order else ".".rjust(width)
                 for c in range(board.cols)).rstrip()
        for r in range(board.rows))


# ---------------------------------------------------------------------------- generator

def generate(rows: int, cols: int, seed: int, fill: float = 0.85) -> Board:
    """A random solvable level, deterministic per seed: punch a few random holes, walk a
    random self-avoiding path through the rest (Warnsdorff with random ties, so it rarely
    strands cells), and keep the walk's cells when they cover at least ``fill`` of the
    grid. The start is the walk's first cell; cells it missed become holes too."""
    if rows < 1 or cols < 1 or not 0.0 < fill <= 1.0:
        raise ValueError("generate needs rows, cols >= 1 and 0 < fill <= 1")
    import random   # here: a solve does not need it

    rng = random.Random(seed)
    grid = [(r, c) for r in range(rows) for c in range(cols)]
    need = max(1, -(-int(fill * rows * cols * 1000) // 1000))
    holes_max = rows * cols - need
    for attempt in range(10_000):
        holes = set(rng.sample(grid, rng.randint(holes_max // 3, holes_max))) if attempt < 9_000 else set()
        open_cells = set(grid) - holes
        walk = [rng.choice(sorted(open_cells))]
        seen = {walk[0]}
        while True:
            steps = [n for n in adjacent(walk[-1]) if n in open_cells and n not in seen]
            if not steps:
                break
            onward = {n: sum(m in open_cells and m not in seen for m in adjacent(n)) for n in steps}
            best = min(onward.values())
            nxt = rng.choice([n for n in steps if onward[n] == best])
            walk.append(nxt)
            seen.add(nxt)
        if len(walk) >= need:
            return Board(rows, cols, frozenset(walk), walk[0])
    raise RuntimeError(f"could not generate a {rows}x{cols} board with fill {fill}")
