"""Calibration profiles by name: where they are stored, finding, writing and deleting them.

A profile is a folder of ``profile.json`` and PNG templates that teaches the vision one look
of a game; its format, the typed :class:`vision.profile.Profile` and reading a folder into
one are the vision's (``vision/profile.py``), since the vision takes profiles as data.

Profiles are stored by name under the user's config folder (platformdirs), or anywhere as a
folder. Writing is atomic: a new folder is filled beside the old one and swapped in, so a
crash leaves the old profile intact. Nothing of the user's is ever replaced or removed: a
profile is written only to a new (or empty) folder or over one this tool wrote (it holds the
:data:`MARKER` file and nothing but the profile's own files), and only such folders are
deleted.
"""
from __future__ import annotations

import json
import shutil
import tempfile
from pathlib import Path
from typing import Any

import numpy as np

from solvers.common import user_folder
from vision.profile import PROFILE_FILE, SCHEMA_VERSION, Profile, ProfileError, read_folder, read_json

MARKER = ".puzzlepilot-profile"     # in every folder save() writes: the tool owns that folder


def profiles_dir() -> Path:
    """Where named profiles live (``PUZZLEPILOT_PROFILES`` overrides, e.g. for tests)."""
    return user_folder("PUZZLEPILOT_PROFILES", "config", "profiles")


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
    """The profile given by folder path or by stored name (see :func:`resolve`)."""
    return read_folder(resolve(name_or_dir))


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
