"""``puzzlepilot live --window Klotski --play`` on the real GNOME Klotski under Xvfb with
openbox: the command finds the game's window by its program (its title is the puzzle's),
reads it, plays its answer one checked move at a time with the mouse, and the game itself
says the level is completed (its title), at the window's default size and maximised; with
``--next`` it goes on to the game's next puzzle through its menu; a puzzle the player picks
mid-play is played instead of the old plan; hints (overlay, step) are grabbed from the
screen on the piece to move, and follow a puzzle the player picks. Skipped when the game is
not installed (Debian: apt-get install gnome-klotski dbus)."""
from __future__ import annotations

import numpy as np
import pytest

from overlay.driver import open_driver
from overlay.klotski import ARROW
from puzzlepilot.benchmarks.gnome_klotski import PUZZLES as PUZZLE_COUNT
from puzzlepilot.benchmarks.gnome_klotski import launch
from puzzlepilot.menus import MENUS, pick_next
from solvers.klotski import GNOME_PUZZLES, STEPS, Board, solve
from tests.display import Lines, bgr, desktop, puzzlepilot, wait_for_pixels, wait_until, xdotool
from tests.solvers.test_klotski_walls import ONLY_18_STEPS
from tests.vision.test_gnome_klotski import PUZZLES, gnome_klotski, layout, needs_game, read, reading
from vision.capture import find_windows, monitor_source, window_source


@needs_game
@pytest.mark.parametrize("maximized", [False, True])
def test_live_play_solves_a_gnome_klotski_puzzle_and_the_game_says_so(display, tmp_path, maximized):
    """At the window's default size (600×500) and maximised (the 1280×800 screen)."""
    title = PUZZLES[0][0]
    with desktop("openbox"), gnome_klotski(display, tmp_path, 0, (600, 500), maximized):
        # the window is titled with the puzzle's name: found by its program's
        live = puzzlepilot("live", "--game", "klotski", "--window", "Klotski", "--play", "--hints", "none",
                           "--levels", "1", "--speed", "2")
        try:
            out, err = live.communicate(timeout=90)
        finally:
            live.kill()
        assert live.returncode == 0, err
        played = out.splitlines()[-1]
        completed = wait_until(lambda: find_windows("Level completed"), "the game's 'Level completed.'", timeout=10)
    board = Board.from_text(GNOME_PUZZLES[title][0].replace("/", "\n"))
    moves = GNOME_PUZZLES[title][1]
    assert played.startswith(f"level 1: klotski {board.size},") and played.endswith(f", {moves} moves, played")
    assert [t for t, _, _ in completed] == ["Level completed."]


@needs_game
def test_live_play_next_plays_two_puzzles_in_a_row_through_the_game_menu(display, tmp_path):
    """``--next``: Only 18 Steps played; its scores dialog closed, the game's next puzzle
    (Daisy) picked through its Change Puzzle menu and played; each confirmed by the game
    (its scores dialog opens again after the second one)."""
    with desktop("openbox"), gnome_klotski(display, tmp_path, 0, (600, 500)):
        live = puzzlepilot("live", "--game", "klotski", "--window", "Klotski", "--play", "--hints", "none",
                           "--levels", "2", "--next", "--speed", "2")
        try:
            out, err = live.communicate(timeout=150)
        finally:
            live.kill()
        assert live.returncode == 0, err
        completed = wait_until(lambda: find_windows("Level completed"), "the game's 'Level completed.'", timeout=10)
        scores = wait_until(lambda: find_windows("Congratulations"), "the game's scores dialog", timeout=10)
    lines = out.splitlines()[1:]
    assert [line.split(":")[0] for line in lines] == ["level 1", "next puzzle", "level 2"], out
    assert lines[1] == "next puzzle: Daisy"
    assert all(line.endswith(" moves, played") for line in (lines[0], lines[2]))
    assert [t for t, _, _ in completed] == ["Level completed."] and len(scores) == 1


@needs_game
def test_live_play_goes_on_with_the_puzzle_the_player_picks_mid_play(display, tmp_path):
    """While ``live --play`` plays Only 18 Steps, the player picks the next puzzle in the
    game's menu (keys at a player's pace): live sees the board is another puzzle, drops the
    old plan and plays the one on show, and the game says it is completed."""
    board = Board.from_text(ONLY_18_STEPS).relabelled()
    with desktop("openbox"), gnome_klotski(display, tmp_path, 0, (600, 500)) as title:
        live = puzzlepilot("live", "--game", "klotski", "--window", "Klotski", "--play", "--hints", "none",
                           "--levels", "1", "--speed", "0.5")
        try:
            wait_until(lambda: (now := read(title)) is not None and layout(now) != layout(board),
                       "a move of Only 18 Steps played", timeout=30, every=0.1)
            next_by_hand(title)
            out, err = live.communicate(timeout=120)
        finally:
            live.kill()
        assert live.returncode == 0, err
        completed = wait_until(lambda: find_windows("Level completed"), "the game's 'Level completed.'", timeout=10)
    lines = out.splitlines()[1:]
    assert len(lines) == 2 and lines[0].startswith("level 1: another puzzle came on show after move "), out
    assert lines[1].startswith("level 1: klotski ") and lines[1].endswith(" moves, played")
    assert [t for t, _, _ in completed] == ["Level completed."]


def next_by_hand(title: str) -> None:
    """The player takes the next puzzle, at a player's pace: Ctrl+N opens Change Puzzle, Down
    takes the next, Escape closes it; again while the window keeps ``title`` (live's drag
    may close the menu first: a press beside it closes it)."""
    for _ in range(4):
        if not find_windows(title):
            return
        xdotool("key", "ctrl+n", "sleep", 0.6, "key", "Down", "sleep", 0.3, "key", "Escape", "sleep", 0.3)
    assert not find_windows(title), "the game's menu did not take the player's keys"


