"""Sudoku Explainer's XY-wing (4.2) and XYZ-wing (4.4).

SE scans pivots in cell order (a bivalue pivot for the XY-wing, a trivalue
one for the XYZ-wing), then a first pincer among the pivot's peers, then the
second among the same peers. The peers' order is the flavour's: Sukaku
Explainer takes them in increasing cell index, classic SE block first, then
row, then column (each cell once). z, the value the pincers share, leaves the
cells seeing both pincers (and the pivot, for an XYZ-wing). The steps are the
registry's wings (``techniques.xywings``) with SE's rating recorded.
"""
from __future__ import annotations

from collections.abc import Callable, Iterator

from explainer.core.sepattern import peers_in_order
from explainer.model.explanation import Explanation
from explainer.model.grid import bits
from explainer.model.i18n import Cells, Value
from explainer.model.state import State
from explainer.model.technique import NO_CONTEXT, Context

from ..xywings import XY_WING, XYZ_WING, wing_step
from .base import check_size, rated


def finder(xyz: bool, classic: bool) -> Callable[[State, Context], Iterator[Explanation]]:
    """SE's XY-wing (``xyz`` False) or XYZ-wing producer of one flavour."""

    def find(state: State, ctx: Context = NO_CONTEXT, /) -> Iterator[Explanation]:
        geo = check_size(state)
        cand, pos, peer = state.cand, state.pos, geo.peer_mask
        order = peers_in_order(classic)
        size = 3 if xyz else 2
        for pivot in range(81):
            pm = cand[pivot]
            if pm.bit_count() != size:
                continue
            near = [c for c in order[pivot] if cand[c].bit_count() == 2]
            for a in near:
                ma = cand[a]
                if (pm & ~ma).bit_count() != 1:
                    continue
                for b in near:
                    mb = cand[b]
                    union, inter = pm | ma | mb, pm & ma & mb
                    if union.bit_count() != 3 or inter.bit_count() != (1 if xyz else 0):
                        continue
                    z = (ma & mb).bit_length()
                    victims = peer[a] & peer[b] & ~(1 << pivot)
                    if xyz:
                        victims &= peer[pivot]
                    removed = victims & pos[z - 1]
                    if removed:
                        yield _wing(ctx, state, xyz, pivot, a, b, z, removed)

    return find


def _wing(ctx: Context, state: State, xyz: bool, pivot: int, a: int, b: int, z: int, removed: int) -> Explanation:
    geo, cand = state.geo, state.cand
    zbit = 1 << (z - 1)
    x, y = (cand[a] & ~zbit).bit_length(), (cand[b] & ~zbit).bit_length()

    def make() -> Explanation:
        p1, p2 = (a, b) if x < y else (b, a)
        return wing_step(state, "xyz wing" if xyz else "xy wing", XYZ_WING if xyz else XY_WING, pivot, [p1, p2], z,
                         removed, x=Value(min(x, y)), y=Value(max(x, y)), p1=Cells(geo, [p1]), p2=Cells(geo, [p2]))

    return rated(ctx, "xyz wing" if xyz else "xy wing", 4.4 if xyz else 4.2, make,
                 eliminate=[(c, z) for c in bits(removed)])
