"""The overlay's platform part chosen by ``overlay.surface.see_through``, with Tk faked: the
X11 path itself is tested on Xvfb (tests/overlay/test_window.py)."""
from __future__ import annotations

import numpy as np
import pytest

import overlay.surface_x11
from overlay.surface import OverlayError, see_through
from overlay.surface_tk import KEY_COLOR, TransparentWindow


class FakeTk:
    """A toplevel or canvas that records what is asked of it."""

    def __init__(self) -> None:
        self.calls: list[tuple] = []

    def attributes(self, *args: object) -> None:
        self.calls.append(("attributes", *args))

    def configure(self, **options: object) -> None:
        self.calls.append(("configure", options))


def on(monkeypatch: pytest.MonkeyPatch, platform: str, display: str | None = ":0", session: str = "x11") -> None:
    monkeypatch.setattr("sys.platform", platform)
    monkeypatch.setenv("XDG_SESSION_TYPE", session)
    if display is None:
        monkeypatch.delenv("DISPLAY", raising=False)
    else:
        monkeypatch.setenv("DISPLAY", display)


def test_x11_overlays_are_cut_with_the_shape_extension(monkeypatch: pytest.MonkeyPatch) -> None:
    made = []
    monkeypatch.setattr(overlay.surface_x11, "ShapedWindow", lambda top: made.append(top) or "shaped")
    on(monkeypatch, "linux")
    top = FakeTk()
    assert see_through(top, FakeTk()) == "shaped" and made == [top]


def test_windows_overlays_make_the_key_colour_transparent(monkeypatch: pytest.MonkeyPatch) -> None:
    on(monkeypatch, "win32", display=None)
    top, canvas = FakeTk(), FakeTk()
    surface = see_through(top, canvas)
    assert isinstance(surface, TransparentWindow)
    assert canvas.calls == [("configure", {"bg": KEY_COLOR})]
    assert top.calls == [("attributes", "-transparentcolor", KEY_COLOR)]
    surface.show_only(np.zeros((4, 4), bool))   # the transparent background does it all
    assert len(top.calls) == 1 and len(canvas.calls) == 1


def test_macos_overlays_are_transparent_windows(monkeypatch: pytest.MonkeyPatch) -> None:
    on(monkeypatch, "darwin", display=None)
    top, canvas = FakeTk(), FakeTk()
    assert isinstance(see_through(top, canvas), TransparentWindow)
    assert canvas.calls == [("configure", {"bg": "systemTransparent"})]
    assert top.calls == [("attributes", "-transparent", True)]


@pytest.mark.parametrize("display, session, words", [(":0", "wayland", "Wayland"), (None, "x11", "DISPLAY is not set")])
def test_desktops_without_an_overlay_are_refused_with_the_reason(monkeypatch: pytest.MonkeyPatch, display: str | None,
                                                                 session: str, words: str) -> None:
    on(monkeypatch, "linux", display, session)
    with pytest.raises(OverlayError, match=f"no see-through overlay on this desktop: .*{words}"):
        see_through(FakeTk(), FakeTk())
