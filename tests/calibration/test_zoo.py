"""The style zoo (puzzlepilot/scenes/zoo.py): at least 50 looks per grid game, each drawn
its own way, the same picture every time (no image is stored)."""
from __future__ import annotations

import hashlib

import numpy as np
import pytest

from puzzlepilot.scenes import zoo
from solvers.lyne import Board as LyneBoard

HUBS = LyneBoard.from_text("Tt2D/t3dd/t4d./T.dD")


def digest(img: np.ndarray) -> str:
    return hashlib.sha1(img.tobytes()).hexdigest()


@pytest.mark.parametrize("game", ["onestroke", "lyne"])
def test_every_grid_game_has_fifty_looks_each_drawn_differently(game: str) -> None:
    if game == "onestroke":
        looks = zoo.LOOKS
        pictures = [zoo.render(zoo.CALIBRATION, look, 90, 160)[0] for look in looks.values()]
    else:
        looks = zoo.LYNE_LOOKS
        pictures = [zoo.render_lyne(HUBS, look, 160, 120)[0] for look in looks.values()]
    assert len(looks) >= 50
    assert all(name == look.name for name, look in looks.items())
    assert len({digest(img) for img in pictures}) == len(looks)


def test_the_looks_span_light_and_dark_grounds_styles_and_sizes() -> None:
    lyne = list(zoo.LYNE_LOOKS.values())
    assert {look.style for look in lyne} == set(zoo.LYNE_STYLES)
    assert {look.ground for look in lyne} == set(zoo.GROUNDS)
    assert min(look.node for look in lyne) <= 0.75 and max(look.node for look in lyne) >= 1.25
    light = [sum(look.colours.background) > 3 * 128 for look in lyne]
    assert any(light) and not all(light)
    strokes = list(zoo.LOOKS.values())
    assert {look.shape for look in strokes} == set(zoo.SHAPES) and {look.marker for look in strokes} == set(zoo.MARKERS)
    assert any(look.texture for look in strokes) and any(look.shadow for look in strokes)


@pytest.mark.parametrize("name", ["paper-dots", "neon-icons-x1.25-gradient", "tulip-outlines-x1.15-gradient"])
def test_a_look_draws_the_same_picture_every_time(name: str) -> None:
    look = zoo.LYNE_LOOKS[name]
    assert digest(zoo.render_lyne(HUBS, look, 320, 240)[0]) == digest(zoo.render_lyne(HUBS, look, 320, 240)[0])
    others = [[(n, digest(img), board) for n, img, board in zoo.lyne_others(look, count=2)] for _ in range(2)]
    assert others[0] == others[1]
