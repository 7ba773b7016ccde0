"""ALS XY wing, ALS chain and death blossom: exact steps, near misses, purity."""
from __future__ import annotations

from explainer.model.grid import geometry
from techniques import alschains
from techniques.alschains import find_als_chain, find_als_xy_wing, find_death_blossom, set_name
from tests.helpers import assert_pure, elims, marks, only_step, rc

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
    # one cell loses 3: the French agrees with it
    assert dict(s.translations)["fr"].startswith("Aile XY d'EPV : l'ensemble L5C5 (seulement 1 et 2)")
    assert dict(s.translations)["fr"].endswith("donc L1C1 (qui voit tous les 3 des deux) ne peut pas valoir 3.")


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
    s = only_step(find_death_blossom, marks(BLOSSOM), "death blossom")
    assert set(s.eliminate) == elims(4, "r5c4", "r5c6")
    assert s.cells == (rc("r5c5"),)
    assert set(s.cells_alt) == {rc("r5c1"), rc("r5c9"), rc("r4c5")}
    assert set(s.marked) == {(4, 0, 1), (4, 8, 2), (3, 4, 3)}
    assert set(s.marked_alt) == elims(4, "r5c1", "r5c9", "r4c5")
    assert s.text.startswith("Death blossom: the stem r5c5 holds only 1, 2 and 3. For 1, the petal r5c1 (only 1 "
                             "and 4) has all its 1s seeing the stem; for 2")
    assert dict(s.translations)["fr"].startswith("Fleur mortelle : la tige L5C5")
    assert dict(s.translations)["fr"].endswith("(qui voient tous les 4 des pétales) ne peuvent pas valoir 4.")


def test_death_blossom_near_misses():
    # the petal for 3 no longer sees the stem
    assert list(find_death_blossom(marks({**BLOSSOM, "r4c5": "123456789", "r1c1": "34"}))) == []
    # the stem holds z
    assert list(find_death_blossom(marks({**BLOSSOM, "r5c5": "1234"}))) == []


# A1 = r1c1 {1,2}; A2 = r1c4 {2,5} (restricted common 2, row 1); A3 = r2c5, r7c5 {3,4,5} (5: its
# only 5, r2c5, sees r1c4 in box 2); A4 = r8c2, r8c4 {1,4,6} (4: r8c4 sees r7c5 in box 8); z = 1.
# If r1c1 is not 1 it is 2, r1c4 is 5, A3 has no 5 and holds 4 (r7c5), A4 has no 4 and holds 1:
# 1 is in r1c1 or r8c2, and leaves every cell seeing both.
CHAIN = {"r1c1": "12", "r1c4": "25", "r2c5": "35", "r7c5": "34", "r8c4": "46", "r8c2": "16"}


def test_als_chain():
    s = only_step(find_als_chain, marks(CHAIN), "als chain")
    assert set(s.eliminate) == elims(1, "r1c2", "r2c2", "r3c2", "r7c1", "r8c1", "r9c1")
    # the sets alternate between the two cell roles: A1 and A3, then A2 and A4
    assert set(s.cells) == {rc("r1c1"), rc("r2c5"), rc("r7c5")}
    assert set(s.cells_alt) == {rc("r1c4"), rc("r8c2"), rc("r8c4")}
    # each restricted common in both of its sets, and z in the two ends
    assert set(s.marked) == elims(2, "r1c1", "r1c4") | elims(5, "r1c4", "r2c5") | elims(4, "r7c5", "r8c4")
    assert set(s.marked_alt) == elims(1, "r1c1", "r8c2")
    assert s.get("sizes") == (1, 1, 2, 2) and s.get("restricted") == (2, 5, 4) and s.get("value") == 1
    assert s.text.startswith("ALS chain: r1c1 (only 1 and 2), linked by 2 to r1c4 (only 2 and 5), linked by 5 "
                             "to r27c5 (only 3, 4 and 5), linked by 4 to r8c24 (only 1, 4 and 6).")
    assert "then r1c4 would lose 2 and hold 5, r27c5 would lose 5 and hold 4 and r8c24 would lose 4 and hold 1" \
        in s.text
    assert dict(s.translations)["fr"].startswith("Chaîne d'EPV : L1C1 (seulement 1 et 2), relié par 2 à L1C4")


