"""A small PNG writer for palette images: the frames and the contact sheet's pages.

Why not Pillow's PNG encoder: the frames are long runs of a few palette colours, and
Pillow compresses them with zlib, whose level 1 is still the largest cost of writing a
picture (the 16x16 example's frames: 6.5 ms a frame of 1432 x 1829 px, 131 kB). ISA-L's
deflate (``python-isal``, its ``isal_zlib`` module: the same zlib stream) writes the same
rows in about 1 ms and 109 kB. Without it installed, the standard library's zlib writes
the same format (a slower, larger file; the same pixels).

Rows (a frame's, a sheet page's) go to the compiled core's own deflate when it is built
(``explainer.core._deflate``): a frame is mostly the row above again or runs of one index, so
it looks for matches only there, and sums the Adler-32 while the rows are in the cache (a
25x25 frame: 2.0-2.2 against ISA-L's 2.6-3.0 ms on rows in the cache, files about a quarter
smaller). Any inflater reads its stream; the pure path writes the same pixels with ISA-L.

The file holds what Pillow's writes for these images, a reader sees no difference:
IHDR (8-bit palette), PLTE (the whole palette given, 256 entries for the theme's), tRNS
only when a transparency is given, pHYs when a dpi is given (the sheet's pages print at
their size), one IDAT, IEND. Every row is filtered "None" (Pillow's choice for palette
images too).
"""
from __future__ import annotations

import os
import struct
import zlib
from collections.abc import Callable, Sequence
from typing import Any

from explainer.core import load

_isal: Any
try:  # ISA-L's deflate: several times faster than zlib on the frames (module docstring)
    from isal import isal_zlib as _isal
except ImportError:  # pragma: no cover - the fallback is tested by passing ``deflate``
    _isal = None
# the chunks' CRC: ISA-L's (carry-less multiply) when installed, 3x zlib's on a frame's IDAT
_crc32: Callable[..., int] = _isal.crc32 if _isal is not None else zlib.crc32
# the compiled deflate of rows (``default_deflate``); None on the pure path or when it is not built
_rows = load("_deflate")

# ISA-L's levels 0-3 on the 16x16 example's frames: 1.37 ms a frame and 125 kB (level 0), 104.8 kB
# (1), 104.6 kB (2, as fast), 6.2 ms (3); the sheet's pages alike (1.46 ms, 122 kB at level 1)
ISAL_LEVEL = 1
ZLIB_LEVEL = 1
ZLIB_STRATEGY = zlib.Z_RLE  # the frames' runs (the frame files' strategy when Pillow wrote them)

SIGNATURE = b"\x89PNG\r\n\x1a\n"


def zlib_deflate(data: Any, level: int = ZLIB_LEVEL) -> bytes:
    """``data`` (any contiguous buffer) as a zlib stream, by the standard library
    (run-length strategy)."""
    c = zlib.compressobj(level, zlib.DEFLATED, 15, 8, ZLIB_STRATEGY)
    return c.compress(data) + c.flush()


def isal_deflate(data: Any, level: int = ISAL_LEVEL) -> bytes:
    """``data`` (any contiguous buffer) as a zlib stream, by ISA-L."""
    assert _isal is not None
    return bytes(_isal.compress(data, level))


def default_deflate(pitch: int | None = None) -> Callable[[Any], bytes]:
    """For rows of ``pitch`` bytes, the compiled deflate of rows (``explainer.core._deflate``:
    matches with the row above or the byte before only) when it is built; else, and for any
    other data, ISA-L's deflate when ``python-isal`` is installed, else zlib's."""
    if pitch is not None and _rows is not None:
        deflate = _rows.deflate
        return lambda data: deflate(data, pitch)
    return isal_deflate if _isal is not None else zlib_deflate


def inflate(data: Any) -> bytes:
    """A zlib stream (``default_deflate``'s) read back: by ISA-L when installed, else by zlib."""
    return bytes(_isal.decompress(data)) if _isal is not None else zlib.decompress(data)


def _chunk(kind: bytes, data: bytes) -> bytes:
    return b"".join(_chunk_parts(kind, data))


def _chunk_parts(kind: bytes, data: bytes) -> tuple[bytes, bytes, bytes]:
    """A chunk's length and kind, its data, its CRC: the data not copied (a 25x25 frame's IDAT
    is about 380 kB)."""
    return struct.pack(">I", len(data)) + kind, data, struct.pack(">I", _crc32(data, _crc32(kind)))


