"""Klotski by geometry: the board's grid from straight edges, each piece from the edges
along its cells' sides — for looks with no flat board colour to read through (portraits,
name bands, gradients, shadows, textured floors, pieces edge to edge).

Stages, each a plain function, on a copy of the picture at most ``WORK_SIDE`` px long:
1. ``edge_maps``: where a colour channel steps up or down by more than ``EDGE`` across a
   pixel, per sign (a piece's side is one straight step along its length; a portrait's
   strokes are short and change sign), and the straight runs of a twentieth of the
   picture's shorter side or more (``long_runs``, at least 6 px);
2. ``grids``: candidate grids — evenly spaced lines on the peaks of the runs' profiles,
   across columns first, then down rows within each candidate's columns, in the parts of
   the picture that the runs join into large blocks;
3. ``read_grid``: for one grid, how strongly every side between two cells is one straight
   edge (``sides``), whether each cell is empty floor (even colour, no edges; or nearly
   so, a shaded or painted floor, where the sides say so: a piece shows its side along an
   empty cell) and the pieces as the cells joined across sides without an edge (a "piece"
   whose cells are mostly the floor's colour is floor with marks on it: a watermark). A grid reads only when every outer
   side is an edge (but for a few next to empty cells: an open exit), every side is
   clearly an edge or clearly not one, the pieces are rectangles with an edge all round
   and no edge inside, and the grid's lines do not run on past its edges (part of a
   board; where the picture's edge cuts the next cell, over the part of it shown);
   With a profile's learned look of the sides (``SideLook``: the mean colour across a side
   between two pieces, beside the floor, along the frame) the sides the edge measure leaves
   unclear are decided by how much they look like those (``_by_look``), and every grid
   must agree with the clear ones;
4. ``parse_grid``: the reading of the largest grid that reads (not counting grids of half
   the pitch: all sizes and places even; a grid refused for a side off its lines,
   ``OffLines``, is read again ``fitted`` to them), refused when readings of that size
   disagree or a piece shows floor along a side (``check_settled``: caught mid-slide);
   edge rows and columns with no piece are left out when the grid less them reads the
   same pieces (``trimmed``).
With no profile, a classic 5×4 grid whose floor the even cells leave unclear (pieces edge to
edge, whose floor shows only in the empty cells) or that reads as mostly floor (pieces drawn
as outlines on it) is read by its seams alone (``read_by_seams``): the cells joined across
the sides with no edge make the classic pieces round one clear floor, and exactly one such
board comes of its few unclear sides taken either way, or none reads. (Not a grid refused
for unclear sides with its floor clear: a photographed 巧过五关 frame read so took a seam
between two tiles and a tile's own side the wrong way, the piece counts kept.)
"""
from __future__ import annotations

import itertools
from dataclasses import dataclass, replace
from functools import cached_property
from typing import Callable, Iterator, Sequence

import cv2
import numpy as np

from vision.colours import colour_mask
from vision.common import NoBoardFound, marked, stage
from vision.components import components

WORK_SIDE = 512        # px: pictures are read at most this long (speed; the pieces stay large)
EDGE = 28              # a channel's step across a pixel that counts as an edge
JOIN, SPLIT = 0.82, 0.9    # share of a side that is one straight edge: below, one piece; above, two
FLAT_STD = 16.0        # an empty cell's colour varies less (per channel) ...
FLAT_EDGES = 0.04      # ... and has fewer edge pixels than this share
GROW_STD, GROW_EDGES = 20.0, 0.1   # ... or these next to an empty cell with no edge between them
PLAIN_GAP = 0.02       # the plainest cells have this share of edge pixels less than every other cell (``_plainest``)
FLOOR_DISTANCE = 40.0  # empty cells' colours lie this close to their mean
FLOOR_NEAR, FLOOR_SHARE = 20, 0.7  # a cell with this share of its pixels within FLOOR_NEAR (per channel) of the
                                   # floor's colour is floor with marks on it (a watermark, text)
MAX_CELLS = 100
MIN_PITCH = 30         # px in the picture read: below, a portrait's strokes are as long as a cell's side
RUN_SPLIT = 0.65       # share of a side in one unbroken straight edge: not one piece
THIN_MARGIN = 2.4      # reaches of picture past a side under which the strip there must be an even frame
UNEVEN = 12.0          # ... whose colour varies along the side by at most this (std of 0-255 levels, shading aside)
NEAR = 2.5             # a side with no edge within the reach has none within this many reaches either
RETRY = (1.0, 0.9, 0.8)    # with a profile's grid shape: shares of the first shrinking tried in turn
OPEN_SIDES = 4         # outer sides with no edge allowed (empty cells at an open exit)
SOLID, REACH = 0.97, 0.78  # a side between two pieces that is an edge over less of its middle and of its
CORNER, CORNER_SLACK = 0.5, 0.12   # whole length must run on from a corner over CORNER of it (``_marginal``)
# a look learned by calibration (``SideLook``): a side's mean cross-section, LOOK_SAMPLES
# samples over LOOK_SPAN of a pitch either side of its line, found up to LOOK_SHIFT samples
# off the line, decides the sides the edge measure leaves unclear (``_by_look``): a match
# of LOOK_EDGE or more is an edge, under LOOK_NONE none; and a clear edge must match at
# least LOOK_LIKE, a clear no-edge less
LOOK_SAMPLES, LOOK_SPAN, LOOK_SHIFT = 13, 0.1, 6
LOOK_EDGE, LOOK_LIKE, LOOK_NONE = 0.5, 0.3, 0.12
LOOK_SURE = 0.35       # every side between pieces of the calibration's screenshot matches its look this well, or none is kept
LOOK_BLUR = 1.0        # px (Gaussian σ): blurred so, the sides between pieces still match the look LOOK_EDGE on average
REFIT = 0.7            # a grid fitted to its inner lines' edges must lie on this share of the guess's edge
NO_LOOK_PITCH = 60     # px: with no learned look, a calibrated reading shrinks a picture to no smaller pitch
GAP_HALF, GAP_SHARE = 0.06, 0.75    # ``_gaps_show``
LEAN_MAX, LEAN_MIN = 6.0, 0.3   # degrees: ``lean`` looks this far from upright; a grid reads turned less
CLASSIC_GRID = (5, 4)   # rows, cols of the classic board, whose pieces ``read_by_seams`` reads: one 2×2, five of two cells,
OWN_MARGIN = 0.06       # four single cells; a cell's box (this share of a pitch in) shows a piece's own outline
MOST_UNCLEAR = 6        # sides between cells ``read_by_seams`` leaves to the pieces' shapes to decide


@dataclass(frozen=True)
class EdgeMaps:
    """Edge pixels of a picture: ``v``/``h`` any vertical/horizontal edge; ``vsum``/``hsum``
    their running counts down columns / along rows per sign (a channel stepping up, or
    down), so the share of a line segment with one edge is two look-ups."""

    image: np.ndarray
    v: np.ndarray
    h: np.ndarray
    vsum: np.ndarray    # (2, H + 1, W)
    hsum: np.ndarray    # (2, H, W + 1)
    edge_sum: np.ndarray    # integral images (H + 1, W + 1, ...) of the edge pixels, and below of the
                            # colour and its square, for any box's edges, mean and spread

    @cached_property
    def colour_sums(self) -> tuple[np.ndarray, np.ndarray]:
        """The integral images of the colour and of its square, made when first asked for
        (most of their cost: only cells' colours need them, not a side's edge measure)."""
        # (OpenCV's integral of bytes to whole-number sums is several times faster than of doubles)
        colour_sum, square_sum = cv2.integral2(self.image, sdepth=cv2.CV_32S, sqdepth=cv2.CV_64F)
        return colour_sum.astype(np.float64), square_sum

    def box_mean(self, table: np.ndarray, x0: np.ndarray, y0: np.ndarray, x1: np.ndarray,
                 y1: np.ndarray) -> np.ndarray:
        """The mean of ``table``'s values over boxes [x0, x1) × [y0, y1) (ints or arrays
        of them: one mean per box, a row per box for a colour's table)."""
        area = np.maximum(1, (np.asarray(x1) - x0) * (np.asarray(y1) - y0))
        corners = table[y1, x1] - table[y0, x1] - table[y1, x0] + table[y0, x0]
        return corners / (area[..., None] if corners.ndim > area.ndim else area)


class OffLines(NoBoardFound):
    """A grid refused for a side between two cells that is neither clearly an edge nor
    clearly not one, or for a piece with no edge toward an empty cell: where the grid's
    lines lie a few pixels off the pieces' sides, so they read."""


class FloorUnclear(NoBoardFound):
    """A grid refused for even cells of several colours: flat pieces beside the floor.
    ``floors``: the colours (BGR) of those cells, grouped within FLOOR_DISTANCE, the
    most cells first; one of them may be the floor's (``readings``)."""

    def __init__(self, message: str, floors: list[np.ndarray]) -> None:
        super().__init__(message)
        self.floors = floors


@dataclass(frozen=True)
class GridGuess:
    ox: float
    oy: float
    px: float
    py: float
    rows: int
    cols: int


@dataclass(frozen=True)
class SideLook:
    """How one app's piece sides look across, learned from one screenshot: the mean colour
    cross-section (LOOK_SAMPLES × BGR, left to right or top to bottom) of the sides between
    two pieces (``split``, made symmetric: either piece may be first), between a piece and
    the floor (``floor``) and between a piece and the board's frame (``outline``), the
    piece first in both; each a pair (vertical sides, horizontal sides): a frame's light
    and shade differ between them."""

    split: tuple[np.ndarray, np.ndarray]
    floor: tuple[np.ndarray, np.ndarray]
    outline: tuple[np.ndarray, np.ndarray]

    def to_json(self) -> dict[str, list]:
        return {kind: [np.round(t).astype(int).tolist() for t in getattr(self, kind)]
                for kind in ("split", "floor", "outline")}

    @staticmethod
    def from_json(data: dict[str, list]) -> "SideLook":
        """The look from a profile's field; ValueError when it is not one."""
        pairs = []
        for kind in ("split", "floor", "outline"):
            pair = tuple(np.array(t, np.float32) for t in data[kind])
            if len(pair) != 2 or any(t.shape != (LOOK_SAMPLES, 3) for t in pair):
                raise ValueError(f"side_look {kind!r} must be two lists of {LOOK_SAMPLES} [b, g, r]")
            pairs.append(pair)
        return SideLook(*pairs)


@dataclass(frozen=True)
class Reading:
    grid: GridGuess
    sizes: tuple[tuple[int, int, int, int], ...]    # (row, col, height, width) of each piece
    clarity: float                                  # how far the sides stand from the thresholds
    floor: tuple[float, float, float]               # the empty cells' mean colour (BGR)
    settled: bool = False                           # no piece can be mid-slide (``read_by_seams``)


