"""The game registry names every part of every game, and it alone makes a game known:
a sixth, toy game (``tests/cli/toy``) added by one ``Game`` entry works in the commands
with no other file touched."""
from __future__ import annotations

import importlib
import io
import json

import cv2
import numpy as np
import pytest

from puzzlepilot.cli import main
from puzzlepilot.games import GAMES, PARTS, Game, Option, offered_options
from tests.cli.toy import rules
from tests.cli.toy.scenes import render

TOY = Game("toy", "Toy lamps", board_format=("'1' a lit lamp, '0' a dark one, in one row:    10010",),
           options=(Option("--order", "press the dark lamps from the left or the right (default left)",
                           choices=("left", "right")),),
           model="tests.cli.toy.rules", solver="tests.cli.toy.rules",
           checker="tests.cli.toy.rules", vision="tests.cli.toy.vision", overlay="tests.cli.toy.overlay",
           actions="tests.cli.toy.overlay", calibration=None, practice=None, scenes="tests.cli.toy.scenes",
           benchmark="tests.cli.toy.bench")


@pytest.fixture
def toy(monkeypatch):
    """The toy game registered beside the five, by its entry alone."""
    monkeypatch.setitem(GAMES, "toy", TOY)
    return TOY


def run(argv: list[str], stdin: str = "") -> tuple[int, str, str]:
    out, err = io.StringIO(), io.StringIO()
    status = main(argv, stdin=io.StringIO(stdin), stdout=out, stderr=err)
    return status, out.getvalue(), err.getvalue()


@pytest.mark.parametrize("name", sorted(GAMES))
def test_every_part_a_game_names_loads_and_holds_what_its_part_promises(name):
    game = GAMES[name]
    for part, (required, _) in PARTS.items():
        path = getattr(game, part)
        if path is None:
            continue
        module = importlib.import_module(path)
        missing = [attr for attr in required if not hasattr(module, attr)]
        assert not missing, f"{name}'s {part} ({path}) lacks {missing}"
    assert all(callable(hook) for hook in (game.solve, game.validate, game.parse, game.plan, game.hints))


def test_the_five_games_name_every_part_by_convention():
    for name, game in GAMES.items():
        assert game.vision == f"vision.{name}" and game.practice == f"puzzlepilot.practice.{name}"
        assert all(getattr(game, part) is not None for part in PARTS), name


def test_optional_hooks_are_answered_by_the_registry_none_when_a_game_has_none():
    klotski, lyne, rings, valves = (GAMES[g] for g in ("klotski", "lyne", "rings", "valves"))
    assert klotski.sheet is not None and lyne.sheet is None
    assert rings.read_picks is not None and valves.read_picks is not None and lyne.read_picks is None
    assert rings.picks_without_board and not valves.picks_without_board
    assert rings.load_keymap is not None and lyne.load_keymap is None
    assert rings.read_keymap is not None and klotski.read_keymap is None
    assert klotski.level_from_text is not None and GAMES["onestroke"].level_from_text is None
    assert GAMES["onestroke"].practice_sizes is not None and valves.practice_sizes is None
    assert klotski.relabel is not None
    assert TOY.learner is None and TOY.practice_board is None and TOY.read_picks is None
    assert TOY.sheet is None and TOY.show is None and TOY.steps([1, 2]) == 1


def test_a_toy_game_solves_a_board_text_by_its_entry_alone(toy):
    status, out, err = run(["solve", "--game", "toy", "--board", "-", "--json"], "10010")
    assert status == 0 and err == ""
    answer = json.loads(out)
    board = rules.Board.from_text(answer["board"])
    assert answer["game"] == "toy" and answer["solved"]
    assert rules.validate(board, answer["solution"]) == [] and answer["moves"] == 3

    status, out, _ = run(["solve", "--game", "toy", "--board", "-"], "0110")
    assert status == 0 and "solved in" in out and "2 moves" in out


def test_the_toy_s_board_text_and_option_are_in_solve_help_and_its_option_reaches_its_solver(toy, capsys):
    with pytest.raises(SystemExit) as info:
        run(["solve", "--help"])
    out = capsys.readouterr().out
    assert info.value.code == 0
    assert "  toy        '1' a lit lamp, '0' a dark one, in one row:    10010\n" in out
    assert "--order {left,right}" in out
    assert "toy: press the dark lamps from the left or the right (default left)" in " ".join(out.split())

    for order in ("right", "left"):
        status, out, err = run(["solve", "--game", "toy", "--board", "-", "--order", order, "--json"], "10100")
        presses = json.loads(out)["solution"]
        assert status == 0 and err == "" and rules.validate(rules.Board("10100"), presses) == []
        assert presses == sorted(presses, reverse=order == "right")   # the option reached the solver

    status, out, err = run(["solve", "--game", "lyne", "--board", "-", "--order", "left"], "T.T")
    assert status == 2 and err == "puzzlepilot: error: --order does not apply to lyne\n"


