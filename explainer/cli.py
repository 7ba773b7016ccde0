"""``explain-sudoku``: explain puzzles from a file and write frames, a GIF and steps.json.

Subcommands (``solve``, ``generate``, ``hint``, ``db``) live in their own
modules; this one explains puzzles. Bad input never shows a traceback: one
line that says what and where, exit status 2, and the other puzzles of the
file are still explained.
"""
from __future__ import annotations

import argparse
import importlib
import json
import re
import sys
from pathlib import Path
from typing import Any, Callable, Sequence

from .grid import PuzzleError, Source, read_sources, split_sources

EXIT_OK, EXIT_FAIL, EXIT_BAD_INPUT = 0, 1, 2

SUBCOMMANDS = {
    "solve": ("explainer.cli_solve", "solve puzzles (one solution line per puzzle)"),
    "generate": ("explainer.cli_generate", "generate puzzles with a difficulty or technique target"),
    "hint": ("explainer.cli_hint", "a progressive hint for a grid you are stuck on"),
    "db": ("explainer.cli_db", "build, rate, query and export a database of explained puzzles"),
}

# Files a previous run of ours leaves in an output folder (replaced, never mixed).
OUR_FILES = re.compile(r"^(\d{3,}-[A-Z0-9-]+\.(png|svg)|EXPLANATIONS\.(png|svg)|steps\.json|index\.(json|html)"
                       r"|.*\.gif|\d{3,})$")


def build_parser() -> argparse.ArgumentParser:
    sub = "\n".join(f"  explain-sudoku {name:<9} {desc}" for name, (_, desc) in SUBCOMMANDS.items())
    p = argparse.ArgumentParser(
        prog="explain-sudoku",
        formatter_class=argparse.RawDescriptionHelpFormatter,
        description=(
            "Explain how to solve Sudoku puzzles one human step at a time, and draw each step.\n\n"
            "PUZZLE is a file ('-' for standard input) holding one puzzle per line (81 characters\n"
            "for 9x9; '.', '0' or '_' for empty cells; values above 9 as letters A..P) or one\n"
            "multi-line grid ('|', '-', '+', '*' and spaces are decoration). Lines starting with\n"
            "'#' are comments. A puzzle string may also be given directly instead of a file.\n"
            "Sizes 4x4, 9x9, 16x16 and 25x25 are found from the number of cells.\n\n"
            "Each puzzle gets 000-INITIAL-GRID.png, one NNN-<TECHNIQUE>.png per step,\n"
            "NNN-SOLUTION.png, EXPLANATIONS.png (contact sheet), an animated GIF and steps.json.\n"
            "A file of several puzzles gets one subfolder per puzzle (001/, 002/, ...) and index.json."
        ),
        epilog=("other commands:\n" + sub + "\n\n"
                "exit status: 0 all explained, 2 some input was bad (each reported on one line),\n"
                "1 an output could not be written.\n\n"
                "examples:\n"
                "  explain-sudoku examples/seed.txt --out frames/\n"
                "  explain-sudoku examples/top1465-sample.txt --no-frames     # steps.json + GIF only\n"
                "  explain-sudoku puzzle.txt --techniques 'single position,single candidate,brutal'"),
    )
    p.add_argument("puzzle", help="puzzle file, '-' for standard input, or a puzzle string")
    p.add_argument("--out", "-o", metavar="DIR",
                   help="output folder (default: output/<name of the puzzle file>)")
    p.add_argument("--force", action="store_true",
                   help="write into an output folder that holds files of its own (never deleted)")
    p.add_argument("--no-frames", action="store_true", help="do not write the PNG frames and contact sheet")
    p.add_argument("--no-gif", action="store_true", help="do not write the animated GIF")
    p.add_argument("--json-only", action="store_true", help="only steps.json (same as --no-frames --no-gif)")
    p.add_argument("--techniques", metavar="A,B,C",
                   help="comma-separated techniques to use, in registry order (default: all). "
                        "Without 'brutal' a puzzle may stay unfinished; that is reported.")
    p.add_argument("--no-brutal", action="store_true",
                   help="never read the solution: drop 'brutal' (an unfinished grid is reported)")
    p.add_argument("--list-techniques", action="store_true", help="list the techniques and exit")
    p.add_argument("--quiet", "-q", action="store_true", help="print only errors")
    p.add_argument("--progress", dest="progress", action="store_true", default=None,
                   help="show a progress bar even when stderr is not a terminal")
    p.add_argument("--no-progress", dest="progress", action="store_false", help="never show a progress bar")
    add_render_options(p)
    return p


