"""Random and real candidate states of every size, for the core's compiled-against-pure tests.

A state here is a solution grid with some cells placed (their values cleared
from their peers, as ``State.place`` does) and, in the empty cells, the true
value plus a random share of the others: rich in bivalue cells, conjugate
pairs, groups and almost locked sets, like the states a hard puzzle passes
through, and reproducible from a seed.
"""
from __future__ import annotations

import random
from collections.abc import Iterator
from functools import cache

import techniques
from explainer import engine
from explainer.model.grid import geometry, parse_grid
from explainer.model.state import State
from tests.conftest import ROOT, SHARED
from tests.test_properties import solved_grid


def random_state(n: int, seed: int, placed: float = 0.35, keep: float = 0.45) -> State:
    """A state of an n×n grid: ``placed`` of the cells placed, each other value kept as a
    candidate of an empty cell with probability ``keep`` (the true value always)."""
    rng = random.Random(seed * 7919 + n)
    geo = geometry(n)
    sol = solved_grid(n, rng)
    state = State(geo)
    for c in range(geo.ncells):
        if rng.random() < placed:
            state.place(c, sol[c])
    for c in range(geo.ncells):
        if state.values[c]:
            continue
        for v in state.candidates(c):
            if v != sol[c] and rng.random() > keep:
                state.eliminate(c, v)
    return state


SIZES = (4, 9, 16, 25)


# the basic techniques and the wings: on big grids these stall soon, leaving a state rich in
# small cells at a cost of milliseconds
BASIC = ("single position", "single candidate", "locked candidate", "naked tuple", "hidden tuple",
         "y wing", "w wing", "xy wing", "xyz wing", "wxyz wing")


def _puzzles(path, every: int, count: int) -> list[str]:
    rows = [r.split()[0] for r in path.read_text().splitlines() if r.strip() and not r.startswith("#")]
    return rows[::every][:count]


def _states(text: str, chosen: tuple[str, ...] | None, every: int) -> Iterator[State]:
    """The states a puzzle's explanation passes through, every ``every``-th step."""
    p = engine.Puzzle(text, techniques.select(chosen), order="simplest")
    state = State.from_grid(parse_grid(text))
    for i, step in enumerate(p.steps):
        state.apply(step)
        if i % every == 0 and not state.is_solved():
            yield state.copy()


@cache
def real_states() -> tuple[State, ...]:
    """Real states mid-solve: top1465 and hardest300 on the default order, the 16×16 and 25×25
    samples and examples after the basic techniques stall (rich in small cells)."""
    data = SHARED / "data"
    out: list[State] = []
    for text in _puzzles(data / "top1465.txt", 211, 7) + _puzzles(data / "hardest300.txt", 97, 3):
        out += _states(text, None, 4)
    for path in (data / "sample16.txt", ROOT / "examples" / "16x16-hard.txt", ROOT / "examples" / "25x25-hard.txt"):
        for text in _puzzles(path, 1, 4):
            out += _states(text, BASIC, 7)
    return tuple(out)
