"""Ring battles: screenshot → arena geometry → 4×12 occupancy → board, plus the move budget.

Stages, each a function the tests can call and ``parse --stages DIR`` shows as pictures:

1. ``find_arena``: circle candidates (Hough on a reduced grey image); around each centre the
   picture is unwarped to polar form and the ring edges are fitted: the four tile rings
   are equally wide, so the 5 edge radii are ``inner + k·(outer − inner)/4``. The median
   over angles of the radial edge strength must peak there, and the median over radii of
   the angular edge strength must peak at the 12 slice borders (slice 0 centred at
   9 o'clock). Targets, clocks and wheels of other sizes fail one of the two.
2. ``unwarp``: the arena as a 4×12 grid of aligned patches (rows: radius, columns: angle).
3. ``occupancy``: the tiles of one ring all look alike once unwarped, while a figure
   standing on a tile changes it (and, drawn upright on screen, looks different on every
   slice). So per ring the empty look is learned from the least textured group of
   near-identical patches (alike figures may outnumber the empty tiles), and a cell is
   occupied when it differs from that look by more than light does (``figure_measure``);
   a cell too near the threshold is refused.
4. ``read_budget``: the game's white "Ring Moves ×N" panel, its digits cut out by lightness
   on the green sticker and matched with templates blurred to their size; tesseract once
   on the likeliest panel when they are unsure.

A calibration profile (``puzzlepilot calibrate rings``, ``calibration/rings.py``) teaches a
look whose tiles or figures break stage 3 (a checkerboard of two tile looks per ring, say):
``look_of`` reads its fields (``ring_radii``, ``centre_share``, ``outer_share``,
``empty_distance``, ``enemy_distance`` and the templates ``empty_ring0``–``3``).
``find_looked`` then fits the arena at the profile's ring ratio, first where the calibration
frame had it (scaled to the image), then around the circles of stage 1, and a cell holds an
enemy when it is far (``excess``) from every empty tile its ring showed in calibration. A
profile with only a ``keymap`` leaves the reading as it is.
"""
from __future__ import annotations

import math
import re
from dataclasses import dataclass, replace
from functools import lru_cache
from typing import Any, Iterator

import cv2
import numpy as np

from solvers.rings import DEFAULT_BUDGET, RINGS, SLICES, Board
from vision.common import NoBoardFound, Parse, marked, stage
from vision.profile import Profile, ProfileError

REDUCED = 480            # longest side of the image the circle search runs on
RING_PX, SLICE_PX = 24, 32   # size of one unwarped cell
EDGE_CONTRAST = 1.6      # ring/slice border edge strength over the average, at least
SAME_TILE = 14.0         # mean Lab distance under which two unwarped tiles look alike
FIGURE = 14.0            # ``figure_measure`` from the ring's empty look above which a cell is taken
CLEAR = 2.0              # a cell this many times off FIGURE (either way) is a sure call
UNSURE = 0.3             # share of the log gap between the threshold and a sure call in which a
                         # cell is refused as neither empty nor taken
MIN_EMPTY = 3            # empty tiles a ring needs to show its empty look
CANDIDATES = 6           # circles tried, strongest first


