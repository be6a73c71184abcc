"""Screen capture of a window, a region or a monitor, for the live loop.

A :class:`Source` says where its picture is on the screen (``rect``) and grabs it
(``grab``, BGR uint8 through mss). Window sources look the window up again on every
``rect()`` so hints follow a moved window. :func:`open_source` is the factory the live loop
uses: a window, a region or a monitor. Window lookup sits behind one small interface,
:class:`WindowFinder`, with one backend per platform chosen in :func:`_finder` (the
platform as ``vision.platform`` decides it) and imported there, so one platform's code
never loads on another (python-mss's model): X11 walks the window tree with python-xlib
(works without a window manager); Windows and macOS use pywinctl or pygetwindow when
installed (untested here). Grabbing is mss's, which has its own backend per platform.
"""
from __future__ import annotations

import contextlib
import io
from dataclasses import dataclass
from typing import Callable, ContextManager, Protocol

import numpy as np

from vision.platform import Desktop, detect


class CaptureError(Exception):
    """The screen cannot be captured as asked: no display, Wayland, no such window."""


@dataclass(frozen=True)
class Rect:
    """A screen rectangle in pixels; ``left``/``top`` may be negative on multi-monitor setups."""

    left: int
    top: int
    width: int
    height: int

    def contains(self, x: float, y: float) -> bool:
        """Whether the point lies inside (right and bottom edges excluded)."""
        return self.left <= x < self.left + self.width and self.top <= y < self.top + self.height

    def intersect(self, other: "Rect") -> "Rect | None":
        """The common part, or None when the rectangles do not overlap."""
        left, top = max(self.left, other.left), max(self.top, other.top)
        right = min(self.left + self.width, other.left + other.width)
        bottom = min(self.top + self.height, other.top + other.height)
        if right <= left or bottom <= top:
            return None
        return Rect(left, top, right - left, bottom - top)

    def to_text(self) -> str:
        return f"{self.left},{self.top},{self.width},{self.height}"

    @classmethod
    def parse(cls, text: str) -> "Rect":
        """``"X,Y,W,H"`` → Rect; ValueError naming the problem otherwise."""
        parts = [p.strip() for p in text.split(",")]
        if len(parts) != 4:
            raise ValueError(f"a region is X,Y,W,H (four integers), not {text!r}")
        try:
            left, top, width, height = (int(p) for p in parts)
        except ValueError:
            raise ValueError(f"a region is X,Y,W,H (four integers), not {text!r}") from None
        if width <= 0 or height <= 0:
            raise ValueError(f"a region needs a positive width and height, not {text!r}")
        return cls(left, top, width, height)


class Source(Protocol):
    """What the live loop captures from."""

    def rect(self) -> Rect:
        """The current screen rectangle of the picture (the part on screen)."""
        ...

    def grab(self) -> np.ndarray:
        """The pixels of :meth:`rect` as a BGR uint8 array."""
        ...

    def close(self) -> None:
        ...


WindowInfo = tuple[str, Rect, int]   # (title, client rectangle, window id)


class WindowFinder(Protocol):
    """A platform's window lookup."""

    def find(self, title: str) -> list[WindowInfo]:
        """Visible windows whose title contains ``title`` (case-insensitive; on X11 also
        those whose program's name, ``WM_CLASS``, contains it)."""
        ...

    def rect(self, wid: int) -> Rect:
        """The window's current client rectangle; CaptureError when it is gone."""
        ...

    def title(self, wid: int) -> str:
        """The window's title now (a game may retitle it); CaptureError when it is gone."""
        ...

    def program(self, wid: int) -> str:
        """The window's program and class names, lower case (on X11 ``WM_CLASS``; empty
        where the platform does not tell); CaptureError when it is gone."""
        ...

    def dialogs(self, wid: int) -> list[WindowInfo]:
        """The shown windows that belong to the window (its dialogs)."""
        ...

    def focus(self, wid: int) -> None:
        """Raise the window and give it the keyboard focus; CaptureError when it is gone."""
        ...

    def has_focus(self, wid: int) -> bool:
        """Whether the keyboard focus is on the window (or inside it)."""
        ...

    def under_pointer(self, wid: int) -> bool:
        """Whether the window is the topmost one under the pointer (it exists, is not
        covered there)."""
        ...

    def close(self) -> None:
        ...


def check_session() -> Desktop:
    """This desktop, or CaptureError when the screen cannot be captured there: a Wayland
    session, or no display at all."""
    here = detect()
    if not here.screen:
        raise CaptureError(here.reason)
    return here


def xlib_quiet() -> ContextManager[object]:
    """Silence python-xlib while it connects: with an empty XAUTHORITY file (Xvfb, CI) it
    prints a warning on *stdout*, which would spoil ``--json`` output. Wrap connecting
    (and ``import pyautogui``, which connects) in it."""
    return contextlib.redirect_stdout(io.StringIO())


def _finder() -> WindowFinder:
    """The window lookup backend for this platform, imported only here."""
    if check_session().kind == "x11":
        from vision.capture.x11 import XlibFinder

        return XlibFinder()
    from vision.capture.desktop import DesktopFinder

    return DesktopFinder()


def find_windows(title: str) -> list[WindowInfo]:
    """Visible windows whose title contains ``title``, for listings and error messages."""
    finder = _finder()
    try:
        return finder.find(title)
    finally:
        finder.close()