def test_an_option_games_share_is_offered_once_and_must_be_one_record():
    offered = {option.flag: names for option, names in offered_options(GAMES.values())}
    assert offered["--max-nodes"] == ["lyne", "onestroke"] and list(offered).count("--max-nodes") == 1
    other = Game("other", "Other", options=(Option("--max-nodes", "give up sooner", type=int),))
    with pytest.raises(ValueError, match="other declares --max-nodes unlike lyne, onestroke"):
        offered_options([*GAMES.values(), other])


def test_a_toy_board_text_that_is_wrong_is_one_line_and_status_2(toy):
    status, out, err = run(["solve", "--game", "toy", "--board", "-"], "10x")
    assert status == 2 and out == ""
    assert err == "puzzlepilot: error: line 1: a toy board is a row of 0 and 1, not '10x'\n"
    status, _, err = run(["solve", "--game", "toy", "--board", "-", "--moves", "3"], "10")
    assert status == 2 and err == "puzzlepilot: error: --moves does not apply to toy\n"


def test_a_toy_screenshot_is_parsed_solved_and_annotated(toy, tmp_path):
    shot = tmp_path / "toy.png"
    image = render("0101")
    cv2.imwrite(str(shot), image)

    status, out, err = run(["parse", str(shot), "--game", "toy", "--json"])
    assert status == 0 and err == ""
    assert json.loads(out)["board"] == "0101" and json.loads(out)["game"] == "toy"

    hint = tmp_path / "hint.png"
    status, out, err = run(["solve", str(shot), "--game", "toy", "--annotate", str(hint), "--json"])
    assert status == 0 and err == ""
    assert rules.validate(rules.Board("0101"), json.loads(out)["solution"]) == []
    drawn = cv2.imread(str(hint))
    assert drawn.shape == image.shape and (drawn != image).any(axis=2).sum() > 50   # the dots are drawn

    noise = tmp_path / "noise.png"
    cv2.imwrite(str(noise), np.random.default_rng(0).integers(0, 256, (80, 80, 3), np.uint8))
    status, out, err = run(["parse", str(noise), "--game", "toy"])
    assert status == 2 and out == "" and err.startswith("puzzlepilot: error: no board found in")


def test_a_toy_game_plans_the_driver_s_clicks_on_its_lamps(toy):
    from overlay.actions import Click

    found = toy.parse(render("001"))
    actions = toy.plan(found, toy.solve(found.board).solution)
    assert actions == [Click(found.cells[0]), Click(found.cells[1])]


def test_the_toy_game_s_fixtures_are_made_and_read_back(toy, tmp_path):
    status, out, err = run(["fixtures", "make", "toy", "--dir", str(tmp_path)])
    assert status == 0 and err == "" and "toy: wrote 3 fixtures" in out
    status, out, err = run(["fixtures", "check", "toy", "--dir", str(tmp_path)])
    assert status == 0 and "3/3 fixtures read right" in out


def test_the_toy_game_has_its_benchmark_target(toy):
    status, out, _ = run(["bench", "toy", "--json"])
    assert status == 0 and [row["solver"] for row in json.loads(out)["toy"]] == ["toy", "plain count"]


def test_parts_a_toy_game_leaves_out_are_refused_by_name(toy, tmp_path):
    status, _, err = run(["practice", "toy"])
    assert status == 2 and err.startswith("puzzlepilot: error: no practice board for toy yet (boards: klotski")
    shot = tmp_path / "toy.png"
    cv2.imwrite(str(shot), render("01"))
    status, _, err = run(["calibrate", "toy", str(shot), "--name", "lamps", "--board", "01", "--dir", str(tmp_path / "p")])
    assert status == 2 and err == ("puzzlepilot: error: calibration does not cover toy yet "
                                   "(it covers: onestroke, lyne, klotski, rings, valves)\n")


def test_the_command_layer_finds_game_parts_only_through_the_registry():
    from pathlib import Path

    root = Path(__file__).resolve().parents[2] / "puzzlepilot"
    commands = [*root.glob("*.py"), root / "practice" / "__init__.py", root / "benchmarks" / "vision.py"]
    for path in commands:
        if path.name in ("games.py", "__main__.py"):
            continue
        text = path.read_text(encoding="utf-8")
        for probe in ('import_module(f"', "pkgutil", "find_spec", "from puzzlepilot.cli import", "hasattr(game"):
            assert probe not in text, f"{path.relative_to(root.parent)} uses {probe}"


def test_what_a_game_s_vision_lacks_is_said_before_its_fixtures_are_checked(tmp_path, monkeypatch):
    (tmp_path / "rings").mkdir()
    (tmp_path / "lyne").mkdir()
    monkeypatch.setenv("PATH", str(tmp_path / "no-programs"))   # no tesseract
    status, _, err = run(["fixtures", "check", "rings", "lyne", "--dir", str(tmp_path)])
    assert status == 0 and err.count("\n") == 1 and "tesseract is not installed" in err
    assert err.startswith("puzzlepilot: warning:") and err.endswith(": such rings fixtures will differ\n")
    assert GAMES["rings"].lacks() is not None and GAMES["lyne"].lacks() is None and TOY.lacks() is None
