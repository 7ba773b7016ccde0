"""The library API: the engine with the technique registry plugged in.

``explainer.engine`` receives ``Technique`` records and never imports the
registry; this module resolves names (``"x wing"``, aliases) and defaults to
every registered technique, so ``Puzzle(line)`` explains with all of them.

Misuse raises ``PuzzleError`` (explainer.model.grid) with a one-line message: a
puzzle of the wrong type or shape, techniques given as one string or naming
nothing known, a step number that is not a whole number in 0..len(steps).
"""
from __future__ import annotations

import warnings
from collections.abc import Iterable, Sequence
from typing import Any

import techniques as registry
from explainer import engine
from explainer.engine import orders
from explainer.model.explanation import Explanation
from explainer.model.grid import Grid, PuzzleError, PuzzleTypeError, StepIndexError, UnknownNameError, type_name
from explainer.model.order import Order
from explainer.model.rating import Rating
from explainer.model.state import State
from explainer.model.technique import Technique

SE_SIZE = 9  # Sudoku Explainer's grids


class Puzzle(engine.Puzzle):
    """``engine.Puzzle`` taking technique names, aliases or records (default: the whole registry).

    ``uniqueness=False`` leaves out the steps that assume a single solution
    (unique rectangle and loop, bug+1, BUG), which some teachers and setters reject;
    ``brutal=False`` never reads the solution (a grid the techniques cannot
    finish is then reported unfinished, ``complete`` False);
    ``order="simplest"`` (the default) takes the lowest-rated step at each step,
    ``order="seed"`` the first technique in registry order with a step (a name of
    ``explainer.engine.orders.ORDERS``, or an ``Order``); ``easiest=True`` / ``False`` are
    the old names of the two, still read for old callers with a ``DeprecationWarning``.

    Two ratings, labelled apart: ``rating`` is this path's (its hardest step's ER, EP, ED),
    ``se_rating`` the puzzle's as Sudoku Explainer rates it (``rate``: SE's own path; 9×9 only,
    computed when first read). ``summary()`` says both; ``with_se_rating=True`` writes the second
    into the steps JSON too (``se_rating``, as the bank's documents record it), at the cost of
    SE's rating run (about half an explanation's time)."""

    def __init__(self, puzzle: str | Grid | Sequence[Sequence[int]],
                 techniques: Iterable[str | Technique] | None = None, *, where: str = "",
                 max_steps: int | None = None, profile: bool = False, easiest: bool | None = None,
                 order: str | Order | None = None, uniqueness: bool = True, brutal: bool = True,
                 check: bool | None = None, rating_only: bool = False, with_se_rating: bool = False) -> None:
        check_flags(brutal=brutal, uniqueness=uniqueness, profile=profile, rating_only=rating_only,
                    with_se_rating=with_se_rating)
        check_flags(optional=True, easiest=easiest, check=check)
        if techniques is not None and not isinstance(techniques, (str, bytes)) and hasattr(techniques, "__iter__"):
            techniques = list(techniques)
            if not techniques:  # as the command line refuses --techniques ''
                raise PuzzleError("techniques names no technique: give one or more, or None for every technique")
        order = order_or_easiest(order, easiest)
        chosen = chosen_records(techniques, order, uniqueness, brutal)
        if max_steps is not None and (not isinstance(max_steps, int) or isinstance(max_steps, bool)
                                      or max_steps < 0):
            raise PuzzleTypeError(f"max_steps is a whole number, 0 or more, or None, not {max_steps!r}")
        super().__init__(puzzle, chosen, where=where, max_steps=max_steps, profile=profile, order=order,
                         uniqueness=uniqueness, check=check, rating_only=rating_only)
        if self.order.producers and self.n != SE_SIZE:
            raise PuzzleError(f"Sudoku Explainer rates 9×9 grids only, not {self.n}×{self.n} "
                              f"(the {self.order.name} order)", where)
        self.with_se_rating = with_se_rating
        self._se_rating: Rating | None = None

    # ---- the puzzle's rating as Sudoku Explainer gives it, beside this path's --------------------
    @property
    def se_rating(self) -> Rating | None:
        """ER / EP / ED of the puzzle as Sudoku Explainer rates it (``rate``, Sukaku Explainer's
        numbers): this path's own on the se order, else SE's rating run; None for a grid SE does
        not rate (not 9×9). ``rating`` is this path's: the two differ when this order's hardest
        step is not SE's (the seed: ER 8.2 on the default path, SE 7.4)."""
        if self.n != SE_SIZE:
            return None
        if self._se_rating is None:
            self._se_rating = (self.rating if self.order is orders.SE_ORDER
                               else rate(self.grid, where=self.where))
        return self._se_rating

    def rating_words(self) -> str:
        """This path's rating and, for a 9×9, Sudoku Explainer's rating of the puzzle, each labelled."""
        own = super().rating_words()
        se = self.se_rating
        if se is None:
            return own
        if self.order is orders.SE_ORDER:
            return f"{own}, Sudoku Explainer's rating of the puzzle"
        return f"{own}; Sudoku Explainer's rating of the puzzle ER {se.er:.1f} (EP {se.ep:.1f}, ED {se.ed:.1f})"

    def to_json(self) -> dict[str, Any]:
        """The steps JSON document; with ``with_se_rating`` (and a 9×9) also ``se_rating``: SE's
        ER / EP / ED of the puzzle and the order that gave them, beside ``rating`` (this path's)."""
        doc = super().to_json()
        se = self.se_rating if self.with_se_rating else None
        if se is None:
            return doc
        out: dict[str, Any] = {}
        for key, value in doc.items():  # right after this path's rating
            out[key] = value
            if key == "rating":
                out["se_rating"] = dict(se.to_dict(), order=orders.SE_ORDER.name)
        return out

    # ---- navigation: a step number out of range is an error, never silently moved ----------
    def _step_number(self, k: Any, last: int, what: str = "step") -> int:
        if isinstance(k, bool) or not hasattr(k, "__index__"):
            raise PuzzleTypeError(f"a {what} number is a whole number, not {k!r}")
        number = int(k.__index__())
        if not 0 <= number <= last:
            raise StepIndexError(f"{what} {number} out of range 0..{last}")
        return number

    def state_before(self, k: int) -> State:
        """A copy of the candidate state before step k (0-based, 0..len(steps); len(steps) is the end)."""
        return super().state_before(self._step_number(k, len(self.steps)))

    def goto(self, k: int) -> State:
        """Move the cursor before step k (0..len(steps)) and return that state."""
        return super().goto(self._step_number(k, len(self.steps)))

    def undo(self) -> State:
        """Move the cursor one step back (it stays at 0, the initial grid)."""
        return super().goto(max(0, self.cursor - 1))

    def frame_png(self, k: int | None = None, **options: Any) -> bytes:
        """PNG of frame k: 0 the initial grid, 1..len(steps) the steps (drawn on the
        state before them), len(steps)+1 the solution; default: the cursor's step."""
        from render.frame import puzzle_frame_png  # lazy: explaining never needs matplotlib

        if k is None:
            k = min(self.cursor + 1, len(self.steps) + 1)
        return puzzle_frame_png(self, self._step_number(k, len(self.steps) + 1, "frame"), **options)

    def _repr_png_(self) -> bytes | None:
        return self.frame_png()


