"""The "Ring Moves ×N" panel in every capture people make: small, large, heavy JPEG.

The digits are cut out by lightness on the green sticker and matched with templates
blurred to their size; tesseract is the fallback, and a reading is N or nothing."""
from __future__ import annotations

from pathlib import Path

import cv2
import numpy as np
import pytest

import vision.rings
from puzzlepilot.scenes.rings import render_camera
from solvers.rings import Board, generate
from vision.rings import Budget, read_budget

CAPTURE = Path(__file__).resolve().parents[2] / ".." / "shared" / "real" / "rings" / "origami_ring_moves2.png"
needs_real = pytest.mark.skipif(not CAPTURE.exists(), reason="real captures not present")


def jpeg(image: np.ndarray, quality: int) -> np.ndarray:
    return cv2.imdecode(cv2.imencode(".jpg", image, [cv2.IMWRITE_JPEG_QUALITY, quality])[1], cv2.IMREAD_COLOR)


def rescaled(image: np.ndarray, width: int) -> np.ndarray:
    h, w = image.shape[:2]
    return cv2.resize(image, (width, round(h * width / w)), interpolation=cv2.INTER_AREA if width < w else cv2.INTER_CUBIC)


@pytest.fixture
def no_tesseract(monkeypatch: pytest.MonkeyPatch) -> None:
    import pytesseract

    def started(*_, **__):
        raise AssertionError("tesseract started")

    monkeypatch.setattr(pytesseract, "image_to_string", started)


@needs_real
@pytest.mark.parametrize("quality", [40, 70, 95])
@pytest.mark.parametrize("width", [352, 400, 440, 520, 640, 800, 960, 1280, 1600, 1920])
def test_the_real_panel_reads_by_templates_at_every_size_and_jpeg(width, quality, no_tesseract):
    """Issue 12 §3: the given capture rescaled 352–1920 px wide at JPEG 40–95. Before,
    13 of these 30 were unread (the user got the --moves warning)."""
    image = jpeg(rescaled(cv2.imread(str(CAPTURE)), width), quality)
    assert read_budget(image) == Budget(2, "digits")


def test_rendered_panels_read_by_templates_at_every_size_and_jpeg(no_tesseract):
    """Issue 18 §4: the renders write "×N" as the game does, heavy rounded digits in the
    templates' bold font on a green sticker, so every N from 1 to 9 reads by templates
    alone at 352–1920 px and JPEG 40–95. In OpenCV's Hershey font 122 of 162 read, and the
    rest cost a tesseract call each."""
    for moves in range(1, 10):
        base, _ = render_camera(Board(generate(5, 1, 1).cells, moves), 1920, 1080, "tilted", moves)
        for width in (352, 440, 640, 960, 1280, 1920):
            for quality in (40, 70, 95):
                assert read_budget(jpeg(rescaled(base, width), quality)) == Budget(moves, "digits"), (moves, width, quality)


def test_a_larger_white_box_beside_the_panel_does_not_hide_it(no_tesseract):
    """A white window (or menu) larger than the panel in the top right: the next white box,
    the panel, is read. Before, only the largest was tried and tesseract was started."""
    image, _ = render_camera(Board(generate(5, 1, 1).cells, 4), 1280, 720, "tilted", 4)
    h, w = image.shape[:2]
    image[round(0.05 * h):round(0.35 * h), round(0.56 * w):round(0.78 * w)] = 255
    assert read_budget(image) == Budget(4, "digits")


@needs_real
def test_an_ocr_reading_the_glyphs_contradict_is_refused(monkeypatch: pytest.MonkeyPatch):
    """When the templates are unsure, tesseract's N must fit the glyphs they saw: as many
    digits, each among its glyph's two likeliest."""
    monkeypatch.setattr(vision.rings, "DIGIT_MARGIN", 2.0)        # the templates never settle
    monkeypatch.setattr(vision.rings, "_OCR_MISSING", [])
    image = cv2.imread(str(CAPTURE))
    monkeypatch.setattr(vision.rings, "ocr_text", lambda *_: "Ring Moves x5")
    refused = read_budget(image)
    assert refused.moves is None and "not clear" in refused.why
    monkeypatch.setattr(vision.rings, "ocr_text", lambda *_: "Ring Moves x12")
    assert read_budget(image).moves is None
    monkeypatch.setattr(vision.rings, "ocr_text", lambda *_: "Ring Moves x2")
    assert read_budget(image) == Budget(2, "ocr")


def test_a_frame_without_the_panel_says_it_is_not_visible(monkeypatch: pytest.MonkeyPatch):
    """A battle drawn without its panel: "not visible", whatever tesseract makes of the
    top right."""
    monkeypatch.setattr(vision.rings, "_OCR_MISSING", [])
    monkeypatch.setattr(vision.rings, "ocr_text", lambda *_: "122")
    image, _ = render_camera(Board(generate(5, 1, 1).cells, None), 1280, 720, "tilted", 5)
    found = read_budget(image)
    assert found.moves is None and "not visible" in found.why
