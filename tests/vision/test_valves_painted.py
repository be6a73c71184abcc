"""Valves on our painted copper-pipe panel (``scenes.valves.render_panel``, the look of
Machinarium's painted panel, drawn by us): the shipped profile is what calibration makes of
the open panel and the player's picks; red wrenches on any three valves read at other
crops, scales and JPEG qualities, with no profile and with the player's own calibration;
pictures drawn over and other scenes are refused."""
from __future__ import annotations

import itertools
import json
import math
import random

import cv2
import numpy as np
import pytest

from calibration.profile import load
from puzzlepilot.scenes.valves import (GRAPH, PANEL_BODY, panel_picks, panel_profile_data, render_panel,
                                       render_sewer)
from solvers.valves import solve, validate
from tests.helpers import run_cli as run
from vision.common import NoBoardFound
from vision.valves import PAINTED, SHIPPED, parse


def shot(closed: str, crop: tuple[int, int, int, int] | None = None, scale: float = 1.0, quality: int | None = None,
         angle: float = -35.0) -> tuple[np.ndarray, dict[str, tuple[float, float]]]:
    """The painted panel with wrenches on ``closed``, cropped (x, y, width, height at scale
    1) before scaling, maybe JPEG'd; and where each point then is."""
    image, truth = render_panel(frozenset(closed), angle=angle)
    x, y = 0, 0
    if crop:
        x, y, w, h = crop
        image = image[y:y + h, x:x + w]
    if scale != 1.0:
        image = cv2.resize(image, None, fx=scale, fy=scale, interpolation=cv2.INTER_AREA if scale < 1 else cv2.INTER_CUBIC)
    if quality:
        image = cv2.imdecode(cv2.imencode(".jpg", image, [cv2.IMWRITE_JPEG_QUALITY, quality])[1], cv2.IMREAD_COLOR)
    return image, {n: ((px - x) * scale, (py - y) * scale) for n, (px, py) in truth.points.items()}


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


def cases() -> list[tuple[str, dict]]:
    """Every eleventh set of three valves, each with a crop holding the plate, a scale, a
    JPEG quality and a handle angle off the rows of valves, from a fixed seed."""
    rng = random.Random(5)
    found = []
    for triple in list(itertools.combinations("ABCDEFGHIJK", 3))[::11]:
        x0, y0 = rng.randint(0, 40), rng.randint(0, 30)
        crop = (x0, y0, rng.randint(860 - x0, 900 - x0), rng.randint(890 - y0, 920 - y0))
        found.append(("".join(triple), {"crop": crop, "scale": rng.choice([0.45, 0.6, 0.8, 1.0, 1.3]),
                                        "quality": rng.choice([None, 90, 70]),
                                        "angle": rng.choice([-1, 1]) * rng.uniform(25, 155)}))
    return found


@pytest.mark.parametrize("closed, kw", cases())
def test_three_wrenches_read_with_no_profile(closed, kw):
    image, at = shot(closed, **kw)
    found = parse(image)
    assert found.board.closed == frozenset(closed) and found.geometry["profile"] == "painted"
    where = dict(zip(found.geometry["names"], found.cells))
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
    assert parse(render_sewer(frozenset("AB"))[0]).geometry["profile"] == "sewer"
