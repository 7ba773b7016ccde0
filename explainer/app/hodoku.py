"""HoDoKu's library format: a position, and the step expected from it, on one line.

::

    :<code>:<digits>:<grid>:<deleted candidates>:<eliminations>:<placements>:<extra>:

- ``code``: HoDoKu's step code (``0300`` x wing, ``0901`` ALS-XZ …), possibly
  with a variant suffix ``-N`` (``0600-1``: the finder runs with other
  options, see *Variants* below) or a fifth digit ``1`` on a fish code
  (``03111``: a *siamese* finned swordfish); ``-x`` marks a *fail case*, a
  position where no step of that code must be found. ``0000:x`` is a bare
  position (no step).
- ``digits``: the values the step is about (informative).
- ``grid``: 81 cells row by row: a digit is a given, ``+d`` a value placed
  since, ``.`` or ``0`` an empty cell.
- ``deleted candidates``: candidates removed beyond what the values rule out,
  as digit-row-column triples (``182``: 1 is not a candidate of r8c2),
  separated by spaces.
- ``eliminations`` / ``placements``: what the step is expected to remove /
  place, in the same notation.
- ``extra``: anything else (HoDoKu writes a chain's length there).

Variants (what HoDoKu's own regression tester runs for each suffix; the
reader keeps the suffix in ``variant`` and says what it means in
``LibraryEntry.meaning``; ``explainer.app.allsteps.check_entry`` applies it):

- uniqueness (``0600``–``0608``): ``-1`` *without missing candidates*: every
  corner of the rectangle still holds both of its values; ``-2`` *with
  missing candidates*: a corner may have lost one of them to an earlier step
  (HoDoKu's "allow missing candidates" option). The finders here always
  allow them (a missing candidate is a false one: the deadly-pattern
  argument is untouched), and record ``detail`` ``missing``; ``-1`` keeps
  the steps without.
- ALS (``0901``–``0904``): ``-1`` the sets do not overlap, ``-2`` they may
  (HoDoKu's "allow ALS overlap"); ``-1`` keeps steps whose ``detail``
  ``overlap`` is not true.
- grouped nice loops (``0709-2``, ``0710-3``/``-4``, ``0711-3``/``-4``): ALS
  nodes allowed in the chain; the other variants of those codes: no ALS node
  (steps whose ``detail`` ``als_nodes`` is true are left out).
- empty rectangle (``0402-1``): a box holding only two candidates of the
  value counts as an empty rectangle too.
- locked pair / triple (``0110-1``, ``0111-1``): found by naked and hidden
  subsets alike.
- a fifth digit ``1`` on a fish code (``03111``, ``03211`` …): *siamese*
  fish: two fish of one value on the same base lines (different covers),
  whose eliminations HoDoKu shows as one step; one line expects them
  together.
- ``-x``: a fail case. HoDoKu's tester fails it when it finds *any* step of
  the code about the line's digits (its ``digits`` field; empty or ``x``:
  any step of the code); the eliminations and placements written on such a
  line are informative only (HoDoKu does not read them, and they need not
  be candidates of the position).

The fields after the grid may be missing (HoDoKu itself writes a bare
position as ``:0000:x:<grid>:<deleted>::``). The format only knows 9×9
grids: a grid of another size is an error, on reading and on writing.
Coordinates in the returned candidates are 0-based ``(row, col, value)``
like every ``Explanation``.
"""
from __future__ import annotations

import re
from collections.abc import Iterable, Iterator, Sequence
from dataclasses import dataclass

from explainer.model.grid import LETTERS, SIZES, PuzzleError, PuzzleTypeError, geometry, type_name
from explainer.model.state import State
from explainer.model.values import Candidate

__all__ = ["VARIANTS", "LibraryEntry", "format_library", "is_library_line", "parse_library", "read_library"]

N = 9
CODE = re.compile(r"^(\d{4})(?:(\d)|-(\d+|x))?$")  # a step code: 0300, 03001, 0300-1, 0300-x
_ONLY_9 = "the HoDoKu library format is for 9×9 grids only"
_UNIQUENESS = ("0600", "0601", "0602", "0603", "0604", "0605", "0606", "0607", "0608")
_ALS = ("0901", "0902", "0903", "0904")
# (codes, variant) -> what HoDoKu's tester runs for it (see the module docstring)
VARIANTS: dict[tuple[tuple[str, ...], str], str] = {
    (_UNIQUENESS, "1"): "without missing candidates",
    (_UNIQUENESS, "2"): "missing candidates allowed",
    (_ALS, "1"): "the sets do not overlap",
    (_ALS, "2"): "the sets may overlap",
    (("0709",), "2"): "ALS nodes allowed",
    (("0710", "0711"), "3"): "ALS nodes allowed",
    (("0710", "0711"), "4"): "ALS nodes allowed",
    (("0402",), "1"): "boxes with only two candidates allowed",
    (("0110", "0111"), "1"): "found by naked and hidden subsets",
}


