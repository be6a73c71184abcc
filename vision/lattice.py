"""Reading a grid game with a learnt look: find the lattice of places, classify every place.

``calibration.lattice`` learns a look from one screenshot and its board: the lattice the board
sits on and, per class of place (one-stroke: ``#`` a cell, ``.`` a hole, ``S`` the start), the
picture of one pitch around the place's centre at a canonical size (:data:`SIDE`) and how much
the class's places differ from it. Nothing is assumed about colours, gaps, grid lines or
markers: a class is what its places look like.

Reading another screenshot of the app (another board and size, 0.5–2× the scale, a crop,
JPEG): the pitches near the calibration's share of the picture first, then every pitch from a
few pixels to half the picture, the templates matched at that pitch (``cv2.matchTemplate``)
and the lattice phase where most places are clearly a board class kept; the lattice is then
fitted to the places to a fraction of a pixel and every place classified again at
``SIDE`` px a pitch (only the views a scale needs are converted to Lab: :class:`Picture`). A place inside the board that no class explains clearly,
a board that may go on past the picture's edge, or a place just outside it that could be part
of the board refuses the reading: never a wrong board.
"""
from __future__ import annotations

import itertools
import math
from dataclasses import dataclass, field
from functools import cached_property
from typing import Any, Callable

import cv2
import numpy as np

from vision.common import NoBoardFound, Parse
from vision.profile import Profile, ProfileError

LATTICE_VERSION = 1       # the profile's ``lattice.version``: its learnt fields' format
RIMS = (1 / 12, 0.0)      # the shares of a place's side at each edge its class may be judged without, tried in turn
SIDE = 24                 # px: a template's side, one pitch
FIND_SIDE = 8             # px: the pitch the lattice is searched at
MOST_TRIED = 6            # rough lattices settled and judged, the most board places first
FIT_PASSES = 4            # a fit's passes over its moves at one step, at most
FIT_ROUNDS = 3            # a settling fit's steps: 1/8 of a pitch, halved this many times
DRIFT = math.log(1.2)     # a settling lattice whose pitch strays further from its rough one is no board
MOST_SETTLED = 400        # a rough lattice of more places is a texture, not a board: not settled
MOST_PLACES = 40          # a lattice that grows past this many places a side is no board
SETTLE_ROUNDS = 12        # most times a lattice is fitted and grown to its board's extent
PITCH_STEP = 1.08         # the ratio between pitches tried
EMPTY = "."               # the class of an empty place (a hole): the board is the rest
CLEAR_SHARE = 0.45        # a place is its class when nearer than this share of the way to the next
MIN_TOLERANCE = 10.0      # Lab units: the least distance a place may stray from its class
SPREAD_FACTOR = 4.0       # times a class's spread at calibration: how far a place may stray
FIND_LOOSE = np.inf        # the search at FIND_SIDE px a pitch: nearness to one class over the others only
OUTSIDE_LOOSE = 2.5       # times the tolerance: a place around the board this near a board class may be one
NEAR_STEPS = 2.5          # pitches this many steps from the calibration's share are tried first
SMALLEST = 40             # the least pitch tried is this share of the picture's short side (at least 6 px)
HUB = "h"                 # LYNE: the class of every hub, whatever its count (read from its holes: ``hub_count``)
HUB_SIDE = 64             # px a pitch a hub's holes are counted at
HUB_COUNTS = (2, 3, 4)    # the hub counts the game draws
NEAR_BODY = 15.0          # Lab units: at least this far from a hub's body is a hole
CORE = 0.5                # LYNE: a place is judged on the disc of this share of a node's radius round its middle
WEIGHTINGS = ("pairs", "kinds")     # the ways a place may be judged where the classes differ (``judged_part``)


@dataclass(frozen=True)
class Lattice:
    """``rows`` × ``cols`` places, (``x0``, ``y0``) the centre of place (0, 0), (``px``, ``py``)
    the pitch."""

    x0: float
    y0: float
    px: float
    py: float
    rows: int
    cols: int

    def centre(self, r: float, c: float) -> tuple[float, float]:
        return self.x0 + c * self.px, self.y0 + r * self.py

    def moved(self, dx: float = 0, dy: float = 0, kx: float = 1, ky: float = 1) -> "Lattice":
        """The lattice shifted by (dx, dy) and its pitch scaled by (kx, ky) about place (0, 0)."""
        return Lattice(self.x0 + dx, self.y0 + dy, self.px * kx, self.py * ky, self.rows, self.cols)

    def scaled(self, k: float) -> "Lattice":
        """The lattice in the picture resized by ``k`` (pixel centres at (x + 0.5) k - 0.5)."""
        return Lattice((self.x0 + 0.5) * k - 0.5, (self.y0 + 0.5) * k - 0.5, self.px * k, self.py * k, self.rows, self.cols)

    def sub(self, r0: int, c0: int, rows: int, cols: int) -> "Lattice":
        """The part of the lattice of ``rows`` × ``cols`` places from place (r0, c0)."""
        x, y = self.centre(r0, c0)
        return Lattice(x, y, self.px, self.py, rows, cols)


@dataclass(frozen=True)
class Rules:
    """How a game's boards sit on their lattice, beyond what a look shows: ``margin``, the
    pitches round the board a reading must see in the picture (the game's own margin: LYNE
    crops keep half a pitch); ``parts``, whether a board may come in parts with empty rows
    between (LYNE: no place of the lattice across the whole picture may look more like a
    node than like an empty place); ``check``, (the board read, the look) → why it is no
    level of the game ("" when it is one); ``hubs``, whether the board's digits are hubs
    whose count is read from their holes (LYNE: one class :data:`HUB` for every count, and
    a place no class explains may be a hub the calibration did not show); ``core``, whether
    the learner first tries judging a place on its node's core only (``judged_part``: LYNE,
    whose play draws paths between the nodes and rings round them); ``signs``, whether two
    board kinds may differ by a small sign only (one-stroke: a start marked by a letter or a
    star on a cell), so their tolerances reach further than half the way between them
    (``calibration.lattice.NEAR_SHARE``)."""

    margin: float = 1.0
    parts: bool = False
    check: Callable[[Any, Any], str] | None = None
    hubs: bool = False
    core: bool = False
    signs: bool = False


