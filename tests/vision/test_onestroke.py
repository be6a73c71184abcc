"""One-stroke vision: the real capture, rendered scenes at any scale and colour, and
refusals (no board, no start, two starts, too few cells, an irregular grid)."""
from __future__ import annotations

import colorsys
from pathlib import Path

import cv2
import numpy as np
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from puzzlepilot.scenes.onestroke import (BACKGROUND, CELL_GREY, Truth, crop_board, cut_board, draw_cat, remove_cat,
                                         render_phone, tight)

from puzzlepilot.scenes.paint import noise_photo, render_desktop, rounded_rect, shapes_scene
from solvers.onestroke import Board, generate, solve
from tests.helpers import text
from vision.common import NoBoardFound
from vision.onestroke import parse

REAL = Path(__file__).resolve().parents[2] / ".." / "shared" / "real"
LEVEL_643 = REAL / "onestroke" / "level643.png"
LEVEL_643_BOARD = ".##.S##/#######/##.####/.######/#.#####/#####.#/#######"

needs_real = pytest.mark.skipif(not LEVEL_643.is_file(), reason="real screenshots not present")


def reencode(image: np.ndarray, quality: int) -> np.ndarray:
    ok, data = cv2.imencode(".jpg", image, [cv2.IMWRITE_JPEG_QUALITY, quality])
    assert ok
    return cv2.imdecode(data, cv2.IMREAD_COLOR)


@pytest.fixture(scope="module")
def real() -> np.ndarray:
    return cv2.imread(str(LEVEL_643))


# ---------------------------------------------------------------------------- the real capture

@needs_real
def test_real_level_643_reads_exactly(real):
    found = parse(real)
    assert found.game == "onestroke"
    assert text(found) == LEVEL_643_BOARD
    assert found.confidence >= 0.9


def real_truth() -> Truth:
    """Level 643's truth in the real capture (pitch 129.8 px, cell 115 px, cell (0, 0) at (150.7, 570.5))."""
    pitch, x0, y0 = 129.8, 280.5 - 129.8, 570.5
    return Truth(LEVEL_643_BOARD, tuple((x0 + c * pitch, y0 + r * pitch) for r in range(7) for c in range(7)), pitch, 115)


@needs_real
@pytest.mark.parametrize("side", ["left", "top", "right", "bottom"])
@pytest.mark.parametrize("depth", [0.0, 0.3, 0.6, 0.97])
def test_the_real_level_cut_by_a_crop_is_refused(real, side, depth):
    """A crop through a line of cells (or just past one, where a line beyond may have been
    cut off): the old vision read the cells left as a smaller board on every cut but those
    through the top row (the cat's: no cat)."""
    image, _ = cut_board(real, real_truth(), side, depth)
    with pytest.raises(NoBoardFound, match="may cut the board|no cat"):
        parse(image)


@needs_real
@pytest.mark.parametrize("margin, scale", [(0.15, 1.0), (0.4, 0.3), (0.15, 0.5)])
def test_the_real_level_cropped_with_its_gap_showing_still_reads(real, margin, scale):
    image, _ = crop_board(real, real_truth(), margin)
    if scale != 1:
        image = cv2.resize(image, None, fx=scale, fy=scale, interpolation=cv2.INTER_AREA)
    assert text(parse(image)) == LEVEL_643_BOARD


def cut_render(rows: int, cols: int, seed: int, cat, share: float, side: str, depth: float,
               quality: int | None) -> None:
    """A render cut by a crop (``cut_board``) reads as the whole board (it cannot: it is cut)
    or is refused; a smaller board fails."""
    board = tight(generate(rows, cols, seed, fill=0.75))
    path = [tuple(p) for p in solve(board).solution][: round(len(board.cells) * share)]
    image, truth = render_phone(board, width=720, height=1280, cat=cat, visited=path, seed=seed)
    image, truth = cut_board(image, truth, side, depth)
    if quality:
        image = reencode(image, quality)
    try:
        got = text(parse(image))
    except NoBoardFound:
        return
    assert got == truth.board, "a board cut by the crop read as a smaller one"


# Renders cut by a crop (as a harsh sweep made them) that the old vision read as smaller
# boards: rows, cols, board seed, cat, share of the path drawn, cut side and depth
# (pitches, cut_board), JPEG quality.
CUT_BEFORE = [(7, 8, 1, "pink", 0.4, "bottom", 0.28, 70), (8, 7, 61, (60, 170, 200), 0.0, "right", 0.48, None),
              (10, 9, 95, "orange", 0.0, "bottom", 0.34, 60), (11, 12, 52, "purple", 0.0, "left", 0.7, 50)]


