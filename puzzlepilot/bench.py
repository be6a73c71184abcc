"""Measure solver and vision speed, each against a plain baseline run in the same process.

    puzzlepilot bench [TARGET ...] [--quick] [--json]

Targets are games (onestroke, lyne, klotski, rings, valves), ``live``, ``calibration``,
``vision`` (every game's parse of a 1080p frame, and the live step to hints drawn),
``cold`` (whole commands in fresh processes) and ``gnome-klotski`` (the real game's 28
puzzles played to the end in one game session by ``live --play --next``, when the game is
installed); no target runs them all. Every figure is printed
as a table; ratios against the baseline, measured in the same run, are what to compare
between machines.
"""
from __future__ import annotations

import argparse
import importlib
import json
import statistics
import time
from contextlib import ExitStack
from dataclasses import dataclass, field
from typing import Any, Callable

from puzzlepilot.errors import UsageError
from puzzlepilot.games import GAMES
from puzzlepilot.userio import IO

# The targets beyond the games' own benchmarks (which the registry names).
TARGETS = {
    "live": "puzzlepilot.benchmarks.live",
    "calibration": "puzzlepilot.benchmarks.calibration",
    "vision": "puzzlepilot.benchmarks.vision",
    "cold": "puzzlepilot.benchmarks.cold",
    "gnome-klotski": "puzzlepilot.benchmarks.gnome_klotski",
}


def targets() -> list[str]:
    """Every target: the games that have a benchmark, then ``TARGETS``."""
    return [name for name, game in GAMES.items() if game.benchmark] + list(TARGETS)


def add_arguments(p: argparse.ArgumentParser) -> None:
    p.add_argument("targets", nargs="*", metavar="TARGET", help=f"what to measure: {', '.join(targets())} (default: all)")
    p.add_argument("--quick", action="store_true",
                   help="fewer and smaller cases, for a smoke run (gnome-klotski: its first 3 puzzles, not 28)")
    p.add_argument("--json", action="store_true", help="print the figures as one JSON object at the end")
    p.add_argument("--puzzles", type=_numbers, metavar="LIST",
                   help="gnome-klotski: only these of its puzzles, numbered from 1 in its menu's order "
                        "(e.g. 17,21-23)")
    p.add_argument("--game", choices=sorted(GAMES), help="calibration: only this game's style zoo")


SCREEN = (1920, 1080)       # px: the private Xvfb every target that draws shares (one a run)


@dataclass
class Bench:
    """What a benchmark module gets: timing helpers and a table printer that also keeps
    every figure for ``--json``."""

    io: IO
    quick: bool
    puzzles: tuple[int, ...] | None = None     # --puzzles (gnome-klotski), numbered from 1
    results: dict[str, Any] = field(default_factory=dict)
    quiet: bool = False
    resources: ExitStack = field(default_factory=ExitStack)   # closed when the whole run ends
    screen: tuple[int, int] | None = None                     # the private Xvfb's size, once started
    game: str | None = None                                   # --game: the one game whose zoo is measured

    def wants(self, game: str) -> bool:
        """Whether ``game``'s part of a target is measured (``--game``; every game's without it)."""
        return self.game in (None, game)

    def private_screen(self) -> None:
        """A private Xvfb of ``SCREEN`` (DISPLAY pointing at it) for the rest of the run,
        started on first use and shared by every target that draws: Tk cannot open a window
        after a display it has used is gone (the process dies with "XIO: fatal IO error")."""
        if self.screen is None:
            from puzzlepilot.demo import private_display

            self.resources.enter_context(private_display(SCREEN))
            self.screen = SCREEN

    @staticmethod
    def timed(fn: Callable[[], Any]) -> tuple[float, Any]:
        """(seconds, return value) of one call."""
        start = time.perf_counter()
        value = fn()
        return time.perf_counter() - start, value

    def progress(self, text: str) -> None:
        if not self.quiet:
            self.io.err(text)

    def table(self, key: str, title: str, headers: list[str], rows: list[list[Any]]) -> None:
        self.results[key] = [dict(zip(headers, row)) for row in rows]
        if self.quiet:
            return
        cells = [[_fmt(v) for v in row] for row in rows]
        widths = [max(len(h), *(len(r[i]) for r in cells)) if cells else len(h) for i, h in enumerate(headers)]
        self.io.out(f"\n{title}")
        self.io.out("  ".join(h.rjust(w) for h, w in zip(headers, widths)))
        for r in cells:
            self.io.out("  ".join(c.rjust(w) for c, w in zip(r, widths)))


def _numbers(text: str) -> tuple[int, ...]:
    """``--puzzles``: numbers and ranges from 1, comma-separated ("17,21-23"), sorted."""
    found: set[int] = set()
    for part in text.split(","):
        low, dash, high = part.strip().partition("-")
        high = high if dash else low
        if not low.isdigit() or not high.isdigit() or int(low) < 1 or int(high) < int(low):
            raise argparse.ArgumentTypeError(f"{text!r} is not a list of puzzle numbers from 1 (e.g. 17,21-23)")
        found.update(range(int(low), int(high) + 1))
    return tuple(sorted(found))


def _fmt(v: Any) -> str:
    if isinstance(v, float):
        return f"{v:.3g}" if abs(v) < 1000 else f"{v:.0f}"
    return str(v)


def ms(seconds: float) -> float:
    return round(seconds * 1000.0, 3)


def summary(times: list[float]) -> tuple[float, float]:
    """(median ms, worst ms) of a list of seconds."""
    return ms(statistics.median(times)), ms(max(times))


def main(args: argparse.Namespace, io: IO) -> int:
    known = targets()
    chosen = args.targets or known
    for t in chosen:
        if t not in known:
            raise UsageError(f"unknown bench target {t!r} (targets: {', '.join(known)})")
    bench = Bench(io, args.quick, args.puzzles, quiet=args.json, game=args.game)
    with bench.resources:
        for t in chosen:
            bench.progress(f"bench {t} ...")
            if t in TARGETS:
                importlib.import_module(TARGETS[t]).run(bench)
            else:
                GAMES[t].bench(bench)
    if args.json:
        io.out(json.dumps(bench.results))
    return 0
