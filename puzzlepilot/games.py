"""The game registry: one entry per game, naming the modules that make it up.

By convention a game ``g`` is ``solvers/g.py`` (``Board``, ``solve``, ``validate``),
``vision/g.py`` (``parse``) and ``overlay/g.py`` (``plan``, ``hints``); adding a game means
writing those modules and one entry below. Modules load on first use, so solving a board
text never imports OpenCV.
"""
from __future__ import annotations

import importlib
from dataclasses import dataclass
from types import ModuleType
from typing import Any, Callable


@dataclass(frozen=True)
class Game:
    name: str
    title: str
    options: tuple[str, ...] = ()   # solver keyword options the command line may pass
    reports_progress: bool = False  # solve takes progress=callable (lines for long searches)

    def _module(self, package: str) -> ModuleType:
        return importlib.import_module(f"{package}.{self.name}")

    @property
    def board(self) -> Any:
        """The board class: ``from_text``/``to_text``."""
        return self._module("solvers").Board

    @property
    def solve(self) -> Callable[..., Any]:
        return self._module("solvers").solve

    @property
    def prepare(self) -> Callable[..., None]:
        """(board, **options) → load the libraries solving this board will need (rings'
        numpy for deep searches), so that a solver's timing counts the search and its
        tables, not imports; nothing for most games."""
        return getattr(self._module("solvers"), "prepare", lambda board, **options: None)

    @property
    def validate(self) -> Callable[[Any, Any], list[str]]:
        return self._module("solvers").validate

    @property
    def parse(self) -> Callable[..., Any]:
        """Screenshot (BGR array) → ``vision.common.Parse``."""
        return self._module("vision").parse

    @property
    def plan(self) -> Callable[..., Any]:
        """(parse, solution) → list of ``overlay.actions`` in the parse's coordinates."""
        return self._module("overlay").plan

    @property
    def hints(self) -> Callable[..., Any]:
        """(parse, solution) → list of ``overlay.draw`` shapes; games whose ``steps`` gives
        more than one also take ``step=i`` (0-based) for the i-th step's shapes only."""
        return self._module("overlay").hints

    @property
    def sheet(self) -> Callable[[Any, Any, Any], Any] | None:
        """(image, parse, solution) → the whole annotated picture (BGR) for games that draw
        their own (every move on its own small board); None: the hints on the screenshot."""
        return getattr(self._module("overlay"), "sheet", None)

    @property
    def steps(self) -> Callable[[Any], int]:
        """solution → how many steps its hints show one at a time (1: they come whole)."""
        return getattr(self._module("overlay"), "steps", lambda solution: 1)

    @property
    def progress(self) -> Callable[[Any, Any, Any], int | None] | None:
        """(board, solution, seen) → how many steps of the solution took ``board`` to the
        board ``seen``, None when ``seen`` is not on the way; None for games whose board
        reads the same while the steps are made (their steps advance on other changes)."""
        return getattr(self._module("overlay"), "progress", None)

    @property
    def follows(self) -> Callable[[Any, Any], bool] | None:
        """(level, board) → whether ``board`` is the level after the player's own moves
        (a one-stroke path drawn): live shows hints from there instead of a new level."""
        return getattr(self._module("overlay"), "follows", None)

    @property
    def stuck(self) -> Callable[[Any, Any], str] | None:
        """(parse, result) → what to tell a player whose moves (the board read) can no
        longer lead to a solution, e.g. which move to undo."""
        return getattr(self._module("overlay"), "stuck", None)


GAMES: dict[str, Game] = {g.name: g for g in (
    Game("onestroke", "One-stroke (一笔画完)", options=("max_nodes",), reports_progress=True),
    Game("lyne", "LYNE", options=("max_nodes",), reports_progress=True),
    Game("klotski", "Klotski / Huarong Dao", options=("metric", "max_positions"), reports_progress=True),
    Game("rings", "Ring battles (Paper Mario: The Origami King)", options=("rule", "moves")),
    Game("valves", "Valves (Machinarium)", options=("wrenches", "all")),
)}


class UnknownGame(KeyError):
    def __str__(self) -> str:
        return f"unknown game {self.args[0]!r} (games: {', '.join(GAMES)})"


def parse_best(image: Any, games: list[Game], profile: Any = None) -> Any:
    """The most confident reading of a screenshot among the games' visions (with a profile,
    only its game's); ``NoBoardFound`` giving each game's reason when none reads it."""
    from vision.common import NoBoardFound, check_size

    check_size(image.shape[1], image.shape[0], "the picture")   # a tiny window is no board
    if profile is not None:
        # A profile teaches one game's look; the other games' visions cannot use it.
        games = [g for g in games if g.name == profile.game] or games
    best, reasons = None, []
    for game in games:
        try:
            found = game.parse(image, profile=profile) if profile else game.parse(image)
        except NoBoardFound as exc:
            reasons.append(f"{game.name}: {exc}")
            continue
        if best is None or found.confidence > best.confidence:
            best = found
    if best is None:
        raise NoBoardFound("; ".join(reasons) or "no game could read it")
    return best


def get(name: str) -> Game:
    try:
        return GAMES[name]
    except KeyError:
        raise UnknownGame(name) from None
