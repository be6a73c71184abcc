"""``fixtures add / check / make`` as a user meets them: their own fixtures beside the
project's, nothing of theirs removed, every image accounted for, a contact sheet."""
from __future__ import annotations

import json
import shutil
from pathlib import Path

import pytest

from puzzlepilot.fixtures import DEFAULT_DIR, MADE_LIST
from solvers.files import Record
from tests.helpers import run_cli

SHOT = DEFAULT_DIR / "onestroke" / "crop_7x7_blue.png"
NOT_A_GAME = DEFAULT_DIR / "lyne" / "none_desktop.png"


def expected_board(game: str, name: str) -> str:
    return json.loads((DEFAULT_DIR / game / "expected.json").read_text(encoding="utf-8"))[name]["board"]


@pytest.fixture
def mine(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    """The user's fixture folder, kept out of the real one."""
    folder = tmp_path / "mine"
    monkeypatch.setenv("PUZZLEPILOT_FIXTURES", str(folder))
    return folder


def test_add_copies_the_image_and_check_reads_it(mine: Path, tmp_path: Path):
    shot = tmp_path / "shot.png"
    shutil.copy(SHOT, shot)
    status, out, err = run_cli(["fixtures", "add", shot, "--game", "onestroke",
                                "--board", expected_board("onestroke", SHOT.name), "--note", "blue"])
    assert status == 0, err
    assert shot.is_file(), "the user's screenshot must be copied, not moved"
    assert (mine / "onestroke" / "shot.png").read_bytes() == shot.read_bytes()
    entry = json.loads((mine / "onestroke" / "expected.json").read_text())["shot.png"]
    assert entry == {"board": expected_board("onestroke", SHOT.name), "note": "blue"}
    # options before or after the game, one folder or the defaults
    for argv in (["fixtures", "check", "onestroke", "--dir", mine], ["fixtures", "check", "--dir", mine, "onestroke"],
                 ["fixtures", "check", "onestroke", "--dir", mine, "lyne"]):
        status, out, err = run_cli(argv)
        assert status == 0, out + err
        assert "1/1 fixtures read right" in out


def test_a_no_board_fixture_and_a_wrong_one_are_told_apart(mine: Path):
    assert run_cli(["fixtures", "add", NOT_A_GAME, "--game", "onestroke", "--no-board"])[0] == 0
    status, _, err = run_cli(["fixtures", "add", SHOT, "--game", "onestroke", "--name", "wrong.png",
                              "--board", "##S#/####"])
    assert status == 0, err
    status, out, _ = run_cli(["fixtures", "check", "onestroke", "--dir", mine])
    assert status == 1
    assert "1/2 fixtures read right" in out
    line = next(l for l in out.splitlines() if "wrong.png" in l)
    assert "size differs: 7x7 read, 2x4 expected" in line


def test_add_refuses_a_bad_board_a_clash_and_a_missing_image(mine: Path, tmp_path: Path):
    status, _, err = run_cli(["fixtures", "add", SHOT, "--game", "klotski", "--board", "AB/C"])
    assert status == 2 and "klotski" in err and err.count("\n") == 1
    status, _, err = run_cli(["fixtures", "add", SHOT, "--game", "onestroke", "--board", "boards/level.txt"])
    assert status == 2 and "no such board file: boards/level.txt" in err
    status, _, err = run_cli(["fixtures", "add", tmp_path / "nope.png", "--game", "onestroke", "--no-board"])
    assert status == 2 and "no such image" in err
    assert run_cli(["fixtures", "add", SHOT, "--game", "onestroke", "--no-board"])[0] == 0
    status, _, err = run_cli(["fixtures", "add", SHOT, "--game", "onestroke", "--no-board"])
    assert status == 2 and "already exists" in err
    status, _, err = run_cli(["fixtures", "add", SHOT, "--game", "onestroke", "--no-board", "--name", "../x.png"])
    assert status == 2 and "--name" in err


def test_a_board_file_is_taken_as_well(mine: Path, tmp_path: Path):
    board = tmp_path / "board.txt"
    board.write_text(expected_board("onestroke", SHOT.name).replace("/", "\n") + "\n")
    assert run_cli(["fixtures", "add", SHOT, "--game", "onestroke", "--board", board])[0] == 0
    assert run_cli(["fixtures", "check", "onestroke", "--dir", mine])[0] == 0


def test_an_image_without_an_entry_is_reported_with_what_to_add(mine: Path):
    assert run_cli(["fixtures", "add", NOT_A_GAME, "--game", "onestroke", "--no-board"])[0] == 0
    stray = mine / "onestroke" / "stray.png"
    shutil.copy(SHOT, stray)
    (mine / "onestroke" / "broken.png").write_bytes(b"not a picture")
    status, out, _ = run_cli(["fixtures", "check", "onestroke", "--dir", mine])
    assert status == 1 and "1/3 fixtures read right" in out
    line = next(l for l in out.splitlines() if "stray.png" in l)
    board = expected_board("onestroke", SHOT.name)
    assert f"fixtures add {stray} --game onestroke --board '{board}'" in line
    assert "not an image" in next(l for l in out.splitlines() if "broken.png" in l)
    # the suggestion works on the image where it lies: the entry is added, the image stays
    (mine / "onestroke" / "broken.png").unlink()
    assert run_cli(["fixtures", "add", stray, "--game", "onestroke", "--board", board])[0] == 0
    assert stray.read_bytes() == SHOT.read_bytes()
    assert run_cli(["fixtures", "check", "onestroke", "--dir", mine])[0] == 0


def test_make_leaves_the_users_files_alone(tmp_path: Path):
    folder = tmp_path / "fx"
    (folder / "valves").mkdir(parents=True)
    mine = folder / "valves" / "my_shot.png"
    shutil.copy(SHOT, mine)
    (folder / "valves" / "expected.json").write_text(json.dumps({"my_shot.png": {"board": None, "note": "mine"}}))
    other = folder / "valves" / "holiday.jpg"
    other.write_bytes(b"not mine to delete")
    status, out, err = run_cli(["fixtures", "make", "valves", "--dir", folder])
    assert status == 0, err
    assert mine.is_file() and other.read_bytes() == b"not mine to delete"
    entries = json.loads((folder / "valves" / "expected.json").read_text())
    assert entries["my_shot.png"] == {"board": None, "note": "mine"}
    made = Record.read(folder / "valves", MADE_LIST)
    assert made.names() and all(made.owns(name) and name in entries for name in made.names())
    # A file make once wrote and no longer makes goes; the user's stay.
    made.write({"old_case.png": b"x"})
    assert run_cli(["fixtures", "make", "valves", "--dir", folder])[0] == 0
    assert not (folder / "valves" / "old_case.png").exists()
    assert mine.is_file() and other.is_file()


def test_make_refuses_to_replace_a_file_it_did_not_write(tmp_path: Path):
    folder = tmp_path / "fx" / "valves"
    folder.mkdir(parents=True)
    status, out, _ = run_cli(["fixtures", "make", "valves", "--dir", tmp_path / "fx"])
    name = min(Record.read(folder, MADE_LIST).names())
    shutil.rmtree(folder)
    folder.mkdir()
    (folder / name).write_bytes(b"the user's")
    status, _, err = run_cli(["fixtures", "make", "valves", "--dir", tmp_path / "fx"])
    assert status == 2 and name in err
    assert (folder / name).read_bytes() == b"the user's"


def test_contact_sheet_shows_every_image_and_the_differences(mine: Path, tmp_path: Path):
    assert run_cli(["fixtures", "add", SHOT, "--game", "onestroke", "--name", "wrong.png",
                    "--board", expected_board("onestroke", SHOT.name).replace("S", "#", 1).replace("#", "S", 1)])[0] == 0
    assert run_cli(["fixtures", "add", NOT_A_GAME, "--game", "onestroke", "--no-board"])[0] == 0
    sheet = tmp_path / "sheet.html"
    status, out, _ = run_cli(["fixtures", "check", "--sheet", sheet, "--dir", mine])
    assert status == 1
    page = sheet.read_text(encoding="utf-8")
    assert page.count("<img src=\"data:image/jpeg;base64,") == 2
    assert "wrong.png" in page and "none_desktop.png" in page
    assert page.count("class=diff") == 2      # the two swapped cells are marked


def test_check_without_fixtures_says_where_it_looked(mine: Path, tmp_path: Path):
    empty = tmp_path / "empty"
    empty.mkdir()
    status, _, err = run_cli(["fixtures", "check", "--dir", empty])
    assert status == 2 and str(empty) in err and "fixtures add" in err and "fixtures make" in err


def test_default_check_reads_the_users_and_the_projects(mine: Path):
    assert run_cli(["fixtures", "add", SHOT, "--game", "onestroke",
                    "--board", expected_board("onestroke", SHOT.name)])[0] == 0
    status, out, _ = run_cli(["fixtures", "check", "onestroke"])
    assert status == 0
    assert f"({mine / 'onestroke'}): 1/1" in out
    assert f"({DEFAULT_DIR / 'onestroke'})" in out


def test_installed_without_a_checkout_make_and_check_use_the_data_folder(mine: Path, tmp_path: Path,
                                                                          monkeypatch: pytest.MonkeyPatch):
    import puzzlepilot.fixtures as fixtures

    monkeypatch.setattr(fixtures, "DEFAULT_DIR", tmp_path / "site-packages" / "fixtures")
    generated = mine.parent / "generated-fixtures"
    status, _, err = run_cli(["fixtures", "check"])
    assert status == 2 and str(mine) in err and str(generated) in err and "fixtures make GAME" in err
    status, out, err = run_cli(["fixtures", "make", "valves"])
    assert status == 0, err
    assert str(generated / "valves") in out
    status, out, _ = run_cli(["fixtures", "check"])
    assert status == 0 and f"({generated / 'valves'})" in out


def test_contact_sheet_as_a_picture(mine: Path, tmp_path: Path):
    import cv2

    assert run_cli(["fixtures", "add", NOT_A_GAME, "--game", "onestroke", "--no-board"])[0] == 0
    assert run_cli(["fixtures", "add", SHOT, "--game", "onestroke", "--no-board", "--name", "wrong.png"])[0] == 0
    sheet = tmp_path / "sheet.png"
    assert run_cli(["fixtures", "check", "--dir", mine, "--sheet", sheet])[0] == 1
    picture = cv2.imread(str(sheet))
    assert picture is not None and picture.shape[1] >= 2 * 320
    frames = picture.reshape(-1, 3)
    red, green = (frames == (40, 40, 220)).all(axis=1).sum(), (frames == (60, 160, 60)).all(axis=1).sum()
    assert red > 1000 and green > 1000        # one tile framed red (read wrong), one green


@pytest.mark.parametrize("argv, words", [
    (["fixtures", "make", "valves", "--dir", "{file}"], "cannot create"),
    (["fixtures", "check", "--sheet", "{tmp}"], "not a regular file"),
    (["fixtures", "check", "--sheet", "{tmp}/no/such/sheet.html"], "no such folder"),
    (["fixtures", "add", str(SHOT), "--game", "onestroke", "--no-board", "--dir", "{file}"], "cannot create"),
])
def test_unwritable_places_are_one_line_before_any_output(argv: list[str], words: str, mine: Path, tmp_path: Path):
    file = tmp_path / "a_file"
    file.write_text("not a folder")
    status, out, err = run_cli([a.format(file=file, tmp=tmp_path) for a in argv])
    assert status == 2 and out == "" and err.count("\n") == 1 and words in err
