"""Input goes only to the game: decoy windows, a game window closed mid-drag, focus stolen
mid-play, on bare Xvfb and under a window manager (openbox, and openbox with the picom
compositor), whose title bars shift client areas."""
from __future__ import annotations

import subprocess
import threading

import pytest

from overlay.actions import Drag, Key
from overlay.driver import Driver, DriverStopped
from tests.display import button_pressed, close_while_running, mouse_events, placed
from vision.capture import CaptureError, Rect, window_source


def test_several_windows_matching_the_title_are_listed_and_refused(desktop, tk_window, pointer) -> None:
    tk_window("Ring Game", Rect(60, 60, 300, 200))
    tk_window("Viewer - Ring Game screenshot.png", Rect(420, 60, 500, 400), "#808080")
    with pytest.raises(CaptureError, match=r"2 windows are titled like 'ring'.*--window-id"):
        window_source("ring")
    exact = window_source("Ring Game")          # the full title names one
    viewer_rect, viewer_id = placed("Viewer - Ring Game screenshot.png")
    by_id = window_source(window_id=viewer_id)
    try:
        assert exact.title == "Ring Game" and by_id.rect() == viewer_rect
    finally:
        exact.close()
        by_id.close()


def test_the_live_command_refuses_an_ambiguous_window_with_one_line(desktop, tk_window) -> None:
    from tests.display import run_puzzlepilot

    tk_window("Ring Game", Rect(60, 60, 300, 200))
    tk_window("Ring Game (copy)", Rect(420, 60, 300, 200))
    status, out, err = run_puzzlepilot("live", "--window", "ring", "--hints", "none")
    assert status == 2 and out == "" and err.count("\n") == 1 and "choose one with --window-id" in err


def test_keys_go_to_the_game_after_giving_it_the_focus_and_stop_when_it_is_stolen(desktop, tk_window, pointer) -> None:
    game = tk_window("Key Game", Rect(60, 60, 400, 300))
    decoy = tk_window("Terminal", Rect(520, 60, 400, 300), "#303030")   # opened last: it has the focus
    _, decoy_id = placed("Terminal")
    source = window_source("Key Game")
    driver = Driver(source.rect, speed=0.2, log=lambda _: None, guard=source)   # 0.5 s between keys

    def steal() -> None:
        game.wait_for(lambda e: e[0] == "key")
        subprocess.run(["xdotool", "windowfocus", str(decoy_id)], check=True)

    thief = threading.Thread(target=steal)
    thief.start()
    try:
        with pytest.raises(DriverStopped, match="lost the keyboard focus"):
            driver.perform([Key("a")] * 12)
    finally:
        thief.join()
        source.close()
    keys = [e for e in game.settle() if e[0] == "key"]
    assert 1 <= len(keys) < 12
    assert [e for e in decoy.settle() if e[0] == "key"] == [], "a key reached another window"


def test_a_game_window_closed_mid_drag_gets_the_rest_of_the_drag_sent_nowhere(desktop, tk_window, pointer) -> None:
    beneath = tk_window("Desk", Rect(40, 40, 700, 500), "#404040")
    game = tk_window("Drag Game", Rect(100, 100, 500, 350))
    rect, _ = placed("Drag Game")
    source = window_source("Drag Game")
    driver = Driver(source.rect, speed=0.1, log=lambda _: None, guard=source)   # seconds per segment
    a, b = (rect.left + 50, rect.top + 50), (rect.left + 450, rect.top + 50)

    def close_it() -> None:
        game.wait_for(lambda e: e[0] == "motion")
        game.close()

    closer = threading.Thread(target=close_it)
    closer.start()
    try:
        with pytest.raises(DriverStopped, match="closed|not under the pointer"):
            driver.perform([Drag((a, b, (rect.left + 450, rect.top + 300)))])
    finally:
        closer.join()
        source.close()
    assert not button_pressed()
    stray = [e for e in mouse_events(beneath.settle()) if e[0] in ("press", "motion")]
    assert len(stray) <= 2, f"the drag went on in the window beneath: {stray}"


def test_a_drag_stops_when_another_window_covers_the_game_under_the_pointer(desktop, tk_window, pointer) -> None:
    game = tk_window("Covered Game", Rect(100, 100, 500, 350))
    rect, _ = placed("Covered Game")
    source = window_source("Covered Game")
    driver = Driver(source.rect, speed=0.1, log=lambda _: None, guard=source)
    a, b = (rect.left + 50, rect.top + 100), (rect.left + 450, rect.top + 100)
    covers: list = []

    def cover() -> None:
        game.wait_for(lambda e: e[0] == "motion")
        covers.append(tk_window("Popup", Rect(rect.left + 250, rect.top + 20, 240, 200), "#c04040"))

    thread = threading.Thread(target=cover)
    thread.start()
    try:
        with pytest.raises(DriverStopped, match="not under the pointer"):
            driver.perform([Drag((a, b))])
    finally:
        thread.join()
        source.close()
    assert not button_pressed()
    assert [e for e in mouse_events(covers[0].settle()) if e[0] in ("press", "motion")] == []


def test_live_play_stops_with_status_1_when_the_game_closes_mid_drag(desktop, tk_window, pointer) -> None:
    """A fault injected during live play: the game window closes while a path is being
    drawn. The player says so (status 1, one line), the button is up, and the window
    beneath got at most a stray event or two."""
    from tests.display import REPO, puzzlepilot

    beneath = tk_window("Desk", Rect(20, 20, 700, 740), "#404040")
    game = tk_window("Faulty Game", Rect(40, 40, 624, 624))
    game.send(f"image {REPO / 'fixtures' / 'onestroke' / 'drawn_6x6_orange_crop.png'}")
    player = puzzlepilot("live", "--game", "onestroke", "--window", "Faulty Game", "--play", "--levels", "1",
                         "--speed", "0.2", "--hints", "overlay")
    err = close_while_running(game, player, lambda: game.wait_for(lambda e: e[0] == "motion", timeout=20))
    assert player.returncode == 1, err
    assert err.count("\n") == 1 and err.startswith("puzzlepilot: stopped: "), err
    assert not button_pressed()
    stray = [e for e in mouse_events(beneath.settle()) if e[0] in ("press", "motion")]
    assert len(stray) <= 2, f"the drag went on in the window beneath: {stray}"
