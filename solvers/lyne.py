"""LYNE: the board model, an independent rule checker, and an exact edge solver.

Vocabulary (docs/games.md#lyne-rules): a *node* is a non-empty grid place; a *shape* (lower-case
letter) owns ordinary nodes and two *terminals* (its upper-case letter); a *hub* (digit k)
is passed exactly k times, so it touches exactly 2k path edges. An *edge* joins two
8-neighbour nodes.

The solver reasons about edges, not paths: one yes/no variable per edge and shape that
may use it, and the rules as clauses for a SAT solver (MiniSat 2.2, through python-sat):
each edge at most one shape; node degrees (ordinary 2 of its shape, terminal 1, hub 2k);
an even count of each shape's edges at a hub (a path never ends in a hub); crossing
diagonals of a 2×2 not both drawn (``_Formula``). Edges that obey these make, per shape,
one trail between its terminals plus loops; a loop apart from the trail is cut off by a
clause that makes the shape leave the loop's nodes, and the solver runs again (``cuts``,
lazy connectivity) until no loop is apart, or no model is left (then there is no answer).
Each shape's edges are then turned into its path by tracing their Euler trail
(Hierholzer) from one terminal to the other. A board a cheap count already rules out
(a node with fewer possible edges than it needs, terminals no chain joins) is refused
before the search, saying why.

Measured (``bench lyne``, docs/benchmarks.md): 1,500 dense 7×7 levels (14–30 hubs) take
1.7 ms median and 13 ms at worst, where the hand-made propagating search this replaced
took 2.6 ms and 108 ms (and seconds on rarer boards); MiniSat beat CaDiCaL and Glucose
here (worst 56 and 30 ms: the many small incremental calls suit it). The plain per-shape
path search, ``solve_plain``, is kept as the baseline and the tests' reference.
"""
from __future__ import annotations

import re
import sys
from dataclasses import dataclass
from itertools import combinations

from solvers.common import BoardError, Progress, SolveResult, check_width, split_rows

TYPE_CHECKING = False
if TYPE_CHECKING:   # annotations only: a solve imports neither (typing ~2 ms)
    import random
    from typing import Any, Callable

Pos = tuple[int, int]
STEPS: tuple[Pos, ...] = ((-1, -1), (-1, 0), (-1, 1), (0, -1), (0, 1), (1, -1), (1, 0), (1, 1))
# The search gives up after this many nodes by default (a node: a round of cuts or a dead
# end of the SAT search); MiniSat keeps its learnt clauses in check itself and the board's
# size is bounded (MAX_PLACES), so the cap bounds time.
MAX_NODES = 2_000_000
# Boards with more nodes than this are refused as too large: the clauses of 4,000 hubs take
# some 160 MB and half a second to write (a real level has under 60 nodes).
MAX_PLACES = 4_000
# Dead ends searched between two progress lines (and two checks of the cap): about 0.4 s at
# the 50,000 a second measured on 12×12 levels with a terminal moved.
CHUNK = 20_000


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
        places = sum(len(row) - row.count(".") for row in grid)
        if places > MAX_PLACES:
            raise BoardError(f"the board is too large: {places:,} nodes, more than the {MAX_PLACES:,} "
                             "this solver takes")
        return board

    def to_text(self) -> str:
        return "\n".join(self.grid)

    def nodes(self) -> list[Pos]:
        return [(r, c) for r in range(self.rows) for c in range(self.cols) if self.grid[r][c] != "."]


def _from_token_rows(rows: list[str]) -> list[str]:
    body = rows[1:]
    if any(len(v) > 6 for v in rows[0].split()):     # Python reads no more than 4,300 digits
        raise BoardError(f"the header says {rows[0].strip()[:20]}…, but {len(body)} rows follow", 1)
    nrows, ncols = (int(v) for v in rows[0].split())
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

