"""Klotski drags and the annotated sheet on boards with walls, gates and pieces of any
shape (GNOME Klotski's Agatka): every drag starts on a cell of its piece."""
from __future__ import annotations

import numpy as np

from overlay.klotski import CELL, move_paths, sheet
from solvers.klotski import STEPS, Board, solve
from tests.solvers.test_klotski_walls import AGATKA
from vision.common import Parse
from vision.klotski import KlotskiGeometry

PITCH = 30


def agatka() -> tuple[Parse, list[dict[str, str]]]:
    board = Board.from_text(AGATKA)
    cells = [((c + 0.5) * PITCH, (r + 0.5) * PITCH) for r in range(board.rows) for c in range(board.cols)]
    geometry = KlotskiGeometry(board.rows, board.cols, (0.0, 0.0), (PITCH, PITCH), 2.0)
    return Parse("klotski", board, 1.0, cells, geometry), solve(board).solution


def test_every_drag_starts_on_a_cell_of_its_piece_and_steps_a_pitch():
    found, solution = agatka()
    at = {p.name: set(p.cells()) for p in found.board.pieces}
    for move, points in zip(solution, move_paths(found, solution)):
        x, y = points[0]
        assert (int(y // PITCH), int(x // PITCH)) in at[move["piece"]]
        if move["piece"] == found.board.target:       # the L's middle lies off it: held at a cell's centre
            assert (x % PITCH, y % PITCH) == (PITCH / 2, PITCH / 2)
        for letter, (a, b) in zip(move["path"], zip(points, points[1:])):
            dr, dc = STEPS[letter]
            assert (b[0] - a[0], b[1] - a[1]) == (dc * PITCH, dr * PITCH)
            at[move["piece"]] = {(r + dr, c + dc) for r, c in at[move["piece"]]}


def test_the_sheet_draws_walls_and_a_shaped_target_cell_by_cell():
    found, solution = agatka()
    board = found.board
    picture = sheet(np.zeros((200, 200, 3), np.uint8), found, solution)
    ph = board.rows * CELL + 34       # one panel's height: the sheet's panels sit eight to a row
    top = picture.shape[0] - -(-len(solution) // 8) * ph
    panel = picture[top + 4:top + 4 + board.rows * CELL, 6:6 + board.cols * CELL].astype(int)

    def colour(r: int, c: int) -> np.ndarray:
        return panel[r * CELL + 4, c * CELL + 4]

    target = colour(3, 1)           # the L: (3, 1), (3, 2), (4, 1); (4, 2) is D's
    assert np.abs(colour(4, 1) - target).max() < 10 and np.abs(colour(3, 2) - target).max() < 10
    assert np.abs(colour(4, 2) - target).max() > 40
    assert np.abs(colour(6, 0) - colour(2, 0)).max() < 10 and np.abs(colour(6, 0) - colour(5, 4)).max() > 20
