from explainer.model.grid import parse_grid
from explainer.model.state import State
from techniques.singles import find_single_candidate, find_single_position
from tests.conftest import SEED
from tests.helpers import marks


def first(gen):
    return next(gen, None)


def test_single_position_with_smallest_cover():
    state = State.from_grid(parse_grid(SEED))
    step = first(find_single_position(state))
    assert step.technique == "single position"
    assert step.place == ((0, 5, 1),)
    # row 2, row 3 and column 5 hold a 1 and rule out every other empty cell of box 2
    assert step.houses == (("box", 1), ("row", 1), ("row", 2), ("col", 4))
    # the three 1s, and the filled r1c4 that no covering house passes through
    assert step.cells == ((0, 3), (1, 0), (2, 8), (8, 4))
    assert step.show_candidates is False
    assert step.text == ("Single position: in box 2, 1 can only go in r1c6: the 1s in row 2, row 3 "
                         "and column 5 rule out every other empty cell.")


def test_single_position_from_eliminations_shows_candidates():
    state = marks({"r1c2": "234", "r1c3": "234", "r1c4": "234"}, n=4)
    step = first(find_single_position(state))
    assert step.place == ((0, 0, 1),)
    assert step.show_candidates is True and step.houses == (("row", 0),)


def test_no_single_on_an_open_grid():
    state = marks({}, n=4)
    assert first(find_single_position(state)) is None
    assert first(find_single_candidate(state)) is None


def test_single_candidate_seen_values():
    # r1c3 of this 4x4 sees 1 and 2 in its row and 3 in its column: it must be 4
    state = State.from_grid(parse_grid("12.." "...." "...." "..3."))
    step = first(find_single_candidate(state))
    assert step.place == ((0, 2, 4),)
    assert step.show_candidates is False
    assert step.cells == ((0, 0), (0, 1), (3, 2))
    assert step.houses == (("row", 0), ("col", 2))
    assert "sees every other value" in step.text


def test_finders_are_pure():
    state = State.from_grid(parse_grid(SEED))
    before = (state.values[:], state.cand[:], state.pos[:])
    a = list(find_single_position(state))
    b = list(find_single_position(state))
    assert a == b and len(a) > 1
    assert (state.values, state.cand, state.pos) == before


def test_single_position_leads_say_their_steps_key() -> None:
    """To an engine that takes leads, each single position is a lead whose rating and pattern
    size are its step's (the engine ranks it without building it), in the finder's order."""
    from explainer.engine.orders import Rater, pattern_size
    from explainer.model.technique import Context, Lead
    from techniques import select
    from tests.core.states import random_state

    rater = Rater(select(None))
    kinds = set()
    for n, seed, placed in [(9, s, p) for s in range(12) for p in (0.3, 0.6, 0.85)] + [(4, 1, 0.5), (16, 2, 0.6)]:
        state = random_state(n, seed, placed=placed, keep=0.3)
        leads = list(find_single_position(state, Context(leads=True)))
        steps = list(find_single_position(state))
        assert [lead.build() for lead in leads] == steps
        for lead, step in zip(leads, steps, strict=True):
            assert isinstance(lead, Lead) and lead.size == pattern_size(step)
            assert (lead.least, lead.place, lead.eliminate) == (rater.rate(step), 1, 0)
            kinds.add((lead.least, lead.size[0] > 0))
    assert len(kinds) >= 4  # the last cell, boxes and lines, covered and not
