"""``explain-sudoku db …``: build, inspect, query and export a puzzle database.

    explain-sudoku db build puzzles.txt [--db FILE] [--jobs N] [--timeout S] [--dask ADDR] [--order ORDER]
    explain-sudoku db stats [--plot FILE.png] [--json]
    explain-sudoku db query [--technique T] [--order-by length|-length|rating] [--limit N]
                            [--difficulty D] [--rating 8.0-9.0] [--out DIR [--gif] [--force]]
    explain-sudoku db export --format jsonl [-o FILE [--force]]
    explain-sudoku db migrate [--db FILE]

Errors are one line (what and where) on stderr with exit status 2. Every
option is checked when the command is read.

Output safety: ``query --out DIR`` follows the rules of the explain command
(cli/output.py): the folder's manifest lists what an earlier query wrote,
only those files (unchanged) are replaced, other files are never changed and
need ``--force`` to write beside. ``export -o FILE`` and ``stats --plot
FILE`` never overwrite an existing file unless ``--force`` is given (the
file is then replaced whole, through a temporary file and a rename), and
never write over the database itself.
"""
from __future__ import annotations

import argparse
import json
import os
import sqlite3
import sys
from collections.abc import Sequence
from pathlib import Path

from ..bank.db import DEFAULT_DB, ORDER_KEYS, DatabaseError, PuzzleDB
from ..grid import PuzzleError, one_line
from .common import (
    ORDER_HELP,
    Parser,
    UsageError,
    add_order_option,
    integer,
    rating_range,
    real,
    run_alone,
    technique_list,
    technique_name,
)
from .output import OutputError, OutputFolder

HELP = "build, rate, query and export a database of explained puzzles"


def configure(p: argparse.ArgumentParser) -> None:
    p.description = "Build, inspect, query and export a puzzle database."
    sub = p.add_subparsers(dest="db_command", required=True, parser_class=Parser,
                           metavar="{build,stats,query,export,migrate}")

    def common(sp: argparse.ArgumentParser) -> None:
        sp.add_argument("--db", type=Path, default=DEFAULT_DB, help=f"database file (default {DEFAULT_DB})")

    b = sub.add_parser("build", help="explain every puzzle of the files and store them")
    b.add_argument("files", nargs="+", help="puzzle files (one puzzle a line, or grids)")
    common(b)
    b.add_argument("--jobs", "-j", type=integer(1, 1024, name="--jobs"), default=None,
                   help="worker processes (default: all cores; not used with --dask)")
    b.add_argument("--timeout", type=real(0, 10**7, open_low=True), default=None,
                   help="seconds per puzzle before it is recorded as a timeout")
    b.add_argument("--techniques", type=technique_list, default=None, help="comma-separated techniques (default: all)")
    b.add_argument("--retry-errors", action="store_true", help="explain again puzzles stored with an error")
    add_order_option(b, ORDER_HELP + "; recorded in the bank: a resumed build must use the same order")
    b.add_argument("--dask", default=None, metavar="ADDRESS", help="run on a Dask cluster, e.g. tcp://host:8786")
    g = b.add_mutually_exclusive_group()
    g.add_argument("--progress", dest="progress", action="store_true", default=None,
                   help="progress bar on stderr even when it is not a terminal")
    g.add_argument("--no-progress", dest="progress", action="store_false")

    s = sub.add_parser("stats", help="counts per difficulty, technique usage, time per puzzle")
    common(s)
    s.add_argument("--plot", type=Path, default=None, help="PNG file: technique usage and rating histogram")
    s.add_argument("--force", action="store_true", help="replace an existing --plot file")
    s.add_argument("--json", action="store_true", help="print the figures as JSON")

    q = sub.add_parser("query", help="list stored steps (and render them)")
    common(q)
    q.add_argument("--technique", "-t", action="append", default=None, type=technique_name,
                   help="step name or alias (repeatable)")
    q.add_argument("--order-by", default=None, type=order_key,
                   help=f"{', '.join(ORDER_KEYS)}: largest first; prefix '-' to reverse (default: file order)")
    q.add_argument("--limit", "-n", type=integer(0, 10**9), default=None)
    q.add_argument("--difficulty", choices=("easy", "medium", "difficult"), default=None)
    q.add_argument("--rating", type=rating_range, default=None, metavar="LOW-HIGH",
                   help="only puzzles whose ER (Sudoku Explainer's scale) is in this range, e.g. 8.0-9.0")
    q.add_argument("--out", type=Path, default=None, help="folder for one frame PNG per step")
    q.add_argument("--gif", action="store_true", help="with --out: also an animated GIF of the frames")
    q.add_argument("--duration", type=real(0.01, 655.35), default=2.0,
                   help="seconds per GIF frame, 0.01..655.35 (default 2)")
    q.add_argument("--force", action="store_true",
                   help="write into an --out folder holding other files (they are never changed)")

    e = sub.add_parser("export", help="write the stored explanations")
    common(e)
    e.add_argument("--format", choices=("jsonl",), default="jsonl")
    e.add_argument("-o", "--output", type=Path, default=None,
                   help="file (default: standard output); an existing file is kept unless --force")
    e.add_argument("--force", action="store_true", help="replace an existing --output file")

    m = sub.add_parser("migrate", help="convert a database of an older schema (the original is kept beside it)")
    common(m)