def _lyne_level(board: Any, look: "LearntLook") -> str:
    """Why a LYNE board read is no level ("" when it is one): a level has a solution."""
    from solvers.lyne import solve

    found = solve(board)
    return "" if found.solved else f"the nodes read make a level with no solution ({found.reason})"


def _onestroke_level(board: Any, look: "LearntLook") -> str:
    """Why a one-stroke board read is no level ("" when it is one): see ``level_reason``."""
    from vision.onestroke import level_reason

    return level_reason(board)


RULES = {"lyne": Rules(margin=0.5, parts=True, check=_lyne_level, hubs=True, core=True),
         "onestroke": Rules(check=_onestroke_level, signs=True)}


@dataclass(frozen=True)
class LearntLook:
    """What a profile teaches: the classes (board text characters), their templates (Lab,
    ``SIDE`` square) and how far a place of each class may stray from its template."""

    classes: tuple[str, ...]
    templates: np.ndarray       # (classes, SIDE, SIDE, 3) float32 Lab
    tolerance: np.ndarray       # (classes,) Lab units
    pitch_share: float | None = None    # the calibration's pitch over its picture's width
    rim: float = 0.0            # the share of a place's side at each edge not judged (``distances``)
    rules: Rules = field(default_factory=Rules)     # the game's (RULES)
    core: bool = False          # whether a place is judged on its node's core only (``judged_part``)
    weighted: str = ""          # how a place is judged where the classes differ (``WEIGHTINGS``), "" when not

    @property
    def board_classes(self) -> np.ndarray:
        return np.array([c != EMPTY for c in self.classes])

    @cached_property
    def node_radius(self) -> float:
        return node_disc(self.templates, self.classes)[0]

    @cached_property
    def judged(self) -> float | np.ndarray:
        """What of a place is judged (``distances``): its core, where the classes differ or all but its rim."""
        return judged_part(self.templates, self.classes, self.rim, self.core, self.weighted)


def node_disc(templates: np.ndarray, classes: tuple[str, ...] | list[str]) -> tuple[float, tuple[float, float]]:
    """The radius (template pixels) of a disc as large as a node of the board's kinds (not
    hubs) and their middle: from where their templates differ from the empty place's, an
    outline with its inside; 0 when the classes have no empty place or no node."""
    nodes = [i for i, c in enumerate(classes) if c not in (EMPTY, HUB)]
    if EMPTY not in classes or not nodes:
        return 0.0, (0.0, 0.0)
    empty = templates[list(classes).index(EMPTY)]
    shown = np.stack([_filled(np.sqrt(((templates[i] - empty) ** 2).sum(axis=-1)) > 20) for i in nodes])
    if not shown.any():
        return 0.0, (0.0, 0.0)
    ys, xs = np.nonzero(shown.any(axis=0))
    weights = shown.sum(axis=0)[ys, xs]
    return float(np.sqrt(shown.sum() / len(nodes) / np.pi)), (float(np.average(xs, weights=weights)),
                                                              float(np.average(ys, weights=weights)))


def _filled(mask: np.ndarray) -> np.ndarray:
    """A boolean mask with every hole of its shapes filled (an outline and its inside)."""
    contours, _ = cv2.findContours(mask.astype(np.uint8), cv2.RETR_EXTERNAL, cv2.CHAIN_APPROX_SIMPLE)
    filled = np.zeros(mask.shape, np.uint8)
    cv2.drawContours(filled, contours, -1, 1, -1)
    return filled > 0


def judged_part(templates: np.ndarray, classes: tuple[str, ...] | list[str], rim: float, core: bool,
                weighted: str = "") -> float | np.ndarray:
    """What of a place ``distances`` judges: its ``core``, the disc of :data:`CORE` of a
    node's radius round the nodes' middle (where play draws no path or ring; a mask of the
    template's pixels), every pixel ``weighted`` by how much the classes' templates differ
    there ("pairs": two classes' difference there against theirs on the whole, the most of
    any two, so a large sign on one kind does not drown two others' small difference;
    "kinds": the templates' scatter there) for a look told apart by thin strokes, such as
    outlines, whose difference the ground round them dilutes and whose ground may change
    across the picture (a gradient; weights of mean 1), or the place less its ``rim``."""
    if weighted == "kinds":
        weights = ((templates - templates.mean(axis=0)) ** 2).sum(axis=-1).mean(axis=0)
        return weights / max(float(weights.mean()), 1e-6)
    if weighted:
        weights = np.zeros(templates.shape[1:3])
        for i, j in itertools.combinations(range(len(templates)), 2):
            apart = ((templates[i] - templates[j]) ** 2).sum(axis=-1)
            weights = np.maximum(weights, apart / max(float(apart.mean()), 1e-6))
        return weights / max(float(weights.mean()), 1e-6)
    if core:
        radius, centre = node_disc(templates, classes)
        dist, _ = _rings(templates.shape[1], radius, centre)
        core = dist <= CORE * radius
        if core.sum() >= 9:
            return core
    return rim


