"""The command line's contract on hostile input: one line and exit 2 for bad input, exit 3
(one line; --debug for the traceback) for a defect, bounded reads, and --annotate that never
replaces what is not a regular file."""
from __future__ import annotations

import io
import json
import os
import struct
import subprocess
import sys
import zlib
from pathlib import Path

import cv2
import numpy as np
import pytest

from puzzlepilot import cli, userio
from tests.helpers import run_cli as run

REPO = Path(__file__).resolve().parents[2]
SHOT = REPO / "fixtures" / "onestroke" / sorted(p.name for p in (REPO / "fixtures" / "onestroke").glob("*.png"))[0]


def one_line(status: int, out: str, err: str, want: int = 2) -> None:
    assert status == want, err
    assert out == "" and err.count("\n") == 1 and "Traceback" not in err, err


def png_header_only(width: int, height: int) -> bytes:
    def chunk(kind: bytes, body: bytes) -> bytes:
        return struct.pack(">I", len(body)) + kind + body + struct.pack(">I", zlib.crc32(kind + body))
    ihdr = struct.pack(">IIBBBBB", width, height, 8, 2, 0, 0, 0)
    return b"\x89PNG\r\n\x1a\n" + chunk(b"IHDR", ihdr) + chunk(b"IDAT", zlib.compress(b"\0" * 64)) + chunk(b"IEND", b"")


@pytest.mark.parametrize("size", [(1, 1), (1, 5000), (5000, 1), (8, 300), (16, 15360), (4000, 40)])
def test_tiny_and_thin_images_are_no_board(tmp_path, size):
    path = tmp_path / "thin.png"
    cv2.imwrite(str(path), np.random.default_rng(1).integers(0, 256, (size[1], size[0], 3), dtype=np.uint8))
    status, out, err = run(["solve", path])
    one_line(status, out, err)
    assert "too small" in err or "too thin" in err


def test_a_huge_image_is_refused_from_its_header_without_decoding(tmp_path):
    path = tmp_path / "huge.png"
    path.write_bytes(png_header_only(40000, 30000))
    status, out, err = run(["parse", path])
    one_line(status, out, err)
    assert "40000×30000" in err


def test_a_huge_jpeg_header_is_read_too(tmp_path):
    ok, data = cv2.imencode(".jpg", np.zeros((40, 30, 3), np.uint8))
    raw = bytearray(data.tobytes())
    i = raw.index(b"\xff\xc0")
    raw[i + 5:i + 9] = struct.pack(">HH", 60000, 60000)
    path = tmp_path / "huge.jpg"
    path.write_bytes(bytes(raw))
    one_line(*run(["solve", path]))


def no_file(tmp_path: Path, kind: str) -> Path:
    """A path named ``out.png`` in ``tmp_path`` that is no regular file: a folder, a FIFO, a
    link (to a file of the user's or to nothing), in a folder that does not exist, or a device."""
    target = tmp_path / "out.png"
    if kind == "dir":
        target.mkdir()
    elif kind == "fifo":
        os.mkfifo(target)
    elif kind == "symlink":
        (tmp_path / "real.txt").write_text("mine")
        target.symlink_to(tmp_path / "real.txt")
    elif kind == "broken link":
        target.symlink_to(tmp_path / "gone.png")
    elif kind == "missing-folder":
        target = tmp_path / "nowhere" / "out.png"
    elif kind == "device":
        target = Path("/dev/full")
    return target


@pytest.mark.parametrize("kind, says", [("dir", "is a folder"), ("fifo", "not an image file"),
                                        ("device", "not an image file"), ("broken link", "not an image file"),
                                        ("missing-folder", "no such image file")])
def test_an_image_path_that_is_no_file_says_what_it_is(tmp_path, kind, says):
    status, out, err = run(["parse", str(no_file(tmp_path, kind))])
    one_line(status, out, err)
    assert says in err


