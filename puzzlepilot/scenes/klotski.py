"""Klotski screens in three looks of our own, with the truth they show.

There is no one standard Klotski look, so the vision is tested on several: ``wooden``
(light grained wood with bevels on a dark board in a brown frame, on paper), ``flat``
(flat rounded colour blocks, one colour per shape, on a slate board) and ``named``
(cream tiles carrying the generals' names and a face on Cao Cao, on a near-black board
in a dark room). Every look keeps what real versions share: pieces are rectangles with
gaps between them, the board is darker than the pieces, and the exit is marked at the
bottom of the frame. ``fixture_cases`` builds the vision's regression set; the practice
board draws its frames with ``render``.
"""
from __future__ import annotations

import random
from dataclasses import dataclass

import cv2
import numpy as np

from puzzlepilot.scenes import FixtureCase
from puzzlepilot.scenes.paint import bgr, rounded_rect, shade
from solvers.klotski import Board, Piece, generate, layout, solve

RGB = tuple[int, int, int]
STYLES = ("wooden", "flat", "named")
WALLED = "walled"       # walls, gates and goal cells as GNOME Klotski draws them (see ``walled``)
WALLED_FLOOR = (238, 238, 238)      # BGR, the walled look's floor and page
WALLED_GREEN = (70, 170, 60)        # BGR, its gates and goal dots
WALLED_INK = (40, 40, 120)          # BGR, its title (no colour the vision reads there)
# looks of the real apps (docs/games.md#klotski-look), read by the pieces' edges: "portrait" — framed tiles
# with a painted portrait (a gradient and a face), a name band, drop shadows, on a tan floor
# with grid lines; "tiles" — the same tiles edge to edge, no gap, on a textured floor
APP_STYLES = ("portrait", "tiles")
# "cartoon" (the style zoo's, puzzlepilot.scenes.zoo.KLOTSKI_LOOKS): flat yellow and grey blocks
# with a soft shadow on white, the floor and the frame as white as the page around them


@dataclass(frozen=True)
class Look:
    page: RGB
    frame: RGB
    board: RGB
    exit: RGB
    gap: float            # share of a cell between neighbouring pieces
    radius: float         # corner radius, share of a cell


LOOKS = {
    "wooden": Look((236, 224, 200), (122, 74, 40), (58, 36, 20), (190, 52, 40), 0.08, 0.05),
    "flat": Look((244, 246, 250), (149, 165, 166), (44, 62, 80), (255, 255, 255), 0.1, 0.14),
    "named": Look((40, 36, 48), (92, 92, 104), (12, 12, 14), (230, 180, 40), 0.1, 0.1),
    "portrait": Look((254, 250, 232), (96, 70, 58), (200, 158, 106), (250, 214, 20), 0.06, 0.07),
    "tiles": Look((232, 238, 226), (64, 92, 48), (70, 82, 60), (240, 200, 60), 0.0, 0.03),
    "cartoon": Look((255, 255, 255), (255, 255, 255), (255, 255, 255), (255, 120, 60), 0.08, 0.12),
}
FRAMES: dict[tuple[int, int], RGB] = {(2, 2): (184, 134, 11), (2, 1): (230, 81, 0), (1, 2): (27, 94, 32),
                                      (1, 1): (21, 101, 192)}
FLAT_COLOURS: dict[tuple[int, int], RGB] = {(2, 2): (231, 76, 60), (2, 1): (52, 152, 219),
                                            (1, 2): (46, 204, 113), (1, 1): (241, 196, 15)}
NAMES = {(2, 1): ["ZHANG FEI", "ZHAO YUN", "MA CHAO", "HUANG ZHONG", "WEI YAN"],
         (1, 2): ["GUAN YU", "XU CHU", "ZHANG LIAO"]}


@dataclass(frozen=True)
class Truth:
    """What a rendered image shows: the board text (as vision names it), the image centre
    of every cell (row-major) and the pitch in pixels."""

    board: str
    cells: tuple[tuple[float, float], ...]
    pitch: float


