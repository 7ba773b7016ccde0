"""The engine: the step loop (``loop``), the orders that choose each step (``orders``), and
every step of a position (``everystep``).

The engine receives its techniques (``Technique`` records of
``explainer.model.technique``) and never imports the registry (``techniques``):
the library API (``explainer.api``) plugs the registry in.
"""
from __future__ import annotations

from .loop import FORMAT, Puzzle, UnsoundStep, check_sound
from .orders import (
    DEFAULT_ORDER,
    ORDERS,
    SEED,
    SIMPLEST,
    choice_key,
    choose_step,
    next_step,
    order_named,
    pattern_size,
    register,
    simplest_step,
)

__all__ = ["DEFAULT_ORDER", "FORMAT", "ORDERS", "SEED", "SIMPLEST", "Puzzle", "UnsoundStep", "check_sound",
           "choice_key", "choose_step", "next_step", "order_named", "pattern_size", "register", "simplest_step"]
