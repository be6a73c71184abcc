"""Ring battles (Paper Mario: The Origami King): line the enemies up within a move budget.

Vocabulary: the arena has 4 *rings* (0 outer … 3 inner) × 12 *slices* (0 at 9 o'clock,
clockwise); a *column* is the 4 cells of one slice. A *rotate* turns one ring, a *slide*
shifts the 8 cells of a *line* (slice i and slice i+6 through the centre). The 86 moves
(44 rotations, 42 slides) are listed in ``MOVES``.

A position is a 48-bit int, bit ``4 * slice + ring`` (slice-major: one nibble per column),
so turning the whole arena is a 48-bit rotation and mirror images are cheap to fold:

- strict goal: every column is empty, full (a line) or holds exactly the 2 inner rings,
  and those inner pairs tile into neighbouring pairs of slices (blocks) around the circle;
  on arrays a 6-byte table lookup gives both facts at once;
- attacks goal: the columns with an enemy in rings 0–1 need a line each, the rest of the
  inner enemies need one attack per two neighbouring slices, summing to ≤ ceil(n/4);
- large levels live in ``solvers.rings_arrays``, which applies moves to whole numpy
  arrays of positions through per-move byte tables; the first depths of most searches
  (the start's first level against backward levels in the table cache, answers within 3
  moves) need only a few dozen positions and are done here on plain ints, so that such a
  solve never imports numpy (~35 ms of CPU, ~60 ms of a process's wall time);
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

import bisect
import importlib
from dataclasses import dataclass, replace
from functools import lru_cache

from solvers import tables
from solvers.common import BoardError, OptionError, SolveResult, split_rows

TYPE_CHECKING = False
if TYPE_CHECKING:     # annotations only: a command starts without typing (~2 ms)
    from typing import Any, Sequence

RINGS, SLICES = 4, 12
DEFAULT_BUDGET = 3
MAX_BUDGET = 5
FORWARD_ONLY_DEPTH = 4    # forward-only search (attacks, n % 4 != 0) stores level 3 at most
ATTACK_GOALS_UP_TO = 2    # attacks: goal positions are listed (for meeting) up to this many attacks
RULES = ("strict", "attacks")
TABLES_VERSION = 3        # of the move tables and backward levels in the table cache (3: levels as sorted tables)
STORED_LEVELS = 2         # backward levels kept in the table cache (level 2: ~135,000 positions, 2 MB)
STORED_FILES = 24         # backward level files kept (levels 0–2 of the most recent enemy counts and rules)
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
            if len(value.strip().lstrip("0")) > 3:      # Python reads no more than 4,300 digits
                raise BoardError(f"the move budget must be 0..{MAX_BUDGET}, got a number of "
                                 f"{len(value.strip()):,} digits", line=1)
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

    def numberings(self) -> frozenset["Board"]:
        """The board under every numbering of its slices: slice 0 anywhere, the numbers
        running either way (the same for every ring), as other tools and guides may write
        the board docs/games.md numbers from 9 o'clock clockwise."""
        turned = (self.cells, tuple(ring[::-1] for ring in self.cells))
        return frozenset(replace(self, cells=tuple(ring[k:] + ring[:k] for ring in cells))
                         for cells in turned for k in range(SLICES))

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


def permutation(move: Move) -> list[int]:
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


