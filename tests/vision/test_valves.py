"""Valves vision: the sewer found at any scale and place, valves read open or closed,
profiles loaded and refused by field, and other pictures refused."""
from __future__ import annotations

import json
import shutil
from pathlib import Path

import cv2
import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from calibration.profile import load
from puzzlepilot.scenes.paint import noise_photo, render_desktop
from puzzlepilot.scenes.valves import GRAPH, POINTS, SIZE, profile_data, render_panel, render_sewer
from solvers.valves import Board
from tests.helpers import text
from vision.common import NoBoardFound
from vision.profile import ProfileError
from vision.valves import PAINTED, SHIPPED, _grey, _sweep, glimpse, parse, scene

ROOT = Path(__file__).resolve().parents[2]
REAL = ROOT / ".." / "shared" / "real"
OTHER_GAMES = sorted(p for p in (ROOT / "fixtures").glob("*/*.*")
                     if p.suffix in (".png", ".jpg") and p.parent.name != "valves")
VALVES = Board.from_text(GRAPH).valves


def placed(image: np.ndarray, width: int, height: int, x: int, y: int, seed: int) -> np.ndarray:
    """The picture pasted into a desktop at (x, y)."""
    out = render_desktop(width, height, seed)
    out[y:y + image.shape[0], x:x + image.shape[1]] = image
    return out


# ---------------------------------------------------------------------------- reading

@settings(max_examples=12, deadline=None)
@given(closed=st.sets(st.sampled_from(VALVES), max_size=3),
       scale=st.floats(0.45, 1.4), dx=st.integers(0, 300), dy=st.integers(0, 200))
def test_the_sewer_reads_at_any_scale_and_place(closed, scale, dx, dy):
    img, truth = render_sewer(closed, scale=scale)
    shot = placed(img, img.shape[1] + 300, img.shape[0] + 200, dx, dy, seed=1)
    found = parse(shot)
    assert found.game == "valves" and text(found) == truth.board
    assert found.board.closed == frozenset(closed)
    at = dict(zip(found.geometry.names, found.cells))
    for name, (x, y) in truth.moved(dx, dy).points.items():
        assert abs(at[name][0] - x) <= 1.5 and abs(at[name][1] - y) <= 1.5, name
    assert found.confidence >= 0.6     # small scenes blur the wheels: 0.7 at half size


def test_cells_follow_the_boards_point_order_and_radius_the_scale():
    img, truth = render_sewer(scale=0.75)
    found = parse(img)
    assert found.geometry.names == tuple(found.board.points)
    assert len(found.cells) == len(found.board.points)
    assert found.geometry.scale == pytest.approx(0.75, rel=0.01)
    assert found.geometry.radius == pytest.approx(25 * 0.75, rel=0.05)
    assert found.geometry.close == "click"


def test_a_lamp_lit_jpeg_still_reads():
    img, truth = render_sewer({"B", "E"}, scale=0.9, lamp=True)
    ok, data = cv2.imencode(".jpg", img, [cv2.IMWRITE_JPEG_QUALITY, 60])
    found = parse(cv2.imdecode(data, cv2.IMREAD_COLOR))
    assert text(found) == truth.board


# ---------------------------------------------------------------------------- refusing

@pytest.mark.parametrize("path", OTHER_GAMES, ids=lambda p: f"{p.parent.name}/{p.name}")
def test_other_games_fixtures_are_refused(path):
    with pytest.raises(NoBoardFound):
        parse(cv2.imread(str(path)))


@pytest.mark.skipif(not REAL.is_dir(), reason="real screenshots not present")
def test_real_screenshots_of_other_games_are_refused():
    shots = sorted(REAL.glob("*/*.png"))
    assert shots
    for path in shots:
        with pytest.raises(NoBoardFound):
            parse(cv2.imread(str(path)))


@pytest.mark.parametrize("picture", [
    lambda: render_desktop(1280, 800, 5),
    lambda: noise_photo(900, 600, 6),
    lambda: render_sewer(scale=0.7, wheels=False)[0],
    lambda: np.zeros((600, 960, 3), np.uint8),
    lambda: np.full((40, 60, 3), 128, np.uint8),
], ids=["desktop", "photo", "no-wheels", "black", "tiny"])
def test_pictures_without_the_scene_are_refused(picture):
    with pytest.raises(NoBoardFound):
        parse(picture())


@pytest.mark.parametrize("picture", [lambda: render_desktop(1920, 1080, 4), lambda: noise_photo(900, 600, 6),
                                     lambda: np.full((1080, 1920, 3), 255, np.uint8)], ids=["desktop", "photo", "blank"])
def test_with_no_profile_a_picture_of_neither_scene_is_refused_at_the_first_look(picture):
    """The cheap first look of both scenes (``glimpse``) refuses it before the full sweeps."""
    with pytest.raises(NoBoardFound, match="neither valves scene"):
        parse(picture())


