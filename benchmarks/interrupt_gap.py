"""How long a signal (Ctrl-C, generate's --time-limit) can wait: the longest stretch without Python bytecode.

    python benchmarks/interrupt_gap.py [--seconds 20] [--seeds 1 2 3] -- GENERATE-OPTIONS
    python benchmarks/interrupt_gap.py -- --rating 11.8-11.9          # the default

A signal handler runs only between two Python bytecodes, so a long call into the compiled core
delays Ctrl-C and the alarm that ends ``generate --time-limit``. A CPU timer (ITIMER_VIRTUAL,
every 50 ms of CPU) notes when its handler last ran; the longest interval between two runs is the
longest uninterruptible stretch. For each seed the script runs ``explain-sudoku generate OPTIONS
--seed S --time-limit SECONDS`` in this process and prints its exit status, wall time and that
longest stretch (issue 42 item 3: the time bound of a 9×9 rating target holds within it).
"""
from __future__ import annotations

import argparse
import contextlib
import io
import signal
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from explainer.app.cli import main  # noqa: E402

TICK = 0.05


def longest_stretch(argv: list[str]) -> tuple[int, float, float]:
    """(exit status, wall seconds, longest seconds between two timer handler runs) of one run."""
    last, gap = [time.monotonic()], [0.0]

    def tick(signum: int, frame: object) -> None:
        now = time.monotonic()
        gap[0] = max(gap[0], now - last[0])
        last[0] = now

    previous = signal.signal(signal.SIGVTALRM, tick)
    signal.setitimer(signal.ITIMER_VIRTUAL, TICK, TICK)
    start = last[0] = time.monotonic()
    try:
        with contextlib.redirect_stdout(io.StringIO()):
            status = main(argv)
    finally:
        signal.setitimer(signal.ITIMER_VIRTUAL, 0)
        signal.signal(signal.SIGVTALRM, previous)
    return status, time.monotonic() - start, gap[0]


def run() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--seconds", type=float, default=20.0, help="generate's --time-limit (default 20)")
    parser.add_argument("--seeds", type=int, nargs="+", default=[1, 2, 3], help="seeds, one run each")
    parser.add_argument("options", nargs="*", help="generate's options after --, default --rating 11.8-11.9")
    args = parser.parse_args()
    options = args.options or ["--rating", "11.8-11.9"]
    print(f"generate {' '.join(options)} --time-limit {args.seconds:g}; CPU timer every {TICK * 1000:g} ms")
    for seed in args.seeds:
        status, wall, gap = longest_stretch(["generate", *options, "--seed", str(seed),
                                             "--time-limit", str(args.seconds)])
        print(f"seed {seed}: exit {status}, wall {wall:.1f} s, longest stretch without a signal check "
              f"{gap:.2f} s", flush=True)


if __name__ == "__main__":
    run()
