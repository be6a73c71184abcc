"""Calibrating one-stroke on a look the default vision cannot read (the scenes' "night"
theme: dark background, teal cells), then reading other boards at other sizes with it."""
from __future__ import annotations

import json
import os
import subprocess
from dataclasses import dataclass
from pathlib import Path

import cv2
import numpy as np
import pytest
from hypothesis import HealthCheck, example, given, settings
from hypothesis import strategies as st

from calibration import onestroke as learner
from calibration import profile as profiles
from puzzlepilot.games import GAMES
from puzzlepilot.live import New, Watcher
from puzzlepilot.scenes.onestroke import THEMES, crop_board, render_phone, tight, video_frame
from puzzlepilot.scenes.paint import rounded_rect
from solvers.onestroke import Board, generate, solve, validate
from vision.common import NoBoardFound
from vision.onestroke import look_of, parse
from vision.profile import Profile, ProfileError
from tests.display import calibrate_in_window
from tests.helpers import MISSING, assert_field_refused
from tests.helpers import run_cli as run

REPO = Path(__file__).resolve().parents[2]
SHOT_BOARD = "##S##/#.###/#####/##.##"
SHOT_SIZE = (720, 1280)


@dataclass(frozen=True)
class Shot:
    """A rendered night screenshot on disk and the board it shows."""

    path: Path
    board: str


def board(text: str) -> Board:
    return Board.from_text(text.replace("/", "\n"))


def night(b: Board, width: int, height: int, cat: str = "orange", share: float = 0.0, seed: int = 0,
          crop: bool = False) -> tuple[np.ndarray, str]:
    """A night-theme capture, with ``share`` of the solution's path drawn."""
    path = solve(b).solution if share else []
    visited = [tuple(p) for p in path[: max(2, round(len(path) * share))]] if share else []
    img, truth = render_phone(b, width=width, height=height, cat=cat, visited=visited, seed=seed, theme="night")
    if crop:
        img, truth = crop_board(img, truth)
    return img, truth.board


def write(folder: Path, name: str, img: np.ndarray, quality: int | None = None) -> Path:
    path = folder / name
    cv2.imwrite(str(path), img, [cv2.IMWRITE_JPEG_QUALITY, quality] if quality else [])
    return path


# Other boards, cat colours, half-drawn paths, crops, JPEG, 0.5× to 2× the calibration width.
OTHERS = {
    "half_6x6.png": (".####./######/##S.##/######/.####.", 360, 640, "pink", 0.0, None, False),
    "double_7x7.png": ("#######/#.###.#/###S###/##...##/#######", 1440, 2560, "blue", 0.0, None, False),
    "drawn_jpeg.jpg": ("S####/##.##/#####/###.#/#####", 720, 1280, "green", 0.5, 70, False),
    "crop_small.jpg": ("####/#S.#/####", 540, 960, "purple", 0.0, 80, True),
    "big_10x9.jpg": ("", 1080, 1920, "tan", 0.3, 85, False),
}


@pytest.fixture(scope="module")
def shots(tmp_path_factory: pytest.TempPathFactory) -> dict[str, Shot]:
    folder = tmp_path_factory.mktemp("night")
    img, text = night(board(SHOT_BOARD), *SHOT_SIZE)
    out = {"shot.png": Shot(write(folder, "shot.png", img), text)}
    for name, (text, w, h, cat, share, quality, crop) in OTHERS.items():
        b = board(text) if text else tight(generate(10, 9, 77, fill=0.7))
        img, truth = night(b, w, h, cat, share, seed=len(out), crop=crop)
        out[name] = Shot(write(folder, name, img, quality), truth)
    return out


@pytest.fixture(scope="module")
def night_profile(shots: dict[str, Shot], store: Path) -> Profile:
    """The profile made by ``calibrate onestroke shot.png --board ...``."""
    with pytest.MonkeyPatch.context() as env:
        env.setenv("PUZZLEPILOT_PROFILES", str(store))
        status, out, err = run(["calibrate", "onestroke", shots["shot.png"].path, "--name", "night", "--board", SHOT_BOARD])
        assert (status, err) == (0, ""), err
        assert "written" in out
        return profiles.load(store / "night")


# ---------------------------------------------------------------------------- the look

def test_the_default_vision_reads_the_night_look_by_its_cells_colour(shots: dict[str, Shot]) -> None:
    """Teal cells are no grey: with no profile they are found among the most common
    saturated colours, so the look reads as it does with its profile."""
    for shot in shots.values():
        assert parse(cv2.imread(str(shot.path))).board.to_text().replace("\n", "/") == shot.board


