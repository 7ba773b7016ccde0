"""Build a puzzle database: explain every puzzle in worker processes.

Each result is stored in its own small transaction as soon as it arrives, so
killing the build (even with SIGKILL) loses only the puzzles in flight, and
the next build skips every puzzle already stored (keyed by puzzle text).

Workers are plain processes fed one task at a time over a pipe, so a puzzle
that runs past ``timeout`` is handled by killing its worker and starting a
fresh one: the puzzle is stored with the error ``timeout after N s`` and the
build goes on. A worker that dies during a puzzle (out of memory, a crash)
is replaced the same way and its puzzle stored with the reason; workers that
keep dying before they start a puzzle stop the build (``WorkerStartError``)
instead of marking every puzzle failed.

With ``dask="tcp://host:8786"`` the same tasks run on an existing Dask
cluster (optional extra ``[dask]``); the client stores results as they
complete. Dask cannot interrupt a running task, so there a timeout is
recorded for the puzzle and its future cancelled, but the worker thread
finishes the task in the background.
"""
from __future__ import annotations

import multiprocessing as mp
import os
import signal
import sys
import time
from collections.abc import Callable, Hashable, Iterable, Iterator, Sequence
from contextlib import contextmanager, nullcontext
from dataclasses import dataclass
from multiprocessing.connection import Connection, wait
from pathlib import Path
from typing import Any

try:
    import resource
except ImportError:  # not on Windows: no memory figure there
    resource = None  # type: ignore[assignment]

from explainer.engine.orders import DEFAULT_ORDER, order_named
from explainer.model.grid import Source, read_sources
from explainer.model.order import Order

from .db import PATH, RATINGS, PuzzleDB, WriterLock, create_new, error_record, explain_record, make_folder, puzzle_key


@dataclass
class BuildReport:
    total: int = 0        # puzzles in the input (after removing repeats)
    skipped: int = 0      # already stored before this build
    stored: int = 0       # stored by this build (errors included)
    errors: int = 0       # of which failed (bad puzzle, timeout, crash)
    timeouts: int = 0
    seconds: float = 0.0
    peak_worker_rss_kb: int = 0  # largest worker's peak resident memory (local pool only)

    def summary(self) -> str:
        rate = self.stored / self.seconds if self.seconds > 0 else 0.0
        return (f"stored {self.stored} puzzles ({self.errors} errors, {self.timeouts} timeouts), "
                f"skipped {self.skipped} already stored, {self.total} in the input; "
                f"{self.seconds:.1f} s, {rate:.1f} puzzles/s")


# the bank records an order by its name, and hands its workers the name
DEFAULT = DEFAULT_ORDER.name


def received(conn: Connection) -> Iterator[Any]:
    """A worker process's tasks, one at a time as its parent sends them, until the parent
    sends None (stop) or the pipe closes (the parent is gone): the one loop of every worker
    (the bank's builders, the page's server)."""
    while True:
        try:
            task = conn.recv()
        except (EOFError, OSError):
            return
        if task is None:
            return
        yield task


def _worker(conn: Connection, techniques: Sequence[str] | None, order: str = DEFAULT, rating: str = PATH) -> None:
    """Worker loop: receive (text, where), send back the record; stop on None or EOF.

    Ctrl-C reaches every process of the terminal's group: a worker ignores it (the build
    stops its workers itself), and SIGTERM ends it silently (the default action): no
    worker prints a traceback."""
    import signal

    signal.signal(signal.SIGINT, signal.SIG_IGN)
    signal.signal(signal.SIGTERM, signal.SIG_DFL)
    for task in received(conn):
        try:
            conn.send("started")  # the timeout counts from here, not from process start-up
            rec = explain_record(task[0], task[1], techniques, order, rating)
            if resource is not None:
                rec["peak_rss_kb"] = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss
            conn.send(rec)
        except (BrokenPipeError, OSError):
            return


class WorkerStartError(RuntimeError):
    """Worker processes die before they can run a task (not a puzzle's fault)."""


