"""Values and errors every game's vision shares, bounded image loading, and the stage recorder
(`stage`: the pictures `parse --stages` writes)."""
from __future__ import annotations

import contextlib
import os
import struct
import tempfile
from contextvars import ContextVar
from dataclasses import dataclass, field, replace
from pathlib import Path
from typing import Any, Callable, Generic, Iterable, Iterator, Protocol, TypeVar

import numpy as np

from solvers.files import is_dir, is_file

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
    if not is_file(p):
        if is_dir(p):
            raise ImageError(f"{p} is a folder, not an image file")
        if os.path.lexists(p):
            raise ImageError(f"{p} is not an image file (a device, a pipe or a broken link)")
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


# ---------------------------------------------------------------------------- stages

MAX_STAGES = 99          # pictures one recorder keeps (two-digit numbering); later ones are counted
STAGE_SIDE = 2560        # px: a larger stage picture is kept reduced to this long side (memory)


@dataclass
class Stages:
    """The pictures a reading showed on its way, in order: ``(name, BGR or grey image)``.

    A reader calls :func:`stage` at its key points (the mask it thresholded, the candidates
    it found, the grid or camera it fitted, the cells it classified); ``parse --stages DIR``
    collects them with :func:`recording_stages` and writes them, so whoever meets a refusal
    can see where the reading stopped."""

    pictures: list[tuple[str, np.ndarray]] = field(default_factory=list)
    dropped: int = 0

    def add(self, name: str, picture: np.ndarray) -> None:
        import cv2

        if len(self.pictures) >= MAX_STAGES:
            self.dropped += 1
            return
        k = STAGE_SIDE / max(picture.shape[:2])
        picture = _bytes(picture)
        if k < 1:
            picture = cv2.resize(picture, None, fx=k, fy=k, interpolation=cv2.INTER_AREA)
        self.pictures.append((name, picture))


_RECORDER: ContextVar[Stages | None] = ContextVar("puzzlepilot_stages", default=None)


def stage(name: str, picture: np.ndarray | Callable[[], np.ndarray]) -> None:
    """Record one stage's picture (``name`` as ``GAME-what``, e.g. ``lyne-mask``) when a
    recorder is active; otherwise do nothing: no drawing (pass a function for a picture
    that must be drawn), no copying."""
    recorder = _RECORDER.get()
    if recorder is not None:
        recorder.add(name, picture() if callable(picture) else picture.copy())


@contextlib.contextmanager
def recording_stages() -> Iterator[Stages]:
    """Collect the :func:`stage` pictures of the readings run inside the block (this thread
    or task only)."""
    recorder = Stages()
    token = _RECORDER.set(recorder)
    try:
        yield recorder
    finally:
        _RECORDER.reset(token)


MARK = (0, 0, 255)        # BGR: what a stage found
MARK_TEXT = (255, 255, 0)
MARK_SIDE = 800           # px: a smaller picture is enlarged to this long side, so its labels read


def marked(image: np.ndarray, points: Iterable[tuple[float, float, str]] = (),
           boxes: Iterable[tuple[float, float, float, float]] = ()) -> np.ndarray:
    """A BGR copy of ``image`` (grey or a mask: made BGR; a small one enlarged) with each
    box ``(x, y, w, h)`` outlined and each point ``(x, y, label)`` dotted and labelled
    (positions in ``image``'s pixels): the common picture of a stage's finds (candidates,
    a fitted grid, classified cells)."""
    import cv2

    image = _bytes(image)
    out = cv2.cvtColor(image, cv2.COLOR_GRAY2BGR) if image.ndim == 2 else image.copy()
    k = max(1.0, MARK_SIDE / max(out.shape[:2]))
    if k > 1:
        out = cv2.resize(out, None, fx=k, fy=k, interpolation=cv2.INTER_LINEAR)
    size = max(0.4, min(out.shape[:2]) / 600)
    thick = max(1, round(size * 2))
    for x, y, w, h in boxes:
        cv2.rectangle(out, (round(x * k), round(y * k)), (round((x + w) * k), round((y + h) * k)), MARK, thick)
    for x, y, label in points:
        centre = (round(x * k), round(y * k))
        cv2.circle(out, centre, thick + 1, MARK, -1)
        if label:
            at = (centre[0] + thick + 2, centre[1] - thick - 2)
            cv2.putText(out, label, at, cv2.FONT_HERSHEY_SIMPLEX, size, (0, 0, 0), thick + 2, cv2.LINE_AA)
            cv2.putText(out, label, at, cv2.FONT_HERSHEY_SIMPLEX, size, MARK_TEXT, thick, cv2.LINE_AA)
    return out


def _bytes(image: np.ndarray) -> np.ndarray:
    """A picture as bytes: a boolean mask as 0 and 255, other numbers clipped to 0–255."""
    if image.dtype == bool:
        return image.astype(np.uint8) * 255
    return image if image.dtype == np.uint8 else np.clip(image, 0, 255).astype(np.uint8)


def grid_labels(text: str, x0: float, y0: float, px: float, py: float | None = None) -> list[tuple[float, float, str]]:
    """``marked`` points for a board text laid on a grid: each place's character at
    ``(x0 + col * px, y0 + row * py)`` (``py`` defaults to ``px``)."""
    py = px if py is None else py
    return [(x0 + c * px, y0 + r * py, ch) for r, line in enumerate(text.split("\n")) for c, ch in enumerate(line)]
