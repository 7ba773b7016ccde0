"""Issue #43's speed targets, measured in one run: whole processes, ratios from engines taking turns.

    python benchmarks/bench_speed.py [--larsdoku PYTHON] [--against DIR] [--sections LIST]
                                     [--every 10] [--finders] [--limit N]

Every engine runs in its own worker process (this tree's on the default path and
in the seed order; another checkout's with ``--against DIR``; larsdoku with
``--larsdoku PYTHON``, a Python where ``import larsdoku`` works). The workers
take turns puzzle by puzzle, the order alternating from puzzle to puzzle, so a
neighbour's burst on this shared machine slows them alike. Each puzzle's time
is the CPU time (``time.process_time``) its worker spent on it, solver
included: ``Puzzle(text, order="simplest").steps`` (the default path,
simplest-first) or ``order="seed"``. larsdoku's time is
``larsdoku.solve(text, detail=True)``, its JIT warmed on five puzzles before
timing (its code is never copied here: the worker only calls it), both ways: its
default, which may read the solution when its techniques stall, and
``no_oracle=True`` ("larsdoku no oracle"; a puzzle it leaves unfinished is counted
incomplete). Without
``--larsdoku`` the sample section says so and shows the other figures.

Sections (``--sections``, comma-separated; default all):

- ``sample``: top1465 every 10th puzzle (147): default path, seed order, larsdoku;
  the targets are default <= 0.7 x larsdoku and seed order <= 0.3 x larsdoku;
- ``all``: all of top1465 in one process per path, the seed order beside it, and the
  peak memory of the default-path process (target <= 200 MB; ``ru_maxrss`` of that worker);
- ``hardest``: hardest300's first 40 puzzles (``--hardest N``), default path: median
  <= 0.25 s, p90 <= 0.5 s per puzzle;
- ``big``: examples/16x16-hard.txt and benchmarks/data/hard16.txt (the hold-out: every 20th
  of a file of 206 hard 16x16 puzzles; median <= 1 s, max <= 3 s), examples/25x25-hard.txt
  (<= 5 s); default path;
- ``db``: ``explain-sudoku db build`` of top1465 with two workers
  (``benchmarks/bench_db.py --jobs 2``), puzzles/s; with ``--against``, the other
  checkout's figure beside it.

With ``--against DIR`` every section also runs that checkout's engine, taking turns with
this tree's puzzle by puzzle, and prints the ratio.

``--finders``: the sample's per-finder table, for this tree and the ``--against`` tree, on
the default path: CPU inside each finder, calls, the CPU of the calls whose step the engine
took, and of the calls that re-derived an unchanged result (the finder's last result, its
steps still live, in the same order; empty results included), with the shares of the whole.
``--limit N``: the first N puzzles of each file only (a quick look; the targets are for the
whole files).
"""
from __future__ import annotations

import argparse
import inspect
import json
import os
import statistics
import subprocess
import sys
import time
from collections.abc import Iterator, Sequence
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[1]
SHARED = ROOT.parent / "shared" / "data"
TOP1465 = SHARED / "top1465.txt"
HARDEST = SHARED / "hardest300.txt"
HARD16 = ROOT / "benchmarks" / "data" / "hard16.txt"
EXAMPLE16 = ROOT / "examples" / "16x16-hard.txt"
EXAMPLE25 = ROOT / "examples" / "25x25-hard.txt"
SECTIONS = ("sample", "all", "hardest", "big", "db")
WARM = 5  # larsdoku puzzles solved before timing (its JIT compiles on the first calls)


# ---- workers -------------------------------------------------------------------------------

def _signature(step: Any) -> tuple[Any, ...]:
    """What a step changes, as plain data (to tell the step taken, and results that did not change);
    a lead (a step found, built only if the engine may take it) by what it says of its step."""
    if hasattr(step, "build"):
        return "lead", step.technique, step.least, step.place, step.eliminate
    return step.technique, tuple(tuple(c) for c in step.place), tuple(tuple(c) for c in step.eliminate)


def _alive(state: Any, sig: tuple[Any, ...]) -> bool:
    if sig[0] == "lead":
        return True
    n = state.geo.n
    return all(state.cand[r * n + c] >> (v - 1) & 1 for r, c, v in sig[1] + sig[2])


