"""How a frame places its candidates and marks so that they stay legible at class size.

A 16×16 or 25×25 grid shown 1024 pixels wide leaves a candidate digit well
under 12 pixels. A frame that marks candidates is drawn through a ``View``
(``zoomed``): every row and column keeps its size (the grid reads as a grid,
every given of one size), the marks are drawn at the scale where their digits
reach ``LEGIBLE_PX`` at ``SHOWN_WIDTH`` pixels (``full``), laid out inside
their cell (``places``); the cells the step marks show every candidate at that
scale where the smallest square grid of them fits in the cell (``packed``),
the others only their marks. Rows and columns of different sizes (``xs``,
``ys``) remain possible. The figure keeps its size, so every frame of a puzzle
has the same pixels. Pure Python: the frame maps grid units through ``x`` / ``y``.
"""
from __future__ import annotations

import math
from collections.abc import Iterable, Mapping
from dataclasses import dataclass, field

from .shapes import spot
from .sizes import disk_r, mark_h

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
    # cells whose every candidate is drawn at the full scale: the cell's candidates (in value
    # order) and the pitch of the smallest square grid holding them inside the cell (a big
    # grid's cells the step marks, where they fit: ``zoomed``)
    detail: Mapping[tuple[int, int], tuple[tuple[int, ...], float]] = field(default_factory=dict, compare=False,
                                                                          hash=False)

    @classmethod
    def plain(cls, n: int) -> View:
        b = tuple(float(i) for i in range(n + 1))
        return cls(n, b, b, 1.0, frozenset(range(n)), frozenset(range(n)))

    @property
    def uniform(self) -> bool:
        """Every row and column of the same size (the plain grid's lines and numbers)."""
        return self.xs == self.ys == tuple(float(i) for i in range(self.n + 1))

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

    def packed(self, r: int, c: int, v: int) -> Point:
        """Where candidate v of a ``detail`` cell is drawn: the cell's candidates in value
        order, row by row in the smallest square grid that holds them, ``pitch`` apart
        around the cell's centre."""
        values, pitch = self.detail[r, c]
        g = math.isqrt(len(values) - 1) + 1 if values else 1
        i, j = divmod(values.index(v) if v in values else 0, g)
        rows = (len(values) + g - 1) // g
        x, y, w, h = self.rect(c, r, c + 1, r + 1)
        return x + w / 2 + (j - (g - 1) / 2) * pitch, y + h / 2 + (i - (rows - 1) / 2) * pitch

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
            elif (r, c) in self.detail:
                out[r, c, v] = self.packed(r, c, v)
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

    def disk_scale(self, r: int, c: int) -> float:
        """The scale of a candidate's disk (and its strike) in cell (r, c): its mark's, but
        never wider than the pitch of a cell shown in detail (its digit keeps its size)."""
        k = self.mark_scale(r, c)
        if (r, c) in self.detail:
            k = min(k, PACK_DISK * self.detail[r, c][1] / disk_r(math.isqrt(self.n)))
        return k

    def disk(self, r: int, c: int) -> float:
        """The radius of a candidate's disk in cell (r, c), in view units."""
        return disk_r(math.isqrt(self.n)) * self.disk_scale(r, c)


PACK_ROOM = 0.9  # the share of a cell its packed candidates' disks may span (clear of the grid lines
                 # and of the house outlines hugging them)
PACK_DISK = 0.48  # a packed mark's disk radius, in pitches: neighbouring disks never touch
PACK_GAP = 1.1  # a pitch at least this many glyph heights: packed candidates stay apart


def zoomed(n: int, width_cells: float, detail: Mapping[tuple[int, int], Iterable[int]] | None = None) -> View:
    """The view of a big grid's frame that marks candidates: every row and column of the
    same size (the grid reads as a grid, every given of one size), its marks drawn at the
    scale where their digits reach ``LEGIBLE_PX`` when the frame is shown ``SHOWN_WIDTH``
    pixels wide. Each ``detail`` cell (a cell the step marks, with its candidates) shows
    every candidate at that scale when the smallest square grid of them fits in the cell
    (``View.packed``: up to 16 on 16×16, 4 on 25×25); another cell shows its marks alone,
    side by side (``View.places``), and its big digit; plain candidates, too small there,
    are left out. The plain grid when the candidates are legible at their own size (9×9
    and smaller)."""
    full = max(1.0, needed_scale(n, width_cells) * MARGIN)
    if full <= 1.0:
        return View.plain(n)
    b = tuple(float(i) for i in range(n + 1))
    glyph = mark_h(math.isqrt(n)) * full  # a packed candidate is drawn as high as a mark's digit
    shown: dict[tuple[int, int], tuple[tuple[int, ...], float]] = {}
    for cell, values in (detail or {}).items():
        vs = tuple(sorted(set(values)))
        g = math.isqrt(len(vs) - 1) + 1 if vs else 1
        # g rows of disks, each 2 * PACK_DISK pitches across, inside PACK_ROOM of the cell
        pitch = PACK_ROOM / (g - 1 + 2 * PACK_DISK)
        if vs and pitch >= glyph * PACK_GAP:
            shown[cell] = vs, pitch
    return View(n, b, b, full, detail=shown)
