"""Wings: y wing / ny wing (one finder) and w wing.

y wing, ny wing (TECHNIQUES.md): two lines L1, L2 of one band meet two boxes
B1, B2. Cells E12 ⊂ L1 ∩ B2 (the pivot), E11 ⊂ L1 ∩ B1 and E22 ⊂ L2 ∩ B2
hold candidates from F ∪ {v}, v not in E12, the candidates of E11 and E22
other than v disjoint, and |E| = |F| + 1. If v were true in L2 ∩ B1 or in
L1 ∩ B2 outside E, no cell of E could be v, yet E's |F| + 1 cells are
pairwise different (E11 ∪ E12 share L1, E12 ∪ E22 share B2, E11 and E22
share no value): too many cells for F. |F| = 2 is the classic y wing.

The finder works on the line-box intersections: the subsets of each one's
empty cells and their candidate unions are built once per state, so a
pattern is three table look-ups and a few bit operations. The searches of
both finders are in ``explainer.core.wings`` (compiled, with a pure twin);
a step is built here only for the pattern the engine takes.

w wing: two bivalue cells A, A' with the same two values {v, w} that do not
see each other, and a house R holding neither in which every w sees A or A'.
If a cell seeing both were v, A and A' would both be w and R would have no
place left for w.
"""
from __future__ import annotations

from collections.abc import Iterator

from explainer.core.wings import w_hits, y_patterns
from explainer.model.explanation import Explanation, cands, cell_coords, house_keys
from explainer.model.grid import Geometry, bits, values_of
from explainer.model.i18n import OR, Agree, Arg, Cells, House, Value, Values, say
from explainer.model.roles import link, on_cands, on_cells, on_houses, wing_links
from explainer.model.session import session_of
from explainer.model.state import State
from explainer.model.technique import NO_CONTEXT, Context, Lead, lead

from .xywings import XY_WING, als_split, wing_step

Y_WING = {
    "en": "{name} on {v}: {cells} hold only {values}, and {the_pivot} {pivot} {has} no {v}. Without {v}, no "
          "two of these {k} cells could be equal: {row_cells} see each other in {l1}, {box_cells} in {b2}, "
          "and {apart}. A {v} in {targets} would see every {v} of these cells, leaving {k} cells only the "
          "{f} values {others}. So {v} is removed from {removed}.",
    "fr": "{name} sur le {v} : {cells} ne contiennent que {values}, et {the_pivot} {pivot} {has} pas de {v}. "
          "Sans le {v}, ces {k} cases auraient toutes des valeurs différentes : {row_cells} se voient dans "
          "{l1}, {box_cells} dans {b2}, et {apart}. Un {v} en {targets} verrait chaque {v} de ces cases, "
          "ne laissant à {k} cases que les {f} valeurs {others}. Donc le {v} est retiré de {removed}.",
}
W_WING = {
    "en": "W wing: {a} and {b} both hold only {v} and {w}; in {house}, {w} can only go in cells "
          "that see one of them, so if both were {v}, {house} would have no {w}: one of them is {v} "
          "and {v} is removed from {removed}, which {see} both.",
    "fr": "Aile W : {a} et {b} ne contiennent que {v} et {w} ; dans {house}, le {w} ne peut aller "
          "que dans des cases qui voient l'une d'elles, donc si les deux étaient {v}, {house} "
          "n'aurait plus de {w} : l'une d'elles est {v} et le {v} est retiré de {removed}, qui {see} "
          "les deux.",
}


class _Apart(Arg):
    """'r9c1 has no value but 5 in common with r1c3': the two ends of the pattern, which share no
    house, cannot be equal once v is gone."""

    TEXT = {"en": ("{a} {has} no value but {v} in common with {b}", "{a} {has} no value in common with {b}"),
            "fr": ("{a} {has} aucune valeur en commun avec {b} sauf le {v}",
                   "{a} {has} aucune valeur en commun avec {b}")}

    def __init__(self, geo: Geometry, left: int, right: int, v: int, shared: bool) -> None:
        self.left, self.right = Cells(geo, bits(left)), Cells(geo, bits(right))
        self.has = self.left.verb(en=("has", "have"), fr=("n'a", "n'ont"))
        self.v, self.shared = Value(v), shared

    def fmt(self, lang: str) -> str:
        text = self.TEXT.get(lang, self.TEXT["en"])[0 if self.shared else 1]
        return text.format(a=self.left.fmt(lang), has=self.has.fmt(lang), v=self.v.fmt(lang),
                           b=self.right.fmt(lang))


