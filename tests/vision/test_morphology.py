"""vision.morphology gives exactly OpenCV's opening and closing by its elliptic kernel, on
masks like the readers' (blobs, thin lines, noise, masks narrower than the kernel, every
value a mask may hold), at every kernel size the readers use and beyond."""
from __future__ import annotations

import cv2
import numpy as np
import pytest

from vision.morphology import SMALL, _rectangles, round_morph


def masks(seed: int) -> list[np.ndarray]:
    rng = np.random.default_rng(seed)
    found = []
    for h, w in ((1, 1), (5, 300), (40, 30), (300, 420)):
        blobs = (cv2.GaussianBlur(rng.random((h, w)).astype(np.float32), (0, 0), 4) > 0.5).astype(np.uint8)
        lines = np.zeros((h, w), np.uint8)
        for _ in range(12):
            cv2.line(lines, tuple(int(v) for v in rng.integers(0, (w, h))), tuple(int(v) for v in rng.integers(0, (w, h))),
                     255, int(rng.integers(1, 9)))
        noise = (rng.random((h, w)) < rng.uniform(0.2, 0.95)).astype(np.uint8)
        found += [blobs, blobs * 255, lines, noise, np.ones((h, w), np.uint8), np.zeros((h, w), np.uint8)]
    return found


@pytest.mark.parametrize("seed", range(2))
@pytest.mark.parametrize("op", (cv2.MORPH_OPEN, cv2.MORPH_CLOSE))
def test_the_same_as_opencv(seed: int, op: int) -> None:
    for size in (3, SMALL, 21, 35, 57, 97, 185):
        kernel = cv2.getStructuringElement(cv2.MORPH_ELLIPSE, (size, size))
        for mask in masks(seed + size):
            if size > 60 and mask.size > 20_000:
                continue        # OpenCV's own call takes long there; the small masks still hold every case
            assert np.array_equal(round_morph(mask, op, size), cv2.morphologyEx(mask, op, kernel)), (size, mask.shape)


def test_the_rectangles_make_the_ellipse() -> None:
    for size in range(SMALL, 301, 2):
        union = np.zeros((size, size), np.uint8)
        for box in _rectangles(size):
            h, w = box.shape
            y, x = (size - h) // 2, (size - w) // 2
            union[y:y + h, x:x + w] = 1
        assert np.array_equal(union, cv2.getStructuringElement(cv2.MORPH_ELLIPSE, (size, size))), size
