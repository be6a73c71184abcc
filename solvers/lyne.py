"""LYNE: the board model, an independent rule checker, and an exact edge solver.

Vocabulary (docs/games.md#lyne-rules): a *node* is a non-empty grid place; a *shape* (lower-case
letter) owns ordinary nodes and two *terminals* (its upper-case letter); a *hub* (digit k)
is passed exactly k times, so it touches exactly 2k path edges. An *edge* joins two
8-neighbour nodes.

The solver reasons about edges, not paths: every edge carries a domain, a bit set of
"none" and the shapes that may use it. Propagation to a fixpoint uses the node degrees
(ordinary 2, terminal 1, hub 2k), hub parity per shape (a path never ends in a hub)
and a hub's last holes (each shape with an odd count there needs one more edge; when
those needs fill the holes left, the other shapes get no more edges there), crossing
diagonals of a 2×2, and per shape the cuts of the edges it may still use: what
the first terminal cannot reach cannot be the shape's (and breaks the branch if the shape
needs it), and a bridge is drawn when the second terminal lies beyond it, else left
undrawn (the trail could not come back). Search branches on an edge at the tightest
node, first where rules broke most often so far (each broken rule is counted against
its nodes, across runs: the search learns where the board is hard), then with the
fewest choices, trying "no edge" first (hubs get most of their edges from shape
nodes). A board that takes more than 300 search nodes is searched again for 200,
trying a drawn edge first where its tighter end has more edges to draw than to leave
out (hub-dense boards draw most of theirs), then probing (see ``_runs``): at a probed
node every value of every open edge is tried and propagated, what fails is removed,
what all tries agree on is kept, and the search branches on the edge whose tries
narrowed the board most (look-ahead); each surviving try leaves an implication that
holds below its node (``probe``). Runs probing the first two levels, the first four
and every level take turns with growing budgets: each kind
has boards on which it strays for thousands of nodes while the other settles them in a
few hundred (deep tries check the cuts of the tried shape only: about half the cost).
A branch re-runs the cut rules only of the shapes its narrowing touched, and not even
those of a shape whose lost edges each keep two detours (``stays``). A full
assignment is turned into paths by tracing each shape's Euler trail (Hierholzer) from one
terminal to the other. Measured (``bench lyne``): real levels need under 5 search nodes;
generated 7×7 levels with up to 20 hubs take ~1.3 ms median; the densest generated 7×7
levels (14–31 hubs) ~3 ms median and up to ~0.1 s (CPU, loaded machine), where the
plain per-shape path search, ``solve_plain`` (kept as the baseline and the tests'
reference), takes seconds on far easier boards.
"""
from __future__ import annotations

import random
import re
from itertools import compress
from operator import ne, or_
from dataclasses import dataclass, field
from typing import Any, Callable, Iterator

from solvers.common import BoardError, Progress, SolveResult, check_width, split_rows

Pos = tuple[int, int]
STEPS: tuple[Pos, ...] = ((-1, -1), (-1, 0), (-1, 1), (0, -1), (0, 1), (1, -1), (1, 0), (1, 1))
NONE = 1  # domain bit for "no edge"; shape i is bit 2 << i
NEED, LAST = 1, 2  # what a depth-first subtree holds (see _Search.cuts)
# The search gives up after this many nodes by default. Its memory is one domain list per
# level of the depth-first search (a few hundred KB at most), so the cap bounds time.
MAX_NODES = 2_000_000
# The successive runs of the search (see solve): a short plain run trying "no edge" first,
# a shorter one trying first what the tighter end of the edge most likely draws (``_runs``),
# then runs probing the first two levels, the first four and every level take turns, each
# round with four times the budget (in search nodes) of the round before, until one run
# finishes or the cap is hit. A board hard for one kind is mostly easy for another (one
# 7x7 level: 32 nodes probing four levels, none of the others in 30,000); a probing node
# costs some 50 plain ones, hence the budgets. Since the conflict counts (``broken``) the
# plain runs stray less and are given longer (were 150 and 50 nodes).
PLAIN_RUN, LIKELY_RUN = 300, 200
SHALLOW, MIDDLE, EVERY_LEVEL = 2, 4, 1 << 30
RUN_BUDGETS = {SHALLOW: 250, MIDDLE: 120, EVERY_LEVEL: 60}


def _runs() -> Iterator[tuple[int, int, bool]]:
    """(probe depth, node budget, whether a drawn edge is tried first where its tighter
    end has more edges to draw than to leave out) of each run of the search, without
    end. Hub-dense boards draw most of their edges: "no edge" first strays on some, the
    likely value first settles many of those in tens of nodes."""
    yield 0, PLAIN_RUN, False
    yield 0, LIKELY_RUN, True
    scale = 1
    while True:
        for depth, budget in RUN_BUDGETS.items():
            yield depth, budget * scale, False
        scale *= 4


