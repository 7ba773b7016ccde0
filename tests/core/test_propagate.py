"""The singles propagator's two twins agree row by row: fixpoint, contradiction flag and
rounds (the forcing search orders its options by them), and the nested verdicts.

The compiled rows are checked against the numpy rows in one process, on states taken
from real explanations of every size and on the same rows with random candidates
struck out (rows that contradict early, in odd ways)."""
from __future__ import annotations

import random
from functools import cache

import numpy as np
import pytest

from explainer.api import Puzzle
from explainer.core import propagate
from explainer.model.state import State
from tests.conftest import ROOT, SHARED

pytestmark = pytest.mark.skipif(propagate._C is None, reason="compiled core not built (or pure path forced)")

SOURCES = {4: SHARED / "data" / "sample4.txt", 9: SHARED / "data" / "hardest300.txt",
           16: ROOT / "benchmarks" / "data" / "hard16.txt", 25: SHARED / "data" / "sample25.txt"}


@cache
def states(n: int) -> tuple[State, ...]:
    """Three states of one explained puzzle of size n: its start, middle and a late one."""
    lines = [s for s in SOURCES[n].read_text().split("\n") if s.strip() and not s.startswith("#")]
    quick = ["single position", "single candidate", "locked candidate", "naked tuple", "hidden tuple", "forcing chain"]
    p = Puzzle(lines[0].split()[0], techniques=None if n <= 9 else quick)
    k = len(p.steps)
    return tuple(p.state_before(i) for i in (0, k // 2, max(0, k - 8)))


def branch_rows(state: State, rng: random.Random, junk: bool) -> np.ndarray:
    """Every candidate assumed true, then false; with ``junk``, random candidates struck too."""
    t = propagate.tables(state.geo.n)
    base = propagate.base_row(state)
    cands = [(c, v) for c, m in enumerate(state.cand) for v in range(1, state.geo.n + 1) if m >> (v - 1) & 1]
    k = len(cands)
    rows = np.repeat(base[None, :], 2 * k, axis=0)
    cells = np.array([c for c, _ in cands], dtype=np.intp)
    bits = t.bit[[v - 1 for _, v in cands]]
    rows[np.arange(k), cells] = bits
    rows[k + np.arange(k), cells] &= ~bits
    if junk:
        for row in rows:
            for _ in range(rng.randrange(5)):
                row[rng.randrange(t.N)] &= ~t.bit[rng.randrange(t.n)]
    return rows


def compiled(rows: np.ndarray, n: int, dynamic: bool, start: np.ndarray | None):
    work = np.array(rows, dtype=np.uint32)
    contra = np.zeros(rows.shape[0], dtype=np.uint8)
    rounds = np.zeros(rows.shape[0], dtype=np.int32)
    first = None if start is None else np.array(start, dtype=np.uint32)
    propagate._C.fixpoints(work, rows.shape[0], n, dynamic, first, contra, rounds)
    return work, contra.view(bool), rounds


@pytest.mark.parametrize("n", [4, 9, 16, 25])
@pytest.mark.parametrize("mode", ["singles", "dynamic", "static"])
def test_compiled_rows_equal_the_numpy_rows(n: int, mode: str) -> None:
    rng = random.Random(n)
    t = propagate.tables(n)
    seen = set()
    for state in states(n):
        for junk in (False, True):
            rows = branch_rows(state, rng, junk)
            if n == 25:
                rows = rows[:: 7]  # the numpy twin is slow on 625 cells
            start = propagate.base_row(state) if mode == "static" else None
            dynamic = mode == "dynamic"
            rounds = np.zeros(rows.shape[0], dtype=np.int32)
            out, contra = propagate._propagate_rows(rows, t, dynamic, rounds, start)
            c_out, c_contra, c_rounds = compiled(rows, n, dynamic, start)
            assert (c_contra == contra).all()
            assert (c_rounds == rounds).all()
            assert (c_out == out).all()
            seen |= set(contra.tolist())
    assert seen == {False, True}  # both ends are exercised


@pytest.mark.parametrize("n", [4, 9])
def test_nested_verdicts_agree(n: int) -> None:
    t = propagate.tables(n)
    for state in states(n)[:2]:
        base = propagate.base_row(state)
        cands = [(c, v) for c, m in enumerate(state.cand) for v in range(1, n + 1) if m >> (v - 1) & 1]
        sample = cands[:: max(1, len(cands) // 10)]
        for level in (0, 1):
            want = propagate._contradicting_rows(base, t, sample, level)
            assert (propagate.contradicting(base, t, sample, level) == want).all()


@pytest.mark.parametrize("n", [9, 16, 25])
def test_level_0_verdicts_agree_on_every_candidate(n: int) -> None:
    """Every candidate of a state at level 0, as the nested tracer asks (``nested_facts``): the
    compiled run stops a branch once it decides a candidate an earlier branch found
    contradicting; the verdicts stay the twin's, which runs every branch to its end."""
    t = propagate.tables(n)
    verdicts = set()
    for state in states(n):
        base = propagate.base_row(state)
        cands = [(c, v) for c, m in enumerate(state.cand) for v in range(1, n + 1) if m >> (v - 1) & 1]
        if n == 25:
            cands = cands[: 300]  # the numpy twin is slow on 625 cells
        want = propagate._contradicting_rows(base, t, cands, 0)
        assert (propagate.contradicting(base, t, cands, 0) == want).all()
        verdicts |= set(want.tolist())
    assert verdicts == {False, True}


def test_static_and_dynamic_together_are_refused() -> None:
    state = states(9)[0]
    t = propagate.tables(9)
    row = propagate.base_row(state)[None, :]
    with pytest.raises(ValueError):
        propagate.propagate(row, t, dynamic=True, start=row[0])


def both_recorders(monkeypatch, state: State, cell: int, value: int, truth: bool, static: bool, one: bool,
                   dynamic: bool = False):
    """The same branch traced by the pure recorder and by the compiled one."""
    from techniques import implication
    from techniques.forcing import prover

    with monkeypatch.context() as m:
        m.setattr(implication, "_C", None)
        pure = prover(state).run(cell, value, truth, 0, dynamic, static, one)
    return pure, prover(state).run(cell, value, truth, 0, dynamic, static, one)


@pytest.mark.parametrize("n", [4, 9, 16, 25])
def test_compiled_branches_record_the_same_facts(monkeypatch, n: int) -> None:
    from techniques.implication import needed_closure

    rng = random.Random(n)
    ends, rules = set(), set()
    for state in states(n):
        cands = [(c, v) for c, m in enumerate(state.cand) for v in range(1, n + 1) if m >> (v - 1) & 1]
        for c, v in rng.sample(cands, min(len(cands), 25 if n <= 9 else 6)):
            for truth, static, one, dynamic in ((True, False, False, False), (False, False, False, False),
                                                (True, True, False, False), (False, True, False, False),
                                                (True, False, True, False), (True, False, False, True),
                                                (False, False, False, True)):
                pure, comp = both_recorders(monkeypatch, state, c, v, truth, static, one, dynamic)
                assert comp.record is not None and pure.record is None
                assert [tuple(f) for f in comp.facts] == [tuple(f) for f in pure.facts]  # step facts' Explanations too
                rules |= {f[3] for f in pure.facts}
                assert comp.solved == pure.solved
                assert (comp.end is None) == (pure.end is None)
                if pure.end is not None:
                    assert (comp.end.kind, comp.end.premises, comp.end.kw) == (pure.end.kind, pure.end.premises,
                                                                               pure.end.kw)
                    ends.add(pure.end.kind)
                    assert needed_closure(comp, list(comp.end.premises)) == needed_closure(pure,
                                                                                          list(pure.end.premises))
                last = pure.facts[-1]
                assert comp.find(*last[:3]) == pure.find(*last[:3]) == len(pure.facts) - 1
    assert ends >= ({"cell", "house", "twice"} if n == 9 else set())
    assert rules >= ({"assume", "peer", "cell", "house", "step"} if n == 9 else {"assume", "peer"})


@pytest.mark.parametrize("n", [4, 9, 16])
def test_group_conclusions_agree(n: int) -> None:
    t = propagate.tables(n)
    for state in states(n):
        base = propagate.base_row(state)
        cands = [(c, v) for c, m in enumerate(state.cand) for v in range(1, n + 1) if m >> (v - 1) & 1]
        rows = branch_rows(state, random.Random(0), False)
        for static in (False, True):
            out, contra = propagate.propagate(rows, t, start=base if static else None)
            for limit in (5, 10 ** 6):
                want = propagate._group_options_rows(out, contra, cands, base, t, static, limit)
                assert propagate.group_options(out, contra, cands, base, t, static, limit) == want


def test_one_digit_verdicts_agree(monkeypatch) -> None:
    for n in (4, 9, 16):
        for state in states(n):
            compiled_ = propagate.one_digit_fails(state)
            odd = sum(1 << (v - 1) for v in range(1, n + 1, 2))
            some = propagate.one_digit_fails(state, odd)
            assert some == [(c, v) for c, v in compiled_ if v % 2]  # a value's answer is its own
            with monkeypatch.context() as m:
                m.setattr(propagate, "_C", None)
                assert propagate.one_digit_fails(state) == compiled_
                assert propagate.one_digit_fails(state, odd) == some


def _cands(state: State) -> list[tuple[int, int]]:
    n = state.geo.n
    return [(c, v) for c, m in enumerate(state.cand) for v in range(1, n + 1) if m >> (v - 1) & 1]


@pytest.mark.parametrize("n", [9, 16, 25])
@pytest.mark.parametrize("dynamic", [False, True])
def test_resumed_batches_agree(monkeypatch, n: int, dynamic: bool) -> None:
    """A batch resumed from an earlier state's (``resumed``, the forcing search on big grids):
    the twins agree row for row (fixpoint, flag, rounds), and every verdict and every fixpoint
    of a row that does not contradict is a fresh batch's."""
    t = propagate.tables(n)
    runs = set()
    pairs = list(zip(states(n), states(n)[1:], strict=False))
    near = states(n)[0].copy()  # the next state one candidate away: most rows keep their fixpoint
    c = max(range(near.geo.ncells), key=lambda x: near.cand[x].bit_count())
    near.eliminate(c, near.cand[c].bit_length())
    pairs.append((states(n)[0], near))
    for early, late in pairs:
        old_cands = _cands(early)
        old_rows = np.concatenate([propagate.assumed(propagate.base_row(early), t, old_cands),
                                   propagate.assumed(propagate.base_row(early), t, old_cands, truth=False)])
        old_rounds = np.zeros(old_rows.shape[0], dtype=np.int32)
        old_out, old_contra = propagate.propagate(old_rows, t, dynamic, old_rounds)
        cands = _cands(late)[:: 5 if n == 25 else 1]
        at = {cv: i for i, cv in enumerate(old_cands)}
        true = np.array([at[cv] for cv in cands], dtype=np.intp)
        old = np.concatenate([true, true + len(old_cands)])
        base = propagate.base_row(late)
        out, contra, rounds = propagate.resumed(old_out, old_contra, old_rounds, old, base, t, cands, dynamic)
        with monkeypatch.context() as m:
            m.setattr(propagate, "_C", None)
            p_out, p_contra, p_rounds = propagate.resumed(old_out, old_contra, old_rounds, old, base, t, cands,
                                                          dynamic)
        assert (contra == p_contra).all() and (rounds == p_rounds).all() and (out == p_out).all()
        fresh_rows = np.concatenate([propagate.assumed(base, t, cands), propagate.assumed(base, t, cands, truth=False)])
        fresh, fresh_contra = propagate.propagate(fresh_rows, t, dynamic)
        assert (contra == fresh_contra).all()
        assert (out[~contra] == fresh[~contra]).all()
        moved = (out != old_out[old]).any(axis=1)
        runs |= {bool(x) for x in moved[~old_contra[old]]}
    assert runs == {False, True}  # rows kept as they were and rows run again


def test_resumed_refuses_rows_out_of_range() -> None:
    state = states(9)[0]
    t = propagate.tables(9)
    base = propagate.base_row(state)
    cands = _cands(state)[:3]
    rows = propagate.assumed(base, t, cands)
    out, contra = propagate.propagate(rows, t)
    rounds = np.ones(3, dtype=np.int32)
    with pytest.raises(ValueError, match="out of range"):
        propagate.resumed(out, contra, rounds, np.array([0, 1, 2, 3, 4, 5]), base, t, cands)
