"""The colour histogram the readers and calibrations share: fullest bins first, equally full
ones lower bin first, thin bins left out, each bin standing for its own pixels' colour."""
from __future__ import annotations

import numpy as np

from vision.colours import ColourHistogram, common_colours, thinned


def stripes(*runs: tuple[tuple[int, int, int], int]) -> np.ndarray:
    """A one-row picture: each colour (BGR) for as many pixels as given, in order."""
    return np.array([[colour for colour, n in runs for _ in range(n)]], np.uint8)


def test_the_fullest_bins_come_first_and_equally_full_ones_lower_bin_first() -> None:
    image = stripes(((200, 10, 10), 5), ((10, 10, 200), 9), ((10, 200, 10), 5), ((90, 90, 90), 1))
    histogram = ColourHistogram.of(image, bits=3)
    red, green, blue = (0 << 6) | (0 << 3) | 6, (0 << 6) | (6 << 3) | 0, (6 << 6) | (0 << 3) | 0
    assert histogram.commonest(3).tolist() == [red, green, blue]
    assert histogram.commonest(2).tolist() == [red, green]
    assert histogram.counts.sum() == 20 and len(histogram.counts) == 512


def test_bins_under_the_share_are_left_out() -> None:
    image = stripes(((0, 0, 0), 96), ((255, 255, 255), 3), ((128, 0, 0), 1))
    assert len(ColourHistogram.of(image, bits=5).commonest(8, min_share=0.02)) == 2
    assert len(ColourHistogram.of(image, bits=5).commonest(8, min_share=0.0)) == 3


def test_a_bin_stands_for_its_own_pixels_median_or_mean_not_its_centre() -> None:
    image = stripes(((1, 2, 3), 2), ((5, 6, 7), 1), ((200, 200, 200), 1))
    histogram = ColourHistogram.of(image, bits=4)      # 16 levels a bin: the first three pixels share one
    (first, _) = histogram.commonest(2)
    assert histogram.median(first).tolist() == [1.0, 2.0, 3.0]
    assert np.allclose(histogram.means()[first], [7 / 3, 10 / 3, 13 / 3])
    assert [c.tolist() for c in common_colours(image, bits=4, most=2)] == [[1.0, 2.0, 3.0], [200.0, 200.0, 200.0]]


def test_a_picture_is_thinned_to_about_the_pixels_asked_and_a_small_one_kept_whole() -> None:
    image = np.zeros((1000, 2000, 3), np.uint8)
    assert thinned(image, 20_000).shape[:2] == (100, 200)
    assert thinned(image[:10, :10], 20_000).shape[:2] == (10, 10)
