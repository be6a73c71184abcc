"""GNOME Klotski's window: its board read from the game's own colours.

The game draws every block and wall with one bevelled blue tile, gates (cells only the
target passes) as green blocks, goal cells as small green dots on the floor, the target
with a bright mark at the centre of each of its cells, and a thin dark line around the
board, whose inside is the grid (square cells, the first a couple of pixels in).

Stages:
1. ``find_frame``: the blue of the tiles and the dark line around them; no such line
   around them: not this game (None, and the other readers try);
2. ``fit_pitch``: the pitch is a whole number of pixels, the left sides of the tiles (their
   light bevel; not the target's marks, whose light side is as long in a large window)
   lie on it, and the grid fills the line's inside to less than a cell;
3. ``read_cells``: the middle of every cell is tile, target, gate, goal dot or floor, and
   nothing else (a block caught mid-drag, a dialog over the board: refused);
4. ``joined``, ``to_board``: neighbouring tile cells are one block when tile colour runs across their
   border, apart when floor or shadow shows there (else refused); blocks that reach the
   board's edge or a row of gates at both its ends are walls (the game's frames do, and a
   gate is an opening in a frame), the others move; one closing round other cells may be
   a wall inside the frame (refused), and so may a block at the edge with room to move
   alone among the frames (Ithaca's move in the game, which draws walls and blocks alike:
   refused; a frame is a block that is no rectangle, or one at a gate row's end);
5. ``to_board``: the goal dots must make the target's shape (a dot under a block cannot be seen), and the
   target may not stand in an opening of the frame (a gate under it cannot be seen).
"""
from __future__ import annotations

from dataclasses import dataclass

import cv2
import numpy as np

from solvers.common import BoardError
from solvers.klotski import Board, Piece
from vision.common import NoBoardFound, Parse
from vision.components import components

# The game's colours (BGR): they are its tile pictures', not the desktop theme's.
TILE = (164, 101, 52)           # a block's or a wall's face
MARK = (209, 114, 49)           # the target's marks
BEVEL = (191, 147, 105)         # a tile's left side
LINE = (54, 52, 46)             # the line around the board
FLOOR_LEVEL = 225               # the floor is lighter than this, and grey
TOLERANCE = 6
MIN_TILE_PIXELS = 400           # fewer tile-blue pixels: not this game
INSET = 2                       # px: a tile's left side from its cell's
MIDDLE = 0.44                   # a tile's face is centred this far into its cells
SIDE_RUN = 10                   # px: the shortest tile's side (the target's marks are shorter)


@dataclass(frozen=True)
class Frame:
    """The inside of the line around the board (x0, y0 inclusive; x1, y1 exclusive)."""

    x0: int
    y0: int
    x1: int
    y1: int


def parse(image_bgr: np.ndarray) -> Parse | None:
    """The board in a GNOME Klotski window; None when the picture shows none of its tiles
    inside its line (another game, another Klotski); NoBoardFound when it shows them but
    the board cannot be read for sure."""
    frame = find_frame(image_bgr)
    if frame is None:
        return None
    inside = image_bgr[frame.y0:frame.y1, frame.x0:frame.x1]
    pitch, rows, cols = fit_pitch(inside)
    kinds = read_cells(inside, pitch, rows, cols)
    board = to_board(inside, pitch, kinds)
    from vision.klotski import KlotskiGeometry    # vision.klotski tries this reader first

    origin = (float(frame.x0), float(frame.y0))
    centres = [(origin[0] + (c + 0.5) * pitch, origin[1] + (r + 0.5) * pitch)
               for r in range(rows) for c in range(cols)]
    geometry = KlotskiGeometry(rows, cols, origin, (float(pitch), float(pitch)), float(INSET))
    return Parse("klotski", board, 1.0, centres, geometry)


def near(image: np.ndarray, colour: tuple[int, int, int], tolerance: int = TOLERANCE) -> np.ndarray:
    """Where the picture has the colour, within ``tolerance`` per channel."""
    lo = tuple(max(0, v - tolerance) for v in colour)
    hi = tuple(min(255, v + tolerance) for v in colour)
    return cv2.inRange(image, lo, hi) > 0