def mirror_bits() -> list[int]:
    """Where each bit goes when the arena is mirrored (slice s → −s)."""
    return [4 * ((-(b // 4)) % SLICES) + b % 4 for b in range(48)]


# ---------------------------------------------------------------------------- positions as ints
# The few positions near the start (≤ 87) are handled one by one as plain ints; the same
# functions on arrays (byte tables) are in ``solvers.rings_arrays``.

_RING_BITS = tuple(sum(1 << (4 * s + r) for s in range(SLICES)) for r in range(RINGS))
_REVERSED = (0, 8, 4, 12, 2, 10, 6, 14, 1, 9, 5, 13, 3, 11, 7, 15)    # a nibble's 4 bits in reverse order


def _image(state: int, m: int) -> int:
    """The position after move ``m`` (``permutation``'s, in a few operations on the int):
    a rotation turns ring r's bits (every fourth) by 4 bits a slice; a slide takes the
    line's 8 cells in order, slice i's nibble outer to inner then slice i+6's inner to
    outer (reversed), as one byte, and turns it by its steps."""
    move = MOVES[m]
    if move.op == "rotate":
        ring, shift = _RING_BITS[move.index], 4 * (move.steps % SLICES)
        part = state & ring
        return state & ~ring | (part << shift | part >> (4 * SLICES - shift)) & ring
    low, high = 4 * move.index, 4 * (move.index + SLICES // 2)
    line = state >> low & 0xF | _REVERSED[state >> high & 0xF] << 4
    line = (line << move.steps | line >> (8 - move.steps)) & 0xFF
    return state & ~(0xF << low | 0xF << high) | (line & 0xF) << low | _REVERSED[line >> 4] << high


_TURNS = tuple(slice(k, k + SLICES) for k in (*range(SLICES), *range(2 * SLICES, 3 * SLICES)))


def _canon(state: int) -> int:
    """The least image of the position under the 12 turns of the arena and their mirrors:
    on its 12 hex digits (one per column), a turn is a rotation of the string and the
    mirror (slice s → −s) reverses all but column 0; equal-length strings compare as the
    numbers do. The 24 images are slices (``_TURNS``) of the digits and their mirror,
    each written twice."""
    digits = f"{state:012x}"
    mirrored = digits[10::-1] + digits[11]
    return int(min(map((digits * 2 + mirrored * 2).__getitem__, _TURNS)), 16)


def _pair_cover(mask: int) -> int:
    """Fewest attacks of 1 or 2 neighbouring slices covering the slices of a 12-bit mask:
    turned so that an empty slice comes last, each run of r slices needs ceil(r / 2); a
    full circle needs 6."""
    if mask == 0xFFF:
        return 6
    gap = (~mask & (mask + 1) & 0xFFF).bit_length() - 1     # lowest empty slice
    turned = ((mask >> (gap + 1)) | (mask << (SLICES - 1 - gap))) & 0xFFF
    total = run = 0
    for s in range(SLICES):
        if turned >> s & 1:
            run += 1
        else:
            total, run = total + (run + 1) // 2, 0
    return total


def _strict_goal(state: int) -> bool:
    """Every column empty, full or the 2 inner rings, those inner pairs tiling into blocks."""
    blocks = 0
    for s in range(SLICES):
        col = state >> 4 * s & 0xF
        if col == 0xC:
            blocks |= 1 << s
        elif col not in (0, 0xF):
            return False
    return 2 * _pair_cover(blocks) == blocks.bit_count()


def _attack_count(state: int) -> int:
    """Fewest line/block attacks that hit every enemy: a line per column with an enemy in
    rings 0–1, blocks for the inner rest."""
    lines = pairs = 0
    for s in range(SLICES):
        col = state >> 4 * s & 0xF
        if col & 0x3:
            lines |= 1 << s
        elif col:
            pairs |= 1 << s
    return lines.bit_count() + _pair_cover(pairs)


def _goal(state: int, rule: str, enemies: int) -> bool:
    return _attack_count(state) <= -(-enemies // 4) if rule == "attacks" else _strict_goal(state)


def _contains(ranked: Sequence[int] | tables.Sorted, value: int) -> bool:
    """Whether a level (sorted) holds the value (binary search)."""
    if isinstance(ranked, tables.Sorted):
        return value in ranked
    i = bisect.bisect_left(ranked, value)
    return i < len(ranked) and ranked[i] == value


# ---------------------------------------------------------------------------- search

@dataclass
class ForwardLevel:
    """Positions first reached at one depth from the start (sorted), with the index of
    each one's parent in the level before and the move that made it."""

    states: list[int]
    parent: list[int]
    move: list[int]
    canon: list[int] | None = None     # the states' symmetry representatives, once asked for

    def canons(self) -> list[int]:
        if self.canon is None:
            self.canon = [_canon(state) for state in self.states]
        return self.canon


def _first_level(start: int) -> ForwardLevel:
    """The positions one move from the start, each with the first move reaching it (the
    array search's order: sorted, the lowest move index kept)."""
    first: dict[int, int] = {}
    for m in range(len(MOVES)):
        first.setdefault(_image(start, m), m)
    first.pop(start, None)
    states = sorted(first)
    return ForwardLevel(states, [0] * len(states), [first[s] for s in states])


@lru_cache(maxsize=4)
def _backward(enemies: int, rule: str, checked: bool = False) -> "Backward":
    """The backward levels for an enemy count and rule, kept between solves (a live loop
    solves the same count again and again) and, up to ``STORED_LEVELS``, in the table
    cache between processes."""
    return Backward(_backward_name(enemies, rule), enemies, rule, checked)


def _backward_name(enemies: int, rule: str) -> str:
    """The table cache's name of the backward levels of a board (``NAME-b`` for level b):
    the strict goals for a multiple of 4 enemies, whatever the rule."""
    return f"rings-backward-{'strict' if enemies % 4 == 0 else rule}-{enemies}"


class Backward:
    """Levels of symmetry representatives at exactly b moves from a goal (each sorted).
    Level b is taken from the table cache (file ``NAME-b``, a sorted table: its index
    read, and only the blocks a look-up reads are read and checked, so a solve within 3
    moves reads kilobytes of a level of megabytes) when it is there, else made by
    ``solvers.rings_arrays`` and stored. A level is a ``tables.Sorted`` when stored, a
    numpy array when made. With ``checked``, a stored level is used only when every block
    of it matches its checksum (``solve`` asks so after a block did not): a damaged one is
    made again and stored over it."""

    def __init__(self, name: str, enemies: int, rule: str, checked: bool = False) -> None:
        self.name, self.checked = name, checked
        goals = self.stored(0)
        if goals is None:
            from solvers import rings_arrays

            goals = rings_arrays.goals(enemies, rule)
            tables.store_sorted(f"{name}-0", TABLES_VERSION, goals.tobytes(), "rings-backward-", STORED_FILES)
        self.levels: list[Sequence[int] | tables.Sorted] = [goals]
        self.seen: Sequence[int] | tables.Sorted | None = goals   # every level so far, sorted (None: not made yet)

    def ready(self, depth: int) -> bool:
        """Level ``depth`` is at hand: made already, or it and the levels before it are
        in the table cache."""
        return depth < len(self.levels) or depth <= STORED_LEVELS and all(
            tables.path_of(f"{self.name}-{d}", TABLES_VERSION).is_file() for d in range(len(self.levels), depth + 1))

    def level(self, depth: int) -> Sequence[int] | tables.Sorted:
        while len(self.levels) <= depth:
            fresh = self.stored(len(self.levels))
            if fresh is None:
                from solvers import rings_arrays

                fresh, self.seen = rings_arrays.grow(self.levels, self.seen)
                if len(self.levels) <= STORED_LEVELS:
                    tables.store_sorted(f"{self.name}-{len(self.levels)}", TABLES_VERSION, fresh.tobytes(),
                                        "rings-backward-", STORED_FILES)
            else:
                self.seen = None
            self.levels.append(fresh)
        return self.levels[depth]

    def peek(self, depth: int) -> Sequence[int] | tables.Sorted | None:
        """Level ``depth`` if made, else from the table cache, not kept (None when it is
        neither)."""
        return self.levels[depth] if depth < len(self.levels) else self.stored(depth)

    def stored(self, depth: int) -> tables.Sorted | None:
        """Level ``depth`` from the table cache; None when it is not stored or its header
        is damaged (with ``checked``, any part of it)."""
        if depth > STORED_LEVELS:
            return None
        level = tables.open_sorted(f"{self.name}-{depth}", TABLES_VERSION)
        if level is not None and self.checked:
            try:
                level.values()
            except tables.Damaged:
                return None
        return level

    @property
    def size(self) -> int:
        return sum(len(lvl) for lvl in self.levels)


def _estimate(sizes: list[int], depth: int) -> float:
    """The size of a level: known, or the last known one grown ~70 times per move (86
    moves, less the positions already seen)."""
    if depth < len(sizes):
        return float(sizes[depth])
    return sizes[-1] * 70.0 ** (depth - len(sizes) + 1)


def split(depth: int, forward_sizes: list[int], backward: Backward) -> int:
    """How many of ``depth`` moves the forward side takes (the rest come from a backward
    level), chosen to keep the work small: levels known, stored or to be grown."""
    backward_sizes = [len(lvl) for lvl in backward.levels]

    def cost(a: int) -> float:
        f = _estimate(forward_sizes, a)
        # A level at hand or in the table cache costs a look-up per forward position: a
        # stored level is open and only the blocks looked up are read (the array search
        # checks all of them, ~100× quicker than growing the level).
        if depth - a < len(backward_sizes) or backward.ready(depth - a):
            return f
        # The backward side costs a canonical fold per expansion on top.
        return f + 3 * _estimate(backward_sizes, depth - a)

    return min(range(max(0, depth - 2), depth + 1), key=cost)


def _finish(state: int, depth: int, rule: str, enemies: int, backward: Backward) -> list[int]:
    """A shortest move list (``depth`` ≤ 2 moves) from a state known to be that far from a
    goal: the first in the order of (last move, …, first move), as the array search finds."""
    if depth == 0:
        return []
    if depth == 1:
        return [next(m for m in range(len(MOVES)) if _goal(_image(state, m), rule, enemies))]
    near = backward.level(1)     # a first move must land exactly 1 move from a goal
    firsts = [(m, after) for m in range(len(MOVES)) for after in (_image(state, m),)
              if _contains(near, _canon(after))]
    return next([m1, m2] for m2 in range(len(MOVES)) for m1, after in firsts
                if _goal(_image(after, m2), rule, enemies))


def _meet(forward: list[ForwardLevel], backward: Backward, a: int, b: int, rule: str, enemies: int,
          stats: dict[str, Any]) -> list[int] | None:
    """Moves of length a + b meeting backward level b from forward level a ≤ 1, or None."""
    if a == len(forward):
        forward.append(_first_level(forward[0].states[0]))
    target = backward.level(b)
    level = forward[a]
    for index, canon in enumerate(level.canons()):
        if _contains(target, canon):
            stats["split"] = [a, b]
            return ([level.move[index]] if a else []) + _finish(level.states[index], b, rule, enemies, backward)
    return None


def _meet_second(forward: list[ForwardLevel], backward: Backward, b: int, nearer: Sequence[int], rule: str,
                 enemies: int, stats: dict[str, Any]) -> list[int] | None:
    """Moves of length 2 + b meeting backward level b from forward level 2, without listing
    that level (~7,000 positions): no shorter answer exists, so the level-2 positions b
    moves from a goal all come from first-level ones b + 1 moves away (in ``nearer``,
    backward level b + 1). The answer is the array search's: the least such position,
    reached by the least (move, parent index)."""
    if len(forward) == 1:
        forward.append(_first_level(forward[0].states[0]))
    first = forward[1]
    listed = set(first.states) | {forward[0].states[0]}
    target = backward.level(b)
    best: tuple[int, int, int] | None = None
    for i, (parent, canon) in enumerate(zip(first.states, first.canons())):
        if not _contains(nearer, canon):
            continue
        for m in range(len(MOVES)):
            state = _image(parent, m)
            if state in listed or best is not None and (state, m, i) > best:
                continue
            if _contains(target, _canon(state)):
                best = (state, m, i)
    if best is None:
        return None
    state, m, i = best
    stats["split"] = [2, b]
    return [first.move[i], m] + _finish(state, b, rule, enemies, backward)


def prepare(board: Board, rule: str = "strict", moves: int | None = None) -> None:
    """Import the array search (numpy) now when the board's search is likely to go past
    the plain-int depths: a budget over 3 moves, or the attacks rule on an enemy count not
    a multiple of 4 (its goal sets are large), or the backward levels not yet in the table
    cache (the first solve of that enemy count makes them). The command line calls this
    before timing the solve, so that its solver time stays the search's and its tables',
    as when numpy came with this module."""
    budget = moves if moves is not None else board.budget if board.budget is not None else DEFAULT_BUDGET
    n = board.enemies
    if n % 4 and rule == "strict":
        return      # answered without a search
    stored = all(tables.path_of(f"{_backward_name(n, rule)}-{d}", TABLES_VERSION).is_file()
                 for d in range(STORED_LEVELS + 1))
    if budget > STORED_LEVELS + 1 or n % 4 or not stored:
        importlib.import_module("solvers.rings_arrays")


def solve(board: Board, rule: str = "strict", moves: int | None = None) -> SolveResult:
    """A shortest list of ring moves that solves the board within the budget (``moves``,
    else the board's ``moves:`` line, else 3), or the reason there is none.

    Depths whose meeting needs at most the start's first level and backward levels in
    the table cache (most boards, up to 3 moves) are searched here on plain ints; the
    rest, in turn, by ``solvers.rings_arrays`` (numpy), imported only then."""
    if rule not in RULES:
        raise OptionError(f"unknown rule {rule!r} (rules: {', '.join(RULES)})")
    budget = moves if moves is not None else board.budget if board.budget is not None else DEFAULT_BUDGET
    if not 0 <= budget <= MAX_BUDGET:   # from --moves an option's fault, from 'moves: N' the board's
        raise (BoardError if moves is None else OptionError)(f"the move budget must be 0..{MAX_BUDGET}, got {budget}")
    n = board.enemies
    start = board.bits()
    if n % 4 and rule == "strict":
        return SolveResult(False, reason=f"{n} enemies is not a multiple of 4: no arrangement of "
                                         "full lines and blocks holds them (try --rule attacks)")
    stats: dict[str, Any] = {"rule": rule, "budget": budget, "enemies": n}
    if _goal(start, rule, n):
        return _result([], stats)
    try:
        return _search(start, n, rule, budget, dict(stats), checked=False)
    except tables.Damaged:      # a stored level read part-way: check every block, make the damaged ones again
        _backward.cache_clear()
        return _search(start, n, rule, budget, stats, checked=True)


def _search(start: int, n: int, rule: str, budget: int, stats: dict[str, Any], checked: bool) -> SolveResult:
    """``solve``'s search from the start position (not a goal), its backward levels
    checked whole when ``checked``."""
    if n % 4 == 0:
        backward = _backward(n, "strict", checked)     # n/4 attacks of 4 cells: the strict goals
    elif -(-n // 4) <= ATTACK_GOALS_UP_TO:
        backward = _backward(n, "attacks", checked)
    else:
        backward = None
    reach = budget if backward is not None else min(budget, FORWARD_ONLY_DEPTH)
    forward = [ForwardLevel([start], [0], [0])]
    found, depth, listed = None, 1, 1     # listed: forward levels the array search would have by now
    while found is None and depth <= reach and backward is not None and listed <= 2:
        a = split(depth, [len(lvl.states) for lvl in forward], backward)
        b = depth - a
        if a > 2 or b > STORED_LEVELS or not backward.ready(b) or a == 2 and not backward.ready(b + 1):
            break
        if a < 2:
            found = _meet(forward, backward, a, b, rule, n, stats)
        else:
            backward.level(b)
            nearer = backward.peek(b + 1)
            if nearer is None:
                break
            found = _meet_second(forward, backward, b, nearer, rule, n, stats)
        listed = max(listed, a + 1)
        depth += 1
    forward_size = sum(len(lvl.states) for lvl in forward)
    if found is None and depth <= reach:
        from solvers import rings_arrays

        found, forward_size = rings_arrays.search(forward, listed, backward, range(depth, reach + 1), rule, n, stats)
        if backward is not None:      # made and stored if missing or damaged: the next solves need no numpy
            backward.level(STORED_LEVELS)
    stats.update(forward=forward_size, backward=backward.size if backward else 0)
    if found is not None:
        return _result(found, stats)
    stats["complete"] = reach == budget
    if reach < budget:
        return SolveResult(False, reason=f"no attacks solution within {reach} move{'' if reach == 1 else 's'}; deeper searches "
                                         f"are not supported for {n} enemies (not a multiple of 4)",
                           stats=stats)
    return SolveResult(False, reason=f"no {rule} solution within {budget} move{'' if budget == 1 else 's'} "
                                     "(every position that close was searched)", stats=stats)


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
    import random   # here: a solve does not need it

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


RING_NAMES = ("outer", "second from the outside", "second from the centre", "inner")
COUNT_WORDS = ("no", "one", "two", "three", "four", "five", "six")


def short_way(move: dict[str, Any]) -> tuple[int, str]:
    """A move's steps and way as a player makes it: a turn clockwise or anticlockwise (as
    seen from above; the game's camera shows the far side up, so the same on screen), a
    slide the short way round its 8 cells, inward or outward at slice i's end (a slide of
    5–7 steps is 3–1 steps outward there)."""
    k = move["steps"]
    if move["op"] == "rotate":
        return abs(k), "clockwise" if k > 0 else "anticlockwise"
    return (k, "inward") if k <= 4 else (8 - k, "outward")


def say(move: dict[str, Any]) -> str:
    """A move in a player's words: the ring named by where it lies, the steps written out
    and the way (``short_way``)."""
    count, way = short_way(move)
    steps = f"{COUNT_WORDS[count]} step{'' if count == 1 else 's'} {way}"
    if move["op"] == "rotate":
        return f"turn ring {move['ring']} ({RING_NAMES[move['ring']]}) {steps}"
    return f"slide line {move['line']} {steps} at slice {move['line']}"


def show(board: Board, solution: list[dict[str, Any]]) -> str:
    """The moves in a player's words (``say``), numbered, and the arena after them."""
    grid = [list(line) for line in board.cells]
    out = []
    for n, move in enumerate(solution, 1):
        out.append(f"{n}. {say(move)}")
        grid = apply_move(grid, move)
    if not solution:
        out.append("already solved: no moves needed")
    out.append("after:")
    out += ["  " + "".join(row) for row in grid]
    return "\n".join(out)
