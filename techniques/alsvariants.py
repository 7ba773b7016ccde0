"""Every ALS-XZ, ALS XY wing, ALS chain and death blossom, variants included (``steps``).

The engine's ALS finders (``als``, ``alschains``) stop at small sets and report
one removed value per step, enough to find the next step cheaply. Listing every
step of a position (``explain-sudoku steps``, HoDoKu's "find all") asks for the
variants HoDoKu's finders allow (its options decide what is allowed; its
library's variant suffixes ``-1`` / ``-2`` select them):

- sets of any size, and every removed value of one pattern in one step;
- ALS-XZ *doubly linked* (two restricted commons x and y, the sets sharing no
  cell): each set is then locked on its values other than x and y, whichever
  holds x; so x and y go from every cell seeing all of them in both sets, and
  each other value of a set from every cell seeing all of it in that set
  (HoDoKu's type 2);
- ALS XY wings and ALS chains whose sets *overlap* (HoDoKu's "allow ALS
  overlap", type 2): sound as long as no restricted common lies in a shared
  cell, which the restricted-common test itself ensures (a candidate seeing
  every x of the other set cannot be one of them);
- death blossoms with stems of two or more candidates, petals of any size that
  may *overlap*, and a removed value z that is also a stem candidate (then the
  stem itself is z's place when it is z, and the target must see it too).

A restricted common x of two sets A and B: every x of B sees every x of A (so
at most one of them has x). Every step records ``overlap`` and, for ALS-XZ,
``linked`` (1 or 2) in its detail. Only listing every step runs these finders (the
records' ``Technique.every``): the engine never pays for them.
"""
from __future__ import annotations

from collections.abc import Iterator
from functools import cache

from explainer.model.explanation import Explanation, cands, cell_coords
from explainer.model.grid import Geometry, bits, value_char
from explainer.model.i18n import Cells, Value, Values, Words, say, sentence
from explainer.model.roles import Role, on_cands, on_cells, set_link, set_roles
from explainer.model.state import State
from explainer.model.technique import NO_CONTEXT, Context

from .als import ALS, als_list, alternate_cells
from .alschains import CHAIN_LINK, CHAIN_SET, petal_roles, set_name

MAX_CHAIN = 8  # sets in an ALS chain
PATHS_PER_STATE = 2  # paths kept to each (set, linking value) of an ALS chain search
MAX_CHAIN_NODES = 400_000  # paths one ALS chain listing may push (a bound for dense grids)

XZ = {
    "en": "ALS-XZ{kind}: {a} {hold_a} only {va} and {b} {hold_b} only {vb}, one value more than cells each. "
          "{why} So {targets}.",
    "fr": "EPV-XZ{kind} : {a} ne {hold_a} que {va} et {b} que {vb}, une valeur de plus que de cases chacun. "
          "{why} Donc {targets}.",
}
XZ_SINGLE = {
    "en": "Every {x} of one sees every {x} of the other, so at most one of them has {x}, and the other is "
          "then locked on its other values: either way one of them holds each of {zs}.",
    "fr": "Chaque {x} de l'un voit chaque {x} de l'autre, donc au plus l'un des deux a {x}, et l'autre est "
          "alors verrouillé sur ses autres valeurs : dans tous les cas l'un d'eux contient chacun de {zs}.",
}
XZ_DOUBLE = {
    "en": "Both {x} and {y} are restricted commons (each candidate of one sees each of the other in the other "
          "set): a set without {x} is locked and holds {y}, so the other has no {y}, is locked and holds {x}. "
          "So {x} and {y} are each in one of the sets, and each set holds all its other values.",
    "fr": "{x} et {y} sont tous deux communs restreints (chacun de leurs candidats dans un ensemble voit ceux "
          "de l'autre) : un ensemble sans {x} est verrouillé et contient {y}, donc l'autre n'a pas de {y}, "
          "est verrouillé et contient {x}. Donc {x} et {y} sont chacun dans l'un des ensembles, et chaque "
          "ensemble contient toutes ses autres valeurs.",
}
DOUBLY = {"en": " (doubly linked)", "fr": " (doublement lié)"}
XY_WING = {
    "en": "ALS XY wing: the set {c} (holding only {vc}) shares the restricted value {x} with the set {a} "
          "(only {va}) and {y} with the set {b} (only {vb}){overlap}. The set {c} cannot lose both {x} and {y}, "
          "so the set {a} loses {x} or the set {b} loses {y}, and that set is then locked on its other values: "
          "either way each of {zs} is in {a} or in {b}, so {targets}.",
    "fr": "Aile XY d'EPV : l'ensemble {c} (seulement {vc}) partage la valeur restreinte {x} avec l'ensemble "
          "{a} (seulement {va}) et {y} avec l'ensemble {b} (seulement {vb}){overlap}. L'ensemble {c} ne peut "
          "pas perdre à la fois {x} et {y}, donc l'ensemble {a} perd {x} ou l'ensemble {b} perd {y}, et cet "
          "ensemble est alors verrouillé sur ses autres valeurs : dans tous les cas chacun de {zs} est dans "
          "{a} ou dans {b}, donc {targets}.",
}
OVERLAP = {"en": " (the sets share cells, but no restricted value lies in them)",
           "fr": " (les ensembles partagent des cases, mais aucune valeur restreinte n'y est)"}
