"""Sudoku Explainer's naked and hidden sets, and its direct hidden pair / triplet.

SE scans blocks, then columns, then rows, and in each region the tuples in
its ``Permutations`` order (``base.subsets``): of cells for a naked set, of
values for a hidden one. A naked set of degree d needs at least 2·d empty
cells in its region, a hidden set more than 2·d; no member may have fewer than
two candidates (naked) or places (hidden). Ratings: naked pair / triplet / quad
3.0 / 3.6 / 5.0, hidden 3.4 / 4.0 / 5.4.

The *direct* hidden pair (2.0) and triplet (2.5) need only more than d empty
cells: the hidden set leaves some other value of the region one place, and
SE places it (the first such value, 1..9) — without removing anything else,
even the set cells' other candidates (its direct hint removes none; the
frame shows them as ruled out).
"""
from __future__ import annotations

from collections.abc import Callable, Iterator
from typing import Any

from explainer.model.explanation import Explanation, cands, cell_coords, house_keys
from explainer.model.grid import bits, values_of
from explainer.model.i18n import Cells, House, Value, Values, say
from explainer.model.roles import on_cands, on_cells, on_houses
from explainer.model.state import State
from explainer.model.technique import NO_CONTEXT, Context

from ..subsets import HIDDEN, NAKED, TupleSize
from .base import BLOCK, COLUMN, ROW, check_size, regions, step, subsets

SCAN = (BLOCK, COLUMN, ROW)
NAKED_RATING = {2: 3.0, 3: 3.6, 4: 5.0}
HIDDEN_RATING = {2: 3.4, 3: 4.0, 4: 5.4}
DIRECT_RATING = {2: 2.0, 3: 2.5}
DIRECT_NAME = {2: "direct hidden pair", 3: "direct hidden triplet"}

DIRECT_TEXT = {
    "en": "Direct hidden {size}: in {house}, {values} can only go in {cells}, so those cells hold nothing "
          "else; {v} is then left only in {cell} of {house}, so {cell} is {v}.",
    "fr": "{size} {hidden} directe : dans {house}, {values} ne peuvent aller qu'en {cells}, donc ces cases "
          "ne contiennent rien d'autre ; il ne reste alors à {v} que {cell} dans {house}, donc {cell} vaut {v}.",
}


def _empties(state: State) -> tuple[int, ...]:
    """Each house's number of empty cells: one table per state version, shared by the set producers."""
    return state.cached("se house empties", _count_empties)


def _count_empties(state: State) -> tuple[int, ...]:
    values = state.values
    return tuple(sum(1 for c in house if not values[c]) for house in state.geo.houses)


def naked_finder(degree: int) -> Callable[[State, Context], Iterator[Explanation]]:
    """SE's naked set of one degree (pair 2, triplet 3, quad 4)."""

    def find(state: State, ctx: Context = NO_CONTEXT, /) -> Iterator[Explanation]:
        geo = check_size(state)
        cand = state.cand
        empties = _empties(state)
        for kind in SCAN:
            for h in regions(kind):
                cells = geo.houses[h]
                if empties[h] < 2 * degree:
                    continue
                pool = [c for c in cells if 1 < cand[c].bit_count() <= degree]
                for at in subsets(degree, len(pool)):
                    union = 0
                    for i in at:
                        union |= cand[pool[i]]
                    if union.bit_count() != degree:
                        continue
                    chosen = [pool[i] for i in at]
                    removed = [(c, v) for c in cells if c not in chosen for v in values_of(cand[c] & union)]
                    if removed:
                        yield _naked(ctx, state, h, chosen, union, removed, degree)

    return find


def _naked(ctx: Context, state: State, h: int, chosen: list[int], union: int, removed: list[tuple[int, int]],
           p: int) -> Explanation:
    geo, cand = state.geo, state.cand

    def build() -> dict[str, Any]:
        rest = sorted({c for c, _ in removed})
        return dict(cells=cell_coords(geo, chosen), houses=house_keys(geo, [h]),
                    **say(NAKED, size=TupleSize(p), naked=TupleSize(p).adjective("nu"), house=House(geo, h),
                          cells=Cells(geo, chosen), values=Values(values_of(union)), rest=Cells(geo, rest)),
                    roles=(on_houses("house", geo, [h]), on_cells("cells", geo, chosen),
                           on_cands("value", geo, ((c, v) for c in chosen for v in values_of(cand[c])))))

    return step(ctx, "naked tuple", NAKED_RATING[p], eliminate=removed, build=build, detail=(("size", p),))


