"""Every step from a position (HoDoKu's "find all steps"): positions, names and documents.

``all_steps(position, techniques=None)`` reads the position, resolves the
technique names (names, step names, HoDoKu codes) against the registry and
hands them to the engine's ``every_step`` (``explainer.engine.everystep``),
which runs each finder to the end and keeps every distinct live step, in the
engine's order. A position is anything ``hint`` reads (puzzle line, partly
solved grid, pencil-mark grid), a line in HoDoKu's library format
(``explainer.app.hodoku``), a ``State``, a ``Snapshot`` or a ``LibraryEntry``.

Also here: the steps-JSON documents of a position (``steps_document``,
``one_step_document``) and HoDoKu's library lines (``step_code``,
``check_entry``, ``library_line``).
"""
from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from typing import Any

from explainer.core.solver import solve_bitmask
from explainer.engine.everystep import CAP, SECONDS, StepList, every_step
from explainer.engine.loop import FORMAT
from explainer.engine.orders import DEFAULT_ORDER, order_named
from explainer.model.explanation import Explanation
from explainer.model.grid import (
    SIZES,
    PuzzleError,
    PuzzleTypeError,
    UnknownNameError,
    parse_grid,
    type_name,
    value_char,
)
from explainer.model.order import Order
from explainer.model.state import Snapshot, State
from explainer.model.technique import StepKind, Technique
from techniques import REGISTRY, lookup

from .hodoku import LibraryEntry, is_library_line, parse_library

__all__ = ["CAP", "SECONDS", "Position", "StepList", "Verdict", "all_steps", "answers", "changes", "check_entry",
           "code_kinds", "library_line", "one_step_document", "read_position", "resolve", "step_code", "step_digits",
           "steps_document"]

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
    if not isinstance(position, (str, State, Snapshot, LibraryEntry, Position)):
        raise PuzzleTypeError(f"a position is a string, a State or a library entry, not {type_name(position)}", where)
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
    if isinstance(techniques, (str, bytes)) or not hasattr(techniques, "__iter__"):
        raise PuzzleTypeError(f"techniques is a list of names, codes or records, e.g. [{techniques!r}], "
                              f"not {type_name(techniques)}")
    techniques = list(techniques)
    bad = [t for t in techniques if not isinstance(t, (str, Technique))]
    if bad:
        raise PuzzleTypeError(f"a technique is a name, a HoDoKu code or a Technique record, not {bad[0]!r}")
    wanted: dict[str, set[str] | None] = {}
    records: dict[str, Technique] = {}
    for item in techniques:
        if isinstance(item, Technique):
            records[item.name] = item
            wanted[item.name] = None
            continue
        name = item.strip()
        if name.isdigit() or (len(name) > 4 and name[:4].isdigit()):
            from .hodoku import CODE

            if not CODE.match(name):  # '0300x' is no code: never read as its first four digits
                raise UnknownNameError(f"{name!r} is neither a technique nor a HoDoKu code (4 digits, "
                                       f"optionally -N, -x or a 5th digit)")
            kinds = code_kinds(name)
            if not kinds:
                raise UnknownNameError(f"no technique answers to HoDoKu code {name!r}")
            pairs: list[tuple[Technique, set[str] | None]] = [(t, {k.name}) for t, k in kinds]
        else:
            try:
                t = lookup(name)
            except KeyError as e:
                raise UnknownNameError(str(e.args[0])) from None
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


def all_steps(position: str | State | Snapshot | LibraryEntry | Position,
              techniques: Iterable[str | Technique] | None = None, *, cap: int | None = CAP,
              seconds: float | None = SECONDS, where: str = "", order: str | Order = DEFAULT_ORDER,
              distinct: bool = True) -> StepList:
    """Every distinct live step the chosen techniques find in ``position``.

    Two steps are the same when they have one technique and change the same
    candidates (placements and eliminations): the smaller pattern is kept
    (``distinct=False``: every step the finders yield is kept).
    ``order="simplest"`` (the default): the simplest first, by the engine's choice key
    (rating on SE's scale, then the step that does more, registry order, pattern size),
    lucky guesses (trial lucky) left out as the simplest order leaves them out;
    ``order="seed"``: by registry order (of the records, then of each record's step
    kinds), then pattern size (chain length, fish size …). Ties keep the finder's own
    order. Techniques that read the solution are skipped (noted). Each technique stops
    after ``cap`` distinct steps or ``seconds`` seconds, with a note; ``None`` for
    either: run the finder to its end (``explainer.engine.everystep.every_step``).
    """
    if cap is not None and (isinstance(cap, bool) or not isinstance(cap, int) or cap < 1):
        raise PuzzleTypeError(f"cap is a whole number, 1 or more, or None, not {cap!r}")
    if seconds is not None and (isinstance(seconds, bool) or not isinstance(seconds, (int, float))
                                or not seconds > 0):
        raise PuzzleTypeError(f"seconds is a number above 0, or None, not {seconds!r}")
    chosen_order = order_named(order)
    pos = check_solvable(read_position(position, where), where)
    return every_step(pos.state, resolve(techniques), REGISTRY, cap=cap, seconds=seconds, order=chosen_order,
                      distinct=distinct, named=techniques is not None)


