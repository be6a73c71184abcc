"""The live loop playing Klotski, a game whose board shows the moves made (fake screen, no
display): one move at a time, each checked on the settled board before the next; a move
that did not land stops it, saying which; a board the vision refuses is let through; a
window animating around a settled board is played all the same; and step hints follow the
board move by move."""
from __future__ import annotations

import time
from dataclasses import replace

import numpy as np
import pytest

import puzzlepilot.live as live
from puzzlepilot.games import get
from puzzlepilot.live import Advance, LiveError, LiveLoop, New, Unsettled, Watcher
from puzzlepilot.scenes.klotski import render, scrambled
from solvers.klotski import STEPS, Board, layout, solve, validate
from tests.live.fakes import VIEW, FakeHints, FakeSource

GAME = get("klotski")
START = scrambled(layout("横刀立马"), 77, 0)   # a few moves from the end


def positions(board: Board) -> list[Board]:
    """The board, then the position after each move of its answer."""
    answer = solve(board).solution
    assert answer and not validate(board, answer)
    return positions_along(board, answer)


def positions_along(board: Board, answer: list) -> list[Board]:
    out, at = [board], {p.name: p for p in board.pieces}
    for move in answer:
        p = at[move["piece"]]
        for letter in move["path"]:
            p = replace(p, row=p.row + STEPS[letter][0], col=p.col + STEPS[letter][1])
        at[p.name] = p
        out.append(replace(board, pieces=tuple(at.values())))
    return out


def frame(board: Board | None) -> np.ndarray:
    if board is None:
        return np.full((VIEW[1], VIEW[0], 3), 240, np.uint8)
    return render(board, cell=60, size=VIEW)[0]


class MovingDriver:
    """Plays by showing the next frame after each call (a move landed, or what ``frames``
    says the game showed instead)."""

    def __init__(self, source: FakeSource) -> None:
        self.source = source
        self.performed: list[list] = []

    def perform(self, actions: list) -> None:
        self.performed.append(actions)
        if len(self.source.frames) > 1:
            self.source.frames.pop(0)