class _Name(Arg):
    def __init__(self, ny: bool) -> None:
        self.ny = ny

    def fmt(self, lang: str) -> str:
        if lang == "fr":
            return "Aile NY" if self.ny else "Aile Y"
        return "NY wing" if self.ny else "Y wing"


def find_y_wing(state: State, ctx: Context = NO_CONTEXT, /) -> Iterator[Explanation | Lead]:
    """y wing (|F| = 2) and ny wing (larger), smallest patterns first.

    Search bounds, with excess(X) = |candidates of X| - |X|: E11 and E22 share
    at most one value and E's values are the |E| = s12 + s11 + s22 values of
    F ∪ {v}, so excess(E11) + excess(E22) <= s12 + 1; v is a value of E not in
    the pivot, so excess(E12) <= s11 + s22 - 1. Subsets are visited by
    increasing excess so a bound ends a loop; patterns are then put back in
    the order of the plain search (configuration, pivot, E11, E22, v).

    A configuration reads only its two lines' and two boxes' intersections: the patterns of
    each group of configurations on the same four are kept in the solving session while the
    four intersections' candidates stay (``Session.part``); a step is built when asked for.
    """
    geo = state.geo
    found = y_patterns(state, session_of(state, ctx))
    xy = ctx.allows("xy wing")
    for pattern in found:
        if xy and _textbook_xy(state.cand, pattern[4], pattern[5], pattern[6], pattern[8]):
            yield lead(ctx, "xy wing", _xy_step, state, *pattern, eliminate=pattern[9].bit_count())
            continue
        yield lead(ctx, "ny wing" if (pattern[4] | pattern[5] | pattern[6]).bit_count() > 3 else "y wing",
                   _y_step, geo, state, *pattern, eliminate=pattern[9].bit_count())


def _textbook_xy(cand: list[int], m12: int, m11: int, m22: int, v: int) -> bool:
    """Whether a y wing is also the better-known XY wing (issue 41): three bivalue cells, the
    pivot {x, y} and the pincers {x, v} and {y, v}. Such a step is named and told as an XY wing
    (its two-case argument), not with the y wing's "no two could be equal" count."""
    if (m12 | m11 | m22).bit_count() != 3:
        return False
    pm, a, b = cand[m12.bit_length() - 1], cand[m11.bit_length() - 1], cand[m22.bit_length() - 1]
    z = 1 << (v - 1)
    return pm.bit_count() == 2 and not pm & z and a & z != 0 and b & z != 0 and (a | b) & ~z == pm \
        and a.bit_count() == b.bit_count() == 2 and a != b


def _xy_step(state: State, l1: int, b2: int, b1: int, l2: int, m12: int, m11: int, m22: int, union: int,
             v: int, removed: int) -> Explanation:
    """A y wing that is a textbook XY wing, built as the xy wing finder builds its steps (the
    same caption and roles), with the y wing's removals."""
    geo = state.geo
    pivot, a, b = m12.bit_length() - 1, m11.bit_length() - 1, m22.bit_length() - 1
    pm = state.cand[pivot]
    xa = (state.cand[a] & pm).bit_length()
    xb = (state.cand[b] & pm).bit_length()
    p1, p2, x, y = (a, b, xa, xb) if xa < xb else (b, a, xb, xa)
    return wing_step(state, "xy wing", XY_WING, pivot, [p1, p2], v, removed,
                     x=Value(x), y=Value(y), p1=Cells(geo, [p1]), p2=Cells(geo, [p2]))


