"""The command line: argument parsing, dispatch and printing, nothing else.

``main(argv, stdin, stdout, stderr) -> exit status``. Expected failures (bad files, board
texts, options, images without a board) become one line on stderr and status 2 here, in
one place; anything else is a bug: one line and status 3 (``--debug`` adds the traceback).

Commands beyond ``solve`` and ``parse`` live in their own modules, each with
``add_arguments(parser)`` and ``main(args, io) -> int``; ``COMMANDS`` lists them. What the
commands share (``IO``, reading board texts and numbers, writing pictures) is in
``puzzlepilot.userio`` and ``UsageError`` in ``puzzlepilot.errors``: no command imports this
module, and every game part is found through ``puzzlepilot.games``.
"""
from __future__ import annotations

import argparse
import dataclasses
import importlib
import os
import sys
import time

from puzzlepilot import __version__
from puzzlepilot.errors import UsageError
from puzzlepilot.games import GAMES, Game, get, offered_options, parse_best
from puzzlepilot.userio import IO, load_profile, read_board_text, write_annotation
from solvers.common import BoardError, OptionError
from solvers.files import check_output, same_file

TYPE_CHECKING = False
if TYPE_CHECKING:     # annotations only: a command starts without typing (~2 ms) nor pathlib
    from pathlib import Path
    from typing import Any, TextIO


# Failures that are the input's fault: one line, status 2. Named by module: a command that
# never loads a module (solving a board text loads no vision, no numpy) cannot meet its
# errors, so it need not import them to catch them (see expected_errors).
EXPECTED = (
    "solvers.common:OptionError", "solvers.files:FileRefused",
    "puzzlepilot.errors:UsageError", "solvers.common:BoardError", "vision.common:ImageError",
    "vision.common:NoBoardFound", "puzzlepilot.games:UnknownGame", "vision.profile:ProfileError",
    "vision.capture:CaptureError",
    "overlay.surface:OverlayError",
)


def expected_errors() -> tuple[type[BaseException], ...]:
    """The ``EXPECTED`` error classes of the modules loaded so far."""
    found = []
    for name in EXPECTED:
        module, _, cls = name.partition(":")
        if module in sys.modules:
            found.append(getattr(sys.modules[module], cls))
    return tuple(found)

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

# Help for people: a command's description (None: its module docstring) and examples.
USER_HELP: dict[str, tuple[str | None, str]] = {
    "solve": (None, """examples:
  puzzlepilot solve --game onestroke --board level.txt
  puzzlepilot solve shot.png --annotate hint.png          # any game is recognised
  echo '##S#/#..#/####' | puzzlepilot solve --game onestroke --board - --json
  puzzlepilot solve --game rings --board arena.txt --moves 4 --rule attacks
"""),
    "parse": (None, """examples:
  puzzlepilot parse shot.png
  puzzlepilot parse shot.png --game lyne --json
  puzzlepilot parse other.png --profile night             # a calibrated look
  puzzlepilot parse refused.png --stages stages/          # where the reading stopped, as pictures
"""),
    "live": ("""Watch a game on screen: each new level is read, solved and its answer drawn over the
game (hints), or played with the mouse (--play). Ctrl-C stops (exit status 130) and leaves
the mouse button released.

Pick the game's window by a part of its title (--window), a screen rectangle (--region)
or a whole monitor (--monitor). A phone or console game needs a window on this desktop
first: a phone mirrored with scrcpy, a capture card shown by OBS, VLC or ffplay
(README: "Getting a game into a window").

--hints overlay draws the whole answer over the game; step shows one step at a time
(a LYNE path, a ring move) and moves on as you make them; window shows the annotated
capture in its own window; none only prints. --play plays each level, --dry-run prints
the moves instead. The driver stops the moment you move the mouse.""", """examples:
  puzzlepilot live --window "scrcpy" --game onestroke                # hints over a mirrored phone
  puzzlepilot live --window "LYNE" --play                            # play LYNE level after level
  puzzlepilot live --window "LYNE" --hints step                      # one path at a time
  puzzlepilot live --region 100,80,800,600 --game klotski --hints window
  puzzlepilot live --window "OBS" --game rings --hints step          # a capture card's picture
  puzzlepilot live --window "Machinarium" --profile machinarium --play --dry-run
  puzzlepilot live --window Klotski --game klotski --play --next     # GNOME Klotski, puzzle after puzzle
"""),
    "practice": ("""A practice window that plays a game by its rules, drawn in the look the vision is
tested on: try hints and auto-play (puzzlepilot live) without the real game.

Solve a level with the mouse (rings: also keys, with --keymap) and the next one follows,
a new board each time (seed + 1). --board starts from your own board instead: a board
text FILE ('-' reads standard input) for lyne, klotski or valves, written as
"puzzlepilot solve --help" describes. Close the window or press Ctrl-C to stop.""", """examples:
  puzzlepilot practice onestroke --size 7x7 --seed 5
  puzzlepilot practice klotski --board layout.txt
  puzzlepilot practice rings --keymap keys.json
  # in a second terminal: puzzlepilot live --window "puzzlepilot practice" --play
"""),
    "demo": (None, """examples:
  puzzlepilot demo                   # one-stroke, 3 levels; pictures in demo-out/index.html
  puzzlepilot demo lyne --levels 2 --out /tmp/lyne-demo
"""),
    "calibrate": (None, """examples:
  puzzlepilot calibrate onestroke shot.png --name night --board '##S##/#.###/#####/##.##'
  puzzlepilot calibrate onestroke shot.png --name night           # mark the board in a window
  puzzlepilot calibrate --check night a.png b.jpg --boards expected.txt
"""),
    "profiles": (None, """examples:
  puzzlepilot profiles list
  puzzlepilot profiles show night
  puzzlepilot profiles delete night
"""),
    "bench": (None, """examples:
  puzzlepilot bench --quick                  # a smoke run of everything
  puzzlepilot bench onestroke klotski --json
"""),
}

