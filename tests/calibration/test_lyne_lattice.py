"""LYNE looks the shape rules do not read are learnt by the one lattice learner
(``calibrate lyne --board`` falls back to calibration/lattice.py): other boards of the look
read right or are refused, never wrong; and the real Steam capture mid-play calibrates."""
from __future__ import annotations

import json
from pathlib import Path

import cv2
import numpy as np
import pytest

from calibration import lattice
from calibration import profile as profiles
from puzzlepilot.games import get
from puzzlepilot.scenes import zoo
from solvers.lyne import Board
from vision.common import NoBoardFound
from vision.lattice import RULES
from vision.profile import Profile
from tests.helpers import run_cli as run

REAL = Path(__file__).resolve().parents[2] / ".." / "shared" / "real"
LOOK = "paper-icons-x0.85"   # every node a badge with its shape inside, on paper: the shape rules do not read it


def read(image: np.ndarray, profile: Profile) -> str:
    return get("lyne").parse(image, profile=profile).board.to_text().replace("\n", "/")


@pytest.fixture(scope="module")
def learnt(tmp_path_factory: pytest.TempPathFactory, store: Path) -> Profile:
    """The zoo look's profile, written by ``calibrate lyne SHOT --board``."""
    img, truth = zoo.render_lyne(zoo.LYNE_CALIBRATION, zoo.LYNE_LOOKS[LOOK])
    path = tmp_path_factory.mktemp("lyne") / "shot.png"
    cv2.imwrite(str(path), img)
    with pytest.MonkeyPatch.context() as env:
        env.setenv("PUZZLEPILOT_PROFILES", str(store))
        status, _, err = run(["calibrate", "lyne", path, "--name", LOOK, "--board", truth.board])
        assert (status, err) == (0, ""), err
        return profiles.load(store / LOOK)


def test_a_look_the_shape_rules_refuse_is_learnt_as_a_lattice(learnt: Profile) -> None:
    assert learnt.data["lattice"]["classes"] == [".", "D", "T", "d", "t"]
    assert sum(f.stat().st_size for f in learnt.folder.iterdir()) < 8 * 1024


def test_other_boards_sizes_crops_and_jpegs_read_right_or_are_refused(learnt: Profile) -> None:
    seen = []
    for _, image, want in zoo.lyne_others(zoo.LYNE_LOOKS[LOOK], count=3):
        try:
            seen.append("exact" if read(image, learnt) == want else "wrong")
        except NoBoardFound:
            seen.append("refused")
    assert "wrong" not in seen and seen.count("exact") >= 2, seen


def test_a_board_in_two_parts_is_never_read_as_one_of_them(learnt: Profile) -> None:
    """An empty row splits the board: the part the reading starts from is a LYNE board of
    its own, but the picture shows more nodes on the same lattice."""
    board = Board.from_text("tt./T.T/.../..d/.DD")
    img, truth = zoo.render_lyne(board, zoo.LYNE_LOOKS[LOOK], 640, 480)
    try:
        assert read(img, learnt) == truth.board
    except NoBoardFound:
        pass


@pytest.mark.parametrize("picture", ["empty area", "one-stroke board", "a node scribbled over"])
def test_a_picture_that_is_no_board_of_the_look_is_refused(learnt: Profile, picture: str) -> None:
    if picture == "empty area":
        img, _ = zoo.render_lyne(Board.from_text("T.T/.../t.t"), zoo.LYNE_LOOKS[LOOK], 640, 480)
        img[:] = img[5, 5]
    elif picture == "one-stroke board":
        img, _ = zoo.render(zoo.CALIBRATION, zoo.LOOKS["paper-dot-ring"])     # dots on paper too
    else:       # a cursor-sized blot of another colour over a node
        img, truth = zoo.render_lyne(zoo.LYNE_CALIBRATION, zoo.LYNE_LOOKS[LOOK])
        x, y = truth.cells[1 * zoo.LYNE_CALIBRATION.cols + 2]     # a "d"
        cv2.circle(img, (round(x), round(y)), round(0.25 * truth.pitch), (30, 200, 60), -1)
    with pytest.raises(NoBoardFound):
        read(img, learnt)


# ---------------------------------------------------------------------------- the real game

GIFA = REAL / "lyne" / "steam_gifa_f130.png"


@pytest.mark.skipif(not GIFA.is_file(), reason="the real screenshots are not here")
def test_the_real_capture_mid_play_calibrates_and_reads_back_its_board(store: Path, tmp_path: Path) -> None:
    """Paths drawn, a cursor: the profile reads its own capture as its board, and the same
    game's other captures right or not at all."""
    labels = json.loads((REAL / "labels.json").read_text())
    status, _, err = run(["calibrate", "lyne", GIFA, "--name", "gifa", "--board", labels["lyne/steam_gifa_f130.png"]])
    assert (status, err) == (0, "")
    prof = profiles.load(store / "gifa")
    for name, want in labels.items():
        if not name.startswith("lyne/"):
            continue
        try:
            got = read(cv2.imread(str(REAL / name)), prof)
        except NoBoardFound:
            assert name != "lyne/steam_gifa_f130.png"
            continue
        assert got == want, name


def test_a_hub_of_a_count_the_look_was_not_taught_is_refused_not_read_as_one_taught(tmp_path: Path) -> None:
    """Discs for hubs, their holes a few pixels apart: a look taught only hubs of 2 holes
    would read a hub of 3 as one of 2 (a solvable level, so only the missing count tells)."""
    look = zoo.LYNE_LOOKS["paper-dots"]
    img, truth = zoo.render_lyne(Board.from_text("T.tD/tt2d/.tdd/T.dD"), look)
    data, templates = lattice.learn(img, truth.board.split("/"), rules=RULES["lyne"])
    prof = profiles.save({**data, "game": "lyne", "name": "twos"}, templates, tmp_path / "twos")
    img, truth = zoo.render_lyne(Board.from_text("Dt..D/.23dd/T2tTd"), look, 960, 720)
    with pytest.raises(NoBoardFound, match="a hub may have a count"):
        read(img, prof)
