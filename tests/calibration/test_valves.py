"""Valves calibration: a profile learned from one screenshot (box and clicks given, so no
window) reads the scene at other sizes and with other valves shut; bad inputs are refused
naming what is wrong."""
from __future__ import annotations

import pytest

from calibration.profile import save
from calibration.valves import build, kinds, learn
from puzzlepilot.scenes.onestroke import embed
from puzzlepilot.scenes.paint import render_desktop
from puzzlepilot.scenes.valves import GRAPH, WHEEL, render_sewer
from solvers.valves import Board
from vision.profile import ProfileError
from vision.valves import parse

BOARD = Board.from_text(GRAPH + "/closed: D")


def screenshot(scale: float = 0.8):
    """The sewer with D shut in a window on a desktop, the box around it and every click."""
    scene, truth = render_sewer(frozenset("D"), scale=scale, lamp=True)
    x, y = 150, 100
    shot, moved = embed(scene, truth, render_desktop(1280, 800, 2), x, y, 1.0)
    box = (x, y, scene.shape[1], scene.shape[0])
    at = {n: (round(px), round(py)) for n, (px, py) in moved.points.items()}
    clicks = {f"inlet {BOARD.inlet}": at[BOARD.inlet], f"outlet {BOARD.outlet}": at[BOARD.outlet],
              **{f"valve {v}": at[v] for v in BOARD.valves}}
    gx, gy = at[BOARD.valves[0]]
    clicks[f"the rim of valve {BOARD.valves[0]}"] = (gx + round(0.86 * WHEEL * scale), gy)
    return shot, box, clicks


@pytest.fixture(scope="module")
def learned(tmp_path_factory):
    shot, box, clicks = screenshot()
    data, templates = learn(shot, board=BOARD, region=box, examples=clicks)
    folder = tmp_path_factory.mktemp("profiles") / "learned"
    return save({**data, "game": "valves", "name": "learned"}, templates, folder), shot


def test_the_window_asks_for_inlet_outlet_every_valve_and_a_rim():
    asked = kinds(BOARD)
    assert asked[:2] == ("inlet X", "outlet Y") and asked[-1] == "the rim of valve G"
    assert [k.split()[1] for k in asked[2:-1]] == list(BOARD.valves)


def test_the_learned_profile_reads_its_own_screenshot(learned):
    profile, shot = learned
    found = parse(shot, profile=profile)
    assert found.board == BOARD and found.confidence > 0.9


@pytest.mark.parametrize("closed, scale", [("", 0.6), ("ABH", 1.0), ("CE", 0.8)])
def test_the_learned_profile_reads_other_sizes_and_other_valves(learned, closed, scale):
    profile, _ = learned
    image, truth = render_sewer(frozenset(closed), scale=scale)
    found = parse(image, profile=profile)
    assert found.board.to_text().replace("\n", "/") == truth.board
    at = dict(zip(found.geometry.names, found.cells))
    for name, (x, y) in truth.points.items():
        assert abs(at[name][0] - x) <= 2 and abs(at[name][1] - y) <= 2, name


def test_the_stored_graph_has_every_valve_open(learned):
    profile, _ = learned
    assert "closed" not in profile.data["graph"]
    assert profile.data["close"] == "click" and profile.data["valve_size"] == pytest.approx(2.3 * 0.86 * WHEEL * 0.8, abs=1)


def test_without_the_graph_calibration_asks_for_it():
    shot, box, clicks = screenshot()
    with pytest.raises(ProfileError, match="--board"):
        learn(shot, board=None, region=box, examples=clicks)


def test_a_screenshot_with_every_valve_open_learns_the_red_wrench_look():
    shot, box, clicks = screenshot()
    data, templates = build(shot, Board.from_text(GRAPH), box, clicks)
    assert data["shut_look"] == "red wrench" and set(templates) == {"reference", "open"}


@pytest.mark.parametrize("change, message", [
    ("rim at centre", "too near its centre"),
    ("click outside", "outside the box"),
])
def test_bad_calibrations_are_refused_saying_why(change, message):
    shot, box, clicks = screenshot()
    board = BOARD
    if change == "rim at centre":
        clicks["the rim of valve G"] = clicks["valve G"]
    else:
        clicks["valve A"] = (box[0] - 5, box[1] + 10)
    with pytest.raises(ProfileError, match=message):
        build(shot, board, box, clicks)


def test_esc_in_the_calibration_window_ends_in_one_line_and_exit_2(display, store, tmp_path):
    import os
    import shutil

    import cv2

    from tests.display import find_on_screen, puzzlepilot, wait_until, xdotool

    if shutil.which("xdotool") is None:
        pytest.skip("xdotool is not installed")
    image, _ = render_sewer(frozenset("D"), scale=0.6)
    cv2.imwrite(str(tmp_path / "sewer.png"), image)
    (tmp_path / "graph.txt").write_text(BOARD.to_text())
    env = {**os.environ, "DISPLAY": display, "PUZZLEPILOT_PROFILES": str(store)}
    proc = puzzlepilot("calibrate", "valves", str(tmp_path / "sewer.png"), "--name", "esc",
                       "--board", str(tmp_path / "graph.txt"), env=env)
    try:
        assert find_on_screen(image) is not None, "the calibration window never showed the screenshot"
        window = xdotool("search", "--name", "calibrate valves").split()[0]
        xdotool("windowfocus", window)
        wait_until(lambda: xdotool("getwindowfocus").strip() == window, "the calibration window to have the focus")
        xdotool("key", "Escape")
        out, err = proc.communicate(timeout=30)
    finally:
        if proc.poll() is None:
            proc.kill()
            proc.wait()
    assert proc.returncode == 2 and out == "" and "Traceback" not in err
    assert err.strip().splitlines() == ["puzzlepilot: error: calibration cancelled in the window (Esc or closed); nothing written"]
    assert not (store / "esc").exists()


def test_a_cancelled_window_is_one_line_and_exit_2(monkeypatch, tmp_path):
    import cv2

    import calibration.picker
    from tests.helpers import run_cli

    def cancelled(*_args, **_kw):
        raise calibration.picker.PickCancelled("calibration cancelled in the window (Esc or closed); nothing written")

    monkeypatch.setattr(calibration.picker, "pick", cancelled)
    image, _ = render_sewer(frozenset("D"), scale=0.6)
    cv2.imwrite(str(tmp_path / "sewer.png"), image)
    status, out, err = run_cli(["calibrate", "valves", tmp_path / "sewer.png", "--name", "x", "--board", BOARD.to_text()])
    assert status == 2 and out == "" and err == "puzzlepilot: error: calibration cancelled in the window (Esc or closed); nothing written\n"
