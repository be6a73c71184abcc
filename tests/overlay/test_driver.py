from __future__ import annotations

import math
import subprocess
import threading
import time

import pytest

from overlay.actions import Click, Drag, Key
from overlay.driver import Driver, DriverStopped, open_driver
from overlay.surface import OverlayError
from tests.display import button_pressed, mouse_events
from vision.capture import Rect

GAME = Rect(100, 100, 600, 400)


@pytest.fixture
def game(tk_window):
    return tk_window("Driver game", GAME)


def test_points_outside_the_window_are_refused_and_nothing_is_sent(game, pointer) -> None:
    log: list[str] = []
    driver = Driver(lambda: GAME, log=log.append)
    inside = Drag(((200, 200), (300, 200)))
    outside = Drag(((400, 300), (400, 520)))   # ends below the window
    with pytest.raises(DriverStopped, match=r"\(400,520\) is outside the game window 100,100,600,400"):
        driver.perform([inside, Click((150, 150)), outside])
    assert mouse_events(game.settle()) == []
    assert pointer.position() == (900, 600) and log == []


def test_the_window_is_asked_again_before_each_action(game, pointer) -> None:
    rects = iter([GAME, GAME, GAME, Rect(400, 100, 300, 400)])   # the window shrinks mid-way
    driver = Driver(lambda: next(rects), log=lambda _: None)
    with pytest.raises(DriverStopped, match="outside"):
        driver.perform([Click((600, 300)), Click((200, 300))])
    buttons = [e for e in mouse_events(game.settle()) if e[0] != "motion"]
    assert buttons == [("press", 600, 300), ("release", 600, 300)]


def test_dry_run_logs_each_action_and_sends_nothing(game, pointer) -> None:
    log: list[str] = []
    Driver(lambda: GAME, dry_run=True, log=log.append).perform(
        [Drag(((200, 200), (300, 200))), Click((150, 150)), Key("left")])
    assert log == ["dry run: drag (200,200) → (300,200)", "dry run: click (150,150)", "dry run: key left"]
    assert game.settle() == [("ready",)]
    assert pointer.position() == (900, 600)


def test_a_drag_presses_moves_through_every_waypoint_and_releases(game, pointer) -> None:
    path = ((200, 200), (400, 200), (400, 350), (250, 350))
    Driver(lambda: GAME, speed=2.0, log=lambda _: None).perform([Drag(path)])
    game.wait_for(lambda e: e[0] == "release")
    events = mouse_events(game.settle())
    assert events[0] == ("press", 200, 200) and events[-1] == ("release", 250, 350)
    moves = [(x, y) for kind, x, y in events if kind == "motion"]
    assert len(moves) >= 3 * 5, "a glide, not jumps"
    # Every motion lies on the path (within a pixel): nothing strays between waypoints.
    for m in moves:
        assert min(_distance_to_segment(m, a, b) for a, b in zip(path, path[1:])) <= 1.5
    # ... and the glide shows on every segment, in order: it turned at each waypoint. (Tk
    # merges motions that queue up on a loaded machine, so a corner's own may be merged
    # into the next one's: the corner itself is not asked for.)
    segments = [min(range(len(path) - 1), key=lambda i: _distance_to_segment(m, path[i], path[i + 1])) for m in moves]
    assert segments == sorted(segments) and set(segments) == set(range(len(path) - 1))
    assert not button_pressed()


def _distance_to_segment(p, a, b) -> float:
    (px, py), (ax, ay), (bx, by) = p, a, b
    dx, dy = bx - ax, by - ay
    t = max(0.0, min(1.0, ((px - ax) * dx + (py - ay) * dy) / (dx * dx + dy * dy)))
    return math.dist(p, (ax + t * dx, ay + t * dy))


def test_clicks_and_keys_reach_the_window(game, pointer) -> None:
    Driver(lambda: GAME, log=lambda _: None).perform([Click((321, 222)), Key("left")])
    game.wait_for(lambda e: e[0] == "key")
    events = game.settle()
    assert ("press", "321", "222") in events and ("release", "321", "222") in events
    assert ("key", "Left") in events


