"""`puzzlepilot solve --game onestroke --board`: the JSON contract, stdin, exit statuses
and the one-line errors of INTERFACE.md (screenshots: test_cli_onestroke.py)."""
from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest

from solvers.onestroke import Board, validate
from tests.helpers import run_cli as run

REPO = Path(__file__).resolve().parents[2]
EXAMPLE = "######\n#.##.#\n####S#\n#.##.#\n######\n"


@pytest.fixture
def board_file(tmp_path: Path) -> Path:
    path = tmp_path / "level.txt"
    path.write_text(EXAMPLE, encoding="utf-8")
    return path


def assert_one_line_error(status: int, out: str, err: str, *words: str) -> None:
    assert status == 2
    assert out == ""
    assert len(err.strip().splitlines()) == 1, err
    assert "Traceback" not in err
    for word in words:
        assert word in err


def test_solve_json_has_the_contract_fields_and_a_valid_path(board_file: Path) -> None:
    status, out, err = run(["solve", "--game", "onestroke", "--board", str(board_file), "--json"])
    assert status == 0, err
    obj = json.loads(out)
    assert obj["game"] == "onestroke"
    assert obj["board"] == EXAMPLE.strip().replace("\n", "/")
    assert obj["solved"] is True
    assert obj["moves"] == len(obj["solution"]) - 1 == 25
    assert isinstance(obj["elapsed_ms"], float) and obj["elapsed_ms"] >= 0
    assert "reason" not in obj
    assert validate(Board.from_text(obj["board"]), obj["solution"]) == []


def test_board_dash_reads_standard_input() -> None:
    status, out, _ = run(["solve", "--game", "onestroke", "--board", "-", "--json"], stdin=EXAMPLE)
    assert status == 0 and json.loads(out)["solved"] is True


def test_solve_without_json_prints_board_and_visiting_order(board_file: Path) -> None:
    status, out, _ = run(["solve", "--game", "onestroke", "--board", str(board_file)])
    assert status == 0
    assert "25 moves" in out and EXAMPLE.strip() in out


def test_unsolvable_board_exits_1_with_the_reason(tmp_path: Path) -> None:
    path = tmp_path / "odd.txt"
    path.write_text("#S#\n###\n###\n", encoding="utf-8")
    status, out, _ = run(["solve", "--game", "onestroke", "--board", str(path), "--json"])
    obj = json.loads(out)
    assert status == 1
    assert obj["solved"] is False and obj["solution"] is None
    assert obj["reason"].startswith("parity:")


def test_unsolvable_board_without_json_says_why() -> None:
    status, out, _ = run(["solve", "--game", "onestroke", "--board", "-"], stdin="S#.##")
    assert status == 1 and "no solution: the cells are not connected" in out


def test_missing_board_file_is_one_line_error(tmp_path: Path) -> None:
    assert_one_line_error(*run(["solve", "--game", "onestroke", "--board", str(tmp_path / "nope.txt")]),
                          "nope.txt")


def test_a_board_text_given_for_a_file_says_how_to_pass_it() -> None:
    assert_one_line_error(*run(["solve", "--game", "onestroke", "--board", "S#/#."]),
                          "no such board file: S#/#.", "- to read it from standard input")


def test_malformed_board_error_names_the_line() -> None:
    assert_one_line_error(*run(["solve", "--game", "onestroke", "--board", "-"], stdin="S##\n#?#\n"),
                          "line 2", "column 2", "'?'")


def test_unknown_game_is_one_line_error(board_file: Path) -> None:
    assert_one_line_error(*run(["solve", "--game", "onestrok", "--board", str(board_file)]), "unknown game")


def test_unknown_option_is_one_line_error(board_file: Path) -> None:
    assert_one_line_error(*run(["solve", "--game", "onestroke", "--board", str(board_file), "--fast"]), "--fast")


def test_metric_does_not_apply_to_onestroke(board_file: Path) -> None:
    assert_one_line_error(*run(["solve", "--game", "onestroke", "--board", str(board_file), "--metric", "cell"]),
                          "--metric", "onestroke")


def test_neither_image_nor_board_is_one_line_error() -> None:
    assert_one_line_error(*run(["solve", "--game", "onestroke"]), "IMAGE", "--board")


def test_python_dash_m_entry_point_solves(board_file: Path) -> None:
    proc = subprocess.run([sys.executable, "-m", "puzzlepilot", "solve", "--game", "onestroke",
                           "--board", str(board_file), "--json"],
                          cwd=REPO, capture_output=True, text=True, timeout=60)
    assert proc.returncode == 0, proc.stderr
    assert json.loads(proc.stdout)["solved"] is True
