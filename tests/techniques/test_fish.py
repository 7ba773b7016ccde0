"""Fish and finned fish: exact eliminations, near misses, purity."""
from __future__ import annotations

from techniques.fish import find_finned_fish, find_fish
from tests.helpers import elims, only_step, picture_with, rc, snapshot, value_picture

# Rows 2 and 5 hold their 4s only in columns 1 and 9.
X_WING = """
x x x | x x x | x x x
x . . | . . . | . . x
x x x | x x x | x x x
------+-------+------
x x x | x x x | x x x
x . . | . . . | . . x
x x x | x x x | x x x
------+-------+------
x x x | x x x | x x x
x x x | x x x | x x x
x x x | x x x | x x x
"""

# Rows 2, 5 and 8: 4 only in columns 1, 6 and 9.
SWORDFISH = """
x x x | x x x | x x x
x . . | . . x | . . .
x x x | x x x | x x x
------+-------+------
x x x | x x x | x x x
. . . | . . x | . . x
x x x | x x x | x x x
------+-------+------
x x x | x x x | x x x
x . . | . . . | . . x
x x x | x x x | x x x
"""

# Columns 1, 3, 5 and 7: 6 only in rows 1, 4, 6 and 9 (a jellyfish with columns as base).
JELLYFISH = """
x x x | x x x | x x x
. x . | x . x | . x x
. x . | x . x | . x x
------+-------+------
x x . | x x x | . x x
. x . | x . x | . x x
x x x | x . x | x x x
------+-------+------
. x . | x . x | . x x
. x . | x . x | . x x
. x x | x x x | x x x
"""

# Finned x wing, case 1: rows 2 and 5, columns 1 and 9, fin r5c8 in box 6.
FINNED_1 = picture_with(X_WING, "r5c8")

# Finned swordfish, case 2: outside box 6, rows 2, 4 and 5 put their 7 in columns 1 and 4
# only (two columns for three rows), so a fin (r4c8 or r5c9) is true: row 6 of box 6 loses 7.
FINNED_2 = """
x x x | x x x | x x x
x . . | x . . | . . .
x x x | x x x | x x x
------+-------+------
x . . | . . . | . x .
. . . | x . . | . . x
x x x | x x x | x x x
------+-------+------
x x x | x x x | x x x
x x x | x x x | x x x
x x x | x x x | x x x
"""


def col_cells(col: int, rows: list[int]) -> list[str]:
    return [f"r{r}c{col}" for r in rows]


def test_x_wing_rows():
    state = value_picture(4, X_WING)
    s = only_step(find_fish, state)
    others = [1, 3, 4, 6, 7, 8, 9]
    assert set(s.eliminate) == elims(4, *col_cells(1, others), *col_cells(9, others))
    assert s.technique == "x wing"
    assert set(s.cells) == {rc("r2c1"), rc("r2c9"), rc("r5c1"), rc("r5c9")}
    assert set(s.marked) == {(*x, 4) for x in s.cells}
    assert s.houses == (("row", 1), ("row", 4), ("col", 0), ("col", 8))  # base, then cover lines
    assert s.get("base_lines") == (("row", 1), ("row", 4)) and s.get("cover_lines") == (("col", 0), ("col", 8))
    assert s.get("size") == 2
    assert s.text.startswith("X wing on 4: in rows 2 and 5, 4 can only go in columns 1 and 9, "
                             "so 4 is removed from r1c1")
    assert dict(s.translations)["fr"].startswith("Aile X sur le 4 : dans les lignes 2 et 5")


def test_swordfish_text_and_eliminations():
    state = value_picture(4, SWORDFISH)
    steps = list(find_fish(state))
    assert [s.technique for s in steps] == ["swordfish"]
    s = steps[0]
    others = [1, 3, 4, 6, 7, 9]
    assert set(s.eliminate) == elims(4, *col_cells(1, others), *col_cells(6, others), *col_cells(9, others))
    assert s.text.startswith("Swordfish on 4: in rows 2, 5 and 8, 4 can only go in columns 1, 6 and 9, "
                             "so 4 is removed from r1c1, r1c6, r1c9, r3c1")
    assert s.get("size") == 3 and s.get("base") == "row"


