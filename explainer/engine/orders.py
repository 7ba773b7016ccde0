"""The orders: how the engine chooses each step, one registry of them.

An order is a value of the model (``explainer.model.order.Order``: a name, and
the policy it carries); the command line, the library and the bank look a
name up here (``order_named``), in one place, and hand the ``Order`` on. Four
are registered:

- **simplest** (the default) takes the step with the lowest rating on Sudoku
  Explainer's scale, as an expert would explain (``simplest_step``); among
  equal ratings the step that does more (more placements, then more
  eliminations), then the earlier technique in the given order (the
  registry's), then the smaller pattern (``pattern_size``); it rates on SE's
  view and never takes a lucky guess;
- **seed** takes the first live step of the first technique in the given
  order (``next_step``), as the seed did, and rates each pattern by its own
  weight;
- **se** and **se-classic** are Sudoku Explainer's own path (Sukaku Explainer
  1.15.10's defaults, classic SE 1.2.1.3): they bring SE's producer list
  (``Order.producers``, which the library resolves) and take, as the seed
  order does, the first live step of the first producer that has one.

Another order is a ``register(Order(...))`` away: a ranked one is chosen by
``simplest_step``, another by ``next_step`` (``choose_step``). A finder never
sees the order: its ``Context`` carries a rating bound on a ranked order
(``technique.Bound``), none otherwise (``contexts``).
"""
from __future__ import annotations

import time
from collections.abc import Iterator, Sequence
from contextlib import contextmanager
from types import GeneratorType
from typing import Any, overload

from explainer.model import rating
from explainer.model.explanation import Explanation
from explainer.model.grid import UnknownNameError
from explainer.model.order import Order, View
from explainer.model.session import Session
from explainer.model.state import State
from explainer.model.technique import Bound, Context, Lead, StepKind, Technique, kinds_of, left_out

from .check import check_requested, guarded

__all__ = ["DEFAULT_ORDER", "ORDERS", "SEED", "SE_CLASSIC_ORDER", "SE_ORDER", "SIMPLEST", "Rater", "can_tie",
           "choice_key", "choose_step", "contexts", "live", "next_step", "order_named", "pattern_size", "register",
           "simplest_step"]

SIMPLEST = Order("simplest", ranked=True, view="se-equivalent", lucky=False,
                 help="takes at each step the step with the lowest rating on Sudoku Explainer's scale, as an "
                      "expert explains (ties: the step that places or removes more, then the earlier technique, "
                      "then the smaller pattern), and never guesses")
SEED = Order("seed", ranked=False, view="pattern", lucky=True,
             help="takes the first technique, in the registry's (the seed's) order, that has a step")
# Sudoku Explainer's own path: its producers in its order, the first hint of the first producer
# that has one (``techniques.se``); the ratings are SE's own numbers
SE_ORDER = Order("se", ranked=False, view="se-equivalent", lucky=False, producers="se", unfinished=rating.SE_BEYOND,
                 help="Sudoku Explainer's own path, as Sukaku Explainer 1.15.10 rates (its default settings; the "
                      "Sudoku Exchange bank's ratings): SE's techniques in SE's order, the first hint of the first "
                      "technique that has one; ER/EP/ED are SE's numbers")
SE_CLASSIC_ORDER = Order("se-classic", ranked=False, view="se-equivalent", lucky=False, producers="se-classic",
                         unfinished=rating.SE_BEYOND,
                         help="the same with classic Sudoku Explainer 1.2.1.3 (serate; the forum's classic ratings)")

# name -> order, in the order the help lists them; the first is the default
ORDERS: dict[str, Order] = {o.name: o for o in (SIMPLEST, SEED, SE_ORDER, SE_CLASSIC_ORDER)}
DEFAULT_ORDER = SIMPLEST


def register(order: Order) -> Order:
    """Add an order to the registry (its name must be new); returns it."""
    if order.name in ORDERS:
        raise ValueError(f"an order named {order.name!r} is registered already")
    ORDERS[order.name] = order
    return order


