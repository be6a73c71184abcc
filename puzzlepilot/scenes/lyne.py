"""LYNE screens drawn in the game's look, with the truth they show.

``render`` draws the game area like the real captures (``real/lyne/``): a border frame,
the background with large faint diamonds on the node lattice, faint lines between
neighbouring nodes, shapes (terminals with a darker ring and a cream centre), pale
octagonal hubs with diamond holes, the level name at the top and the cream tab at the top
right; drawn paths are cream double lines and fill one hub hole per pass. ``on_desktop``
puts that window on a wallpaper under a title bar. ``fixture_cases`` builds the vision's
regression set: palettes, board sizes 2×2 to 6×8, window sizes 640×480 to 2560×1440,
desktops, half-drawn paths, JPEG, and screens with no LYNE board.
"""
from __future__ import annotations

import math
import random
from dataclasses import dataclass

import cv2
import numpy as np

from puzzlepilot.scenes import FixtureCase
from puzzlepilot.scenes.paint import bgr
from solvers.lyne import Board, generate

RGB = tuple[int, int, int]
Pos = tuple[int, int]


@dataclass(frozen=True)
class Palette:
    """The colours of one of the game's palettes (RGB)."""

    border: RGB
    background: RGB
    faint: RGB
    fills: dict[str, RGB]       # t, d, s ordinary fill
    rings: dict[str, RGB]       # t, d, s terminal ring
    hub: RGB

    @property
    def cream(self) -> RGB:
        """Terminal centres, drawn paths and filled holes share the border's cream."""
        return self.border


# Original and Deep Space are the game's (GAMES.md); the others are our own stand-ins.
PALETTES: dict[str, Palette] = {
    "original": Palette((233, 241, 223), (121, 189, 154), (137, 196, 164),
                        {"t": (168, 219, 168), "d": (59, 134, 134), "s": (194, 120, 92)},
                        {"t": (206, 240, 183), "d": (11, 72, 107), "s": (190, 79, 35)}, (167, 219, 216)),
    "deep space": Palette((239, 235, 223), (30, 30, 30), (59, 59, 57),
                          {"t": (206, 137, 48), "d": (74, 178, 255), "s": (198, 0, 0)},
                          {"t": (255, 165, 21), "d": (0, 134, 255), "s": (252, 31, 32)}, (209, 207, 184)),
    "tangerine": Palette((250, 228, 200), (238, 120, 60), (244, 140, 84),
                         {"t": (250, 200, 90), "d": (120, 60, 140), "s": (60, 110, 170)},
                         {"t": (255, 236, 140), "d": (70, 20, 90), "s": (20, 60, 120)}, (255, 230, 150)),
    "kind of blue": Palette((214, 226, 240), (40, 70, 120), (54, 86, 140),
                            {"t": (120, 200, 230), "d": (230, 200, 90), "s": (220, 110, 140)},
                            {"t": (60, 150, 200), "d": (255, 236, 140), "s": (170, 50, 90)}, (190, 200, 220)),
    "paddlepop": Palette((255, 240, 245), (235, 150, 180), (242, 166, 194),
                         {"t": (110, 190, 120), "d": (90, 120, 220), "s": (240, 140, 40)},
                         {"t": (40, 130, 60), "d": (40, 60, 170), "s": (200, 90, 0)}, (255, 246, 210)),
}


@dataclass(frozen=True)
class Truth:
    """What a rendered image shows: the board (rows joined by ``/``), the image centre of
    every grid place (row-major), and the pitch."""

    board: str
    cells: tuple[tuple[float, float], ...]
    pitch: float


def _poly(img: np.ndarray, points: list[tuple[float, float]], color: RGB) -> None:
    pts = np.array([[round(x * 16), round(y * 16)] for x, y in points], np.int32)
    cv2.fillPoly(img, [pts], bgr(color), cv2.LINE_AA, shift=4)