def _rings(side: int, radius: float, centre: tuple[float, float] | None = None) -> tuple[np.ndarray, np.ndarray]:
    """For a patch ``side`` px square: every pixel's distance from ``centre`` (the patch's
    by default), and the ring from 0.55 to 0.85 of ``radius`` where a hub shows its body
    between its holes."""
    cx, cy = centre or ((side - 1) / 2, (side - 1) / 2)
    yy, xx = np.mgrid[0:side, 0:side]
    dist = np.hypot(xx - cx, yy - cy)
    return dist, (dist >= 0.55 * radius) & (dist <= 0.85 * radius)


def body_colours(look: LearntLook) -> np.ndarray:
    """Each class's body colour (Lab): the median of its template's ring (``_rings``)."""
    _, ring = _rings(SIDE, look.node_radius)
    return np.array([np.median(t[ring], axis=0) if ring.any() else t.mean(axis=(0, 1)) for t in look.templates])


def hub_count(patch: np.ndarray, radius: float, bodies: np.ndarray, look: LearntLook) -> int:
    """The count of a hub's holes in one place (``patch``: Lab, :data:`HUB_SIDE` px a pitch;
    ``radius``: a node's in that patch; ``bodies``: ``body_colours``), 0 when it is no hub
    clearly: a shape about a node's size standing out of the empty place's colour, its body
    one colour round its middle (not far from the hubs' when the calibration showed them),
    with 2 to 4 holes of about one size inside it (background, or filled by a path), about
    as far from its middle each and around it, nothing else reaching into it."""
    if EMPTY not in look.classes:
        return 0
    side = patch.shape[0]
    empty, hub = (np.array([c == kind for c in look.classes]) for kind in (EMPTY, HUB))
    fore = (np.sqrt(((patch - bodies[empty][0]) ** 2).sum(axis=-1)) > 2 * NEAR_BODY).astype(np.uint8)
    contours, _ = cv2.findContours(fore, cv2.RETR_EXTERNAL, cv2.CHAIN_APPROX_SIMPLE)
    if not contours:
        return 0
    shape = np.zeros_like(fore)         # the largest shape with its inside (a filled hub, or an outlined one)
    cv2.drawContours(shape, [max(contours, key=cv2.contourArea)], -1, 1, -1)
    m = cv2.moments(shape, binaryImage=True)
    if not 0.5 <= m["m00"] / (np.pi * radius ** 2) <= 2.0:
        return 0            # not a node's size
    centre = (m["m10"] / m["m00"], m["m01"] / m["m00"])
    dist, ring = _rings(side, radius, centre)
    body = np.median(patch[ring], axis=0)
    apart = np.sqrt(((bodies - body) ** 2).sum(axis=-1))
    if hub.any() and apart[hub].min() > 2 * NEAR_BODY:
        return 0        # (a body of the empty place's colour: an outlined hub, its holes dots inside)
    d = np.sqrt(((patch - body) ** 2).sum(axis=-1))
    near = d <= max(NEAR_BODY, 0.5 * float(np.percentile(d[dist <= 0.8 * radius], 97)))
    if near[ring].mean() < 0.7:
        return 0
    count = _holes((~near).astype(np.uint8), dist, radius, centre)
    if count >= 0:
        return count
    # something reaches in: a path drawn over the hub, thinner than its holes, is opened away; holes left
    # well larger than the opening (so none of their size was lost) are counted
    side = max(3, round(0.25 * radius)) | 1
    kernel = cv2.getStructuringElement(cv2.MORPH_ELLIPSE, (side, side))
    opened = cv2.morphologyEx((~near).astype(np.uint8), cv2.MORPH_OPEN, kernel)
    return max(0, _holes(opened, dist, radius, centre, least=3 * int(kernel.sum())))


def _holes(mask: np.ndarray, dist: np.ndarray, radius: float, centre: tuple[float, float], least: int = 0) -> int:
    """The count of a hub's holes in ``mask`` (its pixels off the body's colour; ``dist``
    from the hub's ``centre``): 0 when they are not 2 to 4 holes of about one size (each
    ``least`` px at least), about as far from the middle each and around it; -1 when
    something reaches into the hub from the patch's edge."""
    n, comp, stats, centroids = cv2.connectedComponentsWithStats(mask, connectivity=4)
    side = mask.shape[0]
    areas, spots = [], []
    for i in range(1, n):
        x, y, w, h, area = stats[i]
        if dist[comp == i].min() > 0.7 * radius:
            continue        # round the hub, not in it
        if x == 0 or y == 0 or x + w == side or y + h == side:
            return -1       # something reaching in from outside: a path, a pointer
        areas.append(area)
        spots.append(centroids[i] - centre)
    if len(areas) not in HUB_COUNTS or max(areas) > 2.5 * min(areas) or min(areas) < least:
        return 0
    reach = np.hypot(*np.array(spots).T)
    if np.hypot(*np.mean(spots, axis=0)) > 0.2 * radius or reach.max() - reach.min() > 0.25 * radius:
        return 0
    return len(areas)


def hub_counts(picture: Picture, lat: Lattice, look: LearntLook, which: np.ndarray) -> np.ndarray:
    """``hub_count`` of every place of ``lat`` (in the picture) where ``which``, 0 elsewhere."""
    counts = np.zeros(which.shape, int)
    if not which.any():
        return counts
    patches = places(picture, lat, HUB_SIDE)
    radius, bodies = look.node_radius * HUB_SIDE / SIDE, body_colours(look)
    for r, c in np.argwhere(which):
        counts[r, c] = hub_count(patches[r, c], radius, bodies, look)
    return counts


def lab(image: np.ndarray) -> np.ndarray:
    """The picture in OpenCV's 8-bit Lab, as float32 (distances in Lab units)."""
    return cv2.cvtColor(image, cv2.COLOR_BGR2LAB).astype(np.float32)


