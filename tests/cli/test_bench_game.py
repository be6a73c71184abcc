"""``bench --game``: a target's part for one game only (``bench calibration --game klotski``
measures the Klotski style zoo alone)."""
from __future__ import annotations

from puzzlepilot.bench import Bench
from tests.helpers import run_cli as run


def test_game_picks_one_game_s_part_of_a_target_and_an_unknown_game_is_refused_in_one_line() -> None:
    one, every = Bench(None, quick=True, game="klotski"), Bench(None, quick=True)  # type: ignore[arg-type]
    assert one.wants("klotski") and not one.wants("lyne") and not one.wants("onestroke")
    assert every.wants("klotski") and every.wants("lyne")
    status, out, err = run(["bench", "calibration", "--game", "nosuch"])
    assert status == 2 and out == "" and err.count("\n") == 1 and "--game" in err
