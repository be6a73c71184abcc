"""Hints on the screen: a see-through overlay over the game, or a separate window.

:class:`HintOverlay` is a borderless, topmost Tk window covering the game whose only
visible pixels are the hint strokes and which lets every click through; how is the
platform's part (``overlay.surface.see_through``). On X11 the window is cut with the SHAPE
extension (``overlay.surface_x11``) to a mask of the drawn shapes (OpenCV's rendering of
the strokes, Tk's own measure of the text), and its input region is emptied. Windows and
macOS use Tk's transparent colour (``overlay.surface_tk``, untested here; there, strokes
themselves catch clicks).

:class:`HintWindow` (``--hints window``) is an ordinary window showing the annotated
capture, for desktops where an overlay cannot work; it is placed beside the captured area,
never over it (the capture would read it back), and refuses when the screen has no room. Both take shapes in screen
coordinates and are the live loop's ``overlay.surface.HintSurface``, made by
:func:`make_hints`. Failures are OverlayError.
"""
from __future__ import annotations

import time
import tkinter
from contextlib import contextmanager
from dataclasses import replace
from typing import Iterator

import numpy as np

from overlay import tkdraw
from overlay.draw import Label, Marker, Polyline, Shape, bounds, render
from overlay.surface import HintSurface, OverlayError, SeeThrough, see_through
from vision.capture import Rect

WINDOW_MAX = (960, 720)   # HintWindow shrinks bigger captures to fit
ROOM_MARGIN = 40          # px between the captured area and the hint window (a window manager's frame)
MIN_PICTURE = 160         # px: a hint window picture smaller than this (or the capture) is no help
WAITING = "waiting for a board…"


def translated(shapes: list[Shape], dx: float, dy: float) -> list[Shape]:
    """The shapes moved by (dx, dy), e.g. screen → window coordinates."""
    out: list[Shape] = []
    for s in shapes:
        if isinstance(s, Polyline):
            out.append(replace(s, points=tuple((x + dx, y + dy) for x, y in s.points)))
        else:
            out.append(replace(s, point=(s.point[0] + dx, s.point[1] + dy)))
    return out


def beside(area: Rect, screen: Rect) -> Rect | None:
    """Where a window showing a picture of ``area`` goes without covering ``area``: in the
    free strip of ``screen`` (right, left, below or above it) where the picture shows
    largest, shrunk to fit that strip and WINDOW_MAX; None when there it would be smaller
    than MIN_PICTURE (or than the area itself)."""
    right, bottom = area.left + area.width + ROOM_MARGIN, area.top + area.height + ROOM_MARGIN
    strips = [Rect(right, screen.top, screen.left + screen.width - right, screen.height),
              Rect(screen.left, screen.top, area.left - ROOM_MARGIN - screen.left, screen.height),
              Rect(screen.left, bottom, screen.width, screen.top + screen.height - bottom),
              Rect(screen.left, screen.top, screen.width, area.top - ROOM_MARGIN - screen.top)]

    def scale(strip: Rect) -> float:
        return min(1.0, WINDOW_MAX[0] / area.width, WINDOW_MAX[1] / area.height,
                   strip.width / area.width, strip.height / area.height)

    strip = max(strips, key=scale)
    width, height = round(area.width * scale(strip)), round(area.height * scale(strip))
    if width < min(area.width, MIN_PICTURE) or height < min(area.height, MIN_PICTURE):
        return None
    # Level with the area where the strip allows, so the eye finds the picture beside the game.
    left = min(max(area.left, strip.left), strip.left + strip.width - width)
    top = min(max(area.top, strip.top), strip.top + strip.height - height)
    return Rect(left, top, width, height)


class _TkHints:
    """A toplevel on the given Tk root, or on a hidden root of our own."""

    def __init__(self, root: tkinter.Tk | None) -> None:
        self._owns_root = root is None
        if root is None:
            try:
                root = tkinter.Tk()
            except tkinter.TclError as exc:
                raise OverlayError(f"cannot open a window: {exc}") from None
            root.withdraw()
        self._root = root
        self._top = tkinter.Toplevel(root)
        self._destroyed = False

    def pump(self) -> None:
        """Let Tk draw and handle its events; call it every frame."""
        self._root.update()

    def close(self) -> None:
        """Destroy the window (and our own root); closing twice is harmless."""
        if self._destroyed:
            return
        self._destroyed = True
        self._top.destroy()
        if self._owns_root:
            self._root.destroy()


