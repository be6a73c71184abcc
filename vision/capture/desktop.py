"""Window lookup on Windows and macOS through pywinctl or pygetwindow.

Untested here (the project's machines are Linux): written from those libraries'
documented attributes (``title``, ``left``, ``top``, ``width``, ``height``).
"""
from __future__ import annotations

from typing import Any

from vision.capture import CaptureError, Rect, WindowInfo


class DesktopFinder:
    """Window lookup by title on desktops where pywinctl or pygetwindow work."""

    def __init__(self) -> None:
        try:
            import pywinctl as windows
        except ImportError:
            try:
                import pygetwindow as windows
            except ImportError:
                raise CaptureError("window lookup needs pywinctl or pygetwindow: "
                                   "pip install pywinctl (or use --region)") from None
        self._windows: Any = windows
        self._seen: dict[int, Any] = {}

    def find(self, title: str) -> list[WindowInfo]:
        wanted = title.lower()
        found: list[WindowInfo] = []
        try:
            windows = self._windows.getAllWindows()
        except NotImplementedError:   # pygetwindow on macOS
            raise CaptureError("window lookup here needs pywinctl: pip install pywinctl "
                               "(or use --region)") from None
        for window in windows:
            name = str(window.title or "")
            if wanted in name.lower() and window.width > 1 and window.height > 1:
                wid = id(window)
                self._seen[wid] = window
                found.append((name, Rect(int(window.left), int(window.top),
                                         int(window.width), int(window.height)), wid))
        return found

    def rect(self, wid: int) -> Rect:
        window = self._seen.get(wid)
        try:
            return Rect(int(window.left), int(window.top), int(window.width), int(window.height))
        except Exception:  # each library raises its own type for a closed window
            raise CaptureError("the window was closed") from None

    def title(self, wid: int) -> str:
        try:
            return str(self._seen[wid].title or "")
        except Exception:  # each library raises its own type for a closed window
            raise CaptureError("the window was closed") from None

    def program(self, wid: int) -> str:
        """Unknown here: these libraries do not tell a window's program."""
        return ""

    def dialogs(self, wid: int) -> list[WindowInfo]:
        """Unknown here: these libraries do not tell which windows belong to which."""
        return []

    def focus(self, wid: int) -> None:
        try:
            self._seen[wid].activate()
        except Exception:  # each library raises its own type for a closed window
            raise CaptureError("the window was closed") from None

    def has_focus(self, wid: int) -> bool:
        try:
            return bool(self._seen[wid].isActive)
        except Exception:
            return False

    def under_pointer(self, wid: int) -> bool:
        """Only whether the window still exists: these libraries do not tell which window
        is under a point (untested platforms; X11 checks the window stack)."""
        try:
            self.rect(wid)
        except CaptureError:
            return False
        return True

    def close(self) -> None:
        self._seen.clear()
