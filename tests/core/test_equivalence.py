"""The compiled core and its pure-Python twins give byte-identical steps JSON.

A fixed sample of every size (top1465, se_rated and hardest300 for 9×9, the 4×4, 16×16
and 25×25 samples, the hard 16×16 and 25×25 benchmark puzzles) is explained here on the
compiled path and, in one subprocess, with ``SUDOKU_EXPLAINER_PURE=1``; both orders
(simplest first and the registry's). The pure path is slow on big grids, so their part of
the sample is small and the easier half of it takes both orders.

The full sample (a few hundred explanations, minutes of CPU) runs with ``--slow``; the
default run compares a quick part of it (a few puzzles of every source, every size and
both orders, seconds), enough to fail when a compiled primitive and its twin part ways.

``SOURCES`` is the sample. A primitive added to the core is covered as soon as the
explanations use it; a sample that exercises it better can be added here.
"""
from __future__ import annotations

import json
import os
import subprocess
import sys
from concurrent.futures import ThreadPoolExecutor
from functools import cache

import pytest

from explainer import core
from explainer.api import Puzzle
from tests.conftest import ROOT, SHARED

pytestmark = pytest.mark.skipif(core.compiled_info() is None, reason="compiled core not built (or pure path forced)")

DATA, BENCH = SHARED / "data", ROOT / "benchmarks" / "data"


def lines(path, every: int = 1, first: int = 0, count: int | None = None) -> list[str]:
    """Puzzles of a file (first token of each line, ``#`` lines skipped): every k-th from ``first``."""
    rows = [r.split()[0] for r in path.read_text().splitlines() if r.strip() and not r.startswith("#")]
    return rows[first::every][:count]


BOTH = (("simplest", "simplest"), ("seed", "seed"))  # (order, label)
# (label, file, every k-th puzzle from the first-th, how many (None: all), orders, the quick part)
SOURCES = (
    ("top1465", DATA / "top1465.txt", 29, 0, None, BOTH, slice(2)),  # 51 puzzles
    ("se_rated", DATA / "se_rated.txt", 11, 0, None, BOTH, slice(2)),  # 94
    ("hardest300", DATA / "hardest300.txt", 30, 7, None, BOTH, slice(2)),  # 10
    ("sample4", DATA / "sample4.txt", 1, 0, None, BOTH, slice(None)),
    ("sample16", DATA / "sample16.txt", 1, 0, None, BOTH, slice(1, 2)),  # the first takes the pure path 15 s
    ("sample25", DATA / "sample25.txt", 1, 0, None, BOTH, slice(None)),
    # the hard big grids, one order each (the pure path takes up to a minute on one of them)
    ("hard16", BENCH / "hard16.txt", 5, 1, None, BOTH[:1], slice(0)),
    ("hard16", BENCH / "hard16.txt", 5, 3, None, BOTH[1:], slice(1)),
    ("hard25", BENCH / "hard25.txt", 1, 0, 1, BOTH[1:], slice(0)),
)


@cache
def cases(quick: bool = False) -> tuple[tuple[str, str, str], ...]:
    """(label, puzzle, order name): a few hundred explanations of every size and both orders, or
    the quick part of them."""
    out = []
    for label, path, every, first, count, orders, part in SOURCES:
        puzzles = lines(path, every, first, count)
        for p in puzzles[part] if quick else puzzles:
            out += [(f"{label} {order}", p, order) for order, _ in orders]
    return tuple(out)


def explain(puzzle: str, order_name: str) -> str:
    return json.dumps(Puzzle(puzzle, order=order_name).to_json(), sort_keys=True)


PURE_SCRIPT = """
import json, sys
from tests.core.test_equivalence import explain
for line in sys.stdin:
    puzzle, order_name = json.loads(line)
    print(explain(puzzle, order_name), flush=True)
"""


def pure_run(sample: tuple[tuple[str, str, str], ...]) -> tuple[subprocess.Popen[str], str]:
    """The pure-Python path's subprocess, started, and the sample it is to read."""
    env = dict(os.environ, **{core.PURE_ENV: "1"})
    feed = "".join(json.dumps([p, order_name]) + "\n" for _, p, order_name in sample)
    proc = subprocess.Popen([sys.executable, "-c", PURE_SCRIPT], stdin=subprocess.PIPE, stdout=subprocess.PIPE,
                            stderr=subprocess.PIPE, text=True, cwd=ROOT, env=env)
    return proc, feed


def first_difference(a: str, b: str) -> str:
    da, db = json.loads(a), json.loads(b)
    for i, (x, y) in enumerate(zip(da["steps"], db["steps"], strict=False)):
        if x != y:
            keys = sorted(k for k in set(x) | set(y) if x.get(k) != y.get(k))
            return f"step {i} ({x.get('technique')} / {y.get('technique')}) differs in {keys}"
    keys = sorted(k for k in set(da) | set(db) if da.get(k) != db.get(k))
    return f"{len(da['steps'])} / {len(db['steps'])} steps; fields {keys}"


@pytest.mark.parametrize("quick", [False, True])
def test_the_sample_covers_every_size_and_both_orders(quick: bool) -> None:
    sample = cases(quick)
    assert {int(len(p) ** 0.5) for _, p, _ in sample} == {4, 9, 16, 25}
    assert {o for _, _, o in sample} == {"simplest", "seed"}
    assert len(sample) >= (20 if quick else 300)
    assert set(sample) <= set(cases())


def compare(sample: tuple[tuple[str, str, str], ...]) -> None:
    """The sample's steps JSON on both paths: the pure subprocess and this process (compiled)
    explain it side by side, on the machine's two cores."""
    proc, feed = pure_run(sample)
    with ThreadPoolExecutor(1) as pool:
        talk = pool.submit(proc.communicate, feed)
        compiled = [explain(puzzle, order_name) for _, puzzle, order_name in sample]
        out, err = talk.result()
    assert proc.returncode == 0, err[-2000:]
    pure = out.splitlines()
    assert len(pure) == len(sample), err[-2000:]
    wrong = []
    for (label, puzzle, _), mine, other in zip(sample, compiled, pure, strict=True):
        if mine != other:
            wrong.append(f"{label} {puzzle[:30]}…: {first_difference(mine, other)}")
    assert not wrong, f"{len(wrong)} of {len(pure)} explanations differ:\n" + "\n".join(wrong[:10])


def test_compiled_and_pure_steps_json_are_identical_on_the_quick_sample() -> None:
    compare(cases(quick=True))


@pytest.mark.slow
def test_compiled_and_pure_steps_json_are_identical() -> None:
    compare(cases())


def test_the_pure_path_really_is_pure() -> None:
    """The subprocess sees no compiled module (else the comparison above proves nothing)."""
    env = dict(os.environ, **{core.PURE_ENV: "1"})
    code = ("from explainer.core import propagate, solver; from techniques import implication; "
            "print(propagate._C, implication._C, solver._C)")
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, cwd=ROOT, env=env, check=True)
    assert out.stdout.split() == ["None", "None", "None"]