class Picture:
    """A screenshot seen at any scale in Lab: halved once per octave (BGR, by area) and only
    the view a scale needs converted, so a 1080p frame is never converted whole."""

    def __init__(self, image: np.ndarray) -> None:
        self.levels = [image]
        self.views: dict[float, np.ndarray] = {}

    def at(self, k: float) -> np.ndarray:
        """The picture resized by ``k`` (by area when smaller), in Lab as :func:`lab`."""
        if k not in self.views:
            level = 0
            while k * 2 ** (level + 1) <= 1 and min(self.levels[level].shape[:2]) >= 4:
                if level + 1 == len(self.levels):
                    self.levels.append(cv2.resize(self.levels[-1], None, fx=0.5, fy=0.5, interpolation=cv2.INTER_AREA))
                level += 1
            g = k * 2 ** level
            base = self.levels[level]
            self.views[k] = lab(base if g == 1 else cv2.resize(
                base, None, fx=g, fy=g, interpolation=cv2.INTER_AREA if g < 1 else cv2.INTER_LINEAR))
        return self.views[k]


@dataclass
class Seen:
    """A screenshot as read with looks of the same templates and classes (the learner's
    read-backs of one lattice, judged each way): its views, the rough lattice each pitch
    gives (``_rough``) and the lattices fitted, which do not depend on how a place is judged."""
    picture: Picture
    rough: dict[float, tuple[float, Lattice] | None] = field(default_factory=dict)
    fitted: dict[float, dict[Lattice, Lattice]] = field(default_factory=dict)    # by view: ``_settle``'s fits


def places(picture: Picture, lat: Lattice, side: int = SIDE) -> np.ndarray:
    """:func:`mosaic` of the lattice's places from the picture's view at ``side`` px a pitch."""
    k = side / min(lat.px, lat.py)
    view = picture.at(k)
    return mosaic(view, lat.scaled(k), side, view=(view, 1.0))


def reduced(image_lab: np.ndarray, pitch: float, side: int = SIDE) -> tuple[np.ndarray, float]:
    """The picture resized to ``side`` px a pitch (by area when smaller, so a thin line
    still shows as a paler one: every scale is sampled alike), and the scale."""
    k = side / pitch
    return cv2.resize(image_lab, None, fx=k, fy=k, interpolation=cv2.INTER_AREA if k < 1 else cv2.INTER_LINEAR), k


def mosaic(image_lab: np.ndarray, lat: Lattice, side: int = SIDE, view: tuple[np.ndarray, float] | None = None
           ) -> np.ndarray:
    """One pitch around every place, resampled to ``side`` × ``side``: (rows, cols, side,
    side, channels); places past the picture's edge repeat its border. ``view``: the picture
    already ``reduced`` for about this pitch."""
    image_lab, k = view or reduced(image_lab, min(lat.px, lat.py), side)
    u = (np.arange(side, dtype=np.float32) + 0.5) / side - 0.5
    xs = ((lat.x0 + (np.arange(lat.cols)[:, None] + u[None, :]) * lat.px + 0.5) * k - 0.5).reshape(1, -1)
    ys = ((lat.y0 + (np.arange(lat.rows)[:, None] + u[None, :]) * lat.py + 0.5) * k - 0.5).reshape(-1, 1)
    mapx = np.broadcast_to(xs, (ys.size, xs.size)).astype(np.float32)
    mapy = np.broadcast_to(ys, (ys.size, xs.size)).astype(np.float32)
    out = cv2.remap(image_lab, mapx, mapy, cv2.INTER_LINEAR, borderMode=cv2.BORDER_REPLICATE)
    out = cv2.GaussianBlur(out, (3, 3), 0)
    return out.reshape(lat.rows, side, lat.cols, side, -1).transpose(0, 2, 1, 3, 4)


def distances(patches: np.ndarray, templates: np.ndarray, rim: float | np.ndarray = 0.0) -> np.ndarray:
    """RMS Lab distance of every patch (..., side, side, 3) to every template: (..., classes),
    over the patches' inner part (the outer ``rim`` share of each side, where a neighbour's
    edge may show, left out), or over the pixels of ``rim`` when it is a mask, or weighted by
    it when it holds numbers of mean 1 (``judged_part``)."""
    lead = patches.shape[:-3]
    if isinstance(rim, np.ndarray) and rim.dtype != bool:
        root = np.sqrt(rim)[:, :, None]
        patches, templates = patches * root, templates * root
    elif isinstance(rim, np.ndarray):
        patches, templates = patches[..., rim, :], templates[:, rim, :]
    else:
        m = round(rim * patches.shape[-2])
        inner = (slice(m, patches.shape[-3] - m), slice(m, patches.shape[-2] - m))
        patches, templates = patches[(..., *inner, slice(None))], templates[(slice(None), *inner, slice(None))]
    tpl = templates.reshape(len(templates), -1).astype(np.float64)
    flat = patches.reshape(-1, tpl.shape[1]).astype(np.float64)
    squared = (flat ** 2).sum(axis=1)[:, None] + (tpl ** 2).sum(axis=1)[None] - 2 * flat @ tpl.T
    return np.sqrt(np.maximum(squared, 0) / flat.shape[1]).reshape(*lead, len(templates))


def separations(templates: np.ndarray, rim: float | np.ndarray = 0.0) -> np.ndarray:
    """Each class's distance to the nearest other class's template (inf for a lone class)."""
    d = distances(templates, templates, rim)
    np.fill_diagonal(d, np.inf)
    return d.min(axis=1)


