"""ALS variants for ``steps`` (alsvariants): any size, doubly linked, overlapping sets and petals."""
from __future__ import annotations

from explainer.model.technique import Context
from techniques import als, alsvariants, lookup

from .chain_positions import position, state

EVERY = Context()  # as steps asks the records' ``every`` finders


def _exact(finder, comment: str) -> list:
    e = position(comment)
    return [s for s in finder(state(comment), EVERY) if set(s.eliminate) == set(e.eliminations)]


def test_als_xz_singly_and_doubly_linked() -> None:
    single = _exact(alsvariants.every_xz, "ALS-XZ, singly linked")
    assert single and dict(single[0].detail)["linked"] == 1
    double = _exact(alsvariants.every_xz, "ALS-XZ, doubly linked")
    assert double and dict(double[0].detail)["linked"] == 2 and dict(double[0].detail)["restricted"] == (1, 3)
    assert "doubly linked" in double[0].text and "doublement lié" in double[0].text_in("fr")
    assert not list(alsvariants.every_xz(state("no ALS-XZ"), EVERY))


def test_als_xy_wing_with_and_without_overlap() -> None:
    plain = _exact(alsvariants.every_xy_wing, "ALS XY wing: C = r5c5")
    assert plain and dict(plain[0].detail)["overlap"] is False
    shared = _exact(alsvariants.every_xy_wing, "ALS XY wing, overlapping sets")
    assert shared and dict(shared[0].detail)["overlap"] is True
    assert dict(shared[0].detail)["values"] == (3, 4)  # every removed value in one step


def test_als_chains_and_their_near_miss() -> None:
    for comment in ("ALS chain: r1c1", "ALS chain of four sets"):
        assert _exact(alsvariants.every_chain, comment), comment
    assert not list(alsvariants.every_chain(state("no ALS chain"), EVERY))


def test_death_blossoms_with_and_without_overlapping_petals() -> None:
    plain = _exact(alsvariants.every_death_blossom, "death blossom: stem r5c5 (123)")
    # the petals drawn (one cell each), among others: eight cells of a house holding all nine values
    # are an ALS too
    assert any(dict(s.detail)["petals"] == (1, 1, 1) and dict(s.detail)["overlap"] is False for s in plain)
    shared = _exact(alsvariants.every_death_blossom, "death blossom, overlapping petals")
    assert shared and dict(shared[0].detail)["overlap"] is True
    assert not list(alsvariants.every_death_blossom(state("no death blossom"), EVERY))


def test_the_records_list_these_variants() -> None:
    assert lookup("als").finder(every=True) is alsvariants.every_xz
    assert lookup("als xy wing").finder(every=True) is alsvariants.every_xy_wing
    assert lookup("als chain").finder(every=True) is alsvariants.every_chain
    assert lookup("death blossom").finder(every=True) is alsvariants.every_death_blossom
    assert lookup("als").finder() is als.find


def test_the_engine_finders_are_unchanged_without_every() -> None:
    """The engine's ALS-XZ reports one removed value a step; the doubly linked extras are ``steps``'."""
    e = position("ALS-XZ, doubly linked")
    engine = list(als.find(state("ALS-XZ, doubly linked"), Context()))
    assert engine and all(len({v for _, _, v in s.eliminate}) == 1 for s in engine)
    assert not any(set(e.eliminations) <= set(s.eliminate) for s in engine)
