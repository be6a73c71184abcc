"""LYNE screenshot → board, by geometry rather than by colour.

Stages, each a function:
1. ``game_areas``: the game's background changes only slowly from pixel to pixel (a
   soft light across the window, dithering and JPEG noise filtered out), unlike nodes,
   frames, text and wallpapers; each large smooth patch is a candidate game area, framed
   ones first, then those reaching the picture's edge (crops, full screens).
2. ``lighting``: a quadratic light fitted to the patch's pixels is taken out, so the
   background is one colour again (the game's unlit captures skip this).
3. ``segment``: inside the area, the background and the faint diamonds (the most common
   colour near the background, the nearer ones first) are "back"; everything else is foreground. An
   opening removes the thin lines between nodes and the cream path lines.
4. ``classify``: each foreground blob's outline says its kind — square (fills its box),
   octagon (a box with cut corners: a hub), triangle or diamond (half the box; a
   triangle's weight sits low, a diamond's in the middle). A terminal has a ring whose
   colour differs from the fill inside it (read inside the shape's half-way edge, past
   the blur) and a centre that leans to cream, or a solid cream centre alone. A hub's holes are diamonds of non-hub
   colour at the sprite's hole places (filled ones count too: wider to both sides than a
   path line). A node cut by the picture's own edge makes it refused.
5. ``fit_grid``: node centres cluster into rows and columns on one pitch; the board must
   sit centred in a framed area (keep the game's margin towards a picture edge), every
   shape must have two terminals, and all nodes of a kind must share a colour —
   otherwise the image is refused ("no board found"). A hub whose hole place above or
   below path lines hide may have either count: the level is read when one set of such
   counts alone gives it a solution (the game's levels all have one), else refused; every
   pass of a path through a hub fills a hole, so a hub read with fewer holes than half the
   path lines seen leaving it is refused.
Nothing depends on a palette, so all twelve work, and no calibration profile is needed;
a profile's ``background_rgb`` finds game windows too small to be a candidate alone.
The work is done on the area scaled to ``WORK`` pixels (``puzzlepilot bench lyne``).
"""
from __future__ import annotations

import itertools
from dataclasses import dataclass, replace
from typing import Any, Iterator, Mapping

import cv2
import numpy as np

from solvers.common import BoardError
from solvers.lyne import Board
from vision.colours import common_colours, thinned
from vision.common import NoBoardFound, Parse, grid_labels, marked, stage
from vision.morphology import round_morph
from vision.profile import Profile

WORK = 800          # long side of the game area while reading it
SMALL = 480         # long side of the screen while looking for game areas
SMOOTH_STEP = 3     # max channel step between neighbours (median-filtered small copy) inside the background
MARGIN = 0.5        # least margin (pitches) between outer nodes and a picture edge cutting the window
EMPTY_TOL = 12      # max channel difference of an empty place's patch cell from the usual look
BACK_TOL = 16       # max channel difference still counted as background / faint diamond
TIGHT_TOL = 10      # the same on a second look, when the first is refused
OPEN_CAP = 21       # px: the opening that takes path lines away is at most this wide (but on a third look)
FAINT_NEAR = 40     # the faint diamonds are at most this far from the background (channel levels)
CREAM = (226, 236, 236)   # BGR, about every palette's border and terminal centre (when no frame is seen)
TRIANGLE_COVER = 0.82  # least share of the triangle on a blob's inscribed circle that a triangle covers
OCTAGON_COVER = 0.95  # the same for a hub's octagon, when stubs made its outline look like a triangle's
KIND_LETTER = {"triangle": "t", "diamond": "d", "square": "s"}
CREAM_OFF = 64       # levels: a place's middle this near the paths' cream may be a filled hole under a line
HUB_NEARER = 18      # levels: a shape this much nearer the hubs' colour than its kind's is refused
BARE_LEAST = 4       # pixels of the picture: the least of each side beside a line where a hub's colour rules out a hole
SETTLE_SETS = 27      # at most this many sets of counts for the hubs whose holes path lines hide
SETTLE_NODES = 20_000  # the solver's bound on a board read (the game's levels take a few dozen search nodes)


@dataclass
class Area:
    """A candidate game area in image pixels, its typical background colour (BGR), the
    background patch that found it (a mask over the area on the small copy), and which
    sides (left, top, right, bottom) reach the image's edge: no frame seen there."""

    x0: int
    y0: int
    x1: int
    y1: int
    background: np.ndarray
    patch: np.ndarray
    open_sides: tuple[bool, bool, bool, bool] = (False, False, False, False)


@dataclass
class Node:
    """A classified blob in work pixels."""

    kind: str                 # triangle, diamond, square, hub
    x: float
    y: float
    size: float
    terminal: bool = False
    holes: int = 0
    fill: tuple[int, int, int] = (0, 0, 0)
    ring: tuple[int, int, int] = (0, 0, 0)
    doubt: str = ""           # read as a hub first: why its holes were refused (then read as a square)
    counts: tuple[int, ...] = ()   # a hub's hole counts that path lines leave open (``holes``: the first)
    unsure: str = ""          # then why: the place they hide, in words
    hub: "Node | None" = None  # read as a square after a hub's reading in doubt (``unsure``): that reading


# a refusal's depth: blobs read as nodes; nodes on a lattice, or one node's own look in
# doubt (a hub's holes, a ring): a board but for what the reason names (no nodes: 0)
NODES, BOARD = 1, 2


class Refusal(NoBoardFound):
    """A refusal of one look at one game area that says how far the look got (``depth``:
    ``NODES`` or ``BOARD``; a plain ``NoBoardFound`` counts as 0, no nodes). Of the
    refusals of all areas and looks the deepest is reported, the first of equals: the most
    board-like look's reason says what to fix (a hub's doubtful hole rather than a wallpaper's
    "blob that is no LYNE node")."""

    def __init__(self, reason: str, depth: int) -> None:
        super().__init__(reason)
        self.depth = depth


def _depth(exc: NoBoardFound) -> int:
    """How far the look that was refused got (``Refusal``), 0 for a plain refusal."""
    return exc.depth if isinstance(exc, Refusal) else 0


@dataclass(frozen=True)
class LyneGeometry:
    """Where a LYNE board is in the picture: the place grid (``origin``: the top-left
    place's centre, ``pitch`` between places), the typical node size, the game area
    (x0, y0, x1, y1) it was read in, the background's colour and each shape's fill colour
    (RGB, by shape letter) as measured, for the overlay's lines and the calibration."""

    pitch: float
    origin: tuple[float, float]
    rows: int
    cols: int
    node_size: float
    area: tuple[float, float, float, float]
    background: tuple[int, int, int]
    colours: Mapping[str, tuple[int, int, int]]

    def shifted(self, dx: float, dy: float) -> "LyneGeometry":
        (x, y), (x0, y0, x1, y1) = self.origin, self.area
        return replace(self, origin=(x + dx, y + dy), area=(x0 + dx, y0 + dy, x1 + dx, y1 + dy))


def parse(image_bgr: np.ndarray, profile: Profile | None = None, work: int = WORK) -> Parse[LyneGeometry]:
    """Read the LYNE board shown in a screenshot; ``NoBoardFound`` when unsure. ``work``
    is the long side the game area is scaled to (the benchmark compares sizes). A
    calibration profile pins the game's background (``background_rgb``: [r, g, b]), so a
    game window too small to dominate the screen is still found."""
    if image_bgr is None or image_bgr.ndim != 3 or min(image_bgr.shape[:2]) < 40:
        raise NoBoardFound("image too small")
    background = None
    if profile is not None:
        profile.expect_game("lyne")
        background = np.array(profile.colour("background_rgb"), np.int16)
    refusals = []
    for area in game_areas(image_bgr, background):
        try:
            return read_area(image_bgr, area, work)
        except NoBoardFound as exc:
            refusals.append(exc)
    if not refusals:
        raise NoBoardFound("no game area (no large even background)")
    raise NoBoardFound(str(max(refusals, key=_depth)))   # the first of the deepest


def _near(img: np.ndarray, colour: np.ndarray, tol: int) -> np.ndarray:
    """Mask (0/1) of pixels within tol of colour on every channel."""
    lo = tuple(max(0, int(v) - tol) for v in colour)
    hi = tuple(min(255, int(v) + tol) for v in colour)
    return cv2.inRange(img, lo, hi) // 255


def game_areas(image: np.ndarray, background: np.ndarray | None = None) -> Iterator[Area]:
    """Candidate game areas: the large smooth patches of the screen, framed ones first,
    largest first.

    The game's background is lit with a soft gradient and may be dithered or compressed,
    so no single colour covers it; but it changes only slowly from pixel to pixel, while
    nodes, the window frame, text and photo wallpapers change sharply. On a small copy,
    median-filtered against dithering and JPEG noise, the pixels whose neighbours differ
    by little form connected patches; each large one is a candidate (computed lazily:
    the first usually holds the board). A calibration profile's background keeps only
    patches of about that colour, however little of the screen they cover (looked for on
    a copy twice as fine)."""
    h, w = image.shape[:2]
    k = min(1.0, (SMALL if background is None else 2 * SMALL) / max(h, w))
    least = 0.02 if background is None else 0.0
    small = cv2.resize(image, (max(1, round(w * k)), max(1, round(h * k))), interpolation=cv2.INTER_AREA)
    small = cv2.blur(cv2.medianBlur(small, 5), (3, 3))
    # each pixel's largest step to a 4-neighbour on any channel: the larger of (4-neighbour
    # max - pixel) and (pixel - 4-neighbour min), by a dilation and an erosion
    cross = cv2.getStructuringElement(cv2.MORPH_CROSS, (3, 3))
    step = cv2.max(cv2.subtract(cv2.dilate(small, cross), small), cv2.subtract(small, cv2.erode(small, cross)))
    smooth = cv2.inRange(step, (0, 0, 0), (SMOOTH_STEP,) * 3)     # every channel's step small (255)
    stage("lyne-smooth", smooth)
    small = small.astype(np.int16)
    n, labels, stats, _ = cv2.connectedComponentsWithStats(smooth, connectivity=4)
    sh, sw = smooth.shape
    order = np.argsort(-stats[1:, cv2.CC_STAT_AREA])[:6] + 1
    # framed patches first (a game window), then those reaching the picture's edge (a
    # crop, a full screen, or a smooth wallpaper)
    order = sorted(order, key=lambda i: any(_touches_edge(stats[i], sw, sh)))
    for i in order:
        x, y, bw, bh, count = stats[i]
        if count < least * sh * sw or count < 0.25 * bw * bh or min(bw, bh) < 20:
            continue
        edges = _touches_edge(stats[i], sw, sh)
        if not any(edges) and not 1.1 <= bw / bh <= 2.4:
            continue   # a whole game window is landscape (4:3 to 21:9); a crop may be any shape
        patch = (labels[y:y + bh, x:x + bw] == i).astype(np.uint8)
        colour = np.median(small[y:y + bh, x:x + bw][patch > 0], axis=0).astype(np.int16)
        if background is not None and np.abs(colour - background).max() > 40:
            continue
        yield Area(int(x / k), int(y / k), int(min(w, (x + bw) / k)), int(min(h, (y + bh) / k)), colour,
                   patch, edges)


