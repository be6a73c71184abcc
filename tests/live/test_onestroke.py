"""Live hints follow a one-stroke player (issue 14 §2): a frame with part of the path
drawn is read as the board left, solved from the head, and shown without counting a new
level; a path that can no longer be finished is said so, with the cell to undo to.
Fake sources here; the practice board under Xvfb at the end."""
from __future__ import annotations

import re
import signal
import time

import numpy as np
import pytest

from puzzlepilot.games import get
from puzzlepilot.live import LiveLoop, New, Watcher
from puzzlepilot.practice.onestroke import new_level
from puzzlepilot.scenes.onestroke import render_phone
from solvers.onestroke import Board, solve, validate
from tests.display import (PRACTICE_TITLE, Lines, practice_board, puzzlepilot, run_puzzlepilot, wait_until,
                           xdotool)
from tests.helpers import left
from tests.live.fakes import VIEW, FakeHints, FakeSource
from vision.capture import Source
from vision.common import NoBoardFound
from vision.onestroke import parse

GAME = get("onestroke")
LEVEL = Board.from_text("S###/####/####")


def frame(board: Board, visited: list[tuple[int, int]] = ()) -> np.ndarray:
    return render_phone(board, width=VIEW[0], height=VIEW[1], visited=list(visited), seed=3)[0]


def loop_on(board: Board) -> tuple[LiveLoop, FakeSource, FakeHints, list[str]]:
    source, hints, lines = FakeSource([frame(board)]), FakeHints(), []
    return LiveLoop(source, Watcher([GAME]), lines.append, hints=hints, fps=100), source, hints, lines


def test_a_drawn_path_is_followed_from_the_head_without_a_new_level() -> None:
    loop, source, hints, lines = loop_on(LEVEL)
    assert isinstance(loop.tick(), New) and loop.done == 1
    drawn = [(0, 0), (1, 0), (2, 0), (2, 1)]
    source.frames = [frame(LEVEL, drawn)]
    step = loop.tick()
    assert isinstance(step, New) and step.follows
    assert step.parse.board == left(LEVEL, drawn)
    assert step.parse.geometry.drawn == tuple(drawn[:-1])
    solution = step.result.solution
    assert validate(step.parse.board, solution) == [] and solution[0] == [2, 1]
    assert not {tuple(p) for p in solution} & set(drawn[:-1])     # only the cells left
    assert validate(LEVEL, [list(p) for p in drawn[:-1]] + solution) == []
    assert loop.done == 1 and "hints from where you are" in lines[-1]
    kind, shapes, _ = hints.calls[-1]
    assert kind == "show" and len(shapes) == len(GAME.hints(step.parse, solution))


def test_undoing_part_of_the_path_is_followed_too() -> None:
    loop, source, _, lines = loop_on(LEVEL)
    loop.tick()
    source.frames = [frame(LEVEL, [(0, 0), (1, 0), (2, 0), (2, 1)])]
    loop.tick()
    source.frames = [frame(LEVEL, [(0, 0), (1, 0)])]
    step = loop.tick()
    assert step.follows and step.parse.board == left(LEVEL, [(0, 0), (1, 0)]) and loop.done == 1


def test_a_path_that_cannot_be_finished_says_which_cell_to_undo_to() -> None:
    loop, source, hints, lines = loop_on(LEVEL)
    loop.tick()
    drawn = [(0, 0), (1, 0), (1, 1), (1, 2), (1, 3)]   # (2, 0) and (0, 1) both dead ends now
    source.frames = [frame(LEVEL, drawn)]
    step = loop.tick()
    assert step.follows and not step.result.solved and loop.done == 1
    assert hints.calls[-1][0] == "clear"
    assert lines[-1].startswith("the path drawn so far cannot be finished")
    row, col = map(int, re.search(r"undo to cell \((\d+), (\d+)\)", lines[-1]).groups())
    assert (row, col) == (1, 0)        # the latest cell from which the rest is solvable
    cut = drawn[: drawn.index((row, col)) + 1]
    assert solve(left(LEVEL, cut)).solved


@pytest.mark.parametrize("seed", [3, 8, 21])
def test_the_undo_cell_is_the_latest_one_the_rest_can_be_finished_from(seed: int) -> None:
    level = new_level(seed, (6, 6), VIEW).board
    path = [tuple(p) for p in solve(level).solution]
    # A detour: follow the answer for a while, then step wherever is free until stuck.
    drawn = path[:8]
    while True:
        free = [n for n in ((drawn[-1][0] + dr, drawn[-1][1] + dc) for dr, dc in ((0, 1), (1, 0), (0, -1), (-1, 0)))
                if n in level.cells and n not in drawn]
        if not free or not solve(left(level, drawn + [free[-1]])).solved:
            break
        drawn.append(free[-1])
    if not free:
        pytest.skip("the detour ended the level")
    drawn.append(free[-1])
    found = parse(frame(level, drawn))
    assert found.board == left(level, drawn)
    message = GAME.stuck(found, solve(found.board))
    row, col = map(int, re.search(r"undo to cell \((\d+), (\d+)\)", message).groups())
    k = drawn.index((row, col))
    assert solve(left(level, drawn[:k + 1])).solved
    assert all(not solve(left(level, drawn[:j + 1])).solved for j in range(k + 1, len(drawn)))


