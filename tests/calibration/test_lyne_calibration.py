"""Calibrating LYNE from one screenshot of the game window, then reading game windows
too small to dominate the screen (0.5× to 1× on 1080p to 4K desktops) with the profile."""
from __future__ import annotations

import io
from pathlib import Path

import cv2
import numpy as np
import pytest

from calibration import lyne as learner
from calibration import profile as profiles
from puzzlepilot.cli import main
from puzzlepilot.scenes.lyne import PALETTES, Truth, on_desktop, render
from solvers.lyne import Board
from vision.common import NoBoardFound
from vision.lyne import parse
from vision.profile import Profile, ProfileError

SHOT_BOARD = "TSD/2S2/tsd/D2T"
WINDOW = (800, 600)


@pytest.fixture(autouse=True)
def store(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    monkeypatch.setenv("PUZZLEPILOT_PROFILES", str(tmp_path / "store"))
    return tmp_path / "store"


def run(*argv: object) -> tuple[int, str, str]:
    out, err = io.StringIO(), io.StringIO()
    status = main([str(a) for a in argv], stdout=out, stderr=err)
    return status, out.getvalue(), err.getvalue()


def board(text: str) -> Board:
    return Board.from_text(text.replace("/", "\n"))


def calibrated(tmp_path: Path, palette: str) -> Profile:
    img, _ = render(board(SHOT_BOARD), PALETTES[palette], *WINDOW)
    shot = tmp_path / "shot.png"
    cv2.imwrite(str(shot), img)
    status, _, err = run("calibrate", "lyne", shot, "--name", "p", "--board", SHOT_BOARD)
    assert (status, err) == (0, ""), err
    return profiles.load("p")


def small_window(text: str, palette: str, k: float, desktop: tuple[int, int]) -> tuple[np.ndarray, str]:
    """A game window k times the calibration size near the top right of a desktop."""
    w, h = round(WINDOW[0] * k), round(WINDOW[1] * k)
    win, truth = render(board(text), PALETTES[palette], w, h)
    img, truth = on_desktop(win, truth, *desktop, (desktop[0] - w - 150, 80))
    return img, truth.board


@pytest.mark.parametrize("palette", ["original", "deep space", "tangerine"])
def test_calibrating_records_the_background_and_the_shape_colours(tmp_path: Path, palette: str) -> None:
    prof = calibrated(tmp_path, palette)
    pal = PALETTES[palette]
    assert np.abs(np.array(prof.get("background_rgb", list)) - pal.background).max() <= 3
    assert set(prof.get("colours", dict)) == {"t", "d", "s"}
    assert {"hub", "node_t", "terminal_t"} <= set(prof.get("templates", dict))


@pytest.mark.parametrize("text, k, desktop", [
    ("T.T/ttt", 0.5, (1920, 1080)), ("TD/2d/TD", 0.6, (2560, 1440)), (SHOT_BOARD, 0.5, (3840, 2160)),
    (SHOT_BOARD, 1.0, (3840, 2160)),
])
def test_the_profile_reads_game_windows_from_half_the_size_on_big_desktops(tmp_path: Path, text: str, k: float,
                                                                          desktop: tuple[int, int]) -> None:
    prof = calibrated(tmp_path, "tangerine")
    image, truth = small_window(text, "tangerine", k, desktop)
    assert parse(image, prof).board.to_text().replace("\n", "/") == truth


def test_a_window_too_small_to_dominate_the_screen_needs_the_profile(tmp_path: Path) -> None:
    prof = calibrated(tmp_path, "original")
    image, truth = small_window(SHOT_BOARD, "original", 0.5, (3840, 2160))
    with pytest.raises(NoBoardFound):
        parse(image)
    assert parse(image, prof).board.to_text().replace("\n", "/") == truth


def test_check_exits_1_naming_the_differing_place(tmp_path: Path) -> None:
    calibrated(tmp_path, "deep space")
    image, truth = small_window("TD/2d/TD", "deep space", 0.5, (1920, 1080))
    path = tmp_path / "small.png"
    cv2.imwrite(str(path), image)
    good, bad = tmp_path / "good.txt", tmp_path / "bad.txt"
    good.write_text(truth.replace("/", "\n"))
    bad.write_text("TD\n3d\nTD")
    assert run("calibrate", "--check", "p", path, "--boards", good)[0] == 0
    status, out, _ = run("calibrate", "--check", "p", path, "--boards", bad)
    assert status == 1 and "(1,0) 3→2" in out


def test_the_background_click_teaches_the_same_colour_as_the_board(tmp_path: Path) -> None:
    prof = calibrated(tmp_path, "original")
    img, _ = render(board(SHOT_BOARD), PALETTES["original"], *WINDOW)
    data, _ = learner.learn(img, region=(0, 0, *WINDOW), examples={learner.KINDS[0]: (10, WINDOW[1] // 2)})
    assert data["background_rgb"] == prof.get("background_rgb", list) and data["board"] == SHOT_BOARD


def test_a_background_click_on_a_node_is_refused(tmp_path: Path) -> None:
    img, truth = render(board(SHOT_BOARD), PALETTES["original"], *WINDOW)
    x, y = truth.cells[0]
    with pytest.raises(ProfileError, match="background"):
        learner.learn(img, region=(0, 0, *WINDOW), examples={learner.KINDS[0]: (round(x), round(y))})


@pytest.mark.parametrize("field, value", [("background_rgb", [1, 2]), ("background_rgb", "teal"), ("game", "klotski")])
def test_malformed_fields_are_refused_naming_the_field(field: str, value: object) -> None:
    data = {"background_rgb": [238, 120, 60], field: value}
    with pytest.raises(ProfileError, match=f"'{field}'"):
        parse(np.zeros((64, 64, 3), np.uint8) + 100, Profile("bad", data.get("game", "lyne"), Path("."), data))


REAL = Path(__file__).resolve().parents[2] / ".." / "shared" / "real" / "lyne"


@pytest.mark.skipif(not (REAL / "lyner_b25.png").is_file(), reason="the real screenshots are not here")
def test_a_profile_from_a_real_capture_finds_another_at_half_size_on_a_4k_desktop() -> None:
    status, _, err = run("calibrate", "lyne", REAL / "lyner_b25.png", "--name", "real", "--board", SHOT_BOARD)
    assert (status, err) == (0, "")
    capture = cv2.imread(str(REAL / "lyner_a17.png"))
    half = cv2.resize(capture, None, fx=0.5, fy=0.5, interpolation=cv2.INTER_AREA)
    desk, _ = on_desktop(half, Truth("TD/2d/TD", (), 1.0), 3840, 2160, (2500, 200))
    with pytest.raises(NoBoardFound):
        parse(desk)
    assert parse(desk, profiles.load("real")).board.to_text().replace("\n", "/") == "TD/2d/TD"
