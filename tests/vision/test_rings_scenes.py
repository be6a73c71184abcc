"""The game's screens that hold no enemy board, drawn in the game's look: a boss battle
(arrow panels, the boss on the disc), the battle paused on a menu, the overworld with a
round plaza. Each must be refused, never read as a board."""
from __future__ import annotations

import cv2
import numpy as np
import pytest

from puzzlepilot.scenes.rings import render_boss, render_camera, render_menu, render_overworld
from solvers.rings import Board, generate
from vision.common import NoBoardFound
from vision.rings import parse


def jpeg(image: np.ndarray, quality: int = 80) -> np.ndarray:
    return cv2.imdecode(cv2.imencode(".jpg", image, [cv2.IMWRITE_JPEG_QUALITY, quality])[1], cv2.IMREAD_COLOR)


@pytest.mark.parametrize("seed", range(3))
@pytest.mark.parametrize("size", [(440, 247), (960, 540)])
@pytest.mark.parametrize("scene", [
    lambda w, h, s: render_boss(w, h, s),
    lambda w, h, s: render_boss(w, h, s, "overhead", 0.7),
    lambda w, h, s: render_boss(w, h, s, boss=0.25),
    lambda w, h, s: render_boss(w, h, s, "overhead", boss=0.01),
    render_menu,
    render_overworld,
], ids=["boss", "boss-overhead", "boss-small", "arrows-only", "menu", "overworld"])
def test_screens_without_an_enemy_board_are_refused(scene, size, seed):
    with pytest.raises(NoBoardFound):
        parse(jpeg(scene(*size, seed)))


def test_the_button_bar_over_the_near_tiles_still_reads():
    """The game writes its button bar over the arena's near rim (as the real capture
    shows); the renders do too, and the board under it still reads."""
    board = generate(37, 2, 2, kinds="gskb")
    found = parse(jpeg(render_camera(board, 1280, 720, "tilted", 37)[0], 85))
    assert found.board.cells == board.relabelled().cells


def test_an_empty_flat_practice_arena_still_reads():
    """The refusal is for the game's camera: the flat practice arena with no enemies left
    stays a board (its fixture ``empty_arena``)."""
    from puzzlepilot.scenes.rings import render

    empty = Board(tuple("." * 12 for _ in range(4)), 2)
    assert parse(render(empty, 960, 540, "earth", 9)[0]).board.cells == empty.cells
