"""``explain-sudoku generate``: new puzzles, one per line, each with a unique solution.

Targets (--difficulty, --technique, --rating ER range) are checked by the explanation engine.
For 9×9, medium, difficult and technique targets harden a puzzle by a
seeded local search (generator.harden), each evaluated candidate being one
try; other sizes, and easy, draw new puzzles until one meets the target.
Either way --max-tries bounds the work (exit 1 with a message). Progress
goes to stderr when it is a terminal.
"""
from __future__ import annotations

import argparse
import sys
from collections.abc import Callable, Sequence

from ..generate import (
    DIFFICULTIES,
    DIG_ORDERS,
    SYMMETRIES,
    GenerationFailed,
    describe_target,
    engine_goal,
    engine_target,
    generate_many,
)
from ..grid import SIZES
from ..rating import difficulty_bands
from .common import integer, rating_range, run_alone, technique_name

EXIT_FAILED = 1
HELP = "generate puzzles with a difficulty or technique target"
positive = integer(1, 10**9)


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


# The difficulty classes are bands of ER (explainer.rating.DIFFICULTY_BANDS): each is a target.
REACHABLE = DIFFICULTIES


def reachable_difficulty(text: str) -> str:
    if text not in DIFFICULTIES:
        raise argparse.ArgumentTypeError(f"invalid choice: {text!r} (choose from {', '.join(REACHABLE)})")
    return text


def configure(parser: argparse.ArgumentParser) -> None:
    parser.description = "Generate puzzles with a unique solution, one per line."
    parser.add_argument("--size", type=int, choices=SIZES, default=9, help="side of the grid (default 9)")
    parser.add_argument("--count", type=positive, default=1, help="how many puzzles (default 1)")
    parser.add_argument("--seed", type=integer(), default=1,
                        help="random seed: the same seed gives the same puzzles")
    parser.add_argument("--difficulty", type=reachable_difficulty, metavar="{" + ",".join(REACHABLE) + "}",
                        help=f"the engine's difficulty class to reach, a band of ER: {difficulty_bands()}")
    parser.add_argument("--rating", type=rating_range, metavar="LOW-HIGH",
                        help="ER (Sudoku Explainer's scale) to reach, e.g. 7.0-8.5")
    parser.add_argument("--technique", type=target_technique,
                        help="a technique the explanation must use, without guessing (e.g. swordfish); "
                             "checked when the command is read")
    parser.add_argument("--symmetry", choices=SYMMETRIES, default="none", help="symmetry of the givens")
    parser.add_argument("--dig", choices=DIG_ORDERS, default="random", help="order in which cells are dug")
    parser.add_argument("--max-tries", type=positive, default=5000,
                        help="candidates tried per output puzzle (default 5000). For 9x9 a medium, rating or "
                             "technique target hardens a puzzle step by step (each step one try); other sizes "
                             "and easy draw whole new puzzles, which is slow for 16x16/25x25 targets")


def progress_printer(count: int) -> Callable[[int], None]:
    """Show 'puzzle i/count, try k' on stderr, only on a terminal."""
    if not sys.stderr.isatty():
        return lambda attempt: None
    state = {"puzzle": 0}

    def show(attempt: int) -> None:
        if attempt == 1:
            state["puzzle"] += 1
        print(f"\rpuzzle {state['puzzle']}/{count}, try {attempt}   ", end="", file=sys.stderr, flush=True)

    return show


def main(argv: Sequence[str] | None = None) -> int:
    return run_alone("generate", sys.modules[__name__], argv)


def run(args: argparse.Namespace) -> int:
    goal = engine_goal(args.difficulty, args.technique, args.rating)
    accept = engine_target(args.difficulty, args.technique, args.rating) if goal is None else None
    target = describe_target(args.difficulty, args.technique, args.rating)
    show = progress_printer(args.count)
    made = 0
    try:
        for puzzle in generate_many(args.size, args.count, args.seed, dig=args.dig, symmetry=args.symmetry,
                                    accept=accept, goal=goal, max_tries=args.max_tries, target=target, on_try=show):
            print(puzzle.to_line(), flush=True)
            made += 1
    except GenerationFailed as failure:
        if sys.stderr.isatty():
            print(file=sys.stderr)
        print(f"explain-sudoku generate: {failure} (made {made} of {args.count})", file=sys.stderr)
        return EXIT_FAILED
    except ImportError as missing:
        print(f"explain-sudoku generate: targets need the explanation engine ({missing})", file=sys.stderr)
        return EXIT_FAILED
    if sys.stderr.isatty():
        print(file=sys.stderr)
    return 0


if __name__ == "__main__":
    sys.exit(main())
