"""GNOME Klotski played to the end: the real game's puzzles (Debian ``gnome-klotski``) on a
private Xvfb under openbox (when installed), played in one game session as a player does
with ``puzzlepilot live --play --next``: live reads, solves and plays each puzzle, then
picks the next through the game's own menu. A puzzle counts as played only when the game
itself retitles its window "Level completed.".

    puzzlepilot bench gnome-klotski [--quick | --puzzles LIST]

All 28 puzzles from the first, Only 18 Steps (3 with --quick: Only 18 Steps, Daisy,
Violet; with --puzzles, those numbered, from 1 in the game's order, each run of
consecutive ones in a game session of its own). Per puzzle: read (live's level line says it read and solved it; for a puzzle it
never got through, the bench reads the window itself), the moves and solve seconds, played
(live's word), confirmed (the game's title), the wall seconds; in all, "played N of 28".
A puzzle the solver gives up on is reported and skipped by live itself (``--next``); one
that live stops on (a move that did not land) or that takes longer than
``LEVEL_SECONDS`` (live is interrupted) is skipped by the bench through the game's menu,
and live is started again for the rest. :func:`launch` starts the game in its own D-Bus
session with its settings and folders in a temporary folder; the tests start it with it
too.
"""
from __future__ import annotations

import os
import queue
import re
import shutil
import signal
import subprocess
import sys
import tempfile
import threading
import time
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass
from pathlib import Path
from typing import Any, Callable

from puzzlepilot.bench import Bench
from puzzlepilot.errors import UsageError
from puzzlepilot.menus import MenuError, menu_for, settled

PUZZLES = 28                # in the game's three packs, numbered as its settings number them
QUICK = 3                   # --quick: the first three (Only 18 Steps, Daisy, Violet: 18-28 moves each)
SIZE = (600, 500)           # the window's size, as the game's settings give it
# the most one puzzle may take, read, solved and played (live is interrupted then): the
# search for the fewest moves takes up to ~3 CPU minutes to give up on the hardest puzzles,
# before a beam search answers (docs/benchmarks.md, branch gk-any), and a busy machine
# gives live a fraction of a core
LEVEL_SECONDS = 900.0
START_SECONDS = 60.0        # the most the game may take to show its window (slow on a busy machine)
CONFIRM_SECONDS = 10.0      # the most the game may take to say the last puzzle played is completed
STOP_SECONDS = 10.0         # the most live may take to stop once interrupted (it lets go of the mouse)
POLL = 0.1                  # s between two looks at the window's title
DONE = menu_for("gnome-klotski").done_title     # type: ignore[union-attr]   # "Level completed."
NEXT = "next puzzle: "      # live --next's line once it picked the next puzzle
LEVEL = re.compile(r"level \d+: klotski \S+, solve ([\d.]+) ms(?:, (\d+) moves)?, (.+)")   # live's level line


def installed() -> str | None:
    """The game's program, when it and ``dbus-run-session`` are installed."""
    game = shutil.which("gnome-klotski") or shutil.which("gnome-klotski", path="/usr/games")
    return game if game and shutil.which("dbus-run-session") else None


@contextmanager
def launch(home: Path, puzzle: int, size: tuple[int, int] = SIZE, maximized: bool = False) -> Iterator[tuple[str, int]]:
    """GNOME Klotski on the display (DISPLAY) showing ``puzzle``, its window of ``size``
    (or maximised, by its own setting: a window manager makes it the screen's size), its
    settings, D-Bus session and folders in ``home`` (an empty folder); yields its window's
    title (the puzzle's name) and id. The game and its session end with the block."""
    from vision.capture import find_windows

    game = installed()
    if game is None:
        raise RuntimeError("gnome-klotski or dbus-run-session is not installed")
    settings = home / "config" / "glib-2.0" / "settings"
    settings.mkdir(parents=True)
    (settings / "keyfile").write_text(f"[org/gnome/Klotski]\nlevel={puzzle}\n"
                                      f"window-width={size[0]}\nwindow-height={size[1]}\n"
                                      f"window-is-maximized={str(maximized).lower()}\n")
    env = {**os.environ, "HOME": str(home), "XDG_CONFIG_HOME": str(home / "config"),
           "XDG_DATA_HOME": str(home / "data"), "XDG_CACHE_HOME": str(home / "cache"),
           "GSETTINGS_BACKEND": "keyfile", "GTK_A11Y": "none", "NO_AT_BRIDGE": "1"}
    before = {wid for _, _, wid in find_windows("")}
    proc = subprocess.Popen(["dbus-run-session", game], env=env, stdout=subprocess.DEVNULL,
                            stderr=subprocess.DEVNULL, start_new_session=True)
    try:
        deadline = time.monotonic() + START_SECONDS
        # its window: a new one titled with the puzzle's name (its hidden leader window is
        # titled with the program's)
        while not (shown := [(t, wid) for t, _, wid in find_windows("")
                             if wid not in before and t and t != "gnome-klotski"]):
            if time.monotonic() > deadline or proc.poll() is not None:
                raise RuntimeError(f"GNOME Klotski showed no window within {START_SECONDS:g} s")
            time.sleep(0.2)
        yield shown[0]
    finally:
        os.killpg(proc.pid, signal.SIGTERM)
        proc.wait(timeout=10)
        # its windows gone: the next game's may get the same ids, and must be told new
        deadline = time.monotonic() + START_SECONDS
        while {wid for _, _, wid in find_windows("")} - before and time.monotonic() < deadline:
            time.sleep(0.1)
        # GTK's document portal, started in its session, mounts a FUSE folder in ``home``;
        # it goes with the portal, a moment later: ``home`` can be removed after that.
        doc, deadline = home / "cache" / "doc", time.monotonic() + START_SECONDS
        while os.path.ismount(doc) and time.monotonic() < deadline:
            time.sleep(0.1)


