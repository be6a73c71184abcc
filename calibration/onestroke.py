"""Teach the one-stroke vision a new look (palette, theme) from one screenshot.

    puzzlepilot calibrate onestroke SHOT.png --name NAME [--board TEXT|FILE] [--picks PICKS.json]

With ``--board`` each dominant colour of the screenshot is tried as the cell colour, and the
first one whose squares make a grid that reads as the given board is kept; when none does,
the look is learnt whatever it is (``calibration.lattice``: cell, hole and start as pictures
on the lattice that fits the board). Without it a window asks for a box around the board
and a click on a cell, a hole (or the ground beside a board with none) and the start, or
``--picks`` gives them as JSON, in screenshot pixels (see ``read_picks``)::

    {"box": [x, y, width, height], "cell": [x, y], "hole": [x, y], "start": [x, y]}

and the board they show (``calibration.lattice.board_from_clicks``) is learnt as
``--board`` learns it. Either way the profile gets what the vision uses
(``vision.onestroke.look_of``): the cell colour, its tolerance and a ``start`` template (the
start cell's picture, so a start marker that is not the game's cat with a face is found
too); and, for the user and for checks, the background colour, the board's box, pitch and
cell size (also as shares of the screenshot's width) and two more templates: a cell and the
cat with its tail.
"""
from __future__ import annotations

from dataclasses import replace
from pathlib import Path
from typing import Any

import cv2
import numpy as np

from calibration import lattice as learnt
from calibration.common import read_box_and_clicks, rgb, square
from solvers.onestroke import Board
from vision.colours import common_colours
from vision.common import NoBoardFound, Parse
from vision.lattice import RULES
from vision.onestroke import (WORK_SIZE, Lattice, Look, OnestrokeGeometry, central, looked_grids, parse, read, refine,
                              signature)
from vision.profile import ProfileError

KINDS: tuple[str, ...] = ("a cell", "a hole (else the ground)", "the start")    # the ground: a board with no hole
CLASSES = "#.S"                 # the board character of each kind
PICKS = ("box", "cell", "hole", "start")     # a picks file's fields: the box, then KINDS in order
PICKS_WITHOUT_BOARD = True      # ``calibrate --picks`` needs no --board: the clicks say enough
TRIAL_TOLERANCES = (24, 36, 48)     # a dominant colour is a bin's median: allow for its spread
COLOUR_BITS = 4                 # the colour histogram's bins: the top 4 bits of each channel, 16 levels wide
MAX_CANDIDATES = 10


def learn(image: np.ndarray, board: Board | None = None, region: Any = None,
          examples: dict[str, tuple[int, int]] | None = None) -> tuple[dict[str, Any], dict[str, np.ndarray]]:
    """profile.json's fields and the templates for a one-stroke look; opens the window for
    the box and clicks when neither a board nor the picks are given."""
    if board is not None:       # a look the colour rules do not cover: the lattice learner fits it
        return learnt.or_learnt(lambda: build(image, *_match_board(image, board)), image,
                                board.to_text().split("\n"), region, RULES["onestroke"],
                                ("onestroke", Board, parse))
    if region is None or examples is None or not {KINDS[0], KINDS[2]} <= set(examples):
        from calibration.picker import pick

        region, examples = pick(image, KINDS, title="calibrate onestroke: box the board, then click a cell, a hole "
                                                     "and the start")
    return _from_picks(image, tuple(region), examples)


