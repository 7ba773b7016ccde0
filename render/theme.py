"""Palettes as plain dicts: one colour per role, overridable key by key.

Roles are also told apart by shape (frame.py): a filled disk for ``marked``,
a ring for ``marked_alt``, a disk plus a strike-through for ``eliminate``,
a solid line for a strong link and a dashed one for a weak link.
"""
from __future__ import annotations

from collections.abc import Mapping

DEFAULT = {
    "background": "#ffffff",
    "grid": "#000000",
    "label": "#666666",          # row / column numbers
    "title": "#000000",
    "caption": "#222222",
    "given": "#000000",
    "placed": "#1d3557",         # values placed by earlier steps (dark blue-grey)
    "place": "#d62728",          # the value this step places
    "candidate": "#4a4a4a",
    "cells": "#2ca02c",          # ring around a solved cell
    "cells_fill": "#2ca02c",     # translucent square on an unsolved cell
    "cells_alpha": 0.35,
    "cells_alt": "#1b7a1b",      # thick outline
    "houses": "#2ca02c",
    "marked": "#1b8a1b",         # filled disk, white digit
    "marked_digit": "#ffffff",
    "marked_alt": "#1b8a1b",     # white disk, coloured ring and digit
    "eliminate": "#d62728",      # filled disk, white digit, dark strike
    "eliminate_digit": "#ffffff",
    "strike": "#000000",
    "strong_link": "#1f5fbf",    # solid
    "weak_link": "#1f5fbf",      # dashed
}

# Okabe & Ito (2008), "Color Universal Design": safe for the common colour
# vision deficiencies; green/red pairs are replaced by blue/vermillion.
COLORBLIND = dict(DEFAULT, **{
    "placed": "#000000",
    "given": "#000000",
    "place": "#D55E00",          # vermillion
    "cells": "#0072B2",          # blue
    "cells_fill": "#56B4E9",     # sky blue
    "cells_alpha": 0.45,
    "cells_alt": "#0072B2",
    "houses": "#E69F00",         # orange
    "marked": "#0072B2",
    "marked_alt": "#0072B2",
    "eliminate": "#D55E00",
    "strike": "#000000",
    "strong_link": "#CC79A7",    # reddish purple
    "weak_link": "#009E73",      # bluish green
})

HIGH_CONTRAST = dict(DEFAULT, **{
    "label": "#000000",
    "caption": "#000000",
    "placed": "#000000",
    "candidate": "#000000",
    "place": "#c00000",
    "cells": "#000000",
    "cells_fill": "#ffd400",
    "cells_alpha": 0.7,
    "cells_alt": "#000000",
    "houses": "#0000c8",
    "marked": "#000000",
    "marked_alt": "#000000",
    "eliminate": "#c00000",
    "strike": "#000000",
    "strong_link": "#0000c8",
    "weak_link": "#c000c0",
})

PALETTES: dict[str, dict] = {
    "default": DEFAULT,
    "colorblind": COLORBLIND,
    "high-contrast": HIGH_CONTRAST,
}


def palette(name: str | Mapping | None = "default", overrides: Mapping | None = None) -> dict:
    """A copy of a named palette (or of a dict), with some roles overridden."""
    if name is None:
        base = DEFAULT
    elif isinstance(name, Mapping):
        base = dict(DEFAULT, **name)
    else:
        key = name.strip().lower().replace("_", "-")
        key = {"colourblind": "colorblind", "color-blind": "colorblind", "okabe-ito": "colorblind",
               "contrast": "high-contrast", "highcontrast": "high-contrast"}.get(key, key)
        if key not in PALETTES:
            raise ValueError(f"unknown palette {name!r} (known: {', '.join(PALETTES)})")
        base = PALETTES[key]
    out = dict(base)
    if overrides:
        unknown = set(overrides) - set(DEFAULT)
        if unknown:
            raise ValueError(f"unknown palette roles: {', '.join(sorted(unknown))}")
        out.update(overrides)
    return out
