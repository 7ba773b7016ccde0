"""Sudoku Explainer's chaining engine, exactly (compiled twin: ``_sechain.c``).

SE (Sudoku Explainer 1.2.1 by Nicolas Juillerat and SukakuExplainer 1.15.10, the
rater of the SE-rated banks) rates every step above 6.5 with one chaining
engine run in several modes. This module reproduces it hint for hint: the
same implications in the same order, the same chains' ancestries (which set
the length, hence the rating), the same sort and the same first hint. The
rules, in our words:

- A *potential* is a candidate assumed true (on) or false (off), with the
  potentials it follows from (its parents). From an "on" (c, v): every other
  candidate of c is off (the cell rule, not in one-digit chains) and v is off
  in every other cell of c's box, then row, then column. From an "off"
  (c, v): if c has two candidates the other is on (not in one-digit chains);
  for box, row, column, if v has one other place there it is on.
- Propagation takes every pending "on" before any pending "off"; a
  potential found twice keeps its first parents. A chain stops at its first
  contradiction (a potential both on and off).
- *Dynamic* chains remove each "off" from their grid as it is processed, so
  later rules read the reduced grid; an "on" found through a cell or house
  reduced that way gets the removed candidates as extra (hidden) parents.
- *Level* k > 0 (Dynamic Plus and nested): when the queues run dry, the
  reduced grid is searched with pointing/claiming, hidden pair, naked pair,
  x-wing (and at level 2+ forcing chains of the level below): the first rule
  that applies gives "off" potentials whose parents are the chain's "off"s
  the rule needed; a chaining rule's own complexity is added to the chain's.
- A hint's *complexity* is the number of distinct potentials among its
  targets' ancestors (summed over branches) plus its nested chains'; its
  difficulty is its mode's base plus 0.1 per length threshold
  (``length_addition``). A producer sorts its hints by (difficulty,
  complexity, kind), keeping discovery order among equals, and SE takes the
  first.

The producers (``PRODUCERS``) are SE's list from 6.5 up: forcing chains and
cycles, Nishio, multiple (cell and region), dynamic, dynamic plus, nested.
``first_hint`` gives a producer's first hint on a candidate state (None
when it has none), with the implication graph behind it when asked (what a
proof is written from).

Two implementations give the same hints: the C extension
``explainer.core._sechain`` and the Python below (``SUDOKU_EXPLAINER_PURE=1``
forces it). SE is a 9×9 program; the rules carry over to every size.
"""
from __future__ import annotations

from array import array
from collections import deque
from dataclasses import dataclass
from functools import cache
from typing import Any

from explainer.model.grid import Geometry, bits, geometry

from . import load

_C = load("_sechain")

# ---- producers --------------------------------------------------------------------------------

FORCING = 0       # "Forcing Chains & Cycles": static cycles and forcing chains (6.5 / 6.6 / 7.0)
NISHIO = 1        # "Nishio Forcing Chains" (7.5): dynamic, one digit, contradictions only
MULTIPLE = 2      # "Multiple Forcing Chains" (8.0): static cell and region forcing chains
DYNAMIC = 3       # "Dynamic Forcing Chains" (8.5)
DYNAMIC_PLUS = 4  # "Dynamic Forcing Chains (+)" (9.0): level 1
NESTED_FC = 5     # level 2 (9.5): + forcing chains
NESTED_MFC = 6    # level 3 (10.0): + multiple forcing chains
NESTED_DFC = 7    # level 4 (10.5): + dynamic forcing chains nested 0..3 (SukakuExplainer, ids 7..10)
CLASSIC_PLUS = 11  # classic SE 1.2.1.3's dynamic (+) and nested levels 2..5 (ids 11..15)


@dataclass(frozen=True)
class Mode:
    """One configuration of SE's engine (its ``Chaining`` arguments): ``inner`` are the
    producers (indexes into ``PRODUCERS``) whose hints a stalled chain may use after the
    Dynamic Plus rules (nested levels); ``classic``: SE 1.2.1.3's order of pointing and
    claiming inside chains (and its removals in insertion order: SE 1.2.1.3 keeps them in a
    hash map keyed by object identity, an order nobody can reproduce)."""

    multiple: bool
    dynamic: bool
    nishio: bool
    level: int = 0
    inner: tuple[int, ...] = ()
    classic: bool = False

    @property
    def base(self) -> float:
        """The difficulty of a binary, cell or region hint before its length."""
        if self.level > 0:
            return 8.5 + 0.5 * self.level
        if self.nishio:
            return 7.5
        if self.dynamic:
            return 8.5
        return 8.0

    @property
    def least(self) -> float:
        """The least difficulty of the mode's hints (a cycle's 6.5 for the static chains)."""
        return 6.5 if not (self.multiple or self.dynamic) else self.base

    def rules(self) -> tuple[Any, ...]:
        """The rules tried on a stalled chain's grid (SE's ``otherRules``), in order."""
        if self.level <= 0:
            return ()
        return ("locking", "hidden pair", "naked pair", "x-wing") + tuple(PRODUCERS[i] for i in self.inner)


PRODUCERS: tuple[Mode, ...] = (
    Mode(False, False, False),
    Mode(False, True, True),
    Mode(True, False, False),
    Mode(True, True, False),
    Mode(True, True, False, 1),
    Mode(True, True, False, 2, (0,)),
    Mode(True, True, False, 3, (0, 2)),
    Mode(True, True, False, 4, (3,)),
    Mode(True, True, False, 4, (4,)),
    Mode(True, True, False, 4, (5,)),
    Mode(True, True, False, 4, (6,)),
    Mode(True, True, False, 1, (), True),
    Mode(True, True, False, 2, (0,), True),
    Mode(True, True, False, 3, (0, 2), True),
    Mode(True, True, False, 4, (3,), True),
    Mode(True, True, False, 5, (3, 12), True),
)
MODES = PRODUCERS  # a nested rule's mode is a producer's mode (the compiled engine names modes by index)
# each flavour's chaining producers in SE's order (Aligned Triplet Exclusion goes after the first)
SUKAKU = tuple(range(11))
CLASSIC = (0, 1, 2, 3) + tuple(range(CLASSIC_PLUS, CLASSIC_PLUS + 5))