def test_decoder_warnings_do_not_reach_stderr(tmp_path):
    ok, data = cv2.imencode(".png", np.full((64, 64, 3), 40, np.uint8))
    raw = bytearray(data.tobytes())
    raw[-20] ^= 0xFF   # a broken IDAT: libpng complains on the C stderr
    path = tmp_path / "broken.png"
    path.write_bytes(bytes(raw))
    proc = subprocess.run([sys.executable, "-m", "puzzlepilot", "solve", str(path)], cwd=REPO,
                          capture_output=True, text=True, timeout=60)
    assert proc.returncode == 2 and proc.stdout == "" and proc.stderr.count("\n") == 1, proc.stderr
    assert proc.stderr.startswith("puzzlepilot: error: not an image")


@pytest.mark.parametrize("content", ["moves: \u00b2\n" + ("." * 12 + "\n") * 4, "moves: \u0663\n" + ("." * 12 + "\n") * 4])
def test_unicode_digits_are_not_a_move_budget(tmp_path, content):
    path = tmp_path / "b.txt"
    path.write_text(content, encoding="utf-8")
    one_line(*run(["solve", "--game", "rings", "--board", path]))


def test_board_texts_are_read_at_most_a_few_megabytes(tmp_path):
    path = tmp_path / "big.txt"
    path.write_bytes(b"#" * (userio.MAX_BOARD_BYTES + 10))
    status, out, err = run(["solve", "--game", "onestroke", "--board", path])
    one_line(status, out, err)
    assert "MB" in err
    status, out, err = run(["solve", "--game", "onestroke", "--board", "-"], stdin="#" * (userio.MAX_BOARD_BYTES + 10))
    one_line(status, out, err)


@pytest.mark.parametrize("source", ["/proc/self/mem", "/dev/null", "utf16", "dir"])
def test_unreadable_board_sources_are_one_line(tmp_path, source):
    if source == "utf16":
        source = tmp_path / "u16.txt"
        source.write_text("##S#\n####\n", encoding="utf-16")
    elif source == "dir":
        source = tmp_path
    one_line(*run(["solve", "--game", "onestroke", "--board", source]))


def test_closed_stdin_is_one_line():
    closed = io.StringIO()
    closed.close()
    out, err = io.StringIO(), io.StringIO()
    status = cli.main(["solve", "--game", "klotski", "--board", "-"], stdin=closed, stdout=out, stderr=err)
    one_line(status, out.getvalue(), err.getvalue())


def test_an_internal_error_is_one_line_and_exit_3_with_the_traceback_on_debug(monkeypatch):
    def broken(*args, **kwargs):
        raise ZeroDivisionError("a defect\nover two lines")

    monkeypatch.setattr(cli, "cmd_solve", broken)
    status, out, err = run(["solve", "--game", "klotski", "--board", "-"])
    one_line(status, out, err, want=3)
    assert "internal error" in err and "--debug" in err
    status, out, err = run(["solve", "--game", "klotski", "--board", "-", "--debug"])
    assert status == 3 and "Traceback" in err and "ZeroDivisionError" in err


@pytest.mark.parametrize("kind", ["dir", "fifo", "symlink", "missing-folder", "device"])
def test_annotate_refuses_what_is_not_a_regular_file(tmp_path, kind):
    target = no_file(tmp_path, kind)
    before = sorted(p.name for p in tmp_path.iterdir())
    status, out, err = run(["solve", SHOT, "--annotate", target])
    one_line(status, out, err)
    assert sorted(p.name for p in tmp_path.iterdir()) == before   # nothing left behind
    if kind == "symlink":
        assert (tmp_path / "real.txt").read_text() == "mine"
    if kind == "device":
        assert Path("/dev/full").is_char_device()


