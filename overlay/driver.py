"""Plays screen actions with pyautogui, refusing anything outside the game window and
stopping the moment the user takes the mouse back.

Before anything is sent, every point of every action must lie inside the window's
*current* rectangle (asked again before each action, as the window may move). Drags are
pressed at the first point and glided through every waypoint in small timed steps before
the release: games miss pyautogui's ``dragTo`` jumps; buttons and keys are held a moment.
Before each step the pointer must still be where we put it; if not, the user moved it, so
the button is released and :class:`DriverStopped` raised. pyautogui's fail-safe (pointer
in a screen corner) stays on. pyautogui is imported on first use because it binds the
display at import.

With a ``guard`` (the game's window, :class:`WindowGuard`), input goes only to the game:
before the first key the window is given the focus, and before every key it must still
have it; before the press of a drag and at every step while the button is held the window
must still exist and be the topmost window under the pointer. Otherwise the button is
released where it is and :class:`DriverStopped` says what happened.

The live loop sees an :class:`InputDriver`, made by :func:`open_driver`. pyautogui has its
own backend per platform (like mss); the platform parts that are ours, the guard's focus
and window-stack checks, belong to the window lookup of each platform
(``vision.capture.x11``, ``vision.capture.desktop``). A window gone while playing is the
capture's CaptureError, turned into DriverStopped here.
"""
from __future__ import annotations

import math
import time
from typing import Any, Callable, Protocol, runtime_checkable

from overlay.actions import Action, Click, Drag, Key, Point, action_points, describe
from overlay.surface import OverlayError
from vision.capture import CaptureError, Rect, Source, xlib_quiet
from vision.platform import detect

GLIDE_SPEED = 900.0   # px/s while dragging at speed 1
STEP = 0.01           # s between pointer updates within a glide
MIN_SEGMENT = 0.08    # s for the shortest drag segment at speed 1
SETTLE = 0.05         # s a button or key is held, and between actions, at speed 1
TOLERANCE = 2.0       # px the pointer may be off before we call it the user's move
SPEED = 1.0           # the default speed factor


class DriverStopped(Exception):
    """Playing stopped: the user moved the mouse, the fail-safe fired, or an action would
    have left the game window."""


FOCUS_WAIT = 1.0      # s the window may take to get the focus once asked


class InputDriver(Protocol):
    """Plays actions on the screen, as the live loop asks."""

    def perform(self, actions: list[Action]) -> None:
        """Play ``actions`` in order; DriverStopped when it cannot go on."""
        ...


@runtime_checkable
class WindowGuard(Protocol):
    """The game's window, asked before input is sent (``vision.capture.WindowSource``)."""

    def focus(self) -> None:
        """Raise the window and give it the keyboard focus (CaptureError when gone)."""
        ...

    def has_focus(self) -> bool:
        ...

    def under_pointer(self) -> bool:
        """Whether the window exists and is the topmost one under the pointer."""
        ...


