"""Sudoku Explainer's scan order: the mode the registry's finders run in for the ``se`` orders.

One finder per family: where SE's technique is the registry's (singles,
intersections, tuples, fish, XY- and XYZ-wings), the registry's module searches
it once and offers SE's scan order as a mode of its finder (``se_finder``:
SE's conditions on top of the registry's search, its finds sorted in SE's
order, SE's rating recorded). ``techniques.se`` keeps only the producers SE has
and the registry has not. This module holds what those modes and producers share.

SE (Sudoku Explainer 1.2.1.3 and Sukaku Explainer 1.15.10) is a 9×9 program.
Its producers scan regions by type — **block, row, column** numbered 0, 1, 2;
a producer names the types it visits in its own order — and each region's
cells in increasing cell index (a block's cells row by row), which is the
order of the houses of ``explainer.model.grid.Geometry`` too. Tuples of
cells or values are enumerated as SE's ``Permutations`` does: the k-subsets of
0..n-1 in increasing order of their bit masks (colex: {0,1}, {0,2}, {1,2},
{0,3} …), which ``subsets`` gives. Which equal hint SE applies depends on
these orders, so every producer of ``techniques.se`` follows them.

A producer's step records the rating SE gives it (``explainer.model.rating.SE_RATING``
in its ``detail``; the kinds' rule ``RECORDED`` reads it). With
``Context.rating_only`` (``explainer.rate``) a producer records only what the
step places and removes and that rating: ``step`` builds the rest only when
asked.
"""
from __future__ import annotations

from collections.abc import Callable, Iterable
from dataclasses import replace
from functools import cache
from itertools import combinations
from typing import Any

from explainer.model.explanation import Explanation
from explainer.model.grid import Geometry, PuzzleError, geometry
from explainer.model.rating import SE_RATING
from explainer.model.state import State
from explainer.model.technique import Context

N = 9  # SE's grids are 9×9
BLOCK, ROW, COLUMN = 0, 1, 2  # SE's region types


def check_size(state: State) -> Geometry:
    """The 9×9 geometry of ``state`` (SE's producers know no other size)."""
    if state.geo.n != N:
        raise PuzzleError(f"Sudoku Explainer's techniques solve 9×9 grids only, not {state.geo.n}×{state.geo.n}")
    return state.geo


def region(kind: int, k: int) -> int:
    """The house index (``Geometry.houses``) of SE's region ``k`` of type ``kind``."""
    return (2 * N, 0, N)[kind] + k


def regions(kind: int) -> range:
    """The house indexes of SE's regions of one type, in SE's order."""
    first = (2 * N, 0, N)[kind]
    return range(first, first + N)


def kind_of(house: int) -> int:
    """SE's type of a house index."""
    return (ROW, COLUMN, BLOCK)[house // N]


@cache
def subsets(k: int, n: int) -> tuple[tuple[int, ...], ...]:
    """The k-subsets of 0..n-1 in SE's order (increasing bit masks: colex), as sorted tuples.

    A constant table of the two numbers (SE's ``Permutations``), not a cache of any puzzle."""
    return tuple(sorted(combinations(range(n), k), key=lambda t: sum(1 << i for i in t)))


@cache
def crossing(h1: int, h2: int) -> bool:
    """True if two houses share cells (SE's ``Region.crosses``): a block and a line through it."""
    geo = geometry(N)
    return h1 != h2 and bool(geo.house_mask[h1] & geo.house_mask[h2])


def pairs_of(eliminate: Iterable[tuple[int, int]]) -> tuple[tuple[int, int, int], ...]:
    """(cell, value) pairs as a step's sorted (row, col, value) candidates."""
    return tuple(sorted({(c // N, c % N, v) for c, v in eliminate}))


def step(ctx: Context, name: str, rating: float, place: tuple[int, int] | None = None,
         eliminate: Iterable[tuple[int, int]] = (), build: Callable[[], dict[str, Any]] | None = None,
         detail: tuple[tuple[str, Any], ...] = ()) -> Explanation:
    """A producer's step: ``name`` (its step kind), SE's ``rating``, the placement ``(cell,
    value)`` and the removals ``(cell, value)``; ``build`` gives the rest of the Explanation
    (text, highlights, roles), called unless the run wants ratings only."""
    placed = () if place is None else ((place[0] // N, place[0] % N, place[1]),)
    recorded = ((SE_RATING, round(rating, 1)),)
    if ctx.rating_only or build is None:
        return Explanation(name, place=placed, eliminate=pairs_of(eliminate), detail=recorded)
    return Explanation(name, place=placed, eliminate=pairs_of(eliminate), detail=recorded + detail, **build())


def rated(ctx: Context, name: str, rating: float, make: Callable[[], Explanation],
          place: tuple[int, int] | None = None, eliminate: Iterable[tuple[int, int]] = (), *,
          first: bool = False, detail: tuple[tuple[str, Any], ...] = ()) -> Explanation:
    """A step the registry's builder makes (``make``), with SE's ``rating`` recorded after its
    detail (before it when ``first``, as ``step`` records it), then ``detail``; bare (what
    ``step`` gives) when the run wants ratings only."""
    if ctx.rating_only:
        return step(ctx, name, rating, place, eliminate)
    full = make()
    recorded = ((SE_RATING, round(rating, 1)),)
    return replace(full, detail=(recorded + full.detail if first else full.detail + recorded) + detail)


def colex(members: Iterable[int]) -> int:
    """A set's rank in SE's ``Permutations`` order (``subsets``): its bit mask."""
    return sum(1 << i for i in members)