def _touches_edge(stat: np.ndarray, w: int, h: int) -> tuple[bool, bool, bool, bool]:
    """Which sides (left, top, right, bottom) of a patch's box reach the picture's edge."""
    x, y, bw, bh = (int(v) for v in stat[:4])
    return x <= 1, y <= 1, x + bw >= w - 1, y + bh >= h - 1


def read_area(image: np.ndarray, area: Area, work_side: int = WORK) -> Parse[LyneGeometry]:
    """The board inside one candidate area, read at ``work_side`` pixels."""
    crop = image[area.y0:area.y1, area.x0:area.x1]
    stage("lyne-area", lambda: marked(image, boxes=[(area.x0, area.y0, area.x1 - area.x0, area.y1 - area.y0)]))
    h, w = crop.shape[:2]
    f = work_side / max(h, w)
    work = _scaled(crop, f)
    mask = cv2.resize(area.patch, (work.shape[1], work.shape[0]), interpolation=cv2.INTER_NEAREST)
    light, background = lighting(work, mask)
    native = crop if f < 1 else None
    if light is not None:
        light -= background.astype(np.float32)
        work = cv2.subtract(work, light, dtype=cv2.CV_8U)
    cream = _frame_colour(image, area)
    refusals: list[NoBoardFound] = []
    # a second look with a tighter background tolerance when the first is refused: a
    # shape whose fill is near the faint diamonds' colour (smoking room's squares, 19
    # levels apart) drops out of the foreground where the light shifts it closer; a third
    # with no bound on the opening when it was bounded: in a small crop scaled up to the
    # work size, a path being drawn (a single line in its shape's colour, 0.08 of a pitch)
    # is wider than the bound, and joins the nodes it passes into one blob; a last one
    # with an opening a third of a node wide on the blobs it splits: in a blurred video
    # frame a finished path's double line between near nodes (the sides of squares,
    # triangles' bases) is a band a fifth of a node wide, and joined them
    opened = OPEN_CAP       # how far the last look's opening went
    unbounded: tuple[np.ndarray, Colours] | None = None   # the last look whose opening was not bounded
    for tol, cap, split in ((BACK_TOL, OPEN_CAP, False), (TIGHT_TOL, OPEN_CAP, False), (BACK_TOL, None, False),
                            (BACK_TOL, None, True)):
        if split:
            if unbounded is None:
                continue
            fg, colours = unbounded
            wide = max(3, int(colours.size / 3) | 1)    # a third of a node
            fg = _split_joined(fg, round_morph(fg, cv2.MORPH_OPEN, wide))
            if fg is None:
                continue   # no blob split: the same look again
        else:
            if cap is None and opened < OPEN_CAP:
                continue   # the opening was not bounded: the same look again
            fg, colours = segment(work, background, cream, tol, cap)
            opened = colours.opened
            if tol == BACK_TOL and (cap is None or opened < OPEN_CAP):
                unbounded = fg, colours
        stage("lyne-mask", lambda: fg * 255)
        colours.light = light if native is not None else None   # the native crop is flattened node by node
        colours.zoom = max(1.0, f)
        try:
            nodes, (board, pitch, x0, y0, residual) = _read_nodes(work, fg, colours, native, area.open_sides)
            break
        except NoBoardFound as exc:
            refusals.append(exc)
    else:
        raise max(refusals, key=_depth)   # the first of the deepest
    cells = [(area.x0 + (x0 + c * pitch) / f, area.y0 + (y0 + r * pitch) / f)
             for r in range(board.rows) for c in range(board.cols)]
    confidence = float(np.clip(0.98 - residual / pitch * 1.5, 0.5, 0.98))
    geometry = LyneGeometry(pitch / f, (area.x0 + x0 / f, area.y0 + y0 / f), board.rows, board.cols,
                            float(np.median([n.size for n in nodes])) / f, (area.x0, area.y0, area.x1, area.y1),
                            _rgb(background),
                            {KIND_LETTER[k]: _rgb(n.fill) for n in nodes for k in [n.kind] if k in KIND_LETTER})
    return Parse("lyne", board, confidence, cells, geometry)


def _rgb(bgr: Any) -> tuple[int, int, int]:
    """A BGR colour as the geometry gives colours: (r, g, b) whole numbers."""
    b, g, r = (int(v) for v in bgr)
    return r, g, b


def _read_nodes(work: np.ndarray, fg: np.ndarray, colours: Colours, native: np.ndarray | None,
                open_sides: tuple[bool, bool, bool, bool]) -> tuple[list[Node], tuple[Board, float, float, float, float]]:
    """(the nodes, ``fit_grid``'s answer) from one foreground mask, every check passed. A
    refusal once the blobs read as nodes is a ``Refusal`` that says how far the look got; when
    the lattice's checks fail only with nodes that were read as hubs first and then as squares
    (the shapes' colours, the board), the first such hub's doubt is the reason."""
    nodes = classify(work, fg, colours, native, open_sides)
    stage("lyne-shapes", lambda: marked(work, [(n.x, n.y, str(n.holes) if n.kind == "hub" else
                                                KIND_LETTER[n.kind].upper() if n.terminal else KIND_LETTER[n.kind])
                                               for n in nodes]))
    sizes = np.array([n.size for n in nodes])
    if len(nodes) < 3 or sizes.max() > 1.6 * np.median(sizes) or sizes.min() < 0.6 * np.median(sizes):
        raise Refusal("blobs of unequal sizes, not a LYNE board", NODES)
    drawn = (colours.lines, fg) if colours.lines is not None else None
    try:
        fit = fit_grid(nodes, work.shape, open_sides, drawn=drawn)
    except NoBoardFound as exc:
        doubted = [n for n in nodes if n.doubt]
        if _depth(exc) == BOARD and doubted and _fits(nodes, work.shape, open_sides):
            hubs = _hubs_after_all(nodes)
            if hubs is None:
                raise Refusal(doubted[0].doubt, BOARD) from None
            try:
                nodes, fit = hubs, fit_grid(hubs, work.shape, open_sides, drawn=drawn)
            except NoBoardFound:
                raise Refusal(doubted[0].doubt, BOARD) from None
        else:
            raise Refusal(str(exc), max(NODES, _depth(exc))) from None
    stage("lyne-grid", lambda: marked(work, grid_labels(fit[0].to_text(), fit[2], fit[3], fit[1])))
    _empty_places_look_alike(work, fg, colours, *fit[:4])
    return nodes, fit


def _hubs_after_all(nodes: list[Node]) -> list[Node] | None:
    """The nodes with each square first read as a hub in doubt (``Node.hub``) read as that hub
    again, when its fill is of no other square's colour (over the 40 levels squares of a kind
    may differ from the first, from every other square read, of which there must be one: a
    square's kind has two terminals at least); None when there is no such square. Such hubs
    then have their holes settled as any hub in doubt (``fit_grid``)."""
    squares = [n for n in nodes if n.kind == "square" and n.hub is None]
    if not squares:
        return None
    swapped = [n.hub if n.hub is not None and min(_differ(n.fill, s.fill) for s in squares) > 40 else n
               for n in nodes]
    return swapped if any(a is not b for a, b in zip(swapped, nodes)) else None


def _fits(nodes: list[Node], shape: tuple[int, ...], open_sides: tuple[bool, bool, bool, bool]) -> bool:
    """Whether the nodes not read as hubs first make a board on the lattice."""
    try:
        fit_grid([n for n in nodes if not n.doubt], shape, open_sides, settle=False)
    except NoBoardFound:
        return False
    return True


def lighting(work: np.ndarray, mask: np.ndarray) -> tuple[np.ndarray | None, np.ndarray]:
    """(the background's light over the work image, its typical colour); taking the
    light out and adding the colour back flattens the background. The light is a
    quadratic surface per channel fitted to the background patch's pixels, refitted on
    those near the fit (the faint diamonds, a touch lighter, drop out); None when it is
    flat within a level or two, as in the game's unlit captures (nine samples in ten
    within two levels of their median skip the fit: a lit background spreads wider)."""
    found = cv2.findNonZero(mask)      # in raster order, as np.nonzero, and quicker
    if found is None or len(found) < 50:
        raise NoBoardFound("no background in the game area")
    xs, ys = found.reshape(-1, 2).T
    pick = np.linspace(0, len(ys) - 1, min(len(ys), 2500)).astype(int)
    ys, xs = ys[pick], xs[pick]
    colours = work[ys, xs].astype(np.float32)
    middle = np.median(colours, axis=0)
    if (np.abs(colours - middle).max(axis=1) <= 2).mean() >= 0.9:
        return None, middle.astype(np.int16)   # flat already: no light to fit
    h, w = work.shape[:2]

    def terms(x: np.ndarray, y: np.ndarray) -> np.ndarray:
        u, v = x / w - 0.5, y / h - 0.5
        return np.stack([np.ones_like(u), u, v, u * u, u * v, v * v], axis=-1)

    a = terms(xs.astype(np.float64), ys.astype(np.float64))
    colours = colours.astype(np.float64)

    def fit(rows: np.ndarray) -> np.ndarray:
        # normal equations: a 6×6 solve (lstsq through threaded BLAS costs far more)
        return np.linalg.solve(a[rows].T @ a[rows] + 1e-9 * np.eye(6), a[rows].T @ colours[rows])

    keep = np.ones(len(ys), bool)
    for _ in range(3):
        coef = fit(keep)
        resid = (colours - a @ coef).sum(axis=1)
        keep = np.abs(resid - np.median(resid[keep])) < 15
        if keep.sum() < 30:
            raise NoBoardFound("no even background in the game area")
    coef = fit(keep)
    background = np.median(colours[keep], axis=0).astype(np.int16)
    gy, gx = np.mgrid[0:h:8, 0:w:8].astype(np.float32)
    coarse = (terms(gx, gy) @ coef).astype(np.float32)
    if np.abs(coarse - background).max() <= 2.5:
        return None, background
    return cv2.resize(coarse, (w, h), interpolation=cv2.INTER_LINEAR), background


