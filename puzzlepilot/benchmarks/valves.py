"""Valves solver and vision speed against plain baselines, each in the same run.

Solver (``solve``: networkx's Edmonds–Karp on the split graph, building included), small
graphs: against a plain search over subsets of valves, smallest first, each checked by a
breadth-first search (what one writes without Menger's theorem). Big graphs: against
networkx's ``minimum_node_cut(G, inlet, outlet)`` convenience call (its own node-split graph
and flow), graph building included on both sides. Graphs are sewer-like grids: points on a
square lattice, each lattice pipe kept with probability 3/4, the inlet piped to four points
of the left column, the outlet to four of the right.

Vision: ``parse`` on rendered screenshots against finding the scene by plain template
matching at full resolution over the same scales in 2 % steps (no coarse-to-fine).
"""
from __future__ import annotations

import itertools
import random
from collections import deque

import numpy as np

from puzzlepilot.bench import Bench, ms, summary
from solvers.valves import Board, solve
from vision.common import NoBoardFound

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
    solve(game, all=True)       # first calls into networkx (lazy setup) outside the timing
    rows = []
    for label, opts in (("solve", {}), ("solve --all", {"all": True})):
        times = [bench.timed(lambda: solve(game, **opts))[0] for _ in range(repeat)]
        median, worst = summary(times)
        base = summary([bench.timed(lambda: baseline_subsets(game))[0] for _ in range(repeat)])[0]
        rows.append([label, solve(game).solution, median, worst, base, round(base / median, 1)])
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
    run_vision(bench)


def baseline_locate(image: np.ndarray) -> tuple[float, float]:
    """(best correlation, scale) of the shipped reference in an image by full-resolution
    grey matching at every 2 % of scale over the range ``parse`` searches."""
    import cv2

    from vision.valves import MIN_SCENE, SMALLEST, scene

    reference = scene().reference
    grey = cv2.cvtColor(image, cv2.COLOR_BGR2GRAY)
    rh, rw = reference.shape
    largest = min(grey.shape[1] / rw, grey.shape[0] / rh)
    s, best = max(largest * SMALLEST, MIN_SCENE / rw), (-1.0, 0.0)
    while s <= largest:
        template = cv2.resize(reference, (round(rw * s), round(rh * s)), interpolation=cv2.INTER_AREA)
        if template.shape[0] <= grey.shape[0] and template.shape[1] <= grey.shape[1]:
            score = float(cv2.matchTemplate(grey, template, cv2.TM_CCOEFF_NORMED).max())
            best = max(best, (score, s))
        s *= 1.02
    return best


def run_vision(bench: Bench) -> None:
    from puzzlepilot.scenes.onestroke import embed
    from puzzlepilot.scenes.paint import render_desktop
    from puzzlepilot.scenes.valves import render_sewer
    from vision.valves import parse

    sewer, truth = render_sewer(frozenset("AB"), scale=0.75)
    shots = {
        "sewer 960x600": render_sewer(frozenset("H"))[0],
        "desktop 1920x1080": embed(sewer, truth, render_desktop(1920, 1080, 3), 1100, 90, 1.0)[0],
        "no sewer 1920x1080": render_desktop(1920, 1080, 4),
    }
    rows = []
    for label, image in shots.items():
        def read() -> str:
            try:
                return " ".join(sorted(parse(image).board.closed)) or "-"
            except NoBoardFound:
                return "none"
        read()
        times = [bench.timed(read)[0] for _ in range(3 if bench.quick else 10)]
        median, worst = summary(times)
        base = ""
        if not bench.quick or label.startswith("sewer"):
            bench.progress(f"  vision baseline {label} ...")
            base = ms(bench.timed(lambda: baseline_locate(image))[0])
        rows.append([label, read(), median, worst, base, round(base / median, 1) if base else ""])
    bench.table("valves_vision", "Valves vision, parse (ms; baseline: full-resolution matching, 2 % scale steps)",
                ["screenshot", "closed", "median", "worst", "baseline", "ratio"], rows)
