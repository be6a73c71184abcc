"""Writing and removing files without losing one of the user's: every writer goes through here.

The tool writes two kinds of file, and nothing else:

- an output the user named (``--annotate OUT``, ``--sheet OUT``): a new file, or over a
  regular file of that name, since the user asked for it (:func:`write_output`);
- a file in a folder the tool keeps (rendered fixtures, stage pictures, a profile, the demo's
  pages): the folder's record file lists each file the tool wrote there with its size and
  SHA-256 (:class:`Record`), and such a file is replaced or removed only while it is still a
  plain file of that content. A record is the user's to edit or damage: a name in it that is
  not a plain name of that folder, or a file that changed, is simply not the tool's; a record
  that does not read as one is refused, never trusted.

Every write is atomic (a new temporary file of a random name beside the target, created
exclusively, renamed over it), never through a link, never over a folder, FIFO or device.
A refusal is :class:`FileRefused`: one line naming the file, the command's exit status 2.
"""
from __future__ import annotations

import contextlib
import errno
import os
import stat
import time

TYPE_CHECKING = False
if TYPE_CHECKING:     # annotations only: a command starts without typing (~2 ms) nor pathlib
    from pathlib import Path
    from typing import Iterable, Iterator

# hashlib, json, shutil and tempfile are imported where the kept folders' writers use them:
# a command that only reads a board text (every ``solve --board``) starts without them.

NAME_MAX = 255                  # bytes in one file name (Linux, macOS, NTFS in UTF-16 units)
RECORD_LIMIT = 1024 * 1024      # a record file longer than this is not one of ours
OWNED_LIMIT = 256 * 1024 * 1024  # the tool writes no file larger than this: a bigger one is not ours
_NOFOLLOW = getattr(os, "O_NOFOLLOW", 0)
_NONBLOCK = getattr(os, "O_NONBLOCK", 0)


class FileRefused(Exception):
    """A file or folder the tool may not read, write or remove as asked: one line naming it."""


def shown(name: object, width: int = 60) -> str:
    """A name as a message shows it: quoted, cut to ``width`` characters."""
    text = str(name)
    return repr(text if len(text) <= width else text[:width] + "...")


def plain_name(name: str, what: str) -> str:
    """``name`` when it is one file name the system can hold (no folder part, not '.' or
    '..', at most NAME_MAX bytes); FileRefused naming ``what`` otherwise."""
    if (not name or name in (".", "..") or any(c in name for c in "/\\\0")
            or len(name.encode("utf-8", "surrogateescape")) > NAME_MAX):
        raise FileRefused(f"{what} must be a plain file name of at most {NAME_MAX} bytes, not {shown(name)}")
    return name


def kind(path: Path) -> str | None:
    """What is at ``path`` itself, links not followed: None (nothing), "file" (a regular
    file), "folder", "link" or "other" (FIFO, device, socket). FileRefused when the system
    cannot look (a name too long, no permission)."""
    try:
        mode = os.lstat(path).st_mode
    except FileNotFoundError:
        return None
    except NotADirectoryError:
        return None
    except OSError as exc:
        raise FileRefused(f"cannot look at {shown(path, 200)}: {exc.strerror or exc}") from None
    return ("file" if stat.S_ISREG(mode) else "folder" if stat.S_ISDIR(mode) else
            "link" if stat.S_ISLNK(mode) else "other")


def exists(path: Path | str) -> bool:
    """Whether something is at ``path`` (links followed: a file, a folder, a FIFO, a pipe
    such as ``<(...)``); False for a text that cannot be a path (too long, a NUL)."""
    try:
        os.stat(path)
    except (OSError, ValueError):
        return False
    return True


def is_file(path: Path | str) -> bool:
    """Whether ``path`` names a regular file (links followed): False also for a text that
    cannot be a path on this system (too long, a NUL), e.g. a board text given in its place."""
    try:
        return stat.S_ISREG(os.stat(path).st_mode)
    except (OSError, ValueError):
        return False


def is_dir(path: Path | str) -> bool:
    """Whether ``path`` names a folder (links followed); False for what cannot be a path."""
    try:
        return stat.S_ISDIR(os.stat(path).st_mode)
    except (OSError, ValueError):
        return False


def same_file(a: Path | str, b: Path | str) -> bool:
    """Whether ``a`` and ``b`` name one existing file (through links or hard links too)."""
    try:
        return os.path.samefile(a, b)
    except (OSError, ValueError):
        return False


