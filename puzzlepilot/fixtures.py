"""Make or check the screenshot fixtures: the vision's regression suite.

    puzzlepilot fixtures make GAME [--dir DIR]
    puzzlepilot fixtures check [GAME ...] [--dir DIR] [--profile NAME|DIR]

``make`` renders the game's fixtures (deterministically: the same files every time) into
``DIR/GAME/`` with ``expected.json``, the board each image shows. ``check`` parses every
fixture again and prints a table of mismatches; it exits 1 when any fixture is read wrong.
Run it after changing the vision.
"""
from __future__ import annotations

import argparse
import importlib
import json
import os
import time
from dataclasses import dataclass
from pathlib import Path

from puzzlepilot.cli import IO, UsageError
from puzzlepilot.games import GAMES, get
from vision.common import NoBoardFound, load_image

DEFAULT_DIR = Path(__file__).resolve().parent.parent / "fixtures"


def add_arguments(p: argparse.ArgumentParser) -> None:
    p.add_argument("action", choices=("make", "check"), help="make: render them; check: parse them again")
    p.add_argument("games", nargs="*", metavar="GAME", help="games (default for check: every game with fixtures)")
    p.add_argument("--dir", type=Path, default=DEFAULT_DIR, help=f"the fixtures folder (default {DEFAULT_DIR})")
    p.add_argument("--profile", metavar="NAME|DIR", help="parse with a calibration profile (check)")


def main(args: argparse.Namespace, io: IO) -> int:
    for g in args.games:
        get(g)
    if args.action == "make":
        if not args.games:
            raise UsageError("fixtures make needs a GAME")
        for g in args.games:
            count = make(g, args.dir)
            io.out(f"{g}: wrote {count} fixtures to {args.dir / g}")
        return 0
    games = args.games or [g for g in GAMES if (args.dir / g / "expected.json").is_file()]
    if not games:
        raise UsageError(f"no fixtures in {args.dir} (make them with: puzzlepilot fixtures make GAME)")
    profile = None
    if args.profile:
        from puzzlepilot.cli import load_profile
        profile = load_profile(args.profile)
    failures = 0
    for g in games:
        rows = check(g, args.dir, profile)
        bad = [r for r in rows if not r.ok]
        failures += len(bad)
        io.out(f"{g}: {len(rows) - len(bad)}/{len(rows)} fixtures read right")
        if bad:
            io.out(f"  {'fixture':32} {'expected':>10} {'got':>10}  detail")
            for r in bad:
                io.out(f"  {r.name:32} {r.expected_summary:>10} {r.got_summary:>10}  {r.detail}")
    return 1 if failures else 0


def make(game: str, folder: Path) -> int:
    """Render a game's fixtures into folder/game, replacing the old set atomically enough
    that a crash leaves either the old or the new expected.json."""
    import cv2

    cases = importlib.import_module(f"puzzlepilot.scenes.{game}").fixture_cases()
    out = folder / game
    out.mkdir(parents=True, exist_ok=True)
    expected = {}
    for case in cases:
        name = f"{case.name}.{case.ext}"
        params = [cv2.IMWRITE_JPEG_QUALITY, case.jpeg_quality] if case.ext == "jpg" else [cv2.IMWRITE_PNG_COMPRESSION, 9]
        ok, data = cv2.imencode(f".{case.ext}", case.image, params)
        if not ok:
            raise RuntimeError(f"cannot encode {name}")
        (out / name).write_bytes(data.tobytes())
        expected[name] = {"board": case.board, "note": case.note}
    for stale in out.iterdir():
        if stale.suffix in (".png", ".jpg") and stale.name not in expected:
            stale.unlink()
    tmp = out / "expected.json.tmp"
    tmp.write_text(json.dumps(expected, indent=1, ensure_ascii=False) + "\n", encoding="utf-8")
    os.replace(tmp, out / "expected.json")
    return len(cases)


@dataclass
class Row:
    name: str
    expected: str | None
    got: str | None
    confidence: float
    ms: float
    detail: str = ""

    @property
    def ok(self) -> bool:
        return self.expected == self.got

    @property
    def expected_summary(self) -> str:
        return _summary(self.expected)

    @property
    def got_summary(self) -> str:
        return _summary(self.got)


def _summary(board: str | None) -> str:
    if board is None:
        return "no board"
    rows = board.split("/")
    return f"{len(rows)}x{max(len(r) for r in rows)}"


def check(game: str, folder: Path, profile: object = None) -> list[Row]:
    """Parse every fixture of a game and compare with expected.json."""
    path = folder / game / "expected.json"
    if not path.is_file():
        raise UsageError(f"no fixtures for {game} in {folder} (make them with: puzzlepilot fixtures make {game})")
    expected = json.loads(path.read_text(encoding="utf-8"))
    parse = get(game).parse
    rows = []
    for name, entry in sorted(expected.items()):
        image = load_image(folder / game / name)
        start = time.perf_counter()
        try:
            found = parse(image, profile=profile) if profile else parse(image)
            got, conf, detail = found.board.to_text().replace("\n", "/"), found.confidence, ""
        except NoBoardFound as exc:
            got, conf, detail = None, 0.0, str(exc)
        elapsed = (time.perf_counter() - start) * 1000
        row = Row(name, entry["board"], got, conf, elapsed, detail)
        if not row.ok and not row.detail:
            row.detail = cell_diff(row.expected, row.got)
        rows.append(row)
    return rows


def cell_diff(expected: str | None, got: str | None) -> str:
    if expected is None or got is None:
        return f"got {got!r}" if got else "expected no board"
    e, g = expected.split("/"), got.split("/")
    if len(e) != len(g) or any(len(a) != len(b) for a, b in zip(e, g)):
        return f"size differs: got {got}"
    diffs = [f"({r},{c}) {a}→{b}" for r, (ea, ga) in enumerate(zip(e, g))
             for c, (a, b) in enumerate(zip(ea, ga)) if a != b]
    return "cells " + ", ".join(diffs[:6]) + (" …" if len(diffs) > 6 else "")
