"""``explain-sudoku solve FILE [--method ...]``: one solution line per puzzle.

A bad puzzle (unreadable, no solution, several solutions) prints one line
``FILE:LINE: message`` on stderr and is skipped; the others are still
solved and the exit status is 2 at the end. No traceback for bad input.
"""
from __future__ import annotations

import argparse
import sys

from .grid import PuzzleError, parse_grid, read_sources
from .solvers import ALL_METHODS, OPTIONAL_METHODS, MissingExtra, require, solve

EXIT_BAD_INPUT = 2


def build_parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(prog="explain-sudoku solve",
                                     description="Print the solution of each puzzle, one line per puzzle.")
    parser.add_argument("file", help="puzzle file ('-' for standard input)")
    parser.add_argument("--method", choices=ALL_METHODS, default="dlx",
                        help="dlx (dancing links, default), bitmask (fastest), backtracking, backtracking-mrv, "
                             "ortools, z3 (these two need the extra [solvers])")
    return parser


def main(argv: list[str]) -> int:
    args = build_parser().parse_args(argv)
    if args.method in OPTIONAL_METHODS:
        try:
            require(args.method)
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
            status = EXIT_BAD_INPUT
            continue
        print(solution.to_line(), flush=True)
    return status


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
