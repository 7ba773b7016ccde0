"""Locked candidates: where a line meets a box, a value confined to the
intersection in one of the two houses must be there, so it leaves the rest
of the other house (pointing when the box confines it, claiming when the
line does).

``se_finder`` is the same search in Sudoku Explainer's scan order (the ``se``
orders): SE's direct pointing / claiming (1.7 / 1.9) and pointing / claiming
(2.6 / 2.8). SE looks only at a value with two places or more in region 1 and
scans the region pairs (block, column), (block, row), (column, block), (row,
block), every pointing before any claiming; in each, Sukaku Explainer loops over
the values outermost, classic SE over the two regions first. The *direct*
variant is a placement: a third region of region 1's type, crossing region 2,
where the value then has one place left (it had two or more, one outside region
2). SE places that value and applies nothing else: the candidates the
intersection rules out stay in the grid (SE's direct hint removes none), and the
frame shows them as ruled out.
"""
from __future__ import annotations

from collections.abc import Iterator
from typing import Any

from explainer.model.explanation import Explanation, cands, house_keys
from explainer.model.grid import Geometry, bits
from explainer.model.i18n import Cells, House, Value, Words, say
from explainer.model.roles import on_cands, on_houses
from explainer.model.session import session_of
from explainer.model.state import State
from explainer.model.technique import NO_CONTEXT, Context, Finder, Lead, lead

from .seorder import check_size, crossing, kind_of, rated, regions, step

TEXT = {
    "en": "Locked candidate: in {r1}, {v} can only go in {r2}, so {v} is removed from {cells}.",
    "fr": "Candidat verrouillé : dans {r1}, {v} ne peut aller que dans {r2}, donc {v} est retiré de {cells}.",
}


DIRECT_TEXT = {
    "en": "{name}: in {r1}, {v} can only go in {r2} ({locked}), so no other cell of {r2} can be {v}; "
          "in {r3}, {v} is then left only in {cell}, so {cell} is {v}.",
    "fr": "{name} : dans {r1}, {v} ne peut aller que dans {r2} ({locked}), donc aucune autre case de {r2} "
          "ne peut valoir {v} ; dans {r3}, il ne reste alors à {v} que {cell}, donc {cell} vaut {v}.",
}
DIRECT_NAMES = {"direct pointing": {"en": "Direct pointing", "fr": "Pointage direct"},
                "direct claiming": {"en": "Direct claiming", "fr": "Réclamation directe"}}


def _by_value(state: State, ctx: Context) -> Iterator[tuple[int, tuple[int, int, int, int]]]:
    """(value, (confining house, other house, places inside, places left)) of every locked
    candidate, value by value; a value's are kept in the solving session while its places stay
    (``Session.part``)."""
    geo = state.geo
    session = session_of(state, ctx)
    for v in range(1, geo.n + 1):
        pv = state.pos[v - 1]
        if pv:
            for found in session.part("locked candidate", v, pv, lambda: _locked(geo, pv)):  # noqa: B023
                yield v, found


def find(state: State, ctx: Context = NO_CONTEXT, /) -> Iterator[Explanation | Lead]:
    """Locked candidates by value; per value pointing (the box confines it) before claiming, in
    the order of the intersections; a step is built when it is asked for."""
    for v, (r1, r2, inside, removed) in _by_value(state, ctx):
        yield lead(ctx, "locked candidate", _step, state.geo, v, r1, r2, inside, removed,
                   eliminate=removed.bit_count())


def locked_step(state: State, v: int, r1: int, r2: int) -> Explanation | None:
    """The locked-candidates step of value ``v`` confined by house ``r1`` and removed from house
    ``r2``, as ``find`` gives it (None if the state has none): what a dynamic forcing branch's
    step fact reads, without building every other step of the state."""
    for a, b, inside, removed in _locked(state.geo, state.pos[v - 1]):
        if (a, b) == (r1, r2):
            return _step(state.geo, v, a, b, inside, removed)
    return None


# SE's region pairs (region 1's type, region 2's type) in its order, pointing first, by the
# house kinds of ``Geometry.houses`` (0 rows, 1 columns, 2 boxes)
_SE_PAIRS = {(2, 1): 0, (2, 0): 1, (1, 2): 2, (0, 2): 3}


def se_finder(direct: bool, classic: bool) -> Finder:
    """The intersections in Sudoku Explainer's scan order, of one flavour (``classic``: SE
    1.2.1.3, else Sukaku Explainer); ``direct``: SE's placing variant."""

    def find_se(state: State, ctx: Context = NO_CONTEXT, /) -> Iterator[Explanation]:
        geo = check_size(state)
        n, hm, pos = geo.n, geo.house_mask, state.pos
        found = []
        for v, (h1, h2, inside, ruled_out) in _by_value(state, ctx):
            if inside & (inside - 1):
                pair = _SE_PAIRS[h1 // n, h2 // n]
                found.append(((pair, h1, h2, v) if classic else (pair, v, h1, h2), v, inside, ruled_out))
        found.sort(key=lambda f: f[0])
        for key, v, inside, ruled_out in found:
            h1, h2 = key[1:3] if classic else key[2:4]
            pointing = h1 >= 2 * n
            if not direct:
                yield rated(ctx, "locked candidate", 2.6 if pointing else 2.8,
                            lambda: _step(geo, v, h1, h2, inside, ruled_out),  # noqa: B023 - called at once
                            eliminate=((c, v) for c in bits(ruled_out)), first=True,
                            detail=(("kind", "pointing" if pointing else "claiming"),))
                continue
            for h3 in regions(kind_of(h1)):
                if h3 != h1 and crossing(h3, h2):
                    there = pos[v - 1] & hm[h3]
                    left = there & ~hm[h2]
                    if there & (there - 1) and left and not left & (left - 1):
                        yield _direct(ctx, state, h1, h2, h3, v, inside, ruled_out, left.bit_length() - 1, pointing)

    return find_se


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
