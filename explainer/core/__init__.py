"""The search core: inner loops with a compiled (C) and a pure-Python twin.

Each primitive lives in a module of this package with two implementations
that give the same results, bit for bit: a C extension (``_name.c`` beside
it, built by ``pip install -e .``) and Python. ``load(name)`` returns the
compiled module when it imported and the pure-Python path is not forced,
else None (the caller then uses its Python twin).

Force the pure-Python path with ``SUDOKU_EXPLAINER_PURE=1`` (tests compare
both paths; a machine without a C compiler gets it by itself).

Cell sets in C are fixed arrays of 64-bit words (``cellset.h``): one
representation for 16, 81, 256 and 625 cells.
"""
from __future__ import annotations

import importlib
import os
from types import ModuleType

PURE_ENV = "SUDOKU_EXPLAINER_PURE"


def pure_forced() -> bool:
    """True when the environment asks for the pure-Python path."""
    return os.environ.get(PURE_ENV, "").strip() not in ("", "0")


def load(name: str) -> ModuleType | None:
    """The compiled module ``explainer.core.<name>``, or None (pure path forced or not built)."""
    if pure_forced():
        return None
    try:
        return importlib.import_module(f"explainer.core.{name}")
    except ImportError:
        return None


def compiled_info() -> dict[str, int] | None:
    """The compiled core's layout, or None when the pure-Python path is in use."""
    probe = load("_probe")
    return None if probe is None else dict(probe.info())
