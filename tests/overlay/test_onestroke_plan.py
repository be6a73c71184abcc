"""One-stroke actions and hints: one drag through the cell centres in solution order,
and hint shapes that follow the same path."""
from __future__ import annotations

import pytest

from overlay.actions import Drag
from overlay.draw import Label, Marker, Polyline
from overlay.onestroke import SMALL_PITCH, hints, plan
from puzzlepilot.scenes.onestroke import render_phone, tight
from solvers.onestroke import Board, generate, solve, validate
from vision.onestroke import parse


@pytest.fixture(scope="module", params=[(5, 5, 1), (7, 6, 2), (9, 9, 3)], ids=str)
def level(request):
    rows, cols, seed = request.param
    board = tight(generate(rows, cols, seed, fill=0.75))
    image, truth = render_phone(board, width=720, height=1280, seed=seed)
    found = parse(image)
    solution = solve(found.board).solution
    assert validate(found.board, solution) == []
    return found, solution, truth


def test_plan_is_one_drag_through_every_cell_centre_in_order(level):
    found, solution, truth = level
    actions = plan(found, solution)
    assert len(actions) == 1 and isinstance(actions[0], Drag)
    points = actions[0].points
    assert len(points) == len(solution) == len(found.board.cells)
    cols = found.board.cols
    for (r, c), (x, y) in zip(solution, points):
        tx, ty = truth.cells[r * cols + c]
        assert abs(x - tx) < 0.03 * truth.pitch and abs(y - ty) < 0.03 * truth.pitch


def test_plan_starts_on_the_cat_and_steps_one_pitch_at_a_time(level):
    found, solution, truth = level
    points = plan(found, solution)[0].points
    start = found.board.start
    assert points[0] == pytest.approx(truth.cells[start[0] * found.board.cols + start[1]], abs=0.03 * truth.pitch)
    for (x0, y0), (x1, y1) in zip(points, points[1:]):
        assert abs(x1 - x0) + abs(y1 - y0) == pytest.approx(truth.pitch, rel=0.03)


def test_plan_follows_the_parse_into_screen_coordinates(level):
    found, solution, _ = level
    here = plan(found, solution)[0].points
    there = plan(found.shifted(300, 40), solution)[0].points
    assert [c for x, y in here for c in (x + 300, y + 40)] == pytest.approx([c for p in there for c in p])


def test_hints_draw_the_path_with_arrows_start_end_and_step_numbers(level):
    found, solution, _ = level
    shapes = hints(found, solution)
    path = plan(found, solution)[0].points
    lines = [s for s in shapes if isinstance(s, Polyline)]
    assert lines and all(line.points == path for line in lines)
    assert any(line.arrows == "each" for line in lines)
    markers = [s for s in shapes if isinstance(s, Marker)]
    assert [m.point for m in markers] == [path[0], path[-1]]
    assert markers[0].label == "1" and markers[1].label == str(len(path))
    numbers = sorted(int(s.text) for s in shapes if isinstance(s, Label))
    every = 1 if min(found.geometry.pitch) >= SMALL_PITCH else 5
    assert numbers == [k for k in range(2, len(path)) if k % every == 0]
    labels = {int(s.text): s.point for s in shapes if isinstance(s, Label)}
    for k, point in labels.items():   # each number sits in the corner of its own cell
        x, y = path[k - 1]
        assert abs(point[0] - x) < 0.5 * min(found.geometry.pitch) and abs(point[1] - y) < 0.5 * min(found.geometry.pitch)


def test_small_boards_number_every_fifth_step_and_big_ones_every_step():
    board = Board.from_text("S#########/##########")   # pitch 33 px at 360 wide, 49 at 540, 108 at 1080
    for width, every in ((360, 5), (540, 1), (1080, 1)):
        found = parse(render_phone(board, width=width, height=width * 16 // 9)[0])
        solution = solve(found.board).solution
        numbers = sorted(int(s.text) for s in hints(found, solution) if isinstance(s, Label))
        assert numbers == [k for k in range(2, len(solution)) if k % every == 0], width


def test_hint_sizes_follow_the_pitch():
    board = Board.from_text("S###/####/####")
    small, big = (parse(render_phone(board, width=w, height=w * 16 // 9)[0]) for w in (540, 1080))
    solution = solve(small.board).solution
    width = {id(p): [s.width for s in hints(p, solution) if isinstance(s, Polyline)] for p in (small, big)}
    assert width[id(big)] == pytest.approx([2 * w for w in width[id(small)]], rel=0.03)
