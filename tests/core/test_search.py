"""The search core's primitives: the compiled path returns what the pure path returns.

Each primitive of ``explainer.core.search`` is run on random states of every
size (``tests/core/states.py``) by its C function and by its Python twin, and
the two results must be equal, item for item. Without the compiled module
(``SUDOKU_EXPLAINER_PURE=1`` or no C compiler) there is nothing to compare and
the tests are skipped; the whole-puzzle suite (``test_equivalence.py``)
compares steps JSON.
"""
from __future__ import annotations

import contextlib
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from explainer.api import Puzzle
from explainer.core import search
from explainer.model.grid import geometry
from explainer.model.state import State
from tests.conftest import ROOT, SHARED

from .states import SIZES, random_state

pytestmark = pytest.mark.skipif(not search.compiled(), reason="the compiled search core is not in use")

SEEDS = {4: 24, 9: 12, 16: 3, 25: 2}


def _states(n: int, sparse: bool = False) -> Iterator[State]:
    """Random states; ``sparse`` ones (more cells placed, fewer candidates) for the ALS searches,
    whose pure twins are slow on dense states."""
    for seed in range(SEEDS[n]):
        if sparse:
            yield random_state(n, seed, placed=0.4 + 0.05 * (seed % 4), keep=0.15 + 0.05 * (seed % 4))
        else:
            yield random_state(n, seed, placed=0.25 + 0.05 * (seed % 6), keep=0.15 + 0.05 * (seed % 5))


def _compare(name: str, n: int, *args: object, sparse: bool = False) -> int:
    """Run the C function ``name`` and its twin ``name_py`` on the states of size n; the number
    of items compared (a test asserts some, or it compares nothing)."""
    c_fn = getattr(search._C, name)
    py_fn = getattr(search, name + "_py")
    total = 0
    for state in _states(n, sparse):
        got = c_fn(n, state.cand, state.pos, *args)
        want = py_fn(n, state.cand, state.pos, *args)
        assert got == want, (name, n, args)
        total += len(want)
    return total


@pytest.mark.parametrize("n", SIZES)
def test_link_tables(n: int) -> None:
    assert search._C is not None
    for state in _states(n):
        weak = search._C.weak_table(n, state.cand, state.pos)
        assert weak == search.weak_table_py(n, state.cand, state.pos)
        assert list(weak) == list(search.weak_table_py(n, state.cand, state.pos))  # same order
        assert search._C.strong_pairs(n, state.cand, state.pos) == \
            search.strong_pairs_py(geometry(n), state.cand, state.pos)


@pytest.mark.parametrize("n", SIZES)
@pytest.mark.parametrize(("one_digit", "shortest"), [(False, True), (False, False), (True, True), (True, False)])
def test_chain_events(n: int, one_digit: bool, shortest: bool) -> None:
    assert _compare("chain_events", n, 15 if n <= 9 else 7, one_digit, shortest)


@pytest.mark.parametrize("n", (4, 9, 16))
@pytest.mark.parametrize("every", [False, True])
def test_grouped_events(n: int, every: bool) -> None:
    assert _compare("grouped_events", n, 9 if n <= 9 else 5, every) or n == 4


@pytest.mark.parametrize("n", SIZES)
def test_als_sets(n: int) -> None:
    assert _compare("als_sets", n, sparse=True)


