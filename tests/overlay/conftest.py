"""``desktop``: a test of windows and input run three times, on the session's bare Xvfb,
under a window manager (openbox) and under openbox with the picom compositor, whose title
bars and compositing move and change what is seen (``tests.display.desktop``)."""
from __future__ import annotations

from typing import Iterator

import pytest

from tests.display import DESKTOPS
from tests.display import desktop as desktop_running


@pytest.fixture(params=DESKTOPS)
def desktop(request: pytest.FixtureRequest, display: str) -> Iterator[str]:
    """The session's Xvfb as it is, or with a window manager (and compositor) running for
    the test."""
    with desktop_running(request.param) as kind:
        yield kind
