"""The klotski practice board's rules (no display needed): pieces follow the pointer
through free cells only, a press-drag-release is one move, playing the plan read from
the picture solves the level in the minimum, and levels cover layouts, sizes and texts;
boards with walls, gates and goal cells are drawn in GNOME Klotski's way and played by
their rules (the last test: ``live --play`` plays one to its solved state on a display)."""
from __future__ import annotations

import pytest

from overlay.klotski import plan
from puzzlepilot.practice import boards
from puzzlepilot.practice.klotski import PLAYABLE, VIEW, level_from_text, new_level
from solvers.klotski import GNOME_PUZZLES, solve
from tests.display import PRACTICE_TITLE, practice_board, run_puzzlepilot
from vision.klotski import parse

# Our own small board in GNOME Klotski's manner: a frame of walls, a gate under the target's
# way out, goal cells beyond it; D left, E right, then C down through the gate.
GATED = "######\n#ACCB#\n#ACCB#\n#.DE.#\n##==##\n..++..\n..++..\n"


def centre(level, name: str) -> tuple[float, float]:
    p = level.pieces[name]
    x0, y0 = level.origin
    return (x0 + (p.col + p.width / 2) * level.cell, y0 + (p.row + p.height / 2) * level.cell)


def test_klotski_has_a_practice_board():
    assert "klotski" in boards()


def test_first_level_is_the_classic_layout_and_levels_cycle_through_the_bundled_ones():
    assert new_level(1, None, VIEW).name == "横刀立马"
    assert {new_level(s, None, VIEW).name for s in range(1, len(PLAYABLE) + 1)} == set(PLAYABLE)


def test_a_piece_follows_the_pointer_into_free_cells_and_stops_at_others():
    lv = new_level(1, None, VIEW)          # ACCB/ACCB/DEEF/DGHF/I..J
    x, y = centre(lv, "I")
    lv.press(x, y)
    assert lv.drag(x + 3 * lv.cell, y)     # two free cells to the right, then J
    assert (lv.pieces["I"].row, lv.pieces["I"].col) == (4, 2)
    lv.release(x + 3 * lv.cell, y)
    assert lv.moves == 1
    x, y = centre(lv, "C")
    lv.press(x, y)
    assert not lv.drag(x, y + 2 * lv.cell) and not lv.release(x, y + 2 * lv.cell) and lv.moves == 1


def test_a_corner_is_turned_in_one_move():
    lv = level_from_text("ACCB/ACCB/DEEF/DGHF/I..J", VIEW)
    x, y = centre(lv, "H")                 # H at (3,2): down, then left
    lv.press(x, y)
    lv.drag(x, y + lv.cell)
    lv.drag(x - lv.cell, y + lv.cell)
    lv.release(x - lv.cell, y + lv.cell)
    assert (lv.pieces["H"].row, lv.pieces["H"].col) == (4, 1) and lv.moves == 1


@pytest.mark.parametrize("seed", [1, 6, 10])
def test_playing_the_plan_read_from_the_picture_solves_the_level_in_the_minimum(seed):
    lv = new_level(seed, None, VIEW)
    found = parse(lv.picture())
    assert found.board.to_text() == lv.board.relabelled().to_text()
    result = solve(found.board)
    for drag in plan(found, result.solution):
        lv.press(*drag.points[0])
        for point in drag.points[1:]:
            lv.drag(*point)
        lv.release(*drag.points[-1])
    assert lv.solved() and lv.moves == result.moves == lv.best


def test_sized_levels_are_random_boards_with_an_answer():
    lv = new_level(3, (4, 5), (600, 480))
    assert (lv.start.rows, lv.start.cols) == (4, 5) and lv.best > 0
    assert lv.picture().shape == (480, 600, 3)


def test_board_option_is_checked_before_any_window_opens():
    import io

    from puzzlepilot.cli import main

    def run(argv: list[str], stdin: str = "") -> tuple[int, str]:
        err = io.StringIO()
        return main(argv, stdin=io.StringIO(stdin), stdout=io.StringIO(), stderr=err), err.getvalue()

    status, err = run(["practice", "klotski", "--board", "-"], "ACCB\nACXB\n")
    assert status == 2 and "rectangle" in err and len(err.strip().splitlines()) == 1
    status, err = run(["practice", "onestroke", "--board", "-"], "S#\n")
    assert status == 2 and "--board" in err
    # shaped pieces are drawn only on a board with walls; a board that would read as another
    # in the walled look is refused, saying why (not played wrong)
    for text, why in (("shapes: any\nAAB.\nA.B.\nCC..\n....\n", "shaped pieces only on boards with walls"),
                      ("ACCB\nACCB\n.D..\n.++.\n", "never reach the board's edge"),
                      ("######\n#ACCB#\n#ACCB#\n#.#..#\n##==##\n..++..\n..++..\n", "would read as another")):
        status, err = run(["practice", "klotski", "--board", "-"], text)
        assert status == 2 and why in err and len(err.strip().splitlines()) == 1, err