def has_solution(pos: Position) -> bool:
    """Whether some solution agrees with the position's values and pencil marks (a position
    drawn by hand may have many; one with none has no true step to list). True when the
    search is too long to tell (a nearly empty 25×25 grid)."""
    from explainer.core.solver import SearchLimit

    state = pos.state
    geo = state.geo
    forbid = [(c, v) for c in range(geo.ncells) if not state.values[c]
              for v in range(1, geo.n + 1) if not state.has(c, v)]
    try:
        return bool(solve_bitmask(geo.n, state.values, 1, forbid=forbid, max_nodes=200_000))
    except SearchLimit:
        return True


def check_solvable(pos: Position, where: str = "") -> Position:
    """``pos``, or a PuzzleError when no solution agrees with it: every step listed from such a
    position would rest on a contradiction (the command line's status 2, the library's error)."""
    from explainer.core.solver import NO_SOLUTION

    if not has_solution(pos):
        marks = any(not pos.state.values[c] and pos.state.candidates(c) != list(range(1, pos.state.geo.n + 1))
                    for c in range(pos.state.geo.ncells))
        raise PuzzleError(NO_SOLUTION + (" agreeing with its pencil marks" if marks else ""), where)
    return pos


# ---- steps JSON ------------------------------------------------------------------------

def steps_document(position: Position, steps: Sequence[Explanation],
                   order: str | Order = DEFAULT_ORDER) -> dict[str, Any]:
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
        "order": order_named(order).name,
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
# unique rectangle type -> HoDoKu's code
_UR_CODES = {1: "0600", 2: "0601", 3: "0602", 4: "0603", 5: "0604", 6: "0605", "hidden": "0606"}
# finned / sashimi fish by size -> HoDoKu's codes (finned, sashimi)
_FIN_CODES = {2: ("0310", "0320"), 3: ("0311", "0321"), 4: ("0312", "0322")}


def _hodoku_sashimi(step: Explanation) -> bool:
    """HoDoKu's sashimi rule: some base line keeps at most one candidate once the fins are removed.

    (TECHNIQUES.md names a fish sashimi when a fin-carrying base line has no
    candidate on a cover line inside the fin's box; the two rules disagree on
    a fin line with two body candidates outside that box: finned for HoDoKu.)
    """
    lines = step.get("base_lines") or ()
    body = step.marked
    for kind, k in lines:
        if sum(1 for r, c, _ in body if (r if kind == "row" else c) == k) <= 1:
            return True
    return False


