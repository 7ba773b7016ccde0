"""Sudoku Explainer's own numbers: how often ``explainer.rate`` prints SE's ER/EP/ED, and at what cost.

    python benchmarks/bench_se.py [REFERENCE.tsv] [--classic] [--every K] [--limit N] [--show N]
                                  [--against-default [TREE]] [--rounds R] [--verify N]

REFERENCE holds one ``puzzle<TAB>ER<TAB>EP<TAB>ED`` line per puzzle as SE's own
``serate`` printed it (default: benchmarks/data/se_rated.sukaku.tsv, Sukaku
Explainer 1.15.10's ratings of ../shared/data/se_rated.txt; benchmarks/data/README.md
says which SE produced each file and how). Every K-th puzzle (``--every``, from
the first) is rated with ``explainer.rate`` (``--classic``: the se-classic order,
SE 1.2.1.3, to compare with the classic files) and the script prints:

- ER exact, within ±0.3, Spearman's ρ, and EP, ED and all three exact;
- per SE band (the integer part of SE's ER) exact / within ±0.3;
- the CPU (process time) of the rating, per puzzle;
- ``--show N``: the first N puzzles where ER, EP or ED differ (SE's numbers, ours);
- ``--against-default``: the CPU of the default explanation of the same puzzles
  (``Puzzle(text).steps``, the simplest order), the two alternated puzzle by puzzle
  in one process, and the ratio rate / default; ``--against-default TREE``: the
  default explanation of another checkout TREE (its own ``TREE/.venv``, e.g. an
  older commit) instead, each side a whole-set child process, the two run in
  turn ``--rounds`` times (CPU = user + sys of the child, ``getrusage``; the
  best round of each side is kept);
- ``--verify N``: the se order's full explanations (proofs, texts) of the first N
  puzzles of the sample as steps-JSON documents, replayed by the independent
  checker (../shared/tools/verify_steps.py; its summary line).
"""
from __future__ import annotations

import argparse
import json
import os
import resource
import subprocess
import sys
import tempfile
import time
from collections import defaultdict
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))
sys.path.insert(0, str(ROOT / "benchmarks"))

from bench_rating import spearman  # noqa: E402

import explainer  # noqa: E402
from explainer import Puzzle, PuzzleError  # noqa: E402

DATA = ROOT / "benchmarks" / "data"
VERIFY = ROOT.parent / "shared" / "tools" / "verify_steps.py"

Numbers = tuple[float, float, float]


def read(path: Path) -> list[tuple[str, Numbers]]:
    """(puzzle, (ER, EP, ED)) of a serate TSV."""
    out = []
    for line in path.read_text(encoding="utf-8").splitlines():
        parts = line.split()
        if len(parts) >= 4 and not line.startswith("#"):
            out.append((parts[0], (float(parts[1]), float(parts[2]), float(parts[3]))))
    return out


def rate_all(rows: list[tuple[str, Numbers]], classic: bool,
             against_default: bool) -> tuple[list[Numbers | None], float, float]:
    """Our numbers (None for a puzzle we refuse) and the CPU of rate and of the default path."""
    ours: list[Numbers | None] = []
    cpu_rate = cpu_default = 0.0
    for text, _ in rows:
        t = time.process_time()
        try:
            r = explainer.rate(text, classic=classic)
            ours.append((r.er, r.ep, r.ed))
        except PuzzleError:
            ours.append(None)
        cpu_rate += time.process_time() - t
        if against_default:
            t = time.process_time()
            Puzzle(text).steps
            cpu_default += time.process_time() - t
    return ours, cpu_rate, cpu_default


CHILD = """
import sys
import explainer
from explainer import Puzzle, PuzzleError
mode = sys.argv[1]
for text in sys.stdin.read().split():
    try:
        if mode == "rate":
            explainer.rate(text, classic=(sys.argv[2] == "classic"))
        else:
            Puzzle(text).steps
    except PuzzleError:
        pass
"""


def child_cpu(python: str, args: list[str], texts: str, cwd: Path) -> float:
    """User + sys CPU of one child process running CHILD over ``texts``."""
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    subprocess.run([python, "-c", CHILD, *args], input=texts, text=True, check=True, cwd=cwd,
                   env={k: v for k, v in os.environ.items() if k != "PYTHONPATH"})
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    return (after.ru_utime - before.ru_utime) + (after.ru_stime - before.ru_stime)


def against_tree(rows: list[tuple[str, Numbers]], classic: bool, tree: Path,
                 rounds: int) -> tuple[float, float]:
    """Best-of-``rounds`` CPU of rate here and of ``tree``'s default explanation, run in turn."""
    texts = "\n".join(text for text, _ in rows)
    other = str(tree / ".venv" / "bin" / "python")
    rate_args = ["rate", "classic" if classic else "se"]
    cpu_rate: list[float] = []
    cpu_default: list[float] = []
    for _ in range(rounds):
        cpu_rate.append(child_cpu(sys.executable, rate_args, texts, ROOT))
        cpu_default.append(child_cpu(other, ["default"], texts, tree))
    return min(cpu_rate), min(cpu_default)


def pct(k: int, n: int) -> str:
    return f"{k}/{n} ({100 * k / n:.1f} %)" if n else "0/0"


