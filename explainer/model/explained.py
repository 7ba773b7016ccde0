"""An explained puzzle, as its readers see it: what the drawing code needs of a ``Puzzle``.

The engine's ``Puzzle`` (``explainer.engine.loop``) is one; the drawing code
(``render``) takes this protocol, so it reads the model only and never
imports the engine.
"""
from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any, Protocol

from .explanation import Explanation
from .grid import Grid
from .state import State
from .technique import StepKind, Technique


class Explained(Protocol):
    """A puzzle and the steps that explain it."""

    @property
    def grid(self) -> Grid: ...

    @property
    def n(self) -> int: ...

    @property
    def steps(self) -> list[Explanation]: ...

    @property
    def techniques(self) -> Sequence[Technique]:
        """The technique records the steps came from (their names and aliases)."""

    @property
    def kinds(self) -> Mapping[str, StepKind]:
        """Step name -> its kind (titles, the singles), for the techniques of the run."""

    @property
    def complete(self) -> bool: ...

    @property
    def difficulty(self) -> str: ...

    def initial_state(self) -> State: ...

    def state_before(self, k: int) -> State: ...

    def to_json(self) -> dict[str, Any]: ...
