"""Unique rectangle (types 1-6, hidden) and bug+1: exact steps, near misses, switching off."""
from __future__ import annotations

import pytest

from techniques import select
from techniques.uniqueness import find_bug_plus_one, find_unique_rectangle
from tests.helpers import assert_pure, elims, marks, rc

NO_1 = "23456789"
ROW_2_NO_1 = {f"r2c{c}": NO_1 for c in (2, 3, 5, 6, 7, 8, 9)}
TYPE_1 = {"r1c1": "12", "r1c4": "12", "r2c1": "12", "r2c4": "1234"}
TYPE_2 = {"r1c1": "12", "r1c4": "12", "r2c1": "123", "r2c4": "123"}
TYPE_3 = {"r1c1": "12", "r1c4": "12", "r2c1": "123", "r2c4": "124", "r2c7": "34"}
TYPE_4 = {"r1c1": "12", "r1c4": "12", "r2c1": "1256", "r2c4": "1278", **ROW_2_NO_1}
TYPE_5 = {"r1c1": "12", "r2c4": "12", "r1c4": "123", "r2c1": "123"}
TYPE_6 = {"r1c1": "12", "r2c4": "12", "r1c4": "1235", "r2c1": "1246", **ROW_2_NO_1,
          **{f"r1c{c}": NO_1 for c in (2, 3, 5, 6, 7, 8, 9)}}
HIDDEN = {"r1c1": "12", "r1c4": "123", "r2c1": "124", "r2c4": "1256", **ROW_2_NO_1,
          **{f"r{r}c4": NO_1 for r in range(3, 10)}}


def only(cells):
    steps = list(find_unique_rectangle(marks(cells)))
    assert len(steps) == 1, [(s.get("type"), s.eliminate) for s in steps]
    return steps[0]


def test_type_1():
    s = only(TYPE_1)
    assert s.technique == "unique rectangle" and s.get("type") == 1
    assert set(s.eliminate) == elims(1, "r2c4") | elims(2, "r2c4")
    assert set(s.cells) == {rc("r1c1"), rc("r1c4"), rc("r2c1")} and s.cells_alt == (rc("r2c4"),)
    assert set(s.marked_alt) == elims(3, "r2c4") | elims(4, "r2c4")
    assert s.text.startswith("Unique rectangle type 1 on 1 and 2: r1c1, r1c4 and r2c1 hold only 1 and 2")
    assert "single solution" in s.text and "une seule solution" in dict(s.translations)["fr"]


def test_type_2():
    s = only(TYPE_2)
    assert s.get("type") == 2
    assert set(s.eliminate) == elims(3, *(f"r2c{c}" for c in (2, 3, 5, 6, 7, 8, 9)))
    assert set(s.cells_alt) == {rc("r2c1"), rc("r2c4")}


def test_type_3():
    s = only(TYPE_3)
    assert s.get("type") == 3
    rest = [f"r2c{c}" for c in (2, 3, 5, 6, 8, 9)]
    assert set(s.eliminate) == elims(3, *rest) | elims(4, *rest)
    assert s.houses == (("row", 1),)
    assert "r2c7" in s.text


def test_type_4():
    s = only(TYPE_4)
    assert s.get("type") == 4
    assert set(s.eliminate) == elims(2, "r2c1", "r2c4")
    assert set(s.marked_alt) == elims(1, "r2c1", "r2c4")
    assert s.houses == (("row", 1),)


def test_type_5():
    s = only(TYPE_5)
    assert s.get("type") == 5
    assert set(s.eliminate) == elims(3, "r1c2", "r1c3", "r2c5", "r2c6")


def test_type_6():
    s = only(TYPE_6)
    assert s.get("type") == 6
    assert set(s.eliminate) == elims(1, "r1c4", "r2c1")
    assert set(s.cells) == {rc("r1c1"), rc("r2c4")}
    assert s.houses == (("row", 0), ("row", 1))


def test_hidden():
    s = only(HIDDEN)
    assert s.get("type") == "hidden"
    assert s.eliminate == ((1, 3, 2),)
    assert s.text.startswith("Hidden unique rectangle on 1 and 2: r1c1 holds only 1 and 2")


