"""Reading Klotski with a learnt look: the lattice of cells, the floor, and which neighbouring
cells are one piece.

``calibration.klotski`` learns a look from one screenshot and its board when the colour and
edge rules refuse it. Pieces may look like anything (a portrait each), so a piece cell is no
class with a template; what every Klotski look shares is that a piece's sides are straight
lines on the lattice's lines and its inside has none there. Everything is measured on one
mosaic (``vision.lattice.mosaic``) of one pitch around every corner of the cells, from which
each side (between two cells, or a cell and the rim) and each cell are put together
(:func:`assemble`):

- a **side** has a *line strength* (:func:`line_strength`): the change of colour across it,
  averaged along it, squared over the change's size (a straight line keeps one change all
  along; a painting's strokes cancel out), measured whole or, when the calibration needed
  it, without the middle of the side (a piece's label or face sits on its own middle
  sides). The strongest side inside a piece and the weakest side between two pieces (or a
  piece and the floor) of the calibration's board set two bounds; a reading parts its sides
  where their strengths jump most, the jump within those bounds (:func:`_split`: another
  size or JPEG moves every line alike), or refuses. A line as strong down a cell's middle
  is a piece mid-slide (refused);
- a **cell** is the floor or a piece by its colour's mean and spread over its inner half,
  clearly nearer to the calibration's floor cells or to its piece cells, or a piece when far
  from the floor (else refused); for pieces drawn as outlines on the floor (their insides
  the floor's colour), over the band along its sides, where a piece shows its outline and
  the floor nothing (``ring``).

The lattice is found by the lines (:func:`search`): at every pitch the picture is resized to
``WORK`` px a pitch, the straight lines measured everywhere at once and every origin scored
by the line strength on the lattice's sides against the cells' middles (the calibration
knows which sides are edges; a reading weighs all, the rim most, and tries first the
lattices with as many floor-coloured cells as the calibration's). The best few are fitted,
their lines moved and stretched together (:func:`fit`), and judged (:func:`board_of`): every cell and side clear, the
pieces rectangles, and the calibration's grid, count of empty cells and of pieces, shapes
and one target kept; else refused, never read wrong.
"""
from __future__ import annotations

from dataclasses import dataclass
from typing import Any, Callable

import cv2
import numpy as np

from solvers.common import BoardError
from solvers.klotski import Board, Piece
from vision.common import NoBoardFound, Parse
from vision.lattice import LATTICE_VERSION, NEAR_STEPS, Lattice, lab, mosaic
from vision.profile import Profile, ProfileError

WORK = 16                 # px a pitch in the search
SIDE = 64                 # px: one pitch in the mosaic the sides and cells are measured on
NEAR = 0.125              # share of a pitch: how far off the lattice's line a side's line may lie
FIT_SIDE = 64             # px a pitch where the lattice is fitted to the lines
FIT_REACH = 0.2           # share of a pitch: how far a line is looked for off the rough lattice
STRETCH = 0.15            # share of the rough pitch the fit may stretch or shrink it by at once
GAP_BLUR = 5.0            # px at FIT_SIDE: a line's strength is blurred this much (σ), so a gap's sides and a shadow meet in its middle
ENDS = 0.1                # share of a side's length at each end left out (corners, rounded or cut)
SKIPS = (0.0, 0.3)        # shares of a side left out round its middle, tried in turn at calibration: a piece's
                          # label or face sits on its own middle sides (a real app's edges may show best whole)
RING = (0.04, 0.22)       # shares of a pitch in from a cell's sides: the band whose colours tell an outlined piece
FLAT = 3.0                # Lab units: a change of colour this small counts as none
SMALLEST = 4              # the board spans at least a quarter of the picture's short side
PITCH_STEP = 1.06         # the ratio between pitches tried
PER_PITCH = 3             # best origins kept a pitch
MOST_TRIED = 8            # rough lattices fitted and judged, the best scored first
NEAR_TRIED = 3            # of those at the pitches near the calibration's, tried before the others
CLEAR_SHARE = 0.45        # a cell is a kind when nearer than this share of the way to the other
FAR_FLOOR = 3.0           # times the floor's tolerance: a cell this far from the floor is a piece, known or not
MIN_FLOOR = 8.0           # the least distance (Lab units) an empty cell may stray from the floor
FLOOR_FACTOR = 2.0        # times the calibration's floor cells' spread
LINE_GAP = 1.5            # a piece's edges must be this many times stronger than its insides
MIDDLE_FACTOR = 1.25      # times the strongest line across a cell's middle at calibration
MISSED_FLOOR = 1000.0     # a search's score less this a floor cell too many or too few: such lattices come last
RIM = 2.0                 # the rim's weight in a reading's search: the board's outline


