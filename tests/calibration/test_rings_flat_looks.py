"""Issue 25 §7: ring arenas drawn flat by another tool, seen from above, in colours far from
the game's: "slate" (a pale grey-blue inner ring amid white and sage tiles on wood, where the
game's is a strong blue) and "ink" (dark rings on a light floor). ``calibrate rings`` refused
both ("no ring arena found": it only tried strong colours as the inner ring's); it learns
them from the board or from picks, reads its screenshot back, and reads other boards of the
look right or refuses them, never wrong; pictures that are no battle are refused."""
from __future__ import annotations

import json
from pathlib import Path

import cv2
import numpy as np
import pytest

from calibration import profile as profiles
from puzzlepilot.scenes.paint import shapes_scene
from puzzlepilot.scenes.rings import KINDS, render_camera, render_menu, render_overworld
from solvers.rings import Board, generate
from tests.calibration.test_rings_calibration import camera_picks
from tests.helpers import run_cli as run
from vision.common import NoBoardFound, load_image
from vision.profile import Profile
from vision.rings import parse

SIZE = (1280, 720)
SHOT = {"slate": (20, "top"), "ink": (21, "top")}     # look: (seed, camera) of the screenshot calibrated on
# other boards: seed, size (0.5× to 2×), JPEG quality, camera
OTHERS = [(300, (640, 360), None, "top"), (301, (960, 540), 90, "overhead"), (303, (1920, 1080), None, "overhead"),
          (304, (2560, 1440), 75, "top"), (306, (960, 540), None, "top"), (311, (1280, 720), 90, "overhead")]
REAL = Path(__file__).resolve().parents[2].parent / "shared" / "real" / "rings"


def board_of(seed: int) -> Board:
    return generate(seed, 1 + seed % 3, 1 + seed % 3, kinds=KINDS)


def drawn(look: str, seed: int, size: tuple[int, int] = SIZE, view: str = "top", quality: int | None = None,
          board: Board | None = None) -> np.ndarray:
    img, _ = render_camera(board_of(seed) if board is None else board, *size, view, seed, hud=False, look=look)
    if quality:
        img = cv2.imdecode(cv2.imencode(".jpg", img, [cv2.IMWRITE_JPEG_QUALITY, quality])[1], cv2.IMREAD_COLOR)
    return img


def calibrated(look: str, folder: Path, store: Path, how: str) -> Profile:
    """``calibrate rings shot.png --name LOOK-HOW`` with ``--board`` or ``--picks`` (a JSON
    file, no window), which must keep a profile that reads the shot back."""
    seed, view = SHOT[look]
    shot = folder / f"{look}.png"
    cv2.imwrite(str(shot), drawn(look, seed, view=view))
    if how == "board":
        given = ["--board", "/".join(board_of(seed).cells)]
    else:
        (folder / "picks.json").write_text(json.dumps(camera_picks(board_of(seed), SIZE, view)))
        given = ["--picks", str(folder / "picks.json")]
    status, out, err = run(["calibrate", "rings", shot, "--name", f"{look}-{how}", *given])
    assert (status, err) == (0, ""), err
    assert "reads slate.png back" in out or "reads ink.png back" in out
    return profiles.load(store / f"{look}-{how}")


@pytest.fixture(scope="module")
def slate(store: Path, tmp_path_factory: pytest.TempPathFactory) -> Profile:
    with pytest.MonkeyPatch.context() as env:
        env.setenv("PUZZLEPILOT_PROFILES", str(store))
        return calibrated("slate", tmp_path_factory.mktemp("slate"), store, "board")


def read(image: np.ndarray, profile: Profile) -> tuple[str, ...] | None:
    try:
        return parse(image, profile).board.cells
    except NoBoardFound:
        return None


def test_the_looks_are_new_to_the_default_vision() -> None:
    for look, (seed, view) in SHOT.items():
        with pytest.raises(NoBoardFound):
            parse(drawn(look, seed, view=view))