@dataclass(frozen=True)
class Board:
    """The grid as rows of characters: ``.`` empty, ``x`` ordinary node of shape x,
    ``X`` its terminal, ``1``–``4`` a hub with that many holes."""

    grid: tuple[str, ...]

    @property
    def rows(self) -> int:
        return len(self.grid)

    @property
    def cols(self) -> int:
        return len(self.grid[0])

    def at(self, pos: Pos) -> str:
        return self.grid[pos[0]][pos[1]]

    @property
    def shapes(self) -> list[str]:
        """The shapes' lower-case letters, sorted."""
        return sorted({ch.lower() for row in self.grid for ch in row if ch.isalpha()})

    @property
    def size(self) -> str:
        """The board's size for people (rows × columns)."""
        return f"{self.rows}x{self.cols}"

    @classmethod
    def from_text(cls, text: str) -> "Board":
        """Read the canonical text (one character per place, rows split by newlines or
        ``/``) or the older ``rows cols`` format with space-separated tokens and ``?``."""
        rows = split_rows(text)
        if re.fullmatch(r"\s*\d+\s+\d+\s*", rows[0]):
            grid = _from_token_rows(rows)
        else:
            grid = list(rows)   # leading blanks are refused below, as in every game
            for n, row in enumerate(grid, 1):
                if not row:
                    raise BoardError("blank row inside the board", n)
        for n, row in enumerate(grid, 1):
            for ch in row:
                if not (ch == "." or ch in "1234" or ch.isascii() and ch.isalpha()):
                    raise BoardError(f"unknown character {ch!r} (use . letters or hub digits 1-4)", n)
        check_width(grid)
        board = cls(tuple(grid))
        for shape in board.shapes:
            ends = sum(row.count(shape.upper()) for row in grid)
            if ends != 2:
                raise BoardError(f"shape {shape!r} has {ends} terminals ({shape.upper()}); it needs exactly 2")
        if not board.shapes:
            raise BoardError("the board has no shapes")
        return board

    def to_text(self) -> str:
        return "\n".join(self.grid)

    def nodes(self) -> list[Pos]:
        return [(r, c) for r in range(self.rows) for c in range(self.cols) if self.grid[r][c] != "."]


def _from_token_rows(rows: list[str]) -> list[str]:
    nrows, ncols = (int(v) for v in rows[0].split())
    body = rows[1:]
    if nrows < 1 or ncols < 1:
        raise BoardError(f"size {nrows} {ncols} must be positive", 1)
    if len(body) != nrows:
        raise BoardError(f"the header says {nrows} rows but {len(body)} follow", 1)
    grid = []
    for n, row in enumerate(body, 2):
        tokens = row.split()
        if len(tokens) != ncols:
            raise BoardError(f"expected {ncols} tokens, got {len(tokens)}", n)
        for tok in tokens:
            if len(tok) != 1:
                raise BoardError(f"token {tok!r} is not one character", n)
        grid.append("".join("." if t == "?" else t for t in tokens))
    return grid


# ------------------------------------------------------------------------- rule checker

def validate(board: Board, solution: Any) -> list[str]:
    """Every way ``solution`` (``{"t": [[r, c], ...], ...}``) breaks the rules; empty if
    it solves the board. Written from the rules, independent of the solver."""
    errors: list[str] = []
    if not isinstance(solution, dict):
        return ["the solution must be an object of paths keyed by shape"]
    shapes = board.shapes
    for key in solution:
        if key not in shapes:
            errors.append(f"path for {key!r}, which is not a shape of the board")
    used: dict[frozenset, str] = {}
    passes: dict[Pos, int] = {}
    for shape in shapes:
        path = solution.get(shape)
        if not isinstance(path, list) or len(path) < 2:
            errors.append(f"shape {shape!r}: no path of at least two nodes")
            continue
        cells: list[Pos] = []
        for p in path:
            if (not isinstance(p, (list, tuple)) or len(p) != 2
                    or not all(isinstance(v, int) and not isinstance(v, bool) for v in p)):
                errors.append(f"shape {shape!r}: {p!r} is not a [row, col] pair")
                break
            if not (0 <= p[0] < board.rows and 0 <= p[1] < board.cols):
                errors.append(f"shape {shape!r}: {list(p)} is off the board")
                break
            cells.append((p[0], p[1]))
        else:
            errors += _check_path(board, shape, cells, used, passes)
    for r, row in enumerate(board.grid):
        for c, ch in enumerate(row):
            if ch.isdigit() and passes.get((r, c), 0) != int(ch):
                errors.append(f"hub ({r},{c}) with {ch} holes is passed {passes.get((r, c), 0)} times")
    errors += _crossings(used)
    return errors


def _check_path(board: Board, shape: str, cells: list[Pos], used: dict[frozenset, str],
                passes: dict[Pos, int]) -> list[str]:
    errors = []
    term = shape.upper()
    for end in (cells[0], cells[-1]):
        if board.at(end) != term:
            errors.append(f"shape {shape!r}: path ends at {list(end)}, not at a terminal {term}")
    if cells[0] == cells[-1]:
        errors.append(f"shape {shape!r}: path starts and ends on the same node")
    seen: dict[Pos, int] = {}
    for i, (a, b) in enumerate(zip(cells, cells[1:])):
        if max(abs(a[0] - b[0]), abs(a[1] - b[1])) != 1:
            errors.append(f"shape {shape!r}: step {list(a)}->{list(b)} is not between neighbours")
        ch = board.at(b)
        if ch == ".":
            errors.append(f"shape {shape!r}: steps onto the empty place {list(b)}")
        elif not ch.isdigit() and ch.lower() != shape:
            errors.append(f"shape {shape!r}: steps onto {list(b)}, a node of shape {ch.lower()!r}")
        edge = frozenset((a, b))
        if edge in used:
            errors.append(f"shape {shape!r}: edge {list(a)}-{list(b)} already used by {used[edge]!r}")
        used[edge] = shape
        if 0 < i + 1 < len(cells) - 1 and ch == term:
            errors.append(f"shape {shape!r}: passes through its terminal {list(b)}")
    for p in cells[1:-1]:
        if board.at(p).isdigit():
            passes[p] = passes.get(p, 0) + 1
        else:
            seen[p] = seen.get(p, 0) + 1
    for r, row in enumerate(board.grid):
        for c, ch in enumerate(row):
            if ch == shape and seen.get((r, c), 0) != 1:
                errors.append(f"shape {shape!r}: node ({r},{c}) visited {seen.get((r, c), 0)} times, not once")
    return errors


