"""Klotski from a screenshot: piece rectangles on a board of one colour, whatever the style.

Stages, each a plain function:
1. ``main_colours``: the picture's few most common colours; the board's is one of them;
2. ``board_regions``: for each, the large connected regions of that colour — the board
   shows through every gap between pieces, so the board and its gaps are one region and
   every piece is a *hole* in it (the colour is matched at full size and short breaks in
   gap lines are bridged, so 1 px gaps hold; large pictures are screened at a reduced
   size where a block has the colour when any of its pixels has);
3. ``piece_rects``: the holes of a region, which must be solid rectangles (names and
   pictures on a piece are inside its hole, so they do not matter), and a margin of board
   colour along every side of the region (a board cut off by a banner is refused);
   ``check_cut``: the region must not run to the picture's edge (its frame unseen there);
4. ``fit_grid``: the gap from neighbouring pieces, the cell size from the smallest piece
   (its short side plus a gap), every piece's size in cells, the grid origin;
5. ``extend``, ``check_cells``, ``check_seams``, ``check_inside`` and ``check_beyond``:
   every cell is covered by one piece or shows the board's colour (over most of it, when
   marks such as a watermark are on it), and as many are empty
   as the game has; rows and columns of board-coloured cells at the edge are added (empty
   edge cells), so a frame or page around the board never is; no piece shows a seam of
   board colour between its cells (two pieces whose gap the picture lost), nor a straight
   edge there (the grid must explain the picture's edges: a region of another colour,
   a target's face with the pieces' rims, joins pieces and empty cells into one hole);
   no gap line runs on past the grid's edge (a row of pieces the region lost);
6. single cells may not cover most of the board (that is a grid of tiles, as in other
   games); the target is the unique largest piece (or the profile's ``target`` shape [h, w]); the
   pieces are lettered as ``Board.relabelled`` does.
Anything that does not fit — a hole that is not a rectangle, a size that is not a whole
number of cells, a cell neither covered nor board-coloured — refuses the region: no board
found. The confidence falls with the pieces' misfit to the grid (average and worst).
A profile may pin the board's colour (``board_colour``: [r, g, b]), the target's shape
(``target``) and the count of empty cells (``empty_cells``).

Where no board colour reads (portraits, name bands, shadows, textured floors, pieces edge to
edge), the pieces are read by their edges (``vision/klotski_grid.py``); a profile may pin
the empty floor's colour there (``floor``), the pitch as a share of the picture's width
(``pitch_share``), the pitch the calibration's screenshot was read at (``work_pitch``: other
sizes are resized to it, so the edges look as calibrated), the grid's [rows, cols] (``grid``;
its ``region`` scaled to the picture's width is tried first) and the look of the pieces'
sides (``side_look``). Pieces read by edges may be at most ``longest_piece`` cells long
(the calibration's screenshot's longest; with no profile 2, as in every classic set):
two pieces whose side between them the edge measure missed read as one longer piece.
"""
from __future__ import annotations

import itertools
import math
from dataclasses import dataclass, replace
from typing import Any, Callable, Iterator, Literal, Sequence

import cv2
import numpy as np

from solvers.common import BoardError
from solvers.klotski import Board, Piece
from vision.colours import ColourHistogram, colour_bounds, colour_mask, thinned
from vision.common import NoBoardFound, Parse, grid_labels, marked, stage
from vision.components import components, largest
from vision.klotski_grid import (LEAN_MIN, RUN_SPLIT, SPLIT, GridGuess, Reading, SideLook, edge_maps, lean,
                                longest_run, marked_floor, parse_grid, sides)
from vision.profile import Profile, ProfileError

MIN_SIDE = 60          # px: smaller regions cannot hold a board
MIN_CONFIDENCE = 0.6
LONGEST_PIECE = 2      # cells: the longest piece read by edges with no profile's (classic sets)
SCREEN_PIXELS = 250_000        # larger pictures are screened for regions at a reduced size
MAX_SHAPES = 200               # more patches than this in a region: texture, not a board
BOARD_COLOUR_DISTANCE = 30.0   # mean colour of an empty cell from the board's
BRIDGE = 3                     # px: longest break in a gap line that is filled


@dataclass(frozen=True)
class Rect:
    x0: float
    y0: float
    x1: float       # exclusive
    y1: float

    @property
    def w(self) -> float:
        return self.x1 - self.x0

    @property
    def h(self) -> float:
        return self.y1 - self.y0


@dataclass(frozen=True)
class Grid:
    origin: tuple[float, float]     # top-left corner of cell (0, 0)
    pitch: tuple[float, float]
    gap: float
    rows: int
    cols: int

    def centre(self, r: int, c: int) -> tuple[float, float]:
        return (self.origin[0] + (c + 0.5) * self.pitch[0], self.origin[1] + (r + 0.5) * self.pitch[1])


