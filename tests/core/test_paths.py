"""The compiled and the pure-Python search core give byte-identical steps JSON.

The same puzzles are explained in this process (compiled core) and in a child
process with ``SUDOKU_EXPLAINER_PURE=1``, on both orders (simplest first and the
registry's). ``tests/core/test_search.py`` compares the primitives one by one on
random states; this compares what a user gets. A larger sample:
``benchmarks/bench_speed.py`` notes how to run one.
"""
from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

import techniques
from explainer import engine
from explainer.core import PURE_ENV, search

pytestmark = pytest.mark.skipif(not search.compiled(), reason="the compiled search core is not in use")

DATA = Path(__file__).resolve().parents[2].parent / "shared" / "data"
SAMPLES = (("sample4.txt", 7, 6), ("top1465.txt", 487, 3), ("hardest300.txt", 149, 1))

CHILD = """
import json, sys
import techniques
from explainer import engine
chosen = techniques.select(None)
out = []
for text, easiest in json.loads(sys.stdin.read()):
    out.append(json.dumps(engine.Puzzle(text, chosen, easiest=easiest).to_json(), sort_keys=True))
print(json.dumps(out))
"""


def _puzzles() -> list[str]:
    out = []
    for name, every, count in SAMPLES:
        path = DATA / name
        if not path.exists():
            pytest.skip(f"{path} is missing")
        lines = [ln.split()[0] for ln in path.read_text().splitlines() if ln.strip() and not ln.startswith("#")]
        out += lines[::every][:count]
    return out


def test_pure_and_compiled_paths_give_the_same_steps() -> None:
    jobs = [(text, easiest) for text in _puzzles() for easiest in (True, False)]
    chosen = techniques.select(None)
    here = [json.dumps(engine.Puzzle(text, chosen, easiest=easiest).to_json(), sort_keys=True)
            for text, easiest in jobs]
    env = dict(os.environ, **{PURE_ENV: "1"})
    child = subprocess.run([sys.executable, "-c", CHILD], input=json.dumps(jobs), env=env, text=True,
                           capture_output=True, check=True, cwd=Path(__file__).resolve().parents[2])
    pure = json.loads(child.stdout)
    assert len(pure) == len(here) == len(jobs)
    for (text, easiest), a, b in zip(jobs, here, pure, strict=True):
        assert a == b, (text, easiest)
    assert sum(len(json.loads(a)["steps"]) for a in here) > 100  # the puzzles need many steps