def test_a_new_level_after_a_finished_one_is_a_level_not_a_follow_up() -> None:
    loop, source, _, _ = loop_on(LEVEL)
    loop.tick()
    source.frames = [frame(Board.from_text("##S#/####/####"))]
    step = loop.tick()
    assert isinstance(step, New) and not step.follows and loop.done == 2


# ---------------------------------------------------------------------------- on a display

def drag_through(cells: list[tuple[int, int]], centres: dict, at: tuple[int, int]) -> None:
    """Press on the first cell, move through the others, release (the practice board)."""
    points = [(round(centres[c][0]) + at[0], round(centres[c][1]) + at[1]) for c in cells]
    xdotool("mousemove", *points[0])
    xdotool("mousedown", "1")
    for x, y in points[1:]:
        time.sleep(0.05)
        xdotool("mousemove", x, y)
    time.sleep(0.05)
    xdotool("mouseup", "1")


def shows(source: Source, board: Board) -> bool:
    """The window shows ``board`` (the path drawn so far taken off it)."""
    try:
        return parse(source.grab()).board == board
    except NoBoardFound:
        return False


def detour(board: Board, drawn: list[tuple[int, int]]) -> list[tuple[int, int]]:
    """``drawn`` and then steps onto free cells until the path cannot be finished."""
    drawn = list(drawn)
    while solve(left(board, drawn)).solved:
        r, c = drawn[-1]
        free = [n for n in ((r, c + 1), (r + 1, c), (r, c - 1), (r - 1, c)) if n in board.cells and n not in drawn]
        assert free, "the detour ended the level"
        stranding = [n for n in free if not solve(left(board, drawn + [n])).solved]
        drawn.append((stranding or free)[0])
    return drawn


@pytest.mark.display
def test_hints_follow_a_path_drawn_on_the_practice_board(display: str) -> None:
    from vision.capture import window_source

    seed = 5
    level = new_level(seed, (6, 6), VIEW)
    board = level.board
    path = [tuple(p) for p in solve(board).solution]
    with practice_board("onestroke", "--seed", str(seed), "--size", "6x6", "--view", f"{VIEW[0]}x{VIEW[1]}"):
        source = window_source(PRACTICE_TITLE)
        at = (source.rect().left, source.rect().top)
        drag_through(path[:9], level.centres, at)
        wait_until(lambda: shows(source, left(board, path[:9])), "the board to show the first 9 cells drawn", every=0.1)
        source.close()
        # Read mid-level from the screen: the answer (the drag it would play) starts at the
        # head and covers only the cells left.
        status, out, err = run_puzzlepilot("live", "--window", PRACTICE_TITLE, "--play", "--dry-run",
                                           "--levels", "1", "--hints", "none", timeout=30)
        assert status == 0, err
        line = next(line for line in out.splitlines() if line.startswith("dry run: drag"))
        drag = [tuple(map(float, p)) for p in re.findall(r"\((-?\d+),(-?\d+)\)", line)]
        centres = {cell: (x + at[0], y + at[1]) for cell, (x, y) in level.centres.items()}
        cells = [min(centres, key=lambda c: np.hypot(centres[c][0] - x, centres[c][1] - y)) for x, y in drag]
        assert cells[0] == path[8]
        assert validate(left(board, path[:9]), [list(c) for c in cells]) == [], out
        # Watching while the player goes on: hints follow, and a detour is said so.
        watcher = puzzlepilot("live", "--game", "onestroke", "--window", PRACTICE_TITLE, "--hints", "none")
        watched = Lines(watcher.stdout)
        Lines(watcher.stderr)       # drained as it fills
        try:
            watched.wait_for(lambda line: "hints shown" in line)
            assert "hints shown" in "".join(watched.lines[:2])
            drag_through(path[8:12], level.centres, at)
            watched.wait_for(lambda line: "hints from where you are" in line)
            stuck = detour(board, path[:12])
            drag_through(stuck[11:], level.centres, at)
            watched.wait_for(lambda line: "cannot be finished" in line)
        finally:
            watcher.send_signal(signal.SIGINT)
            watcher.wait(timeout=10)
            out = "\n".join(watched.join())
    assert "hints from where you are" in out, out
    said = re.search(r"cannot be finished .*undo to cell \((\d+), (\d+)\)", out)
    assert said, out
    undo = (int(said.group(1)), int(said.group(2)))
    assert solve(left(board, stuck[:stuck.index(undo) + 1])).solved
