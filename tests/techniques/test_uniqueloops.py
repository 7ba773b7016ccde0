"""Unique loops (types 1-4, 6 and 8 cells): exact steps, near misses, rectangles left out."""
from __future__ import annotations

from techniques import select, uniqueloops
from techniques.uniqueloops import find_unique_loop
from tests.helpers import assert_pure, elims, marks, rc

NO_1 = "23456789"
# six cells in band 1: r1c1-r1c4-r2c4-r2c7-r3c7-r3c1 (rows, columns and boxes 1-3 hold two each)
SIX = ("r1c1", "r1c4", "r2c4", "r2c7", "r3c7", "r3c1")
LOOP_6 = {name: "12" for name in SIX}
# eight cells on rows 1, 2, 4, 5, columns 1, 2, 4, 5 and boxes 1, 2, 4, 5
EIGHT = ("r1c1", "r1c4", "r4c4", "r5c5", "r2c5", "r2c2", "r5c2", "r4c1")
LOOP_8 = {name: "12" for name in EIGHT}
ROW_3_NO_1 = {f"r3c{c}": NO_1 for c in (2, 3, 4, 5, 6, 8, 9)}


def only(cells):
    steps = list(find_unique_loop(marks(cells)))
    assert len(steps) == 1, [(s.get("type"), s.get("cells"), s.eliminate) for s in steps]
    return steps[0]


def test_type_1_six_cells():
    s = only({**LOOP_6, "r3c1": "1234"})
    assert s.technique == "unique loop" and s.get("type") == 1 and s.get("length") == 6
    assert set(s.eliminate) == elims(1, "r3c1") | elims(2, "r3c1")
    assert set(s.cells) == {rc(x) for x in SIX[:5]} and s.cells_alt == (rc("r3c1"),)
    assert set(s.marked) == elims(1, *SIX) | elims(2, *SIX)
    assert set(s.marked_alt) == elims(3, "r3c1") | elims(4, "r3c1")
    assert [tuple(c) for c in s.get("cells")] == [rc(x) for x in SIX]  # loop order
    assert not s.weak_links and not s.strong_links  # a deadly pattern, not a chain
    assert s.text.startswith("Unique loop type 1 on 1 and 2: the 6 cells r1c1–r1c4–r2c4–r2c7–r3c7–r3c1 "
                             "form a loop")
    assert "single solution" in s.text
    assert dict(s.translations)["fr"].startswith("Boucle unique type 1 sur 1 et 2")
    assert "une seule solution" in dict(s.translations)["fr"]


def test_type_2_eight_cells():
    # r1c1 and r2c2 (box 1) hold 1, 2 and 3: one of them is 3
    s = only({**LOOP_8, "r1c1": "123", "r2c2": "123"})
    assert s.get("type") == 2 and s.get("length") == 8
    assert set(s.eliminate) == elims(3, "r1c2", "r1c3", "r2c1", "r2c3", "r3c1", "r3c2", "r3c3")
    assert set(s.cells_alt) == {rc("r1c1"), rc("r2c2")}
    assert set(s.marked_alt) == elims(3, "r1c1", "r2c2")
    assert "r1c1 and r2c2 only 1, 2 and 3" in s.text and "one of r1c1 or r2c2 is 3" in s.text


def test_type_3_naked_pair():
    # the extras 3 and 4 of r3c1 / r3c7 with r3c4 = {3, 4}: a naked pair in row 3
    s = only({**LOOP_6, "r3c1": "123", "r3c7": "124", "r3c4": "34"})
    assert s.get("type") == 3 and s.get("size") == 2 and s.houses == (("row", 2),)
    rest = [f"r3c{c}" for c in (2, 3, 5, 6, 8, 9)]
    assert set(s.eliminate) == elims(3, *rest) | elims(4, *rest)
    assert "r3c4" in s.text and "naked set on 3 and 4 in row 3" in s.text
    assert set(s.marked_alt) == elims(3, "r3c1", "r3c4") | elims(4, "r3c7", "r3c4")


def test_type_4_conjugate_pair():
    # in row 3, 1 lives only on the two extra cells: one is 1, neither can be 2
    s = only({**LOOP_6, "r3c1": "1256", "r3c7": "1278", **ROW_3_NO_1})
    assert s.get("type") == 4 and s.houses == (("row", 2),)
    assert set(s.eliminate) == elims(2, "r3c1", "r3c7")
    assert set(s.marked_alt) == elims(1, "r3c1", "r3c7")


