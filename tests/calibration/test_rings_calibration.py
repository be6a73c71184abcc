"""Calibrating the ring-battle vision on an arena look of its own (the scenes' "paper" look:
checkerboard tiles, folded-paper enemies, a curtain), then reading other boards at 0.5× to
2× the size, in JPEG and in a desktop window with the profile."""
from __future__ import annotations

import json
import os
import subprocess
from dataclasses import dataclass
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]

import cv2
import numpy as np
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from calibration import profile as profiles
from calibration import rings as learner
from puzzlepilot.scenes.rings import KINDS, on_desktop, render
from solvers.rings import Board, generate, validate
from vision.common import NoBoardFound, load_image
from vision.profile import Profile, ProfileError
from vision.rings import RING_PX, SLICE_PX, Look, classify, look_of, parse
from tests.display import calibrate_in_window
from tests.helpers import MISSING, assert_field_refused
from tests.helpers import run_cli as run

REPO = Path(__file__).resolve().parents[2]
SHOT_SIZE = (1280, 720)
SHOT_SEED = 100


@dataclass(frozen=True)
class Shot:
    """A rendered paper-look screenshot on disk and the board it shows (as read: enemies ``x``)."""

    path: Path
    board: str


def as_read(board: Board) -> str:
    return board.relabelled().to_text().replace("\n", "/")


def paper(board: Board, width: int, height: int, seed: int, quality: int | None = None,
          desktop: bool = False) -> np.ndarray:
    """A paper-look battle, optionally as a 960×540 window on a 1366×768 desktop, optionally JPEG."""
    img, _ = render(board, width, height, "paper", seed)
    if desktop:
        img = on_desktop(cv2.resize(img, (960, 540), interpolation=cv2.INTER_AREA), 1366, 768, seed)
    if quality:
        img = cv2.imdecode(cv2.imencode(".jpg", img, [cv2.IMWRITE_JPEG_QUALITY, quality])[1], cv2.IMREAD_COLOR)
    return img


SHOT_BOARD = generate(SHOT_SEED, 3, 3, kinds=KINDS)
# name: seed, groups, size, JPEG quality, desktop window
OTHERS = {
    "half.png": (1, 2, (640, 360), None, False),
    "double.png": (2, 4, (2560, 1440), None, False),
    "hd.jpg": (3, 5, (1920, 1080), 70, False),
    "small.jpg": (4, 3, (800, 450), 85, False),
    "window.jpg": (5, 2, (1280, 720), 85, True),
}


@pytest.fixture(scope="module")
def shots(tmp_path_factory: pytest.TempPathFactory) -> dict[str, Shot]:
    folder = tmp_path_factory.mktemp("paper")
    out = {}
    path = folder / "shot.png"
    cv2.imwrite(str(path), paper(SHOT_BOARD, *SHOT_SIZE, SHOT_SEED))
    out["shot.png"] = Shot(path, as_read(SHOT_BOARD))
    for name, (seed, groups, (w, h), quality, desktop) in OTHERS.items():
        board = generate(seed, groups, 1 + seed % 4, kinds=KINDS)
        path = folder / name
        cv2.imwrite(str(path), paper(board, w, h, seed, desktop=desktop), [cv2.IMWRITE_JPEG_QUALITY, quality] if quality else [])
        out[name] = Shot(path, as_read(board))
    return out


@pytest.fixture(scope="module")
def paper_profile(shots: dict[str, Shot], store: Path) -> Profile:
    """The profile made by ``calibrate rings shot.png --board ...``: the board as typed, with
    enemy kinds and without its ``moves:`` line."""
    typed = "/".join(SHOT_BOARD.cells)
    assert set(typed) - set("./") and "x" not in typed
    with pytest.MonkeyPatch.context() as env:
        env.setenv("PUZZLEPILOT_PROFILES", str(store))
        status, out, err = run(["calibrate", "rings", shots["shot.png"].path, "--name", "paper", "--board", typed])
        assert (status, err) == (0, ""), err
        assert "written" in out
        return profiles.load(store / "paper")


def read(path: Path, profile: Profile | None = None) -> str:
    return parse(load_image(path), profile).board.to_text().replace("\n", "/")


# ---------------------------------------------------------------------------- the look

