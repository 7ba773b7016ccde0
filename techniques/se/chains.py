"""Sudoku Explainer's chaining producers, until SE's chaining engine is plugged in.

SE rates every step from 6.5 up with one chaining engine run in several modes
(forcing chains and cycles, Nishio, multiple, dynamic, dynamic (+), nested
levels). That engine is built apart; until it is in, each of its producers
here finds nothing, so the ``se`` order stops where SE would need a chain (a
rating of 20.0, SE's "beyond solver", once such a step is needed).
"""
from __future__ import annotations

from collections.abc import Iterator

from explainer.model.explanation import Explanation
from explainer.model.state import State
from explainer.model.technique import NO_CONTEXT, Context

# SE's chaining producers, by the name its lists give them (NOTES: producers 21 and 23-30)
PRODUCERS = (
    "forcing chains and cycles",
    "nishio forcing chains",
    "multiple forcing chains",
    "dynamic forcing chains",
    "dynamic forcing chains (+)",
    "nested forcing chains (+ forcing chains)",
    "nested forcing chains (+ multiple forcing chains)",
    "nested forcing chains (+ dynamic forcing chains)",
    "nested forcing chains (+ dynamic forcing chains (+))",
)


def placeholder(state: State, ctx: Context = NO_CONTEXT, /) -> Iterator[Explanation]:
    """A chaining producer not plugged in yet: no step."""
    return iter(())
