"""Valves (Machinarium's sewer): close the fewest valves so no water runs from inlet to outlet.

Vocabulary: *points* are named places joined by *pipes*; the *inlet* and the *outlet* are
points that cannot be closed, every other point is a *valve*; a *wrench* closes one valve.
Valves the board already shows closed (``closed:``) hold a wrench each and let nothing pass.

The answer is a minimum vertex cut. Split every valve v into ``v_in → v_out`` of capacity 1;
a pipe u–v becomes the arcs ``u_out → v_in`` and ``v_out → u_in`` of unlimited capacity. The
maximum flow from the inlet to the outlet is the least number of valves (Menger), and the
valves whose in-half the inlet still reaches in the residual graph while their out-half it
does not are one minimum answer. The flow is Edmonds–Karp of our own (``_Flow``): shortest
augmenting paths by breadth-first search suit unit capacities, where the flow is at most the
inlet's degree, and the residual network, with every arc's flow, is what the cut and the
enumeration below read. It replaced networkx's Edmonds–Karp (issue 18: importing networkx
cost a cold ``solve`` 60-250 ms): on 1,357 random boards both gave the same answers, every
answer in the same order and the same stats, and it is 3-6x faster in the same run (the
game's graph 0.15 → 0.03 ms, the bench's 9,955-point sewer 276 → 86 ms CPU). The tests
check it against networkx's ``minimum_node_cut`` on random graphs.

Every minimum answer (Picard–Queyranne): minimum cuts are the sets closed under residual
arcs that hold the inlet and not the outlet. Two closed sets can give the same valves (a
pocket cut off on both sides may go either way), so answers are enumerated over the in-halves
of the valves on the flow paths only: on each path those in a closed set form a prefix,
its last valve is the one closed, and distinct prefix choices are distinct answers. The
choices are the closed sets of a small order ("taking this valve's in-half forces those"),
found from the strongly connected components of the residual graph (``_components``,
Tarjan's) as bitmasks and listed
by include/exclude branching, where no branch is a dead end.
"""
from __future__ import annotations

import gc
import re
from contextlib import contextmanager
from dataclasses import dataclass, field

from solvers.common import BoardError, OptionError, SolveResult, split_rows

TYPE_CHECKING = False
if TYPE_CHECKING:     # annotations only: a command starts without typing (~2 ms)
    from typing import Any, Iterator

DEFAULT_INLET, DEFAULT_OUTLET, DEFAULT_WRENCHES = "X", "Y", 3
MAX_ANSWERS = 10_000        # --all stops listing here (extra["solutions_truncated"] says so)
# The size bounds, checked before any work. The flow costs (its value, at most the pipes at
# the inlet or at the outlet) × (the pipes): a 5,000-valve star, 10,000 pipes at 5,000 flow,
# took 30 s, one of 1,580 valves (5,000,000) 5.8 s. Within MAX_FLOW_WORK and MAX_PIPES a
# solve takes a few seconds, and --all ~250 MB at most (a 20,000-pipe chain: 3.2 s, 186 MB;
# a 150,000-valve chain passed 2 GB).
MAX_PIPES = 20_000
MAX_FLOW_WORK = 2_000_000

_NAME = r"[A-Za-z0-9_]+"
_SETTING = re.compile(r"([A-Za-z_]+)\s*:\s*(.*)")
_PIPE = re.compile(rf"({_NAME})\s*(?:-|\s)\s*({_NAME})")
_SETTINGS = ("inlet", "outlet", "wrenches", "closed")


