"""sudoku-explainer: explain a Sudoku one human step at a time.

>>> from explainer import explain
>>> steps = explain("9..3....41...2...5..2...3.12..6.9..36.9.5.............48.9...7........4....81....")
>>> steps[0].technique
'single position'

This package is the public facade; the code lives one folder per layer,
each importing only the layers below it (docs/architecture.md):
``explainer.model`` (grid, state, steps, ratings, technique records),
``explainer.core`` (compiled kernels and the exact-cover solver),
``explainer.engine`` (the step loop and the orders), ``techniques`` (the
finders and their registry), ``explainer.api`` (``Puzzle``/``explain``: the
engine with the registry plugged in) and ``explainer.app`` (command line,
puzzle bank, generator, hints, HoDoKu's format, the ``solve`` back-ends).
Every name below is loaded on first use, so ``import explainer.model.grid``
loads nothing else.
"""
from __future__ import annotations

import importlib
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from .api import Puzzle, explain, rate
    from .app.allsteps import all_steps
    from .app.bank.db import DatabaseBusy, DatabaseError, DatabaseWriteError
    from .app.hints import GridMistake
    from .app.solvers import solve
    from .engine.loop import UnsoundStep
    from .model.explanation import Explanation
    from .model.grid import (
        Grid,
        PuzzleError,
        PuzzleTypeError,
        StepIndexError,
        UnknownNameError,
        geometry,
        parse_grid,
        read_sources,
    )
    from .model.order import Order
    from .model.rating import Rating
    from .model.state import Snapshot, State
    from .model.technique import Context, StepKind, Technique
    from .model.values import Candidate, Cell, House, StrongLink, WeakLink

# the public names, by the module that defines them (the imports above, for the type checker and
# the architecture test, name the same modules: tests/test_architecture.py checks they agree)
_NAMES: dict[str, tuple[str, ...]] = {
    "explainer.api": ("Puzzle", "explain", "rate"),
    "explainer.app.allsteps": ("all_steps",),
    "explainer.app.solvers": ("solve",),
    "explainer.engine.loop": ("UnsoundStep",),
    "explainer.model.explanation": ("Explanation",),
    "explainer.model.grid": ("Grid", "PuzzleError", "PuzzleTypeError", "StepIndexError", "UnknownNameError",
                             "geometry", "parse_grid", "read_sources"),
    "explainer.model.order": ("Order",),
    "explainer.model.rating": ("Rating",),
    "explainer.model.state": ("Snapshot", "State"),
    "explainer.model.technique": ("Context", "StepKind", "Technique"),
    "explainer.model.values": ("Candidate", "Cell", "House", "StrongLink", "WeakLink"),
    # the errors of the application's parts (each a PuzzleError)
    "explainer.app.hints": ("GridMistake",),
    "explainer.app.bank.db": ("DatabaseBusy", "DatabaseError", "DatabaseWriteError"),
}
_WHERE = {name: module for module, names in _NAMES.items() for name in names}

__all__ = ["Candidate", "Cell", "Context", "DatabaseBusy", "DatabaseError", "DatabaseWriteError", "Explanation",
           "Grid", "GridMistake", "House", "Order", "Puzzle", "PuzzleError", "PuzzleTypeError", "Rating", "Snapshot",
           "State", "StepIndexError", "StepKind", "StrongLink", "Technique", "UnknownNameError", "UnsoundStep",
           "WeakLink", "all_steps", "explain", "geometry", "parse_grid", "rate", "read_sources", "solve"]


def __getattr__(name: str) -> Any:
    key = _WHERE.get(name)
    if key is None:
        raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
    value = getattr(importlib.import_module(key), name)
    globals()[name] = value
    return value


def __dir__() -> list[str]:
    return sorted(set(globals()) | set(_WHERE))
