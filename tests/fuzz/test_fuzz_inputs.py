"""Fuzzed images, profiles, key maps and options: the contract holds (0, 1 or 2 with one
line; never 3 nor a traceback; bounded time), pictures that hold no game never give a board,
and every answer read from a picture passes the game's checker."""
from __future__ import annotations

import json
import os
import re
import shutil
import struct
import tempfile
import zlib
from pathlib import Path
from typing import Iterator

import cv2
import numpy as np
import pytest
from hypothesis import example, given, strategies as st

from puzzlepilot.games import GAMES
from tests.fuzz.contract import check_solve_json, fuzz, run

REPO = Path(__file__).resolve().parents[2]
FIXTURES = sorted(p for p in (REPO / "fixtures").glob("*/*") if p.suffix in (".png", ".jpg"))
SMALL_FIXTURES = [p for p in FIXTURES if p.stat().st_size < 150_000][:12]


SCRATCH = Path(tempfile.gettempdir()) / f"puzzlepilot-fuzz-{os.getpid()}"


@pytest.fixture(autouse=True, scope="module")
def _scratch_removed() -> Iterator[None]:
    """The examples' folders live under one folder of this run, removed when the module
    ends (thousands of examples must not leave thousands of folders behind)."""
    yield
    shutil.rmtree(SCRATCH, ignore_errors=True)


def scratch() -> Path:
    """A fresh folder per example (hypothesis runs many examples in one test call)."""
    SCRATCH.mkdir(exist_ok=True)
    return Path(tempfile.mkdtemp(prefix="fuzz-", dir=SCRATCH))


# ---------------------------------------------------------------------------- images

@st.composite
def plain_picture(draw: st.DrawFn) -> np.ndarray:
    """Pictures without any game: one colour, noise, stripes or random boxes, any size
    from 1 pixel up."""
    h, w = draw(st.integers(1, 240)), draw(st.integers(1, 320))
    kind = draw(st.sampled_from(["solid", "noise", "stripes", "boxes"]))
    rng = np.random.default_rng(draw(st.integers(0, 2 ** 32 - 1)))
    if kind == "solid":
        return np.full((h, w, 3), draw(st.integers(0, 255)), np.uint8)
    if kind == "noise":
        return rng.integers(0, 256, (h, w, 3), dtype=np.uint8)
    image = np.full((h, w, 3), rng.integers(0, 256, 3), np.uint8)
    for _ in range(draw(st.integers(1, 12))):
        x, y = int(rng.integers(0, w)), int(rng.integers(0, h))
        if kind == "stripes":
            image[:, x:x + 3] = rng.integers(0, 256, 3)
        else:
            cv2.rectangle(image, (x, y), (x + int(rng.integers(2, 60)), y + int(rng.integers(2, 60))),
                          tuple(int(v) for v in rng.integers(0, 256, 3)), -1)
    return image


@fuzz(12)
@given(image=plain_picture(), ext=st.sampled_from([".png", ".jpg", ".bmp"]))
@example(image=np.zeros((16, 257, 3), np.uint8), ext=".png")   # a strip: "too thin", found by a random draw
def test_pictures_without_a_game_give_no_board(image: np.ndarray, ext: str) -> None:
    path = scratch() / f"picture{ext}"
    cv2.imwrite(str(path), image)
    status, _, err = run(["solve", path, "--json"])
    assert status == 2 and any(s in err for s in ("no board found", "too small", "too thin")), err


@st.composite
def damaged_file(draw: st.DrawFn) -> bytes:
    """A fixture's bytes cut short, with bytes flipped, or with a header that lies about
    its size; or bytes that only start like an image."""
    kind = draw(st.sampled_from(["truncate", "flip", "header", "junk"]))
    if kind == "junk":
        return draw(st.sampled_from([b"\x89PNG\r\n\x1a\n", b"\xff\xd8\xff", b"BM", b"GIF89a", b"RIFF"])) + \
            draw(st.binary(max_size=200))
    data = bytearray(draw(st.sampled_from(SMALL_FIXTURES)).read_bytes())
    if kind == "truncate":
        return bytes(data[:draw(st.integers(0, len(data) - 1))])
    if kind == "flip":
        for _ in range(draw(st.integers(1, 8))):
            i = draw(st.integers(0, len(data) - 1))
            data[i] ^= draw(st.integers(1, 255))
        return bytes(data)
    width, height = draw(st.integers(0, 2 ** 31 - 1)), draw(st.integers(0, 2 ** 31 - 1))
    if data.startswith(b"\x89PNG"):
        data[16:24] = struct.pack(">II", width, height)
        data[29:33] = struct.pack(">I", zlib.crc32(bytes(data[12:29])))
    elif b"\xff\xc0" in data:
        i = data.index(b"\xff\xc0")
        data[i + 5:i + 9] = struct.pack(">HH", height & 0xFFFF, width & 0xFFFF)
    return bytes(data)


@fuzz(15)
@given(data=damaged_file(), command=st.sampled_from(["solve", "parse"]))
def test_damaged_image_files_keep_the_contract(data: bytes, command: str) -> None:
    path = scratch() / "shot.png"
    path.write_bytes(data)
    status, out, _ = run([command, path, "--json"])
    if command == "solve":
        check_solve_json(status, out)


# ---------------------------------------------------------------------------- profiles

def profile_fields(game: str) -> list[str]:
    """The profile fields a game's vision reads, found in its source (so a new field is
    fuzzed too)."""
    source = (REPO / "vision" / f"{game}.py").read_text(encoding="utf-8")
    return sorted(set(re.findall(r"""(?:get|colour|_number\(profile,|_shares\(profile,)\(?\s*["']([a-z_]+)["']""", source)))


