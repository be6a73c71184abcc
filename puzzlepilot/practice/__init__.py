"""Practice boards: a Tk window that plays a game by its rules, in the fixtures' look.

    puzzlepilot practice GAME [--seed N] [--size RxC] [--board FILE] [--levels N] [--log]
                              [--keymap FILE] [--one-cell] [--dwell MS] [--animate] [--look NAME]

Each level is a solvable board drawn by the game's scene code (``puzzlepilot/scenes``), so
the vision reads exactly what its fixtures test, and the live loop can be tried, tested
and demonstrated without the real game. Solving a level shows a banner, then the next
level (seed + 1) follows; with ``--levels N`` a closing screen follows the N-th.

Real games take input in their own ways, and a board can behave as they do: ``--one-cell``
(Klotski: a drag moves a piece one cell at most), ``--dwell MS`` (one-stroke: a cell joins
the path only once the pointer has rested on it MS milliseconds) and ``--animate`` (a band
below the board where bubbles drift all the time, as an animated backdrop does). ``--look
NAME`` draws the board as another app would (one-stroke: a look of the style zoo, which the
default vision does not know): what calibrating a new look and playing with its profile is
tried on.

A game adds its board as the module its registry entry names (``Game.practice``, by
default ``puzzlepilot/practice/<game>.py``) with ``VIEW`` (the default window size,
width × height), optionally ``SIZES`` (the smallest and largest rows and
columns ``--size`` may ask for; without it the board has one size) and
``new_level(seed, size, view) -> Level`` (and, for ``--board``, optionally
``level_from_text(text, view) -> Level``, the first level; for ``--keymap``, optionally
``read_keymap(path) -> keymap``, which ``new_level`` then gets as ``keymap=``, and levels
with a ``key(name)`` method, given each key pressed by its pyautogui name; ``BEHAVIOURS``,
the input behaviours among ``one_cell`` and ``dwell`` that its levels take, which
``new_level`` and ``level_from_text`` then get by name, a level with a dwell calling for a
``wake()`` after ``wake_in()`` seconds; ``LOOKS``, the looks ``--look`` may name, which
``new_level`` and ``level_from_text`` then get as ``look=``); the window,
picture display, mouse and key plumbing, banner, level sequence and event log live here,
once.
"""
from __future__ import annotations

import argparse
import math
import reprlib
import time
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Callable, Protocol

import numpy as np

from puzzlepilot.errors import UsageError
from puzzlepilot.games import GAMES, get
from puzzlepilot.userio import IO, read_board_text

TITLE = "puzzlepilot practice"
PAUSE_MS = 800          # the banner's time on screen before the next level
BACKGROUND = "#f9f9f9"
MIN_VIEW = 120          # pixels: smaller windows leave too little of a board to play
MAX_VIEW = 8_192        # pixels: larger than any screen; a window's frames are drawn at its size
MAX_PAIR = 100_000      # any number of --size, --view, --at (a window far off every screen)
MAX_DWELL_MS = 5_000    # --dwell: longer rests than any game asks
BAND = 48               # --animate: the height of the animated band below the board, pixels
ANIMATE_MS = 120        # --animate: a new frame of the band this often
BUBBLES = 10            # --animate: bubbles drifting across the band
# Tk keysyms (lower-cased) and pyautogui aliases → the one name a level is given.
KEY_NAMES = {"return": "enter", "kp_enter": "enter", "escape": "esc", "prior": "pageup", "next": "pagedown",
             "pgup": "pageup", "pgdn": "pagedown", "shift_l": "shift", "shift_r": "shift",
             "shiftleft": "shift", "shiftright": "shift", "control_l": "ctrl", "control_r": "ctrl",
             "ctrlleft": "ctrl", "ctrlright": "ctrl", "alt_l": "alt", "alt_r": "alt", "altleft": "alt",
             "altright": "alt", "del": "delete", "minus": "-", "plus": "+",
             "comma": ",", "period": ".", "slash": "/", "semicolon": ";", "equal": "="}


class Level(Protocol):
    """One level on a practice board. Coordinates are the picture's pixels; the mouse
    methods return True when the picture changed."""

    summary: str        # for the log, e.g. "6x6, 30 cells"

    def picture(self) -> np.ndarray: ...            # BGR, the view's size
    def press(self, x: float, y: float) -> bool: ...
    def drag(self, x: float, y: float) -> bool: ...
    def release(self, x: float, y: float) -> bool: ...
    def solved(self) -> bool: ...


