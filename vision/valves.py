"""Valves (Machinarium): find the known scene in a screenshot and read which valves are shut.

The valve puzzle is one fixed picture, so its graph and valve positions come from a
calibration profile (``vision/profile.py``; the shipped one is our own sewer scene,
``vision/data/valves/sewer``). A valves profile's ``profile.json`` holds::

    {"version": 1, "game": "valves", "name": "sewer",
     "graph": "inlet: X/outlet: Y/wrenches: 3/X G/...",      # board text, docs/games.md#valves-board
     "inlet": [x, y], "outlet": [x, y],                       # in the reference picture
     "valves": {"A": [x, y], ...},                            # every valve of the graph
     "valve_size": 50,                                        # side of the valve crops
     "reference_shut": [],        # valves shown shut in reference.png
     "shut_look": "template",     # or "red wrench" (no closed.png; see stage 2b)
     "close": "click",            # or "wrench-then-click" with "wrench": [x, y]
     "templates": {"reference": "reference.png", "open": "open.png", "closed": "closed.png"}}

Stages:

1. ``locate``: grey template matching of the reference picture, coarse over scales from
   the largest that fits down to a quarter of it with the template 96 px wide, then at up
   to 240 px around the best place and scale, to a half-percent of scale (pictures of
   anything else score ≤ 0.3 here and stop after the coarse sweep). With no profile the
   first look (``glimpse``) says which scene to read first and near which scale the
   coarse sweep starts (``_sweep``: its answer is the full sweep's);
2. ``read_valves``: at full resolution, each valve's square is compared (zero-mean
   correlation inside the wheel's disc, colour) with its own open look — cropped from the
   reference picture, where it is open, so valves drawn differently each match their own
   — and with the closed crop; the nearer look wins, and a valve like neither means this
   is not the scene. Valves shut in the reference use the generic open crop;
2b. ``read_wrenches`` (``"shut_look": "red wrench"``, a reference with every valve open,
   as the player's screenshot of Machinarium's painted panel, where a closed valve carries
   a red wrench): ``locate`` seeks the reference less an INSET margin (a crop may cut the
   player's loose box) with a 64 px coarse and a smaller fine template, and when that
   scores under SURE_MATCH also the valves' part alone (a crop may cut the panel too),
   keeping the better; wrench red is greyed out of the image it matches (``_grey``). Each
   valve is sought near its mapped place with its own open look, and the open valves
   found refine scale and offset. The part of the scene the image shows is compared with
   the reference at a working scale (valves WORK_CROP px): a pixel differs when its Lab
   colour lies outside the range of its reference 3×3 neighbourhood (a pixel of
   misalignment or blur is no difference). A valve is closed when solid new red
   (WRENCH_BODY thick) covers WRENCH_COVER of its disc, a straight handle leaves it
   (``_handle``; it may run out of the picture or into another wrench's head) and an open
   jaw grips it (``_mouth``: the valve's middle shows through a mouth away from the
   handle). A jaw that another wrench's handle hides (wrenches hung the same way along a
   row, each handle in the next one's mouth) reads when that wrench hangs the same way,
   its own jaw was seen, and the mouth shows its handle's shading. The other valves are open
   when their middle matches and shows no new red, but where a found wrench's head or
   handle lies over them. Anything else there (a marker's blob, a squiggle, a painted
   disc with a bar, a patch), or a difference anywhere in the scene off the wrenches
   found, refuses the picture. (Which wrench the game hangs is not known from any public
   picture: the one drawn by ``scenes.valves.draw_wrench`` is a guess, and any other look
   is refused, not read.)
3. ``fit``: the scale and offset that put the profile's valves on the wheels found, by
   least squares, for the points that are not valves (inlet, outlet, wrench).

Cost: 15–40 ms for a 1920×1080 screenshot on two busy cores; the real panel (800×800,
red wrench profile, three wrenches) about 20 ms CPU, 34 ms wall on two very busy cores
(``puzzlepilot bench valves``). With no profile a picture of neither of our scenes is
refused at a first look at both (``glimpse``), about 12 ms CPU at 1920×1080 (both full
sweeps: 38 ms).
"""
from __future__ import annotations

import functools
import math
from dataclasses import dataclass, field, replace
from pathlib import Path
from typing import Any

import cv2
import numpy as np

from solvers.common import BoardError
from solvers.valves import Board
from vision.common import NoBoardFound, Parse, marked, stage
from vision.profile import Profile, ProfileError, read_folder