def length_addition(complexity: int) -> float:
    """SE's length bonus: 0.1 per threshold (4, 6, 8, 12, 16, 24, …) that complexity − 2
    exceeds, summed as SE sums it (the sum's last bits decide ties in its sort)."""
    added, ceil, odd = 0.0, 4, False
    length = complexity - 2
    while length > ceil:
        added += 0.1
        ceil = ceil * 4 // 3 if odd else ceil * 3 // 2
        odd = not odd
    return added


# ---- potentials ---------------------------------------------------------------------------------

# causes: why a potential holds (its rule), as SE records them
INITIAL, NAKED, BLOCK, ROW, COLUMN, ADVANCED = range(6)
REGION_CAUSE = (BLOCK, ROW, COLUMN)  # by SE's region type: block 0, row 1, column 2


class Node:
    """A potential: (cell, value, on) with its parents (what it follows from) and cause.

    ``rule`` is the hint of the rule an ADVANCED potential comes from (a nested chaining
    hint, or a ``Rule`` of Dynamic Plus)."""

    __slots__ = ("k", "cell", "value", "on", "cause", "parents", "rule")

    def __init__(self, n: int, cell: int, value: int, on: bool, cause: int = INITIAL,
                 parent: Node | None = None) -> None:
        self.k = ((cell * n + value - 1) << 1) | on
        self.cell, self.value, self.on, self.cause = cell, value, on, cause
        self.parents: list[Node] = [] if parent is None else [parent]
        self.rule: Rule | Hint | None = None

    def __repr__(self) -> str:
        return f"r{self.cell // 9 + 1}c{self.cell % 9 + 1}{'=' if self.on else '<>'}{self.value}"


def ancestry(target: Node) -> list[Node]:
    """The potentials ``target`` rests on, itself first, breadth first, one per candidate and
    state (the first met): SE's ``getChain``; its length is SE's ancestor count."""
    seen: set[int] = set()
    out: list[Node] = []
    todo = [target]
    while todo:
        nxt: list[Node] = []
        for p in todo:
            if p.k not in seen:
                seen.add(p.k)
                out.append(p)
                nxt.extend(p.parents)
        todo = nxt
    return out


def _java_order(n: int, cells: list[int], classic: bool = False) -> list[int]:
    """Cells in the order a Java HashMap keyed by cell index (hash = index) iterates them,
    given their insertion order: by bucket (index mod capacity), then insertion (classic SE:
    insertion order)."""
    if classic:
        return list(cells)
    cap = 16
    while len(cells) > cap * 3 // 4:
        cap *= 2
    rank = {c: i for i, c in enumerate(cells)}
    return sorted(cells, key=lambda c: (c & (cap - 1), rank[c]))


# ---- the grid a chain works on -------------------------------------------------------------------

@dataclass(frozen=True)
class Tables:
    """SE's regions for one size: per cell its block, row and column (our house indexes),
    in SE's region type order."""

    geo: Geometry
    regions: tuple[tuple[int, int, int], ...]  # per cell: (box, row, col) house indexes
    types: tuple[tuple[int, ...], ...]  # SE's region types in order: blocks, rows, columns (houses)
    pairs: tuple[tuple[int, int], ...]  # Permutations(2, n): index pairs in SE's order


@cache
def tables(n: int) -> Tables:
    geo = geometry(n)
    regions = tuple((2 * n + geo.box_of[c], geo.row_of[c], n + geo.col_of[c]) for c in range(geo.ncells))
    types = (tuple(range(2 * n, 3 * n)), tuple(range(n)), tuple(range(n, 2 * n)))
    pairs = tuple(sorted(((i, j) for j in range(n) for i in range(j)), key=lambda p: (1 << p[0]) | (1 << p[1])))
    return Tables(geo, regions, types, pairs)


class Grid:
    """Values and candidates, with each value's places (cell masks) kept beside."""

    __slots__ = ("n", "values", "cand", "pos")

    def __init__(self, n: int, values: list[int], cand: list[int], pos: list[int] | None = None) -> None:
        self.n, self.values, self.cand = n, values, cand
        if pos is None:
            pos = [0] * n
            for c, m in enumerate(cand):
                for b in bits(m):
                    pos[b] |= 1 << c
        self.pos = pos

    def has(self, c: int, v: int) -> bool:
        return bool(self.cand[c] >> (v - 1) & 1)

    def remove(self, c: int, v: int) -> None:
        self.cand[c] &= ~(1 << (v - 1))
        self.pos[v - 1] &= ~(1 << c)

    def save(self) -> tuple[list[int], list[int]]:
        return list(self.cand), list(self.pos)

    def restore(self, saved: tuple[list[int], list[int]]) -> None:
        self.cand[:] = saved[0]
        self.pos[:] = saved[1]

    def frozen(self) -> Grid:
        return Grid(self.n, self.values, list(self.cand), list(self.pos))


# ---- hints ------------------------------------------------------------------------------------

CYCLE, FORCING_CHAIN, CONTRADICTION, DOUBLE, CELL, REGION = "cycle", "forcing", "contradiction", "double", \
    "cell", "region"


