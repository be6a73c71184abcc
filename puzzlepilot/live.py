"""Watch a game on screen: read each new level, solve it, show hints, and play it if asked.

    puzzlepilot live [--game G] (--window TITLE | --region X,Y,W,H | --monitor N)
                     [--play] [--hints overlay|step|window|none] [--fps N] [--dry-run]
                     [--speed S] [--confirm S] [--levels N] [--next] [--profile P] [--keymap FILE]

Every frame is grabbed with the hints up and compared with the last clean one on a coarse
sample, leaving out the pixels the hints cover, so an unchanged screen costs a grab and a
few thousand byte compares and the hints never blink. Only a changed frame is grabbed
again with the overlay hidden and parsed; a board equal to the last one keeps its hints,
a new board is solved and its hints drawn, and a board that disappears takes its hints
away. When the window moves, the board is read again and its hints follow it. With
``--play`` the solution is played once the frame, or the board's own area in it, has
settled (a window may animate around its board all the time), and the loop checks that the
level really changed (retrying once, waiting ``--confirm`` seconds each time) before it
counts the level. A game whose board shows the moves made (Klotski: its ``progress``) is
played one move at a time, each checked on the settled board before the next; a game that
moved a piece only part of a drag's way is played one cell per drag from then on (learnt
once per session), and a move that did not land stops the loop, saying which. A game whose
board does not show the moves made and that did not take a drag gliding through the cells
is played again resting on each; when that works the rest is kept too. What is learnt of
how the game takes input is written into the ``--profile`` given (one this tool wrote: its
field ``input``), and read from it next time. With ``--next`` a level over (played, or one
the solver cannot answer) is followed by the game's next puzzle, picked through its own
menu (``puzzlepilot.menus``). Ctrl-C stops.

``--hints step`` draws one step of the answer at a time (a LYNE path, a ring move), in the
order to make them. The steps move on as the board does: a game whose board shows the
steps made (rings: where the enemies stand) has a ``progress`` function, and a board
along the answer shows the step after the ones made; in a game whose board reads the same
while a step is made (LYNE: the nodes stay, a path is drawn over them) a change that keeps
the same board moves on one step once the frame settles. A board that is neither is solved
afresh, and a board that is gone takes its hints away, once the reading is the same twice
in a row (one reading may be a frame of an animation or of a drag in progress).
"""
from __future__ import annotations

import argparse
import time
from dataclasses import dataclass, field, replace
from pathlib import Path
from typing import Any, Callable

import numpy as np

from overlay.actions import Drag
from overlay.driver import DriverStopped, InputDriver, open_driver
from overlay.surface import HintSurface, OverlayError
from puzzlepilot.errors import UsageError
from puzzlepilot.games import GAMES, Game, get, parse_best
from puzzlepilot.menus import MENUS, MenuError, menu_for, pick_next
from puzzlepilot.userio import IO, load_profile, number
from solvers.common import SolveResult
from vision import capture
from vision.capture import CaptureError, Rect, Source, WindowSource
from vision.common import NoBoardFound, Parse
from vision.profile import Profile, ProfileError

SAMPLE_STEP = 8         # the change check compares every 8th pixel of every 8th row
CONFIRM_SECONDS = 4.0   # how long a played level may take to give way to the next
REPLAYS = 3             # drags a game missed that are played again, per level
REST = 0.25             # s on each cell for a game that takes a cell only once the pointer rests on it
MAX_REST = 5.0          # s: a profile's rest on each cell, at most
SETTLED_READS = 2       # a changed frame's board read unchanged so many times in a row has settled
SETTLE_GAP = 0.05       # s between two grabs whose board areas must be equal (a move's picture has settled)
HINT_KINDS = ("overlay", "step", "window", "none")
NO_BOARD = ""           # stepping: the candidate when a frame showed no board (no board text is empty)


def add_arguments(p: argparse.ArgumentParser) -> None:
    p.add_argument("--game", metavar="GAME", help=f"the game ({', '.join(GAMES)}); default: recognise any")
    where = p.add_mutually_exclusive_group(required=True)
    where.add_argument("--window", metavar="TITLE",
                       help="capture the window whose title contains TITLE (on X11 also its program's "
                            "name, e.g. Klotski for GNOME Klotski, titled with its puzzle's name; several "
                            "such windows are listed and refused: give the full title or --window-id)")
    where.add_argument("--window-id", type=window_id, metavar="ID",
                       help="capture the window with this X window id (0x… or decimal, as listed)")
    where.add_argument("--region", metavar="X,Y,W,H", help="capture a fixed screen rectangle")
    where.add_argument("--monitor", type=int, metavar="N", help="capture monitor N (1, 2, …; 0: all)")
    p.add_argument("--play", action="store_true",
                   help="play each solution with the mouse (rings: with keys, given a key map)")
    p.add_argument("--hints", choices=HINT_KINDS, default="overlay",
                   help="where hints go: drawn over the game, over it one step at a time (advancing as "
                        "the board moves on), in their own window beside it, or nowhere (default overlay)")
    p.add_argument("--fps", type=number(0.1, 120), default=10.0, help="frames checked per second, 0.1 to 120 (default 10)")
    p.add_argument("--dry-run", action="store_true", help="with --play: print the moves instead of making them")
    p.add_argument("--speed", type=number(0.05, 20), metavar="S",
                   help="with --play: mouse speed factor, 0.05 to 20 (default: the driver's)")
    p.add_argument("--confirm", type=number(0.1, 600), metavar="S",
                   help=f"with --play: seconds a played level may take to give way to the next "
                        f"(default {CONFIRM_SECONDS:g})")
    p.add_argument("--levels", type=int, metavar="N", help="stop after N levels")
    p.add_argument("--next", action="store_true",
                   help="with --play: once a level is over, pick the game's next puzzle through its own "
                        f"menu and play it too, until its last ({', '.join(m.game for m in MENUS)})")
    p.add_argument("--profile", metavar="NAME|DIR", help="a calibration profile for the vision")
    p.add_argument("--keymap", metavar="FILE",
                   help="with --play: ring battles' keys (JSON, as overlay/rings.py describes) to play with")


