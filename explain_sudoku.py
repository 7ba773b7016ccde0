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


def main() -> int:
    for sig in ("SIGINT", "SIGTERM", "SIGHUP"):
        if hasattr(signal, sig):
            signal.signal(getattr(signal, sig), stop_at_once)
    from explainer.app.cli import main as run

    return run(program=True)


if __name__ == "__main__":
    sys.exit(main())
