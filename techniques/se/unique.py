"""Sudoku Explainer's unique rectangles and loops (4.5 +), which assume the puzzle has a single
solution (the engine proves it first). Its BUG is ``techniques.bugs.se_finder``.

**Unique loops** (SE's ``UniqueLoops``). From every bivalue cell {v1, v2}
(cells in index order), a depth-first walk moves to a cell of one of the
current cell's regions — block, row, column, skipping the type of the move
that led there — that holds v1 and v2, and closes a loop on returning to the
start after three cells or more. At most two cells may hold extra values,
more while their extras are one single value. A loop is valid when no region
holds two of its cells at places of the same parity and the regions of its
odd and even places are the same. Hints: type 1 (one extra cell loses v1 and
v2), 2 (one extra value, removed from the cells seeing every extra cell), 3
(two extra cells in a region: a naked set with their extras, or a hidden set
through them), 4 (v1 or v2 confined to the two extra cells in a region: the
other value leaves both). Rating 4.5, + 0.1 for 6 cells, + 0.2 for 8, + 0.5
for 10 or more; type 3 adds 0.1 per naked value past one, or per hidden cell
past one. SE sorts every hint by rating, then type, and takes the first.

Classic SE accumulates the extra values of the walk once per cell visited
(siblings see each other's extras); Sukaku Explainer's default (lkSudoku's
fix) keeps them per branch and looks for type-3 sets from degree 2.

Kept apart from the registry: its unique rectangles (``techniques.uniqueness``)
and loops (``techniques.uniqueloops``, six cells and more, found by thinning the
pair's cells and closing cycles) are other searches with other types and
conditions, and SE's walk decides by its quirks (classic SE's extras shared
between siblings, the order of its type-3 degrees, its rating sort) which loop
it takes first.
"""
from __future__ import annotations

from collections.abc import Iterator
from functools import cache
from typing import Any

from explainer.model.explanation import Explanation
from explainer.model.grid import Geometry, bits, geometry, values_of
from explainer.model.i18n import OR, Arg, Cells, House, Value, Values
from explainer.model.state import State
from explainer.model.technique import NO_CONTEXT, Context, Finder

from ..deadly import detail, pattern_step, split
from ..seorder import N, check_size, step, subsets
from ..uniqueloops import TYPE_1, TYPE_2, TYPE_3, TYPE_4, _Path
from ..uniqueness import ONE

KINDS = (0, 1, 2)  # SE's region types in the order these producers visit them: block, row, column

TYPE_3_HIDDEN = {
    "en": "Unique loop type 3 on {a} and {b}: {loop_words}; {floor} {hold} only {a} and {b}; one of {roof} must "
          "take a value among {extra} (else two solutions), so together they hold {a} or {b} once at most: "
          "taken as one cell, they and {others} are the only places in {house} for {values}, a hidden set, "
          "and {removed}. " + ONE["en"],
    "fr": "Boucle unique type 3 sur {a} et {b} : {loop_words} ; {floor} ne {hold} que {a} et {b} ; l'une de {roof} "
          "doit prendre une valeur parmi {extra} (sinon deux solutions), donc à elles deux elles contiennent "
          "{a} ou {b} une fois au plus : prises comme une seule case, elles et {others} sont les seules places "
          "de {house} pour {values}, un ensemble caché, et {removed}. " + ONE["fr"],
}
def _rectangle(template: dict[str, str]) -> dict[str, str]:
    """A loop template worded for a loop of four cells, a unique rectangle."""
    return {"en": template["en"].replace("Unique loop", "Unique rectangle"),
            "fr": template["fr"].replace("Boucle unique", "Rectangle unique")}


def _loop_rating(size: int) -> float:
    """SE's rating of a loop of ``size`` cells (summed as SE sums it)."""
    result = 4.5
    if size >= 10:
        result += 0.3
    if size >= 8:
        result += 0.2
    elif size >= 6:
        result += 0.1
    return result


