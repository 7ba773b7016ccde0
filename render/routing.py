"""Routing lines (chain links, proof arrows) around the digits they must not cross.

Pure Python, grid units (x = column, y = row, a cell is 1×1). Every digit a
line must not cross is an axis-aligned box inside its cell: a big given or
placed value (``heavy``) or a small candidate (``light``). A route is a
straight segment ``(a, b)``, a quadratic Bézier ``(a, ctrl, b)`` or, as a
last resort, two quadratic pieces ``(a, c1, w, c2, b)`` through a waypoint;
``route`` returns the first clear one in order of how little it bends, or the
least bad one when none is clear (big digits weigh far more than candidates).

Hit tests look only at the cell each sample falls in (every box lies inside
its cell), so a route costs a few hundred lookups, whatever the grid size.

The hot paths have a compiled twin, ``explainer/core/_route.c`` (``Obstacles.clear`` and
``cost``, ``hides_grid_line``, ``lattice_route`` and the search for a clear route in ``route``),
used when it is built and the pure path is not forced (``explainer.core.load``); it reads the
boxes where this module keeps them and gives the same routes, point for point and float for
float (tests/render/test_routing_compiled.py): pictures do not depend on which path drew them.
"""
from __future__ import annotations

import math
from collections.abc import Callable, Hashable, Iterable, Iterator, Sequence
from collections.abc import Set as AbstractSet
from functools import lru_cache

from explainer.core import load

from .shapes import spot
from .sizes import VALUE_H, VALUE_W, cand_h, disk_r

Point = tuple[float, float]
Keys = AbstractSet[Hashable]  # obstacles a route may cross (its own ends, the digits it passes over)

HEAVY = 1000  # a line across a big digit
MARKED = 50   # a link across a marked cell it does not join (it would read as joining it)
LIGHT = 1     # a line across a candidate

_C = load("_route")

Box = tuple[float, float, float, float, int, Hashable]  # x, y, half width, half height, weight, key


