"""Fakes of the live loop's screen for tests with no display: a source showing given frames
and hints that record what they were asked to draw (shared by several test modules, so
not in one of them)."""
from __future__ import annotations

from contextlib import contextmanager
from typing import Iterator

import numpy as np

from vision.capture import Rect

VIEW = (405, 720)       # the fake game's size on the screen (a phone's view), width × height


class FakeSource:
    """The game at (100, 50) on the screen; ``frames`` replace each other as levels end."""

    def __init__(self, frames: list[np.ndarray]) -> None:
        self.frames = frames
        self.at = Rect(100, 50, VIEW[0], VIEW[1])

    def rect(self) -> Rect:
        return self.at

    def grab(self) -> np.ndarray:
        return self.frames[0].copy()

    def close(self) -> None:
        pass


class FakeHints:
    """Hints that record what the loop asked them to show or clear (``calls``)."""

    def __init__(self) -> None:
        self.calls: list[tuple] = []

    def show(self, shapes: list, area: Rect, frame: np.ndarray | None = None) -> None:
        self.calls.append(("show", shapes, area))

    def clear(self) -> None:
        self.calls.append(("clear",))

    def pump(self) -> None:
        pass

    def drawn(self) -> None:
        return None

    @contextmanager
    def hidden(self) -> Iterator[None]:
        yield