class Meter:
    """Every finder call of one worker: its CPU, whether the engine took its step, and whether it
    re-derived what the same finder's last call gave (its still-live steps, in the same order; an
    empty result included)."""

    def __init__(self) -> None:
        self.cpu: dict[str, float] = {}
        self.calls: dict[str, int] = {}
        self.taken: dict[str, float] = {}  # CPU of the calls whose step the engine took
        self.unchanged: dict[str, float] = {}  # CPU of the calls that re-derived an unchanged result
        self.puzzle: list[tuple[int, str, float, list[tuple[Any, ...]]]] = []  # this puzzle's calls
        self.last: dict[str, list[tuple[Any, ...]]] = {}

    def wrap(self, t: Any) -> Any:
        import dataclasses

        inner = t.find

        def find(state: Any, ctx: Any, /) -> Iterator[Any]:
            it = inner(state, ctx)
            sigs: list[tuple[Any, ...]] = []
            before = self.last.get(t.name)
            record = [state.version, t.name, 0.0, sigs]
            self.puzzle.append(record)  # type: ignore[arg-type]
            spent = [0.0]  # the search, and the leads the engine builds
            closed = [False]  # a lead the engine takes may be built after the finder was closed

            def timed_build(lead: Any) -> Any:
                def build() -> Any:
                    start = time.process_time()
                    step = lead.build()
                    took = time.process_time() - start
                    spent[0] += took
                    if closed[0]:
                        record[2] += took  # type: ignore[operator]
                        self.cpu[t.name] = self.cpu.get(t.name, 0.0) + took
                    sigs.append(_signature(step))  # the step built: the engine may take it
                    return step
                return dataclasses.replace(lead, build=build)

            try:
                while True:
                    start = time.process_time()
                    try:
                        step = next(it)
                    except StopIteration:
                        spent[0] += time.process_time() - start
                        return
                    spent[0] += time.process_time() - start
                    sigs.append(_signature(step))
                    yield timed_build(step) if hasattr(step, "build") else step
            finally:
                closed[0] = True
                record[2] = spent[0]
                self.cpu[t.name] = self.cpu.get(t.name, 0.0) + spent[0]
                self.calls[t.name] = self.calls.get(t.name, 0) + 1
                if before is not None:
                    old = [s for s in before if _alive(state, s)]
                    k = min(len(old), len(sigs))
                    if (not old) == (not sigs) and old[:k] == sigs[:k]:
                        self.unchanged[t.name] = self.unchanged.get(t.name, 0.0) + spent[0]
                self.last[t.name] = sigs

        return dataclasses.replace(t, find=find)

    def done(self, steps: list[Any]) -> None:
        """The puzzle's steps, in order: the k-th state met is the one step k was taken from."""
        versions: list[int] = []
        for version, *_ in self.puzzle:
            if not versions or versions[-1] != version:
                versions.append(version)
        at = {v: k for k, v in enumerate(versions)}
        chosen = [_signature(s) for s in steps]
        for version, name, spent, sigs in self.puzzle:
            k = at[version]
            if k < len(chosen) and chosen[k] in sigs:
                self.taken[name] = self.taken.get(name, 0.0) + spent
        self.puzzle = []
        self.last = {}

    def table(self) -> dict[str, Any]:
        return {"cpu": self.cpu, "calls": self.calls, "taken": self.taken, "unchanged": self.unchanged}


def engine_worker(tree: Path) -> int:
    """Explain the puzzles read from stdin (one JSON request a line) with the tree's engine."""
    sys.path.insert(0, str(tree))
    import resource

    import techniques
    from explainer import engine

    chosen = techniques.select(None)
    meter = Meter()
    metered = [meter.wrap(t) for t in chosen]
    for line in sys.stdin:
        req = json.loads(line)
        if req.get("finders"):
            print(json.dumps(meter.table()), flush=True)
            continue
        start = time.process_time()
        # the order by name; a checkout older than the name (``--against``) takes its old flag
        named = "order" in inspect.signature(engine.Puzzle).parameters
        how = {"order": "simplest" if req["easiest"] else "seed"} if named else {"easiest": req["easiest"]}
        p = engine.Puzzle(req["puzzle"], metered if req.get("meter") else chosen, **how)
        steps = len(p.steps)
        took = time.process_time() - start
        if req.get("meter"):
            meter.done(p.steps)
        rss = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss
        print(json.dumps({"cpu": took, "steps": steps, "complete": p.complete, "rss_kb": rss}), flush=True)
    return 0


