"""Sue de Coq and Sue de Coq bis: exact eliminations, near misses, purity."""
from __future__ import annotations

from techniques.suedecoq import find_suedecoq, find_suedecoq_bis
from tests.helpers import marks, only_step, rc, snapshot

# Row 1 meets box 1 in r1c1 {1,2,3} and r1c2 {1,2,4}: F = {1,2,3,4};
# r1c5 {1,2} in row 1 and r2c2 {3,4} in box 1 make four cells for four values.
SDC = {"r1c1": "123", "r1c2": "124", "r1c5": "12", "r2c2": "34"}
# A²LS r1c1, r1c2 {1,2,3,4}; ALS r1c5 {1,5}, r1c6 {2,5} in row 1; ALS r2c2 {3,4} in box 1.
BIS = {"r1c1": "123", "r1c2": "124", "r1c5": "15", "r1c6": "25", "r2c2": "34"}

BOX1 = [(r, c) for r in range(3) for c in range(3)]


def test_suedecoq():
    state = marks(SDC)
    s = only_step(find_suedecoq, state, "suedecoq")
    expected = {(0, c, v) for c in (2, 3, 5, 6, 7, 8) for v in (1, 2)}          # row 1 loses 1, 2
    expected |= {(r, c, v) for r, c in BOX1 if (r, c) not in {(0, 0), (0, 1), (1, 1)} for v in (3, 4)}
    assert set(s.eliminate) == expected
    assert set(s.cells) == {rc(x) for x in SDC}
    assert s.houses == (("row", 0), ("box", 0))
    assert set(s.marked) == {(0, 4, 1), (0, 4, 2)}
    assert set(s.marked_alt) == {(1, 1, 3), (1, 1, 4)}
    assert s.text.startswith("Sue de Coq: r1c1 and r1c2, where row 1 meets box 1, hold only 1, 2, 3 and 4")
    assert "fr" in dict(s.translations)


def test_suedecoq_near_misses():
    # a fifth value in the box cell
    assert list(find_suedecoq(marks({**SDC, "r2c2": "345"}))) == []
    # the line cell and the box cell share a value
    assert list(find_suedecoq(marks({**SDC, "r2c2": "23"}))) == []


def test_suedecoq_bis():
    state = marks(BIS)
    s = only_step(find_suedecoq_bis, state, "suedecoq bis")
    expected = {(0, c, v) for c in (2, 3, 6, 7, 8) for v in (1, 2, 5)}
    expected |= {(r, c, v) for r, c in BOX1 if (r, c) not in {(0, 0), (0, 1), (1, 1)} for v in (3, 4)}
    assert set(s.eliminate) == expected
    assert set(s.cells) == {rc(x) for x in BIS}
    assert s.houses == (("row", 0), ("box", 0))


def test_suedecoq_bis_near_misses():
    # r1c6 {2,6}: r1c5 and r1c6 are no longer an ALS
    assert list(find_suedecoq_bis(marks({**BIS, "r1c6": "26"}))) == []
    # the box ALS shares value 5 with the line ALS
    assert list(find_suedecoq_bis(marks({**BIS, "r2c2": "35"}))) == []


def test_finders_are_pure():
    for finder, cells in ((find_suedecoq, SDC), (find_suedecoq_bis, BIS)):
        state = marks(cells)
        before = snapshot(state)
        first = list(finder(state))
        assert first and list(finder(state)) == first
        assert snapshot(state) == before


def test_suedecoq_with_a_value_outside_f():
    """HoDoKu's extension: E1 = r1c5 {1,5}, r1c6 {2,5} holds 5, outside F, in one more cell:
    five cells for the five values 1-5, so row 1 loses 1, 2 and 5, box 1 loses 3 and 4."""
    s = only_step(find_suedecoq, marks(BIS))
    assert s.get("extras") == (5,) and s.get("size") == 5
    expected = {(0, c, v) for c in (2, 3, 6, 7, 8) for v in (1, 2, 5)}
    expected |= {(r, c, v) for r, c in BOX1 if (r, c) not in {(0, 0), (0, 1), (1, 1)} for v in (3, 4)}
    assert set(s.eliminate) == expected
    assert "each of the 5 values 1, 2, 3, 4 and 5 once" in s.text


def test_suedecoq_with_an_unused_intersection_cell():
    """E12 = r1c1, r1c2 {1,2,3,4}; r1c3 {1,2} (the intersection's third cell) joins the line side."""
    s = next(iter(find_suedecoq(marks({"r1c1": "123", "r1c2": "124", "r1c3": "12", "r2c2": "34"}))))
    assert set(s.cells) == {rc(x) for x in ("r1c1", "r1c2", "r1c3", "r2c2")}
    assert (0, 4, 1) in s.eliminate and (2, 2, 3) in s.eliminate


