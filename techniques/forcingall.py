"""Every forcing chain of a position, from every start (``steps``, HoDoKu's forcing chains and nets).

The engine's forcing search (``forcing``) stops at the simplest proof of the
easiest pass. Listing every step of a position asks for every conclusion a
level-0 forcing proof reaches, each with its proof:

- *contradiction* from every starting candidate: assuming it true (or false)
  leads to a contradiction, so it is false (or true) (HoDoKu's forcing chain
  and net contradictions, 1301 / 1303);
- *verity*: both branches of a candidate (double), every candidate of a cell
  (cell) or every place of a value in a house (house) imply the same fact
  (HoDoKu's forcing chain and net verities, 1302 / 1304).

One batch (``forcing._Static``) propagates every candidate assumed true and
assumed false; each distinct conclusion is then proved once, by the option
whose estimated proof is smallest, the smallest proofs listed first. The
branches first apply singles only (SE's forcing chains and Nishio), then,
for the conclusions not reached that way and when the run has locked
candidates, locked candidates too (dynamic). Nested levels cost a batch per
assumption: where level 0 proves nothing, the engine's own first nested step
is listed (level 1), in positions of at most ``NESTED_DENSITY`` candidates a
cell on average (an open grid would cost seconds per level).

Only listing every step runs this (the forcing chain record's ``Technique.every``): the
engine never pays for it.
"""
from __future__ import annotations

from collections.abc import Iterator
from typing import Any

from explainer.model.explanation import Explanation
from explainer.model.state import State
from explainer.model.technique import NO_CONTEXT, Context

from .forcing import UNTRACEABLE, _Static, dynamic_allowed, make_step, nested_step

NESTED_DENSITY = 5  # candidates a cell at most for the nested search of ``every``


def every(state: State, ctx: Context = NO_CONTEXT, /) -> Iterator[Explanation]:
    """Every level-0 forcing conclusion, each once, with its smallest proof found."""
    done: set[tuple[int, int, bool]] = set()
    for dynamic in (False, True) if dynamic_allowed(ctx) else (False,):
        s = _Static(state, dynamic, reuse=None)
        best: dict[tuple[int, int, bool], tuple[int, int, Any]] = {}
        for k, option in enumerate(s.options()):
            key = _conclusion(option)
            if key in done:
                continue
            size = s.estimate(*option)
            if size >= UNTRACEABLE:
                continue
            if key not in best or size < best[key][0]:
                best[key] = (size, k, option)
        for key, (_, _, option) in sorted(best.items(), key=lambda x: x[1][:2]):
            done.add(key)
            proof, _ = s.proof_of(*option)
            c, v, true = key
            yield make_step(state.geo, proof, [(c, v)] if true else [], [] if true else [(c, v)])
    empty = sum(1 for m in state.cand if m)
    if not done and empty and sum(m.bit_count() for m in state.cand) <= NESTED_DENSITY * empty:
        step = nested_step(state, 1)
        if step is not None:
            yield step


def _conclusion(option: tuple[str, list[tuple[int, int, bool]], Any]) -> tuple[int, int, bool]:
    """(cell, value, true) the option proves: a contradicting assumption proves its opposite."""
    kind, ass, concl = option
    if concl is None:
        c, v, t = ass[0]
        return c, v, not t
    c, v, t = concl
    return c, v, bool(t)
