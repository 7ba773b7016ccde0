"""Grouped chains for ``steps`` (groupedloops): ALS nodes, grouped loops, grouped discontinuous loops."""
from __future__ import annotations

from explainer.model.technique import Context
from techniques import grouped, groupedloops

from .chain_positions import position, state

EVERY = Context()


def _steps(comment: str) -> list:
    return list(groupedloops.find(state(comment), EVERY))


def _exact(comment: str) -> list:
    e = position(comment)
    return [s for s in _steps(comment) if set(s.eliminate) == set(e.eliminations) and set(s.place) == set(e.placements)]


def test_grouped_aic_on_one_digit() -> None:
    hits = _exact("grouped AIC on 7")
    assert hits and hits[0].cells_alt and dict(hits[0].detail).get("kind", "chain") == "chain"
    assert not _steps("no grouped chain")


def test_grouped_continuous_loop_removes_what_sees_both_ends_of_each_weak_link() -> None:
    hits = _exact("grouped continuous loop on 6")
    assert hits and dict(hits[0].detail)["kind"] == "loop"


def test_grouped_discontinuous_loop_places_its_candidate() -> None:
    comment = "grouped discontinuous loop at (6)r1c3"
    hits = [s for s in _steps(comment) if s.place == ((0, 2, 6),)]
    assert hits and set(hits[0].eliminate) == set(position(comment).eliminations)
    assert dict(hits[0].detail)["kind"] == "set value"


def test_aic_through_an_als_node() -> None:
    hits = _exact("grouped AIC through an ALS")
    assert hits and dict(hits[0].detail)["als"] == 1
    assert {(4, 3), (4, 4), (4, 5)} <= {tuple(c) for c in hits[0].cells}  # the ALS r5c456
    assert "is locked" in hits[0].text


def test_only_with_every_and_only_with_a_group_or_an_als() -> None:
    # without every: the engine's grouped search, which has no ALS node
    assert not [s for s in grouped.find_grouped_chain(state("grouped AIC through an ALS"), Context())
                if set(s.eliminate) == set(position("grouped AIC through an ALS").eliminations)]
    # a remote pair holds no group and no ALS (its two cells in a row are a locked pair): listed by
    # the plain chain search, not here
    assert not list(groupedloops.every(state("remote pair 12 of four cells")))
