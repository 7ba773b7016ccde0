"""ALS-XZ: two almost locked sets joined by a restricted common value.

An ALS is p cells of one house holding p + 1 values together. Two ALSs A
and B (no shared cell) have a *restricted common* value x when every x
candidate of A sees every x candidate of B: x is then true in at most one
of them, so the other is a locked set without x. For any other common
value z, one of A, B must hold z, so a z candidate outside both that sees
every z candidate of A and of B is false.

The ALS list (cells, values, per value the cells holding it and the cells
that see all of them) is built once per state (``State.cached``); smaller
pairs are tried first.
"""
from __future__ import annotations

from bisect import bisect_right
from collections.abc import Iterator
from functools import cache
from itertools import combinations

from explainer.explanation import Explanation, cands, cell_coords
from explainer.grid import Geometry, bits
from explainer.i18n import Cells, Value, Values, say
from explainer.state import State
from explainer.technique import NO_CONTEXT, Context

TEXT = {
    "en": "ALS-XZ: {a} {hold_a} only {va} and {b} {hold_b} only {vb}, one value more than cells each. Every "
          "{x} of one sees every {x} of the other, so at most one of them has {x}, and the other is "
          "then locked on its other values. Either way one of them holds {z}, so {targets} (seeing "
          "every {z} of both) cannot be {z}.",
    "fr": "ALS-XZ : {a} ne {hold_a} que {va} et {b} que {vb}, une valeur de plus que de cases "
          "chacun. Chaque {x} de l'un voit chaque {x} de l'autre, donc au plus l'un des deux a {x}, et "
          "l'autre est alors verrouillé sur ses autres valeurs. Dans tous les cas l'un d'eux contient "
          "{z}, donc {targets} (qui voient tous les {z} des deux) ne peuvent pas valoir {z}.",
}


MAX_SUBSET_BITS = 12  # houses with more empty cells (16×16, 25×25) get small ALSs only
SMALL_SETS = 4
# Largest ALS kept on grids from 16×16 on: a 16-cell house with 12 empty cells has hundreds of
# ALSs of 9 to 11 cells, which multiply the pairs searched and hardly ever make a step
BIG_GRID, BIG_GRID_MAX_CELLS = 16, 8
MAX_COMMON_PEERS = 1 << 18  # bound on the shared common-peers table


class ALS:
    __slots__ = ("cells", "values", "size", "where", "sees")

    def __init__(self, cells: int, values: int, where: dict[int, int], sees: dict[int, int]) -> None:
        self.cells, self.values = cells, values
        self.size = cells.bit_count()
        self.where = where  # value index -> cells of the ALS holding it
        self.sees = sees  # value index -> cells seeing every such cell (outside the ALS)


@cache
def _plus_one(k: int) -> list[int]:
    """Size + 1 of every subset of k cells, by subset mask."""
    return [m.bit_count() + 1 for m in range(1 << k)]


@cache
def _common_peers(n: int) -> dict[int, int]:
    """Cells seeing every cell of a cell mask, per grid size (a pure function of the geometry,
    shared by every state and filled as masks come up)."""
    return {}


# ALSs of one house, by the house's empty cells and their candidates: a step changes a few
# houses, so the next state finds most of its houses here (bounded; cleared when full)
_BY_HOUSE: dict[tuple[int, ...], list[ALS]] = {}
MAX_HOUSES_KEPT = 4096


def _house_sets(geo: Geometry, cand: list[int], empty: list[int]) -> list[ALS]:
    """Every ALS inside one house (given its empty cells), each with its value table."""
    key = (geo.n, *empty, *(cand[c] for c in empty))
    hit = _BY_HOUSE.get(key)
    if hit is not None:
        return hit
    found: dict[int, int] = {}
    k = len(empty)
    if k <= MAX_SUBSET_BITS:
        # unions of every subset at once: subset m of the empty cells is entry m
        union = [0]
        cmask = [0]
        for c in empty:
            cc, bit = cand[c], 1 << c
            union += [u | cc for u in union]
            cmask += [m | bit for m in cmask]
        union.pop()  # the whole house is locked, not almost
        largest = BIG_GRID_MAX_CELLS if geo.n >= BIG_GRID else k
        for m in [m for m, u, p in zip(range(len(union)), union, _plus_one(k), strict=False)
                  if u.bit_count() == p and p <= largest + 1]:
            found[cmask[m]] = union[m]
    else:  # big grids: small sets only
        for p in range(1, SMALL_SETS + 1):
            for chosen in combinations(empty, p):
                u = 0
                for c in chosen:
                    u |= cand[c]
                if u.bit_count() == p + 1:
                    found.setdefault(sum(1 << c for c in chosen), u)
    peer, all_cells = geo.peer_mask, geo.all_cells
    common_peers = _common_peers(geo.n)  # many ALSs share the cells of a value
    out = []
    for cells_mask, vmask in found.items():
        where, sees = {}, {}
        notc = ~cells_mask
        vs = vmask
        while vs:
            low = vs & -vs
            vs ^= low
            v = low.bit_length() - 1
            w = 0
            for c in empty:
                if cells_mask >> c & 1 and cand[c] & low:
                    w |= 1 << c
            s = common_peers.get(w)
            if s is None:
                s = all_cells
                ww = w
                while ww:
                    lw = ww & -ww
                    ww ^= lw
                    s &= peer[lw.bit_length() - 1]
                if len(common_peers) < MAX_COMMON_PEERS:
                    common_peers[w] = s
            where[v] = w
            sees[v] = s & notc
        out.append(ALS(cells_mask, vmask, where, sees))
    if len(_BY_HOUSE) >= MAX_HOUSES_KEPT:
        _BY_HOUSE.clear()
    _BY_HOUSE[key] = out
    return out


