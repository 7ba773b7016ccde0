"""``explain-sudoku solve FILE [--method ...]``: one solution line per puzzle.

Standard output has one line per puzzle of the file, in order: the solution,
or an empty line for a bad puzzle (so output line k is input puzzle k). A
bad puzzle (unreadable, no solution, several solutions) also prints one line
``FILE:LINE: message`` on stderr; the others are still solved and the exit
status is 2 at the end. No traceback for bad input.
"""
from __future__ import annotations

import argparse
import sys
from collections.abc import Sequence

from ..backends import MissingExtra, load
from ..grid import PuzzleError, parse_grid, read_sources
from ..solvers import ALL_METHODS, OPTIONAL_METHODS, solve
from .common import EXIT_BAD_INPUT, run_alone

HELP = "solve puzzles (one solution line per puzzle)"


def configure(parser: argparse.ArgumentParser) -> None:
    parser.description = ("Print the solution of each puzzle, one line per puzzle (an empty line for a bad "
                          "puzzle, whose error goes to stderr).")
    parser.add_argument("file", help="puzzle file ('-' for standard input)")
    parser.add_argument("--method", choices=ALL_METHODS, default="dlx",
                        help="dlx (dancing links, default), bitmask (fastest), backtracking, backtracking-mrv, "
                             "ortools, z3 (these two need the extra [solvers])")


def main(argv: Sequence[str] | None = None) -> int:
    return run_alone("solve", sys.modules[__name__], argv)


def run(args: argparse.Namespace) -> int:
    if args.method in OPTIONAL_METHODS:
        try:
            load(args.method)  # the back-end's module, or a one-line error naming the extra
        except MissingExtra as error:
            print(f"explain-sudoku: error: {error}", file=sys.stderr)
            return EXIT_BAD_INPUT
    try:
        sources = read_sources(args.file)
    except PuzzleError as error:
        print(error, file=sys.stderr)
        return EXIT_BAD_INPUT
    status = 0
    for source in sources:
        try:
            grid = parse_grid(source.text, source.where)
            solution = solve(grid, method=args.method, where=source.where)
        except PuzzleError as error:
            print(error.at(source.where), file=sys.stderr)
            print(flush=True)  # keep output line k for puzzle k
            status = EXIT_BAD_INPUT
            continue
        print(solution.to_line(), flush=True)
    return status


if __name__ == "__main__":
    sys.exit(main())
