"""A style zoo: grid games drawn in looks far from the games', for the learnt calibration.

Each :class:`Look` (one-stroke, 50 in ``LOOKS``) is a palette (light or dark; flat, a
gradient or a texture), a way to draw a cell (a rounded square, a dot, a ring, an outline, a
ruled grid with no gaps; with or without a shadow), a way to draw a hole and a start marker
of any shape or only a colour; ``render`` draws a board in one as a phone capture with a
title and buttons around it and returns the truth (``puzzlepilot.scenes.onestroke.Truth``),
so the scenes' crops and desktops apply. ``others`` makes the pictures a calibration must
read after learning a look from one: other boards, 0.5–2× the size, JPEG 60–95, crops, the
window on a desktop. Each :class:`LyneLook` (56 in ``LYNE_LOOKS``) draws LYNE in a palette,
a node style, a node size and a ground (``render_lyne``, ``lyne_others``). Klotski's looks
(``KLOTSKI_LOOKS``: the Klotski scenes' six styles and 54 of palette × fill × label, gaps or
none, corners, shadows, bevels, strokes; ``render_klotski``, ``klotski_others``) are built
alike. Every picture is drawn from its seed: nothing is stored.
"""
from __future__ import annotations

import itertools
import random
from dataclasses import dataclass
from functools import lru_cache

import cv2
import numpy as np

from puzzlepilot.scenes import klotski as klotski_scene
from puzzlepilot.scenes import lyne as lyne_scene
from puzzlepilot.scenes.onestroke import Truth, crop_board, embed, tight
from puzzlepilot.scenes.paint import bgr, mix, render_desktop, rounded_rect
from solvers.lyne import Board as LyneBoard
from solvers.klotski import Board as KlotskiBoard
from solvers.klotski import Piece, layout
from solvers.lyne import generate as generate_lyne
from solvers.onestroke import Board, generate

RGB = tuple[int, int, int]

PALETTES: dict[str, tuple[RGB, RGB, RGB, RGB]] = {     # background, cell, hole, start (RGB)
    "paper": ((250, 246, 236), (60, 60, 70), (226, 220, 204), (214, 60, 50)),
    "navy": ((28, 34, 58), (200, 200, 205), (44, 52, 80), (150, 40, 160)),
    "mint": ((222, 244, 234), (40, 150, 110), (200, 226, 214), (250, 190, 40)),
    "ink": ((12, 12, 12), (240, 90, 40), (12, 12, 12), (60, 200, 250)),
    "rose": ((234, 230, 240), (255, 255, 255), (150, 70, 190), (250, 200, 210)),
    "slate": ((90, 100, 110), (170, 180, 190), (70, 78, 86), (240, 150, 60)),
    "sand": ((236, 214, 170), (150, 100, 60), (236, 214, 170), (60, 120, 60)),
    "neon": ((20, 0, 40), (0, 255, 170), (40, 10, 70), (255, 0, 140)),
    "cocoa": ((60, 40, 30), (230, 210, 180), (92, 66, 52), (120, 200, 90)),
    "sky": ((200, 225, 250), (255, 255, 255), (120, 160, 210), (250, 120, 60)),
}
SHAPES = ("square", "dot", "ring", "outline", "ruled")
MARKERS = ("colour", "ring", "letter", "star", "dot")


@dataclass(frozen=True)
class Look:
    """How a board is drawn: ``palette`` (``PALETTES``), the cell ``shape``, the start
    ``marker`` (drawn in the start colour on a cell; "colour": the start cell filled in it),
    a vertical ``gradient`` in the background or a ``texture`` (grain and stripes), a
    ``shadow`` under every cell and the cell's share of the pitch."""

    name: str
    palette: str
    shape: str
    marker: str
    gradient: bool = False
    fill: float = 0.86
    texture: bool = False
    shadow: bool = False


def _looks() -> dict[str, Look]:
    """Every palette with shapes and markers in turn: 50 looks, none the game's."""
    looks = {}
    for i, (palette, shape) in enumerate(itertools.product(PALETTES, SHAPES)):
        marker = MARKERS[i % len(MARKERS)]
        name = f"{palette}-{shape}-{marker}"
        looks[name] = Look(name, palette, shape, marker, gradient=i % 3 == 1, fill=(0.86, 0.7, 0.94)[i % 3],
                           texture=i % 6 == 5, shadow=i % 7 == 3)
    return looks


LOOKS = _looks()


def _background(colour: RGB, width: int, height: int, gradient: bool = False, texture: bool = False) -> np.ndarray:
    """The background (BGR) in ``colour``: flat, a vertical ``gradient`` or a ``texture``
    (a fixed grain with faint diagonal stripes, the same in every picture of a look)."""
    back = np.broadcast_to(np.array(bgr(colour), np.float32), (height, width, 3)).copy()
    if gradient:
        back += np.linspace(-18, 18, height, dtype=np.float32)[:, None, None]
    if texture:
        back += _texture(height, width)[..., None]
    return np.clip(back, 0, 255).astype(np.uint8)


