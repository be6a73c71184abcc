"""Valves on Machinarium's real panel (``../shared/real/valves/panel_open.jpg``, skipped when
absent): a player's calibration given as a picks file, then readings of the panel at other
crops, scales and JPEG qualities with red wrenches drawn on valves at run time (no picture
derived from the panel is stored). A picture drawn over by hand, or another scene, is
refused; the answer is judged by the rule checker, and hints sit on the real valves."""
from __future__ import annotations

import json
from pathlib import Path

import cv2
import numpy as np
import pytest

from puzzlepilot.benchmarks.valves import GAME, PANEL, PANEL_BODY as BODY, PANEL_PICKS as PICKS
from puzzlepilot.benchmarks.valves import PANEL_VALVES as VALVES, panel_profile, panel_shot as shot
from solvers.valves import Board, solve, validate
from tests.helpers import run_cli as run
from vision.common import NoBoardFound
from vision.valves import parse

# The player's input (GAMES.md §5's graph, and where they clicked on the panel: the box,
# inlet, outlet, the eleven valves in letter order, the rim of A) is the bench's too.
GRAPH = GAME.replace("/", "\n") + "\n"


@pytest.fixture(scope="module")
def panel() -> np.ndarray:
    if not PANEL.is_file():
        pytest.skip("the real screenshots (../shared/real) are not here")
    return cv2.imread(str(PANEL))


@pytest.fixture(scope="module")
def profile(panel, tmp_path_factory):
    """The player's calibration (picks file, graph), through the command line."""
    return panel_profile(tmp_path_factory.mktemp("machinarium"))


def test_the_calibration_reads_its_own_screenshot_with_every_valve_open(panel, profile):
    found = parse(panel, profile=profile)
    assert found.board == Board.from_text(GRAPH) and found.confidence > 0.8
    assert profile.data["shut_look"] == "red wrench"


@pytest.mark.parametrize("closed, kw", [
    ("ABH", {}),
    ("ABH", {"scale": 0.6}),
    ("CGK", {"crop": (20, 0, 980, 1000), "scale": 0.75, "quality": 70}),
    ("DEJ", {"scale": 1.4, "angle": 20}),
    ("F", {"crop": (30, 10, 940, 980), "scale": 0.5}),
    ("ABH", {"scale": 0.45, "quality": 60}),
    ("IJK", {"angle": -90}),
    ("ABC", {"angle": 160, "scale": 0.8}),
    ("A", {"crop": (0, 0, 1000, 1000), "scale": 1.2, "quality": 80}),
    ("ABH", {"crop": (90, 70, 830, 870), "scale": 0.9, "quality": 80}),    # tighter than the player's box
    ("CEI", {"crop": (60, 40, 880, 900), "scale": 0.6}),
])
def test_wrenches_read_as_closed_valves_at_other_crops_and_scales(panel, profile, closed, kw):
    image, at = shot(closed, **kw)
    found = parse(image, profile=profile)
    assert found.board.closed == frozenset(closed)
    where = dict(zip(found.geometry["names"], found.cells))
    scale = kw.get("scale", 1.0)
    for name, (x, y) in at.items():                 # hints go on the real valves
        assert abs(where[name][0] - x) <= 0.15 * BODY * scale and abs(where[name][1] - y) <= 0.15 * BODY * scale, name
    result = solve(found.board)
    if result.solved:
        assert validate(found.board, result.solution) == []


def scribble(image: np.ndarray, near: tuple[float, float], colour: tuple[int, int, int], thick: int, seed: int) -> np.ndarray:
    """A hand-drawn squiggle around a point."""
    rng = np.random.default_rng(seed)
    points = (np.array(near) + np.cumsum(rng.normal(0, 25, (12, 2)), axis=0)).astype(np.int32)
    cv2.polylines(image, [points], False, colour, thick, cv2.LINE_AA)
    return image


@pytest.mark.parametrize("what", ["black squiggle on the pipes", "blue squiggle on a valve", "red squiggle on a valve",
                                  "red squiggle on the wall", "thick red marker on a valve", "grey patch",
                                  "white squiggle, smaller"])
def test_a_picture_drawn_over_is_refused(panel, profile, what):
    image, at = shot("AB", scale=0.7 if "smaller" in what else 1.0)
    s = 0.7 if "smaller" in what else 1.0
    if what == "black squiggle on the pipes":
        scribble(image, (300, 620), (20, 20, 20), 4, 1)
    elif what == "blue squiggle on a valve":
        scribble(image, at["D"], (200, 80, 20), 3, 2)
    elif what == "red squiggle on a valve":
        scribble(image, at["C"], (40, 40, 210), 5, 3)
    elif what == "red squiggle on the wall":
        scribble(image, (760, 600), (40, 40, 210), 4, 4)
    elif what == "thick red marker on a valve":
        scribble(image, at["D"], (40, 40, 210), 9, 5)
    elif what == "grey patch":
        cv2.rectangle(image, (600, 600), (760, 700), (128, 128, 128), -1)
    else:
        scribble(image, (500 * s, 500 * s), (240, 240, 240), 3, 6)
    with pytest.raises(NoBoardFound):
        parse(image, profile=profile)


