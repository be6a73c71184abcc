"""The live loop's cost per frame, at 1080p, against a plain loop that parses and solves
every frame it grabs.

- changed frame → hints drawn: the loop's own per-frame step (change check, parse, solve,
  hint shapes, drawing them on the overlay) on a frame showing a new level, fed by a fake
  source; the overlay is real, on a private Xvfb when installed (else on DISPLAY; with
  neither, the figure is without drawing and says so), and the same step with
  ``--hints none`` is timed too;
- unchanged frame: process time of the same step on a frame equal to the last one, plus a
  real 1920×1080 mss grab when there is a display; as % of one core at 10 fps;
- blinks (with a display): the loop on real grabs of a window showing each level under the
  real overlay; how often the overlay is taken off the screen (each time is a visible
  blink) and the CPU time of this process, in the five frames after a new level is shown
  and while the loop waits half a second for a played level to give way (the picture does
  not change).
"""
from __future__ import annotations

import os
import shutil
import statistics
import time
from contextlib import ExitStack, contextmanager
from typing import Any, Iterator

import numpy as np

from puzzlepilot.bench import SCREEN, Bench, ms, summary
from puzzlepilot.games import get
from puzzlepilot.live import LiveLoop, New, Watcher
from puzzlepilot.scenes.onestroke import render_phone
from solvers.onestroke import generate

FPS = 10


class FakeSource:
    """A capture source that returns the frame it is given, at the screen's origin."""

    def __init__(self, frame: np.ndarray) -> None:
        self.frame = frame

    def rect(self) -> Any:
        from vision.capture import Rect

        return Rect(0, 0, self.frame.shape[1], self.frame.shape[0])

    def grab(self) -> np.ndarray:
        return self.frame.copy()    # a real grab hands over a fresh array too

    def close(self) -> None:
        pass


def desktop_frame(seed: int) -> np.ndarray:
    """A 1920×1080 desktop with the game (a phone screen, full height) in the middle."""
    board = generate(6, 6, seed)
    phone, _ = render_phone(board, width=608, height=1080, seed=seed)
    frame = np.full((SCREEN[1], SCREEN[0], 3), (64, 48, 40), np.uint8)
    left = (SCREEN[0] - phone.shape[1]) // 2
    frame[:, left:left + phone.shape[1]] = phone
    return frame


def run(bench: Bench) -> None:
    count = 4 if bench.quick else 12
    frames = [desktop_frame(seed) for seed in range(1, count + 1)]
    game = get("onestroke")
    with ExitStack() as stack:
        hints, root, where = _overlay(bench, stack)
        if hints is not None:
            _blinks(bench, hints, root, frames)
        source = FakeSource(frames[0])
        loop = LiveLoop(source, Watcher([game]), lambda _: None, hints=hints)

        def plain() -> None:
            found = game.parse(source.grab())
            game.solve(found.board)

        bare = LiveLoop(source, Watcher([game]), lambda _: None)
        changed, unhinted, baseline = [], [], []
        for frame in frames:
            source.frame = frame
            changed.append(bench.timed(loop.tick)[0])
            unhinted.append(bench.timed(bare.tick)[0])
            baseline.append(bench.timed(plain)[0])
        idle_cpu, plain_cpu = _process_times(loop.tick, count * 5), _process_times(plain, count)
        grab = _grab_time(count * 5) if hints is not None else None

    b_med, b_max = summary(baseline)
    rows = [["plain: parse + solve", b_med, b_max, 1.0]]
    for name, times in (("live step, --hints none", unhinted), (f"live step, {where}", changed)):
        med, worst = summary(times)
        rows.append([name, med, worst, round(med / b_med, 3)])
    bench.table("live_changed", "live: changed 1080p frame → hints", ["loop", "median ms", "worst ms", "ratio"], rows)
    rows = [["plain: parse + solve", ms(plain_cpu), round(plain_cpu * FPS * 100, 2), 1.0],
            ["live step", ms(idle_cpu), round(idle_cpu * FPS * 100, 2), round(idle_cpu / plain_cpu, 4)]]
    if grab is not None:
        total = idle_cpu + grab
        rows.append(["mss grab 1920x1080 + BGR", ms(grab), round(grab * FPS * 100, 2), ""])
        rows.append(["live step + grab", ms(total), round(total * FPS * 100, 2), round(total / plain_cpu, 4)])
    bench.table("live_idle", f"live: unchanged frame, CPU per frame and % of one core at {FPS} fps",
                ["loop", "cpu ms", "% core", "ratio"], rows)


