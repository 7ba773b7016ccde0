"""The seeds' solver table (issues 7 and 15): time per puzzle for each solver, by difficulty class.

    nice python benchmarks/bench_solvers.py [--per-class 40] [--results benchmarks/RESULTS.md]
                                           [--out output/solver-benchmark.png]

Solvers: the project's exact-cover solvers (DLX, bitmask), plain and MRV
backtracking, the optional back-ends OR-tools CP-SAT and Z3 (extra
[solvers]; skipped with a note when missing) and the human solver, i.e. the
explaining engine (``explainer.api.Puzzle(line).steps``, which includes its
own uniqueness proof). Every solver finds the solution and proves it unique
(a second solution is searched for); plain backtracking gets a node budget and
puzzles past it are counted as "gave up" rather than timed.

Puzzles: top1465 read in line order, each explained once to learn the
engine's class (easy / medium / difficult), keeping the first ``--per-class``
of each class (0 = the whole file); plus the 16×16 set (../shared/data/
sample16.txt and examples/16x16-hard.txt) and the 25×25 set (sample25.txt and
examples/25x25-hard.txt).

Every solver's answer is checked against the project's solver
(``solver.solve_values``, the bitmask exact cover) on every puzzle; a
disagreement stops the run. CPU time per puzzle (``time.process_time``), one
warm-up solve per solver first. Columns as in the seeds' table (BenchmarkDotNet's):
Mean; Error = half of the 99.9 % confidence interval of the mean
(Student's t × standard deviation / √N); StdDev (sample standard deviation);
Median; Min; Max; Rank = rank of the mean within the class.
"""
from __future__ import annotations

import argparse
import math
import re
import statistics
import sys
import time
from collections import defaultdict
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from matplotlib.figure import Figure  # noqa: E402
from matplotlib.patches import Patch  # noqa: E402

from explainer.api import Puzzle  # noqa: E402
from explainer.app.backends import available  # noqa: E402
from explainer.app.solvers import ALL_METHODS, OPTIONAL_METHODS, solve  # noqa: E402
from explainer.core.solver import SearchLimit, solve_values  # noqa: E402
from explainer.model.grid import Grid, parse_grid, read_sources  # noqa: E402

DATA = ROOT.parent / "shared" / "data"
TOP = DATA / "top1465.txt"
SETS = {
    "16×16": [DATA / "sample16.txt", ROOT / "examples" / "16x16-hard.txt"],
    "25×25": [DATA / "sample25.txt", ROOT / "examples" / "25x25-hard.txt"],
}
CLASSES = ("easy", "medium", "difficult")
HUMAN = "human"
LABELS = {
    "dlx": "DLX (dancing links)",
    "bitmask": "bitmask exact cover (the engine's)",
    "backtracking": "backtracking",
    "backtracking-mrv": "backtracking, fewest options first",
    "ortools": "OR-tools CP-SAT",
    "z3": "Z3",
    HUMAN: "human solver (explaining engine)",
}
SECTION = "## The seeds' solver table"
CONFIDENCE = 0.999  # BenchmarkDotNet's "Error": half of the 99.9 % confidence interval


# -- Student's t quantile (no scipy here) -------------------------------------

def _betacf(a: float, b: float, x: float) -> float:
    """Continued fraction of the incomplete beta function (modified Lentz)."""
    tiny = 1e-300
    c, d = 1.0, 1.0 - (a + b) * x / (a + 1)
    d = 1 / (d if abs(d) > tiny else tiny)
    h = d
    for m in range(1, 300):
        for num in (m * (b - m) * x / ((a + 2 * m - 1) * (a + 2 * m)),
                    -(a + m) * (a + b + m) * x / ((a + 2 * m) * (a + 2 * m + 1))):
            d = 1 + num * d
            d = 1 / (d if abs(d) > tiny else tiny)
            c = 1 + num / c
            c = c if abs(c) > tiny else tiny
            h *= d * c
        if abs(d * c - 1) < 1e-15:
            break
    return h


