"""Issue 3's trial under Xvfb: a window showing a real screenshot of the one-stroke game
(level 643, not the practice board) records the mouse while ``puzzlepilot live --play``
plays it. The recorded drag, mapped to the cells the vision reads in the same picture,
must be one valid path from the cat, judged by the rule checker; the overlay must let
clicks through to the window."""
from __future__ import annotations

import signal
import subprocess
from pathlib import Path

import numpy as np
import pytest

from solvers.onestroke import validate
from tests.display import REPO, TkWindow, puzzlepilot, wait_for_pixels
from vision.capture import Rect
from vision.common import Parse, load_image
from vision.onestroke import parse

LEVEL = REPO / ".." / "shared" / "real" / "onestroke" / "level643.png"
SCALE = 0.4            # 1080×1920 → 432×768, inside the 1280×800 Xvfb screen
TITLE = "one-stroke level 643"
AT = (60, 16)


def show_real(tk_window, tmp_path: Path, real: Path, scale: float, title: str) -> tuple[TkWindow, np.ndarray]:
    """A window showing a real screenshot scaled to fit the screen, once it is drawn,
    and the pixels it shows."""
    import cv2

    from vision.capture import region_source

    if not real.is_file():
        pytest.skip("the real screenshots (../shared/real) are not here")
    image = load_image(real)
    if scale != 1:
        image = cv2.resize(image, None, fx=scale, fy=scale, interpolation=cv2.INTER_AREA)
    path = tmp_path / real.name
    cv2.imwrite(str(path), image)
    height, width = image.shape[:2]
    window = tk_window(title, Rect(AT[0], AT[1], width, height), "#f9f9f9")
    window.send(f"image {path}")
    screen = region_source(window.rect)
    try:
        shown = wait_for_pixels(screen.grab, lambda grab: np.array_equal(grab, image))
    finally:
        screen.close()
    assert np.array_equal(shown, image), "the window does not show the level"
    return window, image


@pytest.fixture
def level(tk_window, tmp_path: Path) -> tuple[TkWindow, np.ndarray]:
    """The window showing level 643, and the pixels it shows."""
    return show_real(tk_window, tmp_path, LEVEL, SCALE, TITLE)


@pytest.fixture
def game(level: tuple[TkWindow, np.ndarray]) -> tuple[TkWindow, Parse]:
    """The window showing the level, and the level's cells on the screen."""
    window, image = level
    return window, parse(image).shifted(*AT)


def _live(*argv: str) -> subprocess.Popen:
    return puzzlepilot("live", *argv)


def drags(events: list[tuple[str, ...]]) -> list[list[tuple[int, int]]]:
    """The pointer positions of each press … release the window recorded."""
    out: list[list[tuple[int, int]]] = []
    for name, *where in events:
        if name not in ("press", "motion", "release"):
            continue
        if name == "press":
            out.append([])
        assert out, f"{name} before any press"
        out[-1].append((int(where[0]), int(where[1])))
    return out


