"""Time the uniqueness proof (limit=2) per puzzle for each exact-cover method.

    python benchmarks/bench_solver.py [FILE] [--limit N] [--method bitmask|dlx ...]

Default FILE: ../shared/data/top1465.txt (beside the repository).

Prints median, p90, max and total per method: the engine's target is a
median of 5 ms or less on top1465 for its default method.
"""
from __future__ import annotations

import argparse
import statistics
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))
from explainer.app.bank.db import percentile  # noqa: E402
from explainer.core.solver import solve_values  # noqa: E402
from explainer.model.grid import parse_grid, read_sources  # noqa: E402

DEFAULT_FILE = str(ROOT.parent / "shared" / "data" / "top1465.txt")



CLOCKS = {"cpu": time.process_time, "wall": time.perf_counter}


def time_method(method: str, grids: list, clock=time.process_time) -> list[float]:
    """Seconds per puzzle; CPU time by default, so other jobs on the machine matter less."""
    times = []
    for grid in grids:
        start = clock()
        solutions = solve_values(grid.n, grid.values, 2, method=method)
        times.append(clock() - start)
        if len(solutions) != 1:
            print(f"warning: {len(solutions)} solutions for {grid.to_line()}", file=sys.stderr)
    return times


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("file", nargs="?", default=DEFAULT_FILE)
    parser.add_argument("--limit", type=int, default=None, help="only the first N puzzles")
    parser.add_argument("--method", action="append", choices=["bitmask", "dlx"],
                        help="method(s) to time (default: both)")
    parser.add_argument("--clock", choices=sorted(CLOCKS), default="cpu",
                        help="cpu: process time (default, robust to a busy machine); wall: elapsed time")
    args = parser.parse_args(argv)
    sources = read_sources(args.file)[: args.limit]
    grids = [parse_grid(s.text, s.where) for s in sources]
    print(f"{len(grids)} puzzles from {args.file} (uniqueness proof, limit=2, {args.clock} time)")
    print("| method | median ms | p90 ms | max ms | mean ms | total s |")
    print("| --- | ---: | ---: | ---: | ---: | ---: |")
    for method in args.method or ["bitmask", "dlx"]:
        times = sorted(time_method(method, grids, CLOCKS[args.clock]))
        print(f"| {method} | {statistics.median(times) * 1e3:.2f} | {percentile(times, 0.9) * 1e3:.2f} | "
              f"{times[-1] * 1e3:.1f} | {statistics.fmean(times) * 1e3:.2f} | {sum(times):.2f} |", flush=True)
    return 0


if __name__ == "__main__":
    sys.exit(main())