def _betainc(a: float, b: float, x: float) -> float:
    """Regularised incomplete beta I_x(a, b)."""
    if x <= 0 or x >= 1:
        return 0.0 if x <= 0 else 1.0
    front = math.exp(math.lgamma(a + b) - math.lgamma(a) - math.lgamma(b) + a * math.log(x) + b * math.log1p(-x))
    if x < (a + 1) / (a + b + 2):
        return front * _betacf(a, b, x) / a
    return 1 - front * _betacf(b, a, 1 - x) / b


def t_quantile(p: float, df: int) -> float:
    """t with P(T <= t) = p for Student's t with df degrees of freedom (p > 0.5)."""
    def upper(t: float) -> float:
        return 0.5 * _betainc(df / 2, 0.5, df / (df + t * t))
    lo, hi = 0.0, 1.0
    while upper(hi) > 1 - p:
        hi *= 2
    for _ in range(200):
        mid = (lo + hi) / 2
        lo, hi = (mid, hi) if upper(mid) > 1 - p else (lo, mid)
    return (lo + hi) / 2


def summary(ts: list[float]) -> dict[str, float | None]:
    n = len(ts)
    sd = statistics.stdev(ts) if n > 1 else None
    error = t_quantile(1 - (1 - CONFIDENCE) / 2, n - 1) * sd / math.sqrt(n) if sd is not None else None
    return {"mean": statistics.fmean(ts), "error": error, "stddev": sd, "median": statistics.median(ts),
            "min": min(ts), "max": max(ts)}


# -- the puzzles --------------------------------------------------------------

def reference(grid: Grid) -> tuple[int, ...]:
    """The project's solver's answer, with the uniqueness proof."""
    solutions = solve_values(grid.n, grid.values, 2)
    assert len(solutions) == 1, "benchmark puzzles have one solution"
    return tuple(solutions[0])


def time_human(grid: Grid, expected: tuple[int, ...]) -> tuple[float, str]:
    """CPU seconds of Puzzle(line).steps and the engine's class; its end state must be the solution."""
    start = time.process_time()
    puzzle = Puzzle(grid)
    puzzle.steps
    seconds = time.process_time() - start
    final = puzzle.state_before(len(puzzle.steps))
    assert puzzle.complete and tuple(final.values) == expected, "human solver disagrees"
    return seconds, puzzle.difficulty


def pick_top(per_class: int, times: dict, where: dict) -> list[tuple[str, Grid, tuple[int, ...]]]:
    """The first ``per_class`` puzzles of each class, in line order (the human solver timed on the way)."""
    chosen: list[tuple[str, Grid, tuple[int, ...]]] = []
    counts: dict[str, int] = defaultdict(int)
    warm = parse_grid(read_sources(TOP)[0].text)
    time_human(warm, reference(warm))
    for source in read_sources(TOP):
        grid = parse_grid(source.text, source.where)
        expected = reference(grid)
        seconds, cls = time_human(grid, expected)
        if per_class and counts[cls] >= per_class:
            if all(counts[c] >= per_class for c in CLASSES):
                break
            continue
        counts[cls] += 1
        chosen.append((cls, grid, expected))
        times[HUMAN, cls].append(seconds)
        where.setdefault(cls, []).append(source.where.rsplit(":", 1)[-1])
    return chosen


def pick_sets(times: dict) -> list[tuple[str, Grid, tuple[int, ...]]]:
    chosen = []
    for cls, files in SETS.items():
        for path in files:
            for source in read_sources(path):
                grid = parse_grid(source.text, source.where)
                expected = reference(grid)
                seconds, _ = time_human(grid, expected)
                times[HUMAN, cls].append(seconds)
                chosen.append((cls, grid, expected))
    return chosen


# -- the solvers --------------------------------------------------------------

def run(puzzles, methods: list[str], max_nodes: int, times: dict, gave_up: dict) -> None:
    for method in methods:
        try:
            solve(puzzles[0][1], method=method, max_nodes=max_nodes)  # warm-up: imports, caches
        except SearchLimit:
            pass
        for cls, grid, expected in puzzles:
            start = time.process_time()
            try:
                solution = solve(grid, method=method, max_nodes=max_nodes)
            except SearchLimit:
                gave_up[method, cls] += 1
                continue
            times[method, cls].append(time.process_time() - start)
            assert solution.values == expected, f"{method} disagrees with the project's solver on {grid.to_line()}"
        print(f"  {method}: {len(puzzles)} puzzles, all agree", file=sys.stderr, flush=True)


