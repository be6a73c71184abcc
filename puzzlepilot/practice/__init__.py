"""Practice boards: a Tk window that plays a game by its rules, in the fixtures' look.

    puzzlepilot practice GAME [--seed N] [--size RxC] [--board FILE] [--levels N] [--log]
                              [--keymap FILE]

Each level is a solvable board drawn by the game's scene code (``puzzlepilot/scenes``), so
the vision reads exactly what its fixtures test, and the live loop can be tried, tested
and demonstrated without the real game. Solving a level shows a banner, then the next
level (seed + 1) follows; with ``--levels N`` a closing screen follows the N-th.

A game adds its board as the module its registry entry names (``Game.practice``, by
default ``puzzlepilot/practice/<game>.py``) with ``VIEW`` (the default window size,
width × height), optionally ``SIZES`` (the smallest and largest rows and
columns ``--size`` may ask for; without it the board has one size) and
``new_level(seed, size, view) -> Level`` (and, for ``--board``, optionally
``level_from_text(text, view) -> Level``, the first level; for ``--keymap``, optionally
``read_keymap(path) -> keymap``, which ``new_level`` then gets as ``keymap=``, and levels
with a ``key(name)`` method, given each key pressed by its pyautogui name); the window,
picture display, mouse and key plumbing, banner, level sequence and event log live here,
once.
"""
from __future__ import annotations

import argparse
import reprlib
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
    level_options: dict[str, Any] = field(default_factory=dict)   # --keymap: new_level's keymap=


def boards() -> list[str]:
    """The games that have a practice board (the registry names it)."""
    return sorted(name for name, game in GAMES.items() if game.practice)


def add_arguments(p: argparse.ArgumentParser) -> None:
    p.add_argument("game", metavar="GAME", help=f"the game ({', '.join(boards())})")
    p.add_argument("--seed", type=int, default=1, help="the first level's seed (default 1); level k uses seed + k - 1")
    p.add_argument("--size", type=_pair("x"), metavar="RxC", help="board size in rows x columns (default: the game's)")
    p.add_argument("--board", metavar="FILE", help="start from the board in this text file ('-': standard input); lyne, klotski, valves")
    p.add_argument("--levels", type=int, metavar="N", help="stop after N levels with a closing screen (default: endless)")
    p.add_argument("--log", action="store_true", help="print one line per event (level shown, solved) on stdout")
    p.add_argument("--view", type=_pair("x"), metavar="WxH", help="window size in pixels (default: the game's)")
    p.add_argument("--at", type=_pair(","), default=(40, 40), metavar="X,Y", help="window position on screen (default 40,40)")
    p.add_argument("--keymap", metavar="FILE",
                   help="play with these keys too (rings: the JSON key map live --play --keymap takes)")


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
    first = None
    if args.board is not None:
        if entry.level_from_text is None:
            raise UsageError(f"the {args.game} board takes no --board")
        # a malformed text, or one the board cannot show, fails here, before any window
        first = entry.level_from_text(read_board_text(args.board, io), args.view or entry.practice_board.VIEW)
    level_options = {}
    if args.keymap is not None:
        if entry.read_keymap is None:
            raise UsageError(f"the {args.game} board takes no --keymap")
        level_options["keymap"] = entry.read_keymap(Path(args.keymap))
    options = Options(args.game, args.seed, args.size, args.levels, args.log, args.view, args.at, first,
                      level_options)
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
        root.title(f"{TITLE} — {options.game}")
        root.geometry(f"{self.view[0]}x{self.view[1]}+{options.position[0]}+{options.position[1]}")
        root.resizable(False, False)
        self.canvas = tkinter.Canvas(root, width=self.view[0], height=self.view[1], bd=0,
                                     highlightthickness=0, background=BACKGROUND)
        self.canvas.pack()
        self.photo = tkinter.PhotoImage(master=root, width=self.view[0], height=self.view[1])
        self.canvas.create_image(0, 0, anchor="nw", image=self.photo)
        self.redraw_due = False
        self.number = 0
        self.level: Level | None = None
        for event, method in (("<ButtonPress-1>", "press"), ("<B1-Motion>", "drag"),
                              ("<ButtonRelease-1>", "release")):
            self.canvas.bind(event, self._mouse(method))
        root.bind("<KeyPress>", self._key)
        root.protocol("WM_DELETE_WINDOW", self.close)

    def run(self) -> None:
        self.next_level()
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

    def show(self, picture: np.ndarray) -> None:
        """Put a BGR picture on the canvas (as PPM data: no codec, no extra library)."""
        import cv2

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
        if level.solved():
            self.redraw()
            self.log(f"solved level {self.number}")
            self.banner("solved!")
            self.root.after(PAUSE_MS, self.next_level)
