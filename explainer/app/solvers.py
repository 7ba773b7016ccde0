"""``solve(puzzle, method=...)``: the solvers of issue 7, side by side.

- ``dlx`` (default): Algorithm X on dancing links (``solver.solve_dlx``).
- ``bitmask``: the engine's exact-cover search (``solver.solve_bitmask``), the
  fastest one here.
- ``backtracking``: the plain solver in the spirit of seed 002: the next empty
  cell in reading order, values 1..n, check row, column and box.
- ``backtracking-mrv``: the same, but always filling the empty cell with the
  fewest possible values (most constrained cell) - seed 002's optimised variant.
- ``ortools``, ``z3``: optional back-ends (OR-tools CP-SAT and Z3, the seeds'
  other solvers) in ``backends.py``, with the extra ``[solvers]``; without it
  they raise ``backends.MissingExtra`` (an ImportError naming the extra).

The backtracking solvers are kept for comparison (benchmarks), not for the
engine: on hard puzzles they visit millions of nodes, hence ``max_nodes``.
"""
from __future__ import annotations

from collections.abc import Callable, Sequence

from explainer.core.solver import MANY_SOLUTIONS, NO_SOLUTION, SearchLimit, solve_bitmask, solve_dlx
from explainer.model.grid import Grid, PuzzleError, UnknownNameError, geometry, parse_grid

from .backends import BACKENDS, MissingExtra, available  # noqa: F401
from .backends import SOLVE as _BACKEND_SOLVE

METHODS = ("dlx", "bitmask", "backtracking", "backtracking-mrv")
OPTIONAL_METHODS = BACKENDS  # need the extra [solvers]
ALL_METHODS = METHODS + OPTIONAL_METHODS


class _Backtracker:
    """Depth-first filling with row/column/box "used values" masks."""

    def __init__(self, n: int, values: Sequence[int], limit: int, mrv: bool, max_nodes: int | None) -> None:
        geo = geometry(n)
        self.n, self.full = n, geo.full
        self.grid = list(values)
        self.row_of, self.col_of, self.box_of = geo.row_of, geo.col_of, geo.box_of
        self.rows, self.cols, self.boxes = [0] * n, [0] * n, [0] * n
        self.consistent = True
        for c, v in enumerate(self.grid):
            if v:
                bit = 1 << (v - 1)
                r, k, b = self.row_of[c], self.col_of[c], self.box_of[c]
                if (self.rows[r] | self.cols[k] | self.boxes[b]) & bit:
                    self.consistent = False  # clashing givens: no solution
                self.rows[r] |= bit
                self.cols[k] |= bit
                self.boxes[b] |= bit
        self.empty = [c for c, v in enumerate(self.grid) if not v]
        self.limit, self.mrv, self.max_nodes = limit, mrv, max_nodes
        self.nodes = 0
        self.solutions: list[list[int]] = []

    def free(self, c: int) -> int:
        """Value mask of what cell c may still hold."""
        return self.full & ~(self.rows[self.row_of[c]] | self.cols[self.col_of[c]] | self.boxes[self.box_of[c]])

    def run(self) -> list[list[int]]:
        if self.consistent:
            self.fill(0)
        return self.solutions

    def pick(self, depth: int) -> int:
        """Index in ``empty`` of the next cell: reading order, or fewest options."""
        if not self.mrv:
            return depth
        best, best_count = depth, self.n + 1
        for i in range(depth, len(self.empty)):
            count = self.free(self.empty[i]).bit_count()
            if count < best_count:
                best, best_count = i, count
                if count <= 1:
                    break
        return best

    def fill(self, depth: int) -> None:
        self.nodes += 1
        if self.max_nodes is not None and self.nodes > self.max_nodes:
            raise SearchLimit(self.nodes)
        if depth == len(self.empty):
            self.solutions.append(self.grid[:])
            return
        empty = self.empty
        i = self.pick(depth)
        empty[depth], empty[i] = empty[i], empty[depth]
        c = empty[depth]
        r, k, b = self.row_of[c], self.col_of[c], self.box_of[c]
        options = self.free(c)
        while options and len(self.solutions) < self.limit:
            bit = options & -options
            options ^= bit
            self.grid[c] = bit.bit_length()
            self.rows[r] |= bit
            self.cols[k] |= bit
            self.boxes[b] |= bit
            self.fill(depth + 1)
            self.rows[r] ^= bit
            self.cols[k] ^= bit
            self.boxes[b] ^= bit
        self.grid[c] = 0
        empty[depth], empty[i] = empty[i], empty[depth]


def solve_backtracking(n: int, values: Sequence[int], limit: int = 2, *, mrv: bool = False,
                       max_nodes: int | None = None) -> list[list[int]]:
    """Up to ``limit`` solutions by plain backtracking (``mrv``: most constrained cell first)."""
    return _Backtracker(n, values, limit, mrv, max_nodes).run()


def _method(method: str) -> Callable[..., list[list[int]]]:
    table: dict[str, Callable[..., list[list[int]]]] = {
        "dlx": lambda n, values, limit, max_nodes: solve_dlx(n, values, limit),
        "bitmask": lambda n, values, limit, max_nodes: solve_bitmask(n, values, limit, max_nodes=max_nodes),
        "backtracking": lambda n, values, limit, max_nodes: solve_backtracking(
            n, values, limit, max_nodes=max_nodes),
        "backtracking-mrv": lambda n, values, limit, max_nodes: solve_backtracking(
            n, values, limit, mrv=True, max_nodes=max_nodes),
    }
    for name, backend in _BACKEND_SOLVE.items():  # no node budget there
        table[name] = lambda n, values, limit, max_nodes, backend=backend: backend(n, values, limit)
    try:
        return table[method]
    except KeyError:
        raise UnknownNameError(f"unknown method {method!r} (choose from {', '.join(ALL_METHODS)})") from None


def solve(puzzle: Grid | str | Sequence[Sequence[int]], method: str = "dlx", *, where: str = "",
          unique: bool = True, max_nodes: int | None = None) -> Grid:
    """The solution of ``puzzle`` found by ``method``.

    With ``unique`` (the default) the search goes on to a second solution, so
    an ambiguous puzzle is an error rather than an arbitrary answer; without
    it the first solution is returned (what seed 002's benchmark times).
    Raises PuzzleError for bad puzzles, SearchLimit past ``max_nodes``,
    MissingExtra for ``ortools``/``z3`` without the extra ``[solvers]``.
    """
    grid = parse_grid(puzzle, where)
    solutions = _method(method)(grid.n, grid.values, 2 if unique else 1, max_nodes)
    if not solutions:
        raise PuzzleError(NO_SOLUTION, where)
    if len(solutions) > 1:
        raise PuzzleError(MANY_SOLUTIONS, where)
    return Grid(grid.n, tuple(solutions[0]))