@dataclass
class _Net:
    """Tables built once per board: nodes, edges, and who touches or crosses whom."""

    pos: list[Pos]
    need: list[int]                 # edges a node must have: 2 ordinary, 1 terminal, 2k hub
    hub: list[bool]
    owner: list[int]                # shape index of a shape node, -1 for hubs
    ends: list[tuple[int, int]]     # terminals of each shape
    edges: list[tuple[int, int]]
    may: list[tuple[int, ...]]      # the shapes that may use each edge
    incident: list[list[int]]
    crossing: list[tuple[int, int]]  # the two diagonals of a 2×2, both edges

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
        edges, may, incident = [], [], [[] for _ in pos]
        edge_at: dict[tuple[Pos, Pos], int] = {}
        every = tuple(range(len(shapes)))
        for i, (r, c) in enumerate(pos):
            for dr, dc in STEPS[4:]:  # each unordered pair once
                j = index.get((r + dr, c + dc))
                if j is None:
                    continue
                if hub[i] and hub[j]:
                    allowed = every
                elif hub[i] or hub[j] or owner[i] == owner[j]:
                    allowed = (max(owner[i], owner[j]),)
                else:
                    continue   # two shapes' nodes: never an edge
                edge_at[(r, c), (r + dr, c + dc)] = len(edges)
                incident[i].append(len(edges))
                incident[j].append(len(edges))
                edges.append((i, j))
                may.append(allowed)
        crossing = []
        for (a, b), e in edge_at.items():
            if b[0] - a[0] == 1 and b[1] - a[1] == 1:
                f = edge_at.get(((a[0], a[1] + 1), (a[0] + 1, a[1])))
                if f is not None:
                    crossing.append((e, f))
        return cls(pos, need, hub, owner, [(a, b) for a, b in ends], edges, may, incident, crossing)

    def impossible(self, shapes: list[str]) -> str | None:
        """A cheap proof that the board has no answer, in words, or None: a node with
        fewer possible edges than it needs, or a shape whose terminals no chain of its
        possible edges joins."""
        for n, inc in enumerate(self.incident):
            have = len(inc) if self.hub[n] else sum(self.owner[n] in self.may[e] for e in inc)
            if have < self.need[n]:
                return f"node {self.pos[n]} needs {self.need[n]} edge(s), has {have} possible"
        for s, (a, b) in enumerate(self.ends):
            if b not in self.reach(a, lambda e: s in self.may[e]):
                return f"no chain of places shape {shapes[s]!r} may pass joins its terminals"
        return None

    def reach(self, start: int, usable: Callable[[int], bool]) -> set[int]:
        """The nodes joined to ``start`` by edges for which ``usable`` holds."""
        seen, stack = {start}, [start]
        while stack:
            n = stack.pop()
            for e in self.incident[n]:
                m = self.edges[e][0] + self.edges[e][1] - n
                if m not in seen and usable(e):
                    seen.add(m)
                    stack.append(m)
        return seen


class _Formula:
    """The rules as clauses over one variable per (edge, shape that may use it), and
    one per edge for "drawn" where several shapes may: each edge at most one shape; an
    ordinary node exactly two edges of its shape, a terminal exactly one; a hub exactly
    2k edges, an even number of each shape's (a path never ends in a hub: a chain of
    exclusive-ors); crossing diagonals not both drawn. A shape's edges that obey these
    make one trail from terminal to terminal and, maybe, loops apart from it: those are
    cut off as they turn up (``cuts``)."""

    def __init__(self, net: _Net) -> None:
        self.net = net
        self.count = 0
        self.clauses: list[list[int]] = []
        self.var = [{s: self.new() for s in shapes} for shapes in net.may]
        drawn = [self.drawn(choice) for choice in self.var]
        for n, inc in enumerate(net.incident):
            if net.hub[n]:
                self.exactly([drawn[e] for e in inc], net.need[n])
                for s in {s for e in inc for s in net.may[e]}:
                    self.even([self.var[e][s] for e in inc if s in self.var[e]])
            else:
                self.exactly([self.var[e][net.owner[n]] for e in inc if net.owner[n] in self.var[e]],
                             net.need[n])
        self.clauses += [[-drawn[e], -drawn[f]] for e, f in net.crossing]

    def new(self) -> int:
        self.count += 1
        return self.count

    def drawn(self, choice: dict[int, int]) -> int:
        """A variable true exactly when one of ``choice``'s shapes uses the edge, which
        at most one may."""
        lits = list(choice.values())
        if len(lits) == 1:
            return lits[0]
        d = self.new()
        self.clauses.append([-d] + lits)
        self.clauses += [[-v, d] for v in lits]
        self.clauses += [[-a, -b] for a, b in combinations(lits, 2)]
        return d

    def exactly(self, lits: list[int], k: int) -> None:
        """Exactly ``k`` of at most eight ``lits``: no k+1 all true, no n-k+1 all false."""
        self.clauses += [[-v for v in some] for some in combinations(lits, k + 1)]
        self.clauses += [list(some) for some in combinations(lits, len(lits) - k + 1)]

    def even(self, lits: list[int]) -> None:
        """An even number of ``lits`` true."""
        acc = lits[0]
        for v in lits[1:-1]:
            t = self.new()   # t = acc xor v
            self.clauses += [[-t, acc, v], [-t, -acc, -v], [t, -acc, v], [t, acc, -v]]
            acc = t
        if len(lits) == 1:
            self.clauses.append([-acc])
        else:
            self.clauses += [[-acc, lits[-1]], [acc, -lits[-1]]]

    def owners(self, model: list[int]) -> list[int]:
        """The shape drawing each edge in a model, -1 for none."""
        return [next((s for s, v in choice.items() if model[v - 1] > 0), -1) for choice in self.var]

    def cuts(self, drawn: list[int]) -> list[list[int]]:
        """Clauses against the loops apart in ``drawn``: for each shape, each part of its
        edges that does not reach its first terminal must be joined to it (``leave``),
        and so must every edge of it beyond the first terminal's part — two cuts for one
        loop apart, the second often ending several loops at once. The model at hand
        breaks each."""
        net, out = self.net, []
        for s, (first, _) in enumerate(net.ends):
            def mine(e: int, s: int = s) -> bool:
                return drawn[e] == s
            joined = net.reach(first, mine)
            placed = set(joined)
            for e, (a, b) in enumerate(net.edges):
                if drawn[e] == s and a not in placed:
                    part = net.reach(a, mine)
                    placed |= part
                    out += self.leave(part, s)
            if len(placed) > len(joined):
                out += self.leave(set(range(len(net.pos))) - joined, s)
        return out

    def leave(self, part: set[int], s: int) -> list[list[int]]:
        """Clauses that make shape s leave the nodes ``part`` (which hold not its first
        terminal) by some edge: at once if they hold a node it must pass (its second
        terminal or an ordinary node), else whenever it uses an edge within them. Every
        answer obeys them: its trail joins all its edges to the first terminal."""
        net = self.net
        edges = {f for n in part for f in net.incident[n] if s in self.var[f]}
        leave = [self.var[f][s] for f in sorted(edges) if (net.edges[f][0] in part) != (net.edges[f][1] in part)]
        if any(net.owner[n] == s for n in part):
            return [leave]
        return [[-self.var[f][s]] + leave for f in sorted(edges)
                if net.edges[f][0] in part and net.edges[f][1] in part]


