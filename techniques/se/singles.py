"""Sudoku Explainer's singles: hidden single (1.0 / 1.2 / 1.5) and naked single (2.3).

SE's hidden single looks first for "alone" cells — the last empty cell of a
region, 1.0 — in blocks, then columns, then rows; then for real hidden singles
in the same region order: a block 1.2, a column or row 1.5; in each region the
values 1..9. Its naked single scans the cells in index order. The steps are
the registry's singles (``techniques.singles``), with SE's rating recorded.
"""
from __future__ import annotations

from collections.abc import Iterator
from dataclasses import replace

from explainer.model.explanation import Explanation
from explainer.model.rating import SE_RATING
from explainer.model.state import State
from explainer.model.technique import NO_CONTEXT, Context

from ..singles import single_candidate_step, single_position_step
from .base import BLOCK, COLUMN, ROW, check_size, regions, step

SCAN = (BLOCK, COLUMN, ROW)  # SE's hidden single: blocks, then columns, then rows


def _rated(ctx: Context, full: Explanation | None, rating: float, cell: int, v: int, name: str) -> Explanation:
    if full is None:
        return step(ctx, name, rating, (cell, v))
    return replace(full, detail=full.detail + ((SE_RATING, rating),))


def find_hidden_single(state: State, ctx: Context = NO_CONTEXT, /) -> Iterator[Explanation]:
    geo = check_size(state)
    for alone in (True, False):
        for kind in SCAN:
            for h in regions(kind):
                hmask = geo.house_mask[h]
                empty = sum(1 for c in geo.houses[h] if not state.values[c])
                if (empty == 1) != alone:
                    continue
                for v in range(1, 10):
                    where = state.pos[v - 1] & hmask
                    if where and not where & (where - 1):
                        cell = where.bit_length() - 1
                        rating = 1.0 if alone else (1.2 if kind == BLOCK else 1.5)
                        full = None if ctx.rating_only else single_position_step(state, h, cell, v)
                        yield _rated(ctx, full, rating, cell, v, "single position")


def find_naked_single(state: State, ctx: Context = NO_CONTEXT, /) -> Iterator[Explanation]:
    check_size(state)
    for c, m in enumerate(state.cand):
        if m and not m & (m - 1):
            v = m.bit_length()
            full = None if ctx.rating_only else single_candidate_step(state, c, v)
            yield _rated(ctx, full, 2.3, c, v, "single candidate")
