import json
from pathlib import Path

import numpy as np
import pytest

from calibration import profile as profiles
from solvers.files import FileRefused
from tests.helpers import run_cli as run
from vision.profile import ProfileError, read_folder


@pytest.fixture
def store(tmp_path, monkeypatch):
    monkeypatch.setenv("PUZZLEPILOT_PROFILES", str(tmp_path / "store"))
    return tmp_path / "store"


def tile(value: int) -> np.ndarray:
    return np.full((8, 8, 3), value, np.uint8)


def test_saved_profile_loads_back_with_its_templates(store):
    saved = profiles.save({"game": "onestroke", "name": "phone", "pitch": 130}, {"cell": tile(200)}, store / "phone")
    again = profiles.load("phone")
    assert (again.game, again.name, again.get("pitch", int)) == ("onestroke", "phone", 130)
    assert np.array_equal(again.template("cell"), tile(200))
    assert saved.folder == again.folder


def test_rewriting_a_profile_replaces_it_whole(store):
    profiles.save({"game": "lyne", "name": "p"}, {"a": tile(1), "b": tile(2)}, store / "p")
    profiles.save({"game": "lyne", "name": "p"}, {"a": tile(3)}, store / "p")
    again = profiles.load(store / "p")
    assert sorted(p.name for p in again.folder.iterdir()) == [profiles.MARKER, "a.png", "profile.json"]
    assert [p.name for p in store.iterdir()] == ["p"]


def test_a_failed_write_leaves_the_old_profile_intact(store, monkeypatch):
    profiles.save({"game": "lyne", "name": "p", "x": 1}, {"a": tile(1)}, store / "p")

    def broken(*args, **kwargs):
        raise OSError(28, "No space left on device")

    monkeypatch.setattr("os.replace", broken)
    with pytest.raises(FileRefused, match="No space left"):
        profiles.save({"game": "lyne", "name": "p", "x": 2}, {"a": tile(9)}, store / "p")
    assert profiles.load("p").get("x", int) == 1
    assert [p.name for p in store.iterdir()] == ["p"]


@pytest.mark.parametrize("data, field", [
    ({"game": "lyne"}, "version"),
    ({"version": 1}, "game"),
    ({"version": 7, "game": "lyne"}, "version"),
    ({"version": 1, "game": 5}, "game"),
    ({"version": 1, "game": "lyne", "templates": {"hub": "gone.png"}}, "templates.hub"),
])
def test_malformed_profiles_are_refused_naming_the_field(tmp_path, data, field):
    (tmp_path / "profile.json").write_text(json.dumps(data))
    with pytest.raises(ProfileError, match=field.replace(".", r"\.")):
        profiles.load(tmp_path)


def test_profiles_command_lists_shows_and_deletes(store):
    profiles.save({"game": "klotski", "name": "wood"}, {}, store / "wood")
    status, out, _ = run(["profiles", "list"])
    assert status == 0 and "wood" in out and "klotski" in out
    status, out, _ = run(["profiles", "show", "wood"])
    assert status == 0 and '"game": "klotski"' in out
    assert run(["profiles", "delete", "wood"])[0] == 0
    assert not (store / "wood").exists()


@pytest.mark.parametrize("argv", [("profiles", "show", "nope"), ("profiles", "delete", "../x"),
                                  ("profiles", "show"), ("solve", "x.png", "--profile", "nope")])
def test_bad_profile_requests_fail_with_one_line(store, argv):
    status, out, err = run([*argv])
    assert status == 2 and err.count("\n") == 1 and "Traceback" not in err


def test_the_vision_reads_a_profile_folder_and_never_looks_one_up_by_name(store, tmp_path, monkeypatch):
    from vision.valves import parse

    profiles.save({"game": "valves", "name": "sewer"}, {}, store / "sewer")
    monkeypatch.chdir(tmp_path)
    assert read_folder(store / "sewer") == profiles.load("sewer")     # the calibration finds it by name
    with pytest.raises(ProfileError, match="sewer is not a profile"):
        read_folder(Path("sewer"))
    with pytest.raises(ProfileError, match="sewer is not a profile"):
        parse(np.zeros((64, 64, 3), np.uint8), profile=Path("sewer"))
