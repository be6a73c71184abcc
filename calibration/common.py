"""Helpers the games' learners share."""
from __future__ import annotations

import json
import math
from pathlib import Path
from typing import Any, Callable, Iterable

import numpy as np

from vision.common import NoBoardFound, Parse
from vision.profile import ProfileError


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


def read_picks_file(path: Path, fields: tuple[str, ...]) -> dict[str, Any]:
    """A picks file's JSON object, holding exactly ``fields``; ProfileError naming the file
    and what is wrong when it is not one."""
    where = f"picks file {path}"
    try:
        data = json.loads(Path(path).read_text(encoding="utf-8"))
    except FileNotFoundError:
        raise ProfileError(f"no such picks file: {path}") from None
    except (OSError, UnicodeDecodeError) as exc:
        raise ProfileError(f"{where}: cannot read it ({exc.__class__.__name__})") from None
    except json.JSONDecodeError as exc:
        raise ProfileError(f"{where}: not valid JSON ({exc})") from None
    if not isinstance(data, dict):
        raise ProfileError(f"{where}: must hold a JSON object with {', '.join(fields)}")
    unknown, missing = sorted(set(data) - set(fields)), [f for f in fields if f not in data]
    if unknown or missing:
        raise ProfileError(f"{where}: " + "; ".join(
            ([f"missing {', '.join(missing)}"] if missing else []) + ([f"unknown {', '.join(unknown)}"] if unknown else [])))
    return data


def pick_numbers(path: Path, field: str, value: Any, count: int) -> tuple[int, ...]:
    """A picks file's field: ``count`` finite numbers of 0 or more, rounded to pixels;
    ProfileError naming the file and the field otherwise."""
    if (not isinstance(value, list) or len(value) != count
            or not all(isinstance(v, (int, float)) and not isinstance(v, bool) and math.isfinite(v) and v >= 0
                       for v in value)):
        raise ProfileError(f"picks file {path}: field {field!r} must be {count} numbers of 0 or more, not {value!r}")
    return tuple(round(v) for v in value)