def order_named(order: str | Order | None = None) -> Order:
    """The order asked for: an ``Order`` as is, a registered name, or None for the default.

    An unknown name is an ``UnknownNameError`` naming the registered ones. (The order's old
    name, ``easiest``, is read at the public edges only: ``explainer.api.order_or_easiest``.)"""
    if order is None:
        return DEFAULT_ORDER
    if not isinstance(order, Order):
        found = ORDERS.get(order) if isinstance(order, str) else None
        if found is None:
            raise UnknownNameError(f"unknown order {order!r} (choose from {', '.join(ORDERS)})")
        order = found
    return order


# On the simplest order, a technique's finder is read until this many of its live steps did not
# beat the best step so far (it yields its simplest steps first; this bounds the cost on rich
# grids; a finder whose every step beats the one before, as the forcing search's passes do, is
# read to its end).
SCAN = 2


def live(state: State, step: Explanation) -> bool:
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


def contexts(techniques: Sequence[Technique], solution: Sequence[int] | None = None, order: Order = SEED,
             session: Session | None = None, off: frozenset[str] = frozenset(),
             rating_only: bool = False) -> list[Context | None]:
    """The context each technique is called with (None: skip it, it needs the missing solution).

    On a ranked ``order`` each context carries a rating ``Bound`` (finders may then yield their
    lower-rated steps first), on another none; ``off``: step names the run leaves out
    (``technique.left_out``); ``rating_only``: the run wants ratings only (``Context``)."""
    known = tuple(solution) if solution is not None else None
    bound = Bound(view=order.view) if order.ranked else None
    out: list[Context | None] = []
    for i, t in enumerate(techniques):
        if t.reads_solution and known is None:
            out.append(None)
            continue
        # a ranked order builds only the steps that can still win: its finders may yield leads
        out.append(Context(known if t.reads_solution else None, tuple(techniques[:i]), bound=bound,
                           session=session, off=off, leads=order.ranked, rating_only=rating_only))
    return out


def _found(t: Technique, state: State, ctx: Context, check: bool | Sequence[int],
           rater: Rater | None = None) -> Iterator[Explanation | Lead]:
    """The finder's steps; in check mode each call watched (``check.guarded``: the state and
    the session left as found, every step describing the state, and sound when ``check`` is
    the solution; a lead true to its step as ``rater`` rates it). The engine closes it when it
    stops reading (``_close``)."""
    found = iter(t.find(state, ctx))
    if check is not False:
        found = guarded(found, t.name, state, ctx, None if check is True else check,
                        rater.rate if rater is not None else None,
                        (lambda lead: rater.lead_key(lead)[0]) if rater is not None else None, pattern_size)
    return found


@contextmanager
def _reading(t: Technique, state: State, ctx: Context, check: bool | Sequence[int],
             timings: dict[str, list[float]] | None,
             rater: Rater | None = None) -> Iterator[Iterator[Explanation | Lead]]:
    """The finder's steps (``_found``) for the time of a ``with`` block: closed when the engine
    stops reading them (a generator's cleanup runs now, not later), and the time they took
    added to ``timings`` when a caller keeps them."""
    start = time.perf_counter() if timings is not None else 0.0
    found = _found(t, state, ctx, check, rater)
    try:
        yield found
    finally:
        _close(t, found, start, timings)


def _close(t: Technique, found: Iterator[Explanation | Lead], start: float,
           timings: dict[str, list[float]] | None) -> None:
    """The finder's steps closed (a generator's cleanup runs now), the time since ``start``
    added to ``timings`` when a caller keeps them."""
    close = getattr(found, "close", None)
    if close is not None:
        close()
    if timings is not None:
        timings.setdefault(t.name, []).append(time.perf_counter() - start)


