"""Worker processes for the engine: one request at a time each, with a time limit.

The server's event loop never runs the engine: a hint on a hard puzzle takes up to a few
seconds, and the other learners' requests must not wait behind it. ``Pool`` keeps ``size``
processes (the cores by default); a request takes an idle one (or waits for one), sends it
the handler's name and the body, and waits at most ``seconds``. Past that the worker is
killed and a fresh one started in its place (``Timeout``: the server answers 504); an
exception in the engine comes back as one line (``EngineError``: 500) and the worker keeps
serving. ``concurrent.futures.ProcessPoolExecutor`` cannot end one worker that runs too long,
hence this small pool of our own.
"""
from __future__ import annotations

import asyncio
import json
import multiprocessing
import os
import signal
import threading
import time
import traceback
from collections.abc import Callable
from concurrent.futures import ThreadPoolExecutor
from multiprocessing.connection import Connection
from typing import Any

from explainer.model.grid import PuzzleError

from ..bank.build import received
from .position import BadRequest


class Timeout(Exception):
    """The request ran past its time limit (its worker was replaced)."""


class Cancelled(Exception):
    """The request was abandoned; its long job was ended."""


class EngineError(Exception):
    """The engine raised: one line, for a 500."""


KEEP_CANCELLED = 1.0  # seconds a job must have run for a cancellation to end its worker


def cores() -> int:
    """The cores this process may run on."""
    try:
        return max(1, len(os.sched_getaffinity(0)))
    except AttributeError:  # pragma: no cover - not Linux
        return max(1, os.cpu_count() or 1)


Handlers = Callable[[str | None], dict[str, Callable[[Any], Any]]]


def handlers(bank: str | None) -> dict[str, Callable[[Any], Any]]:
    """The request handlers a worker answers: ``api``'s and ``more``'s, the bank's with its path."""
    from . import api, more

    table: dict[str, Callable[[Any], Any]] = {name: getattr(api, name) for name in api.HANDLERS}
    table.update({name: getattr(more, name) for name in more.HANDLERS})
    table["bank"] = lambda body: more.bank(body, bank)
    return table


def _serve(conn: Connection, bank: str | None, factory: Handlers) -> None:
    """A worker's loop: (name, body) in, ("ok", answer) | ("bad", status, line) | ("error", line) out."""
    signal.signal(signal.SIGINT, signal.SIG_IGN)  # Ctrl-C is the server's to handle
    table = factory(bank)
    conn.send(("ready",))
    for name, body in received(conn):
        try:
            # encoded here, in the worker: the server's event loop only passes the bytes on
            answer: tuple[Any, ...] = ("ok", json.dumps(table[name](body), ensure_ascii=False, allow_nan=False,
                                                        separators=(",", ":")).encode("utf-8"))
        except BadRequest as e:
            answer = ("bad", e.status, e.message)
        except PuzzleError as e:  # the library's one-line refusal of bad input
            answer = ("bad", 400, " ".join(str(e).split()))
        except Exception as e:  # an engine error: one line, and the worker goes on
            last = traceback.extract_tb(e.__traceback__)[-1] if e.__traceback__ else None
            where = f" ({os.path.basename(last.filename)}:{last.lineno})" if last else ""
            answer = ("error", f"{type(e).__name__}: {' '.join(str(e).split())}{where}")
        try:
            conn.send(answer)
        except (OSError, ValueError):
            return


class _Worker:
    def __init__(self, ctx: Any, bank: str | None, factory: Handlers) -> None:
        self.conn, child = ctx.Pipe()
        self.process = ctx.Process(target=_serve, args=(child, bank, factory), daemon=True, name="explain-sudoku-serve")
        self.process.start()
        child.close()
        self.ready = False

    def wait_ready(self, seconds: float = 60.0) -> None:
        if not self.ready:
            if not self.conn.poll(seconds):
                raise EngineError("a worker did not start")
            self.conn.recv()
            self.ready = True

    def kill(self) -> None:
        if self.process.is_alive():
            self.process.kill()
        self.process.join(2)
        self.conn.close()


