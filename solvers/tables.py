"""Tables the solvers build once and keep on disk, so that the first solve of a fresh
process is as quick as the next (ring move tables, Klotski move lists).

A table is bytes (each solver turns its table into bytes and back: no pickles, so a file
planted in the cache cannot carry code). It lives in one file of the user's cache folder
(platformdirs; ``PUZZLEPILOT_CACHE`` overrides it, e.g. for tests), named after the table
and its version. The file starts with a header: a magic string, the layout's format, the
table's name and version, the length of the bytes and their checksum (CRC-32: 5× quicker
than BLAKE2 on a megabyte, and enough against damage). A file is read only when it is a
regular file (never a link, FIFO or device) of at most ``MAX_BYTES``, and its bytes are
used only when the whole header matches; anything else (stale, foreign, truncated,
planted) is ignored and the table rebuilt. Tables are written only into a folder the user
owns, through a new temporary file in the same folder renamed into place, so a reader
never sees half a table and nothing is written through a link planted there.
"""
from __future__ import annotations

import contextlib
import os
import stat
import struct
import zlib
from pathlib import Path
from typing import Callable, TypeVar

from solvers.common import user_folder

# Bumped when the file layout itself changes; each table has its own version too
# (2: CRC-32 in a pickle; 3: a binary header, no pickle).
FORMAT = 3
MAGIC = b"puzzlepilot-table\0"
HEAD = struct.Struct("<18sHIQIH")      # magic, format, version, length, CRC-32, name length
MAX_BYTES = 64 * 1024 * 1024           # the largest table kept (the largest made: ~2 MB)
SUFFIX = f".f{FORMAT}.table"

T = TypeVar("T")


def cache_dir() -> Path:
    """Where tables are kept (``PUZZLEPILOT_CACHE`` overrides the platform's cache folder)."""
    return user_folder("PUZZLEPILOT_CACHE", "cache", "tables")


def path_of(name: str, version: int) -> Path:
    return cache_dir() / f"{name}.v{version}{SUFFIX}"


def _head(name: str, version: int, data: bytes) -> bytes:
    label = name.encode("utf-8")
    return HEAD.pack(MAGIC, FORMAT, version, len(data), zlib.crc32(data), len(label)) + label


def load(name: str, version: int) -> bytes | None:
    """The stored table, or None when it is missing, stale, damaged or not a regular file
    of a plausible size (opened without following a link or waiting on a FIFO, and read
    no further than the size it had when opened)."""
    label = name.encode("utf-8")
    try:
        fd = os.open(path_of(name, version), os.O_RDONLY | getattr(os, "O_NOFOLLOW", 0) | getattr(os, "O_NONBLOCK", 0))
    except OSError:         # missing, a link, a folder we cannot read
        return None
    try:
        info = os.fstat(fd)
        if not stat.S_ISREG(info.st_mode) or info.st_size > HEAD.size + len(label) + MAX_BYTES:
            return None
        with os.fdopen(fd, "rb", closefd=False) as f:
            raw = f.read(info.st_size + 1)
    except OSError:
        return None
    finally:
        os.close(fd)
    data = raw[HEAD.size + len(label):]
    return data if raw[:HEAD.size + len(label)] == _head(name, version, data) else None


def store(name: str, version: int, data: bytes, family: str | None = None, keep: int = 0) -> None:
    """Keep the table for later processes; a cache that cannot be written (or a folder
    someone else owns) is skipped. With ``family`` (a name prefix) and ``keep``, only the
    ``keep`` most recently written tables of the family stay (tables made per board kind
    would otherwise pile up)."""
    if len(data) > MAX_BYTES:
        return
    import tempfile     # here: a process that only loads tables starts without it

    folder = cache_dir()
    tmp = None
    try:
        folder.mkdir(parents=True, exist_ok=True)
        if not _ours(folder):
            return
        fd, tmp = tempfile.mkstemp(prefix=f".{name}.", suffix=".tmp", dir=folder)
        with os.fdopen(fd, "wb") as f:
            f.write(_head(name, version, data) + data)
        os.replace(tmp, path_of(name, version))
    except OSError:
        if tmp is not None:
            with contextlib.suppress(OSError):
                os.unlink(tmp)
        return
    if family and keep:
        with contextlib.suppress(OSError):
            kin = sorted((p for p in folder.glob(f"{family}*{SUFFIX}") if p.is_file() and not p.is_symlink()),
                         key=lambda p: p.stat().st_mtime)
            for old in kin[:-keep]:
                old.unlink(missing_ok=True)


def _ours(folder: Path) -> bool:
    """Whether the folder is the user's own (owned by them, so no one else planted in it)."""
    info = folder.stat()
    return stat.S_ISDIR(info.st_mode) and (not hasattr(os, "getuid") or info.st_uid == os.getuid())


def cached(name: str, version: int, build: Callable[[], T], encode: Callable[[T], bytes],
           decode: Callable[[bytes], T]) -> T:
    """The stored table if there is one that ``decode`` turns back into a table (it
    raises on bytes of the wrong shape), else a freshly built one, stored for next time."""
    data = load(name, version)
    if data is not None:
        try:
            return decode(data)
        except Exception:   # bytes of the wrong shape are as good as a corrupt file
            pass
    value = build()
    store(name, version, encode(value))
    return value