# larsdoku's default (no_oracle=False) may read the solution when its techniques stall; with
# --no-oracle it does not, and a puzzle it cannot finish counts as incomplete
LARSDOKU_WORKER = """
import json, sys, time
import larsdoku
no_oracle = sys.argv[1:] == ["--no-oracle"]
for line in sys.stdin:
    req = json.loads(line)
    start = time.process_time()
    r = larsdoku.solve(req["puzzle"], detail=True, no_oracle=no_oracle)
    done = bool(r.get("success")) and not r.get("empty_remaining")
    print(json.dumps({"cpu": time.process_time() - start, "steps": 0, "complete": done}), flush=True)
"""


class Worker:
    """A worker process answering one request a line."""

    def __init__(self, name: str, cmd: list[str], env: dict[str, str] | None = None) -> None:
        self.name = name
        self.proc = subprocess.Popen(cmd, stdin=subprocess.PIPE, stdout=subprocess.PIPE, text=True, env=env,
                                     cwd=ROOT)

    def ask(self, req: dict[str, Any]) -> dict[str, Any]:
        assert self.proc.stdin is not None and self.proc.stdout is not None
        self.proc.stdin.write(json.dumps(req) + "\n")
        self.proc.stdin.flush()
        line = self.proc.stdout.readline()
        if not line:
            raise RuntimeError(f"worker {self.name} stopped (exit {self.proc.wait()})")
        return json.loads(line)  # type: ignore[no-any-return]

    def close(self) -> None:
        assert self.proc.stdin is not None
        self.proc.stdin.close()
        self.proc.wait()


def ours(name: str, tree: Path, easiest: bool) -> tuple[Worker, bool]:
    env = dict(os.environ)
    return Worker(name, [sys.executable, str(Path(__file__).resolve()), "--worker", str(tree)], env), easiest


def puzzles(path: Path, every: int = 1, limit: int | None = None) -> list[str]:
    lines = [ln.split()[0] for ln in path.read_text().splitlines() if ln.strip() and not ln.startswith("#")]
    lines = lines[::every]
    return lines[:limit] if limit else lines


def take_turns(texts: Sequence[str], engines: dict[str, tuple[Worker, bool | None]],
               meter: bool = False) -> dict[str, list[dict[str, Any]]]:
    """Each puzzle by every engine, the order reversed from one puzzle to the next."""
    out: dict[str, list[dict[str, Any]]] = {name: [] for name in engines}
    names = list(engines)
    for k, text in enumerate(texts):
        for name in names if k % 2 == 0 else names[::-1]:
            worker, easiest = engines[name]
            req: dict[str, Any] = {"puzzle": text}
            if easiest is not None:
                req["easiest"] = easiest
                req["meter"] = meter
            out[name].append(worker.ask(req))
    return out


def total(rows: list[dict[str, Any]]) -> float:
    return sum(r["cpu"] for r in rows)


def percentile(xs: Sequence[float], q: float) -> float:
    s = sorted(xs)
    return s[min(len(s) - 1, int(round(q * (len(s) - 1))))]


def close_all(engines: dict[str, tuple[Worker, bool | None]]) -> None:
    for worker, _ in {id(w): (w, e) for w, e in engines.values()}.values():
        worker.close()


# ---- sections -------------------------------------------------------------------------------

