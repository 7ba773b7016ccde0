"""Random candidate states of every size, for the core's compiled-against-pure tests.

A state here is a solution grid with some cells placed (their values cleared
from their peers, as ``State.place`` does) and, in the empty cells, the true
value plus a random share of the others: rich in bivalue cells, conjugate
pairs, groups and almost locked sets, like the states a hard puzzle passes
through, and reproducible from a seed.
"""
from __future__ import annotations

import random

from explainer.model.grid import geometry
from explainer.model.state import State
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
