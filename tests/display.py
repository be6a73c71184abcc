"""Helpers for tests on an X display (the ``display`` fixture in conftest starts Xvfb, the
``desktop`` fixture adds a window manager and compositor with :func:`desktop`).

Tests wait for conditions, never for fixed times: :func:`wait_until` polls one with a
deadline, :class:`Lines` lets a test wait for a line a subprocess prints.

:class:`TkWindow` runs a plain Tk window in a helper process, so its events are handled
while the test drives pyautogui or the overlay in this one. It reports its mouse and key
events on stdout and takes commands (``move X Y``, ``color #RRGGBB``, ``box X0 Y0 X1 Y1 #RRGGBB`` drawn on its
canvas, ``image PATH`` a PNG shown at the canvas's top left) on stdin.
"""
from __future__ import annotations

import shutil
import signal
import subprocess
import sys
import tempfile
import threading
import time
from contextlib import contextmanager
from pathlib import Path
from typing import IO, Callable, Iterator, TypeVar

import numpy as np
import pytest

from vision.capture import Rect, find_windows

T = TypeVar("T")

WINDOW_SCRIPT = r"""
import sys, tkinter as tk
title, geometry, color = sys.argv[1:4]
root = tk.Tk()
root.title(title)
root.geometry(geometry)
root.configure(bg=color)
canvas = tk.Canvas(root, bg=color, highlightthickness=0, borderwidth=0)
canvas.pack(fill="both", expand=True)
def say(*words):
    print(*words, flush=True)
for event, name in (("<ButtonPress-1>", "press"), ("<B1-Motion>", "motion"),
                    ("<ButtonRelease-1>", "release")):
    root.bind(event, lambda e, name=name: say(name, e.x_root, e.y_root))
root.bind("<Key>", lambda e: say("key", e.keysym))
def command(line):
    words = line.split()
    if words[0] == "move":
        root.geometry(f"+{words[1]}+{words[2]}")
    elif words[0] == "color":
        root.configure(bg=words[1])
        canvas.configure(bg=words[1])
    elif words[0] == "box":
        canvas.create_rectangle(*map(int, words[1:5]), fill=words[5], outline="")
    elif words[0] == "image":
        canvas.picture = tk.PhotoImage(file=line.split(None, 1)[1].strip())   # kept: Tk drops unreferenced images
        canvas.create_image(0, 0, image=canvas.picture, anchor="nw")
    root.update_idletasks()
    say("done", *words)
def poll():
    import select
    while select.select([sys.stdin], [], [], 0)[0]:
        line = sys.stdin.readline()
        if not line:
            root.destroy()
            return
        command(line)
    root.after(10, poll)
root.after(10, poll)
root.update()
root.focus_force()
say("ready")
root.mainloop()
"""


def wait_until(condition: Callable[[], T], what: str, timeout: float = 5.0, every: float = 0.02) -> T:
    """Poll ``condition`` until it returns something true, and return that; an
    AssertionError saying ``what`` was awaited when ``timeout`` seconds pass first."""
    deadline = time.monotonic() + timeout
    while not (value := condition()):
        assert time.monotonic() < deadline, f"waited {timeout:g} s for {what}"
        time.sleep(every)
    return value


def placed(title: str) -> tuple[Rect, int]:
    """Where the window ``title``'s client area really is (a window manager shifts it) and
    its id, once it is mapped."""
    return wait_until(lambda: next(((rect, wid) for t, rect, wid in find_windows(title) if t == title), None),
                      f"a window {title!r}")


