"""Shared fixtures: ``display`` starts one Xvfb for the whole session (``tests.display.desktop``
adds a window manager and a compositor to it).

Display tests skip only when Xvfb or tkinter is not installed (saying which), and are marked ``display`` on their
own. pyautogui binds ``DISPLAY`` at import, so display tests import it inside the test,
after this fixture has run.

Each game of the registry is a marker too (``pytest -m lyne``): a test carries it when
the game's name is a word of its file's path or of its name (parameters included).
"""
from __future__ import annotations

import importlib
import os
import re
import shutil
from typing import Callable, Iterator

import pytest
from hypothesis import settings

from puzzlepilot.games import GAMES
from tests.display import TkWindow
from vision.capture import Rect

SCREEN = (1280, 800)

# CI runs the same examples every time (a red run is reproducible, and random exploration
# belongs to developers' runs); elsewhere hypothesis explores afresh.
settings.register_profile("ci", derandomize=True, database=None, print_blob=True)
if os.environ.get("CI"):
    settings.load_profile("ci")


def pytest_configure(config: pytest.Config) -> None:
    for game in GAMES.values():
        config.addinivalue_line("markers", f"{game.name}: a test of {game.title} "
                                           "(the name is a word of its path or name)")


def pytest_collection_modifyitems(items: list[pytest.Item]) -> None:
    """Every test that uses the display is marked ``display`` (``-m "not display"`` skips
    them); every test whose path or name has a game's name as a word is marked with it."""
    for item in items:
        if "display" in getattr(item, "fixturenames", ()):
            item.add_marker(pytest.mark.display)
        for game in GAMES.keys() & set(re.split(r"[^a-z0-9]+", item.nodeid.lower())):
            item.add_marker(game)


@pytest.fixture(scope="session")
def display() -> Iterator[str]:
    """A private Xvfb screen (1280×800) as DISPLAY for the session: the one Xvfb starter the
    demo and the benchmarks use too (``puzzlepilot.demo.private_display``)."""
    if shutil.which("Xvfb") is None:
        pytest.skip("Xvfb is not installed (Debian/Ubuntu: apt-get install xvfb)")
    try:
        importlib.import_module("tkinter")      # every window here is Tk
    except ImportError:
        pytest.skip("tkinter is not installed (Debian/Ubuntu: apt-get install python3-tk)")
    from puzzlepilot.demo import private_display

    with private_display(SCREEN) as name, pytest.MonkeyPatch.context() as env:
        env.setenv("XDG_SESSION_TYPE", "x11")
        yield name


@pytest.fixture
def tk_window(display: str) -> Iterator[Callable[..., TkWindow]]:
    """Opens Tk windows in helper processes (``tk_window(title, Rect, color)``); closes them after."""
    opened: list[TkWindow] = []

    def open_window(title: str, rect: Rect, color: str = "#20a040") -> TkWindow:
        window = TkWindow(title, rect, color)
        opened.append(window)
        return window

    yield open_window
    for window in opened:
        window.close()


@pytest.fixture(autouse=True, scope="session")
def table_cache(tmp_path_factory: pytest.TempPathFactory) -> Iterator[None]:
    """The solvers' table cache (solvers.tables) goes to a folder of this session, not the
    user's cache."""
    saved = os.environ.get("PUZZLEPILOT_CACHE")
    os.environ["PUZZLEPILOT_CACHE"] = str(tmp_path_factory.mktemp("table-cache"))
    yield
    if saved is None:
        os.environ.pop("PUZZLEPILOT_CACHE", None)
    else:
        os.environ["PUZZLEPILOT_CACHE"] = saved
