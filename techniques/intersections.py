"""Locked candidates: where a line meets a box, a value confined to the
intersection in one of the two houses must be there, so it leaves the rest
of the other house (pointing when the box confines it, claiming when the
line does)."""
from __future__ import annotations

from typing import Iterator

from explainer.explanation import Explanation, cands, house_keys
from explainer.grid import bits, cells_text, value_char
from explainer.state import State


def find(state: State) -> Iterator[Explanation]:
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
                    text=(f"Locked candidate: in {geo.house_name(r1)}, {value_char(v)} can only go "
                          f"in {geo.house_name(r2)}, so {value_char(v)} is removed from "
                          f"{cells_text(geo, bits(removed))}."),
                )
