"""Games' own menus: how ``live --next`` picks the next puzzle through a game's menu once a
level is over, with keys sent only to the game's own windows (each while it has the focus).

One record per program (:data:`MENUS`, found by the game window's program name). GNOME
Klotski (Debian ``gnome-klotski`` 3.38), as playing it shows:

- a puzzle solved: the window is retitled "Level completed." and a scores dialog opens (a
  window that belongs to the game's; "Congratulations!" when the score makes its top ten,
  none otherwise); Escape closes it, its name field untouched;
- Ctrl+N opens the "Change Puzzle" menu inside the window (and closes it: it toggles); while
  it is open, Down plays the next puzzle (after a pack's last, the first of the next pack;
  after the very last, nothing) and retitles the window with its name; Escape closes it.

Each key waits for the game to show the last one's effect (the picture changed, the title,
the dialog gone, the picture still again), never a fixed time: keys sent faster than the game takes
them leave its menu open, and the next Ctrl+N would close it instead.
"""
from __future__ import annotations

import time
from dataclasses import dataclass
from typing import Callable, Protocol

import numpy as np

from overlay.actions import Key, describe
from overlay.driver import InputDriver
from vision.capture import WindowInfo

WAIT = 3.0              # s the game may take to show a key's effect
QUIET = 0.3             # s a picture must stay the same to have settled (a menu fades in after a pause)
AGAIN = 1.0             # s before a key the game did not take yet is sent again
DIALOG_WAIT = 5.0       # s it may take to open its scores dialog once it says the level is done
POLL = 0.05             # s between two looks


class MenuError(Exception):
    """The game's menu did not do what it does; the message says what was awaited."""


@dataclass(frozen=True)
class Menu:
    """How a game offers its next puzzle: the keys of its menu and what it shows."""

    game: str               # its name, for messages
    program: str            # a word of its window's program name (X11: WM_CLASS)
    done_title: str         # its window's title once a puzzle is solved (a dialog then opens)
    close_dialog: Key
    open_menu: Key
    next_item: Key
    close_menu: Key


MENUS = (Menu("GNOME Klotski", "gnome-klotski", "Level completed.", Key("escape"), Key("n", ("ctrl",)),
              Key("down"), Key("escape")),)


def menu_for(program: str) -> Menu | None:
    """The menu of the program named (a window's program names, as ``WindowSource.program``
    gives them), or None when none is known."""
    return next((menu for menu in MENUS if menu.program in program.split()), None)


class GameWindow(Protocol):
    """The game's window as the menu needs it (``vision.capture.WindowSource``)."""

    def current_title(self) -> str:
        ...

    def focus(self) -> None:
        ...

    def has_focus(self) -> bool:
        ...

    def dialogs(self) -> list[WindowInfo]:
        ...


def wait_for(condition: Callable[[], object], seconds: float) -> bool:
    """Whether ``condition()`` came true within ``seconds`` (looked at every POLL)."""
    deadline = time.monotonic() + seconds
    while not condition():
        if time.monotonic() > deadline:
            return False
        time.sleep(POLL)
    return True


def settled(grab: Callable[[], np.ndarray]) -> np.ndarray:
    """A picture that stayed the same for QUIET seconds (the last one after WAIT)."""
    last, since = grab(), time.monotonic()
    deadline = since + WAIT
    while time.monotonic() < deadline:
        time.sleep(POLL)
        image = grab()
        if not (image.shape == last.shape and np.array_equal(image, last)):
            last, since = image, time.monotonic()
        elif time.monotonic() - since >= QUIET:
            break
    return last


def pick_next(menu: Menu, window: GameWindow, driver: InputDriver, dialog_keys: Callable[[int, list[Key]], None],
              grab: Callable[[], np.ndarray]) -> str | None:
    """Pick the puzzle after the one on show through ``menu``: close the scores dialog a
    solved puzzle opens, open the menu, take its next puzzle, close the menu again.
    ``driver`` sends keys to the game's window, ``dialog_keys(id, keys)`` to its dialog;
    ``grab`` is the window's picture (without our hints). Returns the next puzzle's title,
    or None when the menu has none after this one (the window keeps its title). MenuError
    when the game does not answer a key as it does."""
    if window.current_title() == menu.done_title:
        wait_for(window.dialogs, DIALOG_WAIT)     # none when the score did not make the top ten
    for _, _, dialog in window.dialogs():
        dialog_keys(dialog, [menu.close_dialog])
    if not wait_for(lambda: not window.dialogs(), WAIT):
        raise MenuError(f"{menu.game}'s dialog did not close ({describe(menu.close_dialog)})")
    # focused first: a window taking the focus redraws its title bar, which is no menu opening
    window.focus()
    if not wait_for(window.has_focus, WAIT):
        raise MenuError(f"{menu.game}'s window did not take the keyboard focus; no key was sent")
    title = window.current_title()
    closed = settled(grab)
    driver.perform([menu.open_menu])
    if not wait_for(lambda: not np.array_equal(grab(), closed), WAIT):
        raise MenuError(f"{menu.game}'s menu did not open ({describe(menu.open_menu)})")
    settled(grab)       # opened all the way (it fades in), ready for its keys
    # A key the menu is not ready for yet is lost: sent again while the title stays (after
    # the last puzzle it stays: the menu has no next one).
    deadline, moved = time.monotonic() + WAIT, False
    while not moved and time.monotonic() < deadline:
        driver.perform([menu.next_item])
        moved = wait_for(lambda: window.current_title() != title, AGAIN)
    opened = settled(grab)
    driver.perform([menu.close_menu])
    if not wait_for(lambda: not np.array_equal(grab(), opened), WAIT):
        raise MenuError(f"{menu.game}'s menu did not close ({describe(menu.close_menu)})")
    settled(grab)
    return window.current_title() if moved else None
