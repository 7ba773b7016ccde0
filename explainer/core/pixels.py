"""The frames' palette lookup after drawing, with a compiled twin.

``quantize`` maps each RGBA/RGBX pixel onto a palette through a table of 2^18 entries (the
top six bits of red, green and blue: the slots of Pillow's own palette lookup, made into a
table once per palette by ``render.frame.palette_table``), reading the source in place (any
buffer: the canvas's own memory, rows ``stride`` bytes apart, 4 bytes a pixel, the fourth
not read). ``filtered``: each row after a zero byte, PNG's filter byte, so that the PNG
writer (``render.pngwrite``) compresses the rows as they come.

``explainer/core/_pixels.c`` is the compiled twin (``load``), bit for bit the same
(tests/core/test_pixels.py). Without it, ``render.frame.quantize_buffer`` uses Pillow's own
lookup (faster than this numpy twin, and the same indices).
"""
from __future__ import annotations

from typing import Any

from . import load

LUT_SIZE = 1 << 18


def quantize_py(src: Any, w: int, h: int, stride: int, lut: bytes, filtered: bool) -> bytes:
    """``lut[(r >> 2) | (g >> 2) << 6 | (b >> 2) << 12]`` for each pixel, row by row."""
    import numpy as np

    flat = np.frombuffer(src, dtype=np.uint8)
    if w < 0 or h < 0 or stride < 4 * w or h and len(flat) < stride * (h - 1) + 4 * w or len(lut) != LUT_SIZE:
        raise ValueError("quantize: the source is smaller than its size, or the table is not 2^18 bytes")
    if len(flat) < stride * h:  # the last row without its padding
        flat = np.concatenate([flat, np.zeros(stride * h - len(flat), np.uint8)])
    px = flat[:stride * h].reshape(h, stride)[:, :4 * w].reshape(h, w, 4).astype(np.uint32) >> 2
    out = np.zeros((h, w + int(filtered)), np.uint8)
    out[:, int(filtered):] = np.frombuffer(lut, dtype=np.uint8)[px[:, :, 0] | px[:, :, 1] << 6 | px[:, :, 2] << 12]
    return out.tobytes()


_C = load("_pixels")
quantize = _C.quantize if _C is not None else quantize_py
compiled = _C is not None
