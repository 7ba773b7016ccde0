"""``explain-sudoku [explain] PUZZLE``: explain puzzles from a file and write frames, a GIF and steps.json.

The default command: ``explain-sudoku PUZZLE ...`` is ``explain-sudoku
explain PUZZLE ...``. Bad input never shows a traceback: one line that says
what and where, exit status 2, and the other puzzles of the file are still
explained. The output folder is guarded by its manifest (cli/output.py):
files that are not ours are never changed or deleted.
"""
from __future__ import annotations

import argparse
import hashlib
import json
import sys
from collections.abc import Callable, Sequence
from pathlib import Path
from typing import TYPE_CHECKING, Any

from explainer.model.grid import PuzzleError, Source, one_line, read_sources, split_sources

from .common import (
    EXIT_BAD_INPUT,
    EXIT_OK,
    Parser,
    UsageError,
    is_puzzle_argument,
    reported,
    run_alone,
)
from .options import (
    add_order_option,
    add_out_options,
    add_progress_options,
    add_render_options,
    add_techniques_option,
    file_name,
    render_options,
)
from .output import MANIFEST, OutputError, OutputFolder, safe_component
from .signals import as_interruption

if TYPE_CHECKING:  # the types only: explaining imports the library, drawing render, when they run
    from explainer.api import Puzzle
    from render.job import Written
    from render.options import RenderOptions

HELP = "explain puzzles: frames, contact sheet, GIF and steps.json (the default command)"
OTHER_COMMANDS = {
    "explain": "explain puzzles (the default: 'explain-sudoku PUZZLE' is 'explain-sudoku explain PUZZLE')",
    "solve": "solve puzzles (one solution line per puzzle)",
    "generate": "generate puzzles with a difficulty or technique target",
    "hint": "a progressive hint for a grid you are stuck on",
    "db": "build, rate, query and export a database of explained puzzles",
    "steps": "every step each technique finds in a position (HoDoKu library lines too)",
    "rate": "Sudoku Explainer's ER/EP/ED of each puzzle (one line per puzzle)",
    "serve": "the learner's page: play a grid in your browser, with checks and hints drawn on it",
}

def build_parser() -> argparse.ArgumentParser:
    p = Parser(prog="explain-sudoku")
    configure(p)
    return p


