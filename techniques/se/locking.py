"""Sudoku Explainer's intersections: direct pointing / claiming (1.7 / 1.9) and pointing /
claiming (2.6 / 2.8).

A value whose places in a region (region 1) all lie in a crossing region
(region 2) leaves the rest of region 2: pointing when region 1 is a block,
claiming when it is a line. SE scans the region pairs (block, column), (block,
row), (column, block), (row, block) — every pointing before any claiming —
and, in each, the values and regions in its flavour's order: Sukaku Explainer
loops over the values outermost, classic SE over the two regions first.

The *direct* variant is a placement: a third region of region 1's type,
crossing region 2, where the value then has one place left (it had two or
more, one outside region 2). SE places that value and applies nothing else:
the candidates the intersection rules out stay in the grid (SE's direct hint
removes none), and the frame shows them as ruled out.
"""
from __future__ import annotations

from collections.abc import Callable, Iterator
from typing import Any

from explainer.model.explanation import Explanation, cands, house_keys
from explainer.model.grid import bits
from explainer.model.i18n import Cells, House, Value, Words, say
from explainer.model.roles import on_cands, on_houses
from explainer.model.state import State
from explainer.model.technique import NO_CONTEXT, Context

from ..intersections import TEXT as LOCKED_TEXT
from .base import BLOCK, COLUMN, ROW, check_size, crossing, region, regions, step

# (region 1's type, region 2's type): SE's order, pointing first
PAIRS = ((BLOCK, COLUMN), (BLOCK, ROW), (COLUMN, BLOCK), (ROW, BLOCK))

DIRECT_TEXT = {
    "en": "{name}: in {r1}, {v} can only go in {r2} ({locked}), so no other cell of {r2} can be {v}; "
          "in {r3}, {v} is then left only in {cell}, so {cell} is {v}.",
    "fr": "{name} : dans {r1}, {v} ne peut aller que dans {r2} ({locked}), donc aucune autre case de {r2} "
          "ne peut valoir {v} ; dans {r3}, il ne reste alors à {v} que {cell}, donc {cell} vaut {v}.",
}
DIRECT_NAMES = {"direct pointing": {"en": "Direct pointing", "fr": "Pointage direct"},
                "direct claiming": {"en": "Direct claiming", "fr": "Réclamation directe"}}




def _locked(state: State, classic: bool) -> Iterator[tuple[int, int, int, int]]:
    """(region 1, region 2, value, places in region 1): a value locked in an intersection, in the
    flavour's order: region pairs by type, then Sukaku Explainer loops over the values, region 1
    and region 2, classic SE over region 1, region 2 and the values. A value's places in region 1
    lie in one region of region 2's type at most, which is computed rather than searched."""
    geo = state.geo
    hm, pos = geo.house_mask, state.pos
    of = (geo.box_of, geo.row_of, geo.col_of)
    for t1, t2 in PAIRS:
        table = of[t2]
        found: list[tuple[int, int, int, int]] = []
        for v in range(1, 10):
            for h1 in regions(t1):
                inside = pos[v - 1] & hm[h1]
                if not inside & (inside - 1):
                    continue
                h2 = region(t2, table[(inside & -inside).bit_length() - 1])
                if not inside & ~hm[h2]:
                    if classic:
                        found.append((h1, h2, v, inside))
                    else:
                        yield h1, h2, v, inside
        if classic:
            found.sort(key=lambda t: t[:3])
            yield from found


def finder(direct: bool, classic: bool) -> Callable[[State, Context], Iterator[Explanation]]:
    """SE's intersection producer of one flavour (``direct``: the placing variant)."""

    def find(state: State, ctx: Context = NO_CONTEXT, /) -> Iterator[Explanation]:
        geo = check_size(state)
        hm = geo.house_mask
        for h1, h2, v, inside in _locked(state, classic):
            pointing = h1 >= 18
            ruled_out = state.pos[v - 1] & hm[h2] & ~hm[h1]
            if not direct:
                if ruled_out:
                    yield _indirect(ctx, state, h1, h2, v, inside, ruled_out, pointing)
                continue
            for h3 in regions(_kind(h1)):
                if h3 == h1 or not crossing(h3, h2):
                    continue
                there = state.pos[v - 1] & hm[h3]
                if there & (there - 1):
                    left = there & ~hm[h2]
                    if left and not left & (left - 1):
                        yield _direct(ctx, state, h1, h2, h3, v, inside, ruled_out, left.bit_length() - 1, pointing)

    return find


def _kind(house: int) -> int:
    return (ROW, COLUMN, BLOCK)[house // 9]


def _indirect(ctx: Context, state: State, h1: int, h2: int, v: int, inside: int, removed: int,
              pointing: bool) -> Explanation:
    geo = state.geo

    def build() -> dict[str, Any]:
        return dict(houses=house_keys(geo, [h1, h2]), marked=cands(geo, ((c, v) for c in bits(inside))),
                    **say(LOCKED_TEXT, r1=House(geo, h1), r2=House(geo, h2), v=Value(v),
                          cells=Cells(geo, bits(removed))),
                    roles=(on_houses("base", geo, [h1]), on_houses("cover", geo, [h2]),
                           on_cands("value", geo, ((c, v) for c in bits(inside)))))

    return step(ctx, "locked candidate", 2.6 if pointing else 2.8, eliminate=((c, v) for c in bits(removed)),
                build=build, detail=(("kind", "pointing" if pointing else "claiming"),))


def _direct(ctx: Context, state: State, h1: int, h2: int, h3: int, v: int, inside: int, ruled_out: int,
            cell: int, pointing: bool) -> Explanation:
    geo = state.geo
    name = "direct pointing" if pointing else "direct claiming"

    def build() -> dict[str, Any]:
        return dict(houses=house_keys(geo, [h1, h2, h3]), marked=cands(geo, ((c, v) for c in bits(inside))),
                    marked_alt=cands(geo, ((c, v) for c in bits(ruled_out))),
                    **say(DIRECT_TEXT, name=Words(**DIRECT_NAMES[name]), r1=House(geo, h1), r2=House(geo, h2),
                          r3=House(geo, h3), v=Value(v), locked=Cells(geo, bits(inside)),
                          cell=geo.cell_name(cell)),
                    roles=(on_houses("base", geo, [h1]), on_houses("cover", geo, [h2]),
                           on_cands("value", geo, ((c, v) for c in bits(inside))),
                           on_cands("implied-false", geo, ((c, v) for c in bits(ruled_out)))))

    return step(ctx, name, 1.7 if pointing else 1.9, place=(cell, v), build=build)
