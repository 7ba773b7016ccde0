"""The wings' pattern searches, each with a compiled (``_wings.c``) and a pure-Python path.

The finders of ``techniques.wings`` and ``techniques.xywings`` ask these for the patterns of a
state and build a step (texts, roles, proof) only for the one the engine takes; most calls
find nothing the engine takes, so the search is the part worth compiling. Each function
returns compact leads (cells, values, the cells losing a candidate as a cell mask) in the
order the finder yields them, the same on both paths, bit for bit: tests/core/test_wings.py
checks this on real and random states of every size. The pure path is a generator where the
finder reads lazily (the engine stops reading a finder after a few steps), the compiled path
a list (a whole search costs less in C than building one step).

- ``xy_hits``, ``xyz_hits``: ``(pivot, pincer, pincer, z, removed)``;
- ``wxyz_hits``: ``(a, b, c, e, z, removed)``, the four cells in cell order;
- ``w_hits``: ``(a, b, v, w, house, the house's w cells, removed)``;
- ``y_patterns``: ``(l1, b2, b1, l2, m12, m11, m22, values, v, removed)`` of the y and ny
  wings, sorted (pattern size, configuration, pivot, E11, E22, v).
"""
from __future__ import annotations

from collections.abc import Iterable, Iterator, Sequence
from functools import cache
from typing import Any

from explainer.model.grid import Geometry, bits, geometry, values_of
from explainer.model.session import Session
from explainer.model.state import State

from . import load

_C = load("_wings")

Hit = tuple[int, int, int, int, int]
WxyzHit = tuple[int, int, int, int, int, int]
WHit = tuple[int, int, int, int, int, int, int]
YPattern = tuple[int, int, int, int, int, int, int, int, int, int]


def compiled() -> bool:
    """True when the compiled searches are in use."""
    return _C is not None


def _union(table: Sequence[int], mask: int) -> int:
    """The union of table[i] over the bits i of mask."""
    out = 0
    while mask:
        low = mask & -mask
        mask ^= low
        out |= table[low.bit_length() - 1]
    return out


# ---- xy wing and xyz wing ---------------------------------------------------------------------

def xy_hits(state: State) -> Iterable[Hit]:
    """(pivot, pincer, pincer, z, the cells losing z) of every xy wing: pivots in cell order, then
    pincer pairs in cell order."""
    if _C is not None:
        return _C.xy_hits(state.geo.n, state.cand)  # type: ignore[no-any-return]
    return _xy_hits(state)


def _xy_hits(state: State) -> Iterator[Hit]:
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


def xyz_hits(state: State) -> Iterable[Hit]:
    """(pivot, pincer, pincer, z, the cells losing z) of every xyz wing: trivalue pivots in cell
    order, then bivalue pincer pairs inside it."""
    if _C is not None:
        return _C.xyz_hits(state.geo.n, state.cand)  # type: ignore[no-any-return]
    return _xyz_hits(state)


def _xyz_hits(state: State) -> Iterator[Hit]:
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


# ---- wxyz wing --------------------------------------------------------------------------------

def wxyz_hits(state: State) -> Iterable[WxyzHit]:
    """(a, b, c, e, z, the cells losing z) of every wxyz wing: four cells (in cell order) holding
    four values with exactly one unrestricted value z, where some cell sees every z among them."""
    if _C is not None:
        return _C.wxyz_hits(state.geo.n, state.cand)  # type: ignore[no-any-return]
    return _wxyz_hits(state)


def _wxyz_hits(state: State) -> Iterator[WxyzHit]:
    cand, pos, geo = state.cand, state.pos, state.geo
    for a, b, c, e, free in _wxyz_sets(state):
        zcells = [x for x in (a, b, c, e) if cand[x] & free]
        z = free.bit_length()
        removed = pos[z - 1] & _seeing_all(geo, zcells)
        if removed:
            yield a, b, c, e, z, removed


def _seeing_all(geo: Geometry, cells: Iterable[int]) -> int:
    mask = geo.all_cells
    for c in cells:
        mask &= geo.peer_mask[c]
    return mask


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


# ---- w wing -----------------------------------------------------------------------------------

