"""Teach the vision a new look from one screenshot, or check a profile on others.

    puzzlepilot calibrate GAME SCREENSHOT --name NAME [--board TEXT|FILE] [--picks FILE] [--dir DIR]
    puzzlepilot calibrate --check NAME|DIR IMAGE... [--boards FILE]

With ``--board`` (what the board in the screenshot is, as text or a file) the board is
found and cropped automatically; without it a window opens: drag a box around the board,
then click one example of each kind it asks for (valves: ``--picks`` gives the box and the
points as JSON instead, see ``calibration/valves.py``; rings: ``--picks`` alone, the box and
four clicks, see ``calibration/rings.py``; one-stroke: ``--picks`` alone, the box and a
cell, a hole and the start, see ``calibration/onestroke.py``). Esc in the window cancels. The profile is read back on the same
screenshot before it is stored; a profile that does not read its own screenshot is not
written. ``--check`` parses each image with the profile and prints its confidence and the
places that differ from the expected boards (``--boards``: a JSON object of file name →
board, or board texts separated by blank lines, in the order of the images).
"""
from __future__ import annotations

import argparse
import json
import tempfile
import time
from dataclasses import replace
from pathlib import Path
from typing import Any

from calibration import profile as profiles
from puzzlepilot.errors import UsageError
from puzzlepilot.fixtures import cell_diff
from puzzlepilot.games import GAMES, Game, get
from puzzlepilot.userio import IO, read_board_file, read_board_text
from solvers.files import exists, plain_name
from vision.common import NoBoardFound, load_image


def add_arguments(p: argparse.ArgumentParser) -> None:
    p.add_argument("items", nargs="*", metavar="GAME SCREENSHOT | IMAGE",
                   help="the game and the screenshot to learn from; with --check, the images to check")
    p.add_argument("--name", help="the profile's name (stored in the user's profile folder)")
    p.add_argument("--board", metavar="TEXT|FILE", help="the board the screenshot shows (rows joined by '/' or newlines, or a file)")
    p.add_argument("--picks", type=Path, metavar="FILE",
                   help="the box and points as JSON instead of the window (see README): one-stroke "
                        '{"box": [x, y, w, h], "cell": [x, y], "hole": [x, y], "start": [x, y]} ("hole" left out '
                        "when the board has none; no --board needed); rings: box, centre, rim, empty, enemy; "
                        "valves (with --board): box, inlet, outlet, valves, rim")
    p.add_argument("--dir", type=Path, help="write the profile into this folder instead of the profile store "
                                            "(a new or empty folder, or a profile folder calibrate wrote: "
                                            "other folders are refused, never emptied)")
    p.add_argument("--check", metavar="NAME|DIR", help="check a profile on IMAGEs")
    p.add_argument("--boards", metavar="FILE", help="with --check: the expected boards")


def main(args: argparse.Namespace, io: IO) -> int:
    if args.check:
        return check(args, io)
    if len(args.items) != 2:
        raise UsageError("calibrate needs GAME SCREENSHOT (or --check NAME IMAGE...)")
    if not args.name:
        raise UsageError("calibrate needs --name NAME for the new profile")
    if plain_name(args.name, "--name").startswith("."):
        raise UsageError(f"--name must be a plain name, not {args.name!r}")
    game, image_path = get(args.items[0]), Path(args.items[1])
    dest = args.dir or profiles.profiles_dir() / args.name
    profiles.check_destination(dest)   # refuse a folder of the user's before any work
    learner = learner_for(game)
    image = load_image(image_path)

    if args.picks and game.read_picks is None:
        picked = [g.name for g in GAMES.values() if g.read_picks is not None]
        raise UsageError(f"--picks applies to {spoken(picked) or 'no game'} calibration, not {game.name}")
    if args.picks and not args.board and not game.picks_without_board:
        raise UsageError("--picks needs --board (the graph says which points the picks are)")
    from calibration.picker import PickCancelled, open_picker

    board = None
    try:
        if args.board:
            text = read_board_file(args.board) if exists(args.board) else args.board
            board = as_read(game, game.board.from_text(text))
            region, examples = game.read_picks(args.picks, board) if args.picks else (None, None)
            data, templates = learner.learn(image, board=board, region=region, examples=examples)
        else:
            region, examples = (game.read_picks(args.picks) if args.picks else
                                open_picker().pick(image, learner.KINDS, title=f"calibrate {game.name}: {image_path.name}"))
            data, templates = learner.learn(image, region=region, examples=examples)
    except PickCancelled as exc:
        hint = "" if args.board else "; give --board to calibrate without the window"
        raise UsageError(f"{exc}{hint}") from None
    data.update({"game": game.name, "name": args.name, "created": time.strftime("%Y-%m-%d %H:%M:%S"),
                 "source": {"image": image_path.name, "size": [image.shape[1], image.shape[0]]}})

    with tempfile.TemporaryDirectory() as tmp:
        trial = profiles.save(data, templates, Path(tmp) / args.name)
        try:
            found = game.parse(image, profile=trial)
        except NoBoardFound as exc:
            raise UsageError(f"the new profile does not read {image_path.name} back ({exc}); nothing written") from None
        if board is not None and not reads_as(found.board, board, game):
            raise UsageError(f"the new profile reads {image_path.name} as {found.board.to_text()!r}, "
                             f"not the given board; nothing written")
    saved = profiles.save(data, templates, dest)
    io.out(f"profile {args.name!r} for {game.name} written to {saved.folder}")
    io.out(f"reads {image_path.name} back: a board of {found.board.size}, confidence {found.confidence:.2f}")
    if board is None:               # learned from clicks: the board read is for the user to check
        io.out(f"board read: {found.board.to_text().replace(chr(10), '/')} (check it is the board on screen: "
               "if not, delete the profile and calibrate with --board TEXT, which checks it for you)")
    io.out(f"use it with: --profile {args.name if args.dir is None else saved.folder}")
    return 0