class Hint:
    """One of SE's chaining hints: what it removes (or places) and the chains behind it.

    ``targets`` are SE's chain targets (one potential per chain; a cell or region hint has
    one per branch); their ancestries are the proof."""

    __slots__ = ("kind", "mode", "x", "y", "removable", "targets", "place", "source", "cell", "region", "value",
                 "_flat", "_key")

    def __init__(self, kind: str, mode: Mode, removable: list[tuple[int, int]], targets: list[Node],
                 place: tuple[int, int] | None = None, x: bool = True, y: bool = True) -> None:
        self.kind, self.mode, self.x, self.y = kind, mode, x, y
        self.removable = removable  # (cell, value), in SE's insertion order
        self.targets = targets
        self.place = place
        self.source: Node | None = None  # a binary hint's assumption
        self.cell = -1  # a cell hint's cell
        self.region = -1  # a region hint's house
        self.value = 0
        self._flat = -1
        self._key: frozenset[tuple[int, int]] | None = None

    # what SE sorts by
    @property
    def sort_key(self) -> int:
        if self.kind in (CYCLE, FORCING_CHAIN):
            return 4 if self.x and self.y else (3 if self.y else 2)
        return {CONTRADICTION: 7, DOUBLE: 1, CELL: 5, REGION: 6}[self.kind]

    @property
    def flat_complexity(self) -> int:
        if self._flat < 0:
            chains = self.targets[:1] if self.kind == CYCLE else self.targets
            self._flat = sum(len(ancestry(t)) for t in chains)
        return self._flat

    def nested(self) -> list[Hint]:
        """The distinct nested chaining hints among the ancestries (SE's FullChain equality)."""
        out: list[Hint] = []
        seen: set[Any] = set()
        for t in self.targets:
            for p in ancestry(t):
                if isinstance(p.rule, Hint):
                    f = p.rule.identity()
                    if f not in seen:
                        seen.add(f)
                        out.append(p.rule)
        return out

    def identity(self) -> tuple[tuple[int, ...], ...]:
        """SE's FullChain: the chains' potentials in breadth-first order."""
        return tuple(tuple(p.k for p in ancestry(t)) for t in self.targets)

    @property
    def complexity(self) -> int:
        return self.flat_complexity + sum(h.complexity for h in self.nested())

    @property
    def difficulty(self) -> float:
        if self.kind == CYCLE:
            base = 7.0 if self.x and self.y else 6.5
        elif self.kind == FORCING_CHAIN:
            base = 7.0 if self.x and self.y else 6.6
        else:
            base = self.mode.base
        return base + length_addition(self.complexity)

    @property
    def removal_key(self) -> frozenset[tuple[int, int]]:
        """What SE compares two chaining hints by (equal hints: one is dropped)."""
        if self._key is None:
            self._key = frozenset(self.removable)
        return self._key

    def removable_order(self, n: int, classic: bool = False) -> list[tuple[int, int]]:
        """The removable candidates as SE iterates them (its HashMap's order)."""
        by_cell: dict[int, list[int]] = {}
        for c, v in self.removable:
            by_cell.setdefault(c, []).append(v)
        return [(c, v) for c in _java_order(n, list(by_cell), classic) for v in sorted(by_cell[c])]

    def rule_parents(self, t: Tables, source: Grid, grid: Grid) -> list[int]:
        """SE's ``getRuleParents``: the "off" potentials (keys) of an enclosing chain this
        hint needs, the candidates its chains' cell and house rules rely on that the
        enclosing chain removed."""
        n = t.geo.n
        out: dict[int, None] = {}
        for target in self.targets:
            for p in ancestry(target):
                cause = p.cause
                if cause == INITIAL:
                    cause = NAKED if self.kind == CELL else (REGION_CAUSE[self._region_type(t)]
                                                              if self.kind == REGION else INITIAL)
                if not p.on or cause == INITIAL:
                    continue
                if cause == NAKED:
                    gone = source.cand[p.cell] & ~grid.cand[p.cell]
                    for b in bits(gone):
                        out.setdefault((p.cell * n + b) << 1)
                else:
                    h = t.regions[p.cell][(BLOCK, ROW, COLUMN).index(cause)]
                    m = t.geo.house_mask[h] & source.pos[p.value - 1] & ~grid.pos[p.value - 1]
                    for c in bits(m):
                        out.setdefault((c * n + p.value - 1) << 1)
        return list(out)

    def _region_type(self, t: Tables) -> int:
        n = t.geo.n
        return 0 if self.region >= 2 * n else (1 if self.region < n else 2)

    def __repr__(self) -> str:
        rem = ", ".join(f"r{c // 9 + 1}c{c % 9 + 1}<>{v}" for c, v in self.removable)
        return f"<Hint {self.kind} {self.difficulty:.1f} ({self.complexity}): {rem}>"


@dataclass(frozen=True)
class Rule:
    """A Dynamic Plus rule's hint on a chain's reduced grid (pointing/claiming, hidden pair,
    naked pair, x-wing): what it removes and what it needs removed first."""

    name: str  # "locking", "hidden pair", "naked pair", "x-wing"
    value: int  # the digit (locking, x-wing); 0 for the pairs
    values: tuple[int, ...]  # the pair's digits (the pairs)
    # locking: (the house confining the digit, the other); pairs: (house,); x-wing: base lines, cover lines
    houses: tuple[int, ...]
    cells: tuple[int, ...]  # the pattern's cells
    removable: tuple[tuple[int, int], ...]  # (cell, value) in SE's HashMap order
    parents: tuple[int, ...]  # the "off" keys it needs (SE's getRuleParents)


# ---- the engine ----------------------------------------------------------------------------------

Result = Hint | Rule


