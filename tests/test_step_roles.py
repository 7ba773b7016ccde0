"""Every step's roles against its own text (issue 41, item 0).

SE 459 step 31 (se_rated line 459, default order) is a trial whose two cases are
"r8c2 is 2" and "r8c2 is 5"; its roles named the 2 in both assumption groups (the second
case is recorded as "r8c2 is not 2"), so the frame struck the true 2 and left the 5
unmarked. A step's roles must say what its caption says: each assumption group names a
fact the caption states, no two groups the same fact, and every role names candidates live
in the state before the step (``explainer.engine.check``: ``role_problems`` and
``step_problems``, which check mode runs on every step a finder yields).

``test_roles_agree_on_collections`` replays samples of se_rated, top1465 and hardest300
(slow: ``pytest --slow tests/test_step_roles.py``); the others run every time.
"""
from __future__ import annotations

from dataclasses import replace

import pytest

from explainer import Puzzle
from explainer.engine.check import role_problems, step_problems
from explainer.model.roles import Role
from tests.conftest import SHARED

DATA = SHARED / "data"
SE459 = "....9.....69..1...21...39.43....746...........428....19.71...42...9..83.....5...."


def _lines(name: str, step: int, count: int) -> list[str]:
    lines = [x.split()[0][:81] for x in (DATA / name).read_text().splitlines() if x.strip() and not x.startswith("#")]
    return lines[::step][:count]


def problems(p: Puzzle) -> list[str]:
    """Each step of ``p`` whose roles disagree with its caption or name a dead candidate."""
    out = []
    for k, step in enumerate(p.steps):
        found = step_problems(p.state_before(k), step) + role_problems(step)
        found = [x for x in found if x != "changes nothing"]
        out += [f"step {k + 1} ({step.technique}): {x}" for x in found]
    return out


def test_trial_names_each_case_once() -> None:
    p = Puzzle(SE459)
    step = p.steps[30]
    assert step.technique == "trial" and "r8c2 is 2 or r8c2 is 5" in step.text
    groups = {r.group: [tuple(c) for c in r.candidates] for r in step.roles if r.role == "assumption"}
    assert groups == {0: [(7, 1, 2)], 1: [(7, 1, 5)]}
    assert not problems(p)


def test_the_check_can_fail() -> None:
    """The roles SE 459 step 31 had before the fix: the 2 in both groups, the second struck."""
    step = Puzzle(SE459).steps[30]
    old = tuple(replace(r, candidates=((7, 1, 2),)) if r.role == "assumption" else r for r in step.roles)
    found = role_problems(replace(step, roles=old))
    assert found and "assumption#1 r8c2≠2" in found[0]
    twice = tuple(r for r in step.roles if r.role != "assumption") + (
        Role("assumption", candidates=((7, 1, 2),), group=0), Role("assumption", candidates=((7, 1, 2),), group=2))
    assert any("both name r8c2=2" in x for x in role_problems(replace(step, roles=twice)))


@pytest.mark.parametrize("line,order", [(SE459, "seed"), (_lines("top1465.txt", 1, 62)[61], "simplest"),
                                        (_lines("hardest300.txt", 1, 2)[1], "simplest")])
def test_roles_agree_on_a_few_puzzles(line: str, order: str) -> None:
    assert not problems(Puzzle(line, order=order))


def _check(args: tuple[str, str]) -> list[str]:
    line, order = args
    return [f"{line} ({order}) {x}" for x in problems(Puzzle(line, order=order))]


@pytest.mark.slow
def test_roles_agree_on_collections() -> None:
    """se_rated (every 20th line, default and seed orders), top1465 (every 30th) and
    hardest300 (every 30th): 210 explanations."""
    se = _lines("se_rated.txt", 20, 52)
    jobs = [(x, "simplest") for x in se] + [(x, "seed") for x in se]
    jobs += [(x, "simplest") for x in _lines("top1465.txt", 30, 49) + _lines("hardest300.txt", 30, 10)]
    wrong = [x for job in jobs for x in _check(job)]
    assert not wrong, "\n".join(wrong[:10])