def edge_maps(image: np.ndarray) -> EdgeMaps:
    f = image.astype(np.int16)
    h, w = f.shape[:2]
    dx, dy = f[:, 2:] - f[:, :-2], f[2:] - f[:-2]
    vsum = np.zeros((2, h + 1, w), np.int32)
    hsum = np.zeros((2, h, w + 1), np.int32)
    maps = []
    for d, sums, axis in ((dx, vsum, 1), (dy, hsum, 2)):
        b, g, r = d[..., 0], d[..., 1], d[..., 2]       # (numpy's max over a last axis of 3 is slow)
        up, down = np.maximum(np.maximum(b, g), r) > EDGE, np.minimum(np.minimum(b, g), r) < -EDGE
        for k, m in enumerate((up, down)):
            # running sums along one axis, as differences of OpenCV's (fast) 2-D integral
            table = cv2.integral(m.view(np.uint8), sdepth=cv2.CV_32S)
            if axis == 1:
                sums[k][:, 1:-1] = np.diff(table, axis=1)
            else:
                sums[k][1:-1, :] = np.diff(table, axis=0)
        full = np.zeros((h, w), np.uint8)
        full[(np.s_[:, 1:-1] if axis == 1 else np.s_[1:-1, :])] = up | down
        maps.append(full)
    edge_sum = cv2.integral(maps[0] | maps[1], sdepth=cv2.CV_32S)
    return EdgeMaps(image, maps[0], maps[1], vsum, hsum, edge_sum)


def sides(e: EdgeMaps, vertical: bool, positions: np.ndarray, starts: np.ndarray, ends: np.ndarray,
          reach: float) -> np.ndarray:
    """For every segment [starts[i], ends[i]) along every line at ``positions``, the
    largest share of it, within ``reach`` px of the line, that is one edge (the colour
    stepping one way all along): (segments, lines), all in a few array operations."""
    sums = e.vsum if vertical else e.hsum
    across, along = (sums.shape[2], sums.shape[1] - 1) if vertical else (sums.shape[1], sums.shape[2] - 1)
    lo = np.maximum(0, np.round(positions - reach).astype(int))
    hi = np.minimum(across, np.round(positions + reach).astype(int) + 1)
    span = max(1, int((hi - lo).max()))
    idx = lo[:, None] + np.arange(span)[None, :]
    inside = idx < hi[:, None]
    np.minimum(idx, across - 1, out=idx)       # (lo is never below 0)
    a = np.maximum(0, starts.astype(int))
    b = np.minimum(along, ends.astype(int))
    if vertical:
        run = sums[:, b[:, None, None], idx[None]] - sums[:, np.minimum(a, b)[:, None, None], idx[None]]
    else:
        run = sums[:, idx[None], b[:, None, None]] - sums[:, idx[None], np.minimum(a, b)[:, None, None]]
    best = np.where(inside[None, None], run, 0).max(axis=(0, 3)).astype(float)
    length = b - a
    out = best / np.maximum(length, 1)[:, None]
    out[length < 3, :] = 0.0
    out[:, hi <= lo] = 0.0
    return out


def _along(e: EdgeMaps, vertical: bool, pos: float, a: float, b: float, reach: float) -> np.ndarray | None:
    """Which pixels of the segment [a, b) are edge, per sign and per line within
    ``reach`` px of ``pos``: (2, b - a, lines); None when the segment is under 3 px."""
    sums = e.vsum if vertical else e.hsum
    across, along = (sums.shape[2], sums.shape[1] - 1) if vertical else (sums.shape[1], sums.shape[2] - 1)
    lo, hi = max(0, round(pos - reach)), min(across, round(pos + reach) + 1)
    a, b = max(0, int(a)), min(along, int(b))
    if hi <= lo or b - a < 3:
        return None
    cut = sums[:, a:b + 1, lo:hi] if vertical else sums[:, lo:hi, a:b + 1].transpose(0, 2, 1)
    return np.diff(cut, axis=1) > 0


def longest_run(e: EdgeMaps, vertical: bool, pos: float, a: float, b: float, reach: float) -> float:
    """The longest unbroken run of one edge along a line within ``reach`` px of ``pos``,
    as a share of the segment [a, b)."""
    on = _along(e, vertical, pos, a, b, reach)
    if on is None:
        return 0.0
    n = on.shape[1]
    padded = np.concatenate([np.zeros_like(on[:, :1]), on, np.zeros_like(on[:, :1])], 1).astype(np.int8)
    steps = np.diff(padded, axis=1)
    starts, ends = np.nonzero(steps.transpose(0, 2, 1).reshape(-1, n + 1) == 1), \
        np.nonzero(steps.transpose(0, 2, 1).reshape(-1, n + 1) == -1)
    if not starts[0].size:
        return 0.0
    return float((ends[1] - starts[1]).max()) / n


def corner_run(e: EdgeMaps, vertical: bool, pos: float, a: float, b: float, reach: float) -> float:
    """The longest unbroken run of one edge along a line within ``reach`` px of ``pos``
    that starts at an end of the segment [a, b) (within CORNER_SLACK of it), as a share
    of the segment: a side between two pieces runs on from a corner, a stroke painted
    in a piece starts and stops inside it."""
    on = _along(e, vertical, pos, a, b, reach)
    if on is None:
        return 0.0
    n = on.shape[1]
    slack = max(1, round(CORNER_SLACK * n))
    columns = on.transpose(0, 2, 1).reshape(-1, n)
    lines = np.concatenate([columns, columns[:, ::-1]])        # each read from either end
    first = lines[:, :slack].argmax(1)
    filled = lines | (np.arange(n)[None, :] < first[:, None])
    end = np.where(filled.all(1), n, filled.argmin(1))
    return float(np.where(lines[:, :slack].any(1), end - first, 0).max()) / n


def long_runs(e: EdgeMaps, length: int) -> tuple[np.ndarray, np.ndarray]:
    """The vertical and horizontal edge pixels in straight runs of ``length`` px or more."""
    return (cv2.morphologyEx(e.v, cv2.MORPH_OPEN, np.ones((length, 1), np.uint8)),
            cv2.morphologyEx(e.h, cv2.MORPH_OPEN, np.ones((1, length), np.uint8)))


def even_lines(profile: np.ndarray, pmin: float, pmax: float, keep: int = 2) -> list[tuple[float, float, float, int]]:
    """(score, first line, pitch, cells) of evenly spaced lines through the profile's
    peaks, best first, ``keep`` per count of cells. A line scores its strength over the
    weaker of the guess's two end lines (at most 1), less 0.35, so weak lines count
    against a guess; the sum is weighed by how strong the ends are next to the strongest
    peak (square root), so a board inside a stronger frame (a dialog) still scores."""
    n = len(profile)
    tol = max(1, round(0.006 * n))
    smooth = cv2.dilate(profile.reshape(1, -1), np.ones((1, 2 * tol + 1), np.float32)).ravel()
    top = float(smooth.max())
    if top <= 0:
        return []
    peaks: list[int] = []
    taken = np.zeros(n + 4, bool)       # within 2 of a peak (shifted by 2)
    for i in np.argsort(-profile, kind="stable")[:200].tolist():
        if profile[i] < 0.1 * top or len(peaks) == 20:
            break
        if not taken[i + 2]:
            peaks.append(i)
            taken[i:i + 5] = True
    if len(peaks) < 2:
        return []
    ends = np.array([(a, b) for a in peaks for b in peaks if b > a], np.float32)
    strength = smooth[ends.astype(int)].min(1)
    found = []
    for cells in range(2, 9):
        pitch = (ends[:, 1] - ends[:, 0]) / cells
        ok = (pitch >= pmin) & (pitch <= pmax)
        if not ok.any():
            continue
        first, p, s_end = ends[ok, 0], pitch[ok], strength[ok]
        at = np.round(first[:, None] + np.arange(cells + 1)[None, :] * p[:, None]).astype(int)
        scores = (np.minimum(1.0, smooth[at] / s_end[:, None]) - 0.35).sum(1) * np.sqrt(s_end / top)
        for i in np.argsort(-scores)[:keep]:
            found.append((float(scores[i]), float(first[i]), float(p[i]), cells))
    return sorted(found, reverse=True)


def blocks(vl: np.ndarray, hl: np.ndarray, depth: int = 1) -> list[tuple[int, int, int, int]]:
    """Boxes (x0, y0, x1, y1) of the parts of the picture the straight runs join into
    blocks at least a sixth of the picture's short side: a board is one (its pieces'
    sides nearly touch), smallest first; and (``depth`` 1) those they join into when
    joined three times as far apart: pieces with gaps wider than the first joining
    between them (a board's floor seen 4-6 px wide between its pieces, 0.05-0.1 of a
    cell: each piece a block of its own)."""
    h, w = vl.shape
    k = max(3, round(0.015 * min(h, w)))
    boxes = _joined(vl | hl, k)
    if depth:   # a board framed by a dialog joins it: look again without the box's longest lines
        for x0, y0, x1, y1 in list(boxes):
            inner = blocks(_without_long(vl[y0:y1, x0:x1], 0), _without_long(hl[y0:y1, x0:x1], 1), depth - 1)
            boxes += [(a + x0, b + y0, c + x0, d + y0) for a, b, c, d in inner
                      if (c - a) * (d - b) < 0.8 * (x1 - x0) * (y1 - y0)]
        boxes += _joined(vl | hl, 3 * k)
    return sorted(set(boxes), key=lambda b: (b[2] - b[0]) * (b[3] - b[1]))


def _joined(runs: np.ndarray, k: int) -> list[tuple[int, int, int, int]]:
    """Boxes (x0, y0, x1, y1) of the runs joined by a k × k dilation, each at least a
    sixth of the picture's short side."""
    h, w = runs.shape
    _, _, stats = components(cv2.dilate(runs, np.ones((k, k), np.uint8)), connectivity=8)
    return [(int(x), int(y), int(x + bw), int(y + bh)) for x, y, bw, bh, _ in stats if min(bw, bh) >= min(h, w) / 6]


def _without_long(runs: np.ndarray, axis: int) -> np.ndarray:
    """The runs less those spanning most of the box along ``axis`` (0: down, 1: across):
    a dialog's frame, which joins everything inside it."""
    _, labels, stats = components(runs, connectivity=8)
    span = stats[:, cv2.CC_STAT_HEIGHT if axis == 0 else cv2.CC_STAT_WIDTH]
    keep = np.concatenate(([0], span < 0.85 * runs.shape[axis])).astype(np.uint8)     # label 0: no run
    return keep[labels]


