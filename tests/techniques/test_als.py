from explainer.app.hints.pencilmarks import format_pencilmarks
from explainer.model.session import Session
from techniques import als
from tests.techniques.chain_fixtures import open_grid


def cells_of(a):
    return sorted(c for c in range(81) if a.cells >> c & 1)


def test_als_list_finds_each_set_once():
    state = open_grid({"r1c1": "12", "r5c1": "13", "r6c2": "23"})
    sets = als.als_list(state)
    # small ALSs come from the restricted cells (r5c1+r6c2 in box 4, r1c1+r5c1 in column 1);
    # in an open house any 8 cells hold the 9 values, so those are ALSs too
    assert [cells_of(a) for a in sets[:5]] == [[0], [36], [46], [0, 36], [36, 46]]
    assert {a.size for a in sets[5:]} == {8}
    assert len({a.cells for a in sets}) == len(sets)
    for a in sets:
        union = 0
        for c in cells_of(a):
            union |= state.cand[c]
        assert union == a.values and union.bit_count() == a.size + 1
    session = Session(state)
    before = als.als_list(state, session)
    assert als.als_list(state, session) is before  # built once per state
    assert [a.cells for a in before] == [a.cells for a in sets]
    state.eliminate(0, 2)  # r1c1 keeps only 1: no longer an ALS, and the session sees the change
    after = als.als_list(state, session)
    assert after is not before and 1 not in {a.cells for a in after} and 1 in {a.cells for a in before}


def test_als_xz_exact_step():
    state = open_grid({"r1c1": "12", "r5c1": "13", "r6c2": "23"})
    step = next(als.find(state))
    assert step.technique == "als"
    assert step.cells == ((0, 0),) and step.cells_alt == ((4, 0), (5, 1))
    assert step.marked == ((0, 0, 1),) and step.marked_alt == ((4, 0, 1),)
    # 2 is in r1c1 or in r6c2: every 2 seeing both goes
    assert step.eliminate == ((0, 1, 2), (1, 1, 2), (2, 1, 2), (3, 0, 2), (5, 0, 2))
    assert step.get("restricted") == 1 and step.get("sizes") == (1, 2)
    assert "so r1c2, r2c2, r3c2, r4c1 and r6c1 (seeing every 2 of both) cannot be 2" in step.text


def test_no_restricted_common_no_step():
    # the 1s of r1c1 and r5c2 do not see each other: 1 is not restricted
    state = open_grid({"r1c1": "12", "r5c2": "13", "r6c2": "23"})
    assert list(als.find(state)) == []


def test_overlapping_sets_are_not_paired():
    state = open_grid({"r1c1": "12", "r1c2": "123"})
    assert all(not (a.cells & b.cells) for a, b, _ in
               [(als.als_list(state)[i], als.als_list(state)[j], x) for i, j, x in als.restricted_pairs(state)])


def test_pure_and_repeatable():
    state = open_grid({"r1c1": "12", "r5c1": "13", "r6c2": "23"})
    before = format_pencilmarks(state)
    assert list(als.find(state)) == list(als.find(state))
    assert format_pencilmarks(state) == before


def test_als_leads_are_their_steps_at_no_more_than_their_rating() -> None:
    """On SE's view (a ranked order's context) each ALS-XZ step comes as a lead: built, it is
    the step the finder yields otherwise, rated at least the lead's least rating, and exactly
    that but for a bivalue cell and a set of a wing's size (rated by its biggest cell)."""
    from itertools import islice

    from explainer.engine.orders import Rater
    from explainer.model.technique import Bound, Context, Lead
    from techniques import select
    from tests.core.states import random_state

    rater = Rater(select(None))
    seen = exact = 0
    for seed in range(6):
        state = random_state(9, seed, placed=0.4 + 0.05 * (seed % 4), keep=0.15 + 0.05 * (seed % 4))
        leads = list(islice(als.find(state, Context(bound=Bound(), leads=True)), 12))
        steps = list(islice(als.find(state), 12))
        assert len(leads) == len(steps)
        for lead, step in zip(leads, steps, strict=True):
            assert isinstance(lead, Lead) and lead.build() == step
            assert rater.rate(step) >= lead.least > 0 and lead.eliminate == len(step.eliminate)
            sizes = step.get("sizes")
            if not (min(sizes) == 1 and max(sizes) in (3, 4)):  # not rated by a cell the lead does not read
                assert rater.rate(step) == lead.least
                exact += 1
            seen += 1
    assert seen and exact
