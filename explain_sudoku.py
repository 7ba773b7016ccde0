"""The ``explain-sudoku`` program (the console script): signals are handled from its first instant.

Importing the package takes a moment; a Ctrl-C (or ``kill``) that arrives
meanwhile ends the program with one line and the usual status (130, 143,
129) instead of a traceback from the import machinery. Nothing has been
written yet then. Once the command runs, ``explainer.app.cli.signals`` takes
over (clean-up, manifest, workers). This module imports nothing of the
package before its handler is in place.
"""
from __future__ import annotations

import os
import signal
import sys
from types import FrameType


def stop_at_once(signum: int, frame: FrameType | None) -> None:
    """End the process now with one line and 128 + the signal (nothing to clean up yet, or any more)."""
    try:
        name = signal.Signals(signum).name
    except ValueError:
        name = f"signal {signum}"
    os.write(2, f"explain-sudoku: interrupted by {name}\n".encode())
    os._exit(128 + signum)


def keep_freed_memory() -> None:
    """Let glibc's malloc serve blocks up to 32 MB from its heap and keep up to 64 MB freed
    there, for this process and the workers it forks (issue 43). By default it maps each block
    above a threshold afresh and gives the top of its heap back at once, so every frame's
    pixels (received from a worker, reduced, quantised) were new pages for the kernel to zero
    and fault in: examples/16x16-hard.txt's frames made 416 K page faults and 1.55 CPU s in
    the kernel in the process receiving them, 35 K and 0.63 s with these thresholds. Other C
    libraries have no ``mallopt``: nothing is changed there."""
    try:
        import ctypes

        mallopt = ctypes.CDLL(None).mallopt
    except (ImportError, OSError, AttributeError):
        return
    m_trim_threshold, m_mmap_threshold = -1, -3  # malloc.h
    mallopt(m_mmap_threshold, 32 << 20)
    mallopt(m_trim_threshold, 64 << 20)


def one_blas_thread() -> None:
    """Keep numpy's OpenBLAS to one thread unless the user chose otherwise. The program does no
    linear algebra large enough to share out (matplotlib's 3 x 3 transforms, small arrays), but
    OpenBLAS starts a thread per core at import and each of them spins for a while after every
    call: 4 % of the CPU of drawing the seed's frames was ``blas_thread_server`` (a native
    profile), and a run of the seed cost 0.08 to 0.1 CPU s less with one thread (median of 6,
    whole process). Set before numpy is first imported, as OpenBLAS reads it then."""
    os.environ.setdefault("OPENBLAS_NUM_THREADS", "1")


def main() -> int:
    for sig in ("SIGINT", "SIGTERM", "SIGHUP"):
        if hasattr(signal, sig):
            signal.signal(getattr(signal, sig), stop_at_once)
    keep_freed_memory()
    one_blas_thread()
    from explainer.app.cli import main as run

    return run(program=True)


if __name__ == "__main__":
    sys.exit(main())
