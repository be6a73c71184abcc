"""Valves (Machinarium): find the known scene in a screenshot and read which valves are shut.

The valve puzzle is one fixed picture, so its graph and valve positions come from a
calibration profile (``calibration/profile.py``; the shipped one is our own sewer scene,
``puzzlepilot/data/valves/sewer``). A valves profile's ``profile.json`` holds::

    {"version": 1, "game": "valves", "name": "sewer",
     "graph": "inlet: X/outlet: Y/wrenches: 3/X G/...",      # board text, GAMES.md §5
     "inlet": [x, y], "outlet": [x, y],                       # in the reference picture
     "valves": {"A": [x, y], ...},                            # every valve of the graph
     "valve_size": 50,                                        # side of the valve crops
     "reference_shut": [],        # valves shown shut in reference.png
     "close": "click",            # or "wrench-then-click" with "wrench": [x, y]
     "templates": {"reference": "reference.png", "open": "open.png", "closed": "closed.png"}}

Stages:

1. ``locate``: grey template matching of the reference picture, coarse over scales from
   the largest that fits down to a quarter of it with the template 96 px wide, then at up
   to 240 px around the best place and scale, to a half-percent of scale (pictures of
   anything else score ≤ 0.3 here and stop after the coarse sweep);
2. ``read_valves``: at full resolution, each valve's square is compared (zero-mean
   correlation inside the wheel's disc, colour) with its own open look — cropped from the
   reference picture, where it is open, so valves drawn differently each match their own
   — and with the closed crop; the nearer look wins, and a valve like neither means this
   is not the scene. Valves shut in the reference use the generic open crop;
3. ``fit``: the scale and offset that put the profile's valves on the wheels found, by
   least squares, for the points that are not valves (inlet, outlet, wrench).

Cost: 15–40 ms for a 1920×1080 screenshot on two busy cores (``puzzlepilot bench valves``).
"""
from __future__ import annotations

import functools
import math
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import cv2
import numpy as np

from solvers.common import BoardError
from solvers.valves import Board
from vision.common import NoBoardFound, Parse

SHIPPED = Path(__file__).resolve().parent.parent / "puzzlepilot" / "data" / "valves" / "sewer"
COARSE_WIDTH = 96           # template width of the coarse scale sweep
FINE_WIDTH = 240            # template width of the refinement
SMALLEST = 0.25             # the scene may be this share of the largest size that fits
MIN_SCENE = 240             # … and no narrower than this many pixels
MIN_COARSE = 0.4            # coarse correlation worth refining (other pictures: ≤ 0.3)
MIN_MATCH = 0.55            # refined correlation with the reference picture
MIN_VALVE = 0.5             # a valve's correlation with the look it is said to have
MIN_GAP = 0.05              # … and how much nearer that look must be than the other


@dataclass(frozen=True)
class Scene:
    """A loaded valves profile: the graph with every valve open, point positions in the
    reference picture, the valve looks, and how a valve is closed."""

    name: str
    board: Board
    reference: np.ndarray           # grey
    coarse: np.ndarray              # the reference COARSE_WIDTH wide
    fine: np.ndarray                # … and at most 2·FINE_WIDTH wide, to shrink templates from
    points: dict[str, tuple[float, float]]
    open_looks: dict[str, np.ndarray]   # each valve's, BGR, valve_size square
    closed_look: np.ndarray
    close: str
    wrench: tuple[float, float] | None


@dataclass(frozen=True)
class Placement:
    """Where the reference picture lies in an image: top-left corner, scale, correlation."""

    x: float
    y: float
    scale: float
    score: float

    def map(self, p: tuple[float, float]) -> tuple[float, float]:
        return (self.x + p[0] * self.scale, self.y + p[1] * self.scale)


def scene(profile: Any = None) -> Scene:
    """The scene a profile describes (None: the shipped sewer); ProfileError naming the
    field when it is not a valid valves profile."""
    folder = SHIPPED if profile is None else Path(profile.folder)
    stamp = (folder / "profile.json").stat().st_mtime_ns if (folder / "profile.json").is_file() else 0
    return _scene(str(folder), stamp)


