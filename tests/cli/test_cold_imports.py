"""A ``solve --board`` command, the one a user waits for whole, loads only what solving that
board text needs: no vision (OpenCV, numpy), no SAT library's Python layer, none of the
file writers' modules, no other command's parser. Each command runs in a fresh process
(``python -c``, the command line's ``main``, then its loaded modules printed) that runs no
``.pth`` file (``-S``, this process's module path given whole), as in a copy installed with
``pip install .``: an editable install's import hook loads pathlib before any command."""
from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

from solvers import klotski, lyne, onestroke, rings, valves

ROOT = Path(__file__).resolve().parents[2]

# Never needed to solve a board text: the vision and drawing, pysat's Python layer (~20 ms;
# LYNE drives MiniSat's compiled module itself), the file writers' hashing and temporary
# folders (argparse itself loads shutil, for the terminal's width; Klotski's table names take
# BLAKE2 without hashlib's OpenSSL), the traceback printer (only for --debug), typing
# (annotations only), random (the generators'; one-stroke's restarts load it only when run).
NEVER = ("numpy", "cv2", "vision", "overlay", "pysat.solvers", "pysat.formula", "hashlib", "tempfile",
         "traceback", "typing", "random")
# Nor, for a game without tables on disk (rings' levels, Klotski's move lists), pathlib.
NO_TABLES = ("onestroke", "lyne", "valves")


def loaded_by(argv: list[str], cache: Path) -> tuple[dict, set[str], int]:
    """(the command's JSON answer, the modules loaded in its process, how many argparse
    parsers it made)."""
    code = ("import argparse, io, json, sys\n"
            "made = []\n"
            "init = argparse.ArgumentParser.__init__\n"
            "def counted(self, *a, **k):\n"
            "    made.append(1)\n"
            "    init(self, *a, **k)\n"
            "argparse.ArgumentParser.__init__ = counted\n"
            "from puzzlepilot.cli import main\n"
            "out = io.StringIO()\n"
            "status = main(sys.argv[1:], stdout=out)\n"
            "print(json.dumps([status, out.getvalue(), sorted(sys.modules), len(made)]))\n")
    path = os.pathsep.join(p for p in sys.path if os.path.isdir(p))
    done = subprocess.run([sys.executable, "-S", "-c", code, *argv], cwd=ROOT, capture_output=True, text=True,
                          check=True, env={**os.environ, "PUZZLEPILOT_CACHE": str(cache), "PYTHONPATH": path})
    status, out, modules, parsers = json.loads(done.stdout)
    assert status == 0, out
    return json.loads(out), set(modules), parsers


BOARDS = {
    "onestroke": (onestroke.generate(6, 6, 3).to_text(), onestroke),
    "klotski": (klotski.layout("横刀立马").to_text(), klotski),
    "lyne": ("TSD/2S2/tsd/D2T", lyne),
    "rings": (rings.generate(11, 3, 2).to_text(), rings),
    "valves": ("A B\nB C\nA D\nD C\ninlet: A\noutlet: C\nwrenches: 2", valves),
}


@pytest.mark.parametrize("game", sorted(BOARDS))
def test_solving_a_board_text_loads_no_vision_no_sat_layer_no_file_writers(game, tmp_path):
    text, solver = BOARDS[game]
    board_file = tmp_path / "board.txt"
    board_file.write_text(text, encoding="utf-8")
    argv = ["solve", "--game", game, "--board", str(board_file), "--json"]
    loaded_by(argv, tmp_path / "cache")         # the first rings (Klotski) solve on a machine stores its tables
    answer, modules, parsers = loaded_by(argv, tmp_path / "cache")
    board = solver.Board.from_text(text)
    assert answer["solved"] and solver.validate(board, answer["solution"]) == []
    never = NEVER + (("pathlib",) if game in NO_TABLES else ())
    assert not [m for m in modules for name in never if m == name or m.startswith(name + ".")]
    assert parsers == 2                         # the command line's and solve's: no other command's


def test_an_unknown_command_is_refused_naming_every_command():
    from puzzlepilot.cli import COMMANDS
    from tests.helpers import run_cli

    status, out, err = run_cli(["solv", "--game", "lyne"])
    assert status == 2 and out == "" and err.count("\n") == 1
    assert all(f"'{name}'" in err for name in ("solve", "parse", *COMMANDS))
