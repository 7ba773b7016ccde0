"""ALS XY wing and death blossom: almost locked sets joined by restricted common values.

Standard definition (HoDoKu's "ALS-XY-Wing"): ALSs A, B and C, pairwise
without a shared cell; C has a restricted common value x with A and another,
y, with B (``als.restricted_pairs``). C holds one value more than cells, so it
cannot lose both x and y: if x is true in C, A has no x and is locked on its
other values; if y is, B is. Either way A or B is locked, so a value z common
to A and B (neither x nor y) is true in one of them, and a z candidate seeing
every z of A and of B is false. Frames: C in ``cells``, A and B in
``cells_alt``; x and y in C in ``marked``, the z candidates of A and B in
``marked_alt``.

Death blossom (HoDoKu's, SudokuWiki's): a *stem* cell S and, for each of its
candidates v, a *petal*: an ALS, pairwise disjoint and without S, whose v
candidates all see S. Whatever S is, v, its petal loses v and is locked on
its other values; so a value z in every petal (not a candidate of S) is true
in one of them, and z goes from the cells seeing every z of every petal.
Frames: the stem in ``cells``, the petals in ``cells_alt``, each petal's v
in ``marked``, the z candidates in ``marked_alt``. Stems of three values are
searched (two are the ALS XY wing's), petals of at most ``MAX_SIZE`` cells.
"""
from __future__ import annotations

from collections.abc import Iterator

from explainer.explanation import Explanation, cands, cell_coords
from explainer.grid import Geometry, bits
from explainer.i18n import Cells, Value, Values, say
from explainer.state import State
from explainer.technique import NO_CONTEXT, Context

from .als import ALS, als_list, restricted_pairs

ALS_XY_WING = {
    "en": "ALS XY wing: the set {c} (holding only {vc}) shares the restricted value {x} with the set {a} "
          "(only {va}) and {y} with the set {b} (only {vb}). The set {c} cannot lose both {x} and {y}, so "
          "the set {a} loses {x} or the set {b} loses {y}, and that set is then locked on its other values: "
          "either way {z} is in {a} or in {b}, so {targets} (seeing every {z} of both) cannot be {z}.",
    "fr": "ALS XY wing : {c} (seulement {vc}) partage la valeur restreinte {x} avec {a} (seulement {va}) "
          "et {y} avec {b} (seulement {vb}). {c} ne peut pas perdre à la fois {x} et {y}, donc {a} perd "
          "{x} ou {b} perd {y}, et cet ensemble est alors verrouillé sur ses autres valeurs : dans tous "
          "les cas le {z} est dans {a} ou dans {b}, donc {targets} (qui voient tous les {z} des deux) ne "
          "peuvent pas valoir {z}.",
}


MAX_SIZE = 4  # cells per ALS: larger ones make the pair search quadratic in a long list


def find_als_xy_wing(state: State, ctx: Context = NO_CONTEXT, /) -> Iterator[Explanation]:
    """Middle ALSs C in list order (smallest first), then their partner pairs."""
    pos = state.pos
    sets = als_list(state)
    live_of: dict[int, int] = {}  # ALS index -> the values z of it that something could lose
    partners: dict[int, list[tuple[int, int, int]]] = {}
    for i, j, x in restricted_pairs(state, 1, MAX_SIZE):
        for mid, o in ((i, j), (j, i)):
            live = live_of.get(o)
            if live is None:
                other = sets[o]
                live = 0
                for z, seeing in other.sees.items():
                    if pos[z] & seeing:
                        live |= 1 << z
                live_of[o] = live
            live &= ~(1 << x)
            if live:
                partners.setdefault(mid, []).append((o, x, live))
    for ic in sorted(partners):
        plist = partners[ic]
        c = sets[ic]
        for k, (ia, x, live_a) in enumerate(plist):
            a = sets[ia]
            for ib, y, live_b in plist[k + 1:]:
                zs = live_a & live_b & ~(1 << y | 1 << x)
                if x == y or not zs:
                    continue
                b = sets[ib]
                if a.cells & b.cells:
                    continue
                for z in bits(zs):
                    elim = pos[z] & a.sees[z] & b.sees[z]
                    if elim:
                        yield _step(state, a, b, c, x, y, z, elim)


def _step(state: State, a: ALS, b: ALS, c: ALS, x: int, y: int, z: int, elim: int) -> Explanation:
    geo = state.geo
    return Explanation(
        technique="als xy wing",
        eliminate=cands(geo, [(cc, z + 1) for cc in bits(elim)]),
        cells=cell_coords(geo, bits(c.cells)), cells_alt=cell_coords(geo, bits(a.cells | b.cells)),
        marked=cands(geo, [(cc, v + 1) for v in (x, y) for cc in bits(c.where[v])]),
        marked_alt=cands(geo, [(cc, z + 1) for s in (a, b) for cc in bits(s.where[z])]),
        **say(ALS_XY_WING, a=Cells(geo, bits(a.cells)), b=Cells(geo, bits(b.cells)), c=Cells(geo, bits(c.cells)),
              va=Values(v + 1 for v in bits(a.values)), vb=Values(v + 1 for v in bits(b.values)),
              vc=Values(v + 1 for v in bits(c.values)), x=Value(x + 1), y=Value(y + 1), z=Value(z + 1),
              targets=Cells(geo, bits(elim))),
        detail=(("sizes", (a.size, b.size, c.size)), ("restricted", (x + 1, y + 1)), ("value", z + 1)),
    )


