"""Locked candidates: where a line meets a box, a value confined to the
intersection in one of the two houses must be there, so it leaves the rest
of the other house (pointing when the box confines it, claiming when the
line does)."""
from __future__ import annotations

from collections.abc import Iterator

from explainer.model.explanation import Explanation, cands, house_keys
from explainer.model.grid import bits
from explainer.model.i18n import Cells, House, Value, say
from explainer.model.roles import on_cands, on_houses
from explainer.model.state import State
from explainer.model.technique import NO_CONTEXT, Context

TEXT = {
    "en": "Locked candidate: in {r1}, {v} can only go in {r2}, so {v} is removed from {cells}.",
    "fr": "Candidat verrouillé : dans {r1}, {v} ne peut aller que dans {r2}, donc {v} est retiré de {cells}.",
}


def find(state: State, ctx: Context = NO_CONTEXT, /) -> Iterator[Explanation]:
    geo = state.geo
    hm = geo.house_mask
    for v in range(1, geo.n + 1):
        pv = state.pos[v - 1]
        if not pv:
            continue
        # boxes first (pointing), then lines (claiming): the order people look
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
                if not removed:
                    continue
                yield Explanation(
                    technique="locked candidate",
                    eliminate=cands(geo, ((c, v) for c in bits(removed))),
                    houses=house_keys(geo, [r1, r2]),
                    marked=cands(geo, ((c, v) for c in bits(inside))),
                    **say(TEXT, r1=House(geo, r1), r2=House(geo, r2), v=Value(v),
                          cells=Cells(geo, bits(removed))),
                    roles=(on_houses("base", geo, [r1]), on_houses("cover", geo, [r2]),
                           on_cands("value", geo, ((c, v) for c in bits(inside)))),
                )
