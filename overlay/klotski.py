"""Klotski: an answer as drags of the pieces, and the next move as an arrow.

A move's screen path starts where the piece is held (its centre; for a piece of another
shape than a rectangle, its cell nearest the middle) and moves one pitch per one-cell step,
so an L-shaped move is one drag through its corner (and a straight run one drag). The
pieces are followed through the answer on the parse's board, so every drag starts where
the piece is by then. ``hints`` draws only the next move — the one to play now — as a
haloed arrow from the piece's centre along its path, with the count of moves left.
``sheet`` is the annotated picture (``solve --annotate``): every move in order, one small
board per move, each captioned with the move's number and word as ``solve`` prints them.
"""
from __future__ import annotations

from dataclasses import replace
from typing import Any

import numpy as np

from overlay.actions import Action, Drag
from overlay.draw import Label, Polyline, Shape
from solvers.klotski import STEPS, Board, Piece
from vision.common import Parse
from vision.klotski import KlotskiGeometry

ARROW = (236, 64, 122)
HALO = (255, 255, 255)
STEP = {"U": (0, -1), "D": (0, 1), "L": (-1, 0), "R": (1, 0)}   # (dx, dy) in cells
CELL = 26                  # px: a cell of a panel of the sheet
PANELS_PER_ROW = 8         # as ``solvers.klotski.show`` puts eight words on a line
FONT = "DejaVuSans.ttf"    # has the arrows of the move words; else they are spelt U/D/L/R
PIECE, TARGET, MOVING, FLOOR, INK = (214, 196, 160), (214, 92, 74), (250, 214, 92), (92, 78, 64), (30, 30, 30)
WALL, GATE = (52, 44, 36), (120, 200, 70)      # and a goal cell: a dot of the gates' green


def grip(piece: Piece) -> tuple[tuple[int, int], tuple[int, int]]:
    """The two cells whose centres' midpoint is where a piece is held: a rectangle's
    corner cells (its centre), a piece of another shape its cell nearest the middle of its
    rectangle (the middle may lie off it, as an L's does)."""
    if piece.form is None:
        return (piece.row, piece.col), (piece.row + piece.height - 1, piece.col + piece.width - 1)
    middle = (piece.row + (piece.height - 1) / 2, piece.col + (piece.width - 1) / 2)
    cell = min(piece.cells(), key=lambda rc: (rc[0] - middle[0]) ** 2 + (rc[1] - middle[1]) ** 2)
    return cell, cell


def move_paths(parse: Parse[KlotskiGeometry], solution: Any) -> list[tuple[tuple[float, float], ...]]:
    """For every move, the screen points where its piece is held (``grip``): start, then
    after each step."""
    board = parse.board
    px, py = parse.geometry.pitch
    cols = parse.geometry.cols
    at = {p.name: p for p in board.pieces}
    paths = []
    for move in solution:
        piece = at[move["piece"]]
        (r0, c0), (r1, c1) = grip(piece)
        (x0, y0), (x1, y1) = parse.cells[r0 * cols + c0], parse.cells[r1 * cols + c1]
        x, y = (x0 + x1) / 2, (y0 + y1) / 2
        points = [(x, y)]
        for step in move["path"]:
            dx, dy = STEP[step]
            x, y = x + dx * px, y + dy * py
            points.append((x, y))
            piece = replace(piece, row=piece.row + dy, col=piece.col + dx)
        at[move["piece"]] = piece
        paths.append(tuple(points))
    return paths


def plan(parse: Parse[KlotskiGeometry], solution: Any) -> list[Action]:
    """One drag per move, through the piece centre's position after every step."""
    return [Drag(points) for points in move_paths(parse, solution)]


def steps(solution: Any) -> int:
    """Hints come one move at a time with ``step``, as ``plan`` plays them: one drag each."""
    return len(solution)


def one_cell(solution: Any) -> list[dict[str, str]]:
    """The answer with every move cut into moves of one cell: ``plan`` then makes one drag
    per cell, for a game that moves a piece one cell per drag."""
    return [{"piece": move["piece"], "path": step} for move in solution for step in move["path"]]