def verdicts(d: np.ndarray, look: LearntLook, loose: float = 1.0) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """(nearest class, whether it is clear, margin) for distances (..., classes): clear when
    within the class's tolerance (times ``loose``) and well nearer than any other class; the
    margin, 0 to 1, how much nearer (the next class's distance less the nearest's, over their sum)."""
    nearest = d.argmin(axis=-1)
    ordered = np.partition(d, 1, axis=-1)
    own, second = ordered[..., 0], ordered[..., 1]
    clear = (own <= loose * look.tolerance[nearest]) & (own <= CLEAR_SHARE * (own + second))
    return nearest, clear, (second - own) / np.maximum(second + own, 1e-6)


def fit_places(image_lab: np.ndarray, lat: Lattice, cost: Any, rounds: int = 3,
               view: tuple[np.ndarray, float] | None = None, side: int = SIDE) -> Lattice:
    """The lattice moved and stretched, a little at a time, to lower ``cost(mosaic)``;
    ``view`` and ``side`` as for :func:`mosaic`."""
    view = view or reduced(image_lab, min(lat.px, lat.py), side)
    best, best_cost = lat, cost(mosaic(image_lab, lat, side, view=view))
    for step in (1 / 8, 1 / 16, 1 / 32, 1 / 64)[:rounds + 1]:
        moves = ({"dx": step * lat.px}, {"dx": -step * lat.px}, {"dy": step * lat.py}, {"dy": -step * lat.py},
                 {"kx": 1 + step / max(1, lat.cols)}, {"kx": 1 - step / max(1, lat.cols)},
                 {"ky": 1 + step / max(1, lat.rows)}, {"ky": 1 - step / max(1, lat.rows)})
        improved, passes = True, 0
        while improved and passes < FIT_PASSES:
            improved, passes = False, passes + 1
            for move in moves:
                trial = best.moved(**move)
                if trial.px <= 2 or trial.py <= 2:
                    continue
                c = cost(mosaic(image_lab, trial, side, view=view))
                if c < best_cost - 1e-6:
                    best, best_cost, improved = trial, c, True
    return best


# ---------------------------------------------------------------------------- the profile

def look_of(profile: Profile) -> LearntLook:
    """The learnt look a profile holds; ProfileError naming the field when one is malformed."""
    section = profile.get("lattice", dict)
    version = section.get("version")
    if version != LATTICE_VERSION:
        raise ProfileError(f"profile {profile.name}: field 'lattice.version' is {version!r}; this puzzlepilot "
                           f"reads version {LATTICE_VERSION} (calibrate again)")
    classes = section.get("classes")
    tolerance = section.get("tolerance")
    if (not isinstance(classes, list) or len(classes) < 2 or not all(isinstance(c, str) and len(c) == 1 for c in classes)
            or len(set(classes)) != len(classes)):
        raise ProfileError(f"profile {profile.name}: field 'lattice.classes' must list two or more "
                           f"different board characters, not {classes!r}")
    if (not isinstance(tolerance, list) or len(tolerance) != len(classes)
            or not all(isinstance(t, (int, float)) and not isinstance(t, bool) and 0 < t < 500 for t in tolerance)):
        raise ProfileError(f"profile {profile.name}: field 'lattice.tolerance' must be one number above 0 per class")
    if RULES.get(profile.game, Rules()).hubs and any(c.isdigit() for c in classes):
        raise ProfileError(f"profile {profile.name}: its hubs were learnt one class per count, which misreads counts "
                           "it did not show; calibrate again (hubs are now counted by their holes)")
    strip = profile.template("classes")
    if strip.shape[:2] != (SIDE, SIDE * len(classes)):
        raise ProfileError(f"profile {profile.name}: template 'templates.classes' must be {SIDE * len(classes)}×{SIDE} px "
                           f"(one {SIDE} px square per class)")
    templates = lab(strip).reshape(SIDE, len(classes), SIDE, 3).transpose(1, 0, 2, 3)
    share = section.get("pitch_share")
    if share is not None and not (isinstance(share, list) and len(share) == 2 and all(
            isinstance(v, (int, float)) and not isinstance(v, bool) and 0 < v <= 1 for v in share)):
        raise ProfileError(f"profile {profile.name}: field 'lattice.pitch_share' must be two numbers in (0, 1]")
    rim = section.get("rim", 0.0)
    if not (isinstance(rim, (int, float)) and not isinstance(rim, bool) and 0 <= rim < 0.25):
        raise ProfileError(f"profile {profile.name}: field 'lattice.rim' must be a number in [0, 0.25)")
    core = section.get("core", False)
    if not isinstance(core, bool):
        raise ProfileError(f"profile {profile.name}: field 'lattice.core' must be true or false")
    weighted = section.get("weighted", "")
    if weighted not in ("", *WEIGHTINGS):
        raise ProfileError(f"profile {profile.name}: field 'lattice.weighted' must be one of {', '.join(WEIGHTINGS)}")
    return LearntLook(tuple(classes), np.ascontiguousarray(templates), np.array(tolerance, np.float64),
                      None if share is None else float(min(share)), float(rim), RULES.get(profile.game, Rules()), core,
                      weighted)


def is_learnt(profile: Profile | None) -> bool:
    """Whether a profile holds a learnt lattice look (read by :func:`parse`)."""
    return profile is not None and "lattice" in profile.data


# ---------------------------------------------------------------------------- reading

def _pitches(h: int, w: int) -> list[float]:
    """The pitches tried, from half the picture's short side down to 1/SMALLEST of it (at
    least 6 px)."""
    pitches, pitch = [], min(h, w) / 2
    while pitch >= max(6.0, min(h, w) / SMALLEST):
        pitches.append(pitch)
        pitch /= PITCH_STEP
    return pitches


