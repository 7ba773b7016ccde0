"""BUG types 2, 3 and 4: exact steps on a hand-made grave, near misses, bug+1 left alone.

The grave: a solution grid G (row r, column c: (3r + r // 3 + c) mod 9 + 1) with
every cell empty and holding G's value v and v + 1 (9 and 1): every value then
has two places in every row, column and box. Extra values added to a few cells
make the BUG cells.
"""
from __future__ import annotations

from techniques.bugs import find_bug
from techniques.uniqueness import find_bug_plus_one
from tests.helpers import assert_pure, elims, marks, rc


def g(r: int, c: int) -> int:
    """The solution grid's value at row r, column c (1-based)."""
    return (3 * (r - 1) + (r - 1) // 3 + (c - 1)) % 9 + 1


GRAVE = {f"r{r}c{c}": f"{g(r, c)}{g(r, c) % 9 + 1}" for r in range(1, 10) for c in range(1, 10)}


def where(r: int, v: int) -> str:
    """The cell of row r where G holds v."""
    return next(f"r{r}c{c}" for c in range(1, 10) if g(r, c) == v)


def with_extra(**extra: str) -> dict[str, str]:
    cells = dict(GRAVE)
    for name, values in extra.items():
        cells[name] = "".join(sorted(cells[name] + values))
    return cells


def steps(cells: dict[str, str]):
    return list(find_bug(marks(cells)))


def test_the_grave_is_one():
    assert g(1, 1) == 1 and g(2, 1) == 4 and g(4, 1) == 2
    assert steps(GRAVE) == [] and list(find_bug_plus_one(marks(GRAVE))) == []


def test_type_2():
    # r1c1 = {1, 2, 9}, r1c5 = {5, 6, 9}: one of them is 9, so 9 leaves the rest of row 1
    found = steps(with_extra(r1c1="9", r1c5="9"))
    assert len(found) == 1, found
    s = found[0]
    assert s.technique == "bug" and s.get("type") == 2
    assert set(s.eliminate) == elims(9, where(1, 9), where(1, 8))
    assert set(s.cells) == {rc("r1c1"), rc("r1c5")} and set(s.marked) == elims(9, "r1c1", "r1c5")
    assert s.text.startswith("BUG type 2: every empty cell holds two candidates but r1c1 and r1c5")
    assert "single solution" in s.text and "une seule solution" in dict(s.translations)["fr"]


def test_type_4_and_type_3():
    # r1c1 = {1, 2} + 5 and r1c2 = {2, 3} + 7: 2 lives in row 1 only there
    found = steps(with_extra(r1c1="5", r1c2="7"))
    assert [s.get("type") for s in found][:1] == [4] and {s.get("type") for s in found} == {3, 4}, found
    four = found[0]
    assert set(four.eliminate) == elims(1, "r1c1") | elims(3, "r1c2")
    assert set(four.marked_alt) == elims(2, "r1c1", "r1c2") and four.houses[0] == ("row", 0)
    # one of them is 5 or 7: with {5, 6} and {6, 7} a naked triple on 5, 6, 7 in row 1
    threes = [s for s in found if s.get("type") == 3]
    assert [s.get("size") for s in threes] == sorted(s.get("size") for s in threes)  # easiest first
    row = [s for s in threes if s.houses == (("row", 0),) and s.get("size") == 3]
    assert len(row) == 1, threes
    assert set(row[0].cells_alt) == {rc(where(1, 5)), rc(where(1, 6))}
    assert set(row[0].eliminate) == elims(5, where(1, 4)) | elims(7, where(1, 7))
    assert "naked set on 5, 6 and 7 in row 1" in row[0].text


def test_near_misses():
    # one BUG cell: bug+1's, not this finder's
    assert steps(with_extra(r1c1="9")) == []
    # two BUG cells with different values and no common house: no type
    assert steps(with_extra(r1c1="5", r5c5="7")) == []
    # a value with three places, none of them in a BUG cell: no BUG
    broken = with_extra(r1c1="9", r1c5="9")
    assert steps(broken)
    broken[where(2, 1)] = "13"  # 2 has one place left in row 2, 3 three, all bivalue cells
    assert steps(broken) == []
    # a BUG (r1c1 loses 5 and 9, r1c5 9) that no type uses: two BUG values, the cells
    # share row 1 only, hold no common value there and complete no naked set
    assert steps(with_extra(r1c1="59", r1c5="9")) == []


def test_finder_is_pure():
    assert_pure(find_bug, marks(with_extra(r1c1="5", r1c2="7")))


def test_type_3_tints_its_set_and_type_4_links_its_value():
    """Issue 34: type 3 called the naked set's other cells "pincers" (outlined, legend "the
    pincers"); they are the set's cells, in a tint of their own. Type 4's value, in its house
    only in the two BUG cells, is a strong link between them."""
    found = steps(with_extra(r1c1="5", r1c2="7"))
    four = found[0]
    assert [str(r) for r in four.roles] == [
        "cells r1c1 r1c2", "house row 1", "extra 5r1c1 7r1c2", "value 2r1c1 2r1c2", "link 2r1c1=2r1c2",
        "removed 1r1c1 3r1c2"]
    row = next(s for s in found if s.get("type") == 3 and s.houses == (("row", 0),) and s.get("size") == 3)
    assert f"set#0 {where(1, 5)} {where(1, 6)}" in [str(r) for r in row.roles]
    assert not any(r.role in ("pincer", "value") for r in row.roles)


def test_se_mode_finds_the_same_bug_candidates_and_sukaku_s_one_value_extension():
    """Sudoku Explainer's BUG (``se_finder``) reads the registry's search in its own
    mode: the same BUG candidates, and with Sukaku Explainer's one-value extension the cells that
    no house singles out when every broken house breaks on one value."""
    from techniques.bugs import _bug_candidates, se_bug_candidates

    two = marks(with_extra(r1c1="9", r1c5="9"))
    multi = [c for c, m in enumerate(two.cand) if m.bit_count() > 2]
    assert se_bug_candidates(two, False) == se_bug_candidates(two, True) == _bug_candidates(two, multi)
    assert sorted(se_bug_candidates(two, False) or {}) == [0, 4]
    # four cells of box 1 gain a 9: every row, column and box breaking the rule holds two of them
    square = marks(with_extra(r1c1="9", r1c2="9", r2c1="9", r2c2="9"))
    multi = [c for c, m in enumerate(square.cand) if m.bit_count() > 2]
    assert _bug_candidates(square, multi) is None and se_bug_candidates(square, False) is None
    assert se_bug_candidates(square, True) == {c: 1 << 8 for c in (0, 1, 9, 10)}


def test_se_mode_builds_the_registry_step_with_se_s_rating():
    """SE's BUG (``se_finder``, the ``se`` orders) is built by this module's step: here the
    registry's type 2, with SE's 5.7 recorded first, in both flavours."""
    from techniques.bugs import se_finder

    two = marks(with_extra(r1c1="9", r1c5="9"))
    registry = next(iter(find_bug(two)))
    for lk in (False, True):
        (se,) = se_finder(lk)(two)
        assert se.detail == (("se_rating", 5.7),) + registry.detail
        assert (se.eliminate, se.text, se.roles) == (registry.eliminate, registry.text, registry.roles)
