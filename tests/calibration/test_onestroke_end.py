"""One-stroke levels that mark the cell where the path must end (``E``): a look with an end
marker is learnt from one screenshot and its board, other levels of it read with their ends,
and the solver's answers end there."""
from __future__ import annotations

from dataclasses import replace
from pathlib import Path

import cv2
import pytest

from calibration.profile import load
from puzzlepilot.games import get
from puzzlepilot.scenes import zoo
from solvers.onestroke import Board, generate, solve, validate
from tests.helpers import run_cli as run

LOOK = zoo.LOOKS["rose-square-colour"]        # the start only a tint; the end a cross


def with_end(board: Board) -> Board:
    """The board with its end marked where one answer of it ends."""
    return replace(board, end=tuple(solve(board).solution[-1]))


@pytest.fixture(scope="module")
def profile(tmp_path_factory: pytest.TempPathFactory, store: Path):
    board = with_end(zoo.CALIBRATION)
    path = tmp_path_factory.mktemp("end") / "level.png"
    cv2.imwrite(str(path), zoo.render(board, LOOK)[0])
    with pytest.MonkeyPatch.context() as env:
        env.setenv("PUZZLEPILOT_PROFILES", str(store))
        status, _, err = run(["calibrate", "onestroke", str(path), "--name", "ended",
                              "--board", board.to_text().replace("\n", "/")])
        assert status == 0, err
        return load("ended")


@pytest.mark.parametrize("seed, width", [(0, 720), (1, 600), (2, 900)])
def test_other_levels_read_with_their_marked_end_and_are_solved_to_it(profile, seed: int, width: int) -> None:
    level = with_end(generate(5, 6, seed))
    image, _ = zoo.render(level, LOOK, width=width, seed=seed)
    read = get("onestroke").parse(image, profile=profile).board
    assert read == level
    answer = solve(read)
    assert answer.solved and validate(read, answer.solution) == [] and tuple(answer.solution[-1]) == level.end
