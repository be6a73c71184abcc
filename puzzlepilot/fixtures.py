"""Screenshot fixtures: the vision's regression suite, the project's and your own.

    puzzlepilot fixtures add IMAGE --game GAME (--board TEXT|FILE | --no-board) [--dir DIR] [--note TEXT]
    puzzlepilot fixtures check [GAME ...] [--dir DIR] [--profile NAME|DIR] [--sheet OUT.html]
    puzzlepilot fixtures make GAME [--dir DIR]

A fixture folder holds ``GAME/expected.json`` (image name → the board it shows, or null for
"no board") beside the images. ``add`` copies one of your screenshots into your own fixture
folder (never moving it) with the board it must read as, checked by the game's board parser;
a screenshot that must be refused is added with ``--no-board``. ``check`` reads every image
again and prints a table; it exits 1 on any difference, an image without an entry or an entry
without its image. ``--sheet`` also writes an HTML contact sheet: each image, what was read,
what was expected and where they differ.

Your fixtures live in your data folder (``PUZZLEPILOT_FIXTURES`` overrides); the project's own,
rendered by ``make`` (deterministic: the same files every time), live in the source checkout's
``fixtures/`` folder — or, installed without a checkout, in a folder of their own in your data
folder, where ``make`` writes them. ``check`` without ``--dir`` reads both. ``make`` replaces
only files it wrote itself (listed in ``GAME/.made``); your images and entries stay.
"""
from __future__ import annotations

import argparse
import base64
import html
import json
import time
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING

from puzzlepilot.errors import UsageError
from puzzlepilot.games import GAMES, get
from puzzlepilot.userio import IO, MAX_BOARD_BYTES, encode_picture, load_profile, read_board_file
from solvers.common import BoardError, user_folder
from solvers.files import (Record, check_output, exists, is_dir, is_file, kind, locked, make_folder, plain_name,
                           read_bounded, write_new, write_output)
from vision.common import MAX_FILE_BYTES, ImageError, NoBoardFound, load_image

if TYPE_CHECKING:     # for the annotations only; the drawing code imports it where it runs
    import numpy as np

# The project's rendered fixtures in a source checkout.
DEFAULT_DIR = Path(__file__).resolve().parent.parent / "fixtures"
IMAGE_SUFFIXES = (".png", ".jpg", ".jpeg", ".bmp", ".webp")
MADE_LIST = ".made"     # what `make` wrote (solvers.files.Record), so it never replaces or removes anything else
EXPECTED = "expected.json"


def user_dir() -> Path:
    """Your own fixtures: ``PUZZLEPILOT_FIXTURES``, else the user data folder (platformdirs)."""
    return user_folder("PUZZLEPILOT_FIXTURES", "data", "fixtures")


def generated_dir() -> Path:
    """Where ``make`` writes by default: the checkout's ``fixtures/`` when running from one,
    else ``generated-fixtures`` beside your own in the data folder."""
    if (DEFAULT_DIR.parent / "pyproject.toml").is_file():
        return DEFAULT_DIR
    return user_dir().parent / "generated-fixtures"


EXAMPLES = """examples:
  puzzlepilot fixtures add shot.png --game onestroke --board '##S#/#..#/####' --note 'night theme'
  puzzlepilot fixtures add menu.png --game lyne --no-board      # must be refused
  puzzlepilot fixtures check                                    # yours and the project's
  puzzlepilot fixtures check onestroke --sheet sheet.html       # with a contact sheet
  puzzlepilot fixtures make lyne --dir /tmp/fx                  # render the project's set
"""


def intermixed(base: type[argparse.ArgumentParser]) -> type[argparse.ArgumentParser]:
    """``base`` taking positionals between options too (``check onestroke --dir D lyne``):
    argparse otherwise takes a positional list only once, in one piece."""
    class Intermixed(base):  # type: ignore[valid-type, misc]
        _inside = False

        def parse_known_args(self, args=None, namespace=None):  # type: ignore[no-untyped-def]
            if self._inside:        # parse_known_intermixed_args calls back here (Python < 3.13)
                return super().parse_known_args(args, namespace)
            self._inside = True
            try:
                return self.parse_known_intermixed_args(args, namespace)
            finally:
                self._inside = False
    return Intermixed


