"""``explain-sudoku rate FILE``: Sudoku Explainer's ER / EP / ED of each puzzle, fast.

One line per puzzle of the file, in order: ``puzzle<TAB>ER<TAB>EP<TAB>ED`` as
Sukaku Explainer 1.15.10's ``serate`` prints them (``--classic``: Sudoku
Explainer 1.2.1.3's), or with ``--json`` one object a line with the keys
``puzzle``, ``er``, ``ep``, ``ed``. The puzzle is written as 81 characters, ``.``
for an empty cell. Nothing is explained beyond what the rating needs
(``explainer.rate``: the ``se`` order's path with bare steps). A line may
carry more fields after its puzzle (a rating, a comment: SE's own output,
rated lists): they are ignored.

A bad puzzle (unreadable, no or several solutions, not 9×9: SE rates only
valid 9×9 puzzles) is one line ``explain-sudoku: error: FILE:LINE: message``
on stderr (with ``--json`` also an object whose ``error`` says it, the
ratings null); the other puzzles are still rated and the exit status is 2 at
the end. ``--jobs N`` rates in N worker processes (the output keeps the
file's order). A progress bar goes to stderr on a terminal (``--progress``
/ ``--no-progress``).
"""
from __future__ import annotations

import argparse
import json
import sys
from collections.abc import Iterator, Sequence

from explainer.model.grid import PuzzleError, Source, one_line, parse_grid

from .common import EXIT_BAD_INPUT, EXIT_OK, error, is_puzzle_argument, run_alone
from .options import add_progress_options, integer

HELP = "Sudoku Explainer's ER/EP/ED of each puzzle (one line per puzzle)"
# puzzles handed to a worker at a time (a few: the output keeps up with the input)
CHUNK = 4


def configure(parser: argparse.ArgumentParser) -> None:
    parser.description = (
        "Rate each puzzle on Sudoku Explainer's scale, as Sukaku Explainer 1.15.10's serate does (its default "
        "settings; the rater of the Sudoku Exchange bank): one line 'puzzle<TAB>ER<TAB>EP<TAB>ED' per puzzle, "
        "in the file's order. ER is the hardest step of SE's own path, EP the hardest up to its first "
        "placement, ED its first step; 20.0 when SE's techniques cannot finish. Nothing is explained beyond "
        "what the rating needs.")
    parser.add_argument("file", help="puzzle file ('-' for standard input), or a puzzle string; a line may "
                                     "carry more fields after its puzzle (ignored)")
    parser.add_argument("--classic", action="store_true",
                        help="classic Sudoku Explainer 1.2.1.3's ratings (gsf's serate: the forum's classic "
                             "lists) instead of Sukaku Explainer 1.15.10's")
    parser.add_argument("--json", action="store_true",
                        help="one JSON object a line: puzzle, er, ep, ed (and error for a bad puzzle)")
    parser.add_argument("--jobs", "-j", type=integer(1, 1024, name="--jobs"), default=1, metavar="N",
                        help="worker processes (default 1; the output keeps the file's order)")
    add_progress_options(parser, "progress bar on stderr even when it is not a terminal")
    parser.epilog = ("exit status: 0 every puzzle rated; 2 a bad puzzle (unreadable, no or several solutions, "
                     "not 9×9: its error on stderr, the others still rated); a closed output (| head) ends "
                     "quietly. Library: explainer.rate(puzzle) returns the same ER, EP and ED.")


def main(argv: Sequence[str] | None = None) -> int:
    return run_alone("rate", sys.modules[__name__], argv)


def puzzle_text(text: str) -> str:
    """The puzzle of a line that may carry more fields after it ('PUZZLE 8.3', SE's tab-separated
    output): its first field when that field is a whole puzzle, else the whole text."""
    field = text.split(None, 1)[0] if text.strip() else text
    if field != text:
        try:
            parse_grid(field)
        except PuzzleError:
            return text
        return field
    return text


def rate_one(task: tuple[str, str, bool]) -> tuple[str, tuple[float, float, float] | None, str]:
    """(puzzle line, ratings or None, error message) of one source (runs in a worker too)."""
    from explainer.api import rate

    text, where, classic = task
    text = puzzle_text(text)
    try:
        grid = parse_grid(text, where)
        r = rate(grid, classic=classic, where=where)
    except PuzzleError as e:
        return one_line(text.strip()), None, str(e.at(where))
    return grid.to_line(), (r.er, r.ep, r.ed), ""


def _ratings(sources: list[Source], classic: bool, jobs: int
             ) -> Iterator[tuple[str, tuple[float, float, float] | None, str]]:
    tasks = [(s.text, s.where, classic) for s in sources]
    if jobs <= 1 or len(tasks) <= 1:
        for task in tasks:
            yield rate_one(task)
        return
    import multiprocessing as mp

    ctx = mp.get_context("fork") if "fork" in mp.get_all_start_methods() else mp.get_context()
    with ctx.Pool(min(jobs, len(tasks))) as pool:
        yield from pool.imap(rate_one, tasks, chunksize=CHUNK)


def run(args: argparse.Namespace) -> int:
    from explainer.model.grid import read_sources, split_sources

    from .explain import progress_bar

    try:
        sources = split_sources(args.file, "<argument>") if is_puzzle_argument(args.file) else read_sources(args.file)
    except PuzzleError as e:
        error(e)
        return EXIT_BAD_INPUT
    bad = 0
    bar = progress_bar(len(sources), args.progress, "rating")
    try:
        for line, ratings, problem in _ratings(sources, args.classic, args.jobs):
            if ratings is None:
                bad += 1
                message = one_line(f"explain-sudoku: error: {problem}")
                (bar.write if bar else print)(message, file=sys.stderr)
                if args.json:
                    print(json.dumps({"puzzle": line, "er": None, "ep": None, "ed": None, "error": problem}),
                          flush=True)
            elif args.json:
                er, ep, ed = ratings
                print(json.dumps({"puzzle": line, "er": er, "ep": ep, "ed": ed}), flush=True)
            else:
                print(f"{line}\t{ratings[0]:.1f}\t{ratings[1]:.1f}\t{ratings[2]:.1f}", flush=True)
            if bar:
                bar.update(1)
    finally:
        if bar:
            bar.close()
        sys.stdout.flush()
    return EXIT_BAD_INPUT if bad else EXIT_OK


if __name__ == "__main__":
    sys.exit(main())