def dominant_colours(image: np.ndarray, most: int = MAX_CANDIDATES) -> list[tuple[int, int, int]]:
    """The most common colours (BGR), each the median of one histogram bin's pixels,
    commonest first."""
    step = max(1, max(image.shape[:2]) // 512)
    return [tuple(int(v) for v in colour) for colour in common_colours(image[::step, ::step], bits=COLOUR_BITS, most=most)]


def lattice(image: np.ndarray, look: Look) -> Lattice | None:
    """The lattice the look's cells make, measured at full resolution (the vision's first
    stages, at its working scale)."""
    h, w = image.shape[:2]
    k = min(1.0, WORK_SIZE / max(h, w))
    small = cv2.resize(image, (round(w * k), round(h * k)), interpolation=cv2.INTER_AREA) if k < 1 else image
    for lat, cells in looked_grids(small, look):
        return refine(image, lat.scaled(1 / k), cells)
    return None


def with_start(image: np.ndarray, look: Look, lat: Lattice, place: tuple[int, int]) -> Look:
    """The look that knows the start by its picture at a lattice place (so a start marker
    other than the game's cat is found too)."""
    crop = central(image, lat.centre(*place), lat.cell)
    return look if crop is None else replace(look, start=signature(crop))


def _match_board(image: np.ndarray, board: Board) -> tuple[Parse[OnestrokeGeometry], Look]:
    """The reading, and the look that gave it, whose board is the given one. The lattice's
    members are the cells of the look's colour, re-based to row and column 0: the start's
    place on it follows from the board's other cells."""
    want = board.to_text()
    others = [p for p in board.cells if p != board.start]
    r0, c0 = min(r for r, _ in others), min(c for _, c in others)
    seen: list[str] = []
    for colour in dominant_colours(image):
        for tolerance in TRIAL_TOLERANCES:
            lat = lattice(image, Look(colour, tolerance))
            if lat is None:
                continue
            look = with_start(image, Look(colour, tolerance), lat, (board.start[0] - r0, board.start[1] - c0))
            try:
                found = read(image, look)
            except NoBoardFound:
                continue
            if found.board.to_text() == want:
                return found, look
            seen.append(found.board.to_text().replace("\n", "/"))
            break
    hint = f" (grids read: {', '.join(seen[:3])})" if seen else ""
    raise ProfileError(f"no colour of the screenshot makes a grid of cells that reads as the given board{hint}")


def read_picks(path: Path, board: Board | None = None) -> tuple[tuple[int, int, int, int], dict[str, tuple[int, int]]]:
    """The box and the clicks (keyed as ``KINDS`` names them; "hole" may be left out when
    the board has none) from a picks file (``PICKS``); ProfileError naming the file and the
    field when it is not one."""
    return read_box_and_clicks(path, PICKS, KINDS, optional=("hole",))


def _from_picks(image: np.ndarray, region: tuple[int, int, int, int],
                examples: dict[str, tuple[int, int]]) -> tuple[dict[str, Any], dict[str, np.ndarray]]:
    """The profile from a box around the board and a click on a cell, a hole (when given)
    and the start: the board they show (``calibration.lattice.board_from_clicks``) learnt
    as ``--board`` learns it, in the box a pitch wider."""
    x0, y0, w, h = region
    for kind in examples:
        px, py = examples[kind]
        if not (x0 <= px < x0 + w and y0 <= py < y0 + h):
            raise ProfileError(f"the click on {kind} is outside the box around the board")
    clicks = [(kind, ch, examples[kind]) for kind, ch in zip(KINDS, CLASSES) if kind in examples]
    try:
        rows, lat = learnt.board_from_clicks(image, region, clicks, RULES["onestroke"], ("onestroke", Board, parse))
    except ProfileError as exc:
        hint = "" if KINDS[1] in examples else " (a board with holes needs a click on one)"
        raise ProfileError(f"{exc}{hint}") from None
    (bx0, by0), (bx1, by1) = lat.centre(-1.5, -1.5), lat.centre(lat.rows + 0.5, lat.cols + 0.5)
    around = (max(0, round(bx0)), max(0, round(by0)))
    around += (min(image.shape[1], round(bx1)) - around[0], min(image.shape[0], round(by1)) - around[1])
    return learn(image, Board.from_text("\n".join(rows)), around)


def build(image: np.ndarray, found: Parse[OnestrokeGeometry],
          look: Look) -> tuple[dict[str, Any], dict[str, np.ndarray]]:
    """The profile's fields and templates from a reading of the screenshot: the cell colour
    and its spread measured over the board's unvisited-looking cells, the background from
    the gap corners between places."""
    board = found.board
    px, py = found.geometry.pitch
    cell = found.geometry.cell
    centre = {(r, c): found.cells[r * board.cols + c] for r in range(board.rows) for c in range(board.cols)}
    half = max(1, round(0.3 * cell))
    pixels = np.concatenate([square(image, centre[p], half).reshape(-1, 3) for p in board.cells if p != board.start])
    near = pixels[np.abs(pixels.astype(np.int16) - look.cell).max(axis=1) <= look.tolerance]
    colour = np.median(near, axis=0)
    spread = np.percentile(np.abs(near.astype(np.float64) - colour).max(axis=1), 99)
    tolerance = int(np.clip(round(1.5 * spread) + 8, 24, 60))
    corners = [square(image, (x + dx * px / 2, y + dy * py / 2), 1).reshape(-1, 3)
               for x, y in centre.values() for dx in (-1, 1) for dy in (-1, 1)]
    background = np.median(np.concatenate(corners), axis=0)

    xs = [x for x, _ in found.cells]
    ys = [y for _, y in found.cells]
    bx0, by0 = max(0, round(min(xs) - px / 2)), max(0, round(min(ys) - py / 2))
    bx1, by1 = min(image.shape[1], round(max(xs) + px / 2)), min(image.shape[0], round(max(ys) + py / 2))
    width = image.shape[1]
    data = {
        "cell_rgb": rgb(colour), "tolerance": tolerance, "background_rgb": rgb(background),
        "board": board.to_text().replace("\n", "/"),
        "region": [bx0, by0, bx1 - bx0, by1 - by0],
        "pitch": round(float(px), 2), "cell": round(float(cell), 2),
        "pitch_share": round(float(px) / width, 5), "cell_share": round(float(cell) / width, 5),
    }
    some_cell = next(p for p in sorted(board.cells) if p != board.start)
    sx, sy = centre[board.start]
    start = central(image, centre[board.start], cell)
    templates = {
        "cell": square(image, centre[some_cell], round(cell / 2)),
        **({"start": start.copy()} if start is not None else {}),
        # the cat's tail pokes above its cell: the crop reaches a pitch up
        "cat": image[max(0, round(sy - py)):round(sy + 0.6 * py), max(0, round(sx - 0.6 * px)):round(sx + 0.6 * px)].copy(),
    }
    return data, templates