@lru_cache(maxsize=8)
def _texture(height: int, width: int) -> np.ndarray:
    """A fixed grain with faint diagonal stripes (float32, read only): made once a size."""
    grain = cv2.GaussianBlur(np.random.default_rng(7).normal(0, 9, (height, width)).astype(np.float32), (0, 0), 1.2)
    yy, xx = np.mgrid[0:height, 0:width]
    return grain + 5 * np.sin((xx + yy) * (2 * np.pi / 11)).astype(np.float32)


def _place(img: np.ndarray, look: Look, x: float, y: float, size: float, color: RGB, back: RGB) -> None:
    """One cell of the look's shape centred at (x, y), ``size`` across."""
    h = size / 2
    thick = max(1, round(size / 12))
    if look.shape == "square":
        rounded_rect(img, x - h, y - h, x + h, y + h, 0.12 * size, color)
    elif look.shape == "dot":
        cv2.circle(img, (round(x), round(y)), round(0.42 * size), bgr(color), -1, cv2.LINE_AA)
    elif look.shape == "ring":
        cv2.circle(img, (round(x), round(y)), round(0.4 * size), bgr(color), thick + 1, cv2.LINE_AA)
    elif look.shape == "outline":
        cv2.rectangle(img, (round(x - h), round(y - h)), (round(x + h), round(y + h)), bgr(color), thick)
    else:               # ruled: the place filled whole; the lines are drawn over the board after
        cv2.rectangle(img, (round(x - h), round(y - h)), (round(x + h), round(y + h)), bgr(color), -1)


def _marker(img: np.ndarray, look: Look, x: float, y: float, size: float) -> None:
    """The start marker over the start's cell."""
    colour = bgr(PALETTES[look.palette][3])
    c, r = (round(x), round(y)), round(0.28 * size)
    if look.marker == "ring":
        cv2.circle(img, c, r, colour, max(2, round(size / 14)), cv2.LINE_AA)
    elif look.marker == "dot":
        cv2.circle(img, c, round(0.18 * size), colour, -1, cv2.LINE_AA)
    elif look.marker == "letter":
        scale = size / 40
        (tw, th), _ = cv2.getTextSize("S", cv2.FONT_HERSHEY_DUPLEX, scale, max(1, round(size / 20)))
        cv2.putText(img, "S", (round(x - tw / 2), round(y + th / 2)), cv2.FONT_HERSHEY_DUPLEX, scale, colour,
                    max(1, round(size / 20)), cv2.LINE_AA)
    elif look.marker == "star":
        angles = np.pi / 2 + np.arange(10) * np.pi / 5
        radii = np.where(np.arange(10) % 2 == 0, r * 1.2, r * 0.5)
        points = np.stack([x + radii * np.cos(angles), y - radii * np.sin(angles)], axis=1)
        cv2.fillPoly(img, [np.round(points).astype(np.int32)], colour, cv2.LINE_AA)


def render(board: Board, look: Look, width: int = 720, height: int = 1280, seed: int = 0) -> tuple[np.ndarray, Truth]:
    """A phone capture of ``board`` drawn in ``look`` (BGR) and the truth it shows."""
    back, cell_colour, hole_colour, start_colour = PALETTES[look.palette]
    rng = np.random.default_rng(seed)
    img = _background(back, width, height, look.gradient, look.texture)
    u = width / 720
    ink = mix(cell_colour, back, 0.3)
    cv2.putText(img, f"LEVEL {int(rng.integers(1, 500))}", (round(40 * u), round(110 * u)), cv2.FONT_HERSHEY_SIMPLEX,
                1.6 * u, bgr(ink), max(1, round(3 * u)), cv2.LINE_AA)
    for k in range(3):
        cv2.circle(img, (round(width - (60 + 90 * k) * u), round(height - 120 * u)), round(32 * u), bgr(ink),
                   max(1, round(4 * u)), cv2.LINE_AA)
    pitch = min(100 * u, 0.86 * width / board.cols, 0.6 * height / board.rows)
    size = pitch * look.fill
    ox = width / 2 - (board.cols - 1) * pitch / 2
    oy = height / 2 - (board.rows - 1) * pitch / 2
    centres = [(ox + c * pitch, oy + r * pitch) for r in range(board.rows) for c in range(board.cols)]
    ruled = look.shape == "ruled"
    if look.shadow and not ruled:       # a soft shadow down and right of every cell
        mask = np.zeros_like(img)
        for (r, c) in board.cells:
            x, y = centres[r * board.cols + c]
            _place(mask, look, x + 0.08 * size, y + 0.1 * size, size, (255, 255, 255), back)
        dark = cv2.GaussianBlur(mask[..., :1].astype(np.float32), (0, 0), max(1.0, size / 25)) / 255
        img[:] = (img * (1 - 0.45 * dark[..., None])).astype(np.uint8)
    for r in range(board.rows):
        for c in range(board.cols):
            x, y = centres[r * board.cols + c]
            if (r, c) in board.cells:
                colour = start_colour if (r, c) == board.start and look.marker == "colour" else cell_colour
                _place(img, look if not ruled else look, x, y, pitch if ruled else size, colour, back)
            elif ruled or look.shape == "outline":
                _place(img, Look("", look.palette, "ruled", ""), x, y, pitch if ruled else size, hole_colour, back)
    if ruled:
        line = bgr(mix(cell_colour, (0, 0, 0), 0.8) if sum(cell_colour) > 380 else mix(cell_colour, (255, 255, 255), 0.8))
        x0, y0 = ox - pitch / 2, oy - pitch / 2
        thick = max(1, round(pitch / 30))
        for c in range(board.cols + 1):
            cv2.line(img, (round(x0 + c * pitch), round(y0)), (round(x0 + c * pitch), round(y0 + board.rows * pitch)), line, thick)
        for r in range(board.rows + 1):
            cv2.line(img, (round(x0), round(y0 + r * pitch)), (round(x0 + board.cols * pitch), round(y0 + r * pitch)), line, thick)
    if look.marker != "colour":
        _marker(img, look, *centres[board.start[0] * board.cols + board.start[1]], size)
    if board.end is not None:       # a marked end: a cross in the start's colour
        x, y = centres[board.end[0] * board.cols + board.end[1]]
        arm, thick = 0.25 * size, max(2, round(size / 12))
        for dx in (-arm, arm):
            cv2.line(img, (round(x - dx), round(y - arm)), (round(x + dx), round(y + arm)), bgr(start_colour), thick,
                     cv2.LINE_AA)
    return img, Truth(board.to_text().replace("\n", "/"), tuple(centres), pitch, size)


