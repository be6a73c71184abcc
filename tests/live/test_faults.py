"""Faults during live play end with status 1 and what happened, never 2 (bad input) or a
traceback (the game window closing while it is watched); options that would busy-loop or
sleep for years are refused; the demo works from any folder."""
from __future__ import annotations

import os
import shutil
import subprocess
import sys
import time

import pytest

from tests.display import REPO, close_while_running, puzzlepilot, wait_for_window
from tests.helpers import run_cli
from vision.capture import Rect


@pytest.mark.parametrize("hints", ["none", "overlay"])
def test_a_window_closed_while_watched_ends_with_status_1_saying_so(display, tk_window, hints) -> None:
    game = tk_window("Closing Game", Rect(80, 80, 400, 300))
    wait_for_window("Closing Game")
    proc = puzzlepilot("live", "--window", "Closing Game", "--hints", hints, "--fps", "20")

    def watching() -> None:
        assert proc.stdout.readline().startswith("watching ")
        time.sleep(0.5)

    err = close_while_running(game, proc, watching)
    assert proc.returncode == 1, err
    assert err.count("\n") == 1 and err.startswith("puzzlepilot: stopped: ")
    assert "closed" in err or "no longer shown" in err
    assert "Traceback" not in err


@pytest.mark.display
@pytest.mark.skipif(shutil.which("Xvfb") is None, reason="Xvfb is not installed")
def test_demo_rings_takes_a_relative_out_folder(tmp_path) -> None:
    """The practice board runs in another folder: the key map's path must still reach it."""
    env = {k: v for k, v in os.environ.items() if k != "DISPLAY"}
    env["PYTHONPATH"] = str(REPO)
    proc = subprocess.run([sys.executable, "-m", "puzzlepilot", "demo", "rings", "--levels", "1", "--out", "pics"],
                          cwd=tmp_path, env=env, capture_output=True, text=True, timeout=90)
    assert proc.returncode == 0, proc.stderr
    assert (tmp_path / "pics" / "level1-after.png").is_file()


@pytest.mark.parametrize("argv", [
    ["live", "--monitor", "1", "--fps", "nan"], ["live", "--monitor", "1", "--fps", "1e-9"],
    ["live", "--monitor", "1", "--play", "--speed", "nan"], ["live", "--monitor", "1", "--play", "--speed", "1e-300"],
    ["live", "--monitor", "1", "--play", "--confirm", "nan"], ["live", "--monitor", "1", "--play", "--confirm", "inf"],
    ["live", "--window-id", "zz"], ["demo", "--speed", "nan"], ["demo", "--speed", "-inf"],
    ["live", "--monitor", "1", "--play", "--keymap", "k.json"],
])
def test_option_values_must_be_finite_and_in_range(argv: list[str]) -> None:
    status, out, err = run_cli(argv)
    assert status == 2 and out == "" and err.count("\n") == 1, err
