"""CPU of Sudoku Explainer's chaining producers (``explainer.core.sechain``), compiled and pure.

SE asks its chaining producers, in its order, for a hint at every step no simpler
technique solves; the first producer with one gives the step. This benchmark
times that on chain states: by default the states before the steps rated 6.5 or
more of the default explanation of top1465 every 10th (147 puzzles), or the state
lines of ``--states`` (the format of tests/data/se_chains.txt, e.g. the states SE
itself reached). For each state it asks producers 0 (forcing chains and cycles)
to 4 (dynamic plus) in SE's order until one has a hint ("SE's order"), and each
of them alone ("every producer"); the pure twin on every ``--pure-every``-th
state, so the ratio compiled / pure is measured on the same states.

    python benchmarks/bench_se_chains.py [--puzzles FILE] [--every 10] [--states FILE] [--pure-every 25]
"""
from __future__ import annotations

import argparse
import sys
import time
from collections import Counter
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from compare_se_chains import read  # noqa: E402

from explainer.core import sechain  # noqa: E402

TOP1465 = ROOT.parent / "shared" / "data" / "top1465.txt"
PRODUCERS = (sechain.FORCING, sechain.NISHIO, sechain.MULTIPLE, sechain.DYNAMIC, sechain.DYNAMIC_PLUS)

State = tuple[tuple[int, ...], tuple[int, ...]]


def chain_states(puzzles: list[str]) -> list[State]:
    """The states before the default explanation's steps rated 6.5 or more."""
    from explainer.api import Puzzle

    out = []
    for text in puzzles:
        p = Puzzle(text)
        for step, r in zip(p.steps, p.step_ratings, strict=True):
            if r >= 6.5 and step.before is not None:
                out.append((tuple(step.before.values), tuple(step.before.cand)))
    return out


def run(states: list[State], pure: bool) -> tuple[Counter[int], Counter[int], Counter[int]]:
    """CPU per producer in SE's order (first with a hint), per producer alone, and hints found."""
    find = sechain.first_hint_py if pure else sechain.first_hint
    first: Counter[int] = Counter()
    alone: Counter[int] = Counter()
    found: Counter[int] = Counter()
    for values, cand in states:
        n = int(round(len(values) ** 0.5))
        done = False
        for p in PRODUCERS:
            t = time.process_time()
            h = find(n, list(values), list(cand), p)
            dt = time.process_time() - t
            alone[p] += dt
            if not done:
                first[p] += dt
                if h is not None:
                    found[p] += 1
                    done = True
    return first, alone, found


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--puzzles", type=Path, default=TOP1465, help="puzzles to explain (default top1465)")
    ap.add_argument("--every", type=int, default=10, help="every K-th puzzle (default 10)")
    ap.add_argument("--states", type=Path, help="state lines instead (tests/data/se_chains.txt's format)")
    ap.add_argument("--pure-every", type=int, default=25, help="the pure twin on every K-th state (0: never)")
    args = ap.parse_args(argv)
    t = time.process_time()
    if args.states:
        states = [(c.values, c.cand) for c in read([args.states])]
        where = str(args.states)
    else:
        lines = [x.split()[0] for x in args.puzzles.read_text().splitlines() if x.strip() and not x.startswith("#")]
        puzzles = lines[::args.every]
        states = chain_states(puzzles)
        where = f"{len(puzzles)} puzzles of {args.puzzles.name}, the states before their steps rated 6.5+"
    print(f"{len(states)} chain states ({where}; {time.process_time() - t:.1f} s to get them)")
    if sechain._C is None:
        print("the compiled engine is not built (or the pure path is forced): pure twin only")
    else:
        first, alone, found = run(states, pure=False)
        print(f"compiled, SE's order: {sum(first.values()):.2f} s CPU "
              + ", ".join(f"P{p} {first[p]:.2f} s ({found[p]} hints)" for p in PRODUCERS))
        print(f"compiled, every producer: {sum(alone.values()):.2f} s CPU "
              + ", ".join(f"P{p} {alone[p]:.2f} s" for p in PRODUCERS))
    if args.pure_every:
        part = states[::args.pure_every]
        pfirst, palone, _ = run(part, pure=True)
        line = f"pure, every producer on {len(part)} states: {sum(palone.values()):.2f} s CPU"
        if sechain._C is not None:
            _, calone, _ = run(part, pure=False)
            line += f" (compiled {sum(calone.values()):.3f} s: {sum(palone.values()) / sum(calone.values()):.0f}x)"
        print(line)
    return 0


if __name__ == "__main__":
    sys.exit(main())