class HintOverlay(_TkHints):
    """A borderless, topmost, click-through, see-through window drawing hints over the game."""

    settle = 0.01   # seconds other programs get to repaint what hidden() uncovered

    def __init__(self, root: tkinter.Tk | None = None) -> None:
        super().__init__(root)
        self._top.withdraw()
        self._top.overrideredirect(True)
        self._top.title("puzzlepilot overlay")   # how window listings name it
        self._canvas = tkinter.Canvas(self._top, highlightthickness=0, borderwidth=0, bg="black")
        self._canvas.pack(fill="both", expand=True)
        self._shown = False
        self._drawn: tuple[Rect, np.ndarray] | None = None
        try:
            self._surface: SeeThrough = see_through(self._top, self._canvas)
        except OverlayError:
            super().close()
            raise
        try:
            self._top.attributes("-topmost", True)
        except tkinter.TclError:
            pass  # some X setups refuse; override-redirect keeps it on top anyway

    def show(self, shapes: list[Shape], area: Rect, frame: np.ndarray | None = None) -> None:
        """Draw ``shapes`` (screen coordinates) over ``area``; nothing else of the window shows.
        ``frame`` is ignored (the game itself is the picture), as HintWindow needs it."""
        local = translated(shapes, -area.left, -area.top)
        self._top.geometry(f"{area.width}x{area.height}+{area.left}+{area.top}")
        self._canvas.configure(width=area.width, height=area.height)
        self._canvas.delete("hint")
        tkdraw.draw(self._canvas, local)
        mask = self._mask(local, area)
        self._drawn = (area, mask)
        self._surface.show_only(mask)
        if not self._shown:
            self._top.deiconify()
            self._shown = True
        self._top.lift()
        self._top.update_idletasks()

    def _mask(self, shapes: list[Shape], area: Rect) -> np.ndarray:
        """Where the overlay draws: OpenCV's anti-aliased strokes (a pixel wider than
        Tk's), and the text boxes as Tk measured them. Strokes are rendered only over
        their bounds, which is most of the cost on a big screen."""
        import cv2

        mask = np.zeros((area.height, area.width), bool)
        strokes = [s if not isinstance(s, Marker) else replace(s, label="")
                   for s in shapes if not isinstance(s, Label)]
        x0, y0, x1, y1 = bounds(strokes)
        margin = 4   # a marker's ring, anti-aliasing and the dilation reach past bounds()
        left, top = max(0, int(x0) - margin), max(0, int(y0) - margin)
        right, bottom = min(area.width, int(x1) + margin), min(area.height, int(y1) + margin)
        if strokes and right > left and bottom > top:
            # render() draws in colour; white on black makes every touched pixel non-zero.
            white = [replace(s, color=(255, 255, 255)) for s in translated(strokes, -left, -top)]
            drawn = render(np.zeros((bottom - top, right - left, 3), np.uint8), white)
            mask[top:bottom, left:right] = cv2.dilate(drawn[:, :, 0], np.ones((3, 3), np.uint8)) > 0
        for bx0, by0, bx1, by1 in tkdraw.text_boxes(self._canvas):
            mask[max(0, by0):max(0, by1 + 1), max(0, bx0):max(0, bx1 + 1)] = True
        return mask

    def drawn(self) -> tuple[Rect, np.ndarray] | None:
        """Where the hints cover the screen: (area, H×W bool mask over it), None when
        nothing is shown. A grab taken with the hints up is the game wherever the mask is
        False, so a change check can skip ``hidden()`` (and its flicker) by ignoring them."""
        return self._drawn if self._shown else None

    def clear(self) -> None:
        """Remove every hint (the window stays, invisible)."""
        self._canvas.delete("hint")
        self._drawn = None
        if self._shown:
            self._top.withdraw()
            self._shown = False
        self._top.update_idletasks()

    def pump(self) -> None:
        """Let Tk draw and handle its events, and stay above a game that was raised; call it
        every frame."""
        if self._shown:
            self._top.lift()
        super().pump()

    @contextmanager
    def hidden(self) -> Iterator[None]:
        """Take the hints off the screen while the caller grabs it.

        Unmapping exposes the game under the strokes, and the game must repaint it: windows
        of this Tk are repainted here before the grab; other programs get ``settle``
        seconds (on this kind of machine a Tk game repaints within 5 ms).
        """
        if not self._shown:
            yield
            return
        self._top.withdraw()
        # Round trips on Tk's connection: the first returns once the server has unmapped the
        # overlay (and sent the Expose events), the second once our own repaints are drawn.
        self._top.winfo_pointerxy()
        self._root.update()
        self._top.winfo_pointerxy()
        time.sleep(self.settle)
        try:
            yield
        finally:
            self._top.deiconify()
            # Mapped again but blank until Tk handles the Expose: fetch it and redraw now
            # rather than at the next pump.
            self._top.winfo_pointerxy()
            self._root.update()

    def close(self) -> None:
        if not self._destroyed:
            self._surface.close()
        super().close()


