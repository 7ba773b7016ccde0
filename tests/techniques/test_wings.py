"""y wing / ny wing and w wing: exact eliminations, near misses, purity."""
from __future__ import annotations

from techniques.wings import find_w_wing, find_y_wing
from tests.helpers import elims, marks, only_step, rc, snapshot

# Pivot r1c8 {1,2} in row 1 and box 3; pincers r1c2 {1,3} (row 1, box 1) and r3c9 {2,3} (box 3, row 3).
Y_WING = {"r1c8": "12", "r1c2": "13", "r3c9": "23"}
# |F| = 3: r1c1 {1,4} and r1c2 {4,9} in box 1, pivot r1c8 {1,2}, r3c9 {2,9}: 9 is the wing value.
NY_WING = {"r1c8": "12", "r1c1": "14", "r1c2": "49", "r3c9": "29"}
# r1c1 and r5c9 hold {3,7}; in row 9, 7 only in r9c1 (sees r1c1) and r9c9 (sees r5c9).
W_WING = {"r1c1": "37", "r5c9": "37", **{f"r9c{c}": "12345689" for c in range(2, 9)}}


def test_a_y_wing_that_is_an_xy_wing_is_told_as_one():
    """Issue 41 (seed step 35): three bivalue cells, pivot {1,2}, pincers {1,3} and {2,3}, are a
    textbook XY wing; the step is named and told as one (its two cases), with the y wing's
    removals, not with the y wing's six-line "no two could be equal" count."""
    s = only_step(find_y_wing, marks(Y_WING), "xy wing")
    assert set(s.eliminate) == elims(3, "r1c7", "r1c9", "r3c1", "r3c2", "r3c3")
    assert s.text == (
        "XY wing on 3: the pivot r1c8 holds only 1 and 2; the pincers r1c2 (only 1 and 3) and r3c9 (only 2 and 3) "
        "both see it. If the pivot is 1, r1c2 is 3; if it is 2, r3c9 is 3. So one pincer is 3, and 3 is removed "
        "from r1c7, r1c9, r3c1, r3c2 and r3c3, which see both pincers.")
    assert [str(r) for r in s.roles][:3] == ["pivot r1c8", "pincer r1c2 r3c9", "z 3r1c2 3r3c9"]


def test_y_wing():
    """Told as a y wing when the run leaves the xy wing out."""
    from explainer.model.technique import Context

    state = marks(Y_WING)
    s = only_step(lambda st: find_y_wing(st, Context(off=frozenset({"xy wing"}))), state, "y wing")
    assert set(s.eliminate) == elims(3, "r1c7", "r1c9", "r3c1", "r3c2", "r3c3")
    assert set(s.cells) == {rc("r1c8"), rc("r1c2"), rc("r3c9")}
    assert set(s.houses) == {("row", 0), ("row", 2), ("box", 0), ("box", 2)}
    assert set(s.marked) == elims(3, "r1c2", "r3c9")
    assert s.get("size") == 2
    # issue 34: "3 in r1c7, … and r3c3 would leave these 3 cells …" said "and" for "or", gave no
    # reason why three cells with two values break when the pincers do not see each other,
    # and named four houses where the frame draws two
    assert s.text == (
        "Y wing on 3: r1c2, r1c8 and r3c9 hold only 1, 2 and 3, and the pivot r1c8 has no 3. Without 3, no two "
        "of these 3 cells could be equal: r1c2 and r1c8 see each other in row 1, r1c8 and r3c9 in box 3, and "
        "r1c2 has no value but 3 in common with r3c9. A 3 in r1c7, r1c9, r3c1, r3c2 or r3c3 would see every 3 "
        "of these cells, leaving 3 cells only the 2 values 1 and 2. So 3 is removed from r1c7, r1c9, r3c1, "
        "r3c2 and r3c3.")
    assert dict(s.translations)["fr"] == (
        "Aile Y sur le 3 : L1C2, L1C8 et L3C9 ne contiennent que 1, 2 et 3, et le pivot L1C8 n'a pas de 3. "
        "Sans le 3, ces 3 cases auraient toutes des valeurs différentes : L1C2 et L1C8 se voient dans la "
        "ligne 1, L1C8 et L3C9 dans le bloc 3, et L1C2 n'a aucune valeur en commun avec L3C9 sauf le 3. Un 3 "
        "en L1C7, L1C9, L3C1, L3C2 ou L3C3 verrait chaque 3 de ces cases, ne laissant à 3 cases que les 2 "
        "valeurs 1 et 2. Donc le 3 est retiré de L1C7, L1C9, L3C1, L3C2 et L3C3.")
    # the houses the frame draws are the two the caption names
    assert [str(r) for r in s.roles if r.role == "house"] == ["house row 1 box 3"]


