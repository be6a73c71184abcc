"""See the assistant play: a practice board in one process, the live loop playing it in this one.

    puzzlepilot demo [GAME] [--levels N] [--speed S] [--out DIR]

Starts ``puzzlepilot practice GAME`` as a subprocess and runs the live loop on its window
with ``--play``, level after level. Without a display (no DISPLAY) it starts a private Xvfb
for the run. For every level it saves the frame before, the frame with the hints drawn, and
the frame after playing (``DIR/level1-before.png``, ``-hints.png``, ``-after.png``), collects
them in one page, ``DIR/index.html``, with each level's answer as ``solve`` prints it, and
checks that the practice board itself logged each level as solved. In DIR only files an
earlier demo wrote (listed in ``DIR/.made``) are replaced; a file of yours under one of
those names is refused before the demo starts.
"""
from __future__ import annotations

import argparse
import html
import json
import os
import queue
import shutil
import struct
import subprocess
import sys
import tempfile
import threading
import time
from contextlib import contextmanager
from pathlib import Path
from typing import Any, Iterator

from overlay.draw import render
from overlay.driver import DriverStopped, open_driver
from puzzlepilot.errors import UsageError
from puzzlepilot.fixtures import MADE_LIST
from puzzlepilot.games import get
from puzzlepilot.live import LevelRecord, LiveError, LiveLoop, Watcher
from puzzlepilot.practice import TITLE, boards
from puzzlepilot.userio import IO, encode_picture, number
from solvers.files import Record, make_folder

SCREEN = (1280, 1024)
TIME_LIMIT = 50.0       # seconds for the whole run: a demo that stalls says so and stops
WINDOW_WAIT = 10.0      # seconds for the practice board's window to appear
MAX_LEVELS = 100        # --levels at most: the whole run has TIME_LIMIT, and each level is three pictures


def add_arguments(p: argparse.ArgumentParser) -> None:
    p.add_argument("game", nargs="?", default="onestroke", metavar="GAME",
                   help=f"the game ({', '.join(boards())}; default onestroke)")
    p.add_argument("--levels", type=int, default=3, metavar="N", help=f"levels to play (default 3, at most {MAX_LEVELS})")
    p.add_argument("--seed", type=int, default=1, help="the practice board's first seed (default 1)")
    p.add_argument("--speed", type=number(0.05, 20), default=2.0, metavar="S", help="mouse speed factor, 0.05 to 20 (default 2)")
    p.add_argument("--out", type=Path, default=Path("demo-out"), metavar="DIR",
                   help="where the pictures go (default ./demo-out)")


def _entry(*fields: bytes) -> bytes:
    return b"".join(struct.pack(">H", len(f)) + f for f in fields)


# One Xauthority entry for no real host: python-xlib wants the file and prints a warning on
# stdout when it holds no entry at all; Xvfb without -auth lets everyone in anyway.
_UNUSED_AUTH = struct.pack(">H", 256) + _entry(b"puzzlepilot-none", b"0", b"MIT-MAGIC-COOKIE-1", bytes(16))


