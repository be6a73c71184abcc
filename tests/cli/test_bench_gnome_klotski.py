"""``bench gnome-klotski``'s count of one game session (no game needed): what live printed and
what the game's window was titled, each stream in its own order, make one row a puzzle, and
a puzzle counts as played only once the game said "Level completed." while it was on show.
The session itself is run on the real game by ``bench gnome-klotski --quick`` (CI)."""
from __future__ import annotations

from puzzlepilot.benchmarks.gnome_klotski import DONE, Tally

GIVEN_UP_LONG = ("no solution (gave up after 3,000,129 positions without reaching the exit (the cap; "
                 "--max-positions raises it))")


def tally(events: list[tuple[str, str]], total: int = 3) -> tuple[Tally, list[str]]:
    """A tally fed ``events`` (("line", text) from live, ("title", text) from the window),
    one a second, the session starting on Only 18 Steps."""
    said: list[str] = []
    count = Tally(total, said.append)
    count.came_to("Only 18 Steps", 0.0)
    for second, (kind, text) in enumerate(events, 1):
        if kind == "line":
            count.line(text, float(second))
        else:
            count.title(text)
    return count, said


def test_a_session_of_three_puzzles_is_counted_by_the_game_s_word():
    """Only 18 Steps played and confirmed; Daisy given up by the solver (live's --next moved
    past it: no "Level completed."; its long reason cut at a word); Violet played, the game's word on it coming after
    live's line (as it does: live sees the board change first)."""
    count, said = tally([
        ("title", "Only 18 Steps"),
        ("line", "watching 600x500+0+0 at 10 fps; Ctrl-C stops"),
        ("title", DONE),
        ("line", "level 1: klotski 9x6, solve 40.0 ms, 18 moves, played"),
        ("title", "Daisy"),
        ("line", "next puzzle: Daisy"),
        ("line", f"level 2: klotski 9x6, solve 33000.0 ms, {GIVEN_UP_LONG}"),
        ("title", "Violet"),
        ("line", "next puzzle: Violet"),
        ("line", "move 4 did not move its piece (the game missed the drag): playing on from it"),
        ("line", "level 3: klotski 9x6, solve 380.0 ms, 27 moves, played"),
        ("title", DONE),
    ])
    assert count.rows() == [
        [1, "Only 18 Steps", "yes", 18, 0.04, "played", "yes", 4.0],
        [2, "Daisy", "yes", "-", 33.0, "no solution (gave up after 3,000,129 positions without reaching …",
         "no", 1.0],
        [3, "Violet", "yes", 27, 0.38, "played", "yes", 2.0],
    ]
    assert count.played() == 2
    assert said[0] == "  [1/3] Only 18 Steps ..." and "  [3/3] Violet ..." in said
    assert f"    Violet: the game says {DONE!r}" in said


def test_each_stream_keeps_its_own_order():
    """On a busy machine the title may name the next puzzle before live's line on the last
    one is read: the line still counts for the puzzle live was on, and the game's word for
    the puzzle its title named."""
    count, _ = tally([
        ("title", "Only 18 Steps"),
        ("title", DONE),
        ("title", "Daisy"),
        ("line", "level 1: klotski 9x6, solve 40.0 ms, 18 moves, played"),
        ("line", "next puzzle: Daisy"),
        ("line", "level 2: klotski 9x6, solve 600.0 ms, 28 moves, played"),
    ])
    rows = count.rows()
    assert [row[:7] for row in rows] == [[1, "Only 18 Steps", "yes", 18, 0.04, "played", "yes"],
                                         [2, "Daisy", "yes", 28, 0.6, "played", "no"]]
    assert count.played() == 1


def test_a_puzzle_live_stopped_on_says_why_and_whether_the_window_reads():
    """Live stopped without a word on the puzzle (a move that did not land, or out of
    time): the reason is its row's, and whether it was read is asked of the window; a
    puzzle live had its word on keeps it."""
    count, said = tally([("title", "Only 18 Steps")])
    count.stopped("stopped: move 3 of 18 did not land as planned", 30.0, lambda: "yes")
    count.came_to("Daisy", 31.0)
    count.line("level 2: klotski 9x6, solve 500.0 ms, 28 moves, played", 50.0)
    count.stopped("stopped: the game's dialog did not close", 60.0, lambda: "no: refused")
    count.came_to("Violet", 61.0)
    count.stopped("out of time (240 s)", 301.0, lambda: "no: the tiles lie on no grid")
    assert count.rows() == [
        [1, "Only 18 Steps", "yes", "-", "-", "stopped: move 3 of 18 did not land as planned", "no", 30.0],
        [2, "Daisy", "yes", 28, 0.5, "played", "no", 19.0],
        [3, "Violet", "no: the tiles lie on no grid", "-", "-", "out of time (240 s)", "no", 240.0],
    ]
    assert count.played() == 0
    assert "    Violet: out of time (240 s) in 240 s" in said


def test_chosen_puzzles_are_played_in_runs_numbered_as_the_game_numbers_them():
    """``--puzzles 17,21-23``: Shark alone, then Pelopones to Lodzianka in one session, each
    row numbered from 1 in the game's order; a list that is not one is refused."""
    import argparse

    import pytest

    from puzzlepilot.bench import _numbers
    from puzzlepilot.benchmarks.gnome_klotski import _runs

    assert _numbers("23, 17,21-22") == (17, 21, 22, 23)
    assert _runs(_numbers("17,21-23")) == [(17, 1), (21, 3)]
    for bad in ("0", "3-1", "x", "2-", ""):
        with pytest.raises(argparse.ArgumentTypeError):
            _numbers(bad)
    count = Tally(3, lambda _: None, 21)
    count.came_to("Pelopones", 0.0)
    count.came_to("Transeuropa", 1.0)
    assert [row[:2] for row in count.rows()] == [[21, "Pelopones"], [22, "Transeuropa"]]
