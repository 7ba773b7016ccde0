"""Check mode: the engine watches every finder it calls (tests; off in production runs).

A finder must leave the state it reads as it found it, and the session's tables
too, even when the engine stops reading it half-way (a generator closed
early); every step it yields must describe the state it was handed. A finder
that breaks this is a bug that may show steps later, in another finder, or
never (a wrong step that happens to be sound). In check mode the engine wraps
each finder call (``guarded``) and fails at the finder that did it
(``FinderFault``), naming it:

- the state (values, candidates, places, version) and the session (its state,
  the tables of the current state it already held) are compared before the
  call, at each step yielded, while the engine reads it, and once the call is
  closed;
- each yielded step must name live candidates only (what it places and
  removes, every candidate of its roles, its links' ends), name in its roles the
  assumptions its caption states (``role_problems``), be sound against
  the solution when the engine knows it, and, for a pattern of cells (a
  wing's pivot and pincers), hold as the pattern claims: with a removed
  candidate true, the pattern's cells could not all be filled;
- a lead (a step found, not built: ``technique.Lead``) is built here to be checked
  the same way, and must tell the truth about its step: its name, how many values it
  places and candidates it removes, and a least rating its step does not go below.

Check mode is on when ``SUDOKU_EXPLAINER_CHECK`` is set to anything but ``0``
(the test suite sets it) or with ``Puzzle(..., check=True)``; it costs a few
microseconds per finder call and per step yielded.
"""
from __future__ import annotations

import os
import re
from collections.abc import Callable, Iterable, Iterator, Sequence
from dataclasses import replace
from typing import Any

from explainer.model.explanation import Explanation
from explainer.model.grid import Geometry, bits, value_char
from explainer.model.session import Session
from explainer.model.state import State
from explainer.model.technique import Context, Lead

__all__ = ["CHECK_ENV", "FinderFault", "check_requested", "guarded", "role_problems", "step_problems"]

CHECK_ENV = "SUDOKU_EXPLAINER_CHECK"


def check_requested() -> bool:
    """True when the environment asks for check mode (``SUDOKU_EXPLAINER_CHECK``, not 0)."""
    return os.environ.get(CHECK_ENV, "").strip() not in ("", "0")


class FinderFault(AssertionError):
    """A finder changed what it reads, or yielded a step that does not describe its state: a bug."""


def _state_print(state: State) -> tuple[Any, ...]:
    return (state.version, state.unsolved, tuple(state.values), tuple(state.cand), tuple(state.pos))


def _session_print(session: Session | None, state: State) -> tuple[Any, ...] | None:
    """What a finder may not change in the session: which state it solves, the version its
    tables are for, and the tables of the current state it holds (by identity; a finder may
    add tables, never replace or drop one)."""
    if session is None:
        return None
    return session.check_print()


def _session_changed(before: tuple[Any, ...] | None, now: tuple[Any, ...] | None) -> str | None:
    if before is None or now is None:
        return None
    if before[:2] != now[:2]:
        return "the session's state or version"
    lost = [key for key, ident in before[2].items() if now[2].get(key) != ident]
    if lost:
        return f"the session's table {lost[0]!r}"
    return None


def _cands_of(step: Explanation) -> Iterator[tuple[str, tuple[int, int, int]]]:
    """Every candidate a step names, with where it names it: what it changes, its links and its
    roles (what its frame shows). The older highlight fields (``marked``) may show a pattern's
    missing candidates (a unique rectangle with a corner missing one of its values)."""
    named: list[tuple[str, Sequence[int]]] = [("place", c) for c in step.place]
    named += [("eliminate", c) for c in step.eliminate]
    for a, b in tuple(step.strong_links) + tuple(step.weak_links):
        named += [("link", a), ("link", b)]
    for role in step.roles:
        named += [(f"role {role.role}", c) for c in role.candidates]
        named += [(f"role {role.role}", end) for end in (role.source, role.target) if end is not None]
    for where, c in named:
        yield where, (c[0], c[1], c[2])


