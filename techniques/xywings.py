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

from collections.abc import Iterable, Iterator, Sequence
from functools import partial
from itertools import groupby

from explainer.core.sepattern import peers_in_order
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


def _seeing_all(geo: Geometry, cells: Iterator[int] | list[int]) -> int:
    mask = geo.all_cells
    for c in cells:
        mask &= geo.peer_mask[c]
    return mask


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
    for pivot, a, b, z, removed in _xy_hits(state):
        yield _wing_step(state, False, pivot, a, b, z, removed)


def _xy_hits(state: State) -> Iterator[tuple[int, int, int, int, int]]:
    """(pivot, pincer, pincer, z, the cells losing z) of every xy wing: pivots in cell order, then
    pincer pairs in cell order."""
    geo = state.geo
    cand, pos, peer = state.cand, state.pos, geo.peer_mask
    bivalue = 0
    for c, m in enumerate(cand):
        if m.bit_count() == 2:
            bivalue |= 1 << c
    for pivot in bits(bivalue):
        pm = cand[pivot]
        near = [c for c in bits(peer[pivot] & bivalue)]
        for i, a in enumerate(near):
            ma = cand[a]
            share_a = ma & pm
            if ma == pm or not share_a:
                continue
            z_bit = ma & ~pm
            for b in near[i + 1:]:
                # {x, z} and {y, z}: b holds the pivot's other value and the same z
                if cand[b] == (pm & ~share_a) | z_bit:
                    z = z_bit.bit_length()
                    removed = pos[z - 1] & peer[a] & peer[b] & ~(1 << pivot)
                    if removed:
                        yield pivot, a, b, z, removed


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
    for pivot, a, b, z, removed in _xyz_hits(state):
        yield _wing_step(state, True, pivot, a, b, z, removed)


def _xyz_hits(state: State) -> Iterator[tuple[int, int, int, int, int]]:
    """(pivot, pincer, pincer, z, the cells losing z) of every xyz wing: trivalue pivots in cell
    order, then bivalue pincer pairs inside it."""
    geo = state.geo
    cand, pos, peer = state.cand, state.pos, geo.peer_mask
    pairs: dict[int, int] = {}  # two values -> cells holding exactly them
    for c, m in enumerate(cand):
        if m.bit_count() == 2:
            pairs[m] = pairs.get(m, 0) | 1 << c
    if len(pairs) < 2:
        return
    for pivot, pm in enumerate(cand):
        if pm.bit_count() != 3:
            continue
        pp = peer[pivot]
        # the three 2-value subsets of pm: drop one value at a time
        subs = [(pm & ~low, pairs.get(pm & ~low, 0) & pp) for low in (1 << v for v in bits(pm))]
        for i, (ma, cells_a) in enumerate(subs):
            if not cells_a:
                continue
            for mb, cells_b in subs[i + 1:]:
                if not cells_b:
                    continue
                z = (ma & mb).bit_length()
                zone = pos[z - 1] & pp
                if not zone:
                    continue
                for a in bits(cells_a):
                    za = zone & peer[a]
                    if not za:
                        continue
                    for b in bits(cells_b):
                        removed = za & peer[b]
                        if removed:
                            yield pivot, a, b, z, removed


def se_wing(xyz: bool, classic: bool) -> Finder:
    """Sudoku Explainer's XY-wing (4.2) or XYZ-wing (4.4) producer of one flavour.

    SE scans pivots in cell order, then a first pincer among the pivot's peers, then the second
    among the same peers; the peers' order is the flavour's (``sepattern.peers_in_order``):
    Sukaku Explainer's in increasing cell index, classic SE's block first, then row, then column.
    So a pivot's wings come in the order of their pincers' ranks in that order."""
    rank = [{c: i for i, c in enumerate(peers)} for peers in peers_in_order(classic)]

    def find_se(state: State, ctx: Context = NO_CONTEXT, /) -> Iterator[Explanation]:
        check_size(state)
        for pivot, hits in groupby(_xyz_hits(state) if xyz else _xy_hits(state), key=lambda h: h[0]):
            order = rank[pivot]
            for _, a, b, z, removed in sorted(hits, key=lambda h: sorted((order[h[1]], order[h[2]]))):
                yield rated(ctx, "xyz wing" if xyz else "xy wing", 4.4 if xyz else 4.2,
                            partial(_wing_step, state, xyz, pivot, a, b, z, removed),
                            eliminate=[(c, z) for c in bits(removed)])

    return find_se


def _union(table: list[int] | tuple[int, ...], mask: int) -> int:
    """The union of table[i] over the bits i of mask."""
    out = 0
    while mask:
        low = mask & -mask
        mask ^= low
        out |= table[low.bit_length() - 1]
    return out