BOARD_TEXTS = ("board texts (one line per row, every row written out in full; '/' may join rows; a board\n"
               "past its game's size is refused as too large, exit 2, before any work):")


def board_formats(games: list[Game]) -> str:
    """The board text of each game as its entry writes it (``board_format``), for ``solve --help``."""
    width = max((len(g.name) for g in games), default=0) + 1
    lines = [BOARD_TEXTS]
    for game in games:
        lines += [f"  {game.name if i == 0 else '':<{width}} {line}" for i, line in enumerate(game.board_format)]
    return "\n".join(lines) + "\n"


def add_game_options(group: argparse._ArgumentGroup) -> None:
    """The games' solver options (``Game.options``), each once, its help led by the games
    it applies to."""
    for option, names in offered_options(GAMES.values()):
        help_text = f"{', '.join(names)}: {option.help}"
        if option.switch:   # default None, not False: "not given" is told from "given"
            group.add_argument(option.flag, action="store_true", default=None, help=help_text)
        else:
            group.add_argument(option.flag, type=option.type, choices=option.choices, metavar=option.metavar,
                               help=help_text)


class _Parser(argparse.ArgumentParser):
    """argparse that raises UsageError instead of exiting, so main() owns the exit."""

    def error(self, message: str) -> None:  # type: ignore[override]
        command = self.prog.removeprefix("puzzlepilot").strip()
        raise UsageError(f"{command}: {message}" if command else message)


def build_parser(command: str | None = None) -> argparse.ArgumentParser:
    """The parser; with a known ``command``, only that command's parser is made (argparse's
    every parser costs ~0.5 ms of message look-ups) and only its module loaded, so ``solve``
    starts quickly and does not import the live loop. Without one, or with an unknown word
    (its error lists the commands), every command is there, by name and help."""
    only = command if command in ("solve", "parse", *COMMANDS) else None
    games = ", ".join(GAMES)
    parser = _Parser(
        prog="puzzlepilot",
        description="Read a puzzle game from a screenshot or a board text, solve it exactly, "
                    "and show the answer or play it.",
        formatter_class=argparse.RawDescriptionHelpFormatter,
        epilog=f"""games: {games}
exit status: 0 solved/parsed, 1 no solution, 2 bad input,
  3 internal error (a defect: report it with --debug output), 130 stopped by Ctrl-C
examples:
  puzzlepilot demo                                  # watch it play practice levels
  puzzlepilot solve shot.png --annotate hint.png    # read, solve, draw the answer
  puzzlepilot live --window "LYNE" --play           # play a game on screen
  puzzlepilot COMMAND --help                        # each command's options and examples""")
    parser.add_argument("--version", action="version", version=f"puzzlepilot {__version__}")
    parser.add_argument("--debug", action="store_true", help="show the traceback of an internal error")
    sub = parser.add_subparsers(dest="command", metavar="COMMAND", parser_class=_Parser)
    if only in (None, "solve"):
        add_solve(sub, games)
    if only in (None, "parse"):
        add_parse(sub, games)
    for name, (module, help_text) in COMMANDS.items():
        if only not in (None, name):
            continue
        if command != name:
            sub.add_parser(name, help=help_text)
            continue
        mod = importlib.import_module(module)
        description, examples = USER_HELP.get(name, (None, None))
        p = sub.add_parser(name, help=help_text, description=description or user_text(mod.__doc__ or help_text),
                           epilog=examples, formatter_class=argparse.RawDescriptionHelpFormatter)
        mod.add_arguments(p)
    return parser


