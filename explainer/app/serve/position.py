"""A learner's position read from a request: the puzzle, their values and their marks.

The server is stateless: every request carries the whole position (docs/serve.md, "A
position"), read and checked here into a candidate ``State`` and the puzzle's solution.
Anything malformed is a ``BadRequest`` with one line naming the field; a puzzle without
exactly one solution gets the command line's own message.
"""
from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from explainer.core.solver import unique_solution
from explainer.engine.orders import ORDERS, order_named
from explainer.model.grid import EMPTY_CHARS, LETTERS, SIZES, Grid, PuzzleError, geometry, parse_grid, text_values
from explainer.model.order import Order
from explainer.model.state import State
from explainer.model.technique import Technique
from techniques import REGISTRY, lookup

LANGS = ("en", "fr")
ORDER_NAMES = ("simplest", "seed", "se", "se-classic")
MAX_SIZE = 25


class BadRequest(Exception):
    """A request the server refuses: ``status`` (4xx) and one line saying why."""

    def __init__(self, message: str, status: int = 400) -> None:
        super().__init__(message)
        self.message = " ".join(str(message).split())
        self.status = status


@dataclass
class Position:
    """What a request says about the learner's grid, read and checked."""

    puzzle: Grid  # the original puzzle: its values are the givens
    state: State  # the learner's values and candidates (their marks, or all candidates of the grid)
    solution: tuple[int, ...]
    lang: str
    order: Order
    techniques: list[Technique] | None  # the ticked techniques (None: all)

    @property
    def n(self) -> int:
        return self.puzzle.n


def field(body: Mapping[str, Any], name: str, kind: type | tuple[type, ...], default: Any = None,
          required: bool = False) -> Any:
    """A field of the request body of the expected JSON type (a missing or null one: ``default``)."""
    value = body.get(name)
    if value is None:
        if required:
            raise BadRequest(f"{name}: missing")
        return default
    if not isinstance(value, kind) or isinstance(value, bool) and bool not in (kind if isinstance(kind, tuple)
                                                                               else (kind,)):
        raise BadRequest(f"{name}: expected {_kind_name(kind)}, not {type(value).__name__}")
    return value


def _kind_name(kind: type | tuple[type, ...]) -> str:
    names = {str: "a string", int: "a whole number", list: "a list", dict: "an object", bool: "true or false",
             float: "a number"}
    kinds = kind if isinstance(kind, tuple) else (kind,)
    return " or ".join(names.get(k, k.__name__) for k in kinds)


def read_puzzle(text: str, where: str = "puzzle") -> tuple[Grid, tuple[int, ...]]:
    """The puzzle of a text (any form the command line reads: a line, a multi-line grid;
    ``#`` comment lines skipped) and its one solution; BadRequest with the CLI's message otherwise."""
    lines = [ln for ln in text.splitlines() if not ln.lstrip().startswith("#")]
    rows = [ln.strip() for ln in lines if ln.strip()]
    if len(rows) > 1 and all(len(r) in (k * k for k in SIZES) and " " not in r for r in rows):
        raise BadRequest(f"{where}: {len(rows)} puzzles in the text; give one of them")
    try:
        grid = parse_grid("\n".join(lines), where)
        return grid, unique_solution(grid, where).values
    except PuzzleError as e:
        raise BadRequest(str(e)) from None


def _values(line: str, n: int, name: str) -> list[int]:
    if len(line) != n * n:
        raise BadRequest(f"{name}: {len(line)} characters, expected {n * n} for a {n}×{n} puzzle")
    try:
        return text_values(line, n)
    except PuzzleError as e:
        raise BadRequest(f"{name}: {e}") from None