class _Slot:
    """One worker process and the task it is running."""

    def __init__(self, ctx: Any, techniques: Sequence[str] | None, order: str = DEFAULT, rating: str = PATH) -> None:
        self.conn, child = ctx.Pipe()
        self.proc = ctx.Process(target=_worker, args=(child, techniques, order, rating), daemon=True)
        with _sigint_held():
            self.proc.start()
        child.close()
        self.task: Source | None = None
        self.running = False  # the worker said "started" for the current task
        self.started = 0.0

    def send(self, src: Source) -> bool:
        """Hand a task to the worker; False if the worker is already gone."""
        self.task, self.running, self.started = src, False, time.monotonic()
        try:
            self.conn.send((src.text, src.where))
        except OSError:
            return False
        return True

    def stop(self, kill: bool = False) -> None:
        if kill:
            self.proc.kill()
        else:
            try:
                self.conn.send(None)
            except OSError:
                pass
        self.proc.join(timeout=5)
        if self.proc.is_alive():
            self.proc.kill()
            self.proc.join()
        self.conn.close()


@contextmanager
def _sigint_held() -> Iterator[None]:
    """SIGINT ignored, and held back from us, while a worker (and on the first, the forkserver)
    starts: a process started now inherits the ignored SIGINT, so Ctrl-C reaches neither the
    forkserver while it imports the engine nor a worker before it sets its own handlers (each
    printed a KeyboardInterrupt traceback). Ours stays pending (a blocked signal is never
    discarded) and is delivered when the block ends: the build stops as on any Ctrl-C."""
    import threading
    from multiprocessing import resource_tracker

    if not hasattr(signal, "pthread_sigmask") or threading.current_thread() is not threading.main_thread():
        yield
        return
    # the tracker, started by a worker's start on first use, unblocks SIGINT when it is up: start it first
    resource_tracker.ensure_running()
    previous_mask = signal.pthread_sigmask(signal.SIG_BLOCK, {signal.SIGINT})
    try:
        previous = signal.signal(signal.SIGINT, signal.SIG_IGN)
        try:
            yield
        finally:
            signal.signal(signal.SIGINT, previous)
    finally:
        signal.pthread_sigmask(signal.SIG_SETMASK, previous_mask)


def _context() -> Any:
    methods = mp.get_all_start_methods()
    if "forkserver" in methods:
        ctx = mp.get_context("forkserver")
        ctx.set_forkserver_preload(["explainer.app.bank.db", "explainer.engine", "techniques"])
        return ctx
    return mp.get_context("spawn")


MAX_START_FAILURES = 3