@dataclass(frozen=True)
class KlotskiGeometry:
    """Where a Klotski board is in the picture: its grid of ``rows`` × ``cols`` cells
    (``origin`` the top-left corner of cell (0, 0), ``pitch`` (x, y) from cell to cell,
    ``gap`` the board colour's width between pieces), how it was read (``read_by``: the
    board's colour between the pieces, or the pieces' edges) and, for a picture read
    upright, the degrees it was turned (the grid is the upright picture's, the cells are
    turned back)."""

    rows: int
    cols: int
    origin: tuple[float, float]
    pitch: tuple[float, float]
    gap: float
    read_by: Literal["colour", "edges"] = "colour"
    turned: float | None = None

    def shifted(self, dx: float, dy: float) -> "KlotskiGeometry":
        return replace(self, origin=(self.origin[0] + dx, self.origin[1] + dy))


def parse(image_bgr: np.ndarray, profile: Profile | None = None) -> Parse[KlotskiGeometry]:
    """The Klotski board in a screenshot, or NoBoardFound. GNOME Klotski's window is read
    by its own reader (``vision.gnome_klotski``), the rest as below."""
    from vision import gnome_klotski   # imports this module's KlotskiGeometry

    gnome = gnome_klotski.parse(image_bgr)
    if gnome is not None:
        return gnome
    target_shape = None if profile is None else profile.sizes("target", 2)
    empties = None if profile is None else profile.get("empty_cells", int, None)
    fixed = profile.colour("board_colour") if profile is not None and "board_colour" in profile.data else None
    colours = [np.array(fixed, np.float32)] if fixed else main_colours(image_bgr)
    found = screen(image_bgr, colours)     # every colour matched at once
    late: list[str] = []      # regions with pieces that did not make a board: say why
    boards: list[np.ndarray] = []   # their colours, where the picture shows all the region: the floor's,
                                    # if flat pieces leave it unclear by edges
    for k, colour in enumerate(colours):
        for region in found.regions(k):
            try:
                rects = piece_rects(region)
            except NoBoardFound:        # no piece-like holes: the edge reader's reason is plainer
                continue
            try:
                check_cut(region, image_bgr.shape)
                boards.append(colour)
                return read_board(image_bgr, rects, colour, target_shape, empties)
            except NoBoardFound as exc:
                late.append(str(exc))
    floor = fixed or (profile.colour("floor") if profile is not None and "floor" in profile.data else None)
    try:
        share = None if profile is None else profile.positive("pitch_share")
        pitch = None if share is None else (0.85 * share * image_bgr.shape[1], 1.15 * share * image_bgr.shape[1])
        work = None if profile is None else profile.positive("work_pitch")
        shape = None if profile is None else profile.sizes("grid", 2)
        look = None if profile is None else side_look(profile)
        longest = longest_piece(profile)
        hint = None if profile is None or look is None or shape is None else grid_hint(profile, image_bgr.shape[1], shape)

        def by_edges(picture: np.ndarray) -> Parse:
            def board(reading: Reading) -> Parse:
                return from_reading(reading, target_shape, empties, longest)

            reading, _ = parse_grid(picture, None if floor is None else np.array(floor, np.float32), pitch,
                                    work, shape, look, hint, board, boards)
            return board(reading)

        try:
            return by_edges(image_bgr)
        except NoBoardFound as exc:
            refusal = exc
        return upright(image_bgr, by_edges, refusal)
    except NoBoardFound as exc:     # the reading by colour says why first: it is the plainer
        raise NoBoardFound("no Klotski board: " + (late + [str(exc)])[0]) from None


def upright(image: np.ndarray, read: Callable[[np.ndarray], Parse[KlotskiGeometry]],
            refusal: NoBoardFound) -> Parse[KlotskiGeometry]:
    """``read`` of the picture turned upright, when its straight edges lean by LEAN_MIN
    or more (``lean``: a photo of a screen, held slightly turned), its cells' centres
    turned back into the picture; ``refusal`` (the reading as given was refused so) when
    it does not lean or the upright picture is refused too."""
    angle = lean(image)
    if abs(angle) < LEAN_MIN:
        raise refusal
    h, w = image.shape[:2]
    turn = cv2.getRotationMatrix2D((w / 2, h / 2), -angle, 1.0)
    try:
        found = read(cv2.warpAffine(image, turn, (w, h), flags=cv2.INTER_CUBIC, borderMode=cv2.BORDER_REPLICATE))
    except NoBoardFound:
        raise refusal from None
    back = cv2.invertAffineTransform(turn)
    cells = [(float(back[0] @ (x, y, 1)), float(back[1] @ (x, y, 1))) for x, y in found.cells]
    return replace(found, cells=cells, geometry=replace(found.geometry, turned=round(angle, 2)))


def side_look(profile: Profile) -> SideLook | None:
    """The profile's learned look of the pieces' sides (``side_look``), if it has one."""
    data = profile.get("side_look", dict, None)
    try:
        return None if data is None else SideLook.from_json(data)
    except (KeyError, TypeError, ValueError) as exc:
        raise ProfileError(f"profile {profile.name}: field 'side_look': {exc}") from None


def longest_piece(profile: Profile | None) -> int:
    """The longest piece (cells) a reading by edges may have: the profile's
    ``longest_piece``, else LONGEST_PIECE. Stress runs of real apps' tiles in random
    layouts read 1×3 and 1×4 pieces, a 1×2 joined with its neighbour across a side
    whose frame one tile lacked; no classic piece is longer than 2."""
    value = LONGEST_PIECE if profile is None else profile.get("longest_piece", int, LONGEST_PIECE)
    if value < 1:
        raise ProfileError(f"profile {profile.name}: field 'longest_piece' must be a whole number above 0")
    return value


