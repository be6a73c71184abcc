"""The valves game through the command line: JSON shape, --wrenches and --all, exit statuses."""
from __future__ import annotations

import json

from solvers.valves import Board, validate
from tests.solvers.test_valves import GAME
from tests.helpers import run_cli as run


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


# ---------------------------------------------------------------------------- screenshots

def write_sewer(tmp_path, closed: str = "", scale: float = 0.7) -> str:
    import cv2

    from puzzlepilot.scenes.valves import render_sewer

    image, _ = render_sewer(frozenset(closed), scale=scale)
    path = tmp_path / "sewer.png"
    cv2.imwrite(str(path), image)
    return str(path)


def test_parse_a_screenshot_names_the_game_and_the_closed_valves(tmp_path):
    status, out, _ = run(["parse", write_sewer(tmp_path, "A"), "--json"])
    obj = json.loads(out)
    assert status == 0 and obj["game"] == "valves" and "closed: A" in obj["board"]
    assert obj["confidence"] > 0.7 and len(obj["cells"]) == 13


def test_solve_a_screenshot_with_annotate_writes_the_hints(tmp_path):
    import cv2

    out_png = tmp_path / "hints.png"
    status, out, _ = run(["solve", write_sewer(tmp_path, "A"), "--game", "valves", "--json",
                          "--annotate", str(out_png)])
    obj = json.loads(out)
    assert status == 0 and obj["solution"] == ["B", "H"]
    assert cv2.imread(str(out_png)).shape == cv2.imread(str(tmp_path / "sewer.png")).shape


def test_profile_option_takes_a_profile_folder(tmp_path):
    from vision.valves import SHIPPED

    status, out, _ = run(["parse", write_sewer(tmp_path), "--game", "valves", "--profile", str(SHIPPED), "--json"])
    assert status == 0 and json.loads(out)["game"] == "valves"


def test_a_profile_of_another_game_exits_2_naming_the_field(tmp_path):
    import shutil

    from vision.valves import SHIPPED

    folder = tmp_path / "wrong"
    shutil.copytree(SHIPPED, folder)
    data = json.loads((folder / "profile.json").read_text())
    (folder / "profile.json").write_text(json.dumps({**data, "game": "lyne"}))
    status, _, err = run(["parse", write_sewer(tmp_path), "--game", "valves", "--profile", str(folder)])
    assert status == 2 and "'game'" in err and len(err.strip().splitlines()) == 1


def test_all_for_people_lists_every_answer():
    status, out, _ = run(["solve", "--game", "valves", "--board", "-", "--all"], "X A/X B/A C/B C/C Y/A D/D Y")
    assert status == 0 and "all 3 minimum answers:" in out
    assert ["A B", "A C", "C D"] == [line.strip() for line in out.splitlines()[-3:]]


def test_a_negative_number_of_wrenches_is_bad_input():
    status, out, err = run(["solve", "--game", "valves", "--board", "-", "--wrenches", "-3"], GAME)
    assert status == 2 and out == "" and err == "puzzlepilot: error: wrenches must be 0 or more, not -3\n"


def test_the_wrenches_left_are_told_truly():
    three = "X A/A Y/X B/B Y/X C/C Y"
    status, out, _ = run(["solve", "--game", "valves", "--board", "-"], three)
    assert status == 0 and "close 3 valves: A, B, C  (0 wrenches left after that)" in out
    status, out, _ = run(["solve", "--game", "valves", "--board", "-", "--wrenches", "5"], three)
    assert status == 0 and "wrenches: 5" in out.splitlines() and "(2 wrenches left after that)" in out
    status, out, _ = run(["solve", "--game", "valves", "--board", "-", "--wrenches", "4"], three + "/closed: A")
    assert status == 0 and "close 2 valves: B, C  (1 wrench left after that)" in out


def test_wrenches_fewer_than_the_closed_valves_are_bad_input():
    status, out, err = run(["solve", "--game", "valves", "--board", "-", "--wrenches", "0"], GAME + "\nclosed: A")
    assert status == 2 and out == "" and err == "puzzlepilot: error: 1 valve is closed but there are only 0 wrenches\n"
