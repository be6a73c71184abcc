"""Valves actions and hints: clicks on the answer's valves (after the wrench when the
profile says so), discs on the same valves, and clicking the plan in the scene shuts the
water off."""
from __future__ import annotations

import json
import shutil

import pytest

from calibration.profile import load
from overlay.actions import Click
from overlay.draw import Label, Marker, Polyline
from overlay.valves import hints, plan
from puzzlepilot.scenes.valves import render_sewer
from solvers.valves import solve, validate
from vision.valves import SHIPPED, parse


@pytest.fixture(scope="module", params=[(0.6, ""), (1.0, "A"), (1.25, "H")], ids=str)
def scene(request):
    scale, closed = request.param
    image, truth = render_sewer(frozenset(closed), scale=scale)
    found = parse(image)
    solution = solve(found.board).solution
    assert validate(found.board, solution) == []
    return found, solution, truth, scale


def near(a: tuple[float, float], b: tuple[float, float], tolerance: float) -> bool:
    return abs(a[0] - b[0]) <= tolerance and abs(a[1] - b[1]) <= tolerance


def test_plan_clicks_each_valve_of_the_answer_on_its_wheel(scene):
    found, solution, truth, scale = scene
    actions = plan(found, solution)
    assert len(actions) == len(solution) and all(isinstance(a, Click) for a in actions)
    for name, click in zip(solution, actions):
        assert near(click.point, truth.points[name], 2.0), name


def test_clicking_the_plan_in_the_scene_stops_the_water(scene):
    found, solution, truth, _ = scene
    shut = set(found.board.closed)
    for click in plan(found, solution):
        hit = [n for n, p in truth.points.items() if near(click.point, p, 0.5 * found.geometry.radius)]
        assert len(hit) == 1
        shut.add(hit[0])
    image, _ = render_sewer(frozenset(shut), scale=scene[3])
    assert validate(parse(image).board, []) == []


def test_hints_ring_each_valve_to_close_numbered_with_the_words_solve_prints(scene):
    from solvers.valves import show

    found, solution, truth, _ = scene
    shapes = hints(found, solution)
    rings = [s for s in shapes if isinstance(s, Polyline)]
    markers = [s for s in shapes if isinstance(s, Marker)]
    labels = [s.text for s in shapes if isinstance(s, Label)]
    r = found.geometry.radius
    assert [m.label for m in markers] == [str(k) for k in range(1, len(solution) + 1)]
    for name, ring, marker in zip(solution, rings, markers):
        centre = (sum(x for x, _ in ring.points[:-1]) / 32, sum(y for _, y in ring.points[:-1]) / 32)
        assert near(centre, truth.points[name], 2.0) and ring.arrows == "none"
        assert near(marker.point, truth.points[name], 1.2 * r)     # on the ring, not over the valve
    printed = show(found.board, solution).splitlines()
    assert labels[0] == printed[0].split("  (")[0]               # "close 2 valves: B, H"
    assert labels[1:] == [line.strip() for line in printed[1:-1]]  # "1. close B", …


def test_wrench_then_click_profiles_fetch_the_wrench_before_every_valve(tmp_path):
    folder = tmp_path / "wrench"
    shutil.copytree(SHIPPED, folder)
    data = json.loads((folder / "profile.json").read_text())
    data.update(close="wrench-then-click", wrench=[60, 560])
    (folder / "profile.json").write_text(json.dumps(data))
    image, truth = render_sewer(scale=0.8)
    found = parse(image, profile=load(folder))
    actions = plan(found, ["A", "B", "H"])
    assert len(actions) == 6
    wrench = (60 * 0.8, 560 * 0.8)
    for k, name in enumerate(["A", "B", "H"]):
        assert near(actions[2 * k].point, wrench, 2.0)
        assert near(actions[2 * k + 1].point, truth.points[name], 2.0)