def test_other_scenes_are_refused(panel, profile):
    fixtures = Path(__file__).resolve().parents[2] / "fixtures" / "valves"
    for name in ("sewer_ABH_480.png", "none_desktop.png", "none_photo.jpg"):
        with pytest.raises(NoBoardFound):
            parse(cv2.imread(str(fixtures / name)), profile=profile)
    with pytest.raises(NoBoardFound):
        parse(np.ascontiguousarray(panel[:, ::-1]), profile=profile)    # mirrored: not the scene
    with pytest.raises(NoBoardFound):
        parse(panel)                                  # our own sewer's profile does not read the real panel


def test_solve_with_the_profile_draws_the_hints_on_the_real_valves(panel, profile, tmp_path):
    image, _ = shot("A", scale=0.8, quality=85)
    cv2.imwrite(str(tmp_path / "panel.jpg"), image)
    status, out, err = run(["solve", tmp_path / "panel.jpg", "--game", "valves", "--profile", profile.folder,
                            "--annotate", tmp_path / "hints.png"])
    assert status == 0, err
    assert "close 2 valves: B, H  (0 wrenches left after that)" in out and "1. close B" in out
    drawn = cv2.imread(str(tmp_path / "hints.png")).astype(int) - image.astype(int)
    for name in "BH":                               # red ink on the ring around each valve to close
        x, y = (round(v * 0.8) for v in VALVES[name])
        ring = drawn[y - 40:y + 40, x - 40:x + 40]
        assert (np.abs(ring).sum(axis=2) > 60).mean() > 0.05, name


@pytest.mark.parametrize("change, message", [
    ({"valves": []}, "must list 11 points"),
    ({"box": [40, 20, 910]}, "'box' must be 4 numbers"),
    ({"rim": "here"}, "'rim' must be 2 numbers"),
    ({"inlet": [140, -3]}, "'inlet' must be 2 numbers of 0 or more"),
    ({"box": [40, 20, 2000, 950]}, "reaches outside"),
    ({"extra": 1}, "unknown extra"),
    ({"valves": {"A": [1, 2]}}, "must name exactly the graph's valves"),
])
def test_a_bad_picks_file_is_one_line_and_exit_2(panel, tmp_path, change, message):
    (tmp_path / "graph.txt").write_text(GRAPH)
    (tmp_path / "picks.json").write_text(json.dumps({**PICKS, **change}))
    status, out, err = run(["calibrate", "valves", PANEL, "--name", "x", "--board", tmp_path / "graph.txt",
                            "--picks", tmp_path / "picks.json", "--dir", tmp_path / "profile"])
    assert status == 2 and out == "" and len(err.strip().splitlines()) == 1 and message in err
    assert not (tmp_path / "profile").exists()


@pytest.mark.parametrize("content, message", [(None, "no such picks file"), ("{nope", "not valid JSON"),
                                              ("[1, 2]", "must hold a JSON object")])
def test_an_unreadable_picks_file_is_one_line_and_exit_2(panel, tmp_path, content, message):
    (tmp_path / "graph.txt").write_text(GRAPH)
    if content is not None:
        (tmp_path / "picks.json").write_text(content)
    status, _, err = run(["calibrate", "valves", PANEL, "--name", "x", "--board", tmp_path / "graph.txt",
                          "--picks", tmp_path / "picks.json"])
    assert status == 2 and len(err.strip().splitlines()) == 1 and message in err


def test_live_plays_the_real_panel_by_clicking_the_real_valves(panel, profile, display, tmp_path):
    import subprocess
    import sys

    from tests.display import find_on_screen, run_puzzlepilot, wait_for_window

    image, at = shot("A", scale=0.7)
    cv2.imwrite(str(tmp_path / "panel.png"), image)
    viewer = subprocess.Popen([sys.executable, "-c",
                               "import sys, tkinter as tk\n"
                               "root = tk.Tk(); root.title('real panel'); root.geometry('+40+40')\n"
                               "img = tk.PhotoImage(file=sys.argv[1]); tk.Label(root, image=img, bd=0).pack()\n"
                               "root.mainloop()", str(tmp_path / "panel.png")])
    try:
        wait_for_window("real panel")
        shown = find_on_screen(image)
        assert shown is not None, "the panel never showed on the screen"
        status, out, err = run_puzzlepilot("live", "--game", "valves", "--window", "real panel", "--profile",
                                           str(profile.folder), "--play", "--dry-run", "--levels", "1",
                                           "--hints", "none", timeout=90)
    finally:
        viewer.terminate()
        viewer.wait(timeout=10)
    assert status == 0, err
    clicks = [tuple(map(int, line.split("(")[1].rstrip(")").split(","))) for line in out.splitlines()
              if line.startswith("dry run: click")]
    assert len(clicks) == 2 and "2 moves" in out
    for (x, y), name in zip(clicks, "BH"):
        assert abs(x - shown[0] - at[name][0]) <= 6 and abs(y - shown[1] - at[name][1]) <= 6, (name, x, y)
