from __future__ import annotations

import subprocess
from typing import Iterator

import numpy as np
import pytest

pytest.importorskip("tkinter", reason="tkinter is not installed (Debian/Ubuntu: apt-get install python3-tk)")

from overlay.draw import Label, Marker, Polyline, render
from overlay.window import MIN_PICTURE, ROOM_MARGIN, WINDOW_MAX, HintOverlay, HintWindow, beside, make_hints, translated
from overlay.surface import OverlayError
from tests.display import bgr, placed, wait_for_pixels
from vision.capture import Rect, find_windows, region_source

GAME = Rect(100, 100, 600, 400)
GAME_COLOR = "#20a040"
RED = (230, 20, 20)
PATH = Polyline(((200, 200), (500, 200), (500, 400)), RED, 8.0, "each")


def near(image: np.ndarray, y: int, x: int, color: tuple[int, int, int], tol: int = 12) -> bool:
    return bool((np.abs(image[y, x].astype(int) - color) <= tol).all())


@pytest.fixture
def game(tk_window):
    return tk_window("Overlay game", GAME, GAME_COLOR)


@pytest.fixture
def overlay(display: str) -> Iterator[HintOverlay]:
    hints = HintOverlay()
    yield hints
    hints.close()


@pytest.fixture
def screen(display: str):
    source = region_source(GAME)
    yield source
    source.close()


def show_and_grab(overlay: HintOverlay, screen, shapes, area: Rect = GAME) -> np.ndarray:
    overlay.show(shapes, area)
    overlay.pump()
    return wait_for_pixels(screen.grab, lambda im: near(im, 100, 250, bgr("#e61414")))


def test_overlay_shows_strokes_and_the_game_everywhere_else(game, overlay, screen) -> None:
    image = show_and_grab(overlay, screen, [PATH])
    red = bgr("#e61414")
    # On the stroke (screen (350, 200) → image (250, 100)) and on the vertical leg.
    assert near(image, 100, 250, red) and near(image, 250, 400, red)
    # Away from the strokes the game shows through, everywhere.
    untouched = np.ones(image.shape[:2], bool)
    untouched[80:120, 80:420] = False
    untouched[80:320, 380:420] = False
    assert (image[untouched] == bgr(GAME_COLOR)).all()
    # Live, not a stale copy: the game's new colour shows around the strokes at once.
    game.send("color #3050a0")
    image = wait_for_pixels(screen.grab, lambda im: (im[untouched] == bgr("#3050a0")).all())
    assert (image[untouched] == bgr("#3050a0")).all() and near(image, 100, 250, red)


def test_overlay_looks_like_the_opencv_rendering(game, overlay, screen) -> None:
    shapes = [PATH, Marker((200, 350), 16, (20, 20, 230), "1"), Label((350, 300), "3 moves")]
    image = show_and_grab(overlay, screen, shapes)
    game_only = np.zeros_like(image)
    game_only[:] = bgr(GAME_COLOR)
    expected = render(game_only, translated(shapes, -GAME.left, -GAME.top))
    changed_here = (image != game_only).any(axis=2)
    changed_there = (expected != game_only).any(axis=2)
    overlap = (changed_here & changed_there).sum() / (changed_here | changed_there).sum()
    assert overlap > 0.75, overlap
    # Same colours: the stroke's red, the marker's blue, the label's dark plate.
    for color in ("#e61414", "#1414e6", "#282828"):
        assert (np.abs(image.astype(int) - bgr(color)).max(axis=2) <= 12).sum() > 30, color


def test_drawn_mask_covers_exactly_the_pixels_the_overlay_changes(game, overlay, screen) -> None:
    assert overlay.drawn() is None
    shapes = [PATH, Marker((200, 350), 16, (20, 20, 230), "1"), Label((350, 300), "3 moves")]
    image = show_and_grab(overlay, screen, shapes)
    area, mask = overlay.drawn()
    assert area == GAME and mask.shape == (GAME.height, GAME.width)
    changed = (image != bgr(GAME_COLOR)).any(axis=2)
    assert (changed <= mask).all(), "every changed pixel is under the mask"
    assert changed[mask].mean() > 0.9, "the mask is not much bigger than the drawing"
    overlay.clear()
    assert overlay.drawn() is None


