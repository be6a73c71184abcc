"""Fuzzed hostile surroundings: what lies in the table cache, oversized boards, strange
files given as input, huge numbers. Each case keeps the contract in a child process
(tests/fuzz/contract.py ``run_apart``): it ends within seconds and a stated memory, with
0, 1 or 2 and one line, never runs code nor reads without end."""
from __future__ import annotations

import contextlib
import json
import os
import pickle
import shutil
import tempfile
import threading
from pathlib import Path
from typing import Iterator

import pytest
from hypothesis import example, given, strategies as st

from tests.fuzz.contract import check_solve_json, fuzz, run, run_apart

SECONDS = 15.0       # a case ends well within this (each starts a process: ~1 s; -m fuzz runs 40 a test)
MEGABYTES = 600      # and its process stays below this resident memory


@pytest.fixture(scope="module")
def scratch() -> Iterator[Path]:
    folder = Path(tempfile.mkdtemp(prefix="puzzlepilot-bounds-"))
    yield folder
    shutil.rmtree(folder, ignore_errors=True)


def fresh(scratch: Path) -> Path:
    return Path(tempfile.mkdtemp(dir=scratch))


# ---------------------------------------------------------------------------- the table cache

# Boards whose solve reads tables: ring battles (the backward levels; with a budget of 4
# the move tables too) and the classic Klotski layout (its move lists).
CACHED_BOARDS = {
    "rings": "moves: 3\n.......xx..x\n.x......xx..\n.x.....x.x..\n.x...x.....x\n",
    "rings-deep": "moves: 4\n.......xx..x\n.x......xx..\n.x.....x.x..\n.x...x.....x\n",
    "klotski": "ACCB\nACCB\nDEEF\nDGHF\nI..J\n",
}


class Planted:
    """A pickle that leaves a marker file when it is unpickled."""

    def __init__(self, marker: Path) -> None:
        self.marker = marker

    def __reduce__(self) -> tuple[object, tuple[str, str]]:
        return open, (str(self.marker), "w")


def plant(path: Path, kind: str, marker: Path) -> None:
    """Put something hostile where a table's file is expected."""
    path.unlink()
    if kind == "pickle":
        path.write_bytes(pickle.dumps(Planted(marker)))
    elif kind == "fifo":
        os.mkfifo(path)
    elif kind == "zero":
        path.symlink_to("/dev/zero")
    elif kind == "huge":
        with path.open("wb") as f:
            f.truncate(1 << 30)         # sparse: 1 GB of zeros taking no disk
    elif kind == "folder":
        path.mkdir()
    elif kind == "garbage":
        path.write_bytes(os.urandom(4096))


@pytest.fixture(scope="module")
def stored(scratch: Path) -> dict[str, Path]:
    """Per board, a cache folder its solve filled (the names it reads)."""
    folders = {}
    for game, text in CACHED_BOARDS.items():
        folder = scratch / f"cache-{game}"
        board = scratch / f"{game}.txt"
        board.write_text(text, encoding="utf-8")
        run_apart(["solve", "--game", game.split("-")[0], "--board", board, "--json"],
                  env={"PUZZLEPILOT_CACHE": str(folder)})
        assert any(folder.iterdir()), f"the {game} solve stored no table"
        folders[game] = folder
    return folders


@fuzz(2, long=40)
@given(game=st.sampled_from(sorted(CACHED_BOARDS)),
       kinds=st.lists(st.sampled_from(["pickle", "fifo", "zero", "huge", "folder", "garbage", "kept"]),
                      min_size=4, max_size=4))
@example(game="rings-deep", kinds=["pickle", "kept", "kept", "pickle"])
@example(game="rings", kinds=["fifo", "zero", "huge", "kept"])
@example(game="klotski", kinds=["pickle", "kept", "kept", "kept"])
@example(game="rings", kinds=["pickle", "pickle", "pickle", "folder"])   # a folder: found by a random draw
def test_what_lies_in_the_cache_is_never_run_nor_read_without_end(stored: dict[str, Path], scratch: Path,
                                                                   game: str, kinds: list[str]) -> None:
    """Each table file of the solve is kept or replaced by a pickle that would run code, a
    FIFO, a link to /dev/zero, a 1 GB file, a folder or garbage: the solve answers right,
    promptly and within bounded memory, and runs nothing."""
    here = fresh(scratch)
    cache, marker = here / "cache", here / "planted-code-ran"
    shutil.copytree(stored[game], cache)
    for path, kind in zip(sorted(cache.iterdir()), kinds * 4):
        if kind != "kept":
            plant(path, kind, marker)
    board = here / "board.txt"
    board.write_text(CACHED_BOARDS[game], encoding="utf-8")
    status, out, _ = run_apart(["solve", "--game", game.split("-")[0], "--board", board, "--json"],
                               env={"PUZZLEPILOT_CACHE": str(cache)}, seconds=SECONDS, megabytes=MEGABYTES)
    assert status == 0
    check_solve_json(status, out)
    assert not marker.exists(), "code planted in the cache ran"