@dataclass(frozen=True)
class LibraryEntry:
    """One library line: the position (givens, placed values, deleted candidates) and the expected step."""

    code: str  # the 4-digit step code, without its variant ("0300")
    variant: str  # "" | a number ("1") | "x" (the step must not be found)
    digits: str
    givens: tuple[int, ...]  # 81 values, 0 where the cell is not a given
    placed: tuple[int, ...]  # 81 values, 0 where nothing was placed since (``+d``)
    deleted: tuple[Candidate, ...]
    eliminations: tuple[Candidate, ...]
    placements: tuple[Candidate, ...]
    extra: str = ""
    where: str = ""
    raw_code: str = ""  # the code as written: "0300", "0300-1", "03001", "0300-x"

    def __post_init__(self) -> None:
        if not self.raw_code:
            object.__setattr__(self, "raw_code", f"{self.code}-{self.variant}" if self.variant else self.code)

    @property
    def must_not_fire(self) -> bool:
        """A fail case (``-x``): no step of the code about ``digits`` must be found."""
        return self.variant == "x"

    @property
    def siamese(self) -> bool:
        """A fish code with a fifth digit 1 (``03111``): two fish on the same base lines, shown as one."""
        return len(self.raw_code) == 5 and self.raw_code.endswith("1") and self.code.startswith("03")

    @property
    def meaning(self) -> str:
        """What the variant selects, in words ("" for none or an unknown one)."""
        if self.must_not_fire:
            return "fail case: no such step"
        if self.siamese:
            return "siamese fish"
        return next((m for (codes, v), m in VARIANTS.items() if self.code in codes and v == self.variant), "")

    @property
    def expects(self) -> bool:
        """True when the line names a step to find (eliminations or placements)."""
        return bool(self.eliminations or self.placements)

    @property
    def values(self) -> tuple[int, ...]:
        """Every value in the grid (givens and placed)."""
        return tuple(g or p for g, p in zip(self.givens, self.placed, strict=True))

    def state(self) -> State:
        """The candidate state of the position (a fresh copy each call)."""
        return _build(self.values, self.deleted, self.where)


def is_library_line(text: str) -> bool:
    """True for one line in the library format (starts with ``:`` and has the grid field)."""
    line = text.strip()
    return "\n" not in line and line.startswith(":") and line.count(":") >= 3


def parse_library(line: str, where: str = "") -> LibraryEntry:
    """Read one library line; a ``PuzzleError`` says what is wrong."""
    if not isinstance(line, str):
        raise PuzzleTypeError(f"a library line is a string, not {type_name(line)}", where)
    text = line.strip()
    if not text.startswith(":"):
        raise PuzzleError("a library line starts with ':' (:<code>:<digits>:<grid>:...)", where)
    parts = text.split(":")[1:]
    if parts and parts[-1] == "":
        parts.pop()  # the closing ':'
    if len(parts) < 3:
        raise PuzzleError("a library line needs at least :<code>:<digits>:<grid>:", where)
    if len(parts) > 7:
        raise PuzzleError(f"a library line has 7 fields, found {len(parts)}", where)
    parts += [""] * (7 - len(parts))
    raw_code, digits, grid, deleted, elims, places, extra = (p.strip() for p in parts)
    m = CODE.match(raw_code)
    if not m:
        raise PuzzleError(f"bad step code {raw_code!r} (want 4 digits, optionally -N, -x or a 5th digit)", where)
    code, variant = m.group(1), m.group(2) or m.group(3) or ""
    givens, placed = _grid(grid, where)
    entry = LibraryEntry(code, variant, digits, givens, placed, _cands(deleted, "deleted candidates", where),
                         _cands(elims, "eliminations", where), _cands(places, "placements", where), extra, where,
                         raw_code)
    state = entry.state()  # checks the position
    if entry.must_not_fire:
        return entry  # HoDoKu's tester reads no expected change on a fail case
    for r, c, v in entry.eliminations:
        if not state.has(r * N + c, v):
            raise PuzzleError(f"expected elimination r{r + 1}c{c + 1}<>{v} is not a candidate of the position",
                              where)
    for r, c, v in entry.placements:
        if not state.has(r * N + c, v):
            raise PuzzleError(f"expected placement r{r + 1}c{c + 1}={v} is not a candidate of the position", where)
    return entry


def read_library(text: str, name: str = "<string>") -> Iterator[tuple[int, LibraryEntry | PuzzleError]]:
    """Every non-comment, non-blank line of a file: (line number, entry or its error)."""
    for lineno, raw in enumerate(text.splitlines(), 1):
        line = raw.strip()
        if not line or line.startswith("#"):
            continue
        where = f"{name}:{lineno}"
        try:
            yield lineno, parse_library(line, where)
        except PuzzleError as e:
            yield lineno, e.at(where)


