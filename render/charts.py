"""Pictures for the app layer: the puzzle bank's stats chart and the animation
of ``db query`` frames.

The chart is a matplotlib ``Figure`` (no pyplot, no global state); the
animation goes through the GIF writer of ``render.gif``.
"""
from __future__ import annotations

import os
from collections.abc import Mapping, Sequence
from typing import Any

from explainer.model.rating import GRADES

PathLike = str | os.PathLike[str]


def stats_chart(stats: Mapping[str, Any], ratings: Sequence[float], path: PathLike,
                format: str | None = None) -> None:
    """Bar chart of technique usage and histogram of ratings, written to ``path``.

    ``stats`` is ``PuzzleDB.stats()``, ``ratings`` every explained puzzle's
    rating. ``format`` (png, svg, pdf) is used as given, so the file is exactly
    ``path`` (without it, matplotlib takes the suffix and adds ``.png`` when
    there is none)."""
    from matplotlib.figure import Figure

    usage = stats["techniques"]
    fig = Figure(figsize=(11, 4.5), dpi=100)
    ax1, ax2 = fig.subplots(1, 2, gridspec_kw={"width_ratios": [3, 2]})
    names = list(usage)
    ax1.barh(names, [usage[n]["puzzles"] for n in names], color="#4C72B0")
    ax1.invert_yaxis()
    ax1.set_xlabel("puzzles using the technique")
    ax1.set_title(f"Technique usage ({stats['explained']} puzzles)")
    for i, n in enumerate(names):
        ax1.annotate(f" {usage[n]['steps']} steps", (usage[n]["puzzles"], i), va="center", fontsize=8)
    if ratings:
        top = max(ratings)
        edges = [1.0 + 0.5 * k for k in range(int((max(top, 1.0) - 1.0) / 0.5) + 2)]
        ax2.hist(ratings, bins=edges, color="#DD8452", edgecolor="white")
        ax2.set_xticks(range(1, int(top) + 2))
        for bound, _ in GRADES[:-1]:
            ax2.axvline(bound, color="#888888", linewidth=0.8, linestyle=":")
    ax2.set_xlabel("ER (Sudoku Explainer's scale; dotted: grade bands)")
    ax2.set_ylabel("puzzles")
    ax2.set_title("Ratings (ER)")
    fig.tight_layout()
    fig.savefig(os.fspath(path), format=format)


def frames_gif(frames: Sequence[PathLike], path: PathLike, seconds: float, loop: int | None = 0) -> int:
    """An animated GIF of image files (resized to the first one's size), each shown
    ``seconds``, read and encoded one at a time (``render.gif.GifStream``); bytes written."""
    import numpy as np
    from PIL import Image

    from .gif import open_gif

    writer = None
    try:
        for f in frames:
            with Image.open(f) as im:
                rgb = im.convert("RGB")
            if writer is None:
                writer = open_gif(os.fspath(path), rgb.size, b"", loop)
            # each frame keeps a full palette of its own (the frames of a query share no palette)
            q = (rgb if rgb.size == writer.size else rgb.resize(writer.size)).quantize(colors=256,
                                                                                        dither=Image.Dither.NONE)
            writer.write(np.asarray(q), duration=int(seconds * 1000), palette=bytes(q.getpalette() or []))
    finally:
        if writer is not None:
            writer.close()
    return os.path.getsize(path)
