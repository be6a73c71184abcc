"""Helpers the games' learners share."""
from __future__ import annotations

from typing import Callable, Iterable

import numpy as np

from calibration.profile import ProfileError
from vision.common import NoBoardFound, Parse


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


def first_reading(candidates: Iterable[np.ndarray], read: Callable[[np.ndarray], Parse], want: str,
                  failure: str) -> Parse:
    """The first reading, over candidate colours (each tried as the profile's key colour by
    ``read``), that gives the wanted board text; ProfileError with ``failure`` and the boards
    read instead when none does."""
    seen = []
    for colour in candidates:
        try:
            found = read(colour)
        except NoBoardFound:
            continue
        if found.board.to_text() == want:
            return found
        seen.append(found.board.to_text().replace("\n", "/"))
    hint = f" (boards read: {', '.join(seen[:3])})" if seen else ""
    raise ProfileError(f"{failure}{hint}")
