"""Ring-battle screens (Paper Mario: The Origami King) drawn in the game's look.

``render`` draws a battle: a stage backdrop with a crowd, the round arena (a rim, 4 rings
of 12 tiles with dark joints, a central disc), enemies standing upright on their tiles
(several kinds of figure, with shadows), HP at the top left, the timer and the
"Ring Moves ×N" panel at the top right. Styles change the tiles' colours and patterns.
``CALIBRATION_STYLES`` are looks the default vision is not made for (``paper``: a
checkerboard of two tile colours per ring, flat folded-paper enemies, a curtain behind);
calibration learns them (``calibration/rings.py``). ``fixture_cases`` builds the vision's regression set: sizes, styles, JPEG, a desktop
window around the game, and scenes with no arena (or a look-alike that is not one).
``render_camera`` draws the game's own camera look with its whole HUD (button bar, "Hint",
"Cheer", "Flee", coins, "Bug Time"); ``render_boss``, ``render_menu`` and ``render_overworld``
draw the game's screens that hold no enemy board, for the vision to refuse.
"""
from __future__ import annotations

import math
import random
from dataclasses import dataclass, replace

import cv2
import numpy as np

from puzzlepilot.scenes import FixtureCase
from puzzlepilot.scenes.paint import bgr
from solvers.rings import RINGS, SLICES, Board, generate
from vision.rings import Arena, bold_font

RGB = tuple[int, int, int]


@dataclass(frozen=True)
class Style:
    name: str
    sky: tuple[RGB, RGB]          # backdrop gradient, top and bottom
    tiles: tuple[RGB, RGB, RGB, RGB]   # ring 0 … 3
    joint: RGB                    # the lines between tiles
    disc: RGB                     # the central disc
    rim: RGB
    pattern: str                  # "plain", "dot" or "stripe" on every tile, or "checker"
    checker: tuple[RGB, RGB, RGB, RGB] | None = None   # "checker": ring r's other tile colour
    figures: str = "toy"          # enemies: "toy" (round figures) or "paper" (folded paper)
    stage: str = "crowd"          # behind the arena: "crowd" or "curtain"


STYLES: dict[str, Style] = {s.name: s for s in (
    Style("earth", ((40, 34, 60), (92, 70, 60)), ((222, 200, 160), (212, 188, 146), (222, 200, 160), (204, 178, 136)),
          (120, 86, 60), (236, 214, 170), (150, 110, 76), "plain"),
    Style("water", ((18, 40, 70), (30, 90, 120)), ((150, 200, 230), (128, 184, 222), (150, 200, 230), (112, 170, 214)),
          (40, 80, 130), (190, 226, 244), (60, 100, 150), "dot"),
    Style("night", ((20, 16, 30), (60, 40, 70)), ((176, 168, 196), (160, 150, 184), (176, 168, 196), (146, 136, 172)),
          (70, 60, 96), (206, 198, 222), (96, 80, 120), "stripe"),
)}

# Looks for calibration only (a profile learns them); ``STYLES`` is what the default
# vision's tests and the practice board draw.
CALIBRATION_STYLES: dict[str, Style] = {s.name: s for s in (
    Style("paper", ((70, 16, 24), (150, 40, 40)), ((236, 226, 200), (214, 200, 170), (236, 226, 200), (200, 184, 150)),
          (96, 70, 50), (246, 240, 222), (60, 48, 40), "checker",
          checker=((96, 168, 150), (80, 150, 136), (96, 168, 150), (70, 136, 124)), figures="paper", stage="curtain"),
)}

KINDS = "gskb"   # goomba, shy guy, koopa, bob-omb


def style_named(name: str) -> Style:
    """A style of ``STYLES`` or ``CALIBRATION_STYLES`` by name."""
    return STYLES.get(name) or CALIBRATION_STYLES[name]


def _shade(c: RGB, k: float) -> RGB:
    return tuple(int(max(0, min(255, v * k))) for v in c)  # type: ignore[return-value]


def arena_for(width: int, height: int) -> Arena:
    """Where the arena sits in a frame: centred low, filling most of the height."""
    outer = height * 0.40
    return Arena(width / 2, height * 0.55, outer, outer * 0.26)


# ---------------------------------------------------------------------------- the stage

def backdrop(width: int, height: int, style: Style, seed: int) -> np.ndarray:
    """The stage behind the arena: a gradient and a crowd of small figures."""
    t = np.linspace(0.0, 1.0, height)[:, None, None]
    top, bottom = np.array(bgr(style.sky[0]), float), np.array(bgr(style.sky[1]), float)
    img = np.repeat((top * (1 - t) + bottom * t), width, axis=1).astype(np.uint8)
    rng = random.Random(seed)
    unit = height / 60
    if style.stage == "curtain":        # vertical folds, dark and light by turns
        folds = 0.8 + 0.2 * np.cos(np.arange(width) / (unit * 3) + seed)
        return (img * folds[None, :, None]).astype(np.uint8)
    for _ in range(140):
        x, y = rng.uniform(0, width), rng.uniform(height * 0.05, height * 0.35)
        col = (rng.randrange(60, 230), rng.randrange(60, 230), rng.randrange(60, 230))
        cv2.circle(img, (round(x), round(y)), round(unit * rng.uniform(0.6, 1.2)), col, -1, cv2.LINE_AA)
        cv2.ellipse(img, (round(x), round(y + unit * 1.6)), (round(unit * 1.1), round(unit)), 0, 180, 360,
                    col, -1, cv2.LINE_AA)
    return img