def order_or_easiest(order: str | Order | None, easiest: bool | None) -> str | Order | None:
    """The order a caller asked for, reading the order's old name ``easiest`` (True the simplest
    order, False the seed's) with a ``DeprecationWarning``: the one place the old name is read
    (the library's ``Puzzle``; the command line's ``--easiest`` gives an order). ``easiest``
    contradicting ``order`` is a ``PuzzleError``."""
    if easiest is None:
        return order
    warnings.warn("Puzzle(easiest=...) is deprecated: use order='simplest' or order='seed'",
                  DeprecationWarning, stacklevel=3)
    wanted = orders.SIMPLEST if easiest else orders.SEED
    if order is not None and orders.order_named(order) is not wanted:
        raise PuzzleError(f"easiest={easiest} contradicts order={orders.order_named(order).name!r}")
    return wanted


def check_flags(*, optional: bool = False, **flags: Any) -> None:
    """Each flag True or False (or None when ``optional``): \"no\" or \"x\" would be taken as true."""
    for name, flag in flags.items():
        if not isinstance(flag, bool) and not (optional and flag is None):
            raise PuzzleTypeError(f"{name} is True or False{', or None' if optional else ''}, not {flag!r}")


def chosen_records(techniques: Iterable[str | Technique] | None, order: str | Order | None,
                   uniqueness: bool = True, brutal: bool = True) -> list[Technique]:
    """The techniques a run explains with: the order's own list when it brings one (Sudoku
    Explainer's orders: a technique list given too is an error), else the records of the names
    given (all by default); ``brutal=False`` leaves out what reads the solution."""
    chosen_order = orders.order_named(order)
    if chosen_order.producers:
        if techniques is not None:
            raise PuzzleError(f"the {chosen_order.name} order explains with Sudoku Explainer's own techniques: "
                              "give no technique list with it")
        return registry.producer_list(chosen_order.producers, uniqueness)
    return [t for t in records(techniques, uniqueness) if brutal or not t.reads_solution]


