"""``parse --stages DIR`` as a user meets it: every game's reading leaves pictures of its
stages, a refusal leaves those it reached (same message, exit 2), a folder of someone
else's is refused untouched, and without the option nothing is written or drawn."""
from __future__ import annotations

import json
import re
from pathlib import Path

import cv2
import numpy as np
import pytest

from puzzlepilot.fixtures import DEFAULT_DIR, MADE_LIST
from solvers.files import Record
from tests.helpers import run_cli
from vision.common import recording_stages, stage

# One fixture the project renders per game, with the board it shows.
SHOTS = {
    "onestroke": "phone_6x6_blue_1080.png",
    "lyne": "real_1_original_800.png",
    "klotski": "wooden_80_hengdaolima.jpg",
    "rings": "camera_tilted_1280.jpg",
    "valves": "sewer_ABH_480.png",
}
PICTURE = re.compile(r"^(\d\d)-([a-z]+)-[a-z0-9-]+\.png$")


def expected_board(game: str) -> str:
    return json.loads((DEFAULT_DIR / game / "expected.json").read_text(encoding="utf-8"))[SHOTS[game]]["board"]


def pictures(folder: Path) -> list[str]:
    return sorted(p.name for p in folder.iterdir() if p.name != MADE_LIST)


def gradient(path: Path) -> Path:
    """A plain grey gradient: no game's board."""
    ramp = np.tile(np.linspace(40, 220, 640, dtype=np.float32), (480, 1)).astype(np.uint8)
    cv2.imwrite(str(path), cv2.merge([ramp, ramp, ramp]))
    return path


@pytest.mark.parametrize("game", sorted(SHOTS))
def test_each_game_writes_its_stages_as_pictures_that_decode(game: str, tmp_path: Path):
    out = tmp_path / "stages" / game       # created, parents too
    status, stdout, err = run_cli(["parse", DEFAULT_DIR / game / SHOTS[game], "--game", game,
                                   "--stages", out, "--json"])
    assert status == 0, err
    assert json.loads(stdout)["board"] == expected_board(game), "--stages must not change the reading"
    names = pictures(out)
    assert names and sorted(Record.read(out, MADE_LIST).names()) == names
    found = [PICTURE.match(n) for n in names]
    assert all(found), names
    assert [int(m.group(1)) for m in found] == list(range(1, len(names) + 1))
    assert {m.group(2) for m in found} == {game}
    assert len({n[3:] for n in names}) >= 3, f"a reading shows at least 3 different stages: {names}"
    for name in names:
        picture = cv2.imread(str(out / name), cv2.IMREAD_UNCHANGED)
        assert picture is not None and picture.size > 0 and picture.max() > picture.min(), name
    assert f"{len(names)} stage pictures in {out}" in err


def test_a_refusal_writes_the_stages_reached_and_keeps_its_message(tmp_path: Path):
    shot = gradient(tmp_path / "gradient.png")
    plain = run_cli(["parse", shot])
    out = tmp_path / "stages"
    status, stdout, err = run_cli(["parse", shot, "--stages", out])
    assert plain[0] == status == 2 and stdout == ""
    assert "no board found" in plain[2]
    lines = err.splitlines()
    assert len(lines) == 2 and plain[2].strip() in lines, err
    names = pictures(out)
    assert names, "the stages reached before the refusal are written"
    assert f"{len(names)} stage pictures in {out}" in err
    assert len({PICTURE.match(n).group(2) for n in names}) >= 3, f"every game's vision tried: {names}"


def test_a_folder_with_someone_elses_files_is_refused_untouched(tmp_path: Path):
    out = tmp_path / "mine"
    out.mkdir()
    (out / "notes.txt").write_text("mine")
    status, stdout, err = run_cli(["parse", DEFAULT_DIR / "lyne" / SHOTS["lyne"], "--stages", out])
    assert status == 2 and stdout == ""
    assert len(err.splitlines()) == 1 and "did not write" in err, err
    assert sorted(p.name for p in out.iterdir()) == ["notes.txt"]


