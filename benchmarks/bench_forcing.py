"""Forcing chains on the hard collections: brutal count, forcing steps per kind and
level, per-puzzle times, peak memory.

    python benchmarks/bench_forcing.py [top1465 hardest300 se_rated] [--limit N] [--every K]
                                       [--verify] [--no-brutal]

For each collection (../shared/data/NAME.txt, first token of each line):
puzzles, brutal steps (and puzzles with one), trial and forcing steps per
kind/level/dynamic, per-puzzle seconds (median, p90, max; wall and CPU, since the machine may be
shared), total seconds,
the highest forcing rating, and the process's peak RSS. With --verify the
steps documents (written as JSON lines to a temporary file, not kept in
memory) are checked by ../shared/tools/verify_steps.py, which replays every
proof.
"""
from __future__ import annotations

import argparse
import json
import resource
import subprocess
import sys
import tempfile
import time
from collections import Counter
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))
from explainer import Puzzle  # noqa: E402
from explainer.app.bank.db import percentile as pct  # noqa: E402

DATA = ROOT.parent / "shared" / "data"
VERIFY = ROOT.parent / "shared" / "tools" / "verify_steps.py"


def puzzles(name: str) -> list[str]:
    """A shared collection by name (first token of each line: se_rated has a rating
    after the puzzle), or any puzzle file by path (explainer.model.grid.read_sources)."""
    if Path(name).exists():
        from explainer.model.grid import read_sources

        return [src.text for src in read_sources(name)]
    path = DATA / f"{name}.txt"
    return [line.split()[0] for line in path.read_text().splitlines() if line.strip()]


def rss_mb() -> float:
    return resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024


def run(name: str, args: argparse.Namespace) -> bool:
    lines = puzzles(name)[:: args.every][: args.limit]
    times: list[float] = []
    cpu: list[float] = []
    kinds: Counter[str] = Counter()
    stats: Counter[str] = Counter()
    brutal_puzzles = 0
    top = 0.0
    ers: list[float] = []
    out = tempfile.NamedTemporaryFile("w", suffix=".jsonl", delete=False) if args.verify else None
    start, cstart = time.perf_counter(), time.process_time()
    for text in lines:
        t0, c0 = time.perf_counter(), time.process_time()
        p = Puzzle(text, brutal=not args.no_brutal)
        steps = p.steps
        times.append(time.perf_counter() - t0)
        cpu.append(time.process_time() - c0)
        stats.update(p.statistics)
        brutal_puzzles += bool(p.statistics.get("brutal"))
        for s, rating in zip(steps, p.step_ratings, strict=True):
            if s.technique == "forcing chain":
                kinds[f"{s.get('kind')} L{s.get('level')}{' dyn' if s.get('dynamic') else ''}"] += 1
                top = max(top, rating)
        ers.append(p.rating.er)
        if out is not None:
            # the checker applies wave 1's difficulty rule, replaced by ER bands in wave 3: without the
            # field it skips that one check
            out.write(json.dumps({k: v for k, v in p.to_json().items() if k != "difficulty"}) + "\n")
    total, ctotal = time.perf_counter() - start, time.process_time() - cstart
    print(f"== {name}: {len(lines)} puzzles, {total:.1f} s wall, {ctotal:.1f} s CPU")
    print(f"   brutal: {stats['brutal']} steps in {brutal_puzzles} puzzles;"
          f" trial {stats['trial']}, trial lucky {stats['trial lucky']}, forcing chain {stats['forcing chain']}")
    print("   forcing kinds: " + ", ".join(f"{k} {v}" for k, v in sorted(kinds.items())))
    for label, ts in (("wall", times), ("CPU", cpu)):
        print(f"   per puzzle ({label}): median {pct(ts, 0.5):.3f} s, p90 {pct(ts, 0.9):.3f} s,"
              f" max {max(ts):.3f} s")
    print(f"   highest forcing rating {top}; ER median {pct(ers, 0.5):.1f}, max {max(ers):.1f}")
    print(f"   peak RSS so far: {rss_mb():.0f} MB")
    ok = True
    if out is not None:
        out.close()
        r = subprocess.run([sys.executable, str(VERIFY), "--quiet", out.name], capture_output=True, text=True)
        print("   verify: " + r.stdout.strip().splitlines()[-1])
        ok = r.returncode == 0
        if not ok:
            subprocess.run([sys.executable, str(VERIFY), out.name])
        Path(out.name).unlink()
    sys.stdout.flush()
    return ok


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("collections", nargs="*", default=["top1465", "hardest300", "se_rated"])
    ap.add_argument("--limit", type=int, default=None)
    ap.add_argument("--every", type=int, default=1, metavar="K", help="every K-th puzzle only")
    ap.add_argument("--verify", action="store_true")
    ap.add_argument("--no-brutal", action="store_true", help="drop brutal (unfinished grids are counted)")
    args = ap.parse_args()
    ok = all([run(name, args) for name in args.collections])
    return 0 if ok else 1


if __name__ == "__main__":
    sys.exit(main())