def ms(x: float | None) -> str:
    return "NA" if x is None else f"{x * 1e3:,.2f} ms"


def table(times, gave_up, solvers: list[str], classes: list[str], counts: dict[str, int]) -> str:
    rows = ["| Solver | Class | Puzzles | Mean | Error | StdDev | Median | Min | Max | Rank | Gave up |",
            "| --- | --- | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: |"]
    for cls in classes:
        stats = {s: summary(times[s, cls]) for s in solvers if times.get((s, cls))}
        # Ranked: the solvers that finished every puzzle of the class; the others follow
        # (statistics over the puzzles they finished) and get no rank, as the seeds' NA rows.
        ranked = sorted((s for s in stats if not gave_up.get((s, cls))), key=lambda s: stats[s]["mean"])
        partial = sorted((s for s in stats if s not in ranked), key=lambda s: stats[s]["mean"])
        for solver in ranked + partial + [s for s in solvers if s not in stats]:
            st = stats.get(solver)
            cells = [ms(st[k]) if st else "NA" for k in ("mean", "error", "stddev", "median", "min", "max")]
            rank = str(ranked.index(solver) + 1) if solver in ranked else "?"
            rows.append(f"| {LABELS[solver]} | {cls} | {counts[cls]} | {' | '.join(cells)} | {rank} | "
                        f"{gave_up.get((solver, cls), 0)} |")
    return "\n".join(rows)


def chart(times, gave_up, solvers: list[str], classes: list[str], out: Path) -> None:
    """Grouped bars: one group per class, one bar per solver (mean, error bar = Error), log scale;
    a solver that finished none of a class's puzzles gets the words "gave up" instead of a bar."""
    fig = Figure(figsize=(11, 5.5))
    ax = fig.add_subplot()
    width = 0.84 / len(solvers)
    for i, solver in enumerate(solvers):
        xs, means, errors, hatches = [], [], [], []
        for k, cls in enumerate(classes):
            ts = times.get((solver, cls))
            if not ts and gave_up.get((solver, cls)):
                ax.text(k + i * width, 0.02, "gave up", transform=ax.get_xaxis_transform(), rotation=90,
                        ha="center", va="bottom", fontsize=7, color=f"C{i}")
            if ts:
                st = summary(ts)
                xs.append(k + i * width)
                means.append(st["mean"] * 1e3)
                errors.append(min((st["error"] or 0) * 1e3, st["mean"] * 1e3 * 0.999))
                hatches.append("//" if gave_up.get((solver, cls)) else "")
        bars = ax.bar(xs, means, width, yerr=errors, capsize=2, color=f"C{i}")
        for bar, hatch in zip(bars, hatches, strict=False):
            bar.set_hatch(hatch)
    ax.set_xticks([k + width * (len(solvers) - 1) / 2 for k in range(len(classes))], classes)
    ax.set_yscale("log")
    ax.set_ylabel("mean CPU time per puzzle (ms, log scale)")
    ax.set_title(f"Solvers by class: {', '.join(classes)} (top1465 classes: the engine's)\n"
                 "solution + uniqueness proof; error bars: half of the 99.9 % confidence interval;\n"
                 "hatched: gave up on some puzzles (mean over the others)")
    handles = [Patch(color=f"C{i}", label=LABELS[solver]) for i, solver in enumerate(solvers)]
    ax.legend(handles=handles, fontsize=8, ncol=4, loc="upper center", bbox_to_anchor=(0.5, -0.07))
    out.parent.mkdir(parents=True, exist_ok=True)
    fig.savefig(out, dpi=100, bbox_inches="tight")