def test_the_board_teaches_the_pale_inner_ring_and_the_shot_reads_back(slate: Profile) -> None:
    """The inner ring learnt is the pale grey-blue (RGB 190, 200, 212: hue 106, saturation
    26 of 255), not a strong colour; the camera looks straight down."""
    look = slate.get("camera_look", dict)
    (h0, s0, v0), (h1, s1, v1) = look["inner_hsv"]
    assert h0 <= 106 <= h1 and s0 <= 26 <= s1 < 50 and v0 <= 212 <= v1
    assert look["tilt"] == 0.0 and slate.get("arena", dict)["camera"]["roll"] == 0.0   # a circle shows no turn
    assert slate.get("board", str) == "/".join(board_of(SHOT["slate"][0]).relabelled().cells)


def test_picks_as_json_teach_the_same_look_as_the_board(slate: Profile, store: Path, tmp_path: Path) -> None:
    """``--picks`` (centre, rim, an empty tile, an enemy; no window, no board) learns the
    same look from the same screenshot."""
    picked = calibrated("slate", tmp_path, store, "picks")
    assert picked.get("camera_look", dict) == slate.get("camera_look", dict)
    assert picked.get("board", str) == slate.get("board", str)


def test_the_profile_reads_other_boards_right_or_refuses_them(slate: Profile) -> None:
    """Other enemies' positions in the same look, straight down and from the game's overhead
    camera, 0.5× to 2× the size, PNG and JPEG: never a wrong board, most read."""
    right = 0
    for seed, size, quality, view in OTHERS:
        got = read(drawn("slate", seed, size, view, quality), slate)
        assert got in (None, board_of(seed).relabelled().cells), (seed, size, quality, view)
        right += got is not None
    assert right >= len(OTHERS) // 2


def test_the_profile_refuses_pictures_that_are_no_battle(slate: Profile) -> None:
    """The game's menu and field, the arena of the look with no enemy on it, and the real
    captures that are no board."""
    pictures = [render_menu(), render_overworld(), drawn("slate", 5, board=Board(("." * 12,) * 4, 1))]
    pictures += [load_image(path) for path in sorted(REAL.glob("tok_*"))]
    for picture in pictures:
        with pytest.raises(NoBoardFound):
            parse(picture, slate)


def test_picks_find_a_pale_ring_among_the_colours_of_their_box(store: Path, tmp_path: Path) -> None:
    """Shapes of many colours and greys beside the arena, outside the picks' box."""
    seed, view = SHOT["slate"]
    board = board_of(seed)
    img = drawn("slate", seed, view=view)
    img[:, :340], img[:, -340:] = shapes_scene(340, SIZE[1], seed), shapes_scene(340, SIZE[1], seed + 1)
    picks = camera_picks(board, SIZE, view)
    _, arena = render_camera(board, *SIZE, view, seed, hud=False, look="slate")
    reach = round(arena.outer * 1.05)
    picks["box"] = [round(arena.cx) - reach, round(arena.cy) - reach, 2 * reach, 2 * reach]
    cv2.imwrite(str(tmp_path / "busy.png"), img)
    (tmp_path / "picks.json").write_text(json.dumps(picks))
    status, out, err = run(["calibrate", "rings", tmp_path / "busy.png", "--name", "busy", "--picks",
                            tmp_path / "picks.json"])
    assert (status, err) == (0, ""), err
    assert profiles.load(store / "busy").get("board", str) == "/".join(board.relabelled().cells)


def test_dark_rings_on_a_light_floor_calibrate_too(store: Path, tmp_path: Path) -> None:
    """Far from the game: dark indigo rings and a dark teal inner ring on a light floor,
    straight down; other boards, straight down and from the game's overhead camera, read
    right or refused."""
    ink = calibrated("ink", tmp_path, store, "board")
    right = 0
    for seed, size, quality, view in OTHERS[1::2]:
        got = read(drawn("ink", seed, size, view, quality), ink)
        assert got in (None, board_of(seed).relabelled().cells), (seed, size, quality, view)
        right += got is not None
    assert right >= 1
