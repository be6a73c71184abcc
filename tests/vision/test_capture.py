from __future__ import annotations

import sys
from types import SimpleNamespace

import numpy as np
import pytest
from hypothesis import given
from hypothesis import strategies as st

from tests.display import bgr, wait_for_pixels
import vision.capture
from vision.capture import (CaptureError, Rect, find_windows, monitor_source, open_source, region_source,
                            window_source)


# ------------------------------------------------------------------------------ Rect

def test_rect_parses_its_text_form() -> None:
    assert Rect.parse("10, -20,300,40") == Rect(10, -20, 300, 40)
    assert Rect.parse(Rect(1, 2, 3, 4).to_text()) == Rect(1, 2, 3, 4)


@pytest.mark.parametrize("text", ["", "1,2,3", "1,2,3,4,5", "a,b,c,d", "1,2,0,5", "1,2,5,-1", "1.5,2,3,4"])
def test_rect_parse_refuses_malformed_text_with_a_clear_message(text: str) -> None:
    with pytest.raises(ValueError, match="X,Y,W,H|positive"):
        Rect.parse(text)


@given(st.integers(-50, 50), st.integers(-50, 50), st.integers(1, 40), st.integers(1, 40),
       st.floats(-100, 100), st.floats(-100, 100))
def test_rect_contains_exactly_the_points_of_its_half_open_box(left: int, top: int, width: int,
                                                               height: int, x: float, y: float) -> None:
    inside = left <= x < left + width and top <= y < top + height
    assert Rect(left, top, width, height).contains(x, y) == inside


def test_rect_intersection_is_the_common_part_or_none() -> None:
    assert Rect(0, 0, 10, 10).intersect(Rect(5, -5, 10, 10)) == Rect(5, 0, 5, 5)
    assert Rect(0, 0, 10, 10).intersect(Rect(10, 0, 5, 5)) is None


# ------------------------------------------------------------------------------ refusals