def report(rows: list[tuple[str, Numbers]], ours: list[Numbers | None], show: int) -> None:
    n = len(rows)
    got = [o if o is not None else (0.0, 0.0, 0.0) for o in ours]
    exact = [se[0] == o[0] for (_, se), o in zip(rows, got, strict=True)]
    near = [abs(se[0] - o[0]) <= 0.3 + 1e-9 for (_, se), o in zip(rows, got, strict=True)]
    print(f"ER exact {pct(sum(exact), n)}, within ±0.3 {pct(sum(near), n)}, "
          f"Spearman {spearman([se[0] for _, se in rows], [o[0] for o in got]):.4f}")
    print(f"EP exact {pct(sum(se[1] == o[1] for (_, se), o in zip(rows, got, strict=True)), n)}, "
          f"ED exact {pct(sum(se[2] == o[2] for (_, se), o in zip(rows, got, strict=True)), n)}, "
          f"ER/EP/ED all exact {pct(sum(se == o for (_, se), o in zip(rows, got, strict=True)), n)}")
    bands: dict[int, list[tuple[bool, bool]]] = defaultdict(list)
    for (_, se), e, w in zip(rows, exact, near, strict=True):
        bands[min(int(se[0]), 10)].append((e, w))
    print("SE band | puzzles | ER exact | within ±0.3")
    for b in sorted(bands):
        xs = bands[b]
        label = f"{b}.x" if b < 10 else "10+"
        print(f"{label:>7} | {len(xs):7d} | {pct(sum(e for e, _ in xs), len(xs)):>18} | "
              f"{pct(sum(w for _, w in xs), len(xs)):>18}")
    shown = 0
    for (text, se), o in zip(rows, ours, strict=True):
        if shown < show and o != se:
            mine = "refused" if o is None else f"{o[0]}/{o[1]}/{o[2]}"
            print(f"  {text}  SE {se[0]}/{se[1]}/{se[2]}  ours {mine}")
            shown += 1


def verify(rows: list[tuple[str, Numbers]], count: int, classic: bool) -> None:
    """The se order's documents of the first ``count`` puzzles, replayed by the checker."""
    docs = []
    t = time.process_time()
    for text, _ in rows[:count]:
        doc = Puzzle(text, order="se-classic" if classic else "se").to_json()
        docs.append({k: v for k, v in doc.items() if k != "difficulty"})  # see tests/conftest.py for_checker
    cpu = time.process_time() - t
    with tempfile.TemporaryDirectory() as tmp:
        target = Path(tmp) / "docs.json"
        target.write_text(json.dumps(docs))
        result = subprocess.run([sys.executable, str(VERIFY), str(target), "--quiet"], capture_output=True, text=True)
    summary = (result.stdout.strip().splitlines() or ["(no output)"])[-1]
    steps = sum(len(d["steps"]) for d in docs)
    print(f"checker on {len(docs)} se-order documents ({steps} steps, {cpu:.1f} s CPU to explain): {summary}"
          f" (exit {result.returncode})")


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("reference", nargs="?", type=Path, default=DATA / "se_rated.sukaku.tsv",
                    help="serate's TSV (puzzle ER EP ED)")
    ap.add_argument("--classic", action="store_true", help="rate with SE 1.2.1.3's order (se-classic)")
    ap.add_argument("--every", type=int, default=1, help="every K-th puzzle (default 1: all)")
    ap.add_argument("--limit", type=int, default=0, help="at most N puzzles of the sample")
    ap.add_argument("--show", type=int, default=10, help="list the first N differences (default 10)")
    ap.add_argument("--against-default", nargs="?", const="", default=None, metavar="TREE",
                    help="also time the default explanation of each puzzle (A/B, alternated); "
                         "with TREE, that checkout's default (its .venv) in child processes")
    ap.add_argument("--rounds", type=int, default=1,
                    help="with --against-default TREE: whole-set runs of each side, in turn (best kept)")
    ap.add_argument("--verify", type=int, default=0, metavar="N",
                    help="replay the se order's documents of the first N puzzles with the checker")
    args = ap.parse_args(argv)
    rows = read(args.reference)[::args.every]
    if args.limit:
        rows = rows[:args.limit]
    flavour = "se-classic (SE 1.2.1.3)" if args.classic else "se (Sukaku Explainer 1.15.10)"
    print(f"{len(rows)} puzzles of {args.reference.name} (every {args.every}), order {flavour}")
    ours, cpu_rate, cpu_default = rate_all(rows, args.classic, args.against_default == "")
    report(rows, ours, args.show)
    line = f"rate: {cpu_rate:.1f} s CPU, {cpu_rate / max(len(rows), 1) * 1000:.0f} ms a puzzle"
    if args.against_default == "":
        line += (f"; default explanation of the same puzzles {cpu_default:.1f} s CPU: "
                 f"ratio {cpu_rate / cpu_default:.2f}")
    print(line)
    if args.against_default:
        tree = Path(args.against_default).resolve()
        child_rate, child_default = against_tree(rows, args.classic, tree, max(args.rounds, 1))
        print(f"child processes, best of {max(args.rounds, 1)} in turn: rate {child_rate:.1f} s CPU; "
              f"default explanation of {tree.name} {child_default:.1f} s CPU: "
              f"ratio {child_rate / child_default:.2f}")
    if args.verify:
        verify(rows, args.verify, args.classic)
    return 0


if __name__ == "__main__":
    sys.exit(main())
