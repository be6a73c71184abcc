"""Teach the ring-battle vision a new arena look (tiles, enemies, stage) from one screenshot.

    puzzlepilot calibrate rings SHOT.png --name NAME [--board TEXT|FILE]

The default vision finds the arena by its ring and slice borders, then takes a ring's
commonest tile look as empty; tiles of two looks (a checkerboard) or enemies that look alike
break that. With ``--board`` the arena is found as the default vision finds it and the
board says which cells are empty and which hold enemies; without it a window asks for a box
around the arena and clicks on its centre, its outer rim, an empty tile and an enemy, and a
cell is taken as empty when another tile of its ring looks just like it (figures, drawn
upright, look different on every slice). The profile records (``vision.rings.look_of``):
the ring radii as shares of the outer radius, the centre as shares of the frame and the
outer radius as a share of its height, every ring's empty tiles as unwarped patches
(templates ``empty_ring0``–``3``), and two distances that set the threshold: the farthest
an empty tile is from its nearest look-alike, and the nearest an enemy comes to an empty
tile (both counting only what differs beyond light and JPEG noise). For the user and for checks: each ring's empty colour, the board, the arena in
pixels and the enemies' patches (template ``enemies``).
"""
from __future__ import annotations

from typing import Any

import numpy as np

from calibration.common import rgb
from calibration.profile import ProfileError
from solvers.rings import EMPTY, RINGS, SLICES, Board
from vision.common import NoBoardFound
from vision.rings import (EMPTY_FLOOR, RING_PX, SAME_TILE, SLICE_PX, Arena, arena_at, cell_patches, distances,
                          excess, find_arena, greys, unwarp)

KINDS: tuple[str, ...] = ("the centre of the arena", "a point on the arena's outer rim", "an empty tile", "an enemy")
APART = 1.5          # an enemy's distance over an empty tile's, at least, for a usable look


def learn(image: np.ndarray, board: Board | None = None, region: Any = None,
          examples: dict[str, tuple[int, int]] | None = None) -> tuple[dict[str, Any], dict[str, np.ndarray]]:
    """profile.json's fields and the templates for a rings look; opens the window for the
    box and clicks when neither a board nor the picks are given."""
    if board is not None:
        try:
            arena, _ = find_arena(image)
        except NoBoardFound:
            raise ProfileError(_not_flat(image)) from None
        taken = [[ch != EMPTY for ch in ring] for ring in board.cells]
        return build(image, arena, taken)
    if region is None or examples is None or not set(KINDS) <= set(examples):
        from calibration.picker import pick

        region, examples = pick(image, KINDS, title="calibrate rings: box the arena, then click what it asks for")
    return _from_picks(image, tuple(region), examples)


def _not_flat(image: np.ndarray) -> str:
    """Why a screenshot gives no arena to calibrate: the game's own camera look (read by
    the default vision, no profile needed; a calibrated look is learned from an arena seen
    from above), or no arena at all."""
    from vision.rings_camera import CellsRefused, read_camera

    try:
        read_camera(image)
    except CellsRefused:
        pass                            # the arena is there; its cells are another matter
    except NoBoardFound:
        return "no ring arena found in the screenshot: calibrate without --board and click its centre and outer rim"
    return ("the screenshot shows the game's own tilted or overhead camera look, which the default vision "
            "reads without a profile (try: puzzlepilot parse SHOT --game rings); a calibrated look is "
            "learned from an arena seen from straight above")


