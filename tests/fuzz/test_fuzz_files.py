"""Fuzzed folders: nothing of the user's is lost or changed (issue 27). Folders hold the
user's files, links (to a file outside, to a folder, to a device, dangling), FIFOs and
folders under the names the tool writes, beside a damaged, edited or hostile bookkeeping
file (``.made``, a profile's marker) naming files inside, outside (``../x``, absolute
paths) and the user's own; every command that writes runs on them, and the whole
example's folder, hashed before and after, is the same except for what the tool may
write. Every run keeps the contract (0, 1 or 2 with one line; never 3)."""
from __future__ import annotations

import functools
import hashlib
import json
import os
import tempfile
from pathlib import Path

import cv2
import pytest
from hypothesis import given, strategies as st

from calibration.profile import MARKER
from puzzlepilot.fixtures import MADE_LIST
from puzzlepilot.games import GAMES
from solvers.files import kind
from tests.cli.test_registry import TOY
from tests.fuzz.contract import fuzz, run

REPO = Path(__file__).resolve().parents[2]
SHOT = REPO / "fixtures" / "onestroke" / "crop_7x7_blue.png"   # small: read in a few tens of ms
OUTSIDE = ("victim.txt", "photos/holiday.jpg")                  # the user's files beside the folder
TOY_NAMES = ("row.png", "dark.png", "noise.png")                # what `fixtures make toy` writes


@functools.cache
def stage_names() -> tuple[str, ...]:
    """The stage pictures reading SHOT writes."""
    with tempfile.TemporaryDirectory() as tmp:
        assert run(["parse", SHOT, "--game", "onestroke", "--stages", Path(tmp) / "s"])[0] == 0
        return tuple(sorted(p.name for p in (Path(tmp) / "s").iterdir() if p.name != MADE_LIST))


@functools.cache
def klotski_shot() -> tuple[bytes, str]:
    """A Klotski screenshot (PNG bytes) and its board, to calibrate on."""
    from puzzlepilot.scenes.klotski import render
    from solvers.klotski import generate

    board = generate(5, 4, 3)
    image, _ = render(board, style="flat", cell=60)
    return cv2.imencode(".png", image)[1].tobytes(), board.to_text().replace("\n", "/")


class World:
    """One example's folder: ``root`` holding the user's files and the folders under test."""

    def __enter__(self) -> Path:
        self.tmp = tempfile.TemporaryDirectory(prefix="puzzlepilot-files-")
        root = Path(self.tmp.name)
        for name in OUTSIDE:
            (root / name).parent.mkdir(parents=True, exist_ok=True)
            (root / name).write_bytes(b"the user's " + name.encode())
        return root

    def __exit__(self, *exc: object) -> None:
        self.tmp.cleanup()


def snapshot(root: Path) -> dict[str, object]:
    """Every path under ``root`` (links not followed) → what it is: a file's hash, a link's
    target, a folder, a FIFO."""
    seen: dict[str, object] = {}
    for folder, dirs, files in os.walk(root):
        for name in dirs + files:
            path = Path(folder) / name
            rel = str(path.relative_to(root))
            if path.is_symlink():
                seen[rel] = ("link", os.readlink(path))
            elif path.is_dir():
                seen[rel] = "folder"
            elif path.is_file():
                seen[rel] = hashlib.sha256(path.read_bytes()).hexdigest()
            else:
                seen[rel] = "other"
    return seen


def assert_untouched(before: dict[str, object], after: dict[str, object], may_change: set[str] = frozenset()) -> None:
    """Every path that was there is there as it was, but those ``may_change`` (the tool's
    own bookkeeping)."""
    changed = sorted(p for p, what in before.items() if after.get(p) != what and p not in may_change)
    assert not changed, f"changed or removed: {changed}"


# ---------------------------------------------------------------------------- generators

def hostile_names(root: Path, own: tuple[str, ...]) -> st.SearchStrategy[str]:
    """Names a damaged or hostile record may list: the tool's, the user's, outside the
    folder (up, absolute), and names no folder can hold."""
    return st.one_of(
        st.sampled_from([*own, "mine.png", "notes.txt", "sub", "link.png", "fifo.png", MADE_LIST, MARKER,
                         "../victim.txt", "../../victim.txt", "../photos/holiday.jpg", "sub/../../victim.txt",
                         str(root / "victim.txt"), str(root / "photos"), "/", ".", "..", "", "a" * 300,
                         "x\0y"]),
        st.text(max_size=12))


