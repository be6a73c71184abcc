"""The Klotski colour reader's Screen matches every colour at once exactly as one
colour_mask per colour would, at full size and over the screening blocks."""
from __future__ import annotations

import cv2
import numpy as np
import pytest

from puzzlepilot.scenes.klotski import STYLES, desktop, render
from solvers.klotski import layout
from vision.colours import colour_mask
from vision.klotski import main_colours, screen


def pictures() -> list[np.ndarray]:
    found = [desktop(1280, 800, 4), cv2.resize(desktop(1920, 1080, 2), (1001, 563))]    # odd sizes: cut blocks
    for style, cell in zip(STYLES, (40, 90, 150)):
        image, _ = render(layout("横刀立马"), style=style, cell=cell)
        found.append(image)
    noise = np.random.default_rng(5).integers(0, 256, (333, 517, 3), dtype=np.uint8)
    return found + [noise]


@pytest.mark.parametrize("index", range(6))
def test_every_colour_matched_at_once_as_one_at_a_time(index: int) -> None:
    image = pictures()[index]
    colours = main_colours(image) + [np.array([0, 0, 0], np.float32), np.array([255, 255, 255], np.float32),
                                      np.array([17.6, 250.2, 3.9], np.float32)]
    found = screen(image, colours)
    f = found.f         # 3 on the desktops, 1 on the smaller pictures
    for k, colour in enumerate(colours):
        alone = colour_mask(image, colour)
        assert np.array_equal(found.mask(k), alone)
        # the screen at a reduced size: a block has the colour when any of its pixels has
        blocks = cv2.dilate(alone, np.ones((f, f), np.uint8), anchor=(0, 0))[::f, ::f]
        assert np.array_equal(found.mask(k, blocks=True), blocks)
        cut = np.s_[7:200, 30:311]
        assert np.array_equal(found.mask(k, cut), alone[cut])
    # one colour (a profile's board colour) is matched by its ranges alone, the same way
    one = screen(image, colours[:1])
    assert np.array_equal(one.mask(0), colour_mask(image, colours[0]))
