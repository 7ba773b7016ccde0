"""Sudoku Explainer's producers (techniques.se): each gives SE's own first hint, state by state.

tests/data/se_positions.txt holds states SE reached on its own rating paths,
with each producer's first hint there as SE's own code gave it (or none,
where the registry's technique of the same family does find a step: SE's
own conditions rule it out). Made by tests/data/make_se_positions.py from
dumps of SE's producers (benchmarks/data/README.md says how).
"""
from __future__ import annotations

from pathlib import Path

import pytest

import techniques.se as se
from explainer.app.hints.pencilmarks import parse_pencilmarks
from explainer.engine.orders import live
from explainer.model.explanation import Explanation
from explainer.model.state import State
from explainer.model.technique import NO_CONTEXT, Context, Technique
from techniques import REGISTRY
from techniques.se.turbot import Group
from techniques.seorder import subsets
from techniques.subsets import find_hidden
from tests.helpers import se_state as state_of

DATA = Path(__file__).resolve().parents[1] / "data" / "se_positions.txt"
BARE = Context(rating_only=True)


def positions() -> list[tuple[str, str, str, str, str]]:
    out = []
    for line in DATA.read_text().splitlines():
        if line and not line.startswith("#"):
            flavour, name, values, cands, hint = line.split("\t")
            out.append((flavour, name, values, cands, hint))
    return out


def first(record: Technique, state: State, ctx: Context = NO_CONTEXT) -> Explanation | None:
    return next((s for s in record.find(state, ctx) if live(state, s)), None)


def as_se(step: Explanation | None) -> str:
    """A step written as the data file writes SE's hints."""
    if step is None:
        return "none"
    place = "-" if not step.place else f"{step.place[0][0] * 9 + step.place[0][1]}:{step.place[0][2]}"
    removed = ",".join(f"{r * 9 + c}:{v}" for r, c, v in sorted(step.eliminate, key=lambda x: (x[0] * 9 + x[1], x[2])))
    return f"{float(step.get('se_rating')):.1f} {place} {removed or '-'}"


POSITIONS = positions()


def test_the_data_covers_every_producer_and_near_misses() -> None:
    named = {(f, n) for f, n, *_ in POSITIONS}
    misses = {(f, n) for f, n, *_, hint in POSITIONS if hint == "none"}
    for flavour, producers in (("se", se.SUKAKU), ("se-classic", se.CLASSIC)):
        plain = {t.name for t in producers if t.name not in se.chains.CHAINING}
        assert plain <= {n for f, n in named if f == flavour}, plain - {n for f, n in named if f == flavour}
    assert len(misses) >= 10  # states where the registry's family finds a step and SE's producer none


@pytest.mark.parametrize("flavour,name,values,cands,hint", POSITIONS,
                         ids=[f"{p[0]}-{p[1]}-{i}" for i, p in enumerate(POSITIONS)])
def test_producer_gives_se_first_hint(flavour: str, name: str, values: str, cands: str, hint: str) -> None:
    producer = next(t for t in se.FLAVOURS[flavour] if t.name == name)
    state = state_of(values, cands)
    before = (list(state.cand), list(state.pos), list(state.values))
    step = first(producer, state)
    assert as_se(step) == hint
    # the finder never changes the state, and its bare step (rate) is the same step
    assert (state.cand, state.pos, state.values) == before
    bare = first(producer, state, BARE)
    assert as_se(bare) == hint
    if step is not None and bare is not None:
        assert (bare.technique, bare.place, bare.eliminate) == (step.technique, step.place, step.eliminate)
        assert not bare.text and not bare.roles
        assert step.text and step.roles and dict(step.translations).get("fr")


def pencil(rows: dict[int, str], default: str = "123456789") -> State:
    """A 9×9 state from pencil marks: cell index -> its candidates (others: ``default``)."""
    return parse_pencilmarks(" ".join(rows.get(c, default) for c in range(81)))


def test_direct_hidden_pair_places_without_removing() -> None:
    # row 1: 1 and 2 only in r1c1 and r1c2; 3 only in r1c2, r1c3 besides: with the pair in
    # r1c1-r1c2, 3 has one place left, r1c3
    cells = {0: "1234", 1: "123", 2: "345", 3: "456", 4: "456", 5: "4567", 6: "4567", 7: "45678", 8: "456789"}
    state = pencil(cells)
    producer = next(t for t in se.SUKAKU if t.name == "direct hidden pairs")
    step = first(producer, state)
    assert step is not None and step.technique == "direct hidden pair"
    assert step.place == ((0, 2, 3),) and step.eliminate == ()
    assert float(step.get("se_rating")) == 2.0
    # the set cells' other candidates are shown ruled out, not removed
    ruled = {tuple(c) for r in step.roles if r.role == "implied-false" for c in r.candidates}
    assert ruled == {(0, 0, 3), (0, 0, 4), (0, 1, 3)}


def test_hidden_pair_needs_more_than_four_empty_cells() -> None:
    # row 1 holds 5-9 and four empty cells: 1 and 2 only in r1c1 and r1c2, a hidden pair the
    # registry finds; SE's hidden pair needs more than 2 * 2 empty cells in its region
    state = pencil({0: "1234", 1: "1234", 2: "34", 3: "34"})
    for c, v in zip(range(4, 9), range(5, 10), strict=True):
        state.place(c, v)
    assert any(s.eliminate and (0, 0, 3) in s.eliminate for s in find_hidden(state))
    producer = next(t for t in se.SUKAKU if t.name == "hidden pairs")
    assert first(producer, state) is None


