"""Ring battles (Paper Mario: The Origami King): line the enemies up within a move budget.

Vocabulary: the arena has 4 *rings* (0 outer … 3 inner) × 12 *slices* (0 at 9 o'clock,
clockwise); a *column* is the 4 cells of one slice. A *rotate* turns one ring, a *slide*
shifts the 8 cells of a *line* (slice i and slice i+6 through the centre). The 86 moves
(44 rotations, 42 slides) are listed in ``MOVES``.

A position is a 48-bit int, bit ``4 * slice + ring`` (slice-major: one nibble per column),
so turning the whole arena is a 48-bit rotation and mirror images are cheap to fold:

- strict goal: every column is empty, full (a line) or holds exactly the 2 inner rings,
  and those inner pairs tile into neighbouring pairs of slices (blocks) around the circle;
  a 6-byte table lookup gives both facts at once;
- attacks goal: the columns with an enemy in rings 0–1 need a line each, the rest of the
  inner enemies need one attack per two neighbouring slices, summing to ≤ ceil(n/4);
- moves are applied to whole numpy arrays of positions through per-move byte tables
  (each move is a permutation of bits; 6 lookups per move);
- the search is meet-in-the-middle by depth: positions at exactly ``a`` moves from the
  start (breadth-first levels, deduplicated) against positions exactly ``b`` moves from a
  goal (levels grown backwards from every goal, which is possible because the strict goal
  set is small: at most 8,580 positions for a given enemy count), ``a + b = d`` chosen per
  depth to keep both sides small. Both sides are folded to one representative under the
  24 turns and mirror images of the arena, which the rules and the move set respect.
  Depth d is searched only after d − 1 failed, so the first meeting is a shortest answer.
With a multiple of 4 enemies the attacks rule is the strict rule (n/4 attacks of 4 cells
can only cover n enemies with disjoint full groups). Otherwise its goals are listed for up
to 7 enemies (2 attacks) and met the same way; beyond, the goal set is too large to list,
so it searches forwards only (goal test on every position of the last level), up to 4
moves, and says so when the budget is larger.
"""
from __future__ import annotations

import itertools
import math
import random
from dataclasses import dataclass
from functools import lru_cache
from typing import Any

import numpy as np

from solvers import tables
from solvers.common import BoardError, SolveResult, split_rows

RINGS, SLICES = 4, 12
DEFAULT_BUDGET = 3
MAX_BUDGET = 5
FORWARD_ONLY_DEPTH = 4    # forward-only search (attacks, n % 4 != 0) stores level 3 at most
ATTACK_GOALS_UP_TO = 2    # attacks: goal positions are listed (for meeting) up to this many attacks
RULES = ("strict", "attacks")
TABLES_VERSION = 1        # of the move tables and backward levels in the table cache
STORED_LEVELS = 2         # backward levels kept in the table cache (level 2: ~135,000 positions, 2 MB)
STORED_FILES = 16         # backward level files kept (the most recent enemy counts and rules)
LOAD_SPEEDUP = 25         # loading a stored backward level is ~25x quicker per position than growing a level
EMPTY = "."


@dataclass(frozen=True)
class Move:
    """One ring move: ``op`` "rotate" (``index`` = ring, steps −5..6, > 0 clockwise) or
    "slide" (``index`` = line 0..5, steps 1..7, toward the centre from slice ``index``)."""

    op: str
    index: int
    steps: int

    def to_json(self) -> dict[str, Any]:
        key = "ring" if self.op == "rotate" else "line"
        return {"op": self.op, key: self.index, "steps": self.steps}


