"""16×16 and 25×25 explaining speed (issue #15): whole-process time per puzzle and
the time spent inside each finder.

    python benchmarks/bench_biggrid.py [FILE ...] [--runs R] [--no-process] [--no-finders]
                                      [--verify] [--save DIR]

FILE defaults to ``benchmarks/data/hard16.txt`` and ``benchmarks/data/hard25.txt``.

- whole process: each puzzle is explained (steps only, no pictures) by a fresh
  ``python`` process, ``R`` times (default 3); the median wall and CPU (user + sys
  of the child, from ``os.wait4``) per puzzle, then the median and max per size.
  A process startup (imports) is part of the figure, as a user would see it.
- per finder (in this process, one run): every registry finder is wrapped so the
  CPU time (``time.process_time``) spent inside it is summed, with its calls and
  hits (steps it gave), per grid size, most expensive first.
- ``--verify``: the steps JSON of every puzzle is checked by
  ``../shared/tools/verify_steps.py``; ``--save DIR`` writes the documents
  (``DIR/<file stem>.json``) to compare two trees.
"""
from __future__ import annotations

import argparse
import dataclasses
import json
import os
import statistics
import subprocess
import sys
import tempfile
import time
from collections import defaultdict
from collections.abc import Iterator
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[1]
DATA = Path(__file__).resolve().parent / "data"
DEFAULT = [DATA / "hard16.txt", DATA / "hard25.txt"]
VERIFY = ROOT.parent / "shared" / "tools" / "verify_steps.py"


def explain_one(line: str) -> None:
    """The child process: explain one puzzle (steps only)."""
    sys.path.insert(0, str(ROOT))
    from explainer import Puzzle

    Puzzle(line).steps


def process_time(line: str) -> tuple[float, float]:
    """(wall, CPU) seconds of one fresh process explaining ``line``."""
    env = dict(os.environ, PYTHONPATH=str(ROOT))
    start = time.perf_counter()
    proc = subprocess.Popen([sys.executable, __file__, "--one", line], env=env)
    _, status, usage = os.wait4(proc.pid, 0)
    wall = time.perf_counter() - start
    proc.returncode = os.waitstatus_to_exitcode(status)
    if proc.returncode:
        raise SystemExit(f"the child failed (exit {proc.returncode}) on {line[:40]}…")
    return wall, usage.ru_utime + usage.ru_stime


class FinderClock:
    """Wraps finders: CPU time inside each (while the engine pulls its steps), calls, hits."""

    def __init__(self) -> None:
        self.cpu: dict[str, float] = defaultdict(float)
        self.calls: dict[str, int] = defaultdict(int)
        self.hits: dict[str, int] = defaultdict(int)

    def wrap(self, t: Any) -> Any:
        inner = t.find

        def find(state: Any, ctx: Any, /) -> Iterator[Any]:
            self.calls[t.name] += 1
            gen = inner(state, ctx)
            while True:
                start = time.process_time()
                try:
                    step = next(gen)
                except StopIteration:
                    self.cpu[t.name] += time.process_time() - start
                    return
                self.cpu[t.name] += time.process_time() - start
                yield step

        return dataclasses.replace(t, find=find)


def finder_run(lines: list[str], clock: FinderClock) -> tuple[list[dict[str, Any]], list[float]]:
    """Explain every line with clocked finders: (steps JSON documents, CPU per puzzle)."""
    sys.path.insert(0, str(ROOT))
    import techniques
    from explainer.engine.loop import Puzzle as EnginePuzzle

    chosen = [clock.wrap(t) for t in techniques.select(None)]
    owner = {k.name: t.name for t in chosen for k in t.kinds}
    docs, cpu = [], []
    for line in lines:
        start = time.process_time()
        p = EnginePuzzle(line, chosen)
        steps = p.steps
        cpu.append(time.process_time() - start)
        for s in steps:
            clock.hits[owner[s.technique]] += 1
        docs.append(p.to_json())
    return docs, cpu