def _empty_places_look_alike(work: np.ndarray, fg: np.ndarray, colours: Colours, board: Board, pitch: float,
                             x0: float, y0: float) -> None:
    """Refuse when a place with no node read differs from the others. Every lattice
    place without a node (gaps in the board and the places around it) shows the same
    faint diamond on the background; a node whose fill is near the faint diamonds'
    colour (smoking room's squares under the light) can drop out of the foreground, and
    the board left would still be a valid one; a terminal whose fill drops out can leave
    only its centre. Where a place holds other foreground off its middle (the tab), only
    the rest of it is compared; places above the board in the level name's band are not.
    A tight crop may show too few places to compare, so each place's middle must also
    show the faint diamond's colour, ``EMPTY_TOL`` at most off the way from the
    background to it (smoking room's squares within ``BACK_TOL`` of it are 15 or more)."""
    h, w = work.shape[:2]
    half = round(0.35 * pitch)
    patches, places = [], []
    for r in range(-2, board.rows + 2):
        for c in range(-2, board.cols + 2):
            if 0 <= r < board.rows and 0 <= c < board.cols and board.grid[r][c] != ".":
                continue
            cx, cy = round(x0 + c * pitch), round(y0 + r * pitch)
            if not (half <= cx < w - half and half <= cy < h - half) or r < 0 and cy - half < 0.1 * h:
                continue   # off the picture, or above the board where the level name is written
            part = fg[cy - half:cy + half, cx - half:cx + half]
            core = round(0.12 * pitch)
            if part.any() and fg[cy - core:cy + core, cx - core:cx + core].any():   # a piece of a node (a terminal's centre)
                raise Refusal(f"the grid place ({r},{c}) holds a part of a shape read as no node", BOARD)
            if _off_faint(_median(work[cy - core:cy + core, cx - core:cx + core], np.ones((2 * core,) * 2, bool)),
                          colours) > EMPTY_TOL:
                raise Refusal(f"the grid place ({r},{c}) holds something unread", BOARD)
            # the patch's cells without foreground are compared (a GIF's dithering can
            # leave a speck of a dropped-out square off its middle)
            clear = cv2.resize(part.astype(np.float32), (8, 8), interpolation=cv2.INTER_AREA) == 0
            if clear.sum() < 16:
                continue
            patches.append(cv2.resize(work[cy - half:cy + half, cx - half:cx + half], (8, 8),
                                      interpolation=cv2.INTER_AREA).astype(np.int16))
            places.append((r, c, clear))
    if len(patches) < 3:
        return
    look = np.median(np.array(patches), axis=0)
    for patch, (r, c, clear) in zip(patches, places):
        if ((np.abs(patch - look).max(axis=2) > EMPTY_TOL) & clear).sum() > 0.15 * clear.sum():
            raise Refusal(f"the grid place ({r},{c}) holds something unread", BOARD)


def _off_faint(colour: tuple[int, int, int], colours: Colours) -> float:
    """The largest channel difference of a colour from the nearest one on the way from
    the background towards the faint diamonds' colour, up to ``FAINT_NEAR`` from the
    background: blur mixes the two, and under the light the colour taken for the faint
    diamonds can be a lit shade of the background, nearer to it in the same direction."""
    back = colours.background.astype(np.float64)
    c, span = np.array(colour, np.float64) - back, colours.faint.astype(np.float64) - back
    step = max(1.0, float(np.abs(span).max()))
    t = float(np.clip(c @ span / max(1.0, float(span @ span)), 0.0, FAINT_NEAR / step))
    return float(np.abs(c - t * span).max())