def draw_arena(img: np.ndarray, arena: Arena, style: Style) -> None:
    """Rim, tiles (filled in polar form), joints and the central disc."""
    h, w = img.shape[:2]
    cx, cy, R = arena.cx, arena.cy, arena.outer
    cv2.circle(img, (round(cx), round(cy)), round(R * 1.07), bgr(_shade(style.rim, 0.7)), -1, cv2.LINE_AA)
    cv2.circle(img, (round(cx), round(cy)), round(R * 1.04), bgr(style.rim), -1, cv2.LINE_AA)
    x0, x1 = max(0, int(cx - R) - 1), min(w, int(cx + R) + 2)
    y0, y1 = max(0, int(cy - R) - 1), min(h, int(cy + R) + 2)
    ys, xs = np.mgrid[y0:y1, x0:x1].astype(np.float32)
    dx, dy = cx - xs, cy - ys
    rad = np.hypot(dx, dy)
    ang = np.degrees(np.arctan2(dy, dx)) % 360.0          # clockwise from 9 o'clock
    inside = (rad <= R) & (rad >= arena.inner)
    ring = np.clip(((R - rad) / arena.width).astype(int), 0, RINGS - 1)
    colours = np.array([bgr(c) for c in style.tiles], np.float32)[ring]
    # Light falls from the top: tiles are a little brighter on the far side.
    colours *= (1.0 + 0.06 * (dy / R))[..., None]
    local_r = ((R - rad) / arena.width) % 1.0             # 0..1 across the ring
    local_a = ((ang + 15.0) % 30.0) / 30.0                # 0..1 across the slice
    if style.pattern == "dot":
        dot = np.hypot((local_r - 0.5) * arena.width, (local_a - 0.5) * np.radians(30) * rad) < arena.width * 0.12
        colours[dot] *= 1.12
    elif style.pattern == "stripe":
        colours[np.abs(local_r - 0.5) < 0.06] *= 0.9
    elif style.pattern == "checker" and style.checker is not None:
        odd = (ring + np.round(ang / 30.0).astype(int)) % 2 == 1
        other = np.array([bgr(c) for c in style.checker], np.float32)[ring] * (1.0 + 0.06 * (dy / R))[..., None]
        colours[odd] = other[odd]
    region = img[y0:y1, x0:x1]
    region[inside] = np.clip(colours[inside], 0, 255).astype(np.uint8)
    joint = bgr(style.joint)
    thick = max(1, round(arena.width * 0.07))
    for k in range(RINGS + 1):
        cv2.circle(img, (round(cx), round(cy)), round(arena.inner + k * arena.width), joint, thick, cv2.LINE_AA)
    for k in range(SLICES):
        a, b = arena.point(arena.inner, 15.0 + 30.0 * k), arena.point(R, 15.0 + 30.0 * k)
        cv2.line(img, (round(a[0]), round(a[1])), (round(b[0]), round(b[1])), joint, thick, cv2.LINE_AA)
    cv2.circle(img, (round(cx), round(cy)), round(arena.inner - thick), bgr(style.disc), -1, cv2.LINE_AA)
    cv2.circle(img, (round(cx), round(cy)), round(arena.inner * 0.55), bgr(_shade(style.disc, 0.9)), thick, cv2.LINE_AA)


# ---------------------------------------------------------------------------- enemies

PAPER = {"g": (196, 120, 60), "s": (220, 60, 90), "k": (90, 170, 60), "b": (70, 80, 150)}


def draw_paper_enemy(img: np.ndarray, x: float, y: float, size: float, kind: str) -> None:
    """A folded-paper figure standing on (x, y): a triangle body with a lighter fold, a
    diamond head with two dot eyes, a thin dark outline."""
    col = PAPER.get(kind, (150, 90, 160))

    def poly(points: list[tuple[float, float]], colour: RGB) -> None:
        pts = np.array([[round(x + dx * size), round(y + dy * size)] for dx, dy in points], np.int32)
        cv2.fillPoly(img, [pts], bgr(colour), cv2.LINE_AA)
        cv2.polylines(img, [pts], True, (30, 30, 30), max(1, round(size * 0.03)), cv2.LINE_AA)

    poly([(-0.3, 0.36), (0.3, 0.36), (0.0, -0.1)], col)
    poly([(0.0, 0.36), (0.3, 0.36), (0.0, -0.1)], _shade(col, 1.3))
    poly([(0.0, -0.44), (0.2, -0.22), (0.0, 0.0), (-0.2, -0.22)], _shade(col, 1.15))
    for sx in (-0.07, 0.07):
        cv2.circle(img, (round(x + sx * size), round(y - 0.24 * size)), max(1, round(0.035 * size)), (20, 20, 20), -1, cv2.LINE_AA)


def draw_enemy(img: np.ndarray, x: float, y: float, size: float, kind: str) -> None:
    """A figure standing on (x, y), about ``size`` pixels tall, upright on screen."""
    def pt(dx: float, dy: float) -> tuple[int, int]:
        return round(x + dx * size), round(y + dy * size)

    def ell(dx: float, dy: float, rx: float, ry: float, col: RGB, a0: int = 0, a1: int = 360) -> None:
        cv2.ellipse(img, pt(dx, dy), (max(1, round(rx * size)), max(1, round(ry * size))), 0, a0, a1,
                    bgr(col), -1, cv2.LINE_AA)

    def eyes(dy: float, gap: float, r: float) -> None:
        for sx in (-gap, gap):
            ell(sx, dy, r, r * 1.4, (255, 255, 255))
            ell(sx, dy + r * 0.3, r * 0.5, r * 0.8, (20, 20, 20))

    # A soft shadow: the ellipse blended in a small box around it.
    (sx, sy), (ax, ay) = pt(0, 0.36), (round(0.36 * size), round(0.12 * size))
    x0, y0 = max(0, sx - ax - 1), max(0, sy - ay - 1)
    box = img[y0:sy + ay + 2, x0:sx + ax + 2]
    shade = box.copy()
    cv2.ellipse(shade, (sx - x0, sy - y0), (ax, ay), 0, 0, 360, (0, 0, 0), -1, cv2.LINE_AA)
    cv2.addWeighted(shade, 0.35, box, 0.65, 0, dst=box)
    if kind == "g":                                   # goomba: a brown mushroom head on feet
        ell(-0.15, 0.3, 0.14, 0.08, (40, 24, 16))
        ell(0.15, 0.3, 0.14, 0.08, (40, 24, 16))
        ell(0, 0.16, 0.2, 0.14, (236, 206, 160))
        ell(0, -0.06, 0.36, 0.26, (150, 88, 44))
        eyes(-0.04, 0.11, 0.07)
    elif kind == "s":                                 # shy guy: red robe, white mask
        ell(0, 0.12, 0.24, 0.26, (214, 40, 40))
        ell(0, 0.32, 0.22, 0.06, (60, 60, 200))
        ell(0, -0.2, 0.2, 0.2, (244, 244, 240))
        ell(-0.07, -0.22, 0.04, 0.07, (10, 10, 10))
        ell(0.07, -0.22, 0.04, 0.07, (10, 10, 10))
        ell(0, -0.1, 0.04, 0.03, (10, 10, 10))
    elif kind == "k":                                 # koopa: green shell, yellow head
        ell(0, 0.12, 0.3, 0.24, (40, 150, 60))
        ell(0, 0.12, 0.2, 0.15, (90, 200, 90))
        ell(0.1, -0.22, 0.14, 0.16, (250, 214, 80))
        ell(0.14, -0.25, 0.04, 0.06, (20, 20, 20))
        ell(-0.14, 0.32, 0.08, 0.06, (250, 214, 80))
    else:                                             # bob-omb (and any other letter)
        cv2.line(img, pt(0, -0.3), pt(0, -0.44), (80, 170, 220), max(1, round(size * 0.05)), cv2.LINE_AA)
        ell(0, -0.46, 0.09, 0.05, (80, 170, 220))
        ell(0, 0.02, 0.3, 0.3, (34, 34, 40))
        ell(-0.14, 0.3, 0.1, 0.06, (230, 180, 60))
        ell(0.14, 0.3, 0.1, 0.06, (230, 180, 60))
        eyes(-0.04, 0.09, 0.06)