MANY_ORIGINS = 2000       # origins a pitch past which the search scores them by correlation (faster then)
SUM = np.ones((1, 3), np.float32)     # cv2.transform: a picture's three channels summed


@dataclass(frozen=True)
class PieceLook:
    """What a profile teaches of a Klotski look (profile.json's ``lattice`` section)."""

    grid: tuple[int, int]
    empty_cells: int
    pieces: int
    shapes: frozenset[tuple[int, int]]
    target: tuple[int, int]
    floor: np.ndarray               # (n, 6) the empty cells' colour features
    piece: np.ndarray               # (n, 6) the piece cells'
    floor_tolerance: float
    inside_most: float              # a side below this line strength is a piece's inside
    edge_least: float               # above this, a piece's edge
    middle_most: float              # a line across a cell's middle: the calibration's strongest
    rim: bool                       # every side on the board's rim beside a piece is an edge
    skip: float = 0.0               # the share of a side round its middle its line is measured without
    ring: bool = False              # cells told apart by the bands along their sides, not their inner halves
    pitch_share: float | None = None  # the calibration's pitch over its picture's width
    floor_edge: float | None = None   # a side between a piece and the floor is an edge above this; the bounds above
                                      # then part the sides between two piece cells only (None: every side between cells)


def corners(lat: Lattice) -> Lattice:
    """The lattice of the cells' corners: rows+1 × cols+1 points from the board's top-left."""
    return Lattice(lat.x0 - lat.px / 2, lat.y0 - lat.py / 2, lat.px, lat.py, lat.rows + 1, lat.cols + 1)


def assemble(m: np.ndarray) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """From the mosaic of the corners (one pitch around each), one pitch around every side
    between columns (rows, cols+1; x across it), between rows (rows+1, cols; x across it,
    turned) and every cell (rows, cols)."""
    h = m.shape[-2] // 2
    across = np.concatenate([m[:-1, :, h:], m[1:, :, :h]], axis=2)
    along = np.swapaxes(np.concatenate([m[:, :-1, :, h:], m[:, 1:, :, :h]], axis=3), 2, 3)
    cells = np.concatenate([np.concatenate([m[:-1, :-1, h:, h:], m[:-1, 1:, h:, :h]], axis=3),
                            np.concatenate([m[1:, :-1, :h, h:], m[1:, 1:, :h, :h]], axis=3)], axis=2)
    return across, along, cells


