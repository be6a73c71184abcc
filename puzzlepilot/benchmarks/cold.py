"""Whole commands as the user waits for them: ``puzzlepilot solve --game G --board FILE``
started afresh every time, one board per game.

Per game, median of 10 runs (3 with --quick): the wall time of the whole process and its
CPU time (user + system), the solver time the command reports (``elapsed_ms``, table
loading included), and the first run of all, with an empty table cache. The baselines,
measured the same way in the same run: the interpreter starting and doing nothing
(``python -c pass``), and importing the command line (``python -c "import
puzzlepilot.cli"``); "over start" is a command's wall time less the bare interpreter's.
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
        env = {**os.environ, "PUZZLEPILOT_CACHE": str(Path(folder) / "cache")}

        def median_of(argv: list[str]) -> tuple[float, float, list[str]]:
            results = [timed_run(argv, env) for _ in range(runs)]
            return (statistics.median(r[0] for r in results), statistics.median(r[1] for r in results),
                    [r[2] for r in results])

        python = sys.executable
        bare_wall, bare_cpu, _ = median_of([python, "-c", "pass"])
        import_wall, import_cpu, _ = median_of([python, "-c", "import puzzlepilot.cli"])
        rows = [["python -c pass", ms(bare_wall), ms(bare_cpu), "", "", ""],
                ["import puzzlepilot.cli", ms(import_wall), ms(import_cpu), ms(import_wall - bare_wall), "", ""]]
        for game, text in boards().items():
            bench.progress(f"  cold {game} ...")
            path = Path(folder) / f"{game}.txt"
            path.write_text(text, encoding="utf-8")
            argv = [python, "-m", "puzzlepilot", "solve", "--game", game, "--board", str(path), "--json"]
            first = json.loads(timed_run(argv, env)[2])["elapsed_ms"]     # empty table cache
            wall, cpu, outs = median_of(argv)
            solver = statistics.median(json.loads(out)["elapsed_ms"] for out in outs)
            rows.append([f"solve {game}", ms(wall), ms(cpu), ms(wall - bare_wall), round(solver, 2), round(first, 2)])
    bench.table("cold_commands", f"Whole commands, fresh process each, median of {runs} (ms)",
                ["command", "wall", "cpu", "over start", "solver (reported)", "solver, first run"], rows)
