"""Valves on our painted copper-pipe panel (``scenes.valves.render_panel``, the look of
Machinarium's painted panel, drawn by us): the shipped profile is what calibration makes of
the open panel and the player's picks; red wrenches on any three valves read at other
crops, scales and JPEG qualities, with no profile and with the player's own calibration;
pictures drawn over and other scenes are refused."""
from __future__ import annotations

import json
import math

import cv2
import numpy as np
import pytest

from calibration.profile import load
from puzzlepilot.scenes.valves import (GRAPH, PANEL_BODY, panel_picks, panel_profile_data, reframe,
                                       render_panel, render_sewer)
from solvers.valves import solve, validate
from tests.calibration.test_valves_real import three_wrench_cases
from tests.helpers import run_cli as run
from vision.common import NoBoardFound
from vision.valves import PAINTED, SHIPPED, parse


def shot(closed: str, crop: tuple[int, int, int, int] | None = None, scale: float = 1.0, quality: int | None = None,
         angle: float = -35.0) -> tuple[np.ndarray, dict[str, tuple[float, float]]]:
    """The painted panel with wrenches on ``closed``, cropped (x, y, width, height at scale
    1) before scaling, maybe JPEG'd; and where each point then is."""
    image, truth = render_panel(frozenset(closed), angle=angle)
    return reframe(image, truth.points, crop, scale, quality)


@pytest.fixture(scope="module")
def calibrated(tmp_path_factory):
    """The player's calibration of an open painted panel, through the command line."""
    folder = tmp_path_factory.mktemp("painted")
    cv2.imwrite(str(folder / "open.png"), render_panel()[0])
    (folder / "graph.txt").write_text(GRAPH.replace("/", "\n"))
    (folder / "picks.json").write_text(json.dumps(panel_picks()))
    status, _, err = run(["calibrate", "valves", folder / "open.png", "--name", "mine", "--board", folder / "graph.txt",
                          "--picks", folder / "picks.json", "--dir", folder / "profile"])
    assert status == 0, err
    return load(folder / "profile")


def test_the_shipped_painted_profile_is_what_calibration_makes_of_the_open_panel():
    data, templates = panel_profile_data()
    shipped = json.loads((PAINTED / "profile.json").read_text())
    assert {k: shipped[k] for k in data} == json.loads(json.dumps(data)) and shipped["shut_look"] == "red wrench"
    for key, image in templates.items():
        assert np.array_equal(cv2.imread(str(PAINTED / f"{key}.png")), image), key


@pytest.mark.parametrize("closed, kw", three_wrench_cases(every=11, seed=5, size=(900, 920), slack=(40, 30, 40, 30)))
def test_three_wrenches_read_with_no_profile(closed, kw):
    image, at = shot(closed, **kw)
    found = parse(image)
    assert found.board.closed == frozenset(closed) and found.geometry.scene == "painted"
    where = dict(zip(found.geometry.names, found.cells))
    for name in "ABCDEFGHIJK":                  # hints go on the valves
        assert math.dist(where[name], at[name]) <= 0.15 * PANEL_BODY * kw["scale"], name
    result = solve(found.board)
    if result.solved:
        assert validate(found.board, result.solution) == []


@pytest.mark.parametrize("closed, kw", [("ABH", {"scale": 0.7}), ("CGK", {"scale": 1.2, "quality": 80, "angle": 70.0}),
                                        ("E", {"crop": (30, 20, 840, 880), "scale": 0.5})])
def test_the_players_own_calibration_reads_the_panel(calibrated, closed, kw):
    assert parse(shot(closed, **kw)[0], profile=calibrated).board.closed == frozenset(closed)


@pytest.mark.parametrize("what", ["red squiggle on a valve", "black squiggle on the pipes", "red lollipop on a valve",
                                  "grey patch"])
def test_a_panel_drawn_over_is_refused(what):
    image, at = shot("AB", scale=0.8)
    x, y = at["E"]
    if what == "red squiggle on a valve":
        cv2.polylines(image, [np.int32([[x - 25, y - 15], [x, y + 20], [x + 10, y - 10], [x + 30, y + 25]])], False,
                      (40, 40, 210), 5, cv2.LINE_AA)
    elif what == "black squiggle on the pipes":
        cv2.polylines(image, [np.int32([[300, 420], [340, 470], [380, 430], [420, 480]])], False, (20, 20, 20), 4, cv2.LINE_AA)
    elif what == "red lollipop on a valve":
        cv2.line(image, (round(x), round(y)), (round(x + 90), round(y - 60)), (40, 40, 210), 14, cv2.LINE_AA)
        cv2.circle(image, (round(x), round(y)), 24, (40, 40, 210), -1, cv2.LINE_AA)
    else:
        cv2.rectangle(image, (420, 480), (520, 560), (128, 128, 128), -1)
    with pytest.raises(NoBoardFound):
        parse(image)


def test_each_scene_refuses_the_other():
    with pytest.raises(NoBoardFound):
        parse(shot("AB")[0], profile=SHIPPED)       # the sewer's profile alone
    with pytest.raises(NoBoardFound):
        parse(render_sewer(frozenset("AB"))[0], profile=PAINTED)
    assert parse(render_sewer(frozenset("AB"))[0]).geometry.scene == "sewer"