def test_hints_reaching_past_the_area_are_cut_at_its_edge(game, overlay, screen) -> None:
    across = [Polyline(((50, 300), (750, 300)), RED, 8.0, "each"), Marker((700, 110), 30, RED),
              Label((110, 480), "far left")]
    overlay.show(across, GAME)
    overlay.pump()
    image = wait_for_pixels(screen.grab, lambda im: near(im, 200, 0, bgr("#e61414")))
    area, mask = overlay.drawn()
    changed = (image != bgr(GAME_COLOR)).any(axis=2)
    assert near(image, 200, 0, bgr("#e61414")) and near(image, 200, 599, bgr("#e61414"))
    assert (changed <= mask).all() and mask[0, 599] and mask[380, 0]


def test_click_on_a_hint_stroke_reaches_the_window_below(game, overlay, screen) -> None:
    show_and_grab(overlay, screen, [PATH])
    subprocess.run(["xdotool", "mousemove", "350", "200", "click", "1"], check=True)
    assert game.wait_for(lambda e: e[0] == "press") == ("press", "350", "200")


def test_the_overlay_is_see_through_and_click_through_under_a_window_manager(desktop, tk_window) -> None:
    game = tk_window("Overlay game", GAME, GAME_COLOR)
    rect, _ = placed("Overlay game")      # a window manager's title bar moves the client area
    hints, screen = HintOverlay(), region_source(rect)
    try:
        stroke = Polyline(((rect.left + 100, rect.top + 100), (rect.left + 400, rect.top + 100)), RED, 8.0, "none")
        hints.show([stroke], rect)
        hints.pump()
        image = wait_for_pixels(screen.grab, lambda im: near(im, 100, 250, bgr("#e61414")))
        untouched = np.ones(image.shape[:2], bool)
        untouched[80:120, 80:420] = False
        assert near(image, 100, 250, bgr("#e61414")) and (image[untouched] == bgr(GAME_COLOR)).all()
        x, y = rect.left + 250, rect.top + 100
        subprocess.run(["xdotool", "mousemove", str(x), str(y), "click", "1"], check=True)
        assert game.wait_for(lambda e: e[0] == "press") == ("press", str(x), str(y))
    finally:
        screen.close()
        hints.close()


def test_an_overlay_the_x_server_cannot_shape_is_refused_and_leaves_no_window(display: str,
                                                                             monkeypatch: pytest.MonkeyPatch) -> None:
    import tkinter

    import overlay.surface_x11

    def no_shape() -> None:
        raise OverlayError("the X server has no SHAPE extension: use --hints window")

    monkeypatch.setattr(overlay.surface_x11, "XShape", no_shape)
    root = tkinter.Tk()
    try:
        with pytest.raises(OverlayError, match="no SHAPE extension"):
            HintOverlay(root)
        assert root.winfo_children() == []
    finally:
        root.destroy()


def test_hidden_takes_the_hints_off_for_a_grab_and_puts_them_back(game, overlay, screen) -> None:
    show_and_grab(overlay, screen, [PATH])
    with overlay.hidden():
        clean = screen.grab()
    assert (clean == bgr(GAME_COLOR)).all()
    back = wait_for_pixels(screen.grab, lambda im: near(im, 100, 250, bgr("#e61414")))
    assert near(back, 100, 250, bgr("#e61414"))


def test_hidden_grab_sees_a_game_in_the_same_tk_fully_repainted(display: str) -> None:
    import tkinter

    root = tkinter.Tk()
    try:
        root.geometry(f"{GAME.width}x{GAME.height}+{GAME.left}+{GAME.top}")
        board = tkinter.Canvas(root, bg=GAME_COLOR, highlightthickness=0)
        board.pack(fill="both", expand=True)
        board.create_rectangle(50, 50, 550, 350, fill="#c0c0c0", outline="")
        root.update()
        source = region_source(GAME)
        overlay = HintOverlay(root)
        try:
            reference = wait_for_pixels(source.grab, lambda im: near(im, 200, 300, bgr("#c0c0c0"), 0))
            overlay.show([PATH], GAME)
            overlay.pump()
            assert near(source.grab(), 100, 250, bgr("#e61414"))
            overlay.settle = 0.0   # repainting this Tk's windows must not depend on waiting
            for _ in range(5):
                with overlay.hidden():
                    assert (source.grab() == reference).all()
                assert near(source.grab(), 100, 250, bgr("#e61414"))
        finally:
            overlay.close()
            source.close()
    finally:
        root.destroy()