@st.composite
def record_text(draw: st.DrawFn, root: Path, own: tuple[str, ...]) -> bytes | str:
    """A bookkeeping file's content: random bytes, a list of names (the first format), a
    record naming files with sizes and hashes that are not theirs, or broken JSON; or
    "link"/"fifo"/"folder" for one of those in its place."""
    names = st.lists(hostile_names(root, own), max_size=6)
    form = draw(st.sampled_from(["bytes", "list", "record", "record", "broken", "link", "fifo", "folder"]))
    if form in ("link", "fifo", "folder"):
        return form
    if form == "bytes":
        return draw(st.binary(max_size=64))
    if form == "list":
        return json.dumps(draw(names)).encode()
    digest = st.lists(st.tuples(st.integers(-1, 300_000), st.text("0123456789abcdef", min_size=0, max_size=64)),
                      max_size=2).map(lambda ds: [list(d) for d in ds])
    record = {"format": draw(st.sampled_from(["puzzlepilot record 1", "puzzlepilot record 2", None])),
              "files": draw(st.one_of(st.dictionaries(hostile_names(root, own), digest, max_size=6),
                                      st.lists(hostile_names(root, own), max_size=3)))}
    text = json.dumps(record)
    return (text[:draw(st.integers(0, len(text)))] if form == "broken" else text).encode()


@st.composite
def entries(draw: st.DrawFn, own: tuple[str, ...]) -> list[tuple[str, str]]:
    """What a folder holds besides the record: (name, kind) with names the tool writes and
    the user's, kinds a file, a link to a file outside, to a folder, to a device, dangling,
    a FIFO or a folder."""
    kinds = st.sampled_from(["file", "file", "link-file", "link-folder", "link-device", "dangling", "fifo", "folder"])
    names = st.sampled_from([*own, "mine.png", "notes.txt", "photo.jpg", "expected.json.tmp", ".made.tmp"])
    return draw(st.lists(st.tuples(names, kinds), unique_by=lambda e: e[0], max_size=5))


def fill(folder: Path, root: Path, found: list[tuple[str, str]], record: bytes | str | None = None,
         record_name: str = MADE_LIST) -> None:
    """Put the generated entries and bookkeeping file (if any) into ``folder``."""
    folder.mkdir(parents=True, exist_ok=True)
    kept = [] if record is None else [(record_name, record if isinstance(record, str) else "record")]
    for name, what in [*found, *kept]:
        path = folder / name
        if what == "file":
            path.write_bytes(b"the user's " + name.encode())
        elif what == "record":
            path.write_bytes(record)
        elif what in ("link-file", "link"):
            path.symlink_to(root / "victim.txt")
        elif what == "link-folder":
            path.symlink_to(root / "photos")
        elif what == "link-device":
            path.symlink_to("/dev/zero")
        elif what == "dangling":
            path.symlink_to(root / "nothing")
        elif what == "fifo":
            os.mkfifo(path)
        else:
            path.mkdir()
            (path / "inside.txt").write_bytes(b"the user's, in a folder")


# ---------------------------------------------------------------------------- fixtures make

@fuzz(20)
@given(data=st.data())
def test_fixtures_make_replaces_and_removes_only_its_own_unchanged_files(data: st.DataObject) -> None:
    with World() as root, pytest.MonkeyPatch.context() as env:
        env.setitem(GAMES, "toy", TOY)
        folder = root / "fx" / "toy"
        fill(folder, root, data.draw(entries((*TOY_NAMES, "expected.json")), label="entries"),
             data.draw(record_text(root, TOY_NAMES), label=".made"), MADE_LIST)
        before = snapshot(root)
        status, _, err = run(["fixtures", "make", "toy", "--dir", root / "fx"])
        assert status in (0, 2), err
        # .made and expected.json are make's bookkeeping, rewritten when it writes.
        assert_untouched(before, snapshot(root), {"fx/toy/.made", "fx/toy/expected.json"} if status == 0 else set())
        if status == 0:      # and again: its own files are its own
            assert run(["fixtures", "make", "toy", "--dir", root / "fx"])[0] == 0
            assert_untouched(before, snapshot(root), {"fx/toy/.made", "fx/toy/expected.json", *(
                f"fx/toy/{n}" for n in TOY_NAMES if f"fx/toy/{n}" not in before)})


