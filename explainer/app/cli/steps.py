"""explain-sudoku steps: every step each technique finds in a position (HoDoKu's "find all steps").

``add_parser(subparsers)`` registers the command with an argparse
subparsers object; ``main(argv)`` runs it on its own.
"""
from __future__ import annotations

import argparse
import json
import re
import sys
from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING, Any

from explainer.model.grid import PuzzleError, read_text

if TYPE_CHECKING:  # the types only: the position reader is imported when a command runs
    from explainer.app.allsteps import Position
    from explainer.model.explanation import Explanation

from .common import EXIT_BAD_INPUT, EXIT_NO, EXIT_OK, error, reported, run_alone
from .options import add_lang_option, add_order_option, add_out_options, add_theme_option, integer, real
from .output import OutputError, OutputFolder

PROG = "explain-sudoku steps"
HELP = "every step each technique finds in a position (HoDoKu library lines too)"

DESCRIPTION = (
    "List every step each technique finds in a position, not just the next one.\n\n"
    "POSITION is a file ('-' for standard input) or the position itself: a puzzle line, a partly\n"
    "solved grid, a pencil-mark grid (the 729-character candidates line or the multi-line layout\n"
    "HoDoKu and Sudoku Explainer print), or a line in HoDoKu's library format\n"
    "  :<code>:<digits>:<grid>:<deleted candidates>:<eliminations>:<placements>:<extra>:\n"
    "(9x9 only; grid: a digit is a given, +d a placed value, '.' or '0' empty; candidates are\n"
    "digit-row-column, e.g. 182, separated by spaces). A file may hold many one-line positions\n"
    "(library lines or puzzle lines), one per line, or one multi-line grid; '#' starts a comment.\n"
    "A bad line gets one line on stderr (file:line: what) and the others still run; a position\n"
    "with no solution (its values and pencil marks rule every solution out) is a bad line.")

EPILOG = (
    "Steps that change the same candidates are listed once (the smaller pattern). --all runs every\n"
    "finder to its end (no cap, no time limit).\n\n"
    "--check: for each library line that carries expected eliminations or placements, say whether\n"
    "the steps HoDoKu would file under its code (e.g. 0300 x wing) reproduce them: every expected\n"
    "elimination and placement made by one found step (a placement also removes its cell's other\n"
    "candidates). Variants are honoured as HoDoKu's regression tester does: -1/-2 on uniqueness\n"
    "codes (without / with missing candidates), on ALS codes (without / with overlap), a fifth digit\n"
    "1 on a fish code (a siamese fish: two fish on the same base lines together). A line whose code\n"
    "ends in -x is a fail case: no step of the code about its digits must be found.\n"
    "With --json, one object per line:\n"
    '  {"line": k, "code": "0300", "technique": "x wing" | null, "reproduced": true | false | null}\n'
    "(technique null: no registry record answers to the code; reproduced null: nothing to check),\n"
    "then a summary line on stderr.\n\n"
    "exit status: 0 every position listed (with --check: every checked line reproduced);\n"
    "1 with --check some line not reproduced; 2 bad input (a bad line, a position without\n"
    "solution, an unknown technique); 3 an output refused or not written (--out: a folder\n"
    "holding files that are not ours, without --force).\n\n"
    "Steps are listed simplest first (--order seed: in registry order).\n\n"
    "examples:\n"
    "  explain-sudoku steps grid.txt --technique 'x wing'\n"
    "  explain-sudoku steps positions.txt --check --json\n"
    "  explain-sudoku steps ':0000:x:<grid>:::::' --out frames/   # one PNG per step")


def configure(p: argparse.ArgumentParser) -> argparse.ArgumentParser:
    p.add_argument("position", help="file of positions ('-' for standard input), or one position")
    p.add_argument("--technique", "-t", metavar="T[,T...]",
                   help="techniques to run: names, step names ('x wing' lists only x wings) or HoDoKu "
                        "codes (0300); default: every technique except brutal")
    p.add_argument("--json", action="store_true",
                   help="steps JSON, one document per position per line (with --check: one object per line)")
    add_out_options(p, "write one frame (PNG) per step into DIR (guarded by its manifest, as the explain "
                       "command's output: files that are not ours are never changed)",
                    "with --out: write into a folder that holds files of its own (never changed or deleted)")
    p.add_argument("--check", action="store_true",
                   help="check library lines: do the steps of the coded technique reproduce the expected ones?")
    p.add_argument("--cap", type=integer(1, 10**9, name="--cap"), default=None, metavar="N",
                   help="keep at most N steps per technique (default 500)")
    p.add_argument("--seconds", type=real(0, 10**7, open_low=True), default=None, metavar="S",
                   help="give each technique at most S seconds (default 20)")
    p.add_argument("--all", action="store_true",
                   help="run every finder to its end: no step cap, no time limit (for finders that enumerate "
                        "every start, e.g. forcing chains)")
    add_lang_option(p, "language of the texts and frames")
    add_theme_option(p, "colour theme of the frames")
    add_order_option(p, "how the steps are listed: 'simplest' (the default) the simplest first, as the engine's "
                        "default order would choose among them (rating on Sudoku Explainer's scale, then the step "
                        "that does more, registry order, pattern size; no lucky guess); 'seed' by registry order, "
                        "then pattern size", own_lists=False)
    return p


