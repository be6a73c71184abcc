"""``live --next``: the next puzzle picked through the game's own menu (no display: a fake
of GNOME Klotski's window that behaves as the game does), and the live loop going on to it
or stopping after the last. The real game is played so in tests/live/test_gnome_klotski.py."""
from __future__ import annotations

import time

import numpy as np
import pytest

import puzzlepilot.menus as menus
from overlay.actions import describe
from puzzlepilot.live import LiveLoop, Watcher
from puzzlepilot.menus import MENUS, MenuError, menu_for, pick_next
from tests.helpers import run_cli
from tests.live.fakes import FakeSource
from puzzlepilot.scenes.klotski import scrambled
from solvers.klotski import layout
from tests.live.test_klotski import GAME, START, MovingDriver, frame, positions
from vision.capture import Rect

MENU = MENUS[0]
PUZZLES = ["Only 18 Steps", "Daisy", "Violet"]


class FakeKlotski:
    """GNOME Klotski's window as the menu sees it: a solved puzzle's title and scores dialog;
    Ctrl+N toggles the Change Puzzle menu, which takes Down (the next puzzle, none after the
    last) only ``lost`` Downs after it opened; Escape closes it. Keys reach it only while it
    has the focus, which its dialog keeps while open. ``sent`` lists (window, key)."""

    def __init__(self, at: int = 0, dialog: bool = True, lost: int = 0) -> None:
        self.at, self.dialog, self.lost = at, dialog, lost
        self.title = MENU.done_title
        self.open = self.focused = False
        self.sent: list[tuple[str, str]] = []

    def current_title(self) -> str:
        return self.title

    def dialogs(self) -> list[tuple[str, Rect, int]]:
        return [("Congratulations!", Rect(10, 10, 40, 50), 7)] if self.dialog else []

    def focus(self) -> None:
        self.focused = not self.dialog

    def has_focus(self) -> bool:
        return self.focused

    def grab(self) -> np.ndarray:
        return np.full((6, 8, 3), (self.at, int(self.open), 0), np.uint8)

    def perform(self, actions: list) -> None:
        for action in actions:
            key = describe(action).removeprefix("key ")
            self.sent.append(("game", key))
            assert self.focused, "a key sent while the game's window has no focus"
            if key == "ctrl+n":
                self.open = not self.open
            elif key == "down" and self.open:
                if self.lost:
                    self.lost -= 1
                elif self.at + 1 < len(PUZZLES):
                    self.at += 1
                    self.title = PUZZLES[self.at]
            elif key == "escape":
                self.open = False

    def dialog_keys(self, wid: int, keys: list) -> None:
        assert wid == 7 and self.dialog
        self.sent += [("dialog", describe(key).removeprefix("key ")) for key in keys]
        self.dialog = not keys == [MENU.close_dialog]


@pytest.fixture(autouse=True)
def fast(monkeypatch: pytest.MonkeyPatch) -> None:
    for name, seconds in (("WAIT", 0.6), ("DIALOG_WAIT", 0.3), ("QUIET", 0.05), ("AGAIN", 0.15)):
        monkeypatch.setattr(menus, name, seconds)


def pick(game: FakeKlotski) -> str | None:
    return pick_next(MENU, game, game, game.dialog_keys, game.grab)


def test_the_scores_dialog_is_closed_then_the_menu_gives_the_next_puzzle_and_is_closed() -> None:
    game = FakeKlotski()
    assert pick(game) == "Daisy"
    assert game.sent == [("dialog", "escape"), ("game", "ctrl+n"), ("game", "down"), ("game", "escape")]
    assert not game.open and not game.dialog


def test_a_down_the_menu_was_not_ready_for_is_sent_again_and_no_puzzle_is_skipped() -> None:
    game = FakeKlotski(dialog=False, lost=2)
    game.title = PUZZLES[0]     # not solved (a puzzle the solver gave up on): no dialog is awaited
    assert pick(game) == "Daisy" and game.at == 1
    assert [key for _, key in game.sent] == ["ctrl+n", "down", "down", "down", "escape"]


def test_after_the_last_puzzle_the_menu_gives_none_and_is_closed() -> None:
    game = FakeKlotski(at=len(PUZZLES) - 1)
    assert pick(game) is None
    assert game.title == MENU.done_title and not game.open


def test_a_menu_that_does_not_open_is_an_error_saying_so() -> None:
    game = FakeKlotski(dialog=False)
    game.perform = lambda actions: None     # the keys reach nothing
    game.focused = True
    with pytest.raises(MenuError, match="menu did not open"):
        pick(game)


def test_the_menu_is_known_by_the_window_program() -> None:
    assert menu_for("gnome-klotski gnome-klotski") is MENU
    assert menu_for("klotski-web firefox") is None and menu_for("") is None


def test_the_loop_plays_the_next_puzzle_the_menu_gives_and_stops_after_the_last() -> None:
    """Each level played, then the next puzzle picked (its board shows), until the menu
    has none: the loop ends saying so."""
    way, then = positions(START), positions(scrambled(layout("横刀立马"), 75, 0))
    source = FakeSource([frame(b) for b in way])
    picked: list[int] = []

    def next_puzzle() -> str | None:
        picked.append(len(picked))
        if len(picked) > 1:
            return None
        source.frames[:] = [frame(b) for b in then]     # the next puzzle
        return "Daisy"

    lines: list[str] = []
    loop = LiveLoop(source, Watcher([GAME]), lines.append, driver=MovingDriver(source), fps=100,
                    next_puzzle=next_puzzle)
    loop.run(time.monotonic() + 30)
    played = [line for line in lines if line.startswith("level ")]
    assert len(played) == 2 and all(line.endswith("played") for line in played)
    assert lines[-1] == "the game has no puzzle after this one: stopping" and "next puzzle: Daisy" in lines


def test_no_puzzle_is_picked_after_the_last_level_asked_for() -> None:
    way = positions(START)
    source = FakeSource([frame(b) for b in way])
    asked: list[str] = []
    lines: list[str] = []
    LiveLoop(source, Watcher([GAME]), lines.append, driver=MovingDriver(source), fps=100, levels=1,
             next_puzzle=lambda: asked.append("next") or "Daisy").run(time.monotonic() + 30)
    assert asked == [] and lines[-1].endswith("played")


@pytest.mark.parametrize("argv, message", [
    (["live", "--window", "Klotski", "--next"], "--next go with --play"),
    (["live", "--window", "Klotski", "--play", "--dry-run", "--next"], "--next goes with a real play"),
    (["live", "--region", "0,0,600,500", "--play", "--next"], "--next needs --window or --window-id"),
])
def test_bad_next_options_are_one_line_and_status_2(argv: list[str], message: str) -> None:
    status, out, err = run_cli(argv)
    assert status == 2 and out == "" and err.count("\n") == 1 and message in err, err


def test_next_in_a_game_whose_menu_is_not_known_is_refused_before_anything_is_sent(tk_window) -> None:
    tk_window("some puzzle game", Rect(100, 100, 300, 200))
    status, out, err = run_cli(["live", "--window", "some puzzle game", "--play", "--next", "--hints", "none"])
    assert status == 2 and out == "" and err.count("\n") == 1
    assert "--next knows the menus of GNOME Klotski" in err, err
