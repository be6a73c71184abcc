"""Valves (Machinarium): an answer as clicks on the valves, and as rings around them.

``plan`` closes each valve of the answer the way the profile says: a click on the valve,
or a click on the wrench first and then on the valve. ``hints`` puts a numbered red disc
on every valve to close and a label naming it, sized from the wheel's measured radius.
Positions come from the parse (``geometry["names"]`` names ``cells``), so the hints follow
the scene wherever and however large it is on screen.
"""
from __future__ import annotations

from typing import Any

from overlay.actions import Action, Click
from overlay.draw import Label, Marker, Shape
from vision.common import Parse

CLOSE = (220, 38, 38)       # red: "shut this one"


def positions(parse: Parse) -> dict[str, tuple[float, float]]:
    """Every named point's image position (valves, inlet, outlet, and ``wrench`` if any)."""
    return dict(zip(parse.geometry["names"], parse.cells))


def plan(parse: Parse, solution: Any) -> list[Action]:
    """The clicks that close the answer's valves, in the answer's order."""
    at = positions(parse)
    actions: list[Action] = []
    for name in solution:
        if parse.geometry.get("close") == "wrench-then-click":
            actions.append(Click(at["wrench"]))
        actions.append(Click(at[name]))
    return actions


def hints(parse: Parse, solution: Any) -> list[Shape]:
    """A numbered disc on each valve to close, with its name beside it."""
    at = positions(parse)
    r = parse.geometry["radius"]
    shapes: list[Shape] = []
    for k, name in enumerate(solution, start=1):
        x, y = at[name]
        shapes.append(Marker((x, y), 0.8 * r, CLOSE, label=str(k)))
        shapes.append(Label((x, y + 1.5 * r), f"close {name}", size=max(10.0, 0.6 * r)))
    return shapes