def _fillable(geo: Geometry, cells: Sequence[int], masks: dict[int, int]) -> bool:
    """True if the cells can each take a value of their mask, cells that see each other apart."""
    order = sorted(cells, key=lambda c: masks[c].bit_count())
    taken: dict[int, int] = {}

    def place(k: int) -> bool:
        if k == len(order):
            return True
        c = order[k]
        free = masks[c]
        for d, v in taken.items():
            if geo.peer_mask[c] >> d & 1:
                free &= ~(1 << (v - 1))
        for b in bits(free):
            taken[c] = b + 1
            if place(k + 1):
                return True
            del taken[c]
        return False

    return place(0)


def _pattern_problems(state: State, step: Explanation) -> list[str]:
    """A wing (roles ``pivot`` and ``pincer``) claims that its cells could not all be filled
    if a candidate it removes were true: checked on the state, one removal at a time."""
    geo = state.geo
    n = geo.n
    pattern: set[int] = set()
    named = set()
    for role in step.roles:
        if role.role in ("pivot", "pincer"):
            named.add(role.role)
            pattern |= {r * n + c for r, c in role.cells}
    if named != {"pivot", "pincer"} or len(pattern) > 8:
        return []
    out = []
    for r, c, v in step.eliminate:
        e = r * n + c
        if e in pattern:
            return [f"removes {value_char(v)} from its own cell r{r + 1}c{c + 1}"]
        masks = {p: state.cand[p] & ~(1 << (v - 1)) if geo.peer_mask[e] >> p & 1 else state.cand[p]
                 for p in pattern}
        if _fillable(geo, sorted(pattern), masks):
            cells = ", ".join(f"{geo.cell_name(p)} {{{''.join(value_char(x) for x in state.candidates(p))}}}"
                              for p in sorted(pattern))
            out.append(f"r{r + 1}c{c + 1}={value_char(v)} leaves its cells ({cells}) a filling")
            break
    return out


def _said(text: str, r: int, c: int, v: int, truth: bool) -> bool:
    """Whether an English caption states the fact "r<r>c<c> is v" (or "is not v")."""
    cell, x = f"r{r + 1}c{c + 1}", re.escape(value_char(v))
    if truth:
        return re.search(rf"\b{cell}(=| is ){x}(?!\w)", text) is not None
    return re.search(rf"\b{cell}(≠|<>| is not ){x}(?!\w)|\b{cell} is {x} or not", text) is not None


def role_problems(step: Explanation) -> list[str]:
    """What a step's roles say that its own caption does not (issue 41): each branch's
    ``assumption`` names a fact the caption states ("r8c2 is 5", "suppose r8c2≠5"), with the
    truth its branch assumes (``render.scene.assumed_truth``'s rule), and no two branches
    name the same fact. (That every role names live candidates is ``step_problems``'.)"""
    proof = step.proof
    out: list[str] = []
    seen: dict[tuple[int, int, int, bool], int | None] = {}
    for role in step.roles:
        if role.role != "assumption":
            continue
        for cand in role.candidates:
            r, c, v = cand[0], cand[1], cand[2]
            truth = True
            k = role.group or 0
            if proof is not None and k < len(proof.branches):
                ar, ac, av, at = proof.branches[k].assume
                truth = bool(at) if (ar, ac, av) == (r, c, v) else True
            fact = (r, c, v, truth)
            if fact in seen:
                out.append(f"assumption groups {seen[fact]} and {role.group} both name "
                           f"r{r + 1}c{c + 1}{'=' if truth else '≠'}{value_char(v)}")
            seen[fact] = role.group
            if step.text and not _said(step.text, r, c, v, truth):
                out.append(f"assumption {role.name} r{r + 1}c{c + 1}{'=' if truth else '≠'}{value_char(v)} "
                           "is not what the caption assumes")
    return out


