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

Over a layer (``quantize``'s ``layer``, ``layer_rows``, ``dirty``: the pixels the canvas held
before the frame's own shapes were drawn, their indices, a map to fill): the same indices, the
layer's taken where a chunk of ``CHUNK`` pixels is the layer's, and the chunks that differ
marked; ``restore`` puts those chunks back, so that the next frame starts from the layer
without copying the whole canvas (``render.frame.FrameRenderer.over``). ``todo`` (``mark``'s map
of the chunks the frame's paths may ink): the other chunks are taken as the layer's, not read.

``explainer/core/_pixels.c`` is the compiled twin (``load``), bit for bit the same
(tests/core/test_pixels.py). Without it, ``render.frame.quantize_buffer`` uses Pillow's own
lookup (faster than this numpy twin, and the same indices).
"""
from __future__ import annotations

from typing import Any

from . import load

LUT_SIZE = 1 << 18


CHUNK = 16  # pixels: the dirty map's unit along a row (the last chunk of a row partial)


def quantize_py(src: Any, w: int, h: int, stride: int, lut: bytes, filtered: bool, layer: Any = None,
                layer_rows: Any = None, dirty: Any = None, todo: Any = None, out: Any = None,
                kept: bool = False, restore: bool = False) -> Any:
    """``lut[(r >> 2) | (g >> 2) << 6 | (b >> 2) << 12]`` for each pixel, row by row. With
    ``layer`` (pixels laid out as ``src``'s), its rows ``layer_rows`` (as returned here) and
    ``dirty`` (writable, ``ceil(w / CHUNK)`` bytes a row): the same indices, and ``dirty`` marks
    (1) each chunk of ``CHUNK`` pixels where ``src`` differs from ``layer`` in any byte, 0 elsewhere.
    ``todo`` (laid out as ``dirty``): the chunks it marks 0 are taken as the layer's (nothing was
    drawn there): their indices are ``layer_rows``' and ``dirty`` marks them 0, whatever ``src``
    holds there (the compiled lookup does not read them). ``out``: a writable buffer of the rows'
    size, written and returned instead of new bytes (``kept``: it holds ``layer_rows`` already but
    in the chunks ``dirty`` marks, which lets the compiled lookup write only those: the same rows).
    ``restore`` (over a layer): then ``src`` (writable) is made the layer again in the chunks
    ``dirty`` marks (``restore_py``; the compiled lookup does it row by row, while they are in the
    cache)."""
    import numpy as np

    given = [x is not None for x in (layer, layer_rows, dirty)]
    if any(given) and not all(given):
        raise TypeError("quantize: a layer, its rows and a dirty map, all three or none")
    if (todo is not None or kept) and not all(given):
        raise TypeError("quantize: the chunks to look up (todo) or kept rows without a layer")
    if kept and out is None:
        raise TypeError("quantize: kept rows without their buffer (out)")
    if restore and not all(given):
        raise TypeError("quantize: restore without a layer")
    if out is not None and len(out) != (w + int(filtered)) * h:
        raise ValueError("quantize: the rows' buffer (out) does not fit the frame")
    keep = None  # the pixels taken from the layer's rows, unread (``todo``)
    if all(given):
        chunks = -(-w // CHUNK)
        pitch = w + int(filtered)
        if len(dirty) != chunks * h or len(layer_rows) != pitch * h:
            raise ValueError("quantize: the layer, its rows or the dirty map do not fit the frame")
        if todo is not None and len(todo) != chunks * h:
            raise ValueError("quantize: the chunks to look up (todo) do not fit the frame")
        a = _pixel_rows(src, w, h, stride)
        b = _pixel_rows(layer, w, h, stride)
        differs = np.zeros((h, chunks * CHUNK), bool)
        differs[:, :w] = (a != b).any(axis=2)
        marked = differs.reshape(h, chunks, CHUNK).any(axis=2)
        if todo is not None:
            looked = np.frombuffer(todo, np.uint8).reshape(h, chunks) != 0
            marked &= looked
            keep = ~np.repeat(looked, CHUNK, axis=1)[:, :w]
        np.frombuffer(dirty, np.uint8)[:] = marked.reshape(-1)

    flat = np.frombuffer(src, dtype=np.uint8)
    if w < 0 or h < 0 or stride < 4 * w or h and len(flat) < stride * (h - 1) + 4 * w or len(lut) != LUT_SIZE:
        raise ValueError("quantize: the source is smaller than its size, or the table is not 2^18 bytes")
    if len(flat) < stride * h:  # the last row without its padding
        flat = np.concatenate([flat, np.zeros(stride * h - len(flat), np.uint8)])
    px = flat[:stride * h].reshape(h, stride)[:, :4 * w].reshape(h, w, 4).astype(np.uint32) >> 2
    got = np.zeros((h, w + int(filtered)), np.uint8)
    got[:, int(filtered):] = np.frombuffer(lut, dtype=np.uint8)[px[:, :, 0] | px[:, :, 1] << 6 | px[:, :, 2] << 12]
    if keep is not None:
        layer_ix = np.frombuffer(layer_rows, np.uint8).reshape(h, w + int(filtered))
        got[:, int(filtered):][keep] = layer_ix[:, int(filtered):][keep]
    if restore:
        restore_py(src, layer, w, h, stride, dirty)
    if out is not None:
        memoryview(out).cast("B")[:] = got.tobytes()
        return out
    return got.tobytes()


def mark_py(todo: Any, w: int, h: int, vertices: Any, codes: Any, fill: bool, pad: float) -> bool:
    """The chunks drawing a path may ink marked 1 in ``todo`` (``ceil(w / CHUNK)`` bytes a row,
    ``h`` rows): ``vertices`` (x and y in display pixels, y up from the bottom row) and ``codes``
    (matplotlib's; None: a polyline). A stroke inks within ``pad`` pixels of each segment's box
    (a curve's: its control points', which hold it; a closing segment's: back to the subpath's
    start), a fill within ``pad`` of each subpath's box (a point outside every subpath's box winds
    around none). False (the map partly marked) when a vertex is not finite or a code unknown."""
    import math

    import numpy as np

    chunks = -(-w // CHUNK)
    v = np.asarray(vertices, np.float64).reshape(-1, 2)
    n = len(v)
    if len(todo) != chunks * h or codes is not None and len(codes) != n or not pad >= 0:
        raise ValueError("mark: the map, vertices or codes do not fit")
    grid = np.frombuffer(todo, np.uint8).reshape(h, chunks)

    def put(pts: list[Any]) -> None:
        xs, ys = [p[0] for p in pts], [p[1] for p in pts]
        r0, r1 = max(0, math.floor(h - max(ys) - pad)), min(h, math.ceil(h - min(ys) + pad))
        c0, c1 = max(0, math.floor(min(xs) - pad)), min(w, math.ceil(max(xs) + pad))
        if r1 > r0 and c1 > c0:
            grid[r0:r1, c0 // CHUNK:-(-c1 // CHUNK)] = 1

    start = cur = -1
    sub: list[Any] = []
    i = 0
    while i < n:
        code = int(codes[i]) if codes is not None else (1 if i == 0 else 2)
        if code == 0:
            break
        if code not in (1, 2, 3, 4, 79):
            return False
        take = {3: 2, 4: 3}.get(code, 1)
        if i + take > n:
            return False
        pts = [v[i + k] for k in range(take)]
        if code != 79 and not all(np.isfinite(p).all() for p in pts):
            return False
        if code == 79 and cur < 0:
            i += 1
            continue
        if code == 1 or cur < 0:
            if fill and sub:
                put(sub)
            sub = list(pts)
            start = cur = i + take - 1
        elif code == 79:
            if not fill:
                put([v[cur], v[start]])
            cur = start
        else:
            if not fill:
                put([v[cur], *pts])
            sub += pts
            cur = i + take - 1
        i += take
    if fill and sub:
        put(sub)
    return True


def _pixel_rows(src: Any, w: int, h: int, stride: int) -> Any:
    """A buffer's pixels as an (h, w, 4) array (rows ``stride`` bytes apart)."""
    import numpy as np

    flat = np.frombuffer(src, dtype=np.uint8).reshape(-1)
    if h and len(flat) < stride * (h - 1) + 4 * w:
        raise ValueError("the buffer is smaller than its size")
    if len(flat) < stride * h:
        flat = np.concatenate([flat, np.zeros(stride * h - len(flat), np.uint8)])
    return flat[:stride * h].reshape(h, stride)[:, :4 * w].reshape(h, w, 4)


def paste_py(dst: Any, w: int, h: int, stride: int, x: int, y: int, block: Any, bw: int, ground: Any) -> bool:
    """``block`` (``bw`` pixels a row, 4 bytes each) put into ``dst`` (rows ``stride`` bytes apart)
    from column ``x``, row ``y`` if every pixel it covers is ``ground`` (4 bytes): True; else
    nothing written: False."""
    import numpy as np

    b = np.frombuffer(block, np.uint8)
    bh = len(b) // (4 * bw) if bw > 0 else 0
    if (bw <= 0 or len(b) != 4 * bw * bh or len(ground) != 4 or x < 0 or y < 0 or x + bw > w or y + bh > h
            or stride < 4 * w):
        raise ValueError("paste: the block does not fit inside the buffer, or the ground is not a pixel")
    d = np.frombuffer(dst, np.uint8).reshape(-1)
    rows = [d[(y + r) * stride + 4 * x:(y + r) * stride + 4 * (x + bw)] for r in range(bh)]
    g = np.tile(np.frombuffer(ground, np.uint8), bw)
    if not all((row == g).all() for row in rows):
        return False
    for r, row in enumerate(rows):
        row[:] = b[4 * r * bw:4 * (r + 1) * bw]
    return True


def restore_py(dst: Any, src: Any, w: int, h: int, stride: int, dirty: Any) -> None:
    """The chunks of ``CHUNK`` pixels ``dirty`` marks copied from ``src`` into ``dst`` (writable,
    laid out as ``src``): ``dst`` is ``src`` again where only those chunks differed."""
    import numpy as np

    chunks = -(-w // CHUNK)
    if len(dirty) != chunks * h:
        raise ValueError("restore: the buffers or the dirty map do not fit the size")
    d = np.frombuffer(dst, dtype=np.uint8).reshape(-1)
    f = _pixel_rows(src, w, h, stride)
    marks = np.frombuffer(dirty, np.uint8).reshape(h, chunks)
    for y, j in zip(*np.nonzero(marks), strict=True):
        x0, x1 = CHUNK * j, min(w, CHUNK * (j + 1))
        d[y * stride + 4 * x0:y * stride + 4 * x1] = f[y, x0:x1].reshape(-1)


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
# the chunks a frame drew over its layer put back (the next frame's start); the twin for tests
restore = _C.restore if _C is not None else None
# a layer's whole reduction, for ``quantize_tile`` over it (``tile``'s reduction: no twin either)
reduce = _C.reduce if _C is not None else None
# a kept word put back where the ground is plain (``render.frame.FrameRenderer._words``)
paste = _C.paste if _C is not None else paste_py
# the chunks a drawn path may ink (``render.frame.FrameRenderer``: the lookup reads only those)
mark = _C.mark if _C is not None else mark_py
compiled = _C is not None
