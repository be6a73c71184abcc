"""Teach the Klotski vision a look from one screenshot: the board's colour (seen through
the gaps between pieces) and the target piece's shape.

    puzzlepilot calibrate klotski SHOT.png --name NAME [--board TEXT|FILE]

With ``--board`` each main colour of the screenshot is tried as the board's colour, and
the first that reads as the given board is kept; when none does (portraits, shadows, no
gaps: ``vision/klotski_grid.py``), the reading by the pieces' edges is tried, and the
profile keeps the empty floor's colour (``floor``) and the pitch as a share of the
screenshot's width (``pitch_share``), which bound the vision's search at any size, the
pitch the screenshot was read at (``work_pitch``: other sizes are shrunk to it), the
grid's [rows, cols] (``grid``: only grids of that shape are tried) and the look of the
pieces' sides (``side_look``: the mean colour across a side between two pieces, beside the
floor and along the frame, learned at ``work_pitch``; ``vision.klotski_grid.SideLook``;
kept only when every side between two pieces of the screenshot looks like it), which
decides the sides the straight-edge measure leaves unclear and must agree with the others,
and the longest piece in cells (``longest_piece``: a longer one read later is two pieces
whose side was missed, and is refused).
Without it a window asks for a box around the board, a click on an empty cell (the board's colour) and a click on the target
piece (its shape). The vision reads two fields (``vision/klotski.py``): ``board_colour``
[r, g, b], pinned instead of guessed among the picture's main colours (which a small
board on a big, busy desktop drops out of), ``target`` [height, width] and ``empty_cells``
(every position of a game has as many empty cells; a reading with more or fewer is refused). For the user
and for checks the profile also keeps the board's box, pitch and gap (also as shares of
the screenshot's width) and two templates: an empty cell and the target piece.
"""
from __future__ import annotations

import itertools
from pathlib import Path
from typing import Any, Iterator

import cv2
import numpy as np

from calibration.common import first_reading, rgb, square
from solvers.klotski import Board
from vision.common import NoBoardFound, Parse
from vision.klotski import KlotskiGeometry, board_regions, fit_grid, main_colours, parse, piece_rects
from vision.klotski_grid import WORK_SIDE, GridGuess, SideLook, learn_look
from vision.klotski_lattice import (FLAT, FLOOR_FACTOR, LINE_GAP, MIN_FLOOR, SKIPS, PieceLook, fit, line_strength,
                                    measure, nearest, pairs, patches, read, rim_sides, search, section, side_weights)
from vision.lattice import Lattice, lab
from vision.profile import Profile, ProfileError

KINDS: tuple[str, ...] = ("an empty cell", "the target piece")
PLACES_TRIED = 8        # rough lattices of the learnt look tried on the calibration's screenshot (twice: see learn_lattice)
PLACES_RANKED = 48      # the search's best rough lattices, the ones past PLACES_TRIED ranked by how they part edges from insides


def learn(image: np.ndarray, board: Board | None = None, region: Any = None,
          examples: dict[str, tuple[int, int]] | None = None) -> tuple[dict[str, Any], dict[str, np.ndarray]]:
    """profile.json's fields and the templates for a Klotski look; opens the window for
    the box and clicks when neither a board nor the picks are given."""
    if board is not None:
        return _from_board(image, board)
    if region is None or examples is None or not set(KINDS) <= set(examples):
        from calibration.picker import pick

        region, examples = pick(image, KINDS, title="calibrate klotski: box the board, then click an empty cell and the target")
    return _from_picks(image, tuple(region), examples)


def trial(colour_rgb: list[int] | None, target: list[int], longest: int | None = None) -> Profile:
    """An in-memory profile, so trials read exactly as the stored profile will; with no
    colour the vision reads the pieces by their edges (pieces up to ``longest`` cells
    long, when given: the given board's)."""
    fields: dict[str, Any] = {"target": target}
    if longest is not None:
        fields["longest_piece"] = longest
    if colour_rgb is not None:
        fields["board_colour"] = colour_rgb
    return Profile("trial", "klotski", Path("."), fields)