def enemy_size(arena: Arena, ring: int) -> float:
    """A figure fits its tile: the ring's width or the tile's arc, whichever is less."""
    arc = math.radians(30) * arena.mid(ring)
    return 0.95 * min(arena.width, arc)


# ---------------------------------------------------------------------------- the panels

def _panel(img: np.ndarray, x0: float, y0: float, x1: float, y1: float, fill: RGB, border: RGB) -> None:
    pts = (round(x0), round(y0)), (round(x1), round(y1))
    cv2.rectangle(img, *pts, bgr(fill), -1, cv2.LINE_AA)
    cv2.rectangle(img, *pts, bgr(border), max(1, round((y1 - y0) * 0.06)), cv2.LINE_AA)


def _text(img: np.ndarray, text: str, x: float, y: float, height: float, color: RGB) -> None:
    scale = height / 22.0
    cv2.putText(img, text, (round(x), round(y)), cv2.FONT_HERSHEY_DUPLEX, scale, bgr(color),
                max(1, round(scale * 1.6)), cv2.LINE_AA)


def draw_hud(img: np.ndarray, budget: int | None, seconds: int, hp: int) -> None:
    """HP at the top left; the timer and, under it, the game's "Ring Moves ×N" panel at the
    top right."""
    h, w = img.shape[:2]
    u = h / 40
    _panel(img, u, u, u * 9, u * 3.4, (250, 246, 236), (200, 60, 60))
    cv2.circle(img, (round(u * 2.3), round(u * 2.2)), round(u * 0.8), bgr((220, 40, 60)), -1, cv2.LINE_AA)
    _text(img, f"HP {hp}", u * 3.5, u * 2.9, u * 1.4, (60, 40, 40))
    _panel(img, w - u * 7, u, w - u, u * 3.4, (30, 30, 40), (240, 240, 240))
    _text(img, f"{seconds // 60}:{seconds % 60:02d}", w - u * 6, u * 2.9, u * 1.5, (255, 255, 255))
    if budget is not None:
        draw_moves_panel(img, budget)


def stage(width: int, height: int, style: str, seed: int, arena: Arena) -> np.ndarray:
    """The still part of a battle screen: backdrop, crowd and the empty arena."""
    img = backdrop(width, height, style_named(style), seed)
    draw_arena(img, arena, style_named(style))
    return img


def draw_enemies(img: np.ndarray, board: Board, arena: Arena, figures: str = "toy") -> None:
    """Every enemy on its tile, back to front (far figures first), in the style's figures."""
    draw = draw_paper_enemy if figures == "paper" else draw_enemy
    for r in reversed(range(RINGS)):
        for s in sorted(range(SLICES), key=lambda s: arena.cell(r, s)[1]):
            kind = board.cells[r][s]
            if kind != ".":
                x, y = arena.cell(r, s)
                draw(img, x, y, enemy_size(arena, r), kind)


def render(board: Board, width: int = 1280, height: int = 720, style: str = "earth",
           seed: int = 0, arena: Arena | None = None, hud: bool = True) -> tuple[np.ndarray, Arena]:
    """A battle screen showing the board; (BGR image, where the arena is)."""
    arena = arena or arena_for(width, height)
    img = stage(width, height, style, seed, arena)
    draw_enemies(img, board, arena, style_named(style).figures)
    if hud:
        draw_hud(img, board.budget, 45 + seed % 40, 40 + seed % 60)
    return img, arena


# ---------------------------------------------------------------------------- fixtures

def on_desktop(image: np.ndarray, width: int, height: int, seed: int) -> np.ndarray:
    """The game in a window with a title bar on a plain desktop."""
    rng = random.Random(seed)
    desk = np.full((height, width, 3), (rng.randrange(90, 140), 80, 60), np.uint8)
    h, w = image.shape[:2]
    x, y = (width - w) // 3, (height - h) // 2
    cv2.rectangle(desk, (x - 1, y - 31), (x + w, y + h), (220, 220, 220), -1)
    cv2.putText(desk, "Switch capture", (x + 8, y - 10), cv2.FONT_HERSHEY_SIMPLEX, 0.55, (40, 40, 40), 1, cv2.LINE_AA)
    desk[y:y + h, x:x + w] = image
    return desk


def _target(width: int, height: int, seed: int, slices: int) -> np.ndarray:
    """A look-alike: concentric rings (and ``slices`` spokes, 0 for none) on a backdrop."""
    img = backdrop(width, height, STYLES["earth"], seed)
    cx, cy, R = width / 2, height * 0.55, height * 0.4
    for k, col in enumerate([(230, 230, 230), (40, 40, 200), (230, 230, 230), (40, 40, 200), (230, 230, 230)]):
        cv2.circle(img, (round(cx), round(cy)), round(R * (1 - k * 0.18)), col, -1, cv2.LINE_AA)
    for k in range(slices):
        a = math.radians(360 * k / slices)
        cv2.line(img, (round(cx), round(cy)), (round(cx + R * math.cos(a)), round(cy + R * math.sin(a))),
                 (30, 30, 30), 3, cv2.LINE_AA)
    return img