class Obstacles:
    """Boxes a line must not cross, bucketed by cell."""

    def __init__(self, n: int) -> None:
        self.n = n
        self.m = math.isqrt(n)
        self.cells: dict[tuple[int, int], list[Box]] = {}
        # the cells' box lists by index r·n + c, for ``clear`` (made on first use)
        self._by_index: list[list[Box]] | None = None
        # the cells whose lists are shared with a copy (``copy``): read, never added to (a box
        # added there goes into a list of this object's own, made then)
        self._shared: set[tuple[int, int]] = set()

    def _boxes(self, cell: tuple[int, int]) -> list[Box]:
        """``cell``'s list of boxes to add to: its own (a shared one copied first, a missing one
        made), in ``_by_index`` too once that is made."""
        boxes = self.cells.get(cell)
        if boxes is not None and cell not in self._shared:
            return boxes
        boxes = self.cells[cell] = [] if boxes is None else list(boxes)
        self._shared.discard(cell)
        r, c = cell
        n = self.n
        if self._by_index is not None and 0 <= r < n and 0 <= c < n:
            self._by_index[r * n + c] = boxes
        return boxes

    def add(self, x: float, y: float, hw: float, hh: float, weight: int, key: Hashable = None) -> None:
        self._boxes((int(y), int(x))).append((x, y, hw, hh, weight, key))

    def clear(self, pts: Sequence[Point], ignore: Keys = frozenset()) -> bool:
        """``cost(pts, ignore, stop=0)[0] == 0``: the same samples and the same comparisons,
        inlined for one straight or curved piece (routing a proof's arrows asks this thousands
        of times, and the page's hint waits for it; a cell's boxes by index, no generator).
        Longer routes through ``cost``."""
        if _C is not None:
            return bool(_C.clear(self._index(), self.n, self.m, pts, ignore))
        if len(pts) > 3:
            return self.cost(pts, ignore, stop=0)[0] == 0
        n = self.n
        boxes = self._index()
        curved = len(pts) == 3
        # the length as ``cost`` sums it (0 + each piece's, in order: the same float)
        length = 0 + math.dist(pts[0], pts[1]) + (math.dist(pts[1], pts[2]) if curved else 0.0)
        k = max(6, int(length * 10 * self.m))
        (ax, ay), (bx, by) = pts[0], pts[-1]
        if curved:
            cx, cy = pts[1]
            for i in range(1, k):
                t = i / k
                u = 1 - t
                x, y = u * u * ax + 2 * u * t * cx + t * t * bx, u * u * ay + 2 * u * t * cy + t * t * by
                if 0 <= x < n and 0 <= y < n:
                    for ox, oy, hw, hh, _, key in boxes[int(y) * n + int(x)]:
                        # -hw < d < hw: abs(d) < hw without the call (the same test)
                        if -hw < x - ox < hw and -hh < y - oy < hh and key not in ignore:
                            return False
            return True
        dx, dy = bx - ax, by - ay
        for i in range(1, k):
            t = i / k
            x, y = ax + dx * t, ay + dy * t
            if 0 <= x < n and 0 <= y < n:
                for ox, oy, hw, hh, _, key in boxes[int(y) * n + int(x)]:
                    if -hw < x - ox < hw and -hh < y - oy < hh and key not in ignore:
                        return False
        return True

    def _index(self) -> list[list[Box]]:
        """The cells' box lists by index r·n + c: the cells' own lists (made on first use), so
        boxes added later are in them too."""
        if self._by_index is None:
            n = self.n
            self._by_index = [self.cells.setdefault((r, c), []) for r in range(n) for c in range(n)]
        return self._by_index

    def add_value(self, r: int, c: int, key: Hashable = None) -> None:
        """A big digit plus the line's half width."""
        self.add(c + 0.5, r + 0.5, VALUE_W / 2 + 0.025, VALUE_H / 2 + 0.015, HEAVY, key if key is not None else (r, c))

    def add_cell(self, r: int, c: int, key: Hashable) -> None:
        """A cell the step marks, for the links that do not join it (issue 41: a wxyz wing's
        arc through a pincer and over the removed cell read as a link between them); its
        border stays free, so a line may still pass between two marked cells."""
        self.add(c + 0.5, r + 0.5, 0.42, 0.42, MARKED, key)

    def copy(self) -> Obstacles:
        """The same boxes (boxes added to the copy stay in it, and the other way round). The
        lists are shared until one side adds to a cell (``_boxes``): a proof's parts each route
        over a copy of their grid's obstacles and add a few boxes (25x25-hard: 1,188 copies of
        625 lists each, which cost about 1 ms a part when every list was copied)."""
        out = Obstacles(self.n)
        index = self._index()  # every cell of the grid in ``cells`` first
        out.cells = dict(self.cells)
        out._by_index = list(index)
        self._shared = set(self.cells)
        out._shared = set(self.cells)
        return out

    def add_candidate(self, x: float, y: float, key: Hashable) -> None:
        m = self.m
        h = cand_h(m)
        self.add(x, y, 0.36 * h + 0.02, 0.5 * h + 0.02, LIGHT, key)

    def add_plain_candidate(self, r: int, c: int, v: int) -> None:
        """``add_candidate`` at candidate v's spot in cell (r, c), keyed (r, c, v): the same
        box, made once for the grid size (a frame adds every candidate of the grid)."""
        cell, box = _candidate_box(self.n, r, c, v)
        self._boxes(cell).append(box)

    def add_plain_candidates(self, r: int, c: int, mask: int) -> None:
        """``add_plain_candidate`` for every candidate of ``mask`` (bit v - 1: candidate v) in
        cell (r, c), in value order: the cell's boxes made once for the grid size and mask."""
        for cell, boxes in _candidate_boxes(self.n, r, c, mask):
            self._boxes(cell).extend(boxes)

    def cost(self, pts: Sequence[Point], ignore: Keys = frozenset(),
             stop: int | None = None) -> tuple[int, set[Hashable]]:
        """(total weight of the boxes the route crosses, their keys); stops early above ``stop``."""
        if _C is not None:
            return _C.cost(self._index(), self.n, self.m, pts, ignore, stop)  # type: ignore[no-any-return]
        hit: set[Hashable] = set()
        total = 0
        n = self.n
        cells = self.cells
        for x, y in iter_sample(pts, self.m):
            if not (0 <= x < n and 0 <= y < n):
                continue
            for bx, by, hw, hh, w, key in cells.get((int(y), int(x)), ()):
                if key in ignore or key in hit:
                    continue
                if abs(x - bx) < hw and abs(y - by) < hh:
                    hit.add(key)
                    total += w
                    if stop is not None and total > stop:
                        return total, hit
        return total, hit


