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

from itertools import combinations
from typing import Iterator

import numpy as np

from explainer.explanation import Explanation, cands, cell_coords
from explainer.grid import bits
from explainer.i18n import Cells, Value, Values, say
from explainer.state import State

TEXT = {
    "en": "ALS-XZ: {a} hold only {va} and {b} hold only {vb}, one value more than cells each. Every "
          "{x} of one sees every {x} of the other, so at most one of them has {x}, and the other is "
          "then locked on its other values. Either way one of them holds {z}, so {targets} (seeing "
          "every {z} of both) cannot be {z}.",
    "fr": "ALS-XZ : {a} ne contiennent que {va} et {b} que {vb}, une valeur de plus que de cases "
          "chacun. Chaque {x} de l'un voit chaque {x} de l'autre, donc au plus l'un des deux a {x}, et "
          "l'autre est alors verrouillé sur ses autres valeurs. Dans tous les cas l'un d'eux contient "
          "{z}, donc {targets} (qui voient tous les {z} des deux) ne peuvent pas valoir {z}.",
}


MAX_SUBSET_BITS = 12  # houses with more empty cells (16×16, 25×25) get small ALSs only
SMALL_SETS = 4


class ALS:
    __slots__ = ("cells", "values", "size", "where", "sees")

    def __init__(self, cells: int, values: int, where: dict[int, int], sees: dict[int, int]) -> None:
        self.cells, self.values = cells, values
        self.size = cells.bit_count()
        self.where = where  # value index -> cells of the ALS holding it
        self.sees = sees  # value index -> cells seeing every such cell (outside the ALS)


def _build(state: State) -> list[ALS]:
    geo = state.geo
    cand, pos, peer = state.cand, state.pos, geo.peer_mask
    found: dict[int, int] = {}
    for house in geo.houses:
        empty = [c for c in house if cand[c]]
        k = len(empty)
        if k < 2:
            continue
        if k <= MAX_SUBSET_BITS:
            # unions of every subset at once: subset m of the empty cells is entry m
            union = np.zeros(1, dtype=np.int64)
            size = np.zeros(1, dtype=np.int64)
            for c in empty:
                union = np.concatenate((union, union | cand[c]))
                size = np.concatenate((size, size + 1))
            ok = np.bitwise_count(union) == size + 1
            ok[-1] = False  # the whole house is locked, not almost
            for m in np.nonzero(ok)[0].tolist():
                cm = 0
                for b in bits(m):
                    cm |= 1 << empty[b]
                if cm not in found:
                    found[cm] = int(union[m])
        else:  # big grids: small sets only
            for p in range(1, SMALL_SETS + 1):
                for chosen in combinations(empty, p):
                    u = 0
                    for c in chosen:
                        u |= cand[c]
                    if u.bit_count() == p + 1:
                        found.setdefault(sum(1 << c for c in chosen), u)
    out = []
    common_peers: dict[int, int] = {}  # many ALSs share the cells of a value
    for cmask, values in found.items():
        where, sees = {}, {}
        for v in bits(values):
            w = pos[v] & cmask
            s = common_peers.get(w)
            if s is None:
                s = geo.all_cells
                for c in bits(w):
                    s &= peer[c]
                common_peers[w] = s
            where[v] = w
            sees[v] = s & ~cmask
        out.append(ALS(cmask, values, where, sees))
    out.sort(key=lambda a: (a.size, a.cells))
    return out


def als_list(state: State) -> list[ALS]:
    """Every ALS of the state, smallest first (built once per state)."""
    return state.cached("als", _build)


def _words(masks: list[int], words: int) -> np.ndarray:
    """Cell masks as rows of 64-bit words (one bytes conversion per mask), for numpy."""
    nbytes = 8 * words
    raw = b"".join(m.to_bytes(nbytes, "little") for m in masks)
    return np.frombuffer(raw, dtype="<u8").reshape(len(masks), words)


def _tables(state: State) -> tuple:
    """Per-ALS masks as 64-bit words: cells[i], where[x][i], sees[x][i] (built once per state)."""
    sets = als_list(state)
    n = state.geo.n
    words = (state.geo.ncells + 63) // 64
    cells = _words([a.cells for a in sets], words)
    where = _words([a.where.get(x, 0) for x in range(n) for a in sets], words).reshape(n, len(sets), words)
    sees = _words([a.sees.get(x, 0) for x in range(n) for a in sets], words).reshape(n, len(sets), words)
    values = np.array([a.values for a in sets], dtype=np.int64)
    sizes = np.array([a.size for a in sets], dtype=np.int64)
    return words, cells, where, sees, values, sizes


def restricted_pairs(state: State) -> list[tuple[int, int, int]]:
    """(A, B, x) for every pair of disjoint ALSs with a restricted common x and another common
    value, as indexes into ``als_list(state)``, smaller pairs first."""
    sets = als_list(state)
    if len(sets) < 2:
        return []
    words, cells, where_all, sees_all, values, sizes = state.cached("als tables", _tables)
    common = values[:, None] & values[None, :]
    base = np.triu((common & (common - 1)) != 0, 1)  # at least two common values
    for k in range(words):
        base &= (cells[:, None, k] & cells[None, :, k]) == 0  # no shared cell
    found_a, found_b, found_x = [], [], []
    for x in range(state.geo.n):
        idx = np.nonzero(values >> x & 1)[0]
        if len(idx) < 2:
            continue
        where, sees = where_all[x][idx], sees_all[x][idx]
        ok = base[np.ix_(idx, idx)]
        for k in range(words):
            ok &= (where[None, :, k] & ~sees[:, None, k]) == 0  # every x of B sees every x of A
        ia, ib = np.nonzero(ok)
        found_a.append(idx[ia])
        found_b.append(idx[ib])
        found_x.append(np.full(len(ia), x, dtype=np.int64))
    if not found_a:
        return []
    a_, b_, x_ = np.concatenate(found_a), np.concatenate(found_b), np.concatenate(found_x)
    order = np.lexsort((x_, b_, a_, sizes[a_] + sizes[b_]))
    return list(zip(a_[order].tolist(), b_[order].tolist(), x_[order].tolist()))


def find(state: State) -> Iterator[Explanation]:
    pos = state.pos
    sets = als_list(state)
    for ia, ib, x in restricted_pairs(state):
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
        **say(TEXT, a=Cells(geo, xs), b=Cells(geo, ys), va=Values(v + 1 for v in bits(a.values)),
              vb=Values(v + 1 for v in bits(b.values)), x=Value(x + 1), z=Value(z + 1),
              targets=Cells(geo, bits(elim), last={"en": "and", "fr": "et"})),
        detail=(("sizes", (a.size, b.size)), ("restricted", x + 1), ("value", z + 1)),
    )