@contextmanager
def private_display(size: tuple[int, int] = SCREEN) -> Iterator[str]:
    """A private Xvfb server for the block, with DISPLAY (and an XAUTHORITY file, which
    python-xlib wants) pointing at it; the environment is restored afterwards."""
    xvfb = shutil.which("Xvfb")
    if xvfb is None:
        raise UsageError("no display (DISPLAY is not set) and no Xvfb to start one: "
                         "install xvfb, or run this on a desktop")
    read, write = os.pipe()
    # -noreset: by default the server resets when its last client leaves (a game closed
    # between two tests), and a connection made during the reset breaks
    proc = subprocess.Popen([xvfb, "-displayfd", str(write), "-screen", "0", f"{size[0]}x{size[1]}x24",
                             "-nolisten", "tcp", "-noreset"], pass_fds=(write,),
                            stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    os.close(write)
    saved = {k: os.environ.get(k) for k in ("DISPLAY", "XAUTHORITY")}
    with tempfile.TemporaryDirectory(prefix="puzzlepilot-x") as tmp:
        try:
            # Xvfb writes the display number and a newline once it is ready; the pipe must
            # stay open until then (closing it early ends Xvfb).
            number = b""
            with os.fdopen(read, "rb", buffering=0) as pipe:
                while not number.endswith(b"\n"):
                    chunk = pipe.read(1)
                    if not chunk:
                        raise UsageError("Xvfb did not start")
                    number += chunk
            auth = Path(tmp) / "Xauthority"
            auth.write_bytes(_UNUSED_AUTH)
            os.environ["DISPLAY"] = f":{number.decode().strip()}"
            os.environ["XAUTHORITY"] = str(auth)
            yield os.environ["DISPLAY"]
        finally:
            for key, value in saved.items():
                if value is None:
                    os.environ.pop(key, None)
                else:
                    os.environ[key] = value
            proc.terminate()
            proc.wait(timeout=5)


@contextmanager
def some_display() -> Iterator[str]:
    """The user's display when there is one, else a private Xvfb."""
    if os.environ.get("DISPLAY"):
        yield os.environ["DISPLAY"]
    else:
        with private_display() as name:
            yield name


class PracticeProcess:
    """``puzzlepilot practice`` in a subprocess, its log lines collected by a thread."""

    def __init__(self, game: str, seed: int, levels: int, extra: tuple[str, ...] = ()) -> None:
        self.lines: queue.Queue[str] = queue.Queue()
        self.log: list[str] = []
        self.proc = subprocess.Popen(
            [sys.executable, "-m", "puzzlepilot", "practice", game, "--seed", str(seed),
             "--levels", str(levels), "--log", *extra],
            stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True,
            cwd=Path(__file__).resolve().parent.parent)
        threading.Thread(target=self._read, daemon=True).start()

    def _read(self) -> None:
        assert self.proc.stdout is not None
        for line in self.proc.stdout:
            self.lines.put(line.rstrip("\n"))

    def collected(self) -> list[str]:
        """Every log line so far."""
        while True:
            try:
                self.log.append(self.lines.get_nowait())
            except queue.Empty:
                return self.log

    def check_alive(self) -> None:
        if self.proc.poll() is not None:
            err = self.proc.stderr.read().strip().splitlines() if self.proc.stderr else []
            raise LiveError(f"the practice board exited ({err[-1] if err else self.proc.returncode})")

    def close(self) -> None:
        if self.proc.poll() is None:
            self.proc.terminate()
            try:
                self.proc.wait(timeout=5)
            except subprocess.TimeoutExpired:
                self.proc.kill()
                self.proc.wait()


def find_window(title: str, practice: PracticeProcess):
    """The practice board's capture source, once its window is up."""
    from vision.capture import CaptureError, window_source

    deadline = time.monotonic() + WINDOW_WAIT
    while True:
        practice.check_alive()
        try:
            return window_source(title)
        except CaptureError:
            if time.monotonic() > deadline:
                raise
            time.sleep(0.1)


def main(args: argparse.Namespace, io: IO) -> int:
    game = get(args.game)
    if args.game not in boards():
        raise UsageError(f"no practice board for {args.game} yet (boards: {', '.join(boards())})")
    if not 1 <= args.levels <= MAX_LEVELS:     # each level is three pictures, all named before the start
        raise UsageError(f"--levels must be from 1 to {MAX_LEVELS}, not {args.levels}")
    # Absolute: the practice board runs in another folder and reads the key map from here.
    args.out = args.out.resolve()
    make_folder(args.out)
    # The folder's own record says which files earlier demos wrote: only those are replaced.
    made = Record.read(args.out, MADE_LIST)
    keys = args.out / "keymap.json"
    made.check([keys.name, INDEX, *(f"level{n}-{step}.png" for n in range(1, args.levels + 1)
                                    for step in ("before", "hints", "after"))])
    started = time.monotonic()

    def log(text: str) -> None:
        io.out(text)
        io.stdout.flush()

    records: list[LevelRecord] = []

    def save(record: LevelRecord) -> None:
        stem = f"level{record.number}"
        pictures = {f"{stem}-before.png": record.before, f"{stem}-hints.png": render(record.before, record.shapes)}
        if record.after is not None:
            pictures[f"{stem}-after.png"] = record.after
        made.write({name: encode_picture(Path(name), picture) for name, picture in pictures.items()})
        records.append(record)
        write_index(made, records)      # after every level: a stopped demo keeps its page

    # A game played with keys (rings) needs a key map on both sides: the practice board
    # takes the example one, and the driver presses it.
    extra: tuple[str, ...] = ()
    plan_options: dict[str, dict[str, Any]] = {}
    example = game.example_keymap
    if example is not None:
        made.write({keys.name: json.dumps(example).encode("utf-8")})
        extra, plan_options = ("--keymap", str(keys)), {game.name: {"keymap": example}}

    with some_display() as display:
        log(f"display {display}: starting the practice board")
        practice = PracticeProcess(args.game, args.seed, args.levels, extra)
        source = hints = None
        try:
            source = find_window(f"{TITLE} — {args.game}", practice)
            from overlay.window import make_hints

            hints = make_hints("overlay")
            loop = LiveLoop(source, Watcher([game]), log, hints=hints,
                            driver=open_driver(source, speed=args.speed, log=lambda _: None),
                            levels=args.levels, on_level=save,
                            alive=practice.check_alive, plan_options=plan_options)
            loop.run(deadline=started + TIME_LIMIT)
            time.sleep(0.3)     # the board's own log line for the last level
            solved = [line for line in practice.collected() if line.startswith("solved level")]
        except (LiveError, DriverStopped) as exc:
            io.err(f"puzzlepilot: demo stopped: {exc}")
            return 1
        finally:
            if hints is not None:
                hints.close()
            if source is not None:
                source.close()
            practice.close()
    log(f"played {args.levels} levels in {time.monotonic() - started:.1f} s; "
        f"the practice board confirmed {len(solved)}")
    log(f"pictures (before, hints, after for each level): {(args.out / INDEX).resolve()}")
    return 0 if len(solved) >= args.levels else 1


INDEX = "index.html"
PAGE_STYLE = """body{font-family:sans-serif;margin:1em 2em;background:#fafafa}
figure{display:inline-block;margin:0 1em 1em 0;vertical-align:top}figcaption{font-weight:bold}
img{max-width:420px;border:1px solid #ccc}pre{background:#fff;border:1px solid #ddd;padding:.5em;
display:inline-block}"""


def write_index(made: Record, records: list[LevelRecord]) -> None:
    """``index.html`` in the record's folder: per level, the pictures before, with the hints
    and after, and the answer as ``puzzlepilot solve`` prints it (the same numbers as the
    hints picture)."""
    parts = [f"<!doctype html><meta charset=utf-8><title>puzzlepilot demo</title><style>{PAGE_STYLE}</style>",
             "<h1>puzzlepilot demo</h1>"]
    for r in records:
        stem = f"level{r.number}"
        game = get(r.game)
        if r.result.solved:
            summary = f"solved in {r.solve_ms:.1f} ms, {r.result.moves} moves"
            board = game.board.from_text(r.board)
            answer = game.show(board, r.result.solution) if game.show else json.dumps(r.result.solution)
        else:
            summary, answer = f"no solution: {r.result.reason}", ""
        figures = [(f"{stem}-before.png", "before"), (f"{stem}-hints.png", "the answer"),
                   (f"{stem}-after.png", "after playing")]
        parts.append(f"<h2>Level {r.number}: {html.escape(game.title)}, {html.escape(r.size)}</h2>"
                     f"<p>{html.escape(summary)}</p><pre>{html.escape(r.board)}</pre> "
                     f"<pre>{html.escape(answer)}</pre><div>")
        parts += [f'<figure><figcaption>{caption}</figcaption><a href="{name}"><img src="{name}" alt="{caption}"></a></figure>'
                  for name, caption in figures if name in made.files]
        parts.append("</div>")
    made.write({INDEX: ("\n".join(parts) + "\n").encode("utf-8")})
