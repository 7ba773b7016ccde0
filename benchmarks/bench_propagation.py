"""Per-finder CPU time of two engines in one run, puzzle by puzzle, taking turns.

    python benchmarks/bench_propagation.py [COLLECTION|FILE] [--every K] [--start I] [--limit N]
                                           [--order simplest|seed] [--before DIR | --pure]

Two worker processes explain the same puzzles: this tree (compiled core) and either
another source tree (``--before DIR``: a checkout of an older commit, e.g.
``git worktree add /tmp/before <commit>``) or this tree on its pure-Python path
(``--pure``: ``SUDOKU_EXPLAINER_PURE=1``). Each puzzle goes to both, the order
alternating from puzzle to puzzle, so a neighbour slowing the machine slows both
alike. Each worker times every finder the engine asks (CPU seconds of the worker:
the engine's profile with ``time.process_time`` as its clock) and the whole puzzle
(solution and uniqueness proof included); the steps JSON of both is compared (they
must be identical between the compiled and the pure path).

COLLECTION is a name in ../shared/data (first token of each line) or a puzzle file
(``#`` lines skipped). ``--order simplest`` is the simplest-first path.
"""
from __future__ import annotations

import argparse
import json
import os
import subprocess
import sys
from collections import defaultdict
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
DATA = ROOT.parent / "shared" / "data"

WORKER = r"""
import json, sys, time, types
from explainer import Puzzle
import explainer.engine as engine
engine.time = types.SimpleNamespace(perf_counter=time.process_time)  # the profile in CPU seconds
for line in sys.stdin:
    text, order = json.loads(line)
    t = time.process_time()
    p = Puzzle(text, order=order, profile=True)
    doc = p.to_json()
    total = time.process_time() - t
    finders = {k: [sum(v), len(v)] for k, v in p.timings.items()}
    print(json.dumps({"total": total, "finders": finders, "steps": len(doc["steps"]),
                      "doc": json.dumps(doc, sort_keys=True)}), flush=True)
"""


def puzzles(name: str) -> list[str]:
    path = Path(name) if Path(name).exists() else DATA / f"{name}.txt"
    return [r.split()[0] for r in path.read_text().splitlines() if r.strip() and not r.startswith("#")]


class Worker:
    def __init__(self, tree: Path, pure: bool) -> None:
        env = dict(os.environ, PYTHONPATH=str(tree))
        env.pop("SUDOKU_EXPLAINER_PURE", None)
        if pure:
            env["SUDOKU_EXPLAINER_PURE"] = "1"
        self.proc = subprocess.Popen([sys.executable, "-c", WORKER], cwd=tree, env=env, text=True,
                                     stdin=subprocess.PIPE, stdout=subprocess.PIPE)

    def explain(self, text: str, order: str) -> dict:
        assert self.proc.stdin is not None and self.proc.stdout is not None
        self.proc.stdin.write(json.dumps([text, order]) + "\n")
        self.proc.stdin.flush()
        return json.loads(self.proc.stdout.readline())

    def close(self) -> None:
        assert self.proc.stdin is not None
        self.proc.stdin.close()
        self.proc.wait()


def pct(xs: list[float], q: float) -> float:
    s = sorted(xs)
    return s[min(len(s) - 1, int(q * len(s)))]


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("collection", nargs="?", default="top1465")
    ap.add_argument("--every", type=int, default=1)
    ap.add_argument("--start", type=int, default=0, help="0-based index of the first puzzle taken")
    ap.add_argument("--limit", type=int, default=None)
    ap.add_argument("--order", choices=("simplest", "seed"), default="simplest")
    other = ap.add_mutually_exclusive_group(required=True)
    other.add_argument("--before", type=Path, metavar="DIR", help="the other engine's source tree")
    other.add_argument("--pure", action="store_true", help="the other engine: this tree, pure-Python path")
    ap.add_argument("--top", type=int, default=12, help="finders shown")
    args = ap.parse_args()
    sample = puzzles(args.collection)[args.start::args.every][:args.limit]
    names = ("after", "before") if args.before else ("compiled", "pure")
    workers = {names[0]: Worker(ROOT, False), names[1]: Worker(args.before or ROOT, args.pure)}
    totals: dict[str, list[float]] = defaultdict(list)
    finders: dict[str, dict[str, list[float]]] = {k: defaultdict(lambda: [0.0, 0]) for k in names}
    differ = 0
    for i, text in enumerate(sample):
        docs = {}
        for name in (names if i % 2 == 0 else names[::-1]):
            out = workers[name].explain(text, args.order)
            totals[name].append(out["total"])
            docs[name] = out["doc"]
            for f, (sec, calls) in out["finders"].items():
                finders[name][f][0] += sec
                finders[name][f][1] += calls
        differ += docs[names[0]] != docs[names[1]]
    for w in workers.values():
        w.close()
    a, b = names
    print(f"{args.collection} every {args.every} from {args.start}, {len(sample)} puzzles, order {args.order}; "
          f"CPU seconds per worker, alternating")
    for name in names:
        ts = totals[name]
        print(f"  {name:9s} total {sum(ts):7.2f} s   per puzzle median {pct(ts, 0.5):.3f}  p90 {pct(ts, 0.9):.3f}"
              f"  max {max(ts):.3f}")
    print(f"  steps JSON: {len(sample) - differ} identical, {differ} different")
    print(f"  {'finder':22s} {a + ' s':>10s} {'calls':>7s} {b + ' s':>10s} {'calls':>7s} {'ratio':>6s}")
    order = sorted(set(finders[a]) | set(finders[b]), key=lambda f: -finders[b][f][0])
    for f in order[:args.top]:
        (sa, ca), (sb, cb) = finders[a][f], finders[b][f]
        print(f"  {f:22s} {sa:10.2f} {ca:7d} {sb:10.2f} {cb:7d} {sb / sa if sa else float('inf'):6.1f}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