def add_parser(subparsers: Any) -> argparse.ArgumentParser:
    """Register ``steps`` with an argparse subparsers object; returns its parser."""
    p: argparse.ArgumentParser = subparsers.add_parser("steps", help=HELP,
                              description=DESCRIPTION, epilog=EPILOG,
                              formatter_class=argparse.RawDescriptionHelpFormatter)
    configure(p)
    p.set_defaults(run=run)
    return p


def build_parser() -> argparse.ArgumentParser:
    return configure(argparse.ArgumentParser(prog=PROG, description=DESCRIPTION, epilog=EPILOG,
                                             formatter_class=argparse.RawDescriptionHelpFormatter))


@dataclass(frozen=True)
class Item:
    """One position of the input: its text, where it is, its line number."""

    text: str
    where: str
    line: int


def read_items(arg: str) -> list[Item]:
    """The positions of a file, of standard input, or of the argument itself."""
    if arg != "-" and not _is_file(arg) and (arg.lstrip().startswith(":")
                                              or re.fullmatch(r"[0-9A-Za-z._]{16,}", arg.strip())):
        return [Item(arg.strip(), "<argument>:1", 1)]
    text, name = read_text(arg)
    lines = [(k, raw.strip()) for k, raw in enumerate(text.splitlines(), 1)]
    lines = [(k, ln) for k, ln in lines if ln and not ln.startswith("#")]
    if not lines:
        raise PuzzleError("no position in file (empty or only comments)", name)
    library = any(ln.startswith(":") for _, ln in lines)
    if library or (all(" " not in ln for _, ln in lines) and not _one_grid(lines) and not _rows(lines)):
        return [Item(ln, f"{name}:{k}", k) for k, ln in lines]
    k = lines[0][0]
    return [Item("\n".join(ln for _, ln in lines), f"{name}:{k}", k)]


def _is_file(arg: str) -> bool:
    try:
        return Path(arg).exists()
    except OSError:  # a position too long to be a file name
        return False


def _rows(lines: list[tuple[int, str]]) -> bool:
    """Lines too short to be positions of their own (a damaged multi-line grid, a row a cell
    short): one position, so one error, not one for each row."""
    return len(lines) > 1 and all(len(re.sub(r"[|+\-*]", "", ln)) < 16 for _, ln in lines)


def _one_grid(lines: list[tuple[int, str]]) -> bool:
    """A grid written over several lines without spaces (e.g. 9 lines of 9 characters)."""
    rows = [c for c in (re.sub(r"[|+\-*]", "", ln) for _, ln in lines) if c]
    return len(rows) > 1 and all(len(c) == len(rows) for c in rows)


def main(argv: Sequence[str] | None = None) -> int:
    return run_alone("steps", sys.modules[__name__], argv)


def run(args: argparse.Namespace) -> int:
    def listed() -> int:
        if args.check and args.technique:
            raise PuzzleError("--check takes the technique from each line's code: leave out --technique")
        if args.all and (args.cap is not None or args.seconds is not None):
            raise PuzzleError("--all runs every finder to its end: leave out --cap and --seconds")
        techniques = _techniques(args.technique)
        items = read_items(args.position)
        if args.check:
            return _check(items, args)
        if args.out:
            with OutputFolder(args.out, args.force, tool=PROG).open() as folder:
                return _list(items, techniques, args, folder)
        return _list(items, techniques, args, None)

    return reported(listed)


def _error(message: str) -> None:
    error(message)


def _techniques(arg: str | None) -> list[str] | None:
    if arg is None:
        return None
    from explainer.app.allsteps import resolve

    names = [x.strip() for x in arg.split(",") if x.strip()]
    if not names:  # '-t ""' is a mistake, not "every technique"
        raise PuzzleError(f"{arg!r} names no technique (give one or more, comma-separated)", "--technique")
    try:
        resolve(names)
    except KeyError as e:
        raise PuzzleError(str(e.args[0]), "--technique") from None
    return names


