"""GNOME Klotski's own window, run under Xvfb, read by ``parse`` as the board its screen
shows (boards written from the game's screens in tests/solvers/test_klotski_walls.py), at
the window's default size and a larger one; skipped when the game is not installed
(Debian: apt-get install gnome-klotski dbus)."""
from __future__ import annotations

import os
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import replace
from pathlib import Path

import numpy as np
import pytest

from overlay.klotski import plan
from puzzlepilot.benchmarks.gnome_klotski import installed, launch
from puzzlepilot.games import GAMES
from solvers.klotski import STEPS, Board, solve
from tests.display import desktop, wait_until, xdotool
from tests.solvers.test_klotski_walls import AGATKA, ONLY_18_STEPS, RED_DONKEY
from vision.capture import find_windows, region_source
from vision.common import NoBoardFound, Parse
from vision.gnome_klotski import could_move, encloses, gate_ends, in_opening, plain

needs_game = pytest.mark.skipif(installed() is None,
                                reason="gnome-klotski or dbus-run-session is not installed "
                                       "(Debian/Ubuntu: apt-get install gnome-klotski dbus)")

# The game's puzzles by their number in its settings, and their names (its window title).
PUZZLES = {0: ("Only 18 Steps", ONLY_18_STEPS), 6: ("Red Donkey", RED_DONKEY), 9: ("Agatka", AGATKA)}


@contextmanager
def gnome_klotski(display: str, home: Path, puzzle: int, size: tuple[int, int],
                  maximized: bool = False) -> Iterator[str]:
    """The game on ``display`` showing ``puzzle`` in a window of ``size`` (or maximised:
    give it a window manager), its settings, D-Bus session and folders in ``home``; yields
    the window's title, the puzzle's name."""
    assert os.environ["DISPLAY"] == display
    with launch(home, puzzle, size, maximized) as (title, _):
        assert title == PUZZLES[puzzle][0]
        yield title


def read(title: str) -> Board | None:
    """The board ``parse`` reads from the game's window; None while it is refused (the
    window still drawing)."""
    found = reading(title)
    return None if found is None else found.board


def reading(title: str) -> Parse | None:
    """The parse of the game's window in screen coordinates; None when it is refused."""
    found = parsed(title)
    return found if isinstance(found, Parse) else None


def parsed(title: str) -> Parse | NoBoardFound:
    """The parse of the game's window in screen coordinates, or why it is refused."""
    (_, rect, _), = find_windows(title)
    source = region_source(rect)
    try:
        image = source.grab()
    finally:
        source.close()
    try:
        return GAMES["klotski"].parse(np.ascontiguousarray(image)).shifted(rect.left, rect.top)
    except NoBoardFound as exc:
        return exc


def layout(board: Board) -> tuple[frozenset, ...]:
    """What a board is, its names aside: the cells of each piece and of the target, the
    walls, gates and goal cells."""
    return (frozenset(frozenset(p.cells()) for p in board.pieces), frozenset(board.piece(board.target).cells()),
            board.walls, board.gates, board.marks)


@needs_game
@pytest.mark.parametrize("puzzle, size", [(6, (600, 500)), (9, (600, 500)), (0, (1000, 760))])
def test_parse_reads_the_game_window_as_its_board(display, tmp_path, puzzle, size):
    want = Board.from_text(PUZZLES[puzzle][1]).relabelled()
    with gnome_klotski(display, tmp_path, puzzle, size) as title:
        board = wait_until(lambda: read(title), "a board read from the window", timeout=10, every=0.2)
    assert board.to_text() == want.to_text()


@needs_game
@pytest.mark.parametrize("size, maximized", [((900, 750), False), ((600, 500), True)])
def test_parse_reads_a_large_window_as_its_board(display, tmp_path, size, maximized):
    """Agatka at 900×750 and maximised under openbox (the whole 1280×800 screen): cells of
    about 100 px, where the target's marks show light sides as long as a tile's shortest."""
    want = Board.from_text(AGATKA).relabelled()
    with desktop("openbox"), gnome_klotski(display, tmp_path, 9, size, maximized) as title:
        board = wait_until(lambda: read(title), "a board read from the window", timeout=10, every=0.2)
        (_, rect, _), = find_windows(title)
    assert board.to_text() == want.to_text()
    assert rect.width >= (1280 if maximized else size[0])