def learner_for(game: Game) -> Any:
    """The game's calibration learner; UsageError naming the games calibration covers when
    it does not cover this one."""
    learner = game.learner
    if learner is None:
        have = [g.name for g in GAMES.values() if g.calibration]
        raise UsageError(f"calibration does not cover {game.name} yet (it covers: {', '.join(have) or 'none'})")
    return learner


def spoken(names: list[str]) -> str:
    """Names as said in a sentence: "a", "a and b", "a, b and c"."""
    return " and ".join(n for n in (", ".join(names[:-1]), names[-1] if names else "") if n)


def as_read(game: Game, board: Any) -> Any:
    """The board named as the vision names what it reads (Klotski letters its pieces in
    reading order), so a typed board compares equal to the same board read."""
    return game.relabel(board) if game.relabel else board


def reads_as(found: Any, given: Any, game: Game) -> bool:
    """Whether a board read is the given one (rings: in any numbering of its slices); a
    move budget the given board leaves out (a rings board without ``moves:``) is not
    compared."""
    if getattr(given, "budget", 0) is None:
        found = replace(found, budget=None)
    if game.numberings is not None:
        return found in game.numberings(given)
    return found.to_text() == given.to_text()


def expected_boards(source: str | None, images: list[Path], io: IO) -> dict[Path, str | None]:
    """The expected board of each image (None where none is given)."""
    if source is None:
        return {p: None for p in images}
    if not exists(source):
        raise UsageError(f"no such boards file: {source}")
    text = read_board_text(source, io)
    try:
        table = json.loads(text)
    except RecursionError:
        raise UsageError(f"{source}: JSON nested too deeply") from None
    except json.JSONDecodeError:
        blocks = [b.strip() for b in text.replace("\r\n", "\n").split("\n\n") if b.strip()]
        if len(blocks) != len(images):
            raise UsageError(f"{source} holds {len(blocks)} boards for {len(images)} images") from None
        return {p: b for p, b in zip(images, blocks)}
    if not isinstance(table, dict) or not all(isinstance(b, str) for b in table.values()):
        raise UsageError(f"{source}: a JSON boards file maps image file names to board texts")
    return {p: table.get(p.name, table.get(str(p))) for p in images}


def check(args: argparse.Namespace, io: IO) -> int:
    prof = profiles.load(args.check)
    game = get(prof.game)
    images = [Path(i) for i in args.items]
    if not images:
        raise UsageError("calibrate --check needs at least one IMAGE")
    expected = expected_boards(args.boards, images, io)
    # Every file and expected board is read before anything is printed: a bad one fails
    # with its one line, not after a header and some results.
    loaded = [(p, load_image(p)) for p in images]
    wants = {p: as_read(game, game.board.from_text(b)).to_text().replace("\n", "/") if b else None
             for p, b in expected.items()}
    bad = 0
    io.out(f"profile {prof.name} ({game.name}):")
    for path, image in loaded:
        want = wants[path]
        try:
            found = game.parse(image, profile=prof)
        except NoBoardFound as exc:
            bad += 1
            io.out(f"  {path.name:32} no board found ({exc})")
            continue
        got = found.board.to_text().replace("\n", "/")
        if want is None:
            verdict = "(no expected board)"
        elif want == got:
            verdict = "matches"
        else:
            bad += 1
            verdict = cell_diff(want, got)
        io.out(f"  {path.name:32} confidence {found.confidence:.2f}  {verdict}")
    return 1 if bad else 0
