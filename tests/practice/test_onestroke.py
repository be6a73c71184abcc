"""The practice board's rules (no display needed) and its command's refusals."""
from __future__ import annotations

import io

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from calibration import onestroke as calibration
from calibration.profile import save
from puzzlepilot.cli import main
from puzzlepilot.games import get
from puzzlepilot.practice import boards
from puzzlepilot.practice.onestroke import LOOKS, OneStrokeLevel, new_level
from puzzlepilot.scenes.onestroke import tight
from solvers.onestroke import Board, solve, validate
from vision.common import NoBoardFound
from vision.onestroke import parse

VIEW = (540, 960)
BOARD = Board.from_text("S##\n#.#\n###")


def level(board: Board = BOARD) -> OneStrokeLevel:
    return OneStrokeLevel(board, seed=1, view=VIEW)


def at(lv: OneStrokeLevel, cell: tuple[int, int], dx: float = 0.0) -> tuple[float, float]:
    x, y = lv.centres[cell]
    return x + dx, y


def test_dragging_from_the_cat_through_neighbours_draws_the_path() -> None:
    lv = level()
    assert lv.press(*at(lv, (0, 0))) is False
    assert lv.drag(*at(lv, (0, 1))) and lv.drag(*at(lv, (0, 2)))
    assert lv.path == [(0, 0), (0, 1), (0, 2)]


def test_a_press_off_the_path_does_not_start_a_drag() -> None:
    lv = level()
    lv.press(*at(lv, (2, 2)))
    assert not lv.drag(*at(lv, (1, 2)))
    assert lv.path == [(0, 0)]


def test_holes_visited_cells_and_diagonal_steps_are_refused() -> None:
    lv = level()
    lv.press(*at(lv, (0, 0)))
    lv.drag(*at(lv, (1, 0)))
    (x0, y), (x1, _) = at(lv, (1, 0)), at(lv, (1, 2))
    assert not lv.drag((x0 + x1) / 2, y)          # the hole between them
    full = level(Board.from_text("S##\n###\n###"))
    full.press(*at(full, (0, 0)))
    for cell in ((0, 1), (1, 1), (1, 0)):
        full.drag(*at(full, cell))
    assert not full.drag(*at(full, (0, 0)))       # visited, and not the previous cell
    assert full.path == [(0, 0), (0, 1), (1, 1), (1, 0)]
    assert lv.path == [(0, 0), (1, 0)]


def test_a_diagonal_step_goes_through_the_one_free_cell_between_or_not_at_all() -> None:
    full = level(Board.from_text("S##\n###\n###"))
    full.press(*at(full, (0, 0)))
    assert not full.drag(*at(full, (1, 1)))       # (0, 1) and (1, 0) are both free: no guess
    full.release(*at(full, (0, 0)))
    full.press(*at(full, (0, 0)))
    for cell in ((0, 1), (1, 1), (1, 0)):
        full.drag(*at(full, cell))
    assert full.drag(*at(full, (2, 1)))           # (1, 1) is taken, so through (2, 0)
    assert full.path == [(0, 0), (0, 1), (1, 1), (1, 0), (2, 0), (2, 1)]


def test_dragging_back_onto_the_previous_cell_undoes_one_step() -> None:
    lv = level()
    lv.press(*at(lv, (0, 0)))
    for cell in ((0, 1), (0, 2), (1, 2)):
        lv.drag(*at(lv, cell))
    assert lv.drag(*at(lv, (0, 2)))
    assert lv.path == [(0, 0), (0, 1), (0, 2)]


def test_release_keeps_progress_and_the_path_continues_from_its_end() -> None:
    lv = level()
    lv.press(*at(lv, (0, 0)))
    lv.drag(*at(lv, (0, 1)))
    lv.release(*at(lv, (0, 1)))
    assert lv.path == [(0, 0), (0, 1)]
    assert not lv.drag(*at(lv, (0, 2)))  # not pressed: nothing happens
    lv.press(*at(lv, (0, 1)))
    assert lv.drag(*at(lv, (0, 2)))
    assert lv.path == [(0, 0), (0, 1), (0, 2)]


def test_pressing_an_earlier_cell_cuts_the_path_back_to_it() -> None:
    lv = level()
    lv.press(*at(lv, (0, 0)))
    for cell in ((0, 1), (0, 2), (1, 2)):
        lv.drag(*at(lv, cell))
    lv.release(*at(lv, (1, 2)))
    assert lv.press(*at(lv, (0, 0)))
    assert lv.path == [(0, 0)]


def test_a_fast_drag_visits_every_cell_it_crosses() -> None:
    lv = level()
    lv.press(*at(lv, (0, 0)))
    assert lv.drag(*at(lv, (0, 2)))      # one motion event over two cells
    assert lv.path == [(0, 0), (0, 1), (0, 2)]


def test_pointer_in_the_gap_between_cells_changes_nothing() -> None:
    lv = level()
    assert lv.cell_at(*at(lv, (0, 0), dx=lv.pitch / 2)) is None


def test_drawing_the_solvers_path_solves_a_generated_level() -> None:
    lv = new_level(3, (5, 6), VIEW)
    path = solve(lv.board).solution
    lv.press(*lv.centres[tuple(path[0])])
    for cell in path[1:]:
        lv.drag(*lv.centres[tuple(cell)])
    lv.release(*lv.centres[tuple(path[-1])])
    assert lv.solved()
    assert validate(lv.board, [list(c) for c in lv.path]) == []


