"""The vocabulary of a frame: a ``Shape`` (what to draw and why), a ``Scene``
(the shapes of one frame) and ``spot`` (where a candidate sits), shared by
``scene`` (what a step shows) and ``proofdraw`` (what a proof shows)."""
from __future__ import annotations

import math
from collections.abc import Iterable
from dataclasses import dataclass
from functools import lru_cache

from explainer.model.grid import value_char

from .sizes import spot_gap

# What a frame draws besides a step's roles (explainer.model.roles.VOCABULARY): the values, the
# plain candidates, a proof's implication arrows, the order of grouped singles, the words.
FRAME_ROLES = ("given", "earlier", "candidate", "implies", "order", "title", "caption", "legend")


@dataclass(frozen=True)
class Shape:
    """One thing to draw. ``role`` is why it is there (a role of a step, or a
    frame role of ``FRAME_ROLES``), ``kind`` the shape (render/styles.py) and
    ``colour`` its palette key.

    kinds: value (large digit), candidate (small digit), fill / outline /
    circle / square (cells), house kinds solid / dashed / dotted / thick,
    candidate marks disk / light / ring / struck / struck-ring / thick / halo,
    strong / weak (links: ``points``, an arrowhead when ``directed``), arrow
    (an implication), label (a small number in a cell), text.
    ``group``: the role's group (a set, petal, colour or branch); ``faint``:
    drawn pale (a proof's earlier facts, kept for context); ``truth``: an
    assumption assumed true (disk) or false (struck ring).
    """

    role: str
    kind: str
    row: int = -1
    col: int = -1
    value: int = 0
    house: tuple[str, int] | None = None
    points: tuple[tuple[float, float], ...] = ()
    text: str = ""
    colour: str = ""
    group: int | None = None
    faint: bool = False
    directed: bool = False
    truth: bool = True

    @property
    def char(self) -> str:
        return value_char(self.value)

    @property
    def name(self) -> str:
        """The role with its group: 'set#2'."""
        return self.role if self.group is None else f"{self.role}#{self.group}"


class Scene(list[Shape]):
    """A list of shapes plus the grid size (and, for a proof sub-frame, its suffix and its
    level of detail: 1 the first sub-frames of a step, deeper levels on demand)."""

    def __init__(self, n: int, shapes: Iterable[Shape] = (), suffix: str = "", level: int = 0) -> None:
        super().__init__(shapes)
        self.n = n
        self.m = math.isqrt(n)
        self.suffix = suffix
        self.level = level

    def of(self, role: str, kind: str | None = None) -> list[Shape]:
        return [s for s in self if s.role == role and (kind is None or s.kind == kind)]

    def cands(self, role: str, kind: str | None = None) -> set[tuple[int, int, int]]:
        """(row, col, value) of the shapes of a role on candidates."""
        return {(s.row, s.col, s.value) for s in self.of(role, kind) if s.value}

    @property
    def roles(self) -> set[str]:
        return {s.role for s in self}

    def text(self, role: str) -> str:
        found = self.of(role)
        return found[0].text if found else ""


@lru_cache(maxsize=1 << 16)
def spot(n: int, r: int, c: int, v: int) -> tuple[float, float]:
    """Centre of candidate v of cell (r, c), in grid units (a pure function of its
    arguments, asked again for every candidate of every frame: kept)."""
    m = math.isqrt(n)
    i, j = divmod(v - 1, m)
    k = spot_gap(m)  # a sub-grid a little inside the cell, clear of the lines
    return c + 0.5 + (j - (m - 1) / 2) * k, r + 0.5 + (i - (m - 1) / 2) * k
