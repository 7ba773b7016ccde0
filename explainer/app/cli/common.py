"""What every command shares: a parser whose errors are one line, the exit statuses, and
``invoke``, which runs a command line so that nothing ends in a traceback (the options and
their parse-time types are in ``options``).

Exit statuses (the table of docs/command-line.md): one per kind of failure, the same in every command.
"""
from __future__ import annotations

import argparse
import os
import re
import sys
from collections.abc import Callable, Sequence
from types import ModuleType
from typing import Any, NoReturn

PROG = "explain-sudoku"

EXIT_OK = 0         # done
EXIT_NO = 1         # the command ran and the answer is no: a grid with a mistake (hint), a line not
#                     reproduced (steps --check), no puzzle met the target (generate), a search gave up
EXIT_BAD_INPUT = 2  # bad input: a puzzle, position, file, option or database that cannot be used
EXIT_OUTPUT = 3     # output refused or not written: a folder or file that is not ours, no permission,
#                     a full disk, a database another build is writing
EXIT_INTERNAL = 70  # a bug (or no memory left): one line, please report it
# interrupted: 128 + the signal (130 SIGINT, 143 SIGTERM, 129 SIGHUP); a closed standard output
# (`| head`) ends the run quietly with 0


def error(message: object) -> None:
    """Print ``explain-sudoku: error: WHERE: WHAT`` (one line, whatever the message holds)."""
    from explainer.model.grid import one_line

    print(one_line(f"{PROG}: error: {message}"), file=sys.stderr)


class UsageError(Exception):
    """A command-line mistake; the message is one line, already prefixed with the program name."""


class Parser(argparse.ArgumentParser):
    """argparse with one-line errors (no usage dump) raised as UsageError, never SystemExit(2)."""

    def _print_message(self, message: str, file: Any = None) -> None:
        """argparse ignores a failed write: here ``--help >/dev/full`` fails as any output does (3)."""
        if message:
            (file or sys.stderr).write(message)

    def error(self, message: str) -> NoReturn:
        # "argument --jobs/-j: --jobs must be ..." -> "--jobs must be ..." (our types name the option),
        # "argument --rating: no puzzle ..." -> "--rating: no puzzle ..."
        m = re.match(r"argument (\S+?)(?:/\S+)?: (.*)", message, re.S)
        if m:
            message = m.group(2) if m.group(2).startswith(m.group(1) + " ") else f"{m.group(1)}: {m.group(2)}"
        from explainer.model.grid import one_line

        message = one_line(" ".join(message.split()))  # one line, whatever the value held
        prog = self.prog.split(" [")[0]
        where = prog[len(PROG):].strip()
        raise UsageError(f"{PROG}: error: {where + ': ' if where else ''}{message} (see '{prog} --help')")


def path_exists(arg: str) -> bool:
    """Path(arg).exists() without raising (a name too long, a NUL byte: no such file)."""
    from pathlib import Path

    try:
        return Path(arg).exists()
    except (OSError, ValueError):
        return False


def is_puzzle_argument(arg: str) -> bool:
    """True when a PUZZLE argument is a puzzle string rather than a file name: 16 or more
    puzzle characters and no such file."""
    return arg != "-" and re.fullmatch(r"[0-9A-Za-z._]{16,}", arg) is not None and not path_exists(arg)


def invoke(parser: argparse.ArgumentParser, argv: list[str], program: bool = False) -> int:
    """Parse and run one command line: every error one line on stderr, an exit status back.

    Signals end the run through the commands' clean-up (``signals``); a closed standard
    output ends it quietly; an unexpected exception is one line (``EXPLAIN_SUDOKU_DEBUG=1``
    shows its traceback instead)."""
    for name in ("stdout", "stderr"):
        if getattr(sys, name) is None:  # started with it closed (2>&-): what it would show is dropped
            setattr(sys, name, open(os.devnull, "w"))  # kept for the rest of the process
    stderr = sys.stderr
    sys.stderr = QuietStream(stderr)
    try:
        return _invoke(parser, argv, program)
    finally:
        if sys.stderr.__class__ is QuietStream:
            sys.stderr = stderr


class QuietStream:
    """Standard error that never stops the work: a message it cannot show (``2>/dev/full``, a
    closed terminal) is dropped, the stream pointed at /dev/null for the rest of the run (the
    workers that share it included), and the command goes on to its own status."""

    def __init__(self, stream: object) -> None:
        self._stream = stream

    def write(self, text: str) -> int:
        try:
            return int(self._stream.write(text))  # type: ignore[attr-defined]
        except (OSError, ValueError):
            self._drop()
            return len(text)

    def flush(self) -> None:
        try:
            self._stream.flush()  # type: ignore[attr-defined]
        except (OSError, ValueError):
            self._drop()

    def _drop(self) -> None:
        _discard(self._stream)
        try:  # what the stream still buffers went nowhere: forget it
            self._stream.flush()  # type: ignore[attr-defined]
        except (OSError, ValueError):
            pass

    def __getattr__(self, name: str) -> object:
        return getattr(self._stream, name)