def add_arguments(p: argparse.ArgumentParser) -> None:
    p.epilog = EXAMPLES
    sub = p.add_subparsers(dest="action", metavar="ACTION", parser_class=intermixed(type(p)), required=True)
    fmt = argparse.RawDescriptionHelpFormatter
    add = sub.add_parser("add", help="store a screenshot of yours with the board it shows",
                         formatter_class=fmt, epilog=EXAMPLES,
                         description=f"Copy IMAGE into your fixture folder ({user_dir()}) with the "
                                     "board it must read as.")
    add.add_argument("image", metavar="IMAGE", help="the screenshot (copied, never moved)")
    add.add_argument("--game", required=True, metavar="GAME", help=f"the game ({', '.join(GAMES)})")
    board = add.add_mutually_exclusive_group(required=True)
    board.add_argument("--board", metavar="TEXT|FILE",
                       help="the board it shows: rows joined by '/', or a board text file")
    board.add_argument("--no-board", action="store_true", help="the image shows no board: it must be refused")
    add.add_argument("--dir", type=Path, help=f"the fixture folder (default {user_dir()})")
    add.add_argument("--name", help="the file name to store it under (default: IMAGE's)")
    add.add_argument("--note", default="", help="a note shown beside it")

    check = sub.add_parser("check", help="read every fixture again; table of differences",
                           formatter_class=fmt, epilog=EXAMPLES,
                           description="Read every fixture again and compare with its expected "
                                       "board; exit 1 on any difference.")
    check.add_argument("games", nargs="*", metavar="GAME", help="games (default: every game with fixtures)")
    check.add_argument("--dir", type=Path, action="append",
                       help=f"a fixture folder, repeatable (default: yours, {user_dir()}, "
                            f"and the project's, {generated_dir()})")
    check.add_argument("--profile", metavar="NAME|DIR", help="parse with a calibration profile")
    check.add_argument("--sheet", type=Path, metavar="OUT.html|OUT.png",
                       help="also write a contact sheet: an HTML page, or a picture for .png/.jpg")

    make = sub.add_parser("make", help="render the project's own fixtures of a game",
                          formatter_class=fmt, epilog=EXAMPLES,
                          description="Render the project's fixtures of each GAME into DIR/GAME; "
                                      "files it did not write are left alone.")
    make.add_argument("games", nargs="+", metavar="GAME")
    make.add_argument("--dir", type=Path, help=f"the fixture folder (default {generated_dir()})")


def main(args: argparse.Namespace, io: IO) -> int:
    games = getattr(args, "games", None) or []
    for g in games:
        get(g)
    if args.action == "add":
        return cmd_add(args, io)
    if args.action == "make":
        folder = args.dir or generated_dir()
        for g in games:
            if not get(g).scenes:
                raise UsageError(f"the project renders no fixtures of {g}")
        for g in games:
            count = make(g, folder)
            io.out(f"{g}: wrote {count} fixtures to {folder / g}")
        return 0
    return cmd_check(args, io, games)


# ---------------------------------------------------------------------------- add

def cmd_add(args: argparse.Namespace, io: IO) -> int:
    game = get(args.game)
    source = Path(args.image)
    load_image(source)      # refuses a missing or undecodable file
    expected = None if args.no_board else board_text(args.board, game.name)
    name = plain_name(args.name or source.name, "--name")
    if Path(name).suffix.lower() not in IMAGE_SUFFIXES:
        raise UsageError(f"--name must be a plain file name ending in one of {', '.join(IMAGE_SUFFIXES)}: {name!r}")
    folder = (args.dir or user_dir()) / game.name
    make_folder(folder)
    with locked(folder):    # another add or make at once would write expected.json without this entry
        entries = read_expected(folder)
        target = folder / name
        in_place = kind(target) == "file" and target.resolve() == source.resolve()   # an image put there by hand
        if name in entries or kind(target) is not None and not in_place:
            raise UsageError(f"{target} already exists: give another --name")
        check_output(folder / EXPECTED)
        if not in_place:
            write_new(target, read_bounded(source, MAX_FILE_BYTES))
        entries[name] = {"board": expected, "note": args.note}
        write_expected(folder, entries)
    io.out(f"added {target} ({'no board' if expected is None else _summary(expected)}); "
           f"check it with: puzzlepilot fixtures check {game.name}" + (f" --dir {args.dir}" if args.dir else ""))
    return 0


