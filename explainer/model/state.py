"""The candidate state: what is placed and what is still possible.

Three views are kept consistent by ``place`` and ``eliminate`` in O(peers):

- ``values[c]``: the placed value of cell c (0 while empty);
- ``cand[c]``: value mask of c's candidates (0 once placed);
- ``pos[v-1]``: cell mask of every cell where v is still a candidate.

The house×value view ("where can v go in house h") is one AND away,
``pos[v-1] & geo.house_mask[h]`` (``places``): keeping it per value over the
whole grid makes a copy three list copies and lets fish, chains and
colouring read a whole value at once.
"""
from __future__ import annotations

from collections.abc import Callable, Iterable
from dataclasses import dataclass
from typing import Any, ClassVar, Protocol, TypeVar

from .grid import Geometry, Grid, bits, geometry, parse_grid, value_char

T = TypeVar("T")


class Change(Protocol):
    """What ``State.apply`` reads of a step (an ``Explanation``, which builds on this module):
    the candidates it places and those it removes, as (row, col, value)."""

    @property
    def place(self) -> Iterable[tuple[int, int, int]]: ...

    @property
    def eliminate(self) -> Iterable[tuple[int, int, int]]: ...


class Contradiction(Exception):
    """A placement or elimination left a cell or a house without a value."""


class State:
    __slots__ = ("geo", "values", "cand", "pos", "unsolved", "version", "_memo")

    def __init__(self, geo: Geometry) -> None:
        self.geo = geo
        n = geo.n
        self.values = [0] * geo.ncells
        self.cand = [geo.full] * geo.ncells
        self.pos = [geo.all_cells] * n
        self.unsolved = geo.ncells
        self.version = 0
        self._memo: dict[str, tuple[int, Any]] = {}

    @classmethod
    def from_grid(cls, grid: Grid) -> State:
        """The candidates left by the givens (each given placed, peers cleared)."""
        state = cls(geometry(grid.n))
        for c, v in enumerate(grid.values):
            if v:
                state.place(c, v)
        return state

    # ---- reading -------------------------------------------------------------
    @property
    def n(self) -> int:
        return self.geo.n

    def places(self, house: int, v: int) -> int:
        """Cell mask of where v can still go in ``house``."""
        return self.pos[v - 1] & self.geo.house_mask[house]

    def candidates(self, c: int) -> list[int]:
        return [b + 1 for b in bits(self.cand[c])]

    def has(self, c: int, v: int) -> bool:
        return bool(self.cand[c] >> (v - 1) & 1)

    def is_solved(self) -> bool:
        return self.unsolved == 0

    def grid(self) -> Grid:
        return Grid(self.geo.n, tuple(self.values))

    def contradiction(self) -> str | None:
        """Why this state cannot lead to a solution, or None if no obvious reason."""
        geo = self.geo
        for c in range(geo.ncells):
            if not self.values[c] and not self.cand[c]:
                return f"{geo.cell_name(c)} has no candidate left"
        for h, hmask in enumerate(geo.house_mask):
            for v in range(1, geo.n + 1):
                if not self.pos[v - 1] & hmask and v not in (self.values[c] for c in geo.houses[h]):
                    return f"{value_char(v)} has no place left in {geo.house_name(h)}"
        return None

    # ---- changing ------------------------------------------------------------
    def place(self, c: int, v: int) -> None:
        """Set cell c to v: v leaves every peer, c loses all its candidates."""
        bit = 1 << (v - 1)
        if self.values[c]:
            if self.values[c] == v:
                return
            raise Contradiction(f"{self.geo.cell_name(c)} already holds {self.values[c]}")
        cmask = 1 << c
        old = self.cand[c]
        for b in bits(old):
            self.pos[b] &= ~cmask
        self.values[c] = v
        self.cand[c] = 0
        self.unsolved -= 1
        pm = self.geo.peer_mask[c] & self.pos[v - 1]
        if pm:
            self.pos[v - 1] &= ~pm
            nbit = ~bit
            cand = self.cand
            for p in bits(pm):
                cand[p] &= nbit
        self.version += 1

    def eliminate(self, c: int, v: int) -> bool:
        """Remove candidate v from cell c; False if it was not a candidate."""
        bit = 1 << (v - 1)
        if not self.cand[c] & bit:
            return False
        self.cand[c] &= ~bit
        self.pos[v - 1] &= ~(1 << c)
        self.version += 1
        return True

    def apply(self, step: Change) -> None:
        """Apply a step's placements (an Explanation's), then its eliminations."""
        n = self.geo.n
        for r, col, v in step.place:
            self.place(r * n + col, v)
        for r, col, v in step.eliminate:
            self.eliminate(r * n + col, v)

    @classmethod
    def _of(cls, geo: Geometry, values: list[int] | tuple[int, ...], cand: list[int] | tuple[int, ...],
            pos: list[int] | tuple[int, ...], unsolved: int) -> State:
        """A state with copies of these views (a fresh memo)."""
        new = cls.__new__(cls)
        new.geo = geo
        new.values = list(values)
        new.cand = list(cand)
        new.pos = list(pos)
        new.unsolved = unsolved
        new.version = 0
        new._memo = {}
        return new

    @classmethod
    def from_text(cls, values: str, cands: str) -> State:
        """A position written as text (the role positions of the tests and the family review):
        its values as a grid line (all '.' for none given), and each cell's candidates as n
        characters, the digit's letter where it is a candidate, '.' where not (a cell with a
        value: ignored)."""
        geo = geometry(int(round(len(values) ** 0.5)))
        n = geo.n
        vals = list(parse_grid(values).values) if values.strip(".") else [0] * geo.ncells
        cand = [0] * geo.ncells
        for c in range(geo.ncells):
            if not vals[c]:
                for i, ch in enumerate(cands[c * n:(c + 1) * n]):
                    if ch != ".":
                        cand[c] |= 1 << i
        pos = [0] * n
        for c, m in enumerate(cand):
            for v in range(n):
                if m >> v & 1:
                    pos[v] |= 1 << c
        return cls._of(geo, vals, cand, pos, sum(1 for v in vals if not v))

    def copy(self) -> State:
        return State._of(self.geo, self.values, self.cand, self.pos, self.unsolved)

    def snapshot(self) -> Snapshot:
        """An immutable copy (what a step records as the state it was found in): made for every
        step taken, so its fields are written as the frozen dataclass's ``__init__`` would, without
        its ``object.__setattr__`` per field."""
        snap = object.__new__(Snapshot)
        snap.__dict__.update(geo=self.geo, values=tuple(self.values), cand=tuple(self.cand), pos=tuple(self.pos),
                             unsolved=self.unsolved)
        return snap

    def cached(self, key: str, build: Callable[[State], T]) -> T:
        """A value derived from this exact state (links, ALSs), built once.

        The memo is keyed by ``version``, which every change bumps, so a
        derived table can never outlive the state it was built from.
        """
        hit = self._memo.get(key)
        if hit is not None and hit[0] == self.version:
            memo: T = hit[1]
            return memo
        value = build(self)
        self._memo[key] = (self.version, value)
        return value

    # ---- text forms ----------------------------------------------------------
    def to_line(self) -> str:
        return "".join(value_char(v) for v in self.values)

    def to_candidates_line(self) -> str:
        """The n·n·n-character candidates form: for each cell, each value or '.'."""
        n = self.geo.n
        out = []
        for c in range(self.geo.ncells):
            if self.values[c]:
                v = self.values[c]
                out.append("".join(value_char(v) if x == v else "." for x in range(1, n + 1)))
            else:
                out.append("".join(value_char(x) if self.cand[c] >> (x - 1) & 1 else "." for x in range(1, n + 1)))
        return "".join(out)

    def __repr__(self) -> str:
        return f"<State {self.geo.n}x{self.geo.n} {self.to_line()!r}, {self.unsolved} empty>"

    # How a notebook draws a state (the candidates grid): set by ``explainer.api``,
    # so the core never imports the renderer.
    drawer: ClassVar[Callable[[State], bytes] | None] = None

    def _repr_png_(self) -> bytes | None:
        drawer = type(self).drawer
        return None if drawer is None else drawer(self)


