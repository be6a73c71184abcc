"""One-stroke vision on other apps with the same rules (issue 29 §3-4): the start marked
apart (a purple square, a tint, a letter) instead of the cat, as WeChat's 最强连一连 draws
it (real/onestroke/zqlyl_35-18.png); taller phones, a notification shade dimming the top
rows, a path partly drawn and popups over the board: each reads right or is refused with a
reason, never as another board. On the real captures and on the project's renders of that
look (``render_marked``), made like the real capture (1080x1920 PNG) or as JPEG."""
from __future__ import annotations

from pathlib import Path

import cv2
import numpy as np
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from puzzlepilot.scenes.onestroke import (CATS, MARKERS, NAVY, dim_top, draw_band, level_clear, render_marked,
                                         render_phone, tight)
from puzzlepilot.scenes.paint import bgr
from puzzlepilot.scenes.zoo import LOOKS
from puzzlepilot.scenes.zoo import render as render_look
from solvers.onestroke import Board, generate, solve, validate
from tests.helpers import run_cli, text
from tests.vision.test_onestroke import reencode
from vision.common import NoBoardFound
from vision.onestroke import parse

REAL = Path(__file__).resolve().parents[2] / ".." / "shared" / "real" / "onestroke"
ZQLYL = REAL / "zqlyl_35-18.png"
ZQLYL_BOARD = "#####./######/.#.###/######/###.##/.####S/######"
PITCH, CELL_00 = 125.3, (226.4, 420.4)      # measured on the real capture

needs_real = pytest.mark.skipif(not ZQLYL.is_file(), reason="real screenshots not present")
quick = settings(max_examples=12, derandomize=True, deadline=None, suppress_health_check=[HealthCheck.too_slow])


def outcome(image: np.ndarray, truth: str | None) -> str:
    """'right' or 'refused' (a refusal must say why); fails on any other board."""
    try:
        found = parse(image)
    except NoBoardFound as exc:
        assert len(str(exc)) > 20
        return "refused"
    assert text(found) == truth, f"read {text(found)!r}, the picture shows {truth!r}"
    return "right"


@pytest.fixture(scope="module")
def real() -> np.ndarray:
    return cv2.imread(str(ZQLYL))


# ---------------------------------------------------------------------------- the real captures

@needs_real
def test_the_real_marked_start_capture_reads_exactly(real):
    found = parse(real)
    assert text(found) == ZQLYL_BOARD
    assert found.confidence >= 0.9
    expected = [(CELL_00[0] + c * PITCH, CELL_00[1] + r * PITCH) for r in range(7) for c in range(6)]
    assert np.abs(np.array(found.cells) - np.array(expected)).max() < 2
    assert validate(found.board, solve(found.board).solution) == []


@needs_real
@pytest.mark.parametrize("quality, scale", [(60, 1.0), (None, 0.5), (85, 0.3), (None, 1.5)])
def test_the_real_capture_reads_after_jpeg_and_scaling(real, quality, scale):
    image = cv2.resize(real, None, fx=scale, fy=scale, interpolation=cv2.INTER_AREA) if scale != 1 else real
    assert text(parse(reencode(image, quality) if quality else image)) == ZQLYL_BOARD


@needs_real
@pytest.mark.parametrize("height", [2248, 2400])
def test_the_real_capture_on_a_taller_phone_reads(real, height):
    """A taller phone shows more of the navy background between the board's buttons and the
    ad banner."""
    extra = np.full((height - real.shape[0], real.shape[1], 3), bgr(NAVY), np.uint8)
    assert text(parse(np.vstack([real[:1450], extra, real[1450:]]))) == ZQLYL_BOARD


@needs_real
@pytest.mark.parametrize("depth, dim", [(0.12, 0.5), (0.25, 0.5), (0.3, 0.6), (0.45, 0.4), (0.6, 0.7)])
@pytest.mark.parametrize("quality", [None, 80])
def test_the_real_capture_under_a_notification_shade_reads(real, depth, dim, quality):
    """A shade over the board's top rows dims them by one factor across the whole width: it
    is taken out (refused before, "a cell may lie past the board's top side")."""
    image = dim_top(real, depth, dim)
    assert outcome(reencode(image, quality) if quality else image, ZQLYL_BOARD) == "right"