@dataclass(frozen=True)
class Board:
    """A valves puzzle: pipes between named points, the inlet, the outlet, the wrenches the
    player has, and the valves already closed (each holding one of those wrenches)."""

    pipes: tuple[tuple[str, str], ...]
    inlet: str = DEFAULT_INLET
    outlet: str = DEFAULT_OUTLET
    wrenches: int = DEFAULT_WRENCHES
    closed: frozenset[str] = field(default_factory=frozenset)

    def __post_init__(self) -> None:
        object.__setattr__(self, "pipes", tuple((a, b) for a, b in self.pipes))
        object.__setattr__(self, "closed", frozenset(self.closed))
        _check(self.pipes, self.inlet, self.outlet, self.wrenches, self.closed, {})

    @property
    def points(self) -> tuple[str, ...]:
        """Every point, in order of first appearance in the pipes."""
        return tuple(dict.fromkeys(p for pipe in self.pipes for p in pipe))

    @property
    def valves(self) -> tuple[str, ...]:
        """The points a wrench can close: all but the inlet and the outlet."""
        return tuple(p for p in self.points if p not in (self.inlet, self.outlet))

    @property
    def size(self) -> str:
        """The board's size for people (how many points the pipes join)."""
        return f"{len(self.points)} points"

    @classmethod
    def from_text(cls, text: str) -> "Board":
        """Read lines ``A B`` / ``A-B`` (pipes), ``inlet: X``, ``outlet: Y``, ``wrenches: 3``,
        ``closed: A B``; ``#`` starts a comment. Rows may be separated by ``/``."""
        rows = split_rows(text)
        lines = text.replace("\r\n", "\n").replace("/", "\n").split("\n")
        first = next(i for i, line in enumerate(lines) if line.strip())   # split_rows drops blank lines
        settings: dict[str, str] = {}
        where: dict[str, int] = {}
        closed: list[str] = []
        pipes: dict[frozenset[str], tuple[str, str]] = {}
        for number, raw in enumerate(rows, start=first + 1):
            line = raw.split("#", 1)[0].strip()
            if not line:
                continue
            setting = _SETTING.fullmatch(line)
            if setting:
                key, value = setting.group(1).lower(), setting.group(2).strip()
                if key not in _SETTINGS:
                    raise BoardError(f"unknown setting {key!r} (settings: {', '.join(_SETTINGS)})", number)
                if key == "closed":
                    names = value.replace(",", " ").split()
                    bad = [n for n in names if not re.fullmatch(_NAME, n)]
                    if bad or not names:
                        raise BoardError(f"closed: expects valve names, got {value!r}", number)
                    closed += names
                    where.update({f"closed {n}": number for n in names})
                    continue
                if key in settings:
                    raise BoardError(f"{key} is given twice (lines {where[key]} and {number})", number)
                settings[key], where[key] = value, number
                continue
            pipe = _PIPE.fullmatch(line)
            if not pipe:
                raise BoardError(f"expected a pipe 'A B' or 'A-B' or a setting 'name: value', got {line!r}", number)
            a, b = pipe.groups()
            if a == b:
                raise BoardError(f"pipe {a}-{b} joins a point to itself", number)
            key2 = frozenset((a, b))
            if key2 in pipes:
                raise BoardError(f"pipe {a}-{b} is given twice", number)
            pipes[key2] = (a, b)
        for key in ("inlet", "outlet"):
            if key in settings and not re.fullmatch(_NAME, settings[key]):
                raise BoardError(f"{key}: expects one point name, got {settings[key]!r}", where[key])
        wrenches = DEFAULT_WRENCHES
        if "wrenches" in settings:
            try:
                wrenches = int(settings["wrenches"])
            except ValueError:
                raise BoardError(f"wrenches: expects a whole number, got {settings['wrenches']!r}", where["wrenches"]) from None
        values = dict(pipes=tuple(pipes.values()), inlet=settings.get("inlet", DEFAULT_INLET),
                      outlet=settings.get("outlet", DEFAULT_OUTLET), wrenches=wrenches,
                      closed=frozenset(closed))
        _check(**values, where=where)       # before building, so the message names the line
        return cls(**values)

    def to_text(self) -> str:
        """The board in the canonical text form (settings first, then one pipe a line)."""
        head = [f"inlet: {self.inlet}", f"outlet: {self.outlet}", f"wrenches: {self.wrenches}"]
        if self.closed:
            head.append("closed: " + " ".join(sorted(self.closed)))
        return "\n".join(head + [f"{a} {b}" for a, b in self.pipes])


def _check(pipes: tuple[tuple[str, str], ...], inlet: str, outlet: str, wrenches: int,
           closed: frozenset[str], where: dict[str, int]) -> None:
    """The rules a board obeys beyond its syntax; ``where`` names the line of each setting."""
    if not pipes:
        raise BoardError("the board has no pipes")
    if len(pipes) > MAX_PIPES:
        raise BoardError(f"the board is too large: {len(pipes):,} pipes, more than the {MAX_PIPES:,} this solver takes")
    ends = min(sum(inlet in pipe for pipe in pipes), sum(outlet in pipe for pipe in pipes))
    if ends * len(pipes) > MAX_FLOW_WORK:
        raise BoardError(f"the board is too large: up to {ends:,} valves to close among {len(pipes):,} pipes "
                         f"(this solver takes pipes × the pipes at the inlet or outlet up to {MAX_FLOW_WORK:,})")
    points = {p for pipe in pipes for p in pipe}
    for key, name in (("inlet", inlet), ("outlet", outlet)):
        if name not in points:
            given = "" if key in where else " (the default)"
            raise BoardError(f"{key} {name}{given} is on no pipe", where.get(key))
    if inlet == outlet:
        raise BoardError(f"inlet and outlet are the same point {inlet}", where.get("outlet"))
    if wrenches < 0:
        raise BoardError(f"wrenches must be 0 or more, not {wrenches}", where.get("wrenches"))
    if len(closed) > wrenches:
        raise BoardError(f"{len(closed)} valve{'s are' if len(closed) != 1 else ' is'} closed but there "
                         f"{'is only 1 wrench' if wrenches == 1 else f'are only {wrenches} wrenches'}",
                         where.get("wrenches"))
    for name in sorted(closed):
        line = where.get(f"closed {name}")
        if name in (inlet, outlet):
            raise BoardError(f"closed: {name} is the {'inlet' if name == inlet else 'outlet'}, which cannot be closed", line)
        if name not in points:
            raise BoardError(f"closed: {name} is on no pipe", line)


