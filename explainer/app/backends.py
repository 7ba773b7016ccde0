"""Optional solver back-ends (issue 15): Google OR-tools CP-SAT and Z3.

Both are installed with the optional extra ``[solvers]``
(``pip install 'sudoku-explainer[solvers]'``) and imported only when one of
them is asked for; without it :class:`MissingExtra` names the extra.

Both take the same model, the exact cover the DLX solver walks: a boolean
per (empty cell, candidate value), where the candidates are what the givens
leave; exactly one value per empty cell, and exactly one cell per value still
missing from each row, column and box. Same result semantics as the other
methods (``solvers.solve``): up to ``limit`` solutions, as value lists; the
second one is asked for by adding a blocking clause (not every cell as in the
first solution), so two solutions mean "more than one", none means
"no solution". Clashing givens, or a missing value with no cell left for it
in a house, give no solution without calling the back-end.

CP-SAT runs with one worker (one core, like every other method here, and
deterministic); Z3 uses its finite-domain solver (``QF_FD``), one fresh
context per call.
"""
from __future__ import annotations

import importlib
from collections.abc import Callable, Sequence
from typing import Any

from explainer.model.grid import geometry

EXTRA = "solvers"
BACKENDS = ("ortools", "z3")
# a back-end's model of one grid: (solve: the next solution's choice or None, forbid: rule a grid out)
Model = tuple[Callable[[], Callable[[int, int], bool] | None], Callable[[list[int]], None]]
_MODULES = {"ortools": "ortools.sat.python.cp_model", "z3": "z3"}


class MissingExtra(ImportError):
    """An optional back-end whose package is not installed."""

    def __init__(self, method: str) -> None:
        super().__init__(f"--method {method} needs the optional extra: pip install 'sudoku-explainer[{EXTRA}]'")
        self.method = method


def load(method: str) -> Any:
    """The back-end's Python module, imported on first use; MissingExtra when not installed."""
    try:
        return importlib.import_module(_MODULES[method])
    except ImportError:
        raise MissingExtra(method) from None


def available(method: str) -> bool:
    try:
        load(method)
    except MissingExtra:
        return False
    return True


class _Cover:
    """The exact-cover model left by the givens: candidates and the groups that need exactly one."""

    def __init__(self, n: int, values: Sequence[int]) -> None:
        geo = geometry(n)
        self.values = list(values)
        self.consistent = True
        used = [0] * (3 * n)  # values placed per house (rows, columns, boxes)
        for c, v in enumerate(self.values):
            if v:
                bit = 1 << (v - 1)
                for h in geo.cell_houses[c]:
                    if used[h] & bit:
                        self.consistent = False  # the same value twice in a house
                    used[h] |= bit
        # (cell, value) pairs, one boolean each; per cell its candidates.
        self.empty = [c for c, v in enumerate(self.values) if not v]
        self.cands: dict[int, list[int]] = {}
        for c in self.empty:
            free = geo.full
            for h in geo.cell_houses[c]:
                free &= ~used[h]
            self.cands[c] = [v for v in range(1, n + 1) if free >> (v - 1) & 1]
        # Exactly-one groups: each empty cell, and each (house, missing value).
        self.groups: list[list[tuple[int, int]]] = [[(c, v) for v in self.cands[c]] for c in self.empty]
        for h, cells in enumerate(geo.houses):
            for v in range(1, n + 1):
                if not used[h] >> (v - 1) & 1:
                    self.groups.append([(c, v) for c in cells if not self.values[c] and v in self.cands[c]])
        if any(not g for g in self.groups):
            self.consistent = False  # an empty cell with no candidate, or a value with no place

    def settled(self) -> list[list[int]] | None:
        """The answer without a solver: none (the givens clash) or the givens (nothing is empty)."""
        if not self.consistent:
            return []
        return None if self.empty else [self.values[:]]

    def booleans(self, make: Callable[[str], Any]) -> dict[tuple[int, int], Any]:
        """One back-end boolean per (cell, value) pair, made by ``make(name)``."""
        return {(c, v): make(f"c{c}v{v}") for c in self.empty for v in self.cands[c]}

    def solutions(self, limit: int, model: Callable[[_Cover], Model]) -> list[list[int]]:
        """Up to ``limit`` solutions, the one loop of every back-end: none or the givens when
        no solver is needed (``settled``); else ``model(self)`` builds the back-end's model and
        gives (``solve``, ``forbid``): ``solve()`` says which (cell, value) booleans its next
        solution sets (None: no solution left), ``forbid(grid)`` rules that grid out."""
        if (settled := self.settled()) is not None:
            return settled
        solve, forbid = model(self)
        found: list[list[int]] = []
        while len(found) < limit and (chosen := solve()) is not None:
            found.append(self.solution(chosen))
            forbid(found[-1])
        return found

    def solution(self, chosen: Callable[[int, int], bool]) -> list[int]:
        grid = self.values[:]
        for c in self.empty:
            picked = [v for v in self.cands[c] if chosen(c, v)]
            assert len(picked) == 1, "the back-end broke an exactly-one constraint"
            grid[c] = picked[0]
        return grid


def solve_ortools(n: int, values: Sequence[int], limit: int = 2) -> list[list[int]]:
    """Up to ``limit`` solutions by OR-tools CP-SAT (one worker)."""
    cp_model = load("ortools")

    def model(cover: _Cover) -> Model:
        cp = cp_model.CpModel()
        x = cover.booleans(cp.NewBoolVar)
        for group in cover.groups:
            cp.AddExactlyOne(x[key] for key in group)

        def solve() -> Callable[[int, int], bool] | None:
            solver = cp_model.CpSolver()
            solver.parameters.num_workers = 1
            status = solver.Solve(cp)
            if status == cp_model.INFEASIBLE:
                return None
            if status not in (cp_model.OPTIMAL, cp_model.FEASIBLE):
                raise RuntimeError(f"OR-tools CP-SAT gave up ({solver.StatusName(status)})")
            return lambda c, v: bool(solver.BooleanValue(x[c, v]))

        def forbid(grid: list[int]) -> None:
            cp.AddBoolOr([x[c, grid[c]].Not() for c in cover.empty])

        return solve, forbid

    return _Cover(n, values).solutions(limit, model)


def solve_z3(n: int, values: Sequence[int], limit: int = 2) -> list[list[int]]:
    """Up to ``limit`` solutions by Z3 (finite-domain solver, a fresh context)."""
    z3 = load("z3")

    def model(cover: _Cover) -> Model:
        ctx = z3.Context()
        x = cover.booleans(lambda name: z3.Bool(name, ctx))
        solver = z3.SolverFor("QF_FD", ctx=ctx)
        for group in cover.groups:
            literals = [x[key] for key in group]
            if len(literals) == 1:
                solver.add(literals[0])
            else:
                solver.add(z3.PbEq([(lit, 1) for lit in literals], 1))

        def solve() -> Callable[[int, int], bool] | None:
            status = solver.check()
            if status == z3.unsat:
                return None
            if status != z3.sat:
                raise RuntimeError(f"Z3 gave up ({solver.reason_unknown()})")
            found = solver.model()
            return lambda c, v: bool(z3.is_true(found.eval(x[c, v], model_completion=True)))

        def forbid(grid: list[int]) -> None:
            solver.add(z3.Or([z3.Not(x[c, grid[c]]) for c in cover.empty]))

        return solve, forbid

    return _Cover(n, values).solutions(limit, model)


SOLVE: dict[str, Callable[[int, Sequence[int], int], list[list[int]]]] = {
    "ortools": solve_ortools,
    "z3": solve_z3,
}
