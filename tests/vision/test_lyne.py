"""LYNE vision: the real captures and sprites, rendered scenes in every palette, size,
desktop and half-drawn state, geometry, and refusals (other games, empty screens)."""
from __future__ import annotations

import random
from pathlib import Path

import cv2
import numpy as np
import pytest
from hypothesis import HealthCheck, example, given, settings
from hypothesis import strategies as st

from puzzlepilot.scenes.lyne import (PALETTES, Play, Truth, board_box, busy_desktop, gif_frame, half_drawn, jpeg,
                                     mid_play, on_desktop, pointer, render, small_crop)
from solvers.lyne import Board, generate
from tests.helpers import text
from vision.common import NoBoardFound
from vision.lyne import Node, Refusal, _settled, classify, parse, segment

ROOT = Path(__file__).resolve().parents[2]
REAL = ROOT / ".." / "shared" / "real"
LYNE = REAL / "lyne"
needs_real = pytest.mark.skipif(not LYNE.is_dir(), reason="real screenshots not present")

REAL_LEVELS = {"lyner_a03.png": "T.T/ttt", "lyner_a17.png": "TD/2d/TD", "lyner_b25.png": "TSD/2S2/tsd/D2T"}
# 240x240 frames of Steam GIFs: mid-play (a finished path, one half drawn, the pointer), unsolved
GIF_FRAMES = {"steam_gifa_f130.png": ".d./dTD/TDt/.t.", "steam_gifb_f000.png": "TtD/D3d/t2T"}
ORIGINAL_BG = np.array([154, 189, 121], np.int16)   # BGR of the default palette's background


# ---------------------------------------------------------------------------- real captures

@needs_real
@pytest.mark.parametrize("name", sorted(REAL_LEVELS))
def test_real_captures_read_exactly(name):
    found = parse(cv2.imread(str(LYNE / name)))
    assert found.game == "lyne" and text(found) == REAL_LEVELS[name]
    assert found.confidence >= 0.9


@needs_real
@pytest.mark.parametrize("name", sorted(REAL_LEVELS))
def test_real_captures_cut_inside_the_frame_still_read(name):
    # full screen without the border: no frame colour to check terminal centres against
    found = parse(cv2.imread(str(LYNE / name))[8:472, 8:632])
    assert text(found) == REAL_LEVELS[name]


@needs_real
@pytest.mark.parametrize("name", sorted(GIF_FRAMES))
def test_gif_frames_of_the_game_read_exactly_while_it_is_played(name):
    # f130: the triangles' path finished (cream double lines, cream rings), the diamonds'
    # half drawn as a single dark line as wide as a fifth of the opening's old bound
    # allowed, the pointer at its head; the line joined three diamonds into one blob
    assert text(parse(cv2.imread(str(LYNE / name)))) == GIF_FRAMES[name]


def capture_moment() -> tuple[np.ndarray, Truth]:
    """The moment of ``steam_gifa_f130.png`` rendered as the GIF shows it: the level in a
    640x480 window, the triangles' path finished, the diamonds' drawn from the right
    terminal through the two ordinary diamonds 0.4 of the way on to the lower terminal,
    cut to 240x240 around the board at the capture's pitch (57 px), the pointer just past
    the path's head, 256 dithered GIF colours."""
    board = Board.from_text(".d./dTD/TDt/.t.")
    play = Play({"t": [(1, 1), (2, 2), (3, 1), (2, 0)]}, ("d", [(1, 2), (0, 1), (1, 0)]), (2, 1), 0.4)
    image, truth = render(board, PALETTES["original"], 640, 480, play=play)
    side = 240 * truth.pitch / 57
    xs, ys = [x for x, _ in truth.cells], [y for _, y in truth.cells]
    x, y = (min(xs) + max(xs) - side) / 2, (min(ys) + max(ys) - side) / 2 + 2
    crop, truth = small_crop(image, truth, (round(x), round(y), round(side), round(side)), side=240, quality=None)
    hx, hy = play.head(truth, board.cols)
    pointer(crop, (hx + 8, hy + 7), 0.16 * truth.pitch)
    return gif_frame(crop, 256), truth


@needs_real
def test_the_rendered_moment_looks_like_the_real_gif_frame_and_reads_alike():
    real = cv2.imread(str(LYNE / "steam_gifa_f130.png")).astype(np.int16)
    image, truth = capture_moment()
    assert image.shape == real.shape and text(parse(image)) == truth.board == GIF_FRAMES["steam_gifa_f130.png"]
    # at the best shift of a few pixels, most pixels within a few levels (the capture's
    # darker patches under the board, edges and the pointer differ)
    image = image.astype(np.int16)
    diffs = [np.abs(real[10:230, 10:230] - image[10 + dy:230 + dy, 10 + dx:230 + dx]).max(axis=2)
             for dx in range(-3, 4) for dy in range(-3, 4)]
    best = min(diffs, key=lambda d: float((d > 40).mean()))
    assert np.median(best) <= 3 and (best > 40).mean() < 0.10