def find_frame(image: np.ndarray) -> Frame | None:
    """The inside of the dark line around the tiles, or None (no tiles, no line)."""
    if near(np.ascontiguousarray(image[::4, ::4]), TILE).sum() < MIN_TILE_PIXELS // 16:
        return None         # a glance at every fourth pixel both ways: no tiles
    tiles = near(image, TILE).view(np.uint8)
    if cv2.countNonZero(tiles) < MIN_TILE_PIXELS:
        return None
    tx, ty, tw, th = cv2.boundingRect(tiles)      # the tiles' box
    line = near(image, LINE, 10)

    def around(x: int, y: int, w: int, h: int) -> bool:
        return x < tx and y < ty and x + w > tx + tw and y + h > ty + th

    # no line round them when the line's colour does not reach past the tiles on every side
    # (a desktop's blue and its dark bar): spares labelling the line's colour
    if not around(*cv2.boundingRect(line.view(np.uint8))):
        return None
    _, _, stats = components(line)
    for x, y, w, h, area in stats.tolist():
        if not around(x, y, w, h):
            continue
        box = line[y:y + h, x:x + w]
        # a one-pixel outline: its four sides full, little else of the line's colour
        if box[0].all() and box[-1].all() and box[:, 0].all() and box[:, -1].all() and area < 2 * (w + h) + 8:
            return Frame(x + 1, y + 1, x + w - 1, y + h - 1)
    return None


