"""Sudoku Explainer's fish: X-wing (3.2), swordfish (3.8), jellyfish (5.2).

SE looks at column-based fish first (base columns, cover rows), then
row-based ones; it enumerates the base lines in its ``Permutations`` order
(outer loop) and the values 1..9 (inner loop), and considers a value only
while its placed count + 2·degree is at most 9. Each base line needs two
places or more, and together they must cover exactly ``degree`` lines. The
steps are the registry's fish (``techniques.fish``) with SE's rating recorded.
"""
from __future__ import annotations

from collections.abc import Callable, Iterator
from functools import partial

from explainer.model.explanation import Explanation
from explainer.model.grid import Geometry, bits
from explainer.model.state import State
from explainer.model.technique import NO_CONTEXT, Context

from ..fish import NAMES, fish_step
from .base import by_value, check_size, rated, subsets

RATING = {2: 3.2, 3: 3.8, 4: 5.2}


def finder(degree: int) -> Callable[[State, Context], Iterator[Explanation]]:
    """SE's fish of one degree (X-wing 2, swordfish 3, jellyfish 4)."""

    def find(state: State, ctx: Context = NO_CONTEXT, /) -> Iterator[Explanation]:
        geo = check_size(state)
        placed = [0] * 10
        for x in state.values:
            placed[x] += 1
        open_values = [v for v in range(1, 10) if placed[v] + 2 * degree <= 9]
        if not open_values:
            return
        # a value's fish depend on its places only: the session keeps them per value with the
        # places they were found from; SE's order is the orientation, the base lines, the value
        tables = by_value(state, ctx, f"se.fish.{degree}", lambda v: _value_fish(geo, state.pos[v - 1], degree),
                          open_values)
        found = [(f[0], f[1], v, f) for v, fish in zip(open_values, tables, strict=True) for f in fish]
        found.sort(key=lambda t: t[:3])
        for _, _, v, (_, _, o, base, cover, pattern, removed) in found:
            yield rated(ctx, NAMES[degree], RATING[degree],
                        partial(fish_step, geo, v, o, list(base), cover, pattern, removed, degree),
                        eliminate=[(c, v) for c in bits(removed)])

    return find


# a value's fish: (the orientation's rank in SE's order, the base lines' rank, the orientation, the
# base lines, the cover lines, the pattern's cells, the removed cells)
Fish = tuple[int, int, int, tuple[int, ...], int, int, int]


def _value_fish(geo: Geometry, where: int, degree: int) -> list[Fish]:
    """A value's fish of one degree, its places at ``where``, in SE's order."""
    out: list[Fish] = []
    for o_rank, o in enumerate((1, 0)):  # base columns (o = 1) first, then base rows
        span = _spans(where, o)  # for each base line, the cover lines where the value can go
        for b_rank, base in enumerate(subsets(degree, 9)):
            cover = 0
            for i in base:
                if span[i].bit_count() < 2:
                    break
                cover |= span[i]
            else:
                if cover.bit_count() != degree:
                    continue
                removed = 0
                base_cells = 0
                for i in base:
                    base_cells |= geo.house_mask[o * 9 + i]
                for j in range(9):
                    if cover >> j & 1:
                        removed |= where & geo.house_mask[(1 - o) * 9 + j]
                removed &= ~base_cells
                if removed:
                    out.append((o_rank, b_rank, o, base, cover, where & base_cells, removed))
    return out


def _spans(where: int, o: int) -> list[int]:
    """For each line of orientation ``o`` (0 rows, 1 columns), the lines of the other kind where a
    value placed at ``where`` can go."""
    out = []
    for i in range(9):
        span = 0
        for j in range(9):
            c = i * 9 + j if o == 0 else j * 9 + i
            if where >> c & 1:
                span |= 1 << j
        out.append(span)
    return out
