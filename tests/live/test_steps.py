"""``live --hints step`` with fakes (no display): one step of the answer on show at a time,
moving on as the board does: rings by the position reached, LYNE once a change of the
same board settles; a board off the answer's way is solved afresh once it reads twice."""
from __future__ import annotations

import json
from dataclasses import replace
import queue
import subprocess
import threading
from pathlib import Path

import numpy as np
import pytest

from overlay.draw import Marker, Polyline
from puzzlepilot.games import get
from puzzlepilot.live import Advance, Back, Gone, Idle, LiveLoop, New, Same, Unsettled, Watcher
from solvers.lyne import Board as LyneBoard
from solvers.rings import Board as RingsBoard, apply_move, generate
from tests.helpers import run_cli
from tests.display import PRACTICE_TITLE as PRACTICE
from tests.display import practice_board, puzzlepilot, run_puzzlepilot, wait_for_window
from tests.live.fakes import FakeHints, FakeSource
from vision.capture import Rect
from vision.common import Parse
from vision.lyne import LyneGeometry
from vision.rings import Arena, RingsGeometry

RINGS, LYNE = get("rings"), get("lyne")
ARENA = Arena(200.0, 360.0, 150.0, 40.0)


class Screen:
    """Frames that stand for readings: frame k is all k, and the watcher reads it as
    ``readings[k]`` (so the tests decide what the vision sees)."""

    def __init__(self, watcher: Watcher) -> None:
        self.readings: dict[int, Parse] = {}
        self.source = FakeSource([self.frame(0)])
        watcher.read = lambda image: self.readings.get(int(image[0, 0, 0]))

    @staticmethod
    def frame(k: int) -> np.ndarray:
        return np.full((720, 405, 3), k, np.uint8)

    def show(self, k: int, reading: Parse | None) -> None:
        self.readings[k] = reading
        self.source.frames = [self.frame(k)]


def rings_reading(board: RingsBoard) -> Parse:
    return Parse("rings", board, 1.0, ARENA.cells(), RingsGeometry(ARENA))


def moved(board: RingsBoard, moves: list, budget: int | None = None) -> RingsBoard:
    grid = [list(ring) for ring in board.cells]
    for move in moves:
        grid = apply_move(grid, move)
    return RingsBoard(tuple("".join(ring) for ring in grid), budget)


def loop_for(screen_watcher: Watcher) -> tuple[Screen, FakeHints, list[str], LiveLoop]:
    screen, hints, lines = Screen(screen_watcher), FakeHints(), []
    loop = LiveLoop(screen.source, screen_watcher, lines.append, hints=hints, fps=100)
    return screen, hints, lines, loop


def on_show(hints: FakeHints) -> list:
    """The shapes last shown, or None when the last call cleared them."""
    last = hints.calls[-1]
    return last[1] if last[0] == "show" else None


def expected(parse: Parse, solution: list, step: int, at: tuple[int, int] = (100, 50)) -> list:
    return RINGS.hints(parse.shifted(*at), solution, step=step)


def test_rings_hints_show_each_move_in_turn_as_the_board_reaches_it() -> None:
    screen, hints, lines, loop = loop_for(Watcher([RINGS], stepping=True))
    board = generate(3, groups=3, moves=3)
    start = rings_reading(board)
    screen.show(1, start)
    assert isinstance(loop.tick(), Unsettled) and hints.calls == []     # read once: not yet
    assert isinstance(loop.tick(), New)
    solution = loop.watcher.current.result.solution
    assert len(solution) >= 2 and on_show(hints) == expected(start, solution, 0)
    assert isinstance(loop.tick(), Idle)
    for done in range(1, len(solution)):
        # The panel counts down, and may be read or not: the enemies decide.
        screen.show(1 + done, rings_reading(moved(board, solution[:done], budget=3 - done if done % 2 else None)))
        step = loop.tick()
        assert isinstance(step, Advance) and step.done == done
        assert on_show(hints) == expected(start, solution, done)
        assert isinstance(loop.tick(), Idle)
    screen.show(9, rings_reading(moved(board, solution)))
    assert isinstance(loop.tick(), Advance) and on_show(hints) is None
    assert lines[1:] == [f"step {k} of {len(solution)}" for k in range(2, len(solution) + 1)] + \
        [f"all {len(solution)} steps made"]
    assert loop.done == 1


