"""Values and errors every game's vision shares."""
from __future__ import annotations

from dataclasses import dataclass, field, replace
from pathlib import Path
from typing import Any

import numpy as np


class NoBoardFound(Exception):
    """The image does not show a board of the game, or not clearly enough to trust."""


class ImageError(Exception):
    """An image file that is missing or cannot be decoded."""


@dataclass
class Parse:
    """A board read from an image, with the geometry the overlay and driver need.

    ``cells`` holds the image position (x, y) of the centre of every board place,
    row-major, holes included, so a solution's coordinates map straight to pixels.
    ``geometry`` is game-specific (pitch, origin, radius, ...), JSON-able.
    """

    game: str
    board: Any
    confidence: float
    cells: list[tuple[float, float]]
    geometry: dict[str, Any] = field(default_factory=dict)

    def shifted(self, dx: float, dy: float) -> "Parse":
        """The same parse with every position moved by (dx, dy): image → screen."""
        return replace(self, cells=[(x + dx, y + dy) for x, y in self.cells],
                       geometry={**self.geometry, "offset": [dx, dy]})


def load_image(path: str | Path) -> np.ndarray:
    """Read an image file as a BGR uint8 array; :class:`ImageError` when that fails."""
    import cv2

    p = Path(path)
    if not p.is_file():
        raise ImageError(f"no such image file: {p}")
    data = np.fromfile(str(p), dtype=np.uint8)
    image = cv2.imdecode(data, cv2.IMREAD_COLOR) if data.size else None
    if image is None:
        raise ImageError(f"not an image (cannot decode): {p}")
    return image
