"""An order: how the engine chooses each step, as one small value.

The command line reads ``--order NAME``, the engine's registry
(``explainer.engine.orders``) gives the ``Order`` of that name, and the same
value goes on: the engine chooses steps by it (``ranked``), rates them by it
(``view``), leaves out what it never takes (``lucky``), and tells the finders
what they need of it: a rating bound (``technique.Bound``), never the order
itself.

>>> Order("simplest", ranked=True, view="se-equivalent", lucky=False)
Order('simplest', ranked=True, view='se-equivalent', lucky=False)
"""
from __future__ import annotations

from dataclasses import dataclass, field
from typing import Literal

# How a run rates the steps of a technique Sudoku Explainer (SE) lacks: "se-equivalent" (what
# SE's cheapest chain for the same elimination weighs: ``StepKind.se_weight`` and ``se_rule``),
# or "pattern", the pattern's own weight and rule (``StepKind.weight`` and ``rule``). A technique
# SE has is rated the same in both.
View = Literal["se-equivalent", "pattern"]
VIEWS: tuple[View, ...] = ("se-equivalent", "pattern")


@dataclass(frozen=True)
class Order:
    """One way of choosing each step of an explanation.

    ``name``: as the command line and the steps JSON write it; ``ranked``: True, the engine
    takes the live step with the lowest rating (ties: the step that does more, the earlier
    technique, the smaller pattern), False, the first live step of the first technique in the
    given order; ``view``: how steps are rated (``View``); ``lucky``: a lucky guess (trial
    lucky, true only when the solution is unique) may be taken; ``producers``: the name of the
    technique list the order explains with, whatever techniques a caller chose ('': the
    caller's, by default the registry's; 'se': Sudoku Explainer's producers, which the library
    looks up, ``techniques.producer_list``); ``unfinished``: the ER of an explanation its
    techniques cannot finish (Sudoku Explainer prints 20.0, "beyond solver"; None: the hardest
    step's); ``help``: the order in words (the command line's help).
    """

    name: str
    ranked: bool = True
    view: View = "se-equivalent"
    lucky: bool = False
    producers: str = ""
    unfinished: float | None = None
    help: str = field(default="", compare=False)

    def __post_init__(self) -> None:
        if not self.name or self.name != self.name.strip():
            raise ValueError(f"an order's name is a word, not {self.name!r}")
        if self.view not in VIEWS:
            raise ValueError(f"an order's view is one of {', '.join(VIEWS)}, not {self.view!r}")

    def __repr__(self) -> str:
        own = f", producers={self.producers!r}" if self.producers else ""
        return f"Order({self.name!r}, ranked={self.ranked}, view={self.view!r}, lucky={self.lucky}{own})"

    def __str__(self) -> str:
        return self.name
