"""LYNE: the edge solver against the plain per-shape path search, same boards, same run;
and the vision on 1920×1080 frames against the same vision at full resolution.

Real levels (the three captured ones), generated 6×8 levels with at least six hubs, and
the same levels with one terminal moved (mostly without an answer: the proof's cost).
The plain search is stopped after a step budget on the hardest boards; such cases count
at the time spent, so the ratio printed is a lower bound (the table says how many).
"""
from __future__ import annotations

import random

from puzzlepilot.bench import Bench, ms, summary
from puzzlepilot.scenes.lyne import PALETTES, busy_desktop, gif_frame, half_drawn, render
from solvers.lyne import Board, SearchLimit, generate, solve, solve_plain
from vision.common import NoBoardFound
from vision.lyne import WORK, parse

REAL = {"A03": "T.T/ttt", "A17": "TD/2d/TD", "B25": "TSD/2S2/tsd/D2T"}
# The slowest 7x7 levels met while tuning the hand-made search that MiniSat replaced
# (issue 18), out of ~1,000 generated ones: the 14-hub level the issue names, and the worst
# of each search kind tried; then the five slowest after the hub-hole rule, out of ~1,100
# denser ones (walks 2-4 times as long, revisits 4-16 times as likely); then one at 1.1
# million nodes before probe implications and conflict counts; the last three: its
# slowest of 1,600 and 1,500 fresh dense ones (0.42 s, 1.1 s and 0.11 s).
HARDEST = (
    "ss.Tt../DS223s./.2222sS/.T3s2d./...23dD/...222./..tt...",
    "...TtSs/Tt..332/t2.d332/t32323s/23D23s2/222s23D/S2...sd",
    "D2S2StT/d.23322/ds3t332/d3s4232/D2322.t/2T2..../d2d....",
    "....T.S/..S.22./..s222t/D.2t232/d.d2222/.d...DT",
    "..t2.../.t32T.d/S22222d/s2.2232/22s2Ss./D23Dd../T2s....",
    ".D2Ss2s/d22232s/.d33St2/d3222T2/23D3T32/2242332/.2d222t",
    "dddDt.t/D32Tt22/.33..32/223222s/t3d42ss/T.23222/.SsSs2.",
    "tt..SSs/2...232/222232s/23.2T4T/d33.23d/d32332D/.Dd222d",
    "t...S2s/222s32./23.222t/2222T2D/s4t3322/S23323D/.t2.2Td",
    "..t2.../..322../.2223Tt/222223t/S2sTd.D/s222ss./D22ssS.",
    "Ddt.s2s/d32TS22/23.2s3./2d23s22/D22233S/.2d222t/..2Ttt.",
    ".SSD2d./s33222./23332.d/23333dd/232223t/222d23t/D22T2tT",
    "t22.22S/232323s/T333sSs/2232s22/D2.3322/222222t/D.d22Tt",
    ".D...Ss/.s2222s/223.3S2/d232232/D424232/223s332/T22sT2s",
    ".s2sdd./sS2s2d./s.2322./sdD2232/2223322/223SttT/D22t.tT",
    "..SsS2t/ssD2422/T224s2./t3422D./22324d./.224td./..2tT..",
    "..2t22t/t2233T2/22.222t/223s3t./222223./23SD32T/Ss.Dd2d",
    "SsD222t/s.s2322/t.2322./t2D232d/2T2T22./2322.d./S22d...",
    "sSs2s.t/S33232t/s3s22../s22232./t33222./223T22D/T22t22D",
)
PLAIN_STEPS = 200_000


def _plain(board: Board) -> bool:
    """Run the baseline; False when it hit the step budget."""
    try:
        solve_plain(board, max_steps=PLAIN_STEPS)
        return True
    except SearchLimit:
        return False


def run(bench: Bench) -> None:
    repeat = 3 if bench.quick else 20
    rows = []
    for name, text in REAL.items():
        board = Board.from_text(text)
        fast = [bench.timed(lambda: solve(board))[0] for _ in range(repeat)]
        plain = [bench.timed(lambda: _plain(board))[0] for _ in range(repeat)]
        rows.append([name, text, ms(min(fast)), ms(min(plain)), round(min(plain) / min(fast), 2)])
    bench.table("lyne_real", "LYNE real levels (best of runs, ms)",
                ["level", "board", "edge solver", "plain DFS", "ratio"], rows)

    rng = random.Random(2026)
    count = 4 if bench.quick else 20
    levels = [generate(6, 8, rng, hubs=6)[0] for _ in range(count)]
    _compare(bench, "lyne_generated", f"LYNE generated 6x8 levels with >= 6 hubs ({count} levels, ms)", levels)
    altered = [_swap_terminal(board, rng) for board in levels]
    _compare(bench, "lyne_altered", f"LYNE the same levels with one terminal moved (mostly no answer; "
                                    f"{sum(not solve(b).solved for b in altered)} of {count} proved so, ms)", altered)
    _hard(bench)
    _vision(bench)


def hard_levels(count: int, dense: bool = False) -> list[Board]:
    """Generated 7×7 and 8×8 levels (half each size) with 9 to 15 hubs, the kind on which
    the search used to pass tens of thousands of nodes; ``dense``: walks three times as
    long that revisit places eight times as readily, with 14 to 26 hubs or more, as
    crowded as a level gets — the kind that still takes the longest."""
    levels = []
    for size in (7, 8):
        rng = random.Random(size * 1000 + dense)
        while len(levels) < count * (size - 6) // 2:
            hubs = rng.randint(14, 26) if dense else rng.randint(9, 15)
            try:
                levels.append(generate(size, size, rng, hubs=hubs, tries=2000,
                                       stretch=3 if dense else 1, revisit=8 if dense else 3)[0])
            except ValueError:
                continue
    return levels