CHAIN = {
    "en": "ALS chain: {chain}{overlap}. Each set holds one value more than cells, and each linking value is a "
          "restricted common. If {a1} had none of a removed value, it would be locked on its other values and "
          "hold {x1}; then each next set would lose the value before it and hold the next, until {an} holds "
          "it. Either way each of {zs} is in {a1} or in {an}, so {targets}.",
    "fr": "Chaîne d'EPV : {chain}{overlap}. Chaque ensemble contient une valeur de plus que de cases, et chaque "
          "valeur de liaison est restreinte. Si {a1} n'avait pas une valeur retirée, il serait verrouillé "
          "sur ses autres valeurs et contiendrait {x1} ; alors chaque ensemble suivant perdrait la valeur "
          "d'avant et contiendrait la suivante, jusqu'à {an} qui la contiendrait. Dans tous les cas chacun "
          "de {zs} est dans {a1} ou dans {an}, donc {targets}.",
}
BLOSSOM = {
    "en": "Death blossom: the stem {stem} holds only {stem_values}. {petals}{overlap}. Whatever the stem is, "
          "the petal of that value loses it and is locked on its other values, so {z} is in a petal{or_stem}, "
          "and {targets}.",
    "fr": "Fleur mortelle : la tige {stem} ne contient que {stem_values}. {petals}{overlap}. Quelle que soit la "
          "valeur de la tige, le pétale de cette valeur la perd et se verrouille sur ses autres valeurs, donc "
          "{z} est dans un pétale{or_stem}, et {targets}.",
}
PETAL = {"en": "for {v}, the petal {cells} (only {values})",
         "fr": "pour le {v}, le pétale {cells} (seulement {values})"}
PETALS_OVERLAP = {"en": " (petals may share cells)", "fr": " (les pétales peuvent partager des cases)"}
OR_STEM = {"en": " or in the stem", "fr": " ou dans la tige"}
CANNOT = {"en": "{cells} cannot be {v}", "fr": "{cells} ne {can} pas valoir {v}"}
CAN_FR = ("peut", "peuvent")
AND = {"en": "; ", "fr": " ; "}


class _Table:
    """The ALSs of a state and their restricted commons, overlapping sets included.

    ``rc[i]``: ALS index j -> mask of the values restricted common to i and j. A value x is
    one when every x of j lies in the cells seeing every x of i (``ALS.sees``), which also
    keeps every x out of the cells the two share."""

    def __init__(self, state: State) -> None:
        self.sets = sets = als_list(state)
        rc: list[dict[int, int]] = [{} for _ in sets]
        for x in range(state.geo.n):
            groups: dict[int, list[int]] = {}
            for i, a in enumerate(sets):
                w = a.where.get(x)
                if w:
                    groups.setdefault(w, []).append(i)
            keys = list(groups)
            cp = _common_peers(state.geo)
            for k, w1 in enumerate(keys):
                s1 = cp(w1)
                for w2 in keys[k + 1:]:
                    if w2 & ~s1:
                        continue
                    for i in groups[w1]:
                        for j in groups[w2]:
                            if sets[i].cells & ~sets[j].cells and sets[j].cells & ~sets[i].cells:
                                rc[i][j] = rc[i].get(j, 0) | 1 << x
                                rc[j][i] = rc[j].get(i, 0) | 1 << x
        self.rc = rc
        self._outs: dict[tuple[int, int], list[tuple[int, int, int]]] = {}
        self._holding: dict[int, list[tuple[int, int]]] = {}

    def outs(self, k: int, xin: int) -> list[tuple[int, int, int]]:
        """(set, linking value, its cells) of each link leaving set k by a value other than xin."""
        out = self._outs.get((k, xin))
        if out is None:
            out = self._outs[k, xin] = [(m, y, self.sets[m].cells) for m, mask in self.rc[k].items()
                                        for y in bits(mask & ~(1 << xin))]
        return out

    def holding(self, state: State, z: int) -> list[tuple[int, int]]:
        """(set, the z candidates seeing all its z) of each set holding z that some candidate sees."""
        out = self._holding.get(z)
        if out is None:
            out = self._holding[z] = [(i, a.sees[z] & state.pos[z]) for i, a in enumerate(self.sets)
                                      if z in a.sees and a.sees[z] & state.pos[z]]
        return out