def _text(img: np.ndarray, text: str, centre: tuple[float, float], height: float, color: RGB,
          max_width: float) -> None:
    scale = height / 22.0
    thick = max(1, round(height / 9))
    (w, h), _ = cv2.getTextSize(text, cv2.FONT_HERSHEY_SIMPLEX, scale, thick)
    if w > max_width:
        scale *= max_width / w
        (w, h), _ = cv2.getTextSize(text, cv2.FONT_HERSHEY_SIMPLEX, scale, thick)
    cv2.putText(img, text, (round(centre[0] - w / 2), round(centre[1] + h / 2)),
                cv2.FONT_HERSHEY_SIMPLEX, scale, bgr(color), thick, cv2.LINE_AA)


def _piece(img: np.ndarray, p: Piece, box: tuple[float, float, float, float], cell: float,
           style: str, is_target: bool, index: int) -> None:
    x0, y0, x1, y1 = box
    look = LOOKS[style]
    r = look.radius * cell
    if style == "wooden":
        wood: RGB = (200, 118, 72) if is_target else (216, 174, 114)
        rounded_rect(img, x0, y0, x1, y1, r, shade(wood, -0.22))                       # shadow edge
        rounded_rect(img, x0, y0, x1 - cell * 0.04, y1 - cell * 0.04, r, shade(wood, 0.25))  # light edge
        rounded_rect(img, x0 + cell * 0.04, y0 + cell * 0.04, x1 - cell * 0.04, y1 - cell * 0.04, r, wood)
        grain = bgr(shade(wood, -0.08))
        rng = random.Random(index)
        for k in range(max(2, round((y1 - y0) / cell * 5))):
            y = y0 + (k + 0.5 + rng.uniform(-0.3, 0.3)) * (y1 - y0) / max(2, round((y1 - y0) / cell * 5))
            xs = np.linspace(x0 + cell * 0.08, x1 - cell * 0.08, 12)
            ys = y + np.sin(xs / cell * 3 + rng.uniform(0, 6)) * cell * 0.03
            pts = np.stack([xs, ys], 1).round().astype(np.int32)
            cv2.polylines(img, [pts], False, grain, 1, cv2.LINE_AA)
    elif style in APP_STYLES:
        _portrait_tile(img, p, box, cell, style, is_target, index)
    elif style == "flat":
        color = (231, 76, 60) if is_target else FLAT_COLOURS.get(p.shape, (155, 89, 182))
        rounded_rect(img, x0, y0, x1, y1, r, color)
    elif style == "cartoon":        # the big pieces yellow, the one-cell ones grey, a soft shadow down and right
        colour: RGB = (250, 206, 40) if p.height * p.width > 1 else (158, 160, 166)
        rounded_rect(img, x0 + 0.05 * cell, y0 + 0.05 * cell, x1 + 0.05 * cell, y1 + 0.05 * cell, r, (228, 228, 232))
        rounded_rect(img, x0, y0, x1, y1, r, colour)
    else:
        cream: RGB = (240, 214, 170) if is_target else (236, 228, 204)
        rounded_rect(img, x0, y0, x1, y1, r, cream)
        ink: RGB = (120, 40, 24)
        cx, cy = (x0 + x1) / 2, (y0 + y1) / 2
        if is_target:
            face = round(min(x1 - x0, y1 - y0) * 0.22)
            cv2.circle(img, (round(cx), round(cy - face * 0.4)), face, bgr(ink), max(1, round(cell / 30)), cv2.LINE_AA)
            for ex in (-0.35, 0.35):
                cv2.circle(img, (round(cx + ex * face), round(cy - face * 0.55)), max(1, round(face * 0.1)), bgr(ink), -1)
            _text(img, "CAO CAO", (cx, cy + face * 1.3), cell * 0.26, ink, (x1 - x0) * 0.8)
        else:
            names = NAMES.get(p.shape, ["BING"])
            name = names[index % len(names)]
            if p.height > p.width:
                for k, part in enumerate(name.split(" ")[:2]):
                    _text(img, part, (cx, cy + (k - 0.5) * cell * 0.45), cell * 0.2, ink, (x1 - x0) * 0.8)
            else:
                _text(img, name, (cx, cy), cell * 0.22, ink, (x1 - x0) * 0.8)


