"""ALS XY wing and death blossom: exact steps, near misses, purity."""
from __future__ import annotations

from techniques.alschains import find_als_xy_wing, find_death_blossom
from tests.helpers import assert_pure, elims, marks, rc

# C = r5c5 {1,2}; A = r5c1 {1,3} (restricted common 1, row 5); B = {r1c5, r1c6} {2,3,4}
# (restricted common 2: its only 2, r1c5, sees r5c5); z = 3, common to A and B.
CELLS = {"r5c5": "12", "r5c1": "13", "r1c5": "234", "r1c6": "34"}


def test_als_xy_wing():
    steps = list(find_als_xy_wing(marks(CELLS)))
    assert steps
    s = steps[0]
    assert s.technique == "als xy wing"
    assert s.cells == (rc("r5c5"),)
    assert set(s.cells_alt) == {rc("r5c1"), rc("r1c5"), rc("r1c6")}
    # 3 leaves the cells seeing r5c1, r1c5 and r1c6: r1c1 (column 1, row 1)
    assert set(s.eliminate) == elims(3, "r1c1")
    assert set(s.marked) == elims(1, "r5c5") | elims(2, "r5c5")
    assert set(s.marked_alt) == elims(3, "r5c1", "r1c5", "r1c6")
    assert s.get("restricted") in ((1, 2), (2, 1)) and s.get("value") == 3
    assert s.text.startswith("ALS XY wing: the set r5c5 (holding only 1 and 2) shares the restricted value")
    assert "fr" in dict(s.translations)


def test_als_xy_wing_near_misses():
    # the middle cell's 2 no longer sees every 2 of B (B's 2 moved to r1c6, other box and column)
    moved = {"r5c5": "12", "r5c1": "13", "r1c6": "234", "r2c5": "34"}
    assert not [s for s in find_als_xy_wing(marks(moved)) if set(s.eliminate) & elims(3, "r1c1", "r2c1")
                and rc("r5c5") in s.cells]
    # no common z: B holds 4 and 2 only
    assert list(find_als_xy_wing(marks({"r5c5": "12", "r5c1": "13", "r1c5": "24"}))) == []

# stem r5c5 {1,2,3}; petals r5c1 {1,4} (for 1), r5c9 {2,4} (for 2), r4c5 {3,4} (for 3); z = 4
BLOSSOM = {"r5c5": "123", "r5c1": "14", "r5c9": "24", "r4c5": "34"}


def test_death_blossom():
    steps = list(find_death_blossom(marks(BLOSSOM)))
    assert len(steps) == 1
    s = steps[0]
    assert s.technique == "death blossom"
    assert set(s.eliminate) == elims(4, "r5c4", "r5c6")
    assert s.cells == (rc("r5c5"),)
    assert set(s.cells_alt) == {rc("r5c1"), rc("r5c9"), rc("r4c5")}
    assert set(s.marked) == {(4, 0, 1), (4, 8, 2), (3, 4, 3)}
    assert set(s.marked_alt) == elims(4, "r5c1", "r5c9", "r4c5")
    assert s.text.startswith("Death blossom: the stem r5c5 holds only 1, 2 and 3. For 1, the petal r5c1 (only 1 "
                             "and 4) has all its 1s seeing the stem; for 2")
    assert dict(s.translations)["fr"].startswith("Death blossom : la tige r5c5")


def test_death_blossom_near_misses():
    # the petal for 3 no longer sees the stem
    assert list(find_death_blossom(marks({**BLOSSOM, "r4c5": "123456789", "r1c1": "34"}))) == []
    # the stem holds z
    assert list(find_death_blossom(marks({**BLOSSOM, "r5c5": "1234"}))) == []


def test_finders_are_pure():
    for finder, cells in ((find_als_xy_wing, CELLS), (find_death_blossom, BLOSSOM)):
        assert_pure(finder, marks(cells))
