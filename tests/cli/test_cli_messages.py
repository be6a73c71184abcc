"""Messages a user meets: every command's help has examples, a closed pipe ends quietly,
a short board row is refused naming it."""
from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest

from puzzlepilot.cli import COMMANDS
from tests.helpers import run_cli

REPO = Path(__file__).resolve().parents[2]


@pytest.mark.parametrize("command", ["solve", "parse", *COMMANDS])
def test_every_command_help_has_an_example(command: str, capsys: pytest.CaptureFixture[str]):
    with pytest.raises(SystemExit) as info:
        run_cli([command, "--help"])
    assert info.value.code == 0
    text = capsys.readouterr().out
    assert "examples:" in text
    examples = text.split("examples:", 1)[1]
    assert f"puzzlepilot {command}" in examples


def test_top_level_help_documents_every_exit_status(capsys: pytest.CaptureFixture[str]):
    with pytest.raises(SystemExit):
        run_cli(["--help"])
    text = capsys.readouterr().out
    assert "130 stopped by Ctrl-C" in text and "2 bad input" in text


@pytest.mark.parametrize("argv", [
    ["solve", "--game", "onestroke", "--board", "-"],
    ["solve", "--game", "onestroke", "--board", "-", "--json"],
])
def test_a_closed_pipe_ends_quietly(argv: list[str]):
    read_end, write_end = os.pipe()
    os.close(read_end)            # the reader (head) is gone before anything is written
    try:
        proc = subprocess.run([sys.executable, "-m", "puzzlepilot", *argv], input=b"##S#\n#..#\n####\n",
                              stdout=write_end, stderr=subprocess.PIPE, cwd=REPO, timeout=60)
    finally:
        os.close(write_end)
    assert proc.stderr == b"", proc.stderr.decode()
    assert proc.returncode == 141


@pytest.mark.parametrize("game, text, row", [
    ("onestroke", "##S#/#..#/###", 3),
    ("onestroke", "##S#/#/####", 2),
    ("lyne", "T.t/TtD/d.D./...", 3),
    ("klotski", "ACCB/ACCB/DEEF/DGHF/I..", 5),
])
def test_a_short_or_long_row_is_refused_naming_it(game: str, text: str, row: int):
    status, out, err = run_cli(["solve", "--game", game, "--board", "-"], stdin=text)
    assert status == 2 and out == ""
    assert len(err.strip().splitlines()) == 1
    assert f"row {row} has" in err and "like the first row" in err


def test_rings_name_the_short_ring():
    status, _, err = run_cli(["solve", "--game", "rings", "--board", "-"],
                             stdin="x...........\n............\n...........\n............")
    assert status == 2 and "ring 2 has 11 characters, expected 12" in err


RING_SHOT = REPO / "fixtures" / "rings"


def ring_fixture_with_budget() -> Path:
    import json
    entries = json.loads((RING_SHOT / "expected.json").read_text(encoding="utf-8"))
    return RING_SHOT / next(n for n, e in sorted(entries.items()) if e["board"] and e["board"].startswith("moves:"))


def test_without_tesseract_a_ring_budget_is_read_by_its_digits_or_said_unread(monkeypatch: pytest.MonkeyPatch):
    import vision.rings

    monkeypatch.setenv("PATH", "/nonexistent")      # no tesseract on the path
    monkeypatch.setattr(vision.rings, "_OCR_MISSING", [])   # said once per process: this test's own
    status, out, err = run_cli(["parse", ring_fixture_with_budget(), "--game", "rings"])
    assert status == 0 and "moves:" in out and err == ""    # digit templates need no process
    monkeypatch.setattr(vision.rings, "read_digits", lambda digits: None)   # digits not clear
    status, out, err = run_cli(["parse", ring_fixture_with_budget(), "--game", "rings"])
    assert status == 0
    assert err.count("\n") == 1 and "tesseract is not installed" in err and "--moves N" in err
    status, out, err = run_cli(["solve", ring_fixture_with_budget(), "--game", "rings", "--moves", "3"])
    assert "tesseract" not in err        # the budget is given: nothing to warn about


def test_a_missing_tkinter_is_one_line(monkeypatch: pytest.MonkeyPatch):
    import sys
    monkeypatch.setitem(sys.modules, "tkinter", None)
    monkeypatch.delenv("DISPLAY", raising=False)
    status, out, err = run_cli(["practice", "onestroke"])
    assert status == 2 and "python3-tk" in err and err.count("\n") == 1


def test_a_window_without_tkinter_is_one_line(monkeypatch: pytest.MonkeyPatch, tmp_path: Path):
    import sys
    monkeypatch.setitem(sys.modules, "tkinter", None)
    monkeypatch.setenv("PUZZLEPILOT_PROFILES", str(tmp_path))
    shot = REPO / "fixtures" / "onestroke" / "crop_7x7_blue.png"
    status, out, err = run_cli(["calibrate", "onestroke", shot, "--name", "t"])     # opens the picker
    assert status == 2 and "needs tkinter" in err and "python3-tk" in err and err.count("\n") == 1
