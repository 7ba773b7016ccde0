"""Progressive hints for a learner stuck on a grid.

The hint starts where the learner is: a puzzle line, a partly solved grid,
or a pencil-mark grid (their own candidates). The hint is the step the
engine's order takes next from there: by default the simplest step available
(the lowest rating), the same step ``Puzzle`` takes from that position. Level
1 names the technique, level 2 adds the house and the value to look at,
level 3 is the whole step.
No drawing here (render.frame draws a level-3 hint's frame).
"""
from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from explainer.engine.orders import DEFAULT_ORDER, choose_step, contexts, order_named
from explainer.model.explanation import Explanation
from explainer.model.grid import Grid, PuzzleError, parse_grid, value_char
from explainer.model.i18n import house_words, text_in
from explainer.model.order import Order
from explainer.model.state import State
from explainer.model.technique import Technique, left_out
from techniques import REGISTRY, producer_list, title

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


def read_grid_state(text: str, where: str = "", check: bool = True) -> State:
    """The candidate state written in ``text``: pencil marks, or a (partly solved) grid.

    ``check=False``: pencil marks that leave a cell or a house without a place for a value are
    kept as written (``check_grid`` then names the learner's removal that did it)."""
    if looks_like_pencilmarks(text):
        return parse_pencilmarks(text, where, check)
    return State.from_grid(parse_grid(text, where))


class GridMistake(PuzzleError):
    """The learner's grid disagrees with the solution (a wrong value or a removed true candidate)."""


def solution_of(state: State, puzzle: str | Grid | None = None, where: str = "") -> tuple[int, ...]:
    """The solution the learner's grid must agree with.

    From ``puzzle`` (the original puzzle line) when given; otherwise from
    the values of the grid, taken as givens (and, when those leave several
    solutions, narrowed by the pencil marks). No or several solutions give
    the same one-line errors as ``explain``."""
    from explainer.core.solver import MANY_SOLUTIONS, NO_SOLUTION, solve_bitmask, unique_solution

    geo = state.geo
    if puzzle is not None:
        grid = parse_grid(puzzle, where)
        if grid.n != geo.n:
            raise PuzzleError(f"the puzzle is {grid.n}×{grid.n} but the grid is {geo.n}×{geo.n}", where)
        return unique_solution(grid, where).values
    solutions = solve_bitmask(geo.n, state.values, 2)
    if not solutions:  # bad input (the values are the givens here), with the likely wrong entry if one
        wrong = _wrong_value(state)
        raise PuzzleError(NO_SOLUTION + (f"; {wrong}" if wrong else ""), where)
    if len(solutions) == 1:
        return tuple(solutions[0])
    forbid = [(c, v) for c in range(geo.ncells) if not state.values[c]
              for v in range(1, geo.n + 1) if not state.has(c, v)]
    narrowed = solve_bitmask(geo.n, state.values, 2, forbid=forbid)
    if len(narrowed) == 1:  # the pencil marks decide between the solutions of the values
        return tuple(narrowed[0])
    if not narrowed:
        raise PuzzleError("the pencil marks rule out every solution (a true candidate was removed)", where)
    raise PuzzleError(MANY_SOLUTIONS, where)


def _wrong_value(state: State) -> str | None:
    """For a grid of values without a solution: the first value whose removal leaves exactly one
    solution that disagrees with it (the learner's wrong entry), as one line; None if there is none
    or the grid is larger than 9×9 (too slow to search)."""
    from explainer.core.solver import SearchLimit, solve_bitmask

    geo = state.geo
    if geo.n > 9:
        return None
    values = list(state.values)
    for c in range(geo.ncells):
        v = values[c]
        if not v:
            continue
        values[c] = 0
        try:
            found = solve_bitmask(geo.n, values, 2, max_nodes=200_000)
        except SearchLimit:
            found = []
        values[c] = v
        if len(found) == 1 and found[0][c] != v:
            return (f"{geo.cell_name(c)}: {value_char(v)} is probably wrong (without it the grid has one "
                    f"solution, with {value_char(found[0][c])} there; --puzzle checks your values against "
                    f"the puzzle)")
    return None


def first_mistake(state: State, solution: tuple[int, ...] | list[int]) -> str | None:
    """The first cell (row by row) where the grid disagrees with the solution, as one line; None if none."""
    geo = state.geo
    for c in range(geo.ncells):
        want = solution[c]
        have = state.values[c]
        if have and have != want:
            return f"{geo.cell_name(c)}: {value_char(have)} is wrong, the solution has {value_char(want)} there"
        if not have and not state.has(c, want):
            return f"{geo.cell_name(c)}: {value_char(want)} was removed but the solution needs it"
    return None