def test_suedecoq_extension_near_misses():
    # the extra value 5 in only one cell of the line side: two cells short of a set
    assert list(find_suedecoq(marks({**BIS, "r1c6": "26"}))) == []
    # three values outside F on one side: past the search's bound (and no set here)
    assert list(find_suedecoq(marks({**BIS, "r1c5": "1567", "r1c6": "2567"}))) == []


def test_sides_pruned_listing_equals_every_subset_filtered():
    """On big house parts the pure search (``explainer.core.sdc``) lists a side's sets for each F
    and drops a set past ``extras`` outside values as soon as it is made: it must give exactly
    the sets (and their order) of listing every subset once and filtering them."""
    import random

    from explainer.core.sdc import _doubling, _pruned, sides_py
    from techniques.suedecoq import MAX_SIDE

    rng = random.Random(43)
    n = 16
    for _ in range(300):
        x = [rng.choice([0, rng.getrandbits(n) & rng.getrandbits(n) & rng.getrandbits(n) or 1]) for _ in range(14)]
        part = [i for i in range(2, 14) if x[i]]
        spare = [i for i in (0, 1) if x[i] and rng.random() < 0.7]
        f = rng.getrandbits(n) | 1
        most, extras = rng.randint(1, 4), rng.randint(0, 2)
        want = sides_py(_doubling(part, x, MAX_SIDE), spare, x, f, most, extras, MAX_SIDE)
        got = sides_py(_pruned(part, x, f, extras, MAX_SIDE), spare, x, f, most, extras, MAX_SIDE)
        assert got == want and list(got) == list(want)


def test_intersections_kept_in_the_session_follow_their_line_and_box():
    """Each line-box intersection's Sue de Coqs are kept in the session while its line's and its
    box's candidates stay: a change elsewhere reuses them, a change in the box alone (outside
    the line) is seen. Check mode compares every reused intersection with a fresh search."""
    from explainer.model.session import Session
    from explainer.model.technique import NO_CONTEXT, Context
    from techniques.suedecoq import _parts

    def found(state, session=None):
        ctx = NO_CONTEXT if session is None else Context(session=session)
        return [(s.technique, s.eliminate) for s in find_suedecoq(state, ctx)]

    state = marks(SDC)
    session = Session(state, check=True)
    first = found(state, session)
    assert first and first == found(state)
    k = next(i for i, p in enumerate(_parts(9)) if p[:2] == (0, 18))  # row 1 meets box 1
    kept = session.parts("suedecoq")[k][1]
    state.eliminate(8 * 9 + 8, 3)  # r9c9: neither row 1 nor box 1
    assert found(state, session) == first and session.parts("suedecoq")[k][1] is kept
    state.eliminate(2 * 9 + 2, 3)  # r3c3: box 1 only; it no longer loses 3
    again = found(state, session)
    assert again == found(state) and again != first


# E12 = r1c1, r1c2 {1,2,3,4,5}, E1 = r1c5, r1c6 {1,2}, E2 = r2c2 {3,4}: 5 stays in E12, so it
# leaves row 1 and box 1 alike: r1c3 (unused, in both) loses it once, though both houses remove it
TWICE = {"r1c1": "135", "r1c2": "245", "r1c5": "12", "r1c6": "12", "r2c2": "34", "r1c3": "56"}


def test_leads_know_their_whole_choice_key():
    """To an engine that takes leads, each step comes as a lead whose key terms are those of the
    step it builds: its eliminations (a candidate both houses remove counted once) and its
    pattern size (the engine ranks it without building it)."""
    from explainer.engine.orders import pattern_size
    from explainer.model.technique import Context, Lead

    leads = 0
    for finder, cells in ((find_suedecoq, SDC), (find_suedecoq, BIS), (find_suedecoq, TWICE),
                          (find_suedecoq_bis, BIS)):
        for lead in finder(marks(cells), Context(leads=True)):
            assert isinstance(lead, Lead)
            step = lead.build()
            assert (lead.technique, lead.place, lead.least) == (step.technique, 0, 0.0)
            assert lead.eliminate == len(step.eliminate) and lead.size == pattern_size(step)
            leads += 1
    assert leads >= 7
    step = next(iter(find_suedecoq(marks(TWICE))))
    assert (0, 2, 5) in step.eliminate and len(step.eliminate) == 28