class Driver:
    """Performs ``overlay.actions`` on the screen (or only logs them with ``dry_run``).
    ``guard``: the game's window, checked before input is sent (see the module notes)."""

    def __init__(self, window: Callable[[], Rect], *, speed: float = SPEED, dry_run: bool = False,
                 log: Callable[[str], None] = print, guard: WindowGuard | None = None) -> None:
        if not (math.isfinite(speed) and speed > 0):
            raise ValueError(f"speed must be a positive number, not {speed}")
        self._window = window
        self._speed = speed
        self._dry_run = dry_run
        self._log = log
        self._guard = guard
        self._gui: Any = None
        self._at: Point | None = None   # where we last put the pointer
        self._holding = False           # the button is down (a drag in progress)

    def perform(self, actions: list[Action]) -> None:
        """Check every point against the window, then play the actions in order."""
        for action in actions:
            self._check_inside(action)
        if self._dry_run:
            for action in actions:
                self._log(f"dry run: {describe(action)}")
            return
        gui = self._pyautogui()
        self._at = None
        focused = False
        try:
            for action in actions:
                self._check_inside(action)
                self._expect(self._at)   # the user may have moved it between actions
                self._log(describe(action))
                if isinstance(action, Drag):
                    self._drag(action.points, action.rest)
                elif isinstance(action, Click):
                    self._drag((action.point,))
                elif isinstance(action, Key):
                    if not focused:
                        self._give_focus()
                        focused = True
                    self._check_focus(action)
                    self._press(action)
                time.sleep(SETTLE / self._speed)
        except gui.FailSafeException:
            raise DriverStopped("stopped by the fail-safe: the mouse is in a screen corner") from None

    def _press(self, action: Key) -> None:
        """Hold the key (and its modifiers, pressed first) a moment; everything pressed is
        let go, last pressed first, also when interrupted."""
        held: list[str] = []
        try:
            for key in (*action.mods, action.key):
                self._gui.keyDown(key)
                held.append(key)
            time.sleep(SETTLE / self._speed)
        finally:
            for key in reversed(held):
                self._gui.keyUp(key)

    def _pyautogui(self) -> Any:
        if self._gui is None:
            with xlib_quiet():
                import pyautogui

            pyautogui.FAILSAFE = True
            # Our own steps and sleeps do the pacing; pyautogui's 0.1 s after every call
            # would make each glide step crawl.
            pyautogui.PAUSE = 0.0
            self._gui = pyautogui
        return self._gui

    def _check_inside(self, action: Action) -> None:
        try:
            rect = self._window()
        except CaptureError as exc:
            raise DriverStopped(str(exc)) from None
        for x, y in action_points(action):
            if not rect.contains(x, y):
                raise DriverStopped(f"({x:.0f},{y:.0f}) is outside the game window "
                                    f"{rect.to_text()}: {describe(action)}")

    def _give_focus(self) -> None:
        """Give the game window the keyboard focus and wait until it has it."""
        if self._guard is None:
            return
        try:
            self._guard.focus()
        except CaptureError as exc:
            raise DriverStopped(str(exc)) from None
        deadline = time.monotonic() + FOCUS_WAIT
        while not self._guard.has_focus():
            if time.monotonic() > deadline:
                raise DriverStopped("the game window did not take the keyboard focus; no key was sent")
            time.sleep(0.02)

    def _check_focus(self, action: Key) -> None:
        """DriverStopped unless the game window still has the focus (another window may
        have taken it: the keys would go there)."""
        if self._guard is not None and not self._guard.has_focus():
            raise DriverStopped(f"the game window lost the keyboard focus; stopped before {describe(action)}")

    def _check_under_pointer(self) -> None:
        """DriverStopped unless the game window exists and is topmost under the pointer."""
        if self._guard is None:
            return
        try:
            self._window()
        except CaptureError as exc:
            raise DriverStopped(str(exc)) from None
        if not self._guard.under_pointer():
            x, y = self._gui.position()
            raise DriverStopped(f"the game window is not under the pointer at ({x},{y}) "
                                "(closed, moved or covered by another window)")

    def _drag(self, points: tuple[Point, ...], rest: float = 0.0) -> None:
        """Press at the first point, glide through the others (resting ``rest`` seconds on
        each, whatever the speed: the game asks it), release; a click is a drag of one
        point. The button is held a moment at both ends: games that sample input once per
        frame miss a press and release sent together."""
        self._move(points[0])
        self._check_under_pointer()   # before pressing: the press must reach the game
        self._holding = True
        try:
            self._gui.mouseDown()   # inside: an interrupt may land after the press is sent
            time.sleep(SETTLE / self._speed)
            for a, b in zip(points, points[1:]):
                self._glide(a, b)
                if rest:
                    time.sleep(rest)
                    self._expect(b)
            if len(points) > 1:
                time.sleep(SETTLE / self._speed)
            self._expect(self._at)
        finally:
            self._holding = False
            self._release()   # also when stopped or interrupted: never leave the button down

    def _glide(self, a: Point, b: Point) -> None:
        """Move from a to b in timed steps (each move checks the user did not move it)."""
        length = math.hypot(b[0] - a[0], b[1] - a[1])
        duration = max(length / GLIDE_SPEED, MIN_SEGMENT) / self._speed
        steps = max(1, math.ceil(duration / STEP))
        start = time.perf_counter()
        for i in range(1, steps + 1):
            t = i / steps
            self._move((a[0] + (b[0] - a[0]) * t, a[1] + (b[1] - a[1]) * t))
            delay = start + duration * t - time.perf_counter()
            if delay > 0:
                time.sleep(delay)

    def _move(self, point: Point) -> None:
        """Move the pointer, first making sure it is still where we left it."""
        if self._at is not None:
            self._expect(self._at)
        if self._holding:
            self._check_under_pointer()   # every step of a drag: the game may have closed
        self._gui.moveTo(round(point[0]), round(point[1]))
        self._at = point

    def _expect(self, point: Point | None) -> None:
        """DriverStopped unless the pointer is (about) at ``point``."""
        if point is None:
            return
        x, y = self._gui.position()
        if abs(x - round(point[0])) > TOLERANCE or abs(y - round(point[1])) > TOLERANCE:
            raise DriverStopped("mouse moved by the user")

    def _release(self) -> None:
        """Let go of the button (even with the pointer in a fail-safe corner)."""
        gui = self._gui
        failsafe, gui.FAILSAFE = gui.FAILSAFE, False
        try:
            gui.mouseUp()
        finally:
            gui.FAILSAFE = failsafe


def open_driver(source: Source, *, speed: float = SPEED, dry_run: bool = False,
                log: Callable[[str], None] = print) -> InputDriver:
    """The input driver for this desktop, playing inside ``source``'s rectangle and guarded
    by its window when it is one; OverlayError where no input can be sent (a dry run sends
    none, so it needs none)."""
    here = detect()
    if not (here.screen or dry_run):
        raise OverlayError(f"no input can be sent on this desktop: {here.reason}")
    guard = source if isinstance(source, WindowGuard) else None
    return Driver(source.rect, speed=speed, dry_run=dry_run, log=log, guard=guard)
