"""Colour themes: each a plain dict of one colour per role (``THEME_COLOURS``), overridable key
by key; a ``Theme`` is one of them built once, never changed, and handed to everything that draws.
(The word inside the code is theme; "palette" is the command line's other name for ``--theme``
and, in render/frame.py, the quantiser's image palette.)

Roles are also told apart by shape (render/styles.py): a filled disk, a
ring, a disk struck through, a solid line for a strong link and a dashed one
for a weak link.

The command line builds the ``Theme`` of ``--theme`` once (``theme``) and
passes it down (``RenderOptions.theme``, ``step_png(theme=...)``): no drawing
function looks a theme up by its name again, and caches (the renderer, the
quantiser's palette image) are keyed by the theme itself.
"""
from __future__ import annotations

from collections.abc import Iterator, Mapping
from typing import Any

DEFAULT = {
    "background": "#ffffff",
    "grid": "#000000",
    "label": "#666666",          # row / column numbers
    "title": "#000000",
    "caption": "#222222",
    "given": "#000000",
    "earlier": "#1d3557",        # values placed by earlier steps (dark blue-grey)
    "place": "#d62728",          # the value this step places
    "candidate": "#4a4a4a",
    # a step's roles (render/styles.py says which role takes which key)
    "cells": "#2ca02c",          # ring around a solved cell (reason)
    "cells_fill": "#2ca02c",     # translucent square on a pattern cell (cells, floor)
    "cells_alpha": 0.35,
    "cells_alt": "#1b7a1b",      # thick outline (pincer, roof)
    "houses": "#2ca02c",         # a house the step reasons in
    "base": "#2ca02c",           # fish base lines, the house a value is locked in: solid
    "cover": "#7b3fb0",          # fish cover lines: dashed
    "line": "#7b3fb0",           # an empty rectangle's row and column: dashed
    "marked": "#1b8a1b",         # a pattern's values: filled disk
    "eliminate": "#d62728",      # removed: filled disk, struck
    "strike": "#000000",
    "strong_link": "#1f5fbf",    # solid
    "weak_link": "#1f5fbf",      # dashed
    "on": "#1f5fbf",             # chain node "on": filled disk
    "off": "#ffd35c",            # chain node "off": light disk, dark ring and digit
    "off_ring": "#8a6200",
    "pivot_fill": "#f0a000",     # a wing's pivot
    "stem_fill": "#9a9a9a",      # a death blossom's stem (its values take their petals' tints)
    "fin": "#e07000",            # fish fin: ring and its box
    "z": "#7b3fb0",              # the value removed, in the pattern: ring
    "extra": "#e07000",          # a deadly pattern's extra candidates: ring
    "cycle": "#1f5fbf",           # a unique loop: a translucent band through its cells
    "rc": "#b0306a",             # restricted commons: filled disk
    "group_fill": "#56b4e9",     # a grouped chain's group node (a fill of its own: not the pattern's cells)
    # tints: sets, petals, colours, branches (group k -> tint k mod 6); even tints dark, odd light
    "tint0": "#1f4e9c",
    "tint1": "#f5a623",
    "tint2": "#2e8b57",
    "tint3": "#e58fc8",
    "tint4": "#6a3d9a",
    "tint5": "#9fd356",
    "tint_alpha": 0.45,
    # a forcing step's proof (proofdraw.py)
    "assume": "#7b3fb0",         # the assumption: thick ring
    "proof_true": "#1b8a1b",     # true fact: filled disk
    "proof_false": "#1f5fbf",    # false fact: ring, struck
    "contradiction": "#d62728",  # the emptied cell / house / value twice
    "conclusion": "#d62728",     # the shared conclusion: wide ring
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
    "base": "#E69F00",
    "cover": "#009E73",
    "line": "#009E73",
    "marked": "#009E73",         # bluish green
    "eliminate": "#D55E00",
    "strike": "#000000",
    "strong_link": "#CC79A7",    # reddish purple
    "weak_link": "#CC79A7",      # dashed: not the bluish green of the dashed cover and line outlines
    "on": "#0072B2",
    "off": "#F0E442",            # yellow
    "off_ring": "#000000",
    "pivot_fill": "#E69F00",
    "fin": "#CC79A7",
    "z": "#009E73",
    "extra": "#CC79A7",
    "cycle": "#0072B2",
    "rc": "#CC79A7",
    "group_fill": "#CC79A7",
    "tint0": "#0072B2",
    "tint1": "#E69F00",
    "tint2": "#009E73",
    "tint3": "#F0E442",
    "tint4": "#CC79A7",
    "tint5": "#56B4E9",
    "assume": "#CC79A7",
    "proof_true": "#0072B2",
    "proof_false": "#E69F00",
    "contradiction": "#D55E00",
    "conclusion": "#D55E00",
})