def _from_board(image: np.ndarray, board: Board) -> tuple[dict[str, Any], dict[str, np.ndarray]]:
    want = board.relabelled()
    t = want.piece(want.target)
    target = [t.height, t.width]
    longest = max(p.length for p in want.pieces)
    try:
        found = first_reading([*main_colours(image), None],
                              lambda colour: parse(image, trial(None if colour is None else rgb(colour), target, longest)),
                              want.to_text(), "neither a colour of the screenshot nor the pieces' edges read as the given board")
    except ProfileError as rules:
        try:            # a look the rules do not cover: learnt on the lattice that fits the board
            return learn_lattice(image, want)
        except ProfileError as exc:
            raise ProfileError(f"{rules}; nor does a learnt lattice ({exc})") from None
    return build(image, found, target)


def learn_lattice(image: np.ndarray, board: Board) -> tuple[dict[str, Any], dict[str, np.ndarray]]:
    """profile.json's fields (the ``lattice`` section, ``vision.klotski_lattice``) and an
    empty cell's template for a screenshot of ``board`` in any look: the
    lattice on which the board's pieces' edges are straight lines and their insides are
    not, the floor's and the pieces' colours, and the line strengths that tell a piece's
    edge from its inside; ProfileError when they do not tell apart or the look learnt does
    not read the screenshot back as the board."""
    board = board.relabelled()
    owner = np.full((board.rows, board.cols), -1)
    for i, p in enumerate(board.pieces):
        for r, c in p.cells():
            owner[r, c] = i
    weights = side_weights(owner)
    inner = [w.copy() for w in weights]        # the sides between cells (the rim is no piece's)
    inner[0][:, [0, -1]] = inner[1][[0, -1], :] = 0
    if not any((w < 0).any() for w in inner):
        raise ProfileError("the board has no piece of two or more cells: nothing shows a piece's inside")
    image_lab = lab(image)

    def sides(masks: tuple[np.ndarray, np.ndarray]) -> tuple[np.ndarray, np.ndarray]:
        """``pairs``' masks of the sides between cells as masks of every side (the rim's none)."""
        return np.pad(masks[0], ((0, 0), (1, 1))), np.pad(masks[1], ((1, 1), (0, 0)))
    # the sides between two piece cells; those with a floor cell on either side (between two floor cells inside,
    # between a piece and the floor an edge); every side between cells
    both_pieces, by_floor = sides(pairs(owner >= 0)), sides(pairs(owner < 0, np.logical_or))
    anywhere = (inner[0] != 0, inner[1] != 0)

    def bounds(found: tuple[np.ndarray, np.ndarray], where: tuple[np.ndarray, np.ndarray]) -> tuple[float, float]:
        """The strongest line on a side inside (at least FLAT) and the weakest on an edge, among the sides
        ``where``, of the line strengths ``found`` between columns and between rows."""
        lines = list(zip(found, inner, where))
        return (max(FLAT, *(float(v[(w < 0) & m].max(initial=0)) for v, w, m in lines)),
                min(float(v[(w > 0) & m].min(initial=np.inf)) for v, w, m in lines))

    def parted(found: tuple[np.ndarray, np.ndarray]) -> tuple[float, float, float | None]:
        """The strongest line inside a piece (at least FLAT) and the weakest edge between two pieces, with the
        bound a side between a piece and the floor is an edge above; when the sides by the floor do not part
        alone, or no two pieces meet, the strongest inside line and the weakest edge of every side between cells."""
        inside, edge = bounds(found, both_pieces)
        floor_inside, floor_edge = bounds(found, by_floor)
        if edge < np.inf and np.inf > floor_edge >= LINE_GAP * floor_inside:
            return inside, edge, (floor_inside ** 3 * floor_edge) ** 0.25
        return (*bounds(found, anywhere), None)

    def parting(rough: Lattice) -> float:
        """How well a rough lattice parts the board's edges from its insides (edge over inside)."""
        across, along, _ = patches(image_lab, rough)        # the sides' lines alone, from one mosaic
        return max(edge / inside for inside, edge, _ in (parted((line_strength(across, skip=skip), line_strength(along, skip=skip)))
                                                         for skip in SKIPS))

    # the search's best lattices; then, as its score favours small pitches (a board's gaps fade when shrunk
    # to its work size, text and buttons do not), the next ones that part the edges from the insides best
    best = [rough for _, rough in search(image_lab, weights)[:PLACES_RANKED]]

    def ranked() -> Iterator[Lattice]:      # measured only when the search's best do not serve
        yield from sorted(best[PLACES_TRIED:], key=lambda rough: -parting(rough))[:PLACES_TRIED]
    tried = itertools.chain(best[:PLACES_TRIED], ranked())
    reasons = []
    for rough in tried:
        lat = fit(image_lab, rough, weights)
        # the sides measured whole, then without their middles; the cells by their inner
        # halves, then (pieces drawn as outlines on the floor) by the bands along their sides
        for ring, skip in itertools.product((False, True), SKIPS):
            found = measure(image_lab, lat, skip, ring)
            inside, edge, floor_edge = parted((found.across, found.along))
            if not edge >= LINE_GAP * inside:
                reasons.append("the pieces' edges and insides look alike on the grid that fits best "
                               "(is it the board the screenshot shows?)")
                continue
            floor, piece = found.colours[owner < 0], found.colours[owner >= 0]
            spread = max((float(nearest(floor[i], np.delete(floor, i, axis=0))) for i in range(len(floor))), default=0.0) \
                if len(floor) > 1 else 0.0
            apart = float(nearest(piece, floor).min())
            if apart <= 2 * MIN_FLOOR:
                reasons.append("a piece looks like the empty floor")
                continue
            tolerance = min(max(MIN_FLOOR, FLOOR_FACTOR * spread), apart / 2)
            middle = (inside * edge) ** 0.5       # the bounds: a quarter of the way from each, on a log scale
            look = PieceLook((board.rows, board.cols), int((owner < 0).sum()), len(board.pieces),
                             frozenset(p.shape for p in board.pieces), board.piece(board.target).shape,
                             floor, piece, tolerance, (inside * middle) ** 0.5, (edge * middle) ** 0.5,
                             float(found.middles.max()), bool((rim_sides(found, owner >= 0) >= (edge * middle) ** 0.5).all()),
                             skip, ring, lat.px / image.shape[1], floor_edge)
            try:
                _, got = read(image, look)
            except NoBoardFound as exc:
                reasons.append(f"the look learnt does not read the screenshot back ({exc})")
                continue
            if got.to_text() != board.to_text():
                reasons.append(f"the look learnt reads the screenshot as {got.to_text().replace(chr(10), '/')}")
                continue
            empty = tuple(int(v) for v in np.argwhere(owner < 0)[0])
            (x0, y0), width = lat.centre(-0.5, -0.5), image.shape[1]
            data = {"lattice": section(look), "board": board.to_text().replace("\n", "/"),
                    "region": [max(0, round(x0)), max(0, round(y0)), round(board.cols * lat.px), round(board.rows * lat.py)],
                    "pitch": [round(lat.px, 2), round(lat.py, 2)], "pitch_share": round(lat.px / width, 5)}
            return data, {"empty": square(image, lat.centre(*empty), round(min(lat.px, lat.py) / 2))}
    raise ProfileError(reasons[0] if reasons else f"the picture is too small for a board of {board.rows}×{board.cols} cells")