def _outline(kind: str, x: float, y: float, r: float) -> list[tuple[float, float]]:
    """The corners of a node shape of half-size r centred on (x, y)."""
    if kind == "t":
        h = r * 1.75
        return [(x, y - h * 0.55), (x + r, y + h * 0.45), (x - r, y + h * 0.45)]
    if kind == "d":
        return [(x, y - r), (x + r, y), (x, y + r), (x - r, y)]
    if kind == "s":
        return [(x - r, y - r), (x + r, y - r), (x + r, y + r), (x - r, y + r)]
    cut = r * 0.6   # the octagon: the square with its corners cut
    return [(x - r + cut, y - r), (x + r - cut, y - r), (x + r, y - r + cut), (x + r, y + r - cut),
            (x + r - cut, y + r), (x - r + cut, y + r), (x - r, y + r - cut), (x - r, y - r + cut)]


def _holes(k: int, x: float, y: float, r: float) -> list[tuple[float, float]]:
    """Centres of a hub's k holes as in the game's sprites: two side by side, the third
    above them, the fourth below (0.159 of the hub's width from its centre)."""
    d = r * 0.318
    layouts = {1: [(0, 0)], 2: [(-d, 0), (d, 0)], 3: [(-d, 0), (d, 0), (0, -d)],
               4: [(-d, 0), (d, 0), (0, -d), (0, d)]}
    return [(x + dx, y + dy) for dx, dy in layouts[k]]


def _node_radius(kind: str, pitch: float) -> float:
    return pitch * {"t": 0.36, "d": 0.40, "s": 0.29}.get(kind, 0.35)


def draw_node(img: np.ndarray, ch: str, x: float, y: float, pitch: float, pal: Palette,
              filled_holes: int = 0) -> None:
    """One node: a shape (a terminal with ring and cream centre) or a hub with holes."""
    if ch.isdigit():
        r = _node_radius("h", pitch)
        _poly(img, _outline("h", x, y, r), pal.hub)
        for i, (hx, hy) in enumerate(_holes(int(ch), x, y, r)):
            color = pal.cream if i < filled_holes else pal.background
            _poly(img, _outline("d", hx, hy, r * 0.23), color)
        return
    kind = ch.lower()
    r = _node_radius(kind, pitch)
    cy = y + (r * 0.1 if kind == "t" else 0)
    if ch.isupper():
        _poly(img, _outline(kind, x, cy, r), pal.rings[kind])
        _poly(img, _outline(kind, x, cy + (r * 0.05 if kind == "t" else 0), r * 0.72), pal.fills[kind])
        _poly(img, _outline(kind, x, cy + (r * 0.02 if kind == "t" else 0), r * 0.3), pal.cream)
    else:
        _poly(img, _outline(kind, x, cy, r), pal.fills[kind])


def render(board: Board, pal: Palette, width: int = 640, height: int = 480,
           drawn: dict[str, list[list[int]]] | None = None, level: str = "B 25") -> tuple[np.ndarray, Truth]:
    """The game area of ``width``×``height`` showing the board, with ``drawn`` partial
    paths (node lists) in cream."""
    img = np.empty((height, width, 3), np.uint8)
    img[:] = bgr(pal.background)
    rows, cols = board.rows, board.cols
    pitch = min(0.84 * width / cols, 0.82 * height / rows, 0.30 * height)
    x0 = width / 2 - pitch * (cols - 1) / 2
    y0 = height / 2 - pitch * (rows - 1) / 2 + height * 0.02
    centre = [[(x0 + c * pitch, y0 + r * pitch) for c in range(cols)] for r in range(rows)]
    # faint diamonds on the lattice, continued across the whole area
    for r in range(-math.ceil(y0 / pitch) - 1, math.ceil((height - y0) / pitch) + 2):
        for c in range(-math.ceil(x0 / pitch) - 1, math.ceil((width - x0) / pitch) + 2):
            _poly(img, _outline("d", x0 + c * pitch, y0 + r * pitch, pitch * 0.4), pal.faint)
    line = max(1, round(pitch * 0.02))
    for (r, c) in board.nodes():
        for dr, dc in ((0, 1), (1, -1), (1, 0), (1, 1)):
            if 0 <= r + dr < rows and 0 <= c + dc < cols and board.grid[r + dr][c + dc] != ".":
                a, b = centre[r][c], centre[r + dr][c + dc]
                cv2.line(img, (round(a[0]), round(a[1])), (round(b[0]), round(b[1])), bgr(pal.faint), line, cv2.LINE_AA)
    passes: dict[Pos, int] = {}
    for path in (drawn or {}).values():
        for r, c in path[1:-1]:
            passes[(r, c)] = passes.get((r, c), 0) + 1
    for (r, c) in board.nodes():
        draw_node(img, board.grid[r][c], *centre[r][c], pitch, pal, passes.get((r, c), 0))
    for path in (drawn or {}).values():
        _double_line(img, [centre[r][c] for r, c in path], pitch, pal.cream)
    border = max(2, round(min(width, height) * 0.011))
    cv2.rectangle(img, (0, 0), (width - 1, height - 1), bgr(pal.border), border * 2 - 1)
    tab = height * 0.06
    _poly(img, [(width - tab * 1.6, 0), (width, 0), (width, tab * 0.2), (width - tab * 0.8, tab)], pal.border)
    _level_name(img, level, width / 2, height * 0.045, height * 0.035, pal)
    truth = Truth(board.to_text().replace("\n", "/"), tuple(p for row in centre for p in row), pitch)
    return img, truth


