"""Calibration profiles: a folder that teaches the vision one look of a game.

A profile folder holds ``profile.json`` and PNG templates::

    {"version": 1, "game": "lyne", "name": "deep-space-1080p",
     "templates": {"hub": "hub.png", ...},     # files beside profile.json
     ...game-specific fields, validated by that game's vision...}

Profiles are stored by name under the user's config folder (platformdirs), or anywhere as a
folder. Writing is atomic: a new folder is filled beside the old one and swapped in, so a
crash leaves the old profile intact. Nothing of the user's is ever replaced or removed: a
profile is written only to a new (or empty) folder or over one this tool wrote (it holds the
:data:`MARKER` file and nothing but the profile's own files), and only such folders are
deleted. Template files must lie inside the profile folder.
"""
from __future__ import annotations

import json
import math
import shutil
import tempfile
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import numpy as np

from solvers.common import user_folder

SCHEMA_VERSION = 1
PROFILE_FILE = "profile.json"
MARKER = ".puzzlepilot-profile"     # in every folder save() writes: the tool owns that folder


class ProfileError(Exception):
    """A profile that is missing or malformed; the message names the field."""


def profiles_dir() -> Path:
    """Where named profiles live (``PUZZLEPILOT_PROFILES`` overrides, e.g. for tests)."""
    return user_folder("PUZZLEPILOT_PROFILES", "config", "profiles")


@dataclass
class Profile:
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
                isinstance(v, int) and not isinstance(v, bool) and v > 0 for v in value)):
            raise ProfileError(f"profile {self.name}: field {key!r} must be {count} whole numbers above 0, "
                               f"not {value!r}")
        return None if value is None else tuple(value)

    def positive(self, key: str) -> float | None:
        """A finite number above 0 (a pitch, a share), or None when the profile has no such field."""
        value = self.get(key, (int, float), None)
        if value is not None and not (math.isfinite(value) and value > 0):
            raise ProfileError(f"profile {self.name}: field {key!r} must be a number above 0, not {value!r}")
        return None if value is None else float(value)

    def template(self, key: str) -> np.ndarray:
        """A template image named in ``templates`` (BGR)."""
        from vision.common import ImageError, load_image

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


def resolve(name_or_dir: str | Path) -> Path:
    """The folder of a profile given by folder path or by stored name."""
    path = Path(name_or_dir)
    if path.is_dir():
        return path
    named = profiles_dir() / str(name_or_dir)
    if named.is_dir():
        return named
    raise ProfileError(f"no profile named {str(name_or_dir)!r} (neither a folder nor in {profiles_dir()})")


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


def read_json(path: Path, max_bytes: int = 4 * 1024 * 1024) -> Any:
    """A JSON file of at most ``max_bytes``; ValueError with one line for anything else
    (not UTF-8, not JSON, nested too deeply, too big)."""
    with path.open("rb") as f:
        raw = f.read(max_bytes + 1)
    if len(raw) > max_bytes:
        raise ValueError(f"{path}: longer than {max_bytes // (1024 * 1024)} MB")
    try:
        return json.loads(raw.decode("utf-8"))
    except UnicodeDecodeError:
        raise ValueError(f"{path} is not JSON: not UTF-8 text") from None
    except json.JSONDecodeError as exc:
        raise ValueError(f"{path} is not JSON: {exc.msg} at line {exc.lineno}") from None
    except RecursionError:
        raise ValueError(f"{path} is not JSON this tool reads: nested too deeply") from None


def load(name_or_dir: str | Path) -> Profile:
    folder = resolve(name_or_dir)
    path = folder / PROFILE_FILE
    if not path.is_file():
        raise ProfileError(f"{folder} is not a profile: it has no {PROFILE_FILE}")
    try:
        data = read_json(path)
    except ValueError as exc:
        raise ProfileError(str(exc)) from None
    except OSError as exc:
        raise ProfileError(f"cannot read {path}: {exc.strerror or exc}") from None
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


