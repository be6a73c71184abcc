"""The toy game's hints (a dot on each lamp to press) and driver plan (a click on each)."""
from __future__ import annotations

from typing import Any

from overlay.actions import Action, Click
from overlay.draw import Marker, Shape
from vision.common import Parse


def plan(parse: Parse, solution: Any) -> list[Action]:
    return [Click(parse.cells[i]) for i in solution]


def hints(parse: Parse, solution: Any) -> list[Shape]:
    return [Marker(parse.cells[i], 8.0, (236, 64, 122), str(k)) for k, i in enumerate(solution, start=1)]