@fuzz(20, long=300)
@given(count=st.integers(1, 3_000), cut=st.floats(0, 1.2), flips=st.lists(st.floats(0, 1), max_size=3),
       asks=st.lists(st.integers(0, 10_000), min_size=1, max_size=20))
@example(count=2_000, cut=0.5, flips=[], asks=[1_999 * 3])
def test_a_stored_sorted_table_changed_while_open_answers_right_or_says_damaged(
        scratch: Path, count: int, cut: float, flips: list[float], asks: list[int]) -> None:
    """A stored sorted table (rings' backward levels), open, is cut short, lengthened or
    has bytes flipped by another program: each look-up answers as the table would or
    raises Damaged (the solve then makes the level again), never anything else. While the
    file was mapped, a look-up in a page cut off killed the process with SIGBUS (the
    process here: run on the old code, this test ends pytest)."""
    from array import array

    from solvers import tables

    values = sorted(set(range(0, 3 * count, 3)))
    with pytest.MonkeyPatch.context() as patch:
        patch.setenv("PUZZLEPILOT_CACHE", str(fresh(scratch)))
        tables.store_sorted("fuzzed", 1, array("Q", values).tobytes())
        table = tables.open_sorted("fuzzed", 1)
        path = tables.path_of("fuzzed", 1)
    size = path.stat().st_size
    with path.open("r+b") as f:     # the same file, changed in place
        for at in flips:
            f.seek(int(at * (size - 1)))
            f.write(bytes([f.read(1)[0] ^ 0x5A]))
        f.truncate(int(cut * size))
    held = set(values)
    for value in asks:
        try:
            assert (value in table) == (value in held)
        except tables.Damaged:
            pass
    with contextlib.suppress(tables.Damaged):
        assert list(table.values()) == values


# ---------------------------------------------------------------------------- board sizes

