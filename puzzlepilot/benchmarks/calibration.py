"""Calibration: what a profile costs the vision, and what calibrating costs.

One-stroke: the default parse of frames in the game's look (the baseline) against the
profile parse of the same boards in the scenes' "night" look, the profile calibrated from
one 720×1280 frame; three phone sizes, fresh and half drawn. Klotski: the default parse
against the profile parse (board colour pinned) of the same frame, plain and on a 1080p
desktop. LYNE: the default parse against the profile parse (background pinned) of the same
game window on a 1080p desktop. Rings: the default parse of battles in the "earth" look
against the profile parse of the same boards in the scenes' "paper" look, the profile
calibrated from one 1280×720 frame; 0.5× to 2× that
size and a 960×540 window on a 1366×768 desktop; through the camera, the game's look against
"dusk" (tilted) and "slate" (drawn flat, straight down, a pale inner ring). Also the time
``learn`` takes on each calibration frame. The style zoo: one-stroke and LYNE looks far from
the games', each calibrated from one frame and read on its other pictures (kept / exact /
refused / wrong), and Klotski's: calibrated as ``calibrate klotski --board`` does and by
the lattice learner alone.
"""
from __future__ import annotations

import tempfile
from pathlib import Path
from typing import Any, Callable

import cv2

from calibration import klotski as klotski_learner
from calibration import lyne as lyne_learner
from calibration import onestroke as onestroke_learner
from calibration import rings as rings_learner
from calibration.profile import save
from puzzlepilot.bench import Bench, ms, summary
from puzzlepilot.scenes import klotski as klotski_scene
from puzzlepilot.scenes import lyne as lyne_scene
from puzzlepilot.scenes import rings as rings_scene
from puzzlepilot.scenes.onestroke import render_phone, tight
from puzzlepilot.scenes.paint import render_desktop
from solvers.klotski import Board as KlotskiBoard
from solvers.klotski import generate as klotski_board
from solvers.lyne import Board as LyneBoard
from solvers.onestroke import Board, generate, solve
from solvers.rings import generate as rings_board
from vision import klotski, lyne, onestroke, rings
from vision.profile import Profile

SHOT = Board.from_text("##S##\n#.###\n#####\n##.##")
PHONES = ((360, 640), (720, 1280), (1080, 1920))


def _median(bench: Bench, fn: Callable[[], Any], runs: int) -> float:
    return summary([bench.timed(fn)[0] for _ in range(runs)])[0]


def _learned(bench: Bench, game: str, learner: Any, image: Any, board: Any, folder: Path) -> tuple[Profile, float]:
    """The profile calibrated from one frame (stored in ``folder``) and the learn time, ms."""
    learn_ms = _median(bench, lambda: learner.learn(image, board=board), 3)
    data, templates = learner.learn(image, board=board)
    return save({**data, "game": game, "name": game}, templates, folder / game), learn_ms


