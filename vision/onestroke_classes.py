"""One-stroke boards in looks the game's reader was not written for, with no profile (issue 29
§3): cells drawn as dots, rings, outlines or a ruled grid with no gaps, on a gradient or a
texture, the start marked by any shape or only by its colour.

``vision.onestroke.read`` comes here when its own reading finds no board. The lattice is that
of the blobs of one colour counted with what they enclose (``grids(..., enclosed=True)``: a
ring is a disc, an outline a square); every place on it is then seen alike, as its pitch
square at ``VIEW`` px a side, and the board's classes are clusters of those views:

- a cell: a view like the median view of the lattice's blobs (within the blobs' own spread);
- a hole: a place that shows the page around the board, or one of a class of plain places
  of their own colour (the holes a ruled grid or an outline look fills);
- the start: the one place left, clearly unlike a cell: whatever marks it (a ring, a letter,
  a star, a dot, only a colour), it is the place that differs alone.

The board grows from the blobs' box while a line past it holds a cell (or a place beside a
cell that is neither plain nor a cell: a start alone on its line); every place just past it
must show the page, plain, as far in as its middle (a cell there cut by the picture's edge,
hidden or in another shade would leave a smaller board, a wrong one). Anything else is
refused with the reason: a place no class explains clearly, several places that could be
the start, a start from which no path visits every cell (``level_reason``).
"""
from __future__ import annotations

from dataclasses import dataclass
from typing import Callable

import numpy as np
import cv2

from solvers.onestroke import Board, adjacent
from vision.common import NoBoardFound, Parse, marked, stage
from vision.onestroke import (MIN_CONFIDENCE, Cells, Lattice, OnestrokeGeometry, _fit_quality, level_reason,
                              refine)

VIEW = 20              # px a side of a place's view (its pitch square)
DIFF = 40              # levels: two views' pixels differ when a channel is further apart (at most)
LEAST_DIFF = 12        # levels: ... and at least, however faint the cells are drawn
SHAPED = 0.8          # share of a cell's ink that a start's view must show too
EMPTY = 0.1            # ... and of a whole view, a place of the page (where a cell's shadow may fall)
PLAIN = 0.04           # share of a view's middle that may stray from its median and leave it plain
CELL_NOISE = 0.02      # share of differing pixels always allowed between two views of cells
MOST_PLACES = 30       # a board growing past this many places a side is a texture, no board
GENERIC = 0.75         # a reading here is trusted less than the game's own look (times the fit)
CELL, ODD, UNSURE, OFF = "cell", "odd", "unsure", "off"


def differ(a: np.ndarray, b: np.ndarray, allowed: np.ndarray) -> float:
    """The share of pixels of two views (or parts) that differ by more than ``allowed``
    (one value a pixel) on some channel."""
    return float((np.abs(a - b).max(axis=2) > allowed).mean())


def middle(view: np.ndarray) -> np.ndarray:
    """A view's middle: its central 80 % (what the gaps and a ruled grid's lines leave)."""
    k = VIEW // 10
    return view[k:-k, k:-k]


def plain(part: np.ndarray, diff: float, share: float = PLAIN) -> bool:
    """Whether a part of a view is of one colour (but for ``share`` of it)."""
    px = part.reshape(-1, 3)
    return float((np.abs(px - np.median(px, axis=0)).max(axis=1) > diff).mean()) <= share


class Views:
    """The places' views in a picture: each place's pitch square at ``VIEW`` px, None when
    it leaves the picture; made once a place."""

    def __init__(self, image: np.ndarray, lat: Lattice):
        self.image, self.lat, self.seen = image, lat, {}

    def box(self, p: tuple[int, int]) -> tuple[int, int, int, int]:
        x, y = self.lat.centre(*p)
        return (round(x - self.lat.px / 2), round(y - self.lat.py / 2),
                round(x + self.lat.px / 2), round(y + self.lat.py / 2))

    def at(self, p: tuple[int, int]) -> np.ndarray | None:
        if p not in self.seen:
            x0, y0, x1, y1 = self.box(p)
            h, w = self.image.shape[:2]
            inside = x0 >= 0 and y0 >= 0 and x1 <= w and y1 <= h
            self.seen[p] = (cv2.resize(self.image[y0:y1, x0:x1], (VIEW, VIEW), interpolation=cv2.INTER_AREA)
                            .astype(np.int16) if inside else None)
        return self.seen[p]


