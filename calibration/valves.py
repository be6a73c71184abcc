"""Teach the valves vision a scene from one screenshot of the real game.

    puzzlepilot calibrate valves SHOT.png --name NAME --board GRAPH.txt

    puzzlepilot calibrate valves SHOT.png --name NAME --board GRAPH.txt --picks PICKS.json

The board is the puzzle's graph (docs/games.md#valves-board). Either every valve is open in the
screenshot (Machinarium's panel before the first wrench): the profile keeps the screenshot
as the open look and a valve reads closed when a red wrench covers its middle
(``"shut_look": "red wrench"``); or one valve the screenshot shows shut is listed as
``closed: NAME``: the profile learns the closed look from that valve (``"shut_look":
"template"``, our sewer). A window then asks for a box around the scene and a click on the
inlet, the outlet, every valve, and the rim of the first valve (which gives the valve's
size) — or ``--picks`` gives them as JSON, in screenshot pixels (see ``read_picks``)::

    {"box": [x, y, width, height], "inlet": [x, y], "outlet": [x, y],
     "valves": [[x, y], ...],          # in letter order A, B, C, … (or {"A": [x, y], ...})
     "rim": [x, y]}                    # a point on the rim of valve A (the first letter)

The profile's reference picture is the boxed part of the screenshot. Valves close by a
click; a game that needs the wrench picked up first takes ``"close": "wrench-then-click"``
and ``"wrench": [x, y]`` (reference picture pixels) in profile.json.
"""
from __future__ import annotations

import math
from pathlib import Path
from typing import Any

import numpy as np

from calibration.common import MIN_BOX, pick_numbers, read_picks_file
from solvers.valves import Board
from vision.profile import ProfileError
from vision.valves import crop_square

KINDS: tuple[str, ...] = ()     # what to click depends on the graph: see ``kinds``
WHEEL_TO_CROP = 2.3             # a valve crop's side, in wheel radii


def kinds(board: Board) -> tuple[str, ...]:
    """The points the window asks for, in order."""
    return (f"inlet {board.inlet}", f"outlet {board.outlet}", *(f"valve {v}" for v in board.valves),
            f"the rim of valve {board.valves[0]}")


def learn(image: np.ndarray, board: Board | None = None, region: Any = None,
          examples: dict[str, tuple[int, int]] | None = None) -> tuple[dict[str, Any], dict[str, np.ndarray]]:
    """profile.json's fields and the templates for a valves scene; opens the window for
    the box and points unless they are given."""
    if board is None:
        raise ProfileError("valves calibration needs the puzzle's graph: give --board FILE "
                           "(lines 'A B', 'inlet: X', 'outlet: Y', as 'puzzlepilot solve --help' shows; "
                           "with 'closed: NAME' if the screenshot shows a valve shut)")
    if region is None or examples is None or not set(kinds(board)) <= set(examples):
        from calibration.picker import pick

        region, examples = pick(image, kinds(board), title="calibrate valves: box the scene, then click each point")
    return build(image, board, tuple(region), examples)


def read_picks(path: Path, board: Board) -> tuple[tuple[int, int, int, int], dict[str, tuple[int, int]]]:
    """The box and the clicks (keyed as ``kinds`` names them) from a picks file; ProfileError
    naming the file and the field when it is not one."""
    where = f"picks file {path}"
    data = read_picks_file(path, ("box", "inlet", "outlet", "valves", "rim"))

    def numbers(field: str, value: Any, count: int) -> tuple[int, ...]:
        return pick_numbers(path, field, value, count)

    box = numbers("box", data["box"], 4)
    if box[2] < MIN_BOX or box[3] < MIN_BOX:
        raise ProfileError(f"{where}: field 'box' must be [x, y, width, height] with both sides at least {MIN_BOX} px")
    valves, letters = data["valves"], sorted(board.valves)
    if isinstance(valves, dict):
        if set(valves) != set(letters):
            raise ProfileError(f"{where}: field 'valves' must name exactly the graph's valves ({' '.join(letters)})")
        valves = [valves[v] for v in letters]
    elif not isinstance(valves, list) or len(valves) != len(letters):
        raise ProfileError(f"{where}: field 'valves' must list {len(letters)} points, one per valve "
                           f"in letter order ({' '.join(letters)})")
    clicks = {f"inlet {board.inlet}": numbers("inlet", data["inlet"], 2),
              f"outlet {board.outlet}": numbers("outlet", data["outlet"], 2),
              **{f"valve {v}": numbers(f"valves[{i}]", p, 2) for i, (v, p) in enumerate(zip(letters, valves))}}
    # The rim is given on the first valve in letter order; the window asks for it on the
    # graph's first valve, so it is carried over there (only its distance counts).
    (rx, ry), (ax, ay) = numbers("rim", data["rim"], 2), clicks[f"valve {letters[0]}"]
    fx, fy = clicks[f"valve {board.valves[0]}"]
    clicks[f"the rim of valve {board.valves[0]}"] = (fx + rx - ax, fy + ry - ay)
    return box, clicks  # type: ignore[return-value]   (tuples of 4 and of 2 numbers, checked above)


def build(image: np.ndarray, board: Board, region: tuple[int, int, int, int],
          examples: dict[str, tuple[int, int]]) -> tuple[dict[str, Any], dict[str, np.ndarray]]:
    """The profile from a box around the scene and the clicked points (image pixels)."""
    shut = sorted(board.closed)
    opened = [v for v in board.valves if v not in board.closed]
    if not opened:
        raise ProfileError("at least one valve must be open in the screenshot")
    x0, y0, w, h = region
    if x0 + w > image.shape[1] or y0 + h > image.shape[0]:
        raise ProfileError(f"the box {list(region)} reaches outside the {image.shape[1]}x{image.shape[0]} screenshot")
    reference = image[y0:y0 + h, x0:x0 + w].copy()

    def inside(kind: str) -> list[float]:
        px, py = examples[kind]
        if not (x0 <= px < x0 + w and y0 <= py < y0 + h):
            raise ProfileError(f"the click for {kind} is outside the box around the scene")
        return [float(px - x0), float(py - y0)]

    first = board.valves[0]
    (cx, cy), (rx, ry) = examples[f"valve {first}"], examples[f"the rim of valve {first}"]
    radius = math.hypot(rx - cx, ry - cy)
    if radius < 4:
        raise ProfileError(f"the rim of valve {first} was clicked too near its centre ({radius:.0f} px)")
    size = round(WHEEL_TO_CROP * radius)
    valves = {v: inside(f"valve {v}") for v in board.valves}
    looks = {}
    for key, name in (("open", opened[0]), ("closed", shut[0])) if shut else (("open", opened[0]),):
        look = crop_square(reference, valves[name], size)
        if look is None:
            raise ProfileError(f"valve {name} is too near the edge of the box for a {size}x{size} crop")
        looks[key] = look
    graph = Board(board.pipes, board.inlet, board.outlet, board.wrenches)
    data = {"graph": graph.to_text().replace("\n", "/"),
            "inlet": inside(f"inlet {board.inlet}"), "outlet": inside(f"outlet {board.outlet}"),
            "valves": valves, "valve_size": size, "reference_shut": shut, "close": "click",
            "shut_look": "template" if shut else "red wrench"}
    return data, {"reference": reference, **looks}
