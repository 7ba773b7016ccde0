"""Progressive hints for a learner stuck on a grid.

The hint starts where the learner is: a puzzle line, a partly solved grid,
or a pencil-mark grid (their own candidates). Level 1 names the technique,
level 2 adds the house and the value to look at, level 3 is the whole step.
No drawing here (render.frame draws a level-3 hint's frame).
"""
from __future__ import annotations

from dataclasses import dataclass

from techniques import REGISTRY, title

from ..explanation import Explanation
from ..grid import PuzzleError, parse_grid, value_char
from ..i18n import house_words, text_in
from ..state import State
from .pencilmarks import looks_like_pencilmarks, parse_pencilmarks

LEVELS = (1, 2, 3)

WORDS = {
    "en": {"look": "Look for: {t}.", "where": "Look for: {t}, {place}, on the value {v}.",
           "in": "in {house}", "at": "at {cell}", "solved": "The grid is already solved.",
           "no_solution": "this grid has no solution"},
    "fr": {"look": "Cherchez : {t}.", "where": "Cherchez : {t}, {place}, sur la valeur {v}.",
           "in": "dans {house}", "at": "en {cell}", "solved": "La grille est déjà résolue.",
           "no_solution": "cette grille n'a pas de solution"},
}


@dataclass(frozen=True)
class Hint:
    level: int
    text: str
    step: Explanation | None
    state: State


def read_grid_state(text: str, where: str = "") -> State:
    """The candidate state written in ``text``: pencil marks, or a (partly solved) grid."""
    if looks_like_pencilmarks(text):
        return parse_pencilmarks(text, where)
    return State.from_grid(parse_grid(text, where))


def next_step_from(state: State) -> Explanation | None:
    """The next human step from ``state``; brutal (with a solution) only when nothing else applies."""
    from ..engine import next_step
    from ..solver import solve_bitmask

    if state.is_solved():
        return None
    step = next_step(state, REGISTRY, solution=None)  # without a solution, brutal is skipped
    if step is not None:
        return step
    geo = state.geo
    forbid = [(c, v) for c in range(geo.ncells) if not state.values[c]
              for v in range(1, geo.n + 1) if not state.has(c, v)]
    solutions = solve_bitmask(geo.n, state.values, 1, forbid=forbid)
    if not solutions:
        if not solve_bitmask(geo.n, state.values, 1):
            raise PuzzleError(WORDS["en"]["no_solution"])
        raise PuzzleError("the pencil marks rule out every solution (a true value was removed)")
    return next_step(state, REGISTRY, solution=solutions[0])


def hint_text(step: Explanation | None, level: int, lang: str = "en") -> str:
    w = WORDS.get(lang, WORDS["en"])
    if step is None:
        return w["solved"]
    name = title(step.technique, lang)
    if level <= 1:
        return w["look"].format(t=name)
    if level == 2:
        cand = (step.place or step.eliminate or step.marked or ((0, 0, 0),))[0]
        if step.houses:
            place = w["in"].format(house=house_words(*step.houses[0], lang))
        else:
            place = w["at"].format(cell=f"r{cand[0] + 1}c{cand[1] + 1}")
        return w["where"].format(t=name, place=place, v=value_char(cand[2]))
    return text_in(step, lang)


def hint(text_or_state: str | State, level: int = 1, lang: str = "en", where: str = "") -> Hint:
    """The hint at ``level`` for a grid (text in any accepted form) or a state."""
    if level not in LEVELS:
        raise ValueError(f"hint level must be 1, 2 or 3, not {level}")
    state = text_or_state if isinstance(text_or_state, State) else read_grid_state(text_or_state, where)
    step = next_step_from(state)
    return Hint(level, hint_text(step, level, lang), step, state)
