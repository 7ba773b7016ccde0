"""Time per puzzle for each solving method, by difficulty class (issue 7).

    python benchmarks/bench_solvers.py [--sample 30] [--generated 15] [--out output/solver-benchmark.png]

Puzzles: an evenly spread sample of top1465 plus freshly generated 9×9
puzzles. The class (easy / medium / difficult) is the engine's; while
explainer/engine.py is absent every puzzle is "unknown" (same code path).
Each method finds the solution and proves it unique (limit 2); plain
backtracking gets a node budget and puzzles over it are counted as
"gave up" rather than timed. CPU time per puzzle. Output: a Markdown table
on stdout and a bar chart (median and mean per class and method) as PNG.
"""
from __future__ import annotations

import argparse
import statistics
import sys
import time
from collections import defaultdict
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from matplotlib.figure import Figure  # noqa: E402

from explainer.generate.generator import generate_many  # noqa: E402
from explainer.grid import Grid, parse_grid, read_sources  # noqa: E402
from explainer.solver import SearchLimit  # noqa: E402
from explainer.solvers import METHODS, solve  # noqa: E402

TOP = "/work/shared/data/top1465.txt"
CLASSES = ("easy", "medium", "difficult", "unknown")


def classify(grid: Grid) -> str:
    """The engine's difficulty class, or "unknown" while there is no engine."""
    try:
        from explainer import Puzzle
    except ImportError:
        return "unknown"
    return Puzzle(grid).difficulty


def sample_top(count: int) -> list[Grid]:
    sources = read_sources(TOP)
    step = max(1, len(sources) // count)
    return [parse_grid(s.text, s.where) for s in sources[::step][:count]]


def time_one(grid: Grid, method: str, max_nodes: int) -> float | None:
    """CPU seconds to solve and prove uniqueness, or None past the node budget."""
    start = time.process_time()
    try:
        solve(grid, method=method, max_nodes=max_nodes)
    except SearchLimit:
        return None
    return time.process_time() - start


def run(grids: list[tuple[str, str, Grid]], methods: list[str], max_nodes: int):
    """{(method, class): [seconds]} and {(method, class): gave-up count}."""
    times: dict[tuple[str, str], list[float]] = defaultdict(list)
    gave_up: dict[tuple[str, str], int] = defaultdict(int)
    for method in methods:
        for _origin, cls, grid in grids:
            t = time_one(grid, method, max_nodes)
            if t is None:
                gave_up[method, cls] += 1
            else:
                times[method, cls].append(t)
        print(f"  {method} done", file=sys.stderr, flush=True)
    return times, gave_up


def table(times, gave_up, methods: list[str], classes: list[str], counts: dict[str, int]) -> str:
    rows = ["| method | class | puzzles | mean ms | median ms | min ms | max ms | gave up |",
            "| --- | --- | ---: | ---: | ---: | ---: | ---: | ---: |"]
    for method in methods:
        for cls in classes:
            ts = times.get((method, cls), [])
            if ts:
                figures = [statistics.fmean(ts), statistics.median(ts), min(ts), max(ts)]
                cells = " | ".join(f"{x * 1e3:.2f}" for x in figures)
            else:
                cells = " | ".join("-" for _ in range(4))
            rows.append(f"| {method} | {cls} | {counts[cls]} | {cells} | {gave_up.get((method, cls), 0)} |")
    return "\n".join(rows)


def chart(times, methods: list[str], classes: list[str], out: Path) -> None:
    """Grouped bars: one group per class, one bar per method (median, log scale)."""
    fig = Figure(figsize=(9, 5))
    ax = fig.add_subplot()
    width = 0.8 / len(methods)
    for i, method in enumerate(methods):
        medians = [statistics.median(times[method, c]) * 1e3 if times.get((method, c)) else 0 for c in classes]
        xs = [k + i * width for k in range(len(classes))]
        ax.bar(xs, medians, width, label=method)
    ax.set_xticks([k + width * (len(methods) - 1) / 2 for k in range(len(classes))],
                  [c.replace(" (", "\n(") for c in classes])
    ax.set_yscale("log")
    ax.set_ylabel("median time per puzzle (ms, CPU, log scale)")
    ax.set_title("Solvers by difficulty class (top1465 sample + generated 9×9)")
    ax.legend()
    out.parent.mkdir(parents=True, exist_ok=True)
    fig.savefig(out, dpi=100, bbox_inches="tight")


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--sample", type=int, default=30, help="top1465 puzzles (evenly spread)")
    parser.add_argument("--generated", type=int, default=15, help="generated 9×9 puzzles")
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--methods", nargs="+", choices=METHODS, default=list(METHODS))
    parser.add_argument("--max-nodes", type=int, default=200_000, help="node budget per puzzle")
    parser.add_argument("--out", type=Path, default=Path("output/solver-benchmark.png"))
    args = parser.parse_args(argv)
    grids = [("top1465", "", g) for g in sample_top(args.sample)]
    grids += [("generated", "", g) for g in generate_many(9, args.generated, args.seed)]
    # Group by class and origin: generated puzzles are much easier than top1465.
    grids = [(origin, f"{classify(g)} ({origin})", g) for origin, _, g in grids]
    labels = [f"{c} ({o})" for c in CLASSES for o in ("top1465", "generated")]
    counts = {c: sum(1 for _, cls, _ in grids if cls == c) for c in labels}
    classes = [c for c in labels if counts[c]]
    times, gave_up = run(grids, args.methods, args.max_nodes)
    print(f"{len(grids)} puzzles ({args.sample} from top1465, {args.generated} generated), "
          f"uniqueness proven, CPU time, node budget {args.max_nodes}")
    print(table(times, gave_up, args.methods, classes, counts))
    chart(times, args.methods, classes, args.out)
    print(f"chart: {args.out}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