def _rough(picture: Picture, look: LearntLook, small_templates: np.ndarray,
           pitch: float) -> tuple[float, Lattice] | None:
    """The rough lattice at one pitch: the phase where most places are clearly a board
    class, and the block of such places (each within two places of another) that holds
    the most, with the sum of their margins; None when fewer than two places are."""
    f = FIND_SIDE / pitch
    small = picture.at(f)
    if min(small.shape[:2]) < 2 * FIND_SIDE:
        return None
    d = np.stack([np.sqrt(np.maximum(cv2.matchTemplate(small, t, cv2.TM_SQDIFF), 0) / (3 * FIND_SIDE ** 2))
                  for t in small_templates], axis=-1)
    d = cv2.erode(d, np.ones((3, 3), np.uint8)) if d.shape[-1] <= 4 else d
    nearest, clear, margin = verdicts(d, look, FIND_LOOSE)
    strong = clear & look.board_classes[nearest]
    gh, gw = strong.shape[0] // FIND_SIDE, strong.shape[1] // FIND_SIDE
    if gh < 1 or gw < 1:
        return None
    margin = np.where(strong, margin, 0)
    counts = margin[:gh * FIND_SIDE, :gw * FIND_SIDE].reshape(gh, FIND_SIDE, gw, FIND_SIDE).sum(axis=(0, 2))
    oy, ox = np.unravel_index(int(counts.argmax()), counts.shape)
    grid = strong[oy::FIND_SIDE, ox::FIND_SIDE].astype(np.uint8)
    n, comp, stats, _ = cv2.connectedComponentsWithStats(cv2.dilate(grid, np.ones((3, 3), np.uint8)), connectivity=8)
    if n < 2:
        return None
    members = (comp == 1 + int(stats[1:, cv2.CC_STAT_AREA].argmax())) & (grid > 0)
    rows, cols = np.nonzero(members)
    if len(rows) < 2:
        return None
    step = 1 / f
    return float(margin[oy::FIND_SIDE, ox::FIND_SIDE][members].sum()), Lattice((ox + cols.min() * FIND_SIDE + FIND_SIDE / 2 + 0.5) * step - 0.5,
                   (oy + rows.min() * FIND_SIDE + FIND_SIDE / 2 + 0.5) * step - 0.5,
                   step * FIND_SIDE, step * FIND_SIDE, int(rows.max() - rows.min() + 1), int(cols.max() - cols.min() + 1))


def _align(view: np.ndarray, lat: Lattice, look: LearntLook, templates: np.ndarray) -> Lattice:
    """The lattice (in ``view``, about the ``templates``' side a pitch) re-estimated from
    where a board class matches best within a quarter pitch of each place's centre: a line fitted through
    those spots by column and by row. The lattice as it was when fewer than two columns or
    rows of places are clearly a board class."""
    side = templates.shape[1]
    x0, y0 = lat.centre(-1, -1)
    left, top = max(0, int(x0 - side)), max(0, int(y0 - side))
    right = min(view.shape[1], int(x0 + (lat.cols + 1) * lat.px + side) + 1)
    bottom = min(view.shape[0], int(y0 + (lat.rows + 1) * lat.py + side) + 1)
    crop = view[top:bottom, left:right]
    if crop.shape[0] <= side or crop.shape[1] <= side:
        return lat
    d = np.stack([cv2.matchTemplate(crop, t, cv2.TM_SQDIFF) for t in templates], axis=-1)
    best = np.where(look.board_classes, d, np.inf).min(axis=-1)
    reach = max(1, int(min(lat.px, lat.py) / 4))
    spots = []
    for r in range(lat.rows):
        for c in range(lat.cols):
            cx, cy = lat.centre(r, c)
            x, y = int(round(cx - left - side / 2 + 0.5)), int(round(cy - top - side / 2 + 0.5))
            if not (0 <= x - reach and x + reach < best.shape[1] and 0 <= y - reach and y + reach < best.shape[0]):
                continue
            window = best[y - reach:y + reach + 1, x - reach:x + reach + 1]
            wy, wx = np.unravel_index(int(window.argmin()), window.shape)
            own = d[y - reach + wy, x - reach + wx]
            nearest, clear, _ = verdicts(np.sqrt(np.maximum(own, 0) / (3 * side ** 2)), look, FIND_LOOSE)
            if clear and look.board_classes[nearest]:
                spots.append((r, c, left + x - reach + wx + side / 2 - 0.5, top + y - reach + wy + side / 2 - 0.5))
    if len({s[1] for s in spots}) < 2 or len({s[0] for s in spots}) < 2:
        return lat
    r, c, x, y = np.array(spots, np.float64).T
    px, ox = np.polyfit(c, x, 1)
    py, oy = np.polyfit(r, y, 1)
    return Lattice(float(ox), float(oy), float(px), float(py), lat.rows, lat.cols)


def nearest_cost(templates: np.ndarray) -> Callable[[np.ndarray], float]:
    """A lattice fit's cost: how far its places (a mosaic) are, on average, from their nearest template."""
    return lambda m: float(distances(m, templates).min(axis=-1).mean())


