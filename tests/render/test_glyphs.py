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
