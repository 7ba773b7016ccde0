"""Forcing chains: exact small cases, near misses, and a fixed sample of hard puzzles
whose every trial/forcing step replays (nested proofs included) and never needs brutal."""
from functools import cache

import pytest

from explainer.api import Puzzle
from explainer.model.explanation import Explanation
from techniques import REGISTRY, forcing, lookup, weights
from tests.conftest import SHARED, top1465, verify_documents
from tests.techniques.chain_fixtures import cell_index, open_grid
from tests.techniques.forcing_helpers import check_proof, check_step

HARDEST = SHARED / "data" / "hardest300.txt"


@cache
def sample() -> tuple[Puzzle, ...]:
    """First 3 of hardest300 and top1465 lines 23, 24, 36 (trial lucky, common, contradiction),
    in the seed order (the simplest order takes no trial lucky)."""
    lines = HARDEST.read_text().split()[:3] + top1465(23, 24, 36)
    out = []
    for text in lines:
        p = Puzzle(text, order="seed")
        p.steps
        out.append(p)
    return tuple(out)


@pytest.fixture(scope="module")
def hard_state():
    p = sample()[0]
    i = next(i for i, s in enumerate(p.steps) if s.technique == "forcing chain")
    return p.state_before(i)


def forcing_steps():
    for p in sample():
        for i, s in enumerate(p.steps):
            if s.technique in ("trial", "trial lucky", "forcing chain"):
                yield p.state_before(i), s


# ---- exact cases ------------------------------------------------------------------------

def test_contradiction_step_exact():
    state = open_grid({"r1c1": "12", "r1c2": "13", "r2c2": "13"})
    step = forcing.static_step(state)
    assert step is not None and step.technique == "forcing chain"
    assert step.get("kind") == "contradiction" and step.get("level") == 0 and step.get("size") == 5
    assert step.proof.size == 5 and len(step.proof.branches) == 1
    # every 5-fact contradiction here assumes 1 or 3 next to the pair r1c2/r2c2 (1 or 3)
    (r, c, v), = step.eliminate
    assert not step.place and v in (1, 3)
    assert check_step(state, step) == []
    assert step.text.startswith("Forcing chain (contradiction): Suppose ")
    assert "would be twice in column 2" in step.text and step.text.endswith(f"So r{r + 1}c{c + 1} is not {v}.")
    assert dict(step.translations)["fr"].startswith("Chaîne de forçage (contradiction) : Supposons ")


def test_cell_forcing_exact():
    # r1c1 is 1 or 2; 1 makes r2c2 = 5, 2 makes r3c3 = 5: either way the rest of box 1 loses 5
    state = open_grid({"r1c1": "12", "r2c2": "15", "r3c3": "25"})
    s = forcing._Static(state)
    opts = [o for o in s.options() if o[0] == "cell" and o[1][0][0] == cell_index("r1c1")]
    concl = {o[2] for o in opts}
    box1 = {cell_index(x) for x in ("r1c2", "r1c3", "r2c1", "r2c3", "r3c1", "r3c2")}
    assert {(x, 5, False) for x in box1} <= concl
    kind, ass, fact = next(o for o in opts if o[2] == (cell_index("r1c2"), 5, False))
    proof, size = s.proof_of(kind, ass, fact)
    assert [b.assume for b in proof.branches] == [(0, 0, 1, True), (0, 0, 2, True)]
    assert size == 8 and all(len(b.facts) == 4 for b in proof.branches)
    r, c = divmod(fact[0], 9)
    step = forcing.make_step(state.geo, proof, [], [(fact[0], 5)])
    assert check_step(state, step) == []
    assert "In every case, r" in step.text and "Dans tous les cas" in dict(step.translations)["fr"]


def test_house_forcing_exact():
    # 7 in row 1 only at r1c1, r1c5; r1c1=7 -> r2c2 = 4 ({4,7}); r1c5=7 -> r2c5 = 4 ({4,7}):
    # every place of 7 in row 1 puts a 4 in row 2, so the rest of row 2 loses 4
    state = open_grid({"r2c2": "47", "r2c5": "47"}, keep={"7 row1": ["r1c1", "r1c5"]})
    s = forcing._Static(state)
    # the conclusion is found (the smaller cell group of r2c2 may claim it first)
    assert (cell_index("r2c9"), 4, False) in {o[2] for o in s.options()}
    ass = [(cell_index("r1c1"), 7, True), (cell_index("r1c5"), 7, True)]
    proof, size = s.proof_of("house", ass, (cell_index("r2c9"), 4, False))
    assert size == 8
    assert check_proof(state, proof, eliminate=[(1, 8, 4)]) == []


def test_near_misses_find_nothing_static():
    assert forcing.static_step(open_grid({"r1c1": "12", "r1c2": "13", "r2c2": "14"})) is None
    assert forcing.static_step(open_grid()) is None


