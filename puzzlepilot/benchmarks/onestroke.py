"""One-stroke: the pruned solver against plain backtracking, same boards, same run, and
the vision's parse time on 1080×1920 phone frames.

Boards (seeded, so every run measures the same set), per size 6×6 … 12×12:
- solvable: generated levels (``generate``);
- parity: a generated level less one cell of the colour that breaks the colour balance,
  keeping the cells connected (proved without search);
- search: a generated level less one cell of each colour, still connected, that the
  root proofs do not settle and the search proves unsolvable. Candidates the solver cannot
  settle within ``SEARCH_LIMIT`` nodes are counted and left out (the table says how many);
- holed / holed-none: boards made another way, as a user's generator might: 8-20 % random
  holes, a random start, cells connected; the solvable ones, and the unsolvable ones the
  root proofs do not settle (left out past ``HOLED_LIMIT`` nodes, counted).
Plus the real level 643 (as the vision reads it from the real capture), best of runs.
The baseline is stopped after ``PLAIN_LIMIT`` nodes (``PLAIN_LIMIT_8`` on 8×8, about
5 s, so the ratio there is mostly measured); a stopped board counts at the time spent, so
its ratio is a lower bound (printed as ">x").
"""
from __future__ import annotations

import random
import statistics

from puzzlepilot.bench import Bench, ms, summary
from solvers.onestroke import Board, Cell, generate, reach, search_plain, solve

SIZES = (6, 7, 8, 10, 12)
LEVEL_643 = ".##.S##/#######/##.####/.######/#.#####/#####.#/#######"
PLAIN_LIMIT = 200_000
PLAIN_LIMIT_8 = 4_000_000
SEARCH_LIMIT = 50_000
HOLED_LIMIT = 20_000


def _connected(cells: frozenset[Cell]) -> bool:
    return len(reach(min(cells), cells)) == len(cells)


def _without(board: Board, rng: random.Random, colours: tuple[int, ...]) -> Board | None:
    """The board less one random non-start cell of each colour in ``colours`` (0: the
    (r + c) even colour), or None when that disconnects it."""
    cells = set(board.cells)
    for colour in colours:
        pool = sorted(c for c in cells if c != board.start and sum(c) % 2 == colour)
        if not pool:
            return None
        cells.discard(rng.choice(pool))
    cut = frozenset(cells)
    return Board(board.rows, board.cols, cut, board.start) if _connected(cut) else None


def _parity_breaker(board: Board) -> int:
    """The colour whose removal unbalances the board: the start's colour must have as many
    cells as the other or one more, so remove the start's colour when balanced, else the other."""
    own = sum(1 for c in board.cells if sum(c) % 2 == sum(board.start) % 2)
    start_colour = sum(board.start) % 2
    return start_colour if own == len(board.cells) - own else 1 - start_colour


def boards(size: int, count: int, seed: int) -> tuple[dict[str, list[Board]], int]:
    """The benchmark set of one size: {kind: boards}, and how many search candidates the
    solver could not settle within SEARCH_LIMIT (left out)."""
    rng = random.Random(seed)
    kinds: dict[str, list[Board]] = {"solvable": [], "parity": [], "search": []}
    given_up = 0
    for attempt in range(50 * count):
        base = generate(size, size, rng.randrange(10**9))
        if len(kinds["solvable"]) < count:
            kinds["solvable"].append(base)
        if len(kinds["parity"]) < count:
            cut = _without(base, rng, (_parity_breaker(base),))
            if cut is not None:
                kinds["parity"].append(cut)
        if len(kinds["search"]) < count:
            cut = _without(base, rng, (0, 1))
            if cut is not None:
                result = solve(cut, max_nodes=SEARCH_LIMIT)
                if result.stats.get("capped"):
                    given_up += 1
                elif not result.solved and result.stats["nodes"] > 0:
                    kinds["search"].append(cut)
        if all(len(v) == count for v in kinds.values()):
            break
    return kinds, given_up


def holed_boards(size: int, count: int, seed: int, limit: int = HOLED_LIMIT) -> tuple[dict[str, list[Board]], int]:
    """Random-hole boards of one size: {"holed": solvable, "holed-none": unsolvable and
    searched}, and how many candidates the solver left unsettled within ``limit`` nodes."""
    rng = random.Random(seed)
    grid = [(r, c) for r in range(size) for c in range(size)]
    kinds: dict[str, list[Board]] = {"holed": [], "holed-none": []}
    given_up = 0
    for attempt in range(200 * count):
        cells = frozenset(grid) - set(rng.sample(grid, round(rng.uniform(0.08, 0.20) * len(grid))))
        if not _connected(cells):
            continue
        board = Board(size, size, cells, rng.choice(sorted(cells)))
        result = solve(board, max_nodes=limit)
        if result.stats.get("capped"):
            given_up += 1
            continue
        kind = "holed" if result.solved else "holed-none"
        if result.stats["nodes"] > 0 and len(kinds[kind]) < count:
            kinds[kind].append(board)
        if all(len(v) == count for v in kinds.values()):
            break
    return kinds, given_up


def _ratio(plain: float, fast: float, capped: bool) -> str:
    return f"{'>' if capped else ''}{plain / fast:.3g}"


