"""The engine's exact-cover solver: counts solutions and proves uniqueness.

Sudoku is an exact-cover problem: every cell needs one value and every
(house, value) pair needs one cell. Both kinds of constraint are columns of
the cover; a candidate (cell, value) covers one cell column and three
house-value columns. Two searches over that cover live here:

- ``bitmask`` (the engine's default, the fast one): one cell mask per value
  (``pos[v]`` = cells where v is placed or still possible). A cell column
  with one option is a naked single, a house-value column with one option a
  hidden single; both are propagated to a fixed point together with locked
  candidates (a house-value whose options lie in one line-box intersection
  clears the rest of the crossing house), then the search branches on a
  column with the fewest options, as Algorithm X does (a bivalue cell, else
  the smallest house-value or cell column; among bivalue cells the one with
  most open peers). Counting candidates per cell is done with bit-sliced
  counters over the n value masks, so finding naked singles and bivalue
  cells costs O(n) big-int operations instead of a loop over cells, and
  only houses that lost a cell since their last scan are rescanned.
  Measured on top1465 (limit=2): singles only, 270 nodes and ~11 ms median
  a puzzle; with locked candidates 69 nodes; with the open-peers tie-break
  27 nodes and under 2 ms.
- ``dlx``: Knuth's Algorithm X on dancing links (arrays of links, not
  objects), kept because issue 7 asks for it and as an independent check.

Both stop as soon as ``limit`` solutions are found: limit=2 proves that a
puzzle has exactly one solution.
"""
from __future__ import annotations

import random
from array import array
from collections.abc import Iterable, Sequence
from functools import cache

from explainer.model.grid import Grid, PuzzleError, geometry

from . import load

# The compiled twin of the bitmask search (explainer.core._propagate.solve): the same choices in
# the same order, propagating with the engine's one singles propagator; the Python search below
# is its pure twin, and the one that takes a random generator.
_C = load("_propagate")

NO_SOLUTION = "the puzzle has no solution"
MANY_SOLUTIONS = "the puzzle has more than one solution"


class SearchLimit(Exception):
    """The search used more nodes than allowed (generator retries instead)."""


# ---- tables ---------------------------------------------------------------------

@cache
def _tables(n: int) -> tuple[tuple[int, ...], tuple[int, ...], int]:
    """(peer masks without the cell, house masks, all-cells mask) for size n."""
    geo = geometry(n)
    return geo.peer_mask, geo.house_mask, geo.all_cells


HouseSegments = tuple[int, tuple[tuple[int, int], ...]]  # a house's cell mask and its segments


@cache
def _house_segments(n: int) -> tuple[HouseSegments, ...]:
    """For each house: (its cell mask, its (intersection, rest of the crossing house) pairs).

    A line's intersections pair with the rest of their box; a box's with the
    rest of their row or column: what a locked candidate would clear.
    """
    geo = geometry(n)
    pairs: list[list[tuple[int, int]]] = [[] for _ in range(3 * n)]
    for line, box, seg in geo.intersections:
        pairs[line].append((seg, geo.house_mask[box] & ~seg))
        pairs[box].append((seg, geo.house_mask[line] & ~seg))
    return tuple((geo.house_mask[h], tuple(pairs[h])) for h in range(3 * n))


@cache
def _cell_house_segments(n: int) -> tuple[tuple[HouseSegments, ...], ...]:
    """For each cell, the ``_house_segments`` entries of its three houses."""
    segments = _house_segments(n)
    return tuple(tuple(segments[h] for h in hs) for hs in geometry(n).cell_houses)


# ---- the bitmask search -----------------------------------------------------------