@lru_cache(maxsize=1 << 16)
def _candidate_box(n: int, r: int, c: int, v: int) -> tuple[tuple[int, int], Box]:
    """The cell and the box of ``Obstacles.add_candidate`` for candidate v of cell (r, c)."""
    x, y = spot(n, r, c, v)
    h = cand_h(math.isqrt(n))
    return (int(y), int(x)), (x, y, 0.36 * h + 0.02, 0.5 * h + 0.02, LIGHT, (r, c, v))


@lru_cache(maxsize=1 << 16)
def _candidate_boxes(n: int, r: int, c: int, mask: int) -> tuple[tuple[tuple[int, int], tuple[Box, ...]], ...]:
    """The boxes of ``Obstacles.add_plain_candidates``, by cell, in value order."""
    by_cell: dict[tuple[int, int], list[Box]] = {}
    v = 1
    while mask:
        if mask & 1:
            cell, box = _candidate_box(n, r, c, v)
            by_cell.setdefault(cell, []).append(box)
        mask >>= 1
        v += 1
    return tuple((cell, tuple(boxes)) for cell, boxes in by_cell.items())


def iter_sample(pts: Sequence[Point], m: int = 3) -> Iterator[Point]:
    """Points along a route, 10·m per cell of length, ends excluded (lazily: a hit
    test stops at the first box it meets)."""
    pieces = [(pts[0], pts[1])] if len(pts) == 2 else [tuple(pts[i:i + 3]) for i in range(0, len(pts) - 2, 2)]
    last = len(pieces) - 1
    for j, piece in enumerate(pieces):
        length = sum(math.dist(piece[i], piece[i + 1]) for i in range(len(piece) - 1))
        k = max(6, int(length * 10 * m))
        if len(piece) == 2:
            (ax, ay), (bx, by) = piece
            dx, dy = bx - ax, by - ay
            for i in range(1, k):
                t = i / k
                yield ax + dx * t, ay + dy * t
        else:
            (ax, ay), (cx, cy), (bx, by) = piece
            for i in range(1, k):
                t = i / k
                u = 1 - t
                yield u * u * ax + 2 * u * t * cx + t * t * bx, u * u * ay + 2 * u * t * cy + t * t * by
        if j < last:
            yield piece[-1]  # the far end of the last piece sits on the joined digit


def sample(pts: Sequence[Point], m: int = 3) -> list[Point]:
    """``iter_sample`` as a list."""
    return list(iter_sample(pts, m))


def hides_grid_line(pts: Sequence[Point], m: int = 3, near: float = 0.06, run: float = 0.6) -> bool:
    """Does the route run along a grid line (within ``near``) for more than ``run`` cells?"""
    if _C is not None:
        return bool(_C.hides_grid_line(pts, m, near, run))
    pts_s = [pts[0]] + sample(pts, m) + [pts[-1]]
    for axis in (0, 1):
        start = None
        line = None
        for p in pts_s:
            v = p[axis]
            k = round(v)
            if abs(v - k) < near and (line is None or k == line):
                if start is None:
                    start, line = p, k
                elif abs(p[1 - axis] - start[1 - axis]) > run:
                    return True
            else:
                start, line = None, None
    return False


def _through(a: Point, b: Point, w: Point, t: float) -> Point:
    """Control point of the quadratic a→b that passes through w at parameter t."""
    u = 1 - t
    k = 2 * t * u
    return ((w[0] - u * u * a[0] - t * t * b[0]) / k, (w[1] - u * u * a[1] - t * t * b[1]) / k)