SHIPPED = Path(__file__).resolve().parent / "data" / "valves" / "sewer"
PAINTED = SHIPPED.parent / "painted"    # our painted panel (``scenes.valves.render_panel``)
COARSE_WIDTH = 96           # template width of the coarse scale sweep (drawn scenes) …
COARSE_PAINTED = 64         # … and for red wrench profiles (painted panels, blurry photos)
GLIMPSE_WIDTH = 32          # no profile: a first look for either scene, templates this wide, …
GLIMPSE_STEP = 1.12         # … scales this far apart, …
GLIMPSE_LEAST = 0.45        # … and the likeness under which neither scene is there
FINE_WIDTH = 240            # template width of the refinement
SMALLEST = 0.25             # the scene may be this share of the largest size that fits
MIN_SCENE = 240             # … and no narrower than this many pixels
MIN_COARSE = 0.4            # coarse correlation worth refining (other pictures: ≤ 0.3) …
COARSE_SURE = 0.75          # … and one that ends the sweep once past (the scene peaks at 0.85+)
NEAR_STEPS = 3              # a sweep seeded by the first look starts this many scales above its scale
MIN_MATCH = 0.55            # refined correlation with the reference picture …
SURE_MATCH = 0.8            # … and one no other part need be sought for (the scene scores 0.9+) …
NOTHING_LIKE = 0.3          # … or none, when the first part is as unlike as other pictures are
MIN_VALVE = 0.5             # a valve's correlation with the look it is said to have
MIN_GAP = 0.05              # … and how much nearer that look must be than the other
WORK_CROP = 36              # red wrench looks: a valve crop's side at the working scale
CHANGED = 14.0              # Lab distance outside the reference neighbourhood's range
NEW_RED = 14.0              # a* gained over the reference by a wrench's red …
RED_A = 28.0                # … to at least this a* (copper pipes reach ~20), …
RED_B = 10.0                # … with b* at least this (red is yellowish; blue and magenta have a* too)
WRENCH_COVER = 0.35         # share of a valve's disc (radius 0.45 crop) a wrench covers …
WRENCH_BODY = 0.3           # … with red at least this share of a valve crop thick …
HANDLE_REACH = 1.8          # … and a straight handle reaching this many valve widths out …
HANDLE_SPREAD = 0.2         # … straight: off the line from the valve's middle, in valve widths
SHORT_HANDLE = 0.03         # the least red of a handle that runs into another head or out of the picture (body widths²)
WRENCH_EDGE = 2             # a wrench's dark outline around its red, working pixels
MOUTH_RED = 0.25            # the most red in a wrench's mouth (and the least off its jaws)
HIDDEN_JAW = "another wrench's handle hides its jaw"
HANG_TURN = math.radians(12)    # a wrench whose handle hides another's jaw hangs the same way, to this
SHADED = 10.0               # … and shows its handle's shading in the mouth (flat paint: ≤ 2)
WRENCH_SURE = 0.5           # a wrench's cover taken as certain (confidence 1)
OPEN_RED = 0.06             # the most new red an open valve's disc may show
OPEN_CHANGED = 0.12         # most of a valve's middle (radius 0.22 crop) that may differ when open
INSET = 0.06                # red wrench profiles: the reference's margin a crop may cut
REDDER = 50                 # how much redder than green and blue is wrench red, while locating
MAX_BLOT = 0.08             # a difference not on a wrench, in valve crop areas: refused


@dataclass(frozen=True)
class Scene:
    """A loaded valves profile: the graph with every valve open, point positions in the
    reference picture, the valve looks, and how a valve is closed."""

    name: str
    board: Board
    reference: np.ndarray           # grey
    parts: tuple["Part", ...]       # what ``locate`` seeks, in turn until one is found
    points: dict[str, tuple[float, float]]
    open_looks: dict[str, np.ndarray]   # each valve's, BGR, valve_size square
    closed_look: np.ndarray | None      # None: closed valves carry a red wrench
    close: str
    wrench: tuple[float, float] | None
    size: int                           # valve_size
    work: np.ndarray | None             # red wrench looks: the reference, Lab, at the working scale,
    work_range: tuple[np.ndarray, np.ndarray] | None    # … and its 3x3 neighbourhoods' least and most
    work_looks: dict[str, np.ndarray]   # … and the open looks at the working scale

    @property
    def work_k(self) -> float:
        """Reference pixels → working-scale pixels."""
        return min(1.0, WORK_CROP / self.size)


@dataclass(frozen=True, eq=False)
class Part:
    """A part of the reference picture that ``locate`` seeks: its top-left corner in the
    reference (x, y), and the part in grey at COARSE_WIDTH (or COARSE_PAINTED) wide and at
    most 2·FINE_WIDTH wide (to shrink templates from)."""

    inset: tuple[int, int]
    inner: np.ndarray
    coarse: np.ndarray
    fine: np.ndarray
    glimpse: np.ndarray                 # GLIMPSE_WIDTH wide (``glimpse``)
    shrunk: dict[int, np.ndarray] = field(default_factory=dict, compare=False)   # ``at``'s, by width

    def at(self, width: int) -> np.ndarray:
        """The part ``width`` pixels wide, from ``fine`` (kept: a red wrench profile asks
        for the same seven widths every time, a live loop for the same ones every frame)."""
        if width not in self.shrunk:
            if len(self.shrunk) > 512:
                self.shrunk.clear()
            self.shrunk[width] = _shrunk(self.fine, width / self.fine.shape[1])
        return self.shrunk[width]

    @classmethod
    def cut(cls, reference: np.ndarray, box: tuple[int, int, int, int], coarse_width: int) -> "Part":
        """The part of a grey reference inside ``box`` (x0, y0, x1, y1)."""
        x0, y0, x1, y1 = box
        inner = reference[y0:y1, x0:x1]
        return cls((x0, y0), inner, _shrunk(inner, coarse_width / inner.shape[1]),
                   _shrunk(inner, min(1.0, 2 * FINE_WIDTH / inner.shape[1])),
                   _shrunk(inner, GLIMPSE_WIDTH / inner.shape[1]))


@dataclass(frozen=True)
class Placement:
    """Where the reference picture lies in an image: top-left corner, scale, correlation."""

    x: float
    y: float
    scale: float
    score: float

    def map(self, p: tuple[float, float]) -> tuple[float, float]:
        return (self.x + p[0] * self.scale, self.y + p[1] * self.scale)


def crop_square(image: np.ndarray, centre: tuple[float, float], size: int) -> np.ndarray | None:
    """The size×size square centred on a point (pixel ``size // 2`` on it), or None when
    it does not fit in the image."""
    x, y = round(centre[0]) - size // 2, round(centre[1]) - size // 2
    if x < 0 or y < 0 or x + size > image.shape[1] or y + size > image.shape[0]:
        return None
    return image[y:y + size, x:x + size].copy()


def scene(profile: Profile | Path | None = None) -> Scene:
    """The scene a profile (or a profile folder) describes (None: the shipped sewer);
    ProfileError naming the field when it is not a valid valves profile. Built from the
    profile's folder and kept while its profile.json is unchanged."""
    folder = SHIPPED if profile is None else Path(getattr(profile, "folder", profile))
    stamp = (folder / "profile.json").stat().st_mtime_ns if (folder / "profile.json").is_file() else 0
    return _scene(str(folder), stamp)