def line_strength(patches: np.ndarray, near: float = NEAR, skip: float = 0.0) -> np.ndarray:
    """Per patch (..., side, side, 3) of one pitch: how strong a straight line runs down its
    middle (within ``near`` of a pitch): the colour's change across it, averaged down it,
    squared over the change's size (Lab units: a straight edge keeps one change all along;
    a painting's strokes cancel out; a flat colour has none); ``skip``: the share of the
    side round its middle left out."""
    side = patches.shape[-2]
    a, reach = round(ENDS * side), max(1, round(near * side))
    change = patches[..., a:side - a, side // 2 - reach:side // 2 + reach + 1, :]
    change = change[..., :, 1:, :] - change[..., :, :-1, :]
    left = round(skip * side / 2)
    if left:
        change = np.concatenate([change[..., :side // 2 - a - left, :, :], change[..., side // 2 - a + left:, :, :]], axis=-3)
    straight = np.sqrt((change.mean(axis=-3) ** 2).sum(axis=-1))
    size = np.sqrt((change ** 2).sum(axis=-1)).mean(axis=-2)
    return (straight ** 2 / (size + FLAT)).max(axis=-1)


def colour_features(cells: np.ndarray, ring: bool = False) -> np.ndarray:
    """Per cell: the mean Lab of its inner half and each channel's spread there (6 numbers);
    with ``ring``, of the band along its sides RING of a pitch in from them instead (a
    piece drawn as an outline on the floor shows its outline there, the floor does not)."""
    side = cells.shape[-2]
    if ring:
        d = np.minimum.outer(*(2 * [np.minimum(np.arange(side), np.arange(side)[::-1])]))
        flat = cells[..., (d >= RING[0] * side) & (d < RING[1] * side), :]
    else:
        q = side // 4
        flat = cells[..., q:side - q, q:side - q, :].reshape(*cells.shape[:-3], -1, 3)
    return np.concatenate([flat.mean(axis=-2), flat.std(axis=-2)], axis=-1)


@dataclass(frozen=True)
class Measures:
    """A lattice's measures: the line strength on every side between columns (rows,
    cols+1) and between rows (rows+1, cols), each cell's colour features (rows, cols, 6)
    and the strongest line down or across its middle."""

    across: np.ndarray
    along: np.ndarray
    colours: np.ndarray
    middles: np.ndarray


def patches(image_lab: np.ndarray, lat: Lattice) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """One pitch around every side between columns, between rows and every cell of a lattice (:func:`assemble`)."""
    return assemble(mosaic(image_lab, corners(lat), SIDE))


def measure(image_lab: np.ndarray, lat: Lattice, skip: float = 0.0, ring: bool = False) -> Measures:
    """The measures of a lattice, the sides' lines without ``skip`` of them round their
    middles, the cells' colours of their inner halves or (``ring``) of the bands along their sides."""
    across, along, cells = patches(image_lab, lat)
    return Measures(line_strength(across, skip=skip), line_strength(along, skip=skip), colour_features(cells, ring),
                    np.maximum(line_strength(cells), line_strength(np.swapaxes(cells, -3, -2))))


def pairs(cells: np.ndarray, joined: Callable[[np.ndarray, np.ndarray], np.ndarray] = np.logical_and
          ) -> tuple[np.ndarray, np.ndarray]:
    """Per side between two cells, between columns (rows, cols-1) and between rows (rows-1,
    cols): ``joined`` of the mask ``cells`` on its two sides (both, by default)."""
    return joined(cells[:, :-1], cells[:, 1:]), joined(cells[:-1], cells[1:])


def rim_sides(found: Measures, cells: np.ndarray) -> np.ndarray:
    """The line strengths on the board's rim beside the ``cells`` (a rows × cols mask)."""
    return np.concatenate([found.across[:, 0][cells[:, 0]], found.across[:, -1][cells[:, -1]],
                           found.along[0][cells[0]], found.along[-1][cells[-1]]])


def side_weights(owner: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """The calibration's weights on the sides (between columns, between rows) from the
    owner of every cell (-1 the floor): +1 a side that is an edge (between two pieces, a
    piece and the floor, on the rim), -1 one inside a piece or between two empty cells."""
    padded = np.pad(owner, 1, constant_values=-2)
    across = np.where(padded[1:-1, :-1] == padded[1:-1, 1:], -1.0, 1.0)
    along = np.where(padded[:-1, 1:-1] == padded[1:, 1:-1], -1.0, 1.0)
    return across, along


def reading_weights(rows: int, cols: int) -> tuple[np.ndarray, np.ndarray]:
    """A reading's weights: every side 1, the rim's RIM."""
    across, along = np.ones((rows, cols + 1)), np.ones((rows + 1, cols))
    across[:, [0, -1]] = RIM
    along[[0, -1], :] = RIM
    return across, along


def _line_maps(work: np.ndarray, pitch: int) -> tuple[np.ndarray, np.ndarray]:
    """Straight-line strength everywhere in a picture at ``pitch`` px a pitch, as
    :func:`line_strength` measures it on half a pitch along: across x (a vertical line) and
    across y."""
    out = []
    for dx, dy, along in ((1, 0, (1, pitch // 2)), (0, 1, (pitch // 2, 1))):
        g = cv2.Sobel(work, cv2.CV_32F, dx, dy, ksize=3, scale=1 / 8)
        mean = cv2.blur(g, along)
        straight = cv2.transform(cv2.multiply(mean, mean), SUM)
        size = cv2.blur(cv2.sqrt(cv2.transform(cv2.multiply(g, g), SUM)), along)
        out.append(straight / (size + FLAT))
    return out[0], out[1]


def _octaves(image_lab: np.ndarray) -> list[np.ndarray]:
    """The picture halved and halved again while it is longer than 128 px."""
    levels = [image_lab]
    while max(levels[-1].shape[:2]) > 128:
        levels.append(cv2.pyrDown(levels[-1]))
    return levels


def pitches(shape: tuple[int, ...], rows: int, cols: int) -> list[float]:
    """The pitches a search tries in a picture of ``shape``: from the board filling it down,
    PITCH_STEP apart, to the board spanning 1/SMALLEST of its short side (at least 6 px)."""
    h, w = shape[:2]
    found, pitch = [], min(w / cols, h / rows)
    while pitch >= max(6.0, min(h, w) / (SMALLEST * max(rows, cols))):
        found.append(pitch)
        pitch /= PITCH_STEP
    return found


def search(image_lab: np.ndarray, weights: tuple[np.ndarray, np.ndarray],
           floor: tuple[np.ndarray, float, int] | None = None) -> list[tuple[float, Lattice]]:
    """The :func:`candidates` at every pitch, best first, each unlike the ones before."""
    return distinct(candidates(image_lab, weights, floor))


def distinct(found: list[tuple[float, Lattice]]) -> list[tuple[float, Lattice]]:
    """Scored rough lattices, best first, each unlike the ones before (another pitch or place)."""
    kept: list[tuple[float, Lattice]] = []
    for score, lat in sorted(found, key=lambda item: -item[0]):
        if not any(abs(lat.px / other.px - 1) < 0.1 and abs(lat.x0 - other.x0) < 0.3 * lat.px
                   and abs(lat.y0 - other.y0) < 0.3 * lat.py for _, other in kept):
            kept.append((score, lat))
    return kept


def candidates(image_lab: np.ndarray, weights: tuple[np.ndarray, np.ndarray],
               floor: tuple[np.ndarray, float, int] | None = None,
               tried: list[float] | None = None) -> list[tuple[float, Lattice]]:
    """Rough lattices (square pitch) of the weights' cells, scored by the weighted line
    strength on their sides (per unit weight), the best few origins a pitch. With
    ``floor`` (the floor's colour features, the tolerance, the count of empty cells) the
    lattices with as many cells of the floor's colour score highest (a lattice of a
    fraction of the pitch finds the lines of the pieces' edges too, but no floor cells).
    ``tried``: the pitches searched (default: :func:`pitches`)."""
    w_across, w_along = weights
    rows, cols = w_across.shape[0], w_along.shape[1]
    # the sides, and against them the lines down and across every cell's middle (a piece's
    # inside: a texture's lines show there as much as on the sides)
    middle = -(w_across.clip(0).sum() + w_along.clip(0).sum()) / (2 * rows * cols)
    points = [(r * WORK + WORK // 2, c * WORK, wt, 0) for (r, c), wt in np.ndenumerate(w_across) if wt] + \
             [(r * WORK, c * WORK + WORK // 2, wt, 1) for (r, c), wt in np.ndenumerate(w_along) if wt] + \
             [(r * WORK + WORK // 2, c * WORK + WORK // 2, middle, which)
              for r in range(rows) for c in range(cols) for which in (0, 1)]
    total = float(np.abs(w_across).sum() + np.abs(w_along).sum())
    spots = [tuple(np.array([point[i] for point in points if point[3] == which]) for i in range(3)) for which in (0, 1)]
    kernels = [np.zeros((rows * WORK + 1, cols * WORK + 1), np.float32) for _ in range(2)]     # the weights at their places
    for y, x, wt, which in points:
        kernels[which][y, x] += wt
    found = []
    levels = _octaves(image_lab)
    for pitch in pitches(image_lab.shape, rows, cols) if tried is None else tried:
        k = WORK / pitch
        level = min(len(levels) - 1, max(0, int(np.floor(np.log2(1 / k)))))
        g = k * 2 ** level
        work = cv2.resize(levels[level], None, fx=g, fy=g, interpolation=cv2.INTER_AREA if g < 1 else cv2.INTER_LINEAR)
        maps = [cv2.dilate(m, np.ones(shape, np.uint8)) for m, shape in zip(_line_maps(work, WORK), ((1, 5), (5, 1)))]
        vh, vw = work.shape[0] - rows * WORK, work.shape[1] - cols * WORK
        if vh >= 1 and vw >= 1:
            # every origin at once: the maps' windows at the points, weighed; many origins by correlation with the
            # weights (OpenCV's DFT), fewer by the windows summed
            score = sum(cv2.filter2D(m, -1, kernel, anchor=(0, 0), borderType=cv2.BORDER_CONSTANT)[:vh, :vw]
                        if vh * vw > MANY_ORIGINS else
                        np.tensordot(wts, np.lib.stride_tricks.sliding_window_view(m, (vh, vw))[ys, xs], 1)
                        for m, (ys, xs, wts), kernel in zip(maps, spots, kernels)) / total
            if floor is not None:
                examples, tolerance, empties = floor
                colours = cv2.blur(work, (WORK // 2, WORK // 2))
                far = np.min([cv2.transform(cv2.multiply(d, d), SUM) for d in (colours - e for e in examples[:, :3])], axis=0)
                like = (far <= tolerance ** 2).astype(np.float32)     # nearest(), squared, in OpenCV: a tenth of the time
                count = sum(like[r * WORK + WORK // 2:r * WORK + WORK // 2 + vh, c * WORK + WORK // 2:c * WORK + WORK // 2 + vw]
                            for r in range(rows) for c in range(cols))
                score -= MISSED_FLOOR * np.abs(count - empties)
            for _ in range(PER_PITCH):
                y, x = np.unravel_index(int(score.argmax()), score.shape)
                if not np.isfinite(score[y, x]):
                    break
                found.append((float(score[y, x]), Lattice((x + WORK / 2 + 0.5) / k - 0.5, (y + WORK / 2 + 0.5) / k - 0.5,
                                                          pitch, pitch, rows, cols)))
                score[max(0, y - WORK // 2):y + WORK // 2 + 1, max(0, x - WORK // 2):x + WORK // 2 + 1] = -np.inf
    return found


def fit(image_lab: np.ndarray, lat: Lattice, weights: tuple[np.ndarray, np.ndarray], rounds: int = 3) -> Lattice:
    """The lattice moved and stretched onto the lines its sides between cells show (a
    frame's lines beside the rim would pull it off the pieces'): the lines between
    columns (rows), evenly spaced, moved and stretched together to where the weighted line
    strength along them sums highest (:func:`_stretched`), a few rounds."""
    w_across, w_along = weights[0][:, 1:-1].clip(0), weights[1][1:-1, :].clip(0)
    h, w = image_lab.shape[:2]
    for _ in range(rounds):
        # the board and a pitch around it, at FIT_SIDE px a pitch
        (left, top), (right, bottom) = lat.centre(-1.5, -1.5), lat.centre(lat.rows + 0.5, lat.cols + 0.5)
        ox, oy = max(0, int(left)), max(0, int(top))
        part = image_lab[oy:max(oy + 1, min(h, int(bottom) + 1)), ox:max(ox + 1, min(w, int(right) + 1))]
        kx, ky = FIT_SIDE / lat.px, FIT_SIDE / lat.py
        if min(lat.rows, lat.cols) < 3 or not (w_across.any() and w_along.any()):
            return lat
        work = cv2.resize(part, None, fx=kx, fy=ky, interpolation=cv2.INTER_AREA if kx < 1 else cv2.INTER_LINEAR)
        lat = lat.moved(-ox, -oy)
        # the lines between columns measured along the rows' middles only, and the lines between rows along the columns'
        across = _line_rows(work, [(lat.y0 + r * lat.py + 0.5) * ky - 0.5 for r in range(lat.rows)])
        along = _line_rows(work, [(lat.x0 + c * lat.px + 0.5) * kx - 0.5 for c in range(lat.cols)], True)
        xs = _stretched(across, [(lat.x0 + (c - 0.5) * lat.px + 0.5) * kx - 0.5 for c in range(1, lat.cols)], w_across.T)
        ys = _stretched(along, [(lat.y0 + (r - 0.5) * lat.py + 0.5) * ky - 0.5 for r in range(1, lat.rows)], w_along)
        (px, x0), (py, y0) = (np.polyfit([i + 0.5 for i in range(len(v))], [(x + 0.5) / k - 0.5 for x in v], 1)
                              for v, k in ((xs, kx), (ys, ky)))
        lat = Lattice(float(x0) + ox, float(y0) + oy, float(px), float(py), lat.rows, lat.cols)
    return lat


def _line_rows(work: np.ndarray, places: list[float], turned: bool = False) -> np.ndarray:
    """Per place (a y, rounded into the picture): the strength of a straight line down
    ``work`` (FIT_SIDE px a pitch) at every x, measured over half a pitch round that y
    (:func:`_line_maps`' measure across x, only where the fit looks): (places, width).
    ``turned``: of the picture turned (its x for y): lines across it, at places along x."""
    h, w, half = *(work.shape[1::-1] if turned else work.shape[:2]), FIT_SIDE // 2
    # the rows of half a pitch round each place and one more each side for the Sobel, the picture's border
    # reflected as OpenCV's filters do; each band filtered alone
    rows = np.array([min(h - 1, max(0, round(y))) for y in places])[:, None] + np.arange(-1, half + 1) - half // 2
    rows = np.abs(rows)
    rows = np.abs(np.where(rows > h - 1, 2 * (h - 1) - rows, rows)).clip(0, h - 1)
    bands = (work[:, rows.ravel()].transpose(1, 0, 2) if turned else work[rows.ravel()]).reshape(len(places), half + 2, w, -1)
    g = np.stack([cv2.Sobel(np.ascontiguousarray(band), cv2.CV_32F, 1, 0, ksize=3, scale=1 / 8)[1:-1] for band in bands])
    flat = g.reshape(-1, w, g.shape[-1])
    size = cv2.sqrt(cv2.transform(cv2.multiply(flat, flat), SUM)).reshape(len(places), half, w).mean(axis=1)
    straight = (g.mean(axis=1) ** 2).sum(axis=-1)
    return straight / (size + FLAT)


def _profiles(strength: np.ndarray, weights: np.ndarray) -> np.ndarray:
    """Per line (``weights``' rows): the line strengths at its places (:func:`_line_rows`) summed times the
    weights, blurred by GAP_BLUR."""
    return cv2.GaussianBlur((weights @ strength).astype(np.float32), (0, 1), GAP_BLUR)


def _stretched(strength: np.ndarray, lines: list[float], weights: np.ndarray) -> list[float]:
    """The ``lines`` (evenly spaced x in ``strength``, :func:`_line_rows` at the places the weights weigh) moved and stretched together, by
    up to STRETCH of the spacing and FIT_REACH of a pitch, to where the weighted line
    strength along them sums highest (each line alone drifts to either side of a gap, or,
    a rough pitch a step or two off, onto a portrait's strokes)."""
    profiles = _profiles(strength, weights)
    w = profiles.shape[1]
    mid = float(np.mean(lines))
    offsets = np.array(lines) - mid
    reach = round(FIT_REACH * FIT_SIDE)
    shifts = np.arange(-reach, reach + 1)
    weighed = int(weights.any(axis=1).sum())           # one line alone says nothing of the spacing
    scales = np.linspace(1 - STRETCH, 1 + STRETCH, 61) if weighed > 1 else np.ones(1)
    # every scale and shift at once: (scales, shifts, lines); the first best, the least scale and shift
    spots = np.round(mid + shifts[None, :, None] + scales[:, None, None] * offsets[None, None, :]).astype(int)
    inside = (spots >= 0) & (spots < w)
    score = np.where(inside, profiles[np.arange(len(lines)), spots.clip(0, w - 1)], 0).sum(axis=2)
    i, k = np.unravel_index(int(score.argmax()), score.shape)
    return [mid + int(shifts[k]) + float(scales[i]) * o for o in offsets]


def nearest(features: np.ndarray, examples: np.ndarray) -> np.ndarray:
    """Each feature's distance to its nearest example."""
    return np.sqrt(((features[..., None, :] - examples) ** 2).sum(axis=-1)).min(axis=-1)


# ---------------------------------------------------------------------------- reading

def _split(lines: np.ndarray, look: PieceLook) -> tuple[float, float] | None:
    """The strongest inside and the weakest edge among the line strengths of the sides
    between cells: where the sorted strengths jump the most (by ratio, at least LINE_GAP),
    the jump within the calibration's bounds (the insides below its weakest edge, the
    edges above its strongest inside); None when no such jump parts them. A picture at
    another size or through JPEG scales every line alike, so the jump stays where the
    fixed bounds may not."""
    values = np.sort(np.maximum(lines, FLAT))
    best = None
    for low, high in zip(values[:-1], values[1:]):
        if low <= look.edge_least and high >= look.inside_most and high >= LINE_GAP * low \
                and (best is None or high / low > best[1] / best[0]):
            best = (float(low), float(high))
    return best


def board_of(found: Measures, look: PieceLook) -> tuple[Board | None, str]:
    """The board a lattice's measures show, or None and why they show none."""
    rows, cols = look.grid
    d_floor, d_piece = nearest(found.colours, look.floor), nearest(found.colours, look.piece)
    floor = (d_floor <= look.floor_tolerance) & (d_floor <= CLEAR_SHARE * (d_floor + d_piece))
    # a piece unlike the calibration's (another portrait) is still far from the floor
    piece = (d_floor > look.floor_tolerance) & ((d_piece <= CLEAR_SHARE * (d_floor + d_piece))
                                                | (d_floor > FAR_FLOOR * look.floor_tolerance))
    if not (floor | piece).all():
        r, c = np.argwhere(~(floor | piece))[0]
        return None, f"cell ({r}, {c}) looks neither like the floor nor like a piece"
    middle = max(look.edge_least, MIDDLE_FACTOR * look.middle_most)
    if (found.middles >= middle).any():
        r, c = np.argwhere(found.middles >= middle)[0]
        return None, f"a straight edge runs through cell ({r}, {c}) (a piece mid-slide?)"
    inner = found.across[:, 1:-1], found.along[1:-1]
    # with the floor's own bound, only the sides between two piece cells are parted by their strengths (a name
    # painted across a piece's own middle side may be stronger than where a piece meets the floor)
    parted = inner if look.floor_edge is None else [v[both] for v, both in zip(inner, pairs(piece))]
    split = _split(np.concatenate([v.ravel() for v in parted]), look)
    if split is None:
        return None, "a side between two cells is neither clearly a piece's edge nor its inside"
    (edge_a, inside_a), (edge_b, inside_b) = ((lines >= split[1], lines <= split[0]) for lines in (found.across, found.along))
    by_floor = [v[mixed] for v, mixed in zip(inner, pairs(piece, np.not_equal))]
    # the rim: every side an edge when the calibration's was (as strong as the weakest edge of any kind would
    # be, halfway from the strongest inside); else a floor cell may meet the frame unseen
    weakest = min([split[1], *(float(v.min()) for v in by_floor if v.size)])
    if look.rim and not (rim_sides(found, piece) >= (split[0] * weakest) ** 0.5).all():
        return None, "a piece on the board's rim shows no edge there"
    least = split[1] if look.floor_edge is None else look.floor_edge
    if any((v < least).any() for v in by_floor):
        return None, "a piece meets the floor with no edge between them"
    label = -np.ones((rows, cols), int)
    for r, c in zip(*np.nonzero(piece)):
        if label[r, c] >= 0:
            continue
        label[r, c] = r * cols + c
        stack = [(r, c)]
        while stack:
            y, x = stack.pop()
            for ny, nx, joined in ((y, x + 1, inside_a[y, x + 1]), (y, x - 1, inside_a[y, x]),
                                   (y + 1, x, inside_b[y + 1, x]), (y - 1, x, inside_b[y, x])):
                if 0 <= ny < rows and 0 <= nx < cols and joined and piece[ny, nx] and label[ny, nx] < 0:
                    label[ny, nx] = label[r, c]
                    stack.append((ny, nx))
    pieces = []
    for name in np.unique(label[label >= 0]):
        where = np.argwhere(label == name)
        (r0, c0), (r1, c1) = where.min(axis=0), where.max(axis=0)
        if len(where) != (r1 - r0 + 1) * (c1 - c0 + 1) or not (inside_a[r0:r1 + 1, c0 + 1:c1 + 1].all()
                                                                and inside_b[r0 + 1:r1 + 1, c0:c1 + 1].all()):
            return None, f"the piece at cell ({r0}, {c0}) is no rectangle"
        pieces.append(Piece(f"p{len(pieces)}", int(r0), int(c0), int(r1 - r0 + 1), int(c1 - c0 + 1)))
    empties = int((~piece).sum())
    if empties != look.empty_cells:
        return None, f"{empties} empty cells, where the calibration's position has {look.empty_cells}"
    if len(pieces) != look.pieces:
        return None, f"{len(pieces)} pieces, where the calibration's position has {look.pieces}"
    strange = sorted({p.shape for p in pieces} - look.shapes)
    if strange:
        return None, f"a piece of {strange[0][0]}×{strange[0][1]} cells, a shape the calibration did not show"
    targets = [p for p in pieces if p.shape == look.target]
    if len(targets) != 1:
        return None, f"{len(targets)} pieces of the target's shape {look.target[0]}×{look.target[1]}"
    try:
        return Board.make(rows, cols, pieces, targets[0].name).relabelled(), ""
    except BoardError as exc:
        return None, f"the pieces make no Klotski board ({exc})"


def read(image: np.ndarray, look: PieceLook) -> tuple[Lattice, Board]:
    """The lattice and board a screenshot shows in a learnt look; NoBoardFound with the
    reason of the best-scored lattice when no lattice tried shows one. The pitches near the
    calibration's share of the picture's width are searched first and their best NEAR_TRIED
    lattices judged; only when none is a board is every other pitch searched, and the best
    of the rest judged."""
    image_lab = lab(image)
    rows, cols = look.grid
    h, w = image.shape[:2]
    weights = reading_weights(rows, cols)
    reasons = []
    # an outlined piece's inside is the floor's colour: no count of floor cells to go by
    floor = None if look.ring else (look.floor, look.floor_tolerance, look.empty_cells)
    every = pitches(image.shape, rows, cols)
    near = [p for p in every if look.pitch_share
            and abs(np.log(p / (look.pitch_share * w))) <= NEAR_STEPS * np.log(PITCH_STEP)]
    at_near = candidates(image_lab, weights, floor, near) if near else []
    first = distinct(at_near)[:NEAR_TRIED]

    def rest() -> list[tuple[float, Lattice]]:        # the best of every pitch, less those judged
        best = distinct(at_near + candidates(image_lab, weights, floor, [p for p in every if p not in near]))
        return [item for item in best if item not in first][:MOST_TRIED]
    for stage in (lambda: first, rest):
        for _, rough in stage():
            lat = fit(image_lab, rough, weights)
            # fitted again to the sides that look like edges, as the calibration's lattice was
            found = measure(image_lab, lat, look.skip, look.ring)
            cut = (look.inside_most * look.edge_least) ** 0.5
            lat = fit(image_lab, lat, (np.where(found.across >= cut, 1.0, 0.0), np.where(found.along >= cut, 1.0, 0.0)), 1)
            if lat.x0 - lat.px / 2 < 0 or lat.y0 - lat.py / 2 < 0 or lat.x0 + (cols - 0.5) * lat.px > w - 1 \
                    or lat.y0 + (rows - 0.5) * lat.py > h - 1:
                reasons.append("the board may go on past the picture's edge")
                continue
            board, reason = board_of(measure(image_lab, lat, look.skip, look.ring), look)
            if board is not None:
                return lat, board
            reasons.append(reason)
    raise NoBoardFound(f"the learnt look reads no board: {reasons[0] if reasons else 'no grid of straight sides'}")


def parse(image: np.ndarray, profile: Profile) -> Parse[Any]:
    """Read a Klotski board with a learnt profile (``vision.lattice.parse`` hands it here)."""
    from vision.klotski import KlotskiGeometry, check_playable

    lat, board = read(image, look_of(profile))
    check_playable(board)
    cells = [lat.centre(r, c) for r in range(lat.rows) for c in range(lat.cols)]
    geometry = KlotskiGeometry(lat.rows, lat.cols, (lat.x0 - lat.px / 2, lat.y0 - lat.py / 2), (lat.px, lat.py),
                               0.0, "edges")
    return Parse("klotski", board, 1.0, cells, geometry)


# ---------------------------------------------------------------------------- the profile

def section(look: PieceLook) -> dict[str, Any]:
    """profile.json's ``lattice`` section for a look."""
    return {"version": LATTICE_VERSION, "kind": "pieces", "grid": list(look.grid), "empty_cells": look.empty_cells,
            "pieces": look.pieces, "shapes": sorted(list(s) for s in look.shapes), "target": list(look.target),
            "floor": np.round(look.floor.astype(float), 2).tolist(), "piece": np.round(look.piece.astype(float), 2).tolist(),
            "floor_tolerance": round(look.floor_tolerance, 2), "inside_most": round(look.inside_most, 2),
            "edge_least": round(look.edge_least, 2), "middle_most": round(look.middle_most, 2), "rim": look.rim,
            "skip": look.skip, "ring": look.ring,
            **({} if look.floor_edge is None else {"floor_edge": round(look.floor_edge, 2)})}


def look_of(profile: Profile) -> PieceLook:
    """The learnt Klotski look a profile holds; ProfileError naming the field when one is malformed."""
    data = profile.get("lattice", dict)

    def field(key: str, check: Callable[[Any], bool], what: str) -> Any:
        value = data.get(key)
        if not check(value):
            raise ProfileError(f"profile {profile.name}: field 'lattice.{key}' must be {what}")
        return value

    def count(v: Any) -> bool:
        return isinstance(v, int) and not isinstance(v, bool) and 0 <= v <= 10_000

    def number(v: Any) -> bool:
        return isinstance(v, (int, float)) and not isinstance(v, bool) and 0 <= v < 1e4

    def pair(v: Any) -> bool:
        return isinstance(v, list) and len(v) == 2 and all(count(n) and n > 0 for n in v)

    def features(v: Any) -> bool:
        return isinstance(v, list) and 0 < len(v) <= 10_000 and all(
            isinstance(f, list) and len(f) == 6 and all(number(n) for n in f) for f in v)

    field("version", lambda v: v == LATTICE_VERSION, f"{LATTICE_VERSION} (calibrate again)")
    grid = field("grid", pair, "[rows, cols]")
    shapes = field("shapes", lambda v: isinstance(v, list) and 0 < len(v) <= 100 and all(pair(s) for s in v),
                   "a list of [height, width]")
    inside, edge = field("inside_most", number, "a number"), field("edge_least", number, "a number")
    if inside >= edge:
        raise ProfileError(f"profile {profile.name}: field 'lattice.inside_most' must be below 'lattice.edge_least'")
    return PieceLook((grid[0], grid[1]), field("empty_cells", count, "a whole number"),
                     field("pieces", count, "a whole number"), frozenset((h, w) for h, w in shapes),
                     tuple(field("target", pair, "[height, width]")),  # type: ignore[arg-type]
                     np.array(field("floor", features, "a list of 6 numbers a cell"), np.float32),
                     np.array(field("piece", features, "a list of 6 numbers a cell"), np.float32),
                     float(field("floor_tolerance", number, "a number")), float(inside), float(edge),
                     float(field("middle_most", number, "a number")),
                     field("rim", lambda v: isinstance(v, bool), "true or false"),
                     float(field("skip", lambda v: v in SKIPS, f"one of {list(SKIPS)}")) if "skip" in data else 0.0,
                     field("ring", lambda v: isinstance(v, bool), "true or false") if "ring" in data else False,
                     profile.positive("pitch_share"),
                     float(field("floor_edge", number, "a number")) if "floor_edge" in data else None)
