"""The two orders side by side on the shared collections: guesses, named shapes, length, time.

    python benchmarks/bench_orders.py [top1465 se_rated hardest300] [--orders simplest,seed]
                                      [--limit N] [--every K] [--save DIR] [--verify] [--trial-check]

Each puzzle is explained on every order asked for, the orders taking turns puzzle by puzzle
(so a neighbour's burst on this shared machine lands on both), in one process. Per collection
and order it prints: CPU time (total, per puzzle median and p90); steps per puzzle (median,
p90); the steps that guess or read the solution (trial lucky, brutal) and trial, as steps and
puzzles; the difficulty classes (ER bands); how many puzzles use each named shape (the
chain shapes, each wing, each uniqueness type); and, for a file with SE's ratings (se_rated),
Spearman's ρ between ER and SE's rating and the share within ±0.3 (as bench_rating.py).

``--trial-check`` (simplest order): at every trial step, runs the forcing search on the same
position, every pass, and counts the trial steps for which it finds a forcing chain rated the
same or lower. ``--save DIR`` writes the steps-JSON documents (DIR/NAME.ORDER.jsonl);
``--verify`` checks them with ../shared/tools/verify_steps.py (replaying every step and proof)
and checks each document's difficulty against its ER band. The checker still applies wave 1's
difficulty rule (by the steps used: trial, brutal), which wave 3 replaced by ER bands
(TECHNIQUES.md), so the documents it reads are written without their ``difficulty`` field,
which makes it skip that one check; everything else it checks as usual.
"""
from __future__ import annotations

import argparse
import json
import statistics
import subprocess
import sys
import tempfile
import time
from collections import Counter
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))
from explainer import Puzzle  # noqa: E402
from explainer.app.bank.db import percentile as pct  # noqa: E402
from explainer.engine.orders import ORDERS  # noqa: E402
from explainer.model.rating import difficulty  # noqa: E402
from explainer.model.technique import Bound, Context  # noqa: E402

DATA = ROOT.parent / "shared" / "data"
VERIFY = ROOT.parent / "shared" / "tools" / "verify_steps.py"

CHAIN_SHAPES = ("skyscraper", "2-string kite", "turbot fish", "empty rectangle", "x chain", "xy chain",
                "remote pair")
WINGS = ("y wing", "ny wing", "w wing", "xy wing", "xyz wing", "wxyz wing", "als xy wing")
TYPED = ("unique rectangle", "unique loop", "bug")  # named by their detail "type"


def puzzles(name: str) -> list[tuple[str, float | None]]:
    """A shared collection by name (first token of each line, then SE's rating when the line has
    one: se_rated), or a file of puzzles by path."""
    if Path(name).exists():
        from explainer.model.grid import read_sources

        return [(src.text, None) for src in read_sources(name)]
    path = DATA / f"{name}.txt"
    rows = [line.split() for line in path.read_text().splitlines() if line.strip()]
    return [(r[0], float(r[1]) if len(r) > 1 else None) for r in rows]


def shapes(p: Any) -> set[str]:
    """The named shapes a puzzle's explanation uses (uniqueness steps by type)."""
    out = set()
    for s in p.steps:
        if s.technique in TYPED:
            out.add(f"{s.technique} type {s.get('type')}")
        elif s.technique in CHAIN_SHAPES or s.technique in WINGS or s.technique == "bug+1":
            out.add(s.technique)
    return out


def forcing_at_or_below(p: Any, k: int, rated: float) -> bool:
    """True if the forcing search, every pass, finds a step rated ``rated`` or less where step k is."""
    import techniques

    state = p.state_before(k)
    t = techniques.lookup("forcing chain")
    earlier = tuple(x for x in p.techniques if x is not t and not x.reads_solution)
    kind = t.kinds[0]
    return any(kind.rate(s) <= rated for s in t.find(state, Context(None, earlier, bound=Bound())))


