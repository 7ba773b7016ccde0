"""The link graph of a candidate state, shared by Medusa, chains and trial.

A candidate (cell c, value v) is numbered ``(v - 1) * ncells + c`` (value
major), so the cells where v is a candidate, ``pos[v-1]``, shifted by
``(v - 1) * ncells`` are exactly the numbers of v's candidates: the weak
neighbours of a candidate through its value are one AND and one shift.

- strong link: bivalue cell, or a value with two places in a house;
- weak link: same cell, or same value in two cells that see each other
  (every strong link is also weak).

``links(state, session)`` builds the graph once per state (the solving
session keeps it), so the techniques of one step share it; its tables are
built on first use (``explainer.core.search`` builds them).
"""
from __future__ import annotations

from explainer.core import search
from explainer.model.explanation import Cand
from explainer.model.grid import bits, value_char
from explainer.model.session import Session
from explainer.model.state import State


class Links:
    """Strong neighbours (lists) and weak neighbours (bit masks) of every candidate.

    The tables are built on first use from the state as it was when the object
    was made (a finder that only names candidates builds none):
    ``strong_pairs`` (each strong link once, a < b: bivalue cells in cell order,
    then per value the houses with two places), ``strong`` (candidate -> its
    strong neighbours, in that order), ``weak`` (candidate -> mask of its weak
    neighbours) and ``nodes`` (every candidate, value by value).
    """

    __slots__ = ("geo", "n", "N", "_cand", "_pos", "_pairs", "_strong", "_weak", "_weak_one")

    def __init__(self, state: State) -> None:
        geo = state.geo
        self.geo, self.n, self.N = geo, geo.n, geo.ncells
        self._cand, self._pos = tuple(state.cand), tuple(state.pos)
        self._pairs: list[tuple[int, int]] | None = None
        self._strong: dict[int, list[int]] | None = None
        self._weak: dict[int, int] | None = None
        self._weak_one: dict[int, int] = {}

    @property
    def strong_pairs(self) -> list[tuple[int, int]]:
        if self._pairs is None:
            self._pairs = search.strong_pairs(self.geo, self._cand, self._pos)
        return self._pairs

    @property
    def strong(self) -> dict[int, list[int]]:
        if self._strong is None:
            strong: dict[int, list[int]] = {}
            for a, b in self.strong_pairs:
                strong.setdefault(a, []).append(b)
                strong.setdefault(b, []).append(a)
            self._strong = strong
        return self._strong

    @property
    def weak(self) -> dict[int, int]:
        if self._weak is None:
            self._weak = search.weak_table(self.n, self._cand, self._pos)
        return self._weak

    def weak_of(self, i: int) -> int:
        """``weak[i]``, without building the whole table when it is not built yet: on a 25×25
        grid the table holds thousands of masks of 15,625 bits, and medusa reads only the
        candidates of its clusters."""
        if self._weak is not None:
            return self._weak[i]
        w = self._weak_one.get(i)
        if w is None:
            w = self._weak_one[i] = search.weak_of(self.n, self._cand, self._pos, i)
        return w

    @property
    def nodes(self) -> list[int]:
        return list(self.weak)

    # ---- candidate numbers ------------------------------------------------------
    def index(self, c: int, v: int) -> int:
        return (v - 1) * self.N + c

    def cell(self, i: int) -> int:
        return i % self.N

    def value(self, i: int) -> int:
        return i // self.N + 1

    def cand(self, i: int) -> Cand:
        c = self.cell(i)
        return (c // self.n, c % self.n, self.value(i))

    def name(self, i: int) -> str:
        """'r1c2=5'."""
        return f"{self.geo.cell_name(self.cell(i))}={value_char(self.value(i))}"

    def cell_order(self, i: int) -> tuple[int, int]:
        """Sort key: by cell, then value (reading order of a list of candidates)."""
        return self.cell(i), i

    def is_strong(self, a: int, b: int) -> bool:
        return b in self.strong.get(a, ())

    def is_weak(self, a: int, b: int) -> bool:
        return bool(self.weak.get(a, 0) >> b & 1)

    def mask_cands(self, mask: int) -> list[Cand]:
        """JSON candidates of a candidate-number mask, sorted."""
        return sorted(self.cand(i) for i in bits(mask))


def links(state: State, session: Session | None = None) -> Links:
    """The link graph of this exact state: the session's (built once for the state as it is
    now and shared by the finders of one step), else the one kept by the state itself for
    its present version (``State.cached``: a finder without a session, or a trial state)."""
    if session is None or session.state is not state:
        return state.cached("links", Links)
    return session.derived("links", Links)