def _crossings(used: dict[frozenset, str]) -> list[str]:
    errors = []
    for edge in used:
        a, b = sorted(edge)
        if b[0] - a[0] == 1 and b[1] - a[1] == 1:  # a "\" diagonal; its crossing is "/"
            other = frozenset(((a[0], a[1] + 1), (a[0] + 1, a[1])))
            if other in used:
                errors.append(f"diagonals cross in the square at {list(a)}")
    return errors


def show(board: Board, solution: dict[str, list[list[int]]]) -> str:
    """Each path as its (row,col) steps, terminal to terminal, numbered in the order the
    hints and the driver take them (the CLI prints the board)."""
    return "\n".join(f"{k}. {shape}: " + " ".join(f"({r},{c})" for r, c in solution[shape])
                     for k, shape in enumerate(sorted(solution), 1))


# ------------------------------------------------------------------------- the edge solver

class _Contradiction(Exception):
    """A branch (or the whole board) breaks a rule; the message says where."""


@dataclass
class _Net:
    """Tables built once per board: nodes, edges, and who touches or crosses whom."""

    board: Board
    pos: list[Pos]
    need: list[int]                 # edges a node must have: 2 ordinary, 1 terminal, 2k hub
    hub: list[bool]
    owner: list[int]                # shape index of a shape node, -1 for hubs
    ends: list[tuple[int, int]]     # terminals of each shape
    edges: list[tuple[int, int]]
    incident: list[list[int]]
    crossing: list[list[int]]
    start: list[int] = field(default_factory=list)   # initial domains

    @classmethod
    def build(cls, board: Board) -> "_Net":
        shapes = board.shapes
        pos = board.nodes()
        index = {p: i for i, p in enumerate(pos)}
        need, hub, owner = [], [], []
        ends: list[list[int]] = [[] for _ in shapes]
        for i, p in enumerate(pos):
            ch = board.at(p)
            hub.append(ch.isdigit())
            need.append(2 * int(ch) if ch.isdigit() else 1 if ch.isupper() else 2)
            owner.append(-1 if ch.isdigit() else shapes.index(ch.lower()))
            if ch.isupper():
                ends[owner[-1]].append(i)
        edges, incident = [], [[] for _ in pos]
        edge_at: dict[tuple[Pos, Pos], int] = {}
        for i, (r, c) in enumerate(pos):
            for dr, dc in STEPS[4:]:  # each unordered pair once
                j = index.get((r + dr, c + dc))
                if j is not None:
                    edge_at[(r, c), (r + dr, c + dc)] = len(edges)
                    incident[i].append(len(edges))
                    incident[j].append(len(edges))
                    edges.append((i, j))
        crossing: list[list[int]] = [[] for _ in edges]
        for (a, b), e in edge_at.items():
            if b[0] - a[0] == 1 and b[1] - a[1] == 1:
                f = edge_at.get(((a[0], a[1] + 1), (a[0] + 1, a[1])))
                if f is not None:
                    crossing[e].append(f)
                    crossing[f].append(e)
        every = sum(2 << s for s in range(len(shapes)))
        start = []
        for i, j in edges:
            if hub[i] and hub[j]:
                start.append(NONE | every)
            elif hub[i] or hub[j] or owner[i] == owner[j]:
                start.append(NONE | 2 << max(owner[i], owner[j]))
            else:
                start.append(NONE)
        return cls(board, pos, need, hub, owner, [(a, b) for a, b in ends], edges, incident,
                   crossing, start)