class Lines:
    """A subprocess's output lines (without their newlines), read by a thread as they come,
    so a test can wait for the one that says what it waits for."""

    def __init__(self, stream: IO[str]) -> None:
        self.lines: list[str] = []
        self._news = threading.Condition()
        self._ended = False
        self._reader = threading.Thread(target=self._read, args=(stream,), daemon=True)
        self._reader.start()

    def _read(self, stream: IO[str]) -> None:
        for line in stream:
            with self._news:
                self.lines.append(line.rstrip("\n"))
                self._news.notify_all()
        with self._news:
            self._ended = True
            self._news.notify_all()

    @property
    def ended(self) -> bool:
        """The output has ended: every line is in :attr:`lines`."""
        return self._ended

    def wait_for(self, match: Callable[[str], bool], timeout: float = 10.0, after: int = 0) -> str | None:
        """The first line from the ``after``-th on (already read or coming) that matches;
        None when the output ends or ``timeout`` seconds pass first (the caller's
        assertions on :attr:`lines` then say what came instead)."""
        deadline = time.monotonic() + timeout
        with self._news:
            while True:
                found = next((line for line in self.lines[after:] if match(line)), None)
                left = deadline - time.monotonic()
                if found is not None or self._ended or left <= 0:
                    return found
                self._news.wait(left)

    def join(self, timeout: float = 10.0) -> list[str]:
        """Every line, once the output has ended (the process closed it or exited)."""
        self._reader.join(timeout)
        assert not self._reader.is_alive(), f"the output did not end within {timeout:g} s"
        return self.lines


class TkWindow:
    """A Tk window of one colour in a helper process, reporting its events."""

    def __init__(self, title: str, rect: Rect, color: str = "#20a040") -> None:
        self.title, self.rect, self.color = title, rect, color
        geometry = f"{rect.width}x{rect.height}+{rect.left}+{rect.top}"
        self._proc = subprocess.Popen([sys.executable, "-c", WINDOW_SCRIPT, title, geometry, color],
                                      stdin=subprocess.PIPE, stdout=subprocess.PIPE, text=True)
        assert self._proc.stdout is not None
        self._lines = Lines(self._proc.stdout)
        self.wait_for(lambda e: e[0] == "ready")
        self._wait_placed()

    def _wait_placed(self, polls: int = 3) -> None:
        """Wait until the window shows at one place for ``polls`` looks in a row: Tk says
        ready before the X server has mapped and moved it, and a click sent meanwhile
        lands beside it (its press lost, its release caught once the window arrives)."""
        seen: list[Rect] = []

        def steady() -> bool:
            seen.append(placed(self.title)[0])
            return len(seen) >= polls and len(set(seen[-polls:])) == 1

        wait_until(steady, f"{self.title!r} to stay in one place")

    @property
    def events(self) -> list[tuple[str, ...]]:
        """Every event reported so far, as its words."""
        return [tuple(line.split()) for line in self._lines.lines]

    def wait_for(self, match: Callable[[tuple[str, ...]], bool], timeout: float = 5.0) -> tuple[str, ...]:
        """The first event (already seen or coming) that matches; AssertionError on timeout."""
        found = self._lines.wait_for(lambda line: match(tuple(line.split())), timeout)
        if found is not None:
            return tuple(found.split())
        if self._lines.ended:
            raise AssertionError(f"{self.title}: the window's process exited ({self._proc.wait(timeout=5)})")
        raise AssertionError(f"{self.title}: no matching event in {timeout} s; got {self.events}")

    def settle(self, quiet: float = 0.15) -> list[tuple[str, ...]]:
        """Every event so far, after none came for ``quiet`` seconds."""
        while self._lines.wait_for(lambda _: True, quiet, after=len(self._lines.lines)) is not None:
            pass
        return self.events

    def send(self, command: str) -> None:
        """Run a command in the window's process and wait until it is done."""
        assert self._proc.stdin is not None
        self._proc.stdin.write(command + "\n")
        self._proc.stdin.flush()
        self.wait_for(lambda e: e[:1] == ("done",) and " ".join(e[1:]) == command)

    def close(self) -> None:
        if self._proc.poll() is None:
            self._proc.kill()
        self._proc.wait()


def mouse_events(events: list[tuple[str, ...]]) -> list[tuple[str, int, int]]:
    """The mouse's presses, motions and releases among a :class:`TkWindow`'s events, as
    (kind, x, y) with integer coordinates."""
    return [(e[0], int(e[1]), int(e[2])) for e in events if e[0] in ("press", "motion", "release")]


def button_pressed() -> bool:
    """Whether the left mouse button is held down on the display (asked of the X server)."""
    from Xlib import X, display

    conn = display.Display()
    try:
        return bool(conn.screen().root.query_pointer().mask & X.Button1Mask)
    finally:
        conn.close()