def test_a_make_record_naming_files_outside_and_the_users_removes_none(tmp_path: Path) -> None:
    """The red team's case, plainly: a .made listing ../x, an absolute path and a picture
    of the user's; a stale name make no longer renders is removed only when unchanged."""
    with pytest.MonkeyPatch.context() as env:
        env.setitem(GAMES, "toy", TOY)
        folder = tmp_path / "fx" / "toy"
        folder.mkdir(parents=True)
        (tmp_path / "x").write_text("outside")
        (folder / "mine.png").write_text("the user's picture")
        (folder / MADE_LIST).write_text(json.dumps(["../../x", str(tmp_path / "x"), "mine.png"]))
        assert run(["fixtures", "make", "toy", "--dir", tmp_path / "fx"])[0] == 0
        assert (tmp_path / "x").read_text() == "outside" and (folder / "mine.png").read_text() == "the user's picture"


# ---------------------------------------------------------------------------- --stages

@fuzz(15)
@given(data=st.data())
def test_stages_replace_only_the_stage_pictures_they_wrote(data: st.DataObject) -> None:
    own = stage_names()
    with World() as root:
        folder = root / "stages"
        fill(folder, root, data.draw(entries(own), label="entries"), data.draw(record_text(root, own), label=".made"),
             MADE_LIST)
        before = snapshot(root)
        status, _, err = run(["parse", SHOT, "--game", "onestroke", "--stages", folder])
        assert status in (0, 2), err
        assert_untouched(before, snapshot(root), {"stages/.made"} if status == 0 else set())


# ---------------------------------------------------------------------------- profiles

PROFILE_NAMES = ("profile.json", "hub.png", "cell.png", "photo.jpg")


@st.composite
def profile_folder(draw: st.DrawFn, root: Path) -> tuple[list[tuple[str, str]], bytes | str, bytes]:
    """A folder where a profile would go: the user's files (a profile.json of theirs naming
    their photo or a file outside as a template, or none), a damaged or hostile marker."""
    found = draw(entries(PROFILE_NAMES))
    templates = draw(st.dictionaries(st.sampled_from(["hub", "cell", "x"]),
                                     st.sampled_from(["photo.jpg", "hub.png", "../victim.txt",
                                                      str(root / "photos" / "holiday.jpg")]), max_size=3))
    profile = json.dumps({"version": 1, "game": "klotski", "name": "mine", "templates": templates}).encode()
    return found, draw(st.one_of(st.none(), record_text(root, PROFILE_NAMES))), profile


@fuzz(8)
@given(data=st.data(), where=st.sampled_from(["dir", "store"]), sibling=st.booleans())
def test_calibrate_and_profiles_delete_touch_no_folder_of_the_users(data: st.DataObject, where: str,
                                                                    sibling: bool) -> None:
    shot, board = klotski_shot()
    with World() as root, pytest.MonkeyPatch.context() as env:
        env.setenv("PUZZLEPILOT_PROFILES", str(root / "store"))
        dest = root / "store" / "mine"
        found, marker, profile = data.draw(profile_folder(root), label="folder")
        if found or marker is not None or data.draw(st.booleans(), label="profile.json"):
            fill(dest, root, found, marker, MARKER)
            if kind(dest / "profile.json") is None:
                (dest / "profile.json").write_bytes(profile)
        if sibling:      # a folder of the user's named as the old code set the old profile aside
            (root / "store" / ".mine.old").mkdir(parents=True)
            (root / "store" / ".mine.old" / "letter.txt").write_text("the user's")
        (root / "shot.png").write_bytes(shot)
        before = snapshot(root)
        argv = ["calibrate", "klotski", root / "shot.png", "--name", "mine", "--board", board]
        status, _, err = run(argv + (["--dir", dest] if where == "dir" else []))
        was_empty = not [p for p in before if p.startswith("store/mine/")]
        assert status == 2 or was_empty, f"calibrate wrote over a folder holding the user's files: {err}"
        assert_untouched(before, snapshot(root), {"store/mine"} if status == 0 else set())
        status, _, _ = run(["profiles", "delete", "mine"])
        if status == 0:
            assert was_empty, "profiles delete removed a folder of the user's"
        assert_untouched(before, snapshot(root), {"store/mine"} if was_empty else set())


