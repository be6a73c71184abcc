"""Helpers the games' learners share."""
from __future__ import annotations

import reprlib
from pathlib import Path
from typing import Any, Callable, Iterable

import numpy as np

from solvers.files import exists
from vision.common import NoBoardFound, Parse
from vision.profile import ProfileError, read_json

MAX_PICKS_BYTES = 1024 * 1024   # a picks file is a few lines of numbers
MAX_PICK = 100_000              # a pixel coordinate or size in a picks file
MIN_BOX = 16                    # px: the least side of a picks file's box


def rgb(bgr: np.ndarray | list[float]) -> list[int]:
    """A BGR colour as profile.json writes colours: [r, g, b] whole numbers."""
    return [int(round(float(v))) for v in bgr[::-1]]


def square(image: np.ndarray, xy: tuple[float, float], half: int) -> np.ndarray:
    """A copy of the square of side 2·half+1 around a point, clipped to the image."""
    x, y = round(xy[0]), round(xy[1])
    return image[max(0, y - half):y + half + 1, max(0, x - half):x + half + 1].copy()


def first_reading(candidates: Iterable[np.ndarray], read: Callable[[np.ndarray], Parse], want: str,
                  failure: str) -> Parse:
    """The first reading, over candidate colours (each tried as the profile's key colour by
    ``read``), that gives the wanted board text; ProfileError with ``failure`` and the boards
    read instead when none does."""
    seen = []
    for colour in candidates:
        try:
            found = read(colour)
        except NoBoardFound:
            continue
        if found.board.to_text() == want:
            return found
        seen.append(found.board.to_text().replace("\n", "/"))
    hint = f" (boards read: {', '.join(seen[:3])})" if seen else ""
    raise ProfileError(f"{failure}{hint}")


def read_picks_file(path: Path, fields: tuple[str, ...], optional: tuple[str, ...] = ()) -> dict[str, Any]:
    """A picks file's JSON object, holding exactly ``fields`` (those in ``optional`` may be
    left out); ProfileError naming the file and what is wrong when it is not one."""
    where = f"picks file {path}"
    if not exists(path):
        raise ProfileError(f"no such picks file: {path}")
    try:
        data = read_json(Path(path), MAX_PICKS_BYTES, where)
    except ValueError as exc:       # unreadable, too long, not UTF-8 JSON with numbers Python reads
        raise ProfileError(str(exc)) from None
    if not isinstance(data, dict):
        raise ProfileError(f"{where}: must hold a JSON object with {', '.join(fields)}")
    unknown, missing = sorted(set(data) - set(fields)), [f for f in fields if f not in data and f not in optional]
    if unknown or missing:
        raise ProfileError(f"{where}: " + "; ".join(
            ([f"missing {', '.join(missing)}"] if missing else []) + ([f"unknown {', '.join(unknown)}"] if unknown else [])))
    return data


def pick_numbers(path: Path, field: str, value: Any, count: int) -> tuple[int, ...]:
    """A picks file's field: ``count`` numbers from 0 to ``MAX_PICK``, rounded to pixels;
    ProfileError naming the file and the field otherwise."""
    if (not isinstance(value, list) or len(value) != count
            or not all(isinstance(v, (int, float)) and not isinstance(v, bool) and 0 <= v <= MAX_PICK
                       for v in value)):     # nan and inf fail the comparison; huge ints are not cast
        raise ProfileError(f"picks file {path}: field {field!r} must be {count} numbers from 0 to {MAX_PICK:,}, "
                           f"not {reprlib.repr(value)}")
    return tuple(round(v) for v in value)


def read_box_and_clicks(path: Path, fields: tuple[str, ...], kinds: tuple[str, ...],
                        optional: tuple[str, ...] = ()) -> tuple[tuple[int, int, int, int], dict[str, tuple[int, int]]]:
    """A picks file of ``fields``, "box" ([x, y, width, height], both sides at least
    :data:`MIN_BOX` px) then one point per kind of ``kinds`` (the window's words for them),
    as the box and the clicks keyed by kind (a field of ``optional`` left out, its kind
    too); ProfileError naming the file and the field when it is not one."""
    data = read_picks_file(path, fields, optional)
    box = pick_numbers(path, "box", data["box"], 4)
    if box[2] < MIN_BOX or box[3] < MIN_BOX:
        raise ProfileError(f"picks file {path}: field 'box' must be [x, y, width, height] with both sides at least "
                           f"{MIN_BOX} px")
    return box, {kind: pick_numbers(path, field, data[field], 2)  # type: ignore[misc]
                 for kind, field in zip(kinds, fields[1:]) if field in data}  # type: ignore[return-value]