def test_rating_grows_with_kind_level_and_size():
    from explainer.model.rating import rate

    def r(kind: str, level: int, dynamic: bool, size: int) -> float:
        step = Explanation("forcing chain", eliminate=((0, 0, 1),),
                           detail=(("dynamic", dynamic), ("kind", kind), ("level", level), ("size", size)))
        return rate(step, weights()["forcing chain"])

    assert weights()["forcing chain"] == weights()["trial"]  # singles from an assumption, as trial
    assert r("contradiction", 0, False, 3) < r("contradiction", 0, False, 40)
    assert r("cell", 0, False, 10) > r("contradiction", 0, False, 10)
    assert r("contradiction", 0, True, 10) > r("contradiction", 0, False, 10)
    assert r("contradiction", 0, True, 10) < r("contradiction", 1, False, 10) < r("contradiction", 2, False, 10)
    assert r("contradiction", 1, False, 200) > r("contradiction", 1, False, 20)


def test_registry_entry():
    t = lookup("nested forcing chain")
    assert t.name == "forcing chain" and t.find is forcing.find
    names = [t.name for t in REGISTRY]
    assert names.index("trial") < names.index("forcing chain") < names.index("brutal")
    assert "forcing chain" in weights()
    assert t.kind("forcing chain").trial_like  # counts as medium (TECHNIQUES.md)


# ---- the sample -------------------------------------------------------------------------

def test_sample_needs_no_brutal_and_uses_forcing():
    stats = [p.statistics for p in sample()]
    assert all(not s.get("brutal") for s in stats)
    assert all(p.complete for p in sample())
    assert sum(s.get("forcing chain", 0) for s in stats) > 0
    levels = {s.get("level") for p in sample() for s in p.steps if s.technique == "forcing chain"}
    assert 0 in levels and 1 in levels


def test_sample_passes_the_checker(tmp_path):
    verify_documents([p.to_json() for p in sample()], tmp_path)


def test_every_proof_replays_with_nested_facts():
    nested = 0
    for state, step in forcing_steps():
        assert step.proof is not None, step.text
        assert check_step(state, step) == [], step.text
        nested += sum(f.rule == "step" for b in step.proof.branches for f in b.facts)
    assert nested > 0  # the sample has nested facts, each replayed on its branch state


def test_trial_steps_carry_their_proof():
    kinds = {(s.technique, s.proof.kind, len(s.proof.branches)) for _, s in forcing_steps()
             if s.technique.startswith("trial")}
    assert ("trial lucky", "contradiction", 1) in kinds  # one branch ending 'solved'
    assert ("trial", "contradiction", 1) in kinds
    assert ("trial", "double", 2) in kinds


def test_detail_and_json_round_trip():
    _, step = next((st, s) for st, s in forcing_steps() if s.technique == "forcing chain")
    d = step.to_dict()
    assert set(d["detail"]) == {"kind", "level", "dynamic", "size"}
    assert d["detail"]["size"] == step.proof.size
    back = Explanation.from_dict(d)
    assert back.proof == step.proof and back.eliminate == step.eliminate


def test_no_brutal_reports_an_unfinished_grid():
    p = Puzzle(HARDEST.read_text().split()[0], ["single position", "single candidate", "brutal"], brutal=False)
    assert not p.complete and "brutal" not in p.statistics
    assert "INCOMPLETE" in p.summary()


def _depth(proof) -> int:
    return max([1 + _depth(f.step.proof) for b in proof.branches for f in b.facts
                if f.rule == "step" and f.step is not None and f.step.proof is not None] or [0])


def test_a_level_2_proof_nests_twice_and_replays():
    p = sample()[1]
    i = [i for i, s in enumerate(p.steps) if s.technique == "forcing chain" and s.get("level") == 1][-1]
    state = p.state_before(i)
    step = forcing.nested_step(state, 2)
    assert step is not None and step.get("level") == 2 and step.proof.level == 2
    assert _depth(step.proof) == 2  # a level-1 nested step holding a level-0 one
    assert check_step(state, step) == []


def test_dynamic_facts_are_locked_candidates_that_hold_in_their_branch():
    dynamic = [s for _, s in forcing_steps() if s.technique == "forcing chain" and s.get("dynamic")]
    assert dynamic
    facts = [f for s in dynamic for b in s.proof.branches for f in b.facts if f.rule == "step"]
    assert facts and all(f.step.technique == "locked candidate" and f.premises for f in facts)
    # (test_every_proof_replays_with_nested_facts checks each pattern in its branch state)


