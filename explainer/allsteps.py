"""Every step from a position (HoDoKu's "find all steps"), not just the next one.

``all_steps(position, techniques=None)`` runs each chosen technique's finder
to the end (the engine stops at its first live step) and keeps every
distinct live step, in the engine's order: by default the simplest first
(the simplest order's choice key: rating, the step that does more, registry
order, pattern size; no lucky guess), with ``order="seed"`` by registry
order, then pattern size. A
position is anything ``hint`` reads (puzzle line, partly solved grid,
pencil-mark grid), a line in HoDoKu's library format (``explainer.hodoku``),
a ``State``, a ``Snapshot`` or a ``LibraryEntry``.

Techniques that read the solution (brutal) are skipped: a step read from
the solution explains nothing. A finder fully iterated can be very long
(chains, trial), so each technique stops after ``cap`` steps or ``seconds``
seconds; the returned list says so in its ``notes``.
"""
from __future__ import annotations

import time
from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from typing import Any

from techniques import REGISTRY, lookup

from .engine import FORMAT, Rater, _live
from .explanation import Explanation, step_length
from .grid import SIZES, PuzzleError, parse_grid, value_char
from .hodoku import LibraryEntry, is_library_line, parse_library
from .solver import solve_bitmask
from .state import Snapshot, State
from .technique import DEFAULT_ORDER, Context, StepKind, Technique, left_out, order_name

__all__ = ["CAP", "SECONDS", "Position", "StepList", "all_steps", "code_kinds", "library_line", "one_step_document",
           "read_position", "resolve", "step_code", "steps_document"]

CAP = 500  # steps kept per technique at most
SECONDS = 20.0  # time per technique at most (checked between two steps of its finder)


class StepList(list[Explanation]):
    """The steps (a plain list of ``Explanation``) and ``notes``: what was skipped or cut short."""

    notes: list[str]

    def __init__(self, steps: Iterable[Explanation] = (), notes: Iterable[str] = ()) -> None:
        super().__init__(steps)
        self.notes = list(notes)


@dataclass(frozen=True)
class Position:
    """A candidate state and what is known of where it came from."""

    state: State
    givens: tuple[int, ...]  # the values a steps-JSON document starts from (every value of the position)
    entry: LibraryEntry | None = None
    where: str = ""

    def solution(self) -> tuple[int, ...] | None:
        """The one solution agreeing with the candidates, or None (no solution, or several)."""
        state = self.state
        geo = state.geo
        forbid = [(c, v) for c in range(geo.ncells) if not state.values[c]
                  for v in range(1, geo.n + 1) if not state.has(c, v)]
        found = solve_bitmask(geo.n, state.values, 2, forbid=forbid)
        return tuple(found[0]) if len(found) == 1 else None


def read_position(position: str | State | Snapshot | LibraryEntry | Position, where: str = "") -> Position:
    """A position from text (any form ``hint`` reads, or a library line) or a state."""
    if isinstance(position, Position):
        return position
    if isinstance(position, LibraryEntry):
        return Position(position.state(), position.values, position, position.where or where)
    if isinstance(position, Snapshot):
        position = position.state()
    if isinstance(position, State):
        return Position(position.copy(), tuple(position.values), None, where)
    if is_library_line(position):
        return read_position(parse_library(position, where), where)
    text = position.strip()
    if "\n" not in text and len(text) in (n * n for n in SIZES):
        # a puzzle line, read before hint's pencil-mark test (which can take e.g. '52...6..' for
        # 16 tokens of a 4×4 grid)
        state = State.from_grid(parse_grid(text, where))
    else:
        from .hints import read_grid_state

        state = read_grid_state(position, where)
    return Position(state, tuple(state.values), None, where)


def code_kinds(code: str) -> list[tuple[Technique, StepKind]]:
    """The registry's step kinds answering to a HoDoKu code (its own code first, then the others)."""
    base = code[:4]
    own = [(t, k) for t in REGISTRY for k in t.kinds if k.code == base]
    more = [(t, k) for t in REGISTRY for k in t.kinds if k.code != base and base in k.codes]
    return own + more


