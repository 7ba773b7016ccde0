"""The characters' outlines read straight from the font are TextPath's own (issue 43)."""
from __future__ import annotations

import numpy as np
import pytest
from matplotlib.textpath import TextPath

from render.frame import _BOLD, _FONT, _outline

CHARS = [chr(c) for c in range(33, 127)] + list("éèêàâçôûùîïëÉÈÀÇ«»…—–’→⇒≠·×")


@pytest.mark.parametrize("bold", [False, True])
def test_an_outline_is_textpaths(bold: bool) -> None:
    for ch in CHARS:
        tp = TextPath((0, 0), ch, size=1, prop=_BOLD if bold else _FONT)
        verts, codes = _outline(ch, bold)
        assert np.array_equal(verts, tp.vertices) and np.array_equal(codes, tp.codes), ch


def test_a_character_the_font_lacks_goes_through_textpath() -> None:
    ch = "\U0001F600"  # not in DejaVu Sans: TextPath's fallback (its missing-glyph box) is drawn
    tp = TextPath((0, 0), ch, size=1, prop=_FONT)
    verts, codes = _outline(ch, False)
    assert np.array_equal(verts, tp.vertices) and np.array_equal(codes, tp.codes)


def test_glyphs_kept_in_place_make_the_same_path():
    """``glyphs_path`` with ``placed``: the outlines moved once and kept give the path made
    afresh, number for number, the second frame from the kept ones."""
    import numpy as np

    from render.frame import glyphs_path

    items = [(10.25, 3.5, "7"), (11.0, 3.5, "1"), (10.25, 4.75, "G"), (0.1, 0.2, "9")]
    heights = [0.3, 0.3, 0.3, 0.45]
    placed: dict = {}
    fresh = glyphs_path(items, 0.3, heights=heights)
    first = glyphs_path(items, 0.3, heights=heights, placed=placed)
    kept = dict(placed)
    again = glyphs_path(items[1:], 0.3, heights=heights[1:], placed=placed)
    assert np.array_equal(first.vertices, fresh.vertices) and np.array_equal(first.codes, fresh.codes)
    assert len(kept) == 4 and placed.keys() == kept.keys()  # nothing made again
    assert np.array_equal(again.vertices, glyphs_path(items[1:], 0.3, heights=heights[1:]).vertices)
    bold = glyphs_path(items[:1], 0.3, bold=True, placed=placed)  # another weight: its own outline
    assert np.array_equal(bold.vertices, glyphs_path(items[:1], 0.3, bold=True).vertices)