class _Search:
    """Propagation and branching over edge domains (a list of bit sets per branch)."""

    def __init__(self, net: _Net, limit: int = MAX_NODES, progress: Progress | None = None) -> None:
        self.net = net
        self.shape_bits = [2 << s for s in range(len(net.ends))]
        self.nodes = 0
        self.limit = limit
        self.progress = progress
        self.root: tuple[list[int], int | None] | None = None  # the probed root
        self.probe_depth = 0    # search nodes shallower than this probe every open edge
        self.likely_first = False   # try the likely value first (see _runs)
        # implications learned by probing (see ``probe``): per edge f, (values, e, v):
        # when f has none of those values left, e cannot take the value v; ``learned``
        # lists the f of each, in order, to forget them when their node is left
        self.implied: list[list[tuple[int, int, int]]] = [[] for _ in net.edges]
        self.learned: list[int] = []
        self.fails = [0] * len(net.pos)     # rules broken at each node so far, all runs
        # per shape: the edges it may ever use, and for each node the neighbours over them
        self.may = [[e for e, d in enumerate(net.start) if d & bit] for bit in self.shape_bits]
        self.nbrs: list[list[list[tuple[int, int]]]] = []
        for may in self.may:
            nbrs: list[list[tuple[int, int]]] = [[] for _ in net.pos]
            for e in may:
                a, b = net.edges[e]
                nbrs[a].append((b, e))
                nbrs[b].append((a, e))
            self.nbrs.append(nbrs)
        # per shape and edge u-v: the edge pairs u-w, w-v of the shape's (see ``stays``)
        self.detours: list[list[list[tuple[int, int]]]] = []
        for may, nbrs in zip(self.may, self.nbrs):
            detours: list[list[tuple[int, int]]] = [[] for _ in net.edges]
            for e in may:
                a, b = net.edges[e]
                via_b = {w: f for w, f in nbrs[b]}
                detours[e] = [(f, via_b[w]) for w, f in nbrs[a] if w in via_b]
            self.detours.append(detours)
        self.weight = [-net.need[a] - net.need[b] for a, b in net.edges]    # busy ends first
        self.mine = [[n for n, o in enumerate(net.owner) if o == s] for s in range(len(net.ends))]
        # per shape: the nodes it may touch (its own and the ends of the edges it may use)
        self.reach = [sorted({n for n, near in enumerate(nbrs) if near} | set(mine))
                      for nbrs, mine in zip(self.nbrs, self.mine)]
        self.holds = [[NEED if o == s else 0 for o in net.owner] for s in range(len(net.ends))]
        for s, (_, last) in enumerate(net.ends):
            self.holds[s][last] |= LAST

    def broken(self, message: str, *nodes: int) -> _Contradiction:
        """The exception for a rule broken at ``nodes``, counted against them: the
        branching order (``keys``) favours the places that broke rules most often."""
        for n in nodes:
            self.fails[n] += 1
        return _Contradiction(message)

    def restrict(self, dom: list[int], e: int, allowed: int, queue: list[int]) -> None:
        """Narrow edge e to ``allowed`` and what follows at once: a drawn diagonal
        forbids the one crossing it, and a learned implication (``implied``) whose edge
        lost every value its try left strikes that try's value. The ends of every
        narrowed edge join ``queue`` (a loop, not recursion: chains can be long)."""
        net, implied = self.net, self.implied
        work = [(e, allowed)]
        while work:
            e, allowed = work.pop()
            old = dom[e]
            new = old & allowed
            if new == old:
                continue
            if not new:
                a, b = net.edges[e]
                raise self.broken(f"edge {net.pos[a]}-{net.pos[b]} has no possible use", a, b)
            dom[e] = new
            queue.extend(net.edges[e])
            for mask, g, bit in implied[e]:
                if not new & mask and dom[g] & bit:
                    work.append((g, ~bit))
            if not new & NONE:
                for f in net.crossing[e]:
                    work.append((f, NONE))

    def propagate(self, dom: list[int], queue: list[int]) -> None:
        net = self.net
        while queue:
            n = queue.pop()
            if n in queue:      # checked again later, with what changes before then
                continue
            on = und = 0
            for e in net.incident[n]:
                d = dom[e]
                if d == NONE:
                    continue
                if d & NONE:
                    und += 1
                else:
                    on += 1
            need = net.need[n]
            if on > need or on + und < need:
                raise self.broken(f"node {net.pos[n]} needs {need} edges, has {on} drawn and {und} open", n)
            if und and on == need:
                for e in net.incident[n]:
                    if dom[e] != NONE and dom[e] & NONE:
                        self.restrict(dom, e, NONE, queue)
            elif und and on + und == need:
                for e in net.incident[n]:
                    if dom[e] & NONE and dom[e] != NONE:
                        self.restrict(dom, e, ~NONE, queue)
            if net.hub[n]:
                self.hub_parity(dom, n, queue)

    def hub_parity(self, dom: list[int], n: int, queue: list[int]) -> None:
        """A path passing a hub enters and leaves it, so each shape's edge count at a
        hub is even: when one edge is left open for a shape, the parity decides it. And
        a shape with an odd count so far needs one more edge at least: when those needs
        fill the hub's holes left, the shapes with even counts get no more edges there."""
        odd = fixed_all = 0
        evens = []
        for bit in self.shape_bits:
            fixed = 0
            open_edge = -1
            count_open = 0
            for e in self.net.incident[n]:
                d = dom[e]
                if d == bit:
                    fixed += 1
                elif d & bit:
                    count_open += 1
                    open_edge = e
            if count_open == 0 and fixed % 2:
                raise self.broken(f"hub {self.net.pos[n]} would end a path", n)
            if count_open == 1:
                self.restrict(dom, open_edge, bit if fixed % 2 else ~bit, queue)
            fixed_all += fixed
            if fixed % 2:
                odd += 1
            elif count_open:
                evens.append(bit)
        left = self.net.need[n] - fixed_all
        if odd > left:
            raise self.broken(f"hub {self.net.pos[n]} has too few holes left", n)
        if odd == left and evens:
            for bit in evens:
                for e in self.net.incident[n]:
                    if dom[e] & bit and dom[e] != bit:
                        self.restrict(dom, e, ~bit, queue)

    def settle(self, dom: list[int], parent: list[int] | None = None, shapes: int = -1) -> bool:
        """Apply the cut rules (``cuts``) of the shapes whose bits are in ``shapes`` and
        propagate, then those of the shapes that changed, until nothing changes; False
        when the branch breaks a rule. A branch of a settled ``parent`` re-runs only the
        shapes its narrowing touched (``_touched``): the cuts of the others would find
        nothing new; neither would those of a shape whose lost edges each keep two
        detours (``stays``)."""
        touched = shapes
        try:
            while touched:
                if parent is not None:
                    changed = _changed(parent, dom)
                    touched &= _touched(changed, parent, dom)
                    # judged before any cuts run: those of one shape narrow ``dom``
                    # past ``changed`` (the next round re-runs whom that touches)
                    for s, bit in enumerate(self.shape_bits):
                        if touched & bit and self.stays(parent, dom, changed, s, bit):
                            touched &= ~bit
                queue: list[int] = []
                before = dom[:]
                for s, bit in enumerate(self.shape_bits):
                    if touched & bit:
                        self.cuts(dom, s, bit, queue)
                if not queue:
                    return True
                self.propagate(dom, queue)
                changed = _changed(before, dom)
                touched = _touched(changed, before, dom)
                parent = None
            return True
        except _Contradiction:
            return False

    def stays(self, parent: list[int], dom: list[int], changed: list[int], s: int, bit: int) -> bool:
        """Whether the cut rules of shape s find nothing in ``dom``, narrowed from a
        ``parent`` they found nothing in: true when each edge u-v the shape lost keeps
        two detours u-w-v over edges it may still use. Then u and v stay joined by two
        paths that share no edge, so no edge became a bridge or was cut off (a new bridge
        f would make {u-v, f} a cut that both paths cross at f), and a need drawn since
        lies in reach as before, beyond no bridge the parent had not drawn towards the
        second terminal."""
        detours = self.detours[s]
        for f in changed:
            if parent[f] & bit and not dom[f] & bit:
                kept = 0
                for g, h in detours[f]:
                    if dom[g] & bit and dom[h] & bit:
                        kept += 1
                if kept < 2:
                    return False
        return True

    def cuts(self, dom: list[int], s: int, bit: int, queue: list[int]) -> None:
        """Shape s is one trail from its first terminal to its second through its nodes
        and drawn edges (its *needs*), in the graph of edges it may still use. A need
        out of reach of the first terminal breaks the rules, and an edge out of reach
        cannot be the shape's. A bridge of that graph (Tarjan, one depth-first pass) is
        crossed by the trail once if the second terminal is beyond it — so it is drawn —
        and never otherwise, as the trail could not come back: it is left undrawn, and
        needs beyond it break the rules."""
        net = self.net
        nbrs = self.nbrs[s]
        first = net.ends[s][0]
        size = len(net.pos)
        disc = [-1] * size
        low = [0] * size
        # what the depth-first subtree of a node holds: NEED a need (its own nodes, and
        # the ends of its drawn edges), LAST the second terminal
        holds = self.holds[s][:]
        disc[first] = 0
        count = 1
        stack = [(first, -1, iter(nbrs[first]))]
        while stack:
            u, via, rest = stack[-1]
            for v, e in rest:
                d = dom[e]
                if not d & bit:
                    continue
                if d == bit:
                    holds[u] |= NEED
                if e == via:
                    continue
                dv = disc[v]
                if dv < 0:
                    disc[v] = low[v] = count
                    count += 1
                    stack.append((v, e, iter(nbrs[v])))
                    break
                if dv < low[u]:
                    low[u] = dv
            else:
                stack.pop()
                if stack:
                    p = stack[-1][0]
                    lu = low[u]
                    if lu < low[p]:
                        low[p] = lu
                    h = holds[u]
                    holds[p] |= h
                    if lu > disc[p]:                # via is a bridge
                        if h & LAST:
                            self.restrict(dom, via, bit, queue)
                        elif h:
                            raise self.broken(f"shape {s} would cross a bridge twice", u, p)
                        else:
                            self.restrict(dom, via, ~bit, queue)
        if count == len(self.reach[s]):     # every node the shape may touch is reached
            return
        for i in self.mine[s]:
            if disc[i] < 0:
                raise self.broken(f"shape {s} cannot reach {net.pos[i]}", i)
        for n in self.reach[s]:
            if disc[n] < 0:
                for _, e in nbrs[n]:
                    d = dom[e]
                    if d & bit:
                        if d == bit:
                            raise self.broken(f"shape {s} cannot reach {net.pos[n]}", n)
                        self.restrict(dom, e, ~bit, queue)

    def choose(self, dom: list[int]) -> int:
        """The open edge to branch on (the first of ``ranked``), -1 when none is open."""
        keys = self.keys(dom)
        return min(keys)[-1] if keys else -1

    def ranked(self, dom: list[int]) -> list[int]:
        """The open edges, those at the node with the least slack first, then those
        whose ends broke rules most often so far (``broken``: the search learns where
        a board is hard, as dom/wdeg does), then those with the fewest choices."""
        return [key[-1] for key in sorted(self.keys(dom))]

    def keys(self, dom: list[int]) -> list[tuple[int, int, int, int, int]]:
        """Each open edge's rank key (``ranked``'s order), the edge last."""
        net = self.net
        slack = []
        for incident, need in zip(net.incident, net.need):
            on = und = 0        # as ``counts``, inline: this runs at every search node
            for e in incident:
                d = dom[e]
                if not d & NONE:
                    on += 1
                elif d != NONE:
                    und += 1
            slack.append(und - (need - on) if und else 99)
        edges, weight, fails = net.edges, self.weight, self.fails
        return [(min(slack[a], slack[b]), -fails[a] - fails[b], d.bit_count(), weight[e], e)
                for e, d in enumerate(dom) if d & (d - 1) for a, b in (edges[e],)]

    def counts(self, dom: list[int], n: int) -> tuple[int, int]:
        """How many of node n's edges are drawn, and how many are still open (may be
        drawn or not)."""
        on = und = 0
        for e in self.net.incident[n]:
            d = dom[e]
            if d != NONE and not d & NONE:
                on += 1
            elif d != NONE and d & (d - 1):
                und += 1
        return on, und

    def likely_drawn(self, dom: list[int], e: int) -> bool:
        """Whether the end of edge e with the least slack has more edges still to draw
        than to leave out (then e is more likely drawn than not)."""
        tight = None
        for n in self.net.edges[e]:
            on, und = self.counts(dom, n)
            missing = self.net.need[n] - on
            key = (und - missing, missing)
            if tight is None or key < tight:
                tight = key
        return tight[1] > tight[0]

    def probe(self, dom: list[int], thorough: bool = True) -> int | None:
        """Probing: every value of every open edge is tried with full propagation; the
        edge keeps the values that survive, and every edge keeps only the values some
        surviving try left it (what all tries agree on holds), until a round over the
        open edges changes nothing. A value that a surviving try of another edge forced
        is not tried again in that round (it would survive: its propagation is part of
        that try's); its edge then keeps only the values that survive. None when the
        branch breaks a rule, else the edge to branch on: the one whose tries narrowed
        the most other edges (the product over its values, as look-ahead SAT solvers
        weigh a variable), -1 when none is left open (a try that settles every edge is
        taken at once). Unless ``thorough``, a try of a shape re-runs the cut rules of
        that shape only (half the time below the first levels; the branch taken is
        settled in full anyway).

        Each surviving try of value v on edge e also teaches, for every edge f it
        narrowed to a set Q_f: "e = v implies f in Q_f", kept as its contrapositive
        (``implied``): below this node, when f has no value of Q_f left, e loses v. Exact:
        every rule is a necessary condition, so each answer within these domains that
        gives e the value v lies within the try's result; the domains below this node are
        narrower still, so an f outside Q_f there leaves no answer with e = v. Learned
        once the round is over (learned at once they would skew the scores of later
        tries), dropped when the search leaves the node; the root's hold in every run
        (every probing run starts from the probed root). On dense levels they cut the
        plain search below the probed levels; with the conflict counts (``broken``)
        they took one dense 7×7 level from 1.1 million search nodes to 382."""
        order = self.ranked(dom)     # tight edges first: their tries fail or force most
        best, best_score = -1, 0
        since = i = 0               # tries since the last change, and where we are
        forced: set[tuple[int, int]] = set()     # (edge, value) forced by a surviving try
        learned: list[tuple[int, int, int, int]] = []   # (f, Q_f, e, v), see above
        while since < len(order):
            e = order[i]
            i = (i + 1) % len(order)
            since += 1
            d = dom[e]
            if not d & (d - 1):
                continue
            union = None
            score = 1
            failed = skipped = 0
            for bit in (NONE, *self.shape_bits):
                if not d & bit:
                    continue
                if (e, bit) in forced:
                    skipped |= bit
                    continue
                child = self.narrowed(dom, e, bit)
                if child is not None and all(not x & (x - 1) for x in child):
                    if self.settle(child):      # every edge decided: an answer
                        dom[:] = child
                        return -1
                    child = None
                shapes = -1 if thorough or bit == NONE else bit     # whose cuts to re-run
                if child is None or not self.settle(child, dom, shapes):
                    failed |= bit
                    continue
                changed = _changed(dom, child)
                score *= len(changed)
                # not e itself: "e lost v, so e loses v" could never strike anything
                learned += [(f, child[f], e, bit) for f in changed if f != e]
                for f in changed:
                    x = child[f]
                    if not x & (x - 1):
                        forced.add((f, x))
                union = child if union is None else list(map(or_, union, child))
            if skipped:
                union = self.narrowed(dom, e, ~failed) if failed else dom
            if union is None:
                return None
            if union != dom:
                dom[:] = union
                if not self.settle(dom):    # the union of settled branches may not be
                    return None
                since = 0
                forced.clear()
                best, best_score = -1, 0
            elif score > best_score:
                best, best_score = e, score
        for f, mask, e, bit in learned:
            self.implied[f].append((mask, e, bit))
            self.learned.append(f)
        return best

    def narrowed(self, dom: list[int], e: int, allowed: int) -> list[int] | None:
        """A copy of the domains with edge e narrowed to ``allowed`` and propagated; None
        when that breaks a rule."""
        child = dom[:]
        queue: list[int] = []
        try:
            self.restrict(child, e, allowed, queue)
            self.propagate(child, queue)
        except _Contradiction:
            return None
        return child

    def search(self, dom: list[int], depth: int = 0, parent: list[int] | None = None) -> list[int] | None:
        self.nodes += 1
        if self.nodes > self.limit:
            raise _GaveUp
        if self.progress is not None and not self.nodes & 1023:
            self.progress(f"{self.nodes:,} nodes searched")
        if not self.settle(dom, parent):
            return None
        e = -1
        mark = len(self.learned)
        try:
            if depth < self.probe_depth:
                if depth == 0 and self.root is not None:   # every run probes the root alike
                    dom[:], e = self.root
                else:
                    e = self.probe(dom, depth < SHALLOW)
                    if depth == 0:      # what the root's tries taught holds in every run
                        self.root = (dom[:] if e is not None else dom, e)
                        mark = len(self.learned)
                if e is None:
                    return None
            return self.branch(dom, depth, e)
        finally:
            self.forget(mark)

    def forget(self, mark: int) -> None:
        """Drop the implications learned since ``mark`` (they hold only below the
        probed node that learned them)."""
        learned, implied = self.learned, self.implied
        while len(learned) > mark:
            implied[learned.pop()].pop()

    def branch(self, dom: list[int], depth: int, e: int) -> list[int] | None:
        """Try each value of edge e (or of the edge ``choose`` names when e < 0) and
        search below it: the settled domains of an answer, None when none exists."""
        if e < 0:
            e = self.choose(dom)
        if e < 0:
            return dom
        d = dom[e]
        choices = ([NONE] if d & NONE else []) + [bit for bit in self.shape_bits if d & bit]
        if self.likely_first and d & NONE and self.likely_drawn(dom, e):
            choices.append(choices.pop(0))     # "no edge" last
        for bit in choices:
            child = self.narrowed(dom, e, bit)
            if child is None:
                continue
            found = self.search(child, depth + 1, dom)
            if found is not None:
                return found
        return None


