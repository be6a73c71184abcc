import json
from pathlib import Path

from solvers.lyne import Board, validate
from tests.helpers import run_cli as run


def test_solve_json_gives_paths_that_obey_the_rules(tmp_path):
    board_file = tmp_path / "b25.txt"
    board_file.write_text("TSD\n2S2\ntsd\nD2T\n")
    status, out, err = run(["solve", "--game", "lyne", "--board", str(board_file), "--json"])
    assert status == 0 and err == ""
    obj = json.loads(out)
    assert obj["game"] == "lyne" and obj["board"] == "TSD/2S2/tsd/D2T" and obj["solved"] is True
    assert validate(Board.from_text(obj["board"]), obj["solution"]) == []
    assert obj["moves"] == sum(len(p) - 1 for p in obj["solution"].values())
    assert obj["elapsed_ms"] >= 0


def test_solve_reads_the_old_token_format_from_stdin():
    status, out, _ = run(["solve", "--game", "lyne", "--board", "-", "--json"], stdin="4 3\n? A B\nc C 2\nC 3 2\nB c A\n")
    assert status == 0 and json.loads(out)["board"] == ".AB/cC2/C32/BcA"


def test_solve_for_people_lists_each_path():
    status, out, _ = run(["solve", "--game", "lyne", "--board", "-"], stdin="T.T\nttt\n")
    assert status == 0 and "t: (0," in out


def test_unsolvable_board_exits_1_with_a_reason():
    status, out, _ = run(["solve", "--game", "lyne", "--board", "-", "--json"], stdin="t2t\nT2T\n")
    obj = json.loads(out)
    assert status == 1 and obj["solved"] is False and "no set of paths" in obj["reason"]


def test_malformed_board_exits_2_with_one_line():
    status, out, err = run(["solve", "--game", "lyne", "--board", "-"], stdin="TT\nt#\n")
    assert status == 2 and out == ""
    assert err.count("\n") == 1 and "line 2" in err and "Traceback" not in err


def test_options_of_other_games_are_refused():
    status, _, err = run(["solve", "--game", "lyne", "--board", "-", "--metric", "cell"], stdin="T.T\nttt\n")
    assert status == 2 and "--metric does not apply to lyne" in err


FIXTURES = Path(__file__).resolve().parents[2] / "fixtures" / "lyne"


def test_parse_image_json_names_the_game_board_and_cells():
    status, out, _ = run(["parse", str(FIXTURES / "real_2_original_1280.png"), "--json"])
    obj = json.loads(out)
    assert status == 0 and obj["game"] == "lyne" and obj["board"] == "TSD/2S2/tsd/D2T"
    assert len(obj["cells"]) == 12 and obj["confidence"] > 0.8


def test_solve_image_writes_an_annotated_picture(tmp_path):
    out_png = tmp_path / "hints.png"
    status, out, _ = run(["solve", str(FIXTURES / "real_1_deep_space_800.png"), "--game", "lyne", "--json", "--annotate", str(out_png)])
    obj = json.loads(out)
    assert status == 0 and obj["solved"] and validate(Board.from_text(obj["board"]), obj["solution"]) == []
    assert out_png.is_file() and out_png.stat().st_size > 1000


def test_image_without_a_board_exits_2_with_one_line():
    status, out, err = run(["parse", str(FIXTURES / "none_empty_area.png"), "--game", "lyne"])
    assert status == 2 and out == "" and err.count("\n") == 1 and "no board" in err


def test_node_cap_gives_up_with_exit_1_and_bad_caps_exit_2():
    hub_dense = "Tt.2s./.2222./.S33s./.s22T./.S2.2./..232./..232d/Dd2d2D"
    status, out, _ = run(["solve", "--game", "lyne", "--board", "-", "--json", "--max-nodes", "5"], hub_dense)
    obj = json.loads(out)
    assert status == 1 and not obj["solved"] and obj["reason"].startswith("gave up after 5 search nodes")
    status, out, err = run(["solve", "--game", "lyne", "--board", "-", "--max-nodes", "1e400"], hub_dense)
    assert status == 2 and out == "" and len(err.strip().splitlines()) == 1 and "--max-nodes" in err
