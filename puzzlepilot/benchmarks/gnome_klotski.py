"""GNOME Klotski played to the end: every puzzle of the real game (Debian ``gnome-klotski``)
started on a private Xvfb under openbox (when installed) and played by ``puzzlepilot live
--play`` in a fresh process; a puzzle counts as played only when the game itself retitles its
window "Level completed.".

    puzzlepilot bench gnome-klotski [--quick]

All 28 puzzles (3 with --quick: Only 18 Steps, Red Donkey, Agatka), each bounded by
``LEVEL_SECONDS``. Per puzzle: its name, the moves the command played, the wall time, and
the outcome (played, or the command's own last line on stderr). :func:`launch` starts the
game in its own D-Bus session with its settings and folders in a temporary folder; the
tests start it with it too.
"""
from __future__ import annotations

import os
import shutil
import signal
import subprocess
import sys
import tempfile
import time
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path

from puzzlepilot.bench import Bench

PUZZLES = 28                # in the game's three packs, numbered as its settings number them
QUICK = (0, 6, 9)           # Only 18 Steps, Red Donkey, Agatka
SIZE = (600, 500)           # the window's size, as the game's settings give it
LEVEL_SECONDS = 240.0       # the most one puzzle may take, read, solved and played
START_SECONDS = 60.0        # the most the game may take to show its window (slow on a busy machine)


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


def play(puzzle: int) -> list[object]:
    """One puzzle started and played by ``live --play``: [number, name, moves, seconds, outcome]."""
    from vision.capture import find_windows

    with tempfile.TemporaryDirectory(prefix="puzzlepilot-gk", ignore_cleanup_errors=True) as home, \
            launch(Path(home), puzzle) as (title, wid):
        start = time.monotonic()
        live = subprocess.Popen([sys.executable, "-m", "puzzlepilot", "live", "--game", "klotski",
                                 "--window-id", str(wid), "--play", "--hints", "none", "--levels", "1"],
                                stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
        try:
            out, err = live.communicate(timeout=LEVEL_SECONDS)
        except subprocess.TimeoutExpired:
            live.kill()
            out, err = live.communicate()
            err += f"\nout of time ({LEVEL_SECONDS:g} s)"
        seconds = time.monotonic() - start
        moves = next((w for line in out.splitlines() for w in line.split(", ") if w.endswith(" moves")), "-")
        done = live.returncode == 0 and _wait(lambda: find_windows("Level completed"), 10.0)
        # why not: the command's last word (stderr; else its level line, e.g. "no solution")
        last = (err.strip().splitlines() or out.strip().splitlines()[1:] or
                ["the game did not say 'Level completed.'"])[-1]
        return [puzzle, title, moves.removesuffix(" moves"), round(seconds, 1),
                "played" if done else last.removeprefix("puzzlepilot: ")[:120]]


def _wait(condition: object, seconds: float) -> bool:
    deadline = time.monotonic() + seconds
    while time.monotonic() < deadline:
        if condition():     # type: ignore[operator]
            return True
        time.sleep(0.2)
    return False


def run(bench: Bench) -> None:
    if installed() is None:
        bench.progress("gnome-klotski: not installed (apt-get install gnome-klotski dbus); skipped")
        return
    bench.private_screen()
    rows = []
    with window_manager():
        for puzzle in QUICK if bench.quick else range(PUZZLES):
            try:
                rows.append(play(puzzle))
            except RuntimeError as exc:     # the game did not start: this puzzle is not played
                rows.append([puzzle, "?", "-", 0.0, str(exc)])
            bench.progress(f"  {rows[-1][1]}: {rows[-1][4]}")
    played = sum(row[4] == "played" for row in rows)
    bench.table("gnome_klotski", f"GNOME Klotski played by live --play: {played} of {len(rows)} "
                "confirmed by the game", ["puzzle", "name", "moves", "seconds", "outcome"], rows)