@needs_real
def test_real_b25_cells_sit_on_the_node_centres():
    found = parse(cv2.imread(str(LYNE / "lyner_b25.png")))
    assert found.geometry.pitch == pytest.approx(109, abs=3)
    x, y = found.cells[1 * 3 + 1]          # the terminal square in the middle of row 1
    assert (x, y) == pytest.approx((320, 185), abs=4)
    assert len(found.cells) == 12


@needs_real
@pytest.mark.parametrize("name, kind, terminal, holes", [
    ("sprite_tri.png", "triangle", False, 0), ("sprite_tri_s.png", "triangle", True, 0),
    ("sprite_dia.png", "diamond", False, 0), ("sprite_dia_s.png", "diamond", True, 0),
    ("sprite_rect.png", "square", False, 0), ("sprite_rect_s.png", "square", True, 0),
    ("sprite_polygon_2.png", "hub", False, 2), ("sprite_polygon_3.png", "hub", False, 3),
    ("sprite_polygon_4.png", "hub", False, 4),
])
def test_real_sprites_are_told_apart_by_outline_ring_and_holes(name, kind, terminal, holes):
    sprite = cv2.imread(str(LYNE / name))
    h, w = sprite.shape[:2]
    canvas = np.empty((h * 3, w * 3, 3), np.uint8)
    canvas[:] = ORIGINAL_BG.astype(np.uint8)
    canvas[2 * h + 4:, :] = (164, 196, 137)    # a band of the faint diamonds' colour, as around any board
    canvas[h:2 * h, w:2 * w] = sprite
    fg, colours = segment(canvas, ORIGINAL_BG, np.array([223, 241, 233], np.int16))
    nodes = classify(canvas, fg, colours)
    assert len(nodes) == 1
    node = nodes[0]
    assert (node.kind, node.terminal, node.holes) == (kind, terminal, holes)


# ---------------------------------------------------------------------------- rendered scenes

@pytest.mark.parametrize("palette", sorted(PALETTES))
def test_every_palette_reads_exactly(palette):
    board, _ = generate(4, 5, random.Random(len(palette)), hubs=3)
    image, truth = render(board, PALETTES[palette], 800, 600)
    assert text(parse(image)) == truth.board


@pytest.mark.parametrize("size", [(640, 480), (1024, 768), (1920, 1080), (2560, 1440)])
def test_window_sizes_read_exactly_and_cells_match_the_drawing(size):
    board, _ = generate(5, 6, random.Random(size[0]), hubs=4)
    image, truth = render(board, PALETTES["deep space"], *size)
    found = parse(image)
    assert text(found) == truth.board
    for (x, y), (tx, ty) in zip(found.cells, truth.cells):
        assert abs(x - tx) < 0.08 * truth.pitch and abs(y - ty) < 0.08 * truth.pitch
    assert found.geometry.pitch == pytest.approx(truth.pitch, rel=0.03)


@pytest.mark.parametrize("seed", range(4))
def test_small_window_on_a_desktop_with_a_title_bar_reads_exactly(seed):
    rng = random.Random(seed)
    board, _ = generate(rng.randint(3, 6), rng.randint(3, 8), rng, hubs=2)
    window, truth = render(board, PALETTES[sorted(PALETTES)[seed % len(PALETTES)]], 640, 480)
    image, truth = on_desktop(window, truth, 1920, 1080, (200 + 100 * seed, 150), seed=seed)
    found = parse(jpeg(image))
    assert text(found) == truth.board
    x, y = found.cells[0]
    assert abs(x - truth.cells[0][0]) < 0.1 * truth.pitch and abs(y - truth.cells[0][1]) < 0.1 * truth.pitch


@pytest.mark.parametrize("seed", range(4))
def test_half_drawn_paths_and_filled_holes_still_read_as_the_level(seed):
    rng = random.Random(100 + seed)
    board, answer = generate(4, 5, rng, hubs=3)
    image, truth = render(board, PALETTES[["original", "deep space"][seed % 2]], 1024, 768,
                          drawn=half_drawn(board, answer, rng))
    assert text(parse(image)) == truth.board


