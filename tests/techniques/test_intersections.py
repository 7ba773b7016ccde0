from techniques.intersections import find
from tests.helpers import marks

POINTING = {"r2c1": "234", "r2c2": "234"}  # 4×4: box 1 holds its 1 in row 1 only


def test_pointing_removes_from_the_line():
    step = next(find(marks(POINTING, n=4)))
    assert step.technique == "locked candidate"
    assert step.eliminate == ((0, 2, 1), (0, 3, 1))
    assert step.houses == (("box", 0), ("row", 0))
    assert step.marked == ((0, 0, 1), (0, 1, 1))
    assert step.text == ("Locked candidate: in box 1, 1 can only go in row 1, so 1 is removed "
                         "from r1c3 and r1c4.")


def test_claiming_removes_from_the_box():
    # in column 1, 1 can only go in box 1 (r1c1, r2c1): it leaves r1c2 and r2c2
    state = marks({"r3c1": "234", "r4c1": "234"}, n=4)
    steps = list(find(state))
    claim = [s for s in steps if s.houses == (("col", 0), ("box", 0))]
    assert claim and claim[0].eliminate == ((0, 1, 1), (1, 1, 1))
    assert claim[0].marked == ((0, 0, 1), (1, 0, 1))


def test_nothing_locked_on_an_open_grid():
    state = marks({}, n=4)
    assert list(find(state)) == []


def test_locked_but_nothing_to_remove():
    # 1 confined to row 1 in box 1, but row 1 has no other 1 left: no step
    state = marks({"r1c3": "234", "r1c4": "234", "r2c1": "234", "r2c2": "234"}, n=4)
    assert all(s.houses[0] != ("box", 0) or s.marked[0][2] != 1 for s in find(state))


def test_locked_step_is_the_step_find_gives():
    """``locked_step`` (a dynamic forcing branch's step fact) makes the very step ``find``
    gives for its value and houses, and None for houses that lock nothing."""
    from explainer.model.explanation import house_keys
    from explainer.model.technique import built
    from techniques.intersections import locked_step
    from tests.techniques.test_forcing import sample

    p = sample()[0]
    seen = 0
    for i in range(0, len(p.steps), 5):
        state = p.state_before(i)
        geo = state.geo
        keys = {h: house_keys(geo, [h])[0] for h in range(3 * geo.n)}
        for step in built(find(state)):
            v = step.eliminate[0][2]
            r1, r2 = (next(h for h, k in keys.items() if k == tuple(key)) for key in step.houses)
            assert locked_step(state, v, r1, r2) == step
            seen += 1
    assert seen > 10
    assert locked_step(p.state_before(0), 1, 0, 1) is None  # two rows never lock a value
