"""Valves: a sewer scene of our own drawing, its shipped profile, and the fixtures.

``render_sewer`` draws Machinarium's valve puzzle graph (docs/games.md#valves-board) as a sewer: brick
wall, rusty pipes between the points, a valve wheel on every valve, the inlet pipe on the
left and the outlet drain on the right, water (blue) in every pipe the inlet still reaches.
An open valve has a brass rim with its spokes upright (+); a closed one a red rim with the
spokes turned (×). The picture is 960×600 at scale 1; every size is drawn, not resized,
so small scenes stay crisp. ``profile_data`` is the scene's profile (the reference
picture with every valve open, the valve positions, open and closed valve crops), shipped
in ``vision/data/valves/sewer`` (a test keeps the two equal; after changing the scene,
write it again with ``calibration.profile.save(*profile_data(), folder)``);
``fixture_cases`` builds the vision's regression set.
"""
from __future__ import annotations

from dataclasses import dataclass

import cv2
import numpy as np

from puzzlepilot.scenes import FixtureCase
from puzzlepilot.scenes.onestroke import embed
from puzzlepilot.scenes.paint import bgr, noise_photo, render_desktop, rounded_rect, shade, shapes_scene
from solvers.valves import Board
from vision.valves import crop_square

RGB = tuple[int, int, int]
Point = tuple[float, float]

SIZE = (960, 600)                   # the reference picture, width × height
GRAPH = ("inlet: X/outlet: Y/wrenches: 3/X G/X H/X K/X B/Y C/Y D/Y E/Y J/Y B/Y H/Y I/"
         "A D/A C/A I/A J/A F/A G/B I/F K")
POINTS: dict[str, Point] = {        # positions at scale 1
    "X": (70, 300), "Y": (890, 300),
    "G": (230, 120), "H": (400, 250), "K": (230, 480), "B": (400, 400), "F": (470, 530),
    "A": (560, 120), "I": (600, 400), "C": (740, 110), "D": (740, 210), "J": (740, 420),
    "E": (770, 530),
}
WHEEL = 22                          # valve wheel radius at scale 1
CROP = 2 * WHEEL + 6                # side of the open/closed valve crops in the profile

WALL: RGB = (58, 62, 52)
MORTAR: RGB = (44, 47, 40)
PIPE: RGB = (146, 92, 58)
PIPE_EDGE: RGB = (34, 28, 24)
PIPE_SHINE: RGB = (190, 134, 92)
WATER: RGB = (72, 150, 232)
BRASS: RGB = (214, 168, 64)
RED: RGB = (214, 46, 40)
IRON: RGB = (70, 72, 76)


@dataclass(frozen=True)
class Truth:
    """What a rendered picture shows: the board text (rows joined by ``/``; None when more
    valves are shut than there are wrenches, no position of the game) and the image
    position of every point, by name."""

    board: str | None
    points: dict[str, Point]

    def moved(self, dx: float, dy: float, k: float = 1.0) -> "Truth":
        """The truth after scaling the picture by k and then shifting it by (dx, dy)."""
        return Truth(self.board, {n: (x * k + dx, y * k + dy) for n, (x, y) in self.points.items()})


def _pt(p: Point) -> tuple[int, int]:
    return (round(p[0]), round(p[1]))


def wet_pipes(board: Board, closed: frozenset[str]) -> set[tuple[str, str]]:
    """The pipes holding water: those leaving a point the inlet reaches that lets water on
    (the inlet, or an open valve). The outlet passes nothing back."""
    wet = {board.inlet}
    todo = [board.inlet]
    while todo:
        here = todo.pop()
        for a, b in board.pipes:
            for u, v in ((a, b), (b, a)):
                if u == here and v not in wet:
                    wet.add(v)
                    if v not in closed and v != board.outlet:
                        todo.append(v)
    flowing = wet - closed - {board.outlet}
    return {(a, b) for a, b in board.pipes if a in flowing or b in flowing}


