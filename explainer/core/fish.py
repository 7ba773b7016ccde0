"""The fish and tuple searches, each with a compiled (``_fish.c``) and a pure-Python path.

The finders of ``techniques.fish`` and ``techniques.subsets`` ask these for the patterns of a
state and build a step (texts, roles) only for the one the engine takes; most calls find
nothing the engine takes, so the search is the part worth compiling. Both paths return the
same lists, bit for bit, in the order the finders yield them (tests/core/test_fish.py checks
this on real and random states of every size).

- ``fish_of(geo, v, pv)``, ``finned_of(geo, v, pv)``: one value's fish from its places ``pv``,
  as ``(size, base orientation, discovery, the step's arguments)`` (see ``techniques.fish``);
  a value's fish depend on its places alone, so the finders keep them per value in the session;
- ``naked_hits(state, session, top)``: ``(house, size, cells, values, removed count)`` of every
  naked tuple of sizes 2..top; ``hidden_hits``: ``(house, size, values, cell mask, removed
  count)``; both in the order size, house, discovery. The compiled path searches every house
  at once (cheaper than looking up each house's kept result); the pure path keeps each house's
  tuples in the session while its candidates stay (``house_tuples``).

Fish (``fish_of``): base lines are grown by depth-first search, dropping a branch as soon as
the cover lines already exceed the largest size, so the search never looks at combinations
that cannot be a fish. Finned fish (``finned_of``): for a box R, a base line of R's band counts
only its v candidates outside R towards the cover; the ones inside R are the fins. The base
sets are grown depth first (a set's first line has a fin; a branch stops once its cover
exceeds the largest size). Only v in R outside the base lines can be removed, and a base holds
a line with a fin, so a box whose v candidates lie in a single line of the band is skipped.
"""
from __future__ import annotations

from collections.abc import Callable, Iterable, Sequence
from functools import cache
from typing import Any

from explainer.model.grid import Geometry, bits, geometry
from explainer.model.session import Session
from explainer.model.state import State

from . import load

_C = load("_fish")

# a fish found: (size, base orientation, its order of discovery in the value, the step's arguments)
Found = tuple[int, int, int, tuple[Any, ...]]
# (house, size, cells in house order, their values' mask, candidates removed)
NakedHit = tuple[int, int, list[int], int, int]
# (house, size, values, their cells' mask, candidates removed)
HiddenHit = tuple[int, int, list[int], int, int]


def compiled() -> bool:
    """True when the compiled searches are in use."""
    return _C is not None


