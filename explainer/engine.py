"""The step loop: take the first technique, in registry order, that makes
progress; record its step; apply it; repeat until solved or stuck.

Every step is checked against the solution before it is applied (HoDoKu's
rule: the true digit is never removed), so a wrong finder fails loudly
instead of explaining nonsense. Only ``brutal`` is handed the solution.
"""
from __future__ import annotations

import time
from collections import Counter
from typing import Any, Iterable, Sequence

from .explanation import Explanation
from .grid import Grid, parse_grid, value_char
from .solver import unique_solution
from .state import State

FORMAT = "sudoku-explainer/steps@1"
DIFFICULTIES = ("easy", "medium", "difficult")


class UnsoundStep(AssertionError):
    """A technique produced a step that contradicts the solution: a bug."""


def difficulty_of(statistics: "dict[str, int]") -> str:
    if statistics.get("brutal"):
        return "difficult"
    if statistics.get("trial") or statistics.get("trial lucky") or statistics.get("forcing chain"):
        return "medium"
    return "easy"


def _live(state: State, step: Explanation) -> bool:
    """True if the step changes the state (everything it names is a live candidate)."""
    if not step.place and not step.eliminate:
        return False
    n = state.geo.n
    for r, c, v in step.place:
        if not state.cand[r * n + c] >> (v - 1) & 1:
            return False
    for r, c, v in step.eliminate:
        if not state.cand[r * n + c] >> (v - 1) & 1:
            return False
    return True


def check_sound(step: Explanation, solution: Sequence[int], n: int) -> None:
    for r, c, v in step.place:
        if solution[r * n + c] != v:
            raise UnsoundStep(f"{step.technique} places {value_char(v)} at r{r + 1}c{c + 1}, "
                              f"the solution has {value_char(solution[r * n + c])}: {step.text}")
    for r, c, v in step.eliminate:
        if solution[r * n + c] == v:
            raise UnsoundStep(f"{step.technique} removes the true value {value_char(v)} "
                              f"from r{r + 1}c{c + 1}: {step.text}")


def next_step(state: State, techniques: Iterable[Any], solution: Sequence[int] | None = None,
              timings: "dict[str, list[float]] | None" = None) -> Explanation | None:
    """The first live step of the first technique that has one."""
    for t in techniques:
        if t.needs_solution:
            if solution is None:
                continue
            found = t.find(state, solution)
        else:
            found = t.find(state)
        start = time.perf_counter() if timings is not None else 0.0
        step = None
        for candidate in found:
            if _live(state, candidate):
                step = candidate
                break
        if timings is not None:
            timings.setdefault(t.name, []).append(time.perf_counter() - start)
        if step is not None:
            return step
    return None