def _zoo(bench: Bench, folder: Path, game: str = "onestroke") -> None:
    """The style zoo (``puzzlepilot.scenes.zoo``): per look, calibrate from one frame as
    ``calibrate GAME --board`` does, then read its other pictures with the profile."""
    from puzzlepilot.games import get
    from puzzlepilot.scenes import zoo
    from vision.common import NoBoardFound
    from vision.profile import ProfileError

    learner, looks, render, board, others, table, frame = {
        "onestroke": (onestroke_learner, zoo.LOOKS, zoo.render, zoo.CALIBRATION, zoo.others, "calibration_zoo",
                      "one-stroke from one 720x1280 frame"),
        "lyne": (lyne_learner, zoo.LYNE_LOOKS, zoo.render_lyne, zoo.LYNE_CALIBRATION, zoo.lyne_others,
                 "calibration_zoo_lyne", "LYNE from one 640x480 frame"),
    }[game]
    parse = get(game).parse
    names = list(looks)[::11] if bench.quick else list(looks)     # quick: every style and cell shape
    counts = {"kept": 0, "exact": 0, "refused": 0, "wrong": 0}
    learn_s: list[float] = []
    read_s: list[float] = []
    rows: list[list[Any]] = []
    for name in names:
        shot, _ = render(board, looks[name])
        try:
            took, (data, templates) = bench.timed(lambda: learner.learn(shot, board=board))
        except ProfileError:
            rows.append([name, "no", "", "", "", "", ""])
            continue
        learn_s.append(took)
        learned = took
        counts["kept"] += 1
        prof = save({**data, "game": game, "name": name}, templates, folder / "zoo" / game / name)
        seen = {"exact": 0, "refused": 0, "wrong": 0}
        for _, image, want in others(looks[name], count=4 if bench.quick else 10):
            try:
                took, found = bench.timed(lambda: parse(image, profile=prof))
            except NoBoardFound:
                seen["refused"] += 1
                continue
            read_s.append(took)
            seen["exact" if found.board.to_text().replace("\n", "/") == want else "wrong"] += 1
        counts.update({k: counts[k] + v for k, v in seen.items()})
        rows.append([name, "lattice" if "lattice" in data else "colour", seen["exact"], seen["refused"], seen["wrong"],
                     ms(learned), ""])
    rows.append(["all", f"{counts['kept']}/{len(names)} kept", counts["exact"], counts["refused"], counts["wrong"],
                 summary(learn_s)[0] if learn_s else "", summary(read_s)[0] if read_s else ""])
    bench.table(table, f"style zoo: calibrate {frame} per look, read its other pictures (boards, 0.5-2x, crops, "
                "JPEG 60-95" + (", a desktop" if game == "onestroke" else "") + "); ms: learn, read (medians)",
                ["look", "profile", "exact", "refused", "wrong", "learn", "read"], rows)


def _klotski_zoo(bench: Bench) -> None:
    """The Klotski looks of the zoo (``zoo.KLOTSKI_LOOKS``), each calibrated from one frame
    as ``calibrate klotski --board`` does (the rules first, the learnt lattice when they
    refuse) and by the lattice learner alone, then read on other positions; per look and
    in total: kept, exact, refused, wrong."""
    from puzzlepilot.games import get
    from puzzlepilot.scenes import zoo
    from vision.common import NoBoardFound
    from vision.profile import ProfileError

    parse = get("klotski").parse
    names = list(zoo.KLOTSKI_LOOKS)[::11] if bench.quick else list(zoo.KLOTSKI_LOOKS)
    count = 4 if bench.quick else 10
    totals = [{"kept": 0, "exact": 0, "refused": 0, "wrong": 0} for _ in range(2)]
    learn_s: list[list[float]] = [[], []]
    read_s: list[list[float]] = [[], []]
    rows: list[list[Any]] = []
    for name in names:
        look = zoo.KLOTSKI_LOOKS[name]
        shot, text = zoo.klotski_calibration(look)
        board = KlotskiBoard.from_text(text)
        others = zoo.klotski_others(look, count)
        row: list[Any] = [name]
        for i, learn in enumerate((lambda: klotski_learner.learn(shot, board=board),
                                   lambda: klotski_learner.learn_lattice(shot, board))):
            try:
                took, (data, _) = bench.timed(learn)
            except ProfileError:
                row += ["no", "", "", ""]
                continue
            learn_s[i].append(took)
            prof = Profile(name, "klotski", Path("."), data)
            seen = {"exact": 0, "refused": 0, "wrong": 0}
            for _, image, want in others:
                try:
                    took, found = bench.timed(lambda: parse(image, profile=prof))
                except NoBoardFound:
                    seen["refused"] += 1
                    continue
                read_s[i].append(took)
                seen["exact" if found.board.to_text().replace("\n", "/") == want else "wrong"] += 1
            totals[i]["kept"] += 1
            totals[i].update({k: totals[i][k] + v for k, v in seen.items()})
            row += ["lattice" if "lattice" in data else "rules", seen["exact"], seen["refused"], seen["wrong"]]
        rows.append(row)
    rows.append(["all"] + [v for i in range(2) for v in (f"{totals[i]['kept']}/{len(names)} kept", totals[i]["exact"],
                                                         totals[i]["refused"], totals[i]["wrong"])])
    rows.append(["learn, read ms (medians)"] + [v for i in range(2) for v in (
        summary(learn_s[i])[0] if learn_s[i] else "", summary(read_s[i])[0] if read_s[i] else "", "", "")])
    bench.table("calibration_klotski_zoo", f"Klotski style zoo: each look calibrated on 横刀立马 at {zoo.KLOTSKI_CELL} px "
                "(calibrate --board: the rules, then the learnt lattice; and the lattice alone), read on "
                f"{count} other positions (layouts, moves, 0.5-2x drawn or scaled, crops, JPEG 60-95)",
                ["look"] + [f"{who} {what}" for who in ("calibrate", "lattice")
                            for what in ("profile", "exact", "refused", "wrong")], rows)


