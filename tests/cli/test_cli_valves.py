"""The valves game through the command line: JSON shape, --wrenches and --all, exit statuses."""
from __future__ import annotations

import io
import json

from puzzlepilot.cli import main
from solvers.valves import Board, validate
from tests.solvers.test_valves import GAME


def run(argv: list[str], stdin: str = "") -> tuple[int, str, str]:
    out, err = io.StringIO(), io.StringIO()
    status = main(argv, stdin=io.StringIO(stdin), stdout=out, stderr=err)
    return status, out.getvalue(), err.getvalue()


def test_solve_json_gives_the_games_answer(tmp_path):
    path = tmp_path / "sewer.txt"
    path.write_text(GAME)
    status, out, _ = run(["solve", "--game", "valves", "--board", str(path), "--json"])
    obj = json.loads(out)
    assert status == 0 and obj["game"] == "valves" and obj["solved"]
    assert obj["solution"] == ["A", "B", "H"] and obj["moves"] == 3
    assert obj["board"] == Board.from_text(GAME).to_text().replace("\n", "/")
    assert Board.from_text(obj["board"]) == Board.from_text(GAME)
    assert validate(Board.from_text(GAME), obj["solution"]) == []
    assert isinstance(obj["elapsed_ms"], float) and "solutions" not in obj


def test_all_adds_every_minimum_answer():
    board = "X A/X B/A C/B C/C Y/A D/D Y"
    status, out, _ = run(["solve", "--game", "valves", "--board", "-", "--json", "--all"], board)
    obj = json.loads(out)
    assert status == 0 and obj["solution"] == obj["solutions"][0]
    assert sorted(obj["solutions"]) == [["A", "B"], ["A", "C"], ["C", "D"]]
    assert all(validate(Board.from_text(board), s) == [] for s in obj["solutions"])


def test_wrenches_option_overrides_the_board_and_exits_1_when_short():
    status, out, _ = run(["solve", "--game", "valves", "--board", "-", "--json", "--wrenches", "2"], GAME)
    obj = json.loads(out)
    assert status == 1 and not obj["solved"] and obj["solution"] is None
    assert "at least 3 valves are needed" in obj["reason"]


def test_inlet_piped_to_outlet_exits_1_with_the_reason_for_people():
    status, out, _ = run(["solve", "--game", "valves", "--board", "-"], "X Y\nX A\nA Y")
    assert status == 1 and "no solution: inlet and outlet are joined by a pipe" in out


def test_human_output_names_the_valves():
    status, out, _ = run(["solve", "--game", "valves", "--board", "-"], GAME)
    assert status == 0 and "close 3 valves: A, B, H" in out


def test_malformed_board_exits_2_with_one_line_naming_it():
    status, out, err = run(["solve", "--game", "valves", "--board", "-"], "X A\nA Y\nA ? B\n")
    assert status == 2 and out == ""
    assert len(err.strip().splitlines()) == 1 and "line 3" in err


def test_option_of_another_game_is_refused():
    status, _, err = run(["solve", "--game", "valves", "--board", "-", "--metric", "cell"], GAME)
    assert status == 2 and "--metric" in err