def read_bounded(path: Path | str, limit: int, *, pipes: bool = False, follow: bool = True, name: str | None = None
                 ) -> bytes:
    """The bytes of the file ``path``, at most ``limit`` of them; FileRefused naming it for
    anything else. Every read of a file the user named or the tool keeps goes through here.

    A regular file is weighed before it is read. With ``pipes`` a pipe, FIFO or device is
    read like standard input (``--board <(...)``) and cut at the bound; without, it is
    refused, a FIFO never waited on. With ``follow`` False a link is refused too. Messages
    call the file ``name`` (default: its path)."""
    name = name or str(path)
    try:
        fd = os.open(path, os.O_RDONLY | (0 if pipes else _NONBLOCK) | (0 if follow else _NOFOLLOW))
    except OSError as exc:
        raise FileRefused(f"cannot read {shown(name, 200)}: "
                          f"{'a link' if exc.errno == errno.ELOOP else exc.strerror or exc}") from None
    too_long = FileRefused(f"{name} is longer than "
                           f"{f'{limit >> 20} MB' if limit % (1 << 20) == 0 else f'{limit:,} bytes'}")
    try:
        info = os.fstat(fd)
        if stat.S_ISDIR(info.st_mode):
            raise FileRefused(f"{name} is a folder, not a file")
        if not (pipes or stat.S_ISREG(info.st_mode)):
            raise FileRefused(f"{name} is not a regular file")
        if info.st_size > limit:
            raise too_long
        data = b""
        while len(data) <= limit and (chunk := os.read(fd, limit + 1 - len(data))):
            data += chunk
    except OSError as exc:
        raise FileRefused(f"cannot read {shown(name, 200)}: {exc.strerror or exc}") from None
    finally:
        os.close(fd)
    if len(data) > limit:
        raise too_long
    return data


def unused_name(folder: Path, prefix: str) -> Path:
    """A path in ``folder`` of ``prefix`` and random letters where nothing is."""
    while True:
        path = folder / f"{prefix}{os.urandom(6).hex()}"
        if kind(path) is None:
            return path


def _atomic(path: Path, data: bytes) -> None:
    """Write ``data`` to a new temporary file beside ``path`` (random name, created
    exclusively, links never followed) and rename it over ``path``; the temporary file is
    removed on any failure. The caller has checked that ``path`` may be replaced."""
    folder = path.parent
    for _ in range(100):
        tmp = folder / f".puzzlepilot-{os.urandom(6).hex()}.tmp"
        try:
            fd = os.open(tmp, os.O_WRONLY | os.O_CREAT | os.O_EXCL | _NOFOLLOW, 0o666)
            break
        except FileExistsError:
            continue
        except OSError as exc:
            raise FileRefused(f"cannot write in {folder}: {exc.strerror or exc}") from None
    else:
        raise FileRefused(f"cannot write in {folder}: no free temporary name")
    try:
        with os.fdopen(fd, "wb") as f:
            f.write(data)
        os.replace(tmp, path)
    except OSError as exc:
        tmp.unlink(missing_ok=True)
        raise FileRefused(f"cannot write {shown(path, 200)}: {exc.strerror or exc}") from None
    except BaseException:
        tmp.unlink(missing_ok=True)
        raise


def write_protected(path: Path) -> bool:
    """Whether the file at ``path`` is one its owner made read-only (no write bit for
    anyone) or this user may not write: as ``cp`` does, such a file is never replaced."""
    try:
        return not (os.lstat(path).st_mode & 0o222 and os.access(path, os.W_OK))
    except OSError:
        return False


def check_output(path: Path) -> None:
    """FileRefused unless ``path``, an output the user named, may be written: a new file in
    an existing folder, or a regular file that is not write-protected (never a folder,
    link, FIFO or device)."""
    found = kind(path)
    if found not in (None, "file"):
        raise FileRefused(f"{path} exists and is not a regular file; not replaced")
    if found == "file" and write_protected(path):
        raise FileRefused(f"{path} is write-protected; not replaced")
    if not is_dir(path.parent):
        raise FileRefused(f"no such folder: {path.parent}")


def write_output(path: Path, data: bytes) -> None:
    """Write an output the user named, atomically (see :func:`check_output`)."""
    check_output(path)
    _atomic(path, data)


def write_new(path: Path, data: bytes) -> None:
    """Write a file that must not exist yet (the user's copy, say): FileRefused when
    anything is at ``path``."""
    if kind(path) is not None:
        raise FileRefused(f"{path} already exists; not replaced")
    _atomic(path, data)


def make_folder(path: Path) -> None:
    """Create the folder ``path`` and its parents where missing; FileRefused when it cannot."""
    try:
        path.mkdir(parents=True, exist_ok=True)
    except OSError as exc:
        raise FileRefused(f"cannot create {shown(path, 200)}: {exc.strerror or exc}") from None


