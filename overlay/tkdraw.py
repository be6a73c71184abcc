"""Hint shapes drawn as Tk canvas items, looking like ``overlay.draw.render``'s picture.

Same colours, widths, round caps and joins, the same arrow-head triangles
(``draw.arrow_heads``), white-ringed markers and labels on a dark plate; only the font
differs (Tk's instead of OpenCV's Hershey). Text items and plates carry the tag ``"text"``
so the overlay can ask their exact size (``canvas.bbox("text")`` per item).
"""
from __future__ import annotations

import tkinter

from overlay.draw import Marker, Polyline, Shape, arrow_heads

PLATE = "#282828"   # draw.render's (40, 40, 40)


def hex_color(rgb: tuple[int, int, int]) -> str:
    return "#{:02x}{:02x}{:02x}".format(*(int(c) for c in rgb))


def font(size: float) -> tuple[str, int, str]:
    """A bold sans font whose letters are about as tall as OpenCV's at ``size``."""
    return ("Helvetica", -max(6, round(size * 1.1)), "bold")


def draw(canvas: tkinter.Canvas, shapes: list[Shape]) -> None:
    """Add the shapes to the canvas (canvas coordinates), in order, tagged ``"hint"``."""
    for s in shapes:
        if isinstance(s, Polyline):
            color = hex_color(s.color)
            flat = [c for p in s.points for c in p]
            if len(s.points) == 1:
                flat += flat   # a single point still draws a dot
            canvas.create_line(*flat, fill=color, width=max(1, round(s.width)),
                               capstyle=tkinter.ROUND, joinstyle=tkinter.ROUND, tags=("hint",))
            for tri in arrow_heads(s):
                canvas.create_polygon(*[c for p in tri for c in p], fill=color, outline="",
                                      tags=("hint",))
        elif isinstance(s, Marker):
            x, y, r = s.point[0], s.point[1], max(1.0, s.radius)
            canvas.create_oval(x - r, y - r, x + r, y + r, fill=hex_color(s.color),
                               outline="white", width=2, tags=("hint",))
            if s.label:
                canvas.create_text(x, y, text=s.label, fill="white", font=font(s.radius * 0.9),
                                   tags=("hint", "text"))
        else:  # Label
            text = canvas.create_text(s.point[0], s.point[1], text=s.text, fill=hex_color(s.color),
                                      font=font(s.size), tags=("hint", "text"))
            x0, y0, x1, y1 = canvas.bbox(text)
            plate = canvas.create_rectangle(x0 - 3, y0 - 1, x1 + 3, y1 + 1, fill=PLATE, outline="",
                                            tags=("hint", "text"))
            canvas.tag_lower(plate, text)


def text_boxes(canvas: tkinter.Canvas) -> list[tuple[int, int, int, int]]:
    """(x0, y0, x1, y1) of every text item and plate, as Tk measured them."""
    return [canvas.bbox(item) for item in canvas.find_withtag("text")]
