"""Step-loop CPU time of the full registry against the registry before issue #16.

    python benchmarks/bench_registry.py [FILE] [--start 1] [--limit 300] [--runs 3]
                                        [--no-table] [--only full|base] [--drop TECHNIQUE ...]

Issue #16 added named patterns; its requirement is that the full registry
stays within 10% of the time before the issue. The "before" registry is the
full one minus the techniques the issue added (``NEW``: xy/xyz/wxyz wings,
unique rectangle, bug+1, grouped chain, ALS XY wing, ALS chain, death blossom); the
named chain kinds and the sashimi fish names live inside finders that
existed before (chain, finned fish) and cannot be left out by name.

Each run explains every puzzle of the sample once with each registry, puzzle
by puzzle: each puzzle with both registries in turn, the order alternating
from puzzle to puzzle and between runs (full, base / base, full …), so that
a neighbour slowing the machine for a few seconds slows both alike (timing
all puzzles with one registry, then all with the other, let such a burst land
on one side only); the solution is computed outside the timed part.
Times are CPU seconds of this process (``time.process_time``); the figure is
the median over the runs, with wall time beside it. The per-finder table
comes from one more run of each registry (taking turns in the same way)
with every finder wrapped: CPU time spent inside it (the step loop's calls
only), calls, and hits (calls whose finder gave the step).
"""
from __future__ import annotations

import argparse
import dataclasses
import statistics
import sys
import time
from collections.abc import Iterator, Sequence
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))
import techniques as registry  # noqa: E402
from explainer import engine  # noqa: E402
from explainer.core.solver import unique_solution  # noqa: E402
from explainer.model.explanation import Explanation  # noqa: E402
from explainer.model.grid import Grid, Source, parse_grid, read_sources  # noqa: E402
from explainer.model.state import State  # noqa: E402
from explainer.model.technique import Context, Technique  # noqa: E402

NEW = ("xy wing", "xyz wing", "wxyz wing", "unique rectangle", "bug+1", "grouped chain", "als xy wing",
       "als chain", "death blossom")


def registries(drop: Sequence[str] = ()) -> dict[str, list[Technique]]:
    """The full registry (less the ``drop`` techniques: what the rest of the issue's techniques
    cost without them) and the pre-#16 set."""
    full = registry.select(None)
    new = {registry.lookup(name).name for name in NEW}
    left_out = {registry.lookup(name).name for name in drop}
    return {"full": [t for t in full if t.name not in left_out], "base": [t for t in full if t.name not in new]}


class Meter:
    """Per finder: CPU seconds inside it, calls, hits (the engine kept one of its steps)."""

    def __init__(self) -> None:
        self.cpu: dict[str, float] = {}
        self.calls: dict[str, int] = {}
        self.hits: dict[str, int] = {}

    def wrap(self, t: Technique) -> Technique:
        inner = t.find

        def find(state: State, ctx: Context, /) -> Iterator[Explanation]:
            # the engine stops iterating at the first live step: time each resumption
            cpu = 0.0
            it = inner(state, ctx)
            self.calls[t.name] = self.calls.get(t.name, 0) + 1
            try:
                while True:
                    start = time.process_time()
                    try:
                        step = next(it)
                    finally:
                        cpu += time.process_time() - start
                        self.cpu[t.name] = self.cpu.get(t.name, 0.0) + cpu
                        cpu = 0.0
                    yield step
            except StopIteration:
                return

        return dataclasses.replace(t, find=find)

    def count_hits(self, steps: Sequence[Explanation], chosen: Sequence[Technique]) -> None:
        owner = {k.name: t.name for t in reversed(chosen) for k in t.kinds}
        for s in steps:
            name = owner.get(s.technique, s.technique)
            self.hits[name] = self.hits.get(name, 0) + 1


Sample = tuple[Source, Grid]  # a puzzle and its solution


def turns(puzzles: Sequence[Sample], names: Sequence[str], offset: int = 0) -> Iterator[tuple[Sample, str]]:
    """Each puzzle with every registry in turn, the order alternating from puzzle to puzzle
    (and, by ``offset``, from run to run)."""
    for k, puzzle in enumerate(puzzles):
        yield from ((puzzle, name) for name in (names if (offset + k) % 2 == 0 else names[::-1]))


def explain_one(puzzle: Sample, chosen: list[Technique]) -> tuple[float, float, int]:
    """CPU and wall seconds of the puzzle's step loop, and its number of steps."""
    src, solution = puzzle
    p = engine.Puzzle(src.text, chosen, where=src.where)
    p._solution = solution  # the solver is not part of the step loop
    c0, w0 = time.process_time(), time.perf_counter()
    steps = len(p.steps)
    return time.process_time() - c0, time.perf_counter() - w0, steps