def test_als_chain_needs_two_different_values_in_a_row():
    # four cells r1c1 {1,2} -2- r1c5 {2,5} -5- r5c5 {5,7} -7- r5c3 {1,7}: 1 leaves the cells seeing
    # r1c1 and r5c3 (boxes 1 and 4 meet columns 3 and 1)
    xy = {"r1c1": "12", "r1c5": "25", "r5c5": "57", "r5c3": "17"}
    (s,) = find_als_chain(marks(xy))
    assert set(s.eliminate) == elims(1, "r1c3", "r2c3", "r3c3", "r4c1", "r5c1", "r6c1")
    assert s.get("restricted") == (2, 5, 7)
    # r5c3 {1,5}: r5c5 would be linked by 5 on both sides; losing 5 to r1c5 it holds 7, which
    # says nothing of r5c3, so nothing follows
    assert list(find_als_chain(marks({**xy, "r5c3": "15"}))) == []


def test_als_chain_ends_must_share_z_outside_the_links():
    # r5c3 {2,7}: the ends share only 2, the first link's value: no chain removes anything
    assert list(find_als_chain(marks({"r1c1": "12", "r1c5": "25", "r5c5": "57", "r5c3": "27"}))) == []


def test_als_chain_search_is_bounded(monkeypatch):
    # a call visits at most MAX_NODES nodes (dense graphs of big grids), then stops
    monkeypatch.setattr(alschains, "MAX_NODES", 0)
    assert list(find_als_chain(marks(CHAIN))) == []
    monkeypatch.setattr(alschains, "MAX_NODES", 2)
    assert len(list(find_als_chain(marks(CHAIN)))) == 1


def test_set_names_are_short():
    geo = geometry(9)

    def mask(*names: str) -> int:
        return sum(1 << (rc(x)[0] * 9 + rc(x)[1]) for x in names)

    assert set_name(geo, mask("r2c5", "r7c5")) == "r27c5"
    assert set_name(geo, mask("r8c2", "r8c4")) == "r8c24"
    assert set_name(geo, mask("r1c1", "r3c1", "r3c2")) in ("r1c1+r3c12", "r13c1+r3c2")
    assert set_name(geometry(16), mask("r1c1")) == "r1c1"


def test_finders_are_pure():
    for finder, cells in ((find_als_xy_wing, CELLS), (find_death_blossom, BLOSSOM), (find_als_chain, CHAIN)):
        assert_pure(finder, marks(cells))


def test_leads_are_their_steps_at_their_rating() -> None:
    """On SE's view (a ranked order's context) the ALS XY wing, chain and death blossom come as
    leads: built, each is the step the finder yields otherwise, and its least rating is the
    step's own (SE's multiple forcing chain through the sets' cells)."""
    from itertools import islice

    from explainer.engine.orders import Rater
    from explainer.model.technique import Bound, Context, Lead
    from techniques import select
    from tests.core.states import random_state

    rater = Rater(select(None))
    seen = {}
    for find in (find_als_xy_wing, find_als_chain, find_death_blossom):
        for seed in range(4):
            state = random_state(9, seed, placed=0.4 + 0.05 * (seed % 4), keep=0.15 + 0.05 * (seed % 4))
            leads = list(islice(find(state, Context(bound=Bound(), leads=True)), 8))
            steps = list(islice(find(state), 8))
            assert len(leads) == len(steps)
            for lead, step in zip(leads, steps, strict=True):
                assert isinstance(lead, Lead) and lead.build() == step
                assert (lead.technique, lead.place, lead.eliminate) == (step.technique, 0, len(step.eliminate))
                assert rater.rate(step) == lead.least
                seen[find] = seen.get(find, 0) + 1
            # on another view (the pattern view of a ranked order) the steps come built
            assert list(islice(find(state, Context(bound=Bound(view="pattern"), leads=True)), 8)) == steps
    assert len(seen) == 3 and min(seen.values()) >= 3, seen
