"""One-stroke (一笔画完) screens drawn in the game's look, with the truth they show.

``render_phone`` draws a phone capture: background (249,249,249), grey rounded-square cells
on a regular pitch, a cat on the start (saturated colours, tail above the cell), a level
title, a coins pill and round buttons; mid-level, the path drawn so far is a band in the
cat's colour over the visited cells and the cat sits at its head, as while the player
drags. The practice board shows these frames, so drawing one stays well under 30 ms at
540×960. ``fixture_cases`` builds the
vision's regression set from it: sizes, scales, cat colours, JPEG, crops, desktops around
the phone, half-drawn paths and scenes with no board at all.
"""
from __future__ import annotations

from dataclasses import dataclass, replace

import cv2
import numpy as np

from puzzlepilot.scenes import FixtureCase
from puzzlepilot.scenes.paint import bgr, mix, noise_photo, render_desktop, rounded_rect, shapes_scene
from solvers.onestroke import Board, generate, solve

RGB = tuple[int, int, int]
Cell = tuple[int, int]

BACKGROUND: RGB = (249, 249, 249)
CELL_GREY: RGB = (209, 209, 209)
BAND = 0.7           # the drawn path's width, a share of the cell
TINT = 0.35          # how far toward white a visited cell's fill is from the cat's colour


@dataclass(frozen=True)
class Theme:
    """A palette for the board: the screen's background and the unvisited cells."""

    background: RGB
    cell: RGB


# "day" is the game's look; "night" is a look the default vision cannot read (dark
# background, saturated cells), for teaching the vision a new look by calibration.
THEMES: dict[str, Theme] = {
    "day": Theme(BACKGROUND, CELL_GREY),
    "night": Theme((24, 28, 48), (38, 150, 170)),
}
CATS: dict[str, RGB] = {
    "tan": (217, 173, 151), "pink": (242, 150, 172), "blue": (104, 168, 232),
    "green": (120, 196, 112), "orange": (245, 160, 60), "purple": (172, 128, 214),
}


@dataclass(frozen=True)
class Truth:
    """What a rendered image shows: the board text (rows joined by ``/``), the image
    centre of every grid place (row-major, holes included), the pitch and cell size."""

    board: str
    cells: tuple[tuple[float, float], ...]
    pitch: float
    cell: float

    def moved(self, dx: float, dy: float, k: float = 1.0) -> "Truth":
        """The truth after scaling the image by k and then shifting it by (dx, dy)."""
        return replace(self, cells=tuple((x * k + dx, y * k + dy) for x, y in self.cells),
                       pitch=self.pitch * k, cell=self.cell * k)


def _text(img: np.ndarray, text: str, centre: tuple[float, float], height: float, color: RGB, thick: float = 0.1) -> None:
    """Text of about ``height`` px, centred on a point."""
    scale = height / 22.0
    t = max(1, round(height * thick))
    (w, h), _ = cv2.getTextSize(text, cv2.FONT_HERSHEY_SIMPLEX, scale, t)
    cv2.putText(img, text, (round(centre[0] - w / 2), round(centre[1] + h / 2)),
                cv2.FONT_HERSHEY_SIMPLEX, scale, bgr(color), t, cv2.LINE_AA)


