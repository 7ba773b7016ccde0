"""Benchmark the database build: wall time, puzzles/s, peak memory, bytes per puzzle, query times.

    python benchmarks/bench_db.py [FILE] [--limit N] [--jobs 1,2] [--timeout S]
    python benchmarks/bench_db.py --query-db DB     # only the query times, on an existing database

Each configuration builds a fresh database in its own process, so the peak
memory figures (``getrusage``: the build process itself and its largest
worker) belong to that run alone. Default FILE: ../shared/data/top1465.txt.
Bytes per puzzle: the file after a WAL checkpoint, divided by the puzzles
stored. Then each query of ``QUERIES`` (and ``stats``, and reading every
document as ``db export`` does) is timed on the new database: CPU time of
this process, best of three.
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
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[1]
DEFAULT_FILE = ROOT.parent / "shared" / "data" / "top1465.txt"
sys.path.insert(0, str(ROOT))


QUERIES = {  # name -> PuzzleDB.query arguments (the same API on every schema)
    "chain by length, 10": {"technique": "chain", "order_by": "length", "limit": 10},
    "ER 8.0-9.0, 20": {"rating": "8.0-9.0", "limit": 20},
    "forcing chain, medium": {"technique": "forcing chain", "difficulty": "medium"},
    "single position, all": {"technique": "single position"},
    "by eliminations, 5": {"order_by": "eliminations", "limit": 5},
}


def best_cpu_ms(fn: Any, repeat: int = 3) -> float:
    best = float("inf")
    for _ in range(repeat):
        t0 = time.process_time()
        fn()
        best = min(best, time.process_time() - t0)
    return round(best * 1000, 1)


def query_times(db: Path) -> dict[str, float]:
    from explainer.app.bank.db import PuzzleDB

    with PuzzleDB(db, create=False) as store:
        out = {name: best_cpu_ms(lambda kw=kw: [r.text for r in store.query(**kw)]) for name, kw in QUERIES.items()}
        out["stats"] = best_cpu_ms(store.stats)
        out["export (every document)"] = best_cpu_ms(lambda: sum(1 for _ in store.documents()), repeat=1)
    return out


def one_run(path: Path, jobs: int, limit: int | None, timeout: float | None, db: Path) -> dict:
    from explainer.app.bank.build import build
    from explainer.app.bank.db import PuzzleDB
    from explainer.model.grid import read_sources

    sources = read_sources(path)
    if limit is not None:
        sources = sources[:limit]
    start = time.perf_counter()
    report = build(sources, db, jobs=jobs, timeout=timeout, progress=sys.stderr.isatty())
    wall = time.perf_counter() - start
    with PuzzleDB(db) as store:
        store.conn.execute("PRAGMA wal_checkpoint(TRUNCATE)")
        st = store.stats()
        n_steps = store.conn.execute("SELECT sum(steps) FROM puzzles").fetchone()[0] or 0
    size = db.stat().st_size
    me = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss
    kids = max(report.peak_worker_rss_kb, resource.getrusage(resource.RUSAGE_CHILDREN).ru_maxrss)
    return {
        "jobs": jobs, "puzzles": report.stored, "errors": report.errors, "timeouts": report.timeouts,
        "wall_s": round(wall, 2), "puzzles_per_s": round(report.stored / wall, 2) if wall else None,
        "peak_rss_main_mb": round(me / 1024, 1), "peak_rss_worker_mb": round(kids / 1024, 1),
        "db_bytes": size, "bytes_per_puzzle": round(size / max(1, report.stored)), "steps": n_steps,
        "difficulty": st["difficulty"], "mean_s": st["seconds"]["mean"], "query_cpu_ms": query_times(db),
    }


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("file", nargs="?", type=Path, default=DEFAULT_FILE)
    ap.add_argument("--limit", type=int, default=None, help="first N puzzles only")
    ap.add_argument("--jobs", default="1,2", help="comma-separated worker counts (default 1,2)")
    ap.add_argument("--timeout", type=float, default=None)
    ap.add_argument("--query-db", type=Path, default=None, help="time the queries on this database, build nothing")
    ap.add_argument("--one", type=int, default=None, help=argparse.SUPPRESS)  # internal: a single run
    ap.add_argument("--db", type=Path, default=None, help=argparse.SUPPRESS)
    args = ap.parse_args(argv)

    if args.query_db is not None:
        print("query CPU ms (best of 3): " + ", ".join(f"{k} {v}" for k, v in query_times(args.query_db).items()))
        return 0
    if args.one is not None:
        print(json.dumps(one_run(args.file, args.one, args.limit, args.timeout, args.db)))
        return 0

    import explainer.core.solver

    solver_doc = explainer.core.solver.__doc__  # which solver these figures are for
    from techniques import REGISTRY

    print(f"file: {args.file}  limit: {args.limit}  cores: {os.cpu_count()}")
    print(f"solver: {(solver_doc or '').strip().splitlines()[0]}")
    print(f"techniques: {', '.join(t.name for t in REGISTRY)}")
    for jobs in [int(j) for j in args.jobs.split(",")]:
        with tempfile.TemporaryDirectory() as tmp:
            cmd = [sys.executable, __file__, str(args.file), "--one", str(jobs), "--db", str(Path(tmp) / "b.sqlite")]
            if args.limit is not None:
                cmd += ["--limit", str(args.limit)]
            if args.timeout is not None:
                cmd += ["--timeout", str(args.timeout)]
            out = subprocess.run(cmd, check=True, stdout=subprocess.PIPE, text=True, cwd=ROOT).stdout
        r = json.loads(out.strip().splitlines()[-1])
        print(f"jobs {r['jobs']}: {r['puzzles']} puzzles in {r['wall_s']} s = {r['puzzles_per_s']} puzzles/s; "
              f"errors {r['errors']} (timeouts {r['timeouts']}); peak RSS build {r['peak_rss_main_mb']} MB, "
              f"largest worker {r['peak_rss_worker_mb']} MB; db {r['db_bytes'] / 1e6:.2f} MB = "
              f"{r['bytes_per_puzzle']} bytes/puzzle ({r['steps']} steps); difficulty {r['difficulty']}")
        print("  query CPU ms (best of 3): " + ", ".join(f"{k} {v}" for k, v in r["query_cpu_ms"].items()))
    return 0


if __name__ == "__main__":
    sys.exit(main())