def test_show_replaces_the_previous_hints_and_clear_removes_them(game, overlay, screen) -> None:
    show_and_grab(overlay, screen, [PATH])
    moved = Polyline(((200, 450), (600, 450)), RED, 8.0, "none")
    overlay.show([moved], GAME)
    overlay.pump()
    image = wait_for_pixels(screen.grab, lambda im: near(im, 350, 300, bgr("#e61414")))
    assert near(image, 350, 300, bgr("#e61414"))
    assert near(image, 100, 250, bgr(GAME_COLOR), tol=0)
    overlay.clear()
    overlay.pump()
    image = wait_for_pixels(screen.grab, lambda im: (im == bgr(GAME_COLOR)).all())
    assert (image == bgr(GAME_COLOR)).all()


def test_show_accepts_the_frame_the_hint_window_needs(game, overlay, screen) -> None:
    frame = np.zeros((GAME.height, GAME.width, 3), np.uint8)
    overlay.show([PATH], GAME, frame=frame)
    overlay.pump()
    image = wait_for_pixels(screen.grab, lambda im: near(im, 100, 250, bgr("#e61414")))
    assert near(image, 100, 250, bgr("#e61414")) and near(image, 300, 100, bgr(GAME_COLOR), tol=0)


def test_hint_window_shows_the_capture_with_the_hints(display: str) -> None:
    window = HintWindow()
    try:
        frame = np.full((300, 400, 3), bgr(GAME_COLOR), np.uint8)
        area = Rect(50, 60, 400, 300)
        window.show([Polyline(((100, 160), (300, 160)), RED, 10.0, "none")], area, frame)
        window.pump()
        (title, rect, _), = find_windows(HintWindow.TITLE)
        source = region_source(rect)
        try:
            image = wait_for_pixels(source.grab, lambda im: near(im, 100, 100, bgr("#e61414")))
        finally:
            source.close()
        assert abs(image.shape[0] - 300) <= 4 and abs(image.shape[1] - 400) <= 4   # a label's border
        assert near(image, 100, 100, bgr("#e61414")) and near(image, 10, 10, bgr(GAME_COLOR), tol=0)
        window.clear()
        window.pump()
        (_, after, _), = find_windows(HintWindow.TITLE)
        assert after == rect, "the window keeps its size"
        source = region_source(rect)
        try:
            image = wait_for_pixels(source.grab, lambda im: not near(im, 100, 100, bgr("#e61414")))
        finally:
            source.close()
        assert not near(image, 100, 100, bgr("#e61414")) and not near(image, 10, 10, bgr(GAME_COLOR))
    finally:
        window.close()


SCREEN = Rect(0, 0, 1280, 800)


@pytest.mark.parametrize("area", [Rect(60, 16, 432, 768), Rect(700, 0, 580, 800), Rect(0, 0, 1280, 300),
                                  Rect(0, 500, 1280, 300), Rect(-200, 100, 500, 400), Rect(400, 300, 100, 80)])
def test_the_hint_window_goes_beside_the_captured_area_never_over_it(area: Rect) -> None:
    spot = beside(area, SCREEN)
    assert spot is not None and spot.intersect(SCREEN) == spot
    margin = Rect(area.left - ROOM_MARGIN, area.top - ROOM_MARGIN,
                  area.width + 2 * ROOM_MARGIN, area.height + 2 * ROOM_MARGIN)
    assert spot.intersect(margin) is None
    assert spot.width <= WINDOW_MAX[0] and spot.height <= WINDOW_MAX[1]
    assert abs(spot.width / spot.height - area.width / area.height) < 0.02
    assert min(spot.width, spot.height) >= min(MIN_PICTURE, area.width, area.height)


@pytest.mark.parametrize("area", [SCREEN, Rect(20, 20, 1240, 760), Rect(100, 0, 1100, 800)])
def test_no_place_beside_a_capture_of_about_the_whole_screen(area: Rect) -> None:
    assert beside(area, SCREEN) is None


def test_the_hint_window_refuses_an_area_it_would_cover(display: str) -> None:
    window = HintWindow()
    try:
        with pytest.raises(OverlayError, match="no room on the screen beside the captured area"):
            window.place(Rect(0, 0, 1280, 800))
    finally:
        window.close()


def test_make_hints_builds_each_kind_and_refuses_others(display: str) -> None:
    for kind, cls in (("overlay", HintOverlay), ("window", HintWindow)):
        hints = make_hints(kind)
        assert isinstance(hints, cls)
        hints.close()
        hints.close()   # harmless twice (the live loop closes in a finally)
    assert make_hints("none") is None
    with pytest.raises(ValueError, match="overlay, window or none"):
        make_hints("bubbles")