# ------------------------------------------------------------------------------ the flow

class _Flow:
    """Maximum flow on the split graph of a board, by breadth-first augmenting paths.

    Split node ``2*i`` is point i's in-half, ``2*i + 1`` its out-half, joined by an arc of
    capacity 1 for every open valve; pipes are arcs of unlimited capacity. The source is the
    inlet's out-half, the sink the outlet's in-half: no arc leads into the inlet or out of the
    outlet, and closed valves have no pipes at all.

    Arcs are numbered in pairs, arc ``a`` and its reverse ``a ^ 1`` (capacity 0), with the
    node each leads to (``head``), its capacity and its flow in flat lists; ``out[u]`` lists
    the arcs leaving node u. Every augmenting path carries one unit (a valve arc lies on it:
    a pipe joining inlet and outlet is caught before), so a breadth-first search per unit
    of flow is Edmonds–Karp, and the flow is at most the inlet's number of pipes.
    """

    def __init__(self, board: Board) -> None:
        self.names = list(board.points)
        index = {name: i for i, name in enumerate(self.names)}
        self.s, self.t = index[board.inlet], index[board.outlet]
        self.source, self.sink = 2 * self.s + 1, 2 * self.t
        self.joined = False             # a pipe joins inlet and outlet: no valve can help
        self.value = 0                  # the maximum flow: the least number of valves to close
        self.head: list[int] = []
        self.cap: list[int] = []
        self.out: list[list[int]] = [[] for _ in range(2 * len(self.names))]
        unlimited = 2 * len(self.names) + 1        # more than any flow
        for a, b in board.pipes:
            if a in board.closed or b in board.closed:
                continue
            i, j = index[a], index[b]
            self.joined |= {i, j} == {self.s, self.t}
            for u, v in ((i, j), (j, i)):
                if v != self.s and u != self.t:
                    self._arc(2 * u + 1, 2 * v, unlimited)
        for i, name in enumerate(self.names):
            if i not in (self.s, self.t) and name not in board.closed:
                self._arc(2 * i, 2 * i + 1, 1)
        self.flow = [0] * len(self.cap)

    def _arc(self, u: int, v: int, capacity: int) -> None:
        self.out[u].append(len(self.head))
        self.head += [v, u]
        self.cap += [capacity, 0]
        self.out[v].append(len(self.head) - 1)

    def _room(self) -> list[list[int]]:
        """Each node's successors in the residual network (arcs with room left; none out
        of the sink: it is never left)."""
        head, cap, flow = self.head, self.cap, self.flow
        return [[] if u == self.sink else [head[a] for a in arcs if flow[a] < cap[a]]
                for u, arcs in enumerate(self.out)]

    def run(self) -> set[int]:
        """Push the maximum flow; the split nodes the source reaches in the residual network."""
        head, cap, flow, out = self.head, self.cap, self.flow, self.out
        while True:
            via = {self.source: -1}         # node → the arc it was reached by
            frontier = [self.source]
            while frontier and self.sink not in via:
                reached = []
                for u in frontier:
                    for a in out[u]:
                        v = head[a]
                        if v not in via and flow[a] < cap[a]:
                            via[v] = a
                            reached.append(v)
                frontier = reached
            if self.sink not in via:
                return set(via)
            v = self.sink
            while v != self.source:
                a = via[v]
                flow[a] += 1
                flow[a ^ 1] -= 1
                v = head[a ^ 1]
            self.value += 1

    def paths(self) -> list[list[int]]:
        """The flow as inlet→outlet paths of valves (flow cycles, if any, are left out)."""
        found = []
        for node in sorted(self._onward(self.source)):
            path = []
            while node != self.sink:
                path.append(node >> 1)
                (node,) = self._onward(node + 1)
            found.append(path)
        return found

    def _onward(self, out_half: int) -> list[int]:
        """The in-halves a unit of flow goes to from an out-half."""
        return [self.head[a] for a in self.out[out_half] if self.flow[a] > 0]


