"""Every step of a position (HoDoKu's "find all steps"), not just the next one: the engine's part.

``every_step(state, chosen, registry)`` runs each chosen technique's finder
to the end (the step loop stops at its first live step) and keeps every
distinct live step, in the order's way: on a ranked order (the simplest, the
default) by its choice key (rating, the step that does more, registry order,
pattern size; no lucky guess on an order that takes none), on another (the
seed's) by registry order, then pattern size.

Techniques that read the solution (brutal) are skipped: a step read from
the solution explains nothing. A finder fully iterated can be very long
(chains, trial), so each technique stops after ``cap`` steps or ``seconds``
seconds; the returned list says so in its ``notes``. Reading a position
from text and resolving technique names is the application's part
(``explainer.app.allsteps``).
"""
from __future__ import annotations

import time
from collections.abc import Iterable, Sequence
from typing import Any

from explainer.model.explanation import Explanation, step_length
from explainer.model.order import Order
from explainer.model.state import State
from explainer.model.technique import Context, Technique, built, left_out

from .orders import DEFAULT_ORDER, Rater, live

__all__ = ["CAP", "SECONDS", "StepList", "every_step"]

CAP = 500  # steps kept per technique at most
SECONDS = 20.0  # time per technique at most (checked between two steps of its finder)


class StepList(list[Explanation]):
    """The steps (a plain list of ``Explanation``) and ``notes``: what was skipped or cut short."""

    notes: list[str]

    def __init__(self, steps: Iterable[Explanation] = (), notes: Iterable[str] = ()) -> None:
        super().__init__(steps)
        self.notes = list(notes)


def _key(step: Explanation) -> tuple[Any, ...]:
    """What makes two steps the same: their technique and what they change (placements, eliminations)."""
    return (step.technique, frozenset(step.place), frozenset(step.eliminate))


def every_step(state: State, chosen: Sequence[tuple[Technique, frozenset[str] | None]],
               registry: Sequence[Technique], *, cap: int | None = CAP, seconds: float | None = SECONDS,
               order: Order = DEFAULT_ORDER, distinct: bool = True, named: bool = False) -> StepList:
    """Every distinct live step the ``chosen`` techniques find in ``state``.

    ``chosen``: the records to run, in order, each with the step names to keep (None: all);
    ``registry``: every technique in the registry's order (a finder is told the techniques
    before it there, ``Context.earlier``); ``named``: the techniques were named by the caller
    (a skipped one is noted). Two steps are the same when they have one technique and change
    the same candidates: the smaller pattern is kept (``distinct=False``: every step is kept).
    """
    off = left_out([t for t, _ in chosen], order)
    rater = Rater([t for t, _ in chosen], order.view)
    order_of = {t.name: i for i, t in enumerate(registry)}
    # what a step changes -> (its sort key, its arrival), the step
    kept: dict[tuple[Any, ...], tuple[tuple[Any, int], Explanation]] = {}
    notes: list[str] = []
    for rank, (t, names) in enumerate(chosen):
        if t.reads_solution:
            if named:
                notes.append(f"{t.name}: skipped (it reads the solution instead of reasoning)")
            continue
        earlier = tuple(x for x in registry if order_of.get(x.name, 1 << 30) < order_of.get(t.name, 1 << 30)
                        and not x.reads_solution)
        # the order sorts the steps; each finder runs as on the seed order, asked for every variant
        ctx = Context(None, earlier, off=off)
        start = time.perf_counter()
        count = 0
        for step in built(t.finder(every=True)(state, ctx)):
            if live(state, step) and ctx.allows(step.technique) and (names is None or step.technique in names):
                key = _key(step) if distinct else (len(kept),)
                kind = next((i for i, k in enumerate(t.kinds) if k.name == step.technique), len(t.kinds))
                head = rater.key(step) if order.ranked else (rank, kind, step_length(step.to_dict()))
                old = kept.get(key)
                if old is None:
                    count += 1
                    kept[key] = ((head, len(kept)), step)
                elif head < old[0][0]:  # the same change by a simpler (smaller) pattern
                    kept[key] = ((head, old[0][1]), step)
                if cap is not None and count >= cap:
                    notes.append(f"{t.name}: stopped after {cap} steps (there may be more)")
                    break
            if seconds is not None and time.perf_counter() - start > seconds:
                notes.append(f"{t.name}: stopped after {seconds:g} s with {count} steps (there may be more)")
                break
    out = sorted(kept.values(), key=lambda x: x[0])
    return StepList((x[1] for x in out), notes)