HIGH_CONTRAST = dict(DEFAULT, **{
    "label": "#000000",
    "caption": "#000000",
    "earlier": "#0000a0",        # dark blue: still told apart from the black givens
    "candidate": "#000000",
    "place": "#c00000",
    "cells": "#000000",
    "cells_fill": "#a0a0a0",     # grey: not the yellow of the "off" disks that sit in the cells
    "cells_alpha": 0.6,
    "cells_alt": "#000000",
    "houses": "#0000c8",
    "base": "#0000c8",
    "cover": "#c000c0",
    "line": "#c000c0",
    "marked": "#000000",
    "eliminate": "#c00000",
    "strike": "#000000",
    "strong_link": "#008000",    # not the houses' blue: a link along a house's outline stays seen
    "weak_link": "#008000",      # dashed: not the magenta of the dashed cover and line outlines
    "on": "#0000c8",
    "off": "#ffd400",
    "off_ring": "#000000",
    "pivot_fill": "#ff8c00",
    "fin": "#008000",
    "z": "#c000c0",
    "extra": "#008000",
    "cycle": "#0000c8",
    "rc": "#c000c0",
    "group_fill": "#00c8ff",
    "tint0": "#0000c8",
    "tint1": "#ff8c00",
    "tint2": "#008000",
    "tint3": "#00c8ff",
    "tint4": "#c000c0",
    "tint5": "#a05000",
    "tint_alpha": 0.6,
    "assume": "#c000c0",
    "proof_true": "#000000",
    "proof_false": "#0000c8",
    "contradiction": "#c00000",
    "conclusion": "#c00000",
})

THEME_COLOURS: dict[str, dict[str, Any]] = {
    "default": DEFAULT,
    "colorblind": COLORBLIND,
    "high-contrast": HIGH_CONTRAST,
}


ALIASES = {"colourblind": "colorblind", "color-blind": "colorblind", "okabe-ito": "colorblind",
           "contrast": "high-contrast", "highcontrast": "high-contrast"}


def theme_key(name: str) -> str:
    """The registered name a theme's name (or alias) stands for (it may be unknown)."""
    key = name.strip().lower().replace("_", "-")
    return ALIASES.get(key, key)


def theme_colours(name: str | Mapping[str, Any] | None = "default",
            overrides: Mapping[str, Any] | None = None) -> dict[str, Any]:
    """The colours of a named theme (a copy; or of a dict over the default), some roles overridden."""
    if name is None:
        base = DEFAULT
    elif isinstance(name, Mapping):
        base = dict(DEFAULT, **name)
    else:
        key = theme_key(name)
        if key not in THEME_COLOURS:
            raise ValueError(f"unknown theme {name!r} (known: {', '.join(THEME_COLOURS)})")
        base = THEME_COLOURS[key]
    out = dict(base)
    if overrides:
        unknown = set(overrides) - set(DEFAULT)
        if unknown:
            raise ValueError(f"unknown theme roles: {', '.join(sorted(unknown))}")
        out.update(overrides)
    return out


class Theme(Mapping[str, Any]):
    """A theme's colours built once: read like a dict (``theme["place"]``), never changed. Equal themes
    are equal and hash alike (the colours, not the name), so caches are keyed by the theme."""

    __slots__ = ("name", "_colours", "_hash")

    def __init__(self, colours: Mapping[str, Any], name: str = "") -> None:
        self.name = name
        self._colours = dict(colours)
        self._hash = hash(tuple(sorted((k, str(v)) for k, v in self._colours.items())))

    def __getitem__(self, key: str) -> Any:
        return self._colours[key]

    def __iter__(self) -> Iterator[str]:
        return iter(self._colours)

    def __len__(self) -> int:
        return len(self._colours)

    def __hash__(self) -> int:
        return self._hash

    def __eq__(self, other: object) -> bool:
        if isinstance(other, Theme):
            return self._hash == other._hash and self._colours == other._colours
        return isinstance(other, Mapping) and self._colours == dict(other)

    def __reduce__(self) -> tuple[Any, ...]:
        return Theme, (self._colours, self.name)

    def __repr__(self) -> str:
        return f"theme({self.name!r})" if self.name else f"Theme({self._colours!r})"


def theme(name: str | Mapping[str, Any] | None = "default", overrides: Mapping[str, Any] | None = None) -> Theme:
    """The ``Theme`` of a named theme (or alias: colourblind, okabe-ito, contrast …), or of a
    mapping of colours over the default one, with some roles overridden (``theme_colours``); a
    ``Theme`` without overrides is itself. ValueError for an unknown name or role."""
    if isinstance(name, Theme) and not overrides:
        return name
    if isinstance(name, str) and not overrides:
        key = theme_key(name)
        if key in THEMES:
            return THEMES[key]
    label = theme_key(name) if isinstance(name, str) else ""
    return Theme(theme_colours(name, overrides), label if not overrides else "")


# one Theme per named theme, built once
THEMES: dict[str, Theme] = {key: Theme(colours, key) for key, colours in THEME_COLOURS.items()}
DEFAULT_THEME = THEMES["default"]