def progress(board: Board, solution: Any, seen: Board) -> int | None:
    """How many of the answer's first moves take ``board`` to the position ``seen`` (each
    piece's cells, the target's, the walls, gates and goal alike; names aside, as the
    vision letters pieces in reading order), or None when ``seen`` is no position along it."""
    def layout(b: Board, pieces: Any) -> tuple[Any, ...]:
        return (b.rows, b.cols, frozenset(frozenset(p.cells()) for p in pieces), b.goal, b.walls, b.gates,
                b.marks, frozenset(next(p for p in pieces if p.name == b.target).cells()))

    want = layout(seen, seen.pieces)
    at = {p.name: p for p in board.pieces}
    for done in range(len(solution) + 1):
        if layout(board, at.values()) == want:
            return done
        if done < len(solution):
            piece = at[solution[done]["piece"]]
            dr, dc = (sum(STEPS[s][k] for s in solution[done]["path"]) for k in (0, 1))
            at[piece.name] = replace(piece, row=piece.row + dr, col=piece.col + dc)
    return None


def same_puzzle(board: Board, seen: Board) -> bool:
    """Whether ``seen`` is a position of the puzzle ``board`` is one of: the same frame
    (size, walls, gates, goal) and the same pieces, the target's shape among them, wherever
    they stand (names aside)."""
    def puzzle(b: Board) -> tuple[Any, ...]:
        target = b.piece(b.target)
        return (b.rows, b.cols, b.goal, b.walls, b.gates, b.marks, (target.height, target.width, target.offsets()),
                sorted((p.height, p.width, p.offsets()) for p in b.pieces))

    return puzzle(board) == puzzle(seen)


def hints(parse: Parse[KlotskiGeometry], solution: Any, step: int | None = None) -> list[Shape]:
    """The next move (or move ``step``, 0-based, from where the moves before it leave its
    piece) as an arrow from the piece's centre along its path, and its number of all."""
    if step is not None and not 0 <= step < len(solution):
        raise ValueError(f"step {step} is out of range: the answer has {len(solution)} moves")
    if not solution:
        return []
    k = step or 0
    points = move_paths(parse, solution[:k + 1])[k]
    pitch = min(parse.geometry.pitch)
    dx, dy = STEP[solution[k]["path"][0]]
    # the label sits behind the arrow's start, clear of the path it points along
    label = (points[0][0] - 0.35 * pitch * dx, points[0][1] - 0.35 * pitch * dy)
    return [
        Polyline(points, HALO, width=0.16 * pitch, arrows="end"),
        Polyline(points, ARROW, width=0.09 * pitch, arrows="end"),
        Label(label, f"{solution[k]['piece']}: {k + 1}/{len(solution)}", size=max(10.0, 0.2 * pitch)),
    ]