def write_section(results: Path, text: str) -> None:
    """Replace (or append) the section headed SECTION in RESULTS.md."""
    old = results.read_text() if results.exists() else "# Benchmark results\n"
    # Up to the next section, or to a "<!-- notes -->" line: hand-written notes below it are kept.
    pattern = re.compile(rf"^{re.escape(SECTION)}\n.*?(?=^## |^<!-- notes -->|\Z)", re.S | re.M)
    block = f"{SECTION}\n\n{text.strip()}\n\n"
    new = pattern.sub(lambda _m: block, old) if pattern.search(old) else old.rstrip("\n") + "\n\n" + block
    results.write_text(new.rstrip("\n") + "\n")


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--per-class", type=int, default=40,
                        help="first N top1465 puzzles of each class by line number (0 = all 1465)")
    parser.add_argument("--methods", nargs="+", choices=ALL_METHODS, default=list(ALL_METHODS))
    parser.add_argument("--no-sets", action="store_true", help="top1465 only (no 16×16 / 25×25 sets)")
    parser.add_argument("--max-nodes", type=int, default=200_000, help="node budget per puzzle (backtracking)")
    parser.add_argument("--out", type=Path, default=ROOT / "output" / "solver-benchmark.png",
                        help="the chart (default output/solver-benchmark.png: a run never overwrites a tracked file)")
    parser.add_argument("--results", type=Path, help="write the table as a section of this Markdown file")
    args = parser.parse_args(argv)
    methods = [m for m in args.methods if m not in OPTIONAL_METHODS or available(m)]
    missing = [m for m in args.methods if m not in methods]
    times: dict[tuple[str, str], list[float]] = defaultdict(list)
    gave_up: dict[tuple[str, str], int] = defaultdict(int)
    lines: dict[str, list[str]] = {}
    wall = time.perf_counter()
    puzzles = pick_top(args.per_class, times, lines)
    classes = [c for c in CLASSES if c in lines]
    if not args.no_sets:
        puzzles += pick_sets(times)
        classes += list(SETS)
    print(f"  human: {len(puzzles)} puzzles, all agree", file=sys.stderr, flush=True)
    run(puzzles, methods, args.max_nodes, times, gave_up)
    counts = {c: sum(1 for cls, _, _ in puzzles if cls == c) for c in classes}
    solvers = methods + [HUMAN]
    sample = "all of top1465" if not args.per_class else f"the first {args.per_class} top1465 puzzles of each class"
    picked = "; ".join(f"{c}: lines {_ranges(lines[c])}" for c in classes if c in lines)
    sets = "" if args.no_sets else ", plus the 16×16 and 25×25 sets"
    heading = (f"{len(puzzles)} puzzles: {sample} (the engine's class, line order){sets}; each solver finds "
               f"the solution and proves it unique; CPU time per puzzle; backtracking node budget {args.max_nodes:,}")
    command = " ".join(["nice python benchmarks/bench_solvers.py", *(sys.argv[1:] if argv is None else argv)])
    text = (f"`{command}` ({time.perf_counter() - wall:.0f} s wall, chart: `{args.out.name}`)\n\n"
            f"**{heading}.** Every solver agreed with the project's solver on every puzzle it finished.\n\n"
            f"{table(times, gave_up, solvers, classes, counts)}\n\n"
            f"Top1465 lines used: {picked}.")
    legend = ("Columns as in the seeds' table (BenchmarkDotNet's legend): Mean = arithmetic mean; Error = half of "
              "the 99.9 % confidence interval of the mean (Student's t × StdDev / √N); StdDev = sample standard "
              "deviation; Median, Min, Max; Rank = by mean within the class, among the solvers that finished every "
              "puzzle of it (\"?\" otherwise; their figures are over the puzzles they finished); Gave up = "
              "puzzles past the backtracking node budget.")
    if not args.no_sets:
        text += (" 16×16: `sample16.txt` (4) and `examples/16x16-hard.txt` (1); "
                 "25×25: `sample25.txt` (2) and `examples/25x25-hard.txt` (1), the first two from `../shared/data/`.")
    text += "\n\n" + legend
    if missing:
        text += f"\n\nNot installed (extra [solvers]), left out: {', '.join(missing)}."
    print(text)
    chart(times, gave_up, solvers, classes, args.out)
    if args.results:
        write_section(args.results, text)
    print(f"chart: {args.out}", file=sys.stderr)
    return 0


def _ranges(numbers: list[str]) -> str:
    """'1-3, 7' from ['1', '2', '3', '7']."""
    values = sorted(int(x) for x in numbers)
    parts, start = [], values[0]
    for prev, cur in zip(values, values[1:] + [-1], strict=False):
        if cur != prev + 1:
            parts.append(f"{start}" if start == prev else f"{start}-{prev}")
            start = cur
    return ", ".join(parts)


if __name__ == "__main__":
    sys.exit(main())