def jpeg(img: np.ndarray, quality: int) -> np.ndarray:
    """The picture after a round trip through JPEG at ``quality``."""
    return cv2.imdecode(cv2.imencode(".jpg", img, [cv2.IMWRITE_JPEG_QUALITY, quality])[1], cv2.IMREAD_COLOR)


CALIBRATION = Board.from_text("##S##\n#.###\n#####\n##.##")


def others(look: Look, count: int = 10, width: int = 720) -> list[tuple[str, np.ndarray, str]]:
    """``count`` pictures of other boards in ``look`` (name, BGR, board text): 0.5–2× the
    calibration's width, JPEG at 60–95, crops around the board, the phone on a desktop."""
    out = []
    for i in range(count):
        rng = np.random.default_rng(1000 + i)
        rows, cols = int(rng.integers(3, 9)), int(rng.integers(3, 8))
        board = tight(generate(rows, cols, 50 + i, fill=0.7))
        k = (0.5, 0.75, 1.0, 1.5, 2.0)[i % 5]
        w = round(width * k)
        img, truth = render(board, look, w, round(w * 16 / 9), seed=i)
        what = [f"{w}px"]
        if i % 4 == 1:
            img, truth = crop_board(img, truth, margin=0.8)
            what.append("crop")
        if i % 4 == 3 and k <= 1.0:
            img, truth = embed(img, truth, render_desktop(1366, 1400, i), 200, 40, 1.0)
            what.append("desktop")
        out.append(_other(i, img, what, truth.board))
    return out