@cache
def _common_peers(geo: Geometry) -> _Peers:
    return _Peers(geo)


class _Peers:
    """Cells seeing every cell of a mask, memoised per grid size."""

    def __init__(self, geo: Geometry) -> None:
        self.geo = geo
        self.known: dict[int, int] = {}

    def __call__(self, mask: int) -> int:
        out = self.known.get(mask)
        if out is None:
            out = self.geo.all_cells
            for c in bits(mask):
                out &= self.geo.peer_mask[c]
            if len(self.known) < 1 << 16:
                self.known[mask] = out
        return out


def _table(state: State) -> _Table:
    return state.cached("alsvariants", _Table)


def _removed(state: State, zs: int, *sets: ALS, outside: int = 0) -> dict[int, int]:
    """Per value z of ``zs``: the z candidates seeing every z of each set, outside ``outside``."""
    out = {}
    for z in bits(zs):
        m = state.pos[z] & ~outside
        for a in sets:
            m &= a.sees.get(z, 0)
        if m:
            out[z] = m
    return out


# ---- ALS-XZ --------------------------------------------------------------------------------

def every_xz(state: State, ctx: Context = NO_CONTEXT, /) -> Iterator[Explanation]:
    """Every pair of sets with a restricted common and something to remove: singly linked
    (overlapping sets allowed), doubly linked (sets sharing no cell)."""
    t = _table(state)
    sets = t.sets
    for i, row in enumerate(t.rc):
        a = sets[i]
        for j, m in row.items():
            if j < i:
                continue
            b = sets[j]
            overlap = bool(a.cells & b.cells)
            common = a.values & b.values
            if m & (m - 1) and not overlap:
                removed = _removed(state, common & ~m | m, a, b)
                for v in (a, b):  # each set holds its values other than x and y
                    for z, cells in _removed(state, v.values & ~m, v).items():
                        removed[z] = removed.get(z, 0) | cells
                if removed:
                    yield _xz_step(state, a, b, m, removed, overlap)
                continue
            for x in bits(m):
                removed = _removed(state, common & ~(1 << x), a, b, outside=a.cells | b.cells)
                if removed:
                    yield _xz_step(state, a, b, 1 << x, removed, overlap)


def _targets(geo: Geometry, removed: dict[int, int]) -> Words:
    by_lang = {}
    for lang in ("en", "fr"):
        parts = [CANNOT[lang].format(cells=Cells(geo, bits(m)).fmt(lang), v=value_char(z + 1),
                                     can=CAN_FR[m.bit_count() > 1])
                 for z, m in sorted(removed.items())]
        by_lang[lang] = AND[lang].join(parts)
    return Words(**by_lang)


def _elims(geo: Geometry, removed: dict[int, int]) -> tuple[tuple[int, int, int], ...]:
    return cands(geo, [(c, z + 1) for z, m in removed.items() for c in bits(m)])


def _z_role(geo: Geometry, removed: dict[int, int], sets: tuple[ALS, ...] | list[ALS]) -> Role:
    """The removed values where they lie in the sets that prove them gone."""
    return on_cands("z", geo, [(c, z + 1) for z in sorted(removed) for a in sets for c in bits(a.where.get(z, 0))])


def _zs(removed: dict[int, int]) -> Values:
    return Values(z + 1 for z in sorted(removed))


def _z_detail(removed: dict[int, int]) -> tuple[tuple[str, object], ...]:
    zs = tuple(z + 1 for z in sorted(removed))
    return (("value", zs[0]),) if len(zs) == 1 else (("values", zs),)


