"""The step loop: at each step choose one step, record it, apply it; repeat until
solved or stuck.

Two orders choose the step (``ORDERS``). **simplest** (the default) takes the
step with the lowest rating on Sudoku Explainer's scale, as an expert would
explain (``simplest_step``); among equal ratings the step that does more (more
placements, then more eliminations), then the earlier technique in the given
order (the registry's), then the smaller pattern (``pattern_size``). **seed**
takes the first live step of the first technique in the given order
(``next_step``), as the seed did.

The engine receives its techniques (``Technique`` records, see
``explainer.model.technique``); it never imports the registry: the library API
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

from explainer.core.solver import unique_solution
from explainer.model import rating as rating_mod
from explainer.model.explanation import Explanation
from explainer.model.grid import Grid, parse_grid, value_char
from explainer.model.session import Session
from explainer.model.state import Snapshot, State
from explainer.model.technique import (
    DEFAULT_ORDER,
    DIFFICULTIES,
    ORDERS,
    Context,
    StepKind,
    Technique,
    kinds_of,
    left_out,
    order_name,
    rate_steps,
)

FORMAT = "sudoku-explainer/steps@1"
__all__ = ["DEFAULT_ORDER", "DIFFICULTIES", "FORMAT", "ORDERS", "Puzzle", "UnsoundStep", "check_sound",
           "choice_key", "easiest_step", "next_step", "pattern_size", "simplest_step"]

# On the simplest order, a technique's finder is read until this many of its live steps did not
# beat the best step so far (it yields its simplest steps first; this bounds the cost on rich
# grids; a finder whose every step beats the one before, as the forcing search's passes do, is
# read to its end).
SCAN = 2


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
             easiest: bool = False, session: Session | None = None,
             off: frozenset[str] = frozenset()) -> list[Context | None]:
    """The context each technique is called with (None: skip it, it needs the missing solution).

    ``easiest``: the run takes the simplest step (finders may yield their lower-rated steps
    first); ``off``: step names the run leaves out (``technique.left_out``)."""
    known = tuple(solution) if solution is not None else None
    out: list[Context | None] = []
    for i, t in enumerate(techniques):
        if t.reads_solution and known is None:
            out.append(None)
            continue
        out.append(Context(known if t.reads_solution else None, tuple(techniques[:i]), easiest=easiest,
                           session=session, off=off))
    return out


def next_step(state: State, techniques: Sequence[Technique], solution: Sequence[int] | None = None,
              timings: dict[str, list[float]] | None = None,
              ctxs: Sequence[Context | None] | None = None) -> Explanation | None:
    """The seed order: the first live step of the first technique that has one.

    ``ctxs`` (from ``contexts``) saves building the contexts again at every step; a step
    whose name the run leaves out (``Context.off``) is passed over.
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
            if _live(state, candidate) and ctx.allows(candidate.technique):
                step = candidate
                break
        if timings is not None:
            timings.setdefault(t.name, []).append(time.perf_counter() - start)
        if step is not None:
            return step
    return None


def pattern_size(step: Explanation) -> tuple[int, int, int]:
    """How big a step's pattern is: (its cells, its chain's links, its proof's facts).

    The cells are those it highlights (cells and marked candidates of both kinds); the last
    tie-break of the simplest order prefers the smaller pattern."""
    cells = {(c[0], c[1]) for c in step.cells} | {(c[0], c[1]) for c in step.cells_alt}
    cells |= {(c[0], c[1]) for c in step.marked} | {(c[0], c[1]) for c in step.marked_alt}
    facts = step.proof.size if step.proof is not None else 0
    return len(cells), len(step.strong_links) + len(step.weak_links), facts


def choice_key(step: Explanation, rated: float, rank: tuple[int, int], gives_way: bool = False) -> tuple[Any, ...]:
    """The simplest order's key (the least key is taken): the rating; a kind that gives way
    (``StepKind.gives_way``: trial) after any other of the same rating; then the step that
    does more (more placements, then more eliminations); then ``rank``, the step's technique
    and kind in the given order; then the smaller pattern (``pattern_size``)."""
    return rated, gives_way, -len(step.place), -len(step.eliminate), rank, pattern_size(step)


