"""Every game's board says its size for people (the live loop's level lines use it)."""
import pytest

from puzzlepilot.games import get


@pytest.mark.parametrize("game, text, size", [
    ("onestroke", "##S#/#..#/####", "3x4"),
    ("lyne", "TSD/2S2/tsd/D2T", "4x3"),
    ("klotski", "ACCB/ACCB/DEEF/DGHF/I..J", "5x4"),
    ("rings", "moves: 1/..x........./..x........./..x........./...x........", "4 enemies"),
    ("valves", "X A/A B/B Y/A Y", "4 points"),
])
def test_a_board_gives_its_size(game: str, text: str, size: str) -> None:
    assert get(game).board.from_text(text).size == size