def window_id(text: str) -> int:
    """An argparse type: a window id, hexadecimal (0x…) or decimal."""
    try:
        value = int(text, 0)
    except ValueError:
        raise argparse.ArgumentTypeError(f"a window id is a number (0x… or decimal), not {text!r}") from None
    if not 0 < value < 2 ** 32:
        raise argparse.ArgumentTypeError(f"no window has the id {text!r}")
    return value


# ---------------------------------------------------------------------------- per frame

@dataclass(frozen=True)
class Idle:
    """The frame did not change."""


@dataclass(frozen=True)
class Same:
    """The frame changed, but shows the board already solved; ``settled``: the board's
    own area is as in the frame read before (what changed lies around it: an animated
    background, a clock)."""

    image: np.ndarray
    parse: Parse
    settled: bool = False


@dataclass(frozen=True)
class Back(Same):
    """Stepping: the board already solved, read again after frames that showed none (a drag
    the vision refused to read through, a popup): its steps go on, its hints come back,
    and it is no new level."""


@dataclass(frozen=True)
class New:
    """A board not seen just before, solved (or proved unsolvable) in ``solve_ms``;
    ``follows``: it is the level on screen after the player's own moves, not a new level."""

    image: np.ndarray
    parse: Parse
    result: SolveResult
    solve_ms: float
    follows: bool


@dataclass(frozen=True)
class Gone:
    """The board disappeared."""

    image: np.ndarray


@dataclass(frozen=True)
class Nothing:
    """The frame changed, and there is still no board."""

    image: np.ndarray


@dataclass(frozen=True)
class Advance:
    """Stepping: the board moved on along the current answer; ``done`` steps of it are made."""

    image: np.ndarray
    parse: Parse
    done: int


@dataclass(frozen=True)
class Unsettled:
    """Stepping: another board or none, read once; acted on when read again."""

    image: np.ndarray


Step = Idle | Same | Back | New | Gone | Nothing | Advance | Unsettled
"""What one frame meant, one class per kind: ``image`` is the frame parsed (in every kind but
Idle), ``parse`` the board read from it, in its coordinates."""


