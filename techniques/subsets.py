"""Naked and hidden tuples.

Naked: p cells of a house whose candidates hold exactly p values; those
values must fill those cells, so they leave the rest of the house. Hidden:
p values of a house that fit only in p cells; those cells hold nothing else.

Tuples are searched smallest first over all houses, so a learner sees pairs
before triples. In a house with k empty cells, a naked p-tuple removes
exactly what the hidden (k-p)-tuple of the other cells removes, so sizes up
to k // 2 of both kinds find every tuple elimination.

``se_naked`` and ``se_hidden`` are the same search in Sudoku Explainer's scan
order (the ``se`` orders): one degree at a time, blocks, then columns, then
rows, and in each region the tuples in SE's ``Permutations`` order
(``seorder.subsets``). SE's conditions on top: a naked set of degree d needs at
least 2·d empty cells in its region, a hidden set more than 2·d; no member may
have fewer than two candidates (naked) or places (hidden). Ratings: naked pair /
triplet / quad 3.0 / 3.6 / 5.0, hidden 3.4 / 4.0 / 5.4. SE's *direct* hidden
pair (2.0) and triplet (2.5) need only more than d empty cells: the hidden set
leaves some other value of the region one place, and SE places it (the first
such value) without removing anything else, even the set cells' other
candidates (the frame shows them as ruled out).
"""
from __future__ import annotations

from collections.abc import Callable, Iterator, Mapping, Sequence
from functools import partial
from typing import Any

from explainer.core.fish import (
    HiddenHit,
    NakedHit,
    by_house,
    hidden_hits,
    naked_hits,
)
from explainer.model.explanation import Explanation, cands, cell_coords, house_keys
from explainer.model.grid import Geometry, bits, values_of
from explainer.model.i18n import Agree, Arg, Cells, House, Value, Values, say
from explainer.model.roles import on_cands, on_cells, on_houses
from explainer.model.session import session_of
from explainer.model.state import State
from explainer.model.technique import NO_CONTEXT, Context, Finder, Lead

from .seorder import BLOCK, COLUMN, ROW, check_size, colex, rated, regions, step

TUPLE_NAMES = {
    "en": {2: "pair", 3: "triple", 4: "quad"},
    "fr": {2: "paire", 3: "triplet", 4: "quadruplet"},
}
NAKED = {
    "en": "Naked {size}: in {house}, the cells {cells} hold only {values}, so these values are "
          "removed from {rest}.",
    "fr": "{size} {naked} : dans {house}, les cases {cells} ne contiennent que {values}, donc ces "
          "valeurs sont retirées de {rest}.",
}
HIDDEN = {
    "en": "Hidden {size}: in {house}, {values} can only go in {cells}, so every other candidate "
          "is removed from those cells.",
    "fr": "{size} {hidden} : dans {house}, {values} ne peuvent aller qu'en {cells}, donc tout autre "
          "candidat est retiré de ces cases.",
}


FEMININE_FR = {2}  # une paire; un triplet, un quadruplet


class TupleSize(Arg):
    def __init__(self, p: int) -> None:
        self.p = p

    def fmt(self, lang: str) -> str:
        word = TUPLE_NAMES[lang].get(self.p, f"{self.p}-tuple")
        return word if lang == "en" else word.capitalize()

    def adjective(self, masculine_fr: str) -> Agree:
        """A French adjective agreeing with the tuple's name: "Paire cachée", "Triplet caché"."""
        feminine = masculine_fr + "e"
        return Agree(1 if self.p in FEMININE_FR else 2, fr=(feminine, masculine_fr), en=("", ""))


# a tuple step's title names its size, like its caption ("Hidden pair", not "hidden tuple")
SIZED_TITLES = {
    "naked tuple": {"en": {2: "naked pair", 3: "naked triple", 4: "naked quad"},
                    "fr": {2: "paire nue", 3: "triplet nu", 4: "quadruplet nu"}},
    "hidden tuple": {"en": {2: "hidden pair", 3: "hidden triple", 4: "hidden quad"},
                     "fr": {2: "paire cachée", 3: "triplet caché", 4: "quadruplet caché"}},
}

# Tuples up to quads on every grid (the largest SE and HoDoKu name): on 16×16 and 25×25 the
# bigger ones cost 8-23% of an explanation (six hard 16×16, alternating runs) and the
# forcing chains make their eliminations anyway; 9×9 is unchanged (n // 2 = 4).
MAX_TUPLE = 4


