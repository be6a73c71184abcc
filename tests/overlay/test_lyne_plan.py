"""LYNE actions and hints: one drag per shape through its node centres, terminal to
terminal, and hint lines in each shape's colour, all or one path at a time."""
from __future__ import annotations

import pytest

from overlay.actions import Drag
from overlay.draw import Marker, Polyline, render
from overlay.lyne import hints, path_points, plan, steps
from puzzlepilot.scenes.lyne import PALETTES, render as render_scene
from solvers.lyne import Board, show, solve, validate
from vision.lyne import parse


@pytest.fixture(scope="module", params=["TSD/2S2/tsd/D2T", "T.T/ttt", "tSD../T2.dD/t2Sd./T2t.."], ids=str)
def level(request):
    image, truth = render_scene(Board.from_text(request.param), PALETTES["original"], 1024, 768)
    found = parse(image)
    solution = solve(found.board).solution
    assert validate(found.board, solution) == []
    return image, found, solution, truth


def test_plan_is_one_drag_per_shape_from_terminal_to_terminal(level):
    _, found, solution, truth = level
    actions = plan(found, solution)
    assert len(actions) == len(solution) and all(isinstance(a, Drag) for a in actions)
    cols = found.board.cols
    for action, shape in zip(actions, sorted(solution)):
        path = solution[shape]
        assert len(action.points) == len(path)
        for (r, c), (x, y) in zip(path, action.points):
            tx, ty = truth.cells[r * cols + c]
            assert abs(x - tx) < 0.08 * truth.pitch and abs(y - ty) < 0.08 * truth.pitch
        first, last = path[0], path[-1]
        assert found.board.at(tuple(first)) == found.board.at(tuple(last)) == shape.upper()


def test_hints_draw_every_path_in_its_shape_colour_with_the_start_marked(level):
    image, found, solution, _ = level
    shapes = hints(found, solution)
    lines = [s for s in shapes if isinstance(s, Polyline) and s.arrows == "each"]
    markers = [s for s in shapes if isinstance(s, Marker)]
    assert len(lines) == len(markers) == len(solution)
    for k, (line, marker, shape) in enumerate(zip(lines, markers, sorted(solution)), 1):
        assert line.color == tuple(found.geometry.colours[shape])
        assert marker.point == line.points[0] and marker.label == f"{k}{shape}"
    assert render(image, shapes).shape == image.shape


def test_the_picture_numbers_the_paths_as_the_text_does(level):
    _, found, solution, _ = level
    labels = [s.label for s in hints(found, solution) if isinstance(s, Marker)]
    text = show(found.board, solution).splitlines()
    assert [line.split(":")[0].replace(". ", "") for line in text] == labels


def test_paths_sharing_a_hub_pass_it_apart(level):
    _, found, solution, _ = level
    lines = [s for s in hints(found, solution) if isinstance(s, Polyline) and s.arrows == "each"]
    points = [set(line.points) for line in lines]
    for i, a in enumerate(points):
        for b in points[i + 1:]:
            assert not a & b, "two paths' lines meet at the same point"
    pitch = found.geometry.pitch
    for line, shape in zip(lines, sorted(solution)):   # and each stays near its own nodes
        for (x, y), (tx, ty) in zip(line.points, path_points(found, solution[shape])):
            assert abs(x - tx) <= 0.3 * pitch and abs(y - ty) <= 0.3 * pitch


def test_hints_one_step_at_a_time_show_only_that_path(level):
    _, found, solution, _ = level
    assert steps(solution) == len(solution)
    for step, shape in enumerate(sorted(solution)):
        lines = [s for s in hints(found, solution, step=step) if isinstance(s, Polyline) and s.arrows == "each"]
        assert len(lines) == 1 and len(lines[0].points) == len(solution[shape])
    with pytest.raises(ValueError, match="out of range"):
        hints(found, solution, step=len(solution))