class Engine:
    """SE's ``Chaining`` in one mode on one grid size."""

    def __init__(self, n: int, mode: Mode) -> None:
        self.t = tables(n)
        self.n = n
        self.mode = mode
        self._rules: list[Any] | None = None

    # -- hints -------------------------------------------------------------------------------
    def hints(self, g: Grid) -> list[Hint]:
        """Every hint, sorted as SE sorts them (difficulty, complexity, kind; discovery order)."""
        if self.mode.multiple or self.mode.dynamic:
            found = self._multiple(g)
        else:
            found = self._loops(g, False, True) + self._loops(g, True, False) + self._loops(g, True, True)
        keyed = sorted(range(len(found)), key=lambda i: (found[i].difficulty, found[i].complexity,
                                                         found[i].sort_key, i))
        return [found[i] for i in keyed]

    def distinct_hints(self, g: Grid) -> list[Hint]:
        """The sorted hints with removal-equal ones dropped (what a nested rule yields)."""
        out: list[Hint] = []
        seen: set[frozenset[tuple[int, int]]] = set()
        for h in self.hints(g):
            if h.removal_key not in seen:
                seen.add(h.removal_key)
                out.append(h)
        return out

    # -- implications ----------------------------------------------------------------------------
    def on_to_off(self, g: Grid, p: Node, cell_rule: bool) -> list[Node]:
        n, c, v = self.n, p.cell, p.value
        out: list[Node] = []
        if cell_rule:
            for b in bits(g.cand[c] & ~(1 << (v - 1))):
                out.append(Node(n, c, b + 1, False, NAKED, p))
        hm = self.t.geo.house_mask
        box, row, col = self.t.regions[c]
        pv = g.pos[v - 1] & ~(1 << c)
        bm = hm[box]
        for x in bits(pv & bm):
            out.append(Node(n, x, v, False, BLOCK, p))
        for x in bits(pv & hm[row] & ~bm):
            out.append(Node(n, x, v, False, ROW, p))
        for x in bits(pv & hm[col] & ~bm):
            out.append(Node(n, x, v, False, COLUMN, p))
        return out

    def off_to_on(self, g: Grid, p: Node, source: Grid | None, offs: dict[int, Node], cell_rule: bool,
                  house_rule: bool) -> list[Node]:
        n, c, v = self.n, p.cell, p.value
        out: list[Node] = []
        if cell_rule:
            m = g.cand[c]
            if m.bit_count() == 2:
                low = (m & -m).bit_length()
                other = low if low != v else (m & ~(1 << (low - 1))).bit_length()
                q = Node(n, c, other, True, NAKED, p)
                if source is not None:
                    for b in bits(source.cand[c] & ~m):
                        q.parents.append(offs[(c * n + b) << 1])
                out.append(q)
        if house_rule:
            hm = self.t.geo.house_mask
            for kind, h in enumerate(self.t.regions[c]):
                others = g.pos[v - 1] & hm[h] & ~(1 << c)
                if others and not others & (others - 1):
                    x = others.bit_length() - 1
                    q = Node(n, x, v, True, REGION_CAUSE[kind], p)
                    if source is not None:
                        for y in bits(source.pos[v - 1] & hm[h] & ~g.pos[v - 1]):
                            q.parents.append(offs[(y * n + v - 1) << 1])
                    if all(o.k != q.k for o in out):
                        out.append(q)
        return out

    # -- propagation --------------------------------------------------------------------------
    def chain(self, g: Grid, to_on: dict[int, Node], to_off: dict[int, Node]) -> tuple[Node, Node] | None:
        """SE's ``doChaining``: propagate to the end (filling ``to_on``/``to_off``); the
        first potential found both on and off (its on and off versions), or None."""
        mode = self.mode
        saved = g.save()
        source = Grid(self.n, g.values, saved[0], saved[1]) if mode.dynamic else None
        cell_rule = not mode.nishio
        pend_on, pend_off = deque(to_on.values()), deque(to_off.values())
        try:
            while True:
                if pend_on:
                    p = pend_on.popleft()
                    for q in self.on_to_off(g, p, cell_rule):
                        on = to_on.get(q.k | 1)
                        if on is not None:
                            return on, q
                        if q.k not in to_off:
                            to_off[q.k] = q
                            pend_off.append(q)
                    continue
                if pend_off:
                    p = pend_off.popleft()
                    made = self.off_to_on(g, p, source, to_off, cell_rule, True)
                    if mode.dynamic:
                        g.remove(p.cell, p.value)
                    for q in made:
                        off = to_off.get(q.k & ~1)
                        if off is not None:
                            return q, off
                        if q.k not in to_on:
                            to_on[q.k] = q
                            pend_on.append(q)
                    continue
                if mode.level > 0:
                    assert source is not None
                    for q in self.advanced(g, source, to_off):
                        if q.k not in to_off:
                            to_off[q.k] = q
                            pend_off.append(q)
                    if pend_off:
                        continue
                return None
        finally:
            g.restore(saved)

    def advanced(self, g: Grid, source: Grid, offs: dict[int, Node]) -> list[Node]:
        """SE's ``getAdvancedPotentials``: the first rule that applies on the reduced grid
        with some parents gives "off" potentials."""
        if self._rules is None:
            self._rules = [r if isinstance(r, str) else Engine(self.n, r) for r in self.mode.rules()]
        n = self.n
        out: list[Node] = []
        for rule in self._rules:
            found: list[Result] = (rules_on(self.t, g, source, rule, self.mode.classic) if isinstance(rule, str)
                                   else rule.distinct_hints(g))
            for hint in found:
                if isinstance(hint, Rule):
                    parents, order = hint.parents, hint.removable
                else:
                    parents = tuple(hint.rule_parents(self.t, source, g))
                    order = tuple(hint.removable_order(n, self.mode.classic))
                if not parents:
                    continue
                for c, v in order:
                    q = Node(n, c, v, False, ADVANCED)
                    q.rule = hint
                    q.parents = [offs[k] for k in parents]
                    out.append(q)
            if out:
                break
        return out

    # -- multiple, dynamic, Nishio --------------------------------------------------------------
    def _multiple(self, g: Grid) -> list[Hint]:
        mode, n = self.mode, self.n
        out: list[Hint] = []
        memo: dict[int, tuple[dict[int, Node], dict[int, Node], tuple[Node, Node] | None]] = {}

        def run(start: Node) -> tuple[dict[int, Node], dict[int, Node], tuple[Node, Node] | None]:
            hit = memo.get(start.k)
            if hit is None:
                to_on: dict[int, Node] = {start.k: start} if start.on else {}
                to_off: dict[int, Node] = {} if start.on else {start.k: start}
                hit = memo[start.k] = (to_on, to_off, self.chain(g, to_on, to_off))
            return hit

        for c in range(n * n):
            m = g.cand[c]
            card = m.bit_count()
            if g.values[c] or not (card > 2 or (card > 1 and mode.dynamic)):
                continue
            value_on: dict[int, dict[int, Node]] = {}
            value_off: dict[int, dict[int, Node]] = {}
            cell_on: dict[int, Node] | None = None
            cell_off: dict[int, Node] = {}
            for b in bits(m):
                v = b + 1
                on_on, on_off, absurd = run(Node(n, c, v, True))
                p_on = on_on[((c * n + b) << 1) | 1]
                if (mode.dynamic or mode.nishio) and absurd is not None:
                    out.append(self._binary(g, absurd, p_on, p_on, True))
                off_on, off_off, absurd = run(Node(n, c, v, False))
                p_off = off_off[(c * n + b) << 1]
                if (mode.dynamic or mode.nishio) and absurd is not None:
                    out.append(self._binary(g, absurd, p_off, p_off, True))
                if card >= 3 and not mode.nishio and mode.dynamic:
                    for k, q in on_on.items():
                        r = off_on.get(k)
                        if r is not None:
                            h = self._binary(g, (q, r), p_on, q, False)
                            if h.removable:
                                out.append(h)
                    for k, q in on_off.items():
                        r = off_off.get(k)
                        if r is not None:
                            out.append(self._binary(g, (q, r), p_off, r, False))
                if not mode.nishio:
                    self._regions(g, out, c, v, on_on, on_off, run)
                value_on[v], value_off[v] = on_on, on_off
                if cell_on is None:
                    cell_on, cell_off = dict(on_on), dict(on_off)
                else:
                    cell_on = {k: q for k, q in cell_on.items() if k in on_on}
                    cell_off = {k: q for k, q in cell_off.items() if k in on_off}
            if not mode.nishio and (card == 2 or (mode.multiple and card > 2)):
                assert cell_on is not None
                for outcomes, common in ((value_on, cell_on), (value_off, cell_off)):
                    for k, q in common.items():
                        h = self._reduction(g, CELL, q, [outcomes[v][k] for v in sorted(outcomes)])
                        if h.removable:
                            h.cell = c
                            out.append(h)
        return out

    def _regions(self, g: Grid, out: list[Hint], c: int, v: int, on_on: dict[int, Node], on_off: dict[int, Node],
                 run: Any) -> None:
        n, hm = self.n, self.t.geo.house_mask
        for h in self.t.regions[c]:
            places = g.pos[v - 1] & hm[h]
            card = places.bit_count()
            if not (card == 2 or (self.mode.multiple and card > 2)):
                continue
            if (places & -places).bit_length() - 1 != c:
                continue  # the region is chained from its first place only
            branches_on: list[dict[int, Node]] = []
            branches_off: list[dict[int, Node]] = []
            region_on, region_off = dict(on_on), dict(on_off)
            for x in bits(places):
                if x == c:
                    b_on, b_off = on_on, on_off
                else:
                    b_on, b_off, _ = run(Node(n, x, v, True))
                    region_on = {k: q for k, q in region_on.items() if k in b_on}
                    region_off = {k: q for k, q in region_off.items() if k in b_off}
                branches_on.append(b_on)
                branches_off.append(b_off)
            for branches, common in ((branches_on, region_on), (branches_off, region_off)):
                for k, q in common.items():
                    hint = self._reduction(g, REGION, q, [b[k] for b in branches])
                    if hint.removable:
                        hint.region, hint.value = h, v
                        out.append(hint)

    def _binary(self, g: Grid, pair: tuple[Node, Node], source: Node, target: Node, absurd: bool) -> Hint:
        """A contradiction (``absurd``: ``source`` leads to ``pair``, a potential both on and
        off) or double forcing hint (``source`` on and off both lead to ``target``). SE removes
        the target when it is off (or it is the assumption of an absurd "on"), else places it."""
        n = self.n
        concl = (source.cell, source.value, not source.on) if absurd else (target.cell, target.value, target.on)
        if concl[2]:
            rem = [(concl[0], b + 1) for b in bits(g.cand[concl[0]] & ~(1 << (concl[1] - 1)))]
            place: tuple[int, int] | None = (concl[0], concl[1])
        else:
            rem, place = [(concl[0], concl[1])], None
        h = Hint(CONTRADICTION if absurd else DOUBLE, self.mode, rem, [pair[0], pair[1]], place)
        h.source = Node(n, source.cell, source.value, source.on)
        return h

    def _reduction(self, g: Grid, kind: str, target: Node, branches: list[Node]) -> Hint:
        if target.on:
            rem = [(target.cell, b + 1) for b in bits(g.cand[target.cell] & ~(1 << (target.value - 1)))]
            place = (target.cell, target.value) if rem else None
        else:
            rem, place = [(target.cell, target.value)], None
        return Hint(kind, self.mode, rem, branches, place)

    # -- cycles and forcing chains (static) ---------------------------------------------------
    def _loops(self, g: Grid, y: bool, x: bool) -> list[Hint]:
        n = self.n
        out: list[Hint] = []
        for c in range(n * n):
            m = g.cand[c]
            if g.values[c] or m.bit_count() < 2:
                continue
            if not x and m.bit_count() > 2:
                continue  # y-cycles start in a bivalue cell
            for b in bits(m):
                self._unary(g, Node(n, c, b + 1, True), out, y, x)
        return out

    def _unary(self, g: Grid, p_on: Node, out: list[Hint], y: bool, x: bool) -> None:
        n = self.n
        cycles: list[Node] = []
        chains: list[Node] = []
        self._cycles(g, p_on, y, x, cycles)
        if x:
            self._forcing(g, {p_on.k: p_on}, {}, y, chains, p_on)
            p_off = Node(n, p_on.cell, p_on.value, False)
            self._forcing(g, {}, {p_off.k: p_off}, y, chains, p_off)
        for dst in cycles:
            h = self._cycle_hint(g, dst, _reversed(n, dst), y, x)
            if h.removable:
                out.append(h)
        for target in chains:
            if target.on:
                rem = [(target.cell, b + 1) for b in bits(g.cand[target.cell] & ~(1 << (target.value - 1)))]
                place = (target.cell, target.value)
            else:
                rem, place = [(target.cell, target.value)], None
            if rem:
                out.append(Hint(FORCING_CHAIN, self.mode, rem, [target], place, x, y))

    def _cycles(self, g: Grid, source: Node, y: bool, x: bool, cycles: list[Node]) -> None:
        to_on = {source.k}
        pend_on: deque[Node] = deque([source])
        pend_off: deque[Node] = deque()
        length = 0
        while pend_on or pend_off:
            length += 1
            while pend_on:
                p = pend_on.popleft()
                for q in self.on_to_off(g, p, y):
                    if not _is_parent(p, q.k):
                        pend_off.append(q)
            length += 1
            while pend_off:
                p = pend_off.popleft()
                for q in self.off_to_on(g, p, None, {}, y, x):
                    if length >= 4 and q.k == source.k:
                        cycles.append(q)
                    if q.k not in to_on:
                        to_on.add(q.k)
                        pend_on.append(q)

    def _forcing(self, g: Grid, to_on: dict[int, Node], to_off: dict[int, Node], y: bool, chains: list[Node],
                 source: Node) -> None:
        pend_on, pend_off = deque(to_on.values()), deque(to_off.values())
        while pend_on or pend_off:
            while pend_on:
                p = pend_on.popleft()
                for q in self.on_to_off(g, p, y):
                    if q.k | 1 == source.k and all(t.k != q.k for t in chains):
                        chains.append(q)
                    if q.k not in to_off:
                        to_off[q.k] = q
                        pend_off.append(q)
            while pend_off:
                p = pend_off.popleft()
                for q in self.off_to_on(g, p, None, to_off, y, True):
                    if q.k & ~1 == source.k and all(t.k != q.k for t in chains):
                        chains.append(q)
                    if q.k not in to_on:
                        to_on[q.k] = q
                        pend_on.append(q)

    def _cycle_hint(self, g: Grid, dst_on: Node, dst_off: Node, y: bool, x: bool) -> Hint:
        peers = self.t.geo.peers
        cells: set[int] = set()
        p = dst_on
        while p.parents:
            cells.add(p.cell)
            p = p.parents[0]
        forward: dict[tuple[int, int], None] = {}
        back: set[tuple[int, int]] = set()
        p = dst_on
        while p.parents:
            bit = 1 << (p.value - 1)
            for c in peers[p.cell]:
                if c not in cells and g.cand[c] & bit:
                    if p.on:
                        forward.setdefault((c, p.value))
                    else:
                        back.add((c, p.value))
            p = p.parents[0]
        rem = [cv for cv in forward if cv in back]
        return Hint(CYCLE, self.mode, rem, [dst_on, dst_off], None, x, y)


