"""``--stages DIR``: the vision's intermediate pictures, written where a person can look.

The readers call ``vision.common.stage`` at their key points; here the command layer turns
a recorder on around a reading and writes what it collected as numbered PNGs named for the
stage (``01-lyne-mask.png``, ``02-lyne-shapes.png``, ...), the stages reached so far on a
refusal too, so whoever meets "no board found" can see where the reading stopped.

DIR is created if missing; it must be empty or a folder this command wrote before (its
pictures listed in ``.made``, as ``fixtures make`` does): those pictures are replaced, and
anything else in it means it is someone's folder, refused with nothing written.
"""
from __future__ import annotations

import contextlib
import json
import os
import re
from pathlib import Path
from typing import TYPE_CHECKING, Iterator

from puzzlepilot.errors import UsageError
from puzzlepilot.fixtures import MADE_LIST
from puzzlepilot.userio import IO, write_annotation

if TYPE_CHECKING:
    import numpy as np

STAGE_NAME = re.compile(r"\d\d-[a-z0-9-]+\.png")     # 01-lyne-mask.png


def check_folder(folder: Path) -> set[str]:
    """The stage pictures ``folder`` holds from an earlier run (empty for a new or empty
    folder); UsageError for anything that is not a folder this command may write into."""
    if folder.is_symlink() or folder.exists() and not folder.is_dir():
        raise UsageError(f"--stages {folder}: not a folder")
    if not folder.exists():
        return set()
    made_path = folder / MADE_LIST
    try:
        present = {p.name for p in folder.iterdir()}
        made = set(json.loads(made_path.read_text(encoding="utf-8"))) if made_path.is_file() else set()
    except (OSError, ValueError, TypeError) as exc:
        raise UsageError(f"--stages {folder}: cannot read it ({getattr(exc, 'strerror', None) or exc})") from None
    # Only names of this command's form count as its own: a ``.made`` of ``fixtures make``
    # lists pictures that are not stages.
    made = {name for name in made if isinstance(name, str) and STAGE_NAME.fullmatch(name)}
    foreign = sorted(present - made - {MADE_LIST})
    if foreign:
        raise UsageError(f"--stages {folder} holds files this tool did not write ({', '.join(foreign[:3])}"
                         f"{', ...' if len(foreign) > 3 else ''}): give an empty or new folder")
    return made & present


@contextlib.contextmanager
def stages_written(folder: Path, io: IO) -> Iterator[None]:
    """Record the stages of the readings inside the block and write them to ``folder``
    afterwards, whether the block read a board or raised (a refusal keeps its message; one
    line on stderr says where the pictures are)."""
    from vision.common import recording_stages

    old = check_folder(folder)
    with recording_stages() as recorder:
        try:
            yield
        finally:
            write(folder, old, recorder.pictures)
            more = f" ({recorder.dropped} later ones not kept)" if recorder.dropped else ""
            io.err(f"puzzlepilot: {len(recorder.pictures)} stage pictures in {folder}{more}" if recorder.pictures
                   else f"puzzlepilot: no stage pictures in {folder}: the reading stopped before its first stage")


def write(folder: Path, old: set[str], pictures: list[tuple[str, np.ndarray]]) -> None:
    """Replace the earlier run's pictures in ``folder`` by ``pictures`` (name, image)."""
    try:
        folder.mkdir(parents=True, exist_ok=True)
        for name in old:
            (folder / name).unlink(missing_ok=True)
        names = [f"{i:02d}-{name}.png" for i, (name, _) in enumerate(pictures, 1)]
        tmp = folder / f"{MADE_LIST}.tmp"
        # Listed before they are written: a run stopped halfway leaves a folder it may reuse.
        tmp.write_text(json.dumps(names) + "\n", encoding="utf-8")
        os.replace(tmp, folder / MADE_LIST)
    except OSError as exc:
        raise UsageError(f"cannot write stage pictures to {folder}: {exc.strerror or exc}") from None
    for file, (_, picture) in zip(names, pictures):
        write_annotation(folder / file, picture, [])
