"""Ring-battle solver speed against the plain full move tree.

The baseline is the oldest write-up's solver: a position is a list of 4 lists of 12
letters, each of the 86 moves copies it, and every node of the tree to the budget's depth
is built (no deduplication) and goal-tested by backtracking over lines and blocks. At
depth 3 that is 86 + 86² + 86³ = 643,452 nodes, minutes of work, so the baseline runs a
capped prefix of the tree and its time per node is extrapolated to the whole tree (the
table says so). Both run on the same boards, in the same process.
"""
from __future__ import annotations

import copy
import random
from typing import Any

from puzzlepilot.bench import Bench, ms, summary
from solvers import rings, rings_arrays
from solvers.rings import MOVES, Board, generate, solve

FULL_TREE_3 = 86 + 86 ** 2 + 86 ** 3


class _Cap(Exception):
    pass


def baseline_nodes(board: Board, depth: int, cap: int) -> tuple[int, bool]:
    """Walk the plain tree to ``depth`` (stopping after ``cap`` nodes); (nodes, solved)."""
    moves = [m.to_json() for m in MOVES]
    lines = [[(r, s) for r in range(4)] for s in range(12)]
    blocks = [[(r, t % 12) for r in (2, 3) for t in (s, s + 1)] for s in range(12)]
    count = 0

    def covered(cells: set[tuple[int, int]]) -> bool:
        if not cells:
            return True
        first = min(cells)
        return any(set(g) <= cells and covered(cells - set(g)) for g in lines + blocks if first in g)

    def apply(grid: list[list[str]], move: dict[str, Any]) -> list[list[str]]:
        new = copy.deepcopy(grid)
        if move["op"] == "rotate":
            for s in range(12):
                new[move["ring"]][(s + move["steps"]) % 12] = grid[move["ring"]][s]
        else:
            i = move["line"]
            path = [(0, i), (1, i), (2, i), (3, i), (3, i + 6), (2, i + 6), (1, i + 6), (0, i + 6)]
            for p, (r, s) in enumerate(path):
                r2, s2 = path[(p + move["steps"]) % 8]
                new[r2][s2] = grid[r][s]
        return new

    def walk(grid: list[list[str]], left: int) -> bool:
        nonlocal count
        count += 1
        if count > cap:
            raise _Cap
        if covered({(r, s) for r in range(4) for s in range(12) if grid[r][s] != "."}):
            return True
        return left > 0 and any(walk(apply(grid, m), left - 1) for m in moves)

    try:
        return count, walk([list(row) for row in board.cells], depth)
    except _Cap:
        return cap, False


def scatter(rng: random.Random, enemies: int) -> Board:
    """Enemies on random cells."""
    cells = rng.sample(range(48), enemies)
    return Board(tuple("".join("x" if r * 12 + s in cells else "." for s in range(12)) for r in range(4)))


def hard(seed: int, groups: int, budget: int) -> Board:
    """A random board with no answer within ``budget`` (the search must prove it)."""
    rng = random.Random(seed)
    while True:
        board = scatter(rng, 4 * groups)
        if not solve(board, moves=budget).solved:
            return board


def run(bench: Bench) -> None:
    rings_arrays._tables.cache_clear()
    rings._backward.cache_clear()
    cold, _ = bench.timed(lambda: solve(generate(0, 2, 3)))
    bench.table("rings_cold", "First solve in a process (tables, goal sets; ms)",
                ["case", "ms"], [["first solve, 8 enemies, 3 moves", ms(cold)]])

    # Full-tree comparison at depth 3 on boards with no answer within 3.
    cap = 5_000 if bench.quick else 40_000
    rows = []
    for seed, groups in ([(1, 2)] if bench.quick else [(1, 2), (2, 3), (3, 4)]):
        board = hard(seed, groups, 3)
        times = [bench.timed(lambda: solve(board, moves=3))[0] for _ in range(3)]
        median, _ = summary(times)
        bench.progress(f"  baseline tree, {4 * groups} enemies, capped at {cap} nodes ...")
        t, (nodes, solved) = bench.timed(lambda: baseline_nodes(board, 3, cap))
        assert not solved
        full = t / nodes * FULL_TREE_3
        rows.append([4 * groups, median, nodes, ms(t), ms(full), round(ms(full) / median)])
    bench.table("rings_tree", "No answer within 3: solver vs plain full tree (ms; baseline timed on a "
                "capped prefix, extrapolated to all 643,452 nodes)",
                ["enemies", "solver", "base nodes", "base ms", "base full (extrap.)", "ratio"], rows)

    # Solvable boards by depth, and "none within N" proofs.
    per = 3 if bench.quick else 8
    depths = (1, 2, 3) if bench.quick else (1, 2, 3, 4, 5)
    rows = []
    for depth in depths:
        for groups in ((2,) if bench.quick else (2, 4, 6)):
            boards = [generate(100 * depth + k, groups, depth) for k in range(per if depth < 5 else 3)]
            times, found = [], []
            for board in boards:
                t, result = bench.timed(lambda: solve(board, moves=depth))
                assert result.solved and rings.validate(board, result.solution, moves=depth) == []
                times.append(t)
                found.append(result.moves)
            rows.append([f"≤{depth}", 4 * groups, len(boards), max(found), *summary(times)])
        bench.progress(f"  solvable within {depth} ...")
    for budget in ((3,) if bench.quick else (3, 4, 5)):
        for groups in ((2,) if bench.quick else (2, 4)):
            board = hard(7 * budget + groups, groups, min(budget, 3))
            t, result = bench.timed(lambda: solve(board, moves=budget))
            rows.append([f"scatter ≤{budget}", 4 * groups, 1, result.moves if result.solved else "none", ms(t), ms(t)])
        bench.progress(f"  proofs within {budget} ...")
    bench.table("rings_depths", "Scrambled boards by budget (≤N), and random scatters with no answer within 3 searched to N (ms)",
                ["budget", "enemies", "boards", "moves", "median", "worst"], rows)
    run_attacks(bench)
    run_vision(bench)


