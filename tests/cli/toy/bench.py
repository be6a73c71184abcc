"""The toy game's benchmark: its solver against a plain count of the dark lamps."""
from __future__ import annotations

from puzzlepilot.bench import Bench, summary
from tests.cli.toy.rules import Board, solve


def run(bench: Bench) -> None:
    board = Board("01" * 50)
    times = [bench.timed(lambda: solve(board))[0] for _ in range(5)]
    plain = [bench.timed(lambda: board.lamps.count("0"))[0] for _ in range(5)]
    bench.table("toy", "toy: solve a row of 100 lamps (ms)", ["solver", "median", "worst"],
                [["toy", *summary(times)], ["plain count", *summary(plain)]])
