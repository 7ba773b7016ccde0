"""Sentence pieces shared by the pattern techniques (wings, fish, Sue de Coq).

Each class is an ``explainer.model.i18n.Arg``: it writes itself in every language
of ``explainer.model.i18n.LANGS``, so the templates next to each finder never
spell a list of lines or of removed candidates by hand.
"""
from __future__ import annotations

from collections.abc import Iterable

from explainer.model.grid import Geometry, value_char
from explainer.model.i18n import AND, HOUSE_WORDS, Arg, join

PLURAL = {
    "en": {"row": "rows", "col": "columns", "box": "boxes"},
    "fr": {"row": "les lignes", "col": "les colonnes", "box": "les blocs"},
}
FROM = {"en": "from", "fr": "de"}
SEMICOLON = {"en": "; ", "fr": " ; "}


class Lines(Arg):
    """Houses of one kind with one word: 'rows 2, 5 and 8' / 'les lignes 2, 5 et 8'."""

    def __init__(self, geo: Geometry, houses: Iterable[int]) -> None:
        keys = [geo.house_key(h) for h in sorted(houses)]
        self.kind = keys[0][0]
        self.numbers = [str(k + 1) for _, k in keys]

    def fmt(self, lang: str) -> str:
        if len(self.numbers) == 1:
            return f"{HOUSE_WORDS[lang][self.kind]} {self.numbers[0]}"
        return f"{PLURAL[lang][self.kind]} {join(self.numbers, lang)}"


class Removals(Arg):
    """Eliminated candidates grouped by value: '4 from r3c1 and r7c9; 7 from r1c2'."""

    def __init__(self, geo: Geometry, pairs: Iterable[tuple[int, int]]) -> None:
        by_value: dict[int, list[int]] = {}
        for c, v in pairs:
            by_value.setdefault(v, []).append(c)
        self.groups = [(value_char(v), [geo.cell_name(c) for c in sorted(set(cs))])
                       for v, cs in sorted(by_value.items())]

    def fmt(self, lang: str) -> str:
        return SEMICOLON[lang].join(f"{v} {FROM[lang]} {join(names, lang, AND)}" for v, names in self.groups)