def draw_wheel(img: np.ndarray, centre: Point, radius: float, closed: bool) -> None:
    """A valve wheel: dark socket, rim, four spokes (+ open, × closed) and a hub."""
    x, y = centre
    thick = max(2, round(radius * 0.24))
    cv2.circle(img, _pt(centre), round(radius * 1.12), bgr(PIPE_EDGE), -1, cv2.LINE_AA)
    rim = RED if closed else BRASS
    turn = np.pi / 4 if closed else 0.0
    for k in range(4):
        a = turn + k * np.pi / 2
        cv2.line(img, _pt(centre), _pt((x + np.cos(a) * radius * 0.85, y + np.sin(a) * radius * 0.85)),
                 bgr(rim), max(2, round(radius * 0.16)), cv2.LINE_AA)
    cv2.circle(img, _pt(centre), round(radius * 0.86), bgr(rim), thick, cv2.LINE_AA)
    cv2.circle(img, _pt(centre), max(2, round(radius * 0.28)), bgr(IRON), -1, cv2.LINE_AA)


def draw_wrench(img: np.ndarray, centre: Point, size: float, angle: float = -35.0, blur: float = 0.0) -> None:
    """A red wrench hung on a valve, as Machinarium shows a closed one: an open-ended
    spanner whose jaw grips the valve's nut and whose handle leaves it at ``angle`` degrees
    (0: to the right, negative: upwards); ``size`` is the valve body's width. Dark outline,
    shaded red body, a lighter ridge along the handle, the nut showing in the jaw's mouth;
    ``blur`` (pixels) softens it like the rest of a photographed screen."""
    x, y = centre
    a = np.deg2rad(angle)
    ux, uy = np.cos(a), np.sin(a)
    vx, vy = -uy, ux
    layer = np.zeros_like(img)
    mask = np.zeros(img.shape[:2], np.uint8)
    head, handle_w, length = 0.44 * size, 0.24 * size, 2.0 * size
    hub = (x + ux * 0.1 * size, y + uy * 0.1 * size)
    end = (x + ux * length, y + uy * length)
    edge = max(2, round(0.05 * size))
    outline, dark, body, ridge = (22, 20, 48), (30, 30, 140), (44, 46, 200), (110, 116, 240)
    for colour, grow in ((outline, edge), (dark, 0), (body, -edge)):
        for target in (layer, mask):
            paint = colour if target is layer else 255
            cv2.line(target, _pt(hub), _pt(end), paint, max(2, round(handle_w + 2 * grow)), cv2.LINE_AA)
            cv2.circle(target, _pt(end), max(1, round(handle_w / 2 + grow)), paint, -1, cv2.LINE_AA)
            cv2.circle(target, _pt(hub), max(2, round(head + grow)), paint, -1, cv2.LINE_AA)
    cv2.line(layer, _pt((hub[0] + ux * head * 0.9 + vx * handle_w * 0.15, hub[1] + uy * head * 0.9 + vy * handle_w * 0.15)),
             _pt((end[0] - ux * handle_w * 0.3 + vx * handle_w * 0.15, end[1] - uy * handle_w * 0.3 + vy * handle_w * 0.15)),
             ridge, max(1, round(handle_w * 0.2)), cv2.LINE_AA)
    # the mouth: a slot from beyond the nut out of the head, away from the handle
    half = 0.16 * size
    inner, outer = (x - ux * 0.05 * size, y - uy * 0.05 * size), (x - ux * head * 1.6, y - uy * head * 1.6)
    slot = np.array([(inner[0] + vx * half, inner[1] + vy * half), (outer[0] + vx * half, outer[1] + vy * half),
                     (outer[0] - vx * half, outer[1] - vy * half), (inner[0] - vx * half, inner[1] - vy * half)])
    cv2.fillConvexPoly(mask, np.round(slot).astype(np.int32), 0, cv2.LINE_AA)
    cv2.circle(mask, _pt(inner), round(half), 0, -1, cv2.LINE_AA)
    if blur > 0:
        layer = cv2.GaussianBlur(layer, (0, 0), blur)
        mask = cv2.GaussianBlur(mask, (0, 0), blur)
        solid = cv2.GaussianBlur((mask > 0).astype(np.float32), (0, 0), blur)
        layer = (layer / np.maximum(solid, 1e-3)[:, :, None]).clip(0, 255)
    alpha = (mask.astype(np.float32) / 255.0)[:, :, None]
    img[:] = (img * (1 - alpha) + layer * alpha).round().astype(np.uint8)


