"""Ring battles through the command line: JSON shape, --rule and --moves, exit statuses."""
from __future__ import annotations

import json
from pathlib import Path

import cv2

from solvers.rings import Board, validate
from tests.helpers import run_cli as run

WORKED = "moves: 1\n..x.........\n..x.........\n..x.........\n...x........\n"
DIAGONAL = "x...........\n.x..........\n..x.........\n...x........\n"
THREE = "x...........\nx...........\n.....x......\n............\n"


def test_solve_json_gives_a_valid_shortest_answer(tmp_path):
    path = tmp_path / "board.txt"
    path.write_text(WORKED)
    status, out, err = run(["solve", "--game", "rings", "--board", str(path), "--json"])
    obj = json.loads(out)
    assert status == 0 and err == ""
    assert obj["game"] == "rings" and obj["solved"] is True and obj["moves"] == 1
    assert obj["board"] == WORKED.strip().replace("\n", "/")
    assert obj["solution"] == [{"op": "rotate", "ring": 3, "steps": -1}]
    assert isinstance(obj["elapsed_ms"], float)


def test_moves_option_overrides_the_budget():
    status, out, _ = run(["solve", "--game", "rings", "--board", "-", "--json", "--moves", "1"], DIAGONAL)
    obj = json.loads(out)
    assert status == 1 and obj["solved"] is False and "within 1 move " in obj["reason"]
    status, out, _ = run(["solve", "--game", "rings", "--board", "-", "--json", "--moves", "3"], DIAGONAL)
    obj = json.loads(out)
    assert status == 0 and validate(Board.from_text(DIAGONAL), obj["solution"], moves=3) == []


def test_rule_option_allows_partly_filled_attacks():
    status, out, _ = run(["solve", "--game", "rings", "--board", "-", "--json"], THREE)
    assert status == 1 and "multiple of 4" in json.loads(out)["reason"]
    status, out, _ = run(["solve", "--game", "rings", "--board", "-", "--json", "--rule", "attacks"], THREE)
    obj = json.loads(out)
    assert status == 0 and validate(Board.from_text(THREE), obj["solution"], rule="attacks") == []


def test_human_output_lists_the_moves():
    status, out, _ = run(["solve", "--game", "rings", "--board", "-"], WORKED)
    assert status == 0 and "1. turn ring 3 (inner) one step anticlockwise" in out.splitlines()


def test_bad_input_is_one_line_on_stderr_and_status_2():
    for argv, stdin in ((["solve", "--game", "rings", "--board", "-"], "..x\n"),
                        (["solve", "--game", "rings", "--board", "-", "--moves", "9"], WORKED),
                        (["solve", "--game", "rings", "--board", "-", "--rule", "loose"], WORKED),
                        (["solve", "--game", "rings", "--board", "-", "--metric", "cell"], WORKED)):
        status, out, err = run([argv, stdin])
        assert status == 2 and out == "" and len(err.strip().splitlines()) == 1, argv


FIXTURES = Path(__file__).resolve().parents[2] / "fixtures" / "rings"


def test_a_screenshot_is_read_solved_and_annotated(tmp_path):
    out_png = tmp_path / "hint.png"
    status, out, err = run(["solve", str(FIXTURES / "earth_960.jpg"), "--game", "rings", "--json",
                            "--annotate", str(out_png)])
    obj = json.loads(out)
    assert status == 0 and err == ""
    board = Board.from_text(obj["board"])
    assert board.budget == 4 and validate(board, obj["solution"]) == []
    picture = cv2.imread(str(out_png))
    original = cv2.imread(str(FIXTURES / "earth_960.jpg"))
    assert picture.shape == original.shape and (picture != original).any()


def test_parse_without_game_picks_the_arena():
    status, out, _ = run(["parse", str(FIXTURES / "water_1280.jpg"), "--json"])
    obj = json.loads(out)
    assert status == 0 and obj["game"] == "rings" and len(obj["cells"]) == 48


def test_an_image_without_an_arena_is_status_2():
    status, out, err = run(["parse", str(FIXTURES / "wheel16.jpg"), "--game", "rings"])
    assert status == 2 and out == "" and "no ring arena" in err and len(err.strip().splitlines()) == 1
