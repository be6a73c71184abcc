"""Every game's screenshot fixtures (``fixtures/<game>/expected.json``) read right.

Games join by having fixtures; ``puzzlepilot fixtures make GAME`` writes them."""
from __future__ import annotations

import pytest

from puzzlepilot.fixtures import DEFAULT_DIR, check
from puzzlepilot.games import GAMES

GAMES_WITH_FIXTURES = [g for g in GAMES if (DEFAULT_DIR / g / "expected.json").is_file()]


def test_some_game_has_fixtures():
    assert GAMES_WITH_FIXTURES, f"no fixtures under {DEFAULT_DIR}"


@pytest.mark.parametrize("game", GAMES_WITH_FIXTURES)
def test_every_fixture_reads_as_expected(game):
    rows = check(game, DEFAULT_DIR)
    assert rows, f"{game}: expected.json lists no fixtures"
    bad = [f"{r.name}: expected {r.expected!r}, got {r.got!r} ({r.detail})" for r in rows if not r.ok]
    assert not bad, f"{game}: {len(bad)} of {len(rows)} fixtures read wrong:\n" + "\n".join(bad)
