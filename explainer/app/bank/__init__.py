"""The puzzle bank: explained puzzles stored in one SQLite file (app layer).

- ``db``: ``PuzzleDB`` (store, stats, query, export) and the records it keeps;
  ``pack`` and ``payloads``: the compact form of a stored document;
  ``migrate``: older files to the current schema.
- ``build``: explain a collection in worker processes (or on a Dask cluster)
  and store each puzzle as soon as it is done.

Drawing (the stats chart, a step's frame) lives in ``render/``.
"""
from __future__ import annotations

from .db import DEFAULT_DB, DatabaseError, PuzzleDB, StepRecord

__all__ = ["DEFAULT_DB", "DatabaseError", "PuzzleDB", "StepRecord"]
