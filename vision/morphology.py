"""Opening and closing by OpenCV's elliptic structuring element, the same as OpenCV's but cheaper.

``cv2.morphologyEx`` with a ``cv2.MORPH_ELLIPSE`` kernel visits every point of the kernel
for every pixel (a 21-pixel ellipse has 333, a 185-pixel one 26,773: 4 and 350 ms on an
800×573 mask here), while a rectangular kernel is separable (a pass along rows, then one
along columns). The ellipse is the union of the rectangles under its corners (for each of
its rows' half-widths, the rows at least that wide: a few for a small ellipse, 55 for a
185-pixel one), and an erosion by a union is the least of the erosions by its parts (a
dilation the greatest), so both come from rectangles: 1.6× cheaper at 21 pixels, 2.9× at
185. Outside the picture counts as nothing for either (OpenCV's default border), which the
rectangles' own borders give too. The results are exactly OpenCV's
(``tests/vision/test_morphology.py``); kernels under ``SMALL`` pixels go to OpenCV's own
call, cheaper there.
"""
from __future__ import annotations

import functools

import cv2
import numpy as np

SMALL = 15      # px: below this, cv2.morphologyEx with the ellipse itself is the cheaper


@functools.lru_cache(maxsize=64)
def _rectangles(size: int) -> tuple[np.ndarray, ...]:
    """The rectangles (kernels of ones, centred) whose union is ``cv2.getStructuringElement
    (cv2.MORPH_ELLIPSE, (size, size))`` for an odd ``size``: one a distinct row half-width."""
    kernel = cv2.getStructuringElement(cv2.MORPH_ELLIPSE, (size, size))
    c = size // 2
    halves = []
    for row in kernel:
        ones = np.flatnonzero(row)
        half = c - int(ones[0])
        if int(ones[-1]) != c + half or len(ones) != 2 * half + 1:
            raise ValueError(f"the {size}-pixel ellipse has a row that is not one centred run")
        halves.append(half)
    boxes = []
    for half in sorted(set(halves)):
        reach = max(abs(i - c) for i, h in enumerate(halves) if h >= half)   # rows are widest in the middle
        boxes.append(np.ones((2 * reach + 1, 2 * half + 1), np.uint8))
    return tuple(boxes)


def _by_rectangles(mask: np.ndarray, size: int, erode: bool) -> np.ndarray:
    morph, combine = (cv2.erode, cv2.min) if erode else (cv2.dilate, cv2.max)
    out = None
    for box in _rectangles(size):
        part = morph(mask, box)
        out = part if out is None else combine(out, part, dst=out)
    assert out is not None
    return out


def round_morph(mask: np.ndarray, op: int, size: int) -> np.ndarray:
    """``cv2.morphologyEx(mask, op, cv2.getStructuringElement(cv2.MORPH_ELLIPSE, (size, size)))``
    for ``op`` ``cv2.MORPH_OPEN`` or ``cv2.MORPH_CLOSE`` and an odd ``size``, with OpenCV's
    default border; ``mask``: one channel of uint8."""
    if size < SMALL or size % 2 == 0 or op not in (cv2.MORPH_OPEN, cv2.MORPH_CLOSE):
        return cv2.morphologyEx(mask, op, cv2.getStructuringElement(cv2.MORPH_ELLIPSE, (size, size)))
    first = op == cv2.MORPH_OPEN        # an opening erodes first, a closing dilates first
    return _by_rectangles(_by_rectangles(mask, size, first), size, not first)
