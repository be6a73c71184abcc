"""Ring battles: screenshot → arena geometry → 4×12 occupancy → board, plus the move budget.

Stages, each a function the tests and ``--annotate`` can look at:

1. ``find_arena``: circle candidates (Hough on a reduced grey image); around each centre the
   picture is unwarped to polar form and the ring edges are fitted: the four tile rings
   are equally wide, so the 5 edge radii are ``inner + k·(outer − inner)/4``. The median
   over angles of the radial edge strength must peak there, and the median over radii of
   the angular edge strength must peak at the 12 slice borders (slice 0 centred at
   9 o'clock). Targets, clocks and wheels of other sizes fail one of the two.
2. ``unwarp``: the arena as a 4×12 grid of aligned patches (rows: radius, columns: angle).
3. ``occupancy``: the tiles of one ring all look alike once unwarped, while a figure
   standing on a tile changes it (and, drawn upright on screen, looks different on every
   slice). So per ring the empty look is learned from the largest group of near-identical
   patches, and a cell is occupied when it differs from that look.
4. ``read_budget``: wide panels in the top right are read by tesseract (``--psm 7``) until
   one says "Ring Moves ×N".
"""
from __future__ import annotations

import math
import re
from dataclasses import dataclass
from typing import Any

import cv2
import numpy as np

from solvers.rings import RINGS, SLICES, Board
from vision.common import NoBoardFound, Parse

REDUCED = 480            # longest side of the image the circle search runs on
RING_PX, SLICE_PX = 24, 32   # size of one unwarped cell
EDGE_CONTRAST = 1.6      # ring/slice border edge strength over the average, at least
SAME_TILE = 14.0         # mean Lab distance under which two unwarped tiles look alike
OCCUPIED = 20.0          # mean Lab distance from the ring's empty look above which a cell is taken
MIN_EMPTY = 3            # empty tiles a ring needs to show its empty look
CANDIDATES = 6           # circles tried, strongest first


@dataclass(frozen=True)
class Arena:
    """Where the arena is: centre (x, y), the outer radius of ring 0 and the radius of the
    central disc (the inner edge of ring 3), in image pixels. Angles are degrees measured
    clockwise from 9 o'clock, the centre of slice 0."""

    cx: float
    cy: float
    outer: float
    inner: float

    @property
    def width(self) -> float:
        """The radial width of one ring."""
        return (self.outer - self.inner) / RINGS

    def mid(self, ring: int) -> float:
        return self.outer - (ring + 0.5) * self.width

    def point(self, radius: float, angle: float) -> tuple[float, float]:
        a = math.radians(angle)
        return self.cx - radius * math.cos(a), self.cy - radius * math.sin(a)

    def locate(self, x: float, y: float) -> tuple[float, float]:
        """(radius, angle) of an image point: the inverse of ``point``."""
        dx, dy = self.cx - x, self.cy - y
        return math.hypot(dx, dy), math.degrees(math.atan2(dy, dx)) % 360.0

    def cell_at(self, x: float, y: float) -> tuple[int, int] | None:
        """(ring, slice) of the tile under an image point, None off the rings."""
        radius, angle = self.locate(x, y)
        if not self.inner <= radius <= self.outer:
            return None
        return min(RINGS - 1, int((self.outer - radius) / self.width)), round(angle / 30.0) % SLICES

    def cell(self, ring: int, slice_: int) -> tuple[float, float]:
        """Image centre of a cell."""
        return self.point(self.mid(ring), 30.0 * slice_)

    def cells(self) -> list[tuple[float, float]]:
        """Every cell centre, ring-major (the board's row-major order)."""
        return [self.cell(r, s) for r in range(RINGS) for s in range(SLICES)]

    def to_json(self) -> dict[str, Any]:
        return {"centre": [round(self.cx, 2), round(self.cy, 2)], "outer": round(self.outer, 2),
                "inner": round(self.inner, 2)}

    @classmethod
    def from_json(cls, geometry: dict[str, Any]) -> "Arena":
        (cx, cy), dx, dy = geometry["centre"], *geometry.get("offset", (0.0, 0.0))
        return cls(cx + dx, cy + dy, geometry["outer"], geometry["inner"])


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
        scores = np.stack([(np.roll(edges, -k, axis=0) * ref[:, None]).sum(axis=0) for k in shifts])
        delta = shifts[np.argmax(scores, axis=0)] * step
        (dx, dy), *_ = np.linalg.lstsq(design, -delta, rcond=None)
        cx, cy = cx + float(dx), cy + float(dy)
        if math.hypot(dx, dy) < step / 2:
            break
    return cx, cy


