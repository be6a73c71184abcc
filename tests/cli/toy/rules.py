"""The toy game's rules: a row of lamps, ``1`` lit and ``0`` dark; pressing a lamp
switches it. The answer is the dark lamps' places, left to right or, with
``order="right"`` (``solve --order right``), right to left (exact: each dark lamp needs
one press, a lit one none)."""
from __future__ import annotations

from dataclasses import dataclass

from solvers.common import BoardError, SolveResult


@dataclass(frozen=True)
class Board:
    lamps: str

    @classmethod
    def from_text(cls, text: str) -> "Board":
        lamps = text.strip()
        if not lamps or set(lamps) - {"0", "1"}:
            raise BoardError(f"a toy board is a row of 0 and 1, not {text.strip()!r}", 1)
        return cls(lamps)

    def to_text(self) -> str:
        return self.lamps

    @property
    def size(self) -> str:
        return f"{len(self.lamps)} lamps"


def solve(board: Board, order: str = "left") -> SolveResult:
    presses = [i for i, lamp in enumerate(board.lamps) if lamp == "0"]
    if order == "right":
        presses.reverse()
    return SolveResult(True, presses, len(presses))


def validate(board: Board, solution: list[int]) -> list[str]:
    """What is wrong with an answer: a press off the row, or a lamp left dark."""
    lamps = list(board.lamps)
    for i in solution:
        if not 0 <= i < len(lamps):
            return [f"press {i} is off the row"]
        lamps[i] = "1" if lamps[i] == "0" else "0"
    return [] if set(lamps) == {"1"} else ["a lamp is left dark"]