@pytest.mark.parametrize("rows, cols, seed, cat, share, side, depth, quality", CUT_BEFORE)
def test_renders_cut_by_a_crop_are_refused(rows, cols, seed, cat, share, side, depth, quality):
    cut_render(rows, cols, seed, cat, share, side, depth, quality)


@settings(max_examples=25, deadline=None, derandomize=True, suppress_health_check=[HealthCheck.too_slow])
@given(rows=st.integers(3, 12), cols=st.integers(3, 12), seed=st.integers(0, 10_000),
       cat=st.sampled_from(["tan", "pink", "blue", "green", "orange", "purple"]), share=st.sampled_from([0.0, 0.3, 0.7]),
       side=st.sampled_from(["left", "top", "right", "bottom"]), depth=st.floats(0.0, 1.2),
       quality=st.sampled_from([None, 40, 70]))
def test_any_crop_cutting_the_board_is_refused_never_a_smaller_board(rows, cols, seed, cat, share, side, depth, quality):
    """The harsh sweep's crops as a derandomised property (a second or two)."""
    cut_render(rows, cols, seed, cat, share, side, depth, quality)


@needs_real
def test_real_level_643_geometry_matches_the_pixels(real):
    found = parse(real)
    g = found.geometry
    assert (g.rows, g.cols) == (7, 7) and len(found.cells) == 49
    assert g.pitch == pytest.approx((129.8, 129.8), abs=0.5)
    assert g.cell == pytest.approx(115, abs=3)
    # Cell (0,1) spans x 223..338, y 513..628 in the capture; (6,6) spans 872..987, 1292..1407.
    assert found.cells[1] == pytest.approx((280.5, 570.5), abs=1.5)
    assert found.cells[48] == pytest.approx((929.5, 1349.5), abs=1.5)
    assert g.origin == pytest.approx(found.cells[0], abs=0.01)


@needs_real
@pytest.mark.parametrize("factor", [0.5, 1.5])
def test_real_level_643_reads_when_resized(real, factor):
    resized = cv2.resize(real, None, fx=factor, fy=factor, interpolation=cv2.INTER_AREA)
    found = parse(resized)
    assert text(found) == LEVEL_643_BOARD
    assert found.geometry.pitch[0] == pytest.approx(129.8 * factor, rel=0.01)


@needs_real
@pytest.mark.parametrize("quality", [60, 85])
def test_real_level_643_reads_after_jpeg(real, quality):
    assert text(parse(reencode(real, quality))) == LEVEL_643_BOARD