def resolve(techniques: Iterable[str | Technique] | None) -> list[tuple[Technique, frozenset[str] | None]]:
    """Registry records to run, in registry order, each with the step names to keep (None: all).

    A name may be a record's name or alias (every step it finds), a step
    name (``x wing``: only those steps of its record) or a HoDoKu code
    (``0300``: the step kinds answering to it).
    """
    if techniques is None:
        return [(t, None) for t in REGISTRY]
    wanted: dict[str, set[str] | None] = {}
    records: dict[str, Technique] = {}
    for item in techniques:
        if isinstance(item, Technique):
            records[item.name] = item
            wanted[item.name] = None
            continue
        name = item.strip()
        if name.isdigit() or (len(name) > 4 and name[:4].isdigit()):
            kinds = code_kinds(name)
            if not kinds:
                raise KeyError(f"no technique answers to HoDoKu code {name!r}")
            pairs: list[tuple[Technique, set[str] | None]] = [(t, {k.name}) for t, k in kinds]
        else:
            t = lookup(name)
            kind = t.kind(name.strip().lower().replace("-", " ").replace("_", " "))
            pairs = [(t, {kind.name} if kind is not None and name.lower() != t.name else None)]
        for t, names in pairs:
            records[t.name] = t
            if t.name in wanted and wanted[t.name] is None or names is None:
                wanted[t.name] = None
            else:
                wanted[t.name] = (wanted.get(t.name) or set()) | names
    order = {t.name: i for i, t in enumerate(REGISTRY)}
    chosen = sorted(records.values(), key=lambda t: order.get(t.name, len(order)))
    return [(t, None if wanted[t.name] is None else frozenset(wanted[t.name] or ())) for t in chosen]


def _key(step: Explanation) -> tuple[Any, ...]:
    """What makes two steps the same: technique, what they change, and the pattern they show."""
    return (step.technique, frozenset(step.place), frozenset(step.eliminate), frozenset(step.cells),
            frozenset(step.cells_alt), frozenset(step.marked), frozenset(step.marked_alt),
            frozenset(step.strong_links), frozenset(step.weak_links))


def all_steps(position: str | State | Snapshot | LibraryEntry | Position,
              techniques: Iterable[str | Technique] | None = None, *, cap: int = CAP,
              seconds: float = SECONDS, where: str = "", order: str = DEFAULT_ORDER) -> StepList:
    """Every distinct live step the chosen techniques find in ``position``.

    ``order="simplest"`` (the default): the simplest first, by the engine's choice key
    (rating on SE's scale, then the step that does more, registry order, pattern size),
    lucky guesses (trial lucky) left out as the simplest order leaves them out;
    ``order="seed"``: by registry order (of the records, then of each record's step
    kinds), then pattern size (chain length, fish size …). Ties keep the finder's own
    order. Techniques that read the solution are skipped (noted). Each technique stops
    after ``cap`` steps or ``seconds`` seconds, with a note.
    """
    simplest = order_name(order) == "simplest"
    pos = read_position(position, where)
    state = pos.state
    chosen = resolve(techniques)
    off = left_out([t for t, _ in chosen], simplest)
    rater = Rater([t for t, _ in chosen], simplest)
    order_of = {t.name: i for i, t in enumerate(REGISTRY)}
    out: list[tuple[Any, ...]] = []
    notes: list[str] = []
    for rank, (t, names) in enumerate(chosen):
        if t.reads_solution:
            if techniques is not None:
                notes.append(f"{t.name}: skipped (it reads the solution instead of reasoning)")
            continue
        earlier = tuple(x for x in REGISTRY if order_of.get(x.name, 1 << 30) < order_of.get(t.name, 1 << 30)
                        and not x.reads_solution)
        ctx = Context(None, earlier, off=off)  # the order sorts the steps; each finder runs as on the seed order
        seen: set[tuple[Any, ...]] = set()
        start = time.perf_counter()
        kept = 0
        for step in t.find(state, ctx):
            if _live(state, step) and ctx.allows(step.technique) and (names is None or step.technique in names):
                key = _key(step)
                if key not in seen:
                    seen.add(key)
                    kind = next((i for i, k in enumerate(t.kinds) if k.name == step.technique), len(t.kinds))
                    head = rater.key(step) if simplest else (rank, kind, step_length(step.to_dict()))
                    out.append((head, len(out), step))
                    kept += 1
                    if kept >= cap:
                        notes.append(f"{t.name}: stopped after {cap} steps (there may be more)")
                        break
            if time.perf_counter() - start > seconds:
                notes.append(f"{t.name}: stopped after {seconds:g} s with {kept} steps (there may be more)")
                break
    out.sort(key=lambda x: x[:2])
    return StepList((x[2] for x in out), notes)