def _wxyz_sets(state: State) -> Iterator[tuple[int, int, int, int, int]]:
    """(a, b, c, e, z bit) for four cells holding four values with exactly one unrestricted z.

    z is unrestricted, so two of its cells, a and b, do not see each other and
    share z only; the search starts from such pairs whose common peers still
    hold z (else nothing could be removed: ``_wxyz_leads``), then adds two cells
    keeping the union within four values (``_wxyz_within``), where any two cells
    that do not see each other share at most z (``_wxyz_pairs``). Each set comes
    once (the lowest such pair leads).
    """
    cand, peer = state.cand, state.geo.peer_mask
    small = two = three = 0
    for c, m in enumerate(cand):
        k = m.bit_count()
        if 2 <= k <= 4:
            small |= 1 << c
            if k == 2:
                two |= 1 << c
            elif k == 3:
                three |= 1 << c
    if small.bit_count() < 4:
        return
    sp = [p & small for p in state.pos]  # per value, the small cells holding it
    full = (1 << state.geo.n) - 1
    within: dict[int, int] = {}  # value set -> _wxyz_within's cells (an inline memo)
    seen: set[int] = set()
    for a, b, zb, targets, hold_a, hold_b in _wxyz_leads(state, small, two, three, sp):
        u2 = cand[a] | cand[b]  # three or four values (b shares only z with a, and fits)
        allowed = within.get(u2)
        if allowed is None:
            allowed = within[u2] = _wxyz_within(u2, small, sp, full)
        allowed &= ~(1 << a | 1 << b)
        # a cell not seeing a (b) shares at most z with it
        allowed &= (peer[a] | ~hold_a) & (peer[b] | ~hold_b)
        if not allowed & (allowed - 1):
            continue
        # a z cell must see a target (else z would stay there)
        zside = allowed & sp[zb.bit_length() - 1]
        if zside:
            allowed &= ~zside | _union(peer, targets)
            if not allowed & (allowed - 1):
                continue
        for c, e in _wxyz_pairs(cand, peer, allowed, zb, targets, u2):
            key = 1 << a | 1 << b | 1 << c | 1 << e
            if key not in seen:
                seen.add(key)
                q1, q2, q3, q4 = sorted((a, b, c, e))
                yield (q1, q2, q3, q4, zb)


def _wxyz_within(u: int, small: int, sp: list[int], full: int) -> int:
    """The small cells whose candidates lie in the value set ``u`` (four values), or within
    ``u`` plus one more value (three values: a cell holding two values outside ``u`` is out)."""
    out = full & ~u
    if u.bit_count() == 4:
        return small & ~_union(sp, out)
    once = twice = 0
    while out:
        low = out & -out
        out ^= low
        s = sp[low.bit_length() - 1]
        twice |= once & s
        once |= s
    return small & ~twice


def _wxyz_leads(state: State, small: int, two: int, three: int, sp: list[int]
                ) -> Iterator[tuple[int, int, int, int, int, int]]:
    """(a, b, z bit, the cells seeing both that hold z, the small cells holding a's other values,
    b's likewise): the pairs of cells not seeing each other that share z only, a before b."""
    cand, pos, peer = state.cand, state.pos, state.geo.peer_mask
    held: dict[int, int] = {}  # value set -> small cells holding any of them (an inline memo)
    # a and b share z only and hold at most four values together: |a| + |b| <= 5, so a leading
    # cell has two or three values and b two, or three beside a bivalue a
    partners = {2: two | three, 3: two}
    w_a = small
    while w_a:
        low_a = w_a & -w_a
        w_a ^= low_a
        a = low_a.bit_length() - 1
        ma, pa = cand[a], peer[a]
        fits = partners.get(ma.bit_count(), 0)
        if not fits:
            continue
        later = ~((low_a << 1) - 1)
        w_z = ma
        while w_z:
            zb = w_z & -w_z
            w_z ^= zb
            zi = zb.bit_length() - 1
            rest_a = ma ^ zb
            hold_a = held.get(rest_a)
            if hold_a is None:
                hold_a = held[rest_a] = _union(sp, rest_a)
            # b: after a, not seeing a, sharing only z with it
            w_b = sp[zi] & ~pa & later & ~hold_a & fits
            while w_b:
                low_b = w_b & -w_b
                w_b ^= low_b
                b = low_b.bit_length() - 1
                targets = pos[zi] & pa & peer[b]
                if not targets:
                    continue
                rest_b = cand[b] & ~zb
                hold_b = held.get(rest_b)
                if hold_b is None:
                    hold_b = held[rest_b] = _union(sp, rest_b)
                yield a, b, zb, targets, hold_a, hold_b


def _wxyz_pairs(cand: list[int], peer: Sequence[int], allowed: int, zb: int, targets: int, u2: int
                ) -> Iterator[tuple[int, int]]:
    """The cells c < e among ``allowed`` completing a lead pair of values ``u2`` to four values,
    seeing each other or sharing at most z, every z cell among them seeing a target."""
    more = []
    while allowed:
        low = allowed & -allowed
        allowed ^= low
        more.append(low.bit_length() - 1)
    for j, c in enumerate(more):
        mc, pc = cand[c], peer[c]
        # the z cells must all see some target
        tc = targets & pc if mc & zb else targets
        if not tc:
            continue
        u3 = u2 | mc
        for e in more[j + 1:]:
            me = cand[e]
            if (u3 | me).bit_count() != 4 or not (pc >> e & 1 or not mc & me & ~zb):
                continue
            if me & zb and not tc & peer[e]:
                continue
            yield c, e


def find_wxyz_wing(state: State, ctx: Context = NO_CONTEXT, /) -> Iterator[Explanation]:
    """wxyz wing: four cells, four values, one unrestricted value z."""
    geo = state.geo
    cand, pos, peer = state.cand, state.pos, geo.peer_mask
    for a, b, c, e, free in _wxyz_sets(state):
        quad = (a, b, c, e)
        zcells = [x for x in quad if cand[x] & free]
        z = free.bit_length()
        removed = pos[z - 1] & _seeing_all(geo, zcells)
        if not removed:
            continue
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