def records(techniques: Iterable[str | Technique] | None, uniqueness: bool = True) -> list[Technique]:
    """The registry records of technique names, aliases or records (None: all), in registry order."""
    if isinstance(techniques, (str, bytes)):
        raise PuzzleTypeError(f"techniques is a list of names, e.g. [{techniques!r}], not one string")
    if techniques is not None:
        if not hasattr(techniques, "__iter__"):
            raise PuzzleTypeError(f"techniques is a list of names or None, not {type_name(techniques)}")
        techniques = list(techniques)
        bad = [t for t in techniques if not isinstance(t, (str, Technique))]
        if bad:
            raise PuzzleTypeError(f"a technique is a name or a Technique record, not {bad[0]!r}")
    try:
        return registry.select(techniques, uniqueness)
    except KeyError as e:
        raise UnknownNameError(str(e.args[0]) if e.args else str(e)) from None


def _step_png(before: Any, step: Explanation) -> bytes:
    from render.frame import step_png  # lazy: explaining never needs matplotlib

    return step_png(before, step, kinds=registry.known_kinds())


def _state_png(state: State) -> bytes:
    from render.frame import state_png  # lazy: explaining never needs matplotlib

    return state_png(state, candidates=True)


# A step and a state draw themselves in a notebook through render, which the core never imports.
Explanation.drawer = _step_png
State.drawer = _state_png


def rate(puzzle: str | Grid | Sequence[Sequence[int]], *, classic: bool = False, uniqueness: bool = True,
         where: str = "") -> Rating:
    """Sudoku Explainer's ER, EP and ED of a 9×9 puzzle with one solution, as Sukaku Explainer 1.15.10
    prints them (``classic=True``: classic SE 1.2.1.3's serate), without explaining: the ``se``
    order's path with bare steps (``Context.rating_only``), the same steps and numbers.

    >>> rate("..29.1.3.7.........3526..1.......7..42..3..96..7.......7..5986.........1.5.1.82..")
    Rating(er=6.2, ep=1.5, ed=1.5)

    A puzzle SE's techniques cannot finish gets ER 20.0, as SE's serate prints it; a bad puzzle
    (no or several solutions, another size) is a ``PuzzleError``."""
    check_flags(classic=classic)
    return Puzzle(puzzle, order=orders.SE_CLASSIC_ORDER if classic else orders.SE_ORDER, uniqueness=uniqueness,
                  rating_only=True, where=where).rating


def explain(puzzle: str | Grid | Sequence[Sequence[int]],
            techniques: Iterable[str | Technique] | None = None, *, uniqueness: bool = True,
            order: str | Order | None = None) -> list[Explanation]:
    """The list of steps that solve the puzzle (the library's main call), simplest first
    unless ``order="seed"``."""
    return Puzzle(puzzle, techniques, uniqueness=uniqueness, order=order).steps
