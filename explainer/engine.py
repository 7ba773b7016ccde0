"""The step loop: take the first technique, in the given order, that makes
progress; record its step; apply it; repeat until solved or stuck.

The engine receives its techniques (``Technique`` records, see
``explainer.technique``); it never imports the registry: the library API
(``explainer.api``) resolves names. Every step is checked against the
solution before it is applied (HoDoKu's rule: the true digit is never
removed), so a wrong finder fails loudly instead of explaining nonsense.
Only a technique whose kinds read the solution (brutal) is handed it.
"""
from __future__ import annotations

import copy
import time
from collections import Counter
from collections.abc import Iterable, Sequence
from dataclasses import replace
from typing import Any

from . import rating as rating_mod
from .explanation import Explanation
from .grid import Grid, parse_grid, value_char
from .session import Session
from .solver import unique_solution
from .state import Snapshot, State
from .technique import DIFFICULTIES, Context, Technique, difficulty_of, kinds_of

FORMAT = "sudoku-explainer/steps@1"
__all__ = ["DIFFICULTIES", "FORMAT", "Puzzle", "UnsoundStep", "check_sound", "difficulty_of", "easiest_step",
           "next_step"]

# With ``easiest``, at most this many live steps of one technique are rated at each step
# (its finder yields its simplest steps first; this bounds the cost on rich grids).
EASIEST_SCAN = 2


class UnsoundStep(AssertionError):
    """A technique produced a step that contradicts the solution: a bug."""


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


def _recorded(step: Explanation, before: Snapshot) -> Explanation:
    """``step.with_before(before)`` without running the dataclass's field conversions again
    (the step's fields are converted already): a shallow copy with ``before`` set."""
    out = copy.copy(step)
    object.__setattr__(out, "before", before)
    return out


def check_sound(step: Explanation, solution: Sequence[int], n: int) -> None:
    for r, c, v in step.place:
        if solution[r * n + c] != v:
            raise UnsoundStep(f"{step.technique} places {value_char(v)} at r{r + 1}c{c + 1}, "
                              f"the solution has {value_char(solution[r * n + c])}: {step.text}")
    for r, c, v in step.eliminate:
        if solution[r * n + c] == v:
            raise UnsoundStep(f"{step.technique} removes the true value {value_char(v)} "
                              f"from r{r + 1}c{c + 1}: {step.text}")


def contexts(techniques: Sequence[Technique], solution: Sequence[int] | None = None,
             easiest: bool = False, session: Session | None = None) -> list[Context | None]:
    """The context each technique is called with (None: skip it, it needs the missing solution)."""
    known = tuple(solution) if solution is not None else None
    out: list[Context | None] = []
    for i, t in enumerate(techniques):
        if t.reads_solution:
            out.append(None if known is None else
                       Context(known, tuple(techniques[:i]), easiest=easiest, session=session))
        else:
            out.append(Context(None, tuple(techniques[:i]), easiest=easiest, session=session))
    return out


def next_step(state: State, techniques: Sequence[Technique], solution: Sequence[int] | None = None,
              timings: dict[str, list[float]] | None = None,
              ctxs: Sequence[Context | None] | None = None) -> Explanation | None:
    """The first live step of the first technique that has one.

    ``ctxs`` (from ``contexts``) saves building the contexts again at every step.
    """
    if ctxs is None:
        ctxs = contexts(techniques, solution)
    for t, ctx in zip(techniques, ctxs, strict=True):
        if ctx is None:
            continue
        found = t.find(state, ctx)
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


def easiest_step(state: State, techniques: Sequence[Technique], solution: Sequence[int] | None = None,
                 timings: dict[str, list[float]] | None = None,
                 ctxs: Sequence[Context | None] | None = None,
                 weights: dict[str, float] | None = None) -> Explanation | None:
    """The live step with the lowest rating on SE's scale (SE's choice), registry order on ties.

    Techniques are tried by the least rating their kinds can give; the search stops
    as soon as no further technique can beat the best step found.
    """
    if ctxs is None:
        ctxs = contexts(techniques, solution, easiest=True)
    if weights is None:
        weights = {name: k.weight_for(True) for name, k in kinds_of(techniques).items()}
    def least(t: Technique) -> float:
        return min((rating_mod.floor(k.name, weights.get(k.name, k.weight)) for k in t.kinds), default=0.0)

    order = sorted((least(t), i) for i, t in enumerate(techniques))
    best: Explanation | None = None
    best_rating = float("inf")
    for low, i in order:
        if low >= best_rating:
            break
        t, ctx = techniques[i], ctxs[i]
        if ctx is None:
            continue
        start = time.perf_counter() if timings is not None else 0.0
        seen = 0
        if best is not None:
            ctx = replace(ctx, ceiling=best_rating)
        for candidate in t.find(state, ctx):
            if not _live(state, candidate):
                continue
            r = rating_mod.rate(candidate, weights.get(candidate.technique, 10.0))
            if r < best_rating:
                best, best_rating = candidate, r
            seen += 1
            if r <= low or seen >= EASIEST_SCAN:
                break
        if timings is not None:
            timings.setdefault(t.name, []).append(time.perf_counter() - start)
    return best