def candidates(a: Point, b: Point, n: int, corners: bool = True) -> Iterable[tuple[Point, ...]]:
    """Routes from a to b, from straight to most bent."""
    yield (a, b)
    ax, ay = a
    bx, by = b
    dx, dy = bx - ax, by - ay
    length = math.hypot(dx, dy) or 1.0
    nx, ny = -dy / length, dx / length
    # still straight, but leaving and entering the two disks off centre: a line
    # that would graze a digit passes beside it
    r = disk_r(math.isqrt(n))
    for k in (0.4, 0.7):
        for s1, s2 in ((1, 1), (-1, -1), (1, 0), (-1, 0), (0, 1), (0, -1), (1, -1), (-1, 1)):
            d1, d2 = s1 * k * r, s2 * k * r
            yield ((ax + nx * d1, ay + ny * d1), (bx + nx * d2, by + ny * d2))
    # symmetric then lopsided bends, in growing offsets (grid units, not a fraction of the
    # length: a long link needs no bigger detour than a short one to clear one digit)
    offs = [0.12, 0.2, 0.3, 0.42, 0.55, 0.7, 0.9, 1.15, 1.45]
    for off in offs:
        for sgn in (1, -1):
            for t in (0.5, 0.3, 0.7):
                w = (ax + dx * t + nx * off * sgn, ay + dy * t + ny * off * sgn)
                yield (a, _through(a, b, w, t), b)
    if not corners:
        return
    # two pieces through a waypoint: the grid corners near the segment
    lo_x, hi_x = int(min(ax, bx)) - 1, int(max(ax, bx)) + 2
    lo_y, hi_y = int(min(ay, by)) - 1, int(max(ay, by)) + 2
    waypoints: list[tuple[float, Point]] = []
    for gx in range(max(1, lo_x), min(n - 1, hi_x) + 1):
        for gy in range(max(1, lo_y), min(n - 1, hi_y) + 1):
            w = (float(gx), float(gy))
            detour = math.dist(a, w) + math.dist(w, b) - length
            waypoints.append((detour, w))
    waypoints.sort()
    for _, w in waypoints[:24]:
        yield (a, ((a[0] + w[0]) / 2, (a[1] + w[1]) / 2), w, ((w[0] + b[0]) / 2, (w[1] + b[1]) / 2), b)


def route(a: Point, b: Point, obstacles: Obstacles, ignore: Keys = frozenset()) -> tuple[Point, ...]:
    """The least bent route from a to b clear of every obstacle not in ``ignore``
    (or, if none is clear, the one crossing the fewest: big digits first)."""
    n = obstacles.n
    if _C is not None:
        found = _C.route(a, b, obstacles._index(), n, obstacles.m, ignore, disk_r(obstacles.m))
    else:
        found = _clear_route(a, b, obstacles, ignore)
    if found is not None:
        return found  # type: ignore[no-any-return]
    best: tuple[Point, ...] = (a, b)
    best_cost: int | None = None
    for pts in candidates(a, b, n):  # no clear way at all: the least bad
        cost, _ = obstacles.cost(pts, ignore, stop=best_cost)
        if best_cost is None or cost < best_cost:
            best, best_cost = pts, cost
    return best


def _clear_route(a: Point, b: Point, obstacles: Obstacles, ignore: Keys) -> tuple[Point, ...] | None:
    """The first clear route of ``candidates`` (no corners) that stays on the grid and off its
    lines, else ``lattice_route``'s (None: no clear route)."""
    n = obstacles.n
    for pts in candidates(a, b, n, corners=False):
        if len(pts) > 2 and not _on_grid(pts[:3], n):
            continue  # stay on the grid
        if obstacles.clear(pts, ignore) and not hides_grid_line(pts, obstacles.m):
            return pts  # the first clear one: only clear ones matter here, so stop at the first hit
    return lattice_route(a, b, obstacles, ignore)


def _on_grid(piece: Sequence[Point], n: int, margin: float = 0.08) -> bool:
    """Every sample of a quadratic piece (``sample(piece, 1)``) at least ``margin`` inside the
    grid. The curve lies in the triangle of its three points: when they are inside (by more
    than a rounding error), so is every sample, and none is computed; else the samples say."""
    lo, hi = margin + 1e-9, n - margin - 1e-9
    if all(lo <= x <= hi and lo <= y <= hi for x, y in piece):
        return True
    return all(margin <= x <= n - margin and margin <= y <= n - margin for x, y in sample(piece, 1))


def _blocked(obstacles: Obstacles, x: float, y: float, ignore: Keys, pad: float) -> bool:
    for bx, by, hw, hh, _, key in obstacles.cells.get((int(y), int(x)), ()):
        if key not in ignore and abs(x - bx) < hw + pad and abs(y - by) < hh + pad:
            return True
    return False


