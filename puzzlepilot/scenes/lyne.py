"""LYNE screens drawn in the game's look, with the truth they show.

``render`` draws the game area like the real captures (``real/lyne/``): a border frame,
the background with large faint diamonds on the node lattice, faint lines between
neighbouring nodes, shapes (terminals with a darker ring and a cream centre), pale
octagonal hubs with diamond holes, the level name at the top and the cream tab at the top
right; drawn paths are cream double lines and fill one hub hole per pass. ``Play`` is a
level mid-play as the game draws it (``mid_play`` picks one): finished paths in cream with
cream rings round their nodes, the path being drawn as a single line in its shape's ring
colour with that ring round its nodes, its head part way to the next node, where ``pointer``
draws the mouse pointer. ``lit`` adds the
game's soft background light; ``on_desktop`` puts that window on a wallpaper under a title
bar, ``busy_desktop`` beside a terminal on a photo-like wallpaper; ``gif_frame``,
``small_crop`` and ``jpeg`` give recordings' and blogs' losses. ``fixture_cases`` builds
the vision's regression set: palettes, board sizes 2×2 to 6×8, window sizes 640×480 to 2560×1440,
desktops, half-drawn paths, JPEG, every palette under the game's light, GIF frames,
busy desktops, small crops and video frames, and screens with no LYNE board.
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


# The game's twelve palettes, exact RGB, as published by the linija project (docs/games.md#lyne-look).
PALETTES: dict[str, Palette] = {
    "original": Palette((233, 241, 223), (121, 189, 154), (137, 196, 164),
        {"t": (168, 219, 168), "d": (59, 134, 134), "s": (194, 120, 92)},
        {"t": (206, 240, 183), "d": (11, 72, 107), "s": (190, 79, 35)}, (167, 219, 216)),
    "deep space": Palette((239, 235, 223), (30, 30, 30), (59, 59, 57),
        {"t": (206, 137, 48), "d": (74, 178, 255), "s": (198, 0, 0)},
        {"t": (255, 165, 21), "d": (0, 134, 255), "s": (252, 31, 32)}, (209, 207, 184)),
    "moonbase": Palette((233, 239, 242), (146, 148, 151), (158, 161, 164),
        {"t": (170, 123, 123), "d": (122, 117, 124), "s": (115, 148, 175)},
        {"t": (183, 94, 94), "d": (82, 69, 86), "s": (83, 116, 165)}, (190, 214, 142)),
    "stone in focus": Palette((232, 240, 222), (116, 149, 153), (132, 162, 163),
        {"t": (186, 190, 204), "d": (216, 138, 85), "s": (88, 89, 91)},
        {"t": (103, 103, 124), "d": (175, 97, 44), "s": (35, 31, 32)}, (186, 108, 123)),
    "velvet ice": Palette((242, 237, 247), (155, 97, 119), (167, 117, 137),
        {"t": (61, 168, 196), "d": (191, 64, 64), "s": (20, 19, 19)},
        {"t": (0, 192, 237), "d": (153, 55, 55), "s": (56, 56, 56)}, (214, 135, 131)),
    "electro": Palette((235, 245, 247), (20, 20, 20), (50, 51, 52),
        {"t": (216, 158, 212), "d": (30, 214, 30), "s": (112, 232, 228)},
        {"t": (251, 0, 225), "d": (81, 255, 0), "s": (0, 249, 255)}, (251, 174, 23)),
    "tulip": Palette((238, 224, 248), (151, 114, 177), (164, 129, 187),
        {"t": (192, 81, 129), "d": (149, 183, 137), "s": (105, 151, 190)},
        {"t": (155, 12, 87), "d": (108, 159, 61), "s": (15, 120, 151)}, (222, 168, 202)),
    "tangerine": Palette((239, 232, 223), (211, 144, 110), (215, 156, 126),
        {"t": (221, 151, 205), "d": (147, 150, 29), "s": (38, 169, 224)},
        {"t": (181, 118, 163), "d": (100, 107, 8), "s": (40, 114, 188)}, (184, 200, 211)),
    "kind of blue": Palette((223, 232, 237), (45, 162, 219), (70, 172, 222),
        {"t": (157, 204, 215), "d": (213, 191, 100), "s": (78, 93, 169)},
        {"t": (87, 200, 232), "d": (164, 148, 85), "s": (59, 75, 158)}, (167, 219, 215)),
    "smoking room": Palette((229, 221, 237), (82, 69, 86), (103, 90, 107),
        {"t": (198, 162, 60), "d": (135, 79, 41), "s": (84, 100, 109)},
        {"t": (254, 200, 23), "d": (155, 102, 55), "s": (120, 142, 158)}, (204, 185, 163)),
    "desert": Palette((239, 234, 223), (196, 178, 148), (202, 186, 158),
        {"t": (232, 159, 54), "d": (181, 116, 111), "s": (38, 169, 224)},
        {"t": (239, 187, 101), "d": (160, 78, 68), "s": (27, 117, 187)}, (86, 86, 86)),
    "paddlepop": Palette((247, 243, 238), (214, 185, 135), (219, 193, 149),
        {"t": (111, 109, 188), "d": (107, 249, 107), "s": (214, 50, 136)},
        {"t": (29, 219, 183), "d": (244, 255, 31), "s": (198, 23, 198)}, (188, 145, 81)),
}


@dataclass(frozen=True)
class Truth:
    """What a rendered image shows: the board (rows joined by ``/``), the image centre of
    every grid place (row-major), and the pitch."""

    board: str
    cells: tuple[tuple[float, float], ...]
    pitch: float


def fill_poly(img: np.ndarray, points: list[tuple[float, float]], color: RGB) -> None:
    pts = np.array([[round(x * 16), round(y * 16)] for x, y in points], np.int32)
    cv2.fillPoly(img, [pts], bgr(color), cv2.LINE_AA, shift=4)


def outline(kind: str, x: float, y: float, r: float) -> list[tuple[float, float]]:
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
              filled_holes: int | list[RGB] = 0, ring: RGB | None = None) -> None:
    """One node: a shape (a terminal with ring and cream centre) or a hub with holes, the
    first ``filled_holes`` cream (or one per colour given). ``ring``: a path's colour round
    the shape (a terminal's ring, or a ring round an ordinary node the path passes)."""
    if ch.isdigit():
        r = _node_radius("h", pitch)
        fill_poly(img, outline("h", x, y, r), pal.hub)
        filled = [pal.cream] * filled_holes if isinstance(filled_holes, int) else filled_holes
        for i, (hx, hy) in enumerate(_holes(int(ch), x, y, r)):
            fill_poly(img, outline("d", hx, hy, r * 0.23), filled[i] if i < len(filled) else pal.background)
        return
    kind = ch.lower()
    r = _node_radius(kind, pitch)
    cy = y + (r * 0.1 if kind == "t" else 0)
    if ch.isupper():
        fill_poly(img, outline(kind, x, cy, r), ring or pal.rings[kind])
        fill_poly(img, outline(kind, x, cy + (r * 0.05 if kind == "t" else 0), r * 0.72), pal.fills[kind])
        fill_poly(img, outline(kind, x, cy + (r * 0.02 if kind == "t" else 0), r * 0.3), pal.cream)
    elif ring is not None:
        fill_poly(img, outline(kind, x, cy, r), ring)
        fill_poly(img, outline(kind, x, cy + (r * 0.03 if kind == "t" else 0), r * 0.8), pal.fills[kind])
    else:
        fill_poly(img, outline(kind, x, cy, r), pal.fills[kind])


@dataclass(frozen=True)
class Play:
    """A level mid-play as the game draws it: ``done`` paths finished (cream double lines,
    cream rings round their nodes, the hub holes they pass filled cream) and ``drawing``, the
    path being drawn (its nodes so far, by shape letter: a single line in the shape's ring
    colour, that ring round its nodes and in the holes it fills), its head ``reach`` of the
    way on to the node ``toward``."""

    done: dict[str, list[Pos]]
    drawing: tuple[str, list[Pos]] | None = None
    toward: Pos | None = None
    reach: float = 0.0

    def head(self, truth: "Truth", cols: int) -> tuple[float, float] | None:
        """Where the drawn path's head is in the image (the pointer's place), None when no
        path is being drawn."""
        if self.drawing is None:
            return None
        (r, c), (tr, tc) = self.drawing[1][-1], self.toward or self.drawing[1][-1]
        (x, y), (tx, ty) = truth.cells[r * cols + c], truth.cells[tr * cols + tc]
        return x + (tx - x) * self.reach, y + (ty - y) * self.reach


def mid_play(board: Board, solution: dict[str, list[list[int]]], rng: random.Random) -> Play:
    """A moment of play on the way to ``solution``: some shapes finished, one being drawn
    part way (at least its first node), its head part way on to its next node."""
    shapes = sorted(solution)
    rng.shuffle(shapes)
    done = {s: [tuple(p) for p in solution[s]] for s in shapes[:rng.randint(0, len(shapes) - 1)]}
    left = [s for s in shapes if s not in done]
    shape = left[0]
    path = [tuple(p) for p in solution[shape]]
    k = rng.randint(1, len(path) - 1)
    return Play(done, (shape, path[:k]), path[k], rng.uniform(0.0, 0.9))


def render(board: Board, pal: Palette, width: int = 640, height: int = 480,
           drawn: dict[str, list[list[int]]] | None = None, level: str = "B 25",
           light: int | None = None, play: Play | None = None) -> tuple[np.ndarray, Truth]:
    """The game area of ``width``×``height`` showing the board, with ``drawn`` partial
    paths (node lists) in cream, or the game's look mid-play (``play``); ``light`` (a seed)
    lights the background with a soft gradient as the game does, None leaves it flat like
    the captures in ``real/lyne``."""
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
            fill_poly(img, outline("d", x0 + c * pitch, y0 + r * pitch, pitch * 0.4), pal.faint)
    line = max(1, round(pitch * 0.02))
    for (r, c) in board.nodes():
        for dr, dc in ((0, 1), (1, -1), (1, 0), (1, 1)):
            if 0 <= r + dr < rows and 0 <= c + dc < cols and board.grid[r + dr][c + dc] != ".":
                a, b = centre[r][c], centre[r + dr][c + dc]
                cv2.line(img, (round(a[0]), round(a[1])), (round(b[0]), round(b[1])), bgr(pal.faint), line, cv2.LINE_AA)
    if light is not None:
        img = lit(img, light)
    if play is not None:
        _draw_play(img, board, play, centre, pitch, pal)
    else:
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
    fill_poly(img, [(width - tab * 1.6, 0), (width, 0), (width, tab * 0.2), (width - tab * 0.8, tab)], pal.border)
    _level_name(img, level, width / 2, height * 0.045, height * 0.035, pal)
    truth = Truth(board.to_text().replace("\n", "/"), tuple(p for row in centre for p in row), pitch)
    return img, truth


def _draw_play(img: np.ndarray, board: Board, play: Play, centre: list[list[tuple[float, float]]], pitch: float,
               pal: Palette) -> None:
    """The paths of ``play`` and the nodes under them, as the game draws them (a real
    capture, ``real/lyne/steam_gifa_f130.png``): hubs, then the lines, then the shapes over
    the lines' ends."""
    ring: dict[Pos, RGB] = {}
    holes: dict[Pos, list[RGB]] = {}
    paths = [(path, pal.cream) for path in play.done.values()]
    if play.drawing is not None:
        shape, path = play.drawing
        paths.append((path, pal.rings[shape]))
    for path, colour in paths:
        for pos in path:
            ring[pos] = colour
        for pos in path[1:-1]:
            holes.setdefault(pos, []).append(colour)
    shapes = [p for p in board.nodes() if not board.at(p).isdigit()]
    for (r, c) in board.nodes():
        if board.at((r, c)).isdigit():
            draw_node(img, board.grid[r][c], *centre[r][c], pitch, pal, holes.get((r, c), []))
    for path in play.done.values():
        _double_line(img, [centre[r][c] for r, c in path], pitch, pal.cream, gap=0.03, width=0.02)
    if play.drawing is not None:
        shape, path = play.drawing
        points = [centre[r][c] for r, c in path]
        if play.toward is not None:
            (hx, hy), (tx, ty) = points[-1], centre[play.toward[0]][play.toward[1]]
            points.append((hx + (tx - hx) * play.reach, hy + (ty - hy) * play.reach))
        thick = max(1, round(pitch * 0.08))
        for a, b in zip(points, points[1:]):
            cv2.line(img, (round(a[0]), round(a[1])), (round(b[0]), round(b[1])), bgr(pal.rings[shape]), thick,
                     cv2.LINE_AA)
    for (r, c) in shapes:
        draw_node(img, board.grid[r][c], *centre[r][c], pitch, pal, ring=ring.get((r, c)))


def pointer(img: np.ndarray, at: tuple[float, float], height: float) -> None:
    """The mouse pointer (a white arrow outlined in black) ``height`` pixels tall, its tip at ``at``."""
    arrow = np.array([(0, 0), (0, 16), (4, 12), (7, 18.5), (9.5, 17.5), (6.5, 11.5), (11.5, 11.5)]) * (height / 18.5)
    pts = np.round((arrow + at) * 16).astype(np.int32)
    cv2.fillPoly(img, [pts], (255, 255, 255), cv2.LINE_AA, shift=4)
    cv2.polylines(img, [pts], True, (0, 0, 0), max(1, round(height / 19)), cv2.LINE_AA, shift=4)


def lit(img: np.ndarray, seed: int) -> np.ndarray:
    """The image under the game's background light: brighter to one side and darker to
    the other (up to ±14 %), a soft spot, and a green or blue tint growing across it."""
    rng = np.random.default_rng(seed)
    h, w = img.shape[:2]
    yy, xx = np.mgrid[0:h, 0:w].astype(np.float32)
    u, v = xx / w - 0.5, yy / h - 0.5
    angle = rng.uniform(0, 2 * math.pi)
    sx, sy = rng.uniform(-0.3, 0.3, 2)
    gain = 1 + rng.uniform(0.08, 0.14) * 2 * (u * math.cos(angle) + v * math.sin(angle)) \
        + rng.uniform(0.0, 0.08) * np.exp(-((u - sx) ** 2 + (v - sy) ** 2) / 0.08)
    out = img.astype(np.float32) * gain[..., None]
    tint = rng.uniform(-12, 12) * (u * math.sin(angle) - v * math.cos(angle))
    out[..., rng.integers(0, 2)] += tint          # BGR: blue or green
    return out.clip(0, 255).astype(np.uint8)


def _double_line(img: np.ndarray, points: list[tuple[float, float]], pitch: float, color: RGB,
                 gap: float = 0.022, width: float = 0.012) -> None:
    """The game's drawn path: two thin parallel cream lines, each ``gap`` pitches off the
    middle, ``width`` pitches wide."""
    gap, width = pitch * gap, max(1, round(pitch * width))
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
               title: str = "LYNE", seed: int = 0, wallpaper: np.ndarray | None = None) -> tuple[np.ndarray, Truth]:
    """The game window with a title bar placed at ``at`` on a wallpaper of width×height
    (smooth waves of colour unless one is given)."""
    if wallpaper is None:
        rng = np.random.default_rng(seed)
        yy, xx = np.mgrid[0:height, 0:width].astype(np.float32)
        base = rng.integers(40, 200, 3)
        img = np.stack([(base[i] + 40 * np.sin(xx / (150 + 40 * i)) + 30 * np.cos(yy / 120)).clip(0, 255)
                        for i in range(3)], axis=2).astype(np.uint8)
    else:
        img = wallpaper.copy()
    bar = max(20, round(height * 0.025))
    h, w = window.shape[:2]
    x, y = at
    cv2.rectangle(img, (x - 1, y - bar - 1), (x + w, y + h), (60, 60, 60), -1)
    img[y - bar:y, x:x + w] = (80, 72, 70)
    cv2.putText(img, title, (x + 10, y - bar // 4), cv2.FONT_HERSHEY_SIMPLEX, bar / 32, (230, 230, 230), 1, cv2.LINE_AA)
    img[y:y + h, x:x + w] = window
    cells = tuple((cx + x, cy + y) for cx, cy in truth.cells)
    return img, Truth(truth.board, cells, truth.pitch)


def busy_desktop(window: np.ndarray, truth: Truth, width: int, height: int, at: tuple[int, int],
                 seed: int = 0) -> tuple[np.ndarray, Truth]:
    """The game window on a photo-like wallpaper (soft blobs of colour over fine grain)
    beside a terminal and another window, as in a screen recording of a desktop."""
    rng = np.random.default_rng(seed)
    coarse = rng.integers(0, 256, (6, 9, 3)).astype(np.uint8)
    wall = cv2.resize(coarse, (width, height), interpolation=cv2.INTER_CUBIC).astype(np.float32)
    detail = cv2.resize(rng.normal(0, 30, (height // 8, width // 8, 3)).astype(np.float32), (width, height))
    img = (wall + detail + rng.normal(0, 6, (height, width, 3))).clip(0, 255).astype(np.uint8)
    h, w = window.shape[:2]
    x, y = at
    # a terminal to one side of the game, another window on the other
    tw, th = min(width // 3, 700), min(height // 2, 500)
    tx = x + w + 40 if x + w + 40 + tw <= width else max(0, x - tw - 40)
    cv2.rectangle(img, (tx, 60), (tx + tw, 60 + th), (36, 30, 30), -1)
    for i in range(th // 22):
        cv2.putText(img, "$ " + "".join(rng.choice(list("abcdefghijklmnop ./-_0123")) for _ in range(28)),
                    (tx + 10, 90 + 22 * i), cv2.FONT_HERSHEY_PLAIN, 1.1, (200, 220, 200), 1, cv2.LINE_AA)
    ox, oy = rng.integers(0, max(1, width - 500)), max(0, height - 380)
    cv2.rectangle(img, (int(ox), oy), (int(ox) + 480, oy + 340), (236, 236, 236), -1)
    cv2.rectangle(img, (int(ox), oy), (int(ox) + 480, oy + 28), (200, 190, 180), -1)
    return on_desktop(window, truth, width, height, at, seed=seed, wallpaper=img)


def gif_frame(image: np.ndarray, colours: int = 256) -> np.ndarray:
    """The image as a frame of a GIF recording: an adaptive palette of ``colours`` with
    Floyd–Steinberg error diffusion."""
    from PIL import Image

    pil = Image.fromarray(image[..., ::-1])
    quant = pil.quantize(colors=colours, method=Image.Quantize.MEDIANCUT, dither=Image.Dither.FLOYDSTEINBERG)
    return np.asarray(quant.convert("RGB"))[..., ::-1].copy()


def jpeg(image: np.ndarray, quality: int = 85) -> np.ndarray:
    """The image after a JPEG round trip."""
    return cv2.imdecode(cv2.imencode(".jpg", image, [cv2.IMWRITE_JPEG_QUALITY, quality])[1], cv2.IMREAD_COLOR)


def small_crop(image: np.ndarray, truth: Truth, box: tuple[int, int, int, int], side: int = 240,
               blur: float = 0.0, quality: int | None = 75) -> tuple[np.ndarray, Truth]:
    """A part (x, y, w, h) of the image scaled to ``side`` px across, optionally blurred
    like a video frame, saved as a JPEG (``quality`` None: not): a blog's or a stream's
    picture of the game."""
    x, y, w, h = box
    k = side / w
    part = cv2.resize(image[y:y + h, x:x + w], (side, round(h * k)), interpolation=cv2.INTER_AREA)
    if blur:
        part = cv2.GaussianBlur(part, (0, 0), blur)
    cells = tuple(((cx - x) * k, (cy - y) * k) for cx, cy in truth.cells)
    return part if quality is None else jpeg(part, quality), Truth(truth.board, cells, truth.pitch * k)


def board_box(truth: Truth, margin: float) -> tuple[int, int, int, int]:
    """The box around the board's nodes with ``margin`` pitches on every side."""
    xs, ys = [x for x, _ in truth.cells], [y for _, y in truth.cells]
    pad = margin * truth.pitch
    x0, y0 = round(min(xs) - pad), round(min(ys) - pad)
    return x0, y0, round(max(xs) + pad) - x0, round(max(ys) + pad) - y0


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
    # real light: every palette lit, then GIF frames, small JPEG crops, a busy desktop
    # recorded as a GIF and a blurred video frame
    for n, pal_name in enumerate(PALETTES):
        rows, cols = 3 + n % 4, 3 + n % 5
        board, answer = generate(rows, cols, rng, hubs=rows * cols // 7)
        w, h = sizes[n % 4]
        img, t = render(board, PALETTES[pal_name], w, h, level=f"D {n + 1}", light=n,
                        drawn=half_drawn(board, answer, rng) if n % 4 == 3 else None)
        slug = pal_name.replace(" ", "_")
        add(f"lit_{slug}_{w}", img, t.board, f"generated {rows}x{cols}, {pal_name}, lit background, {w}x{h}")
        if n % 3 == 0:
            add(f"gif_{slug}_{w}", gif_frame(img, 128 + 64 * (n % 3)), t.board, f"the lit {pal_name} screen as a GIF frame")
        if n % 3 == 1 and n % 4 != 3:   # crops of level starts (a small mid-level crop may be refused)
            crop, ct = small_crop(img, t, board_box(t, 0.9), side=240 + 40 * (n % 2))
            add(f"crop_{slug}_{crop.shape[1]}", crop, ct.board, f"the lit {pal_name} board cut out at "
                f"{crop.shape[1]} px across, JPEG", ext="jpg")
    board, _ = generate(4, 5, rng, hubs=3)
    window, t = render(board, PALETTES["electro"], 640, 480, light=40)
    img, t = busy_desktop(window, t, 1600, 900, (520, 260), seed=40)
    add("desktop_gif_electro", gif_frame(img), t.board, "a small lit electro window on a busy desktop, GIF frame")
    window, t = render(board, PALETTES["velvet ice"], 1280, 720, light=41)
    frame = jpeg(cv2.GaussianBlur(cv2.resize(window, (480, 270), interpolation=cv2.INTER_AREA), (0, 0), 0.7), 60)
    add("video_velvet_ice_480", frame, t.board, "a lit velvet ice screen as a blurred 480x270 video frame", ext="jpg")
    img, t = render(Board.from_text("TSD/2S2/tsd/D2T"), PALETTES["moonbase"], 640, 480, light=42)
    crop, _ = small_crop(img, t, (260, 0, 380, 480), side=240)
    add("none_crop_cuts_the_board", crop, None, "a crop through the middle column of a moonbase board")
    # screens with no LYNE board: an empty game area, and a plain wallpaper
    empty = np.empty((480, 640, 3), np.uint8)
    empty[:] = bgr(PALETTES["original"].background)
    for x in range(0, 700, 145):
        for y in range(0, 500, 145):
            fill_poly(empty, outline("d", x, y, 58), PALETTES["original"].faint)
    add("none_empty_area", empty, None, "the game's background with no nodes")
    wall, _ = on_desktop(np.zeros((200, 300, 3), np.uint8), Truth("", (), 1.0), 1280, 720, (400, 200), seed=9)
    add("none_desktop", wall, None, "a desktop with a black window")
    return cases