@functools.lru_cache(maxsize=8)
def _scene(folder: str, stamp: int) -> Scene:
    prof = read_folder(Path(folder))
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
    shut_look = prof.get("shut_look", str, "template")
    if shut_look not in ("template", "red wrench"):
        raise ProfileError(f"{where}: field 'shut_look' must be 'template' or 'red wrench', not {shut_look!r}")
    looks = {key: prof.template(key) for key in (("open", "closed") if shut_look == "template" else ("open",))}
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
    # A player's box around a painted panel takes in some of its surroundings, which another
    # crop may cut: those profiles seek the reference less INSET of each side, then, if
    # that is not found, the valves' part (their bounds and the margin ``_seek`` needs).
    if shut_look == "template":
        parts = (Part.cut(reference, (0, 0, w, h), COARSE_WIDTH),)
    else:
        xs, ys = [points[v][0] for v in board.valves], [points[v][1] for v in board.valves]
        m = 0.5 * size + max(2, 0.15 * size)
        core = (max(0, round(min(xs) - m)), max(0, round(min(ys) - m)),
                min(w, round(max(xs) + m)), min(h, round(max(ys) + m)))
        parts = (Part.cut(reference, (round(INSET * w), round(INSET * h), w - round(INSET * w), h - round(INSET * h)),
                          COARSE_PAINTED), Part.cut(reference, core, COARSE_PAINTED))
    work = work_range = None
    work_looks = {}
    if shut_look == "red wrench":
        if shut:
            raise ProfileError(f"{where}: a 'red wrench' profile needs a reference with every valve open ('reference_shut')")
        work = _lab(_shrunk(colour, min(1.0, WORK_CROP / size)))
        box = np.ones((3, 3), np.uint8)
        work_range = (cv2.erode(work, box), cv2.dilate(work, box))
        work_looks = {name: _shrunk(look, min(1.0, WORK_CROP / size)) for name, look in open_looks.items()}
    return Scene(prof.name, board, reference, parts, points, open_looks, looks.get("closed"), close, wrench,
                 size, work, work_range, work_looks)


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


def _grey(image: np.ndarray, wrenches: bool) -> np.ndarray:
    """The grey image ``locate`` matches. With red wrench looks, wrench red (red above
    both green and blue by more than REDDER; the copper pipes of the painted panel reach
    35) and its dark outline are set to the image's mean grey, so that three wrenches do
    not pull the reference's correlation under MIN_MATCH: a grey of the mean adds nothing
    to a zero-mean correlation."""
    grey = cv2.cvtColor(image, cv2.COLOR_BGR2GRAY)
    if wrenches:
        b, g, r = cv2.split(image)
        red = cv2.compare(cv2.subtract(r, cv2.max(g, b)), REDDER, cv2.CMP_GT)   # the lesser of r − g and r − b
        if cv2.hasNonZero(red):
            red = cv2.dilate(red, np.ones((5, 5), np.uint8))
            rest = red.size - cv2.countNonZero(red)
            # the rest's mean from whole-number sums, which numpy's float mean of them gives exactly
            total = int(grey.sum(dtype=np.int64)) - int(cv2.sumElems(cv2.bitwise_and(grey, red))[0])
            grey[red > 0] = int(total / rest) if rest else 128
    return grey


def _sweep(grey: np.ndarray, part: Part, template: np.ndarray, ratio: float, near: float | None = None) -> Placement:
    """The coarse sweep of ``locate``: a part's ``template`` (a shrunk copy of it) fixed at
    its width, the image shrunk to match each scale, scales ``ratio`` apart from the
    largest that fits down to SMALLEST of it; the best place, scale and correlation.

    ``near``: a scale the part was glimpsed at. The sweep then starts NEAR_STEPS scales
    above it and stops once past a peak and that scale. The peak stands when it is clearly
    the scene's: at least MIN_COARSE, and 0.1 over the first scale tried and over one after
    it (or it is the last scale). That is the full sweep's answer too, as only the scene
    reaches MIN_COARSE (others: ≤ 0.3) and its score falls away on both sides of its scale
    (at 1080p, 0.6–0.66 at its scale, under 0.55 one scale away). Otherwise the sweep runs
    from the largest scale, reusing the scales tried."""
    h, w = grey.shape
    rh, rw = part.inner.shape
    largest = min(w / rw, h / rh)
    smallest = max(largest * SMALLEST, MIN_SCENE / rw)
    if smallest > largest:
        raise NoBoardFound(f"the image is too small to show the scene ({w}x{h})")
    width = template.shape[1]
    base_k = width / (rw * smallest)
    base = _shrunk(grey, min(1.0, base_k))
    steps = max(1, math.ceil(math.log(largest / smallest) / math.log(ratio)))
    tried: dict[int, Placement] = {}

    def at(i: int) -> Placement:
        if i not in tried:
            s = largest * (smallest / largest) ** (i / steps)
            k = width / (rw * s)
            score, x, y = _match(_shrunk(base, k / min(1.0, base_k)), template)
            tried[i] = Placement(x / k, y / k, s, score)
        return tried[i]

    def run(first: int, sure: float, hold: int = 0) -> tuple[Placement, bool]:
        """The best from scale ``first`` on, and whether the sweep stopped past a peak
        of at least ``sure`` (not before scale ``hold``)."""
        best = Placement(0, 0, 0, -1.0)
        for i in range(first, steps + 1):
            found = at(i)
            if found.score > best.score:
                best = found
            elif best.score >= sure and found.score < best.score - 0.1 and i > hold:
                return best, True
        return best, False

    if near is not None and largest > smallest:
        seen = round(steps * math.log(near / largest) / math.log(smallest / largest))
        first = max(0, seen - NEAR_STEPS)
        best, past = run(first, MIN_COARSE, seen)
        if best.score >= MIN_COARSE and (past or best is at(steps)) and (first == 0 or at(first).score < best.score - 0.1):
            return best
    return run(0, COARSE_SURE)[0]   # stopped past a peak only the scene reaches (other scales and pictures: ≤ 0.45)