def step_problems(state: State, step: Explanation, solution: Sequence[int] | None = None) -> list[str]:
    """What is wrong with a step yielded on ``state``: candidates it names that the state does not
    hold, a placement or removal the solution contradicts, a pattern that does not hold."""
    n = state.geo.n
    out = []
    if not step.place and not step.eliminate:
        out.append("changes nothing")
    for where, (r, c, v) in _cands_of(step):
        if not state.cand[r * n + c] >> (v - 1) & 1:
            out.append(f"{where} names r{r + 1}c{c + 1}={value_char(v)}, not a candidate of the state")
            break
    if solution is not None:
        for r, c, v in step.place:
            if solution[r * n + c] != v:
                out.append(f"places {value_char(v)} at r{r + 1}c{c + 1}, the solution has "
                           f"{value_char(solution[r * n + c])}")
        for r, c, v in step.eliminate:
            if solution[r * n + c] == v:
                out.append(f"removes the true value {value_char(v)} from r{r + 1}c{c + 1}")
    return out + _pattern_problems(state, step) + role_problems(step)


def _lead_problems(lead: Lead, step: Explanation, rate: Callable[[Explanation], float] | None,
                   least: Callable[[Lead], float] | None,
                   size: Callable[[Explanation], tuple[int, int, int]] | None = None) -> list[str]:
    out = []
    if step.technique != lead.technique:
        out.append(f"its lead says {lead.technique}")
    if (len(step.place), len(step.eliminate)) != (lead.place, lead.eliminate):
        out.append(f"its lead says {lead.place} placed and {lead.eliminate} removed")
    if rate is not None and least is not None and rate(step) < least(lead) - 1e-9:
        out.append(f"rated {rate(step)}, below the least rating {least(lead)} the engine takes for its lead")
    if lead.bare is not None:  # a lead ranked by its step without words: the step, words and roles aside
        made = replace(step, text=lead.bare.text, translations=lead.bare.translations, roles=lead.bare.roles)
        if made != lead.bare or lead.bare.text or lead.bare.translations or lead.bare.roles:
            out.append(f"its lead's bare step is not the step without its words and roles: {lead.bare.summary()}")
    if lead.size is not None:  # a lead ranked by its whole key: its rating and size exact
        if rate is not None and least is not None and abs(rate(step) - least(lead)) > 1e-9:
            out.append(f"rated {rate(step)}, not the rating {least(lead)} its lead says")
        if size is not None and size(step) != lead.size:
            out.append(f"its pattern size is {size(step)}, its lead says {lead.size}")
    return out


def guarded(found: Iterable[Explanation | Lead], name: str, state: State, ctx: Context,
            solution: Sequence[int] | None, rate: Callable[[Explanation], float] | None = None,
            least: Callable[[Lead], float] | None = None,
            size: Callable[[Explanation], tuple[int, int, int]] | None = None) -> Iterator[Explanation | Lead]:
    """``found`` (a finder's output on ``state``) checked as it is read (module docstring).
    The state and the session are compared with what they were when the finder was called:
    call this before the finder's first step is asked for, i.e. right after ``t.find(...)``.
    A lead is built to be checked (``rate``: how the engine rates a step; ``least``: the least
    rating the engine takes for a lead; ``size``: a step's pattern size, for a lead that says its
    own) and handed on as a lead."""
    before = _state_print(state)
    held = _session_print(ctx.session, state)
    it = iter(found)

    def same(when: str) -> None:
        if _state_print(state) != before:
            raise FinderFault(f"{name} changed the state {when}")
        changed = _session_changed(held, _session_print(ctx.session, state))
        if changed is not None:
            raise FinderFault(f"{name} changed {changed} {when}")

    failed = False
    try:
        for found_step in it:
            same("while searching")
            step = found_step.build() if isinstance(found_step, Lead) else found_step
            same("while building its step")
            problems = step_problems(state, step, solution)
            if isinstance(found_step, Lead):
                problems += _lead_problems(found_step, step, rate, least, size)
            if problems:
                raise FinderFault(f"{name} yielded a step that does not hold ({'; '.join(problems)}): "
                                  f"{step.summary()}: {step.text}")
            yield found_step
            same("while its step was read")
    except GeneratorExit:  # the engine stopped reading: the finder is closed and checked below
        raise
    except BaseException:
        failed = True  # report this failure, not a consequence of it
        raise
    finally:
        close = getattr(it, "close", None)
        if close is not None:
            close()
        if not failed:
            same("when it was closed")
