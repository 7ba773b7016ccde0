"""Singles: a value with one place left in a house (single position), or a
cell with one value left (single candidate).

Both try to show the reason with placed values only, as a learner sees it on
paper: the houses whose placed values rule out the other cells, circled.

``se_single_position`` and ``se_single_candidate`` are the same searches in
Sudoku Explainer's scan order (the ``se`` orders): SE's hidden single looks
first for the last empty cell of a region (1.0), in blocks, then columns, then
rows, then for real hidden singles in the same region order (a block 1.2, a
column or row 1.5), in each region the values 1..9; its naked single (2.3)
scans the cells in index order.
"""
from __future__ import annotations

from collections.abc import Iterable, Iterator
from functools import partial

from explainer.core.search import BOX, LAST, LINE, house_order, position_cover, single_positions
from explainer.model.explanation import Explanation, cell_coords, house_keys
from explainer.model.i18n import House, Houses, Value, say
from explainer.model.roles import on_cells, on_houses
from explainer.model.state import State
from explainer.model.technique import NO_CONTEXT, Context, Lead

from .seorder import BLOCK, COLUMN, ROW, check_size, rated, regions

POSITION_STRUCK = {
    "en": "Single position: in {house}, {v} can only go in {cell} (the other cells lost {v} in earlier steps).",
    "fr": "Position unique : dans {house}, {v} ne peut aller qu'en {cell} (les autres cases ont perdu "
          "le {v} aux étapes précédentes).",
}
POSITION_COVERED = {
    "en": "Single position: in {house}, {v} can only go in {cell}: the {v}s in {cover} rule out "
          "every other empty cell.",
    "fr": "Position unique : dans {house}, {v} ne peut aller qu'en {cell} : les {v} de {cover} "
          "excluent toutes les autres cases vides.",
}
POSITION_LAST = {
    "en": "Single position: {cell} is the only empty cell of {house}, so it is {v}.",
    "fr": "Position unique : {cell} est la seule case vide de {house}, donc c'est {v}.",
}
CANDIDATE_SEEN = {
    "en": "Single candidate: {cell} sees every other value in its row, column and box, so it must be {v}.",
    "fr": "Candidat unique : {cell} voit toutes les autres valeurs dans sa ligne, sa colonne et son bloc, "
          "donc c'est {v}.",
}
CANDIDATE_LEFT = {
    "en": "Single candidate: {v} is the only candidate left in {cell}.",
    "fr": "Candidat unique : {v} est le seul candidat restant en {cell}.",
}


def _positions(state: State, houses: Iterable[int]) -> Iterator[tuple[int, int, int]]:
    """(house, cell, value) of every single position, house by house, values in order."""
    geo = state.geo
    for h in houses:
        hmask = geo.house_mask[h]
        for v in range(1, geo.n + 1):
            where = state.pos[v - 1] & hmask
            if where and not where & (where - 1):
                yield h, where.bit_length() - 1, v


# a single position's rating by what it rests on (``search.single_positions``' kind): the last
# empty cell of its house, a box, a row or column (``rating.SINGLE_POSITION``)
_RATING = {LAST: 1.0, BOX: 1.2, LINE: 1.5}


def find_single_position(state: State, ctx: Context = NO_CONTEXT, /) -> Iterator[Explanation | Lead]:
    """Boxes first, then rows, then columns (where people look first). To an engine that takes
    leads, each single position comes as a lead whose choice key is known whole (its rating and
    the cells its step highlights): only the step taken is built."""
    if not ctx.leads:
        for h, cell, v in _positions(state, house_order(state.n)):
            yield single_position_step(state, h, cell, v)
        return
    for h, cell, v, kind, size in single_positions(state.n, state.values, state.pos):
        yield Lead("single position", partial(single_position_step, state, h, cell, v), _RATING[kind], 1, 0,
                   (size, 0, 0))