def soft_shade(image: np.ndarray, depth: float) -> np.ndarray:
    """The top rows dimmed by half, the shade fading out over the 100 rows above ``depth``
    (a share of the height): no edge where one factor steps."""
    out = image.copy()
    rows = round(depth * image.shape[0])
    dim = np.clip((rows - np.arange(rows, dtype=np.float32)) / 100, 0, 1)[:, None, None] * 0.5
    out[:rows] = (out[:rows] * (1 - dim)).round().astype(np.uint8)
    return out


@needs_real
def test_a_soft_shade_over_the_top_row_is_refused_and_the_stages_show_where(real, tmp_path):
    """The top row under a shade with no sharp edge (no one factor to take out): ``parse
    --stages`` says why in words, and a picture shows the board's outline with what lies
    past its sides (the grid that reading stopped at)."""
    shot = tmp_path / "shade.png"
    cv2.imwrite(str(shot), soft_shade(real, 0.25))
    status, _, err = run_cli(["parse", shot, "--game", "onestroke", "--stages", tmp_path / "stages"])
    assert status == 2 and "no board found" in err and "past the board's top side" in err
    assert any(p.name.endswith("-onestroke-sides.png") for p in (tmp_path / "stages").iterdir())


@needs_real
@pytest.mark.parametrize("seed", range(4))
def test_the_real_capture_under_a_level_clear_popup_is_refused(real, seed):
    assert outcome(level_clear(real, seed), None) == "refused"


@needs_real
def test_the_real_gift_popup_is_refused():
    assert outcome(cv2.imread(str(REAL / "zqlyl_giftpopup.png")), None) == "refused"


# ---------------------------------------------------------------------------- renders of that look

def level(rows: int, cols: int, seed: int) -> Board:
    return tight(generate(rows, cols, seed, fill=0.75))


SIZES = [(1080, 1920), (1080, 2248), (720, 1280), (540, 960)]


@pytest.mark.parametrize("marker", MARKERS)
@pytest.mark.parametrize("size", [(1080, 1920), (1080, 2248)])
def test_rendered_marked_starts_read_exactly(marker, size):
    board = level(7, 6, 35)
    image, truth = render_marked(board, width=size[0], height=size[1], marker=marker, seed=35)
    found = parse(image)
    assert text(found) == truth.board
    assert np.abs(np.array(found.cells) - np.array(truth.cells)).max() < 0.03 * truth.pitch


@quick
@given(rows=st.integers(4, 10), cols=st.integers(4, 8), seed=st.integers(0, 10_000),
       marker=st.sampled_from(MARKERS), size=st.sampled_from(SIZES), quality=st.none() | st.integers(60, 95))
def test_rendered_levels_in_the_marked_look_read_right_or_are_refused(rows, cols, seed, marker, size, quality):
    image, truth = render_marked(level(rows, cols, seed), width=size[0], height=size[1], marker=marker, seed=seed)
    outcome(reencode(image, quality) if quality else image, truth.board)


@quick
@given(rows=st.integers(4, 8), cols=st.integers(4, 8), seed=st.integers(0, 10_000), marked=st.booleans(),
       size=st.sampled_from(SIZES[:3]), depth=st.floats(0.1, 0.6), dim=st.floats(0.2, 0.7))
def test_dimmed_top_rows_read_right_or_are_refused(rows, cols, seed, marked, size, depth, dim):
    """A notification shade over the top of either look: the dimmed rows are cells in
    another shade, so a reading that stops at them would be a smaller, wrong board."""
    board = level(rows, cols, seed)
    if marked:
        image, truth = render_marked(board, width=size[0], height=size[1], marker=MARKERS[seed % 3], seed=seed)
    else:
        image, truth = render_phone(board, width=size[0], height=size[1], cat=list(CATS)[seed % 6], seed=seed)
    outcome(dim_top(image, depth, dim), truth.board)


@pytest.mark.parametrize("marked, depth, dim, quality", [
    (False, 0.4, 0.5, None), (False, 0.45, 0.7, 70), (True, 0.4, 0.65, None), (True, 0.35, 0.5, 85)])