def board_text(given: str, game: str) -> str:
    """The expected board from ``--board`` (a file, or rows joined by '/'), checked by the
    game's board parser and written the way the vision's reading is written."""
    path = Path(given)
    if not exists(path) and path.suffix.lower() in (".txt", ".json", ".board"):
        raise UsageError(f"no such board file: {given}")
    text = read_board_file(given) if exists(path) else given.replace("/", "\n")
    try:
        board = get(game).board.from_text(text)
    except BoardError as exc:
        raise BoardError(f"--board is not a {game} board: {exc}") from None
    return board.to_text().replace("\n", "/")


def read_expected(folder: Path) -> dict[str, dict]:
    path = folder / EXPECTED
    if kind(path) is None:
        return {}
    try:
        data = json.loads(read_bounded(path, MAX_BOARD_BYTES).decode("utf-8"))
    except (ValueError, UnicodeDecodeError) as exc:
        raise UsageError(f"{path} is not valid JSON ({exc})") from None
    if not isinstance(data, dict) or not all(isinstance(v, dict) and "board" in v for v in data.values()):
        raise UsageError(f"{path}: expected an object of name → {{\"board\": ..., \"note\": ...}}")
    return data


def write_expected(folder: Path, entries: dict[str, dict]) -> None:
    """Write expected.json atomically: a crash leaves the old file or the new one. It holds
    the user's entries beside the tool's, so it is rewritten in place of a regular file of
    that name only (never through a link, never over anything else)."""
    text = json.dumps(dict(sorted(entries.items())), indent=1, ensure_ascii=False) + "\n"
    write_output(folder / EXPECTED, text.encode("utf-8"))


# ---------------------------------------------------------------------------- make

def make(game: str, folder: Path) -> int:
    """Render a game's fixtures into folder/game. Only files this command wrote before and
    nobody changed since (listed with their content in ``.made``) are replaced or removed;
    other images and their entries stay, and a file of the user's under a name it renders
    is refused (unless it holds those very bytes), with nothing written."""
    import cv2

    cases = get(game).fixture_cases()
    out = folder / game
    make_folder(out)
    with locked(out):     # one add or make at a time rewrites expected.json and .made
        record = Record.read(out, MADE_LIST)
        entries = read_expected(out)
        rendered = {}
        for case in cases:
            name = f"{case.name}.{case.ext}"
            params = ([cv2.IMWRITE_JPEG_QUALITY, case.jpeg_quality] if case.ext == "jpg"
                      else [cv2.IMWRITE_PNG_COMPRESSION, 9])
            ok, data = cv2.imencode(f".{case.ext}", case.image, params)
            if not ok:
                raise RuntimeError(f"cannot encode {name}")
            rendered[name] = data.tobytes()
        record.check(rendered, rendered)
        check_output(out / EXPECTED)        # written last: refused before anything is written
        for stale in record.names() - set(rendered):
            if record.remove(stale):
                entries.pop(stale, None)
        record.write(rendered)
        entries.update({f"{case.name}.{case.ext}": {"board": case.board, "note": case.note} for case in cases})
        write_expected(out, entries)
    return len(cases)


# ---------------------------------------------------------------------------- check

