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

import re
from collections.abc import Iterable
from typing import Any

from .grid import Geometry, value_char

LANGS = ("en", "fr")

HOUSE_WORDS = {
    "en": {"row": "row", "col": "column", "box": "box"},
    "fr": {"row": "la ligne", "col": "la colonne", "box": "le bloc"},
}
AND = {"en": "and", "fr": "et"}
OR = {"en": "or", "fr": "ou"}

# Frame words that are not step names, as a frame title shows them (step
# titles live in each technique's StepKind: ``techniques.title``).
FRAME_TITLES = {
    "fr": {
        "initial grid": "grille initiale",
        "solution": "solution",
        "singles": "singletons",
    },
}


def frame_title(name: str, lang: str = "en") -> str:
    return FRAME_TITLES.get(lang, {}).get(name, name)


_NAME_FIRST = re.compile(r"r\d+c\d|\([0-9A-Z]")


def sentence(text: str) -> str:
    """``text`` starting a sentence: its first letter a capital, unless it starts with a cell or
    candidate name ('r15c2 …', '(4)r5c2 …'), which keeps its own spelling."""
    if not text or _NAME_FIRST.match(text):
        return text
    return text[0].upper() + text[1:]


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
    """Cells in reading order: 'r1c2, r3c4 and r5c6'; ``verb`` agrees with how many."""

    def __init__(self, geo: Geometry, cells: Iterable[int], last: dict[str, str] = AND) -> None:
        self.names = [geo.cell_name(c) for c in sorted(set(cells))]
        self.last = last

    def __len__(self) -> int:
        return len(self.names)

    def verb(self, **forms: tuple[str, str]) -> Agree:
        """The verb of these cells: ``cells.verb(en=("holds", "hold"), fr=("contient", "contiennent"))``."""
        return Agree(len(self.names), **forms)

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


def count_noun(k: int, noun: str, lang: str = "en") -> str:
    """'1 candidate', '3 candidates' (French: '1 candidat', '2 candidats'): the noun agrees."""
    return f"{k} {noun if k == 1 else plural(noun, lang)}"


def plural(noun: str, lang: str = "en") -> str:
    return noun if noun.endswith(("s", "x")) else noun + "s"


IRREGULAR = {"have": "has", "be": "is", "are": "is", "do": "does"}


def verb(k: int, base: str) -> str:
    """An English verb agreeing with ``k`` subjects: verb(1, 'hold') 'holds', verb(2, 'have') 'have'."""
    if k != 1:
        return base
    return IRREGULAR.get(base, base + ("es" if base.endswith(("s", "sh", "ch", "o")) else "s"))


class Agree(Arg):
    """A word agreeing with a count, per language: ``Agree(len(cells), en=("holds", "hold"),
    fr=("contient", "contiennent"))`` (singular first)."""

    def __init__(self, k: int, **forms: tuple[str, str]) -> None:
        self.k = k
        self.forms = forms

    def fmt(self, lang: str) -> str:
        one, many = self.forms.get(lang) or self.forms["en"]
        return one if self.k == 1 else many


class Words(Arg):
    """Free text already written per language (e.g. a chain read aloud)."""

    def __init__(self, **by_lang: str) -> None:
        self.by_lang = by_lang

    def fmt(self, lang: str) -> str:
        return self.by_lang.get(lang, self.by_lang.get("en", ""))


# French articles after "de" and "à" contract: "de le bloc 9" is "du bloc 9" (each rule with the
# words it needs in a text, so that a text without them is not searched)
CONTRACTIONS_FR = ((re.compile(r"\bde le\b"), "du", "de le"), (re.compile(r"\bde les\b"), "des", "de les"),
                   (re.compile(r"\bà le\b"), "au", "à le"), (re.compile(r"\bà les\b"), "aux", "à les"),
                   (re.compile(r"\bDe le\b"), "Du", "De le"), (re.compile(r"\bDe les\b"), "Des", "De les"))


def contract(text: str, lang: str) -> str:
    """Language rules a template cannot spell because its arguments bring the article
    (``House`` writes "le bloc 9"): French "de le" → "du", "de les" → "des", "à le" → "au",
    "à les" → "aux"."""
    if lang == "fr":
        for rx, short, words in CONTRACTIONS_FR:
            if words in text:
                text = rx.sub(short, text)
    return text


# The notation French players write (issue 41, item 6): L1C6 (ligne, colonne) for r1c6, "⇒" for
# "=>", "≠" for "<>". Cells are named r1c6 everywhere the program builds a text (one spelling
# for the finders, the proofs and the tests); a French text is written in its own notation
# here, last, as ``contract`` writes its articles.
_CELL = re.compile(r"(?<![A-Za-z])r(\d+)c(\d+)(?![A-Za-z])")


def _cell_fr(m: re.Match[str]) -> str:
    return f"L{m[1]}C{m[2]}"  # a function: 0.16 s for 20,000 captions, the template r"L\1C\2" 0.26 s


NOTATION = {"fr": ((_CELL, _cell_fr), (re.compile("=>"), "⇒"), (re.compile("<>"), "≠"))}


def notation(text: str, lang: str) -> str:
    """``text`` in the notation of ``lang``'s players: French "L1C6=3 ⇒ L2C4≠3" for
    "r1c6=3 => r2c4<>3"; English as it is. Idempotent (a French text stays as it is)."""
    for rx, repl in NOTATION.get(lang, ()):
        text = rx.sub(repl, text)
    return text


def cell_name(r: int, c: int, lang: str = "en") -> str:
    """Cell (r, c) (0-based) as ``lang`` writes it: 'r1c6', French 'L1C6'."""
    return notation(f"r{r + 1}c{c + 1}", lang)


def render(template_by_lang: dict[str, str], lang: str, args: dict[str, Any]) -> str:
    template = template_by_lang.get(lang) or template_by_lang["en"]
    values = {k: (a.fmt(lang) if isinstance(a, Arg) else a) for k, a in args.items()}
    return notation(contract(template.format(**values), lang), lang)


def say(template_by_lang: dict[str, str], **args: Any) -> dict[str, Any]:
    """Keyword arguments for Explanation: ``text`` in English and ``translations``."""
    others = tuple((lang, render(template_by_lang, lang, args)) for lang in LANGS[1:]
                   if lang in template_by_lang)
    return {"text": render(template_by_lang, "en", args), "translations": others}


def text_in(step: Any, lang: str = "en") -> str:
    """A step's text in a language of ``LANGS`` (English when the step has no translation);
    another language is an error, never English in silence."""
    if lang not in LANGS:
        from .grid import UnknownNameError

        raise UnknownNameError(f"unknown language {lang!r} (known: {', '.join(LANGS)})")
    if lang != "en":
        for code, text in getattr(step, "translations", ()):
            if code == lang:
                translated: str = text
                return translated
    english: str = step.text
    return english