def add_render_options(p: argparse.ArgumentParser) -> None:
    """Options passed through to the renderer (render.export.write_puzzle)."""
    g = p.add_argument_group("pictures")
    g.add_argument("--palette", default="default",
                   help="colour palette: default, colorblind (Okabe-Ito), high-contrast")
    g.add_argument("--lang", default="en", choices=["en", "fr"], help="language of texts and titles")
    g.add_argument("--format", dest="fmt", default="png", choices=["png", "svg"],
                   help="frame format: png, or svg (vector frames for print); the contact sheet and GIF stay raster")
    g.add_argument("--dpi", type=float, help="frame resolution in dots per inch (default 100)")
    g.add_argument("--size", type=int, metavar="PIXELS", help="frame width in pixels (overrides --dpi)")
    g.add_argument("--group-singles", action="store_true",
                   help="fold each run of consecutive singles into one frame showing all their values")
    g.add_argument("--only", metavar="TECHNIQUE[,...]",
                   help="draw only the steps of these techniques (plus the initial grid and the solution)")
    g.add_argument("--html", action="store_true",
                   help="also write index.html, a step viewer (previous/next/play, step list)")
    g.add_argument("--gif-duration", type=int, default=700, metavar="MS", help="GIF time per step (ms, default 700)")
    g.add_argument("--gif-hold", type=int, default=2000, metavar="MS",
                   help="GIF time on the initial grid and the solution (ms, default 2000)")
    g.add_argument("--gif-loop", type=int, default=0, metavar="N",
                   help="GIF loop count: 0 loops forever (default), -1 plays once")


def render_options(args: argparse.Namespace) -> dict[str, Any]:
    only = [x.strip() for x in args.only.split(",") if x.strip()] if getattr(args, "only", None) else None
    return {"palette": args.palette, "lang": args.lang, "fmt": args.fmt, "dpi": args.dpi, "size": args.size,
            "group_singles": args.group_singles, "only": only, "html": args.html,
            "gif_duration": args.gif_duration, "gif_hold": args.gif_hold,
            "gif_loop": None if args.gif_loop is not None and args.gif_loop < 0 else args.gif_loop}


def check_render_options(options: dict[str, Any]) -> str | None:
    """A one-line reason why the picture options are wrong, or None."""
    from render.theme import palette

    try:
        palette(options["palette"])
    except ValueError as e:
        return str(e)
    if options.get("dpi") is not None and not 10 <= options["dpi"] <= 1200:
        return f"--dpi {options['dpi']:g} is out of range 10..1200"
    if options.get("size") is not None and not 100 <= options["size"] <= 10000:
        return f"--size {options['size']} is out of range 100..10000 pixels"
    if options.get("only"):
        from techniques import lookup

        for name in options["only"]:
            if name.strip().lower() == "singles":
                continue
            try:
                lookup(name)
            except KeyError as e:
                return str(e).strip("'\"")
    if options.get("gif_duration", 1) <= 0 or options.get("gif_hold", 1) <= 0:
        return "GIF durations must be positive"
    return None


def main(argv: Sequence[str] | None = None) -> int:
    argv = list(sys.argv[1:] if argv is None else argv)
    if argv and argv[0] in SUBCOMMANDS and not Path(argv[0]).exists():
        module = importlib.import_module(SUBCOMMANDS[argv[0]][0])
        return int(module.main(argv[1:]))
    if "--list-techniques" in argv:
        from techniques import REGISTRY

        for t in REGISTRY:
            extra = f"  (steps: {', '.join(t.produces)})" if t.produces != (t.name,) else ""
            print(f"{t.name}{extra}")
        return EXIT_OK
    args = build_parser().parse_args(argv)
    try:
        return run(args)
    except PuzzleError as e:
        error(str(e))
        return EXIT_BAD_INPUT
    except OutputError as e:
        error(str(e))
        return EXIT_FAIL
    except KeyboardInterrupt:
        error("interrupted")
        return 130


class OutputError(Exception):
    """An output folder or file that cannot be written."""


def error(message: str) -> None:
    print(f"explain-sudoku: error: {message}", file=sys.stderr)


def load_sources(arg: str) -> tuple[list[Source], str]:
    """Puzzle texts from a file, stdin, or the argument itself when it is a puzzle."""
    path = Path(arg)
    if arg != "-" and not path.exists() and re.fullmatch(r"[0-9A-Za-z._]{16,}", arg):
        return split_sources(arg, "<argument>"), "puzzle"
    sources = read_sources(arg)
    stem = "stdin" if arg == "-" else path.stem
    return sources, stem


