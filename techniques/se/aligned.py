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

Kept apart from the registry: the registry has no aligned exclusion (its
eliminations come from chains and ALS there), so this is SE's rule alone.
"""
from __future__ import annotations

from collections.abc import Iterator
from typing import Any

from explainer.core import sepattern
from explainer.model.explanation import Explanation, cands, cell_coords
from explainer.model.grid import bits, values_of
from explainer.model.i18n import Cells, Words, say
from explainer.model.roles import on_cands, on_cells
from explainer.model.state import State
from explainer.model.technique import NO_CONTEXT, Context, Finder

from ..deadly import Removed
from ..seorder import check_size, step

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


def finder(degree: int, classic: bool) -> Finder:
    """SE's aligned pair (``degree`` 2) or triplet (3) exclusion of one flavour: its first hint
    (``explainer.core.sepattern.aligned``, compiled)."""

    def find(state: State, ctx: Context = NO_CONTEXT, /) -> Iterator[Explanation]:
        check_size(state)
        found = sepattern.aligned(state.cand, degree, classic)
        if found is not None:
            cells, walls, removed = found
            yield _step(ctx, state, degree, cells, sum(1 << c for c in walls), removed)

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