def region_of(kind: int, cell: int) -> int:
    """The house of type ``kind`` holding ``cell``."""
    geo = geometry(N)
    return geo.cell_houses[cell][(2, 0, 1)[kind]]


@cache
def _cell_regions() -> tuple[tuple[int, int, int], ...]:
    """Each cell's (block, row, column) houses: SE's region types in order (a constant table)."""
    return tuple((region_of(0, c), region_of(1, c), region_of(2, c)) for c in range(N * N))


# ---- unique loops --------------------------------------------------------------------------

def _walk(state: State, start: int, v1: int, v2: int, per_branch: bool) -> list[list[int]]:
    """The loops of SE's depth-first walk from ``start``, in the order SE records them."""
    geo = state.geo
    cand = state.cand
    both = 1 << (v1 - 1) | 1 << (v2 - 1)
    regions = _cell_regions()
    loop: list[int] = []
    results: list[list[int]] = []

    house_mask = geo.house_mask
    # only cells holding both values extend a loop (the start is one): a house's next cells are its
    # bits among them, in increasing index like its cell list
    holding = state.pos[v1 - 1] & state.pos[v2 - 1]

    def visit(cell: int, allowed: int, extras: int, last: int, used: int) -> None:
        loop.append(cell)
        used |= 1 << cell
        shared = extras  # classic SE: one copy per call, shared by the siblings
        for kind in KINDS:
            if kind == last:
                continue
            room = house_mask[regions[cell][kind]] & holding
            while room:
                low = room & -room
                room ^= low
                nxt = low.bit_length() - 1
                if nxt == start and len(loop) >= 4:
                    results.append(list(loop))
                elif not used >> nxt & 1:
                    m = cand[nxt]
                    if per_branch:
                        mine = (extras | m) & ~both
                    else:
                        shared = (shared | m) & ~both
                        mine = shared
                    k = m.bit_count()
                    if k == 2 or mine.bit_count() == 1 or allowed > 0:
                        visit(nxt, allowed - (1 if k > 2 else 0), mine, kind, used)
        loop.pop()

    visit(start, 2, 0, -1, 0)
    return results


def _valid(loop: list[int]) -> bool:
    regions = _cell_regions()
    seen: tuple[set[int], set[int]] = (set(), set())
    for i, cell in enumerate(loop):
        side = seen[i % 2]
        for h in regions[cell]:
            if h in side:
                return False
            side.add(h)
    return seen[0] == seen[1]


def loops_finder(lk: bool) -> Finder:
    """SE's unique rectangles and loops (``lk``: Sukaku Explainer's default fixes)."""

    def find(state: State, ctx: Context = NO_CONTEXT, /) -> Iterator[Explanation]:
        check_size(state)
        cand = state.cand
        found: list[tuple[float, int, int, Any]] = []
        for start in range(N * N):
            m = cand[start]
            if m.bit_count() != 2:
                continue
            v1, v2 = values_of(m)
            for loop in _walk(state, start, v1, v2, lk):
                if not _valid(loop):
                    continue
                for rating, kind, hint in _loop_hints(state, loop, v1, v2, lk):
                    found.append((rating, kind, len(found), hint))
        if not found:
            return
        found.sort(key=lambda t: t[:3])
        for rating, kind, _, hint in found:
            yield _loop_step(ctx, state, rating, kind, *hint)

    return find


def _loop_hints(state: State, loop: list[int], v1: int, v2: int, lk: bool
                ) -> Iterator[tuple[float, int, tuple[Any, ...]]]:
    """(rating, type, what the step needs) of each hint of one loop, in SE's order."""
    cand = state.cand
    both = 1 << (v1 - 1) | 1 << (v2 - 1)
    extra_cells = [c for c in loop if cand[c].bit_count() > 2]
    base = _loop_rating(len(loop))
    if len(extra_cells) == 1:
        r = extra_cells[0]
        yield base, 1, (loop, v1, v2, 1, [(r, v1), (r, v2)], None, ())
    elif len(extra_cells) > 2:
        yield from _type_2(state, loop, v1, v2, extra_cells, base)
    elif len(extra_cells) == 2:
        c1, c2 = extra_cells
        extra = (cand[c1] | cand[c2]) & ~both
        if extra.bit_count() == 1:
            yield from _type_2(state, loop, v1, v2, extra_cells, base)
        elif extra.bit_count() >= 2:
            yield from _type_3(state, loop, v1, v2, c1, c2, extra, base, lk)
        lock = _type_4_region(state, c1, c2, v1, v2)
        if lock is not None:
            h, x, y = lock
            yield base, 4, (loop, v1, v2, 4, [(c1, y), (c2, y)], h, ((c1, x), (c2, x)))


