"""Pencil-mark grids: a candidate state written by hand or by another program.

Two forms are read:

- the candidates line: n·n·n characters, for each cell n slots holding the
  value or one of ``.0`` (729 characters for 9×9);
- the multi-line layout HoDoKu and Sudoku Explainer print: one token of
  candidates per cell, cells separated by spaces, with ``| . - + : *``
  borders. A cell with a single value is taken as placed.

Tests use the same reader to build small states that read like the puzzles
they come from.
"""
from __future__ import annotations

import math
import re

from explainer.model.grid import LETTERS, SIZES, PuzzleError, geometry
from explainer.model.state import State

# cells of the layout are separated by whitespace and these borders; a token is a cell's candidates
_SEPARATORS = re.compile(r"[\s|:*+]+")
_BORDER = re.compile(r"^[-.=_+*:|]*$")
_CANDIDATES = re.compile(r"^[0-9A-Za-z]+$")


def looks_like_pencilmarks(text: str) -> bool:
    """True when the text is a candidates line or a pencil-mark layout, decided by length and layout.

    One word without inner blanks is a puzzle line unless its length is a
    candidates line's (n·n·n: 64, 729, 4096, 15625 — never a grid's 16, 81,
    256 or 625). Otherwise the cells must be blank- or border-separated
    tokens of candidates, one per cell, some holding more than one value;
    a grid row such as ``9..|3..|..4`` or ``7.8...3..`` is never read as marks
    (runs of digits between dots are not tokens)."""
    stripped = "".join(text.split())
    if len(stripped) in (n ** 3 for n in SIZES) and set(stripped) <= set(LETTERS) | set(".0"):
        return True
    if len(text.split()) <= 1:
        return False  # one word: a puzzle line
    tokens = _tokens(text)
    if tokens is None:
        return False
    return len(tokens) in (n * n for n in SIZES) and any(len(t) > 1 for t in tokens)


def _tokens(text: str) -> list[str] | None:
    """The cell tokens of a layout, or None when a piece is neither a border nor candidates."""
    out = []
    for line in text.splitlines():
        for piece in _SEPARATORS.split(line):
            if not piece or _BORDER.match(piece):
                continue
            if not _CANDIDATES.match(piece):
                return None
            out.append(piece)
    return out


def _value(ch: str, n: int, where: str) -> int:
    v = LETTERS.find(ch.upper()) + 1
    if not 1 <= v <= n:
        raise PuzzleError(f"value {ch!r} is not valid in a {n}×{n} grid", where)
    return v


def parse_pencilmarks(text: str, where: str = "", check: bool = True) -> State:
    """The candidate state written in ``text`` (either form).

    ``check=False`` keeps a state the marks make impossible (a cell or a house left without a
    place for a value): ``hint`` then names the learner's removal that did it
    (``explainer.app.hints.check_grid``) rather than the impossibility."""
    stripped = "".join(text.split())
    for n in SIZES:
        if len(stripped) == n ** 3 and set(stripped) <= set(LETTERS) | set(".0"):
            cells = [stripped[i * n:(i + 1) * n] for i in range(n * n)]
            return _build(n, [[ch for ch in cell if ch not in ".0"] for cell in cells], where, check)
    tokens = _tokens(text)
    if tokens is None:
        raise PuzzleError("a pencil-mark grid holds cells of candidates separated by blanks or borders", where)
    n = math.isqrt(len(tokens))
    if n * n != len(tokens) or n not in SIZES:
        raise PuzzleError(
            f"a pencil-mark grid needs one token per cell: found {len(tokens)} tokens", where)
    return _build(n, [list(t) for t in tokens], where, check)


def _build(n: int, cells: list[list[str]], where: str, check: bool = True) -> State:
    geo = geometry(n)
    state = State(geo)
    masks = []
    for i, chars in enumerate(cells):
        if not chars and check:
            raise PuzzleError(f"{geo.cell_name(i)} has no candidate", where)
        m = 0
        for ch in chars:
            m |= 1 << (_value(ch, n, where) - 1)
        masks.append(m)
    for c, m in enumerate(masks):
        if m.bit_count() == 1 and not state.values[c]:
            v = m.bit_length()
            if not state.has(c, v):
                raise PuzzleError(f"{geo.cell_name(c)} = {v} clashes with a peer", where)
            state.place(c, v)
    for c, m in enumerate(masks):
        if not state.values[c]:
            for v in range(1, n + 1):
                if not m >> (v - 1) & 1:
                    state.eliminate(c, v)
    problem = state.contradiction() if check else None
    if problem:
        raise PuzzleError(f"impossible pencil marks: {problem}", where)
    return state


def format_pencilmarks(state: State) -> str:
    """The multi-line layout, columns aligned per box column (round-trips)."""
    geo = state.geo
    n, m = geo.n, geo.m
    tokens = []
    for c in range(geo.ncells):
        if state.values[c]:
            tokens.append(LETTERS[state.values[c] - 1])
        else:
            tokens.append("".join(LETTERS[v - 1] for v in state.candidates(c)))
    width = [max(len(tokens[r * n + col]) for r in range(n)) for col in range(n)]
    lines = []
    for r in range(n):
        if r and r % m == 0:
            lines.append("-" * (sum(width) + 2 * n + 2 * m))
        parts = []
        for b in range(m):
            parts.append(" ".join(tokens[r * n + b * m + j].ljust(width[b * m + j]) for j in range(m)))
        lines.append(" | ".join(parts).rstrip())
    return "\n".join(lines)
