"""The inner loops of Sudoku Explainer's pattern producers (``techniques.se``), compiled and pure.

SE is a 9×9 program; a state comes in as ``cand``, its 81 value masks (bit
v-1 for value v, 0 for a placed cell). Each function returns the first hint
of SE's own scan as plain values, the same on both paths (the compiled
module ``_sepattern.c`` and the Python below; ``SUDOKU_EXPLAINER_PURE=1``
forces the Python); the techniques write the step.

- ``aligned(cand, degree, classic)``: Sudoku Explainer's aligned pair (degree
  2) or triplet (3) exclusion (``techniques.se.aligned`` says how SE finds
  it): ``(cells, excluders, removals)`` of its first base set that removes
  something, or None.
- ``unique_loops(cand, holding, start, both, per_branch, valid=True)``: the
  loops of SE's unique-loop walk from a bivalue cell, compiled only: its pure
  twin is ``techniques.uniqueloops._se_walk`` (then ``_se_valid``), which
  reads the technique's state; the technique calls this when ``compiled()``.
"""
from __future__ import annotations

from collections.abc import Sequence
from functools import cache
from itertools import product

from explainer.model.grid import bits, values_of

from . import load

_C = load("_sepattern")

CELLS = 81
Hint = tuple[tuple[int, ...], tuple[int, ...], list[tuple[int, int]]]


def compiled() -> bool:
    """True when the compiled loops are in use."""
    return _C is not None


@cache
def peers_in_order(classic: bool) -> tuple[tuple[int, ...], ...]:
    """Each cell's peers in a flavour's order: Sukaku Explainer's in increasing index, classic SE's
    block first, then row, then column, each once (a constant table of SE's geometry)."""
    out = []
    for c in range(CELLS):
        r, k = divmod(c, 9)
        b0 = 27 * (r // 3) + 3 * (k // 3)
        box = [b0 + 9 * i + j for i in range(3) for j in range(3)]
        row = [9 * r + j for j in range(9)]
        col = [9 * i + k for i in range(9)]
        if classic:
            seen = dict.fromkeys(x for x in box + row + col if x != c)
        else:
            seen = dict.fromkeys(sorted(set(box + row + col) - {c}))
        out.append(tuple(seen))
    return tuple(out)


@cache
def _sees() -> tuple[int, ...]:
    """Each cell's peers as a mask."""
    return tuple(sum(1 << x for x in peers_in_order(False)[c]) for c in range(CELLS))


def aligned(cand: Sequence[int], degree: int, classic: bool) -> Hint | None:
    """SE's first aligned exclusion hint of one degree and flavour (see the module)."""
    if _C is not None:
        found: Hint | None = _C.aligned(list(cand), degree, int(classic))
        return found
    return aligned_py(cand, degree, classic)


def unique_loops(cand: Sequence[int], holding: int, start: int, both: int, per_branch: bool,
                 valid: bool = True) -> list[list[int]]:
    """The loops of SE's walk from ``start`` (``holding``: the cells holding both values of the
    mask ``both``), in the walk's order; ``valid``: only those passing SE's test. Compiled only
    (see the module): call it when ``compiled()``."""
    if _C is None:
        raise RuntimeError("unique_loops: the compiled pattern loops are not in use")
    loops: list[list[int]] = _C.unique_loops(cand, holding, start, both, int(per_branch), int(valid))
    return loops


def aligned_py(cand: Sequence[int], degree: int, classic: bool) -> Hint | None:
    order = peers_in_order(classic)
    base: list[int] = []
    excluders: dict[int, list[int]] = {}
    masks: dict[int, int] = {}
    for c in range(CELLS):
        if cand[c].bit_count() < 2:
            continue
        found = []
        single = False
        for p in order[c]:
            k = cand[p].bit_count()
            if k == 1:
                single = True
            elif 2 <= k <= degree:
                found.append(p)
        if not single and found:
            base.append(c)
            excluders[c] = found
            masks[c] = sum(1 << p for p in found)
    if len(base) < degree:
        return None
    is_base = set(base)
    for j in range(1, len(base)):
        for i in range(j):
            a, b = base[i], base[j]
            pair = masks[a] & masks[b]
            if pair.bit_count() < 2:
                continue
            if degree == 2:
                removed = removals(cand, (a, b), pair)
                if removed:
                    return (a, b), tuple(bits(pair)), removed
                continue
            tail = [c for c in dict.fromkeys(excluders[a] + excluders[b]) if c in is_base and c != a and c != b]
            for c in tail:
                common = pair & masks[c]
                if common.bit_count() >= 2:
                    removed = removals(cand, (a, b, c), common)
                    if removed:
                        return (a, b, c), tuple(bits(common)), removed
    return None


def removals(cand: Sequence[int], cells: tuple[int, ...], common: int) -> list[tuple[int, int]]:
    """The candidates of ``cells`` that no possible combination uses, ``common`` the excluders.

    The values of the last cell are taken together: once the others are chosen, an excluder
    they already cover (every candidate of it among their values) forbids every value of the
    last cell, one they cover but for one value forbids that value, and one value may not go
    twice into cells that see each other."""
    peer = _sees()
    walls = [cand[e] for e in bits(common)]
    sees = [[bool(peer[a] >> b & 1) for b in cells] for a in cells]
    masks = [cand[c] for c in cells]
    used = [0] * len(cells)
    full = masks[:]
    for combo in product(*(values_of(m) for m in masks[:-1])):
        chosen = 0
        ok = True
        for i, v in enumerate(combo):
            for j in range(i):
                if combo[j] == v and sees[i][j]:
                    ok = False
            chosen |= 1 << (v - 1)
        if not ok:
            continue
        allowed = masks[-1]
        for i, v in enumerate(combo):
            if sees[i][-1]:
                allowed &= ~(1 << (v - 1))
        for w in walls:
            rest = w & ~chosen
            if not rest:
                allowed = 0
                break
            if not rest & (rest - 1):
                allowed &= ~rest
        if allowed:
            for i, v in enumerate(combo):
                used[i] |= 1 << (v - 1)
            used[-1] |= allowed
            if used == full:
                return []
    return [(c, v) for i, c in enumerate(cells) for v in values_of(masks[i] & ~used[i])]