def test_board_text_level_starts_from_that_board():
    lv = level_from_text("ACCB/ACCD/EFFG/EHIG/.JI.", VIEW)
    assert lv.board.to_text() == "ACCB\nACCD\nEFFG\nEHIG\n.JI." and lv.best == 39


def test_with_one_cell_a_long_drag_moves_its_piece_one_cell_and_counts_one_move():
    """Issue 28 §5: a web Klotski moves a piece one cell per drag; the board can too."""
    lv = new_level(1, None, VIEW, one_cell=True)     # ACCB/ACCB/DEEF/DGHF/I..J
    x, y = centre(lv, "I")
    lv.press(x, y)
    assert lv.drag(x + 3 * lv.cell, y)
    assert not lv.drag(x + 2 * lv.cell, y)
    lv.release(x + 3 * lv.cell, y)
    assert (lv.pieces["I"].row, lv.pieces["I"].col) == (4, 1) and lv.moves == 1
    lv.press(*centre(lv, "I"))
    lv.release(centre(lv, "I")[0] + 2 * lv.cell, centre(lv, "I")[1])
    assert (lv.pieces["I"].row, lv.pieces["I"].col) == (4, 2) and lv.moves == 2
    assert level_from_text("ACCB/ACCB/DEEF/DGHF/I..J", VIEW, one_cell=True).one_cell


def test_walls_never_move_and_gates_let_only_the_target_through():
    lv = level_from_text(GATED, VIEW)
    assert lv.board.to_text() == GATED.strip() and lv.best == 3 and not lv.solved()
    x0, y0 = lv.origin
    wall = (x0 + 0.5 * lv.cell, y0 + 3.5 * lv.cell)         # (3, 0): a wall is no piece to hold
    lv.press(*wall)
    assert not lv.release(wall[0] + lv.cell, wall[1]) and lv.board.to_text() == GATED.strip()
    x, y = centre(lv, "D")                                  # D: the gate below it stops it
    lv.press(x, y)
    assert not lv.release(x, y + 2 * lv.cell)
    x, y = centre(lv, "A")                                  # A: the wall above it stops it
    lv.press(x, y)
    assert not lv.release(x, y - lv.cell) and lv.moves == 0
    for name, dx in (("D", -1), ("E", 1)):
        x, y = centre(lv, name)
        lv.press(x, y)
        assert lv.release(x + dx * lv.cell, y)
    x, y = centre(lv, "C")                                  # the target: through the gate onto the goal cells
    lv.press(x, y)
    assert lv.release(x, y + 4 * lv.cell)
    assert (lv.pieces["C"].row, lv.pieces["C"].col) == (5, 2) and lv.solved() and lv.moves == 3


@pytest.mark.parametrize("name", ["gated", "Only 18 Steps", "Agatka"])
def test_a_walled_board_reads_as_itself_and_its_plan_solves_it_in_the_minimum(name):
    """Our board and two of GNOME Klotski's puzzles as written from its screens (an L-shaped
    target in Agatka; Red Donkey is Only 18 Steps' frame, 81 moves long): the picture reads
    as the board, every picture while the plan is played reads as the board on show or is
    refused (never another), and the plan solves it."""
    lv = level_from_text(GATED if name == "gated" else GNOME_PUZZLES[name][0].replace("/", "\n"), VIEW)
    found = parse(lv.picture())
    assert found.board.to_text() == lv.board.relabelled().to_text()
    result = solve(found.board)
    readings = []

    def look() -> None:
        got = lv.reading()
        readings.append("right" if got == lv.board.relabelled().to_text() else
                        "refused" if got.startswith("none: ") else got)

    for drag in plan(found, result.solution):
        lv.press(*drag.points[0])
        for point in drag.points[1:]:
            if lv.drag(*point):
                look()
        lv.release(*drag.points[-1])
        look()
    assert set(readings) <= {"right", "refused"} and "right" in readings
    assert lv.solved() and lv.moves == result.moves == lv.best


def test_an_exit_on_a_walled_board_is_shown_as_the_goal_cells_there():
    lv = level_from_text(GATED.replace("+", "."), VIEW)      # the default exit: the bottom row band, centred
    assert lv.board.marks == {(5, 2), (5, 3), (6, 2), (6, 3)} and lv.board.goal is None and lv.best == 3


@pytest.mark.display
def test_live_play_plays_a_board_with_walls_and_a_gate_to_its_solved_state(display, tmp_path):
    board = tmp_path / "gated.txt"
    board.write_text(GATED)
    with practice_board("klotski", "--board", str(board), "--levels", "1") as log:
        status, out, err = run_puzzlepilot("live", "--game", "klotski", "--window", PRACTICE_TITLE, "--play",
                                           "--hints", "none", "--levels", "1", timeout=90)
    assert status == 0, err + out
    last = out.splitlines()[-1]
    assert last.startswith("level 1: klotski 7x6, solve ") and last.endswith(", 3 moves, played"), out
    assert "solved level 1" in log, log