@dataclass(frozen=True)
class Arena:
    """Where the arena is and how the camera sees it. Arena coordinates: the round arena's
    plane, in pixels of the image row through the centre; ``outer`` is the outer radius of
    ring 0, ``inner`` the radius of the central disc (the inner edge of ring 3). Angles are
    degrees measured clockwise from 9 o'clock (the far side up), the centre of slice 0.

    A camera looking down at the arena at a slant (the game's default "tilted" view, or the
    more overhead "Change View" one) sees a circle of radius r as an ellipse: a plane point
    (u, v) (v towards the far side) lands at ``x = cx + u / d``, ``y = cy − squash·v / d``
    with ``d = 1 + (tilt·v + skew·u) / outer`` — a homography of a camera with no roll looking at the
    centre, turned by ``roll`` degrees (clockwise on screen: a photo of the screen held
    askew); ``skew`` is 0 in the game's own frames and the side-to-side perspective of a photo
    of the screen taken from one side. ``squash`` 1 and ``tilt`` 0 is a camera straight
    above (the practice arena).
    ``edges`` are the 5 ring edge radii, outer first, when the rings are not equally wide
    (the real game's blue inner ring is narrower); ``phase`` turns slice 0 off 9 o'clock."""

    cx: float
    cy: float
    outer: float
    inner: float
    squash: float = 1.0
    tilt: float = 0.0
    edges: tuple[float, ...] | None = None
    phase: float = 0.0
    roll: float = 0.0
    skew: float = 0.0

    def depth(self, u: np.ndarray, v: np.ndarray) -> np.ndarray:
        """How much farther than the centre a plane point is from the camera (1 at the centre):
        ``1 + (tilt·v + skew·u) / outer``; a figure there looks that many times smaller."""
        return 1.0 + (self.tilt * v + self.skew * u) / self.outer

    @property
    def radii(self) -> tuple[float, ...]:
        """The 5 ring edge radii, outer first."""
        return self.edges or tuple(self.outer - k * self.width for k in range(RINGS + 1))

    @property
    def width(self) -> float:
        """The radial width of one ring (on average)."""
        return (self.outer - self.inner) / RINGS

    def mid(self, ring: int) -> float:
        edges = self.radii
        return (edges[ring] + edges[ring + 1]) / 2

    def project(self, u: np.ndarray, v: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
        """Image points of arena-plane points (arrays)."""
        d = self.depth(u, v)
        dx, dy = u / d, -self.squash * v / d
        if not self.roll:
            return self.cx + dx, self.cy + dy
        c, s = math.cos(math.radians(self.roll)), math.sin(math.radians(self.roll))
        return self.cx + c * dx - s * dy, self.cy + s * dx + c * dy

    def point(self, radius: float, angle: float) -> tuple[float, float]:
        a = math.radians(angle + self.phase)
        x, y = self.project(np.float64(-radius * math.cos(a)), np.float64(radius * math.sin(a)))
        return float(x), float(y)

    def plane(self, x: np.ndarray, y: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
        """Arena-plane points (u, v) of image points: the inverse of ``project``."""
        dx, dy = x - self.cx, y - self.cy
        if self.roll:
            c, s = math.cos(math.radians(self.roll)), math.sin(math.radians(self.roll))
            dx, dy = c * dx + s * dy, -s * dx + c * dy
        h = -dy / self.squash
        d = 1.0 / (1.0 - (self.tilt * h + self.skew * dx) / self.outer)
        return dx * d, h * d

    def locate(self, x: float, y: float) -> tuple[float, float]:
        """(radius, angle) of an image point: the inverse of ``point``."""
        u, v = self.plane(np.float64(x), np.float64(y))
        return float(math.hypot(u, v)), (math.degrees(math.atan2(v, -u)) - self.phase) % 360.0

    def ring_of(self, radius: float) -> int | None:
        """The ring a radius falls in, None off the rings."""
        edges = self.radii
        if not edges[-1] <= radius <= edges[0]:
            return None
        return next(r for r in range(RINGS) if radius >= edges[r + 1])

    def cell_at(self, x: float, y: float) -> tuple[int, int] | None:
        """(ring, slice) of the tile under an image point, None off the rings."""
        radius, angle = self.locate(x, y)
        ring = self.ring_of(radius)
        return None if ring is None else (ring, round(angle / 30.0) % SLICES)

    def cell(self, ring: int, slice_: int) -> tuple[float, float]:
        """Image centre of a cell."""
        return self.point(self.mid(ring), 30.0 * slice_)

    def cells(self) -> list[tuple[float, float]]:
        """Every cell centre, ring-major (the board's row-major order)."""
        return [self.cell(r, s) for r in range(RINGS) for s in range(SLICES)]

    @property
    def flat(self) -> bool:
        """Seen straight from above with equal rings (the drawn practice arena)."""
        return self.squash == 1.0 and self.tilt == 0.0 and self.edges is None and self.phase == 0.0 and self.roll == 0.0 \
            and self.skew == 0.0

    def to_json(self) -> dict[str, Any]:
        out: dict[str, Any] = {"centre": [round(self.cx, 2), round(self.cy, 2)], "outer": round(self.outer, 2),
                               "inner": round(self.inner, 2)}
        if not self.flat:
            out["camera"] = {"squash": round(self.squash, 4), "tilt": round(self.tilt, 4), "phase": round(self.phase, 2),
                             "edges": [round(e, 2) for e in self.radii], "roll": round(self.roll, 3)}
            if self.skew:
                out["camera"]["skew"] = round(self.skew, 4)
        return out

    @classmethod
    def from_json(cls, data: dict[str, Any]) -> "Arena":
        (cx, cy), camera = data["centre"], data.get("camera")
        if camera is None:
            return cls(cx, cy, data["outer"], data["inner"])
        return cls(cx, cy, data["outer"], data["inner"], camera["squash"], camera["tilt"],
                   tuple(camera["edges"]), camera["phase"], camera.get("roll", 0.0), camera.get("skew", 0.0))


@dataclass(frozen=True)
class RingsGeometry:
    """Where a ring battle is in the picture (the arena, seen as the camera sees it) and
    the move budget its panel shows (None when the panel did not read)."""

    arena: Arena
    budget: int | None = None

    def shifted(self, dx: float, dy: float) -> "RingsGeometry":
        return replace(self, arena=replace(self.arena, cx=self.arena.cx + dx, cy=self.arena.cy + dy))


def polar(image: np.ndarray, cx: float, cy: float, radii: np.ndarray, angles: np.ndarray) -> np.ndarray:
    """Sample the image on a polar grid: rows are radii, columns angles (degrees from
    9 o'clock, clockwise)."""
    a = np.radians(angles)[None, :]
    r = radii[:, None]
    map_x = (cx - r * np.cos(a)).astype(np.float32)
    map_y = (cy - r * np.sin(a)).astype(np.float32)
    return cv2.remap(image, map_x, map_y, cv2.INTER_LINEAR, borderMode=cv2.BORDER_REPLICATE)


# ---------------------------------------------------------------------------- 1. the arena

def _candidates(grey: np.ndarray) -> list[tuple[float, float, float]]:
    """Circles (x, y, r) in the reduced image, strongest first."""
    side = min(grey.shape)
    circles = cv2.HoughCircles(cv2.medianBlur(grey, 5), cv2.HOUGH_GRADIENT, dp=1, minDist=side / 8,
                               param1=120, param2=40, minRadius=int(side * 0.12), maxRadius=int(side * 0.55))
    return [] if circles is None else [tuple(map(float, c)) for c in circles[0][:CANDIDATES]]


def _radial_edges(grey: np.ndarray, cx: float, cy: float, reach: float, angles: np.ndarray,
                  samples: int = 240) -> tuple[np.ndarray, float]:
    """|d/dradius| of the unwarped picture (rows: radii from 0 by ``step``), and the step."""
    step = reach / samples
    flat = polar(grey, cx, cy, np.arange(0.0, reach, step), angles).astype(np.float32)
    return np.abs(np.diff(flat, axis=0)), step


def refine_centre(grey: np.ndarray, cx: float, cy: float, reach: float) -> tuple[float, float]:
    """Move a rough centre onto the centre of the concentric edges: seen from a centre off
    by d, a circle appears at radius R − d·(cos θ, sin θ) along angle θ, so the shift of
    each angle's edge profile against the median profile gives d by least squares."""
    angles = np.arange(0.0, 360.0, 3.0)
    a = np.radians(angles)
    design = np.stack([np.cos(a), np.sin(a)], axis=1)
    shifts = np.arange(-12, 13)
    for _ in range(3):
        edges, step = _radial_edges(grey, cx, cy, reach, angles)
        edges = edges[len(edges) // 8:]                 # the middle is noise
        ref = np.median(edges, axis=1)
        rolled = (np.arange(len(edges))[None, :] + shifts[:, None]) % len(edges)   # each shift's rows at once
        scores = np.einsum("kij,i->kj", edges[rolled], ref)
        delta = shifts[np.argmax(scores, axis=0)] * step
        (dx, dy), *_ = np.linalg.lstsq(design, -delta, rcond=None)
        cx, cy = cx + float(dx), cy + float(dy)
        if math.hypot(dx, dy) < step / 2:
            break
    return cx, cy


def _fit_rings(radial: np.ndarray, step: float, guess: float, ratio: float | None = None,
               span: tuple[float, float] = (0.9, 4.0)) -> tuple[float, float, float]:
    """(outer, inner/outer, contrast): the 5 equally spaced ring edges that best match the radial
    edge profile, and how far the weakest of the five stands above the profile's average.
    The circle found may be any of the arena's edges, so the outer edge is first searched
    from it out to 4 times its radius (``span``), then again finely around the best. A
    profile's ``ratio`` (inner/outer) is kept as it is."""
    ratios = np.arange(0.12, 0.56, 0.01) if ratio is None else np.array([ratio])
    outer, found, _ = _fit_grid(radial, step, np.arange(guess * span[0], guess * span[1], step), ratios,
                                smooth=0.012 * guess)
    fine = np.arange(found - 0.01, found + 0.01, 0.001) if ratio is None else ratios
    return _fit_grid(radial, step, np.arange(outer * 0.97, outer * 1.03, step / 2), fine, smooth=0.012 * outer, fine=True)


def _fit_grid(radial: np.ndarray, step: float, outers: np.ndarray, ratios: np.ndarray,
              smooth: float, fine: bool = False) -> tuple[float, float, float]:
    """The best (outer, inner/outer, contrast) on a grid; ``smooth`` (pixels) merges the two
    edges of a joint line into one peak at its middle. The coarse search ranks by the
    weakest edge (all five must be there), the fine one by their sum (no compromise on
    the strongest); the contrast is always the weakest edge's."""
    prof = cv2.GaussianBlur(radial.reshape(-1, 1), (1, 0), sigmaX=0.1, sigmaY=smooth / step).ravel()
    outer = outers[outers < (len(prof) - 2) * step][:, None, None]
    ratio = ratios[None, :, None]
    idx = np.rint(outer * (ratio + (1 - ratio) * np.linspace(0, 1, RINGS + 1)) / step).astype(int)
    weakest = prof[idx].min(axis=2)
    score = prof[idx].sum(axis=2) if fine else weakest
    i, j = np.unravel_index(int(np.argmax(score)), score.shape)
    return float(outer[i, 0, 0]), float(ratio[0, j, 0]), float(weakest[i, j]) / (float(prof.mean()) + 1e-6)


def _slice_contrast(grey: np.ndarray, arena: Arena) -> float:
    """Edge strength across the 12 slice borders over the strength inside the slices."""
    radii = np.linspace(arena.inner + arena.width * 0.3, arena.outer - arena.width * 0.3, 48)
    flat = polar(grey, arena.cx, arena.cy, radii, np.arange(0.0, 360.0, 0.5)).astype(np.float32)
    across = np.median(np.abs(flat - np.roll(flat, 1, axis=1)), axis=0)    # per half degree
    across = np.maximum(across, np.roll(across, -1))
    borders = np.array([round((15.0 + 30.0 * k) * 2) for k in range(SLICES)])
    near = (borders[:, None] + np.arange(-2, 3)[None, :]) % 720
    at = across[near].max(axis=1)
    off = np.delete(across, (borders[:, None] + np.arange(-6, 7)[None, :]).ravel() % 720)
    return float(at.min()) / (float(np.percentile(off, 90)) + 1.0)


def greys(image: np.ndarray) -> tuple[np.ndarray, np.ndarray, float]:
    """The grey image, its reduced copy for the circle search, and the reduction factor."""
    grey_full = cv2.cvtColor(image, cv2.COLOR_BGR2GRAY)
    k = min(1.0, REDUCED / max(image.shape[:2]))
    grey = cv2.resize(grey_full, None, fx=k, fy=k, interpolation=cv2.INTER_AREA) if k < 1 else grey_full
    return grey_full, grey, k


def arena_at(grey_full: np.ndarray, grey: np.ndarray, k: float, circle: tuple[float, float, float],
              ratio: float | None = None, span: tuple[float, float] = (0.9, 4.0)) -> tuple[Arena, float] | None:
    """The arena around a circle (x, y, r) of the reduced image and its edge contrast (ring
    and slice borders, the weaker), or None when either is too faint."""
    x, y, r = circle
    reach = min(r * 1.5, float(max(grey.shape)))
    x, y = refine_centre(grey, x, y, reach)
    cx, cy = refine_centre(grey_full, x / k, y / k, reach / k)
    edges, step = _radial_edges(grey_full, cx, cy, min(span[1] * r, float(max(grey.shape))) / k,
                                np.arange(0.0, 360.0, 1.0), samples=800)
    outer, ratio, ring_contrast = _fit_rings(np.median(edges, axis=1), step, r / k, ratio, span)
    if ring_contrast < EDGE_CONTRAST:
        return None
    arena = Arena(cx, cy, outer, outer * ratio)
    slice_contrast = _slice_contrast(grey_full, arena)
    if slice_contrast < EDGE_CONTRAST:
        return None
    return arena, min(ring_contrast, slice_contrast)


def find_arena(image: np.ndarray) -> tuple[Arena, float]:
    """The arena and a confidence in 0..1, or NoBoardFound."""
    grey_full, grey, k = greys(image)
    best: tuple[float, Arena] | None = None
    candidates = _candidates(grey)
    stage("rings-circles", lambda: marked(grey, boxes=[(x - r, y - r, 2 * r, 2 * r) for x, y, r in candidates]))
    for circle in candidates:
        found = arena_at(grey_full, grey, k, circle)
        if found is None:
            continue
        arena, score = found
        if best is None or score > best[0]:
            best = (score, arena)
        if score >= 2 * EDGE_CONTRAST:      # as clear as an arena gets: stop looking
            break
    if best is None:
        raise NoBoardFound("no ring arena (4 rings × 12 slices) found")
    score, arena = best
    return arena, min(1.0, score / (2 * EDGE_CONTRAST))


# ---------------------------------------------------------------------------- 2–3. the cells

def unwarp(image: np.ndarray, arena: Arena) -> np.ndarray:
    """The arena as a (4·RING_PX) × (12·SLICE_PX) picture: ring 0 on top, slice 0 left."""
    radii = arena.outer - (np.arange(RINGS * RING_PX) + 0.5) * (arena.width / RING_PX)
    angles = (np.arange(SLICES * SLICE_PX) + 0.5) * (30.0 / SLICE_PX) - 15.0
    return polar(image, arena.cx, arena.cy, radii, angles)


def cell_patches(flat: np.ndarray) -> np.ndarray:
    """Each cell's inside (margins, where the tile borders are, left out) of an unwarped
    picture (``unwarp``, or a strip of cells), smoothed, in Lab: (rings, slices, h, w, 3)."""
    lab = cv2.cvtColor(cv2.GaussianBlur(flat, (5, 5), 0), cv2.COLOR_BGR2LAB).astype(np.float32)
    mr, ms = RING_PX // 5, SLICE_PX // 5
    rows, cols = flat.shape[0] // RING_PX, flat.shape[1] // SLICE_PX
    return np.stack([np.stack([lab[r * RING_PX + mr:(r + 1) * RING_PX - mr, s * SLICE_PX + ms:(s + 1) * SLICE_PX - ms]
                               for s in range(cols)]) for r in range(rows)])


def distances(patches: np.ndarray, others: np.ndarray) -> np.ndarray:
    """Mean Lab distance of every patch to every other patch: (len(patches), len(others))."""
    return np.linalg.norm(patches[:, None] - others[None, :], axis=-1).mean(axis=(2, 3))


def figure_measure(patches: np.ndarray, look: np.ndarray | float) -> np.ndarray:
    """How much each patch differs from a look beyond an even shift of colour: the 90th
    percentile of the per-pixel Lab distance once the patch's median difference is taken out.
    Light falling unevenly across the arena shifts a whole tile (the night look's outer empty
    tiles differ by up to 15 on average, as much as a small figure on a wide tile changes
    it), while a figure changes a part of it. Against a flat look (0) it is the patch's own
    texture."""
    diff = (patches - look).reshape(len(patches), -1, 3)
    rest = np.linalg.norm(diff - np.median(diff, axis=1, keepdims=True), axis=-1)
    return np.percentile(rest, 90, axis=1)


def decide(measure: np.ndarray, threshold: float, clear: float) -> tuple[list[list[bool]], float]:
    """Which cells hold something (measure above ``threshold``) and a confidence (0..1) from
    the closest call, on a log scale where ``clear`` is a sure call; NoBoardFound when a cell
    is within ``UNSURE`` of the threshold."""
    margin = np.abs(np.log(np.maximum(measure, 1e-3) / threshold)) / math.log(clear / threshold)
    if margin.min() < UNSURE:
        r, s = np.unravel_index(int(np.argmin(margin)), margin.shape)
        raise NoBoardFound(f"ring {r} slice {s} is neither clearly an empty tile nor clearly an enemy")
    return (measure > threshold).tolist(), min(1.0, float(margin.min()))


def occupancy(flat: np.ndarray) -> tuple[list[list[bool]], float]:
    """Which cells hold something, and a confidence (0..1) from how far the decisions are
    from the threshold; NoBoardFound when a ring shows too few empty tiles or a cell is
    too near the threshold. Margins of each cell (tile borders) are left out."""
    stage("rings-unwarp", flat)
    measures = []
    for r, patches in enumerate(cell_patches(flat)):
        diff = distances(patches, patches)
        alike = (diff < SAME_TILE).sum(axis=1)
        if alike.max() < MIN_EMPTY:
            raise NoBoardFound(f"ring {r}: too few empty tiles to tell them from the figures")
        # Of the patches with enough look-alikes, the plainest seeds the empty group: alike
        # figures (round ones look the same on every slice) may outnumber the empty tiles.
        texture = np.where(alike >= MIN_EMPTY, figure_measure(patches, 0.0), np.inf)
        group = np.flatnonzero(diff[int(np.argmin(texture))] < SAME_TILE)
        measures.append(figure_measure(patches, np.median(patches[group], axis=0)))
    return decide(np.stack(measures), FIGURE, CLEAR * FIGURE)


# ---------------------------------------------------------------------------- 4. the budget

_BUDGET = re.compile(r"moves?\s*[x×*+%]?\s*(\d{1,2})\b", re.IGNORECASE)
_PANEL_WORDS = re.compile(r"ring|moves?\b", re.IGNORECASE)
GLYPH = (12, 16)         # (w, h) a digit is compared at
DIGIT_SCORE = 0.5        # least correlation of a digit with its template
DIGIT_MARGIN = 0.12      # and over the next best digit
DIGIT_PX = 6             # least height in the capture of a digit read by template (smaller: the OCR)
SHARP_PX = 24            # digits this tall or taller are compared with sharp templates
PANEL_PX = 96            # the panel's height its digits are cut out at (small captures upsampled)
PANEL_SEARCH = 440       # width the panel is searched at
PANEL_TRIES = 3          # white boxes, largest first, whose digits are tried
FONTS = ("DejaVuSans-Bold.ttf", "arialbd.ttf", "Arial Bold.ttf", "NimbusSans-Bold.otf", "FreeSansBold.ttf")


@dataclass(frozen=True)
class Budget:
    """The move budget read from the "Ring Moves ×N" panel: N (None when not read), how
    (``digits``: templates, ``ocr``: tesseract) and, when not read, why (said to the user:
    the solver's default of 3 is no reading)."""

    moves: int | None
    how: str = ""
    why: str = ""


@dataclass(frozen=True)
class Glyph:
    """One digit cut out of the panel: its ink at the panel's working scale (``PANEL_PX``)
    and how many pixels tall it was in the capture (what the templates are blurred to)."""

    ink: np.ndarray
    height: int


def game_height(image: np.ndarray) -> int:
    """How tall the game's 16:9 picture is in a capture: its height, or less in a portrait
    capture (a phone's, the game letterboxed across its width), so that the panel's least
    size follows the game, not the bands above and below it."""
    h, w = image.shape[:2]
    return min(h, round(w * 9 / 16))


def white_panels(image: np.ndarray) -> list[tuple[int, int, int, int]]:
    """Where the real game's "Ring Moves ×N" panel can be: the white boxes in the top right
    (x, y, w, h), largest first (a white window beside the game's can be larger). The panel
    sits at the game's right edge, so a capture window's thin white frame is cut off it."""
    h, w = image.shape[:2]
    x0, y1 = int(w * 0.55), int(h * 0.6)
    span = game_height(image)
    k = min(1.0, PANEL_SEARCH / w)                  # searched small: a panel is large
    roi = image[:y1, x0:]
    roi = cv2.resize(roi, None, fx=k, fy=k, interpolation=cv2.INTER_NEAREST) if k < 1 else roi
    hsv = cv2.cvtColor(roi, cv2.COLOR_BGR2HSV)
    white = ((hsv[..., 2] > 215) & (hsv[..., 1] < 45)).astype(np.uint8)
    square = np.ones((3, 3), np.uint8)     # a window's thin white frame touching the panel is cut off (opened),
    white &= cv2.dilate(cv2.morphologyEx(white, cv2.MORPH_OPEN, square), square)   # the panel's own edge kept
    _, _, stats, _ = cv2.connectedComponentsWithStats(white)
    boxes = [(round(x / k) + x0, round(y / k), round(bw / k), round(bh / k)) for x, y, bw, bh, area in stats[1:]
             if bw >= 0.08 * w * k and bh >= 0.06 * span * k and 1.1 <= bw / bh <= 3.5 and area >= 0.5 * bw * bh]
    return sorted(boxes, key=lambda b: -b[2] * b[3])


def green_digits(image: np.ndarray, box: tuple[int, int, int, int]) -> list[Glyph]:
    """The glyphs right of the "×" on the panel's green sticker, left to right.

    The panel's lower part is scaled to ``PANEL_PX`` (small captures upsampled). JPEG keeps
    colour at half resolution, so green only says *where* the sticker is. The shapes come
    from lightness: the green ink is darker than its white outline. The "×" is the smaller
    first mark. Marks touching the crop's edge are grass around the panel."""
    x, y, w, h = box
    crop = image[y + h // 3:y + h - h // 12, x + w // 25:x + w - w // 25]
    k = PANEL_PX / h
    up = cv2.resize(crop, None, fx=k, fy=k, interpolation=cv2.INTER_CUBIC if k > 1 else cv2.INTER_AREA)
    wide = up.astype(np.int16)
    green = cv2.GaussianBlur(np.clip(wide[..., 1] - np.maximum(wide[..., 0], wide[..., 2]), 0, None)
                             .astype(np.float32), (0, 0), 3)
    if green.max() < 15:
        return []
    sticker = cv2.dilate((green > 0.3 * green.max()).astype(np.uint8), np.ones((7, 7), np.uint8)) > 0
    lum = cv2.GaussianBlur(cv2.cvtColor(up, cv2.COLOR_BGR2GRAY), (3, 3), 0)
    dark, light = np.percentile(lum[sticker], (3, 97))
    ink = (sticker & (lum < dark + 0.45 * (light - dark))).astype(np.uint8)
    count, labels, stats, _ = cv2.connectedComponentsWithStats(ink)
    ch, cw = ink.shape
    marks = [i for i in range(1, count) if stats[i, 3] >= 0.12 * PANEL_PX
             and stats[i, 0] > 0 and stats[i, 1] > 0 and stats[i, 0] + stats[i, 2] < cw and stats[i, 1] + stats[i, 3] < ch]
    if not marks:
        return []
    tallest = max(stats[i, 3] for i in marks)
    marks = sorted((i for i in marks if stats[i, 3] >= 0.8 * tallest), key=lambda i: stats[i, 0])
    return [Glyph(labels[sy:sy + sh, sx:sx + sw] == i, round(sh / k))
            for i, (sx, sy, sw, sh) in ((i, stats[i, :4]) for i in marks)]


def _glyph(binary: np.ndarray) -> np.ndarray:
    """A binary glyph as a zero-mean unit vector at ``GLYPH`` size."""
    small = cv2.resize(binary.astype(np.float32), GLYPH, interpolation=cv2.INTER_AREA).ravel()
    small -= small.mean()
    return small / (np.linalg.norm(small) + 1e-6)


@lru_cache(maxsize=8)
def bold_font(size: int) -> Any:
    """The first bold sans font of ``FONTS`` found on this machine at ``size`` pixels (PIL's
    own when none is): what the digit templates are drawn in, and so what the rendered
    panels write their digits in."""
    from PIL import ImageFont

    for name in FONTS:
        try:
            return ImageFont.truetype(name, size)
        except OSError:
            continue
    return ImageFont.load_default(size=size)


@lru_cache(maxsize=1)
def _digit_ink() -> tuple[np.ndarray, ...]:
    """The digits 0–9 drawn large in ``bold_font``, each cut to its ink (0–255)."""
    from PIL import Image, ImageDraw

    font = bold_font(64)
    out = []
    for digit in "0123456789":
        canvas = Image.new("L", (96, 96), 0)
        ImageDraw.Draw(canvas).text((16, 8), digit, fill=255, font=font)
        ink = np.asarray(canvas)
        ys, xs = np.nonzero(ink > 127)
        out.append(ink[ys.min():ys.max() + 1, xs.min():xs.max() + 1])
    return tuple(out)


@lru_cache(maxsize=SHARP_PX + 1)
def digit_templates(height: int = SHARP_PX) -> np.ndarray:
    """The digits as a capture ``height`` pixels tall shows them: each drawn digit shrunk to
    that height and grown back (the blur a small capture gives its glyphs), then made a
    ``_glyph``: (10, GLYPH cells). One set per height, from ``SHARP_PX`` up the same."""
    height = min(height, SHARP_PX)
    out = []
    for ink in _digit_ink():
        th, tw = ink.shape
        small = cv2.resize(ink, (max(2, round(tw * height / th)), height), interpolation=cv2.INTER_AREA)
        out.append(_glyph(cv2.resize(small, (tw, th), interpolation=cv2.INTER_CUBIC) > 127))
    return np.stack(out)


def digit_scores(glyph: Glyph) -> np.ndarray:
    """Correlation of one glyph with each digit's template at the glyph's size."""
    return digit_templates(max(DIGIT_PX, glyph.height)) @ _glyph(glyph.ink)


def read_digits(glyphs: list[Glyph]) -> int | None:
    """The number the glyphs spell, when every one matches its digit's template clearly."""
    value = 0
    for glyph in glyphs:
        if glyph.height < DIGIT_PX:
            return None
        scores = digit_scores(glyph)
        best, second = np.sort(scores)[::-1][:2]
        if best < DIGIT_SCORE or best - second < DIGIT_MARGIN:
            return None
        value = 10 * value + int(np.argmax(scores))
    return value if glyphs else None


def agrees(moves: int, glyphs: list[Glyph]) -> bool:
    """Whether an OCR reading fits the glyphs the templates saw but could not settle: as many
    digits, each among its glyph's two likeliest (no glyphs seen: nothing to hold against)."""
    if not glyphs:
        return True
    digits = str(moves)
    return len(digits) == len(glyphs) and all(
        int(d) in np.argsort(digit_scores(g))[::-1][:2] for d, g in zip(digits, glyphs))


def panels(image: np.ndarray) -> list[tuple[int, int, int, int]]:
    """Boxes (x, y, w, h) of wide rectangular panels in the top right third, widest first:
    the places a "Ring Moves ×N" label can be (for the OCR fallback)."""
    h, w = image.shape[:2]
    x0, y1, span = w // 2, h // 3, game_height(image)
    grey = cv2.cvtColor(image[:y1, x0:], cv2.COLOR_BGR2GRAY)
    contours, _ = cv2.findContours(cv2.Canny(grey, 60, 160), cv2.RETR_LIST, cv2.CHAIN_APPROX_SIMPLE)
    boxes = set()
    for c in contours:
        x, y, bw, bh = cv2.boundingRect(c)
        if (0.03 * span <= bh <= 0.2 * span and 2.5 * bh <= bw and cv2.contourArea(c) > 0.8 * bw * bh):
            boxes.add((x + x0, y, bw, bh))
    return sorted(boxes, key=lambda b: -b[2] / b[3])


_OCR_MISSING: list[str] = []     # said once per process
NO_TESSERACT = ("tesseract is not installed, so a ring move budget (\"Ring Moves ×N\") whose digits are "
                "not clear cannot be read (Debian/Ubuntu: sudo apt-get install tesseract-ocr)")


def lacks() -> str | None:
    """What this machine lacks to read every ring board (tesseract, for a move budget whose
    digits are not clear), said before a run such as ``fixtures check``; None: nothing."""
    import shutil

    return NO_TESSERACT if shutil.which("tesseract") is None else None


def ocr_text(image: np.ndarray, box: tuple[int, int, int, int]) -> str | None:
    """The text tesseract reads on a panel (one call, one block), or None when tesseract is
    not installed (said once, as the reason)."""
    import pytesseract

    x, y, bw, bh = box
    inset = max(2, bh // 8)
    crop = cv2.cvtColor(image[y + inset:y + bh - inset, x + inset:x + bw - inset], cv2.COLOR_BGR2GRAY)
    crop = cv2.resize(crop, None, fx=48 / crop.shape[0], fy=48 / crop.shape[0], interpolation=cv2.INTER_CUBIC)
    _, ink = cv2.threshold(crop, 0, 255, cv2.THRESH_BINARY | cv2.THRESH_OTSU)
    if ink.mean() < 128:            # light text on a dark panel: tesseract wants dark on light
        ink = 255 - ink
    try:
        text = pytesseract.image_to_string(cv2.copyMakeBorder(ink, 12, 12, 12, 12, cv2.BORDER_CONSTANT, value=255),
                                           config="--psm 6")
    except (pytesseract.TesseractNotFoundError, OSError):
        _OCR_MISSING.append("tesseract is not installed")
        return None
    return text.replace("\n", " ")


def ocr_budget(image: np.ndarray, box: tuple[int, int, int, int]) -> int | None:
    """N by tesseract on a panel; None when it reads no "moves N"."""
    text = ocr_text(image, box)
    found = _BUDGET.search(text) if text else None
    return int(found.group(1)) if found else None


def read_budget(image: np.ndarray) -> Budget:
    """N from the "Ring Moves ×N" panel: the real game's white panel by digit templates
    (``digit_templates``; no process started; the largest white boxes in turn), else
    tesseract once on the likeliest panel (the first white box showing green glyphs, a
    reading they contradict is refused), else not read, with the reason: the panel not
    visible, or its number not clear."""
    boxes = white_panels(image)[:PANEL_TRIES]
    stage("rings-panels", lambda: marked(image, boxes=boxes + panels(image)[:1]))
    box, glyphs = (boxes[0] if boxes else None), []
    for tried in boxes:
        seen = green_digits(image, tried)
        moves = read_digits(seen)
        if moves is not None:
            return Budget(moves, "digits")
        if seen and not glyphs:
            box, glyphs = tried, seen
    candidates = ([box] if box is not None else []) + panels(image)[:1]
    not_visible = Budget(None, why="the \"Ring Moves ×N\" panel is not visible")
    if not candidates:
        return not_visible
    text = None if _OCR_MISSING else ocr_text(image, candidates[0])
    if text is None:
        return Budget(None, why="the \"Ring Moves ×N\" panel's digits are not clear, and tesseract is not installed")
    found = _BUDGET.search(text)
    if found and agrees(int(found.group(1)), glyphs):
        return Budget(int(found.group(1)), "ocr")
    if box is None and not _PANEL_WORDS.search(text):
        return not_visible
    return Budget(None, why="the \"Ring Moves ×N\" panel's number is not clear enough to read")


# ---------------------------------------------------------------------------- parse

KEYS = {"rings": RINGS, "lines": SLICES // 2}
PRESSES = ("clockwise", "anticlockwise", "inward", "confirm")


def check_keymap(keymap: Any) -> dict[str, Any]:
    """The key map (see ``overlay.rings``) when every field is in form; ValueError naming
    the first that is not."""
    if not isinstance(keymap, dict):
        raise ValueError("a key map is a JSON object")
    for key, count in KEYS.items():
        picks = keymap.get(key)
        if not (isinstance(picks, list) and len(picks) == count
                and all(isinstance(p, list) and p and all(isinstance(k, str) for k in p) for p in picks)):
            raise ValueError(f"field 'keymap.{key}' must be {count} lists of key names")
    for key in PRESSES + ("outward",):
        if not isinstance(keymap.get(key, ""), str) or (key in PRESSES and key not in keymap):
            raise ValueError(f"field 'keymap.{key}' must be a key name")
    return keymap


def profile_keymap(profile: Profile) -> dict[str, Any] | None:
    """The key map a rings profile carries (field ``keymap``), checked field by field; None
    when the profile has none."""
    if profile.game != "rings":
        raise ProfileError(f"profile {profile.name}: field 'game' is {profile.game!r}, not 'rings'")
    keymap = profile.get("keymap", dict, None)
    if keymap is None:
        return None
    try:
        return check_keymap(keymap)
    except ValueError as exc:
        raise ProfileError(f"profile {profile.name}: {exc}") from None


# ---------------------------------------------------------------------------- a calibrated look

LOOK_FIELDS = ("ring_radii", "centre_share", "outer_share", "empty_distance", "enemy_distance")
MIN_LOOKALIKE = 12       # cells that must look like the profile's empty tiles for an arena to count
TILE_NOISE = 10.0        # Lab distance per pixel a tile may differ by (light, JPEG) and still be the tile
EMPTY_FLOOR = 0.5        # least empty distance the threshold is set from (a clean frame gives ~0)


@dataclass(frozen=True)
class Look:
    """A rings look taught by calibration (``calibration/rings.py``): the arena's inner/outer
    ratio, where it sat in the calibration frame (centre as shares of width and height, outer
    radius as a share of height), each ring's empty tiles as unwarped patches (``cell_patches``),
    and two ``excess`` distances from the ring's empty tiles: the most an empty tile has (to
    its nearest other one) and the least an enemy has (to its nearest empty tile)."""

    ratio: float
    centre: tuple[float, float]
    outer: float
    empty: tuple[np.ndarray, ...]
    empty_distance: float
    enemy_distance: float

    @property
    def threshold(self) -> float:
        """The distance from the empty tiles above which a cell holds an enemy."""
        return math.sqrt(max(self.empty_distance, EMPTY_FLOOR) * self.enemy_distance)


def _number(profile: Profile, key: str, low: float, high: float) -> float:
    value = float(profile.get(key, (int, float)))
    if not low <= value <= high:
        raise ProfileError(f"profile {profile.name}: field {key!r} must be {low} to {high}, not {value}")
    return value


def _shares(profile: Profile, key: str, count: int, low: float, high: float) -> list[float]:
    values = profile.get(key, list)
    if len(values) != count or not all(isinstance(v, (int, float)) and not isinstance(v, bool) and low <= v <= high
                                       for v in values):
        raise ProfileError(f"profile {profile.name}: field {key!r} must be {count} numbers {low} to {high}, not {values!r}")
    return [float(v) for v in values]


def look_of(profile: Profile) -> Look | None:
    """The look a rings profile teaches, or None when it teaches none (a key map only);
    ProfileError naming the field when one is missing or malformed."""
    if not any(key in profile.data for key in LOOK_FIELDS):
        return None
    radii = _shares(profile, "ring_radii", RINGS + 1, 0.05, 1.0)
    gaps = np.diff(radii)
    if radii[0] != 1.0 or gaps.max() >= 0 or np.ptp(gaps) > 0.02:
        raise ProfileError(f"profile {profile.name}: field 'ring_radii' must fall from 1.0 in equal steps "
                           f"(the rings are equally wide), not {radii!r}")
    centre = _shares(profile, "centre_share", 2, 0.0, 1.0)
    outer = _number(profile, "outer_share", 0.02, 5.0)
    empty_distance = _number(profile, "empty_distance", 0.0, 200.0)
    enemy_distance = _number(profile, "enemy_distance", 0.1, 200.0)
    if enemy_distance <= max(empty_distance, EMPTY_FLOOR):
        raise ProfileError(f"profile {profile.name}: field 'enemy_distance' must be above 'empty_distance'")
    empty = []
    for r in range(RINGS):
        strip = profile.template(f"empty_ring{r}")
        if strip.shape[0] != RING_PX or strip.shape[1] % SLICE_PX or not strip.shape[1]:
            raise ProfileError(f"profile {profile.name}: template 'templates.empty_ring{r}' must be {RING_PX} px high "
                               f"and a multiple of {SLICE_PX} px wide (unwarped tiles side by side)")
        empty.append(cell_patches(strip)[0])
    return Look(radii[-1], (centre[0], centre[1]), outer, tuple(empty), empty_distance, enemy_distance)


def excess(patches: np.ndarray, tiles: np.ndarray) -> np.ndarray:
    """How unlike each patch is each tile: the mean per-pixel Lab distance beyond
    ``TILE_NOISE`` (so light falling across the arena and JPEG count for nothing, a figure
    for much): (len(patches), len(tiles))."""
    return np.maximum(np.linalg.norm(patches[:, None] - tiles[None, :], axis=-1) - TILE_NOISE, 0.0).mean(axis=(2, 3))


def look_distances(flat: np.ndarray, look: Look) -> np.ndarray:
    """Each cell's ``excess`` over the nearest of its ring's empty tiles in the look: (rings, slices)."""
    return np.stack([excess(patches, look.empty[r]).min(axis=1) for r, patches in enumerate(cell_patches(flat))])


def classify(dist: np.ndarray, look: Look) -> tuple[list[list[bool]], float]:
    """Which cells hold something (distance above the look's threshold), and a confidence
    (0..1) from the closest call; NoBoardFound when a cell is too near the threshold to tell."""
    return decide(dist, look.threshold, look.enemy_distance)


def tile_blob(image: np.ndarray, look: Look, k: float) -> tuple[float, float, float] | None:
    """The circle (x, y, r) around the largest patch of the look's empty-tile colours, in the
    image reduced by ``k``: where a game window on a busy desktop has its arena."""
    small = cv2.resize(image, None, fx=k, fy=k, interpolation=cv2.INTER_AREA) if k < 1 else image
    lab = cv2.cvtColor(cv2.GaussianBlur(small, (3, 3), 0), cv2.COLOR_BGR2LAB).astype(np.float32)
    colours: list[np.ndarray] = []
    for colour in np.concatenate([e.mean(axis=(1, 2)) for e in look.empty]):
        if all(np.linalg.norm(colour - c) > TILE_NOISE / 2 for c in colours):
            colours.append(colour)
    mask = np.zeros(lab.shape[:2], np.uint8)
    for colour in colours:
        mask |= (np.square(lab - colour).sum(axis=-1) < TILE_NOISE ** 2).astype(np.uint8)
    mask = cv2.morphologyEx(mask, cv2.MORPH_CLOSE, np.ones((5, 5), np.uint8))
    contours, _ = cv2.findContours(mask, cv2.RETR_EXTERNAL, cv2.CHAIN_APPROX_SIMPLE)
    if not contours:
        return None
    (x, y), r = cv2.minEnclosingCircle(max(contours, key=cv2.contourArea))
    return float(x), float(y), float(r)


def find_looked(image: np.ndarray, look: Look) -> tuple[Arena, float, list[list[bool]], float]:
    """The arena in a calibrated look and its cells: first where the calibration frame had it
    (scaled to this image: a game window of another size), then around the patch of the
    look's tile colours, then around the circles found. An arena must show the look's ring
    ratio, ring and slice borders, and enough of its tiles; in the first that does, every
    cell must be clearly empty or taken."""
    grey_full, grey, k = greys(image)
    h, w = image.shape[:2]
    where = (look.centre[0] * w * k, look.centre[1] * h * k, look.outer * h * k)

    def tries() -> Iterator[tuple[tuple[float, float, float], tuple[float, float]]]:
        yield where, (0.8, 1.25)
        blob = tile_blob(image, look, k)
        if blob:
            yield blob, (0.85, 1.2)
        yield from ((c, (0.9, 4.0)) for c in _candidates(grey))

    for circle, span in tries():
        found = arena_at(grey_full, grey, k, circle, look.ratio, span)
        if found is None:
            continue
        arena, score = found
        dist = look_distances(unwarp(image, arena), look)
        if int((dist < look.threshold).sum()) >= MIN_LOOKALIKE:
            return (arena, min(1.0, score / (2 * EDGE_CONTRAST)), *classify(dist, look))
    raise NoBoardFound("no ring arena of the profile's look found")


def _read_default(image: np.ndarray) -> tuple[Arena, float, list[list[bool]], float]:
    """The arena as the game's camera shows it (``vision.rings_camera``: the real game's
    tilted or overhead view), else the flat arena seen from straight above (the practice
    arena); the camera's reason when neither is found. An arena the camera found but whose
    cells it refused is refused: no other reader guesses them."""
    from vision.rings_camera import CellsRefused, read_camera

    try:
        return read_camera(image)
    except CellsRefused:
        raise
    except NoBoardFound as camera:
        try:
            arena, arena_conf = find_arena(image)
        except NoBoardFound:
            raise camera from None
        return (arena, arena_conf, *occupancy(unwarp(image, arena)))


def check_solvable(board: Board) -> None:
    """The game only sets battles that can be won within their budget: a board read from
    the game's camera that cannot (within the panel's N, else the default) was misread (a
    figure hidden, or seen a ring off), and is refused rather than passed off. (An arena
    with no enemy at all is refused earlier, by the camera reader's cell stage.)"""
    from solvers.rings import solve

    if not solve(board).solved:
        budget = board.budget if board.budget is not None else DEFAULT_BUDGET
        raise NoBoardFound(f"the arena read has no answer within {budget} moves, as every battle does: "
                           "a figure is likely hidden or misplaced")


def parse(image: np.ndarray, profile: Profile | None = None) -> Parse[RingsGeometry]:
    """Read the ring arena: board (with ``moves:`` when the panel is readable), every cell's
    centre and the arena geometry. A calibrated profile's look (``look_of``) finds the arena
    and tells tiles from enemies, a calibrated camera look (``camera_look_of``: a tilted
    arena's colours and proportions) is what the camera reader looks for; a profile's key
    map is checked here (ProfileError) but goes from the profile to the key planner, not
    through the reading."""
    from vision.rings_camera import camera_look_of, read_camera

    if profile is not None:
        profile_keymap(profile)
    look = look_of(profile) if profile is not None else None
    camera = camera_look_of(profile) if profile is not None else None
    if camera is not None:
        arena, arena_conf, taken, cell_conf = read_camera(image, camera)
    elif look is None:
        arena, arena_conf, taken, cell_conf = _read_default(image)
    else:
        arena, arena_conf, taken, cell_conf = find_looked(image, look)
    budget = read_budget(image)
    board = Board(tuple("".join("x" if t else "." for t in ring) for ring in taken), budget.moves)
    stage("rings-cells", lambda: marked(image, [(x, y, ch) for (x, y), ch in zip(arena.cells(), "".join(board.cells))]))
    if not arena.flat:
        check_solvable(board)
    warnings: tuple[str, ...] = ()
    if budget.moves is None:
        warnings = (f"move budget not read: {budget.why}; give it with --moves N "
                    f"(the solver assumes {DEFAULT_BUDGET})",)
    return Parse("rings", board, min(arena_conf, 0.5 + cell_conf / 2), arena.cells(),
                 RingsGeometry(arena, budget.moves), warnings)
