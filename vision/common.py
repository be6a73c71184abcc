"""Values and errors every game's vision shares, and bounded image loading."""
from __future__ import annotations

import contextlib
import os
import struct
import tempfile
from dataclasses import dataclass, replace
from pathlib import Path
from typing import Any, Generic, Iterator, Protocol, TypeVar

import numpy as np

MAX_FILE_BYTES = 200 * 1024 * 1024   # an image file larger than this is refused unread
MAX_PIXELS = 60_000_000              # width × height from the header; 8K (7680×4320) is 33 M
MIN_SIDE = 16                        # px: a picture narrower or lower cannot show a board
MAX_ASPECT = 16.0                    # a picture longer than this times its width (or the other way) neither


class NoBoardFound(Exception):
    """The image does not show a board of the game, or not clearly enough to trust."""


class ImageError(Exception):
    """An image file that is missing or cannot be decoded."""


class Geometry(Protocol):
    """A game's reading of where its board is in the picture (one frozen dataclass per
    game, beside that game's ``parse``): what the overlay and the driver need besides the
    cells' centres, in the same pixels."""

    def shifted(self: G, dx: float, dy: float) -> G:
        """The same reading with every position moved by (dx, dy)."""
        ...


G = TypeVar("G", bound=Geometry)


@dataclass
class Parse(Generic[G]):
    """A board read from an image, with the geometry the overlay and driver need.

    ``cells`` holds the image position (x, y) of the centre of every board place,
    row-major, holes included, so a solution's coordinates map straight to pixels.
    ``geometry`` is the game's own reading (``vision.lyne.LyneGeometry``, ...);
    ``warnings`` name what the vision could not read but did without (one line each).
    """

    game: str
    board: Any
    confidence: float
    cells: list[tuple[float, float]]
    geometry: G
    warnings: tuple[str, ...] = ()

    def shifted(self, dx: float, dy: float) -> "Parse[G]":
        """The same parse with every position moved by (dx, dy): a crop's reading in the
        whole image's pixels, or an image's on the screen."""
        return replace(self, cells=[(x + dx, y + dy) for x, y in self.cells],
                       geometry=self.geometry.shifted(dx, dy))


def header_size(head: bytes) -> tuple[int, int] | None:
    """(width, height) from a PNG or JPEG header, or None for other formats (or a JPEG
    whose frame header is not within ``head``)."""
    if head.startswith(b"\x89PNG\r\n\x1a\n") and len(head) >= 24 and head[12:16] == b"IHDR":
        return struct.unpack(">II", head[16:24])
    if head.startswith(b"\xff\xd8"):
        i = 2
        while i + 9 <= len(head):
            if head[i] != 0xFF:
                return None
            marker = head[i + 1]
            if marker == 0xFF:          # fill byte
                i += 1
                continue
            if 0xD0 <= marker <= 0xD9 or marker == 0x01:   # markers without a length
                i += 2
                continue
            length = struct.unpack(">H", head[i + 2:i + 4])[0]
            if 0xC0 <= marker <= 0xCF and marker not in (0xC4, 0xC8, 0xCC):   # a frame header
                height, width = struct.unpack(">HH", head[i + 5:i + 9])
                return width, height
            i += 2 + length
    return None


def _pil_size(path: Path) -> tuple[int, int] | None:
    """(width, height) of another format, read by Pillow from the header only; None when
    Pillow does not know the format."""
    import warnings

    from PIL import Image, UnidentifiedImageError

    try:
        with warnings.catch_warnings():   # Pillow's bomb warning would add a line before ours
            warnings.simplefilter("ignore")
            with Image.open(path) as im:
                return im.size
    except Image.DecompressionBombError:
        raise ImageError(f"{path} has more than {MAX_PIXELS // 1_000_000} million pixels, "
                         "more than this tool reads") from None
    except (UnidentifiedImageError, OSError, ValueError, SyntaxError, struct.error):
        return None


@contextlib.contextmanager
def captured_stderr() -> Iterator[list[str]]:
    """Catch what C libraries (libpng, libjpeg, OpenCV) write to file descriptor 2 in the
    block, so their warnings never add lines before ours; the text is given back as the
    list's one item after the block, for folding into a message."""
    caught: list[str] = []
    with tempfile.TemporaryFile() as sink:
        try:
            saved = os.dup(2)
        except OSError:         # no stderr at all: nothing to protect
            yield caught
            return
        os.dup2(sink.fileno(), 2)
        try:
            yield caught
        finally:
            os.dup2(saved, 2)
            os.close(saved)
            sink.seek(0)
            caught.append(sink.read(4096).decode("utf-8", "replace").strip())


def check_size(width: int, height: int, what: str, min_side: int = MIN_SIDE,
               max_aspect: float = MAX_ASPECT) -> None:
    """ImageError for a picture too large to decode safely; NoBoardFound for one too
    small (under ``min_side``) or too thin (sides further apart than ``max_aspect``) to
    show any board (the visions' reductions would leave nothing of it)."""
    if width * height > MAX_PIXELS:
        raise ImageError(f"{what} is {width}×{height} pixels, more than the "
                         f"{MAX_PIXELS // 1_000_000} million this tool reads")
    if min(width, height) < min_side:
        raise NoBoardFound(f"{what} is {width}×{height} pixels, too small to show a board")
    if max(width, height) > max_aspect * min(width, height):
        raise NoBoardFound(f"{what} is {width}×{height} pixels, too thin to show a board")


def load_image(path: str | Path, min_side: int = MIN_SIDE, max_aspect: float = MAX_ASPECT) -> np.ndarray:
    """Read an image file as a BGR uint8 array; :class:`ImageError` when that fails.

    Bounded: the file size and the pixel count (from the header, before anything is
    decoded: PNG and JPEG read here, other formats by Pillow; a format neither knows is
    refused) are checked first, so a huge picture is refused instead of filling memory; a
    picture under ``min_side`` pixels wide or high, or thinner than ``max_aspect``, is
    NoBoardFound.
    Decoder warnings are folded into the one-line error instead of printed."""
    import cv2

    p = Path(path)
    if not p.is_file():
        raise ImageError(f"no such image file: {p}")
    try:
        size = p.stat().st_size
        if size > MAX_FILE_BYTES:
            raise ImageError(f"{p} is {size // (1024 * 1024)} MB, more than the "
                             f"{MAX_FILE_BYTES // (1024 * 1024)} MB this tool reads")
        with p.open("rb") as f:
            head = f.read(65536)
            dims = header_size(head) or _pil_size(p)
            if dims is None:
                raise ImageError(f"not an image (unknown format): {p}")
            check_size(*dims, str(p), min_side, max_aspect)
            f.seek(0)
            data = np.frombuffer(f.read(MAX_FILE_BYTES + 1), dtype=np.uint8)
    except OSError as exc:
        raise ImageError(f"cannot read {p}: {exc.strerror or exc}") from None
    with captured_stderr() as warnings:
        image = cv2.imdecode(data, cv2.IMREAD_COLOR) if data.size else None
    if image is None:
        detail = f" ({warnings[0].splitlines()[0]})" if warnings and warnings[0] else ""
        raise ImageError(f"not an image (cannot decode): {p}{detail}")
    check_size(image.shape[1], image.shape[0], str(p), min_side, max_aspect)   # the header may have lied
    return image
