"""Where hints are drawn, as the live loop sees it, and the platform part of the overlay.

:class:`HintSurface` is what the live loop calls on its hints (``overlay.window``'s
``HintOverlay`` and ``HintWindow``, or a test's fake). The one thing an overlay does
differently per platform is being see-through and click-through: :class:`SeeThrough`,
made by :func:`see_through` for the desktop ``vision.platform`` names, with each platform's
code in its own module, imported only there (``overlay.surface_x11``: the X SHAPE
extension; ``overlay.surface_tk``: Tk's transparent colour on Windows and macOS).
"""
from __future__ import annotations

from typing import TYPE_CHECKING, ContextManager, Protocol

import numpy as np

from overlay.draw import Shape
from vision.capture import Rect
from vision.platform import detect

if TYPE_CHECKING:
    import tkinter


class OverlayError(Exception):
    """Hints cannot be shown here: no window can open, the desktop has no see-through
    overlay, or the screen has no room for the hint window."""


class HintSurface(Protocol):
    """Hints on the screen, driven by the live loop: ``show`` on a new reading, ``pump``
    every frame, ``hidden()`` around each capture so the hints never end up in it."""

    def show(self, shapes: list[Shape], area: Rect, frame: np.ndarray | None = None) -> None:
        """Draw ``shapes`` (screen coordinates) for the board captured in ``area``
        (``frame``: that capture)."""
        ...

    def clear(self) -> None:
        """Remove every hint."""
        ...

    def pump(self) -> None:
        """Let the window draw and handle its events."""
        ...

    def drawn(self) -> tuple[Rect, np.ndarray] | None:
        """Where the hints cover the screen: (area, bool mask over it), or None."""
        ...

    def hidden(self) -> ContextManager[None]:
        """The hints off the screen for the duration (a capture)."""
        ...

    def close(self) -> None:
        ...


class SeeThrough(Protocol):
    """A borderless Tk toplevel made to show only what is drawn and to let clicks through."""

    def show_only(self, mask: np.ndarray) -> None:
        """Show the window's pixels only where ``mask`` (H×W bool over the window) is set."""
        ...

    def close(self) -> None:
        ...


def see_through(top: tkinter.Toplevel, canvas: tkinter.Canvas) -> SeeThrough:
    """The see-through part of an overlay for this desktop; OverlayError where it has none."""
    here = detect()
    if here.kind == "x11":
        from overlay.surface_x11 import ShapedWindow

        return ShapedWindow(top)
    if here.kind in ("windows", "macos"):
        from overlay.surface_tk import TransparentWindow

        return TransparentWindow(top, canvas, here.kind)
    raise OverlayError(f"no see-through overlay on this desktop: {here.reason}")