def run_local(pending: Sequence[Source], jobs: int, techniques: Sequence[str] | None,
              timeout: float | None, on_result: Callable[[dict[str, Any]], None], order: str = DEFAULT,
              rating: str = PATH) -> None:
    """Explain ``pending`` in ``jobs`` worker processes, calling ``on_result`` in this process.

    A worker killed after starting a puzzle (timeout, crash) is replaced and
    the puzzle stored with the reason; a worker that dies before starting
    its task is replaced and the task given again, and after
    ``MAX_START_FAILURES`` such deaths in a row the build stops
    (``WorkerStartError``): that is the environment, not the puzzles.
    """
    ctx = _context()
    todo = list(reversed(pending))
    slots = [_Slot(ctx, techniques, order, rating) for _ in range(max(1, min(jobs, len(pending))))]
    start_failures = 0

    def restart(i: int) -> _Slot:
        slots[i].stop(kill=True)
        slots[i] = _Slot(ctx, techniques, order, rating)
        return slots[i]

    def feed(i: int) -> None:
        nonlocal start_failures
        while todo:
            src = todo.pop()
            if slots[i].send(src):
                return
            start_failures += 1
            code = slots[i].proc.exitcode
            if start_failures >= MAX_START_FAILURES:
                raise WorkerStartError(f"worker processes die before running a puzzle (exit code {code})")
            todo.append(src)
            restart(i)

    try:
        for i in range(len(slots)):
            feed(i)
        while any(s.task is not None for s in slots):
            busy = [s for s in slots if s.task is not None]
            wait_for: float | None = None
            if timeout is not None:
                now = time.monotonic()
                wait_for = max(0.0, min(s.started + timeout - now for s in busy))
            ready = wait([s.conn for s in busy] + [s.proc.sentinel for s in busy], wait_for)
            now = time.monotonic()
            for i, s in enumerate(slots):
                src = s.task
                if src is None:
                    continue
                rec = None
                if s.conn in ready or s.proc.sentinel in ready:
                    try:
                        msg = s.conn.recv()
                        if msg == "started":
                            s.running, s.started = True, now
                            start_failures = 0
                            if s.conn.poll():
                                rec = s.conn.recv()
                        else:
                            rec = msg
                    except (EOFError, OSError):
                        s.proc.join(timeout=1)
                        code = s.proc.exitcode
                        if not s.running:  # died before starting the task: give it again
                            start_failures += 1
                            if start_failures >= MAX_START_FAILURES:
                                raise WorkerStartError(
                                    f"worker processes die before running a puzzle (exit code {code})") from None
                            todo.append(src)
                            s.task = None
                            restart(i)
                            feed(i)
                            continue
                        rec = error_record(src.text, src.where, f"{src.where}: worker died (exit code {code})",
                                           now - s.started)
                        s = restart(i)
                elif timeout is not None and now - s.started >= timeout:
                    rec = error_record(src.text, src.where, f"timeout after {timeout:g} s", now - s.started)
                    s = restart(i)
                if rec is not None:
                    s.task = None
                    on_result(rec)
                    feed(i)
    finally:
        for s in slots:
            s.stop(kill=s.task is not None)


def dask_client(address: Any) -> Any:
    """A Dask client for a scheduler address (a Client is returned as is); RuntimeError with
    one line when the extra is missing or the scheduler cannot be reached."""
    try:
        from dask.distributed import Client
    except ImportError:
        raise RuntimeError("--dask needs the optional extra: pip install 'sudoku-explainer[dask]'") from None
    if isinstance(address, Client):
        return address
    try:
        return Client(address)  # connect timeout: dask config distributed.comm.timeouts.connect
    except (OSError, ValueError) as e:
        raise RuntimeError(f"cannot reach the Dask scheduler at {address}: {e}") from None


def run_dask(pending: Sequence[Source], address: Any, techniques: Sequence[str] | None,
             timeout: float | None, on_result: Callable[[dict[str, Any]], None], order: str = DEFAULT,
             rating: str = PATH) -> None:
    """Explain ``pending`` on a Dask cluster (an address or a Client), storing as results complete."""
    client = dask_client(address)
    from dask.distributed import as_completed
    try:
        # At most one task per worker thread in flight, so the time since
        # submission is close to the time spent running (for the timeout).
        window = max(1, sum(client.nthreads().values()))
        todo = list(reversed(pending))
        running: dict[Hashable, tuple[Any, Source, float]] = {}  # by the future's key
        ac = as_completed()

        def submit() -> None:
            src = todo.pop()
            fut = client.submit(explain_record, src.text, src.where, techniques, order, rating, pure=False)
            running[fut.key] = (fut, src, time.monotonic())
            ac.add(fut)

        while todo and len(running) < window:
            submit()
        while running:
            if ac.has_ready():
                batch = ac.next_batch(block=False)
            elif timeout is None:
                batch = [next(ac)]
            else:
                time.sleep(0.02)
                batch = []
            now = time.monotonic()
            for fut in batch:
                if fut.key not in running:
                    continue  # already recorded as a timeout
                _, src, t0 = running.pop(fut.key)
                if fut.status == "finished":
                    on_result(fut.result())
                else:
                    try:
                        fut.result()
                        msg = f"{src.where}: dask task {fut.status}"
                    except Exception as e:
                        msg = f"{src.where}: dask task failed: {type(e).__name__}: {e}"
                    on_result(error_record(src.text, src.where, msg, now - t0))
                if todo:
                    submit()
            if timeout is not None:
                for key, (fut, src, t0) in list(running.items()):
                    if now - t0 >= timeout:
                        del running[key]
                        fut.cancel()
                        on_result(error_record(src.text, src.where, f"timeout after {timeout:g} s", now - t0))
                        if todo:
                            submit()
    finally:
        if client is not address:
            client.close()