def _build(state: State) -> list[ALS]:
    geo = state.geo
    cand = state.cand
    found: dict[int, ALS] = {}  # a set in a line and a box is found twice: kept once
    for house in geo.houses:
        empty = [c for c in house if cand[c]]
        if len(empty) < 2:
            continue
        for a in _house_sets(geo, cand, empty):
            found.setdefault(a.cells, a)
    out = list(found.values())
    out.sort(key=lambda a: (a.size, a.cells))
    return out


def als_list(state: State) -> list[ALS]:
    """Every ALS of the state, smallest first (built once per state)."""
    return state.cached("als", _build)


def restricted_pairs(state: State, min_common: int = 2, max_size: int = 0,
                     wanted: list[int] | None = None) -> list[tuple[int, int, int]]:
    """(A, B, x) for every pair of disjoint ALSs with a restricted common x and at least
    ``min_common`` common values (x included; ALS-XZ needs another one), as indexes into
    ``als_list(state)``, smaller pairs first; with ``max_size``, only ALSs of at most that
    many cells; with ``wanted`` (a value mask per ALS), only pairs sharing a wanted value
    of both besides x."""
    sets = als_list(state)
    if len(sets) < 2:
        return []
    if max_size:
        sets = sets[:bisect_right([a.size for a in sets], max_size)]  # the list is sorted by size
    pos = state.pos
    # B pairs with A on x when B's x cells all lie in the cells seeing every x of A; those
    # cells (A.sees[x] & pos[x]) depend only on x and A's x cells w, so ALSs are grouped by
    # (x, w) and the matching groups looked up once per group, by every subset of the
    # seeing cells (or by scanning the groups when there are fewer)
    groups: list[dict[int, list[int]]] = [{} for _ in pos]
    for j, b in enumerate(sets):
        if wanted is not None and not wanted[j]:
            continue  # no value of b is wanted: b is in no pair kept
        for x, w in b.where.items():
            g = groups[x].get(w)
            if g is None:
                groups[x][w] = [j]
            else:
                g.append(j)
    found = []
    for x, gx in enumerate(groups):
        if not gx:
            continue
        px = pos[x]
        many = len(gx)
        for ilist in gx.values():
            p = sets[ilist[0]].sees[x] & px
            if not p:
                continue
            m = []
            if (1 << p.bit_count()) <= many:
                sub = p
                while sub:
                    g = gx.get(sub)
                    if g is not None:
                        m += g
                    sub = (sub - 1) & p
            else:
                for bw, g in gx.items():
                    if not bw & ~p:
                        m += g
            if not m:
                continue
            m.sort()
            top = m[-1]
            for i in ilist:
                if i >= top:
                    break
                a = sets[i]
                acells, avalues, asize = a.cells, a.values, a.size
                if wanted is not None:
                    avalues &= wanted[i] | 1 << x
                for j in m[bisect_right(m, i):]:
                    b = sets[j]
                    if not b.cells & acells:
                        common = b.values & avalues
                        if wanted is not None and not common & wanted[j] & ~(1 << x):
                            continue
                        if common.bit_count() >= min_common:
                            found.append((asize + b.size, i, j, x))
    found.sort()
    return [(i, j, x) for _, i, j, x in found]


def find(state: State, ctx: Context = NO_CONTEXT, /) -> Iterator[Explanation]:
    pos = state.pos
    sets = als_list(state)
    # a value z can only go when some candidate sees every z of an ALS: the others are not asked for
    wanted = []
    for a in sets:
        m = 0
        for z, s in a.sees.items():
            if s & pos[z]:
                m |= 1 << z
        wanted.append(m)
    for ia, ib, x in restricted_pairs(state, wanted=wanted):
        a, b = sets[ia], sets[ib]
        for z in bits(a.values & b.values & ~(1 << x)):
            elim = pos[z] & a.sees[z] & b.sees[z]
            if elim:
                yield _step(state, a, b, x, z, elim)


def _step(state: State, a: ALS, b: ALS, x: int, z: int, elim: int) -> Explanation:
    geo = state.geo
    xs = [c for c in bits(a.cells)]
    ys = [c for c in bits(b.cells)]
    return Explanation(
        technique="als",
        eliminate=cands(geo, [(c, z + 1) for c in bits(elim)]),
        cells=cell_coords(geo, xs), cells_alt=cell_coords(geo, ys),
        marked=cands(geo, [(c, x + 1) for c in bits(a.where[x])]),
        marked_alt=cands(geo, [(c, x + 1) for c in bits(b.where[x])]),
        **say(TEXT, a=(ca := Cells(geo, xs)), b=(cb := Cells(geo, ys)),
              hold_a=ca.verb(en=("holds", "hold"), fr=("contient", "contiennent")),
              hold_b=cb.verb(en=("holds", "hold"), fr=("contient", "contiennent")),
              va=Values(v + 1 for v in bits(a.values)),
              vb=Values(v + 1 for v in bits(b.values)), x=Value(x + 1), z=Value(z + 1),
              targets=Cells(geo, bits(elim), last={"en": "and", "fr": "et"})),
        detail=(("sizes", (a.size, b.size)), ("restricted", x + 1), ("value", z + 1)) + _biggest(state, a, b),
    )


def _biggest(state: State, a: ALS, b: ALS) -> tuple[tuple[str, object], ...]:
    """With a bivalue cell for one set, the most candidates in a cell of the other (detail
    ``biggest``: the rating of Sukaku Explainer's VWXYZ-wing reads it)."""
    if min(a.size, b.size) != 1:
        return ()
    other = b if a.size == 1 else a
    return (("biggest", max(state.cand[c].bit_count() for c in bits(other.cells))),)