@contextmanager
def window_manager() -> Iterator[None]:
    """openbox managing the display for the block, when it is installed (as a player's
    desktop has one); the bare display otherwise."""
    if shutil.which("openbox") is None:
        yield
        return
    proc = subprocess.Popen(["openbox"], stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    try:
        time.sleep(1.0)     # it takes the screen over; a window mapped before is managed too
        yield
    finally:
        proc.terminate()
        proc.wait(timeout=5)


@dataclass
class Puzzle:
    """One puzzle of the session as the bench saw it: ``read`` "yes" or why not ("-": not
    told), ``played`` live's word on it (or why it stopped), ``seconds`` from live coming
    to it to that word (wall), ``confirmed`` the game said "Level completed."."""

    number: int
    name: str
    start: float                # time.monotonic() when live (or the bench) came to it
    read: str = "-"
    moves: int | None = None
    solve_seconds: float | None = None
    played: str = "-"
    seconds: float | None = None
    confirmed: bool = False

    def row(self) -> list[Any]:
        return [self.number, self.name, _short(self.read), "-" if self.moves is None else self.moves,
                "-" if self.solve_seconds is None else round(self.solve_seconds, 2), _short(self.played),
                "yes" if self.confirmed else "no", "-" if self.seconds is None else round(self.seconds, 1)]

    def summary(self) -> str:
        solved = "" if self.moves is None else f"{self.moves} moves (solved in {self.solve_seconds:.2f} s), "
        took = "" if self.seconds is None else f" in {self.seconds:.0f} s"
        return f"{self.name}: {solved}{self.played}{took}"


def _short(text: str, most: int = 64) -> str:
    """``text`` cut at a word to at most about ``most`` characters (a solver's reason for
    giving up is long)."""
    return text if len(text) <= most else text[:text.rfind(" ", 0, most)] + " …"


class Tally:
    """The session's puzzles from what the bench sees, two streams each in its own order:
    live's lines (a level line belongs to the puzzle live last came to: the first, then
    each "next puzzle: NAME") and the window's titles (a "Level completed." confirms the
    puzzle the title named last). ``progress`` gets a line as each puzzle starts and ends."""

    HEADERS = ["puzzle", "name", "read", "moves", "solve s", "played", "confirmed", "seconds"]

    def __init__(self, total: int, progress: Callable[[str], None], first: int = 1) -> None:
        self.total, self.progress, self.first = total, progress, first     # first: the first one's number
        self.puzzles: dict[str, Puzzle] = {}
        self.playing: Puzzle | None = None     # the puzzle live (or the bench) came to last
        self.shown: str | None = None          # the puzzle the title named last
        self.completed: set[str] = set()       # the puzzles the game said were completed

    def came_to(self, name: str, now: float) -> None:
        """Live (or the bench, skipping one) came to the puzzle ``name``."""
        if name not in self.puzzles:
            self.puzzles[name] = Puzzle(self.first + len(self.puzzles), name, now, confirmed=name in self.completed)
            self.progress(f"  [{len(self.puzzles)}/{self.total}] {name} ...")
        self.playing = self.puzzles[name]

    def line(self, text: str, now: float) -> None:
        """One line live printed: a puzzle it came to, or its word on the puzzle it is on
        (any other line, as its retries, says nothing to count)."""
        if text.startswith(NEXT):
            self.came_to(text.removeprefix(NEXT), now)
            return
        level = LEVEL.fullmatch(text)
        puzzle = self.playing
        if level is None or puzzle is None:
            return
        puzzle.read, puzzle.solve_seconds = "yes", float(level[1]) / 1000.0
        puzzle.moves = None if level[2] is None else int(level[2])
        puzzle.played, puzzle.seconds = level[3], now - puzzle.start
        self.progress(f"    {puzzle.summary()}")

    def title(self, text: str) -> None:
        """The window's title changed to ``text``."""
        if text != DONE:
            self.shown = text
        elif self.shown is not None and self.shown not in self.completed:
            self.completed.add(self.shown)
            if self.shown in self.puzzles:
                self.puzzles[self.shown].confirmed = True
            self.progress(f"    {self.shown}: the game says {DONE!r}")

    def stopped(self, why: str, now: float, read: Callable[[], str]) -> None:
        """Live stopped (or was stopped) on the puzzle it is on without a word on it: why,
        and whether the window shows a board the vision reads (``read()``)."""
        puzzle = self.playing
        if puzzle is None or puzzle.played != "-":
            return
        puzzle.played, puzzle.seconds = why, now - puzzle.start
        if puzzle.read == "-":
            puzzle.read = read()
        self.progress(f"    {puzzle.summary()}")

    def played(self) -> int:
        return sum(p.confirmed for p in self.puzzles.values())

    def rows(self) -> list[list[Any]]:
        return [p.row() for p in self.puzzles.values()]


def session(wid: int, first: str, count: int, progress: Callable[[str], None], number: int = 1) -> Tally:
    """``count`` puzzles of the game in window ``wid`` (showing the puzzle ``first``, the
    ``number``-th of the game's)
    played one after the other by ``live --play --next``, as a player runs it; a puzzle
    live stops on or runs out of time on is skipped through the game's menu and live is
    started again for the rest. The session ends early, saying why, when the game's window
    goes or its menu does not answer."""
    from overlay.driver import DriverStopped, open_driver
    from puzzlepilot.live import menu_of
    from vision.capture import CaptureError, window_source

    tally = Tally(count, progress, number)
    events: queue.Queue[tuple[str, str, float]] = queue.Queue()
    watching = threading.Event()
    watching.set()
    titles = threading.Thread(target=_titles, args=(wid, events, watching), daemon=True)
    source = window_source(window_id=wid)
    titles.start()
    try:
        driver = open_driver(source, log=lambda _: None)
        skip = menu_of(source, None, lambda: driver, source.grab)
        tally.came_to(first, time.monotonic())
        while True:
            stop = _live(wid, count - len(tally.puzzles) + 1, tally, events)
            if stop is None:    # it played its levels, or the game has no puzzle after the last
                break
            tally.stopped(*stop, lambda: _reading(source))
            if len(tally.puzzles) >= count:
                break
            name = skip()
            if name is None:
                break
            tally.came_to(name, time.monotonic())
        # the last puzzle played: the game may say so a moment after live's last line
        last = tally.playing
        deadline = time.monotonic() + CONFIRM_SECONDS
        while last is not None and last.played.startswith("played") and not last.confirmed \
                and time.monotonic() < deadline:
            _handle(tally, events, POLL)
    except (CaptureError, MenuError, DriverStopped) as exc:    # the window went, or its menu did not answer
        progress(f"  the session stopped: {exc}")
    finally:
        watching.clear()
        titles.join()
        source.close()
    while not events.empty():
        _handle(tally, events, 0)
    return tally


def _titles(wid: int, events: queue.Queue[tuple[str, str, float]], watching: threading.Event) -> None:
    """Put the window's title on ``events`` each time it changes, until ``watching`` is
    cleared or the window is gone (its own connection to the display: this runs in a thread)."""
    from vision.capture import CaptureError, window_source

    try:
        source = window_source(window_id=wid)
    except CaptureError:
        return
    try:
        last = None
        while watching.is_set():
            title = source.current_title()
            if title != last:
                events.put(("title", title, time.monotonic()))
                last = title
            time.sleep(POLL)
    except CaptureError:
        pass
    finally:
        source.close()


def _handle(tally: Tally, events: queue.Queue[tuple[str, str, float]], wait: float) -> str | None:
    """Take one event (waiting up to ``wait`` seconds) to the tally; its kind (None: none came)."""
    try:
        kind, text, at = events.get(timeout=wait) if wait else events.get_nowait()
    except queue.Empty:
        return None
    if kind == "line":
        tally.line(text, at)
    elif kind == "title":
        tally.title(text)
    return kind


def _live(wid: int, levels: int, tally: Tally,
          events: queue.Queue[tuple[str, str, float]]) -> tuple[str, float] | None:
    """One ``live --play --next`` for up to ``levels`` puzzles, its lines and the titles
    taken to the tally as they come; None when it ended by itself, else why it stopped and
    when (its last word on stderr as it ended, or out of time as the time was up: it is then
    interrupted as Ctrl-C does, and lets go of the mouse)."""
    live = subprocess.Popen([sys.executable, "-m", "puzzlepilot", "live", "--game", "klotski",
                             "--window-id", str(wid), "--play", "--next", "--hints", "none",
                             "--levels", str(levels)],
                            stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    errors: list[str] = []
    threads = [threading.Thread(target=_lines, args=(live.stdout, events, None), daemon=True),
               threading.Thread(target=_lines, args=(live.stderr, None, errors), daemon=True)]
    for thread in threads:
        thread.start()
    late, stop_by = None, 0.0
    try:
        while _handle(tally, events, POLL) != "end":
            puzzle = tally.playing
            if late is None and puzzle is not None and puzzle.played == "-" and \
                    time.monotonic() - puzzle.start > LEVEL_SECONDS:
                now = time.monotonic()
                late, stop_by = (f"out of time ({LEVEL_SECONDS:g} s)", now), now + STOP_SECONDS
                live.send_signal(signal.SIGINT)
            elif late is not None and time.monotonic() > stop_by:
                live.kill()
        live.wait(timeout=STOP_SECONDS)
    finally:
        if live.poll() is None:
            live.kill()
            live.wait()
        for thread in threads:
            thread.join()
    if late is not None:
        return late
    ended = time.monotonic()
    if live.returncode == 0:
        return None
    last = [line for line in errors if line.strip()][-1:] or [f"live ended with exit status {live.returncode}"]
    return last[0].strip().removeprefix("puzzlepilot: "), ended


def _lines(stream: Any, events: queue.Queue[tuple[str, str, float]] | None, kept: list[str] | None) -> None:
    """Each line of ``stream`` put on ``events`` (then an "end") or kept in ``kept``."""
    for line in stream:
        if events is not None:
            events.put(("line", line.rstrip("\n"), time.monotonic()))
        else:
            assert kept is not None
            kept.append(line.rstrip("\n"))
    if events is not None:
        events.put(("end", "", time.monotonic()))


def _reading(source: Any) -> str:
    """Whether the vision reads a board in the window once its picture has settled (a move
    live made may still be moving): "yes", or "no: why"."""
    from puzzlepilot.games import get
    from vision.common import NoBoardFound

    try:
        get("klotski").parse(settled(source.grab))
    except NoBoardFound as exc:
        return f"no: {exc}"
    return "yes"


def run(bench: Bench) -> None:
    if installed() is None:
        bench.progress("gnome-klotski: not installed (apt-get install gnome-klotski dbus); skipped")
        return
    chosen = bench.puzzles or tuple(range(1, (QUICK if bench.quick else PUZZLES) + 1))
    if chosen[-1] > PUZZLES:
        raise UsageError(f"--puzzles: the game has puzzles 1 to {PUZZLES}, not {chosen[-1]}")
    bench.private_screen()
    bench.progress(f"gnome-klotski: {len(chosen)} puzzles, each run of them in one game session, each puzzle "
                   f"at most {LEVEL_SECONDS:g} s")
    rows, played = [], 0
    with window_manager():
        for first, count in _runs(chosen):
            try:
                with tempfile.TemporaryDirectory(prefix="puzzlepilot-gk", ignore_cleanup_errors=True) as home, \
                        launch(Path(home), first - 1) as (name, wid):
                    tally = session(wid, name, count, bench.progress, first)
            except RuntimeError as exc:     # the game did not start
                bench.progress(f"gnome-klotski: {exc}")
                return
            rows += tally.rows()
            played += tally.played()
    load = ", ".join(f"{x:.1f}" for x in os.getloadavg())
    bench.table("gnome_klotski", f"GNOME Klotski played by live --play --next: played {played} of {len(chosen)}, "
                f"confirmed by the game (load {load})", Tally.HEADERS, rows)


def _runs(numbers: tuple[int, ...]) -> list[tuple[int, int]]:
    """Sorted puzzle numbers as runs of consecutive ones: (the first, how many)."""
    runs: list[tuple[int, int]] = []
    for n in numbers:
        if runs and runs[-1][0] + runs[-1][1] == n:
            runs[-1] = (runs[-1][0], runs[-1][1] + 1)
        else:
            runs.append((n, 1))
    return runs
