"""Ring-battle hints as a player sees them in ``solve --annotate``: on the real capture
(tilted camera) and on rendered battles (tilted and overhead), a turned ring carries the
move's colour round most of its ellipse and its heads point the way the move turns; the
text says each move in a player's words, numbered as the picture numbers them (issue 29)."""
from __future__ import annotations

import re
from pathlib import Path

import cv2
import numpy as np
import pytest

from overlay.draw import Polyline, render
from overlay.rings import COLOURS, hints
from puzzlepilot.scenes.rings import render_camera
from solvers.rings import Board, generate, solve
from tests.helpers import run_cli
from tests.overlay.test_rings_plan import heading
from vision.common import Parse, load_image
from vision.rings import Arena, RingsGeometry, parse

CAPTURE = Path(__file__).resolve().parents[2] / ".." / "shared" / "real" / "rings" / "origami_ring_moves2.png"
NAMES = {0: "outer", 1: "second from the outside", 2: "second from the centre", 3: "inner"}
COUNTS = "one|two|three|four|five|six"
LINE = re.compile(rf"^(\d)\. (?:turn ring (\d) \(([a-z ]+)\) (?:{COUNTS}) steps? (clockwise|anticlockwise)"
                  rf"|slide line (\d) (?:{COUNTS}) steps? (inward|outward) at slice \5)$")


def ring_share(picture: np.ndarray, arena: Arena, ring: int, colour: tuple[int, int, int]) -> float:
    """The share of a ring's angles (every 2°) at which a pixel across the ring is the colour."""
    edges = arena.radii
    radius = np.linspace(edges[ring + 1], edges[ring], 12)[:, None]
    angle = np.radians(np.arange(0, 360, 2) + arena.phase)[None, :]
    x, y = (np.round(c).astype(int) for c in arena.project(-radius * np.cos(angle), radius * np.sin(angle)))
    inside = (x >= 0) & (x < picture.shape[1]) & (y >= 0) & (y < picture.shape[0])
    seen = picture[np.clip(y, 0, picture.shape[0] - 1), np.clip(x, 0, picture.shape[1] - 1)].astype(int)
    near = (np.abs(seen - np.array(colour[::-1])).max(axis=2) <= 40) & inside
    return float(near.any(axis=0).mean())


def check_annotation(picture: np.ndarray, found: Parse, solution: list) -> None:
    """Every turn shows round most of its ring in its move's colour, and nowhere near as much
    round the other rings; its heads all point its way."""
    arena = found.geometry.arena
    shapes = hints(found, solution)
    for n, move in enumerate(solution):
        if move["op"] == "rotate":
            colour = COLOURS[n % len(COLOURS)]
            shares = [ring_share(picture, arena, ring, colour) for ring in range(4)]
            assert shares[move["ring"]] > 0.6, shares
            assert max(s for r, s in enumerate(shares) if r != move["ring"]) < 0.5, shares
            turns = [d for line in shapes if isinstance(line, Polyline) and line.color == colour
                     for d in heading(line, arena)]
            assert turns and all(d * move["steps"] > 0 for d in turns)


def check_words(text: str, solution: list) -> None:
    """The text numbers the moves as the picture does and says each in a player's words."""
    said = [LINE.match(line) for line in text.splitlines() if re.match(r"^\d\. ", line)]
    assert len(said) == len(solution) and all(said), text
    for n, (words, move) in enumerate(zip(said, solution), 1):
        assert int(words[1]) == n
        if move["op"] == "rotate":
            assert (int(words[2]), words[3]) == (move["ring"], NAMES[move["ring"]])
            assert words[4] == ("clockwise" if move["steps"] > 0 else "anticlockwise")
        else:
            assert int(words[5]) == move["line"] and words[6] == ("inward" if move["steps"] <= 4 else "outward")


def annotated(tmp_path: Path, image: Path) -> tuple[np.ndarray, Parse, list, str]:
    """``solve IMAGE --annotate``'s picture, the parse and answer behind it, and its text."""
    out = tmp_path / "hint.png"
    status, text, err = run_cli(["solve", image, "--game", "rings", "--annotate", out])
    assert status == 0, err
    found = parse(load_image(image))
    return cv2.imread(str(out)), found, solve(found.board).solution, text


@pytest.mark.skipif(not CAPTURE.exists(), reason="the real captures are not here")
def test_the_real_capture_shows_the_turn_round_its_whole_ring_and_says_it_plainly(tmp_path):
    picture, found, solution, text = annotated(tmp_path, CAPTURE)
    assert any(move["op"] == "rotate" for move in solution)
    check_annotation(picture, found, solution)
    check_words(text, solution)


def test_a_rendered_tilted_battle_shows_each_turn_round_its_whole_ring(tmp_path):
    board = generate(6, 2, 3, kinds="gskb")
    image, _ = render_camera(board, 1280, 720, "tilted", 6)
    cv2.imwrite(str(tmp_path / "battle.png"), image)
    picture, found, solution, text = annotated(tmp_path, tmp_path / "battle.png")
    assert any(move["op"] == "rotate" for move in solution)
    check_annotation(picture, found, solution)
    check_words(text, solution)


@pytest.mark.parametrize("view", ["tilted", "overhead"])
@pytest.mark.parametrize("move", [{"op": "rotate", "ring": 0, "steps": 2}, {"op": "rotate", "ring": 3, "steps": -1},
                                  {"op": "rotate", "ring": 1, "steps": -4}])
def test_a_turn_drawn_on_the_games_camera_covers_its_ring_the_way_it_turns(view, move):
    board = Board(("x" * 4 + "." * 8,) * 4, 1)
    image, arena = render_camera(board, 960, 540, view, 0)
    found = Parse("rings", board, 1.0, arena.cells(), RingsGeometry(arena))
    check_annotation(render(image, hints(found, [move])), found, [move])
