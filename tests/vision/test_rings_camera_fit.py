"""The ring camera's robust fit: edge points seen through a known camera give that camera
back, figures' outlines mixed into an edge pull it little, and a seed with no shape is
handed back for the seed checks to refuse, never raised."""
from __future__ import annotations

import cv2
import numpy as np

from vision.rings_camera import CAM, _fit, _image, _radius

# cx, cy, a, b, tilt, roll (radians), skew: the game's tilted camera at 480 px (squash 0.55, tilt
# 0.37 of the outer radius), held a little askew
TRUE = np.array([240.0, 150.0, 40.0, 22.0, 0.37 / 2.94, 0.06, 0.0])
RADII = (1.0, 1.46, 2.94)          # disc edge, blue ring's edge, outer rim (disc radii)


def edge(p: np.ndarray, radius: float, count: int = 90) -> np.ndarray:
    """Image points of a circle of the arena's plane seen through camera p."""
    a = np.linspace(0.0, 2 * np.pi, count, endpoint=False)
    return np.stack(_image(p, -radius * np.cos(a), radius * np.sin(a)), axis=1)


def start(p: np.ndarray = TRUE) -> np.ndarray:
    """A seed's first guess, as ``seeds`` makes it: the ellipse around the disc's edge, no
    tilt, no roll, the game's usual radii."""
    (x, y), axes, _ = cv2.fitEllipse(edge(p, RADII[0]).astype(np.float32))
    return np.array([x, y, max(axes) / 2, min(axes) / 2, 0.0, 0.0, 0.0, 1.4, 3.0])


def test_the_radius_jacobian_is_the_derivative_of_the_radius() -> None:
    points = edge(TRUE, 2.0, 30) + 3.0
    p = np.concatenate([TRUE[:CAM - 1], [0.08]])
    _, jac = _radius(p, points[:, 0], points[:, 1])
    for j in range(CAM):
        dp = np.zeros(CAM)
        dp[j] = 1e-6 * max(1.0, abs(p[j]))
        up, down = _radius(p + dp, points[:, 0], points[:, 1])[0], _radius(p - dp, points[:, 0], points[:, 1])[0]
        assert np.allclose(jac[:, j], (up - down) / (2 * dp[j]), rtol=1e-5, atol=1e-7), j


def test_a_camera_is_found_from_its_three_edges() -> None:
    found = _fit(start(), [edge(TRUE, r) for r in RADII], skew=False)
    assert np.allclose(found[:CAM], TRUE, rtol=1e-5, atol=1e-6)
    assert np.allclose(found[CAM:], RADII[1:], rtol=1e-6)


def test_a_figure_across_an_edge_pulls_the_fit_little() -> None:
    rim = edge(TRUE, RADII[2])
    rim[20:32] += (0.0, -14.0)     # a figure standing on the rim: its outline 14 px above the edge
    found = _fit(start(), [edge(TRUE, RADII[0]), edge(TRUE, RADII[1]), rim], skew=False)
    assert np.allclose(found[:2], TRUE[:2], atol=0.5)                  # the centre within half a pixel
    assert abs(found[CAM] - RADII[1]) < 1e-3                            # the clean edges as they are
    assert abs(found[CAM + 1] / RADII[2] - 1.0) < 0.015                 # the rim within 1.5 %


def test_a_skew_is_fitted_only_when_asked() -> None:
    skewed = np.concatenate([TRUE[:CAM - 1], [0.12]])
    edges = [edge(skewed, r) for r in RADII]
    assert _fit(start(skewed), edges, skew=False)[CAM - 1] == 0.0
    assert abs(_fit(start(skewed), edges, skew=True)[CAM - 1] - 0.12) < 1e-4


def test_a_seed_with_a_flat_ellipse_comes_back_as_it_is() -> None:
    seed = start()
    seed[3] = 0.0                  # an ellipse axis of 0: no camera to fit
    assert np.array_equal(_fit(seed, [edge(TRUE, r) for r in RADII], skew=False), seed)
