"""The hand-made positions of tests/data/hodoku_chains.txt, by the start of their comment."""
from __future__ import annotations

from pathlib import Path

from explainer.app.hodoku import LibraryEntry, parse_library
from explainer.model.state import State

CHAINS = Path(__file__).resolve().parents[1] / "data" / "hodoku_chains.txt"


def position(comment: str) -> LibraryEntry:
    """The position under the comment line starting with ``comment``."""
    lines = CHAINS.read_text().splitlines()
    for k, line in enumerate(lines):
        if line.startswith(f"# {comment}"):
            return parse_library(lines[k + 1], f"{CHAINS}:{k + 2}")
    raise KeyError(comment)


def state(comment: str) -> State:
    return position(comment).state()
