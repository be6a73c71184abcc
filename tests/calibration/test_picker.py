"""The picker opens its window wherever the desktop can open one (``vision.platform``)."""
from __future__ import annotations

import numpy as np
import pytest

from calibration.picker import PickCancelled, pick


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