def lattice_route(a: Point, b: Point, obstacles: Obstacles,
                  ignore: Keys = frozenset()) -> tuple[Point, ...] | None:
    """A clear route found by A* on a lattice of 4·m points per cell (searched in
    a window around a and b), pulled taut, then smoothed into quadratic pieces
    (or kept as straight pieces if the smooth curve would touch a digit)."""
    if _C is not None:
        return _C.lattice_route(a, b, obstacles._index(), obstacles.n, obstacles.m, ignore)  # type: ignore[no-any-return]
    lattice = _Lattice(a, b, obstacles, ignore)
    path = lattice.search(a, b)
    if path is None:
        return None

    def cut(p: Point, r: Point) -> bool:
        return lattice.clear(p, r) and not hides_grid_line((p, r), obstacles.m)

    taut = _pull_taut(path, cut)
    if len(taut) == 2:
        return (a, b)
    # round the corners: each corner becomes the control point of a quadratic piece
    # starting and ending a fraction f along its two segments (f = 0.5: all curve)
    for f in (0.5, 0.35, 0.2, 0.0):
        pts = _rounded(taut, f)
        if obstacles.clear(pts, ignore):
            return pts
    return _rounded(taut, 0.0)


class _Lattice:
    """The lattice a route is searched on: 4·m points per cell, in a window of two cells around
    a and b, each point free unless it lies on an obstacle (a route may cross ``ignore``)."""

    def __init__(self, a: Point, b: Point, obstacles: Obstacles, ignore: Keys) -> None:
        n, m = obstacles.n, obstacles.m
        self.n, self.obstacles, self.ignore = n, obstacles, ignore
        # fine enough to find the narrow lane between a cell's last candidate row and its edge
        self.q = q = 4 * m
        self.step = 1 / q
        self.x0 = max(0, int(min(a[0], b[0])) - 2)
        x1 = min(n, int(max(a[0], b[0])) + 3)
        self.y0 = max(0, int(min(a[1], b[1])) - 2)
        y1 = min(n, int(max(a[1], b[1])) + 3)
        self.W, self.H = (x1 - self.x0) * q + 1, (y1 - self.y0) * q + 1
        self.free: dict[tuple[int, int], bool] = {}

    def xy(self, i: int, j: int) -> Point:
        return (self.x0 + i * self.step, self.y0 + j * self.step)

    def ok(self, i: int, j: int) -> bool:
        k = (i, j)
        v = self.free.get(k)
        if v is None:
            x, y = self.xy(i, j)
            n = self.n
            v = 0.05 <= x <= n - 0.05 and 0.05 <= y <= n - 0.05 and not _blocked(self.obstacles, x, y,
                                                                                  self.ignore, 0.01)
            self.free[k] = v
        return v

    def clear(self, p: Point, r: Point) -> bool:
        return self.obstacles.clear((p, r), self.ignore)

    def near(self, p: Point, toward: Point) -> list[tuple[int, int]]:
        """Lattice points a clear straight step from p, those facing ``toward``
        first (a route that leaves backwards loops round its own disk). In fact every one, in
        order: ``(… and ahead or behind)`` picks ``behind`` while ``ahead`` is empty, that is
        always; kept so: the pictures' routes (and the compiled twin's) are these."""
        step, xy = self.step, self.xy
        ci, cj = round((p[0] - self.x0) / step), round((p[1] - self.y0) / step)
        ahead: list[tuple[int, int]] = []
        behind: list[tuple[int, int]] = []
        tx, ty = toward[0] - p[0], toward[1] - p[1]
        for di in range(-2, 3):
            for dj in range(-2, 3):
                i, j = ci + di, cj + dj
                if 0 <= i < self.W and 0 <= j < self.H and self.ok(i, j) and self.clear(p, xy(i, j)):
                    x, y = xy(i, j)
                    ((x - p[0]) * tx + (y - p[1]) * ty >= 0 and ahead or behind).append((i, j))
        return ahead or behind

    def search(self, a: Point, b: Point) -> list[Point] | None:
        """A* from the points near a to those near b: the route's points, a and b included
        (None: no route). Running along a grid line costs ten times more (it would hide it);
        no diagonal step cuts a blocked corner."""
        import heapq

        starts, goals = self.near(a, b), set(self.near(b, a))
        if not starts or not goals:
            return None
        step, xy, ok, W, H, q = self.step, self.xy, self.ok, self.W, self.H, self.q
        bi, bj = (b[0] - self.x0) / step, (b[1] - self.y0) / step
        # the hot loop on flat indices i·H + j (lists, not dicts keyed by tuples; ordered as
        # the (i, j) pairs, so the heap breaks ties as before): the same search, the same
        # pushes in the same order, the same route. ``known``: 0 not looked at yet (``ok``
        # decides, its own cache shared with ``near``), 1 free, 2 blocked.
        far = 1e18
        known = bytearray(W * H)
        best = [far] * (W * H)
        par = [-2] * (W * H)  # -1: a start
        heap: list[tuple[float, float, int]] = []
        push, pop, hypot = heapq.heappush, heapq.heappop, math.hypot
        for i, j in starts:
            g = math.dist(a, xy(i, j)) / step
            best[i * H + j] = g
            par[i * H + j] = -1
            push(heap, (g + hypot(i - bi, j - bj), g, i * H + j))
        targets = {i * H + j for i, j in goals}

        def look(i: int, j: int) -> int:
            """A point not looked at yet: ``ok`` decides, the answer kept."""
            v = known[i * H + j] = 1 if ok(i, j) else 2
            return v

        end = -1
        while heap:
            f, g, cur = pop(heap)
            if g > best[cur]:
                continue
            if cur in targets:
                end = cur
                break
            ci, cj = divmod(cur, H)
            on_row, on_col = cj % q == 0, ci % q == 0
            for di, dj, w in _MOVES:
                ni, nj = ci + di, cj + dj
                if not (0 <= ni < W and 0 <= nj < H):
                    continue
                nxt = ni * H + nj
                if (known[nxt] or look(ni, nj)) == 2:
                    continue
                if di and dj and ((known[ni * H + cj] or look(ni, cj)) == 2 or
                                  (known[ci * H + nj] or look(ci, nj)) == 2):
                    continue  # no corner cutting
                # running along a grid line would hide it: dearer
                along = (not dj and on_row) or (not di and on_col)
                ng = g + (w * 10 if along else w)
                if ng < best[nxt]:
                    best[nxt] = ng
                    par[nxt] = cur
                    push(heap, (ng + hypot(ni - bi, nj - bj), ng, nxt))
        if end < 0:
            return None
        path = [b]
        k = end
        while k >= 0:
            path.append(xy(*divmod(k, H)))
            k = par[k]
        path.append(a)
        path.reverse()
        return path