def _digest(data: bytes) -> list:
    import hashlib

    return [len(data), hashlib.sha256(data).hexdigest()]


class Record:
    """The files the tool wrote in one folder, each with its size and SHA-256, kept in a
    record file there (``fixtures make``'s ``.made``, a profile's marker). A name is the
    tool's (:meth:`owns`) only while it is a plain name of a regular file in that folder
    with a content the record lists; only such files are replaced or removed."""

    FORMAT = "puzzlepilot record 1"

    def __init__(self, folder: Path, name: str, files: dict[str, list[list]] | None = None) -> None:
        self.folder, self.path = folder, folder / name
        self.files: dict[str, list[list]] = files or {}

    @classmethod
    def read(cls, folder: Path, name: str) -> Record:
        """The record ``name`` in ``folder``: empty when there is none (nor the folder);
        FileRefused when it is not a record the tool wrote (damaged, too long, a link, a
        FIFO, another program's file). A list of names (the first ``.made``) lists no
        content, so none of its files can be told to be ours: an empty record."""
        path = folder / name
        if kind(path) is None:
            return cls(folder, name)
        import json

        try:
            data = json.loads(read_bounded(path, RECORD_LIMIT, follow=False).decode("utf-8"))
        except (FileRefused, ValueError, RecursionError):
            data = None
        if isinstance(data, list) and all(isinstance(n, str) for n in data):
            return cls(folder, name)
        files = data.get("files") if isinstance(data, dict) and data.get("format") == cls.FORMAT else None
        if not (isinstance(files, dict) and all(
                isinstance(v, list) and all(isinstance(d, list) and len(d) == 2 and type(d[0]) is int
                                            and isinstance(d[1], str) for d in v) for v in files.values())):
            raise FileRefused(f"{path} is not a record of the files puzzlepilot wrote there (damaged, or "
                              "someone else's): move it away, or use another folder")
        return cls(folder, name, files)

    def names(self) -> set[str]:
        return set(self.files)

    def owns(self, name: str) -> bool:
        """Whether ``name`` is a file the tool wrote here and nobody changed since."""
        known = self.files.get(name)
        if not known or name == self.path.name:
            return False
        try:
            plain_name(name, "a recorded name")
            return self._content(self.folder / name, {d[0] for d in known}) in known
        except FileRefused:
            return False

    @staticmethod
    def _content(path: Path, sizes: set[int]) -> list | None:
        """[size, sha256] of the plain file at ``path`` when its size is one of ``sizes``."""
        try:
            info = os.lstat(path)
        except OSError:
            return None
        if not stat.S_ISREG(info.st_mode) or info.st_size not in sizes or info.st_size > OWNED_LIMIT:
            return None
        return _digest(read_bounded(path, OWNED_LIMIT, follow=False))

    def may_write(self, name: str, data: bytes | None = None) -> bool:
        """Whether ``name`` may be (re)written here: nothing there, a file the tool wrote,
        or a plain file holding ``data`` already (replacing it loses nothing)."""
        found = kind(self.folder / plain_name(name, "a file name"))
        if found is None:
            return True
        if found != "file":
            return False
        if self.owns(name):
            return True
        return data is not None and self._content(self.folder / name, {len(data)}) == _digest(data)

    def check(self, names: Iterable[str], data: dict[str, bytes] | None = None) -> None:
        """FileRefused naming the files among ``names`` that are not the tool's to write."""
        foreign = sorted(n for n in names if not self.may_write(n, (data or {}).get(n)))
        if foreign:
            raise FileRefused(f"{self.folder} holds files puzzlepilot did not write with the names it writes: "
                              f"{', '.join(shown(n) for n in foreign[:3])}{', ...' if len(foreign) > 3 else ''} "
                              "(move them, or write into another folder)")

    def write(self, files: dict[str, bytes]) -> None:
        """Write ``files`` (name → bytes) into the folder, each atomically. Every target is
        checked first (FileRefused, nothing written); the record lists the new content
        before each file is renamed into place, so whatever stops the run, every file the
        tool wrote is on the record."""
        self.check(files, files)
        for name, data in files.items():
            self.files[name] = [d for d in self.files.get(name, []) if d != _digest(data)] + [_digest(data)]
        self.save()
        for name, data in files.items():
            _atomic(self.folder / name, data)
            self.files[name] = [_digest(data)]
        self.save()

    def remove(self, name: str) -> bool:
        """Remove ``name`` when it is the tool's (:meth:`owns`); either way it leaves the
        record (save afterwards). Whether it was removed."""
        ours = self.owns(name)
        if ours:
            try:
                os.unlink(self.folder / name)
            except OSError as exc:
                raise FileRefused(f"cannot remove {self.folder / name}: {exc.strerror or exc}") from None
        self.files.pop(name, None)
        return ours

    def save(self) -> None:
        """Write the record file (over the record read, or as a new file)."""
        if kind(self.path) not in (None, "file"):
            raise FileRefused(f"{self.path} is not a regular file; not replaced")
        import json

        # One file a line, so a record kept in git changes by the lines of the files changed.
        lines = [f" {json.dumps(name, ensure_ascii=False)}: {json.dumps(known)}"
                 for name, known in sorted(self.files.items())]
        text = f'{{"format": {json.dumps(self.FORMAT)}, "files": {{\n' + ",\n".join(lines) + "\n}}\n"
        _atomic(self.path, text.encode("utf-8"))

    def holds_only_its_own(self) -> bool:
        """Whether the folder holds nothing but the record and files the tool wrote."""
        try:
            present = os.listdir(self.folder)
        except OSError:
            return False
        return all(n == self.path.name or self.owns(n) for n in present)

    def remove_folder(self) -> bool:
        """Remove the folder when it holds nothing but the tool's own files and the record
        (its files go first, then the record, then the folder); False, with nothing of the
        user's touched, when anything else is in it."""
        if not self.holds_only_its_own():
            return False
        for name in list(self.files):
            self.remove(name)
        try:
            self.path.unlink(missing_ok=True)
            os.rmdir(self.folder)
        except OSError:
            return False
        return True