@dataclass
class Row:
    name: str
    expected: str | None
    got: str | None
    confidence: float
    ms: float
    detail: str = ""
    note: str = ""
    path: Path | None = None
    problem: str = ""       # "no entry" / "image missing": the row could not be compared

    @property
    def ok(self) -> bool:
        return not self.problem and self.expected == self.got

    @property
    def expected_summary(self) -> str:
        return "-" if self.problem == "no entry" else _summary(self.expected)

    @property
    def got_summary(self) -> str:
        return "-" if self.problem in ("image missing", "unreadable image") else _summary(self.got)


def _summary(board: str | None) -> str:
    if board is None:
        return "no board"
    rows = board.split("/")
    return f"{len(rows)}x{max(len(r) for r in rows)}"


def check(game: str, folder: Path, profile: object = None) -> list[Row]:
    """Read every fixture of a game in folder/game again and compare it with expected.json.
    Images without an entry (read, to show what to add), entries without an image and
    images that do not decode are rows too, never ok."""
    here = folder / game
    expected = read_expected(here)
    if not expected and not is_dir(here):
        raise UsageError(f"no fixtures for {game} in {folder}")
    rows = []
    for name, entry in sorted(expected.items()):
        path, note = here / name, entry.get("note", "")
        if not is_file(path):
            rows.append(Row(name, entry["board"], None, 0.0, 0.0, "the image is not in the folder", note, path,
                            "image missing"))
            continue
        row = _read(game, path, profile, Row(name, entry["board"], None, 0.0, 0.0, "", note, path))
        if not row.ok and not row.problem:
            row.detail = f"{cell_diff(row.expected, row.got)}: {row.detail}" if row.detail else cell_diff(row.expected, row.got)
        rows.append(row)
    for path in sorted(here.iterdir()):
        if path.suffix.lower() in IMAGE_SUFFIXES and path.name not in expected and not path.name.startswith("."):
            row = _read(game, path, profile, Row(path.name, None, None, 0.0, 0.0, "", "", path, "no entry"))
            if row.problem == "no entry":
                board = "--no-board" if row.got is None else f"--board '{row.got}'"
                row.detail = (f"not in expected.json; if what was read is right: puzzlepilot fixtures add {path} "
                              f"--game {game} {board}")
            rows.append(row)
    return rows


def _read(game: str, path: Path, profile: object, row: Row) -> Row:
    """``row`` with the reading of the image at ``path`` filled in."""
    parse = get(game).parse
    try:
        image = load_image(path)
    except ImageError as exc:
        row.problem, row.detail = "unreadable image", str(exc)
        return row
    start = time.perf_counter()
    try:
        found = parse(image, profile=profile) if profile else parse(image)
        row.got, row.confidence = found.board.to_text().replace("\n", "/"), found.confidence
    except NoBoardFound as exc:
        row.detail = str(exc)
    row.ms = (time.perf_counter() - start) * 1000
    return row


def cmd_check(args: argparse.Namespace, io: IO, games: list[str]) -> int:
    if args.sheet is not None:
        check_output(args.sheet)
    folders = args.dir or [user_dir(), generated_dir()]
    folders = list(dict.fromkeys(f.resolve() for f in folders))
    for folder in args.dir or []:
        if not is_dir(folder):
            raise UsageError(f"no such fixture folder: {folder}")
    found = [(g, f) for f in folders for g in (games or GAMES) if is_dir(f / g)]
    if not found:
        where = " or ".join(str(f) for f in folders)
        raise UsageError(f"no fixtures{' for ' + ', '.join(games) if games else ''} in {where}; add yours with "
                         "'puzzlepilot fixtures add IMAGE --game GAME --board TEXT', or render the project's "
                         "with 'puzzlepilot fixtures make GAME' (a source checkout ships them in fixtures/)")
    for game, lack in {g: get(g).lacks() for g, _ in found}.items():
        if lack:    # what the vision needs and this machine lacks (rings: tesseract)
            io.err(f"puzzlepilot: warning: {lack}: such {game} fixtures will differ")
    profile = None
    if args.profile:
        profile = load_profile(args.profile)
    failures, sections = 0, []
    for game, folder in found:
        rows = check(game, folder, profile)
        sections.append((game, folder, rows))
        bad = [r for r in rows if not r.ok]
        failures += len(bad)
        io.out(f"{game} ({folder / game}): {len(rows) - len(bad)}/{len(rows)} fixtures read right")
        if bad:
            io.out(f"  {'fixture':32} {'expected':>10} {'got':>10}  detail")
            for r in bad:
                io.out(f"  {r.name:32} {r.expected_summary:>10} {r.got_summary:>10}  {r.detail}")
    if args.sheet:
        write_sheet(args.sheet, sections)
        io.out(f"contact sheet: {args.sheet}")
    return 1 if failures else 0