def oversized(game: str, rows: int, cols: int, holes: bool) -> str:
    """A board of the game with more places (LYNE: nodes) than its solver takes, at least
    ``rows`` × ``cols``."""
    from solvers import klotski, lyne, onestroke

    most = {"onestroke": onestroke.MAX_PLACES, "klotski": klotski.MAX_PLACES, "lyne": lyne.MAX_PLACES}[game]
    rows = max(rows, 2 * most // cols + 3)
    row = (("2." if game == "lyne" else "#.") * cols)[:cols] if holes else ("2" if game == "lyne" else "#") * cols
    if game == "lyne":
        lines = ["T" + "." * (cols - 1)] + [row] * (rows - 2) + ["." * (cols - 1) + "T"]
    elif game == "klotski":
        lines = ["CC" + "." * (cols - 2)] * 2 + ["." * cols] * (rows - 2) if cols >= 2 else ["C"] * rows
    else:
        lines = ["S" + row[1:]] + [row] * (rows - 1)
    return "\n".join(lines) + "\n"


@fuzz(1, long=40)
@given(game=st.sampled_from(["onestroke", "klotski", "lyne"]), rows=st.integers(1, 2_000),
       cols=st.integers(1, 2_000), holes=st.booleans())
@example(game="onestroke", rows=2_000, cols=2_000, holes=False)
@example(game="onestroke", rows=400_000, cols=1, holes=False)
@example(game="klotski", rows=200, cols=200, holes=False)
def test_a_board_past_its_games_size_bound_is_refused_before_any_work(scratch: Path, game: str, rows: int, cols: int,
                                                                     holes: bool) -> None:
    board = fresh(scratch) / "board.txt"
    board.write_text(oversized(game, rows, cols, holes), encoding="utf-8")
    status, _, err = run_apart(["solve", "--game", game, "--board", board, "--json"],
                               seconds=SECONDS, megabytes=MEGABYTES)
    assert status == 2 and "too large" in err, err


@fuzz(3, long=40)
@given(length=st.integers(2, 4_000), down=st.booleans())
@example(length=4_000, down=False)
def test_a_long_onestroke_corridor_is_solved_within_seconds(scratch: Path, length: int, down: bool) -> None:
    """A straight line of cells, the start at one end: one way on at every step, so the
    search's work must grow with its length, not its square."""
    board = fresh(scratch) / "board.txt"
    cells = ["S"] + ["#"] * length
    board.write_text("\n".join(cells) if down else "".join(cells), encoding="utf-8")
    status, out, _ = run_apart(["solve", "--game", "onestroke", "--board", board, "--json"],
                               seconds=5.0, megabytes=MEGABYTES)
    assert status == 0
    check_solve_json(status, out)


def valves_text(kind: str, size: int) -> str:
    """A chain of ``size`` valves from the inlet to the outlet, or a star of ``size``
    valves each joined to both."""
    if kind == "chain":
        pipes = ["X v0"] + [f"v{i} v{i + 1}" for i in range(size - 1)] + [f"v{size - 1} Y"]
    else:
        pipes = [f"{end} v{i}" for i in range(size) for end in "XY"]
    return "\n".join(pipes + [f"wrenches: {size}"]) + "\n"


@fuzz(1, long=40)
@given(kind=st.sampled_from(["chain", "star"]), size=st.integers(1, 200_000), every=st.booleans())
@example(kind="chain", size=150_000, every=True)
@example(kind="star", size=5_000, every=False)
def test_a_valves_board_past_its_size_bound_is_refused_and_one_within_ends_promptly(
        scratch: Path, kind: str, size: int, every: bool) -> None:
    from solvers.valves import MAX_FLOW_WORK, MAX_PIPES

    if kind == "star":
        size = min(size, 6_000)
    board = fresh(scratch) / "board.txt"
    board.write_text(valves_text(kind, size), encoding="utf-8")
    status, out, err = run_apart(["solve", "--game", "valves", "--board", board, "--json"] + ["--all"] * every,
                                 seconds=SECONDS, megabytes=MEGABYTES)
    pipes = size + 1 if kind == "chain" else 2 * size
    if pipes > MAX_PIPES or (1 if kind == "chain" else size) * pipes > MAX_FLOW_WORK:
        assert status == 2 and "too large" in err, err
    else:
        assert status == 0
        check_solve_json(status, out)


# ---------------------------------------------------------------------------- input files

def feed(fifo: Path, data: bytes) -> threading.Thread:
    """A writer that puts ``data`` into the FIFO once a reader opens it (the reader may
    stop early: a broken pipe is its right)."""
    def write() -> None:
        with contextlib.suppress(BrokenPipeError, OSError), open(fifo, "wb") as f:
            f.write(data)

    thread = threading.Thread(target=write, daemon=True)
    thread.start()
    return thread


RINGS_SHOT = sorted((Path(__file__).resolve().parents[2] / "fixtures" / "rings").glob("*.png"))[0]
BIG = st.integers(400, 6_000).map(lambda n: "9" * n)


@fuzz(3, long=40)
@given(source=st.sampled_from(["fifo", "zero"]), size=st.integers(0, 6 * 1024 * 1024), valid=st.booleans())
@example(source="fifo", size=0, valid=True)
@example(source="fifo", size=5 * 1024 * 1024, valid=False)
@example(source="zero", size=0, valid=False)
def test_a_board_file_that_is_a_pipe_is_read_like_standard_input_within_its_bound(
        scratch: Path, source: str, size: int, valid: bool) -> None:
    """``--board`` naming a FIFO (or ``<(...)``) is read up to the 4 MB bound like standard
    input; an endless device is cut there too, with one line."""
    from puzzlepilot.userio import MAX_BOARD_BYTES

    if source == "zero":
        path, data = Path("/dev/zero"), b""
    else:
        path = fresh(scratch) / "board"
        os.mkfifo(path)
        data = b"S#\n##\n" if valid else b"#" * size
        writer = feed(path, data)
    status, out, err = run_apart(["solve", "--game", "onestroke", "--board", path, "--json"],
                                 seconds=SECONDS, megabytes=MEGABYTES)
    if source == "fifo":
        writer.join(SECONDS)
    if source == "zero" or len(data) > MAX_BOARD_BYTES:
        assert status == 2 and "longer than 4 MB" in err, err
    elif valid:
        assert status == 0
        check_solve_json(status, out)
    else:
        assert status == 2


@fuzz(1, long=40)
@given(source=st.sampled_from(["fifo", "zero", "numbers"]), number=BIG, field=st.sampled_from(
    ["box", "centre", "rim", "empty", "enemy"]))
@example(source="fifo", number="9", field="box")
@example(source="zero", number="9", field="box")
@example(source="numbers", number="9" * 5_000, field="box")
@example(source="numbers", number="9" * 2_000, field="rim")
def test_a_picks_file_is_read_within_its_bound_and_huge_numbers_are_bad_input(
        scratch: Path, source: str, number: str, field: str) -> None:
    """``calibrate --picks`` from a FIFO fed without end, from /dev/zero, or with numbers of
    thousands of digits: one line and exit 2, promptly and within bounded memory."""
    here = fresh(scratch)
    picks = {"box": [0, 0, 100, 100], "centre": [50, 50], "rim": [90, 50], "empty": [60, 50], "enemy": [70, 50]}
    if source == "zero":
        path = Path("/dev/zero")
    else:
        path = here / "picks.json"
        if source == "fifo":
            os.mkfifo(path)
            feed(path, b"[" * (8 * 1024 * 1024))
        else:
            picks[field][0] = number
            path.write_text(json.dumps(picks).replace(f'"{number}"', number), encoding="utf-8")
    status, _, err = run_apart(["calibrate", "rings", RINGS_SHOT, "--name", "picked", "--picks", path],
                               env={"PUZZLEPILOT_PROFILES": str(here / "profiles"), "DISPLAY": ""},
                               seconds=SECONDS, megabytes=MEGABYTES)
    assert status == 2 and "picks file" in err, err
    assert not (here / "profiles" / "picked").exists()


BOARD_NUMBERS = {
    "rings": lambda n: f"moves: {n}\n" + ".x..........\n" * 4,
    "lyne": lambda n: f"{n} {n}\nT T\n",
    "klotski": lambda n: f"goal: {n},{n}\nCC\nCC\n..\n",
    "valves": lambda n: f"A B\ninlet: A\noutlet: B\nwrenches: {n}\n",
}


@fuzz(4)
@given(game=st.sampled_from(sorted(BOARD_NUMBERS)), number=BIG)
@example(game="rings", number="9" * 5_000)
@example(game="lyne", number="9" * 5_000)
def test_numbers_of_thousands_of_digits_in_a_board_are_bad_input(game: str, number: str) -> None:
    status, _, err = run(["solve", "--game", game, "--board", "-", "--json"], BOARD_NUMBERS[game](number))
    assert status in (1, 2), err


@fuzz(20)
@given(number=st.integers(7, 4_000).map(lambda n: 10 ** n), whole=st.booleans(), negative=st.booleans())
@example(number=10 ** 4_000, whole=True, negative=False)
def test_numbers_of_thousands_of_digits_in_a_profile_are_refused_by_name(number: int, whole: bool,
                                                                       negative: bool) -> None:
    """A profile's numbers (pitches, shares, shapes) of up to thousands of digits (JSON
    holds at most 4,300) are refused naming the field, never cast to a float (OverflowError:
    exit 3)."""
    from vision.profile import Profile, ProfileError

    number = -number if negative else number
    share = number if whole else 1e300 if number > 0 else -1e300
    profile = Profile("p", "klotski", Path("."), {"pitch_share": share, "grid": [number, 4]})
    with pytest.raises(ProfileError, match="'pitch_share'"):
        profile.positive("pitch_share")
    with pytest.raises(ProfileError, match="'grid'"):
        profile.sizes("grid", 2)


@fuzz(4)
@given(option=st.sampled_from(["--view", "--at", "--size"]), number=BIG)
@example(option="--view", number="100000")
def test_a_practice_window_of_a_size_or_place_past_any_screen_is_bad_input(option: str, number: str) -> None:
    """--view, --at and --size numbers past any screen (up to thousands of digits) are
    refused with one line naming the option, before any window: frames are drawn at the
    window's size."""
    sep = "," if option == "--at" else "x"
    with pytest.MonkeyPatch.context() as env:
        env.setenv("DISPLAY", "")
        status, _, err = run(["practice", "onestroke", option, f"{number}{sep}{number}"])
    assert status == 2 and option in err, err