def reframe(image: np.ndarray, points: dict[str, Point], crop: tuple[int, int, int, int] | None = None,
            scale: float = 1.0, quality: int | None = None) -> tuple[np.ndarray, dict[str, Point]]:
    """A picture cropped (x, y, width, height), then scaled and maybe JPEG'd as a
    screenshot passed around is, and where its points then are."""
    x, y = 0, 0
    if crop:
        x, y, w, h = crop
        image = image[y:y + h, x:x + w]
    if scale != 1.0:
        image = cv2.resize(image, None, fx=scale, fy=scale, interpolation=cv2.INTER_AREA if scale < 1 else cv2.INTER_CUBIC)
    if quality:
        image = cv2.imdecode(cv2.imencode(".jpg", image, [cv2.IMWRITE_JPEG_QUALITY, quality])[1], cv2.IMREAD_COLOR)
    return image, {n: ((px - x) * scale, (py - y) * scale) for n, (px, py) in points.items()}


def _bricks(img: np.ndarray, k: float) -> None:
    img[:] = bgr(WALL)
    h, w = img.shape[:2]
    bh, bw = 30 * k, 64 * k
    for row in range(int(h / bh) + 1):
        y = round(row * bh)
        cv2.line(img, (0, y), (w, y), bgr(MORTAR), max(1, round(2 * k)))
        shift = 0 if row % 2 else bw / 2
        for col in range(int(w / bw) + 2):
            x = round(col * bw - shift)
            cv2.line(img, (x, y), (x, round(y + bh)), bgr(MORTAR), max(1, round(2 * k)))


def _pipe(img: np.ndarray, a: Point, b: Point, k: float, wet: bool) -> None:
    cv2.line(img, _pt(a), _pt(b), bgr(PIPE_EDGE), max(3, round(20 * k)), cv2.LINE_AA)
    cv2.line(img, _pt(a), _pt(b), bgr(PIPE), max(2, round(14 * k)), cv2.LINE_AA)
    if wet:
        cv2.line(img, _pt(a), _pt(b), bgr(WATER), max(1, round(6 * k)), cv2.LINE_AA)
    else:
        (x0, y0), (x1, y1) = a, b
        n = np.hypot(x1 - x0, y1 - y0) or 1.0
        ox, oy = -(y1 - y0) / n * 4 * k, (x1 - x0) / n * 4 * k
        cv2.line(img, _pt((x0 + ox, y0 + oy)), _pt((x1 + ox, y1 + oy)), bgr(PIPE_SHINE),
                 max(1, round(3 * k)), cv2.LINE_AA)


def _label(img: np.ndarray, text: str, at: Point, k: float) -> None:
    scale = 0.6 * k
    t = max(1, round(1.6 * k))
    (w, h), _ = cv2.getTextSize(text, cv2.FONT_HERSHEY_SIMPLEX, scale, t)
    cv2.putText(img, text, (round(at[0] - w / 2), round(at[1] + h / 2)), cv2.FONT_HERSHEY_SIMPLEX,
                scale, (225, 228, 220), t, cv2.LINE_AA)


