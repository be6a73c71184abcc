"""The live loop: its per-frame decisions and play logic with fake sources (no display),
then, under Xvfb, playing practice levels for real and the headless demo."""
from __future__ import annotations

import io
import os
import shutil
import signal
import time
from contextlib import contextmanager
from pathlib import Path
from typing import Iterator

import numpy as np
import pytest

import puzzlepilot.live as live
from overlay.actions import Drag
from overlay.draw import Marker
from puzzlepilot.cli import main
from puzzlepilot.games import get
from puzzlepilot.live import Gone, Idle, LiveError, LiveLoop, New, Nothing, Same, Watcher
from puzzlepilot.scenes.onestroke import render_phone
from solvers.common import SolveResult
from solvers.onestroke import Board, generate
from tests.display import PRACTICE_TITLE, practice_board, puzzlepilot, run_puzzlepilot, wait_for_window
from tests.live.fakes import VIEW, FakeHints, FakeSource
from vision.capture import Rect

GAME = get("onestroke")
UNSOLVABLE = Board.from_text("#S#\n###\n###")   # 5 dark cells, 4 light: no path from a light start


def frame(board: Board | None, visited: tuple = ()) -> np.ndarray:
    if board is None:
        return np.full((VIEW[1], VIEW[0], 3), 249, np.uint8)
    return render_phone(board, width=VIEW[0], height=VIEW[1], visited=list(visited), seed=1)[0]


BOARD_A, BOARD_B = generate(5, 5, 11), generate(6, 5, 12)


# ---------------------------------------------------------------------------- Watcher

def test_watcher_solves_a_new_board_and_its_answer_follows_the_rules() -> None:
    step = Watcher([GAME]).step(frame(BOARD_A))
    assert isinstance(step, New)
    assert step.parse.board == BOARD_A
    assert step.result.solved and GAME.validate(BOARD_A, step.result.solution) == []


def test_an_unchanged_frame_is_idle_without_parsing(monkeypatch: pytest.MonkeyPatch) -> None:
    watcher = Watcher([GAME])
    image = frame(BOARD_A)
    watcher.step(image)
    monkeypatch.setattr(watcher, "read", lambda _: pytest.fail("parsed an unchanged frame"))
    assert isinstance(watcher.step(image.copy()), Idle)


def test_a_changed_frame_of_the_same_board_keeps_it() -> None:
    watcher = Watcher([GAME])
    first = watcher.step(frame(BOARD_A))
    step = watcher.step(_relabelled(BOARD_A))
    assert isinstance(step, Same)
    assert watcher.current is first


def _relabelled(board: Board) -> np.ndarray:
    """The board under another level number and coin count (pixels change, board not)."""
    return render_phone(board, width=VIEW[0], height=VIEW[1], seed=2)[0]


def test_a_change_only_under_the_hints_is_idle_and_one_outside_them_is_not() -> None:
    watcher = Watcher([GAME])
    image = frame(BOARD_A)
    watcher.step(image)
    ignore = np.zeros(image.shape[:2], bool)
    ignore[100:200, 50:150] = True
    hinted = image.copy()
    hinted[ignore] = (0, 0, 255)
    assert isinstance(watcher.step(hinted, ignore=ignore), Idle)
    hinted[300:310, 50:150] = 0
    assert isinstance(watcher.step(hinted, ignore=ignore), Same)


def test_a_board_that_disappears_is_gone_then_nothing() -> None:
    watcher = Watcher([GAME])
    watcher.step(frame(BOARD_A))
    assert isinstance(watcher.step(frame(None)), Gone)
    blank = frame(None)
    blank[:40, :40] = 0
    assert isinstance(watcher.step(blank), Nothing)
    assert watcher.current is None


def test_a_different_board_is_new_and_an_unsolvable_one_says_why() -> None:
    watcher = Watcher([GAME])
    watcher.step(frame(BOARD_A))
    assert watcher.step(frame(BOARD_B)).parse.board == BOARD_B
    step = watcher.step(frame(UNSOLVABLE))
    assert isinstance(step, New) and not step.result.solved and "parity" in step.result.reason