def run(bench: Bench) -> None:
    runs = 5 if bench.quick else 25
    with tempfile.TemporaryDirectory() as tmp:
        if bench.wants("onestroke"):
            _zoo(bench, Path(tmp))
        if bench.wants("lyne"):
            _zoo(bench, Path(tmp), "lyne")
        if bench.wants("klotski"):
            _klotski_zoo(bench)
        shot, _ = render_phone(SHOT, width=720, height=1280, theme="night")
        prof, learn_ms = _learned(bench, "onestroke", onestroke_learner, shot, SHOT, Path(tmp))
        board = tight(generate(7, 7, 5, fill=0.7))
        drawn = [tuple(p) for p in (solve(board).solution or [])[:12]]
        rows = []
        for width, height in PHONES[1:2] if bench.quick else PHONES:
            for label, visited in (("fresh", ()), ("drawn", drawn)):
                day, _ = render_phone(board, width=width, height=height, cat="pink", visited=visited)
                night, _ = render_phone(board, width=width, height=height, cat="pink", visited=visited, theme="night")
                base = _median(bench, lambda: onestroke.parse(day), runs)
                taught = _median(bench, lambda: onestroke.parse(night, prof), runs)
                rows.append([f"{width}x{height}", label, base, taught, round(taught / base, 2)])
        bench.table("calibration_onestroke", f"onestroke parse, ms median of {runs}: default look vs night look "
                    f"with its profile (learn: {learn_ms} ms)", ["frame", "path", "default", "profile", "ratio"], rows)

        kb = klotski_board(5, 4, 3)
        plain, _ = klotski_scene.render(kb, style="named", cell=80)
        prof, learn_ms = _learned(bench, "klotski", klotski_learner, plain, kb, Path(tmp))
        desk = render_desktop(1920, 1080, 3)
        h, w = plain.shape[:2]
        desk[100:100 + h, 700:700 + w] = plain
        rows = []
        for label, image in (("plain", plain), ("on a 1080p desktop", desk)):
            base = _median(bench, lambda: klotski.parse(image), runs)
            taught = _median(bench, lambda: klotski.parse(image, prof), runs)
            rows.append([label, base, taught, round(taught / base, 2)])
        bench.table("calibration_klotski", f"klotski parse, ms median of {runs}, same frame (learn: {learn_ms} ms)",
                    ["frame", "default", "profile", "ratio"], rows)

        lb = LyneBoard.from_text("TSD\n2S2\ntsd\nD2T")
        window, truth = lyne_scene.render(lb, lyne_scene.PALETTES["tangerine"], 640, 480)
        prof, learn_ms = _learned(bench, "lyne", lyne_learner, window, lb, Path(tmp))
        desk, _ = lyne_scene.on_desktop(window, truth, 1920, 1080, (1100, 200))
        base = _median(bench, lambda: lyne.parse(desk), runs)
        taught = _median(bench, lambda: lyne.parse(desk, prof), runs)
        bench.table("calibration_lyne", f"lyne parse, ms median of {runs}, same frame (learn: {learn_ms} ms)",
                    ["frame", "default", "profile", "ratio"], [["640x480 on 1080p", base, taught, round(taught / base, 2)]])

        rb = rings_board(100, 3, 3, kinds=rings_scene.KINDS)
        shot, _ = rings_scene.render(rb, 1280, 720, "paper", 100)
        prof, learn_ms = _learned(bench, "rings", rings_learner, shot, rb.relabelled(), Path(tmp))
        look = rings.look_of(prof)
        rb = rings_board(7, 4, 3, kinds=rings_scene.KINDS)
        frames = [("1280x720", 1280, 720, False)] if bench.quick else [
            ("640x360", 640, 360, False), ("1280x720", 1280, 720, False), ("2560x1440", 2560, 1440, False),
            ("960x540 on a 1366x768 desktop", 1280, 720, True)]
        rows = []
        for label, width, height, desktop in frames:
            looks = [rings_scene.render(rb, width, height, style, 7)[0] for style in ("earth", "paper")]
            if desktop:
                looks = [rings_scene.on_desktop(cv2.resize(img, (960, 540), interpolation=cv2.INTER_AREA), 1366, 768, 7)
                         for img in looks]
            base = _median(bench, lambda: rings.parse(looks[0]), runs)
            taught = _median(bench, lambda: rings.parse(looks[1], prof), runs)
            # the arena and its cells alone, without the budget panel's OCR (the same in both)
            base_cells = _median(bench, lambda: rings.occupancy(rings.unwarp(looks[0], rings.find_arena(looks[0])[0])), runs)
            taught_cells = _median(bench, lambda: rings.find_looked(looks[1], look), runs)
            rows.append([label, base, taught, round(taught / base, 2), base_cells, taught_cells,
                         round(taught_cells / base_cells, 2)])
        bench.table("calibration_rings", f"rings parse, ms median of {runs}: earth look vs paper look with its profile "
                    f"(learn: {learn_ms} ms)", ["frame", "default", "profile", "ratio", "cells default", "cells profile",
                                                "ratio"], rows)

        # table, what, look calibrated, its camera, the game look's camera, HUD, the boards calibrated on and read in
        # both looks (generate's seed, groups and the third argument; the seed draws the scene too)
        for name, what, look, view, game_view, hud, shot_board, read_board in (
                ("calibration_rings_camera", " through the tilted camera, ms median of {runs}: the game's look vs "
                 "the dusk look", "dusk", "tilted", "tilted", True, (20, 1, 3), (38, 1, 3)),
                ("calibration_rings_flat", ", ms median of {runs}: the game's look (overhead camera) vs the slate "
                 "look drawn straight down by another tool,", "slate", "top", "overhead", False, (20, 3, 3), (301, 2, 2))):
            rb = rings_board(*shot_board, kinds=rings_scene.KINDS)
            shot, _ = rings_scene.render_camera(rb, 1280, 720, view, shot_board[0], hud=hud, look=look)
            prof, learn_ms = _learned(bench, "rings", rings_learner, shot, rb.relabelled(), Path(tmp) / look)
            rb, seed = rings_board(*read_board, kinds=rings_scene.KINDS), read_board[0]
            rows = []       # the board is read right in both looks at these sizes
            for width, height in [(1280, 720)] if bench.quick else [(640, 360), (1280, 720), (2560, 1440)]:
                game = rings_scene.render_camera(rb, width, height, game_view, seed, hud=hud)[0]
                taught = rings_scene.render_camera(rb, width, height, view, seed, hud=hud, look=look)[0]
                base_ms = _median(bench, lambda: rings.parse(game), runs)
                taught_ms = _median(bench, lambda: rings.parse(taught, prof), runs)
                rows.append([f"{width}x{height}", base_ms, taught_ms, round(taught_ms / base_ms, 2)])
            bench.table(name, f"rings parse{what.format(runs=runs)} with its profile (learn: {learn_ms} ms)",
                        ["frame", "default", "profile", "ratio"], rows)
