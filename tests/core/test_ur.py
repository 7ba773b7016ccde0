"""The unique rectangle search and the unique loops' pairs: the compiled path (``_ur.c``) returns
what the pure path returns.

Real states mid-solve (top1465 and hardest300 on the default order, the 16×16 and 25×25
samples and examples after the basic techniques and wings stall: the states of
tests/core/test_wings.py) and random states of every size; the leads are compared whole, in
order, and the finder's steps built from them.
"""
from __future__ import annotations

import pytest

import techniques
from explainer.core import ur
from explainer.model.session import Session
from explainer.model.state import State
from explainer.model.technique import NO_CONTEXT, built
from tests.core.states import SIZES, random_state, real_states

pytestmark = pytest.mark.skipif(ur._C is None, reason="compiled unique rectangles not built (or pure path forced)")


def _compare(state: State) -> int:
    assert ur._C is not None
    got = ur._C.rectangles(state.geo.n, state.cand)
    assert got == ur.rectangles_py(state), state.to_line()
    assert got == ur.rectangles_py(state, Session(state)), state.to_line()
    for min_cells in (4, 6):
        pairs = ur._C.loop_pairs(state.geo.n, state.cand, min_cells)
        assert pairs == ur.loop_pairs_py(state, min_cells), state.to_line()
    return len(got) + len(pairs)


def test_real_states_of_every_size() -> None:
    states = real_states()
    assert {s.geo.n for s in states} == {9, 16, 25}
    assert sum(_compare(s) for s in states) > 50  # the sample finds rectangles


def _random_states(n: int) -> list[State]:
    """Random states, some thinned to few candidates a cell: rectangles of every type, on big
    grids too (the real 16×16 and 25×25 states above stall before any)."""
    return [random_state(n, seed, keep=keep) for keep in (0.45, 0.3, 0.2) for seed in range(8 if n < 25 else 4)]


@pytest.mark.parametrize("n", SIZES)
def test_random_states(n: int) -> None:
    found = sum(_compare(s) for s in _random_states(n))
    assert found or n == 4


def test_every_kind_is_found() -> None:
    kinds = {lead[0] for s in real_states() + tuple(_random_states(9)) for lead in ur.rectangles(s)}
    assert kinds == {1, 2, 3, 4, 5, 6, ur.HIDDEN}


def test_steps_are_the_same_on_both_paths(monkeypatch: pytest.MonkeyPatch) -> None:
    """The finders' steps (what the engine records) from either path."""
    finders = [t.find for t in techniques.select(["unique rectangle", "unique loop"])]
    states = real_states()[::3] + tuple(_random_states(9))
    compiled = [[list(built(f(s, NO_CONTEXT))) for f in finders] for s in states]
    with monkeypatch.context() as m:
        m.setattr(ur, "_C", None)
        pure = [[list(built(f(s, NO_CONTEXT))) for f in finders] for s in states]
    assert compiled == pure
    assert sum(len(steps[0]) for steps in compiled) > 20
    assert any(steps[1] for steps in compiled)


def test_bad_input_is_an_error() -> None:
    assert ur._C is not None
    with pytest.raises(ValueError):
        ur._C.rectangles(7, [0] * 49)
    with pytest.raises(ValueError):
        ur._C.rectangles(9, [0] * 80)
    with pytest.raises(TypeError):
        ur._C.rectangles(9, tuple([0] * 81))
    with pytest.raises(ValueError):
        ur._C.loop_pairs(9, [0] * 80, 6)
