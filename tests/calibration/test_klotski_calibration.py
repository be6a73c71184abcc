"""Calibrating Klotski from one screenshot, then reading other boards at other sizes,
on desktops and as JPEG with the profile."""
from __future__ import annotations

from pathlib import Path

import cv2
import numpy as np
import pytest

from calibration import klotski as learner
from calibration import profile as profiles
from puzzlepilot.scenes.klotski import STYLES, render
from puzzlepilot.scenes.paint import render_desktop
from solvers.klotski import Board, generate
from vision.klotski import parse
from vision.profile import Profile, ProfileError
from tests.helpers import run_cli as run

CELL = 60
SHOT = generate(5, 4, 3)


@pytest.fixture(autouse=True)
def store(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    monkeypatch.setenv("PUZZLEPILOT_PROFILES", str(tmp_path / "store"))
    return tmp_path / "store"


def calibrated(tmp_path: Path, style: str) -> Profile:
    """``calibrate klotski`` on a plain screenshot, given the board in the solver's own
    lettering (not the vision's)."""
    img, _ = render(SHOT, style=style, cell=CELL)
    shot = tmp_path / "shot.png"
    cv2.imwrite(str(shot), img)
    assert SHOT.to_text() != SHOT.relabelled().to_text()
    status, out, err = run(["calibrate", "klotski", shot, "--name", style, "--board", SHOT.to_text().replace("\n", "/")])
    assert (status, err) == (0, ""), err
    return profiles.load(style)


def on_desktop(board: Board, style: str, cell: float, size: tuple[int, int], seed: int) -> tuple[np.ndarray, str]:
    img, truth = render(board, style=style, cell=cell)
    desk = render_desktop(*size, seed)
    h, w = img.shape[:2]
    desk[100:100 + h, 700:700 + w] = img
    return desk, truth.board


@pytest.mark.parametrize("style", STYLES)
def test_calibrating_records_the_board_colour_and_the_target(tmp_path: Path, style: str) -> None:
    prof = calibrated(tmp_path, style)
    assert prof.get("target", list) == [2, 2]
    assert prof.get("board", str) == SHOT.relabelled().to_text().replace("\n", "/")
    assert set(prof.get("templates", dict)) == {"empty", "target"}


@pytest.mark.parametrize("cell, size, seed", [
    (45, (1920, 1080), 1), (60, (2560, 1440), 2), (60, (3840, 2160), 60), (90, (1920, 1080), 3), (120, (2560, 1440), 4),
])
def test_the_profile_reads_other_boards_on_desktops_from_three_quarters_to_twice_the_size(
        tmp_path: Path, cell: int, size: tuple[int, int], seed: int) -> None:
    prof = calibrated(tmp_path, "named")
    image, truth = on_desktop(generate(5, 4, seed), "named", cell, size, seed)
    assert parse(image, prof).board.to_text().replace("\n", "/") == truth


def test_the_profile_reads_a_board_at_six_tenths_of_the_size_as_jpeg(tmp_path: Path) -> None:
    prof = calibrated(tmp_path, "flat")
    img, truth = render(generate(5, 4, 9), style="flat", cell=0.6 * CELL)
    img = cv2.imdecode(cv2.imencode(".jpg", img, [cv2.IMWRITE_JPEG_QUALITY, 75])[1], cv2.IMREAD_COLOR)
    assert parse(img, prof).board.to_text().replace("\n", "/") == truth.board


def test_check_reports_the_differing_cells_and_exits_1(tmp_path: Path) -> None:
    calibrated(tmp_path, "flat")
    img, truth = render(generate(5, 4, 8), style="flat", cell=80)
    path = tmp_path / "other.png"
    cv2.imwrite(str(path), img)
    good, bad = tmp_path / "good.txt", tmp_path / "bad.txt"
    good.write_text(truth.board.replace("/", "\n"))
    rows = truth.board.split("/")
    rows[0] = "." + rows[0][1:] if rows[0][0] != "." else "A" + rows[0][1:]
    bad.write_text("\n".join(rows))
    assert run(["calibrate", "--check", "flat", path, "--boards", good])[0] == 0
    status, out, _ = run(["calibrate", "--check", "flat", path, "--boards", bad])
    assert status == 1 and "matches" not in out and "(0,0)" in out


def _picks(style: str) -> tuple[np.ndarray, tuple[int, int, int, int], dict[str, tuple[int, int]]]:
    img, truth = render(SHOT, style=style, cell=CELL)
    read = SHOT.relabelled()
    taken = {cell for p in read.pieces for cell in p.cells()}
    empty = next((r, c) for r in range(read.rows) for c in range(read.cols) if (r, c) not in taken)
    target = read.piece(read.target)

    def centre(r: int, c: int) -> tuple[int, int]:
        x, y = truth.cells[r * read.cols + c]
        return round(x), round(y)

    xs = [x for x, _ in truth.cells]
    ys = [y for _, y in truth.cells]
    region = (round(min(xs) - CELL), round(min(ys) - CELL), round(max(xs) - min(xs) + 2 * CELL),
              round(max(ys) - min(ys) + 2 * CELL))
    return img, region, {"an empty cell": centre(*empty), "the target piece": centre(target.row, target.col)}


def test_picks_teach_the_same_profile_as_the_board(tmp_path: Path) -> None:
    prof = calibrated(tmp_path, "wooden")
    img, region, examples = _picks("wooden")
    data, templates = learner.learn(img, region=region, examples=examples)
    assert data["target"] == [2, 2] and data["board"] == prof.get("board", str)
    assert np.abs(np.array(data["board_colour"]) - prof.get("board_colour", list)).max() <= 2


def test_a_target_click_off_the_pieces_is_refused() -> None:
    img, region, examples = _picks("flat")
    examples["the target piece"] = examples["an empty cell"]
    with pytest.raises(ProfileError, match="target"):
        learner.learn(img, region=region, examples=examples)


def test_a_board_the_screenshot_does_not_show_is_refused(tmp_path: Path, store: Path) -> None:
    img, _ = render(SHOT, style="flat", cell=CELL)
    shot = tmp_path / "shot.png"
    cv2.imwrite(str(shot), img)
    status, _, err = run(["calibrate", "klotski", shot, "--name", "nope", "--board", "CC.A/CC.A/BBDD"])
    assert status == 2 and err.count("\n") == 1 and not (store / "nope").exists()


def test_the_profile_records_the_count_of_empty_cells(tmp_path: Path) -> None:
    assert calibrated(tmp_path, "named").get("empty_cells", int) == 2


@pytest.mark.parametrize("style", STYLES)
@pytest.mark.parametrize("seed", [3, 11])
def test_the_profile_reads_half_size_jpeg_boards_on_a_desktop(tmp_path: Path, style: str, seed: int) -> None:
    """Issue 8: 30 px cells (half the calibrated size, gaps of 2-3 px), JPEG 75, on a
    1080p desktop where the board's colour is too rare to be guessed."""
    prof = calibrated(tmp_path, style)
    image, truth = on_desktop(generate(5, 4, seed), style, 0.5 * CELL, (1920, 1080), seed)
    shot = cv2.imdecode(cv2.imencode(".jpg", image, [cv2.IMWRITE_JPEG_QUALITY, 75])[1], cv2.IMREAD_COLOR)
    assert parse(shot, prof).board.to_text().replace("\n", "/") == truth


REAL = Path(__file__).resolve().parents[2] / ".." / "shared" / "real" / "klotski"
SWORD = REAL / "app_sword_standing.png"


@pytest.mark.skipif(not SWORD.is_file(), reason="no real Klotski captures in ../shared/real")
def test_a_real_app_read_by_its_edges_teaches_its_floor_and_pitch_and_reads_at_other_sizes(tmp_path: Path) -> None:
    """No colour of the real app's screenshot reads as its board (portrait tiles): the
    profile comes from the reading by edges and keeps the floor and the pitch's share of
    the width; the screenshot then reads with it at 0.6× and 1.5× its size."""
    board = "ACCB/ACCB/DEEF/DGHF/I..J"
    status, out, err = run(["calibrate", "klotski", SWORD, "--name", "sword", "--board", board])
    assert (status, err) == (0, ""), err
    prof = profiles.load("sword")
    assert len(prof.get("floor", list)) == 3 and prof.get("board_colour", list, None) is None
    assert 0.2 < prof.get("pitch_share", float) < 0.25
    image = cv2.imread(str(SWORD), cv2.IMREAD_COLOR)
    for scale in (0.6, 1.5):
        sized = cv2.resize(image, None, fx=scale, fy=scale, interpolation=cv2.INTER_AREA)
        assert parse(sized, prof).board.to_text().replace("\n", "/") == board
    shot = tmp_path / "small.png"
    cv2.imwrite(str(shot), cv2.resize(image, None, fx=0.6, fy=0.6, interpolation=cv2.INTER_AREA))
    status, out, err = run(["calibrate", "--check", "sword", shot])
    assert status == 0 and "small.png" in out, (out, err)
