"""The ring search on numpy arrays: the part of ``solvers.rings`` that works on thousands
to millions of positions at once (forward levels from 2 moves on, growing backward levels,
the forward-only search, goal sets).

``solvers.rings`` imports this module only when a solve needs it: most boards (answers
within 3 moves, the backward levels in the table cache) are settled on plain ints there,
quicker than numpy takes to import (~35 ms of CPU, ~60 ms of a process's wall time).

Moves are applied to whole arrays of positions through per-move byte tables (each move is
a permutation of bits; 6 lookups per move); see ``solvers.rings`` for the position layout
and the meet-in-the-middle search this module runs the large levels of.
"""
from __future__ import annotations

import io
import itertools
from dataclasses import dataclass, fields
from functools import lru_cache
from typing import Any, Callable, Sequence

import numpy as np

from solvers import tables
from solvers.rings import MOVES, RINGS, SLICES, TABLES_VERSION, Backward, ForwardLevel, mirror_bits, permutation, split


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
    return tables.cached("rings-tables", TABLES_VERSION, _build_tables, _tables_bytes, _tables_from)


def _tables_bytes(t: _Tables) -> bytes:
    """The tables as .npy arrays one after the other (no pickles: a stored file is data)."""
    out = io.BytesIO()
    for field in fields(_Tables):
        np.lib.format.write_array(out, getattr(t, field.name), allow_pickle=False)
    return out.getvalue()


def _tables_from(data: bytes) -> _Tables:
    """The tables of ``_tables_bytes``; ValueError when the bytes hold anything else."""
    source = io.BytesIO(data)
    t = _Tables(*(np.lib.format.read_array(source, allow_pickle=False) for _ in fields(_Tables)))
    if source.tell() != len(data) or t.moves.shape != (len(MOVES), 6, 256):
        raise ValueError("not the ring tables")
    return t


def _build_tables() -> _Tables:
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
        moves=_byte_tables([permutation(m) for m in MOVES]),
        mirror=_byte_tables([mirror_bits()])[0],
        strict=strict, attack=attack,
        tile=2 * cover == pop,    # a pair cover without overlaps is a tiling
        pop=pop, cover=cover,
        spread=(slice_bits.astype(np.uint64) << (4 * np.arange(SLICES, dtype=np.uint64))).sum(axis=1, dtype=np.uint64))


# ---------------------------------------------------------------------------- array operations

_U8 = np.uint64(0xFF)
_MASK48 = np.uint64((1 << 48) - 1)


def array_of(values: Sequence[int] | tables.Sorted) -> np.ndarray:
    """A uint64 array of a level, without a copy when it is one already (or a stored
    table, every block of it checked: ``tables.Damaged`` when one does not match)."""
    if isinstance(values, tables.Sorted):
        values = values.values()
    return values if isinstance(values, np.ndarray) else np.frombuffer(values, dtype=np.uint64)


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


def goal_test(rule: str, enemies: int) -> Callable[[np.ndarray], np.ndarray]:
    """The goal test of a rule on arrays of positions."""
    if rule == "attacks":
        need = -(-enemies // 4)
        return lambda s: _attack_count(s) <= need
    return _strict_goal


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


def goals(enemies: int, rule: str) -> np.ndarray:
    """The symmetry representatives of every goal position, sorted: a backward level 0."""
    return _unique(_canon(_strict_goals(enemies) if rule == "strict" else _attack_goals(enemies)))


def grow(levels: list[Sequence[int]], seen: Sequence[int] | None) -> tuple[np.ndarray, np.ndarray]:
    """The backward level after ``levels`` and the new ``seen`` (every level, sorted;
    made from the levels when None): the representatives one move further from a goal
    than the last level that are in no level yet."""
    seen = np.sort(np.concatenate([array_of(lvl) for lvl in levels])) if seen is None else array_of(seen)
    grown = _unique(_canon(_apply(_tables().moves, array_of(levels[-1])).ravel()))
    fresh = grown[~_member(grown, seen)]
    return fresh, np.sort(np.concatenate((seen, fresh)))


# ---------------------------------------------------------------------------- search

@dataclass
class _Level:
    states: np.ndarray       # uint64 positions first reached at this depth
    parent: np.ndarray       # index into the previous level
    move: np.ndarray         # index into MOVES
    canon: np.ndarray | None = None


class _Forward:
    """Breadth-first levels from the start, each state once, with the move that made it;
    the first levels come from the plain-int search of ``solvers.rings``."""

    def __init__(self, first: list[ForwardLevel]) -> None:
        self.levels = [_Level(np.array(lvl.states, dtype=np.uint64), np.array(lvl.parent, dtype=np.intp),
                              np.array(lvl.move, dtype=np.intp)) for lvl in first]
        self.seen = _unique(np.concatenate([lvl.states for lvl in self.levels]))

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


def search(first: list[ForwardLevel], listed: int, backward: Backward | None, depths: range, rule: str,
           enemies: int, stats: dict[str, Any]) -> tuple[list[int] | None, int]:
    """Search ``depths`` in turn (the shallower ones failed) from the forward levels so far
    (``first``, completed to ``listed`` levels, as many as a search of the shallower depths
    here would have listed, so that the splits are the same): the first answer found and
    the forward positions listed."""
    forward = _Forward(first)
    forward.level(listed - 1)
    goal = goal_test(rule, enemies)
    for depth in depths:
        if backward is None:
            found = _forward_only(forward, depth, goal)
        else:
            found = _meet(forward, backward, depth, goal, stats)
        if found is not None:
            return found, forward.size
    return None, forward.size


def _meet(forward: _Forward, backward: Backward, depth: int, goal: Any,
          stats: dict[str, Any]) -> list[int] | None:
    """Moves of length ``depth`` meeting a backward level, or None."""
    a = split(depth, [len(lvl.states) for lvl in forward.levels], backward)
    canon = forward.canon(a)
    hits = np.flatnonzero(_member(canon, array_of(backward.level(depth - a))))
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