def test_wayland_sessions_are_refused_with_an_explanation(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr("sys.platform", "linux")
    monkeypatch.setenv("XDG_SESSION_TYPE", "wayland")
    monkeypatch.setenv("DISPLAY", ":0")
    for make in (lambda: window_source("game"), lambda: region_source(Rect(0, 0, 9, 9)),
                 lambda: monitor_source(1), lambda: find_windows("game")):
        with pytest.raises(CaptureError, match="Wayland.*XWayland"):
            make()


def test_linux_without_a_display_is_refused(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr("sys.platform", "linux")
    monkeypatch.delenv("XDG_SESSION_TYPE", raising=False)
    monkeypatch.delenv("DISPLAY", raising=False)
    with pytest.raises(CaptureError, match="DISPLAY is not set"):
        window_source("game")


# ------------------------------------------------------------------------------ factories

def fake_finder(name: str) -> type:
    """A window lookup backend that finds one window named after itself."""
    class Finder:
        def find(self, title: str) -> list:
            return [(name, Rect(0, 0, 9, 9), 1)]

        def close(self) -> None:
            pass

    return Finder


@pytest.mark.parametrize("platform, backend", [("linux", "XlibFinder"), ("freebsd14", "XlibFinder"),
                                               ("win32", "DesktopFinder"), ("darwin", "DesktopFinder")])
def test_window_lookup_uses_the_backend_of_the_desktop(monkeypatch: pytest.MonkeyPatch, platform: str,
                                                       backend: str) -> None:
    import vision.capture.desktop
    import vision.capture.x11

    monkeypatch.setattr("sys.platform", platform)
    monkeypatch.setenv("DISPLAY", ":0")
    monkeypatch.setenv("XDG_SESSION_TYPE", "x11")
    monkeypatch.setattr(vision.capture.x11, "XlibFinder", fake_finder("XlibFinder"))
    monkeypatch.setattr(vision.capture.desktop, "DesktopFinder", fake_finder("DesktopFinder"))
    assert [title for title, _, _ in find_windows("")] == [backend]


def test_open_source_takes_the_window_else_the_region_else_the_monitor(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(vision.capture, "window_source", lambda title, wid: ("window", title, wid))
    monkeypatch.setattr(vision.capture, "region_source", lambda rect: ("region", rect))
    monkeypatch.setattr(vision.capture, "monitor_source", lambda index: ("monitor", index))
    assert open_source(window="Game", region=Rect(0, 0, 5, 5)) == ("window", "Game", None)
    assert open_source(window_id=0x42) == ("window", None, 0x42)
    assert open_source(region=Rect(0, 0, 5, 5), monitor=2) == ("region", Rect(0, 0, 5, 5))
    assert open_source(monitor=2) == ("monitor", 2)


# ------------------------------------------------------------------------------ Windows, macOS
# pywinctl is faked: these check our side of the backend, not the library (untested here).

def fake_desktop(monkeypatch: pytest.MonkeyPatch, windows: list) -> None:
    monkeypatch.setattr("sys.platform", "win32")
    monkeypatch.setitem(sys.modules, "pywinctl", SimpleNamespace(getAllWindows=lambda: windows))


def test_desktops_find_windows_by_title_through_pywinctl(monkeypatch: pytest.MonkeyPatch) -> None:
    game = SimpleNamespace(title="Puzzle Game — 2", left=-30, top=20, width=300, height=200)
    fake_desktop(monkeypatch, [game, SimpleNamespace(title="Other", left=0, top=0, width=90, height=90)])
    assert [(t, r) for t, r, _ in find_windows("puzzle game")] == [("Puzzle Game — 2", Rect(-30, 20, 300, 200))]


def test_desktop_window_rect_follows_the_window_and_reports_it_closed(monkeypatch: pytest.MonkeyPatch) -> None:
    from vision.capture.desktop import DesktopFinder

    game = SimpleNamespace(title="Game", left=10, top=20, width=300, height=200)
    fake_desktop(monkeypatch, [game])
    finder = DesktopFinder()
    (_, _, wid), = finder.find("game")
    game.left, game.top = 400, 300
    assert finder.rect(wid) == Rect(400, 300, 300, 200)
    del game.left   # what a closed window's object does: its attributes fail
    with pytest.raises(CaptureError, match="closed"):
        finder.rect(wid)


def test_desktop_without_a_window_library_says_what_to_install(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr("sys.platform", "darwin")
    monkeypatch.setitem(sys.modules, "pywinctl", None)
    monkeypatch.setitem(sys.modules, "pygetwindow", None)
    with pytest.raises(CaptureError, match="pip install pywinctl"):
        find_windows("game")


# ------------------------------------------------------------------------------ on Xvfb

def test_window_lookup_finds_a_window_by_title_substring_with_its_rect(tk_window) -> None:
    tk_window("Puzzle Game — level 3", Rect(120, 90, 400, 300))
    tk_window("Something else", Rect(600, 90, 200, 200))
    found = find_windows("puzzle GAME")
    assert [(title, rect) for title, rect, _ in found] == [("Puzzle Game — level 3", Rect(120, 90, 400, 300))]


def test_window_source_grabs_the_windows_pixels(tk_window) -> None:
    window = tk_window("Grab me", Rect(200, 150, 320, 240), "#3060c0")
    source = window_source("Grab me")
    try:
        assert source.rect() == Rect(200, 150, 320, 240)
        image = wait_for_pixels(source.grab, lambda im: (im == bgr(window.color)).all())
        assert image.shape == (240, 320, 3) and image.dtype == np.uint8
        assert (image == bgr("#3060c0")).all()
    finally:
        source.close()


def test_window_source_follows_a_moved_window(tk_window) -> None:
    window = tk_window("Moving game", Rect(100, 100, 200, 150), "#c03030")
    source = window_source("Moving")
    try:
        window.send("move 500 300")
        assert source.rect() == Rect(500, 300, 200, 150)
        image = wait_for_pixels(source.grab, lambda im: (im == bgr("#c03030")).all())
        assert (image == bgr("#c03030")).all()
    finally:
        source.close()


def test_window_source_reports_a_closed_window(tk_window) -> None:
    window = tk_window("Short lived", Rect(100, 100, 200, 150))
    source = window_source("Short lived")
    try:
        window.close()
        with pytest.raises(CaptureError, match="closed|no longer shown"):
            wait_for_pixels(lambda: source.rect(), lambda _: False, timeout=2.0)
    finally:
        source.close()


def test_unknown_window_title_lists_the_windows_there_are(tk_window) -> None:
    tk_window("Visible one", Rect(100, 100, 200, 150))
    with pytest.raises(CaptureError, match="no window titled like 'missing'.*'Visible one'"):
        window_source("missing")


def test_region_source_is_clipped_to_the_screen(tk_window) -> None:
    tk_window("Corner", Rect(1080, 600, 200, 200), "#808000")
    source = region_source(Rect(1180, 700, 300, 300))
    try:
        assert source.rect() == Rect(1180, 700, 100, 100)
        image = wait_for_pixels(source.grab, lambda im: (im == bgr("#808000")).all())
        assert image.shape == (100, 100, 3) and (image == bgr("#808000")).all()
    finally:
        source.close()


def test_region_off_the_screen_is_refused(display: str) -> None:
    source = region_source(Rect(5000, 5000, 10, 10))
    try:
        with pytest.raises(CaptureError, match="off the screen"):
            source.grab()
    finally:
        source.close()


def test_monitor_source_covers_the_screen_and_refuses_unknown_monitors(display: str) -> None:
    source = monitor_source(1)
    try:
        assert source.rect() == Rect(0, 0, 1280, 800)
        assert source.grab().shape == (800, 1280, 3)
    finally:
        source.close()
    with pytest.raises(CaptureError, match="no monitor 7"):
        monitor_source(7)