def glimpse(grey: np.ndarray, scenes: tuple[Scene, ...]) -> tuple[float, dict[Part, Placement]]:
    """The likeness of ``scenes`` (any part of any: a crop may cut the first) in a grey
    image at a first look: templates GLIMPSE_WIDTH wide, scales GLIMPSE_STEP apart (a few
    ms, against tens for ``locate``'s coarse sweeps), the best, or the first that reaches
    GLIMPSE_LEAST; -1 when the image is too small to tell. With no profile, a picture
    where neither of our scenes reaches GLIMPSE_LEAST is refused before the full sweeps
    (on 160 other pictures the best was 0.46, 158 under 0.45; scenes that read: 0.57 and up).
    Also where each part looked likeliest (its likeness and scale: to choose the scene to
    read first and to seed ``locate``'s sweeps)."""
    best, seen = -1.0, {}
    for part in (part for sc in scenes for part in sc.parts):
        try:
            seen[part] = _sweep(grey, part, part.glimpse, GLIMPSE_STEP)
        except NoBoardFound:
            return -1.0, {}
        best = max(best, seen[part].score)
        if best >= GLIMPSE_LEAST:
            break
    return best, seen


def locate(grey: np.ndarray, sc: Scene, part: Part | None = None, near: float | None = None) -> Placement:
    """Where the scene's reference picture is in a grey image, at what scale (see the
    module doc), found by a part of it (None: the first) that must lie inside the image
    (``near``: the scale ``glimpse`` saw it at)."""
    part = part or sc.parts[0]
    h, w = grey.shape
    rh, rw = part.inner.shape
    best = _sweep(grey, part, part.coarse, 1.06, near)
    if best.score < MIN_COARSE:
        return best
    # Fine: around the coarse place (off by up to a coarse pixel and half the 6 % scale
    # step), scale within ±4.5 % in 1.5 % steps, then ±1 % in 0.5 % steps.
    # (A red wrench profile refines scale and offset from the valves found: a smaller
    # template and one pass do.)
    wrench = sc.work is not None
    k = min(1.0, FINE_WIDTH * (0.6 if wrench else 1.0) / (rw * best.scale))
    margin = 2 * rw * best.scale / part.coarse.shape[1] + 0.04 * rw * best.scale
    x0, y0 = max(0, int(best.x - margin)), max(0, int(best.y - margin))
    x1 = min(w, int(best.x + rw * best.scale * 1.045 + margin) + 1)
    y1 = min(h, int(best.y + rh * best.scale * 1.045 + margin) + 1)
    window = _shrunk(grey[y0:y1, x0:x1], k)
    fine = Placement(best.x, best.y, best.scale, -1.0)     # coarse scores do not compare
    passes = ((0.045, 0.015, True), (0.01, 0.005, False))[:1 if wrench else 2]
    for spread, step, with_centre in passes:
        centre = fine.scale
        for j in range(-round(spread / step), round(spread / step) + 1):
            if j == 0 and not with_centre:
                continue
            s = centre * (1 + j * step)
            score, x, y = _match(window, part.at(max(1, round(s * k * rw))))
            if score > fine.score:
                fine = Placement(x0 + x / k, y0 + y / k, s, score)
    mx, my = part.inset
    return Placement(fine.x - mx * fine.scale, fine.y - my * fine.scale, fine.scale, fine.score)


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


def _lab(image: np.ndarray) -> np.ndarray:
    """Float Lab (L 0–100, a and b about ±100) of a BGR picture, lightly blurred."""
    return cv2.cvtColor(cv2.GaussianBlur(image, (3, 3), 0).astype(np.float32) / 255.0, cv2.COLOR_BGR2LAB)


@dataclass(frozen=True)
class Shrunk:
    """A part of an image shrunk once (``image``, from its top-left ``x0``, ``y0``, by
    ``fx``, ``fy``), to cut many windows from without shrinking each."""

    image: np.ndarray
    x0: int
    y0: int
    fx: float
    fy: float

    @classmethod
    def of(cls, image: np.ndarray, box: tuple[int, int, int, int], k: float) -> "Shrunk":
        x0, y0, x1, y1 = max(0, box[0]), max(0, box[1]), min(image.shape[1], box[2]), min(image.shape[0], box[3])
        small = _shrunk(image[y0:y1, x0:x1], k)
        return cls(small, x0, y0, small.shape[1] / (x1 - x0), small.shape[0] / (y1 - y0))