def test_annotate_overwrites_a_regular_file_the_user_named(tmp_path):
    target = tmp_path / "out.png"
    target.write_bytes(b"old")
    status, out, err = run(["solve", SHOT, "--annotate", target])
    assert status == 0, err
    assert cv2.imread(str(target)) is not None
    assert sorted(p.name for p in tmp_path.iterdir()) == ["out.png"]


def test_annotate_leaves_a_write_protected_file_alone(tmp_path):
    """A file its owner made read-only is not replaced (as cp refuses), even where the
    folder lets a new file be renamed over it, and even for root."""
    target = tmp_path / "out.png"
    target.write_bytes(b"keep me")
    target.chmod(0o444)
    one_line(*run(["solve", SHOT, "--annotate", target]))
    assert target.read_bytes() == b"keep me" and sorted(p.name for p in tmp_path.iterdir()) == ["out.png"]


@pytest.mark.parametrize("how", ["itself", "link", "hard link"])
def test_annotate_never_replaces_the_screenshot_it_reads(tmp_path, how):
    shot = tmp_path / "shot.png"
    shot.write_bytes(SHOT.read_bytes())
    target = shot if how == "itself" else tmp_path / "hint.png"
    if how == "link":
        target.symlink_to(shot)
    elif how == "hard link":
        os.link(shot, target)
    status, out, err = run(["solve", shot, "--annotate", target])
    one_line(status, out, err)
    assert shot.read_bytes() == SHOT.read_bytes()


def test_an_empty_annotate_is_refused_not_ignored(tmp_path):
    status, out, err = run(["solve", SHOT, "--annotate", ""])
    one_line(status, out, err)
    assert "--annotate needs a file name" in err


def test_a_failed_annotate_write_is_one_line_and_leaves_no_temporary_file(tmp_path, monkeypatch):
    def refused(*args, **kwargs):
        raise PermissionError(13, "Permission denied")

    monkeypatch.setattr(os, "replace", refused)
    one_line(*run(["solve", SHOT, "--annotate", tmp_path / "out.png"]))
    assert list(tmp_path.iterdir()) == []


def test_calibrating_valves_without_a_display_says_so_truthfully(tmp_path, monkeypatch):
    board = tmp_path / "graph.txt"
    board.write_text("A B\nB C\ninlet: A\noutlet: C\nclosed: B\n")
    monkeypatch.delenv("DISPLAY", raising=False)
    monkeypatch.setenv("PUZZLEPILOT_PROFILES", str(tmp_path / "store"))
    shot = REPO / "fixtures" / "valves" / "sewer_A_640.png"
    status, out, err = run(["calibrate", "valves", shot, "--name", "v", "--board", board])
    one_line(status, out, err)
    assert "no display" in err and "give --board" not in err


def test_calibrate_check_prints_nothing_before_a_bad_expected_board(tmp_path, monkeypatch):
    from calibration import profile as profiles

    monkeypatch.setenv("PUZZLEPILOT_PROFILES", str(tmp_path / "store"))
    profiles.save({"game": "onestroke", "name": "p", "tolerance": 30, "cell_rgb": [200, 200, 200]}, {}, tmp_path / "p")
    boards = tmp_path / "boards.txt"
    boards.write_text("##S#\n####\n\nnot a board ?\n")
    status, out, err = run(["calibrate", "--check", tmp_path / "p", SHOT, SHOT, "--boards", boards])
    one_line(status, out, err)


def test_live_frames_too_small_for_a_board_are_no_board():
    from puzzlepilot.games import GAMES, parse_best
    from vision.common import NoBoardFound

    with pytest.raises(NoBoardFound, match="too small"):
        parse_best(np.zeros((3, 900, 3), np.uint8), list(GAMES.values()))


@pytest.mark.parametrize("game, text", [("lyne", "  TSD\nTSD"), ("lyne", "\tTtT"), ("onestroke", "  ##S#"),
                                        ("klotski", " CCA\n CCA")])