def test_dynamic_switch_follows_the_run_context():
    from explainer.model.technique import NO_CONTEXT, Context

    assert forcing.dynamic_allowed(NO_CONTEXT)  # no run order given: dynamic branches allowed
    assert forcing.dynamic_allowed(Context(earlier=(lookup("locked candidate"),)))
    assert not forcing.dynamic_allowed(Context(earlier=(lookup("single position"),)))
    state = open_grid({"r1c1": "12", "r1c2": "13", "r2c2": "13"})
    assert next(forcing.find(state, Context(earlier=(lookup("locked candidate"),)))).technique == "forcing chain"


def test_16x16_static_step_replays():
    from explainer.model.grid import parse_grid
    from explainer.model.state import State

    line = (SHARED / "data" / "sample16.txt").read_text().split()[0]
    state = State.from_grid(parse_grid(line))
    step = forcing.static_step(state)
    assert step is not None and check_step(state, step) == []


def test_static_pass_finds_single_premise_chains_that_replay() -> None:
    """The static pass (SE's forcing chains): every implication rests on one premise, the
    step is sound and its proof replays; it is rated below the dynamic chains."""
    from explainer.model.rating import SE_DYNAMIC, chain_base

    found = 0
    for state, _ in forcing_steps():
        step = forcing.static_step(state, static=True)
        if step is None:
            continue
        found += 1
        assert step.proof is not None
        for branch in step.proof.branches:
            for fact in branch.facts:
                if fact.rule in ("cell", "house"):
                    assert len(fact.premises) == 1, (step.text, fact)
                assert fact.rule != "step"
            if branch.end.is_contradiction:
                assert len(branch.end.premises) <= 2
        assert chain_base(step.proof) < SE_DYNAMIC
        assert check_step(state, step) == []
    assert found >= 3


def test_easiest_forcing_search_skips_passes_above_the_ceiling(hard_state) -> None:
    from dataclasses import replace

    from explainer.model.technique import NO_CONTEXT, Bound

    assert list(forcing.find(hard_state, replace(NO_CONTEXT, bound=Bound(6.9)))) == []
    assert list(forcing.find(hard_state, NO_CONTEXT))


def test_nishio_step_is_a_one_digit_contradiction():
    """SE's path looks for Nishio chains (one digit, dynamic: 7.5 + length) before a static
    cell forcing chain (8.0 + length): SE rates this puzzle 7.9."""
    from explainer.model.rating import SE_NISHIO, chain_base
    from explainer.model.technique import Bound, Context

    p = Puzzle(".4..7..1...3.8.5..5.......2.3..1..7....2.5...41.7.3.85..4...8...8.4.6.2.35.....41", order="simplest")
    assert p.complete and 7.5 <= p.rating.er < 8.0
    k = next(i for i, s in enumerate(p.steps) if s.technique == "forcing chain")
    state = p.state_before(k)
    step = forcing.nishio_step(state)
    assert step is not None and step.get("kind") == "contradiction"
    digits = {f.fact[2] for b in step.proof.branches for f in b.facts}
    assert len(digits) == 1 and chain_base(step.proof) == SE_NISHIO
    assert all(f.rule in ("assume", "peer", "house") for b in step.proof.branches for f in b.facts)
    assert check_step(state, step) == []
    # the registry path keeps the smallest proof (no Nishio pass)
    plain = [s for s in forcing.find(state, Context())]
    assert len(plain) == 1
    assert [s.proof == step.proof for s in forcing.find(state, Context(bound=Bound()))].count(True) == 1


def test_nishio_near_miss():
    # a pair in a row: assuming either 1 never empties a house of 1s
    assert forcing.nishio_step(open_grid({"r1c1": "12", "r1c2": "12"})) is None


def test_one_digit_answers_kept_per_value_equal_a_fresh_search(monkeypatch):
    """The session keeps each value's one-digit answer with the places it was found for:
    along a real explanation the kept answers are a fresh search's, only the values whose
    places changed are looked at again, and an answer kept for other places is not read."""
    from explainer.core import propagate

    p = Puzzle(".4..7..1...3.8.5..5.......2.3..1..7....2.5...41.7.3.85..4...8...8.4.6.2.35.....41", order="simplest")
    kept: dict = {}
    asked = []
    real = propagate.one_digit_fails

    def counting(state, values=None):
        asked.append(bin(values if values is not None else 511).count("1"))
        return real(state, values)

    monkeypatch.setattr(propagate, "one_digit_fails", counting)
    fails = 0
    for i in range(len(p.steps)):
        state = p.state_before(i)
        got = forcing._one_digit_fails(state, kept)
        assert got == real(state)
        fails += len(got)
    assert asked[0] == 9 and sum(asked) < 9 * len(asked) / 2
    assert fails
    state = p.state_before(0)
    kept = {v: (state.pos[v - 1] ^ 1, [0]) for v in range(1, 10)}  # other places: looked at again
    assert forcing._one_digit_fails(state, kept) == real(state)