@functools.lru_cache(maxsize=8)
def _scene(folder: str, stamp: int) -> Scene:
    from calibration.profile import ProfileError, load
    from calibration.valves import crop_square

    prof = load(folder)
    where = f"profile {prof.name}"
    if prof.game != "valves":
        raise ProfileError(f"{where}: field 'game' is {prof.game!r}, not 'valves'")
    try:
        board = Board.from_text(prof.get("graph", str))
    except BoardError as exc:
        raise ProfileError(f"{where}: field 'graph': {exc}") from None
    colour = prof.template("reference")
    reference = cv2.cvtColor(colour, cv2.COLOR_BGR2GRAY)
    h, w = reference.shape

    def point(field: str, value: Any) -> tuple[float, float]:
        if (not isinstance(value, list) or len(value) != 2
                or not all(isinstance(v, (int, float)) and not isinstance(v, bool) for v in value)):
            raise ProfileError(f"{where}: field {field!r} must be [x, y], not {value!r}")
        if not (0 <= value[0] < w and 0 <= value[1] < h):
            raise ProfileError(f"{where}: field {field!r} = {value} is outside the reference picture ({w}x{h})")
        return (float(value[0]), float(value[1]))

    valves = prof.get("valves", dict)
    missing = [v for v in board.valves if v not in valves]
    extra = [v for v in valves if v not in board.valves]
    if missing or extra:
        raise ProfileError(f"{where}: field 'valves' must place exactly the graph's valves"
                           + (f"; missing {', '.join(missing)}" if missing else "")
                           + (f"; not valves of the graph: {', '.join(extra)}" if extra else ""))
    points = {name: point(f"valves.{name}", valves[name]) for name in board.valves}
    points[board.inlet] = point("inlet", prof.get("inlet", list))
    points[board.outlet] = point("outlet", prof.get("outlet", list))
    size = prof.get("valve_size", int)
    looks = {key: prof.template(key) for key in ("open", "closed")}
    for key, look in looks.items():
        if look.shape[:2] != (size, size):
            raise ProfileError(f"{where}: template '{key}' must be {size}x{size} (field 'valve_size')")
    shut = prof.get("reference_shut", list)
    if not all(name in board.valves for name in shut):
        raise ProfileError(f"{where}: field 'reference_shut' must list valves of the graph, not {shut!r}")
    open_looks = {}
    for name in board.valves:
        own = None if name in shut else crop_square(colour, points[name], size)
        open_looks[name] = looks["open"] if own is None else own
    close = prof.get("close", str)
    if close not in ("click", "wrench-then-click"):
        raise ProfileError(f"{where}: field 'close' must be 'click' or 'wrench-then-click', not {close!r}")
    wrench = point("wrench", prof.get("wrench", list)) if close == "wrench-then-click" else None
    coarse = _shrunk(reference, COARSE_WIDTH / w)
    fine = _shrunk(reference, min(1.0, 2 * FINE_WIDTH / w))
    return Scene(prof.name, board, reference, coarse, fine, points, open_looks, looks["closed"], close, wrench)


# ---------------------------------------------------------------------------- locate

def _match(image: np.ndarray, template: np.ndarray) -> tuple[float, int, int]:
    """(best correlation, x, y) of a template in an image; -1 when it does not fit."""
    if template.shape[0] > image.shape[0] or template.shape[1] > image.shape[1] or min(template.shape) < 8:
        return -1.0, 0, 0
    result = cv2.matchTemplate(image, template, cv2.TM_CCOEFF_NORMED)
    _, best, _, (x, y) = cv2.minMaxLoc(result)
    return float(best), x, y


def _shrunk(image: np.ndarray, k: float) -> np.ndarray:
    size = (max(1, round(image.shape[1] * k)), max(1, round(image.shape[0] * k)))
    return cv2.resize(image, size, interpolation=cv2.INTER_AREA if k < 1 else cv2.INTER_LINEAR)