def test_near_misses():
    # four boxes: r1c1, r1c4, r4c1, r4c4
    assert list(find_unique_rectangle(marks({"r1c1": "12", "r1c4": "12", "r4c1": "12", "r4c4": "1234"}))) == []
    # three floor cells but the fourth holds neither 1 nor 2: nothing to avoid
    assert list(find_unique_rectangle(marks({**TYPE_1, "r2c4": "34"}))) == []
    # type 2 with different extras and nothing to complete a naked set: nothing
    assert list(find_unique_rectangle(marks({**TYPE_2, "r2c4": "124"}))) == []
    # type 4 with a 1 left elsewhere in row 2
    assert [s for s in find_unique_rectangle(marks({**TYPE_4, "r2c9": "123456789"})) if s.get("type") == 4] == []


def test_bug_near_miss_and_switch_off():
    assert list(find_bug_plus_one(marks(TYPE_1))) == []
    names = {t.name for t in select(None, uniqueness=False)}
    assert "unique rectangle" not in names and "bug+1" not in names
    assert {"unique rectangle", "bug+1"} <= {t.name for t in select(None)}


def test_finder_is_pure():
    assert_pure(find_unique_rectangle, marks(TYPE_3))


# ---- issue #25: missing candidates, sets of any size, every orientation ---------------------

def test_type_1_with_a_missing_candidate():
    s = only({**TYPE_1, "r2c4": "134"})  # 2 already gone from the roof
    assert s.get("type") == 1 and s.get("missing") is True
    assert set(s.eliminate) == elims(1, "r2c4")


def test_type_4_needs_the_value_in_the_house():
    s = only({**TYPE_4, "r2c1": "156"})  # the roof r2c1 lost 2: only r2c4 loses it
    assert s.get("type") == 4 and s.get("missing") is True and set(s.eliminate) == elims(2, "r2c4")
    # 1 already placed in row 2 (r2c9): the roof holds no 1, so nothing says one of it is 1
    placed = {**TYPE_4, "r2c1": "256", "r2c4": "278", "r2c9": "1",
              **{f"r2c{c}": NO_1 for c in (2, 3, 5, 6, 7, 8)}}
    assert [s for s in find_unique_rectangle(marks(placed)) if s.get("type") == 4] == []


def test_type_3_with_a_triple_and_in_a_line_and_a_box():
    s = only({**TYPE_3, "r2c7": "35", "r2c8": "45"})
    assert s.get("type") == 3 and s.get("size") == 3
    assert set(s.eliminate) == elims(3, *(f"r2c{c}" for c in (2, 3, 5, 6, 9))) | elims(
        4, *(f"r2c{c}" for c in (2, 3, 5, 6, 9))) | elims(5, *(f"r2c{c}" for c in (2, 3, 5, 6, 9)))
    s = only({"r4c1": "12", "r4c2": "12", "r1c1": "123", "r1c2": "124", "r1c3": "34"})
    row = {f"r1c{c}" for c in range(4, 10)}
    box = {f"r{r}c{c}" for r in (2, 3) for c in (1, 2, 3)}
    assert set(s.eliminate) == elims(3, *row, *box) | elims(4, *row, *box)
    assert set(s.houses) == {("row", 0), ("box", 0)}


def test_hidden_rectangle_from_either_diagonal_floor_corner():
    cells = {"r1c1": "12", "r2c4": "12", "r1c4": "123", "r2c1": "124", **ROW_2_NO_1,
             **{f"r{r}c4": NO_1 for r in range(3, 10)}}
    hidden = [s for s in find_unique_rectangle(marks(cells)) if s.get("type") == "hidden"]
    assert {tuple(s.eliminate) for s in hidden} >= {tuple(sorted(elims(2, "r2c4")))}


def _roles(step):
    return [str(r) for r in step.roles]