def test_a_rings_board_off_the_answers_way_is_solved_afresh_once_it_settles() -> None:
    screen, hints, lines, loop = loop_for(Watcher([RINGS], stepping=True))
    board = generate(8, groups=2, moves=2)
    screen.show(1, rings_reading(board))
    loop.tick(), loop.tick()
    solution = loop.watcher.current.result.solution
    shown = len(hints.calls)
    wrong = next(m for m in ({"op": "rotate", "ring": r, "steps": 1} for r in range(4))
                 if RINGS.progress(board, solution, moved(board, [m])) is None)
    screen.show(2, rings_reading(moved(board, [wrong])))
    assert isinstance(loop.tick(), Unsettled) and len(hints.calls) == shown   # a frame of a drag, maybe
    step = loop.tick()
    assert isinstance(step, New) and step.parse.board == moved(board, [wrong])
    assert on_show(hints) == expected(step.parse, step.result.solution, 0) and loop.done == 2


def test_a_moved_window_keeps_the_step_on_show() -> None:
    screen, hints, _, loop = loop_for(Watcher([RINGS], stepping=True))
    board = generate(21, groups=3, moves=3)
    start = rings_reading(board)
    screen.show(1, start)
    loop.tick(), loop.tick()
    solution = loop.watcher.current.result.solution
    screen.show(2, rings_reading(moved(board, solution[:1])))
    loop.tick()
    screen.source.at = Rect(300, 20, 405, 720)
    assert isinstance(loop.tick(), Same)
    assert on_show(hints) == expected(start, solution, 1, at=(300, 20))


LYNE_BOARD = LyneBoard.from_text("TSD\n2S2\ntsd\nD2T")


def lyne_reading() -> Parse:
    cells = [(60.0 + 80 * c, 60.0 + 80 * r) for r in range(LYNE_BOARD.rows) for c in range(LYNE_BOARD.cols)]
    geometry = LyneGeometry(80.0, cells[0], LYNE_BOARD.rows, LYNE_BOARD.cols, 40.0, (0, 0, 80 * LYNE_BOARD.cols + 40,
                            80 * LYNE_BOARD.rows + 40), (60, 60, 60), {})
    return Parse("lyne", LYNE_BOARD, 1.0, cells, geometry)


def starts(shapes: list) -> list[str]:
    return [s.label for s in shapes if isinstance(s, Marker)]


def test_lyne_hints_move_on_one_path_once_a_drawing_on_the_same_board_settles() -> None:
    screen, hints, lines, loop = loop_for(Watcher([LYNE], stepping=True))
    screen.show(1, lyne_reading())
    loop.tick(), loop.tick()
    solution = loop.watcher.current.result.solution
    order = [f"{k}{shape}" for k, shape in enumerate(sorted(solution), 1)]   # "1d": order and shape
    assert starts(on_show(hints)) == order[:1]
    for k in (2, 3, 4):                                   # a path being drawn: the frame keeps changing
        screen.show(k, lyne_reading())
        assert isinstance(loop.tick(), Same) and starts(on_show(hints)) == order[:1]
    assert isinstance(loop.tick(), Idle)              # settled: the next path
    assert starts(on_show(hints)) == order[1:2] and lines[-1] == "step 2 of 3"
    for k in (5, 6):
        screen.show(k, lyne_reading())
        loop.tick(), loop.tick()
    assert starts(on_show(hints)) == order[2:3]           # the last path stays until the level ends
    assert len([s for s in on_show(hints) if isinstance(s, Polyline)]) == 2
    screen.show(7, None)                                  # a frame of a drag, misread: kept
    assert isinstance(loop.tick(), Unsettled) and starts(on_show(hints)) == order[2:3]
    screen.show(8, lyne_reading())
    assert isinstance(loop.tick(), Same)
    screen.show(9, None)                                  # gone for two readings: gone
    assert isinstance(loop.tick(), Unsettled) and isinstance(loop.tick(), Gone)
    assert on_show(hints) is None