def default_jobs() -> int:
    """The cores this process may run on."""
    try:
        return len(os.sched_getaffinity(0))
    except AttributeError:
        return os.cpu_count() or 1


def load_sources(inputs: str | Path | Iterable[str | Path] | Sequence[Source]) -> list[Source]:
    if isinstance(inputs, (str, Path)):
        return read_sources(inputs)
    items = list(inputs)
    if items and all(isinstance(x, Source) for x in items):
        return items  # type: ignore[return-value]
    out: list[Source] = []
    for x in items:
        out += read_sources(x)  # type: ignore[arg-type]
    return out


def build(inputs: str | Path | Iterable[str | Path] | Sequence[Source], db: PuzzleDB | str | Path,
          *, jobs: int | None = None, timeout: float | None = None, techniques: Sequence[str] | None = None,
          progress: bool | None = None, dask: Any = None, retry_errors: bool = False,
          on_stored: Callable[[dict[str, Any]], None] | None = None,
          order: str | Order | None = None, rating: str = PATH) -> BuildReport:
    """Explain every puzzle of ``inputs`` not yet in ``db`` and store it.

    ``jobs``: worker processes (default: all cores). ``timeout``: seconds per
    puzzle. ``progress``: tqdm bar on stderr (default: only if stderr is a
    terminal). ``dask``: a scheduler address or Client to run on instead.
    ``retry_errors``: explain again the puzzles stored with an error.
    ``order``: the engine's order (a name or an ``Order``), "simplest" (the default: the
    lowest-rated step at each step, SE's path, so the stored ER/EP/ED compare with Sudoku
    Explainer's) or "seed", or Sudoku Explainer's own "se" / "se-classic"; recorded in the bank by
    its name, and a resumed build must use the same order. ``rating``: what the bank's ER / EP / ED
    (its ``er``, ``ep``, ``ed`` columns: stats, ``--rating`` filters, ``--order-by rating``) are: "path"
    (the default) the explained path's, "se" / "se-classic" Sudoku Explainer's own numbers (Sukaku
    Explainer 1.15.10's, classic SE 1.2.1.3's, ``explainer.rate``; each document then records them
    as ``se_rating``); recorded too, a resumed build must use the same.

    Safety: the input is read and the cluster reached before the database is
    touched; a second build on the same file is refused (``WriterLock``,
    ``DatabaseBusy``); a build that fails or is interrupted before storing a
    puzzle removes the database file it created (and the folders it made).
    """
    start = time.monotonic()
    sources = load_sources(inputs)
    client = dask_client(dask) if dask is not None else None  # an unreachable cluster: before any file
    own = not isinstance(db, PuzzleDB)
    path = db.path if isinstance(db, PuzzleDB) else Path(db)
    new_file = False
    new_dirs = [p for p in path.parents if not p.exists()]
    report = BuildReport()
    try:
        if own:
            make_folder(path.parent)
        with WriterLock(path) if own else nullcontext():
            # made here, under the lock and exclusively: a build refused by the lock (or one that lost
            # the race to make the file) never removes a database another build made
            new_file = own and create_new(path)
            store = db if isinstance(db, PuzzleDB) else PuzzleDB(db, create=True)
            try:
                _build(store, sources, report, jobs=jobs, timeout=timeout, techniques=techniques,
                       progress=progress, dask=client, retry_errors=retry_errors, on_stored=on_stored,
                       order=order_named(order).name, rating=rating)
            finally:
                if own:
                    store.close()
    except BaseException:
        if new_file and not report.stored:  # a build that failed before storing anything leaves no file
            for p in (path, *(path.with_name(path.name + s) for s in ("-wal", "-shm", "-journal"))):
                try:
                    p.unlink(missing_ok=True)
                except OSError:
                    pass
            for d in new_dirs:  # innermost first
                try:
                    d.rmdir()
                except OSError:
                    break
        raise
    finally:
        if client is not None and client is not dask:
            client.close()
    report.seconds = time.monotonic() - start
    return report


