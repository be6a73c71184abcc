"""The learnt look (calibration/lattice.py, vision/lattice.py): one screenshot and its board
teach a one-stroke look whatever it is, and other screenshots of it read right or are refused."""
from __future__ import annotations

import json
from pathlib import Path

import cv2
import numpy as np
import pytest

from calibration import lattice
from calibration import onestroke as learner
from calibration import profile as profiles
from vision import lattice as reader
from puzzlepilot.games import get
from puzzlepilot.scenes import zoo
from solvers.onestroke import Board
from vision.common import NoBoardFound
from vision.profile import Profile, ProfileError
from tests.helpers import run_cli as run

REAL = Path(__file__).resolve().parents[2] / ".." / "shared" / "real" / "onestroke"
ZQ_BOARD = "#####./######/.#.###/######/###.##/.####S/######"
LOOKS = ("rose-square-colour", "sand-outline-star")    # a start only a colour; outlines with a star
OTHERS = {name: zoo.others(zoo.LOOKS[name], count=(10, 4)[i]) for i, name in enumerate(LOOKS)}


def read(image: np.ndarray, profile: Profile) -> str:
    return get("onestroke").parse(image, profile=profile).board.to_text().replace("\n", "/")


@pytest.fixture(scope="module")
def learnt(tmp_path_factory: pytest.TempPathFactory, store: Path) -> dict[str, Profile]:
    """A profile per zoo look, written by ``calibrate onestroke SHOT --board``."""
    folder = tmp_path_factory.mktemp("zoo")
    out = {}
    with pytest.MonkeyPatch.context() as env:
        env.setenv("PUZZLEPILOT_PROFILES", str(store))
        for name in LOOKS:
            img, truth = zoo.render(zoo.CALIBRATION, zoo.LOOKS[name])
            path = folder / f"{name}.png"
            cv2.imwrite(str(path), img)
            status, out_text, err = run(["calibrate", "onestroke", path, "--name", name, "--board", truth.board])
            assert (status, err) == (0, ""), err
            out[name] = profiles.load(store / name)
    return out


def test_the_colour_rules_cannot_calibrate_the_zoo_looks() -> None:
    """The looks need the learnt lattice: the colour learner finds no grid in them."""
    for name in LOOKS:
        img, _ = zoo.render(zoo.CALIBRATION, zoo.LOOKS[name])
        with pytest.raises(ProfileError, match="no colour"):
            learner._match_board(img, zoo.CALIBRATION)


def test_a_profile_is_small_and_learnt(learnt: dict[str, Profile]) -> None:
    for prof in learnt.values():
        assert prof.data["lattice"]["classes"] == ["#", ".", "S"]
        assert sum(f.stat().st_size for f in prof.folder.iterdir()) < 8 * 1024


@pytest.fixture(scope="module")
def outcomes(learnt: dict[str, Profile]) -> dict[str, list[str]]:
    """Per look, each other picture read with its profile: "exact", "refused" or the wrong board."""
    out: dict[str, list[str]] = {}
    for look in LOOKS:
        out[look] = []
        for _, image, want in OTHERS[look]:
            try:
                got = read(image, learnt[look])
            except NoBoardFound:
                got = "refused"
            out[look].append("exact" if got == want else got)
    return out


def test_no_other_board_size_crop_or_jpeg_reads_wrong(outcomes: dict[str, list[str]]) -> None:
    for look, seen in outcomes.items():
        assert set(seen) <= {"exact", "refused"}, (look, seen)


def test_most_other_pictures_read(outcomes: dict[str, list[str]]) -> None:
    exact = sum(seen.count("exact") for seen in outcomes.values())
    assert exact >= 0.8 * sum(map(len, outcomes.values())), outcomes


@pytest.mark.parametrize("name, i", [("navy-ring-letter", 3), ("navy-ring-letter", 6)])
def test_a_start_marked_by_a_small_sign_reads_at_another_size(name: str, i: int, tmp_path: Path) -> None:
    """Rings with a letter: the start differs from a cell only by a small
    sign, so a cell drawn at 1.5x strays from its template more than half that difference; the
    margin to the next kind, not half of it, decides (these were refused)."""
    img, truth = zoo.render(zoo.CALIBRATION, zoo.LOOKS[name])
    data, templates = learner.learn(img, board=zoo.CALIBRATION)
    assert "lattice" in data
    prof = profiles.save({**data, "game": "onestroke", "name": name}, templates, tmp_path / name)
    _, image, want = zoo.others(zoo.LOOKS[name], count=i + 1)[i]
    assert read(image, prof) == want


