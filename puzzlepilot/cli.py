"""The command line: argument parsing, dispatch and printing, nothing else.

``main(argv, stdin, stdout, stderr) -> exit status``. Expected failures (bad files, board
texts, options, images without a board) become one line on stderr and status 2 here, in
one place; anything else is a bug and surfaces as a traceback.

Commands beyond ``solve`` and ``parse`` live in their own modules, each with
``add_arguments(parser)`` and ``main(args, io) -> int``; ``COMMANDS`` lists them.
"""
from __future__ import annotations

import argparse
import importlib
import json
import re
import sys
import time
from dataclasses import dataclass
from pathlib import Path
from typing import Any, TextIO

from puzzlepilot import __version__
from puzzlepilot.games import GAMES, Game, UnknownGame, get, parse_best
from calibration.profile import ProfileError
from solvers.common import BoardError
from vision.capture import CaptureError
from vision.common import ImageError, NoBoardFound


class UsageError(Exception):
    """A bad option or combination of options."""


@dataclass
class IO:
    stdin: TextIO
    stdout: TextIO
    stderr: TextIO

    def out(self, text: str = "") -> None:
        print(text, file=self.stdout)

    def err(self, text: str) -> None:
        print(text, file=self.stderr)


# Failures that are the input's fault: one line, status 2.
EXPECTED: tuple[type[BaseException], ...] = (
    UsageError, BoardError, ImageError, NoBoardFound, UnknownGame, ProfileError, CaptureError,
)

# name → (module, one-line help); the module gives add_arguments(parser) and main(args, io).
COMMANDS: dict[str, tuple[str, str]] = {
    "fixtures": ("puzzlepilot.fixtures", "make or check the screenshot fixtures"),
    "bench": ("puzzlepilot.bench", "measure solver and vision speed against baselines"),
    "live": ("puzzlepilot.live", "watch a game on screen: hints for each level, or play it"),
    "practice": ("puzzlepilot.practice", "a practice board that plays a game by its rules"),
    "demo": ("puzzlepilot.demo", "watch the assistant play practice levels (headless: saves pictures)"),
    "calibrate": ("puzzlepilot.calibrate", "teach the vision a new look from one screenshot, or check a profile"),
    "profiles": ("puzzlepilot.profiles", "list, show or delete calibration profiles"),
}
# Further commands (live, practice, demo, calibrate, profiles) add one line here.

GAME_OPTIONS = {
    "metric": "--metric", "rule": "--rule", "moves": "--moves", "wrenches": "--wrenches", "all": "--all",
}


BOARD_FORMATS = """board texts (one line per row; '/' may join rows):
  onestroke  '#' a cell, '.' no cell, 'S' the start:            ##S#/#..#/####
  lyne       '.' empty, t/d/s a shape's node, T/D/S its two terminals, 1-4 a hub
             with that many holes (also the older 'rows cols' + tokens format)
  klotski    one letter per piece (solid rectangles), '.' empty; the target is C
  rings      optional 'moves: N', then 4 lines of 12 (outer ring first, slice 0 at
             9 o'clock, clockwise), '.' empty, any letter an enemy
  valves     lines 'A B' (a pipe), 'inlet: X', 'outlet: Y', 'wrenches: 3'
"""


class _Parser(argparse.ArgumentParser):
    """argparse that raises UsageError instead of exiting, so main() owns the exit."""

    def error(self, message: str) -> None:  # type: ignore[override]
        command = self.prog.removeprefix("puzzlepilot").strip()
        raise UsageError(f"{command}: {message}" if command else message)


