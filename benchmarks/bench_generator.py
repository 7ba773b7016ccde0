"""Puzzles per minute for each size and difficulty target (issue 7).

    python benchmarks/bench_generator.py [--quick] [--seed 1]

Untargeted generation is timed for 4×4, 9×9, 16×16 and 25×25; the
difficulty targets (easy / medium / difficult, checked by the engine) for
9×9 (medium and difficult by the hardening local search) and medium for
4×4 (drawn puzzles, no hardening), only when explainer/engine/loop.py exists. Counts are small so the
whole run stays within a few minutes; --quick makes them smaller still.
A target not met within --max-tries is reported as such, not as a rate.
"""
from __future__ import annotations

import argparse
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from explainer.app.generate.generator import DIFFICULTIES, GenerationFailed, engine_goal, engine_target, generate_many  # noqa: E402

COUNTS = {4: 20, 9: 10, 16: 3, 25: 1}
QUICK = {4: 5, 9: 3, 16: 1, 25: 1}


def rate(n: int, count: int, seed: int, **options) -> tuple[str, float]:
    """(puzzles per minute as text, seconds) for ``count`` puzzles."""
    start = time.perf_counter()
    try:
        for _ in generate_many(n, count, seed, **options):
            pass
    except GenerationFailed as failure:
        return f"target not met ({failure.tries} tries)", time.perf_counter() - start
    seconds = time.perf_counter() - start
    return f"{count / seconds * 60:.1f}", seconds


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--quick", action="store_true", help="fewer puzzles per row")
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--max-tries", type=int, default=2000, help="tries per puzzle for a difficulty target")
    parser.add_argument("--sizes", type=int, nargs="+", default=[4, 9, 16, 25])
    args = parser.parse_args(argv)
    counts = QUICK if args.quick else COUNTS
    engine = (Path(__file__).resolve().parents[1] / "explainer" / "engine" / "loop.py").exists()
    print("| size | target | puzzles | seconds | puzzles per minute |")
    print("| ---: | --- | ---: | ---: | ---: |")
    for n in args.sizes:
        text, seconds = rate(n, counts[n], args.seed)
        print(f"| {n} | any | {counts[n]} | {seconds:.2f} | {text} |", flush=True)
    if engine:
        rows = [(9, level) for level in DIFFICULTIES] + ([(4, "medium")] if 4 in args.sizes else [])
        for n, level in rows:
            count = max(1, counts[9] // 3) if n == 9 else counts[4]
            goal = engine_goal(level)
            text, seconds = rate(n, count, args.seed, accept=engine_target(level) if goal is None else None,
                                 goal=goal, max_tries=args.max_tries, target=f"difficulty {level}")
            print(f"| {n} | {level} | {count} | {seconds:.2f} | {text} |", flush=True)
    else:
        print("(difficulty targets skipped: explainer/engine/loop.py is not there yet)")
    return 0


if __name__ == "__main__":
    sys.exit(main())