class Puzzle:
    """One puzzle explained: its solution, steps, statistics and difficulty.

    >>> p = Puzzle("9..3....41...2...5..2...3.12..6.9..36.9.5.............48.9...7........4....81....")
    >>> p.steps[0].technique
    'single position'

    The object also navigates the explanation like the seed's SUDOKU class:
    ``goto(k)``, ``next()``, ``undo()`` move a cursor and return the state
    before step k.
    """

    def __init__(self, puzzle: "str | Grid | Sequence[Sequence[int]]", techniques: Iterable[str] | None = None,
                 *, where: str = "", max_steps: int | None = None, profile: bool = False,
                 brutal: bool = True) -> None:
        from techniques import select

        self.where = where
        self.grid: Grid = parse_grid(puzzle, where)
        # brutal=False: never read the solution (an unfinished grid is reported as such)
        self.techniques = [t for t in select(techniques) if brutal or not t.needs_solution]
        self.max_steps = max_steps
        self.timings: dict[str, list[float]] | None = {} if profile else None
        self._solution: Grid | None = None
        self._steps: list[Explanation] | None = None
        self._final: State | None = None
        self.cursor = 0
        self.seconds = 0.0

    # ---- results ---------------------------------------------------------------
    @property
    def n(self) -> int:
        return self.grid.n

    @property
    def solution(self) -> Grid:
        if self._solution is None:
            self._solution = unique_solution(self.grid, self.where)
        return self._solution

    @property
    def steps(self) -> list[Explanation]:
        if self._steps is None:
            self._run()
        assert self._steps is not None
        return self._steps

    def _run(self) -> None:
        start = time.perf_counter()
        solution = self.solution.values
        n = self.grid.n
        state = State.from_grid(self.grid)
        steps: list[Explanation] = []
        while not state.is_solved():
            if self.max_steps is not None and len(steps) >= self.max_steps:
                break
            step = next_step(state, self.techniques, solution, self.timings)
            if step is None:
                break
            check_sound(step, solution, n)
            steps.append(step.with_before(state.copy()))
            state.apply(step)
        self._steps = steps
        self._final = state
        self.seconds = time.perf_counter() - start

    @property
    def complete(self) -> bool:
        self.steps
        assert self._final is not None
        return self._final.is_solved()

    @property
    def statistics(self) -> dict[str, int]:
        """Steps per technique name, in registry order."""
        from techniques import step_names

        counts = Counter(s.technique for s in self.steps)
        order = {name: i for i, name in enumerate(step_names())}
        return {k: counts[k] for k in sorted(counts, key=lambda k: (order.get(k, 999), k))}

    @property
    def difficulty(self) -> str:
        return difficulty_of(self.statistics)

    def initial_state(self) -> State:
        return State.from_grid(self.grid)

    def state_before(self, k: int) -> State:
        """A copy of the candidate state before step k (0-based); k = len(steps) is the end."""
        steps = self.steps
        if k == len(steps):
            assert self._final is not None
            return self._final.copy()
        if not 0 <= k < len(steps):
            raise IndexError(f"step {k} out of range 0..{len(steps)}")
        return steps[k].before.copy()

    def steps_using(self, technique: str) -> list[int]:
        """Indexes of the steps recorded under a step name (the seed's show_techniques)."""
        return [i for i, s in enumerate(self.steps) if s.technique == technique]

    # ---- navigation --------------------------------------------------------------
    def goto(self, k: int) -> State:
        self.cursor = max(0, min(k, len(self.steps)))
        return self.state_before(self.cursor)

    def next(self) -> Explanation | None:
        """The step at the cursor, then move past it (None at the end)."""
        if self.cursor >= len(self.steps):
            return None
        step = self.steps[self.cursor]
        self.cursor += 1
        return step

    def undo(self) -> State:
        return self.goto(self.cursor - 1)

    @property
    def state(self) -> State:
        return self.state_before(self.cursor)

    # ---- output ------------------------------------------------------------------
    def to_json(self) -> dict[str, Any]:
        """The steps JSON document (STEPS_JSON.md)."""
        return {
            "format": FORMAT,
            "puzzle": self.grid.to_line(),
            "size": self.grid.n,
            "box": self.grid.geometry.m,
            "solution": self.solution.to_line(),
            "difficulty": self.difficulty,
            "complete": self.complete,
            "statistics": self.statistics,
            "steps": [s.to_dict() for s in self.steps],
        }

    def summary(self) -> str:
        stats = ", ".join(f"{k} {v}" for k, v in self.statistics.items())
        state = "" if self.complete else " (INCOMPLETE: the chosen techniques got stuck)"
        return f"{len(self.steps)} steps, {self.difficulty}{state}: {stats}"

    def __repr__(self) -> str:
        return f"Puzzle({self.grid.to_line()!r})"

    def frame_png(self, k: int | None = None, **options: Any) -> bytes:
        """PNG of frame k: 0 the initial grid, 1..len(steps) the steps (drawn on the
        state before them), len(steps)+1 the solution; default: the cursor's step."""
        from render.frame import puzzle_frame_png  # lazy: the engine never needs matplotlib

        if k is None:
            k = min(self.cursor + 1, len(self.steps) + 1)
        return puzzle_frame_png(self, k, **options)

    def _repr_png_(self) -> bytes | None:
        return self.frame_png()


def explain(puzzle: "str | Grid | Sequence[Sequence[int]]", techniques: Iterable[str] | None = None) -> list[Explanation]:
    """The list of steps that solve the puzzle (the library's main call)."""
    return Puzzle(puzzle, techniques).steps
