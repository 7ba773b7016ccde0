"""Which rows and columns a frame shows at full size (legible at class size).

A 16×16 or 25×25 grid shown 1024 pixels wide leaves a candidate digit well
under 12 pixels. Such a frame (one that draws candidate digits) is drawn
through a ``View``: the rows and columns the step touches are widened until
their candidates reach ``LEGIBLE_PX`` at ``SHOWN_WIDTH`` pixels (``scale``),
the others share what is left, narrow, with their big digits but without
candidates. The figure keeps its size, so every frame of a puzzle has the
same pixels. Pure Python: the frame maps grid units through ``x`` / ``y``.
"""
from __future__ import annotations

import math
from collections.abc import Iterable
from dataclasses import dataclass

from .sizes import mark_h

SHOWN_WIDTH = 1024  # a frame shown this many pixels wide (a projector) ...
LEGIBLE_PX = 12     # ... keeps its captions and candidate digits at least this high
NARROW = 0.12       # the least width of a row or column left narrow, in cells
MARGIN = 1.01       # a little above the bound (a glyph is measured by its pixels)

DIGIT_KINDS = ("candidate", "disk", "light", "ring", "struck", "struck-ring")


def needed_scale(n: int, width_cells: float) -> float:
    """The cell scale at which a candidate digit is ``LEGIBLE_PX`` high when a frame
    ``width_cells`` cells wide is shown ``SHOWN_WIDTH`` pixels wide."""
    m = math.isqrt(n)
    return LEGIBLE_PX * width_cells / (SHOWN_WIDTH * mark_h(m))  # a marked digit is the smallest


@dataclass(frozen=True)
class View:
    """Column and row boundaries in grid units (``xs[c]`` … ``xs[c + 1]`` is column c);
    ``full``: the scale of the rows and columns shown whole (1.0: the plain grid)."""

    n: int
    xs: tuple[float, ...]
    ys: tuple[float, ...]
    full: float = 1.0
    rows: frozenset[int] = frozenset()
    cols: frozenset[int] = frozenset()

    @classmethod
    def plain(cls, n: int) -> View:
        b = tuple(float(i) for i in range(n + 1))
        return cls(n, b, b, 1.0, frozenset(range(n)), frozenset(range(n)))

    @property
    def is_plain(self) -> bool:
        return self.full == 1.0 and len(self.cols) == self.n and len(self.rows) == self.n

    def x(self, x: float) -> float:
        c = min(max(int(math.floor(x)), 0), self.n - 1)
        return self.xs[c] + (x - c) * (self.xs[c + 1] - self.xs[c])

    def y(self, y: float) -> float:
        r = min(max(int(math.floor(y)), 0), self.n - 1)
        return self.ys[r] + (y - r) * (self.ys[r + 1] - self.ys[r])

    def point(self, p: tuple[float, float]) -> tuple[float, float]:
        return self.x(p[0]), self.y(p[1])

    def scale(self, r: int, c: int) -> float:
        """The scale of cell (r, c): its digits and marks are drawn this much larger."""
        return min(self.xs[c + 1] - self.xs[c], self.ys[r + 1] - self.ys[r])

    def whole(self, r: int, c: int) -> bool:
        """Is the cell shown at full size (its candidates drawn)?"""
        return r in self.rows and c in self.cols

    def rect(self, x0: float, y0: float, x1: float, y1: float) -> tuple[float, float, float, float]:
        """A rectangle of grid units as (x, y, width, height) in the view."""
        a, b = self.x(x0), self.y(y0)
        return a, b, self.x(x1) - a, self.y(y1) - b


def _bounds(n: int, wide: set[int], full: float) -> tuple[float, ...]:
    """n + 1 boundaries: the ``wide`` indexes ``full`` each, the others sharing the rest."""
    rest = n - full * len(wide)
    narrow = rest / (n - len(wide)) if len(wide) < n else 0.0
    out = [0.0]
    for i in range(n):
        out.append(out[-1] + (full if i in wide else narrow))
    out[-1] = float(n)
    return tuple(out)


def focus(n: int, width_cells: float, must: Iterable[tuple[int, int]], nice: Iterable[tuple[int, int]] = ()) -> View:
    """The view of a frame whose marked candidates lie in the ``must`` cells (most important
    first): their rows and columns at the legible scale as long as they fit, then as many
    ``nice`` ones (context: the rest of a box) as still fit. A mark whose row or column did
    not fit is drawn without its digit (a step marking more columns than a frame shown
    1024 pixels wide can hold legibly: about 11 on 25×25)."""
    full = max(1.0, needed_scale(n, width_cells) * MARGIN)
    if full <= 1.0:
        return View.plain(n)
    room = int((n - n * NARROW) / (full - NARROW))  # rows (or columns) that fit at full size
    rows: set[int] = set()
    cols: set[int] = set()
    for r, c in [*must, *nice]:
        if (r in rows or len(rows) < room) and (c in cols or len(cols) < room):
            rows.add(r)
            cols.add(c)
    return View(n, _bounds(n, cols, full), _bounds(n, rows, full), full, frozenset(rows), frozenset(cols))
