"""Valves on Machinarium's real panel (``../shared/real/valves/panel_open.jpg``, skipped when
absent): a player's calibration given as a picks file, then readings of the panel at other
crops, scales and JPEG qualities with red wrenches drawn on valves at run time (no picture
derived from the panel is stored). A picture drawn over by hand, or another scene, is
refused; the answer is judged by the rule checker, and hints sit on the real valves."""
from __future__ import annotations

import itertools
import json
import math
import random
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

# The player's input (the graph of docs/games.md#valves-board, and where they clicked on the panel: the box,
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
    where = dict(zip(found.geometry.names, found.cells))
    scale = kw.get("scale", 1.0)
    for name, (x, y) in at.items():                 # hints go on the real valves
        assert abs(where[name][0] - x) <= 0.15 * BODY * scale and abs(where[name][1] - y) <= 0.15 * BODY * scale, name
    result = solve(found.board)
    if result.solved:
        assert validate(found.board, result.solution) == []


def three_wrench_cases(every: int = 7, seed: int = 13, size: tuple[int, int] = (1000, 1000),
                       slack: tuple[int, int, int, int] = (90, 70, 100, 85)) -> list[tuple[str, dict]]:
    """Every ``every``-th of the 165 sets of three valves, each with its own crop of a
    ``size`` picture holding the panel (cutting up to ``slack`` off the left, top, right
    and bottom), scale, JPEG quality and handle angle (one angle a picture: the game draws
    one wrench), from a fixed seed. Handles leave at least 25° off the rows of valves (handles along a
    row, each into the next wrench's jaw, are tested below)."""
    rng = random.Random(seed)
    (w, h), (left, top, right, bottom) = size, slack
    cases = []
    for triple in list(itertools.combinations("ABCDEFGHIJK", 3))[::every]:
        x0, y0 = rng.randint(0, left), rng.randint(0, top)
        crop = (x0, y0, rng.randint(w - right - x0, w - x0), rng.randint(h - bottom - y0, h - y0))
        cases.append(("".join(triple), {"crop": crop, "scale": rng.choice([0.45, 0.6, 0.8, 1.0, 1.3]),
                                        "quality": rng.choice([None, 90, 70]),
                                        "angle": rng.choice([-1, 1]) * rng.uniform(25, 155)}))
    return cases


@pytest.mark.parametrize("closed, kw", three_wrench_cases())
def test_three_wrenches_on_any_three_valves_read(panel, profile, closed, kw):
    found = parse(shot(closed, **kw)[0], profile=profile)
    assert found.board.closed == frozenset(closed)


@pytest.mark.parametrize("closed, kw", [
    ("D", {"angle": 0.0}),                      # D's handle lies over open E's disc and middle
    ("G", {"angle": 180.0, "scale": 0.7}),      # … and off the panel's left
    ("AEJ", {"angle": -8.0, "quality": 80}),
])
def test_a_handle_lying_over_an_open_valve_leaves_it_open(panel, profile, closed, kw):
    assert parse(shot(closed, **kw)[0], profile=profile).board.closed == frozenset(closed)


@pytest.mark.parametrize("closed, kw", [
    ("ABK", {"crop": (60, 40, 800, 880), "scale": 0.8, "angle": 120.0}),    # cuts the panel's right side
    ("CGJ", {"crop": (130, 60, 760, 830), "quality": 80}),      # … and its left and bottom
    ("F", {"crop": (20, 20, 880, 900), "angle": -10.0}),        # F's handle leaves the picture
    ("ABH", {"crop": (40, 30, 812, 900)}),                      # cuts the margin sought around K, not K
    ("CGJ", {"crop": (40, 30, 815, 900), "scale": 0.8, "quality": 80, "angle": 40.0}),
])
def test_a_crop_cutting_into_the_panel_reads_by_the_valves(panel, profile, closed, kw):
    found = parse(shot(closed, **kw)[0], profile=profile)
    assert found.board.closed == frozenset(closed)


def test_a_crop_cutting_off_a_valve_is_refused(panel, profile):
    with pytest.raises(NoBoardFound, match="not in the image|valve K lies outside the image"):
        parse(shot("AB", crop=(60, 40, 760, 880))[0], profile=profile)