def test_dominant_colours_include_the_cell_colour(shots: dict[str, Shot]) -> None:
    colours = learner.dominant_colours(cv2.imread(str(shots["shot.png"].path)))
    teal = np.array([170, 150, 38])   # BGR of the night cells
    assert min(np.abs(np.array(c) - teal).max() for c in colours) <= 8


# ---------------------------------------------------------------------------- calibrate --board

def test_calibrating_with_the_board_records_the_look(night_profile: Profile) -> None:
    look = look_of(night_profile)
    assert np.abs(np.array(look.cell) - (170, 150, 38)).max() <= 3
    assert np.abs(np.array(night_profile.get("background_rgb", list)) - (24, 28, 48)).max() <= 3
    assert night_profile.get("board", str) == SHOT_BOARD
    assert night_profile.template("cell").shape[0] > 20 and night_profile.template("cat").shape[0] > 20
    x, y, w, h = night_profile.get("region", list)
    assert 0 <= x and x + w <= SHOT_SIZE[0] and 0 <= y and y + h <= SHOT_SIZE[1]


@pytest.mark.parametrize("name", list(OTHERS))
def test_the_profile_reads_other_boards_sizes_and_jpeg(night_profile: Profile, shots: dict[str, Shot], name: str) -> None:
    found = parse(cv2.imread(str(shots[name].path)), night_profile)
    assert found.board.to_text().replace("\n", "/") == shots[name].board


