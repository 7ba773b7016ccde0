"""sudoku-explainer: explain a Sudoku one human step at a time.

>>> from explainer import explain
>>> steps = explain("9..3....41...2...5..2...3.12..6.9..36.9.5.............48.9...7........4....81....")
>>> steps[0].technique
'single position'

``Puzzle`` and ``explain`` come from ``explainer.api`` (the engine with the
technique registry plugged in), ``all_steps`` from ``explainer.allsteps``;
they are loaded on first use so that ``techniques``, which builds on this package's core, can import it first.
"""
from __future__ import annotations

from typing import TYPE_CHECKING, Any

from .engine import UnsoundStep
from .explanation import Explanation
from .grid import Grid, PuzzleError, geometry, parse_grid, read_sources
from .solvers import solve
from .state import Snapshot, State
from .technique import Context, StepKind, Technique
from .values import Candidate, Cell, House, StrongLink, WeakLink

if TYPE_CHECKING:
    from .allsteps import all_steps
    from .api import Puzzle, explain

__all__ = ["Candidate", "Cell", "Context", "Explanation", "Grid", "House", "Puzzle", "PuzzleError", "Snapshot",
           "State", "StepKind", "StrongLink", "Technique", "UnsoundStep", "WeakLink", "all_steps", "explain",
           "geometry", "parse_grid", "read_sources", "solve"]


def __getattr__(name: str) -> Any:
    if name in ("Puzzle", "explain"):
        from . import api

        return getattr(api, name)
    if name == "all_steps":  # every step from a position (loads the registry too)
        from .allsteps import all_steps

        return all_steps
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