@settings(max_examples=15, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(seed=st.integers(0, 10_000), rows=st.integers(3, 6), cols=st.integers(3, 8),
       palette=st.sampled_from(sorted(PALETTES)),
       size=st.sampled_from([(640, 480), (800, 600), (1280, 720), (1920, 1080)]),
       on_a_desktop=st.booleans(), as_jpeg=st.booleans())
# issue 4: JPEG blur around small squares once read as a terminal ring with no cream centre
@example(seed=191, rows=6, cols=3, palette="deep space", size=(640, 480), on_a_desktop=True, as_jpeg=True)
# five moonbase hubs showed more of the hub's colour than of the faint diamonds: taken for
# them, every hub dropped out and its place read as empty
@example(seed=129, rows=3, cols=4, palette="moonbase", size=(640, 480), on_a_desktop=False, as_jpeg=False)
def test_any_generated_level_in_any_palette_and_size_reads_exactly(seed, rows, cols, palette, size,
                                                                   on_a_desktop, as_jpeg):
    board, _ = generate(rows, cols, random.Random(seed), hubs=rows * cols // 8)
    image, truth = render(board, PALETTES[palette], *size)
    if on_a_desktop:
        image, truth = on_desktop(image, truth, size[0] + 400, size[1] + 300, (180, 160), seed=seed)
    assert text(parse(jpeg(image) if as_jpeg else image)) == truth.board


def test_a_path_line_along_a_hubs_axis_is_not_read_as_a_filled_hole():
    # a drawn path runs down into a 2-hole hub's centre where another meets it: the lines
    # are as wide as a hole at the place above the centre, but only to one side
    rng = random.Random(3285)
    board, answer = generate(6, 7, rng, hubs=5)
    image, truth = render(board, PALETTES["original"], 640, 480, drawn=half_drawn(board, answer, rng))
    assert text(parse(jpeg(image, 95))) == truth.board


def test_bright_terminal_rings_on_a_dark_background_are_read_inside_the_blur():
    # small deep-space triangles in a JPEG: the blur of the orange ring into the dark
    # background right at the outline has the fill's colour
    rng = random.Random(1366)
    board, _ = generate(7, 8, rng, hubs=7)
    window, truth = render(board, PALETTES["deep space"], 640, 480)
    image, truth = on_desktop(window, truth, 889, 939, (5, 83), seed=1366)
    assert text(parse(jpeg(image, 70))) == truth.board


def test_colours_of_each_shape_are_measured_for_the_hints():
    image, _ = render(Board.from_text("TSD/2S2/tsd/D2T"), PALETTES["original"], 640, 480)
    colours = parse(image).geometry.colours
    assert colours["t"] == pytest.approx([168, 219, 168], abs=6)
    assert colours["s"] == pytest.approx([194, 120, 92], abs=6)


# ---------------------------------------------------------------------------- real capture conditions

def test_the_twelve_palettes_are_the_games():
    assert len(PALETTES) == 12
    assert PALETTES["moonbase"].rings["d"] == (82, 69, 86) and PALETTES["desert"].hub == (86, 86, 86)


@pytest.mark.parametrize("palette", sorted(PALETTES))
def test_every_palette_under_the_games_light_reads_exactly(palette):
    # smoking room's squares, 19 levels from the faint diamonds, are read on the second
    # look with a tighter background tolerance
    board, _ = generate(4, 5, random.Random(7 + len(palette)), hubs=3)
    image, truth = render(board, PALETTES[palette], 1024, 768, light=len(palette))
    assert text(parse(image)) == truth.board


@pytest.mark.parametrize("seed", range(3))
def test_gif_frames_of_lit_screens_read_exactly(seed):
    board, _ = generate(4, 6, random.Random(seed), hubs=3)
    image, truth = render(board, PALETTES[sorted(PALETTES)[seed * 4]], 800, 600, light=seed)
    assert text(parse(gif_frame(image, 128))) == truth.board


@pytest.mark.parametrize("seed", [0, 2])
def test_a_lit_window_beside_a_terminal_on_a_photo_wallpaper_reads_exactly(seed):
    board, _ = generate(4, 5, random.Random(seed), hubs=3)
    window, truth = render(board, PALETTES[sorted(PALETTES)[seed * 4 + 1]], 640, 480, light=seed)
    image, truth = busy_desktop(window, truth, 1920, 1080, (300 + 400 * seed, 200), seed=seed)
    found = parse(gif_frame(image) if seed == 2 else image)
    assert text(found) == truth.board
    x, y = found.cells[0]
    assert abs(x - truth.cells[0][0]) < 0.1 * truth.pitch and abs(y - truth.cells[0][1]) < 0.1 * truth.pitch


@pytest.mark.parametrize("seed", range(3))
def test_a_240_px_jpeg_crop_of_the_board_reads_exactly(seed):
    board, _ = generate(3, 4, random.Random(seed), hubs=2)
    image, truth = render(board, PALETTES[sorted(PALETTES)[seed * 4 + 2]], 800, 600, light=seed)
    crop, truth = small_crop(image, truth, board_box(truth, 0.9), side=240)
    assert text(parse(crop)) == truth.board


@pytest.mark.parametrize("text_board", ["SdD/d2s/DsS", "STD/2t2/STD"])
def test_terminals_whose_ring_merged_into_the_fill_are_read_by_their_cream_centre(text_board):
    # a GIF palette of few colours can map the ring and the fill to one colour; a
    # triangle's cream centre sits above its inscribed circle's middle
    from dataclasses import replace

    flat = replace(PALETTES["deep space"], rings=dict(PALETTES["deep space"].fills))
    image, truth = render(Board.from_text(text_board), flat, 800, 600, light=5)
    assert text(parse(image)) == truth.board


def test_a_crop_that_cuts_the_board_is_refused():
    image, truth = render(Board.from_text("TSD/2S2/tsd/D2T"), PALETTES["moonbase"], 640, 480, light=3)
    for box in ((260, 0, 380, 480), (0, 0, 640, 300), (150, 130, 340, 350)):
        crop, _ = small_crop(image, truth, box, side=240)
        with pytest.raises(NoBoardFound):
            parse(crop)


def video_frame(image: np.ndarray) -> np.ndarray:
    """An 800x600 screen as a blurred 400x300 JPEG-60 video frame."""
    return jpeg(cv2.GaussianBlur(cv2.resize(image, (400, 300), interpolation=cv2.INTER_AREA), (0, 0), 0.8), 60)


# the property tests of frames after recording losses: a dozen draws, each a few parses
recording_losses = settings(max_examples=12, deadline=None, suppress_health_check=[HealthCheck.too_slow])


def read_or_refused(image: np.ndarray) -> str | None:
    """The board read (rows joined by /), None when refused."""
    try:
        return text(parse(image))
    except NoBoardFound:
        return None


def examples(cases: list[tuple[int, str, str]]):
    """Hypothesis examples (seed, palette, loss) of a property test, in order."""
    def add(test):
        for seed, palette, loss in reversed(cases):
            test = example(seed=seed, palette=palette, loss=loss)(test)
        return test
    return add


def recorded(seed: int, palette: str, loss: str) -> tuple[np.ndarray, Truth]:
    """A lit 800×600 level (half drawn for odd seeds) after one recording loss: a 64-colour
    GIF, a 240 px crop around the board ("cut": into it), or a blurred 400×300 JPEG-60
    video frame; (image, truth)."""
    rng = random.Random(seed)
    board, answer = generate(rng.randint(3, 5), rng.randint(3, 7), rng, hubs=2)
    image, truth = render(board, PALETTES[palette], 800, 600, light=seed,
                          drawn=half_drawn(board, answer, rng) if seed % 2 else None)
    if loss == "gif":
        image = gif_frame(image, 64)
    elif loss in ("crop", "cut"):
        x, y, w, h = board_box(truth, 0.8 if loss == "crop" else -0.2)
        image, truth = small_crop(image, truth, (max(0, x), max(0, y), w, h), side=240)
    else:
        image = video_frame(image)
    return image, truth


@recording_losses
@given(seed=st.integers(0, 10_000), palette=st.sampled_from(sorted(PALETTES)),
       loss=st.sampled_from(["gif", "crop", "cut", "video"]))
# stubs of two path lines gave a hub a triangle's outline: read as an ordinary triangle
@example(seed=329, palette="kind of blue", loss="crop")
# in a GIF the blend of paddlepop's hub and a cream path line is the background's colour:
# the lines through an empty place once passed for an open hole there (3 read as 4)
@example(seed=1, palette="paddlepop", loss="gif")
# a smoking-room square dropped out of the foreground but for a speck of dithering off its
# middle, and its place was left out of the empty places' comparison: read as empty
@example(seed=232, palette="smoking room", loss="gif")
# a path line along a hub's axis with the two blurred diagonals beside it looked like a
# filled hole (2 read as 3, 3 as 4), and blurred filled holes fell just short of one:
# such hole places are refused, not guessed
@example(seed=9999, palette="moonbase", loss="crop")
@example(seed=5161, palette="original", loss="crop")
@example(seed=5287, palette="velvet ice", loss="video")
@example(seed=5397, palette="desert", loss="crop")
# a tight crop showed one empty place, none to compare it with, and a smoking-room square
# there had dropped out of the foreground: read as empty (its place's middle is no faint diamond)
@example(seed=1754, palette="smoking room", loss="crop")
# a line along a hub's axis through a filled hole's place passed for the filled hole where
# the blur left hub colour between its two strands, cutting the line's run short (2 read as 3)
@example(seed=185, palette="smoking room", loss="crop")
# blurred, paddlepop's hub and a cream path line along its axis blend to about the
# background's colour out to the outline: passed for open holes above and below (3 read as 4)
@example(seed=23, palette="paddlepop", loss="video")
# a moonbase diamond's lower half blended into the faint diamond behind it: its outline
# read as a triangle, its grey 33 levels from the triangles' red (within the 40 allowed)
@example(seed=42, palette="moonbase", loss="gif")
@example(seed=42, palette="moonbase", loss="crop")
# path lines beside a hub's axis widened a line's run across the place above the centre
# far past a filled hole's half width, and it passed for one (2 read as 3 and 4): refused
@example(seed=17, palette="electro", loss="crop")
@example(seed=33, palette="paddlepop", loss="video")
# blurred, a cream line down paddlepop's hub axis blends with the hub to near the
# background: a line no wider than itself passed for an open hole above (2 read as 3, 4)
@example(seed=25, palette="paddlepop", loss="video")
# a path turning through a hub's centre left a cream corner at the place below, wide and
# full like a filled hole but standing out from the hub a third as much as its filled
# side holes (3 read as 4)
@example(seed=987, palette="smoking room", loss="crop")
# a filled hole under a line along the axis reached across 0.070 of the hub's width, as
# far as lines alone can, and was read as no hole (3 read as 2); it stood out from the hub
# half as much as the filled side holes (lines a third): such places are refused
@example(seed=163, palette="stone in focus", loss="crop")
# one line down into a moonbase hub's centre, blurred in a 240 px crop, as wide as a filled
# hole and 0.64 as strong as the one filled side hole; it kept its width farther out, as a
# hole does not (2 read as 3)
@example(seed=629, palette="moonbase", loss="crop")
# a path turning through a tangerine hub's centre, blurred in a 240 px crop: its corner at
# the place below stood out from the hub under half as much as the filled side holes (3 read as 4)
@example(seed=823, palette="tangerine", loss="crop")
def test_lit_screens_after_recording_losses_read_exactly_or_are_refused(seed, palette, loss):
    image, truth = recorded(seed, palette, loss)
    found = read_or_refused(image)
    assert found is None or loss != "cut" and found == truth.board


def playing(seed: int, palette: str, loss: str) -> tuple[np.ndarray, Truth]:
    """A 3-5 x 3-6 level mid-play in an 800x600 window (lit for odd seeds): some paths
    finished, one being drawn, the pointer (0.1-0.3 of a pitch tall) at its head or over a
    node, then one loss: none, a 128-colour GIF frame, a 240 px crop of the board as a GIF
    frame (as ``steam_gifa_f130.png``) or a blurred 400x300 JPEG-60 video frame."""
    rng = random.Random(seed)
    board, answer = generate(rng.randint(3, 5), rng.randint(3, 6), rng, hubs=rng.randint(0, 3))
    play = mid_play(board, answer, rng)
    image, truth = render(board, PALETTES[palette], 800, 600, play=play, light=seed if seed % 2 else None)
    x, y = play.head(truth, board.cols)
    if rng.random() < 0.4:
        r, c = rng.choice(board.nodes())
        x, y = truth.cells[r * board.cols + c]
    pointer(image, (x + rng.uniform(-0.2, 0.2) * truth.pitch, y + rng.uniform(-0.2, 0.2) * truth.pitch),
            rng.uniform(0.1, 0.3) * truth.pitch)
    if loss == "gif":
        image = gif_frame(image, 128)
    elif loss == "crop":
        x, y, w, h = board_box(truth, rng.uniform(0.6, 1.0))
        image, truth = small_crop(image, truth, (max(0, x), max(0, y), w, h), side=240, quality=None)
        image = gif_frame(image, 256)
    elif loss == "video":
        image = video_frame(image)
    return image, truth


@recording_losses
@given(seed=st.integers(0, 10_000), palette=st.sampled_from(sorted(PALETTES)),
       loss=st.sampled_from(["none", "gif", "crop", "video"]))
# the game's lines mid-play are wider than the double lines of the cream look: a path being
# drawn (a single line in its shape's colour, strong as a hole it fills) down a hub's axis,
# or a finished double line there beside a diagonal, passed for a filled hole (2 read as 3,
# 3 as 4; the old vision also read 2 as 4 in 184); and a finished double line alone down a
# hub's axis in a 240 px GIF crop stood out from the hub 0.68 as much as the filled side
# holes and passed for a filled hole (796: 2 read as 3)
# a hub crossed by path lines read as a diamond of the hubs' colour, 38 levels off the
# diamonds' (356: 2 read as d, shown once the hub in doubt beside it was settled); the
# pointer over a hub's place above, at the head of a path being drawn into it, passed for a
# filled hole (1577: 2 read as 3; the level read has no solution)
@examples([(9, "tangerine", "none"), (49, "desert", "none"), (95, "velvet ice", "video"), (184, "moonbase", "video"),
           (447, "kind of blue", "gif"), (454, "tulip", "gif"), (796, "moonbase", "crop"), (356, "stone in focus", "none"),
           (1577, "original", "none")])
def test_frames_of_a_level_being_played_read_exactly_or_are_refused(seed, palette, loss):
    image, truth = playing(seed, palette, loss)
    assert read_or_refused(image) in (None, truth.board)


@pytest.mark.parametrize("seed, palette, loss", [
    # the hub failed its hole check and, covering its square, was read again as a square:
    # refused as "squares of different colours"
    (145, "original", "crop"),
    # the tight second look, or a wallpaper's area, said "a blob ... that is no LYNE node"
    (101, "paddlepop", "crop"),
    # ((5, "smoking room", "video") was one too: its hub's undecided place below now
    # follows from the place above, the hub reads 3, right, and a terminal refuses the frame)
])
def test_a_frame_refused_for_a_hubs_doubtful_hole_says_so(seed, palette, loss):
    # the property test's frames: the reason reported is the one that decided the refusal
    image, _ = recorded(seed, palette, loss)
    with pytest.raises(NoBoardFound, match=r"^a hub at .* whose (up|down) hole is not told apart from path lines$"):
        parse(image)


@pytest.mark.parametrize("seed, palette, loss", [
    # a path line along the hub's axis leaves the place below undecided, and the place
    # above shows no hole: the game lays holes out above first, so there is none below
    (1, "desert", "gif"), (10, "tulip", "crop"), (45, "tangerine", "gif"),
    # the place above undecided under a line, an open hole below: there is one above too
    (25, "desert", "gif"),
])
def test_a_hole_place_under_a_path_line_follows_from_the_other_place(seed, palette, loss):
    # the property test's frames mid-play, once refused ("... hole is not told apart
    # from path lines"): read, and right
    image, truth = playing(seed, palette, loss)
    assert read_or_refused(image) == truth.board


@pytest.mark.parametrize("seed, palette, loss", [
    (0, "deep space", "none"), (20, "stone in focus", "none"), (113, "original", "gif"), (6, "paddlepop", "crop"),
    (59, "velvet ice", "video"),
    # blurred, the hub covered its square like a square, and with a place in doubt it was read
    # as a square, of a colour no other square has (refused): read as the hub again, settled
    (11, "velvet ice", "video"), (107, "velvet ice", "video"), (131, "velvet ice", "video"),
])
def test_a_hub_whose_hole_path_lines_hide_is_settled_by_the_levels_rules(seed, palette, loss):
    # the property test's frames mid-play, once refused ("a hub ... whose up hole is not told
    # apart from path lines"): of the counts the hub may have, one alone makes a level with
    # a solution, and the game's levels all have one
    image, truth = playing(seed, palette, loss)
    assert read_or_refused(image) == truth.board


def test_two_hubs_in_doubt_may_each_be_a_hole_short():
    # a property test's frame (seeds beyond 1000, as midplay2's sweep drew them), read wrong:
    # two crossing lines of the path being drawn at a hub's upper hole place passed for a
    # filled hole (2 read as 3, with its lower hole in doubt: 3 or 4), and the hub below, in
    # doubt too, was settled 3 as 2 to match; each doubted hub may now be a hole short, and
    # two sets of counts make levels with a solution: refused
    image, truth = playing(1598, "electro", "crop")
    assert read_or_refused(image) in (None, truth.board)


@pytest.mark.parametrize("seed, palette, loss", [(9491, "kind of blue", "gif"), (1598, "electro", "crop")])
def test_a_hole_place_under_a_cream_line_along_the_axis_is_in_doubt(seed, palette, loss):
    # frames once read wrong: a cream line running along a hub's axis hides a filled hole
    # there (cream on cream): 3 read as 2 (9491); lines between two hubs one above the
    # other, both in doubt, passed for a filled hole at another place, 2 read as 3 with
    # the hub below settled to match (1598). Either count makes a level: refused
    image, truth = playing(seed, palette, loss)
    assert read_or_refused(image) in (None, truth.board)


@pytest.mark.parametrize("seed, palette, loss", [(63, "kind of blue", "video"), (259, "smoking room", "video"),
                                                  (140, "stone in focus", "none")])
def test_a_path_band_joining_near_nodes_is_opened_away_on_a_last_look(seed, palette, loss):
    # a finished path's double line blurred into a band a fifth of a node wide joined near
    # nodes into one blob ("a blob ... that is no LYNE node", "blobs of unequal sizes")
    image, truth = playing(seed, palette, loss)
    assert read_or_refused(image) == truth.board


@pytest.mark.parametrize("seed, palette, loss", [
    # a path line along a hub's axis covers the middle of its open hole above: the background
    # shows beside the line, on one side or both, as wide as the hole's side (refused: "a hub
    # ... whose up hole is not told apart from path lines")
    (184, "moonbase", "none"), (248, "stone in focus", "none"), (321, "tangerine", "gif"), (417, "tangerine", "gif"),
    # an ordinary triangle of a finished path (a cream ring round it) that the unbounded
    # opening rounded filled two thirds of its box with four corners: read as a square
    # ("squares of different colours")
    (3, "kind of blue", "video"), (199, "smoking room", "video"), (305, "original", "gif"), (410, "electro", "crop"),
    (479, "velvet ice", "video"),
    # where a path line meets the ring round a node a knob is left on it, and the blob fit no
    # node's outline ("a blob ... that is no LYNE node"): opened a third of a node wide on its
    # own, it is the node
    (127, "smoking room", "video"), (165, "tangerine", "gif"), (115, "smoking room", "video"),
])
def test_frames_once_refused_for_path_lines_over_nodes_are_read(seed, palette, loss):
    image, truth = playing(seed, palette, loss)
    assert read_or_refused(image) == truth.board


def test_a_hub_in_doubt_is_settled_only_when_the_other_counts_have_no_solution():
    hub = Node("hub", 0, 0, 10, holes=2, counts=(2, 3), unsure="a hub at (1, 1) whose up hole is not told apart")
    # a 3 there has no solution, a 2 has: the level is the 2
    assert _settled(Board.from_text("T.D/t2d/T.D"), {(1, 1): hub}).to_text() == "T.D\nt2d\nT.D"
    # both have one (the level is a 3): refused, the hub named
    with pytest.raises(Refusal, match=r"^a hub at \(1, 1\) whose up hole .*either count"):
        _settled(Board.from_text("STt/s2T/SDD"), {(1, 1): hub})


def test_a_board_read_with_no_solution_is_refused():
    # the pointer over a hub's place above passed for a filled hole (2 read as 3): the
    # level read has no solution, and the game's levels all have one; the frame is refused
    # or, the place in doubt under the pointer and the path being drawn, read as the level
    image, truth = playing(1577, "original", "none")
    assert read_or_refused(image) in (None, truth.board)
    with pytest.raises(Refusal, match="no solution .*the mouse pointer"):
        _settled(Board.from_text("T2T"), {})


def test_a_hub_read_as_a_shape_of_the_hubs_colour_is_refused():
    # stone in focus: path lines along a hub's axis and to its right gave it a diamond's
    # outline, its colour 38 levels off the diamonds' and 0 off the other hubs' (2 read as d)
    image, _ = playing(356, "stone in focus", "none")
    with pytest.raises(NoBoardFound, match="nearer the colour of the hubs"):
        parse(image)


def test_an_open_hole_under_a_path_line_along_a_hubs_axis_is_not_missed():
    # a small lit tulip window on a busy desktop, a GIF frame: a path runs down a 4-hole
    # hub's axis over its open lower hole, and between the line's two strands the blend of
    # cream and the purple background is the hub's pink; the hole showed only beside the
    # line, and was read as none (4 read as 3)
    rng = random.Random(50_214)
    rows, cols, hubs = rng.randint(3, 6), rng.randint(3, 8), rng.randint(1, 3)
    board, answer = generate(rows, cols, rng, hubs=hubs)
    rng.choice([0, 1, 2]), rng.choice([0, 1, 2, 3]), rng.random(), rng.random()   # the sweep's draws of sizes
    window, truth = render(board, PALETTES["tulip"], 640, 360, drawn=half_drawn(board, answer, rng), light=214)
    image, truth = busy_desktop(window, truth, 1600, 900, (708, 340), seed=214)
    try:
        found = text(parse(gif_frame(image, 256)))
    except NoBoardFound:
        return
    assert found == truth.board


def test_a_weak_cream_place_in_a_small_blurred_half_drawn_frame_is_not_a_filled_hole():
    # a lit moonbase level drawn at 0.47x, blurred and saved as JPEG 62: path lines through
    # a 2-hole hub's centre leave a cream patch at the place above, as wide as a filled hole
    # but standing out from the hub under half as much as the filled side holes (2 read as 3)
    rng = random.Random(90_844)
    rows, cols, hubs = rng.randint(3, 6), rng.randint(3, 8), rng.randint(1, 3)
    board, answer = generate(rows, cols, rng, hubs=hubs)
    rng.choice([640, 800, 1024, 1280]), rng.random()   # the sweep's draws of the window's size: 640x480
    drawn = half_drawn(board, answer, rng)
    rng.random()                                        # lit: yes
    image, truth = render(board, PALETTES["moonbase"], 640, 480, drawn=drawn, light=844)
    scale = rng.uniform(0.4, 2.0)                       # 0.469
    image = cv2.resize(image, None, fx=scale, fy=scale, interpolation=cv2.INTER_AREA)
    rng.random()                                        # blurred: yes
    image = cv2.GaussianBlur(image, (0, 0), rng.uniform(0.3, 1.2))
    try:
        found = text(parse(jpeg(image, rng.randint(35, 95))))
    except NoBoardFound:
        return
    assert found == truth.board


def captured(seed: int) -> tuple[np.ndarray, Truth]:
    """A level mid-play as players capture it (the sweep of issue 29's third pass): a window
    of 640x480 to 1280x800, lit for some seeds, the pointer at the path's head or over a
    node (or none), palette ``seed % 12``, then a loss ``seed // 12 % 7``: none, a GIF frame,
    scaled to 0.4-1, scaled as a GIF frame, scaled as JPEG 50-90, a 200-320 px crop of
    the board as a GIF frame or JPEG, a blurred 0.4-0.6 JPEG video frame."""
    rng = random.Random(seed * 7919 + 13)
    palette, loss = sorted(PALETTES)[seed % 12], seed // 12 % 7
    board, answer = generate(rng.randint(3, 5), rng.randint(3, 6), rng, hubs=rng.randint(0, 3))
    play = mid_play(board, answer, rng)
    width, height = rng.choice([(640, 480), (800, 600), (1024, 768), (1280, 720), (1280, 800)])
    image, truth = render(board, PALETTES[palette], width, height, play=play, light=seed if rng.random() < 0.5 else None)
    x, y = play.head(truth, board.cols)
    draw = rng.random()
    if draw < 0.3:
        x, y = truth.cells[np.ravel_multi_index(rng.choice(board.nodes()), (board.rows, board.cols))]
    if draw < 0.9:
        pointer(image, (x + rng.uniform(-0.25, 0.25) * truth.pitch, y + rng.uniform(-0.25, 0.25) * truth.pitch),
                max(12, rng.uniform(0.1, 0.3) * truth.pitch))
    scale = rng.uniform(0.4, 1.0)
    if loss in (2, 3, 4):
        image = cv2.resize(image, (round(image.shape[1] * scale), round(image.shape[0] * scale)),
                           interpolation=cv2.INTER_AREA)
    if loss in (1, 3):
        image = gif_frame(image, rng.choice([64, 128, 256] if loss == 1 else [128, 256]))
    elif loss == 4:
        image = jpeg(image, rng.randint(50, 90))
    elif loss == 5:
        x, y, w, h = board_box(truth, rng.uniform(0.6, 1.0))
        image, truth = small_crop(image, truth, (max(0, x), max(0, y), w, h), side=rng.choice([200, 240, 320]),
                                  quality=None)
        image = gif_frame(image, 256) if rng.random() < 0.6 else jpeg(image, rng.randint(60, 90))
    elif loss == 6:
        k = rng.uniform(0.4, 0.6)
        small = cv2.resize(image, (round(image.shape[1] * k), round(image.shape[0] * k)), interpolation=cv2.INTER_AREA)
        image = jpeg(cv2.GaussianBlur(small, (0, 0), rng.uniform(0.5, 0.9)), rng.randint(50, 75))
    return image, truth


def test_a_hub_under_a_path_being_drawn_read_as_a_shape_of_its_colour_is_refused():
    # a 200 px GIF crop, stone in focus: the path being drawn runs into a 2-hole hub from
    # above and out to the right, and the hub read as a diamond 30 levels off the diamonds'
    # colour and 7 off the hubs' (2 read as d; the old bound asked 25 levels nearer)
    image, truth = captured(21404)
    assert read_or_refused(image) in (None, truth.board)


@pytest.mark.parametrize("seed", [20244, 20254, 20179, 20636])
def test_the_hubs_colour_beside_a_line_along_its_axis_is_no_hole(seed):
    # frames once refused ("a hub ... whose up hole is not told apart from path lines
    # (either count makes a level with a solution)"): a line along the axis covers the
    # place's middle, and beside it, where a hole's diamond would reach, is the hub's colour
    image, truth = captured(seed)
    assert read_or_refused(image) == truth.board


def test_a_hub_read_with_fewer_holes_than_paths_seen_passing_through_it_is_refused():
    # a blurred video frame read wrong: a 3-hole hub with six path lines out of it (three
    # passes, each fills a hole) read as a sure 2 (the board read has a solution too)
    image, truth = playing(795, "kind of blue", "video")
    assert read_or_refused(image) in (None, truth.board)


def test_lines_seen_out_of_a_hub_do_not_settle_its_doubt():
    # the path lines seen out of a hub once also ruled out its lower counts when in doubt:
    # something along the diagonal from a 2-hole hub to a square below passed for a path
    # line, the hub had "three passes", and was read as 3 (the fewest holes seen now only
    # refuse a hub read for sure)
    image, truth = playing(2856, "deep space", "none")
    assert read_or_refused(image) in (None, truth.board)


@pytest.mark.parametrize("seed, palette, loss", [(2124, "deep space", "none"), (2319, "kind of blue", "video"),
                                                  (3471, "kind of blue", "video")])
def test_a_hole_place_with_lines_over_it_is_in_doubt_not_read_sure(seed, palette, loss):
    # frames read wrong: the path being drawn leaves a 2-hole hub's centre upward, short of its
    # edge, between lines along both upper diagonals, which widened it to a filled hole's run
    # across (2124: 2 read as 3); in video frames a hub 23-30 pixels wide, its hole above
    # under a cream line along the axis, blended (2319, 3471: 3 read as 2). Such places are
    # in doubt, and these frames refused
    image, truth = playing(seed, palette, loss)
    assert read_or_refused(image) in (None, truth.board)


# ---------------------------------------------------------------------------- refusals

def other_games_images() -> list[Path]:
    found = [p for p in (ROOT / "fixtures").glob("*/*") if p.suffix in (".png", ".jpg") and p.parent.name != "lyne"]
    if REAL.is_dir():
        found += [p for p in REAL.glob("*/*.png") if p.parent.name != "lyne"]
    return sorted(found)


@pytest.mark.parametrize("path", other_games_images(), ids=lambda p: f"{p.parent.name}/{p.name}")
def test_other_games_screens_are_not_claimed(path):
    with pytest.raises(NoBoardFound):
        parse(cv2.imread(str(path)))


def test_background_without_nodes_and_blank_images_are_refused():
    empty, _ = render(Board.from_text("T.T"), PALETTES["original"], 640, 480)
    cv2.rectangle(empty, (100, 100), (540, 400), (154, 189, 121), -1)
    for image in (empty, np.zeros((480, 640, 3), np.uint8), np.full((20, 20, 3), 255, np.uint8)):
        with pytest.raises(NoBoardFound):
            parse(image)


def test_a_board_with_a_shape_missing_a_terminal_is_refused():
    image, _ = render(Board.from_text("TSD/2S2/tsd/D2T"), PALETTES["original"], 640, 480)
    # paint over the terminal square in row 0 with the background
    found = parse(image)
    x, y = found.cells[1]
    half = int(found.geometry.pitch * 0.4)
    cv2.rectangle(image, (int(x) - half, int(y) - half), (int(x) + half, int(y) + half), (154, 189, 121), -1)
    with pytest.raises(NoBoardFound, match="terminal"):
        parse(image)
