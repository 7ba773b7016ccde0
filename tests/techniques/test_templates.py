"""Templates: every placement of all of one value, reduced against the other values'."""
from __future__ import annotations

from explainer.model.grid import geometry
from explainer.model.technique import Context
from techniques import templates

from ..helpers import marks
from .chain_positions import position, state


def test_template_delete_and_set_are_the_hand_worked_ones() -> None:
    for comment, name in (("template delete", "template delete"), ("template set", "template set")):
        e = position(comment)
        steps = [s for s in templates.find(state(comment), Context()) if s.technique == name]
        assert len(steps) == 1
        assert set(steps[0].eliminate) == set(e.eliminations) and set(steps[0].place) == set(e.placements)
        assert dict(steps[0].detail)["templates"] == {"template delete": 8, "template set": 4}[name]
    assert not list(templates.find(state("no template step"), Context()))


def test_count_band_by_band() -> None:
    st = state("no template step")
    allowed = st.pos[8]
    total, some, every = templates.count(geometry(9), allowed)
    assert total == 8 and some == allowed and every == 0
    assert len(templates.listed(geometry(9), allowed)) == 8


def test_a_template_overlapping_every_template_of_another_value_goes() -> None:
    # 2 can only be on one template T; 1's templates are the 8 of the near miss, and those using a
    # cell of T go: 1 keeps the other way in each band, placed; the cells of T lose their 1
    t2 = ["r1c1", "r2c4", "r3c7", "r4c2", "r5c5", "r6c8", "r7c3", "r8c6", "r9c9"]
    one = {1: "x..x.....", 2: "...x..x..", 3: "x.....x..", 4: ".x..x....", 5: "....x..x.", 6: ".x.....x.",
           7: "..x..x...", 8: ".....x..x", 9: "..x.....x"}
    cells = {}
    for r, row in one.items():
        for c, ch in enumerate(row):
            name = f"r{r}c{c + 1}"
            cells[name] = ("1" if ch == "x" else "") + ("2" if name in t2 else "") + "3456789"
    st = marks(cells)
    steps = list(templates.find(st, Context()))
    ones = {(r, c) for s in steps if s.technique == "template delete" for r, c, v in s.eliminate if v == 1}
    assert ones == {(int(x[1]) - 1, int(x[3]) - 1) for x in t2}
    placed = {(r, c) for s in steps if s.technique == "template set" for r, c, v in s.place if v == 1}
    assert placed == {(0, 3), (1, 6), (2, 0), (3, 4), (4, 7), (5, 1), (6, 5), (7, 8), (8, 2)}


def test_big_grids_are_not_searched() -> None:
    assert not list(templates.find(marks({}, n=16), Context()))