JSON_VALUE = st.recursive(
    st.one_of(st.none(), st.booleans(), st.integers(-10 ** 12, 10 ** 12), st.floats(allow_nan=True),
              st.text(max_size=12)),
    lambda inner: st.one_of(st.lists(inner, max_size=5), st.dictionaries(st.text(max_size=8), inner, max_size=4)),
    max_leaves=12)
SMALL_INT = st.integers(-3, 300)


@st.composite
def profile_json(draw: st.DrawFn, game: str) -> str:
    fields = profile_fields(game)
    data: dict[str, object] = {"version": draw(st.sampled_from([1, 1, 1, 2, "1", None])), "game": game}
    for field in draw(st.lists(st.sampled_from(fields), unique=True)) if fields else []:
        data[field] = draw(st.one_of(JSON_VALUE, st.lists(SMALL_INT, min_size=0, max_size=4), SMALL_INT))
    if draw(st.booleans()):
        data["templates"] = draw(st.dictionaries(st.sampled_from(["cell", "start", "hub", "x"]),
                                                 st.one_of(st.sampled_from(["t.png", "../t.png", "/etc/hostname",
                                                                             "missing.png", ""]), JSON_VALUE),
                                                 max_size=3))
    text = json.dumps(data)
    if draw(st.integers(0, 9)) == 0:   # deeply nested, or broken JSON
        text = draw(st.sampled_from(['{"version": 1, "x": ' + "[" * 20000 + "]" * 20000 + "}",
                                     text[:len(text) // 2], "\ufeff" + text]))
    return text


@fuzz(25)
@given(data=st.data(), game=st.sampled_from(sorted(GAMES)))
def test_fuzzed_profiles_keep_the_contract(data: st.DataObject, game: str) -> None:
    folder = scratch() / "profile"
    folder.mkdir()
    (folder / "profile.json").write_text(data.draw(profile_json(game), label="profile.json"), encoding="utf-8")
    cv2.imwrite(str(folder / "t.png"), np.full((12, 12, 3), 128, np.uint8))
    shot = data.draw(st.sampled_from([p for p in SMALL_FIXTURES if p.parent.name == game] or SMALL_FIXTURES))
    status, out, _ = run(["solve", shot, "--profile", folder, "--json"])
    check_solve_json(status, out)
    run(["profiles", "show", folder])


# ---------------------------------------------------------------------------- key maps

@fuzz(25)
@given(keymap=st.one_of(JSON_VALUE, st.fixed_dictionaries(
    {}, optional={k: st.one_of(JSON_VALUE, st.lists(st.lists(st.text(max_size=6), max_size=3), max_size=5))
                  for k in ("rings", "lines", "clockwise", "anticlockwise", "inward", "outward", "confirm")})))
def test_fuzzed_key_maps_are_taken_or_refused_with_one_line(keymap: object) -> None:
    from overlay.rings import load_keymap

    path = scratch() / "keys.json"
    path.write_text(json.dumps(keymap), encoding="utf-8")
    try:
        load_keymap(path)
    except ValueError as exc:
        assert "\n" not in str(exc)
    with pytest.MonkeyPatch.context() as env:
        env.delenv("DISPLAY", raising=False)   # the command must not reach a screen
        status, _, err = run(["live", "--window", "no such game", "--play", "--keymap", path])
    assert status == 2


# ---------------------------------------------------------------------------- options

NUMBER = st.one_of(st.sampled_from(["nan", "-nan", "inf", "-inf", "1e-300", "1e300", "0", "-1", "²", "0x10",
                                    "", " ", "1_000", "١٢"]),
                   st.floats(allow_nan=True, allow_infinity=True).map(repr), st.integers(-10 ** 20, 10 ** 20).map(str))
OPTION_LINES = {
    "solve": ["--game", "--metric", "--rule", "--moves", "--wrenches", "--all", "--json", "--annotate", "--profile"],
    "live": ["--fps", "--speed", "--confirm", "--levels", "--window-id", "--region", "--monitor", "--play",
             "--dry-run", "--hints", "--game"],
    "demo": ["--speed", "--levels", "--seed", "--out"],
    "calibrate": ["--name", "--board", "--dir", "--check", "--boards"],
    "profiles": ["list", "show", "delete"],
}


@st.composite
def command_line(draw: st.DrawFn) -> list[str]:
    command = draw(st.sampled_from(sorted(OPTION_LINES)))
    argv = [command]
    if command == "solve":
        argv += draw(st.sampled_from([["--board", "-"], [str(SMALL_FIXTURES[0])], []]))
    for option in draw(st.lists(st.sampled_from(OPTION_LINES[command]), max_size=4)):
        argv.append(option)
        if draw(st.booleans()):
            argv.append(draw(st.one_of(NUMBER, st.sampled_from(sorted(GAMES)), st.text(max_size=8))))
    return argv


@fuzz(40)
@given(argv=command_line(), board=st.sampled_from(["##S#/####", "CCA/CCA/.BB/.DD", ""]))
def test_fuzzed_options_keep_the_contract(argv: list[str], board: str) -> None:
    if argv[0] == "demo":
        argv += ["--speed", "nan"]      # never start a demo (it opens a display and plays): refused
    with pytest.MonkeyPatch.context() as env:
        env.delenv("DISPLAY", raising=False)
        env.setenv("PUZZLEPILOT_PROFILES", str(scratch() / "store"))
        env.chdir(scratch())
        run(argv, stdin=board)
