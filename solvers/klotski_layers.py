"""Klotski under the piece metric, breadth-first a whole layer at a time with numpy.

Under the piece metric a move slides one piece any distance through free cells, so a
breadth-first search by layers finds the least moves. Here a position is a row of small
ints, one per piece that can ever move: the index of its placement (its class and top-left)
in one table of all placements. Pieces that can never move, even alone on the board, are no
part of a position: their cells count as walls. Alike pieces are interchangeable: their
indices are kept sorted, so a position has one row. A row's key ranks each class's sorted
indices among the sets of as many of its placements (the combinatorial number system), the
ranks in mixed radix: one uint64, or a few words on crowded boards; when mirror images merge
(symmetric boards) a position's key is the lesser of its own and its mirror image's.

Every layer, the one expanded and the new one too, is kept as its keys only, sorted (8
bytes a position and word of key): a chunk's rows are read back from their keys (each
field's rank undone, index by index, by a search in the binomials) when it is expanded.
A layer is expanded at once, in chunks: the occupied cells of every row (64-bit words), then
for every piece of every row the placements it reaches by slides into cells free of the
others, a flood over the placement graph done for all (row, piece) pairs together, each step
one gather and one test a direction. The children's keys are made unique (by sorting) and
those of the layer before and the layer itself dropped (every move can be undone, so a
move leads only to the layer before, the same or the next). The answer is walked back
from the goal through a child of each position found in the layer before, then turned
into the named pieces' slides by ``_Space.reach``. Costs: see docs/benchmarks.md
(GNOME Klotski, issue 28).

``beam`` walks the same layers keeping only the positions ``estimate`` puts nearest the
goal in each: an answer when the search to the end gives up, not proved the shortest.
``best_first`` drops none: it expands a batch of the positions it puts nearest at a time.
``guide`` teaches ``estimate`` the least moves of a relaxed board (the target and the
largest pieces alone, found by ``distances``), a lower bound that comes first.
"""
from __future__ import annotations

from math import comb
from typing import TYPE_CHECKING, Callable, Iterator

import numpy as np

if TYPE_CHECKING:
    from solvers.klotski import Board, _Space

# A layer is expanded in chunks of rows of at most this many (row, piece, word) triples:
# the temporaries of a chunk are a few arrays of as many uint64 (``TEMPORARIES``).
CHUNK = 1 << 20
TEMPORARIES = 6
# ``distances``' figure for a position that never reaches the goal, and how many times
# fewer rows its chunks hold: on a relaxed board, pieces with room reach dozens of places
# (Sunshine's: 1,074 MB peak RSS with chunks of ``CHUNK``)
FAR = 0xFFFF
RELAXED_CHUNK = 16


