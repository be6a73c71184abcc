"""Ring battles through the game's camera: the real capture (tilted camera, 3D figures,
badges over heads) read exactly up to the slice numbering, and what is refused."""
from __future__ import annotations

import json
from pathlib import Path

import cv2
import numpy as np
import pytest

from solvers.rings import Board, solve, validate
from puzzlepilot.cli import main
from vision.common import NoBoardFound, load_image
from vision.rings import Arena, Budget, parse, read_budget

ROOT = Path(__file__).resolve().parents[2]
REAL = ROOT / ".." / "shared" / "real"
CAPTURE = REAL / "rings" / "origami_ring_moves2.png"
needs_real = pytest.mark.skipif(not CAPTURE.exists(), reason="the real captures are not here")


def renumbered(rows: list[str]) -> set[str]:
    """Every numbering of the same arena: the 12 slice numbers rotated and/or mirrored,
    the same for every ring."""
    out = set()
    for mirror in (False, True):
        base = [row[::-1] if mirror else row for row in rows]
        for k in range(12):
            out.add("/".join(row[k:] + row[:k] for row in base))
    return out


def label(name: str) -> tuple[int, list[str]]:
    text = json.loads((REAL / "labels.json").read_text())[f"rings/{name}"]
    head, *rows = text.split("/")
    return int(head.split(":")[1]), rows


@needs_real
def test_the_real_tilted_capture_reads_as_labelled_up_to_slice_numbering():
    moves, rows = label(CAPTURE.name)
    found = parse(load_image(CAPTURE))
    assert "/".join(found.board.cells) in renumbered(rows)
    assert found.confidence >= 0.6
    assert found.geometry.arena.squash < 0.8          # seen tilted, not from above


@needs_real
def test_the_real_capture_is_solved_in_two_validated_moves():
    found = parse(load_image(CAPTURE))
    board = Board(found.board.cells, 2)
    result = solve(board)
    assert len(result.solution) == 2
    assert validate(board, result.solution) == []


@needs_real
def test_feet_decide_the_cell_not_the_body_over_the_tiles_behind():
    """Every figure in the capture covers part of the tile behind it, and four carry a
    badge floating over their heads: eight enemies, no more."""
    found = parse(load_image(CAPTURE))
    assert sum(row.count("x") for row in found.board.cells) == 8


@needs_real
def test_a_crop_without_the_arena_is_refused():
    image = load_image(CAPTURE)
    with pytest.raises(NoBoardFound):
        parse(np.ascontiguousarray(image[:70]))


@needs_real
@pytest.mark.parametrize("size", [(440, 247), (1280, 720), (1920, 1080)])
def test_the_real_panel_reads_by_digit_templates_without_a_process(size, monkeypatch):
    """The green digit of the real "Ring Moves ×2" panel matches the digits drawn in a bold
    font; tesseract is never started for it."""
    import pytesseract

    from vision.rings import read_budget

    def no_ocr(*_, **__):
        raise AssertionError("tesseract started")

    monkeypatch.setattr(pytesseract, "image_to_string", no_ocr)
    image = cv2.resize(load_image(CAPTURE), size, interpolation=cv2.INTER_CUBIC)
    assert read_budget(image) == Budget(2, "digits")


@needs_real
@pytest.mark.parametrize("phone", [(320, 480), (360, 780)])
def test_the_real_panel_reads_in_a_phone_capture_of_the_game_letterboxed(phone):
    """Issue 29: the game filling a portrait capture's width (bands above and below) keeps
    its budget; the panel's least size follows the game's picture, not the capture."""
    width, height = phone
    game = cv2.resize(load_image(CAPTURE), (width, round(width * 9 / 16)), interpolation=cv2.INTER_AREA)
    top = (height - game.shape[0]) // 2
    frame = cv2.copyMakeBorder(game, top, height - game.shape[0] - top, 0, 0, cv2.BORDER_CONSTANT, value=(20, 20, 20))
    assert read_budget(frame) == Budget(2, "digits")