def _scaled(img: np.ndarray, f: float) -> np.ndarray:
    """The image scaled by f: whole-number shrinking by pixel averaging (OpenCV's fast
    path; general INTER_AREA costs ~19 ms on a 1920×1080 frame), the rest linear."""
    h, w = img.shape[:2]
    n = int(1 / f) if f < 1 else 1
    if n > 1:
        img = cv2.resize(img, (w // n, h // n), interpolation=cv2.INTER_AREA)
    return cv2.resize(img, (round(w * f), round(h * f)), interpolation=cv2.INTER_LINEAR)


def _frame_colour(image: np.ndarray, area: Area) -> np.ndarray | None:
    """The border colour: walking out of the area on each side, of the strips whose
    median is far from the background the lightest (the game's cream frame, whose cream also fills terminal
    centres and drawn paths). None when the area reaches the image's edges."""
    reach = max(3, round(0.04 * max(area.x1 - area.x0, area.y1 - area.y0)))
    found = []
    for side in ("top", "bottom", "left", "right"):
        strips: list[np.ndarray] = []
        lightest = 0      # the largest darkest channel of the strips so far
        for colour in _strip_colours(image, area, side, reach):
            if np.abs(colour - area.background).max() > 70:
                if strips and lightest - int(colour.min()) > 60:
                    break   # past the cream frame, onto something darker
                strips.append(colour)
                lightest = max(lightest, int(colour.min()))
            elif strips:
                break
        if strips:   # the frame's cream middle, not its edge blended with the background
            found.append(max(strips, key=lambda c: int(c.min())))
    return np.median(np.array(found), axis=0).astype(np.int16) if found else None


def _strip_colours(image: np.ndarray, area: Area, side: str, reach: int) -> Iterator[np.ndarray]:
    """The median colours (int16) of the pixel rows (top, bottom) or columns (left, right)
    just outside one side of the area, nearest first, up to ``reach`` − 1 of them within
    the image; 200 pixels of a strip are plenty. Worked out 8 strips at a time (one
    median call for all: a walk stops after a few strips or goes on for dozens)."""
    h, w = image.shape[:2]
    x0, y0, x1, y1 = area.x0, area.y0, area.x1, area.y1
    count = min(reach - 1, {"top": y0, "bottom": h - y1, "left": x0, "right": w - x1}[side])
    step = max(1, ((x1 - x0) if side in ("top", "bottom") else (y1 - y0)) // 200)
    for lo in range(1, count + 1, 8):
        hi = min(count, lo + 7)        # strips lo..hi away from the side
        if side == "top":
            colours = np.median(image[y0 - hi:y0 - lo + 1, x0:x1:step][::-1], axis=1)
        elif side == "bottom":
            colours = np.median(image[y1 + lo - 1:y1 + hi, x0:x1:step], axis=1)
        elif side == "left":
            colours = np.median(image[y0:y1:step, x0 - hi:x0 - lo + 1][:, ::-1], axis=0)
        else:
            colours = np.median(image[y0:y1:step, x1 + lo - 1:x1 + hi], axis=0)
        yield from colours.astype(np.int16)


@dataclass
class Colours:
    """The area's colours (BGR): background, faint diamonds, the frame's cream (None
    when the frame is off the image), and the light still to take out of native crops."""

    background: np.ndarray
    faint: np.ndarray
    cream: np.ndarray | None
    light: np.ndarray | None = None   # over the work image, less the background: to flatten native crops
    opened: int = 0                   # the width of the opening that took path lines away (px)
    zoom: float = 1.0                 # work pixels a pixel of the picture spans (over 1: a small area scaled up)
    size: float = 0.0                 # the typical node size it was worked out from (px)
    lines: np.ndarray | None = None   # the foreground before the opening: path lines still in it


def segment(work: np.ndarray, background: np.ndarray, cream: np.ndarray | None,
            tol: int = BACK_TOL, cap: int | None = OPEN_CAP) -> tuple[np.ndarray, Colours]:
    """(foreground mask with path lines opened away, colours); pixels within ``tol`` of
    the background or the faint diamonds are background. The opening is a fifth of a
    node wide, at most ``cap`` pixels (None: no bound)."""
    # the most common colour near the background, and one within FAINT_NEAR before any
    # farther: the faint diamonds sit 10-32 levels from it in every palette, and a
    # board of many hubs can show more of moonbase's hub colour (66 levels) than of them
    colours = [c.astype(np.int16) for c in common_colours(thinned(work, 20_000), bits=5, most=8, min_share=0.003)]
    steps = [(int(np.abs(colour - background).max()), colour) for colour in colours]
    near = [(step > FAINT_NEAR, i) for i, (step, _) in enumerate(steps) if 4 < step <= 70]
    faint = steps[min(near)[1]][1] if near else background
    back = _near(work, background, tol) | _near(work, faint, tol)
    # a closing first: anti-aliased edges of a path line can match the background's
    # colour by chance and would cut a node in two
    fg = cv2.morphologyEx(1 - back, cv2.MORPH_CLOSE, np.ones((3, 3), np.uint8))
    # Path lines are thin next to nodes: an opening a fifth of a node wide removes them.
    # The node size comes from the foreground without cream, where lines cannot join nodes.
    size = _typical_size(fg & (1 - _near(work, cream, 40)) if cream is not None else fg)
    k = max(3, int(size / 5) | 1)
    if cap is not None:
        k = min(cap, k)
    return round_morph(fg, cv2.MORPH_OPEN, k), Colours(background, faint, cream, opened=k, size=size, lines=fg)


def _split_joined(fg: np.ndarray, wide: np.ndarray) -> np.ndarray | None:
    """The foreground with each blob that a wider opening (``wide``) splits into two or
    more node-sized parts replaced by its parts there; every other blob as it was (the
    wider opening rounds a lone triangle's corners toward a square's look). None when no
    blob is split."""
    n, labels = cv2.connectedComponents(fg, connectivity=8)
    _, parts, stats, _ = cv2.connectedComponentsWithStats(wide, connectivity=8)
    least = (0.035 * max(fg.shape[:2])) ** 2
    big = np.flatnonzero(stats[:, cv2.CC_STAT_AREA] >= least)
    big = big[big > 0]
    owners = [np.unique(labels[parts == k]) for k in big]
    count = np.bincount(np.concatenate(owners).astype(np.int64), minlength=n) if owners else np.zeros(n, np.int64)
    count[0] = 0
    if not (count >= 2).any():
        return None
    return np.where(count[labels] >= 2, wide, fg).astype(np.uint8)


def _typical_size(mask: np.ndarray) -> float:
    """The median box side of the larger half of the compact blobs of a mask (the nodes,
    roughly: pieces of lines are thin or fill little of their box, and nodes cut by lines
    leave smaller pieces)."""
    n, _, stats, _ = cv2.connectedComponentsWithStats(mask[::2, ::2], connectivity=8)   # half size is plenty
    w, h, area = stats[1:, cv2.CC_STAT_WIDTH], stats[1:, cv2.CC_STAT_HEIGHT], stats[1:, cv2.CC_STAT_AREA]
    side = np.maximum(w, h)
    keep = (side >= 0.035 * max(mask.shape) / 2) & (area >= 0.4 * w * h) & (w <= 1.5 * h) & (h <= 1.5 * w)
    if not keep.any():
        return 0.0
    sides = np.sort(side[keep])
    return 2.0 * float(np.median(sides[len(sides) // 2:]))


def _median(work: np.ndarray, mask: np.ndarray) -> tuple[int, int, int]:
    """The median colour of the masked pixels (black when none), on a sparse grid of
    them: a sample is plenty for a median."""
    step = max(1, int((mask.size / 1600) ** 0.5))
    px = work[::step, ::step][mask[::step, ::step]]
    px = px[::max(1, len(px) // 80)]
    if len(px) == 0:
        return (0, 0, 0)
    # np.median's value (the middle one, or the mean of the middle two), without its
    # overhead, which outweighs the work on these few pixels
    ranked, half = np.sort(px, axis=0), len(px) // 2
    m = ranked[half] if len(px) % 2 else (ranked[half - 1] + ranked[half].astype(np.float64)) / 2
    return (int(m[0]), int(m[1]), int(m[2]))


def _differ(a: tuple[int, int, int], b: tuple[int, int, int]) -> int:
    """The largest channel difference of two colours."""
    return max(abs(x - y) for x, y in zip(a, b))


def classify(work: np.ndarray, fg: np.ndarray, colours: Colours, native: np.ndarray | None = None,
             open_sides: tuple[bool, bool, bool, bool] = (False, False, False, False)) -> list[Node]:
    """Every node-sized blob as a Node; small unreadable blobs (the level name) are
    skipped, large unreadable ones make the image refused. Outlines come from the work
    image; ring, centre and holes are read in ``native`` (the unshrunk area) when given,
    where path lines and holes are several pixels apart. A blob cut by a side of the
    area is the cream tab or a shape cut by the frame; on an ``open_sides`` side (the
    picture's own edge) it may be a node cut off, and the picture is refused, but for
    the game's cream tab at the top right."""
    contours, _ = cv2.findContours(fg, cv2.RETR_EXTERNAL, cv2.CHAIN_APPROX_SIMPLE)
    min_side = 0.035 * max(work.shape[:2])
    blobs = [c for c in contours if max(cv2.boundingRect(c)[2:]) >= min_side]
    if not blobs:
        raise NoBoardFound("no shapes in the game area")
    largest = max(max(cv2.boundingRect(c)[2:]) for c in blobs)
    nodes = []
    for c in blobs:
        x, y, w, h = cv2.boundingRect(c)
        cut = (x <= 1, y <= 1, x + w >= work.shape[1] - 1, y + h >= work.shape[0] - 1)
        if any(cut):
            if not _is_tab(work, c, colours) and any(c and o for c, o in zip(cut, open_sides)) and max(w, h) >= 0.3 * largest:
                raise NoBoardFound("a shape cut by the picture's edge: the board is not all in the picture")
            continue  # cut by the area's edge: the cream tab or a partial shape, not a node
        kind = _kind(c, w, h)
        if kind is None and max(w, h) >= 0.6 * largest:
            # a node with knobs of path lines left on it (where a line meets a ring round
            # it) or the pointer over its edge: opened a third of a node wide on its own (a
            # blob over 0.4 of the picture is no node: nodes joined, and costly to open)
            c = _opened(c, colours.size) if max(w, h) <= 0.4 * max(work.shape[:2]) else None
            if c is not None:
                x, y, w, h = cv2.boundingRect(c)
                kind = _kind(c, w, h)
        if kind is None:
            if max(w, h) < 0.6 * largest:
                continue
            raise NoBoardFound(f"a blob at ({x},{y}) that is no LYNE node")
        src = work if native is None else native
        hub = None
        try:
            node = _inspect(src, work.shape[1], c, kind, colours)
            if node.unsure and _covers_square(c):
                hub = node
                raise NoBoardFound(node.unsure)   # a hub in doubt that may be a blurred square
            nodes.append(node)
        except NoBoardFound as exc:
            # blur rounds a small square's corners into eight; with no hub's holes in
            # it, a blob that covers its inscribed square like a square is read as one
            # (and when that fails too, the hub's doubt is the reason; a hub's reading in
            # doubt is kept for ``_read_nodes``)
            doubt = Refusal(str(exc), BOARD)
            if kind != "hub" or not _covers_square(c):
                raise doubt from None
            try:
                nodes.append(replace(_inspect(src, work.shape[1], c, "square", colours), doubt=str(exc), hub=hub))
            except NoBoardFound:
                raise doubt from None
    return nodes


def _opened(contour: np.ndarray, size: float) -> np.ndarray | None:
    """A blob about a node's size (``size``) opened a third of a node wide, when that leaves
    one part at least 0.6 of its size (a node without what stuck out of it); None otherwise
    (a blob of other sizes is no node with knobs, and opening it costs much)."""
    x, y, w, h = cv2.boundingRect(contour)
    if not 0.6 * size <= max(w, h) <= 1.6 * size:
        return None
    k = max(3, int(size / 3) | 1)
    mask = np.zeros((h + 2 * k, w + 2 * k), np.uint8)
    cv2.drawContours(mask, [contour - (x - k, y - k)], -1, 1, -1)
    mask = cv2.morphologyEx(mask, cv2.MORPH_OPEN, cv2.getStructuringElement(cv2.MORPH_ELLIPSE, (k, k)))
    parts, _ = cv2.findContours(mask, cv2.RETR_EXTERNAL, cv2.CHAIN_APPROX_SIMPLE)
    big = [p for p in parts if max(cv2.boundingRect(p)[2:]) >= 0.6 * max(w, h)]
    return big[0] + (x - k, y - k) if len(big) == 1 else None


def _cream(colours: Colours) -> tuple[int, int, int]:
    """The frame's cream (terminal centres, finished paths), or about every palette's."""
    b, g, r = (int(v) for v in (colours.cream if colours.cream is not None else CREAM))
    return b, g, r


def _is_tab(work: np.ndarray, contour: np.ndarray, colours: Colours) -> bool:
    """The cream tab at the game's top right: a low cream blob on the top edge, in the
    right fifth of the area."""
    x, y, w, h = cv2.boundingRect(contour)
    if y > 1 or x < 0.8 * work.shape[1] or h > 0.08 * work.shape[0]:
        return False
    mask = cv2.drawContours(np.zeros(work.shape[:2], np.uint8), [contour], -1, 1, -1).astype(bool)
    cream = _cream(colours)
    return _differ(_median(work, mask), cream) <= 40


def _kind(contour: np.ndarray, w: int, h: int) -> str | None:
    """The node kind from the outline alone. A square fills its box with four corners, a
    hub's octagon 0.8 of it with eight; stubs of path lines can hide the octagon's corners,
    and then its cover of the square on its inscribed circle tells (0.82, squares 0.94+).
    Triangles and diamonds fill half their box; a triangle's weight sits two thirds down
    (its base), a diamond's in the middle, however corners are rounded or stubs stick out.
    Stubs can give a hub that look too, so a triangle must also cover the triangle on its
    inscribed circle; a blob that covers the octagon there instead is a hub. A triangle whose
    corners a wide opening rounded fills up to three quarters of its box, its weight low."""
    area = cv2.contourArea(contour)
    fill = area / float(w * h)
    if not 0.85 <= w / float(h) <= 1.4:
        return None
    corners = len(cv2.approxPolyDP(contour, 0.045 * cv2.arcLength(contour, True), True))
    if 0.66 < fill <= 0.78 and _weight(contour) >= 0.57 and _covers_on_circle(contour, "triangle") >= 0.9:
        # a triangle whose corners a wide opening rounded (seen: weight 0.59, cover 0.95; a
        # square with stubs of lines below it 0.55 and 0.82): read as a square before
        return "triangle"
    if fill > 0.66:
        if corners == 4 and fill >= 0.86:
            return "square"
        if fill <= 0.9 and 5 <= corners <= 9:
            return "hub"
        if corners == 4:
            return "square" if _covers_square(contour) else "hub"
        return None
    if fill >= 0.38 and corners <= 6:
        if _weight(contour) < 0.55:
            return "diamond"
        if _covers_on_circle(contour, "triangle") >= TRIANGLE_COVER:
            return "triangle"
        return "hub" if _covers_on_circle(contour, "octagon") >= OCTAGON_COVER else None
    return None


def _weight(contour: np.ndarray) -> float:
    """Where a blob's weight sits down its box, a share of its height (0.5 for a square,
    a hub or a diamond; a triangle's, two thirds down, 0.55 and more however rounded)."""
    m = cv2.moments(contour)
    _, y, _, h = cv2.boundingRect(contour)
    return (m["m01"] / m["m00"] - y) / h if m["m00"] else 0.5


def _covers_on_circle(contour: np.ndarray, shape: str) -> float:
    """The share of the ideal upright triangle or octagon drawn on the blob's inscribed
    circle (a triangle's apex two radii above the circle's middle, its base one radius
    below) that the blob covers. Stubs of path lines leave the inscribed circle as it
    is, but can give a hub's outline a triangle's weight and half-filled box; the
    triangle on a hub's circle reaches far beyond the hub, the octagon does not."""
    x, y, w, h = cv2.boundingRect(contour)
    mask = np.zeros((h + 2, w + 2), np.uint8)
    cv2.drawContours(mask, [contour - (x - 1, y - 1)], -1, 1, -1)
    dist = cv2.distanceTransform(mask, cv2.DIST_L2, cv2.DIST_MASK_PRECISE)
    r = float(dist.max())
    ys, xs = np.nonzero(dist >= r - 1)
    cx, cy = float(xs.mean()), float(ys.mean())
    if shape == "triangle":
        corners = [(cx, cy - 2 * r), (cx - 3 ** 0.5 * r, cy + r), (cx + 3 ** 0.5 * r, cy + r)]
    else:
        reach = r / np.cos(np.pi / 8)
        corners = [(cx + reach * np.cos(a), cy + reach * np.sin(a)) for a in np.pi / 8 + np.arange(8) * np.pi / 4]
    ideal = np.zeros_like(mask)
    cv2.fillPoly(ideal, [np.array(corners).round().astype(np.int32)], 1)
    return float(mask[ideal > 0].mean())


def _covers_square(contour: np.ndarray) -> bool:
    """Whether a blob covers the square on its inscribed circle like a square (0.94 and
    more) rather than like the hub's octagon (0.82)."""
    x, y, w, h = cv2.boundingRect(contour)
    mask = np.zeros((h + 2, w + 2), np.uint8)
    cv2.drawContours(mask, [contour - (x - 1, y - 1)], -1, 1, -1)
    inscribed = 2.0 * float(cv2.distanceTransform(mask, cv2.DIST_L2, cv2.DIST_MASK_PRECISE).max())
    return cv2.contourArea(contour) >= 0.88 * inscribed ** 2


def _inspect(src: np.ndarray, work_width: int, contour: np.ndarray, kind: str, colours: Colours) -> Node:
    """Terminal or ordinary, from the ring-and-centre structure; a hub's hole count.
    ``src`` is the work image or the area at its own size (``contour`` is in work
    pixels, the Node too)."""
    x, y, w, h = cv2.boundingRect(contour)
    node = Node(kind, x + w / 2.0, y + h / 2.0, float(max(w, h)))
    s = src.shape[1] / work_width
    outline = (contour * s).round().astype(np.int32)
    x, y, w, h = cv2.boundingRect(outline)
    pad = 2
    x0, y0 = max(0, x - pad), max(0, y - pad)
    roi = src[y0:y + h + pad, x0:x + w + pad]
    if colours.light is not None and s != 1:
        rh, rw = roi.shape[:2]
        part = colours.light[int(y0 / s):int((y0 + rh) / s) + 2, int(x0 / s):int((x0 + rw) / s) + 2]
        roi = cv2.subtract(roi, cv2.resize(part, (rw, rh), interpolation=cv2.INTER_LINEAR), dtype=cv2.CV_8U)
    mask = np.zeros(roi.shape[:2], np.uint8)
    cv2.drawContours(mask, [outline - [x0, y0]], -1, 1, -1)
    dist = cv2.distanceTransform(mask, cv2.DIST_L2, 3)
    depth = float(dist.max())
    band = (2, max(2.5, 0.25 * depth))
    middle = (dist >= 0.4 * depth) & (dist <= 0.55 * depth)
    node.ring, node.fill = _median(roi, (dist >= band[0]) & (dist <= band[1])), _median(roi, middle)
    if kind == "hub":
        # the hub's colour from its middle band: at the edge JPEG blends it with the background
        node.counts, place = _count_holes(roi, mask, node.fill, colours, (x, y), max(1.0, colours.zoom / s))
        node.holes = node.counts[0]
        if place:
            node.unsure = _hidden((x, y), place)
        return node
    node.ring, fill = _inner_ring(roi, mask, node, colours, band)
    centre = _median(roi, dist >= 0.85 * depth)
    cream = _cream(colours)
    toward_cream = _differ(centre, node.fill) > 25 and _differ(centre, cream) < _differ(node.fill, cream) - 20
    ring = _differ(node.ring, node.fill)
    if _solid_cream_centre(roi, mask, dist, depth, cream) or toward_cream and ring > 10:
        node.terminal = True
    elif ring > 20 and _differ(centre, node.fill) > 25:
        raise NoBoardFound(f"a {kind} at ({x},{y}) whose centre is neither its own colour nor a terminal's cream "
                           "(the mouse pointer over it?)")
    if _differ(fill, node.ring) > _differ(node.fill, node.ring):
        # for the colour check, of the two readings the one farther from the ring: on small
        # blurred frames the outline's band held some of the ring, and a path line out of
        # a terminal's centre can cut the half-way frame's band down into the ring
        node.fill = fill
    return node


def _solid_cream_centre(roi: np.ndarray, mask: np.ndarray, dist: np.ndarray, depth: float,
                        cream: tuple[int, int, int]) -> bool:
    """A solid cream centre and no cream near the outline: a terminal even when a GIF
    palette merged its ring into the fill. The centre is the shape shrunk to 0.3 about
    the sprite's point (a triangle's sits above its inscribed circle's middle), so it is
    told by its own width, not by where it sits: cream as deep as 0.18 of the shape's
    depth (the centre's is 0.3; a path line, single or double, is a few pixels thin),
    and none in the outer band, which every path line through or into an ordinary node
    crosses."""
    creamy = (_near(roi, np.array(cream), 40) & mask).astype(np.uint8)
    outer = (dist > 0) & (dist <= 0.35 * depth)
    if not outer.any() or float(creamy[outer].mean()) > 0.03:
        return False
    return float(cv2.distanceTransform(creamy, cv2.DIST_L2, 3).max()) >= 0.18 * depth


def _inner_ring(roi: np.ndarray, mask: np.ndarray, node: Node, colours: Colours,
                band: tuple[float, float]) -> tuple[tuple[int, int, int], tuple[int, int, int]]:
    """(ring, fill) colours read inside the shape's half-way edge. The outline lies where the
    colour first leaves the background: on a blurred image (JPEG, scaling) a few pixels
    outside the shape's edge, so the band inside it that ``node.ring`` was read in holds a
    blend with the background, which can differ from the fill like a ring (an ordinary
    node) or hide the ring (a bright ring on a dark background blends to the fill). Here
    the same band is measured from the edge of the pixels at least half as far from the
    background as the nearer of fill and that blend, holes filled (a blend of fill and
    cream centre can pass near the background's colour too). The fill is read in the
    same frame, in the band 0.4–0.55 of the depth (from the outline, on small blurred
    frames that band slid outward into a terminal's ring and failed the colour check)."""
    back = [tuple(int(v) for v in c) for c in (colours.background, colours.faint)]
    half = min(_differ(c, b) for c in (node.fill, node.ring) for b in back) // 2
    near = _near(roi, colours.background, half - 1) | _near(roi, colours.faint, half - 1)
    inside, _ = cv2.findContours(mask & (1 - near), cv2.RETR_EXTERNAL, cv2.CHAIN_APPROX_SIMPLE)
    edge = cv2.distanceTransform(cv2.drawContours(np.zeros_like(mask), inside, -1, 1, -1), cv2.DIST_L2, 3)
    depth = float(edge.max())
    middle = (edge >= 0.4 * depth) & (edge <= 0.55 * depth)
    return _median(roi, (edge >= band[0]) & (edge <= band[1])), _median(roi, middle) if middle.any() else node.fill


# Where a hub's holes sit, as a share of its width from its centre (measured on the game's
# sprites): left and right always, then above (3 holes), then below (4 holes).
HOLE_AT = {"left": (-0.159, 0.0), "right": (0.159, 0.0), "up": (0.0, -0.159), "down": (0.0, 0.159)}


def _count_holes(roi: np.ndarray, mask: np.ndarray, hub: tuple[int, int, int], colours: Colours,
                 at: tuple[int, int], zoom: float = 1.0) -> tuple[tuple[int, ...], str]:
    """Holes are diamonds of non-hub colour (background, or cream once filled), 0.23 of
    the hub wide, at fixed places. A drawn path crosses a hub through its centre as a
    double line about 0.1 of the hub wide, along the axis to a place or beside it (the
    diagonals); so a place holds a hole when a slightly smaller diamond there is nearly
    all non-hub and the non-hub run across the axis reaches farther to both sides than a
    line along the axis does (a line beside it widens the run on one side only). Returns
    the counts the hub may have (one unless lines leave the place above or below unsure)
    and the first unsure place ("" when none). ``zoom``: roi pixels a pixel of the picture spans."""
    # the octagon's inscribed circle gives centre and width even when stubs of path
    # lines stick out of the outline
    dist = cv2.distanceTransform(mask, cv2.DIST_L2, 3)
    depth = float(dist.max())
    ys, xs = np.nonzero(dist >= 0.93 * depth)
    cx, cy, width = float(xs.mean()), float(ys.mean()), 2.0 * depth
    # the share of non-hub (and of background) pixels in a diamond around a place
    radius = 0.09 * width
    r = int(np.ceil(radius))
    ky, kx = np.mgrid[-r:r + 1, -r:r + 1]
    kernel = (np.abs(kx) + np.abs(ky) <= radius).astype(np.float32)
    kernel /= kernel.sum()
    background, cream = colours.background, _cream(colours)
    other = 1 - _near(roi, np.array(hub), BACK_TOL)
    empty = _near(roi, background, BACK_TOL)
    found, contrast, off_cream, along_axis, cream_places, filled_sides = {}, {}, {}, [], [], []
    opened: dict[str, bool] = {}        # the place shows the background across a hole's width
    unsure: list[str] = []              # places above or below that path lines leave undecided

    for name, (dx, dy) in HOLE_AT.items():
        px, py = nominal_x, nominal_y = round(cx + dx * width), round(cy + dy * width)
        if not (r + 1 <= py < roi.shape[0] - r - 1 and r + 1 <= px < roi.shape[1] - r - 1):
            found[name] = False
            continue
        # the centre estimate may be a pixel off: judge the 3×3 places around it
        box = (slice(py - r - 1, py + r + 2), slice(px - r - 1, px + r + 2))
        share = cv2.filter2D(other[box].astype(np.float32), -1, kernel)[r:r + 3, r:r + 3]
        oy, ox = np.unravel_index(int(np.argmax(share)), share.shape)
        nominal = px if dx == 0 else py
        best, px, py = float(share[oy, ox]), px + ox - 1, py + oy - 1
        open_hole = float(cv2.filter2D(empty[box].astype(np.float32), -1, kernel)[r:r + 3, r:r + 3].max())
        # an open hole shows the background, which a path line has only where blended
        # into the hub (in a GIF paddlepop's hub and cream blend to its background), so
        # across the axis its non-hub run must reach past a line's half width (0.05) to
        # both sides; a filled one is cream like the lines, so it must reach farther
        # than halfway from a line's half width (0.05) to its own (0.115), from the
        # place as laid out and as shifted to the best share (shifted alone, toward a
        # diagonal line beside, a line along the axis once passed for a filled hole)
        line = other[max(0, py - 1):py + 2, :].any(axis=0) if dx == 0 else other[:, max(0, px - 1):px + 2].any(axis=1)
        reach = min(_reach(line, px if dx == 0 else py), _reach(line, nominal))
        filled = best >= 0.85 and reach >= 0.0825 * width
        opened[name] = open_hole >= 0.3 and reach >= 0.05 * width
        found[name] = opened[name] or filled
        middle = roi[py - 1:py + 2, px - 1:px + 2].reshape(-1, 3).mean(axis=0)
        contrast[name], off_cream[name] = float(np.linalg.norm(middle - hub)), float(np.abs(middle - cream).max())
        if dy and open_hole < 0.3 and _open_under_line(empty, other, (nominal_x, nominal_y), width, 2 * zoom):
            found[name] = opened[name] = True
            continue
        if dy and open_hole >= 0.3 and found[name] and _along_axis(empty, (px, py), cy, dy, width):
            # blurred, a cream path line along the axis blends with the hub to about the
            # background's colour (paddlepop), as far as the hub's outline
            unsure.append(name)
            continue
        doubt = _doubt(best, reach / width, filled, other, (px, py), cy, dy, width) if dy and open_hole < 0.3 else None
        if dy and doubt is None and not found[name] and best >= 0.7 and _along_axis(other, (px, py), cy, dy, width,
                                                                                  0.06):
            # most of the place's diamond is not of the hub's colour, with a line along the
            # axis (a double line's strands reach 0.055 of the hub's width to each side): a
            # hole under the line, or lines alone blurred over it (hubs 23 and 30 pixels wide
            # in video frames, their filled or open hole above under a cream line, blended
            # with the line or with the path being drawn through the centre: 3 read as 2)
            doubt = "undecided"
        if dy and doubt is None and filled and open_hole < 0.3 and _diagonals_beside(other, (round(cx), nominal_y),
                                                                                      cy, width):
            # path lines along both diagonals on this side pass the place's row near it, and
            # widen any line along the axis there to a filled hole's run across (a path being
            # drawn leaving the centre up, short of the hub's edge: 2 read as 3); an open hole
            # shows the background, which lines do not
            doubt = "undecided"
        if dy and doubt is None and _along_axis(other, (px, py), cy, dy, width) and (
                found[name] and reach < 0.0825 * width or not found[name] and (
                    _open_beside(empty, (nominal_x, nominal_y), width) or open_hole < 0.3 and off_cream[name] < CREAM_OFF)):
            # a double line along the axis covers the place's middle: an open hole under
            # it shows the background only beside the line (read as no hole: 4 read as 3),
            # a line blended with the hub can show some background without one (2 read as 3),
            # and a filled hole under it, cream on cream, does not show at all (3 read as 2:
            # its middle 52-59 levels off the cream in a GIF; a place of the hub's colour
            # with the faint lattice line along it, 120 and more)
            doubt = "undecided"
        if dy and doubt is None and not found[name] and best >= 0.85 and reach >= 0.0675 * width and filled_sides \
                and contrast[name] >= 0.45 * min(filled_sides):
            # a filled hole under a line along the axis, in a 240 px crop, reached across
            # 0.070 (3 read as 2), and lines alone reach as far; but it stood out from the
            # hub half as much as the filled side holes, lines alone a third
            doubt = "undecided"
        if doubt == "axis":
            # a hole's run across narrows away from its place (to a line's width 0.09 of the
            # hub farther out); a line's stays as it is
            out = py + (1 if dy > 0 else -1) * round(0.09 * width)
            along_axis.append((name, _reach(other[max(0, out - 1):out + 2, :].any(axis=0), px) / reach))
        elif dy and doubt is None and found[name] and open_hole < 0.3:
            cream_places.append(name)
        elif doubt:
            unsure.append(name)
        if open_hole < 0.3 and not dy:
            filled_sides.append(contrast[name])
    # a line along the axis with the diagonals beside it passes for a filled hole when
    # blurred, but its middle stands out from the hub less than a filled hole's does:
    # compare with the filled side holes of the same hub (same size, same blur; lines
    # were seen at 0.19-0.36 of their contrast, filled holes at 0.71 and more, blurred
    # ones down to 0.52); a single line into the centre of a 240 px crop stood out 0.64 as
    # much, and its run across kept 0.6 of its width 0.09 of the hub farther out, where a
    # filled hole's narrows (of 56 filled holes seen, 2 were as weak and kept as much)
    # (once read when it stood out 0.7 as much). Mid-play, the game's lines are wider: a
    # path being drawn is a single line 0.11 of the hub wide in its shape's colour (as
    # strong as a hole it fills), and kept 0.57-0.87 of its run farther out (2 read as 3,
    # 3 as 4), a finished double line beside a diagonal 0.58: a place whose run keeps
    # 0.55 or more is refused, a filled hole under such a line too; so is a place standing
    # out 1.5 times as much as the filled side holes or more (a dark line being drawn over
    # cream side holes stood out 3.2-4.3 times as much, and narrowed like a hole: 2 read as
    # 3), and one not of the cream of a finished path (45 levels off): a hole filled by the
    # path being drawn is of that path's colour, as its line is (2 read as 3). A finished
    # path's double line alone, as wide as the game's, stood out 0.68 as much in a 240 px
    # GIF crop (2 read as 3): a place must stand out 0.75 as much as the filled side holes
    for name, narrowing in along_axis:
        if not filled_sides or not 0.75 * min(filled_sides) <= contrast[name] < 1.5 * max(filled_sides) \
                or narrowing >= 0.55 or off_cream[name] > 45:
            unsure.append(name)
    # so must every cream place above or below read as a filled hole: where a path turns
    # through the centre, the blurred corner of two lines fills the place like a hole (3 read as 4)
    for name in cream_places:
        if filled_sides and contrast[name] < 0.45 * min(filled_sides):
            unsure.append(name)
    # the hub's own colour beside a line along the axis, on both sides, across the middle of
    # the place's diamond: no hole is there, of any colour
    back = empty | _near(roi, colours.faint, BACK_TOL) if unsure else None    # the same for every place
    for name in list(unsure):
        dx, dy = HOLE_AT[name]
        if _bare_beside(other, back, (cx, cy), (round(cx + dx * width), round(cy + dy * width)), width, zoom):
            unsure.remove(name)
            found[name] = opened[name] = False
    # the game lays the holes out in order, above before below: a place a path line
    # leaves unsure follows from the other one where that is clear — an open hole below
    # (the background showing) means one above, no hole above means none below; a hole
    # below read as filled is no proof of one above, and is left unsure with it
    if unsure == ["up"] and found["down"] and opened["down"]:
        found["up"], unsure = True, []
    elif unsure == ["down"] and not found["up"]:
        found["down"], unsure = False, []
    elif unsure == ["up"] and found["down"]:
        unsure.append("down")
    if not (found["left"] and found["right"]) or found["down"] and not found["up"] and "up" not in unsure:
        raise NoBoardFound(_hidden(at, unsure[0]) if unsure else f"a hub at {at} whose holes are not in the game's layout")
    # each place a line leaves unsure may or may not hold a hole, as the layout allows
    ups = (False, True) if "up" in unsure else (found["up"],)
    downs = (False, True) if "down" in unsure else (found["down"],)
    return tuple(sorted({2 + up + down for up in ups for down in downs if up or not down})), \
        unsure[0] if unsure else ""


def _hidden(at: tuple[int, int], place: str) -> str:
    """The refusal for a hub whose hole place above or below path lines hide."""
    return f"a hub at {at} whose {place} hole is not told apart from path lines"


def _open_under_line(empty: np.ndarray, other: np.ndarray, place: tuple[int, int], width: float, least: float) -> bool:
    """Whether a line along the axis crosses an open hole at a place: on a row through it the
    line (neither hub nor background, its half at most 0.08 of the hub wide) has the background
    beside it on one side or both, 0.035 of the hub or more and ``least`` pixels (a line's blend
    with the hub is a pixel or two of the picture), then the hub again within the hole's
    half width; on the other side the background or another line, never the hub at once
    (a hole there would show on both sides). Holes above and below are the only ones at
    that height, so background there is that hole (a 3 read as 2 or 3 before)."""
    px, py = place
    for y in (py, py - 1, py + 1):
        if not 0 <= y < empty.shape[0]:
            continue
        back = empty[y] > 0
        line = (other[y] > 0) & ~back
        if not line[px]:
            continue
        left, right = px - _run(line, px, -1), px + _run(line, px, 1)
        # a side where the line reaches past a line's half width (0.08) runs into another line
        sides = [_back_beside(back, other[y] > 0, end + step, step, px, width, least) if abs(end - px) <= 0.08 * width
                 else False for end, step in ((left, -1), (right, 1))]
        if None not in sides and any(sides):
            return True
    return False


def _back_beside(back: np.ndarray, other: np.ndarray, start: int, step: int, px: int, width: float,
                 least: float) -> bool | None:
    """Beside a line, from ``start`` on in direction ``step``: True when the background
    runs there (past a pixel of blend) as a hole's side does, then the hub; False when
    something else not the hub is there (another line); None when the hub is at once."""
    if not 0 <= start < len(back) or not 0 <= start + step < len(back):
        return None
    if not back[start] and not back[start + step]:
        return None if not other[start] else False
    s0 = start if back[start] else start + step
    end = s0 + step * _run(back, s0, step)
    past = [end + step, end + 2 * step]
    return abs(end - s0) + 1 >= max(0.035 * width, least) and abs(end - px) <= 0.16 * width and any(
        0 <= p < len(back) and not other[p] for p in past)


def _bare_beside(other: np.ndarray, back: np.ndarray, centre: tuple[float, float], place: tuple[int, int],
                 width: float, zoom: float) -> bool:
    """Whether the hub's own colour shows to both sides of a line along the axis inside a
    hole's diamond at a place above or below its centre (0.115 of the hub wide to its tips,
    less ¾ of a picture's pixel of blend): beyond a line's half width (0.057, and ¾ of a
    pixel of blend) a third or more of each side is the hub's colour, over at least
    ``BARE_LEAST`` of the picture's pixels a side. A hole there, open or filled, would cover
    that with the background or a fill of cream or a path's colour, every one 39 levels or
    more off the hub's in every palette (a filled hole's sides were seen under 0.1 hub).
    A path line out along a diagonal on the place's side of the centre (``centre``) covers
    most of one side (``_line_may_run``): then the sides are judged without the diagonals'
    lines, as wide as a line, and a side left with fewer pixels is left out; each side
    judged must be half or more of the hub's colour with the hub's colour outward of it too,
    a picture's pixel on (a pixel's blend of cream and the background beside a line, between
    it and an open hole, can pass for the hub's colour: 2 holes read as 3 before).
    ``other``: the pixels not of the hub's colour; ``back``: those of the background or the
    faint diamonds and lines; ``zoom``: their pixels a pixel of the picture spans."""
    px, py = place
    r, m = int(np.ceil(0.115 * width)), max(1, round(zoom))
    if not (r + m <= py < other.shape[0] - r - m and r + m <= px < other.shape[1] - r - m):
        return False
    ky, kx = np.mgrid[-r:r + 1, -r:r + 1]
    strip = 0.06 * width + 0.75 * zoom
    inner = (np.abs(kx) + np.abs(ky) <= 0.115 * width - 0.75 * zoom) & (np.abs(kx) > strip)
    hub = other[py - r:py + r + 1, px - r - m:px + r + m + 1] == 0    # m more columns to each side
    least = BARE_LEAST * zoom ** 2
    sides = [inner & (kx < 0), inner & (kx > 0)]
    if all(side.sum() >= least and hub[:, m:-m][side].mean() >= 0.3 for side in sides):
        return True
    # offsets from the hub's centre; a line along the diagonal (sx, sy) lies within the
    # strip of the points u·sy − v·sx = 0
    u, v = kx + (px - centre[0]), ky + (py - centre[1])
    sy = 1 if py > centre[1] else -1
    lines = [sx for sx in (-1, 1) if _line_may_run(back, centre, (sx, sy), width, zoom)]
    if not lines:
        return False
    for sx in lines:
        inner &= np.abs(u * sy - v * sx) > strip * 2 ** 0.5
    judged = []
    for side, out in ((inner & (kx < 0), -1), (inner & (kx > 0), 1)):
        if side.sum() >= least:
            # the hub's colour here and on outward, m pixels
            bare = np.logical_and.reduce([hub[:, m + out * j:hub.shape[1] - m + out * j] for j in range(m + 1)])
            judged.append(float(bare[side].mean()))
    return bool(judged) and min(judged) >= 0.5


def _line_may_run(back: np.ndarray, centre: tuple[float, float], step: tuple[int, int], width: float,
                  zoom: float) -> bool:
    """Whether a path line may leave a hub's centre along a diagonal (``step``: (±1, ±1)):
    unless, past the hub's octagon (0.5 of its width out along a diagonal) and a pixel of
    blend, to 0.69 of its width, a line's width across the diagonal (0.06 of the hub to
    either side) shows the background or the faint diamonds and lines (``back``) but for a
    tenth at most (the octagon's blended edge, a GIF's dithering: up to 0.09 seen; a path's
    double line there covers 0.6 of it, a single line nearly all)."""
    cx, cy = centre
    sx, sy = step
    out = np.arange(0.5 * width + 1.5 * zoom, 0.69 * width, 0.5)
    across = np.arange(-0.06 * width, 0.06 * width + 0.5, 0.5)
    d, a = np.meshgrid(out, across)
    xs = np.round(cx + (d * sx - a * sy) / 2 ** 0.5).astype(int)
    ys = np.round(cy + (d * sy + a * sx) / 2 ** 0.5).astype(int)
    if xs.size == 0 or xs.min() < 0 or ys.min() < 0 or xs.max() >= back.shape[1] or ys.max() >= back.shape[0]:
        return True
    return float(back[ys, xs].mean()) < 0.9


def _open_beside(empty: np.ndarray, place: tuple[int, int], width: float) -> bool:
    """Whether the background shows to both sides of a line along the axis inside a hole's
    diamond (0.115 of the width to its tips) at a place: beyond a line's half width (0.05),
    a quarter or more of each side is background, as where an open hole lies under the line."""
    px, py = place
    r = int(np.ceil(0.115 * width))
    if not (r <= py < empty.shape[0] - r and r <= px < empty.shape[1] - r):
        return False
    ky, kx = np.mgrid[-r:r + 1, -r:r + 1]
    diamond = np.abs(kx) + np.abs(ky) <= 0.115 * width
    part = empty[py - r:py + r + 1, px - r:px + r + 1] > 0
    sides = [diamond & (kx < -0.05 * width), diamond & (kx > 0.05 * width)]
    return all(side.any() and part[side].mean() >= 0.25 for side in sides)


def _doubt(best: float, reach: float, filled: bool, other: np.ndarray, place: tuple[int, int], cy: float,
           dy: float, width: float) -> str | None:
    """Whether a cream (not open) place above or below a hub's centre could be a filled
    hole as well as path lines. On blurred 240 px crops and video frames a path line
    along the axis with the two diagonals beside it widens into a filled hole's look (a
    2-hole hub read as 3, a 3 as 4), and a filled hole blurred into the hub falls just
    short of one. "undecided" when the share or the run across (``best``, ``reach`` as
    shares of the width) is near its bound while the other passes (0.85 and 0.0825:
    filled holes were seen at 0.776 and 0.788, lines at 0.0817, and 0.095 once filled),
    or when the run across reaches past 0.17: a filled hole's own half width is 0.115
    (0.152 seen blurred), and lines beside it widened a line's run to 0.179 (2 read as 3);
    "axis" when ``filled`` holds and a line runs along the axis (the non-hub run from the
    place outward reaches past 0.45 of the width from the centre; a filled hole's own
    ends at 0.274, 0.38 at most as blurred), to be compared with the side holes."""
    if not filled:
        return "undecided" if best >= 0.7 and reach >= 0.0825 or best >= 0.85 and reach >= 0.07 else None
    if reach < 0.095 or reach > 0.17:
        return "undecided"
    return "axis" if _along_axis(other, place, cy, dy, width) else None


def _diagonals_beside(other: np.ndarray, place: tuple[int, int], cy: float, width: float) -> bool:
    """Whether on the row of a hole place above or below a hub's centre (``place``: the
    centre's column, the place's row; ``cy``: the centre's row) the mask holds pixels where both
    diagonals through the centre cross that row (as far to each side as the row is from the
    centre, within 0.06 of the hub's width): path lines to the two diagonal neighbours there."""
    cx, py = place
    rise, half = abs(py - cy), 0.06 * width
    band = other[max(0, py - 1):py + 2].any(axis=0)
    sides = [band[max(0, round(x - half)):max(0, round(x + half) + 1)] for x in (cx - rise, cx + rise)]
    return all(side.any() for side in sides)


def _along_axis(mask: np.ndarray, place: tuple[int, int], cy: float, dy: float, width: float,
                band: float = 0.025) -> bool:
    """Whether the mask's run from a hole place above or below a hub's centre outward
    reaches past 0.45 of the width from the centre, as a path line along the axis does
    (a hole's own ends at 0.274, 0.38 at most as blurred). The run is taken over a band
    0.05 of the hub wide (``band`` to each side), so hub colour left by the blur between a
    double line's two strands does not cut it short."""
    px, py = place
    side = max(1, round(band * width))
    column = mask[:, max(0, px - side):px + side + 1].any(axis=1)
    return (abs(py - cy) + _run(column, py, 1 if dy > 0 else -1)) / width >= 0.45


def _run(line: np.ndarray, i: int, step: int) -> int:
    """Steps from index i along the run of True in direction step, bridging one-pixel gaps."""
    k = i
    while 0 <= k + 2 * step < len(line) and (line[k + step] or line[k + 2 * step]):
        k += step
    return abs(k - i)


def _reach(line: np.ndarray, i: int) -> float:
    """Pixels from the middle of index i to the end of the run of True through it on its
    shorter side, bridging one-pixel gaps (0 when i is False)."""
    if not 0 <= i < len(line) or not line[i]:
        return 0
    return min(_run(line, i, -1), _run(line, i, 1)) + 0.5


def _clusters(values: list[float], gap: float) -> list[float]:
    """Centres of 1-D clusters: sorted values split where they jump by more than gap."""
    vs = sorted(values)
    groups = [[vs[0]]]
    for v in vs[1:]:
        if v - groups[-1][-1] > gap:
            groups.append([v])
        else:
            groups[-1].append(v)
    return [sum(g) / len(g) for g in groups]


def fit_grid(nodes: list[Node], shape: tuple[int, ...],
             open_sides: tuple[bool, bool, bool, bool] = (False, False, False, False), settle: bool = True,
             drawn: tuple[np.ndarray, np.ndarray] | None = None) -> tuple[Board, float, float, float, float]:
    """(board, pitch, x0, y0, mean residual) from node centres on one square lattice. In
    a framed game area the board sits centred; towards a side where the picture itself
    ends, the outer nodes must keep the game's margin (0.6 pitch or more, 0.5 allowed), else a row
    or column may lie beyond the picture. The board must be a level with a solution (``settle``:
    ``_settled``; not when only asking whether some nodes make a board), its hubs read for
    sure passed by no more paths than they have holes where ``drawn`` (the foreground with
    path lines, and without: ``_passes``) shows them."""
    if not nodes:       # e.g. every node in doubt, left out of the lattice's first try
        raise NoBoardFound("no nodes to fit a lattice to")
    size = float(np.median([n.size for n in nodes]))
    xs = _clusters([n.x for n in nodes], 0.4 * size)
    ys = _clusters([n.y for n in nodes], 0.4 * size)
    gaps = [b - a for cs in (xs, ys) for a, b in zip(cs, cs[1:])]
    if not gaps:
        raise NoBoardFound("all nodes on one spot")
    pitch = min(gaps)
    if not 0.4 <= size / pitch <= 1.0:
        raise NoBoardFound(f"nodes of {size:.0f} px on a pitch of {pitch:.0f} px: not a LYNE grid")
    cols = round((xs[-1] - xs[0]) / pitch) + 1
    rows = round((ys[-1] - ys[0]) / pitch) + 1
    if rows > 12 or cols > 12:
        raise NoBoardFound(f"a {rows}x{cols} grid is too large")
    at: dict[tuple[int, int], Node] = {}
    for n in nodes:
        r, c = round((n.y - ys[0]) / pitch), round((n.x - xs[0]) / pitch)
        if (r, c) in at:
            raise NoBoardFound(f"two nodes on one grid place ({r},{c})")
        at[(r, c)] = n
    # least squares on the lattice, then how well it fits
    idx = np.array([[r, c] for r, c in at], float)
    px = np.array([[n.x, n.y] for n in at.values()])
    a = np.vstack([np.ones(len(idx)), idx[:, 1]]).T
    (x0, px_x), *_ = np.linalg.lstsq(a, px[:, 0], rcond=None)
    b = np.vstack([np.ones(len(idx)), idx[:, 0]]).T
    (y0, px_y), *_ = np.linalg.lstsq(b, px[:, 1], rcond=None)
    if (cols > 1 and rows > 1 and abs(px_x - px_y) > 0.06 * pitch):
        raise NoBoardFound("rows and columns have different pitches")
    pitch = float(px_x if cols > 1 else px_y)
    residual = float(np.mean(np.hypot(px[:, 0] - (x0 + idx[:, 1] * pitch), px[:, 1] - (y0 + idx[:, 0] * pitch))))
    if residual > 0.15 * pitch:
        raise NoBoardFound("nodes are not on a regular grid")
    h, w = shape[:2]
    mid_x, mid_y = x0 + pitch * (cols - 1) / 2, y0 + pitch * (rows - 1) / 2
    left, top, right, bottom = open_sides
    if not (left or right) and abs(mid_x - w / 2) > 0.15 * w or not (top or bottom) and abs(mid_y - h / 2) > 0.2 * h:
        raise Refusal("the nodes are not centred in the game area", BOARD)
    margins = (x0, y0, w - (x0 + pitch * (cols - 1)), h - (y0 + pitch * (rows - 1)))
    if any(o and m < MARGIN * pitch for o, m in zip(open_sides, margins)):
        raise Refusal("nodes close to the picture's edge: the board may go on beyond it", BOARD)
    _same_colours(nodes)
    grid = [["."] * cols for _ in range(rows)]
    for (r, c), n in at.items():
        if n.kind == "hub":
            grid[r][c] = str(n.holes)
        else:
            letter = KIND_LETTER[n.kind]
            grid[r][c] = letter.upper() if n.terminal else letter
    try:
        board = Board.from_text("\n".join("".join(row) for row in grid))
    except BoardError as exc:
        raise Refusal(f"the shapes read do not make a board ({exc})", BOARD) from None
    for place, n in at.items() if drawn is not None else ():
        if n.kind == "hub" and len(n.counts) == 1 and (passes := _passes(drawn, at, place, pitch)) > n.holes:
            raise Refusal(f"a hub at ({n.x:.0f},{n.y:.0f}) read with {n.holes} holes that paths pass through "
                          f"{passes} times (a hole missed)", BOARD)
    return _settled(board, at) if settle else board, pitch, float(x0), float(y0), residual


def _passes(drawn: tuple[np.ndarray, np.ndarray], at: Mapping[tuple[int, int], Node], place: tuple[int, int],
            pitch: float) -> int:
    """The least number of paths that pass through the hub at a place, from the path lines
    drawn out of it: in the game every pass fills one of its holes (a hub has at least as
    many holes as passes), and a pass is two lines to two neighbouring nodes (a line the
    path being drawn heads along to or from it is half a pass: left out, by halving).
    ``drawn``: the foreground with the path lines (lines) and without (nodes). A line to a
    neighbour is seen when, at every point between the two nodes where no blob lies across
    the line (three at least, over 0.05 of a pitch or more; a diagonal's middle, where the
    other diagonal would cross it, left out), something not background lies on the line
    (within 0.06 of a pitch of it) and nothing beside it (0.1 to 0.16 of a pitch off it): a
    finished path's double line spans 0.04 of a pitch to each side, a path being drawn 0.04,
    the mouse pointer is as wide as 0.18. Seeing fewer lines than there are only lowers the
    count (a blurred video frame's short gaps between nodes hide some)."""
    lines, blobs = drawn
    h, w = lines.shape[:2]
    hub = at[place]
    across = np.arange(-0.16 * pitch, 0.16 * pitch + 1)
    near, beside = np.abs(across) <= 0.06 * pitch, np.abs(across) >= 0.1 * pitch
    ends = 0
    for dr, dc in itertools.product((-1, 0, 1), repeat=2):
        other = at.get((place[0] + dr, place[1] + dc))
        if other is None or other is hub:
            continue
        (ax, ay), (bx, by) = (hub.x, hub.y), (other.x, other.y)
        length = float(np.hypot(bx - ax, by - ay))
        ux, uy = (bx - ax) / length, (by - ay) / length
        t = np.linspace(0.1, 0.9, 33)
        if dr and dc:
            t = t[np.abs(t - 0.5) * length >= 0.15 * pitch]
        # the cross-sections, a row per point on the way
        xs = np.round(ax + t[:, None] * (bx - ax) - uy * across).astype(int)
        ys = np.round(ay + t[:, None] * (by - ay) + ux * across).astype(int)
        if xs.min() < 0 or ys.min() < 0 or xs.max() >= w or ys.max() >= h:
            continue
        clear = ~blobs[ys, xs].any(axis=1)     # no node's blob (nor the pointer's) across the line there
        profile = lines[ys[clear], xs[clear]] > 0
        seen = profile[:, near].any(axis=1) & ~profile[:, beside].any(axis=1)
        ends += len(seen) >= 3 and seen.all() and float(np.ptp(t[clear])) * length >= 0.05 * pitch
    return ends // 2


def _settled(board: Board, at: Mapping[tuple[int, int], Node]) -> Board:
    """The board read, which must be a level with a solution: the game's levels all have
    one (a pointer over a hub's hole place once passed for a filled hole, 2 read as 3, and
    the level read had none). A hub whose count path lines leave open (``Node.counts``) is
    settled by the same rule: when of the counts those hubs may have one set alone makes a
    level with a solution, and the solver proves every other set has none, that is the
    level; otherwise the first such hub's doubt is the refusal. Two hubs in doubt one above
    the other may each also be a hole short of the fewest they were read with (the lines
    between them crossing their other hole places once passed for a filled hole). The
    search is bounded: a set the solver gives up on counts as possible."""
    from solvers.lyne import solve   # imported here: the solver's SAT library loads on the first read

    # lines running between two hubs one above the other, both in doubt, cross their other
    # hole places too, where one once passed for a filled hole (2 read as 3, then with the
    # hidden hole 3 or 4, and the hub below settled 3 as 2 to match): such a hub may also
    # be a hole short of its reading
    doubted = [(place, n) for place, n in sorted(at.items()) if len(n.counts) > 1]
    places = {place for place, _ in doubted}

    def options(place: tuple[int, int], n: Node) -> tuple[int, ...]:
        r, c = place
        stacked = (r - 1, c) in places or (r + 1, c) in places
        return tuple(sorted({*n.counts, min(n.counts) - stacked} - {0}))

    unsure = [(place, options(place, n)) for place, n in doubted]
    reason = doubted[0][1].unsure if doubted else ""
    if np.prod([len(counts) for _, counts in unsure]) > SETTLE_SETS:
        raise Refusal(reason, BOARD)
    possible, why = [], ""
    for counts in itertools.product(*(options for _, options in unsure)):
        grid = [list(row) for row in board.grid]
        for ((r, c), _), k in zip(unsure, counts):
            grid[r][c] = str(k)
        level = Board.from_text("\n".join("".join(row) for row in grid))
        found = solve(level, max_nodes=SETTLE_NODES)
        if found.solved or found.stats.get("capped"):
            possible.append(level)
            if len(possible) > 1:
                raise Refusal(reason + " (either count makes a level with a solution)", BOARD)
        why = found.reason
    if not possible:
        raise Refusal(reason or f"the nodes read make a level with no solution ({why}): a shape misread, "
                      "or something over the board (the mouse pointer?)", BOARD)
    return possible[0]


def _same_colours(nodes: list[Node]) -> None:
    """All nodes of a kind share their fill colour (one colour per shape), and no shape's
    colour is as near another shape kind's as its own kind's, nor nearer the hubs'."""
    for kind in ("triangle", "diamond", "square", "hub"):
        fills = [n.fill for n in nodes if n.kind == kind]
        if fills and max(_differ(a, fills[0]) for a in fills) > 40:
            raise Refusal(f"{kind}s of different colours", BOARD)
    # a shape blended into the faint diamond behind it (GIF, crop) can take another kind's
    # colour while its outline reads as its own: refuse a shape at least as near another
    # kind's typical colour as its own kind's (moonbase's kinds are only 48 levels apart;
    # a hub may share a shape's colour)
    shapes = [n for n in nodes if n.kind != "hub"]
    typical = {k: tuple(int(v) for v in np.median([n.fill for n in shapes if n.kind == k], axis=0))
               for k in {n.kind for n in shapes}}
    # nor by HUB_NEARER nearer the hubs' (a hub crossed by path lines once read as a
    # stone-in-focus diamond, 38 levels off the diamonds' colour and 0 off the hubs'; kind
    # of blue's triangles are 15 from its hubs, and under the light one was 23 off its
    # kind's and 10 off the hubs'; in a 200 px crop of a frame mid-play a hub under a path
    # being drawn read as a stone-in-focus diamond 30 off the diamonds' and 7 off the hubs',
    # 2 read as d; shapes read right were seen at most 7 nearer the hubs')
    hubs = [n.fill for n in nodes if n.kind == "hub"]
    hub = tuple(int(v) for v in np.median(hubs, axis=0)) if hubs else None
    for n in shapes:
        own = _differ(n.fill, typical[n.kind])
        for k, colour in typical.items():
            if k != n.kind and _differ(n.fill, colour) <= own:
                raise Refusal(f"a {n.kind} at ({n.x:.0f},{n.y:.0f}) as near the colour of the {k}s as of its own kind", BOARD)
        if hub is not None and _differ(n.fill, hub) + HUB_NEARER <= own:
            raise Refusal(f"a {n.kind} at ({n.x:.0f},{n.y:.0f}) much nearer the colour of the hubs than of its own kind", BOARD)