class HintWindow(_TkHints):
    """An ordinary window showing the last capture with the hints drawn on it, placed
    beside the captured area: over it, the capture would read the window back as the game."""

    TITLE = "puzzlepilot hints"

    def __init__(self, root: tkinter.Tk | None = None) -> None:
        super().__init__(root)
        self._top.title(self.TITLE)
        self._top.protocol("WM_DELETE_WINDOW", self._closed_by_user)
        self._label = tkinter.Label(self._top, text=WAITING, bg="black", fg="white")
        self._label.pack(fill="both", expand=True)
        self._photo: tkinter.PhotoImage | None = None
        self._frame: np.ndarray | None = None
        self.closed = False

    def _closed_by_user(self) -> None:
        self.closed = True
        self._top.withdraw()

    def place(self, area: Rect) -> Rect:
        """Move the window beside ``area`` (see :func:`beside`) and return where its picture
        goes; OverlayError when the screen has no room for it there."""
        screen = Rect(0, 0, self._top.winfo_screenwidth(), self._top.winfo_screenheight())
        spot = beside(area, screen)
        if spot is None:
            raise OverlayError(f"no room on the screen beside the captured area {area.to_text()} for "
                               "the hint window (it must not cover what is captured): capture a "
                               "smaller region, or use --hints overlay")
        self._top.geometry(f"+{spot.left}+{spot.top}")
        return spot

    def show(self, shapes: list[Shape], area: Rect, frame: np.ndarray | None = None) -> None:
        """Show ``frame`` (the capture of ``area``; default the last one) with the shapes,
        beside ``area``."""
        import cv2

        if frame is not None:
            self._frame = frame
        if self._frame is None:
            return
        self._top.geometry("")    # the picture's size, even after clear() fixed one
        spot = self.place(area)
        picture = render(self._frame, translated(shapes, -area.left, -area.top))
        if picture.shape[:2] != (spot.height, spot.width):
            picture = cv2.resize(picture, (spot.width, spot.height), interpolation=cv2.INTER_AREA)
        rgb = np.ascontiguousarray(picture[:, :, ::-1])
        header = f"P6 {rgb.shape[1]} {rgb.shape[0]} 255\n".encode()
        self._photo = tkinter.PhotoImage(master=self._top, data=header + rgb.tobytes(), format="ppm")
        self._label.configure(image=self._photo, text="")
        self._top.update_idletasks()

    def clear(self) -> None:
        """Back to waiting: the last capture showed a board that is gone."""
        # Keep the window's size rather than shrinking it to the text.
        self._top.geometry(f"{self._top.winfo_width()}x{self._top.winfo_height()}")
        self._frame = self._photo = None
        self._label.configure(image="", text=WAITING)
        self._top.update_idletasks()

    def drawn(self) -> None:
        """Nothing covers the game (see HintOverlay.drawn)."""
        return None

    @contextmanager
    def hidden(self) -> Iterator[None]:
        """Nothing to hide: this window is beside the game, not over it."""
        yield


def make_hints(kind: str, root: tkinter.Tk | None = None, near: Rect | None = None) -> HintSurface | None:
    """The hint surface for ``--hints overlay|window|none``: the factory of this concern
    (the platform's part is chosen inside, by ``overlay.surface.see_through``). A hint
    window is placed beside ``near`` (the captured area) at once, or refused now."""
    if kind == "overlay":
        return HintOverlay(root)
    if kind == "window":
        window = HintWindow(root)
        if near is not None:
            try:
                window.place(near)
            except OverlayError:
                window.close()
                raise
        return window
    if kind == "none":
        return None
    raise ValueError(f"--hints is overlay, window or none, not {kind!r}")