def configure(p: argparse.ArgumentParser) -> None:
    sub = "\n".join(f"  explain-sudoku {name:<9} {desc}" for name, desc in OTHER_COMMANDS.items())
    p.usage = ("explain-sudoku [explain] PUZZLE [options]   |   "
               "explain-sudoku {solve,generate,hint,db,steps,rate,serve} ...")
    p.formatter_class = argparse.RawDescriptionHelpFormatter
    p.description = (
            "Explain how to solve Sudoku puzzles one human step at a time, and draw each step.\n\n"
            "PUZZLE is a file ('-' for standard input) holding one puzzle per line (81 characters\n"
            "for 9x9; '.', '0' or '_' for empty cells; values above 9 as letters A..P) or one\n"
            "multi-line grid ('|', '-', '+', '*' and spaces are decoration). Lines starting with\n"
            "'#' are comments. A puzzle string may also be given directly instead of a file.\n"
            "Sizes 4x4, 9x9, 16x16 and 25x25 are found from the number of cells.\n\n"
            "Each step is the simplest one available (the lowest rating on Sudoku Explainer's\n"
            "scale), as an expert explains; --order seed keeps the seed's technique order.\n\n"
            "Each puzzle gets 000-INITIAL-GRID.png, one NNN-<TECHNIQUE>.png per step,\n"
            "NNN-SOLUTION.png, EXPLANATIONS-01.png ... (contact sheet, A4 pages), an animated GIF\n"
            "and steps.json.\n"
            "A file of several puzzles gets one subfolder per puzzle (001/, 002/, ...) and index.json.\n\n"
            "Output safety: each run lists the files it wrote in .explain-sudoku-manifest.json;\n"
            "the next run replaces only those (when unchanged). Other files are never changed\n"
            "or deleted: a folder holding them needs --force, and a file of yours at a name we\n"
            "would write is an error even with --force."
    )
    p.epilog = ("commands (the command word comes first; a file named like a command is\n"
                "explained with 'explain-sudoku explain FILE' or './FILE'):\n" + sub + "\n\n"
                "exit status: 0 all explained; 2 some input was bad (each reported on one line);\n"
                "3 an output was refused or could not be written; 130/143 interrupted (SIGINT/SIGTERM:\n"
                "what was written is listed in the manifest, the next run replaces it); 70 a bug.\n"
                "Input: at most 64 MiB and 1,000,000 lines per file (an endless input is refused).\n\n"
                "examples:\n"
                "  explain-sudoku examples/seed.txt --out frames/\n"
                "  explain-sudoku examples/top1465-sample.txt --no-frames     # steps.json + GIF only\n"
                "  explain-sudoku puzzle.txt --techniques 'single position,single candidate,brutal'\n"
                "  explain-sudoku puzzle.txt --order seed    # the seed's fixed technique order\n\n"
                "orders: by default each step is the simplest one available (the lowest rating on\n"
                "Sudoku Explainer's scale, never a guess), and ER/EP/ED are those of that path;\n"
                "--order seed takes the first technique in the registry's order that has a step.")
    p.add_argument("puzzle", nargs="?", type=file_name("puzzle file", str),
                   help="puzzle file, '-' for standard input, or a puzzle string")
    add_out_options(p, "output folder (default: output/<name of the puzzle file>)",
                    "write into an output folder that holds files of its own (never deleted)")
    p.add_argument("--no-frames", action="store_true", help="do not write the PNG frames and contact sheet")
    p.add_argument("--no-gif", action="store_true", help="do not write the animated GIF")
    p.add_argument("--json-only", action="store_true", help="only steps.json (same as --no-frames --no-gif)")
    add_techniques_option(p, "comma-separated techniques to use, in registry order (default: all). "
                             "Without 'brutal' a puzzle may stay unfinished; that is reported.")
    p.add_argument("--no-brutal", action="store_true",
                   help="never read the solution: leave out 'brutal' (an unfinished grid is reported as such)")
    p.add_argument("--no-uniqueness", action="store_true",
                   help="leave out the steps that assume a single solution (unique rectangle and loop, bug+1, BUG)")
    add_order_option(p)
    p.add_argument("--list-techniques", action="store_true", help="list the techniques and exit")
    p.add_argument("--quiet", "-q", action="store_true", help="print only errors")
    add_progress_options(p, exclusive=False)
    add_render_options(p)


def main(argv: Sequence[str] | None = None) -> int:
    """The explain command alone (``explainer.app.cli.main`` dispatches every command)."""
    return run_alone("explain", sys.modules[__name__], argv)


def run(args: argparse.Namespace) -> int:
    if args.list_techniques:
        from techniques import REGISTRY

        for t in REGISTRY:
            extra = f"  (steps: {', '.join(t.produces)})" if t.produces != (t.name,) else ""
            print(f"{t.name}{extra}")
        return EXIT_OK
    if args.puzzle is None:
        raise UsageError("explain-sudoku: error: a puzzle file (or '-', or a puzzle string) is needed "
                         "(see 'explain-sudoku --help')")
    return reported(lambda: explain(args))


def load_sources(arg: str) -> tuple[list[Source], str]:
    """Puzzle texts from a file, stdin, or the argument itself when it is a puzzle."""
    path = Path(arg)
    if is_puzzle_argument(arg):
        # a folder of its own per puzzle (its givens' digest): another puzzle string never replaces it
        sources = split_sources(arg, "<argument>")
        digest = hashlib.sha256("\n".join(s.text for s in sources).encode()).hexdigest()[:8]
        return sources, f"puzzle-{digest}"
    sources = read_sources(arg)
    refuse_pencil_marks(sources, "<stdin>" if arg == "-" else arg)
    stem = "stdin" if arg == "-" else safe_component(path.stem)
    return sources, stem