@pytest.mark.parametrize("closed, kw", [
    ("DE", {"angle": -3.0}),                            # D's handle runs into E's head and lies in E's jaw
    ("DEF", {"angle": -3.0, "crop": (61, 62, 927, 917), "scale": 0.75, "quality": 75}),   # … and E's in F's
    ("BCF", {"angle": -9.0, "crop": (38, 53, 875, 874), "quality": 60}),
    ("AGH", {"angle": -179.0, "crop": (1, 51, 985, 917), "scale": 0.6, "quality": 75}),   # H's reaches G's jaw
    ("DEI", {"angle": -178.0, "crop": (87, 10, 900, 990), "scale": 0.5, "quality": 60}),  # E's handle over D's head
    ("CJK", {"angle": 2.0, "crop": (66, 41, 846, 926), "scale": 1.2, "quality": 75}),    # K's handle out of the picture
    ("DEF", {"angle": 176.0, "crop": (38, 68, 902, 900), "scale": 0.45, "quality": 75}),
    ("DEG", {"angle": 156.0, "crop": (68, 7, 899, 924), "scale": 0.45}),     # D's handle beside E's way to D
])
def test_a_handle_running_into_the_next_wrenchs_jaw_reads(panel, profile, closed, kw):
    """Wrenches hung the same way along a row: each handle lies in the next one's mouth.
    The jaw it hides reads from the wrench before it, whose own jaw is seen."""
    assert parse(shot(closed, **kw)[0], profile=profile).board.closed == frozenset(closed)


@pytest.mark.parametrize("turn", [0.0, 5.0, -10.0, 60.0, -90.0, 150.0])
def test_a_lollipop_whose_mouth_a_wrenchs_handle_hides_is_refused(panel, profile, turn):
    """D's wrench hangs with its handle over E's middle; on E a red disc and bar drawn: E's
    jaw is hidden, by a wrench that hangs its way (0-10°; but the mouth is flat paint, not
    D's shaded handle) or not (60° and more)."""
    image, at = shot("D", angle=0.0)
    x, y = at["E"]
    a = math.radians(turn)
    cv2.line(image, (round(x), round(y)), (round(x + 150 * math.cos(a)), round(y + 150 * math.sin(a))),
             (40, 40, 210), 18, cv2.LINE_AA)
    cv2.circle(image, (round(x), round(y)), 30, (40, 40, 210), -1, cv2.LINE_AA)
    with pytest.raises(NoBoardFound, match="valve [DE] is covered by red that is not a wrench"):
        parse(image, profile=profile)


@pytest.mark.parametrize("seed", range(6))
def test_a_red_lollipop_drawn_on_a_valve_is_no_wrench(panel, profile, seed):
    """A disc with a straight bar, drawn on an open valve: head and handle as thick as a
    wrench's, but no jaw gripping the valve: refused, never read as closed."""
    rng = random.Random(seed)
    image, at = shot("AB")
    x, y = at["DEGJ"[seed % 4]]
    a = rng.uniform(-math.pi, math.pi)
    cv2.line(image, (round(x), round(y)), (round(x + 150 * math.cos(a)), round(y + 150 * math.sin(a))),
             (40, 40, 210), 18, cv2.LINE_AA)
    cv2.circle(image, (round(x), round(y)), 30, (40, 40, 210), -1, cv2.LINE_AA)
    with pytest.raises(NoBoardFound, match="not a wrench"):
        parse(image, profile=profile)


@pytest.mark.parametrize("look", ["steel-grey wrench", "red cap without a handle", "blue wrench"])
def test_a_closed_look_other_than_the_red_wrench_is_refused_not_read(panel, profile, look):
    """The game's closed look is a guess (a red open-ended spanner): any other look on a
    valve — the same spanner in steel grey or blue, a red cap — is refused, never read as
    open or closed."""
    from puzzlepilot.scenes.valves import draw_wrench

    image, at = shot("AB")
    drawn = image.copy()
    if look == "red cap without a handle":
        cv2.circle(drawn, tuple(round(v) for v in at["E"]), 30, (40, 40, 200), -1, cv2.LINE_AA)
    else:
        draw_wrench(drawn, at["E"], BODY, -35.0, blur=1.2)
        on = np.any(drawn != image, axis=2)
        grey = cv2.cvtColor(cv2.cvtColor(drawn, cv2.COLOR_BGR2GRAY), cv2.COLOR_GRAY2BGR)
        drawn[on] = grey[on] if look == "steel-grey wrench" else drawn[on][:, ::-1]     # red ↔ blue
    with pytest.raises(NoBoardFound, match="valve E|differs from its calibrated picture near"):
        parse(drawn, profile=profile)


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
    ({"inlet": [140, -3]}, "'inlet' must be 2 numbers from 0"),
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


@pytest.mark.parametrize("content, message", [(None, "no such picks file"), ("{nope", "is not JSON"),
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