@needs_real
def test_no_panel_is_said_and_never_defaults_silently(capsys, tmp_path):
    """Issue 15: an unreadable budget used to become 3 without a word."""

    image = load_image(CAPTURE)
    assert read_budget(np.ascontiguousarray(image[:, :340])).moves is None
    path = tmp_path / "no_panel.png"
    cv2.imwrite(str(path), image[:, :340])
    assert main(["parse", str(path), "--game", "rings"]) == 0
    err = capsys.readouterr().err
    assert "panel is not visible" in err and "--moves" in err


@pytest.mark.parametrize("seed", range(8))
def test_rendered_battles_through_the_camera_read_right_or_are_refused_never_wrong(seed):
    """Renders in the game's look (tilted or overhead camera, figures hiding tiles, badges,
    JPEG): the board read is the board drawn, or a refusal."""
    import random

    from puzzlepilot.scenes.rings import render_camera
    from solvers.rings import generate

    rng = random.Random(seed)
    board = generate(1000 + seed, rng.randint(1, 3), rng.randint(1, 3), kinds="gskb")
    size = rng.choice([(440, 247), (1280, 720), (960, 540)])
    image, _ = render_camera(board, *size, rng.choice(["tilted", "overhead"]), seed)
    image = cv2.imdecode(cv2.imencode(".jpg", image, [cv2.IMWRITE_JPEG_QUALITY, 85])[1], cv2.IMREAD_COLOR)
    try:
        found = parse(image)
    except NoBoardFound:
        return
    assert found.board.cells == board.relabelled().cells
    assert found.board.budget in (None, board.budget)


@pytest.mark.parametrize("moves", [1, 2, 3, 4])
def test_the_rendered_panel_reads_by_templates(moves):
    """The renders letter "×N" as the game does, in the templates' bold font made heavy and
    round: the digit templates read N (no tesseract)."""
    from puzzlepilot.scenes.rings import render_camera
    from solvers.rings import generate

    image, _ = render_camera(Board(generate(5, 1, 1).cells, moves), 1280, 720, "tilted", 5)
    assert read_budget(image) == Budget(moves, "digits")


def test_non_battle_scenes_in_the_game_look_are_refused():
    from dataclasses import replace

    from puzzlepilot.scenes.rings import camera_arena, draw_floor

    away = replace(camera_arena(960, 540), cy=-20.0 * 540)
    with pytest.raises(NoBoardFound):
        parse(draw_floor(away, 960, 540, 3))


@needs_real
@pytest.mark.parametrize("angle", [-12, -8, -4, -2, 2, 4, 8, 12])
def test_a_rolled_or_skewed_photo_of_the_screen_reads_right_or_is_refused(angle):
    """A phone photo of the TV: turned and striped. The camera fit finds the roll and the
    figures are read upright; a reading is right or refused, never wrong."""
    moves, rows = label(CAPTURE.name)
    image = cv2.resize(load_image(CAPTURE), (1280, 720), interpolation=cv2.INTER_CUBIC)
    turned = cv2.warpAffine(image, cv2.getRotationMatrix2D((640, 360), angle, 1.0), (1280, 720),
                            borderMode=cv2.BORDER_REPLICATE)
    stripes = (np.sin(np.arange(720) / 2.0) * 8).astype(np.int16)[:, None, None]
    photo = np.clip(turned.astype(np.int16) + stripes, 0, 255).astype(np.uint8)
    try:
        found = parse(photo)
    except NoBoardFound:
        return
    assert "/".join(found.board.cells) in renumbered(rows)


@needs_real
@pytest.mark.parametrize("angle", [-12, 12])
def test_the_camera_fit_finds_how_far_a_photo_is_turned(angle):
    image = cv2.resize(load_image(CAPTURE), (1280, 720), interpolation=cv2.INTER_CUBIC)
    turned = cv2.warpAffine(image, cv2.getRotationMatrix2D((640, 360), angle, 1.0), (1280, 720),
                            borderMode=cv2.BORDER_REPLICATE)
    found = parse(turned)
    assert found.geometry.arena.roll == pytest.approx(-angle, abs=0.5)