def owned(folder: Path) -> bool:
    """Whether this tool wrote ``folder`` and it holds nothing else: the marker file (or,
    for profiles written before the marker, profile.json) and the profile's own files."""
    if folder.is_symlink() or not folder.is_dir():
        return False
    names = {p.name for p in folder.iterdir()}
    if MARKER not in names and PROFILE_FILE not in names:
        return False
    try:
        data = read_json(folder / PROFILE_FILE) if PROFILE_FILE in names else {}
    except (ValueError, OSError):
        data = {}
    templates = data.get("templates") if isinstance(data, dict) else None
    ours = {MARKER, PROFILE_FILE} | {f"{key}.png" for key in (templates if isinstance(templates, dict) else {})}
    return names <= ours


def check_destination(dest: Path) -> None:
    """ProfileError unless a profile may be written to ``dest``: a new path, an empty
    folder, or a profile folder this tool wrote."""
    if dest.is_symlink() or dest.exists() and not dest.is_dir():
        raise ProfileError(f"{dest} exists and is not a folder; give a new folder for the profile")
    try:
        foreign = dest.is_dir() and any(dest.iterdir()) and not owned(dest)
    except OSError as exc:
        raise ProfileError(f"cannot look into {dest}: {exc.strerror or exc}") from None
    if foreign:
        raise ProfileError(f"{dest} holds files that are not a puzzlepilot profile; "
                           "give a new or empty folder (nothing was written)")


def save(data: dict[str, Any], templates: dict[str, np.ndarray], dest: Path) -> Profile:
    """Write a profile folder atomically: profile.json plus one PNG per template, filled in
    a new folder beside ``dest`` and renamed into place. ``dest`` must be new, an empty
    folder, or a profile folder this tool wrote (see :func:`owned`); ProfileError otherwise,
    with nothing written."""
    import cv2

    dest = Path(dest)
    check_destination(dest)
    try:
        dest.parent.mkdir(parents=True, exist_ok=True)
    except OSError as exc:
        raise ProfileError(f"cannot create {dest.parent}: {exc.strerror or exc}") from None
    data = {**data, "version": SCHEMA_VERSION,
            "templates": {key: f"{key}.png" for key in templates}}
    try:
        work = Path(tempfile.mkdtemp(prefix=f".{dest.name}.", dir=dest.parent))
    except OSError as exc:
        raise ProfileError(f"cannot write in {dest.parent}: {exc.strerror or exc}") from None
    try:
        for key, image in templates.items():
            if not cv2.imwrite(str(work / f"{key}.png"), image):
                raise ProfileError(f"cannot write template {key}")
        (work / PROFILE_FILE).write_text(json.dumps(data, indent=1, ensure_ascii=False) + "\n", encoding="utf-8")
        (work / MARKER).write_text("written by puzzlepilot calibrate: this folder is replaced "
                                   "when the profile is written again\n", encoding="utf-8")
        old = dest.with_name(f".{dest.name}.old")
        if dest.is_dir():
            shutil.rmtree(old, ignore_errors=True)
            dest.rename(old)      # empty or ours (checked above)
        work.rename(dest)
        shutil.rmtree(old, ignore_errors=True)
    except BaseException:
        shutil.rmtree(work, ignore_errors=True)
        raise
    return load(dest)


def stored() -> list[tuple[str, Profile | ProfileError]]:
    """Every profile stored by name: the profile, or the error that keeps it from loading."""
    root = profiles_dir()
    if not root.is_dir():
        return []
    out: list[tuple[str, Profile | ProfileError]] = []
    for folder in sorted(p for p in root.iterdir() if p.is_dir() and not p.name.startswith(".")):
        try:
            out.append((folder.name, load(folder)))
        except ProfileError as exc:
            out.append((folder.name, exc))
    return out


def delete(name: str) -> Path:
    """Remove a stored profile by name: only a folder this tool wrote (:func:`owned`),
    never an arbitrary folder or one holding the user's own files."""
    folder = profiles_dir() / name
    if "/" in name or "\\" in name or name.startswith(".") or not folder.is_dir() or folder.is_symlink():
        raise ProfileError(f"no stored profile named {name!r} in {profiles_dir()}")
    if not owned(folder):
        raise ProfileError(f"{folder} is not a profile folder puzzlepilot wrote (or holds other files); "
                           "not deleted")
    shutil.rmtree(folder)
    return folder