def _components(succ: list[list[int]]) -> tuple[list[int], int]:
    """The strongly connected components of a directed graph given as successor lists:
    each node's component number, and how many there are. Tarjan's algorithm without
    recursion; it numbers a component after every component it reaches, so numbers run
    against the arcs (from sinks up)."""
    n = len(succ)
    index, low, comp = [-1] * n, [0] * n, [-1] * n
    stack: list[int] = []
    on_stack = [False] * n
    counter = count = 0
    for root in range(n):
        if index[root] >= 0:
            continue
        work = [(root, 0)]
        while work:
            v, i = work[-1]
            if i == 0:
                index[v] = low[v] = counter
                counter += 1
                stack.append(v)
                on_stack[v] = True
            if i < len(succ[v]):
                work[-1] = (v, i + 1)
                w = succ[v][i]
                if index[w] < 0:
                    work.append((w, 0))
                elif on_stack[w]:
                    low[v] = min(low[v], index[w])
                continue
            work.pop()
            if work:
                u = work[-1][0]
                low[u] = min(low[u], low[v])
            if low[v] == index[v]:
                while True:
                    w = stack.pop()
                    on_stack[w] = False
                    comp[w] = count
                    if w == v:
                        break
                count += 1
    return comp, count


def _every_cut(flow: _Flow, limit: int) -> tuple[list[list[int]], bool]:
    """Every minimum cut (as point indices), the one nearest the inlet first, and whether
    the list stopped at ``limit``. See the module docstring for why this lists each once."""
    paths = flow.paths()
    members = [v for path in paths for v in path]
    bit = {2 * v: 1 << k for k, v in enumerate(members)}     # in-halves of flow valves
    succ = flow._room()
    scc, count = _components(succ)
    own = [0] * count
    for node, c in enumerate(scc):
        own[c] |= bit.get(node, 0)
    after: list[set[int]] = [set() for _ in range(count)]    # the component DAG's arcs
    before: list[set[int]] = [set() for _ in range(count)]
    for u, vs in enumerate(succ):
        for v in vs:
            if scc[u] != scc[v]:
                after[scc[u]].add(scc[v])
                before[scc[v]].add(scc[u])
    down = [0] * count          # flow in-halves each component reaches
    sinkward = [False] * count
    for c in range(count):      # numbered from the sinks up: successors come first
        down[c] = own[c] | _union(down[d] for d in after[c])
        sinkward[c] = scc[flow.sink] == c or any(sinkward[d] for d in after[c])
    up = [0] * count            # flow in-halves that reach each component
    for c in reversed(range(count)):
        up[c] = own[c] | _union(up[d] for d in before[c])

    size = len(members)
    down_of = [down[scc[2 * v]] for v in members]
    up_of = [up[scc[2 * v]] for v in members]
    last_bit = []
    start = 0
    for path in paths:
        last_bit.append(((1 << len(path)) - 1) << start)
        start += len(path)
    full = (1 << size) - 1
    excluded = _union(1 << k for k, v in enumerate(members) if sinkward[scc[2 * v]])
    cuts: list[list[int]] = []
    stack = [(down[scc[flow.source]], excluded)]
    while stack:
        inc, exc = stack.pop()
        free = full & ~(inc | exc)
        if free:
            k = (free & -free).bit_length() - 1
            stack.append((inc | down_of[k], exc))
            stack.append((inc, exc | up_of[k]))     # popped first: nearest the inlet first
            continue
        cuts.append([members[(inc & mask).bit_length() - 1] for mask in last_bit])
        if len(cuts) >= limit:
            return cuts, bool(stack)
    return cuts, False


def _union(masks: Any) -> int:
    total = 0
    for m in masks:
        total |= m
    return total


# ----------------------------------------------------------------------------- solving

@contextmanager
def _collector_paused() -> Iterator[None]:
    """Python's cycle collector paused: building a big graph's tens of thousands of lists
    sets off full collections that find nothing to free (with networkx's arc dicts they
    cost more than half of a 10,000-point solve, 0.70 → 0.27 s CPU measured)."""
    was_on = gc.isenabled()
    gc.disable()
    try:
        yield
    finally:
        if was_on:
            gc.enable()


