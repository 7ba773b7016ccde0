"""explainer/core/pixels.py: the compiled palette lookup (_pixels.c) returns the pure twin's
bytes; the table (render.frame.palette_table) gives Pillow's own indices for every colour."""
from __future__ import annotations

import numpy as np
import pytest
from PIL import Image

from explainer.core import pixels
from render.frame import THUMB_STEPS, palette_table, quantize_image, quantize_rows, rows_image
from render.theme import THEMES

compiled = pytest.mark.skipif(pixels._C is None, reason="compiled pixels not built (or pure path forced)")


def _runs(w: int, h: int, stride: int, seed: int) -> bytes:
    """An RGBA buffer of runs of a few colours and some noise, rows ``stride`` bytes apart."""
    rng = np.random.default_rng(seed)
    colours = rng.integers(0, 256, size=(6, 4), dtype=np.uint8)
    px = colours[rng.integers(0, 6, size=(h, w // 8 + 1)).repeat(8, axis=1)[:, :w]]
    px[h // 2:, ::7] = rng.integers(0, 256, size=px[h // 2:, ::7].shape, dtype=np.uint8)
    buf = np.zeros((h, stride), np.uint8)
    buf[:, :4 * w] = px.reshape(h, 4 * w)
    return buf.tobytes()


@compiled
@pytest.mark.parametrize("filtered", [False, True])
@pytest.mark.parametrize(("w", "h", "stride"), [(37, 11, 148), (37, 11, 160), (1, 1, 4), (0, 3, 0), (64, 0, 256)])
def test_compiled_is_the_pure_twin(w, h, stride, filtered):
    lut = bytes(np.random.default_rng(w + h).integers(0, 256, pixels.LUT_SIZE, dtype=np.uint8))
    src = _runs(max(w, 1), h, stride or 4, seed=w * h + stride)
    assert pixels._C.quantize(src, w, h, stride, lut, filtered) == pixels.quantize_py(src, w, h, stride, lut, filtered)


@compiled
def test_the_fourth_byte_is_not_read():
    """Runs of one colour whose fourth byte changes (the four-pixels-at-once path compares
    whole pixels, the lookup only their RGB): the indices of the colour alone."""
    rng = np.random.default_rng(5)
    px = np.zeros((3, 40, 4), np.uint8)
    px[:, :, :3] = (12, 200, 77)
    px[:, 20:, :3] = (13, 201, 78)
    px[:, :, 3] = rng.integers(0, 256, size=(3, 40))
    px[1, :, 3] = 255
    lut = bytes(np.random.default_rng(6).integers(0, 256, pixels.LUT_SIZE, dtype=np.uint8))
    got = pixels._C.quantize(px.tobytes(), 40, 3, 160, lut, False)
    assert got == pixels.quantize_py(px.tobytes(), 40, 3, 160, lut, False)
    plain = px.copy()
    plain[:, :, 3] = 0
    assert got == pixels._C.quantize(plain.tobytes(), 40, 3, 160, lut, False)


@compiled
def test_compiled_refuses_a_short_source_or_table():
    with pytest.raises(ValueError):
        pixels._C.quantize(bytes(4 * 10), 10, 2, 40, bytes(pixels.LUT_SIZE), False)
    with pytest.raises(ValueError):
        pixels._C.quantize(bytes(40), 10, 1, 40, bytes(10), False)


@pytest.mark.parametrize("steps", [None, THUMB_STEPS])
@pytest.mark.parametrize("name", ["default", "colorblind", "high-contrast"])
def test_the_table_is_pillows_lookup(name, steps):
    """Pillow's indices for random colours and for every slot's corners and far corners."""
    theme = THEMES[name]
    rng = np.random.default_rng(3)
    k = np.arange(1 << 18, dtype=np.uint32)
    corner = np.stack([(k & 63) << 2, (k >> 6 & 63) << 2, (k >> 12) << 2], axis=1)
    px = np.concatenate([rng.integers(0, 256, size=(1 << 18, 3)), corner + 3, corner]).astype(np.uint8)
    rgbx = np.concatenate([px, np.full((len(px), 1), 255, np.uint8)], axis=1)
    size = (512, len(px) // 512)
    pillow = quantize_image(Image.frombytes("RGBX", size, rgbx.tobytes()), theme, steps).tobytes()
    ours = pixels.quantize_py(rgbx.tobytes(), len(px), 1, 4 * len(px), palette_table(theme, steps), False)
    assert ours == pillow


def test_rows_and_their_image_are_quantize_image():
    from render.frame import DEFAULT_THEME, FrameRenderer
    from render.scene import Scene

    r = FrameRenderer(4, DEFAULT_THEME)
    with r.rgba(Scene(4, [])) as im:
        want = quantize_image(im, DEFAULT_THEME)
        rows = quantize_rows(r.canvas.buffer_rgba(), im.size, DEFAULT_THEME)
    if rows is None:
        assert pixels._C is None
        return
    got = rows_image(rows, want.size, DEFAULT_THEME)
    assert got.tobytes() == want.tobytes() and got.getpalette() == want.getpalette()
