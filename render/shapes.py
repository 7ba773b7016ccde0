"""The vocabulary of a frame: a ``Shape`` (what to draw and why), a ``Scene``
(the shapes of one frame) and ``spot`` (where a candidate sits), shared by
``scene`` (what a step shows) and ``proofdraw`` (what a proof shows)."""
from __future__ import annotations

import math
from collections.abc import Iterable
from dataclasses import dataclass

from explainer.grid import value_char

from .sizes import spot_gap

# Roles, in the order a learner reads them.
ROLES = ("given", "placed", "place", "candidate", "cells", "cells_alt", "houses",
         "marked", "marked_alt", "eliminate", "strong_link", "weak_link",
         # a forcing step's proof (proofdraw.py)
         "assume", "proof_true", "proof_false", "implies", "contradiction", "conclusion",
         # grouped singles: the order the values were placed in (a small number in the cell)
         "order",
         "title", "caption", "legend")
# Finer roles (Shape.tone): on / off (chain nodes), pivot (wing), base / cover / fin
# (fish), als_b / rc / z (ALS), tuple (a tuple's values), line (empty rectangle),
# wing / w (links the scene adds), true / false / step (proof arrows), b0, b1 … (branches).

@dataclass(frozen=True)
class Shape:
    """One thing to draw. ``kind`` is the shape, ``role`` why it is there.

    kinds: value (large digit), candidate (small digit), square (filled cell),
    circle (ring around a value), outline (thick cell outline), house
    (inset rounded outline), disk (filled disk under a candidate), ring
    (white disk with a ring), strike (line through a candidate), link
    (segment or quadratic curve between two candidate spots), label (a small
    number in a cell's corner), text.
    """

    role: str
    kind: str
    row: int = -1
    col: int = -1
    value: int = 0
    house: tuple[str, int] | None = None
    points: tuple[tuple[float, float], ...] = ()
    text: str = ""
    tone: str = ""  # a finer role (ROLES' comment); "" draws the role's own colour

    @property
    def char(self) -> str:
        return value_char(self.value)


class Scene(list):
    """A list of shapes plus the grid size (and, for a proof sub-frame, its suffix)."""

    def __init__(self, n: int, shapes: Iterable[Shape] = (), suffix: str = "") -> None:
        super().__init__(shapes)
        self.n = n
        self.m = math.isqrt(n)
        self.suffix = suffix

    def of(self, role: str, kind: str | None = None) -> list[Shape]:
        return [s for s in self if s.role == role and (kind is None or s.kind == kind)]

    @property
    def roles(self) -> set[str]:
        return {s.role for s in self}

    def text(self, role: str) -> str:
        found = self.of(role)
        return found[0].text if found else ""


def spot(n: int, r: int, c: int, v: int) -> tuple[float, float]:
    """Centre of candidate v of cell (r, c), in grid units."""
    m = math.isqrt(n)
    i, j = divmod(v - 1, m)
    k = spot_gap(m)  # a sub-grid a little inside the cell, clear of the lines
    return c + 0.5 + (j - (m - 1) / 2) * k, r + 0.5 + (i - (m - 1) / 2) * k
