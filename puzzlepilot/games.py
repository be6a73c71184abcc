"""The game registry: one entry per game, naming the module of each of its parts.

A game's parts, each a module named by a field of its ``Game`` entry (``PARTS`` lists
what each must hold and what it may):

- ``model``: the board (``Board`` with ``from_text``/``to_text``; optionally ``show``,
  the answer in words for people), ``solver``: ``solve`` (optionally ``prepare``) and
  ``checker``: the independent rule checker ``validate``;
- ``vision``: ``parse``, a screenshot → ``vision.common.Parse`` (optionally
  ``profile_keymap`` and ``lacks``);
- ``overlay``: ``hints`` (optionally ``sheet``, ``steps``, ``progress``, ``one_cell``,
  ``follows``, ``stuck``, ``same_puzzle``) and ``actions``: ``plan``, the driver's actions (optionally ``load_keymap``
  and ``EXAMPLE_KEYMAP``);
- ``calibration``: the learner, ``learn`` and ``KINDS`` (optionally ``read_picks``);
- ``practice``: the practice board (``VIEW``, ``new_level``; optionally ``SIZES``,
  ``level_from_text``, ``read_keymap``), ``scenes``: ``fixture_cases``, the rendered
  fixtures, and ``benchmark``: ``run(bench)``.

The entry also carries what the command line says of the game: its board text format
(``board_format``, lines of ``solve --help``) and its solver options (``options``,
``Option`` records ``solve`` offers in its "game options"), so the command layer names
no game by hand.

Adding a game: write its modules and add ONE entry to ``GAMES`` below. A part left out
of the entry follows the convention (``solvers/g.py``, ``vision/g.py``, ``overlay/g.py``,
``calibration/g.py``, ``puzzlepilot/{practice,scenes,benchmarks}/g.py``); name another
module path for it, or None when the game has no such part (the commands then say so).
The command layer finds every part here, never by importing game modules itself, and the
optional functions are probed here alone: a property is None when a game has none.
Modules load on first use, so solving a board text never imports OpenCV.
"""
from __future__ import annotations

import importlib
from dataclasses import dataclass
from types import ModuleType

from puzzlepilot.userio import search_cap

TYPE_CHECKING = False
if TYPE_CHECKING:   # only for annotations: solving a board text loads neither numpy, the vision nor typing
    from typing import Any, Callable, Iterable

    import numpy as np

    from vision.common import Parse
    from vision.profile import Profile

# part → (the names its module must hold, the names it may hold)
PARTS: dict[str, tuple[tuple[str, ...], tuple[str, ...]]] = {
    "model": (("Board",), ("show",)),
    "solver": (("solve",), ("prepare",)),
    "checker": (("validate",), ()),
    "vision": (("parse",), ("profile_keymap", "lacks")),
    "overlay": (("hints",), ("sheet", "steps", "progress", "one_cell", "follows", "stuck", "same_puzzle")),
    "actions": (("plan",), ("load_keymap", "EXAMPLE_KEYMAP")),
    "calibration": (("learn", "KINDS"), ("read_picks", "PICKS_WITHOUT_BOARD")),
    "practice": (("VIEW", "new_level"), ("SIZES", "level_from_text", "read_keymap")),
    "scenes": (("fixture_cases",), ()),
    "benchmark": (("run",), ()),
}


@dataclass(frozen=True)
class Option:
    """A solver option ``solve`` offers in its "game options": the flag, what it does (the
    command line puts the names of the games declaring it before this help), and how its
    value is read. Games sharing an option (``--max-nodes``: onestroke and lyne) declare
    the same record; it is offered once. Given, its value reaches the game's ``solve`` as
    the keyword ``dest`` (or replaces the board's field of that name: valves' wrenches)."""

    flag: str                                   # "--max-nodes"
    help: str
    type: Callable[[str], Any] | None = None    # reads the value; None: a text (or a switch)
    choices: tuple[str, ...] | None = None
    metavar: str | None = None
    switch: bool = False                        # no value: given or not (``--all``)
    answers_warnings: bool = False              # given, the reading's warnings no longer apply

    @property
    def dest(self) -> str:
        """The solver's keyword for it: ``--max-nodes`` → ``max_nodes``."""
        return self.flag.removeprefix("--").replace("-", "_")


