"""One-stroke (一笔画完) screenshot → board and cell geometry.

Stages, each a function the tests can call on its own:

0. ``unshaded``: a notification shade dimming the top rows by one factor is taken out;
1. ``grids``: at about 512 px, for each candidate cell grey (a peak of the grey-level
   histogram of unsaturated pixels), the filled square blobs of that grey and of one
   common size (``find_squares``), joined into the largest group whose offsets are whole
   pitches (``fit_lattice``); origin and pitch by least squares, residuals measure the fit;
   then the same for each of the most common saturated colours (``candidate_colours``:
   other apps draw cells green, orange, teal), as a profile's colour would be;
2. ``refine``: at full resolution, each member's centroid and size, and the fit again;
3. ``read_places``: every lattice place is a grey cell (grey in level and hue), a hole
   (background), a visited cell (under the drawn band, no face) or the cat (saturated,
   with a white face and dark eyes); the board grows outward while a new row or column
   holds a cell, so rows of visited cells count;
4. ``refit``: the lattice fitted to the grey cells' centroids (and the visited ones' when
   the grey ones do not span the board), so the pitch spans the board;
5. mid-level (``drawn_path``): the player's path covers the visited cells with a band in
   the cat's colour and the cat sits at its head, so the reading is the board that is
   left: visited cells are holes, the cat's cell is the start. The visited cells must be
   one piece reaching the cat, in the cat's hue, or the frame is refused; the band in the
   gaps gives the drawn path's order (``OnestrokeGeometry.drawn``, start first, the head left
   out), which live uses to say where to undo to when the rest cannot be finished;
6. no cat (other apps with the same rules, e.g. WeChat's 最强连一连: grey squares on navy,
   the start a purple square): the start is the one cell marked apart from the plain ones
   (a square of another colour, a tint, a letter: ``_marked_start``); pictures beside the
   board (an icon, coins) are cut away; several marked cells (a path partly drawn, whose
   head nothing tells) are refused;
7. ``_covered_side``: past each side of the board nothing may look like a cell cut, hidden
   or in another shade (a notification shade dimming the top rows, a popup's edge), and
   no side may be covered whole (a popup), or the board may go on there: refused.

A grid that yields no board gives way to the next; when none does, the search runs again
at twice the scale. Cost: about 16 ms of CPU for a 1080×1920 frame, level start or
mid-level, 10-12 ms for a 271×480 recording frame, about 35 ms for a frame with no
board (``puzzlepilot bench onestroke``).

A calibration profile (``puzzlepilot calibrate onestroke``, ``calibration/onestroke.py``)
teaches another look: cells are then the pixels near the profile's cell colour instead of
a neutral grey, and everything after stage 1 is the same (and costs the same or less:
``puzzlepilot bench calibration``). Its profile.json fields::

    "cell_rgb": [r, g, b]    the unvisited cells' colour
    "tolerance": 24          how far (per channel) a cell or background pixel may stray
    template "start"         optional: the start cell's central 80 % as calibrated; a
                             place that looks like it is the start, cat with a face or not
"""
from __future__ import annotations

import functools
from dataclasses import dataclass, replace
from typing import Iterable, Iterator

import cv2
import numpy as np

from solvers.onestroke import Board, adjacent, reach
from vision.colours import ColourHistogram
from vision.common import NoBoardFound, Parse, marked, stage
from vision.profile import Profile, ProfileError

WORK_SIZE = 512           # longest side of the reduced image the lattice is found in
GREY_TOLERANCE = 12       # how far (grey levels) a cell pixel may stray from the cell grey
COLOUR_TOLERANCE = 24     # how far (per channel) a pixel may stray from a candidate cell colour
UNSATURATED = 14          # max − min channel spread of a neutral pixel
MIN_CONFIDENCE = 0.5
CLEAR = 0.9                # a reading this confident ends the search
START_SIDE = 16            # px a side of a start template as compared
START_MATCH = 0.7          # least correlation of a place with a profile's start template
SAME_HUE = 0.9            # least cosine between the cat's and the path's chroma
CAT_TOP = 0.35             # the share of a place, from the top, the cat's head fills
SMALL_CELL = 40           # px: cells smaller than this show the cat's eyes blurred
CHROMA = 12                # how far a cell pixel's colour less its grey may stray from the cell's
LUMA = np.array([0.114, 0.587, 0.299])    # a BGR pixel's brightness, as OpenCV's grey
SEEN_PAST = 0.03           # share of a pitch, at least 2 px: how much of the place past the board a crop must show
CUT_CELL = 0.3             # share of that part's pixels off the background that make it a cut cell
CUT_CELL_SHARE = 0.1       # share of a place past the board in the cell colour that makes it a cell cut or hidden
LEVEL_NODES = 5_000        # the solver's bound on a level read where no cat marks the start
MARKED = 0.1               # least share of a place's pixels off the cell colour that marks it as the start


@dataclass(frozen=True)
class Look:
    """A calibrated cell colour: pixels within ``tolerance`` of ``cell`` (BGR) per channel."""

    cell: tuple[int, int, int]
    tolerance: int
    start: np.ndarray | None = None     # the start's ``signature``, when the profile has one

    def mask(self, image: np.ndarray) -> np.ndarray:
        low = tuple(max(0, v - self.tolerance) for v in self.cell)
        high = tuple(min(255, v + self.tolerance) for v in self.cell)
        return cv2.inRange(image, low, high)


def look_of(profile: Profile) -> Look:
    """The look a one-stroke profile teaches; ProfileError naming the field when a field
    is missing or malformed."""
    profile.expect_game("onestroke")
    cell = profile.colour("cell_rgb")
    tolerance = profile.get("tolerance", int)
    if not 4 <= tolerance <= 100:
        raise ProfileError(f"profile {profile.name}: field 'tolerance' must be 4 to 100, not {tolerance}")
    has_start = "start" in profile.get("templates", dict, {})
    return Look(cell, tolerance, signature(profile.template("start")) if has_start else None)


def signature(patch: np.ndarray) -> np.ndarray:
    """A place's look for comparing with a start template: its grey levels at 16×16,
    zero mean and unit norm (so the dot product of two is their correlation); zero for a
    plain patch (a grey-level spread under 2), which then matches nothing."""
    grey = cv2.cvtColor(cv2.resize(patch, (START_SIDE, START_SIDE), interpolation=cv2.INTER_AREA), cv2.COLOR_BGR2GRAY)
    v = grey.astype(np.float32).ravel()
    v -= v.mean()
    norm = float(np.linalg.norm(v))
    return v / norm if norm >= 2 * START_SIDE else np.zeros_like(v)


def central(image: np.ndarray, centre: tuple[float, float], cell: float) -> np.ndarray | None:
    """The central 80 % of a cell at full resolution; None when it leaves the image."""
    half = 0.4 * cell
    x0, y0 = round(centre[0] - half), round(centre[1] - half)
    x1, y1 = round(centre[0] + half), round(centre[1] + half)
    if x0 < 0 or y0 < 0 or x1 > image.shape[1] or y1 > image.shape[0] or x1 - x0 < 4:
        return None
    return image[y0:y1, x0:x1]


Cells = int | Look          # what cells look like: a neutral grey level (the game's look) or a Look


def cell_mask(image: np.ndarray, cells: Cells, planes: tuple[np.ndarray, np.ndarray] | None = None) -> np.ndarray:
    """The pixels of the cell colour; ``planes`` are the image's ``neutral_planes`` when
    already computed."""
    if isinstance(cells, Look):
        return cells.mask(image)
    grey, neutral = planes if planes is not None else neutral_planes(image)
    return cv2.inRange(grey, max(0, cells - GREY_TOLERANCE), min(255, cells + GREY_TOLERANCE)) & neutral


@dataclass(frozen=True)
class Square:
    """A blob of cell grey: centre and width in the image it was found in."""

    x: float
    y: float
    w: float


@dataclass(frozen=True)
class Lattice:
    """Cell centres ``(x0 + c * px, y0 + r * py)``; ``members`` are the places (row, col)
    of the grey squares that made it, the smallest row and column 0; ``cell`` is the
    cells' size and ``rms`` the fit's residual, in pixels."""

    x0: float
    y0: float
    px: float
    py: float
    cell: float
    members: tuple[tuple[int, int], ...]
    rms: float

    def centre(self, r: int, c: int) -> tuple[float, float]:
        return (self.x0 + c * self.px, self.y0 + r * self.py)

    def scaled(self, k: float) -> "Lattice":
        return Lattice(self.x0 * k, self.y0 * k, self.px * k, self.py * k, self.cell * k,
                       self.members, self.rms * k)