def se_single_position(state: State, ctx: Context = NO_CONTEXT, /) -> Iterator[Explanation]:
    """Single positions in Sudoku Explainer's scan order: a region's last empty cell first."""
    geo = check_size(state)
    scan = [h for kind in (BLOCK, COLUMN, ROW) for h in regions(kind)]
    empty = [sum(1 for c in geo.houses[h] if not state.values[c]) for h in range(3 * geo.n)]
    for alone in (True, False):
        for h, cell, v in _positions(state, [h for h in scan if (empty[h] == 1) == alone]):
            rating = 1.0 if alone else (1.2 if h >= 2 * geo.n else 1.5)
            yield rated(ctx, "single position", rating, lambda: single_position_step(state, h, cell, v),  # noqa: B023
                        place=(cell, v))


def single_position_step(state: State, h: int, target: int, v: int) -> Explanation:
    """The step placing v in ``target``, the only place left for it in house h (Sudoku
    Explainer's hidden single builds its step here too)."""
    geo = state.geo
    place = ((geo.row_of[target], geo.col_of[target], v),)
    cover = covering_houses(state, h, target, v)
    args = dict(house=House(geo, h), v=Value(v), cell=geo.cell_name(target))
    if cover is None:
        return Explanation(
            technique="single position", place=place, houses=house_keys(geo, [h]),
            show_candidates=True, **say(POSITION_STRUCK, **args), roles=(on_houses("house", geo, [h]),),
        )
    houses, givers = cover
    covered = 0
    for h2 in houses:
        covered |= geo.house_mask[h2]
    filled_rest = [c for c in geo.houses[h] if state.values[c] and not covered >> c & 1]
    if houses:
        text = say(POSITION_COVERED, cover=Houses(geo, houses), **args)
    else:
        text = say(POSITION_LAST, **args)
    return Explanation(
        technique="single position", place=place,
        cells=cell_coords(geo, list(givers) + filled_rest),
        houses=house_keys(geo, [h] + list(houses)), show_candidates=False,
        **text,
        detail=(("covering_houses", len(houses)),),
        roles=(on_houses("house", geo, [h]), on_houses("cover", geo, houses),
               on_cells("reason", geo, list(givers) + filled_rest)),
    )


def covering_houses(state: State, h: int, target: int, v: int) -> tuple[list[int], list[int]] | None:
    """A smallest set of houses, each holding a placed v, that rules out every
    other empty cell of house h; with the placed v of each. None if placed
    values cannot explain it (earlier eliminations did)."""
    return position_cover(state.geo, state.values, h, target, v)


def find_single_candidate(state: State, ctx: Context = NO_CONTEXT, /) -> Iterator[Explanation]:
    for c, m in enumerate(state.cand):
        if m and not m & (m - 1):
            yield single_candidate_step(state, c, m.bit_length())


def se_single_candidate(state: State, ctx: Context = NO_CONTEXT, /) -> Iterator[Explanation]:
    """Single candidates in Sudoku Explainer's scan order (the cells in order), rated 2.3."""
    check_size(state)
    for c, m in enumerate(state.cand):
        if m and not m & (m - 1):
            v = m.bit_length()
            yield rated(ctx, "single candidate", 2.3, lambda: single_candidate_step(state, c, v),  # noqa: B023
                        place=(c, v))


def single_candidate_step(state: State, c: int, v: int) -> Explanation:
    """The step placing v in cell c, its only candidate left (SE's naked single too)."""
    geo = state.geo
    place = ((geo.row_of[c], geo.col_of[c], v),)
    seen = {v}
    givers: list[int] = []
    houses: list[int] = []
    for h in geo.cell_houses[c]:
        used = False
        for x in geo.houses[h]:
            w = state.values[x]
            if w and w not in seen:
                seen.add(w)
                givers.append(x)
                used = True
        if used:
            houses.append(h)
    args = dict(cell=geo.cell_name(c), v=Value(v))
    if len(seen) == geo.n:
        return Explanation(
            technique="single candidate", place=place, cells=cell_coords(geo, givers),
            houses=house_keys(geo, houses), show_candidates=False,
            **say(CANDIDATE_SEEN, **args), roles=(on_houses("house", geo, houses), on_cells("reason", geo, givers)),
        )
    return Explanation(
        technique="single candidate", place=place, show_candidates=True,
        **say(CANDIDATE_LEFT, **args), roles=(on_cells("cells", geo, [c]),),
    )


