"""Big-grid speed-ups that must not change what is sound or found: the forcing batch
reused between steps (``forcing._Memo``, kept in the run's session: here a dict of
their own) and the ALSs kept per house (the session's parts)."""
from functools import cache
from pathlib import Path

import numpy as np

from explainer.core import search
from explainer.engine.orders import next_step
from explainer.model.grid import parse_grid
from explainer.model.session import Session
from explainer.model.state import State
from techniques import REGISTRY, als, forcing
from tests.techniques.forcing_helpers import check_step

EXAMPLE = Path(__file__).resolve().parents[2] / "examples" / "16x16-hard.txt"


@cache
def _first_forcing_state() -> State:
    line = [x for x in EXAMPLE.read_text().splitlines() if x and not x.startswith("#")][0]
    state = State.from_grid(parse_grid(line))
    earlier = REGISTRY[:[t.name for t in REGISTRY].index("forcing chain")]
    while (step := next_step(state, earlier)) is not None:
        state.apply(step)
    return state


def first_forcing_state() -> State:
    """A copy of the hard 16×16 example's state where the run first needs a forcing chain."""
    return _first_forcing_state().copy()


def test_resumed_batch_equals_a_fresh_one_and_inherits_true_contradictions():
    state = first_forcing_state()
    memos: forcing.Memos = {}
    first = forcing._Static(state, reuse=memos)
    assert first.contra.sum() >= 2 and (False, False) in memos
    step = forcing.static_step(state, memos=memos)
    assert step is not None and check_step(state, step) == []
    later = state.copy()
    later.apply(step)
    fresh = forcing._Static(later)
    resumed = forcing._Static(later, reuse=memos, inherit=False)
    assert (resumed.contra == fresh.contra).all()
    ok = ~fresh.contra  # a contradicting branch stops anywhere: its row is not compared
    assert (resumed.out[ok] == fresh.out[ok]).all()
    # the last batch covers the later state: its contradictions still alive are the options,
    # each one a contradiction of the fresh batch too
    inherited = forcing._Static(later, reuse=memos).inherited
    assert inherited
    bad = {(*fresh.cands[i % fresh.k], bool(i < fresh.k)) for i in np.nonzero(fresh.contra)[0]}
    assert set(inherited) <= bad
    nxt = forcing.static_step(later, memos=memos)
    assert nxt is not None and check_step(later, nxt) == []


def test_static_batches_inherit_only_static_contradictions():
    """Static batches (single-premise chains) keep their own memo and never resume from
    fixpoints (their true cells are not read from the rows): what they inherit is a
    contradiction of a fresh static batch too."""
    state = first_forcing_state()
    memos: forcing.Memos = {}
    first = forcing._Static(state, reuse=memos, static=True)
    assert (False, True) in memos and (False, False) not in memos
    step = forcing.static_step(state, static=True, memos=memos) or forcing.static_step(state, memos=memos)
    assert step is not None and check_step(state, step) == []
    later = state.copy()
    later.apply(step)
    fresh = forcing._Static(later, static=True)
    resumed = forcing._Static(later, reuse=memos, inherit=False, static=True)
    assert (resumed.contra == fresh.contra).all() and (resumed.out == fresh.out).all()
    inherited = forcing._Static(later, reuse=memos, static=True).inherited or []
    bad = {(*fresh.cands[i % fresh.k], bool(i < fresh.k)) for i in np.nonzero(fresh.contra)[0]}
    assert set(inherited) <= bad
    assert first.contra.sum() >= len(inherited)


def test_memo_of_another_state_is_not_used():
    state = first_forcing_state()
    memos: forcing.Memos = {}
    forcing._Static(state, reuse=memos)
    wider = State.from_grid(parse_grid("." * 256))  # more candidates: not inside the memo's state
    assert forcing._Static(wider, reuse=memos).inherited is None


def _table(sets):
    return [(a.cells, a.values, a.where, a.sees) for a in sets]


def test_als_kept_per_house_equal_a_fresh_build():
    state = first_forcing_state()
    session = Session(state)
    before = _table(als.als_list(state, session))
    assert before and (search.compiled() or session.parts("als.houses"))  # the pure path keeps houses
    step = forcing.static_step(state)
    assert step is not None
    state.apply(step)
    session.applied(step)
    kept = _table(als.als_list(state, session))  # most houses from the session's parts
    assert kept == _table(als.als_list(state)) != before  # a fresh build without a session


def test_big_grid_als_are_bounded_and_locked():
    state = first_forcing_state()
    sets = als.als_list(state)
    assert max(a.size for a in sets) == als.BIG_GRID_MAX_CELLS  # the bound is reached, not passed
    for a in sets[::7]:
        union = 0
        for c in range(state.geo.ncells):
            if a.cells >> c & 1:
                union |= state.cand[c]
        assert union == a.values and union.bit_count() == a.size + 1


def test_nested_order_reads_the_singles_batch_of_its_own_state_only():
    """The nested search's order (``_true_fixpoints``) reads the session's last singles batch
    only when it was made on the same state and none of its true rows contradicts: then its
    rows are a fresh batch's; otherwise it makes a batch."""
    from explainer.core import propagate

    state = State.from_grid(parse_grid("123456789" + "." * 72))  # no branch contradicts
    memos: forcing.Memos = {}
    forcing._Static(state, reuse=memos)
    memo = memos[(False, False)]
    assert not memo.contra[:memo.k].any()
    base, flat = propagate.base_row(state), forcing._flat(state)
    t, cands = propagate.tables(9), forcing._pairs(flat, 9)
    fresh = forcing._true_fixpoints(base, t, flat, cands, None)
    kept = forcing._true_fixpoints(base, t, flat, cands, memos)
    assert np.shares_memory(kept, memo.out) and (kept == fresh).all()
    # near misses: the batch of another state, a batch whose true row stopped at a contradiction
    later = state.copy()
    later.eliminate(9, 4)
    later_flat = forcing._flat(later)
    other = forcing._true_fixpoints(propagate.base_row(later), t, later_flat, forcing._pairs(later_flat, 9), memos)
    assert not np.shares_memory(other, memo.out) and other.shape[0] == memo.k - 1
    memo.contra[3] = True
    assert not np.shares_memory(forcing._true_fixpoints(base, t, flat, cands, memos), memo.out)