# ---------------------------------------------------------------------------- LiveLoop with fakes

class FakeDriver:
    """Plays by moving the fake game on to its next frame (unless ``works`` is off)."""

    def __init__(self, source: FakeSource, works: bool = True) -> None:
        self.source, self.works = source, works
        self.performed: list[list] = []

    def perform(self, actions: list) -> None:
        self.performed.append(actions)
        if self.works and len(self.source.frames) > 1:
            self.source.frames.pop(0)


class PaintingOverlay(FakeHints):
    """Hints that, like the real overlay, show in every grab (as red pixels over their
    mask) except while hidden; counts how often they are hidden."""

    def __init__(self, source: "PaintedSource") -> None:
        super().__init__()
        self.source, self.hides = source, 0
        source.overlay = self

    def show(self, shapes: list, area: Rect, frame: np.ndarray | None = None) -> None:
        super().show(shapes, area, frame)
        self.mask = np.zeros((area.height, area.width), bool)
        for s in shapes:
            if isinstance(s, Marker):
                x, y = round(s.point[0] - area.left), round(s.point[1] - area.top)
                self.mask[y - 10:y + 10, x - 10:x + 10] = True
        self.up = True

    def clear(self) -> None:
        super().clear()
        self.up = False

    def drawn(self) -> tuple[Rect, np.ndarray] | None:
        return (self.calls[-1][2], self.mask) if getattr(self, "up", False) else None

    @contextmanager
    def hidden(self) -> Iterator[None]:
        self.hides += self.drawn() is not None
        up, self.up = getattr(self, "up", False), False
        try:
            yield
        finally:
            self.up = up


class PaintedSource(FakeSource):
    overlay: PaintingOverlay

    def grab(self) -> np.ndarray:
        image = super().grab()
        drawn = self.overlay.drawn()
        if drawn is not None:
            image[drawn[1]] = (0, 0, 255)
        return image


def test_shown_hints_are_not_hidden_again_while_the_game_stays_the_same(monkeypatch: pytest.MonkeyPatch) -> None:
    fast(monkeypatch)
    source = PaintedSource([frame(BOARD_A)])
    hints = PaintingOverlay(source)
    loop = LiveLoop(source, Watcher([GAME]), lambda _: None, hints=hints, fps=100)
    assert isinstance(loop.tick(), New) and hints.drawn() is not None
    hints.hides = 0
    assert [type(loop.tick()) for _ in range(3)] == [Idle] * 3
    assert loop.wait_for_change() is None
    assert hints.hides == 0
    source.frames = [_relabelled(BOARD_A)]            # the title changes: hidden once, to read it
    assert isinstance(loop.tick(), Same) and hints.hides == 1
    assert isinstance(loop.tick(), Idle) and hints.hides == 1


