"""``explain-sudoku generate``: new puzzles, one per line, each with a unique solution.

Targets (--difficulty, --technique, --rating ER range) are checked by the explanation engine.
For 9×9, medium, difficult and technique targets harden a puzzle by a
seeded local search (generator.harden), each evaluated candidate being one
try; other sizes, and easy, draw new puzzles until one meets the target.
Either way --max-tries bounds the work, and --time-limit the time (exit 1 with
a message): judging one 25×25 try can take minutes (244 s measured for one), so a
target on 25×25 gets a time limit by default. Progress goes to stderr when it is
a terminal.

Without --seed a seed is drawn and said on stderr, so a run can be repeated
(``--seed N`` gives the same puzzles again). A rating range no puzzle can have
is refused when the command is read.
"""
from __future__ import annotations

import argparse
import signal
import sys
from collections.abc import Callable, Iterator, Sequence
from contextlib import contextmanager

from explainer.app import generate as gen
from explainer.model.grid import SIZES
from explainer.model.rating import difficulty_bands

from .common import EXIT_NO, EXIT_OK, error, run_alone
from .options import integer, rating_range, real, technique_name

HELP = "generate puzzles with a difficulty or technique target"
LARGE_TARGET_SECONDS = 60.0  # the default --time-limit of a target on 25x25 (one try: minutes)
positive = integer(1, 10**9)
SEEDS = 2**63  # seeds are 0 .. 2**63-1 (a negative seed would repeat its absolute value's puzzles)
seed_number = integer(0, SEEDS - 1, name="--seed")
# ER (Sudoku Explainer's scale) that a puzzle can be rated: a single gives 1.0, and no explanation
# here rates above 12 (the hardest known puzzles rate about 11.9; hardest300's hardest step: 10.5).
ER_LOWEST, ER_HIGHEST = 1.0, 12.0
# What a generated puzzle can be rated: dug until its solution would no longer be unique, it always
# needs a hidden single (1.2) somewhere, never only full houses (1.0); nothing known rates above 11.9.
GEN_LOWEST, GEN_HIGHEST = 1.2, 11.9
TARGET_SECONDS = 120.0  # the default --time-limit of a target, per puzzle asked (9x9, 16x16)
REPEAT_SECONDS = 0.5  # the alarm again after --time-limit, until the run has stopped
PROGRESS_SECONDS = 10.0  # a progress line this often when stderr is not a terminal


def reachable_rating(text: str) -> tuple[float, float]:
    """An ER range that a generated puzzle can have: within ER_LOWEST..ER_HIGHEST (an open end,
    ``9-`` or ``-2``, runs to the scale's end), reaching GEN_LOWEST..GEN_HIGHEST somewhere. Refused
    when the command is read: a range nothing reaches would only run until --max-tries."""
    low, high = rating_range(text)
    if text.strip().startswith("-"):
        low = ER_LOWEST
    if text.strip().endswith("-"):
        high = ER_HIGHEST
    if low < ER_LOWEST or high > ER_HIGHEST or high < GEN_LOWEST or low > GEN_HIGHEST:
        raise argparse.ArgumentTypeError(
            f"no generated puzzle is rated {text}: ask for LOW-HIGH within {ER_LOWEST:g}-{ER_HIGHEST:g}, with HIGH "
            f"at least {GEN_LOWEST:g} (every generated puzzle needs a hidden single) and LOW at most "
            f"{GEN_HIGHEST:g} (the hardest known puzzles), e.g. 7.0-8.5")
    return low, high


def target_technique(text: str) -> str:
    """A known technique that a puzzle can be built to need: not one of the guessing ones."""
    from techniques import guessing_names, lookup

    guessing = guessing_names()
    name = technique_name(text)
    t = lookup(name)
    if any(k in guessing for k in t.produces) or name.strip().lower() in guessing:
        raise argparse.ArgumentTypeError(f"{text!r} is guessing; a target must be a technique used without "
                                         f"guessing (not {', '.join(guessing)})")
    return name


# The difficulty classes are bands of ER (explainer.model.rating.DIFFICULTY_BANDS): each is a target.
REACHABLE = gen.DIFFICULTIES


def reachable_difficulty(text: str) -> str:
    if text not in gen.DIFFICULTIES:
        raise argparse.ArgumentTypeError(f"invalid choice: {text!r} (choose from {', '.join(REACHABLE)})")
    return text


