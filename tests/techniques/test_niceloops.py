"""Chain variants for ``steps`` (niceloops, remotepairs): every route, remote pairs, discontinuous loops."""
from __future__ import annotations

from explainer.model.grid import bits
from explainer.model.technique import Context
from techniques import chains, niceloops, remotepairs

from .chain_positions import position, state

EVERY = Context()


def _steps(comment: str, name: str) -> list:
    return [s for s in niceloops.find(state(comment), EVERY) if s.technique == name]


def test_remote_pair_of_six_cells_removes_both_values_wherever_two_cells_three_or_five_apart_meet() -> None:
    e = position("remote pair 34 of six cells")
    steps = _steps("remote pair 34 of six cells", "remote pair")
    assert {frozenset(s.eliminate) for s in steps} >= {frozenset(e.eliminations)}
    path = [r * 9 + c for r, c in ((0, 0), (0, 3), (3, 3), (3, 6), (6, 6), (6, 8))]
    removed = remotepairs.removed(state("remote pair 34 of six cells"), path)
    assert {(x % 81 // 9, x % 9, x // 81 + 1) for x in bits(removed)} == set(e.eliminations)


def test_the_engine_names_a_remote_pair_with_all_its_eliminations() -> None:
    e = position("remote pair 12 of four cells")
    steps = [s for s in chains.find(state("remote pair 12 of four cells"), Context()) if s.technique == "remote pair"]
    assert steps and set(e.eliminations) <= set(steps[0].eliminate)


def test_no_remote_pair_in_the_near_miss() -> None:
    assert not _steps("no remote pair", "remote pair")
    assert not list(niceloops.remote_pairs(state("no remote pair")))


def test_xy_chain_found_by_its_own_route() -> None:
    e = position("xy chain of six cells")
    assert any(set(s.eliminate) == set(e.eliminations) for s in _steps("xy chain of six cells", "xy chain"))
    assert not _steps("no xy chain", "xy chain")


def test_discontinuous_loop_places_its_candidate() -> None:
    for comment, cell in (("discontinuous loop, two strong links at (1)r1c1", (0, 0, 1)),
                          ("discontinuous loop, two strong links at (5)r4c4", (3, 3, 5))):
        steps = _steps(comment, "discontinuous loop")
        assert any(s.place == (cell,) and set(s.eliminate) == set(position(comment).eliminations) for s in steps)
        step = next(s for s in steps if s.place == (cell,))
        assert step.strong_links and step.weak_links and "contradicts itself" in step.text
    assert not [s for s in niceloops.find(state("no nice loop or chain"), EVERY)]


def test_continuous_loop_with_a_cell_entered_and_left_by_strong_links() -> None:
    comment = "continuous loop (1)r5c5=(1)r5c9"
    assert any(set(s.eliminate) == set(position(comment).eliminations) for s in _steps(comment, "loop"))


def test_aic_of_both_types() -> None:
    for comment in ("AIC type 1", "AIC type 2"):
        assert any(set(s.eliminate) == set(position(comment).eliminations) for s in _steps(comment, "chain"))


def test_the_engine_search_is_unchanged_by_every() -> None:
    """Without ``every`` the finder yields the engine's search only (no discontinuous loop)."""
    comment = "discontinuous loop, two strong links at (1)r1c1"
    assert not [s for s in chains.find(state(comment), Context()) if s.technique == "discontinuous loop"]
    assert list(niceloops.every(state(comment), chains.MAX_LENGTH))
