"""The overlay's see-through part on X11: the X SHAPE extension through ctypes.

Without a compositor an X window cannot be translucent, but its *shape* can be cut: the
bounding region (what is drawn) is set to the hint strokes only, from a 1-bit mask, and the
input region is set empty so every click goes to the window below. python-xlib's shape
module cannot set the input region, hence libXext here. This uses its own connection to
the X server; window ids are global, so it can shape Tk's windows.
"""
from __future__ import annotations

import ctypes
import ctypes.util
from typing import TYPE_CHECKING

import numpy as np

from overlay.surface import OverlayError

if TYPE_CHECKING:
    import tkinter

SHAPE_BOUNDING, SHAPE_INPUT = 0, 2
SHAPE_SET = 0
UNSORTED = 0


def _library(name: str, fallback: str) -> ctypes.CDLL:
    try:
        return ctypes.CDLL(ctypes.util.find_library(name) or fallback)
    except OSError:
        raise OverlayError(f"cannot load {fallback}: the overlay needs the X11 libraries") from None


class XShape:
    """Cuts windows to a mask and makes them ignore input."""

    def __init__(self) -> None:
        c = ctypes
        self._x11 = x11 = _library("X11", "libX11.so.6")
        self._xext = xext = _library("Xext", "libXext.so.6")
        x11.XOpenDisplay.restype = c.c_void_p
        x11.XOpenDisplay.argtypes = [c.c_char_p]
        x11.XCloseDisplay.argtypes = [c.c_void_p]
        x11.XSync.argtypes = [c.c_void_p, c.c_int]
        x11.XCreateBitmapFromData.restype = c.c_ulong
        x11.XCreateBitmapFromData.argtypes = [c.c_void_p, c.c_ulong, c.c_void_p, c.c_uint, c.c_uint]
        x11.XFreePixmap.argtypes = [c.c_void_p, c.c_ulong]
        x11.XFree.argtypes = [c.c_void_p]
        x11.XQueryTree.argtypes = [c.c_void_p, c.c_ulong, c.POINTER(c.c_ulong), c.POINTER(c.c_ulong),
                                   c.POINTER(c.c_void_p), c.POINTER(c.c_uint)]
        xext.XShapeQueryExtension.restype = c.c_int
        xext.XShapeQueryExtension.argtypes = [c.c_void_p, c.POINTER(c.c_int), c.POINTER(c.c_int)]
        xext.XShapeCombineMask.argtypes = [c.c_void_p, c.c_ulong, c.c_int, c.c_int, c.c_int,
                                           c.c_ulong, c.c_int]
        xext.XShapeCombineRectangles.argtypes = [c.c_void_p, c.c_ulong, c.c_int, c.c_int, c.c_int,
                                                 c.c_void_p, c.c_int, c.c_int, c.c_int]
        self._dpy = x11.XOpenDisplay(None)
        if not self._dpy:
            raise OverlayError("cannot open the X display for the overlay")
        event, error = c.c_int(), c.c_int()
        if not xext.XShapeQueryExtension(self._dpy, c.byref(event), c.byref(error)):
            self.close()
            raise OverlayError("the X server has no SHAPE extension: use --hints window")

    def toplevel(self, window: int) -> int:
        """The ancestor of ``window`` that sits on the root window. For a Tk toplevel's
        ``winfo_id()`` that is Tk's wrapper, the window really mapped (``wm frame`` names it
        only under a window manager)."""
        c = ctypes
        while True:
            root, parent, children, count = c.c_ulong(), c.c_ulong(), c.c_void_p(), c.c_uint()
            if not self._x11.XQueryTree(self._dpy, window, c.byref(root), c.byref(parent),
                                        c.byref(children), c.byref(count)):
                raise OverlayError(f"cannot query window 0x{window:x}")
            if children:
                self._x11.XFree(children)
            if parent.value in (root.value, 0):
                return window
            window = parent.value

    def cut(self, window: int, mask: np.ndarray) -> None:
        """Show only the window's pixels where ``mask`` (H×W, bool) is set; no input at all.
        Only the mask's bounding box is sent, placed at its offset (the region outside a
        bitmap set as the shape is out of it): the server turns a bitmap into a region
        row by row, and hints cover a small part of a big screen."""
        rows, cols = np.flatnonzero(mask.any(axis=1)), np.flatnonzero(mask.any(axis=0))
        if len(rows):
            top, left = int(rows[0]), int(cols[0])
            box = mask[top:rows[-1] + 1, left:cols[-1] + 1]
            # XBitmap layout: rows padded to whole bytes, least significant bit first.
            bits = np.ascontiguousarray(np.packbits(box, axis=1, bitorder="little"))
            pixmap = self._x11.XCreateBitmapFromData(self._dpy, window, bits.ctypes.data, box.shape[1], box.shape[0])
            self._xext.XShapeCombineMask(self._dpy, window, SHAPE_BOUNDING, left, top, pixmap, SHAPE_SET)
            self._x11.XFreePixmap(self._dpy, pixmap)
        else:
            self._xext.XShapeCombineRectangles(self._dpy, window, SHAPE_BOUNDING, 0, 0, None, 0,
                                               SHAPE_SET, UNSORTED)
        self._xext.XShapeCombineRectangles(self._dpy, window, SHAPE_INPUT, 0, 0, None, 0,
                                           SHAPE_SET, UNSORTED)
        self._x11.XSync(self._dpy, 0)

    def close(self) -> None:
        if self._dpy:
            self._x11.XCloseDisplay(self._dpy)
            self._dpy = None


class ShapedWindow:
    """A Tk toplevel cut by :class:`XShape` (see-through and click-through everywhere)."""

    def __init__(self, top: tkinter.Toplevel) -> None:
        self._shape = XShape()
        try:
            # Idle tasks make Tk's wrapper window; the round trip on Tk's connection makes sure
            # the server knows it before our connection names it (unknown ids are fatal).
            top.update_idletasks()
            top.winfo_pointerxy()
            self._wrapper = self._shape.toplevel(top.winfo_id())
        except OverlayError:
            self._shape.close()
            raise

    def show_only(self, mask: np.ndarray) -> None:
        self._shape.cut(self._wrapper, mask)

    def close(self) -> None:
        self._shape.close()
