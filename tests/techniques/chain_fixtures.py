"""Hand-built candidate states for the technique tests.

``open_grid`` starts from a 9×9 grid where every cell holds every value and
restricts the listed cells (``{"r1c1": "12", ...}``): with all other cells
wide open, the only strong links are the ones a test builds on purpose.
``without`` removes one value from whole houses except some cells.
"""
from __future__ import annotations

import re
from functools import lru_cache
from pathlib import Path

from explainer.pencilmarks import parse_pencilmarks
from explainer.state import State

FULL = "123456789"


def cell_index(name: str) -> int:
    m = re.fullmatch(r"r(\d)c(\d)", name)
    assert m, name
    return (int(m[1]) - 1) * 9 + int(m[2]) - 1


def open_grid(cells: "dict[str, str] | None" = None, keep: "dict[str, list[str]] | None" = None) -> State:
    """A pencil-mark state: all candidates everywhere, then ``cells`` restricted;
    ``keep`` maps a value to the only cells (of the listed houses) that keep it, e.g.
    ``{"1 col1": ["r1c1", "r5c1"]}`` keeps 1 in column 1 only in r1c1 and r5c1."""
    tokens = [FULL] * 81
    for name, cands in (cells or {}).items():
        tokens[cell_index(name)] = cands
    for spec, allowed in (keep or {}).items():
        value, house = spec.split()
        kind, k = house[:3], int(house[3:]) - 1
        for c in range(81):
            r, col = divmod(c, 9)
            inside = {"row": r == k, "col": col == k, "box": (r // 3) * 3 + col // 3 == k}[kind]
            if inside and c not in {cell_index(a) for a in allowed}:
                tokens[c] = tokens[c].replace(value, "")
    return parse_pencilmarks("\n".join(" ".join(tokens[r * 9:(r + 1) * 9]) for r in range(9)))


# ---- real puzzles ---------------------------------------------------------------------

SHARED = Path(__file__).resolve().parents[2].parent / "shared"
TOP1465 = SHARED / "data" / "top1465.txt"


@lru_cache(maxsize=None)
def top1465(k: int):
    """The explained puzzle of top1465 line k (1-based), shared by the test modules."""
    from explainer.engine import Puzzle

    p = Puzzle(TOP1465.read_text().split()[k - 1], where=f"top1465:{k}")
    p.steps
    return p
