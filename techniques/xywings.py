"""Wings of bivalue and small cells: xy wing, xyz wing, wxyz wing.

Standard definitions (SudokuWiki's "XY-Wing", "XYZ-Wing", "WXYZ-Wing";
Sudoku Explainer's generalised wings), any geometry:

- xy wing: a bivalue *pivot* {x, y} and two bivalue *pincers* {x, z} and
  {y, z}, each seeing the pivot. Whatever the pivot is, one pincer is z, so
  z goes from every cell seeing both pincers.
- xyz wing: a pivot {x, y, z} and pincers {x, z}, {y, z} seeing it: one of
  the three is z, so z goes from every cell seeing all three.
- wxyz wing: four cells holding together four values, in which every value
  but one (z) is *restricted*: its cells in the pattern all see each other,
  so it fills at most one of them. Without z the four cells would need four
  different values from three: one of the pattern's z cells is z, and z goes
  from every cell seeing all of them. The pivot shown is the cell seeing
  most of the others.

The three share one rule: k cells, k values, exactly one value z not
restricted. An xy wing is the case k = 3 with three bivalue cells, an xyz
wing k = 3 with a trivalue pivot.
"""
from __future__ import annotations

from collections.abc import Iterable, Iterator
from functools import partial
from itertools import groupby

from explainer.core.sepattern import peers_in_order
from explainer.core.wings import wxyz_hits, xy_hits, xyz_hits
from explainer.model.explanation import Explanation, cands, cell_coords
from explainer.model.grid import Geometry, bits, values_of
from explainer.model.i18n import OR, Agree, Cells, Value, Values, say
from explainer.model.roles import on_cands, on_cells, wing_links
from explainer.model.state import State
from explainer.model.technique import NO_CONTEXT, Context, Finder

from .seorder import check_size, rated

XY_WING = {
    "en": "XY wing on {z}: the pivot {pivot} holds only {x} and {y}; the pincers {p1} (only {x} and {z}) "
          "and {p2} (only {y} and {z}) both see it. If the pivot is {x}, {p1} is {z}; if it is {y}, {p2} "
          "is {z}. So one pincer is {z}, and {z} is removed from {removed}, which {see} both pincers.",
    "fr": "Aile XY sur le {z} : le pivot {pivot} ne contient que {x} et {y} ; les pinces {p1} (seulement "
          "{x} et {z}) et {p2} (seulement {y} et {z}) le voient toutes deux. Si le pivot vaut {x}, {p1} "
          "vaut {z} ; s'il vaut {y}, {p2} vaut {z}. Donc une pince vaut {z}, et le {z} est retiré de "
          "{removed}, qui {see} les deux pinces.",
}
XYZ_WING = {
    "en": "XYZ wing on {z}: the pivot {pivot} holds only {values}; the pincers {p1} (only {x} "
          "and {z}) and {p2} (only {y} and {z}) both see it. Whatever the pivot is, one of the three "
          "cells is {z}, so {z} is removed from {removed}, which {see} all three.",
    "fr": "Aile XYZ sur le {z} : le pivot {pivot} ne contient que {values} ; les pinces {p1} "
          "(seulement {x} et {z}) et {p2} (seulement {y} et {z}) le voient toutes deux. Quelle que soit "
          "la valeur du pivot, l'une des trois cases vaut {z}, donc le {z} est retiré de {removed}, qui "
          "{see} les trois.",
}
WXYZ_WING = {
    "en": "WXYZ wing on {z}: the pivot {pivot} and the pincers {pincers} hold only {values}, four values "
          "for four cells. Each value but {z} lies in cells that all see each other, so it fills at "
          "most one of them; without {z} the four cells would have only three values. So one of "
          "{zcells} is {z}, and {z} is removed from {removed}, which {see} all of them.",
    "fr": "Aile WXYZ sur le {z} : le pivot {pivot} et les pinces {pincers} ne contiennent que {values}, "
          "quatre valeurs pour quatre cases. Chaque valeur autre que {z} est dans des cases qui se "
          "voient toutes, donc elle en remplit au plus une ; sans {z} les quatre cases n'auraient que "
          "trois valeurs. Donc l'une de {zcells} vaut {z}, et le {z} est retiré de {removed}, qui les "
          "{see} toutes.",
}


def wing_step(state: State, technique: str, template: dict[str, str], pivot: int, others: list[int],
              z: int, removed: int, extra: tuple[tuple[str, object], ...] = (), **words: object) -> Explanation:
    """A wing's step: its pivot and pincers (``others``), the value z and the cells it leaves
    (a mask); ``words`` fill ``template`` (Sudoku Explainer's wings build theirs here too)."""
    geo = state.geo
    cand = state.cand
    pattern = [pivot] + others
    zbit = 1 << (z - 1)
    zcells = [c for c in pattern if cand[c] & zbit]
    union = 0
    for c in pattern:
        union |= cand[c]
    return Explanation(
        technique=technique,
        eliminate=cands(geo, ((c, z) for c in bits(removed))),
        cells=cell_coords(geo, [pivot]),
        cells_alt=cell_coords(geo, others),
        marked=cands(geo, ((c, z) for c in zcells)),
        **say(template, z=Value(z), pivot=Cells(geo, [pivot]), removed=Cells(geo, bits(removed)),
              see=Agree(removed.bit_count(), en=("sees", "see"), fr=("voit", "voient")),
              values=Values(values_of(union)), zcells=Cells(geo, zcells, last=OR),
              **words),
        detail=(("pivot", geo.rc(pivot)), ("pincers", tuple(geo.rc(c) for c in others)), ("value", z),
                ("size", len(pattern))) + extra,
        roles=(on_cells("pivot", geo, [pivot]), on_cells("pincer", geo, others),
               on_cands("z", geo, ((c, z) for c in zcells))) + wing_links(geo, cand, [pivot, *others], z),
    )