def _is_parent(child: Node, key: int) -> bool:
    """True if ``key`` is on ``child``'s first-parent line (SE's ``isParent``)."""
    p = child
    while p.parents:
        p = p.parents[0]
        if p.k == key:
            return True
    return False


def _reversed(n: int, dst_on: Node) -> Node:
    """The cycle read backwards (SE's ``getReversedCycle``): each potential negated, each
    keeping the cause of the one it negates; returns the end (the source, negated)."""
    line: list[Node] = []
    p: Node | None = dst_on
    while p is not None:
        r = Node(n, p.cell, p.value, not p.on, p.cause)
        line.insert(0, r)
        p = p.parents[0] if p.parents else None
    for a, b in zip(line, line[1:], strict=False):
        a.parents.append(b)
    return line[0]


# ---- Dynamic Plus rules on a reduced grid --------------------------------------------------------

def rules_on(t: Tables, g: Grid, source: Grid, name: str, classic: bool = False) -> list[Result]:
    """Every hint of one Dynamic Plus rule on ``g``, in SE's scan order (``classic``: SE
    1.2.1.3's), with the parents each needs (candidates of ``source`` that ``g`` lacks)."""
    found = {"locking": _locking, "hidden pair": _hidden_pairs, "naked pair": _naked_pairs,
             "x-wing": _x_wings}[name](t, g, source, classic)
    return [r for r in found if r.parents]  # SE ignores a rule the chain did not enable



