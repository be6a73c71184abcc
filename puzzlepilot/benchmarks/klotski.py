"""Klotski solver speed against a plain breadth-first search over full board copies.

The baseline is what a first solver looks like: a position is a list of lists of
letters, every one-cell slide deep-copies it, a move (piece metric) is the closure of one
piece's slides, and alike pieces are merged by keying positions on their shape pattern.
Both search the same graph, so the ratio is the price of the representation.
"""
from __future__ import annotations

import copy
import os
import tempfile
from collections import deque
from pathlib import Path
from typing import Callable

from puzzlepilot.bench import Bench, ms, summary
from solvers import klotski
from solvers.klotski import GNOME_PUZZLES, LAYOUTS, Board, generate, layout, solve

VISION_CASES = (("wooden", 80, "横刀立马"), ("flat", 60, "指挥若定"), ("named", 90, "兵分三路"))

QUICK_LAYOUTS = ("一路顺风", "雨声淅沥")
BASELINE_LAYOUTS = ("横刀立马", "一路顺风", "雨声淅沥", "兵分三路")


def baseline_solve(board: Board) -> int | None:
    """Minimum piece-metric moves by plain BFS over deep-copied letter grids."""
    grid = [["."] * board.cols for _ in range(board.rows)]
    shape = {p.name: "T" if p.name == board.target else f"{p.height}{p.width}" for p in board.pieces}
    for p in board.pieces:
        for r, c in p.cells():
            grid[r][c] = p.name

    def key(g: list[list[str]]) -> str:
        return "/".join("".join(shape.get(ch, "..") for ch in row) for row in g)

    def slide(g: list[list[str]], name: str, dr: int, dc: int) -> list[list[str]] | None:
        cells = [(r, c) for r in range(len(g)) for c in range(len(g[0])) if g[r][c] == name]
        for r, c in cells:
            nr, nc = r + dr, c + dc
            if not (0 <= nr < len(g) and 0 <= nc < len(g[0])) or g[nr][nc] not in (".", name):
                return None
        new = copy.deepcopy(g)
        for r, c in cells:
            new[r][c] = "."
        for r, c in cells:
            new[r + dr][c + dc] = name
        return new

    def solved(g: list[list[str]]) -> bool:
        r, c = board.goal
        return g[r][c] == board.target and (r == 0 or g[r - 1][c] != board.target) \
            and (c == 0 or g[r][c - 1] != board.target)

    seen = {key(grid): 0}
    queue = deque([grid])
    while queue:
        g = queue.popleft()
        depth = seen[key(g)]
        if solved(g):
            return depth
        for name in sorted({ch for row in g for ch in row} - {"."}):
            todo, near = [g], {key(g)}
            while todo:
                h = todo.pop()
                for dr, dc in ((-1, 0), (1, 0), (0, -1), (0, 1)):
                    moved = slide(h, name, dr, dc)
                    if moved is not None and key(moved) not in near:
                        near.add(key(moved))
                        todo.append(moved)
                        if key(moved) not in seen:
                            seen[key(moved)] = depth + 1
                            queue.append(moved)
    return None