def _close_call_render(tmp_path: Path) -> Path:
    """A rendered battle through the tilted camera whose cells are read (PNG in tmp_path)."""
    from puzzlepilot.scenes.rings import render_camera
    from solvers.rings import generate

    image, _ = render_camera(generate(18, 1, 1, kinds="gskb"), 1280, 720, "tilted", 18)
    path = tmp_path / "battle.png"
    cv2.imwrite(str(path), image)
    return path


def test_a_reading_is_the_same_after_other_random_draws():
    """The tile palette is a k-means with a fixed start: OpenCV's shared random state, moved
    by any other k-means in the process, changes nothing."""
    from puzzlepilot.scenes.rings import camera_arena, render_camera
    from solvers.rings import generate
    from vision.rings_camera import palette

    image, _ = render_camera(generate(18, 1, 1, kinds="gskb"), 1280, 720, "tilted", 18)
    arena = camera_arena(1280, 720)
    first = palette(image, arena)
    noise = np.random.default_rng(0).random((500, 3)).astype(np.float32)
    cv2.kmeans(noise, 5, None, (cv2.TERM_CRITERIA_MAX_ITER, 5, 1.0), 3, cv2.KMEANS_RANDOM_CENTERS)
    assert [c.tobytes() for c in palette(image, arena)] == [c.tobytes() for c in first]
    assert parse(image) == parse(image)


@pytest.mark.parametrize("which", ["render", "real"])
def test_the_same_picture_reads_byte_equal_in_fresh_processes(which, tmp_path):
    import subprocess
    import sys

    if which == "real" and not CAPTURE.exists():
        pytest.skip("the real captures are not here")
    path = _close_call_render(tmp_path) if which == "render" else CAPTURE
    runs = [subprocess.run([sys.executable, "-m", "puzzlepilot", "parse", str(path), "--game", "rings", "--json"],
                           cwd=ROOT, capture_output=True, timeout=120) for _ in range(2)]
    assert runs[0].returncode == 0, runs[0].stderr
    assert (runs[0].stdout, runs[0].stderr) == (runs[1].stdout, runs[1].stderr)


@needs_real
@pytest.mark.parametrize("side,strength", [("top", 0.08), ("top", 0.16), ("left", 0.08), ("bottom", 0.12),
                                           ("right", 0.16)])
def test_a_keystoned_striped_photo_of_the_tv_reads_right_or_is_refused(side, strength):
    """A phone photo of the TV from below, above or one side: the screen's rectangle becomes
    a trapezoid, with moiré stripes and JPEG. Read exactly (a vertical keystone is one more
    tilt of the camera) or refused, never guessed."""
    moves, rows = label(CAPTURE.name)
    image = cv2.resize(load_image(CAPTURE), (1280, 720), interpolation=cv2.INTER_CUBIC)
    d, e = strength * 1280, strength * 720
    corners = {"top": [[d, 0], [1280 - d, 0], [1280, 720], [0, 720]],
               "bottom": [[0, 0], [1280, 0], [1280 - d, 720], [d, 720]],
               "left": [[0, e], [1280, 0], [1280, 720], [0, 720 - e]],
               "right": [[0, 0], [1280, e], [1280, 720 - e], [0, 720]]}[side]
    warp = cv2.getPerspectiveTransform(np.float32([[0, 0], [1280, 0], [1280, 720], [0, 720]]), np.float32(corners))
    photo = cv2.warpPerspective(image, warp, (1280, 720), borderMode=cv2.BORDER_REPLICATE)
    stripes = (np.sin(np.arange(720) / 1.9) * 10).astype(np.int16)[:, None, None]
    photo = np.clip(photo.astype(np.int16) + stripes, 0, 255).astype(np.uint8)
    photo = cv2.imdecode(cv2.imencode(".jpg", photo, [cv2.IMWRITE_JPEG_QUALITY, 80])[1], cv2.IMREAD_COLOR)
    try:
        found = parse(photo)
    except NoBoardFound:
        return
    assert "/".join(found.board.cells) in renumbered(rows)