def can_tie(key: tuple[Any, ...]) -> bool:
    """True if another step rated as ``key``'s may still beat it: it gives way, or places nothing
    (a step that places more beats one that places, but no finder's step places two values
    where another places one at the same rating often enough to search for it)."""
    return bool(key[1]) or key[2] == 0


class Rater:
    """Rates the steps of a run (its techniques' kinds, on the simplest or the seed order)
    and ranks them by technique and kind for the simplest order's tie-breaks."""

    def __init__(self, techniques: Sequence[Technique], simplest: bool = True) -> None:
        self.simplest = simplest
        self.kinds: dict[str, StepKind] = kinds_of(techniques)
        self.fallback = max((k.weight_for(simplest) for k in self.kinds.values()), default=10.0)
        self.ranks: dict[str, tuple[int, int]] = {}
        for i, t in enumerate(techniques):
            for j, k in enumerate(t.kinds):
                self.ranks.setdefault(k.name, (i, j))
        # the least rating each technique's steps can get: the search tries them in this order
        self.lows = [min((k.least(simplest) for k in t.kinds), default=0.0) for t in techniques]

    def rate(self, step: Explanation) -> float:
        k = self.kinds.get(step.technique)
        return k.rate(step, self.simplest) if k is not None else rating_mod.rate(step, self.fallback)

    def key(self, step: Explanation, rated: float | None = None) -> tuple[Any, ...]:
        r = self.rate(step) if rated is None else rated
        k = self.kinds.get(step.technique)
        return choice_key(step, r, self.ranks.get(step.technique, (len(self.ranks), 0)),
                          k is not None and k.gives_way)


def simplest_step(state: State, techniques: Sequence[Technique], solution: Sequence[int] | None = None,
                  timings: dict[str, list[float]] | None = None,
                  ctxs: Sequence[Context | None] | None = None,
                  rater: Rater | None = None) -> Explanation | None:
    """The simplest order: the live step with the least ``choice_key`` (the lowest rating on
    SE's scale; then the one that does more, the earlier technique, the smaller pattern).

    Techniques are tried by the least rating their kinds can give; the search stops as
    soon as no further technique can beat the best step found or tie with it (``can_tie``).
    Each finder is told the best rating so far (``Context.ceiling``, ``Context.tie``) and is
    read until ``SCAN`` of its live steps did not beat the best: it yields its lower-rated
    steps first. A step whose name the run leaves out (``Context.off``) is passed over. A
    technique that reads the solution (brutal) is tried only when no other has a step,
    whatever the ratings.
    """
    if ctxs is None:
        ctxs = contexts(techniques, solution, easiest=True, off=left_out(techniques, True))
    if rater is None:
        rater = Rater(techniques, True)
    best: Explanation | None = None
    best_key: tuple[Any, ...] | None = None
    order = sorted((low, i) for i, low in enumerate(rater.lows))
    for last_resort in (False, True):
        for low, i in order:
            t, ctx = techniques[i], ctxs[i]
            if ctx is None or t.reads_solution != last_resort:
                continue
            if best_key is not None:
                if low > best_key[0] or (low == best_key[0] and not can_tie(best_key)):
                    break
                ctx = replace(ctx, ceiling=best_key[0], tie=can_tie(best_key))
            start = time.perf_counter() if timings is not None else 0.0
            passed = 0
            for candidate in t.find(state, ctx):
                if not _live(state, candidate) or not ctx.allows(candidate.technique):
                    continue
                key = rater.key(candidate)
                if best_key is None or key < best_key:
                    best, best_key = candidate, key
                    # a step at the technique's least rating that cannot be tied: a later one can only tie
                    if key[0] <= low and not can_tie(key):
                        break
                else:
                    passed += 1
                    if passed >= SCAN:
                        break
            if timings is not None:
                timings.setdefault(t.name, []).append(time.perf_counter() - start)
        if best is not None:
            break
    return best


