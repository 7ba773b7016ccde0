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
    # finer roles (scene.py Shape.tone)
    "off": "#ffd35c",            # chain node "off": light disk, dark digit, dark ring ("on" is marked)
    "off_digit": "#000000",
    "off_ring": "#8a6200",
    "pivot_fill": "#f0a000",     # a wing's pivot cell (pincers keep cells_fill / cells_alt)
    "als_b_fill": "#6fa8dc",     # the second ALS (cells_alt), its own tint
    "cover": "#7b3fb0",          # fish cover lines, empty rectangle's row and column: dashed
    "fin": "#e07000",            # fish fin: ring and its box
    "z": "#7b3fb0",              # ALS Z values, W-wing values: ring
    # a forcing step's proof (proofdraw.py)
    "assume": "#7b3fb0",         # the assumption: disk with a thick ring
    "proof_true": "#1b8a1b",     # true fact: filled disk
    "proof_false": "#1f5fbf",    # false fact: ring, struck
    "contradiction": "#d62728",  # the emptied cell / house / value twice
    "conclusion": "#d62728",     # the shared conclusion: thick ring
    "branch0": "#7b3fb0",        # branch tints (assumptions of a cell / house / double proof)
    "branch1": "#e07000",
    "branch2": "#0a8f8f",
    "branch3": "#b0306a",
}

# Okabe & Ito (2008), "Color Universal Design": safe for the common colour
# vision deficiencies; green/red pairs are replaced by blue/vermillion.
COLORBLIND = dict(DEFAULT, **{
    "given": "#000000",          # placed values stay dark blue-grey: told apart from givens
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
    "off": "#F0E442",            # yellow
    "off_ring": "#000000",
    "pivot_fill": "#E69F00",
    "als_b_fill": "#CC79A7",
    "cover": "#009E73",
    "fin": "#CC79A7",
    "z": "#009E73",
    "assume": "#CC79A7",
    "proof_true": "#0072B2",
    "proof_false": "#E69F00",
    "contradiction": "#D55E00",
    "conclusion": "#D55E00",
    "branch0": "#CC79A7",
    "branch1": "#E69F00",
    "branch2": "#009E73",
    "branch3": "#56B4E9",
})

HIGH_CONTRAST = dict(DEFAULT, **{
    "label": "#000000",
    "caption": "#000000",
    "placed": "#0000a0",         # dark blue: still told apart from the black givens
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
    "off": "#ffd400",
    "off_ring": "#000000",
    "pivot_fill": "#ff8c00",
    "als_b_fill": "#00c8ff",
    "cover": "#c000c0",
    "fin": "#008000",
    "z": "#c000c0",
    "assume": "#c000c0",
    "proof_true": "#000000",
    "proof_false": "#0000c8",
    "contradiction": "#c00000",
    "conclusion": "#c00000",
    "branch0": "#c000c0",
    "branch1": "#008000",
    "branch2": "#0000c8",
    "branch3": "#a05000",
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
