"""How each role of a step is drawn: one style per role and what it applies to.

A step's roles (``explainer.model.roles``) apply to cells, candidates, houses or
links; this table says, for each, the shape drawn and the palette key of its
colour (``TINT``: the role's group picks one of the palette's tints, so each
set, petal, colour or branch has its own). The scene writes the shape and the
colour key on every ``Shape``; the frame only looks them up in the palette.
Two roles of one frame never share a style (``tests/render/test_roles.py``).

Shapes: on cells ``fill`` (translucent square), ``outline`` (thick square),
``circle`` (ring around a solved cell's value), ``square`` (a struck-out
cell), ``band`` (a wide translucent closed line through the cells' centres,
in the role's order, under the digits); on candidates ``value`` (the big digit), ``disk`` (filled disk, digit
in the contrasting colour), ``light`` (light disk, dark ring and digit),
``ring`` (white disk, coloured ring and digit), ``struck`` (filled disk struck
through), ``struck-ring`` (ring struck through), ``thick`` (a thick ring
around the candidate), ``halo`` (a wide ring around it); on houses ``solid``,
``dashed``, ``dotted``, ``thick`` outlines; links ``strong`` (solid) and
``weak`` (dashed), with an arrowhead when directed.
"""
from __future__ import annotations

from collections.abc import Mapping
from typing import Any

TINT = "tint"
TINTS = 6  # palette keys tint0 … tint5
TARGETS = ("cell", "cand", "house", "link")

# role -> target -> (shape, palette key)
STYLES: dict[str, dict[str, tuple[str, str]]] = {
    "placed": {"cand": ("value", "place")},
    "removed": {"cand": ("struck", "eliminate")},
    "house": {"house": ("solid", "houses")},
    "reason": {"cell": ("circle", "cells")},
    "cells": {"cell": ("fill", "cells_fill")},
    "value": {"cand": ("disk", "marked")},
    "pivot": {"cell": ("fill", "pivot_fill")},
    "pincer": {"cell": ("outline", "cells_alt")},
    "base": {"house": ("solid", "base")},
    "cover": {"house": ("dashed", "cover")},
    "fin": {"cand": ("ring", "fin"), "house": ("solid", "fin")},
    "line": {"house": ("dashed", "line")},
    "floor": {"cell": ("fill", "cells_fill")},
    "roof": {"cell": ("outline", "cells_alt")},
    "extra": {"cand": ("ring", "extra")},
    "cycle": {"cell": ("band", "cycle")},
    "z": {"cand": ("ring", "z")},
    "set": {"cell": ("fill", TINT)},
    "petal": {"cell": ("fill", TINT)},
    "stem": {"cell": ("fill", "stem_fill"), "cand": ("disk", TINT)},
    "restricted-common": {"cand": ("disk", "rc")},
    "colour": {"cand": ("disk", TINT)},
    "on": {"cand": ("disk", "on")},
    "off": {"cand": ("light", "off")},
    "link": {"link": ("", "")},
    "grouped": {"cell": ("fill", "group_fill")},  # strong / weak by the link's kind, tinted by its group
    "assumption": {"cand": ("thick", "assume")},
    "implied-true": {"cand": ("disk", "proof_true"), "house": ("dotted", "proof_true")},
    "implied-false": {"cand": ("struck-ring", "proof_false"), "house": ("dotted", "proof_false")},
    "contradiction": {"cell": ("square", "contradiction"), "house": ("thick", "contradiction"),
                      "cand": ("halo", "contradiction")},
    "conclusion": {"cand": ("halo", "conclusion")},
}

# when a candidate has several roles, the first of this list is drawn
CAND_ORDER = ("removed", "placed", "assumption", "contradiction", "conclusion", "fin", "extra", "z",
              "restricted-common", "stem", "colour", "value", "on", "off", "implied-true", "implied-false")
# cells: one fill each (the first of this list), outlines and circles on top
CELL_ORDER = ("stem", "pivot", "set", "petal", "cells", "grouped", "floor", "contradiction", "pincer", "roof", "reason")


def tinted(role: str) -> bool:
    """Whether a role's candidates take their group's tint (a set, a petal, a colour)."""
    return STYLES.get(role, {}).get("cand", ("", ""))[1] == TINT


def style(role: str, target: str, group: int | None = None, kind: str = "") -> tuple[str, str]:
    """(shape, palette key) of a role on a target (``kind``: a link's strong / weak)."""
    shape, key = STYLES[role][target]
    if target == "link":
        shape = kind or "strong"
        key = f"{kind or 'strong'}_link"
        if group is not None:
            key = TINT
    if key == TINT:
        key = f"tint{(group or 0) % TINTS}"
    elif group is not None and role == "assumption":
        key = f"tint{group % TINTS}"
    return shape, key


def luminance(colour: str) -> float:
    """Relative luminance of a '#rrggbb' colour (0 black … 1 white)."""
    c = colour.lstrip("#")
    r, g, b = (int(c[i:i + 2], 16) / 255 for i in (0, 2, 4))
    lin = [x / 12.92 if x <= 0.04045 else ((x + 0.055) / 1.055) ** 2.4 for x in (r, g, b)]
    return 0.2126 * lin[0] + 0.7152 * lin[1] + 0.0722 * lin[2]


def digit_on(theme: Mapping[str, Any], key: str) -> str:
    """The digit colour that reads on a disk of palette colour ``key``: white on dark, black on light."""
    colour = theme[key]
    return "#ffffff" if isinstance(colour, str) and colour.startswith("#") and luminance(colour) < 0.4 else "#000000"