def prepare_folder(folder: Path, force: bool) -> None:
    """Create the folder; replace a previous run's files; refuse to mix with others."""
    if folder.exists() and not folder.is_dir():
        raise OutputError(f"{folder}: exists and is not a folder")
    if folder.is_dir():
        foreign = [p.name for p in folder.iterdir() if not OUR_FILES.match(p.name)]
        if foreign and not force:
            raise OutputError(
                f"{folder}: folder holds other files ({', '.join(sorted(foreign)[:3])}"
                f"{', ...' if len(foreign) > 3 else ''}); choose an empty folder or pass --force")
        previous = [p for p in folder.iterdir() if OUR_FILES.match(p.name)]
        if previous:
            print(f"explain-sudoku: replacing the previous output in {folder} "
                  f"({len(previous)} files and folders)", file=sys.stderr)
        for p in previous:
            if p.is_dir():
                import shutil

                shutil.rmtree(p)
            else:
                p.unlink()
    try:
        folder.mkdir(parents=True, exist_ok=True)
        probe = folder / ".write-test"
        probe.write_text("")
        probe.unlink()
    except OSError as e:
        raise OutputError(f"{folder}: cannot write output folder ({e.strerror or e})") from None


def progress_bar(total: int, enabled: bool | None, desc: str) -> Any:
    show = sys.stderr.isatty() if enabled is None else enabled
    if not show or total <= 1:
        return None
    from tqdm import tqdm

    return tqdm(total=total, desc=desc, unit="puzzle", file=sys.stderr, dynamic_ncols=True)


def run(args: argparse.Namespace) -> int:
    from .engine import Puzzle

    techniques = None
    if args.techniques:
        from techniques import lookup

        techniques = [t.strip() for t in args.techniques.split(",") if t.strip()]
        try:
            for t in techniques:
                lookup(t)
        except KeyError as e:
            raise PuzzleError(str(e.args[0]), "--techniques") from None
    frames = not (args.no_frames or args.json_only)
    gif = not (args.no_gif or args.json_only)
    options = render_options(args)
    reason = check_render_options(options)
    if reason:
        raise PuzzleError(reason)
    sources, stem = load_sources(args.puzzle)
    out = Path(args.out) if args.out else Path("output") / stem
    prepare_folder(out, args.force)
    many = len(sources) > 1
    width = max(3, len(str(len(sources))))
    bar = progress_bar(len(sources), args.progress, "explaining")
    index: list[dict[str, Any]] = []
    bad = 0
    for k, src in enumerate(sources, 1):
        folder = out / f"{k:0{width}d}" if many else out
        entry: dict[str, Any] = {"where": src.where, "puzzle": src.text if "\n" not in src.text else None}
        try:
            puzzle = Puzzle(src.text, techniques, where=src.where, brutal=not args.no_brutal)
            puzzle.steps  # explain now: errors (no/several solutions) surface here
            entry.update(puzzle=puzzle.grid.to_line(), folder=str(folder), step_count=len(puzzle.steps),
                         difficulty=puzzle.difficulty, complete=puzzle.complete)
            if many:
                folder.mkdir(parents=True, exist_ok=True)
            write_outputs(puzzle, folder, frames=frames, gif=gif, options=options,
                          progress=None if many else args.progress)
            if not args.quiet:
                msg = f"{src.where}: {puzzle.summary()} -> {folder}"
                (bar.write if bar else print)(msg)
            if not puzzle.complete:
                print(f"{src.where}: warning: the chosen techniques could not finish the grid "
                      f"({puzzle.state_before(len(puzzle.steps)).unsolved} "
                      f"cells left); add 'brutal' to finish any puzzle", file=sys.stderr)
        except PuzzleError as e:
            bad += 1
            entry["error"] = e.message
            msg = f"explain-sudoku: error: {e}"
            (bar.write if bar else print)(msg, file=sys.stderr)
        index.append(entry)
        if bar:
            bar.update(1)
    if bar:
        bar.close()
    if many:
        with open(out / "index.json", "w") as f:
            json.dump(index, f, indent=1)
        if not args.quiet:
            print(f"{len(sources) - bad} of {len(sources)} puzzles explained into {out}"
                  + (f"; {bad} bad (see errors above)" if bad else ""))
    return EXIT_BAD_INPUT if bad else EXIT_OK


def write_outputs(puzzle: Any, folder: Path, *, frames: bool, gif: bool, options: dict[str, Any],
                  progress: bool | None) -> None:
    """steps.json always; frames, contact sheet and GIF through the renderer."""
    try:
        with open(folder / "steps.json", "w") as f:
            json.dump(puzzle.to_json(), f)
        if frames or gif or options.get("html"):
            from render.export import write_puzzle

            bar = progress_bar(len(puzzle.steps) + 2, progress, "drawing") if progress is not False else None
            callback: Callable[[int, int], None] | None = None
            if bar is not None:
                def advance(done: int, total: int) -> None:
                    bar.n = done
                    bar.refresh()
                callback = advance
            write_puzzle(puzzle, folder, frames=frames, gif=gif, contact=frames, progress=callback, **options)
            if bar is not None:
                bar.close()
    except OSError as e:
        raise OutputError(f"{folder}: cannot write ({e.strerror or e})") from None


if __name__ == "__main__":
    sys.exit(main())