def _fit_rings(radial: np.ndarray, step: float, guess: float) -> tuple[float, float, float]:
    """(outer, inner/outer, contrast): the 5 equally spaced ring edges that best match the radial
    edge profile, and how far the weakest of the five stands above the profile's average.
    The circle found may be any of the arena's edges, so the outer edge is first searched
    from it out to 4 times its radius, then again finely around the best."""
    outer, ratio, _ = _fit_grid(radial, step, np.arange(guess * 0.9, guess * 4, step), np.arange(0.12, 0.56, 0.01),
                                smooth=0.012 * guess)
    return _fit_grid(radial, step, np.arange(outer * 0.97, outer * 1.03, step / 2),
                     np.arange(ratio - 0.01, ratio + 0.01, 0.001), smooth=0.012 * outer, fine=True)


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


def find_arena(image: np.ndarray) -> tuple[Arena, float]:
    """The arena and a confidence in 0..1, or NoBoardFound."""
    grey_full = cv2.cvtColor(image, cv2.COLOR_BGR2GRAY)
    k = min(1.0, REDUCED / max(image.shape[:2]))
    grey = cv2.resize(grey_full, None, fx=k, fy=k, interpolation=cv2.INTER_AREA) if k < 1 else grey_full
    best: tuple[float, Arena] | None = None
    for x, y, r in _candidates(grey):
        reach = min(r * 1.5, float(max(grey.shape)))
        x, y = refine_centre(grey, x, y, reach)
        cx, cy = refine_centre(grey_full, x / k, y / k, reach / k)
        edges, step = _radial_edges(grey_full, cx, cy, min(4 * r, float(max(grey.shape))) / k,
                                    np.arange(0.0, 360.0, 1.0), samples=800)
        outer, ratio, ring_contrast = _fit_rings(np.median(edges, axis=1), step, r / k)
        inner = outer * ratio
        if ring_contrast < EDGE_CONTRAST:
            continue
        arena = Arena(cx, cy, outer, inner)
        slice_contrast = _slice_contrast(grey_full, arena)
        if slice_contrast < EDGE_CONTRAST:
            continue
        score = min(ring_contrast, slice_contrast)
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


def occupancy(flat: np.ndarray) -> tuple[list[list[bool]], float]:
    """Which cells hold something, and a confidence (0..1) from how far the decisions are
    from the threshold. Margins of each cell (tile borders) are left out."""
    lab = cv2.cvtColor(cv2.GaussianBlur(flat, (5, 5), 0), cv2.COLOR_BGR2LAB).astype(np.float32)
    mr, ms = RING_PX // 5, SLICE_PX // 5
    taken, margins = [], []
    for r in range(RINGS):
        patches = np.stack([lab[r * RING_PX + mr:(r + 1) * RING_PX - mr, s * SLICE_PX + ms:(s + 1) * SLICE_PX - ms]
                            for s in range(SLICES)])
        diff = np.linalg.norm(patches[:, None] - patches[None, :], axis=-1).mean(axis=(2, 3))
        alike = (diff < SAME_TILE).sum(axis=1)
        seed = int(np.lexsort((diff.mean(axis=1), -alike))[0])
        group = np.flatnonzero(diff[seed] < SAME_TILE)
        if len(group) < MIN_EMPTY:
            raise NoBoardFound(f"ring {r}: too few empty tiles to tell them from the figures")
        empty = np.median(patches[group], axis=0)
        dist = np.linalg.norm(patches - empty, axis=-1).mean(axis=(1, 2))
        taken.append([bool(d > OCCUPIED) for d in dist])
        margins.append(float(np.min(np.abs(dist - OCCUPIED))) / OCCUPIED)
    return taken, min(1.0, min(margins) * 2)


