"""Teach the ring-battle vision a new arena look (tiles, enemies, stage) from one screenshot.

    puzzlepilot calibrate rings SHOT.png --name NAME [--board TEXT|FILE | --picks PICKS.json]

Two kinds of look. An arena seen through the game's camera (tilted or overhead, as the real
game shows it) is taught by ``learn_camera``: the camera reader (``vision.rings_camera``)
learns the inner ring's colour, the tile colours, the ring edges as shares of the outer
radius, the fitted tilt as the next fits' start and how much lightness counts in telling
figures from tiles (profile field ``camera_look``; a look that reads other positions and
sizes or refuses them). Each strong colour of the picture is tried as the inner ring's, then,
when none makes an arena, every other colour of the arena's box (pale, grey, dark: an arena
another tool draws flat, seen straight down);
the first look whose reading agrees with what the user said is kept: the ``--board``, or the
window's box and clicks (or ``--picks``, the same as JSON in screenshot pixels)::

    {"box": [x, y, width, height], "centre": [x, y], "rim": [x, y], "empty": [x, y], "enemy": [x, y]}

(a point on the central disc, one on the arena's outer rim, one on an empty tile, one where
an enemy stands): the arena found must hold the centre on its disc and the rim point on its
rim, the empty tile must read empty and the enemy's tile taken. The same clicks first try a
flat arena, seen from straight above (the practice arena and looks like it):

the default vision finds the arena by its ring and slice borders, then takes a ring's
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

import itertools
from pathlib import Path
from typing import Any, Callable, Iterator

import cv2
import numpy as np

from calibration.common import read_box_and_clicks, rgb
from solvers.rings import EMPTY, RINGS, SLICES, Board
from vision.common import NoBoardFound
from vision.profile import ProfileError
from vision.rings import (EMPTY_FLOOR, RING_PX, SAME_TILE, SLICE_PX, Arena, arena_at, cell_patches, check_solvable,
                          distances, excess, find_arena, greys, read_budget, unwarp)
from vision.rings_camera import (WORK, CameraLook, CellsRefused, HSVRange, _bands, _mask_blue, in_range,
                                 read_camera, scaled)

KINDS: tuple[str, ...] = ("the centre of the arena", "a point on the arena's outer rim", "an empty tile",
                          "an enemy (where it stands)")
PICKS = ("box", "centre", "rim", "empty", "enemy")     # a picks file's fields: the box, then KINDS in order
PICKS_WITHOUT_BOARD = True   # ``calibrate --picks`` needs no --board here: the clicks say enough
RIM_SLACK = 0.12     # how far off the outer rim (a share of its radius) the rim click may be
MIN_RIM = 16         # least distance (px) of the rim click from the centre click
APART = 1.5          # an enemy's distance over an empty tile's, at least, for a usable look
HUE_SPAN = 12        # hue either side of a strong colour's centre for the inner ring's range
TILE_SHARE = 0.15    # least share of the pixels around the inner ring a tile colour covers
GREYISH = 60         # tiles with saturation under this take any hue
TILE_HUE = 16        # most hue either side of a tile colour's centre (a tile has one hue)
LIGHTS = (0.2, 0.5, 1.0)   # weights of lightness tried for telling figures from tiles, the game's first
FLAT_BIN = 6       # Lab histogram bin width for the inner ring's candidates of any colour
FLAT_APART = 16    # least Lab distance between two such colours
FLAT_SHARE = 0.004  # least share of the picture a bin of such a colour covers
FLAT_MODES = 12    # most such colours tried
GREY = 12          # a colour with saturation under this is grey: any hue, its lightness bounds it
UNSTEADY = 2       # most ``held_out`` copies (of 5) of the screenshot a look learned from clicks may refuse


Accept = Callable[[Arena, list[list[bool]]], "str | None"]   # why a camera reading is not the one meant


def learn(image: np.ndarray, board: Board | None = None, region: Any = None,
          examples: dict[str, tuple[int, int]] | None = None) -> tuple[dict[str, Any], dict[str, np.ndarray]]:
    """profile.json's fields and the templates for a rings look; opens the window for the
    box and clicks when neither a board nor the picks are given (with a board, the board
    decides)."""
    if board is not None:
        try:
            arena, _ = find_arena(image)
        except NoBoardFound:
            return learn_camera(image, reads_board(board))
        taken = [[ch != EMPTY for ch in ring] for ring in board.cells]
        return build(image, arena, taken)
    if region is None or examples is None or not set(KINDS) <= set(examples):
        from calibration.picker import pick

        region, examples = pick(image, KINDS, title="calibrate rings: box the arena, then click what it asks for")
    return _from_picks(image, tuple(region), examples)


def read_picks(path: Path, board: Board | None = None) -> tuple[tuple[int, int, int, int], dict[str, tuple[int, int]]]:
    """The box and the four clicks (keyed as ``KINDS`` names them) from a picks file
    (``PICKS``); ProfileError naming the file and the field when it is not one."""
    return read_box_and_clicks(path, PICKS, KINDS)


def reads_board(board: Board) -> Accept:
    """A camera reading is the one meant when it reads the given board, its slices
    numbered from anywhere either way round (``Board.numberings``: other tools and guides
    number them their own way; the profile reads them as docs/games.md does)."""

    def enemies(taken: list[list[bool]]) -> Board:    # any enemy letter as "x", no budget (as a camera reads)
        return Board(tuple("".join("x" if t else EMPTY for t in ring) for ring in taken))

    numberings = enemies([[ch != EMPTY for ch in ring] for ring in board.cells]).numberings()
    return lambda arena, taken: (None if enemies(taken) in numberings else
                                 "the arena is found, but it does not read as the given board, however its "
                                 "slices are numbered: is the board the one seen?")


def agrees_with_picks(image: np.ndarray, examples: dict[str, tuple[int, int]]) -> Accept:
    """A camera reading is the one meant when the clicked centre is on its disc, the rim
    click on its outer rim, the empty tile reads empty, the enemy's tile taken, and the
    board read has an answer within the panel's budget (as every battle has: clicks say
    less than a board, so a misread look must not pass)."""
    budget = read_budget(image).moves

    def why(arena: Arena, taken: list[list[bool]]) -> str | None:
        if arena.locate(*examples[KINDS[0]])[0] > arena.radii[-1]:
            return "the arena found does not have the clicked centre on its central disc"
        if abs(arena.locate(*examples[KINDS[1]])[0] / arena.radii[0] - 1.0) > RIM_SLACK:
            return "the arena found does not have its outer rim at the clicked rim point"
        for kind, want in ((KINDS[2], False), (KINDS[3], True)):
            cell = arena.cell_at(*examples[kind])
            if cell is None:
                return f"the click on {kind} is not on a tile of the arena found"
            if taken[cell[0]][cell[1]] != want:
                return (f"the tile clicked as {kind} (ring {cell[0]}, slice {cell[1]}) reads "
                        f"{'empty' if want else 'as an enemy'}")
        try:
            check_solvable(Board(tuple("".join("x" if t else EMPTY for t in ring) for ring in taken), budget))
        except NoBoardFound as exc:
            return f"the board read with the clicks is no battle: {exc}"
        return None
    return why


def learn_camera(image: np.ndarray, accept: Accept, sure: bool = False,
                 box: tuple[int, int, int, int] | None = None) -> tuple[dict[str, Any], dict[str, np.ndarray]]:
    """The profile of a look seen through the game's camera (tilted or overhead) from one
    screenshot: each strong colour of the picture is tried as the inner ring's, then, when
    none makes an arena, every other colour of the arena's ``box`` (the picture when none is
    given: the board says what, not where); the tiles' colours are taken around the band it
    makes; the first pair with which the camera reader finds an arena (disc, inner ring,
    three equal rings, 12 slice borders) whose reading ``accept`` takes (the given board, or
    the user's clicks) gives the ranges, the ring edges as shares of the outer radius and
    the fitted tilt (the next fits' starting point). ``sure`` (clicks, no board): every weight of lightness that reads the arena must
    read the same board, else that pair is passed over. ProfileError with the last
    disagreement when none does (else why no reading)."""
    cv2.setRNGSeed(0)                   # k-means starts alike: one screenshot, one profile
    k = min(1.0, WORK / max(image.shape[:2]))
    small = cv2.resize(image, None, fx=k, fy=k, interpolation=cv2.INTER_AREA) if k < 1 else image
    nothing = "no ring arena found in the screenshot"
    seen, disagree = nothing, None
    x, y, w, h = (round(v * k) for v in box) if box is not None else (0, 0, small.shape[1], small.shape[0])

    def flat() -> Iterator[HSVRange]:
        """The other colours, when no strong one made an arena (else its reading decides);
        found only then, as their search would change what OpenCV's random state gives the
        tiles' k-means."""
        if seen == nothing and disagree is None:
            yield from _flat_colours(small[max(0, y):max(0, y + h), max(0, x):max(0, x + w)])
    for inner in itertools.chain(_strong_colours(small), flat()):
        for band, _ in _bands(_mask_blue(small, CameraLook(inner)))[:1]:
            tiles = _tile_range(small, band, inner)
            readings = []
            for light in LIGHTS if tiles else ():
                look = CameraLook(inner, tiles, light=light)
                try:
                    arena, _, taken, _ = read_camera(small, look)
                except CellsRefused as exc:
                    seen = f"the arena is found, but its cells are not sure ({exc}); calibrate on another screenshot"
                    continue
                except NoBoardFound:
                    break
                readings.append((look, scaled(arena, 1.0 / k), taken))
                if sure:
                    continue
                why = accept(*readings[-1][1:])
                if why is None:
                    return _camera_profile(*readings[-1]), {}
                disagree = why
            if not sure or not readings:
                continue
            if len({str(taken) for _, _, taken in readings}) > 1:
                disagree = ("the board read changes with how much lightness counts: the clicks leave it unsure; "
                            "give --board")
                continue
            why = accept(*readings[0][1:]) or unsteady(image, readings[0][0], readings[0][2])
            if why is None:
                return _camera_profile(*readings[0]), {}
            disagree = why
    raise ProfileError(disagree or seen)


def held_out(image: np.ndarray) -> dict[str, np.ndarray]:
    """Copies of the calibration screenshot a look must read alike, named for the user: as
    the screenshot could have been taken. The camera reader works at ``WORK`` pixels at
    most, so the smaller copies and the blur are sized from that working size: each is a new
    sampling of every figure's edge, where a look on a knife edge tips over."""
    h, w = image.shape[:2]
    side = max(h, w)
    work = min(side, WORK)
    out = {f"at {k:.0%}": cv2.resize(image, (max(1, round(w * k * work / side)), max(1, round(h * k * work / side))),
                                     interpolation=cv2.INTER_AREA) for k in (0.8, 0.9)}
    out["blurred"] = cv2.GaussianBlur(image, (0, 0), 0.7 * side / work)
    for quality in (70, 90):
        out[f"as JPEG {quality}"] = cv2.imdecode(cv2.imencode(".jpg", image, [cv2.IMWRITE_JPEG_QUALITY, quality])[1],
                                                 cv2.IMREAD_COLOR)
    return out


def unsteady(image: np.ndarray, look: CameraLook, taken: list[list[bool]]) -> str | None:
    """Why a look learned from clicks is not sure of its board (None when it is): a
    ``held_out`` copy of the screenshot reads another board, or more than ``UNSTEADY`` of
    them are refused (a look that reads its board only on the very pixels it was taught on
    has its figures on a knife edge: dark figures that the lightness weight hides on grey
    tiles, a badge taken for feet, figures lost in a crowd on the far side while the count
    still makes whole groups). The clicks say four things; the copies check the rest."""
    copies, refused = held_out(image), []
    for name, copy in copies.items():
        try:
            _, _, seen, _ = read_camera(copy, look)
        except NoBoardFound:
            refused.append(name)
            continue
        if seen != taken:
            return (f"the look learned reads the screenshot {name} as another board: the clicks leave the board "
                    f"unsure; give --board")
    if len(refused) > UNSTEADY:
        return (f"the look learned refuses the screenshot {', '.join(refused)} ({len(refused)} of {len(copies)} "
                f"copies): its reading is not sure; give --board or calibrate on another screenshot")
    return None


def _camera_profile(look: CameraLook, arena: Arena, taken: list[list[bool]]) -> dict[str, Any]:
    """profile.json's fields for a camera look: ``camera_look`` (what the reader uses, see
    ``vision.rings_camera.camera_look_of``) and, for the user, the board and the arena."""
    (lo, hi), edges = look.inner, arena.radii
    return {"camera_look": {"inner_hsv": [list(lo), list(hi)], "tile_hsv": [[list(a), list(b)] for a, b in look.tiles],
                            "edges": [round(e / edges[0], 4) for e in edges],
                            "tilt": round(arena.tilt * edges[-1] / edges[0], 4), "light": look.light},
            "board": "/".join("".join("x" if t else EMPTY for t in ring) for ring in taken),
            "arena": arena.to_json()}


def _strong_colours(image: np.ndarray) -> list[HSVRange]:
    """HSV ranges around the picture's strong colours (k-means centres of its saturated
    pixels), commonest first: the candidates for the inner ring's colour."""
    hsv = cv2.cvtColor(image, cv2.COLOR_BGR2HSV).reshape(-1, 3)
    strong = hsv[(hsv[:, 1] >= 50) & (hsv[:, 2] >= 60)][::3]
    if len(strong) < 50:
        return []
    hue = np.radians(strong[:, 0].astype(np.float32) * 2.0)
    points = np.stack([np.cos(hue) * 100, np.sin(hue) * 100, strong[:, 1] * 0.3], axis=1).astype(np.float32)
    _, labels, _ = cv2.kmeans(points, 8, None, (cv2.TERM_CRITERIA_MAX_ITER + cv2.TERM_CRITERIA_EPS, 20, 1.0), 2,
                              cv2.KMEANS_PP_CENTERS)
    out = []
    for label in np.argsort(-np.bincount(labels.ravel(), minlength=8)):
        mine = strong[labels.ravel() == label]
        if len(mine) < 0.01 * len(strong):
            continue
        angle = np.angle(np.exp(1j * np.radians(mine[:, 0] * 2.0)).mean())
        h = int(round(np.degrees(angle) / 2.0)) % 180
        s_lo, v_lo = np.percentile(mine[:, 1], 5), np.percentile(mine[:, 2], 5)
        out.append(((int((h - HUE_SPAN) % 180), int(max(30, s_lo - 30)), int(max(40, v_lo - 50))),
                    (int((h + HUE_SPAN) % 180), 255, 255)))
    return out


def _flat_colours(image: np.ndarray) -> list[HSVRange]:
    """HSV ranges around every colour of the picture, pale, grey and dark ones too: the
    modes of its Lab histogram (bins ``FLAT_BIN`` wide, each at least ``FLAT_APART`` from a
    commoner one and covering ``FLAT_SHARE`` of the picture), commonest first, each range as
    tight as the pixels near its mode are (an arena drawn flat by another tool has no light
    to allow for): the inner ring's candidates after the strong colours. A pale grey-blue
    ring amid white tiles and grey joints is told from them by lightness and saturation, not
    hue alone; modes, unlike k-means centres, do not merge a small ring into its neighbours."""
    lab = cv2.cvtColor(image, cv2.COLOR_BGR2LAB).reshape(-1, 3)[::2].astype(np.float32)
    hsv = cv2.cvtColor(image, cv2.COLOR_BGR2HSV).reshape(-1, 3)[::2].astype(float)
    if len(lab) < 500:
        return []
    side = 256 // FLAT_BIN + 1
    q = (lab // FLAT_BIN).astype(np.int64)
    counts = np.bincount((q[:, 0] * side + q[:, 1]) * side + q[:, 2], minlength=side ** 3)
    modes: list[np.ndarray] = []
    out = []
    for at in np.argsort(-counts, kind="stable"):
        if counts[at] < FLAT_SHARE * len(lab) or len(modes) == FLAT_MODES:
            break
        centre = (np.array([at // side ** 2, at // side % side, at % side]) + 0.5) * FLAT_BIN
        if any(np.linalg.norm(centre - m) < FLAT_APART for m in modes):
            continue
        modes.append(centre)
        mine = hsv[np.linalg.norm(lab - centre, axis=1) < FLAT_APART / 2]
        lo, hi = np.percentile(mine[:, 1:], 10, axis=0), np.percentile(mine[:, 1:], 90, axis=0)
        hue = (0, 179) if hi[0] < GREY else _hue_range(mine[mine[:, 1] >= lo[0], 0])
        if hue is not None:
            out.append(((hue[0], int(max(0, lo[0] - 12)), int(max(0, lo[1] - 25))),
                        (hue[1], int(min(255, hi[0] + 12)), int(min(255, hi[1] + 25)))))
    return out


def _hue_range(hues: np.ndarray) -> tuple[int, int] | None:
    """The hue range (low end above the high one when it wraps round red) holding the bulk
    of ``hues``; None when they spread wider than ``TILE_HUE`` either side (no one colour)."""
    turn = np.exp(1j * np.radians(hues * 2.0))
    centre = np.angle(turn.mean())
    spread = np.percentile(np.abs(np.angle(turn * np.exp(-1j * centre))), 95)
    h, span = np.degrees(centre) / 2.0, max(8.0, np.degrees(spread) / 2.0 + 4.0)
    if span > TILE_HUE:
        return None
    return int(round(h - span)) % 180, int(round(h + span)) % 180


def _tile_range(image: np.ndarray, band: np.ndarray, inner: HSVRange) -> tuple[HSVRange, ...] | None:
    """HSV ranges that hold the tiles around an inner-ring band: one per colour covering
    ``TILE_SHARE`` of the annulus from 1.2 to 1.75 times the band's outline (the tiles; figures
    are smaller) that is not the inner ring's and has one hue, or any hue when it is greyish; None when the
    annulus holds too few pixels (the band is no ring)."""
    (ex, ey), (ax, ay), angle = cv2.fitEllipse(band)
    outer, inner_mask = (np.zeros(image.shape[:2], np.uint8) for _ in range(2))
    cv2.ellipse(outer, ((ex, ey), (ax * 1.75, ay * 1.75), angle), 255, -1)
    cv2.ellipse(inner_mask, ((ex, ey), (ax * 1.2, ay * 1.2), angle), 255, -1)
    hsv = cv2.cvtColor(image, cv2.COLOR_BGR2HSV)
    pixels = hsv[(outer > 0) & (inner_mask == 0) & (in_range(hsv, (inner,)) == 0)]
    if len(pixels) < 100:
        return None
    _, labels, _ = cv2.kmeans(pixels.astype(np.float32), 4, None,
                              (cv2.TERM_CRITERIA_MAX_ITER + cv2.TERM_CRITERIA_EPS, 20, 1.0), 2, cv2.KMEANS_PP_CENTERS)
    out = []
    for i in range(4):
        mine = pixels[labels.ravel() == i].astype(float)
        if len(mine) < TILE_SHARE * len(pixels):
            continue
        (s_lo, v_lo), (s_hi, _) = np.percentile(mine[:, 1:], 5, axis=0), np.percentile(mine[:, 1:], 95, axis=0)
        hue = (0, 179) if s_hi < GREYISH else _hue_range(mine[:, 0])
        if hue is None:
            continue                            # many hues: figures, or grass with them, no tile
        out.append(((hue[0], int(max(0, s_lo - 15)), int(max(0, v_lo - 50))), (hue[1], int(min(255, s_hi + 25)), 255)))
    return tuple(out) or None


def _from_picks(image: np.ndarray, region: tuple[int, int, int, int],
                examples: dict[str, tuple[int, int]]) -> tuple[dict[str, Any], dict[str, np.ndarray]]:
    """The profile from a box around the arena and clicks on its centre, rim, an empty tile
    and an enemy: a flat arena at the clicked centre and rim, else the game's camera view
    whose reading agrees with the clicks."""
    x0, y0, w, h = region
    for kind in KINDS:
        px, py = examples[kind]
        if not (x0 <= px < x0 + w and y0 <= py < y0 + h):
            raise ProfileError(f"the click on {kind} is outside the box around the arena")
    (cx, cy), (rx, ry) = examples[KINDS[0]], examples[KINDS[1]]
    grey_full, grey, k = greys(image)
    radius = float(np.hypot(rx - cx, ry - cy))
    if radius < MIN_RIM:
        raise ProfileError(f"the click on {KINDS[1]} is {radius:.0f} px from the centre: click the arena's outer rim")
    found = arena_at(grey_full, grey, k, (cx * k, cy * k, radius * k), span=(0.85, 1.15))
    if found is None:
        return learn_camera(image, agrees_with_picks(image, examples), sure=True, box=region)
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
