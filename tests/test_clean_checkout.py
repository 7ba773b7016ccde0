"""A clean checkout (issue 40, item 1): runs write under output/ or a folder they are given.

The suite itself is watched by the session fixture ``_checkout_stays_clean`` (tests/conftest.py);
these tests check that the watch sees a stray file, and that no benchmark's default output
points into the tracked tree."""
from __future__ import annotations

import re
from pathlib import Path

from tests.conftest import ROOT, checkout_status

BENCHMARKS = ROOT / "benchmarks"


def test_the_watch_sees_a_file_written_at_the_top_level() -> None:
    before = checkout_status()
    if before is None:
        return  # not a git checkout: nothing to watch
    stray = ROOT / "steps.json"  # ignored by .gitignore, yet still a stray output
    assert not stray.exists()
    try:
        stray.write_text("{}")
        after = checkout_status()
        assert after is not None and after - before == {"!! steps.json"}
    finally:
        stray.unlink()
    assert checkout_status() == before


def test_benchmarks_write_under_output_by_default() -> None:
    """Every ``--out``/``--save``-like default of a benchmark names a place under output/ (or is
    None: nothing written unless asked)."""
    pattern = re.compile(r"add_argument\(\s*\"--(?:out|save|results|cache)\"[^)]*default=([^,)]+)")
    for path in sorted(BENCHMARKS.glob("*.py")):
        for default in pattern.findall(path.read_text()):
            under_output = default.strip() == "None" or '"output"' in default or "output/" in default
            assert under_output, f"{path.name}: default {default} is not under output/"


def test_solver_benchmark_chart_goes_to_output() -> None:
    text = (BENCHMARKS / "bench_solvers.py").read_text()
    assert 'default=ROOT / "output" / "solver-benchmark.png"' in text
    assert Path(BENCHMARKS / "solver-benchmark.png").exists()  # the committed chart stays, untouched