CAMERA_FIXTURES = (  # name, seed, view, size, JPEG quality: the realistic look
    ("camera_tilted_440", 18, "tilted", (440, 247), 85),
    ("camera_tilted_1280", 37, "tilted", (1280, 720), 85),
    ("camera_tilted_1280b", 67, "tilted", (1280, 720), 70),
    ("camera_tilted_1920", 18, "tilted", (1920, 1080), 80),
    ("camera_overhead_1280", 10, "overhead", (1280, 720), 85),
    ("camera_overhead_960", 2, "overhead", (960, 540), 75),
)


def fixture_cases() -> list[FixtureCase]:
    """The regression set: boards in every style and at several sizes; no-arena scenes."""
    cases: list[FixtureCase] = []

    def add(name: str, image: np.ndarray, board: Board | None, note: str, ext: str = "jpg") -> None:
        text = None if board is None else board.relabelled().to_text().replace("\n", "/")
        cases.append(FixtureCase(name, image, text, ext, 88, note))

    setups = [  # name, seed, groups, moves, size, style
        ("earth_1280", 1, 2, 3, (1280, 720), "earth"),
        ("water_1280", 2, 3, 3, (1280, 720), "water"),
        ("night_1280", 3, 4, 2, (1280, 720), "night"),
        ("earth_960", 4, 3, 4, (960, 540), "earth"),
        ("water_1920", 5, 2, 1, (1920, 1080), "water"),
        ("night_800", 6, 3, 3, (800, 600), "night"),
        ("earth_full", 7, 5, 3, (1280, 720), "earth"),
    ]
    for name, seed, groups, moves, (w, h), style in setups:
        board = generate(seed, groups, moves, kinds=KINDS)
        image, _ = render(board, w, h, style, seed)
        add(name, image, board, f"{4 * groups} enemies, {style} tiles, {w}x{h}")
    board = generate(8, 3, 3, kinds=KINDS)
    image, _ = render(board, 960, 540, "water", 8)
    add("water_desktop", on_desktop(image, 1366, 768, 8), board, "960x540 game window on a 1366x768 desktop")
    empty = Board(tuple("." * SLICES for _ in range(RINGS)), 2)
    add("empty_arena", render(empty, 960, 540, "earth", 9)[0], empty, "no enemies left", ext="png")
    add("no_arena", backdrop(960, 540, STYLES["night"], 10), None, "the stage without an arena")
    for name, seed, view, (w, h), quality in CAMERA_FIXTURES:
        board = generate(seed, 1 + seed % 3, 1 + seed % 3, kinds=KINDS)
        image, _ = render_camera(board, w, h, view, seed)
        add(name, image, board, f"{4 * (1 + seed % 3)} enemies, the game's {view} camera, {w}x{h}, JPEG {quality}")
        cases[-1] = replace(cases[-1], jpeg_quality=quality)
    away = replace(camera_arena(960, 540), cy=-20.0 * 540)
    add("camera_grass", draw_floor(away, 960, 540, 13), None, "grass and stands, no arena (the overworld's look)")
    for name, image, note in (
            ("boss_tilted_1280", render_boss(1280, 720, 3), "a boss battle: arrow panels, the boss hides the inner ring"),
            ("boss_overhead_960", render_boss(960, 540, 4, "overhead", 0.7), "a boss battle, overhead camera"),
            ("boss_small_1280", render_boss(1280, 720, 5, boss=0.25), "a boss battle whose arena is all seen: "
                                                                       "no enemy stands on it"),
            ("menu_1280", render_menu(1280, 720, 6), "the battle paused on the items menu"),
            ("overworld_1280", render_overworld(1280, 720, 7), "a town with a round plaza, no battle"),
            ("overworld_440", render_overworld(440, 247, 8), "a town with a round plaza, 440x247")):
        add(name, image, None, f"{note}: must be refused")
        cases[-1] = replace(cases[-1], jpeg_quality=80)
    add("target", _target(960, 540, 11, 0), None, "concentric rings without slices")
    add("wheel16", _target(960, 540, 12, 16), None, "a wheel of 16 spokes")
    return cases


# ---------------------------------------------------------------------------- the game's camera

CAMERAS = {  # view: (squash, tilt): the default tilted camera and "Change View"'s more overhead one
    "tilted": (0.55, 0.37),
    "overhead": (0.82, 0.14),
    "top": (1.0, 0.0),                      # straight down, as other tools draw the arena
}
EDGES = (2.94, 2.47, 1.97, 1.46, 1.0)        # ring edge radii in disc radii, outer first (the real game's)
FLOOR = {"disc": (250, 160, 104), "blue": (128, 210, 246), "cream": (255, 250, 204), "yellow": (255, 228, 104),
         "joint": (196, 168, 96), "rim": (40, 130, 48), "grass": (84, 196, 72)}
FLOORS = {  # look: (floor colours, light): the game's, and looks of our own for calibration that the
    "game": (FLOOR, 1.0),                   # default reader refuses (no blue inner ring): "dusk" (purple),
    # and two drawn flat by another tool (light 0: no noise, light, shade or stands): "slate", a pale
    # grey-blue inner ring amid white and sage tiles on wood, and "ink", dark rings on a light floor
    "dusk": ({"disc": (236, 200, 120), "blue": (168, 104, 214), "cream": (226, 226, 232), "yellow": (244, 206, 214),
              "joint": (120, 110, 130), "rim": (40, 130, 48), "grass": (84, 196, 72)}, 0.85),
    "slate": ({"disc": (214, 150, 120), "blue": (190, 200, 212), "cream": (244, 244, 236), "yellow": (206, 228, 196),
               "joint": (150, 156, 166), "rim": (64, 72, 88), "grass": (160, 128, 96)}, 0.0),
    "ink": ({"disc": (44, 44, 60), "blue": (24, 96, 104), "cream": (56, 64, 112), "yellow": (76, 86, 140),
             "joint": (200, 200, 196), "rim": (240, 236, 224), "grass": (240, 236, 224)}, 0.0),
}


def camera_arena(width: int, height: int, view: str = "tilted") -> Arena:
    """Where the game's camera puts the arena in a frame of this size."""
    squash, tilt = CAMERAS[view]
    disc = width * 0.1 if view == "tilted" else height * 0.13
    edges = tuple(e * disc for e in EDGES)
    return Arena(width * 0.5, height * (0.53 if view == "tilted" else 0.5), edges[0], edges[-1], squash, tilt,
                 edges, 7.0)