def owned_folder(folder: Path, record_name: str) -> bool:
    """Whether ``folder`` is a folder the tool wrote whole: it holds its record
    ``record_name`` and nothing but the files listed there, unchanged."""
    try:
        return (kind(folder) == "folder" and kind(folder / record_name) == "file"
                and Record.read(folder, record_name).holds_only_its_own())
    except FileRefused:
        return False


LOCK_WAIT = 10.0     # seconds a writer waits for another process of the tool to finish its swap


@contextlib.contextmanager
def locked(folder: Path) -> Iterator[None]:
    """Hold the folder's lock while the block runs, so that processes of the tool swapping
    entries of the same folder take turns. The lock is the folder's own (flock on the
    folder itself): no lock file is left in it. Waits at most ``LOCK_WAIT`` seconds
    (FileRefused then); no lock where the system or the folder has none."""
    try:
        import fcntl
    except ImportError:     # Windows: no flock
        yield
        return
    try:
        fd = os.open(folder, os.O_RDONLY | getattr(os, "O_DIRECTORY", 0))
    except OSError:     # a folder one may write in but not list: unlocked, as before
        yield
        return
    try:
        deadline = time.monotonic() + LOCK_WAIT
        while True:
            try:
                fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
                break
            except BlockingIOError:
                if time.monotonic() > deadline:
                    raise FileRefused(f"another puzzlepilot has been writing in {shown(folder, 200)} for "
                                      f"{LOCK_WAIT:g} s; try again when it is done") from None
                time.sleep(0.01)
            except OSError:     # a file system without locks: as before, unlocked
                break
        yield
    finally:
        os.close(fd)


def write_folder(dest: Path, files: dict[str, bytes], record_name: str) -> None:
    """Write ``files`` (name → bytes) with their record as the folder ``dest``, atomically:
    filled in a new folder beside it and renamed into place, one process of the tool at a
    time (:func:`locked`). The caller has checked that ``dest`` is new, an empty folder or
    :func:`owned_folder`; the folder there is set aside under a new name and removed only
    as far as it is the tool's (FileRefused naming where anything else stays)."""
    import shutil
    import tempfile
    from pathlib import Path

    make_folder(dest.parent)
    try:
        work = Path(tempfile.mkdtemp(prefix=".puzzlepilot-", dir=dest.parent))
    except OSError as exc:
        raise FileRefused(f"cannot write in {dest.parent}: {exc.strerror or exc}") from None
    old = None
    try:
        Record(work, record_name).write(files)
        with locked(dest.parent):
            if kind(dest) == "folder":
                aside = unused_name(dest.parent, ".puzzlepilot-old-")
                os.rename(dest, aside)
                old = aside
            try:
                os.rename(work, dest)
            except BaseException:
                if old is not None and kind(dest) is None:
                    os.rename(old, dest)
                    old = None
                raise
    except BaseException as exc:
        shutil.rmtree(work, ignore_errors=True)     # made above, by this run
        if isinstance(exc, OSError):
            raise FileRefused(f"cannot write {dest}: {exc.strerror or exc}") from None
        raise
    if old is not None and not Record.read(old, record_name).remove_folder():
        raise FileRefused(f"written to {dest}; what was there before stays in {old}")
