"""The animated GIF: each frame's time on screen, and the encoding of the reduced frames."""
from __future__ import annotations

import os
from collections.abc import Sequence
from typing import Any

from .options import RenderOptions
from .plan import Frame


def gif_durations(plan: Sequence[Frame], options: RenderOptions) -> list[int]:
    """Time on each GIF frame (ms): the initial grid and the solution ``gif_hold``; a step
    ``gif_duration`` plus ``gif_per_char`` for each character of its caption (time to
    read it), at most ``GIF_MAX_MS`` (unless ``gif_duration`` itself is longer)."""
    out = []
    for f in plan:
        if f.kind != "step":
            out.append(options.gif_hold)
            continue
        reading = options.gif_duration + options.gif_per_char * len(f.scene.text("caption"))
        out.append(max(options.gif_duration, min(GIF_MAX_MS, reading)))
    return out


GIF_MAX_MS = 20_000
GIF_WIDTH = 600  # least GIF width (px) by default


def write_gif(thumbs: list[Any], path: str, durations: list[int], loop: int | None = 0) -> int:
    """An animated GIF of palette images sharing one palette; bytes written.

    Pause lengths are per-frame durations (Pillow merges identical frames and
    stores only the changed rectangle of each frame). ``optimize`` trims the
    colour table to the colours used: a third of the size of an untrimmed one."""
    from PIL import Image

    frames = [t if t.mode == "P" else t.quantize(colors=64, dither=Image.Dither.NONE) for t in thumbs]
    kw: dict[str, Any] = {"save_all": True, "append_images": frames[1:], "duration": durations,
                          "optimize": True, "disposal": 1}
    if loop is not None:
        kw.update(loop=loop)
    frames[0].save(path, format="GIF", **kw)
    return os.path.getsize(path)
