"""What every solver shares: the errors for malformed boards and for bad options, the
result value, and the splitting of board texts into rows."""
from __future__ import annotations

import os
import time
from dataclasses import dataclass, field

TYPE_CHECKING = False
if TYPE_CHECKING:     # annotations only: a command starts without typing (~2 ms) nor pathlib
    from pathlib import Path
    from typing import Any, Callable


class BoardError(ValueError):
    """A board text or value that is malformed; the message names the line and reason."""

    def __init__(self, reason: str, line: int | None = None) -> None:
        self.reason = reason
        self.line = line
        super().__init__(f"line {line}: {reason}" if line is not None else reason)


class OptionError(ValueError):
    """A solver option out of its range (an unknown rule or metric, a move budget or a
    number of wrenches that cannot be): the caller's choice is wrong, not the board."""


@dataclass
class SolveResult:
    """The outcome of a solver run.

    ``solution`` is the JSON value docs/games.md gives for the game (its *Answer* section) (``None`` when
    unsolved); ``moves`` counts it under the game's rule; ``reason`` says why there is no
    solution; ``stats`` carries search figures (nodes, positions) for people and benchmarks;
    ``extra`` carries further JSON fields of the ``solve --json`` object (e.g. valves'
    ``solutions``, Klotski's ``minimal``); ``note`` is a remark for people beside the
    answer (a Klotski answer not proved minimal, and why).
    """

    solved: bool
    solution: Any = None
    moves: int = 0
    reason: str | None = None
    stats: dict[str, Any] = field(default_factory=dict)
    extra: dict[str, Any] = field(default_factory=dict)
    note: str | None = None


def split_rows(text: str) -> list[str]:
    """Split a board text into rows: newlines or ``/`` separate them (JSON joins rows
    with ``/``). Trailing white space and blank lines at either end are dropped."""
    if not isinstance(text, str):
        raise BoardError("the board must be text")
    rows = text.replace("\r\n", "\n").replace("/", "\n").split("\n")
    rows = [row.rstrip() for row in rows]
    while rows and not rows[0].strip():
        rows.pop(0)
    while rows and not rows[-1].strip():
        rows.pop()
    if not rows:
        raise BoardError("the board text is empty")
    return rows


def check_width(rows: list[str], first_line: int = 1) -> int:
    """The width every row must share, that of the first; a shorter or longer row is refused
    naming it (a silently padded row would turn a typing slip into a different board)."""
    width = len(rows[0])
    for n, row in enumerate(rows):
        if len(row) != width:
            raise BoardError(f"row {n + 1} has {len(row)} places, expected {width} like the first row "
                             "(every row must be written out in full)", first_line + n)
    return width


def check_places(rows: list[str], most: int) -> None:
    """Refuse, before any work, a grid of more than ``most`` places (rows × the longest
    row): the bound that keeps the game's solver within seconds and a stated memory."""
    width = max(map(len, rows))
    if len(rows) * width > most:
        raise BoardError(f"the board is too large: {len(rows):,} rows × {width:,} columns = {len(rows) * width:,} "
                         f"places, more than the {most:,} this solver takes")


class Progress:
    """Passes a long search's progress lines to ``say`` (e.g. a stderr writer): none in
    the first second, then at most one a second, so quick searches print nothing."""

    def __init__(self, say: Callable[[str], None] | None, every: float = 1.0) -> None:
        self.say = say
        self.every = every
        self.next = time.monotonic() + every

    def __call__(self, text: str) -> None:
        if self.say is not None and time.monotonic() >= self.next:
            self.say(text)
            self.next = time.monotonic() + self.every


def user_folder(variable: str, kind: str, name: str) -> Path:
    """The folder the environment ``variable`` names, else ``name`` in the user's platform
    folder of that ``kind`` (platformdirs' ``data``, ``cache`` or ``config``)."""
    from pathlib import Path     # here: solving a board text without a table does without it

    chosen = os.environ.get(variable)
    if chosen:
        return Path(chosen)
    import platformdirs

    return Path(getattr(platformdirs, f"user_{kind}_dir")("puzzlepilot")) / name
