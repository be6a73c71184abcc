"""Faults during live play end with status 1 and what happened, never 2 (bad input) or a
traceback: the game window closing while it is watched."""
from __future__ import annotations

import time

import pytest

from tests.display import puzzlepilot, wait_for_window
from vision.capture import Rect


@pytest.mark.parametrize("hints", ["none", "overlay"])
def test_a_window_closed_while_watched_ends_with_status_1_saying_so(display, tk_window, hints) -> None:
    game = tk_window("Closing Game", Rect(80, 80, 400, 300))
    wait_for_window("Closing Game")
    proc = puzzlepilot("live", "--window", "Closing Game", "--hints", hints, "--fps", "20")
    try:
        assert proc.stdout.readline().startswith("watching ")
        time.sleep(0.5)
        game.close()
        out, err = proc.communicate(timeout=20)
    finally:
        if proc.poll() is None:
            proc.kill()
            proc.wait()
    assert proc.returncode == 1, err
    assert err.count("\n") == 1 and err.startswith("puzzlepilot: stopped: ")
    assert "closed" in err or "no longer shown" in err
    assert "Traceback" not in err