def grid_hint(profile: Profile, width: int, shape: tuple[int, ...]) -> GridGuess | None:
    """Where the profile's screenshot had its grid (``region``), scaled to a picture
    ``width`` px wide: the same app at another size shows it there again."""
    region, share = profile.get("region", list, None), profile.positive("pitch_share")
    if region is None or share is None:
        return None
    if len(region) != 4 or not all(isinstance(v, (int, float)) and not isinstance(v, bool) and math.isfinite(v)
                                   for v in region) or min(region[2:]) <= 0:
        raise ProfileError(f"profile {profile.name}: field 'region' must be [x, y, w, h] with w and h above 0")
    k = width * share / (region[2] / shape[1])      # this picture's width over the screenshot's
    return GridGuess(region[0] * k, region[1] * k, region[2] * k / shape[1], region[3] * k / shape[0],
                     shape[0], shape[1])


def check_edge_rows(pieces: list[Piece], rows: int, cols: int) -> None:
    """Refuse a grid read by edges whose first or last row or column holds no piece:
    there the outline the grid stops at is no piece's side but whatever lies past the
    board (the wooden page under a wooden-block app's board, in panels on its lines at 200 px,
    read as two more rows of empty cells). A whole row of empty cells is never a
    classic position (two empty cells)."""
    for first, last, size in ((lambda p: p.row, lambda p: p.row + p.height, rows),
                              (lambda p: p.col, lambda p: p.col + p.width, cols)):
        if min(first(p) for p in pieces) > 0 or max(last(p) for p in pieces) < size:
            raise NoBoardFound("a row or column at the board's edge holds no piece: where the board ends is unclear")


def from_reading(reading: Reading, target_shape: Sequence[int] | None = None, empties: int | None = None,
                 longest: int = LONGEST_PIECE) -> Parse[KlotskiGeometry]:
    """The Parse of a reading by edges (``vision.klotski_grid``): the same checks of the
    pieces as a reading by colour (tiles, target, empty cells), and no piece longer than
    ``longest`` cells."""
    g = reading.grid
    pieces = [Piece(f"p{i}", r, c, h, w) for i, (r, c, h, w) in enumerate(reading.sizes)]
    if max(p.length for p in pieces) > longest:
        raise NoBoardFound(f"a piece longer than {longest} cells: two pieces whose side was missed?")
    empty = g.rows * g.cols - sum(p.height * p.width for p in pieces)
    if empties is not None and empty != empties:
        raise NoBoardFound(f"{empty} empty cells, the profile's game has {empties}")
    if 2 * empty > g.rows * g.cols:
        raise NoBoardFound("most of the board is empty")
    if 2 * sum(p.shape == (1, 1) for p in pieces) > g.rows * g.cols:
        raise NoBoardFound("single-cell pieces cover most of the board: tiles, not Klotski pieces")
    check_edge_rows(pieces, g.rows, g.cols)
    try:
        board = Board.make(g.rows, g.cols, pieces, _target(pieces, target_shape)).relabelled()
    except (BoardError, NoBoardFound) as exc:
        raise NoBoardFound(str(exc)) from None
    check_playable(board)
    grid = Grid((g.ox, g.oy), (g.px, g.py), 0.0, g.rows, g.cols)
    centres = [grid.centre(r, c) for r in range(g.rows) for c in range(g.cols)]
    geometry = KlotskiGeometry(g.rows, g.cols, (g.ox, g.oy), (g.px, g.py), 0.0, "edges")
    return Parse("klotski", board, min(1.0, 0.7 + reading.clarity), centres, geometry)


def check_playable(board: Board) -> None:
    """Moves never change how many cells are free, and the target needs at least its
    narrower side's count of them to move at all. A board read with fewer free cells has
    a target that could never have moved and never will: no game's position. It was
    misread — most often a mark, a watermark or text over an empty cell taken for a
    piece — and is refused. (An unsolvable set such as 走投无路 still passes: its pieces
    move, only the exit is out of reach.)"""
    target = next(p for p in board.pieces if p.name == board.target)
    free = board.rows * board.cols - len(board.walls) - sum(len(p.cells()) for p in board.pieces)
    if free < min(target.height, target.width):
        raise NoBoardFound(f"{free} free cell{'s' * (free != 1)} on the board read: its "
                           f"{target.height}×{target.width} target could never move, as it does in every game; "
                           "a piece was likely seen where there is none (a mark or text over an empty cell?)")


def main_colours(image: np.ndarray, count: int = 10) -> list[np.ndarray]:
    """The picture's most common colours (BGR), from a coarse 8×8×8 histogram; the
    board's colour is one of them in every look."""
    histogram = ColourHistogram.of(thinned(image, 60_000), bits=3)
    means = histogram.means()
    colours: list[np.ndarray] = []
    for b in histogram.commonest(count * 2, min_share=0.003):
        colour = means[b].astype(np.float32)
        if all(np.abs(colour - c).max() > 20 for c in colours):
            colours.append(colour)
        if len(colours) == count:
            break
    return colours