def sample(args: argparse.Namespace) -> None:
    texts = puzzles(TOP1465, args.every, args.limit)
    engines: dict[str, tuple[Worker, bool | None]] = {}
    default_worker = ours("default", ROOT, True)[0]
    engines["default"] = (default_worker, True)
    engines["seed order"] = (ours("seed order", ROOT, False)[0], False)
    if args.larsdoku:
        for name, flag in (("larsdoku", []), ("larsdoku no oracle", ["--no-oracle"])):
            lars = Worker(name, [args.larsdoku, "-c", LARSDOKU_WORKER, *flag])
            for text in puzzles(TOP1465, 1)[-WARM:]:
                lars.ask({"puzzle": text})  # JIT warm-up, not timed
            engines[name] = (lars, None)
    if args.against:
        engines["against default"] = (ours("against", args.against, True)[0], True)
        engines["against seed order"] = (ours("against seed", args.against, False)[0], False)
    res = take_turns(texts, engines)
    print(f"sample: top1465 every {args.every}th ({len(texts)} puzzles), CPU seconds per engine, turns per puzzle")
    times = {name: total(rows) for name, rows in res.items()}
    for name, t in times.items():
        incomplete = sum(1 for r in res[name] if r.get("complete") is False)
        extra = f", {sum(r['steps'] for r in res[name])} steps" if not name.startswith("larsdoku") else ""
        extra += f", {incomplete} incomplete" if incomplete else ""
        print(f"  {name:<20} {t:8.2f} s{extra}")
    if "larsdoku" in times:
        lars_t = times["larsdoku"]
        print(f"  default / larsdoku    {times['default'] / lars_t:.3f}  (target <= 0.7)")
        print(f"  seed order / larsdoku {times['seed order'] / lars_t:.3f}  (target <= 0.3)")
        print(f"  default / larsdoku no oracle {times['default'] / times['larsdoku no oracle']:.3f}")
    else:
        print("  larsdoku: not measured (give --larsdoku PYTHON, a Python where larsdoku is installed)")
    if args.against:
        print(f"  default / against default        {times['default'] / times['against default']:.3f}")
        print(f"  seed order / against seed order  {times['seed order'] / times['against seed order']:.3f}")
    close_all(engines)


def whole(args: argparse.Namespace) -> None:
    texts = puzzles(TOP1465, 1, args.limit)
    engines: dict[str, tuple[Worker, bool | None]] = {
        "default": (ours("default", ROOT, True)[0], True),
        "seed order": (ours("seed order", ROOT, False)[0], False),
    }
    res = take_turns(texts, engines)
    rss = max(r["rss_kb"] for r in res["default"]) / 1024
    print(f"all: top1465 ({len(texts)} puzzles), one process per path, CPU seconds")
    print(f"  default path   {total(res['default']):8.2f} s")
    print(f"  seed order     {total(res['seed order']):8.2f} s")
    print(f"  peak memory of the default-path process: {rss:.0f} MB (target <= 200 MB)")
    close_all(engines)


def per_puzzle(name: str, path: Path, args: argparse.Namespace, median_max: float, top_max: float,
               top: str, limit: int | None = None) -> None:
    """Each puzzle's CPU on the default path (and the ``--against`` tree's, taking turns)."""
    texts = puzzles(path, 1, limit or args.limit)
    engines: dict[str, tuple[Worker, bool | None]] = {"default": (ours("default", ROOT, True)[0], True)}
    if args.against:
        engines["against"] = (ours("against", args.against, True)[0], True)
    res = take_turns(texts, engines)
    for engine_name, rows in res.items():
        xs = [r["cpu"] for r in rows]
        q = max(xs) if top == "max" else percentile(xs, 0.9)
        targets = f" (target <= {median_max})" if engine_name == "default" else ""
        top_target = f" (target <= {top_max})" if engine_name == "default" else ""
        print(f"{name} ({len(xs)} puzzles), {engine_name}, CPU seconds per puzzle: median "
              f"{statistics.median(xs):.3f}{targets}, {top} {q:.3f}{top_target}, max {max(xs):.3f}, "
              f"total {sum(xs):.2f}")
        if len(xs) <= 12:
            print("  each: " + ", ".join(f"{x:.2f}" for x in xs))
    if args.against:
        print(f"  default / against: {total(res['default']) / total(res['against']):.3f}")
    close_all(engines)


def big(args: argparse.Namespace) -> None:
    per_puzzle("examples/16x16-hard.txt", EXAMPLE16, args, 1.0, 3.0, "max")
    per_puzzle("benchmarks/data/hard16.txt", HARD16, args, 1.0, 3.0, "max")
    per_puzzle("examples/25x25-hard.txt", EXAMPLE25, args, 5.0, 5.0, "max")


def db(args: argparse.Namespace) -> None:
    trees = [("this tree", ROOT)] + ([("against", args.against)] if args.against else [])
    limit = ["--limit", str(args.limit)] if args.limit else []
    for name, tree in trees:
        env = dict(os.environ, PYTHONPATH=str(tree))
        bench = tree / "benchmarks" / "bench_db.py"
        out = subprocess.run([sys.executable, str(bench), str(TOP1465), "--jobs", "2", *limit], env=env,
                             cwd=tree, check=True, capture_output=True, text=True).stdout
        line = next((ln for ln in out.splitlines() if ln.startswith("jobs 2")), out.strip())
        print(f"db build ({name}): {line}")