def test_the_picture_shows_the_view_size_and_changes_as_the_path_grows() -> None:
    lv = level()
    before = lv.picture()
    lv.press(*at(lv, (0, 0)))
    lv.drag(*at(lv, (0, 1)))
    after = lv.picture()
    assert before.shape == after.shape == (VIEW[1], VIEW[0], 3)
    assert (before != after).any()


@settings(max_examples=40, deadline=None)
@given(st.lists(st.tuples(st.floats(0, VIEW[0] - 1), st.floats(0, VIEW[1] - 1), st.sampled_from("pdr")),
                max_size=30))
def test_any_mouse_gestures_leave_a_path_that_follows_the_rules(events) -> None:
    lv = level()
    for x, y, kind in events:
        {"p": lv.press, "d": lv.drag, "r": lv.release}[kind](x, y)
        path = lv.path
        assert path[0] == BOARD.start
        assert len(set(path)) == len(path) and set(path) <= BOARD.cells
        assert all(abs(a[0] - b[0]) + abs(a[1] - b[1]) == 1 for a, b in zip(path, path[1:]))


def run_cli(*argv: str) -> tuple[int, str]:
    err = io.StringIO()
    code = main(list(argv), stdout=io.StringIO(), stderr=err)
    return code, err.getvalue()


def test_a_level_in_a_look_never_met_is_learnt_from_its_first_picture_and_read_as_it_is_played(tmp_path) -> None:
    """Issue 25: an app drawn in a look the default vision refuses (a ruled grid with no
    gaps, a dot on the start); a profile learnt from the first level's picture and its
    board reads another level at every step of its solution, visited cells as holes and
    the path's head as the start."""
    look = LOOKS["slate-ruled-dot"]
    first = new_level(40, None, VIEW, look=look)
    with pytest.raises(NoBoardFound):
        parse(first.picture())
    data, templates = calibration.learn(first.picture(), board=first.board)
    profile = save({**data, "game": "onestroke", "name": "t"}, templates, tmp_path / "t")
    lv = new_level(41, None, VIEW, look=look)
    path = [tuple(cell) for cell in solve(lv.board).solution]
    lv.press(*lv.centres[path[0]])
    for step, cell in enumerate(path[:-1]):
        left = tight(Board(lv.board.rows, lv.board.cols, lv.board.cells.difference(path[:step]), cell))
        assert get("onestroke").parse(lv.picture(), profile=profile).board == left, step    # a screen shows only cells
        lv.drag(*lv.centres[path[step + 1]])
    assert lv.solved()


def test_onestroke_has_a_practice_board() -> None:
    assert "onestroke" in boards()


def test_unknown_game_size_or_levels_is_one_line_and_status_2() -> None:
    for argv in (["practice", "chess"], ["practice", "onestroke", "--size", "6"],
                 ["practice", "onestroke", "--levels", "0"], ["practice", "onestroke", "--size", "1x6"],
                 ["practice", "onestroke", "--size", "6x40"], ["practice", "onestroke", "--view", "50x50"],
                 ["practice", "onestroke", "--look", "no such look"], ["practice", "lyne", "--look", "paper-dot-ring"]):
        code, err = run_cli(*argv)
        assert code == 2 and err.count("\n") == 1 and "Traceback" not in err


class Clock:
    """time.monotonic for the board, moved on by hand."""

    def __init__(self) -> None:
        self.now = 100.0

    def __call__(self) -> float:
        return self.now


def test_with_a_dwell_only_cells_rested_on_join_the_path(monkeypatch) -> None:
    """Issue 28 §5: a game that takes a cell only once the finger rests on it; a glide
    through the cells draws nothing, a rest on each draws them one by one."""
    import puzzlepilot.practice.onestroke as board

    clock = Clock()
    monkeypatch.setattr(board.time, "monotonic", clock)
    lv = OneStrokeLevel(BOARD, seed=1, view=VIEW, dwell=0.2)
    lv.press(*at(lv, (0, 0)))
    assert not lv.drag(*at(lv, (0, 1))) and not lv.drag(*at(lv, (0, 2)))      # glided through
    assert lv.path == [(0, 0)] and lv.wake_in() == pytest.approx(0.2)
    clock.now += 0.1
    assert not lv.wake() and lv.wake_in() == pytest.approx(0.1)
    clock.now += 0.1
    assert not lv.wake() and lv.path == [(0, 0)]       # (0, 2) is not next to the path's end
    lv.drag(*at(lv, (0, 1)))
    clock.now += 0.25
    assert lv.wake() and lv.path == [(0, 0), (0, 1)] and lv.wake_in() is None
    lv.drag(*at(lv, (0, 2)))
    clock.now += 0.3
    assert lv.release(*at(lv, (0, 2))) and lv.path == [(0, 0), (0, 1), (0, 2)]
    assert lv.wake_in() is None                        # released: nothing waits


def test_behaviour_options_a_board_lacks_or_out_of_range_are_one_line_and_status_2() -> None:
    for argv in (["practice", "onestroke", "--one-cell"], ["practice", "klotski", "--dwell", "200"],
                 ["practice", "onestroke", "--dwell", "0"], ["practice", "onestroke", "--dwell", "9000"]):
        code, err = run_cli(*argv)
        assert code == 2 and err.count("\n") == 1 and "--" in err, (argv, err)