def _settle(view: np.ndarray, half: np.ndarray, lat: Lattice, look: LearntLook, half_templates: np.ndarray,
            largest: tuple[int, int] = (MOST_PLACES, MOST_PLACES), fitted: dict[Lattice, Lattice] | None = None
            ) -> tuple[Lattice, np.ndarray, np.ndarray]:
    """The lattice fitted to its places (each as near its nearest class as can be, at half
    the templates' side) and grown or shrunk to the board places' extent, no board when it
    grows past ``largest`` rows or columns; with the nearest class and clearness of every
    place of a one-place ring around it. ``view``: the picture at about ``SIDE`` px a pitch,
    which the lattice is in; ``half``: at half that; ``fitted``: each lattice's fit in this
    view with these templates, as found before (it does not depend on how a place is judged)."""
    cost = nearest_cost(look.templates)

    def fit(lat: Lattice) -> Lattice:
        aligned = _align(half, lat.scaled(0.5), look, half_templates).scaled(2)
        if cost(mosaic(view, aligned, view=(view, 1.0))) < cost(mosaic(view, lat, view=(view, 1.0))):
            lat = aligned
        return fit_places(view, lat, cost, FIT_ROUNDS, view=(view, 1.0))

    fitted = {} if fitted is None else fitted
    start = lat
    for _ in range(SETTLE_ROUNDS):
        if lat not in fitted:
            fitted[lat] = fit(lat)
        lat = fitted[lat]
        ring = lat.sub(-1, -1, lat.rows + 2, lat.cols + 2)
        nearest, clear, _ = verdicts(distances(mosaic(view, ring, view=(view, 1.0)), look.templates, look.judged), look)
        on = clear & look.board_classes[nearest]
        rows, cols = np.nonzero(on)
        if len(rows) == 0:
            break
        r0, r1, c0, c1 = rows.min(), rows.max(), cols.min(), cols.max()
        if (r0, c0, r1, c1) == (1, 1, lat.rows, lat.cols):
            return lat, nearest, clear
        lat = ring.sub(r0, c0, r1 - r0 + 1, c1 - c0 + 1)
        if lat.rows > largest[0] or lat.cols > largest[1] or max(abs(math.log(lat.px / start.px)),
                                                                 abs(math.log(lat.py / start.py))) > DRIFT:
            break
    raise NoBoardFound("the learnt look's places make no steady grid")


def _around(lat: Lattice, h: int, w: int, whole: bool) -> tuple[tuple[int, int], Lattice]:
    """The lattice one place wider than the board on every side (``whole``: and over every
    place of the picture) and where the board's place (0, 0) is on it."""
    r0, c0 = 1, 1
    if whole:
        r0 = max(1, int(np.floor(lat.y0 / lat.py)))
        c0 = max(1, int(np.floor(lat.x0 / lat.px)))
    rows = max(lat.rows + 1, int(np.floor((h - 1 - lat.y0) / lat.py)) + 1 if whole else 0) + r0
    cols = max(lat.cols + 1, int(np.floor((w - 1 - lat.x0) / lat.px)) + 1 if whole else 0) + c0
    return (r0, c0), lat.sub(-r0, -c0, rows, cols)


def _judge(view: np.ndarray, lat: Lattice, nearest: np.ndarray, clear: np.ndarray, look: LearntLook) -> str:
    """Why a settled lattice (in ``view``, as for :func:`_settle`) is no board ("" when it
    is one): a place no class explains, a board that may go on past the picture's edge, a
    place around it that could be a board's."""
    h, w = view.shape[:2]
    inner_clear = clear[1:-1, 1:-1]
    if not inner_clear.all():
        r, c = np.argwhere(~inner_clear)[0]
        return f"place ({r}, {c}) of the board looks like none of the learnt kinds"
    m = look.rules.margin
    (left, top), (right, bottom) = lat.centre(-m, -m), lat.centre(lat.rows - 1 + m, lat.cols - 1 + m)
    if left < 0 or top < 0 or right > w - 1 or bottom > h - 1:
        return "the board may go on past the picture's edge"
    (r0, c0), around = _around(lat, h, w, look.rules.parts)
    d = distances(mosaic(view, around, view=(view, 1.0)), look.templates, look.judged)
    ring = np.ones(d.shape[:2], bool)
    ring[r0:r0 + lat.rows, c0:c0 + lat.cols] = False
    nearest_out = d.argmin(axis=-1)
    own = d.min(axis=-1)
    near_board = (d <= look.tolerance)[..., look.board_classes].any(axis=-1)
    ys, xs = around.y0 + np.arange(around.rows) * around.py, around.x0 + np.arange(around.cols) * around.px
    hy, hx = around.py / 2, around.px / 2
    seen = ((ys >= hy) & (ys <= h - 1 - hy))[:, None] & ((xs >= hx) & (xs <= w - 1 - hx))[None, :]
    # parts: a place the picture shows whole that is nearer a node than an empty place is a node, however far off
    # the look (a place cut by the picture's edge, where a window's frame may be, only when near a node's look)
    loose = np.where(seen & look.rules.parts, np.inf, OUTSIDE_LOOSE)
    like_board = look.board_classes[nearest_out] & (own <= loose * look.tolerance[nearest_out])
    if (ring & (near_board | like_board)).any():
        return "a place just outside the board could be part of it"
    return ""