def learner_state(puzzle: Grid, grid: str | None, marks: str | None) -> State:
    """The learner's candidate state: the givens (a grid may leave them out, never change them),
    their values (placed even when wrong: a clash is a mistake to name, not bad input), then
    their marks (a cell with marks keeps only those; a cell with none keeps all its candidates)."""
    n = puzzle.n
    geo = geometry(n)
    values = list(puzzle.values)
    if grid is not None:
        for c, v in enumerate(_values(grid, n, "grid")):
            if puzzle.values[c] and v and v != puzzle.values[c]:
                raise BadRequest(f"grid: {geo.cell_name(c)} differs from the puzzle's given "
                                 f"(this grid is not from that puzzle)")
            if v and not puzzle.values[c]:
                values[c] = v
    state = State(geo)
    for c, v in enumerate(values):
        if v:
            state.place(c, v)
    if marks is not None:
        if len(marks) != n ** 3:
            raise BadRequest(f"marks: {len(marks)} characters, expected {n ** 3} for a {n}×{n} puzzle "
                             f"({n} slots per cell)")
        for c in range(geo.ncells):
            slots = marks[c * n:(c + 1) * n]
            kept = set()
            for k, ch in enumerate(slots):
                if ch in EMPTY_CHARS:
                    continue
                if ch.upper() != LETTERS[k]:
                    raise BadRequest(f"marks: slot {k + 1} of {geo.cell_name(c)} holds {ch!r}, "
                                     f"expected {LETTERS[k]!r} or '.'")
                kept.add(k + 1)
            if values[c] or not kept:
                continue  # a value, or no marks written yet: all candidates
            for v in range(1, n + 1):
                if v not in kept:
                    state.eliminate(c, v)
    return state


def techniques_of(names: Any) -> list[Technique] | None:
    """The registry records of the ticked techniques (None: all), in registry order."""
    if names is None:
        return None
    if not isinstance(names, list) or not all(isinstance(x, str) for x in names):
        raise BadRequest("techniques: expected a list of technique names")
    if not names:
        raise BadRequest("techniques: tick at least one technique")
    try:
        wanted = {lookup(x).name for x in names}
    except (KeyError, PuzzleError) as e:
        raise BadRequest(f"techniques: unknown technique {e.args[0] if e.args else ''}") from None
    return [t for t in REGISTRY if t.name in wanted]


def options(body: Mapping[str, Any]) -> tuple[str, Order]:
    lang = field(body, "lang", str, "en")
    if lang not in LANGS:
        raise BadRequest(f"lang: {lang!r} is not a language of the page (en or fr)")
    name = field(body, "order", str, "simplest")
    if name not in ORDER_NAMES or name not in ORDERS:
        raise BadRequest(f"order: {name!r} is not an order (known: {', '.join(ORDER_NAMES)})")
    return lang, order_named(name)


def read_position(body: Mapping[str, Any]) -> Position:
    """The position of a request body (docs/serve.md), checked: sizes, characters, givens."""
    if not isinstance(body, Mapping):
        raise BadRequest("the request body is a JSON object")
    line = field(body, "puzzle", str, required=True)
    if len(line) not in (k * k for k in SIZES):
        raise BadRequest(f"puzzle: {len(line)} characters is not a sudoku size "
                         f"(expected {', '.join(str(k * k) for k in SIZES)})")
    puzzle, solution = read_puzzle(line)
    state = learner_state(puzzle, field(body, "grid", str), field(body, "marks", str))
    lang, order = options(body)
    if order.producers and puzzle.n != 9:
        raise BadRequest(f"order: Sudoku Explainer's orders rate 9×9 grids only, not {puzzle.n}×{puzzle.n}")
    chosen = techniques_of(body.get("techniques"))
    if chosen is not None and order.producers:
        raise BadRequest(f"techniques: the {order.name} order uses Sudoku Explainer's own techniques")
    return Position(puzzle, state, solution, lang, order, chosen)


def cell_ref(text: Any, n: int, name: str) -> int:
    """A cell named "r4c7" (1-based), as a cell index."""
    if not isinstance(text, str):
        raise BadRequest(f"{name}: expected a cell such as \"r4c7\"")
    t = text.strip().lower()
    try:
        assert t.startswith("r") and "c" in t
        r, c = (int(x) for x in t[1:].split("c", 1))
    except (AssertionError, ValueError):
        raise BadRequest(f"{name}: {text!r} is not a cell such as \"r4c7\"") from None
    if not (1 <= r <= n and 1 <= c <= n):
        raise BadRequest(f"{name}: {text!r} is outside a {n}×{n} grid")
    return (r - 1) * n + (c - 1)


def value_ref(v: Any, n: int, name: str) -> int:
    if isinstance(v, str) and len(v) == 1 and v.upper() in LETTERS[:n]:
        return LETTERS.index(v.upper()) + 1
    if isinstance(v, bool) or not isinstance(v, int) or not 1 <= v <= n:
        raise BadRequest(f"{name}: expected a value 1..{n}")
    return v


def given_values(position: Position) -> Sequence[int]:
    return position.puzzle.values
