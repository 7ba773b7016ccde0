"""Legible at class size (RENDERING.md wave 2): candidates >= 12 px high at the
default size for every grid size, measured on the pixels."""
import numpy as np
import pytest

from render.frame import FrameRenderer
from render.scene import Scene, Shape, spot


def _glyph_height(n: int, ch_value: int) -> int:
    r = FrameRenderer(n)
    row, col = n - 2, n - 2
    sc = Scene(n, [Shape("candidate", "candidate", row, col, ch_value)])
    px = np.asarray(r.image(sc)).astype(int)
    L = r.layout
    x0, y0, w, h = L.ax_rect
    W, H = L.pixels
    cell = w * W / n
    gx, gy = spot(n, row, col, ch_value)
    cx, cy = x0 * W + gx * cell, H - (y0 * H + (n - gy) * cell)
    half = int(cell / (2 * r.layout.m)) + 2
    box = px[int(cy) - half:int(cy) + half, int(cx) - half:int(cx) + half]
    dark = np.where(box.sum(axis=2) < 400)[0]
    return int(dark.max() - dark.min() + 1)


@pytest.mark.parametrize("n", [9, 16, 25])
def test_candidates_at_least_12_px(n):
    # "8" (a digit) and "D" (a letter: must not read as 0 or Ø)
    values = [8] + ([13] if n > 9 else [])
    for v in values:
        assert _glyph_height(n, v) >= 12, (n, v)


def test_big_grids_get_bigger_frames():
    assert FrameRenderer(16).layout.pixels[0] >= 1400
    assert FrameRenderer(25).layout.pixels[0] >= 2500
