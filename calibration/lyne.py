"""Teach the LYNE vision a look from one screenshot: the game's background colour.

    puzzlepilot calibrate lyne SHOT.png --name NAME [--board TEXT|FILE]

The LYNE vision reads shapes by their outlines, whatever the palette, and finds the game
as a large smooth patch of the screen (its lit background); a game window too small
to count as one on a big desktop is missed. A profile pins the background's colour
(``background_rgb``, the patch's median under the game's light): patches of about that
colour count however small, looked for on a finer copy of the screen. With ``--board``
each of the screenshot's common colours is tried as the background until the board reads
as the given one; when none does (nodes in shapes or a game the shape rules do not read) the
look is learnt whatever it is (``calibration.lattice``: each node kind, terminal and hub count
of the board text, and empty places, as pictures on the lattice that fits the board). Without
it a window asks for a box around the game and a click on its background. For the user and for checks the profile also keeps the shapes' fill colours,
the game area, pitch and node size (also as shares of the game area's width), and one
template per kind of node.
"""
from __future__ import annotations

from pathlib import Path
from typing import Any

import numpy as np

from calibration import lattice as learnt
from calibration.common import first_reading, rgb, square
from solvers.lyne import Board
from vision.colours import common_colours, thinned
from vision.common import NoBoardFound, Parse
from vision.lattice import RULES
from vision.lyne import LyneGeometry, parse
from vision.profile import Profile, ProfileError

KINDS: tuple[str, ...] = ("the background (an empty spot of the game)",)
COMMON_COLOURS = 8


def learn(image: np.ndarray, board: Board | None = None, region: Any = None,
          examples: dict[str, tuple[int, int]] | None = None) -> tuple[dict[str, Any], dict[str, np.ndarray]]:
    """profile.json's fields and the templates for a LYNE look; opens the window for the
    box and click when neither a board nor the picks are given."""
    if board is not None:       # a look the shape rules do not read: the lattice learner fits it
        return learnt.or_learnt(lambda: _from_board(image, board), image, board.to_text().split("\n"), region,
                                RULES["lyne"], ("lyne", Board, parse))
    if region is None or examples is None or not set(KINDS) <= set(examples):
        from calibration.picker import pick

        region, examples = pick(image, KINDS, title="calibrate lyne: box the game, then click its background")
    return _from_picks(image, tuple(region), examples)


def trial(background_rgb: list[int]) -> Profile:
    """An in-memory profile, so trials read exactly as the stored profile will."""
    return Profile("trial", "lyne", Path("."), {"background_rgb": background_rgb})


def _from_board(image: np.ndarray, board: Board) -> tuple[dict[str, Any], dict[str, np.ndarray]]:
    colours = common_colours(thinned(image, 40_000), bits=5, most=COMMON_COLOURS)
    found = first_reading(colours, lambda colour: parse(image, trial(rgb(colour))), board.to_text(),
                          "no colour of the screenshot, taken as the background, reads as the given board")
    return build(image, found)


def _from_picks(image: np.ndarray, region: tuple[int, int, int, int],
                examples: dict[str, tuple[int, int]]) -> tuple[dict[str, Any], dict[str, np.ndarray]]:
    """The profile from a box around the game and a click on its background."""
    x0, y0, w, h = region
    (kind,) = KINDS
    px, py = examples[kind]
    if not (x0 <= px < x0 + w and y0 <= py < y0 + h):
        raise ProfileError("the click on the background is outside the box around the game")
    colour = np.median(square(image, (px, py), max(1, min(w, h) // 200)).reshape(-1, 3), axis=0)
    try:
        found = parse(image[y0:y0 + h, x0:x0 + w], trial(rgb(colour)))
    except NoBoardFound as exc:
        raise ProfileError(f"with the clicked background (RGB {rgb(colour)}) no board reads in the box ({exc})") from None
    return build(image, found.shifted(x0, y0))


def build(image: np.ndarray, found: Parse[LyneGeometry]) -> tuple[dict[str, Any], dict[str, np.ndarray]]:
    """The profile's fields and templates from a reading of the screenshot."""
    geo = found.geometry
    ax0, ay0, ax1, ay1 = geo.area
    board = found.board
    data = {
        "background_rgb": list(geo.background), "colours": {shape: list(fill) for shape, fill in geo.colours.items()},
        "board": board.to_text().replace("\n", "/"),
        "area": [ax0, ay0, ax1 - ax0, ay1 - ay0],
        "pitch": round(float(geo.pitch), 2), "node_size": round(float(geo.node_size), 2),
        "pitch_share": round(float(geo.pitch) / (ax1 - ax0), 5),
    }
    templates: dict[str, np.ndarray] = {}
    half = round(0.6 * geo.node_size)
    for r, row in enumerate(board.to_text().split("\n")):
        for c, ch in enumerate(row):
            key = "hub" if ch.isdigit() else f"terminal_{ch.lower()}" if ch.isupper() else f"node_{ch}" if ch != "." else ""
            if key and key not in templates:
                templates[key] = square(image, found.cells[r * board.cols + c], half)
    return data, templates
