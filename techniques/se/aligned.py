"""Sudoku Explainer's aligned exclusion: pair (6.2) and triplet (7.5).

A *base* cell is an empty cell with an *excluder*: a peer holding 2 to k
candidates (k = 2 for pairs, 3 for triplets). Two base cells (three for a
triplet) with at least two excluders in common choose their values together:
a combination is impossible when two of the cells that see each other take
the same value, or when it would use up every candidate of a common excluder.
A candidate of a base cell that no possible combination uses is removed.

SE enumerates the pairs of base cells (cells in index order) in its
``Permutations`` order; for a triplet, the third cell comes from the
excluders of the first two that are base cells themselves, in the order SE
lists them (the first cell's excluders, then the second's new ones; a cell's
peers in increasing index for Sukaku Explainer, block, row, column for
classic SE). The first base set that removes something is SE's hint; the
rest of the grid does not matter (no sorting).
"""
from __future__ import annotations

from collections.abc import Callable, Iterator
from itertools import product
from typing import Any

from explainer.model.explanation import Explanation, cands, cell_coords
from explainer.model.grid import bits, values_of
from explainer.model.i18n import Cells, Words, say
from explainer.model.roles import on_cands, on_cells
from explainer.model.state import State
from explainer.model.technique import NO_CONTEXT, Context

from ..deadly import Removed
from .base import check_size, step, subsets
from .wings import peers_in_order

NAMES = {2: "aligned pair exclusion", 3: "aligned triplet exclusion"}
RATING = {2: 6.2, 3: 7.5}

TEXT = {
    "en": "{title}: {cells} share the excluders {excluders} (cells of two or three candidates). A choice of "
          "values for {cells} is impossible when it puts one value twice in a house or takes every candidate "
          "of an excluder; no possible choice uses the candidates removed, so {removed}.",
    "fr": "{title} : {cells} ont en commun les cases excluantes {excluders} (deux ou trois candidats). Un choix "
          "de valeurs pour {cells} est impossible s'il met deux fois une valeur dans une maison ou s'il prend "
          "tous les candidats d'une case excluante ; aucun choix possible n'utilise les candidats retirés, "
          "donc {removed}.",
}
TITLES = {2: {"en": "Aligned pair exclusion", "fr": "Exclusion de paire alignée"},
          3: {"en": "Aligned triplet exclusion", "fr": "Exclusion de triplet aligné"}}


def _base_cells(state: State, degree: int, classic: bool) -> tuple[list[int], dict[int, list[int]], dict[int, int]]:
    """SE's base cells in order, each one's excluders (in SE's order) and their mask."""
    cand = state.cand
    order = peers_in_order(classic)
    base: list[int] = []
    excluders: dict[int, list[int]] = {}
    masks: dict[int, int] = {}
    for c in range(81):
        if cand[c].bit_count() < 2:
            continue
        found = []
        single = False
        for p in order[c]:
            k = cand[p].bit_count()
            if k == 1:
                single = True
            elif 2 <= k <= degree:
                found.append(p)
        if not single and found:
            base.append(c)
            excluders[c] = found
            masks[c] = sum(1 << p for p in found)
    return base, excluders, masks


def _removals(state: State, cells: tuple[int, ...], common: int) -> list[tuple[int, int]]:
    """The candidates of ``cells`` that no possible combination uses."""
    cand, peer = state.cand, state.geo.peer_mask
    walls = [cand[e] for e in bits(common)]
    seeing = [(i, j) for i in range(len(cells)) for j in range(i + 1, len(cells))
              if peer[cells[i]] >> cells[j] & 1]
    used = [0] * len(cells)
    for combo in product(*(values_of(cand[c]) for c in cells)):
        if any(combo[i] == combo[j] for i, j in seeing):
            continue
        chosen = 0
        for v in combo:
            chosen |= 1 << (v - 1)
        if any(not w & ~chosen for w in walls):
            continue
        for i, v in enumerate(combo):
            used[i] |= 1 << (v - 1)
    return [(c, v) for i, c in enumerate(cells) for v in values_of(cand[c] & ~used[i])]


def finder(degree: int, classic: bool) -> Callable[[State, Context], Iterator[Explanation]]:
    """SE's aligned pair (``degree`` 2) or triplet (3) exclusion of one flavour."""

    def find(state: State, ctx: Context = NO_CONTEXT, /) -> Iterator[Explanation]:
        check_size(state)
        base, excluders, masks = _base_cells(state, degree, classic)
        if len(base) < degree:
            return
        is_base = set(base)
        for i, j in subsets(2, len(base)):
            a, b = base[i], base[j]
            if degree == 2:
                common = masks[a] & masks[b]
                if common.bit_count() >= 2:
                    removed = _removals(state, (a, b), common)
                    if removed:
                        yield _step(ctx, state, degree, (a, b), common, removed)
                continue
            tail = [c for c in dict.fromkeys(excluders[a] + excluders[b]) if c in is_base and c != a and c != b]
            pair = masks[a] & masks[b]
            if pair.bit_count() < 2:
                continue
            for c in tail:
                common = pair & masks[c]
                if common.bit_count() >= 2:
                    removed = _removals(state, (a, b, c), common)
                    if removed:
                        yield _step(ctx, state, degree, (a, b, c), common, removed)

    return find


def _step(ctx: Context, state: State, degree: int, cells: tuple[int, ...], common: int,
          removed: list[tuple[int, int]]) -> Explanation:
    geo, cand = state.geo, state.cand

    def build() -> dict[str, Any]:
        walls = list(bits(common))
        return dict(cells=cell_coords(geo, cells), cells_alt=cell_coords(geo, walls),
                    marked=cands(geo, ((e, v) for e in walls for v in values_of(cand[e]))),
                    **say(TEXT, title=Words(**TITLES[degree]), cells=Cells(geo, cells),
                          excluders=Cells(geo, walls), removed=Removed(geo, removed)),
                    roles=(on_cells("cells", geo, cells), on_cells("pincer", geo, walls),
                           on_cands("value", geo, ((e, v) for e in walls for v in values_of(cand[e])))))

    return step(ctx, NAMES[degree], RATING[degree], eliminate=removed, build=build,
                detail=(("size", degree), ("cells", tuple(geo.rc(c) for c in cells))))