def draw_cat(img: np.ndarray, x: float, y: float, size: float, color: RGB) -> None:
    """The cat sitting on a cell centred at (x, y): coloured head with ears, white face,
    dark eyes, pink cheeks, feet below the cell and a tail curling up above it."""
    s = size / 2
    dark = mix(color, (60, 40, 30), 0.35)
    # tail first, so the head covers its root
    tail = np.array([(x + 0.12 * s, y - 0.9 * s), (x + 0.16 * s, y - 1.2 * s),
                     (x + 0.08 * s, y - 1.4 * s), (x + 0.2 * s, y - 1.55 * s)]).round().astype(np.int32)
    cv2.polylines(img, [tail], False, bgr(color), max(2, round(0.2 * s)), cv2.LINE_AA)
    for fx in (-0.45, 0.25):   # feet
        rounded_rect(img, x + fx * s, y + 0.8 * s, x + (fx + 0.2) * s, y + 1.12 * s, 0.08 * s, (250, 236, 226))
    rounded_rect(img, x - s, y - s, x + s, y + s, 0.12 * size, color)
    rounded_rect(img, x - 0.92 * s, y - 0.05 * s, x + 0.92 * s, y + 0.9 * s, 0.1 * size, (255, 255, 255))
    for ex in (-1, 1):         # ears, eyes, cheeks
        cv2.circle(img, (round(x + ex * 0.62 * s), round(y - 0.05 * s)), round(0.2 * s), bgr(dark), max(1, round(0.06 * s)), cv2.LINE_AA)
        cv2.ellipse(img, (round(x + ex * 0.48 * s), round(y + 0.32 * s)), (max(1, round(0.1 * s)), max(1, round(0.15 * s))),
                    0, 0, 360, (30, 30, 30), -1, cv2.LINE_AA)
        cv2.circle(img, (round(x + ex * 0.72 * s), round(y + 0.55 * s)), max(1, round(0.09 * s)), bgr((245, 150, 150)), -1, cv2.LINE_AA)
    cv2.ellipse(img, (round(x), round(y + 0.45 * s)), (max(1, round(0.12 * s)), max(1, round(0.08 * s))),
                0, 0, 180, bgr(dark), max(1, round(0.05 * s)), cv2.LINE_AA)


def render_phone(board: Board, *, width: int = 1080, height: int = 1920, scale: float = 1.0,
                 cat: RGB | str = "tan", visited: list[Cell] | tuple[Cell, ...] = (), seed: int = 0,
                 frame: bool = True, theme: str = "day", band: float = BAND,
                 tint: float | None = TINT) -> tuple[np.ndarray, Truth]:
    """A phone capture of the level (BGR) and the truth it shows.

    ``scale`` zooms the board (1.0: the game's size, shrunk to fit wide boards);
    ``visited`` is the path drawn so far (from the start, which may be left out): the
    game covers it with a band in the cat's colour, ``band`` of a cell wide, joined round
    at the turns, over the visited cells drawn in the cat's colour taken ``tint`` of the
    way to white (None: they stay grey), and moves the cat to its head, so the truth is the board that is left
    (visited cells are holes, the head is the start); ``frame`` draws the title, coins
    and buttons around the board; ``seed`` picks the level number and coins shown;
    ``theme`` the palette (``THEMES``)."""
    color = CATS[cat] if isinstance(cat, str) else tuple(cat)
    palette = THEMES[theme]
    rng = np.random.default_rng(seed)
    u = width / 1080
    img = np.full((height, width, 3), bgr(palette.background), np.uint8)
    if frame:
        _draw_frame(img, u, int(rng.integers(1, 900)), int(rng.integers(0, 5000)))
    pitch = min(130 * u, 0.9 * width / board.cols, 0.62 * height / board.rows) * scale
    cell = pitch * 115 / 130
    ox = width / 2 - (board.cols - 1) * pitch / 2
    oy = height / 2 - (board.rows - 1) * pitch / 2
    centres = [(ox + c * pitch, oy + r * pitch) for r in range(board.rows) for c in range(board.cols)]
    path = list(visited)
    if path and path[0] != board.start:
        path.insert(0, board.start)
    done = set(path)
    for r, c in board.cells:
        x, y = centres[r * board.cols + c]
        rounded_rect(img, x - cell / 2, y - cell / 2, x + cell / 2, y + cell / 2, 0.14 * cell,
                     mix(color, (255, 255, 255), tint) if (r, c) in done and tint is not None else palette.cell)
    if len(path) > 1:
        draw_band(img, [centres[r * board.cols + c] for r, c in path], band * cell, color)
    head = path[-1] if path else board.start
    draw_cat(img, *centres[head[0] * board.cols + head[1]], cell, color)
    left = replace(board, cells=(board.cells - done) | {head}, start=head)
    text = left.to_text().replace("\n", "/")
    return img, Truth(text, tuple(centres), pitch, cell)


