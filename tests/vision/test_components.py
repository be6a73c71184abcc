"""vision.components gives exactly OpenCV's labels and statistics, on masks like the
Klotski reader's (blocks with thin gaps, specks, noise) of every kind it is given."""
from __future__ import annotations

import cv2
import numpy as np
import pytest

from vision.components import SMALL, components


def masks(seed: int) -> list[np.ndarray]:
    rng = np.random.default_rng(seed)
    found = []
    for h, w in ((1, 1), (3, 900), (90, 70), (700, 500), (1001, 333)):
        board = np.full((h, w), 255, np.uint8)       # a board seen through gaps between blocks
        for _ in range(rng.integers(0, 40)):
            y, x = rng.integers(0, h), rng.integers(0, w)
            board[y:y + rng.integers(1, 200), x:x + rng.integers(1, 200)] = 0
        noise = np.where(rng.random((h, w)) < rng.uniform(0.05, 0.95), 255, 0).astype(np.uint8)
        found += [board, ~board, noise, np.zeros((h, w), np.uint8), np.full((h, w), 255, np.uint8)]
    return found


@pytest.mark.parametrize("seed", range(3))
@pytest.mark.parametrize("connectivity", (4, 8))
def test_the_same_labels_and_statistics_as_opencv(seed: int, connectivity: int) -> None:
    big = 0
    for mask in masks(seed):
        for given in (mask, mask > 0, (mask > 0).astype(np.uint8), mask[1:, 2:] if mask.shape[0] > 1 else mask):
            want_n, want_labels, want_stats, _ = cv2.connectedComponentsWithStats(
                np.ascontiguousarray(given).view(np.uint8), connectivity=connectivity)
            n, labels, stats = components(given, connectivity)
            assert n == want_n
            assert np.array_equal(labels, want_labels)
            assert np.array_equal(stats, want_stats[1:])
            big += given.size >= SMALL
    assert big >= 20       # the runs path itself is checked, not only OpenCV's call