def run_attacks(bench: Bench) -> None:
    """The looser rule on random scatters (goals listed up to 7 enemies, forwards beyond)."""
    rows = []
    for enemies, budget in ([(6, 3)] if bench.quick else [(5, 3), (6, 5), (7, 5), (9, 4), (11, 4)]):
        board = scatter(random.Random(enemies), enemies)
        t, result = bench.timed(lambda: solve(board, rule="attacks", moves=budget))
        rows.append([enemies, budget, result.moves if result.solved else "none", ms(t)])
    bench.table("rings_attacks", "--rule attacks on random scatters (ms)", ["enemies", "budget", "moves", "ms"], rows)


def _attempt(parse: Any, image: Any) -> Any:
    """A parse, or None when the frame is refused (refusing takes as long to decide)."""
    from vision.common import NoBoardFound

    try:
        return parse(image)
    except NoBoardFound:
        return None


def run_vision(bench: Bench) -> None:
    """Parse stages on rendered battles (no baseline: the figures say where time goes), then
    the game's camera look: the whole parse, and the panel by digit templates against one
    tesseract call on the same panel (the old way)."""
    from puzzlepilot.scenes.rings import render, render_camera
    from vision.rings import digit_templates, find_arena, occupancy, ocr_budget, parse, read_budget, unwarp, white_panels

    rows = []
    for w, h, style in ([(960, 540, "earth")] if bench.quick else [(960, 540, "earth"), (1280, 720, "water"),
                                                                   (1920, 1080, "night")]):
        image, _ = render(generate(w, 3, 3, kinds="gskb"), w, h, style, seed=w)
        find = [bench.timed(lambda: find_arena(image)) for _ in range(3)]
        arena = find[0][1][0]
        cells = [bench.timed(lambda: occupancy(unwarp(image, arena)))[0] for _ in range(3)]
        ocr = [bench.timed(lambda: read_budget(image))[0] for _ in range(2)]
        rows.append([f"{w}x{h}", summary([t for t, _ in find])[0], summary(cells)[0], summary(ocr)[0]])
    bench.table("rings_vision", "Ring-battle parse stages (median ms)", ["image", "arena", "cells", "budget OCR"], rows)

    digit_templates()
    rows = []
    for w, h, view, seed in ([(1280, 720, "tilted", 37)] if bench.quick else
                             [(1280, 720, "tilted", 37), (1280, 720, "overhead", 10), (1920, 1080, "tilted", 18)]):
        image, _ = render_camera(generate(seed, 1 + seed % 3, 1 + seed % 3, kinds="gskb"), w, h, view, seed)
        whole = [bench.timed(lambda: _attempt(parse, image))[0] for _ in range(5)]
        panel = [bench.timed(lambda: read_budget(image))[0] for _ in range(5)]
        box = next(iter(white_panels(image)), None)
        ocr = [bench.timed(lambda: ocr_budget(image, box))[0] for _ in range(2)] if box else [float("nan")]
        rows.append([f"{w}x{h} {view}", summary(whole)[0], summary(panel)[0], summary(ocr)[0],
                     round(summary(ocr)[0] / summary(panel)[0])])
    bench.table("rings_camera", "The game's camera look: parse (targets: ≤ 40 ms at 1280x720) and the budget "
                "panel by digit templates (≤ 5 ms) vs one tesseract call (median ms)",
                ["image", "parse", "panel digits", "panel tesseract", "ratio"], rows)
