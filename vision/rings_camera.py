"""Ring battles seen by the game's camera: the arena as an ellipse, figures standing on it.

The real game (Paper Mario: The Origami King) shows the arena through a slanted camera:
the round arena is an ellipse with its far side at the top (the default "tilted" camera;
"Change View" gives a more overhead one). Its central disc is orange, the innermost ring
blue and narrower than the three outer cream-and-yellow rings; enemies are 3D figures whose
bodies hide the tiles behind them. Stages:

1. ``seeds``: the blue inner ring, a colour band with a hole (closed over gaps figures
   cut; a band cut right through is closed by its convex hull), and the outline of the
   tiles around it: the disc edge, the blue edge and the rim are three circles of the
   plane, which fix a first camera (``Arena``: centre, squash, tilt, roll) by a robust
   least-squares fit. A skew (side-to-side perspective: a photo of the screen taken from
   one side) is fitted too, but only when no camera without one holds.
2. ``ring_edges``, ``refit``, ``slice_phase``: the picture is unwarped through that guess
   to (radius, angle); the radial edge profile must show the disc edge, the blue ring's
   edge and three more ring edges equally spaced; the camera and the 5 edge radii are
   refitted to the edges found along every angle, and the 12 slice borders fix the slice
   phase (they must all show).
3. ``read_cells``: a figure stands where its feet are: the bottom of an upright run of
   non-tile pixels in an image column (its body above covers the tiles behind it, which
   therefore tell nothing; nor does the lower edge of a wider part, a head or a wing, with
   the figure going on lower beside it); the red badges floating over some heads are
   dropped. The bottoms are mapped back onto the plane and counted per cell, in units of
   the width a figure has at that depth; a blob's few columns beside its clear stand are
   its spill. The tile colours are a seeded k-means per ring (the same reading every run);
   beside a ring's main colour, only one that recurs in another ring (figures crowding a ring
   are no tile colour).
   Refused: a cell near the threshold, one figure's feet on two tiles, a figure rising
   higher than one (another joined behind it, its feet hidden), a dark body's bottom or a
   weak stand near a ring border (its feet may hide lower), no enemy at all (a
   boss arena), an enemy count that is no multiple of 4 (one hidden behind another). The
   caller (``vision.rings.parse``) also refuses a board with no answer within its budget.

Everything runs at ``WORK`` pixels at most, a dimmed picture lifted to white first
(``lifted``); ``read_camera`` gives the arena back in the picture's own pixels.
"""
from __future__ import annotations

import math
from dataclasses import dataclass, replace
from typing import Any

import cv2
import numpy as np

from solvers.rings import RINGS, SLICES
from vision.common import NoBoardFound, marked, stage
from vision.morphology import round_morph
from vision.profile import Profile, ProfileError
from vision.rings import Arena, decide

WORK = 480              # longest side the camera reader works at
FIT_POINTS = 48         # points per edge in a camera fit
BLUE = ((86, 60, 130), (114, 255, 255))   # HSV range of the inner ring's blue
TILE = ((12, 15, 140), (38, 215, 255))    # HSV range of the cream and yellow tiles, lit or shaded
MIN_SEED = 0.004        # least share of the picture the blue ring covers
RING_EDGE = 2.0         # each ring edge's strength over the profile's floor, at least
SLICE_EDGE = 1.6        # each slice border's strength over the in-between, at least
FOREIGN = 28.0          # Lab distance from every tile colour above which a pixel is no tile
LIGHT = 0.2             # weight of lightness in that distance: shade darkens a tile, keeps its hue
FIGURE = 0.3            # a figure's width (and least height) in ring widths
GAP = 1.2               # figure sizes of tile below a run's bottom for it to stand (badges float above heads)
SHARED = 20.0           # Lab distance within which a ring's second colour must recur in another ring to be a tile's
SEED = 1                # OpenCV's random state before each ring's k-means: a reading never depends on what ran before
FOOT = 0.18             # figure widths of foot columns above which a cell holds an enemy
REACH = 0.4             # figure widths either side in which a lower part of its blob shows a run's end is no foot
STEP = 1.0              # figure heights that lower part must reach below the run's bottom
SPILL = 1.5             # a blob's feet on a cell next to its main stand that may be a spill of it, in FOOTs
APART = 0.5             # ring widths between the feet of one blob on two cells for two figures to stand there
RIM_HUE = 17            # highest hue of a badge's lower rim blurred into a yellow tile
RIM_MAGENTA = 140       # lowest hue of its rim blurred into the blue ring (red over blue) or paled (pink)
RIM_SAT = 30            # least saturation of a badge's rim, pale or blurred
MAX_SKEW = 0.3          # side-to-side perspective a photo of the screen taken from one side may have
MAX_ROLL = 0.35         # radians the picture may be turned (a photo of the screen held askew)
ROUND = 0.02            # a camera whose ellipse is round within this share, with no tilt, looks straight down
OUTLINE = 0.5           # share of a blob's main stand under which its feet on a farther tile close by are its outline
OUTLINE_REACH = 0.7     # ring widths from that stand within which they may be (two figures a cell apart stand ~1 apart)
BADGE = 2.5             # figure sizes a badge may be tall, at most
SURE = 3.0              # that many times off FOOT (either way) is a sure call
DARK = 70               # highest Lab lightness (0-255) of a dark body (a bob-omb's), whose feet may hide in a tile
DROP = 0.5              # figure heights below a dark body's bottom its hidden feet may stand
TALL = 3.0              # figure sizes a blob may rise over its highest stand (one figure is about 2)
WHITE = 235             # brightest channel value under which a picture is dimmed: lifted to white
WHITE_SHARE = 1.0       # percent of pixels at the picture's brightest
DIM = 0.55              # a ring pixel darker than this share of the darkest tile colour's lightness is no tile


HSVRange = tuple[tuple[int, int, int], tuple[int, int, int]]


@dataclass(frozen=True)
class CameraLook:
    """The colours and proportions the camera reader looks for: the inner ring's HSV range
    and the outer tiles' (one per tile colour; a hue range whose low end is above its high
    end wraps round red), the 5 ring edge radii as shares of the outer one when they must match (None: any
    three equal rings around the inner one), the camera tilt a fit starts from, and the
    weight of lightness when telling figures from tiles (grey tiles need more). The
    default is the real game's look; a calibrated profile teaches another
    (``calibration/rings.py``, ``camera_look_of``)."""

    inner: HSVRange = BLUE
    tiles: tuple[HSVRange, ...] = (TILE,)
    edges: tuple[float, ...] | None = None
    tilt: float = 0.0
    light: float = LIGHT


GAME = CameraLook()
EDGE_SHARE = 0.04       # how far a ring edge may sit off the profile's share of the outer radius


def in_range(hsv: np.ndarray, ranges: tuple[HSVRange, ...]) -> np.ndarray:
    """cv2.inRange of any of the ranges, a hue range that may wrap round red (low hue above high)."""
    mask = np.zeros(hsv.shape[:2], np.uint8)
    for (h0, s0, v0), (h1, s1, v1) in ranges:
        for lo, hi in (((h0, h1),) if h0 <= h1 else ((h0, 179), (0, h1))):
            mask |= cv2.inRange(hsv, np.array((lo, s0, v0)), np.array((hi, s1, v1)))
    return mask