def hidden_finder(degree: int, direct: bool) -> Callable[[State, Context], Iterator[Explanation]]:
    """SE's hidden set of one degree, or its direct variant (pair 2, triplet 3)."""

    def find(state: State, ctx: Context = NO_CONTEXT, /) -> Iterator[Explanation]:
        geo = check_size(state)
        pos, cand = state.pos, state.cand
        empties = _empties(state)
        for kind in SCAN:
            for h in regions(kind):
                empty = empties[h]
                if not (empty > 2 * degree or (direct and empty > degree)):
                    continue
                hmask = geo.house_mask[h]
                places = [pos[v - 1] & hmask for v in range(1, 10)]
                pool = [v for v in range(1, 10) if 1 < places[v - 1].bit_count() <= degree]
                for at in subsets(degree, len(pool)):
                    union = 0
                    for i in at:
                        union |= places[pool[i] - 1]
                    if union.bit_count() != degree:
                        continue
                    values = [pool[i] for i in at]
                    keep = sum(1 << (v - 1) for v in values)
                    if direct:
                        for w in range(1, 10):
                            if keep >> (w - 1) & 1 or places[w - 1].bit_count() < 2:
                                continue
                            left = places[w - 1] & ~union
                            if left and not left & (left - 1):
                                yield _direct(ctx, state, h, values, union, keep, w, left.bit_length() - 1, degree)
                                break
                        continue
                    removed = [(c, v) for c in bits(union) for v in values_of(cand[c] & ~keep)]
                    if removed:
                        yield _hidden(ctx, state, h, values, union, keep, removed, degree)

    return find


def _hidden(ctx: Context, state: State, h: int, values: list[int], where: int, keep: int,
            removed: list[tuple[int, int]], p: int) -> Explanation:
    geo, cand = state.geo, state.cand

    def build() -> dict[str, Any]:
        cells = list(bits(where))
        return dict(cells=cell_coords(geo, cells), houses=house_keys(geo, [h]),
                    **say(HIDDEN, size=TupleSize(p), hidden=TupleSize(p).adjective("caché"), house=House(geo, h),
                          values=Values(values), cells=Cells(geo, cells)),
                    roles=(on_houses("house", geo, [h]), on_cells("cells", geo, cells),
                           on_cands("value", geo, ((c, v) for c in cells for v in values_of(cand[c] & keep)))))

    return step(ctx, "hidden tuple", HIDDEN_RATING[p], eliminate=removed, build=build, detail=(("size", p),))


def _direct(ctx: Context, state: State, h: int, values: list[int], where: int, keep: int, w: int, cell: int,
            p: int) -> Explanation:
    geo, cand = state.geo, state.cand

    def build() -> dict[str, Any]:
        cells = list(bits(where))
        ruled_out = [(c, v) for c in cells for v in values_of(cand[c] & ~keep)]
        return dict(cells=cell_coords(geo, cells), houses=house_keys(geo, [h]),
                    marked=cands(geo, ((c, v) for c in cells for v in values_of(cand[c] & keep))),
                    marked_alt=cands(geo, ruled_out),
                    **say(DIRECT_TEXT, size=TupleSize(p), hidden=TupleSize(p).adjective("caché"),
                          house=House(geo, h), values=Values(values), cells=Cells(geo, cells), v=Value(w),
                          cell=geo.cell_name(cell)),
                    roles=(on_houses("house", geo, [h]), on_cells("cells", geo, cells),
                           on_cands("value", geo, ((c, v) for c in cells for v in values_of(cand[c] & keep))),
                           on_cands("implied-false", geo, ruled_out)))

    return step(ctx, DIRECT_NAME[p], DIRECT_RATING[p], place=(cell, w), build=build, detail=(("size", p),))
