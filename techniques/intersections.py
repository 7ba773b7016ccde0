"""Locked candidates: where a line meets a box, a value confined to the
intersection in one of the two houses must be there, so it leaves the rest
of the other house (pointing when the box confines it, claiming when the
line does)."""
from __future__ import annotations

from collections.abc import Iterator

from explainer.model.explanation import Explanation, cands, house_keys
from explainer.model.grid import Geometry, bits
from explainer.model.i18n import Cells, House, Value, say
from explainer.model.roles import on_cands, on_houses
from explainer.model.session import session_of
from explainer.model.state import State
from explainer.model.technique import NO_CONTEXT, Context, Lead, lead

TEXT = {
    "en": "Locked candidate: in {r1}, {v} can only go in {r2}, so {v} is removed from {cells}.",
    "fr": "Candidat verrouillé : dans {r1}, {v} ne peut aller que dans {r2}, donc {v} est retiré de {cells}.",
}


def find(state: State, ctx: Context = NO_CONTEXT, /) -> Iterator[Explanation | Lead]:
    """Locked candidates by value; per value pointing (the box confines it) before claiming, in
    the order of the intersections. A value's are kept in the solving session while its places
    stay (``Session.part``); a step is built when it is asked for."""
    geo = state.geo
    session = session_of(state, ctx)
    for v in range(1, geo.n + 1):
        pv = state.pos[v - 1]
        if not pv:
            continue
        for r1, r2, inside, removed in session.part("locked candidate", v, pv, lambda: _locked(geo, pv)):  # noqa: B023
            yield lead(ctx, "locked candidate", _step, geo, v, r1, r2, inside, removed,
                       eliminate=removed.bit_count())


def _locked(geo: Geometry, pv: int) -> list[tuple[int, int, int, int]]:
    """(confining house, other house, the value's places inside, the places it leaves) of every
    locked candidate of a value with places ``pv``: boxes first (pointing), then lines
    (claiming): the order people look."""
    hm = geo.house_mask
    out = []
    for confining in ("box", "line"):
        for line, box, inter in geo.intersections:
            inside = pv & inter
            if not inside:
                continue
            if confining == "box":
                r1, r2 = box, line
            else:
                r1, r2 = line, box
            if pv & hm[r1] & ~inter:
                continue
            removed = pv & hm[r2] & ~inter
            if removed:
                out.append((r1, r2, inside, removed))
    return out


def _step(geo: Geometry, v: int, r1: int, r2: int, inside: int, removed: int) -> Explanation:
    return Explanation(
        technique="locked candidate",
        eliminate=cands(geo, ((c, v) for c in bits(removed))),
        houses=house_keys(geo, [r1, r2]),
        marked=cands(geo, ((c, v) for c in bits(inside))),
        **say(TEXT, r1=House(geo, r1), r2=House(geo, r2), v=Value(v), cells=Cells(geo, bits(removed))),
        roles=(on_houses("base", geo, [r1]), on_houses("cover", geo, [r2]),
               on_cands("value", geo, ((c, v) for c in bits(inside)))),
    )
