"""The step loop: at each step choose one step, record it, apply it; repeat until
solved or stuck.

The run's ``Order`` chooses the step (``explainer.engine.orders``: **simplest**,
the default, the step with the lowest rating on Sudoku Explainer's scale;
**seed** the first live step of the first technique in the given order).

The engine receives its techniques (``Technique`` records, see
``explainer.model.technique``); it never imports the registry: the library API
(``explainer.api``) resolves names. Every step is checked against the
solution before it is applied (HoDoKu's rule: the true digit is never
removed), so a wrong finder fails loudly instead of explaining nonsense.
Only a technique whose kinds read the solution (brutal) is handed it.
"""
from __future__ import annotations

import time
from collections import Counter
from collections.abc import Iterable, Sequence
from typing import Any

from explainer.core.solver import unique_solution
from explainer.model import rating as rating_mod
from explainer.model.explanation import Explanation
from explainer.model.grid import Grid, parse_grid, value_char
from explainer.model.order import Order
from explainer.model.session import Session
from explainer.model.state import Snapshot, State
from explainer.model.technique import DIFFICULTIES, StepKind, Technique, kinds_of, left_out, rate_steps

from .check import check_requested
from .orders import DEFAULT_ORDER, Rater, choose_step, contexts, order_named

FORMAT = "sudoku-explainer/steps@1"
__all__ = ["DIFFICULTIES", "FORMAT", "Puzzle", "UnsoundStep", "check_sound"]

class UnsoundStep(AssertionError):
    """A technique produced a step that contradicts the solution: a bug."""


def _recorded(step: Explanation, before: Snapshot) -> Explanation:
    """``step.with_before(before)`` without running the dataclass's field conversions again
    (the step's fields are converted already): a shallow copy with ``before`` set, made as
    ``copy.copy`` makes it without its ``__reduce_ex__`` round trip (a step is a plain
    dataclass: its fields are its ``__dict__``)."""
    out = object.__new__(type(step))
    fields = out.__dict__
    fields.update(step.__dict__)
    fields["before"] = before
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

    # The engine's order when none is given (``orders.DEFAULT_ORDER``, the simplest).
    ORDER: Order = DEFAULT_ORDER

    def __init__(self, puzzle: str | Grid | Sequence[Sequence[int]], techniques: Iterable[Technique],
                 *, where: str = "", max_steps: int | None = None, profile: bool = False,
                 order: str | Order | None = None, uniqueness: bool = True,
                 check: bool | None = None, rating_only: bool = False) -> None:
        self.where = where
        self.grid: Grid = parse_grid(puzzle, where)
        self.techniques: list[Technique] = list(techniques)
        bad = [t for t in self.techniques if not isinstance(t, Technique)]
        if bad:
            raise TypeError(f"the engine takes Technique records, not {bad[0]!r} "
                            "(explainer.Puzzle resolves names)")
        self.max_steps = max_steps
        # the run's order (``orders.order_named``: a name or an Order)
        self.order: Order = order_named(order if order is not None else self.ORDER)
        self.uniqueness = uniqueness  # False: steps resting on the single solution are left out
        # check mode (``explainer.engine.check``: every finder call watched; tests): None, as the
        # environment says (``SUDOKU_EXPLAINER_CHECK``)
        self.check = check_requested() if check is None else bool(check)
        # the ratings, not the explanation: finders that honour it (``Context.rating_only``) record
        # bare steps (no texts, roles or proofs); the same steps and ratings (``explainer.rate``)
        self.rating_only = rating_only
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
    def kinds(self) -> dict[str, StepKind]:
        """Step name -> its kind (weight, rule, titles, flags), for the techniques of the run."""
        return kinds_of(self.techniques)

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
        session = Session(state, check=self.check)
        steps: list[Explanation] = []
        order = self.order
        ctxs = contexts(self.techniques, solution, order, session=session,
                        off=left_out(self.techniques, order, self.uniqueness), rating_only=self.rating_only)
        rater = Rater(self.techniques, order.view) if order.ranked else None
        while not state.is_solved():
            if self.max_steps is not None and len(steps) >= self.max_steps:
                break
            step = choose_step(order, state, self.techniques, solution, self.timings, ctxs, rater,
                               solution if self.check else False)
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
        """easy / medium / difficult: the band of ER (``explainer.model.rating.DIFFICULTY_BANDS``)."""
        return rating_mod.difficulty(self.rating.er)

    # ---- ratings on Sudoku Explainer's scale (explainer.model.rating) ---------------------------
    @property
    def weights(self) -> dict[str, float]:
        """Base rating per step name of the chosen techniques, on the order's view: on SE's (the
        simplest order) a technique SE lacks weighs SE's chain for it (``StepKind.weight_in``)."""
        return {name: k.weight_in(self.order.view) for name, k in kinds_of(self.techniques).items()}

    @property
    def step_ratings(self) -> list[float]:
        """Each step's rating on SE's scale (its kind's rule, ``StepKind.rate``)."""
        if self._ratings is None:
            self._ratings = rate_steps(self.steps, kinds_of(self.techniques), self.order.view)
        return self._ratings

    @property
    def rating(self) -> rating_mod.Rating:
        """ER / EP / ED: the hardest step, the hardest up to the first placement, the first (an
        explanation that stops short: the order's ``unfinished`` ER, if it has one)."""
        unfinished = None if self.complete else self.order.unfinished
        return rating_mod.puzzle_rating(self.steps, self.step_ratings, unfinished)

    @property
    def grade(self) -> str:
        """singles / subsets / patterns / chains / forcing, from ER (``explainer.model.rating.GRADES``:
        what the hardest step asks; the difficulty, ``difficulty``, is the coarser scale)."""
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
            "order": self.order.name,
            "steps": [dict(s.to_dict(), rating=r) for s, r in zip(self.steps, self.step_ratings, strict=False)],
        }

    def summary(self) -> str:
        """'87 steps, medium; this path's hardest step ER 8.2 (EP 1.2, ED 1.2): single position 55, …':
        one difficulty word, and the numbers said to be this path's (``explainer.api.Puzzle`` adds
        Sudoku Explainer's own rating of the puzzle beside them)."""
        stats = ", ".join(f"{k} {v}" for k, v in self.statistics.items())
        state = "" if self.complete else " (INCOMPLETE: the chosen techniques got stuck)"
        return f"{len(self.steps)} steps, {self.difficulty}; {self.rating_words()}{state}: {stats}"

    def rating_words(self) -> str:
        """The path's rating, labelled as the path's: "this path's hardest step ER 8.2 (EP 1.2, ED 1.2)"."""
        r = self.rating
        return f"this path's hardest step ER {r.er:.1f} (EP {r.ep:.1f}, ED {r.ed:.1f})"

    def __repr__(self) -> str:
        return f"Puzzle({self.grid.to_line()!r})"

