"""The klotski game through the command line: JSON shape, metric option, exit statuses."""
from __future__ import annotations

import json

from solvers.klotski import Board, validate
from tests.helpers import run_cli as run

CLASSIC = "ACCB\nACCB\nDEEF\nDGHF\nI..J\n"


def test_solve_json_gives_a_valid_minimum_answer(tmp_path):
    path = tmp_path / "board.txt"
    path.write_text(CLASSIC)
    status, out, _ = run(["solve", "--game", "klotski", "--board", str(path), "--json"])
    obj = json.loads(out)
    assert status == 0 and obj["solved"] and obj["moves"] == 81 and obj["game"] == "klotski"
    assert obj["board"] == CLASSIC.strip().replace("\n", "/")
    assert validate(Board.from_text(CLASSIC), obj["solution"]) == []
    assert isinstance(obj["elapsed_ms"], float)


def test_metric_option_changes_the_count():
    status, out, _ = run(["solve", "--game", "klotski", "--board", "-", "--json", "--metric", "cell"], CLASSIC)
    obj = json.loads(out)
    assert status == 0 and obj["moves"] == 116
    assert validate(Board.from_text(CLASSIC), obj["solution"], "cell") == []


def test_human_output_lists_the_moves():
    status, out, _ = run(["solve", "--game", "klotski", "--board", "-"], CLASSIC)
    assert status == 0 and "81 moves" in out and "81." in out


def test_unsolvable_board_exits_1_with_the_reason():
    status, out, _ = run(["solve", "--game", "klotski", "--board", "-", "--json"], "ACCB/ACCB/DEFG/DEHG/I..J")
    obj = json.loads(out)
    assert status == 1 and not obj["solved"] and "7,462" in obj["reason"]


def test_malformed_board_exits_2_with_one_line():
    status, out, err = run(["solve", "--game", "klotski", "--board", "-"], "ACCB\nACXB\n")
    assert status == 2 and out == ""
    assert len(err.strip().splitlines()) == 1 and "rectangle" in err


def test_option_of_another_game_is_refused():
    status, _, err = run(["solve", "--game", "klotski", "--board", "-", "--wrenches", "2"], CLASSIC)
    assert status == 2 and "--wrenches" in err


def test_position_cap_gives_up_with_exit_1_and_says_so():
    status, out, _ = run(["solve", "--game", "klotski", "--board", "-", "--json", "--max-positions", "500"], CLASSIC)
    obj = json.loads(out)
    assert status == 1 and not obj["solved"] and obj["reason"].startswith("gave up after 500 positions")


def test_an_answer_not_proved_minimal_exits_0_and_says_so():
    """A board searched by layers (a made-up walled one) whose search gives up at the cap:
    a beam search answers, in JSON with "minimal": false, for people with the note; with
    --exact it gives up as before."""
    walled = "#######/#ACCB.#/#ACCB.#/#DEEF.#/#G..H.#/###==##/...++../...++.."
    status, out, _ = run(["solve", "--game", "klotski", "--board", "-", "--json", "--max-positions", "50"], walled)
    obj = json.loads(out)
    assert status == 0 and obj["solved"] and obj["minimal"] is False
    assert validate(Board.from_text(walled), obj["solution"]) == []
    status, out, _ = run(["solve", "--game", "klotski", "--board", "-", "--max-positions", "50"], walled)
    assert status == 0 and "(not proved minimal: the search for the fewest moves gave up after 50 positions" in out
    status, out, _ = run(["solve", "--game", "klotski", "--board", "-", "--json", "--max-positions", "50", "--exact"],
                         walled)
    obj = json.loads(out)
    assert status == 1 and not obj["solved"] and obj["reason"].startswith("gave up after 50 positions")
    status, out, _ = run(["solve", "--game", "klotski", "--board", "-", "--json"], walled)
    assert status == 0 and json.loads(out)["minimal"] is True and json.loads(out)["moves"] == 6


def test_bad_position_caps_are_refused_in_one_line():
    for value in ("0", "-5", "nan", "inf", "1e9", "2000000000", "x"):
        status, out, err = run(["solve", "--game", "klotski", "--board", "-", "--max-positions", value], CLASSIC)
        assert status == 2 and out == "" and len(err.strip().splitlines()) == 1 and "--max-positions" in err


def test_long_searches_print_progress_on_stderr_only(monkeypatch):
    import solvers.klotski as klotski
    from solvers.common import Progress

    monkeypatch.setattr(klotski, "CHECK_EVERY", 1000)
    monkeypatch.setattr(klotski, "Progress", lambda say: Progress(say, every=0.0))
    status, out, err = run(["solve", "--game", "klotski", "--board", "-", "--json"], CLASSIC)
    assert status == 0 and json.loads(out)["moves"] == 81
    lines = err.strip().splitlines()
    assert lines and all(line.startswith("puzzlepilot: klotski: ") and "positions searched" in line for line in lines)