@settings(max_examples=12, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(rows=st.integers(3, 9), cols=st.integers(3, 9), seed=st.integers(0, 10_000),
       k=st.sampled_from([0.5, 0.75, 1.25, 1.5, 2.0]), quality=st.sampled_from([None, 65, 85]))
@example(rows=5, cols=3, seed=3, k=0.5, quality=65)    # JPEG tinted the 4 px gaps of one column past the tolerance
def test_any_board_at_half_to_twice_the_size_reads_with_the_profile(night_profile: Profile, rows: int, cols: int,
                                                                   seed: int, k: float, quality: int | None) -> None:
    b = tight(generate(rows, cols, seed, fill=0.7))
    img, truth = night(b, round(SHOT_SIZE[0] * k), round(SHOT_SIZE[1] * k), cat="pink", seed=seed)
    if quality:
        img = cv2.imdecode(cv2.imencode(".jpg", img, [cv2.IMWRITE_JPEG_QUALITY, quality])[1], cv2.IMREAD_COLOR)
    assert parse(img, night_profile).board.to_text().replace("\n", "/") == truth


def test_calibrating_with_a_board_the_screenshot_does_not_show_is_refused(shots: dict[str, Shot], store: Path) -> None:
    status, out, err = run(["calibrate", "onestroke", shots["shot.png"].path, "--name", "wrong", "--board", "S###/####"])
    assert status == 2 and out == ""
    assert err.count("\n") == 1 and "given board" in err
    assert not (store / "wrong").exists()


# ---------------------------------------------------------------------------- calibrate --check

def test_check_exits_0_when_every_board_matches(night_profile: Profile, shots: dict[str, Shot], tmp_path: Path) -> None:
    table = tmp_path / "boards.json"
    table.write_text(json.dumps({name: shot.board for name, shot in shots.items()}))
    status, out, _ = run(["calibrate", "--check", "night", *(s.path for s in shots.values()), "--boards", table])
    assert status == 0
    assert out.count("matches") == len(shots)


def test_check_exits_1_and_names_the_differing_cells_when_a_board_is_wrong(night_profile: Profile,
                                                                          shots: dict[str, Shot], tmp_path: Path) -> None:
    table = tmp_path / "boards.txt"
    wrong = "##S##\n#####\n#####\n##.##"       # (1, 1) is a hole in the screenshot
    right = shots["half_6x6.png"].board.replace("/", "\n")
    table.write_text(f"{wrong}\n\n{right}\n")
    status, out, _ = run(["calibrate", "--check", "night", shots["shot.png"].path, shots["half_6x6.png"].path, "--boards", table])
    assert status == 1
    first, second = [line for line in out.splitlines() if "confidence" in line]
    assert "(1,1) #→." in first and "matches" not in first
    assert "matches" in second


# ---------------------------------------------------------------------------- solve and live

def test_solve_with_the_profile_gives_a_path_that_follows_the_rules(night_profile: Profile,
                                                                   shots: dict[str, Shot]) -> None:
    shot = shots["drawn_jpeg.jpg"]
    status, out, err = run(["solve", shot.path, "--profile", "night", "--json"])
    assert (status, err) == (0, "")
    answer = json.loads(out)
    assert answer["solved"] and validate(board(shot.board), answer["solution"]) == []


def test_solve_with_another_games_profile_is_refused_naming_the_field(shots: dict[str, Shot], store: Path) -> None:
    profiles.save({"game": "lyne", "name": "deep"}, {}, store / "deep")
    status, _, err = run(["solve", shots["shot.png"].path, "--game", "onestroke", "--profile", "deep"])
    assert status == 2 and "'game'" in err and err.count("\n") == 1


def test_live_watching_every_game_reads_the_night_look_with_the_profile(night_profile: Profile,
                                                                       shots: dict[str, Shot]) -> None:
    image = cv2.imread(str(shots["half_6x6.png"].path))
    step = Watcher(list(GAMES.values()), night_profile).step(image)
    assert isinstance(step, New) and step.parse.board.to_text().replace("\n", "/") == shots["half_6x6.png"].board


# ---------------------------------------------------------------------------- profile fields



@pytest.mark.parametrize("field, value", [
    ("cell_rgb", [1, 2]), ("cell_rgb", [0, 300, 0]), ("cell_rgb", "teal"), ("cell_rgb", MISSING),
    ("tolerance", 0), ("tolerance", 2.5), ("tolerance", True), ("tolerance", MISSING), ("game", "lyne"),
])
def test_malformed_fields_are_refused_naming_the_field(night_profile: Profile, field: str, value: object) -> None:
    assert_field_refused(night_profile, field, value, parse)


# ---------------------------------------------------------------------------- picks

def _picks(shot: np.ndarray, b: Board, text_width: int) -> tuple[tuple[int, int, int, int], dict[str, tuple[int, int]]]:
    """A box around the board and clicks on a cell, a hole and the start, from the rendered truth."""
    img, truth = render_phone(b, width=text_width, height=round(text_width * 16 / 9), cat="orange", theme="night")
    assert np.array_equal(img, shot)    # the truth is this screenshot's
    xs = [x for x, _ in truth.cells]
    ys = [y for _, y in truth.cells]
    region = (round(min(xs) - truth.pitch), round(min(ys) - truth.pitch),
              round(max(xs) - min(xs) + 2 * truth.pitch), round(max(ys) - min(ys) + 2 * truth.pitch))
    cell = next(p for p in sorted(b.cells) if p != b.start)
    hole = next((r, c) for r in range(b.rows) for c in range(b.cols) if (r, c) not in b.cells)

    def centre(p: tuple[int, int]) -> tuple[int, int]:
        x, y = truth.cells[p[0] * b.cols + p[1]]
        return round(x), round(y)

    return region, dict(zip(learner.KINDS, (centre(cell), centre(hole), centre(b.start))))


def test_picks_teach_the_same_look_as_the_board(shots: dict[str, Shot], night_profile: Profile) -> None:
    shot = cv2.imread(str(shots["shot.png"].path))
    region, examples = _picks(shot, board(SHOT_BOARD), SHOT_SIZE[0])
    data, templates = learner.learn(shot, region=region, examples=examples)
    assert data["cell_rgb"] == night_profile.get("cell_rgb", list) and data["board"] == SHOT_BOARD
    assert set(templates) == {"cell", "cat", "start"}


def test_a_start_click_on_a_cell_is_refused(shots: dict[str, Shot]) -> None:
    shot = cv2.imread(str(shots["shot.png"].path))
    region, examples = _picks(shot, board(SHOT_BOARD), SHOT_SIZE[0])
    examples["the start"] = examples["a cell"]
    with pytest.raises(ProfileError, match="start"):
        learner.learn(shot, region=region, examples=examples)


def test_the_window_teaches_a_profile_from_a_box_and_three_clicks(display: str, store: Path, tmp_path: Path) -> None:
    if subprocess.run(["which", "xdotool"], capture_output=True).returncode:
        pytest.skip("xdotool is not installed")
    b = board(".####./######/##S.##/######/######")     # a level: the clicks' board must be one
    width = 360                                # small enough to show unscaled on the 1280×800 screen
    img, text = night(b, width, 640)
    path = write(tmp_path, "small.png", img)
    region, examples = _picks(img, b, width)
    env = {**os.environ, "DISPLAY": display, "PUZZLEPILOT_PROFILES": str(store)}
    status, err = calibrate_in_window("onestroke", path, img, region, [examples[kind] for kind in learner.KINDS], env)
    assert status == 0, err
    picked = profiles.load(store / "picked")
    assert parse(img, picked).board.to_text().replace("\n", "/") == text


# ---------------------------------------------------------------------------- the real game

REAL = REPO / ".." / "shared" / "real" / "onestroke" / "level643.png"
REAL_BOARD = ".##.S##/#######/##.####/.######/#.#####/#####.#/#######"


@pytest.mark.skipif(not REAL.is_file(), reason="the real screenshots are not here")
def test_a_profile_from_the_real_screenshot_reads_every_fixture(store: Path) -> None:
    status, _, err = run(["calibrate", "onestroke", REAL, "--name", "real643", "--board", REAL_BOARD])
    assert (status, err) == (0, "")
    status, out, _ = run(["fixtures", "check", "onestroke", "--profile", "real643"])
    assert status == 0, out


# ---------------------------------------------------------------------------- a start without a cat

def ringed(b: Board, width: int, height: int, share: float = 0.0) -> tuple[np.ndarray, str]:
    """The night look with the cat replaced by a start marker the default vision cannot
    take for it: a cell with a yellow ring and dot (no face, no tail)."""
    path = solve(b).solution if share else []
    visited = [tuple(p) for p in path[: max(2, round(len(path) * share))]] if share else []
    img, truth = render_phone(b, width=width, height=height, visited=visited, theme="night")
    head = visited[-1] if visited else b.start      # the marker moves with the path's head, like the cat
    x, y = truth.cells[head[0] * b.cols + head[1]]
    half = truth.cell / 2
    night_look = THEMES["night"]
    # the cat's head, feet and the tail in the gap above (not the tail's tip on the cell above)
    cv2.rectangle(img, (round(x - half - 2), round(y - truth.pitch + half + 1)), (round(x + half + 2), round(y + 0.7 * truth.cell)),
                  night_look.background[::-1], -1)
    rounded_rect(img, x - half, y - half, x + half, y + half, 0.14 * truth.cell, night_look.cell)
    cv2.circle(img, (round(x), round(y)), round(0.3 * truth.cell), (40, 210, 250), max(2, round(0.08 * truth.cell)), cv2.LINE_AA)
    cv2.circle(img, (round(x), round(y)), round(0.1 * truth.cell), (40, 210, 250), -1, cv2.LINE_AA)
    return img, truth.board


def test_a_start_marker_other_than_the_cat_is_learned_from_the_board(tmp_path: Path) -> None:
    shot, truth = ringed(board(SHOT_BOARD), *SHOT_SIZE)
    colour_only = Profile("colour only", "onestroke", tmp_path, {"cell_rgb": [38, 150, 170], "tolerance": 24})
    # At the level's start the marker is the one cell apart, read without a template;
    # mid-level nothing but the template tells the marked head from the visited cells.
    assert parse(shot, colour_only).board.to_text().replace("\n", "/") == truth
    with pytest.raises(NoBoardFound):
        parse(ringed(board(SHOT_BOARD), *SHOT_SIZE, 0.5)[0], colour_only)
    data, templates = learner.learn(shot, board=board(SHOT_BOARD))
    prof = profiles.save({**data, "game": "onestroke", "name": "ringed"}, templates, tmp_path / "ringed")
    for text, (w, h), share in ((".####./######/##S.##/######/.####.", (360, 640), 0.0),
                                ("S####/##.##/#####/###.#/#####", (1440, 2560), 0.5)):
        img, truth = ringed(board(text), w, h, share)
        assert parse(img, prof).board.to_text().replace("\n", "/") == truth


def test_the_cats_tail_in_a_small_frame_is_no_first_step(night_profile: Profile) -> None:
    """A level start in the night look as a 316-wide recording frame (JPEG 45, blur 0.47):
    the blue cat's tail, blurred, reached the middle of the cell above it, which read as a
    visited cell (the path's one step), and the board as the level less that cell. A single
    visited cell must be joined to the cat by the band across their gap."""
    b = board("###########/###########/####S######/.##########")
    img, truth = render_phone(b, width=720, height=1280, scale=0.8, cat="blue", theme="night")
    frame, truth = video_frame(img, truth, 316, 45, 0.4670065942308841)
    try:
        got = parse(frame, night_profile).board.to_text().replace("\n", "/")
    except NoBoardFound:
        return
    assert got == truth.board
