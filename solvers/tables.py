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
never sees half a table and nothing is written through a link planted there; a file the
tool did not write (one that does not start with the magic string) is never replaced nor
removed: the table is then kept in memory only.

A sorted table of uint64 values (ring battles' backward levels, up to 12 MB) is looked up
in place instead (``store_sorted``, ``open_sorted``): the file carries an index, the first
value and the CRC-32 of each block of ``BLOCK`` values, that its header's checksum covers;
the index is read when the file is opened, a value is found by a binary search over it,
then in one block, read from the open file (never mapped: a file cut short by someone
else while mapped would kill the process with SIGBUS) and checked the first time
(``Damaged`` when it does not match or was cut short). A solve that looks up a few hundred
values reads and checks a few hundred kilobytes at most, not the whole file.
"""
from __future__ import annotations

import bisect
import contextlib
import os
import stat
import struct
import zlib
from array import array
from pathlib import Path

from solvers.common import user_folder

# Bumped when the file layout itself changes; each table has its own version too
# (2: CRC-32 in a pickle; 3: a binary header, no pickle).
FORMAT = 3
MAGIC = b"puzzlepilot-table\0"
HEAD = struct.Struct("<18sHIQIH")      # magic, format, version, length, CRC-32, name length
MAX_BYTES = 64 * 1024 * 1024           # the largest table kept (the largest made: ~2 MB)
SUFFIX = f".f{FORMAT}.table"
BLOCK = 512                            # values (4 KB) per checked block of a sorted table

TYPE_CHECKING = False
if TYPE_CHECKING:     # annotations only: a command starts without typing (~2 ms)
    from typing import BinaryIO, Callable, TypeVar

    T = TypeVar("T")


def cache_dir() -> Path:
    """Where tables are kept (``PUZZLEPILOT_CACHE`` overrides the platform's cache folder)."""
    return user_folder("PUZZLEPILOT_CACHE", "cache", "tables")


def path_of(name: str, version: int) -> Path:
    return cache_dir() / f"{name}.v{version}{SUFFIX}"


def _head(name: str, version: int, data: bytes, summed: bytes | None = None) -> bytes:
    """The header of a table of ``data``, its checksum over ``summed`` (default: the data)."""
    label = name.encode("utf-8")
    crc = zlib.crc32(data if summed is None else summed)
    return HEAD.pack(MAGIC, FORMAT, version, len(data), crc, len(label)) + label


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
    if len(data) <= MAX_BYTES:
        _write(name, version, _head(name, version, data) + data, family, keep)


def _write(name: str, version: int, whole: bytes, family: str | None, keep: int) -> None:
    """``store``'s writing of a whole file (header and all), and the family's pruning."""
    import tempfile     # here: a process that only loads tables starts without it

    folder = cache_dir()
    tmp = None
    try:
        folder.mkdir(parents=True, exist_ok=True)
        if not _ours(folder) or not _tool_made(path_of(name, version)):
            return
        fd, tmp = tempfile.mkstemp(prefix=f".{name}.", suffix=".tmp", dir=folder)
        with os.fdopen(fd, "wb") as f:
            f.write(whole)
        os.replace(tmp, path_of(name, version))
    except OSError:
        if tmp is not None:
            with contextlib.suppress(OSError):
                os.unlink(tmp)
        return
    if family and keep:
        with contextlib.suppress(OSError):
            kin = sorted((p for p in folder.glob(f"{family}*{SUFFIX}") if p.is_file() and _tool_made(p)),
                         key=lambda p: p.stat().st_mtime)
            for old in kin[:-keep]:
                old.unlink(missing_ok=True)


def _tool_made(path: Path) -> bool:
    """Whether ``path`` is free or a regular file the tool wrote (it starts with the magic
    string): the only files a table may replace or the pruning remove. A link is neither."""
    try:
        fd = os.open(path, os.O_RDONLY | getattr(os, "O_NOFOLLOW", 0) | getattr(os, "O_NONBLOCK", 0))
    except FileNotFoundError:
        return not os.path.islink(path)     # a dangling link is no free name
    except OSError:
        return False
    try:
        return stat.S_ISREG(os.fstat(fd).st_mode) and os.read(fd, len(MAGIC)) == MAGIC
    finally:
        os.close(fd)


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


class Damaged(Exception):
    """A block of a stored sorted table does not match its checksum, or is cut short: the
    file was damaged after it was opened or in a part its header does not cover; build the
    table anew."""


class Sorted:
    """A stored sorted table of uint64 values, open (``open_sorted``): ``value in table``
    and ``len(table)`` read and check only the blocks they need, each once; ``values()``
    reads and checks every block and gives them all (a memoryview of uint64)."""

    def __init__(self, file: BinaryIO, start: int, count: int, firsts: memoryview, sums: memoryview) -> None:
        self.file, self.start, self.count = file, start, count
        self.firsts, self.sums = firsts, sums
        self.checked = bytearray(len(firsts))
        self.read: dict[int, memoryview] = {}     # block → its values, checked
        self.whole: memoryview | None = None

    def __len__(self) -> int:
        return self.count

    def _check(self, k: int, values: memoryview) -> memoryview:
        if (len(values) != min(BLOCK, self.count - k * BLOCK) or zlib.crc32(values) != self.sums[k]
                or values[0] != self.firsts[k]):
            raise Damaged(f"block {k} of a stored table does not match its checksum")
        self.checked[k] = 1
        return values

    def _values(self, offset: int, count: int) -> memoryview:
        """``count`` values from value ``offset`` on, as the file holds them now (fewer
        when it was cut short)."""
        try:
            raw = os.pread(self.file.fileno(), 8 * count, self.start + 8 * offset)
        except OSError as exc:
            raise Damaged(f"a stored table cannot be read: {exc.strerror or exc}") from None
        return memoryview(raw[:len(raw) // 8 * 8]).cast("Q")

    def block(self, k: int) -> memoryview:
        """Block ``k``'s values, read and checked on first use."""
        if self.whole is not None:
            return self.whole[k * BLOCK:(k + 1) * BLOCK]
        values = self.read.get(k)
        if values is None:
            values = self.read[k] = self._check(k, self._values(k * BLOCK, BLOCK))
        return values

    def __contains__(self, value: object) -> bool:
        k = bisect.bisect_right(self.firsts, value) - 1
        if k < 0:
            return False
        values = self.block(k)
        i = bisect.bisect_left(values, value)
        return i < len(values) and values[i] == value

    def values(self) -> memoryview:
        if self.whole is None:
            whole = self._values(0, self.count)
            for k in range(len(self.checked)):
                self._check(k, whole[k * BLOCK:(k + 1) * BLOCK])
            self.whole, self.read = whole, {}
        return self.whole


def _index(data: bytes) -> bytes:
    """A sorted table's index: the first value of each block, then each block's CRC-32."""
    view = memoryview(data).cast("Q")
    starts = range(0, len(view), BLOCK)
    return (array("Q", [view[i] for i in starts]).tobytes()
            + array("I", [zlib.crc32(view[i:i + BLOCK]) for i in starts]).tobytes())


def store_sorted(name: str, version: int, data: bytes, family: str | None = None, keep: int = 0) -> None:
    """Keep a sorted table of uint64 values (``data``, this machine's byte order) for
    ``open_sorted``: the header's checksum covers its index, the index each block."""
    if 0 < len(data) <= MAX_BYTES and len(data) % 8 == 0:
        index = _index(data)
        _write(name, version, _head(name, version, data, index) + index + data, family, keep)


def open_sorted(name: str, version: int) -> Sorted | None:
    """The stored sorted table, open, its index read, or None when it is missing, stale,
    not a regular file of a plausible size, or its header or index is damaged (opened
    without following a link or waiting on a FIFO). Its blocks are checked as they are read."""
    label = name.encode("utf-8")
    start = HEAD.size + len(label)
    try:
        fd = os.open(path_of(name, version), os.O_RDONLY | getattr(os, "O_NOFOLLOW", 0) | getattr(os, "O_NONBLOCK", 0))
    except OSError:
        return None
    try:
        info = os.fstat(fd)
    except OSError:
        info = None
    if info is None or not stat.S_ISREG(info.st_mode):     # a folder: no file object opens on it
        os.close(fd)
        return None
    file = os.fdopen(fd, "rb", buffering=0)
    try:
        size = info.st_size
        if not start < size <= start + 2 * MAX_BYTES:
            file.close()
            return None
        head = os.pread(fd, start, 0)
        if len(head) < start:
            file.close()
            return None
        magic, form, stored_version, length, index_sum, label_length = HEAD.unpack_from(head)
        blocks = -(-(length // 8) // BLOCK)
        index = os.pread(fd, 12 * blocks, start) if size == start + 12 * blocks + length else b""
    except OSError:
        file.close()
        return None
    if ((magic, form, stored_version, label_length) != (MAGIC, FORMAT, version, len(label))
            or head[HEAD.size:] != label or length % 8 or length == 0
            or len(index) != 12 * blocks or zlib.crc32(index) != index_sum):
        file.close()
        return None
    view = memoryview(index)
    return Sorted(file, start + 12 * blocks, length // 8, view[:8 * blocks].cast("Q"), view[8 * blocks:].cast("I"))
