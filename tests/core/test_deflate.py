"""explainer/core/_deflate.c: the PNG rows' deflate is a zlib stream zlib reads back to the same
bytes, whatever the rows hold (runs, noise, the row above again, one row, none, rows longer
than deflate's window), and its checksum is zlib's Adler-32."""
from __future__ import annotations

import zlib

import numpy as np
import pytest

from explainer.core import load

_deflate = load("_deflate")
pytestmark = pytest.mark.skipif(_deflate is None, reason="compiled deflate not built (or pure path forced)")


def _rows(w: int, h: int, seed: int) -> bytes:
    """Rows like a frame's: each its filter byte 0, then runs of the background, some rows the
    row above again, a few runs of one index, anti-aliased noise in places."""
    rng = np.random.default_rng(seed)
    px = np.zeros((h, w + 1), np.uint8)
    for y in range(h):
        if y and rng.random() < 0.4:
            px[y, 1:] = px[y - 1, 1:]
            continue
        for _ in range(rng.integers(0, 4)):
            x0 = int(rng.integers(1, w + 1))
            px[y, x0:x0 + int(rng.integers(1, 40))] = rng.integers(0, 256)
        noisy = rng.random(w) < 0.05
        px[y, 1:][noisy] = rng.integers(0, 256, int(noisy.sum()))
    px[:, 0] = 0
    return px.tobytes()


@pytest.mark.parametrize(("w", "h"), [(301, 77), (1, 1), (2, 500), (40, 3), (700, 1), (33000, 3)])
def test_the_stream_reads_back_as_the_rows(w, h):
    data = _rows(w, h, seed=w + h)
    out = _deflate.deflate(data, w + 1)
    assert zlib.decompress(out) == data
    assert out[:2] == b"\x78\x01" and int.from_bytes(out[-4:], "big") == zlib.adler32(data)


@pytest.mark.parametrize("pitch", [1, 2, 3, 17, 258, 259, 32768, 32769, 10**6])
def test_any_bytes_at_any_pitch(pitch):
    """Noise, long runs, and runs longer than a match (258) and than a block of tokens."""
    rng = np.random.default_rng(pitch)
    parts = [rng.integers(0, 256, 5000, dtype=np.uint8).tobytes(), bytes(100_000), b"\x07" * 259,
             rng.integers(0, 3, 200_000, dtype=np.uint8).tobytes(), b"ab" * 40_000]
    data = b"".join(parts)
    assert zlib.decompress(_deflate.deflate(data, pitch)) == data


def test_empty_and_tiny():
    for data in (b"", b"\0", b"\1\2", b"\0\0\0", b"\5" * 4):
        assert zlib.decompress(_deflate.deflate(data, 3)) == data


def test_smaller_than_zlib_level_1_on_frame_like_rows():
    """What the module is for: rows of a frame (runs and the row above) compress at least as
    well as zlib's level 1, by matches only one row up or one byte back."""
    data = _rows(1200, 400, seed=5)
    assert len(_deflate.deflate(data, 1201)) <= len(zlib.compress(data, 1))


def test_a_row_is_at_least_a_byte():
    with pytest.raises(ValueError):
        _deflate.deflate(b"abc", 0)


@pytest.mark.parametrize("n", [0, 1, 31, 32, 33, 5535, 5536, 5552, 5553, 100_003])
def test_adler32_is_zlibs(n):
    rng = np.random.default_rng(n)
    for data in (rng.integers(0, 256, n, dtype=np.uint8).tobytes(), b"\xff" * n):
        assert _deflate.adler32(data) == zlib.adler32(data)
        assert _deflate.adler32(data, 0xFFF0FFF0) == zlib.adler32(data, 0xFFF0FFF0)