def test_near_misses():
    # a rectangle is the unique rectangle finder's
    assert list(find_unique_loop(marks({"r1c1": "12", "r1c4": "12", "r2c1": "12", "r2c4": "123"}))) == []
    # r3c1 moved to r3c5: box 2 holds three cells, box 1 one: no loop
    broken = {**LOOP_6, "r3c1": "3456789", "r3c5": "123"}
    assert list(find_unique_loop(marks(broken))) == []
    # three extra cells with different extras: no type
    assert list(find_unique_loop(marks({**LOOP_6, "r1c1": "123", "r2c7": "124", "r3c1": "125"}))) == []
    # every cell only 1 and 2 (a puzzle with two solutions): nothing to remove
    assert list(find_unique_loop(marks(LOOP_6))) == []
    # type 4 with a 1 left elsewhere in row 3
    missed = {**LOOP_6, "r3c1": "1256", "r3c7": "1278", **ROW_3_NO_1, "r3c9": "123456789"}
    assert [s for s in find_unique_loop(marks(missed)) if s.get("type") == 4] == []


def test_two_colours_per_house():
    # eight cells, two in every row, column and box they touch, but not alternating: r2c5
    # and r4c5 would both be the value of r1c1 (an odd cycle), so swapping fails: no loop
    clash = {name: "12" for name in ("r1c1", "r1c4", "r2c2", "r2c5", "r4c1", "r4c5", "r5c2", "r5c4")}
    assert list(find_unique_loop(marks({**clash, "r1c1": "123"}))) == []


def test_switch_off():
    names = {t.name for t in select(None, uniqueness=False)}
    assert "unique loop" not in names and "bug" not in names
    assert {"unique loop", "bug"} <= {t.name for t in select(None)}


def test_finder_is_pure():
    assert_pure(find_unique_loop, marks({**LOOP_6, "r3c1": "123", "r3c7": "124", "r3c4": "34"}))


def test_search_budget(monkeypatch):
    # the search stops once its budget of cells tried is spent (made-up grids only reach it)
    state = marks({**LOOP_6, "r3c1": "1234"})
    assert list(find_unique_loop(state))
    monkeypatch.setattr(uniqueloops, "BUDGET", 3)
    assert list(find_unique_loop(state)) == []


def test_the_loop_is_drawn_in_loop_order():
    """Issue 34 (se_rated line 620, step 32): only the cells were drawn, not the loop; the
    ``cycle`` role holds its cells in loop order (drawn as a closed band through them)."""
    s = only({**LOOP_6, "r3c1": "1234"})
    loop = next(r for r in s.roles if r.role == "cycle")
    assert [(c.row, c.col) for c in loop.cells] == [rc(x) for x in SIX]
    assert not any(r.role == "link" for r in s.roles)  # a deadly pattern, not a chain


def test_type_3_tints_its_set_and_type_4_links_its_value():
    """Type 3's other cell of the naked set is in a tint of its own (its candidates were
    ringed as "extra candidates"); type 4's value, in its house only on the two extra cells,
    is a strong link between them (it was ringed as an extra candidate too)."""
    three = only({**LOOP_6, "r3c1": "123", "r3c7": "124", "r3c4": "34"})
    roles = {r.role: str(r) for r in three.roles}
    assert roles["set"] == "set#0 r3c4" and roles["extra"] == "extra 3r3c1 4r3c7"
    four = only({**LOOP_6, "r3c1": "1256", "r3c7": "1278", **ROW_3_NO_1})
    roles = {r.role: str(r) for r in four.roles}
    assert roles["link"] == "link 1r3c7=1r3c1" and "extra" not in roles


def test_se_mode_finds_the_loop_rated_as_se_rates_it():
    """Sudoku Explainer's unique loops (``uniqueloops.se_finder``, the ``se`` orders): SE's walk
    finds the registry's loop first, rated as SE rates it (8 cells: 4.5 + 0.2), removing the same
    candidates, in this module's words; rectangles are SE's loops of four cells (this grid's other
    cells hold every value)."""
    cells = {**LOOP_8, "r1c1": "123", "r2c2": "123"}
    registry = only(cells)
    for lk in (False, True):
        found = list(uniqueloops.se_finder(lk)(marks(cells)))
        first = found[0]
        assert first.technique == "unique loop"
        assert first.detail[:3] == (("se_rating", 4.7), ("type", 2), ("length", 8))
        assert first.eliminate == registry.eliminate
        assert first.text.startswith("Unique loop type 2 on 1 and 2: the 8 cells")
    rectangle = list(uniqueloops.se_finder(True)(marks({**LOOP_6, "r3c1": "1234"})))[0]
    assert rectangle.technique == "unique rectangle" and rectangle.detail[:2] == (("se_rating", 4.5), ("type", 1))
    assert rectangle.text.startswith("Unique rectangle type 1 on 1 and 2: the 4 cells")