def check_grid(state: State, puzzle: str | Grid | None = None, where: str = "") -> tuple[int, ...]:
    """The solution, after checking the learner's values and pencil marks against it (GridMistake if not).

    A state the pencil marks make impossible (a removal that empties a cell, or leaves a value no
    place in a house) is the learner's mistake when a true candidate was removed, and is named
    as such; only marks impossible with no mistake to name are "impossible pencil marks"."""
    solution = solution_of(state, puzzle, where)
    mistake = first_mistake(state, solution)
    if mistake:
        raise GridMistake(mistake, where)
    problem = state.contradiction()
    if problem:
        raise PuzzleError(f"impossible pencil marks: {problem}", where)
    return solution


@dataclass(frozen=True)
class Mistake:
    """One mistake of the learner's grid: a wrong value (``kind`` "value": ``value`` is the
    learner's, never the solution's) or a true candidate left out of their marks ("removed")."""

    cell: int
    value: int
    kind: str
    name: str  # the cell, "r4c7"

    def text(self, lang: str = "en") -> str:
        words = MISTAKE_WORDS.get(lang, MISTAKE_WORDS["en"])
        return words[self.kind].format(cell=self.name, v=value_char(self.value))

    def to_dict(self, lang: str = "en") -> dict[str, object]:
        return {"cell": self.name, "value": self.value, "kind": self.kind, "text": self.text(lang)}


MISTAKE_WORDS = {
    "en": {"value": "{cell} is not {v}", "removed": "you removed {v} from {cell}, but {v} can still go there"},
    "fr": {"value": "{cell} n'est pas {v}",
           "removed": "vous avez retiré {v} de {cell}, mais {v} peut encore y aller"},
}


def mistakes(state: State, solution: Sequence[int]) -> list[Mistake]:
    """Every mistake of the grid against the solution, cell by cell (row by row): each value
    that is not the solution's, and each true candidate missing from an empty cell's marks
    (a removal that empties a cell, or leaves a value no place in a house, is one of these).

    A true candidate missing only because a wrong value in a peer cleared it is not named:
    the wrong value is the mistake, the learner removed nothing."""
    geo = state.geo
    out = []
    values = state.values
    for c in range(geo.ncells):
        want = solution[c]
        have = values[c]
        if have and have != want:
            out.append(Mistake(c, have, "value", geo.cell_name(c)))
        elif not have and not state.has(c, want):
            if any(values[p] == want for p in geo.peers[c]):
                continue  # cleared by a wrong value in a peer
            out.append(Mistake(c, want, "removed", geo.cell_name(c)))
    return out


def next_step_from(state: State, solution: Sequence[int] | None = None,
                   order: str | Order = DEFAULT_ORDER,
                   techniques: Sequence[Technique] | None = None) -> Explanation | None:
    """The next step from ``state`` on the engine's order (default: the simplest step
    available, as ``Puzzle`` takes it, never a guess); brutal (with the solution) only when
    nothing else applies. ``techniques``: the records the step may use (default: the
    registry's, or the producers of Sudoku Explainer's orders); None when none of them applies.

    The grid is checked first (``check_grid``) unless the caller gives the solution it checked."""
    if solution is None:
        solution = check_grid(state)
    if state.is_solved():
        return None
    chosen = order_named(order)
    # Sudoku Explainer's orders bring SE's producers (SE's next hint there)
    if techniques is None:
        techniques = producer_list(chosen.producers) if chosen.producers else REGISTRY
    off = left_out(techniques, chosen)
    for known in (None, solution):  # without a solution, brutal is skipped
        ctxs = contexts(techniques, known, chosen, off=off)
        step = choose_step(chosen, state, techniques, known, None, ctxs)
        if step is not None:
            return step
    return None


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


def hint(text_or_state: str | State, level: int = 1, lang: str = "en", where: str = "",
         puzzle: str | Grid | None = None, order: str | Order = DEFAULT_ORDER) -> Hint:
    """The hint at ``level`` for a grid (text in any accepted form) or a state: the step the
    engine's ``order`` takes next from there (default: the simplest step available).

    The grid is checked against the solution first (of ``puzzle``, the
    original puzzle line, when given): a wrong value or a removed true
    candidate raises ``GridMistake`` naming the first such cell, and no hint
    is given."""
    if level not in LEVELS:
        raise ValueError(f"hint level must be 1, 2 or 3, not {level}")
    if lang not in WORDS:
        raise ValueError(f"unknown language {lang!r} (en or fr)")
    order = order_named(order)
    state = text_or_state if isinstance(text_or_state, State) else read_grid_state(text_or_state, where, check=False)
    solution = check_grid(state, puzzle, where)
    step = next_step_from(state, solution, order)
    return Hint(level, hint_text(step, level, lang), step, state)
