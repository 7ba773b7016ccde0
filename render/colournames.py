"""Colours named in words, for legends that say "blue disks" rather than "filled disks".

A legend names each role by its look in the frame's own palette (issue 41: "one role, one
look, named in words in every palette and language"). ``NAMES`` names every colour of the
three palettes (render/theme.py); a colour of a palette built by hand takes the name of the
nearest named colour.

>>> colour_name("#1f5fbf", "en"), colour_name("#1f5fbf", "fr")
('blue', 'bleu')
>>> colour_name("#0071b0", "en")  # not in the table: the nearest name
'blue'
"""
from __future__ import annotations

from functools import lru_cache

# '#rrggbb' (lower case) -> (English, French); the French names are used as nouns
# ("disques en bleu"), so they need no agreement
NAMES: dict[str, tuple[str, str]] = {
    "#000000": ("black", "noir"),
    "#ffffff": ("white", "blanc"),
    "#666666": ("grey", "gris"),
    "#9a9a9a": ("grey", "gris"),
    "#a0a0a0": ("grey", "gris"),
    "#4a4a4a": ("dark grey", "gris foncé"),
    "#d62728": ("red", "rouge"),
    "#c00000": ("red", "rouge"),
    "#d55e00": ("vermilion", "vermillon"),
    "#2ca02c": ("green", "vert"),
    "#1b8a1b": ("green", "vert"),
    "#008000": ("green", "vert"),
    "#1b7a1b": ("dark green", "vert foncé"),
    "#2e8b57": ("sea green", "vert marin"),
    "#9fd356": ("light green", "vert clair"),
    "#009e73": ("bluish green", "vert bleuté"),
    "#1f5fbf": ("blue", "bleu"),
    "#0072b2": ("blue", "bleu"),
    "#0000c8": ("blue", "bleu"),
    "#1f4e9c": ("dark blue", "bleu foncé"),
    "#1d3557": ("dark blue", "bleu foncé"),
    "#0000a0": ("dark blue", "bleu foncé"),
    "#56b4e9": ("sky blue", "bleu ciel"),
    "#00c8ff": ("cyan", "cyan"),
    "#7b3fb0": ("purple", "violet"),
    "#6a3d9a": ("dark purple", "violet foncé"),
    "#c000c0": ("magenta", "magenta"),
    "#cc79a7": ("pink", "rose"),
    "#e58fc8": ("pink", "rose"),
    "#b0306a": ("raspberry", "framboise"),
    "#ffd35c": ("yellow", "jaune"),
    "#ffd400": ("yellow", "jaune"),
    "#f0e442": ("yellow", "jaune"),
    "#8a6200": ("brown", "brun"),
    "#a05000": ("brown", "brun"),
    "#f0a000": ("orange", "orange"),
    "#f5a623": ("orange", "orange"),
    "#e69f00": ("orange", "orange"),
    "#e07000": ("dark orange", "orange foncé"),
    "#ff8c00": ("orange", "orange"),
}


def _rgb(colour: str) -> tuple[int, int, int]:
    c = colour.lstrip("#")
    return int(c[0:2], 16), int(c[2:4], 16), int(c[4:6], 16)


@lru_cache(maxsize=256)
def colour_name(colour: str, lang: str = "en") -> str:
    """The name of a '#rrggbb' colour in ``lang`` (en, fr): its own, else the nearest named
    colour's (a weighted RGB distance, enough to tell the palette's hues apart)."""
    k = 1 if lang == "fr" else 0
    key = colour.lower()
    if key in NAMES:
        return NAMES[key][k]
    if not (key.startswith("#") and len(key) == 7):
        return key  # a named matplotlib colour ("red") names itself
    r, g, b = _rgb(key)

    def dist(other: str) -> float:
        r2, g2, b2 = _rgb(other)
        return 2 * (r - r2) ** 2 + 4 * (g - g2) ** 2 + 3 * (b - b2) ** 2

    return NAMES[min(NAMES, key=dist)][k]
