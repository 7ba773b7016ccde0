"""The library API: the engine with the technique registry plugged in.

``explainer.engine`` receives ``Technique`` records and never imports the
registry; this module resolves names (``"x wing"``, aliases) and defaults to
every registered technique, so ``Puzzle(line)`` explains with all of them.
"""
from __future__ import annotations

from collections.abc import Iterable, Sequence
from typing import Any

import techniques as registry

from . import engine
from .explanation import Explanation
from .grid import Grid
from .state import State
from .technique import Technique


class Puzzle(engine.Puzzle):
    """``engine.Puzzle`` taking technique names, aliases or records (default: the whole registry).

    ``uniqueness=False`` leaves out the steps that assume a single solution
    (unique rectangle and loop, bug+1, BUG), which some teachers and setters reject;
    ``brutal=False`` never reads the solution (a grid the techniques cannot
    finish is then reported unfinished, ``complete`` False);
    ``order="simplest"`` (the default) takes the lowest-rated step at each step,
    ``order="seed"`` the first technique in registry order with a step
    (``easiest=True`` / ``False`` are the older names of the two)."""

    def __init__(self, puzzle: str | Grid | Sequence[Sequence[int]],
                 techniques: Iterable[str | Technique] | None = None, *, where: str = "",
                 max_steps: int | None = None, profile: bool = False, easiest: bool | None = None,
                 order: str | None = None, uniqueness: bool = True, brutal: bool = True) -> None:
        chosen = [t for t in registry.select(techniques, uniqueness) if brutal or not t.reads_solution]
        super().__init__(puzzle, chosen, where=where, max_steps=max_steps, profile=profile, easiest=easiest,
                         order=order, uniqueness=uniqueness)

    def frame_png(self, k: int | None = None, **options: Any) -> bytes:
        """PNG of frame k: 0 the initial grid, 1..len(steps) the steps (drawn on the
        state before them), len(steps)+1 the solution; default: the cursor's step."""
        from render.frame import puzzle_frame_png  # lazy: explaining never needs matplotlib

        if k is None:
            k = min(self.cursor + 1, len(self.steps) + 1)
        return puzzle_frame_png(self, k, **options)

    def _repr_png_(self) -> bytes | None:
        return self.frame_png()


def _step_png(before: Any, step: Explanation) -> bytes:
    from render.frame import step_png  # lazy: explaining never needs matplotlib

    return step_png(before, step)


def _state_png(state: State) -> bytes:
    from render.frame import state_png  # lazy: explaining never needs matplotlib

    return state_png(state, candidates=True)


# A step and a state draw themselves in a notebook through render, which the core never imports.
Explanation.drawer = _step_png
State.drawer = _state_png


def explain(puzzle: str | Grid | Sequence[Sequence[int]],
            techniques: Iterable[str | Technique] | None = None, *, uniqueness: bool = True,
            order: str | None = None) -> list[Explanation]:
    """The list of steps that solve the puzzle (the library's main call), simplest first
    unless ``order="seed"``."""
    return Puzzle(puzzle, techniques, uniqueness=uniqueness, order=order).steps
