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


def test_the_role_helpers_make_the_roles_the_constructor_makes() -> None:
    """The helpers set a role's fields without converting them again (they are value types
    already): the roles equal, hash and print as ``Role`` makes them, stay frozen, and an
    unknown role name is refused as ``Role`` refuses it."""
    from explainer.model import roles
    from explainer.model.grid import geometry
    from explainer.model.roles import Role

    geo = geometry(9)
    made = [roles.on_cells("pivot", geo, [40, 4, 40], group=2), roles.on_cands("value", geo, [(40, 5), (4, 5)]),
            roles.on_houses("house", geo, [0, 9, 0]),
            roles.on("cover", cells=[(0, 1)], candidates=[(0, 1, 3)], houses=[("row", 0)], group=1)]
    plain = [Role("pivot", cells=((0, 4), (4, 4)), group=2), Role("value", candidates=((0, 4, 5), (4, 4, 5))),
             Role("house", houses=(("row", 0), ("col", 0))),
             Role("cover", cells=((0, 1),), candidates=((0, 1, 3),), houses=(("row", 0),), group=1)]
    assert made == plain and [hash(r) for r in made] == [hash(r) for r in plain]
    assert [repr(r) for r in made] == [repr(r) for r in plain] and [r.to_dict() for r in made] == [
        r.to_dict() for r in plain]
    assert type(made[0].cells[0]) is Cell and type(made[1].candidates[0]) is Candidate
    assert type(made[2].houses[0]) is House
    with pytest.raises(dataclasses.FrozenInstanceError):
        made[0].group = 3  # type: ignore[misc]
    with pytest.raises(ValueError, match="unknown role 'pivto'"):
        roles.on_cells("pivto", geo, [0])
    step = Explanation("x wing", place=((0, 0, 1),), eliminate=((1, 4, 7),), roles=(made[0],))
    assert step.roles[1:] == (Role("placed", candidates=((0, 0, 1),)), Role("removed", candidates=((1, 4, 7),)))