MOVES: tuple[Move, ...] = tuple(
    [Move("rotate", r, k) for r in range(RINGS) for k in range(-5, 7) if k]
    + [Move("slide", i, k) for i in range(SLICES // 2) for k in range(1, 8)])


@dataclass(frozen=True)
class Board:
    """An arena: ``cells[ring][slice]`` is "." or an enemy letter; ``budget`` is the
    board's ``moves:`` line (None when the text had none: the default 3 applies)."""

    cells: tuple[str, ...]
    budget: int | None = None

    @property
    def size(self) -> str:
        """The board's size for people (how many enemies stand on it)."""
        return f"{sum(ch != '.' for ring in self.cells for ch in ring)} enemies"

    @classmethod
    def from_text(cls, text: str) -> "Board":
        """Read an optional ``moves: N`` line, then 4 lines of 12 characters (outer ring
        first; "." empty, a letter an enemy), separated by newlines or ``/``."""
        lines = split_rows(text)
        budget = None
        first = 1
        if lines[0].strip().lower().startswith("moves"):
            head, _, value = lines[0].partition(":")
            if head.strip().lower() != "moves" or not (value.strip().isascii() and value.strip().isdigit()):
                raise BoardError("expected 'moves: N' with N a whole number", line=1)
            budget = int(value)
            lines, first = lines[1:], 2
        if len(lines) != RINGS:
            raise BoardError(f"expected {RINGS} ring lines of {SLICES} characters, got {len(lines)}")
        for r, line in enumerate(lines):
            if len(line) != SLICES:
                raise BoardError(f"ring {r} has {len(line)} characters, expected {SLICES}", line=first + r)
            for s, ch in enumerate(line):
                if ch != EMPTY and not ch.isalpha():
                    raise BoardError(f"column {s + 1}: unexpected character {ch!r} "
                                     "(use '.' for an empty cell, a letter for an enemy)", line=first + r)
        return cls(tuple(lines), budget)

    def to_text(self) -> str:
        head = [f"moves: {self.budget}"] if self.budget is not None else []
        return "\n".join(head + list(self.cells))

    def relabelled(self) -> "Board":
        """The board as the vision reads it: every enemy an ``x`` (the rules treat all alike)."""
        return Board(tuple("".join(EMPTY if ch == EMPTY else "x" for ch in line) for line in self.cells), self.budget)

    @property
    def enemies(self) -> int:
        return sum(ch != EMPTY for line in self.cells for ch in line)

    def bits(self) -> int:
        """The enemies as a position (bit ``4 * slice + ring``)."""
        return sum(1 << (4 * s + r) for r, line in enumerate(self.cells)
                   for s, ch in enumerate(line) if ch != EMPTY)


# ---------------------------------------------------------------------------- tables

def _line_cells(line: int) -> list[tuple[int, int]]:
    """(ring, slice) along a line from slice ``line``'s outer cell to slice line+6's."""
    return [(r, line) for r in range(RINGS)] + [(r, line + 6) for r in reversed(range(RINGS))]


def _permutation(move: Move) -> list[int]:
    """Where each bit goes under a move."""
    dest = list(range(48))
    if move.op == "rotate":
        r = move.index
        for s in range(SLICES):
            dest[4 * s + r] = 4 * ((s + move.steps) % SLICES) + r
    else:
        cells = _line_cells(move.index)
        for p, (r, s) in enumerate(cells):
            r2, s2 = cells[(p + move.steps) % 8]
            dest[4 * s + r] = 4 * s2 + r2
    return dest


def _byte_tables(perms: list[list[int]]) -> np.ndarray:
    """tables[m, j, v]: the image of byte j holding v under permutation m (uint64)."""
    dest = np.array(perms, dtype=np.uint64).reshape(len(perms), 6, 1, 8)
    values = np.arange(256, dtype=np.uint64)[:, None]
    bits = (values >> np.arange(8, dtype=np.uint64)) & np.uint64(1)     # (256, 8)
    return np.bitwise_or.reduce(bits << dest, axis=-1)


def _pair_covers(masks: np.ndarray) -> np.ndarray:
    """Fewest attacks of 1 or 2 neighbouring slices covering the slices of each 12-bit mask:
    turned so that an empty slice comes last, the runs are linear and each run of r
    slices needs ceil(r / 2); a full circle needs 6."""
    gap = np.log2(~masks & (masks + 1) & 0xFFF | (masks == 0xFFF)).astype(np.int64)   # lowest empty slice
    turned = ((masks >> (gap + 1)) | (masks << (SLICES - 1 - gap))) & 0xFFF
    total, run = np.zeros_like(masks), np.zeros_like(masks)
    for s in range(SLICES):
        bit = (turned >> s) & 1
        total += np.where(bit == 0, (run + 1) // 2, 0)
        run = np.where(bit == 1, run + 1, 0)
    return np.where(masks == 0xFFF, 6, total)


@dataclass(frozen=True)
class _Tables:
    moves: np.ndarray        # (86, 6, 256) byte tables of the moves
    mirror: np.ndarray       # (6, 256) byte tables of slice s → −s
    strict: np.ndarray       # (256,) per byte: block bits of its 2 columns, or a flag ≥ 4096 shifted
    attack: np.ndarray       # (256,) per byte: line bits | pair bits << 12 of its 2 columns
    tile: np.ndarray         # (4096,) bool: slices that split into neighbouring pairs
    pop: np.ndarray          # (4096,) popcount
    cover: np.ndarray        # (4096,) _pair_covers
    spread: np.ndarray       # (4096,) 12-bit slice mask → bit 4s per slice


@lru_cache(maxsize=1)
def _tables() -> _Tables:
    """The move and goal tables, from the table cache (built on first use, ~15 ms)."""
    return tables.cached("rings-tables", TABLES_VERSION, _build_tables,
                         lambda t: isinstance(t, _Tables) and t.moves.shape == (len(MOVES), 6, 256))


def _build_tables() -> _Tables:
    mirror = [4 * ((-(b // 4)) % SLICES) + b % 4 for b in range(48)]
    strict = np.zeros(256, dtype=np.int64)
    attack = np.zeros(256, dtype=np.int64)
    for v in range(256):
        for half in range(2):
            col = (v >> (4 * half)) & 0xF
            if col == 0xC:
                strict[v] |= 1 << half
            elif col not in (0, 0xF):
                strict[v] |= 1 << 20         # lands at bit ≥ 20 after shifting: invalid
            if col & 0x3:
                attack[v] |= 1 << half
            elif col:
                attack[v] |= 1 << (12 + half)
    masks = np.arange(4096)
    slice_bits = (masks[:, None] >> np.arange(SLICES)) & 1
    pop = slice_bits.sum(axis=1)
    cover = _pair_covers(masks)
    return _Tables(
        moves=_byte_tables([_permutation(m) for m in MOVES]),
        mirror=_byte_tables([mirror])[0],
        strict=strict, attack=attack,
        tile=2 * cover == pop,    # a pair cover without overlaps is a tiling
        pop=pop, cover=cover,
        spread=(slice_bits.astype(np.uint64) << (4 * np.arange(SLICES, dtype=np.uint64))).sum(axis=1, dtype=np.uint64))


# ---------------------------------------------------------------------------- array operations

_U8 = np.uint64(0xFF)
_MASK48 = np.uint64((1 << 48) - 1)


def _apply(tables: np.ndarray, states: np.ndarray) -> np.ndarray:
    """Every table (a permutation of bits) applied to every state: shape (len(tables), n)."""
    out = tables[:, 0, states & _U8]
    for j in range(1, 6):
        out |= tables[:, j, (states >> np.uint64(8 * j)) & _U8]
    return out


def _strict_goal(states: np.ndarray) -> np.ndarray:
    t = _tables()
    acc = np.zeros(states.shape, dtype=np.int64)
    for j in range(6):
        acc |= t.strict[((states >> np.uint64(8 * j)) & _U8).astype(np.intp)] << (2 * j)
    return (acc < 4096) & t.tile[acc & 4095]


def _attack_count(states: np.ndarray) -> np.ndarray:
    """Fewest line/block attacks that hit every enemy of each state."""
    t = _tables()
    acc = np.zeros(states.shape, dtype=np.int64)
    for j in range(6):
        acc |= t.attack[((states >> np.uint64(8 * j)) & _U8).astype(np.intp)] << (2 * j)
    lines, pairs = acc & 4095, acc >> 12
    return t.pop[lines] + t.cover[pairs]


def _canon(states: np.ndarray) -> np.ndarray:
    """The least image of each state under the 12 turns of the arena and their mirrors."""
    mirrored = _apply(_tables().mirror[None], states)[0]
    best = np.minimum(states, mirrored)
    for k in range(1, SLICES):
        left, right = np.uint64(4 * k), np.uint64(48 - 4 * k)
        for s in (states, mirrored):
            best = np.minimum(best, ((s << left) | (s >> right)) & _MASK48)
    return best


# Sorting beats np.unique here: numpy 2's hash-based unique is ~20× slower on uint64.
def _firsts(ranked: np.ndarray) -> np.ndarray:
    """Mask of the first of each run of equal values in a sorted array."""
    return np.concatenate(([True], ranked[1:] != ranked[:-1])) if len(ranked) else np.zeros(0, bool)


def _unique(values: np.ndarray) -> np.ndarray:
    ranked = np.sort(values)
    return ranked[_firsts(ranked)]


def _member(values: np.ndarray, sorted_set: np.ndarray) -> np.ndarray:
    """Which values are in a sorted array (binary search; no sort of the values)."""
    if not len(sorted_set):
        return np.zeros(values.shape, dtype=bool)
    idx = np.minimum(np.searchsorted(sorted_set, values), len(sorted_set) - 1)
    return sorted_set[idx] == values


def _strict_goals(enemies: int) -> np.ndarray:
    """Every strict goal position with that many enemies: lines on a set of k slices, blocks
    tiling a set of (enemies − 4k) / 2 inner pairs elsewhere."""
    t = _tables()
    tiles = np.flatnonzero(t.tile)
    found = []
    for k in range(min(SLICES, enemies // 4) + 1):
        lines = np.flatnonzero(t.pop == k)[:, None]
        pairs = tiles[t.pop[tiles] * 2 == enemies - 4 * k][None, :]
        li, ti = np.nonzero((lines & pairs) == 0)
        found.append(t.spread[lines[li, 0]] * np.uint64(0xF) | t.spread[pairs[0, ti]] * np.uint64(0xC))
    return np.concatenate(found)


def _attack_goals(enemies: int) -> np.ndarray:
    """Every position whose enemies ceil(n/4) attacks can hit, listed as n cells out of
    the union of that many lines or blocks (small attack counts only: the list grows as
    C(24, attacks) · C(4 · attacks, n))."""
    attacks = -(-enemies // 4)
    lines = [sum(1 << (4 * s + r) for r in range(RINGS)) for s in range(SLICES)]
    blocks = [sum(1 << (4 * (t % SLICES) + r) for r in (2, 3) for t in (s, s + 1)) for s in range(SLICES)]
    found = set()
    for chosen in itertools.combinations_with_replacement(lines + blocks, attacks):
        union = 0
        for group in chosen:
            union |= group
        cells = [1 << b for b in range(48) if union >> b & 1]
        found.update(sum(pick) for pick in itertools.combinations(cells, enemies))
    return np.array(sorted(found), dtype=np.uint64)


# ---------------------------------------------------------------------------- search

@dataclass
class _Level:
    states: np.ndarray       # uint64 positions first reached at this depth
    parent: np.ndarray       # index into the previous level
    move: np.ndarray         # index into MOVES
    canon: np.ndarray | None = None


class _Forward:
    """Breadth-first levels from the start, each state once, with the move that made it."""

    def __init__(self, start: int) -> None:
        s = np.array([start], dtype=np.uint64)
        self.levels = [_Level(s, np.zeros(1, np.intp), np.zeros(1, np.intp))]
        self.seen = s

    def level(self, depth: int) -> _Level:
        while len(self.levels) <= depth:
            prev = self.levels[-1].states
            grown = _apply(_tables().moves, prev).ravel()
            order = np.argsort(grown, kind="stable")      # stable: the first move reaching a state
            ranked = grown[order]
            keep = _firsts(ranked)
            states, first = ranked[keep], order[keep]
            fresh = ~_member(states, self.seen)
            states, first = states[fresh], first[fresh]
            move, parent = np.divmod(first, len(prev))
            self.levels.append(_Level(states, parent, move))
            self.seen = np.sort(np.concatenate((self.seen, states)))
        return self.levels[depth]

    def canon(self, depth: int) -> np.ndarray:
        lvl = self.level(depth)
        if lvl.canon is None:
            lvl.canon = _canon(lvl.states)
        return lvl.canon

    def path(self, depth: int, index: int) -> list[int]:
        moves = []
        for d in range(depth, 0, -1):
            lvl = self.levels[d]
            moves.append(int(lvl.move[index]))
            index = int(lvl.parent[index])
        return moves[::-1]

    @property
    def size(self) -> int:
        return sum(len(lvl.states) for lvl in self.levels)


@lru_cache(maxsize=4)
def _backward(enemies: int, rule: str) -> "_Backward":
    """The backward levels for an enemy count and rule, kept between solves (a live loop
    solves the same count again and again) and, up to ``STORED_LEVELS``, in the table
    cache between processes."""
    goals = _unique(_canon(_strict_goals(enemies) if rule == "strict" else _attack_goals(enemies)))
    return _Backward(f"rings-backward-{rule}-{enemies}", goals)


class _Backward:
    """Levels of symmetry representatives at exactly b moves from a goal, and all of them
    sorted (``seen``). Level b is taken from the table cache (file ``NAME-b``, holding the
    level and ``seen`` through it) when it is there, else grown and stored."""

    def __init__(self, name: str, goals: np.ndarray) -> None:
        self.name = name
        self.levels = [goals]
        self.seen = goals

    def ready(self, depth: int) -> bool:
        """Level ``depth`` is at hand: grown already, or it and the levels before it are
        in the table cache."""
        return depth < len(self.levels) or depth <= STORED_LEVELS and all(
            tables.path_of(f"{self.name}-{d}", TABLES_VERSION).is_file() for d in range(len(self.levels), depth + 1))

    def level(self, depth: int) -> np.ndarray:
        while len(self.levels) <= depth:
            name = f"{self.name}-{len(self.levels)}"
            stored = tables.load(name, TABLES_VERSION) if len(self.levels) <= STORED_LEVELS else None
            if _level_ok(stored, len(self.seen)):
                fresh, self.seen = stored
            else:
                grown = _unique(_canon(_apply(_tables().moves, self.levels[-1]).ravel()))
                fresh = grown[~_member(grown, self.seen)]
                self.seen = np.sort(np.concatenate((self.seen, fresh)))
                if len(self.levels) <= STORED_LEVELS:
                    tables.store(name, TABLES_VERSION, (fresh, self.seen), "rings-backward-", STORED_FILES)
            self.levels.append(fresh)
        return self.levels[depth]

    @property
    def size(self) -> int:
        return sum(len(lvl) for lvl in self.levels)


def _level_ok(stored: Any, seen_before: int) -> bool:
    """A stored (level, seen) pair of the right types, sizes adding up."""
    return (isinstance(stored, tuple) and len(stored) == 2
            and all(isinstance(a, np.ndarray) and a.dtype == np.uint64 and a.ndim == 1 for a in stored)
            and len(stored[1]) == seen_before + len(stored[0]))


def _finish(state: int, depth: int, goal: Any) -> list[int]:
    """A shortest move list (of ``depth`` moves) from a state known to be that far from a goal."""
    states = np.array([state], dtype=np.uint64)
    back: list[np.ndarray] = []
    for _ in range(depth):
        states = _apply(_tables().moves, states)
        back.append(states)
        states = states.ravel()
    hit = int(np.flatnonzero(goal(states))[0])
    moves = []
    for layer in reversed(back):
        m, hit = divmod(hit, layer.shape[1])
        moves.append(m)
    return moves[::-1]


def solve(board: Board, rule: str = "strict", moves: int | None = None) -> SolveResult:
    """A shortest list of ring moves that solves the board within the budget (``moves``,
    else the board's ``moves:`` line, else 3), or the reason there is none."""
    if rule not in RULES:
        raise BoardError(f"unknown rule {rule!r} (rules: {', '.join(RULES)})")
    budget = moves if moves is not None else board.budget if board.budget is not None else DEFAULT_BUDGET
    if not 0 <= budget <= MAX_BUDGET:
        raise BoardError(f"the move budget must be 0..{MAX_BUDGET}, got {budget}")
    n = board.enemies
    start = board.bits()
    if n % 4 and rule == "strict":
        return SolveResult(False, reason=f"{n} enemies is not a multiple of 4: no arrangement of "
                                         "full lines and blocks holds them (try --rule attacks)")
    if rule == "attacks":
        need = math.ceil(n / 4)
        goal = lambda s: _attack_count(s) <= need  # noqa: E731
    else:
        goal = _strict_goal
    forward = _Forward(start)
    stats: dict[str, Any] = {"rule": rule, "budget": budget, "enemies": n}
    if goal(np.array([start], dtype=np.uint64))[0]:
        return _result([], stats)
    if n % 4 == 0:
        backward = _backward(n, "strict")     # n/4 attacks of 4 cells: the strict goals
    elif -(-n // 4) <= ATTACK_GOALS_UP_TO:
        backward = _backward(n, "attacks")
    else:
        backward = None
    reach = budget if backward is not None else min(budget, FORWARD_ONLY_DEPTH)
    for depth in range(1, reach + 1):
        if backward is None:
            found = _forward_only(forward, depth, goal)
        else:
            found = _meet(forward, backward, depth, goal, stats)
        if found is not None:
            stats.update(forward=forward.size, backward=backward.size if backward else 0)
            return _result(found, stats)
    stats.update(forward=forward.size, backward=backward.size if backward else 0, complete=reach == budget)
    if reach < budget:
        return SolveResult(False, reason=f"no attacks solution within {reach} move{'' if reach == 1 else 's'}; deeper searches "
                                         f"are not supported for {n} enemies (not a multiple of 4)",
                           stats=stats)
    return SolveResult(False, reason=f"no {rule} solution within {budget} move{'' if budget == 1 else 's'} "
                                     "(every position that close was searched)", stats=stats)


def _estimate(sizes: list[int], depth: int) -> float:
    """The size of a level: known, or the last known one grown ~70 times per move (86
    moves, less the positions already seen)."""
    if depth < len(sizes):
        return float(sizes[depth])
    return sizes[-1] * 70.0 ** (depth - len(sizes) + 1)


def _meet(forward: _Forward, backward: _Backward, depth: int, goal: Any,
          stats: dict[str, Any]) -> list[int] | None:
    """Moves of length ``depth`` meeting a backward level, or None."""
    def cost(a: int) -> float:
        f = _estimate([len(lvl.states) for lvl in forward.levels], a)
        b = _estimate([len(lvl) for lvl in backward.levels], depth - a)
        if depth - a < len(backward.levels):
            return f
        if backward.ready(depth - a):       # a load from the table cache away
            return f + b / LOAD_SPEEDUP
        # The backward side costs a canonical fold per expansion on top.
        return f + 3 * b

    a = min(range(max(0, depth - 2), depth + 1), key=cost)
    canon = forward.canon(a)
    hits = np.flatnonzero(_member(canon, backward.level(depth - a)))
    if not len(hits):
        return None
    stats["split"] = [a, depth - a]
    index = int(hits[0])
    state = int(forward.levels[a].states[index])
    return forward.path(a, index) + _finish(state, depth - a, goal)


def _forward_only(forward: _Forward, depth: int, goal: Any) -> list[int] | None:
    """Goal test on every position reached by one more move from level depth − 1, in
    chunks (the last level is never stored)."""
    prev = forward.level(depth - 1).states
    for lo in range(0, len(prev), 4096):
        chunk = prev[lo:lo + 4096]
        grown = _apply(_tables().moves, chunk)
        hits = np.flatnonzero(goal(grown.ravel()))
        if len(hits):
            m, i = divmod(int(hits[0]), len(chunk))
            return forward.path(depth - 1, lo + i) + [m]
    return None


def _result(found: list[int], stats: dict[str, Any]) -> SolveResult:
    return SolveResult(True, solution=[MOVES[m].to_json() for m in found], moves=len(found), stats=stats)


# ---------------------------------------------------------------------------- rule checker
# Independent of the search above: a plain simulator on a list of rings written from the
# rules' text, and goal checks by backtracking over the groups.

def _groups() -> list[frozenset[tuple[int, int]]]:
    lines = [frozenset((r, s) for r in range(4)) for s in range(12)]
    blocks = [frozenset((r, t % 12) for r in (2, 3) for t in (s, s + 1)) for s in range(12)]
    return lines + blocks


def apply_move(grid: list[list[str]], move: dict[str, Any]) -> list[list[str]]:
    """The grid (``grid[ring][slice]``) after one move given as JSON: the rules' plain
    simulator, also used to draw and replay answers."""
    new = [row[:] for row in grid]
    k = move["steps"]
    if move["op"] == "rotate":
        r = move["ring"]
        for s in range(12):
            new[r][(s + k) % 12] = grid[r][s]   # clockwise = toward higher slice numbers
    else:
        i = move["line"]
        path = [(0, i), (1, i), (2, i), (3, i), (3, i + 6), (2, i + 6), (1, i + 6), (0, i + 6)]
        for p, (r, s) in enumerate(path):
            r2, s2 = path[(p + k) % 8]
            new[r2][s2] = grid[r][s]
    return new


def _exact_cover(cells: frozenset[tuple[int, int]]) -> bool:
    if not cells:
        return True
    first = min(cells)
    return any(g <= cells and _exact_cover(cells - g) for g in _groups() if first in g)


def _set_cover(cells: frozenset[tuple[int, int]], attacks: int) -> bool:
    if not cells:
        return True
    if attacks == 0:
        return False
    first = min(cells)
    return any(_set_cover(cells - g, attacks - 1) for g in _groups() if first in g)


def _move_problems(n: int, move: Any) -> list[str]:
    if not isinstance(move, dict) or move.get("op") not in ("rotate", "slide"):
        return [f"move {n}: not a rotate or slide move: {move!r}"]
    key, lo, hi, count = (("ring", -5, 6, 4) if move["op"] == "rotate" else ("line", 1, 7, 6))
    where, steps = move.get(key), move.get("steps")
    problems = []
    if set(move) != {"op", key, "steps"}:
        problems.append(f"move {n}: a {move['op']} has exactly the keys op, {key}, steps")
    if not isinstance(where, int) or isinstance(where, bool) or not 0 <= where < count:
        problems.append(f"move {n}: {key} must be 0..{count - 1}, got {where!r}")
    if not isinstance(steps, int) or isinstance(steps, bool) or not lo <= steps <= hi or steps == 0:
        problems.append(f"move {n}: steps must be {lo}..{hi} and not 0, got {steps!r}")
    return problems


def validate(board: Board, solution: Any, rule: str = "strict", moves: int | None = None) -> list[str]:
    """Every way the move list breaks the rules (empty when it solves the board): the
    moves' form, the budget, and the goal reached by replaying them."""
    if not isinstance(solution, list):
        return ["the solution must be a list of moves"]
    problems = [p for n, move in enumerate(solution, 1) for p in _move_problems(n, move)]
    if problems:
        return problems
    budget = moves if moves is not None else board.budget if board.budget is not None else 3
    if len(solution) > budget:
        problems.append(f"{len(solution)} moves exceed the budget of {budget}")
    grid = [list(line) for line in board.cells]
    for move in solution:
        grid = apply_move(grid, move)
    enemies = frozenset((r, s) for r in range(4) for s in range(12) if grid[r][s] != ".")
    if rule == "attacks":
        if not _set_cover(enemies, -(-len(enemies) // 4)):
            problems.append(f"the {len(enemies)} enemies cannot all be hit with "
                            f"{-(-len(enemies) // 4)} line or block attacks")
    elif not _exact_cover(enemies):
        problems.append("the enemies do not form disjoint full lines and blocks")
    return problems


def generate(seed: int, groups: int = 3, moves: int = 3, kinds: str = "x") -> Board:
    """A board solvable within ``moves`` (its budget): ``groups`` random disjoint lines and
    blocks of enemies (letters drawn from ``kinds``), shuffled by ``moves`` random moves
    that each change the arena."""
    rng = random.Random(seed)
    cells: set[tuple[int, int]] = set()
    for _ in range(200):
        if len(cells) == 4 * groups:
            break
        s = rng.randrange(SLICES)
        group = ({(r, s) for r in range(RINGS)} if rng.random() < 0.5
                 else {(r, t % SLICES) for r in (2, 3) for t in (s, s + 1)})
        if not group & cells:
            cells |= group
    grid = [[rng.choice(kinds) if (r, s) in cells else EMPTY for s in range(SLICES)] for r in range(RINGS)]
    left = moves
    while left and cells:
        moved = apply_move(grid, rng.choice(MOVES).to_json())
        if moved != grid:    # many moves shift only empty cells
            grid, left = moved, left - 1
    return Board(tuple("".join(row) for row in grid), moves)


def show(board: Board, solution: list[dict[str, Any]]) -> str:
    """The moves in words and the arena after them."""
    grid = [list(line) for line in board.cells]
    out = []
    for n, move in enumerate(solution, 1):
        if move["op"] == "rotate":
            way = "clockwise" if move["steps"] > 0 else "anticlockwise"
            out.append(f"{n}. rotate ring {move['ring']} {abs(move['steps'])} {way}")
        else:
            out.append(f"{n}. slide line {move['line']} (slice {move['line']} → {move['line'] + 6}) "
                       f"{move['steps']} steps")
        grid = apply_move(grid, move)
    if not solution:
        out.append("already solved: no moves needed")
    out.append("after:")
    out += ["  " + "".join(row) for row in grid]
    return "\n".join(out)