def find_xy_wing(state: State, ctx: Context = NO_CONTEXT, /) -> Iterator[Explanation]:
    """xy wing: pivots in cell order, then pincer pairs in cell order."""
    for pivot, a, b, z, removed in xy_hits(state):
        yield _wing_step(state, False, pivot, a, b, z, removed)


def _wing_step(state: State, xyz: bool, pivot: int, a: int, b: int, z: int, removed: int) -> Explanation:
    """The xy (or xyz) wing step: the pincer holding the smaller pivot value is named first."""
    geo, cand = state.geo, state.cand
    zbit = 1 << (z - 1)
    x, y = (cand[a] & ~zbit).bit_length(), (cand[b] & ~zbit).bit_length()
    p1, p2 = (a, b) if x < y else (b, a)
    return wing_step(state, "xyz wing" if xyz else "xy wing", XYZ_WING if xyz else XY_WING, pivot, [p1, p2], z,
                     removed, x=Value(min(x, y)), y=Value(max(x, y)), p1=Cells(geo, [p1]), p2=Cells(geo, [p2]))


def find_xyz_wing(state: State, ctx: Context = NO_CONTEXT, /) -> Iterator[Explanation]:
    """xyz wing: trivalue pivots in cell order, then bivalue pincer pairs inside it."""
    for pivot, a, b, z, removed in xyz_hits(state):
        yield _wing_step(state, True, pivot, a, b, z, removed)


def se_wing(xyz: bool, classic: bool) -> Finder:
    """Sudoku Explainer's XY-wing (4.2) or XYZ-wing (4.4) producer of one flavour.

    SE scans pivots in cell order, then a first pincer among the pivot's peers, then the second
    among the same peers; the peers' order is the flavour's (``sepattern.peers_in_order``):
    Sukaku Explainer's in increasing cell index, classic SE's block first, then row, then column.
    So a pivot's wings come in the order of their pincers' ranks in that order."""
    rank = [{c: i for i, c in enumerate(peers)} for peers in peers_in_order(classic)]

    def find_se(state: State, ctx: Context = NO_CONTEXT, /) -> Iterator[Explanation]:
        check_size(state)
        for pivot, hits in groupby(xyz_hits(state) if xyz else xy_hits(state), key=lambda h: h[0]):
            order = rank[pivot]
            for _, a, b, z, removed in sorted(hits, key=lambda h: sorted((order[h[1]], order[h[2]]))):
                yield rated(ctx, "xyz wing" if xyz else "xy wing", 4.4 if xyz else 4.2,
                            partial(_wing_step, state, xyz, pivot, a, b, z, removed),
                            eliminate=[(c, z) for c in bits(removed)])

    return find_se


def find_wxyz_wing(state: State, ctx: Context = NO_CONTEXT, /) -> Iterator[Explanation]:
    """wxyz wing: four cells, four values, one unrestricted value z."""
    geo = state.geo
    cand, peer = state.cand, geo.peer_mask
    for a, b, c, e, z, removed in wxyz_hits(state):
        quad = (a, b, c, e)
        # the pivot: the cell seeing most of the others, then the one with most candidates
        pivot = max(quad, key=lambda x: (sum(peer[x] >> o & 1 for o in quad), cand[x].bit_count(), -x))
        pincers = [x for x in quad if x != pivot]
        yield wing_step(state, "wxyz wing", WXYZ_WING, pivot, pincers, z, removed, als_split(geo, cand, quad),
                    pincers=Cells(geo, pincers))


def als_split(geo: Geometry, cand: list[int], cells: Iterable[int]) -> tuple[tuple[str, object], ...]:
    """A wing's cells as two almost locked sets (detail ``sizes``): a bivalue cell and the
    others, all seeing each other, (1, k - 1) when it has one (Sukaku Explainer's WXYZ- and
    VWXYZ-wings: an ALS-XZ with a bivalue cell; ``biggest``: the most candidates in a cell
    of the set, the one nearest 2 or k of the splits), else (2, k - 2)."""
    peer = geo.peer_mask
    pattern = list(cells)
    k = len(pattern)
    middle = (k + 2) // 2
    best = None
    for x in pattern:
        if cand[x].bit_count() != 2:
            continue
        rest = [o for o in pattern if o != x]
        if all(peer[a] >> b & 1 for i, a in enumerate(rest) for b in rest[i + 1:]):
            big = max(cand[o].bit_count() for o in rest)
            best = big if best is None or abs(big - middle) > abs(best - middle) else best
    if best is None:
        return (("sizes", (2, k - 2)),)
    return (("sizes", (1, k - 1)), ("biggest", best))