def _limits(args: argparse.Namespace) -> dict[str, Any]:
    from explainer.app.allsteps import CAP, SECONDS

    if args.all:
        return {"cap": None, "seconds": None}
    return {"cap": args.cap if args.cap is not None else CAP,
            "seconds": args.seconds if args.seconds is not None else SECONDS}


def read_solvable(text: str, where: str) -> Position:
    """``allsteps.read_position``, refusing a position without solution (as explain and hint do)."""
    from explainer.app.allsteps import check_solvable, read_position

    return check_solvable(read_position(text, where), where)


def _list(items: list[Item], techniques: list[str] | None, args: argparse.Namespace,
          out: OutputFolder | None) -> int:
    from explainer.app.allsteps import all_steps, steps_document

    bad = 0
    width = max(3, len(str(len(items))))
    if out is not None and len(items) > 1:  # every folder name checked before any work
        out.check([out.root / f"{k:0{width}d}" for k in range(1, len(items) + 1)])
    for k, item in enumerate(items, 1):
        try:
            pos = read_solvable(item.text, item.where)
            steps = all_steps(pos, techniques, order=args.order, **_limits(args))
        except PuzzleError as e:
            bad += 1
            _error(str(e.at(item.where)))
            continue
        for note in steps.notes:
            print(f"{item.where}: note: {note}", file=sys.stderr)
        if args.json:
            print(json.dumps(steps_document(pos, steps, args.order)))
        else:
            if len(items) > 1 or not steps:
                print(f"{item.where}: {len(steps)} step{'s' if len(steps) != 1 else ''}")
            for i, step in enumerate(steps, 1):
                print(f"{i:3d}. {step.summary()}")
                print(f"     {step.text_in(args.lang)}")
        if out is not None and steps:
            folder = out.subfolder(f"{k:0{width}d}") if len(items) > 1 else out.root
            _frames(pos, steps, folder, args, out)
            if not args.json:
                print(f"{item.where}: {len(steps)} frames in {folder}")
    return EXIT_BAD_INPUT if bad else EXIT_OK


def _frames(pos: Position, steps: Sequence[Explanation], folder: Path, args: argparse.Namespace,
            out: OutputFolder) -> None:
    """One PNG per step; every name checked by the output folder before the first is written."""
    from render.frame import step_png
    from render.plan import frame_stem
    from render.scene import technique_title
    from techniques import all_kinds

    givens = pos.entry.givens if pos.entry is not None else None
    width = max(3, len(str(len(steps))))
    kinds = all_kinds()
    # named in the frames' language, as the explain command names them (French: 001-PAIRE-DISTANTE.png)
    stems = [frame_stem(technique_title(step.technique, args.lang, step.detail, kinds), args.lang, step.technique)
             for step in steps]
    paths = [folder / f"{i:0{width}d}-{stem}.png" for i, stem in enumerate(stems, 1)]
    for path in paths:
        out.guard(path)
    for i, (path, step) in enumerate(zip(paths, steps, strict=True), 1):
        try:
            path.write_bytes(step_png(pos.state, step, number=i, theme=args.theme, lang=args.lang,
                                      givens=givens, kinds=all_kinds()))
        except OSError as e:
            raise OutputError(f"{path}: cannot write ({e.strerror or e})") from None
        out.record([path])
    out.save()


def _check(items: list[Item], args: argparse.Namespace) -> int:
    from explainer.app.allsteps import check_entry
    from explainer.app.hodoku import is_library_line

    counts = {"reproduced": 0, "not reproduced": 0, "not checked": 0, "bad": 0}
    for item in items:
        record: dict[str, Any] = {"line": item.line, "code": None, "technique": None, "reproduced": None}
        try:
            if not is_library_line(item.text):
                raise PuzzleError("--check reads library lines (:<code>:<digits>:<grid>:...)")
            entry = read_solvable(item.text, item.where).entry
            assert entry is not None
            record["code"] = entry.code
            verdict = check_entry(entry, **_limits(args))
            record["technique"], record["reproduced"] = verdict.technique, verdict.ok
        except PuzzleError as e:
            counts["bad"] += 1
            _error(str(e.at(item.where)))
            if args.json:
                print(json.dumps({**record, "error": e.message}))
            continue
        if record["reproduced"] is None:
            counts["not checked"] += 1
        else:
            counts["reproduced" if record["reproduced"] else "not reproduced"] += 1
        print(json.dumps(record) if args.json else f"{item.where}: {verdict.message}")
    total = sum(counts.values())
    print(f"{PROG}: {total} line{'s' if total != 1 else ''}: " + ", ".join(f"{v} {k}" for k, v in counts.items()),
          file=sys.stderr)
    if counts["bad"]:
        return EXIT_BAD_INPUT
    return EXIT_NO if counts["not reproduced"] else EXIT_OK


if __name__ == "__main__":
    sys.exit(main())