def _portrait_tile(img: np.ndarray, p: Piece, box: tuple[float, float, float, float], cell: float,
                   style: str, is_target: bool, index: int) -> None:
    """A tile as the real apps draw one: a drop shadow (with a gap), a coloured frame, a
    dark portrait with a vertical gradient and a face, and a name band in the frame's
    colour along the bottom."""
    x0, y0, x1, y1 = box
    r = LOOKS[style].radius * cell
    frame = FRAMES.get(p.shape, (106, 27, 154)) if not is_target else FRAMES[(2, 2)]
    if style == "portrait":     # the shadow falls on the floor, down and right
        rounded_rect(img, x0 + 0.03 * cell, y0 + 0.04 * cell, x1 + 0.03 * cell, y1 + 0.04 * cell, r,
                     shade(LOOKS[style].board, -0.35))
    rounded_rect(img, x0, y0, x1, y1, r, frame)
    b = 0.035 * cell
    band = y1 - min(0.28 * cell, 0.3 * (y1 - y0))
    px0, py0, px1, py1 = round(x0 + b), round(y0 + b), round(x1 - b), round(band)
    rng = random.Random(index)
    top, bottom = np.array(shade((60, 40, 36), rng.uniform(-0.3, 0.3))), np.array((16, 14, 20))
    t = np.linspace(0, 1, max(1, py1 - py0))[:, None]
    column = (top * (1 - t) + bottom * t)[:, ::-1]              # RGB → BGR
    img[py0:py1, px0:px1] = column[:, None, :].astype(np.uint8)
    cx, cy = (px0 + px1) / 2, py0 + 0.55 * (py1 - py0)
    face = 0.3 * min(px1 - px0, py1 - py0)
    cv2.circle(img, (round(cx), round(cy)), round(face * 1.35), bgr(shade(frame, 0.3)), max(1, round(cell / 40)), cv2.LINE_AA)
    cv2.ellipse(img, (round(cx), round(cy)), (round(face * 0.8), round(face)), 0, 0, 360, (150, 186, 228), -1, cv2.LINE_AA)
    cv2.ellipse(img, (round(cx), round(cy - face * 0.7)), (round(face), round(face * 0.55)), 0, 180, 360,
                (30, 30, 36), -1, cv2.LINE_AA)
    for ex in (-0.35, 0.35):
        cv2.circle(img, (round(cx + ex * face), round(cy)), max(1, round(face * 0.1)), (20, 20, 20), -1, cv2.LINE_AA)
    cv2.ellipse(img, (round(cx), round(cy + face * 0.55)), (round(face * 0.45), round(face * 0.35)), 0, 0, 180,
                (40, 40, 60), -1, cv2.LINE_AA)
    names = ["CAO CAO"] if is_target else NAMES.get(p.shape, ["SOLDIER"])
    _text(img, names[index % len(names)], ((x0 + x1) / 2, (band + y1) / 2), 0.15 * cell, (250, 250, 250),
          (x1 - x0) * 0.8)


def _floor(img: np.ndarray, style: str, bx: float, by: float, board: Board, cell: float) -> None:
    """The app looks' floors: faint grid lines between the cells (portrait) or a speckled
    texture (tiles)."""
    look = LOOKS[style]
    x0, y0, x1, y1 = round(bx), round(by), round(bx + board.cols * cell), round(by + board.rows * cell)
    if style == "portrait":
        line = bgr(shade(look.board, -0.1))
        for c in range(1, board.cols):
            cv2.line(img, (round(bx + c * cell), y0), (round(bx + c * cell), y1), line, 1)
        for r in range(1, board.rows):
            cv2.line(img, (x0, round(by + r * cell)), (x1, round(by + r * cell)), line, 1)
    else:
        noise = np.random.default_rng(7).integers(-6, 7, (y1 - y0, x1 - x0, 1))
        img[y0:y1, x0:x1] = np.clip(img[y0:y1, x0:x1].astype(np.int16) + noise, 0, 255).astype(np.uint8)