class Watcher:
    """The live loop's decisions, frame by frame, without any display: cheap change check,
    then parse, then same-board check, then solve. With ``stepping`` (hints one step at a
    time) a board along the current answer is an Advance, not a new level, and another
    board is solved only once it reads the same twice."""

    def __init__(self, games: list[Game], profile: Profile | None = None, stepping: bool = False) -> None:
        self.games = games
        self.profile = profile
        self.stepping = stepping
        self.sample: np.ndarray | None = None
        self.current: New | None = None       # the step that solved the board on screen
        self.reached: str | None = None       # stepping: the board text last reached along its answer
        self.candidate: str | None = None     # stepping: a new board text (or NO_BOARD) read once
        self.level: Any = None                # the board of the level on screen as first read
        self.lost: tuple[New, str | None, Any] | None = None   # stepping: current, reached, level when it went
        self.area: np.ndarray | None = None   # the board's area in the frame read last

    def changed(self, image: np.ndarray, ignore: np.ndarray | None = None) -> bool:
        """Whether the frame differs from the last one remembered (a coarse sample; a
        level's board, a visited cell or a banner always spans many samples), leaving out
        the pixels ``ignore`` (a bool mask of the frame: our hints, drawn over it)."""
        sample = image[::SAMPLE_STEP, ::SAMPLE_STEP]
        if self.sample is None or self.sample.shape != sample.shape:
            return True
        if np.array_equal(self.sample, sample):
            return False
        if ignore is None or ignore.shape != image.shape[:2]:
            return True
        differs = (self.sample != sample).any(axis=2)
        return bool((differs & ~ignore[::SAMPLE_STEP, ::SAMPLE_STEP]).any())

    def remember(self, image: np.ndarray) -> None:
        """Compare later frames with this one (grabbed without hints)."""
        self.sample = image[::SAMPLE_STEP, ::SAMPLE_STEP].copy()

    def forget(self) -> None:
        """Look at the next frame afresh, even if its pixels equal the last ones (the
        window moved: the same picture is somewhere else on the screen)."""
        self.sample = None

    def read(self, image: np.ndarray) -> Parse | None:
        """The board in the frame, or None."""
        try:
            return parse_best(image, self.games, self.profile)
        except NoBoardFound:
            return None

    def is_current(self, found: Parse | None) -> bool:
        """Whether a reading shows the board already on screen."""
        cur = self.current.parse if self.current else None
        return found is not None and cur is not None and found.game == cur.game and \
            found.board.to_text() in (cur.board.to_text(), self.reached)

    def along(self, found: Parse) -> int | None:
        """Stepping: how many steps of the current answer the board read shows made; None
        when it is not on the answer's way (or the game's board does not show steps)."""
        cur = self.current
        if not self.stepping or cur is None or not cur.result.solved or found.game != cur.parse.game:
            return None
        progress = get(found.game).progress
        return None if progress is None else progress(cur.parse.board, cur.result.solution, found.board)

    def step(self, image: np.ndarray, clean: Callable[[], np.ndarray] | None = None,
             ignore: np.ndarray | None = None) -> Step:
        """Decide on a frame. ``clean`` grabs the screen again without our hints on it:
        the change check is done on ``image`` as grabbed, hints up, outside the pixels
        they cover (``ignore``), and only a changed frame pays for a clean one to parse."""
        if not self.changed(image, ignore):
            return Idle()
        if clean is not None:
            image = clean()
        self.remember(image)
        found = self.read(image)
        if found is None and self.stepping and self.current is not None and self.candidate != NO_BOARD:
            self.candidate = NO_BOARD   # maybe a frame of a drag or an animation: look again
            self.forget()
            return Unsettled(image)
        if found is None:
            had = self.current is not None
            if had and self.stepping:
                self.lost = (self.current, self.reached, self.level)
            self.current = self.reached = self.candidate = self.level = None
            return Gone(image) if had else Nothing(image)
        area, self.area = self.area, board_area(image, found)
        lost, self.lost = self.lost, None
        if lost is not None and self.current is None:
            self.current, self.reached, self.level = lost
            if self.is_current(found):
                self.candidate = None
                return Back(image, found)
            self.current = self.reached = self.level = None
        if self.is_current(found):
            self.candidate = None
            return Same(image, found, area is not None and np.array_equal(area, self.area))
        text = found.board.to_text()
        done = self.along(found)
        if done is not None:
            self.reached, self.candidate = text, None
            return Advance(image, found, done)
        if self.stepping and text != self.candidate:
            self.candidate = text
            self.forget()       # read the next frame too, even if it is the same picture
            return Unsettled(image)
        self.reached = self.candidate = None
        follows = self.follows(found)
        if not follows:
            self.level = found.board
        start = time.perf_counter()
        result = get(found.game).solve(found.board)
        self.current = New(image, found, result, (time.perf_counter() - start) * 1000.0, follows)
        return self.current

    def follows(self, found: Parse) -> bool:
        """Whether a board read is the level on screen after the player's own moves (a
        one-stroke path drawn or undone in part), which the game's ``follows`` tells."""
        cur = self.current
        hook = get(found.game).follows
        return cur is not None and cur.parse.game == found.game and hook is not None and \
            self.level is not None and hook(self.level, found.board)


def board_box(parse: Parse, shape: tuple[int, ...]) -> tuple[slice, slice]:
    """The rows and columns of a frame of ``shape`` the board read covers: its cells'
    centres and about a cell more all round."""
    xs, ys = zip(*parse.cells)
    pad = max(max(xs) - min(xs), max(ys) - min(ys), 1.0) / max(1.0, len(parse.cells) ** 0.5) + 2
    return (slice(max(0, int(min(ys) - pad)), min(shape[0], int(max(ys) + pad) + 1)),
            slice(max(0, int(min(xs) - pad)), min(shape[1], int(max(xs) + pad) + 1)))


def board_area(image: np.ndarray, parse: Parse) -> np.ndarray:
    """The pixels of the board read (a copy): whether a board has settled is judged on
    them alone, not on the rest of the window, which may animate all the time."""
    return image[board_box(parse, image.shape)].copy()


# ---------------------------------------------------------------------------- the loop

@dataclass
class LevelRecord:
    """One level as the loop met it; pictures are frames (BGR), shapes in frame coordinates."""

    number: int
    game: str
    board: str
    size: str
    solve_ms: float
    result: SolveResult
    before: np.ndarray
    shapes: list[Any] = field(default_factory=list)
    after: np.ndarray | None = None


class LiveError(Exception):
    """The loop cannot go on (a played level did not change); the message says why."""


class PuzzleChanged(Exception):
    """While a level was played, the board came to show another puzzle (the player picked
    one): its answer no longer applies."""