def locate(grey: np.ndarray, sc: Scene) -> Placement:
    """Where the scene's reference picture is in a grey image, at what scale (see the
    module doc)."""
    h, w = grey.shape
    rh, rw = sc.reference.shape
    largest = min(w / rw, h / rh)
    smallest = max(largest * SMALLEST, MIN_SCENE / rw)
    if smallest > largest:
        raise NoBoardFound(f"the image is too small to show the scene ({w}x{h})")
    # Coarse: the template fixed at COARSE_WIDTH, the image shrunk to match each scale.
    base_k = COARSE_WIDTH / (rw * smallest)
    base = _shrunk(grey, min(1.0, base_k))
    best = Placement(0, 0, 0, -1.0)
    steps = max(1, math.ceil(math.log(largest / smallest) / math.log(1.06)))
    for i in range(steps + 1):
        s = largest * (smallest / largest) ** (i / steps)
        k = COARSE_WIDTH / (rw * s)
        score, x, y = _match(_shrunk(base, k / min(1.0, base_k)), sc.coarse)
        if score > best.score:
            best = Placement(x / k, y / k, s, score)
    if best.score < MIN_COARSE:
        return best
    # Fine: around the coarse place (off by up to a coarse pixel and half the 6 % scale
    # step), scale within ±4.5 % in 1.5 % steps, then ±1 % in 0.5 % steps.
    k = min(1.0, FINE_WIDTH / (rw * best.scale))
    margin = 2 * rw * best.scale / COARSE_WIDTH + 0.04 * rw * best.scale
    x0, y0 = max(0, int(best.x - margin)), max(0, int(best.y - margin))
    x1 = min(w, int(best.x + rw * best.scale * 1.045 + margin) + 1)
    y1 = min(h, int(best.y + rh * best.scale * 1.045 + margin) + 1)
    window = _shrunk(grey[y0:y1, x0:x1], k)
    fine = Placement(best.x, best.y, best.scale, -1.0)     # coarse scores do not compare
    for spread, step, with_centre in ((0.045, 0.015, True), (0.01, 0.005, False)):
        centre = fine.scale
        for j in range(-round(spread / step), round(spread / step) + 1):
            if j == 0 and not with_centre:
                continue
            s = centre * (1 + j * step)
            score, x, y = _match(window, _shrunk(sc.fine, s * k * rw / sc.fine.shape[1]))
            if score > fine.score:
                fine = Placement(x0 + x / k, y0 + y / k, s, score)
    return fine


# ---------------------------------------------------------------------------- valves