def render(board: Board, *, style: str = "wooden", cell: float = 80, size: tuple[int, int] | None = None,
           at: tuple[float, float] | None = None, title: str = "",
           slide: tuple[str, float, float] | None = None) -> tuple[np.ndarray, Truth]:
    """The board drawn in a look (BGR image) and the truth it shows.

    ``cell`` is the pitch in pixels; ``size`` (width, height) the picture (default: the
    board with a margin); ``at`` the top-left of the board's cell area (default:
    centred); ``title`` a line of text above the board; ``slide`` (name, rows, cols) draws
    that piece moved by a share of a cell (mid-slide: the truth is the board before it).
    The ``walled`` look (:func:`walled`) takes no ``slide``."""
    if style == WALLED:
        return walled(board, cell=cell, size=size, at=at, title=title)
    look = LOOKS[style]
    rim = 0.35 * cell
    bw, bh = board.cols * cell, board.rows * cell
    width, height = size or (round(bw + 2 * rim + 1.2 * cell), round(bh + 2 * rim + 1.8 * cell))
    img = np.full((height, width, 3), bgr(look.page), np.uint8)
    bx, by = at or ((width - bw) / 2, (height - bh) / 2 + 0.3 * cell)
    rounded_rect(img, bx - rim, by - rim, bx + bw + rim, by + bh + rim, rim * 0.6, look.frame)
    cv2.rectangle(img, (round(bx), round(by)), (round(bx + bw), round(by + bh)), bgr(look.board), -1)
    target = board.piece(board.target)
    ex0 = bx + board.goal[1] * cell
    cv2.rectangle(img, (round(ex0 + 0.1 * cell), round(by + bh + rim * 0.3)),
                  (round(ex0 + (target.width - 0.1) * cell), round(by + bh + rim * 0.7)), bgr(look.exit), -1)
    if title:
        _text(img, title, (bx + bw / 2, by - rim - 0.5 * cell), 0.32 * cell, shade(look.frame, -0.3), bw)
    if style in APP_STYLES:
        _floor(img, style, bx, by, board, cell)
    gap = look.gap * cell
    for i, p in enumerate(board.pieces):
        dr, dc = slide[1:] if slide is not None and p.name == slide[0] else (0.0, 0.0)
        box = (bx + (p.col + dc) * cell + gap / 2, by + (p.row + dr) * cell + gap / 2,
               bx + (p.col + dc + p.width) * cell - gap / 2, by + (p.row + dr + p.height) * cell - gap / 2)
        _piece(img, p, box, cell, style, p.name == board.target, i)
    cells = tuple((bx + (c + 0.5) * cell, by + (r + 0.5) * cell) for r in range(board.rows) for c in range(board.cols))
    return img, Truth(board.relabelled().to_text().replace("\n", "/"), cells, cell)


