"""Valves solver and vision speed against plain baselines, each in the same run.

Solver (``solve``: Edmonds–Karp on the split graph, building included), small
graphs: against a plain search over subsets of valves, smallest first, each checked by a
breadth-first search (what one writes without Menger's theorem). Big graphs: against
networkx's ``minimum_node_cut(G, inlet, outlet)`` convenience call (its own node-split graph
and flow), graph building included on both sides. Graphs are sewer-like grids: points on a
square lattice, each lattice pipe kept with probability 3/4, the inlet piped to four points
of the left column, the outlet to four of the right.

Vision: ``parse`` on rendered screenshots against finding the scene by plain template
matching at full resolution over the same scales in 2 % steps (no coarse-to-fine). When
the real captures are beside the project (``../shared/real``), also Machinarium's real
panel calibrated from a player's picks (``PANEL_PICKS``) and read with red wrenches drawn
on three valves, 0.8x, JPEG (its baseline: the same matching with its reference).
"""
from __future__ import annotations

import itertools
import json
import random
import tempfile
from collections import deque
from pathlib import Path
from typing import Any

import numpy as np

from puzzlepilot.bench import Bench, ms, summary
from solvers.valves import Board, solve
from vision.common import NoBoardFound

GAME = ("inlet: X/outlet: Y/wrenches: 3/X G/X H/X K/X B/Y C/Y D/Y E/Y J/Y B/Y H/Y I/"
        "A D/A C/A I/A J/A F/A G/B I/F K")
PANEL = Path(__file__).resolve().parents[2] / ".." / "shared" / "real" / "valves" / "panel_open.jpg"
# A player's calibration of that panel (1000x1000): the box, the inlet (bottom left), the
# outlet (the top pipe with the arrow), the eleven "+" valves in letter order (middle row
# A-F, bottom row G-K, left to right: which is which letter is the player's call) and a
# point on the rim of valve A. The tests use it too.
PANEL_VALVES = {"A": (203, 442), "B": (343, 449), "C": (455, 445), "D": (576, 451), "E": (673, 450), "F": (806, 446),
                "G": (204, 758), "H": (356, 758), "I": (468, 750), "J": (668, 738), "K": (810, 726)}
PANEL_PICKS = {"box": [40, 20, 910, 950], "inlet": [140, 862], "outlet": [442, 112],
               "valves": [list(PANEL_VALVES[v]) for v in sorted(PANEL_VALVES)], "rim": [236, 442]}
PANEL_BODY = 66             # a valve body's width on the panel, px


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
    solve(game, all=True)       # the first call outside the timing
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
    baseline_networkx(sewer(4, seed=4))     # importing networkx outside the timing
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


def baseline_locate(image: np.ndarray, profile: Any = None) -> tuple[float, float]:
    """(best correlation, scale) of a profile's reference (None: the shipped one) in an
    image by full-resolution grey matching at every 2 % of scale over the range ``parse``
    searches."""
    import cv2

    from vision.valves import MIN_SCENE, SMALLEST, scene

    reference = scene(profile).reference
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


def panel_profile(folder: Path) -> Any:
    """The player's profile of the real panel, calibrated through the command line from
    ``PANEL_PICKS`` into ``folder`` (ProfileError/UsageError when the panel is missing)."""
    from calibration.profile import load
    from puzzlepilot.cli import main

    (folder / "graph.txt").write_text(GAME.replace("/", "\n"))
    (folder / "picks.json").write_text(json.dumps(PANEL_PICKS))
    import io

    err = io.StringIO()
    status = main(["calibrate", "valves", str(PANEL), "--name", "machinarium", "--board", str(folder / "graph.txt"),
                   "--picks", str(folder / "picks.json"), "--dir", str(folder / "profile")],
                  stdout=io.StringIO(), stderr=err)
    if status:
        raise RuntimeError(f"calibrating the real panel failed: {err.getvalue().strip()}")
    return load(folder / "profile")


def panel_shot(closed: str, angle: float = -35.0, crop: tuple[int, int, int, int] = (0, 0, 1000, 1000),
               scale: float = 1.0, quality: int | None = None) -> tuple[np.ndarray, dict[str, tuple[float, float]]]:
    """The real panel with red wrenches on the ``closed`` valves (handles at ``angle``),
    cropped (x, y, width, height), scaled and maybe JPEG'd, and where each valve then is."""
    import cv2

    from puzzlepilot.scenes.valves import draw_wrench, reframe

    image = cv2.imread(str(PANEL))
    for name in closed:
        draw_wrench(image, PANEL_VALVES[name], PANEL_BODY, angle, blur=1.2)
    return reframe(image, {n: (float(x), float(y)) for n, (x, y) in PANEL_VALVES.items()}, crop, scale, quality)


def run_vision(bench: Bench) -> None:
    from puzzlepilot.scenes.onestroke import embed
    from puzzlepilot.scenes.paint import render_desktop
    from puzzlepilot.scenes.valves import render_sewer
    from vision.valves import parse

    sewer, truth = render_sewer(frozenset("AB"), scale=0.75)
    shots: dict[str, tuple[np.ndarray, Any]] = {
        "sewer 960x600": (render_sewer(frozenset("H"))[0], None),
        "desktop 1920x1080": (embed(sewer, truth, render_desktop(1920, 1080, 3), 1100, 90, 1.0)[0], None),
        "no sewer 1920x1080": (render_desktop(1920, 1080, 4), None),
    }
    with tempfile.TemporaryDirectory() as tmp:
        if PANEL.is_file():
            shots["real panel 800x800, 3 wrenches"] = (panel_shot("ABH", scale=0.8, quality=85)[0],
                                                         panel_profile(Path(tmp)))
        rows = []
        for label, (image, profile) in shots.items():
            def read() -> str:
                try:
                    return " ".join(sorted(parse(image, profile).board.closed)) or "-"
                except NoBoardFound:
                    return "none"
            read()
            times = [bench.timed(read)[0] for _ in range(3 if bench.quick else 10)]
            median, worst = summary(times)
            base = ""
            if not bench.quick or not label.startswith(("desktop", "no sewer")):
                bench.progress(f"  vision baseline {label} ...")
                base = ms(bench.timed(lambda: baseline_locate(image, profile))[0])
            rows.append([label, read(), median, worst, base, round(base / median, 1) if base else ""])
    bench.table("valves_vision", "Valves vision, parse (ms; baseline: full-resolution matching, 2 % scale steps)",
                ["screenshot", "closed", "median", "worst", "baseline", "ratio"], rows)