def render_sewer(closed: frozenset[str] | set[str] = frozenset(), *, scale: float = 1.0,
                 lamp: bool = False, wheels: bool = True) -> tuple[np.ndarray, Truth]:
    """The sewer at ``scale`` (BGR) with the valves ``closed`` shut, and the truth it shows.
    ``lamp`` darkens the corners as under a single lamp; ``wheels=False`` leaves the valve
    wheels out (a picture the vision must refuse)."""
    board = Board.from_text(GRAPH)
    closed = frozenset(closed)
    k = scale
    w, h = round(SIZE[0] * k), round(SIZE[1] * k)
    img = np.zeros((h, w, 3), np.uint8)
    _bricks(img, k)
    at = {n: (x * k, y * k) for n, (x, y) in POINTS.items()}
    wet = wet_pipes(board, closed)
    for a, b in board.pipes:
        _pipe(img, at[a], at[b], k, (a, b) in wet)
    # inlet: a wide pipe from the wall's left edge, pouring; outlet: a grated drain to the right
    ix, iy = at[board.inlet]
    cv2.rectangle(img, (0, round(iy - 26 * k)), (round(ix), round(iy + 26 * k)), bgr(PIPE_EDGE), -1)
    cv2.rectangle(img, (0, round(iy - 20 * k)), (round(ix), round(iy + 20 * k)), bgr(IRON), -1)
    cv2.rectangle(img, (0, round(iy - 10 * k)), (round(ix), round(iy + 10 * k)), bgr(WATER), -1)
    cv2.circle(img, _pt(at[board.inlet]), round(24 * k), bgr(IRON), -1, cv2.LINE_AA)
    cv2.circle(img, _pt(at[board.inlet]), round(14 * k), bgr(WATER), -1, cv2.LINE_AA)
    ox, oy = at[board.outlet]
    cv2.rectangle(img, (round(ox), round(oy - 22 * k)), (w, round(oy + 22 * k)), bgr(PIPE_EDGE), -1)
    drain_wet = any(board.outlet in p for p in wet)
    cv2.circle(img, _pt(at[board.outlet]), round(34 * k), bgr(PIPE_EDGE), -1, cv2.LINE_AA)
    cv2.circle(img, _pt(at[board.outlet]), round(28 * k), bgr(WATER if drain_wet else MORTAR), -1, cv2.LINE_AA)
    for dx in (-14, -5, 5, 14):
        cv2.line(img, _pt((ox + dx * k, oy - 26 * k)), _pt((ox + dx * k, oy + 26 * k)), bgr(IRON),
                 max(1, round(4 * k)), cv2.LINE_AA)
    for name in board.valves:
        if wheels:
            draw_wheel(img, at[name], WHEEL * k, name in closed)
        _label(img, name, (at[name][0] + 30 * k, at[name][1] - 26 * k), k)
    _label(img, "IN", (ix, iy - 42 * k), k)
    _label(img, "OUT", (ox, oy - 48 * k), k)
    if lamp:
        yy, xx = np.mgrid[0:h, 0:w].astype(np.float32)
        fall = 1.0 - 0.55 * (((xx - w * 0.45) / w) ** 2 + ((yy - h * 0.4) / h) ** 2) * 2.2
        img = np.clip(img * np.clip(fall, 0.35, 1.0)[:, :, None], 0, 255).astype(np.uint8)
    shown = None
    if len(closed) <= board.wrenches:
        shown = Board(board.pipes, board.inlet, board.outlet, board.wrenches, closed).to_text().replace("\n", "/")
    return img, Truth(shown, at)


def profile_data() -> tuple[dict[str, object], dict[str, np.ndarray]]:
    """The sewer profile: profile.json's fields and its templates (the reference picture
    with every valve open, and an open and a closed valve cropped from it)."""
    board = Board.from_text(GRAPH)
    reference, truth = render_sewer()
    shut, _ = render_sewer(frozenset(board.valves))
    probe = "A"
    data: dict[str, object] = {
        "game": "valves", "name": "sewer",
        "graph": GRAPH,
        "inlet": list(POINTS[board.inlet]), "outlet": list(POINTS[board.outlet]),
        "valves": {n: list(POINTS[n]) for n in board.valves},
        "valve_size": CROP,
        "reference_shut": [],
        "close": "click",
    }
    templates = {"reference": reference, "open": crop_square(reference, truth.points[probe], CROP),
                 "closed": crop_square(shut, POINTS[probe], CROP)}
    return data, templates


# ---------------------------------------------------------------------------- fixtures