def _xz_step(state: State, a: ALS, b: ALS, m: int, removed: dict[int, int], overlap: bool) -> Explanation:
    geo = state.geo
    xs = [x for x in bits(m)]
    double = len(xs) > 1
    if double:
        why = say(XZ_DOUBLE, x=Value(xs[0] + 1), y=Value(xs[1] + 1))
    else:
        why = say(XZ_SINGLE, x=Value(xs[0] + 1), zs=_zs(removed))
    ca, cb = Cells(geo, bits(a.cells)), Cells(geo, bits(b.cells))
    return Explanation(
        technique="als",
        eliminate=_elims(geo, removed),
        cells=cell_coords(geo, bits(a.cells)), cells_alt=cell_coords(geo, bits(b.cells)),
        marked=cands(geo, [(c, x + 1) for x in xs for c in bits(a.where[x])]),
        marked_alt=cands(geo, [(c, x + 1) for x in xs for c in bits(b.where[x])]),
        **say(XZ, kind=Words(**{lang: DOUBLY[lang] if double else "" for lang in ("en", "fr")}),
              a=ca, b=cb, hold_a=ca.verb(en=("holds", "hold"), fr=("contient", "contiennent")),
              hold_b=cb.verb(en=("holds", "hold"), fr=("contient", "contiennent")),
              va=Values(v + 1 for v in bits(a.values)), vb=Values(v + 1 for v in bits(b.values)),
              why=Words(en=why["text"], **dict(why["translations"])), targets=_targets(geo, removed)),
        detail=(("sizes", (a.size, b.size)), ("restricted", tuple(x + 1 for x in xs) if double else xs[0] + 1),
                ("linked", len(xs)), ("overlap", overlap)) + _z_detail(removed),
        roles=(set_roles(geo, 0, a.cells), set_roles(geo, 1, b.cells),
               on_cands("restricted-common", geo, [(c, x + 1) for x in xs for c in bits(a.where[x] | b.where[x])]),
               _z_role(geo, removed, (a, b)), *(set_link(geo, x + 1, a.where[x], b.where[x]) for x in xs)),
    )


# ---- ALS XY wing --------------------------------------------------------------------------------

def every_xy_wing(state: State, ctx: Context = NO_CONTEXT, /) -> Iterator[Explanation]:
    """Every middle set C with two partners A (restricted x) and B (restricted y, not x)
    whose common values something sees in both; sets sharing no cell first."""
    t = _table(state)
    sets = t.sets
    later = []
    for ic, row in enumerate(t.rc):
        c = sets[ic]
        partners = [(j, x) for j, m in row.items() for x in bits(m)]
        for k, (ia, x) in enumerate(partners):
            a = sets[ia]
            for ib, y in partners[k + 1:]:
                if ib == ia or x == y:
                    continue
                b = sets[ib]
                zs = a.values & b.values & ~(1 << x | 1 << y)
                if not zs:
                    continue
                removed = _removed(state, zs, a, b, outside=a.cells | b.cells)
                if not removed:
                    continue
                overlap = bool(a.cells & b.cells or a.cells & c.cells or b.cells & c.cells)
                step = _wing_step(state, a, b, c, x, y, removed, overlap)
                if overlap:
                    later.append(step)
                else:
                    yield step
    yield from later


def _wing_step(state: State, a: ALS, b: ALS, c: ALS, x: int, y: int, removed: dict[int, int],
               overlap: bool) -> Explanation:
    geo = state.geo
    return Explanation(
        technique="als xy wing",
        eliminate=_elims(geo, removed),
        cells=cell_coords(geo, bits(c.cells)), cells_alt=cell_coords(geo, bits(a.cells | b.cells)),
        marked=cands(geo, [(cc, v + 1) for v in (x, y) for cc in bits(c.where[v])]),
        marked_alt=cands(geo, [(cc, z + 1) for z in removed for s in (a, b) for cc in bits(s.where[z])]),
        **say(XY_WING, a=Cells(geo, bits(a.cells)), b=Cells(geo, bits(b.cells)), c=Cells(geo, bits(c.cells)),
              va=Values(v + 1 for v in bits(a.values)), vb=Values(v + 1 for v in bits(b.values)),
              vc=Values(v + 1 for v in bits(c.values)), x=Value(x + 1), y=Value(y + 1), zs=_zs(removed),
              overlap=Words(**{lang: OVERLAP[lang] if overlap else "" for lang in ("en", "fr")}),
              targets=_targets(geo, removed)),
        detail=(("sizes", (a.size, b.size, c.size)), ("restricted", (x + 1, y + 1)),
                ("overlap", overlap)) + _z_detail(removed),
        roles=(set_roles(geo, 0, c.cells), set_roles(geo, 1, a.cells), set_roles(geo, 2, b.cells),
               on_cands("restricted-common", geo, [(cc, x + 1) for cc in bits(a.where[x] | c.where[x])]
                        + [(cc, y + 1) for cc in bits(b.where[y] | c.where[y])]),
               _z_role(geo, removed, (a, b)),
               set_link(geo, x + 1, a.where[x], c.where[x]), set_link(geo, y + 1, c.where[y], b.where[y])),
    )