def test_ny_wing():
    state = marks(NY_WING)
    s = only_step(find_y_wing, state, "ny wing")
    assert set(s.eliminate) == elims(9, "r1c7", "r1c9", "r3c1", "r3c2", "r3c3")
    assert set(s.cells) == {rc(x) for x in ("r1c1", "r1c2", "r1c8", "r3c9")}
    assert s.get("size") == 3
    assert ("r1c1, r1c2 and r1c8 see each other in row 1, r1c8 and r3c9 in box 3, and r1c1 and r1c2 have no "
            "value but 9 in common with r3c9. A 9 in r1c7, r1c9, r3c1, r3c2 or r3c3 would see every 9 of these "
            "cells, leaving 4 cells only the 3 values 1, 2 and 4.") in s.text
    # every two cells sharing a value other than 9 are joined on it (they see each other)
    assert [str(r) for r in s.roles if r.role == "link"] == [
        "link 1r1c8-1r1c1", "link 2r1c8-2r3c9", "link 4r1c1-4r1c2"]


def test_y_wing_near_misses():
    # a third value in one pincer: three cells, four values
    assert list(find_y_wing(marks({**Y_WING, "r3c9": "235"}))) == []
    # the pivot holds the wing value
    assert list(find_y_wing(marks({**Y_WING, "r1c8": "123"}))) == []
    # ny wing whose left cells share a value with the right cell other than the wing value
    assert list(find_y_wing(marks({**NY_WING, "r3c9": "49"}))) == []


def test_y_wing_columns():
    # the same pattern transposed: column 1 / box 7 pivot r8c1, pincers r2c1 and r9c3
    state = marks({"r8c1": "12", "r2c1": "13", "r9c3": "23"})
    steps = list(find_y_wing(state))
    assert len(steps) == 1
    assert set(steps[0].eliminate) == elims(3, "r7c1", "r9c1", "r1c3", "r2c3", "r3c3")


def test_w_wing():
    state = marks(W_WING)
    s = only_step(find_w_wing, state, "w wing")
    assert set(s.eliminate) == elims(3, "r1c9", "r5c1")
    assert set(s.cells) == {rc("r1c1"), rc("r5c9")}
    assert s.houses == (("row", 8),)
    assert set(s.marked) == elims(7, "r9c1", "r9c9")
    assert s.text.startswith("W wing: r1c1 and r5c9 both hold only 3 and 7; in row 9, 7 can only go")


def test_w_wing_near_misses():
    # a 7 in row 9 that sees neither cell
    assert list(find_w_wing(marks({**W_WING, "r9c5": "123456789"}))) == []
    # the two cells see each other (same box)
    cells = {"r1c1": "37", "r2c2": "37", **{f"r9c{c}": "12345689" for c in range(3, 10)}}
    assert list(find_w_wing(marks(cells))) == []
    # different pairs of values
    assert list(find_w_wing(marks({**W_WING, "r5c9": "38"}))) == []


def test_finders_are_pure():
    for finder, cells in ((find_y_wing, Y_WING), (find_y_wing, NY_WING), (find_w_wing, W_WING)):
        state = marks(cells)
        before = snapshot(state)
        first = list(finder(state))
        assert first and list(finder(state)) == first
        assert snapshot(state) == before