def test_a_lyne_board_back_after_frames_without_one_is_the_same_level_its_steps_going_on() -> None:
    screen, hints, lines, loop = loop_for(Watcher([LYNE], stepping=True))
    screen.show(1, lyne_reading())
    loop.tick(), loop.tick()
    order = [f"{k}{shape}" for k, shape in enumerate(sorted(loop.watcher.current.result.solution), 1)]
    for k in (2, 3):                                      # a drag the vision refuses, frame after frame
        screen.show(k, None)
        loop.tick()
    assert on_show(hints) is None and len(lines) == 1
    screen.show(4, lyne_reading())                        # the drag ends: the same board, a path drawn
    assert isinstance(loop.tick(), Back) and starts(on_show(hints)) == order[:1]
    assert isinstance(loop.tick(), Idle) and starts(on_show(hints)) == order[1:2]
    assert lines[1:] == ["step 2 of 3"] and loop.done == 1
    screen.show(5, None)
    loop.tick(), loop.tick()
    other = replace(lyne_reading(), board=LyneBoard.from_text("TSD\n2S2\ntsd\nDT2"))
    screen.show(6, other)                                 # another board after all: a new level
    assert isinstance(loop.tick(), Unsettled) and isinstance(loop.tick(), New) and loop.done == 2


def test_without_step_hints_every_path_shows_at_once_and_a_new_board_is_solved_at_first_sight() -> None:
    screen, hints, _, loop = loop_for(Watcher([LYNE]))
    screen.show(1, lyne_reading())
    assert isinstance(loop.tick(), New)
    assert starts(on_show(hints)) == [f"{k}{shape}" for k, shape in enumerate(sorted(loop.watcher.current.result.solution), 1)]
    screen.show(2, lyne_reading())
    loop.tick(), loop.tick()
    assert len(hints.calls) == 1


def test_a_moved_lyne_window_is_no_path_drawn() -> None:
    screen, hints, lines, loop = loop_for(Watcher([LYNE], stepping=True))
    screen.show(1, lyne_reading())
    loop.tick(), loop.tick()
    first = starts(on_show(hints))
    screen.source.at = Rect(300, 20, 405, 720)
    assert isinstance(loop.tick(), Same)
    assert isinstance(loop.tick(), Idle) and isinstance(loop.tick(), Idle)
    assert starts(on_show(hints)) == first and hints.calls[-1][2] == screen.source.at and len(lines) == 1


@pytest.mark.parametrize("argv, message", [
    (["live", "--monitor", "1", "--keymap", "k.json"], "--keymap goes with --play"),
    (["live", "--monitor", "1", "--play", "--game", "lyne", "--keymap", "k.json"], "--keymap is for rings"),
    (["live", "--window", "game", "--play", "--keymap", "/no/such/keys.json"], "cannot read"),
])
def test_bad_keymap_options_are_one_line_and_status_2(argv: list[str], message: str) -> None:
    status, _, err = run_cli(argv)
    assert status == 2 and err.count("\n") == 1 and message in err


def test_the_key_map_comes_from_the_keymap_file_else_from_the_rings_profile(tmp_path: Path) -> None:
    from argparse import Namespace

    from calibration.profile import save
    from puzzlepilot.live import plan_options

    theirs = {**KEYS_FILE, "confirm": "space"}
    profile = save({"game": "rings", "name": "pad", "keymap": theirs}, {}, tmp_path / "pad")
    path = tmp_path / "keys.json"
    path.write_text(json.dumps(KEYS_FILE))
    assert plan_options(Namespace(keymap=None), profile) == {"rings": {"keymap": theirs}}
    assert plan_options(Namespace(keymap=str(path)), profile) == {"rings": {"keymap": KEYS_FILE}}
    assert plan_options(Namespace(keymap=None), None) == {}


# ---------------------------------------------------------------------------- on a display

KEYS_FILE = {"rings": [["1"], ["2"], ["3"], ["4"]], "lines": [["q"], ["w"], ["e"], ["r"], ["t"], ["y"]],
             "clockwise": "right", "anticlockwise": "left", "inward": "up", "outward": "down", "confirm": "enter"}