def configure(parser: argparse.ArgumentParser) -> None:
    parser.description = "Generate puzzles with a unique solution, one per line."
    parser.add_argument("--size", type=int, choices=SIZES, default=9, help="side of the grid (default 9)")
    parser.add_argument("--count", type=positive, default=1, help="how many puzzles (default 1)")
    parser.add_argument("--seed", type=seed_number, default=None,
                        help="random seed, 0 or more: the same seed gives the same puzzles (default: a new seed "
                             "each run, printed on stderr so the run can be repeated)")
    parser.add_argument("--difficulty", type=reachable_difficulty, metavar="{" + ",".join(REACHABLE) + "}",
                        help=f"the engine's difficulty class to reach, a band of ER: {difficulty_bands()}")
    parser.add_argument("--rating", type=reachable_rating, metavar="LOW-HIGH",
                        help=f"ER (Sudoku Explainer's scale, {ER_LOWEST:g} to about {ER_HIGHEST:g}) to reach, "
                             "e.g. 7.0-8.5")
    parser.add_argument("--technique", type=target_technique,
                        help="a technique the explanation must use, without guessing (e.g. swordfish); "
                             "checked when the command is read")
    parser.add_argument("--symmetry", choices=gen.SYMMETRIES, default="none", help="symmetry of the givens")
    parser.add_argument("--dig", choices=gen.DIG_ORDERS, default="random", help="order in which cells are dug")
    parser.add_argument("--max-tries", type=positive, default=5000,
                        help="candidates tried per output puzzle (default 5000). For 9x9 a medium, rating or "
                             "technique target hardens a puzzle step by step (each step one try); other sizes "
                             "and easy draw whole new puzzles, which is slow for 16x16/25x25 targets")
    parser.add_argument("--time-limit", type=real(0, open_low=True), metavar="SECONDS", default=None,
                        help=f"stop after this many seconds in all (exit 1, the puzzles made so far kept on "
                             f"stdout; default: none without a target; with one {TARGET_SECONDS:g} s per puzzle "
                             f"asked, or {LARGE_TARGET_SECONDS:g} s in all on 25x25, where judging one try can "
                             f"take minutes)")
    parser.epilog = ("exit status: 0 every puzzle made; 1 no puzzle met the target within --max-tries or "
                     "--time-limit; "
                     "2 a bad option; a closed output (| head) ends quietly")


def progress_printer(count: int) -> Callable[[int], None]:
    """Show 'puzzle i/count, try k' on stderr: on a terminal at every try, else one line every
    PROGRESS_SECONDS (a long search in a log or a pipe says it is alive)."""
    import time

    tty = sys.stderr.isatty()
    state = {"puzzle": 0, "start": time.monotonic(), "next": time.monotonic() + PROGRESS_SECONDS}

    def show(attempt: int) -> None:
        if attempt == 1:
            state["puzzle"] += 1
        if tty:
            print(f"\rpuzzle {state['puzzle']}/{count}, try {attempt}   ", end="", file=sys.stderr, flush=True)
            return
        now = time.monotonic()
        if now >= state["next"]:
            state["next"] = now + PROGRESS_SECONDS
            print(f"explain-sudoku generate: puzzle {state['puzzle']}/{count}, try {attempt}, "
                  f"{now - state['start']:.0f} s", file=sys.stderr, flush=True)

    return show


class TimeUp(Exception):
    """--time-limit is reached (raised from SIGALRM's handler, between two Python bytecodes)."""


@contextmanager
def time_limit(seconds: float | None) -> Iterator[None]:
    """Raise TimeUp in the body after ``seconds`` (a wall-clock timer; none where there is no
    SIGALRM, or with ``None``)."""
    if seconds is None or not hasattr(signal, "setitimer"):
        yield
        return

    def up(signum: int, frame: object) -> None:
        raise TimeUp

    previous = signal.signal(signal.SIGALRM, up)
    # and again every REPEAT_SECONDS: a TimeUp raised where Python swallows it (a generator being
    # closed, a __del__) must not leave the run unbounded until --max-tries
    signal.setitimer(signal.ITIMER_REAL, seconds, REPEAT_SECONDS)
    try:
        yield
    finally:
        signal.setitimer(signal.ITIMER_REAL, 0)
        signal.signal(signal.SIGALRM, previous)


def main(argv: Sequence[str] | None = None) -> int:
    return run_alone("generate", sys.modules[__name__], argv)


def run(args: argparse.Namespace) -> int:
    goal = gen.engine_goal(args.difficulty, args.technique, args.rating)
    accept = gen.engine_target(args.difficulty, args.technique, args.rating) if goal is None else None
    target = gen.describe_target(args.difficulty, args.technique, args.rating)
    show = progress_printer(args.count)
    made = 0
    seed = args.seed
    if seed is None:
        import secrets

        seed = secrets.randbelow(10**9)  # short enough to type again
        print(f"explain-sudoku generate: seed {seed} (--seed {seed} repeats this run)", file=sys.stderr)
    limit = args.time_limit
    if limit is None and (goal is not None or accept is not None):  # a target: bounded by default
        limit = LARGE_TARGET_SECONDS if args.size >= 25 else TARGET_SECONDS * args.count
    try:
        with time_limit(limit):
            for puzzle in gen.generate_many(args.size, args.count, seed, dig=args.dig, symmetry=args.symmetry,
                                            accept=accept, goal=goal, max_tries=args.max_tries, target=target,
                                            on_try=show):
                print(puzzle.to_line(), flush=True)
                made += 1
    except TimeUp:
        if sys.stderr.isatty():
            print(file=sys.stderr)
        error(f"generate: no puzzle met the target ({target}) in {limit:g} s; raise --time-limit or choose an "
              f"easier target (made {made} of {args.count})")
        return EXIT_NO
    except gen.GenerationFailed as failure:
        if sys.stderr.isatty():
            print(file=sys.stderr)
        error(f"generate: {failure} (made {made} of {args.count})")
        return EXIT_NO
    if sys.stderr.isatty():
        print(file=sys.stderr)
    return EXIT_OK


if __name__ == "__main__":
    sys.exit(main())