def fit_pitch(inside: np.ndarray) -> tuple[int, int, int]:
    """(pitch, rows, cols): the largest whole pitch on which every tile's left side lies
    and that fills the inside to less than a cell both ways."""
    height, width = inside.shape[:2]
    bevel = near(inside, BEVEL, 4) & ~around_marks(inside)
    edge = [x for x in range(width) if _longest_run(bevel[:, x]) >= SIDE_RUN]
    sides = [x for x in edge if x - 1 not in edge]
    if not sides:
        raise NoBoardFound("GNOME Klotski: no tile's side found")
    for cols in range(1, width // 8 + 1):
        pitch = width // cols
        rows = height // pitch
        if rows and width - cols * pitch < cols and height - rows * pitch < rows \
                and all((x - INSET) % pitch in (0, 1, pitch - 1) for x in sides):
            return pitch, rows, cols
    raise NoBoardFound("GNOME Klotski: the tiles lie on no grid")


def around_marks(inside: np.ndarray) -> np.ndarray:
    """Where the target's marks are: each mark's box and as much again on every side. A
    mark has a light side of the bevel's colour, as long as a tile's shortest side once
    the window is large (at 98 px cells, 10 px)."""
    out = np.zeros(inside.shape[:2], bool)
    _, _, stats = components(near(inside, MARK))
    for x, y, w, h, _ in stats.tolist():
        out[max(0, y - h):y + 2 * h, max(0, x - w):x + 2 * w] = True
    return out


def _longest_run(column: np.ndarray) -> int:
    """The longest run of True in a column."""
    if not column.any():
        return 0
    steps = np.diff(np.concatenate(([0], column.astype(np.int8), [0])))
    return int((np.nonzero(steps < 0)[0] - np.nonzero(steps > 0)[0]).max())


def _patch(inside: np.ndarray, x0: float, y0: float, x1: float, y1: float) -> np.ndarray:
    return inside[int(round(y0)):int(round(y1)), int(round(x0)):int(round(x1))]


def _green(patch: np.ndarray) -> np.ndarray:
    """Where the patch is one of the greens of a gate's bevels and face or of a dot."""
    b, g, r = (patch[..., i].astype(np.int16) for i in range(3))
    return (g >= 60) & (g * 10 > r * 14) & (g > 2 * b)


def _floor(patch: np.ndarray) -> np.ndarray:
    spread = patch.max(axis=2).astype(np.int16) - patch.min(axis=2)
    return (patch.min(axis=2) >= FLOOR_LEVEL) & (spread <= 8)


def read_cells(inside: np.ndarray, pitch: int, rows: int, cols: int) -> list[list[str]]:
    """What the middle of every cell shows: ``block``, ``target``, ``gate``, ``dot`` or
    ``floor``; NoBoardFound naming the first cell that shows none of them."""
    half = max(2, pitch // 5)
    kinds = []
    for r in range(rows):
        row = []
        for c in range(cols):
            cx, cy = (c + MIDDLE) * pitch, (r + MIDDLE) * pitch
            patch = _patch(inside, cx - half, cy - half, cx + half, cy + half)
            tile, mark, green, floor = (near(patch, TILE).mean(), near(patch, MARK).mean(),
                                        _green(patch).mean(), _floor(patch).mean())
            if mark >= 0.03 and tile >= 0.3:
                row.append("target")
            elif tile >= 0.9:
                row.append("block")
            elif green >= 0.9:
                row.append("gate")
            elif 0.05 <= green <= 0.6 and floor >= 0.15 and not tile:
                row.append("dot")
            elif floor >= 0.9 and not green:
                row.append("floor")
            else:
                raise NoBoardFound(f"GNOME Klotski: cell ({r}, {c}) shows no tile, gate, dot or floor "
                                   "(a block mid-drag, or something over the board?)")
        kinds.append(row)
    return kinds


def joined(inside: np.ndarray, pitch: int, a: tuple[int, int], b: tuple[int, int]) -> bool:
    """Whether tile cells a and b (b right of or below a) are one block: tile colour runs
    across their border; apart when floor or shadow shows on it; else NoBoardFound."""
    half = max(2, pitch // 5)
    (r, c), (r2, c2) = a, b
    if c2 > c:
        x, y = c2 * pitch, (r + MIDDLE) * pitch
        patch = _patch(inside, x - 3, y - half, x + 3, y + half)
    else:
        x, y = (c + MIDDLE) * pitch, r2 * pitch
        patch = _patch(inside, x - half, y - 3, x + half, y + 3)
    tile = (near(patch, TILE) | near(patch, MARK)).mean()
    if tile >= 0.9:
        return True
    if (_floor(patch) | (patch.max(axis=2) < 60)).mean() >= 0.15:
        return False
    raise NoBoardFound(f"GNOME Klotski: cannot tell whether cells {a} and {b} are one block")


def to_board(inside: np.ndarray, pitch: int, kinds: list[list[str]]) -> Board:
    """The board of the cells read: blocks joined across their borders, the ones reaching
    the board's edge walls, the one with marks the target."""
    rows, cols = len(kinds), len(kinds[0])
    tiles = {(r, c) for r in range(rows) for c in range(cols) if kinds[r][c] in ("block", "target")}
    blocks: list[set[tuple[int, int]]] = []
    left = set(tiles)
    while left:
        block, todo = set(), [min(left)]
        left.discard(todo[0])
        while todo:
            r, c = todo.pop()
            block.add((r, c))
            for n in ((r, c + 1), (r + 1, c), (r, c - 1), (r - 1, c)):
                if n in left and joined(inside, pitch, min((r, c), n), max((r, c), n)):
                    left.discard(n)
                    todo.append(n)
        blocks.append(block)
    targets = [b for b in blocks if any(kinds[r][c] == "target" for r, c in b)]
    if len(targets) != 1 or any(kinds[r][c] != "target" for r, c in targets[0]):
        raise NoBoardFound("GNOME Klotski: not one target (the marked block)")
    target = targets[0]
    gates = {(r, c) for r in range(rows) for c in range(cols) if kinds[r][c] == "gate"}
    framing = gate_ends(gates, tiles)
    edge = [b for b in blocks if b is not target and any(
        r in (0, rows - 1) or c in (0, cols - 1) or (r, c) in framing for r, c in b)]
    walls = set().union(*edge, set())
    frames = [b for b in edge if not plain(b) or b & framing]
    if any(not b & framing and could_move(b, set().union(*(f for f in frames if f is not b), gates), rows, cols)
           for b in edge):
        raise NoBoardFound("GNOME Klotski: a block at the board's edge could be a wall or a piece "
                           "(the game draws both alike, and it has room to move)")
    dots = {(r, c) for r in range(rows) for c in range(cols) if kinds[r][c] == "dot"}
    if _normalised(dots) != _normalised(target):
        raise NoBoardFound("GNOME Klotski: the goal dots do not make the target's shape "
                           "(one under a block?, or the puzzle is solved)")
    if in_opening(target, walls, gates):
        raise NoBoardFound("GNOME Klotski: the target stands in the frame's opening "
                           "(a gate under it cannot be seen)")
    pieces = [_piece("C" if b is target else f"p{i}", b) for i, b in enumerate(blocks)
              if b is target or not b <= walls]
    if any(encloses(p.cells()) for p in pieces if p.name != "C"):
        raise NoBoardFound("GNOME Klotski: a block closes round other cells (a wall inside the frame, "
                           "drawn as blocks are?)")
    try:
        return Board.make(rows, cols, pieces, "C", None, frozenset(walls), frozenset(gates),
                          frozenset(dots)).relabelled()
    except BoardError as exc:
        raise NoBoardFound(f"GNOME Klotski: {exc}") from None


def plain(block: set[tuple[int, int]]) -> bool:
    """Whether a block fills its bounding box (a rectangle, as most pieces are; the game's
    frames are not)."""
    rs, cs = [r for r, _ in block], [c for _, c in block]
    return len(block) == (max(rs) - min(rs) + 1) * (max(cs) - min(cs) + 1)


def could_move(block: set[tuple[int, int]], fixed: set[tuple[int, int]], rows: int, cols: int) -> bool:
    """Whether a block alone on the board (with the cells of ``fixed``) has room to move a cell."""
    return any(all(0 <= r + dr < rows and 0 <= c + dc < cols and (r + dr, c + dc) not in fixed
                   for r, c in block) for dr, dc in ((0, 1), (1, 0), (0, -1), (-1, 0)))


def in_opening(target: set[tuple[int, int]], walls: set[tuple[int, int]], gates: set[tuple[int, int]]) -> bool:
    """Whether the target touches a gate, or a row or column of it has walls or gates at
    both ends (it fills an opening of the frame, whose gates it may hide)."""
    if any((r + dr, c + dc) in gates for r, c in target for dr, dc in ((0, -1), (0, 1), (-1, 0), (1, 0))):
        return True
    fixed = walls | gates
    for k in {r for r, _ in target}:
        row = [c for r, c in target if r == k]
        if (k, min(row) - 1) in fixed and (k, max(row) + 1) in fixed:
            return True
    for k in {c for _, c in target}:
        column = [r for r, c in target if c == k]
        if (min(column) - 1, k) in fixed and (max(column) + 1, k) in fixed:
            return True
    return False


def gate_ends(gates: set[tuple[int, int]], tiles: set[tuple[int, int]]) -> set[tuple[int, int]]:
    """The tile cells at the two ends of a row or column of gates that has tiles at both:
    a frame's, so their blocks are walls (a gate is an opening in a frame)."""
    ends = set()
    for r, c in gates:
        for dr, dc in ((0, 1), (1, 0)):
            if (r - dr, c - dc) in gates:
                continue            # not the run's first gate
            k = 1
            while (r + k * dr, c + k * dc) in gates:
                k += 1
            first, last = (r - dr, c - dc), (r + k * dr, c + k * dc)
            if first in tiles and last in tiles:
                ends |= {first, last}
    return ends


def encloses(cells: list[tuple[int, int]]) -> bool:
    """Whether the cells close round others: some cell of their rectangle that is not one
    of them cannot reach the rectangle's rim without crossing them."""
    own = set(cells)
    r0, c0 = min(r for r, _ in own), min(c for _, c in own)
    r1, c1 = max(r for r, _ in own), max(c for _, c in own)
    rest = {(r, c) for r in range(r0, r1 + 1) for c in range(c0, c1 + 1)} - own
    todo = [(r, c) for r, c in rest if r in (r0, r1) or c in (c0, c1)]
    out = set(todo)
    while todo:
        r, c = todo.pop()
        for n in ((r - 1, c), (r + 1, c), (r, c - 1), (r, c + 1)):
            if n in rest and n not in out:
                out.add(n)
                todo.append(n)
    return out != rest


def _normalised(cells: set[tuple[int, int]]) -> frozenset[tuple[int, int]]:
    if not cells:
        return frozenset()
    r0, c0 = min(r for r, _ in cells), min(c for _, c in cells)
    return frozenset((r - r0, c - c0) for r, c in cells)


def _piece(name: str, cells: set[tuple[int, int]]) -> Piece:
    r0, c0 = min(r for r, _ in cells), min(c for _, c in cells)
    form = _normalised(cells)
    return Piece(name, r0, c0, max(r for r, _ in form) + 1, max(c for _, c in form) + 1, form)
