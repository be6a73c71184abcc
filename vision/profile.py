"""A calibration profile as the vision reads it: a typed value made from a profile folder.

A profile folder holds ``profile.json`` and PNG templates::

    {"version": 1, "game": "lyne", "name": "deep-space-1080p",
     "templates": {"hub": "hub.png", ...},     # files beside profile.json
     ...game-specific fields, validated by that game's vision...}

The vision takes a :class:`Profile` (or reads a folder it is given) and never looks a
profile up by name; naming, storing and deleting profiles is the calibration's
(``calibration/profile.py``). Template files must lie inside the profile folder.
"""
from __future__ import annotations

import json
import math
import reprlib
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import numpy as np

from solvers.files import FileRefused, read_bounded
from vision.common import ImageError, load_image

SCHEMA_VERSION = 1
PROFILE_FILE = "profile.json"
MAX_NUMBER = 1_000_000      # a pitch, share or shape in a profile; far above any real one


class ProfileError(Exception):
    """A profile that is missing or malformed; the message names the field."""


@dataclass
class Profile:
    """A profile read from its folder: name, game, the folder (templates lie there) and
    profile.json's fields, which the accessors below check for type as they are read."""

    name: str
    game: str
    folder: Path
    data: dict[str, Any] = field(default_factory=dict)

    def get(self, key: str, kind: type | tuple[type, ...], default: Any = ...) -> Any:
        """A field of profile.json checked for its type; ProfileError naming it otherwise."""
        if key not in self.data:
            if default is ...:
                raise ProfileError(f"profile {self.name}: field {key!r} is missing")
            return default
        value = self.data[key]
        if not isinstance(value, kind) or isinstance(value, bool) and kind is not bool:
            names = kind.__name__ if isinstance(kind, type) else " or ".join(k.__name__ for k in kind)
            raise ProfileError(f"profile {self.name}: field {key!r} must be {names}, not {type(value).__name__}")
        return value

    def expect_game(self, game: str) -> None:
        """ProfileError unless the profile is for ``game`` (a profile teaches one game)."""
        if self.game != game:
            raise ProfileError(f"profile {self.name}: field 'game' is {self.game!r}, not {game!r}")

    def colour(self, key: str) -> tuple[int, int, int]:
        """A colour field, written [r, g, b] in profile.json, as OpenCV's (b, g, r)."""
        value = self.get(key, list)
        if len(value) != 3 or not all(isinstance(v, int) and not isinstance(v, bool) and 0 <= v <= 255 for v in value):
            raise ProfileError(f"profile {self.name}: field {key!r} must be [r, g, b] with whole numbers 0-255, not {value!r}")
        return (value[2], value[1], value[0])

    def sizes(self, key: str, count: int) -> tuple[int, ...] | None:
        """A field of ``count`` whole numbers above 0 (a shape such as [rows, cols]), or
        None when the profile has no such field."""
        value = self.get(key, list, None)
        if value is not None and (len(value) != count or not all(
                isinstance(v, int) and not isinstance(v, bool) and 0 < v <= MAX_NUMBER for v in value)):
            raise ProfileError(f"profile {self.name}: field {key!r} must be {count} whole numbers from 1 to "
                               f"{MAX_NUMBER:,}, not {reprlib.repr(value)}")
        return None if value is None else tuple(value)

    def positive(self, key: str) -> float | None:
        """A number above 0 and at most ``MAX_NUMBER`` (a pitch, a share), or None when the
        profile has no such field (nan and inf fail the comparison; a whole number of
        thousands of digits is never turned into a float)."""
        value = self.get(key, (int, float), None)
        if value is not None and not 0 < value <= MAX_NUMBER:
            raise ProfileError(f"profile {self.name}: field {key!r} must be a number above 0 and at most "
                               f"{MAX_NUMBER:,}, not {reprlib.repr(value)}")
        return None if value is None else float(value)

    def template(self, key: str) -> np.ndarray:
        """A template image named in ``templates`` (BGR)."""
        templates = self.get("templates", dict)
        if key not in templates:
            raise ProfileError(f"profile {self.name}: field 'templates.{key}' is missing")
        path = template_path(self.folder, templates[key])
        try:
            image = load_image(path, min_side=1, max_aspect=math.inf) if path is not None else None
        except ImageError:
            image = None
        if image is None:
            raise ProfileError(f"profile {self.name}: template 'templates.{key}' ({path.name}) is not a readable PNG")
        return image


def template_path(folder: Path, name: Any) -> Path | None:
    """The template file ``name`` in the profile folder; None when it is not a plain file
    name of a regular file inside the folder (absolute paths, '..' and links out are refused)."""
    if not isinstance(name, str) or not name or "\0" in name:
        return None
    path = folder / name
    try:
        inside = path.resolve().is_relative_to(folder.resolve())
    except (OSError, ValueError):
        return None
    return path if inside and path.is_file() else None


def read_json(path: Path, max_bytes: int = 4 * 1024 * 1024, name: str | None = None) -> Any:
    """A JSON file of at most ``max_bytes``; ValueError with one line for anything else
    (not UTF-8, not JSON, nested too deeply, too big, a number of more digits than Python
    reads, or it cannot be read), naming the file as ``name`` (default: its path)."""
    name = name or str(path)
    try:
        raw = read_bounded(path, max_bytes, pipes=True, name=name)
    except FileRefused as exc:
        raise ValueError(str(exc)) from None
    try:
        return json.loads(raw.decode("utf-8"))
    except UnicodeDecodeError:
        raise ValueError(f"{name} is not JSON: not UTF-8 text") from None
    except json.JSONDecodeError as exc:
        raise ValueError(f"{name} is not JSON: {exc.msg} at line {exc.lineno}") from None
    except ValueError:      # an integer of more than 4,300 digits
        raise ValueError(f"{name} is not JSON this tool reads: a number with too many digits") from None
    except RecursionError:
        raise ValueError(f"{name} is not JSON this tool reads: nested too deeply") from None


def read_folder(folder: Path) -> Profile:
    """The profile in ``folder`` (profile.json and its templates), checked for the schema
    version, the game and templates that lie inside the folder; ProfileError otherwise.
    A folder, never a name: finding a profile by name is the calibration's (``calibration.profile.load``)."""
    folder = Path(folder)
    path = folder / PROFILE_FILE
    if not path.is_file():
        raise ProfileError(f"{folder} is not a profile: it has no {PROFILE_FILE}")
    try:
        data = read_json(path)
    except ValueError as exc:
        raise ProfileError(str(exc)) from None
    if not isinstance(data, dict):
        raise ProfileError(f"{path}: must hold a JSON object")
    profile = Profile(name=folder.name, game="", folder=folder, data=data)
    version = profile.get("version", int)
    if version != SCHEMA_VERSION:
        raise ProfileError(f"profile {folder.name}: field 'version' is {version}; this puzzlepilot reads version {SCHEMA_VERSION}")
    profile.game = profile.get("game", str)
    profile.name = profile.get("name", str, folder.name)
    for key, file in profile.get("templates", dict, {}).items():
        if template_path(folder, file) is None:
            raise ProfileError(f"profile {profile.name}: field 'templates.{key}' must name a file "
                               f"inside the profile folder, not {file!r}")
    return profile