@dataclass(frozen=True)
class Options:
    game: str
    seed: int
    size: tuple[int, int] | None
    levels: int | None
    log: bool
    view: tuple[int, int] | None
    position: tuple[int, int]
    first: Level | None = None  # --board: the first level, made from its board text
    level_options: dict[str, Any] = field(default_factory=dict)   # new_level's keymap= and behaviours
    animate: bool = False       # --animate: a band of drifting bubbles below the board


def boards() -> list[str]:
    """The games that have a practice board (the registry names it)."""
    return sorted(name for name, game in GAMES.items() if game.practice)


def add_arguments(p: argparse.ArgumentParser) -> None:
    p.add_argument("game", metavar="GAME", help=f"the game ({', '.join(boards())})")
    p.add_argument("--seed", type=int, default=1, help="the first level's seed (default 1); level k uses seed + k - 1")
    p.add_argument("--size", type=_pair("x"), metavar="RxC", help="board size in rows x columns (default: the game's)")
    p.add_argument("--board", metavar="FILE", help="start from the board in this text file ('-': standard input); lyne, "
                   "klotski (walls, gates and goal cells too, drawn as GNOME Klotski draws them), valves")
    p.add_argument("--levels", type=int, metavar="N", help="stop after N levels with a closing screen (default: endless)")
    p.add_argument("--log", action="store_true", help="print one line per event (level shown, solved) on stdout")
    p.add_argument("--view", type=_pair("x"), metavar="WxH", help="window size in pixels (default: the game's)")
    p.add_argument("--at", type=_pair(","), default=(40, 40), metavar="X,Y", help="window position on screen (default 40,40)")
    p.add_argument("--keymap", metavar="FILE",
                   help="play with these keys too (rings: the JSON key map live --play --keymap takes)")
    p.add_argument("--one-cell", action="store_true",
                   help="klotski: a drag moves a piece one cell at most, as some games do")
    p.add_argument("--dwell", type=int, metavar="MS",
                   help="onestroke: a cell joins the path only once the pointer rests on it MS milliseconds")
    p.add_argument("--animate", action="store_true",
                   help="bubbles drift all the time in a band below the board, as an animated backdrop does")
    p.add_argument("--look", metavar="NAME",
                   help="onestroke: draw the board in this look of the style zoo, as another app would (the "
                        "default vision does not read it: calibrate it first); an unknown name lists them")


def behaviour_options(args: argparse.Namespace, takes: tuple[str, ...]) -> dict[str, Any]:
    """The input behaviours asked for (``--one-cell``, ``--dwell``) as the board's levels
    take them (``one_cell=True``, ``dwell`` in seconds); UsageError for one the game's
    board does not have, or a dwell out of range."""
    asked = {}
    if args.one_cell:
        asked["one_cell"] = ("--one-cell", True)
    if args.dwell is not None:
        if not 0 < args.dwell <= MAX_DWELL_MS:
            raise UsageError(f"--dwell is 1 to {MAX_DWELL_MS:,} milliseconds")
        asked["dwell"] = ("--dwell", args.dwell / 1000)
    for name, (option, _) in asked.items():
        if name not in takes:
            raise UsageError(f"the {args.game} board takes no {option}")
    return {name: value for name, (_, value) in asked.items()}


def look_option(game: str, name: str, looks: dict[str, Any] | None) -> Any:
    """The look ``--look`` names among the board's ``looks``; UsageError (naming them) when
    it is none of them or the board has one look."""
    if looks is None:
        raise UsageError(f"the {game} board has one look: leave out --look")
    if name not in looks:
        raise UsageError(f"no look {name!r} for the {game} board (its {len(looks)} looks: {', '.join(looks)})")
    return looks[name]


def bubbles(picture: np.ndarray, seconds: float) -> np.ndarray:
    """``--animate``: the picture over a band of ``BAND`` pixels (its bottom row's colour)
    where ``BUBBLES`` bubbles drift to the right, as they stand ``seconds`` in."""
    import cv2

    w = picture.shape[1]
    band = np.repeat(picture[-1:], BAND, axis=0)
    r = BAND // 3
    for i in range(BUBBLES):
        x = round((i * w / BUBBLES + seconds * w / 4) % (w + 2 * r)) - r
        y = round(BAND / 2 + BAND / 6 * np.sin(i + 3 * seconds))
        cv2.circle(band, (x, y), r, (60 + 17 * i, 180 - 9 * i, 220 - 15 * i), -1, cv2.LINE_AA)
    return np.vstack([picture, band])