def _trail(net: _Net, drawn: list[int], s: int) -> list[Pos]:
    """Hierholzer: the Euler trail of shape s's edges from its first terminal."""
    adj: dict[int, list[int]] = {}
    for e, (a, b) in enumerate(net.edges):
        if drawn[e] == s:
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


class _MiniSat:
    """MiniSat 2.2 through python-sat's compiled module (``pysolvers``), by the calls its
    ``pysat.solvers.Minisat22`` makes: that module's Python layer (some thirty solver
    classes, ``pysat.formula``, ``decimal``) takes ~20 ms to import, more than a whole
    solve, while the compiled module loads in about one; so the first solve in a process
    is as quick as the next. Imported on first use: reading a board does not need it."""

    def __init__(self, clauses: list[list[int]]) -> None:
        import pysolvers

        self.lib = pysolvers
        self.handle = pysolvers.minisat22_new()
        for clause in clauses:
            pysolvers.minisat22_add_cl(self.handle, clause)

    def __enter__(self) -> "_MiniSat":
        return self

    def __exit__(self, *exc: object) -> None:
        self.lib.minisat22_del(self.handle)

    def add_clause(self, clause: list[int]) -> None:
        self.lib.minisat22_add_cl(self.handle, clause)

    def solve_limited(self, conflicts: int) -> bool | None:
        """Satisfiable, not, or None when ``conflicts`` conflicts came first. MiniSat
        catches Ctrl-C during the call only on the main thread (as pysat asks it to); no
        thread but the main one exists while ``threading`` was never imported."""
        threading = sys.modules.get("threading")
        main = threading is None or threading.current_thread() is threading.main_thread()
        self.lib.minisat22_cbudget(self.handle, conflicts)
        return self.lib.minisat22_solve_lim(self.handle, [], int(main), 0)

    def conflicts(self) -> int:
        """Conflicts met so far, over every call."""
        return self.lib.minisat22_acc_stats(self.handle)["conflicts"]

    def model(self) -> list[int]:
        """The last satisfiable call's values, one signed literal per variable."""
        return self.lib.minisat22_model(self.handle)


def solve(board: Board, max_nodes: int | None = None,
          progress: Callable[[str], None] | None = None) -> SolveResult:
    """Find paths for every shape at once (exact: says so when none exist). The search
    gives up after ``max_nodes`` nodes (default ``MAX_NODES``); ``progress`` gets a line
    about once a second after the first."""
    net = _Net.build(board)
    why = net.impossible(board.shapes)
    if why:
        return SolveResult(False, reason=f"impossible from the start: {why}", stats={"nodes": 0})
    formula = _Formula(net)
    limit = max_nodes or MAX_NODES
    tell = Progress(progress)
    nodes = rounds = 0
    with _MiniSat(formula.clauses) as sat:
        while True:
            rounds += 1
            nodes += 1
            answer = None
            while answer is None and nodes <= limit:
                before = sat.conflicts()
                # a budget of b + 1 conflicts stops after b of them, before the next choice
                answer = sat.solve_limited(min(CHUNK, limit - nodes) + 1)
                nodes += sat.conflicts() - before
                tell(f"LYNE: {nodes:,} search nodes, {rounds} rounds of cuts")
            stats = {"nodes": min(nodes, limit), "rounds": rounds, "edges": len(net.edges)}
            if answer is None:
                return SolveResult(False, reason=f"gave up after {limit:,} search nodes (the cap; "
                                                 "--max-nodes raises it)", stats={**stats, "capped": True})
            if not answer:
                return SolveResult(False, reason=f"no set of paths obeys the rules (searched {nodes:,} "
                                                 f"nodes, {rounds} round(s) of cuts)", stats=stats)
            drawn = formula.owners(sat.model())
            cuts = formula.cuts(drawn)
            if not cuts:
                break
            for clause in cuts:
                sat.add_clause(clause)
    solution = {shape: [list(p) for p in _trail(net, drawn, s)] for s, shape in enumerate(board.shapes)}
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
