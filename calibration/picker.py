"""The calibration window: drag a box around the board, then click one example of each
kind. Used when the user cannot or does not want to type the board.

Like capture sources, hint surfaces and input drivers, a picker is one small interface,
:class:`Picker`, made by one factory, :func:`open_picker`, for the desktop
``vision.platform`` decides. One implementation serves every desktop that can open a
window (:class:`TkPicker`: Tk opens windows on X11, Windows, macOS and, through XWayland,
Wayland); elsewhere the factory refuses with the reason."""
from __future__ import annotations

import base64
from typing import Any, Protocol

import numpy as np

from vision.platform import detect

Box = tuple[int, int, int, int]          # x, y, width, height in image pixels
Picks = tuple[Box, dict[str, tuple[int, int]]]   # the board box and one image point per kind
MAX_VIEW = (1200, 800)


class PickCancelled(Exception):
    """The user closed the window or pressed Escape, or no window can open here."""


class Picker(Protocol):
    """What calibration asks of the user on a screenshot: the board box and one example
    point of each kind."""

    def pick(self, image: np.ndarray, kinds: tuple[str, ...], title: str = "calibrate") -> Picks:
        """Show ``image``; return the box and one image point per kind in ``kinds``;
        PickCancelled when the user gives up."""
        ...


def open_picker() -> Picker:
    """The picker for this desktop; PickCancelled where no window can open (no display),
    ImportError (which the command layer names) without tkinter."""
    picker = TkPicker()
    if not detect().windows:   # only where DISPLAY is not set: Windows and macOS always open one
        raise PickCancelled("picking points on the screenshot opens a window, and there is no display "
                            "(DISPLAY is not set)")
    return picker


def pick(image: np.ndarray, kinds: tuple[str, ...], title: str = "calibrate") -> Picks:
    """This desktop's picker (:func:`open_picker`) run once on ``image``: what the learners call."""
    return open_picker().pick(image, kinds, title)


class TkPicker:
    """The Tk window: the screenshot scaled to fit, a prompt line above it."""

    def __init__(self) -> None:
        import tkinter

        self._tk = tkinter

    def pick(self, image: np.ndarray, kinds: tuple[str, ...], title: str = "calibrate") -> Picks:
        """Show the screenshot; return the board box and one image point per kind."""
        import cv2

        tk = self._tk

        h, w = image.shape[:2]
        scale = min(1.0, MAX_VIEW[0] / w, MAX_VIEW[1] / h)
        view = cv2.resize(image, (round(w * scale), round(h * scale)), interpolation=cv2.INTER_AREA) if scale < 1 else image
        ok, png = cv2.imencode(".png", view)

        root = tk.Tk()
        root.title(title)
        prompt = tk.Label(root, font=("TkDefaultFont", 12), anchor="w")
        prompt.pack(fill="x")
        canvas = tk.Canvas(root, width=view.shape[1], height=view.shape[0], highlightthickness=0, cursor="crosshair")
        canvas.pack(anchor="nw")    # where it was found on screen, however wide a prompt makes the window
        photo = tk.PhotoImage(data=base64.b64encode(png.tobytes()))
        canvas.create_image(0, 0, image=photo, anchor="nw")

        state: dict[str, Any] = {"box": None, "start": None, "examples": {}, "cancelled": False}
        rect = canvas.create_rectangle(0, 0, 0, 0, outline="#ff2060", width=2)

        def step() -> str | None:
            """The kind still to click, or None once the box and all examples are given."""
            if state["box"] is None:
                return "box"
            return next((k for k in kinds if k not in state["examples"]), None)

        def refresh() -> None:
            todo = step()
            if todo == "box":
                prompt.config(text="Drag a box around the board (Esc cancels).")
            elif todo is None:
                root.quit()
            else:
                prompt.config(text=f"Click one example of: {todo}")

        def press(e: Any) -> None:
            if step() == "box":
                state["start"] = (e.x, e.y)
            elif step() is not None:
                state["examples"][step()] = (round(e.x / scale), round(e.y / scale))
                canvas.create_oval(e.x - 5, e.y - 5, e.x + 5, e.y + 5, outline="#ff2060", width=2)
                refresh()

        def motion(e: Any) -> None:
            if step() == "box" and state["start"]:
                canvas.coords(rect, *state["start"], e.x, e.y)

        def release(e: Any) -> None:
            if step() == "box" and state["start"]:
                (x0, y0), (x1, y1) = state["start"], (e.x, e.y)
                if abs(x1 - x0) > 10 and abs(y1 - y0) > 10:
                    box = (min(x0, x1), min(y0, y1), abs(x1 - x0), abs(y1 - y0))
                    state["box"] = tuple(round(v / scale) for v in box)
                state["start"] = None
                refresh()

        def cancel(_: Any = None) -> None:
            state["cancelled"] = True
            root.quit()

        canvas.bind("<ButtonPress-1>", press)
        canvas.bind("<B1-Motion>", motion)
        canvas.bind("<ButtonRelease-1>", release)
        root.bind("<Escape>", cancel)
        root.protocol("WM_DELETE_WINDOW", cancel)
        refresh()
        root.mainloop()
        root.destroy()
        if state["cancelled"]:
            raise PickCancelled("calibration cancelled in the window (Esc or closed); nothing written")
        return state["box"], state["examples"]