class _Search:
    """One bitmask exact-cover search; state is a list ``pos`` plus ``done``.

    ``done`` is the cell mask of cells whose single value has already been
    removed from its peers: the propagation never does that twice.
    """

    __slots__ = ("n", "peer", "houses", "all", "limit", "solutions", "rng", "nodes", "max_nodes",
                 "cell_houses", "few", "house_segments", "use_locked")

    def __init__(self, n: int, limit: int, rng: random.Random | None, max_nodes: int | None) -> None:
        self.n = n
        self.peer, self.houses, self.all = _tables(n)
        self.house_segments = _house_segments(n)
        self.cell_houses = _cell_house_segments(n)
        self.use_locked = True  # locked candidates on (a switch to measure their worth)
        self.few = n  # above this many lost cells, scanning every house is cheaper
        self.limit = limit
        self.solutions: list[list[int]] = []
        self.rng = rng
        self.nodes = 0
        self.max_nodes = max_nodes

    def propagate(self, pos: list[int], seen: list[int], done: int) -> tuple[int, int, int]:
        """Naked singles, hidden singles and locked candidates to a fixed point.

        Returns (done, bivalue cells, 3-candidate cells); done = -1 on a
        contradiction (a cell or a house-value column without option).
        ``seen[v]`` is ``pos[v]`` when v's houses were last scanned (-1:
        never): a house can only gain a hidden single by losing a cell.
        """
        n, peer, full = self.n, self.peer, self.all
        houses, cell_houses = self.house_segments, self.cell_houses
        few, use_locked = self.few, self.use_locked
        values = range(n)
        while True:
            # Bit-sliced counters: t1 = cells with >=1 candidate, t2 with >=2.
            t1 = t2 = 0
            for p in pos:
                t2 |= t1 & p
                t1 |= p
            if t1 != full:
                return -1, 0, 0
            new = t1 & ~t2 & ~done
            if new:
                done |= new
                for v in values:
                    s = new & pos[v]
                    if s:
                        p = pos[v]
                        while s:
                            low = s & -s
                            p &= ~peer[low.bit_length() - 1]
                            s ^= low
                        pos[v] = p
                continue
            if done == full:
                return done, 0, 0
            claimed = 0  # hidden-single cells found this round
            claims = []  # (value, its claimed cells)
            locked = False  # a locked candidate removed something
            for v in values:
                p = pos[v]
                old = seen[v]
                if old == p:
                    continue  # no cell of v lost since v was last scanned
                gone = old & ~p
                if old >= 0 and gone.bit_count() <= few:
                    # Only houses that lost a cell can have a new hidden single.
                    lost: list[HouseSegments] = []
                    while gone:
                        low = gone & -gone
                        lost += cell_houses[low.bit_length() - 1]
                        gone ^= low
                    scan: Sequence[HouseSegments] = lost
                else:
                    scan = houses
                start = p
                mine = 0
                for hm, segments in scan:
                    x = p & hm
                    if not x & (x - 1):
                        if not x:
                            return -1, 0, 0
                        if not x & done and not x & mine:
                            if x & claimed:
                                return -1, 0, 0  # the cell is another value's hidden single
                            mine |= x
                            p &= ~peer[x.bit_length() - 1]
                    elif use_locked:
                        # Locked candidate: v's places in this house all lie in one
                        # line-box intersection, so v leaves the rest of the other house.
                        for seg, rest in segments:
                            if not x & ~seg:
                                if p & rest:
                                    p &= ~rest
                                    locked = True
                                break
                pos[v] = p
                seen[v] = start  # what changed during this scan is rescanned next round
                if mine:
                    claimed |= mine
                    claims.append((v, mine))
            if not claimed and not locked:
                # Fixed point: now count cells with 3 and 4+ candidates for the choice.
                t3 = t4 = 0
                t1 = t2 = 0
                for p in pos:
                    t4 |= t3 & p
                    t3 |= t2 & p
                    t2 |= t1 & p
                    t1 |= p
                return done, t2 & ~t3, t3 & ~t4
            # Each claimed cell keeps only the value whose house needed it.
            keep = ~claimed
            for w in values:
                pos[w] &= keep
            for v, mine in claims:
                pos[v] |= mine
            done |= claimed

    def search(self, pos: list[int], seen: list[int], done: int) -> None:
        """Depth-first search; fills ``self.solutions`` up to ``limit``."""
        self.nodes += 1
        if self.max_nodes is not None and self.nodes > self.max_nodes:
            raise SearchLimit(self.nodes)
        done, two, three = self.propagate(pos, seen, done)
        if done < 0:
            return
        if done == self.all:
            self.solutions.append(self.values(pos))
            return
        if not two:
            # No bivalue cell: a house-value column may have fewer options than
            # any cell column (Algorithm X looks at both kinds).
            count, v, places = self.fewest_places(pos, done)
            if count < (3 if three else 4):
                self.branch(pos, seen, done, [(places_bit, v) for places_bit in _bit_list(places)])
                return
        cell = self.choose(pos, done, two, three)
        bit = 1 << cell
        self.branch(pos, seen, done, [(bit, v) for v in range(self.n) if pos[v] & bit])

    def branch(self, pos: list[int], seen: list[int], done: int, options: list[tuple[int, int]]) -> None:
        """Try each (cell bit, value) option in turn, stopping at ``limit`` solutions."""
        if self.rng is not None:
            self.rng.shuffle(options)
        for bit, v in options:
            child = [p & ~bit for p in pos]
            child[v] |= bit
            self.search(child, seen[:], done)
            if len(self.solutions) >= self.limit:
                return

    def fewest_places(self, pos: list[int], done: int) -> tuple[int, int, int]:
        """(count, value, cell mask) of the house-value column with the fewest open places."""
        best = (self.n + 1, -1, 0)
        open_cells = ~done
        for v, p in enumerate(pos):
            p &= open_cells
            if not p:
                continue
            for hm in self.houses:
                x = p & hm
                if x:
                    k = x.bit_count()
                    if k < best[0]:
                        best = (k, v, x)
                        if k == 2:
                            return best
        return best

    def choose(self, pos: list[int], done: int, two: int, three: int) -> int:
        """A cell column with the fewest options (bivalue first).

        Among equals, the cell with the most open peers: its choice settles
        the most other cells (measured on top1465: 27 nodes a puzzle instead
        of 69 for the lowest-index cell).
        """
        best = two or three
        if not best:
            return self._fewest(pos, done)
        if self.rng is not None:
            return self._random_bit(best)
        peer, open_cells = self.peer, ~done
        best_cell, best_score = -1, -1
        while best:
            low = best & -best
            best ^= low
            c = low.bit_length() - 1
            score = (peer[c] & open_cells).bit_count()
            if score > best_score:
                best_cell, best_score = c, score
        return best_cell

    def _fewest(self, pos: list[int], done: int) -> int:
        """The open cell with the fewest candidates (only when none has 2 or 3)."""
        best_cell, best_count = -1, self.n + 1
        s = self.all & ~done
        while s:
            low = s & -s
            s ^= low
            count = sum(1 for p in pos if p & low)
            if count < best_count:
                best_cell, best_count = low.bit_length() - 1, count
        return best_cell

    def _random_bit(self, mask: int) -> int:
        count = mask.bit_count()
        k = self.rng.randrange(count) if self.rng is not None else 0
        for _ in range(k):
            mask &= mask - 1
        return (mask & -mask).bit_length() - 1

    def values(self, pos: list[int]) -> list[int]:
        out = [0] * (self.n * self.n)
        for v, p in enumerate(pos, 1):
            while p:
                low = p & -p
                out[low.bit_length() - 1] = v
                p ^= low
        return out