def cell_diff(expected: str | None, got: str | None) -> str:
    """Where a reading differs from the expected board, in a few words."""
    if expected is None or got is None:
        return f"got {got!r}" if got else "expected no board" if expected is None else "no board read"
    e, g = expected.split("/"), got.split("/")
    if len(e) != len(g) or any(len(a) != len(b) for a, b in zip(e, g)):
        return f"size differs: {_summary(got)} read, {_summary(expected)} expected"
    diffs = [f"({r},{c}) {a}→{b}" for r, (ea, ga) in enumerate(zip(e, g))
             for c, (a, b) in enumerate(zip(ea, ga)) if a != b]
    return "cells " + ", ".join(diffs[:6]) + (" …" if len(diffs) > 6 else "")


# ---------------------------------------------------------------------------- contact sheet

SHEET_STYLE = """body{font-family:sans-serif;margin:1em;background:#fafafa}
table{border-collapse:collapse}td,th{border:1px solid #ccc;padding:6px;vertical-align:top;text-align:left}
tr.bad{background:#fde8e8}tr.ok{background:#eef8ee}pre{margin:0;font-size:13px;line-height:1.1}
b.diff{background:#f4a0a0}img{max-width:320px;max-height:240px}"""


def write_sheet(path: Path, sections: list[tuple[str, Path, list[Row]]]) -> None:
    """The contact sheet: a picture (``.png``, ``.jpg``) or else an HTML page."""
    if path.suffix.lower() in (".png", ".jpg", ".jpeg"):
        write_picture_sheet(path, sections)
    else:
        write_html_sheet(path, sections)


TILE = (320, 240)      # thumbnail box of the picture sheet, px
TILE_TEXT = 4          # lines of text under each thumbnail