class LiveLoop:
    """Grabs frames at ``fps`` and acts on the watcher's steps: hints, play, log.

    ``hints`` is an ``overlay.window`` hint surface or None; ``driver`` an
    ``overlay.driver`` input driver or None (no play); ``on_level`` sees every level once it is
    done (played and confirmed, or shown); ``alive`` raises LiveError when the game is gone;
    ``confirm`` is how long a played level may take to change (default CONFIRM_SECONDS);
    ``plan_options`` are keyword options for a game's ``plan`` (rings: ``keymap``), by game;
    ``next_puzzle`` picks the game's next puzzle once a level is over (its title, or None
    when the game has none after it: the loop ends). With a stepping watcher the hints show
    one step at a time.
    """

    def __init__(self, source: Source, watcher: Watcher, log: Callable[[str], None], *,
                 hints: HintSurface | None = None, driver: InputDriver | None = None, fps: float = 10.0,
                 levels: int | None = None,
                 on_level: Callable[[LevelRecord], None] | None = None,
                 alive: Callable[[], None] | None = None, dry_run: bool = False,
                 confirm: float | None = None, plan_options: dict[str, dict[str, Any]] | None = None,
                 learnt: Callable[["LiveLoop"], None] | None = None,
                 next_puzzle: Callable[[], str | None] | None = None) -> None:
        self.source, self.watcher, self.log = source, watcher, log
        self.hints, self.driver, self.period = hints, driver, 1.0 / fps
        self.levels, self.on_level, self.alive, self.dry_run = levels, on_level, alive, dry_run
        self.confirm = CONFIRM_SECONDS if confirm is None else confirm
        self.done = 0
        self.pending: LevelRecord | None = None     # solved, waiting for the frame to settle
        self.hinted_at: Rect | None = None          # where the hints on screen were placed
        self.plan_options = plan_options or {}
        self.shown_step = 0                         # stepping: the step whose hints are up
        self.drawing: tuple[Parse, np.ndarray] | None = None   # stepping: changed, same board; moves on once settled
        self.still = 0                              # the board's area read unchanged so many times in a row
        self.one_cell = False                       # learnt: the game moves a piece one cell per drag
        self.rest = 0.0                             # learnt: s a drag rests on each cell (0: it glides through)
        self.learnt = learnt                        # told when the loop learns how the game takes input
        self.next_puzzle = next_puzzle
        self.over = False                           # the game has no puzzle after the last one

    def hint_mask(self) -> np.ndarray | None:
        """The pixels of the frame our hints cover (None: they cover none)."""
        drawn = self.hints.drawn() if self.hints is not None else None
        return None if drawn is None else drawn[1]

    def clean_grab(self) -> np.ndarray:
        """A frame without our own hints in it."""
        if self.hints is None:
            return self.source.grab()
        with self.hints.hidden():
            return self.source.grab()

    def run(self, deadline: float | None = None) -> None:
        """Until ``levels`` levels are done (forever without it), or LiveError at the
        ``time.monotonic()`` deadline; Ctrl-C ends it."""
        while (self.levels is None or self.done < self.levels) and not self.over:
            start = time.monotonic()
            if deadline is not None and start > deadline:
                raise LiveError(f"out of time after {self.done} of {self.levels} levels")
            if self.alive is not None:
                self.alive()
            self.tick()
            if self.hints is not None:
                self.hints.pump()
            time.sleep(max(0.0, self.period - (time.monotonic() - start)))

    def tick(self) -> Step:
        """One frame: grab, decide, act. When the game moved since its hints were drawn,
        the board is read again and the hints follow it."""
        moved = self.hinted_at is not None and self.source.rect() != self.hinted_at
        if moved:
            self.watcher.forget()
        # Hints stay up for the change check, which leaves out the pixels they cover:
        # hiding them for every frame would cost time and make them blink.
        step = self.watcher.step(self.source.grab(), self.clean_grab if self.hints is not None else None,
                                 self.hint_mask())
        self.handle(step)
        if moved and isinstance(step, Same) and self.watcher.current is not None:
            self.drawing = None     # the picture moved: no step was made
            self.show_hints(step.parse, self.watcher.current.result.solution, step.image)
        return step

    def shapes(self, parse: Parse, solution: Any) -> list[Any]:
        """The hints for a reading: the whole answer, or the step on show when stepping.
        They are drawn from the board the answer starts on, where the latest reading puts it."""
        assert self.watcher.current is not None
        parse = replace(parse, board=self.watcher.current.parse.board)
        game = get(parse.game)
        if self.watcher.stepping and game.steps(solution) > 1:
            return game.hints(parse, solution, step=self.shown_step)
        return game.hints(parse, solution)

    def show_hints(self, parse: Parse, solution: Any, image: np.ndarray) -> None:
        """Draw the solution over the game where it is now (without hints, nothing)."""
        if self.hints is None:
            return
        rect = self.source.rect()
        self.hints.show(self.shapes(parse.shifted(rect.left, rect.top), solution), rect, frame=image)
        self.hinted_at = rect

    def show_step(self, parse: Parse, image: np.ndarray, done: int) -> None:
        """Stepping: ``done`` steps are made; show the next one (none when all are made)."""
        assert self.watcher.current is not None
        solution = self.watcher.current.result.solution
        total = get(parse.game).steps(solution)
        if done == self.shown_step and self.hinted_at is not None:
            return
        self.shown_step = done
        if done >= total:
            self.log(f"all {total} steps made")
            self.clear_hints()
            return
        self.log(f"step {done + 1} of {total}")
        self.show_hints(parse, solution, image)

    def clear_hints(self) -> None:
        """Take the hints off the screen (without hints, nothing)."""
        if self.hints is not None:
            self.hints.clear()
        self.hinted_at = None

    def handle(self, step: Step) -> None:
        """Act on a step: one method per kind."""
        match step:
            case Idle():
                self.on_idle()
            case Back():
                self.on_back(step)
            case Same():
                self.on_same(step)
            case New():
                self.on_new(step)
            case Gone():
                self.on_gone()
            case Nothing():
                self.on_nothing()
            case Advance():
                self.on_advance(step)
            case Unsettled():
                pass            # acted on once the same reading comes again

    def on_idle(self) -> None:
        """The frame settled: a stroke drawn over the same board moves the steps on one, and
        a solved level waiting for a still frame is played."""
        if self.drawing is not None:
            assert self.watcher.current is not None
            (parse, image), self.drawing = self.drawing, None
            total = get(parse.game).steps(self.watcher.current.result.solution)
            self.show_step(parse, image, min(self.shown_step + 1, total - 1))
        if self.pending is not None:
            record, self.pending = self.pending, None
            self.play(record)

    def on_same(self, step: Same) -> None:
        """A solved level waiting to be played is played once its board has settled, read
        the same ``SETTLED_READS`` times more (the window around it may never settle).
        Stepping through a game whose board reads the same while a step is made: the step
        moves on once the frame settles."""
        self.still = self.still + 1 if step.settled else 0
        if self.pending is not None and self.still >= SETTLED_READS:
            record, self.pending = self.pending, None
            self.play(record)
            return
        current = self.watcher.current
        if self.watcher.stepping and current is not None and current.result.solved and \
                get(step.parse.game).progress is None:
            self.drawing = (step.parse, step.image)

    def on_back(self, step: Back) -> None:
        """Stepping: the board came back after frames without one; the step on show when it
        went shows again, and a change made meanwhile moves it on once the frame settles."""
        current = self.watcher.current
        assert current is not None
        if current.result.solved and self.shown_step < get(step.parse.game).steps(current.result.solution):
            self.show_hints(step.parse, current.result.solution, step.image)
        self.on_same(step)

    def on_nothing(self) -> None:
        """No board: nothing to play or step through."""
        self.pending = self.drawing = None

    def on_gone(self) -> None:
        """The board went: nothing to play or step through, and its hints go too."""
        self.on_nothing()
        self.clear_hints()

    def on_advance(self, step: Advance) -> None:
        """Stepping: show the step after the ones the board shows made."""
        self.pending = self.drawing = None      # the board moved on: a planned play no longer fits
        self.show_step(step.parse, step.image, step.done)

    def on_new(self, step: New) -> None:
        """A board just solved: a level to count (unsolvable, hinted, or waiting to be
        played), or the player's own moves on the level on screen."""
        self.pending = self.drawing = None
        self.shown_step = self.still = 0
        if step.follows:
            self.follow(step)
            return
        record = LevelRecord(self.done + 1, step.parse.game, step.parse.board.to_text(),
                             step.parse.board.size, step.solve_ms, step.result, step.image)
        if not step.result.solved:
            self.clear_hints()
            self.finish(record, f"no solution ({step.result.reason})")
            self.go_next()
            return
        if step.result.moves == 0:
            # Already solved (e.g. a "solved" banner over the last board): no level to play.
            self.clear_hints()
            return
        self.say_note(step)
        record.shapes = self.shapes(step.parse, step.result.solution)
        self.show_hints(step.parse, step.result.solution, step.image)
        if self.driver is None:
            self.finish(record, "hints shown")
        else:
            self.pending = record

    def follow(self, step: New) -> None:
        """The player moved on the level on screen: hints from where they stand now, or
        what to undo when their moves can no longer lead to a solution (no new level)."""
        game = get(step.parse.game)
        if not step.result.solved:
            self.clear_hints()
            stuck = game.stuck
            self.log(stuck(step.parse, step.result) if stuck is not None else f"no solution ({step.result.reason})")
            return
        self.log(f"{step.parse.game}: your moves so far can be finished in {step.result.moves} more; "
                 "hints from where you are")
        self.say_note(step)
        self.show_hints(step.parse, step.result.solution, step.image)

    def say_note(self, step: New) -> None:
        """The solver's remark on its answer, for the player (a Klotski answer not proved
        minimal, and why)."""
        if step.result.note:
            self.log(f"{step.parse.game}: {step.result.note}")

    def play(self, record: LevelRecord) -> None:
        """Play the level on screen, then make sure the game moved on; one retry. A game
        whose board does not show the moves made (no ``progress``) is played the second
        time resting ``REST`` seconds on each cell of every drag: a game that took the
        path only so is learnt as such for the rest of the session."""
        assert self.watcher.current is not None
        for attempt in (1, 2):
            current = self.watcher.current
            rect = self.source.rect()
            game = get(record.game)
            parse, solution = current.parse.shifted(rect.left, rect.top), current.result.solution
            if self.one_cell and game.one_cell is not None:
                solution = game.one_cell(solution)
            actions = game.plan(parse, solution, **self.plan_options.get(record.game, {}))
            rest = self.rest or (REST if attempt == 2 and game.progress is None else 0.0)
            resting = rest > 0 and any(isinstance(a, Drag) for a in actions)
            if resting:
                actions = [replace(a, rest=rest) if isinstance(a, Drag) else a for a in actions]
            if not actions:
                self.finish(record, "hints shown (nothing to play: the game takes no mouse moves)")
                return
            if self.dry_run or game.progress is None or len(actions) != game.steps(solution):
                self.driver.perform(actions)
            else:
                try:
                    self.perform_checked(current.parse, parse, solution, actions)
                except PuzzleChanged as exc:
                    self.log(f"level {record.number}: {exc}; playing the one on show instead")
                    self.watcher.current = None     # the next frame's board is a new level
                    self.watcher.forget()
                    return
            if self.dry_run:
                self.finish(record, "dry run")
                return
            after = self.wait_for_change()
            if after is not None:
                record.after = after
                self.clear_hints()      # the played path is no help on the next level
                if resting and not self.rest:
                    self.rest = rest
                    self.log(f"the game took the path only with a rest on each cell: resting {rest:g} s "
                             "on each from here on")
                    if self.learnt is not None:
                        self.learnt(self)
                self.finish(record, "played" if attempt == 1 else "played (second try)")
                self.go_next()
                return
            self.log(f"level {record.number}: the board did not change after playing it; trying again"
                     + (f", resting {REST:g} s on each cell" if not self.rest and game.progress is None else ""))
        raise LiveError(f"level {record.number} did not change after playing it twice; stopping "
                        "(is the game window in front, and does the mouse reach it?)")

    def perform_checked(self, read: Parse, parse: Parse, solution: Any, actions: list[Any]) -> None:
        """Play a game whose board shows the moves made one action (one move) at a time,
        and after each wait for the board to settle and check it: after a move before the
        last, the board must show the position the answer reaches (or be one the vision
        refuses: unsure, it cannot be checked; the next one is); after the last, any board
        but a position short of the end along the answer (the level ends: a banner, the
        next level). ``read`` is the level's reading in the frame, ``parse`` on the screen.

        A board back at an earlier position of the answer (a drag the game missed) is
        played on from there, up to ``REPLAYS`` times a level. A game that moved a piece
        only part of a longer drag's way (it takes one cell per
        drag) is learnt as such for the rest of the session: the answer is played on from
        there one cell per drag (its ``one_cell``). Any other miss is a LiveError saying
        which move did not land (a drag the game did not take, a piece moved by hand). A
        board of another puzzle altogether (another game's, or one the game's ``same_puzzle``
        tells apart) is PuzzleChanged: the player picked another puzzle."""
        game = get(read.game)
        progress = game.progress
        assert progress is not None and self.driver is not None
        board, done, replays = read.board, 0, 0
        while done < len(actions):
            self.driver.perform([actions[done]])
            done += 1
            last = done == len(actions)

            def fits(shown: Any) -> bool:
                at = progress(board, solution, shown)
                return at == done or last and at is None

            seen = self.reading_at(read, fits)
            cut = game.one_cell
            cells = None if seen is None or seen.game != read.game or cut is None or self.one_cell \
                else progress(board, cut(solution), seen.board)
            # moved, but not all the way: between the cells before this move and its last
            partly = cells is not None and len(cut(solution[:done - 1])) < cells < len(cut(solution[:done]))
            if not partly and (seen is None or seen.game == read.game and fits(seen.board)):
                continue
            same = game.same_puzzle
            if seen.game != read.game or same is not None and not same(board, seen.board):
                raise PuzzleChanged(f"another puzzle came on show after move {done} of {len(actions)}")
            at = progress(board, solution, seen.board)
            if at is not None and at < done and replays < REPLAYS:
                # a position before this move along the answer: the game missed a drag (a
                # busy machine may lose the motion between press and release); play on from there
                replays += 1
                self.log(f"move {at + 1} did not move its piece (the game missed the drag): playing on from it")
                done = at
                continue
            if not partly:
                raise LiveError(f"move {done} of {len(actions)} did not land as planned: after "
                                f"{self.confirm:g} s the board shows {seen.board.to_text().replace(chr(10), '/')}; "
                                "stopping (did the game take the drag? was a piece moved by hand?)")
            self.one_cell = True
            self.log(f"move {done} moved its piece only part of the way: the game takes one cell per drag; "
                     "playing one cell per drag from here on")
            if self.learnt is not None:
                self.learnt(self)
            solution = cut(solution)
            actions, done = game.plan(parse, solution, **self.plan_options.get(read.game, {})), cells

    def reading_at(self, read: Parse, fits: Callable[[Any], bool]) -> Parse | None:
        """The board read from a settled frame once the vision refuses it (None) or it is
        the level's game's and ``fits`` it, waiting up to ``confirm`` seconds (a move's
        picture may take a while to land); else the last reading."""
        deadline = time.monotonic() + self.confirm
        seen: Parse | None = None
        while time.monotonic() < deadline:
            seen = self.watcher.read(self.settled_grab(read, deadline))
            if seen is None or seen.game == read.game and fits(seen.board):
                break
            time.sleep(self.period)
        return seen

    def settled_grab(self, parse: Parse, deadline: float) -> np.ndarray:
        """A frame (without our hints) whose board area, where ``parse`` read the board, is
        as in the frame grabbed just before; the last one grabbed at ``deadline``."""
        image = self.clean_grab()
        while time.monotonic() < deadline:
            time.sleep(min(self.period, SETTLE_GAP))
            again = self.clean_grab()
            box = board_box(parse, again.shape)
            if again.shape == image.shape and np.array_equal(image[box], again[box]):
                return again
            image = again
        return image

    def wait_for_change(self) -> np.ndarray | None:
        """The first changed frame after playing, once the board on screen is no longer
        the one played (solved, gone or replaced); None when it stays within
        ``confirm`` seconds. Like a tick, it hides the hints only to re-grab a changed frame."""
        first: np.ndarray | None = None
        deadline = time.monotonic() + self.confirm
        while time.monotonic() < deadline:
            if self.watcher.changed(self.source.grab(), self.hint_mask()):
                image = self.clean_grab()
                self.watcher.remember(image)
                if first is None:
                    first = image
                seen = self.watcher.read(image)
                # the level with part of the answer made (a path drawn in part) is not the next one
                if not self.watcher.is_current(seen) and not (seen is not None and self.watcher.follows(seen)):
                    self.watcher.forget()   # the next tick reads this board as its own step
                    return first
            if self.hints is not None:
                self.hints.pump()
            time.sleep(self.period)
        return None

    def go_next(self) -> None:
        """A level is over: with ``next_puzzle``, and levels still to do, the game's next
        puzzle is put on show (the loop then reads it as a new level), or the loop ends
        when the game has none after this one."""
        if self.next_puzzle is None or self.levels is not None and self.done >= self.levels:
            return
        title = self.next_puzzle()
        self.watcher.forget()
        if title is None:
            self.log("the game has no puzzle after this one: stopping")
            self.over = True
        else:
            self.log(f"next puzzle: {title}")

    def finish(self, record: LevelRecord, outcome: str) -> None:
        self.done += 1
        result = record.result
        moves = f", {result.moves} moves" if result.solved else ""
        self.log(f"level {record.number}: {record.game} {record.size}, "
                 f"solve {record.solve_ms:.1f} ms{moves}, {outcome}")
        if self.on_level is not None:
            self.on_level(record)