def wait_for_pixels(grab: Callable[[], np.ndarray], ok: Callable[[np.ndarray], bool],
                    timeout: float = 3.0) -> np.ndarray:
    """Grab until ``ok(image)`` (mapped is not yet drawn); the last image either way."""
    deadline = time.monotonic() + timeout
    image = grab()
    while not ok(image) and time.monotonic() < deadline:
        time.sleep(0.02)
        image = grab()
    return image


def bgr(color: str) -> tuple[int, int, int]:
    """``#rrggbb`` → (b, g, r) as a grab shows it."""
    value = int(color.lstrip("#"), 16)
    return (value & 255, (value >> 8) & 255, value >> 16)


def xdotool(*args: object) -> str:
    """Run xdotool (mouse and keys on the display) and return what it prints."""
    return subprocess.run(["xdotool", *map(str, args)], check=True, capture_output=True, text=True).stdout


def find_on_screen(image: np.ndarray, timeout: float = 20.0) -> tuple[int, int] | None:
    """Where the image shows on the screen (top-left), once a window has painted it; None
    when it never does."""
    import cv2
    import mss

    grab = getattr(mss, "MSS", None) or mss.mss
    needle = cv2.cvtColor(image, cv2.COLOR_BGR2GRAY)
    deadline = time.monotonic() + timeout
    with grab() as screen:
        while time.monotonic() < deadline:
            shot = cv2.cvtColor(np.asarray(screen.grab(screen.monitors[0])), cv2.COLOR_BGRA2GRAY)
            _, best, _, (x, y) = cv2.minMaxLoc(cv2.matchTemplate(shot, needle, cv2.TM_CCOEFF_NORMED))
            if best > 0.98:
                return x, y
            time.sleep(0.1)
    return None