def test_a_key_with_a_modifier_is_pressed_inside_it(game, pointer) -> None:
    """Ctrl+N (a game's menu key): Control goes down first, the key within it, and both
    come up (no key is left held)."""
    log: list[str] = []
    Driver(lambda: GAME, log=log.append).perform([Click((321, 222)), Key("n", ("ctrl",))])   # a click: the focus
    game.wait_for(lambda e: e == ("key", "n"))
    assert [e for e in game.settle() if e[0] == "key"] == [("key", "Control_L"), ("key", "n")]
    assert log == ["click (321,222)", "key ctrl+n"]
    Driver(lambda: GAME, log=lambda _: None).perform([Key("m")])     # Control is up again: a plain m
    game.wait_for(lambda e: e == ("key", "m"))


def test_moving_the_mouse_mid_drag_stops_and_releases_the_button(game, pointer) -> None:
    log: list[str] = []
    driver = Driver(lambda: GAME, speed=0.1, log=log.append)   # ~2 s per segment

    def user_moves() -> None:
        game.wait_for(lambda e: e[0] == "motion")
        subprocess.run(["xdotool", "mousemove", "650", "450"], check=True)

    user = threading.Thread(target=user_moves)
    user.start()
    with pytest.raises(DriverStopped, match="mouse moved by the user"):
        driver.perform([Drag(((200, 200), (500, 200), (500, 400))), Click((300, 300))])
    user.join()
    game.wait_for(lambda e: e[0] == "release")
    events = mouse_events(game.settle())
    glide = [x for kind, x, y in events if kind == "motion" and y == 200]
    assert glide and max(glide) < 450, "stopped within the first segment, not after it"
    assert [e[0] for e in events].count("press") == 1, "the click after the drag was not sent"
    assert not button_pressed()


def test_ctrl_c_mid_drag_releases_the_button(game, pointer, monkeypatch: pytest.MonkeyPatch) -> None:
    import overlay.driver

    real_sleep = time.sleep

    def sleep(seconds: float) -> None:
        if button_pressed():   # the first pause (ours or pyautogui's) once the press is out
            raise KeyboardInterrupt
        real_sleep(seconds)

    monkeypatch.setattr(overlay.driver.time, "sleep", sleep)
    with pytest.raises(KeyboardInterrupt):
        Driver(lambda: GAME, log=lambda _: None).perform([Drag(((200, 200), (500, 200), (500, 400)))])
    monkeypatch.undo()
    game.wait_for(lambda e: e[0] == "release")
    assert [e[0] for e in mouse_events(game.settle())].count("press") == 1
    assert not button_pressed()


def test_moving_the_mouse_between_actions_stops_before_the_next(game, pointer) -> None:
    driver = Driver(lambda: GAME, speed=0.1, log=lambda _: None)   # 0.5 s between actions

    def user_moves() -> None:
        game.wait_for(lambda e: e[0] == "release")
        subprocess.run(["xdotool", "mousemove", "650", "450"], check=True)

    user = threading.Thread(target=user_moves)
    user.start()
    with pytest.raises(DriverStopped, match="mouse moved by the user"):
        driver.perform([Click((300, 300)), Click((400, 300))])
    user.join()
    presses = [e for e in mouse_events(game.settle()) if e[0] == "press"]
    assert presses == [("press", 300, 300)]


# ---------------------------------------------------------------------------- the factory

class Region:
    def rect(self) -> Rect:
        return GAME


class Window(Region):
    def focus(self) -> None: ...

    def has_focus(self) -> bool:
        return True

    def under_pointer(self) -> bool:
        return True


def test_open_driver_guards_input_with_the_window_it_plays_in(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr("sys.platform", "win32")
    window, region = Window(), Region()
    assert open_driver(window)._guard is window and open_driver(region)._guard is None
    assert open_driver(region)._window() == GAME


def test_open_driver_refuses_where_input_cannot_reach_the_game(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr("sys.platform", "linux")
    monkeypatch.setenv("DISPLAY", ":0")
    monkeypatch.setenv("XDG_SESSION_TYPE", "wayland")
    with pytest.raises(OverlayError, match="no input can be sent on this desktop: .*Wayland"):
        open_driver(Region())
    log: list[str] = []
    open_driver(Region(), dry_run=True, log=log.append).perform([Click((321, 222))])   # sends nothing
    assert log == ["dry run: click (321,222)"]
