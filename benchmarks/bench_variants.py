"""Simplest-first step loop with issue #25's finders against an older tree's (same process, A/B).

    python benchmarks/bench_variants.py --against DIR [FILE] [--every K] [--limit N]

DIR is a checkout of the tree to compare with (e.g. ``git worktree add ../old main``).
Its ``techniques/uniqueness.py`` and ``techniques/suedecoq.py`` are loaded beside
this tree's, and the registry is built twice: as it is, and with the unique
rectangle and Sue de Coq records using the older finders (every other record is
shared). Each sampled puzzle is explained once with each registry on the
simplest-first path (``order="simplest"``, ``profile=True``), the order alternating
from puzzle to puzzle so that a busy neighbour slows both alike; the solution is
computed outside the timed part. Reported: the step loop's CPU time
(``time.process_time``) in all and per puzzle (median ratio), the CPU time
inside the two finders, and the puzzles whose explanation changed.
"""
from __future__ import annotations

import argparse
import dataclasses
import importlib.util
import statistics
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))
import techniques as registry  # noqa: E402
from explainer import engine  # noqa: E402

CHANGED = {"unique rectangle": ("uniqueness", "find_unique_rectangle"),
           "suedecoq": ("suedecoq", "find_suedecoq")}


def _older(folder: Path, module: str):
    """The older tree's technique module, loaded as a sibling of this tree's (its relative
    imports resolve to this tree's helpers)."""
    name = f"techniques._older_{module}"
    spec = importlib.util.spec_from_file_location(name, folder / "techniques" / f"{module}.py")
    assert spec is not None and spec.loader is not None
    mod = importlib.util.module_from_spec(spec)
    sys.modules[name] = mod
    spec.loader.exec_module(mod)
    return mod


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("file", nargs="?", default=str(ROOT.parent / "shared" / "data" / "top1465.txt"))
    ap.add_argument("--against", required=True, type=Path, help="a checkout of the older tree")
    ap.add_argument("--every", type=int, default=7, metavar="K", help="every K-th puzzle (default 7)")
    ap.add_argument("--limit", type=int, default=None)
    args = ap.parse_args()
    new = list(registry.REGISTRY)
    old = [dataclasses.replace(t, find=getattr(_older(args.against, CHANGED[t.name][0]), CHANGED[t.name][1]))
           if t.name in CHANGED else t for t in new]
    puzzles = [ln.split()[0] for ln in Path(args.file).read_text().splitlines() if ln.strip()][::args.every]
    puzzles = puzzles[:args.limit] if args.limit else puzzles
    cpu = {"new": [], "old": []}
    inside = {("new", n): 0.0 for n in CHANGED} | {("old", n): 0.0 for n in CHANGED}
    changed = 0
    for k, text in enumerate(puzzles):
        found = {}
        for side in (("new", "old") if k % 2 == 0 else ("old", "new")):
            p = engine.Puzzle(text, new if side == "new" else old, order="simplest", profile=True)
            p.solution  # outside the timed part
            t0 = time.process_time()
            steps = p.steps
            cpu[side].append(time.process_time() - t0)
            found[side] = [(s.technique, s.place, s.eliminate) for s in steps]
            for name in CHANGED:
                inside[(side, name)] += sum((p.timings or {}).get(name, ()))
        changed += found["new"] != found["old"]
    ratios = [a / b for a, b in zip(cpu["new"], cpu["old"], strict=True) if b]
    print(f"{len(puzzles)} puzzles of {args.file} (every {args.every}th), simplest-first path")
    print(f"step loop CPU: this tree {sum(cpu['new']):.1f} s, older {sum(cpu['old']):.1f} s "
          f"({sum(cpu['new']) / sum(cpu['old']) - 1:+.1%}); median per-puzzle ratio {statistics.median(ratios):.3f}")
    for name in CHANGED:
        print(f"  inside {name:<17} this tree {inside[('new', name)]:.2f} s, older {inside[('old', name)]:.2f} s "
              "(wall time of its calls)")
    print(f"explanations changed: {changed} of {len(puzzles)}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