def build_parser() -> argparse.ArgumentParser:
    games = ", ".join(GAMES)
    parser = _Parser(
        prog="puzzlepilot",
        description="Read a puzzle game from a screenshot or a board text, solve it exactly, "
                    "and show the answer or play it.",
        epilog=f"games: {games}. Exit status: 0 solved/parsed, 1 no solution, 2 bad input.")
    parser.add_argument("--version", action="version", version=f"puzzlepilot {__version__}")
    sub = parser.add_subparsers(dest="command", metavar="COMMAND", parser_class=_Parser)

    solve = sub.add_parser(
        "solve", help="solve a board text or a screenshot", epilog=BOARD_FORMATS,
        formatter_class=argparse.RawDescriptionHelpFormatter,
        description="Solve a board given as text (--board FILE, '-' for stdin) or read from a "
                    "screenshot (IMAGE).")
    solve.add_argument("image", nargs="?", metavar="IMAGE", help="a screenshot to read the board from")
    solve.add_argument("--board", metavar="FILE", help="a board text file ('-' reads standard input)")
    _common_image_args(solve, games)
    solve.add_argument("--annotate", metavar="OUT.png", help="write the screenshot with the solution drawn on it")
    opts = solve.add_argument_group("game options")
    opts.add_argument("--metric", choices=("piece", "straight", "cell"), help="klotski: how moves are counted (default piece)")
    opts.add_argument("--rule", choices=("strict", "attacks"), help="rings: what counts as solved (default strict)")
    opts.add_argument("--moves", type=int, metavar="N", help="rings: move budget, overriding the board's")
    opts.add_argument("--wrenches", type=int, metavar="N", help="valves: wrenches available (default: the board's)")
    opts.add_argument("--all", action="store_true", default=None, help="valves: list every minimum answer")

    parse = sub.add_parser("parse", help="read the board from a screenshot",
                           description="Read the board from a screenshot and print it with its confidence.")
    parse.add_argument("image", metavar="IMAGE")
    _common_image_args(parse, games)

    for name, (module, help_text) in COMMANDS.items():
        mod = importlib.import_module(module)
        p = sub.add_parser(name, help=help_text, description=user_text(mod.__doc__ or help_text),
                           formatter_class=argparse.RawDescriptionHelpFormatter)
        mod.add_arguments(p)
    return parser


def user_text(doc: str) -> str:
    """A command module's docstring as help text: its layout kept, reST markup dropped."""
    return re.sub(r":\w+:`([^`]+)`|``([^`]+)``", lambda m: m.group(1) or m.group(2), doc.strip())


def _common_image_args(p: argparse.ArgumentParser, games: str) -> None:
    p.add_argument("--game", metavar="GAME", help=f"the game ({games}); for images, skips detection")
    p.add_argument("--profile", metavar="NAME|DIR", help="a calibration profile for the vision")
    p.add_argument("--json", action="store_true", help="print one JSON object")


def main(argv: list[str] | None = None, stdin: TextIO | None = None,
         stdout: TextIO | None = None, stderr: TextIO | None = None) -> int:
    io = IO(stdin or sys.stdin, stdout or sys.stdout, stderr or sys.stderr)
    try:
        parser = build_parser()
        args = parser.parse_args(argv)
        if args.command is None:
            parser.print_help(io.stdout)
            return 2
        if args.command == "solve":
            return cmd_solve(args, io)
        if args.command == "parse":
            return cmd_parse(args, io)
        return importlib.import_module(COMMANDS[args.command][0]).main(args, io)
    except EXPECTED as exc:
        io.err(f"puzzlepilot: error: {exc}")
        return 2
    except KeyboardInterrupt:
        io.err("puzzlepilot: interrupted")
        return 130


def run() -> None:
    sys.exit(main())


# ---------------------------------------------------------------------------- solve, parse

def read_board_text(source: str, io: IO) -> str:
    if source == "-":
        return io.stdin.read()
    path = Path(source)
    if not path.is_file():
        raise UsageError(f"no such board file: {source}")
    try:
        return path.read_text(encoding="utf-8")
    except UnicodeDecodeError:
        raise BoardError(f"{source} is not a text file") from None


def game_options(args: argparse.Namespace, game: Game) -> dict[str, Any]:
    """The game options given on the command line, refusing those of other games."""
    given = {k: getattr(args, k) for k in GAME_OPTIONS if getattr(args, k, None) is not None}
    for key in given:
        if key not in game.options:
            raise UsageError(f"{GAME_OPTIONS[key]} does not apply to {game.name}")
    return given


def read_screenshot(args: argparse.Namespace) -> Any:
    """Load the image and parse it with --game's vision or, without it, every game's,
    keeping the most confident reading."""
    from vision.common import load_image

    image = load_image(args.image)
    profile = load_profile(args.profile) if args.profile else None
    games = [get(args.game)] if args.game else list(GAMES.values())
    try:
        return image, parse_best(image, games, profile)
    except NoBoardFound as exc:
        raise NoBoardFound(f"no board found in {args.image} ({exc})") from None


