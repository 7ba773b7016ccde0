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

from collections.abc import Callable, Iterator
from functools import partial
from typing import Any

from explainer.model.explanation import Explanation, cands, cell_coords, house_keys
from explainer.model.grid import Geometry, bits, values_of
from explainer.model.i18n import Agree, Arg, Cells, House, Value, Values, say
from explainer.model.roles import on_cands, on_cells, on_houses
from explainer.model.session import session_of
from explainer.model.state import State
from explainer.model.technique import NO_CONTEXT, Context, Finder, Lead, lead

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


def _subsets(pool: list[int], masks: list[int], p: int) -> Iterator[tuple[list[int], int]]:
    """Subsets of ``pool`` of size p whose masks' union has exactly p bits."""
    chosen: list[int] = []

    def walk(start: int, union: int) -> Iterator[tuple[list[int], int]]:
        if len(chosen) == p:
            if union.bit_count() == p:
                yield list(chosen), union
            return
        for i in range(start, len(pool) - (p - len(chosen)) + 1):
            u = union | masks[i]
            if u.bit_count() <= p:
                chosen.append(pool[i])
                yield from walk(i + 1, u)
                chosen.pop()

    yield from walk(0, 0)


def _tuples(masks: list[int], p: int) -> list[tuple[tuple[int, ...], int]]:
    """(positions, union) of the p-subsets of ``masks`` whose union has exactly p bits,
    in the order of ``_subsets`` (the same search, unrolled for p <= 4).

    Every mask is expected to have at most p bits (pools are filtered so).
    """
    k = len(masks)
    out: list[tuple[tuple[int, ...], int]] = []
    if p == 2:
        for a in range(k - 1):
            ua = masks[a]
            for b in range(a + 1, k):
                u = ua | masks[b]
                if u.bit_count() == 2:
                    out.append(((a, b), u))
    elif p == 3:
        for a in range(k - 2):
            ua = masks[a]
            for b in range(a + 1, k - 1):
                ub = ua | masks[b]
                if ub.bit_count() > 3:
                    continue
                for c in range(b + 1, k):
                    u = ub | masks[c]
                    if u.bit_count() == 3:
                        out.append(((a, b, c), u))
    elif p == 4:
        for a in range(k - 3):
            ua = masks[a]
            for b in range(a + 1, k - 2):
                ub = ua | masks[b]
                if ub.bit_count() > 4:
                    continue
                for c in range(b + 1, k - 1):
                    uc = ub | masks[c]
                    if uc.bit_count() > 4:
                        continue
                    for d in range(c + 1, k):
                        u = uc | masks[d]
                        if u.bit_count() == 4:
                            out.append(((a, b, c, d), u))
    else:
        out = [(tuple(chosen), union) for chosen, union in _subsets(list(range(k)), masks, p)]
    return out


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


Search = Callable[[State, int, list[int], int], list[tuple[int, int, tuple[Any, ...]]]]


def _in_house(state: State, ctx: Context, owner: str, search: Search, h: int,
              stamps: tuple[int, ...] | None = None) -> list[tuple[int, int, tuple[Any, ...]]]:
    """A house's tuples (``search(state, house, its cells' candidates, largest size)``), kept in
    the session while its candidates stay: while its stamp (``Session.house_stamps``, given as
    ``stamps`` by a caller reading every house) is the same."""
    session = session_of(state, ctx)
    if stamps is None:
        stamps = session.house_stamps()
    top = _max_size(state)
    cand = state.cand
    return session.part(owner, h, stamps[h],
                        lambda: search(state, h, [cand[c] for c in state.geo.houses[h]], top))


def _by_house(state: State, ctx: Context, owner: str, search: Search) -> list[tuple[int, int, int, tuple[Any, ...]]]:
    """Every house's tuples (``_in_house``), in the order of the plain search: size, house,
    discovery."""
    stamps = session_of(state, ctx).house_stamps()
    out = [(p, h, k, args) for h in range(len(state.geo.houses))
           for p, k, args in _in_house(state, ctx, owner, search, h, stamps)]
    out.sort(key=lambda f: f[:3])
    return out


def _leads(state: State, ctx: Context, name: str, search: Any,
           build: Callable[..., Explanation]) -> Iterator[Explanation | Lead]:
    """A tuple family's steps, house by house (``_by_house``), each a lead built when asked for."""
    geo = state.geo
    for _, _, _, args in _by_house(state, ctx, name, search):
        yield lead(ctx, name, build, geo, *args, eliminate=len(args[4]))


def find_naked(state: State, ctx: Context = NO_CONTEXT, /) -> Iterator[Explanation | Lead]:
    """Naked tuples, smallest first, house by house; a house's are kept in the solving session
    while its cells' candidates stay (``Session.part``); a step is built when asked for."""
    return _leads(state, ctx, "naked tuple", _naked_in, _naked_step)