def likeness(window: np.ndarray, look: np.ndarray) -> tuple[float, int, int]:
    """(best zero-mean correlation, x, y of the look's top-left) of a valve look in a
    window, inside the wheel's disc (the crop's corners show pipes and wall, which differ
    from valve to valve)."""
    size = look.shape[0]
    mask = np.zeros((size, size), np.uint8)
    cv2.circle(mask, (size // 2, size // 2), round(0.46 * size), 255, -1)
    result = cv2.matchTemplate(window, look, cv2.TM_CCOEFF_NORMED, mask=mask)
    result = np.nan_to_num(result, nan=-1.0, posinf=-1.0, neginf=-1.0)
    _, best, _, (x, y) = cv2.minMaxLoc(result)
    return float(best), x, y


@dataclass(frozen=True)
class Valves:
    """What ``read_valves`` saw: the closed valves, the weakest likeness, and where each
    valve's wheel was found (image pixels)."""

    closed: frozenset[str]
    weakest: float
    found: dict[str, tuple[float, float]]


def read_valves(image: np.ndarray, where: Placement, sc: Scene) -> Valves:
    """Tell each valve open or closed by the nearer look. Looks and image meet at the
    smaller of their two scales, and each look is sought a few pixels around the mapped
    position, so a scale off by a percent or a hand-placed point off by a few pixels still
    reads — and the place found is the wheel's true centre."""
    size = sc.closed_look.shape[0]
    k = min(1.0, 1 / where.scale)               # image → comparison scale
    closed_look = _shrunk(sc.closed_look, min(1.0, where.scale))
    centre = (size // 2 + 0.5) * closed_look.shape[0] / size    # the valve's point in a look
    half = (size / 2 + max(2, 0.15 * size)) * where.scale
    closed, weakest, found = set(), 1.0, {}
    for name in sc.board.valves:
        x, y = where.map(sc.points[name])
        x0, y0, x1, y1 = round(x - half), round(y - half), round(x + half), round(y + half)
        if x0 < 0 or y0 < 0 or x1 > image.shape[1] or y1 > image.shape[0]:
            raise NoBoardFound(f"valve {name} lies outside the image")
        window = _shrunk(image[y0:y1, x0:x1], k)
        open_look = _shrunk(sc.open_looks[name], min(1.0, where.scale))
        (is_open, ox, oy), (is_closed, cx, cy) = (likeness(window, look) for look in (open_look, closed_look))
        if max(is_open, is_closed) < MIN_VALVE or abs(is_open - is_closed) < MIN_GAP:
            raise NoBoardFound(f"valve {name} looks neither open nor closed "
                               f"(likeness {is_open:.2f} open, {is_closed:.2f} closed)")
        u, v = (cx, cy) if is_closed > is_open else (ox, oy)
        # window pixel → continuous window → image pixel coordinates
        found[name] = (x0 + (u + centre) * (x1 - x0) / window.shape[1] - 0.5,
                       y0 + (v + centre) * (y1 - y0) / window.shape[0] - 0.5)
        if is_closed > is_open:
            closed.add(name)
        weakest = min(weakest, max(is_open, is_closed))
    return Valves(frozenset(closed), weakest, found)


def fit(sc: Scene, valves: Valves) -> Placement:
    """Scale and offset mapping the profile's valve positions onto the wheels found, by
    least squares (finer than the template search's half-percent steps)."""
    names = list(valves.found)
    ref = np.array([sc.points[n] for n in names], np.float64)
    img = np.array([valves.found[n] for n in names], np.float64)
    n = len(names)
    a = np.zeros((2 * n, 3))
    a[:n, 0], a[n:, 0] = ref[:, 0], ref[:, 1]
    a[:n, 1], a[n:, 2] = 1.0, 1.0
    (scale, x, y), *_ = np.linalg.lstsq(a, np.concatenate([img[:, 0], img[:, 1]]), rcond=None)
    return Placement(float(x), float(y), float(scale), 0.0)


# ---------------------------------------------------------------------------- parse

def parse(image_bgr: np.ndarray, profile: Any = None) -> Parse:
    """Read the valves scene: the graph with the valves already closed, each point's image
    position (``cells``, in the board's point order, then the wrench if the profile has
    one; ``geometry["names"]`` names them). Valves sit where their wheels were found, the
    rest where the fitted scale and offset put them."""
    sc = scene(profile)
    if image_bgr.ndim != 3:
        raise NoBoardFound("not a colour image")
    where = locate(cv2.cvtColor(image_bgr, cv2.COLOR_BGR2GRAY), sc)
    if where.score < MIN_MATCH:
        raise NoBoardFound(f"the {sc.name} scene is not in the image (best likeness {where.score:.2f})")
    valves = read_valves(image_bgr, where, sc)
    placed = fit(sc, valves)
    b = sc.board
    try:
        board = Board(b.pipes, b.inlet, b.outlet, b.wrenches, valves.closed)
    except BoardError as exc:    # more valves look shut than the player has wrenches
        raise NoBoardFound(f"not a position of the game: {exc}") from None
    names = list(board.points)
    cells = [valves.found.get(n) or placed.map(sc.points[n]) for n in names]
    if sc.wrench is not None:
        names.append("wrench")
        cells.append(placed.map(sc.wrench))
    geometry = {"profile": sc.name, "names": names, "origin": [placed.x, placed.y], "scale": placed.scale,
                "radius": sc.closed_look.shape[0] * placed.scale / 2, "close": sc.close}
    return Parse("valves", board, min(where.score, valves.weakest), cells, geometry)