def next_step(state: State, techniques: Sequence[Technique], solution: Sequence[int] | None = None,
              timings: dict[str, list[float]] | None = None,
              ctxs: Sequence[Context | None] | None = None,
              check: bool | Sequence[int] | None = None) -> Explanation | None:
    """The seed order: the first live step of the first technique that has one.

    ``ctxs`` (from ``contexts``) saves building the contexts again at every step; a step
    whose name the run leaves out (``Context.off``) is passed over. ``check``: watch every
    finder call (``explainer.engine.check``; None: as the environment says; the solution,
    known to be right: every step yielded is checked against it too).
    """
    if ctxs is None:
        ctxs = contexts(techniques, solution)
    if check is None:
        check = check_requested()
    for t, ctx in zip(techniques, ctxs, strict=True):
        if ctx is None:
            continue
        with _reading(t, state, ctx, check, timings) as found:
            for candidate in found:
                if isinstance(candidate, Lead):  # a finder called with a context that takes leads
                    candidate = candidate.build()
                if live(state, candidate) and ctx.allows(candidate.technique):
                    return candidate
    return None


def pattern_size(step: Explanation) -> tuple[int, int, int]:
    """How big a step's pattern is: (its cells, its chain's links, its proof's facts).

    The cells are those it highlights (cells and marked candidates of both kinds); the last
    tie-break of the simplest order prefers the smaller pattern."""
    cells = set(step.cells)  # (row, col) tuples
    cells.update(step.cells_alt)
    if step.marked or step.marked_alt:
        cells.update((m[0], m[1]) for m in step.marked)
        cells.update((m[0], m[1]) for m in step.marked_alt)
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


def _with_bound(ctx: Context, bound: Bound) -> Context:
    """``replace(ctx, bound=bound)`` without running ``Context.__init__`` again (its fields are
    made already; a frozen dataclass sets each through ``object.__setattr__``): a shallow copy of
    its fields with ``bound`` set. A run makes dozens a puzzle, one for each best rating met."""
    out = object.__new__(Context)
    fields_ = out.__dict__
    fields_.update(ctx.__dict__)
    fields_["bound"] = bound
    return out


# the simplest search's passes (``Rater.passes``): (least rating, index, technique, context) each
Passes = tuple[list[tuple[float, int, Technique, Context]], ...]