def _seek(image: np.ndarray, where: Placement, sc: Scene, name: str, look: np.ndarray, k: float,
          shrunk: Shrunk | None = None) -> tuple[float, tuple[float, float]]:
    """(likeness, image position) of a valve look sought a few pixels around where the
    placement maps the valve, compared at ``k`` × the image's scale (``look`` is at that
    scale already). The window is cut from ``shrunk`` (the image shrunk by k) when given."""
    size = sc.size
    centre = (size // 2 + 0.5) * look.shape[0] / size    # the valve's point in a look
    half = (size / 2 + max(2, 0.15 * size)) * where.scale
    x, y = where.map(sc.points[name])
    # The valve's square must be in the image; the margin sought around it may be cut.
    inner = (size / 2 + 1) * where.scale
    if x - inner < 0 or y - inner < 0 or x + inner > image.shape[1] or y + inner > image.shape[0]:
        raise NoBoardFound(f"valve {name} lies outside the image")
    x0, y0 = max(0, round(x - half)), max(0, round(y - half))
    x1, y1 = min(image.shape[1], round(x + half)), min(image.shape[0], round(y + half))
    if shrunk is None:
        window = _shrunk(image[y0:y1, x0:x1], k)
        if window.shape[0] < look.shape[0] or window.shape[1] < look.shape[1]:
            raise NoBoardFound(f"valve {name} lies outside the image")
        score, u, v = likeness(window, look)
        # window pixel → continuous window → image pixel coordinates
        return score, (x0 + (u + centre) * (x1 - x0) / window.shape[1] - 0.5,
                       y0 + (v + centre) * (y1 - y0) / window.shape[0] - 0.5)
    sx0, sy0 = round((x0 - shrunk.x0) * shrunk.fx), round((y0 - shrunk.y0) * shrunk.fy)
    sx1, sy1 = round((x1 - shrunk.x0) * shrunk.fx), round((y1 - shrunk.y0) * shrunk.fy)
    sx0, sy0 = max(0, sx0), max(0, sy0)
    sx1, sy1 = min(shrunk.image.shape[1], sx1), min(shrunk.image.shape[0], sy1)
    if sx1 - sx0 < look.shape[1] or sy1 - sy0 < look.shape[0]:
        raise NoBoardFound(f"valve {name} lies outside the image")
    score, u, v = likeness(shrunk.image[sy0:sy1, sx0:sx1], look)
    return score, (shrunk.x0 + (sx0 + u + centre) / shrunk.fx - 0.5, shrunk.y0 + (sy0 + v + centre) / shrunk.fy - 0.5)


def read_valves(image: np.ndarray, where: Placement, sc: Scene) -> Valves:
    """Tell each valve open or closed by the nearer look. Looks and image meet at the
    smaller of their two scales, and each look is sought a few pixels around the mapped
    position, so a scale off by a percent or a hand-placed point off by a few pixels still
    reads — and the place found is the wheel's true centre."""
    assert sc.closed_look is not None
    closed, weakest, found = set(), 1.0, {}
    k = min(1.0, 1 / where.scale)
    for name in sc.board.valves:
        (is_open, at_open), (is_closed, at_closed) = (_seek(image, where, sc, name, _shrunk(look, k * where.scale), k)
                                                      for look in (sc.open_looks[name], sc.closed_look))
        if max(is_open, is_closed) < MIN_VALVE or abs(is_open - is_closed) < MIN_GAP:
            raise NoBoardFound(f"valve {name} looks neither open nor closed "
                               f"(likeness {is_open:.2f} open, {is_closed:.2f} closed)")
        found[name] = at_closed if is_closed > is_open else at_open
        if is_closed > is_open:
            closed.add(name)
        weakest = min(weakest, max(is_open, is_closed))
    return Valves(frozenset(closed), weakest, found)


def read_wrenches(image: np.ndarray, where: Placement, sc: Scene) -> Valves:
    """Tell each valve open or closed by a red wrench over it (module doc, stage 2b)."""
    assert sc.work is not None
    k = sc.work_k
    f = min(1.0, k / where.scale)                       # image → shrunk image
    looks = sc.work_looks if f < 1 else {name: _shrunk(look, where.scale) for name, look in sc.open_looks.items()}
    margin = round(0.2 * sc.size * where.scale) + 3     # beyond the reference: a valve's window
    shrunk = Shrunk.of(image, (int(where.x) - margin, int(where.y) - margin,
                               int(where.x + sc.reference.shape[1] * where.scale) + margin,
                               int(where.y + sc.reference.shape[0] * where.scale) + margin), f)
    sought = {name: _seek(image, where, sc, name, looks[name], f, shrunk) for name in sc.board.valves}
    sure = {name: at for name, (score, at) in sought.items() if score >= MIN_VALVE}
    if len(sure) >= 3:
        where = fit(sc, Valves(frozenset(), 0.0, sure))
    # The image at the working scale, laid over the reference's working picture.
    h, w = sc.work.shape[:2]
    small = shrunk.image
    sx, sy = where.scale / k * shrunk.fx, where.scale / k * shrunk.fy   # working pixel → shrunk pixels
    warp = np.float32([[sx, 0, (where.x - shrunk.x0) * shrunk.fx + 0.5 * sx - 0.5],
                       [0, sy, (where.y - shrunk.y0) * shrunk.fy + 0.5 * sy - 0.5]])
    seen = _lab(cv2.warpAffine(small, warp, (w, h), flags=cv2.INTER_LINEAR | cv2.WARP_INVERSE_MAP,
                               borderMode=cv2.BORDER_REPLICATE))
    shown = cv2.warpAffine(np.full(small.shape[:2], 255, np.uint8), warp, (w, h),
                           flags=cv2.INTER_NEAREST | cv2.WARP_INVERSE_MAP, borderValue=0)
    shown = cv2.erode(shown, np.ones((5, 5), np.uint8)) > 0    # the part of the scene the image shows
    assert sc.work_range is not None
    low, high = sc.work_range
    shift = np.median((seen[::3, ::3] - sc.work[::3, ::3])[shown[::3, ::3]], axis=0)   # an even change of light or cast
    seen_even = seen - shift.astype(np.float32)
    outside = np.maximum(low - seen_even, 0)
    outside += np.maximum(seen_even - high, 0)
    changed = (cv2.transform(outside * outside, np.ones((1, 3), np.float32)) > CHANGED ** 2) & shown
    red = (seen[:, :, 1] - high[:, :, 1] > NEW_RED) & (seen[:, :, 1] > RED_A) & (seen[:, :, 2] > RED_B) & shown
    # A wrench's head is solid red a quarter of a valve wide; a marker's stroke is not.
    thick = round(WRENCH_BODY * WORK_CROP) | 1
    solid = cv2.morphologyEx(red.astype(np.uint8), cv2.MORPH_OPEN,
                             cv2.getStructuringElement(cv2.MORPH_ELLIPSE, (thick, thick))) > 0
    red_labels = cv2.connectedComponents(red.astype(np.uint8), connectivity=8)[1]
    crop = sc.size * k
    r = math.ceil(0.45 * crop) + 1
    # First pass: each valve's disc and middle, and how much of its disc solid red covers.
    around = {}
    for name in sc.board.valves:
        cx, cy = sc.points[name][0] * k, sc.points[name][1] * k
        wx, wy = max(0, round(cx) - r), max(0, round(cy) - r)
        near = np.s_[wy:round(cy) + r + 1, wx:round(cx) + r + 1]        # a square around the valve
        yy, xx = np.ogrid[near]
        far = (xx - cx) ** 2 + (yy - cy) ** 2
        disc, middle = far <= (0.45 * crop) ** 2, far <= (0.22 * crop) ** 2
        around[name] = ((cx, cy), near, disc, middle, float(solid[near][disc].mean()))
    heads = {name for name, (*_, cover) in around.items() if cover >= WRENCH_COVER}
    stage("valves-wrench-red", lambda: marked(solid, [(*at, f"{name} {cover:.2f}") for name, (at, *_, cover) in around.items()]))
    closed, weakest = set(), 1.0
    body = 0.87 * crop

    def handle(name: str, claimed: np.ndarray | None = None) -> str | tuple[float, float]:
        centre, near, disc, *_ = around[name]
        head = red_labels[near][disc & solid[near]]
        return _handle(red_labels, head, centre, [around[n][0] for n in heads if n != name], body, shown, claimed)

    def hang(name: str, angle: float, length: float) -> np.ndarray:
        """Where a wrench lies: head and handle."""
        centre = around[name][0]
        end = (centre[0] + length * math.cos(angle), centre[1] + length * math.sin(angle))
        mask = np.zeros(red.shape, np.uint8)
        cv2.circle(mask, _pt(centre), round(0.6 * body) + WRENCH_EDGE, 1, -1)
        cv2.line(mask, _pt(centre), _pt(end), 1, round(2 * HANDLE_SPREAD * body) + 2 * WRENCH_EDGE)
        return mask

    # Each wrench's handle: direction and length. A handle found pointing at another wrench
    # whose handle reaches this valve may be that one's: it is sought again without it.
    first = {name: handle(name) for name in sorted(heads)}
    handles = {}
    for name in sorted(heads):
        theirs = [n for n, found in first.items() if n != name and isinstance(found, tuple)
                  and _reaches(around[n][0], *found, around[name][0], 0.5 * body)]
        found = first[name]
        if theirs and (isinstance(found, str) or any(_turn(found[0], _direction(around[name][0], around[n][0])) <= math.radians(30)
                                                     for n in theirs)):
            again = handle(name, sum(hang(n, *first[n]) for n in theirs) > 0)
            found = again if isinstance(again, tuple) else found
        if isinstance(found, str):
            raise NoBoardFound(f"valve {name} is covered by red that is not a wrench ({found})")
        handles[name] = found
        closed.add(name)
        weakest = min(weakest, min(1.0, around[name][4] / WRENCH_SURE))
    hung = {name: hang(name, *found) for name, found in handles.items()}
    # Each wrench's jaw. Another's handle may lie in its mouth: then the jaw reads when that
    # handle runs into the mouth along it, from a wrench hanging the same way whose own jaw
    # was seen (a chain of wrenches along a row, each handle in the next one's mouth), and
    # the mouth shows that handle's shading (a red disc painted there is flat).
    hidden = {}
    for name, (angle, _) in handles.items():
        theirs = sum((hung[n] for n in handles if n != name), np.zeros(red.shape, np.uint8)) > 0
        jaw = _mouth(red, theirs, around[name][0], angle, body)
        if jaw == HIDDEN_JAW:
            hidden[name] = theirs
        elif jaw is not None:
            raise NoBoardFound(f"valve {name} is covered by red that is not a wrench ({jaw})")
    judged = set(handles) - set(hidden)
    while hidden:
        name = next((name for name, theirs in hidden.items() for other in judged
                     if _turn(handles[name][0], handles[other][0]) <= HANG_TURN
                     and _mouth(red, hung[other] > 0, around[name][0], handles[name][0], body) == HIDDEN_JAW
                     and _mouth(red, theirs, around[name][0], handles[name][0], body, hidden_ok=True) is None
                     and _shaded(seen[:, :, 0], around[name][0], handles[name][0], body)), None)
        if name is None:
            raise NoBoardFound(f"valve {min(hidden)} is covered by red that is not a wrench ({HIDDEN_JAW})")
        judged.add(name)
        del hidden[name]
    hung_all = sum(hung.values()) if hung else np.zeros(red.shape, np.uint8)
    # Second pass: the other valves are open when their middle matches the calibrated look
    # and they show no new red, but for a found wrench's handle (and its outline) lying
    # over them: a wrench hung on a valve shows its solid head, a handle alone closes nothing.
    for name in sc.board.valves:
        if name in closed:
            continue
        _, near, disc, middle, cover = around[name]
        free = hung_all[near] == 0
        differs = float((changed[near] & free)[middle].mean())
        if differs <= OPEN_CHANGED and float((red[near] & free)[disc].mean()) <= OPEN_RED:
            weakest = min(weakest, sought[name][0])
        else:
            raise NoBoardFound(f"valve {name} is covered by something that is not a wrench "
                               f"({differs:.0%} of its middle differs from the calibrated look, {cover:.0%} red)")
    # Whatever differs must lie on a wrench found.
    blot = MAX_BLOT * (sc.size * k) ** 2
    count, _, stats, _ = cv2.connectedComponentsWithStats((changed & (hung_all == 0)).astype(np.uint8), connectivity=8)
    for i in range(1, count):
        if stats[i, cv2.CC_STAT_AREA] > blot:
            bx = stats[i, cv2.CC_STAT_LEFT] + stats[i, cv2.CC_STAT_WIDTH] / 2
            by = stats[i, cv2.CC_STAT_TOP] + stats[i, cv2.CC_STAT_HEIGHT] / 2
            ix, iy = where.map((bx / k, by / k))
            raise NoBoardFound(f"the {sc.name} scene differs from its calibrated picture near "
                               f"({ix:.0f}, {iy:.0f}): drawn over, covered, or another scene")
    return Valves(frozenset(closed), weakest, {name: where.map(sc.points[name]) for name in sc.board.valves})


def _handle(red_labels: np.ndarray, head: np.ndarray, centre: tuple[float, float],
            others: list[tuple[float, float]], body: float, shown: np.ndarray,
            claimed: np.ndarray | None = None) -> str | tuple[float, float]:
    """Why the red over a valve is not a wrench, or the direction (radians) and length of
    its handle when it is one. A wrench's handle
    leaves the valve as a straight bar: of the red joined to its head (``head``: the labels,
    in ``red_labels``, of the solid red on the valve), the part beyond 0.8 body widths reaches at least HANDLE_REACH out,
    at least half of it lies within ±30° of one direction (another wrench's red may join),
    and at least 40 % of that half lies along the line from the valve's middle (within
    HANDLE_SPREAD of it), unbroken from 0.8 to HANDLE_REACH valve widths out or to where
    the image ends (``shown``: the part of the scene the image shows; a crop may cut a
    handle). A marker's blob or squiggle fails one of these. Red on the other wrenches'
    heads (``others``) counts only for the handle being unbroken, and red on other
    wrenches' handles (``claimed``) not at all. A short handle (SHORT_HANDLE) is enough
    when it runs on into another head or out of the picture."""
    reach = math.ceil((HANDLE_REACH + 0.5) * body)
    x0, y0 = max(0, round(centre[0]) - reach), max(0, round(centre[1]) - reach)
    near = red_labels[y0:round(centre[1]) + reach + 1, x0:round(centre[0]) + reach + 1]
    ys, xs = np.nonzero(np.isin(near, [i for i in np.unique(head) if i]))
    dx, dy = xs + x0 - centre[0], ys + y0 - centre[1]
    far = np.hypot(dx, dy)
    mine = far >= 0.8 * body                    # beyond the head, and not on another point
    if claimed is not None:                     # … nor on another wrench's handle
        mine &= ~claimed[ys + y0, xs + x0]
    for ox, oy in others:
        mine &= np.hypot(dx + centre[0] - ox, dy + centre[1] - oy) > 0.6 * body
    if mine.sum() < SHORT_HANDLE * body ** 2:
        return "no handle leaves it"
    angles = np.arctan2(dy, dx)
    counts, edges = np.histogram(angles[mine], bins=36, range=(-math.pi, math.pi))
    window = np.convolve(np.concatenate([counts, counts[:5]]), np.ones(6), "valid")[:36]
    best = int(np.argmax(window))
    if window[best] < 0.5 * mine.sum():
        return "its red leaves it in many directions"
    inside = mine & ((angles - edges[best]) % (2 * math.pi) <= math.radians(60))
    mean = math.atan2(np.sin(angles[inside]).mean(), np.cos(angles[inside]).mean())
    along = _turn(angles, mean) <= math.radians(30)
    on_line = along & (np.abs(-dx * math.sin(mean) + dy * math.cos(mean)) <= HANDLE_SPREAD * body)
    bins = round((HANDLE_REACH - 0.8) * 10)
    steps = np.histogram(far[on_line] / body, bins=bins, range=(0.8, HANDLE_REACH))[0] > 0
    ray = (0.8 + (np.arange(bins) + 0.5) * (HANDLE_REACH - 0.8) / bins) * body
    rx = np.round(centre[0] + ray * math.cos(mean)).astype(int)
    ry = np.round(centre[1] + ray * math.sin(mean)).astype(int)
    inside_image = (rx >= 0) & (ry >= 0) & (rx < shown.shape[1]) & (ry < shown.shape[0])
    unseen = ~inside_image
    unseen[inside_image] = ~shown[ry[inside_image], rx[inside_image]]
    if (on_line & mine).sum() < 0.4 * (along & mine).sum() or not (steps | unseen).all():
        return "its red is no straight handle"
    if mine.sum() < 0.1 * body ** 2 and not (unseen[-1] or any(
            math.hypot(centre[0] + ray[-1] * math.cos(mean) - ox, centre[1] + ray[-1] * math.sin(mean) - oy) <= 0.6 * body
            for ox, oy in others)):
        return "no handle leaves it"
    return mean, float(far[on_line].max()) + HANDLE_SPREAD * body


def _mouth(red: np.ndarray, hidden: np.ndarray, centre: tuple[float, float], angle: float, body: float,
           hidden_ok: bool = False) -> str | None:
    """Why the red on a valve has no wrench's open jaw, or None when it has: the valve's middle shows through
    a mouth that opens away from the handle (``angle``), between two red jaws. A disc of
    paint or a marker's blob has none. Points under another wrench (``hidden``) are not
    judged; at least half of the mouth's and of the jaws' must be (HIDDEN_JAW), unless
    ``hidden_ok`` (then those seen are judged, if any)."""
    def red_at(d: float, turn: float) -> float:
        xi = round(centre[0] + d * math.cos(angle + turn))
        yi = round(centre[1] + d * math.sin(angle + turn))
        if not (0 <= yi < red.shape[0] and 0 <= xi < red.shape[1]) or hidden[yi, xi]:
            return math.nan
        return float(red[yi, xi])

    mouth = np.array([red_at(d * body, math.pi) for d in np.linspace(0.0, 0.4, 9)])
    jaws = np.array([red_at(0.3 * body, math.pi + side * math.radians(a)) for side in (-1, 1) for a in (50, 60, 70)])
    if not hidden_ok and (np.isnan(mouth).mean() > 0.5 or np.isnan(jaws).mean() > 0.5):
        return HIDDEN_JAW
    if ((not np.isnan(mouth).all() and np.nanmean(mouth) > MOUTH_RED)
            or (not np.isnan(jaws).all() and np.nanmean(jaws) < 1 - MOUTH_RED)):
        return "no jaw grips the valve"
    return None


def _shaded(lightness: np.ndarray, centre: tuple[float, float], angle: float, body: float) -> bool:
    """Whether a valve's mouth (away from the handle's ``angle``) shows a wrench's handle,
    shaded across (a light ridge, dark edges: Lab lightness varying by SHADED across
    half a body width), as another wrench's handle lying in it does, not flat paint."""
    d, off = np.meshgrid(np.linspace(0.1, 0.3, 5), np.linspace(-0.25, 0.25, 11), indexing="ij")
    ux, uy = math.cos(angle + math.pi), math.sin(angle + math.pi)
    xs = np.round(centre[0] + body * (d * ux - off * uy)).astype(int)
    ys = np.round(centre[1] + body * (d * uy + off * ux)).astype(int)
    if xs.min() < 0 or ys.min() < 0 or xs.max() >= lightness.shape[1] or ys.max() >= lightness.shape[0]:
        return False
    across = lightness[ys, xs]
    return float(np.median(across.max(axis=1) - across.min(axis=1))) >= SHADED


def _direction(a: tuple[float, float], b: tuple[float, float]) -> float:
    """The direction (radians) from point a to point b."""
    return math.atan2(b[1] - a[1], b[0] - a[0])


def _reaches(centre: tuple[float, float], angle: float, length: float, point: tuple[float, float], within: float) -> bool:
    """Whether a handle (from ``centre``, ``angle``, ``length``) passes within ``within`` of a point."""
    ux, uy = math.cos(angle), math.sin(angle)
    px, py = point[0] - centre[0], point[1] - centre[1]
    run = min(max(px * ux + py * uy, 0.0), length)
    return math.hypot(px - run * ux, py - run * uy) <= within


def _turn(a: Any, b: Any) -> Any:
    """The angle between two directions (radians), 0 to π (of arrays too, element by element)."""
    return abs((a - b + math.pi) % (2 * math.pi) - math.pi)


def _pt(p: tuple[float, float]) -> tuple[int, int]:
    return (round(p[0]), round(p[1]))


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

@dataclass(frozen=True)
class ValvesGeometry:
    """Where a valves scene is in the picture: which scene it is (``scene``: the profile's
    name, or ``sewer`` / ``painted``, our own two), the names of the parse's ``cells`` in
    order (the board's points, then ``wrench`` when the scene has one), where the scene's
    reference picture lies (``origin``, its top-left corner, and ``scale``), a valve's
    radius in the picture, and how the scene's valves are closed (``close``: ``click`` or
    ``wrench-then-click``, the scene's own way)."""

    scene: str
    names: tuple[str, ...]
    origin: tuple[float, float]
    scale: float
    radius: float
    close: str

    def shifted(self, dx: float, dy: float) -> "ValvesGeometry":
        return replace(self, origin=(self.origin[0] + dx, self.origin[1] + dy))


def parse(image_bgr: np.ndarray, profile: Profile | None = None) -> Parse[ValvesGeometry]:
    """Read the valves scene: the graph with the valves already closed, each point's image
    position (``cells``, in the board's point order, then the wrench if the profile has
    one; ``geometry.names`` names them). Valves sit where their wheels were found, the
    rest where the fitted scale and offset put them. With no profile, our own two scenes
    are tried in turn: the drawn sewer, then the painted panel (first when the first look
    saw only the panel: a sewer glimpsed under GLIMPSE_LEAST is not read); the refusal told
    is the one of the scene found, if either was."""
    if profile is not None:
        return _parse(image_bgr, scene(profile))
    grey, seen = None, {}
    sewer, painted = scene(), scene(PAINTED)
    if image_bgr.ndim == 3:
        grey = cv2.cvtColor(image_bgr, cv2.COLOR_BGR2GRAY)     # the first look's, and the sewer's (no wrench look)
        look, seen = glimpse(grey, (sewer, painted))
        stage("valves-glimpse", lambda: marked(grey, [(8, 24, f"best likeness {look:.2f}")]))
        if -1.0 < look < GLIMPSE_LEAST:
            raise NoBoardFound(f"neither valves scene (sewer, painted) is in the image (best likeness {look:.2f})")
    near = {part: found.scale for part, found in seen.items()}
    panel_only = any(seen[part].score >= GLIMPSE_LEAST for part in painted.parts if part in seen)
    refused: dict[str, NoBoardFound] = {}
    for sc in (painted, sewer) if panel_only else (sewer, painted):
        try:
            return _parse(image_bgr, sc, grey, near)
        except NoBoardFound as exc:
            refused[sc.name] = exc
    raise (refused[sewer.name] if "is not in the image" in str(refused[painted.name]) else refused[painted.name]) from None


def _parse(image_bgr: np.ndarray, sc: Scene, grey: np.ndarray | None = None,
           near: dict[Part, float] | None = None) -> Parse[ValvesGeometry]:
    """``parse`` with one scene (``grey``: the picture in grey, when at hand; used only for
    a scene without a wrench look, whose ``_grey`` it is; ``near``: the scales ``glimpse``
    saw its parts at)."""
    if image_bgr.ndim != 3:
        raise NoBoardFound("not a colour image")
    wrenches = sc.work is not None
    grey = _grey(image_bgr, wrenches) if grey is None or wrenches else grey
    stage(f"valves-{sc.name}-grey", grey)
    where = Placement(0, 0, 0, -1.0)
    near = near or {}
    seen = [near[part] for part in sc.parts if part in near]     # parts share the reference's scale
    for part in sc.parts:       # the next part when a crop may have cut this one: the best
        found = locate(grey, sc, part, near.get(part, seen[0] if seen else None))
        where = found if found.score > where.score else where
        if where.score >= SURE_MATCH or where.score < NOTHING_LIKE:
            break
    stage(f"valves-{sc.name}-scene", lambda: marked(image_bgr, [(where.x, where.y, f"{sc.name} {where.score:.2f}")], [(
        where.x, where.y, sc.reference.shape[1] * where.scale, sc.reference.shape[0] * where.scale)]))
    if where.score < MIN_MATCH:
        raise NoBoardFound(f"the {sc.name} scene is not in the image (best likeness {where.score:.2f})")
    valves = (read_valves if sc.closed_look is not None else read_wrenches)(image_bgr, where, sc)
    placed = fit(sc, valves)
    b = sc.board
    try:
        board = Board(b.pipes, b.inlet, b.outlet, b.wrenches, valves.closed)
    except BoardError as exc:    # more valves look shut than the player has wrenches
        raise NoBoardFound(f"not a position of the game: {exc}") from None
    names = list(board.points)
    cells = [valves.found.get(n) or placed.map(sc.points[n]) for n in names]
    stage("valves-valves", lambda: marked(image_bgr, [(*at, f"{n} shut" if n in valves.closed else n)
                                                     for n, at in zip(names, cells)]))
    if sc.wrench is not None:
        names.append("wrench")
        cells.append(placed.map(sc.wrench))
    geometry = ValvesGeometry(sc.name, tuple(names), (placed.x, placed.y), placed.scale, sc.size * placed.scale / 2,
                              sc.close)
    return Parse("valves", board, min(where.score, valves.weakest), cells, geometry)
