import pytest

from techniques.subsets import find_hidden, find_naked
from tests.helpers import marks


@pytest.mark.parametrize(("finder", "picture", "technique", "eliminate"), [
    # r1c1 and r1c2 hold only 1 and 2: a naked pair that takes them from r1c3 and r1c4
    (find_naked, {"r1c1": "12", "r1c2": "12"}, "naked tuple", ((0, 2, 1), (0, 2, 2), (0, 3, 1), (0, 3, 2))),
    # 3 and 4 of row 1 lie only in r1c1 and r1c2: a hidden pair that takes their other values
    (find_hidden, {"r1c3": "34", "r1c4": "34"}, "hidden tuple", ((0, 0, 3), (0, 0, 4), (0, 1, 3), (0, 1, 4))),
])
def test_pair_in_a_row(finder, picture, technique, eliminate):
    step = next(finder(marks(picture, n=4)))
    assert step.technique == technique
    assert step.cells == ((0, 0), (0, 1))
    assert step.houses == (("row", 0),)
    assert step.eliminate == eliminate


def test_naked_pair_text():
    step = next(find_naked(marks({"r1c1": "12", "r1c2": "12"}, n=4)))
    assert step.text == ("Naked pair: in row 1, the cells r1c1 and r1c2 hold only 1 and 2, so these "
                         "values are removed from r1c3 and r1c4.")


def test_naked_triple_9x9():
    state = marks({"r1c1": "12", "r1c2": "23", "r1c3": "13"})  # a triple of 1, 2, 3
    steps = [s for s in find_naked(state) if s.houses == (("row", 0),)]
    assert steps[0].cells == ((0, 0), (0, 1), (0, 2))
    assert steps[0].eliminate == tuple((0, c, v) for c in range(3, 9) for v in (1, 2, 3))
    assert "Naked triple" in steps[0].text


def test_naked_must_not_fire_when_union_is_larger():
    state = marks({"r1c1": "12", "r1c2": "13"}, n=4)
    assert list(find_naked(state)) == []


def test_hidden_must_not_fire_without_eliminations():
    state = marks({"r1c1": "12", "r1c2": "12", "r1c3": "34", "r1c4": "34"}, n=4)
    assert [s for s in find_hidden(state) if s.houses == (("row", 0),)] == []


def test_tuple_leads_say_their_steps_key() -> None:
    """To an engine that takes leads, each tuple is a lead whose rating (on either view) and
    pattern size are its step's: the engine ranks it without building it."""
    from explainer.engine.orders import Rater, pattern_size
    from explainer.model.technique import Context, Lead
    from techniques import select
    from tests.core.states import random_state

    raters = [Rater(select(None), view) for view in ("se-equivalent", "pattern")]
    sizes = set()
    for n, seed in [(9, s) for s in range(10)] + [(16, 1), (25, 2)]:
        state = random_state(n, seed, keep=0.3)
        for find in (find_naked, find_hidden):
            leads = list(find(state, Context(leads=True)))
            steps = list(find(state))
            assert [lead.build() for lead in leads] == steps
            for lead, step in zip(leads, steps, strict=True):
                assert isinstance(lead, Lead) and lead.size == pattern_size(step)
                assert lead.place == 0 and lead.eliminate == len(step.eliminate)
                assert all(lead.least == rater.rate(step) for rater in raters)
                sizes.add((find, lead.size[0]))
    assert len(sizes) == 6  # pairs, triples and quads of both kinds
