"""The toy game's vision: lamps are squares, white (lit) or black (dark), in one row on
a grey (128) picture; anything else is no board."""
from __future__ import annotations

from dataclasses import dataclass, replace

import numpy as np

from tests.cli.toy.rules import Board
from vision.common import NoBoardFound, Parse

GREY = 128


@dataclass(frozen=True)
class ToyGeometry:
    """Where the row of lamps is: the middle line's height."""

    y: float

    def shifted(self, dx: float, dy: float) -> "ToyGeometry":
        return replace(self, y=self.y + dy)


def parse(image: np.ndarray) -> Parse:
    grey = image.mean(axis=2)
    marked = np.abs(grey - GREY) > 60
    if (np.abs(grey - GREY) > 3).mean() > marked.mean() + 0.01:
        raise NoBoardFound("not a grey picture with black and white lamps")
    columns = marked.any(axis=0)
    edges = np.flatnonzero(np.diff(np.r_[0, columns.astype(np.int8), 0]))
    runs = list(zip(edges[::2], edges[1::2]))
    if not runs:
        raise NoBoardFound("no lamps")
    rows = np.flatnonzero(marked.any(axis=1))
    y = (rows[0] + rows[-1] + 1) / 2
    lamps = "".join("1" if grey[int(y), (a + b) // 2] > GREY else "0" for a, b in runs)
    return Parse("toy", Board(lamps), 1.0, [(float(a + b) / 2, float(y)) for a, b in runs], ToyGeometry(float(y)))
