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
from typing import Any

from ..grid import PuzzleError, read_text
from .common import add_order_option, run_alone

EXIT_OK, EXIT_FAIL, EXIT_BAD_INPUT = 0, 1, 2
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
    "A bad line gets one line on stderr (file:line: what) and the others still run.")

EPILOG = (
    "--check: for each library line that carries expected eliminations or placements, say whether\n"
    "the steps of the technique its code names (e.g. 0300 x wing) reproduce them: every expected\n"
    "elimination and placement made by one found step. A line whose code ends in -x expects no\n"
    "such step. With --json, one object per line:\n"
    '  {"line": k, "code": "0300", "technique": "x wing" | null, "reproduced": true | false | null}\n'
    "(technique null: no registry record answers to the code; reproduced null: nothing to check),\n"
    "then a summary line on stderr.\n\n"
    "exit status: 0 every position listed (with --check: every checked line reproduced);\n"
    "1 with --check some line not reproduced, or an output could not be written;\n"
    "2 bad input (a bad line, an unknown technique, an output folder that is not new).\n\n"
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
    p.add_argument("--out", "-o", metavar="DIR",
                   help="write one frame (PNG) per step into DIR, which must be new or empty")
    p.add_argument("--check", action="store_true",
                   help="check library lines: do the steps of the coded technique reproduce the expected ones?")
    p.add_argument("--cap", type=int, default=None, metavar="N",
                   help="keep at most N steps per technique (default 500)")
    p.add_argument("--seconds", type=float, default=None, metavar="S",
                   help="give each technique at most S seconds (default 20)")
    p.add_argument("--lang", choices=["en", "fr"], default="en", help="language of the texts and frames")
    p.add_argument("--palette", default="default", help="palette of the frames")
    add_order_option(p, "how the steps are listed: 'simplest' (the default) the simplest first, as the engine's "
                        "default order would choose among them (rating on Sudoku Explainer's scale, then the step "
                        "that does more, registry order, pattern size; no lucky guess); 'seed' by registry order, "
                        "then pattern size")
    return p


def add_parser(subparsers: Any) -> argparse.ArgumentParser:
    """Register ``steps`` with an argparse subparsers object; returns its parser."""
    p = subparsers.add_parser("steps", help=HELP,
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
    if library or (all(" " not in ln for _, ln in lines) and not _one_grid(lines)):
        return [Item(ln, f"{name}:{k}", k) for k, ln in lines]
    k = lines[0][0]
    return [Item("\n".join(ln for _, ln in lines), f"{name}:{k}", k)]


def _is_file(arg: str) -> bool:
    try:
        return Path(arg).exists()
    except OSError:  # a position too long to be a file name
        return False


def _one_grid(lines: list[tuple[int, str]]) -> bool:
    """A grid written over several lines without spaces (e.g. 9 lines of 9 characters)."""
    rows = [c for c in (re.sub(r"[|+\-*]", "", ln) for _, ln in lines) if c]
    return len(rows) > 1 and all(len(c) == len(rows) for c in rows)


def main(argv: Sequence[str] | None = None) -> int:
    return run_alone("steps", sys.modules[__name__], argv)


def run(args: argparse.Namespace) -> int:
    try:
        if args.check and args.technique:
            raise PuzzleError("--check takes the technique from each line's code: leave out --technique")
        if args.cap is not None and args.cap < 1 or args.seconds is not None and args.seconds <= 0:
            raise PuzzleError("--cap and --seconds must be positive")
        techniques = _techniques(args.technique)
        items = read_items(args.position)
        out = _out_folder(args.out, args.palette) if args.out else None
        if args.check:
            return _check(items, args)
        return _list(items, techniques, args, out)
    except PuzzleError as e:
        _error(str(e))
        return EXIT_BAD_INPUT
    except BrokenPipeError:  # the reader went away (| head)
        sys.stderr.close()
        return EXIT_OK
    except OSError as e:
        _error(f"cannot write ({e.strerror or e})")
        return EXIT_FAIL
    except KeyboardInterrupt:
        return 130


def _error(message: str) -> None:
    print(f"{PROG}: error: {message}", file=sys.stderr)


def _techniques(arg: str | None) -> list[str] | None:
    if not arg:
        return None
    from ..allsteps import resolve

    names = [x.strip() for x in arg.split(",") if x.strip()]
    try:
        resolve(names)
    except KeyError as e:
        raise PuzzleError(str(e.args[0]), "--technique") from None
    return names


def _out_folder(arg: str, palette: str) -> Path:
    from render.theme import palette as known_palette

    try:
        known_palette(palette)
    except ValueError as e:
        raise PuzzleError(str(e), "--palette") from None
    out = Path(arg)
    if out.exists() and (not out.is_dir() or any(out.iterdir())):
        raise PuzzleError(f"{out}: already exists and is not an empty folder; frames are never written over "
                          "existing files: choose a new folder")
    return out


def _limits(args: argparse.Namespace) -> dict[str, Any]:
    from ..allsteps import CAP, SECONDS

    return {"cap": args.cap if args.cap is not None else CAP,
            "seconds": args.seconds if args.seconds is not None else SECONDS}


def _list(items: list[Item], techniques: list[str] | None, args: argparse.Namespace, out: Path | None) -> int:
    from ..allsteps import all_steps, read_position, steps_document

    bad = 0
    width = max(3, len(str(len(items))))
    for k, item in enumerate(items, 1):
        try:
            pos = read_position(item.text, item.where)
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
            folder = out / f"{k:0{width}d}" if len(items) > 1 else out
            _frames(pos, steps, folder, args)
            if not args.json:
                print(f"{item.where}: {len(steps)} frames in {folder}")
    return EXIT_BAD_INPUT if bad else EXIT_OK


def _frames(pos: Any, steps: list[Any], folder: Path, args: argparse.Namespace) -> None:
    from render.frame import step_png

    folder.mkdir(parents=True, exist_ok=True)
    givens = pos.entry.givens if pos.entry is not None else None
    width = max(3, len(str(len(steps))))
    for i, step in enumerate(steps, 1):
        name = re.sub(r"[^A-Z0-9]+", "-", step.technique.upper()).strip("-")
        path = folder / f"{i:0{width}d}-{name}.png"
        with open(path, "xb") as f:  # never over an existing file
            f.write(step_png(pos.state, step, number=i, palette=args.palette, lang=args.lang, givens=givens))


def _check(items: list[Item], args: argparse.Namespace) -> int:
    from ..allsteps import all_steps, code_kinds, read_position
    from ..hodoku import is_library_line

    counts = {"reproduced": 0, "not reproduced": 0, "not checked": 0, "bad": 0}
    for item in items:
        record: dict[str, Any] = {"line": item.line, "code": None, "technique": None, "reproduced": None}
        message = ""
        try:
            if not is_library_line(item.text):
                raise PuzzleError("--check reads library lines (:<code>:<digits>:<grid>:...)")
            pos = read_position(item.text, item.where)
            entry = pos.entry
            assert entry is not None
            record["code"] = entry.code
            kinds = code_kinds(entry.code)
            if not kinds:
                message = f"no technique answers to code {entry.raw_code}"
            else:
                record["technique"] = kinds[0][1].name
                if not entry.expects and not entry.must_not_fire:
                    message = f"{entry.raw_code} {kinds[0][1].name}: nothing expected, nothing to check"
                else:
                    steps = all_steps(pos, [entry.code], **_limits(args))
                    ok, message = _verdict(entry, steps, kinds[0][1].name)
                    record["reproduced"] = ok
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
        print(json.dumps(record) if args.json else f"{item.where}: {message}")
    total = sum(counts.values())
    print(f"{PROG}: {total} line{'s' if total != 1 else ''}: " + ", ".join(f"{v} {k}" for k, v in counts.items()),
          file=sys.stderr)
    if counts["bad"]:
        return EXIT_BAD_INPUT
    return EXIT_FAIL if counts["not reproduced"] else EXIT_OK


def _verdict(entry: Any, steps: list[Any], name: str) -> tuple[bool, str]:
    """Whether one found step makes every expected change (or, for -x, none does)."""
    want_e, want_p = set(entry.eliminations), set(entry.placements)
    hits = [s for s in steps if want_e <= set(s.eliminate) and want_p <= set(s.place)]
    label = f"{entry.raw_code} {name}"
    if entry.must_not_fire:
        if entry.expects:
            ok = not hits
        else:
            ok = not steps
        found = f"{len(steps)} {name} step{'s' if len(steps) != 1 else ''} found"
        return ok, f"{label}: {'reproduced (no such step)' if ok else 'NOT reproduced: ' + found}"
    if hits:
        return True, f"{label}: reproduced by {hits[0].summary()}"
    return False, f"{label}: NOT reproduced ({len(steps)} {name} step{'s' if len(steps) != 1 else ''} found, " \
                  f"none makes every expected change)"


if __name__ == "__main__":
    sys.exit(main())
