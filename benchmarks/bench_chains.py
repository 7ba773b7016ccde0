"""Time the step loop over top1465 (or a slice) and count difficulties.

Usage: python benchmarks/bench_chains.py [FIRST [LAST]] [--every K] [--json DIR] [--data FILE]
       [--quick-solve] [--wall]

The exact-cover solver is not what is measured here: each puzzle's solution
is found first (``Puzzle.solution``, or the quick singles-and-guess search
below when ``--quick-solve`` is given, while the placeholder solver is
slow), then only ``Puzzle.steps`` (the step loop) is timed. Reports the
whole-set step-loop time, the p90 per puzzle, per-finder time per call
(median / p90, from ``Puzzle(..., profile=True).timings``) and the
difficulty counts next to the seed's (787 / 423 / 255).
"""
from __future__ import annotations

import argparse
import json
import sys
import time
from collections import Counter
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))
from explainer.db import percentile as pct  # noqa: E402

from explainer.engine import Puzzle  # noqa: E402
from explainer.grid import Grid  # noqa: E402
from explainer.state import State  # noqa: E402
from techniques.trial import propagate  # noqa: E402

DATA = ROOT.parent / "shared" / "data" / "top1465.txt"
SEED = {"easy": 787, "medium": 423, "difficult": 255}


def quick_solution(grid: Grid) -> Grid:
    """A solution by singles propagation and guessing (benchmark helper, not the engine's solver)."""
    def dfs(state: State) -> State | None:
        if state.is_solved():
            return state
        best = min((c for c in range(state.geo.ncells) if state.cand[c]), key=lambda c: state.cand[c].bit_count())
        for b in range(state.geo.n):
            if state.cand[best] >> b & 1:
                r = propagate(state, best, b + 1)
                if r.why is None:
                    nxt = State.__new__(State)
                    nxt.geo, nxt.values, nxt.cand = state.geo, r.values, r.cand
                    nxt.pos = [0] * state.geo.n
                    for c, m in enumerate(r.cand):
                        for v in range(state.geo.n):
                            if m >> v & 1:
                                nxt.pos[v] |= 1 << c
                    nxt.unsolved = sum(1 for x in r.values if not x)
                    nxt.version, nxt._memo = 0, {}
                    found = dfs(nxt)
                    if found is not None:
                        return found
        return None

    solved = dfs(State.from_grid(grid))
    assert solved is not None
    return Grid(grid.n, tuple(solved.values))



def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser()
    ap.add_argument("first", nargs="?", type=int, default=1, help="first line (1-based)")
    ap.add_argument("last", nargs="?", type=int, default=None, help="last line (inclusive)")
    ap.add_argument("--data", default=str(DATA))
    ap.add_argument("--json", default=None, help="write each steps JSON to this folder")
    ap.add_argument("--quick-solve", action="store_true", help="use the benchmark's own solution search")
    ap.add_argument("--every", type=int, default=1, help="take every k-th puzzle of the range")
    ap.add_argument("--wall", action="store_true",
                    help="per-finder times in wall clock (default: CPU time of this process)")
    args = ap.parse_args(argv)
    if not args.wall:
        # the engine times finders with time.perf_counter; give it this process's CPU clock so
        # that a busy machine does not inflate the per-finder figures
        import types

        from explainer import engine

        engine.time = types.SimpleNamespace(perf_counter=time.process_time)
    lines = Path(args.data).read_text().split()
    last = args.last or len(lines)
    out = Path(args.json) if args.json else None
    if out:
        out.mkdir(parents=True, exist_ok=True)
    times: list[float] = []
    cpu: list[float] = []
    per: dict[str, list[float]] = {}
    counts: Counter[str] = Counter()
    fired: dict[str, list[int]] = {}
    for k in range(args.first, last + 1, args.every):
        p = Puzzle(lines[k - 1], profile=True, where=f"line {k}")
        if args.quick_solve:
            p._solution = quick_solution(p.grid)
        else:
            p.solution
        start, start_cpu = time.perf_counter(), time.process_time()
        p.steps
        times.append(time.perf_counter() - start)
        cpu.append(time.process_time() - start_cpu)
        counts[p.difficulty] += 1
        for name, ts in (p.timings or {}).items():
            per.setdefault(name, []).extend(ts)
        for name in p.statistics:
            fired.setdefault(name, []).append(k)
        if out:
            (out / f"{k:04d}.json").write_text(json.dumps(p.to_json()))
    print(f"puzzles {len(times)}: step loop wall {sum(times):.1f} s, p90 {pct(times, .9) * 1e3:.0f} ms, "
          f"max {max(times) * 1e3:.0f} ms; CPU {sum(cpu):.1f} s, p90 {pct(cpu, .9) * 1e3:.0f} ms, "
          f"max {max(cpu) * 1e3:.0f} ms")
    print("difficulty:", {d: counts[d] for d in ("easy", "medium", "difficult")}, "seed (whole set):", SEED)
    print("per-finder times:", "wall clock" if args.wall else "CPU time of this process")
    print(f"{'finder':18s} {'calls':>7s} {'median':>9s} {'p90':>9s} {'total':>8s}")
    for name, ts in per.items():
        print(f"{name:18s} {len(ts):7d} {pct(ts, .5) * 1e3:7.2f}ms {pct(ts, .9) * 1e3:7.2f}ms {sum(ts):7.1f}s")
    for name, ks in fired.items():
        print(f"  {name}: {len(ks)} puzzles, first lines {ks[:8]}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