def test_types_4_6_and_hidden_link_the_rectangle_value_never_an_extra():
    """Issue 34: these types ringed the rectangle's own value (the one a house holds only on
    the rectangle) as "the extra candidates"; it is a value of the rectangle, and the house's
    strong link on it is drawn."""
    assert _roles(only(TYPE_4)) == [
        "floor r1c1 r1c4", "roof r2c1 r2c4", "house row 2", "value 1r1c1 2r1c1 1r1c4 2r1c4 1r2c1 1r2c4",
        "link 1r2c1=1r2c4", "removed 2r2c1 2r2c4"]
    assert _roles(only(TYPE_6)) == [
        "floor r1c1 r2c4", "roof r1c4 r2c1", "house row 1 row 2", "value 1r1c1 2r1c1 2r1c4 2r2c1 1r2c4 2r2c4",
        "link 1r1c1=1r1c4", "link 1r2c1=1r2c4", "removed 1r1c4 1r2c1"]
    assert _roles(only(HIDDEN)) == [
        "floor r1c1", "roof r1c4 r2c1 r2c4", "house row 2 column 4",
        "value 1r1c1 2r1c1 1r1c4 2r1c4 1r2c1 2r2c1 1r2c4", "link 1r2c1=1r2c4", "link 1r1c4=1r2c4",
        "removed 2r2c4"]


@pytest.mark.parametrize(("cells", "en", "fr"), [
    (TYPE_2,
     "Unique rectangle type 2 on 1 and 2: r1c1 and r1c4 hold only 1 and 2; r2c1 and r2c4 hold only 1, 2 "
     "and 3. Without 3 the rectangle would be deadly (two solutions), so one of r2c1 or r2c4 is 3 and we "
     "remove 3 from r2c2, r2c3, r2c5, r2c6, r2c7, r2c8 and r2c9. This step relies on the puzzle having a "
     "single solution.",
     "Rectangle unique type 2 sur 1 et 2 : L1C1 et L1C4 ne contiennent que 1 et 2 ; L2C1 et L2C4 ne "
     "contiennent que 1, 2 et 3. Sans 3 le rectangle serait mortel (deux solutions), donc l'un de L2C1 ou "
     "L2C4 vaut 3 et on retire 3 de L2C2, L2C3, L2C5, L2C6, L2C7, L2C8 et L2C9. Cette étape suppose que la "
     "grille a une seule solution."),
    (TYPE_5,
     "Unique rectangle type 5 on 1 and 2: r1c1 and r2c4 hold only 1 and 2; r1c4 and r2c1 hold only 1, 2 "
     "and 3. Without 3 the rectangle would be deadly (two solutions), so one of r1c4 or r2c1 is 3 and we "
     "remove 3 from r1c2, r1c3, r2c5 and r2c6, which see all of them. This step relies on the puzzle "
     "having a single solution.",
     "Rectangle unique type 5 sur 1 et 2 : L1C1 et L2C4 ne contiennent que 1 et 2 ; L1C4 et L2C1 ne "
     "contiennent que 1, 2 et 3. Sans 3 le rectangle serait mortel (deux solutions), donc l'un de L1C4 ou "
     "L2C1 vaut 3 et on retire 3 de L1C2, L1C3, L2C5 et L2C6, qui les voient tous. Cette étape suppose que "
     "la grille a une seule solution."),
])
def test_types_2_and_5_say_and_where_both_roof_corners_hold_the_extra(cells, en, fr):
    """Issue 34: "r1c3 or r1c9 only 3, 5 and 8" though both hold them."""
    s = only(cells)
    assert s.text == en
    assert dict(s.translations)["fr"] == fr


def test_type_3_marks_the_naked_set_it_names():
    """Issue 34: the naked set's other cells were named but not marked."""
    s = only(TYPE_3)
    assert "with r2c7 they form a naked set" in s.text
    assert "set#0 r2c7" in _roles(s) and not any(r.role == "pincer" for r in s.roles)