class ScreenSource:
    """Grabs the rectangle ``locate(monitors)`` returns, clipped to the screen.

    ``monitors`` is mss's list: index 0 the whole virtual screen, then each monitor.
    """

    def __init__(self, locate: Callable[[list[Rect]], Rect], what: str) -> None:
        import mss

        self._locate = locate
        self._what = what
        try:
            self._mss = (getattr(mss, "MSS", None) or mss.mss)()
            self._monitors = [Rect(m["left"], m["top"], m["width"], m["height"])
                              for m in self._mss.monitors]
        except mss.exception.ScreenShotError as exc:
            raise CaptureError(f"cannot capture the screen: {exc}") from None

    def rect(self) -> Rect:
        visible = self._locate(self._monitors).intersect(self._monitors[0])
        if visible is None:
            raise CaptureError(f"{self._what} is off the screen")
        return visible

    def grab(self) -> np.ndarray:
        import cv2

        import mss

        r = self.rect()
        try:
            shot = self._mss.grab({"left": r.left, "top": r.top, "width": r.width, "height": r.height})
        except mss.exception.ScreenShotError as exc:   # e.g. the window went away meanwhile
            raise CaptureError(f"cannot capture {self._what}: {exc}") from None
        # BGRA with alpha 0 under X: drop the alpha, never use it.
        return cv2.cvtColor(np.asarray(shot), cv2.COLOR_BGRA2BGR)

    def close(self) -> None:
        self._mss.close()


def region_source(rect: Rect) -> ScreenSource:
    """A fixed screen rectangle."""
    check_session()
    return ScreenSource(lambda _: rect, f"region {rect.to_text()}")


def monitor_source(index: int) -> ScreenSource:
    """Monitor ``index`` as mss numbers them: 1, 2, … each monitor, 0 all of them."""
    check_session()

    def locate(monitors: list[Rect]) -> Rect:
        if not 0 <= index < len(monitors):
            raise CaptureError(f"no monitor {index}: monitors are 1…{len(monitors) - 1}, "
                               "and 0 for all of them")
        return monitors[index]

    source = ScreenSource(locate, f"monitor {index}")
    try:
        source.rect()
    except CaptureError:
        source.close()
        raise
    return source


class WindowSource(ScreenSource):
    """A window found by title; its rectangle is looked up again on every ``rect()``.

    It is also the driver's guard (``overlay.driver.WindowGuard``): ``focus``,
    ``has_focus`` and ``under_pointer`` ask about this very window, so input is sent only
    while it is the one that gets it."""

    def __init__(self, finder: WindowFinder, info: WindowInfo) -> None:
        self.title, _, self.window_id = info
        self._finder = finder
        super().__init__(lambda _: finder.rect(self.window_id), f"window {self.title!r}")

    def current_title(self) -> str:
        return self._finder.title(self.window_id)

    def program(self) -> str:
        return self._finder.program(self.window_id)

    def dialogs(self) -> list[WindowInfo]:
        return self._finder.dialogs(self.window_id)

    def focus(self) -> None:
        self._finder.focus(self.window_id)

    def has_focus(self) -> bool:
        return self._finder.has_focus(self.window_id)

    def under_pointer(self) -> bool:
        return self._finder.under_pointer(self.window_id)

    def close(self) -> None:
        super().close()
        self._finder.close()


def describe_window(info: WindowInfo) -> str:
    """One window for a listing: id, title and where it is."""
    title, rect, wid = info
    return f"0x{wid:x} {title!r} ({rect.width}x{rect.height} at {rect.left},{rect.top})"


def choose_window(title: str, found: list[WindowInfo]) -> WindowInfo:
    """The one window ``title`` names: the only one whose title contains it, or the only
    one whose title is exactly it; several are refused with a listing (a screenshot of
    the game in an image viewer must never be mistaken for the game)."""
    if len(found) == 1:
        return found[0]
    exact = [w for w in found if w[0] == title]
    if len(exact) == 1:
        return exact[0]
    listing = "; ".join(describe_window(w) for w in found[:8])
    raise CaptureError(f"{len(found)} windows are titled like {title!r}: {listing}; "
                       "choose one with --window-id ID or its full title")


def window_source(title: str | None = None, window_id: int | None = None) -> WindowSource:
    """The window whose title contains ``title`` (exactly one, see :func:`choose_window`),
    or the window ``window_id``."""
    finder = _finder()
    try:
        found = finder.find(title or "")
        if window_id is not None:
            found = [w for w in found if w[2] == window_id]
            if not found:
                raise CaptureError(f"no window 0x{window_id:x} is shown (list them with xwininfo -root -tree, "
                                   "or give --window TITLE)")
            chosen = found[0]
        elif not found:
            others = sorted({t for t, _, _ in finder.find("") if t})
            listing = "; ".join(repr(t) for t in others[:12]) or "none"
            raise CaptureError(f"no window titled like {title!r} (windows: {listing})")
        else:
            chosen = choose_window(title or "", found)
        return WindowSource(finder, chosen)
    except CaptureError:
        finder.close()
        raise


def open_source(*, window: str | None = None, window_id: int | None = None, region: Rect | None = None,
                monitor: int = 1) -> Source:
    """The capture source these name: the window (by title or id) when one is given, else
    the region when given, else the monitor."""
    if window is not None or window_id is not None:
        return window_source(window, window_id)
    if region is not None:
        return region_source(region)
    return monitor_source(monitor)
