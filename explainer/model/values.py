"""Small frozen value types for what a step names, in the community notation.

They are ``NamedTuple``\\ s, so they compare equal to the plain tuples of the
steps JSON and serialise as the same JSON lists (STEPS_JSON.md):

>>> Candidate(2, 1, 4) == (2, 1, 4)
True
>>> str(Candidate(2, 1, 4)), str(Cell(2, 1)), Candidate(2, 1, 4).elimination()
('4r3c2', 'r3c2', 'r3c2<>4')
>>> str(StrongLink(Candidate(2, 1, 4), Candidate(2, 4, 4))), str(House("col", 1))
('4r3c2=4r3c5', 'column 2')
>>> Candidate(2, 1, 4), House("row", 2)
(Candidate(2, 1, 4), House('row', 2))

Coordinates are 0-based as in the JSON; the text is 1-based, value first
for a candidate (HoDoKu / Eureka style).
"""
from __future__ import annotations

from collections.abc import Iterable
from typing import NamedTuple

from .grid import value_char
from .i18n import HOUSE_WORDS


class Cell(NamedTuple):
    row: int
    col: int

    def __str__(self) -> str:
        return f"r{self.row + 1}c{self.col + 1}"

    def __repr__(self) -> str:
        return f"Cell({self.row}, {self.col})"


class Candidate(NamedTuple):
    row: int
    col: int
    value: int

    @property
    def cell(self) -> Cell:
        return Cell(self.row, self.col)

    def __str__(self) -> str:
        return f"{value_char(self.value)}{self.cell}"

    def __repr__(self) -> str:
        return f"Candidate({self.row}, {self.col}, {self.value})"

    def placement(self) -> str:
        """'r3c2=4': the cell gets the value."""
        return f"{self.cell}={value_char(self.value)}"

    def elimination(self) -> str:
        """'r3c2<>4': the value is removed from the cell."""
        return f"{self.cell}<>{value_char(self.value)}"


class Link(NamedTuple):
    """Two candidates tied by a link; ``StrongLink`` and ``WeakLink`` say which kind."""

    a: Candidate
    b: Candidate

    def __str__(self) -> str:
        return f"{self.a}{getattr(self, 'SIGN', '~')}{self.b}"

    def __repr__(self) -> str:
        return f"{type(self).__name__}({self.a!r}, {self.b!r})"


class StrongLink(Link):
    """At least one end is true: ``4r3c2=4r3c5``."""

    __slots__ = ()
    SIGN = "="


class WeakLink(Link):
    """At most one end is true: ``4r3c2-4r3c5``."""

    __slots__ = ()
    SIGN = "-"


class House(NamedTuple):
    kind: str  # "row" | "col" | "box"
    k: int  # 0-based (STEPS_JSON.md); not "index", which tuple already has

    def __str__(self) -> str:
        return f"{HOUSE_WORDS['en'][self.kind]} {self.k + 1}"

    def __repr__(self) -> str:
        return f"House({self.kind!r}, {self.k})"


def candidates(items: Iterable[tuple[int, int, int]]) -> tuple[Candidate, ...]:
    return tuple([x if type(x) is Candidate else Candidate(*x) for x in items])


def cells(items: Iterable[tuple[int, int]]) -> tuple[Cell, ...]:
    return tuple([x if type(x) is Cell else Cell(*x) for x in items])


def houses(items: Iterable[tuple[str, int]]) -> tuple[House, ...]:
    return tuple([x if type(x) is House else House(*x) for x in items])


def strong_links(items: tuple[tuple[tuple[int, int, int], tuple[int, int, int]], ...]) -> tuple[StrongLink, ...]:
    return tuple([x if type(x) is StrongLink else StrongLink(Candidate(*x[0]), Candidate(*x[1])) for x in items])


def weak_links(items: tuple[tuple[tuple[int, int, int], tuple[int, int, int]], ...]) -> tuple[WeakLink, ...]:
    return tuple([x if type(x) is WeakLink else WeakLink(Candidate(*x[0]), Candidate(*x[1])) for x in items])