@dataclass(frozen=True)
class Region:
    """A connected region of one colour: its mask within its bounding box, every pixel of
    that colour in the box (thin margins may break away from the region), and where the
    box sits in the picture."""

    mask: np.ndarray
    colour: np.ndarray
    x: int
    y: int


@dataclass(frozen=True)
class Screen:
    """Which of the colours tried each pixel has, matched once for all of them: bit
    ``bits[k]`` of ``codes`` is set where ``colour_mask`` of colour k is; ``blocks`` is
    ``codes`` over f×f blocks (a block has a colour when any of its pixels has), the
    reduced size large pictures are screened at."""

    codes: np.ndarray
    blocks: np.ndarray
    bits: list[int]
    f: int

    def mask(self, k: int, cut: Any = np.s_[:, :], blocks: bool = False) -> np.ndarray:
        """Colour k's mask (255 where it is) over ``cut`` of the picture or of the blocks."""
        return cv2.compare(np.bitwise_and((self.blocks if blocks else self.codes)[cut], self.bits[k]), 0, cv2.CMP_NE)

    def regions(self, k: int) -> Iterator[Region]:
        """``board_regions`` of colour k, each cut out only when the one before did not
        make a board."""
        f = self.f
        # a break of BRIDGE px covers at most BRIDGE // f whole blocks
        raw = bridge(self.mask(k, blocks=True), BRIDGE // f) if f > 1 else bridge(self.mask(k))
        _, labels, stats = components(raw)
        w, h, area = stats[:, 2], stats[:, 3], stats[:, 4]
        keep = np.flatnonzero((w * f >= MIN_SIDE) & (h * f >= MIN_SIDE) & (area <= (0.6 if f == 1 else 0.8) * w * h))
        keep = keep[np.argsort(-area[keep], kind="stable")]     # largest first (ties: label order)
        boxes = [(int(j) + 1, stats[j]) for j in keep]
        chosen = iter(boxes)
        if f > 1:   # the full-size cut is costly: first look for a few piece-like holes here
            # (in each box only when the ones before did not make a board)
            chosen = ((i, st) for i, st in boxes[:6]
                      if _has_pieces(labels[st[1]:st[1] + st[3], st[0]:st[0] + st[2]] == i))
        for i, (x, y, w, h, area) in itertools.islice(chosen, 4):
            x0, y0 = max(0, (x - 1) * f), max(0, (y - 1) * f)
            cut = np.s_[y0:(y + h + 1) * f, x0:(x + w + 1) * f]
            if f == 1 and _largest_in(labels[cut], i, area):    # the cut's largest part: itself
                yield Region(labels[y:y + h, x:x + w] == i, raw[y:y + h, x:x + w] > 0, int(x), int(y))
                continue
            crop = bridge(self.mask(k, cut)) if f > 1 else raw[cut]
            found = largest(crop)
            if found is None:
                continue
            part, (cx, cy, cw, ch, area) = found
            if cw >= MIN_SIDE and ch >= MIN_SIDE and area <= 0.6 * cw * ch:
                yield Region(part, crop[cy:cy + ch, cx:cx + cw] > 0, int(x0 + cx), int(y0 + cy))


def _largest_in(labels: np.ndarray, i: int, area: int) -> bool:
    """Whether component ``i`` (of ``area`` px) is larger than all of every other's
    pixels in the cut of the labels around it: then it is the cut's largest component
    and the same region as labelling the cut again would find (a box it passed holds it:
    wide and tall enough, at most 0.6 of its box)."""
    counts = np.bincount(labels.ravel())
    counts[[0, i]] = 0
    return bool(counts.max() < area)


def screen(image: np.ndarray, colours: list[np.ndarray], grey: np.ndarray | None = None) -> Screen:
    """The Screen of the picture for up to 16 colours. Several colours are matched by
    looking up each channel's value in a table of the colours whose range holds it and
    keeping the colours all four channels agree on (about a third of a mask by range
    each); one colour by its ranges. ``grey``: the picture's grey levels, when made."""
    grey = cv2.cvtColor(image, cv2.COLOR_BGR2GRAY) if grey is None else grey
    if len(colours) == 1:
        codes, bits = colour_mask(image, colours[0], grey), [255]
    else:
        tables = np.zeros((4, 256), np.uint16)
        values = np.arange(256)
        for k, colour in enumerate(colours):
            lo, hi, dark, light = colour_bounds(colour)
            for c in range(3):
                tables[c, (values >= lo[c]) & (values <= hi[c])] |= 1 << k
            tables[3, (values >= dark) & (values <= light)] |= 1 << k
        planes = [*cv2.split(image), grey]
        codes = cv2.LUT(planes[0], tables[0])
        for plane, table in zip(planes[1:], tables[1:]):
            cv2.bitwise_and(codes, cv2.LUT(plane, table), dst=codes)
        bits = [1 << k for k in range(len(colours))]
    f = max(1, int(np.ceil(np.sqrt(image.shape[0] * image.shape[1] / SCREEN_PIXELS))))
    return Screen(codes, codes if f == 1 else _blocks(codes, f), bits, f)


def _blocks(codes: np.ndarray, f: int) -> np.ndarray:
    """Bitwise or of ``codes`` over f×f blocks (the last ones cut by the picture's edge)."""
    h, w = codes.shape
    padded = cv2.copyMakeBorder(codes, 0, -h % f, 0, -w % f, cv2.BORDER_CONSTANT, value=0)
    # first each block's f rows (whole rows: contiguous), then its f columns: 2(f - 1)
    # passes, not f² - 1 strided ones
    strips = padded.reshape(-1, f, padded.shape[1])
    rows = strips[:, 0].copy()
    for d in range(1, f):
        np.bitwise_or(rows, strips[:, d], out=rows)
    cells = rows.reshape(rows.shape[0], -1, f)
    out = cells[:, :, 0].copy()
    for d in range(1, f):
        np.bitwise_or(out, cells[:, :, d], out=out)
    return out


def board_regions(image: np.ndarray, colour: np.ndarray, grey: np.ndarray | None = None) -> list[Region]:
    """The large connected regions of one colour that could be a board seen through its
    gaps (mostly covered by other colours: pieces), largest first. The colour is matched
    at full size; large pictures are then screened at a reduced size where a block is
    board-coloured when any of its pixels is, so gaps one pixel wide keep the board in one
    piece; each candidate is cut out of the full-size match. Breaks in gap lines are
    bridged at both sizes, so the screened region holds all of the full-size one.
    ``grey``: the picture's grey levels, when already made."""
    return list(screen(image, [colour], grey).regions(0))


def bridge(mask: np.ndarray, length: int = BRIDGE) -> np.ndarray:
    """The colour mask with breaks of up to ``length`` px in straight gap lines filled: where
    two pieces' rounded, smoothed corners meet over a gap one or two pixels wide they
    touch at a pixel or two, which would join the pieces into one patch. Only runs with
    the colour on both sides along a line are filled, so no piece (far thicker) is cut."""
    closed = [cv2.morphologyEx(mask, cv2.MORPH_CLOSE, np.ones(shape, np.uint8))
              for shape in ((length + 1, 1), (1, length + 1))]
    return cv2.bitwise_or(closed[0], closed[1])


def _has_pieces(mask: np.ndarray) -> bool:
    """Whether a reduced region is mostly covered, as a board is by its pieces: at least
    three roughly rectangular holes, together much of its box. Lenient, as blocks with
    any board colour shrink the pieces here: this only spares the full-size cut."""
    if np.count_nonzero(mask) / mask.size > 0.75:      # (the mean, without numpy's float sum)
        return False
    others = ~mask
    # a hole over 0.35 of the box refuses it, and most often the box's centre lies in one:
    # a flood fill from there spares labelling every hole
    cy, cx = mask.shape[0] // 2, mask.shape[1] // 2
    if others[cy, cx] and cv2.floodFill(others.view(np.uint8).copy(), None, (cx, cy), 2, flags=4)[0] > 0.35 * mask.size:
        return False
    _, _, stats = components(others)
    w, h, area = stats[:, 2], stats[:, 3], stats[:, 4]
    rect = (np.minimum(w, h) >= 2) & (area >= 0.7 * w * h)
    # ...none of them most of the board (a band of a gradient has the next band as a hole)
    return int(rect.sum()) >= 3 and area[rect].sum() >= 0.25 * mask.size and area.max() <= 0.35 * mask.size


def holes(region: Region, smallest: float = 0.0) -> list[tuple[Rect, float]]:
    """(bounding rectangle, fill share) of every patch of other colours inside the
    region's bounding box whose short side is at least ``smallest`` px. Pieces at the
    board's edge may touch the frame, so a piece is not required to be enclosed, only to
    lie within the board's extent."""
    _, _, stats = components(~region.mask)
    stats = stats[np.minimum(stats[:, 2], stats[:, 3]) >= smallest]     # specks dropped in one step
    return [(Rect(float(x + region.x), float(y + region.y), float(x + region.x + w), float(y + region.y + h)),
             area / float(w * h)) for x, y, w, h, area in stats.tolist()]


def piece_rects(region: Region) -> list[Rect]:
    """The pieces' rectangles in a board-coloured region: its holes, less specks and thin
    lines; NoBoardFound unless all are rectangles."""
    m = region.colour
    stage("klotski-region", m)
    # Boards show a margin of board colour along every side; a side without one is a
    # board cut off by something in front of it (a banner, a dialog, the picture's edge).
    # (The margin may lie a few pixels in: a speck of the frame, blurred into board
    # colour, can hang on the region's edge.)
    for side in (m, m[::-1], m.T, m.T[::-1]):
        if max(side[k:k + 3].any(axis=0).mean() for k in range(4)) < 0.3:
            raise NoBoardFound("part of the board is hidden")
    speck = max(4.0, 0.03 * min(m.shape))
    found = holes(region, speck)
    if len(found) > MAX_SHAPES:
        raise NoBoardFound("too many shapes for a board")
    if len(found) < 3:
        raise NoBoardFound("fewer than three pieces")
    unit = float(np.median([min(r.w, r.h) for r, _ in found]))
    # thin lines (an edge the picture's compression broke off, the exit mark) are not pieces
    rects = [(r, fill) for r, fill in found if min(r.w, r.h) >= 0.6 * unit and fill * r.w * r.h >= 0.3 * unit * unit]
    if len(rects) < 3:
        raise NoBoardFound("fewer than three pieces")
    if any(fill < 0.85 for _, fill in rects):
        raise NoBoardFound("a shape on the board is not a rectangle")
    return [r for r, _ in rects]


def check_cut(region: Region, size: tuple[int, ...]) -> None:
    """Refuse a board region that runs to the edge of the picture (``size``: height,
    width): the board's frame is not seen there, and the edge may cut a row of pieces
    (down to stubs too thin to be read as pieces, which ``piece_rects`` drops, or along a
    gap line, leaving none): the board read would lack that row."""
    m = region.colour
    edges = {"top": region.y == 0, "bottom": region.y + m.shape[0] == size[0],
             "left": region.x == 0, "right": region.x + m.shape[1] == size[1]}
    for side, at_edge in edges.items():
        if at_edge:
            raise NoBoardFound(f"the board runs off the picture's {side} edge (cut off there?)")


def read_board(image: np.ndarray, rects: list[Rect], colour: np.ndarray,
               target_shape: Sequence[int] | None = None, empties: int | None = None) -> Parse[KlotskiGeometry]:
    """Grid, piece sizes and empty cells from the pieces' rectangles; NoBoardFound when
    they do not make a Klotski board (with ``empties`` empty cells, when given: a game's
    piece set, and so its count of empty cells, stays the same in every position)."""
    stage("klotski-pieces", lambda: marked(image, boxes=[(r.x0, r.y0, r.w, r.h) for r in rects]))
    grid, sizes, err = fit_grid(rects)
    grid = extend(image, grid, sizes, colour)
    check_cells(image, grid, sizes, colour, empties)
    check_seams(image, grid, sizes, colour)
    check_inside(image, grid, sizes)
    check_beyond(image, grid, colour)
    pieces = [Piece(f"p{i}", r, c, h, w) for i, (r, c, h, w) in enumerate(sizes)]
    # a grid of mostly single cells is a board of tiles (one-stroke, 2048), not Klotski
    if 2 * sum(p.shape == (1, 1) for p in pieces) > grid.rows * grid.cols:
        raise NoBoardFound("single-cell pieces cover most of the board: tiles, not Klotski pieces")
    target = _target(pieces, target_shape)
    try:
        board = Board.make(grid.rows, grid.cols, pieces, target).relabelled()
    except BoardError as exc:
        raise NoBoardFound(f"the pieces do not make a board ({exc})") from None
    stage("klotski-cells", lambda: marked(image, grid_labels(board.to_text(), *grid.centre(0, 0), *grid.pitch)))
    confidence = max(0.0, 1.0 - 4.0 * err)
    if confidence < MIN_CONFIDENCE:
        raise NoBoardFound(f"pieces sit off the grid (confidence {confidence:.2f})")
    check_playable(board)
    centres = [grid.centre(r, c) for r in range(grid.rows) for c in range(grid.cols)]
    geometry = KlotskiGeometry(grid.rows, grid.cols, grid.origin, grid.pitch, grid.gap)
    return Parse("klotski", board, confidence, centres, geometry)


def fit_grid(rects: list[Rect]) -> tuple[Grid, list[tuple[int, int, int, int]], float]:
    """The grid the pieces sit on, each piece's (row, col, height, width) in cells, and
    the misfit of the piece edges in pitches (the mean of the average and the worst, so
    one piece far off the grid lowers the confidence as much as all a little off)."""
    gaps = []
    short = min(min(r.w, r.h) for r in rects)
    for a in rects:
        right = [b.x0 - a.x1 for b in rects if b.x0 >= a.x1 and min(a.y1, b.y1) - max(a.y0, b.y0) > 0]
        below = [b.y0 - a.y1 for b in rects if b.y0 >= a.y1 and min(a.x1, b.x1) - max(a.x0, b.x0) > 0]
        gaps += [g for g in (min(right, default=None), min(below, default=None)) if g is not None and g < 0.35 * short]
    if not gaps:
        raise NoBoardFound("no two pieces side by side")
    gap = float(np.median(gaps))
    pitch0 = short + gap
    if gap > 0.3 * pitch0:
        raise NoBoardFound("the shapes stand too far apart for sliding pieces")
    pitch, origin, spans = [], [], []
    for lo, hi in (("x0", "x1"), ("y0", "y1")):
        n = [max(1, round((getattr(r, hi) - getattr(r, lo) + gap) / pitch0)) for r in rects]
        length = [getattr(r, hi) - getattr(r, lo) + gap for r in rects]
        p = sum(a * b for a, b in zip(length, n)) / sum(k * k for k in n)
        starts = [getattr(r, lo) - gap / 2 for r in rects]
        first = min(starts)
        idx = [round((s - first) / p) for s in starts]
        o = float(np.mean([s - i * p for s, i in zip(starts, idx)]))
        pitch.append(p)
        origin.append(o)
        spans.append((idx, n, [abs(s - o - i * p) / p for s, i in zip(starts, idx)]
                      + [abs(L - k * p) / p for L, k in zip(length, n)]))
    (cols_i, w_n, err_x), (rows_i, h_n, err_y) = spans
    if min(cols_i) < 0 or min(rows_i) < 0:
        raise NoBoardFound("pieces do not line up")
    err = float(np.mean(err_x + err_y) + max(err_x + err_y)) / 2
    if max(err_x + err_y) > 0.2:
        raise NoBoardFound("a piece is not a whole number of cells")
    sizes = [(r, c, h, w) for r, c, h, w in zip(rows_i, cols_i, h_n, w_n)]
    grid = Grid((origin[0], origin[1]), (pitch[0], pitch[1]), gap,
                max(r + h for r, _, h, _ in sizes), max(c + w for _, c, _, w in sizes))
    return grid, sizes, err


def _looks_empty(image: np.ndarray, grid: Grid, r: int, c: int, colour: np.ndarray, marked: bool = False) -> bool:
    """The inner part of cell (r, c) is inside the picture and has the board's colour;
    ``marked``: or mostly has it, marks on it (``marked_floor``: a watermark or text).
    (Not when growing the grid: a page of the board's colour with text is no row of it.)"""
    x, y = grid.centre(r, c)
    hx, hy = 0.35 * grid.pitch[0], 0.35 * grid.pitch[1]
    x0, y0, x1, y1 = round(x - hx), round(y - hy), round(x + hx), round(y + hy)
    if x0 < 0 or y0 < 0 or x1 <= x0 or y1 <= y0 or x1 > image.shape[1] or y1 > image.shape[0]:
        return False
    mean, std = cv2.meanStdDev(image[y0:y1, x0:x1])     # (numpy's, on a float copy, is 20× slower)
    if np.linalg.norm(mean.ravel() - colour) <= BOARD_COLOUR_DISTANCE and std.max() < 30:
        return True
    return marked and marked_floor(image[y0:y1, x0:x1], colour)


def extend(image: np.ndarray, grid: Grid, sizes: list[tuple[int, int, int, int]], colour: np.ndarray) -> Grid:
    """Grow the grid by edge rows and columns that are wholly empty board (the pieces'
    extent misses them), shifting the pieces' cells to match."""
    while True:
        for side in ("top", "bottom", "left", "right"):
            if side in ("top", "bottom"):
                r = -1 if side == "top" else grid.rows
                if all(_looks_empty(image, grid, r, c, colour) for c in range(grid.cols)):
                    break
            else:
                c = -1 if side == "left" else grid.cols
                if all(_looks_empty(image, grid, r, c, colour) for r in range(grid.rows)):
                    break
        else:
            return grid
        ox, oy = grid.origin
        if side == "top":
            grid = Grid((ox, oy - grid.pitch[1]), grid.pitch, grid.gap, grid.rows + 1, grid.cols)
            sizes[:] = [(r + 1, c, h, w) for r, c, h, w in sizes]
        elif side == "left":
            grid = Grid((ox - grid.pitch[0], oy), grid.pitch, grid.gap, grid.rows, grid.cols + 1)
            sizes[:] = [(r, c + 1, h, w) for r, c, h, w in sizes]
        elif side == "bottom":
            grid = Grid(grid.origin, grid.pitch, grid.gap, grid.rows + 1, grid.cols)
        else:
            grid = Grid(grid.origin, grid.pitch, grid.gap, grid.rows, grid.cols + 1)
        if grid.rows * grid.cols > 400:
            raise NoBoardFound("the board grows without end")


def check_cells(image: np.ndarray, grid: Grid, sizes: list[tuple[int, int, int, int]],
                colour: np.ndarray, empties: int | None = None) -> None:
    """Check every cell is covered by exactly one piece or is empty board, and that the
    empty cells are as many as expected: ``empties`` if given, else at least one and at
    most half the board (a lost or invented piece would change the count)."""
    covered = np.zeros((grid.rows, grid.cols), np.int32)
    for r, c, h, w in sizes:
        covered[r:r + h, c:c + w] += 1
    if covered.max() > 1:
        raise NoBoardFound("two pieces overlap")
    empty = [(r, c) for r in range(grid.rows) for c in range(grid.cols) if not covered[r, c]]
    if not empty:
        raise NoBoardFound("no empty cell")
    if empties is not None and len(empty) != empties:
        raise NoBoardFound(f"{len(empty)} empty cells, the profile's game has {empties}")
    if 2 * len(empty) > grid.rows * grid.cols:
        raise NoBoardFound("most of the board is empty: not a Klotski position")
    if not all(_looks_empty(image, grid, r, c, colour, marked=True) for r, c in empty):
        raise NoBoardFound("a cell is neither a piece nor empty board")


def check_seams(image: np.ndarray, grid: Grid, sizes: list[tuple[int, int, int, int]],
                colour: np.ndarray) -> None:
    """Refuse pieces that show a seam of board colour where their cells meet: two pieces
    whose gap the picture lost (blur, compression) would otherwise read as one."""
    grey = cv2.cvtColor(image, cv2.COLOR_BGR2GRAY)     # (each part read turned to float: faster than all)
    level = float(cv2.cvtColor(colour.reshape(1, 1, 3).astype(np.uint8), cv2.COLOR_BGR2GRAY)[0, 0])
    (ox, oy), (px, py) = grid.origin, grid.pitch
    for r, c, h, w in sizes:
        x0, x1 = round(ox + (c + 0.15) * px), round(ox + (c + w - 0.15) * px)
        y0, y1 = round(oy + (r + 0.15) * py), round(oy + (r + h - 0.15) * py)
        body = float(np.median(np.abs(grey[y0:y1, x0:x1].astype(np.float32) - level)))
        lines = [np.abs(grey[round(oy + (r + k) * py) + d, x0:x1].astype(np.float32) - level)
                 for k in range(1, h) for d in (-1, 0, 1)]
        lines += [np.abs(grey[y0:y1, round(ox + (c + k) * px) + d].astype(np.float32) - level)
                  for k in range(1, w) for d in (-1, 0, 1)]
        if any(float(np.median(line)) < 0.5 * body for line in lines):
            raise NoBoardFound("two pieces seem to touch (the gap between them is lost): capture larger")


def check_inside(image: np.ndarray, grid: Grid, sizes: list[tuple[int, int, int, int]]) -> None:
    """Refuse a grid that does not explain the picture's edges: a piece with a straight
    edge along a side between two of its cells, as the reading by edges measures one
    (``vision.klotski_grid``: one edge over SPLIT or more of the side's middle, in an
    unbroken run over RUN_SPLIT of it). Names and pictures on a piece are not straight and
    unbroken along a cell side on a grid line; pieces and empty cells joined into one are.
    A main colour other than the board's (a target's face, seen through the thin rims of
    wooden pieces under JPEG) can make a region whose holes are each several pieces and
    empty cells; they fit a grid and pass ``check_cells`` with the target's face read as
    empty board, and ``check_seams`` looks for the board's colour between cells."""
    (ox, oy), (px, py) = grid.origin, grid.pitch
    reach = grid.gap / 2 + 0.1 * min(px, py)        # a piece's side lies half a gap off the line
    margin = math.ceil(reach) + 2                   # (the edge measure looks 1 px either side)
    for r, c, h, w in sizes:
        for vertical, parts, count, start, pitch, across, step in (
                (True, range(1, w), h, oy + r * py, py, ox + c * px, px),
                (False, range(1, h), w, ox + c * px, px, oy + r * py, py)):
            along = start + (np.arange(count) + np.array([[0.2], [0.8]])) * pitch     # each cell side's middle
            a, b = max(0, math.floor(along[0, 0])), math.ceil(along[1, -1])
            for k in parts:
                line = across + k * step
                lo = max(0, round(line) - margin)
                strip = image[a:b, lo:round(line) + margin + 1] if vertical else image[lo:round(line) + margin + 1, a:b]
                if min(strip.shape[:2]) < 3:
                    continue
                e, pos = edge_maps(np.ascontiguousarray(strip)), line - lo
                shares = sides(e, vertical, np.array([pos]), along[0] - a, along[1] - a, reach)[:, 0]
                if any(longest_run(e, vertical, pos, s0 - a, s1 - a, reach) >= RUN_SPLIT
                       for s0, s1 in along.T[shares >= SPLIT]):
                    raise NoBoardFound("a straight edge runs across a piece: pieces whose outline the board "
                                       "colour missed read as one")


def check_beyond(image: np.ndarray, grid: Grid, colour: np.ndarray) -> None:
    """Refuse a grid with gap lines going on past one of its edges: a row or column of
    pieces the board's region lost (its link of board colour broken) lies beyond, and
    reading without it would give a wrong, smaller board. Past a true edge is the frame:
    no board colour where the grid's lines would run on."""
    (ox, oy), (px, py), half = grid.origin, grid.pitch, grid.gap / 2 + 1
    x0, y0 = max(0, int(ox - px / 2)), max(0, int(oy - py / 2))     # only near the board
    mask = colour_mask(image[y0:round(oy + (grid.rows + 0.5) * py), x0:round(ox + (grid.cols + 0.5) * px)], colour) > 0
    ox, oy = ox - x0, oy - y0
    for along, n, o, p, q, other, edges in (
            (0, grid.cols, ox, px, py, oy, (oy, oy + grid.rows * py)),
            (1, grid.rows, oy, py, px, ox, (ox, ox + grid.cols * px))):
        m = mask if along == 0 else mask.T
        for edge, sign in ((edges[0], -1), (edges[1], 1)):
            near, far = edge + sign * half, edge + sign * 0.3 * q
            lo, hi = max(0, round(min(near, far))), min(m.shape[0], round(max(near, far)))
            if hi - lo < 3:
                continue
            for k in range(1, n):
                line = o + k * p
                band = m[lo:hi, max(0, round(line - half)):round(line + half) + 1]
                if band.size and band.any(axis=1).mean() > 0.7:
                    raise NoBoardFound("the grid's lines run on past the board's edge: part of the board was lost")


def _target(pieces: list[Piece], shape: Sequence[int] | None) -> str:
    if shape is not None:
        same = [p for p in pieces if list(p.shape) == list(shape)]
        if len(same) != 1:
            raise NoBoardFound(f"{len(same)} pieces of the profile's target shape {shape}")
        return same[0].name
    areas = sorted((p.height * p.width for p in pieces), reverse=True)
    if len(areas) > 1 and areas[0] == areas[1]:
        raise NoBoardFound("no unique largest piece to be the target (a profile can name its shape)")
    return max(pieces, key=lambda p: p.height * p.width).name
