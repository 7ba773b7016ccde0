"""render/pngwrite.py: the palette PNGs of the frames and the sheet's pages read back in Pillow
with the same indices, palette, dpi and transparency, whichever deflate wrote them."""
from __future__ import annotations

import io
import struct

import numpy as np
import pytest
from PIL import Image

from render import pngwrite
from render.frame import DEFAULT_THEME, _palette

DEFLATES = [pytest.param(pngwrite.zlib_deflate, id="zlib")]
if pngwrite._isal is not None:
    DEFLATES.append(pytest.param(pngwrite.isal_deflate, id="isal"))
if pngwrite._rows is not None:  # the default: the compiled deflate of rows (row above, byte before)
    DEFLATES.append(pytest.param(None, id="rows"))


def _chunks(data: bytes) -> list[bytes]:
    assert data[:8] == pngwrite.SIGNATURE
    out, i = [], 8
    while i < len(data):
        (n,) = struct.unpack(">I", data[i:i + 4])
        out.append(data[i + 4:i + 8])
        i += 12 + n
    return out


def _frame_like(w: int = 301, h: int = 77, seed: int = 1) -> Image.Image:
    """A 'P' image on the theme's palette: runs of a few indices and some noise."""
    rng = np.random.default_rng(seed)
    px = np.zeros((h, w), np.uint8)
    px[10:30, :] = 3
    px[:, 50:52] = 7
    px[h // 2:] = rng.integers(0, 179, size=(h - h // 2, w), dtype=np.uint8)
    im = Image.frombytes("P", (w, h), px.tobytes())
    im.putpalette(_palette(DEFAULT_THEME, None).getpalette())
    return im


@pytest.mark.parametrize("deflate", DEFLATES)
def test_same_pixels_and_palette_as_written(tmp_path, deflate):
    im = _frame_like()
    path = tmp_path / "f.png"
    pngwrite.save_palette_png(im, path, deflate=deflate)
    back = Image.open(path)
    assert back.mode == "P" and back.size == im.size
    assert back.tobytes() == im.tobytes()
    assert back.getpalette() == im.getpalette()
    assert "transparency" not in back.info and "dpi" not in back.info
    assert _chunks(path.read_bytes()) == [b"IHDR", b"PLTE", b"IDAT", b"IEND"]


@pytest.mark.parametrize("deflate", DEFLATES)
def test_dpi_and_transparency_as_pillow_writes_them(tmp_path, deflate):
    im = _frame_like(w=64, h=9)
    im.info["transparency"] = 5
    ours = tmp_path / "ours.png"
    pngwrite.save_palette_png(im, ours, dpi=(150, 150), deflate=deflate)
    buf = io.BytesIO()
    im.save(buf, format="PNG", dpi=(150, 150))
    theirs = Image.open(buf)
    back = Image.open(ours)
    assert back.info["dpi"] == theirs.info["dpi"]
    assert back.info["transparency"] == theirs.info["transparency"] == 5
    assert back.tobytes() == theirs.tobytes() and back.getpalette() == theirs.getpalette()
    assert _chunks(ours.read_bytes()) == [b"IHDR", b"PLTE", b"tRNS", b"pHYs", b"IDAT", b"IEND"]


def test_a_sheet_page_from_l_indices_and_a_short_palette(tmp_path):
    page = Image.frombytes("L", (5, 3), bytes(range(15)))
    palette = bytes(range(45))  # 15 colours
    pngwrite.write_png(tmp_path / "p.png", pngwrite.indices(page), palette)
    back = Image.open(tmp_path / "p.png")
    assert back.tobytes() == page.tobytes()
    assert bytes(back.getpalette() or [])[:45] == palette


def test_zlib_is_the_fallback_without_isal(monkeypatch):
    monkeypatch.setattr(pngwrite, "_isal", None)
    monkeypatch.setattr(pngwrite, "_rows", None)
    assert pngwrite.default_deflate() is pngwrite.zlib_deflate
    assert pngwrite.default_deflate(12) is pngwrite.zlib_deflate


def test_rows_by_the_compiled_deflate_else_isal(monkeypatch):
    """Rows (a pitch known) go to the compiled deflate when it is built, anything else (the
    workers' packed results) and the pure path to ISA-L's."""
    if pngwrite._isal is None:
        pytest.skip("python-isal not installed")
    assert pngwrite.default_deflate() is pngwrite.isal_deflate
    rows = bytes(range(12)) * 3
    if pngwrite._rows is not None:
        assert pngwrite.default_deflate(12)(rows) == pngwrite._rows.deflate(rows, 12)
    monkeypatch.setattr(pngwrite, "_rows", None)
    assert pngwrite.default_deflate(12) is pngwrite.isal_deflate


def test_bad_palette_or_mode_is_refused():
    with pytest.raises(ValueError):
        pngwrite.png_bytes(np.zeros((2, 2), np.uint8), b"\0\0")
    with pytest.raises(ValueError):
        pngwrite.save_palette_png(Image.new("RGB", (2, 2)), "never.png")


def test_a_short_write_is_finished(tmp_path, monkeypatch):
    """``write_all`` writes every part even when the one system call writes less (a full disk
    nearly, a signal): the rest by ``write``, which may itself write a little at a time."""
    import os

    real = os.writev
    monkeypatch.setattr(os, "writev", lambda fd, parts: real(fd, [parts[0][:2]]))

    class Slow:
        def __init__(self, f):
            self.f = f

        def fileno(self):
            return self.f.fileno()

        def write(self, b):
            return self.f.write(bytes(b[:3]))

    with open(tmp_path / "out", "wb", buffering=0) as f:
        pngwrite.write_all(Slow(f), [b"abcdef", b"ghij", b"", b"k"])
    assert (tmp_path / "out").read_bytes() == b"abcdefghijk"