def _overlay(bench: Bench, stack: ExitStack) -> tuple[Any, Any, str]:
    """The hint overlay on the run's private 1080p Xvfb (same screen everywhere, and none
    of it on the user's), else on the user's display, and the Tk root it is drawn in; else
    None."""
    if shutil.which("Xvfb") is not None:
        bench.private_screen()
    elif not os.environ.get("DISPLAY"):
        return None, None, "none: no display, hints not drawn"
    import tkinter

    from overlay.window import make_hints

    root = tkinter.Tk()
    root.withdraw()
    stack.callback(root.destroy)
    hints = make_hints("overlay", root)
    stack.callback(hints.close)
    return hints, root, "overlay drawn"


def _blinks(bench: Bench, hints: Any, root: Any, frames: list[np.ndarray]) -> None:
    """Hides of the overlay (blinks) and time, on real grabs of a window showing each frame
    (a window of ``root``, the overlay's Tk, so that the overlay's ``hidden`` repaints it)."""
    import tkinter

    from vision.capture import Rect, region_source

    picture = tkinter.Toplevel(root)
    picture.overrideredirect(True)
    picture.geometry(f"{SCREEN[0]}x{SCREEN[1]}+0+0")
    label = tkinter.Label(picture, borderwidth=0)
    label.pack()
    source = region_source(Rect(0, 0, *SCREEN))
    hides = 0
    plain_hidden = hints.hidden

    @contextmanager
    def counted() -> Iterator[None]:
        nonlocal hides
        hides += hints.drawn() is not None
        with plain_hidden():
            yield

    hints.hidden = counted
    loop = LiveLoop(source, Watcher([get("onestroke")]), lambda _: None, hints=hints, confirm=0.5)
    settle_hides, settle_cpu, wait_hides, wait_cpu = [], [], [], []
    try:
        for frame in frames[:4]:
            photo = tkinter.PhotoImage(master=picture, data=_ppm(frame), format="ppm")
            label.configure(image=photo)
            hints.clear()
            picture.update()
            while not np.array_equal(source.grab(), frame):   # mapped is not yet drawn
                picture.update()
            assert isinstance(loop.tick(), New)
            hides, start = 0, time.process_time()
            for _ in range(5):
                loop.tick()
                hints.pump()
            settle_hides.append(hides)
            settle_cpu.append(time.process_time() - start)
            hides, start = 0, time.process_time()
            assert loop.wait_for_change() is None
            wait_hides.append(hides)
            wait_cpu.append(time.process_time() - start)
    finally:
        hints.hidden = plain_hidden
        source.close()
        picture.destroy()
    n = len(settle_hides)
    bench.table("live_blinks", "live: overlay hides (blinks) per level, real grabs of a 1080p screen",
                ["phase", "hides", "cpu ms"],
                [["5 frames after a new level", sum(settle_hides) / n, ms(statistics.median(settle_cpu))],
                 ["0.5 s waiting for a played level", sum(wait_hides) / n, ms(statistics.median(wait_cpu))]])


def _ppm(frame: np.ndarray) -> bytes:
    rgb = np.ascontiguousarray(frame[:, :, ::-1])
    return f"P6 {rgb.shape[1]} {rgb.shape[0]} 255\n".encode() + rgb.tobytes()


def _process_times(fn: Any, n: int) -> float:
    """Median process (CPU) time of one call, over n calls after a warm-up."""
    fn()
    times = []
    for _ in range(n):
        start = time.process_time()
        fn()
        times.append(time.process_time() - start)
    return statistics.median(times)


def _grab_time(n: int) -> float:
    from vision.capture import Rect, region_source

    source = region_source(Rect(0, 0, *SCREEN))
    try:
        return _process_times(source.grab, n)
    finally:
        source.close()
