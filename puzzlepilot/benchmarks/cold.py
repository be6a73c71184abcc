"""Whole commands as the user waits for them: ``puzzlepilot solve --game G --board FILE``
started afresh every time, one board per game.

Per game, median of 10 runs (3 with --quick): the wall time of the whole process and its
CPU time (user + system), the solver time the command reports (``elapsed_ms``, table
loading included), and the first run of all, with an empty table cache. The baselines,
measured the same way in the same run: the interpreter starting and doing nothing
(``python -c pass``), and importing the command line (``python -c "import
puzzlepilot.cli"``); "over start" is a command's wall time less the bare interpreter's.

Then the first solve in a fresh process against the next one in that process (a warm
one), on the boards the issue names: rings within 1–3 moves (8–24 enemies, their
backward levels in the table cache) and LYNE 5×5 and 6×6 levels (plain and hub-dense),
wall and CPU time of the ``solve`` call alone, each answer checked by the game's checker.
"""
from __future__ import annotations

import json
import os
import random
import resource
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

from puzzlepilot.bench import Bench, ms

ROOT = Path(__file__).resolve().parents[2]


def boards() -> dict[str, str]:
    """One board text per game: the ones the in-process benchmarks use most."""
    from solvers import klotski, lyne, onestroke, rings
    from puzzlepilot.benchmarks.valves import GAME

    return {
        "onestroke": onestroke.generate(10, 10, 3).to_text(),
        "lyne": lyne.generate(6, 8, random.Random(7), hubs=6)[0].to_text(),
        "klotski": klotski.layout("横刀立马").to_text(),
        "rings": rings.generate(11, 3, 3).to_text(),
        "valves": GAME.replace("/", "\n"),
    }


def timed_run(argv: list[str], env: dict[str, str]) -> tuple[float, float, str]:
    """(wall seconds, child CPU seconds, stdout) of one process."""
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    start = time.perf_counter()
    done = subprocess.run(argv, cwd=ROOT, env=env, capture_output=True, text=True)
    wall = time.perf_counter() - start
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    cpu = after.ru_utime - before.ru_utime + after.ru_stime - before.ru_stime
    if done.returncode not in (0, 1):
        raise RuntimeError(f"{' '.join(argv)} failed: {done.stderr.strip()}")
    return wall, cpu, done.stdout


def run(bench: Bench) -> None:
    runs = 3 if bench.quick else 10
    with tempfile.TemporaryDirectory() as folder:
        env = {**{k: v for k, v in os.environ.items() if k != "PYTHONDONTWRITEBYTECODE"},
               "PUZZLEPILOT_CACHE": str(Path(folder) / "cache"), "PYTHONPYCACHEPREFIX": str(Path(folder) / "bytecode")}
        compiling = {**env, "PUZZLEPILOT_CACHE": str(Path(folder) / "compiling")}

        def median_of(argv: list[str]) -> tuple[float, float, list[str]]:
            results = [timed_run(argv, env) for _ in range(runs)]
            return (statistics.median(r[0] for r in results), statistics.median(r[1] for r in results),
                    [r[2] for r in results])

        python = sys.executable
        timed_run([python, "-c", "import puzzlepilot.cli"], compiling)     # the bytecode written
        bare_wall, bare_cpu, _ = median_of([python, "-c", "pass"])
        import_wall, import_cpu, _ = median_of([python, "-c", "import puzzlepilot.cli"])
        rows = [["python -c pass", ms(bare_wall), ms(bare_cpu), "", "", ""],
                ["import puzzlepilot.cli", ms(import_wall), ms(import_cpu), ms(import_wall - bare_wall), "", ""]]
        for game, text in boards().items():
            bench.progress(f"  cold {game} ...")
            path = Path(folder) / f"{game}.txt"
            path.write_text(text, encoding="utf-8")
            argv = [python, "-m", "puzzlepilot", "solve", "--game", game, "--board", str(path), "--json"]
            timed_run(argv, compiling)      # the bytecode written (the tables elsewhere)
            first = json.loads(timed_run(argv, env)[2])["elapsed_ms"]     # empty table cache
            wall, cpu, outs = median_of(argv)
            solver = statistics.median(json.loads(out)["elapsed_ms"] for out in outs)
            rows.append([f"solve {game}", ms(wall), ms(cpu), ms(wall - bare_wall), round(solver, 2), round(first, 2)])
    bench.table("cold_commands", f"Whole commands, fresh process each, median of {runs} (ms)",
                ["command", "wall", "cpu", "over start", "solver (reported)", "solver, first run"], rows)
    first_solves(bench)


FIRST_AND_WARM = """
import sys, time
from solvers import {game} as solver
board = solver.Board.from_text(sys.argv[1])
times = []
for _ in range(2):
    wall, cpu = time.perf_counter(), time.process_time()
    result = solver.solve(board)
    times += [time.perf_counter() - wall, time.process_time() - cpu]
    assert result.solved and solver.validate(board, result.solution) == [], sys.argv[1]
print(*times)
"""


def first_boards(quick: bool) -> dict[str, list[str]]:
    """Rings boards within 1, 2 and 3 moves of 8, 16 and 24 enemies; LYNE 5×5 and 6×6
    levels, plain (2–10 hubs) and hub-dense (6–20)."""
    from solvers import lyne, rings

    per = 1 if quick else 3
    ring_boards = [rings.generate(100 * depth + k, groups, depth).to_text()
                   for depth in (1, 2, 3) for groups in (2, 4, 6) for k in range(per)]
    lyne_boards = []
    for size in (5, 6):
        for dense in (False, True):
            rng = random.Random(size * 10 + dense + 100)
            made = 0
            while made < (1 if quick else 5):
                try:
                    board, _ = lyne.generate(size, size, rng, hubs=rng.randint(6, 20) if dense else rng.randint(2, 10),
                                             tries=2000, stretch=3 if dense else 1, revisit=8 if dense else 3)
                except ValueError:
                    continue
                lyne_boards.append(board.to_text())
                made += 1
    return {"rings": ring_boards, "lyne": lyne_boards}


def first_solves(bench: Bench) -> None:
    """The first ``solve`` call in a fresh process against the second (warm) one."""
    rows = []
    with tempfile.TemporaryDirectory() as folder:
        env = {**os.environ, "PUZZLEPILOT_CACHE": str(Path(folder) / "cache")}
        for game, texts in first_boards(bench.quick).items():
            bench.progress(f"  first solve, {game} ...")
            code = FIRST_AND_WARM.format(game=game)
            for text in texts[:1] if game == "lyne" else texts:    # the table cache filled (rings' levels)
                subprocess.run([sys.executable, "-c", code, text], cwd=ROOT, env=env, check=True, capture_output=True)
            times = [[float(t) for t in subprocess.run([sys.executable, "-c", code, text], cwd=ROOT, env=env, check=True,
                                                       capture_output=True, text=True).stdout.split()]
                     for text in texts]
            rows.append([game, len(texts), *(f(ms(t[i]) for t in times) for i in (0, 1, 2, 3) for f in (statistics.median, max))])
    bench.table("first_solves", "First solve in a fresh process vs the next (warm) one, the solve call alone (ms)",
                ["game", "boards", *(f"{kind}{worst}" for kind in ("first wall", "first cpu", "warm wall", "warm cpu")
                                     for worst in ("", " worst"))], rows)