class Tally:
    def __init__(self) -> None:
        self.cpu: list[float] = []
        self.steps: list[int] = []
        self.step_counts: Counter[str] = Counter()
        self.puzzle_counts: Counter[str] = Counter()
        self.shapes: Counter[str] = Counter()
        self.classes: Counter[str] = Counter()
        self.trial_beaten = 0
        self.incomplete = 0
        self.er_se: list[tuple[float, float]] = []  # (our ER, SE's rating) where the file has it

    def add(self, p: Any, cpu: float, trial_check: bool, se: float | None = None) -> None:
        self.cpu.append(cpu)
        if se is not None:
            self.er_se.append((p.rating.er, se))
        self.steps.append(len(p.steps))
        for name in ("trial lucky", "brutal", "trial", "forcing chain"):
            n = p.statistics.get(name, 0)
            self.step_counts[name] += n
            self.puzzle_counts[name] += bool(n)
        self.shapes.update(shapes(p))
        self.classes[p.difficulty] += 1
        self.incomplete += not p.complete
        if trial_check:
            for k, (s, r) in enumerate(zip(p.steps, p.step_ratings, strict=True)):
                if s.technique == "trial" and forcing_at_or_below(p, k, r):
                    self.trial_beaten += 1

    def report(self, name: str, order: str, trial_check: bool) -> list[str]:
        n = len(self.cpu)
        lines = [f"== {name}, {order} order: {n} puzzles, CPU {sum(self.cpu):.1f} s "
                 f"(per puzzle median {statistics.median(self.cpu):.3f} s, p90 {pct(self.cpu, 0.9):.3f} s, "
                 f"max {max(self.cpu):.2f} s)",
                 f"   steps per puzzle: median {statistics.median(self.steps):.0f}, p90 {pct(self.steps, 0.9):.0f}, "
                 f"total {sum(self.steps)}; incomplete {self.incomplete}",
                 "   " + "; ".join(f"{k}: {self.step_counts[k]} steps in {self.puzzle_counts[k]} puzzles"
                               for k in ("trial lucky", "brutal", "trial", "forcing chain"))]
        if trial_check:
            lines.append(f"   trial steps where the forcing search has a chain rated the same or lower: "
                         f"{self.trial_beaten} of {self.step_counts['trial']}")
        lines.append("   difficulty: " + ", ".join(f"{c} {self.classes[c]}" for c in ("easy", "medium", "difficult")))
        if self.er_se:
            from bench_rating import spearman

            er, se = [a for a, _ in self.er_se], [b for _, b in self.er_se]
            close = sum(abs(a - b) <= 0.3 + 1e-9 for a, b in self.er_se)
            lines.append(f"   ER against SE's rating: Spearman {spearman(er, se):.3f}, within ±0.3 "
                         f"{close / len(er):.1%}, mean |ER − SE| "
                         f"{statistics.fmean(abs(a - b) for a, b in self.er_se):.2f}")
        lines.append("   puzzles using each named shape: " + ", ".join(
            f"{k} {v}" for k, v in sorted(self.shapes.items(), key=lambda kv: (-kv[1], kv[0]))))
        return lines


def verify(path: Path) -> tuple[bool, str]:
    """The checker on a saved file (its documents without ``difficulty``), and each document's
    difficulty against its ER band."""
    bad_class = 0
    with tempfile.NamedTemporaryFile("w", suffix=".jsonl", delete=False) as tmp:
        for line in path.read_text(encoding="utf-8").splitlines():
            doc = json.loads(line)
            bad_class += doc["difficulty"] != difficulty(doc["rating"]["er"])
            tmp.write(json.dumps({k: v for k, v in doc.items() if k != "difficulty"}) + "\n")
    res = subprocess.run([sys.executable, str(VERIFY), tmp.name, "--quiet"], capture_output=True, text=True)
    Path(tmp.name).unlink()
    summary = (res.stdout.strip().splitlines() or ["(no output)"])[-1]
    return res.returncode == 0 and not bad_class, f"{summary}; difficulty not its ER band: {bad_class}"


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("collections", nargs="*", default=["top1465", "se_rated", "hardest300"])
    ap.add_argument("--orders", default="simplest,seed", help="comma-separated orders, taking turns")
    ap.add_argument("--limit", type=int, default=None)
    ap.add_argument("--every", type=int, default=1, metavar="K")
    ap.add_argument("--save", type=Path, default=None, metavar="DIR", help="write the documents here")
    ap.add_argument("--verify", action="store_true", help="check the saved documents (needs --save)")
    ap.add_argument("--trial-check", action="store_true", help="is a forcing chain as cheap as each trial?")
    args = ap.parse_args()
    orders = [o.strip() for o in args.orders.split(",") if o.strip()]
    if any(o not in ORDERS for o in orders) or (args.verify and args.save is None):
        ap.error(f"orders are {', '.join(ORDERS)}; --verify needs --save")
    ok = True
    for name in args.collections:
        lines = puzzles(name)[:: args.every][: args.limit]
        tallies = {o: Tally() for o in orders}
        files = {}
        if args.save:
            args.save.mkdir(parents=True, exist_ok=True)
            files = {o: (args.save / f"{Path(name).stem}.{o}.jsonl").open("w", encoding="utf-8") for o in orders}
        for i, (text, se) in enumerate(lines):
            turn = orders[i % len(orders):] + orders[: i % len(orders)]  # who goes first alternates
            for order in turn:
                c0 = time.process_time()
                p = Puzzle(text, order=order)
                p.steps
                cpu = time.process_time() - c0
                tallies[order].add(p, cpu, args.trial_check and order == "simplest", se)
                if files:
                    files[order].write(json.dumps(p.to_json()) + "\n")
        for f in files.values():
            f.close()
        for order in orders:
            print("\n".join(tallies[order].report(name, order, args.trial_check and order == "simplest")))
            if args.verify:
                good, line = verify(args.save / f"{Path(name).stem}.{order}.jsonl")
                ok &= good
                print(f"   checker: {line}")
        if len(orders) == 2:
            a, b = (sum(tallies[o].cpu) for o in orders)
            print(f"   CPU {orders[0]} / {orders[1]}: {a / b:.2f}")
        sys.stdout.flush()
    return 0 if ok else 1


if __name__ == "__main__":
    sys.exit(main())