def _y_step(geo: Geometry, state: State, l1: int, b2: int, b1: int, l2: int, m12: int, m11: int,
            m22: int, union: int, v: int, removed: int) -> Explanation:
    cells = m12 | m11 | m22
    k = cells.bit_count()
    ny = k > 3
    others = [x for x in values_of(union) if x != v]
    return Explanation(
        technique="ny wing" if ny else "y wing",
        eliminate=cands(geo, ((c, v) for c in bits(removed))),
        cells=cell_coords(geo, bits(cells)),
        houses=house_keys(geo, [l1, b2, l2, b1]),
        marked=cands(geo, ((c, v) for c in bits(cells) if state.cand[c] >> (v - 1) & 1)),
        **say(Y_WING, name=_Name(ny), v=Value(v), cells=Cells(geo, bits(cells)),
              values=Values(values_of(union)), pivot=Cells(geo, bits(m12)),
              has=Agree(m12.bit_count(), en=("has", "have"), fr=("n'a", "n'ont")),
              the_pivot=Agree(m12.bit_count(), en=("the pivot", "the pivot cells"), fr=("le pivot", "les pivots")),
              removed=Cells(geo, bits(removed)), k=k, f=k - 1, others=Values(others),
              targets=Cells(geo, bits(removed), last=OR), row_cells=Cells(geo, bits(m11 | m12)),
              box_cells=Cells(geo, bits(m12 | m22)), l1=House(geo, l1), b2=House(geo, b2),
              apart=_Apart(geo, m11, m22, v, bool(_union(state.cand, m11) & _union(state.cand, m22)))),
        detail=(("size", k - 1), ("value", v)) + (als_split(geo, state.cand, bits(cells)) if ny else ()),
        roles=(on_cells("pivot", geo, bits(m12)), on_cells("pincer", geo, bits(m11 | m22)),
               on_houses("house", geo, [l1, b2]),
               on_cands("z", geo, ((c, v) for c in bits(cells) if state.cand[c] >> (v - 1) & 1)))
        + wing_links(geo, state.cand, [*bits(m12), *bits(m11 | m22)], v),
    )


def _union(cand: list[int], cells: int) -> int:
    out = 0
    for c in bits(cells):
        out |= cand[c]
    return out


def find_w_wing(state: State, ctx: Context = NO_CONTEXT, /) -> Iterator[Explanation]:
    """w wing: pairs of equal bivalue cells linked through a house's w candidates."""
    geo = state.geo
    for a, b, v, w, h, ws, removed in w_hits(state):
        yield _w_step(geo, a, b, v, w, h, ws, removed)


def _w_step(geo: Geometry, a: int, b: int, v: int, w: int, h: int, ws: int, removed: int) -> Explanation:
    n = geo.n
    inside = list(bits(ws))
    # the house's w candidates: a strong link when there are two
    links = [link("strong", (inside[0] // n, inside[0] % n, w), (inside[1] // n, inside[1] % n, w))
             ] if len(inside) == 2 else []
    for end in (a, b):
        for x in inside:
            if geo.peer_mask[end] >> x & 1:
                links.append(link("weak", (end // n, end % n, w), (x // n, x % n, w)))
    return Explanation(
        technique="w wing",
        eliminate=cands(geo, ((c, v) for c in bits(removed))),
        cells=cell_coords(geo, (a, b)),
        houses=house_keys(geo, [h]),
        marked=cands(geo, ((c, w) for c in bits(ws))),
        **say(W_WING, a=Cells(geo, [a]), b=Cells(geo, [b]), v=Value(v), w=Value(w), house=House(geo, h),
              removed=Cells(geo, bits(removed)),
              see=Agree(removed.bit_count(), en=("sees", "see"), fr=("voit", "voient"))),
        detail=(("value", v), ("link", w)),
        roles=(on_cells("pincer", geo, (a, b)), on_houses("house", geo, [h]),
               on_cands("value", geo, [(c, w) for c in bits(ws)] + [(a, w), (b, w)]),
               on_cands("z", geo, [(a, v), (b, v)]), *links),
    )