def _reader(proc: subprocess.Popen) -> "queue.Queue[str]":
    """The process's output lines as they come (a thread reads them: readline blocks)."""
    lines: queue.Queue[str] = queue.Queue()

    def pump() -> None:
        for line in proc.stdout:
            lines.put(line.rstrip("\n"))

    threading.Thread(target=pump, daemon=True).start()
    return lines


def _stop(*procs: subprocess.Popen) -> None:
    for proc in procs:
        proc.kill()
        proc.communicate(timeout=10)


@pytest.fixture
def keymap_file(tmp_path: Path) -> Path:
    path = tmp_path / "keys.json"
    path.write_text(json.dumps(KEYS_FILE))
    return path


@pytest.mark.display
def test_step_hints_on_the_rings_practice_board_move_on_with_each_move_made(display: str, keymap_file: Path) -> None:
    from overlay.driver import Driver
    from vision.capture import window_source

    practice = puzzlepilot("practice", "rings", "--seed", "5", "--keymap", str(keymap_file), "--log", "--at", "40,40")
    watcher = None
    try:
        assert practice.stdout.readline().startswith("level 1:")
        wait_for_window(PRACTICE)
        source = window_source(PRACTICE)
        found = RINGS.parse(source.grab())          # read and solved as live does it
        source.close()
        solution = RINGS.solve(found.board).solution
        watcher = puzzlepilot("live", "--game", "rings", "--window", PRACTICE, "--hints", "step")
        lines = _reader(watcher)
        assert lines.get(timeout=10).startswith("watching ")
        assert lines.get(timeout=10).endswith(f"{len(solution)} moves, hints shown")
        driver = Driver(lambda: Rect(0, 0, 1280, 800), log=lambda _: None, speed=2)
        for done, move in enumerate(solution[:-1], 1):
            driver.perform(RINGS.plan(found, [move], keymap=KEYS_FILE))
            assert lines.get(timeout=10) == f"step {done + 1} of {len(solution)}"
        driver.perform(RINGS.plan(found, solution[-1:], keymap=KEYS_FILE))
        assert practice.stdout.readline() == "solved level 1\n"
    finally:
        _stop(practice, *([watcher] if watcher else []))


@pytest.mark.display
def test_the_keyboard_driver_plays_rings_practice_levels_with_a_key_map(display: str, keymap_file: Path) -> None:
    with practice_board("rings", "--seed", "3", "--levels", "2", "--keymap", str(keymap_file)) as log:
        status, out, err = run_puzzlepilot("live", "--game", "rings", "--window", PRACTICE, "--play",
                                           "--keymap", str(keymap_file), "--levels", "2", "--hints", "none")
    assert status == 0, err
    played = [line for line in out.splitlines() if line.startswith("level ")]
    assert len(played) == 2 and all(line.endswith("played") for line in played), out
    assert [line for line in log if line.startswith("solved")] == ["solved level 1", "solved level 2"]


@pytest.mark.display
def test_step_hints_on_the_lyne_practice_board_show_the_next_path_once_one_is_drawn(display: str) -> None:
    from overlay.driver import Driver
    from vision.capture import window_source

    practice = puzzlepilot("practice", "lyne", "--seed", "4", "--log", "--at", "40,40")
    board = _reader(practice)       # read with timeouts: a level never solved fails, not hangs
    watcher = None
    try:
        assert board.get(timeout=20).startswith("level 1:")
        wait_for_window(PRACTICE)
        source = window_source(PRACTICE)
        rect = source.rect()
        found = LYNE.parse(source.grab()).shifted(rect.left, rect.top)
        source.close()
        solution = LYNE.solve(found.board).solution
        assert len(solution) >= 2
        watcher = puzzlepilot("live", "--game", "lyne", "--window", PRACTICE, "--hints", "step")
        lines = _reader(watcher)
        assert lines.get(timeout=10).startswith("watching ")
        assert lines.get(timeout=10).endswith("hints shown")
        driver = Driver(lambda: rect, log=lambda _: None, speed=2)
        drags = LYNE.plan(found, solution)
        for done, drag in enumerate(drags[:-1], 1):
            driver.perform([drag])
            assert lines.get(timeout=10) == f"step {done + 1} of {len(solution)}"
        driver.perform(drags[-1:])
        assert board.get(timeout=20) == "solved level 1"
    finally:
        _stop(practice, *([watcher] if watcher else []))