def max_size(n: int) -> int:
    """Largest fish searched: jellyfish (4), or n // 2 on 4×4 grids."""
    return max(2, min(4, n // 2))


# ---- fish ---------------------------------------------------------------------------------------

def fish_of(geo: Geometry, v: int, pv: int) -> list[Found]:
    """x wings, swordfish and jellyfish on value v (places ``pv``), rows then columns as base:
    ``fish_step``'s arguments ``(v, o, base, cover, pattern, removed, size)``."""
    if _C is not None:
        return _C.fish_of(geo.n, v, pv)  # type: ignore[no-any-return]
    return _fish_of(geo, v, pv)


def finned_of(geo: Geometry, v: int, pv: int) -> list[Found]:
    """The finned fish on value v (places ``pv``), rows then columns as base: ``_finned_step``'s
    arguments ``(v, o, base, cover, box, body, fins, removed, size, case, sashimi)``."""
    if _C is not None:
        return _C.finned_of(geo.n, v, pv)  # type: ignore[no-any-return]
    return _finned_of(geo, v, pv)


def _value_masks(geo: Geometry, pv: int) -> tuple[list[int], list[int]]:
    """One value's per-line masks from its places ``pv``: for each row, the columns where it
    can go, and for each column, the rows."""
    n, full = geo.n, geo.full
    rows = [(pv >> (r * n)) & full for r in range(n)]
    cols = [0] * n
    for c in bits(pv):
        cols[c % n] |= 1 << (c // n)
    return rows, cols


def _lines_cells(geo: Geometry, kind: int, lines: Iterable[int]) -> int:
    mask = 0
    for i in lines:
        mask |= geo.house_mask[kind * geo.n + i]
    return mask


def _base_sets(pool: list[int], masks: list[int], max_p: int) -> list[tuple[tuple[int, ...], int]]:
    """Every set of 2..max_p lines of ``pool`` whose cover union has no more bits than lines.

    One depth-first search serves every size: a branch stops as soon as its
    union exceeds ``max_p`` (no superset can be a fish then).
    """
    out: list[tuple[tuple[int, ...], int]] = []

    def walk(start: int, chosen: tuple[int, ...], union: int) -> None:
        for k in range(start, len(pool)):
            line = pool[k]
            u = union | masks[line]
            count = u.bit_count()
            if count > max_p:
                continue
            now = chosen + (line,)
            if len(now) >= 2 and count <= len(now):
                out.append((now, u))
            if len(now) < max_p:
                walk(k + 1, now, u)

    walk(0, (), 0)
    return out


def _fish_of(geo: Geometry, v: int, pv: int) -> list[Found]:
    n = geo.n
    max_p = max_size(n)
    found: list[Found] = []
    for o, masks in enumerate(_value_masks(geo, pv)):
        open_lines = [i for i in range(n) if masks[i]]
        pool = [i for i in open_lines if masks[i].bit_count() <= max_p]
        if len(pool) < 2:
            continue
        for base, cover in _base_sets(pool, masks, max_p):
            p = len(base)
            # p lines need p cover lines; with only p open lines the cover holds no other v
            if cover.bit_count() != p or len(open_lines) <= p:
                continue
            base_cells = _lines_cells(geo, o, base)
            removed = pv & _lines_cells(geo, 1 - o, bits(cover)) & ~base_cells
            if removed:
                found.append((p, o, len(found), (v, o, list(base), cover, pv & base_cells, removed, p)))
    return found


@cache
def _finned_tables(n: int) -> tuple[tuple[tuple[int, int, int, int, int], ...], ...]:
    """Per orientation o, per box k: (box house, box cells, first band line, band bits, cover bits).

    o = 0: base rows, the box's rows form its band, its columns are the cover bits.
    """
    geo = geometry(n)
    m = geo.m
    tables = []
    for o in (0, 1):
        rows = []
        for k in range(n):
            first_line = m * (k // m) if o == 0 else m * (k % m)
            first_cover = m * (k % m) if o == 0 else m * (k // m)
            box = 2 * n + k
            rows.append((box, geo.house_mask[box], first_line, ((1 << m) - 1) << first_line,
                         ((1 << m) - 1) << first_cover))
        tables.append(tuple(rows))
    return tuple(tables)


def _finned_of(geo: Geometry, v: int, pv: int) -> list[Found]:
    """Per box of a band, the pool of base lines (``_finned_pool``), their base sets
    (``_finned_bases``) and the fish each set makes (``_finned_fish``)."""
    n = geo.n
    max_p = max_size(n)
    tables = _finned_tables(n)
    house_mask = geo.house_mask
    found: list[Found] = []
    if not pv:
        return found
    for o, masks in enumerate(_value_masks(geo, pv)):
        line_cells = house_mask[o * n:o * n + n]
        cover_cells = house_mask[(1 - o) * n:(1 - o) * n + n]
        open_lines = [i for i in range(n) if masks[i]]
        if len(open_lines) < 2:
            continue
        # open lines that can join a base whole (their places all count)
        small = [i for i in open_lines if masks[i].bit_count() <= max_p]
        for box, box_cells, first_line, band_bits, box_cover in tables[o]:
            if not pv & box_cells:
                continue
            made = _finned_pool(geo.m, max_p, masks, small, first_line, band_bits, box_cover)
            if made is None:
                continue
            pool, hits = made
            _finned_fish(found, v, pv, o, pool, hits, box, box_cells, box_cover, line_cells, cover_cells)
    return found


def _finned_pool(m: int, max_p: int, masks: list[int], small: list[int], first_line: int, band_bits: int,
                 box_cover: int) -> tuple[list[int], list[tuple[tuple[int, ...], int]]] | None:
    """(the pool of base lines, its base sets as (pool indexes, cover bits)) for one box, or
    None when no finned fish can have its fins there."""
    in_box = [i for i in range(first_line, first_line + m) if masks[i] & box_cover]
    if len(in_box) < 2:
        return None
    not_cover = ~box_cover
    # lines with a fin lead the pool: every finned set holds one of them
    finned = [i for i in in_box if (masks[i] & not_cover).bit_count() <= max_p]
    if not finned:
        return None
    # then the other open lines in order: a line without v in the box
    # counts all its places; one with v in the box but not finned cannot join
    rest = [i for i in small if i not in in_box]
    pool = finned + rest
    if len(pool) < 2:
        return None
    outs = [masks[i] & not_cover for i in finned] + [masks[i] for i in rest]
    inband = [1] * len(finned) + [band_bits >> i & 1 for i in rest]
    inbox = [1] * len(finned) + [0] * len(rest)
    # a base keeps at least one band line with v in the box out (the removals
    # are there) and at most m - 1 band lines: a branch breaking either stops
    return pool, _finned_bases(len(finned), outs, inband, inbox, m - 1, len(in_box) - 1, max_p)


def _finned_bases(leads: int, outs: list[int], inband: list[int], inbox: list[int], top: int, last: int,
                  max_p: int) -> list[tuple[tuple[int, ...], int]]:
    """The depth-first search of ``_base_sets``, unrolled (pre-order, sizes 2..max_p): the base
    sets (pool indexes, the first among the ``leads`` finned lines) whose cover ``outs`` fit."""
    size = len(outs)
    hits: list[tuple[tuple[int, ...], int]] = []
    for a in range(leads):
        ua = outs[a]
        for b in range(a + 1, size):
            nb = 1 + inband[b]
            ni = 1 + inbox[b]
            if nb > top or ni > last:
                continue
            ub = ua | outs[b]
            cb = ub.bit_count()
            if cb > max_p:
                continue
            if cb <= 2:
                hits.append(((a, b), ub))
            if max_p < 3:
                continue
            for c in range(b + 1, size):
                nc = nb + inband[c]
                nic = ni + inbox[c]
                if nc > top or nic > last:
                    continue
                uc = ub | outs[c]
                cc3 = uc.bit_count()
                if cc3 > max_p:
                    continue
                if cc3 <= 3:
                    hits.append(((a, b, c), uc))
                if max_p < 4:
                    continue
                for d in range(c + 1, size):
                    if nc + inband[d] > top or nic + inbox[d] > last:
                        continue
                    ud = uc | outs[d]
                    if ud.bit_count() <= 4:
                        hits.append(((a, b, c, d), ud))
    return hits


def _finned_fish(found: list[Found], v: int, pv: int, o: int, pool: list[int],
                 hits: list[tuple[tuple[int, ...], int]], box: int, box_cells: int, box_cover: int,
                 line_cells: Sequence[int], cover_cells: Sequence[int]) -> None:
    """Add to ``found`` the finned fish of one box's base sets (``hits``: pool indexes, cover
    bits) that remove something: ``_finned_step``'s arguments."""
    for idx, cover in hits:
        base_cells = 0
        for j in idx:
            base_cells |= line_cells[pool[j]]
        p = len(idx)
        q = cover.bit_count()
        if q == p and cover & box_cover:
            case = 1
            cc = 0
            for j in bits(cover & box_cover):
                cc |= cover_cells[j]
            removed = pv & box_cells & ~base_cells & cc
        elif q == p - 1 and not cover & box_cover:
            case = 2
            removed = pv & box_cells & ~base_cells
        else:
            continue
        if not removed:
            continue
        # the fin: base candidates outside every cover line (a candidate on a
        # base line and a cover line is body, even inside the box)
        on_cover = 0
        for j in bits(cover):
            on_cover |= cover_cells[j]
        fins = pv & base_cells & ~on_cover
        if not fins:
            continue  # a plain fish (found before)
        # sashimi: a fin-carrying base line has no body candidate in the box
        sashimi = any(pv & line_cells[pool[j]] & fins and not pv & line_cells[pool[j]] & box_cells & on_cover
                      for j in idx)
        base = sorted(pool[j] for j in idx)
        found.append((p, o, len(found), (v, o, base, cover, box, pv & base_cells & ~fins, fins, removed, p, case,
                                         sashimi)))


# ---- tuples -------------------------------------------------------------------------------------

def naked_hits(state: State, session: Session, top: int) -> list[NakedHit]:
    """Every naked tuple of sizes 2..top (top <= 4) that removes something: size, house,
    discovery."""
    if _C is not None:
        return _C.naked_hits(state.geo.n, state.cand, top)  # type: ignore[no-any-return]
    return _by_house(state, session, "naked tuple", naked_in, top)


def hidden_hits(state: State, session: Session, top: int) -> list[HiddenHit]:
    """Every hidden tuple of sizes 2..top (top <= 4) that removes something: size, house,
    discovery."""
    if _C is not None:
        return _C.hidden_hits(state.geo.n, state.cand, top)  # type: ignore[no-any-return]
    return _by_house(state, session, "hidden tuple", hidden_in, top)


def by_house(state: State, session: Session, hidden: bool, top: int
             ) -> Callable[[int], list[tuple[int, int, list[int], int, int]]]:
    """A reader of each house's naked (``hidden``: hidden) tuples, for a caller reading houses
    in its own order (Sudoku Explainer's scan): the compiled path searches every house once per
    state version (``Session.derived``), the pure path each house read (``house_tuples``)."""
    if _C is not None:
        search = _C.hidden_hits if hidden else _C.naked_hits

        def grouped(state: State) -> list[list[tuple[int, int, list[int], int, int]]]:
            out: list[list[tuple[int, int, list[int], int, int]]] = [[] for _ in state.geo.houses]
            for hit in search(state.geo.n, state.cand, top):
                out[hit[0]].append(hit)
            return out

        return session.derived(f"fish.{'hidden' if hidden else 'naked'} tuples by house {top}", grouped).__getitem__
    owner, house_search = ("hidden tuple", hidden_in) if hidden else ("naked tuple", naked_in)
    stamps = session.house_stamps()
    return lambda h: house_tuples(state, session, owner, house_search, h, top, stamps)


HouseSearch = Callable[[State, int, int], list[tuple[int, int, list[int], int, int]]]


def house_tuples(state: State, session: Session, owner: str, search: HouseSearch, h: int, top: int,
                 stamps: tuple[int, ...] | None = None) -> list[tuple[int, int, list[int], int, int]]:
    """A house's tuples (``search(state, house, largest size)``), kept in the session while its
    candidates stay: while its stamp (``Session.house_stamps``, given as ``stamps`` by a caller
    reading every house) is the same."""
    if stamps is None:
        stamps = session.house_stamps()
    return session.part(owner, (h, top), stamps[h], lambda: search(state, h, top))


def _by_house(state: State, session: Session, owner: str, search: HouseSearch,
              top: int) -> list[tuple[int, int, list[int], int, int]]:
    stamps = session.house_stamps()
    out = [hit for h in range(len(state.geo.houses)) for hit in house_tuples(state, session, owner, search, h, top,
                                                                              stamps)]
    out.sort(key=lambda hit: hit[1])  # stable: house, then discovery, within a size
    return out


def _subsets(masks: list[int], p: int) -> list[tuple[tuple[int, ...], int]]:
    """(positions, union) of the p-subsets of ``masks`` whose union has exactly p bits, in
    lexicographic order; a branch stops once its union exceeds p bits (unrolled for p <= 4)."""
    k = len(masks)
    out: list[tuple[tuple[int, ...], int]] = []
    if p == 2:
        for a in range(k - 1):
            ua = masks[a]
            for b in range(a + 1, k):
                u = ua | masks[b]
                if u.bit_count() == 2:
                    out.append(((a, b), u))
    elif p == 3:
        for a in range(k - 2):
            ua = masks[a]
            for b in range(a + 1, k - 1):
                ub = ua | masks[b]
                if ub.bit_count() > 3:
                    continue
                for c in range(b + 1, k):
                    u = ub | masks[c]
                    if u.bit_count() == 3:
                        out.append(((a, b, c), u))
    else:
        for a in range(k - 3):
            ua = masks[a]
            for b in range(a + 1, k - 2):
                ub = ua | masks[b]
                if ub.bit_count() > 4:
                    continue
                for c in range(b + 1, k - 1):
                    uc = ub | masks[c]
                    if uc.bit_count() > 4:
                        continue
                    for d in range(c + 1, k):
                        u = uc | masks[d]
                        if u.bit_count() == 4:
                            out.append(((a, b, c, d), u))
    return out


def naked_in(state: State, h: int, top: int) -> list[NakedHit]:
    """The naked tuples of house ``h`` that remove something, by size then discovery."""
    cells = state.geo.houses[h]
    cand = state.cand
    rows = [(c, m, m.bit_count()) for c in cells if (m := cand[c])]
    found: list[NakedHit] = []
    for p in range(2, top + 1):
        if len(rows) <= p:
            continue
        pool = [(c, m) for c, m, k in rows if k <= p]
        if len(pool) < p:
            continue
        for where, union in _subsets([m for _, m in pool], p):
            chosen = [pool[i][0] for i in where]
            removed = sum((m & union).bit_count() for c, m, _ in rows if c not in chosen)
            if removed:
                found.append((h, p, chosen, union, removed))
    return found


def hidden_in(state: State, h: int, top: int) -> list[HiddenHit]:
    """The hidden tuples of house ``h`` that remove something, by size then discovery."""
    n = state.geo.n
    hmask, pos, cand = state.geo.house_mask[h], state.pos, state.cand
    # (value, its places in the house, their count) of each value still open in the house
    rows = [(v, where, where.bit_count()) for v in range(1, n + 1) if (where := pos[v - 1] & hmask)]
    found: list[HiddenHit] = []
    for p in range(2, top + 1):
        if len(rows) <= p:
            continue
        pool = [(v, w) for v, w, k in rows if k <= p]
        if len(pool) < p:
            continue
        for chosen_at, where in _subsets([w for _, w in pool], p):
            chosen = [pool[i][0] for i in chosen_at]
            keep = 0
            for v in chosen:
                keep |= 1 << (v - 1)
            removed = sum((cand[c] & ~keep).bit_count() for c in bits(where))
            if removed:
                found.append((h, p, chosen, where, removed))
    return found