def png_bytes(indices: Any, palette: bytes, *, dpi: tuple[float, float] | None = None,
              transparency: bytes | None = None, deflate: Callable[[Any], bytes] | None = None) -> bytes:
    """A palette PNG of ``indices`` (an (h, w) uint8 array, or anything numpy reads as one),
    ``palette`` its RGB bytes (1 to 256 colours), ``transparency`` the alpha of its first
    entries (tRNS), ``dpi`` its resolution (pHYs, in dots per metre as Pillow writes it)."""
    import numpy as np

    px = np.asarray(indices, dtype=np.uint8)
    h, w = px.shape
    rows = np.zeros((h, w + 1), dtype=np.uint8)  # each row: its filter byte (0, None), its indices
    rows[:, 1:] = px
    return png_rows(rows, (w, h), palette, dpi=dpi, transparency=transparency, deflate=deflate)


def png_rows(rows: Any, size: tuple[int, int], palette: bytes, *, dpi: tuple[float, float] | None = None,
             transparency: bytes | None = None, deflate: Callable[[Any], bytes] | None = None) -> bytes:
    """``png_bytes`` of rows ready to compress (a buffer of ``h`` rows, each its filter byte 0
    then its ``w`` indices: ``explainer.core.pixels.quantize``'s filtered output)."""
    return b"".join(_png_parts(rows, size, palette, dpi=dpi, transparency=transparency, deflate=deflate))


def _png_parts(rows: Any, size: tuple[int, int], palette: bytes, *, dpi: tuple[float, float] | None = None,
               transparency: bytes | None = None, deflate: Callable[[Any], bytes] | None = None) -> list[bytes]:
    """``png_rows``' bytes in parts, the compressed rows one of them (written as they are, not
    joined into one more copy first)."""
    w, h = size
    if not 3 <= len(palette) <= 768 or len(palette) % 3:
        raise ValueError(f"a palette is 1 to 256 RGB colours, not {len(palette)} bytes")
    if memoryview(rows).nbytes != (w + 1) * h:
        raise ValueError(f"{w} x {h} pixels are {(w + 1) * h} bytes of rows, not {memoryview(rows).nbytes}")
    head = [SIGNATURE, _chunk(b"IHDR", struct.pack(">IIBBBBB", w, h, 8, 3, 0, 0, 0)),
            _chunk(b"PLTE", bytes(palette))]
    if transparency:
        head.append(_chunk(b"tRNS", bytes(transparency)))
    if dpi is not None:
        head.append(_chunk(b"pHYs", struct.pack(">IIB", int(dpi[0] / 0.0254 + 0.5), int(dpi[1] / 0.0254 + 0.5), 1)))
    size_kind, data, crc = _chunk_parts(b"IDAT", (deflate or default_deflate(w + 1))(rows))
    return [b"".join((*head, size_kind)), data, crc + _chunk(b"IEND", b"")]


def write_rows(path: Any, rows: Any, size: tuple[int, int], palette: bytes, *,
               dpi: tuple[float, float] | None = None, deflate: Callable[[Any], bytes] | None = None) -> None:
    """``png_rows`` written to ``path``."""
    parts = _png_parts(rows, size, palette, dpi=dpi, deflate=deflate)
    with open(path, "wb", buffering=0) as f:
        write_all(f, parts)


def write_all(f: Any, parts: Sequence[bytes]) -> None:
    """``parts`` written to the unbuffered file ``f`` in one system call (``os.writev``: neither
    joined nor copied into a buffer first), the rest by ``write`` if the call writes less."""
    done = os.writev(f.fileno(), parts)
    if done < sum(len(p) for p in parts):
        rest = memoryview(b"".join(parts))[done:]
        while rest:
            rest = rest[f.write(rest):]


def write_png(path: Any, indices: Any, palette: bytes, *, dpi: tuple[float, float] | None = None,
              transparency: bytes | None = None, deflate: Callable[[Any], bytes] | None = None) -> None:
    """``png_bytes`` written to ``path``."""
    data = png_bytes(indices, palette, dpi=dpi, transparency=transparency, deflate=deflate)
    with open(path, "wb") as f:
        f.write(data)


def save_palette_png(im: Any, path: Any, *, dpi: tuple[float, float] | None = None,
                     deflate: Callable[[Any], bytes] | None = None) -> None:
    """A Pillow 'P' image written to ``path`` (``png_bytes``), its palette as Pillow writes it
    (the whole palette) and its transparency when it has one (a single transparent index,
    or a table of alphas)."""
    if im.mode != "P":
        raise ValueError(f"a palette image is needed, not {im.mode!r}")
    trns = im.info.get("transparency")
    if isinstance(trns, int):
        trns = b"\xff" * trns + b"\0"
    write_png(path, indices(im), bytes(im.im.getpalette("RGB")), dpi=dpi, transparency=trns, deflate=deflate)


def indices(im: Any) -> Any:
    """A one-band image's bytes ('P' indices, 'L') as an (h, w) uint8 array."""
    import numpy as np

    w, h = im.size
    return np.frombuffer(im.tobytes(), dtype=np.uint8).reshape(h, w)