def run(bench: Bench) -> None:
    count = 2 if bench.quick else 6
    sizes = SIZES[:3] if bench.quick else SIZES
    rows = [_real_level(bench, PLAIN_LIMIT // 10 if bench.quick else PLAIN_LIMIT)]
    for size in sizes:
        plain_limit = PLAIN_LIMIT_8 if size == 8 else PLAIN_LIMIT
        plain_limit //= 10 if bench.quick else 1
        kinds, given_up = boards(size, count, seed=size)
        holed, holed_given_up = holed_boards(size, count, seed=size, limit=HOLED_LIMIT // (10 if bench.quick else 1))
        left_out = {"search": given_up, "holed": holed_given_up, "holed-none": holed_given_up}
        for kind, group in {**kinds, **holed}.items():
            if not group:       # e.g. every unsolvable candidate was settled by the root proofs
                rows.append([f"{size}x{size}", kind, 0, *["-"] * 8, left_out.get(kind, "-")])
                continue
            fast, plain, nodes, capped = [], [], [], 0
            for board in group:
                seconds, result = bench.timed(lambda: solve(board))
                assert result.solved == (kind in ("solvable", "holed")), board.to_text()
                fast.append(seconds)
                nodes.append(result.stats["nodes"])
                seconds, base = bench.timed(lambda: search_plain(board, limit=plain_limit))
                plain.append(seconds)
                capped += bool(base.stats.get("capped"))
            fmed, fworst = summary(fast)
            pmed, pworst = summary(plain)
            rows.append([f"{size}x{size}", kind, len(group), fmed, fworst, max(nodes),
                         f"{'>' if capped else ''}{pmed}", f"{'>' if capped else ''}{pworst}",
                         f"{capped} of {plain_limit:,}",
                         _ratio(statistics.median(plain), statistics.median(fast), capped > 0),
                         _ratio(sum(plain), sum(fast), capped > 0), left_out.get(kind, "-")])
            bench.progress(f"  onestroke {size}x{size} {kind}: {len(group)} boards")
    bench.table("onestroke_solver", "One-stroke solver vs plain backtracking (ms; plain stopped at a node cap)",
                ["size", "kind", "boards", "median", "worst", "nodes (max)", "plain median", "plain worst",
                 "plain stopped (cap)", "ratio (median)", "ratio (total)", "left out"], rows)
    _parse_times(bench)


def _real_level(bench: Bench, plain_limit: int) -> list[object]:
    """The table row of the real level 643: best of a few runs of each."""
    board = Board.from_text(LEVEL_643)
    repeat = 3 if bench.quick else 10
    fast = [bench.timed(lambda: solve(board)) for _ in range(repeat)]
    plain = [bench.timed(lambda: search_plain(board, limit=plain_limit)) for _ in range(repeat)]
    assert fast[0][1].solved
    capped = bool(plain[0][1].stats.get("capped"))
    best, plain_best = ms(min(t for t, _ in fast)), ms(min(t for t, _ in plain))
    mark = ">" if capped else ""
    return ["7x7", "level 643", 1, best, best, fast[0][1].stats["nodes"], f"{mark}{plain_best}",
            f"{mark}{plain_best}", f"{int(capped)} of {plain_limit:,}", _ratio(plain_best, best, capped), _ratio(plain_best, best, capped), "-"]


def _parse_times(bench: Bench) -> None:
    """Parse times of phone frames at level start and mid-level (half the path drawn), and
    of the same as 271×480 screen-recording frames (JPEG 60, a slight blur); each frame's
    best of 3 runs (the CPU cost, less the machine's other load)."""
    from puzzlepilot.scenes.onestroke import render_phone, tight, video_frame

    levels = [tight(generate(size, size, seed)) for size, seed in ((6, 1), (7, 2), (8, 3), (10, 4))[: 2 if bench.quick else 4]]
    kinds: dict[str, list] = {"1080x1920 start": [], "1080x1920 mid-level": [], "271x480 start": [], "271x480 mid-level": []}
    for seed, board in enumerate(levels, start=1):
        path = [tuple(p) for p in solve(board).solution]
        for when, visited in (("start", []), ("mid-level", path[: len(path) // 2])):
            image, truth = render_phone(board, seed=seed, visited=visited)
            kinds[f"1080x1920 {when}"].append((image, truth))
            kinds[f"271x480 {when}"].append(video_frame(image, truth, 271, 60, 0.6))
    rows = []
    for kind, frames in kinds.items():
        times, right = [], 0
        for image, truth in frames:
            runs = [bench.timed(lambda: _read(image)) for _ in range(3)]
            times.append(min(seconds for seconds, _ in runs))
            right += runs[0][1] == truth.board
        med, worst = summary(times)
        rows.append([kind, len(frames), right, med, worst])
    bench.table("onestroke_parse", "One-stroke parse of a frame (ms, best of 3 each): phone captures and "
                "screen-recording frames", ["frames", "count", "read right", "median", "worst"], rows)


def _read(image: object) -> str | None:
    """The board text a frame reads as (rows joined by '/'), None when refused."""
    from vision.common import NoBoardFound
    from vision.onestroke import parse

    try:
        return parse(image).board.to_text().replace("\n", "/")
    except NoBoardFound:
        return None
