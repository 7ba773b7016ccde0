"""Facts per forcing step: how long the proofs a student must follow are.

Explains puzzles of a collection and prints, for every ``forcing chain`` (and
``trial``) step, the facts its proof holds (all branches, nested proofs counted
once more for each fact they hold), one JSON line per step, then the median,
90th percentile and maximum per step name::

    python benchmarks/proof_sizes.py ../shared/data/hardest300.txt 1-300 --jobs 2

Run it on two trees (``PYTHONPATH=OTHER_TREE``) to compare their proofs, or with
``--as-recorded`` to see the proofs as the propagation recorded them, each fact justified
by the first rule that set it, before ``implication.shortest`` picks the justifications
that keep them small (the "before" of issue 23)::

    python benchmarks/proof_sizes.py ../shared/data/hardest300.txt 1-300 --jobs 2 --as-recorded
"""
from __future__ import annotations

import argparse
import json
import statistics
import sys
import time
from concurrent.futures import ProcessPoolExecutor


def as_recorded(tr, roots, rounds=4):  # noqa: ARG001 (implication.shortest's signature)
    """Each fact's justification as the run recorded it."""
    return {i: (f[3], f[4]) for i, f in enumerate(tr.facts)}


def one(item: tuple[int, str, str, bool]) -> list[dict]:
    from explainer import Puzzle
    from explainer.model.rating import chain_nodes

    k, line, order, recorded = item
    if recorded:
        from techniques import implication

        implication.shortest = as_recorded
    start = time.time()
    kw = {"order": order} if order else {}
    p = Puzzle(line, **kw)
    out = []
    for i, s in enumerate(p.steps):
        if s.proof is not None and s.technique in ("forcing chain", "trial", "trial lucky"):
            out.append({"line": k, "step": i + 1, "technique": s.technique, "top": s.proof.size,
                        "own": sum(len(b.facts) for b in s.proof.branches),
                        "facts": chain_nodes(s.proof), "level": s.proof.level, "kind": s.proof.kind,
                        "seconds": round(time.time() - start, 1)})
    return out


def percentile(xs: list[int], q: float) -> float:
    xs = sorted(xs)
    return xs[min(len(xs) - 1, int(round(q * (len(xs) - 1))))]


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("path")
    ap.add_argument("lines", help="1-based range, e.g. 1-300")
    ap.add_argument("--jobs", type=int, default=1)
    ap.add_argument("--order", default="", help="the engine's order (when the tree has the option)")
    ap.add_argument("--as-recorded", action="store_true",
                    help="proofs as the propagation recorded them, not minimised (before issue 23)")
    a = ap.parse_args()
    lo, hi = (int(x) for x in a.lines.split("-"))
    lines = [x.split()[0] for x in open(a.path) if x.strip() and not x.startswith("#")]
    items = [(k, lines[k - 1], a.order, a.as_recorded) for k in range(lo, hi + 1)]
    rows: list[dict] = []
    with ProcessPoolExecutor(a.jobs) as ex:
        for out in ex.map(one, items):
            for r in out:
                print(json.dumps(r), flush=True)
            rows += out
    for name in sorted({r["technique"] for r in rows}):
        for key, what in (("own", "own branches"), ("facts", "with nested proofs")):
            xs = [r[key] for r in rows if r["technique"] == name]
            print(f"# {name}, {what}: {len(xs)} steps, facts median {statistics.median(xs)}, "
                  f"p90 {percentile(xs, 0.9)}, max {max(xs)}", file=sys.stderr)


if __name__ == "__main__":
    main()
