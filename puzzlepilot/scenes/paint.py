"""Drawing pieces every game's scenes share, and pictures that are no game at all
(desktops, photos, shapes) for the negatives the visions must refuse. Colours are RGB."""
from __future__ import annotations

import cv2
import numpy as np

RGB = tuple[int, int, int]


def bgr(color: RGB) -> tuple[int, int, int]:
    """An RGB colour as OpenCV takes it."""
    return (int(color[2]), int(color[1]), int(color[0]))


def shade(color: RGB, k: float) -> RGB:
    """Darker (k < 0) or lighter (k > 0) by a share."""
    return tuple(round(v + ((255 - v) if k > 0 else v) * k) for v in color)  # type: ignore[return-value]


def mix(color: RGB, other: RGB, t: float) -> RGB:
    """``color`` moved a share t of the way toward ``other``."""
    return tuple(round(a + (b - a) * t) for a, b in zip(color, other))  # type: ignore[return-value]


def rounded_rect(img: np.ndarray, x0: float, y0: float, x1: float, y1: float, radius: float, color: RGB) -> None:
    """A filled rectangle with round corners (OpenCV has none)."""
    x0, y0, x1, y1 = round(x0), round(y0), round(x1), round(y1)
    r = max(0, min(round(radius), (x1 - x0) // 2, (y1 - y0) // 2))
    c = bgr(color)
    cv2.rectangle(img, (x0 + r, y0), (x1 - r, y1), c, -1)
    cv2.rectangle(img, (x0, y0 + r), (x1, y1 - r), c, -1)
    if r:
        for cx, cy in ((x0 + r, y0 + r), (x1 - r, y0 + r), (x0 + r, y1 - r), (x1 - r, y1 - r)):
            cv2.circle(img, (cx, cy), r, c, -1, cv2.LINE_AA)


def render_desktop(width: int, height: int, seed: int) -> np.ndarray:
    """A desktop: gradient wallpaper, coloured icons, a taskbar and a few windows with
    title bars, text lines and buttons (BGR)."""
    rng = np.random.default_rng(seed)
    ramp = np.linspace(0.0, 1.0, height)[:, None, None]
    top, bottom = np.array([150, 90, 40]), np.array([220, 160, 90])   # BGR
    img = np.broadcast_to(top + (bottom - top) * ramp, (height, width, 3)).astype(np.uint8).copy()
    for i in range(6):
        col = tuple(int(v) for v in rng.integers(40, 255, 3))
        rounded_rect(img, 20, 20 + i * 90, 80, 80 + i * 90, 10, col)
    cv2.rectangle(img, (0, height - 44), (width, height), (48, 44, 40), -1)
    for _ in range(3):
        w, h = int(rng.integers(width // 4, width // 2)), int(rng.integers(height // 4, height // 2))
        x, y = int(rng.integers(100, width - w)), int(rng.integers(0, height - h - 44))
        cv2.rectangle(img, (x, y), (x + w, y + h), (252, 252, 252), -1)
        cv2.rectangle(img, (x, y), (x + w, y + 30), (222, 222, 222), -1)
        cv2.rectangle(img, (x, y), (x + w, y + h), (160, 160, 160), 1)
        for k in range(3):
            cv2.circle(img, (x + w - 20 - 24 * k, y + 15), 7, ((90, 90, 235), (80, 200, 250), (90, 200, 90))[k], -1, cv2.LINE_AA)
        for line in range(y + 50, y + h - 40, 22):
            length = int(rng.integers(w // 4, w - 40))
            cv2.line(img, (x + 20, line), (x + 20 + length, line), (120, 120, 120), 3)
        rounded_rect(img, x + w - 110, y + h - 36, x + w - 20, y + h - 10, 5, (209, 209, 209))
    return img


def noise_photo(width: int, height: int, seed: int) -> np.ndarray:
    """A photo-like image: smooth random colour fields with grain."""
    rng = np.random.default_rng(seed)
    coarse = rng.integers(0, 256, (6, 10, 3), dtype=np.uint8)
    img = cv2.resize(coarse, (width, height), interpolation=cv2.INTER_CUBIC).astype(np.int16)
    img += rng.normal(0, 12, img.shape).astype(np.int16)
    return np.clip(img, 0, 255).astype(np.uint8)


def shapes_scene(width: int, height: int, seed: int) -> np.ndarray:
    """Random circles, rectangles and triangles in many colours, greys among them."""
    rng = np.random.default_rng(seed)
    img = np.full((height, width, 3), 245, np.uint8)
    for _ in range(40):
        col = tuple(int(v) for v in (rng.integers(0, 256, 3) if rng.random() < 0.6 else [rng.integers(120, 230)] * 3))
        x, y, s = int(rng.integers(0, width)), int(rng.integers(0, height)), int(rng.integers(20, 140))
        kind = rng.integers(0, 3)
        if kind == 0:
            cv2.circle(img, (x, y), s // 2, col, -1, cv2.LINE_AA)
        elif kind == 1:
            rounded_rect(img, x, y, x + s, y + s * rng.uniform(0.6, 1.5), s * 0.1, col)
        else:
            tri = np.array([(x, y), (x + s, y), (x + s // 2, y - s)], np.int32)
            cv2.fillPoly(img, [tri], col, cv2.LINE_AA)
    return img