def refuse_pencil_marks(sources: list[Source], where: str) -> None:
    """A pencil-mark grid (the multi-line layout, or a candidates line) is one error naming the
    commands that read it, not an error for each of its rows."""
    from explainer.app.hints.pencilmarks import looks_like_pencilmarks
    from explainer.model.grid import parse_grid

    if not sources:
        return
    try:
        parse_grid(sources[0].text)
        return  # puzzles (a file of solved grids can look like marks: it is not read as them)
    except PuzzleError:
        pass
    if looks_like_pencilmarks("\n".join(s.text for s in sources)):
        raise PuzzleError("a pencil-mark grid, not puzzles to explain: 'explain-sudoku hint' gives its next "
                          "step, 'explain-sudoku steps' every step from it", where)


def progress_bar(total: int, enabled: bool | None, desc: str) -> Any:
    show = sys.stderr.isatty() if enabled is None else enabled
    if not show or total <= 1:
        return None
    from tqdm import tqdm

    return tqdm(total=total, desc=desc, unit="puzzle", file=sys.stderr, dynamic_ncols=True)


def explain(args: argparse.Namespace) -> int:

    techniques = args.techniques  # checked at parse time
    frames = not (args.no_frames or args.json_only)
    gif = not (args.no_gif or args.json_only)
    try:
        options = render_options(args, frames=frames, gif=gif)
        if args.json_only:
            options = options.with_(video=None, pdf=False, html=False, html_standalone=False)
    except ValueError as e:  # render.options.OptionError: the parse-time checks let nothing through
        raise PuzzleError(str(e)) from None
    sources, stem = load_sources(args.puzzle)
    out = Path(args.out) if args.out else Path("output") / stem
    made = puzzle_maker(args, techniques)
    first, bad = validated(sources, made)
    if len(bad) == len(sources):  # nothing to write: the output folder (and a previous run's files) untouched
        if len(sources) == 1:
            raise bad[0]
        for why in bad.values():
            print(one_line(f"explain-sudoku: error: {why}"), file=sys.stderr)
        print(f"explain-sudoku: error: none of the {len(sources)} puzzles is valid; nothing written to {out}",
              file=sys.stderr)
        return EXIT_BAD_INPUT
    try:
        with OutputFolder(out, args.force, announce=not args.quiet).open() as folder:
            if len(sources) > 1:  # the names of a run of several puzzles, all checked before any work
                width = max(3, len(str(len(sources))))
                folder.check([out / f"{k:0{width}d}" for k in range(1, len(sources) + 1)] + [out / "index.json"])
            return _explain_all(args, sources, made, first, bad, options, folder)
    except BaseException as e:
        stop = as_interruption(e)  # Ctrl-C, kill, or an error that followed one
        if stop is None:
            raise
        if (out / MANIFEST).exists():
            stop.note = f"what was written is listed in {out / MANIFEST}; the next run into {out} replaces it"  # type: ignore[attr-defined]
        if stop is e:
            raise
        raise stop from e


def puzzle_maker(args: argparse.Namespace, techniques: list[str] | None) -> Callable[[Source], Puzzle]:
    """The command's ``Puzzle`` for one source, with the options of the command line."""
    from explainer.api import Puzzle

    def made(src: Source) -> Puzzle:
        return Puzzle(src.text, techniques, where=src.where, uniqueness=not args.no_uniqueness,
                      brutal=not args.no_brutal, order=args.order, with_se_rating=True)
    return made


def validated(sources: list[Source], made: Callable[[Source], Puzzle]) -> tuple[Puzzle | None, dict[int, PuzzleError]]:
    """Every puzzle read before the output folder is touched, so that bad input never costs the
    previous run's files: (the puzzle when there is one, with its solution found; the errors by
    0-based number). Several puzzles are only read here (their solutions are found in their turn)."""
    bad: dict[int, PuzzleError] = {}
    first = None
    for k, src in enumerate(sources):
        try:
            puzzle = made(src)
            if len(sources) == 1:
                _ = puzzle.solution  # no solution, or several: an error before anything is written
                first = puzzle
        except PuzzleError as e:
            bad[k] = e
    return first, bad


