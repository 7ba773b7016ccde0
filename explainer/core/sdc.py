"""Sue de Coq's searches (``techniques.suedecoq``), with a compiled (``_sdc.c``) and a pure-Python path.

Each searches one line-box intersection given as its cells in a local order: the m
cells of the intersection I first, then the line's other cells, then the box's
(``cells``; ``mi``: |I|, ``ml``: the line's other cells). Cell sets are masks
of positions in that order (a 25×25 part has 45 cells: one machine word), so the
results are small ints whatever the grid; the technique turns them into cells
for the one step it builds. Both paths return the same list, item for item and
in the same order (``tests/core/test_sdc.py`` compares them on real states of
every size); the technique sorts it (stably) and yields it in that order.

- ``suedecoq_at``: every Sue de Coq of the intersection, ``(rank, m12, m1, m2, f,
  u1, u2, removed)``: E12, E1, E2 and their values, rank = |E12| + |E1| + |E2|
  (+100 when a side holds a value outside F), ``removed``: how many candidates
  it removes (each once);
- ``bis_at``: every Sue de Coq bis, ``(size, me, m1, m2, f, v1, v2, removed)``: the A²LS E
  and the ALSs E1, E2, the values of each, size = |E| + |E1| + |E2|.

The order is the pattern's listing order (``techniques.suedecoq``'s docstring):
E12 over the subsets of I's empty cells in binary counting order; each side's
sets as a doubling (each cell in turn added to every set listed before it, at
most ``max_side`` cells), then with one unused cell of I; the sides paired by
``d`` in the order a line side's ``d`` first appears. ALSs are listed as
``itertools.combinations``, size by size.
"""
from __future__ import annotations

from collections.abc import Sequence
from functools import cache
from itertools import combinations

from . import load

_C = load("_sdc")

Found = tuple[int, int, int, int, int, int, int, int]


def compiled() -> bool:
    """True when the compiled searches are in use."""
    return _C is not None


def suedecoq_at(cand: list[int], cells: tuple[int, ...], mi: int, ml: int, extras: int,
                max_side: int) -> list[Found]:
    """The Sue de Coqs of one intersection (module docstring): sides of at most ``max_side``
    cells holding at most ``extras`` values outside F."""
    if _C is not None:
        return _C.suedecoq_at(cand, cells, mi, ml, extras, max_side)  # type: ignore[no-any-return]
    return suedecoq_at_py(cand, cells, mi, ml, extras, max_side)


def bis_at(cand: list[int], cells: tuple[int, ...], mi: int, ml: int, limit: int) -> list[Found]:
    """The Sue de Coq bis of one intersection (module docstring): ALSs of at most ``limit`` cells."""
    if _C is not None:
        return _C.bis_at(cand, cells, mi, ml, limit)  # type: ignore[no-any-return]
    return bis_at_py(cand, cells, mi, ml, limit)


# ---- the pure path -----------------------------------------------------------------------------

def _positions(x: Sequence[int], lo: int, hi: int) -> list[int]:
    """The positions lo..hi-1 of empty cells (some candidate)."""
    return [i for i in range(lo, hi) if x[i]]


def _subsets(core: list[int], x: Sequence[int]) -> list[tuple[int, int, int]]:
    """(mask, candidate union, size) of every nonempty subset of ``core``, in binary counting order."""
    subs = [(0, 0, 0)]
    for i in core:
        subs += [(m | 1 << i, u | x[i], s + 1) for m, u, s in subs]
    return subs[1:]


def _doubling(part: list[int], x: Sequence[int], max_side: int) -> list[tuple[int, int, int]]:
    """(mask, union, size) of the subsets of ``part`` of at most ``max_side`` cells, the empty one
    first, as a doubling (each cell in turn added to every set listed before it)."""
    subs = [(0, 0, 0)]
    for i in part:
        bit, xi = 1 << i, x[i]
        subs += [(m | bit, u | xi, k + 1) for m, u, k in subs if k < max_side]
    return subs


def _pruned(part: list[int], x: Sequence[int], f: int, extras: int, max_side: int) -> list[tuple[int, int, int]]:
    """``_doubling``'s sets that hold at most ``extras`` values outside ``f``, in its order: a set
    past them is dropped as soon as it is made, with every set it would grow into (their values
    only grow), so the listing costs the sets kept (big parts: 12 or 20 cells)."""
    nf = ~f
    subs = [(0, 0, 0)]
    for i in part:
        xi = x[i]
        if (xi & nf).bit_count() <= extras:
            bit = 1 << i
            subs += [(m | bit, u | xi, k + 1) for m, u, k in subs
                     if k < max_side and ((u | xi) & nf).bit_count() <= extras]
    return subs


BIG_PART = 6  # a house part of more cells (16×16 and up) is listed pruned, for each F (``_pruned``)


def sides_py(subs: list[tuple[int, int, int]], spare: list[int], x: Sequence[int], f: int, most: int,
             extras: int, max_side: int) -> dict[int, list[tuple[int, int, int]]]:
    """d -> [(mask, union, size)]: the sets that can be one side of a Sue de Coq on F = ``f``:
    a set of ``subs``, or one of fewer than ``max_side`` cells with an unused cell of I
    (``spare``), holding a value of F and at most ``extras`` outside it, d = size - |values
    outside F| in 1..``most``; the d in the order they first appear."""
    nf = ~f
    rows = subs + [(m | 1 << i, u | x[i], k + 1) for i in spare for m, u, k in subs if k < max_side]
    out: dict[int, list[tuple[int, int, int]]] = {}
    for m, u, k in rows:
        if u & f:
            d = k - (u & nf).bit_count()
            if k - d <= extras and 1 <= d <= most:
                out.setdefault(d, []).append((m, u, k))
    return out