def _from_picks(image: np.ndarray, region: tuple[int, int, int, int],
                examples: dict[str, tuple[int, int]]) -> tuple[dict[str, Any], dict[str, np.ndarray]]:
    """The profile from a box around the board, a clicked empty cell and the clicked target."""
    x0, y0, w, h = region
    for kind in KINDS:
        px, py = examples[kind]
        if not (x0 <= px < x0 + w and y0 <= py < y0 + h):
            raise ProfileError(f"the click on {kind} is outside the box around the board")
    crop = image[y0:y0 + h, x0:x0 + w]
    ex, ey = examples["an empty cell"]
    r = max(1, min(w, h) // 100)
    colour = np.median(image[ey - r:ey + r + 1, ex - r:ex + r + 1].reshape(-1, 3), axis=0).astype(np.float32)
    tx, ty = examples["the target piece"][0] - x0, examples["the target piece"][1] - y0
    for area in board_regions(crop, colour):
        try:
            rects = piece_rects(area)
            _, sizes, _ = fit_grid(rects)
        except NoBoardFound:
            continue
        hit = [s for rect, s in zip(rects, sizes) if rect.x0 <= tx < rect.x1 and rect.y0 <= ty < rect.y1]
        if not hit:
            raise ProfileError("the click on the target piece is on no piece of the board")
        target = [hit[0][2], hit[0][3]]
        try:
            found = parse(crop, trial(rgb(colour), target))
        except NoBoardFound as exc:
            raise ProfileError(f"the clicked colour and target make no board in the box ({exc})") from None
        return build(image, found.shifted(x0, y0), target)
    raise ProfileError(f"the clicked empty cell's colour (RGB {rgb(colour)}) "
                       "shows no board of pieces in the box")



def look_of(image: np.ndarray, found: Parse[KlotskiGeometry], scale: float) -> SideLook | None:
    """How the pieces' sides look across in the screenshot, read as the vision reads it
    (shrunk by ``scale``): between two pieces, a piece and the floor, a piece and the frame
    (None when the sides between pieces look too unlike each other to judge by)."""
    board = found.board
    owner = np.full((board.rows, board.cols), -1)
    for i, p in enumerate(board.pieces):
        for r, c in p.cells():
            owner[r, c] = i
    (ox, oy), (px, py) = found.geometry.origin, found.geometry.pitch
    small = cv2.resize(image, None, fx=scale, fy=scale, interpolation=cv2.INTER_AREA) if scale < 1 else image
    return learn_look(small, GridGuess(ox * scale, oy * scale, px * scale, py * scale, board.rows, board.cols), owner)


def build(image: np.ndarray, found: Parse[KlotskiGeometry],
          target: list[int]) -> tuple[dict[str, Any], dict[str, np.ndarray]]:
    """The profile's fields and templates from a reading: the board's colour measured over
    the empty cells' centres."""
    board = found.board
    px, py = found.geometry.pitch
    ox, oy = found.geometry.origin
    taken = {cell for p in board.pieces for cell in p.cells()}
    empty = [(r, c) for r in range(board.rows) for c in range(board.cols) if (r, c) not in taken]
    half = max(1, round(0.25 * min(px, py)))
    pixels = np.concatenate([square(image, found.cells[r * board.cols + c], half).reshape(-1, 3) for r, c in empty])
    colour = np.median(pixels, axis=0)
    t = board.piece(board.target)
    width = image.shape[1]
    # a board read by its pieces' edges has no board colour showing between them: the
    # colour is the floor's, which pins the empty cells (and the grid's pitch the search)
    data = {
        "floor" if found.geometry.read_by == "edges" else "board_colour": rgb(colour), "target": target,
        "board": board.to_text().replace("\n", "/"),
        "region": [round(ox), round(oy), round(board.cols * px), round(board.rows * py)],
        "pitch": round(float(px), 2), "gap": round(float(found.geometry.gap), 2),
        "pitch_share": round(float(px) / width, 5),
        "empty_cells": len(empty),
    }
    if found.geometry.read_by == "edges":    # read other sizes as this one was read
        scale = min(1.0, WORK_SIDE / max(image.shape[:2]))
        data["work_pitch"] = round(float(px) * scale, 2)
        data["grid"] = [board.rows, board.cols]
        data["longest_piece"] = max(p.length for p in board.pieces)
        look = look_of(image, found, scale)
        if look is not None:
            data["side_look"] = look.to_json()
    tx0, ty0 = round(ox + t.col * px), round(oy + t.row * py)
    templates = {
        "empty": square(image, found.cells[empty[0][0] * board.cols + empty[0][1]], round(min(px, py) / 2)),
        "target": image[max(0, ty0):round(ty0 + t.height * py), max(0, tx0):round(tx0 + t.width * px)].copy(),
    }
    return data, templates
