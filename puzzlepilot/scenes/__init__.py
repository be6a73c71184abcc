"""Screens drawn by the project in each game's look: the fixtures and the practice boards
both come from here, so what the vision is tested on is what the practice board shows.

Each game module gives ``fixture_cases() -> list[FixtureCase]`` (deterministic).
"""
from __future__ import annotations

from dataclasses import dataclass

import numpy as np


@dataclass
class FixtureCase:
    """One fixture: a rendered screenshot and the board it shows (``None``: no board of
    this game is there, and the vision must say so). ``ext`` is "png" or "jpg"."""

    name: str
    image: np.ndarray
    board: str | None
    ext: str = "png"
    jpeg_quality: int = 85
    note: str = ""
