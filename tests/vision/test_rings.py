"""Ring-battle vision: rendered battles in every style and size, the arena geometry, the
budget panel, and refusals (other games, look-alikes, rings too crowded to read)."""
from __future__ import annotations

from pathlib import Path

import cv2
import numpy as np
import pytest
from hypothesis import HealthCheck, example, given, settings
from hypothesis import strategies as st

from puzzlepilot.scenes.rings import STYLES, backdrop, enemy_size, render
from solvers.rings import Board, generate
from vision.common import NoBoardFound, load_image
from vision.rings import find_arena, parse

ROOT = Path(__file__).resolve().parents[2]
REAL = ROOT / ".." / "shared" / "real"
OTHER_IMAGES = sorted(p for p in [*REAL.glob("*/*.png"), *(ROOT / "fixtures").glob("*/*.[pj][np]g")]
                      if p.parent.name != "rings")


def as_read(board: Board) -> str:
    """The board text the vision reports: every enemy an ``x``, rows joined by ``/``."""
    return "/".join("".join("." if c == "." else "x" for c in ring) for ring in board.cells)


def text(found) -> str:
    return "/".join(found.board.cells)


@settings(max_examples=12, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(st.integers(0, 10 ** 6), st.integers(1, 5), st.sampled_from(sorted(STYLES)),
       st.sampled_from([(800, 450), (1280, 720), (1024, 768)]))
@example(seed=420, groups=5, style="earth", size=(800, 450))
def test_rendered_battles_read_exactly(seed, groups, style, size):
    """Every board reads exactly, except that a ring with fewer than 3 empty tiles leaves
    nothing to learn the empty tile from: that one is refused, never guessed."""
    board = generate(seed, groups, 3, kinds="gskb")
    image, _ = render(board, *size, style=style, seed=seed, hud=False)
    if min(ring.count(".") for ring in board.cells) < 3:
        with pytest.raises(NoBoardFound, match="too few empty tiles"):
            parse(image)
        return
    found = parse(image)
    assert found.game == "rings" and text(found) == as_read(board)
    assert found.confidence >= 0.5


def test_a_small_figure_under_night_light_is_not_taken_for_an_empty_tile():
    """Issue 6: the night look lights the outer ring unevenly, so its empty tiles differ in
    colour by nearly as much as a small figure on a wide outer tile changes its tile; slice
    7's figure was read as empty (confidence 0.513)."""
    board = generate(85831, 5, 3, kinds="gskb")
    found = parse(render(board, 1024, 768, style="night", seed=85831, hud=False)[0])
    assert text(found) == as_read(board)
    assert found.confidence >= 0.6


def test_alike_figures_outnumbering_the_empty_tiles_are_not_taken_for_them():
    """A ring's empty look is learned from its largest group of alike patches; nine round
    figures (alike on every tile, unlike the upright toys) outnumber the inner ring's three
    empty tiles, yet they are the figures, and the plain tiles the empty look."""
    board = Board(("x..x........", "x..x........", "..x..x......", "xxxxxxxxx..."), 3)
    image, arena = render(Board(board.cells[:3] + ("." * 12,), 3), 960, 540, style="earth", seed=1, hud=False)
    radius = round(enemy_size(arena, 3) * 0.4)
    for s in range(9):
        centre = tuple(round(v) for v in arena.cell(3, s))
        cv2.circle(image, centre, radius, (40, 60, 200), -1, cv2.LINE_AA)
        cv2.circle(image, centre, radius, (20, 20, 20), 3, cv2.LINE_AA)
        cv2.circle(image, centre, radius // 3, (240, 240, 240), -1, cv2.LINE_AA)
    assert text(parse(image)) == as_read(board)


def test_geometry_and_cell_centres_match_the_drawing():
    board = generate(3, 3, 2, kinds="gskb")
    image, arena = render(board, 1280, 720, style="water", seed=3)
    found = parse(image)
    g = found.geometry
    assert (g.arena.cx, g.arena.cy) == pytest.approx((arena.cx, arena.cy), abs=1.5)
    # Joint lines are a few pixels thick and the outer one shows only its inner edge.
    assert g.arena.inner == pytest.approx(arena.inner, rel=0.05)
    assert g.arena.outer == pytest.approx(arena.outer, rel=0.02)
    assert len(found.cells) == 48
    truth = np.array(arena.cells())
    assert np.abs(np.array(found.cells) - truth).max() < arena.width * 0.1


def test_the_move_budget_is_read_from_the_panel():
    board = Board(generate(4, 2, 4, kinds="gskb").cells, 4)
    found = parse(render(board, 1280, 720, style="earth", seed=4)[0])
    assert found.board.budget == 4 and found.geometry.budget == 4


def test_without_a_panel_the_board_has_no_budget_line():
    board = generate(5, 2, 3)
    found = parse(render(board, 960, 540, style="night", seed=5, hud=False)[0])
    assert found.board.budget is None and not found.board.to_text().startswith("moves")


def test_jpeg_and_a_desktop_around_the_game_still_read():
    board = generate(6, 3, 3, kinds="gskb")
    image, _ = render(board, 960, 540, style="earth", seed=6, hud=False)
    desk = np.full((800, 1400, 3), (120, 80, 60), np.uint8)
    desk[150:690, 300:1260] = image
    ok, data = cv2.imencode(".jpg", desk, [cv2.IMWRITE_JPEG_QUALITY, 75])
    found = parse(cv2.imdecode(data, cv2.IMREAD_COLOR))
    assert text(found) == as_read(board)
    assert found.geometry.arena.cx == pytest.approx(300 + 480, abs=2)


def test_a_ring_too_crowded_to_show_its_empty_tiles_is_refused_not_guessed():
    crowded = Board(("....x.......", "....x.......", "xxxxxxxxxxxx", "gskbgskbgskb"), 3)
    with pytest.raises(NoBoardFound, match="too few empty tiles"):
        parse(render(crowded, 960, 540, style="water", seed=1)[0])


@pytest.mark.parametrize("spokes", [0, 8, 16])
def test_look_alikes_without_12_slices_are_refused(spokes):
    img = backdrop(960, 540, STYLES["earth"], 2)
    for k, col in enumerate([(230, 230, 230), (40, 40, 200)] * 3):
        cv2.circle(img, (480, 300), round(210 * (1 - k * 0.16)), col, -1, cv2.LINE_AA)
    for k in range(spokes):
        a = 2 * np.pi * k / spokes
        cv2.line(img, (480, 300), (round(480 + 210 * np.cos(a)), round(300 + 210 * np.sin(a))), (30, 30, 30), 3)
    with pytest.raises(NoBoardFound):
        find_arena(img)


@pytest.mark.skipif(not OTHER_IMAGES, reason="no screenshots of other games present")
@pytest.mark.parametrize("path", OTHER_IMAGES, ids=lambda p: f"{p.parent.name}/{p.name}")
def test_other_games_screenshots_are_not_claimed(path):
    with pytest.raises(NoBoardFound):
        parse(load_image(path))


KEYMAP = {"rings": [["1"], ["2"], ["3"], ["4"]], "lines": [["q"], ["w"], ["e"], ["r"], ["t"], ["y"]],
          "clockwise": "right", "anticlockwise": "left", "inward": "up", "confirm": "enter"}


def test_a_profile_key_map_rides_along_to_the_key_planner(tmp_path):
    from argparse import Namespace

    from calibration.profile import save
    from overlay.rings import plan
    from puzzlepilot.live import plan_options

    profile = save({"game": "rings", "name": "switch", "keymap": KEYMAP}, {}, tmp_path / "switch")
    board = Board(("..x.........", "..x.........", "..x.........", "...x........"), 1)
    found = parse(render(board, 960, 540, style="earth", seed=2)[0], profile=profile)
    options = plan_options(Namespace(keymap=None), profile)
    assert options == {"rings": {"keymap": KEYMAP}}
    keys = [a.key for a in plan(found.shifted(10, 10), [{"op": "rotate", "ring": 3, "steps": -1}], **options["rings"])]
    assert keys == ["4", "left", "enter"]


@pytest.mark.parametrize("data, field", [
    ({"game": "lyne"}, "game"),
    ({"game": "rings", "keymap": {**KEYMAP, "rings": [["1"]]}}, "keymap.rings"),
    ({"game": "rings", "keymap": {**KEYMAP, "confirm": 13}}, "keymap.confirm"),
    ({"game": "rings", "keymap": {k: v for k, v in KEYMAP.items() if k != "inward"}}, "keymap.inward"),
])
def test_a_bad_profile_is_refused_naming_the_field(tmp_path, data, field):
    from calibration.profile import save
    from vision.profile import ProfileError

    profile = save({"name": "bad", **data}, {}, tmp_path / "bad")
    with pytest.raises(ProfileError, match=field):
        parse(render(Board(("." * 12,) * 4), 960, 540)[0], profile=profile)