def _max_size(state: State) -> int:
    return max(2, min(MAX_TUPLE, state.geo.n // 2))


def find_naked(state: State, ctx: Context = NO_CONTEXT, /) -> Iterator[Explanation | Lead]:
    """Naked tuples, smallest first, house by house (``explainer.core.fish.naked_hits``); a step
    is built when asked for."""
    geo, cand = state.geo, state.cand
    for hit in naked_hits(state, session_of(state, ctx), _max_size(state)):
        build = partial(_naked_built, geo, _snapshot(geo, cand, hit[0]), hit)
        yield _sized(ctx, "naked tuple", NAKED_RATING, hit, build)


# a cell's candidates: the state's list, or a house's kept by a lead
Cands = Mapping[int, int] | Sequence[int]


def _sized(ctx: Context, name: str, ratings: dict[int, float], hit: NakedHit | HiddenHit,
           build: Callable[[], Explanation]) -> Explanation | Lead:
    """A tuple step: to an engine that takes leads, a lead whose choice key is known whole (its
    rating, the same on every view, and its pattern: the tuple's p cells), built only if taken."""
    if not ctx.leads:
        return build()
    p = hit[1]
    return Lead(name, build, ratings[p], 0, hit[4], (p, 0, 0))


def _snapshot(geo: Geometry, cand: list[int], h: int) -> dict[int, int]:
    """The candidates of house h's cells as they are now (a lead is built from them later)."""
    return {c: cand[c] for c in geo.houses[h]}


def _naked_built(geo: Geometry, cand: Cands, hit: NakedHit) -> Explanation:
    return _naked_step(geo, *_naked_args(geo, cand, hit))


def _naked_args(geo: Geometry, cand: Cands, hit: NakedHit) -> tuple[Any, ...]:
    """``_naked_step``'s arguments for a naked tuple ``hit`` (``naked_hits``) of the candidates
    ``cand`` (those of its house's cells at least)."""
    h, p, chosen, union, _ = hit
    rest = [c for c in geo.houses[h] if cand[c] & union and c not in chosen]
    elim = [(c, v) for c in rest for v in values_of(cand[c] & union)]
    return h, p, list(chosen), union, elim, rest, [(c, cand[c]) for c in chosen]


def _naked_step(geo: Geometry, h: int, p: int, chosen: list[int], union: int, elim: list[tuple[int, int]],
                rest: list[int], held: list[tuple[int, int]]) -> Explanation:
    return Explanation(
        technique="naked tuple",
        eliminate=cands(geo, elim),
        cells=cell_coords(geo, chosen),
        houses=house_keys(geo, [h]),
        **say(NAKED, size=TupleSize(p), naked=TupleSize(p).adjective("nu"), house=House(geo, h),
              cells=Cells(geo, chosen), values=Values(values_of(union)), rest=Cells(geo, rest)),
        detail=(("size", p),),
        roles=(on_houses("house", geo, [h]), on_cells("cells", geo, chosen),
               on_cands("value", geo, ((c, v) for c, m in held for v in values_of(m)))),
    )


def find_hidden(state: State, ctx: Context = NO_CONTEXT, /) -> Iterator[Explanation | Lead]:
    """Hidden tuples, smallest first, house by house (``explainer.core.fish.hidden_hits``); a
    step is built when asked for."""
    geo, cand = state.geo, state.cand
    for hit in hidden_hits(state, session_of(state, ctx), _max_size(state)):
        build = partial(_hidden_built, geo, _snapshot(geo, cand, hit[0]), hit)
        yield _sized(ctx, "hidden tuple", HIDDEN_RATING, hit, build)


def _hidden_built(geo: Geometry, cand: Cands, hit: HiddenHit) -> Explanation:
    return _hidden_step(geo, *_hidden_args(cand, hit))


def _hidden_args(cand: Cands, hit: HiddenHit) -> tuple[Any, ...]:
    """``_hidden_step``'s arguments for a hidden tuple ``hit`` (``hidden_hits``) of the candidates
    ``cand`` (those of its house's cells at least)."""
    h, p, chosen, where, _ = hit
    keep = 0
    for v in chosen:
        keep |= 1 << (v - 1)
    in_cells = list(bits(where))
    elim = [(c, v) for c in in_cells for v in values_of(cand[c] & ~keep)]
    return h, p, list(chosen), in_cells, elim, [(c, cand[c] & keep) for c in in_cells]


def _hidden_step(geo: Geometry, h: int, p: int, chosen: list[int], cells: list[int], elim: list[tuple[int, int]],
                 kept: list[tuple[int, int]]) -> Explanation:
    return Explanation(
        technique="hidden tuple",
        eliminate=cands(geo, elim),
        cells=cell_coords(geo, cells),
        houses=house_keys(geo, [h]),
        **say(HIDDEN, size=TupleSize(p), hidden=TupleSize(p).adjective("caché"), house=House(geo, h),
              values=Values(chosen), cells=Cells(geo, cells)),
        detail=(("size", p),),
        roles=(on_houses("house", geo, [h]), on_cells("cells", geo, cells),
               on_cands("value", geo, ((c, v) for c, m in kept for v in values_of(m)))),
    )


SE_SCAN = (BLOCK, COLUMN, ROW)  # SE's regions: blocks, then columns, then rows
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


def _se_houses(state: State, ctx: Context, hidden: bool, least: int
               ) -> Iterator[tuple[int, list[tuple[int, int, list[int], int, int]]]]:
    """(house, its tuples) in SE's region order, of the houses with more than ``least`` empty
    cells (one count per state version, shared by SE's set producers; the tuples from
    ``explainer.core.fish.by_house``)."""
    empties = state.cached("se house empties", _count_empties)
    tuples = by_house(state, session_of(state, ctx), hidden, _max_size(state))
    for kind in SE_SCAN:
        for h in regions(kind):
            if empties[h] > least:
                yield h, tuples(h)


def _count_empties(state: State) -> tuple[int, ...]:
    values = state.values
    return tuple(sum(1 for c in house if not values[c]) for house in state.geo.houses)


def se_naked(degree: int) -> Finder:
    """Naked sets of one degree (pair 2, triplet 3, quad 4) in Sudoku Explainer's scan order."""

    def find_se(state: State, ctx: Context = NO_CONTEXT, /) -> Iterator[Explanation]:
        geo = check_size(state)
        cand = state.cand
        for _, found in _se_houses(state, ctx, False, 2 * degree - 1):
            sets = [hit for hit in found if hit[1] == degree and all(cand[c] & (cand[c] - 1) for c in hit[2])]
            for hit in sorted(sets, key=lambda a: colex(a[2])):
                args = _naked_args(geo, cand, hit)
                yield rated(ctx, "naked tuple", NAKED_RATING[degree], partial(_naked_step, geo, *args),
                            eliminate=args[4], first=True)

    return find_se


def se_hidden(degree: int, direct: bool) -> Finder:
    """Hidden sets of one degree in Sudoku Explainer's scan order, or its direct variant (pair 2,
    triplet 3)."""

    def find_se(state: State, ctx: Context = NO_CONTEXT, /) -> Iterator[Explanation]:
        geo = check_size(state)
        pos = state.pos
        for h, found in _se_houses(state, ctx, True, degree if direct else 2 * degree):
            hmask = geo.house_mask[h]
            places = [pos[v - 1] & hmask for v in range(1, 10)]
            sets = [hit for hit in found if hit[1] == degree and all(places[v - 1].bit_count() > 1 for v in hit[2])]
            for hit in sorted(sets, key=lambda a: colex(a[2])):
                args = _hidden_args(state.cand, hit)
                if not direct:
                    yield rated(ctx, "hidden tuple", HIDDEN_RATING[degree], partial(_hidden_step, geo, *args),
                                eliminate=args[4], first=True)
                    continue
                values, cells = args[2], args[3]
                union = sum(1 << c for c in cells)
                for w in range(1, 10):
                    left = places[w - 1] & ~union
                    if w not in values and places[w - 1].bit_count() > 1 and left and not left & (left - 1):
                        yield _direct(ctx, state, h, values, cells, w, left.bit_length() - 1, degree)
                        break

    return find_se


def _direct(ctx: Context, state: State, h: int, values: list[int], cells: list[int], w: int, cell: int,
            p: int) -> Explanation:
    geo, cand = state.geo, state.cand
    keep = sum(1 << (v - 1) for v in values)

    def build() -> dict[str, Any]:
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