def _trail(net: _Net, dom: list[int], s: int) -> list[Pos]:
    """Hierholzer: the Euler trail of shape s's edges from its first terminal."""
    bit = 2 << s
    adj: dict[int, list[int]] = {}
    for e, (a, b) in enumerate(net.edges):
        if dom[e] == bit:
            adj.setdefault(a, []).append(b)
            adj.setdefault(b, []).append(a)
    stack, trail = [net.ends[s][0]], []
    while stack:
        v = stack[-1]
        if adj.get(v):
            w = adj[v].pop()
            adj[w].remove(v)
            stack.append(w)
        else:
            trail.append(stack.pop())
    return [net.pos[i] for i in reversed(trail)]


def _changed(before: list[int], after: list[int]) -> list[int]:
    """The edges whose domains differ."""
    return list(compress(range(len(after)), map(ne, before, after)))


def _touched(changed: list[int], before: list[int], after: list[int]) -> int:
    """The shapes (as bits) whose cut rules may find something new after ``before`` was
    narrowed to ``after`` at the ``changed`` edges: a shape left an edge, or an edge
    became the shape's alone."""
    bits = 0
    for e in changed:
        y = after[e]
        bits |= before[e] ^ y
        if not y & (y - 1):
            bits |= y
    return bits & ~NONE