def test_fish_skip_values_placed_too_often() -> None:
    # 1 placed in rows 4-9 (one per box of bands 2 and 3): it is left in rows 1-3, columns 1, 4, 7;
    # rows 1 and 2 keep it in columns 1 and 4 only, an x-wing. Six 1s placed: 6 + 2 * 2 > 9, and
    # SE's fish skips the value; with five placed it takes it
    def state(placed: list[tuple[int, int]]) -> State:
        st = pencil({})
        for r, c in placed:
            st.place(r * 9 + c, 1)
        for cell in range(18):  # rows 1 and 2 keep 1 in columns 1 and 4 only
            if cell % 9 not in (0, 3):
                st.eliminate(cell, 1)
        return st

    six = [(3, 1), (4, 4), (5, 7), (6, 2), (7, 5), (8, 8)]
    producer = next(t for t in se.SUKAKU if t.name == "x-wings")
    wing = next(t for t in REGISTRY if t.name == "fish")
    assert any(s.technique == "x wing" for s in wing.find(state(six), Context()))
    assert first(producer, state(six)) is None
    step = first(producer, state(six[:5]))
    assert step is not None and step.technique == "x wing" and {(2, 0, 1), (2, 3, 1)} <= set(step.eliminate)


def test_first_producer_wins_not_the_lowest_rating() -> None:
    # the direct intersections come before the naked single: a naked single (2.3) waits while a
    # direct pointing (1.7) exists, and a pointing waits for any single
    line = ".3.9...1...2.5......48....3..52...34.........37...81..2....56......1.7...9...4.8."
    from explainer import Puzzle

    p = Puzzle(line, order="se")
    ratings = p.step_ratings
    names = [s.technique for s in p.steps]
    assert names[0] == "single position"
    assert all(r <= 2.6 for r in ratings[:8])


def test_subsets_in_se_order_and_groups_named_as_players_write_them() -> None:
    assert subsets(2, 4) == ((0, 1), (0, 2), (1, 2), (0, 3), (1, 3), (2, 3))
    assert subsets(0, 3) == ((),)
    assert Group([35, 44]).fmt("en") == "r45c9"
    assert Group([30, 31]).fmt("fr") == "r4c45"
    assert Group([0, 80]).fmt("en") == "r1c1,r9c9"


def test_producer_lists() -> None:
    sukaku = [t.name for t in se.SUKAKU]
    classic = [t.name for t in se.CLASSIC]
    for names in (sukaku, classic):
        assert names[:5] == ["hidden singles", "direct intersections", "direct hidden pairs", "naked singles",
                             "direct hidden triplets"]
        assert names.index("aligned triplet exclusion") == names.index("aligned pair exclusion") + 2
    assert "turbot fishes" in sukaku and "turbot fishes" not in classic
    assert sukaku.index("turbot fishes") < sukaku.index("xy-wings")
    assert sukaku.index("bug") < sukaku.index("vwxyz-wings") < sukaku.index("aligned pair exclusion")
    for t in se.SUKAKU + se.CLASSIC:
        for k in t.kinds:
            assert k.rule.exact and set(k.titles) == {"en", "fr"}


# SE's producers whose family the registry has: the registry's module searches it once and
# offers SE's scan order as a mode (issue 40: one finder per family)
REGISTRY_MODES = {"hidden singles": "singles", "naked singles": "singles", "direct intersections": "intersections",
                  "intersections": "intersections", "direct hidden pairs": "subsets",
                  "direct hidden triplets": "subsets", "naked pairs": "subsets", "hidden pairs": "subsets",
                  "naked triplets": "subsets", "hidden triplets": "subsets", "naked quads": "subsets",
                  "hidden quads": "subsets", "x-wings": "fish", "swordfishes": "fish", "jellyfishes": "fish",
                  "xy-wings": "xywings", "xyz-wings": "xywings", "bug": "bugs",
                  "unique loops": "uniqueloops"}


def test_se_scan_order_is_a_mode_of_the_registry_finder() -> None:
    for t in se.SUKAKU + se.CLASSIC:
        if t.name in REGISTRY_MODES:
            assert t.find.__module__ == f"techniques.{REGISTRY_MODES[t.name]}", t.name
        else:
            assert t.find.__module__.startswith(("techniques.se.", "techniques.sechains")), t.name


def test_se_modes_share_the_registry_searches_session_tables() -> None:
    """SE's fish read the table the registry's fish finder keeps in the session: one search, and
    the registry's finder then reuses what SE's mode built."""
    from explainer.model.session import session_of
    from techniques.fish import find_fish

    s = state_of(*next((v, c) for f, n, v, c, _ in POSITIONS if n == "swordfishes"))
    session = session_of(s, NO_CONTEXT)
    ctx = Context(session=session)
    list(next(t for t in se.SUKAKU if t.name == "swordfishes").find(s, ctx))
    built = dict(session.parts("fish"))
    assert built
    list(find_fish(s, ctx))
    assert all(session.parts("fish")[v][1] is found for v, (_, found) in built.items())
