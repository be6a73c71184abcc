"""Calibrating one-stroke from a box and three clicks, as JSON (``calibrate onestroke SHOT
--picks FILE``), on style-zoo looks no colour of which makes a grid of cells: the board is
found from the clicks and learnt as ``--board`` learns it (issue 25 §4)."""
from __future__ import annotations

import json
from pathlib import Path

import cv2
import pytest

from calibration import profile as profiles
from puzzlepilot.games import get
from puzzlepilot.scenes import zoo
from puzzlepilot.scenes.onestroke import Truth
from solvers.onestroke import Board
from tests.helpers import run_cli as run

SHOT_BOARD = zoo.CALIBRATION.to_text().replace("\n", "/")
NO_HOLES = Board.from_text("###S\n####\n####")


def picks(truth: Truth, board: Board, margin: float = 0.75) -> dict[str, list[int]]:
    """A box ``margin`` pitches round the board and a click on the middle of a cell, a hole
    (none when the board has none) and the start, from where the zoo drew them."""
    xs, ys = [x for x, _ in truth.cells], [y for _, y in truth.cells]
    p = truth.pitch
    box = [round(min(xs) - margin * p), round(min(ys) - margin * p),
           round(max(xs) - min(xs) + 2 * margin * p), round(max(ys) - min(ys) + 2 * margin * p)]

    def at(place: tuple[int, int]) -> list[int]:
        x, y = truth.cells[place[0] * board.cols + place[1]]
        return [round(x), round(y)]
    holes = [(r, c) for r in range(board.rows) for c in range(board.cols) if (r, c) not in board.cells]
    return {"box": box, "cell": at(next(p for p in sorted(board.cells) if p != board.start)),
            **({"hole": at(holes[0])} if holes else {}), "start": at(board.start)}


def calibrate(tmp_path: Path, look: zoo.Look, board: Board = zoo.CALIBRATION,
              change=lambda p: None) -> tuple[int, str, str, Path]:
    """``calibrate onestroke`` on the look's picture of ``board`` with the picks file its
    truth gives (``change``d first), into a folder of ``tmp_path``."""
    shot, truth = zoo.render(board, look)
    data = picks(truth, board)
    change(data)
    path, picks_file, dest = tmp_path / "shot.png", tmp_path / "picks.json", tmp_path / "profile"
    cv2.imwrite(str(path), shot)
    picks_file.write_text(json.dumps(data))
    status, out, err = run(["calibrate", "onestroke", path, "--name", look.name, "--picks", picks_file, "--dir", dest])
    return status, out, err, dest


# a star on outlines, a letter on rings: the clicked cell's colour
# made no board (the colour rule the picks were limited to before)
@pytest.mark.parametrize("name", ["paper-outline-star", "sky-ring-letter", "paper-ring-letter"])
def test_picks_calibrate_a_look_the_colour_rule_cannot_and_read_another_board(name: str, tmp_path: Path) -> None:
    look = zoo.LOOKS[name]
    status, out, err, dest = calibrate(tmp_path, look)
    assert (status, err) == (0, ""), err
    assert f"board read: {SHOT_BOARD} " in out
    prof = profiles.load(dest)
    assert prof.get("board", str) == SHOT_BOARD
    _, image, want = zoo.others(look, count=1)[0]
    assert get("onestroke").parse(image, profile=prof).board.to_text().replace("\n", "/") == want


def test_a_board_with_no_hole_needs_no_hole_click(tmp_path: Path) -> None:
    status, out, err, _ = calibrate(tmp_path, zoo.LOOKS["paper-outline-star"], NO_HOLES)
    assert (status, err) == (0, ""), err
    assert f"board read: {NO_HOLES.to_text().replace(chr(10), '/')} " in out


def on_the_ground(data: dict[str, list[int]]) -> None:
    """The cell click moved to the ground inside the box, a third of a pitch off the board."""
    x, y, _, _ = data["box"]
    data["cell"] = [x + 8, y + 8]


@pytest.mark.parametrize("change, words", [
    (lambda p: p.update(start=[p["box"][0] + p["box"][2] + 5, p["start"][1]]), "the start is outside the box"),
    (on_the_ground, "no board"),
    (lambda p: p.update(start=p["cell"]), "look alike"),
    (lambda p: p.pop("hole"), "needs a click on one"),
    (lambda p: p.pop("start"), "missing start"),
    (lambda p: p.update(box=[0, 0, 8, 1280]), "both sides at least 16 px"),
])
def test_a_bad_picks_file_or_clicks_on_nothing_is_one_line(change, words: str, tmp_path: Path) -> None:
    status, out, err, dest = calibrate(tmp_path, zoo.LOOKS["paper-outline-star"], change=change)
    assert (status, out) == (2, "") and err.count("\n") == 1 and words in err, err
    assert not dest.exists()