def order_key(text: str) -> str:
    key = text.strip()
    if key.lstrip("-") not in ORDER_KEYS:
        raise argparse.ArgumentTypeError(f"unknown order {text!r} (known: {', '.join(ORDER_KEYS)}; "
                                         "prefix '-' to reverse)")
    return key


def main(argv: Sequence[str] | None = None) -> int:
    return run_alone("db", sys.modules[__name__], argv)


def run(args: argparse.Namespace) -> int:
    try:
        return {"build": _build, "stats": _stats, "query": _query, "export": _export,
                "migrate": _migrate}[args.db_command](args)
    except (UsageError, PuzzleError, DatabaseError, OutputError, ValueError, RuntimeError, KeyError) as e:
        msg = e.args[0] if isinstance(e, KeyError) and e.args else str(e)
        print(f"error: {one_line(str(msg))}", file=sys.stderr)
        return 2
    except sqlite3.Error as e:
        print(one_line(f"error: {getattr(args, 'db', '')}: database error: {e}"), file=sys.stderr)
        return 2
    except BrokenPipeError:  # `db export | head`: the reader is gone, nothing to say
        devnull = os.open(os.devnull, os.O_WRONLY)
        os.dup2(devnull, sys.stdout.fileno())
        return 0
    except OSError as e:
        where = f"{e.filename}: " if e.filename else ""
        print(one_line(f"error: {where}{e.strerror or e}"), file=sys.stderr)
        return 2
    except KeyboardInterrupt:
        print("interrupted (everything stored so far is kept; run the build again to resume)", file=sys.stderr)
        return 130


def prepare_argv(argv: list[str]) -> list[str]:
    """``--order-by -length`` → ``--order-by=-length`` (argparse takes '-length' for an option)."""
    out: list[str] = []
    i = 0
    while i < len(argv):
        if argv[i] == "--order-by" and i + 1 < len(argv) and argv[i + 1].startswith("-") and argv[i + 1][1:2].isalpha():
            out.append(f"--order-by={argv[i + 1]}")
            i += 2
        else:
            out.append(argv[i])
            i += 1
    return out


def _build(args: argparse.Namespace) -> int:
    from ..bank.build import build

    techniques = args.techniques  # checked at parse time

    def say_error(rec: dict) -> None:
        if rec.get("error"):
            message, source = rec["error"], rec.get("source") or ""
            if source and not message.startswith(source):
                message = f"{source}: {message}"  # e.g. a timeout: say which line
            line = f"explain-sudoku db: error: {message}"
            if sys.stderr.isatty():
                from tqdm import tqdm

                tqdm.write(line, file=sys.stderr)
            else:
                print(line, file=sys.stderr)

    report = build(args.files, args.db, jobs=args.jobs, timeout=args.timeout, techniques=techniques,
                   progress=args.progress, dask=args.dask, retry_errors=args.retry_errors,
                   on_stored=say_error, order=args.order)
    print(f"{args.db}: {report.summary()}")
    # like the main command: bad puzzles are stored and reported, and the status says so
    return 2 if report.errors else 0


def _open(args: argparse.Namespace) -> PuzzleDB:
    return PuzzleDB(args.db, create=False)


def _stats(args: argparse.Namespace) -> int:
    with _open(args) as db:
        st = db.stats()
        if args.plot is not None:
            with replacing(args.plot, args.force, args.db) as tmp:
                db.plot(tmp, format=_plot_format(args.plot))
    if args.json:
        print(json.dumps(st, indent=2))
    else:
        print(f"{st['puzzles']} puzzles: {st['explained']} explained, {st['errors']} errors "
              f"({st['timeouts']} timeouts), {st['incomplete']} incomplete")
        print("difficulty: " + ", ".join(f"{k} {v}" for k, v in st["difficulty"].items()))
        if st["techniques"]:
            width = max(len(t) for t in st["techniques"])
            print(f"{'technique'.ljust(width)}  puzzles    steps")
            for t, u in st["techniques"].items():
                print(f"{t.ljust(width)}  {u['puzzles']:7d}  {u['steps']:7d}")
        sec = st["seconds"]
        if sec["mean"] is not None:
            print(f"seconds per puzzle: mean {sec['mean']:.3f}, median {sec['median']:.3f}, "
                  f"p90 {sec['p90']:.3f}, max {sec['max']:.3f} (total {sec['total']:.1f})")
        if st["rating"]["mean"] is not None:
            print(f"rating: mean {st['rating']['mean']:.2f}, max {st['rating']['max']:.1f}")
        er = st["er"]
        if er["mean"] is not None:
            print(f"ER (Sudoku Explainer's scale): mean {er['mean']:.2f}, median {er['median']:.1f}, "
                  f"max {er['max']:.1f}; grades: " + ", ".join(f"{g} {k}" for g, k in er["grades"].items()))
            top = max(er["histogram"].values())
            for value, k in er["histogram"].items():
                print(f"  ER {value:4.1f} {k:6d} {'#' * max(1, round(40 * k / top))}")
    if args.plot is not None:
        print(f"plot: {args.plot}")
    return 0