def _rule(t: Tables, name: str, value: int, values: tuple[int, ...], houses: tuple[int, ...],
          cells: tuple[int, ...], removable: list[tuple[int, int]], parents: list[int], classic: bool) -> Rule:
    n = t.geo.n
    by_cell: dict[int, list[int]] = {}
    for c, v in removable:
        by_cell.setdefault(c, []).append(v)
    order = tuple((c, v) for c in _java_order(n, list(by_cell), classic) for v in sorted(by_cell[c]))
    return Rule(name, value, values, houses, cells, order, tuple(parents))


def _locking(t: Tables, g: Grid, source: Grid, classic: bool) -> list[Rule]:
    """Pointing and claiming: block→column, block→row, column→block, row→block; then the
    digit, the first region, the second (SukakuExplainer) or the first region, the second,
    the digit (classic SE)."""
    n, hm = t.geo.n, t.geo.house_mask
    blocks, rows, cols = t.types
    out: list[tuple[tuple[int, int, int, int], Rule]] = []
    for kind, (first, second) in enumerate(((blocks, cols), (blocks, rows), (cols, blocks), (rows, blocks))):
        for v in range(1, n + 1):
            pv, spv = g.pos[v - 1], source.pos[v - 1]
            for i1, h1 in enumerate(first):
                places = pv & hm[h1]
                if places.bit_count() < 2:
                    continue
                for i2, h2 in enumerate(second):
                    if not hm[h1] & hm[h2] or places & ~hm[h2]:
                        continue
                    rem = [(c, v) for c in bits(pv & hm[h2] & ~hm[h1])]
                    if not rem:
                        continue
                    gone = hm[h1] & spv & ~pv & ~hm[h2]
                    rule = _rule(t, "locking", v, (v,), (h1, h2), tuple(bits(places)), rem,
                                 [(c * n + v - 1) << 1 for c in bits(gone)], classic)
                    out.append(((kind, i1, i2, v) if classic else (kind, v, i1, i2), rule))
    return [r for _, r in sorted(out, key=lambda x: x[0])]