def fixture_cases() -> list[FixtureCase]:
    """The valves fixtures: the sewer at five scales, some valves closed, under a lamp,
    in a window on desktops, as JPEG; the painted panel at four scales with red wrenches
    on up to three valves and on a desktop; and scenes with no valves to read (desktop,
    photo, shapes, a sewer with no valve wheels, a painted panel drawn over)."""
    cases: list[FixtureCase] = []

    def add(name: str, image: np.ndarray, board: str | None, note: str, quality: int | None = None) -> None:
        cases.append(FixtureCase(name, image, board, "jpg" if quality else "png", quality or 85, note))

    for name, closed, k, lamp, q in (
        ("sewer_open_960", "", 1.0, False, None),
        ("sewer_A_640", "A", 2 / 3, False, None),
        ("sewer_CE_1280", "CE", 4 / 3, False, 85),
        ("sewer_GK_lamp_800", "GK", 5 / 6, True, None),
        ("sewer_ABH_480", "ABH", 0.5, False, None),
    ):
        img, t = render_sewer(frozenset(closed), scale=k, lamp=lamp)
        add(name, img, t.board, f"the sewer at {k:.2f}x, closed: {closed or 'none'}"
            + (", under a lamp" if lamp else ""), q)

    for name, closed, k, (dw, dh), q in (
        ("desktop_BH_1920", "BH", 0.75, (1920, 1080), None),
        ("desktop_D_1600", "D", 0.55, (1600, 900), 80),
    ):
        img, t = render_sewer(frozenset(closed), scale=k)
        x = dw - img.shape[1] - 150
        shot, _ = embed(img, t, render_desktop(dw, dh, len(name)), x, 80, 1.0)  # type: ignore[arg-type]
        add(name, shot, t.board, f"the sewer at {k}x in a window on a {dw}x{dh} desktop, closed: {closed}", q)

    for name, closed, k, angle in (
        ("painted_open_900", "", 1.0, -35.0),
        ("painted_ABH_630", "ABH", 0.7, -35.0),
        ("painted_CGK_1170", "CGK", 1.3, 60.0),
        ("painted_DEJ_450", "DEJ", 0.5, -120.0),
    ):
        img, t = render_panel(frozenset(closed), scale=k, angle=angle, seed=len(name))
        add(name, img, t.board, f"the painted panel at {k:.2f}x, closed: {closed or 'none'}, handles at {angle:.0f}°", 90)
    img, t = render_panel(frozenset("AFK"), scale=0.8, angle=-60.0)
    shot, _ = embed(img, t, render_desktop(1920, 1080, 12), 1920 - img.shape[1] - 120, 90, 1.0)  # type: ignore[arg-type]
    add("desktop_painted_AFK_1920", shot, t.board, "the painted panel at 0.8x in a window on a 1920x1080 desktop, "
        "closed: AFK", 90)
    img, t = render_panel(frozenset("B"), scale=0.8)
    x, y = t.points["E"]
    cv2.polylines(img, [np.int32([[x - 30, y - 20], [x - 5, y + 25], [x + 10, y - 15], [x + 35, y + 30], [x + 60, y]])],
                  False, (40, 40, 210), 5, cv2.LINE_AA)
    add("none_painted_scribbled", img, None, "the painted panel with a red marker squiggle over valve E: drawn over", 90)
    add("none_desktop", render_desktop(1600, 900, 31), None, "a desktop with windows, no game")
    add("none_photo", noise_photo(1280, 720, 32), None, "a photo-like noise image", 80)
    add("none_shapes", shapes_scene(1000, 700, 33), None, "random shapes in many colours")
    add("none_no_wheels", render_sewer(scale=0.8, wheels=False)[0], None,
        "the sewer with its valve wheels missing: no valve to read")
    return cases


# ---------------------------------------------------------------------------- painted panel