def load_profile(name: str) -> Any:
    from calibration.profile import load

    return load(name)


def say_warnings(found: Any, io: IO) -> None:
    """A reading's warnings (a part the vision could not read, say), one line each on stderr."""
    for warning in found.geometry.get("warnings", ()):
        io.err(f"warning: {warning}")


def cmd_parse(args: argparse.Namespace, io: IO) -> int:
    _, found = read_screenshot(args)
    say_warnings(found, io)
    text = found.board.to_text()
    if args.json:
        io.out(json.dumps({"game": found.game, "board": text.replace("\n", "/"),
                           "confidence": round(found.confidence, 4),
                           "cells": [[round(x, 1), round(y, 1)] for x, y in found.cells]}))
    else:
        io.out(f"{get(found.game).title} board, confidence {found.confidence:.2f}:")
        io.out(text)
    return 0


def cmd_solve(args: argparse.Namespace, io: IO) -> int:
    if (args.image is None) == (args.board is None):
        raise UsageError("give either an IMAGE or --board FILE")
    if args.annotate and not args.image:
        raise UsageError("--annotate needs a screenshot (IMAGE)")
    found = None
    if args.image:
        image, found = read_screenshot(args)
        if getattr(args, "moves", None) is None:
            say_warnings(found, io)
        game, board = get(found.game), found.board
    else:
        if not args.game:
            raise UsageError("--board needs --game")
        game = get(args.game)
        board = game.board.from_text(read_board_text(args.board, io))
    options = game_options(args, game)

    start = time.perf_counter()
    result = game.solve(board, **options)
    elapsed_ms = (time.perf_counter() - start) * 1000.0

    if args.annotate and result.solved:
        write_annotation(Path(args.annotate), image, game.hints(found, result.solution))

    if args.json:
        obj: dict[str, Any] = {"game": game.name, "board": board.to_text().replace("\n", "/"),
                               "solved": result.solved, "solution": result.solution,
                               "moves": result.moves, "elapsed_ms": round(elapsed_ms, 3)}
        if found is not None:
            obj["confidence"] = round(found.confidence, 4)
        if not result.solved:
            obj["reason"] = result.reason
        obj.update(result.extra)
        io.out(json.dumps(obj))
    else:
        print_solution(io, game, board, result, elapsed_ms, found)
        if args.annotate and result.solved:
            io.out(f"annotated picture: {args.annotate}")
    return 0 if result.solved else 1


def write_annotation(path: Path, image: Any, shapes: list[Any]) -> None:
    """Draw the hints on the screenshot and write it atomically (no half-written file)."""
    import cv2
    from overlay.draw import render

    suffix = path.suffix.lower() or ".png"
    ok, data = cv2.imencode(suffix if suffix in (".png", ".jpg", ".jpeg", ".bmp") else ".png",
                            render(image, shapes))
    if not ok:
        raise UsageError(f"cannot encode {path}")
    if not path.parent.is_dir():
        raise UsageError(f"no such folder for --annotate: {path.parent}")
    tmp = path.with_name(f".{path.name}.tmp")
    tmp.write_bytes(data.tobytes())
    tmp.replace(path)


def print_solution(io: IO, game: Game, board: Any, result: Any, elapsed_ms: float, found: Any) -> None:
    if found is not None:
        io.out(f"read a {game.title} board (confidence {found.confidence:.2f}):")
    io.out(board.to_text())
    io.out()
    if not result.solved:
        io.out(f"no solution: {result.reason}")
        return
    io.out(f"solved in {elapsed_ms:.1f} ms, {result.moves} moves:")
    show = getattr(importlib.import_module(f"solvers.{game.name}"), "show", None)
    io.out(show(board, result.solution) if show else json.dumps(result.solution))
    answers = result.extra.get("solutions")
    if answers and len(answers) > 1:    # --all (valves): every minimum answer
        io.out(f"all {len(answers)} minimum answers:")
        io.out("\n".join("  " + " ".join(map(str, answer)) for answer in answers))