@pytest.mark.parametrize("view", ["tilted", "overhead"])
def test_an_arena_with_no_enemy_on_it_is_refused_not_read_as_an_empty_board(view):
    """A boss battle's arena (panels on the tiles, the boss in the middle) or a battle already
    won shows the rings with no figure standing on them: nothing to solve, so no board."""
    from puzzlepilot.scenes.rings import render_camera

    image, _ = render_camera(Board(tuple(["." * 12] * 4), 2), 1280, 720, view, 3)
    with pytest.raises(NoBoardFound, match="no enemy stands on the arena"):
        parse(image)


@pytest.mark.parametrize("seed", [24, 34])
def test_a_blue_ring_cut_right_through_by_figures_still_seeds_the_camera(seed):
    """Crowded renders where figures on the blue ring cut it into a C: the arena is found
    (its inside is what the band's convex hull holds besides it); the cells are read or
    refused as cells, never as 'no ring arena found'."""
    import random

    from puzzlepilot.scenes.rings import render_camera
    from solvers.rings import generate
    rng = random.Random(seed)
    board = generate(2000 + seed, rng.randint(1, 4), rng.randint(1, 3), kinds="gskb")
    size = rng.choice([(440, 247), (640, 360), (960, 540), (1280, 720), (1920, 1080)])
    image, _ = render_camera(board, *size, rng.choice(["tilted", "overhead"]), seed)
    try:
        found = parse(image)
    except NoBoardFound as exc:
        assert "no ring arena found" not in str(exc)
        return
    assert found.board.cells == board.relabelled().cells


@needs_real
@pytest.mark.parametrize("quality", [70, 95])
def test_a_badge_s_dark_rim_is_not_a_figure_standing_under_it(quality):
    """At 440 px and JPEG 70 the dark lower rim of a badge floating over a head blurred into
    the yellow tile under it: the badge seemed to stand there and a ninth enemy was seen."""
    moves, rows = label(CAPTURE.name)
    image = load_image(CAPTURE)
    image = cv2.imdecode(cv2.imencode(".jpg", image, [cv2.IMWRITE_JPEG_QUALITY, quality])[1], cv2.IMREAD_COLOR)
    assert "/".join(parse(image).board.cells) in renumbered(rows)


@needs_real
@pytest.mark.parametrize("side,sign", [("left", -1), ("right", 1)])
def test_the_camera_fit_finds_a_photo_taken_from_one_side(side, sign):
    """A side keystone is a perspective across the picture: the fit's skew takes it, the
    board is read, and the skew says from which side the photo was taken."""
    moves, rows = label(CAPTURE.name)
    image = cv2.resize(load_image(CAPTURE), (1280, 720), interpolation=cv2.INTER_CUBIC)
    corners = {"left": [[0, 86], [1280, 0], [1280, 720], [0, 634]], "right": [[0, 0], [1280, 86], [1280, 634], [0, 720]]}
    warp = cv2.getPerspectiveTransform(np.float32([[0, 0], [1280, 0], [1280, 720], [0, 720]]), np.float32(corners[side]))
    found = parse(cv2.warpPerspective(image, warp, (1280, 720), borderMode=cv2.BORDER_REPLICATE))
    assert "/".join(found.board.cells) in renumbered(rows)
    assert sign * found.geometry.arena.skew > 0.05


def test_an_arena_with_skew_maps_plane_and_picture_both_ways_and_keeps_it_in_json():
    from vision.rings import Arena

    arena = Arena(300.0, 200.0, 150.0, 50.0, 0.55, 0.37, (150.0, 125.0, 100.0, 75.0, 50.0), 7.0, 3.0, -0.1)
    u, v = np.linspace(-140, 140, 9), np.linspace(120, -130, 9)
    back = arena.plane(*arena.project(u, v))
    assert np.allclose(back, (u, v), atol=1e-9)
    assert Arena.from_json(arena.to_json()).skew == -0.1
    assert "skew" not in Arena.from_json(arena.to_json()).__class__(300.0, 200.0, 150.0, 50.0, 0.55).to_json().get(
        "camera", {})