def _bit_list(mask: int) -> list[int]:
    """The single-bit masks of ``mask``, lowest first."""
    out = []
    while mask:
        low = mask & -mask
        out.append(low)
        mask ^= low
    return out


def _start(n: int, values: Sequence[int], forbid: Iterable[tuple[int, int]] = ()) -> list[int]:
    """Initial ``pos``: givens keep only their value; forbidden (cell, value) removed."""
    if len(values) != n * n:
        raise PuzzleError(f"{len(values)} values for a {n}×{n} grid")
    _, _, full = _tables(n)
    pos = [full] * n
    for c, v in enumerate(values):
        if v:
            bit = ~(1 << c)
            for w in range(n):
                if w != v - 1:
                    pos[w] &= bit
    for c, v in forbid:
        pos[v - 1] &= ~(1 << c)
    return pos


def solve_bitmask(
    n: int,
    values: Sequence[int],
    limit: int = 2,
    *,
    forbid: Iterable[tuple[int, int]] = (),
    rng: random.Random | None = None,
    max_nodes: int | None = None,
) -> list[list[int]]:
    """Up to ``limit`` solutions by the bitmask search.

    ``forbid`` removes (cell, value) candidates: the generator asks "is there
    a solution where this dug cell is not its old value?", half the work of
    counting to two. ``rng`` randomises branching (random full grids).
    """
    if _C is not None and rng is None:
        if len(values) != n * n:
            raise PuzzleError(f"{len(values)} values for a {n}×{n} grid")
        pairs = array("H", [x for c, v in forbid for x in (c, v)])
        solutions, nodes, over = _C.solve(n, bytes(values), pairs, limit, -1 if max_nodes is None else max_nodes)
        if over:
            raise SearchLimit(nodes)
        return [list(s) for s in solutions]
    search = _Search(n, limit, rng, max_nodes)
    search.search(_start(n, values, forbid), [-1] * n, 0)
    return search.solutions


# ---- dancing links ----------------------------------------------------------------

