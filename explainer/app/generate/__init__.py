"""New puzzles with a unique solution, optionally meeting a target (app layer).

The generator itself is ``generator``; its public names are re-exported here.
"""
from __future__ import annotations

from .generator import (
    DIFFICULTIES,
    DIG_ORDERS,
    SYMMETRIES,
    GenerationFailed,
    describe_target,
    engine_goal,
    engine_target,
    generate,
    generate_many,
)

__all__ = ["DIFFICULTIES", "DIG_ORDERS", "SYMMETRIES", "GenerationFailed", "describe_target", "engine_goal",
           "engine_target", "generate", "generate_many"]