def read_classes(image: np.ndarray, lat: Lattice, cells: Cells) -> Parse[OnestrokeGeometry]:
    """The board on a lattice of blobs (full-image pixels) of the cells' colour ``cells``,
    read by its classes of places; NoBoardFound saying why when they do not make one."""
    lat = refine(image, lat, cells, enclosed=True)
    views = Views(image, lat)
    seen = [views.at(p) for p in lat.members]
    if len(seen) < 4 or any(v is None for v in seen):
        raise NoBoardFound("too few cells of one look on one grid")
    cell = CellClass.of(seen)
    spread = sorted(cell.unlike(v) for v in seen)
    near = max(CELL_NOISE, 2 * spread[(3 * len(spread)) // 4])    # most blobs are cells; the start may be one
    if near > 0.15:
        raise NoBoardFound("the blobs of one colour on the grid do not look alike: no cells")
    diff, unlike = cell.diff, cell.unlike

    kinds: dict[tuple[int, int], str] = {}

    def kind(p: tuple[int, int]) -> str:
        if p not in kinds:
            view = views.at(p)
            d = 1.0 if view is None else unlike(view)
            kinds[p] = OFF if view is None else CELL if d <= near else ODD if d >= 2 * near else UNSURE
        return kinds[p]

    r0, c0 = min(r for r, _ in lat.members), min(c for _, c in lat.members)
    r1, c1 = max(r for r, _ in lat.members), max(c for _, c in lat.members)
    grown = True
    while grown:
        grown = False
        for side in ("top", "bottom", "left", "right"):
            line = _past(side, r0, c0, r1, c1)
            inner = set(_inside(r0, c0, r1, c1))
            if not any(kind(p) == CELL or kind(p) == ODD and _beside_cell(p, inner, kind)
                       and not _blank(views.at(p), diff) for p in line):
                continue
            grown = True
            r0, c0, r1, c1 = {"top": (r0 - 1, c0, r1, c1), "bottom": (r0, c0, r1 + 1, c1),
                              "left": (r0, c0 - 1, r1, c1), "right": (r0, c0, r1, c1 + 1)}[side]
            if r1 - r0 >= MOST_PLACES or c1 - c0 >= MOST_PLACES:
                raise NoBoardFound("a grid of alike blobs too large for a board (a texture or a pattern?)")
    places = _inside(r0, c0, r1, c1)
    for p in places:
        kind(p)
    stage("onestroke-classes", lambda: marked(image, [(*lat.centre(*p), kinds[p][0]) for p in places]))
    if any(kinds[p] == OFF for p in places):
        raise NoBoardFound("the picture's edge cuts the board (a cell cut there)")
    if any(kinds[p] == UNSURE for p in places):
        raise NoBoardFound("a place on the board is neither clearly a cell nor clearly not one "
                           "(blurred, or something drawn over it?)")
    page = _page(image, views, lat, r0, c0, r1, c1, diff)
    start = _start(views, [p for p in places if kinds[p] == ODD], page, cell)
    cells_at = [p for p in places if kinds[p] == CELL]
    if len(cells_at) + 1 < 4:
        raise NoBoardFound(f"only {len(cells_at) + 1} cells on the grid (need at least 4)")
    symbol = {start: "S", **{p: "#" for p in cells_at}}
    rows, cols = r1 - r0 + 1, c1 - c0 + 1
    board = Board.from_text("\n".join("".join(symbol.get((r0 + r, c0 + c), ".") for c in range(cols))
                                      for r in range(rows)))
    if reason := level_reason(board):
        raise NoBoardFound(reason)
    confidence = GENERIC * _fit_quality(lat)
    if confidence < MIN_CONFIDENCE:
        raise NoBoardFound(f"the grid fits poorly (confidence {confidence:.2f})")
    ox, oy = lat.centre(r0, c0)
    centres = [(ox + c * lat.px, oy + r * lat.py) for r in range(rows) for c in range(cols)]
    geometry = OnestrokeGeometry((round(ox, 2), round(oy, 2)), (round(lat.px, 3), round(lat.py, 3)),
                                 round(lat.cell, 2), rows, cols)
    return Parse("onestroke", board, round(confidence, 4), centres, geometry)


def _inside(r0: int, c0: int, r1: int, c1: int) -> list[tuple[int, int]]:
    return [(r, c) for r in range(r0, r1 + 1) for c in range(c0, c1 + 1)]


def _past(side: str, r0: int, c0: int, r1: int, c1: int) -> list[tuple[int, int]]:
    """The places just past one side of the box (corners not included)."""
    if side in ("top", "bottom"):
        r = r0 - 1 if side == "top" else r1 + 1
        return [(r, c) for c in range(c0, c1 + 1)]
    c = c0 - 1 if side == "left" else c1 + 1
    return [(r, c) for r in range(r0, r1 + 1)]


def _beside_cell(p: tuple[int, int], inner: set[tuple[int, int]], kind: Callable[[tuple[int, int]], str]) -> bool:
    return any(q in inner and kind(q) == CELL for q in adjacent(p))


def _blank(view: np.ndarray | None, diff: float) -> bool:
    return view is None or plain(middle(view), diff)


def _page(image: np.ndarray, views: Views, lat: Lattice, r0: int, c0: int, r1: int, c1: int,
          diff: float) -> np.ndarray:
    """The page's colour round the board (BGR): every place just past its sides and corners
    plain and of one colour, as far into the picture as its middle (a crop may cut them);
    NoBoardFound when one is not (the board may go on there, or something covers it)."""
    ring = [p for side in ("top", "bottom", "left", "right") for p in _past(side, r0, c0, r1, c1)]
    ring += [(r0 - 1, c0 - 1), (r0 - 1, c1 + 1), (r1 + 1, c0 - 1), (r1 + 1, c1 + 1)]
    h, w = image.shape[:2]
    colours = []
    for p in ring:
        view = views.at(p)
        if view is not None:
            part = middle(view).reshape(-1, 3)
        else:       # a crop: the part inside the picture must reach past the place's middle
            x0, y0, x1, y1 = views.box(p)
            x, y = lat.centre(*p)
            k = 0.1 * min(lat.px, lat.py)
            a0, b0, a1, b1 = max(0, round(x0 + k)), max(0, round(y0 + k)), min(w, round(x1 - k)), min(h, round(y1 - k))
            if not (a0 < x - 1 and x + 1 < a1 and b0 < y - 1 and y + 1 < b1):
                raise NoBoardFound("the picture's edge may cut the board (too little shown past it to tell)")
            part = image[b0:b1, a0:a1].reshape(-1, 3).astype(np.int16)
        if not plain(part, diff):
            raise NoBoardFound("something lies just past the board (a cell cut, hidden or in another shade, "
                               "or a popup?): the board may go on there")
        colours.append(np.median(part, axis=0))
    page = np.median(colours, axis=0)
    if any(np.abs(c - page).max() > DIFF for c in colours):     # a gradient's or a texture's shades are one page
        raise NoBoardFound("the page round the board is not of one colour (something covers part of it?)")
    return page


def _start(views: Views, odd: list[tuple[int, int]], page: np.ndarray,
           cell: "CellClass") -> tuple[int, int]:
    """The start among the places that are no cells (the others are holes): the places showing the
    page are holes; of the rest, the one place alone, or the one with a mark on it (not
    plain) beside holes of one colour, or the one plain place of its colour beside holes
    all of another. Holes of their own colour are not of the cells' colour, and the start
    has the cells' shape (``CellClass.shaped``). NoBoardFound when that leaves no start or
    several."""
    diff = cell.diff

    def colour(p: tuple[int, int]) -> np.ndarray:
        return np.median(middle(views.at(p)).reshape(-1, 3), axis=0)

    def alike(a: np.ndarray, b: np.ndarray) -> bool:
        return bool(np.abs(a - b).max() <= diff)

    flat = [p for p in odd if plain(middle(views.at(p)), diff)]
    rest = [p for p in odd if p not in flat or not alike(colour(p), page) or not plain(views.at(p), diff, EMPTY)]
    marks = [p for p in rest if p not in flat]
    groups: list[list[tuple[int, int]]] = []      # the plain places left, by colour
    for p in (p for p in rest if p in flat):
        group = next((g for g in groups if alike(colour(p), colour(g[0]))), None)
        if group is None:
            groups.append([p])
        else:
            group.append(p)
    start = None
    if len(rest) == 1:
        start = rest[0]
    elif len(marks) == 1 and len(groups) == 1:
        start = marks[0]
    elif not marks and len(groups) == 2 and min(map(len, groups)) == 1 and len(rest) > 2:
        start = next(g[0] for g in groups if len(g) == 1)
    if start is None:
        if not rest:
            raise NoBoardFound("a grid of cells but no start on it: no cell marked apart from the others")
        raise NoBoardFound(f"{len(rest)} places on the board are neither plain cells nor holes, so the start is "
                           "unclear (a path partly drawn, or something over the board?)")
    drawn = [p for p in rest if p != start]
    if any(cell.inked(views.at(p), page) >= 0.5 for p in drawn):
        raise NoBoardFound("a place on the board is of the cells' colour but unlike a cell (something drawn over "
                           "it, or a cell in another shade?)")
    if not cell.shaped(views.at(start), page):
        raise NoBoardFound("the one place apart does not have a cell's shape: no start marked on a cell")
    return start


@dataclass(frozen=True)
class CellClass:
    """What a cell looks like: the median of the cells' views (their core: the outermost
    pixels left out, where a neighbouring hole's colour may reach) and the same less each
    view's median colour (a gradient can bring the page near the cells' colour: a cell
    must be like them in both); ``diff``: half the cells' contrast (their ink against the
    page between them), and per pixel how far a cell may stray: ``diff`` and as far as
    most cells vary there (their edges, shadows, the gaps on the board's rim)."""

    template: np.ndarray
    relative: np.ndarray
    allowed: np.ndarray
    allowed_relative: np.ndarray
    diff: float

    @staticmethod
    def of(views: list[np.ndarray]) -> "CellClass":
        cores = np.stack([core(v) for v in views])
        shifted = np.stack([_less_median(v) for v in cores])
        template, relative = np.median(cores, axis=0), np.median(shifted, axis=0)
        px = template.reshape(-1, 3)
        diff = float(np.clip(0.5 * (np.percentile(px, 95, axis=0) - np.percentile(px, 5, axis=0)).max(),
                             LEAST_DIFF, DIFF))
        return CellClass(template, relative, diff + np.percentile(np.abs(cores - template).max(axis=3), 80, axis=0),
                         diff + np.percentile(np.abs(shifted - relative).max(axis=3), 80, axis=0), diff)

    def unlike(self, view: np.ndarray) -> float:
        """How unlike a cell a view is: the share of its core's pixels that stray, as it is
        or less its median colour."""
        c = core(view)
        return max(differ(c, self.template, self.allowed),
                   differ(_less_median(c), self.relative, self.allowed_relative))

    def shaped(self, view: np.ndarray, page: np.ndarray) -> bool:
        """Whether a view has a cell's shape: where a cell's ink is (its pixels unlike the
        page), at least ``SHAPED`` of the view's are unlike the page too, in whatever colour
        (a start in a colour of its own, or a mark over a cell)."""
        ink = self._ink(page)
        there = np.abs(core(view) - page).max(axis=2) > self.diff
        return bool(ink.any() and there[ink].mean() >= SHAPED)

    def inked(self, view: np.ndarray, page: np.ndarray) -> float:
        """The share of a cell's ink that a view shows in the cell's own colours (a cell,
        misread; a hole drawn in its own colour shows little)."""
        ink = self._ink(page)
        same = np.abs(core(view) - self.template).max(axis=2) <= self.diff
        return float(same[ink].mean()) if ink.any() else 1.0

    def _ink(self, page: np.ndarray) -> np.ndarray:
        return np.abs(self.template - page).max(axis=2) > self.diff


def core(view: np.ndarray) -> np.ndarray:
    """A view without its outermost pixels (where a neighbouring hole's colour may reach)."""
    return view[1:-1, 1:-1]


def _less_median(view: np.ndarray) -> np.ndarray:
    return view - np.median(view.reshape(-1, 3), axis=0)
