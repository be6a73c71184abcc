"""One-stroke (一笔画完) screens drawn in the game's look, with the truth they show.

``render_phone`` draws a phone capture: background (249,249,249), grey rounded-square cells
on a regular pitch, a cat on the start (saturated colours, tail above the cell), a level
title, a coins pill and round buttons; visited cells take a tint of the cat's colour and
the drawn line joins them, as while the player drags. The practice board shows these
frames, so drawing one stays well under 30 ms at 540×960. ``fixture_cases`` builds the
vision's regression set from it: sizes, scales, cat colours, JPEG, crops, desktops around
the phone, half-drawn paths and scenes with no board at all.
"""
from __future__ import annotations

from dataclasses import dataclass, replace

import cv2
import numpy as np

from puzzlepilot.scenes import FixtureCase
from solvers.onestroke import Board, generate, solve

RGB = tuple[int, int, int]
Cell = tuple[int, int]

BACKGROUND: RGB = (249, 249, 249)
CELL_GREY: RGB = (209, 209, 209)
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


def _bgr(color: RGB) -> tuple[int, int, int]:
    return (color[2], color[1], color[0])


def _mix(color: RGB, other: RGB, t: float) -> RGB:
    """``color`` moved a share t of the way toward ``other``."""
    return tuple(round(a + (b - a) * t) for a, b in zip(color, other))  # type: ignore[return-value]


