"""A picture's commonest colours, from a coarse colour histogram.

Several readers and calibrations start from the colours a picture shows most (LYNE's
faint diamonds beside its background, a Klotski board, a one-stroke cell, LYNE's and
one-stroke's calibration candidates): each pixel of a thinned-out picture falls in the
bin of the top ``bits`` bits of its three channels, and the fullest bins stand for those
colours, each as its pixels' median (or mean) colour rather than the bin's centre, which
may lie up to half a bin away from any colour on screen. Equally full bins come lower bin
first, so the order does not hang on a sort's implementation.

``colour_mask``: where a picture has one colour, loosely (a Klotski board's, seen in the
gaps between its pieces; the readers by colour and by edges both match it).
"""
from __future__ import annotations

from dataclasses import dataclass

import cv2
import numpy as np

# A pixel has a (board's) colour when its brightness is near the colour's and its colour
# roughly so: JPEG keeps brightness sharp but smears colour over 2×2 blocks, which would
# close the thin gaps between Klotski pieces if colour had to match closely.
BRIGHTNESS_TOLERANCE = 30
COLOUR_TOLERANCE = 70          # per channel


def thinned(image: np.ndarray, pixels: int) -> np.ndarray:
    """Every n-th pixel of every n-th row, n chosen to leave about ``pixels`` of them
    (all of a smaller picture): enough to count the commonest colours, at a fraction of
    the cost."""
    step = max(1, round((image.shape[0] * image.shape[1] / pixels) ** 0.5))
    return image[::step, ::step]


@dataclass(frozen=True)
class ColourHistogram:
    """The pixels of a picture (``(n, 3)``), the bin of each, and how many fall in each bin."""

    pixels: np.ndarray
    bins: np.ndarray
    counts: np.ndarray

    @classmethod
    def of(cls, image: np.ndarray, bits: int) -> ColourHistogram:
        """The histogram of an 8-bit picture (any shape ending in its 3 channels) over
        bins of the top ``bits`` bits of each channel: ``2 ** (3 * bits)`` bins."""
        pixels = image.reshape(-1, 3)
        q = (pixels >> (8 - bits)).astype(np.int32)
        bins = (q[:, 0] << (2 * bits)) | (q[:, 1] << bits) | q[:, 2]
        return cls(pixels, bins, np.bincount(bins, minlength=1 << (3 * bits)))

    def commonest(self, most: int, min_share: float = 0.0) -> np.ndarray:
        """The ``most`` fullest bins, fullest first (of equally full ones, the lower bin
        first), leaving out those holding under ``min_share`` of the pixels."""
        filled = np.flatnonzero(self.counts)
        order = filled[np.argsort(-self.counts[filled], kind="stable")][:most]
        return order[self.counts[order] >= min_share * len(self.bins)]

    def median(self, b: int) -> np.ndarray:
        """The median colour of bin ``b``'s pixels (float, per channel)."""
        return np.median(self.pixels[self.bins == b], axis=0)

    def means(self) -> np.ndarray:
        """The mean colour of every bin's pixels, ``(bins, 3)`` (NaN for an empty bin)."""
        with np.errstate(invalid="ignore"):
            return np.stack([np.bincount(self.bins, weights=self.pixels[:, k], minlength=len(self.counts))
                             for k in range(3)], axis=1) / self.counts[:, None]


def common_colours(image: np.ndarray, bits: int, most: int, min_share: float = 0.0) -> list[np.ndarray]:
    """The picture's ``most`` commonest colours, commonest first: the median colour (float)
    of each of the fullest bins of its histogram, none holding under ``min_share`` of it."""
    histogram = ColourHistogram.of(image, bits)
    return [histogram.median(b) for b in histogram.commonest(most, min_share)]


def colour_bounds(colour: np.ndarray) -> tuple[np.ndarray, np.ndarray, float, float]:
    """The ranges a pixel of the colour keeps (BRIGHTNESS_TOLERANCE, COLOUR_TOLERANCE): lowest and highest
    value per channel, and the darkest and lightest grey level."""
    lo = np.clip(colour - COLOUR_TOLERANCE, 0, 255).astype(np.uint8)
    hi = np.clip(colour + COLOUR_TOLERANCE, 0, 255).astype(np.uint8)
    level = float(cv2.cvtColor(colour.reshape(1, 1, 3).astype(np.uint8), cv2.COLOR_BGR2GRAY)[0, 0])
    return lo, hi, max(0.0, level - BRIGHTNESS_TOLERANCE), min(255.0, level + BRIGHTNESS_TOLERANCE)


def colour_mask(image: np.ndarray, colour: np.ndarray, grey: np.ndarray | None = None) -> np.ndarray:
    """255 where a pixel has the colour (BRIGHTNESS_TOLERANCE, COLOUR_TOLERANCE), else 0. ``grey``: the
    picture's grey levels, when already made."""
    lo, hi, dark, light = colour_bounds(colour)
    grey = cv2.cvtColor(image, cv2.COLOR_BGR2GRAY) if grey is None else grey
    return cv2.bitwise_and(cv2.inRange(image, lo, hi), cv2.inRange(grey, dark, light))
