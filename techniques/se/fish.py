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
from explainer.model.grid import bits
from explainer.model.state import State
from explainer.model.technique import NO_CONTEXT, Context

from ..fish import NAMES, fish_step
from .base import check_size, rated, subsets

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
        for o in (1, 0):  # base columns (o = 1) first, then base rows
            # per value: for each base line, the cover lines where v can go (a bit per line)
            spans = {v: _spans(state, v, o) for v in open_values}
            for base in subsets(degree, 9):
                for v in open_values:
                    span = spans[v]
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
                                removed |= state.pos[v - 1] & geo.house_mask[(1 - o) * 9 + j]
                        removed &= ~base_cells
                        if removed:
                            pattern = state.pos[v - 1] & base_cells
                            yield rated(ctx, NAMES[degree], RATING[degree],
                                        partial(fish_step, geo, v, o, list(base), cover, pattern, removed, degree),
                                        eliminate=[(c, v) for c in bits(removed)])

    return find


def _spans(state: State, v: int, o: int) -> list[int]:
    """For each line of orientation ``o`` (0 rows, 1 columns), the lines of the other kind where v can go."""
    out = []
    where = state.pos[v - 1]
    for i in range(9):
        span = 0
        for j in range(9):
            c = i * 9 + j if o == 0 else j * 9 + i
            if where >> c & 1:
                span |= 1 << j
        out.append(span)
    return out