class _Links:
    """Knuth's dancing links in parallel arrays (node i: L, R, U, D, column).

    Node 0 is the root; nodes 1..ncols are column headers; the rest are the
    1s of the matrix. ``row_of`` maps a node to its (cell, value) row.
    """

    def __init__(self, ncols: int) -> None:
        self.L = list(range(-1, ncols))
        self.L[0] = ncols
        self.R = list(range(1, ncols + 2))
        self.R[ncols] = 0
        self.U = list(range(ncols + 1))
        self.D = list(range(ncols + 1))
        self.C = list(range(ncols + 1))
        self.S = [0] * (ncols + 1)
        self.row_of: list[tuple[int, int]] = [(-1, -1)] * (ncols + 1)

    def add_row(self, row: tuple[int, int], columns: Sequence[int]) -> None:
        """Append a row whose 1s are in ``columns`` (1-based header indexes)."""
        L, R, U, D, C, S = self.L, self.R, self.U, self.D, self.C, self.S
        first = len(L)
        for k, col in enumerate(columns):
            node = first + k
            L.append(node - 1 if k else first + len(columns) - 1)
            R.append(node + 1 if k < len(columns) - 1 else first)
            U.append(U[col])
            D.append(col)
            C.append(col)
            D[U[col]] = node
            U[col] = node
            S[col] += 1
            self.row_of.append(row)

    def cover(self, col: int) -> None:
        L, R, U, D, C, S = self.L, self.R, self.U, self.D, self.C, self.S
        R[L[col]] = R[col]
        L[R[col]] = L[col]
        i = D[col]
        while i != col:
            j = R[i]
            while j != i:
                D[U[j]] = D[j]
                U[D[j]] = U[j]
                S[C[j]] -= 1
                j = R[j]
            i = D[i]

    def uncover(self, col: int) -> None:
        L, R, U, D, C, S = self.L, self.R, self.U, self.D, self.C, self.S
        i = U[col]
        while i != col:
            j = L[i]
            while j != i:
                S[C[j]] += 1
                D[U[j]] = j
                U[D[j]] = j
                j = L[j]
            i = U[i]
        R[L[col]] = col
        L[R[col]] = col


def solve_dlx(n: int, values: Sequence[int], limit: int = 2) -> list[list[int]]:
    """Up to ``limit`` solutions by Algorithm X on dancing links.

    Columns: n² cells, then n² row-values, n² column-values, n² box-values.
    Rows are the (cell, value) candidates not already excluded by a given in
    the same house, so a given's row is the only row of its cell.
    """
    geo = geometry(n)
    if len(values) != n * n:
        raise PuzzleError(f"{len(values)} values for a {n}×{n} grid")
    nn = n * n
    links = _Links(4 * nn)
    for c in range(nn):
        r, k, b = geo.row_of[c], geo.col_of[c], geo.box_of[c]
        given = values[c]
        blocked = {values[p] for p in geo.peers[c]}
        for v in ([given] if given else range(1, n + 1)):
            if not given and v in blocked:
                continue
            x = v - 1
            links.add_row((c, v), (1 + c, 1 + nn + r * n + x, 1 + 2 * nn + k * n + x, 1 + 3 * nn + b * n + x))
    solutions: list[list[int]] = []
    chosen: list[int] = []
    L, R, D, C, S = links.L, links.R, links.D, links.C, links.S

    def search() -> None:
        if R[0] == 0:
            grid = [0] * nn
            for node in chosen:
                cell, v = links.row_of[node]
                grid[cell] = v
            solutions.append(grid)
            return
        # The column with the fewest rows (Knuth's S heuristic).
        col, size = 0, 1 << 30
        j = R[0]
        while j:
            if S[j] < size:
                col, size = j, S[j]
                if size <= 1:
                    break
            j = R[j]
        if size == 0:
            return
        links.cover(col)
        r = D[col]
        while r != col:
            chosen.append(r)
            j = R[r]
            while j != r:
                links.cover(C[j])
                j = R[j]
            search()
            j = L[r]
            while j != r:
                links.uncover(C[j])
                j = L[j]
            chosen.pop()
            if len(solutions) >= limit:
                break
            r = D[r]
        links.uncover(col)

    search()
    return solutions


# ---- the engine's API ---------------------------------------------------------------

def solve_values(n: int, values: Sequence[int], limit: int = 2, method: str = "bitmask") -> list[list[int]]:
    """Up to ``limit`` solutions (lists of n·n values), stopping at ``limit``.

    ``method`` is "bitmask" (fast, the default) or "dlx" (dancing links).
    """
    if method == "bitmask":
        return solve_bitmask(n, values, limit)
    if method == "dlx":
        return solve_dlx(n, values, limit)
    raise ValueError(f"unknown exact-cover method {method!r} (bitmask or dlx)")


def count_solutions(grid: Grid, limit: int = 2) -> int:
    """How many solutions, counting no further than ``limit``."""
    return len(solve_values(grid.n, grid.values, limit))


def unique_solution(grid: Grid, where: str = "") -> Grid:
    """The one solution of ``grid``; a PuzzleError says if there are none or several."""
    solutions = solve_values(grid.n, grid.values, 2)
    if not solutions:
        raise PuzzleError(NO_SOLUTION, where)
    if len(solutions) > 1:
        raise PuzzleError(MANY_SOLUTIONS, where)
    return Grid(grid.n, tuple(solutions[0]))
