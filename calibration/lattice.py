"""Learn a grid game's look from one screenshot and its board: the one learner of every look.

The board text says what every place is (one-stroke: ``#``, ``.``, ``S``; on a board with no
``.`` the places around it stand for the empty kind), so the look is fitted, not guessed: the lattice (origin, pitch in x and y; rows × columns from the board) is
the one on which places the board calls alike look alike and places it calls different
differ. No colour, gap, grid line or marker is assumed.

1. **Coarse**: for every pitch from the whole picture's down to an eighth of it, the picture
   is resized to :data:`COARSE` px a pitch and each place described by the mean Lab colour of
   its inner half, of its whole pitch and its edge strength. For every origin at once (one
   ``cv2.filter2D`` per class with the board's places as the kernel) the classes' scatter
   between them is weighed against the scatter within them (Fisher's ratio); the best
   pitch and origin win.
2. **Fine**: the lattice is moved and stretched a fraction of a pixel at a time to make the
   places of each class as alike as can be (``vision.lattice.fit_places``).
3. **Learnt**: per class, the mean picture of one pitch around its places at
   ``vision.lattice.SIDE`` px (the template), and how far its places stray from it, also in
   the screenshot at half its size with its strokes a pixel bolder (a look drawn smaller
   keeps its lines whole pixels thick); the lattice's own look (pitch as a share of the
   picture) for the user.
"""
from __future__ import annotations

import itertools
import math
import tempfile
from dataclasses import replace
from pathlib import Path
from typing import Any, Callable

import cv2
import numpy as np

from calibration.profile import save
from vision.lattice import (EMPTY, HUB, LATTICE_VERSION, MIN_TOLERANCE, MOST_SETTLED, RIMS, SIDE, SPREAD_FACTOR,
                            WEIGHTINGS, Lattice, LearntLook, Picture, Rules, Seen, distances, fit_places, is_learnt,
                            judged_part, lab, mosaic, nearest_cost, places, read_classes, separations, validity,
                            verdicts)
from vision.lattice import parse as lattice_parse
from vision.common import NoBoardFound
from vision.profile import ProfileError

COARSE = 6                # px a pitch in the coarse search
COARSE_TRIED = 3          # the coarse search's best lattices (peaks over the pitch) the learner tries in turn
READ_BACK_TRIED = 3       # lattices the reader settles to read the look's own screenshot back, at most (a look
                          # the reader does not find there among its first few is refused, not searched for)
WORK_SIDE = 480           # px: the longest side of the picture the coarse search sees
PITCH_STEP = 1.05         # the ratio between pitches tried
SMALLEST = 5              # the board spans at least this share of the picture's (or box's) side
MIN_APART = 6.0           # Lab units: classes nearer than this (or 3 spreads) do not tell apart
NOISE = 2.0               # Lab units: the within-class scatter no lattice goes below
NEAR_SHARE = 0.75         # the share of the way to another board class's template a tolerance may reach to be
                          # MIN_TOLERANCE (else half the way; the reader's margin keeps the two apart)
STRAY_SCALES = (0.5,)     # the screenshot resized so, its strokes a pixel bolder: how far its places stray from
                          # their templates then is how far a place may stray from its class (within half the way)
SMALLEST_PITCH = 8        # px: a resized screenshot whose pitch is less says nothing of a look's strays
REPEAT_SIDE = 480         # px: the longest side of the box's picture whose repeats give the pitch
CLIP = 16.0               # Lab units: the box's picture clipped so far from its median, for its faint repeats
LEAST_PITCH = 6.0         # px: the least pitch a board read from clicks may have
SAME_PITCH = math.log(1.04)  # pitches nearer than this ratio are one
PITCHES_SEEN = 6          # the box's likeliest pitches whose lattice the clicked places are matched over
PITCH_TRIALS = 2          # of those, the ones they explain best read, at most
CLICKED_APART = 3.0       # Lab units: clicked places nearer than this look alike (the learner then asks MIN_APART)
CENTRING = 0.4            # the share of a pitch from a click its place's middle is sought
FIT_ROUNDS = 2            # the lattice through the clicks is fitted to the box's places to 1/32 of a pitch
CHECKS = ((0.5, 0), (1.5, 0), (0.75, 70))  # the screenshot resized so (and through JPEG at that quality): the colour
                                           # rules' look must read it back (``or_learnt``)