def test_the_default_vision_reads_the_paper_look_right_or_refuses(shots: dict[str, Shot]) -> None:
    """The default vision measures what a figure adds to a tile beyond an even shift of
    colour, so the checkerboard's two tile colours no longer split its empty look (it
    misread every paper frame before issue 6's fix); it must never pass off a wrong board."""
    for shot in shots.values():
        try:
            got = read(shot.path)
        except NoBoardFound:
            continue
        assert got == shot.board


# ---------------------------------------------------------------------------- calibrate --board

def test_calibrating_with_the_board_records_the_arena_and_the_tiles(paper_profile: Profile) -> None:
    _, truth = render(SHOT_BOARD, *SHOT_SIZE, "paper", SHOT_SEED)
    w, h = SHOT_SIZE
    radii = paper_profile.get("ring_radii", list)
    assert radii[0] == 1.0 and abs(radii[-1] - truth.inner / truth.outer) < 0.01
    assert np.allclose(paper_profile.get("centre_share", list), [truth.cx / w, truth.cy / h], atol=0.005)
    assert abs(paper_profile.get("outer_share", float) - truth.outer / h) < 0.015
    assert paper_profile.get("board", str) == "/".join(SHOT_BOARD.relabelled().cells)
    for r, ring in enumerate(SHOT_BOARD.cells):
        strip = paper_profile.template(f"empty_ring{r}")
        assert strip.shape[:2] == (RING_PX, SLICE_PX * ring.count("."))
    assert paper_profile.template("enemies").shape[1] == SLICE_PX * SHOT_BOARD.enemies
    look = look_of(paper_profile)
    assert look is not None and look.enemy_distance > 4 * max(look.empty_distance, 0.5)


@pytest.mark.parametrize("name", list(OTHERS))
def test_the_profile_reads_other_boards_sizes_jpeg_and_windows(paper_profile: Profile, shots: dict[str, Shot],
                                                               name: str) -> None:
    assert read(shots[name].path, paper_profile) == shots[name].board