def visited(points: list[tuple[int, int]], screen: Parse, near: float = 0.75) -> list[list[int]]:
    """The grid places a drag went through, in order: each point taken to the nearest
    place centre (holes included, so a drag over a hole shows), repeats collapsed. With
    ``near`` below 0.5, points farther than that share of the pitch from every centre (on
    the way between places, a diagonal's middle) are passed over; otherwise such a point
    fails the test."""
    centres = np.array(screen.cells)
    cols = screen.board.cols
    pitch = np.min(screen.geometry.pitch)
    path: list[list[int]] = []
    for point in points:
        distance = np.hypot(*(centres - point).T)
        k = int(np.argmin(distance))
        if distance[k] > near * pitch:
            assert near < 0.5, f"{point} is off the board"
            continue
        cell = [k // cols, k % cols]
        if not path or path[-1] != cell:
            path.append(cell)
    return path


@pytest.mark.parametrize("hints", ["overlay", "none"])
def test_live_play_draws_one_valid_path_through_the_real_level(game, hints: str) -> None:
    window, screen = game
    # The overlay run is the trial as written (default speed and wait); the other only
    # checks the drag does not depend on the overlay, so it goes and gives up faster.
    extra = ["--hints", hints] if hints == "overlay" else ["--hints", hints, "--speed", "3", "--confirm", "1"]
    player = _live("--window", TITLE, "--play", "--levels", "1", *extra)
    try:
        out, err = player.communicate(timeout=40)
    finally:
        player.kill()
    # A picture never moves on to a next level: played, checked, played again, refused.
    assert player.returncode == 1, err
    assert "did not change after playing it; trying again" in out
    assert err.strip().endswith("did not change after playing it twice; stopping "
                                "(is the game window in front, and does the mouse reach it?)"), err
    played = drags(window.settle())
    assert len(played) == 2
    paths = [visited(points, screen) for points in played]
    assert any(validate(screen.board, path) == [] for path in paths), \
        [validate(screen.board, path) for path in paths]
    assert all(path[0] == list(screen.board.start) for path in paths)


START_DISC = (67, 160, 46)   # overlay.onestroke.START as a grab (BGR) shows it


def start_disc(screen: Parse, dx: int = 0, dy: int = 0) -> tuple[int, int]:
    """A screen point on the start disc the hints draw (beside its number), the game moved by (dx, dy)."""
    row, col = screen.board.start
    x, y = screen.cells[row * screen.board.cols + col]
    return round(x) - 6 + dx, round(y) + dy


def shows_start_disc(x: int, y: int, wait: float = 3.0) -> bool:
    """Whether the start disc appears at (x, y) within ``wait`` seconds."""
    from vision.capture import region_source

    probe = region_source(Rect(x, y, 1, 1))
    try:
        pixel = wait_for_pixels(probe.grab, lambda px: tuple(px[0, 0]) == START_DISC, wait)
    finally:
        probe.close()
    return tuple(pixel[0, 0]) == START_DISC


@pytest.fixture
def hinting(game):
    """``live`` showing hints (no play) over the game window, stopped with Ctrl-C after the test."""
    player = _live("--window", TITLE, "--levels", "1000")
    try:
        assert player.stdout.readline().startswith("watching ")
        assert player.stdout.readline().rstrip().endswith("hints shown")
        yield player
        assert player.poll() is None, player.communicate()
        player.send_signal(signal.SIGINT)
        player.communicate(timeout=10)
    finally:
        player.kill()


def test_a_click_through_the_shown_hints_reaches_the_game_window(game, hinting) -> None:
    window, screen = game
    x, y = start_disc(screen)
    assert shows_start_disc(x, y), "the start disc is not drawn over the cat"
    from vision.capture import xlib_quiet

    with xlib_quiet():
        import pyautogui
    pyautogui.PAUSE = 0.0
    pyautogui.click(x, y)
    assert window.wait_for(lambda e: e[0] == "press") == ("press", str(x), str(y))
    assert window.wait_for(lambda e: e[0] == "release") == ("release", str(x), str(y))


def test_hints_follow_the_game_window_when_it_moves(game, hinting) -> None:
    window, screen = game
    assert shows_start_disc(*start_disc(screen))
    window.send(f"move {AT[0] + 500} {AT[1] + 10}")
    assert shows_start_disc(*start_disc(screen, 500, 10)), "the hints did not follow the window"
    assert not shows_start_disc(*start_disc(screen), wait=0), "the hints stayed behind"


@pytest.mark.parametrize("where", ["window", "region"])
def test_the_hint_window_shows_the_annotated_capture_beside_the_game(level, game, where: str) -> None:
    import cv2

    from overlay.draw import render
    from overlay.onestroke import hints
    from overlay.window import WINDOW_MAX
    from solvers.onestroke import solve
    from vision.capture import find_windows, region_source

    window, screen = game
    source = ["--window", TITLE] if where == "window" else ["--region", window.rect.to_text()]
    player = _live(*source, "--hints", "window", "--levels", "1000")
    try:
        assert player.stdout.readline().startswith("watching ")
        assert player.stdout.readline().rstrip().endswith("hints shown")
        (_, shown, _), = find_windows("puzzlepilot hints")
        assert shown.intersect(window.rect) is None, f"the hint window {shown} covers the game"
        local = screen.shifted(-AT[0], -AT[1])
        expected = render(level[1], hints(local, solve(local.board).solution))
        scale = WINDOW_MAX[1] / expected.shape[0]
        expected = cv2.resize(expected, (round(expected.shape[1] * scale), WINDOW_MAX[1]), interpolation=cv2.INTER_AREA)
        grab = region_source(shown)
        try:
            picture = wait_for_pixels(grab.grab, lambda im: _inner(im, expected) is not None)
        finally:
            grab.close()
        inner = _inner(picture, expected)
        assert inner is not None and np.abs(inner.astype(int) - expected).mean() < 2
        player.send_signal(signal.SIGINT)
        player.communicate(timeout=10)
    finally:
        player.kill()


def _inner(picture: np.ndarray, expected: np.ndarray) -> np.ndarray | None:
    """The part of a window grab inside the label's border, when it is the picture's size."""
    dy, dx = picture.shape[0] - expected.shape[0], picture.shape[1] - expected.shape[1]
    if dy < 0 or dx < 0 or dy > 8 or dx > 8:
        return None
    return picture[dy // 2:dy // 2 + expected.shape[0], dx // 2:dx // 2 + expected.shape[1]]


def test_a_hint_window_with_no_room_beside_the_capture_is_refused(display: str) -> None:
    player = _live("--monitor", "1", "--hints", "window")
    out, err = player.communicate(timeout=20)
    assert player.returncode == 2 and err.count("\n") == 1 and "no room on the screen" in err, err


LYNE_B25 = REPO / ".." / "shared" / "real" / "lyne" / "lyner_b25.png"


def test_live_play_draws_the_lyne_paths_of_a_real_level_by_the_rules(tk_window, tmp_path: Path) -> None:
    """Issue 4's trial: LYNE level B 25 (a real capture) in a window that records the
    mouse; every shape's drag, read back as the nodes it passes, must obey the rules."""
    from solvers.lyne import validate as lyne_rules
    from vision.lyne import parse as lyne_parse

    window, image = show_real(tk_window, tmp_path, LYNE_B25, 1.0, "lyne level B25")
    screen = lyne_parse(image).shifted(*AT)
    player = _live("--game", "lyne", "--window", "lyne level B25", "--play", "--levels", "1",
                   "--hints", "none", "--speed", "3", "--confirm", "1")
    try:
        out, err = player.communicate(timeout=40)
    finally:
        player.kill()
    assert player.returncode == 1 and "did not change after playing it twice" in err, err
    played = drags(window.settle())
    board = screen.board
    assert len(played) == 2 * len(board.shapes)        # every shape, played twice
    # Points on the way between nodes (a diagonal's middle is as near to four) are passed over.
    paths = [visited(points, screen, near=0.3) for points in played[:len(board.shapes)]]
    solution = {board.grid[path[0][0]][path[0][1]].lower(): path for path in paths}
    assert sorted(solution) == board.shapes and lyne_rules(board, solution) == [], solution
