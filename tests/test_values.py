"""Value types (community notation, read-back repr, tuple equality), the
Explanation's summary/repr, and the immutable snapshot a step keeps."""
from __future__ import annotations

import dataclasses
import doctest
import json

import pytest

import explainer.model.explanation
import explainer.model.values
from explainer import Explanation, Puzzle, Snapshot, State
from explainer.model.values import Candidate, Cell, House, StrongLink, WeakLink

SEED = "9..3....41...2...5..2...3.12..6.9..36.9.5.............48.9...7........4....81...."


@pytest.mark.parametrize("module", [explainer.model.values, explainer.model.explanation])
def test_doctests(module: object) -> None:
    assert doctest.testmod(module).failed == 0  # type: ignore[arg-type]


@pytest.mark.parametrize("value", [Candidate(2, 1, 4), Cell(8, 0), House("box", 4),
                                   StrongLink(Candidate(0, 0, 1), Candidate(0, 5, 1)),
                                   WeakLink(Candidate(0, 0, 1), Candidate(3, 0, 1))])
def test_repr_reads_back(value: object) -> None:
    assert eval(repr(value)) == value  # noqa: S307 - our own repr


def test_notation() -> None:
    c = Candidate(2, 1, 4)
    assert (str(c), c.placement(), c.elimination(), str(c.cell)) == ("4r3c2", "r3c2=4", "r3c2<>4", "r3c2")
    assert [str(House(k, 1)) for k in ("row", "col", "box")] == ["row 2", "column 2", "box 2"]
    assert str(WeakLink(c, Candidate(2, 4, 4))) == "4r3c2-4r3c5"


def test_explanation_holds_value_types_and_keeps_its_json() -> None:
    step = Explanation("x wing", eliminate=((1, 4, 7),), houses=(("row", 1),),
                       strong_links=(((1, 4, 7), (1, 8, 7)),))
    assert type(step.eliminate[0]) is Candidate and type(step.houses[0]) is House
    assert type(step.strong_links[0]) is StrongLink and str(step.strong_links[0]) == "7r2c5=7r2c9"
    assert step == Explanation("x wing", eliminate=(Candidate(1, 4, 7),), houses=(House("row", 1),),
                               strong_links=((Candidate(1, 4, 7), Candidate(1, 8, 7)),))
    d = step.to_dict()
    assert d["eliminate"] == [[1, 4, 7]] and d["strong_links"] == [[[1, 4, 7], [1, 8, 7]]]
    again = Explanation.from_dict(json.loads(json.dumps(d)))
    assert again == step and type(again.eliminate[0]) is Candidate
    assert repr(step) == "<Explanation x wing: r2c5<>7>"
    many = Explanation("chain", eliminate=tuple((0, c, 5) for c in range(8)))
    assert many.summary(limit=2) == "chain: r1c1<>5, r1c2<>5, … (8 in all)"


def test_steps_keep_an_immutable_snapshot() -> None:
    p = Puzzle(SEED)
    before = p.steps[3].before
    assert isinstance(before, Snapshot)
    with pytest.raises(dataclasses.FrozenInstanceError):
        before.unsolved = 0  # type: ignore[misc]
    state = p.state_before(3)
    assert isinstance(state, State) and state.values == list(before.values)
    state.apply(p.steps[3])  # a fresh copy: the snapshot does not change
    assert list(before.values) != state.values and p.state_before(3).values == list(before.values)
    assert before.state().cand == list(before.cand)