def _explain_all(args: argparse.Namespace, sources: list[Source], made: Callable[[Source], Puzzle],
                 first: Puzzle | None, bad_input: dict[int, PuzzleError], options: RenderOptions,
                 folder: OutputFolder) -> int:
    out = folder.root
    many = len(sources) > 1
    width = max(3, len(str(len(sources))))
    bar = progress_bar(len(sources), args.progress, "explaining")
    index: list[dict[str, Any]] = []
    bad = 0
    from .signals import check

    try:
        for k, src in enumerate(sources, 1):
            check()  # a Ctrl-C whose first raise was lost (signals.check)
            target = out / f"{k:0{width}d}" if many else out
            entry: dict[str, Any] = {"where": src.where, "puzzle": src.text if "\n" not in src.text else None}
            try:
                if k - 1 in bad_input:
                    raise bad_input[k - 1]
                puzzle = first if first is not None else made(src)
                _ = puzzle.steps  # explain now: errors (no/several solutions) surface here
                entry.update(puzzle=puzzle.grid.to_line(), folder=str(target), step_count=len(puzzle.steps),
                             difficulty=puzzle.difficulty, complete=puzzle.complete)
                if many:
                    target = folder.subfolder(target.name)
                rec = write_outputs(puzzle, target, options, folder, progress=None if many else args.progress)
                if not args.quiet:
                    msg = f"{src.where}: {puzzle.summary()} -> {target}"
                    if rec is not None and rec.gif_summary:  # what the GIF left out to keep within its budget
                        msg += f" ({rec.gif_summary})"
                    (bar.write if bar else print)(msg)
                if not puzzle.complete:
                    left = puzzle.state_before(len(puzzle.steps)).unsolved
                    if puzzle.order.producers:
                        print(f"{src.where}: warning: Sudoku Explainer's techniques could not finish the grid "
                              f"({left} cells left): SE rates it {puzzle.rating.er:.1f}", file=sys.stderr)
                    else:
                        print(f"{src.where}: warning: the chosen techniques could not finish the grid "
                              f"({left} cells left); add 'brutal' to finish any puzzle", file=sys.stderr)
            except PuzzleError as e:
                bad += 1
                entry["error"] = e.message
                msg = one_line(f"explain-sudoku: error: {e}")
                (bar.write if bar else print)(msg, file=sys.stderr)
            index.append(entry)
            if bar:
                bar.update(1)
    finally:
        if bar:
            bar.close()
    if many:
        path = out / "index.json"
        folder.guard(path)
        try:
            with open(path, "w") as f:
                json.dump(index, f, indent=1)
        except OSError as e:
            raise OutputError(f"{path}: cannot write ({e.strerror or e})") from None
        folder.record([path])
        if not args.quiet:
            print(f"{len(sources) - bad} of {len(sources)} puzzles explained into {out}"
                  + (f"; {bad} bad (see errors above)" if bad else ""))
    return EXIT_BAD_INPUT if bad else EXIT_OK


def write_outputs(puzzle: Puzzle, target: Path, options: RenderOptions, folder: OutputFolder, *,
                  progress: bool | None) -> Written:
    """steps.json always; frames, contact sheet, GIF and viewer as the options say (render exporters).

    Every name the exporters declare is checked by the folder's guard before
    anything is written; what was written goes into the manifest."""
    from render.export import write_puzzle

    from .signals import check

    bar = None
    if options.needs_pixels and progress is not False:
        bar = progress_bar(len(puzzle.steps) + 2, progress, "drawing")

    def advance(done: int, total: int) -> None:  # after each frame: a lost Ctrl-C raised again
        check()
        if bar is not None:
            bar.n = done
            bar.refresh()
    try:
        rec = write_puzzle(puzzle, target, options, progress=advance, guard=folder.guard)
    except OSError as e:
        raise OutputError(f"{target}: cannot write ({e.strerror or e})") from None
    finally:
        if bar is not None:
            bar.close()
    folder.record(rec.files)
    folder.save()
    return rec


if __name__ == "__main__":
    sys.exit(main())