def solve(board: Board, wrenches: int | None = None, all: bool = False) -> SolveResult:  # noqa: A002 (the CLI's option name)
    """The fewest valves to close (sorted names), or why it cannot be done with the wrenches
    left. ``wrenches`` overrides the board's; ``all`` lists every minimum answer in
    ``extra["solutions"]`` (the solution is the first, the answer nearest the inlet)."""
    total = board.wrenches if wrenches is None else wrenches
    if total < 0:   # the board's own wrenches were checked when it was made: the option is wrong
        raise OptionError(f"the wrenches must be 0 or more, not {total}")
    if total < len(board.closed):
        raise OptionError(f"{len(board.closed)} valves are closed, so there are at least as many "
                         f"wrenches, not {total}")
    left = total - len(board.closed)
    with _collector_paused():
        flow = _Flow(board)
        stats: dict[str, Any] = {"points": len(flow.names), "pipes": len(board.pipes), "wrenches_left": left}
        if flow.joined:
            return SolveResult(False, reason="inlet and outlet are joined by a pipe", stats=stats)
        reached = flow.run()
    cut = sorted(flow.names[i] for i in range(len(flow.names))
                 if 2 * i in reached and 2 * i + 1 not in reached)
    need = len(cut)
    stats.update(flow=flow.value)
    if need > left:
        more = "more " if board.closed else ""
        held = f", {len(board.closed)} on closed valves" if board.closed else ""
        valves = "valve is" if need == 1 else "valves are"
        return SolveResult(False, reason=f"at least {need} {more}{valves} needed "
                                         f"(wrenches: {total}{held})", stats=stats)
    result = SolveResult(True, solution=cut, moves=need, stats=stats)
    if all:
        cuts, truncated = _every_cut(flow, MAX_ANSWERS)
        answers = [sorted(flow.names[i] for i in c) for c in cuts]
        result.solution = answers[0]
        result.extra["solutions"] = answers
        stats.update(answers=len(answers), truncated=truncated)
        if truncated:
            result.extra["solutions_truncated"] = True
    return result


# ------------------------------------------------------------------------------ checking

def validate(board: Board, solution: Any) -> list[str]:
    """What is wrong with closing the valves ``solution`` (a list of names) on this board,
    by the rules alone: each a valve, open, at most the wrenches left, and no water path
    from the inlet to the outlet afterwards. Empty when it is a valid answer (minimality is
    not a rule: the tests check it by search)."""
    if not isinstance(solution, list) or not all(isinstance(v, str) for v in solution):
        return [f"a solution is a list of valve names, not {solution!r}"]
    problems = []
    pipes_of: dict[str, set[str]] = {}
    for a, b in board.pipes:
        pipes_of.setdefault(a, set()).add(b)
        pipes_of.setdefault(b, set()).add(a)
    for name in solution:
        if name not in pipes_of:
            problems.append(f"{name} is not a point of the board")
        elif name in (board.inlet, board.outlet):
            problems.append(f"{name} is the {'inlet' if name == board.inlet else 'outlet'} and cannot be closed")
        elif name in board.closed:
            problems.append(f"{name} is already closed")
    if len(set(solution)) != len(solution):
        problems.append("a valve is closed twice")
    left = board.wrenches - len(board.closed)
    if len(solution) > left:
        problems.append(f"{len(solution)} valves closed but only {left} wrenches left")
    shut = set(solution) | set(board.closed)
    came_from: dict[str, str | None] = {board.inlet: None}
    todo = [board.inlet]
    while todo:
        here = todo.pop()
        for there in pipes_of.get(here, ()):
            if there not in came_from and there not in shut:
                came_from[there] = here
                todo.append(there)
    if board.outlet in came_from:
        route = [board.outlet]
        while came_from[route[-1]] is not None:
            route.append(came_from[route[-1]])
        problems.append("water still flows: " + "-".join(reversed(route)))
    return problems


def show(board: Board, solution: list[str]) -> str:
    """The answer for people: which valves to close, and what that leaves."""
    if not solution:
        return f"nothing to close: no water reaches {board.outlet} from {board.inlet}"
    left = board.wrenches - len(board.closed) - len(solution)
    return (f"close {len(solution)} valve{'s' if len(solution) != 1 else ''}: {', '.join(solution)}"
            f"  ({left} wrench{'es' if left != 1 else ''} left after that)\n"
            + "".join(f"  {k}. close {name}\n" for k, name in enumerate(solution, start=1)) +
            f"water from {board.inlet} no longer reaches {board.outlet}")
