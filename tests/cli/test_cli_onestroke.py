"""The command line on one-stroke screenshots: parse --json, solve, --annotate."""
from __future__ import annotations

import json

import cv2
import numpy as np

from puzzlepilot.scenes.onestroke import render_phone

from puzzlepilot.scenes.paint import render_desktop
from solvers.onestroke import Board, validate
from tests.helpers import run_cli as run

BOARD = "S###./##.##/#####/.####"


def screenshot(tmp_path):
    image, truth = render_phone(Board.from_text(BOARD), width=720, height=1280, cat="pink")
    path = tmp_path / "level.png"
    cv2.imwrite(str(path), image)
    return path, image, truth


def test_parse_json_gives_board_confidence_and_every_cell_centre(tmp_path):
    path, _, truth = screenshot(tmp_path)
    status, out, err = run(["parse", str(path), "--game", "onestroke", "--json"])
    assert status == 0 and err == ""
    obj = json.loads(out)
    assert set(obj) == {"game", "board", "confidence", "cells"}
    assert obj["game"] == "onestroke" and obj["board"] == BOARD
    assert 0.9 <= obj["confidence"] <= 1
    assert len(obj["cells"]) == 4 * 5
    assert np.abs(np.array(obj["cells"]) - np.array(truth.cells)).max() < 2


def test_parse_without_game_finds_onestroke(tmp_path):
    path, _, _ = screenshot(tmp_path)
    status, out, _ = run(["parse", str(path), "--json"])
    assert status == 0 and json.loads(out)["game"] == "onestroke"


def test_solve_image_json_answer_obeys_the_rules(tmp_path):
    path, _, _ = screenshot(tmp_path)
    status, out, _ = run(["solve", str(path), "--game", "onestroke", "--json"])
    obj = json.loads(out)
    assert status == 0 and obj["solved"] is True and obj["board"] == BOARD
    assert validate(Board.from_text(BOARD), obj["solution"]) == []


def test_annotate_writes_a_png_that_differs_along_the_path(tmp_path):
    path, image, truth = screenshot(tmp_path)
    out_png = tmp_path / "hint.png"
    status, out, _ = run(["solve", str(path), "--game", "onestroke", "--json", "--annotate", str(out_png)])
    assert status == 0
    drawn = cv2.imread(str(out_png))
    assert drawn.shape == image.shape
    solution = json.loads(out)["solution"]
    cols = 5
    for (r0, c0), (r1, c1) in zip(solution, solution[1:]):
        # The midpoint between two consecutive cells lies in a gap: only the hint colours it.
        x = round((truth.cells[r0 * cols + c0][0] + truth.cells[r1 * cols + c1][0]) / 2)
        y = round((truth.cells[r0 * cols + c0][1] + truth.cells[r1 * cols + c1][1]) / 2)
        assert np.abs(drawn[y, x].astype(int) - image[y, x]).max() > 60, (r0, c0, r1, c1)
    far = drawn[:60, :].astype(int) - image[:60, :]
    assert np.abs(far).max() == 0          # nothing drawn far from the board


def test_an_image_with_no_board_exits_2_with_one_line(tmp_path):
    path = tmp_path / "desktop.png"
    cv2.imwrite(str(path), render_desktop(1280, 720, seed=4))
    status, out, err = run(["parse", str(path), "--game", "onestroke"])
    assert status == 2 and out == ""
    assert err.count("\n") == 1 and "no board found" in err.lower() or "no grid" in err


def test_node_cap_gives_up_with_exit_1_and_bad_caps_exit_2():
    status, out, _ = run(["solve", "--game", "onestroke", "--board", "-", "--json", "--max-nodes", "1"], BOARD)
    obj = json.loads(out)
    assert status == 1 and not obj["solved"] and obj["reason"].startswith("gave up after 1 nodes")
    status, out, err = run(["solve", "--game", "onestroke", "--board", "-", "--max-nodes", "0"], BOARD)
    assert status == 2 and out == "" and len(err.strip().splitlines()) == 1 and "--max-nodes" in err