def test_calibrate_keeps_a_sibling_old_folder_and_replaces_only_its_own_profile(tmp_path: Path) -> None:
    shot, board = klotski_shot()
    (tmp_path / "shot.png").write_bytes(shot)
    (tmp_path / ".p.old").mkdir()
    (tmp_path / ".p.old" / "letter.txt").write_text("the user's")
    argv = ["calibrate", "klotski", tmp_path / "shot.png", "--name", "p", "--board", board, "--dir", tmp_path / "p"]
    assert run(argv)[0] == 0 and run(argv)[0] == 0     # the second replaces the first: its own
    assert (tmp_path / ".p.old" / "letter.txt").read_text() == "the user's"
    assert sorted(p.name for p in tmp_path.iterdir()) == [".p.old", "p", "shot.png"]


# ---------------------------------------------------------------------------- outputs the user named

@fuzz(12)
@given(what=st.sampled_from(["link-file", "link-folder", "link-device", "dangling", "fifo", "folder", "file", None]),
       command=st.sampled_from(["sheet.html", "sheet.png", "annotate"]))
def test_outputs_are_never_written_through_a_link_nor_over_anything_but_a_file(what: str | None,
                                                                               command: str) -> None:
    with World() as root:
        out = root / ("out.png" if command == "annotate" else command)
        if what is not None:
            fill(root, root, [(out.name, what)])
        before = snapshot(root)
        if command == "annotate":
            status, _, err = run(["solve", SHOT, "--game", "onestroke", "--annotate", out])
        else:
            (root / "fx" / "onestroke").mkdir(parents=True)
            (root / "fx" / "onestroke" / "shot.png").write_bytes(SHOT.read_bytes())
            status, _, err = run(["fixtures", "check", "onestroke", "--dir", root / "fx", "--sheet", out])
        assert (status == 2) == (what not in (None, "file")), err
        assert_untouched(before, snapshot(root), {out.name} if what == "file" else set())


@fuzz(8)
@given(data=st.data())
def test_demo_refuses_an_output_folder_holding_the_users_files_under_its_names(data: st.DataObject) -> None:
    own = ("index.html", "keymap.json", "level1-before.png", "level1-hints.png", "level1-after.png")
    with World() as root, pytest.MonkeyPatch.context() as env:
        env.delenv("DISPLAY", raising=False)
        found = data.draw(entries(own).filter(lambda es: any(n in own for n, _ in es)), label="entries")
        fill(root / "out", root, found, data.draw(record_text(root, own), label=".made"), MADE_LIST)
        before = snapshot(root)
        status, _, err = run(["demo", "onestroke", "--levels", "1", "--out", root / "out"])
        assert status == 2, err
        assert_untouched(before, snapshot(root))


# ---------------------------------------------------------------------------- names too long

@fuzz(12)
@given(length=st.integers(256, 5000), char=st.sampled_from(["a", "#", "é", "字"]),
       command=st.sampled_from(["calibrate", "fixtures add", "solve board", "solve image", "profiles show",
                                "profiles delete", "check sheet"]))
def test_names_longer_than_the_file_system_allows_are_one_line(length: int, char: str, command: str) -> None:
    name = char * length
    with World() as root, pytest.MonkeyPatch.context() as env:
        env.setenv("PUZZLEPILOT_PROFILES", str(root / "store"))
        shot = root / "shot.png"
        shot.write_bytes(SHOT.read_bytes())
        argv = {"calibrate": ["calibrate", "onestroke", shot, "--name", name, "--board", "##S#/#..#/####"],
                "fixtures add": ["fixtures", "add", shot, "--game", "onestroke", "--no-board", "--name",
                                 name + ".png", "--dir", root],
                "solve board": ["solve", "--game", "onestroke", "--board", name],
                "solve image": ["solve", root / name],
                "profiles show": ["profiles", "show", name],
                "profiles delete": ["profiles", "delete", name],
                "check sheet": ["fixtures", "check", "--dir", root, "--sheet", root / name]}[command]
        before = snapshot(root)
        assert run(argv)[0] == 2
        assert_untouched(before, snapshot(root))