def read_classes(image: np.ndarray, look: LearntLook, valid: Any = None, anywhere: bool = True,
                 most: int = 1 + MOST_TRIED, size: tuple[int, int] | None = None,
                 seen: Seen | None = None) -> tuple[Lattice, list[str]]:
    """The lattice of the board in a screenshot and its rows of class characters; ``valid``
    (rows → why they are no board, "" when they are one) judges a reading by the game's
    rules. The pitches near the calibration's (its share of the picture's width) are tried
    first, the rough lattice that holds the most board places most clearly settled and
    judged; when it is no board, every pitch gives a rough lattice, and they are settled and
    judged, the one whose board places cover the most of the picture most clearly first.
    The first lattice whose every place is clear is the reading; NoBoardFound with the
    reason when none is, or saying it gave up when ``most`` lattices were settled and more
    were left. Not ``anywhere``: the pitches near the calibration's only. ``size``: the rows
    and columns of the board when they are known (the learner's read-back of its
    screenshot): a lattice that grows past them and a place round them is no board.
    ``seen``: the screenshot as read before with looks of these templates."""
    seen = seen or Seen(Picture(image))
    picture = seen.picture
    small_templates = np.stack([cv2.resize(t, (FIND_SIDE, FIND_SIDE), interpolation=cv2.INTER_AREA)
                                for t in look.templates])
    half_templates = np.stack([cv2.resize(t, (SIDE // 2, SIDE // 2), interpolation=cv2.INTER_AREA)
                               for t in look.templates])
    pitches = _pitches(*image.shape[:2])
    near = 0
    if look.pitch_share:
        off = {p: abs(math.log(p / (look.pitch_share * image.shape[1]))) for p in pitches}
        pitches.sort(key=off.__getitem__)
        near = sum(off[p] <= NEAR_STEPS * math.log(PITCH_STEP) for p in pitches)
    rough: list[tuple[float, Lattice]] = []
    reasons: list[str] = []
    tried: list[Lattice] = []
    largest = (MOST_PLACES, MOST_PLACES) if size is None else (size[0] + 2, size[1] + 2)

    def attempt(candidate: Lattice) -> tuple[Lattice, list[str]] | None:
        tried.append(candidate)
        k = SIDE / min(candidate.px, candidate.py)
        view = picture.at(k)
        try:
            lat, nearest, clear = _settle(view, picture.at(k / 2), candidate.scaled(k), look, half_templates, largest,
                                          seen.fitted.setdefault(k, {}))
        except NoBoardFound as exc:
            reasons.append(str(exc))
            return None
        chars = np.array(look.classes)[nearest]
        if look.rules.hubs:     # a hub's count from its holes: a place of the hub class, or one no class explains
            ring = lat.sub(-1, -1, lat.rows + 2, lat.cols + 2).scaled(1 / k)
            counts = hub_counts(picture, ring, look, ~clear | (chars == HUB))
            if counts[[0, -1]].any() or counts[:, [0, -1]].any():
                reasons.append("a hub just outside the board could be part of it")
                return None
            clear = np.where(chars == HUB, counts > 0, clear | (counts > 0))
            chars = np.where(counts > 0, counts.astype(str), chars)
        rows = ["".join(row) for row in chars[1:-1, 1:-1]]
        reason = _judge(view, lat, nearest, clear, look) or (valid(rows) if valid else "")
        if reason:
            reasons.append(reason)
            return None
        return lat.scaled(1 / k), rows

    def at(pitch: float) -> tuple[float, Lattice] | None:
        if pitch not in seen.rough:
            seen.rough[pitch] = _rough(picture, look, small_templates, pitch)
        return seen.rough[pitch]

    def best(found: list[tuple[float, Lattice]]) -> list[Lattice]:
        return [lat for _, lat in sorted(found, key=lambda item: -item[0] * item[1].px * item[1].py)]

    for stage, count in ((pitches[:near], 1), (pitches[near:], MOST_TRIED))[:2 if anywhere else 1]:
        rough += [found for pitch in stage if (found := at(pitch))]
        for candidate in [lat for lat in best(rough)
                          if lat not in tried and lat.rows * lat.cols <= MOST_SETTLED][:count]:
            if len(tried) == most:
                raise NoBoardFound(f"the learnt look reads no board: gave up after {most} lattices ({reasons[0]})")
            if (read := attempt(candidate)):
                return read
    raise NoBoardFound(f"the learnt look reads no board: {reasons[0] if reasons else 'no grid of its places'}")


def validity(game: str, board_type: Any, look: LearntLook) -> Callable[[list[str]], str]:
    """Rows read → why they are no board of ``game`` (its ``Board`` type: ``from_text``;
    the look's rules' check), "" when they are one."""
    def valid(rows: list[str]) -> str:
        try:
            board = board_type.from_text("\n".join(rows))
        except ValueError as exc:
            return f"the places read make no {game} board ({exc})"
        return look.rules.check(board, look) if look.rules.check else ""
    return valid


def parse(game: str, board_type: Any, image: np.ndarray, profile: Profile) -> Parse[Any]:
    """Read a board of ``game`` (its ``Board`` type: ``from_text``) with a learnt profile."""
    profile.expect_game(game)
    if game in READERS:
        return READERS[game](image, profile)
    look = look_of(profile)
    lat, rows = read_classes(image, look, validity(game, board_type, look))
    board = board_type.from_text("\n".join(rows))
    cells = [lat.centre(r, c) for r in range(lat.rows) for c in range(lat.cols)]
    return Parse(game, board, 1.0, cells, GEOMETRY[game](lat))


def _onestroke_geometry(lat: Lattice) -> Any:
    from vision.onestroke import OnestrokeGeometry

    return OnestrokeGeometry((lat.x0, lat.y0), (lat.px, lat.py), 0.9 * min(lat.px, lat.py), lat.rows, lat.cols)


def _lyne_geometry(lat: Lattice) -> Any:
    """The places of a learnt LYNE look (a node about 0.7 of a pitch, as the game draws them);
    it knows no colours, so the overlay draws in its own."""
    from vision.lyne import LyneGeometry

    pitch = (lat.px + lat.py) / 2
    (x0, y0), (x1, y1) = lat.centre(-0.5, -0.5), lat.centre(lat.rows - 0.5, lat.cols - 0.5)
    return LyneGeometry(pitch, (lat.x0, lat.y0), lat.rows, lat.cols, 0.7 * pitch, (x0, y0, x1, y1), (0, 0, 0), {})


GEOMETRY = {"onestroke": _onestroke_geometry, "lyne": _lyne_geometry}


def _klotski(image: np.ndarray, profile: Profile) -> Parse[Any]:
    from vision import klotski_lattice

    return klotski_lattice.parse(image, profile)


READERS = {"klotski": _klotski}     # games whose learnt look has a reader of its own: pieces, not classes