def _hard(bench: Bench) -> None:
    """The edge solver alone on hub-dense levels (the plain search does not finish them),
    generated and the hardest found: time, search nodes, rounds of cuts, how many took
    over 100 ms, and the worst of those up to 7×7 (the target: every such board within
    100 ms)."""
    count = 10 if bench.quick else 60
    rows = []
    for name, levels in (("9-15 hubs", hard_levels(count)), ("dense, 14-26+ hubs", hard_levels(count, True)),
                         (f"hardest 7x7 found ({len(HARDEST)})", [Board.from_text(t) for t in HARDEST])):
        times, small, nodes, rounds = [], [], [], []
        for board in levels:
            seconds, result = bench.timed(lambda: solve(board))
            assert result.solved, board.to_text()
            times.append(seconds)
            if board.rows <= 7 and board.cols <= 7:
                small.append(seconds)
            nodes.append(result.stats["nodes"])
            rounds.append(result.stats["rounds"])
        med, worst = summary(times)
        rows.append([name, med, worst, ms(max(small)), ms(sum(times)), sum(t > 0.1 for t in times),
                     max(nodes), max(rounds)])
    bench.table("lyne_hard", f"LYNE hub-dense 7x7 and 8x8 levels ({count} generated of each kind, ms)",
                ["levels", "median", "worst", "worst up to 7x7", "total", "over 100 ms",
                 "search nodes (max)", "rounds of cuts (max)"], rows)


def _compare(bench: Bench, key: str, title: str, boards: list[Board]) -> None:
    """Both solvers on the same boards: median, worst and total time, and their ratio."""
    fast_t, plain_t, nodes, capped = [], [], [], 0
    for i, board in enumerate(boards):
        seconds, result = bench.timed(lambda: solve(board))
        fast_t.append(seconds)
        nodes.append(result.stats["nodes"])
        seconds, finished = bench.timed(lambda: _plain(board))
        plain_t.append(seconds)
        capped += not finished
        bench.progress(f"  {key} {i + 1}/{len(boards)}")
    fmed, fworst = summary(fast_t)
    pmed, pworst = summary(plain_t)
    bench.table(key, title, ["solver", "median", "worst", "total", "search nodes (max)", "stopped at budget"],
                [["edge solver", fmed, fworst, ms(sum(fast_t)), max(nodes), 0],
                 ["plain DFS", pmed, pworst, ms(sum(plain_t)), "-", capped],
                 ["ratio", round(pmed / fmed, 1), round(pworst / fworst, 1),
                  round(sum(plain_t) / sum(fast_t), 1), "-", "-"]])


def _swap_terminal(board: Board, rng: random.Random) -> Board:
    """The board with one terminal and one ordinary node of its shape swapped."""
    grid = [list(row) for row in board.grid]
    shape = rng.choice([s for s in board.shapes if any(s in row for row in board.grid)])
    places = [(r, c) for r in range(board.rows) for c in range(board.cols)]
    r, c = rng.choice([p for p in places if grid[p[0]][p[1]] == shape])
    r2, c2 = rng.choice([p for p in places if grid[p[0]][p[1]] == shape.upper()])
    grid[r][c], grid[r2][c2] = shape.upper(), shape
    return Board(tuple("".join(row) for row in grid))


def _read(image, work: int | None) -> str | None:
    """The board text read from a frame, or None when the vision refuses it."""
    try:
        return parse(image, work=work or WORK).board.to_text().replace("\n", "/")
    except NoBoardFound:
        return None


def _vision(bench: Bench) -> None:
    """Parse time per 1920×1080 frame: full-screen games and windows on a busy desktop
    (a terminal, a photo-like wallpaper, sometimes a GIF frame), all lit like the game,
    paths half drawn; the baseline reads the game area at its own size instead of 800 px."""
    rng = random.Random(7)
    frames = []
    for i in range(3 if bench.quick else 8):
        board, answer = generate(rng.randint(3, 6), rng.randint(3, 8), rng, hubs=2)
        palette = PALETTES[sorted(PALETTES)[i % len(PALETTES)]]
        drawn = half_drawn(board, answer, rng) if i % 2 else None
        if i % 3 == 2:
            window, truth = render(board, palette, 1280, 720, drawn=drawn, light=i)
            image, truth = busy_desktop(window, truth, 1920, 1080, (300, 200), seed=i)
            image = gif_frame(image) if i % 2 else image
        else:
            image, truth = render(board, palette, 1920, 1080, drawn=drawn, light=i)
        frames.append((image, truth.board))
    repeat = 2 if bench.quick else 5
    rows = []
    for name, work in (("area at 800 px", None), ("area at full size", 1920)):
        times, right = [], 0
        for image, expected in frames:
            runs = [bench.timed(lambda: _read(image, work)) for _ in range(repeat)]
            times.append(min(t for t, _ in runs))
            right += runs[0][1] == expected
        med, worst = summary(times)
        rows.append([name, med, worst, f"{right}/{len(frames)}"])
    rows.append(["ratio", round(rows[1][1] / rows[0][1], 2), round(rows[1][2] / rows[0][2], 2), "-"])
    bench.table("lyne_vision", f"LYNE vision, 1920x1080 frames ({len(frames)} frames, best of {repeat}, ms)",
                ["reader", "median", "worst", "read right"], rows)