def calibrate_in_window(game: str, path: Path, image: np.ndarray, region: tuple[int, int, int, int],
                        clicks: list[tuple[int, int]], env: dict[str, str], name: str = "picked") -> tuple[int, str]:
    """``puzzlepilot calibrate GAME PATH --name NAME`` without --board, worked as a user
    would: drag the box ``region`` (x, y, w, h) over the screenshot, then click each point of
    ``clicks`` in turn (image coordinates). Returns the exit status and stderr."""
    proc = puzzlepilot("calibrate", game, str(path), "--name", name, env=env)
    try:
        at = find_on_screen(image)
        assert at is not None, "the calibration window never showed the screenshot"
        x0, y0 = at
        x, y, w, h = region
        xdotool("mousemove", x0 + x, y0 + y, "mousedown", 1)
        xdotool("mousemove", x0 + x + w // 2, y0 + y + h // 2)
        xdotool("mousemove", x0 + x + w, y0 + y + h, "mouseup", 1)
        for px, py in clicks:
            xdotool("mousemove", x0 + px, y0 + py, "click", 1)
        _, err = proc.communicate(timeout=30)
    finally:
        if proc.poll() is None:
            proc.kill()
            proc.wait()
    return proc.returncode, err


REPO = Path(__file__).resolve().parents[1]
PRACTICE_TITLE = "puzzlepilot practice"


def interruptible() -> None:
    """In the child: Ctrl-C (SIGINT) back to its default. A test run started as a background
    job ignores SIGINT, and a child inherits that, so the tests' Ctrl-C would go unheard."""
    signal.signal(signal.SIGINT, signal.SIG_DFL)


def puzzlepilot(*argv: str, env: dict[str, str] | None = None, **kw: object) -> subprocess.Popen:
    """``python -m puzzlepilot ARGV`` in a subprocess, text pipes on stdout and stderr; it
    hears Ctrl-C however the tests were started."""
    return subprocess.Popen([sys.executable, "-m", "puzzlepilot", *argv], cwd=REPO, text=True,
                            stdout=subprocess.PIPE, stderr=subprocess.PIPE, env=env,
                            preexec_fn=interruptible, **kw)


def run_puzzlepilot(*argv: str, timeout: float = 60) -> tuple[int, str, str]:
    """Run ``puzzlepilot ARGV`` to its end: (exit status, stdout, stderr)."""
    proc = puzzlepilot(*argv)
    try:
        out, err = proc.communicate(timeout=timeout)
    finally:
        proc.kill()
    return proc.returncode, out, err


def close_while_running(game: TkWindow, proc: subprocess.Popen, ready: Callable[[], object]) -> str:
    """Close the game window once ``ready()`` returns; the command's stderr once it has
    ended (killed if it hangs)."""
    try:
        ready()
        game.close()
        _, err = proc.communicate(timeout=30)
    finally:
        if proc.poll() is None:
            proc.kill()
            proc.communicate()
    return err


def wait_for_window(title: str, timeout: float = 5.0) -> None:
    wait_until(lambda: find_windows(title), f"a window {title!r}", timeout, every=0.05)


@contextmanager
def practice_board(*argv: str) -> Iterator[list[str]]:
    """``puzzlepilot practice ARGV --log`` shown on the display for the block; yields the
    list that gets the board's log lines (after its first) once the block ends. With
    ``--levels N`` the block is to solve them all: its end waits for the board to log
    ``solved level N`` (a player may be gone before the board has handled its last move)."""
    log: list[str] = []
    practice = puzzlepilot("practice", *argv, "--log")
    lines = Lines(practice.stdout)
    Lines(practice.stderr)      # drained as it fills, so the board never blocks on it
    try:
        assert (lines.wait_for(lambda _: True) or "").startswith("level 1:"), lines.lines
        wait_for_window(PRACTICE_TITLE)
        yield log
        if "--levels" in argv:
            last = f"solved level {argv[argv.index('--levels') + 1]}"
            lines.wait_for(lambda line: line == last)   # if it never comes, the caller's check of the log says so
    finally:
        practice.terminate()
        practice.wait(timeout=10)
        log.extend(lines.join()[1:])


def _wm_running() -> bool:
    """A window manager has taken the screen over: the root names its EWMH check window,
    and that window exists and names itself (a manager that has gone leaves neither)."""
    from Xlib import X, display, error

    screen = display.Display()
    try:
        check = screen.intern_atom("_NET_SUPPORTING_WM_CHECK")
        named = screen.screen().root.get_full_property(check, X.AnyPropertyType)
        if named is None:
            return False
        try:
            own = screen.create_resource_object("window", named.value[0]).get_full_property(check, X.AnyPropertyType)
        except error.BadWindow:
            return False
        return own is not None and own.value[0] == named.value[0]
    finally:
        screen.close()


def _compositor_running() -> bool:
    """A compositing manager runs: it owns the screen's ``_NET_WM_CM_S0`` selection."""
    from Xlib import X, display

    screen = display.Display()
    try:
        return screen.get_selection_owner(screen.intern_atom("_NET_WM_CM_S0")) != X.NONE
    finally:
        screen.close()


DESKTOPS = ("bare", "openbox", "openbox+picom")
_DESKTOP_PROGRAMS = {"openbox": (["openbox"], _wm_running, "openbox to manage the screen"),
                     "picom": (["picom", "--backend", "xrender"], _compositor_running, "picom to composite the screen")}


@contextmanager
def desktop(kind: str) -> Iterator[str]:
    """The display as it is (``bare``), or with a window manager (``openbox``) and a
    compositor (``openbox+picom``) running for the block, each waited for until it has taken
    the screen over; skips the test when one is not installed."""
    programs = [] if kind == "bare" else kind.split("+")
    missing = [p for p in programs if shutil.which(p) is None]
    if missing:
        pytest.skip(f"{', '.join(missing)} not installed")
    started: list[subprocess.Popen[bytes]] = []
    try:
        for program in programs:
            argv, running, what = _DESKTOP_PROGRAMS[program]
            said = tempfile.TemporaryFile()     # what it says, for the message when it fails (a pipe could fill)
            proc = subprocess.Popen(argv, stdout=subprocess.DEVNULL, stderr=said)
            started.append(proc)
            wait_until(lambda: running() or proc.poll() is not None, what)
            if proc.poll() is not None:
                said.seek(0)
                raise AssertionError(f"{program} exited at once ({proc.returncode}): {said.read()[-500:]!r}")
        yield kind
    finally:
        for proc in reversed(started):
            proc.terminate()
            proc.wait(timeout=5)
