"""``explain-sudoku solve FILE [--method ...]``: one solution line per puzzle.

Standard output has one line per puzzle of the file, in order: the solution,
or an empty line for a bad puzzle (so output line k is input puzzle k). A
bad puzzle (unreadable, no solution, several solutions) also prints one line
``explain-sudoku: error: FILE:LINE: message`` on stderr; the others are still
solved and the exit status is 2 at the end. No traceback for bad input.

The two backtracking methods are bounded: past ``--max-nodes`` search nodes
(default 1,000,000: seconds) a puzzle is given up with one line, an empty
output line and exit status 1 (a 16×16 puzzle can take them longer than anyone
waits; dlx and bitmask solve any puzzle at once).
"""
from __future__ import annotations

import argparse
import sys
from collections.abc import Sequence

from explainer.app.backends import MissingExtra, load
from explainer.app.solvers import ALL_METHODS, OPTIONAL_METHODS, solve
from explainer.core.solver import SearchLimit
from explainer.model.grid import PuzzleError, parse_grid, read_sources

from .common import EXIT_BAD_INPUT, EXIT_NO, EXIT_OK, error, run_alone
from .options import integer

BOUNDED = ("backtracking", "backtracking-mrv")
MAX_NODES = 1_000_000

HELP = "solve puzzles (one solution line per puzzle)"


def configure(parser: argparse.ArgumentParser) -> None:
    parser.description = ("Print the solution of each puzzle, one line per puzzle (an empty line for a bad "
                          "puzzle, whose error goes to stderr).")
    parser.add_argument("file", help="puzzle file ('-' for standard input)")
    parser.add_argument("--method", choices=ALL_METHODS, default="dlx",
                        help="dlx (dancing links, default), bitmask (fastest), backtracking, backtracking-mrv, "
                             "ortools, z3 (these two need the extra [solvers])")
    parser.add_argument("--max-nodes", type=integer(1, 10**12, name="--max-nodes"), default=MAX_NODES, metavar="N",
                        help=f"backtracking methods: give a puzzle up after N search nodes (default {MAX_NODES:,}, "
                             "some seconds; exit status 1)")
    parser.epilog = ("exit status: 0 every puzzle solved; 2 a bad puzzle (no or several solutions, unreadable); "
                     "1 a backtracking method gave up (--max-nodes); a closed output (| head) ends quietly")


def main(argv: Sequence[str] | None = None) -> int:
    return run_alone("solve", sys.modules[__name__], argv)


def run(args: argparse.Namespace) -> int:
    if args.method in OPTIONAL_METHODS:
        try:
            load(args.method)  # the back-end's module, or a one-line error naming the extra
        except MissingExtra as e:
            error(e)
            return EXIT_BAD_INPUT
    try:
        sources = read_sources(args.file)
    except PuzzleError as e:
        error(e)
        return EXIT_BAD_INPUT
    bad = gave_up = 0
    budget = args.max_nodes if args.method in BOUNDED else None
    for source in sources:
        try:
            grid = parse_grid(source.text, source.where)
            solution = solve(grid, method=args.method, where=source.where, max_nodes=budget)
        except PuzzleError as e:
            error(e.at(source.where))
            print(flush=True)  # keep output line k for puzzle k
            bad += 1
            continue
        except SearchLimit:
            error(f"{source.where}: {args.method} gave up after {budget:,} search nodes (--max-nodes); "
                  f"dlx or bitmask solve any puzzle at once")
            print(flush=True)
            gave_up += 1
            continue
        print(solution.to_line(), flush=True)
    return EXIT_BAD_INPUT if bad else EXIT_NO if gave_up else EXIT_OK


if __name__ == "__main__":
    sys.exit(main())
