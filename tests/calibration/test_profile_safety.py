"""Profiles never remove or replace what the user did not let the tool write: calibrate into
a folder of the user's is refused before any work, delete removes only folders the tool
wrote, templates must lie inside the profile folder, and malformed JSON is one line."""
from __future__ import annotations

import json
import os
from pathlib import Path

import cv2
import numpy as np
import pytest

from calibration import profile as profiles
from puzzlepilot.scenes.klotski import render
from solvers.klotski import generate
from vision.profile import ProfileError
from tests.helpers import run_cli as run


@pytest.fixture
def store(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    monkeypatch.setenv("PUZZLEPILOT_PROFILES", str(tmp_path / "store"))
    return tmp_path / "store"


def tile(value: int) -> np.ndarray:
    return np.full((8, 8, 3), value, np.uint8)


def snapshot(folder: Path) -> dict[str, bytes]:
    return {str(p.relative_to(folder)): p.read_bytes() for p in folder.rglob("*") if p.is_file()}


def calibrate_args(tmp_path: Path) -> list[object]:
    board = generate(5, 4, 3)
    img, _ = render(board, style="flat", cell=60)
    shot = tmp_path / "shot.png"
    cv2.imwrite(str(shot), img)
    return ["calibrate", "klotski", shot, "--name", "mine", "--board", board.to_text().replace("\n", "/")]


def test_calibrate_into_a_folder_of_the_users_is_refused_and_leaves_it_whole(tmp_path, store):
    user = tmp_path / "documents"
    user.mkdir()
    (user / "thesis.txt").write_text("years of work")
    (user / "sub").mkdir()
    (user / "sub" / "notes.md").write_text("notes")
    before = snapshot(user)
    status, out, err = run([*calibrate_args(tmp_path), "--dir", user])
    assert status == 2 and out == "" and err.count("\n") == 1 and "not a puzzlepilot profile" in err
    assert snapshot(user) == before
    assert sorted(p.name for p in tmp_path.iterdir()) == ["documents", "shot.png"]   # no temp folder left


def test_calibrate_writes_into_a_new_or_empty_folder_and_over_its_own(tmp_path, store):
    args = calibrate_args(tmp_path)
    empty = tmp_path / "empty"
    empty.mkdir()
    assert run([*args, "--dir", empty])[0] == 0
    assert (empty / profiles.MARKER).is_file() and profiles.load(empty).game == "klotski"
    assert run([*args, "--dir", empty])[0] == 0   # again: the folder is the tool's own
    assert run([*args, "--dir", tmp_path / "new" / "deeper"])[0] == 0


def test_a_profile_folder_holding_a_file_of_the_users_is_not_replaced(tmp_path):
    dest = tmp_path / "p"
    profiles.save({"game": "lyne", "name": "p"}, {"a": tile(1)}, dest)
    (dest / "mine.txt").write_text("keep me")
    with pytest.raises(ProfileError, match="not a puzzlepilot profile"):
        profiles.save({"game": "lyne", "name": "p"}, {"a": tile(2)}, dest)
    assert (dest / "mine.txt").read_text() == "keep me"


@pytest.mark.parametrize("kind", ["file", "fifo", "symlink"])
def test_a_destination_that_is_not_a_plain_folder_is_refused(tmp_path, kind):
    dest = tmp_path / "dest"
    target = tmp_path / "elsewhere"
    target.mkdir()
    if kind == "file":
        dest.write_text("user data")
    elif kind == "fifo":
        os.mkfifo(dest)
    else:
        dest.symlink_to(target)
    with pytest.raises(ProfileError, match="not a folder"):
        profiles.save({"game": "lyne", "name": "p"}, {}, dest)
    assert dest.is_symlink() if kind == "symlink" else dest.exists()
    assert list(target.iterdir()) == []


def test_delete_removes_only_folders_the_tool_wrote(store):
    profiles.save({"game": "klotski", "name": "wood"}, {"a": tile(1)}, store / "wood")
    (store / "holiday-photos").mkdir()
    (store / "holiday-photos" / "beach.jpg").write_bytes(b"jpeg")
    profiles.save({"game": "klotski", "name": "mixed"}, {}, store / "mixed")
    (store / "mixed" / "letter.txt").write_text("mine")
    for name in ("holiday-photos", "mixed"):
        status, out, err = run(["profiles", "delete", name])
        assert status == 2 and out == "" and "not deleted" in err and err.count("\n") == 1
    assert (store / "holiday-photos" / "beach.jpg").exists() and (store / "mixed" / "letter.txt").exists()
    assert run(["profiles", "delete", "wood"])[0] == 0 and not (store / "wood").exists()


def test_a_profile_folder_without_the_marker_is_neither_deleted_nor_replaced(tmp_path, store):
    folder = store / "handmade"
    folder.mkdir(parents=True)
    cv2.imwrite(str(folder / "a.png"), tile(5))
    (folder / "profile.json").write_text(json.dumps({"version": 1, "game": "lyne", "templates": {"a": "a.png"}}))
    before = snapshot(folder)
    status, out, err = run(["profiles", "delete", "handmade"])
    assert status == 2 and out == "" and "not deleted" in err and err.count("\n") == 1
    with pytest.raises(ProfileError, match="not a puzzlepilot profile"):
        profiles.save({"game": "lyne", "name": "handmade"}, {"a": tile(2)}, folder)
    assert snapshot(folder) == before


@pytest.mark.parametrize("name", ["../outside.png", "/etc/hostname", "link.png", "", "sub/../../outside.png"])
def test_template_paths_must_stay_inside_the_profile_folder(tmp_path, name):
    folder = tmp_path / "p"
    folder.mkdir()
    cv2.imwrite(str(tmp_path / "outside.png"), tile(7))
    (folder / "link.png").symlink_to(tmp_path / "outside.png")
    (folder / "profile.json").write_text(json.dumps({"version": 1, "game": "lyne", "templates": {"hub": name}}))
    with pytest.raises(ProfileError, match="inside the profile folder"):
        profiles.load(folder)


@pytest.mark.parametrize("text", ["[" * 100_000 + "]" * 100_000, '{"version": 1, "game": "lyne", "x": ' + "[" * 50_000 + "]" * 50_000 + "}",
                                  "\ufeff{}", "\xff\xfe{"])
def test_malformed_profile_json_is_one_line(tmp_path, text):
    (tmp_path / "profile.json").write_bytes(text.encode("utf-8", "surrogateescape") if "\xff" not in text else b"\xff\xfe{")
    status, out, err = run(["profiles", "show", tmp_path])
    assert status == 2 and out == "" and err.count("\n") == 1 and "Traceback" not in err


@pytest.mark.parametrize("colour", [[1, 2], [1, 2, 3, 4], ["r", "g", "b"], [256, 0, 0], [True, 0, 0], "red"])
def test_a_malformed_profile_colour_is_refused_naming_the_field(tmp_path, colour):
    (tmp_path / "profile.json").write_text(json.dumps({"version": 1, "game": "klotski", "board_colour": colour}))
    shot = Path(__file__).resolve().parents[2] / "fixtures" / "klotski" / "flat_60_zhihuiruoding.png"
    status, out, err = run(["solve", shot, "--profile", tmp_path])
    assert status == 2 and out == "" and "board_colour" in err and err.count("\n") == 1


def test_how_a_game_takes_input_is_kept_in_a_profile_the_tool_wrote_and_nowhere_else(store: Path) -> None:
    """Issue 28 §5: live --play keeps what it learnt (a rest on each cell, one cell per drag)
    in the profile it was given, when the tool wrote it; a user's folder is left as it was."""
    from puzzlepilot.live import input_style

    saved = profiles.save({"game": "onestroke", "name": "phone", "pitch": 130}, {"cell": tile(200)}, store / "phone")
    assert input_style(saved) == (0.0, False)
    kept = profiles.keep(saved, {"input": {"rest": 0.25, "one_cell": False}})
    assert input_style(profiles.load(store / "phone")) == (0.25, False)
    assert kept.data["pitch"] == 130 and (kept.template("cell") == 200).all() and profiles.owned(store / "phone")
    mine = store / "mine"
    mine.mkdir()
    (mine / "profile.json").write_text(json.dumps({"version": 1, "game": "onestroke", "name": "mine"}))
    before = (mine / "profile.json").read_bytes()
    with pytest.raises(ProfileError):
        profiles.keep(profiles.load(mine), {"input": {"rest": 0.25}})
    assert (mine / "profile.json").read_bytes() == before and sorted(p.name for p in mine.iterdir()) == ["profile.json"]


@pytest.mark.parametrize("style", [{"rest": -1}, {"rest": 99}, {"rest": True}, {"one_cell": 1}, []])
def test_a_bad_input_style_in_a_profile_names_the_field(store: Path, style) -> None:
    from puzzlepilot.live import input_style

    saved = profiles.save({"game": "onestroke", "name": "p", "input": style}, {"cell": tile(1)}, store / "p")
    with pytest.raises(ProfileError, match="'input"):
        input_style(saved)


def test_writers_of_one_profile_at_once_leave_it_whole_and_nothing_beside_it(tmp_path: Path) -> None:
    """Calibrations of one name at once (threads here: the lock is the folder's, taken
    through an open file of its own, so they exclude each other as processes do): each
    write swaps the folder in whole, one after the other. Before, a writer could find the
    folder gone mid-swap or another's in place (a traceback, exit 3), and leave its
    half-way folders (``.puzzlepilot-*``) beside the profile."""
    from concurrent.futures import ThreadPoolExecutor

    from solvers.files import write_folder

    dest = tmp_path / "store" / "mine"

    def writer(i: int) -> None:
        for n in range(40):
            write_folder(dest, {"profile.json": b'{"n": %d}' % n, "cell.png": bytes([i]) * 64}, profiles.MARKER)

    with ThreadPoolExecutor(4) as pool:
        list(pool.map(writer, range(4)))     # re-raises any writer's error
    assert [p.name for p in dest.parent.iterdir()] == ["mine"]
    assert profiles.owned(dest) and sorted(p.name for p in dest.iterdir()) == [profiles.MARKER, "cell.png",
                                                                                "profile.json"]


def test_a_writer_waits_for_the_folders_lock_a_bounded_time(tmp_path: Path, monkeypatch) -> None:
    import fcntl

    from solvers import files

    monkeypatch.setattr(files, "LOCK_WAIT", 0.05)
    fd = os.open(tmp_path, os.O_RDONLY)
    try:
        fcntl.flock(fd, fcntl.LOCK_EX)      # another process of the tool, stopped mid-swap
        with pytest.raises(files.FileRefused, match="another puzzlepilot has been writing in"):
            files.write_folder(tmp_path / "mine", {"profile.json": b"{}"}, profiles.MARKER)
    finally:
        os.close(fd)
    assert list(tmp_path.iterdir()) == []
    files.write_folder(tmp_path / "mine", {"profile.json": b"{}"}, profiles.MARKER)
    assert profiles.owned(tmp_path / "mine")


def test_a_profile_that_cannot_be_written_mid_play_is_said_and_left_whole(store: Path, monkeypatch) -> None:
    """live --play keeps how the game takes input in its profile; a disk full (or a folder
    made read-only) then stopped the whole session with exit 2 after a level was played.
    Now it says so and plays on, the profile as it was, nothing left beside it."""
    from types import SimpleNamespace

    from puzzlepilot.live import keeper
    from solvers import files

    saved = profiles.save({"game": "onestroke", "name": "phone"}, {"cell": tile(200)}, store / "phone")
    before = snapshot(store)

    def full(path: Path, data: bytes) -> None:
        raise files.FileRefused(f"cannot write {path}: No space left on device")

    monkeypatch.setattr(files, "_atomic", full)
    said: list[str] = []
    keeper(saved, said.append)(SimpleNamespace(rest=0.25, one_cell=False))
    assert len(said) == 1 and "not kept in the profile" in said[0] and "No space left" in said[0]
    assert snapshot(store) == before and sorted(p.name for p in store.iterdir()) == ["phone"]
