"""What the commands share with the user: their streams, and reading what the user gives
(board texts, numbers, search caps, profiles) and writing what they ask for (annotated
pictures), each refusing bad input with one line (``UsageError``, ``BoardError``).

Below the command line and every command module, so a command imports these without
importing ``cli``.
"""
from __future__ import annotations

import argparse
import math
from dataclasses import dataclass

from puzzlepilot.errors import UsageError
from solvers.common import BoardError
from solvers.files import FileRefused, exists, read_bounded, write_output

TYPE_CHECKING = False
if TYPE_CHECKING:     # annotations only: a command starts without typing (~2 ms) nor pathlib
    from pathlib import Path
    from typing import Any, Callable, TextIO

MAX_BOARD_BYTES = 4 * 1024 * 1024   # a board text longer than this is refused unread

# Search caps (--max-positions, --max-nodes) accept whole numbers in this range.
MAX_CAP = 1_000_000_000


@dataclass
class IO:
    """A command's standard streams, given to it (tests pass their own)."""

    stdin: TextIO
    stdout: TextIO
    stderr: TextIO

    def out(self, text: str = "") -> None:
        print(text, file=self.stdout)

    def err(self, text: str) -> None:
        print(text, file=self.stderr)


def number(low: float, high: float) -> Callable[[str], float]:
    """An argparse type: a finite number from ``low`` to ``high`` (nan, inf and values
    that would busy-loop or sleep for years are refused with one line)."""
    def parse(text: str) -> float:
        try:
            value = float(text)
        except ValueError:
            value = math.nan
        if not (math.isfinite(value) and low <= value <= high):
            raise argparse.ArgumentTypeError(f"must be a number from {low:g} to {high:g}, not {text!r}")
        return value

    parse.__name__ = "number"
    return parse


def search_cap(text: str) -> int:
    """A search cap option: a whole number from 1 to ``MAX_CAP``."""
    try:
        value = int(text.replace("_", "").replace(",", ""))
    except ValueError:
        raise argparse.ArgumentTypeError(f"{text!r} is not a whole number") from None
    if not 1 <= value <= MAX_CAP:
        raise argparse.ArgumentTypeError(f"{text} is out of range (1 to {MAX_CAP:,})")
    return value


def read_board_text(source: str, io: IO) -> str:
    """A board text from a file (a pipe or FIFO too, read like standard input) or standard
    input ('-'), at most MAX_BOARD_BYTES, UTF-8; UsageError or BoardError with one line
    otherwise."""
    if source == "-":
        if io.stdin is None or io.stdin.closed:
            raise UsageError("--board -: standard input is closed")
        try:
            text = io.stdin.read(MAX_BOARD_BYTES + 1)
        except UnicodeDecodeError:
            raise BoardError("standard input is not UTF-8 text") from None
        except OSError as exc:
            raise UsageError(f"cannot read standard input: {exc.strerror or exc}") from None
        if len(text) > MAX_BOARD_BYTES:
            raise BoardError(f"the board text on standard input is longer than {MAX_BOARD_BYTES // (1024 * 1024)} MB")
        return text
    return read_board_file(source)


def read_board_file(source: str) -> str:
    """A board text from a file (a pipe or FIFO too), as ``read_board_text``."""
    if not exists(source):
        raise UsageError(f"no such board file: {source} (--board names a file of the board text, or - to read it "
                         "from standard input)")
    try:
        data = read_bounded(source, MAX_BOARD_BYTES, pipes=True)
    except FileRefused as exc:
        raise UsageError(str(exc)) from None
    try:
        return data.decode("utf-8")
    except UnicodeDecodeError:
        raise BoardError(f"{source} is not a UTF-8 text file") from None


def load_profile(name: str) -> Any:
    from calibration.profile import load

    return load(name)


def encode_picture(path: Path, image: Any) -> bytes:
    """``image`` encoded in the format ``path``'s suffix names (PNG for any other suffix)."""
    import cv2

    suffix = path.suffix.lower()
    ok, data = cv2.imencode(suffix if suffix in (".png", ".jpg", ".jpeg", ".bmp") else ".png", image)
    if not ok:
        raise UsageError(f"cannot encode {path}")
    return data.tobytes()


def write_annotation(path: Path, image: Any, shapes: list[Any]) -> None:
    """Draw the hints on the screenshot and write it where the user asked, atomically: a new
    file, or over a regular file of that name; anything else there (a folder, a link, a
    FIFO, a device) is refused and left alone (``solvers.files.write_output``)."""
    from overlay.draw import render

    write_output(path, encode_picture(path, render(image, shapes)))