@needs_real
@pytest.mark.parametrize("desktop_width, phone_width", [(1920, 540), (2560, 360)])
def test_real_level_643_reads_in_a_window_on_a_desktop(real, desktop_width, phone_width):
    desktop = render_desktop(desktop_width, desktop_width * 9 // 16, seed=5)
    phone = cv2.resize(real, (phone_width, phone_width * 16 // 9), interpolation=cv2.INTER_AREA)
    left = desktop_width - phone_width - 150
    desktop[40:40 + phone.shape[0], left:left + phone_width] = phone
    found = parse(desktop)
    assert text(found) == LEVEL_643_BOARD
    k = phone_width / 1080
    assert found.cells[1] == pytest.approx((left + 280.5 * k, 40 + 570.5 * k), abs=1.5)


@needs_real
@pytest.mark.parametrize("name", ["lyner_a03.png", "lyner_a17.png", "lyner_b25.png"])
def test_lyne_screenshots_are_no_onestroke_board(name):
    with pytest.raises(NoBoardFound):
        parse(cv2.imread(str(REAL / "lyne" / name)))


# ---------------------------------------------------------------------------- rendered scenes

def saturated_colours() -> st.SearchStrategy[tuple[int, int, int]]:
    """Cat colours of any hue, saturated and bright enough to be a cat."""
    return st.builds(lambda h, s, v: tuple(round(255 * x) for x in colorsys.hsv_to_rgb(h, s, v)),
                     st.floats(0, 1), st.floats(0.45, 0.85), st.floats(0.75, 0.95))


@settings(max_examples=12, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(rows=st.integers(4, 10), cols=st.integers(4, 10), seed=st.integers(0, 10_000),
       cat=saturated_colours(), size=st.sampled_from([(540, 960), (720, 1280), (1080, 1920)]),
       share=st.sampled_from([0.0, 0.3, 0.7]))
def test_rendered_levels_read_with_exact_cell_centres(rows, cols, seed, cat, size, share):
    board = tight(generate(rows, cols, seed, fill=0.75))
    path = [tuple(p) for p in solve(board).solution]
    visited = path[: round(len(path) * share)]
    image, truth = render_phone(board, width=size[0], height=size[1], cat=cat, visited=visited, seed=seed)
    found = parse(image)
    assert text(found) == truth.board
    assert np.abs(np.array(found.cells) - np.array(truth.cells)).max() < 0.03 * truth.pitch


def test_board_only_crop_reads():
    board = Board.from_text("S###/#..#/####/##.#")
    image, truth = render_phone(board, width=720, height=1280, cat="green")
    xs = [x for x, _ in truth.cells]
    ys = [y for _, y in truth.cells]
    crop = image[round(min(ys) - truth.pitch):round(max(ys) + truth.pitch),
                 round(min(xs) - truth.pitch):round(max(xs) + truth.pitch)]
    assert text(parse(crop)) == truth.board


def test_a_row_of_only_visited_cells_and_the_cat_still_counts():
    board = Board.from_text("S###/####/#..#/####")
    image, truth = render_phone(board, cat="purple", visited=[(0, 0), (0, 1), (0, 2), (0, 3)])
    assert text(parse(image)) == truth.board


# ---------------------------------------------------------------------------- refusals

@pytest.mark.parametrize("image", [
    render_desktop(1920, 1080, seed=1),
    noise_photo(1280, 720, seed=2),
    shapes_scene(900, 900, seed=3),
    np.full((600, 800, 3), 249, np.uint8),
], ids=["desktop", "noise", "shapes", "blank"])
def test_non_game_images_give_no_board(image):
    with pytest.raises(NoBoardFound):
        parse(image)


def test_a_grid_without_the_cat_gives_no_board():
    board = Board.from_text("S###/####/##.#")
    image, truth = render_phone(board, width=540, height=960)
    with pytest.raises(NoBoardFound, match="no cat"):
        parse(remove_cat(image, truth, board))


def test_two_cats_give_no_board():
    board = Board.from_text("S###/####/##.#")
    image, truth = render_phone(board, width=540, height=960)
    x, y = truth.cells[1 * board.cols + 3]
    draw_cat(image, x, y, truth.cell, (104, 168, 232))
    with pytest.raises(NoBoardFound, match="look like the cat"):
        parse(image)


def test_fewer_than_four_cells_give_no_board():
    image, _ = render_phone(Board.from_text("S##"), width=540, height=960)
    with pytest.raises(NoBoardFound, match="only 3 cells"):
        parse(image)


def jittered_grid(jitter: float, seed: int) -> np.ndarray:
    """A 5×5 board whose cells stray from the lattice by up to ``jitter`` pitches."""
    rng = np.random.default_rng(seed)
    image = np.full((900, 900, 3), BACKGROUND[::-1], np.uint8)
    pitch, cell = 130.0, 115.0
    for r in range(5):
        for c in range(5):
            x, y = 190 + c * pitch + rng.uniform(-1, 1) * jitter * pitch, 190 + r * pitch + rng.uniform(-1, 1) * jitter * pitch
            if (r, c) == (2, 2):
                draw_cat(image, 190 + 2 * pitch, 190 + 2 * pitch, cell, (217, 173, 151))
            else:
                rounded_rect(image, x - cell / 2, y - cell / 2, x + cell / 2, y + cell / 2, 16, CELL_GREY)
    return image


def test_confidence_drops_as_the_grid_gets_irregular():
    exact = parse(jittered_grid(0.0, seed=1)).confidence
    rough = parse(jittered_grid(0.03, seed=1)).confidence
    assert exact > 0.95 and rough < exact - 0.1


@pytest.mark.parametrize("seed", [1, 2, 3])
def test_a_grid_that_is_no_lattice_gives_no_board(seed):
    with pytest.raises(NoBoardFound):
        parse(jittered_grid(0.06, seed=seed))


def test_refit_keeps_the_lattice_when_no_cell_was_read() -> None:
    """A damaged picture may leave only the cat and holes on the lattice: nothing to fit
    to, so the lattice stays (it once raised on an empty list, an internal error)."""
    from vision.onestroke import CAT, HOLE, Colours, Lattice, refit

    image = np.full((200, 200, 3), 249, np.uint8)
    lat = Lattice(40.0, 40.0, 60.0, 60.0, 50.0, ((0, 0), (0, 1)), 0.5)
    colours = Colours(np.array([209, 209, 209]), np.array([249, 249, 249]))
    assert refit(image, lat, {(0, 0): CAT, (0, 1): HOLE}, (0, 0), colours) == lat