def _build(store: PuzzleDB, sources: list[Source], report: BuildReport, *, jobs: int | None,
           timeout: float | None, techniques: Sequence[str] | None, progress: bool | None, dask: Any,
           retry_errors: bool, on_stored: Callable[[dict[str, Any]], None] | None, order: str,
           rating: str = PATH) -> None:
    """The build on an open database (``build`` holds the writer lock)."""
    if techniques:
        from techniques import select

        wanted = ",".join(t.name for t in select(techniques))  # canonical names, registry order
    else:
        wanted = "all"
    used = store.get_meta("techniques")
    if used is None:
        store.set_meta("techniques", wanted)
    elif used != wanted:
        raise ValueError(f"{store.path}: built with techniques {used!r}, not {wanted!r} "
                         f"(use the same --techniques or another --db)")
    used_order = store.order() if used is not None else None
    if used_order is None:
        store.set_meta("order", order)
    elif used_order != order:
        raise ValueError(f"{store.path}: built in the {used_order} order, not the {order} one "
                         f"(build it with --order {used_order}, or use another --db)")
    if rating not in RATINGS:
        raise ValueError(f"unknown rating {rating!r} (choose from {', '.join(RATINGS)})")
    used_rating = store.get_meta("rating") if used is not None else None
    if used_rating is None:
        # a bank built before ratings were chosen rated its path
        store.set_meta("rating", rating if used is None else PATH)
        used_rating = rating if used is None else PATH
    if used_rating != rating:
        raise ValueError(f"{store.path}: built with the {used_rating} rating, not the {rating} one "
                         f"(build it with --rating {used_rating}, or use another --db)")
    if retry_errors:
        keys = {puzzle_key(s.text) for s in sources}
        store.forget(keys & store.error_texts())
    stored = store.stored_texts()
    pending: list[Source] = []
    seen: set[str] = set()
    for src in sources:
        key = puzzle_key(src.text)
        if key in seen:
            continue
        seen.add(key)
        if key in stored:
            report.skipped += 1
        else:
            pending.append(src)
    report.total = len(seen)

    show = sys.stderr.isatty() if progress is None else progress
    bar = None
    if show:
        from tqdm import tqdm

        tqdm.monitor_interval = 0  # no monitor thread (workers are forked from a server)
        bar = tqdm(total=report.total, initial=report.skipped, unit="puzzle", file=sys.stderr,
                   dynamic_ncols=True, smoothing=0.05)

    def on_result(rec: dict[str, Any]) -> None:
        if store.add(rec) is None:
            report.skipped += 1  # stored meanwhile by another writer (a library caller's own)
            return
        report.stored += 1
        report.peak_worker_rss_kb = max(report.peak_worker_rss_kb, rec.get("peak_rss_kb", 0))
        if rec.get("error"):
            report.errors += 1
            if rec["error"].startswith("timeout after"):
                report.timeouts += 1
        if on_stored is not None:
            on_stored(rec)
        if bar is not None:
            bar.update(1)
            if report.errors:
                bar.set_postfix(errors=report.errors, refresh=False)

    try:
        if pending:
            if dask is not None:
                run_dask(pending, dask, techniques, timeout, on_result, order, rating)
            else:
                run_local(pending, jobs or default_jobs(), techniques, timeout, on_result, order, rating)
    finally:
        if bar is not None:
            bar.close()
