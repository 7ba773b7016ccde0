"""explain-sudoku hint: a progressive hint for a grid you are stuck on.

The grid is checked first: a value that is not the solution's, or a true
candidate removed from the pencil marks, is named ("r1c7: 9 was removed but
the solution needs it"), exit status 1, and no hint is given. A grid with no
or several solutions gets the same one-line errors as ``explain`` (status 2).
"""
from __future__ import annotations

import argparse
import sys
from collections.abc import Sequence
from pathlib import Path

from explainer.model.grid import PuzzleError, read_text

from .common import EXIT_BAD_INPUT, EXIT_NO, EXIT_OK, EXIT_OUTPUT, error, is_puzzle_argument, run_alone
from .options import add_lang_option, add_order_option, add_out_options, add_theme_option, integer
from .output import OutputError, OutputFolder

HELP = "a progressive hint for a grid you are stuck on"


def configure(p: argparse.ArgumentParser) -> None:
    p.description = ("A progressive hint for the next step from where you are: the simplest step available "
                     "there. The input may be a "
                     "puzzle line, a partly solved grid, or a pencil-mark grid (the 729-character "
                     "candidates line or the multi-line layout HoDoKu and Sudoku Explainer print). "
                     "The grid is checked against the solution first: a mistake is named and no hint "
                     "is given (exit status 1).")
    p.add_argument("puzzle", help="file holding the grid ('-' for standard input), or a puzzle line")
    p.add_argument("--level", type=integer(1, 3, name="--level"), default=1, metavar="{1,2,3}",
                   help="1: the technique only; 2: plus the house and value to look at; "
                        "3: the whole step and its frame (default 1)")
    p.add_argument("--puzzle", dest="original", metavar="LINE",
                   help="the original puzzle (line or file): the grid is checked against its solution "
                        "(default: the values of the grid are taken as the givens)")
    add_out_options(p, "folder for the level-3 frame (default output/hint)",
                    "write the frame into a folder holding other files (they are never changed)")
    add_lang_option(p, "language of the hint")
    add_theme_option(p, "colour theme of the level-3 frame")
    add_order_option(p, "which step the hint gives: 'simplest' (the default) the simplest step available from "
                        "your position (the lowest rating on Sudoku Explainer's scale, never a guess), the one "
                        "'explain-sudoku' would take there; 'seed' the first technique, in the registry's order, "
                        "that has a step")


def _input_text(arg: str) -> tuple[str, str]:
    """The one grid of a file, of standard input or of the argument (a file of several
    puzzle lines is refused: which one the learner is solving cannot be guessed)."""
    if is_puzzle_argument(arg):
        return arg, "<argument>"
    text, name = read_text(arg)
    lines = [ln for ln in text.splitlines() if not ln.lstrip().startswith("#")]
    text = "\n".join(lines).strip()
    if not text:
        raise PuzzleError("no grid in file (empty or only comments)", name)
    if "\n" in text and not _is_one_grid(text):
        count = len([ln for ln in text.splitlines() if ln.strip()])
        raise PuzzleError(f"{count} puzzles in the file; a hint is for one grid (put the one you are solving "
                          f"in a file of its own, or give its line)", name)
    return text, name


def main(argv: Sequence[str] | None = None) -> int:
    return run_alone("hint", sys.modules[__name__], argv)


def run(args: argparse.Namespace) -> int:
    from explainer.app.hints import GridMistake, hint

    try:
        text, where = _input_text(args.puzzle)
        original = None if args.original is None else _original(args.original, text, where)
        h = hint(text, args.level, args.lang, where, puzzle=original, order=args.order)
    except GridMistake as e:
        error(e)
        return EXIT_NO
    except (PuzzleError, ValueError) as e:
        error(e)
        return EXIT_BAD_INPUT
    print(h.text)
    if args.level == 3 and h.step is not None:
        from render.frame import step_png
        from techniques import known_kinds

        out = Path(args.out) if args.out else Path("output") / "hint"
        path = out / "hint.png"
        try:
            with OutputFolder(out, args.force, tool="explain-sudoku hint", announce=False).open() as folder:
                folder.guard(path)
                path.write_bytes(step_png(h.state, h.step, theme=args.theme, lang=args.lang, kinds=known_kinds()))
                folder.record([path])
        except OutputError as e:
            error(e)
            return EXIT_OUTPUT
        except OSError as e:
            error(f"{path}: cannot write ({e.strerror or e})")
            return EXIT_OUTPUT
        print(f"frame: {path}")
    return EXIT_OK


def _original(arg: str, grid: str, where: str) -> str:
    """The ``--puzzle`` text, checked on its own first (its errors name ``--puzzle``, not the
    grid), then against the grid: a given of the puzzle the grid does not hold means the grid is
    not from that puzzle (rather than a learner's mistake in every cell)."""
    from explainer.app.allsteps import read_position
    from explainer.model.grid import parse_grid, value_char

    try:
        original, name = _input_text(arg)
        if "\n" in original and not _is_one_grid(original):
            original = original.splitlines()[0].strip()
        givens = parse_grid(original)
    except PuzzleError as e:
        named = "--puzzle" if not e.where or e.where == "<argument>" else f"--puzzle {e.where}"
        raise PuzzleError(e.message, named) from None
    try:
        values = read_position(grid, where).state.values
    except PuzzleError:
        return original  # the grid's own error is said by hint()
    n = givens.n
    if len(values) != len(givens.values):
        raise PuzzleError(f"this grid is not from that puzzle ({n}×{n} puzzle, another size of grid)", where)
    for c, v in enumerate(givens.values):
        if v and values[c] != v:
            held = f"holds {value_char(values[c])}" if values[c] else "is empty"
            raise PuzzleError(f"this grid is not from that puzzle (--puzzle): r{c // n + 1}c{c % n + 1} {held} where "
                              f"the puzzle gives {value_char(v)}", where)
    return original


def _is_one_grid(text: str) -> bool:
    """True unless the text is several one-line puzzles."""
    lines = [ln.strip() for ln in text.splitlines() if ln.strip()]
    # a line longer than a 25×25 grid's row is a puzzle of its own, even a damaged one (80 cells)
    return not (len(lines) > 1 and all((len(ln) in (16, 81, 256, 625) or len(ln) > 25) and " " not in ln
                                       for ln in lines))


if __name__ == "__main__":
    sys.exit(main())