def write_picture_sheet(path: Path, sections: list[tuple[str, Path, list[Row]]], columns: int = 4) -> None:
    """One tile per fixture: the image framed green (read right) or red, and under it its name,
    the result, and what was read against what was expected or where they differ."""
    import cv2
    import numpy as np

    rows = [(game, r) for game, _, rs in sections for r in rs]
    line_h, pad = 20, 8
    tile_w, tile_h = TILE[0] + 2 * pad, TILE[1] + 2 * pad + TILE_TEXT * line_h
    sheet = np.full((max(1, -(-len(rows) // columns)) * tile_h, columns * tile_w, 3), 250, np.uint8)
    for k, (game, r) in enumerate(rows):
        x0, y0 = (k % columns) * tile_w + pad, (k // columns) * tile_h + pad
        colour = (60, 160, 60) if r.ok else (40, 40, 220)
        image = _load_or_none(r.path)
        if image is not None:
            scale = min(TILE[0] / image.shape[1], TILE[1] / image.shape[0])
            small = cv2.resize(image, (max(1, round(image.shape[1] * scale)), max(1, round(image.shape[0] * scale))),
                               interpolation=cv2.INTER_AREA)
            sheet[y0:y0 + small.shape[0], x0:x0 + small.shape[1]] = small
        cv2.rectangle(sheet, (x0 - 3, y0 - 3), (x0 + TILE[0] + 2, y0 + TILE[1] + 2), colour, 3)
        status = "ok" if r.ok else r.problem or "differs"
        lines = [f"{game}/{r.name}", f"{status}: read {r.got_summary}, expected {r.expected_summary}",
                 *_wrapped(r.detail if not r.ok else r.note, 44, TILE_TEXT - 2)]
        for n, text in enumerate(lines):
            cv2.putText(sheet, text, (x0, y0 + TILE[1] + 18 + n * line_h), cv2.FONT_HERSHEY_SIMPLEX, 0.45,
                        colour if n == 1 else (30, 30, 30), 1, cv2.LINE_AA)
    write_output(path, encode_picture(path, sheet))


def _wrapped(text: str, width: int, lines: int) -> list[str]:
    """``text`` in at most ``lines`` lines of ``width`` characters (OpenCV's font is ASCII)."""
    text = text.replace("→", "->").encode("ascii", "replace").decode()
    out = [text[i:i + width] for i in range(0, len(text), width)][:lines]
    if len(text) > width * lines:
        out[-1] = out[-1][:-3] + "..."
    return out


def write_html_sheet(path: Path, sections: list[tuple[str, Path, list[Row]]]) -> None:
    """An HTML page, one table row per fixture: the image (embedded thumbnail, so the page
    stands alone), the board read with the differing cells marked, the board expected."""
    parts = [f"<!doctype html><meta charset=utf-8><title>puzzlepilot fixtures check</title>"
             f"<style>{SHEET_STYLE}</style><h1>puzzlepilot fixtures check</h1>"]
    for game, folder, rows in sections:
        bad = sum(not r.ok for r in rows)
        parts.append(f"<h2>{html.escape(game)}: {len(rows) - bad}/{len(rows)} read right</h2>"
                     f"<p>{html.escape(str(folder / game))}</p><table><tr><th>image</th><th>result</th>"
                     "<th>read</th><th>expected</th></tr>")
        for r in rows:
            status = "ok" if r.ok else r.problem or "differs"
            parts.append(
                f"<tr class={'ok' if r.ok else 'bad'}><td>{_thumbnail(r.path)}<br>{html.escape(r.name)}</td>"
                f"<td><b>{html.escape(status)}</b><br>"
                + (f"confidence {r.confidence:.2f}, {r.ms:.0f} ms<br>" if r.got_summary != "-" else "")
                + f"{html.escape(r.note)}<br>{html.escape(r.detail)}</td>"
                f"<td>{_board_html(r.got, r.expected, r.got_summary == '-')}</td>"
                f"<td>{_board_html(r.expected, None, r.problem == 'no entry')}</td></tr>")
        parts.append("</table>")
    write_output(path, ("\n".join(parts) + "\n").encode("utf-8"))


def _load_or_none(path: Path | None) -> np.ndarray | None:
    if path is None or not is_file(path):
        return None
    try:
        return load_image(path)
    except ImageError:
        return None


def _thumbnail(path: Path | None) -> str:
    import cv2

    image = _load_or_none(path)
    if image is None:
        return "(no image)"
    scale = min(1.0, 320 / image.shape[1], 240 / image.shape[0])
    small = cv2.resize(image, None, fx=scale, fy=scale, interpolation=cv2.INTER_AREA) if scale < 1 else image
    ok, data = cv2.imencode(".jpg", small, [cv2.IMWRITE_JPEG_QUALITY, 85])
    return f'<img src="data:image/jpeg;base64,{base64.b64encode(data.tobytes()).decode()}">' if ok else ""


def _board_html(board: str | None, other: str | None, absent: bool) -> str:
    """A board as a block of text; cells that differ from ``other`` (same size) are marked."""
    if absent:
        return "-"
    if board is None:
        return "<i>no board</i>"
    rows, others = board.split("/"), (other or "").split("/")
    same_shape = other is not None and len(rows) == len(others) and all(
        len(a) == len(b) for a, b in zip(rows, others))
    lines = []
    for r, row in enumerate(rows):
        cells = [f"<b class=diff>{html.escape(c)}</b>" if same_shape and c != others[r][i] else html.escape(c)
                 for i, c in enumerate(row)]
        lines.append("".join(cells))
    return "<pre>" + "\n".join(lines) + "</pre>"