# ---- ALS chains -------------------------------------------------------------------------------

def every_chain(state: State, ctx: Context = NO_CONTEXT, /) -> Iterator[Explanation]:
    """ALS chains of 3 to ``MAX_CHAIN`` sets, per first set, shortest first: sets sharing no
    cell, then sets that may overlap; each (first set, last set, removals) once. The search
    stops after ``MAX_CHAIN_NODES`` paths (dense grids)."""
    t = _table(state)
    done: set[tuple[object, ...]] = set()
    budget = [MAX_CHAIN_NODES]
    for overlap in (False, True):
        for i in range(len(t.sets)):
            for step, key in _chains_from(state, t, i, overlap, budget):
                if key not in done:
                    done.add(key)
                    yield step
            if budget[0] < 0:
                return


def _chains_from(state: State, t: _Table, first: int, overlap: bool,
                 budget: list[int]) -> Iterator[tuple[Explanation, tuple[object, ...]]]:
    """Per first linking value x1, breadth first over (set, value it was reached by) from
    ``first`` (the value removed must differ from x1, so each x1 is searched apart)."""
    a1 = t.sets[first]
    targets = {z: state.pos[z] & s for z, s in a1.sees.items() if state.pos[z] & s}
    if not targets:
        return
    # the sets a chain could end at, with the values z they would remove (a target sees every z)
    ends: dict[int, int] = {}
    for z, m in targets.items():
        for i, seen in t.holding(state, z):
            if seen & m and i != first:
                ends[i] = ends.get(i, 0) | 1 << z
    if not ends:
        return
    firsts = 0
    for m in t.rc[first].values():
        firsts |= m
    for x1 in bits(firsts):
        yield from _chains_by(state, t, first, x1, overlap, ends, budget)


def _chains_by(state: State, t: _Table, first: int, x1: int, overlap: bool, ends: dict[int, int],
               budget: list[int]) -> Iterator[tuple[Explanation, tuple[object, ...]]]:
    sets = t.sets
    a1 = sets[first]
    # a path: (set, value it was reached by, cells used, sets taken, the path it extends);
    # up to PATHS_PER_STATE paths reach each (set, value), so one path's cells do not hide
    # another's continuation
    reached: dict[tuple[int, int], int] = {}
    front: list[_Link] = []
    for j, m in t.rc[first].items():
        if m >> x1 & 1 and (overlap or not sets[j].cells & a1.cells):
            reached[j, x1] = 1
            front.append((j, x1, a1.cells | sets[j].cells, 1 << first | 1 << j, None))
    for _ in range(3, MAX_CHAIN + 1):
        out: list[_Link] = []
        for entry in front:
            k, xin, used, taken, _ = entry
            for m_, y, cells in t.outs(k, xin):
                if taken >> m_ & 1 or not overlap and cells & used:
                    continue
                count = reached.get((m_, y), 0)
                if count >= PATHS_PER_STATE:
                    continue
                reached[m_, y] = count + 1
                out.append((m_, y, used | cells, taken | 1 << m_, entry))
        budget[0] -= len(out)
        for entry in out:
            m_, y = entry[0], entry[1]
            zs = ends.get(m_, 0) & ~(1 << y | 1 << x1)
            if not zs:
                continue
            last = sets[m_]
            removed = _removed(state, zs, a1, last, outside=a1.cells | last.cells)
            if removed:
                path = _chain_path(entry)
                chain = [a1] + [sets[j] for j, _ in path]
                rcs = [x for _, x in path]
                shared = any(chain[p].cells & chain[q].cells for p in range(len(chain)) for q in range(p))
                key: tuple[object, ...] = (first, m_, *sorted(removed.items()))
                yield _chain_step(state, chain, rcs, removed, shared), key
        front = out
        if not front or budget[0] < 0:
            return