@needs_game
def test_step_hints_follow_the_puzzle_the_player_picks(display, tmp_path):
    """``live --hints step``: the player takes another puzzle; live reads it as a new level
    and draws its first step on the piece it moves (Daisy's answer, 28 moves)."""
    with desktop("openbox"), gnome_klotski(display, tmp_path, 0, (600, 500)) as title:
        live = puzzlepilot("live", "--game", "klotski", "--window", "Klotski", "--hints", "step")
        lines = Lines(live.stdout)
        try:
            assert lines.wait_for(lambda line: line.startswith("level 1:"), timeout=30), lines.lines
            next_by_hand(title)
            second = lines.wait_for(lambda line: line.startswith("level 2:"), timeout=30)
            shot = arrow_shot()
        finally:
            live.terminate()
            live.wait(timeout=10)
        # read with the hints gone
        found = wait_until(lambda: reading("Daisy"), "Daisy read from the window", timeout=10, every=0.2)
    assert second is not None and second.endswith(", 28 moves, hints shown"), lines.lines
    assert_on_first_move(found, shot)


def screen_box(found, cells: set[tuple[int, int]], pad: float) -> tuple[float, float, float, float]:
    """The screen box (x0, y0, x1, y1) of board cells as the reading places them, ``pad``
    cells wider all round."""
    cols, pitch = found.geometry.cols, found.geometry.pitch[0]
    xs, ys = zip(*(found.cells[r * cols + c] for r, c in cells))
    return (min(xs) - (0.5 + pad) * pitch, min(ys) - (0.5 + pad) * pitch,
            max(xs) + (0.5 + pad) * pitch, max(ys) + (0.5 + pad) * pitch)


@needs_game
@pytest.mark.parametrize("kind, maximized", [("overlay", False), ("step", True)])
def test_hints_draw_the_next_move_over_its_piece_on_the_game_board(display, tmp_path, kind, maximized):
    """``live --hints overlay`` (at the default size) and ``step`` (maximised) over Only 18
    Steps: the arrow (its colour, grabbed from the screen) starts on the piece the answer's
    first move moves, as the window's reading places it, and stays within the cells that
    piece crosses."""
    with desktop("openbox"), gnome_klotski(display, tmp_path, 0, (600, 500), maximized) as title:
        found = wait_until(lambda: reading(title), "a board read from the window", timeout=10, every=0.2)
        live = puzzlepilot("live", "--game", "klotski", "--window", "Klotski", "--hints", kind)
        try:
            assert Lines(live.stdout).wait_for(lambda line: line.startswith("level 1:"), timeout=30), \
                live.stderr.read() if live.poll() is not None else "no level line"
            shot = arrow_shot()
        finally:
            live.terminate()
            live.wait(timeout=10)
    assert_on_first_move(found, shot)


def arrow_shot() -> np.ndarray:
    """The screen once a hint arrow shows on it (the last grab, else)."""
    screen = monitor_source(1)
    try:
        return wait_for_pixels(screen.grab, lambda image: arrow(image).sum() > 50, timeout=5)
    finally:
        screen.close()


def assert_on_first_move(found, shot: np.ndarray) -> None:
    """The arrow in ``shot`` starts on the piece the first move of the reading's answer
    moves, and stays within the cells that piece crosses."""
    move = solve(found.board).solution[0]
    piece = found.board.piece(move["piece"])
    cells, crossed, dr, dc = set(piece.cells()), set(piece.cells()), 0, 0
    for step in move["path"]:       # every cell the piece covers on its way
        dr, dc = dr + STEPS[step][0], dc + STEPS[step][1]
        crossed |= {(r + dr, c + dc) for r, c in cells}
    ys, xs = np.nonzero(arrow(shot))
    assert len(xs) > 50, "no hint drawn"
    x0, y0, x1, y1 = screen_box(found, cells, 0.0)
    assert ((xs >= x0) & (xs < x1) & (ys >= y0) & (ys < y1)).sum() > 10, "the arrow does not start on its piece"
    x0, y0, x1, y1 = screen_box(found, crossed, 0.25)
    assert ((xs >= x0) & (xs < x1) & (ys >= y0) & (ys < y1)).all(), "the arrow goes beyond the cells of its move"


def arrow(image: np.ndarray) -> np.ndarray:
    """Where a grab shows the hint arrow's colour."""
    return (np.abs(image.astype(np.int16) - bgr("#%02x%02x%02x" % ARROW)) <= 24).all(axis=2)


@needs_game
def test_the_game_menu_gives_no_puzzle_after_its_last_and_is_left_closed(display, tmp_path):
    """What ``--next`` meets after the game's last puzzle (Sunshine, which the solver does
    not answer in a test's time): the menu's Down changes nothing, so none is picked, and
    the menu is closed again (the board reads as before)."""
    with desktop("openbox"), launch(tmp_path, PUZZLE_COUNT - 1) as (title, wid):
        before = wait_until(lambda: read(title), "a board read from the window", timeout=10, every=0.2)
        window = window_source(window_id=wid)
        try:
            picked = pick_next(MENUS[0], window, open_driver(window, log=lambda _: None),
                               lambda *_: pytest.fail("no dialog is open"), window.grab)
            assert picked is None and window.current_title() == title
        finally:
            window.close()
        assert wait_until(lambda: read(title), "the board again", timeout=5, every=0.2).to_text() == before.to_text()