class Rater:
    """Rates the steps of a run (its techniques' kinds, on an order's view) and ranks them by
    technique and kind for the simplest order's tie-breaks."""

    def __init__(self, techniques: Sequence[Technique], view: View = "se-equivalent") -> None:
        self.view: View = view
        self.kinds: dict[str, StepKind] = kinds_of(techniques)
        self.fallback = max((k.weight_in(view) for k in self.kinds.values()), default=10.0)
        self.ranks: dict[str, tuple[int, int]] = {}
        for i, t in enumerate(techniques):
            for j, k in enumerate(t.kinds):
                self.ranks.setdefault(k.name, (i, j))
        # the least rating each technique's steps can get: the search tries them in this order
        self.lows = [min((k.least(view) for k in t.kinds), default=0.0) for t in techniques]
        # the least rating of each kind's steps (``StepKind.least``): a lead's, unless it knows better
        self.floors: dict[str, float] = {name: k.least(view) for name, k in self.kinds.items()}
        # a lead's key terms by its name (its kind's floor, whether it gives way, its rank): one look-up
        self._terms: dict[str, tuple[float, bool, tuple[int, int]]] = {
            name: (self.floors[name], k.gives_way, self.ranks[name]) for name, k in self.kinds.items()}
        self._unknown = (0.0, False, (len(self.ranks), 0))
        # the order the simplest search tries the techniques in, and whether each reads the solution
        self.tries: list[tuple[float, int, bool]] = [
            (low, i, techniques[i].reads_solution) for low, i in sorted((low, i) for i, low in enumerate(self.lows))]
        # each technique's context bounded by a best rating so far (``bounded``), made once a run
        self._bounded: dict[tuple[int, float, bool], tuple[Context, Context]] = {}
        # the search's two passes for the run's techniques and contexts (``passes``), made once a run
        self._passes: tuple[Sequence[Technique], Sequence[Context | None], Passes] | None = None

    def passes(self, techniques: Sequence[Technique], ctxs: Sequence[Context | None]) -> Passes:
        """The simplest search's two passes, each (least rating, index, technique, context) in
        the order ``tries`` says: the techniques that do not read the solution, then those that
        do (the last resort); a technique without a context left out. Made once for the run's
        techniques and contexts (the engine passes the same ones at every step)."""
        made = self._passes
        if made is None or made[0] is not techniques or made[1] is not ctxs:
            passes = tuple([(low, i, techniques[i], ctx) for low, i, reads in self.tries
                            if (ctx := ctxs[i]) is not None and reads == last_resort]
                           for last_resort in (False, True))
            made = self._passes = (techniques, ctxs, passes)
        return made[2]

    def rate(self, step: Explanation) -> float:
        k = self.kinds.get(step.technique)
        return k.rate(step, self.view) if k is not None else rating.rate(step, self.fallback)

    def lead_key(self, lead: Lead) -> tuple[Any, ...]:
        """The first five terms of a lead's ``choice_key`` at their least: the lead's least rating
        (its own, else its kind's ``floors``), then the terms a lead knows exactly. A lead whose
        least key is above the best step's cannot beat it."""
        floor, gives_way, rank = self._terms.get(lead.technique, self._unknown)
        return lead.least or floor, gives_way, -lead.place, -lead.eliminate, rank

    def bounded(self, i: int, ctx: Context, best: float, tie: bool) -> Context:
        """Technique i's context ``ctx`` with the bound of a best step rated ``best`` (``tie``: a
        step rated the same may still be taken), made once a run for each bound met."""
        made = self._bounded.get((i, best, tie))
        if made is None or made[0] is not ctx:
            made = ctx, _with_bound(ctx, Bound(best, tie, self.view))
            self._bounded[i, best, tie] = made
        return made[1]

    @overload
    def key(self, step: Explanation, rated: float | None = None) -> tuple[Any, ...]: ...

    @overload
    def key(self, step: Explanation, rated: float | None = None, *,
            bound: tuple[Any, ...] | None) -> tuple[Any, ...] | None: ...

    def key(self, step: Explanation, rated: float | None = None, *,
            bound: tuple[Any, ...] | None = None) -> tuple[Any, ...] | None:
        """The step's ``choice_key``; with ``bound`` (the best key so far), None when the key's
        first five terms are already above the bound's: the step cannot win, and its pattern
        (``pattern_size``, the last term) is not measured."""
        k = self.kinds.get(step.technique)
        if rated is not None:
            r = rated
        elif k is not None:
            r = k.rate(step, self.view)
        else:
            r = rating.rate(step, self.fallback)
        gives_way = k is not None and k.gives_way
        rank = self.ranks.get(step.technique, (len(self.ranks), 0))
        if bound is not None and (r, gives_way, -len(step.place), -len(step.eliminate), rank) > bound[:5]:
            return None
        return choice_key(step, r, rank, gives_way)


