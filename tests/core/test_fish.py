"""The fish and tuple searches: the compiled path (``_fish.c``) returns what the pure path returns.

Real states mid-solve (top1465 and hardest300 on the default order, the 16×16 and 25×25
samples and examples after the basic techniques stall) and random states of every size; each
search's leads are compared whole, in order, and the finders' steps built from them.
"""
from __future__ import annotations

import pytest

import techniques
from explainer.core import fish
from explainer.model.session import Session
from explainer.model.state import State
from explainer.model.technique import NO_CONTEXT, built
from tests.core.states import SIZES, random_state, real_states

pytestmark = pytest.mark.skipif(fish._C is None, reason="compiled fish not built (or pure path forced)")

TOP = 4  # the largest tuple the finders search (techniques.subsets.MAX_TUPLE)


def _compare(state: State, monkeypatch: pytest.MonkeyPatch) -> tuple[int, int]:
    """(fish found, tuples found) after checking that both paths agree on the state."""
    compiled = fish._C
    assert compiled is not None
    geo, n = state.geo, state.geo.n
    fishes = 0
    for v in range(1, n + 1):
        pv = state.pos[v - 1]
        got = compiled.fish_of(n, v, pv)
        assert got == fish._fish_of(geo, v, pv), ("fish", v, state.to_line())
        fishes += len(got)
        got = compiled.finned_of(n, v, pv)
        assert got == fish._finned_of(geo, v, pv), ("finned fish", v, state.to_line())
        fishes += len(got)
    top = max(2, min(TOP, n // 2))
    naked = compiled.naked_hits(n, state.cand, top)
    hidden = compiled.hidden_hits(n, state.cand, top)
    houses = range(3 * n)
    per_house = [[fish.by_house(state, Session(state), kind, top)(h) for h in houses] for kind in (False, True)]
    with monkeypatch.context() as m:
        m.setattr(fish, "_C", None)
        session = Session(state)
        assert naked == fish.naked_hits(state, session, top), ("naked", state.to_line())
        assert hidden == fish.hidden_hits(state, session, top), ("hidden", state.to_line())
        for kind in (False, True):
            read = fish.by_house(state, session, kind, top)
            assert per_house[kind] == [read(h) for h in houses], ("by house", kind, state.to_line())
    return fishes, len(naked) + len(hidden)


def test_real_states_of_every_size(monkeypatch: pytest.MonkeyPatch) -> None:
    states = real_states()
    assert {s.geo.n for s in states} == {9, 16, 25}
    found = [_compare(s, monkeypatch) for s in states]
    assert sum(f for f, _ in found) > 100 and sum(t for _, t in found) > 100  # the sample finds both


@pytest.mark.parametrize("n", SIZES)
def test_random_states(n: int, monkeypatch: pytest.MonkeyPatch) -> None:
    for seed in range(8 if n < 25 else 3):
        _compare(random_state(n, seed), monkeypatch)


def test_pure_tuples_kept_per_house_follow_the_state(monkeypatch: pytest.MonkeyPatch) -> None:
    """The pure path keeps each house's tuples in the session: after eliminations it still
    returns the compiled path's list."""
    state = random_state(9, 3)
    session = Session(state)
    monkeypatch.setattr(fish, "_C", None)
    fish.naked_hits(state, session, TOP)
    fish.hidden_hits(state, session, TOP)
    for c in range(0, 81, 7):
        for v in state.candidates(c)[:1]:
            state.eliminate(c, v)  # a new state version: the session reads the house stamps again
    monkeypatch.undo()
    assert fish._C is not None
    naked, hidden = fish._C.naked_hits(9, state.cand, TOP), fish._C.hidden_hits(9, state.cand, TOP)
    monkeypatch.setattr(fish, "_C", None)
    assert fish.naked_hits(state, session, TOP) == naked
    assert fish.hidden_hits(state, session, TOP) == hidden


FINDERS = ("fish", "finned fish", "naked tuple", "hidden tuple")


def test_steps_are_the_same_on_both_paths(monkeypatch: pytest.MonkeyPatch) -> None:
    """The finders' steps (what the engine records) from either path, on states where each fires."""
    finders = [t.find for t in techniques.select(list(FINDERS))]
    states = real_states()[::4]
    compiled = [[list(built(f(s, NO_CONTEXT))) for f in finders] for s in states]
    with monkeypatch.context() as m:
        m.setattr(fish, "_C", None)
        pure = [[list(built(f(s, NO_CONTEXT))) for f in finders] for s in states]
    assert compiled == pure
    assert all(any(steps[k] for steps in compiled) for k in range(len(finders)))


def test_bad_input_is_an_error() -> None:
    assert fish._C is not None
    with pytest.raises(ValueError):
        fish._C.fish_of(7, 1, 0)
    with pytest.raises(ValueError):
        fish._C.naked_hits(9, [0] * 80, 4)
    with pytest.raises(ValueError):
        fish._C.hidden_hits(9, [0] * 81, 5)
    with pytest.raises(TypeError):
        fish._C.finned_of(9, 1, "0")
    with pytest.raises(OverflowError):
        fish._C.finned_of(9, 1, 1 << 200)