def finders(args: argparse.Namespace) -> None:
    texts = puzzles(TOP1465, args.every, args.limit)
    engines: dict[str, tuple[Worker, bool | None]] = {"this tree": (ours("this tree", ROOT, True)[0], True)}
    if args.against:
        engines["against"] = (ours("against", args.against, True)[0], True)
    res = take_turns(texts, engines, meter=True)
    tables = {name: worker.ask({"finders": True}) for name, (worker, _) in engines.items()}
    names = list(engines)
    print(f"per finder, default path, top1465 every {args.every}th ({len(texts)} puzzles): CPU seconds inside "
          "the finder / calls / CPU of the calls whose step was taken / CPU of the calls that re-derived an "
          "unchanged result (the same finder's last result, its steps still live)")
    order = sorted(set().union(*(t["cpu"] for t in tables.values())),
                   key=lambda k: -tables[names[0]]["cpu"].get(k, 0.0))
    print(f"  {'finder':<20}" + "".join(f" | {n + ': cpu / calls / taken / unchanged':>44}" for n in names))

    def cells(t: dict[str, Any], k: str | None) -> str:
        def get(what: str) -> float:
            return t[what].get(k, 0.0) if k is not None else sum(t[what].values())
        return f" | {get('cpu'):9.2f} / {int(get('calls')):6d} / {get('taken'):8.2f} / {get('unchanged'):9.2f}"

    for k in order:
        print(f"  {k:<20}" + "".join(cells(tables[n], k) for n in names))
    print(f"  {'in finders':<20}" + "".join(cells(tables[n], None) for n in names))
    print(f"  {'whole puzzles':<20}" + "".join(f" | {total(res[n]):9.2f} {'':34}" for n in names))
    for n in names:
        t = tables[n]
        inside = sum(t["cpu"].values()) or 1.0
        whole_cpu = total(res[n]) or 1.0
        print(f"  {n}: {100 * (inside - sum(t['taken'].values())) / whole_cpu:.1f} % of the CPU in calls whose "
              f"step is not taken, {100 * sum(t['unchanged'].values()) / whole_cpu:.1f} % re-deriving an "
              f"unchanged result, {100 * (whole_cpu - inside) / whole_cpu:.1f} % outside the finders "
              f"({sum(r['steps'] for r in res[n])} steps)")
    close_all(engines)


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--larsdoku", metavar="PYTHON", help="a Python interpreter with larsdoku installed")
    ap.add_argument("--against", type=Path, metavar="DIR", help="another checkout to compare with")
    ap.add_argument("--sections", default=",".join(SECTIONS), help=f"comma-separated, of {', '.join(SECTIONS)}")
    ap.add_argument("--every", type=int, default=10, help="the sample: every K-th puzzle of top1465")
    ap.add_argument("--finders", action="store_true", help="the per-finder table of the sample")
    ap.add_argument("--limit", type=int, default=None, help="the first N puzzles of each file only")
    ap.add_argument("--hardest", type=int, default=40, help="the hardest section: hardest300's first N puzzles")
    ap.add_argument("--worker", type=Path, help=argparse.SUPPRESS)
    args = ap.parse_args(argv)
    if args.worker is not None:
        return engine_worker(args.worker)
    sections = [s.strip() for s in args.sections.split(",") if s.strip()]
    unknown = [s for s in sections if s not in SECTIONS]
    if unknown:
        ap.error(f"unknown section {unknown[0]!r} (known: {', '.join(SECTIONS)})")
    if args.against is not None and not (args.against / "explainer").is_dir():
        ap.error(f"--against: {args.against} is not a checkout of this project")
    start = time.perf_counter()
    print(f"machine: {os.cpu_count()} cores, load {os.getloadavg()[0]:.1f}; this tree: {ROOT}")
    run = {"sample": sample, "all": whole,
           "hardest": lambda a: per_puzzle(f"hardest300 first {a.hardest}", HARDEST, a, 0.25, 0.5, "p90", a.hardest),
           "big": big, "db": db}
    for name in sections:
        run[name](args)
    if args.finders:
        finders(args)
    print(f"(wall {time.perf_counter() - start:.0f} s)")
    return 0


if __name__ == "__main__":
    sys.exit(main())