@pytest.mark.parametrize("scene", ["pond", "menu"])
def test_an_overworld_pond_or_a_menu_is_no_ring_arena(scene):
    """Outside battles: an orange plaza in a blue pond on grass (a blue band round an orange
    disc, but no tiles around it), a pale menu with words: no arena, said as such."""
    if scene == "pond":
        image = np.full((720, 1280, 3), (60, 170, 80), np.uint8)
        cv2.ellipse(image, (640, 380), (300, 160), 0, 0, 360, (230, 190, 120), -1)
        cv2.ellipse(image, (640, 380), (200, 100), 0, 0, 360, (80, 150, 230), -1)
    else:
        image = np.full((720, 1280, 3), (240, 240, 240), np.uint8)
        cv2.putText(image, "Items  Battle  Save", (100, 300), cv2.FONT_HERSHEY_SIMPLEX, 3, (40, 40, 40), 5)
    with pytest.raises(NoBoardFound, match="no ring arena found"):
        parse(image)


def _stress_render(seed: int) -> tuple[np.ndarray, Board]:
    """A rendered battle as the stress runs draw it: 1-4 groups, 440-1920 px, either camera, JPEG 70-95."""
    import random

    from puzzlepilot.scenes.rings import render_camera
    from solvers.rings import generate

    rng = random.Random(seed)
    board = generate(2000 + seed, rng.randint(1, 4), rng.randint(1, 3), kinds="gskb")
    size = rng.choice([(440, 247), (640, 360), (960, 540), (1280, 720), (1920, 1080)])
    view = rng.choice(["tilted", "overhead"])
    quality = rng.choice([70, 80, 90, 95])
    image, _ = render_camera(board, *size, view, seed)
    return cv2.imdecode(cv2.imencode(".jpg", image, [cv2.IMWRITE_JPEG_QUALITY, quality])[1], cv2.IMREAD_COLOR), board


def _assert_right_or_refused(seed: int) -> None:
    """The stress render of ``seed`` reads as its board or is refused: never a wrong board."""
    _right_or_refused(*_stress_render(seed))


def _right_or_refused(image: np.ndarray, board: Board) -> None:
    """``image`` reads as ``board``'s enemies or is refused: never a wrong board."""
    try:
        found = parse(image)
    except NoBoardFound:
        return
    assert found.board.cells == board.relabelled().cells


@pytest.mark.parametrize("seed", [113, 149, 174, 179])
def test_a_badge_over_a_head_in_the_tile_s_colours_is_not_a_figure(seed):
    """A badge floats over a figure whose head or fuse is drawn in the tiles' colours (a
    yellow koopa head on a yellow tile): no foreign pixel right under the badge, so it seemed
    to stand on the tile behind. A red disc alone in the foreign mask is a badge."""
    image, board = _stress_render(seed)
    assert parse(image).board.cells == board.relabelled().cells


@pytest.mark.parametrize("seed", [10, 23, 176, 178])
def test_a_round_figure_s_rising_sides_are_not_feet_on_the_tile_behind(seed):
    """A round figure (a bob-omb, a goomba's head) ends higher up at its sides, which the
    plane maps farther away: on a far tile or at a small size, onto the tile behind. Those
    few columns were a second stand of the same figure ("feet on two tiles", refused)."""
    image, board = _stress_render(seed)
    assert parse(image).board.cells == board.relabelled().cells


@pytest.mark.parametrize("seed", [320, 330])
def test_two_misreadings_that_make_a_solvable_board_are_refused(seed):
    """Two errors that cancel out passed every later check (a multiple of 4, an answer within
    the budget) and read a wrong board: 330, a goomba's wide head ending on the tile behind
    it, 0.58 ring widths from its stand (the outline reach was 0.5), with a far bob-omb's
    feet unseen; 320, a small badge over the blue ring, its lower rim blurred magenta (not
    taken as rim, so it seemed to stand), with a far figure unseen. Now refused."""
    _assert_right_or_refused(seed)