def fast(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(live, "CONFIRM_SECONDS", 0.3)


def test_hints_are_drawn_in_screen_coordinates_and_cleared_when_the_board_goes() -> None:
    source, hints, lines = FakeSource([frame(BOARD_A)]), FakeHints(), []
    loop = LiveLoop(source, Watcher([GAME]), lines.append, hints=hints, fps=100, levels=1)
    loop.run()
    (kind, shapes, area), = hints.calls
    start = next(s for s in shapes if isinstance(s, Marker))
    parse = loop.watcher.current.parse
    x, y = parse.cells[BOARD_A.start[0] * BOARD_A.cols + BOARD_A.start[1]]
    assert area == source.at and start.point == pytest.approx((x + 100, y + 50))
    assert len(lines) == 1 and lines[0].startswith("level 1: onestroke 5x5") and lines[0].endswith("hints shown")
    source.frames = [frame(None)]
    loop.tick()
    assert hints.calls[-1] == ("clear",)


def test_hints_follow_a_moved_window_without_counting_a_level_again() -> None:
    source, hints, lines = FakeSource([frame(BOARD_A)]), FakeHints(), []
    loop = LiveLoop(source, Watcher([GAME]), lines.append, hints=hints, fps=100)
    loop.tick()
    assert isinstance(loop.tick(), Idle)
    source.at = Rect(300, 20, VIEW[0], VIEW[1])
    assert isinstance(loop.tick(), Same)          # the same picture, looked at again
    (_, before, _), (kind, after, area) = hints.calls
    assert kind == "show" and area == source.at
    starts = [next(s for s in shapes if isinstance(s, Marker)).point for shapes in (before, after)]
    assert starts[1] == pytest.approx((starts[0][0] + 200, starts[0][1] - 30))
    assert isinstance(loop.tick(), Idle) and len(hints.calls) == 2 and len(lines) == 1


def test_play_waits_for_a_settled_frame_drags_from_the_cat_and_counts_changed_levels(
        monkeypatch: pytest.MonkeyPatch) -> None:
    fast(monkeypatch)
    source = FakeSource([frame(BOARD_A), frame(BOARD_B), frame(None)])
    driver, hints, lines, records = FakeDriver(source), FakeHints(), [], []
    loop = LiveLoop(source, Watcher([GAME]), lines.append, hints=hints, driver=driver, fps=100, levels=2,
                    on_level=records.append)
    first = loop.tick()
    assert driver.performed == []                     # a new board is played on the next, unchanged frame
    loop.run()
    assert [r.board for r in records] == [BOARD_A.to_text(), BOARD_B.to_text()]
    (drag,), _ = driver.performed
    x, y = first.parse.cells[BOARD_A.start[0] * BOARD_A.cols + BOARD_A.start[1]]
    assert isinstance(drag, Drag) and drag.points[0] == pytest.approx((x + 100, y + 50))
    assert all(line.endswith("played") for line in lines) and len(lines) == 2
    assert records[0].after is not None
    assert [c[0] for c in hints.calls] == ["show", "clear", "show", "clear"]   # played paths are taken away


def test_a_level_that_does_not_change_is_played_twice_then_the_loop_stops(monkeypatch: pytest.MonkeyPatch) -> None:
    fast(monkeypatch)
    source = FakeSource([frame(BOARD_A)])
    driver, lines = FakeDriver(source, works=False), []
    loop = LiveLoop(source, Watcher([GAME]), lines.append, driver=driver, fps=100, levels=1)
    with pytest.raises(LiveError, match="did not change after playing it twice"):
        loop.run()
    assert len(driver.performed) == 2 and "trying again" in lines[0]


class RestingGame(FakeDriver):
    """A game that takes a cell only after a rest on it: a glide draws two cells of the path;
    a drag resting on each cell ends the level."""

    def __init__(self, source: FakeSource, path: list[tuple[int, int]]) -> None:
        super().__init__(source)
        self.path = path

    def perform(self, actions: list) -> None:
        self.performed.append(actions)
        if all(a.rest > 0 for a in actions):
            self.source.frames[:] = self.source.frames[1:]
        else:
            self.source.frames[0] = frame(BOARD_A, self.path[:2])


def test_a_path_drawn_in_part_is_no_level_played_and_the_retry_rests_on_each_cell(
        monkeypatch: pytest.MonkeyPatch) -> None:
    """Issue 28 §5: a glide that drew part of the path is not counted as played (the board
    is the level with a path begun); played again resting on each cell, the level ends and
    the rest is kept for the next levels."""
    fast(monkeypatch)
    path = [tuple(cell) for cell in GAME.solve(BOARD_A).solution]
    source = FakeSource([frame(BOARD_A), frame(BOARD_B), frame(None)])
    driver, lines, learnt = RestingGame(source, path), [], []
    LiveLoop(source, Watcher([GAME]), lines.append, driver=driver, fps=100, levels=2, learnt=learnt.append).run()
    assert [[a.rest for a in actions] for actions in driver.performed] == [[0.0], [live.REST], [live.REST]]
    assert "trying again, resting" in lines[0] and "rest on each cell" in lines[1], lines
    assert lines[2].endswith("played (second try)") and lines[3].endswith("played"), lines
    assert len(learnt) == 1 and learnt[0].rest == live.REST      # told once: kept in a profile


def test_a_rest_kept_in_the_profile_is_played_from_the_first_try(monkeypatch: pytest.MonkeyPatch) -> None:
    fast(monkeypatch)
    path = [tuple(cell) for cell in GAME.solve(BOARD_A).solution]
    source = FakeSource([frame(BOARD_A), frame(None)])
    driver, lines = RestingGame(source, path), []
    loop = LiveLoop(source, Watcher([GAME]), lines.append, driver=driver, fps=100, levels=1)
    loop.rest = 0.4
    loop.run()
    assert [[a.rest for a in actions] for actions in driver.performed] == [[0.4]] and lines[0].endswith("played")


def test_an_unsolvable_board_is_logged_and_not_played(monkeypatch: pytest.MonkeyPatch) -> None:
    source = FakeSource([frame(UNSOLVABLE)])
    driver, lines = FakeDriver(source), []
    LiveLoop(source, Watcher([GAME]), lines.append, driver=driver, fps=100, levels=1).run()
    assert driver.performed == [] and "no solution (parity" in lines[0]


def test_a_game_with_nothing_to_play_gets_hints_and_no_retries(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr("overlay.onestroke.plan", lambda parse, solution: [])
    source = FakeSource([frame(BOARD_A)])
    driver, lines = FakeDriver(source), []
    LiveLoop(source, Watcher([GAME]), lines.append, driver=driver, fps=100, levels=1).run()
    assert driver.performed == [] and lines[0].endswith("hints shown (nothing to play: the game takes no mouse moves)")


def test_an_already_solved_board_is_no_level(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr("solvers.onestroke.solve", lambda board: SolveResult(True, [], 0))
    source = FakeSource([frame(BOARD_A)])
    driver, lines = FakeDriver(source), []
    loop = LiveLoop(source, Watcher([GAME]), lines.append, driver=driver, fps=100, levels=1)
    for _ in range(3):
        loop.tick()
    assert driver.performed == [] and lines == [] and loop.done == 0


# ---------------------------------------------------------------------------- command line

@pytest.mark.parametrize("argv", [
    ["live", "--region", "1,2,3"], ["live"], ["live", "--monitor", "1", "--fps", "0"],
    ["live", "--monitor", "1", "--dry-run"], ["live", "--monitor", "1", "--levels", "0"],
    ["live", "--monitor", "1", "--confirm", "2"], ["live", "--monitor", "1", "--play", "--confirm", "0"],
    ["live", "--window", "no such window, surely", "--game", "onestroke"],
    ["demo", "chess"], ["demo", "--levels", "0"], ["demo", "--out", __file__],
])
def test_bad_live_and_demo_options_are_one_line_and_status_2(argv: list[str]) -> None:
    err = io.StringIO()
    assert main(argv, stdout=io.StringIO(), stderr=err) == 2
    assert err.getvalue().count("\n") == 1 and "Traceback" not in err.getvalue()


# ---------------------------------------------------------------------------- on a display

@pytest.mark.display
def test_live_dry_run_then_play_solves_three_practice_levels_in_a_row(display: str) -> None:
    with practice_board("onestroke", "--seed", "40", "--levels", "3",
                        "--view", f"{VIEW[0]}x{VIEW[1]}", "--at", "30,30") as log:
        status, dry_out, dry_err = run_puzzlepilot("live", "--window", PRACTICE_TITLE, "--play", "--dry-run",
                                                   "--levels", "1", "--hints", "none", timeout=30)
        assert status == 0, dry_err
        assert "dry run: drag (" in dry_out and dry_out.rstrip().endswith("dry run")
        status, out, err = run_puzzlepilot("live", "--game", "onestroke", "--window", PRACTICE_TITLE,
                                           "--play", "--speed", "2", "--levels", "3")
    assert status == 0, err
    played = [line for line in out.splitlines() if line.startswith("level ")]
    assert len(played) == 3 and all(line.endswith("played") or "second try" in line for line in played), out
    assert [line for line in log if line.startswith("solved")] == \
        ["solved level 1", "solved level 2", "solved level 3"]


@pytest.mark.display
def test_another_apps_look_is_calibrated_from_its_first_screen_then_played_level_after_level(
        display: str, tmp_path: Path) -> None:
    """Issue 25, as it will be tried: an app drawn as no game we know (a style zoo look), its
    first screen captured and calibrated with its board, then played with the profile, three
    levels in a row."""
    import cv2

    from vision.capture import window_source

    with practice_board("onestroke", "--look", "slate-ruled-dot", "--seed", "40", "--levels", "3",
                        "--view", f"{VIEW[0]}x{VIEW[1]}", "--at", "30,30") as log:
        source = window_source(PRACTICE_TITLE)
        try:
            shot = source.grab()
        finally:
            source.close()
        cv2.imwrite(str(tmp_path / "first.png"), shot)
        status, out, err = run_puzzlepilot("calibrate", "onestroke", str(tmp_path / "first.png"), "--name", "zoo",
                                           "--board", generate(6, 6, 40).to_text(), "--dir", str(tmp_path / "zoo"))
        assert status == 0, err
        status, out, err = run_puzzlepilot("live", "--game", "onestroke", "--window", PRACTICE_TITLE, "--play",
                                           "--speed", "2", "--levels", "3", "--profile", str(tmp_path / "zoo"),
                                           timeout=180)     # a learnt look's reads are slower than the game's
    assert status == 0, err
    assert [line for line in log if line.startswith("solved")] == \
        ["solved level 1", "solved level 2", "solved level 3"], out


@pytest.mark.display
def test_ctrl_c_stops_the_live_loop_with_one_line(display: str) -> None:
    practice = puzzlepilot("practice", "onestroke", "--seed", "7", "--log", "--view", f"{VIEW[0]}x{VIEW[1]}")
    try:
        assert practice.stdout.readline().startswith("level 1:")
        wait_for_window(PRACTICE_TITLE)
        player = puzzlepilot("live", "--game", "onestroke", "--window", PRACTICE_TITLE)
        try:
            assert player.stdout.readline().startswith("watching ")
            assert player.stdout.readline().endswith("hints shown\n")
            player.send_signal(signal.SIGINT)
            out, err = player.communicate(timeout=10)
        finally:
            player.kill()
    finally:
        practice.kill()
        practice.communicate()
    assert player.returncode == 130 and err == "puzzlepilot: interrupted\n"


@pytest.mark.display
@pytest.mark.skipif(shutil.which("Xvfb") is None, reason="Xvfb is not installed")
def test_demo_runs_headless_and_saves_its_pictures(tmp_path: Path) -> None:
    env = {k: v for k, v in os.environ.items() if k != "DISPLAY"}
    start = time.monotonic()
    demo = puzzlepilot("demo", "onestroke", "--levels", "3", "--out", str(tmp_path), env=env)
    out, err = demo.communicate(timeout=90)
    assert demo.returncode == 0, err
    assert time.monotonic() - start < 60
    assert "the practice board confirmed 3" in out
    names = sorted(p.name for p in tmp_path.iterdir())
    pictures = [f"level{k}-{kind}.png" for k in (1, 2, 3) for kind in ("before", "hints", "after")]
    assert names == sorted(pictures + ["index.html", ".made"])     # .made: what the demo wrote, so it may replace it
    page = (tmp_path / "index.html").read_text(encoding="utf-8")
    assert all(f'src="{name}"' in page for name in pictures)
    assert page.count("<h2>Level ") == 3 and "moves" in page


@pytest.mark.display
@pytest.mark.skipif(shutil.which("Xvfb") is None, reason="Xvfb is not installed")
def test_demo_plays_ring_battles_with_the_example_key_map(tmp_path: Path) -> None:
    env = {k: v for k, v in os.environ.items() if k != "DISPLAY"}
    demo = puzzlepilot("demo", "rings", "--levels", "2", "--out", str(tmp_path), env=env)
    out, err = demo.communicate(timeout=90)
    assert demo.returncode == 0, err
    assert "the practice board confirmed 2" in out
    assert [line.endswith("played") for line in out.splitlines() if line.startswith("level ")] == [True, True]