def _features(small: np.ndarray) -> np.ndarray:
    """Per pixel: the mean Lab of the box half a pitch wide around it and the mean edge
    strength over a pitch (4 channels)."""
    grey = small[..., 0]
    edges = cv2.magnitude(cv2.Sobel(grey, cv2.CV_32F, 1, 0), cv2.Sobel(grey, cv2.CV_32F, 0, 1))
    return np.dstack([cv2.blur(small, (COARSE // 2, COARSE // 2)), cv2.blur(edges, (COARSE, COARSE)) / 4])


def coarse(image_lab: np.ndarray, labels: np.ndarray) -> list[Lattice]:
    """The pitches and origins that best separate the classes ``labels`` (rows × cols class
    indices) in the picture, to about an eighth of a pitch: the best origin of each pitch
    whose score is a peak among its neighbours', at most :data:`COARSE_TRIED`, the best
    first (a few places of a small pitch on a smooth ground may score above the board's
    own: the learner takes the first on which the classes tell apart)."""
    rows, cols = labels.shape
    h, w = image_lab.shape[:2]
    k = min(1.0, WORK_SIDE / max(h, w))
    work = cv2.resize(image_lab, None, fx=k, fy=k, interpolation=cv2.INTER_AREA) if k < 1 else image_lab
    classes = [np.argwhere(labels == c) for c in np.unique(labels)]
    total = rows * cols
    scored: list[tuple[float, Lattice]] = []
    pitch = min(work.shape[1] / cols, work.shape[0] / rows)
    least = max(3.0, pitch / SMALLEST)
    while pitch >= least:
        f = COARSE / pitch
        small = cv2.resize(work, None, fx=f, fy=f, interpolation=cv2.INTER_AREA if f < 1 else cv2.INTER_LINEAR)
        pitch /= PITCH_STEP
        sh, sw = small.shape[:2]
        span_y, span_x = (rows - 1) * COARSE, (cols - 1) * COARSE
        if sh <= span_y or sw <= span_x:
            continue
        feats = _features(small)
        squares = (feats ** 2).sum(axis=2)
        both = np.dstack([feats, squares])        # every origin's sums over a class's places
        vh, vw = sh - span_y, sw - span_x
        within = np.zeros((vh, vw), np.float32)
        s1 = np.zeros((vh, vw, both.shape[2]), np.float32)
        for spots in classes:
            sums = np.zeros_like(s1)
            for r, c in spots * COARSE:
                sums += both[r:r + vh, c:c + vw]
            within += sums[..., -1] - (sums[..., :-1] ** 2).sum(axis=2) / len(spots)
            s1 += sums
        scatter = s1[..., -1] - (s1[..., :-1] ** 2).sum(axis=2) / total
        ratio = (scatter - within) / (np.maximum(within, 0) + total * NOISE ** 2)
        y, x = np.unravel_index(int(ratio.argmax()), ratio.shape)
        step = 1 / (f * k)
        scored.append((float(ratio[y, x]), Lattice((x + 0.5) * step - 0.5, (y + 0.5) * step - 0.5, COARSE * step,
                                                   COARSE * step, rows, cols)))
    peaks = [item for i, item in enumerate(scored)
             if all(item[0] >= scored[j][0] for j in (i - 1, i + 1) if 0 <= j < len(scored))]
    return [lat for _, lat in sorted(peaks, key=lambda item: -item[0])[:COARSE_TRIED]]


def _within(labels: np.ndarray) -> Any:
    """The fine fit's cost: the places' mean squared distance to their class's mean picture."""
    flat = labels.ravel()

    def cost(m: np.ndarray) -> float:
        patches = m.reshape(flat.size, -1)
        spread = 0.0
        for c in np.unique(flat):
            members = patches[flat == c]
            spread += float(((members - members.mean(axis=0)) ** 2).sum())
        return spread / patches.size
    return cost


def tight(rows: list[str]) -> list[str]:
    """Board rows less the outer rows and columns of empty places only (a reading's extent)."""
    keep_r = [i for i, row in enumerate(rows) if set(row) != {EMPTY}]
    keep_c = [j for j in range(len(rows[0])) if any(row[j] != EMPTY for row in rows)]
    if not keep_r:
        return []
    return [row[keep_c[0]:keep_c[-1] + 1] for row in rows[keep_r[0]:keep_r[-1] + 1]]


class Alike(ProfileError):
    """The board's classes do not tell apart on a lattice: another lattice may be the board's."""


def _reach(templates: np.ndarray, classes: list[str], part: float | np.ndarray, rules: Rules) -> np.ndarray:
    """How far each class's places may stray from its template before they could be another
    class's: half the way to the nearest other class; with the rules' signs, between two
    board classes not below MIN_TOLERANCE where that is within NEAR_SHARE of the way."""
    pairs = distances(templates, templates, part)
    np.fill_diagonal(pairs, np.inf)
    kinds = np.array([c != EMPTY for c in classes])
    return np.where(rules.signs & kinds[:, None] & kinds[None, :],
                    np.maximum(0.5 * pairs, np.minimum(MIN_TOLERANCE, NEAR_SHARE * pairs)), 0.5 * pairs).min(axis=1)


def _judged(image: np.ndarray, patches: np.ndarray, templates: np.ndarray, labels: np.ndarray, classes: list[str],
            judging: tuple[bool, float, str], share: list[float], board: list[str], rules: Rules,
            resized: list[np.ndarray], seen: Seen) -> tuple[dict[str, Any], np.ndarray]:
    """The profile's ``lattice`` section and the templates' strip for the classes' places
    ``patches`` judged (``judging``: core, rim, weighted) on their core, without their rim or
    weighted by how much the classes differ at each pixel (``vision.lattice.judged_part``)
    under the game's ``rules``; ProfileError when the classes do not tell apart or the look
    does not read the screenshot back as ``board``. ``resized``: the places in the
    screenshot at the sizes of :data:`STRAY_SCALES` with its strokes a pixel bolder
    (``_strokes``), whose stray from their class's template the tolerance allows for (a
    ring or outline drawn smaller keeps its lines a whole pixel thick: relatively bolder);
    ``seen``: the screenshot as the look's other ways read it back (``vision.lattice.Seen``)."""
    core, rim, weighted = judging
    part = judged_part(templates, classes, rim, core, weighted)

    def strays(members: np.ndarray, c: int) -> float:
        return float(np.percentile(distances(members[labels == c], templates[c:c + 1], part), 90))
    spread = np.array([strays(patches, c) for c in range(len(classes))])
    bolder = np.array([max([strays(p, c) for p in resized], default=0.0) for c in range(len(classes))])
    several = [s for s, c in zip(spread, range(len(classes))) if (labels == c).sum() > 1]
    pooled = max(several) if several else MIN_TOLERANCE
    spread = np.where([(labels == c).sum() > 1 for c in range(len(classes))], spread, pooled)
    apart = separations(templates, part)
    if apart.min() < max(MIN_APART, 3 * spread.max()):
        a, b = np.argsort(apart)[:2]
        raise Alike(f"the board's {classes[a]!r} and {classes[b]!r} places look alike on every grid tried "
                    "(is it the board the screenshot shows?)")
    # half the way to the nearest other class; with the rules' signs, between two board classes not below
    # MIN_TOLERANCE where that is within NEAR_SHARE of the way: a cell told from the start by a small sign strays
    # more than half that at another size (the empty class keeps half: no place round the board looks like one)
    reach = _reach(templates, classes, part, rules)
    tolerance = np.minimum(np.maximum(np.maximum(SPREAD_FACTOR * spread, bolder), MIN_TOLERANCE), reach)
    strip = cv2.cvtColor(np.clip(templates, 0, 255).round().astype(np.uint8).transpose(1, 0, 2, 3)
                         .reshape(SIDE, SIDE * len(classes), 3), cv2.COLOR_LAB2BGR)
    section = {"version": LATTICE_VERSION, "classes": classes, "tolerance": [round(float(t), 2) for t in tolerance],
               "pitch_share": share, "empty": EMPTY, "rim": round(rim, 4), **({"core": True} if core else {}),
               **({"weighted": weighted} if weighted else {})}
    look = LearntLook(tuple(classes), lab(strip).reshape(SIDE, len(classes), SIDE, 3).transpose(1, 0, 2, 3),
                      tolerance, min(share), round(rim, 4), rules, core, weighted)
    try:
        _, got = read_classes(image, look, most=READ_BACK_TRIED, size=(len(board), len(board[0])), seen=seen)
    except NoBoardFound as exc:
        raise ProfileError(f"the look learnt does not read the screenshot back ({exc})") from None
    if got != board:
        raise ProfileError(f"the look learnt reads the screenshot as {'/'.join(got)}, not the given board")
    return section, strip


def _jpeg(image: np.ndarray, quality: int) -> np.ndarray:
    """The picture after a round trip through JPEG at ``quality``."""
    return cv2.imdecode(cv2.imencode(".jpg", image, [cv2.IMWRITE_JPEG_QUALITY, quality])[1], cv2.IMREAD_COLOR)


def _strokes(image: np.ndarray) -> list[np.ndarray]:
    """The picture with its dark strokes a pixel bolder on each side, and its light ones:
    how a look drawn at another size may differ (lines kept a whole pixel or more thick)."""
    kernel = np.ones((3, 3), np.uint8)
    return [cv2.erode(image, kernel), cv2.dilate(image, kernel)]


def learn(image: np.ndarray, rows: list[str], region: tuple[int, int, int, int] | None = None,
          rules: Rules = Rules()) -> tuple[dict[str, Any], dict[str, np.ndarray]]:
    """profile.json's fields (the ``lattice`` section; the board, its box and pitch for
    the user) and the class templates (one PNG strip), for a screenshot showing the board
    ``rows`` (its text, one string a row); ProfileError when the classes do not tell apart
    on any lattice or the look learnt does not read its own screenshot back as the board;
    ``rules``: the game's (``vision.lattice.RULES``)."""
    given = rows
    if rules.hubs:      # every hub is one class, whatever its count: the count is read from its holes
        rows = ["".join(HUB if ch.isdigit() else ch for ch in row) for row in rows]
    padded = EMPTY not in "".join(rows)
    if padded:
        # with no empty place the board's own kinds could fit a lattice anywhere on the screen:
        # the places around the board, outside it, stand for the empty ones and bound it
        rows = [EMPTY * (len(rows[0]) + 2)] + [EMPTY + row + EMPTY for row in rows] + [EMPTY * (len(rows[0]) + 2)]
    classes = sorted(set("".join(rows)))
    if len(classes) < 2:
        raise ProfileError(f"the lattice is learnt from a board with two kinds of place or more, not only {classes[0]!r}")
    labels = np.array([[classes.index(ch) for ch in row] for row in rows])
    x0, y0 = (0, 0) if region is None else region[:2]
    crop = image if region is None else image[y0:y0 + region[3], x0:x0 + region[2]]
    crop_lab = lab(crop)
    candidates = coarse(crop_lab, labels)
    if not candidates:
        raise ProfileError(f"the picture is too small for a board of {labels.shape[0]}×{labels.shape[1]} places")
    failures: list[ProfileError] = []
    for rough in candidates:
        lat = fit_places(crop_lab, rough, _within(labels)).moved(x0, y0)
        try:
            section, strip = _fitted(image, lat, labels, classes, tight(given), rules)
            break
        except Alike as exc:        # a look that does not read back is the board's: no other lattice is tried
            failures.append(exc)
    else:
        raise failures[0]
    if padded:
        lat = lat.sub(1, 1, lat.rows - 2, lat.cols - 2)
    (bx0, by0), (bx1, by1) = lat.centre(-0.5, -0.5), lat.centre(lat.rows - 0.5, lat.cols - 0.5)
    data = {"lattice": section, "board": "/".join(given), "pitch": [round(lat.px, 2), round(lat.py, 2)],
            "region": [max(0, round(bx0)), max(0, round(by0)), round(bx1 - bx0), round(by1 - by0)]}
    return data, {"classes": strip}


def _fitted(image: np.ndarray, lat: Lattice, labels: np.ndarray, classes: list[str], board: list[str],
            rules: Rules) -> tuple[dict[str, Any], np.ndarray]:
    """The profile's ``lattice`` section and the templates' strip learnt on the fitted
    lattice ``lat`` (the screenshot's ``labels`` places), judged each way in turn until the
    look reads the screenshot back as ``board``; ProfileError with the first way's reason
    when none does (:class:`Alike` when the classes tell apart no way)."""
    seen = Seen(Picture(image))     # every way's read-back finds the same rough lattices in the same views
    patches = places(seen.picture, lat)
    templates = np.stack([patches[labels == c].mean(axis=0) for c in range(len(classes))])
    resized = [places(Picture(bolder), lat.scaled(k)) for k in STRAY_SCALES if k * min(lat.px, lat.py) >= SMALLEST_PITCH
               for bolder in _strokes(cv2.resize(image, None, fx=k, fy=k, interpolation=cv2.INTER_AREA))]
    share = [round(lat.px / image.shape[1], 5), round(lat.py / image.shape[1], 5)]
    failures = []
    # LYNE: its nodes' cores first (what play draws round them is not judged), then whole places (hollow nodes),
    # then every pixel weighted by how much the classes differ there (thin strokes on a ground that dilutes them)
    # with the rules' signs, the tolerances reaching further between board classes first, then half the way (a
    # look whose places round the board are near its cells reads its screenshot back only with the latter)
    judgings = ([(True, 0.0, "")] * rules.core + [(False, r, "") for r in RIMS]
                + [(False, 0.0, weighting) for weighting in WEIGHTINGS])
    for judging, signs in [(judging, signs) for judging in judgings for signs in [True] * rules.signs + [False]]:
        try:
            return _judged(image, patches, templates, labels, classes, judging, share, board,
                           replace(rules, signs=signs), resized, seen)
        except ProfileError as exc:
            failures.append(exc)
    raise failures[0] if all(isinstance(f, Alike) for f in failures) else ProfileError(str(failures[0]))


def _repeats(feature: np.ndarray, longest: int) -> list[float]:
    """The lags (px, to a fraction) at which a picture's ``feature`` (a channel or more, its
    mean removed) repeats along both rows and columns, strongest first: the local maxima of
    its autocorrelation past the first dip, up to ``longest``."""
    h, w = feature.shape[:2]
    spectrum = np.fft.rfft2(feature, s=(2 * h, 2 * w), axes=(0, 1))
    ac = np.fft.irfft2(np.abs(spectrum) ** 2, s=(2 * h, 2 * w), axes=(0, 1)).sum(axis=2)
    n = min(longest, h - 1, w - 1)
    prof = (ac[0, :n + 1] + ac[:n + 1, 0]) / 2
    dip = next((j for j in range(1, n) if prof[j] <= prof[j - 1] and prof[j] <= prof[j + 1]), n)
    peaks = [j for j in range(max(dip, 2), n) if prof[j] > 0 and prof[j] >= prof[j - 1] and prof[j] > prof[j + 1]]
    lags = []
    for j in sorted(peaks, key=lambda j: -prof[j]):
        a, b, c = prof[j - 1:j + 2]
        lags.append(j + 0.5 * (a - c) / (a - 2 * b + c) if a - 2 * b + c < 0 else float(j))
    return lags


def pitches_in(picture: np.ndarray) -> list[float]:
    """The pitches a board filling much of ``picture`` (BGR) may have, likeliest first: the
    lags at which it repeats (``_repeats``), in Lab and in Lab clipped to :data:`CLIP` from
    its median (so faint outlines on a pale ground count as well as bold holes), taken in
    turn; none under :data:`LEAST_PITCH` px or over half the picture's short side."""
    k = min(1.0, REPEAT_SIDE / max(picture.shape[:2]))
    small = lab(cv2.resize(picture, None, fx=k, fy=k, interpolation=cv2.INTER_AREA) if k < 1 else picture)
    clipped = np.clip(small - np.median(small.reshape(-1, 3), axis=0), -CLIP, CLIP)
    longest = min(small.shape[:2]) // 2
    found = [_repeats(f - f.mean(axis=(0, 1)), longest) for f in (small, clipped)]
    pitches: list[float] = []
    for lag in itertools.chain.from_iterable(itertools.zip_longest(*found)):
        if lag is not None and lag / k >= LEAST_PITCH and all(abs(math.log(lag / k / p)) > SAME_PITCH for p in pitches):
            pitches.append(lag / k)
    return pitches


def board_from_clicks(image: np.ndarray, region: tuple[int, int, int, int], clicks: list[tuple[str, str, tuple[int, int]]],
                      rules: Rules, game: tuple[str, Any, Callable[..., Any]]) -> tuple[list[str], Lattice]:
    """The board a box (``region``) around it shows and the lattice it is on, from one click
    per class (``clicks``: the kind as the user was asked for it, its class's board character,
    the point; the first a board class, whose click sets the lattice's phase): at each pitch
    the box repeats at (``pitches_in``), each class's template is one pitch round its click
    (on the lattice through the first); the pitches whose lattice through the box those
    explain best are tried in turn, every place of the box classified by the lattice reader
    (``vision.lattice.read_classes``: any place no class explains clearly refuses), and the
    board kept when it is one of the ``game``'s (as for :func:`or_learnt`;
    ``vision.lattice.validity``), every click is on a place of its class (an empty class's
    may be beside the board) and the board lies in the box; ProfileError with the reason
    otherwise."""
    x0, y0, w, h = region
    picture = Picture(image)
    pitches = pitches_in(image[y0:y0 + h, x0:x0 + w])[:PITCHES_SEEN]
    looks, reasons = [], {}
    for pitch in pitches:
        try:
            looks.append(_clicked_look(picture, region, pitch, clicks, rules))
        except NoBoardFound as exc:
            reasons[pitch] = str(exc)
    for _, pitch, look in sorted(looks, key=lambda seen: -seen[0])[:PITCH_TRIALS]:
        try:
            return _board_at(image, region, pitch, look, clicks, game)
        except NoBoardFound as exc:
            reasons[pitch] = str(exc)
    # why the box's likeliest pitch reads no board
    why = next((reasons[p] for p in pitches if p in reasons), "nothing in it repeats on a grid")
    raise ProfileError(f"the clicks make no board in the box: {why}")


def _centred(picture: Picture, point: tuple[int, int], pitch: float) -> tuple[float, float]:
    """The middle of the place clicked at ``point``: within :data:`CENTRING` of a pitch of
    the click, where one pitch round it looks most alike turned half round (a cell, dot,
    ring or outline is; a click is seldom on its middle)."""
    k = SIDE / pitch
    view = picture.at(k)
    reach = round(CENTRING * SIDE)
    x, y = round((point[0] + 0.5) * k - 0.5), round((point[1] + 0.5) * k - 0.5)
    half = SIDE // 2
    if x - reach - half < 0 or y - reach - half < 0 or x + reach + half > view.shape[1] or y + reach + half > view.shape[0]:
        return float(point[0]), float(point[1])
    best, at = np.inf, (0, 0)
    for dy in range(-reach, reach + 1):
        for dx in range(-reach, reach + 1):
            patch = view[y + dy - half:y + dy + half, x + dx - half:x + dx + half]
            off = float(((patch - patch[::-1, ::-1]) ** 2).mean()) + 1e-3 * (dx * dx + dy * dy)
            if off < best:
                best, at = off, (dx, dy)
    return point[0] + (at[0] - 0.5) / k, point[1] + (at[1] - 0.5) / k


def _clicked_look(picture: Picture, region: tuple[int, int, int, int], pitch: float,
                  clicks: list[tuple[str, str, tuple[int, int]]], rules: Rules) -> tuple[float, float, LearntLook]:
    """The look of the clicked places at one pitch (``board_from_clicks``) and the share of
    the box its board classes explain clearly on the lattice through the first click, fitted
    to the places; NoBoardFound when two clicked places look alike, or a place amid those of
    the board classes is clearly none (what the lattice reader would refuse, found at less cost)."""
    ax, ay = _centred(picture, clicks[0][2], pitch)

    def snapped(point: tuple[int, int]) -> tuple[float, float]:
        return ax + round((point[0] - ax) / pitch) * pitch, ay + round((point[1] - ay) / pitch) * pitch
    classes = sorted({ch for _, ch, _ in clicks})
    templates = np.stack([places(picture, Lattice(*snapped(point), pitch, pitch, 1, 1))[0, 0]
                          for ch in classes for _, c, point in clicks if c == ch])
    apart = separations(templates)
    if len(classes) < len(clicks) or apart.min() < CLICKED_APART:
        a, b = (next(kind for kind, c, _ in clicks if c == classes[i]) for i in np.argsort(apart)[:2])
        raise NoBoardFound(f"the clicks on {a} and on {b} show places that look alike")
    look = LearntLook(tuple(classes), templates, np.maximum(_reach(templates, classes, 0.0, rules), NOISE), rules=rules)
    x0, y0, w, h = region
    c0, r0 = math.ceil((x0 - ax) / pitch), math.ceil((y0 - ay) / pitch)
    cols, rows = math.floor((x0 + w - 1 - ax) / pitch) - c0 + 1, math.floor((y0 + h - 1 - ay) / pitch) - r0 + 1
    if rows < 2 or cols < 2 or rows * cols > MOST_SETTLED:
        raise NoBoardFound(f"a lattice of {rows}×{cols} places in the box is no board")
    k = SIDE / pitch
    view = picture.at(k)
    lat = fit_places(view, Lattice(ax + c0 * pitch, ay + r0 * pitch, pitch, pitch, rows, cols).scaled(k),
                     nearest_cost(templates), FIT_ROUNDS, view=(view, 1.0))
    patches = mosaic(view, lat, view=(view, 1.0))
    members = None
    for _ in range(2):
        # how far a class's places stray: first the median stray of the places nearest it (most of them its own: a
        # hole nearer a cell than the start strays far more), then the 90th percentile of those clearly of it; the
        # single start's the other classes' widest
        d = distances(patches, look.templates)
        nearest = d.argmin(axis=-1)
        strays = [(float(np.median(d[..., c][nearest == c])) if members is None else
                   float(np.percentile(d[..., c][members & (nearest == c)], 90)))
                  if ((nearest == c) if members is None else members & (nearest == c)).sum() > 1 else None
                  for c in range(len(classes))]
        pooled = max([v for v in strays if v is not None], default=NOISE)
        look = replace(look, tolerance=np.minimum(_reach(look.templates, classes, 0.0, rules), np.maximum(
            SPREAD_FACTOR * np.array([pooled if v is None else v for v in strays]), MIN_TOLERANCE)))
        nearest, clear, _ = verdicts(d, look)
        members = clear
        # then each class's template the mean of its places clearly of it (the clicked one only looks like them)
        look = replace(look, templates=np.stack([patches[clear & (nearest == c)].mean(axis=0) if (clear & (nearest == c)).any()
                                                 else look.templates[c] for c in range(len(classes))]).astype(np.float32))
    board = clear & look.board_classes[nearest]
    if not board.any():
        raise NoBoardFound("no place in the box looks like the clicked ones")
    (top, left), (bottom, right) = np.argwhere(board).min(axis=0), np.argwhere(board).max(axis=0)
    unclear = np.argwhere(~clear[top:bottom + 1, left:right + 1])
    if len(unclear):
        raise NoBoardFound(f"place ({unclear[0][0]}, {unclear[0][1]}) of the board looks like none of the clicked kinds")
    return float(board.sum()) * pitch ** 2 / (w * h), pitch, look


def _board_at(image: np.ndarray, region: tuple[int, int, int, int], pitch: float, look: LearntLook,
              clicks: list[tuple[str, str, tuple[int, int]]],
              game: tuple[str, Any, Callable[..., Any]]) -> tuple[list[str], Lattice]:
    """:func:`board_from_clicks` at one pitch and the clicked places' look there;
    NoBoardFound with the reason when it reads no board."""
    x0, y0, w, h = region
    # the reader sees the box a pitch wider, clipped to the screenshot: a board must show a margin round it
    margin = math.ceil(pitch)
    bx0, by0 = max(0, x0 - margin), max(0, y0 - margin)
    bx1, by1 = min(image.shape[1], x0 + w + margin), min(image.shape[0], y0 + h + margin)
    crop = image[by0:by1, bx0:bx1]
    look = replace(look, pitch_share=pitch / crop.shape[1])
    lat, rows = read_classes(crop, look, validity(game[0], game[1], look), anywhere=False)
    lat = lat.moved(bx0, by0)
    (left, top), (right, bottom) = lat.centre(0, 0), lat.centre(lat.rows - 1, lat.cols - 1)
    if left < x0 or top < y0 or right >= x0 + w or bottom >= y0 + h:
        raise NoBoardFound("the board read reaches out of the box")
    named = {ch: kind for kind, ch, _ in clicks}
    for kind, ch, (px, py) in clicks:
        r, c = round((py - lat.y0) / lat.py), round((px - lat.x0) / lat.px)
        on = rows[r][c] if 0 <= r < lat.rows and 0 <= c < lat.cols else EMPTY
        if on != ch:
            raise NoBoardFound(f"the click on {kind} is on a place read as "
                               f"{named.get(on, 'beside the board' if on == EMPTY else repr(on))}")
    return rows, lat


def or_learnt(colour_rules: Callable[[], Any], image: np.ndarray, rows: list[str],
              region: tuple[int, int, int, int] | None = None, rules: Rules = Rules(),
              game: tuple[str, Any, Callable[..., Any]] | None = None) -> Any:
    """What a game's colour rules learn (``colour_rules()``) or, when they refuse the
    screenshot, the look :func:`learn` fits to the board whatever it is; ProfileError with
    both reasons when neither does. With the ``game`` (its name, its ``Board`` type and its
    vision's ``parse(image, profile)``), a look the colour rules keep
    that does not read back every copy of the screenshot of :data:`CHECKS` (other sizes,
    JPEG) gives way to the learnt look when that reads more of them (a look the rules only
    read as they saw it, such as a ruled grid whose lines they take for gaps)."""
    try:
        kept = colour_rules()
    except ProfileError as colour_failure:
        try:
            return learn(image, rows, region, rules)
        except ProfileError as exc:
            raise ProfileError(f"{colour_failure}; nor does a learnt lattice ({exc})") from None
    if game is None:
        return kept
    copies = [cv2.resize(image, None, fx=k, fy=k, interpolation=cv2.INTER_AREA if k < 1 else cv2.INTER_LINEAR)
              for k, _ in CHECKS]
    copies = [_jpeg(copy, quality) if quality else copy for copy, (_, quality) in zip(copies, CHECKS)]
    by_rules = _reads_back(game, kept, copies, "\n".join(rows))
    if by_rules == len(copies):
        return kept
    try:
        fitted = learn(image, rows, region, rules)
    except ProfileError:
        return kept
    return fitted if _reads_back(game, fitted, copies, "\n".join(rows)) > by_rules else kept


def _reads_back(game: tuple[str, Any, Callable[..., Any]], learnt: tuple[dict[str, Any], dict[str, np.ndarray]],
                images: list[np.ndarray], board: str) -> int:
    """How many of ``images`` the profile ``learnt`` (its fields and templates) reads as
    ``board``, the board text of the ``game`` (as for :func:`or_learnt`): with the lattice
    reader when it is a learnt look, else with the game's vision."""
    name, board_type, parse = game
    with tempfile.TemporaryDirectory() as tmp:
        profile = save({**learnt[0], "game": name, "name": "trial"}, learnt[1], Path(tmp) / "trial")
        read = 0
        for image in images:
            try:
                found = (lattice_parse(name, board_type, image, profile) if is_learnt(profile)
                         else parse(image, profile))
            except NoBoardFound:
                continue
            read += found.board.to_text() == board
        return read