def sheet(image: np.ndarray, parse: Parse[KlotskiGeometry], solution: Any) -> np.ndarray:
    """The annotated picture: the screenshot with the first move, then one small board
    per move in order, the moving piece lit with its path as an arrow, captioned like the
    text output ("12.A↓→"), so that moves over the same cells never hide each other."""
    from PIL import Image, ImageDraw, ImageFont

    from solvers.klotski import show

    board = parse.board
    words = [w.split(".", 1) for w in show(board, solution).split()]
    pw, ph = board.cols * CELL + 12, board.rows * CELL + 34
    per_row = min(PANELS_PER_ROW, len(solution))
    grid_w = per_row * pw
    shot = render_first(image, parse, solution, grid_w)
    rows = -(-len(solution) // per_row)
    out = Image.new("RGB", (max(grid_w, shot.shape[1]), shot.shape[0] + rows * ph), (245, 242, 235))
    out.paste(Image.fromarray(shot[:, :, ::-1]), (0, 0))
    draw = ImageDraw.Draw(out)
    try:
        font = ImageFont.truetype(FONT, 14)
    except OSError:     # no DejaVu: Pillow's own font, directions spelt as letters
        font = ImageFont.load_default()
        words = [(n, w.translate(str.maketrans("↑↓←→", "UDLR"))) for n, w in words]
    at = {p.name: p for p in board.pieces}
    for i, (move, (number, word)) in enumerate(zip(solution, words)):
        x0, y0 = (i % per_row) * pw + 6, shot.shape[0] + (i // per_row) * ph + 4
        draw.rectangle((x0, y0, x0 + board.cols * CELL, y0 + board.rows * CELL), fill=FLOOR)
        for cells, fill in ((board.walls, WALL), (board.gates, GATE)):
            for r, c in cells:
                draw.rectangle((x0 + c * CELL, y0 + r * CELL, x0 + (c + 1) * CELL - 1, y0 + (r + 1) * CELL - 1),
                               fill=fill)
        for r, c in board.marks:
            draw.ellipse((x0 + (c + 0.35) * CELL, y0 + (r + 0.35) * CELL,
                          x0 + (c + 0.65) * CELL, y0 + (r + 0.65) * CELL), fill=GATE)
        for name, p in at.items():
            fill = MOVING if name == move["piece"] else TARGET if name == board.target else PIECE
            if p.form is None:
                draw.rectangle((x0 + p.col * CELL + 1, y0 + p.row * CELL + 1, x0 + (p.col + p.width) * CELL - 2,
                                y0 + (p.row + p.height) * CELL - 2), fill=fill, outline=INK)
            else:       # cell by cell, joined where the piece goes on
                own = set(p.cells())
                for r, c in own:
                    draw.rectangle((x0 + c * CELL + ((r, c - 1) not in own), y0 + r * CELL + ((r - 1, c) not in own),
                                    x0 + (c + 1) * CELL - 1 - 2 * ((r, c + 1) not in own),
                                    y0 + (r + 1) * CELL - 1 - 2 * ((r + 1, c) not in own)), fill=fill)
            (r0, c0), (r1, c1) = grip(p)
            draw.text((x0 + (c0 + c1 + 1) / 2 * CELL, y0 + (r0 + r1 + 1) / 2 * CELL), name, fill=INK, font=font,
                      anchor="mm")
        p = at[move["piece"]]
        (r0, c0), (r1, c1) = grip(p)
        points = [(x0 + (c0 + c1 + 1) / 2 * CELL, y0 + (r0 + r1 + 1) / 2 * CELL)]
        for step in move["path"]:
            dx, dy = STEP[step]
            p = replace(p, row=p.row + dy, col=p.col + dx)
            points.append((points[-1][0] + dx * CELL, points[-1][1] + dy * CELL))
        at[move["piece"]] = p
        _arrow(draw, points)
        draw.text((x0 + board.cols * CELL / 2, y0 + board.rows * CELL + 15), f"{number}.{word}", fill=INK,
                  font=font, anchor="mm")
    return np.asarray(out)[:, :, ::-1].copy()


def render_first(image: np.ndarray, parse: Parse[KlotskiGeometry], solution: Any, width: int) -> np.ndarray:
    """The screenshot with the first move's hint, scaled to at most ``width`` (and at
    least to the sheet's narrowest) so the grid of moves below it stays readable."""
    import cv2

    from overlay.draw import render

    shot = render(image, hints(parse, solution))
    scale = min(1.0, max(width, 320) / shot.shape[1], 480 / shot.shape[0])
    return cv2.resize(shot, None, fx=scale, fy=scale, interpolation=cv2.INTER_AREA) if scale < 1 else shot


def _arrow(draw: Any, points: list[tuple[float, float]]) -> None:
    """A path with a head at its end, white under red, like the live hint's arrow."""
    for colour, width in (((255, 255, 255), 6), (ARROW, 3)):
        draw.line(points, fill=colour, width=width, joint="curve")
        (ax, ay), (bx, by) = points[-2], points[-1]
        length = max(1e-6, ((bx - ax) ** 2 + (by - ay) ** 2) ** 0.5)
        ux, uy = (bx - ax) / length, (by - ay) / length
        size = 7 + width / 2
        base = (bx - ux * size, by - uy * size)
        draw.polygon([(bx + ux * 2, by + uy * 2), (base[0] - uy * size * 0.6, base[1] + ux * size * 0.6),
                      (base[0] + uy * size * 0.6, base[1] - ux * size * 0.6)], fill=colour)
