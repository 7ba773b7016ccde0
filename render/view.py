"""Which rows and columns a frame shows at full size (legible at class size).

A 16×16 or 25×25 grid shown 1024 pixels wide leaves a candidate digit well
under 12 pixels. Such a frame (one that draws candidate digits) is drawn
through a ``View``: the rows and columns the step touches are widened until
their candidates reach ``LEGIBLE_PX`` at ``SHOWN_WIDTH`` pixels (``scale``),
the others share what is left, narrower, with their big digits but without
their plain candidates. A narrow row or column never gets thinner than its
big digits and its number need to stay ``LEGIBLE_PX`` high (``narrow_width``),
and the marks of a narrow cell are still drawn at the full scale, digit
included, laid out side by side inside the cell (``places``). The figure keeps
its size, so every frame of a puzzle has the same pixels. Pure Python: the
frame maps grid units through ``x`` / ``y``.
"""
from __future__ import annotations

import math
from collections.abc import Iterable
from dataclasses import dataclass

from .shapes import spot
from .sizes import VALUE_H, disk_r, mark_h

SHOWN_WIDTH = 1024  # a frame shown this many pixels wide (a projector) ...
LEGIBLE_PX = 12     # ... keeps its captions and candidate digits at least this high
MARGIN = 1.04       # a little above the bound: a flat glyph ("1", "E") is 2.5 % lower than "8", the digit
                    # every glyph height is scaled by (frame.glyph), and pixels round

DIGIT_KINDS = ("candidate", "disk", "light", "ring", "struck", "struck-ring")
MARK_KINDS = DIGIT_KINDS[1:] + ("thick", "halo")  # the marks of a candidate (a digit drawn on or in them)

Cand = tuple[int, int, int]
Point = tuple[float, float]


def legible_height(width_cells: float) -> float:
    """The least height, in grid units, of a glyph ``LEGIBLE_PX`` high when a frame
    ``width_cells`` cells wide is shown ``SHOWN_WIDTH`` pixels wide (with ``MARGIN``)."""
    return LEGIBLE_PX * MARGIN * width_cells / SHOWN_WIDTH


def narrow_width(width_cells: float) -> float:
    """The least width of a row or column left narrow: its big digits stay legible."""
    return legible_height(width_cells) / VALUE_H


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

    def mark_scale(self, r: int, c: int) -> float:
        """The scale of a candidate mark in cell (r, c): its cell's when shown whole, else the
        full scale (a narrow cell's marks keep legible digits)."""
        return self.scale(r, c) if self.whole(r, c) else self.full

    def places(self, marks: Iterable[Cand]) -> dict[Cand, Point]:
        """Where each candidate mark is drawn, in view units: at its candidate's spot in a cell
        shown whole; in a narrow cell, the cell's marks in value order, evenly spread along
        its longer side or its diagonal (whichever leaves them further apart), at the full
        scale, so that no two hide each other's digit when the cell has room for them."""
        n = self.n
        out: dict[Cand, Point] = {}
        narrow: dict[tuple[int, int], list[int]] = {}
        for r, c, v in marks:
            if self.whole(r, c):
                out[r, c, v] = self.point(spot(n, r, c, v))
            else:
                narrow.setdefault((r, c), []).append(v)
        for (r, c), values in narrow.items():
            values = sorted(set(values))
            x, y, w, h = self.rect(c, r, c + 1, r + 1)
            k = len(values)
            # the three layouts and how far apart they leave two neighbouring marks
            ways = [(w / k, 1.0, 0.0), (h / k, 0.0, 1.0), (math.hypot(w, h) / k, 1.0, 1.0)]
            _, fx, fy = max(ways, key=lambda t: t[0])
            for i, v in enumerate(values):
                t = (i + 0.5) / k
                out[r, c, v] = (x + w * (t if fx else 0.5), y + h * (t if fy else 0.5))
        return out

    def nearest(self, p: Point) -> Cand:
        """The candidate whose spot is nearest to ``p`` (grid units): the candidate a link's
        end starts at."""
        n = self.n
        r, c = min(max(int(p[1]), 0), n - 1), min(max(int(p[0]), 0), n - 1)
        v = min(range(1, n + 1), key=lambda v: math.dist(spot(n, r, c, v), p))
        return r, c, v

    def disk(self, r: int, c: int) -> float:
        """The radius of a candidate's disk in cell (r, c), in view units."""
        return disk_r(math.isqrt(self.n)) * self.mark_scale(r, c)


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
    ``nice`` ones (context: the rest of a box) as still fit; the others narrow, never below
    ``narrow_width``. A mark whose row or column did not fit keeps its legible digit in its
    narrow cell (``View.places``); only the cell's plain candidates are left out (a step
    marking more columns than a frame shown 1024 pixels wide can hold whole: 5 on 25×25,
    10 on 16×16)."""
    full = max(1.0, needed_scale(n, width_cells) * MARGIN)
    if full <= 1.0:
        return View.plain(n)
    thin = narrow_width(width_cells)
    room = int((n - n * thin) / (full - thin))  # rows (or columns) that fit at full size
    rows: set[int] = set()
    cols: set[int] = set()
    for r, c in [*must, *nice]:  # a row may fit where its cell's column does not, and the other way round
        if len(rows) < room:
            rows.add(r)
        if len(cols) < room:
            cols.add(c)
    return View(n, _bounds(n, cols, full), _bounds(n, rows, full), full, frozenset(rows), frozenset(cols))
