"""Helpers the games' learners share."""
from __future__ import annotations

import numpy as np

from vision.common import Parse


def moved(found: Parse, dx: int, dy: int) -> Parse:
    """A reading of a crop in the whole image's pixels (the crop's top-left at (dx, dy))."""
    geometry = {**found.geometry, "origin": [found.geometry["origin"][0] + dx, found.geometry["origin"][1] + dy]}
    return Parse(found.game, found.board, found.confidence, [(x + dx, y + dy) for x, y in found.cells], geometry)


def rgb(bgr: np.ndarray | list[float]) -> list[int]:
    """A BGR colour as profile.json writes colours: [r, g, b] whole numbers."""
    return [int(round(float(v))) for v in bgr[::-1]]


def square(image: np.ndarray, xy: tuple[float, float], half: int) -> np.ndarray:
    """A copy of the square of side 2·half+1 around a point, clipped to the image."""
    x, y = round(xy[0]), round(xy[1])
    return image[max(0, y - half):y + half + 1, max(0, x - half):x + half + 1].copy()