def test_rows_under_a_notification_shade_are_read_on_a_tall_phone(marked, depth, dim, quality):
    """A shade over the top rows of the board (the cat look with a path partly drawn, or the
    marked look), on a 1080x2248 phone: the dimmed rows are read like the others (refused
    before: "a cell may lie past the board's top side ... in another shade")."""
    board = level(7, 6, 35)
    if marked:
        image, truth = render_marked(board, width=1080, height=2248, marker="square", seed=35)
    else:
        path = [tuple(p) for p in solve(board).solution]
        image, truth = render_phone(board, width=1080, height=2248, cat="pink", visited=path[:6], seed=35)
    image = dim_top(image, depth, dim)
    assert outcome(reencode(image, quality) if quality else image, truth.board) == "right"


@quick
@given(rows=st.integers(4, 8), cols=st.integers(4, 8), seed=st.integers(0, 10_000), share=st.floats(0.05, 0.9),
       marker=st.sampled_from(MARKERS), quality=st.none() | st.integers(60, 95))
def test_a_path_partly_drawn_in_the_marked_look_is_refused(rows, cols, seed, share, marker, quality):
    """Nothing marks the path's head in this look, so the board left cannot be told."""
    board = level(rows, cols, seed)
    path = [tuple(p) for p in solve(board).solution]
    image, _ = render_marked(board, width=720, height=1280, marker=marker,
                             visited=path[: max(2, round(len(path) * share))], seed=seed)
    assert outcome(reencode(image, quality) if quality else image, None) == "refused"


@pytest.mark.parametrize("marker, share", [("square", 0.3), ("tint", 0.6), ("letter", 0.1)])
def test_a_path_partly_drawn_on_a_tall_phone_is_refused_saying_so(marker, share):
    # the refusal says what the player sees and what to do, not "no start on it"
    board = level(7, 6, 35)
    path = [tuple(p) for p in solve(board).solution]
    image, _ = render_marked(board, width=1080, height=2248, marker=marker,
                             visited=path[: max(2, round(len(path) * share))], seed=3)
    with pytest.raises(NoBoardFound, match=r"^a path is partly drawn .* which end is its head.*undo the path"):
        parse(image)


@quick
@given(rows=st.integers(4, 8), cols=st.integers(4, 8), seed=st.integers(0, 10_000), marked=st.booleans())
def test_a_level_clear_popup_over_the_board_is_refused(rows, cols, seed, marked):
    board = level(rows, cols, seed)
    image, _ = (render_marked if marked else render_phone)(board, width=720, height=1280, seed=seed)
    assert outcome(level_clear(image, seed), None) == "refused"


def test_two_marked_cells_are_refused():
    board = Board.from_text("S###/####/##.#")
    image, truth = render_marked(board, width=720, height=1280)
    second, _ = render_marked(Board.from_text("####/####/##.S"), width=720, height=1280)
    x, y = (round(v) for v in truth.cells[2 * board.cols + 3])
    half = round(truth.pitch / 2)
    image[y - half:y + half, x - half:x + half] = second[y - half:y + half, x - half:x + half]
    with pytest.raises(NoBoardFound, match="2 cells differ"):
        parse(image)


@pytest.mark.parametrize("text", ["S#.###/######/######/###.##/#.####",     # parity: 13 dark, 15 light
                                  ".####/.###./#####/#.##S"])               # two dead ends, each the last cell
@pytest.mark.parametrize("marker", MARKERS)
def test_a_grid_with_one_cell_apart_but_no_path_is_refused(text, marker):
    """Where no cat marks the start, alike squares with one apart are also lights-out
    boards, menus of tiles, other games: such a grid is a level only when a path from the
    marked cell visits every cell, as every level's does; else it is refused saying why."""
    board = Board.from_text(text.replace("/", "\n"))
    assert not solve(board).solved
    image, _ = render_marked(board, width=720, height=1280, marker=marker)
    with pytest.raises(NoBoardFound, match="no path from it visits every cell"):
        parse(image)


# ---------------------------------------------------------------------------- cells of a colour

COLOURED = ["mint-square-colour", "ink-square-colour", "sand-square-colour", "cocoa-square-colour",
            "neon-square-colour", "mint-dot-ring"]


