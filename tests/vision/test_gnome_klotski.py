"""GNOME Klotski's own window, run under Xvfb, read by ``parse`` as the board its screen
shows (boards written from the game's screens in tests/solvers/test_klotski_walls.py), at
the window's default size and a larger one; skipped when the game is not installed
(Debian: apt-get install gnome-klotski dbus)."""
from __future__ import annotations

import os
import shutil
import signal
import subprocess
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path

import numpy as np
import pytest

from puzzlepilot.games import GAMES
from solvers.klotski import Board
from tests.display import wait_until
from tests.solvers.test_klotski_walls import AGATKA, ONLY_18_STEPS, RED_DONKEY
from vision.capture import find_windows, region_source
from vision.common import NoBoardFound

GAME = shutil.which("gnome-klotski") or shutil.which("gnome-klotski", path="/usr/games")
pytestmark = pytest.mark.skipif(GAME is None or shutil.which("dbus-run-session") is None,
                                reason="gnome-klotski or dbus-run-session is not installed "
                                       "(Debian/Ubuntu: apt-get install gnome-klotski dbus)")

# The game's puzzles by their number in its settings, and their names (its window title).
PUZZLES = {0: ("Only 18 Steps", ONLY_18_STEPS), 6: ("Red Donkey", RED_DONKEY), 9: ("Agatka", AGATKA)}


@contextmanager
def gnome_klotski(display: str, home: Path, puzzle: int, size: tuple[int, int]) -> Iterator[str]:
    """The game showing ``puzzle`` in a window of ``size``, its settings, D-Bus session and
    folders in ``home``; yields the window's title."""
    settings = home / "config" / "glib-2.0" / "settings"
    settings.mkdir(parents=True)
    (settings / "keyfile").write_text(f"[org/gnome/Klotski]\nlevel={puzzle}\n"
                                      f"window-width={size[0]}\nwindow-height={size[1]}\n")
    env = {**os.environ, "DISPLAY": display, "HOME": str(home), "XDG_CONFIG_HOME": str(home / "config"),
           "XDG_DATA_HOME": str(home / "data"), "XDG_CACHE_HOME": str(home / "cache"),
           "GSETTINGS_BACKEND": "keyfile", "GTK_A11Y": "none", "NO_AT_BRIDGE": "1"}
    game = subprocess.Popen(["dbus-run-session", GAME], env=env, stdout=subprocess.DEVNULL,
                            stderr=subprocess.DEVNULL, start_new_session=True)
    try:
        title = PUZZLES[puzzle][0]
        wait_until(lambda: find_windows(title), f"GNOME Klotski's window {title!r}", timeout=20, every=0.2)
        yield title
    finally:
        os.killpg(game.pid, signal.SIGTERM)
        game.wait(timeout=10)


def read(title: str) -> Board | None:
    """The board ``parse`` reads from the game's window; None while it is refused (the
    window still drawing)."""
    (_, rect, _), = find_windows(title)
    source = region_source(rect)
    try:
        image = source.grab()
    finally:
        source.close()
    try:
        return GAMES["klotski"].parse(np.ascontiguousarray(image)).board
    except NoBoardFound:
        return None


@pytest.mark.parametrize("puzzle, size", [(6, (600, 500)), (9, (600, 500)), (0, (1000, 760))])
def test_parse_reads_the_game_window_as_its_board(display, tmp_path, puzzle, size):
    want = Board.from_text(PUZZLES[puzzle][1]).relabelled()
    with gnome_klotski(display, tmp_path, puzzle, size) as title:
        board = wait_until(lambda: read(title), "a board read from the window", timeout=10, every=0.2)
    assert board.to_text() == want.to_text()
