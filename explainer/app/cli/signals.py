"""Signals a user sends to a run (Ctrl-C, ``kill``, a closed terminal) end it cleanly.

While a command runs (``handled()``, entered by ``common.invoke``):

- SIGINT, SIGTERM and SIGHUP raise ``Interrupted`` in the main process, a
  ``KeyboardInterrupt`` that remembers the signal: ``finally`` blocks run
  (the output folder records what was written, worker pools are stopped,
  the database keeps every stored puzzle) and ``invoke`` prints one line
  and returns 128 + the signal number (130, 143, 129).
- A second signal while that clean-up runs is ignored: the clean-up is
  short, and cutting it would lose the manifest.
- A process forked from this one (a worker of a ``multiprocessing`` pool)
  inherits the handler: there SIGINT is ignored (the terminal sends Ctrl-C
  to every process of the group; the parent decides, and stops its workers)
  and SIGTERM or SIGHUP end the worker at once, silently. No worker prints a
  traceback.

``critical()`` holds the three signals back around a few statements that
must not be cut in two (writing the manifest); they are delivered after.

Before a command runs (while Python imports the package) and after it, the
program itself (``explain_sudoku.py``, the console script, then
``stop_at_once``) ends at once with one line and the same status: nothing is
being written then.
"""
from __future__ import annotations

import os
import signal
import sys
from collections.abc import Iterator
from contextlib import contextmanager
from types import FrameType
from typing import Any

SIGNALS = tuple(s for s in (signal.SIGINT, signal.SIGTERM, getattr(signal, "SIGHUP", None)) if s is not None)


class Interrupted(KeyboardInterrupt):
    """A run stopped by a signal; ``status`` is the exit status to return (128 + signal)."""

    def __init__(self, signum: int = signal.SIGINT) -> None:
        super().__init__(signum)
        self.signum = signum

    @property
    def status(self) -> int:
        return 128 + self.signum

    @property
    def name(self) -> str:
        try:
            return signal.Signals(self.signum).name
        except ValueError:
            return f"signal {self.signum}"


def status_of(e: KeyboardInterrupt) -> int:
    """The exit status of an interruption (a plain KeyboardInterrupt is SIGINT's 130)."""
    return e.status if isinstance(e, Interrupted) else 128 + signal.SIGINT


class _Handler:
    def __init__(self) -> None:
        self.pid = os.getpid()
        self.fired = False
        self.signum: int | None = None  # the signal that fired
        self.depth = 0  # inside critical() blocks
        self.pending: int | None = None

    def __call__(self, signum: int, frame: FrameType | None) -> None:
        if os.getpid() != self.pid:  # a forked worker
            if signum == signal.SIGINT:
                return
            os._exit(128 + signum)
        if self.fired:  # already stopping: let the clean-up finish
            return
        if self.depth:
            if self.pending is None:
                self.pending = signum
            return
        self.fired, self.signum = True, signum
        raise Interrupted(signum)

    def leave(self) -> None:
        self.depth -= 1
        if not self.depth and self.pending is not None and not self.fired:
            signum, self.pending = self.pending, None
            self.fired, self.signum = True, signum
            raise Interrupted(signum)


_ACTIVE: list[_Handler] = []


@contextmanager
def handled(program: bool = False) -> Iterator[None]:
    """Signals become ``Interrupted`` for the duration (main thread only; elsewhere a no-op).

    After it, the handlers that were there come back; for the program itself
    (``program``), ``stop_at_once`` instead: the run is over, the process ends."""
    handler = _Handler()
    previous = {}
    try:
        for sig in SIGNALS:
            previous[sig] = signal.signal(sig, handler)
    except ValueError:  # not the main thread: leave signals alone
        for sig, old in previous.items():
            signal.signal(sig, old)
        yield
        return
    _ACTIVE.append(handler)
    hook = sys.unraisablehook

    def unraisable(u: Any) -> None:  # an Interrupted dropped in a finaliser: ``check`` raises it again
        if not isinstance(u.exc_value, Interrupted):
            hook(u)
    sys.unraisablehook = unraisable
    try:
        yield
    finally:
        sys.unraisablehook = hook
        _ACTIVE.remove(handler)
        for sig, old in previous.items():
            signal.signal(sig, stop_at_once if program else old)


def _current() -> _Handler | None:
    """This process's handler of the command running (None in a forked worker or outside one)."""
    return _ACTIVE[-1] if _ACTIVE and _ACTIVE[-1].pid == os.getpid() else None


@contextmanager
def critical() -> Iterator[None]:
    """Hold SIGINT/SIGTERM/SIGHUP back until the block is done: a signal that arrives meanwhile
    raises ``Interrupted`` when the block ends (unless the block raised already)."""
    handler = _current()
    if handler is None:
        yield
        return
    handler.depth += 1
    try:
        yield
    except BaseException:
        handler.depth -= 1
        raise
    handler.leave()


def check() -> None:
    """Raise again an interruption whose first raise was lost. A signal's handler runs wherever
    the main thread is; in a ``__del__``, a weakref callback or an at-fork hook (logging's
    ``_releaseLock`` when a worker pool forks, seen in CI) Python drops the exception (while
    ``handled``, without printing "Exception ignored"), and the run went on to its end, exit 0,
    though Ctrl-C was pressed. Loops over units of work (frames, puzzles) call this between
    them; it does nothing while no signal has fired."""
    handler = _current()
    if handler is not None and handler.fired and handler.signum is not None and not handler.depth:
        raise Interrupted(handler.signum)


def fired() -> Interrupted | None:
    """The interruption of this run when a signal has fired (its first raise lost or not), else
    None."""
    handler = _current()
    if handler is None or not handler.fired or handler.signum is None:
        return None
    return Interrupted(handler.signum)


def as_interruption(e: BaseException) -> KeyboardInterrupt | None:
    """``e`` when it is an interruption; the run's interruption when ``e`` is an error raised
    after a signal fired; else None. After a signal, an error that follows (a clean-up cut in
    two, a finaliser that dropped the raise and left a pool or a pipe half closed: two CI runs
    ended with status 70 so) is the signal's doing: the run ends as interrupted (one line,
    128 + the signal), not as a bug."""
    if isinstance(e, KeyboardInterrupt):
        return e
    return fired() if isinstance(e, Exception) else None


def stop_at_once(signum: int, frame: FrameType | None) -> None:
    """End the process now with one line and 128 + the signal: the run is over, nothing to clean
    up any more (``explain_sudoku.py`` has its own, in place before the package is imported)."""
    os.write(2, f"explain-sudoku: interrupted by {Interrupted(signum).name}\n".encode())
    os._exit(128 + signum)