def _type_4_region(state: State, c1: int, c2: int, v1: int, v2: int) -> tuple[int, int, int] | None:
    """(region, locked value, removed value) of SE's type 4: the last shared region (block, row,
    column) where v1 is confined to the two cells, else the last where v2 is."""
    geo, pos = state.geo, state.pos
    r1 = r2 = None
    regions = _cell_regions()
    for kind in KINDS:
        h = regions[c1][kind]
        if h != regions[c2][kind]:
            continue
        rest = geo.house_mask[h] & ~(1 << c1 | 1 << c2)
        if not pos[v1 - 1] & rest:
            r1 = h
        if not pos[v2 - 1] & rest:
            r2 = h
    if r1 is not None:
        return r1, v1, v2
    if r2 is not None:
        return r2, v2, v1
    return None


def _type_2(state: State, loop: list[int], v1: int, v2: int, extra_cells: list[int], base: float
            ) -> Iterator[tuple[float, int, tuple[Any, ...]]]:
    geo, cand = state.geo, state.cand
    both = 1 << (v1 - 1) | 1 << (v2 - 1)
    value = (cand[extra_cells[0]] & ~both & -(cand[extra_cells[0]] & ~both)).bit_length()
    seen = geo.all_cells
    for c in extra_cells:
        seen &= geo.peer_mask[c]
    for c in extra_cells:
        seen &= ~(1 << c)
    removed = [(c, value) for c in bits(seen & state.pos[value - 1])]
    if removed:
        yield base, 2, (loop, v1, v2, 2, removed, None, tuple((c, value) for c in extra_cells))


def _type_3(state: State, loop: list[int], v1: int, v2: int, c1: int, c2: int, extra: int, base: float,
            lk: bool) -> Iterator[tuple[float, int, tuple[Any, ...]]]:
    geo, cand, pos = state.geo, state.cand, state.pos
    regions = _cell_regions()
    nextra = extra.bit_count()
    for degree in range(2 if lk else nextra, 8):
        for kind in KINDS:
            h = regions[c1][kind]
            if h != regions[c2][kind]:
                continue
            cells = geo.houses[h]
            empty = sum(1 for c in cells if not state.values[c])
            i1, i2 = cells.index(c1), cells.index(c2)
            if degree * 2 <= empty and (not lk or degree >= nextra):
                for at in subsets(degree, 9):
                    if i1 not in at or i2 in at:
                        continue
                    naked = extra & cand[c1] & cand[c2]
                    union = 0
                    others = []
                    ok = extra.bit_count() > 1
                    for i in at:
                        if i == i1:
                            union |= extra
                            continue
                        m = cand[cells[i]]
                        naked |= m
                        union |= m
                        others.append(cells[i])
                        ok = ok and m.bit_count() > 1
                    if naked.bit_count() != degree or not ok or union.bit_count() != degree:
                        continue
                    removed = [(c, v) for c in cells if c not in others and c != c1 and c != c2
                               for v in values_of(cand[c] & union)]
                    if removed:
                        rating = base + (degree - 1) * 0.1
                        marked = tuple((c, v) for c in (c1, c2) for v in values_of(cand[c] & extra))
                        marked += tuple((c, v) for c in others for v in values_of(cand[c]))
                        yield rating, 3, (loop, v1, v2, 3, removed, h, marked, ("naked", others, union, extra))
            if degree * 2 < empty:
                rest = [v for v in range(1, 10) if v not in (v1, v2) and not extra >> (v - 1) & 1]
                if degree - 2 > len(rest) or (degree == 2 and not rest):
                    continue
                hm = geo.house_mask[h] & ~(1 << c2)
                for at in subsets(degree - 2, len(rest)):
                    values = [rest[i] for i in at] + [v1, v2]
                    union = 0
                    ok = True
                    for v in values:
                        where = pos[v - 1] & hm
                        ok = ok and where != 0
                        union |= where
                    if not ok or union.bit_count() != degree:
                        continue
                    hidden = sum(1 << (v - 1) for v in values)
                    places = union & ~(1 << c1)
                    removed = [(c, v) for c in bits(places) for v in values_of(cand[c] & ~hidden)]
                    if removed:
                        rating = base + (places.bit_count() - 1) * 0.1
                        marked = tuple((c, v) for c in bits(places) for v in values_of(cand[c] & hidden))
                        yield rating, 3, (loop, v1, v2, 3, removed, h, marked,
                                          ("hidden", list(bits(places)), hidden, extra))


