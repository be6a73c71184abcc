"""Shared fixtures: ``display`` starts one Xvfb for the whole session.

Display tests skip only when Xvfb or tkinter is not installed (saying which), and are marked ``display`` on their
own. pyautogui binds ``DISPLAY`` at import, so display tests import it inside the test,
after this fixture has run.
"""
from __future__ import annotations

import os
import select
import shutil
import subprocess
import time
from typing import Callable, Iterator

import pytest
from hypothesis import settings

from tests.display import TkWindow
from vision.capture import Rect

# CI runs the same examples every time (a red run is reproducible, and random exploration
# belongs to developers' runs); elsewhere hypothesis explores afresh.
settings.register_profile("ci", derandomize=True, database=None, print_blob=True)
if os.environ.get("CI"):
    settings.load_profile("ci")


def pytest_collection_modifyitems(items: list[pytest.Item]) -> None:
    """Every test that uses the display is marked ``display`` (``-m "not display"`` skips them)."""
    for item in items:
        if "display" in getattr(item, "fixturenames", ()):
            item.add_marker(pytest.mark.display)


def _start_xvfb() -> tuple[subprocess.Popen[bytes], str]:
    read_end, write_end = os.pipe()
    proc = subprocess.Popen(["Xvfb", "-displayfd", str(write_end), "-screen", "0", "1280x800x24",
                             "-nolisten", "tcp"], pass_fds=(write_end,),
                            stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    os.close(write_end)
    # Read the display number up to the newline before closing the pipe: closing early kills Xvfb.
    number, deadline = b"", time.monotonic() + 10
    try:
        while not number.endswith(b"\n"):
            if not select.select([read_end], [], [], max(0.0, deadline - time.monotonic()))[0]:
                break
            chunk = os.read(read_end, 16)
            if not chunk:
                break
            number += chunk
    finally:
        os.close(read_end)
    if not number.strip():
        proc.kill()
        proc.wait()
        pytest.fail("Xvfb did not report a display number")
    return proc, f":{number.decode().strip()}"


@pytest.fixture(scope="session")
def display(tmp_path_factory: pytest.TempPathFactory) -> Iterator[str]:
    """A private Xvfb screen (1280×800) as DISPLAY, with an empty XAUTHORITY file."""
    if shutil.which("Xvfb") is None:
        pytest.skip("Xvfb is not installed (Debian/Ubuntu: apt-get install xvfb)")
    try:
        import tkinter  # noqa: F401  (every window here is Tk)
    except ImportError:
        pytest.skip("tkinter is not installed (Debian/Ubuntu: apt-get install python3-tk)")
    proc, name = _start_xvfb()
    auth = tmp_path_factory.mktemp("xvfb") / "Xauthority"
    auth.touch()
    with pytest.MonkeyPatch.context() as env:
        env.setenv("DISPLAY", name)
        env.setenv("XAUTHORITY", str(auth))
        env.setenv("XDG_SESSION_TYPE", "x11")
        try:
            yield name
        finally:
            proc.terminate()
            proc.wait(timeout=5)


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