def key_name(name: str) -> str:
    """A key's one name, as pyautogui writes it, from a Tk keysym or a pyautogui alias
    ("Return" and "return" → "enter", "Q" → "q"), so a key map's keys match the keys pressed."""
    name = name.lower()
    return KEY_NAMES.get(name, name)


def _pair(sep: str) -> Callable[[str], tuple[int, int]]:
    """An argparse type for two whole numbers joined by ``sep`` ("6x7", "40,40")."""
    def convert(text: str) -> tuple[int, int]:
        try:
            a, b = (int(v) for v in text.lower().split(sep))
        except ValueError:
            raise argparse.ArgumentTypeError(f"expected two whole numbers joined by {sep!r}, got {text!r}") from None
        if not (0 <= a <= MAX_PAIR and 0 <= b <= MAX_PAIR):
            raise argparse.ArgumentTypeError(f"expected numbers from 0 to {MAX_PAIR:,}, got {reprlib.repr(text)}")
        return a, b
    return convert


def main(args: argparse.Namespace, io: IO) -> int:
    entry = get(args.game)
    if args.game not in boards():
        raise UsageError(f"no practice board for {args.game} yet (boards: {', '.join(boards())})")
    if args.levels is not None and args.levels < 1:
        raise UsageError("--levels must be at least 1")
    sizes = entry.practice_sizes
    if args.size is not None and sizes is None:
        raise UsageError(f"the {args.game} board has one size: leave out --size")
    if args.size is not None and not all(sizes[0] <= n <= sizes[1] for n in args.size):
        raise UsageError(f"--size for {args.game} is {sizes[0]}x{sizes[0]} to {sizes[1]}x{sizes[1]}")
    if args.view is not None and not MIN_VIEW <= min(args.view) <= max(args.view) <= MAX_VIEW:
        raise UsageError(f"--view must be {MIN_VIEW}x{MIN_VIEW} to {MAX_VIEW}x{MAX_VIEW}")
    behaviours = behaviour_options(args, getattr(entry.practice_board, "BEHAVIOURS", ()))
    if args.look is not None:
        behaviours["look"] = look_option(args.game, args.look, getattr(entry.practice_board, "LOOKS", None))
    first = None
    if args.board is not None:
        if entry.level_from_text is None:
            raise UsageError(f"the {args.game} board takes no --board")
        # a malformed text, or one the board cannot show, fails here, before any window
        first = entry.level_from_text(read_board_text(args.board, io), args.view or entry.practice_board.VIEW,
                                      **behaviours)
    level_options = dict(behaviours)
    if args.keymap is not None:
        if entry.read_keymap is None:
            raise UsageError(f"the {args.game} board takes no --keymap")
        level_options["keymap"] = entry.read_keymap(Path(args.keymap))
    options = Options(args.game, args.seed, args.size, args.levels, args.log, args.view, args.at, first,
                      level_options, args.animate)
    try:
        import tkinter
    except ImportError:
        raise UsageError("practice boards need tkinter (the python3-tk package)") from None
    try:
        root = tkinter.Tk()
    except tkinter.TclError as exc:
        raise UsageError(f"cannot open a window: {exc}") from None
    PracticeWindow(root, entry.practice_board, options, io).run()
    return 0


