"""explain-sudoku hint: a progressive hint for a grid you are stuck on."""
from __future__ import annotations

import argparse
import re
import sys
from pathlib import Path
from typing import Sequence

from .grid import PuzzleError, read_text

EXIT_OK, EXIT_FAIL, EXIT_BAD_INPUT = 0, 1, 2


def build_parser() -> argparse.ArgumentParser:
    p = argparse.ArgumentParser(
        prog="explain-sudoku hint",
        description="A progressive hint for the next step from where you are. The input may be a "
                    "puzzle line, a partly solved grid, or a pencil-mark grid (the 729-character "
                    "candidates line or the multi-line layout HoDoKu and Sudoku Explainer print).")
    p.add_argument("puzzle", help="file holding the grid ('-' for standard input), or a puzzle line")
    p.add_argument("--level", type=int, choices=[1, 2, 3], default=1,
                   help="1: the technique only; 2: plus the house and value to look at; "
                        "3: the whole step and its frame (default 1)")
    p.add_argument("--out", "-o", metavar="DIR", help="folder for the level-3 frame (default output/hint)")
    p.add_argument("--lang", choices=["en", "fr"], default="en", help="language of the hint")
    p.add_argument("--palette", default="default", help="palette of the level-3 frame")
    return p


def _input_text(arg: str) -> tuple[str, str]:
    if arg != "-" and not Path(arg).exists() and re.fullmatch(r"[0-9A-Za-z._]{16,}", arg):
        return arg, "<argument>"
    text, name = read_text(arg)
    lines = [ln for ln in text.splitlines() if not ln.lstrip().startswith("#")]
    text = "\n".join(lines).strip()
    if not text:
        raise PuzzleError("no grid in file (empty or only comments)", name)
    return text, name


def main(argv: Sequence[str] | None = None) -> int:
    args = build_parser().parse_args(list(sys.argv[1:] if argv is None else argv))
    try:
        from .hints import hint

        text, where = _input_text(args.puzzle)
        if "\n" in text and not _is_one_grid(text):
            text = text.splitlines()[0].strip()  # a file of puzzle lines: hint for the first
        h = hint(text, args.level, args.lang, where)
        print(h.text)
        if args.level == 3 and h.step is not None:
            from render.frame import step_png

            out = Path(args.out) if args.out else Path("output") / "hint"
            try:
                out.mkdir(parents=True, exist_ok=True)
                path = out / "hint.png"
                path.write_bytes(step_png(h.state, h.step, palette=args.palette, lang=args.lang))
            except OSError as e:
                print(f"explain-sudoku hint: error: {out}: cannot write ({e.strerror or e})", file=sys.stderr)
                return EXIT_FAIL
            print(f"frame: {path}")
        return EXIT_OK
    except PuzzleError as e:
        print(f"explain-sudoku hint: error: {e}", file=sys.stderr)
        return EXIT_BAD_INPUT
    except ValueError as e:
        print(f"explain-sudoku hint: error: {e}", file=sys.stderr)
        return EXIT_BAD_INPUT
    except KeyboardInterrupt:
        return 130


def _is_one_grid(text: str) -> bool:
    """True unless the text is several one-line puzzles."""
    lines = [ln.strip() for ln in text.splitlines() if ln.strip()]
    return not (len(lines) > 1 and all(len(ln) in (16, 81, 256, 625) and " " not in ln for ln in lines))


if __name__ == "__main__":
    sys.exit(main())
