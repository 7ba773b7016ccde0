"""Sudoku Explainer's unique-loop walk: the compiled walk returns the pure walk's loops.

``explainer.core.sepattern.unique_loops`` (``_sepattern.c``) against its pure twin
``techniques.uniqueloops._se_walk`` (then ``_se_valid``): from every bivalue cell of
states SE's unique-loop finder met while rating puzzles of benchmarks/data (classic SE
and Sukaku Explainer) and of random states rich in bivalue cells, both flavours of the
walk must give the same loops in the same order. Without the compiled module there is
nothing to compare and the test is skipped.
"""
from __future__ import annotations

from pathlib import Path

import pytest

import explainer
from explainer.core import sepattern
from explainer.model.grid import values_of
from explainer.model.state import State
from techniques import uniqueloops

from .states import random_state

pytestmark = pytest.mark.skipif(not sepattern.compiled(), reason="the compiled pattern loops are not in use")

RATED = Path(__file__).resolve().parents[2] / "benchmarks" / "data" / "se_rated.classic.tsv"


def _met_states(monkeypatch: pytest.MonkeyPatch, count: int) -> list[State]:
    """The states SE's unique-loop finder is called on while rating ``count`` puzzles."""
    met: dict[tuple[int, ...], State] = {}
    walk = uniqueloops._se_loops

    def record(state: State, *args: object) -> list[list[int]]:
        met.setdefault(tuple(state.cand), state.copy())
        return walk(state, *args)  # type: ignore[arg-type]

    monkeypatch.setattr(uniqueloops, "_se_loops", record)
    rows = [line.split()[0] for line in RATED.read_text().splitlines() if line and not line.startswith("#")]
    for text in rows[::20][:count]:
        for classic in (True, False):
            explainer.rate(text, classic=classic)
    monkeypatch.undo()
    return list(met.values())


def _compare(states: list[State]) -> tuple[int, int]:
    """Both walks from every bivalue cell of the states, both flavours: the loops found, the valid ones."""
    loops = valid = 0
    for state in states:
        holding_of = state.pos
        for start, m in enumerate(state.cand):
            if m.bit_count() != 2:
                continue
            v1, v2 = values_of(m)
            holding = holding_of[v1 - 1] & holding_of[v2 - 1]
            for per_branch in (False, True):
                pure = uniqueloops._se_walk(state, start, v1, v2, per_branch)
                got = sepattern.unique_loops(state.cand, holding, start, m, per_branch, valid=False)
                assert got == pure, (state.to_line(), start, per_branch)
                kept = [loop for loop in pure if uniqueloops._se_valid(loop)]
                assert sepattern.unique_loops(state.cand, holding, start, m, per_branch) == kept
                loops += len(pure)
                valid += len(kept)
    return loops, valid


def test_unique_loop_walk_compiled_and_pure_agree_on_rating_paths(monkeypatch: pytest.MonkeyPatch) -> None:
    states = _met_states(monkeypatch, 24)
    assert len(states) >= 150
    loops, valid = _compare(states)
    assert loops >= 5000 and valid >= 1000  # loops to compare, not only empty walks


def test_unique_loop_walk_compiled_and_pure_agree_on_random_states() -> None:
    states = [random_state(9, seed, placed=0.25 + 0.05 * (seed % 2), keep=0.3 + 0.1 * (seed % 3))
              for seed in range(40)]
    loops, valid = _compare(states)
    assert loops >= 200 and valid >= 20
