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

import tempfile
from dataclasses import replace
from pathlib import Path
from typing import Any, Callable

import cv2
import numpy as np

from calibration.profile import save
from vision.lattice import (EMPTY, HUB, LATTICE_VERSION, MIN_TOLERANCE, RIMS, SIDE, SPREAD_FACTOR, WEIGHTINGS, Lattice,
                            LearntLook, Picture, Rules, Seen, distances, fit_places, is_learnt, judged_part, lab,
                            places, read_classes, separations)
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
    scores = [score for score, _ in scored]
    peaks = [item for i, item in enumerate(scored)
             if all(item[0] >= scores[j] for j in (i - 1, i + 1) if 0 <= j < len(scores))]
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
    pairs = distances(templates, templates, part)
    np.fill_diagonal(pairs, np.inf)
    kinds = np.array([c != EMPTY for c in classes])
    reach = np.where(rules.signs & kinds[:, None] & kinds[None, :], np.maximum(0.5 * pairs, np.minimum(MIN_TOLERANCE, NEAR_SHARE * pairs)),
                     0.5 * pairs).min(axis=1)
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
