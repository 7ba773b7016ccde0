"""An explained puzzle, as its readers see it: what the drawing code needs of a ``Puzzle``.

The engine's ``Puzzle`` (``explainer.engine.loop``) is one; the drawing code
(``render``) takes this protocol, so it reads the model only and never
imports the engine.
"""
from __future__ import annotations

from collections.abc import Mapping
from typing import Any, Protocol

from .explanation import Explanation
from .grid import Grid
from .state import State
from .technique import StepKind, Technique


class Explained(Protocol):
    """A puzzle and the steps that explain it."""

    grid: Grid
    techniques: list[Technique]  # the technique records the steps came from (names, aliases)

    @property
    def steps(self) -> list[Explanation]: ...

    def initial_state(self) -> State: ...

    def state_before(self, k: int) -> State:
        """A copy of the candidate state before step k (0-based; len(steps): the end)."""

    @property
    def kinds(self) -> Mapping[str, StepKind]:
        """Step name -> its kind (titles, the singles), for the techniques of the run."""

    def to_json(self) -> dict[str, Any]: ...

    @property
    def n(self) -> int: ...

    @property
    def complete(self) -> bool:
        """Every cell solved by the steps (False: the chosen techniques got stuck)."""

    @property
    def difficulty(self) -> str: ...