class _GaveUp(Exception):
    """The search reached its node cap."""


def solve(board: Board, max_nodes: int | None = None,
          progress: Callable[[str], None] | None = None) -> SolveResult:
    """Find paths for every shape at once (exact: says so when none exist). The search
    gives up after ``max_nodes`` nodes (default ``MAX_NODES``); ``progress`` gets a line
    about once a second after the first."""
    net = _Net.build(board)
    search = _Search(net, max_nodes or MAX_NODES, Progress(progress) if progress else None)
    dom = net.start[:]
    try:
        search.propagate(dom, list(range(len(net.pos))))
    except _Contradiction as exc:
        return SolveResult(False, reason=f"impossible from the start: {exc}", stats={"nodes": 0})
    # Most boards need a few dozen nodes and no probing; a board that takes more is
    # searched again, probing (see _runs). Each run's nodes count towards the cap.
    limit = search.limit
    found = None
    try:
        for depth, budget, likely in _runs():
            search.probe_depth = depth
            search.likely_first = likely
            search.limit = min(limit, search.nodes + budget)
            try:
                found = search.search(dom[:])
                break
            except _GaveUp:
                if search.limit >= limit:
                    raise
    except _GaveUp:
        return SolveResult(False, reason=f"gave up after {limit:,} search nodes (the cap; "
                                         "--max-nodes raises it)",
                           stats={"nodes": limit, "edges": len(net.edges), "capped": True})
    stats = {"nodes": search.nodes, "edges": len(net.edges), "probed": search.probe_depth > 0}
    if found is None:
        return SolveResult(False, reason=f"no set of paths obeys the rules (searched {search.nodes} nodes)",
                           stats=stats)
    solution = {shape: [list(p) for p in _trail(net, found, s)] for s, shape in enumerate(board.shapes)}
    return SolveResult(True, solution, sum(len(p) - 1 for p in solution.values()), stats=stats)