class Puzzle:
    """One puzzle explained: its solution, steps, statistics and difficulty.

    >>> from explainer import Puzzle  # the library's Puzzle resolves technique names
    >>> p = Puzzle("9..3....41...2...5..2...3.12..6.9..36.9.5.............48.9...7........4....81....")
    >>> p.steps[0].technique
    'single position'

    The object also navigates the explanation like the seed's SUDOKU class:
    ``goto(k)``, ``next()``, ``undo()`` move a cursor and return the state
    before step k.
    """

    # The engine's default choice at each step: False = the first technique in the given
    # order with a live step; True = the easiest rated step (see ``easiest_step``).
    EASIEST = False

    def __init__(self, puzzle: str | Grid | Sequence[Sequence[int]], techniques: Iterable[Technique],
                 *, where: str = "", max_steps: int | None = None, profile: bool = False,
                 easiest: bool | None = None) -> None:
        self.where = where
        self.grid: Grid = parse_grid(puzzle, where)
        self.techniques: list[Technique] = list(techniques)
        bad = [t for t in self.techniques if not isinstance(t, Technique)]
        if bad:
            raise TypeError(f"the engine takes Technique records, not {bad[0]!r} "
                            "(explainer.Puzzle resolves names)")
        self.max_steps = max_steps
        self.easiest = self.EASIEST if easiest is None else easiest
        self.timings: dict[str, list[float]] | None = {} if profile else None
        self._solution: Grid | None = None
        self._steps: list[Explanation] | None = None
        self._final: State | None = None
        self._ratings: list[float] | None = None
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
        session = Session(state)
        steps: list[Explanation] = []
        ctxs = contexts(self.techniques, solution, easiest=self.easiest, session=session)
        weights = self.weights
        while not state.is_solved():
            if self.max_steps is not None and len(steps) >= self.max_steps:
                break
            if self.easiest:
                step = easiest_step(state, self.techniques, solution, self.timings, ctxs, weights)
            else:
                step = next_step(state, self.techniques, solution, self.timings, ctxs)
            if step is None:
                break
            check_sound(step, solution, n)
            steps.append(_recorded(step, state.snapshot()))
            state.apply(step)
            session.applied(step)
        self._steps = steps
        self._final = state
        self.seconds = time.perf_counter() - start

    @property
    def complete(self) -> bool:
        if self._final is None:
            self._run()
        assert self._final is not None
        return self._final.is_solved()

    @property
    def statistics(self) -> dict[str, int]:
        """Steps per step name, in the order of the techniques' kinds."""
        counts = Counter(s.technique for s in self.steps)
        order = {name: i for i, name in enumerate(kinds_of(self.techniques))}
        return {k: counts[k] for k in sorted(counts, key=lambda k: (order.get(k, 999), k))}

    @property
    def difficulty(self) -> str:
        return difficulty_of(self.statistics, kinds_of(self.techniques))

    # ---- ratings on Sudoku Explainer's scale (explainer.rating) ---------------------------
    @property
    def weights(self) -> dict[str, float]:
        """Base rating per step name of the chosen techniques: on SE's path (``easiest``) a
        technique SE lacks weighs SE's chain for it (``StepKind.weight_for``)."""
        return {name: k.weight_for(self.easiest) for name, k in kinds_of(self.techniques).items()}

    @property
    def step_ratings(self) -> list[float]:
        """Each step's rating on SE's scale (its kind's base plus what the step adds)."""
        if self._ratings is None:
            self._ratings = rating_mod.rate_steps(self.steps, self.weights)
        return self._ratings

    @property
    def rating(self) -> rating_mod.Rating:
        """ER / EP / ED: the hardest step, the hardest up to the first placement, the first."""
        return rating_mod.puzzle_rating(self.steps, self.step_ratings)

    @property
    def grade(self) -> str:
        """easy / moderate / hard / fiendish / extreme, from ER (``explainer.rating.GRADES``)."""
        return self.rating.grade

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
        before = steps[k].before
        assert before is not None
        return before.state()

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
            "rating": self.rating.to_dict(),
            "steps": [dict(s.to_dict(), rating=r) for s, r in zip(self.steps, self.step_ratings, strict=False)],
        }

    def summary(self) -> str:
        stats = ", ".join(f"{k} {v}" for k, v in self.statistics.items())
        state = "" if self.complete else " (INCOMPLETE: the chosen techniques got stuck)"
        return f"{len(self.steps)} steps, {self.difficulty}, {self.rating} ({self.grade}){state}: {stats}"

    def __repr__(self) -> str:
        return f"Puzzle({self.grid.to_line()!r})"