def _hidden_pairs(t: Tables, g: Grid, source: Grid, classic: bool) -> list[Rule]:
    return _pairs(t, g, source, classic, hidden=True)


def _naked_pairs(t: Tables, g: Grid, source: Grid, classic: bool) -> list[Rule]:
    return _pairs(t, g, source, classic, hidden=False)


def _pairs(t: Tables, g: Grid, source: Grid, classic: bool, hidden: bool) -> list[Rule]:
    """SE's hidden (``hidden``) or naked pairs in its scan order: blocks, columns, rows, then the
    pairs of places (hidden: of values) in its order; a hidden pair needs more than four empty
    cells in its region, a naked one four."""
    blocks, rows, cols = t.types
    out: list[Rule] = []
    for kind in (blocks, cols, rows):
        for h in kind:
            empty = sum(1 for c in t.geo.houses[h] if not g.values[c])
            if empty < 4 or (hidden and empty == 4):
                continue
            for i, j in t.pairs:
                rule = (_hidden_pair if hidden else _naked_pair)(t, g, source, classic, h, i, j)
                if rule is not None:
                    out.append(rule)
    return out


def _hidden_pair(t: Tables, g: Grid, source: Grid, classic: bool, h: int, i: int, j: int) -> Rule | None:
    """The hidden pair of values i + 1, j + 1 in house h, if they make one that removes something."""
    n, geo = t.geo.n, t.geo
    a, b = i + 1, j + 1
    hmask = geo.house_mask[h]
    pa, pb = g.pos[i] & hmask, g.pos[j] & hmask
    if pa.bit_count() < 2 or pb.bit_count() < 2 or (pa | pb).bit_count() != 2:
        return None
    both = (1 << i) | (1 << j)
    pair = tuple(bits(pa | pb))
    rem = [(c, w + 1) for c in pair for w in bits(g.cand[c] & ~both)]
    if not rem:
        return None
    parents = [((c * n + w - 1) << 1) for c in geo.houses[h] if not (pa | pb) >> c & 1
               for w in (a, b) if source.has(c, w)]
    return _rule(t, "hidden pair", 0, (a, b), (h,), pair, rem, parents, classic)


def _naked_pair(t: Tables, g: Grid, source: Grid, classic: bool, h: int, i: int, j: int) -> Rule | None:
    """The naked pair of the house's i-th and j-th cells, if they make one that removes something."""
    n, cells = t.geo.n, t.geo.houses[h]
    ca, cb = cells[i], cells[j]
    ma, mb = g.cand[ca], g.cand[cb]
    if ma.bit_count() < 2 or mb.bit_count() < 2 or (ma | mb).bit_count() != 2:
        return None
    both = ma | mb
    rem = [(c, w + 1) for c in cells if c not in (ca, cb) for w in bits(g.cand[c] & both)]
    if not rem:
        return None
    values = tuple(w + 1 for w in bits(both))
    parents = [((c * n + w) << 1) for c in (ca, cb) for w in bits(source.cand[c] & ~both)]
    return _rule(t, "naked pair", 0, values, (h,), (ca, cb), rem, parents, classic)


def _x_wings(t: Tables, g: Grid, source: Grid, classic: bool) -> list[Rule]:
    n, geo = t.geo.n, t.geo
    blocks, rows, cols = t.types
    placed = [0] * (n + 1)
    for v in g.values:
        placed[v] += 1
    out: list[Rule] = []
    for base, cover in ((cols, rows), (rows, cols)):
        for i, j in t.pairs:
            b1, b2 = base[i], base[j]
            for v in range(1, n + 1):
                if placed[v] + 4 > n:
                    continue
                pv = g.pos[v - 1]
                p1, p2 = pv & geo.house_mask[b1], pv & geo.house_mask[b2]
                lines1 = {_line(geo, c, cover) for c in bits(p1)}
                lines2 = {_line(geo, c, cover) for c in bits(p2)}
                if len(lines1) < 2 or len(lines2) < 2 or len(lines1 | lines2) != 2:
                    continue
                covers = tuple(sorted(lines1 | lines2))
                bases = geo.house_mask[b1] | geo.house_mask[b2]
                rem = [(c, v) for h in covers for c in bits(pv & geo.house_mask[h] & ~bases)]
                if not rem:
                    continue
                cover_mask = geo.house_mask[covers[0]] | geo.house_mask[covers[1]]
                parents = [((c * n + v - 1) << 1) for b in (b1, b2)
                           for c in bits(geo.house_mask[b] & source.pos[v - 1] & ~pv & ~cover_mask)]
                cells = tuple(c for h in covers for c in bits(pv & geo.house_mask[h] & bases))
                out.append(_rule(t, "x-wing", v, (v,), (b1, b2) + covers, cells, rem, parents, classic))
    return out