_MOVES = ((1, 0, 1.0), (-1, 0, 1.0), (0, 1, 1.0), (0, -1, 1.0),
          (1, 1, 1.414), (1, -1, 1.414), (-1, 1, 1.414), (-1, -1, 1.414))


def _pull_taut(path: list[Point], cut: Callable[[Point, Point], bool]) -> list[Point]:
    """Keep a point only if the straight cut past it would cross something (greedy: from each
    kept point, the farthest point the straight cut reaches clear, found by doubling then halving
    the reach)."""
    taut = [path[0]]
    i = 0
    last = len(path) - 1
    while i < last:
        good, step = i + 1, 1
        while good + step <= last and cut(path[i], path[good + step]):
            good += step
            step *= 2
        bad = min(last + 1, good + step)
        while bad - good > 1:
            mid = (good + bad) // 2
            if cut(path[i], path[mid]):
                good = mid
            else:
                bad = mid
        taut.append(path[good])
        i = good
    return taut


def _rounded(taut: list[Point], f: float) -> tuple[Point, ...]:
    """A polyline as quadratic pieces (a, c, b, c, b …): straight pieces have their
    midpoint as control; with f > 0 each corner is rounded off."""
    def lerp(p: Point, q: Point, t: float) -> Point:
        return (p[0] + (q[0] - p[0]) * t, (p[1] + (q[1] - p[1]) * t))

    out: list[Point] = [taut[0]]

    def line_to(q: Point) -> None:
        p = out[-1]
        if math.dist(p, q) > 1e-9:
            out.extend([lerp(p, q, 0.5), q])

    for k in range(1, len(taut) - 1):
        prev, corner, nxt = taut[k - 1], taut[k], taut[k + 1]
        if f <= 0:
            line_to(corner)
            continue
        line_to(lerp(corner, prev, f))
        out.extend([corner, lerp(corner, nxt, f)])
    line_to(taut[-1])
    return tuple(out)