class Layers:
    """The placement tables of one board for the layered search (see the module's text)."""

    def __init__(self, space: "_Space", board: "Board", merge: bool) -> None:
        self.space, self.merge = space, merge
        self.thinner = 1        # how many times fewer rows a chunk holds (``distances``)
        at = [(p.name, space.class_of[p.name], p.row * board.cols + p.col) for p in board.pieces]
        # pieces that never move, even alone: walls for the search (when mirror images
        # merge, only if they are a mirror image of themselves as a whole)
        fixed: dict[tuple[int, int], int] = {}
        while True:
            spreads = {(k, tl): space.spread({(k, tl)}, sum(fixed.values())) for _, k, tl in at if (k, tl) not in fixed}
            stuck = {(k, tl): space.mask[k][tl] for (k, tl), found in spreads.items() if k and len(found) == 1}
            if not stuck:
                break
            fixed.update(stuck)
        if merge and {(k, space.mirror_tl(k, tl)) for k, tl in fixed} != set(fixed):
            fixed = {}
        self.fixed = sum(fixed.values())
        self.still = {name for name, k, tl in at if (k, tl) in fixed}
        moving = [(name, k, tl) for name, k, tl in at if (k, tl) not in fixed]
        moving.sort(key=lambda piece: (piece[1], piece[2]))    # the target first, then class by class
        self.names = {(k, tl): name for name, k, tl in at}
        # placements per class: where its pieces reach alone (and the mirror images)
        tls: dict[int, set[int]] = {}
        for name, k, tl in moving:
            tls.setdefault(k, set()).update(t for _, t in space.spread({(k, tl)}, self.fixed))
        if merge:
            for k, found in tls.items():
                found |= {space.mirror_tl(k, t) for t in found}
        self.placed: list[tuple[int, int]] = [(k, t) for k in sorted(tls) for t in sorted(tls[k])]
        gid = {place: i for i, place in enumerate(self.placed)}
        self.offset = {k: next(i for i, (kk, _) in enumerate(self.placed) if kk == k) for k in tls}
        self.radix = {k: len(found) for k, found in tls.items()}
        cells = sorted({e for k, t in self.placed for e in _bits(space.mask[k][t])})
        # cells as bits of uint64 words, and one bit more, set in every row: the cell a slide
        # that is not there would enter
        self.words = -(-(len(cells) + 1) // 64)
        compact = {e: i for i, e in enumerate(cells)}
        self.shut = _words(1 << len(cells), {len(cells): len(cells)}, self.words)
        g = len(self.placed)
        self.mask = np.zeros((g, self.words), np.uint64)
        # per direction: the placement a slide leads to and the cells it enters (``shut``
        # where there is no slide)
        self.enter = np.tile(self.shut, (4, g, 1))
        self.near = np.full((4, g), -1, np.int64)
        self.halo = np.zeros((g, self.words), np.uint64)     # the cells its slides enter
        self.goal = np.zeros(g, bool)
        self.mirror = np.arange(g)
        for i, (k, t) in enumerate(self.placed):
            self.mask[i] = _words(space.mask[k][t], compact, self.words)
            self.goal[i] = k == 0 and t in space.goal_tls
            if merge:
                self.mirror[i] = gid[k, space.mirror_tl(k, t)]
            for d, step in enumerate(space.slides[k][t]):
                if step and (k, step[1]) in gid:
                    self.near[d, i] = gid[k, step[1]]
                    self.enter[d, i] = _words(step[2], compact, self.words)
                    self.halo[i] |= self.enter[d, i]
        # the columns of a position: the target, then each class's pieces (sorted: alike pieces)
        classes = [k for _, k, _ in moving]
        self.groups = [(classes.index(k), len(classes) - classes[::-1].index(k)) for k in sorted(set(classes))]
        # a key: fields in mixed radix, in as few uint64 words as hold them. A field is a
        # class's sorted indices ranked among the sets of as many (combinatorial number
        # system: the sum of binomial(index, i + 1)), or one index when the class has more
        # such sets than a word holds. Per column, a table of what each placement adds to
        # its word (the binomial times the field's scale).
        self.columns: list[tuple[int, np.ndarray]] = []       # (word, table by placement)
        # and per field, to read a key back into a row: (word, scale, count, first column,
        # columns, the class's first placement, the binomials by index)
        self.fields: list[tuple[int, int, int, int, int, int, np.ndarray]] = []
        word, total = 0, 1
        for a, b in self.groups:
            k = classes[a]
            q = self.radix[k]
            parts = [(a, b, comb(q, b - a))] if comb(q, b - a) < 1 << 62 else [(j, j + 1, q) for j in range(a, b)]
            for lo, hi, count in parts:
                if total * count > 1 << 64:
                    word, total = word + 1, 1
                binomials = np.array([[comb(c, i + 1) for c in range(q)] for i in range(hi - lo)], np.uint64)
                self.fields.append((word, total, count, lo, hi - lo, self.offset[k], binomials))
                for i in range(hi - lo):
                    table = np.zeros(g, np.uint64)
                    table[self.offset[k]:self.offset[k] + q] = [comb(c, i + 1) * total for c in range(q)]
                    self.columns.append((word, table))
                total *= count
        self.key_words = word + 1
        self._toward: np.ndarray | None = None     # ``estimate``'s tables, made on first use
        self._ways = self.mask[:0]
        # ``guide``'s: the relaxed board's layers, the columns its rows take, its placement
        # of each of ours, its positions' sorted keys and their moves to the goal
        self._relaxed: tuple[Layers, np.ndarray, np.ndarray, np.ndarray, np.ndarray] | None = None
        self.start = self.canonical(np.array([[gid[k, tl] for _, k, tl in moving]], np.uint16 if g < 1 << 16 else np.uint32))

    def canonical(self, rows: np.ndarray) -> np.ndarray:
        """The rows with each class's indices sorted (alike pieces interchangeable)."""
        for a, b in self.groups:
            if b - a > 1:
                rows[:, a:b].sort(axis=1)
        return rows

    def keys(self, rows: np.ndarray) -> np.ndarray:
        """The key of each (canonical) row; with mirror images merging, the lesser of it and
        its image's."""
        keys = self._rank(rows)
        if self.merge:
            image = self._rank(self.canonical(self.mirror[rows]))
            keys = np.where(_less(image, keys), image, keys)
        return keys

    def _rank(self, rows: np.ndarray) -> np.ndarray:
        """The key of each canonical row, mirror images apart: a uint64, or the bytes of
        ``key_words`` of them."""
        words = np.zeros((len(rows), self.key_words), np.uint64)
        for j, (word, table) in enumerate(self.columns):
            words[:, word] += table[rows[:, j]]
        return words[:, 0] if self.key_words == 1 else words.view(f"V{8 * self.key_words}")[:, 0]

    def rows(self, keys: np.ndarray) -> np.ndarray:
        """The canonical rows of the keys (``_rank`` undone: each field's rank read from its
        word, then its indices from the greatest down, each the greatest whose binomial
        the rest of the rank holds)."""
        words = keys.view(np.uint64).reshape(len(keys), self.key_words)
        rows = np.empty((len(keys), self.start.shape[1]), self.start.dtype)
        for word, scale, count, lo, width, offset, binomials in self.fields:
            rank = words[:, word] // np.uint64(scale) % np.uint64(count)
            for i in range(width - 1, -1, -1):
                index = np.searchsorted(binomials[i], rank, side="right") - 1
                rank = rank - binomials[i][index]
                rows[:, lo + i] = offset + index
        return rows

    def children(self, rows: np.ndarray) -> tuple[np.ndarray, np.ndarray, np.ndarray, np.ndarray]:
        """Every move from each of the rows: (the row's index, the column of the piece
        moved, its placement after; whether the target is then at the goal), repeats of a
        position included (``moved`` makes the rows)."""
        n, width = rows.shape
        occupied = np.tile(self.shut, (n, 1))
        for j in range(width):
            occupied |= self.mask[rows[:, j]]
        where = rows.reshape(-1)                        # one agent a (row, piece): a = row * width + j
        # the agents next to a free cell they could enter, then their first slides (into
        # cells free in their row: they do not enter their own)
        near = np.flatnonzero(~_clear(~np.repeat(occupied, width, axis=0) & self.halo[where]))
        around = occupied[near // width]
        agents, found = [], []
        for d in range(4):
            can = np.flatnonzero(_clear(around & self.enter[d][where[near]]))
            agents.append(near[can])
            found.append(self.near[d][where[near[can]]])
        agent, place = np.concatenate(agents), np.concatenate(found)
        # further slides of the agents that moved, their own first cells free to them, level
        # by level of a breadth-first search in each one's placements: a slide moves the
        # top-left one cell, so it leads to the level before or the next, never the same
        moved = np.zeros(len(where), bool)
        moved[agent] = True
        movers = np.flatnonzero(moved)
        index = np.searchsorted(movers, agent)
        others = occupied[movers // width] & ~self.mask[where[movers]]
        g = len(self.placed)
        before = np.arange(len(movers)) * g + where[movers]       # level 0, keyed mover * g + placement
        front_i, front = index, place
        done_i, done = [index], [place]
        while len(front):
            steps_i, steps = [], []
            for d in range(4):
                can = np.flatnonzero(_clear(others[front_i] & self.enter[d][front]))
                steps_i.append(front_i[can])
                steps.append(self.near[d][front[can]])
            key = _unique(np.concatenate(steps_i) * g + np.concatenate(steps))[0]
            key = key[~_member(key, before)]
            before = front_i * g + front if len(done) > 1 else np.sort(front_i * g + front)
            front_i, front = key // g, key % g
            done_i.append(front_i)
            done.append(front)
        agent, place = movers[np.concatenate(done_i)], np.concatenate(done)
        return agent // width, agent % width, place, (agent % width == 0) & self.goal[place]

    def moved(self, rows: np.ndarray, column: np.ndarray, place: np.ndarray) -> np.ndarray:
        """The rows with the piece of ``column`` at ``place``, canonical (rows: a copy)."""
        out = rows
        out[np.arange(len(out)), column] = place
        # each class's indices sorted again: one moved, so one pass each way puts it in place
        for a, b in self.groups:
            for i in [*range(a, b - 1), *range(b - 3, a - 1, -1)]:
                low = np.minimum(out[:, i], out[:, i + 1])
                out[:, i + 1] = np.maximum(out[:, i], out[:, i + 1])
                out[:, i] = low
        return out

    def search(self, limit: int, budget: int | None,
               progress: Callable[[str], None]) -> tuple[list[np.ndarray] | None, int, int, bool]:
        """Breadth-first to the goal: (the positions from start to goal, or None; the
        positions reached, mirror pairs once; the same with mirror images apart; whether it
        stopped at ``limit`` positions or at ``budget`` bytes first)."""
        start = self.start
        if self.goal[start[0, 0]]:
            return [start[0]], 1, 1, False
        end, layers, count, apart, capped = self._breadth(limit, budget, progress, True)
        if end is not None:
            return self._walk_back(end, layers), count + 1, apart + 1, False
        return None, count, apart, capped

    def distances(self, limit: int, budget: int,
                  progress: Callable[[str], None]) -> tuple[np.ndarray, np.ndarray] | None:
        """Every position reachable from the start, as its sorted keys, and the least moves
        from each to the goal (``FAR`` where it never gets there): breadth-first from the
        start, then back from the goal; None when there are more than ``limit`` positions or
        they take more than ``budget`` bytes."""
        self.thinner = RELAXED_CHUNK
        _, layers, count, _, capped = self._breadth(limit, budget, progress, False)
        if capped:
            return None
        keys = np.sort(np.concatenate(layers))
        layers.clear()
        far = np.full(len(keys), FAR, np.uint16)
        chunk = self._chunk()
        front = np.concatenate([first + np.flatnonzero(self.goal[self.rows(keys[first:first + chunk])[:, 0]])
                                for first in range(0, len(keys), chunk)])
        step = 0
        while len(front) and step < FAR - 1:
            far[front] = step
            step += 1
            ahead = []
            for first in range(0, len(front), chunk):
                rows = self.rows(keys[front[first:first + chunk]])
                parent, column, place, _ = self.children(rows)
                at = np.searchsorted(keys, _unique(self.keys(self.moved(rows[parent], column, place)))[0])
                ahead.append(at[far[at] == FAR])     # every child is a reachable position: found
            front = np.unique(np.concatenate(ahead))
            progress(f"{count:,} positions of the relaxed board, {step} moves from the goal")
        return keys, far

    def _breadth(self, limit: int, budget: int | None, progress: Callable[[str], None],
                 to_goal: bool) -> tuple[np.ndarray | None, list[np.ndarray], int, int, bool]:
        """Breadth-first from the start, layer by layer, to the goal (``to_goal``) or every
        position reachable: (the position the goal was met at, or None; the layers' keys;
        the positions reached, mirror pairs once; the same with mirror images apart;
        whether it stopped at ``limit`` positions or at ``budget`` bytes first)."""
        layers = [self.keys(self.start)]
        count = 1
        apart = 1 + int(self.merge and not self._own(self.start)[0])
        chunk = self._chunk()
        while len(layers[-1]):
            # the layer is kept as its keys only; its rows are read back a chunk at a time.
            # The new children of each chunk: their keys, those of this layer and the one
            # before dropped (where a move from this layer may lead back to)
            frontier, parts, pending = layers[-1], [], 0
            for kids, end in self._expand(frontier, to_goal):
                if end is not None:
                    return end, layers, count, apart, False
                keys = _unique(self.keys(kids))[0]
                old = _member(keys, frontier)
                if len(layers) > 1:
                    old |= _member(keys, layers[-2])
                parts.append(keys[~old])
                pending += len(parts[-1])
                if count + pending > limit or budget is not None and self._bytes(count + pending, len(frontier), pending) > budget:
                    return None, layers, count + pending, apart, True
                progress(f"{count + pending:,} positions searched (at most), {len(layers)} moves deep")
            keys = np.concatenate(parts)
            parts.clear()
            keys.sort()
            if len(keys):
                keys = keys[np.concatenate(([True], keys[1:] != keys[:-1]))]
            count += len(keys)
            if self.merge:
                for first in range(0, len(keys), chunk):
                    rows = self.rows(keys[first:first + chunk])
                    apart += 2 * len(rows) - int(self._own(rows).sum())
            else:
                apart = count
            layers.append(keys)
        return None, layers, count, apart, False

    def beam(self, width: int, depth: int, limit: int, budget: int,
             progress: Callable[[str], None]) -> tuple[list[np.ndarray] | None, int, bool]:
        """A way to the goal of at most ``depth`` moves, not proved the shortest (a beam
        search): layer by layer as ``search``, but of each layer's new children (positions
        no layer kept before) only the ``width`` that ``estimate`` puts nearest the goal are
        kept, ties to the lesser key. Returns (the positions from start to goal, or None;
        the positions kept; whether it stopped at ``limit`` positions or ``budget`` bytes,
        else it ran out of new positions or moves)."""
        start = self.start
        if self.goal[start[0, 0]]:
            return [start[0]], 1, False
        layers = [self.keys(start)]
        seen = [layers[0]]      # every key kept, in sorted runs of growing size
        count = 1
        while len(layers[-1]) and len(layers) <= depth:
            parts, marks, pending = [], [], 0
            for kids, end in self._expand(layers[-1]):
                if end is not None:
                    return self._walk_back(end, layers), count + 1, False
                keys, first = _unique(self.keys(kids))
                parts.append(keys)
                marks.append(self.estimate(kids[first]))
                # the keys kept twice (by layer for the way back, and in the sorted runs),
                # the layer's children twice (the chunks' and all of them) and a chunk's temporaries
                pending += len(keys)
                if 2 * (count + pending) * self.position_bytes() + self._bytes(0, width, 0) > budget:
                    return None, count + pending, True
            keys, first = _unique(np.concatenate(parts))
            estimates = np.concatenate(marks)[first]
            new = _unseen(keys, seen)
            keys, estimates = keys[new], estimates[new]
            if len(keys) > width:
                keys = np.sort(keys[np.argsort(estimates, kind="stable")[:width]])
            count += len(keys)
            if count > limit:
                return None, count, True
            layers.append(keys)
            _add_run(seen, keys)
            progress(f"{count:,} positions kept, {len(layers) - 1} moves deep, in a beam {width:,} wide "
                     f"({self._nearest(estimates)})")
        return None, count, False

    def best_first(self, batch: int, limit: int, budget: int,
                   progress: Callable[[str], None]) -> tuple[list[np.ndarray] | None, int, bool]:
        """A way to the goal, not proved the shortest (a best-first search): the positions
        found are kept in buckets by ``estimate``, and the ``batch`` first of the least
        bucket are expanded, over and over; unlike ``beam`` no position is dropped, so a
        trap is left for the next bucket. Returns (the positions from start to goal, or
        None; the positions found; whether it stopped at ``limit`` positions or ``budget``
        bytes, else it ran out of positions)."""
        start = self.start
        if self.goal[start[0, 0]]:
            return [start[0]], 1, False
        first = self.keys(start)
        seen = [first]                  # every key found, in sorted runs of growing size
        found, parents = [first], [first]       # the keys found and the key each came from
        buckets = {int(self.estimate(start)[0]): [first]}
        count = 1
        while buckets:
            least = min(buckets)
            keys = np.concatenate(buckets.pop(least))
            if len(keys) > batch:
                buckets[least] = [keys[batch:]]
                keys = keys[:batch]
            rows = self.rows(keys)
            parent, column, place, wins = self.children(rows)
            kids = self.moved(rows[parent], column, place)
            if wins.any():
                won = np.flatnonzero(wins)[0]
                return self._trace(kids[won], keys[parent[won]:parent[won] + 1], found, parents), count + 1, False
            new, at = _unique(self.keys(kids))
            fresh = _unseen(new, seen)
            new, at = new[fresh], at[fresh]
            count += len(new)
            # each key kept three times (found, its parent's, the sorted runs) and the batch's temporaries
            if count > limit or 3 * count * self.position_bytes() + self._bytes(0, batch, 0) > budget:
                return None, count, True
            found.append(new)
            parents.append(keys[parent[at]])
            _add_run(seen, new)
            marks = self.estimate(kids[at])
            for mark in np.unique(marks):
                buckets.setdefault(int(mark), []).append(new[marks == mark])
            progress(f"{count:,} positions found by a best-first search ({self._nearest(marks)})")
        return None, count, False

    def _trace(self, end: np.ndarray, key: np.ndarray, found: list[np.ndarray],
               parents: list[np.ndarray]) -> list[np.ndarray]:
        """The rows from the start to ``end``, a child of the position of ``key`` (one key
        in an array): its keys back through each one's parent (``best_first``'s) to the
        start (its own parent), walked as layers of one key each."""
        keys, before = np.concatenate(found), np.concatenate(parents)
        order = np.argsort(keys)
        keys, before = keys[order], before[order]
        chain = [key]
        while True:
            at = np.searchsorted(keys, chain[-1])
            if before[at] == chain[-1]:
                break
            chain.append(before[at])
        return self._walk_back(end, chain[::-1])

    def reaches_goal(self) -> bool:
        """Whether the target reaches the goal alone on the board (the pieces that never
        move, walls): if not, no moves of the others can open it a way."""
        if self._toward is None:
            self._toward, self._ways = self._target_ways()
        return bool(self._toward[self.start[0, 0]] < len(self.placed))

    def relaxed_pieces(self, placings: int) -> set[str]:
        """The pieces of the relaxed board ``guide`` learns from: the target, the pieces
        that never move, and whole classes of the others, the most cells a piece first,
        each taken while the ways to place the classes taken (the product of each one's
        combinations of placements) stay within ``placings``."""
        space = self.space
        sizes = {space.class_of[name]: 0 for name in self.names.values() if name not in self.still}
        for name in self.names.values():
            if name not in self.still:
                sizes[space.class_of[name]] += 1
        taken, ways = {0}, self.radix[0]
        for k in sorted(sizes, key=lambda k: (-len(space.shapes[k][2]), k)):
            if k and ways * comb(self.radix[k], sizes[k]) <= placings:
                taken.add(k)
                ways *= comb(self.radix[k], sizes[k])
        return self.still | {name for name in self.names.values() if space.class_of[name] in taken}

    def guide(self, relaxed: "Layers", limit: int, budget: int, progress: Callable[[str], None]) -> str | None:
        """Learn the least moves to the goal of every position of ``relaxed`` (a board
        with some of this one's pieces removed, ``relaxed_pieces``): ``estimate`` then
        puts them first. A lower bound on this board's moves (a move here is one there,
        or none when the piece is removed) and a consistent one (a move changes it by at
        most one). Returns why it was not learnt, or None."""
        by_place = {place: i for i, place in enumerate(relaxed.placed)}
        of_class = {self.space.class_of[name]: relaxed.space.class_of[name] for name in relaxed.names.values()
                    if name not in relaxed.still}
        to_sub = np.array([by_place.get((of_class.get(k, -1), t), -1) for k, t in self.placed], np.int64)
        # our columns of the classes kept, in the relaxed board's order of classes
        kept = [(of_class[k], j) for j, (k, _) in enumerate(self.placed[i] for i in self.start[0]) if k in of_class]
        columns = np.array([j for _, j in sorted(kept)], np.int64)
        if len(columns) != relaxed.start.shape[1] or (to_sub[self.start[0, columns]] < 0).any():
            return "the relaxed board's pieces move otherwise than here"
        learnt = relaxed.distances(limit, budget, progress)
        if learnt is None:
            return f"the relaxed board has more than {limit:,} positions or needs more than {budget // 1_000_000:,} MB"
        self._relaxed = (relaxed, columns, to_sub, *learnt)
        return None

    def estimate(self, rows: np.ndarray) -> np.ndarray:
        """How far each row looks from the goal (for ``beam`` and ``best_first``): 4 a slide the target
        needs to reach it alone on the board, and 1 a cell of another piece in the way on
        the target's shortest ways there; after ``guide``, first (the high 32 bits) the
        least moves to the goal on the relaxed board."""
        if self._toward is None:
            self._toward, self._ways = self._target_ways()
        occupied = np.zeros((len(rows), self.words), np.uint64)
        for j in range(1, rows.shape[1]):
            occupied |= self.mask[rows[:, j]]
        blocked = np.bitwise_count(occupied & self._ways[rows[:, 0]]).sum(axis=1, dtype=np.int64)
        near = 4 * self._toward[rows[:, 0]] + blocked
        if self._relaxed is None:
            return near
        relaxed, columns, to_sub, keys, far = self._relaxed
        mine = relaxed.keys(to_sub[rows[:, columns]].astype(relaxed.start.dtype))
        at = np.minimum(np.searchsorted(keys, mine), len(keys) - 1)
        return np.where(keys[at] == mine, far[at], FAR).astype(np.int64) << 32 | near

    def _nearest(self, estimates: np.ndarray) -> str:
        """What the least of ``estimate``'s figures says, for people."""
        if not len(estimates):
            return "none new"
        best = int(estimates.min())
        if self._relaxed is None:
            return f"the target {best // 4} slides from the goal at best"
        return f"{best >> 32} moves from the goal at best with some pieces removed"

    def _target_ways(self) -> tuple[np.ndarray, np.ndarray]:
        """Per placement of the target: its slides to the goal alone on the board (more
        than any, ``len(placed)``, where it never gets there; other placements: 0), and the
        cells its shortest ways there enter."""
        g = len(self.placed)
        toward = np.full(g, -1, np.int64)
        front, step = np.flatnonzero(self.goal), 0
        toward[front] = 0
        while len(front):       # breadth-first back from the goal through the target's slides
            step += 1
            ahead = self.near[:, front].reshape(-1)
            ahead = np.unique(ahead[ahead >= 0])
            front = ahead[toward[ahead] < 0]
            toward[front] = step
        ways = np.zeros((g, self.words), np.uint64)
        for t in np.flatnonzero(toward > 0)[np.argsort(toward[toward > 0], kind="stable")]:
            for d in range(4):
                n = self.near[d, t]
                if n >= 0 and toward[n] == toward[t] - 1:
                    ways[t] |= self.enter[d, t] | ways[n]
        toward[toward < 0] = g          # more than any: the placements that never reach the goal
        return toward, ways

    def _chunk(self) -> int:
        """How many rows a chunk of a layer expanded holds (``CHUNK``)."""
        return max(256, CHUNK // (self.start.shape[1] * self.words * self.thinner))

    def _expand(self, frontier: np.ndarray, to_goal: bool = True) -> Iterator[tuple[np.ndarray, np.ndarray | None]]:
        """The children of the positions of ``frontier`` (keys), a chunk at a time: their
        rows, canonical (repeats included), and None; or, as soon as a move reaches the
        goal (``to_goal``), (None, the position it reaches)."""
        chunk = self._chunk()
        for first in range(0, len(frontier), chunk):
            rows = self.rows(frontier[first:first + chunk])
            parent, column, place, wins = self.children(rows)
            if to_goal and wins.any():
                won = np.flatnonzero(wins)[:1]
                yield None, self.moved(rows[parent[won]], column[won], place[won])[0]
                return
            yield self.moved(rows[parent], column, place), None

    def _own(self, rows: np.ndarray) -> np.ndarray:
        """Whether each row is its own mirror image."""
        return self._rank(rows) == self._rank(self.canonical(self.mirror[rows]))

    def position_bytes(self) -> int:
        """What a position reached costs the search to the end: its key, kept."""
        return 8 * self.key_words

    def _bytes(self, positions: int, frontier: int, pending: int) -> int:
        """The search's memory with ``positions`` keys kept, ``pending`` of them new
        children, kept twice at the layer's end (the chunks' and all of them, sorted), and
        the temporaries of a chunk of the ``frontier`` rows expanded."""
        width = self.start.shape[1]
        chunk = min(frontier, self._chunk()) * width * self.words * 8 * TEMPORARIES
        return (positions + pending) * self.position_bytes() + pending + chunk

    def _walk_back(self, end: np.ndarray, layers: list[np.ndarray]) -> list[np.ndarray]:
        """The rows from the start to ``end`` (a child of the last layer), each a move from
        the one before: from each, a child whose key the layer before holds."""
        chain = [end]
        for keys in reversed(layers):
            parent, column, place, _ = self.children(chain[-1][None, :])
            rows = self.moved(chain[-1][None, :][parent], column, place)
            chain.append(rows[np.flatnonzero(_member(self.keys(rows), keys))[0]])
        chain.reverse()
        if not np.array_equal(chain[0], self.start[0]):    # walked from the start's mirror image
            chain = [self.canonical(self.mirror[row][None, :])[0] for row in chain]
        return chain

    def moves(self, chain: list[np.ndarray]) -> list[dict[str, str]]:
        """The chain of rows as slides of the named pieces."""
        space = self.space
        at = {self.placed[i]: self.names[self.placed[i]] for i in chain[0]}
        taken = self.fixed | sum(space.mask[k][t] for k, t in at)
        moves = []
        for before, after in zip(chain, chain[1:]):
            (gone,), (came,) = set(before.tolist()) - set(after.tolist()), set(after.tolist()) - set(before.tolist())
            (k, t), (_, to) = self.placed[gone], self.placed[came]
            path = space.reach(k, t, space.open & ~taken | space.mask[k][t])[to]
            name = at[k, to] = at.pop((k, t))
            taken = taken & ~space.mask[k][t] | space.mask[k][to]
            moves.append({"piece": name, "path": path})
        return moves


def _member(keys: np.ndarray, sorted_keys: np.ndarray) -> np.ndarray:
    """Which keys the sorted array holds."""
    if not len(sorted_keys):
        return np.zeros(len(keys), bool)
    at = np.minimum(np.searchsorted(sorted_keys, keys), len(sorted_keys) - 1)
    return sorted_keys[at] == keys


def _unseen(keys: np.ndarray, seen: list[np.ndarray]) -> np.ndarray:
    """Which keys none of the sorted runs ``seen`` holds."""
    return ~np.logical_or.reduce([_member(keys, run) for run in seen])


def _add_run(seen: list[np.ndarray], keys: np.ndarray) -> None:
    """Keep sorted ``keys`` in the sorted runs ``seen``, merging the last runs while one is no
    larger than the next (so a key is looked up in a few runs, each merged a few times)."""
    seen.append(keys)
    while len(seen) > 1 and len(seen[-2]) <= len(seen[-1]):
        last = seen.pop()
        seen[-1] = np.sort(np.concatenate((seen[-1], last)))


def _unique(keys: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """The keys sorted without repeats, and where each first is in ``keys`` (np.unique
    but by sorting: its hashing was 5 times slower here)."""
    order = np.argsort(keys)
    ranked = keys[order]
    first = np.ones(len(ranked), bool)
    first[1:] = ranked[1:] != ranked[:-1]
    return ranked[first], order[first]


def _clear(cells: np.ndarray) -> np.ndarray:
    """Which rows of cell words are all 0."""
    return cells[:, 0] == 0 if cells.shape[1] == 1 else ~cells.any(axis=1)


def _less(a: np.ndarray, b: np.ndarray) -> np.ndarray:
    """Where key a comes before key b (uint64, or bytes compared word by word)."""
    if a.dtype == np.uint64:
        return a < b
    a, b = a.view(np.uint64).reshape(len(a), -1), b.view(np.uint64).reshape(len(b), -1)
    less, equal = np.zeros(len(a), bool), np.ones(len(a), bool)
    for w in range(a.shape[1]):
        less |= equal & (a[:, w] < b[:, w])
        equal &= a[:, w] == b[:, w]
    return less


def _bits(mask: int) -> list[int]:
    return [e for e in range(mask.bit_length()) if mask >> e & 1]


def _words(mask: int, compact: dict[int, int], words: int) -> np.ndarray:
    """A board mask's cells as bits of ``words`` uint64 (cells numbered by ``compact``)."""
    out = [0] * words
    for e in _bits(mask):
        out[compact[e] // 64] |= 1 << compact[e] % 64
    return np.array(out, np.uint64)