def _mask_blue(image: np.ndarray, look: CameraLook = GAME, hsv: np.ndarray | None = None) -> np.ndarray:
    """The pixels of the look's inner ring colour, small gaps closed (``hsv``: the image in HSV, when at hand)."""
    mask = in_range(cv2.cvtColor(image, cv2.COLOR_BGR2HSV) if hsv is None else hsv, (look.inner,))
    return cv2.morphologyEx(mask, cv2.MORPH_CLOSE, np.ones((3, 3), np.uint8))


CAM = 7                 # camera parameters in a fit vector: cx, cy, a, b, tilt, roll (radians), skew


def _radius(p: np.ndarray, x: np.ndarray, y: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """Plane radius (disc radii) of image points under camera p = (cx, cy, a, b, tilt, roll,
    skew), and its derivatives by those 7 parameters (points × 7). The picture is turned
    back by the roll about the centre (e, f), scaled to the disc (w, h), then the
    perspective (tilt, and skew side to side) is undone: (u, v) = (w, h) / D with
    D = 1 − tilt·h − skew·w, so the radius is n / |D| with n = |(w, h)|."""
    cx, cy, a, b, t, roll, k = p[:CAM]
    c, s = math.cos(roll), math.sin(roll)
    dx, dy = x - cx, y - cy
    e, f = c * dx + s * dy, c * dy - s * dx
    w, h = e / a, f / -b
    depth = 1.0 - t * h - k * w
    n = np.hypot(w, h)
    q = 1.0 / np.abs(depth)
    radius = n * q
    by_d = radius * q * np.sign(depth)              # −d radius / d D
    q /= np.maximum(n, 1e-12)
    dw, dh = w * q + by_d * k, h * q + by_d * t     # d radius / dw, dh
    terms = np.stack([dw, dh, dw * w, dh * h, dw * f, dh * e, by_d * h, by_d * w], axis=1)
    chain = np.array([[-c / a, -s / a, 0, 0, 0, 0, 0], [-s / b, c / b, 0, 0, 0, 0, 0], [0, 0, -1 / a, 0, 0, 0, 0],
                      [0, 0, 0, -1 / b, 0, 0, 0], [0, 0, 0, 0, 0, 1 / a, 0], [0, 0, 0, 0, 0, 1 / b, 0],
                      [0, 0, 0, 0, 1, 0, 0], [0, 0, 0, 0, 0, 0, 1]])   # how w, h and the depth move with p
    jac = terms @ chain
    return radius, jac


def _image(p: np.ndarray, u: np.ndarray, v: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """Image points of plane points (disc radii) under camera p: the inverse of ``_radius``'s mapping."""
    cx, cy, a, b, t, roll, k = p[:CAM]
    d = 1.0 + t * v + k * u
    dx, dy = a * u / d, -b * v / d
    c, s = np.cos(roll), np.sin(roll)
    return cx + c * dx - s * dy, cy + s * dx + c * dy


LOSS = 0.02             # residual (share of an edge's radius) where the fit's loss turns from square to linear
FIT_EVALS = 100         # most evaluations of a fit: one on an arena settles within 50, on other outlines it may wander
EPS = float(np.finfo(float).eps)


def _fit(p0: np.ndarray, groups: list[np.ndarray], skew: bool, fixed: float = 1.0) -> np.ndarray:
    """Least squares (robust to figures covering an edge) of the camera and the edge radii:
    ``groups[k]`` are image points of edge k; edge 0 has radius ``fixed``, the others are
    fitted (p0 = cx, cy, a, b, tilt, roll, skew, radius 1, …); the skew stays as in p0 unless
    ``skew``. Each edge keeps at most ``FIT_POINTS`` points, evenly along it (more add time,
    not accuracy). Each point's residual is its plane radius over its edge's, less 1."""
    groups = [g[np.linspace(0, len(g) - 1, min(len(g), FIT_POINTS)).astype(int)] for g in groups]
    pts = np.concatenate(groups)
    edge = np.repeat(np.arange(len(groups)), [len(g) for g in groups])
    free = np.ones(len(p0), bool)
    free[CAM - 1] = skew
    own = edge[:, None] == np.arange(1, len(groups))[None, :]      # which fitted radius each point has

    def whole(x: np.ndarray) -> np.ndarray:
        p = p0.astype(float)
        p[free] = x
        return p

    def residuals(x: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
        p = whole(x)
        radius, jac = _radius(p, pts[:, 0], pts[:, 1])
        edges = np.concatenate([[fixed], p[CAM:]])[edge]
        jac = np.hstack([jac / edges[:, None], np.where(own, -(radius / edges ** 2)[:, None], 0.0)])
        return radius / edges - 1.0, jac[:, free]
    with np.errstate(all="ignore"):          # a step off the picture's plane gives inf: the fit steps back
        return whole(_robust_fit(residuals, p0[free]))


def _robust_fit(residuals: Any, x0: np.ndarray) -> np.ndarray:
    """The x (from ``x0``) least in the soft-L1 loss of ``residuals(x)`` (residuals and
    their Jacobian): LOSS²·2(√(1 + (r/LOSS)²) − 1) summed, square near 0 and linear for
    points off their edge (a figure's outline), which then pull little. Moré's
    trust-region Levenberg–Marquardt (MINPACK's, and the steps scipy's ``least_squares``
    "trf" takes without bounds: the camera fits land where they did with it), on the
    residuals and Jacobian scaled by the loss's slope and curvature (Triggs' correction).
    Stops when the loss falls by less than 1e-8 of itself, the step is under 1e-8 of x, the
    gradient under 1e-8, or after ``FIT_EVALS`` evaluations; x0 as it is when its
    residuals are not finite."""
    def scaled(r: np.ndarray, jac: np.ndarray) -> tuple[float, np.ndarray, np.ndarray]:
        z = 1.0 + np.square(r / LOSS)
        bend = np.maximum(z ** -1.5, EPS) ** 0.5           # √(ρ' + 2ρ''r²): the loss's curvature
        return float(LOSS ** 2 * np.sum(np.sqrt(z) - 1.0)), r / np.sqrt(z) / bend, jac * bend[:, None]

    x = np.asarray(x0, float)
    cost, f, jac = scaled(*residuals(x))
    if not (np.isfinite(cost) and np.all(np.isfinite(jac))):
        return x                    # a flat ellipse for a seed (an axis of 0): no camera, the checks refuse it
    evals, radius, damping = 1, _norm(x) or 1.0, 0.0
    while evals < FIT_EVALS:
        grad = jac.T @ f
        if np.abs(grad).max() < 1e-8:
            break
        u, sing, vt = np.linalg.svd(jac, full_matrices=False)
        fall, done = -1.0, False
        while fall <= 0 and evals < FIT_EVALS:
            step, damping = _trust_step(u.T @ f, sing, vt, len(f), radius, damping)
            size = _norm(step)
            r_new, jac_new = residuals(x + step)
            evals += 1
            if not np.all(np.isfinite(r_new)):
                radius = 0.25 * size
                continue
            predicted = -(0.5 * float(np.square(jac @ step).sum()) + float(grad @ step))
            cost_new, f_new, jac_new = scaled(r_new, jac_new)
            fall = cost - cost_new
            ratio = fall / predicted if predicted > 0 else float(predicted == fall == 0)
            done = (fall < 1e-8 * cost and ratio > 0.25) or size < 1e-8 * (1e-8 + _norm(x))
            if done:
                break
            new_radius = 0.25 * size if ratio < 0.25 else 2.0 * radius if ratio > 0.75 and size > 0.95 * radius \
                else radius
            damping *= radius / new_radius
            radius = new_radius
        if fall > 0:
            x, cost, f, jac = x + step, cost_new, f_new, jac_new
        if done:
            break
    return x


def _trust_step(uf: np.ndarray, sing: np.ndarray, vt: np.ndarray, rows: int, radius: float,
                damping: float) -> tuple[np.ndarray, float]:
    """The Levenberg–Marquardt step (JᵀJ + λI)p = −Jᵀf no longer than ``radius``, from the
    SVD of J (``rows`` residuals; ``uf`` = Uᵀf): the Gauss–Newton step when it fits, else λ
    found by Moré's safeguarded Newton iteration on ‖p(λ)‖ − radius (from ``damping``, the
    last λ); the step and λ."""
    suf = sing * uf
    full = rows >= len(sing) and sing[-1] > EPS * rows * sing[0]
    if full:
        step = -(vt.T @ (uf / sing))
        if _norm(step) <= radius:
            return step, 0.0

    def miss(lam: float) -> tuple[float, float]:
        denom = np.square(sing) + lam
        norm = _norm(suf / denom)
        return norm - radius, -float(np.square(suf) @ denom ** -3) / norm

    upper = _norm(suf) / radius
    lower = 0.0
    if full:
        off, slope = miss(0.0)
        lower = -off / slope
    lam = damping if full or damping else max(0.001 * upper, (lower * upper) ** 0.5)
    for _ in range(10):
        if not lower <= lam <= upper:
            lam = max(0.001 * upper, (lower * upper) ** 0.5)
        off, slope = miss(lam)
        if off < 0:
            upper = lam
        lower = max(lower, lam - off / slope)
        lam -= (off + radius) * (off / slope) / radius
        if abs(off) < 0.01 * radius:
            break
    step = -(vt.T @ (suf / (np.square(sing) + lam)))
    return step * (radius / _norm(step)), lam


def _norm(v: np.ndarray) -> float:
    """The Euclidean norm of a vector (np.linalg.norm's checks cost more than the sum on the fit's few numbers)."""
    return math.sqrt(float(v @ v))


def _arena(p: np.ndarray, radii: list[float], phase: float = 0.0) -> Arena:
    """The Arena of camera p with edge radii (disc radii, outer first)."""
    cx, cy, a, b, t, roll, k = p[:CAM]
    edges = tuple(float(r * a) for r in radii)
    return Arena(float(cx), float(cy), edges[0], edges[-1], float(b / a), float(t * radii[0]), edges, phase,
                 float(np.degrees(roll)), float(k * radii[0]))


def _rim(hsv: np.ndarray, inner: np.ndarray, blue: np.ndarray, look: CameraLook = GAME) -> np.ndarray | None:
    """Image points of the arena's outer edge: the outline of the cream-and-yellow tiles
    (in ``hsv``, the picture in HSV) and the inner ring's colour (mask ``inner``) around a
    blue ring (contour ``blue``), where it is not the picture's border."""
    tiles = in_range(hsv, look.tiles) | inner
    cv2.drawContours(tiles, [blue], -1, 255, -1)
    tiles = cv2.morphologyEx(tiles, cv2.MORPH_CLOSE, np.ones((5, 5), np.uint8))
    contours, _ = cv2.findContours(tiles, cv2.RETR_EXTERNAL, cv2.CHAIN_APPROX_NONE)
    x, y = (float(v) for v in blue[0, 0])
    around = [c for c in contours if cv2.pointPolygonTest(c, (x, y), False) >= 0]
    if not around:
        return None
    pts = around[0][:, 0, :]
    h, w = tiles.shape
    pts = pts[(pts[:, 0] > 2) & (pts[:, 0] < w - 3) & (pts[:, 1] > 2) & (pts[:, 1] < h - 3)]
    return pts.astype(float) if len(pts) >= 20 else None


def _opening(band: np.ndarray, outline: np.ndarray) -> list[np.ndarray]:
    """The inside of a band that figures cut right through (a C, not an O): what its convex
    hull holds besides the band, as one contour (none when that is not one region)."""
    inside = np.zeros_like(band)
    cv2.drawContours(inside, [cv2.convexHull(outline)], -1, 255, -1)
    inside = cv2.morphologyEx(inside & ~band, cv2.MORPH_OPEN, np.ones((3, 3), np.uint8))
    contours, _ = cv2.findContours(inside, cv2.RETR_EXTERNAL, cv2.CHAIN_APPROX_NONE)
    return [max(contours, key=cv2.contourArea)] if contours else []


def _bands(mask: np.ndarray) -> list[tuple[np.ndarray, np.ndarray]]:
    """(outline, hole) of every large blue band with a hole, largest first. Figures standing
    on the near side may cut the band: it is closed over gaps of a few hundredths of its
    width first (and the whole picture over gaps of a fiftieth of its width: a figure may
    cut the band in two)."""
    span = max(3, int(0.02 * mask.shape[1]) | 1)
    mask = round_morph(mask, cv2.MORPH_CLOSE, span)
    count, _, stats, _ = cv2.connectedComponentsWithStats(mask)
    bands = []
    for x, y, w, h, area in sorted(stats[1:], key=lambda s: -s[4])[:3]:
        if area < MIN_SEED * mask.size:
            break
        pad = max(3, int(0.1 * w))
        crop = cv2.copyMakeBorder(mask[y:y + h, x:x + w], pad, pad, pad, pad, cv2.BORDER_CONSTANT, value=0)
        span = max(3, int(0.08 * w) | 1)
        crop = round_morph(crop, cv2.MORPH_CLOSE, span)
        contours, hierarchy = cv2.findContours(crop, cv2.RETR_CCOMP, cv2.CHAIN_APPROX_NONE)
        if hierarchy is None:
            continue
        outer = max(range(len(contours)), key=lambda i: cv2.contourArea(contours[i]))
        holes = [contours[j] for j in range(len(contours)) if hierarchy[0][j][3] == outer] \
            or _opening(crop, contours[outer])
        if not holes:
            continue
        hole = max(holes, key=cv2.contourArea)
        if cv2.contourArea(hole) < 0.15 * cv2.contourArea(contours[outer]) or len(hole) < 20:
            continue
        shift = np.array([[[x - pad, y - pad]]])
        bands.append((contours[outer] + shift, hole + shift))
    return bands


def outlines(image: np.ndarray, look: CameraLook = GAME) -> list[tuple[np.ndarray, np.ndarray, np.ndarray]]:
    """(hole, band, rim) contours of every blue band with a hole (``_bands``) and the tiles
    around it (``_rim``), largest first: what ``seeds`` fits cameras to, found once for
    both of its passes (without and with a skew)."""
    hsv = cv2.cvtColor(image, cv2.COLOR_BGR2HSV)
    inner = _mask_blue(image, look, hsv)
    stage("rings-blue", inner)
    found = []
    for band, hole in _bands(inner):
        rim = _rim(hsv, inner, band, look)
        if rim is not None:
            found.append((hole, band, rim))
    return found


def seeds(found: list[tuple[np.ndarray, np.ndarray, np.ndarray]], look: CameraLook = GAME,
          skew: bool = False) -> list[np.ndarray]:
    """First camera guesses (cx, cy, a, b, tilt, roll, skew, blue ring radius, outer radius)
    from blue bands with a hole and the tiles around them (``outlines``), largest first;
    with no skew unless ``skew``."""
    cameras = []
    for hole, band, rim in found:
        (ex, ey), axes, _ = cv2.fitEllipse(hole)
        p0 = np.array([ex, ey, max(axes) / 2, min(axes) / 2, look.tilt, 0.0, 0.0, 1.4, 3.0])
        p = _straight_down(_fit(p0, [hole[:, 0, :].astype(float), band[:, 0, :].astype(float), rim], skew))
        blue, rim = p[CAM], p[CAM + 1]
        if p[2] > 0 and 0 < p[3] <= p[2] * 1.05 and abs(p[4]) < 0.5 and abs(p[5]) < MAX_ROLL and abs(p[6]) < MAX_SKEW \
                and 1.1 < blue < 2.0 and rim > 1.6 * blue:
            cameras.append(p)
    return cameras


def _straight_down(p: np.ndarray) -> np.ndarray:
    """Camera p with no roll or tilt when it looks straight down (a round arena, no tilt or
    skew to speak of): a circle shows no turn, so the fit's roll there is whatever it
    wandered to, and the figures would be turned upright by it."""
    if p[2] > 0 and abs(p[3] / p[2] - 1.0) < ROUND and abs(p[4]) < ROUND and abs(p[6]) < ROUND:
        p = p.copy()
        p[2] = p[3] = (p[2] + p[3]) / 2
        p[4] = p[5] = 0.0
    return p


def _unwarp(image: np.ndarray, p: np.ndarray, radii: np.ndarray, angles: np.ndarray) -> np.ndarray:
    """Sample the picture on the plane's polar grid (rows: radii in disc units, columns:
    angles clockwise from 9 o'clock)."""
    ang = np.radians(angles)[None, :]
    x, y = _image(p, -radii[:, None] * np.cos(ang), radii[:, None] * np.sin(ang))
    return cv2.remap(image, x.astype(np.float32), y.astype(np.float32),
                     cv2.INTER_LINEAR, borderMode=cv2.BORDER_CONSTANT, borderValue=(0, 0, 0))


def _edge_profile(lab: np.ndarray, span: int = 1) -> np.ndarray:
    """|d/dradius| of an unwarped Lab picture, per angle: the colour change from ``span``
    rows before to ``span`` rows after each row (rows 0 and −1 repeat their neighbours)."""
    grad = np.linalg.norm(lab[2 * span:] - lab[:-2 * span], axis=2)
    return np.pad(grad, ((span, span), (0, 0)), mode="edge")


def _peaks(profile: np.ndarray) -> list[int]:
    inside = profile[1:-1]
    return [i + 1 for i in np.flatnonzero((inside >= profile[:-2]) & (inside > profile[2:]))]


def ring_edges(image: np.ndarray, p: np.ndarray, equal: float = 1.2) -> tuple[list[float], float] | None:
    """The 5 ring edge radii (disc units, outer first) seen around camera p, and the weakest
    edge's strength over the profile's floor; None when the picture does not show a disc, a
    blue ring and three equal rings around it (widths within ``equal`` of each other: a
    first camera guess bends the outer edges, so it is given more)."""
    step = 0.5 / p[2]                              # half a pixel across, at the centre row
    radii = np.arange(0.6, 4.2, step)
    lab = cv2.cvtColor(_unwarp(image, p, radii, np.arange(0.0, 360.0, 2.0)), cv2.COLOR_BGR2LAB).astype(np.float32)
    profile = np.median(_edge_profile(lab, 2), axis=1)
    floor = float(np.median(profile)) + 1.0
    at = lambda r: (r - radii[0]) / step           # noqa: E731 - profile index of a radius
    peaks = [i for i in _peaks(profile) if profile[i] > RING_EDGE * floor]
    if not peaks:
        return None

    def near(r: float, tol: float) -> int | None:
        close = [i for i in peaks if abs(i - at(r)) <= tol / step]
        return max(close, key=lambda i: profile[i]) if close else None

    disc, blue = near(1.0, 0.12), near(p[CAM], 0.12)
    if disc is None or blue is None or blue <= disc:
        return None
    width = (blue - disc) * step
    edges = [disc, blue]
    for _ in range(3):
        last = edges[-1]
        ahead = [i for i in peaks if 0.8 * width <= (i - last) * step <= 1.9 * width]
        if not ahead:
            return None
        edges.append(max(ahead, key=lambda i: profile[i]))
    gaps = np.diff(edges[1:])     # whole profile rows, not radii: a ratio of just ``equal`` holds, whatever the step
    if gaps.max() > equal * gaps.min():
        return None
    strength = float(min(profile[i] for i in edges)) / floor
    return [float(radii[i]) for i in reversed(edges)], strength


def refit(image: np.ndarray, p: np.ndarray, radii: list[float], skew: bool = False) -> tuple[np.ndarray, list[float]]:
    """Camera and edge radii refitted to where each edge is along every angle (the skew too
    when ``skew``)."""
    angles = np.arange(0.0, 360.0, 2.0)
    groups = []
    for r in reversed(radii):                     # disc edge first: its radius stays 1
        tol = 0.12 * (radii[0] - radii[-1]) / RINGS
        rows = np.linspace(r - tol, r + tol, 25)
        lab = cv2.cvtColor(_unwarp(image, p, rows, angles), cv2.COLOR_BGR2LAB).astype(np.float32)
        grad = _edge_profile(lab)
        best = rows[np.argmax(grad, axis=0)]
        strong = grad.max(axis=0) > np.median(grad.max(axis=0)) * 0.5
        ang = np.radians(angles[strong])
        groups.append(np.stack(_image(p, -best[strong] * np.cos(ang), best[strong] * np.sin(ang)), axis=1))
    q = _straight_down(_fit(np.concatenate([p[:CAM], list(reversed(radii))[1:]]), groups, skew))
    return q[:CAM], [float(r) for r in reversed(np.concatenate([[1.0], q[CAM:]]))]


def slice_phase(image: np.ndarray, p: np.ndarray, radii: list[float]) -> tuple[float, float]:
    """The world angle of slice 0's centre (the 12 borders are 30° apart) and the weakest
    border's strength over the angles between borders."""
    width = (radii[0] - radii[-1]) / RINGS
    rows = np.linspace(radii[3] + 0.2 * width, radii[0] - 0.2 * width, 24)
    flat = _unwarp(image, p, rows, np.arange(0.0, 360.0, 0.5))
    lab = cv2.cvtColor(flat, cv2.COLOR_BGR2LAB).astype(np.float32)
    across = np.median(np.linalg.norm(lab - np.roll(lab, 1, axis=1), axis=2), axis=0)
    across = np.maximum(across, np.roll(across, -1))
    scores = [across[(np.arange(SLICES) * 60 + k) % 720].sum() for k in range(60)]
    k = int(np.argmax(scores))
    borders = (np.arange(SLICES) * 60 + k) % 720
    at = np.stack([across[(borders + d) % 720] for d in (-1, 0, 1)]).max(axis=0)
    off = np.delete(across, (borders[:, None] + np.arange(-5, 6)[None, :]).ravel() % 720)
    return (k * 0.5 + 15.0) % 30.0, float(at.min()) / (float(np.percentile(off, 75)) + 1.0)


def find_camera_arena(image: np.ndarray, look: CameraLook = GAME) -> tuple[Arena, float]:
    """The arena seen by the game's camera (in ``image``'s pixels) and a confidence in 0..1
    from its weakest ring edge and slice border; NoBoardFound when no blue inner ring (the
    look's inner colour) with a disc and three rings around it shows, the rings are not in
    the look's proportions, or the slice borders do not show. The game's own frames have no
    skew: a skewed camera (a photo of the screen taken from one side) is fitted only when
    none without fits, so that one more freedom never bends a fit of the game's picture."""
    reason = "no ring arena found (no blue inner ring around a central disc)" if look == GAME else \
        "no ring arena of the profile's look found (no ring of its inner colour around a central disc)"
    found = outlines(image, look)
    for skew, p in ((skew, p) for skew in (False, True) for p in seeds(found, look, skew)[:3]):
        edges = ring_edges(image, p, equal=1.4)
        if edges is None:
            reason = "no ring arena found (a blue ring, but not with three equal rings around it)"
            continue
        p, radii = refit(image, p, edges[0], skew)
        checked = ring_edges(image, np.concatenate([p, [radii[3]]]), equal=1.3)
        if checked is None:
            continue
        radii, ring_strength = checked
        if look.edges is not None and max(abs(r / radii[0] - e) for r, e in zip(radii, look.edges)) > EDGE_SHARE:
            reason = "no ring arena of the profile's look found (rings, but not in its proportions)"
            continue
        phase, slice_strength = slice_phase(image, p, radii)
        if slice_strength < SLICE_EDGE:
            reason = "no ring arena found (rings, but not the 12 slice borders of a battle arena)"
            continue
        score = min(ring_strength / (2 * RING_EDGE), slice_strength / (2 * SLICE_EDGE))
        arena = _arena(p, radii, phase)
        stage("rings-camera", lambda: marked(image, [(x, y, "") for x, y in arena.cells()]))
        return arena, min(1.0, score)
    raise NoBoardFound(reason)


# ---------------------------------------------------------------------------- 3. the feet

class CellsRefused(NoBoardFound):
    """The arena is found, its cells are not sure: no other reader should guess."""


def _circle(radius: float, step: float = 2.0) -> tuple[np.ndarray, np.ndarray]:
    """Plane points (u, v) around a circle of the arena."""
    a = np.radians(np.arange(0.0, 360.0, step))
    return -radius * np.cos(a), radius * np.sin(a)


def palette(image: np.ndarray, arena: Arena) -> tuple[np.ndarray, np.ndarray]:
    """The tile colours (Lab, one per row): per ring, the colours that cover at least a
    fifth of its unwarped inside (tiles; figures are smaller and many-coloured) and are its
    main one or recur elsewhere (``_tile_colours``); and apart,
    the central disc's (orange: close to a brown figure's colour once lightness counts
    little, so it only counts over the disc). The k-means is seeded (``SEED``): OpenCV's random state is shared by
    the process, and an unseeded close call read differently from run to run."""
    lab = cv2.cvtColor(image, cv2.COLOR_BGR2LAB)
    edges = arena.radii
    found = []
    angles = np.radians(np.arange(0.0, 360.0, 1.0))[None, :]
    for r in range(RINGS + 1):
        outer, inner = (edges[r], edges[r + 1]) if r < RINGS else (edges[-1], 0.0)
        radii = np.linspace(inner + 0.2 * (outer - inner), outer - 0.2 * (outer - inner), 6)[:, None]
        x, y = arena.project(-radii * np.cos(angles), radii * np.sin(angles))
        samples = cv2.remap(lab, x.astype(np.float32), y.astype(np.float32), cv2.INTER_NEAREST)
        samples = samples.reshape(-1, 3).astype(np.float32)
        cv2.setRNGSeed(SEED + r)          # k-means++ starts from random centres: the same ones every time
        _, labels, centres = cv2.kmeans(samples, 4, None, (cv2.TERM_CRITERIA_MAX_ITER + cv2.TERM_CRITERIA_EPS, 20, 1.0),
                                        2, cv2.KMEANS_PP_CENTERS)
        found.append((centres, np.bincount(labels.ravel(), minlength=4) / len(labels)))
    colours = [_tile_colours(r, found[:RINGS]) for r in range(RINGS)]
    return np.concatenate(colours), found[RINGS][0][found[RINGS][1] >= 0.2]


def _tile_colours(ring: int, found: list[tuple[np.ndarray, np.ndarray]]) -> np.ndarray:
    """A ring's tile colours among its k-means centres (with their shares): its largest, and
    any other covering a fifth of it that recurs (within ``SHARED``, lightness in full,
    covering a twentieth: a shade, say) in another ring. Tiles' colours and shades recur round the arena;
    figures crowding one ring (a brown fifth of goombas) do not, and kept as a tile
    colour they vanished into it (a wrong board)."""
    centres, share = found[ring]
    others = np.concatenate([c[s >= 0.05] for k, (c, s) in enumerate(found) if k != ring]).reshape(-1, 3)
    keep = [c for k, (c, s) in enumerate(zip(centres, share)) if s >= 0.2 and (
        k == int(np.argmax(share)) or (np.linalg.norm(others - c, axis=1) < SHARED).any())]
    return np.array(keep, np.float32).reshape(-1, 3)


def foreign(image: np.ndarray, arena: Arena, colours: tuple[np.ndarray, np.ndarray],
            light: float = LIGHT) -> tuple[np.ndarray, np.ndarray]:
    """Pixels of the arena unlike every tile colour (figures, their shadows), with the tile
    borders (thin dark joints the figures' runs cross) and small gaps up a figure (between
    its legs and body, say) bridged: (feet, bodies) bool images. Outside the arena no
    feet stand (grass would join the figures at the rim to the badges over them), but the
    bodies of far figures rise over the rim: the second image keeps them (not the grass). Lightness counts for little
    (``light``, ``LIGHT`` in the game's look): the stands cast shade across the arena. So a brown
    head is a shaded yellow tile's colour; a ring pixel darker than ``DIM`` times the darkest
    tile colour's lightness (deeper than any shade) is no tile all the same."""
    lab = cv2.cvtColor(cv2.GaussianBlur(image, (3, 3), 0), cv2.COLOR_BGR2LAB).astype(np.float32)
    h, w = lab.shape[:2]
    ys, xs = np.mgrid[0:h, 0:w].astype(np.float32)
    u, v = arena.plane(xs, ys)
    radius = np.hypot(u, v)
    near = [np.full((h, w), np.inf, np.float32) for _ in colours]        # to the rings' colours, to the disc's
    for group, least in zip(colours, near):
        for c in group:
            d = np.square(lab[..., 0] - c[0]) * light ** 2 + np.square(lab[..., 1] - c[1]) \
                + np.square(lab[..., 2] - c[2])
            np.minimum(least, d, out=least)
    out = np.where(radius < arena.radii[-1], np.minimum(*near), near[0]) > FOREIGN ** 2
    out |= (radius >= arena.radii[-1]) & (lab[..., 0] < DIM * float(colours[0][:, 0].min()))
    angle = (np.degrees(np.arctan2(v, -u)) - arena.phase - 15.0) % 30.0
    joint = 0.06 * arena.width
    on_edge = np.min([np.abs(radius - e) for e in arena.radii], axis=0) < joint
    on_border = (np.minimum(angle, 30.0 - angle) * np.radians(1.0) * radius < joint) & (radius <= arena.outer)
    out &= ~(on_edge | on_border)
    hsv = cv2.cvtColor(image, cv2.COLOR_BGR2HSV)
    grass = (hsv[..., 0] >= 35) & (hsv[..., 0] <= 85) & (hsv[..., 1] > 60)
    span = max(3, int(round(max(2 * joint * arena.squash, 0.8 * FIGURE * arena.width))) | 1)
    kernel = np.ones((span, 1), np.uint8)
    inside = out & (radius <= arena.outer)
    body = out & (inside | ~grass)
    return tuple(cv2.morphologyEx(m.astype(np.uint8), cv2.MORPH_CLOSE, kernel).astype(bool)   # type: ignore[return-value]
                 for m in (inside, body))


def without_badges(image: np.ndarray, mask: np.ndarray, arena: Arena) -> np.ndarray:
    """The foreign mask less the round red badges the game floats over some enemies' heads
    (a bright red disc about as wide as tall, floating: tile right under it, a figure
    further down; a red robe has feet right under it): standing nowhere,
    they would otherwise read as an enemy on a tile behind. Small and far, a badge may touch
    the head under it at one side: tile under its whole width or under its middle half
    both make it float. JPEG may split a badge's mask,
    so the badges are found on their colour, and their whole box is cleared."""
    hsv = cv2.cvtColor(image, cv2.COLOR_BGR2HSV)
    red = ((hsv[..., 0] <= 10) | (hsv[..., 0] >= 172)) & (hsv[..., 1] > 110) & (hsv[..., 2] > 185)
    red = cv2.morphologyEx(red.astype(np.uint8), cv2.MORPH_CLOSE, np.ones((3, 3), np.uint8))
    count, _, stats, _ = cv2.connectedComponentsWithStats(red)
    out = mask.copy()
    rim = ((hsv[..., 0] <= RIM_HUE) | (hsv[..., 0] >= RIM_MAGENTA)) & (hsv[..., 1] > RIM_SAT)
    rimless = mask & ~rim       # a badge's shaded lower rim, dark red to orange on a yellow tile, is no figure under it
    for x, y, w, h, area in stats[1:]:
        if area < 6 or not 0.5 <= h / w <= 1.6 or area < 0.35 * w * h:
            continue
        u, v = arena.plane(np.float64(x + w / 2), np.float64(y + h))
        size = FIGURE * arena.width / float(arena.depth(u, v))
        x0, x1 = max(0, int(x - size)), int(x + w + size)
        gap = rimless[y + h + 1:y + h + 2 + int(0.25 * size), x:x + w]
        floats = min(gap.mean(), gap[:, w // 4:w - w // 4].mean()) < 0.2 if gap.size else False
        under = out[y + h + 1:int(y + h + 1 + 2.5 * size), x0:x1].sum()
        if floats and (under >= max(4.0, 0.1 * area) or _alone(mask, x, y, w, h, area, size)):
            out[max(0, y - 2):y + h + 2, max(0, x - 2):x + w + 2] = False
            below = (slice(y + h + 2, y + h + 4), slice(max(0, x - 2), x + w + 2))     # the rest of its rim
            out[below] &= ~rim[below]
    return out


def _alone(mask: np.ndarray, x: int, y: int, w: int, h: int, area: int, size: float) -> bool:
    """Whether a red disc (box x, y, w, h) floats alone: no taller than ``BADGE`` figure
    sizes, with next to nothing foreign in a frame half its height wide around it. A badge
    over a figure whose head is drawn in the tile's colours (a yellow head on a yellow tile)
    has no figure right under it, but nothing that stands is a lone red disc: a red robe
    has a head, a mask or feet around it."""
    if h > BADGE * size:
        return False
    pad = max(2, h // 2)
    frame = mask[max(0, y - pad):y + h + pad, max(0, x - pad):x + w + pad].sum() \
        - mask[max(0, y - 1):y + h + 1, max(0, x - 1):x + w + 1].sum()
    return frame <= 0.1 * area


def _lowest_nearby(labels: np.ndarray, count: int, figure: float) -> np.ndarray:
    """Per blob and image column (count × width): the lowest row of that blob within
    ``REACH`` figure widths either side (−1: none). A run's bottom with its own blob going
    on further down right beside it is the lower edge of a wider part (a head, an arm, a
    wing over a narrower body), not feet."""
    ys, xs = np.nonzero(labels)
    lowest = np.full((count, labels.shape[1]), -1.0, np.float32)
    np.maximum.at(lowest, (labels[ys, xs], xs), ys.astype(np.float32))
    span = 2 * max(1, int(round(REACH * figure))) + 1
    return cv2.dilate(lowest, np.ones((1, span), np.uint8))


def foot_counts(mask: np.ndarray, arena: Arena, body: np.ndarray | None = None,
                dark: np.ndarray | None = None) -> tuple[np.ndarray, np.ndarray]:
    """Per cell (rings, slices): the image columns in which a run of foreign pixels ends
    on that cell, in units of a figure's width there (``FIGURE`` of a ring's width, seen at
    that depth), and (stands, rings × slices × 5) the blob of ``mask`` most of them belong
    to (0: none) with the plane point (u, v) its feet there stand on, on average. A run counts
    when nothing foreign lies just below it (a badge floating over a head does not stand)
    and it is a figure's height tall (specks do not), counting the ``body`` image above it
    (default ``mask``), and when its blob does not go on lower right beside it
    (``_lowest_nearby``: a wider part's lower edge is not where the figure stands). A fourth
    value per stand is 1 when most of its run bottoms are ``dark`` (a bool image; default
    none) and ``DROP`` figure heights lower on the screen would put it on another ring: a
    bob-omb's yellow feet on a yellow tile do not show, its dark body's bottom does, and on
    the far side those few pixels are most of a ring (where it stands is not sure). The
    fifth is the blob's top row (``_hidden_behind``)."""
    body = mask if body is None else body
    h, w = mask.shape
    counts = np.zeros((RINGS, SLICES))
    stands = np.zeros((RINGS, SLICES, 5))
    below = np.vstack([mask[1:], np.zeros((1, w), bool)])
    ys, xs = np.nonzero(mask & ~below)
    if not len(xs):
        return counts, stands
    count, labels, boxes, _ = cv2.connectedComponentsWithStats(mask.astype(np.uint8))
    u, v = arena.plane(xs.astype(np.float64), ys.astype(np.float64))
    d = arena.depth(u, v)
    figure = FIGURE * arena.width / d                      # a figure's width (and height) there, in pixels
    feet = _lowest_nearby(labels, count, float(np.median(figure)))[labels[ys, xs], xs] <= ys + STEP * figure
    cum = np.vstack([np.zeros((1, w), int), np.cumsum(mask, axis=0)])     # cum[y] = foreign pixels above row y
    up = np.vstack([np.zeros((1, w), int), np.cumsum(body, axis=0)])
    top = np.clip(ys + 1 - np.round(figure).astype(int), 0, h)
    tall = (up[ys + 1, xs] - up[top, xs]) >= 0.7 * figure
    gap = np.clip(ys + 1 + np.round(GAP * figure).astype(int), 0, h)
    clear = cum[gap, xs] == cum[ys + 1, xs]
    v = v + 0.1 * arena.width                              # the feet's middle, behind their front edge
    radius = np.hypot(u, v)
    angle = (np.degrees(np.arctan2(v, -u)) - arena.phase) % 360.0
    black = np.zeros(len(xs)) if dark is None else dark[np.maximum(ys - 1, 0), xs].astype(float)
    shares: dict[tuple[int, int], dict[int, np.ndarray]] = {}  # per cell and blob: width, width·u, width·v, dark width
    for r, a, size, label, ok, pu, pv, pd in zip(radius, angle, figure, labels[ys, xs], tall & clear & feet, u, v, black):
        ring = arena.ring_of(float(r))
        if ok and ring is not None and r < arena.outer - 0.1 * arena.width:
            cell = (ring, int(round(a / 30.0)) % SLICES)
            mine = shares.setdefault(cell, {})
            mine[int(label)] = mine.get(int(label), 0.0) + np.array([1.0, pu, pv, pd]) / size
    blobs: dict[int, list[np.ndarray]] = {}                # per blob, its feet on each cell
    for mine in shares.values():
        for label, share in mine.items():
            blobs.setdefault(label, []).append(share)
    for cell, mine in shares.items():
        counts[cell] = sum(share[0] for label, share in mine.items()
                           if not _spill(share[0], max(other[0] for other in blobs[label]))
                           and not any(_outline(arena, share, other) for other in blobs[label]))
        owner = max(mine, key=lambda label: mine[label][0])
        pu, pv, pd = mine[owner][1:] / mine[owner][0]
        stands[cell] = (owner, pu, pv, pd >= 0.5 and _hidden_feet_elsewhere(arena, pu, pv, cell[0]), boxes[owner, 1])
    return counts, stands


def _hidden_behind(arena: Arena, stands: np.ndarray, taken: list[list[bool]]) -> tuple[int, int] | None:
    """A taken cell whose blob rises higher than ``TALL`` figure sizes over its stand, with
    no other taken cell of the blob nearer its top (None: none). One figure is about two
    sizes tall (badges are taken off); more is another figure behind it, joined to its
    body, whose feet it hides: a line of figures along a slice, seen end on."""
    rising: dict[int, tuple[float, tuple[int, int]]] = {}
    for (ring, piece), owner in np.ndenumerate(stands[..., 0]):
        if taken[ring][piece]:
            _, u, v, _, top = stands[ring, piece]
            _, y = arena.project(np.float64(u), np.float64(v - 0.1 * arena.width))
            tall = (float(y) - top) * float(arena.depth(np.float64(u), np.float64(v))) / (FIGURE * arena.width)
            if tall < rising.get(int(owner), (math.inf,))[0]:
                rising[int(owner)] = (tall, (ring, piece))
    return next((cell for tall, cell in rising.values() if tall > TALL), None)


def _hidden_feet_elsewhere(arena: Arena, u: float, v: float, ring: int) -> bool:
    """Whether feet hidden ``DROP`` figure heights below a dark body's bottom standing at
    (u, v) (the feet's middle) would stand on a ring other than ``ring``."""
    x, y = arena.project(np.float64(u), np.float64(v - 0.1 * arena.width))
    size = FIGURE * arena.width / float(arena.depth(np.float64(u), np.float64(v)))
    lu, lv = arena.plane(np.float64(x), np.float64(y + DROP * size))
    return arena.ring_of(float(np.hypot(lu, lv + 0.1 * arena.width))) != ring


def _spill(share: float, main: float) -> bool:
    """Whether a blob's feet on one cell are a spill of the figure standing on another: a
    few columns (at most ``SPILL`` times ``FOOT``) beside a clear stand (``SURE`` times that
    at least) of the same blob. One figure's feet or a head's edge reaching over a border
    must not make a close call; a second figure merged into the blob with that little of its
    feet showing leaves the enemies no multiple of 4, and is refused as such."""
    return share < main and share <= SPILL * FOOT and main >= SURE * SPILL * FOOT


def _outline(arena: Arena, share: np.ndarray, main: np.ndarray) -> bool:
    """Whether a blob's feet on one cell (``share``: width, width·u, width·v, …) are the rising
    lower outline of a figure of the blob standing on another (``main``): fewer than
    ``OUTLINE`` times that stand's, their middle closer to it
    than ``OUTLINE_REACH`` ring widths (one figure, not two a cell apart) and higher on the screen
    (farther from the camera). A figure stands on its lowest point; its round sides end
    higher up, which the plane maps farther away: onto the tile behind when the figure is
    small or the tiles are far, never onto a nearer tile."""
    if share[0] >= OUTLINE * main[0]:
        return False
    (u, v), (mu, mv) = share[1:3] / share[0], main[1:3] / main[0]
    _, y = arena.project(np.float64(u), np.float64(v))
    _, my = arena.project(np.float64(mu), np.float64(mv))
    return math.hypot(u - mu, v - mv) < OUTLINE_REACH * arena.width and float(y) < float(my)


def read_cells(image: np.ndarray, arena: Arena, light: float = LIGHT) -> tuple[list[list[bool]], float]:
    """Which cells hold an enemy (its feet stand there) and a confidence (0..1) from the
    closest call; NoBoardFound when a call is too close, when one figure's feet make two
    enemies (two cells' feet of one blob closer than ``APART`` ring widths: two figures
    merged into one blob stand a cell apart, one figure's feet over a border do not), when a
    figure rises higher than one (``_hidden_behind``), when a dark body's bottom or a weak
    stand (under ``SURE`` times ``FOOT``: a far koopa's green shell over its yellow feet on a
    yellow tile) may have its feet a ring nearer (``_hidden_feet_elsewhere``), when
    none is seen (a boss battle puts panels on the tiles and the boss in the middle), or when
    the enemies seen are no multiple of 4 (one may stand hidden behind another: the rules
    want full groups)."""
    xs, ys = arena.project(*_circle(arena.outer))
    x0, y0 = max(0, int(xs.min()) - 2), max(0, int(ys.min() - arena.width))     # far figures rise over the rim
    image = image[y0:int(ys.max()) + 3, x0:int(xs.max()) + 3]     # the arena's box: all that counts
    arena = replace(arena, cx=arena.cx - x0, cy=arena.cy - y0)
    feet, body = foreign(image, arena, palette(image, arena), light)
    dark = cv2.cvtColor(image, cv2.COLOR_BGR2LAB)[..., 0] <= DARK
    stage("rings-feet", feet)
    counts, stands = foot_counts(without_badges(image, feet, arena), arena, body, dark)
    stage("rings-feet-counts", lambda: marked(image, [(*arena.cell(r, s), f"{counts[r][s]:.2g}")
                                                      for r in range(RINGS) for s in range(SLICES)]))
    try:
        taken, confidence = decide(counts, FOOT, SURE * FOOT)
    except NoBoardFound as exc:
        raise CellsRefused(str(exc)) from None
    standing = stands[np.array(taken)]
    for k, (owner, u, v, _, _) in enumerate(standing):
        if any(other == owner and math.hypot(u - ou, v - ov) < APART * arena.width for other, ou, ov, _, _ in standing[:k]):
            raise CellsRefused("one figure's feet fall on two tiles: where it stands is not sure")
    weak = (counts < SURE * FOOT) & np.array(taken)
    for (ring, piece), hidden in np.ndenumerate(stands[..., 3]):
        if weak[ring, piece] and not hidden:
            hidden = _hidden_feet_elsewhere(arena, *stands[ring, piece, 1:3], ring)
        if hidden and taken[ring][piece]:
            raise CellsRefused(f"ring {ring} slice {piece}: a dark body's bottom or a few columns show, not sure "
                               "feet (they may hide in the tile's colour), too close to the next ring to tell which "
                               "it stands on")
    behind = _hidden_behind(arena, stands, taken)
    if behind is not None:
        raise CellsRefused(f"ring {behind[0]} slice {behind[1]}: the figure there rises higher than one figure: "
                           "another may stand hidden behind it")
    seen = sum(map(sum, taken))
    if not seen:
        raise CellsRefused("no enemy stands on the arena: not a ring battle to line up (a boss arena's panels, "
                           "or a battle already won)")
    if seen % 4:
        raise CellsRefused(f"{seen} enemies seen, not a multiple of 4: one may be hidden behind another")
    return taken, confidence


def scaled(arena: Arena, k: float) -> Arena:
    """The arena of a picture ``k`` times the size."""
    return Arena(arena.cx * k, arena.cy * k, arena.outer * k, arena.inner * k, arena.squash, arena.tilt,
                 tuple(e * k for e in arena.radii), arena.phase, arena.roll, arena.skew)


def lifted(image: np.ndarray) -> np.ndarray:
    """The picture with its brightest (``WHITE_SHARE`` of pixels) made white when it is
    dimmer than ``WHITE``: the game always shows near-white (cream tiles, the panel, the
    words), and a dimmed capture (a capture card's or video's gain) shrinks every colour
    difference with it, so that figures melted into tiles and badges were no longer red
    enough to be dropped (a wrong board). Unchanged when bright enough."""
    b, g, r = cv2.split(image)     # each pixel's brightest channel by OpenCV: numpy's max over the channel axis is 10× it
    white = float(np.percentile(cv2.max(cv2.max(b, g), r), 100 - WHITE_SHARE))
    if white >= WHITE or white <= 0:
        return image
    return cv2.convertScaleAbs(image, alpha=255.0 / white)


def read_camera(image: np.ndarray, look: CameraLook = GAME) -> tuple[Arena, float, list[list[bool]], float]:
    """The arena (in ``image``'s pixels), its confidence, the cells and their confidence,
    read at ``WORK`` pixels at most (JPEG noise and size change nothing there)."""
    k = min(1.0, WORK / max(image.shape[:2]))
    small = lifted(cv2.resize(image, None, fx=k, fy=k, interpolation=cv2.INTER_AREA) if k < 1 else image)
    arena, arena_conf = find_camera_arena(small, look)
    if abs(arena.roll) >= 1.0:  # figures stand up the unturned picture: turn it back first
        turn = cv2.getRotationMatrix2D((arena.cx, arena.cy), arena.roll, 1.0)
        upright = cv2.warpAffine(small, turn, (small.shape[1], small.shape[0]), flags=cv2.INTER_LINEAR,
                                 borderMode=cv2.BORDER_REPLICATE)
        taken, cell_conf = read_cells(upright, replace(arena, roll=0.0), look.light)
    else:
        taken, cell_conf = read_cells(small, arena, look.light)
    return scaled(arena, 1.0 / k), arena_conf, taken, cell_conf


def _hsv_range(profile: Profile, value: Any, key: str) -> HSVRange:
    """An HSV range of a profile's ``camera_look`` (field ``key``); ProfileError naming it when malformed."""
    tops = (179, 255, 255)
    if not (isinstance(value, list) and len(value) == 2 and all(
            isinstance(end, list) and len(end) == 3 and all(isinstance(c, int) and not isinstance(c, bool) and 0 <= c <= t
                                                            for c, t in zip(end, tops)) for end in value)
            and all(value[0][i] <= value[1][i] for i in (1, 2))):
        raise ProfileError(f"profile {profile.name}: field 'camera_look.{key}' must be [[h, s, v], [h, s, v]] "
                           f"(h 0-179, s and v 0-255, low s and v under high), not {value!r}")
    return (tuple(value[0]), tuple(value[1]))        # type: ignore[return-value]


def camera_look_of(profile: Profile) -> CameraLook | None:
    """The camera look a rings profile teaches (field ``camera_look``), or None when it
    teaches none; ProfileError naming the field when one is missing or malformed."""
    look = profile.get("camera_look", dict, None)
    if look is None:
        return None
    edges = look.get("edges")
    if not (isinstance(edges, list) and len(edges) == RINGS + 1
            and all(isinstance(e, (int, float)) and not isinstance(e, bool) for e in edges)
            and edges[0] == 1.0 and all(a > b > 0 for a, b in zip(edges, edges[1:]))):
        raise ProfileError(f"profile {profile.name}: field 'camera_look.edges' must be {RINGS + 1} falling shares "
                           f"of the outer radius from 1.0, not {edges!r}")
    tilt = look.get("tilt")
    if not isinstance(tilt, (int, float)) or isinstance(tilt, bool) or not 0.0 <= tilt < 0.5:
        raise ProfileError(f"profile {profile.name}: field 'camera_look.tilt' must be a number 0 to 0.5, not {tilt!r}")
    light = look.get("light")
    if not isinstance(light, (int, float)) or isinstance(light, bool) or not 0.05 <= light <= 1.0:
        raise ProfileError(f"profile {profile.name}: field 'camera_look.light' must be a number 0.05 to 1, not {light!r}")
    tiles = look.get("tile_hsv")
    if not isinstance(tiles, list) or not 1 <= len(tiles) <= 4:
        raise ProfileError(f"profile {profile.name}: field 'camera_look.tile_hsv' must be a list of 1 to 4 HSV ranges, "
                           f"not {tiles!r}")
    return CameraLook(_hsv_range(profile, look.get("inner_hsv"), "inner_hsv"),
                      tuple(_hsv_range(profile, t, "tile_hsv") for t in tiles), tuple(float(e) for e in edges),
                      float(tilt), float(light))