def format_library(state: State, *, givens: Sequence[int] | None = None, code: str = "0000", digits: str = "",
                   eliminations: Iterable[tuple[int, int, int]] = (),
                   placements: Iterable[tuple[int, int, int]] = (), extra: str = "") -> str:
    """The library line of a position (and of the step expected from it).

    ``givens``: the cells that are givens (their values, 0 elsewhere); every
    other value of the state is written as placed (``+d``). Without it every
    value is a given. Deleted candidates are those the values do not rule
    out. ``digits`` defaults to the values of the step, or ``x``.
    """
    if not isinstance(state, State):
        raise PuzzleTypeError(f"format_library takes a State (a position), not {type_name(state)}")
    geo = state.geo
    if geo.n != N:
        raise PuzzleError(f"{_ONLY_9}, not {geo.n}×{geo.n}")
    elims = sorted(Candidate(*x) for x in eliminations)
    places = sorted(Candidate(*x) for x in placements)
    if not digits:
        digits = "".join(str(v) for v in sorted({x[2] for x in elims or places})) or "x"
    cells = []
    for c, v in enumerate(state.values):
        if not v:
            cells.append(".")
        elif givens is not None and givens[c] != v:
            cells.append(f"+{v}")
        else:
            cells.append(str(v))
    deleted = []
    for c in range(geo.ncells):
        if state.values[c]:
            continue
        seen = {state.values[p] for p in _peers(c)}
        for v in range(1, N + 1):
            if not state.has(c, v) and v not in seen:
                deleted.append(f"{v}{c // N + 1}{c % N + 1}")
    return ":" + ":".join([code, digits, "".join(cells), " ".join(deleted), _drc(elims), _drc(places), extra]) + ":"


# ---- helpers ---------------------------------------------------------------------------

def _drc(cands: Sequence[tuple[int, int, int]]) -> str:
    return " ".join(f"{v}{r + 1}{c + 1}" for r, c, v in cands)


def _peers(c: int) -> Iterator[int]:
    mask = geometry(N).peer_mask[c]
    while mask:
        low = mask & -mask
        yield low.bit_length() - 1
        mask ^= low


def _grid(text: str, where: str) -> tuple[tuple[int, ...], tuple[int, ...]]:
    givens: list[int] = []
    placed: list[int] = []
    plus = False
    for ch in text:
        if ch.isspace():
            continue
        if ch == "+":
            if plus:
                raise PuzzleError("'++' in the grid ('+' goes before one placed digit)", where)
            plus = True
            continue
        if ch in ".0":
            if plus:
                raise PuzzleError("'+' before an empty cell in the grid ('+' marks a placed digit)", where)
            givens.append(0)
            placed.append(0)
        elif ch in "123456789":
            givens.append(0 if plus else int(ch))
            placed.append(int(ch) if plus else 0)
        elif ch.upper() in LETTERS:
            givens.append(-1)  # a value above 9: counted, reported below
            placed.append(0)
        else:
            raise PuzzleError(f"unexpected character {ch!r} in the grid", where)
        plus = False
    if plus:
        raise PuzzleError("the grid ends with '+'", where)
    count = len(givens)
    if count != N * N or -1 in givens:
        size = next((n for n in SIZES if n * n == count), None)
        if size is not None and size != N:
            raise PuzzleError(f"{_ONLY_9}: this grid has {count} cells ({size}×{size})", where)
        if -1 in givens:
            raise PuzzleError(f"{_ONLY_9}: the grid holds values above 9", where)
        raise PuzzleError(f"the grid has {count} cells, a 9×9 grid has 81", where)
    return tuple(givens), tuple(placed)


def _cands(text: str, what: str, where: str) -> tuple[Candidate, ...]:
    out = []
    for token in text.replace(",", " ").split():
        if not re.fullmatch(r"[1-9]{3}", token):
            raise PuzzleError(f"bad candidate {token!r} in the {what} (want digit-row-column, e.g. 182)", where)
        v, r, c = (int(x) for x in token)
        out.append(Candidate(r - 1, c - 1, v))
    return tuple(out)


def _build(values: Sequence[int], deleted: Iterable[Candidate], where: str) -> State:
    geo = geometry(N)
    state = State(geo)
    for c, v in enumerate(values):
        if v:
            if not state.has(c, v):
                clash = next((geo.cell_name(p) for p in _peers(c) if state.values[p] == v), "a peer")
                raise PuzzleError(f"two {v}s see each other ({clash} and {geo.cell_name(c)})", where)
            state.place(c, v)
    for r, c, v in deleted:
        if not state.values[r * N + c]:
            state.eliminate(r * N + c, v)
    problem = state.contradiction()
    if problem:
        raise PuzzleError(f"impossible position: {problem}", where)
    return state
