"""The learner's page under measure (issue 39): hint latency, many clients at once, first load.

    python benchmarks/bench_serve.py [--hardest N] [--top N] [--clients 50] [--seconds 60]
                                     [--workers W] [--skip-load] [--url URL]

Starts ``explain-sudoku serve`` on a free port (in a temporary folder: nothing is written into
the checkout) unless ``--url`` names one already running, then measures through HTTP, from
the request leaving to the whole answer read:

(a) level-3 hints (the step, its scenes and proof sub-frames, its rating; asked compressed
    as a browser asks, read and decoded as JSON) on the first N
    puzzles of ../shared/data/hardest300.txt with 0, 10 and 30 of the solution's values
    filled in (cells drawn with a fixed seed), and on the first N of top1465.txt: p50, p95,
    max. Targets (two quiet cores): hardest300 p95 <= 300 ms, top1465 p95 <= 50 ms.
(b) ``--clients`` clients (threads, one keep-alive connection each) asking hints in a loop
    for ``--seconds`` seconds on top1465 and hardest300 positions: answers, errors (non-200),
    lost (no answer: a refused or broken connection, a timeout), p50/p95/max latency.
(c) the page's first load: the bytes of /, the CSS, every JavaScript module it imports and
    /api/meta (uncompressed, as the server sends them). Target <= 300 KB.

Run it with ``nice`` on a shared machine, and say so with the figures.
"""
from __future__ import annotations

import argparse
import http.client
import json
import random
import re
import socket
import statistics
import subprocess
import sys
import tempfile
import threading
import time
import urllib.parse
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[1]
DATA = ROOT.parent / "shared" / "data"


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


def start_server(workers: int | None,
                 seconds: float) -> tuple[subprocess.Popen[str], str, tempfile.TemporaryDirectory[str]]:
    port = free_port()
    tmp = tempfile.TemporaryDirectory(prefix="bench-serve-")
    cmd = [sys.executable, "-m", "explain_sudoku", "serve", "--port", str(port), "--hint-seconds", str(seconds)]
    if workers:
        cmd += ["--workers", str(workers)]
    env = {"PYTHONPATH": str(ROOT), "PATH": "/usr/bin:/bin"}
    proc = subprocess.Popen(cmd, cwd=tmp.name, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True, env=env)
    url = f"http://127.0.0.1:{port}"
    deadline = time.monotonic() + 120
    while True:
        try:
            status, _, _ = request(url, "GET", "/api/meta")
            if status == 200:
                return proc, url, tmp
        except OSError:
            pass
        if proc.poll() is not None or time.monotonic() > deadline:
            raise SystemExit(f"the server did not start: {proc.stderr.read() if proc.stderr else ''}")
        time.sleep(0.3)


class Client:
    """One keep-alive HTTP connection."""

    def __init__(self, url: str, timeout: float = 120) -> None:
        u = urllib.parse.urlsplit(url)
        self.host, self.port = u.hostname or "127.0.0.1", u.port or 80
        self.timeout = timeout
        self.conn: http.client.HTTPConnection | None = None

    def call(self, method: str, path: str, body: Any = None, gzip: bool = False) -> tuple[int, bytes]:
        if self.conn is None:
            self.conn = http.client.HTTPConnection(self.host, self.port, timeout=self.timeout)
            self.conn.connect()
            assert self.conn.sock is not None  # as browsers do: no Nagle delay on small requests
            self.conn.sock.setsockopt(socket.IPPROTO_TCP, socket.TCP_NODELAY, 1)
        data = json.dumps(body).encode() if body is not None else None
        headers = {"Content-Type": "application/json"} if data is not None else {}
        if gzip:  # as a browser asks: the bytes transferred
            headers["Accept-Encoding"] = "gzip"
        try:
            self.conn.request(method, path, body=data, headers=headers)
            r = self.conn.getresponse()
            return r.status, r.read()
        except Exception:
            self.conn.close()
            self.conn = None
            raise


def request(url: str, method: str, path: str, body: Any = None, gzip: bool = False) -> tuple[int, bytes, float]:
    c = Client(url, timeout=10)
    t = time.perf_counter()
    status, data = c.call(method, path, body, gzip)
    return status, data, time.perf_counter() - t


def solution(puzzle: str) -> str:
    from explainer.core.solver import unique_solution
    from explainer.model.grid import parse_grid

    return "".join(str(v) for v in unique_solution(parse_grid(puzzle)).values)


def filled(puzzle: str, k: int, rng: random.Random) -> str:
    """The puzzle with k of the solution's values filled in (the learner's progress)."""
    if not k:
        return puzzle
    sol = solution(puzzle)
    empty = [i for i, ch in enumerate(puzzle) if ch in ".0"]
    chosen = set(rng.sample(empty, min(k, len(empty))))
    return "".join(sol[i] if i in chosen else ch for i, ch in enumerate(puzzle))


def figures(times: list[float]) -> str:
    if not times:
        return "no answers"
    ms = sorted(t * 1000 for t in times)
    p95 = ms[min(len(ms) - 1, int(round(0.95 * (len(ms) - 1))))]
    return f"n={len(ms):4d}  p50 {statistics.median(ms):7.1f} ms  p95 {p95:7.1f} ms  max {ms[-1]:7.1f} ms"


def latency(url: str, name: str, positions: list[dict[str, Any]]) -> None:
    import gzip as gz

    c = Client(url)
    times, bad = [], 0
    for body in positions:
        t = time.perf_counter()
        status, data = c.call("POST", "/api/hint", body, gzip=True)
        if data[:2] == b"\x1f\x8b":
            data = gz.decompress(data)
        answer = json.loads(data)
        dt = time.perf_counter() - t
        if status == 200 and "step" in answer:
            times.append(dt)
        else:
            bad += 1
    print(f"  {name:<28} {figures(times)}" + (f"  ({bad} not answered with a step)" if bad else ""), flush=True)