def _loop_step(ctx: Context, state: State, rating: float, kind: int, loop: list[int], v1: int, v2: int,
               _type: int, removed: list[tuple[int, int]], h: int | None, marked: tuple[tuple[int, int], ...],
               third: tuple[Any, ...] = ()) -> Explanation:
    geo, cand = state.geo, state.cand
    name = "unique rectangle" if len(loop) == 4 else "unique loop"

    def build() -> dict[str, Any]:
        both = 1 << (v1 - 1) | 1 << (v2 - 1)
        floor, roof, extra = split(cand, loop, both)
        floor_cells = Cells(geo, floor)
        words: dict[str, Any] = dict(
            a=Value(v1), b=Value(v2), floor=floor_cells, roof=Cells(geo, roof, last=OR), roofs=Cells(geo, roof),
            loop=_Path(geo, loop), length=len(loop),
            hold=floor_cells.verb(en=("holds", "hold"), fr=("contient", "contiennent")))
        houses = [] if h is None else [h]
        if kind == 1:
            template = TYPE_1
        elif kind == 2:
            template = TYPE_2
            words["c"] = Value(marked[0][1])
        elif kind == 4:
            assert h is not None
            template = TYPE_4
            x = marked[0][1]
            words.update(house=House(geo, h), a=Value(x), b=Value(v2 if x == v1 else v1))
        else:
            assert h is not None
            how, others, values, extras = third
            words.update(extra=Values(values_of(extras), last=OR), others=Cells(geo, others),
                         values=Values(values_of(values)), house=House(geo, h))
            if how == "naked":
                template = TYPE_3
            else:
                template = TYPE_3_HIDDEN
                words["loop_words"] = _LoopWords(geo, loop)
        if len(loop) == 4:
            template = _rectangle(template)
        made = pattern_step(state, name, loop, (v1, v2), floor, roof, template, removed, marked, houses, words,
                            detail(kind, 0, length=len(loop), values=(v1, v2),
                                   cells=tuple(geo.rc(c) for c in loop)))
        assert made is not None
        return {f: getattr(made, f) for f in _FIELDS}

    return step(ctx, name, rating, eliminate=removed, build=build,
                detail=(("type", kind), ("length", len(loop)), ("values", (v1, v2))))


_FIELDS = ("cells", "cells_alt", "houses", "marked", "marked_alt", "text", "translations", "roles")


class _LoopWords(Arg):
    """'the 6 cells r1c1–… form a loop, two in each row, column and box they pass' (a loop's words,
    for templates that spell the loop themselves)."""

    def __init__(self, geo: Geometry, loop: list[int]) -> None:
        self.path = _Path(geo, loop)
        self.length = len(loop)

    def fmt(self, lang: str) -> str:
        from ..uniqueloops import LOOP

        return LOOP[lang].format(length=self.length, loop=self.path.fmt(lang))