@pytest.mark.parametrize("seed", [594, 598])
def test_a_dark_body_s_bottom_near_a_ring_border_is_no_sure_stand(seed):
    """A far bob-omb's yellow feet on a yellow tile do not show; its dark body's bottom, a
    few pixels higher, was taken for them, and on the far side those pixels are most of a
    ring: it was read one ring farther. Feet that may hide half a figure lower on another
    ring make the stand unsure: refused (or read right), never read a ring off."""
    _assert_right_or_refused(seed)


def test_a_badge_touched_at_its_side_by_the_head_under_it_is_no_figure():
    """At 440 px a badge's lower corner touched the koopa head under it (tile under the
    badge's middle, head under a third of its width), so it was kept and stood one ring
    farther, while a goomba close to a shaded tile's colour was unseen: two errors that
    kept the enemies a multiple of 4 (render seed 412). Tile under the badge's middle half
    also makes it float; the board is refused (or read right), never wrong."""
    _assert_right_or_refused(412)


def _other_camera(monkeypatch: pytest.MonkeyPatch, board: Board, size: tuple[int, int], seed: int, squash: float,
                  tilt: float, zoom: float, cy: float, scale: float, blur: float, quality: int,
                  view: str = "tilted", light: tuple[float, float, float, tuple[float, float, float], int, float]
                  | None = None) -> np.ndarray:
    """A battle through a camera the game's two do not quite match (``squash`` and ``tilt``
    added to ``view``'s, the arena ``zoom`` times as large, its centre ``cy`` of the height
    lower), rescaled ``scale`` times, blurred (sigma ``blur``), under other ``light`` (gamma,
    gain, offset, a colour cast per channel, a noise seed and sigma) and JPEG'd."""
    import puzzlepilot.scenes.rings as scenes

    game = scenes.camera_arena

    def arena(width: int, height: int, view: str = "tilted") -> Arena:
        base = game(width, height, view)
        return Arena(base.cx, base.cy + cy * height, base.outer * zoom, base.inner * zoom, base.squash + squash,
                     base.tilt + tilt, tuple(e * zoom for e in base.radii), base.phase)

    monkeypatch.setattr(scenes, "camera_arena", arena)
    image, _ = scenes.render_camera(board, *size, view, seed)
    image = cv2.resize(image, None, fx=scale, fy=scale, interpolation=cv2.INTER_AREA if scale < 1 else cv2.INTER_CUBIC)
    if blur:
        image = cv2.GaussianBlur(image, (0, 0), blur)
    if light:
        gamma, gain, offset, cast, noise, sigma = light
        lit = (image.astype(np.float32) / 255.0) ** gamma * 255.0 * gain * np.array(cast) + offset
        image = np.clip(lit + np.random.default_rng(noise).normal(0, sigma, lit.shape), 0, 255).astype(np.uint8)
    return cv2.imdecode(cv2.imencode(".jpg", image, [cv2.IMWRITE_JPEG_QUALITY, quality])[1], cv2.IMREAD_COLOR)


@pytest.mark.parametrize("seed, groups, moves, budget, squash, tilt, zoom, cy, scale, blur, quality", [
    (20, 2, 2, 4, 0.06, 0.01, 0.87, -0.005, 2.57, 0.71, 83),
    (68, 4, 3, 5, 0.0176, -0.0513, 0.9877, 0.0132, 1.0, 0.0, 47),
])
def test_goombas_whose_brown_the_de_weighted_lightness_makes_a_shaded_tile_are_not_lost(
        monkeypatch, seed, groups, moves, budget, squash, tilt, zoom, cy, scale, blur, quality):
    """Lightness counts little in telling a figure from a tile (the stands' shade darkens
    tiles), so a goomba's brown head and dark feet, blurred and JPEG'd, came within the
    shaded yellow tile's colour: four goombas unseen on a 16-enemy board (seed 68), four of
    8 on another (20), and what was left still a multiple of 4 with an answer: a wrong
    board. A ring pixel far darker than the darkest tile colour (``DIM``) is no tile: right
    or refused now, never wrong (fresh stress seeds of other cameras, 0-339)."""
    from solvers.rings import generate

    board = Board(generate(50000 + seed, groups, moves, kinds="gskb").cells, budget)
    image = _other_camera(monkeypatch, board, (960, 540), seed, squash, tilt, zoom, cy, scale, blur, quality)
    _right_or_refused(image, board)


