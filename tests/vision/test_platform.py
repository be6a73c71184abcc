"""The desktop decided in one place (``vision.platform.detect``), from a faked environment."""
from __future__ import annotations

import pytest

from vision.platform import detect


def environment(monkeypatch: pytest.MonkeyPatch, platform: str, display: str | None = None,
                session: str | None = None) -> None:
    monkeypatch.setattr("sys.platform", platform)
    for name, value in (("DISPLAY", display), ("XDG_SESSION_TYPE", session)):
        if value is None:
            monkeypatch.delenv(name, raising=False)
        else:
            monkeypatch.setenv(name, value)


def test_linux_with_an_x_display_is_x11(monkeypatch: pytest.MonkeyPatch) -> None:
    environment(monkeypatch, "linux", display=":3", session="x11")
    here = detect()
    assert (here.kind, here.screen, here.windows) == ("x11", True, True) and ":3" in here.reason


def test_a_bsd_with_an_x_display_is_x11(monkeypatch: pytest.MonkeyPatch) -> None:
    environment(monkeypatch, "freebsd14", display=":0")
    assert detect().kind == "x11"


def test_linux_without_a_display_has_no_screen_and_no_windows(monkeypatch: pytest.MonkeyPatch) -> None:
    environment(monkeypatch, "linux")
    here = detect()
    assert (here.kind, here.screen, here.windows) == ("none", False, False)
    assert "DISPLAY is not set" in here.reason


def test_wayland_refuses_the_screen_but_opens_windows_through_xwayland(monkeypatch: pytest.MonkeyPatch) -> None:
    environment(monkeypatch, "linux", display=":0", session="wayland")
    here = detect()
    assert (here.kind, here.screen, here.windows) == ("wayland", False, True)
    assert "Wayland" in here.reason and "X11 session" in here.reason


def test_wayland_without_xwayland_opens_no_window(monkeypatch: pytest.MonkeyPatch) -> None:
    environment(monkeypatch, "linux", session="Wayland")
    assert (detect().kind, detect().windows) == ("wayland", False)


@pytest.mark.parametrize("platform, kind", [("darwin", "macos"), ("win32", "windows")])
def test_macos_and_windows_need_no_display_variable(monkeypatch: pytest.MonkeyPatch, platform: str,
                                                    kind: str) -> None:
    environment(monkeypatch, platform, session="wayland")   # a stray variable changes nothing there
    here = detect()
    assert (here.kind, here.screen, here.windows) == (kind, True, True)