def print_table(n: int, clock: FinderClock) -> None:
    """Time inside each finder at one grid size, the most expensive first."""
    total = sum(clock.cpu.values())
    print(f"== per finder, n = {n} (CPU inside the finder; hits = steps it gave)")
    print(f"  {'finder':<18} {'CPU s':>8} {'share':>6} {'calls':>6} {'hits':>5} {'ms/call':>8}")
    for name in sorted(clock.cpu, key=lambda x: -clock.cpu[x]):
        t, c = clock.cpu[name], clock.calls[name]
        print(f"  {name:<18} {t:8.2f} {100 * t / total:5.1f}% {c:6d} {clock.hits[name]:5d} {1000 * t / c:8.2f}")


def read_lines(path: Path) -> list[str]:
    return [ln.strip() for ln in path.read_text().splitlines() if ln.strip() and not ln.startswith("#")]


def size_of(line: str) -> int:
    return round(len(line) ** 0.5)


def fmt(s: float) -> str:
    return f"{s:7.2f} s"


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("files", nargs="*", type=Path, default=DEFAULT)
    ap.add_argument("--one", help=argparse.SUPPRESS)
    ap.add_argument("--runs", type=int, default=3, help="processes per puzzle (median)")
    ap.add_argument("--no-process", action="store_true", help="skip the whole-process timing")
    ap.add_argument("--no-finders", action="store_true", help="skip the per-finder table")
    ap.add_argument("--verify", action="store_true", help="check the steps with verify_steps.py")
    ap.add_argument("--save", type=Path, help="write the steps JSON documents into this folder")
    args = ap.parse_args()
    if args.one:
        explain_one(args.one)
        return 0
    failed = 0
    clocks: dict[int, FinderClock] = {}
    for path in args.files:
        lines = read_lines(path)
        print(f"== {path} ({len(lines)} puzzles, n = {sorted({size_of(x) for x in lines})})")
        if not args.no_process:
            walls, cpus = [], []
            for k, line in enumerate(lines, 1):
                runs = [process_time(line) for _ in range(args.runs)]
                w = statistics.median(r[0] for r in runs)
                c = statistics.median(r[1] for r in runs)
                walls.append(w)
                cpus.append(c)
                print(f"  {k:2d}  n={size_of(line):2d}  wall {fmt(w)}  cpu {fmt(c)}", flush=True)
            print(f"  whole process, median of {args.runs}: wall median {fmt(statistics.median(walls))} "
                  f"max {fmt(max(walls))} | cpu median {fmt(statistics.median(cpus))} max {fmt(max(cpus))}")
        if args.no_finders and not args.verify and not args.save:
            continue
        docs = []
        for n in sorted({size_of(x) for x in lines}):
            part = [x for x in lines if size_of(x) == n]
            got, cpu = finder_run(part, clocks.setdefault(n, FinderClock()))
            docs += got
            print(f"  n={n}: in-process steps CPU: total {fmt(sum(cpu))}, median {fmt(statistics.median(cpu))}, "
                  f"max {fmt(max(cpu))}; steps {sum(len(d['steps']) for d in got)}")
        if args.save:
            args.save.mkdir(parents=True, exist_ok=True)
            (args.save / f"{path.stem}.json").write_text(json.dumps(docs, sort_keys=True))
        if args.verify:
            with tempfile.TemporaryDirectory() as tmp:
                target = Path(tmp) / "docs.json"
                # the checker applies wave 1's difficulty rule, replaced by ER bands in wave 3: without
                # the field it skips that one check
                target.write_text(json.dumps([{k: v for k, v in d.items() if k != "difficulty"} for d in docs]))
                out = subprocess.run([sys.executable, str(VERIFY), str(target), "--quiet"],
                                     capture_output=True, text=True)
                print("  verify_steps:", (out.stdout + out.stderr).strip().splitlines()[-1:] or ["(no output)"],
                      "exit", out.returncode)
                failed |= out.returncode
    if not args.no_finders:
        for n, clock in sorted(clocks.items()):
            print_table(n, clock)
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