def _other(i: int, img: np.ndarray, what: list[str], board: str) -> tuple[str, np.ndarray, str]:
    """The i-th other picture of a look (name, BGR, board text): every second one through
    JPEG at 60–95, named by what was done to it."""
    if i % 2 == 0:
        quality = (60, 70, 80, 95)[i // 2 % 4]
        img = jpeg(img, quality)
        what.append(f"jpeg{quality}")
    return "-".join(what) + f"-{i}", img, board


# ---------------------------------------------------------------------------- LYNE looks

CUSTOM_PALETTES = {     # two palettes the game does not have: ink on paper, and neon on black
    "paper": lyne_scene.Palette((40, 40, 40), (246, 242, 232), (236, 230, 216),
                                {"t": (60, 90, 200), "d": (200, 60, 60), "s": (40, 140, 80)},
                                {"t": (20, 30, 110), "d": (120, 20, 20), "s": (10, 70, 30)}, (150, 150, 150)),
    "neon": lyne_scene.Palette((255, 255, 255), (10, 10, 16), (28, 28, 40),
                               {"t": (255, 60, 200), "d": (60, 255, 120), "s": (60, 200, 255)},
                               {"t": (150, 0, 110), "d": (0, 140, 60), "s": (0, 100, 160)}, (250, 220, 40)),
}
LYNE_STYLES = ("dots", "shapes", "outlines", "icons")
LYNE_SIZES = (1.0, 0.75, 1.25, 0.85, 1.15)
GROUNDS = ("flat", "gradient", "texture")


@dataclass(frozen=True)
class LyneLook:
    """How a LYNE board is drawn: the ``palette`` (the game's twelve or ``CUSTOM_PALETTES``),
    the nodes in a ``style``: ``dots`` (every kind a disc in its colour; a terminal a ring
    round it with a centre in the border's colour; a hub a disc with a hole per count),
    the game's ``shapes``, ``outlines`` (each shape's outline; a terminal's with the shape
    filled small inside; a hub an outlined octagon with a dot per count) or ``icons`` (every
    node a round badge with the shape small inside it; a terminal's badge in its ring colour;
    a hub's badge with a hole per count); the node's size against the game's and the
    background's ``ground``: flat, a vertical gradient or a texture."""

    name: str
    palette: str
    style: str
    node: float = 1.0
    ground: str = "flat"

    @property
    def colours(self) -> lyne_scene.Palette:
        return CUSTOM_PALETTES.get(self.palette) or lyne_scene.PALETTES[self.palette]


def _lyne_looks() -> dict[str, LyneLook]:
    """Every palette (the game's twelve and two of its own) in every style, the node's size
    and the ground in turn: 56 looks."""
    looks = {}
    palettes = [*CUSTOM_PALETTES, *lyne_scene.PALETTES]
    for i, (palette, style) in enumerate(itertools.product(palettes, LYNE_STYLES)):
        node, ground = LYNE_SIZES[i % len(LYNE_SIZES)], GROUNDS[i % len(GROUNDS)]
        name = "-".join([palette.replace(" ", "-"), style] + ([f"x{node:g}"] if node != 1 else [])
                        + ([ground] if ground != "flat" else []))
        looks[name] = LyneLook(name, palette, style, node, ground)
    return looks


LYNE_LOOKS = _lyne_looks()
LYNE_CALIBRATION = LyneBoard.from_text("Tt.D/t.dd/t.d./T.dD")    # a level of set A: no hubs


def _disc(img: np.ndarray, x: float, y: float, radius: float, colour: RGB, thick: int = -1) -> None:
    cv2.circle(img, (round(x * 16), round(y * 16)), round(radius * 16), bgr(colour), thick, cv2.LINE_AA, shift=4)


def _hub_holes(img: np.ndarray, count: int, x: float, y: float, r: float, colour: RGB) -> None:
    """A hub's ``count`` holes (dots) evenly round its middle, ``r`` the hub's radius."""
    for k in range(count):
        angle = np.pi * (2 * k / count + 0.5 + 1 / count)
        _disc(img, x + 0.45 * r * np.cos(angle), y + 0.45 * r * np.sin(angle), 0.17 * r, colour)


def _lyne_node(img: np.ndarray, ch: str, x: float, y: float, pitch: float, look: LyneLook) -> None:
    """One node of ``look`` centred at (x, y)."""
    pal = look.colours
    if look.style == "shapes":
        lyne_scene.draw_node(img, ch, x, y, pitch * look.node, pal)
        return
    r = 0.34 * pitch * look.node
    kind = ch.lower()
    if look.style == "dots":
        if ch.isdigit():
            _disc(img, x, y, r, pal.hub)
            _hub_holes(img, int(ch), x, y, r, pal.background)
        elif ch.isupper():
            _disc(img, x, y, r, pal.rings[kind])
            _disc(img, x, y, 0.7 * r, pal.fills[kind])
            _disc(img, x, y, 0.3 * r, pal.cream)
        else:
            _disc(img, x, y, r, pal.fills[kind])
    elif look.style == "outlines":
        thick = max(1, round(0.16 * r))
        shape = "h" if ch.isdigit() else kind
        colour = pal.hub if ch.isdigit() else pal.rings[kind] if ch.isupper() else pal.fills[kind]
        corners = np.round(np.array(lyne_scene.outline(shape, x, y, 0.9 * r)) * 16).astype(np.int32)
        cv2.polylines(img, [corners], True, bgr(colour), thick, cv2.LINE_AA, shift=4)
        if ch.isdigit():
            _hub_holes(img, int(ch), x, y, r, pal.hub)
        elif ch.isupper():
            lyne_scene.fill_poly(img, lyne_scene.outline(kind, x, y, 0.45 * r), pal.fills[kind])
    else:       # icons: a badge with the shape inside
        badge = pal.hub if ch.isdigit() else pal.rings[kind] if ch.isupper() else mix(pal.faint, pal.cream, 0.5)
        _disc(img, x, y, r, badge)
        if ch.isdigit():
            _hub_holes(img, int(ch), x, y, r, pal.background)
        else:
            lyne_scene.fill_poly(img, lyne_scene.outline(kind, x, y, 0.55 * r),
                                  pal.cream if ch.isupper() else pal.fills[kind])


def render_lyne(board: LyneBoard, look: LyneLook, width: int = 640, height: int = 480,
                seed: int = 0) -> tuple[np.ndarray, lyne_scene.Truth]:
    """A game window of ``board`` drawn in ``look`` (BGR) and the truth it shows: faint
    marks on every place of the lattice across the window, faint lines between
    neighbouring nodes, a level name at the top."""
    pal = look.colours
    img = _background(pal.background, width, height, look.ground == "gradient", look.ground == "texture")
    rows, cols = board.rows, board.cols
    pitch = min(0.8 * width / cols, 0.78 * height / rows, 0.3 * height)
    x0, y0 = width / 2 - pitch * (cols - 1) / 2, height / 2 - pitch * (rows - 1) / 2 + 0.03 * height
    centre = [[(x0 + c * pitch, y0 + r * pitch) for c in range(cols)] for r in range(rows)]
    for r in range(-int(y0 // pitch) - 1, int((height - y0) // pitch) + 2):
        for c in range(-int(x0 // pitch) - 1, int((width - x0) // pitch) + 2):
            cv2.circle(img, (round(x0 + c * pitch), round(y0 + r * pitch)), round(0.3 * pitch), bgr(pal.faint), -1,
                       cv2.LINE_AA)
    for (r, c) in board.nodes():
        for dr, dc in ((0, 1), (1, -1), (1, 0), (1, 1)):
            if 0 <= r + dr < rows and 0 <= c + dc < cols and board.grid[r + dr][c + dc] != ".":
                (ax, ay), (bx, by) = centre[r][c], centre[r + dr][c + dc]
                cv2.line(img, (round(ax), round(ay)), (round(bx), round(by)), bgr(pal.faint), max(1, round(pitch / 40)),
                         cv2.LINE_AA)
    for (r, c) in board.nodes():
        _lyne_node(img, board.grid[r][c], *centre[r][c], pitch, look)
    size = height / 600
    cv2.putText(img, f"LEVEL {np.random.default_rng(seed).integers(1, 99)}", (round(0.04 * width), round(0.07 * height)),
                cv2.FONT_HERSHEY_SIMPLEX, size, bgr(pal.cream), max(1, round(2 * size)), cv2.LINE_AA)
    return img, lyne_scene.Truth(board.to_text().replace("\n", "/"), tuple(p for row in centre for p in row), pitch)


def lyne_others(look: LyneLook, count: int = 10, width: int = 640) -> list[tuple[str, np.ndarray, str]]:
    """``count`` pictures of other LYNE boards of triangles and diamonds in ``look`` (name,
    BGR, board text), every third with hubs (of any count), the others without (as the
    game's first sets): 0.5–2× the calibration's width, JPEG at 60–95, crops around the board."""
    out = []
    for i in range(count):
        rng = random.Random(2000 + i)
        for _ in range(100):        # a board without hubs comes within a few tries
            board, _ = generate_lyne(rng.randint(3, 5), rng.randint(3, 5), rng, shapes="td")
            if not i % 3 or not any(ch.isdigit() for ch in board.to_text()):
                break
        k = (0.5, 0.75, 1.0, 1.5, 2.0)[i % 5]
        w = round(width * k)
        img, truth = render_lyne(board, look, w, round(w * 3 / 4), seed=i)
        what = [f"{w}px"]
        if i % 4 == 1:
            img, truth = lyne_scene.small_crop(img, truth, lyne_scene.board_box(truth, 0.7), side=round(240 * k * 2),
                                               quality=None)
            what.append("crop")
        out.append(_other(i, img, what, truth.board))
    return out


# ---------------------------------------------------------------------------- Klotski

# palettes of Klotski looks (RGB): the page around the board, the frame, the floor, the
# pieces (the target, the tall 2×1, the wide 1×2, the 1×1 soldiers) and the labels' ink
KLOTSKI_PALETTES: dict[str, tuple[RGB, RGB, RGB, tuple[RGB, RGB, RGB, RGB], RGB]] = {
    "walnut": ((236, 224, 200), (96, 58, 30), (58, 36, 20), ((200, 90, 60), (214, 170, 110), (222, 182, 124),
                                                             (230, 196, 140)), (90, 40, 20)),
    "neon": ((14, 14, 20), (60, 60, 76), (0, 0, 0), ((255, 40, 120), (0, 220, 255), (120, 255, 60), (255, 220, 0)),
             (10, 10, 10)),
    "pastel": ((255, 255, 255), (214, 218, 226), (238, 240, 244), ((244, 143, 177), (129, 212, 250),
                                                                   (165, 214, 167), (255, 224, 130)), (60, 60, 80)),
    "forest": ((24, 48, 32), (60, 96, 56), (34, 70, 40), ((250, 240, 200), (226, 214, 170), (226, 214, 170),
                                                          (200, 190, 150)), (40, 70, 40)),
    "ocean": ((16, 30, 64), (40, 70, 120), (24, 52, 96), ((255, 140, 40), (240, 244, 250), (200, 220, 240),
                                                          (160, 190, 230)), (20, 40, 90)),
    "ink": ((250, 250, 250), (20, 20, 20), (250, 250, 250), ((200, 30, 30), (30, 30, 30), (60, 60, 60), (90, 90, 90)),
            (250, 250, 250)),
    "maple": ((200, 160, 110), (120, 80, 46), (176, 132, 84), ((186, 96, 60), (226, 190, 140), (226, 190, 140),
                                                               (232, 200, 152)), (110, 60, 30)),
    "candy": ((255, 214, 232), (170, 60, 150), (96, 40, 110), ((255, 80, 80), (80, 200, 255), (255, 170, 40),
                                                               (140, 240, 140)), (60, 20, 60)),
    "slate": ((120, 128, 136), (80, 86, 94), (96, 102, 110), ((170, 120, 110), (170, 178, 186), (160, 168, 176),
                                                              (186, 192, 200)), (40, 44, 50)),
}
KLOTSKI_FILLS = ("flat", "gradient", "wood", "portrait", "texture", "outline")
KLOTSKI_LABELS = ("none", "number", "name", "letter")
KLOTSKI_LAYOUTS = ("横刀立马", "指挥若定", "兵分三路", "齐头并进", "桃花园中", "左右布兵", "雨声淅沥", "一路顺风")
KLOTSKI_CELL = 80           # px a cell in the picture a look is learnt from


@dataclass(frozen=True)
class KlotskiLook:
    """How a Klotski board is drawn: the ``palette`` (``KLOTSKI_PALETTES``), the pieces'
    ``fill`` (a flat colour, a vertical gradient, wood grain, a portrait in a frame of the
    piece's colour, a speckled texture, or an outline only on the floor), a ``label`` on
    each (a number, a name, a letter), the ``gap`` between pieces and the corners'
    ``radius`` (shares of a cell), a drop ``shadow``, a ``bevel`` (light top and left, dark
    bottom and right), a dark ``stroke`` round each piece and faint ``lines`` on the floor.
    ``scene``: drawn by ``puzzlepilot.scenes.klotski.render`` in that style instead."""

    name: str
    palette: str = "walnut"
    fill: str = "flat"
    label: str = "none"
    gap: float = 0.06
    radius: float = 0.08
    shadow: bool = False
    bevel: bool = False
    stroke: bool = False
    lines: bool = False
    scene: str = ""


def _klotski_looks() -> dict[str, KlotskiLook]:
    """The scenes' six styles, and every palette with every fill, the labels, gaps (none
    among them: a piece then has a stroke or a bevel to part it from its neighbour),
    corners, shadows, bevels, strokes and floor lines in turn: 60 looks."""
    looks = {style: KlotskiLook(style, scene=style)
             for style in ("cartoon", "flat", "wooden", "named", "portrait", "tiles")}
    for i, (palette, fill) in enumerate(itertools.product(KLOTSKI_PALETTES, KLOTSKI_FILLS)):
        gap = (0.0, 0.05, 0.1)[(i + i // 6) % 3]
        bevel = i % 4 == 2 or (gap == 0 and i % 2 == 0)
        look = KlotskiLook(f"{palette}-{fill}-{KLOTSKI_LABELS[i % 4]}" + ("-nogap" if not gap else ""), palette, fill,
                           KLOTSKI_LABELS[i % 4], gap, (0.0, 0.08, 0.22)[i // 3 % 3], shadow=i % 5 in (1, 3), bevel=bevel,
                           stroke=(gap == 0 and not bevel) or i % 7 == 3, lines=i % 6 == 5)
        looks[look.name] = look
    return looks


KLOTSKI_LOOKS = _klotski_looks()


def _klotski_piece(img: np.ndarray, look: KlotskiLook, p: Piece, box: tuple[float, float, float, float], cell: float,
                   is_target: bool, index: int, floor: RGB) -> None:
    """One piece of a generated look in ``box`` (x0, y0, x1, y1)."""
    _, _, _, colours, ink = KLOTSKI_PALETTES[look.palette]
    colour = colours[0] if is_target else {(2, 1): colours[1], (1, 2): colours[2]}.get(p.shape, colours[3])
    x0, y0, x1, y1 = box
    r = look.radius * cell
    if look.shadow:
        d = 0.05 * cell
        rounded_rect(img, x0 + d, y0 + d, x1 + d, y1 + d, r, mix(floor, (0, 0, 0), 0.45))
    edge = 0.0
    if look.stroke:
        edge = max(1.0, 0.03 * cell)
        rounded_rect(img, x0, y0, x1, y1, r, mix(colour, (0, 0, 0) if sum(colour) > 240 else (255, 255, 255), 0.6))
    if look.bevel:
        b = max(1.0, 0.05 * cell)
        rounded_rect(img, x0 + edge, y0 + edge, x1 - edge, y1 - edge, r, mix(colour, (0, 0, 0), 0.35))
        rounded_rect(img, x0 + edge, y0 + edge, x1 - edge - b, y1 - edge - b, r, mix(colour, (255, 255, 255), 0.45))
        edge += b
    ix0, iy0, ix1, iy1 = x0 + edge, y0 + edge, x1 - edge, y1 - edge
    rng = np.random.default_rng(index)
    if look.fill == "outline":
        t = max(2.0, 0.06 * cell)
        rounded_rect(img, ix0, iy0, ix1, iy1, r, colour)
        rounded_rect(img, ix0 + t, iy0 + t, ix1 - t, iy1 - t, max(0.0, r - t), floor)
    else:
        rounded_rect(img, ix0, iy0, ix1, iy1, r, colour)
        a, b_, c, d_ = round(ix0 + r / 3), round(iy0 + r / 3), round(ix1 - r / 3), round(iy1 - r / 3)
        part = img[b_:d_, a:c]
        if look.fill == "gradient":
            t = np.linspace(0.25, -0.3, part.shape[0], dtype=np.float32)[:, None, None]
            part[:] = np.clip(part.astype(np.float32) + 255 * t * np.where(t > 0, 1 - part / 255, part / 255), 0, 255)
        elif look.fill == "texture":
            noise = cv2.GaussianBlur(rng.normal(0, 14, part.shape[:2]).astype(np.float32), (0, 0), 1.2)
            part[:] = np.clip(part.astype(np.float32) + noise[..., None], 0, 255)
        elif look.fill == "wood":
            grain = bgr(mix(colour, (60, 30, 10), 0.25))
            lines = max(3, round((iy1 - iy0) / cell * 6))
            for k in range(lines):
                y = iy0 + (k + 0.5 + rng.uniform(-0.3, 0.3)) * (iy1 - iy0) / lines
                xs = np.linspace(ix0 + 0.1 * cell, ix1 - 0.1 * cell, 16)
                ys = y + np.sin(xs / cell * 4 + rng.uniform(0, 6)) * cell * 0.04
                cv2.polylines(img, [np.stack([xs, ys], 1).round().astype(np.int32)], False, grain,
                              max(1, round(cell / 50)), cv2.LINE_AA)
        elif look.fill == "portrait":       # a picture in a frame of the piece's colour: sky, hills, a face
            f = 0.08 * cell
            px0, py0, px1, py1 = round(ix0 + f), round(iy0 + f), round(ix1 - f), round(iy1 - f)
            sky = np.array(bgr(tuple(int(v) for v in rng.integers(60, 230, 3))), np.float32)
            t = np.linspace(0, 1, max(1, py1 - py0), dtype=np.float32)[:, None, None]
            img[py0:py1, px0:px1] = (sky * (1 - 0.6 * t)).astype(np.uint8)
            w, h = px1 - px0, py1 - py0
            hill = [(px0, py1), *[(round(px0 + w * k / 6), round(py0 + h * (0.6 + 0.15 * np.sin(k + index))))
                                  for k in range(7)], (px1, py1)]
            cv2.fillPoly(img, [np.array(hill, np.int32)], bgr(tuple(int(v) for v in rng.integers(20, 120, 3))),
                         cv2.LINE_AA)
            cx, cy, s = (px0 + px1) / 2, py0 + 0.45 * h, 0.28 * min(w, h)
            cv2.ellipse(img, (round(cx), round(cy + 0.9 * s)), (round(1.3 * s), round(0.8 * s)), 0, 180, 360,
                        bgr(tuple(int(v) for v in rng.integers(30, 200, 3))), -1, cv2.LINE_AA)
            cv2.circle(img, (round(cx), round(cy)), round(0.7 * s), (150, 186, 228), -1, cv2.LINE_AA)
            cv2.ellipse(img, (round(cx), round(cy - 0.35 * s)), (round(0.75 * s), round(0.45 * s)), 0, 180, 360,
                        (30, 30, 36), -1, cv2.LINE_AA)
    if look.label != "none":
        names = ["CAO CAO"] if is_target else klotski_scene.NAMES.get(p.shape, ["BING"])
        text = {"number": str(index + 1), "letter": chr(ord("A") + index),
                "name": names[index % len(names)]}[look.label]
        scale = cell / 44 if look.label != "name" else cell / 110
        thick = max(1, round(cell / (22 if look.label != "name" else 40)))
        (tw, th), _ = cv2.getTextSize(text, cv2.FONT_HERSHEY_DUPLEX, scale, thick)
        scale *= min(1.0, 0.8 * (x1 - x0) / tw)
        (tw, th), _ = cv2.getTextSize(text, cv2.FONT_HERSHEY_DUPLEX, scale, thick)
        cx, cy = (x0 + x1) / 2, (y0 + y1) / 2 if look.fill != "portrait" else y1 - 0.18 * cell
        cv2.putText(img, text, (round(cx - tw / 2), round(cy + th / 2)), cv2.FONT_HERSHEY_DUPLEX, scale,
                    bgr(colour if look.fill == "outline" else ink), thick, cv2.LINE_AA)


def render_klotski(board: KlotskiBoard, look: KlotskiLook, cell: float = KLOTSKI_CELL,
                   seed: int = 0) -> tuple[np.ndarray, klotski_scene.Truth]:
    """A game window of ``board`` drawn in ``look`` (BGR) and the truth it shows
    (``puzzlepilot.scenes.klotski.Truth``): a level title and a move count above the
    board, buttons below, the exit in the frame."""
    title = f"LEVEL {np.random.default_rng(seed).integers(1, 300)}"
    if look.scene:
        return klotski_scene.render(board, style=look.scene, cell=cell, title=title)
    page, frame, floor, _, ink = KLOTSKI_PALETTES[look.palette]
    rim, bw, bh = 0.3 * cell, board.cols * cell, board.rows * cell
    width, height = round(bw + 2 * rim + 1.2 * cell), round(bh + 2 * rim + 3.2 * cell)
    img = np.full((height, width, 3), bgr(page), np.uint8)
    bx, by = (width - bw) / 2, 1.6 * cell
    rounded_rect(img, bx - rim, by - rim, bx + bw + rim, by + bh + rim, rim * 0.6, frame)
    cv2.rectangle(img, (round(bx), round(by)), (round(bx + bw), round(by + bh)), bgr(floor), -1)
    target = board.piece(board.target)
    ex0 = bx + board.goal[1] * cell
    cv2.rectangle(img, (round(ex0 + 0.1 * cell), round(by + bh + rim * 0.3)),
                  (round(ex0 + (target.width - 0.1) * cell), round(by + bh + rim * 0.7)), bgr(floor), -1)
    if look.lines:
        line = bgr(mix(floor, ink, 0.25))
        for c in range(1, board.cols):
            cv2.line(img, (round(bx + c * cell), round(by)), (round(bx + c * cell), round(by + bh)), line, 1)
        for r in range(1, board.rows):
            cv2.line(img, (round(bx), round(by + r * cell)), (round(bx + bw), round(by + r * cell)), line, 1)
    text = mix(frame, page, 0.2) if sum(frame) + 150 < sum(page) or sum(frame) > sum(page) + 150 else mix(page, (128,) * 3, 0.6)
    u = cell / 80
    cv2.putText(img, title, (round(bx), round(0.7 * cell)), cv2.FONT_HERSHEY_SIMPLEX, 0.9 * u, bgr(text),
                max(1, round(2 * u)), cv2.LINE_AA)
    cv2.putText(img, f"MOVES {np.random.default_rng(seed + 1).integers(0, 99)}", (round(bx), round(1.1 * cell)),
                cv2.FONT_HERSHEY_SIMPLEX, 0.6 * u, bgr(text), max(1, round(1.5 * u)), cv2.LINE_AA)
    for k in range(3):
        rounded_rect(img, bx + k * 0.36 * bw, by + bh + rim + 0.5 * cell, bx + (k * 0.36 + 0.28) * bw,
                     by + bh + rim + 1.0 * cell, 0.15 * cell, text)
    gap = look.gap * cell
    for i, p in enumerate(board.pieces):
        box = (bx + p.col * cell + gap / 2, by + p.row * cell + gap / 2,
               bx + (p.col + p.width) * cell - gap / 2, by + (p.row + p.height) * cell - gap / 2)
        _klotski_piece(img, look, p, box, cell, p.name == board.target, i, floor)
    cells = tuple((bx + (c + 0.5) * cell, by + (r + 0.5) * cell) for r in range(board.rows) for c in range(board.cols))
    return img, klotski_scene.Truth(board.relabelled().to_text().replace("\n", "/"), cells, cell)


def klotski_calibration(look: KlotskiLook) -> tuple[np.ndarray, str]:
    """The picture a Klotski look is learnt from (横刀立马, ``KLOTSKI_CELL`` px cells) and its board."""
    img, truth = render_klotski(layout(KLOTSKI_LAYOUTS[0]), look)
    return img, truth.board


def klotski_others(look: KlotskiLook, count: int = 10) -> list[tuple[str, np.ndarray, str]]:
    """``count`` other positions in a Klotski look (name, BGR, board text): the classic
    layouts after some moves; 0.5–2× the calibration's size, drawn at that size or the
    calibration's size scaled; every fourth a crop a little past the frame, every second
    JPEG at 60–95."""
    out = []
    for i in range(count):
        name, moves = KLOTSKI_LAYOUTS[(i + 1) % len(KLOTSKI_LAYOUTS)], (i * 7) % 23
        k = (0.5, 1.5, 0.75, 2.0, 1.25)[i % 5]
        board = klotski_scene.scrambled(layout(name), moves, 0)
        what = [f"{name}-{moves}"]
        if i % 2:
            img, truth = render_klotski(board, look, KLOTSKI_CELL * k, seed=i)
            what.append(f"drawn{k}x")
        else:
            img, truth = render_klotski(board, look, KLOTSKI_CELL, seed=i)
            img = cv2.resize(img, None, fx=k, fy=k, interpolation=cv2.INTER_AREA if k < 1 else cv2.INTER_CUBIC)
            what.append(f"scaled{k}x")
        if i % 4 == 1:
            x, y, w, h = lyne_scene.board_box(truth, 0.8 + 0.1 * (i % 3))      # drawn at that size
            img = img[max(0, y):y + h, max(0, x):x + w].copy()
            what.append("crop")
        out.append(_other(i, img, what, truth.board))
    return out
