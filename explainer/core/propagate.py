"""Singles propagation: the engine's one propagator (compiled twin: ``_propagate.c``).

A batch is a ``(B, ncells)`` array of candidate bit masks, one row per
branch; a decided cell (a given, a placement or a branch's assumption) is a
single-bit mask. One round, for every row at once:

- naked singles: every single-bit cell removes its value from its houses
  (the OR of the decided values of each house, spread back to its cells);
  a value decided twice in a house is a contradiction;
- hidden singles: per house the values with exactly one place ("once and
  not twice", nine OR/AND passes over the house's cells); a value with no
  place is a contradiction, a cell asked to hold two values is one too;
- (dynamic) locked candidates: pointing and claiming, on the result.

Rounds repeat until no row changes. The result says WHICH branches end in
a contradiction, what each branch's fixpoint is and how many rounds it
took; it records no reason: the recording tracer (``techniques.implication``)
then replays only the branches a step keeps. The closure of these rules does
not depend on their order, so the tracer reaches the same end.

``contradicting(base, t, assumptions, level)`` adds nesting: at level k a
branch that stalls also removes every candidate whose own assumption
contradicts at level k-1 in the branch's state, then propagates again
(T&E(k) in Berthier's terms).

Two implementations give the same results bit for bit (rounds included):
the C extension ``explainer.core._propagate`` (each row on its own, looking
only at what changed) and the numpy code below (every row at once, whole
grid each round), used when the extension is missing or
``SUDOKU_EXPLAINER_PURE=1`` (``explainer.core``).

Works for n = 4, 9, 16 (uint16 masks) and 25 (uint32).
"""
from __future__ import annotations

from array import array
from collections.abc import Callable
from functools import cache

import numpy as np

from explainer.model.grid import Geometry, geometry
from explainer.model.state import State

from . import load

_C = load("_propagate")

# rows per numpy batch: bounds the peak memory of a nested search
CHUNK = 4096


class Tables:
    def __init__(self, geo: Geometry) -> None:
        n = geo.n
        self.n, self.N = n, geo.ncells
        self.dtype = np.uint16 if n <= 16 else np.uint32
        self.full = self.dtype((1 << n) - 1)
        self.H = np.array(geo.houses, dtype=np.intp)  # (3n, n)
        self.CH = np.array(geo.cell_houses, dtype=np.intp)  # (N, 3)
        self.bit = np.array([1 << v for v in range(n)], dtype=self.dtype)
        # line-box intersections for locked candidates (dynamic branches): the cells of
        # each intersection, of the rest of its line and of the rest of its box, and per
        # cell the intersections whose line rest / box rest holds it
        inter = geo.intersections

        def cells(mask: int) -> list[int]:
            return [c for c in range(geo.ncells) if mask >> c & 1]
        self.I = np.array([cells(m) for _, _, m in inter], dtype=np.intp)
        self.LR = np.array([cells(geo.house_mask[line] & ~m) for line, _, m in inter], dtype=np.intp)
        self.BR = np.array([cells(geo.house_mask[box] & ~m) for _, box, m in inter], dtype=np.intp)
        lr_of: list[list[int]] = [[] for _ in range(geo.ncells)]
        br_of: list[list[int]] = [[] for _ in range(geo.ncells)]
        for k, (line, box, m) in enumerate(inter):
            for c in cells(geo.house_mask[line] & ~m):
                lr_of[c].append(k)
            for c in cells(geo.house_mask[box] & ~m):
                br_of[c].append(k)
        self.LRof = np.array(lr_of, dtype=np.intp)
        self.BRof = np.array(br_of, dtype=np.intp)


@cache
def tables(n: int) -> Tables:
    return Tables(geometry(n))


def base_row(state: State) -> np.ndarray:
    """The state as one row: candidate masks, decided cells as single bits."""
    t = tables(state.geo.n)
    row = np.array([(1 << (v - 1)) if v else m for v, m in zip(state.values, state.cand, strict=False)], dtype=t.dtype)
    return row


def assumed(base: np.ndarray, t: Tables, assumptions: list[tuple[int, int]], truth: bool = True) -> np.ndarray:
    """One row per (cell, value) of ``assumptions``: the base row with that candidate
    assumed true (the cell holds it alone) or false (the cell loses it)."""
    rows = np.repeat(base[None, :], len(assumptions), axis=0)
    if not assumptions:
        return rows
    idx = np.arange(len(assumptions))
    cells = np.array([c for c, _ in assumptions], dtype=np.intp)
    bits_ = t.bit[[v - 1 for _, v in assumptions]]
    if truth:
        rows[idx, cells] = bits_
    else:
        rows[idx, cells] &= ~bits_
    return rows


