"""The wings' searches: the compiled path (``_wings.c``) returns what the pure path returns.

Real states mid-solve (top1465 and hardest300 on the default order, the 16×16 and 25×25
samples and examples after the basic techniques stall) and random states of every size;
each search's leads are compared whole, in order, and the finders' steps built from them.
"""
from __future__ import annotations

import pytest

import techniques
from explainer.core import wings
from explainer.model.session import Session
from explainer.model.state import State
from explainer.model.technique import NO_CONTEXT, built
from tests.core.states import SIZES, random_state, real_states

pytestmark = pytest.mark.skipif(wings._C is None, reason="compiled wings not built (or pure path forced)")

SEARCHES = ("xy_hits", "xyz_hits", "wxyz_hits", "w_hits")


def _pure(state: State, name: str) -> list[tuple[int, ...]]:
    return list(getattr(wings, "_" + name)(state))


def _compare(state: State, monkeypatch: pytest.MonkeyPatch) -> int:
    compiled = wings._C
    assert compiled is not None
    found = 0
    for name in SEARCHES:
        got = getattr(compiled, name)(state.geo.n, state.cand)
        assert got == _pure(state, name), (name, state.to_line())
        found += len(got)
    got = compiled.y_patterns(state.geo.n, state.cand)
    with monkeypatch.context() as m:
        m.setattr(wings, "_C", None)
        assert got == wings.y_patterns(state, Session(state)), ("y_patterns", state.to_line())
    return found + len(got)


def test_real_states_of_every_size(monkeypatch: pytest.MonkeyPatch) -> None:
    states = real_states()
    assert {s.geo.n for s in states} == {9, 16, 25}
    assert sum(_compare(s, monkeypatch) for s in states) > 1000  # the sample finds wings


@pytest.mark.parametrize("n", SIZES)
def test_random_states(n: int, monkeypatch: pytest.MonkeyPatch) -> None:
    for seed in range(8 if n < 25 else 3):
        _compare(random_state(n, seed), monkeypatch)


def test_steps_are_the_same_on_both_paths(monkeypatch: pytest.MonkeyPatch) -> None:
    """The finders' steps (what the engine records) from either path, on states where every wing
    fires."""
    finders = [t.find for t in techniques.select(["y wing", "w wing", "xy wing", "xyz wing", "wxyz wing"])]
    states = real_states()[::5]
    compiled = [[list(built(f(s, NO_CONTEXT))) for f in finders] for s in states]
    with monkeypatch.context() as m:
        m.setattr(wings, "_C", None)
        pure = [[list(built(f(s, NO_CONTEXT))) for f in finders] for s in states]
    assert compiled == pure
    assert all(any(steps[k] for steps in compiled) for k in range(len(finders)))


def test_bad_input_is_an_error() -> None:
    assert wings._C is not None
    with pytest.raises(ValueError):
        wings._C.xy_hits(7, [0] * 49)
    with pytest.raises(ValueError):
        wings._C.y_patterns(9, [0] * 80)
    with pytest.raises(TypeError):
        wings._C.w_hits(9, tuple([0] * 81))