@settings(max_examples=8, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(seed=st.integers(0, 10_000), groups=st.integers(1, 5), k=st.sampled_from([0.5, 0.75, 1.25, 1.5, 2.0]),
       quality=st.sampled_from([None, 60, 85]))
def test_any_board_at_half_to_twice_the_size_reads_with_the_profile(paper_profile: Profile, seed: int, groups: int,
                                                                   k: float, quality: int | None) -> None:
    board = generate(seed, groups, 3, kinds=KINDS)
    img = paper(board, round(SHOT_SIZE[0] * k), round(SHOT_SIZE[1] * k), seed, quality)
    assert parse(img, paper_profile).board.to_text().replace("\n", "/") == as_read(board)


@pytest.mark.parametrize("path", sorted((REPO / "fixtures" / "rings").glob("*.[pj][np]g")), ids=lambda p: p.name)
def test_the_profile_claims_no_arena_of_another_look(paper_profile: Profile, path: Path) -> None:
    with pytest.raises(NoBoardFound):
        parse(load_image(path), paper_profile)


def test_a_cell_near_the_threshold_is_refused_naming_it(paper_profile: Profile) -> None:
    look = look_of(paper_profile)
    assert isinstance(look, Look)
    dist = np.where(np.arange(48).reshape(4, 12) % 5 == 0, look.enemy_distance, 0.0)
    taken, confidence = classify(dist, look)
    assert sum(map(sum, taken)) == 10 and confidence > 0.5
    dist[2, 7] = look.threshold * 1.05
    with pytest.raises(NoBoardFound, match="ring 2 slice 7"):
        classify(dist, look)


def test_calibrating_with_a_board_the_screenshot_does_not_show_is_refused(shots: dict[str, Shot], store: Path) -> None:
    wrong = "/".join(ring[1:] + ring[0] for ring in SHOT_BOARD.cells)     # every ring turned a slice
    status, out, err = run(["calibrate", "rings", shots["shot.png"].path, "--name", "wrong", "--board", wrong])
    assert status == 2 and out == ""
    assert err.count("\n") == 1 and "board" in err
    assert not (store / "wrong").exists()


def test_a_board_with_a_ring_of_too_few_empty_tiles_is_refused_naming_the_ring(shots: dict[str, Shot],
                                                                               store: Path) -> None:
    crowded = "/".join(["x" * 11 + ".", *SHOT_BOARD.cells[1:]])
    status, out, err = run(["calibrate", "rings", shots["shot.png"].path, "--name", "crowded", "--board", crowded])
    assert (status, out) == (2, "") and err.count("\n") == 1 and "ring 0 shows 1 empty tile;" in err
    assert not (store / "crowded").exists()


# ---------------------------------------------------------------------------- calibrate --check, solve

def test_check_exits_0_when_every_board_matches(paper_profile: Profile, shots: dict[str, Shot], tmp_path: Path) -> None:
    table = tmp_path / "boards.json"
    table.write_text(json.dumps({name: shot.board for name, shot in shots.items()}))
    status, out, _ = run(["calibrate", "--check", "paper", *(s.path for s in shots.values()), "--boards", table])
    assert status == 0, out
    assert out.count("matches") == len(shots)


def test_check_exits_1_and_names_the_differing_cells(paper_profile: Profile, shots: dict[str, Shot],
                                                     tmp_path: Path) -> None:
    shot = shots["small.jpg"]
    lines = shot.board.split("/")          # "moves: N", then the rings: ring 0 is line 1
    cell = lines[1].index(".")
    lines[1] = lines[1][:cell] + "x" + lines[1][cell + 1:]
    table = tmp_path / "boards.txt"
    table.write_text("\n".join(lines) + "\n")
    status, out, _ = run(["calibrate", "--check", "paper", shot.path, "--boards", table])
    assert status == 1
    assert f"cells (1,{cell}) x→." in out and "matches" not in out


def test_solve_with_the_profile_gives_moves_that_follow_the_rules(paper_profile: Profile, shots: dict[str, Shot]) -> None:
    shot = shots["hd.jpg"]
    status, out, err = run(["solve", shot.path, "--game", "rings", "--profile", "paper", "--json"])
    assert (status, err) == (0, "")
    answer = json.loads(out)
    assert answer["solved"] and validate(Board.from_text(shot.board.replace("/", "\n")), answer["solution"]) == []


def test_the_default_look_still_reads_without_a_profile() -> None:
    status, out, _ = run(["fixtures", "check", "rings"])
    count = len(json.loads((ROOT / "fixtures" / "rings" / "expected.json").read_text()))
    assert status == 0 and f"{count}/{count} fixtures read right" in out


def test_a_key_map_rides_along_with_a_calibrated_look(paper_profile: Profile, shots: dict[str, Shot],
                                                      tmp_path: Path) -> None:
    from argparse import Namespace

    from puzzlepilot.live import plan_options

    keymap = {"rings": [["1"], ["2"], ["3"], ["4"]], "lines": [["q"], ["w"], ["e"], ["r"], ["t"], ["y"]],
              "clockwise": "right", "anticlockwise": "left", "inward": "up", "confirm": "enter"}
    templates = {key: paper_profile.template(key) for key in paper_profile.get("templates", dict)}
    both = profiles.save({**paper_profile.data, "keymap": keymap}, templates, tmp_path / "keys")
    found = parse(load_image(shots["half.png"].path), both)
    assert plan_options(Namespace(keymap=None), both) == {"rings": {"keymap": keymap}}
    assert found.board.to_text().replace("\n", "/") == shots["half.png"].board


# ---------------------------------------------------------------------------- profile fields



@pytest.mark.parametrize("field, value", [
    ("ring_radii", [1.0, 0.8, 0.6]), ("ring_radii", [1.0, 0.9, 0.5, 0.45, 0.26]), ("ring_radii", "round"),
    ("ring_radii", MISSING), ("centre_share", [0.5]), ("centre_share", [0.5, 1.5]), ("outer_share", "big"),
    ("outer_share", MISSING), ("empty_distance", -1), ("empty_distance", True), ("enemy_distance", 0.2),
    ("enemy_distance", MISSING), ("game", "lyne"),
])
def test_malformed_fields_are_refused_naming_the_field(paper_profile: Profile, field: str, value: object) -> None:
    assert_field_refused(paper_profile, field, value, parse)


def test_a_missing_tile_template_is_refused_naming_it(paper_profile: Profile) -> None:
    data = {**paper_profile.data, "templates": {k: v for k, v in paper_profile.data["templates"].items()
                                                if k != "empty_ring2"}}
    with pytest.raises(ProfileError, match="empty_ring2"):
        parse(np.zeros((64, 64, 3), np.uint8), Profile("bad", "rings", paper_profile.folder, data))


# ---------------------------------------------------------------------------- picks

def _picks(board: Board, width: int, height: int, seed: int) -> tuple[tuple[int, int, int, int], dict[str, tuple[int, int]]]:
    """A box around the arena and clicks on its centre, its rim, an empty tile and an enemy,
    from where the scene drew them."""
    _, arena = render(board, width, height, "paper", seed)
    empty = next((r, s) for r in range(4) for s in range(12) if board.cells[r][s] == ".")
    enemy = next((r, s) for r in range(4) for s in range(12) if board.cells[r][s] != ".")
    reach = arena.outer * 1.1
    region = (round(arena.cx - reach), round(arena.cy - reach), round(2 * reach), round(2 * reach))

    def at(xy: tuple[float, float]) -> tuple[int, int]:
        return round(xy[0]), round(xy[1])

    return region, dict(zip(learner.KINDS, (at((arena.cx, arena.cy)), at(arena.point(arena.outer, 200)),
                                            at(arena.cell(*empty)), at(arena.cell(*enemy)))))


def test_picks_teach_the_same_board_and_arena_as_the_board(shots: dict[str, Shot], paper_profile: Profile,
                                                           tmp_path: Path) -> None:
    region, examples = _picks(SHOT_BOARD, *SHOT_SIZE, SHOT_SEED)
    data, templates = learner.learn(load_image(shots["shot.png"].path), region=region, examples=examples)
    assert data["board"] == paper_profile.get("board", str)
    assert data["ring_radii"] == pytest.approx(paper_profile.get("ring_radii", list), abs=0.01)
    picked = profiles.save({**data, "game": "rings", "name": "picked"}, templates, tmp_path / "picked")
    assert read(shots["small.jpg"].path, picked) == shots["small.jpg"].board


def test_an_enemy_clicked_as_an_empty_tile_is_refused(shots: dict[str, Shot]) -> None:
    region, examples = _picks(SHOT_BOARD, *SHOT_SIZE, SHOT_SEED)
    examples[learner.KINDS[2]] = examples[learner.KINDS[3]]
    with pytest.raises(ProfileError, match="empty tile"):
        learner.learn(load_image(shots["shot.png"].path), region=region, examples=examples)


def test_the_window_teaches_a_profile_from_a_box_and_four_clicks(display: str, store: Path, tmp_path: Path) -> None:
    if subprocess.run(["which", "xdotool"], capture_output=True).returncode:
        pytest.skip("xdotool is not installed")
    board = generate(7, 3, 3, kinds=KINDS)
    size = (960, 540)                           # shows unscaled on the 1280×800 screen
    img = paper(board, *size, 7)
    path = tmp_path / "window.png"
    cv2.imwrite(str(path), img)
    region, examples = _picks(board, *size, 7)
    env = {**os.environ, "DISPLAY": display, "PUZZLEPILOT_PROFILES": str(store)}
    status, err = calibrate_in_window("rings", path, img, region, [examples[kind] for kind in learner.KINDS], env)
    assert status == 0, err
    picked = profiles.load(store / "picked")
    other = generate(8, 4, 3, kinds=KINDS)
    assert parse(paper(other, 1280, 720, 8, 85), picked).board.to_text().replace("\n", "/") == as_read(other)


# ---------------------------------------------------------------------------- the game's camera, a look of our own

DUSK_SHOT = (generate(20, 1, 3, kinds=KINDS), 20)       # (board, seed) of the screenshot calibrated on
# the other boards: seed, groups, size (0.5× to 2× of 1280×720), JPEG quality, camera
DUSK_OTHERS = [(300 + i, 1 + i % 2, size, quality, "overhead" if i % 4 == 3 else "tilted")
               for i, (size, quality) in enumerate([((640, 360), None), ((960, 540), 90), ((1280, 720), 75),
                                                    ((1920, 1080), None), ((2560, 1440), 90), ((640, 360), 75),
                                                    ((960, 540), None), ((1280, 720), 90), ((1920, 1080), 75),
                                                    ((2560, 1440), None), ((640, 360), 90), ((960, 540), 75)])]


def camera(board: Board, size: tuple[int, int], seed: int, look: str, quality: int | None = None,
           view: str = "tilted") -> np.ndarray:
    from puzzlepilot.scenes.rings import render_camera

    img, _ = render_camera(board, *size, view, seed, look=look)
    if quality:
        img = cv2.imdecode(cv2.imencode(".jpg", img, [cv2.IMWRITE_JPEG_QUALITY, quality])[1], cv2.IMREAD_COLOR)
    return img


@pytest.fixture(scope="module")
def dusk_profile(store: Path, tmp_path_factory: pytest.TempPathFactory) -> Profile:
    """The profile made by ``calibrate rings shot.png --board ...`` from one tilted
    screenshot of the "dusk" look (purple inner ring, grey and rose tiles, dimmer light
    from the other side)."""
    board, seed = DUSK_SHOT
    path = tmp_path_factory.mktemp("dusk") / "shot.png"
    cv2.imwrite(str(path), camera(board, (1280, 720), seed, "dusk"))
    with pytest.MonkeyPatch.context() as env:
        env.setenv("PUZZLEPILOT_PROFILES", str(store))
        status, out, err = run(["calibrate", "rings", path, "--name", "dusk", "--board", "/".join(board.cells)])
    assert (status, err) == (0, ""), err
    assert "reads shot.png back" in out
    return profiles.load(store / "dusk")


def test_a_board_the_tilted_screenshot_does_not_show_is_refused(store: Path, tmp_path: Path) -> None:
    """``--board`` checks the reading: one enemy moved to the next empty tile of its ring,
    and no look reads the screenshot as that board; one line, exit 2, nothing written."""
    board, seed = DUSK_SHOT
    cells = [list(ring) for ring in board.cells]
    r, s = next((r, s) for r in range(4) for s in range(12) if cells[r][s] != "." and cells[r][(s + 1) % 12] == ".")
    cells[r][s], cells[r][(s + 1) % 12] = ".", cells[r][s]
    shot = tmp_path / "shot.png"
    cv2.imwrite(str(shot), camera(board, (1280, 720), seed, "dusk"))
    status, out, err = run(["calibrate", "rings", shot, "--name", "moved", "--board",
                            "/".join("".join(ring) for ring in cells)])
    assert (status, out) == (2, "") and err.count("\n") == 1 and "given board" in err, err
    assert not (store / "moved").exists()


def test_the_dusk_look_is_refused_by_the_default_vision() -> None:
    """The look is new to the default camera reader (no blue inner ring): it refuses it, so
    calibrating is what makes it readable."""
    board, seed = DUSK_SHOT
    with pytest.raises(NoBoardFound, match="no blue inner ring"):
        parse(camera(board, (1280, 720), seed, "dusk"))


def test_calibrating_a_tilted_screenshot_learns_the_camera_look(dusk_profile: Profile) -> None:
    from puzzlepilot.scenes.rings import EDGES, render_camera

    look = dusk_profile.get("camera_look", dict)
    assert np.allclose(look["edges"], [e / EDGES[0] for e in EDGES], atol=0.02)
    (h0, _, _), (h1, _, _) = look["inner_hsv"]
    assert h0 <= 138 <= h1                      # the purple ring (RGB 168, 104, 214: hue 138 of 180)
    assert dusk_profile.get("board", str) == "/".join(DUSK_SHOT[0].relabelled().cells)
    _, truth = render_camera(DUSK_SHOT[0], look="dusk")
    assert abs(dusk_profile.get("arena", dict)["outer"] - truth.outer) < 0.02 * truth.outer


def test_the_dusk_profile_reads_other_boards_right_or_refuses_them(dusk_profile: Profile) -> None:
    """Other boards of the look at 0.5× to 2×, PNG and JPEG, both cameras: every board read
    is right (cells; a budget the panel did not give is said), and the profile reads as
    many as the default vision reads of the same boards in the game's own look (the camera
    reader refuses crowded frames in either look: feet hidden, or on two tiles)."""
    right = {"game": 0, "dusk": 0}
    for seed, groups, size, quality, view in DUSK_OTHERS:
        board = generate(seed, groups, 1 + seed % 3, kinds=KINDS)
        for look, prof in (("game", None), ("dusk", dusk_profile)):
            try:
                got = parse(camera(board, size, seed, look, quality, view), prof).board
            except NoBoardFound:
                continue
            if look == "dusk":
                assert got.cells == board.relabelled().cells, (seed, size, quality, view)
            right[look] += got.cells == board.relabelled().cells
    assert right["dusk"] >= max(3, right["game"] - 1), right


def test_calibrate_check_reads_other_dusk_frames(dusk_profile: Profile, tmp_path: Path) -> None:
    boards = {}
    for seed in (25, 28):                       # boards the camera reader reads in this look (24 is refused
        # since the renders carry the game's whole HUD: its feet read on two tiles)
        board = generate(seed, 1, 1 + seed % 3, kinds=KINDS)
        cv2.imwrite(str(tmp_path / f"b{seed}.jpg"), camera(board, (1280, 720), seed, "dusk", 90))
        boards[f"b{seed}.jpg"] = board.to_text()
    (tmp_path / "boards.json").write_text(json.dumps(boards))
    status, out, err = run(["calibrate", "--check", dusk_profile.folder, tmp_path / "b25.jpg", tmp_path / "b28.jpg",
                            "--boards", tmp_path / "boards.json"])
    assert (status, err) == (0, ""), out + err
    assert out.count("matches") == 2


@pytest.mark.parametrize("key, value", [
    ("inner_hsv", [[130, 50], [150, 255, 255]]), ("inner_hsv", [[200, 50, 60], [150, 255, 255]]),
    ("inner_hsv", None), ("tile_hsv", []), ("tile_hsv", [[[0, 0, 0], [179, 300, 255]]]),
    ("edges", [1.0, 0.8, 0.6, 0.4]), ("edges", [0.9, 0.8, 0.6, 0.4, 0.3]), ("edges", [1.0, 0.6, 0.8, 0.4, 0.3]),
    ("tilt", "0.3"), ("tilt", 0.9), ("light", 0.0), ("light", None)])
def test_a_bad_camera_look_field_is_refused_by_name(dusk_profile: Profile, key: str, value: object) -> None:
    look = dict(dusk_profile.get("camera_look", dict))
    if value is None:
        del look[key]
    else:
        look[key] = value
    bad = Profile("bad", "rings", dusk_profile.folder, {**dusk_profile.data, "camera_look": look})
    with pytest.raises(ProfileError, match=f"'camera_look.{key}'"):
        parse(np.zeros((64, 64, 3), np.uint8), bad)
    assert_field_refused(dusk_profile, "camera_look", [look], parse)


def test_the_game_look_calibrates_too() -> None:
    """The game's own tilted look learns its blue ring."""
    board = generate(20, 1, 3, kinds=KINDS)
    data, templates = learner.learn(camera(board, (1280, 720), 20, "game"), board.relabelled())
    (h0, _, _), (h1, _, _) = data["camera_look"]["inner_hsv"]
    assert h0 <= 100 <= h1 and templates == {}


# ---------------------------------------------------------------------------- the game's camera, from clicks

def camera_picks(board: Board, size: tuple[int, int], view: str = "tilted", nth: int = 0) -> dict[str, list[int]]:
    """A picks file's points for a camera render, from where the scene drew them: the box
    around the frame, the disc's centre, a point on the outer rim, an empty tile and the
    tile the ``nth`` enemy (in ring order) stands on."""
    from puzzlepilot.scenes.rings import camera_arena

    arena = camera_arena(*size, view)
    empty = next((r, s) for r in (1, 2, 0, 3) for s in range(12) if board.cells[r][s] == ".")
    enemies = [(r, s) for r in range(4) for s in range(12) if board.cells[r][s] != "."]
    enemy = enemies[nth % len(enemies)]

    def at(xy: tuple[float, float]) -> list[int]:
        return [round(xy[0]), round(xy[1])]

    return {"box": [0, 0, *size], "centre": at((arena.cx, arena.cy)), "rim": at(arena.point(arena.outer * 0.99, 100)),
            "empty": at(arena.cell(*empty)), "enemy": at(arena.cell(*enemy))}


def test_picks_teach_a_tilted_look_as_the_board_does(dusk_profile: Profile) -> None:
    """Clicks instead of the board (centre, rim, an empty tile, an enemy) learn the same
    camera look from the same dusk screenshot, and it reads the same board back."""
    board, seed = DUSK_SHOT
    picks = camera_picks(board, (1280, 720))
    region, examples = picks["box"], dict(zip(learner.KINDS, (tuple(picks[k]) for k in learner.PICKS[1:])))
    data, templates = learner.learn(camera(board, (1280, 720), seed, "dusk"), region=region, examples=examples)
    assert templates == {} and data["board"] == dusk_profile.get("board", str)
    assert data["camera_look"] == dusk_profile.get("camera_look", dict)


def test_calibrate_rings_with_a_picks_file_needs_no_window_and_no_board(store: Path, tmp_path: Path) -> None:
    """``calibrate rings SHOT --picks FILE`` on a tilted dusk screenshot: no DISPLAY, no
    --board; the profile keeps the board it read (for the user to see) and reads the shot."""
    board, seed = DUSK_SHOT
    shot, picks = tmp_path / "shot.png", tmp_path / "picks.json"
    cv2.imwrite(str(shot), camera(board, (1280, 720), seed, "dusk"))
    picks.write_text(json.dumps(camera_picks(board, (1280, 720))))
    with pytest.MonkeyPatch.context() as env:
        env.delenv("DISPLAY", raising=False)
        status, out, err = run(["calibrate", "rings", shot, "--name", "dusk-picked", "--picks", picks])
    assert (status, err) == (0, ""), err
    assert "reads shot.png back" in out and "board read: " in out
    picked = profiles.load(store / "dusk-picked")
    assert picked.get("board", str) == "/".join(board.relabelled().cells)
    assert parse(load_image(shot), picked).board.cells == board.relabelled().cells


def learn_from_picks(image: np.ndarray, picks: dict[str, list[int]]) -> dict[str, object]:
    region, examples = picks["box"], dict(zip(learner.KINDS, (tuple(picks[k]) for k in learner.PICKS[1:])))
    return learner.learn(image, region=region, examples=examples)[0]


@pytest.mark.parametrize("seed", [38, 131, 167])
def test_clicks_never_keep_a_board_that_only_the_very_pixels_taught_read(seed: int) -> None:
    """Issue 12 §6, found by stress (dusk look, 1280×720, picks where the renderer drew
    them): the clicks agreed with a look that read a wrong board with whole groups and an
    answer within the budget, and it was kept. Seed 38: lightness weighed 0.2, the black
    bob-ombs all but vanish on the grey tiles and a shy guy's floating badge stands in for
    one; 131 and 167: figures lost in a crowd on the far side. The same look refuses most
    copies of the screenshot (smaller, softer, JPEG), so it is refused (or a right one kept).
    The camera reader now refuses such crowds' cells itself (a figure rising higher than one,
    a dark head no tile): "not sure", also a refusal."""
    board = generate(seed, 1 + seed % 3, 1 + seed % 3, kinds=KINDS)
    view = "overhead" if seed % 5 == 4 else "tilted"
    shot = camera(board, (1280, 720), seed, "dusk", view=view)
    try:
        data = learn_from_picks(shot, camera_picks(board, (1280, 720), view, nth=seed))
    except ProfileError as exc:
        assert "copies" in str(exc) or "another board" in str(exc) or "cells are not sure" in str(exc), exc
        return
    assert data["board"] == "/".join(board.relabelled().cells)


def test_a_look_that_reads_a_copy_of_its_screenshot_otherwise_is_refused(monkeypatch: pytest.MonkeyPatch) -> None:
    """When a held-out copy of the screenshot reads another board than the clicks' shot,
    the clicks leave the board unsure: refused, with --board as the way out."""
    board, seed = DUSK_SHOT
    shot = camera(board, (1280, 720), seed, "dusk")
    real, held_out, copies = learner.read_camera, learner.held_out, []
    monkeypatch.setattr(learner, "held_out", lambda image: copies.append(held_out(image)) or copies[-1])

    def misread(image: np.ndarray, look: object) -> tuple:
        arena, conf, taken, cell_conf = real(image, look)
        if any(image is c for made in copies for c in made.values()):   # a copy: one enemy more or less
            taken = [[not taken[0][0], *taken[0][1:]], *taken[1:]]
        return arena, conf, taken, cell_conf

    monkeypatch.setattr(learner, "read_camera", misread)
    with pytest.raises(ProfileError, match="as another board.*--board"):
        learn_from_picks(shot, camera_picks(board, (1280, 720)))


@pytest.mark.parametrize("change, words", [
    (lambda p: p.pop("enemy"), "missing enemy"),
    (lambda p: p.update(extra=[1, 2]), "unknown extra"),
    (lambda p: p.update(rim=[1, "2"]), "'rim' must be 2 numbers"),
    (lambda p: p.update(box=[0, 0, 8, 720]), "both sides at least 16 px"),
    (lambda p: p.update(enemy=p["empty"]), "reads empty"),
    (lambda p: p.update(empty=p["enemy"]), "reads as an enemy"),
    (lambda p: p.update(rim=p["centre"]), "outer rim"),
])
def test_a_bad_picks_file_or_clicks_the_look_contradicts_is_one_line(change, words: str, store: Path,
                                                                     tmp_path: Path) -> None:
    board, seed = DUSK_SHOT
    shot, picks = tmp_path / "shot.png", tmp_path / "picks.json"
    cv2.imwrite(str(shot), camera(board, (960, 540), seed, "dusk"))
    data = camera_picks(board, (960, 540))
    change(data)
    picks.write_text(json.dumps(data))
    status, out, err = run(["calibrate", "rings", shot, "--name", "bad-picks", "--picks", picks])
    assert (status, out) == (2, "") and err.count("\n") == 1 and words in err, err
    assert not (store / "bad-picks").exists()


def test_picks_are_refused_for_a_game_without_them(tmp_path: Path) -> None:
    shot = tmp_path / "shot.png"
    cv2.imwrite(str(shot), np.full((200, 200, 3), 128, np.uint8))
    status, _, err = run(["calibrate", "lyne", shot, "--name", "x", "--picks", tmp_path / "p.json"])
    assert status == 2 and "rings and valves" in err

def test_the_window_teaches_a_tilted_look_from_a_box_and_four_clicks(display: str, store: Path,
                                                                      tmp_path: Path) -> None:
    """The same four clicks in the calibration window, on a tilted dusk screenshot."""
    if subprocess.run(["which", "xdotool"], capture_output=True).returncode:
        pytest.skip("xdotool is not installed")
    board, seed = DUSK_SHOT
    size = (960, 540)                           # shows unscaled on the 1280×800 screen
    img = camera(board, size, seed, "dusk")
    path = tmp_path / "tilted.png"
    cv2.imwrite(str(path), img)
    picks = camera_picks(board, size)
    env = {**os.environ, "DISPLAY": display, "PUZZLEPILOT_PROFILES": str(store)}
    status, err = calibrate_in_window("rings", path, img, tuple(picks["box"]),
                                      [tuple(picks[k]) for k in learner.PICKS[1:]], env, name="tilted")
    assert status == 0, err
    tilted = profiles.load(store / "tilted")
    assert tilted.get("board", str) == "/".join(board.relabelled().cells) and "camera_look" in tilted.data


REAL_CAPTURE = REPO / ".." / "shared" / "real" / "rings" / "origami_ring_moves2.png"


@pytest.mark.skipif(not REAL_CAPTURE.is_file(), reason="the real captures are not here")
def test_the_real_tilted_capture_calibrates_from_its_board_in_another_numbering(store: Path) -> None:
    """The capture's board as its source numbers the slices (another start, the other way
    round) calibrates the camera look, which reads the capture back as the same arena in
    docs/games.md's numbering; a board with one enemy moved is refused."""
    label = json.loads((REAL_CAPTURE.parents[1] / "labels.json").read_text())["rings/origami_ring_moves2.png"]
    head, *rows = label.split("/")
    status, out, err = run(["calibrate", "rings", REAL_CAPTURE, "--name", "tok", "--board", "\n".join([head, *rows])])
    assert (status, err) == (0, ""), err
    status, out, err = run(["parse", REAL_CAPTURE, "--profile", "tok", "--json"])
    assert status == 0, err
    from tests.vision.test_rings_camera import renumbered

    assert "/".join(json.loads(out)["board"].replace("\n", "/").split("/")[-4:]) in renumbered(rows)
    moved = [rows[0][1:] + rows[0][0]] + rows[1:]      # the outer ring's enemy a slice on
    status, _, err = run(["calibrate", "rings", REAL_CAPTURE, "--name", "tok2", "--board", "\n".join([head, *moved])])
    assert status == 2 and "does not read as the given board" in err
