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
