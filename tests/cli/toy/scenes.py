"""The toy game's rendered fixtures: lamps drawn as the vision expects them."""
from __future__ import annotations

import numpy as np

from puzzlepilot.scenes import FixtureCase
from tests.cli.toy.vision import GREY

SIDE = 30       # a lamp's side, px; lamps stand one side apart


def render(lamps: str) -> np.ndarray:
    image = np.full((3 * SIDE, (2 * len(lamps) + 1) * SIDE, 3), GREY, np.uint8)
    for i, lamp in enumerate(lamps):
        x = (2 * i + 1) * SIDE
        image[SIDE:2 * SIDE, x:x + SIDE] = 255 if lamp == "1" else 0
    return image


def fixture_cases() -> list[FixtureCase]:
    return [FixtureCase("row", render("10010"), "10010"),
            FixtureCase("dark", render("000"), "000"),
            FixtureCase("noise", np.random.default_rng(1).integers(0, 256, (90, 90, 3), np.uint8), None)]
