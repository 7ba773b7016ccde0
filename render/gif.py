"""The animated GIF: each frame's time on screen, and a GIF encoded as the frames come.

``GifStream`` is an imageio (v3) plugin that writes each frame as soon as it
is handed over, holding only the last one: imageio's own Pillow plugin keeps
every frame until the file is closed (and its older GIF writer gives each frame
a palette of its own). The frames share one palette, the theme's (``Frame``
thumbnails are indices on it); each frame after the first stores only the
rectangle that changed, its unchanged pixels transparent; a frame identical to
the one before it lengthens that one's time instead of being stored again.
Pillow's GIF encoder (``GifImagePlugin.getdata``) compresses each rectangle.
"""
from __future__ import annotations

import struct
from collections.abc import Sequence
from typing import Any, BinaryIO

import numpy as np
from imageio.core.request import Request
from imageio.core.v3_plugin_api import PluginV3

from .options import RenderOptions
from .plan import Frame

GIF_MAX_MS = 20_000
GIF_WIDTH = 600  # least GIF width (px) by default
TRANSPARENT = 255  # the palette index of unchanged pixels: the theme's palettes stop well below it
UNCHANGED = [255] + [0] * 255  # a difference of 0 (an unchanged pixel) as a mask


def gif_durations(plan: Sequence[Frame], options: RenderOptions) -> list[int]:
    """Time on each GIF frame (ms): the initial grid and the solution ``gif_hold``; a step
    ``gif_duration`` plus ``gif_per_char`` for each character of its caption (time to
    read it), at most ``GIF_MAX_MS`` (unless ``gif_duration`` itself is longer). When the
    whole would play longer than ``gif_max_play`` seconds, every step's reading time
    shrinks in the same proportion (never its ``gif_duration``): a long caption still
    stays up longer than a short one."""
    base, reading = [], []
    for f in plan:
        if f.kind != "step":
            base.append(options.gif_hold)
            reading.append(0)
            continue
        base.append(options.gif_duration)
        reading.append(max(0, min(GIF_MAX_MS, options.gif_duration + options.gif_per_char * len(f.caption))
                           - options.gif_duration))
    budget = options.gif_max_play * 1000
    scale = 1.0
    if budget and sum(base) + sum(reading) > budget and sum(reading):
        scale = max(0, budget - sum(base)) / sum(reading)
    # GIF delays are hundredths of a second
    return [max(10, 10 * round((b + r * scale) / 10)) for b, r in zip(base, reading, strict=True)]


def _u16(v: int) -> bytes:
    return struct.pack("<H", v)


class GifStream(PluginV3):
    """An imageio v3 plugin (``imageio.v3.imopen(path, "w", plugin=GifStream, ...)``) writing
    an animated GIF frame by frame: ``write(indices, duration=ms)`` with ``indices`` an
    (height, width) array of palette indices; ``close()`` ends the file.

    ``palette``: the shared colour table (RGB bytes, at most 255 colours: index 255 is the
    transparent one); a frame with a ``palette`` of its own is stored whole with it (frames
    from files that share none); ``loop``: 0 loops forever, None plays once."""

    def __init__(self, request: Request, *, size: tuple[int, int], palette: bytes, loop: int | None = 0) -> None:
        super().__init__(request)
        self.file: BinaryIO = request.get_file()
        self.size = size
        self.frames = 0  # frames stored
        self.ms = 0  # play time written
        # the last frame (its indices as an 'L' image, its own palette if any), its time still growing
        self._held: tuple[Any, int, bytes | None] | None = None
        self._shown: Any = None  # what a viewer shows after the frames stored
        self._clear = len(palette) <= 3 * TRANSPARENT  # a free index for the unchanged pixels
        colours = bytes(palette[:768]).ljust(768, b"\0")
        w, h = size
        head = b"GIF89a" + _u16(w) + _u16(h) + bytes((0xF7, 0, 0)) + colours
        if loop is not None:
            head += b"!\xff\x0bNETSCAPE2.0\x03\x01" + _u16(loop) + b"\0"
        self.file.write(head)

    def write(self, indices: Any, *, duration: int, palette: bytes | None = None) -> None:  # type: ignore[override]
        """One frame: shown ``duration`` ms (added to the last frame's when it is the same).
        ``indices``: an (height, width) array of palette indices, or a Pillow image of them."""
        from PIL import Image, ImageChops

        if isinstance(indices, Image.Image):
            frame = Image.frombytes("L", indices.size, indices.tobytes())
        else:
            a = np.ascontiguousarray(indices, dtype=np.uint8)
            frame = Image.frombytes("L", (a.shape[1], a.shape[0]), a.tobytes())
        if frame.size != self.size:
            raise ValueError(f"a GIF frame of {frame.size[0]}x{frame.size[1]} in a {self.size[0]}x{self.size[1]} GIF")
        held = self._held
        if held is not None and held[2] == palette and ImageChops.difference(held[0], frame).getbbox() is None:
            self._held = (frame, held[1] + duration, palette)
            return
        self._flush()
        self._held = (frame, duration, palette)

    def _flush(self) -> None:
        from PIL import Image, ImageChops
        from PIL.GifImagePlugin import getdata

        if self._held is None:
            return
        frame, ms, own = self._held
        self._held = None
        params: dict[str, Any] = {"duration": ms, "disposal": 1}
        box = (0, 0, *frame.size)
        if self._shown is None or own is not None:  # the whole frame (with its own colours)
            part = frame.copy()
            params["include_color_table"] = own is not None
        else:  # only the rectangle that changed, its unchanged pixels transparent
            diff = ImageChops.difference(frame, self._shown)
            box = diff.getbbox() or (0, 0, 1, 1)  # never empty (a frame like the last one lengthens it)
            part = frame.crop(box)
            if self._clear:
                part.paste(TRANSPARENT, mask=diff.crop(box).point(UNCHANGED))
                params["transparency"] = TRANSPARENT
        image = Image.frombytes("P", part.size, part.tobytes())  # the same indices, read as a palette image
        if own is not None:
            image.putpalette(own)
        self.file.write(b"".join(getdata(image, box[:2], **params)))
        self._shown = None if own is not None else frame
        self.frames += 1
        self.ms += 10 * (ms // 10)

    def close(self) -> None:
        """Write the held frame and the trailer, and close the file (once: imageio closes a
        plugin again when it is collected)."""
        if self.file.closed:
            return
        try:
            self._flush()
            self.file.write(b";")
        finally:
            self._request.finish()


def open_gif(path: str, size: tuple[int, int], palette: bytes, loop: int | None) -> GifStream:
    """A ``GifStream`` on ``path`` through imageio."""
    import imageio.v3 as iio

    return iio.imopen(path, "w", plugin=GifStream, size=size, palette=palette, loop=loop)