def _removed(x: Sequence[int], inter: list[int], line: list[int], box: list[int], used: int,
             a: int, b: int) -> int:
    """How many candidates leave: ``a`` from the line's cells, ``b`` from the box's, both from
    I's, outside the cells ``used`` (each candidate once)."""
    return (sum((x[i] & (a | b)).bit_count() for i in inter if not used >> i & 1)
            + sum((x[i] & a).bit_count() for i in line if not used >> i & 1)
            + sum((x[i] & b).bit_count() for i in box if not used >> i & 1))


def suedecoq_at_py(cand: Sequence[int], cells: tuple[int, ...], mi: int, ml: int, extras: int,
                   max_side: int) -> list[Found]:
    """``suedecoq_at``'s pure path."""
    x = [cand[c] for c in cells]
    core = _positions(x, 0, mi)
    line, box = _positions(x, mi, mi + ml), _positions(x, mi + ml, len(x))
    found: list[Found] = []
    if len(core) < 2 or not line or not box:
        return found
    # small parts: every set listed once, then filtered for each F; big ones: listed for each F
    line_subs = None if len(line) > BIG_PART else _doubling(line, x, max_side)
    box_subs = None if len(box) > BIG_PART else _doubling(box, x, max_side)
    for m12, f, s12 in _subsets(core, x):
        n_plus = f.bit_count() - s12
        if s12 < 2 or n_plus < 2:
            continue
        spare = [i for i in core if not m12 >> i & 1]  # unused cells of I: either side may take them
        subs = _pruned(line, x, f, extras, max_side) if line_subs is None else line_subs
        lines = sides_py(subs, spare, x, f, n_plus - 1, extras, max_side)
        if not lines:
            continue
        subs = _pruned(box, x, f, extras, max_side) if box_subs is None else box_subs
        boxes = sides_py(subs, spare, x, f, n_plus - 1, extras, max_side)
        for d1, pool in lines.items():
            for m2, u2, s2 in boxes.get(n_plus - d1, ()):
                for m1, u1, s1 in pool:
                    if u1 & u2 or m1 & m2:
                        continue
                    removed = _removed(x, core, line, box, m12 | m1 | m2, (f | u1) & ~u2, (f | u2) & ~u1)
                    if removed:
                        rank = s12 + s1 + s2 + (100 if (u1 | u2) & ~f else 0)
                        found.append((rank, m12, m1, m2, f, u1, u2, removed))
    return found


@cache
def _combination_order(k: int, limit: int) -> tuple[tuple[int, int], ...]:
    """(position mask, size) of every subset of 1 to ``limit`` of k positions, in the order of
    ``combinations`` size by size."""
    return tuple((sum(1 << i for i in chosen), size)
                 for size in range(1, min(limit, k) + 1) for chosen in combinations(range(k), size))


def _alss(part: list[int], x: Sequence[int], limit: int) -> list[tuple[int, int, int]]:
    """The ALSs (mask, values, size) of at most ``limit`` cells among ``part``, size by size in
    the order of ``combinations``: on a small part every subset's cells and values are built at
    once (a doubling) and read in that order; on a big one (at most 4 cells of 12 or 20) each
    combination's."""
    if len(part) <= 9:
        masks, unions = [0], [0]
        for i in part:
            bit, xi = 1 << i, x[i]
            masks += [m | bit for m in masks]
            unions += [u | xi for u in unions]
        return [(masks[pm], unions[pm], size) for pm, size in _combination_order(len(part), limit)
                if unions[pm].bit_count() == size + 1]
    out = []
    for size in range(1, min(limit, len(part)) + 1):
        for chosen in combinations(part, size):
            u = 0
            for i in chosen:
                u |= x[i]
            if u.bit_count() == size + 1:
                out.append((sum(1 << i for i in chosen), u, size))
    return out


def bis_at_py(cand: Sequence[int], cells: tuple[int, ...], mi: int, ml: int, limit: int) -> list[Found]:
    """``bis_at``'s pure path."""
    x = [cand[c] for c in cells]
    core = _positions(x, 0, mi)
    found: list[Found] = []
    if not core:
        return found
    a2ls = [(m, u, s) for m, u, s in _subsets(core, x) if u.bit_count() == s + 2]
    if not a2ls:
        return found
    line, box = _positions(x, mi, mi + ml), _positions(x, mi + ml, len(x))
    line_als = _alss(line, x, limit)
    if not line_als:
        return found
    box_als = _alss(box, x, limit)
    if not box_als:
        return found
    for me, f, se in a2ls:
        left = [a for a in line_als if (a[1] & f).bit_count() >= 2]
        right = [a for a in box_als if (a[1] & f).bit_count() >= 2]
        for m1, v1, s1 in left:
            for m2, v2, s2 in right:
                if v1 & v2:
                    continue
                removed = _removed(x, core, line, box, me | m1 | m2, v1, v2)
                if removed:
                    found.append((se + s1 + s2, me, m1, m2, f, v1, v2, removed))
    return found