def _double_line(img: np.ndarray, points: list[tuple[float, float]], pitch: float, color: RGB) -> None:
    """The game's drawn path: two thin parallel cream lines."""
    gap, width = pitch * 0.022, max(1, round(pitch * 0.012))
    for a, b in zip(points, points[1:]):
        length = math.hypot(b[0] - a[0], b[1] - a[1]) or 1.0
        nx, ny = -(b[1] - a[1]) / length * gap, (b[0] - a[0]) / length * gap
        for s in (-1, 1):
            cv2.line(img, (round(a[0] + s * nx), round(a[1] + s * ny)), (round(b[0] + s * nx), round(b[1] + s * ny)),
                     bgr(color), width, cv2.LINE_AA)


def _level_name(img: np.ndarray, text: str, x: float, y: float, size: float, pal: Palette) -> None:
    """The level name, half-transparent cream like the game's."""
    layer = img.copy()
    scale = size / 22.0
    thick = max(1, round(size * 0.08))
    (w, h), _ = cv2.getTextSize(text, cv2.FONT_HERSHEY_SIMPLEX, scale, thick)
    cv2.putText(layer, text, (round(x - w / 2), round(y + h / 2)), cv2.FONT_HERSHEY_SIMPLEX, scale,
                bgr(pal.cream), thick, cv2.LINE_AA)
    cv2.addWeighted(layer, 0.5, img, 0.5, 0, dst=img)


