"""Valves solver speed against two baselines, each in the same run.

Small graphs: a plain search over subsets of valves, smallest first, each checked by a
breadth-first search (what one writes without Menger's theorem). Big graphs: networkx's
``minimum_node_cut(G, inlet, outlet)`` convenience call, graph building included on both
sides. Graphs are sewer-like grids: points on a square lattice, each lattice pipe kept with
probability 3/4, the inlet piped to four points of the left column, the outlet to four of
the right.
"""
from __future__ import annotations

import itertools
import random
from collections import deque

from puzzlepilot.bench import Bench, ms, summary
from solvers.valves import Board, solve

GAME = ("inlet: X/outlet: Y/wrenches: 3/X G/X H/X K/X B/Y C/Y D/Y E/Y J/Y B/Y H/Y I/"
        "A D/A C/A I/A J/A F/A G/B I/F K")


def sewer(side: int, seed: int, keep: float = 0.75) -> Board:
    """A side×side lattice of points with random pipes missing, inlet left, outlet right."""
    rng = random.Random(seed)
    pipes = []
    for r in range(side):
        for c in range(side):
            if c + 1 < side and rng.random() < keep:
                pipes.append((f"r{r}c{c}", f"r{r}c{c + 1}"))
            if r + 1 < side and rng.random() < keep:
                pipes.append((f"r{r}c{c}", f"r{r + 1}c{c}"))
    rows = range(max(0, side // 2 - 2), min(side, side // 2 + 2))
    pipes += [("X", f"r{r}c0") for r in rows] + [("Y", f"r{r}c{side - 1}") for r in rows]
    return Board(tuple(pipes), wrenches=len(rows))


def baseline_subsets(board: Board) -> int | None:
    """The least number of valves by trying every subset, smallest first."""
    adj: dict[str, list[str]] = {}
    for a, b in board.pipes:
        adj.setdefault(a, []).append(b)
        adj.setdefault(b, []).append(a)
    if board.outlet in adj[board.inlet]:
        return None

    def blocked(shut: set[str]) -> bool:
        seen, queue = {board.inlet}, deque([board.inlet])
        while queue:
            for v in adj[queue.popleft()]:
                if v not in seen and v not in shut:
                    if v == board.outlet:
                        return False
                    seen.add(v)
                    queue.append(v)
        return True

    valves = board.valves
    for k in range(len(valves) + 1):
        if any(blocked(set(c)) for c in itertools.combinations(valves, k)):
            return k
    return None


def baseline_networkx(board: Board) -> int:
    """The least number of valves by networkx's convenience call."""
    import networkx as nx

    return len(nx.minimum_node_cut(nx.Graph(board.pipes), board.inlet, board.outlet))


def run(bench: Bench) -> None:
    repeat = 20 if bench.quick else 200
    game = Board.from_text(GAME)
    solve(game, all=True)       # imports networkx, which --all uses, outside the timing
    rows = []
    for label, opts in (("solve", {}), ("solve --all", {"all": True})):
        times = [bench.timed(lambda: solve(game, **opts))[0] for _ in range(repeat)]
        median, worst = summary(times)
        base, _ = bench.timed(lambda: baseline_subsets(game))
        rows.append([label, solve(game).solution, median, worst, ms(base), round(ms(base) / median, 1)])
    bench.table("valves_game", "Machinarium's sewer graph (ms; baseline: subsets smallest first)",
                ["call", "answer", "median", "worst", "baseline", "ratio"], rows)

    rows = []
    for side in (4, 5) if bench.quick else (4, 5, 6, 7):
        board = sewer(side, seed=side)
        times = [bench.timed(lambda: solve(board))[0] for _ in range(5)]
        bench.progress(f"  subsets {side}×{side} ...")
        base, best = bench.timed(lambda: baseline_subsets(board))
        result = solve(board)
        assert best == (result.moves if result.solved else None), side
        median = summary(times)[0]
        rows.append([f"{side}×{side}", len(board.points), result.moves, median, ms(base),
                     round(ms(base) / median, 1)])
    bench.table("valves_small", "Generated sewers, small (ms; baseline: subsets smallest first)",
                ["grid", "points", "valves", "solve", "baseline", "ratio"], rows)

    rows = []
    for side in (10, 32) if bench.quick else (10, 32, 71, 100):
        board = sewer(side, seed=side)
        bench.progress(f"  sewer {side}×{side} ...")
        times = [bench.timed(lambda: solve(board))[0] for _ in range(3)]
        t_all, every = bench.timed(lambda: solve(board, all=True))
        base, best = bench.timed(lambda: baseline_networkx(board))
        result = solve(board)
        assert best == result.stats["flow"], side
        median = summary(times)[0]
        rows.append([f"{side}×{side}", len(board.points), len(board.pipes), result.stats["flow"],
                     median, ms(t_all), len(every.extra.get("solutions", [])), ms(base),
                     round(ms(base) / median, 1)])
    bench.table("valves_big", "Generated sewers, big (ms; baseline: networkx minimum_node_cut)",
                ["grid", "points", "pipes", "valves", "solve", "--all", "answers", "networkx", "ratio"], rows)
