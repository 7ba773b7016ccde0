"""Exact-cover solver (placeholder until the fast one lands)."""
from __future__ import annotations

from typing import Sequence

from .grid import Grid, PuzzleError, geometry


def solve_values(n: int, values: Sequence[int], limit: int = 2) -> list[list[int]]:
    geo = geometry(n)
    full = geo.full
    cand = [full] * geo.ncells
    vals = list(values)
    sols: list[list[int]] = []
    for c, v in enumerate(vals):
        if v:
            for p in geo.peers[c]:
                if vals[p] == v:
                    return []
    def free(c):
        m = full
        for p in geo.peers[c]:
            if vals[p]:
                m &= ~(1 << (vals[p] - 1))
        return m
    def dfs():
        best, bm, bc = -1, 0, 99
        for c in range(geo.ncells):
            if not vals[c]:
                m = free(c)
                k = m.bit_count()
                if k < bc:
                    best, bm, bc = c, m, k
                    if k <= 1:
                        break
        if best < 0:
            sols.append(vals[:])
            return
        while bm and len(sols) < limit:
            low = bm & -bm
            bm ^= low
            vals[best] = low.bit_length()
            dfs()
            vals[best] = 0
    dfs()
    return sols


def unique_solution(grid: Grid, where: str = "") -> Grid:
    sols = solve_values(grid.n, grid.values, 2)
    if not sols:
        raise PuzzleError("the puzzle has no solution", where)
    if len(sols) > 1:
        raise PuzzleError("the puzzle has more than one solution", where)
    return Grid(grid.n, tuple(sols[0]))
