"""The frames' palette lookup after drawing, with a compiled twin.

``quantize`` maps each RGBA/RGBX pixel onto a palette through a table of 2^18 entries (the
top six bits of red, green and blue: the slots of Pillow's own palette lookup, made into a
table once per palette by ``render.frame.palette_table``), reading the source in place (any
buffer: the canvas's own memory, rows ``stride`` bytes apart, 4 bytes a pixel, the fourth
not read). ``filtered``: each row after a zero byte, PNG's filter byte, so that the PNG
writer (``render.pngwrite``) compresses the rows as they come.

``tile`` (compiled only) reduces a frame by k to the contact sheet's tile as Pillow's ``reduce``
then BOX ``resize`` do (``box_plan``: the resize's bounds and weights, worked out as Pillow works
them out), in one call, on three channels, the reduction made only for the rows the resize reads;
its twin is Pillow's own two steps (``render.sheet.pillow_tile``).

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


PRECISION_BITS = 22  # the resize's fixed-point weights (Pillow's, for 8-bit channels)


def box_plan(in_size: int, in0: float, in1: float, out_size: int) -> tuple[bytes, bytes, int]:
    """A BOX resize's coefficients along one axis as Pillow works them out for
    ``resize(..., BOX, box=...)`` (the box's ends single-precision floats; double weights
    normalised to sum 1, then rounded to ``PRECISION_BITS`` fixed point): each output pixel's
    first input pixel and count (int32 pairs), its weights (int32, ``ksize`` each), ``ksize``."""
    import math
    import struct

    import numpy as np

    lo, hi = np.float32(in0), np.float32(in1)
    scale = float(np.float32(hi - lo)) / out_size
    filterscale = max(scale, 1.0)
    support = 0.5 * filterscale  # the box filter's half width, widened when shrinking
    ksize = int(math.ceil(support)) * 2 + 1
    inv = 1.0 / filterscale
    bounds: list[int] = []
    weights: list[int] = []
    for xx in range(out_size):
        center = float(lo) + (xx + 0.5) * scale
        xmin = max(0, int(center - support + 0.5))  # C's conversion: toward zero
        count = min(in_size, int(center + support + 0.5)) - xmin
        ws = [1.0 if -0.5 < (x + xmin - center + 0.5) * inv <= 0.5 else 0.0 for x in range(count)]
        total = 0.0
        for v in ws:  # the same additions in the same order
            total += v
        if total != 0.0:
            ws = [v / total for v in ws]
        ws += [0.0] * (ksize - count)
        weights += [int(-0.5 + v * (1 << PRECISION_BITS)) if v < 0 else int(0.5 + v * (1 << PRECISION_BITS))
                    for v in ws]
        bounds += [xmin, count]
    return struct.pack(f"={len(bounds)}i", *bounds), struct.pack(f"={len(weights)}i", *weights), ksize


_C = load("_pixels")
quantize = _C.quantize if _C is not None else quantize_py
# the tile has no twin here: without the compiled core, render.sheet reduces and resizes with
# Pillow itself, whose bytes ``tile`` reproduces (core does not draw: no image library here)
tile = _C.tile if _C is not None else None
# ``quantize`` and ``tile`` (with the table) in one pass over the frame, each tile row made while
# the frame rows it reduces are in the cache: the same bytes as the two calls
quantize_tile = _C.quantize_tile if _C is not None else None
compiled = _C is not None
