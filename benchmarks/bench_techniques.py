"""Time each technique finder on top1465 states, and the whole set.

    python benchmarks/bench_techniques.py [--limit N] [--data PATH]

For every puzzle the engine runs with ``profile=True``: ``Puzzle.timings``
maps each registry entry to the seconds of each call (one call per step
where the earlier techniques found nothing). Prints, per finder, the number
of calls, median and p90 per call, and the total; then the time to solve the
puzzles (exact-cover solver, for the soundness check), the time of the step
loops, and the statistics of step names. Figures only.
"""
from __future__ import annotations

import argparse
import statistics
import sys
import time
from collections import Counter
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))
from explainer.db import percentile  # noqa: E402

from explainer.engine import Puzzle  # noqa: E402
from techniques import REGISTRY, step_names  # noqa: E402

DEFAULT_DATA = ROOT / ".." / "shared" / "data" / "top1465.txt"



def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--limit", type=int, default=None, help="first N puzzles only")
    ap.add_argument("--data", default=str(DEFAULT_DATA))
    args = ap.parse_args(argv)

    lines = [x.strip() for x in Path(args.data).read_text().splitlines() if x.strip()]
    if args.limit:
        lines = lines[: args.limit]
    timings: dict[str, list[float]] = {}
    counts: Counter[str] = Counter()
    using: Counter[str] = Counter()
    difficulty: Counter[str] = Counter()
    solve_seconds = steps_seconds = 0.0
    n_steps = 0
    start = time.perf_counter()
    for line in lines:
        p = Puzzle(line, profile=True)
        t0 = time.perf_counter()
        p.solution
        t1 = time.perf_counter()
        steps = p.steps
        t2 = time.perf_counter()
        solve_seconds += t1 - t0
        steps_seconds += t2 - t1
        n_steps += len(steps)
        counts.update(p.statistics)
        using.update(p.statistics.keys())
        difficulty[p.difficulty] += 1
        for name, secs in (p.timings or {}).items():
            timings.setdefault(name, []).extend(secs)
    total = time.perf_counter() - start

    print(f"puzzles {len(lines)}  steps {n_steps}")
    print(f"{'finder':18s} {'calls':>7s} {'median ms':>10s} {'p90 ms':>8s} {'max ms':>8s} {'total s':>8s}")
    for t in REGISTRY:
        secs = sorted(timings.get(t.name, []))
        if not secs:
            continue
        print(f"{t.name:18s} {len(secs):7d} {statistics.median(secs) * 1e3:10.3f} "
              f"{percentile(secs, 0.9) * 1e3:8.3f} {secs[-1] * 1e3:8.2f} {sum(secs):8.2f}")
    print(f"whole set: {total:.1f} s  (solver {solve_seconds:.1f} s, step loops {steps_seconds:.1f} s, "
          f"{steps_seconds / max(1, len(lines)):.3f} s per puzzle)")
    print("difficulty:", dict(difficulty))
    order = {name: i for i, name in enumerate(step_names())}
    print("steps:", {k: counts[k] for k in sorted(counts, key=lambda k: order.get(k, 999))})
    print("puzzles using:", {k: using[k] for k in sorted(using, key=lambda k: order.get(k, 999))})
    return 0


if __name__ == "__main__":
    sys.exit(main())
