"""The valves game played live under Xvfb: the live loop reads the practice sewer from
the screen, clicks the valves of the answer, and the board confirms each level solved."""
from __future__ import annotations

import threading
import time

import pytest

from tests.display import PRACTICE_TITLE, puzzlepilot, wait_for_window


@pytest.mark.display
def test_live_play_solves_practice_sewers(display: str) -> None:
    practice = puzzlepilot("practice", "valves", "--seed", "1", "--levels", "2", "--log",
                       "--view", "800x540", "--at", "30,30")
    log: list[str] = []
    reader = threading.Thread(target=lambda: log.extend(iter(practice.stdout.readline, "")), daemon=True)
    player = None
    try:
        reader.start()
        wait_for_window(PRACTICE_TITLE)
        # No --levels: the loop plays whatever level shows until the board has logged two.
        player = puzzlepilot("live", "--game", "valves", "--window", PRACTICE_TITLE,
                         "--play", "--speed", "2", "--hints", "none")
        deadline = time.monotonic() + 60
        while "solved level 2\n" not in log and time.monotonic() < deadline and player.poll() is None:
            time.sleep(0.1)
    finally:
        if player is not None:
            player.kill()
            player.communicate()
        practice.terminate()
        practice.wait(timeout=10)
        reader.join(timeout=5)      # the pipe's end stops it
        practice.stdout.close()
        practice.stderr.close()
    assert [line.strip() for line in log if line.startswith("solved")] == ["solved level 1", "solved level 2"], log
