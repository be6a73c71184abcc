"""LYNE: each shape's path as one drag, and as a line in the shape's own colour.

The game draws a path while the mouse is held from one terminal, through each node, to
the other terminal, so ``plan`` is one drag per shape through the node centres. ``hints``
draws every path (or, with ``step``, only the step-th one, for one-path-at-a-time hints)
in the colour vision measured for that shape, over a dark halo so it reads on top of the
shape's own nodes, with an arrow per step and a disc on the starting terminal labelled with
the order and the shape ("1d"), as ``solve`` prints them. Paths sharing a hub pass it a little
apart, so each stays visible.
"""
from __future__ import annotations

from overlay.actions import Action, Drag
from overlay.draw import Marker, Polyline, Shape
from vision.common import Parse
from vision.lyne import LyneGeometry

HALO = (30, 30, 30)
FALLBACK = {"t": (120, 200, 120), "d": (40, 120, 200), "s": (210, 90, 50)}   # when vision gave none
OTHER = (230, 60, 160)


def path_points(parse: Parse[LyneGeometry], path: list[list[int]]) -> tuple[tuple[float, float], ...]:
    """The image positions of a path's nodes, in order."""
    cols = parse.geometry.cols
    return tuple(parse.cells[r * cols + c] for r, c in path)


def plan(parse: Parse[LyneGeometry], solution: dict[str, list[list[int]]]) -> list[Action]:
    """Per shape, one drag from a terminal through its path's node centres to the other."""
    return [Drag(points=path_points(parse, solution[shape])) for shape in sorted(solution)]


def steps(solution: dict[str, list[list[int]]]) -> int:
    """Hints come one path at a time with ``step`` (the board reads the same while a path
    is drawn, so there is no ``progress``: the live loop moves on when the frame settles)."""
    return len(solution)


def hints(parse: Parse[LyneGeometry], solution: dict[str, list[list[int]]], step: int | None = None) -> list[Shape]:
    """Every shape's path in its colour, or only path number ``step`` (0-based, in the
    order ``plan`` plays them)."""
    shapes_in_order = sorted(solution)
    if step is not None:
        if not 0 <= step < len(shapes_in_order):
            raise ValueError(f"step {step} is out of range: the solution has {len(shapes_in_order)} paths")
        shapes_in_order = [shapes_in_order[step]]
    pitch = parse.geometry.pitch
    colours = parse.geometry.colours
    order = sorted(solution)
    through = _hub_visitors(parse, solution)
    out: list[Shape] = []
    for shape in shapes_in_order:
        points = path_points(parse, solution[shape])
        points = tuple(_apart(point, shape, through.get(tuple(node), []), pitch)
                       for point, node in zip(points, solution[shape]))
        colour = colours.get(shape, FALLBACK.get(shape, OTHER))
        out.append(Polyline(points, HALO, width=0.16 * pitch, arrows="none"))
        out.append(Polyline(points, colour, width=0.08 * pitch, arrows="each"))
        # "1d": the order the paths are played in and the shape, as ``solve`` prints them
        out.append(Marker(points[0], 0.2 * pitch, colour, label=f"{order.index(shape) + 1}{shape}"))
    return out


HUB_SPREAD = 0.14   # × pitch between the lines of paths sharing a hub


def _hub_visitors(parse: Parse[LyneGeometry], solution: dict[str, list[list[int]]]) -> dict[tuple[int, int], list[str]]:
    """Per hub node crossed by more than one path, the shapes whose paths cross it, in play order."""
    grid = parse.board.grid
    seen: dict[tuple[int, int], list[str]] = {}
    for shape in sorted(solution):
        for r, c in solution[shape]:
            if grid[r][c] in "1234" and shape not in seen.setdefault((r, c), []):
                seen[(r, c)].append(shape)
    return {node: shapes for node, shapes in seen.items() if len(shapes) > 1}


def _apart(point: tuple[float, float], shape: str, visitors: list[str], pitch: float) -> tuple[float, float]:
    """A hub's centre moved aside for one of the paths sharing it, so each path's line, arrows
    and turns stay visible instead of running into another path's (a diagonal shift, since
    lines through a hub run in the 8 other directions)."""
    if shape not in visitors:
        return point
    shift = (visitors.index(shape) - (len(visitors) - 1) / 2) * HUB_SPREAD * pitch
    return (point[0] + shift, point[1] - shift * 0.5)