@dataclass(frozen=True)
class Game:
    """One game: its name and title, what its solver takes, and the module path of each
    part (``{name}`` stands for the game's name; None: the game has no such part)."""

    name: str
    title: str
    board_format: tuple[str, ...] = ()  # its board text, in lines of ``solve --help``
    options: tuple[Option, ...] = ()    # solver options the command line may pass
    reports_progress: bool = False  # solve takes progress=callable (lines for long searches)
    model: str = "solvers.{name}"
    solver: str = "solvers.{name}"
    checker: str = "solvers.{name}"
    vision: str = "vision.{name}"
    overlay: str = "overlay.{name}"
    actions: str = "overlay.{name}"
    calibration: str | None = "calibration.{name}"
    practice: str | None = "puzzlepilot.practice.{name}"
    scenes: str | None = "puzzlepilot.scenes.{name}"
    benchmark: str | None = "puzzlepilot.benchmarks.{name}"

    def __post_init__(self) -> None:
        for part in PARTS:
            path = getattr(self, part)
            if path is not None:
                object.__setattr__(self, part, path.format(name=self.name))

    def module(self, part: str) -> ModuleType | None:
        """The module of one of ``PARTS``, imported on first use; None when the game has
        no such part."""
        path = getattr(self, part)
        return None if path is None else importlib.import_module(path)

    def _optional(self, part: str, name: str, default: Any = None) -> Any:
        """A name a part's module may hold (``PARTS``' second list), else ``default``."""
        module = self.module(part)
        return default if module is None else getattr(module, name, default)

    @property
    def board(self) -> Any:
        """The board class: ``from_text``/``to_text``."""
        return self.module("model").Board

    @property
    def show(self) -> Callable[[Any, Any], str] | None:
        """(board, solution) → the answer in words for people; None: print it as JSON."""
        return self._optional("model", "show")

    @property
    def relabel(self) -> Callable[[Any], Any] | None:
        """board → the same board named as the vision names what it reads (Klotski letters
        its pieces in reading order); None when the vision keeps the names given."""
        return getattr(self.board, "relabelled", None)

    @property
    def numberings(self) -> Callable[[Any], Any] | None:
        """board → the cells of the same board in every numbering others may give it (rings:
        slice 0 anywhere, either way round); None when a board has one numbering."""
        return getattr(self.board, "numberings", None)

    @property
    def solve(self) -> Callable[..., Any]:
        return self.module("solver").solve

    @property
    def prepare(self) -> Callable[..., None]:
        """(board, **options) → load the libraries solving this board will need (rings'
        numpy for deep searches), so that a solver's timing counts the search and its
        tables, not imports; nothing for most games."""
        return self._optional("solver", "prepare", lambda board, **options: None)

    @property
    def validate(self) -> Callable[[Any, Any], list[str]]:
        return self.module("checker").validate

    @property
    def parse(self) -> Callable[..., Any]:
        """(screenshot (BGR array), profile=None) → ``vision.common.Parse``: the game's vision,
        or with a profile of a learnt look (``calibration.lattice``) the lattice reading."""
        own = self.module("vision").parse

        def parse(image: np.ndarray, profile: Profile | None = None) -> Parse[Any]:
            from vision import lattice

            if lattice.is_learnt(profile):
                return lattice.parse(self.name, self.board, image, profile)
            return own(image) if profile is None else own(image, profile)
        return parse

    @property
    def lacks(self) -> Callable[[], str | None]:
        """() → what this machine lacks for the vision to read every board (rings: tesseract),
        one line; None when it lacks nothing."""
        return self._optional("vision", "lacks", lambda: None)

    @property
    def plan(self) -> Callable[..., Any]:
        """(parse, solution) → list of ``overlay.actions`` in the parse's coordinates."""
        return self.module("actions").plan

    @property
    def load_keymap(self) -> Callable[[Any], dict[str, Any]] | None:
        """path → a key map ``plan`` takes as ``keymap=`` (games played with keys too:
        rings), ValueError saying what is wrong; None for games played with the mouse."""
        return self._optional("actions", "load_keymap")

    @property
    def example_keymap(self) -> dict[str, Any] | None:
        """A key map ``plan`` and the practice board both take (``demo`` plays with it);
        None for games played with the mouse."""
        return self._optional("actions", "EXAMPLE_KEYMAP")

    @property
    def profile_keymap(self) -> Callable[[Any], dict[str, Any] | None] | None:
        """profile → the key map a calibration profile of the game carries (None when it
        has none), ProfileError when it is malformed; None for games without key maps."""
        return self._optional("vision", "profile_keymap")

    @property
    def hints(self) -> Callable[..., Any]:
        """(parse, solution) → list of ``overlay.draw`` shapes; games whose ``steps`` gives
        more than one also take ``step=i`` (0-based) for the i-th step's shapes only."""
        return self.module("overlay").hints

    @property
    def sheet(self) -> Callable[[Any, Any, Any], Any] | None:
        """(image, parse, solution) → the whole annotated picture (BGR) for games that draw
        their own (every move on its own small board); None: the hints on the screenshot."""
        return self._optional("overlay", "sheet")

    @property
    def steps(self) -> Callable[[Any], int]:
        """solution → how many steps its hints show one at a time (1: they come whole)."""
        return self._optional("overlay", "steps", lambda solution: 1)

    @property
    def progress(self) -> Callable[[Any, Any, Any], int | None] | None:
        """(board, solution, seen) → how many steps of the solution took ``board`` to the
        board ``seen``, None when ``seen`` is not on the way; None for games whose board
        reads the same while the steps are made (their steps advance on other changes)."""
        return self._optional("overlay", "progress")

    @property
    def one_cell(self) -> Callable[[Any], Any] | None:
        """solution → the same answer in moves of one cell each (``plan`` then drags one cell
        at a time), for a game that moves a piece one cell per drag; None for games without
        such moves."""
        return self._optional("overlay", "one_cell")

    @property
    def same_puzzle(self) -> Callable[[Any, Any], bool] | None:
        """(board, seen) → whether ``seen`` is a position of the puzzle ``board`` is one of
        (the same frame and pieces, moved or not): False tells live that the player picked
        another puzzle while it played; None for games that cannot tell."""
        return self._optional("overlay", "same_puzzle")

    @property
    def follows(self) -> Callable[[Any, Any], bool] | None:
        """(level, board) → whether ``board`` is the level after the player's own moves
        (a one-stroke path drawn): live shows hints from there instead of a new level."""
        return self._optional("overlay", "follows")

    @property
    def stuck(self) -> Callable[[Any, Any], str] | None:
        """(parse, result) → what to tell a player whose moves (the board read) can no
        longer lead to a solution, e.g. which move to undo."""
        return self._optional("overlay", "stuck")

    @property
    def learner(self) -> ModuleType | None:
        """The calibration learner (``learn(image, board=, region=, examples=)`` →
        (profile data, templates); ``KINDS``, what the picker asks to click); None when
        calibration does not cover the game."""
        return self.module("calibration")

    @property
    def read_picks(self) -> Callable[..., Any] | None:
        """(path[, board]) → (box, examples) from a picks file instead of the picker
        window; None when the game's calibration takes no ``--picks``."""
        return self._optional("calibration", "read_picks")

    @property
    def picks_without_board(self) -> bool:
        """Whether ``--picks`` alone says enough (no ``--board`` needed)."""
        return bool(self._optional("calibration", "PICKS_WITHOUT_BOARD", False))

    @property
    def practice_board(self) -> ModuleType | None:
        """The practice board's module (``VIEW``, ``new_level(seed, size, view)``); None
        when the game has none."""
        return self.module("practice")

    @property
    def practice_sizes(self) -> tuple[int, int] | None:
        """The smallest and largest rows and columns ``practice --size`` may ask for; None:
        the practice board has one size."""
        return self._optional("practice", "SIZES")

    @property
    def level_from_text(self) -> Callable[[str, tuple[int, int]], Any] | None:
        """(board text, view) → the first practice level (``practice --board``); None when
        the practice board takes no board text."""
        return self._optional("practice", "level_from_text")

    @property
    def read_keymap(self) -> Callable[[Any], dict[str, Any]] | None:
        """path → the key map the practice board's levels take as ``keymap=``
        (``practice --keymap``); None when it is played with the mouse only."""
        return self._optional("practice", "read_keymap")

    @property
    def fixture_cases(self) -> Callable[[], list[Any]]:
        """() → the fixtures the project renders of the game (``puzzlepilot.scenes.FixtureCase``)."""
        return self.module("scenes").fixture_cases

    @property
    def bench(self) -> Callable[[Any], None]:
        """(``bench.Bench``) → measure the game's solver and vision against a baseline."""
        return self.module("benchmark").run


