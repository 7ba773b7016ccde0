"""Hand-built candidate states for the technique tests.

``open_grid`` starts from a 9×9 grid where every cell holds every value and
restricts the listed cells (``{"r1c1": "12", ...}``): with all other cells
wide open, the only strong links are the ones a test builds on purpose.
Its ``keep`` argument removes one value from a whole house except some cells.
"""
from __future__ import annotations

from functools import cache

from explainer.model.state import State
from tests.conftest import TOP1465
from tests.helpers import marks, rc


def cell_index(name: str) -> int:
    r, c = rc(name)
    return r * 9 + c


def open_grid(cells: dict[str, str] | None = None, keep: dict[str, list[str]] | None = None) -> State:
    """A pencil-mark state: all candidates everywhere, then ``cells`` restricted;
    ``keep`` maps a value to the only cells (of the listed houses) that keep it, e.g.
    ``{"1 col1": ["r1c1", "r5c1"]}`` keeps 1 in column 1 only in r1c1 and r5c1."""
    state = marks(cells or {})
    for spec, allowed in (keep or {}).items():
        value, house = spec.split()
        kind, k = house[:3], int(house[3:]) - 1
        h = {"row": 0, "col": 9, "box": 18}[kind] + k
        kept = {cell_index(a) for a in allowed}
        for c in state.geo.houses[h]:
            if c not in kept:
                state.eliminate(c, int(value))
    return state


# ---- real puzzles ---------------------------------------------------------------------

@cache
def top1465(k: int):
    """The explained puzzle of top1465 line k (1-based) in the seed order (the technique tests
    take their states from it), shared by the test modules."""
    from explainer import Puzzle

    p = Puzzle(TOP1465.read_text().split()[k - 1], where=f"top1465:{k}", order="seed")
    p.steps
    return p