@dataclass(frozen=True)
class Snapshot:
    """A frozen candidate state: the reading views of ``State`` as tuples.

    ``state()`` gives a fresh mutable ``State`` to work on.
    """

    geo: Geometry
    values: tuple[int, ...]
    cand: tuple[int, ...]
    pos: tuple[int, ...]
    unsolved: int

    @property
    def n(self) -> int:
        return self.geo.n

    def has(self, c: int, v: int) -> bool:
        return bool(self.cand[c] >> (v - 1) & 1)

    def candidates(self, c: int) -> list[int]:
        return [b + 1 for b in bits(self.cand[c])]

    def places(self, house: int, v: int) -> int:
        return self.pos[v - 1] & self.geo.house_mask[house]

    def is_solved(self) -> bool:
        return self.unsolved == 0

    def state(self) -> State:
        """A fresh mutable copy."""
        return State._of(self.geo, self.values, self.cand, self.pos, self.unsolved)

    def to_line(self) -> str:
        return "".join(value_char(v) for v in self.values)

    def __repr__(self) -> str:
        return f"<Snapshot {self.geo.n}x{self.geo.n} {self.to_line()!r}, {self.unsolved} empty>"



# What a reader of candidates takes (the drawing code, a step's ``before``): a live state or a frozen one.
AnyState = State | Snapshot