def _naked_in(state: State, h: int, content: list[int], top: int) -> list[tuple[int, int, tuple[Any, ...]]]:
    """(size, discovery, step arguments) of the naked tuples of house ``h`` (its cells'
    candidates ``content``)."""
    geo = state.geo
    cells = geo.houses[h]
    empty = [c for c, m in zip(cells, content, strict=True) if m]
    found: list[tuple[int, int, tuple[Any, ...]]] = []
    if len(empty) <= 2:
        return found
    rows = [(c, m, m.bit_count()) for c, m in zip(cells, content, strict=True) if m]
    cand = {c: m for c, m, _ in rows}
    for p in range(2, top + 1):
        if len(empty) <= p:
            continue
        pool = [c for c, _, k in rows if k <= p]
        if len(pool) < p:
            continue
        masks = [x for _, x, k in rows if k <= p]
        for where, union in _tuples(masks, p):
            chosen = [pool[i] for i in where]
            rest = [c for c in empty if c not in chosen and cand[c] & union]
            if not rest:
                continue
            elim = [(c, v) for c in rest for v in values_of(cand[c] & union)]
            found.append((p, len(found), (h, p, chosen, union, elim, rest, [(c, cand[c]) for c in chosen])))
    return found


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
    """Hidden tuples, smallest first, house by house; a house's are kept in the solving session
    while its cells' candidates stay (``Session.part``); a step is built when asked for."""
    return _leads(state, ctx, "hidden tuple", _hidden_in, _hidden_step)


def _hidden_in(state: State, h: int, content: list[int], top: int) -> list[tuple[int, int, tuple[Any, ...]]]:
    """(size, discovery, step arguments) of the hidden tuples of house ``h`` (its cells'
    candidates ``content``)."""
    geo = state.geo
    n = geo.n
    cells = geo.houses[h]
    cand = dict(zip(cells, content, strict=True))
    # (value, its places, their count) of each value still open in the house (``content`` is
    # the state's: its places are the value's cell mask in the house)
    hmask, pos = geo.house_mask[h], state.pos
    rows = [(v, where, where.bit_count()) for v in range(1, n + 1) if (where := pos[v - 1] & hmask)]
    found: list[tuple[int, int, tuple[Any, ...]]] = []
    if len(rows) <= 2:
        return found
    for p in range(2, top + 1):
        if len(rows) <= p:
            continue
        pool = [v for v, _, k in rows if k <= p]
        if len(pool) < p:
            continue
        masks = [w for _, w, k in rows if k <= p]
        for chosen_at, where in _tuples(masks, p):
            chosen = [pool[i] for i in chosen_at]
            keep = 0
            for v in chosen:
                keep |= 1 << (v - 1)
            in_cells = list(bits(where))
            elim = [(c, v) for c in in_cells for v in values_of(cand[c] & ~keep)]
            if not elim:
                continue
            found.append((p, len(found), (h, p, chosen, in_cells, elim, [(c, cand[c] & keep) for c in in_cells])))
    return found


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


def _se_houses(state: State, ctx: Context, owner: str, search: Search, least: int
               ) -> Iterator[tuple[int, list[tuple[int, int, tuple[Any, ...]]]]]:
    """(house, its tuples) in SE's region order, of the houses with more than ``least`` empty
    cells (one count per state version, shared by SE's set producers)."""
    empties = state.cached("se house empties", _count_empties)
    for kind in SE_SCAN:
        for h in regions(kind):
            if empties[h] > least:
                yield h, _in_house(state, ctx, owner, search, h)


def _count_empties(state: State) -> tuple[int, ...]:
    values = state.values
    return tuple(sum(1 for c in house if not values[c]) for house in state.geo.houses)


def se_naked(degree: int) -> Finder:
    """Naked sets of one degree (pair 2, triplet 3, quad 4) in Sudoku Explainer's scan order."""

    def find_se(state: State, ctx: Context = NO_CONTEXT, /) -> Iterator[Explanation]:
        geo = check_size(state)
        cand = state.cand
        for _, found in _se_houses(state, ctx, "naked tuple", _naked_in, 2 * degree - 1):
            sets = [args for p, _, args in found if p == degree and all(cand[c] & (cand[c] - 1) for c in args[2])]
            for args in sorted(sets, key=lambda a: colex(a[2])):
                yield rated(ctx, "naked tuple", NAKED_RATING[degree], partial(_naked_step, geo, *args),
                            eliminate=args[4], first=True)

    return find_se


def se_hidden(degree: int, direct: bool) -> Finder:
    """Hidden sets of one degree in Sudoku Explainer's scan order, or its direct variant (pair 2,
    triplet 3)."""

    def find_se(state: State, ctx: Context = NO_CONTEXT, /) -> Iterator[Explanation]:
        geo = check_size(state)
        pos = state.pos
        for h, found in _se_houses(state, ctx, "hidden tuple", _hidden_in, degree if direct else 2 * degree):
            hmask = geo.house_mask[h]
            places = [pos[v - 1] & hmask for v in range(1, 10)]
            sets = [args for p, _, args in found
                    if p == degree and all(places[v - 1].bit_count() > 1 for v in args[2])]
            for args in sorted(sets, key=lambda a: colex(a[2])):
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
