"""vision.components gives exactly OpenCV's labels and statistics, on masks like the
Klotski reader's (blocks with thin gaps, specks, noise) of every kind it is given."""
from __future__ import annotations

import cv2
import numpy as np
import pytest

from vision.components import SMALL, components, largest


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


@pytest.mark.parametrize("shape", [(1, 1), (1, 50), (50, 1), (2, 2), (3, 7), (7, 9)])
def test_the_runs_path_on_thin_and_tiny_masks(shape: tuple[int, int], monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr("vision.components.SMALL", 0)      # every mask through the runs
    rng = np.random.default_rng(shape[0] * 100 + shape[1])
    for share in (0.0, 0.3, 0.7, 1.0):
        mask = np.where(rng.random(shape) < share, 255, 0).astype(np.uint8)
        for connectivity in (4, 8):
            want_n, want_labels, want_stats, _ = cv2.connectedComponentsWithStats(mask, connectivity=connectivity)
            n, labels, stats = components(mask, connectivity)
            assert (n, labels.tolist(), stats.tolist()) == (want_n, want_labels.tolist(), want_stats[1:].tolist())


@pytest.mark.parametrize("seed", range(3))
def test_largest_is_the_component_labelling_picks(seed: int, monkeypatch: pytest.MonkeyPatch) -> None:
    """``largest`` (flood fills while they decide, else the labels) gives the pixels and
    statistics of the first largest component by ``components``, on the same masks and
    their cuts (views into a larger mask)."""
    labelled = []
    monkeypatch.setattr("vision.components.components",
                        lambda mask, connectivity=4: labelled.append(1) or components(mask, connectivity))
    stripes = np.zeros((120, 100), np.uint8)        # no component holds half of the pixels
    stripes[:, :40], stripes[:, 41:75], stripes[:, 77:] = 255, 255, 255
    by_fills = no_majority = 0
    for mask in masks(seed) + [stripes, stripes.T.copy()]:
        for given in (mask, mask[1:, 2:] if mask.shape[0] > 1 else mask, mask[:, ::-1]):
            n, labels, stats = components(given)
            before = len(labelled)
            found = largest(given)
            if n < 2:
                assert found is None
                continue
            j = int(np.argmax(stats[:, cv2.CC_STAT_AREA]))
            x, y, w, h, area = stats[j].tolist()
            part, box = found
            assert box == (x, y, w, h, area)
            assert np.array_equal(part, labels[y:y + h, x:x + w] == j + 1)
            if len(labelled) == before:
                by_fills += 1
                no_majority += 2 * area <= cv2.countNonZero(given)
    assert by_fills >= 10 and no_majority >= 1     # the fills themselves are checked, not only the labels