# ---------------------------------------------------------------------------- command

def open_source(args: argparse.Namespace) -> Source:
    """The capture source the options name."""
    try:
        region = None if args.region is None else Rect.parse(args.region)
    except ValueError as exc:
        raise UsageError(str(exc)) from None
    return capture.open_source(window=args.window, window_id=args.window_id, region=region,
                               monitor=args.monitor)


def check_options(args: argparse.Namespace) -> None:
    if args.levels is not None and args.levels < 1:
        raise UsageError("--levels must be at least 1")
    if (args.dry_run or args.speed is not None or args.confirm is not None or args.next) and not args.play:
        raise UsageError("--dry-run, --speed, --confirm and --next go with --play")
    if args.next and args.dry_run:
        raise UsageError("--next goes with a real play, not --dry-run (a dry run ends no level)")
    if args.next and args.window is None and args.window_id is None:
        raise UsageError("--next needs --window or --window-id: the game's menu is in its window, "
                         "which a region or monitor does not name")
    if args.keymap is None:
        return
    if not args.play:
        raise UsageError("--keymap goes with --play")
    keyed = [game.name for game in keyed_games()]
    if args.game not in (None, *keyed):
        raise UsageError(f"--keymap is for {', '.join(keyed)}: the other games are played with the mouse")
    if args.window is None and args.window_id is None:
        raise UsageError("--keymap needs --window or --window-id: keys go only to the game's window, "
                         "which a region or monitor does not name")


