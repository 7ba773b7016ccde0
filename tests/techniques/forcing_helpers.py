"""Replay forcing proofs with the shared checker's own logic (../shared/tools/verify_steps.py),
including the nested proofs that the checker only checks loosely."""
from __future__ import annotations

import importlib.util
from functools import cache

from explainer.model.explanation import Explanation
from explainer.model.proof import Proof
from explainer.model.state import State
from tests.conftest import VERIFY


@cache
def verifier():
    spec = importlib.util.spec_from_file_location("verify_steps", VERIFY)
    assert spec is not None and spec.loader is not None
    mod = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(mod)
    return mod


def sets_of(state: State) -> tuple[list[set[int]], list[int]]:
    """The checker's view of a state: candidate sets and placed values."""
    return [set(state.candidates(c)) for c in range(state.geo.ncells)], list(state.values)


def check_step(state: State, step: Explanation, nested: bool = True) -> list[str]:
    """Errors of the checker's proof replay of ``step`` on ``state`` (its start state),
    then, recursively, of every nested step fact replayed on its branch state
    (the start candidates minus the ``from`` facts' false candidates and the peers
    of their true ones, STEPS_JSON.md)."""
    v = verifier()
    checker = v.Checker({"size": state.geo.n})
    cand, vals = sets_of(state)
    d = step.to_dict()
    checker._check_proof(0, step.technique, d, cand, vals)
    errors = list(checker.errors)
    if nested and step.proof is not None:
        errors += check_nested(state, step.proof)
    return errors


def pattern_holds(step: Explanation, cand: tuple[int, int, int], state: State) -> bool:
    """The checker's own test of a pattern step (pointing or claiming, hidden or naked tuple,
    x-wing) removing ``cand`` in ``state``."""
    checker = verifier().Checker({"size": state.geo.n})
    elim, sets, d = {cand}, sets_of(state)[0], step.to_dict()
    if step.technique == "locked candidate":
        return bool(checker._locked(elim, sets))
    test = {"hidden tuple": checker._hidden, "naked tuple": checker._naked, "x wing": checker._fish}.get(step.technique)
    return test is not None and bool(test(d, elim, sets))


def check_nested(state: State, proof: Proof) -> list[str]:
    errors: list[str] = []
    geo = state.geo
    n = geo.n
    for b in proof.branches:
        for f in b.facts:
            if f.rule != "step":
                continue
            assert f.step is not None
            sub = state.copy()
            for j in f.premises:
                r, c, v, t = b.facts[j].fact
                x = r * n + c
                if t:
                    for p in geo.peers[x]:
                        sub.eliminate(p, v)
                else:
                    sub.eliminate(x, v)
            r, c, v, t = f.fact
            if f.step.proof is None:  # a dynamic fact: the pattern holds in the branch state
                if (r, c, v) not in f.step.eliminate or not pattern_holds(f.step, (r, c, v), sub):
                    errors.append(f"{f.step.technique} {f.fact} does not hold in its branch state")
                continue
            assert f.step.proof is not None, "a nested fact carries its proof"
            # the nested step claims the fact
            claim = f.step.place if t else f.step.eliminate
            if tuple(claim) != ((r, c, v),):
                errors.append(f"nested step claims {claim}, the fact is {f.fact}")
            errors += check_step(sub, f.step)
    return errors


def check_proof(state: State, proof: Proof, place=(), eliminate=()) -> list[str]:
    step = Explanation("forcing chain", place=tuple(place), eliminate=tuple(eliminate), proof=proof)
    return check_step(state, step)