def on_desktop(window: np.ndarray, truth: Truth, width: int, height: int, at: tuple[int, int],
               title: str = "LYNE", seed: int = 0) -> tuple[np.ndarray, Truth]:
    """The game window with a title bar placed at ``at`` on a wallpaper of width×height."""
    rng = np.random.default_rng(seed)
    yy, xx = np.mgrid[0:height, 0:width].astype(np.float32)
    base = rng.integers(40, 200, 3)
    img = np.stack([(base[i] + 40 * np.sin(xx / (150 + 40 * i)) + 30 * np.cos(yy / 120)).clip(0, 255)
                    for i in range(3)], axis=2).astype(np.uint8)
    bar = max(20, round(height * 0.025))
    h, w = window.shape[:2]
    x, y = at
    cv2.rectangle(img, (x - 1, y - bar - 1), (x + w, y + h), (60, 60, 60), -1)
    img[y - bar:y, x:x + w] = (80, 72, 70)
    cv2.putText(img, title, (x + 10, y - bar // 4), cv2.FONT_HERSHEY_SIMPLEX, bar / 32, (230, 230, 230), 1, cv2.LINE_AA)
    img[y:y + h, x:x + w] = window
    cells = tuple((cx + x, cy + y) for cx, cy in truth.cells)
    return img, Truth(truth.board, cells, truth.pitch)


def half_drawn(board: Board, solution: dict[str, list[list[int]]], rng: random.Random) -> dict[str, list[list[int]]]:
    """The first part of one or two paths, as a player leaves them mid-level."""
    shapes = rng.sample(sorted(solution), k=min(2, len(solution)))
    return {s: solution[s][:rng.randint(2, max(2, len(solution[s]) - 1))] for s in shapes}


REAL_BOARDS = ("T.T/ttt", "TD/2d/TD", "TSD/2S2/tsd/D2T")


def fixture_cases() -> list[FixtureCase]:
    """The vision's regression set (deterministic)."""
    rng = random.Random(4)
    cases: list[FixtureCase] = []

    def add(name: str, img: np.ndarray, board: str | None, note: str, ext: str = "png") -> None:
        cases.append(FixtureCase(name, img, board, ext=ext, note=note))

    sizes = [(640, 480), (800, 600), (1280, 720), (1920, 1080), (2560, 1440)]
    for i, text in enumerate(REAL_BOARDS):
        for pal in ("original", "deep space"):
            w, h = sizes[i]
            img, t = render(Board.from_text(text), PALETTES[pal], w, h)
            add(f"real_{i}_{pal.replace(' ', '_')}_{w}", img, t.board, f"a real level, {pal}, {w}x{h}")
    shapes = [(2, 2), (3, 4), (4, 5), (5, 6), (6, 8), (6, 8)]
    for i, (rows, cols) in enumerate(shapes):
        pal_name = list(PALETTES)[i % len(PALETTES)]
        board, answer = generate(rows, cols, rng, hubs=min(6, rows * cols // 6),
                                 shapes="tds"[:1 + i % 3] if rows * cols < 12 else "tds")
        w, h = sizes[(i + 1) % len(sizes)]
        drawn = half_drawn(board, answer, rng) if i % 2 else None
        img, t = render(board, PALETTES[pal_name], w, h, drawn=drawn, level=f"{'ABCDE'[i % 5]} {i + 3}")
        note = f"generated {board.rows}x{board.cols}, {pal_name}, {w}x{h}" + (", paths half drawn" if drawn else "")
        if i in (2, 4):
            img, t = on_desktop(img, t, max(w + 200, 1920), max(h + 160, 1080), (100 + 20 * i, 90), seed=i)
            note += ", on a desktop with a title bar"
        add(f"gen_{board.rows}x{board.cols}_{i}", img, t.board, note, ext="jpg" if i == 3 else "png")
    extra = [((6, 8), "original", (640, 480), False, True), ((4, 6), "deep space", (2560, 1440), True, False),
             ((5, 5), "kind of blue", (1024, 768), False, False)]
    for n, ((rows, cols), pal_name, (w, h), drawn_too, desktop) in enumerate(extra):
        board, answer = generate(rows, cols, rng, hubs=rows * cols // 6)
        drawn = half_drawn(board, answer, rng) if drawn_too else None
        img, t = render(board, PALETTES[pal_name], w, h, drawn=drawn, level=f"C {n + 10}")
        note = f"generated {board.rows}x{board.cols}, {pal_name}, {w}x{h}" + (", paths half drawn" if drawn else "")
        if desktop:
            img, t = on_desktop(img, t, 1280, 720, (300, 140), seed=20 + n)
            note += ", small window on a desktop"
        add(f"extra_{pal_name.replace(' ', '_')}_{w}", img, t.board, note, ext="jpg" if n == 2 else "png")
    # screens with no LYNE board: an empty game area, and a plain wallpaper
    empty = np.empty((480, 640, 3), np.uint8)
    empty[:] = bgr(PALETTES["original"].background)
    for x in range(0, 700, 145):
        for y in range(0, 500, 145):
            _poly(empty, _outline("d", x, y, 58), PALETTES["original"].faint)
    add("none_empty_area", empty, None, "the game's background with no nodes")
    wall, _ = on_desktop(np.zeros((200, 300, 3), np.uint8), Truth("", (), 1.0), 1280, 720, (400, 200), seed=9)
    add("none_desktop", wall, None, "a desktop with a black window")
    return cases