# ------------------------------------------------------------------------- plain baseline

class SearchLimit(Exception):
    """The plain search took more steps than it was allowed."""


def solve_plain(board: Board, max_steps: int | None = None) -> dict[str, list[list[int]]] | None:
    """The plain search: one shape at a time, a depth-first path from its first terminal
    through unvisited own nodes and unfilled hubs, backtracking across shapes. Exact but
    slow on hub-heavy boards (seconds on some 6×8 levels): the benchmark's baseline and
    the tests' reference. Raises :class:`SearchLimit` after ``max_steps`` steps."""
    shapes = board.shapes
    steps = [0]
    holes = {p: int(board.at(p)) for p in board.nodes() if board.at(p).isdigit()}
    used: set[frozenset] = set()
    paths: dict[str, list[list[int]]] = {}

    def crosses(a: Pos, b: Pos) -> bool:
        if a[0] == b[0] or a[1] == b[1]:
            return False
        return frozenset(((a[0], b[1]), (b[0], a[1]))) in used

    def shape_done(i: int) -> bool:
        if i == len(shapes):
            return all(v == 0 for v in holes.values())
        shape = shapes[i]
        own = [p for p in board.nodes() if board.at(p) == shape]
        ends = [p for p in board.nodes() if board.at(p) == shape.upper()]
        path = [ends[0]]
        visited = {ends[0]}

        def walk(at: Pos) -> bool:
            steps[0] += 1
            if max_steps is not None and steps[0] > max_steps:
                raise SearchLimit(f"plain search stopped after {max_steps} steps")
            for dr, dc in STEPS:
                nxt = (at[0] + dr, at[1] + dc)
                if not (0 <= nxt[0] < board.rows and 0 <= nxt[1] < board.cols):
                    continue
                ch = board.at(nxt)
                edge = frozenset((at, nxt))
                if edge in used or crosses(at, nxt):
                    continue
                if nxt == ends[1]:
                    if all(p in visited for p in own):
                        used.add(edge)
                        path.append(nxt)
                        paths[shape] = [list(p) for p in path]
                        if shape_done(i + 1):
                            return True
                        path.pop()
                        used.discard(edge)
                    continue
                if ch.isdigit():
                    if holes[nxt] == 0:
                        continue
                    holes[nxt] -= 1
                elif ch != shape or nxt in visited:
                    continue
                used.add(edge)
                path.append(nxt)
                visited.add(nxt)
                if walk(nxt):
                    return True
                if ch.isdigit():
                    holes[nxt] += 1
                else:
                    visited.discard(nxt)
                path.pop()
                used.discard(edge)
            return False

        return walk(ends[0])

    return dict(paths) if shape_done(0) else None