@pytest.fixture(autouse=True)
def fast(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(live, "CONFIRM_SECONDS", 0.3)


def play(frames: list[np.ndarray], source: FakeSource | None = None) -> tuple[MovingDriver, list[str]]:
    source = source or FakeSource(frames)
    driver, lines = MovingDriver(source), []
    LiveLoop(source, Watcher([GAME]), lines.append, driver=driver, fps=100, levels=1).run(time.monotonic() + 20)
    return driver, lines


def test_each_move_is_played_alone_and_the_level_counts_once_it_is_solved() -> None:
    way = positions(START)
    driver, lines = play([frame(b) for b in way])
    assert [len(actions) for actions in driver.performed] == [1] * (len(way) - 1)
    assert lines == [f"level 1: klotski 5x4, solve {lines[0].split('solve ')[1].split(' ms')[0]} ms, "
                     f"{len(way) - 1} moves, played"]


def test_an_answer_not_proved_minimal_is_played_and_the_player_told_so(monkeypatch: pytest.MonkeyPatch) -> None:
    """The solver's note on its answer (a beam search's, when the search for the fewest
    moves gave up) is logged before the level is played."""
    import solvers.klotski as klotski

    exact = klotski.solve
    monkeypatch.setattr(klotski, "solve", lambda board: replace(exact(board), note="not proved minimal: (a note)"))
    way = positions(START)
    driver, lines = play([frame(b) for b in way])
    assert lines[0] == "klotski: not proved minimal: (a note)" and lines[1].endswith(f"{len(way) - 1} moves, played")


def test_a_move_that_did_not_land_stops_the_loop_saying_which() -> None:
    way = positions(START)
    assert len(way) > 3
    with pytest.raises(LiveError, match=f"move 2 of {len(way) - 1} did not land as planned"):
        play([frame(way[0]), frame(way[1]), frame(way[1]), frame(way[3])])


def test_a_board_the_vision_refuses_after_a_move_is_let_through_and_the_next_one_checked() -> None:
    way = positions(START)
    driver, lines = play([frame(way[0]), frame(None), *(frame(b) for b in way[2:])])
    assert len(driver.performed) == len(way) - 1 and lines[-1].endswith("played")


class AnimatedSource(FakeSource):
    """The game with a corner of its window, away from the board, changing every frame."""

    def __init__(self, frames: list[np.ndarray]) -> None:
        super().__init__(frames)
        self.ticks = 0

    def grab(self) -> np.ndarray:
        image = super().grab()
        self.ticks += 1
        image[:24, :24] = (self.ticks * 37) % 256
        return image


def test_a_level_is_played_once_its_board_settles_though_the_window_around_it_never_does() -> None:
    way = positions(START)
    frames = [frame(b) for b in way]
    driver, lines = play(frames, AnimatedSource(frames))
    assert len(driver.performed) == len(way) - 1 and lines[-1].endswith("played")


def test_step_hints_show_each_move_in_turn_as_the_board_reaches_it() -> None:
    """``--hints step``: the arrow of move k+1 once the board shows k moves made; none when
    all are made."""
    way = positions(START)
    source, hints, lines = FakeSource([frame(way[0])]), FakeHints(), []
    loop = LiveLoop(source, Watcher([GAME], stepping=True), lines.append, hints=hints, fps=100)
    assert isinstance(loop.tick(), Unsettled) and isinstance(loop.tick(), New)
    start, solution = loop.watcher.current.parse, loop.watcher.current.result.solution
    assert len(solution) == len(way) - 1 >= 2
    assert hints.calls[-1][1] == GAME.hints(start.shifted(100, 50), solution, step=0)
    for done in range(1, len(solution)):
        source.frames = [frame(way[done])]
        step = loop.tick()
        assert isinstance(step, Advance) and step.done == done
        # drawn from the level's start, where the latest reading puts the board
        at = replace(step.parse, board=start.board).shifted(100, 50)
        assert hints.calls[-1][1] == GAME.hints(at, solution, step=done)
    source.frames = [frame(way[-1])]
    assert isinstance(loop.tick(), Advance) and hints.calls[-1] == ("clear",)
    assert lines[-1] == f"all {len(solution)} steps made"


def cells_of(board: Board) -> list[Board]:
    """The board, then the position after each cell of its answer's moves (a game that moves
    a piece one cell per drag shows these)."""
    return positions_along(board, GAME.one_cell(solve(board).solution))


def test_a_game_that_moves_one_cell_per_drag_is_learnt_and_played_cell_by_cell() -> None:
    answer = solve(START).solution
    assert any(len(move["path"]) > 1 for move in answer)
    way = cells_of(START)
    source = FakeSource([frame(b) for b in way])
    driver, lines = MovingDriver(source), []
    LiveLoop(source, Watcher([GAME]), lines.append, driver=driver, fps=100, levels=1).run(time.monotonic() + 30)
    first = next(i for i, move in enumerate(answer) if len(move["path"]) > 1)
    assert lines[0] == (f"move {first + 1} moved its piece only part of the way: the game takes one cell per drag; "
                        "playing one cell per drag from here on")
    assert lines[-1].endswith("played")
    drags = [actions[0] for actions in driver.performed]
    assert all(len(d.points) == 2 for d in drags[first + 1:])     # one cell each from there on
    assert len(drags) == first + 1 + len(way) - 1 - len(GAME.one_cell(answer[:first])) - 1


def test_a_last_move_that_did_not_land_stops_the_loop() -> None:
    way = positions(START)
    with pytest.raises(LiveError, match=f"move {len(way) - 1} of {len(way) - 1} did not land as planned"):
        play([frame(b) for b in way[:-1]] + [frame(way[-2])])


def test_a_drag_the_game_missed_is_played_again() -> None:
    way = positions(START)
    driver, lines = play([frame(way[0]), frame(way[1]), frame(way[1]), *(frame(b) for b in way[2:])])
    assert lines[0] == "move 2 did not move its piece (the game missed the drag): playing on from it"
    assert lines[-1].endswith("played") and len(driver.performed) == len(way)
    assert driver.performed[1] == driver.performed[2]


def test_another_puzzle_on_show_mid_play_is_read_afresh_and_played_not_the_old_plan() -> None:
    """The player picks another puzzle while a level is played: the board after a move is
    no position of the level's puzzle (other pieces), so its plan stops there and the board
    on show is solved and played from its own reading."""
    way = positions(START)
    other = positions(scrambled(Board.from_text("ACCB/ACCB/DEEF/GHIJ/K..L"), 36, 0))   # other pieces, near its end
    assert not GAME.same_puzzle(START, other[0]) and GAME.same_puzzle(START, way[-1])
    driver, lines = play([frame(way[0]), frame(way[1]), *(frame(b) for b in other)])
    assert lines[0] == (f"level 1: another puzzle came on show after move 2 of {len(way) - 1}; "
                        "playing the one on show instead")
    assert len(lines) == 2 and lines[1].endswith(f", {len(other) - 1} moves, played")
    drags = [actions[0] for actions in driver.performed]
    # after the two of the first plan, the drags of the new puzzle's own answer, from its reading
    read = GAME.parse(frame(other[0]))
    assert drags[2:] == GAME.plan(read.shifted(100, 50), solve(read.board).solution)
