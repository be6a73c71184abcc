"""LYNE looks the shape rules do not read are learnt by the one lattice learner
(``calibrate lyne --board`` falls back to calibration/lattice.py): other boards of the look
read right or are refused, never wrong; and the real Steam capture mid-play calibrates."""
from __future__ import annotations

import json
import random
from pathlib import Path

import cv2
import numpy as np
import pytest

from calibration import lattice
from calibration import lyne as learner
from calibration import profile as profiles
from puzzlepilot.games import get
from puzzlepilot.scenes import zoo
from puzzlepilot.scenes import lyne as lyne_scene
from solvers.lyne import Board, generate
from vision.common import NoBoardFound
from vision.lattice import RULES
from vision.profile import Profile, ProfileError
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


def learn(look: str, board: Board, store: Path) -> Profile:
    """The learnt lattice alone (as ``calibrate lyne --board`` falls back to) on a 640×480 frame."""
    img, truth = zoo.render_lyne(board, zoo.LYNE_LOOKS[look])
    data, templates = lattice.learn(img, truth.board.split("/"), rules=RULES["lyne"])
    return profiles.save({**data, "game": "lyne", "name": look}, templates, store / look)


@pytest.mark.parametrize("look, taught", [("paper-dots", "none"), ("paper-dots", "2"),
                                         ("paddlepop-outlines-x1.15", "none")])
def test_hubs_are_counted_by_their_holes_whatever_counts_the_calibration_showed(look: str, taught: str,
                                                                               tmp_path: Path) -> None:
    """A hub is one kind of place whose count is read from its holes: a look learnt on a
    level without hubs, or with hubs of 2 holes only, reads hubs of 2, 3 and 4; an outlined
    hub's holes are the dots inside it."""
    calibration = zoo.LYNE_CALIBRATION if taught == "none" else Board.from_text("T.tD/tt2d/.tdd/T.dD")
    prof = learn(look, calibration, tmp_path)
    assert prof.data["lattice"]["classes"] == sorted(".DTdt" + ("h" if taught == "2" else ""))
    for text, width in (("Dt..D/.23dd/T2tTd", 960), ("Dd2dD/..t4t/..t22/..TT.", 640)):
        img, truth = zoo.render_lyne(Board.from_text(text.replace("/", "\n")), zoo.LYNE_LOOKS[look], width,
                                     width * 3 // 4)
        assert read(img, prof) == truth.board


def test_a_profile_that_learnt_a_class_per_hub_count_asks_for_a_new_calibration(tmp_path: Path) -> None:
    prof = learn("paper-dots", zoo.LYNE_CALIBRATION, tmp_path)
    data = json.loads((prof.folder / "profile.json").read_text())
    data["lattice"]["classes"][1] = "2"
    (prof.folder / "profile.json").write_text(json.dumps(data))
    with pytest.raises(ProfileError, match="calibrate again"):
        read(zoo.render_lyne(zoo.LYNE_CALIBRATION, zoo.LYNE_LOOKS["paper-dots"])[0], profiles.load(prof.folder))


def test_terminals_that_differ_from_nodes_by_a_ring_of_a_near_colour_are_learnt(tmp_path: Path) -> None:
    """Electro's discs: a terminal is its node's green in a ring of another green round a
    cream centre, on a gradient. Judged on the nodes' cores (the ring left out), the
    terminal's centre tells them apart."""
    prof = learn("electro-dots-x0.85-gradient", zoo.LYNE_CALIBRATION, tmp_path)
    for _, image, want in zoo.lyne_others(zoo.LYNE_LOOKS["electro-dots-x0.85-gradient"], count=3):
        assert read(image, prof) == want


@pytest.mark.parametrize("seed", [44, 66])
def test_a_level_mid_play_is_read_through_its_paths(seed: int, tmp_path: Path) -> None:
    """The game's own look (tulip), learnt from a fresh level: mid-play, paths drawn from
    node to node (a finished one in cream, one being drawn in its shape's colour) with
    rings round the nodes they passed, and the pointer at the drawn path's head (seed 44),
    are no nodes."""
    pal = lyne_scene.PALETTES["tulip"]
    img, truth = lyne_scene.render(zoo.LYNE_CALIBRATION, pal, 640, 480)
    data, templates = lattice.learn(img, truth.board.split("/"), rules=RULES["lyne"])
    prof = profiles.save({**data, "game": "lyne", "name": "tulip"}, templates, tmp_path / "tulip")
    rng = random.Random(seed)
    board, answer = generate(rng.randint(3, 5), rng.randint(3, 5), rng, shapes="td")
    play = lyne_scene.mid_play(board, answer, rng)
    image, truth = lyne_scene.render(board, pal, 800, 600, play=play)
    assert play.drawing and len(play.drawing[1]) + len(play.done) >= 3
    if seed == 44:
        lyne_scene.pointer(image, play.head(truth, board.cols), 0.2 * truth.pitch)
    assert read(image, prof) == truth.board


def test_thin_outlines_near_the_grounds_colour_are_judged_where_the_kinds_differ(tmp_path: Path) -> None:
    """Moonbase's outlines: each node a thin grey outline over the faint disc every empty
    place has. Over the whole place an outlined diamond and an empty place differ by 3.6 Lab
    units (the ground dilutes the stroke: alike); with every pixel weighted by how much the
    kinds differ there they tell apart, and other boards read right or are refused."""
    look = zoo.LYNE_LOOKS["moonbase-outlines-x0.85"]
    prof = learn(look.name, zoo.LYNE_CALIBRATION, tmp_path)
    assert prof.data["lattice"].get("weighted") == "pairs"
    seen = []
    for _, image, want in zoo.lyne_others(look, count=3):
        try:
            seen.append("exact" if read(image, prof) == want else "wrong")
        except NoBoardFound:
            seen.append("refused")
    assert "wrong" not in seen and seen[2] == "exact", seen


def test_a_look_whose_best_scored_lattice_lies_on_the_ground_is_learnt_on_the_board(tmp_path: Path) -> None:
    """Original's outlines on a gradient: the coarse search scores a lattice of a quarter of
    the board's pitch on the smooth ground above the board's own (its places differ by the
    gradient alone, its scatter within classes the least); the classes look alike on it, so
    the next best pitch, the board's, is learnt."""
    img, truth = zoo.render_lyne(zoo.LYNE_CALIBRATION, zoo.LYNE_LOOKS["original-outlines-gradient"])
    prof = learn("original-outlines-gradient", zoo.LYNE_CALIBRATION, tmp_path)
    assert all(abs(p / truth.pitch - 1) < 0.03 for p in prof.data["pitch"])
    assert read(img, prof) == truth.board


def test_a_look_the_shape_rules_read_at_its_own_size_only_is_learnt(tmp_path: Path) -> None:
    """Paddle pop's shapes on a textured ground: the shape rules read the calibration
    screenshot but not the same screenshot at half or 1.5 times its size, nor some other
    boards of the look (refused: "a blob that is no LYNE node", "the grid place holds
    something unread"); the learnt lattice reads those, so ``calibrate lyne --board`` keeps it."""
    look = zoo.LYNE_LOOKS["paddlepop-shapes-x0.85-texture"]
    img, _ = zoo.render_lyne(zoo.LYNE_CALIBRATION, look)
    data, templates = learner.learn(img, board=zoo.LYNE_CALIBRATION)
    assert "lattice" in data
    prof = profiles.save({**data, "game": "lyne", "name": look.name}, templates, tmp_path / look.name)
    others = zoo.lyne_others(look, count=3)
    for _, image, want in (others[0], others[2]):
        assert read(image, prof) == want
