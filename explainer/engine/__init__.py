"""The engine: the step loop (``loop``) and the orders that choose each step.

The engine receives its techniques (``Technique`` records of
``explainer.model.technique``) and never imports the registry (``techniques``):
the library API (``explainer.api``) plugs the registry in.
"""
from __future__ import annotations

from .loop import (
    DEFAULT_ORDER,
    DIFFICULTIES,
    FORMAT,
    ORDERS,
    Puzzle,
    UnsoundStep,
    check_sound,
    choice_key,
    easiest_step,
    next_step,
    pattern_size,
    simplest_step,
)

__all__ = ["DEFAULT_ORDER", "DIFFICULTIES", "FORMAT", "ORDERS", "Puzzle", "UnsoundStep", "check_sound",
           "choice_key", "easiest_step", "next_step", "pattern_size", "simplest_step"]