PANEL_SIZE = (900, 920)             # the painted panel's picture at scale 1, width × height
PANEL_POINTS: dict[str, Point] = {  # the same graph laid out as Machinarium's panel: two rows
    "X": (96, 812), "Y": (490, 70),
    "A": (180, 330), "B": (310, 334), "C": (430, 330), "D": (560, 336), "E": (670, 332), "F": (790, 330),
    "G": (180, 720), "H": (322, 722), "I": (440, 716), "J": (650, 708), "K": (790, 700),
}
PANEL_BOX = (20, 14, 860, 892)      # a player's box around the plate: x, y, width, height
PANEL_BODY = 64                     # a valve body's width
PIPE_W = 26                         # a copper pipe's width
PLATE: RGB = (132, 146, 122)        # the painted plate, grey-green
SURROUND: RGB = (62, 74, 70)        # the wall around it
COPPER: RGB = (158, 96, 62)
COPPER_DARK: RGB = (74, 42, 26)
COPPER_SHINE: RGB = (204, 148, 108)
STEEL: RGB = (100, 108, 112)
STEEL_DARK: RGB = (44, 48, 50)
STEEL_SHINE: RGB = (184, 192, 190)


def _lanes(board: Board) -> dict[tuple[str, str], float]:
    """A horizontal run for every pipe, in the band its ends call for (above the top row,
    between the rows, below the bottom one), spread so that runs do not touch."""
    top, bottom = PANEL_POINTS["A"][1], PANEL_POINTS["G"][1]

    def band(a: str, b: str) -> str:
        ys = sorted((PANEL_POINTS[a][1], PANEL_POINTS[b][1]))
        if ys[1] <= top + 10:
            return "above"
        if ys[0] >= bottom - 10 and ys[1] > bottom + 10:
            return "below"
        return "between"

    spans = {"above": (110, top - 60), "between": (top + 60, bottom - 60), "below": (bottom + 60, 860)}
    groups: dict[str, list[tuple[str, str]]] = {}
    for pipe in board.pipes:
        groups.setdefault(band(*pipe), []).append(pipe)
    lanes = {}
    for name, pipes in groups.items():
        lo, hi = spans[name]
        for i, pipe in enumerate(sorted(pipes, key=lambda p: min(PANEL_POINTS[p[0]][0], PANEL_POINTS[p[1]][0]))):
            lanes[pipe] = lo + (hi - lo) * (i + 0.5) / len(pipes)
    return lanes


def _copper(img: np.ndarray, points: list[Point], width: float) -> None:
    """A painted copper pipe along a polyline: dark rim, body, a shine along one side and
    a collar at every bend."""
    pts = np.round(np.array(points)).astype(np.int32)
    cv2.polylines(img, [pts], False, bgr(COPPER_DARK), round(width + 6), cv2.LINE_AA)
    cv2.polylines(img, [pts], False, bgr(COPPER), round(width), cv2.LINE_AA)
    cv2.polylines(img, [pts - np.int32([round(width * 0.18), round(width * 0.18)])], False, bgr(COPPER_SHINE),
                  max(2, round(width * 0.22)), cv2.LINE_AA)
    for x, y in points[1:-1]:
        cv2.circle(img, _pt((x, y)), round(width * 0.62), bgr(COPPER_DARK), 2, cv2.LINE_AA)


def _steel_body(img: np.ndarray, centre: Point, w: float, h: float) -> None:
    """A valve's grey cast body: dark outline, metal, a shine on top."""
    x, y = centre
    rounded_rect(img, x - w / 2 - 3, y - h / 2 - 3, x + w / 2 + 3, y + h / 2 + 3, h * 0.3, STEEL_DARK)
    rounded_rect(img, x - w / 2, y - h / 2, x + w / 2, y + h / 2, h * 0.26, STEEL)
    rounded_rect(img, x - w * 0.38, y - h * 0.42, x + w * 0.38, y - h * 0.2, h * 0.1, STEEL_SHINE)


def _plus(img: np.ndarray, centre: Point, arm: float) -> None:
    """The valve's '+' mark: a light cross outlined dark."""
    x, y = centre
    for colour, grow in ((STEEL_DARK, 2), ((214, 220, 216), 0)):
        t = round(arm * 0.55) + 2 * grow
        cv2.line(img, _pt((x - arm - grow, y)), _pt((x + arm + grow, y)), bgr(colour), t)
        cv2.line(img, _pt((x, y - arm - grow)), _pt((x, y + arm + grow)), bgr(colour), t)