def _invoke(parser: argparse.ArgumentParser, argv: list[str], program: bool) -> int:
    from . import signals

    with signals.handled(program):
        try:
            args = parser.parse_args(argv)
            status = int(args.run(args))
            sys.stdout.flush()  # a full disk shows here (status 3), not in Python's own exit
            return status
        except UsageError as e:
            print(str(e), file=sys.stderr)
            return EXIT_BAD_INPUT
        except SystemExit as e:  # --help / --version
            sys.stdout.flush()  # what --help printed, written now (a full disk: status 3 below)
            return e.code if isinstance(e.code, int) else (0 if e.code is None else EXIT_BAD_INPUT)
        except Exception as e:
            stop = signals.as_interruption(e)  # an error after a signal: the signal's doing
            if stop is None:
                return failed(e)
            if os.environ.get("EXPLAIN_SUDOKU_DEBUG"):
                raise
            return interrupted(stop)
        except KeyboardInterrupt as e:
            return interrupted(e)


def failed(e: Exception) -> int:
    """The one line and exit status of an exception that ended a command."""
    if isinstance(e, BrokenPipeError):
        return EXIT_OK if stdout_closed() else internal_error(e)
    if isinstance(e, MemoryError):
        error("out of memory")
        return EXIT_INTERNAL
    if isinstance(e, OSError) and e.errno in WRITE_FAILED:
        return write_failed(e)
    return internal_error(e)


def _errnos(*names: str) -> frozenset[int]:
    import errno

    return frozenset(getattr(errno, n) for n in names if hasattr(errno, n))


# a write that failed for want of room or of a working device: an output not written (status 3)
WRITE_FAILED = _errnos("ENOSPC", "EDQUOT", "EFBIG", "EIO")


def write_failed(e: OSError) -> int:
    """An output not written: one line and status 3. The files a command writes are named in
    their own errors (``OutputError``), so a failed write without a file name is standard
    output's (redirected to a full file system, ``> /dev/full``): what it still holds is
    dropped, so that Python's own flush at exit does not fail again."""
    if e.filename is None:
        _discard(sys.stdout)
    error(f"{e.filename or 'standard output'}: cannot write ({e.strerror or e})")
    return EXIT_OUTPUT


def _discard(stream: object) -> None:
    """Point ``stream``'s file descriptor at /dev/null (what it still buffers goes there)."""

    try:
        fd = stream.fileno()  # type: ignore[attr-defined]
        devnull = os.open(os.devnull, os.O_WRONLY)
        os.dup2(devnull, fd)
        os.close(devnull)
    except (AttributeError, ValueError, OSError):
        pass


def reported(work: Callable[[], int]) -> int:
    """``work()``'s exit status; bad input (a ``PuzzleError``, 2) or an output refused or not
    written (an ``OutputError``, 3) is one line on stderr instead."""
    from explainer.model.grid import PuzzleError

    from .output import OutputError

    try:
        return work()
    except PuzzleError as e:
        error(str(e))
        return EXIT_BAD_INPUT
    except OutputError as e:
        error(str(e))
        return EXIT_OUTPUT


def interrupted(e: KeyboardInterrupt) -> int:
    """One line for an interrupted run (and what it left, when the command said so); its status."""
    from . import signals

    name = e.name if isinstance(e, signals.Interrupted) else "SIGINT"
    note = getattr(e, "note", "")
    try:
        print(f"{PROG}: interrupted by {name}" + (f"; {note}" if note else ""), file=sys.stderr)
    except OSError:
        pass
    return signals.status_of(e)


def stdout_closed() -> bool:
    """True when standard output is a pipe whose reader has gone (``| head``); then it is
    pointed at /dev/null, so that nothing complains when the interpreter flushes it."""
    import select

    try:
        fd = sys.stdout.fileno()
        poller = select.poll()
        poller.register(fd, select.POLLOUT)
        gone = any(ev & (select.POLLERR | select.POLLHUP) for _, ev in poller.poll(0))
    except (AttributeError, ValueError, OSError):  # not a file (a test's StringIO), no poll
        return False
    if gone:
        _discard(sys.stdout)
    return gone


def internal_error(e: BaseException) -> int:
    """A bug: one line naming it (or the traceback with EXPLAIN_SUDOKU_DEBUG=1)."""

    if os.environ.get("EXPLAIN_SUDOKU_DEBUG"):
        raise e
    error(f"internal error: {type(e).__name__}: {e} (a bug: please report it with the command line; "
          f"EXPLAIN_SUDOKU_DEBUG=1 shows where)")
    return EXIT_INTERNAL


def run_alone(name: str, module: ModuleType, argv: Sequence[str] | None) -> int:
    """One command module run on its own (``explain-sudoku NAME ...`` without the dispatcher,
    which imports every command: a module calling it back would make an import cycle)."""
    args = list(sys.argv[1:] if argv is None else argv)
    if hasattr(module, "add_parser"):
        holder = Parser(prog="explain-sudoku")
        module.add_parser(holder.add_subparsers(dest="command", parser_class=Parser))
        args = [name, *args]
        parser: argparse.ArgumentParser = holder
    else:
        parser = Parser(prog=f"explain-sudoku {name}")
        module.configure(parser)
        parser.set_defaults(run=module.run)
    prepare = getattr(module, "prepare_argv", None)
    return invoke(parser, prepare(args) if prepare else args)