def w_hits(state: State) -> Iterable[WHit]:
    """(a, b, v, w, house, the house's w cells, the cells losing v) of every w wing: pairs of equal
    bivalue cells not seeing each other (by their values, then cell order), v the smaller value
    first, the first house (rows, columns, boxes) whose w all see a or b."""
    if _C is not None:
        return _C.w_hits(state.geo.n, state.cand)  # type: ignore[no-any-return]
    return _w_hits(state)


def _w_hits(state: State) -> Iterator[WHit]:
    geo = state.geo
    cand, pos = state.cand, state.pos
    peer, house_mask = geo.peer_mask, geo.house_mask
    groups: dict[int, list[int]] = {}
    for c, mask in enumerate(cand):
        if mask.bit_count() == 2:
            groups.setdefault(mask, []).append(c)
    for mask in sorted(groups):
        cells = groups[mask]
        if len(cells) < 2:
            continue
        pair = values_of(mask)
        for i, a in enumerate(cells):
            for b in cells[i + 1:]:
                if peer[a] >> b & 1:
                    continue
                common = peer[a] & peer[b]
                seen = peer[a] | peer[b]
                ends = 1 << a | 1 << b
                for v, w in (pair, pair[::-1]):
                    removed = pos[v - 1] & common
                    if not removed:
                        continue
                    for h, hm in enumerate(house_mask):
                        if hm & ends:
                            continue
                        ws = pos[w - 1] & hm
                        if ws and not ws & ~seen:
                            yield a, b, v, w, h, ws, removed
                            break


# ---- y wing and ny wing -----------------------------------------------------------------------

def y_patterns(state: State, session: Session) -> list[YPattern]:
    """(l1, b2, b1, l2, pivot cells, E11, E22, the values, v, the cells losing v) of every y and
    ny wing (``techniques.wings``), sorted by pattern size, configuration, pivot, E11, E22, v.

    The pure path keeps each group of configurations' patterns in ``session`` while the four
    intersections it reads keep their candidates (``Session.part``); the compiled path searches
    the whole state (a few microseconds on 9×9)."""
    if _C is not None:
        return _C.y_patterns(state.geo.n, state.cand)  # type: ignore[no-any-return]
    memo = session.parts("wings.subsets")
    table = session.derived("wings.subsets", lambda s: _intersection_subsets(s, memo))
    configs = _config_table(state.geo.n)
    found: list[tuple[tuple[int, ...], YPattern]] = []
    for key, cis in _config_groups(state.geo.n):
        content = tuple(memo[x][0] for x in key)
        found += session.part("y wing", key, content,
                              lambda: [f for ci in cis for f in _y_patterns(state, table, ci, configs[ci])])  # noqa: B023
    found.sort(key=lambda t: t[0])
    return [pattern for _, pattern in found]


Rows = tuple[list[tuple[int, int, int, int, int]], int, int]


@cache
def _intersection_cells(n: int) -> tuple[tuple[int, int, tuple[int, ...]], ...]:
    """(line, box, cells) of every line-box intersection."""
    return tuple((line, box, tuple(bits(mask))) for line, box, mask in geometry(n).intersections)


def _intersection_subsets(state: State, memo: dict[Any, tuple[Any, Any]]) -> dict[tuple[int, int], Rows]:
    """(line, box) -> (rows, candidate union, empty cells) of the intersection.

    rows: (excess, index, cell mask, candidate union, size) for each nonempty
    set of empty cells, index being its rank in subset order, sorted by
    excess (candidates minus cells) then index. ``memo`` (a session's parts
    table): each intersection's entry is kept while its cells' candidates stay.
    """
    cand = state.cand
    out: dict[tuple[int, int], Rows] = {}
    for line, box, cells in _intersection_cells(state.geo.n):
        key = tuple(cand[c] for c in cells)
        hit = memo.get((line, box))
        if hit is None or hit[0] != key:
            hit = memo[line, box] = (key, _subsets_of(cand, cells))
        out[line, box] = hit[1]
    return out


