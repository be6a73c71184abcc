"""Hint drawings as plain values, and their rendering onto an image with OpenCV.

A game's ``hints(parse, solution)`` returns a list of shapes in image/screen
coordinates; ``render`` draws them on a screenshot (``--annotate``, ``--hints window``)
and the overlay window draws the same list on its Tk canvas, so every hint looks the same
wherever it is shown. Colours are RGB.
"""
from __future__ import annotations

import math
from dataclasses import dataclass

import numpy as np

Point = tuple[float, float]
RGB = tuple[int, int, int]


@dataclass(frozen=True)
class Polyline:
    """A stroke through points; ``arrows`` puts a head on every segment ("each"), on the
    last one ("end") or nowhere ("none")."""

    points: tuple[Point, ...]
    color: RGB
    width: float = 6.0
    arrows: str = "end"


@dataclass(frozen=True)
class Marker:
    """A filled disc, e.g. the start of a path, with an optional label inside."""

    point: Point
    radius: float
    color: RGB
    label: str = ""


@dataclass(frozen=True)
class Label:
    """Text centred on a point, on a small dark plate so it reads on any background."""

    point: Point
    text: str
    color: RGB = (255, 255, 255)
    size: float = 16.0


Shape = Polyline | Marker | Label


def arrow_head(a: Point, b: Point, size: float) -> tuple[Point, Point, Point]:
    """The triangle of an arrow head at the middle of segment a→b pointing to b."""
    (x0, y0), (x1, y1) = a, b
    length = math.hypot(x1 - x0, y1 - y0) or 1.0
    ux, uy = (x1 - x0) / length, (y1 - y0) / length
    tip = ((x0 + x1) / 2 + ux * size / 2, (y0 + y1) / 2 + uy * size / 2)
    base = (tip[0] - ux * size, tip[1] - uy * size)
    half = size * 0.6
    return tip, (base[0] - uy * half, base[1] + ux * half), (base[0] + uy * half, base[1] - ux * half)


def arrow_heads(line: Polyline) -> list[tuple[Point, Point, Point]]:
    """The arrow-head triangles a polyline carries."""
    pairs = list(zip(line.points, line.points[1:]))
    if line.arrows == "none" or not pairs:
        return []
    if line.arrows == "end":
        pairs = pairs[-1:]
    return [arrow_head(a, b, line.width * 3.0) for a, b in pairs]


def bounds(shapes: list[Shape]) -> tuple[float, float, float, float]:
    """(x0, y0, x1, y1) covering every shape, with room for strokes and labels."""
    xs: list[float] = []
    ys: list[float] = []
    for s in shapes:
        if isinstance(s, Polyline):
            pad = s.width * 3
            pts = s.points
        elif isinstance(s, Marker):
            pad = s.radius
            pts = (s.point,)
        else:
            pad = s.size * max(1, len(s.text))
            pts = (s.point,)
        for x, y in pts:
            xs += [x - pad, x + pad]
            ys += [y - pad, y + pad]
    if not xs:
        return (0.0, 0.0, 0.0, 0.0)
    return (min(xs), min(ys), max(xs), max(ys))


def _bgr(color: RGB) -> tuple[int, int, int]:
    return (int(color[2]), int(color[1]), int(color[0]))


def render(image: np.ndarray, shapes: list[Shape]) -> np.ndarray:
    """A copy of a BGR image with the shapes drawn on it (anti-aliased)."""
    import cv2

    out = image.copy()
    for s in shapes:
        if isinstance(s, Polyline):
            pts = np.array([[round(x), round(y)] for x, y in s.points], np.int32)
            cv2.polylines(out, [pts], False, _bgr(s.color), max(1, round(s.width)), cv2.LINE_AA)
            for tri in arrow_heads(s):
                cv2.fillPoly(out, [np.array(tri, np.float64).round().astype(np.int32)],
                             _bgr(s.color), cv2.LINE_AA)
        elif isinstance(s, Marker):
            centre = (round(s.point[0]), round(s.point[1]))
            cv2.circle(out, centre, max(1, round(s.radius)), _bgr(s.color), -1, cv2.LINE_AA)
            cv2.circle(out, centre, max(1, round(s.radius)), (255, 255, 255), 2, cv2.LINE_AA)
            if s.label:
                _text(out, s.point, s.label, (255, 255, 255), s.radius * 0.9, plate=False)
        else:
            _text(out, s.point, s.text, s.color, s.size, plate=True)
    return out


def _text(image: np.ndarray, centre: Point, text: str, color: RGB, size: float, plate: bool) -> None:
    import cv2

    scale = max(0.3, size / 22.0)
    thick = max(1, round(scale * 2))
    (w, h), base = cv2.getTextSize(text, cv2.FONT_HERSHEY_SIMPLEX, scale, thick)
    x, y = round(centre[0] - w / 2), round(centre[1] + h / 2)
    if plate:
        cv2.rectangle(image, (x - 3, y - h - 3), (x + w + 3, y + base), (40, 40, 40), -1)
    cv2.putText(image, text, (x, y), cv2.FONT_HERSHEY_SIMPLEX, scale, _bgr(color), thick, cv2.LINE_AA)