def _line(geo: Geometry, c: int, lines: tuple[int, ...]) -> int:
    """The line of ``lines`` (all rows or all columns) through cell c."""
    return lines[geo.row_of[c]] if lines[0] < geo.n else lines[geo.col_of[c]]


# ---- what a producer returns -------------------------------------------------------------------

@dataclass(frozen=True)
class Potential:
    """One potential of a hint's implication graph: (cell, value, on), why it holds
    (``cause``) and the indexes of the potentials it follows from; an ADVANCED one names
    the rule that removed it (a ``Rule`` of Dynamic Plus, or a nested ``SeHint``)."""

    cell: int
    value: int
    on: bool
    cause: int
    parents: tuple[int, ...]
    rule: Rule | SeHint | None = None


@dataclass(frozen=True)
class SeHint:
    """A producer's hint as SE rates it: kind, difficulty, complexity, what it removes
    (SE's order) or places; with the implication graph (``nodes``, ``targets``: SE's chain
    targets, one per chain) when asked for.

    kind: cycle, forcing (SE's forcing chains), contradiction, double, cell, region;
    ``x``, ``y``: a cycle's or forcing chain's links (x: houses, y: cells); ``source``: a
    contradiction's or double forcing chain's assumption (cell, value, on); ``cell``: a cell
    forcing chain's cell; ``region``, ``value``: a region forcing chain's house and digit."""

    mode: Mode
    kind: str
    difficulty: float
    complexity: int
    sort_key: int
    removable: tuple[tuple[int, int], ...]
    place: tuple[int, int] | None
    x: bool = True
    y: bool = True
    source: tuple[int, int, bool] | None = None
    cell: int = -1
    region: int = -1
    value: int = 0
    nodes: tuple[Potential, ...] = ()
    targets: tuple[int, ...] = ()

    @property
    def rating(self) -> float:
        """The difficulty as SE prints it (one decimal)."""
        return int((self.difficulty + 0.05) * 10) / 10


def export(hint: Hint, graph: bool = True) -> SeHint:
    """The pure engine's hint as a producer returns it; ``graph``: with its implication graph,
    the potentials numbered breadth first from the targets (each object once)."""
    nodes: list[Potential] = []
    targets: tuple[int, ...] = ()
    if graph:
        at: dict[int, int] = {}
        order: list[Node] = []
        todo = list(hint.targets)
        for p in todo:
            if id(p) not in at:
                at[id(p)] = len(order)
                order.append(p)
                todo.extend(p.parents)
        for p in order:
            rule: Rule | SeHint | None = p.rule if isinstance(p.rule, Rule) else (
                export(p.rule) if isinstance(p.rule, Hint) else None)
            nodes.append(Potential(p.cell, p.value, p.on, p.cause, tuple(at[id(q)] for q in p.parents), rule))
        targets = tuple(at[id(t)] for t in hint.targets)
    src = hint.source
    return SeHint(hint.mode, hint.kind, hint.difficulty, hint.complexity, hint.sort_key, tuple(hint.removable),
                  hint.place, hint.x, hint.y, None if src is None else (src.cell, src.value, src.on),
                  hint.cell, hint.region, hint.value, tuple(nodes), targets)


# ---- entry point ---------------------------------------------------------------------------------

def hints_py(n: int, values: list[int], cand: list[int], producer: int) -> list[Hint]:
    """A producer's hints on a candidate state, sorted as SE sorts them (pure Python)."""
    g = Grid(n, list(values), list(cand))
    return Engine(n, PRODUCERS[producer]).hints(g)


def first_hint_py(n: int, values: list[int], cand: list[int], producer: int, graph: bool = False) -> SeHint | None:
    """SE's hint for a producer: the first of its sorted hints, or None (pure Python)."""
    found = hints_py(n, values, cand, producer)
    return export(found[0], graph) if found else None


def first_hint(n: int, values: list[int] | tuple[int, ...], cand: list[int] | tuple[int, ...], producer: int,
               graph: bool = False) -> SeHint | None:
    """SE's hint for a producer (``PRODUCERS``) on a candidate state (``values``: 0 for an
    empty cell; ``cand``: value masks), or None; ``graph``: with its implication graph."""
    if _C is not None:
        out = _C.first_hint(n, bytes(values), array("I", cand), producer, graph)
        return None if out is None else _from_c(out)
    return first_hint_py(n, list(values), list(cand), producer, graph)


def _from_c(t: tuple[Any, ...]) -> SeHint:
    """A hint as the compiled engine returns it (nested tuples) as an ``SeHint``."""
    (mode_id, kind, difficulty, complexity, sort_key, removable, place, x, y, source, cell, region, value,
     nodes, targets) = t
    out: list[Potential] = []
    for c, v, on, cause, parents, rule in nodes:
        if rule is not None:
            rule = _from_c(rule) if len(rule) == 15 else Rule(*rule)
        out.append(Potential(c, v, bool(on), cause, tuple(parents), rule))
    return SeHint(MODES[mode_id], kind, difficulty, complexity, sort_key, tuple(map(tuple, removable)),
                  None if place is None else tuple(place), bool(x), bool(y),
                  None if source is None else (source[0], source[1], bool(source[2])), cell, region, value,
                  tuple(out), tuple(targets))