def easiest_step(state: State, techniques: Sequence[Technique], solution: Sequence[int] | None = None,
                 timings: dict[str, list[float]] | None = None,
                 ctxs: Sequence[Context | None] | None = None) -> Explanation | None:
    """The name before wave 3 of ``simplest_step``."""
    return simplest_step(state, techniques, solution, timings, ctxs)


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

    # The engine's order when none is given: "simplest" (the lowest-rated step at each step,
    # see ``simplest_step``) or "seed" (the first technique in the given order with a live step).
    ORDER = DEFAULT_ORDER

    def __init__(self, puzzle: str | Grid | Sequence[Sequence[int]], techniques: Iterable[Technique],
                 *, where: str = "", max_steps: int | None = None, profile: bool = False,
                 easiest: bool | None = None, order: str | None = None, uniqueness: bool = True) -> None:
        self.where = where
        self.grid: Grid = parse_grid(puzzle, where)
        self.techniques: list[Technique] = list(techniques)
        bad = [t for t in self.techniques if not isinstance(t, Technique)]
        if bad:
            raise TypeError(f"the engine takes Technique records, not {bad[0]!r} "
                            "(explainer.Puzzle resolves names)")
        self.max_steps = max_steps
        # ``easiest`` is the name before wave 3: True is the simplest order, False the seed's
        self.order = order_name(order if order is not None or easiest is not None else self.ORDER, easiest)
        self.uniqueness = uniqueness  # False: steps resting on the single solution are left out
        self.timings: dict[str, list[float]] | None = {} if profile else None
        self._solution: Grid | None = None
        self._steps: list[Explanation] | None = None
        self._final: State | None = None
        self._ratings: list[float] | None = None
        self.cursor = 0
        self.seconds = 0.0

    @property
    def simplest(self) -> bool:
        """True on the simplest order (SE's path), False on the seed's."""
        return self.order == "simplest"

    @property
    def easiest(self) -> bool:
        """The name before wave 3 of ``simplest``."""
        return self.simplest

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
        session = Session(state)
        steps: list[Explanation] = []
        simplest = self.simplest
        ctxs = contexts(self.techniques, solution, easiest=simplest, session=session,
                        off=left_out(self.techniques, simplest, self.uniqueness))
        rater = Rater(self.techniques, simplest) if simplest else None
        while not state.is_solved():
            if self.max_steps is not None and len(steps) >= self.max_steps:
                break
            if rater is not None:
                step = simplest_step(state, self.techniques, solution, self.timings, ctxs, rater)
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
        """easy / medium / difficult: the band of ER (``explainer.model.rating.DIFFICULTY_BANDS``)."""
        return rating_mod.difficulty(self.rating.er)

    # ---- ratings on Sudoku Explainer's scale (explainer.model.rating) ---------------------------
    @property
    def weights(self) -> dict[str, float]:
        """Base rating per step name of the chosen techniques: on the simplest order (SE's path)
        a technique SE lacks weighs SE's chain for it (``StepKind.weight_for``)."""
        return {name: k.weight_for(self.simplest) for name, k in kinds_of(self.techniques).items()}

    @property
    def step_ratings(self) -> list[float]:
        """Each step's rating on SE's scale (its kind's rule, ``StepKind.rate``)."""
        if self._ratings is None:
            self._ratings = rate_steps(self.steps, kinds_of(self.techniques), self.simplest)
        return self._ratings

    @property
    def rating(self) -> rating_mod.Rating:
        """ER / EP / ED: the hardest step, the hardest up to the first placement, the first."""
        return rating_mod.puzzle_rating(self.steps, self.step_ratings)

    @property
    def grade(self) -> str:
        """easy / moderate / hard / fiendish / extreme, from ER (``explainer.model.rating.GRADES``)."""
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
            "order": self.order,
            "steps": [dict(s.to_dict(), rating=r) for s, r in zip(self.steps, self.step_ratings, strict=False)],
        }

    def summary(self) -> str:
        stats = ", ".join(f"{k} {v}" for k, v in self.statistics.items())
        state = "" if self.complete else " (INCOMPLETE: the chosen techniques got stuck)"
        return f"{len(self.steps)} steps, {self.difficulty}, {self.rating} ({self.grade}){state}: {stats}"

    def __repr__(self) -> str:
        return f"Puzzle({self.grid.to_line()!r})"