def run(bench: Bench) -> None:
    repeat = 3 if bench.quick else 5
    rows = []
    for name in (QUICK_LAYOUTS if bench.quick else LAYOUTS):
        board = layout(name)
        times, result = [], None
        for _ in range(repeat):
            t, result = bench.timed(lambda: solve(board))
            times.append(t)
        median, worst = summary(times)
        base = ""
        if name in (QUICK_LAYOUTS if bench.quick else BASELINE_LAYOUTS):
            bench.progress(f"  baseline {name} ...")
            t, best = bench.timed(lambda: baseline_solve(board))
            assert best == (result.moves if result.solved else None), name
            base = ms(t)
        rows.append([name, result.moves if result.solved else "none", result.stats["positions"],
                     median, worst, base, round(base / median, 1) if base else ""])
    bench.table("klotski_layouts", "Klotski named 4×5 layouts, piece metric (ms; baseline: deep-copy BFS)",
                ["layout", "moves", "keys", "median", "worst", "baseline", "ratio"], rows)

    board = layout("横刀立马")
    rows = []
    for metric in ("piece", "straight", "cell"):
        bare = _without_tables(bench, lambda: solve(board, metric=metric))
        times = [bench.timed(lambda: solve(board, metric=metric))[0] for _ in range(repeat)]
        rows.append([metric, solve(board, metric=metric).moves, *summary(times), ms(bare)])
    bench.table("klotski_metrics", "横刀立马 under each metric (ms; the last column: first solve with no "
                                   "stored move lists, in memory or on disk)",
                ["metric", "moves", "median", "worst", "no tables"], rows)

    # (rows, cols, seed, empty cells, run the baseline): packed boards like the classic
    # one, and a three-hole 6×5 whose ~200,000 positions stress the search.
    sizes = [(4, 4, 4, 3, True)] if bench.quick else [
        (4, 4, 4, 3, True), (5, 4, 3, 2, True), (6, 5, 10, 2, False), (5, 6, 5, 2, False), (5, 6, 3, 3, False)]
    rows = []
    for r, c, seed, empty, with_baseline in sizes:
        board = generate(r, c, seed, empty)
        bench.progress(f"  generated {c}×{r} seed {seed} ...")
        t, result = bench.timed(lambda: solve(board))
        tb, best = bench.timed(lambda: baseline_solve(board)) if with_baseline else (None, None)
        if tb is not None:
            assert best == (result.moves if result.solved else None)
        rows.append([f"{c}×{r}", len(board.pieces), seed, empty, result.moves if result.solved else "none",
                     result.stats.get("reachable", result.stats["positions"]), ms(t),
                     ms(tb) if tb else "", round(tb / t, 1) if tb else ""])
    bench.table("klotski_generated", "Klotski generated boards (cols×rows), piece metric (ms)",
                ["board", "pieces", "seed", "empty", "moves", "keys", "solve", "baseline", "ratio"], rows)
    _bounded(bench)
    _gnome(bench, repeat)

    _vision(bench, repeat)


def _gnome(bench: Bench, repeat: int) -> None:
    """GNOME Klotski's puzzles as written from its screens: walls, gates, goal cells
    outside the frame, an L-shaped target; the moves the game scores (piece metric) and the
    one-cell steps."""
    rows = []
    for name, (text, scored) in GNOME_PUZZLES.items():
        board = Board.from_text(text)
        for metric in ("piece", "cell"):
            bare = _without_tables(bench, lambda: solve(board, metric=metric))
            times, result = [], None
            for _ in range(repeat):
                t, result = bench.timed(lambda: solve(board, metric=metric))
                times.append(t)
            assert klotski.validate(board, result.solution, metric) == []
            assert metric != "piece" or result.moves == scored, name
            rows.append([name, metric, result.moves, result.stats["positions"], *summary(times), ms(bare)])
    bench.table("klotski_gnome", "GNOME Klotski's puzzles, written from its screens (ms; the last column: "
                                 "first solve with no stored move lists)",
                ["puzzle", "metric", "moves", "positions", "median", "worst", "no tables"], rows)


# 5×5 boards with 14 pieces (generate(5, 5, seed)) whose answers lie hundreds of thousands
# of breadth-first positions away; the exit is left of centre, so no mirror merging. Under
# the straight metric: the piece metric searches boards this size by layers (no A*).
BOUNDED_SEEDS = (37, 68, 291)


