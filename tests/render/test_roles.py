"""Roles players know (RENDERING.md wave 2), on real steps, in every palette."""
import pytest

from explainer.api import Puzzle
from render.roles import chain_tones
from render.scene import scene
from render.theme import PALETTES
from tests.conftest import SEED, top1465


@pytest.fixture(scope="module")
def seed():
    return Puzzle(SEED, order="seed")


def _scene(p, k):
    st = p.steps[k]
    return st, scene(st.before, st, number=k + 1, givens=p.grid.values)


def test_chain_nodes_alternate_on_and_off(seed):
    for k in seed.steps_using("chain"):
        st, sc = _scene(seed, k)
        tone = {(s.row, s.col, s.value): s.tone for s in sc.of("marked", "disk")}
        for a, b in st.strong_links + st.weak_links:
            if tuple(a) in tone and tuple(b) in tone:
                assert {tone[tuple(a)], tone[tuple(b)]} == {"on", "off"}
        # the chain starts "off" at the first node of its first strong link
        assert tone[tuple(st.strong_links[0][0])] == "off"
        assert "on" in sc.text("legend")


def test_empty_rectangle_starts_on_and_draws_its_row_and_column():
    p = Puzzle(top1465(12)[0], order="seed")
    k = p.steps_using("empty rectangle")[0]
    st, sc = _scene(p, k)
    tones = chain_tones(st)
    assert tones[tuple(st.weak_links[0][0])] == "on"  # "if the target were true"
    lines = [s.house for s in sc.of("houses") if s.tone == "line"]
    assert sorted(h[0] for h in lines) == ["col", "row"]


def test_wing_pivot_apart_from_pincers_with_links(seed):
    k = seed.steps_using("y wing")[0]
    st, sc = _scene(seed, k)
    pivots = [s for s in sc.of("cells") if s.tone == "pivot"]
    assert len(pivots) == 1 and len(sc.of("cells")) == 3
    assert len([s for s in sc.of("weak_link") if s.tone == "wing"]) == 2


def test_w_wing_link_and_digits(seed):
    k = seed.steps_using("w wing")[0]
    st, sc = _scene(seed, k)
    w = st.get("link")
    ends = {tuple(c) for c in st.cells}
    assert {(s.row, s.col) for s in sc.of("marked") if s.tone == "w" and s.value == w} == ends
    assert [s for s in sc.of("weak_link") if s.tone == "w"]


def test_fish_base_cover_fin(seed):
    k = seed.steps_using("finned x wing")[0]
    st, sc = _scene(seed, k)
    tones = {s.tone for s in sc.of("houses")}
    assert {"base", "cover", "fin"} <= tones
    assert all(s.tone == "fin" for s in sc.of("marked_alt"))


def test_als_tints_rc_and_z():
    p = Puzzle(top1465(1)[0], order="seed")
    k = p.steps_using("als")[0]
    st, sc = _scene(p, k)
    assert all(s.tone == "als_b" for s in sc.of("cells_alt"))
    assert any(s.tone == "z" and s.value == st.get("value") for s in sc.of("marked_alt"))
    assert all(s.tone == "rc" for s in sc.of("marked"))


def test_tuple_values_marked(seed):
    for tech in ("hidden tuple", "naked tuple"):
        k = seed.steps_using(tech)[0]
        st, sc = _scene(seed, k)
        cells = {tuple(c) for c in st.cells}
        marks = [s for s in sc.of("marked") if s.tone == "tuple"]
        assert marks and {(s.row, s.col) for s in marks} <= cells


@pytest.mark.parametrize("name", sorted(PALETTES))
def test_every_palette_tells_the_roles_apart(name):
    t = PALETTES[name]
    assert t["given"] != t["placed"]  # high contrast and colour-blind too
    for group in (("marked", "off", "eliminate"), ("houses", "cover", "fin"),
                  ("cells_fill", "pivot_fill", "als_b_fill"),
                  ("proof_true", "proof_false", "assume", "contradiction"),
                  ("branch0", "branch1", "branch2", "branch3")):
        colours = [t[k].lower() for k in group]
        assert len(set(colours)) == len(colours), (name, group)


def test_fish_roles_read_from_detail_when_recorded():
    from explainer.explanation import Explanation
    from render.roles import derive

    st = Puzzle(SEED).initial_state()
    step = Explanation(technique="finned x wing", houses=(("box", 7), ("col", 0), ("col", 4), ("row", 5), ("row", 7)),
                       marked=((5, 0, 3), (5, 4, 3)), marked_alt=((6, 4, 3),), eliminate=((7, 5, 3),),
                       detail=(("base", "col"), ("base_lines", (("col", 0), ("col", 4))),
                               ("cover_lines", (("row", 5), ("row", 7))), ("fin", ((6, 4, 3),))))
    roles = derive(st, step)
    assert [roles.house_tone[i] for i in range(5)] == ["fin", "base", "base", "cover", "cover"]
    assert not roles.houses  # the cover lines are the step's own
    assert roles.cand_tone[(6, 4, 3)] == "fin"
