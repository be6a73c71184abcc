"""Which desktop this is, decided in one place for capture, overlay, input and calibration.

Every platform choice in ``vision``, ``overlay`` and ``calibration`` asks :func:`detect`
rather than reading ``sys.platform``, ``DISPLAY`` or Tk itself, so the answer (and the
reason given to a user when nothing on the screen can work) is the same everywhere:

- ``x11``: Linux or a BSD with an X display (``DISPLAY``) and no Wayland session;
- ``windows`` and ``macos``: their own desktops;
- ``wayland``: a Wayland session; capture, window lookup and input would reach only
  XWayland windows, so they are refused, though a window of our own still opens there
  through XWayland when ``DISPLAY`` is set;
- ``none``: no display at all (a server, a CI job without Xvfb).
"""
from __future__ import annotations

import os
import sys
from dataclasses import dataclass
from typing import Literal

Kind = Literal["x11", "windows", "macos", "wayland", "none"]

WAYLAND = ("this is a Wayland session: screen capture, window lookup and input only reach "
           "XWayland windows here, so they are not used; log in to an X11 session "
           "(e.g. 'Ubuntu on Xorg' on the login screen)")
NO_DISPLAY = "no X display: DISPLAY is not set"


@dataclass(frozen=True)
class Desktop:
    """The desktop we run on. ``reason`` says how it was told (for ``wayland`` and ``none``,
    why the screen cannot be captured or driven); ``windows`` whether a window of our own
    (Tk: the picker, a hint window) can open."""

    kind: Kind
    reason: str
    windows: bool

    @property
    def screen(self) -> bool:
        """Whether capture, window lookup and input reach every window on the screen."""
        return self.kind in ("x11", "windows", "macos")


def detect() -> Desktop:
    """This process's desktop, from ``sys.platform``, ``XDG_SESSION_TYPE`` and ``DISPLAY``
    (read on every call: tests and a private Xvfb change them)."""
    if sys.platform in ("win32", "cygwin"):
        return Desktop("windows", f"sys.platform is {sys.platform}", True)
    if sys.platform == "darwin":
        return Desktop("macos", "sys.platform is darwin", True)
    display = bool(os.environ.get("DISPLAY"))
    if os.environ.get("XDG_SESSION_TYPE", "").lower() == "wayland":
        return Desktop("wayland", WAYLAND, display)
    if not display:
        return Desktop("none", NO_DISPLAY, False)
    return Desktop("x11", f"DISPLAY is {os.environ['DISPLAY']}", True)