@pytest.mark.parametrize("picture", [
    lambda: placed(render_sewer(scale=0.5)[0], 1920, 1080, 700, 400, 1),
    lambda: placed(render_sewer({"C", "E"}, scale=4 / 3)[0], 1920, 1080, 300, 130, 2),
    lambda: placed(render_panel({"A", "F", "K"}, scale=0.8)[0], 1920, 1080, 1000, 60, 3),
    lambda: render_desktop(1920, 1080, 4),
    lambda: noise_photo(900, 600, 6),
], ids=["small-sewer", "large-sewer", "panel", "desktop", "photo"])
def test_a_sweep_started_near_the_first_looks_scale_finds_what_the_full_sweep_finds(picture):
    """The coarse sweep seeded by ``glimpse`` (or by a wrong scale) gives the full sweep's
    place, scale and likeness, for every part of both scenes: readings cannot change."""
    image = picture()
    grey = cv2.cvtColor(image, cv2.COLOR_BGR2GRAY)
    scenes = (scene(), scene(PAINTED))
    _, seen = glimpse(grey, scenes)
    for sc in scenes:
        seeking = _grey(image, sc.work is not None)
        for part in sc.parts:
            template = part.coarse
            full = _sweep(seeking, part, template, 1.06)
            for near in {seen[p].scale for p in sc.parts if p in seen} | {0.3, 1.0, 1.7}:
                assert _sweep(seeking, part, template, 1.06, near) == full, (sc.name, near)


def test_a_valve_half_covered_is_refused_not_guessed():
    img, truth = render_sewer(scale=1.0)
    x, y = truth.points["A"]
    cv2.rectangle(img, (round(x - 30), round(y - 30)), (round(x + 30), round(y + 2)), (200, 200, 200), -1)
    with pytest.raises(NoBoardFound, match="valve A"):
        parse(img)


# ---------------------------------------------------------------------------- profiles

def test_the_shipped_profile_is_what_the_scene_code_makes():
    data, templates = profile_data()
    shipped = json.loads((SHIPPED / "profile.json").read_text())
    assert {k: v for k, v in shipped.items() if k not in ("version", "templates")} == data
    for key, image in templates.items():
        stored = cv2.imread(str(SHIPPED / f"{key}.png"))
        assert stored.shape == image.shape
        assert np.abs(stored.astype(int) - image).mean() < 2, key
    assert (shipped["inlet"], shipped["outlet"]) == (list(POINTS["X"]), list(POINTS["Y"]))
    assert cv2.imread(str(SHIPPED / "reference.png")).shape[:2] == (SIZE[1], SIZE[0])


def copy_profile(tmp_path: Path, **changes: object) -> Path:
    """The shipped profile copied, with profile.json fields changed (None removes one)."""
    dest = tmp_path / "sewer-copy"
    shutil.copytree(SHIPPED, dest)
    data = json.loads((dest / "profile.json").read_text())
    for key, value in changes.items():
        if value is None:
            data.pop(key, None)
        else:
            data[key] = value
    (dest / "profile.json").write_text(json.dumps(data))
    return dest


def test_an_explicit_profile_folder_is_used(tmp_path):
    folder = copy_profile(tmp_path, name="my-sewer", close="wrench-then-click", wrench=[900, 560])
    img, truth = render_sewer({"C"}, scale=0.6)
    found = parse(img, profile=load(folder))
    assert found.geometry.scene == "my-sewer" and found.board.closed == {"C"}
    at = dict(zip(found.geometry.names, found.cells))
    assert at["wrench"] == pytest.approx((540, 336), abs=2)
    assert found.geometry.close == "wrench-then-click"


@pytest.mark.parametrize("changes, field", [
    ({"game": "lyne"}, "game"),
    ({"graph": "X A/A A"}, "graph"),
    ({"valves": {"A": [560, 120]}}, "valves"),
    ({"inlet": [70]}, "inlet"),
    ({"outlet": [5000, 300]}, "outlet"),
    ({"close": "kick"}, "close"),
    ({"close": "wrench-then-click"}, "wrench"),
    ({"valve_size": 40}, "valve_size"),
    ({"valve_size": None}, "valve_size"),
    ({"reference_shut": ["Q"]}, "reference_shut"),
])
def test_a_broken_profile_is_refused_naming_the_field(tmp_path, changes, field):
    folder = copy_profile(tmp_path, **changes)
    img, _ = render_sewer(scale=0.5)
    with pytest.raises(ProfileError, match=field):
        parse(img, profile=load(folder))


def test_each_open_valve_is_matched_with_its_own_look_from_the_reference(tmp_path):
    # The generic open crop spoiled: valves open in the reference still read by their own.
    folder = copy_profile(tmp_path)
    noise = np.random.default_rng(3).integers(0, 256, (50, 50, 3), dtype=np.uint8)
    cv2.imwrite(str(folder / "open.png"), noise)
    img, truth = render_sewer({"B", "K"}, scale=0.9)
    assert text(parse(img, profile=load(folder))) == truth.board


def test_more_shut_valves_than_wrenches_is_no_position_of_the_game():
    img, _ = render_sewer({"A", "B", "C", "D"}, scale=0.8)
    with pytest.raises(NoBoardFound, match="only 3 wrenches"):
        parse(img)