def tables(puzzles: Sequence[Sample], regs: dict[str, list[Technique]]) -> dict[str, Meter]:
    """One meter per registry, the registries taking turns as in the timed runs."""
    meters = {name: Meter() for name in regs}
    wrapped = {name: [meters[name].wrap(t) for t in chosen] for name, chosen in regs.items()}
    for (src, solution), name in turns(puzzles, list(regs)):
        p = engine.Puzzle(src.text, wrapped[name], where=src.where)
        p._solution = solution
        meters[name].count_hits(p.steps, regs[name])
    return meters


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("file", nargs="?", default=str(ROOT.parent / "shared" / "data" / "top1465.txt"))
    ap.add_argument("--start", type=int, default=1, help="first puzzle (1-based line of the file)")
    ap.add_argument("--limit", type=int, default=300, help="number of puzzles (0: to the end)")
    ap.add_argument("--runs", type=int, default=3)
    ap.add_argument("--only", choices=("full", "base"), help="time one registry only (for profiling)")
    ap.add_argument("--no-table", action="store_true", help="skip the per-finder table")
    ap.add_argument("--drop", action="append", default=[], metavar="TECHNIQUE",
                    help="leave this technique out of the full registry (repeatable): what the others cost")
    args = ap.parse_args()
    sources = read_sources(args.file)[args.start - 1:]
    if args.limit:
        sources = sources[: args.limit]
    puzzles = [(s, unique_solution(parse_grid(s.text, s.where), s.where)) for s in sources]
    try:
        regs = registries(args.drop)
    except KeyError as e:
        ap.error(f"--drop: {e.args[0]}")
    names = [args.only] if args.only else ["full", "base"]
    print(f"file: {args.file}, puzzles {args.start}..{args.start + len(puzzles) - 1} ({len(puzzles)}), "
          f"runs {args.runs}")
    cpu: dict[str, list[float]] = {k: [] for k in names}
    wall: dict[str, list[float]] = {k: [] for k in names}
    for run in range(args.runs):
        c_run = dict.fromkeys(names, 0.0)
        w_run = dict.fromkeys(names, 0.0)
        nsteps = dict.fromkeys(names, 0)
        for puzzle, name in turns(puzzles, names, run):
            c, w, steps = explain_one(puzzle, regs[name])
            c_run[name] += c
            w_run[name] += w
            nsteps[name] += steps
        for name in names:
            c, w = c_run[name], w_run[name]
            cpu[name].append(c)
            wall[name].append(w)
            print(f"  run {run + 1} {name:<4} cpu {c:7.2f} s   wall {w:7.2f} s", file=sys.stderr)
    for name in names:
        print(f"{name:<4} ({len(regs[name])} techniques, {nsteps[name]} steps): step loop CPU median "
              f"{statistics.median(cpu[name]):7.2f} s (runs {', '.join(f'{x:.2f}' for x in cpu[name])}), "
              f"wall median {statistics.median(wall[name]):7.2f} s")
    if len(names) == 2:
        ratio = statistics.median(cpu["full"]) / statistics.median(cpu["base"])
        pairs = [f / b for f, b in zip(cpu["full"], cpu["base"], strict=True)]
        print(f"full / base CPU: {ratio:.3f} (per run: {', '.join(f'{x:.3f}' for x in pairs)})")
    if args.no_table:
        return 0
    meters = tables(puzzles, {name: regs[name] for name in names})
    print("\nper finder (one run): CPU seconds inside the finder, calls, hits")
    head = "".join(f" | {name + ' cpu':>9} {'calls':>7} {'hits':>6}" for name in names)
    print(f"{'technique':<18}{head}")
    for t in regs["full"] if "full" in names else regs[names[0]]:
        row = ""
        for name in names:
            m = meters[name]
            if t.name in m.calls:
                row += f" | {m.cpu.get(t.name, 0.0):9.2f} {m.calls[t.name]:7d} {m.hits.get(t.name, 0):6d}"
            else:
                row += f" | {'-':>9} {'-':>7} {'-':>6}"
        print(f"{t.name:<18}{row}")
    totals = "".join(f" | {sum(meters[n].cpu.values()):9.2f} {sum(meters[n].calls.values()):7d} "
                     f"{sum(meters[n].hits.values()):6d}" for n in names)
    print(f"{'total':<18}{totals}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