def grids(e: EdgeMaps, pitch: tuple[float, float] | None = None) -> Iterator[GridGuess]:
    """Candidate grids, the likeliest of each block first; ``pitch`` (px, from a profile)
    bounds the column pitch. Four column spacings of each count of columns are tried: a
    board's frame line and each tile's own double frame (横刀立马's ink paintings) make
    spacings that outscore the tiles' sides."""
    h, w = e.v.shape
    vl, hl = long_runs(e, max(6, min(h, w) // 20))
    for x0, y0, x1, y1 in blocks(vl, hl):
        short = min(x1 - x0, y1 - y0)
        lo, hi = pitch or (short / 10, short / 1.8)
        across = even_lines(vl[y0:y1, x0:x1].sum(0).astype(np.float32), max(MIN_PITCH, lo), hi, keep=4)
        for _, ax, px, cols in across[:10]:
            xa, xb = int(x0 + ax), int(x0 + ax + cols * px)
            down = even_lines(hl[y0:y1, xa:xb].sum(1).astype(np.float32), max(MIN_PITCH, px * 0.8), px * 1.25)
            for _, ay, py, rows in down[:8]:
                yield GridGuess(x0 + ax, y0 + ay, px, py, rows, cols)


def _box(g: GridGuess, r: int, c: int, margin: float) -> tuple[int, int, int, int]:
    return (round(g.ox + (c + margin) * g.px), round(g.oy + (r + margin) * g.py),
            round(g.ox + (c + 1 - margin) * g.px), round(g.oy + (r + 1 - margin) * g.py))


def read_grid(e: EdgeMaps, g: GridGuess, floor: np.ndarray | None = None,
              look: SideLook | None = None) -> Reading:
    """The pieces on one grid, or NoBoardFound saying why the grid does not read.
    ``floor`` (BGR), when known (a profile), is the empty cells' colour; ``look``
    (a profile's): the sides' learned look decides the sides the edge measure leaves
    unclear (``_by_look``)."""
    reach = max(2.0, 0.08 * min(g.px, g.py))
    vs, hs, open_sides = _grid_sides(e, g, reach, look)
    empty, colours = _empty_cells(e, g, floor, vs, hs)
    _check_open(g, open_sides, empty)
    _settle(e, g, vs, hs, empty, reach)
    if look is not None:
        _by_look(e.image, g, look, vs, hs, empty)
    floor_colour = colours[empty].mean(0)
    near = _near_floor(colours, floor_colour)
    sizes = [s for s in _pieces(vs, hs, empty) if not _marked_floor(e.image, g, floor_colour, near, s)]
    return _finished(e, g, vs, hs, sizes, floor_colour, reach)


def _grid_sides(e: EdgeMaps, g: GridGuess, reach: float,
                look: SideLook | None = None) -> tuple[np.ndarray, np.ndarray, list[tuple[int, int, str]]]:
    """How strongly every side of a grid's cells is one straight edge (``sides``): between
    columns (rows, cols + 1) and between rows (rows + 1, cols), the outline's included, and
    the outer sides with no edge (row, col, "v" or "h"); NoBoardFound when the grid leaves
    the picture, its outline shows too few edges or its lines run on past it."""
    image = e.image
    margin = min(_margins(g, image.shape))
    if min(g.rows, g.cols) < 3 or g.rows * g.cols > MAX_CELLS or margin < -reach:
        raise NoBoardFound("the grid leaves the picture (or has fewer than 3 rows or columns)")
    if margin < reach:
        # less than a reach of picture past the outline: whether the board goes on is unseen
        # (a crop along a row's side, a strip of its pieces a pixel or two thin, left)
        raise NoBoardFound("the board runs to the picture's edge (cut off there?)")

    # the outline first (most candidate grids have none: they end here, cheaply): an edge
    # along every outer side, but for a few (an empty cell at the exit, where the frame is
    # open), checked again once the empty cells are known
    inner_rows, inner_cols = np.arange(g.rows), np.arange(g.cols)
    no_outline = NoBoardFound("no edge along the board's outline")
    outline_v = sides(e, True, g.ox + np.array([0, g.cols]) * g.px, g.oy + (inner_rows + .2) * g.py,
                      g.oy + (inner_rows + .8) * g.py, reach)
    if look is None and int((outline_v < SPLIT).sum()) > OPEN_SIDES:
        raise no_outline        # the side columns alone miss too many edges (a look may add some)
    outline_h = sides(e, False, g.oy + np.array([0, g.rows]) * g.py, g.ox + (inner_cols + .2) * g.px,
                      g.ox + (inner_cols + .8) * g.px, reach)
    if look is not None:
        _outline_by_look(image, g, look, outline_v, outline_h)
    if int((outline_v < SPLIT).sum() + (outline_h < SPLIT).sum()) > OPEN_SIDES:
        raise no_outline
    # every cell side's strength, with one more row (column) of sides past each edge
    xs, ys = g.ox + np.arange(g.cols + 1) * g.px, g.oy + np.arange(g.rows + 1) * g.py
    rows, cols = np.arange(-1, g.rows + 1), np.arange(-1, g.cols + 1)
    v_all = sides(e, True, xs, g.oy + (rows + .2) * g.py, g.oy + (rows + .8) * g.py, reach)      # (rows + 2, cols + 1)
    h_all = sides(e, False, ys, g.ox + (cols + .2) * g.px, g.ox + (cols + .8) * g.px, reach).T   # (rows + 1, cols + 2)
    vs, hs = v_all[1:-1].copy(), h_all[:, 1:-1].copy()
    vs[:, [0, -1]], hs[[0, -1]] = outline_v, outline_h.T
    outline = {(r, c, "v"): vs[r, c] for r in range(g.rows) for c in (0, g.cols)}
    outline.update({(r, c, "h"): hs[r, c] for c in range(g.cols) for r in (0, g.rows)})
    # a grid whose lines run on past it is part of a board (again within NEAR reaches once
    # the grid reads, in ``_finished``; this first look is cheap)
    _check_beyond([v_all[0], v_all[-1], h_all[:, 0], h_all[:, -1]])
    return vs, hs, [(r, c, kind) for (r, c, kind), strength in outline.items() if strength < SPLIT]


def _check_open(g: GridGuess, open_sides: list[tuple[int, int, str]], empty: np.ndarray) -> None:
    """Refuse a grid with an outer side that shows no edge beside a piece (only an empty
    cell may meet an open frame: the exit)."""
    for r, c, kind in open_sides:
        inner = (r, min(c, g.cols - 1)) if kind == "v" else (min(r, g.rows - 1), c)
        if not empty[inner]:
            raise NoBoardFound("a piece shows no edge along the board's outline")


def _settle(e: EdgeMaps, g: GridGuess, vs: np.ndarray, hs: np.ndarray, empty: np.ndarray, reach: float) -> None:
    """The sides with no clear edge between two cells both ``empty`` or both not made
    unclear (in place) where an edge shows otherwise: a long straight run, an edge just
    past the reach, or a stroke over the middle only (``_marginal``)."""
    # a side to be joined must show no long straight run of edge either: two framed tiles
    # edge to edge whose name bands meet have an edge over most of the side, not all.
    # (Sides between a piece and an empty cell are refused below whatever their run, so
    # only the others are looked at: the costly part of a grid's reading.)
    padded = np.pad(empty, 1)
    v_look, h_look = padded[1:-1, :-1] == padded[1:-1, 1:], padded[:-1, 1:-1] == padded[1:, 1:-1]
    v_look[:, [0, -1]] = h_look[[0, -1]] = True       # the outline counts in the clarity
    for r, c in zip(*np.nonzero((vs < JOIN) & v_look)):
        if longest_run(e, True, g.ox + c * g.px, g.oy + (r + .2) * g.py, g.oy + (r + .8) * g.py, reach) >= RUN_SPLIT:
            vs[r, c] = (JOIN + SPLIT) / 2
    for r, c in zip(*np.nonzero((hs < JOIN) & h_look)):
        if longest_run(e, False, g.oy + r * g.py, g.ox + (c + .2) * g.px, g.ox + (c + .8) * g.px, reach) >= RUN_SPLIT:
            hs[r, c] = (JOIN + SPLIT) / 2
    # ... nor a side between two pieces just past the reach: the grid is off there (a
    # grid whose outline runs along the board's frame, a little too wide, puts its inner
    # lines a few pixels beside the pieces' sides, which then read as no edge)
    xs, ys = g.ox + np.arange(g.cols + 1) * g.px, g.oy + np.arange(g.rows + 1) * g.py
    near_v = sides(e, True, xs, g.oy + (np.arange(g.rows) + .2) * g.py, g.oy + (np.arange(g.rows) + .8) * g.py,
                   NEAR * reach)
    near_h = sides(e, False, ys, g.ox + (np.arange(g.cols) + .2) * g.px, g.ox + (np.arange(g.cols) + .8) * g.px,
                   NEAR * reach).T
    vs[(vs < JOIN) & v_look & (near_v >= SPLIT)] = (JOIN + SPLIT) / 2
    hs[(hs < JOIN) & h_look & (near_h >= SPLIT)] = (JOIN + SPLIT) / 2
    _marginal(e, g, vs, hs, empty, reach)


def _finished(e: EdgeMaps, g: GridGuess, vs: np.ndarray, hs: np.ndarray, sizes: list[tuple[int, int, int, int]],
              floor_colour: np.ndarray, reach: float) -> Reading:
    """The reading of a grid's pieces (``sizes``), once no line runs on past the grid
    within NEAR reaches and its thin margins are even frames; its clarity how far the
    sides stand from the thresholds."""
    h, w = e.image.shape[:2]
    if len(sizes) < 3:
        raise NoBoardFound("fewer than three pieces")
    # the sides past each edge within NEAR reaches: a picture turned 1–2° moves them a few px
    xs, ys = g.ox + np.arange(g.cols + 1) * g.px, g.oy + np.arange(g.rows + 1) * g.py
    far_v = sides(e, True, xs, *_past(g.oy, g.py, g.rows, h, reach), NEAR * reach)
    far_h = sides(e, False, ys, *_past(g.ox, g.px, g.cols, w, reach), NEAR * reach)
    _check_beyond([far_v[0], far_v[1], far_h[0], far_h[1]])
    _check_thin_margins(e.image, g, reach)
    decisive = np.concatenate([vs.ravel(), hs.ravel()])
    clarity = float(np.mean(np.minimum(np.abs(decisive - JOIN), np.abs(decisive - SPLIT))))
    return Reading(g, tuple(sizes), clarity, tuple(float(v) for v in floor_colour))


def readings(e: EdgeMaps, g: GridGuess, floor: np.ndarray | None = None, look: SideLook | None = None,
             boards: Sequence[np.ndarray] = ()) -> list[Reading]:
    """``read_grid``'s reading; where even cells of several colours leave the floor
    unclear (``FloorUnclear``: flat pieces as even as the floor), the readings with each
    of their colours that is one of ``boards`` taken for the floor's, those that read (the
    caller refuses readings that disagree). ``boards``: colours that show round three or
    more pieces as a board's does (``vision.klotski.piece_rects``), in a region the
    picture shows whole (``check_cut``: a board cut along a row's side is not read short):
    the floor is seen in the gaps between the pieces; a flat piece's colour is not (8 flat
    2×1 generals of one colour with names across their middle side, read as empty cells,
    the floor as pieces). Each side read between two pieces must show that gap
    (``_gaps_show``). With no profile's ``floor`` or ``look``, a grid none of those
    colours reads, or whose reading is mostly floor, is read by its seams when it can be
    (``read_by_seams``)."""
    seams = floor is None and look is None      # no profile's: the grid may read by its seams
    try:
        reading = read_grid(e, g, floor, look=look)
    except FloorUnclear as exc:
        found = []
        for colour in exc.floors:
            if not any(np.linalg.norm(colour - board) <= FLOOR_DISTANCE for board in boards):
                continue
            try:
                reading = read_grid(e, g, colour, look=look)
            except NoBoardFound:
                continue
            if _gaps_show(e.image, reading, colour):
                found.append(reading)
        return found or _by_seams_else(e, g, seams, exc)
    # most cells read as floor: pieces drawn as outlines on it?
    return _by_seams_else(e, g, seams and 2 * sum(h * w for _, _, h, w in reading.sizes) < g.rows * g.cols, reading)


def _by_seams_else(e: EdgeMaps, g: GridGuess, seams: bool, other: NoBoardFound | Reading) -> list[Reading]:
    """``read_by_seams`` of the grid when ``seams`` and it reads; else ``other``: a
    refusal raised, or a reading returned."""
    if seams:
        try:
            return [read_by_seams(e, g)]
        except NoBoardFound:
            pass
    if isinstance(other, Reading):
        return [other]
    raise other


def _gaps_show(image: np.ndarray, reading: Reading, floor: np.ndarray) -> bool:
    """Whether the floor's colour shows along every side read between two pieces, as it
    does in the gap between them: along one line (a row or column of pixels within
    GAP_HALF of a pitch of the side), over GAP_SHARE or more of the side's middle, a
    pixel of the board's colour as the reading by colour matches it
    (``vision.colours.colour_mask``: JPEG and resizing blend a gap 2-3 px wide with the
    pieces' colours). A name painted across a piece's middle side is an edge too, but
    shows no such line: its letters are apart, their ink of another colour."""
    g = reading.grid
    owner = np.full((g.rows, g.cols), -1)
    for k, (r, c, h, w) in enumerate(reading.sizes):
        owner[r:r + h, c:c + w] = k
    near = colour_mask(image, floor) > 0
    half = max(1, round(GAP_HALF * min(g.px, g.py)))
    for vertical, a, b in ((True, owner[:, :-1], owner[:, 1:]), (False, owner[:-1], owner[1:])):
        for r, c in zip(*np.nonzero((a >= 0) & (b >= 0) & (a != b))):
            if vertical:
                x, y0, y1 = round(g.ox + (c + 1) * g.px), round(g.oy + (r + .2) * g.py), round(g.oy + (r + .8) * g.py)
                strip = near[y0:y1, max(0, x - half):x + half + 1].T
            else:
                y, x0, x1 = round(g.oy + (r + 1) * g.py), round(g.ox + (c + .2) * g.px), round(g.ox + (c + .8) * g.px)
                strip = near[max(0, y - half):y + half + 1, x0:x1]
            if not strip.size or strip.mean(axis=1).max() < GAP_SHARE:
                return False
    return True


def _marginal(e: EdgeMaps, g: GridGuess, vs: np.ndarray, hs: np.ndarray, empty: np.ndarray, reach: float) -> None:
    """Sides between two pieces that are edges only in the middle, made unclear (in
    place): one not solid there (under SOLID), short of its ends (under REACH of the
    cell's whole side) and with no unbroken run from one of its corners over CORNER of
    it is a stroke painted in a portrait, straight over most of a cell, that fell on a
    grid line (巧过五关's 马超 at 0.7–0.85×). (Two tiles whose same-coloured name bands
    meet show no edge at one end of their side, but an unbroken one from the other.)"""
    pieces = ~np.pad(empty, 1, constant_values=True)
    for vertical, strengths, both in ((True, vs, pieces[1:-1, :-1] & pieces[1:-1, 1:]),
                                      (False, hs, pieces[:-1, 1:-1] & pieces[1:, 1:-1])):
        doubt = both & (strengths >= SPLIT) & (strengths < SOLID)
        if not doubt.any():
            continue
        if vertical:
            whole = sides(e, True, g.ox + np.arange(g.cols + 1) * g.px, g.oy + np.arange(g.rows) * g.py,
                          g.oy + np.arange(1, g.rows + 1) * g.py, reach)
        else:
            whole = sides(e, False, g.oy + np.arange(g.rows + 1) * g.py, g.ox + np.arange(g.cols) * g.px,
                          g.ox + np.arange(1, g.cols + 1) * g.px, reach).T
        for r, c in zip(*np.nonzero(doubt & (whole < REACH))):
            run = corner_run(e, True, g.ox + c * g.px, g.oy + r * g.py, g.oy + (r + 1) * g.py, reach) if vertical \
                else corner_run(e, False, g.oy + r * g.py, g.ox + c * g.px, g.ox + (c + 1) * g.px, reach)
            if run < CORNER:
                strengths[r, c] = (JOIN + SPLIT) / 2


def _section(image: np.ndarray, g: GridGuess, vertical: bool, line: int, cell: int) -> np.ndarray:
    """The cross-section of one cell side: on grid line ``line`` (a column's, when
    ``vertical``), beside cell ``cell`` along it (its middle three fifths)."""
    if vertical:
        return cross_section(image, True, g.ox + line * g.px, g.oy + (cell + .2) * g.py, g.oy + (cell + .8) * g.py,
                             g.px)
    return cross_section(image, False, g.oy + line * g.py, g.ox + (cell + .2) * g.px, g.ox + (cell + .8) * g.px,
                         g.py)


def _outline_by_look(image: np.ndarray, g: GridGuess, look: SideLook, outline_v: np.ndarray,
                     outline_h: np.ndarray) -> None:
    """Outer sides with no clear edge that show the learned outline look (a piece, then
    the frame) read as edges (in place; ``outline_v``: (rows, 2), ``outline_h``: (cols, 2))."""
    for vertical, strengths, last in ((True, outline_v, g.cols), (False, outline_h, g.rows)):
        template = look.outline[0 if vertical else 1]
        for cell, end in zip(*np.nonzero(strengths < SPLIT)):
            section = _section(image, g, vertical, 0 if end == 0 else last, cell)
            if look_match(section if end else section[::-1], template) >= LOOK_EDGE:
                strengths[cell, end] = SPLIT


def _by_look(image: np.ndarray, g: GridGuess, look: SideLook, vs: np.ndarray, hs: np.ndarray,
             empty: np.ndarray) -> None:
    """The inner sides the edge measure leaves undecided, decided by the learned look (in
    place): between two pieces, unclear (JOIN to SPLIT) — an edge when it shows the look
    of a side between two pieces (LOOK_EDGE or more), none when it shows nothing like it
    (under LOOK_NONE); between a piece and an empty cell, no clear edge — an edge when it
    shows the look of a piece beside the floor. Every grid must then agree with the edge
    measure's clear sides: an edge that looks little like a side (under LOOK_LIKE: a
    straight stroke in a portrait), or no edge where the side looks even that much like
    one (two pieces whose blurred side the edge measure misses), refuses it."""
    changes: list[tuple[np.ndarray, int, int, float]] = []
    clear: list[tuple[float, float]] = []         # (strength, match) of the clear sides between pieces
    for vertical, strengths in ((True, vs), (False, hs)):
        last = strengths.shape[1 if vertical else 0] - 1
        for r, c in np.ndindex(*strengths.shape):
            line, cell = (c, r) if vertical else (r, c)
            first = (r, c - 1) if vertical else (r - 1, c)
            if line in (0, last) or (empty[first] and empty[r, c]):
                continue
            strength = float(strengths[r, c])
            section = _section(image, g, vertical, line, cell)
            if empty[first] or empty[r, c]:
                if strength < SPLIT and look_match(section if empty[r, c] else section[::-1],
                                                   look.floor[0 if vertical else 1]) >= LOOK_EDGE:
                    changes.append((strengths, r, c, SPLIT))
                continue
            match = look_match(section, look.split[0 if vertical else 1])
            if JOIN <= strength < SPLIT:
                if match >= LOOK_EDGE or match < LOOK_NONE:
                    changes.append((strengths, r, c, SPLIT if match >= LOOK_EDGE else JOIN - 0.01))
            else:
                clear.append((strength, match))
    if any((strength >= SPLIT and match < LOOK_LIKE) or (strength < JOIN and match >= LOOK_LIKE)
           for strength, match in clear):
        raise NoBoardFound("the sides' learned look disagrees with their edges")
    for strengths, r, c, value in changes:
        strengths[r, c] = value


def _empty_cells(e: EdgeMaps, g: GridGuess, floor: np.ndarray | None, vs: np.ndarray,
                 hs: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """Which cells are empty floor and each cell's mean colour; the empty cells must share
    one colour. A cell is empty when even: its colour varies little and it has few edges
    (the floor's colour when known). The sides' edges (``vs``, ``hs``) decide the rest: a
    piece shows its side along an empty cell, so a cell with no edge (under JOIN) toward
    an empty one is empty too when nearly even (GROW_STD within each ninth of it, a
    floor's shading aside, and GROW_EDGES: brush strokes of a painted background,
    一心一意); with no even cell, or only cells with far more edges, the plainest cells
    are empty when far plainer than every other (``_plainest``: a shaded floor, 186 px
    wide light wood, whose plain 曹操 a resize blurs into an even cell) — but shaded cells
    grown into a rectangle with an edge all round may as well be a piece (``_outlined``;
    an even cell but for a few edges, 曹营 painted on the floor, is not); and an even cell
    with no edge toward a cell that is not empty, and of another colour than the floor, is
    part of that piece (a flat white patch of a portrait, 横刀立马's ink paintings)."""
    # every cell's box (its middle three fifths) at once, and each box's ninths
    boxes, means, spread, edges = _cell_measures(e, g, 0.2)
    colour_sum, square_sum = e.colour_sums
    colours = means.astype(np.float32)
    x0, y0, x1, y1 = boxes
    local = np.zeros(g.rows * g.cols)      # the spread within each ninth, averaged: shading aside
    for i, j in itertools.product(range(3), repeat=2):
        part = (x0 + (x1 - x0) * j // 3, y0 + (y1 - y0) * i // 3, x0 + (x1 - x0) * (j + 1) // 3,
                y0 + (y1 - y0) * (i + 1) // 3)
        mean = e.box_mean(colour_sum, *part)
        local += np.sqrt(np.maximum(0.0, e.box_mean(square_sum, *part) - mean ** 2)).max(1) / 9
    empty = (spread < FLAT_STD) & (edges < FLAT_EDGES)
    nearly = (local.reshape(g.rows, g.cols) < GROW_STD) & (edges < GROW_EDGES)
    plainest = _plainest(edges, colours, nearly)
    if floor is not None:
        for cells in (empty, plainest):
            for r, c in zip(*np.nonzero(cells)):
                cells[r, c] = np.linalg.norm(means[r, c] - floor) < FLOOR_DISTANCE
    if plainest.any() and (not empty.any() or _far_plainer(edges[plainest].max(), edges[empty].min())):
        empty = plainest        # none even, or only cells with far more edges: a shaded floor, a plain piece
    if not empty.any():
        raise NoBoardFound("no empty cell")
    plain = empty | ((spread < FLAT_STD) & (edges < GROW_EDGES))    # even but for a few edges (text)
    while True:
        more = nearly & ~empty & _joined_to(empty, vs, hs)
        if not more.any():      # floor with marks on it: plain, as an even cell is
            more = _marked_beside(e.image, g, colours, empty, vs, hs)
            plain |= more
        if not more.any():
            break
        empty |= more
    if (empty & ~plain).any():
        empty &= ~_outlined(empty, plain, vs, hs)
    inside = empty & _joined_to(~empty, vs, hs)
    rest = empty & ~inside
    if inside.any() and rest.any():
        mean = colours[rest].mean(0)
        if (np.linalg.norm(colours[rest] - mean, axis=1).max() <= FLOOR_DISTANCE
                and np.linalg.norm(colours[inside] - mean, axis=1).min() > FLOOR_DISTANCE):
            empty = rest
    mean = colours[empty].mean(0)
    if np.linalg.norm(colours[empty] - mean, axis=1).max() > FLOOR_DISTANCE:
        raise FloorUnclear("the even cells differ in colour: flat pieces, not floor", _colour_groups(colours[empty]))
    return empty, colours


def _cell_measures(e: EdgeMaps, g: GridGuess, margin: float
                   ) -> tuple[list[np.ndarray], np.ndarray, np.ndarray, np.ndarray]:
    """Every cell's box (``margin`` of a pitch in from its sides: x0, y0, x1, y1 arrays)
    and, over it, the mean colour (rows, cols, 3), the largest channel's spread and the
    share of edge pixels (rows, cols)."""
    boxes = [np.array(v) for v in zip(*(_box(g, r, c, margin) for r in range(g.rows) for c in range(g.cols)))]
    colour_sum, square_sum = e.colour_sums
    means = e.box_mean(colour_sum, *boxes).reshape(g.rows, g.cols, 3)
    spread = np.sqrt(np.maximum(0.0, e.box_mean(square_sum, *boxes).reshape(g.rows, g.cols, 3) - means ** 2)).max(2)
    return boxes, means, spread, e.box_mean(e.edge_sum, *boxes).reshape(g.rows, g.cols)


def read_by_seams(e: EdgeMaps, g: GridGuess) -> Reading:
    """The classic pieces on a grid of the classic board's size (``CLASSIC_GRID``), read
    from its seams alone, whatever the floor's colour: pieces edge to edge parted by seams
    only (a stroke, a bevel), whose floor shows nowhere but in the empty cells, and pieces
    drawn as outlines on the floor, whose insides are the floor's colour. Every side
    between two cells is an edge or none by ``sides``, as ``read_grid`` settles them; the
    cells joined across the sides with none must each make a rectangle with an edge all
    round, one 2×2, five or six of two cells and four or six single cells; the floor is
    then a part of two cells or two single cells (the two empty cells, beside each other
    or not), the rest the classic pieces. A floor must be clear: its cells even up to
    OWN_MARGIN of a pitch from their sides (a piece drawn as an outline, a bevel or a
    rounded corner shows there) and of one colour, and no other cell even and of that
    colour (a soldier as flat as the floor, its fellows alike). Up to MOST_UNCLEAR sides
    neither clearly an edge nor clearly none (a name painted across a 2×1's middle side)
    are each taken both ways. Exactly one board, with its floor, may come of it all, else
    NoBoardFound."""
    if (g.rows, g.cols) != CLASSIC_GRID:
        raise NoBoardFound("by seams alone, only the classic board's 5×4 cells are read")
    reach = max(2.0, 0.08 * min(g.px, g.py))
    vs, hs, open_sides = _grid_sides(e, g, reach)
    _, means, spread, edges = _cell_measures(e, g, OWN_MARGIN)
    pairs = _floor_pairs(means, (spread < FLAT_STD) & (edges < FLAT_EDGES))
    if not pairs:
        raise NoBoardFound("no two cells look like the floor")
    no_floor = np.zeros((g.rows, g.cols), bool)        # every side looked at as between two pieces
    _settle(e, g, vs, hs, no_floor, reach)
    inner = [np.zeros(vs.shape, bool), np.zeros(hs.shape, bool)]
    inner[0][:, 1:-1] = inner[1][1:-1] = True
    unclear = [(k, r, c) for k, side in enumerate((vs, hs))
               for r, c in zip(*np.nonzero(inner[k] & (side >= JOIN) & (side < SPLIT)))]
    if len(unclear) > MOST_UNCLEAR:
        raise OffLines("unclear edges between cells")
    clear: dict[tuple, tuple[np.ndarray, np.ndarray, list[tuple[int, int, int, int]]]] = {}
    for seams in itertools.product((0.0, 1.0), repeat=len(unclear)):
        taken = [vs.copy(), hs.copy()]
        for (k, r, c), seam in zip(unclear, seams):
            taken[k][r, c] = seam
        try:
            parts = _pieces(*taken, no_floor)
        except NoBoardFound:
            continue
        for empty, colour in _clear_floors(parts, pairs):
            sizes = [p for p in parts if not empty[p[0], p[1]]]
            clear[(tuple(sizes), empty.tobytes())] = (empty, colour, sizes)
    if len(clear) != 1:
        raise NoBoardFound("which cells are the empty floor is unclear" if clear
                           else "the seams part the board into no classic pieces round a clear floor")
    empty, colour, sizes = next(iter(clear.values()))
    _check_open(g, open_sides, empty)
    return replace(_finished(e, g, vs, hs, sizes, colour, reach), settled=True)


def _floor_pairs(means: np.ndarray, even: np.ndarray) -> dict[frozenset[tuple[int, int]], np.ndarray]:
    """The pairs of cells that may be a clear floor (``read_by_seams``), with their mean
    colour: both ``even``, of one colour (``means``: each cell's), and no other even cell
    of it."""
    pairs = {}
    for a, b in itertools.combinations([(int(r), int(c)) for r, c in zip(*np.nonzero(even))], 2):
        colour = (means[a] + means[b]) / 2
        like = even & (np.linalg.norm(means - colour, axis=2) <= FLOOR_DISTANCE)
        if like[a] and like[b] and like.sum() == 2:
            pairs[frozenset((a, b))] = colour
    return pairs


def _clear_floors(parts: list[tuple[int, int, int, int]], pairs: dict[frozenset[tuple[int, int]], np.ndarray]
                  ) -> Iterator[tuple[np.ndarray, np.ndarray]]:
    """The floors (the empty cells' mask, their mean colour) among ``pairs``
    (``_floor_pairs``) that leave the classic pieces of ``parts`` (row, col, height, width)."""
    by_shape = {shape: [p for p in parts if (p[2], p[3]) in shapes] for shape, shapes in
                (("square", {(2, 2)}), ("domino", {(1, 2), (2, 1)}), ("single", {(1, 1)}))}
    counts = tuple(len(by_shape[k]) for k in ("square", "domino", "single"))
    if counts == (1, 6, 4):         # the two empty cells side by side
        floors: list[tuple[tuple[int, int, int, int], ...]] = [(d,) for d in by_shape["domino"]]
    elif counts == (1, 5, 6):       # apart
        floors = list(itertools.combinations(by_shape["single"], 2))
    else:
        return
    rows, cols = max(r + h for r, _, h, _ in parts), max(c + w for _, c, _, w in parts)
    for floor in floors:
        cells = frozenset((r + i, c + j) for r, c, h, w in floor for i in range(h) for j in range(w))
        if cells in pairs:
            empty = np.zeros((rows, cols), bool)
            empty[tuple(np.array(sorted(cells)).T)] = True
            yield empty, pairs[cells]


def _colour_groups(colours: np.ndarray) -> list[np.ndarray]:
    """The mean colours of ``colours`` grouped greedily, each within FLOOR_DISTANCE of
    its group's first, the largest groups first (ties: as found)."""
    groups: list[list[np.ndarray]] = []
    for colour in colours:
        group = next((g for g in groups if np.linalg.norm(colour - g[0]) <= FLOOR_DISTANCE), None)
        if group is None:
            groups.append([colour])
        else:
            group.append(colour)
    groups.sort(key=len, reverse=True)
    return [np.mean(g, axis=0) for g in groups]


def _near_floor(colours: np.ndarray, floor: np.ndarray) -> np.ndarray:
    """The cells whose mean colour (``colours``) may be floor's with marks on it: a cell
    whose mean is further from the floor's in a channel has under FLOOR_SHARE of it near that."""
    return np.abs(colours - floor).max(-1) <= FLOOR_SHARE * FLOOR_NEAR + (1 - FLOOR_SHARE) * 255


def _marked_beside(image: np.ndarray, g: GridGuess, colours: np.ndarray, empty: np.ndarray, vs: np.ndarray,
                   hs: np.ndarray) -> np.ndarray:
    """The cells with no edge toward an ``empty`` one that are floor with marks on it
    (``_marked_floor``): one watermark across two empty cells side by side gives each of
    them edges, and the side between them no edge, so the cell it crosses most is read
    as a piece showing no edge along the empty cell beside it (refused) unless it is
    floor too."""
    floor = colours[empty].mean(0)
    near = _near_floor(colours, floor)
    out = np.zeros_like(empty)
    for r, c in zip(*np.nonzero(~empty & near & _joined_to(empty, vs, hs))):
        out[r, c] = _marked_floor(image, g, floor, near, (r, c, 1, 1))
    return out


def _marked_floor(image: np.ndarray, g: GridGuess, floor: np.ndarray, near: np.ndarray,
                  piece: tuple[int, int, int, int]) -> bool:
    """Whether a piece read (row, col, height, width) is floor with marks on it: each of
    its cells ``marked_floor`` (``near``: the cells whose mean colour may be so; the
    others are passed over at once). A watermark or a line of text across an empty cell
    gives it edges and spread, so it is not even, and the pieces around it an outline."""
    r0, c0, h, w = piece
    if not near[r0:r0 + h, c0:c0 + w].all():
        return False
    return all(marked_floor(image[max(0, y0):y1, max(0, x0):x1], floor)
               for x0, y0, x1, y1 in (_box(g, r, c, 0.2) for r in range(r0, r0 + h) for c in range(c0, c0 + w)))


def marked_floor(patch: np.ndarray, floor: np.ndarray) -> bool:
    """Whether a cell's middle (``patch``) is floor, marks on it or not: the floor's colour
    (within FLOOR_NEAR per channel) covers FLOOR_SHARE or more of it — its dominant
    colour, whatever a watermark or text adds (empty cells 0.77 or more in the real apps'
    tiles moved, 170-320 px wide; a piece's cell at most 0.56: our dark tiles' frames on
    their dark floor)."""
    if not patch.size:
        return False
    near = cv2.inRange(patch, np.clip(np.asarray(floor) - FLOOR_NEAR + 1, 0, 255),
                       np.clip(np.asarray(floor) + FLOOR_NEAR - 1, 0, 255))
    return cv2.countNonZero(near) >= FLOOR_SHARE * near.size


def _far_plainer(a: float, b: float) -> bool:
    """Whether a share of edge pixels ``a`` is far under ``b``: half of it or less, and
    PLAIN_GAP less."""
    return b >= max(2 * a, a + PLAIN_GAP)


def _plainest(edges: np.ndarray, colours: np.ndarray, nearly: np.ndarray) -> np.ndarray:
    """The cells with the fewest edges, when they are far plainer (``_far_plainer``) than
    every other cell, all ``nearly`` even and of one colour (within FLOOR_DISTANCE of
    their mean): the most such cells; none when no count of cells is. A floor shaded
    toward the picture's corners is not even, and a plain piece blurred by a resize can
    be (186 px light wood: the floor's cells 0–0.5 % edge pixels, 曹操's 4–10 %, the
    other pieces' 29 % or more)."""
    order = np.argsort(edges, axis=None, kind="stable")
    flat, near, colour = edges.ravel()[order], nearly.ravel()[order], colours.reshape(-1, 3)[order]
    out = np.zeros(edges.size, bool)
    for k in range(min(len(order) - 1, int(np.argmin(near)) if not near.all() else len(order) - 1), 0, -1):
        if not _far_plainer(flat[k - 1], flat[k]):
            continue
        mean = colour[:k].mean(0)
        if np.linalg.norm(colour[:k] - mean, axis=1).max() <= FLOOR_DISTANCE:
            out[order[:k]] = True
            break
    return out.reshape(edges.shape)


def _outlined(empty: np.ndarray, plain: np.ndarray, vs: np.ndarray, hs: np.ndarray) -> np.ndarray:
    """The cells not ``plain`` of each group of ``empty`` cells that is a rectangle with an
    edge (SPLIT or more) all round: a piece's outline as well as a floor's, whose flat
    part may be what the grown floor started from (a wooden 曹操)."""
    _, labels, stats = components(empty.astype(np.uint8))
    out = np.zeros_like(empty)
    for k, (c, r, w, h, area) in enumerate(stats, start=1):
        if area == w * h and min(vs[r:r + h, c].min(), vs[r:r + h, c + w].min(),
                                 hs[r, c:c + w].min(), hs[r + h, c:c + w].min()) >= SPLIT:
            out |= (labels == k) & ~plain
    return out


def _joined_to(cells: np.ndarray, vs: np.ndarray, hs: np.ndarray) -> np.ndarray:
    """The cells with a side of no edge (under JOIN) toward one of ``cells``."""
    across, down = vs[:, 1:-1] < JOIN, hs[1:-1] < JOIN
    out = np.zeros_like(cells)
    out[:, :-1] |= across & cells[:, 1:]
    out[:, 1:] |= across & cells[:, :-1]
    out[:-1] |= down & cells[1:]
    out[1:] |= down & cells[:-1]
    return out


def _pieces(vs: np.ndarray, hs: np.ndarray, empty: np.ndarray) -> list[tuple[int, int, int, int]]:
    """Cells joined across sides with no edge; each piece a rectangle with an edge all
    round and none inside; a side neither clearly an edge nor clearly not one refuses."""
    rows, cols = empty.shape
    parent = list(range(rows * cols))

    def find(i: int) -> int:
        while parent[i] != i:
            parent[i] = parent[parent[i]]
            i = parent[i]
        return i

    for r in range(rows):
        for c in range(cols):
            for r2, c2, strength in ((r, c + 1, vs[r, c + 1]), (r + 1, c, hs[r + 1, c])):
                if r2 == rows or c2 == cols or (empty[r, c] and empty[r2, c2]):
                    continue
                if empty[r, c] or empty[r2, c2]:
                    if strength < SPLIT:
                        raise OffLines("a piece shows no edge along an empty cell")
                elif JOIN <= strength < SPLIT:
                    raise OffLines("an unclear edge between two cells")
                elif strength < JOIN:
                    parent[find(r * cols + c)] = find(r2 * cols + c2)
    groups: dict[int, list[tuple[int, int]]] = {}
    for r in range(rows):
        for c in range(cols):
            if not empty[r, c]:
                groups.setdefault(find(r * cols + c), []).append((r, c))
    sizes = []
    for cells in groups.values():
        r0, c0 = min(r for r, _ in cells), min(c for _, c in cells)
        h, w = max(r for r, _ in cells) - r0 + 1, max(c for _, c in cells) - c0 + 1
        if len(cells) != h * w:
            raise NoBoardFound("a piece is not a rectangle")
        inside = np.concatenate([vs[r0:r0 + h, c0 + 1:c0 + w].ravel(), hs[r0 + 1:r0 + h, c0:c0 + w].ravel()])
        if inside.size and inside.max() >= JOIN:
            raise NoBoardFound("an edge inside a piece")
        sizes.append((r0, c0, h, w))
    return sorted(sizes)


def cross_section(image: np.ndarray, vertical: bool, pos: float, a: float, b: float, pitch: float) -> np.ndarray:
    """The mean colour (BGR) across a line at ``pos`` over [a, b) along it: LOOK_SAMPLES
    samples over LOOK_SPAN of a ``pitch`` either side, with LOOK_SHIFT more each way."""
    step = 2 * LOOK_SPAN * pitch / (LOOK_SAMPLES - 1)
    across = (pos + (np.arange(LOOK_SAMPLES + 2 * LOOK_SHIFT) - (LOOK_SAMPLES - 1) / 2 - LOOK_SHIFT) * step)
    along = np.linspace(a, b, max(3, round(b - a)))
    xs, ys = np.meshgrid(across, along) if vertical else np.meshgrid(along, across)
    samples = cv2.remap(image, xs.astype(np.float32), ys.astype(np.float32), cv2.INTER_LINEAR,
                        borderMode=cv2.BORDER_REPLICATE).astype(np.float32)
    return samples.mean(0) if vertical else samples.mean(1)


def look_match(section: np.ndarray, template: np.ndarray) -> float:
    """How well a side's cross-section shows the template, at the best of its shifts:
    their correlation (colour offsets and contrast aside) times the section's contrast
    over the template's, at most 1: a faint likeness (a portrait's soft shading, averaged
    along the side) is no edge."""
    t = template - template.mean(0)
    norm = float(np.linalg.norm(t))
    if norm < 1:
        return 0.0
    windows = np.lib.stride_tricks.sliding_window_view(section, LOOK_SAMPLES, axis=0)    # (shifts, 3, K)
    w = windows - windows.mean(2, keepdims=True)
    dots = np.einsum("skc,kc->s", w.transpose(0, 2, 1), t)
    norms = np.linalg.norm(w.reshape(len(w), -1), axis=1)
    scores = dots / np.maximum(norms, 1e-6) / norm * np.minimum(1.0, norms / norm)
    return float(scores.max())


def learn_look(image: np.ndarray, g: GridGuess, owner: np.ndarray) -> SideLook | None:
    """The sides' look in a picture whose grid and pieces are known: ``owner`` (rows, cols)
    numbers each cell's piece, -1 where empty. Each kind's sections are aligned on each
    other (a side may lie a pixel or two off its grid line) and averaged. None when a side
    between two pieces of the picture matches the mean less than LOOK_SURE: the app draws
    them too unlike each other (frames of many colours) for the look to judge them; or
    when a side between two cells of one piece matches it LOOK_LIKE or more: the look
    would take the app's own pictures for sides (横刀立马's ink paintings, 0.39); or when,
    the screenshot blurred by LOOK_BLUR, those sides match it under LOOK_EDGE on average:
    a side a pixel or two wide, which a resize or a turn of 1–2° smears out of its look
    (186 px light wood: 0.89 → 0.38; the other apps' 0.64 or more)."""
    found: dict[tuple[str, bool], list[np.ndarray]] = {}
    inside: list[tuple[bool, np.ndarray]] = []          # sides between two cells of one piece
    splits: list[tuple[bool, int, int]] = []            # (vertical, line, cell) of the sides between two pieces
    padded = np.pad(owner, 1, constant_values=-2)       # -2: outside the board
    for vertical in (True, False):
        lines = g.cols + 1 if vertical else g.rows + 1
        runs = g.rows if vertical else g.cols
        for k in range(lines):
            for j in range(runs):
                r, c = (j, k) if vertical else (k, j)
                first = padded[r + 1, c] if vertical else padded[r, c + 1]        # left / above
                second = padded[r + 1, c + 1]
                kind = _side_kind(first, second)
                if kind is None:
                    if first == second >= 0:
                        inside.append((vertical, _section(image, g, vertical, k, j)))
                    continue
                section = _section(image, g, vertical, k, j)
                if kind == "split":
                    splits.append((vertical, k, j))
                if second >= 0 and (kind != "split"):       # the piece is second: turn it first
                    section = section[::-1]
                found.setdefault((kind, vertical), []).append(section)
                if kind == "split":
                    found[(kind, vertical)].append(section[::-1])
    pairs = []
    for kind in ("split", "floor", "outline"):
        pairs.append(tuple(_aligned_mean(found.get((kind, vertical), [])) for vertical in (True, False)))
    look = SideLook(*pairs)
    matches = [look_match(section, look.split[0 if vertical else 1])
               for vertical in (True, False) for section in found.get(("split", vertical), [])]
    within = [look_match(section, look.split[0 if vertical else 1]) for vertical, section in inside]
    if min(matches, default=0.0) < LOOK_SURE or max(within, default=0.0) >= LOOK_LIKE:
        return None
    blurred = cv2.GaussianBlur(image, (0, 0), LOOK_BLUR)
    kept = [look_match(_section(blurred, g, vertical, k, j), look.split[0 if vertical else 1])
            for vertical, k, j in splits]
    return look if np.mean(kept) >= LOOK_EDGE else None


def _side_kind(first: int, second: int) -> str | None:
    """A side's kind between two cells' owners (-1 empty, -2 outside): None when no piece
    is on either side or both are one piece."""
    if first == second or max(first, second) < 0:
        return None
    if min(first, second) >= 0:
        return "split"
    return "outline" if min(first, second) == -2 else "floor"


def _aligned_mean(sections: list[np.ndarray]) -> np.ndarray:
    """The mean of cross-sections each shifted onto the mean so far (three rounds); flat
    grey when there are none (a kind the screenshot does not show matches nothing)."""
    if not sections:
        return np.zeros((LOOK_SAMPLES, 3), np.float32)
    mean = sections[0][LOOK_SHIFT:LOOK_SHIFT + LOOK_SAMPLES]
    for _ in range(3):
        shifted = []
        for section in sections:
            best = max(range(2 * LOOK_SHIFT + 1),
                       key=lambda i: look_match(section[i:i + LOOK_SAMPLES], mean))
            shifted.append(section[best:best + LOOK_SAMPLES])
        mean = np.mean(shifted, axis=0)
    return mean.astype(np.float32)


def check_settled(image: np.ndarray, reading: Reading) -> None:
    """Refuse a piece that shows floor along one of its sides: caught mid-slide, it sits
    off the grid, and reading it at either place would be a guess."""
    g = reading.grid
    far = cv2.absdiff(image, np.full_like(image, [round(v) for v in reading.floor]))
    near = (np.maximum(np.maximum(far[..., 0], far[..., 1]), far[..., 2]) < 15).astype(np.uint8)
    table = cv2.integral(near, sdepth=cv2.CV_32S)
    h, w = near.shape

    def share(x0: float, y0: float, x1: float, y1: float) -> float:
        x0, y0 = min(w, max(0, round(x0))), min(h, max(0, round(y0)))
        x1, y1 = min(w, max(x0 + 1, round(x1))), min(h, max(y0 + 1, round(y1)))
        return float(table[y1, x1] - table[y0, x1] - table[y1, x0] + table[y0, x0]) / ((x1 - x0) * (y1 - y0))

    for r0, c0, ph, pw in reading.sizes:
        for r in range(r0, r0 + ph):
            for c in range(c0, c0 + pw):
                x0, y0 = g.ox + c * g.px, g.oy + r * g.py
                x1, y1 = x0 + g.px, y0 + g.py
                dx, dy = 0.25 * g.px, 0.25 * g.py
                bands = ((x0 + 2, y0 + dy, x0 + dx, y1 - dy), (x1 - dx, y0 + dy, x1 - 2, y1 - dy),
                         (x0 + dx, y0 + 2, x1 - dx, y0 + dy), (x0 + dx, y1 - dy, x1 - dx, y1 - 2))
                if any(share(*band) > 0.7 for band in bands):
                    raise NoBoardFound("a piece shows the floor along its side: caught mid-slide?")


def _strip(image: np.ndarray, g: GridGuess, side: int, near: float, far: float) -> np.ndarray:
    """The pixels from ``near`` to ``far`` px past the grid's outline on ``side`` (0 top,
    1 bottom, 2 left, 3 right), along the middle of the outline (0.1 pitch in from its ends)."""
    if side < 2:
        a, b = round(g.ox + .1 * g.px), round(g.ox + (g.cols - .1) * g.px)
        if side == 0:
            return image[max(0, round(g.oy - far)):round(g.oy - near), a:b]
        y = g.oy + g.rows * g.py
        return image[round(y + near):round(y + far), a:b]
    a, b = round(g.oy + .1 * g.py), round(g.oy + (g.rows - .1) * g.py)
    if side == 2:
        return image[a:b, max(0, round(g.ox - far)):round(g.ox - near)]
    x = g.ox + g.cols * g.px
    return image[a:b, round(x + near):round(x + far)]


def _check_thin_margins(image: np.ndarray, g: GridGuess, reach: float) -> None:
    """Refuse a grid with under THIN_MARGIN reaches of picture past a side whose strip
    there (from half a reach past the outline to the picture's edge) is not one even
    colour along the side, gentle shading aside. A board's frame is even along it, and so
    is a floor past an open edge but for a vignette (a tiny capture cut just below its
    last row, 186 px light wood: 5–8 here); a crop just past a row's side leaves a strip
    of the next row's pieces and the gaps between them (将拥曹营's last row, cut 1–2
    reaches past the row above, read as a four-row board: 20 or more). Sword Standing's
    thin frame on its right reads 0 here."""
    names = ("top", "bottom", "left", "right")
    for side, m in enumerate(_margins(g, image.shape)):
        strip = _strip(image, g, side, reach / 2, m)
        if m < THIN_MARGIN * reach and _along_variation(strip, side < 2, g.px if side < 2 else g.py) > UNEVEN:
            raise NoBoardFound(f"the picture's {names[side]} edge is just past the board and what shows there "
                               "is not an even frame (cut off there?)")


def _margins(g: GridGuess, shape: tuple[int, ...]) -> list[float]:
    """The picture's px past the grid's outline on each side: top, bottom, left, right."""
    h, w = shape[:2]
    return [g.oy, h - g.oy - g.rows * g.py, g.ox, w - g.ox - g.cols * g.px]


def _along_variation(strip: np.ndarray, horizontal: bool, pitch: float) -> float:
    """How much a strip's colour changes along its length, shading aside: the largest
    channel's standard deviation of the strip averaged across its width, less its mean
    over half a ``pitch`` around each place; 0 for an empty strip."""
    profile = strip.astype(np.float32).mean(axis=0 if horizontal else 1)
    if not len(profile):
        return 0.0
    window = max(3, round(pitch / 2) | 1)
    shading = cv2.blur(profile[None], (window, 1), borderType=cv2.BORDER_REFLECT)[0]
    return float((profile - shading).std(axis=0).max())


def _past(origin: float, pitch: float, count: int, size: int, reach: float) -> tuple[np.ndarray, np.ndarray]:
    """(starts, ends) of the segments along a grid's lines one cell past its two ends, 0.2
    to 0.8 of the cell; where the picture's edge cuts one, the part the picture shows from
    a reach past the outer line (a crop through a row of pieces leaves a strip of them
    whose sides run on the grid's lines: a 0.14-pitch strip of Sword Standing's last row
    read as a four-row board)."""
    starts = origin + np.array([-0.8, count + 0.2]) * pitch
    ends = origin + np.array([-0.2, count + 0.8]) * pitch
    if starts[0] < 0:
        starts[0], ends[0] = 0.0, origin - reach
    if ends[1] > size:
        starts[1], ends[1] = origin + count * pitch + reach, float(size)
    return starts, ends


def _check_beyond(runs: list[np.ndarray]) -> None:
    """Refuse a grid whose lines run on, as edges, past one of its sides (``runs``: the
    strengths of each side's lines one cell further, outer lines first and last) — an
    inner one, and an outer one at least half way: the grid is part of a larger board
    (``read_grid`` looks again within NEAR reaches once a grid reads: a picture turned
    1–2° moves the sides a cell further on a few px off the grid's lines, and a 1.4°
    turned 巧过五关 frame read four of its five rows.)
    Or both outer ones and an inner one as far as a side between two pieces may be
    (JOIN): a blurred row of pieces past the grid (0.83 for the side between two of them,
    a 6×4 board read as five rows). (An exit box below the board continues only inner
    lines.)"""
    for strengths in runs:
        inner, outer = max(strengths[1:-1]), (strengths[0], strengths[-1])
        if (max(outer) >= 0.5 and inner >= SPLIT) or min(*outer, inner) >= JOIN:
            raise NoBoardFound("the grid's lines run on past its side: part of a board")


def refined(e: EdgeMaps, g: GridGuess) -> GridGuess:
    """The grid fitted (least squares) to where its inner lines' edges are: each line at
    the middle of the edge columns (rows) near it, over its cell sides that are edges —
    the guess came from profile peaks a few pixels off, or from a frame's edge; kept per
    axis unless its lines lie on much less edge than the guess's, under REFIT of it (tiles
    with a double frame each, 横刀立马's ink paintings, show several edges along a side:
    the middle of the strongest can be a frame's, and the fit 3 % off in pitch, its lines
    on 0.55 of the guess's edge; the other real apps' fits 0.8 or more)."""
    reach = max(2, round(0.08 * min(g.px, g.py)))
    fitted = []
    for sums, origin, pitch, count, other_origin, other_pitch, others, vertical in (
            (e.vsum, g.ox, g.px, g.cols, g.oy, g.py, g.rows, True),
            (e.hsum, g.oy, g.py, g.rows, g.ox, g.px, g.cols, False)):
        at, index = [], []
        for k in range(1, count):     # inner lines: the outer ones may run along a frame
            pos = round(origin + k * pitch)
            lo, hi = max(0, pos - reach), min(sums.shape[2] if vertical else sums.shape[1], pos + reach + 1)
            profile = np.zeros(max(0, hi - lo))
            for j in range(others):
                a = max(0, round(other_origin + (j + .2) * other_pitch))
                b = min((sums.shape[1] if vertical else sums.shape[2]) - 1, round(other_origin + (j + .8) * other_pitch))
                if b - a < 3:
                    continue
                run = (sums[:, b, lo:hi] - sums[:, a, lo:hi]) if vertical else (sums[:, lo:hi, b] - sums[:, lo:hi, a])
                if run.max() >= SPLIT * (b - a):
                    profile += run.max(0) >= SPLIT * (b - a)
            if profile.size and profile.max() > 0:
                cols = np.flatnonzero(profile == profile.max())
                at.append(lo + (cols.min() + cols.max()) / 2)
                index.append(k)
        fitted.append((origin, pitch))
        if len(at) >= 2:
            pitch_fit, origin_fit = np.polyfit(index, at, 1)
            fit = (float(origin_fit), float(pitch_fit))
            on_fit, on_guess = _on_lines(e, vertical, [fit, (origin, pitch)], count, other_origin, other_pitch, others)
            if on_fit >= REFIT * on_guess:
                fitted[-1] = fit
    (ox, px), (oy, py) = fitted
    return GridGuess(ox, oy, px, py, g.rows, g.cols)


def _on_lines(e: EdgeMaps, vertical: bool, lines: list[tuple[float, float]], count: int, other_origin: float,
              other_pitch: float, others: int) -> np.ndarray:
    """How much edge lies within a pixel of a grid's ``count`` + 1 lines over the middle
    of every cell side along them, for each of ``lines`` (the first line's place and the
    pitch), all measured at once."""
    starts = other_origin + (np.arange(others) + .2) * other_pitch
    ends = other_origin + (np.arange(others) + .8) * other_pitch
    places = np.concatenate([origin + np.arange(count + 1) * pitch for origin, pitch in lines])
    found = sides(e, vertical, places, starts, ends, 1.0).reshape(others, len(lines), count + 1)
    return found.transpose(1, 0, 2).reshape(len(lines), -1).sum(1)


def fitted(e: EdgeMaps, g: GridGuess) -> GridGuess:
    """The grid moved (up to 3 px) and stretched (up to 2 %) to where its lines, all
    together, lie on the most edge within a pixel: a guess from profile peaks can be a few
    pixels off at its far end, more than a side's reach."""
    best = []
    for vertical, origin, pitch, count, other_origin, other_pitch, others in (
            (True, g.ox, g.px, g.cols, g.oy, g.py, g.rows), (False, g.oy, g.py, g.rows, g.ox, g.px, g.cols)):
        tries = [(o, p) for o in origin + np.arange(-3, 4) for p in pitch * np.linspace(0.98, 1.02, 9)]
        scores = _on_lines(e, vertical, tries, count, other_origin, other_pitch, others)
        best.append(tries[int(np.argmax(scores))])
    (ox, px), (oy, py) = best
    return GridGuess(float(ox), float(oy), float(px), float(py), g.rows, g.cols)


def parse_grid(image: np.ndarray, floor_bgr: np.ndarray | None = None,
               pitch: tuple[float, float] | None = None, work_pitch: float | None = None,
               shape: tuple[int, ...] | None = None, look: SideLook | None = None,
               hint: GridGuess | None = None, check: Callable[[Reading], object] | None = None,
               boards: Sequence[np.ndarray] = ()) -> tuple[Reading, float]:
    """The reading of the largest grid that reads, in the given picture's pixels (the
    grid scaled back), and the scale it was read at; NoBoardFound when none reads or
    readings of that size disagree. From a profile: ``floor_bgr``, ``pitch`` (bounds, px),
    ``work_pitch`` — the pitch (px) the profile's screenshot was read at: the picture is
    resized so that its pitch is that again, and its edges look as they did when
    calibrated (a smaller picture is enlarged, bicubic: at half the calibrated pitch the
    sides between pieces are a pixel or two wide and the edge measure and the learned look
    disagree on them; enlarged, they read as calibrated — 巧过五关 calibrated at 0.5–0.85×
    read 33 → 60 of 96 positions, none wrong; bilinear read 21; with no ``look``, a
    picture is not shrunk to a pitch under NO_LOOK_PITCH) — and ``shape``
    (rows, cols): only grids of that shape, which must stop where their lines do as any
    (a larger board of the same look, 6×4 read with a 5×4 profile, read as five of its
    rows); a picture shrunk to be read, and refused, is then read
    again a little smaller (``RETRY``): where a side falls between two pixels decides
    whether it reads as one straight edge, and the next size places it otherwise; one
    enlarged and refused is read again as it is (the enlarging blurs a few outlines). (Not
    without a shape: there the retries read parts of the board, wrong.) ``look``: the
    sides' look the profile learned (``read_grid``); ``hint``: the grid where the profile's
    screenshot had it, scaled to this picture's width (tried first, fitted to its lines);
    ``check``: raises NoBoardFound for a reading that makes no board (the caller's rules
    of a game: a unique target, a position that can be played): when the largest grids
    that read disagree, such a reading does not outvote one that makes a board (186 px
    light wood, its plain 曹操 taken for floor by one grid: no target); ``boards``: colours
    seen round the pieces as a board's, which may be the floor's where flat pieces leave
    it unclear (``readings``)."""
    if work_pitch is not None and pitch is not None:
        # with no look to match, not shrunk to a pitch under NO_LOOK_PITCH: a shrink loses
        # sides a pixel or two wide (186 px light wood photographed at 1.3×, shrunk back to
        # its calibrated 43 px pitch, lost the side between two 1×1 tiles: read as a 1×2)
        expected = (pitch[0] + pitch[1]) / 2
        scale = work_pitch / expected
        if look is None:
            scale = max(scale, min(1.0, NO_LOOK_PITCH / expected))
    else:
        scale = min(1.0, WORK_SIDE / max(image.shape[:2]))
    first: NoBoardFound | None = None
    scales = [scale]
    if shape is not None and scale != 1:    # shrunk: a little smaller; enlarged: as it is
        scales = [scale * factor for factor in RETRY] if scale < 1 else [scale, 1.0]
    for size in scales:
        try:
            return _parse_at(image, size, floor_bgr, pitch, shape, look, hint, check, boards)
        except NoBoardFound as exc:
            first = first or exc
    assert first is not None
    raise first


def _parse_at(image: np.ndarray, scale: float, floor_bgr: np.ndarray | None, pitch: tuple[float, float] | None,
              shape: tuple[int, ...] | None, look: SideLook | None, hint: GridGuess | None,
              check: Callable[[Reading], object] | None = None,
              boards: Sequence[np.ndarray] = ()) -> tuple[Reading, float]:
    """``parse_grid`` on the picture resized by ``scale``."""
    small = image if scale == 1 else cv2.resize(image, None, fx=scale, fy=scale,
                                                interpolation=cv2.INTER_AREA if scale < 1 else cv2.INTER_CUBIC)
    e = edge_maps(small)
    stage("klotski-edges", lambda: (e.v | e.h) * 255)
    hinted = [] if hint is None else [GridGuess(hint.ox * scale, hint.oy * scale, hint.px * scale, hint.py * scale,
                                                hint.rows, hint.cols)]
    candidates: list[GridGuess] = []
    tried: set[tuple[int, ...]] = set()
    for g in itertools.chain(hinted, grids(e, None if pitch is None else (pitch[0] * scale, pitch[1] * scale))):
        key = (round(g.ox / 2), round(g.oy / 2), round(g.px), round(g.py), g.rows, g.cols)
        if key in tried:        # the same grid to a pixel or two, from another block
            continue
        tried.add(key)
        if shape is None or (g.rows, g.cols) == shape:
            candidates.append(g)
    # the largest grids first (each size in the order found, so ties between readings
    # fall as before): once a size reads, smaller grids cannot be the board's, unread
    candidates.sort(key=lambda g: -g.rows * g.cols)
    stage("klotski-grids", lambda: marked(small, boxes=[(g.ox, g.oy, g.cols * g.px, g.rows * g.py) for g in candidates]))
    read: list[Reading] = []
    why: dict[str, int] = {}
    for g in candidates:
        if read and g.rows * g.cols < read[0].grid.rows * read[0].grid.cols:
            break
        # a pinned shape leaves few grids: each is tried fitted to its lines too; with
        # none, a grid refused for a side that is off its lines is (the guess, from
        # profile peaks, a few pixels off at its far end: more than a side's reach at
        # 170-320 px captures, 35-40 px cells)
        guesses = [g] if shape is None else [g, fitted(e, g)]
        while guesses:
            guess = guesses.pop(0)
            try:
                found = readings(e, guess, floor_bgr, look, boards)
            except NoBoardFound as exc:
                why[str(exc)] = why.get(str(exc), 0) + 1
                if shape is None and guess is g and isinstance(exc, OffLines):
                    guesses.append(fitted(e, g))
                continue
            for reading in found:
                if reading.grid.rows % 2 == reading.grid.cols % 2 == 0 and all(v % 2 == 0 for s in reading.sizes
                                                                            for v in s):
                    continue        # every size and place even: a grid of half the true pitch
                read.append(reading)
    if not read:
        reason = max(why, key=lambda k: why[k]) if why else "no grid of straight edges"
        raise NoBoardFound(reason)
    most = max(r.grid.rows * r.grid.cols for r in read)
    largest = [r for r in read if r.grid.rows * r.grid.cols == most]
    if check is not None and len({(r.grid.rows, r.grid.cols, r.sizes) for r in largest}) > 1:
        # (smaller grids stay unread: a part of the board may make a board)
        boards = []
        for r in largest:
            try:
                check(r)
                boards.append(r)
            except NoBoardFound as exc:
                refusal = exc
        if not boards:
            raise refusal
        largest = boards
    if len({(r.grid.rows, r.grid.cols, r.sizes) for r in largest}) > 1:
        raise NoBoardFound("two grids read as different boards")
    best = max(largest, key=lambda r: r.clarity)
    if shape is None:
        best = trimmed(e, best, floor_bgr, look, boards)
    best = replace(best, grid=refined(e, best.grid))
    stage("klotski-pieces", lambda: marked(small, [(best.grid.ox + (c + w / 2) * best.grid.px,
                                                    best.grid.oy + (r + h / 2) * best.grid.py, f"{h}x{w}")
                                                   for r, c, h, w in best.sizes],
                                           [(best.grid.ox + c * best.grid.px, best.grid.oy + r * best.grid.py,
                                             w * best.grid.px, h * best.grid.py) for r, c, h, w in best.sizes]))
    if not best.settled:
        check_settled(e.image, best)
    g = best.grid
    back = GridGuess(g.ox / scale, g.oy / scale, g.px / scale, g.py / scale, g.rows, g.cols)
    return replace(best, grid=back), scale


def trimmed(e: EdgeMaps, reading: Reading, floor: np.ndarray | None, look: SideLook | None,
            boards: Sequence[np.ndarray] = ()) -> Reading:
    """The reading of the grid less its edge rows and columns that hold no piece, when
    that grid, read on its own (or fitted to its lines), shows the same pieces; else the
    reading as it is (refused by the caller: where the board ends is unclear). Past a
    board's edge a page can be panelled on the grid's lines (the wooden-block app at
    170-200 px: the wood below its board read as two more rows of empty cells); a classic
    position never has a whole row empty."""
    g, sizes = reading.grid, reading.sizes
    r0, c0 = min(r for r, _, _, _ in sizes), min(c for _, c, _, _ in sizes)
    r1, c1 = max(r + h for r, _, h, _ in sizes), max(c + w for _, c, _, w in sizes)
    if (r0, c0, r1, c1) == (0, 0, g.rows, g.cols):
        return reading
    inner = GridGuess(g.ox + c0 * g.px, g.oy + r0 * g.py, g.px, g.py, r1 - r0, c1 - c0)
    same = tuple(sorted((r - r0, c - c0, h, w) for r, c, h, w in sizes))
    for guess in (inner, fitted(e, inner)):
        try:
            again = readings(e, guess, floor, look, boards)
        except NoBoardFound:
            continue
        for one in again:
            if tuple(sorted(one.sizes)) == same:
                return one
    return reading


def lean(image: np.ndarray) -> float:
    """How many degrees the picture's straight edges lean from upright, as
    ``cv2.getRotationMatrix2D`` turns (a photo of a screen held slightly turned): the
    median, weighed by strength, of the directions of its strongest 5 % of gradients that
    lie within LEAN_MAX of an axis (the board's frame and the pieces' sides are most of
    them); 0 when there are none. Read at most WORK_SIDE px long, good to about 0.2°."""
    k = min(1.0, WORK_SIDE / max(image.shape[:2]))
    small = cv2.resize(image, None, fx=k, fy=k, interpolation=cv2.INTER_AREA) if k < 1 else image
    grey = cv2.cvtColor(small, cv2.COLOR_BGR2GRAY).astype(np.float32)
    gx, gy = cv2.Scharr(grey, cv2.CV_32F, 1, 0), cv2.Scharr(grey, cv2.CV_32F, 0, 1)
    strength = cv2.magnitude(gx, gy)
    strong = strength > max(1.0, float(np.percentile(strength, 95)))
    angle = (np.degrees(np.arctan2(gy[strong], gx[strong])) + 45) % 90 - 45    # from the nearest axis
    near = np.abs(angle) <= LEAN_MAX
    if not near.any():
        return 0.0
    angle, weight = angle[near], strength[strong][near]
    order = np.argsort(angle)
    total = np.cumsum(weight[order])
    return -float(angle[order][np.searchsorted(total, total[-1] / 2)])