def keyed_games() -> list[Game]:
    """The games whose plans take a key map (``--keymap``)."""
    return [game for game in GAMES.values() if game.load_keymap is not None]


def plan_options(args: argparse.Namespace, profile: Profile | None) -> dict[str, dict[str, Any]]:
    """The games' plan options: a key map, for the games played with keys too (rings), from
    ``--keymap`` or else from the profile's own (its game's ``profile_keymap``)."""
    if args.keymap is None:
        if profile is None:
            return {}
        game = get(profile.game)
        keymap = game.profile_keymap(profile) if game.profile_keymap else None
        return {game.name: {"keymap": keymap}} if keymap else {}
    try:
        return {game.name: {"keymap": game.load_keymap(Path(args.keymap))} for game in keyed_games()}
    except ValueError as exc:
        raise UsageError(f"--keymap: {exc}") from None


def input_style(profile: Profile) -> tuple[float, bool]:
    """How the game takes input, as play learnt it and kept it in the profile (its field
    ``input``: ``rest``, seconds on each cell of a drag, and ``one_cell``, a piece moved one
    cell per drag); (0, False) when the profile has none. ProfileError naming a bad field."""
    style = profile.get("input", dict, {})
    rest, one_cell = style.get("rest", 0.0), style.get("one_cell", False)
    if not (isinstance(rest, (int, float)) and not isinstance(rest, bool) and 0 <= rest <= MAX_REST):
        raise ProfileError(f"profile {profile.name}: field 'input.rest' must be seconds from 0 to {MAX_REST:g}")
    if not isinstance(one_cell, bool):
        raise ProfileError(f"profile {profile.name}: field 'input.one_cell' must be true or false")
    return float(rest), one_cell