def popcount(a: np.ndarray) -> np.ndarray:
    """Bits set per element (np.bitwise_count from numpy 2.0; a byte table before)."""
    if hasattr(np, "bitwise_count"):
        counted: np.ndarray = np.bitwise_count(a)
        return counted
    table = np.array([bin(i).count("1") for i in range(256)], dtype=np.uint8)
    a = a.astype(np.uint32)
    return sum((table[(a >> s) & 0xFF] for s in (0, 8, 16, 24)), np.zeros(a.shape, dtype=np.uint8))


def _once_twice(g: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """Over the last axis: values present at least once, and at least twice."""
    once = g[..., 0].copy()
    twice = np.zeros_like(once)
    for k in range(1, g.shape[-1]):
        m = g[..., k]
        twice |= once & m
        once |= m
    return once, twice


def locked(c: np.ndarray, t: Tables) -> np.ndarray:
    """Eliminations of locked candidates (pointing and claiming) for every row."""
    def orr(idx: np.ndarray) -> np.ndarray:
        g = c[:, idx]
        reduced: np.ndarray = np.bitwise_or.reduce(g, axis=2)
        return reduced
    inside, line_rest, box_rest = orr(t.I), orr(t.LR), orr(t.BR)
    pointing = inside & ~box_rest  # confined to the intersection in the box: leaves the line
    claiming = inside & ~line_rest  # confined in the line: leaves the box
    out: np.ndarray = (np.bitwise_or.reduce(pointing[:, t.LRof], axis=2)
                       | np.bitwise_or.reduce(claiming[:, t.BRof], axis=2))
    return out


def propagate(cand: np.ndarray, t: Tables, dynamic: bool = False,
              rounds: np.ndarray | None = None, start: np.ndarray | None = None,
              base: np.ndarray | None = None) -> tuple[np.ndarray, np.ndarray]:
    """Singles (and, dynamic, locked candidates) to the fixpoint for every row:
    (candidates, contradiction flags); ``rounds``, if given, receives each row's
    number of rounds. ``start``: static chains (see ``_propagate_rows``).

    ``base``: a row the rows lie inside, differing in a few cells (a forcing batch's
    state row): a hint that changes nothing in the results, only the compiled path's
    speed (when the base is a fixpoint, each row's first round starts from it)."""
    if dynamic and start is not None:
        raise ValueError("static chains are not dynamic")
    if _C is None:
        return _propagate_rows(cand, t, dynamic, rounds, start)
    work = np.array(cand, dtype=np.uint32, order="C")
    contra = np.zeros(work.shape[0], dtype=np.uint8)
    counts = np.zeros(work.shape[0], dtype=np.int32)
    first = None if start is None else np.ascontiguousarray(start, dtype=np.uint32)
    hint = None if base is None else np.ascontiguousarray(base, dtype=np.uint32)
    _C.fixpoints(work, work.shape[0], t.n, dynamic, first, contra, counts, hint)
    if rounds is not None:
        rounds[:] = counts
    return work.astype(cand.dtype, copy=False), contra.view(bool)


def _propagate_rows(cand: np.ndarray, t: Tables, dynamic: bool = False,
                    rounds: np.ndarray | None = None, start: np.ndarray | None = None) -> tuple[np.ndarray, np.ndarray]:
    """The pure twin of ``propagate``: every row at once, one whole-grid round at a time.
    Singles (and, dynamic, locked candidates) to the fixpoint for every row:
    (candidates, contradiction flags). ``rounds``, if given, receives each row's
    number of rounds (a cheap proxy of its proof's length).

    ``start`` (the step-start row) asks for static chains (Sudoku Explainer's
    forcing chains): a value becomes true only in a cell that had two candidates at
    the start, or at the last place of a house where it had two, so every implication
    rests on one premise; a cell or house emptied counts as a contradiction only there.
    """
    cand = cand.copy()
    B = cand.shape[0]
    contra = np.zeros(B, dtype=bool)
    active = np.arange(B)
    H, CH = t.H, t.CH
    static = start is not None
    if start is not None:
        two, hv_ok = _static_masks(start, t)
        truth = ((cand & (cand - 1)) == 0) & (cand != 0)  # decided cells and assumptions
    r = 0
    while active.size:
        r += 1
        if rounds is not None:
            rounds[active] = r
        c = cand[active]
        single = (c & (c - 1)) == 0
        tr = truth[active] | (single & (c != 0) & two[None, :]) if static else single
        fixed = np.where(tr, c, 0).astype(c.dtype)
        once, twice = _once_twice(fixed[:, H])
        bad = (twice != 0).any(axis=1)
        elim = once[:, CH[:, 0]] | once[:, CH[:, 1]] | once[:, CH[:, 2]]
        new = np.where(tr, c, c & ~elim)
        once, twice = _once_twice(new[:, H])
        if static:  # only the house-values with two places at the start count
            once &= hv_ok[None, :]
            bad |= ((~once & hv_ok[None, :]) != 0).any(axis=1)
        else:
            bad |= (once != t.full).any(axis=1)
        hid = once & ~twice
        hc = new & (hid[:, CH[:, 0]] | hid[:, CH[:, 1]] | hid[:, CH[:, 2]])
        if static:
            hc = np.where(tr, 0, hc).astype(c.dtype)
        bad |= ((hc & (hc - 1)) != 0).any(axis=1)
        new = np.where(hc != 0, hc, new)
        if dynamic:
            new &= ~locked(new, t)
        bad |= ((new == 0) & two[None, :] if static else new == 0).any(axis=1)
        changed = (new != c).any(axis=1)
        if static:
            tr = tr | (hc != 0)
            changed |= (tr != truth[active]).any(axis=1)
            truth[active] = tr
        cand[active] = new
        contra[active[bad]] = True
        active = active[changed & ~bad]
    return cand, contra


def _static_masks(start: np.ndarray, t: Tables) -> tuple[np.ndarray, np.ndarray]:
    """Static chains: the cells that may turn true (two candidates at most at the start)
    and, per house, the values with two places at most there."""
    g = start[t.H]
    acc1, acc2, thrice = g[:, 0].copy(), np.zeros_like(g[:, 0]), np.zeros_like(g[:, 0])
    for k in range(1, g.shape[1]):
        m = g[:, k]
        thrice |= acc2 & m
        acc2 |= acc1 & m
        acc1 |= m
    return popcount(start) <= 2, (t.full & ~thrice).astype(start.dtype)


def propagate_chunked(cand: np.ndarray, t: Tables, dynamic: bool = False,
                      rounds: np.ndarray | None = None, start: np.ndarray | None = None,
                      base: np.ndarray | None = None) -> tuple[np.ndarray, np.ndarray]:
    """``propagate`` in slices of rows: the same result, with the working arrays of a
    big grid (25×25: thousands of rows of 625 cells) bounded by CHUNK·N."""
    per = max(1, CHUNK * 81 // t.N)
    if cand.shape[0] <= per or _C is not None:  # the compiled path works one row at a time
        return propagate(cand, t, dynamic, rounds, start, base)
    out = np.empty_like(cand)
    contra = np.zeros(cand.shape[0], dtype=bool)
    for s in range(0, cand.shape[0], per):
        sub_rounds = None if rounds is None else rounds[s:s + per]
        out[s:s + per], contra[s:s + per] = propagate(cand[s:s + per], t, dynamic, sub_rounds, start)
    return out, contra


def resumed(old_out: np.ndarray, old_contra: np.ndarray, old_rounds: np.ndarray, old: np.ndarray,
            base: np.ndarray, t: Tables, cands: list[tuple[int, int]], dynamic: bool = False
            ) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """A forcing batch (every (cell, value) of ``cands`` assumed true on ``base``, then false)
    from an earlier batch whose state held this one's (its fixpoints, contradiction flags and
    rounds; ``old``: each new row's row there): (fixpoints, contradiction flags, rounds).

    Singles (and locked candidates) only remove candidates, so a new row's fixpoint is its old
    fixpoint cut down to the new start row, run on: a row that loses nothing there is a
    fixpoint already, an old contradiction stays one; only the others run, in fewer rounds
    (each row's rounds: the old ones plus the new run's less its first)."""
    if _C is None:
        return _resumed_rows(old_out, old_contra, old_rounds, old, base, t, cands, dynamic)
    k = len(cands)
    out = np.empty((2 * k, t.N), dtype=np.uint32)
    contra = np.zeros(2 * k, dtype=np.uint8)
    rounds = np.zeros(2 * k, dtype=np.int32)
    old_out = np.ascontiguousarray(old_out, dtype=np.uint32)
    _C.resume(old_out, old_out.shape[0], np.ascontiguousarray(old_contra, dtype=np.uint8),
              np.ascontiguousarray(old_rounds, dtype=np.int32), np.ascontiguousarray(old, dtype=np.int32),
              np.ascontiguousarray(base, dtype=np.uint32), t.n, k, np.array([c for c, _ in cands], dtype=np.int32),
              np.array([1 << (v - 1) for _, v in cands], dtype=np.uint32), dynamic, out, contra, rounds)
    return out, contra.view(bool), rounds


def _resumed_rows(old_out: np.ndarray, old_contra: np.ndarray, old_rounds: np.ndarray, old: np.ndarray,
                  base: np.ndarray, t: Tables, cands: list[tuple[int, int]], dynamic: bool = False
                  ) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """The pure twin of ``resumed``: numpy over the whole batch."""
    rows = np.concatenate([assumed(base, t, cands), assumed(base, t, cands, truth=False)])
    before = old_out[old]
    start = before & rows
    contra = old_contra[old].copy()
    rounds = old_rounds[old].astype(np.int32)
    todo = np.nonzero(~contra & (start != before).any(axis=1))[0]
    if todo.size:
        more = np.zeros(todo.size, dtype=np.int32)
        start[todo], contra[todo] = propagate_chunked(start[todo], t, dynamic, more)
        rounds[todo] += more - 1
    return start, contra, rounds


def expand(cand: np.ndarray, t: Tables) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """One row per (row, undecided cell, candidate) with that candidate assumed:
    (rows, parent row index, flat candidate index cell*n + value-1)."""
    n = t.n
    bits_ = ((cand[:, :, None] >> np.arange(n, dtype=cand.dtype)) & 1).astype(bool)  # (B, N, n)
    single = (cand & (cand - 1)) == 0
    bits_ &= ~single[:, :, None]
    r, cell, v = np.nonzero(bits_)
    rows = cand[r]
    rows[np.arange(r.size), cell] = t.bit[v]
    return rows, r, cell * n + v


def _closure(cand: np.ndarray, t: Tables, level: int) -> tuple[np.ndarray, np.ndarray]:
    """Singles plus, from level 1 on, eliminations of candidates that contradict at
    level-1 in the row's own state, to the fixpoint: (candidates, contradiction flags)."""
    cand, contra = _propagate_rows(cand, t)
    if level <= 0:
        return cand, contra
    n = t.n
    live = np.nonzero(~contra)[0]
    while live.size:
        # expand a slice of rows at a time: each sub-batch stays about CHUNK rows
        width = int(popcount(cand[live]).sum(axis=1).max())
        per = max(1, CHUNK // max(1, width))
        hit: list[np.ndarray] = []
        for s in range(0, live.size, per):
            part = live[s:s + per]
            rows, parent, flat = expand(cand[part], t)
            if not rows.shape[0]:
                continue
            bad = _closure(rows, t, level - 1)[1]
            if bad.any():
                p, f = part[parent[bad]], flat[bad]
                np.bitwise_and.at(cand, (p, f // n), ~t.bit[f % n])
                hit.append(p)
        if not hit:
            break
        touched = np.unique(np.concatenate(hit))
        sub, sc = _propagate_rows(cand[touched], t)
        cand[touched] = sub
        contra[touched] = sc
        live = touched[~sc]
    return cand, contra


def contradicting(base: np.ndarray, t: Tables, assumptions: list[tuple[int, int]], level: int = 0,
                  chunk: int = 0) -> np.ndarray:
    """For each (cell, value) assumed on the base row: does the branch contradict at ``level``?
    (``chunk``: assumptions per numpy batch on the pure path.)"""
    if _C is None or not assumptions:
        return _contradicting_rows(base, t, assumptions, level, chunk)
    cells = np.array([c for c, _ in assumptions], dtype=np.int32)
    bits_ = np.array([1 << (v - 1) for _, v in assumptions], dtype=np.uint32)
    flags = np.zeros(len(assumptions), dtype=np.uint8)
    _C.contradicting(np.ascontiguousarray(base, dtype=np.uint32), t.n, len(assumptions), cells, bits_, flags, level)
    return flags.view(bool)


def _contradicting_rows(base: np.ndarray, t: Tables, assumptions: list[tuple[int, int]], level: int = 0,
                        chunk: int = 0) -> np.ndarray:
    """The pure twin of ``contradicting``: numpy batches of ``chunk`` assumptions."""
    out = np.zeros(len(assumptions), dtype=bool)
    if not assumptions:
        return out
    chunk = chunk or len(assumptions)
    for s in range(0, len(assumptions), chunk):
        part = assumptions[s:s + chunk]
        out[s:s + len(part)] = _closure(assumed(base, t, part), t, level)[1]
    return out


# ---- conclusions of groups of branches ---------------------------------------------------

GROUP_KINDS = ("cell", "house", "double")


def group_options(out: np.ndarray, contra: np.ndarray, cands: list[tuple[int, int]], base: np.ndarray,
                  t: Tables, static: bool, limit: int) -> list[tuple[str, int, tuple[int, int, bool]]]:
    """The first ``limit`` conclusions of groups of branches of a batch whose rows are every
    candidate of ``cands`` (in cell order) assumed true, then false: (kind, key, fact).

    A group is a set of branches one of which holds: a cell's candidates, true ("cell",
    key: the cell), a value's places in a house, true ("house", key: house*n + value-1),
    a candidate true and false ("double", key: its index in ``cands``). Groups are taken
    fewest branches first (cells, houses, doubles on ties); contradicting branches are left
    out. A group concludes a cell every live branch decides alike (not in static chains)
    and every start candidate none of them keeps, each fact once (the first group's), never
    one about the group's own assumptions (that is a contradiction in disguise)."""
    if _C is None:
        return _group_options_rows(out, contra, cands, base, t, static, limit)
    k = len(cands)
    found = _C.group_options(np.ascontiguousarray(out, dtype=np.uint32), contra.astype(np.uint8), k,
                             np.array([c for c, _ in cands], dtype=np.int32),
                             np.array([v for _, v in cands], dtype=np.int32),
                             np.ascontiguousarray(base, dtype=np.uint32), t.n, static, limit)
    return [(GROUP_KINDS[kind], key, (cell, value, truth)) for kind, key, cell, value, truth in found]


def _group_sets(out: np.ndarray, dead: np.ndarray, cands: list[tuple[int, int]], t: Tables,
                dtype: np.dtype) -> tuple[list[tuple[str, int]], np.ndarray, np.ndarray, np.ndarray]:
    """Every group, fewest branches first: (kind and key per group, and per group the AND
    and OR of its branches' fixpoints and whether one branch lives; a contradicting branch
    counts as neutral).

    Each family is reduced where its rows already lie: a cell's candidates are
    consecutive rows, a double is a row and its false twin; only houses gather rows."""
    geo = geometry(t.n)
    n, k = t.n, len(cands)
    hi = np.where(dead[:, None], t.full, out).astype(dtype, copy=False)  # neutral for AND
    lo = np.where(dead[:, None], dtype.type(0), out).astype(dtype, copy=False)  # neutral for OR
    cells = np.array([c for c, _ in cands], dtype=np.intp)
    vals = np.array([v for _, v in cands], dtype=np.intp)
    # houses: group key h*n + v-1 for each of the 3 houses of each candidate
    hkey = (np.asarray(geo.cell_houses, dtype=np.intp)[cells] * n + (vals - 1)[:, None]).ravel()
    hrow = np.repeat(np.arange(k), 3)
    order = np.argsort(hkey, kind="stable")
    hkey, hrow = hkey[order], hrow[order]
    keys, hstart, hcount = np.unique(hkey, return_index=True, return_counts=True)
    cstart = np.nonzero(np.r_[True, cells[1:] != cells[:-1]])[0]
    ccount = np.diff(np.r_[cstart, k])
    many = hcount >= 2

    def reduce(rows: np.ndarray, starts: np.ndarray) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
        return (np.bitwise_and.reduceat(hi[rows], starts, axis=0),
                np.bitwise_or.reduceat(lo[rows], starts, axis=0),
                np.logical_or.reduceat(~dead[rows], starts))

    ci, cu, ca = reduce(np.arange(k), cstart)
    hi_, hu, ha = reduce(hrow, hstart)
    di, du, da = hi[:k] & hi[k:], lo[:k] | lo[k:], ~dead[:k] | ~dead[k:]
    groups = ([("cell", int(cells[s0])) for s0 in cstart] + [("house", int(x)) for x in keys[many]]
              + [("double", i) for i in range(k)])
    sizes = np.concatenate([ccount, hcount[many], np.full(k, 2)])
    rank = np.argsort(sizes, kind="stable")
    inter = np.concatenate([ci, hi_[many], di])[rank]
    union = np.concatenate([cu, hu[many], du])[rank]
    alive = np.concatenate([ca, ha[many], da])[rank]
    return [groups[g] for g in rank], inter, union, alive


def _group_options_rows(out: np.ndarray, contra: np.ndarray, cands: list[tuple[int, int]], base: np.ndarray,
                        t: Tables, static: bool, limit: int) -> list[tuple[str, int, tuple[int, int, bool]]]:
    """The pure twin of ``group_options``: every group reduced at once (numpy)."""
    k = len(cands)
    if limit <= 0 or not k:
        return []
    groups, inter, union, alive = _group_sets(out, contra, cands, t, base.dtype)
    undecided = (base & (base - 1)) != 0
    if static:  # a cell left with one candidate is not true in a static branch
        single = np.zeros(inter.shape, dtype=bool)
    else:
        single = (inter == union) & ((inter & (inter - 1)) == 0) & undecided[None, :] & alive[:, None]
    gone = base[None, :] & ~union & np.where(undecided, t.full, 0).astype(base.dtype)[None, :]
    gone[single | ~alive[:, None]] = 0
    rows_of: dict[str, Callable[[int], list[int]]] = {
        "cell": lambda key: [i for i, (c, _) in enumerate(cands) if c == key],
        "house": lambda key: [i for i, (c, v) in enumerate(cands)
                              if v - 1 == key % t.n and key // t.n in geometry(t.n).cell_houses[c]],
        "double": lambda key: [key]}
    seen: set[tuple[int, int, bool]] = set()
    found: list[tuple[str, int, tuple[int, int, bool]]] = []
    for g in np.nonzero(single.any(axis=1) | (gone != 0).any(axis=1))[0]:
        kind, key = groups[g]
        facts = [(int(c), int(inter[g, c]).bit_length(), True) for c in np.nonzero(single[g])[0]]
        for c in np.nonzero(gone[g])[0]:
            m = int(gone[g, c])
            facts += [(int(c), u + 1, False) for u in range(t.n) if m >> u & 1]
        assumed = {cands[i] for i in rows_of[kind](key)}
        for f in facts:
            if f not in seen and (f[0], f[1]) not in assumed:
                seen.add(f)
                found.append((kind, key, f))
                if len(found) == limit:
                    return found
    return found


# ---- one digit ------------------------------------------------------------------------------

def one_digit_fails(state: State, values: int | None = None) -> list[tuple[int, int]]:
    """The (cell, value) placements whose one-digit implications (the value's peers lose it,
    a house left with one place for it takes it there) leave a house that still misses the
    value without a place: SE's Nishio chains. By value, then cell. ``values``: only the
    values of this mask (bit v-1); every value by default. A value's own places
    (``state.pos``) decide its placements, nothing else."""
    geo = state.geo
    if values is None:
        values = (1 << geo.n) - 1
    if _C is not None:
        return [tuple(x) for x in _C.one_digit_fails(array("I", state.cand), geo.n, values)]
    hmask, peer = geo.house_mask, geo.peer_mask
    out = []
    for v in range(1, geo.n + 1):
        if not values >> (v - 1) & 1:
            continue
        pv = state.pos[v - 1]
        houses = [h for h in range(3 * geo.n) if pv & hmask[h]]  # the houses still missing v
        rest = pv
        while rest:
            c = (rest & -rest).bit_length() - 1
            rest &= rest - 1
            if _one_digit_fails(pv, c, houses, hmask, peer):
                out.append((c, v))
    return out


def _one_digit_fails(pv: int, c: int, houses: list[int], hmask: tuple[int, ...], peer: tuple[int, ...]) -> bool:
    """True if placing the value at ``c`` (places ``pv``) leaves, by the value's own hidden
    singles, a house (of ``houses``, those still missing it) without the value."""
    placed = 1 << c
    left = pv & ~peer[c]
    done = True
    while done:
        done = False
        for h in houses:
            hm = hmask[h]
            if placed & hm:
                continue
            w = left & hm
            if not w:
                return True
            if not w & (w - 1):
                placed |= w
                left &= ~peer[w.bit_length() - 1]
                done = True
    return False
