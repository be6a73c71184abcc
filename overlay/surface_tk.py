"""The overlay's see-through part on Windows and macOS: Tk's own transparency.

Windows makes one colour of a window transparent (``-transparentcolor``, a colour hints
never use); macOS has transparent windows (``-transparent``, the canvas painted
``systemTransparent``). Both untested here; there, the strokes themselves catch clicks.
"""
from __future__ import annotations

from typing import TYPE_CHECKING

import numpy as np

if TYPE_CHECKING:
    import tkinter

KEY_COLOR = "#010203"     # Windows: the colour made transparent (never used by hints)


class TransparentWindow:
    """A Tk toplevel whose canvas background is transparent (``kind``: windows or macos)."""

    def __init__(self, top: tkinter.Toplevel, canvas: tkinter.Canvas, kind: str) -> None:
        if kind == "windows":
            canvas.configure(bg=KEY_COLOR)
            top.attributes("-transparentcolor", KEY_COLOR)
        else:
            canvas.configure(bg="systemTransparent")
            top.attributes("-transparent", True)

    def show_only(self, mask: np.ndarray) -> None:
        """Nothing to do: the background is transparent wherever nothing is drawn."""

    def close(self) -> None:
        """Nothing to release."""