def keeper(profile: Profile, log: Callable[[str], None]) -> Callable[[LiveLoop], None]:
    """What the loop calls when it learns how the game takes input: the style written into
    the profile (only a profile folder this tool wrote; else, or when it cannot be written,
    it says why not and play goes on)."""
    def keep_style(loop: LiveLoop) -> None:
        from calibration.profile import keep
        from solvers.files import FileRefused

        try:
            keep(profile, {"input": {"rest": loop.rest, "one_cell": loop.one_cell}})
        except (ProfileError, FileRefused) as exc:
            log(f"how the game takes input is not kept in the profile: {exc}")
            return
        log(f"kept in profile {profile.name}: next time it is played so from the first move")
    return keep_style


def menu_of(window: WindowSource, speed: float | None, driver: Callable[[], InputDriver | None],
            grab: Callable[[], np.ndarray]) -> Callable[[], str | None]:
    """``--next``: what picks the next puzzle in the game on ``window`` through its menu,
    sending keys with ``driver()`` (the loop's, made after this) and grabbing its pictures
    with ``grab`` (without our hints); keys to its dialogs go through a driver of their own,
    guarded by the dialog, at ``speed`` (None: the driver's). UsageError when its menu is
    not known. ``bench gnome-klotski`` skips a puzzle with it too."""
    program = window.program()
    menu = menu_for(program)
    if menu is None:
        raise UsageError(f"--next knows the menus of {', '.join(m.game for m in MENUS)}; the window's "
                         f"program ({program or 'not told'}) is none of them")
    options = {} if speed is None else {"speed": speed}

    def dialog_keys(wid: int, keys: list[Any]) -> None:
        dialog = capture.open_source(window_id=wid)
        try:
            open_driver(dialog, log=lambda _: None, **options).perform(keys)
        finally:
            dialog.close()

    def next_puzzle() -> str | None:
        keys = driver()
        assert keys is not None     # --next goes with --play
        return pick_next(menu, window, keys, dialog_keys, grab)
    return next_puzzle


