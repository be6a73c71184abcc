"""``--stages DIR``: the vision's intermediate pictures, written where a person can look.

The readers call ``vision.common.stage`` at their key points; here the command layer turns
a recorder on around a reading and writes what it collected as numbered PNGs named for the
stage (``01-lyne-mask.png``, ``02-lyne-shapes.png``, ...), the stages reached so far on a
refusal too, so whoever meets "no board found" can see where the reading stopped.

DIR is created if missing; it must be empty or a folder this command wrote before (its
pictures listed with their content in ``.made``, as ``fixtures make`` does; see
``solvers.files.Record``): those pictures are replaced while unchanged, and anything else
in it means it is someone's folder, refused with nothing written.
"""
from __future__ import annotations

import contextlib
import re
from pathlib import Path
from typing import TYPE_CHECKING, Iterator

from puzzlepilot.errors import UsageError
from puzzlepilot.fixtures import MADE_LIST
from puzzlepilot.userio import IO, encode_picture
from solvers.files import Record, kind, locked, make_folder

if TYPE_CHECKING:
    import numpy as np

STAGE_NAME = re.compile(r"\d\d-[a-z0-9-]+\.png")     # 01-lyne-mask.png


def check_folder(folder: Path) -> Record:
    """The record of the stage pictures ``folder`` holds from an earlier run (empty for a
    new or empty folder); UsageError for anything that is not a folder this command may
    write into: one holding a file that is not a stage picture it wrote, byte for byte."""
    found = kind(folder)
    if found not in (None, "folder"):
        raise UsageError(f"--stages {folder}: not a folder")
    if found is None:
        return Record(folder, MADE_LIST)
    record = Record.read(folder, MADE_LIST)
    try:
        present = {p.name for p in folder.iterdir()}
    except OSError as exc:
        raise UsageError(f"--stages {folder}: cannot read it ({exc.strerror or exc})") from None
    # Only names of this command's form count as its own: a ``.made`` of ``fixtures make``
    # lists pictures that are not stages.
    foreign = sorted(n for n in present - {MADE_LIST} if not (STAGE_NAME.fullmatch(n) and record.owns(n)))
    if foreign:
        raise UsageError(f"--stages {folder} holds files this tool did not write ({', '.join(foreign[:3])}"
                         f"{', ...' if len(foreign) > 3 else ''}): give an empty or new folder")
    return record


@contextlib.contextmanager
def stages_written(folder: Path, io: IO) -> Iterator[None]:
    """Record the stages of the readings inside the block and write them to ``folder``
    afterwards, whether the block read a board or raised (a refusal keeps its message; one
    line on stderr says where the pictures are)."""
    from vision.common import recording_stages

    check_folder(folder)     # refused before the reading
    with recording_stages() as recorder:
        try:
            yield
        finally:
            write(folder, recorder.pictures)
            more = f" ({recorder.dropped} later ones not kept)" if recorder.dropped else ""
            io.err(f"puzzlepilot: {len(recorder.pictures)} stage pictures in {folder}{more}" if recorder.pictures
                   else f"puzzlepilot: no stage pictures in {folder}: the reading stopped before its first stage")


def write(folder: Path, pictures: list[tuple[str, np.ndarray]]) -> None:
    """Replace the earlier run's pictures in ``folder`` by ``pictures`` (name, image), one
    run at a time (the folder's lock: a run at once wrote the record without the other's
    pictures, which then read as someone else's files)."""
    names = [f"{i:02d}-{name}.png" for i, (name, _) in enumerate(pictures, 1)]
    files = {file: encode_picture(Path(file), picture) for file, (_, picture) in zip(names, pictures)}
    make_folder(folder)
    with locked(folder):
        record = check_folder(folder)
        for name in record.names():
            if STAGE_NAME.fullmatch(name):
                record.remove(name)
        record.write(files)