def add_solve(sub: Any, games: str) -> None:
    solve = sub.add_parser(
        "solve", help="solve a board text or a screenshot",
        epilog=board_formats(list(GAMES.values())) + "\n" + USER_HELP["solve"][1],
        formatter_class=argparse.RawDescriptionHelpFormatter,
        description="Solve a board given as text (--board FILE, '-' for stdin) or read from a "
                    "screenshot (IMAGE).")
    solve.add_argument("image", nargs="?", metavar="IMAGE", help="a screenshot to read the board from")
    solve.add_argument("--board", metavar="FILE", help="a board text file ('-' reads standard input)")
    _common_image_args(solve, games)
    solve.add_argument("--annotate", metavar="OUT.png",
                       help="write the screenshot with the solution drawn on it (a new file, or over a "
                            "regular file not write-protected; folders, links and devices are refused)")
    add_game_options(solve.add_argument_group("game options"))
    _stages_arg(solve)


def add_parse(sub: Any, games: str) -> None:
    parse = sub.add_parser("parse", help="read the board from a screenshot", epilog=USER_HELP["parse"][1],
                           formatter_class=argparse.RawDescriptionHelpFormatter,
                           description="Read the board from a screenshot and print it with its confidence.")
    parse.add_argument("image", metavar="IMAGE")
    _common_image_args(parse, games)
    _stages_arg(parse)


def _stages_arg(p: argparse.ArgumentParser) -> None:
    p.add_argument("--stages", metavar="DIR", type=_path,
                   help="write the vision's intermediate pictures (mask, candidates, grid, cells) "
                        "into DIR (new, empty, or one --stages wrote), also when no board is found")


def _path(text: str) -> Path:
    """A path option's value (pathlib loaded only when one is given)."""
    from pathlib import Path

    return Path(text)


def user_text(doc: str) -> str:
    """A command module's docstring as help text: its layout kept, reST markup dropped."""
    import re

    return re.sub(r":\w+:`([^`]+)`|``([^`]+)``", lambda m: m.group(1) or m.group(2), doc.strip())


def _common_image_args(p: argparse.ArgumentParser, games: str) -> None:
    p.add_argument("--game", metavar="GAME", help=f"the game ({games}); for images, skips detection")
    p.add_argument("--profile", metavar="NAME|DIR", help="a calibration profile for the vision")
    p.add_argument("--json", action="store_true", help="print one JSON object")


def main(argv: list[str] | None = None, stdin: TextIO | None = None,
         stdout: TextIO | None = None, stderr: TextIO | None = None) -> int:
    io = IO(stdin or sys.stdin, stdout or sys.stdout, stderr or sys.stderr)
    # OpenCV's own warnings would add lines before ours (errors still raise).
    os.environ.setdefault("OPENCV_LOG_LEVEL", "ERROR")
    argv = sys.argv[1:] if argv is None else list(argv)
    debug = "--debug" in argv   # allowed anywhere on the line, not only before the command
    try:
        if any("\0" in a for a in argv):   # no path or value holds one; Path() would raise
            raise UsageError("an argument holds a NUL character")
        words = [a for a in argv if a != "--debug"] if debug else argv
        parser = build_parser(next((w for w in words if not w.startswith("-")), None))
        args = parser.parse_args(words)
        if args.command is None:
            parser.print_help(io.stdout)
            return 2
        if args.command == "solve":
            return cmd_solve(args, io)
        if args.command == "parse":
            return cmd_parse(args, io)
        return importlib.import_module(COMMANDS[args.command][0]).main(args, io)
    except expected_errors() as exc:    # evaluated when an error is raised: what is loaded then
        io.err(f"puzzlepilot: error: {exc}")
        return 2
    except KeyboardInterrupt:
        io.err("puzzlepilot: interrupted")
        return 130
    except BrokenPipeError:
        return closed_output()
    except ModuleNotFoundError as exc:    # an optional piece of the system, or a broken install
        io.err("puzzlepilot: error: this needs tkinter, which is not installed (Debian/Ubuntu: sudo apt-get "
               "install python3-tk)" if exc.name == "tkinter" else
               f"puzzlepilot: error: the Python module {exc.name!r} is missing: install puzzlepilot again "
               "(pip install .)")
        return 2
    except RecursionError:
        io.err("puzzlepilot: error: the input is nested too deeply to read")
        return 2
    except Exception as exc:   # the guard: a defect is one line and status 3, never a traceback
        if debug:
            import traceback

            traceback.print_exc(file=io.stderr)
        detail = " ".join(str(exc).split())[:300]
        io.err(f"puzzlepilot: internal error: {type(exc).__name__}: {detail}; "
               "please report it with the --debug output")
        return 3


def closed_output() -> int:
    """The reader of standard output went away (``puzzlepilot solve ... | head``): stop
    quietly with the shell's status for it, 141, and no "Exception ignored" at exit."""
    try:
        os.dup2(os.open(os.devnull, os.O_WRONLY), sys.stdout.fileno())
    except (OSError, ValueError):   # stdout is not a real file (tests): nothing to silence
        pass
    return 141


