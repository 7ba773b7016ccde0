"""The recording implication engine and the numpy batch, on hand-built states."""
import pytest

from explainer.core import propagate as batch
from explainer.model.proof import Proof
from techniques.forcing import prover
from techniques.implication import extract, needed_closure
from tests.techniques.chain_fixtures import cell_index, open_grid
from tests.techniques.forcing_helpers import check_proof, check_step


@pytest.fixture(scope="module")
def hard_state():
    from tests.techniques.test_forcing import sample

    p = sample()[0]
    i = next(i for i, s in enumerate(p.steps) if s.technique == "forcing chain")
    return p.state_before(i)


@pytest.fixture(scope="module")
def contradiction_state():
    """The state before the first forcing step of the sample that is a contradiction."""
    from tests.techniques.test_forcing import sample

    p = sample()[0]
    i = next(i for i, s in enumerate(p.steps) if s.technique == "forcing chain" and s.get("kind") == "contradiction"
             and not s.get("dynamic") and not s.get("level"))
    return p.state_before(i)


def facts_of(branch):
    return [(str(f).split(" ")[0], f.rule, f.premises) for f in branch.facts]


def test_contradiction_branch_is_exact_and_minimal():
    # r1c1 = 1 empties r1c2 and r2c2 of 1: both become 3, twice in column 2 (and box 1)
    state = open_grid({"r1c1": "12", "r1c2": "13", "r2c2": "13"})
    tr = prover(state).run(cell_index("r1c1"), 1, True)
    assert tr.end is not None
    br = extract(tr)
    assert facts_of(br) == [
        ("r1c1=1", "assume", ()),
        ("r1c2<>1", "peer", (0,)),
        ("r1c2=3", "cell", (1,)),
        ("r2c2<>1", "peer", (0,)),
        ("r2c2=3", "cell", (3,)),
    ]
    assert br.end.kind == "twice" and br.end.value == 3 and br.end.premises == (2, 4)
    assert set(br.end.cells) == {(0, 1), (1, 1)}
    assert check_proof(state, Proof("contradiction", 0, (br,)), eliminate=[(0, 0, 1)]) == []


def test_assuming_false_uses_the_cell_rule():
    state = open_grid({"r1c1": "12", "r1c2": "13", "r2c2": "13"})
    br = extract(prover(state).run(cell_index("r1c1"), 2, False))
    assert facts_of(br)[:2] == [("r1c1<>2", "assume", ()), ("r1c1=1", "cell", (0,))]
    assert check_proof(state, Proof("contradiction", 0, (br,)), place=[(0, 0, 2)]) == []


def test_hidden_single_and_empty_house():
    # 5 in row 1 only at r1c1, r1c2; 5 in column 1 only at r1c1, r4c1.
    # r1c2 = 5 -> r1c1 <> 5 -> r4c1 = 5 (house column 1)
    state = open_grid(keep={"5 row1": ["r1c1", "r1c2"], "5 col1": ["r1c1", "r4c1"]})
    tr = prover(state).run(cell_index("r1c2"), 5, True)
    i = tr.find(cell_index("r4c1"), 5, True)
    assert i is not None and tr.facts[i][3] == "house"
    br = extract(tr, [i])
    assert [str(f) for f in br.facts] == ["r1c2=5 (assume)", "r1c1<>5 (peer from 0)", "r4c1=5 (house from 1)"]
    assert br.end.conclusion == (2,)


def test_no_contradiction_reaches_a_fixpoint():
    state = open_grid({"r1c1": "12", "r1c2": "13", "r2c2": "14"})
    tr = prover(state).run(cell_index("r1c1"), 1, True)
    assert tr.end is None and not tr.solved
    assert len(needed_closure(tr, [len(tr.facts) - 1])) <= len(tr.facts)


def test_batch_agrees_with_the_tracer(contradiction_state):
    """The propagator's verdicts (no reasons) and the recording tracer's agree on every
    assumption, true or false; where it does not contradict, the tracer's false facts are
    the candidates the batch's fixpoint lost."""
    state = contradiction_state
    t = batch.tables(9)
    base = batch.base_row(state)
    assumptions = [(c, v) for c in range(81) for v in range(1, 10) if state.cand[c] >> (v - 1) & 1]
    tracer = prover(state)
    verdicts = set()
    for truth in (True, False):
        out, contra = batch.propagate(batch.assumed(base, t, assumptions, truth), t)
        if truth:
            assert (batch.contradicting(base, t, assumptions) == contra).all()
        for (c, v), bad, row in zip(assumptions, contra, out, strict=True):
            tr = tracer.run(c, v, truth)
            assert (tr.end is not None) == bad
            verdicts.add(bool(bad))
            if not bad:
                for x in range(81):
                    if not state.values[x]:
                        gone = {u for u in range(1, 10) if state.cand[x] >> (u - 1) & 1 and not row[x] >> (u - 1) & 1}
                        assert gone == {u for u in range(1, 10) if tr.find(x, u, False) is not None}
    assert verdicts == {False, True}


def test_batch_works_for_16x16_and_4x4():
    from explainer.model.grid import geometry
    from explainer.model.state import State

    for n in (4, 16, 25):
        state = State(geometry(n))
        state.place(0, 1)
        t = batch.tables(n)
        out, contra = batch.propagate(batch.base_row(state)[None, :], t)
        assert not contra.any() and out[0, 0] == 1 and not out[0, 1] & 1


def test_compiled_minimisation_is_the_twin_of_shortest(hard_state):
    """``Record.shortest`` (C) keeps the facts ``shortest`` and ``_closure`` keep, with the same
    rule and premises for each, on every kind of run (singles, dynamic, static, one digit)."""
    from explainer import core
    from techniques import implication

    if core.compiled_info() is None:
        pytest.skip("compiled core not built (or pure path forced)")
    tracer = prover(hard_state)
    cands = [(c, v) for c in range(81) for v in hard_state.candidates(c)]
    checked = 0
    for c, v in cands[::5]:
        for truth in (True, False):
            for kw in ({}, {"dynamic": True}, {"static": True}, {"one_digit": True}):
                tr = tracer.run(c, v, truth, **kw)
                roots = list(tr.end.premises) if tr.end is not None else \
                    [i for i, r in enumerate(tr.facts) if r[2]][-3:]
                if not roots:
                    continue
                choice = implication.shortest(tr, roots)
                twin = [(i, *choice[i]) for i in sorted(implication._closure(tr, roots, choice))]
                assert tr.record.shortest(roots) == twin, (c, v, truth, kw)
                checked += 1
    assert checked > 100


def test_nested_branch_holds_the_start_states_pending_singles():
    """A position not closed under singles (a learner's: the seed's givens leave r1c6=1 a hidden
    single) gave a nested fact the batch found through that single but the nested tracer could not
    prove (AssertionError "nested branch does not contradict"). The nested branch now holds the
    start state's singles as premise-free facts, and its proof replays with the checker."""
    from explainer.model.grid import parse_grid
    from explainer.model.state import State
    from techniques.forcing import make_step

    seed = "9..3....41...2...5..2...3.12..6.9..36.9.5.............48.9...7........4....81...."
    state = State.from_grid(parse_grid(seed))
    tr = prover(state).run(1, 5, True, 1)  # r1c2=5, false; nested level 1
    assert tr.end is not None
    br = extract(tr)
    starts = [f for f in br.facts if f.rule in ("cell", "house") and not f.premises]
    assert starts, "a start-state single among the facts"
    step = make_step(state.geo, Proof("contradiction", 1, (br,)), [], [(1, 5)])
    assert check_step(state, step) == []