def rounded_rect(img: np.ndarray, x0: float, y0: float, x1: float, y1: float, radius: float, color: RGB) -> None:
    """A filled rectangle with round corners (OpenCV has none)."""
    x0, y0, x1, y1 = round(x0), round(y0), round(x1), round(y1)
    r = max(0, min(round(radius), (x1 - x0) // 2, (y1 - y0) // 2))
    c = _bgr(color)
    cv2.rectangle(img, (x0 + r, y0), (x1 - r, y1), c, -1)
    cv2.rectangle(img, (x0, y0 + r), (x1, y1 - r), c, -1)
    if r:
        for cx, cy in ((x0 + r, y0 + r), (x1 - r, y0 + r), (x0 + r, y1 - r), (x1 - r, y1 - r)):
            cv2.circle(img, (cx, cy), r, c, -1, cv2.LINE_AA)


def _text(img: np.ndarray, text: str, centre: tuple[float, float], height: float, color: RGB, thick: float = 0.1) -> None:
    """Text of about ``height`` px, centred on a point."""
    scale = height / 22.0
    t = max(1, round(height * thick))
    (w, h), _ = cv2.getTextSize(text, cv2.FONT_HERSHEY_SIMPLEX, scale, t)
    cv2.putText(img, text, (round(centre[0] - w / 2), round(centre[1] + h / 2)),
                cv2.FONT_HERSHEY_SIMPLEX, scale, _bgr(color), t, cv2.LINE_AA)


def draw_cat(img: np.ndarray, x: float, y: float, size: float, color: RGB) -> None:
    """The cat sitting on a cell centred at (x, y): coloured head with ears, white face,
    dark eyes, pink cheeks, feet below the cell and a tail curling up above it."""
    s = size / 2
    dark = _mix(color, (60, 40, 30), 0.35)
    # tail first, so the head covers its root
    tail = np.array([(x + 0.12 * s, y - 0.9 * s), (x + 0.16 * s, y - 1.2 * s),
                     (x + 0.08 * s, y - 1.4 * s), (x + 0.2 * s, y - 1.55 * s)]).round().astype(np.int32)
    cv2.polylines(img, [tail], False, _bgr(color), max(2, round(0.2 * s)), cv2.LINE_AA)
    for fx in (-0.45, 0.25):   # feet
        rounded_rect(img, x + fx * s, y + 0.8 * s, x + (fx + 0.2) * s, y + 1.12 * s, 0.08 * s, (250, 236, 226))
    rounded_rect(img, x - s, y - s, x + s, y + s, 0.12 * size, color)
    rounded_rect(img, x - 0.92 * s, y - 0.05 * s, x + 0.92 * s, y + 0.9 * s, 0.1 * size, (255, 255, 255))
    for ex in (-1, 1):         # ears, eyes, cheeks
        cv2.circle(img, (round(x + ex * 0.62 * s), round(y - 0.05 * s)), round(0.2 * s), _bgr(dark), max(1, round(0.06 * s)), cv2.LINE_AA)
        cv2.ellipse(img, (round(x + ex * 0.48 * s), round(y + 0.32 * s)), (max(1, round(0.1 * s)), max(1, round(0.15 * s))),
                    0, 0, 360, (30, 30, 30), -1, cv2.LINE_AA)
        cv2.circle(img, (round(x + ex * 0.72 * s), round(y + 0.55 * s)), max(1, round(0.09 * s)), _bgr((245, 150, 150)), -1, cv2.LINE_AA)
    cv2.ellipse(img, (round(x), round(y + 0.45 * s)), (max(1, round(0.12 * s)), max(1, round(0.08 * s))),
                0, 0, 180, _bgr(dark), max(1, round(0.05 * s)), cv2.LINE_AA)


def render_phone(board: Board, *, width: int = 1080, height: int = 1920, scale: float = 1.0,
                 cat: RGB | str = "tan", visited: list[Cell] | tuple[Cell, ...] = (), seed: int = 0,
                 frame: bool = True) -> tuple[np.ndarray, Truth]:
    """A phone capture of the level (BGR) and the truth it shows.

    ``scale`` zooms the board (1.0: the game's size, shrunk to fit wide boards);
    ``visited`` is the path drawn so far (from the start, which may be left out);
    ``frame`` draws the title, coins and buttons around the board; ``seed`` picks the
    level number and coins shown."""
    color = CATS[cat] if isinstance(cat, str) else tuple(cat)
    rng = np.random.default_rng(seed)
    u = width / 1080
    img = np.full((height, width, 3), _bgr(BACKGROUND), np.uint8)
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
    tint = _mix(color, (255, 255, 255), 0.45)
    for r, c in board.cells:
        x, y = centres[r * board.cols + c]
        rounded_rect(img, x - cell / 2, y - cell / 2, x + cell / 2, y + cell / 2, 0.14 * cell,
                     tint if (r, c) in done else CELL_GREY)
    if len(path) > 1:
        line = _mix(color, (0, 0, 0), 0.12)
        pts = np.array([centres[r * board.cols + c] for r, c in path]).round().astype(np.int32)
        cv2.polylines(img, [pts], False, _bgr(line), max(2, round(0.22 * cell)), cv2.LINE_AA)
        for p in pts[1:]:
            cv2.circle(img, (int(p[0]), int(p[1])), max(1, round(0.11 * cell)), _bgr(line), -1, cv2.LINE_AA)
    sx, sy = centres[board.start[0] * board.cols + board.start[1]]
    draw_cat(img, sx, sy, cell, color)
    text = board.to_text().replace("\n", "/")
    return img, Truth(text, tuple(centres), pitch, cell)


def _draw_frame(img: np.ndarray, u: float, level: int, coins: int) -> None:
    """Title, back button, menu pill, coins pill and the four round buttons."""
    w, h = img.shape[1], img.shape[0]
    cv2.rectangle(img, (0, round(28 * u)), (round(100 * u), round(168 * u)), _bgr((128, 222, 232)), -1)
    cv2.circle(img, (round(130 * u), round(98 * u)), round(70 * u), _bgr((0, 200, 215)), -1, cv2.LINE_AA)
    cv2.arrowedLine(img, (round(165 * u), round(98 * u)), (round(95 * u), round(98 * u)), (255, 255, 255),
                    max(2, round(22 * u)), cv2.LINE_AA, tipLength=0.6)
    _text(img, f"Level {level}", (w / 2 - 20 * u, 98 * u), 50 * u, (90, 90, 90), thick=0.1)
    rounded_rect(img, w - 345 * u, 50 * u, w - 57 * u, 140 * u, 45 * u, (200, 200, 200))
    cv2.circle(img, (round(w - 125 * u), round(95 * u)), round(22 * u), (255, 255, 255), max(2, round(7 * u)), cv2.LINE_AA)
    rounded_rect(img, w / 2 - 125 * u, 225 * u, w / 2 + 125 * u, 292 * u, 33 * u, (226, 226, 226))
    cv2.circle(img, (round(w / 2 - 90 * u), round(258 * u)), round(28 * u), _bgr((250, 210, 40)), -1, cv2.LINE_AA)
    _text(img, str(coins), (w / 2 + 25 * u, 258 * u), 40 * u, (150, 150, 150))
    for i, col in enumerate(((30, 150, 240), (150, 210, 20), (245, 120, 160), (250, 170, 0))):
        x = w * (0.2 + 0.2 * i)
        y = h - 140 * u
        rounded_rect(img, x - 70 * u, y, x + 70 * u, h, 20 * u, _mix(col, (255, 255, 255), 0.4))
        cv2.circle(img, (round(x), round(y)), round(70 * u), _bgr(col), -1, cv2.LINE_AA)
        cv2.circle(img, (round(x), round(y)), round(35 * u), (255, 255, 255), max(2, round(12 * u)), cv2.LINE_AA)
