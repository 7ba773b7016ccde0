"""Build candidate states for technique tests from text that reads like a puzzle."""
from __future__ import annotations

import contextlib
import io
import os
import sys
import traceback
from collections import Counter
from pathlib import Path
from unittest import mock

from explainer.app.hints.pencilmarks import parse_pencilmarks
from explainer.model.grid import LETTERS, geometry
from explainer.model.state import State


def marks(cells: dict[str, str], n: int = 9) -> State:
    """Every cell holds every value except the listed ones: ``{"r2c1": "17", ...}``."""
    full = LETTERS[:n]
    tokens = [[full] * n for _ in range(n)]
    for name, values in cells.items():
        r, c = name[1:].split("c")
        tokens[int(r) - 1][int(c) - 1] = values
    return parse_pencilmarks("\n".join(" ".join(row) for row in tokens))


def value_picture(v: int, picture: str, n: int = 9) -> State:
    """One value's places drawn as a grid (``x`` = v is a candidate, ``.`` = not); every
    other value stays a candidate everywhere. ``|``, ``-`` and spaces are decoration."""
    rows = [[ch for ch in line if ch in "x."] for line in picture.strip().splitlines()]
    rows = [r for r in rows if r]
    assert len(rows) == n and all(len(r) == n for r in rows), "picture must be n×n"
    full = LETTERS[:n]
    ch = LETTERS[v - 1]
    tokens = [[full if x == "x" else full.replace(ch, "") for x in row] for row in rows]
    return parse_pencilmarks("\n".join(" ".join(row) for row in tokens))


def picture_with(picture: str, *cells: str, mark: str = "x") -> str:
    """A ``value_picture`` drawing with the named cells (``"r5c8"``) set to ``mark`` ("x": the
    value is a candidate there, ".": it is not); the decoration is kept."""
    lines = picture.split("\n")
    rows = [i for i, line in enumerate(lines) if any(ch in "x." for ch in line)]
    for name in cells:
        r, c = rc(name)
        line = lines[rows[r]]
        at = [i for i, ch in enumerate(line) if ch in "x."][c]
        lines[rows[r]] = line[:at] + mark + line[at + 1:]
    return "\n".join(lines)


def snapshot(state: State) -> tuple:
    return (list(state.values), list(state.cand), list(state.pos))


def rc(name: str) -> tuple[int, int]:
    """'r3c7' -> (2, 6)."""
    r, c = name[1:].split("c")
    return int(r) - 1, int(c) - 1


def elims(v: int, *names: str) -> set[tuple[int, int, int]]:
    return {(*rc(x), v) for x in names}


def assert_pure(finder, state: State) -> None:
    """The finder finds something, the same twice, and leaves the state as it was."""
    before = snapshot(state)
    first = list(finder(state))
    assert first and list(finder(state)) == first
    assert snapshot(state) == before


def only_step(finder, state: State, technique: str | None = None):
    """The one step ``finder`` finds in ``state`` (of that technique name, when given)."""
    steps = list(finder(state))
    assert len(steps) == 1, steps
    if technique is not None:
        assert steps[0].technique == technique
    return steps[0]


def se_state(values: str, cands: str) -> State:
    """A 9×9 state from a dump line of Sudoku Explainer's producers: 81 values ('.' empty) and 729
    candidate characters (per cell the digits 1-9 or '.')."""
    geo = geometry(9)
    vals = [0 if ch == "." else int(ch) for ch in values]
    cand = [0] * 81
    for i, ch in enumerate(cands):
        if ch != "." and not vals[i // 9]:
            cand[i // 9] |= 1 << (int(ch) - 1)
    pos = [0] * 9
    for c, m in enumerate(cand):
        for v in range(9):
            if m >> v & 1:
                pos[v] |= 1 << c
    return State._of(geo, vals, cand, pos, sum(1 for v in vals if not v))


def run_main(argv: list[str], cwd: Path, stats: Counter[str], counted: str,
             stdin: bytes = b"") -> tuple[int, str, str]:
    """The command line's main(argv) in ``cwd`` with ``stdin`` as standard input: (status, stdout,
    stderr). For property tests: an exception is a failure of the property, re-raised as an
    AssertionError with its traceback and counted in ``stats["tracebacks"]``; a run that returns
    is counted in ``stats[counted]``."""
    from explainer.app.cli import main

    out, err = io.StringIO(), io.StringIO()
    old = Path.cwd()
    fake_stdin = io.TextIOWrapper(io.BytesIO(stdin), encoding="utf-8", errors="replace")
    os.chdir(cwd)
    try:
        with contextlib.redirect_stdout(out), contextlib.redirect_stderr(err), \
                mock.patch.object(sys, "stdin", fake_stdin):
            status = main(argv)
    except BaseException:
        stats["tracebacks"] += 1
        raise AssertionError(f"exception from main({argv!r}):\n{traceback.format_exc()}") from None
    finally:
        os.chdir(old)
    stats[counted] += 1
    return status, out.getvalue(), err.getvalue()