# ---------------------------------------------------------------------------- stage 1

def neutral_planes(image: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """(grey levels, mask of unsaturated pixels) of a BGR image, with OpenCV's fast
    per-channel ops (numpy's reductions over the channel axis are ten times slower)."""
    b, g, r = cv2.split(image)
    spread = cv2.subtract(cv2.max(cv2.max(b, g), r), cv2.min(cv2.min(b, g), r))
    neutral = cv2.compare(spread, UNSATURATED, cv2.CMP_LE)
    return cv2.cvtColor(image, cv2.COLOR_BGR2GRAY), neutral


def candidate_greys(grey: np.ndarray, neutral: np.ndarray, count: int = 6) -> list[int]:
    """The most common grey levels among unsaturated pixels, the cell grey among them."""
    hist = cv2.calcHist([grey], [0], neutral, [256], [0, 256]).ravel()
    smooth = np.convolve(hist, np.ones(5), mode="same")
    peaks = [v for v in range(1, 255) if smooth[v] > 0
             and smooth[v] >= smooth[v - 1] and smooth[v] > smooth[v + 1]]
    peaks.sort(key=lambda v: -smooth[v])
    chosen: list[int] = []
    for v in peaks:
        if all(abs(v - u) > GREY_TOLERANCE for u in chosen):
            chosen.append(v)
        if len(chosen) == count:
            break
    return chosen


def candidate_colours(image: np.ndarray, neutral: np.ndarray, count: int = 3) -> list[Look]:
    """Looks for cells of the most common saturated colours (the median colour of each of
    the fullest bins of 16 levels per channel), most common first, each at least 1 % of the
    picture: other apps with the same rules draw their cells in a colour where this game's
    are grey."""
    histogram = ColourHistogram.of(image[neutral == 0], bits=4)
    looks: list[Look] = []
    for b in histogram.commonest(4 * count, min_share=0.01 * neutral.size / max(1, len(histogram.bins))):
        colour = tuple(int(v) for v in np.rint(histogram.median(b)))
        if all(max(abs(a - c) for a, c in zip(colour, look.cell)) > COLOUR_TOLERANCE for look in looks):
            looks.append(Look(colour, COLOUR_TOLERANCE))        # type: ignore[arg-type]
        if len(looks) == count:
            break
    return looks


def find_squares(mask: np.ndarray, enclosed: bool = False) -> list[Square]:
    """Filled, roughly square blobs of a cell mask, of the most common size; with
    ``enclosed``, a blob with what it encloses (a ring, a square's outline) counts as filled."""
    stage("onestroke-mask", mask)
    _, _, stats, centroids = cv2.connectedComponentsWithStats(mask, connectivity=4)
    x, y, w, h, area = stats[1:].T
    if enclosed:        # the pixels of each blob's box that are its own or enclosed by blobs
        whole = cv2.integral(filled(mask) // 255)
        area = whole[y + h, x + w] - whole[y, x + w] - whole[y + h, x] + whole[y, x]
    keep = (w >= 6) & (h >= 6) & (w <= 1.33 * h) & (h <= 1.33 * w) & (area >= 0.75 * w * h)
    if not keep.any():
        return []
    squares = [Square(float(cx), float(cy), float(sw)) for (cx, cy), sw in zip(centroids[1:][keep], w[keep])]
    sizes = w[keep].astype(np.float64)
    support = [(np.abs(sizes - s) <= 0.15 * s).sum() for s in sizes]
    mode = sizes[int(np.argmax(support))]
    found = [s for s in squares if abs(s.w - mode) <= 0.15 * mode]
    stage("onestroke-squares", lambda: marked(mask, boxes=[(s.x - s.w / 2, s.y - s.w / 2, s.w, s.w) for s in found]))
    return found


def filled(mask: np.ndarray) -> np.ndarray:
    """The mask with every part it encloses (not joined to the picture's edge) set."""
    outside = cv2.copyMakeBorder(cv2.bitwise_not(mask), 1, 1, 1, 1, cv2.BORDER_CONSTANT, value=255)
    cv2.floodFill(outside, None, (0, 0), 0)
    return cv2.bitwise_or(mask, outside[1:-1, 1:-1])


# ---------------------------------------------------------------------------- stage 2

def fit_lattice(squares: list[Square]) -> Lattice | None:
    """The largest group of squares lying on one regular lattice, or None.

    The pitch comes from nearest neighbours in a row or column; squares join the group
    when their offset from a member is a whole number of pitches (up to 2, so a hole
    between two cells does not split the board)."""
    if len(squares) < 2:
        return None
    xy = np.array([(s.x, s.y) for s in squares])
    size = float(np.median([s.w for s in squares]))
    d = xy[None, :, :] - xy[:, None, :]            # d[i, j] = j − i
    px = _pitch(d[..., 0], d[..., 1], size)
    py = _pitch(d[..., 1], d[..., 0], size)
    px, py = px or py, py or px
    if px is None or py is None:
        return None
    # Cells are square: a pitch near a multiple of the other one skipped whole lines.
    small, big = sorted((px, py))
    if round(big / small) >= 2 and abs(big / small - round(big / small)) < 0.1:
        px, py = (px, py / round(big / small)) if py > px else (px / round(big / small), py)
    steps = np.stack([d[..., 0] / px, d[..., 1] / py], axis=-1)
    whole = np.round(steps)
    linked = (np.abs(steps - whole).max(axis=-1) < 0.15) & (np.abs(whole).max(axis=-1) <= 2)
    index, best = _largest_group(linked, whole.astype(int))
    if len(best) < 2:
        return None
    rc = np.array([index[i] for i in best])
    r0, c0 = rc.min(axis=0)   # re-based so that the members' smallest row and column are 0
    members = tuple((int(r - r0), int(c - c0)) for r, c in rc)
    return _fit(Lattice(0, 0, px, py, size, members, 0), dict(zip(members, map(tuple, xy[best]))))


def _pitch(along: np.ndarray, across: np.ndarray, size: float) -> float | None:
    """Median distance to the nearest square further along the same line."""
    same_line = (np.abs(across) < 0.3 * size) & (along > 0.9 * size)
    gaps = np.where(same_line, along, np.inf).min(axis=1)
    gaps = gaps[np.isfinite(gaps)]
    if gaps.size == 0:
        return None
    p0 = float(gaps.min())
    return float(np.median(gaps / np.maximum(1, np.round(gaps / p0))))


def _largest_group(linked: np.ndarray, whole: np.ndarray) -> tuple[dict[int, tuple[int, int]], list[int]]:
    """Connected groups of linked squares (breadth first), each member with its lattice
    (row, col) relative to the group's first square; returns the largest group."""
    seen: set[int] = set()
    best: list[int] = []
    best_index: dict[int, tuple[int, int]] = {}
    for seed in range(len(linked)):
        if seed in seen:
            continue
        index = {seed: (0, 0)}
        queue = [seed]
        for i in queue:
            for j in np.flatnonzero(linked[i]):
                j = int(j)
                if j not in index:
                    index[j] = (index[i][0] + int(whole[i, j, 1]), index[i][1] + int(whole[i, j, 0]))
                    queue.append(j)
        seen.update(index)
        if len(index) > len(best):
            best, best_index = list(index), index
    return best_index, best


def _fit(lat: Lattice, centres: dict[tuple[int, int], tuple[float, float]]) -> Lattice:
    """The lattice fitted by least squares to measured centres of its places (r, c);
    an axis along which the places do not vary keeps the given pitch."""
    rc = np.array(list(centres), dtype=np.float64)
    pts = np.array(list(centres.values()), dtype=np.float64)
    fitted = []
    for k, v, pitch in ((rc[:, 1], pts[:, 0], lat.px), (rc[:, 0], pts[:, 1], lat.py)):
        if np.ptp(k) == 0:
            fitted.append((float(np.mean(v - k * pitch)), pitch))
        else:
            p, a = np.polyfit(k, v, 1)
            fitted.append((float(a), float(p)))
    (x0, px), (y0, py) = fitted
    residual = pts - np.stack([x0 + rc[:, 1] * px, y0 + rc[:, 0] * py], axis=1)
    rms = float(np.sqrt((residual ** 2).sum(axis=1).mean()))
    return Lattice(x0, y0, px, py, lat.cell, lat.members, rms)


# ---------------------------------------------------------------------------- stage 3

CELL, HOLE, VISITED, CAT, UNSURE = "cell", "hole", "visited", "cat", "unsure"


@dataclass(frozen=True)
class Colours:
    """The two reference colours of a board (BGR) and how far (per channel) a pixel of
    either may stray from them."""

    cell: np.ndarray
    background: np.ndarray
    tolerance: int = GREY_TOLERANCE
    start: np.ndarray | None = None     # a profile's start ``signature``


def classify(image: np.ndarray, lat: Lattice, colours: Colours, r: int, c: int) -> str:
    """What the lattice place (r, c) shows, from the pixels of its central square.

    Visited cells and the cat are told apart by the cat's face: white and dark (eyes)
    pixels, which a visited cell (a tint plus the drawn line) lacks. Either must sit in
    background: the four gap corners around a cell never carry the line or the cat."""
    patch = _patch(image, lat, r, c)
    if patch is None:
        return HOLE
    if colours.start is not None:   # first: a start marker may leave most of its cell plain
        place = central(image, lat.centre(r, c), lat.cell)
        if place is not None and float(signature(place) @ colours.start) >= START_MATCH:
            return CAT
    px = patch.reshape(-1, 3).astype(np.int16)
    near_cell = _cell_like(px, colours).mean()
    near_bg = (_most(np.abs(px - colours.background)) <= colours.tolerance).mean()
    # A drawn path always crosses a visited cell's centre, however thin it is drawn.
    if near_cell >= 0.6 and _centre_is_cell(image, lat, colours, r, c):
        return CELL
    if near_bg >= 0.75:
        return HOLE
    hi, lo = _most(px), -_most(-px)
    # The eyes: dark pixels; on small cells blur and JPEG leave them greyer.
    dark = 90 if lat.cell >= SMALL_CELL else 130
    face = (hi < dark).mean() >= 0.01 or near_bg >= 0.1
    if not face and (hi - lo > 40).mean() >= 0.5:
        return VISITED      # wholly in one saturated colour: a band as wide as the cell may cover the corners
    if not _corners_clear(image, lat, colours, r, c):
        return UNSURE
    if not face:
        return VISITED
    saturated = hi - lo > 40
    # The cat's head fills the top of its cell in its colour (a coin or icon does not).
    if saturated.mean() >= 0.15 and saturated[: max(1, round(CAT_TOP * len(saturated)))].mean() >= 0.6:
        return CAT
    return UNSURE


def _cell_like(px: np.ndarray, colours: Colours) -> np.ndarray:
    """Which BGR pixels (N × 3, or one) show the cell colour: near it per channel and of
    its hue (a pale tint of the path's colour on a visited cell can be as near the grey
    per channel, never in its chroma: the pixel less its mean)."""
    d = np.atleast_2d(px).astype(np.int16) - colours.cell
    chroma3 = 3 * d - (d[:, 0] + d[:, 1] + d[:, 2])[:, None]     # 3 × (d less its mean), in integers
    return (_most(np.abs(d)) <= colours.tolerance + 6) & (_most(np.abs(chroma3)) <= 3 * CHROMA)


def _centre_is_cell(image: np.ndarray, lat: Lattice, colours: Colours, r: int, c: int) -> bool:
    """Whether the middle of place (r, c) (its 3×3 pixels' median) shows the cell colour:
    the drawn path, however thin, crosses every visited cell's centre."""
    x, y = (round(v) for v in lat.centre(r, c))
    window = image[max(0, y - 1):y + 2, max(0, x - 1):x + 2].reshape(-1, 3)
    return window.size > 0 and bool(_cell_like(np.median(window, axis=0), colours)[0])


def _most(px: np.ndarray) -> np.ndarray:
    """Each row's largest of three values (numpy's reduction over a length-3 axis is
    several times slower)."""
    return np.maximum(np.maximum(px[:, 0], px[:, 1]), px[:, 2])


def _corners_clear(image: np.ndarray, lat: Lattice, colours: Colours, r: int, c: int) -> bool:
    """Whether the four gap corners around place (r, c) show the background's brightness
    (brightness, not colour: JPEG smears colour across narrow gaps)."""
    x, y = lat.centre(r, c)
    h, w = image.shape[:2]
    bg = float(colours.background @ LUMA)
    for dx in (-0.5, 0.5):
        for dy in (-0.5, 0.5):
            cx, cy = round(x + dx * lat.px), round(y + dy * lat.py)
            if not (1 <= cx < w - 1 and 1 <= cy < h - 1):
                continue   # a crop may cut the outer gaps off
            window = image[cy - 1:cy + 2, cx - 1:cx + 2].reshape(-1, 3) @ LUMA
            if np.abs(window - bg).min() > 2 * GREY_TOLERANCE:
                return False
    return True


def _patch(image: np.ndarray, lat: Lattice, r: int, c: int) -> np.ndarray | None:
    """The central 80 % of a place, subsampled to about 24 px a side; None off-image."""
    x, y = lat.centre(r, c)
    half = 0.4 * lat.cell
    x0, x1, y0, y1 = round(x - half), round(x + half), round(y - half), round(y + half)
    h, w = image.shape[:2]
    if x0 < 0 or y0 < 0 or x1 > w or y1 > h or x1 - x0 < 2:
        return None
    step = max(1, (x1 - x0) // 24)
    return image[y0:y1:step, x0:x1:step]


def board_colours(image: np.ndarray, lat: Lattice) -> Colours:
    """Cell grey from the member squares' centres, background from the gaps between
    horizontally neighbouring members."""
    members = set(lat.members)
    cell = np.median([_pixel(image, lat.centre(r, c)) for r, c in lat.members], axis=0)
    gaps = [_pixel(image, ((lat.centre(r, c)[0] + lat.centre(r, c + 1)[0]) / 2, lat.centre(r, c)[1]))
            for r, c in lat.members if (r, c + 1) in members]
    gaps += [_pixel(image, (lat.centre(r, c)[0], (lat.centre(r, c)[1] + lat.centre(r + 1, c)[1]) / 2))
             for r, c in lat.members if (r + 1, c) in members]
    if not gaps:
        raise NoBoardFound("no gaps between cells to tell the background")
    background = np.median(gaps, axis=0)
    # Every gap shows the same background; cells in the "gaps" mean a wrong pitch.
    agree = np.mean([_shows_background(g, background, cell) for g in gaps])
    if agree < 0.8 or np.abs(background - cell).max() <= 2 * GREY_TOLERANCE:
        raise NoBoardFound("the squares of one colour are not cells on one grid with gaps between them")
    return Colours(cell.astype(np.int16), background.astype(np.int16))


def _shows_background(px: np.ndarray, background: np.ndarray, cell: np.ndarray) -> bool:
    """Whether a gap's pixel (BGR) shows the background: within twice the grey tolerance
    of it per channel, or, as JPEG smears the cells' colour into gaps of a few pixels
    (its colour planes are stored at half size, and ring), of the background's brightness
    and at most half as far from it per channel as from the cell colour."""
    off = np.abs(px - background).max()
    if off <= 2 * GREY_TOLERANCE:
        return True
    return bool(abs(float((px - background) @ LUMA)) <= 2 * GREY_TOLERANCE
                and off <= 0.5 * np.abs(px - cell).max())


def _pixel(image: np.ndarray, xy: tuple[float, float]) -> np.ndarray:
    """The BGR value nearest to a point, clamped to the image."""
    x = min(max(round(xy[0]), 0), image.shape[1] - 1)
    y = min(max(round(xy[1]), 0), image.shape[0] - 1)
    return image[y, x].astype(np.int16)


def read_places(image: np.ndarray, lat: Lattice, colours: Colours) -> tuple[dict[tuple[int, int], str], tuple[int, int]]:
    """Every place's class over the board's extent: the members' bounding box, grown
    row by row and column by column while the new line holds a cell (visited cells, the
    cat, and grey cells the reduced scale missed lie outside the members). Returns the
    places keyed from the extent's top-left, and that top-left in the lattice's indices."""
    places: dict[tuple[int, int], str] = {}

    def look(r: int, c: int) -> str:
        if (r, c) not in places:
            plain = (r, c) in member_set and _centre_is_cell(image, lat, colours, r, c)
            places[(r, c)] = CELL if plain else classify(image, lat, colours, r, c)
        return places[(r, c)]

    member_set = set(lat.members)
    r0, c0 = 0, 0
    r1 = max(r for r, _ in lat.members)
    c1 = max(c for _, c in lat.members)
    for r in range(r0, r1 + 1):
        for c in range(c0, c1 + 1):
            look(r, c)
    grown = True
    while grown:
        grown = False
        for dr, dc in ((-1, 0), (1, 0), (0, -1), (0, 1)):
            if dr:
                r = r0 - 1 if dr < 0 else r1 + 1
                line = [(r, c) for c in range(c0 - 1, c1 + 2)]
            else:
                c = c0 - 1 if dc < 0 else c1 + 1
                line = [(r, c) for r in range(r0 - 1, r1 + 2)]
            found = [p for p in line if look(*p) in (CELL, VISITED, CAT)]
            if not found:
                continue
            grown = True
            r0 = min(r0, *(p[0] for p in found))
            r1 = max(r1, *(p[0] for p in found))
            c0 = min(c0, *(p[1] for p in found))
            c1 = max(c1, *(p[1] for p in found))
            for r in range(r0, r1 + 1):
                for c in range(c0, c1 + 1):
                    look(r, c)
    return {(r - r0, c - c0): places[(r, c)] for r in range(r0, r1 + 1) for c in range(c0, c1 + 1)}, (r0, c0)


# ---------------------------------------------------------------------------- parse

@dataclass(frozen=True)
class OnestrokeGeometry:
    """Where a one-stroke board is in the picture: its ``rows`` × ``cols`` places
    (``origin`` the centre of place (0, 0), ``pitch`` (x, y) between places, ``cell`` a
    cell's side) and, mid-level, the places of the path drawn so far (``drawn``: start
    first, the cat's cell left out; None before the first step)."""

    origin: tuple[float, float]
    pitch: tuple[float, float]
    cell: float
    rows: int
    cols: int
    drawn: tuple[tuple[int, int], ...] | None = None

    def shifted(self, dx: float, dy: float) -> "OnestrokeGeometry":
        return replace(self, origin=(self.origin[0] + dx, self.origin[1] + dy))


def parse(image_bgr: np.ndarray, profile: Profile | None = None) -> Parse[OnestrokeGeometry]:
    """Read a one-stroke board; :class:`NoBoardFound` when no confident reading exists.
    With a ``profile``, cells are found by its colour (``look_of``) instead of by grey.

    The grid is looked for at about 512 px, then, when that finds no board, at twice
    that (a small phone window on a big desktop has gaps too thin to survive the first).
    The first clear reading (confidence ≥ 0.9) wins; else the most confident one."""
    return read(image_bgr, None if profile is None else look_of(profile))


def read(image_bgr: np.ndarray, look: Look | None) -> Parse[OnestrokeGeometry]:
    """``parse`` with the cell look given (None: the game's neutral grey), as calibration
    tries looks before any profile exists."""
    image_bgr = unshaded(image_bgr)
    h, w = image_bgr.shape[:2]
    first = min(1.0, WORK_SIZE / max(h, w))
    readings: list[Parse[OnestrokeGeometry]] = []
    failures: list[str] = []
    scales = sorted({first, min(1.0, 2 * first)})
    smalls: dict[float, np.ndarray] = {}

    def at(k: float) -> np.ndarray:         # the picture reduced by k, made once
        if k not in smalls:
            smalls[k] = (cv2.resize(image_bgr, (round(w * k), round(h * k)), interpolation=cv2.INTER_LINEAR)
                         if k < 1 else image_bgr)
        return smalls[k]

    made: dict[float, list[tuple[np.ndarray, Cells]]] = {}

    def kept(k: float) -> Iterator[tuple[np.ndarray, Cells]]:     # the masks at k, kept for a second look
        for mask, cells in cell_masks(at(k)):
            made.setdefault(k, []).append((mask, cells))
            yield mask, cells

    for k in scales:
        small = at(k)
        for lat, cells in (grids(small, masks=kept(k)) if look is None else looked_grids(small, look)):
            try:
                reading = read_board(image_bgr, lat.scaled(1 / k), cells)
            except NoBoardFound as exc:
                failures.append(str(exc))
                continue
            if reading.confidence >= CLEAR:
                return reading
            readings.append(reading)
        if readings:
            return max(readings, key=lambda r: r.confidence)
    if look is None:        # a look the game's reader does not know: the board by its classes of places
        from vision.onestroke_classes import read_classes
        for k in scales:
            for lat, cells in grids(at(k), enclosed=True, masks=made.get(k, [])):
                try:
                    readings.append(read_classes(image_bgr, lat.scaled(1 / k), cells))
                except NoBoardFound as exc:
                    failures.append(str(exc))
            if readings:
                return max(readings, key=lambda r: r.confidence)
    what = "cells (grey or of one colour)" if look is None else "cells of the profile's colour"
    raise NoBoardFound(failures[0] if failures else f"no grid of {what} found")


def unshaded(image: np.ndarray) -> np.ndarray:
    """The picture with a notification shade over its top taken out, else the picture
    itself. A shade dims the rows above its lower edge by one factor (0.15 to 0.85 left):
    across the whole width, each colour just above that edge is the one just below it
    times that factor, on every channel alike (the phone's background continues under it,
    and the cells it crosses). Those rows are brightened back, so the cells under the shade
    are read like the others (refused before: a cell past the board's top in another shade)."""
    h, w = image.shape[:2]
    if h < 16:
        return image
    cols = cv2.resize(image, (min(w, 64), h), interpolation=cv2.INTER_NEAREST)   # 64 columns are plenty
    grey = cv2.cvtColor(cols, cv2.COLOR_BGR2GRAY).astype(np.float32) + 1
    # rows whose mean steps (two rows below over the row above): the only ones worth a look
    means = grey.mean(axis=1)
    steps = means[3:] / means[:-3]
    rows = np.flatnonzero((steps >= 1.1) & (steps <= 8))
    rows = rows[rows < 0.75 * h]
    if not len(rows):
        return image
    ratio = grey[rows + 3] / grey[rows]
    middle = np.median(ratio, axis=1)
    # within 8 %, or 3 levels for dark colours (a dimmed dark background is a few levels)
    agree = (np.abs(grey[rows + 3] - grey[rows] * middle[:, None]) <= np.maximum(0.08 * grey[rows + 3], 3)).mean(axis=1)
    keep = (agree >= 0.9) & (middle >= 1 / 0.85) & (middle <= 1 / 0.15)
    found, middle = rows[keep], middle[keep]
    if not len(found):
        return image
    top = int(found[np.argmax(middle)])    # the strongest step (in the dimmed rows small ones agree within 3 levels)
    # the first row below the shade: of the rows the step was seen across, the one that steps most
    edge = top + 1 + int(np.argmax([np.median(grey[r] / grey[r - 1]) for r in range(top + 1, top + 4)]))
    below, above = cols[min(h - 1, edge + 1)].astype(np.float32), cols[max(0, edge - 2)].astype(np.float32)
    # per channel, by least squares (the light pixels weigh most: JPEG blurs dark colours' hues)
    gains = [float(a @ b / (a @ a)) if a @ a > 0 else 0.0 for a, b in zip(above.T, below.T)]
    gain = float(np.median(gains))
    if not (min(gains) > 0 and max(gains) <= 1.25 * min(gains) and 1 / 0.85 <= gain <= 1 / 0.15):
        return image
    # the factor from a few dark pixels is rough: the most common light neutral level above
    # the edge, brightened, is the nearest one below (the cells' or the page's grey)
    above_level, below_level = _neutral_peak(cols[:edge:2], gain), _neutral_peak(cols[edge::2], 1.0)
    if above_level and below_level and abs(below_level / above_level - 1) < 0.15:
        gain *= below_level / above_level
    out = image.copy()
    out[:edge] = np.clip(image[:edge] * np.float32(gain), 0, 255).round().astype(np.uint8)
    stage("onestroke-unshaded", out)
    return out


def _neutral_peak(pixels: np.ndarray, gain: float) -> float:
    """The most common grey level of the neutral pixels (times ``gain``) from 60 up, 0 when none."""
    px = pixels.reshape(-1, 3)
    px = px[np.ptp(px, axis=1) <= UNSATURATED]
    levels = np.round(px.mean(axis=1) * gain).astype(np.int64)
    levels = levels[(levels >= 60) & (levels <= 255)]
    return float(np.argmax(np.bincount(levels))) if len(levels) else 0.0


def cell_masks(image: np.ndarray) -> Iterator[tuple[np.ndarray, Cells]]:
    """The mask of each candidate grey with its grey level, most common grey first, then
    of each candidate colour with its look (computed lazily: a clear reading stops the
    search)."""
    grey, neutral = neutral_planes(image)
    for level in candidate_greys(grey, neutral):
        yield cell_mask(image, level, (grey, neutral)), level
    for look in candidate_colours(image, neutral):
        yield look.mask(image), look


def grids(image: np.ndarray, enclosed: bool = False,
          masks: Iterable[tuple[np.ndarray, Cells]] | None = None) -> Iterator[tuple[Lattice, Cells]]:
    """The lattice of each candidate's mask (``masks``, made already, else ``cell_masks``)
    with its grey level or look; ``enclosed``: of blobs with what they enclose
    (``find_squares``)."""
    for mask, cells in (cell_masks(image) if masks is None else masks):
        lat = fit_lattice(find_squares(mask, enclosed))
        if lat is not None:
            yield lat, cells


def looked_grids(image: np.ndarray, look: Look) -> Iterator[tuple[Lattice, Look]]:
    """The lattice of a profile's cell colour, if its squares make one."""
    lat = fit_lattice(find_squares(look.mask(image)))
    if lat is not None:
        yield lat, look


def read_board(image: np.ndarray, lat: Lattice, cells: Cells) -> Parse[OnestrokeGeometry]:
    """The board on a lattice found at reduced scale (given in full-image pixels)."""
    full = refine(image, lat, cells)
    stage("onestroke-grid", lambda: marked(image, [(*full.centre(r, c), "") for r, c in full.members]))
    colours = board_colours(image, full)
    if isinstance(cells, Look):
        colours = replace(colours, tolerance=cells.tolerance, start=cells.start)
    places, origin = read_places(image, full, colours)
    fitted = refit(image, full, places, origin, colours)
    if abs(fitted.px - full.px) > 0.01 * full.px or abs(fitted.py - full.py) > 0.01 * full.py:
        # The first pitch came from a few grey cells: far places may have been misread.
        places, origin = read_places(image, fitted, colours)
        fitted = refit(image, fitted, places, origin, colours)
    stage("onestroke-cells", lambda: marked(image, [(*fitted.centre(r + origin[0], c + origin[1]), kind)
                                                    for (r, c), kind in places.items()]))
    return _reading(image, fitted, places, *origin, colours)


def _fit_quality(lat: Lattice) -> float:
    """1 for a perfect lattice, falling to 0 as the residual reaches 6 % of the pitch
    (the game draws cells exactly on the grid; JPEG and scaling cost well under 1 %), or
    2 px on small boards, where snapping each cell to whole pixels alone costs about 0.5 px."""
    return max(0.0, 1.0 - lat.rms / max(0.06 * min(lat.px, lat.py), 2.0))


def _board_box(image: np.ndarray, lat: Lattice, places: list[tuple[int, int]]) -> tuple[int, int, int, int]:
    """(x0, y0, x1, y1): the image area of the places with a pitch around them."""
    xs = [lat.centre(r, c)[0] for r, c in places]
    ys = [lat.centre(r, c)[1] for r, c in places]
    h, w = image.shape[:2]
    return (max(0, int(min(xs) - lat.px)), max(0, int(min(ys) - lat.py)),
            min(w, int(max(xs) + lat.px) + 1), min(h, int(max(ys) + lat.py) + 1))


def _centroids(mask: np.ndarray, corner: tuple[int, int], lat: Lattice, places: list[tuple[int, int]],
               half: float, min_area: float) -> dict[tuple[int, int], tuple[float, float, float]]:
    """(x, y, area) of the mask's pixels within ``half`` of each place's centre, for the
    places whose box lies inside the mask and holds at least ``min_area`` pixels."""
    h, w = mask.shape
    found = {}
    for r, c in places:
        x, y = lat.centre(r, c)
        x0, y0 = round(x - half) - corner[0], round(y - half) - corner[1]
        x1, y1 = round(x + half) + 1 - corner[0], round(y + half) + 1 - corner[1]
        if x0 < 0 or y0 < 0 or x1 > w or y1 > h:
            continue
        m = cv2.moments(mask[y0:y1, x0:x1], binaryImage=True)
        if m["m00"] >= min_area:
            found[(r, c)] = (x0 + corner[0] + m["m10"] / m["m00"], y0 + corner[1] + m["m01"] / m["m00"], m["m00"])
    return found


def _spread(places: list[tuple[int, int]], most: int = 32) -> list[tuple[int, int]]:
    """At most ``most`` of the places, spread over the board and keeping its outermost
    rows and columns: enough for the fit, a fraction of the work on big boards."""
    if len(places) <= most:
        return places
    keep = set(places[i] for i in np.linspace(0, len(places) - 1, most).round().astype(int))
    for key in (lambda p: p[0], lambda p: p[1]):
        keep.update((min(places, key=key), max(places, key=key)))
    return sorted(keep)


def refine(image: np.ndarray, lat: Lattice, cells: Cells, enclosed: bool = False) -> Lattice:
    """The lattice re-measured at full resolution: the centroid and size of the cell colour
    (``enclosed``: with what it encloses) within half a pitch of each member's centre, then
    the least-squares fit again."""
    members = _spread(list(lat.members))
    x0, y0, x1, y1 = _board_box(image, lat, members)
    mask = cell_mask(image[y0:y1, x0:x1], cells)
    if enclosed:
        mask = filled(mask)
    found = _centroids(mask, (x0, y0), lat, members, min(lat.px, lat.py) / 2, 0.3 * lat.cell ** 2)
    if len(found) < max(2, len(members) // 2):
        return lat
    # A rounded square fills about 97 % of its bounding square.
    size = float(np.sqrt(np.median([a for _, _, a in found.values()]) / 0.97))
    return _fit(replace(lat, cell=size), {rc: (x, y) for rc, (x, y, _) in found.items()})


def refit(image: np.ndarray, lat: Lattice, places: dict[tuple[int, int], str], origin: tuple[int, int],
          colours: Colours) -> Lattice:
    """The lattice fitted again to every unvisited cell of the board, so the pitch spans
    the whole board; visited cells too when the unvisited ones do not span half its rows
    and columns (the band reaching into the gaps pulls their centroids off by a pixel or
    so, a few grey cells' pitch more, over a long way). A cell's centre is the centroid of its non-background pixels within a box just
    larger than the cell; twice, as the first boxes may be off."""
    grey = [p for p, kind in places.items() if kind == CELL]
    rows, cols = 1 + max(r for r, _ in places), 1 + max(c for _, c in places)
    spans = len({r for r, _ in grey}) >= max(2, rows / 2) and len({c for _, c in grey}) >= max(2, cols / 2)
    kinds = (CELL,) if spans else (CELL, VISITED)
    cells = _spread([(r + origin[0], c + origin[1]) for (r, c), kind in places.items() if kind in kinds])
    if len(cells) < 2:      # nothing to fit to (a damaged picture): the lattice stays
        return lat
    x0, y0, x1, y1 = _board_box(image, lat, cells)
    low = np.clip(colours.background - colours.tolerance, 0, 255).astype(np.uint8)
    high = np.clip(colours.background + colours.tolerance, 0, 255).astype(np.uint8)
    mask = cv2.bitwise_not(cv2.inRange(image[y0:y1, x0:x1], low, high))
    for half in (min(lat.px, lat.py) / 2, lat.cell / 2 + 2):
        found = _centroids(mask, (x0, y0), lat, cells, half, 0.8 * lat.cell ** 2)
        if len(found) < 2:
            return lat
        lat = _fit(lat, {rc: (x, y) for rc, (x, y, _) in found.items()})
    return lat


def _hidden_above(image: np.ndarray, lat: Lattice, colours: Colours, centre: tuple[float, float],
                  band: np.ndarray) -> bool:
    """Whether the place above the cat, at ``centre`` and read as visited, cannot be told.
    The cat's head and ears rise over the cell above it; in a small blurred frame they
    cover its lower half in the path's colour (``band``), and it passes for a visited cell.
    A visited cell has the drawn band across its middle; this one's upper part and middle
    are the cells' grey."""
    place = central(image, centre, lat.cell)
    if place is None:
        return False
    upper = place[: max(1, round(0.4 * len(place)))].reshape(-1, 3).astype(np.int16)
    middle = _pixel(image, centre).astype(float)
    return bool(_cell_like(upper, colours).mean() >= 0.6
                and np.abs(middle - colours.cell).max() < np.abs(middle - band).max())


def drawn_path(image: np.ndarray, lat: Lattice, places: dict[tuple[int, int], str], origin: tuple[int, int],
               head: tuple[int, int], colours: Colours) -> list[tuple[int, int]] | None:
    """The path drawn so far, from the start to the cell before the head (the cat), or
    None before the first step. NoBoardFound when the visited cells cannot be one path
    drawn from the start up to the cat: not one piece, no visited cell next to the cat, or
    a cat not in the path's colour (a misread place would give a wrong board).

    The order comes from the band in the gaps: two neighbouring visited cells follow each
    other on the path when the gap between them shows the band, not the background. When
    those links do not make one line ending beside the cat (a blurred frame), the visited
    cells still give the board, and the geometry just has no ``drawn`` path."""
    visited = {p for p, kind in places.items() if kind == VISITED}
    if not visited:
        return None
    def centre(p: tuple[int, int]) -> tuple[float, float]:
        return lat.centre(p[0] + origin[0], p[1] + origin[1])

    band = np.median([_pixel(image, centre(p)) for p in visited], axis=0)
    above = (head[0] - 1, head[1])
    if above in visited and _hidden_above(image, lat, colours, centre(above), band):
        raise NoBoardFound("the cat's head hides the cell above it, whose upper part and middle are a plain "
                           "cell's grey: it may be a cell or a visited one (a larger or sharper picture tells)")
    # The cat is drawn in the path's colour (a profile's own start marker need not be).
    if colours.start is None and not _same_hue(band, _body_colour(image, lat, centre(head))):
        raise NoBoardFound("the cat's colour is not the drawn path's")
    if len(reach(head, visited)) != len(visited) + 1:
        raise NoBoardFound("the visited cells are not one path drawn up to the cat")
    linked = {(p, n) for p in visited for n in adjacent(p)[1::2]     # below and right: each pair once
              if n in visited and _linked(image, lat, p, n, origin, colours.background)}
    links = {p: [n for n in adjacent(p) if (p, n) in linked or (n, p) in linked] for p in visited}
    if len(visited) == 1:
        # the first step: the band joins the start to the cat across their gap (a place
        # the cat's tail pokes into, in a small blurred frame, is not joined by one)
        if not _linked(image, lat, min(visited), head, origin, colours.background):
            raise NoBoardFound("one visited cell, not joined to the cat by the drawn band")
        return list(visited)
    ends = [p for p, ns in links.items() if len(ns) == 1]
    if any(len(ns) not in (1, 2) for ns in links.values()) or len(ends) != 2:
        return None
    beside = [p for p in ends if p in adjacent(head)]
    if len(beside) != 1:
        return None
    path, previous = [next(p for p in ends if p != beside[0])], None
    while len(path) < len(visited):
        step = [n for n in links[path[-1]] if n != previous]
        if len(step) != 1:
            return None
        previous = path[-1]
        path.append(step[0])
    return path if path[-1] == beside[0] else None


def _body_colour(image: np.ndarray, lat: Lattice, xy: tuple[float, float]) -> np.ndarray:
    """The cat's body colour: the median of the saturated pixels on its cell (its head;
    the face is white, the eyes dark)."""
    patch = central(image, xy, lat.cell)
    if patch is None:
        return np.zeros(3)
    px = patch.reshape(-1, 3).astype(np.int16)
    saturated = px[px.max(axis=1) - px.min(axis=1) > 40]
    return np.median(saturated, axis=0) if len(saturated) else np.zeros(3)


def _same_hue(a: np.ndarray, b: np.ndarray) -> bool:
    """Whether two BGR colours have about the same hue and saturation: their chroma (the
    colour less its grey) points the same way (cosine ≥ 0.9) at up to twice the length."""
    ca, cb = a - a.mean(), b - b.mean()
    na, nb = float(np.linalg.norm(ca)), float(np.linalg.norm(cb))
    return na > 0 and nb > 0 and float(ca @ cb) / (na * nb) >= SAME_HUE and max(na, nb) <= 2 * min(na, nb)


def _linked(image: np.ndarray, lat: Lattice, a: tuple[int, int], b: tuple[int, int], origin: tuple[int, int],
            background: np.ndarray) -> bool:
    """Whether the gap between two neighbouring visited places shows the drawn band: the
    gap's middle strays from the background more than half as far as the band (on the
    cells' centres) does; the median of the pixels along the gap's centre line over 0.3
    of a cell, so JPEG and blur average out."""
    (xa, ya), (xb, yb) = (lat.centre(p[0] + origin[0], p[1] + origin[1]) for p in (a, b))
    mx, my = round((xa + xb) / 2), round((ya + yb) / 2)
    along = max(1, round(0.15 * lat.cell))
    h, w = image.shape[:2]
    if not (along <= mx < w - along and along <= my < h - along):
        return False
    line = image[my, mx - along:mx + along + 1] if a[1] == b[1] else image[my - along:my + along + 1, mx]
    gap = np.median(line.astype(np.int16), axis=0)
    band = (_pixel(image, (xa, ya)) + _pixel(image, (xb, yb))) / 2     # the band covers every visited centre
    return bool(np.abs(gap - background).max() > 0.5 * np.abs(band - background).max())


def _without_stray_cats(image: np.ndarray, lat: Lattice, places: dict[tuple[int, int], str],
                        origin: tuple[int, int], colours: Colours) -> tuple[dict[tuple[int, int], str], tuple[int, int]]:
    """Mid-level, when several places look like the cat: the cat is the one beside a
    visited cell whose body has the drawn path's hue; when exactly one does and the others
    lie off the board (outside the box of its cells: a coin or button beside the board,
    taken into the extent), the places are cut back to that box. Otherwise unchanged
    (and the reading is refused for its several cats)."""
    cats = [p for p, kind in places.items() if kind == CAT]
    visited = {p for p, kind in places.items() if kind == VISITED}
    if len(cats) < 2 or not visited or colours.start is not None:
        return places, origin

    def centre(p: tuple[int, int]) -> tuple[float, float]:
        return lat.centre(p[0] + origin[0], p[1] + origin[1])

    band = np.median([_pixel(image, centre(p)) for p in visited], axis=0)
    cat = [p for p in cats if visited & set(adjacent(p)) and _same_hue(band, _body_colour(image, lat, centre(p)))]
    if len(cat) != 1:
        return places, origin
    board = [p for p, kind in places.items() if kind in (CELL, VISITED)] + cat
    strays = [p for p in cats if p != cat[0]]
    if any(_inside(p, board) for p in strays):
        return places, origin
    return _cut_to(places, origin, board)


def _inside(place: tuple[int, int], board: list[tuple[int, int]]) -> bool:
    """Whether a place lies within the bounding box of the board's places."""
    return (min(r for r, _ in board) <= place[0] <= max(r for r, _ in board)
            and min(c for _, c in board) <= place[1] <= max(c for _, c in board))


def _cut_to(places: dict[tuple[int, int], str], origin: tuple[int, int],
            board: list[tuple[int, int]]) -> tuple[dict[tuple[int, int], str], tuple[int, int]]:
    """The places cut back to the bounding box of the board's places, keyed from its
    top-left, and that top-left in the lattice's indices."""
    top, left = min(r for r, _ in board), min(c for _, c in board)
    kept = {(r - top, c - left): kind for (r, c), kind in places.items() if _inside((r, c), board)}
    return kept, (origin[0] + top, origin[1] + left)


def _marked_start(image: np.ndarray, lat: Lattice, places: dict[tuple[int, int], str], origin: tuple[int, int],
                  colours: Colours) -> tuple[dict[tuple[int, int], str], tuple[int, int]]:
    """With no cat on the board: the start is the one cell marked apart from the others
    (a square of another colour, a tint, a letter), a cell that differs from the plain
    cells clearly and alone (``_marked``); it becomes the CAT place. Other places that are
    neither cells nor holes may only be pictures beside the board (a button, coins, an
    icon): outside the box of the cells and not joined to them; they are cut away (and
    ``_covered_side`` then judges what lies just past the board). Anything else is
    refused: no marked cell, several (a path partly drawn, whose head nothing tells: said so
    when two or more places beside the cells are joined by a band), or an unknown thing on
    the board."""
    others = [p for p, kind in places.items() if kind in (VISITED, UNSURE, CAT)]

    def at(p: tuple[int, int]) -> tuple[int, int]:
        return p[0] + origin[0], p[1] + origin[1]

    marks = [p for p, kind in places.items() if kind in (CELL, VISITED, UNSURE) and _marked(image, lat, colours, *at(p))]
    cells = [p for p, kind in places.items() if kind == CELL]
    if not marks and _drawn_path(image, lat, colours, [at(p) for p in others], {at(p) for p in cells}):
        raise NoBoardFound("a path is partly drawn (cells joined by a band, the start among them), and "
                           "this game does not show which end is its head, so the cells left to fill are not known: "
                           "undo the path, or take the picture before drawing")
    if not marks:
        raise NoBoardFound("a grid of cells but no start on it: no cat, and no cell marked apart from the others"
                           + (f" ({len(others)} places are neither plain cells nor holes: a path partly drawn, "
                              "or something over the board?)" if others else ""))
    if len(marks) > 1:
        raise NoBoardFound(f"{len(marks)} cells differ from the plain ones, so the start is unclear "
                           "(a path partly drawn, or something over the board?)")
    board = [p for p, kind in places.items() if kind == CELL or p in marks]
    for p in others:
        if p in marks:
            continue
        if _inside(p, board) or any(q in board and not _apart(image, lat, colours, at(p), at(q)) for q in adjacent(p)):
            raise NoBoardFound("something on the board is neither a cell, a hole nor the start "
                               "(a path partly drawn, or something over the board?)")
    kept, cut = _cut_to(places, origin, board)
    mark = (marks[0][0] + origin[0] - cut[0], marks[0][1] + origin[1] - cut[1])
    return {**kept, mark: CAT}, cut


def _drawn_path(image: np.ndarray, lat: Lattice, colours: Colours, places: list[tuple[int, int]],
                cells: set[tuple[int, int]]) -> bool:
    """Whether two or more of the places (lattice indices) make a group joined across the
    gaps between neighbours (not ``_apart``) beside a plain cell: a path's cells and the
    band through them, on the board."""
    left = set(places)
    while left:
        group = [left.pop()]
        for p in group:
            near = [q for q in adjacent(p) if q in left and not _apart(image, lat, colours, p, q)]
            left -= set(near)
            group += near
        if len(group) >= 2 and any(q in cells for p in group for q in adjacent(p)):
            return True
    return False


def _cell_shaped(image: np.ndarray, lat: Lattice, colours: Colours, r: int, c: int) -> bool:
    """Whether place (r, c) shows a square of a cell's size on the lattice, in whatever
    shade (dimmed, half dimmed, drawn over): within one pitch around it, the pixels unlike
    every gap beside it and at its corners make a blob about a cell wide and high that
    fills its box. A picture larger than a cell or off the lattice (a coin, an icon, a
    button) spills over that box. A place the picture's edge cuts is not judged here
    (``_cut_by_edge`` is)."""
    x, y = lat.centre(r, c)
    x0, x1, y0, y1 = round(x - lat.px / 2), round(x + lat.px / 2) + 1, round(y - lat.py / 2), round(y + lat.py / 2) + 1
    if x0 < 1 or y0 < 1 or x1 > image.shape[1] - 1 or y1 > image.shape[0] - 1:
        return False
    step = max(1, round(min(lat.px, lat.py) / 40))       # about 40 px a side is enough
    window = image[y0:y1:step, x0:x1:step].astype(np.int16)
    unlike = np.ones(window.shape[:2], bool)
    for gx in (x0, round(x), x1 - 1):
        for gy in (y0, round(y), y1 - 1):
            if (gx, gy) != (round(x), round(y)):
                gap = np.median(image[gy - 1:gy + 2, gx - 1:gx + 2].reshape(-1, 3), axis=0)
                unlike &= np.abs(window - gap).max(axis=2) > colours.tolerance
    count, _, stats, _ = cv2.connectedComponentsWithStats(unlike.astype(np.uint8), connectivity=4)
    if count < 2:
        return False
    _, _, w, h, area = stats[1 + int(np.argmax(stats[1:, cv2.CC_STAT_AREA]))]
    return bool(0.85 * lat.cell <= step * min(w, h) and step * max(w, h) <= 1.1 * lat.cell and area >= 0.8 * w * h)


def _marked(image: np.ndarray, lat: Lattice, colours: Colours, r: int, c: int) -> bool:
    """Whether place (r, c) is a cell marked apart: filled to the edge of its central
    square (no background there), at least ``MARKED`` of it off the cell colour, and
    background all round it (the gaps beside it and at its corners), so a thing confined
    to one cell, not a band running on nor a picture larger than a cell."""
    patch = _patch(image, lat, r, c)
    if patch is None:
        return False
    edge = np.concatenate([patch[0], patch[-1], patch[:, 0], patch[:, -1]]).astype(np.int16)
    if (_most(np.abs(edge - colours.background)) <= 2 * colours.tolerance).mean() > 0.05:
        return False
    if (~_cell_like(patch.reshape(-1, 3), colours)).mean() < MARKED:
        return False
    x, y = lat.centre(r, c)
    return all(_background_at(image, (x + dx * lat.px, y + dy * lat.py), colours)
               for dx in (-0.5, 0, 0.5) for dy in (-0.5, 0, 0.5) if dx or dy)


def _apart(image: np.ndarray, lat: Lattice, colours: Colours, a: tuple[int, int], b: tuple[int, int]) -> bool:
    """Whether the gap between neighbouring places a and b (lattice indices) shows the
    background: nothing joins them."""
    (xa, ya), (xb, yb) = lat.centre(*a), lat.centre(*b)
    return _background_at(image, ((xa + xb) / 2, (ya + yb) / 2), colours)


def _background_at(image: np.ndarray, xy: tuple[float, float], colours: Colours) -> bool:
    """Whether the 3×3 pixels' median at a point is within twice the tolerance of the
    background per channel; a point off the picture (a crop) counts as background."""
    x, y = round(xy[0]), round(xy[1])
    h, w = image.shape[:2]
    if not (1 <= x < w - 1 and 1 <= y < h - 1):
        return True
    window = np.median(image[y - 1:y + 2, x - 1:x + 2].reshape(-1, 3), axis=0)
    return bool(np.abs(window - colours.background).max() <= 2 * colours.tolerance)


def _cut_by_edge(image: np.ndarray, lat: Lattice, rows: int, cols: int, origin: tuple[int, int],
                 colours: Colours) -> str | None:
    """Which edge of the picture ("left", "top", "right", "bottom") may cut the board, or
    None. The board grows while the next line of places holds a cell, and a place the
    picture's edge cuts reads as a hole: a crop through a row of cells would read as a
    smaller board, a wrong one. So the board's places must lie wholly in the picture, and
    where the edge cuts a place just past the board, it must show enough of it (past the
    gap) and that part must show the background."""
    h, w = image.shape[:2]
    half = lat.cell / 2
    (xa, ya), (xb, yb) = lat.centre(*origin), lat.centre(origin[0] + rows - 1, origin[1] + cols - 1)
    ys = [ya + i * lat.py for i in range(rows)]
    xs = [xa + i * lat.px for i in range(cols)]
    lines = {"left": (xa - lat.px, xa, w, ys), "right": (xb + lat.px, xb, w, ys),
             "top": (ya - lat.py, ya, h, xs), "bottom": (yb + lat.py, yb, h, xs)}
    for side, (past, outer, end, across) in lines.items():
        if outer - half < 0 or outer + half > end:
            return side                 # the board's own outer cells are cut
        lo, hi = max(0.0, past - half), min(float(end), past + half)
        if past - half >= 0 and past + half <= end:
            continue                    # the places past the board lie wholly in the picture: read as holes
        if hi - lo < max(2.0, SEEN_PAST * (lat.px if side in ("left", "right") else lat.py)):
            return side
        for t in across:
            a, b = max(0, round(t - half)), round(t + half)
            strip = image[a:b, round(lo):round(hi)] if side in ("left", "right") else image[round(lo):round(hi), a:b]
            px = strip.reshape(-1, 3).astype(np.int16)
            if len(px) and (_most(np.abs(px - colours.background)) > 2 * colours.tolerance).mean() >= CUT_CELL:
                return side
    return None


def _covered_side(image: np.ndarray, lat: Lattice, rows: int, cols: int, origin: tuple[int, int],
                  colours: Colours) -> str | None:
    """Why the board may go on past one of its sides, or None. The board grows while the
    next line of places holds a cell, so a line of cells in another shade (dimmed by a
    notification shade, half dimmed) or hidden (under a popup) would end it early, a
    smaller board, a wrong one. So no place just past a side may have a cell's shape
    (``_cell_shaped``) or show some of the cell colour and no background (a cell cut by a
    popup's edge or the shade's), and the places along a side may not all be covered with
    no background in any (a panel over the board's rest). A phone window's edge beside the
    board leaves some of the phone's background in those places."""
    r0, c0 = origin
    lines = {"top": [(r0 - 1, c) for c in range(c0, c0 + cols)],
             "bottom": [(r0 + rows, c) for c in range(c0, c0 + cols)],
             "left": [(r, c0 - 1) for r in range(r0, r0 + rows)],
             "right": [(r, c0 + cols) for r in range(r0, r0 + rows)]}
    x0, y0 = lat.centre(r0 - 0.5, c0 - 0.5)
    looks = {side: [_past_look(image, lat, colours, p) for p in line] for side, line in lines.items()}
    stage("onestroke-sides", lambda: marked(image, [(*lat.centre(*p), "?" if look[2] else "x")
                                                    for side, line in lines.items()
                                                    for p, look in zip(line, looks[side]) if look[1] < 0.75],
                                            [(x0, y0, cols * lat.px, rows * lat.py)]))
    for side, line in lines.items():
        if any(cell >= CUT_CELL_SHARE and bg <= 0.05 or worth and _cell_shaped(image, lat, colours, *p)
               for p, (cell, bg, worth) in zip(line, looks[side])):
            return (f"a cell may lie past the board's {side} side, cut, hidden or in another shade (dimmed by "
                    "a notification shade, or under a popup?): the board may go on there")
        if all(bg <= 0.05 for _, bg, _ in looks[side]):
            return f"something covers the board past its {side} side (a popup or a banner?)"
    return None


def _past_look(image: np.ndarray, lat: Lattice, colours: Colours, place: tuple[int, int]) -> tuple[float, float, bool]:
    """A place past the board: the shares of its central square in the cell colour and in
    the background, and whether its shape is worth a look (``_cell_shaped``): not when the
    square is of one colour (but for 3 % of it), the same as the pixels at its corners
    (the page in any shade)."""
    patch = _patch(image, lat, *place)
    if patch is None:
        return 0.0, 1.0, False
    px = patch[::2, ::2].reshape(-1, 3).astype(np.int16)     # about 12 px a side is enough for shares
    cell = float(_cell_like(px, colours).mean())
    bg = float((_most(np.abs(px - colours.background)) <= colours.tolerance).mean())
    middle = px.mean(axis=0)
    x, y = lat.centre(*place)
    plain = (_most(np.abs(px - middle)) <= colours.tolerance).mean() >= 0.97 and all(
        np.abs(_pixel(image, (x + d * lat.px, y + d * lat.py)) - middle).max() <= colours.tolerance for d in (-0.5, 0.5))
    return cell, bg, not plain


def _empty(image: np.ndarray, lat: Lattice, colours: Colours, r: int, c: int) -> bool:
    """Whether place (r, c) shows only the background out to the middle of the gaps round
    it (at most 5 % of its pixels off; a place the picture's edge cuts is judged by what it
    shows): a hole is empty, where a cell drawn as an outline is not."""
    x, y = lat.centre(r, c)
    half = (lat.cell + min(lat.px, lat.py)) / 4
    h, w = image.shape[:2]
    box = image[max(0, round(y - half)):min(h, round(y + half)), max(0, round(x - half)):min(w, round(x + half))]
    step = max(1, round(half / 12))       # about 24 px a side is enough
    px = box[::step, ::step].reshape(-1, 3).astype(np.int16)
    return not len(px) or (_most(np.abs(px - colours.background)) > 2 * colours.tolerance).mean() <= 0.05


def _reading(image: np.ndarray, lat: Lattice, places: dict[tuple[int, int], str], r0: int, c0: int,
             colours: Colours) -> Parse[OnestrokeGeometry]:
    """The board text, confidence and geometry from the classified places."""
    places, (r0, c0) = _without_stray_cats(image, lat, places, (r0, c0), colours)
    cells = [p for p, kind in places.items() if kind in (CELL, VISITED, CAT)]
    if len(cells) < 4:
        raise NoBoardFound(f"only {len(cells)} cells on the grid (need at least 4)")
    marked_start = not any(places.get(q) in (CELL, VISITED) for p, kind in places.items() if kind == CAT
                           for q in adjacent(p))
    if marked_start:        # no cat on the board
        places, (r0, c0) = _marked_start(image, lat, places, (r0, c0), colours)
    rows = 1 + max(r for r, _ in places)
    cols = 1 + max(c for _, c in places)
    cats = [p for p, kind in places.items() if kind == CAT]
    if len(cats) > 1:
        raise NoBoardFound(f"{len(cats)} places look like the cat; cannot tell the start")
    cut = _cut_by_edge(image, lat, rows, cols, (r0, c0), colours)
    if cut:
        raise NoBoardFound(f"the picture's {cut} edge may cut the board (a cell cut or hidden there)")
    covered = _covered_side(image, lat, rows, cols, (r0, c0), colours)
    if covered:
        raise NoBoardFound(covered)
    beside_cat = {q for p in cats for q in adjacent(p)}       # the cat's head, ears and tail reach past its cell
    if any(kind == HOLE and (r, c) not in beside_cat and not _empty(image, lat, colours, r0 + r, c0 + c)
           for (r, c), kind in places.items()):
        raise NoBoardFound("a place read as a hole shows something round its middle (a cell drawn as an outline?)")
    unsure = sum(kind == UNSURE for kind in places.values())
    confidence = _fit_quality(lat) * 0.8 ** unsure * min(1.0, len(lat.members) / 4)
    if confidence < MIN_CONFIDENCE:
        raise NoBoardFound(f"the grid fits poorly (confidence {confidence:.2f})")
    drawn = drawn_path(image, lat, places, (r0, c0), cats[0], colours)
    # Mid-level, the board is what is left: visited cells are gone and the cat is the head.
    symbol = {CAT: "S", CELL: "#"}
    text = "\n".join("".join(symbol.get(places[(r, c)], ".") for c in range(cols)) for r in range(rows))
    ox, oy = lat.centre(r0, c0)
    centres = [(ox + c * lat.px, oy + r * lat.py) for r in range(rows) for c in range(cols)]
    geometry = OnestrokeGeometry((round(ox, 2), round(oy, 2)), (round(lat.px, 3), round(lat.py, 3)),
                                 round(lat.cell, 2), rows, cols, None if drawn is None else tuple(drawn))
    board = Board.from_text(text)
    if marked_start and (reason := level_reason(board)):
        raise NoBoardFound(reason)
    return Parse("onestroke", board, round(confidence, 4), centres, geometry)


@functools.lru_cache(maxsize=64)    # live reads the same board frame after frame
def level_reason(board: Board) -> str:
    """Why a board read at a level's start is no level ("" when it is one): every level
    has a path through all its cells. Where no cat marks the start, a grid of alike squares
    with one apart (another app's level, but also a lights-out game or a menu of tiles) is
    a level only when such a path exists. A search stopped at ``LEVEL_NODES`` proves nothing."""
    from solvers.onestroke import solve

    found = solve(board, max_nodes=LEVEL_NODES)
    if found.solved or found.stats.get("capped"):
        return ""
    return (f"a grid of cells with one marked apart, but no path from it visits every cell ({found.reason}), "
            "as every level's does: another game's grid, or cells misread")