def walled(board: Board, *, cell: float = 48, size: tuple[int, int] | None = None,
           at: tuple[float, float] | None = None, title: str = "") -> tuple[np.ndarray, Truth]:
    """A board with walls, gates and goal cells drawn as GNOME Klotski draws its boards, the
    look ``vision.gnome_klotski`` reads: every block and wall one bevelled blue tile (its
    cells joined, a light left side where a tile begins), the target with a mark in each
    cell, gates green blocks, goal cells green dots on a light grey floor, a thin dark line
    round the board. The pitch is a whole number of pixels (``cell`` rounded down, at least
    24); walls are drawn as blocks are, so the vision tells them apart only by where they
    stand (joined to the board's edge), and a board's goal must be goal cells."""
    from vision import gnome_klotski as gk

    pitch = max(24, int(cell))
    bw, bh = board.cols * pitch, board.rows * pitch
    width, height = size or (bw + 2 * pitch, bh + 3 * pitch)
    img = np.full((height, width, 3), WALLED_FLOOR, np.uint8)
    x0, y0 = (round(v) for v in at) if at is not None else ((width - bw) // 2, (height - bh) // 2 + pitch // 3)
    cv2.rectangle(img, (x0 - 1, y0 - 1), (x0 + bw, y0 + bh), gk.LINE, 1)
    if title:
        _text(img, title, (x0 + bw / 2, y0 - 0.7 * pitch), 0.32 * pitch, WALLED_INK, bw)

    for r, c in board.gates:
        cv2.rectangle(img, (x0 + c * pitch + gk.INSET, y0 + r * pitch + gk.INSET),
                      (x0 + (c + 1) * pitch - gk.INSET - 1, y0 + (r + 1) * pitch - gk.INSET - 1), WALLED_GREEN, -1)
    for r, c in board.marks - board.gates:
        cv2.circle(img, (x0 + round((c + 0.5) * pitch), y0 + round((r + 0.5) * pitch)), round(0.1 * pitch),
                   WALLED_GREEN, -1)
    for cells in [set(p.cells()) for p in board.pieces] + _joined(board.walls, board.rows, board.cols):
        for r, c in cells:
            left, right = ((r, c - 1) in cells, (r, c + 1) in cells)
            up, down = ((r - 1, c) in cells, (r + 1, c) in cells)
            xa, ya = x0 + c * pitch + (0 if left else gk.INSET), y0 + r * pitch + (0 if up else gk.INSET)
            xb, yb = x0 + (c + 1) * pitch - (0 if right else gk.INSET), y0 + (r + 1) * pitch - (0 if down else gk.INSET)
            img[ya:yb, xa:xb] = gk.TILE
            if not left:
                img[ya:yb, xa:xa + 2] = gk.BEVEL
    mark = round(0.1 * pitch)       # half a mark's side: a square at the middle of each target cell
    for r, c in board.piece(board.target).cells():
        x, y = x0 + round((c + 0.5) * pitch), y0 + round((r + 0.5) * pitch)
        img[y - mark:y + mark, x - mark:x + mark] = gk.MARK
    cells = tuple((x0 + (c + 0.5) * pitch, y0 + (r + 0.5) * pitch)
                  for r in range(board.rows) for c in range(board.cols))
    return img, Truth(board.relabelled().to_text().replace("\n", "/"), cells, float(pitch))


def _joined(cells: frozenset[tuple[int, int]], rows: int, cols: int) -> list[set[tuple[int, int]]]:
    """The cells in groups touching side to side (the walls as the blocks they draw)."""
    grid = np.zeros((rows, cols), np.uint8)
    for r, c in cells:
        grid[r, c] = 1
    count, labels = cv2.connectedComponents(grid, connectivity=4)
    return [{(int(r), int(c)) for r, c in zip(*np.nonzero(labels == k))} for k in range(1, count)]


def scrambled(board: Board, moves: int, seed: int) -> Board:
    """The board after some moves of its solution (a mid-game position)."""
    solution = solve(board).solution or []
    spots = {p.name: p for p in board.pieces}
    for move in solution[:moves]:
        p = spots[move["piece"]]
        for step in move["path"]:
            dr, dc = {"U": (-1, 0), "D": (1, 0), "L": (0, -1), "R": (0, 1)}[step]
            p = Piece(p.name, p.row + dr, p.col + dc, p.height, p.width)
        spots[p.name] = p
    return Board.make(board.rows, board.cols, list(spots.values()), board.target,
                      None if board.goal == board.default_goal() else board.goal)


def desktop(width: int, height: int, seed: int) -> np.ndarray:
    """A plain desktop: a gradient, a task bar and a few windows with text lines."""
    rng = random.Random(seed)
    ramp = np.linspace(0, 1, height)[:, None, None]
    top, bottom = np.array([120, 90, 60]), np.array([190, 150, 110])
    img = (top + (bottom - top) * ramp).repeat(width, 1).astype(np.uint8)
    cv2.rectangle(img, (0, height - 36), (width, height), (40, 40, 40), -1)
    for _ in range(3):
        x, y = rng.randrange(0, width - 300), rng.randrange(0, height - 260)
        cv2.rectangle(img, (x, y), (x + 280, y + 220), (235, 235, 235), -1)
        cv2.rectangle(img, (x, y), (x + 280, y + 26), (200, 120, 60), -1)
        for k in range(6):
            cv2.line(img, (x + 14, y + 50 + 26 * k), (x + 14 + rng.randrange(80, 250), y + 50 + 26 * k), (90, 90, 90), 3)
    return img


def fixture_cases() -> list[FixtureCase]:
    """The klotski fixtures: the three looks on classic layouts and mid-game positions, the
    real apps' looks (portrait tiles with shadows on a gridded floor, tiles edge to edge),
    5×6 and 6×5 boards, small and large cells, JPEG, a window on a desktop, a scaled
    capture, and scenes with no Klotski board (an empty board, a desktop, a grid of
    equal squares with wide gaps)."""
    cases: list[FixtureCase] = []

    def add(name: str, image: np.ndarray, board: str | None, note: str, quality: int | None = None) -> None:
        cases.append(FixtureCase(name, image, board, "jpg" if quality else "png", quality or 85, note))

    for name, style, cell, q in (("横刀立马", "wooden", 80, 88), ("指挥若定", "flat", 60, None),
                                 ("兵分三路", "named", 90, 85), ("一路顺风", "flat", 40, None)):
        img, t = render(layout(name), style=style, cell=cell, title="HUARONG DAO")
        add(f"{style}_{cell}_{LAYOUT_IDS[name]}", img, t.board, f"{name} in the {style} look, {cell} px cells", q)
    for name, style, moves, cell, q in (("横刀立马", "flat", 17, 70, None), ("齐头并进", "wooden", 9, 64, 85),
                                        ("桃花园中", "named", 23, 72, 80)):
        img, t = render(scrambled(layout(name), moves, 0), style=style, cell=cell)
        add(f"midgame_{style}_{LAYOUT_IDS[name]}_{moves}", img, t.board, f"{name} after {moves} moves", q)
    for rows, cols, seed, style, cell in ((4, 6, 3, "flat", 50), (5, 6, 5, "wooden", 56)):
        board = generate(rows, cols, seed)
        img, t = render(board, style=style, cell=cell)
        add(f"generated_{cols}x{rows}_{style}", img, t.board, f"{cols}×{rows} board, {len(board.pieces)} pieces",
            88 if style == "wooden" else None)

    for name, style, moves, cell in (("横刀立马", "portrait", 0, 150), ("一路顺风", "portrait", 14, 96),
                                     ("兵分三路", "tiles", 6, 120)):
        img, t = render(scrambled(layout(name), moves, 0), style=style, cell=cell)
        add(f"app_{style}_{LAYOUT_IDS[name]}_{moves}", img, t.board,
            f"{name} after {moves} moves in the real apps' {style} look (read by edges)", 90)
    board = scrambled(layout("左右布兵"), 11, 0)
    small, t = render(board, style="named", cell=48)
    desk = desktop(1280, 800, 3)
    desk[120:120 + small.shape[0], 700:700 + small.shape[1]] = small
    add("desktop_named_48", desk, t.board, "a 48 px board in a window on a 1280×800 desktop", 85)
    big, t = render(layout("雨声淅沥"), style="wooden", cell=110)
    scaled = cv2.resize(big, None, fx=0.55, fy=0.55, interpolation=cv2.INTER_AREA)
    add("scaled_wooden_110x055", scaled, t.board, "drawn at 110 px, captured at 0.55×", 85)

    img, t = render(layout("横刀立马"), style="flat", cell=60)
    (x0, y0), (x1, y1) = t.cells[0], t.cells[-1]
    cv2.rectangle(img, (round(x0 - 30), round(y0 - 30)), (round(x1 + 30), round(y1 + 30)), bgr(LOOKS["flat"].board), -1)
    add("no_board_empty_board", img, None, "the board with every piece taken off")
    add("no_board_desktop", desktop(1024, 700, 5), None, "a desktop with windows, no game")
    grid = np.full((600, 600, 3), 30, np.uint8)
    for r in range(5):
        for c in range(5):
            if (r + c) % 4:
                cv2.rectangle(grid, (40 + c * 110, 40 + r * 110), (40 + c * 110 + 60, 40 + r * 110 + 60), (200, 200, 200), -1)
    add("no_board_sparse_grid", grid, None, "equal squares with gaps as wide as they are: not Klotski pieces")
    return cases


LAYOUT_IDS = {"横刀立马": "hengdaolima", "指挥若定": "zhihuiruoding", "兵分三路": "bingfensanlu",
              "一路顺风": "yilushunfeng", "齐头并进": "qitoubingjin", "桃花园中": "taohuayuanzhong",
              "左右布兵": "zuoyoububing", "雨声淅沥": "yushengxili"}