def draw_floor(arena: Arena, width: int, height: int, seed: int, look: str = "game") -> np.ndarray:
    """The lit arena floor seen through the camera, with the grass around it and stands
    behind: every pixel is looked up on the plane (so edges and joints bend as the game's
    do), lit from the top left (``look``'s light: from the top right when dimmer), with a
    band of shade from the stands across one side; ``look`` names the colours (``FLOORS``);
    a flat look (light 0) is only the colours."""
    ys, xs = np.mgrid[0:height, 0:width].astype(np.float64)
    u, v = arena.plane(xs, ys)
    radius = np.hypot(u, v)
    angle = (np.degrees(np.arctan2(v, -u)) - arena.phase + 15.0) % 360.0
    edges = arena.radii
    ring = np.searchsorted(-np.array(edges), -radius)           # 0 outside, 1..4 the rings, 5 the disc
    slice_ = (angle // 30.0).astype(int)
    img = np.zeros((height, width, 3), np.float64)
    colours, bright = FLOORS[look]
    palette = {k: np.array(bgr(c), float) for k, c in colours.items()}
    img[:] = palette["grass"]
    rng = np.random.default_rng(seed)
    if bright:
        img += rng.normal(0, 6, (height, width, 1))
    img[(radius > edges[0]) & (radius < edges[0] + 0.35 * arena.width)] = palette["rim"]
    checker = (ring + slice_) % 2 == 0
    outer3 = (ring >= 1) & (ring <= 3)
    img[outer3 & checker] = palette["cream"]
    img[outer3 & ~checker] = palette["yellow"]
    img[ring == 4] = palette["blue"]
    img[ring == 5] = palette["disc"]
    joint = 0.035 * arena.width
    on_ring_edge = np.min([np.abs(radius - e) for e in edges[:-1]], axis=0) < joint
    slice_off = np.minimum(angle % 30.0, 30.0 - angle % 30.0) * math.radians(1.0) * radius
    img[((slice_off < joint) & (ring >= 1) & (ring <= 4)) | (on_ring_edge & (ring >= 1) & (ring <= 4))] = palette["joint"]
    rim = (ring == 5) & (radius > edges[-1] * 0.9) & (v < 0)     # the disc's near side shows its edge
    img[rim] = img[rim] * 0.8
    if not bright:
        return np.clip(img, 0, 255).astype(np.uint8)
    across = xs / width if bright >= 1.0 else 1.0 - xs / width
    light = bright * (1.08 - 0.12 * across - 0.06 * (ys / height))
    shade_x = width * (0.62 + 0.1 * rng.random())
    shade = 1.0 - 0.22 / (1.0 + np.exp(-(xs - shade_x - 0.2 * (ys - height / 2)) / (width * 0.01)))
    img *= (light * shade)[..., None]
    horizon = arena.point(edges[0] * 1.5, 90.0)[1]
    for k in range(6):                                          # stands behind, in rows
        y0 = int(horizon - (k + 1) * height * 0.05)
        if y0 < 0:
            break
        cv2.rectangle(img, (int(width * 0.12), y0), (int(width * 0.88), y0 + int(height * 0.018)),
                      bgr((236, 150, 70)), -1)
    return np.clip(img, 0, 255).astype(np.uint8)


def draw_figure(img: np.ndarray, x: float, y: float, size: float, kind: str, badge: bool) -> None:
    """A 3D-looking enemy with its feet at (x, y), ``size`` its height: the drawn figures of
    ``draw_enemy`` lifted so they stand on the point, shaded down one side, with the game's
    red badge floating over some heads."""
    draw_enemy(img, x, y - 0.36 * size, size, kind)
    x0, x1 = int(x), int(x + 0.4 * size)
    y0, y1 = int(y - 0.85 * size), int(y + 1)
    if x1 > x0 and y1 > y0:
        part = img[max(0, y0):y1, max(0, x0):x1]
        part[:] = (part * 0.88).astype(np.uint8)
    if badge:
        centre = (round(x), round(y - 1.45 * size))     # floating clear of the head, as in the game
        r = max(2, round(0.22 * size))
        cv2.circle(img, centre, r, bgr((222, 40, 36)), -1, cv2.LINE_AA)
        cv2.circle(img, centre, max(1, r // 2), bgr((250, 200, 200)), max(1, r // 4), cv2.LINE_AA)


def _outlined(img: np.ndarray, text: str, x: float, y: float, height: float, fill: RGB, edge: RGB = (40, 40, 40),
              heavy: float = 1.6, rim: float = 2.2) -> float:
    """Text as the game writes it over the scene: a fill colour (``heavy`` thick) inside an
    outline (``rim`` wider), the outline grown from the letters' own shape (a thicker
    ``putText`` would also space the letters wider); the x where it ends."""
    scale = height / 22.0
    body = max(1, round(scale * heavy))
    grow = max(1, round(scale * rim / 2))
    (tw, th), base = cv2.getTextSize(text, cv2.FONT_HERSHEY_DUPLEX, scale, body)
    pad = grow + body + 2
    x0, y0 = max(0, round(x) - pad), max(0, round(y) - th - pad)
    x1, y1 = min(img.shape[1], round(x) + tw + pad), min(img.shape[0], round(y) + base + pad)
    if x1 <= x0 or y1 <= y0:
        return x + tw
    ink = np.zeros((y1 - y0, x1 - x0), np.uint8)
    cv2.putText(ink, text, (round(x) - x0, round(y) - y0), cv2.FONT_HERSHEY_DUPLEX, scale, 255, body, cv2.LINE_AA)
    outline = cv2.dilate(ink, cv2.getStructuringElement(cv2.MORPH_ELLIPSE, (2 * grow + 1, 2 * grow + 1)))
    part = img[y0:y1, x0:x1]
    for mask, colour in ((outline, edge), (ink, fill)):
        alpha = (mask.astype(np.float32) / 255.0)[..., None]
        part[:] = (part * (1 - alpha) + np.array(bgr(colour), np.float32) * alpha).astype(np.uint8)
    return x + tw


SUPER = 4      # ``_lettered`` draws this many times larger, then shrinks (fractional strokes)


def _lettered(img: np.ndarray, text: str, x: float, y: float, height: float,
              layers: tuple[tuple[RGB, float], ...]) -> None:
    """Text in the game's heavy rounded lettering, its baseline starting at (x, y) and its
    capitals ``height`` tall: the bold font the panel's digit templates are drawn in
    (``vision.rings.bold_font``), each of ``layers`` (colour, stroke width in capital
    heights; outermost first) the letters grown by a round stroke, so the corners round
    off and the rims follow the letters as the game's stickers do."""
    from PIL import Image, ImageDraw

    font = bold_font(max(4, round(height * SUPER / 0.73)))     # a capital is 0.73 em
    widest = max(round(width * height * SUPER) for _, width in layers)
    left, top, right, bottom = font.getbbox(text, anchor="ls")
    pad = widest + SUPER
    size = (right - left + 2 * pad, bottom - top + 2 * pad)
    x0, y0 = round(x) + (left - pad) // SUPER, round(y) + (top - pad) // SUPER
    origin = (round(x) - x0) * SUPER, (round(y) - y0) * SUPER
    part = img[max(0, y0):y0 + size[1] // SUPER, max(0, x0):x0 + size[0] // SUPER]
    for colour, width in layers:
        canvas = Image.new("L", size, 0)
        stroke = round(width * height * SUPER)
        ImageDraw.Draw(canvas).text(origin, text, fill=255, font=font, anchor="ls", stroke_width=stroke,
                                    stroke_fill=255)
        mask = cv2.resize(np.asarray(canvas, np.float32) / 255.0, (size[0] // SUPER, size[1] // SUPER),
                          interpolation=cv2.INTER_AREA)[max(0, -y0):, max(0, -x0):][:part.shape[0], :part.shape[1]]
        alpha = mask[..., None]
        part[:] = (part * (1 - alpha) + np.array(bgr(colour), np.float32) * alpha).astype(np.uint8)


def _strip(img: np.ndarray, x0: float, y0: float, x1: float, y1: float, alpha: float = 0.75) -> None:
    """A dark brown see-through strip, the game's label behind "Bug Time", "Hint"…"""
    a, b = (max(0, round(x0)), max(0, round(y0))), (min(img.shape[1], round(x1)), min(img.shape[0], round(y1)))
    part = img[a[1]:b[1], a[0]:b[0]]
    part[:] = (part * (1 - alpha) + np.array(bgr((70, 50, 34))) * alpha).astype(np.uint8)


def _button(img: np.ndarray, x: float, y: float, r: float) -> None:
    """A controller button icon: a small white disc with a dark mark."""
    cv2.circle(img, (round(x), round(y)), max(1, round(r)), (245, 245, 245), -1, cv2.LINE_AA)
    cv2.circle(img, (round(x), round(y)), max(1, round(r * 0.45)), (60, 60, 60), -1, cv2.LINE_AA)


STICKER = (((214, 214, 214), 0.34), ((255, 255, 255), 0.24), ((100, 222, 64), 0.03))
"""The panel's "×N": green heavy digits, a white rim, a grey rim (colour, stroke per height)."""
BUTTON_BAR = ("- Help", "Toggle Rotate/Slide", "Select Ring", "Change View", "Confirm")
ACTIONS = (("Hint", (250, 186, 60)), ("Cheer", (70, 200, 90)), ("Flee", (50, 90, 230)))


def draw_game_hud(img: np.ndarray, budget: int | None, seconds: int, hp: int, coins: int = 1745) -> None:
    """The real game's HUD: HP top left; the timer (a purple clock, red digits) top right,
    the "Bug Time" strip under it and the white "Ring Moves" panel with its green "×N";
    "Hint", "Cheer" and "Flee" at the right; the coins bottom left and the button bar along
    the bottom: white words with dark outlines over the arena's near rim."""
    h, w = img.shape[:2]
    u = h / 40
    x = _outlined(img, "HP", u * 0.9, u * 3.4, u * 2.2, (230, 50, 50), (255, 255, 255))
    x = _outlined(img, f"{hp}", x + u * 0.8, u * 3.4, u * 2.2, (70, 70, 70), (255, 255, 255))
    _outlined(img, "/50", x + u * 0.2, u * 3.4, u * 1.2, (70, 70, 70), (255, 255, 255))
    cv2.circle(img, (round(w - u * 12.2), round(u * 2.3)), round(u * 1.2), bgr((140, 70, 200)), -1, cv2.LINE_AA)
    cv2.circle(img, (round(w - u * 12.2), round(u * 2.3)), round(u * 0.7), (255, 255, 255), max(1, round(u * 0.2)),
                cv2.LINE_AA)
    _outlined(img, f"{seconds // 60}{seconds % 60:02d}", w - u * 10.4, u * 3.4, u * 2.4, (230, 40, 50),
              (255, 255, 255))
    _strip(img, w - u * 12, u * 4.6, w, u * 6.2)
    _button(img, w - u * 11.0, u * 5.4, u * 0.45)
    _text(img, "Bug Time", w - u * 10.2, u * 5.9, u * 0.9, (240, 240, 240))
    for k, (word, colour) in enumerate(ACTIONS):
        y = h * 0.70 + k * h * 0.068
        _strip(img, w - u * 7.2, y - u * 1.0, w, y + u * 0.9)
        cv2.ellipse(img, (round(w - u * 7.6), round(y)), (round(u * 0.9), round(u * 1.2)), 0, 0, 360, bgr(colour), -1,
                    cv2.LINE_AA)
        _button(img, w - u * 6.0, y, u * 0.45)
        _text(img, word, w - u * 5.2, y + u * 0.45, u * 0.95, (240, 240, 240))
    cv2.circle(img, (round(u * 2.2), round(h - u * 2.6)), round(u * 1.5), bgr((250, 200, 40)), -1, cv2.LINE_AA)
    cv2.circle(img, (round(u * 2.2), round(h - u * 2.6)), round(u * 1.5), bgr((150, 100, 20)), max(1, round(u * 0.2)),
                cv2.LINE_AA)
    _outlined(img, f"x{coins}", u * 3.8, h - u * 1.6, u * 2.0, (240, 240, 240))
    x = w * 0.27
    for word in BUTTON_BAR:
        _button(img, x, h - u * 2.2, u * 0.55)
        x = _outlined(img, word, x + u * 0.9, h - u * 1.75, u * 0.95, (250, 250, 250), (50, 50, 50), heavy=1.0, rim=1.0) + u * 1.6
    if budget is not None:
        draw_moves_panel(img, budget)


def draw_moves_panel(img: np.ndarray, budget: int) -> None:
    """The game's white "Ring Moves" panel under the timer, its "×N" a green sticker in
    heavy rounded digits (``_lettered``, ``STICKER``)."""
    h, w = img.shape[:2]
    u = h / 40
    x0, y0, x1, y1 = w - u * 13, u * 6.5, w - u * 0.2, u * 12.5
    cv2.rectangle(img, (round(x0), round(y0)), (round(x1), round(y1)), (248, 248, 248), -1, cv2.LINE_AA)
    cv2.rectangle(img, (round(x0), round(y0)), (round(x0 + u * 0.7), round(y1)), bgr((250, 196, 60)), -1)
    _lettered(img, "Ring Moves", x0 + u * 1.6, y0 + u * 2.2, u * 1.05, (((50, 50, 50), 0.05),))
    _lettered(img, "\u00d7", x0 + u * 4.7, y0 + u * 4.8, u * 1.5, STICKER[:2] + ((STICKER[2][0], 0.1),))  # smaller, heavier
    _lettered(img, str(budget), x0 + u * 6.5, y0 + u * 5.0, u * 1.85, STICKER)


def render_camera(board: Board, width: int = 1280, height: int = 720, view: str = "tilted", seed: int = 0,
                  hud: bool = True, look: str = "game") -> tuple[np.ndarray, Arena]:
    """A battle as the game's camera shows it (``view``: "tilted" or "overhead"): the lit
    floor in ``look``'s colours (``FLOORS``), Mario on the disc, the enemies standing on
    their tiles (drawn far to near, so a figure hides the tile behind it), the HUD; (BGR
    image, where the arena is)."""
    arena = camera_arena(width, height, view)
    img = draw_floor(arena, width, height, seed, look)
    rng = random.Random(seed)
    standing = [(arena.cell(r, s), board.cells[r][s]) for r in range(RINGS) for s in range(SLICES)
                if board.cells[r][s] != "."]
    standing.append(((arena.cx, arena.cy), "mario"))
    for (x, y), kind in sorted(standing, key=lambda item: item[0][1]):
        _, v = arena.plane(np.float64(x), np.float64(y))
        scale = arena.width / (1.0 + arena.tilt * float(v) / arena.outer)
        if kind == "mario":
            cv2.ellipse(img, (round(x), round(y - 0.3 * scale)), (round(0.12 * scale), round(0.3 * scale)), 0, 0, 360,
                        bgr((200, 30, 40)), -1, cv2.LINE_AA)
            continue
        draw_figure(img, x, y, 0.95 * scale, kind, rng.random() < 0.3)
    if hud:
        draw_game_hud(img, board.budget, 45 + seed % 40, 20 + seed % 30)
    return img, arena


# ---------------------------------------------------------------------------- screens that are no enemy board

def _plane_poly(img: np.ndarray, arena: Arena, points: list[tuple[float, float]], colour: RGB,
                edge: RGB | None = None) -> None:
    """A polygon given on the arena's floor (u, v), drawn through the camera."""
    u, v = np.array(points, np.float64).T
    x, y = arena.project(u, v)
    pts = np.round(np.stack([x, y], axis=1)).astype(np.int32)
    cv2.fillPoly(img, [pts], bgr(colour), cv2.LINE_AA)
    if edge is not None:
        cv2.polylines(img, [pts], True, bgr(edge), max(1, round(arena.width * 0.04)), cv2.LINE_AA)


def _arrow_tile(img: np.ndarray, arena: Arena, ring: int, slice_: int, inward: bool) -> None:
    """A boss battle's arrow panel: a white arrow on the tile, pointing in or along the ring."""
    radius, a = arena.mid(ring), math.radians(30.0 * slice_ + arena.phase)
    centre = np.array([-radius * math.cos(a), radius * math.sin(a)])
    out = centre / radius
    along = np.array([-out[1], out[0]])
    ahead, side = (-out, along) if inward else (along, out)
    size = 0.36 * arena.width
    shape = [(0.9, 0), (0.1, 0.75), (0.1, 0.3), (-0.8, 0.3), (-0.8, -0.3), (0.1, -0.3), (0.1, -0.75)]
    points = [tuple(centre + size * (f * ahead + s * side)) for f, s in shape]
    _plane_poly(img, arena, points, (250, 250, 250), (40, 110, 220))


def render_boss(width: int = 1280, height: int = 720, seed: int = 0, view: str = "tilted",
                boss: float = 1.1) -> np.ndarray:
    """A boss battle: the same lit arena, but its tiles carry arrow panels, Mario stands at
    the outer edge, a boss ``boss`` times the inner ring's radius wide stands on the disc
    (1.1 hides the inner ring, 0.7 leaves it seen), and the HUD has no "Ring Moves" panel.
    Not a 4×12 enemy board: the vision must refuse it."""
    rng = random.Random(seed)
    arena = camera_arena(width, height, view)
    img = draw_floor(arena, width, height, seed)
    for _ in range(18):
        _arrow_tile(img, arena, rng.randrange(RINGS), rng.randrange(SLICES), rng.random() < 0.5)
    x, y = arena.point(arena.radii[0] * 1.03, 270.0)
    cv2.ellipse(img, (round(x), round(y - 0.3 * arena.width)), (round(0.12 * arena.width), round(0.3 * arena.width)),
                0, 0, 360, bgr((200, 30, 40)), -1, cv2.LINE_AA)
    body = arena.radii[-2] * boss
    cx, cy = arena.cx, arena.cy
    cv2.ellipse(img, (round(cx), round(cy - body * 0.9)), (round(body), round(body * 1.2)), 0, 0, 360,
                bgr((150, 60, 170)), -1, cv2.LINE_AA)
    cv2.ellipse(img, (round(cx - body * 0.3), round(cy - body * 1.3)), (round(body * 0.35), round(body * 0.45)), 0, 0,
                360, bgr((200, 120, 220)), -1, cv2.LINE_AA)
    for dx in (-0.35, 0.35):
        cv2.circle(img, (round(cx + dx * body), round(cy - body * 1.1)), round(body * 0.16), (255, 255, 255), -1,
                   cv2.LINE_AA)
        cv2.circle(img, (round(cx + dx * body), round(cy - body * 1.1)), round(body * 0.07), (20, 20, 20), -1,
                   cv2.LINE_AA)
    draw_game_hud(img, None, 45 + seed % 40, 20 + seed % 30)
    return img


def render_menu(width: int = 1280, height: int = 720, seed: int = 0) -> np.ndarray:
    """The battle paused on the items menu: the battle dimmed behind a large cream panel of
    rows. No board to read: the vision must refuse it."""
    image, _ = render_camera(generate(seed, 2, 2, kinds=KINDS), width, height, "tilted", seed)
    img = (image * 0.45).astype(np.uint8)
    x0, y0, x1, y1 = width * 0.2, height * 0.12, width * 0.8, height * 0.9
    cv2.rectangle(img, (round(x0), round(y0)), (round(x1), round(y1)), bgr((250, 244, 222)), -1, cv2.LINE_AA)
    cv2.rectangle(img, (round(x0), round(y0)), (round(x1), round(y0 + height * 0.1)), bgr((200, 60, 50)), -1)
    _text(img, "Items", x0 + width * 0.02, y0 + height * 0.075, height * 0.05, (255, 255, 255))
    rows = ("Mushroom", "Fire Flower", "Shiny Jump Boots", "Ice Flower", "Shiny Hammer", "Tail")
    for k, word in enumerate(rows):
        y = y0 + height * (0.17 + 0.1 * k)
        if k % 2:
            cv2.rectangle(img, (round(x0), round(y - height * 0.05)), (round(x1), round(y + height * 0.05)),
                          bgr((238, 228, 200)), -1)
        cv2.circle(img, (round(x0 + width * 0.05), round(y)), round(height * 0.03),
                   bgr(((220, 60, 50), (250, 140, 30), (90, 150, 230), (120, 200, 240), (200, 160, 90), (240, 200, 80))[k]),
                   -1, cv2.LINE_AA)
        _text(img, word, x0 + width * 0.09, y + height * 0.015, height * 0.04, (60, 50, 40))
    draw_game_hud(img, None, 45 + seed % 40, 20 + seed % 30)
    return img


def render_overworld(width: int = 1280, height: int = 720, seed: int = 0) -> np.ndarray:
    """A town in the overworld seen from the game's high camera: grass, a dirt path, trees
    and houses, and a round plaza of concentric paving around a fountain (rings but no
    slices, no figures standing on tiles). No battle: the vision must refuse it."""
    rng = np.random.default_rng(seed)
    img = np.zeros((height, width, 3), np.float64)
    img[:] = bgr(FLOOR["grass"])
    img += rng.normal(0, 7, (height, width, 1))
    img = np.clip(img, 0, 255).astype(np.uint8)
    path = np.array([(0, height * 0.8), (width * 0.3, height * 0.62), (width * 0.55, height * 0.6),
                     (width, height * 0.3)], np.int32)
    cv2.polylines(img, [path], False, bgr((196, 160, 100)), max(3, round(height * 0.08)), cv2.LINE_AA)
    plaza = replace(camera_arena(width, height, "tilted"), cx=width * 0.5, cy=height * 0.6)
    plaza = replace(plaza, edges=tuple(e * 0.6 for e in plaza.radii), outer=plaza.outer * 0.6, inner=plaza.inner * 0.6)
    for k, radius in enumerate(np.linspace(plaza.outer, plaza.inner * 0.4, 7)):
        angles = np.radians(np.arange(0, 360, 5))
        x, y = plaza.project(radius * np.cos(angles), radius * np.sin(angles))
        cv2.fillPoly(img, [np.round(np.stack([x, y], 1)).astype(np.int32)],
                     bgr((214, 206, 190) if k % 2 else (176, 168, 156)), cv2.LINE_AA)
    fx, fy = plaza.cx, plaza.cy
    cv2.ellipse(img, (round(fx), round(fy)), (round(plaza.inner * 0.35), round(plaza.inner * 0.2)), 0, 0, 360,
                bgr((100, 180, 240)), -1, cv2.LINE_AA)
    pick = random.Random(seed)
    for _ in range(9):                                              # trees: trunk and crown
        x, y = pick.uniform(0, width), pick.uniform(height * 0.05, height * 0.95)
        if abs(x - fx) < plaza.outer * 1.1 and abs(y - fy) < plaza.outer * 0.8:
            continue
        r = height * pick.uniform(0.05, 0.09)
        cv2.rectangle(img, (round(x - r * 0.15), round(y)), (round(x + r * 0.15), round(y + r * 0.9)),
                      bgr((110, 70, 40)), -1)
        cv2.circle(img, (round(x), round(y)), round(r), bgr((40, 130, 50)), -1, cv2.LINE_AA)
        cv2.circle(img, (round(x - r * 0.3), round(y - r * 0.3)), round(r * 0.5), bgr((70, 170, 70)), -1, cv2.LINE_AA)
    for k in range(3):                                              # houses: walls and a roof
        x, y, s = width * (0.08 + 0.33 * k), height * 0.08, height * 0.16
        cv2.rectangle(img, (round(x), round(y + s * 0.5)), (round(x + s * 1.4), round(y + s * 1.4)),
                      bgr((240, 226, 196)), -1)
        roof = np.array([(x - s * 0.1, y + s * 0.55), (x + s * 0.7, y), (x + s * 1.5, y + s * 0.55)], np.int32)
        cv2.fillPoly(img, [roof], bgr((200, 70, 60)), cv2.LINE_AA)
        cv2.rectangle(img, (round(x + s * 0.55), round(y + s * 0.9)), (round(x + s * 0.85), round(y + s * 1.4)),
                      bgr((120, 80, 50)), -1)
    cv2.ellipse(img, (round(width * 0.42), round(height * 0.7)), (round(height * 0.025), round(height * 0.06)), 0, 0, 360,
                bgr((200, 30, 40)), -1, cv2.LINE_AA)
    _outlined(img, "x1745", width - height * 0.25, height * 0.09, height * 0.05, (240, 240, 240))
    return img