def test_leading_blanks_in_a_row_are_refused_by_every_game(game, text):
    status, out, err = run(["solve", "--game", game, "--board", "-"], stdin=text)
    one_line(status, out, err)


def test_a_huge_picture_in_another_format_is_refused_without_a_warning_line(tmp_path):
    from PIL import Image

    path = tmp_path / "bomb.gif"
    Image.new("1", (12000, 9000)).save(path)   # small file, 108 million pixels
    proc = subprocess.run([sys.executable, "-m", "puzzlepilot", "parse", str(path)], cwd=REPO,
                          capture_output=True, text=True, timeout=60)
    assert proc.returncode == 2 and proc.stdout == "" and proc.stderr.count("\n") == 1, proc.stderr
    assert "12000×9000" in proc.stderr


def test_fixtures_added_at_once_all_keep_their_entries(tmp_path, monkeypatch):
    """Each add reads expected.json, adds its entry and writes it back: adds at once (a
    script adding in parallel; threads here, each taking the folder's lock through its own
    open file as processes do) take turns. Before, an add wrote expected.json without the
    entry another had just written: the user's board for that image was lost."""
    import time
    from concurrent.futures import ThreadPoolExecutor

    from puzzlepilot import fixtures

    read = fixtures.read_expected
    monkeypatch.setattr(fixtures, "read_expected", lambda folder: (read(folder), time.sleep(0.02))[0])
    board = "#######/###S###/######./..##.##/...##.#/..###.#/..#####"

    def add(i: int) -> int:
        return run(["fixtures", "add", SHOT, "--game", "onestroke", "--board", board, "--dir", tmp_path,
                    "--name", f"shot{i}.png"])[0]

    with ThreadPoolExecutor(4) as pool:
        assert list(pool.map(add, range(8))) == [0] * 8
    entries = json.loads((tmp_path / "onestroke" / "expected.json").read_text())
    assert sorted(entries) == [f"shot{i}.png" for i in range(8)]


@pytest.mark.parametrize("levels", ["0", "101", "100000000"])
def test_demo_levels_out_of_range_are_refused_before_any_work(levels, tmp_path, monkeypatch):
    """demo named its three pictures per level before starting: --levels 100000000 took
    1.2 GB in 15 s, 10**20 all the memory there is."""
    from puzzlepilot import demo

    def started(*args):
        raise AssertionError("the demo started")

    monkeypatch.setattr(demo, "make_folder", started)
    status, out, err = run(["demo", "--levels", levels, "--out", tmp_path / "out"])
    one_line(status, out, err)
    assert "--levels must be from 1 to 100" in err


def test_stage_pictures_written_at_once_into_one_folder_all_land(tmp_path, monkeypatch):
    """parse --stages runs at once into one folder take turns writing it (threads here,
    each taking the folder's lock through its own open file). Before, each wrote the record
    it had read before its reading: the other's pictures then read as someone else's files,
    and the run ended with exit 2 and a false "holds files puzzlepilot did not write"."""
    import threading
    from concurrent.futures import ThreadPoolExecutor

    from puzzlepilot import stages

    both_checked, seen = threading.Barrier(2, timeout=20), threading.local()
    check = stages.check_folder

    def check_then_wait(folder):
        record = check(folder)
        if not getattr(seen, "checked", False):    # both runs look at the folder before either writes
            seen.checked = True
            both_checked.wait()
        return record

    monkeypatch.setattr(stages, "check_folder", check_then_wait)
    folder = tmp_path / "stages"
    shots = [SHOT, SHOT.with_name("phone_4x4_tan_540.png")]     # stages of different bytes
    with ThreadPoolExecutor(2) as pool:
        done = list(pool.map(lambda shot: run(["parse", shot, "--stages", folder]), shots))
    assert [status for status, _, _ in done] == [0, 0], [err for _, _, err in done]
    assert check(folder).names() == {p.name for p in folder.iterdir()} - {".made"}   # every picture on record