def test_bug_plus_one_marks_the_value_three_times_in_each_house():
    """Issue 34: the value seen three times in each house of the cell was not marked (and the
    frame had no legend)."""
    from tests.techniques.test_bugs import GRAVE

    grave = {**GRAVE, "r1c1": GRAVE["r1c1"] + "3"}  # one cell with a third candidate
    steps = list(find_bug_plus_one(marks(grave)))
    assert len(steps) == 1
    s = steps[0]
    value = next(r for r in s.roles if r.role == "value")
    r1c1 = next(r for r in s.roles if r.role == "placed").candidates[0]
    v = r1c1.value
    # each house of the cell holds v three times: the cell's and two marked ones
    for kind, k in [("row", 0), ("column", 0), ("box", 0)]:
        inside = [c for c in value.candidates if (c.row if kind == "row" else c.col if kind == "column"
                                                  else c.row // 3 * 3 + c.col // 3) == k]
        assert len(inside) == 2 and all(c.value == v for c in inside), (kind, inside)


def test_type_4_says_which_roof_corner_holds_no_b():
    """Issue 41 (se_rated line 620, step 22): the roof r8c6 held no 8, so only r6c6 lost its 8,
    and nothing said why the other corner kept nothing: the caption says it."""
    s = only({**TYPE_4, "r2c4": "178"})
    assert s.get("type") == 4 and [tuple(x) for x in s.eliminate] == [(1, 0, 2)]
    assert "So we remove 2 from r2c1 (r2c4 holds no 2)." in s.text
    assert "Donc on retire 2 de L2C1 (L2C4 n'a pas de 2)." in s.text_in("fr")
    assert "holds no" not in only(TYPE_4).text


def test_virtual_naked_sets_walk_equals_every_combination():
    """``deadly.virtual_naked_sets`` drops a partial group past k + 1 values at once: it must
    give the sets (and their order) of trying every combination of the house's other cells."""
    import random
    from itertools import combinations

    from explainer.model.grid import values_of
    from techniques.deadly import virtual_naked_sets

    rng = random.Random(43)
    state = marks({})  # its candidates replaced by random ones below (only they are read)
    geo = state.geo
    for _ in range(200):
        state.cand[:] = [rng.choice([0, rng.getrandbits(9) & rng.getrandbits(9) or 1]) for _ in range(81)]
        h = rng.randrange(27)
        pattern = rng.sample(geo.houses[h], 2)
        extra = 1 << rng.randrange(9) | 1 << rng.randrange(9)
        max_set = rng.choice([5, 9])
        cand = state.cand
        others = [c for c in geo.houses[h] if cand[c] and c not in pattern]
        pool = [c for c in others if (cand[c] | extra).bit_count() <= max_set]
        want = []
        for k in range(1, min(max_set - 1, len(others) - 1) + 1):
            for group in combinations(pool, k):
                u = extra
                for c in group:
                    u |= cand[c]
                if u.bit_count() == k + 1:
                    removed = [(c, v) for c in others if c not in group for v in values_of(cand[c] & u)]
                    if removed:
                        want.append((group, u, removed))
        assert list(virtual_naked_sets(state, h, pattern, extra, max_set)) == want


def _found(state, session=None):
    from explainer.model.technique import NO_CONTEXT, Context

    ctx = NO_CONTEXT if session is None else Context(session=session)
    return [(s.get("type"), s.eliminate, s.text) for s in find_unique_rectangle(state, ctx)]


def test_rectangles_kept_in_the_session_follow_every_house_they_read(monkeypatch):
    """The pure path keeps a rectangle's leads in the session while its rows, columns and boxes
    stay: a step elsewhere reuses them; a change in its box alone (outside its rows and columns)
    is seen. Check mode compares every reused rectangle with a fresh search (StaleTable)."""
    from explainer.core import ur
    from explainer.model.session import Session

    monkeypatch.setattr(ur, "_C", None)  # the compiled search keeps nothing: it searches afresh

    state = marks({"r4c1": "12", "r4c2": "12", "r1c1": "123", "r1c2": "124", "r1c3": "34"})
    session = Session(state, check=True)
    first = _found(state, session)
    assert first and first == _found(state)
    rect = ((0, 1, 27, 28), 0b11)  # r1c1 r1c2 r4c1 r4c2 on 1 and 2
    kept = session.parts("unique rectangle")[rect][1]
    state.eliminate(8 * 9 + 8, 5)  # r9c9: none of the rectangle's houses
    assert _found(state, session) == first
    assert session.parts("unique rectangle")[rect][1] is kept
    # r2c3 (box 1 only: not the rectangle's rows nor columns) becomes {3, 4}: with r1c3 and the
    # roof's extras it makes other sets in box 1; a key without the boxes would reuse the old steps
    for v in (1, 2, 5, 6, 7, 8, 9):
        state.eliminate(1 * 9 + 2, v)
    again = _found(state, session)
    assert again == _found(state) and again != first