# ---- steps JSON ------------------------------------------------------------------------

def steps_document(position: Position, steps: Sequence[Explanation], order: str = DEFAULT_ORDER) -> dict[str, Any]:
    """The steps of one position as a steps-JSON-like document.

    The steps are alternatives from the same position, not a sequence:
    ``alternatives`` is true and ``candidates`` holds the position's
    candidates (``puzzle`` holds its values only); ``order`` says how they are
    listed (``all_steps``).
    """
    state = position.state
    solution = position.solution()
    counts: dict[str, int] = {}
    for s in steps:
        counts[s.technique] = counts.get(s.technique, 0) + 1
    return {
        "format": FORMAT,
        "puzzle": state.to_line(),
        "size": state.geo.n,
        "box": state.geo.m,
        "solution": "".join(value_char(v) for v in solution) if solution else None,
        "candidates": state.to_candidates_line(),
        "alternatives": True,
        "complete": False,
        "statistics": counts,
        "order": order_name(order),
        "steps": [s.to_dict() for s in steps],
    }


def one_step_document(position: Position, step: Explanation) -> dict[str, Any]:
    """A steps-JSON document the independent checker replays: the position, then ``step``.

    The document starts from the position's values; a first step recorded as
    ``brutal`` removes the candidates the position had already lost beyond
    them (it is true to the solution), so that ``step`` is replayed on the
    position's own candidates. Needs a position whose values have one solution.
    """
    state = position.state
    geo = state.geo
    n = geo.n
    grid = parse_grid(state.to_line())
    solution = position.solution()
    if solution is None or len(solve_bitmask(n, state.values, 2)) != 1:
        raise PuzzleError("the position's values have no single solution: the checker cannot replay it",
                          position.where)
    start = State.from_grid(grid)
    lost = [(c // n, c % n, v) for c in range(geo.ncells) if not state.values[c]
            for v in range(1, n + 1) if start.has(c, v) and not state.has(c, v)]
    steps = []
    if lost:
        steps.append(Explanation("brutal", eliminate=tuple(lost), show_candidates=True,
                                 text="The candidates this position had already lost.").to_dict())
    steps.append(step.to_dict())
    stats: dict[str, int] = {}
    for s in steps:
        stats[s["technique"]] = stats.get(s["technique"], 0) + 1
    guessing = step.technique in ("trial", "trial lucky") or step.technique.startswith("forcing")
    return {
        "format": FORMAT, "puzzle": grid.to_line(), "size": n, "box": geo.m,
        "solution": "".join(value_char(v) for v in solution),
        "difficulty": "difficult" if lost else ("medium" if guessing else "easy"),
        "complete": False, "statistics": stats, "steps": steps,
    }


# ---- HoDoKu library lines ----------------------------------------------------------------

_SIZED = ("naked tuple", "hidden tuple")  # codes per size: pair, triple, quadruple


def step_code(step: Explanation) -> str:
    """HoDoKu's library code for a step ("" when its kind has none).

    The kind's own code, except: a naked/hidden tuple takes the code of its
    size (pair, triple, quadruple) and a locked candidate is pointing (0100,
    the box first) or claiming (0101).
    """
    kind = next((k for t in REGISTRY for k in t.kinds if k.name == step.technique), None)
    if kind is None or not kind.code:
        return ""
    codes = (kind.code,) + kind.codes
    size = step.get("size")
    if step.technique in _SIZED and isinstance(size, int) and 0 <= size - 2 < len(codes):
        return codes[size - 2]
    if step.technique == "locked candidate" and len(codes) > 1 and step.houses:
        return codes[0] if step.houses[0][0] == "box" else codes[1]
    return kind.code


def library_line(position: Position, step: Explanation | None = None, *, givens: Sequence[int] | None = None,
                 must_not_fire: str = "") -> str:
    """The position (and the step expected from it) as a HoDoKu library line (9×9 only).

    ``givens``: the puzzle's givens (other values are written as placed),
    by default those of the library line the position came from.
    ``must_not_fire``: a code whose step must not be found in the position
    (written ``<code>-x``, no step).
    """
    from .hodoku import format_library

    if givens is None and position.entry is not None:
        givens = position.entry.givens
    if step is None:
        return format_library(position.state, givens=givens,
                              code=f"{must_not_fire}-x" if must_not_fire else "0000")
    return format_library(position.state, givens=givens, code=step_code(step) or "0000",
                          eliminations=step.eliminate, placements=step.place)