def test_jellyfish_columns_as_base():
    state = value_picture(6, JELLYFISH)
    steps = [s for s in find_fish(state) if s.technique == "jellyfish"]
    assert len(steps) == 1
    s = steps[0]
    assert s.get("base") == "col"
    assert s.houses[:4] == (("col", 0), ("col", 2), ("col", 4), ("col", 6))
    assert s.houses[4:] == (("row", 0), ("row", 3), ("row", 5), ("row", 8))
    # rows 1, 4, 6 and 9 lose 6 outside columns 1, 3, 5, 7
    expected = set()
    for r in (1, 4, 6, 9):
        for c in (2, 4, 6, 8, 9):
            expected |= elims(6, f"r{r}c{c}")
    assert set(s.eliminate) == expected
    # nothing smaller in this picture
    assert [x.technique for x in find_fish(state)] == ["jellyfish"]


def test_fish_cover_with_one_extra_column_does_not_fire():
    assert list(find_fish(value_picture(4, picture_with(SWORDFISH, "r5c8")))) == []
    assert list(find_fish(value_picture(4, picture_with(X_WING, "r2c5")))) == []


def test_finned_x_wing_case_1():
    state = value_picture(4, FINNED_1)
    assert list(find_fish(state)) == []  # the fin spoils the plain x wing
    s = only_step(find_finned_fish, state, "finned x wing")
    assert set(s.eliminate) == elims(4, "r4c9", "r6c9")
    assert s.houses[0] == ("box", 5)
    # r5c9 lies on base row 5 and cover column 9: body, not fin
    assert set(s.marked) == elims(4, "r2c1", "r2c9", "r5c1", "r5c9")
    assert set(s.marked_alt) == elims(4, "r5c8")
    assert set(s.cells) == {rc(x) for x in ("r2c1", "r2c9", "r5c1", "r5c8", "r5c9")}
    assert s.get("case") == 1 and s.get("sashimi") is False
    assert s.houses == (("box", 5), ("row", 1), ("row", 4), ("col", 0), ("col", 8))
    assert s.get("base_lines") == (("row", 1), ("row", 4)) and s.get("cover_lines") == (("col", 0), ("col", 8))
    assert s.get("fin") == ((4, 7, 4),)
    assert "at r5c8 (the fin)" in s.text


def test_sashimi_x_wing():
    # row 5 keeps no 4 on a cover column inside box 6 (r5c9 gone): without the fin r5c8,
    # row 5 would hold a single 4 and be no x wing line
    state = value_picture(4, picture_with(FINNED_1, "r5c9", mark="."))
    steps = list(find_finned_fish(state))
    # the same shape read the other way round: fin r2c9 in box 3, removing 4 from column 8 there
    assert [s.technique for s in steps] == ["sashimi x wing"] * 2
    assert set(steps[0].eliminate) == elims(4, "r1c8", "r3c8")
    s = steps[1]
    assert set(s.eliminate) == elims(4, "r4c9", "r6c9")
    assert set(s.marked) == elims(4, "r2c1", "r2c9", "r5c1")
    assert set(s.marked_alt) == elims(4, "r5c8")
    assert s.get("sashimi") is True
    assert s.text.startswith("Sashimi x wing on 4: in rows 2 and 5, 4 can only go in columns 1 and 9 or in box 6 "
                             "at r5c8 (the fin)")
    assert dict(s.translations)["fr"].startswith("Aile X sashimi sur le 4")


def test_finned_swordfish_case_2():
    state = value_picture(7, FINNED_2)
    assert list(find_fish(state)) == []
    s = only_step(find_finned_fish, state)
    # no cover line meets box 6: every fin line lacks a body 7 there, a sashimi swordfish
    assert s.technique == "sashimi swordfish"
    assert s.get("case") == 2
    assert set(s.eliminate) == elims(7, "r6c7", "r6c8", "r6c9")
    assert set(s.marked_alt) == elims(7, "r4c8", "r5c9")
    assert s.houses == (("box", 5), ("row", 1), ("row", 3), ("row", 4), ("col", 0), ("col", 3))
    assert "one line too few" in s.text


def test_finned_near_miss_fin_in_two_boxes():
    # a second fin outside box 6 (r5c5) leaves three cover columns: no finned x wing
    picture = picture_with(FINNED_1, "r5c5")
    assert [s for s in find_finned_fish(value_picture(4, picture)) if s.technique == "finned x wing"] == []


def test_finders_are_pure():
    for finder, picture, v in ((find_fish, SWORDFISH, 4), (find_finned_fish, FINNED_1, 4),
                               (find_finned_fish, FINNED_2, 7), (find_fish, JELLYFISH, 6)):
        state = value_picture(v, picture)
        before = snapshot(state)
        first = list(finder(state))
        assert first and list(finder(state)) == first
        assert snapshot(state) == before