def test_goombas_crowding_one_ring_are_no_tile_colour_of_it(monkeypatch):
    """Under a warm light, seven goombas crowding ring 2 made a fifth of its samples brown,
    and that ring's k-means kept brown as a tile colour: four goombas vanished into it and
    the 8 left, a multiple of 4 with an answer, were a wrong board (fresh stress seed 3010,
    other light). A ring's second colour is a tile's only when it recurs in another ring."""
    from solvers.rings import generate

    board = Board(generate(53010, 3, 3, kinds="gskb").cells, 5)
    image = _other_camera(monkeypatch, board, (1920, 1080), 3010, -0.0593, -0.0143, 1.1312, 0.0292, 0.5852, 0.0,
                          49, light=(1.0006, 1.1341, -13.66, (1.0243, 0.9224, 1.0271), 141807, 2.34))
    _right_or_refused(image, board)


def test_a_line_of_figures_seen_end_on_is_refused_not_read_as_its_front_one(monkeypatch):
    """Four figures along one far slice, seen end on from the overhead camera, make one blob:
    the front one's feet show, the three behind stand hidden, and with a fourth figure lost
    elsewhere the 12 left were whole groups with an answer (stress seed 41: a wrong board).
    A figure rising higher than one (``TALL``) hides another behind it: refused."""
    from solvers.rings import generate

    board = Board(generate(50041, 4, 2, kinds="gskb").cells, 2)
    image = _other_camera(monkeypatch, board, (1280, 720), 41, 0.0192, 0.038, 1.0212, -0.007, 1.1616, 0.5016, 49,
                          view="overhead")
    with pytest.raises(NoBoardFound, match="hidden behind it"):
        parse(image)


@pytest.mark.parametrize("seed, gain", [(16, 0.8), (36, 0.8), (45, 0.8), (55, 0.8), (89, 0.8), (118, 0.8),
                                        (37, 0.65), (54, 0.65), (77, 0.65), (85, 0.65), (107, 0.65)])
def test_a_dimmed_capture_reads_right_or_is_refused(seed, gain):
    """A capture card's or a video's lower gain dims the whole frame, and every colour
    difference with it: figures melted into the tiles and badges were no longer red enough
    to drop, so the stress renders 0-119 dimmed to 0.8 read 6 wrong boards (and 0.65 six
    more). The reader now lifts a picture's brightest to white first (the game always shows
    near-white): 47 right, 73 refused, 0 wrong at both gains."""
    image, board = _stress_render(seed)
    image = (image.astype(np.float32) * gain).astype(np.uint8)
    _right_or_refused(image, board)


def test_a_weak_far_stand_near_a_ring_border_is_no_sure_stand():
    """A far koopa's yellow feet on a yellow tile do not show; the bottom of its green shell,
    a few columns (a weak stand), maps a ring farther. With the goomba behind it seen (a dark
    head is no tile), the enemies made whole groups with an answer: a wrong board (plain
    render seed 87, the game's tilted camera at 1280×720). A weak stand whose feet half a
    figure lower would be on another ring is refused, like a dark body's bottom."""
    import random

    from puzzlepilot.scenes.rings import render_camera
    from solvers.rings import generate

    rng = random.Random(87)
    board = generate(87, rng.randint(1, 4), rng.randint(1, 3), kinds="gskb")
    image, _ = render_camera(board, 1280, 720, "tilted", 87)
    with pytest.raises(NoBoardFound, match="not sure feet"):
        parse(image)