def _plot_format(path: Path) -> str:
    suffix = path.suffix[1:].lower()
    return suffix if suffix in ("png", "svg", "pdf") else "png"


class replacing:
    """A file written through a temporary file beside it; an existing file only with ``force``."""

    def __init__(self, path: Path, force: bool, db_path: Path | None = None) -> None:
        self.path = Path(path)
        if self.path.exists() or self.path.is_symlink():
            if self.path.is_dir():
                raise OutputError(f"{self.path}: is a folder, not a file")
            if db_path is not None and Path(db_path).exists() and self.path.resolve() == Path(db_path).resolve():
                raise OutputError(f"{self.path}: is the database itself; choose another file")
            if not force:
                raise OutputError(f"{self.path}: exists; not overwritten (pass --force to replace it)")
        self.tmp: Path | None = None

    def __enter__(self) -> Path:
        import tempfile

        try:
            self.path.parent.mkdir(parents=True, exist_ok=True)
            fd, tmp = tempfile.mkstemp(dir=self.path.parent, prefix=f".{self.path.name}.", suffix=".tmp")
        except OSError as e:
            raise OutputError(f"{self.path}: cannot write ({e.strerror or e})") from None
        os.close(fd)
        self.tmp = Path(tmp)
        return self.tmp

    def __exit__(self, kind: object, value: object, tb: object) -> None:
        assert self.tmp is not None
        if kind is None:
            os.replace(self.tmp, self.path)
        else:
            self.tmp.unlink(missing_ok=True)


def _query(args: argparse.Namespace) -> int:
    if args.gif and args.out is None:
        raise UsageError("--gif needs --out DIR")
    if args.out is not None:
        try:
            from render.frame import step_png
        except ImportError as e:
            raise RuntimeError(f"--out needs the renderer (render.frame): {e}") from None
    with _open(args) as db:
        records = db.query(args.technique, order_by=args.order_by, limit=args.limit, difficulty=args.difficulty,
                           rating=args.rating)
        for r in records:
            print(f"puzzle {r.puzzle_id} ({r.puzzle}) step {r.index + 1} [{r.technique}, length {r.length}]: {r.text}")
        if args.out is None:
            if not records:
                print("no matching step", file=sys.stderr)
            return 0
        from render.export import technique_stem

        folder = OutputFolder(args.out, args.force, tool="explain-sudoku db query").open()
        try:
            names = [args.out / f"{k:03d}_p{int(r.puzzle_id)}_s{r.index + 1:03d}_{technique_stem(r.technique)}.png"
                     for k, r in enumerate(records, 1)]
            gif = args.out / "query.gif"
            for f in names + ([gif] if args.gif and names else []):
                folder.guard(f)  # every name checked before anything is written
            files = []
            for f, r in zip(names, records, strict=True):
                f.write_bytes(step_png(r.state(), r.explanation))
                folder.record([f])
                files.append(f)
            print(f"{len(files)} frames in {args.out}")
            if args.gif and files:
                write_gif(files, gif, args.duration)
                folder.record([gif])
                print(f"animation: {gif}")
        finally:
            folder.close()
    return 0


def write_gif(frames: Sequence[Path], path: Path, seconds: float) -> None:
    """An animated GIF of PNG frames, each shown ``seconds``, looping (``render.charts.frames_gif``)."""
    from render.charts import frames_gif

    frames_gif(frames, path, seconds)


def _export(args: argparse.Namespace) -> int:
    with _open(args) as db:
        if args.output is None:
            n = db.export_jsonl(sys.stdout)
        else:
            with replacing(args.output, args.force, args.db) as tmp:
                n = db.export_jsonl(tmp)
            print(f"{args.output}: {n} documents", file=sys.stderr)
    return 0


def _migrate(args: argparse.Namespace) -> int:
    from ..bank.migrate import migrate

    print(migrate(args.db).summary())
    return 0


if __name__ == "__main__":
    sys.exit(main())
