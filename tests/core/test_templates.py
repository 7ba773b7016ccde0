"""The templates' reduction: the compiled path returns what the pure path returns.

The lists come from random 4×4 and 9×9 states (``tests/core/states.py``) and from
positions a hard puzzle passes through (hardest300's first puzzle, every tenth step);
without the compiled module there is nothing to compare and the test is skipped.
"""
from __future__ import annotations

import pytest

import techniques
from explainer.core import templates as core
from explainer.engine import Puzzle
from explainer.model.state import State
from techniques.templates import MAX_LISTED, count, listed
from tests.conftest import SHARED

from .states import random_state

pytestmark = pytest.mark.skipif(core._C is None, reason="the compiled reduction is not in use")

HARDEST = SHARED / "data" / "hardest300.txt"


def _lists(state: State) -> list[list[int] | None]:
    allowed = list(state.pos)
    for c, x in enumerate(state.values):
        if x:
            allowed[x - 1] |= 1 << c
    return [listed(state.geo, a) if 0 < count(state.geo, a)[0] <= MAX_LISTED else None for a in allowed]


def _states() -> list[State]:
    out = [random_state(n, seed, placed=0.25 + 0.05 * (seed % 4), keep=0.3 + 0.1 * (seed % 3))
           for n in (4, 9) for seed in range(12)]
    if HARDEST.exists():
        text = next(line.split()[0] for line in HARDEST.read_text().splitlines() if line.strip())
        p = Puzzle(text, techniques.select(None))
        out += [p.state_before(k) for k in range(0, len(p.steps), 10)]
    return out


def test_compiled_and_pure_reductions_agree() -> None:
    shrunk = 0
    for state in _states():
        lists = _lists(state)
        if any(mine is None for mine in lists):
            continue
        got = core.reduce(lists)
        assert got == core.reduce_py(lists)
        shrunk += sum(len(a or ()) < len(b or ()) for a, b in zip(got, lists, strict=True))
    assert shrunk >= 5  # the states hold templates the reduction drops, not only fixed points


def test_a_value_without_templates_empties_the_others() -> None:
    # value 2 has no template left: no template of value 1 fits beside one of value 2
    lists: list[list[int] | None] = [[0b0011, 0b1100], []]
    assert core.reduce(lists) == core.reduce_py(lists) == [[], []]


def test_a_template_wider_than_128_cells_is_refused() -> None:
    assert core._C is not None
    with pytest.raises(ValueError, match="128 cells"):
        core._C.reduce([[1 << 130], [1]])
    with pytest.raises(TypeError):
        core._C.reduce([["x"], [1]])


def test_counted_values_take_the_pure_path() -> None:
    # value 1's templates are counted (None): fits_counted answers for it
    lists: list[list[int] | None] = [None, [0b01, 0b10]]
    assert core.reduce(lists, lambda t, w: t != 0b01) == [None, [0b10]]
    with pytest.raises(ValueError, match="fits_counted"):
        core.reduce(lists)
