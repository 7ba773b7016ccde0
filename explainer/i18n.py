"""Step texts in several languages, written once per technique.

Each technique module keeps its sentences as a dict of templates per
language next to its finder, and builds a step's text with ``say``::

    TEXT = {"en": "In {house}, {v} can only go in {cells}.",
            "fr": "Dans {house}, {v} ne peut aller qu'en {cells}."}
    Explanation(..., **say(TEXT, house=House(geo, h), v=Value(v), cells=Cells(geo, cs)))

The arguments know how to write themselves in each language (house words,
"and"/"et"), so a template never spells a house or a list by hand. English
goes to ``text`` (the JSON contract), the other languages to
``translations``.
"""
from __future__ import annotations

from typing import Any, Iterable

from .grid import Geometry, value_char

LANGS = ("en", "fr")

HOUSE_WORDS = {
    "en": {"row": "row", "col": "column", "box": "box"},
    "fr": {"row": "la ligne", "col": "la colonne", "box": "le bloc"},
}
AND = {"en": "and", "fr": "et"}
OR = {"en": "or", "fr": "ou"}

# Step names as a frame title shows them.
TECHNIQUE_NAMES = {
    "fr": {
        "single position": "position unique",
        "single candidate": "candidat unique",
        "locked candidate": "candidat verrouillé",
        "naked tuple": "tuple nu",
        "hidden tuple": "tuple caché",
        "y wing": "y wing",
        "ny wing": "ny wing",
        "w wing": "w wing",
        "x wing": "x wing",
        "swordfish": "swordfish",
        "jellyfish": "jellyfish",
        "finned x wing": "x wing à aileron",
        "finned swordfish": "swordfish à aileron",
        "finned jellyfish": "jellyfish à aileron",
        "suedecoq": "Sue de Coq",
        "suedecoq bis": "Sue de Coq bis",
        "medusa": "medusa",
        "chain": "chaîne",
        "loop": "boucle",
        "empty rectangle": "rectangle vide",
        "als": "ALS",
        "trial": "essai",
        "trial lucky": "essai chanceux",
        "forcing chain": "chaîne de forçage",
        "brutal": "brutal",
        "initial grid": "grille initiale",
        "solution": "solution",
        "singles": "singletons",
    },
}


def technique_name(name: str, lang: str = "en") -> str:
    return TECHNIQUE_NAMES.get(lang, {}).get(name, name)


def join(words: list[str], lang: str, last: dict[str, str] = AND) -> str:
    if len(words) <= 1:
        return "".join(words)
    return ", ".join(words[:-1]) + f" {last[lang]} " + words[-1]


class Arg:
    """A template argument that writes itself in a language."""

    def fmt(self, lang: str) -> str:  # pragma: no cover - interface
        raise NotImplementedError


def house_words(kind: str, k: int, lang: str) -> str:
    """'row 4' / 'la ligne 4' for a JSON house key (k 0-based)."""
    return f"{HOUSE_WORDS.get(lang, HOUSE_WORDS['en'])[kind]} {k + 1}"


class House(Arg):
    def __init__(self, geo: Geometry, h: int) -> None:
        self.kind, self.k = geo.house_key(h)

    def fmt(self, lang: str) -> str:
        return house_words(self.kind, self.k, lang)


class Houses(Arg):
    def __init__(self, geo: Geometry, houses: Iterable[int]) -> None:
        self.items = [House(geo, h) for h in houses]

    def fmt(self, lang: str) -> str:
        return join([h.fmt(lang) for h in self.items], lang)


class Cells(Arg):
    """Cells in reading order: 'r1c2, r3c4 and r5c6'."""

    def __init__(self, geo: Geometry, cells: Iterable[int], last: dict[str, str] = AND) -> None:
        self.names = [geo.cell_name(c) for c in sorted(set(cells))]
        self.last = last

    def fmt(self, lang: str) -> str:
        return join(self.names, lang, self.last)


class Values(Arg):
    def __init__(self, values: Iterable[int], last: dict[str, str] = AND) -> None:
        self.chars = [value_char(v) for v in sorted(set(values))]
        self.last = last

    def fmt(self, lang: str) -> str:
        return join(self.chars, lang, self.last)


class Value(Arg):
    def __init__(self, v: int) -> None:
        self.char = value_char(v)

    def fmt(self, lang: str) -> str:
        return self.char


class Words(Arg):
    """Free text already written per language (e.g. a chain read aloud)."""

    def __init__(self, **by_lang: str) -> None:
        self.by_lang = by_lang

    def fmt(self, lang: str) -> str:
        return self.by_lang.get(lang, self.by_lang.get("en", ""))


def render(template_by_lang: dict[str, str], lang: str, args: dict[str, Any]) -> str:
    template = template_by_lang.get(lang) or template_by_lang["en"]
    values = {k: (a.fmt(lang) if isinstance(a, Arg) else a) for k, a in args.items()}
    return template.format(**values)


def say(template_by_lang: dict[str, str], **args: Any) -> dict[str, Any]:
    """Keyword arguments for Explanation: ``text`` in English and ``translations``."""
    others = tuple((lang, render(template_by_lang, lang, args)) for lang in LANGS[1:]
                   if lang in template_by_lang)
    return {"text": render(template_by_lang, "en", args), "translations": others}


def text_in(step: Any, lang: str = "en") -> str:
    """A step's text in a language (English when no translation exists)."""
    if lang != "en":
        for code, text in getattr(step, "translations", ()):
            if code == lang:
                return text
    return step.text