def main(args: argparse.Namespace, io: IO) -> int:
    check_options(args)
    games = [get(args.game)] if args.game else list(GAMES.values())
    profile = load_profile(args.profile) if args.profile else None
    options = plan_options(args, profile)
    rest, one_cell = input_style(profile) if profile is not None else (0.0, False)

    def log(text: str) -> None:
        io.out(text)
        io.stdout.flush()

    source = open_source(args)
    hints = driver = next_puzzle = None
    try:
        if args.next:
            assert isinstance(source, WindowSource)     # check_options: --next needs a window
            next_puzzle = menu_of(source, args.speed, lambda: loop.driver, lambda: loop.clean_grab())
        if args.hints != "none":
            from overlay.window import make_hints
            kind = "overlay" if args.hints == "step" else args.hints
            # A hint window goes beside what is captured, or is refused now.
            hints = make_hints(kind, near=source.rect() if kind == "window" else None)
        if args.play:
            speed = {} if args.speed is None else {"speed": args.speed}
            # The driver's lines are the dry run's output; when playing, the level lines say enough.
            driver = open_driver(source, dry_run=args.dry_run, log=log if args.dry_run else lambda _: None,
                                 **speed)
        loop = LiveLoop(source, Watcher(games, profile, stepping=args.hints == "step"), log, hints=hints,
                        driver=driver, fps=args.fps, levels=args.levels, dry_run=args.dry_run,
                        confirm=args.confirm, plan_options=options,
                        learnt=keeper(profile, log) if profile is not None else None, next_puzzle=next_puzzle)
        loop.rest, loop.one_cell = rest, one_cell
        log(f"watching {source.rect().to_text()} at {args.fps:g} fps; Ctrl-C stops")
        try:
            loop.run()
        except (CaptureError, OverlayError) as exc:
            # It was captured (and shown) at the start: failing now is the game going away, not bad input.
            raise LiveError(str(exc)) from None
    except (LiveError, DriverStopped, MenuError) as exc:
        io.err(f"puzzlepilot: stopped: {exc}")
        return 1
    finally:
        if hints is not None:
            hints.close()
        source.close()
    return 0