def test_a_ring_drawn_at_half_the_size_reads(tmp_path: Path) -> None:
    """Rings drawn at half the size keep lines a whole pixel thick, so a cell strays from its
    template further than any cell of the calibration; the tolerance learnt from the screenshot
    at half its size with its strokes a pixel bolder allows for it (this was refused: "no steady
    grid", every cell 12-13 Lab units from its template, the tolerance 10)."""
    look = zoo.LOOKS["paper-ring-letter"]
    img, _ = zoo.render(zoo.CALIBRATION, look)
    data, templates = learner.learn(img, board=zoo.CALIBRATION)
    prof = profiles.save({**data, "game": "onestroke", "name": look.name}, templates, tmp_path / look.name)
    name, image, want = zoo.others(look, count=1)[0]
    assert name.startswith("360px") and read(image, prof) == want


def test_a_look_the_colour_rules_read_at_its_own_size_only_is_learnt(tmp_path: Path) -> None:
    """Cocoa's ruled grid: the colour rules read the calibration screenshot (so they kept
    their look) but not the same screenshot at half or 1.5 times the size, nor other
    boards of the look; the learnt lattice reads those, so it is kept instead."""
    look = zoo.LOOKS["cocoa-ruled-dot"]
    img, _ = zoo.render(zoo.CALIBRATION, look)
    learner.build(img, *learner._match_board(img, zoo.CALIBRATION))      # the colour rules read it
    data, templates = learner.learn(img, board=zoo.CALIBRATION)
    assert "lattice" in data
    prof = profiles.save({**data, "game": "onestroke", "name": look.name}, templates, tmp_path / look.name)
    for _, image, want in zoo.others(look, count=4)[1:]:
        assert read(image, prof) == want


def test_a_foreign_mark_on_a_cell_is_refused_not_read(learnt: dict[str, Profile]) -> None:
    """A cursor-like blot over one cell is none of the learnt kinds: the board is refused."""
    board = Board.from_text(".###./#####/#####/S####/#####")     # a level: a path visits every cell
    img, truth = zoo.render(board, zoo.LOOKS["rose-square-colour"])
    assert read(img, learnt["rose-square-colour"]) == truth.board
    x, y = truth.cells[1 * board.cols + 1]
    cv2.circle(img, (round(x), round(y)), round(0.3 * truth.pitch), (30, 200, 60), -1)
    with pytest.raises(NoBoardFound):
        read(img, learnt["rose-square-colour"])


def test_a_board_with_no_path_is_refused_as_no_level(learnt: dict[str, Profile]) -> None:
    """A learnt look whose start is only a colour: squares with one apart and no path
    through them all (parity) are no level of the game, so no board."""
    board = Board.from_text("S#.###/######/######/###.##/#.####")
    img, _ = zoo.render(board, zoo.LOOKS["rose-square-colour"])
    with pytest.raises(NoBoardFound, match="no path from it visits every cell"):
        read(img, learnt["rose-square-colour"])


def test_a_board_cut_by_the_picture_edge_is_refused(learnt: dict[str, Profile]) -> None:
    board = Board.from_text("#####/#S###/#####/##.##")
    img, truth = zoo.render(board, zoo.LOOKS["sand-outline-star"])
    x = round(truth.cells[0][0] + 0.5 * truth.pitch)        # the first column cut off
    with pytest.raises(NoBoardFound):
        read(img[:, x:], learnt["sand-outline-star"])


def test_a_board_the_screenshot_does_not_show_is_refused() -> None:
    img, _ = zoo.render(zoo.CALIBRATION, zoo.LOOKS["rose-square-colour"])
    with pytest.raises(ProfileError):
        lattice.learn(img, ["##S##", "#####", "#####", "##.##"])


def test_a_board_with_no_hole_calibrates_and_reads_back(tmp_path: Path) -> None:
    """No '.' on the board: the places around it stand for the empty kind and bound the lattice,
    so the board reads back and another hole-less board of the look, at another size, reads."""
    board = Board.from_text("##S#\n####\n####")
    img, truth = zoo.render(board, zoo.LOOKS["rose-square-colour"])
    data, templates = lattice.learn(img, board.to_text().split("\n"))
    assert data["board"] == truth.board and data["lattice"]["classes"] == ["#", ".", "S"]
    x, y = truth.cells[0]
    assert abs(data["region"][0] - (x - truth.pitch / 2)) < 0.1 * truth.pitch
    prof = profiles.save({**data, "game": "onestroke", "name": "holeless"}, templates, tmp_path / "holeless")
    assert read(img, prof) == truth.board
    other, other_truth = zoo.render(Board.from_text("###\n#S#\n###"), zoo.LOOKS["rose-square-colour"], 900, 1600)
    assert read(other, prof) == other_truth.board


