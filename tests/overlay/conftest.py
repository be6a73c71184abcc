"""``desktop``: a test of windows and input run three times, on the session's bare Xvfb,
under a window manager (openbox) and under openbox with the picom compositor, whose title
bars and compositing move and change what is seen (``tests.display.desktop``); ``pointer``:
pyautogui on that display."""
from __future__ import annotations

from typing import Iterator

import pytest

from tests.display import DESKTOPS, button_pressed
from tests.display import desktop as desktop_running


@pytest.fixture(params=DESKTOPS)
def desktop(request: pytest.FixtureRequest, display: str) -> Iterator[str]:
    """The session's Xvfb as it is, or with a window manager (and compositor) running for
    the test."""
    with desktop_running(request.param) as kind:
        yield kind


@pytest.fixture
def pointer(display: str):
    """pyautogui, imported only now that DISPLAY is the test's Xvfb; pointer parked at
    (900, 600), clear of the tests' windows, with the left button up: a button an earlier
    test on the shared display left held makes the server drop the next press (seen as a
    lone release in test_the_window_is_asked_again_before_each_action)."""
    import pyautogui
    from pyautogui import _pyautogui_x11

    # Imported earlier on a developer's desktop, it would move the real mouse: refuse.
    assert _pyautogui_x11._display.get_display_name() == display, "pyautogui bound another display"
    pyautogui.moveTo(900, 600)
    if button_pressed():
        pyautogui.mouseUp()
    return pyautogui
