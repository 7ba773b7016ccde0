"""The unique rectangle search (``techniques.uniqueness``), with a compiled (``_ur.c``) and a pure-Python path.

``rectangles`` lists every unique rectangle step of a state that removes something, as a
compact lead ``(kind, size, j, c0, c1, c2, c3, ab)``: the type (1 to 6, 7 for hidden), type
3's set size (its cells, the roof as one; else 0), the step's place ``j`` among every step
``techniques.uniqueness._rectangle_steps`` lists for the rectangle (those removing nothing
included), the corners (top left, top right, bottom left, bottom right) and the values a and
b as a mask. The finder sorts the leads by type (stably) and builds a step only for the lead
the engine reads.

Order: floor corners f (cells holding two values ab) in cell order; from each, its rectangles
on exactly two boxes whose three other corners hold a or b, by rows then columns, each
rectangle listed once (from its first corner holding only ab); per rectangle, its steps in
``_rectangle_steps``' order: type 1; types 2 and 5 (two roof corners sharing one extra value);
type 5 (three); type 4 then type 3 per house holding the two roof corners; type 6 per line
pair; hidden per floor corner. Both paths return the same list, item for item
(``tests/core/test_ur.py`` compares them on real and random states of every size).

The pure path keeps each rectangle's leads in the session while the rectangle's rows,
columns and boxes keep their candidates (the compiled one searches afresh: cheaper in C than
the stamps' check).
"""
from __future__ import annotations

from collections.abc import Iterator
from functools import cache

from explainer.model.grid import Geometry, geometry
from explainer.model.session import Session
from explainer.model.state import State

from . import load

_C = load("_ur")

Lead = tuple[int, int, int, int, int, int, int, int]
HIDDEN = 7  # the hidden rectangle's kind


def compiled() -> bool:
    """True when the compiled search is in use."""
    return _C is not None


def loop_pairs(state: State, min_cells: int) -> list[tuple[int, int, int]]:
    """The pairs {a, b} a unique loop of ``min_cells`` cells or more may be made of, as
    ``(ab, only, cells)`` in the order of ab (module docstring of ``techniques.uniqueloops``):
    ``only`` the cells holding just a and b, ``cells`` those a loop may pass (holding a and b;
    with fewer than ``min_cells`` - 2 cells holding just them, only those and cells holding one
    value more), thinned of every cell alone in one of its houses; pairs left with fewer than
    ``min_cells`` cells or none holding just a and b are not listed."""
    if _C is not None:
        return _C.loop_pairs(state.geo.n, state.cand, min_cells)  # type: ignore[no-any-return]
    return loop_pairs_py(state, min_cells)


def rectangles(state: State, session: Session | None = None) -> list[Lead]:
    """Every unique rectangle step that removes something, as leads (module docstring)."""
    if _C is not None:
        return _C.rectangles(state.geo.n, state.cand)  # type: ignore[no-any-return]
    return rectangles_py(state, session)


# ---- the pure path -----------------------------------------------------------------------------

def loop_pairs_py(state: State, min_cells: int) -> list[tuple[int, int, int]]:
    """The pure path of ``loop_pairs``."""
    geo = state.geo
    cand, pos = state.cand, state.pos
    pure: dict[int, int] = {}  # {a, b} -> the cells holding only a and b
    for c, m in enumerate(cand):
        if m.bit_count() == 2:
            pure[m] = pure.get(m, 0) | 1 << c
    out = []
    for ab, only in sorted(pure.items()):
        low = ab & -ab
        cells = pos[low.bit_length() - 1] & pos[(ab ^ low).bit_length() - 1]
        if only.bit_count() < min_cells - 2:
            # more than two extra cells: every one holds a, b and the same single extra value
            cells = only | sum(1 << c for c in _bits(cells) if cand[c].bit_count() == 3)
        cells = _thin(geo, cells)
        if cells.bit_count() >= min_cells and cells & only:
            out.append((ab, only, cells))
    return out