@pytest.mark.parametrize("name", COLOURED)
def test_cells_of_a_colour_read_with_no_profile(name):
    """Other apps draw their cells in a colour (green, orange, brown, ...) where this game's
    are grey: with no profile, the most common saturated colours are tried as the cells'."""
    image, truth = render_look(level(6, 5, 7), LOOKS[name], 720, 1280, seed=7)
    found = parse(reencode(image, 80))
    assert text(found) == truth.board
    assert np.abs(np.array(found.cells) - np.array(truth.cells)).max() < 0.05 * truth.pitch


@quick
@given(look=st.sampled_from(sorted(LOOKS)),
       rows=st.integers(3, 8), cols=st.integers(3, 7), seed=st.integers(0, 10_000),
       quality=st.none() | st.integers(60, 95))
def test_looks_never_met_read_right_or_are_refused(look, rows, cols, seed, quality):
    """The zoo's 50 looks (cells as squares, dots, rings, outlines, ruled grids; starts of
    any shape or only a colour), none of them the game's: with no profile each reads right
    or is refused, never as another board."""
    image, truth = render_look(level(rows, cols, seed), LOOKS[look], 720, 1280, seed=seed)
    outcome(reencode(image, quality) if quality else image, truth.board)


# ---------------------------------------------------------------------------- looks read by their classes of places

FAR_LOOKS = ["navy-ring-letter",       # rings on navy, an S in the start ring
             "rose-ring-letter",       # white rings on a pale page whose gradient nearly reaches white
             "mint-outline-star",      # squares' outlines, a star on the start
             "neon-outline-star",      # outlines, holes drawn as squares of their own colour
             "paper-ruled-dot",        # a ruled grid with no gaps, holes filled pale, a dot on the start
             "sky-ruled-dot"]


@pytest.mark.parametrize("name", FAR_LOOKS)
def test_rings_outlines_and_ruled_grids_read_with_no_profile(name):
    """Cells that are no filled squares with gaps between them (rings, outlines, a ruled
    grid), starts marked by any shape: the lattice of the blobs with what they enclose, and
    cells, holes and the start as the classes of the places on it."""
    image, truth = render_look(level(6, 5, 7), LOOKS[name], 720, 1280, seed=7)
    found = parse(reencode(image, 80))
    assert text(found) == truth.board
    assert np.abs(np.array(found.cells) - np.array(truth.cells)).max() < 0.05 * truth.pitch


def test_outlines_with_holes_drawn_in_a_colour_are_not_read_the_other_way_round():
    """The holes drawn as filled squares make a lattice of squares too: read as cells, the
    outlined cells round them passed for holes and the star for a cat (a wrong board)."""
    board = Board.from_text("######/######/####../###S#./#...##/#....#/##...#/.#####".replace("/", "\n"))
    image, truth = render_look(board, LOOKS["sky-outline-star"], 720, 1499, seed=0)
    assert outcome(image, truth.board) == "right"


@pytest.mark.parametrize("name, depth, dim", [("neon-outline-star", 0.45, 0.5), ("cocoa-dot-ring", 0.33, 0.45)])
def test_a_shade_over_rings_dots_and_outlines_reads_right_or_is_refused(name, depth, dim):
    """A notification shade across the top rows of a look read by its classes: a row in
    another shade is no row of holes."""
    board = level(7, 6, 11)
    image, truth = render_look(board, LOOKS[name], 720, 1280, seed=3)
    outcome(dim_top(image, depth, dim), truth.board)


@pytest.mark.parametrize("name", ["navy-ring-letter", "paper-ruled-dot", "mint-outline-star"])
def test_a_path_partly_drawn_or_a_popup_over_a_far_look_is_refused(name):
    board = level(6, 5, 7)
    image, truth = render_look(board, LOOKS[name], 720, 1280, seed=7)
    path = [tuple(p) for p in solve(board).solution]
    drawn = image.copy()
    draw_band(drawn, [truth.cells[r * board.cols + c] for r, c in path[:5]], 0.3 * truth.cell, (250, 120, 60))
    assert outcome(drawn, None) == "refused"
    assert outcome(level_clear(image, 2), None) == "refused"
