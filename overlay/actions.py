"""Screen actions a planner produces and the driver performs, in screen coordinates."""
from __future__ import annotations

from dataclasses import dataclass

Point = tuple[float, float]


@dataclass(frozen=True)
class Drag:
    """Press at the first point, move through every point in order, release at the last;
    with ``rest``, stay that many seconds on each point after the first (a game that takes
    a cell only once the pointer rests on it)."""

    points: tuple[Point, ...]
    rest: float = 0.0


@dataclass(frozen=True)
class Click:
    point: Point


@dataclass(frozen=True)
class Key:
    """A key press by pyautogui name (``"left"``, ``"a"``, ``"space"``), with modifier
    keys held around it (``("ctrl",)``: Ctrl+key)."""

    key: str
    mods: tuple[str, ...] = ()


Action = Drag | Click | Key


def action_points(action: Action) -> tuple[Point, ...]:
    """Every screen point an action touches (none for a key)."""
    if isinstance(action, Drag):
        return action.points
    if isinstance(action, Click):
        return (action.point,)
    return ()


def describe(action: Action) -> str:
    """One line for people and for ``--dry-run``."""
    if isinstance(action, Drag):
        pts = " → ".join(f"({x:.0f},{y:.0f})" for x, y in action.points)
        return f"drag {pts}" + (f", resting {action.rest:g} s on each" if action.rest else "")
    if isinstance(action, Click):
        return f"click ({action.point[0]:.0f},{action.point[1]:.0f})"
    return f"key {'+'.join((*action.mods, action.key))}"
