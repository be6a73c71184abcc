"""Klotski actions and hints: one drag per move through each cell step, starting on the
piece it moves; played back on the board they solve it; the hint is the next move."""
from __future__ import annotations

from dataclasses import replace

import numpy as np
import pytest

from overlay.actions import Drag
from overlay.draw import Label, Polyline
from overlay.klotski import CELL, MOVING, PANELS_PER_ROW, hints, plan, progress, sheet, steps
from puzzlepilot.scenes.klotski import render, scrambled
from solvers.klotski import STEPS, layout, solve, validate
from vision.klotski import parse


@pytest.fixture(scope="module", params=[("一路顺风", "wooden", 70), ("雨声淅沥", "named", 56),
                                        ("横刀立马", "flat", 64)], ids=str)
def scene(request):
    name, style, cell = request.param
    img, truth = render(scrambled(layout(name), 5, 0), style=style, cell=cell)
    found = parse(img)
    return found, solve(found.board).solution, truth


def test_playing_the_drags_on_the_screen_solves_the_board(scene):
    found, solution, truth = scene
    actions = plan(found, solution)
    assert len(actions) == len(solution) and all(isinstance(a, Drag) for a in actions)
    board = found.board
    grid = [list(row) for row in board.to_text().split("\n")]
    centres = np.array(truth.cells)
    cols, pitch = board.cols, truth.pitch
    played = []
    for drag in actions:
        # the piece under the press, found from the pixels alone
        cell = int(np.argmin(np.hypot(*(centres - np.array(drag.points[0])).T)))
        piece = grid[cell // cols][cell % cols]
        path = ""
        for (x0, y0), (x1, y1) in zip(drag.points, drag.points[1:]):
            dx, dy = round((x1 - x0) / pitch), round((y1 - y0) / pitch)
            assert abs(dx) + abs(dy) == 1 and abs(x1 - x0 - dx * pitch) < 1 and abs(y1 - y0 - dy * pitch) < 1
            path += {(0, -1): "U", (0, 1): "D", (-1, 0): "L", (1, 0): "R"}[(dx, dy)]
        played.append({"piece": piece, "path": path})
        for step in path:
            dr, dc = {"U": (-1, 0), "D": (1, 0), "L": (0, -1), "R": (0, 1)}[step]
            cells = [(r, c) for r in range(board.rows) for c in range(cols) if grid[r][c] == piece]
            for r, c in cells:
                grid[r][c] = "."
            for r, c in cells:
                grid[r + dr][c + dc] = piece
    assert validate(board, played) == []


def test_drag_starts_at_the_centre_of_the_moving_piece(scene):
    found, solution, truth = scene
    first = plan(found, solution)[0]
    p = found.board.piece(solution[0]["piece"])
    cells = [truth.cells[r * found.board.cols + c] for r, c in p.cells()]
    assert np.allclose(first.points[0], np.mean(cells, axis=0), atol=0.05 * truth.pitch)


def test_hint_is_an_arrow_along_the_next_move(scene):
    found, solution, truth = scene
    shapes = hints(found, solution)
    lines = [s for s in shapes if isinstance(s, Polyline)]
    assert lines and all(len(s.points) == len(solution[0]["path"]) + 1 for s in lines)
    assert lines[-1].points == plan(found, solution)[0].points
    assert any(isinstance(s, Label) and f"/{len(solution)}" in s.text for s in shapes)


def test_no_moves_no_hints(scene):
    found, _, _ = scene
    assert hints(found, []) == [] and plan(found, []) == []


def test_the_sheet_shows_every_move_on_its_own_board_in_order(scene):
    """One panel per move, eight to a row under the screenshot; in panel i the piece of
    move i is lit where it stands before the move (followed through all earlier moves)."""
    found, solution, _ = scene
    board = found.board
    picture = sheet(np.zeros((300, 200, 3), np.uint8), found, solution)
    pw, ph = board.cols * CELL + 12, board.rows * CELL + 34
    rows = -(-len(solution) // PANELS_PER_ROW)
    top = picture.shape[0] - rows * ph
    assert top > 0 and picture.shape[1] >= min(PANELS_PER_ROW, len(solution)) * pw
    at = {p.name: (p.row, p.col) for p in board.pieces}
    lit = np.array(MOVING[::-1])
    for i, move in enumerate(solution):
        r, c = at[move["piece"]]
        x0, y0 = (i % PANELS_PER_ROW) * pw + 6, top + (i // PANELS_PER_ROW) * ph + 4
        corner = picture[y0 + r * CELL + 4, x0 + c * CELL + 4]     # clear of the letter and arrow
        assert np.abs(corner.astype(int) - lit).max() < 10, f"move {i + 1}: piece {move['piece']} not lit"
        for step in move["path"]:
            dr, dc = {"U": (-1, 0), "D": (1, 0), "L": (0, -1), "R": (0, 1)}[step]
            r, c = r + dr, c + dc
        at[move["piece"]] = (r, c)


def test_progress_counts_the_moves_a_position_shows_made_and_nothing_else_is_on_the_way(scene):
    """Every position the answer passes through, read back under the vision's names,
    shows that many moves made; a longer move made only in part, and the board with a wall
    more, are on no step of the way."""
    found, solution, _ = scene
    board = found.board

    def shown(pieces):
        return replace(board, pieces=tuple(sorted(pieces, key=lambda p: (p.row, p.col)))).relabelled()

    at = {p.name: p for p in board.pieces}
    partial = 0
    for done in range(len(solution) + 1):
        assert progress(board, solution, shown(at.values())) == done
        if done < len(solution):
            p = at[solution[done]["piece"]]
            for i, letter in enumerate(solution[done]["path"]):
                p = replace(p, row=p.row + STEPS[letter][0], col=p.col + STEPS[letter][1])
                if i + 1 < len(solution[done]["path"]):
                    partial += 1
                    assert progress(board, solution, shown({**at, p.name: p}.values())) is None
            at[p.name] = p
    assert partial > 0
    assert progress(board, solution, replace(board, walls=frozenset({(0, 0)}))) is None


def test_hints_of_a_step_draw_that_move_from_where_the_moves_before_leave_its_piece(scene):
    found, solution, _ = scene
    assert steps(solution) == len(solution)
    for k in (0, len(solution) - 1):
        halo, arrow, label = hints(found, solution, step=k)
        assert arrow.points == plan(found, solution)[k].points
        assert label.text == f"{solution[k]['piece']}: {k + 1}/{len(solution)}"
    assert hints(found, solution) == hints(found, solution, step=0)
    with pytest.raises(ValueError, match="out of range"):
        hints(found, solution, step=len(solution))
