"""What the deadly-pattern finders share (unique loops, BUG types 2-4).

Both rest on one fact: some cells of a pattern must take one of their *extra*
values (those beyond the deadly pattern), or the puzzle would have two
solutions. Seen from a house holding all those cells, the extras act as one
*virtual cell*: with k other cells of the house they may complete a naked
set (Sudoku Explainer's type 3 of unique loops and of BUGs, HoDoKu's unique
rectangle type 3). This module finds those sets and words the removals.
"""
from __future__ import annotations

from collections.abc import Collection, Iterable, Iterator, Sequence
from typing import Any

from explainer.core.ur import sets_of as _sets_of
from explainer.model.explanation import Explanation, cands, cell_coords, house_keys
from explainer.model.grid import Geometry, values_of
from explainer.model.i18n import say
from explainer.model.roles import Role, link, on_cands, on_cells, on_houses
from explainer.model.state import State
from explainer.model.values import Cell

from .wording import Removals

# naked sets of up to five values: the virtual cell and four others (Sudoku Explainer
# searches up to seven; five covers every set its ratings show on top1465 and se_rated)
MAX_SET = 5
REMOVED = {"en": "we remove {what}", "fr": "on retire {what}"}


class Removed(Removals):
    """'we remove 4 from r3c1 and r7c9; 7 from r1c2' (the closing words of a step)."""

    def fmt(self, lang: str) -> str:
        return REMOVED[lang].format(what=super().fmt(lang))


def live(cand: list[int], pairs: Iterable[tuple[int, int]]) -> list[tuple[int, int]]:
    """The (cell, value) pairs still candidates: what a step really removes."""
    return [(c, v) for c, v in pairs if cand[c] >> (v - 1) & 1]


def pattern_step(state: State, technique: str, pattern: Iterable[int], ab: tuple[int, int], floor: list[int],
                 roof: list[int], template: dict[str, str], removed: Iterable[tuple[int, int]],
                 marked_alt: Iterable[tuple[int, int]], houses: Iterable[int],
                 words: dict[str, Any], recorded: tuple[tuple[str, Any], ...],
                 conjugates: Iterable[tuple[int, int, int]] = (), loop: Sequence[int] = (),
                 naked: Iterable[int] = ()) -> Explanation | None:
    """The step of a deadly pattern (unique rectangle or loop): the floor and roof cells, the
    pattern's two values marked, what the type marks besides; None if nothing it would
    remove is still a candidate.

    ``conjugates``: (cell, cell, value) where a house holds one of the pattern's values only
    on those two cells (types 4, 6 and hidden): drawn as strong links between two of the
    pattern's values, never as extra candidates (``marked_alt`` keeps them for the older
    highlight field); ``loop``: the pattern's cells in loop order (a unique loop, drawn as a
    closed band); ``naked``: the other cells of a naked set the extras complete (type 3), in
    their own tint (their candidates are not extras)."""
    geo, cand = state.geo, state.cand
    pattern, marked_alt, houses, conjugates = list(pattern), list(marked_alt), list(houses), list(conjugates)
    live_removed = live(cand, removed)
    if not live_removed:
        return None
    linked = {(c, v) for x, y, v in conjugates for c in (x, y)}
    naked = list(naked)
    extras = {(c, v) for c, v in live(cand, marked_alt) if c not in naked} - set(live_removed) - linked
    values = set(live(cand, ((c, v) for c in pattern for v in ab))) - extras - set(live_removed)
    n = geo.n
    return Explanation(
        technique=technique,
        eliminate=cands(geo, live_removed),
        cells=cell_coords(geo, floor), cells_alt=cell_coords(geo, roof),
        houses=house_keys(geo, houses),
        marked=cands(geo, ((c, v) for c in pattern for v in ab)),
        marked_alt=cands(geo, marked_alt),
        **say(template, removed=Removed(geo, live_removed), **words),
        detail=recorded,
        roles=(on_cells("floor", geo, floor), on_cells("roof", geo, roof), on_houses("house", geo, houses),
               on_cands("value", geo, values), on_cands("extra", geo, extras))
        + tuple(link("strong", (x // n, x % n, v), (y // n, y % n, v)) for x, y, v in conjugates)
        + ((Role("cycle", cells=tuple(Cell(c // n, c % n) for c in loop)),) if loop else ())
        + ((on_cells("set", geo, naked, 0),) if naked else ()),
    )


def detail(kind: int, size: int, **more: Any) -> tuple[tuple[str, Any], ...]:
    """A step's detail: its type, what ``more`` records, and type 3's set ``size`` (0: none)."""
    return (("type", kind), *more.items()) + ((("size", size),) if size else ())


def split(cand: list[int], cells: Collection[int], ab: int) -> tuple[list[int], list[int], int]:
    """A pattern's cells holding only {a, b} (the floor), the others (the roof), and the
    roof's extra values together."""
    floor = [c for c in cells if cand[c] == ab]
    roof = [c for c in cells if cand[c] != ab]
    extra = 0
    for c in roof:
        extra |= cand[c] & ~ab
    return floor, roof, extra


def virtual_naked_sets(state: State, h: int, pattern: Collection[int], extra: int, max_set: int = MAX_SET
                       ) -> Iterator[tuple[tuple[int, ...], int, list[tuple[int, int]]]]:
    """(the k other cells, the k + 1 values, the removals) for every naked set that the
    virtual cell (values ``extra``, standing for ``pattern``'s cells in house h) completes
    with k other cells of h, smallest sets first; only sets that remove something.
    ``max_set``: the most values a set may hold (the grid's size: any set)."""
    geo: Geometry = state.geo
    cand = state.cand
    others = [c for c in geo.houses[h] if cand[c] and c not in pattern]
    # k cells and the virtual one hold k + 1 values: each of the k holds at most that many
    pool = [c for c in others if (cand[c] | extra).bit_count() <= max_set]
    for k in range(1, min(max_set - 1, len(others) - 1) + 1):
        for group, u in _sets_of(cand, [c for c in pool if (cand[c] | extra).bit_count() <= k + 1], extra, k,
                                 k + 1):
            removed = [(c, v) for c in others if c not in group for v in values_of(cand[c] & u)]
            if removed:
                yield group, u, removed