def step_code(step: Explanation) -> str:
    """HoDoKu's library code for a step, as HoDoKu would classify it ("" when its kind has none).

    The kind's own code, except: a naked/hidden tuple takes the code of its
    size (pair, triple, quadruple); a locked candidate is pointing (0100,
    the box first) or claiming (0101); a unique rectangle the code of its
    type (0600 … 0605, hidden 0606); a finned or sashimi fish is finned or
    sashimi by HoDoKu's rule (``_hodoku_sashimi``).
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
    if step.technique == "unique rectangle" and step.get("type") in _UR_CODES:
        return _UR_CODES[step.get("type")]
    if step.technique.startswith(("finned ", "sashimi ")) and isinstance(size, int) and size in _FIN_CODES:
        return _FIN_CODES[size][_hodoku_sashimi(step)]
    return kind.code


# step names whose code ``step_code`` resolves exactly (others answer to every code of their kind)
_RESOLVED = frozenset(_SIZED) | {"locked candidate", "unique rectangle"} | {
    f"{f} {n}" for f in ("finned", "sashimi") for n in ("x wing", "swordfish", "jellyfish")}


def answers(step: Explanation, code: str) -> bool:
    """Whether a step is one of HoDoKu's steps of ``code`` (4 digits).

    Where ``step_code`` knows HoDoKu's classification of the step, that
    code must be ``code``; otherwise the step's kind must answer to it
    (its own code or one of its further codes).
    """
    if step.technique in _RESOLVED:
        return step_code(step) == code
    kind = next((k for t in REGISTRY for k in t.kinds if k.name == step.technique), None)
    return kind is not None and (kind.code == code or code in kind.codes)


def step_digits(step: Explanation) -> str:
    """The ``digits`` field HoDoKu writes for a step: the values it is about.

    A pattern's values where the step records them (a rectangle's two values,
    a fish's value), nothing for bug+1, else the values it places or removes.
    """
    if step.technique == "bug+1":
        return ""
    values = step.get("values")
    if values is None and step.get("value") is not None and step.technique != "bug+1":
        values = (step.get("value"),)
    if values is None:
        values = {v for _, _, v in step.place or step.eliminate}
    return "".join(str(v) for v in sorted(set(values)))


def changes(state: State, step: Explanation) -> tuple[set[tuple[int, int, int]], set[tuple[int, int, int]]]:
    """(eliminations, placements) a step makes in ``state``: a placement also removes every other
    candidate of its cell (HoDoKu writes bug+1 that way: the cell's other candidates eliminated)."""
    n = state.geo.n
    elims = {(r, c, v) for r, c, v in step.eliminate}
    for r, c, v in step.place:
        elims |= {(r, c, w) for w in range(1, n + 1) if w != v and state.has(r * n + c, w)}
    return elims, {(r, c, v) for r, c, v in step.place}


# variant -> which steps HoDoKu's tester would find with its options (explainer.app.hodoku, "Variants")
def _variant_keeps(code: str, variant: str, step: Explanation) -> bool:
    if variant == "1" and code in ("0600", "0601", "0602", "0603", "0604", "0605", "0606", "0607", "0608"):
        return not step.get("missing")
    if variant == "1" and code in ("0901", "0902", "0903", "0904"):
        return not step.get("overlap")
    if code in ("0709", "0710", "0711") and not (variant == "2" and code == "0709" or variant in ("3", "4")
                                                   and code != "0709"):
        return not step.get("als_nodes")
    return True


@dataclass(frozen=True)
class Verdict:
    """Whether the steps of a library line's code reproduce its expected step (``ok`` None: nothing to check)."""

    ok: bool | None
    message: str
    technique: str | None = None  # the name of the kind answering to the code, None if none does
    hits: tuple[Explanation, ...] = ()


def check_entry(entry: LibraryEntry | str, *, cap: int | None = CAP, seconds: float | None = SECONDS,
                where: str = "") -> Verdict:
    """Check one library line as HoDoKu's regression tester does.

    The steps are those of the registry records answering to the line's code
    that HoDoKu would file under that code (``answers``), found with the
    variant's options (``explainer.app.hodoku``, "Variants"). A line is
    reproduced when one step makes every expected change (a placement counts
    as removing its cell's other candidates); a siamese line (``03111``)
    when two fish of one value on the same base lines make them together.
    A fail case (``-x``) is reproduced when no step of the code is about the
    line's digits (any step of the code for digits ``x`` or none).
    """
    if isinstance(entry, str):
        entry = parse_library(entry, where)
    kinds = code_kinds(entry.code)
    label = entry.raw_code
    if not kinds:
        return Verdict(None, f"no technique answers to code {label}")
    name = kinds[0][1].name
    label = f"{label} {name}"
    if not entry.expects and not entry.must_not_fire:
        return Verdict(None, f"{label}: nothing expected, nothing to check", name)
    pos = read_position(entry)
    records = list({t.name: t for t, _ in kinds}.values())
    steps = [s for s in all_steps(pos, records, cap=cap, seconds=seconds, distinct=False)
             if answers(s, entry.code) and _variant_keeps(entry.code, entry.variant, s)]
    found = f"{len(steps)} step{'s' if len(steps) != 1 else ''} of {entry.code} found"
    if entry.must_not_fire:
        digits = entry.digits.strip()
        about = [s for s in steps if digits in ("", "x") or step_digits(s) == digits]
        if about:
            return Verdict(False, f"{label}: NOT reproduced ({found}, {about[0].summary()})", name, tuple(about))
        return Verdict(True, f"{label}: reproduced (no such step)", name)
    want_e, want_p = set(entry.eliminations), set(entry.placements)
    made = [(s, *changes(pos.state, s)) for s in steps]
    hits = tuple(s for s, e, p in made if want_e <= e and want_p <= p)
    if not hits and entry.siamese:
        # a siamese pair: two finned or sashimi fish of the size (HoDoKu files them under the first's
        # code), one value, one set of base lines; or one fish (this engine's second case: a fish one
        # cover line short, the whole box losing the value) that does all of it alone
        size = next((p for p, codes in _FIN_CODES.items() if entry.code in codes), 0)
        pool = [(s, *changes(pos.state, s)) for s in all_steps(pos, records, cap=cap, seconds=seconds,
                                                                distinct=False)
                if s.get("size") == size and s.get("fin") and _variant_keeps(entry.code, entry.variant, s)]
        hits = next(((s,) for s, e, p in pool if want_e <= e and want_p <= p), ())
        for i, (s, e, p) in enumerate(pool):
            if hits:
                break
            partner = next((t for t, e2, p2 in pool[i + 1:] if want_e <= e | e2 and want_p <= p | p2
                            and (s.get("value"), s.get("base_lines")) == (t.get("value"), t.get("base_lines"))),
                           None)
            if partner is not None:
                hits = (s, partner)
    if hits:
        shown = " + ".join(h.summary() for h in hits) if entry.siamese and len(hits) == 2 else hits[0].summary()
        return Verdict(True, f"{label}: reproduced by {shown}", name, hits)
    return Verdict(False, f"{label}: NOT reproduced ({found}, none makes every expected change)", name)


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