@needs_game
def test_playing_the_answer_through_the_game_reads_each_position_right_or_refuses(display, tmp_path):
    """Only 18 Steps played move by move with the drags ``plan`` makes from the first reading:
    the game takes every one, each reading is the position before the move, the one after
    it or a refusal (never another board), and the game says the level is completed."""
    board = Board.from_text(ONLY_18_STEPS).relabelled()
    answer = solve(board).solution
    pieces = {p.name: p for p in board.pieces}
    seen: list[str] = []

    def moved(before: tuple, after: tuple) -> bool:
        now = reading(title)
        seen.append("refused" if now is None else "after" if layout(now.board) == after else
                    "before" if layout(now.board) == before else "WRONG")
        return seen[-1] == "after"

    with gnome_klotski(display, tmp_path, 0, (600, 500)) as title:
        found = wait_until(lambda: reading(title), "a board read from the window", timeout=10, every=0.2)
        for i, (move, drag) in enumerate(zip(answer, plan(found, answer))):
            # one xdotool run: press, glide a quarter cell at a time as a hand does (the game
            # follows the pointer cell by cell), let go
            words: list[object] = ["mousemove", *map(round, drag.points[0]), "mousedown", 1, "sleep", 0.05]
            for (x0, y0), (x1, y1) in zip(drag.points, drag.points[1:]):
                for k in range(1, 5):
                    words += ["mousemove", round(x0 + (x1 - x0) * k / 4), round(y0 + (y1 - y0) * k / 4), "sleep", 0.01]
            xdotool(*words, "sleep", 0.05, "mouseup", 1)
            before = layout(replace(board, pieces=tuple(pieces.values())))
            p = pieces[move["piece"]]
            for letter in move["path"]:
                p = replace(p, row=p.row + STEPS[letter][0], col=p.col + STEPS[letter][1])
            pieces[move["piece"]] = p
            after = layout(replace(board, pieces=tuple(pieces.values())))
            if i + 1 < len(answer):         # (after the last one the window is retitled)
                wait_until(lambda: moved(before, after), f"move {i + 1} on the screen", timeout=10, every=0.2)
        assert wait_until(lambda: find_windows("Level completed"), "the game's end", timeout=10, every=0.2)
    assert "WRONG" not in seen, seen


@needs_game
def test_a_block_at_the_edge_with_room_to_move_is_refused(display, tmp_path):
    """Ithaca's blocks along the board's left edge move (played in the game: a drag moves
    them, the move counter says so), though the game draws them as it draws its frames: read
    as walls, the board had no answer. Such a block could be either: refused."""
    with launch(tmp_path, 19, (600, 500)) as (title, _):
        assert title == "Ithaca"
        why = wait_until(lambda: "at the board's edge" in str(parsed(title)) and str(parsed(title)),
                         "the window refused for its edge blocks", timeout=10, every=0.2)
    assert "could be a wall or a piece" in why


def test_a_plain_block_is_a_rectangle_and_may_move_where_nothing_fixed_stops_it():
    bar = {(0, c) for c in range(4)}
    assert plain(bar) and not plain(bar | {(1, 0)})
    assert could_move(bar, set(), 3, 4)                                   # down into the floor
    assert not could_move(bar, {(1, c) for c in range(4)}, 2, 4)          # a frame below, the edge above
    assert could_move(bar, {(1, 0)}, 2, 5)                                # right along the top row


def test_a_target_that_may_hide_a_gate_is_refused():
    """Red Donkey's target in the gate row hides both gates: the picture shows none, but the
    target's row has walls at both ends; next to the gates it might hide another one."""
    board = Board.from_text(RED_DONKEY)
    walls, gates = set(board.walls), set(board.gates)
    square = {(r, c) for r in (0, 1) for c in (2, 3)}
    assert in_opening({(r + 5, c) for r, c in square}, walls, set())
    assert in_opening({(r + 6, c) for r, c in square}, walls, set())      # half out below the frame
    assert in_opening({(r + 4, c) for r, c in square}, walls, gates)      # next to them: may hide one
    assert not in_opening({(r + 1, c) for r, c in square}, walls, gates)
    assert not in_opening({(r + 7, c + 2) for r, c in square}, walls, gates)


def test_blocks_framing_a_row_of_gates_are_walls_and_a_ring_shaped_block_is_refused():
    """An inner frame (Ithaca's) does not reach the board's edge, but a column of gates
    opens in it: the blocks at both ends of the column are walls. A lone gate with a block
    beside it and floor beyond makes nothing a wall; a block closing round cells is taken
    for a wall it might be."""
    assert gate_ends({(1, 0), (2, 0)}, {(0, 0), (3, 0), (1, 1)}) == {(0, 0), (3, 0)}
    assert gate_ends({(1, 1)}, {(1, 0), (0, 1)}) == set()
    ring = [(0, 0), (0, 1), (0, 2), (1, 0), (1, 2), (2, 0), (2, 1), (2, 2)]
    assert encloses(ring) and not encloses([cell for cell in ring if cell != (2, 1)])
