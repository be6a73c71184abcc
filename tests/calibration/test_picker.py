"""The picker opens its window wherever the desktop can open one (``vision.platform``):
``open_picker`` chooses per desktop, ``pick`` (what the learners call) goes through it."""
from __future__ import annotations

import numpy as np
import pytest

from calibration.picker import PickCancelled, TkPicker, open_picker, pick
from vision.platform import Desktop


class Opened(Exception):
    """Raised by the faked Tk: the picker got as far as opening its window."""


def test_the_picker_refuses_without_a_display_on_linux(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr("sys.platform", "linux")
    monkeypatch.delenv("DISPLAY", raising=False)
    with pytest.raises(PickCancelled, match="no display .DISPLAY is not set"):
        pick(np.zeros((20, 20, 3), np.uint8), ("cell",))


@pytest.mark.parametrize("platform", ["darwin", "win32"])
def test_the_picker_opens_its_window_on_macos_and_windows(monkeypatch: pytest.MonkeyPatch, platform: str) -> None:
    pytest.importorskip("tkinter")

    def tk() -> None:
        raise Opened

    monkeypatch.setattr("sys.platform", platform)
    monkeypatch.delenv("DISPLAY", raising=False)   # as there: no such variable
    monkeypatch.setattr("tkinter.Tk", tk)
    with pytest.raises(Opened):
        pick(np.zeros((20, 20, 3), np.uint8), ("cell",))


@pytest.mark.parametrize("desktop", [Desktop("x11", "DISPLAY is :0", True), Desktop("windows", "sys.platform is win32", True),
                                     Desktop("macos", "sys.platform is darwin", True),
                                     Desktop("wayland", "a Wayland session", True)])   # XWayland opens our window
def test_the_factory_gives_the_tk_picker_where_a_window_opens(monkeypatch: pytest.MonkeyPatch, desktop: Desktop) -> None:
    pytest.importorskip("tkinter")
    monkeypatch.setattr("calibration.picker.detect", lambda: desktop)
    assert isinstance(open_picker(), TkPicker)


@pytest.mark.parametrize("desktop", [Desktop("none", "no X display: DISPLAY is not set", False),
                                     Desktop("wayland", "a Wayland session", False)])
def test_the_factory_refuses_where_no_window_opens(monkeypatch: pytest.MonkeyPatch, desktop: Desktop) -> None:
    pytest.importorskip("tkinter")
    monkeypatch.setattr("calibration.picker.detect", lambda: desktop)
    with pytest.raises(PickCancelled, match="opens a window, and there is no display .DISPLAY is not set"):
        open_picker()
