"""The library API: the engine with the technique registry plugged in.

``explainer.engine`` receives ``Technique`` records and never imports the
registry; this module resolves names (``"x wing"``, aliases) and defaults to
every registered technique, so ``Puzzle(line)`` explains with all of them.
"""
from __future__ import annotations

from typing import Iterable, Sequence

import techniques as registry

from . import engine
from .explanation import Explanation
from .grid import Grid
from .technique import Technique



class Puzzle(engine.Puzzle):
    """``engine.Puzzle`` taking technique names, aliases or records (default: the whole registry)."""

    def __init__(self, puzzle: "str | Grid | Sequence[Sequence[int]]",
                 techniques: "Iterable[str | Technique] | None" = None, *, where: str = "",
                 max_steps: int | None = None, profile: bool = False) -> None:
        super().__init__(puzzle, registry.select(techniques), where=where, max_steps=max_steps, profile=profile)


def explain(puzzle: "str | Grid | Sequence[Sequence[int]]",
            techniques: "Iterable[str | Technique] | None" = None) -> list[Explanation]:
    """The list of steps that solve the puzzle (the library's main call)."""
    return Puzzle(puzzle, techniques).steps
