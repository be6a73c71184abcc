"""Calibration profiles: a folder that teaches the vision one look of a game.

A profile folder holds ``profile.json`` and PNG templates::

    {"version": 1, "game": "lyne", "name": "deep-space-1080p",
     "templates": {"hub": "hub.png", ...},     # files beside profile.json
     ...game-specific fields, validated by that game's vision...}

Profiles are stored by name under the user's config folder (platformdirs), or anywhere as a
folder. Writing is atomic: a new folder is filled beside the old one and swapped in, so a
crash leaves the old profile intact.
"""
from __future__ import annotations

import json
import os
import shutil
import tempfile
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import numpy as np

SCHEMA_VERSION = 1
PROFILE_FILE = "profile.json"


class ProfileError(Exception):
    """A profile that is missing or malformed; the message names the field."""


def profiles_dir() -> Path:
    """Where named profiles live (``PUZZLEPILOT_PROFILES`` overrides, e.g. for tests)."""
    env = os.environ.get("PUZZLEPILOT_PROFILES")
    if env:
        return Path(env)
    from platformdirs import user_config_dir

    return Path(user_config_dir("puzzlepilot")) / "profiles"


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

    def template(self, key: str) -> np.ndarray:
        """A template image named in ``templates`` (BGR)."""
        import cv2

        templates = self.get("templates", dict)
        if key not in templates:
            raise ProfileError(f"profile {self.name}: field 'templates.{key}' is missing")
        path = self.folder / str(templates[key])
        image = cv2.imread(str(path), cv2.IMREAD_COLOR) if path.is_file() else None
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


def load(name_or_dir: str | Path) -> Profile:
    folder = resolve(name_or_dir)
    path = folder / PROFILE_FILE
    if not path.is_file():
        raise ProfileError(f"{folder} is not a profile: it has no {PROFILE_FILE}")
    try:
        data = json.loads(path.read_text(encoding="utf-8"))
    except (UnicodeDecodeError, json.JSONDecodeError) as exc:
        raise ProfileError(f"{path}: not valid JSON ({exc})") from None
    if not isinstance(data, dict):
        raise ProfileError(f"{path}: must hold a JSON object")
    profile = Profile(name=folder.name, game="", folder=folder, data=data)
    version = profile.get("version", int)
    if version != SCHEMA_VERSION:
        raise ProfileError(f"profile {folder.name}: field 'version' is {version}; this puzzlepilot reads version {SCHEMA_VERSION}")
    profile.game = profile.get("game", str)
    profile.name = profile.get("name", str, folder.name)
    for key, file in profile.get("templates", dict, {}).items():
        if not isinstance(file, str) or not (folder / file).is_file():
            raise ProfileError(f"profile {profile.name}: field 'templates.{key}' names a missing file {file!r}")
    return profile


def save(data: dict[str, Any], templates: dict[str, np.ndarray], dest: Path) -> Profile:
    """Write a profile folder atomically: profile.json plus one PNG per template."""
    import cv2

    dest = Path(dest)
    dest.parent.mkdir(parents=True, exist_ok=True)
    data = {**data, "version": SCHEMA_VERSION,
            "templates": {key: f"{key}.png" for key in templates}}
    work = Path(tempfile.mkdtemp(prefix=f".{dest.name}.", dir=dest.parent))
    try:
        for key, image in templates.items():
            if not cv2.imwrite(str(work / f"{key}.png"), image):
                raise ProfileError(f"cannot write template {key}")
        (work / PROFILE_FILE).write_text(json.dumps(data, indent=1, ensure_ascii=False) + "\n", encoding="utf-8")
        old = dest.with_name(f".{dest.name}.old")
        if dest.exists():
            shutil.rmtree(old, ignore_errors=True)
            dest.rename(old)
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
    """Remove a stored profile by name (never an arbitrary folder)."""
    folder = profiles_dir() / name
    if "/" in name or name.startswith(".") or not folder.is_dir():
        raise ProfileError(f"no stored profile named {name!r} in {profiles_dir()}")
    shutil.rmtree(folder)
    return folder