class Pool:
    """``size`` engine processes; ``await pool.run(name, body, seconds)``. ``factory``: a
    module-level function giving the handlers (``handlers``; tests give their own)."""

    def __init__(self, size: int | None = None, bank: str | None = None, factory: Handlers = handlers) -> None:
        self.size = size or cores()
        self.bank = bank
        self.factory = factory
        # spawn: a fork of the server (threads, an event loop) is not safe; start-up is paid once
        self._ctx = multiprocessing.get_context("spawn")
        self._idle: asyncio.Queue[_Worker] | None = None
        self._all: list[_Worker] = []
        self._lock = threading.Lock()
        self._threads = ThreadPoolExecutor(self.size + 2, thread_name_prefix="explain-sudoku-wait")
        self.closing = False  # the server is stopping: abandoned jobs end at once, no worker is started

    async def start(self) -> None:
        self._idle = asyncio.Queue()
        workers = [self._new() for _ in range(self.size)]
        for w in workers:
            await asyncio.to_thread(w.wait_ready)
            self._idle.put_nowait(w)

    def _new(self) -> _Worker:
        w = _Worker(self._ctx, self.bank, self.factory)
        with self._lock:
            self._all.append(w)
        return w

    def _replace(self, w: _Worker) -> _Worker:
        w.kill()
        with self._lock:
            if w in self._all:
                self._all.remove(w)
        if self.closing:
            return w  # ended, not replaced: the pool is closing
        fresh = self._new()
        fresh.wait_ready()
        return fresh

    def _job(self, w: _Worker, job: tuple[str, Any], seconds: float, loop: asyncio.AbstractEventLoop,
             gone: threading.Event) -> tuple[Any, ...]:
        """In a thread: one request on worker ``w``; the worker (or its replacement) goes back to
        the idle queue when this ends. ``gone``: the learner gave up (closed the request); a job
        past ``KEEP_CANCELLED`` seconds then ends with its worker (replaced), a shorter one is
        left to finish (starting a worker costs more than the rest of a short hint)."""
        keep = w
        try:
            try:
                w.conn.send(job)
                start = time.monotonic()
                end = start + seconds
                while not w.conn.poll(max(0.0, min(0.1, end - time.monotonic()))):
                    now = time.monotonic()
                    if now >= end:
                        keep = self._replace(w)
                        return ("timeout", f"took longer than {seconds:g} s")
                    if gone.is_set() and (self.closing or now - start >= KEEP_CANCELLED):
                        keep = self._replace(w)
                        return ("cancelled", "")
                answer: tuple[Any, ...] = w.conn.recv()
                return answer
            except (OSError, EOFError, ValueError):  # the worker died under the request
                keep = self._replace(w)
                return ("error", "the engine's worker stopped; it was restarted")
        finally:
            assert self._idle is not None
            idle = self._idle
            loop.call_soon_threadsafe(idle.put_nowait, keep)

    async def run(self, name: str, body: Any, seconds: float, gone: threading.Event | None = None) -> Any:
        """The handler's answer as JSON bytes; BadRequest, Timeout or EngineError otherwise.
        ``gone``: set when the request is abandoned (``Cancelled`` then)."""
        assert self._idle is not None, "Pool.start() first"
        w = await self._idle.get()
        flag = gone if gone is not None else threading.Event()
        if flag.is_set():  # abandoned while it waited for a worker: never started
            self._idle.put_nowait(w)
            raise Cancelled()
        loop = asyncio.get_running_loop()
        # shielded: the job's thread hands its worker back itself, whatever happens to this task
        job = loop.run_in_executor(self._threads, self._job, w, (name, body), seconds, loop, flag)
        try:
            answer = await asyncio.shield(job)
        except asyncio.CancelledError:
            flag.set()
            raise
        if answer[0] == "cancelled":
            raise Cancelled()
        kind = answer[0]
        if kind == "ok":
            return answer[1]
        if kind == "bad":
            raise BadRequest(answer[2], answer[1])
        if kind == "timeout":
            raise Timeout(answer[1])
        raise EngineError(answer[1])

    def close(self, seconds: float = 2.0) -> None:
        """End every worker (politely, then by force) within about ``seconds``."""
        self.closing = True
        with self._lock:
            workers = list(self._all)
            self._all.clear()
        for w in workers:
            try:
                w.conn.send(None)
            except (OSError, ValueError):
                pass
        end = time.monotonic() + seconds
        for w in workers:
            w.process.join(max(0.0, end - time.monotonic()))
            w.kill()
        self._threads.shutdown(wait=False, cancel_futures=True)