def _thin(geo: Geometry, cells: int) -> int:
    """Drop, until none is left, every cell alone among ``cells`` in one of its houses:
    a loop cell has a partner in each of its houses."""
    masks = geo.house_mask
    changed = True
    while changed and cells:
        changed = False
        for hm in masks:
            inside = cells & hm
            if inside and inside & (inside - 1) == 0:
                cells &= ~inside
                changed = True
    return cells


@cache
def _rectangle_houses(n: int) -> dict[tuple[int, int, int, int], tuple[int, ...]]:
    """Per rectangle, the houses its steps read: its two rows, two columns and two boxes."""
    geo = geometry(n)
    out = {}
    for r1 in range(n):
        for r2 in range(r1 + 1, n):
            for c1 in range(n):
                for c2 in range(c1 + 1, n):
                    rect = (r1 * n + c1, r1 * n + c2, r2 * n + c1, r2 * n + c2)
                    if len({geo.box_of[c] for c in rect}) == 2:
                        out[rect] = tuple(sorted({h for c in rect for h in geo.cell_houses[c]}))
    return out


def rectangles_py(state: State, session: Session | None = None) -> list[Lead]:
    """The pure path of ``rectangles``."""
    geo = state.geo
    cand, pos = state.cand, state.pos
    n, house, row_of, col_of = geo.n, geo.house_mask, geo.row_of, geo.col_of
    rect_houses = _rectangle_houses(n)
    stamps = session.house_stamps() if session is not None else ()
    out: list[Lead] = []
    for f, ab in enumerate(cand):
        if ab.bit_count() != 2:
            continue
        low = ab & -ab
        either = (pos[low.bit_length() - 1] | pos[(ab ^ low).bit_length() - 1]) & ~(1 << f)
        in_row, in_col = either & house[row_of[f]], either & house[n + col_of[f]]
        if not in_row or not in_col:
            continue
        rects = []
        for x in _bits(in_row):
            for y in _bits(in_col):
                d = row_of[y] * n + col_of[x]
                if either >> d & 1:
                    rect = tuple(sorted((f, x, y, d)))
                    if rect in rect_houses and not any(c < f and cand[c] == ab for c in rect):
                        rects.append(rect)
        rects.sort(key=lambda r: (r[0] // n, r[2] // n, r[0] % n, r[1] % n))  # rows, then columns
        for rect in rects:
            r: tuple[int, int, int, int] = rect
            if session is None:
                steps = _steps(geo, cand, r, ab)
            else:
                content = tuple([stamps[h] for h in rect_houses[r]])
                steps = session.part("unique rectangle", (r, ab), content,
                                     lambda: _steps(geo, cand, r, ab))  # noqa: B023
            out += [(kind, size, j, *r, ab) for kind, size, j in steps]
    return out


def _bits(mask: int) -> Iterator[int]:
    while mask:
        low = mask & -mask
        yield low.bit_length() - 1
        mask ^= low


def _sees(geo: Geometry, x: int, y: int) -> bool:
    return bool(geo.peer_mask[x] >> y & 1)


def _only_on(geo: Geometry, cand: list[int], h: int, v: int, on: tuple[int, ...] | list[int]) -> bool:
    """Value bit v lives in house h, and only on the cells ``on``."""
    holding = [c for c in geo.houses[h] if cand[c] & v]
    return bool(holding) and all(c in on for c in holding)


def _seen_by_all(geo: Geometry, cand: list[int], v: int, cells: list[int]) -> bool:
    seen = -1
    for c in cells:
        seen &= geo.peer_mask[c]
    return any(cand[x] & v for x in _bits(seen))


def _steps(geo: Geometry, cand: list[int], rect: tuple[int, int, int, int], ab: int
           ) -> tuple[tuple[int, int, int], ...]:
    """(kind, size, j) of the rectangle's steps that remove something (module docstring)."""
    if any(cand[c] != ab and not cand[c] & ~ab for c in rect):
        return ()
    n = geo.n
    floor = [c for c in rect if cand[c] == ab]
    roof = [c for c in rect if cand[c] != ab]
    extra = 0
    for c in roof:
        extra |= cand[c] & ~ab
    a = ab & -ab
    b = ab ^ a
    out: list[tuple[int, int, int]] = []
    j = 0

    def add(kind: int, live: bool, size: int = 0) -> None:
        nonlocal j
        if live:
            out.append((kind, size, j))
        j += 1

    if len(floor) == 3:
        add(1, True)
    if len(roof) == 2 and extra.bit_count() == 1 and all(cand[c] & ~ab == extra for c in roof):
        add(2 if _sees(geo, roof[0], roof[1]) else 5, _seen_by_all(geo, cand, extra, roof))
    if len(roof) == 3 and extra.bit_count() == 1 and all(cand[c] & extra for c in roof):
        add(5, _seen_by_all(geo, cand, extra, roof))
    if len(roof) == 2 and _sees(geo, roof[0], roof[1]):
        r0, r1 = roof
        houses = [h for h in geo.cell_houses[r0] if geo.house_mask[h] >> r1 & 1]
        for h in houses:  # type 4
            for x, y in ((a, b), (b, a)):
                if _only_on(geo, cand, h, x, roof):
                    add(4, bool((cand[r0] | cand[r1]) & y))
        for h in houses:  # type 3
            for size in _type_3_sizes(geo, cand, roof, extra, h, houses):
                add(3, True, size)
    diagonal = len(floor) == 2 and not _sees(geo, floor[0], floor[1])
    if diagonal:  # type 6
        rows = (rect[0] // n, rect[3] // n)
        cols = (n + rect[0] % n, n + rect[3] % n)
        for lines in (rows, cols):
            for x in (a, b):
                if all(_only_on(geo, cand, h, x, rect) for h in lines):
                    add(6, bool((cand[roof[0]] | cand[roof[1]]) & x))
    if len(floor) == 1 or diagonal:  # hidden
        for corner in floor:
            opposite = next(c for c in rect if c // n != corner // n and c % n != corner % n)
            for x, y in ((a, b), (b, a)):
                if _only_on(geo, cand, opposite // n, x, rect) and _only_on(geo, cand, n + opposite % n, x, rect):
                    add(HIDDEN, bool(cand[opposite] & y))
    return tuple(out)


def _type_3_sizes(geo: Geometry, cand: list[int], roof: list[int], extra: int, h: int, houses: list[int]
                  ) -> Iterator[int]:
    """The sizes (cells, the roof as one) of the naked sets the roof's extras complete in house h
    that remove something, smallest first (``techniques.deadly.virtual_naked_sets`` with any set
    size); a set lying in an earlier house of ``houses`` too is left to that house."""
    others = [c for c in geo.houses[h] if cand[c] and c not in roof]
    for k in range(1, min(geo.n - 1, len(others) - 1) + 1):
        pool = [c for c in others if (cand[c] | extra).bit_count() <= k + 1]
        for group, u in sets_of(cand, pool, extra, k, k + 1, 0):
            if not any(cand[c] & u for c in others if c not in group):
                continue
            if any(x < h and all(geo.house_mask[x] >> c & 1 for c in group) for x in houses):
                continue
            yield k + 1


def sets_of(cand: list[int], pool: list[int], u: int, k: int, limit: int, start: int = 0
             ) -> Iterator[tuple[tuple[int, ...], int]]:
    """(group, values) for the k-cell groups of ``pool[start:]`` whose candidates with u number
    exactly ``limit``, in the order of ``combinations``: a partial group already past ``limit``
    values is dropped with every group it would grow into (values only grow), so on a big grid
    the walk costs the groups that may still fit, not every combination (``techniques.deadly``'s
    naked sets read it too)."""
    if k == 0:
        if u.bit_count() == limit:
            yield (), u
        return
    for i in range(start, len(pool) - k + 1):
        c = pool[i]
        v = u | cand[c]
        if v.bit_count() <= limit:
            for rest, w in sets_of(cand, pool, v, k - 1, limit, i + 1):
                yield (c, *rest), w