DEATH_BLOSSOM = {
    "en": "Death blossom: the stem {stem} holds only {stem_values}. {petals}. Whatever the stem is, the "
          "petal of that value loses it and is locked on its other values, so one petal holds {z}, and "
          "{targets} (seeing every {z} of the petals) cannot be {z}.",
    "fr": "Death blossom : la tige {stem} ne contient que {stem_values}. {petals}. Quelle que soit la "
          "valeur de la tige, le pétale de cette valeur la perd et se verrouille sur ses autres valeurs, "
          "donc un pétale contient {z}, et {targets} (qui voient tous les {z} des pétales) ne peuvent "
          "pas valoir {z}.",
}
PETAL = {
    "en": "for {v}, the petal {cells} (only {values}) has all its {v}s seeing the stem",
    "fr": "pour le {v}, le pétale {cells} (seulement {values}) a tous ses {v} qui voient la tige",
}


class _Petals(Values):
    """The petals read one after the other."""

    def __init__(self, geo: Geometry, petals: list[tuple[int, ALS]]) -> None:
        self.items = [say(PETAL, v=Value(v + 1), cells=Cells(geo, bits(a.cells)),
                          values=Values(x + 1 for x in bits(a.values))) for v, a in petals]

    def fmt(self, lang: str) -> str:
        texts = [item["text"] if lang == "en" else dict(item["translations"]).get(lang, item["text"])
                 for item in self.items]
        joined = ("; " if lang == "en" else " ; ").join(texts)
        return joined[:1].upper() + joined[1:]


def find_death_blossom(state: State, ctx: Context = NO_CONTEXT, /) -> Iterator[Explanation]:
    """Trivalue stems in cell order, then values z, then petal triples (smaller ALSs first)."""
    cand, pos = state.cand, state.pos
    sets = als_list(state)
    stems = 0
    for cell, m in enumerate(cand):
        if m.bit_count() == 3:
            stems |= 1 << cell
    if not stems:
        return
    petals: dict[tuple[int, int], list[ALS]] = {}
    for a in sets:
        if a.size > MAX_SIZE:
            break  # the list is sorted by size
        for v, seeing in a.sees.items():
            for s in bits(seeing & stems & pos[v]):
                petals.setdefault((s, v), []).append(a)
    for s in bits(stems):
        vs = list(bits(cand[s]))
        lists = [petals.get((s, v)) or [] for v in vs]
        if not all(lists):
            continue
        common = 0
        for a in lists[0]:
            common |= a.values
        for z in bits(common & ~cand[s]):
            zl = [[a for a in lst if a.values >> z & 1 and pos[z] & a.sees[z]] for lst in lists]
            if not all(zl):
                continue
            pz = pos[z]
            for a in zl[0]:
                m1 = pz & a.sees[z]
                for b in zl[1]:
                    if b.cells & a.cells:
                        continue
                    m2 = m1 & b.sees[z]
                    if not m2:
                        continue
                    for c in zl[2]:
                        if c.cells & (a.cells | b.cells):
                            continue
                        m3 = m2 & c.sees[z] & ~(1 << s)
                        if m3:
                            yield _blossom(state, s, list(zip(vs, (a, b, c), strict=True)), z, m3)


def _blossom(state: State, stem: int, petals: list[tuple[int, ALS]], z: int, elim: int) -> Explanation:
    geo = state.geo
    cells = 0
    for _, a in petals:
        cells |= a.cells
    return Explanation(
        technique="death blossom",
        eliminate=cands(geo, [(c, z + 1) for c in bits(elim)]),
        cells=cell_coords(geo, [stem]), cells_alt=cell_coords(geo, bits(cells)),
        marked=cands(geo, [(c, v + 1) for v, a in petals for c in bits(a.where[v])]),
        marked_alt=cands(geo, [(c, z + 1) for _, a in petals for c in bits(a.where[z])]),
        **say(DEATH_BLOSSOM, stem=Cells(geo, [stem]), stem_values=Values(v + 1 for v in bits(state.cand[stem])),
              petals=_Petals(geo, petals), z=Value(z + 1), targets=Cells(geo, bits(elim))),
        detail=(("stem", geo.rc(stem)), ("petals", tuple(a.size for _, a in petals)), ("value", z + 1)),
    )