def _from_picks(image: np.ndarray, region: tuple[int, int, int, int],
                examples: dict[str, tuple[int, int]]) -> tuple[dict[str, Any], dict[str, np.ndarray]]:
    """The profile from a box around the arena and clicks on its centre, rim, an empty tile
    and an enemy."""
    x0, y0, w, h = region
    for kind in KINDS:
        px, py = examples[kind]
        if not (x0 <= px < x0 + w and y0 <= py < y0 + h):
            raise ProfileError(f"the click on {kind} is outside the box around the arena")
    (cx, cy), (rx, ry) = examples[KINDS[0]], examples[KINDS[1]]
    grey_full, grey, k = greys(image)
    radius = float(np.hypot(rx - cx, ry - cy))
    found = arena_at(grey_full, grey, k, (cx * k, cy * k, radius * k), span=(0.85, 1.15))
    if found is None:
        raise ProfileError("no ring arena (4 rings × 12 slices) around the clicked centre and rim")
    arena = found[0]
    taken = [[not alike for alike in ring] for ring in _has_lookalike(unwarp(image, arena))]
    for kind, want in ((KINDS[2], False), (KINDS[3], True)):
        cell = arena.cell_at(*examples[kind])
        if cell is None:
            raise ProfileError(f"the click on {kind} is not on a tile of the arena found")
        if taken[cell[0]][cell[1]] != want:
            raise ProfileError(f"the tile clicked as {kind} (ring {cell[0]}, slice {cell[1]}) does not look "
                               f"{'unlike' if want else 'like'} the other tiles of its ring")
    return build(image, arena, taken)


def _has_lookalike(flat: np.ndarray) -> list[list[bool]]:
    """Per cell, whether another tile of its ring looks just like it (empty tiles repeat;
    figures, upright on screen, differ from slice to slice)."""
    out = []
    for patches in cell_patches(flat):
        diff = distances(patches, patches) + np.eye(SLICES) * 1e9
        out.append((diff.min(axis=1) < SAME_TILE).tolist())
    return out


def build(image: np.ndarray, arena: Arena, taken: list[list[bool]]) -> tuple[dict[str, Any], dict[str, np.ndarray]]:
    """The profile's fields and templates from the arena and which cells hold enemies."""
    flat = unwarp(image, arena)
    patches = cell_patches(flat)
    tiles = {(r, s): flat[r * RING_PX:(r + 1) * RING_PX, s * SLICE_PX:(s + 1) * SLICE_PX]
             for r in range(RINGS) for s in range(SLICES)}
    empty_far, enemy_near, templates, colours = [], [], {}, []
    for r in range(RINGS):
        empty = [s for s in range(SLICES) if not taken[r][s]]
        enemies = [s for s in range(SLICES) if taken[r][s]]
        if len(empty) < 2:
            raise ProfileError(f"ring {r} shows {len(empty)} empty tile{'' if len(empty) == 1 else 's'}; "
                               f"calibrating needs 2 or more in every ring")
        diff = excess(patches[r][empty], patches[r][empty]) + np.eye(len(empty)) * 1e9
        empty_far.append(float(diff.min(axis=1).max()))
        if enemies:
            enemy_near.append(float(excess(patches[r][enemies], patches[r][empty]).min()))
        templates[f"empty_ring{r}"] = np.hstack([tiles[r, s] for s in empty])
        colours.append(rgb(np.median(np.stack([tiles[r, s] for s in empty]).reshape(-1, 3), axis=0)))
    if not enemy_near:
        raise ProfileError("the board shows no enemy; calibrating needs at least one")
    empty_distance, enemy_distance = max(empty_far), min(enemy_near)
    if enemy_distance < APART * max(empty_distance, EMPTY_FLOOR):
        raise ProfileError(f"empty tiles and enemies do not look apart (an enemy is {enemy_distance:.1f} from an empty "
                           f"tile, an empty tile {empty_distance:.1f} from its nearest look-alike): is the board the "
                           f"one the screenshot shows?")
    templates["enemies"] = np.hstack([tiles[r, s] for r in range(RINGS) for s in range(SLICES) if taken[r][s]])
    h, w = image.shape[:2]
    ratio = arena.inner / arena.outer
    data = {
        "ring_radii": [round(1 - k * (1 - ratio) / RINGS, 4) for k in range(RINGS + 1)],
        "centre_share": [round(arena.cx / w, 4), round(arena.cy / h, 4)],
        "outer_share": round(arena.outer / h, 4),
        "empty_distance": round(empty_distance, 3), "enemy_distance": round(enemy_distance, 3),
        "empty_rgb": colours,
        "board": "/".join("".join("x" if t else EMPTY for t in ring) for ring in taken),
        "arena": arena.to_json(),
    }
    return data, templates