MAX_NODES = Option("--max-nodes", "give up after N search nodes (default 2,000,000)", type=search_cap, metavar="N")

GAMES: dict[str, Game] = {g.name: g for g in (
    Game("onestroke", "One-stroke (一笔画完)", reports_progress=True,
         board_format=("'#' a cell, '.' no cell, 'S' the start:            ##S#/#..#/####",
                       "at most 4,096 places (rows × columns)"),
         options=(MAX_NODES,)),
    Game("lyne", "LYNE", reports_progress=True,
         board_format=("'.' empty, t/d/s a shape's node, T/D/S its two terminals, 1-4 a hub",
                       "with that many holes (also the older 'rows cols' + tokens format);",
                       "at most 4,000 nodes"),
         options=(MAX_NODES,)),
    Game("klotski", "Klotski / Huarong Dao", reports_progress=True,
         board_format=("one letter per piece (solid rectangles), '.' empty; the target is C;",
                       "'#' a wall, '=' a gate only C passes, '+' a goal cell C must cover;",
                       "a first line 'shapes: any' allows pieces of any connected shape;",
                       "at most 4,096 places (rows × columns)"),
         options=(Option("--metric", "how moves are counted (default piece)", choices=("piece", "straight", "cell")),
                  Option("--max-positions", "give up after N positions (default: as many as fit in ~500 MB)",
                         type=search_cap, metavar="N"),
                  Option("--exact", "answer only with a proven minimum: when the search gives up, look for no "
                                    "other answer (by default beam and best-first searches do, its moves said to be not "
                                    "proved minimal)", switch=True))),
    Game("rings", "Ring battles (Paper Mario: The Origami King)",
         board_format=("optional 'moves: N', then 4 lines of 12 (outer ring first, slice 0 at",
                       "9 o'clock, clockwise), '.' empty, any letter an enemy"),
         # --moves gives the move budget the vision could not read (its warning).
         options=(Option("--rule", "what counts as solved (default strict)", choices=("strict", "attacks")),
                  Option("--moves", "move budget, overriding the board's", type=int, metavar="N",
                         answers_warnings=True))),
    Game("valves", "Valves (Machinarium)",
         board_format=("lines 'A B' (a pipe), 'inlet: X', 'outlet: Y', 'wrenches: 3';",
                       "at most 20,000 pipes; pipes × (pipes at the inlet or outlet) ≤ 2,000,000"),
         options=(Option("--wrenches", "wrenches available (default: the board's)", type=int, metavar="N"),
                  Option("--all", "list every minimum answer", switch=True))),
)}


class UnknownGame(KeyError):
    def __str__(self) -> str:
        return f"unknown game {self.args[0]!r} (games: {', '.join(GAMES)})"


def parse_best(image: np.ndarray, games: list[Game], profile: Profile | None = None) -> Parse:
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


def offered_options(games: Iterable[Game]) -> list[tuple[Option, list[str]]]:
    """Every option the games declare, once, with the names of the games declaring it
    (sorted), in the order first declared; ValueError when two games declare one flag
    differently (a shared option is one record)."""
    offered: dict[str, tuple[Option, list[str]]] = {}
    for game in games:
        for option in game.options:
            known, names = offered.setdefault(option.flag, (option, []))
            if known != option:
                raise ValueError(f"{game.name} declares {option.flag} unlike {', '.join(sorted(names))}")
            names.append(game.name)
    return [(option, sorted(names)) for option, names in offered.values()]


def get(name: str) -> Game:
    try:
        return GAMES[name]
    except KeyError:
        raise UnknownGame(name) from None