class PracticeWindow:
    """The Tk side of every practice board: shows a level's picture, forwards the mouse,
    and runs the level sequence with its banner and log."""

    def __init__(self, root, game, options: Options, io: IO) -> None:
        import tkinter

        self.root, self.game, self.options, self.io = root, game, options, io
        self.view = options.view or game.VIEW
        width, height = self.view[0], self.view[1] + (BAND if options.animate else 0)
        root.title(f"{TITLE} — {options.game}")
        root.geometry(f"{width}x{height}+{options.position[0]}+{options.position[1]}")
        root.resizable(False, False)
        self.canvas = tkinter.Canvas(root, width=width, height=height, bd=0,
                                     highlightthickness=0, background=BACKGROUND)
        self.canvas.pack()
        self.photo = tkinter.PhotoImage(master=root, width=width, height=height)
        self.canvas.create_image(0, 0, anchor="nw", image=self.photo)
        self.shown: np.ndarray | None = None   # the picture on show (--animate: under the band)
        self.started = time.monotonic()
        self.redraw_due = False
        self.wake_job: str | None = None        # a dwell: the one wake due
        self.number = 0
        self.level: Level | None = None
        for event, method in (("<ButtonPress-1>", "press"), ("<B1-Motion>", "drag"),
                              ("<ButtonRelease-1>", "release")):
            self.canvas.bind(event, self._mouse(method))
        root.bind("<KeyPress>", self._key)
        root.protocol("WM_DELETE_WINDOW", self.close)

    def run(self) -> None:
        self.next_level()
        if self.options.animate:
            self.animate()
        if self.options.level_options.get("keymap"):
            self.root.update()
            self.root.focus_force()     # keys go to the focused window: it should be this one
        self.root.mainloop()

    def close(self) -> None:
        self.log("closed")
        self.root.destroy()

    def log(self, text: str) -> None:
        if self.options.log:
            self.io.out(text)
            self.io.stdout.flush()

    def next_level(self) -> None:
        self.canvas.delete("banner")
        if self.options.levels is not None and self.number >= self.options.levels:
            self.level = None
            self.show(np.full((self.view[1], self.view[0], 3), 249, np.uint8))
            self.banner(f"all {self.number} levels solved")
            self.log("done")
            return
        self.number += 1
        seed = self.options.seed + self.number - 1
        if self.options.first is not None and self.number == 1:
            self.level = self.options.first
        else:
            self.level = self.game.new_level(seed, self.options.size, self.view, **self.options.level_options)
        self.show(self.level.picture())
        self.log(f"level {self.number}: {self.level.summary}, seed {seed}")

    def animate(self) -> None:
        """``--animate``: the band's next frame, and the next one due."""
        if self.shown is not None:
            self.show(self.shown)
        self.root.after(ANIMATE_MS, self.animate)

    def show(self, picture: np.ndarray) -> None:
        """Put a BGR picture on the canvas (as PPM data: no codec, no extra library);
        with ``--animate``, over the band as it stands now."""
        import cv2

        self.shown = picture
        if self.options.animate:
            picture = bubbles(picture, time.monotonic() - self.started)
        h, w = picture.shape[:2]
        data = f"P6 {w} {h} 255\n".encode() + cv2.cvtColor(picture, cv2.COLOR_BGR2RGB).tobytes()
        self.photo.configure(data=data, format="PPM")

    def redraw(self) -> None:
        self.redraw_due = False
        if self.level is not None:
            self.show(self.level.picture())

    def banner(self, text: str) -> None:
        w, h = self.view
        self.canvas.create_rectangle(0, h * 0.42, w, h * 0.58, fill="#2e7d32", outline="", tags="banner")
        self.canvas.create_text(w / 2, h / 2, text=text, fill="white", font=("Helvetica", max(12, w // 18), "bold"),
                                tags="banner")

    def _mouse(self, method: str):
        def handler(event) -> None:
            level = self.level
            if level is not None and not level.solved():
                self._handled(level, getattr(level, method)(float(event.x), float(event.y)))
        return handler

    def _wake(self, level: Level) -> Callable[[], None]:
        def handler() -> None:
            self.wake_job = None
            if level is self.level and not level.solved():
                self._handled(level, level.wake())
        return handler

    def _key(self, event) -> None:
        level = self.level
        if level is not None and not level.solved() and hasattr(level, "key"):
            self._handled(level, level.key(key_name(event.keysym)))

    def _handled(self, level: Level, changed: bool) -> None:
        """After an input event: redraw if the picture changed, and end a solved level."""
        # Redraw once the queued events are handled: drawing takes ~15 ms, and Tk merges
        # the motion events that queue up meanwhile, losing the pointer's path.
        if changed and not self.redraw_due:
            self.redraw_due = True
            self.root.after_idle(self.redraw)
        wake_in = getattr(level, "wake_in", None)
        due = wake_in() if wake_in is not None else None
        if due is not None:     # a dwell: the pointer resting on a cell joins it once the time is up
            if self.wake_job is not None:
                self.root.after_cancel(self.wake_job)
            self.wake_job = self.root.after(max(1, math.ceil(due * 1000)), self._wake(level))
        if level.solved():
            self.redraw()
            self.log(f"solved level {self.number}")
            self.banner("solved!")
            self.root.after(PAUSE_MS, self.next_level)
