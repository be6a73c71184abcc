"""Calibration profiles by name: where they are stored, finding, writing and deleting them.

A profile is a folder of ``profile.json`` and PNG templates that teaches the vision one look
of a game; its format, the typed :class:`vision.profile.Profile` and reading a folder into
one are the vision's (``vision/profile.py``), since the vision takes profiles as data.

Profiles are stored by name under the user's config folder (platformdirs), or anywhere as a
folder. Writing is atomic (``solvers.files.write_folder``): a new folder is filled beside the
old one and swapped in, so a crash leaves the old profile intact. Nothing of the user's is ever replaced or removed: a
profile is written only to a new (or empty) folder or over one this tool wrote (its
:data:`MARKER` records each file written there with its content, and it holds nothing else,
unchanged), and only such folders are deleted; a folder without the marker (a profile.json
put there by hand, or one written before the record) is the user's.
"""
from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import numpy as np

from solvers.common import user_folder
from solvers.files import FileRefused, Record, is_dir, kind, owned_folder, shown, write_folder
from vision.profile import PROFILE_FILE, SCHEMA_VERSION, Profile, ProfileError, read_folder

MARKER = ".puzzlepilot-profile"     # in every folder save() writes: the tool owns that folder


def profiles_dir() -> Path:
    """Where named profiles live (``PUZZLEPILOT_PROFILES`` overrides, e.g. for tests)."""
    return user_folder("PUZZLEPILOT_PROFILES", "config", "profiles")


def resolve(name_or_dir: str | Path) -> Path:
    """The folder of a profile given by folder path or by stored name."""
    path = Path(name_or_dir)
    if is_dir(path):
        return path
    named = profiles_dir() / str(name_or_dir)
    if is_dir(named):
        return named
    raise ProfileError(f"no profile named {shown(name_or_dir)} (neither a folder nor in {profiles_dir()})")


def load(name_or_dir: str | Path) -> Profile:
    """The profile given by folder path or by stored name (see :func:`resolve`)."""
    return read_folder(resolve(name_or_dir))


def owned(folder: Path) -> bool:
    """Whether this tool wrote ``folder`` and it holds nothing else: its marker, a record of
    the files written there (:class:`solvers.files.Record`), and those files, unchanged."""
    return owned_folder(folder, MARKER)


def check_destination(dest: Path) -> None:
    """ProfileError unless a profile may be written to ``dest``: a new path, an empty
    folder, or a profile folder this tool wrote."""
    try:
        found = kind(dest)
        if found not in (None, "folder"):
            raise ProfileError(f"{dest} exists and is not a folder; give a new folder for the profile")
        foreign = found == "folder" and any(dest.iterdir()) and not owned(dest)
    except (OSError, FileRefused) as exc:
        raise ProfileError(f"cannot look into {dest}: {getattr(exc, 'strerror', None) or exc}") from None
    if foreign:
        raise ProfileError(f"{dest} holds files that are not a puzzlepilot profile; "
                           "give a new or empty folder (nothing was written)")


def save(data: dict[str, Any], templates: dict[str, np.ndarray], dest: Path) -> Profile:
    """Write a profile folder atomically: profile.json plus one PNG per template, recorded
    in the marker, filled in a new folder beside ``dest`` and renamed into place; the
    folder it replaces goes aside under a new name and is removed only as far as it is
    the tool's. ``dest`` must be new, an empty folder, or a profile folder this tool wrote
    (see :func:`owned`); ProfileError otherwise, with nothing written."""
    import cv2

    dest = Path(dest)
    check_destination(dest)
    data = {**data, "version": SCHEMA_VERSION,
            "templates": {key: f"{key}.png" for key in templates}}
    files = {}
    for key, image in templates.items():
        ok, png = cv2.imencode(".png", image)
        if not ok:
            raise ProfileError(f"cannot write template {key}")
        files[f"{key}.png"] = png.tobytes()
    files[PROFILE_FILE] = (json.dumps(data, indent=1, ensure_ascii=False) + "\n").encode("utf-8")
    write_folder(dest, files, MARKER)
    return load(dest)


def keep(profile: Profile, fields: dict[str, Any]) -> Profile:
    """The profile with ``fields`` set in its profile.json (what play learnt, such as how
    the game takes input), written back as :func:`save` writes: atomically, and only over a
    folder this tool wrote (ProfileError otherwise, with nothing written)."""
    templates = {key: profile.template(key) for key in profile.get("templates", dict)}
    return save({**profile.data, **fields}, templates, profile.folder)     # save sets version and templates


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
    if "/" in name or "\\" in name or name.startswith(".") or not is_dir(profiles_dir() / name):
        raise ProfileError(f"no stored profile named {shown(name)} in {profiles_dir()}")
    folder = profiles_dir() / name
    if not (owned(folder) and Record.read(folder, MARKER).remove_folder()):
        raise ProfileError(f"{folder} is not a profile folder puzzlepilot wrote (or holds other files); "
                           "not deleted")
    return folder