# ------------------------------------------------------------------------- generator

def generate(rows: int, cols: int, rng: random.Random, hubs: int = 0, shapes: str = "tds",
             tries: int = 5000, stretch: int = 1,
             revisit: int = 3) -> tuple[Board, dict[str, list[list[int]]]]:
    """A solvable level with at least ``hubs`` hubs, and one solution: one random
    non-crossing walk per shape that never reuses an edge or touches a terminal; a place
    passed by two to four walks (or twice by one) becomes a hub, a place passed once a
    node of that walk's shape, an unvisited place empty; empty outer rows and columns
    are cut off. ``stretch`` makes the walks that many times longer and ``revisit`` weighs
    a step onto a place already visited against one onto a fresh place; ``stretch=3,
    revisit=8`` makes the densest levels (14 to 40 hubs on 7×7 and 8×8)."""
    for _ in range(tries):
        made = _try_generate(rows, cols, rng, hubs, shapes, stretch, revisit)
        if made is not None:
            return made
    raise ValueError(f"could not generate a {rows}x{cols} level with {hubs} hubs")


def _try_generate(rows: int, cols: int, rng: random.Random, hubs: int, shapes: str, stretch: int,
                  revisit: int) -> tuple[Board, dict[str, list[list[int]]]] | None:
    visits: dict[Pos, list[str]] = {}
    ends: set[Pos] = set()
    used: set[frozenset] = set()
    solution = {}
    target = rows * cols * stretch // len(shapes)
    for shape in shapes:
        free = [(r, c) for r in range(rows) for c in range(cols) if (r, c) not in visits]
        if len(free) < 2:
            return None
        path = [rng.choice(free)]
        length = rng.randint(max(2, target // 2), target + 3)
        while len(path) <= length:
            at = path[-1]
            options = []
            for dr, dc in STEPS:
                nxt = (at[0] + dr, at[1] + dc)
                if not (0 <= nxt[0] < rows and 0 <= nxt[1] < cols) or nxt in ends or nxt == path[0]:
                    continue
                if frozenset((at, nxt)) in used or len(visits.get(nxt, ())) >= 4:
                    continue
                if at[0] != nxt[0] and at[1] != nxt[1] and \
                        frozenset(((at[0], nxt[1]), (nxt[0], at[1]))) in used:
                    continue
                options += [nxt] * (revisit if nxt in visits else 1)  # revisits make hubs
            if not options:
                break
            nxt = rng.choice(options)
            used.add(frozenset((at, nxt)))
            path.append(nxt)
            visits.setdefault(nxt, []).append(shape)
        # the walk ends at the last place it reached first and alone
        while len(path) > 1 and visits[path[-1]] != [shape]:
            visits[path[-1]].pop()
            if not visits[path[-1]]:
                del visits[path[-1]]
            used.discard(frozenset((path[-2], path[-1])))
            path.pop()
        if len(path) < 2 or path.count(path[-1]) > 1:
            return None
        visits[path[0]] = [shape]
        ends.update((path[0], path[-1]))
        solution[shape] = [list(p) for p in path]
    grid = [["."] * cols for _ in range(rows)]
    for (r, c), who in visits.items():
        grid[r][c] = str(len(who)) if len(who) > 1 else who[0]
    for shape, path in solution.items():
        for r, c in (path[0], path[-1]):
            grid[r][c] = shape.upper()
    if sum(ch.isdigit() for row in grid for ch in row) < hubs:
        return None
    return _trimmed(grid, solution)


def _trimmed(grid: list[list[str]], solution: dict[str, list[list[int]]]) -> tuple[Board, dict[str, list[list[int]]]]:
    """The board cut to the rows and columns that hold nodes (no screen shows the rest)."""
    rows = [r for r, row in enumerate(grid) if any(ch != "." for ch in row)]
    cols = [c for c in range(len(grid[0])) if any(row[c] != "." for row in grid)]
    r0, c0 = rows[0], cols[0]
    board = Board(tuple("".join(row[c0:cols[-1] + 1]) for row in grid[r0:rows[-1] + 1]))
    return board, {s: [[r - r0, c - c0] for r, c in path] for s, path in solution.items()}