# ---------------------------------------------------------------------------- 4. the budget

_BUDGET = re.compile(r"moves?\s*[x×*+%]?\s*(\d{1,2})\b", re.IGNORECASE)


def panels(image: np.ndarray) -> list[tuple[int, int, int, int]]:
    """Boxes (x, y, w, h) of wide rectangular panels in the top right third, widest first:
    the places a "Ring Moves ×N" label can be."""
    h, w = image.shape[:2]
    x0, y1 = w // 2, h // 3
    grey = cv2.cvtColor(image[:y1, x0:], cv2.COLOR_BGR2GRAY)
    contours, _ = cv2.findContours(cv2.Canny(grey, 60, 160), cv2.RETR_LIST, cv2.CHAIN_APPROX_SIMPLE)
    boxes = set()
    for c in contours:
        x, y, bw, bh = cv2.boundingRect(c)
        if (0.03 * h <= bh <= 0.2 * h and 2.5 * bh <= bw and cv2.contourArea(c) > 0.8 * bw * bh):
            boxes.add((x + x0, y, bw, bh))
    return sorted(boxes, key=lambda b: -b[2] / b[3])


def read_budget(image: np.ndarray) -> int | None:
    """N from the "Ring Moves ×N" panel (tesseract, one text line per panel), or None when
    no panel reads so."""
    import pytesseract

    for x, y, bw, bh in panels(image)[:3]:
        inset = max(2, bh // 8)
        crop = cv2.cvtColor(image[y + inset:y + bh - inset, x + inset:x + bw - inset], cv2.COLOR_BGR2GRAY)
        crop = cv2.resize(crop, None, fx=48 / crop.shape[0], fy=48 / crop.shape[0], interpolation=cv2.INTER_CUBIC)
        _, ink = cv2.threshold(crop, 0, 255, cv2.THRESH_BINARY | cv2.THRESH_OTSU)
        if ink.mean() < 128:            # light text on a dark panel: tesseract wants dark on light
            ink = 255 - ink
        try:
            text = pytesseract.image_to_string(cv2.copyMakeBorder(ink, 12, 12, 12, 12, cv2.BORDER_CONSTANT, value=255),
                                               config="--psm 7")
        except pytesseract.TesseractNotFoundError:
            return None
        found = _BUDGET.search(text)
        if found:
            return int(found.group(1))
    return None


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


def profile_keymap(profile: Any) -> dict[str, Any] | None:
    """The key map a rings profile carries (field ``keymap``), checked field by field; None
    when the profile has none."""
    from calibration.profile import ProfileError

    if profile.game != "rings":
        raise ProfileError(f"profile {profile.name}: field 'game' is {profile.game!r}, not 'rings'")
    keymap = profile.get("keymap", dict, None)
    if keymap is None:
        return None
    try:
        return check_keymap(keymap)
    except ValueError as exc:
        raise ProfileError(f"profile {profile.name}: {exc}") from None


def parse(image: np.ndarray, profile: Any = None) -> Parse:
    """Read the ring arena: board (with ``moves:`` when the panel is readable), every cell's
    centre and the arena geometry; a profile's key map rides along in the geometry for the
    key planner."""
    keymap = profile_keymap(profile) if profile is not None else None
    arena, arena_conf = find_arena(image)
    taken, cell_conf = occupancy(unwarp(image, arena))
    budget = read_budget(image)
    board = Board(tuple("".join("x" if t else "." for t in ring) for ring in taken), budget)
    geometry = {**arena.to_json(), "budget": budget, **({"keymap": keymap} if keymap else {})}
    return Parse("rings", board, min(arena_conf, 0.5 + cell_conf / 2), arena.cells(), geometry)