_Link = tuple[int, int, int, int, "_Link | None"]


def _chain_path(end: _Link) -> list[tuple[int, int]]:
    """(set, linking value into it) from the second set to the last."""
    out = []
    node: _Link | None = end
    while node is not None:
        out.append((node[0], node[1]))
        node = node[4]
    out.reverse()
    return out




def _chain_step(state: State, chain: list[ALS], rcs: list[int], removed: dict[int, int],
                overlap: bool) -> Explanation:
    geo = state.geo
    first, last = chain[0], chain[-1]
    odd, even = alternate_cells(chain)
    read = {}
    for lang in ("en", "fr"):
        out = CHAIN_SET[lang].format(cells=set_name(geo, first.cells),
                                     values=Values(v + 1 for v in bits(first.values)).fmt(lang))
        for a, x in zip(chain[1:], rcs, strict=True):
            out += CHAIN_LINK[lang].format(x=value_char(x + 1)) + CHAIN_SET[lang].format(
                cells=set_name(geo, a.cells), values=Values(v + 1 for v in bits(a.values)).fmt(lang))
        read[lang] = out
    return Explanation(
        technique="als chain",
        eliminate=_elims(geo, removed),
        cells=cell_coords(geo, bits(odd)), cells_alt=cell_coords(geo, bits(even & ~odd)),
        marked=cands(geo, [(c, x + 1) for k, x in enumerate(rcs) for a in chain[k:k + 2] for c in bits(a.where[x])]),
        marked_alt=cands(geo, [(c, z + 1) for z in removed for a in (first, last) for c in bits(a.where[z])]),
        **say(CHAIN, chain=Words(**read), a1=set_name(geo, first.cells), an=set_name(geo, last.cells),
              x1=Value(rcs[0] + 1), zs=_zs(removed), targets=_targets(geo, removed),
              overlap=Words(**{lang: OVERLAP[lang] if overlap else "" for lang in ("en", "fr")})),
        detail=(("sizes", tuple(a.size for a in chain)), ("restricted", tuple(x + 1 for x in rcs)),
                ("overlap", overlap)) + _z_detail(removed),
        roles=(*(set_roles(geo, k, a.cells) for k, a in enumerate(chain)),
               on_cands("restricted-common", geo, [(c, x + 1) for k, x in enumerate(rcs) for a in chain[k:k + 2]
                                                   for c in bits(a.where[x])]),
               _z_role(geo, removed, (first, last)),
               *(set_link(geo, x + 1, chain[k].where[x], chain[k + 1].where[x]) for k, x in enumerate(rcs))),
    )


# ---- death blossom ---------------------------------------------------------------------------

def every_death_blossom(state: State, ctx: Context = NO_CONTEXT, /) -> Iterator[Explanation]:
    """Every stem (two candidates or more, fewest first), per removed value z, the petal
    choices with something to remove, each set of removals once per stem; petals sharing no
    cell first. A pattern removing several values is one step."""
    geo = state.geo
    cand, pos = state.cand, state.pos
    sets = als_list(state)
    for s in sorted(range(len(cand)), key=lambda c: (cand[c].bit_count(), c)):
        m = cand[s]
        if m.bit_count() < 2:
            continue
        vs = list(bits(m))
        petals = [[i for i, a in enumerate(sets) if v in a.where and not a.cells >> s & 1
                   and not a.where[v] & ~geo.peer_mask[s]] for v in vs]
        if not all(petals):
            continue
        found: dict[tuple[int, ...], dict[int, int]] = {}  # petals -> every value they remove
        for z in range(geo.n):
            # a petal of value v must hold z unless v is z (then the stem is z's place)
            lists = [[i for i in lst if z in sets[i].where] if v != z else lst
                     for v, lst in zip(vs, petals, strict=True)]
            if not all(lists):
                continue
            start = pos[z] & ~(1 << s)
            if z in vs:
                start &= geo.peer_mask[s]
            skip = vs.index(z) if z in vs else -1
            for disjoint in (True, False):
                for picked, _ in _petals(sets, lists, z, start, disjoint, skip):
                    key = tuple(picked)
                    if key not in found:
                        found[key] = _blossom_removes(state, s, [sets[i] for i in key])
        plain: list[Explanation] = []
        later: list[Explanation] = []
        done: set[tuple[tuple[int, int], ...]] = set()
        for chosen, by_z in found.items():
            what = tuple(sorted(by_z.items()))
            if what in done:
                continue
            done.add(what)
            flowers = [sets[i] for i in chosen]
            overlap = any(flowers[p].cells & flowers[q].cells or chosen[p] == chosen[q]
                          for p in range(len(flowers)) for q in range(p))
            (later if overlap else plain).append(_blossom(state, s, flowers, by_z, overlap))
        yield from plain
        yield from later