def draw_band(img: np.ndarray, points: list[tuple[float, float]], width: float, color: RGB) -> None:
    """The drawn path: a band ``width`` px wide through the points, round at every joint
    and end (a disc at each point), in the cat's colour a shade darker."""
    line = bgr(mix(color, (0, 0, 0), 0.08))
    pts = np.array(points).round().astype(np.int32)
    thick = max(2, round(width))
    cv2.polylines(img, [pts], False, line, thick, cv2.LINE_AA)
    for x, y in pts:
        cv2.circle(img, (int(x), int(y)), thick // 2, line, -1, cv2.LINE_AA)


def _draw_frame(img: np.ndarray, u: float, level: int, coins: int) -> None:
    """Title, back button, menu pill, coins pill and the four round buttons."""
    w, h = img.shape[1], img.shape[0]
    cv2.rectangle(img, (0, round(28 * u)), (round(100 * u), round(168 * u)), bgr((128, 222, 232)), -1)
    cv2.circle(img, (round(130 * u), round(98 * u)), round(70 * u), bgr((0, 200, 215)), -1, cv2.LINE_AA)
    cv2.arrowedLine(img, (round(165 * u), round(98 * u)), (round(95 * u), round(98 * u)), (255, 255, 255),
                    max(2, round(22 * u)), cv2.LINE_AA, tipLength=0.6)
    _text(img, f"Level {level}", (w / 2 - 20 * u, 98 * u), 50 * u, (90, 90, 90), thick=0.1)
    rounded_rect(img, w - 345 * u, 50 * u, w - 57 * u, 140 * u, 45 * u, (200, 200, 200))
    cv2.circle(img, (round(w - 125 * u), round(95 * u)), round(22 * u), (255, 255, 255), max(2, round(7 * u)), cv2.LINE_AA)
    rounded_rect(img, w / 2 - 125 * u, 225 * u, w / 2 + 125 * u, 292 * u, 33 * u, (226, 226, 226))
    cv2.circle(img, (round(w / 2 - 90 * u), round(258 * u)), round(28 * u), bgr((250, 210, 40)), -1, cv2.LINE_AA)
    _text(img, str(coins), (w / 2 + 25 * u, 258 * u), 40 * u, (150, 150, 150))
    for i, col in enumerate(((30, 150, 240), (150, 210, 20), (245, 120, 160), (250, 170, 0))):
        x = w * (0.2 + 0.2 * i)
        y = h - 140 * u
        rounded_rect(img, x - 70 * u, y, x + 70 * u, h, 20 * u, mix(col, (255, 255, 255), 0.4))
        cv2.circle(img, (round(x), round(y)), round(70 * u), bgr(col), -1, cv2.LINE_AA)
        cv2.circle(img, (round(x), round(y)), round(35 * u), (255, 255, 255), max(2, round(12 * u)), cv2.LINE_AA)


# ---------------------------------------------------------------------------- the marked-start look

NAVY: RGB = (35, 43, 59)          # 最强连一连's background, measured on real/onestroke/zqlyl_35-18.png
SQUARE_GREY: RGB = (204, 204, 204)
MARK_PURPLE: RGB = (158, 0, 135)
MARKERS = ("square", "tint", "letter")


def render_marked(board: Board, *, width: int = 1080, height: int = 1920, marker: str = "square",
                  mark: RGB = MARK_PURPLE, visited: list[Cell] | tuple[Cell, ...] = (), seed: int = 0,
                  frame: bool = True) -> tuple[np.ndarray, Truth]:
    """A phone capture of another one-stroke app with the same rules (WeChat's 最强连一连):
    flat grey squares (sharp corners) on a navy background, no cat, the start marked
    apart: ``marker`` "square" (a purple square inset in its cell, the app's look), "tint"
    (the whole cell in a pale tint of ``mark``) or "letter" (a dark S on the grey cell).
    ``visited`` is a path drawn from the start: its cells filled like the start and
    joined by a band of ``mark``; nothing marks the head, so the truth (the board left,
    the head the start) is one the reading can only refuse. ``frame`` draws the app's
    buttons, level text, coins and, at the bottom, an ad banner; ``seed`` varies them.
    At 1080x1920 the layout is the real capture's (pitch 125 px, first row's top at 366)."""
    rng = np.random.default_rng(seed)
    u = width / 1080
    img = np.full((height, width, 3), bgr(NAVY), np.uint8)
    banner = height - round(375 * u)
    if frame:
        _draw_marked_frame(img, u, banner, rng)
    top = 366 * u
    pitch = min(125.3 * u, 0.75 * width / board.cols, (banner - 240 * u - top) / board.rows)
    cell = pitch * 107.6 / 125.3
    ox = width / 2 - (board.cols - 1) * pitch / 2
    oy = top + cell / 2
    centres = [(ox + c * pitch, oy + r * pitch) for r in range(board.rows) for c in range(board.cols)]
    if frame:
        _draw_hint_buttons(img, u, top + board.rows * pitch + 70 * u)
    path = list(visited)
    if path and path[0] != board.start:
        path.insert(0, board.start)
    inset = 0.105 * cell
    for r, c in board.cells:
        x, y = centres[r * board.cols + c]
        tinted = marker == "tint" and ((r, c) == board.start or (r, c) in path)
        fill = mix(SQUARE_GREY, mark, 0.3) if tinted else SQUARE_GREY
        cv2.rectangle(img, (round(x - cell / 2), round(y - cell / 2)), (round(x + cell / 2) - 1, round(y + cell / 2) - 1),
                      bgr(fill), -1, cv2.LINE_AA)
        if marker == "square" and ((r, c) == board.start or (r, c) in path):
            cv2.rectangle(img, (round(x - cell / 2 + inset), round(y - cell / 2 + inset)),
                          (round(x + cell / 2 - inset) - 1, round(y + cell / 2 - inset) - 1), bgr(mark), -1)
        if marker == "letter" and ((r, c) == board.start or (r, c) in path):
            _text(img, "S", (x, y), 0.55 * cell, (40, 40, 40), thick=0.14)
    if len(path) > 1:
        draw_band(img, [centres[r * board.cols + c] for r, c in path], 0.25 * cell, mark)
    head = path[-1] if path else board.start
    left = replace(board, cells=(board.cells - set(path)) | {head}, start=head)
    return img, Truth(left.to_text().replace("\n", "/"), tuple(centres), pitch, cell)


def _draw_marked_frame(img: np.ndarray, u: float, banner: int, rng: np.random.Generator) -> None:
    """最强连一连's screen around the board: two hexagonal buttons, the level in big grey
    digits, a game icon, coins and their counter, the WeChat capsule, a floating button at
    the left edge and an ad banner at the bottom (from row ``banner``)."""
    w = img.shape[1]
    for x in (108, 258):       # back and sound buttons
        hexagon = np.array([((x + 58 * np.cos(a)) * u, (85 + 58 * np.sin(a)) * u)
                            for a in np.linspace(0, 2 * np.pi, 7)[:-1] + np.pi / 6]).round().astype(np.int32)
        cv2.fillPoly(img, [hexagon], bgr((44, 60, 74)), cv2.LINE_AA)
        cv2.circle(img, (round(x * u), round(85 * u)), round(26 * u), bgr((60, 150, 180)), -1, cv2.LINE_AA)
    _text(img, str(int(rng.integers(1, 60))), (95 * u, 190 * u), 60 * u, (200, 200, 200), thick=0.16)
    _text(img, str(int(rng.integers(1, 30))), (80 * u, 250 * u), 42 * u, (220, 220, 220), thick=0.16)
    rounded_rect(img, 385 * u, 137 * u, 553 * u, 350 * u, 10 * u, (40, 140, 220))
    rounded_rect(img, 400 * u, 150 * u, 538 * u, 290 * u, 10 * u, (235, 240, 245))
    cv2.line(img, (round(420 * u), round(170 * u)), (round(520 * u), round(260 * u)), bgr((60, 190, 120)), round(40 * u))
    _text(img, "brush", (469 * u, 318 * u), 30 * u, (220, 230, 240))
    rounded_rect(img, 760 * u, 230 * u, 1040 * u, 310 * u, 40 * u, (20, 24, 32))
    _text(img, str(int(rng.integers(0, 100))), (885 * u, 272 * u), 44 * u, (80, 220, 230), thick=0.16)
    rounded_rect(img, 975 * u, 225 * u, 1055 * u, 315 * u, 12 * u, (60, 180, 60))
    for cx, cy in ((670, 290), (760, 265), (705, 230)):
        cv2.circle(img, (round(cx * u), round(cy * u)), round(58 * u), bgr((235, 170, 30)), -1, cv2.LINE_AA)
        cv2.circle(img, (round(cx * u), round(cy * u)), round(40 * u), bgr((250, 200, 60)), -1, cv2.LINE_AA)
    rounded_rect(img, 772 * u, 45 * u, 1030 * u, 128 * u, 41 * u, (70, 74, 82))
    rounded_rect(img, 775 * u, 48 * u, 1027 * u, 125 * u, 38 * u, (38, 44, 58))
    cv2.circle(img, (round(968 * u), round(87 * u)), round(20 * u), (255, 255, 255), max(2, round(7 * u)), cv2.LINE_AA)
    cv2.circle(img, (round(20 * u), round(812 * u)), round(75 * u), bgr((90, 100, 100)), -1, cv2.LINE_AA)
    h = img.shape[0]
    ad = cv2.resize(rng.integers(0, 140, (6, 8, 3), dtype=np.uint8), (w, h - banner), interpolation=cv2.INTER_CUBIC)
    img[banner:] = ad
    rounded_rect(img, 180 * u, banner + 85 * u, 890 * u, banner + 345 * u, 14 * u, (150, 210, 230))
    for i in range(4):
        x = (240 + i * 150) * u
        rounded_rect(img, x, banner + 145 * u, x + 135 * u, banner + 290 * u, 12 * u, (245, 235, 210))
        cv2.circle(img, (round(x + 67 * u), round(banner + 210 * u)), round(40 * u),
                   bgr(tuple(int(v) for v in rng.integers(60, 250, 3))), -1, cv2.LINE_AA)


def _draw_hint_buttons(img: np.ndarray, u: float, y0: float) -> None:
    """最强连一连's two hint buttons, their tops at ``y0``."""
    for x0, color in ((185, (40, 110, 130)), (660, (110, 90, 50))):
        rounded_rect(img, x0 * u, y0, (x0 + 235) * u, y0 + 125 * u, 30 * u, (230, 210, 40) if x0 > 500 else (70, 200, 210))
        rounded_rect(img, (x0 + 6) * u, y0 + 6 * u, (x0 + 229) * u, y0 + 119 * u, 26 * u, color)
        _text(img, "hint", ((x0 + 117) * u, y0 + 45 * u), 42 * u, (240, 240, 120), thick=0.16)


def dim_top(image: np.ndarray, depth: float, dim: float) -> np.ndarray:
    """The capture with a notification shade pulled over its top: the rows above
    ``depth`` (a share of the height) darkened by ``dim`` (0: not at all, 1: black), a
    status line of white icons at the very top."""
    out = image.copy()
    rows = round(depth * image.shape[0])
    out[:rows] = (out[:rows].astype(np.float32) * (1 - dim)).round().astype(np.uint8)
    u = image.shape[1] / 1080
    if rows > 80 * u:
        for i in range(5):
            cv2.circle(out, (round((60 + 50 * i) * u), round(35 * u)), round(14 * u), (235, 235, 235), -1, cv2.LINE_AA)
        _text(out, "12:45", (image.shape[1] - 120 * u, 35 * u), 34 * u, (235, 235, 235))
    return out


def level_clear(image: np.ndarray, seed: int = 0) -> np.ndarray:
    """A level-clear popup over the capture: the screen dimmed behind a framed panel in
    its middle with a title, stars and a button."""
    rng = np.random.default_rng(seed)
    h, w = image.shape[:2]
    u = w / 1080
    out = (image.astype(np.float32) * float(rng.uniform(0.3, 0.6))).round().astype(np.uint8)
    top = h * float(rng.uniform(0.2, 0.4))
    bottom = top + h * float(rng.uniform(0.3, 0.45))
    rounded_rect(out, 110 * u, top, w - 110 * u, bottom, 40 * u, (70, 150, 190))
    rounded_rect(out, 126 * u, top + 16 * u, w - 126 * u, bottom - 16 * u, 30 * u, (38, 46, 78))
    _text(out, "LEVEL CLEAR", (w / 2, top + 110 * u), 70 * u, (255, 210, 120), thick=0.15)
    for i in range(3):
        cv2.circle(out, (round(w / 2 + (i - 1) * 170 * u), round(top + 260 * u)), round(62 * u),
                   bgr((250, 200, 40)), -1, cv2.LINE_AA)
    rounded_rect(out, w / 2 - 200 * u, bottom - 190 * u, w / 2 + 200 * u, bottom - 70 * u, 30 * u, (230, 210, 40))
    _text(out, "NEXT", (w / 2, bottom - 130 * u), 54 * u, (90, 60, 20), thick=0.16)
    return out


# ---------------------------------------------------------------------------- other scenes

def tight(board: Board) -> Board:
    """The board without empty outer rows and columns (a screen shows only its cells)."""
    rows = [r for r, _ in board.cells]
    cols = [c for _, c in board.cells]
    r0, c0 = min(rows), min(cols)
    return Board(max(rows) - r0 + 1, max(cols) - c0 + 1, frozenset((r - r0, c - c0) for r, c in board.cells),
                 (board.start[0] - r0, board.start[1] - c0), board.end and (board.end[0] - r0, board.end[1] - c0))


def embed(phone: np.ndarray, truth: Truth, desktop: np.ndarray, x: int, y: int, k: float) -> tuple[np.ndarray, Truth]:
    """The phone capture scaled by k in a window (title bar above) on the desktop at (x, y)."""
    shown = cv2.resize(phone, None, fx=k, fy=k, interpolation=cv2.INTER_AREA)
    h, w = shown.shape[:2]
    out = desktop.copy()
    cv2.rectangle(out, (x - 1, y - 31), (x + w, y + h), (90, 90, 90), 1)
    cv2.rectangle(out, (x, y - 30), (x + w - 1, y - 1), (60, 60, 60), -1)
    _text(out, "Phone mirror", (x + 80, y - 15), 14, (230, 230, 230))
    out[y:y + h, x:x + w] = shown
    return out, truth.moved(x, y, k)


def crop_board(image: np.ndarray, truth: Truth, margin: float = 0.6) -> tuple[np.ndarray, Truth]:
    """The board's part of a capture, ``margin`` pitches around the outer cell centres."""
    xs = [x for x, _ in truth.cells]
    ys = [y for _, y in truth.cells]
    pad = (margin + 0.5) * truth.pitch
    x0, y0 = max(0, round(min(xs) - pad)), max(0, round(min(ys) - pad))
    x1, y1 = min(image.shape[1], round(max(xs) + pad)), min(image.shape[0], round(max(ys) + pad))
    return image[y0:y1, x0:x1].copy(), truth.moved(-x0, -y0)


def cut_board(image: np.ndarray, truth: Truth, side: str, depth: float) -> tuple[np.ndarray, Truth]:
    """A crop that cuts into the board on one ``side`` ("left", "top", "right" or
    "bottom"): that edge lies ``depth`` pitches inside the middle of the gap past the outer
    places (0: their cells whole, too little shown past them to tell whether the board
    goes on; 1: a whole line of places cut off), the other three a pitch past the board.
    The truth is the whole board's, which the crop no longer shows: it must be refused."""
    xs = [x for x, _ in truth.cells]
    ys = [y for _, y in truth.cells]
    p = truth.pitch
    x0, y0, x1, y1 = min(xs) - p, min(ys) - p, max(xs) + p, max(ys) + p
    if side == "left":
        x0 = min(xs) - p / 2 + depth * p
    elif side == "right":
        x1 = max(xs) + p / 2 - depth * p
    elif side == "top":
        y0 = min(ys) - p / 2 + depth * p
    else:
        y1 = max(ys) + p / 2 - depth * p
    x0, y0 = max(0, round(x0)), max(0, round(y0))
    return image[y0:round(y1), x0:round(x1)].copy(), truth.moved(-x0, -y0)


def video_frame(image: np.ndarray, truth: Truth, width: int = 271, quality: int = 60,
                blur: float = 0.0) -> tuple[np.ndarray, Truth]:
    """The capture as a frame of a shared screen recording: scaled to ``width`` px across
    (271 for a 1080-wide phone: 271×480), blurred by a Gaussian of ``blur`` px (motion,
    a soft encoder) and JPEG-compressed at ``quality``."""
    k = width / image.shape[1]
    small = cv2.resize(image, (width, round(image.shape[0] * k)), interpolation=cv2.INTER_AREA)
    if blur > 0:
        small = cv2.GaussianBlur(small, (0, 0), blur)
    ok, data = cv2.imencode(".jpg", small, [cv2.IMWRITE_JPEG_QUALITY, quality])
    assert ok
    return cv2.imdecode(data, cv2.IMREAD_COLOR), truth.moved(0, 0, k)


def remove_cat(image: np.ndarray, truth: Truth, board: Board) -> np.ndarray:
    """The capture with the cat replaced by a plain grey cell: a grid with no start."""
    out = image.copy()
    x, y = truth.cells[board.start[0] * board.cols + board.start[1]]
    half = truth.cell / 2
    cv2.rectangle(out, (round(x - half - 2), round(y - truth.pitch)), (round(x + half + 2), round(y + half + 0.12 * truth.cell)),
                  bgr(BACKGROUND), -1)
    rounded_rect(out, x - half, y - half, x + half, y + half, 0.14 * truth.cell, CELL_GREY)
    return out



# ---------------------------------------------------------------------------- fixtures

def fixture_cases() -> list[FixtureCase]:
    """The one-stroke fixtures: 4×4 to 10×10 boards, six cat colours, four phone sizes,
    JPEG at 60–85, board-only crops, phones on desktops, mid-level paths (bands of several
    widths), small blurred JPEG frames of screen recordings, and scenes with no board (a
    desktop, a photo-like image, random shapes, a grid with no cat)."""
    cases: list[FixtureCase] = []

    def add(name: str, image: np.ndarray, board: str | None, note: str, quality: int | None = None) -> None:
        cases.append(FixtureCase(name, image, board, "jpg" if quality else "png", quality or 85, note))

    def level(rows: int, cols: int, seed: int) -> Board:
        return tight(generate(rows, cols, seed, fill=0.7))

    def drawn(board: Board, share: float) -> list[Cell]:
        path = solve(board).solution
        return [tuple(p) for p in path[: max(2, round(len(path) * share))]]  # type: ignore[misc]

    phones = [  # rows, cols, seed, cat, width, height, jpeg quality
        (4, 4, 1, "tan", 540, 960, None), (5, 5, 2, "pink", 720, 1280, None),
        (6, 6, 3, "blue", 1080, 1920, None), (7, 7, 4, "green", 1440, 2560, None),
        (8, 8, 5, "orange", 1080, 1920, 70), (9, 9, 6, "purple", 720, 1280, 60),
        (10, 10, 7, "tan", 1080, 1920, None), (6, 8, 8, "pink", 540, 960, 85),
        (10, 7, 9, "blue", 1080, 1920, 75),
    ]
    for rows, cols, seed, cat, w, h, q in phones:
        b = level(rows, cols, seed)
        img, t = render_phone(b, width=w, height=h, cat=cat, seed=seed)
        add(f"phone_{rows}x{cols}_{cat}_{w}", img, t.board, f"{w}x{h} phone capture, {cat} cat", q)

    b = Board.from_text(".##.S##/#######/##.####/.######/#.#####/#####.#/#######")
    img, t = render_phone(b, cat="pink", seed=643)
    add("level643_pink_1080", img, t.board, "the real level 643's board in the drawn look, pink cat", 70)

    b = level(7, 7, 10)
    img, t = render_phone(b, cat="blue", seed=10)
    crop, _ = crop_board(img, t)
    add("crop_7x7_blue", crop, t.board, "board-only crop of a 1080x1920 capture")
    b = level(5, 6, 11)
    img, t = render_phone(b, width=720, height=1280, cat="orange", seed=11)
    add("crop_5x6_orange", crop_board(img, t)[0], t.board, "board-only crop, 720 wide, JPEG 80", 80)
    b = level(8, 9, 12)
    img, t = render_phone(b, width=1080, height=1920, scale=0.8, cat="green", seed=12)
    add("zoomed_8x9_green", img, t.board, "board drawn at 0.8 of the game's size")

    for name, (rows, cols, seed, cat, dw, dh, k, q) in {
        "desktop_6x6_tan": (6, 6, 13, "tan", 1920, 1080, 0.9, None),
        "desktop_8x8_pink": (8, 8, 14, "pink", 1600, 900, 0.75, 75),
        "desktop_5x7_purple": (5, 7, 15, "purple", 2560, 1440, 1.2, None),
    }.items():
        b = level(rows, cols, seed)
        phone, t = render_phone(b, width=540, height=960, cat=cat, seed=seed)
        x = dw - round(540 * k) - 120
        img, _ = embed(phone, t, render_desktop(dw, dh, seed), x, 40, k)
        add(name, img, t.board, f"540x960 phone at {k}x in a window on a {dw}x{dh} desktop", q)

    for name, (rows, cols, seed, cat, share, band, tint, q, crop) in {
        "drawn_7x7_pink": (7, 7, 16, "pink", 0.3, BAND, TINT, None, False),
        "drawn_9x9_blue": (9, 9, 17, "blue", 0.5, 0.9, TINT, 80, False),
        "drawn_6x6_orange_crop": (6, 6, 18, "orange", 0.85, 1.0, TINT, None, True),
        "drawn_8x8_tan": (8, 8, 19, "tan", 0.6, 0.3, TINT, None, False),
        "drawn_7x7_green_grey": (7, 7, 26, "green", 0.5, 0.25, None, None, False),
    }.items():
        b = level(rows, cols, seed)
        img, t = render_phone(b, width=720, height=1280, cat=cat, visited=drawn(b, share), seed=seed,
                              band=band, tint=tint)
        add(name, crop_board(img, t)[0] if crop else img, t.board,
            f"mid-level: {round(share * 100)} % of the path drawn, a band {band} of a cell wide over "
            f"{'grey' if tint is None else 'tinted'} visited cells; the board left, the cat at the head", q)

    b = Board.from_text(".##.S##/#######/##.####/.######/#.#####/#####.#/#######")
    for name, (share, width, quality, blur) in {
        "video_level643_start": (0.0, 271, 60, 0.6), "video_level643_drawn": (0.4, 271, 50, 0.8),
        "video_level643_drawn_360": (0.7, 360, 40, 1.0),
    }.items():
        img, t = render_phone(b, cat="tan", visited=drawn(b, share) if share else (), seed=643)
        frame, _ = video_frame(img, t, width, quality, blur)
        add(name, frame, t.board, f"a {width}-wide screen-recording frame (JPEG {quality}, blur {blur}) "
            f"of level 643's board, {round(share * 100)} % drawn")
    for name, (rows, cols, seed, cat, share, quality, blur) in {
        "video_8x8_green_drawn": (8, 8, 24, "green", 0.5, 55, 0.7),
        "video_6x7_purple_drawn": (6, 7, 25, "purple", 0.2, 70, 0.5),
    }.items():
        b = level(rows, cols, seed)
        img, t = render_phone(b, cat=cat, visited=drawn(b, share), seed=seed)
        frame, _ = video_frame(img, t, 271, quality, blur)
        add(name, frame, t.board, f"a 271x480 recording frame (JPEG {quality}, blur {blur}), "
            f"{round(share * 100)} % of the path drawn")

    add("none_desktop", render_desktop(1920, 1080, 20), None, "a desktop with windows, no game")
    add("none_photo", noise_photo(1280, 720, 21), None, "a photo-like noise image", 80)
    add("none_shapes", shapes_scene(1080, 1080, 22), None, "random shapes in many colours and greys")
    b = level(6, 6, 23)
    img, t = render_phone(b, width=540, height=960, seed=23)
    add("none_no_cat", remove_cat(img, t, b), None, "a grid of cells with no cat: no start to read")
    return cases