def load(url: str, clients: int, seconds: float, positions: list[dict[str, Any]]) -> None:
    stop = time.monotonic() + seconds
    times: list[float] = []
    errors: list[int] = []
    lost: list[str] = []
    lock = threading.Lock()

    def run(k: int) -> None:
        c = Client(url, timeout=60)
        rng = random.Random(k)
        while time.monotonic() < stop:
            body = rng.choice(positions)
            t = time.perf_counter()
            try:
                status, _ = c.call("POST", "/api/hint", body, gzip=True)
            except Exception as e:  # no answer
                with lock:
                    lost.append(type(e).__name__)
                continue
            dt = time.perf_counter() - t
            with lock:
                (times.append(dt) if status == 200 else errors.append(status))

    threads = [threading.Thread(target=run, args=(k,)) for k in range(clients)]
    start = time.monotonic()
    for th in threads:
        th.start()
    for th in threads:
        th.join()
    took = time.monotonic() - start
    print(f"  {clients} clients for {took:.0f} s: {len(times)} answers ({len(times) / took:.1f}/s), "
          f"{len(errors)} errors {sorted(set(errors)) if errors else ''}, {len(lost)} lost "
          f"{sorted(set(lost)) if lost else ''}")
    print(f"  {'latency under load':<28} {figures(times)}")


def first_load(url: str) -> None:
    import gzip as gz

    total = wire = 0
    seen: set[str] = set()
    todo = ["/"]
    rows = []
    while todo:
        path = todo.pop(0)
        if path in seen:
            continue
        seen.add(path)
        status, raw, _ = request(url, "GET", path, gzip=True)
        data = gz.decompress(raw) if raw[:2] == b"\x1f\x8b" else raw
        rows.append((path, status, len(data), len(raw)))
        total += len(data)
        wire += len(raw)
        text = data.decode("utf-8", "replace")
        base = path.rsplit("/", 1)[0] + "/"
        for ref in re.findall(r'(?:src|href)="(/static/[^"]+)"', text):
            todo.append(ref)
        for ref in re.findall(r'from\s+["\'](\./[^"\']+)["\']|import\(["\'](\./[^"\']+)["\']\)', text):
            rel = ref[0] or ref[1]
            todo.append(urllib.parse.urljoin(base, rel))
    status, raw, _ = request(url, "GET", "/api/meta", gzip=True)
    data = gz.decompress(raw) if raw[:2] == b"\x1f\x8b" else raw
    rows.append(("/api/meta", status, len(data), len(raw)))
    total += len(data)
    wire += len(raw)
    for path, status, size, sent in rows:
        print(f"    {path:<28} {status}  {size:7d} B  ({sent:6d} B transferred)")
    print(f"  first load: {wire} bytes transferred ({wire / 1024:.1f} KB; {total / 1024:.1f} KB uncompressed) "
          f"in {len(rows)} requests (target <= 300 KB)")


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--hardest", type=int, default=30, help="hardest300 puzzles per fill level (default 30)")
    ap.add_argument("--top", type=int, default=100, help="top1465 puzzles (default 100)")
    ap.add_argument("--clients", type=int, default=50)
    ap.add_argument("--seconds", type=float, default=60.0, help="length of the load run (default 60)")
    ap.add_argument("--workers", type=int, default=None, help="the server's --workers (default: its own, the cores)")
    ap.add_argument("--hint-seconds", type=float, default=5.0, help="the server's --hint-seconds (default 5, "
                    "the server's own default)")
    ap.add_argument("--skip-load", action="store_true", help="no load run")
    ap.add_argument("--url", help="measure a server already running there")
    args = ap.parse_args()

    proc = tmp = None
    if args.url:
        url = args.url.rstrip("/")
    else:
        proc, url, tmp = start_server(args.workers, args.hint_seconds)
    try:
        hardest = (DATA / "hardest300.txt").read_text().split()[:args.hardest]
        top = (DATA / "top1465.txt").read_text().split()[:args.top]
        rng = random.Random(1)
        print(f"server {url} (the machine: shared with other work; figures are noisy)")
        print("(a) hint level 3, request to response")
        warm = Client(url)
        # every worker's imports and tables first, on puzzles not measured (a worker keeps the steps
        # of its last positions: a measured one asked here would be answered from that cache)
        for p in (DATA / "hardest300.txt").read_text().split()[-2:] + (DATA / "top1465.txt").read_text().split()[-2:]:
            warm.call("POST", "/api/hint", {"puzzle": p, "level": 3})
        positions: list[dict[str, Any]] = []
        for k in (0, 10, 30):
            bodies = [{"puzzle": p, "grid": filled(p, k, rng), "level": 3} for p in hardest]
            positions += bodies
            latency(url, f"hardest300, {k} values filled", bodies)
        tops = [{"puzzle": p, "level": 3} for p in top]
        latency(url, "top1465", tops)
        if not args.skip_load:
            print("(b) load")
            load(url, args.clients, args.seconds, tops + positions)
        print("(c) the page's first load")
        first_load(url)
    finally:
        if proc is not None:
            proc.send_signal(2)
            try:
                proc.wait(15)
            except subprocess.TimeoutExpired:
                proc.kill()
        if tmp is not None:
            tmp.cleanup()
    return 0


if __name__ == "__main__":
    sys.exit(main())