def test_the_read_back_of_a_look_the_reader_does_not_find_gives_up_after_a_few_lattices(
        monkeypatch: pytest.MonkeyPatch) -> None:
    """Rose outlines with a star, judged where its kinds differ: every place of the screenshot
    is its kind on the learnt lattice, but the reader's lattices on it are the outlines'
    texture, each grown far past the board to no steady grid (7 a read-back, up to 1,160
    places: 2.5 CPU minutes before the look was refused). The read-back of the look's own
    screenshot settles at most READ_BACK_TRIED lattices, stops one that grows past the board
    and a place round it, and says it gave up; the look is refused."""
    settled: list[int] = []
    gave_up: list[str] = []
    settle, read_classes = reader._settle, lattice.read_classes

    def counted(*args: object, **kwargs: object) -> object:
        settled[-1] += 1
        return settle(*args, **kwargs)

    def read_back(*args: object, **kwargs: object) -> object:
        settled.append(0)
        try:
            return read_classes(*args, **kwargs)
        except NoBoardFound as exc:
            gave_up.append(str(exc))
            raise

    monkeypatch.setattr(reader, "_settle", counted)
    monkeypatch.setattr(lattice, "read_classes", read_back)
    img, _ = zoo.render(zoo.CALIBRATION, zoo.LOOKS["rose-outline-star"])
    with pytest.raises(ProfileError):
        learner.learn(img, board=zoo.CALIBRATION)
    assert settled and max(settled) <= lattice.READ_BACK_TRIED, settled
    assert gave_up and all(f"gave up after {lattice.READ_BACK_TRIED} lattices" in reason for reason in gave_up), gave_up


def test_a_picture_with_no_board_does_not_calibrate() -> None:
    """The given hole-less board is not on the screenshot (the look's background only): refused
    because no lattice tells its places from the places around it."""
    img, _ = zoo.render(zoo.CALIBRATION, zoo.LOOKS["rose-square-colour"])
    blank = np.ascontiguousarray(np.broadcast_to(img[300:301, 20:21], img.shape))
    with pytest.raises(ProfileError, match="look alike"):
        lattice.learn(blank, ["##S#", "####", "####"])


@pytest.mark.parametrize("change, field", [
    ({"version": 2}, "lattice.version"), ({"classes": ["#"]}, "lattice.classes"),
    ({"tolerance": [1, 2]}, "lattice.tolerance"), ({"pitch_share": [0, 1]}, "lattice.pitch_share"),
    ({"rim": 0.5}, "lattice.rim"), ({"weighted": 1}, "lattice.weighted"),
])
def test_a_profile_of_another_format_is_refused_naming_the_field(learnt: dict[str, Profile], tmp_path: Path,
                                                                  change: dict, field: str) -> None:
    prof = learnt["rose-square-colour"]
    data = json.loads((prof.folder / "profile.json").read_text())
    data["lattice"].update(change)
    folder = tmp_path / "changed"
    folder.mkdir()
    (folder / "profile.json").write_text(json.dumps(data))
    (folder / "classes.png").write_bytes((prof.folder / "classes.png").read_bytes())
    img, _ = zoo.render(zoo.CALIBRATION, zoo.LOOKS["rose-square-colour"])
    shot = tmp_path / "shot.png"
    cv2.imwrite(str(shot), img)
    status, _, err = run(["parse", shot, "--game", "onestroke", "--profile", folder])
    assert status == 2 and field in err and err.count("\n") == 1


# ---------------------------------------------------------------------------- the real game

@pytest.mark.skipif(not (REAL / "zqlyl_35-18.png").is_file(), reason="the real screenshots are not here")
def test_the_real_zqlyl_look_calibrates_reads_back_and_refuses_its_popup(store: Path, tmp_path: Path) -> None:
    """最强连一连: grey squares on navy, a purple start square, no cat (the colour rules refused it)."""
    status, _, err = run(["calibrate", "onestroke", REAL / "zqlyl_35-18.png", "--name", "zq", "--board", ZQ_BOARD])
    assert (status, err) == (0, "")
    boards = tmp_path / "boards.json"
    boards.write_text(json.dumps({"zqlyl_35-18.png": ZQ_BOARD}))
    status, out, _ = run(["calibrate", "--check", "zq", REAL / "zqlyl_35-18.png", "--boards", boards])
    assert status == 0 and "matches" in out
    with pytest.raises(NoBoardFound):
        read(cv2.imread(str(REAL / "zqlyl_giftpopup.png")), profiles.load(store / "zq"))