def run() -> None:
    status = main()
    try:
        sys.stdout.flush()
    except BrokenPipeError:
        status = closed_output()
    sys.exit(status)


# ---------------------------------------------------------------------------- solve, parse

def game_options(args: argparse.Namespace, game: Game) -> dict[str, Any]:
    """The game options given on the command line (by the solver's keyword), refusing
    those of other games."""
    given = {}
    for option, _ in offered_options(GAMES.values()):
        value = getattr(args, option.dest, None)
        if value is not None:
            if option not in game.options:
                raise UsageError(f"{option.flag} does not apply to {game.name}")
            given[option.dest] = value
    return given


def read_screenshot(args: argparse.Namespace, io: IO) -> Any:
    """Load the image and parse it with --game's vision or, without it, every game's,
    keeping the most confident reading (with --stages, the readings' pictures written)."""
    import contextlib

    from vision.common import NoBoardFound, load_image

    image = load_image(args.image)
    profile = load_profile(args.profile) if args.profile else None
    games = [get(args.game)] if args.game else list(GAMES.values())
    recording: Any = contextlib.nullcontext()
    if args.stages:     # (its module is loaded only then: a plain parse starts as fast as before)
        from puzzlepilot.stages import stages_written

        recording = stages_written(args.stages, io)
    try:
        with recording:
            return image, parse_best(image, games, profile)
    except NoBoardFound as exc:
        raise NoBoardFound(f"no board found in {args.image} ({exc})") from None


def say_warnings(found: Any, io: IO) -> None:
    """A reading's warnings (a part the vision could not read, say), one line each on stderr."""
    for warning in found.warnings:
        io.err(f"puzzlepilot: warning: {warning}")


def cmd_parse(args: argparse.Namespace, io: IO) -> int:
    _, found = read_screenshot(args, io)
    say_warnings(found, io)
    text = found.board.to_text()
    if args.json:
        import json

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
    if args.stages and not args.image:
        raise UsageError("--stages needs a screenshot (IMAGE)")
    if args.annotate == "":
        raise UsageError("--annotate needs a file name")
    annotate = _path(args.annotate) if args.annotate else None
    if annotate:
        check_output(annotate)
        if same_file(args.annotate, args.image):
            raise UsageError(f"--annotate {args.annotate} is the screenshot itself: give another file "
                             "(the screenshot is not replaced)")
    found = None
    if args.image:
        image, found = read_screenshot(args, io)
        game, board = get(found.game), found.board
        # An option that gives what the vision could not read (rings' --moves) answers its warnings.
        if not any(o.answers_warnings and getattr(args, o.dest, None) is not None for o in game.options):
            say_warnings(found, io)
    else:
        if not args.game:
            raise UsageError("--board needs --game")
        game = get(args.game)
        board = game.board.from_text(read_board_text(args.board, io))
    options = game_options(args, game)
    # An option that is a field of the board (valves' --wrenches) replaces it there, so the
    # board printed and the wrenches said to be left agree with it.
    fields = {f.name for f in dataclasses.fields(board)}
    try:
        board = dataclasses.replace(board, **{k: options.pop(k) for k in list(options) if k in fields})
    except BoardError as exc:   # the board refuses the option's value (--wrenches -3)
        raise OptionError(str(exc)) from None
    if game.reports_progress:
        options["progress"] = lambda text: io.err(f"puzzlepilot: {game.name}: {text} ...")

    game.prepare(board, **options)
    start = time.perf_counter()
    result = game.solve(board, **options)
    elapsed_ms = (time.perf_counter() - start) * 1000.0

    if args.annotate and result.solved:
        if game.sheet is not None:
            write_annotation(annotate, game.sheet(image, found, result.solution), [])
        else:
            write_annotation(annotate, image, game.hints(found, result.solution))

    if args.json:
        import json

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


def print_solution(io: IO, game: Game, board: Any, result: Any, elapsed_ms: float, found: Any) -> None:
    if found is not None:
        io.out(f"read a {game.title} board (confidence {found.confidence:.2f}):")
    io.out(board.to_text())
    io.out()
    if not result.solved:
        io.out(f"no solution: {result.reason}")
        return
    io.out(f"solved in {elapsed_ms:.1f} ms, {result.moves} move{'' if result.moves == 1 else 's'}:")
    if result.note:
        io.out(f"({result.note})")
    if game.show:
        io.out(game.show(board, result.solution))
    else:
        import json

        io.out(json.dumps(result.solution))
    answers = result.extra.get("solutions")
    if answers and len(answers) > 1:    # --all (valves): every minimum answer
        io.out(f"all {len(answers)} minimum answers:")
        io.out("\n".join("  " + " ".join(map(str, answer)) for answer in answers))
