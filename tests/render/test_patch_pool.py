"""A pooled path drawn through its style's graphics context, set up once (``_prepared``), has
the pixels matplotlib's own ``Patch.draw`` gives it, whatever the style (issue 43)."""
from __future__ import annotations

from typing import Any

import numpy as np
import pytest
from matplotlib.path import Path

from render.frame import FrameRenderer, PatchPool, circles_path

STYLES: list[dict[str, Any]] = [
    {"facecolor": "#3366cc", "alpha": 0.35, "edgecolor": "none", "linewidth": 0},
    {"facecolor": "none", "edgecolor": "#cc3311", "linewidth": 2.5, "linestyle": (0, (4, 2.5)), "capstyle": "round"},
    {"facecolor": "#009988", "edgecolor": "#222222", "linewidth": 1.2, "alpha": 0.3},
    {"facecolor": "none", "edgecolor": "#ee7733", "linewidth": 4.0, "joinstyle": "round", "alpha": 0.35},
    {"facecolor": "#000000", "linewidth": 0, "snap": False},
]


@pytest.mark.parametrize("style", STYLES)
def test_a_pooled_path_has_the_pixels_of_the_patch(style: dict[str, Any]) -> None:
    r = FrameRenderer(9)
    r._prime()
    renderer = r.canvas.get_renderer()
    paths = [circles_path([(1.5, 1.5), (4.2, 6.7)], 0.3),
             Path([(0.5, 0.5), (3.0, 7.5), (8.5, 2.0)], [Path.MOVETO, Path.CURVE3, Path.CURVE3])]
    drawn = []
    for fast in (True, False):
        r._pixels()[...] = r._background
        pool = PatchPool()
        for path in paths:
            patch = pool.patch(path, r.ax.transData, style)
            if fast:
                patch.draw(renderer)
            else:  # the patch's own drawing
                patch.proto.set_path(path)
                patch.proto.set_transform(r.ax.transData)
                patch.proto.draw(renderer)
        drawn.append(r._pixels().copy())
    assert np.array_equal(drawn[0], drawn[1])
    assert not np.array_equal(drawn[0], r._background)  # something was drawn
