"""Tables the solvers build once and keep on disk, so that the first solve of a fresh
process is as quick as the next (ring move tables, Klotski move lists).

A table lives in one file of the user's cache folder (platformdirs; ``PUZZLEPILOT_CACHE``
overrides it, e.g. for tests), named after the table and its version. The file holds the
name and version again and a checksum of the value (CRC-32: 5× quicker than BLAKE2 on a
megabyte, and enough against damage, which is all it guards against), so a stale,
foreign, truncated or otherwise corrupt file is simply rebuilt (a solver never reads a
damaged table); a cache that cannot be written is skipped. Writes go to a temporary file
in the same folder and are renamed into place, so a reader never sees half a table.
"""
from __future__ import annotations

import contextlib
import os
import pickle
import zlib
from pathlib import Path
from typing import Any, Callable

from solvers.common import user_folder

# Bumped when the file layout itself changes; each table has its own version too (2: CRC-32).
FORMAT = 2
MAGIC = "puzzlepilot-table"


def cache_dir() -> Path:
    """Where tables are kept (``PUZZLEPILOT_CACHE`` overrides the platform's cache folder)."""
    return user_folder("PUZZLEPILOT_CACHE", "cache", "tables")


def path_of(name: str, version: int) -> Path:
    return cache_dir() / f"{name}.f{FORMAT}v{version}.pickle"


def load(name: str, version: int) -> Any | None:
    """The stored table, or None when it is missing, stale or unreadable."""
    try:
        head, payload = pickle.loads(path_of(name, version).read_bytes())
        if head != (MAGIC, name, version, zlib.crc32(payload)):
            return None
        return pickle.loads(payload)
    except Exception:       # missing, truncated, garbage: all mean "rebuild"
        return None


def store(name: str, version: int, value: Any, family: str | None = None, keep: int = 0) -> None:
    """Keep the table for later processes; a cache that cannot be written is skipped.
    With ``family`` (a name prefix) and ``keep``, only the ``keep`` most recently written
    tables of the family stay (tables made per board kind would otherwise pile up)."""
    path = path_of(name, version)
    tmp = path.with_name(f".{path.name}.{os.getpid()}.tmp")
    try:
        path.parent.mkdir(parents=True, exist_ok=True)
        payload = pickle.dumps(value, protocol=pickle.HIGHEST_PROTOCOL)
        head = (MAGIC, name, version, zlib.crc32(payload))
        tmp.write_bytes(pickle.dumps((head, payload), protocol=pickle.HIGHEST_PROTOCOL))
        tmp.replace(path)
    except OSError:
        with contextlib.suppress(OSError):
            tmp.unlink(missing_ok=True)
        return
    if family and keep:
        with contextlib.suppress(OSError):
            kin = sorted(path.parent.glob(f"{family}*.f{FORMAT}v*.pickle"), key=lambda p: p.stat().st_mtime)
            for old in kin[:-keep]:
                old.unlink(missing_ok=True)


def cached(name: str, version: int, build: Callable[[], Any], check: Callable[[Any], bool]) -> Any:
    """The stored table if there is one that passes ``check`` (its shape and types), else
    a freshly built one, stored for next time."""
    value = load(name, version)
    if value is not None:
        try:
            if check(value):
                return value
        except Exception:   # a value of the wrong shape is as good as a corrupt file
            pass
    value = build()
    store(name, version, value)
    return value