def _subsets_of(cand: list[int], cells: tuple[int, ...]) -> Rows:
    subs: list[tuple[int, int, int]] = [(0, 0, 0)]
    for c in cells:
        x = cand[c]
        if x:
            bit = 1 << c
            subs += [(cm | bit, u | x, s + 1) for cm, u, s in subs]
    if len(subs) == 1:
        return [], 0, 0
    rows = [(u.bit_count() - s, i, cm, u, s) for i, (cm, u, s) in enumerate(subs[1:])]
    rows.sort()
    last = subs[-1]
    return rows, last[1], last[2]


def _configurations(geo: Geometry) -> list[tuple[int, int, int, int]]:
    """Every (L1, B2, B1, L2): two lines of one band and two boxes they cross."""
    n, m = geo.n, geo.m
    configs = []
    for kind in (0, 1):
        for i1 in range(n):
            band = range(m * (i1 // m), m * (i1 // m) + m)
            # boxes crossed by line i1: for rows, box index m*(i//m)+j; for columns j*m + i//m
            boxes = [2 * n + (m * (i1 // m) + j if kind == 0 else j * m + i1 // m) for j in range(m)]
            for b2 in boxes:
                for b1 in boxes:
                    if b1 == b2:
                        continue
                    for i2 in band:
                        if i2 != i1:
                            configs.append((kind * n + i1, b2, b1, kind * n + i2))
    return configs


@cache
def _config_table(n: int) -> tuple[tuple[int, int, int, int, int], ...]:
    """The configurations with the cell mask where v can be removed: (L2 ∩ B1) ∪ (L1 ∩ B2)."""
    geo = geometry(n)
    inter_mask = {(line, box): mask for line, box, mask in geo.intersections}
    return tuple((l1, b2, b1, l2, inter_mask[l2, b1] | inter_mask[l1, b2])
                 for l1, b2, b1, l2 in _configurations(geo))


@cache
def _config_groups(n: int) -> tuple[tuple[tuple[tuple[int, int], ...], tuple[int, ...]], ...]:
    """The configurations grouped by the two lines and two boxes they read: (the four
    intersections, the indexes of their configurations in ``_config_table``)."""
    groups: dict[tuple[tuple[int, int], ...], list[int]] = {}
    for ci, (l1, b2, b1, l2, _) in enumerate(_config_table(n)):
        a, b = sorted((l1, l2))
        c, d = sorted((b1, b2))
        groups.setdefault(((a, c), (a, d), (b, c), (b, d)), []).append(ci)
    return tuple((key, tuple(cis)) for key, cis in groups.items())


def _y_patterns(state: State, table: dict[tuple[int, int], Rows], ci: int, config: tuple[int, int, int, int, int]
                ) -> list[tuple[tuple[int, ...], YPattern]]:
    """The y and ny wings of one configuration: (sort key, the pattern)."""
    pos = state.pos
    found: list[tuple[tuple[int, ...], YPattern]] = []
    l1, b2, b1, l2, target = config
    pivots, pivot_values, _ = table[l1, b2]
    lefts, _, room_left = table[l1, b1]
    rights, _, room = table[l2, b2]
    if not (pivots and lefts and rights):
        return found
    # v must be a candidate somewhere it could be removed
    target_values = pivot_values | table[l2, b1][1]
    right_e0 = rights[0][0]
    left_top = room_left + room - 1
    for e12, pi, m12, u12, s12 in pivots:
        if e12 > left_top:
            break
        # ... and not in the pivot
        vs = target_values & ~u12
        if not vs:
            continue
        bound = s12 + 1 - right_e0
        for e11, li, m11, u11, s11 in lefts:
            if e11 > bound:
                break
            u1 = u12 | u11
            s1 = s12 + s11
            if u1.bit_count() > s1 + room:
                continue
            kr = s12 + 1 - e11
            for e22, ri, m22, u22, s22 in rights:
                if e22 > kr:
                    break
                union = u1 | u22
                size = s1 + s22
                if union.bit_count() != size:
                    continue
                shared = u11 & u22
                if shared & (shared - 1):
                    continue
                choices = vs & (u11 | u22) & (shared if shared else ~0)
                for b in bits(choices):
                    v = b + 1
                    removed = pos[b] & target & ~m12
                    if removed:
                        found.append(((size, ci, pi, li, ri, b),
                                      (l1, b2, b1, l2, m12, m11, m22, union, v, removed)))
    return found