@pytest.mark.parametrize("n", SIZES)
def test_als_some(n: int) -> None:
    """A few sets of the list, in the order asked (repeats and the last included), each as
    ``als_sets`` gives it; an index past the end is an IndexError on both paths."""
    assert search._C is not None
    total = 0
    for state in _states(n, sparse=True):
        listed = search.als_sets_py(n, state.cand, state.pos)
        if not listed:
            continue
        which = [len(listed) - 1, 0, len(listed) // 2, 0]
        got = search._C.als_some(n, state.cand, state.pos, which)
        assert got == search.als_some_py(n, state.cand, state.pos, which) == [listed[i] for i in which]
        total += len(got)
        for bad in ([len(listed)], [-1]):
            with pytest.raises(IndexError):
                search._C.als_some(n, state.cand, state.pos, bad)
            with pytest.raises(IndexError):
                search.als_some_py(n, state.cand, state.pos, bad)
    assert total or n == 4


# 25×25: the pure twin's pair lists run to millions; so do 16×16's pairs of any size sharing two
# values (4 GB resident, half a minute) and those of up to four cells (650 MB, seconds): those run
# with --slow; 16×16's small wanted pairs and the same cases on 4×4 and 9×9 always
SLOW_PAIRS = {(16, 2, 0, False), (16, 1, 4, False)}


@pytest.mark.parametrize(("n", "min_common", "max_size", "wanted"), [
    (n, *case) if (n, *case) not in SLOW_PAIRS else pytest.param(n, *case, marks=pytest.mark.slow)
    for case in [(2, 0, False), (1, 4, False), (1, 2, True)] for n in (4, 9, 16)])
def test_als_pairs(n: int, min_common: int, max_size: int, wanted: bool) -> None:
    assert search._C is not None
    total = 0
    for k, state in enumerate(_states(n, sparse=True)):
        sets = search.als_sets_py(n, state.cand, state.pos)
        masks = [(a[1] * (k + 3)) & a[1] for a in sets] if wanted else None  # some values of some sets
        got = search._C.als_pairs(n, state.cand, state.pos, min_common, max_size, masks)
        assert got == search.als_pairs_py(n, state.cand, state.pos, min_common, max_size, masks)
        total += len(got)
    assert total


@pytest.mark.parametrize("n", (4, 9))  # 16×16 and up: the pure twin's pair lists run to millions
@pytest.mark.parametrize(("sizes", "limit"), [(None, 0), ("wings", 0), ("pairs", 3)])
def test_als_xz(n: int, sizes: str | None, limit: int) -> None:
    allow = None if sizes is None else search.allow_sizes(
        (lambda i, j: min(i, j) == 1 and max(i, j) in (3, 4)) if sizes == "wings" else (lambda i, j: i > 1 and j > 1))
    assert _compare("als_xz", n, allow, limit, sparse=True) or n == 4


# 16×16 up to 40 events: seconds of the pure twin, with --slow; up to 3 on 16×16 always
@pytest.mark.parametrize(("n", "limit"), [(n, limit) if (n, limit) != (16, 40) else
                                          pytest.param(n, limit, marks=pytest.mark.slow)
                                          for limit in (40, 3) for n in (4, 9, 16)])
def test_als_xy_events(n: int, limit: int) -> None:
    assert _compare("als_xy_events", n, 4, limit, sparse=True) or n == 4


@pytest.mark.parametrize("n", (4, 9, 16))
@pytest.mark.parametrize("limit", [40, 3])
def test_blossom_events(n: int, limit: int) -> None:
    assert _compare("blossom_events", n, 4, limit, sparse=True) or n == 4


@pytest.mark.parametrize("n", (4, 9))
@pytest.mark.parametrize(("max_chain", "max_nodes", "limit"), [(6, 200_000, 3), (5, 2000, 0), (6, 300, 0)])
def test_als_chain_events(n: int, max_chain: int, max_nodes: int, limit: int) -> None:
    # max_nodes 2000 and 300: the bound on pushed nodes is met, and both stop at the same place
    assert _compare("als_chain_events", n, 4, max_chain, max_nodes, limit, sparse=True) or n == 4


@pytest.mark.parametrize("n", SIZES)
def test_single_positions(n: int) -> None:
    # placed states (a house's last empty cell) and open ones (covers of several houses, none)
    total = 0
    for placed in (0.3, 0.6, 0.85):
        for seed in range(SEEDS[n] * 2):
            state = random_state(n, seed, placed=placed, keep=0.2 + 0.1 * (seed % 5))
            got = search._C.single_positions(n, state.values, state.pos)
            assert got == search.single_positions_py(n, state.values, state.pos), (n, placed, seed)
            total += len(got)
    assert total


# ---- the ALS searches on the states a solve passes through ------------------------------------

class _Enough(Exception):
    """Raised inside the engine once enough states are kept: the solve stops there."""


def _solve_states(path: Path, index: int, count: int) -> list[tuple[int, list[int], list[int]]]:
    """(n, cand, pos) of the first ``count`` states the default path asks ALS-XZ about while
    solving puzzle ``index`` of ``path`` (real states: singles, subsets, fish, chains applied)."""
    rows = [r.split()[0] for r in path.read_text().splitlines() if r.strip() and not r.startswith("#")]
    kept: list[tuple[int, list[int], list[int]]] = []
    plain = search.als_xz

    def watch(n: int, cand: list[int], pos: list[int], *args: Any) -> list[search.XzEvent]:
        kept.append((n, list(cand), list(pos)))
        if len(kept) >= count:
            raise _Enough
        return plain(n, cand, pos, *args)

    with pytest.MonkeyPatch.context() as mp:
        mp.setattr(search, "als_xz", watch)
        with contextlib.suppress(_Enough):
            Puzzle(rows[index], order="simplest").steps  # noqa: B018 (solved for the states it passes through)
    assert kept
    return kept


# (file, puzzle index, states kept, every k-th compared): 9×9 from top1465 and hardest300 deep into the
# solve, 16×16 and 25×25 from the samples and the hard examples
SOLVES = [(SHARED / "data" / "top1465.txt", 0, 40, 3), (SHARED / "data" / "hardest300.txt", 0, 40, 3),
          (SHARED / "data" / "hardest300.txt", 7, 40, 3), (SHARED / "data" / "sample16.txt", 0, 30, 6),
          (ROOT / "examples" / "16x16-hard.txt", 0, 30, 6), (ROOT / "examples" / "25x25-hard.txt", 0, 16, 5)]
SOME_SIZES = search.allow_sizes(lambda i, j: i > 1 and j > 1)


@pytest.mark.parametrize(("path", "index", "count", "every"), SOLVES,
                         ids=[f"{p.stem}-{i}" for p, i, _, _ in SOLVES])
def test_als_searches_on_solve_states(path: Path, index: int, count: int, every: int) -> None:
    """Every ALS primitive, compiled and pure, on real states of every size: the sets, the pairs
    (with and without a size bound, some values wanted), ALS-XZ (all sizes, some sizes, the
    first few), the XY wings, the death blossoms and the chains (also with the node bound met).
    The pure twins are given the sets (and the pairs) as the engine gives them."""
    c = search._C
    assert c is not None
    total = 0
    for n, cand, pos in _solve_states(path, index, count)[::every]:
        listed = search.als_sets_py(n, cand, pos)
        assert c.als_sets(n, cand, pos) == listed
        which = list(range(len(listed) - 1, -1, -7))
        assert c.als_some(n, cand, pos, which) == [listed[i] for i in which]
        sets = search.als_objects(n, cand, pos)
        wanted = [a[1] & (a[1] >> 1 | 1) for a in listed]  # some values of each set
        pairs = search.als_pairs_py(n, cand, pos, 1, 4, None, sets)
        found = [(c.als_pairs(n, cand, pos, 1, 4, None), pairs),
                 (c.als_pairs(n, cand, pos, 2, 0, None), search.als_pairs_py(n, cand, pos, 2, 0, None, sets)),
                 (c.als_pairs(n, cand, pos, 1, 0, wanted), search.als_pairs_py(n, cand, pos, 1, 0, wanted, sets))]
        found += [(c.als_xz(n, cand, pos, allow, limit), search.als_xz_py(n, cand, pos, allow, limit, sets))
                  for allow, limit in ((None, 0), (SOME_SIZES, 0), (None, 4))]
        found += [(c.als_xy_events(n, cand, pos, 4, limit),
                   search.als_xy_events_py(n, cand, pos, 4, limit, sets, pairs)) for limit in (0, 3)]
        found.append((c.blossom_events(n, cand, pos, 4, 0), search.blossom_events_py(n, cand, pos, 4, 0, sets)))
        found += [(c.als_chain_events(n, cand, pos, 4, chain, nodes, 0),
                   search.als_chain_events_py(n, cand, pos, 4, chain, nodes, 0, sets, pairs))
                  for chain, nodes in ((6, 200_000), (5, 300))]
        for k, (got, want) in enumerate(found):
            assert got == want, (n, k)
            total += len(got)
        # the same searches reading the state's ALS table (one enumeration for all of them)
        table = c.als_table(n, cand, pos)
        assert c.als_sets(n, cand, pos, table) == listed
        assert c.als_some(n, cand, pos, which, table) == [listed[i] for i in which]
        with_table = [c.als_pairs(n, cand, pos, 1, 4, None, table), c.als_pairs(n, cand, pos, 2, 0, None, table),
                      c.als_pairs(n, cand, pos, 1, 0, wanted, table)]
        with_table += [c.als_xz(n, cand, pos, allow, limit, table)
                       for allow, limit in ((None, 0), (SOME_SIZES, 0), (None, 4))]
        with_table += [c.als_xy_events(n, cand, pos, 4, limit, table) for limit in (0, 3)]
        with_table.append(c.blossom_events(n, cand, pos, 4, 0, table))
        with_table += [c.als_chain_events(n, cand, pos, 4, chain, nodes, 0, table)
                       for chain, nodes in ((6, 200_000), (5, 300))]
        assert with_table == [want for _, want in found]
    assert total


def test_als_table_of_another_state_is_refused() -> None:
    """A table read for a state it was not built from (a candidate less) is a ValueError, not a
    search over the wrong sets; so is an object that is not a table."""
    assert search._C is not None
    state = random_state(9, 1, placed=0.4, keep=0.2)
    table = search.als_table(9, state.cand, state.pos)
    assert search._C.als_xz(9, state.cand, state.pos, None, 0, table) == search.als_xz_py(9, state.cand, state.pos)
    cell = next(c for c in range(81) if state.cand[c].bit_count() > 1)
    state.eliminate(cell, next(v + 1 for v in range(9) if state.cand[cell] >> v & 1))
    with pytest.raises(ValueError, match="another state"):
        search._C.als_xz(9, state.cand, state.pos, None, 0, table)
    with pytest.raises(ValueError):
        search._C.als_sets(9, state.cand, state.pos, object())
