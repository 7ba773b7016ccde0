"""Sudoku Explainer's chaining engine (``explainer.core.sechain``) against SE itself, and its twins.

``tests/data/se_chains.txt`` holds states SE reached on its own rating paths and the
first hint SE's chaining producers give there, printed by SE (its README says which
version and how): every field must agree (SE's difficulty as SE computes it,
complexity, kind order, removals, placement). The compiled engine replays the whole
sample; the pure twin a part of it here and all of it with ``--slow``. The two twins
must also give the same implication graphs, the proofs' source.
"""
from __future__ import annotations

from pathlib import Path

import pytest

from benchmarks.compare_se_chains import DATA, Case, compare, read
from explainer.core import sechain
from explainer.model.grid import parse_grid
from explainer.model.state import State

ROOT = Path(__file__).resolve().parents[2]

COMPILED = sechain._C is not None


def cases() -> list[Case]:
    return read([DATA])


def mismatches(sample: list[Case], producers: set[int] | None = None, pure: bool = False) -> tuple[int, list]:
    total, bad = 0, []
    for case, p, want, got, _ in compare(sample, producers, pure):
        total += 1
        if want != got:
            bad.append((case.label, p, want, got))
    return total, bad


def test_length_addition() -> None:
    # SE's thresholds on complexity - 2: 4, 6, 8, 12, 16, 24, 32, 48, 64, 96, 128
    steps = [(c, sechain.length_addition(c)) for c in range(1, 140)]
    jumps = [c for (c, a), (_, b) in zip(steps, steps[1:], strict=False) if b > a]
    assert jumps == [6, 8, 10, 14, 18, 26, 34, 50, 66, 98, 130]
    assert sechain.length_addition(6) == 0.0 and sechain.length_addition(7) == 0.1
    # summed as SE sums it: 7.0 + five tenths is not 7.5 to the last bit
    assert 7.0 + sechain.length_addition(19) == 7.0 + (0.1 + 0.1 + 0.1 + 0.1 + 0.1)


def test_the_sample_covers_every_producer_and_kind() -> None:
    sample = cases()
    assert len(sample) >= 100
    seen = {p for c in sample for p, h in c.expected.items() if h is not None}
    assert set(range(7)) <= seen  # forcing chains and cycles .. nested level 3
    keys = {h.sort_key for c in sample for h in c.expected.values() if h is not None}
    assert keys == {1, 2, 3, 4, 5, 6, 7}  # double, x / y / xy chains and cycles, cell, region, contradiction
    assert any(h is None for c in sample for h in c.expected.values())  # and producers with no hint


@pytest.mark.skipif(not COMPILED, reason="the compiled engine is not in use")
def test_compiled_engine_gives_ses_first_hints() -> None:
    total, bad = mismatches([c for c in cases() if c.label != "hardest300"])
    assert total >= 500 and not bad, bad[:3]


@pytest.mark.skipif(not COMPILED, reason="the compiled engine is not in use")
def test_compiled_nested_level() -> None:
    """Nested forcing chains (9.5: + forcing chains) on two hardest300 states."""
    total, bad = mismatches([c for c in cases() if c.label == "hardest300"][:2], {4, 5})
    assert total == 4 and not bad, bad[:3]


@pytest.mark.slow
@pytest.mark.skipif(not COMPILED, reason="the compiled engine is not in use")
def test_compiled_nested_levels() -> None:
    total, bad = mismatches([c for c in cases() if c.label == "hardest300"])
    assert total >= 30 and not bad, bad[:3]


def test_pure_engine_gives_ses_first_hints() -> None:
    # a part of the sample: the pure twin takes about a second a state for Dynamic Plus
    total, bad = mismatches(cases()[::20], {0, 1, 2, 3}, pure=True)
    assert total >= 20 and not bad, bad[:3]


@pytest.mark.slow
def test_pure_engine_whole_sample() -> None:
    sample = [c for c in cases() if c.label != "hardest300"]
    total, bad = mismatches(sample, pure=True)
    assert total >= 500 and not bad, bad[:3]


@pytest.mark.skipif(not COMPILED, reason="the compiled engine is not in use")
@pytest.mark.parametrize("producer", [0, 1, 2, 3, 4])
def test_twins_give_the_same_graphs(producer: int) -> None:
    """The implication graph a proof is written from: node for node, rules included (the
    first states of the sample where the producer has a hint: six, two for Dynamic Plus)."""
    want_compared = 2 if producer == sechain.DYNAMIC_PLUS else 6
    compared = 0
    for case in cases():
        if case.label == "hardest300" or case.expected.get(producer, 0) is None:
            continue
        n = int(round(len(case.values) ** 0.5))
        got = sechain.first_hint(n, case.values, case.cand, producer, graph=True)
        want = sechain.first_hint_py(n, list(case.values), list(case.cand), producer, graph=True)
        assert got == want
        compared += got is not None
        if compared == want_compared:
            break
    assert compared == want_compared


@pytest.mark.skipif(not COMPILED, reason="the compiled engine is not in use")
def test_classic_flavour_twins() -> None:
    """SE 1.2.1.3's Dynamic Plus (its own order of pointing and claiming inside chains)."""
    compared = 0
    for case in cases()[::37]:
        if case.label == "hardest300":
            continue
        n = int(round(len(case.values) ** 0.5))
        got = sechain.first_hint(n, case.values, case.cand, sechain.CLASSIC_PLUS, graph=True)
        want = sechain.first_hint_py(n, list(case.values), list(case.cand), sechain.CLASSIC_PLUS, graph=True)
        assert got == want
        compared += got is not None
    assert compared >= 3


def test_rating_only_hint_has_no_graph() -> None:
    case = cases()[0]
    h = sechain.first_hint(9, case.values, case.cand, 0)
    assert h is not None and h.nodes == () and h.targets == ()
    full = sechain.first_hint(9, case.values, case.cand, 0, graph=True)
    assert full is not None and full.nodes and (full.difficulty, full.removable) == (h.difficulty, h.removable)


@pytest.mark.skipif(not COMPILED, reason="the compiled engine is not in use")
@pytest.mark.parametrize(("name", "drop"), [("16x16-hard.txt", 0), ("25x25-hard.txt", 0), ("25x25-hard.txt", 4)])
def test_reach_sets_skip_no_hint_on_big_grids(name: str, drop: int) -> None:
    """A static engine skips the searches its reach sets prove empty (the compiled twin
    only): on these starts it builds them, on the 25x25 one with every 4th given dropped
    (6656 live potentials, more than 4096) it builds none and runs every search. The two
    twins give the same graphs either way."""
    line = next(t for t in (ROOT / "examples" / name).read_text().split("\n") if t.strip() and not t.startswith("#"))
    text = list(line.strip())
    if drop:
        for i in [i for i, ch in enumerate(text) if ch != "."][::drop]:
            text[i] = "."
    state = State.from_grid(parse_grid("".join(text)))
    n = state.geo.n
    for producer in (sechain.FORCING, sechain.MULTIPLE):
        got = sechain.first_hint(n, state.values, state.cand, producer, graph=True)
        want = sechain.first_hint_py(n, list(state.values), list(state.cand), producer, graph=True)
        assert got is not None and got == want
