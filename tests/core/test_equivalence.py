"""The compiled core and its pure-Python twins give byte-identical steps JSON.

A fixed sample of every size (top1465, se_rated and hardest300 for 9×9, the 4×4, 16×16
and 25×25 samples, the hard 16×16 and 25×25 benchmark puzzles) is explained here on the
compiled path and, in one subprocess, with ``SUDOKU_EXPLAINER_PURE=1``; both orders
(simplest first and the registry's). The pure path is slow on big grids, so their part of
the sample is small and the easier half of it takes both orders.

``CASES`` is the sample: (label, puzzle, easiest). A primitive added to the core is covered
as soon as the explanations use it; a sample that exercises it better can be added here.
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


@cache
def cases() -> tuple[tuple[str, str, bool], ...]:
    """(label, puzzle, easiest): a few hundred explanations of every size and both orders."""
    both = [("top1465", p) for p in lines(DATA / "top1465.txt", 29)]  # 51 puzzles
    both += [("se_rated", p) for p in lines(DATA / "se_rated.txt", 11)]  # 94
    both += [("hardest300", p) for p in lines(DATA / "hardest300.txt", 30, 7)]  # 10
    both += [("sample4", p) for p in lines(DATA / "sample4.txt")]
    both += [("sample16", p) for p in lines(DATA / "sample16.txt")]
    both += [("sample25", p) for p in lines(DATA / "sample25.txt")]
    out = [(f"{label} {order}", p, easiest) for label, p in both for easiest, order in ((True, "easiest"),
                                                                                        (False, "seed"))]
    # the hard big grids, one order each (the pure path takes up to a minute on one of them)
    out += [("hard16 easiest", p, True) for p in lines(BENCH / "hard16.txt", 5, 1)]
    out += [("hard16 seed", p, False) for p in lines(BENCH / "hard16.txt", 5, 3)]
    out += [("hard25 seed", p, False) for p in lines(BENCH / "hard25.txt", count=1)]
    return tuple(out)


def explain(puzzle: str, easiest: bool) -> str:
    return json.dumps(Puzzle(puzzle, easiest=easiest).to_json(), sort_keys=True)


PURE_SCRIPT = """
import json, sys
from tests.core.test_equivalence import explain
for line in sys.stdin:
    puzzle, easiest = json.loads(line)
    print(explain(puzzle, easiest), flush=True)
"""


def pure_run() -> tuple[subprocess.Popen[str], str]:
    """The pure-Python path's subprocess, started, and the sample it is to read."""
    env = dict(os.environ, **{core.PURE_ENV: "1"})
    feed = "".join(json.dumps([p, easiest]) + "\n" for _, p, easiest in cases())
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


def test_the_sample_covers_every_size_and_both_orders() -> None:
    sizes = {int(len(p) ** 0.5) for _, p, _ in cases()}
    assert sizes == {4, 9, 16, 25}
    assert {e for _, _, e in cases()} == {True, False}
    assert len(cases()) >= 300


def test_compiled_and_pure_steps_json_are_identical() -> None:
    # the pure subprocess and this process (compiled) explain the sample side by side, on
    # the machine's two cores: the suite's longest test takes half the wall time
    proc, feed = pure_run()
    with ThreadPoolExecutor(1) as pool:
        talk = pool.submit(proc.communicate, feed)
        compiled = [explain(puzzle, easiest) for _, puzzle, easiest in cases()]
        out, err = talk.result()
    assert proc.returncode == 0, err[-2000:]
    pure = out.splitlines()
    assert len(pure) == len(cases()), err[-2000:]
    wrong = []
    for (label, puzzle, _), mine, other in zip(cases(), compiled, pure, strict=True):
        if mine != other:
            wrong.append(f"{label} {puzzle[:30]}…: {first_difference(mine, other)}")
    assert not wrong, f"{len(wrong)} of {len(pure)} explanations differ:\n" + "\n".join(wrong[:10])


def test_the_pure_path_really_is_pure() -> None:
    """The subprocess sees no compiled module (else the comparison above proves nothing)."""
    env = dict(os.environ, **{core.PURE_ENV: "1"})
    code = ("from explainer.core import propagate, solver; from techniques import implication; "
            "print(propagate._C, implication._C, solver._C)")
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, cwd=ROOT, env=env, check=True)
    assert out.stdout.split() == ["None", "None", "None"]
