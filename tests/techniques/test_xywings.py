"""xy wing, xyz wing, wxyz wing: exact steps, near misses, purity."""
from __future__ import annotations

from techniques.xywings import find_wxyz_wing, find_xy_wing, find_xyz_wing
from tests.helpers import assert_pure, elims, marks, only_step, rc

# Pivot r1c1 {1,2} sees r1c6 {1,3} by row and r6c1 {2,3} by column: no box-line band, not a y wing.
XY = {"r1c1": "12", "r1c6": "13", "r6c1": "23"}
# Pivot r5c5 {1,2,3}, pincers r5c1 {1,3} (row 5) and r4c6 {2,3} (box 5): 3 leaves r5c4 and r5c6.
XYZ = {"r5c5": "123", "r5c1": "13", "r4c6": "23"}
# r1c1 {1,2,3,4} pivot; r1c5 {1,4}, r2c2 {2,4}, r3c3 {3,4}: 1, 2, 3 restricted, 4 is z.
WXYZ = {"r1c1": "1234", "r1c5": "14", "r2c2": "24", "r3c3": "34"}


def test_xy_wing_any_geometry():
    s = only_step(find_xy_wing, marks(XY), "xy wing")
    assert set(s.eliminate) == elims(3, "r6c6")
    assert s.cells == (rc("r1c1"),)
    assert set(s.cells_alt) == {rc("r1c6"), rc("r6c1")}
    assert set(s.marked) == elims(3, "r1c6", "r6c1")
    assert s.get("value") == 3
    assert s.text.startswith("XY wing on 3: the pivot r1c1 holds only 1 and 2; the pincers r1c6 (only 1 and 3) "
                             "and r6c1 (only 2 and 3) both see it.")
    assert s.text.endswith("3 is removed from r6c6, which sees both pincers.")
    assert dict(s.translations)["fr"].startswith("Aile XY sur le 3 : le pivot L1C1")


def test_xy_wing_box_pincer():
    # pincer r2c2 in the pivot's box: 3 leaves the cells seeing r1c6 (row 1, box 2) and r2c2 (row 2, box 1)
    steps = list(find_xy_wing(marks({"r1c1": "12", "r1c6": "13", "r2c2": "23"})))
    assert len(steps) == 1
    assert set(steps[0].eliminate) == elims(3, "r1c2", "r1c3", "r2c4", "r2c5", "r2c6")


def test_xy_wing_near_misses():
    assert list(find_xy_wing(marks({**XY, "r6c1": "24"}))) == []  # pincers end on different values
    assert list(find_xy_wing(marks({**XY, "r6c1": "236"}))) == []  # a pincer is not bivalue
    # nothing to remove: no 3 left where the pincers' sight lines cross
    assert list(find_xy_wing(marks({**XY, "r6c6": "12456789"}))) == []
    # the pincer does not see the pivot
    assert list(find_xy_wing(marks({"r1c1": "12", "r1c6": "13", "r6c2": "23"}))) == []


def test_xyz_wing():
    s = only_step(find_xyz_wing, marks(XYZ), "xyz wing")
    assert set(s.eliminate) == elims(3, "r5c4", "r5c6")
    assert s.cells == (rc("r5c5"),)
    assert set(s.cells_alt) == {rc("r5c1"), rc("r4c6")}
    assert set(s.marked) == elims(3, "r5c5", "r5c1", "r4c6")
    assert s.text.startswith("XYZ wing on 3: the pivot r5c5 holds only 1, 2 and 3")


def test_xyz_wing_near_misses():
    assert list(find_xyz_wing(marks({**XYZ, "r5c5": "1234"}))) == []  # pivot with four values
    assert list(find_xyz_wing(marks({**XYZ, "r4c6": "24"}))) == []  # pincer value outside the pivot
    assert list(find_xyz_wing(marks({**XYZ, "r4c6": "13"}))) == []  # same pincers


def test_wxyz_wing():
    s = only_step(find_wxyz_wing, marks(WXYZ), "wxyz wing")
    # cells seeing r1c1, r1c5, r2c2 and r3c3: r1c2, r1c3 (row 1 and box 1)
    assert set(s.eliminate) == elims(4, "r1c2", "r1c3")
    assert s.cells == (rc("r1c1"),)
    assert set(s.cells_alt) == {rc("r1c5"), rc("r2c2"), rc("r3c3")}
    assert set(s.marked) == elims(4, "r1c1", "r1c5", "r2c2", "r3c3")
    assert s.text.startswith("WXYZ wing on 4: the pivot r1c1 and the pincers r1c5, r2c2 and r3c3 hold only "
                             "1, 2, 3 and 4")
    # a bivalue cell (r1c5) and three cells seeing each other (box 1): Sukaku Explainer's WXYZ-wing
    assert s.get("sizes") == (1, 3) and s.get("biggest") == 4


def test_wxyz_wing_links_every_restricted_value():
    """Issue 34 (se_rated line 620, step 27): the link on 8 between two pincers was not drawn;
    every value but z joins the cells holding it (they see each other)."""
    steps = list(find_wxyz_wing(marks({"r8c5": "123", "r6c5": "12", "r7c3": "18", "r8c2": "38"})))
    assert [str(r) for r in steps[0].roles] == [
        "pivot r8c5", "pincer r6c5 r7c3 r8c2", "z 1r6c5 1r7c3 1r8c5", "link 2r8c5-2r6c5", "link 3r8c5-3r8c2",
        "link 8r7c3-8r8c2", "removed 1r7c5"]


def test_wxyz_wing_near_misses():
    # 1 no longer restricted (r1c5 moved out of the pivot's sight): two free values
    assert list(find_wxyz_wing(marks({**{k: v for k, v in WXYZ.items() if k != "r1c5"}, "r5c5": "14"}))) == []
    # five values
    assert list(find_wxyz_wing(marks({**WXYZ, "r3c3": "35"}))) == []


def test_finders_are_pure():
    for finder, cells in ((find_xy_wing, XY), (find_xyz_wing, XYZ), (find_wxyz_wing, WXYZ)):
        assert_pure(finder, marks(cells))
