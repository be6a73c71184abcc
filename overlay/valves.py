"""Valves (Machinarium): an answer as clicks on the valves, and as rings around them.

``plan`` closes each valve of the answer the way the profile says: a click on the valve,
or a click on the wrench first and then on the valve. ``hints`` draws what ``solve``
prints: a title with the answer ("close 2 valves: B, H"), and on every valve to close, in
order, a red ring (the valve stays visible), its number on the ring and the step's words
below ("1. close B"), sized from the valve's measured radius.
Positions come from the parse (``geometry.names`` names ``cells``), so the hints follow
the scene wherever and however large it is on screen.
"""
from __future__ import annotations

from typing import Any

from overlay.actions import Action, Click
import math

from overlay.draw import Label, Marker, Polyline, Shape
from vision.common import Parse
from vision.valves import ValvesGeometry

CLOSE = (220, 38, 38)       # red: "shut this one"


def positions(parse: Parse[ValvesGeometry]) -> dict[str, tuple[float, float]]:
    """Every named point's image position (valves, inlet, outlet, and ``wrench`` if any)."""
    return dict(zip(parse.geometry.names, parse.cells))


def plan(parse: Parse[ValvesGeometry], solution: Any) -> list[Action]:
    """The clicks that close the answer's valves, in the answer's order."""
    at = positions(parse)
    actions: list[Action] = []
    for name in solution:
        if parse.geometry.close == "wrench-then-click":
            actions.append(Click(at["wrench"]))
        actions.append(Click(at[name]))
    return actions


def step(k: int, name: str) -> str:
    """The words of the k-th step, as ``solvers.valves.show`` prints them."""
    return f"{k}. close {name}"


def hints(parse: Parse[ValvesGeometry], solution: Any) -> list[Shape]:
    """The answer as a title, and a numbered ring with the step's words on each valve to
    close (module doc)."""
    at = positions(parse)
    r = parse.geometry.radius
    size = max(11.0, 0.5 * r)
    shapes: list[Shape] = []
    if solution:
        xs, ys = [x for x, _ in at.values()], [y for _, y in at.values()]
        title = f"close {len(solution)} valve{'s' if len(solution) != 1 else ''}: {', '.join(solution)}"
        shapes.append(Label(((min(xs) + max(xs)) / 2, max(size, min(ys) - 1.5 * r)), title, size=1.3 * size))
    for k, name in enumerate(solution, start=1):
        x, y = at[name]
        ring = tuple((x + 1.05 * r * math.cos(a), y + 1.05 * r * math.sin(a))
                     for a in (2 * math.pi * i / 32 for i in range(33)))
        shapes.append(Polyline(ring, CLOSE, width=max(3.0, 0.12 * r), arrows="none"))
        shapes.append(Marker((x - 0.75 * r, y - 0.75 * r), max(9.0, 0.38 * r), CLOSE, label=str(k)))
        shapes.append(Label((x, y + 1.05 * r + size), step(k, name), size=size))
    return shapes