def _blossom_removes(state: State, stem: int, petals: list[ALS]) -> dict[int, int]:
    """Per value z: what the stem and these petals (one per stem value, in order) remove."""
    geo = state.geo
    vs = list(bits(state.cand[stem]))
    cells = 0
    for a in petals:
        cells |= a.cells
    out = {}
    for z in range(geo.n):
        m = state.pos[z] & ~cells & ~(1 << stem)
        if z in vs:
            m &= geo.peer_mask[stem]
        for v, a in zip(vs, petals, strict=True):
            if v == z:
                continue  # the stem is z when it is z: this petal's z cells do not matter
            m &= a.sees.get(z, 0)
            if not m:
                break
        if m:
            out[z] = m
    return out


def _petals(sets: list[ALS], lists: list[list[int]], z: int, start: int,
            disjoint: bool, skip: int) -> Iterator[tuple[list[int], int]]:
    """Petal choices, one per stem value, each keeping some target z that sees every z of the
    petals chosen so far (outside them); a state (petals chosen, targets left) is explored
    once, so the search is bounded by the distinct target sets, not the petal choices.
    ``disjoint``: petals share no cell.
    """
    seen: set[tuple[int, int]] = set()
    stack: list[tuple[list[int], int, int]] = [([], start, 0)]
    while stack:
        chosen, targets, cells = stack.pop()
        k = len(chosen)
        if k == len(lists):
            yield chosen, targets
            continue
        # one set may be the petal of two stem values (it then loses either), when petals may overlap
        for i in lists[k]:
            a = sets[i]
            if disjoint and a.cells & cells:
                continue
            left = targets & ~a.cells
            if k != skip:  # the petal of the stem's own z (``skip``) may hold z anywhere
                left &= a.sees[z]
            if left and (k + 1, left) not in seen:
                seen.add((k + 1, left))
                stack.append((chosen + [i], left, cells | a.cells))


def _blossom(state: State, stem: int, petals: list[ALS], removed: dict[int, int], overlap: bool) -> Explanation:
    geo = state.geo
    vs = list(bits(state.cand[stem]))
    cells = 0
    for a in petals:
        cells |= a.cells
    zs = sorted(removed)
    in_stem = any(state.cand[stem] >> z & 1 for z in zs)
    words = {}
    for lang in ("en", "fr"):
        text = ("; " if lang == "en" else " ; ").join(
            PETAL[lang].format(v=value_char(v + 1), cells=set_name(geo, a.cells),
                               values=Values(x + 1 for x in bits(a.values)).fmt(lang))
            for v, a in zip(vs, petals, strict=True))
        words[lang] = sentence(text)
    return Explanation(
        technique="death blossom",
        eliminate=_elims(geo, removed),
        cells=cell_coords(geo, [stem]), cells_alt=cell_coords(geo, bits(cells)),
        marked=cands(geo, [(c, v + 1) for v, a in zip(vs, petals, strict=True) for c in bits(a.where[v])]),
        marked_alt=cands(geo, [(c, z + 1) for z in zs for a in petals for c in bits(a.where.get(z, 0))]),
        **say(BLOSSOM, stem=Cells(geo, [stem]), stem_values=Values(v + 1 for v in vs), petals=Words(**words),
              z=_zs(removed), targets=_targets(geo, removed),
              overlap=Words(**{lang: PETALS_OVERLAP[lang] if overlap else "" for lang in ("en", "fr")}),
              or_stem=Words(**{lang: OR_STEM[lang] if in_stem else "" for lang in ("en", "fr")})),
        detail=(("stem", geo.rc(stem)), ("petals", tuple(a.size for a in petals)), ("overlap", overlap))
        + _z_detail(removed),
        roles=(on_cells("stem", geo, [stem]),
               *(r for k, (v, a) in enumerate(zip(vs, petals, strict=True)) for r in petal_roles(geo, stem, k, v, a)),
               _z_role(geo, removed, petals)),
    )
