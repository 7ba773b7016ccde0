"""Sue de Coq's searches: the compiled path returns what the pure path returns, on real states.

``explainer.core.sdc``'s C functions and their Python twins are run on every line-box
intersection of states met while explaining real puzzles (9×9: top1465 and hardest300 with
every technique; 16×16 and 25×25: the shared samples, the examples and hard16, with the
basic techniques, which leave the states the harder finders are called on), and must give
the same list, item for item. A few random states (``tests/core/states.py``) add Sue de Coq
bis patterns, rare on the big grids' real states. Without the compiled module there is
nothing to compare.
"""
from __future__ import annotations

from collections.abc import Iterator
from functools import cache
from pathlib import Path

import pytest

import techniques
from explainer.core import sdc
from explainer.engine import Puzzle
from explainer.model.state import State
from techniques.suedecoq import MAX_EXTRAS, MAX_SIDE, _als_limit, _parts
from tests.conftest import ROOT, SHARED

from .states import random_state

pytestmark = pytest.mark.skipif(not sdc.compiled(), reason="the compiled Sue de Coq search is not in use")

DATA = SHARED / "data"
BASIC = ("single position", "single candidate", "locked candidate", "naked tuple", "hidden tuple")


def _puzzles(path: Path, every: int, count: int) -> list[str]:
    rows = [r.split()[0] for r in path.read_text().splitlines() if r.strip() and not r.startswith("#")]
    return rows[::every][:count]


@cache
def _states(n: int) -> tuple[State, ...]:
    """States met while explaining real puzzles of side n: every k-th state before a step, and
    the last (where the basic techniques stall on a big grid)."""
    if n == 9:
        texts = _puzzles(DATA / "top1465.txt", 367, 4) + _puzzles(DATA / "hardest300.txt", 149, 2)
        chosen, every = techniques.select(None), 6
    elif n == 16:
        texts = (_puzzles(DATA / "sample16.txt", 1, 4) + _puzzles(ROOT / "examples" / "16x16-hard.txt", 1, 1)
                 + _puzzles(ROOT / "benchmarks" / "data" / "hard16.txt", 40, 6))
        chosen, every = techniques.select(BASIC), 4
    else:
        texts = _puzzles(DATA / "sample25.txt", 1, 2) + _puzzles(ROOT / "examples" / "25x25-hard.txt", 1, 1)
        chosen, every = techniques.select(BASIC), 20
    out = [random_state(n, seed, placed=0.4 + 0.05 * (seed % 4), keep=0.15 + 0.05 * (seed % 4))
           for seed in range(6 if n < 25 else 2)]
    for text in texts:
        p = Puzzle(text, chosen, order="simplest")
        assert p.grid.n == n
        steps = len(p.steps)
        out += [p.state_before(k) for k in range(0, steps, every)] + [p.state_before(steps)]
    return tuple(out)


def _calls(n: int) -> Iterator[tuple[list[int], tuple[int, ...], int, int]]:
    for state in _states(n):
        for _, _, cells, mi, ml in _parts(n):
            yield state.cand, cells, mi, ml


@pytest.mark.parametrize("n", (9, 16, 25))
def test_suedecoq_compiled_and_pure_agree_on_real_states(n: int) -> None:
    assert sdc._C is not None
    found = 0
    for cand, cells, mi, ml in _calls(n):
        got = sdc._C.suedecoq_at(cand, cells, mi, ml, MAX_EXTRAS, MAX_SIDE)
        assert got == sdc.suedecoq_at_py(cand, cells, mi, ml, MAX_EXTRAS, MAX_SIDE), (n, cells)
        found += len(got)
    assert found >= {9: 50, 16: 20, 25: 20}[n]  # patterns to compare, not only empty lists


@pytest.mark.parametrize("n", (9, 16, 25))
def test_bis_compiled_and_pure_agree_on_real_states(n: int) -> None:
    assert sdc._C is not None
    found = 0
    for cand, cells, mi, ml in _calls(n):
        got = sdc._C.bis_at(cand, cells, mi, ml, _als_limit(n))
        assert got == sdc.bis_at_py(cand, cells, mi, ml, _als_limit(n)), (n, cells)
        found += len(got)
    assert found >= {9: 20, 16: 5, 25: 5}[n]


def test_bad_arguments_raise() -> None:
    assert sdc._C is not None
    with pytest.raises(IndexError):
        sdc._C.suedecoq_at([0] * 81, (0, 81), 1, 0, 2, 4)
    with pytest.raises(ValueError):
        sdc._C.bis_at([0] * 81, (0, 1), 1, 5, 4)
    with pytest.raises(TypeError):
        sdc._C.bis_at((0,) * 81, (0, 1), 1, 0, 4)