def render_panel(closed: frozenset[str] | set[str] = frozenset(), *, scale: float = 1.0, angle: float = -35.0,
                 seed: int = 5) -> tuple[np.ndarray, Truth]:
    """Our own painted copper-pipe panel (the look of Machinarium's: a pale painted plate
    with rounded corners on a dark wall, copper pipes with collars running in rows and
    bends, grey cast valve bodies with a '+' mark, the inlet at the bottom left with an
    arrow, the outlet leaving at the top) with red wrenches (``draw_wrench``, handles at
    ``angle``) on the ``closed`` valves. Drawn at 900×920 and resized to ``scale``, as a
    painted picture is; ``seed`` varies the paint's stains, not the layout."""
    board = Board.from_text(GRAPH)
    closed = frozenset(closed)
    w, h = PANEL_SIZE
    rng = np.random.default_rng(seed)
    img = np.zeros((h, w, 3), np.uint8)
    img[:] = bgr(SURROUND)
    for x in range(0, w, 90):
        cv2.line(img, (x, 0), (x, h), bgr(shade(SURROUND, -0.3)), 3)
    bx, by, bw, bh = PANEL_BOX
    rounded_rect(img, bx + 14, by + 12, bx + bw - 14, by + bh - 12, 70, shade(PLATE, -0.45))
    rounded_rect(img, bx + 20, by + 18, bx + bw - 20, by + bh - 18, 64, PLATE)
    # Paint: blotches of lighter and darker wash, and hatching strokes, on the plate only.
    mask = np.all(img == bgr(PLATE), axis=2)
    wash = cv2.GaussianBlur(rng.normal(0, 1, (h // 8, w // 8)).astype(np.float32), (0, 0), 2.5)
    wash = cv2.resize(wash / (np.abs(wash).max() or 1), (w, h), interpolation=cv2.INTER_CUBIC)
    tint = np.stack([wash * 22, wash * 16, wash * 10], axis=2)
    img = np.where(mask[:, :, None], np.clip(img + tint, 0, 255), img).astype(np.uint8)
    for _ in range(160):
        x0, y0 = rng.uniform(bx + 40, bx + bw - 40), rng.uniform(by + 40, by + bh - 40)
        length, a = rng.uniform(20, 70), rng.uniform(0.6, 1.0)
        if mask[int(y0), int(x0)]:
            cv2.line(img, _pt((x0, y0)), _pt((x0 + length * np.cos(a), y0 + length * np.sin(a))),
                     bgr(shade(PLATE, -rng.uniform(0.12, 0.3))), 1, cv2.LINE_AA)
    at = dict(PANEL_POINTS)
    # six fittings along the top, pipes leaving through the top edge (the outlet is one)
    for x in (180, 310, 490, 640, 760, 850):
        _copper(img, [(x, 120), (x, 0)], PIPE_W)
        _steel_body(img, (x, 96), 56, 60)
        cv2.circle(img, (x, 96), 11, bgr(STEEL_DARK), -1, cv2.LINE_AA)
        cv2.circle(img, (x, 96), 7, bgr((150, 190, 200)), -1, cv2.LINE_AA)
    lanes = _lanes(board)
    for a, b in board.pipes:
        (ax, ay), (bx_, by_) = at[a], at[b]
        lane = lanes[(a, b)]
        _copper(img, [(ax, ay), (ax, lane), (bx_, lane), (bx_, by_)], PIPE_W)
    # inlet: a pipe from the plate's left edge into a grey coupling with a round window and an arrow
    ix, iy = at[board.inlet]
    _copper(img, [(bx + 4, iy), (ix, iy)], PIPE_W * 1.3)
    _steel_body(img, (ix + 6, iy), 78, 64)
    cv2.circle(img, _pt((ix + 6, iy)), 14, bgr(STEEL_DARK), -1, cv2.LINE_AA)
    cv2.circle(img, _pt((ix + 6, iy)), 9, bgr((150, 190, 200)), -1, cv2.LINE_AA)
    arrow = np.int32([[bx + 10, iy - 8], [bx + 24, iy - 8], [bx + 24, iy - 15], [bx + 38, iy], [bx + 24, iy + 15],
                      [bx + 24, iy + 8], [bx + 10, iy + 8]])
    cv2.polylines(img, [arrow], True, bgr((236, 226, 200)), 2, cv2.LINE_AA)
    # outlet: the pipe leaves through the top edge under a grey collar with an arrow up
    ox, oy = at[board.outlet]
    _copper(img, [(ox, oy), (ox, 0)], PIPE_W)
    _steel_body(img, (ox, oy + 30), 60, 56)
    up = np.int32([[ox - 6, oy + 44], [ox - 6, oy + 30], [ox - 13, oy + 30], [ox, oy + 16], [ox + 13, oy + 30],
                   [ox + 6, oy + 30], [ox + 6, oy + 44]])
    cv2.polylines(img, [up], True, bgr((236, 226, 200)), 2, cv2.LINE_AA)
    for name in board.valves:           # each valve sits on a short upright pipe with collars
        x, y = at[name]
        _copper(img, [(x, y - PANEL_BODY * 0.9), (x, y + PANEL_BODY * 0.9)], PIPE_W)
        for dy in (-0.75, 0.75):
            rounded_rect(img, x - PIPE_W * 0.7, y + dy * PANEL_BODY - 5, x + PIPE_W * 0.7, y + dy * PANEL_BODY + 5, 3, COPPER_DARK)
        _steel_body(img, at[name], PANEL_BODY, PANEL_BODY * 0.86)
        _plus(img, at[name], PANEL_BODY * 0.16)
    for name in sorted(closed):
        draw_wrench(img, at[name], PANEL_BODY, angle, blur=1.0)
    img = cv2.GaussianBlur(img, (0, 0), 0.8)        # paint, not pixels
    if scale != 1.0:
        img = cv2.resize(img, None, fx=scale, fy=scale, interpolation=cv2.INTER_AREA if scale < 1 else cv2.INTER_CUBIC)
    shown = None
    if len(closed) <= board.wrenches:
        shown = Board(board.pipes, board.inlet, board.outlet, board.wrenches, closed).to_text().replace("\n", "/")
    return img, Truth(shown, {n: ((x + 0.5) * scale - 0.5, (y + 0.5) * scale - 0.5) for n, (x, y) in at.items()})


def panel_picks() -> dict[str, object]:
    """A player's picks on the open painted panel at scale 1 (``calibrate valves --picks``):
    the box, the inlet, the outlet, the valves in letter order and a point on A's rim."""
    board = Board.from_text(GRAPH)
    ax, ay = PANEL_POINTS["A"]
    return {"box": list(PANEL_BOX), "inlet": list(PANEL_POINTS[board.inlet]), "outlet": list(PANEL_POINTS[board.outlet]),
            "valves": [list(PANEL_POINTS[v]) for v in sorted(board.valves)], "rim": [ax + PANEL_BODY / 2, ay]}


def panel_profile_data() -> tuple[dict[str, object], dict[str, np.ndarray]]:
    """The painted panel's profile, shipped in ``vision/data/valves/painted``: what
    ``calibrate valves`` makes of the open panel and ``panel_picks`` (a test keeps the
    two equal; after changing the panel, write it again with
    ``calibration.profile.save(*panel_profile_data(), folder)``)."""
    from calibration.valves import build, kinds

    board = Board.from_text(GRAPH)
    first = board.valves[0]
    fx, fy = PANEL_POINTS[first]
    inlet, outlet, *_, rim = kinds(board)
    examples = {inlet: _pt(PANEL_POINTS[board.inlet]), outlet: _pt(PANEL_POINTS[board.outlet]),
                **{f"valve {v}": _pt(PANEL_POINTS[v]) for v in board.valves},
                rim: _pt((fx + PANEL_BODY / 2, fy))}
    data, templates = build(render_panel()[0], board, PANEL_BOX, examples)
    return {"game": "valves", "name": "painted", **data}, templates