def simplest_step(state: State, techniques: Sequence[Technique], solution: Sequence[int] | None = None,
                  timings: dict[str, list[float]] | None = None,
                  ctxs: Sequence[Context | None] | None = None,
                  rater: Rater | None = None, check: bool | Sequence[int] | None = None) -> Explanation | None:
    """The simplest order: the live step with the least ``choice_key`` (the lowest rating on
    SE's scale; then the one that does more, the earlier technique, the smaller pattern).

    Techniques are tried by the least rating their kinds can give; the search stops as
    soon as no further technique can beat the best step found or tie with it (``can_tie``).
    Each finder is told the best rating so far (``Context.bound``) and is read until
    ``SCAN`` of its live steps did not beat the best: it yields its lower-rated steps first.
    A step whose name the run leaves out (``Context.off``) is passed over. A technique that
    reads the solution (brutal) is tried only when no other has a step, whatever the
    ratings. Without ``ctxs`` or ``rater``: the simplest order's. ``check``: as ``next_step``'s.
    """
    if check is None:
        check = check_requested()
    if ctxs is None:
        ctxs = contexts(techniques, solution, SIMPLEST, off=left_out(techniques, SIMPLEST))
    if rater is None:
        rater = Rater(techniques, SIMPLEST.view)
    best: Explanation | Lead | None = None  # a lead whose key is known whole is built once taken
    best_key: tuple[Any, ...] | None = None
    for tries in rater.passes(techniques, ctxs):
        for low, i, t, ctx in tries:
            if best_key is not None:
                tie = can_tie(best_key)
                if low > best_key[0] or (low == best_key[0] and not tie):
                    break
                ctx = rater.bounded(i, ctx, best_key[0], tie)
            passed = 0
            start = time.perf_counter() if timings is not None else 0.0
            # the finder's steps (``_found``; outside check mode its generator, called here)
            found = iter(t.find(state, ctx)) if check is False else _found(t, state, ctx, check, rater)
            try:
                for candidate in found:
                    key: tuple[Any, ...] | None = None
                    if isinstance(candidate, Lead):
                        # a step found but not built: built only if it may beat the best so far
                        if not ctx.allows(candidate.technique):
                            continue
                        if candidate.size is not None:  # its whole key known: built once taken
                            key = rater.lead_key(candidate) + (candidate.size,)
                        elif candidate.bare is not None:  # keyed by its step without words: built once taken
                            if not live(state, candidate.bare):
                                continue
                            key = rater.key(candidate.bare, bound=best_key)
                            if key is None:  # its key above the best's in its first five terms
                                passed += 1
                                if passed >= SCAN:
                                    break
                                continue
                        elif best_key is not None and rater.lead_key(candidate) > best_key[:5]:
                            passed += 1
                            if passed >= SCAN:
                                break
                            continue
                        else:
                            candidate = candidate.build()
                    if key is None:
                        assert isinstance(candidate, Explanation)
                        if not live(state, candidate) or not ctx.allows(candidate.technique):
                            continue
                        key = rater.key(candidate, bound=best_key)
                        if key is None:  # its key above the best's in its first five terms
                            passed += 1
                            if passed >= SCAN:
                                break
                            continue
                    if best_key is None or key < best_key:
                        best, best_key = candidate, key
                        # a step at the technique's least rating that cannot be tied: a later one can only tie
                        if key[0] <= low and not can_tie(key):
                            break
                    else:
                        passed += 1
                        if passed >= SCAN:
                            break
            finally:  # as ``_reading`` (without its generator: this runs for every finder call)
                if timings is not None:
                    _close(t, found, start, timings)
                elif type(found) is GeneratorType:
                    found.close()
                else:
                    _close(t, found, start, None)
        if best is not None:
            break
    return best.build() if isinstance(best, Lead) else best


def choose_step(order: Order, state: State, techniques: Sequence[Technique], solution: Sequence[int] | None = None,
                timings: dict[str, list[float]] | None = None, ctxs: Sequence[Context | None] | None = None,
                rater: Rater | None = None, check: bool | Sequence[int] | None = None) -> Explanation | None:
    """The step ``order`` takes next from ``state``: a ranked order's lowest-rated step
    (``simplest_step``, rated by ``rater`` on the order's view), else the first live one
    (``next_step``); ``ctxs`` from ``contexts`` for the same order; ``check``: check mode
    (``explainer.engine.check``, as ``next_step``'s)."""
    if order.ranked:
        if ctxs is None:
            ctxs = contexts(techniques, solution, order, off=left_out(techniques, order))
        return simplest_step(state, techniques, solution, timings, ctxs, rater or Rater(techniques, order.view),
                             check)
    return next_step(state, techniques, solution, timings, ctxs, check)
