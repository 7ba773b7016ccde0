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
from collections.abc import Set as AbstractSet
from dataclasses import dataclass, field
from typing import Any, BinaryIO

import numpy as np
from imageio.core.request import Request
from imageio.core.v3_plugin_api import PluginV3

from .options import RenderOptions
from .plan import Frame

GIF_WIDTH = 600  # least GIF width (px) by default
TRANSPARENT = 255  # the palette index of unchanged pixels: the theme's palettes stop well below it
UNCHANGED = [255] + [0] * 255  # a difference of 0 (an unchanged pixel) as a mask


def reading_ms(frame: Frame, options: RenderOptions) -> int:
    """How long a frame shows (ms): the initial grid and the solution ``gif_hold``; a step the
    time its caption takes to read, ``gif_per_char`` a character (67 ms: about 15 characters
    a second), never less than ``gif_duration`` (2 s). Never shortened."""
    if frame.kind != "step":
        return options.gif_hold
    return max(options.gif_duration, options.gif_per_char * len(frame.caption))


def gif_durations(plan: Sequence[Frame], options: RenderOptions) -> list[int]:
    """Each frame's time (ms, whole hundredths of a second as GIF delays are): its reading time
    (``reading_ms``)."""
    return [max(10, 10 * round(reading_ms(f, options) / 10)) for f in plan]


@dataclass
class Timing:
    """What the GIF and the video show: ``ms`` the time of each frame kept (plan index -> ms),
    ``folded`` how many frames of each kind were left out to keep within ``gif_max_play``
    ("proof": proof sub-frames after a step's first, "singles": steps of runs of singles,
    "first": a proof's first sub-frame, "repeats": steps of a technique shown before,
    "steps": any step),
    ``over`` the seconds still past the budget when nothing more could be folded."""

    ms: dict[int, int]
    folded: dict[str, int] = field(default_factory=dict)
    over: float = 0.0

    def words(self) -> str:
        """'GIF 298 s; folded 40 proof sub-frames and 212 singles to fit 300 s' (the run's summary)."""
        total = sum(self.ms.values()) / 1000
        parts = [f"{k} {FOLD_WORDS[kind]}" for kind, k in self.folded.items() if k]
        out = f"GIF {total:.0f} s, {len(self.ms)} frames"
        if parts:
            out += "; folded to fit its time: " + ", ".join(parts)
        if self.over:
            out += f"; still {self.over:.0f} s over the budget"
        return out


FOLD_WORDS = {"proof": "proof sub-frames after each step's first", "singles": "single steps (runs of singles)",
              "first": "first proof sub-frames", "repeats": "steps of a technique already shown",
              "steps": "more steps, the longest to read"}


def gif_timing(plan: Sequence[Frame], shown: Sequence[int], options: RenderOptions,
               singles: AbstractSet[str] = frozenset()) -> Timing:
    """The frames ``shown`` (plan indices) with their reading times (``gif_durations``); when
    they would play longer than ``gif_max_play`` seconds, frames a class can skip are folded
    (left out) until the rest fits, the reading times never shortened: first the proof
    sub-frames after each step's first (the steps with the longest such frames first), then
    runs of two or more singles (``singles``: their step names; the longest runs first), then
    the proofs' first sub-frames, then the steps of a technique already shown (the longest
    first), then any step, the longest first. The frame after a folded step shows the values
    it placed."""
    durations = gif_durations([plan[k] for k in shown], options)
    ms = dict(zip(shown, durations, strict=True))
    budget = options.gif_max_play * 1000
    total = sum(ms.values())
    folded: dict[str, int] = {}
    if not budget or total <= budget:
        return Timing(ms)
    groups: list[tuple[str, list[int]]] = []
    proof: dict[tuple[int, ...], list[int]] = {}
    for k in shown:
        if plan[k].suffix:
            proof.setdefault(plan[k].steps, []).append(k)
    groups += sorted((("proof", ks[1:]) for ks in proof.values() if len(ks) > 1),
                     key=lambda g: -sum(ms[k] for k in g[1]))
    runs: list[list[int]] = []
    run: list[int] = []
    for k in shown:
        f = plan[k]
        if f.kind == "step" and not f.suffix and f.technique in singles and f.steps not in proof:
            run.append(k)
            continue
        if len(run) >= 2:
            runs.append(run)
        run = []
    if len(run) >= 2:
        runs.append(run)
    groups += sorted((("singles", r) for r in runs), key=lambda g: -len(g[1]))
    # still too long: a proof's first sub-frame too (its step's frame summarises it), then the
    # steps of a technique the GIF has already shown, the longest first (each technique keeps its
    # first step)
    groups += sorted((("first", ks[:1]) for ks in proof.values()), key=lambda g: -ms[g[1][0]])
    seen: set[str] = set()
    repeats = []
    for k in shown:
        f = plan[k]
        if f.kind != "step" or f.suffix:
            continue
        if f.technique in seen:
            repeats.append(k)
        seen.add(f.technique)
    groups += sorted((("repeats", [k, *proof.get(plan[k].steps, [])]) for k in repeats), key=lambda g: -ms[g[1][0]])
    # and at last any step, the longest first: the GIF then tells the start, the end and the
    # techniques it has time for (the frames and the viewer keep every step)
    groups += sorted((("steps", [k]) for k in shown if plan[k].kind == "step"), key=lambda g: -ms[g[1][0]])
    for kind, ks in groups:
        if total <= budget:
            break
        gone = [k for k in ks if k in ms]
        for k in gone:
            total -= ms.pop(k)
        if gone:
            folded[kind] = folded.get(kind, 0) + len(gone)
    return Timing(ms, folded, max(0.0, (total - budget) / 1000))


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