def test_a_fixture_folder_is_not_taken_for_a_stages_folder(tmp_path: Path):
    out = tmp_path / "fixtures"
    out.mkdir()
    (out / MADE_LIST).write_text(json.dumps(["board.png"]))     # as ``fixtures make`` lists its own
    (out / "board.png").write_bytes(b"a fixture")
    status, _, err = run_cli(["parse", DEFAULT_DIR / "lyne" / SHOTS["lyne"], "--stages", out])
    assert status == 2 and "did not write" in err
    assert (out / "board.png").read_bytes() == b"a fixture"
    assert json.loads((out / MADE_LIST).read_text()) == ["board.png"]


def test_a_file_as_the_folder_is_refused(tmp_path: Path):
    out = tmp_path / "file.png"
    out.write_bytes(b"mine")
    status, _, err = run_cli(["parse", DEFAULT_DIR / "lyne" / SHOTS["lyne"], "--stages", out])
    assert status == 2 and len(err.splitlines()) == 1 and "not a folder" in err
    assert out.read_bytes() == b"mine"


def test_a_folder_it_wrote_before_is_reused_without_stale_pictures(tmp_path: Path):
    out = tmp_path / "stages"
    assert run_cli(["parse", gradient(tmp_path / "g.png"), "--stages", out])[0] == 2
    many = pictures(out)
    status, _, err = run_cli(["parse", DEFAULT_DIR / "klotski" / SHOTS["klotski"], "--game", "klotski",
                              "--stages", out])
    assert status == 0, err
    names = pictures(out)
    assert names != many and sorted(Record.read(out, MADE_LIST).names()) == names
    assert all(n.split("-")[1] == "klotski" for n in names), names


def test_solve_writes_stages_too_and_needs_a_screenshot(tmp_path: Path):
    out = tmp_path / "stages"
    status, _, err = run_cli(["solve", DEFAULT_DIR / "valves" / SHOTS["valves"], "--stages", out])
    assert status == 0, err
    assert pictures(out)
    board = tmp_path / "board.txt"
    board.write_text("##S#\n#..#\n####\n")
    status, _, err = run_cli(["solve", "--game", "onestroke", "--board", board, "--stages", tmp_path / "other"])
    assert status == 2 and "--stages needs a screenshot" in err
    assert not (tmp_path / "other").exists()


def test_without_stages_nothing_is_written(tmp_path: Path, monkeypatch: pytest.MonkeyPatch):
    monkeypatch.chdir(tmp_path)
    shot = DEFAULT_DIR / "onestroke" / SHOTS["onestroke"]
    assert run_cli(["parse", shot])[0] == 0
    assert run_cli(["parse", gradient(tmp_path / "g.png")])[0] == 2
    assert sorted(p.name for p in tmp_path.iterdir()) == ["g.png"]


def test_a_stage_with_no_recorder_draws_nothing():
    def draw() -> np.ndarray:
        raise AssertionError("drawn with no recorder active")

    stage("test-nothing", draw)     # no recorder: the drawing is never called
    with recording_stages() as recorder:
        mask = np.zeros((4, 4), bool)
        stage("test-mask", mask)
        stage("test-drawn", lambda: np.full((4, 4, 3), 9, np.uint8))
        mask[:] = True              # recorded as it was, not as it became
    assert [name for name, _ in recorder.pictures] == ["test-mask", "test-drawn"]
    assert recorder.pictures[0][1].dtype == np.uint8 and recorder.pictures[0][1].max() == 0
    stage("test-after", draw)       # the recorder is off again after the block


def test_a_recorder_keeps_large_pictures_reduced_and_counts_those_past_its_limit():
    from vision.common import MAX_STAGES, STAGE_SIDE

    with recording_stages() as recorder:
        stage("test-large", np.zeros((10, 3 * STAGE_SIDE, 3), np.uint8))
        for _ in range(MAX_STAGES + 2):
            stage("test-small", np.zeros((4, 4), np.uint8))
    assert max(recorder.pictures[0][1].shape) == STAGE_SIDE
    assert len(recorder.pictures) == MAX_STAGES and recorder.dropped == 3