def _bounded(bench: Bench) -> None:
    """The search as it is (breadth-first, then A* with its lower bound) against the
    same search breadth-first to the end, on boards where the bound prunes."""
    rows = []
    for seed in BOUNDED_SEEDS[:1] if bench.quick else BOUNDED_SEEDS:
        board = generate(5, 5, seed)
        bench.progress(f"  bounded 5×5 seed {seed} ...")
        solve(board, "straight")                      # the move lists, as a warm process has them
        t, result = bench.timed(lambda: solve(board, "straight"))
        kept = klotski.BOUNDED_FROM
        try:
            klotski.BOUNDED_FROM = 1 << 62
            tb, plain = bench.timed(lambda: solve(board, "straight"))
        finally:
            klotski.BOUNDED_FROM = kept
        assert plain.moves == result.moves and klotski.validate(board, result.solution, "straight") == []
        rows.append([seed, len(board.pieces), result.moves, result.stats["positions"], plain.stats["positions"],
                     ms(t), ms(tb), round(tb / t, 2)])
    bench.table("klotski_bounded", "Klotski 5×5, 14 pieces: A* after 20,000 positions vs breadth-first to the "
                                   "end (ms, straight metric)",
                ["seed", "pieces", "moves", "positions", "bfs positions", "solve", "bfs only", "ratio"], rows)


def _without_tables(bench: Bench, fn: Callable[[], object]) -> float:
    """Seconds of one call with the move-list memos of this process and of the table
    cache out of reach (an empty cache folder), as on a first run ever."""
    saved = dict(klotski._MEMOS)
    before = os.environ.get("PUZZLEPILOT_CACHE")
    try:
        with tempfile.TemporaryDirectory() as folder:
            os.environ["PUZZLEPILOT_CACHE"] = folder
            klotski._MEMOS.clear()
            return bench.timed(fn)[0]
    finally:
        klotski._MEMOS.clear()
        klotski._MEMOS.update(saved)
        if before is None:
            os.environ.pop("PUZZLEPILOT_CACHE", None)
        else:
            os.environ["PUZZLEPILOT_CACHE"] = before


def _vision(bench: Bench, repeat: int) -> None:
    """Reading a board, and refusing a picture with none (every image is offered to
    every game's vision when --game is not given). No baseline: figures in ms; each row
    says whether the board read is the one shown (a fast wrong reading is no win)."""
    import json

    import numpy as np

    from puzzlepilot.scenes.klotski import desktop, render
    from vision.common import NoBoardFound, load_image
    from vision.klotski import parse

    def verdict(image: np.ndarray, board: str | None) -> str:
        try:
            found = parse(image).board.relabelled().to_text()
        except NoBoardFound:
            return "refused" if board else "right (none)"
        return "right" if board and found == Board.from_text(board.replace("/", "\n")).relabelled().to_text() else "WRONG"

    def row(label: str, image: np.ndarray, board: str | None) -> list[object]:
        times = [bench.timed(lambda: verdict(image, board))[0] for _ in range(repeat)]
        return [label, f"{image.shape[1]}x{image.shape[0]}", verdict(image, board), *summary(times)]

    rows = []
    for style, cell, name in VISION_CASES:
        image, truth = render(layout(name), style=style, cell=cell)
        rows.append(row(f"{style} {cell}px", image, truth.board))
    # phone captures, 1080×1850: rendered looks, read by colour ("named") and by edges (the
    # "portrait" look of the real apps: framed portrait tiles with shadows on a gridded
    # floor), and the real apps when ../shared/real is beside the project (read by edges;
    # the portrait app is 1080×1852)
    for style, how in (("named", "phone"), ("portrait", "phone, edges")):
        phone, truth = render(layout("横刀立马"), style=style, cell=240, size=(1080, 1850))
        rows.append(row(f"{style} 240px ({how})", phone, truth.board))
    real = Path(__file__).resolve().parents[2] / ".." / "shared" / "real"
    for name, label in (("app_sword_standing", "real app, portraits (edges)"),
                        ("app_qiaoguowuguan", "real app, 巧过五关 (edges)")):
        if (real / "klotski" / f"{name}.png").is_file():
            board = json.loads((real / "labels.json").read_text())[f"klotski/{name}.png"]
            rows.append(row(label, load_image(real / "klotski" / f"{name}.png"), board))
    for width, height in ((1280, 800), (1920, 1080)):
        rows.append(row("no board (desktop)", desktop(width, height, 7), None))
    bench.table("klotski_vision", "Klotski vision: parse (ms)", ["picture", "size", "read", "median", "worst"], rows)
