"""``explain-sudoku db …``: build, inspect, query and export a puzzle database.

    explain-sudoku db build puzzles.txt [--db FILE] [--jobs N] [--timeout S] [--dask ADDR]
    explain-sudoku db stats [--plot FILE.png] [--json]
    explain-sudoku db query [--technique T] [--order-by length|-length|rating] [--limit N]
                            [--difficulty D] [--rating 8.0-9.0] [--out DIR [--gif]]
    explain-sudoku db export --format jsonl [-o FILE]

Errors are one line (what and where) on stderr with exit status 2.
"""
from __future__ import annotations

import argparse
import json
import os
import sqlite3
import sys
from pathlib import Path
from typing import Sequence

from .db import DEFAULT_DB, ORDER_KEYS, DatabaseError, PuzzleDB
from .grid import PuzzleError


class UsageError(Exception):
    pass


class _Parser(argparse.ArgumentParser):
    def error(self, message: str) -> None:  # one line, exit 2, no usage dump
        raise UsageError(f"{self.prog}: {message}")


def _parser() -> argparse.ArgumentParser:
    p = _Parser(prog="explain-sudoku db", description="Build, inspect, query and export a puzzle database.")
    sub = p.add_subparsers(dest="command", required=True, parser_class=_Parser)

    def common(sp: argparse.ArgumentParser) -> None:
        sp.add_argument("--db", type=Path, default=DEFAULT_DB, help=f"database file (default {DEFAULT_DB})")

    b = sub.add_parser("build", help="explain every puzzle of the files and store them")
    b.add_argument("files", nargs="+", help="puzzle files (one puzzle a line, or grids)")
    common(b)
    b.add_argument("--jobs", "-j", type=int, default=None, help="worker processes (default: all cores; not used with --dask)")
    b.add_argument("--timeout", type=float, default=None, help="seconds per puzzle before it is recorded as a timeout")
    b.add_argument("--techniques", default=None, help="comma-separated techniques (default: all)")
    b.add_argument("--retry-errors", action="store_true", help="explain again puzzles stored with an error")
    b.add_argument("--dask", default=None, metavar="ADDRESS", help="run on a Dask cluster, e.g. tcp://host:8786")
    g = b.add_mutually_exclusive_group()
    g.add_argument("--progress", dest="progress", action="store_true", default=None,
                   help="progress bar on stderr even when it is not a terminal")
    g.add_argument("--no-progress", dest="progress", action="store_false")

    s = sub.add_parser("stats", help="counts per difficulty, technique usage, time per puzzle")
    common(s)
    s.add_argument("--plot", type=Path, default=None, help="PNG file: technique usage and rating histogram")
    s.add_argument("--json", action="store_true", help="print the figures as JSON")

    q = sub.add_parser("query", help="list stored steps (and render them)")
    common(q)
    q.add_argument("--technique", "-t", action="append", default=None, help="step name or alias (repeatable)")
    q.add_argument("--order-by", default=None,
                   help=f"{', '.join(ORDER_KEYS)}: largest first; prefix '-' to reverse (default: file order)")
    q.add_argument("--limit", "-n", type=int, default=None)
    q.add_argument("--difficulty", choices=("easy", "medium", "difficult"), default=None)
    q.add_argument("--rating", default=None, metavar="LOW-HIGH",
                   help="only puzzles whose ER (Sudoku Explainer's scale) is in this range, e.g. 8.0-9.0")
    q.add_argument("--out", type=Path, default=None, help="folder for one frame PNG per step")
    q.add_argument("--gif", action="store_true", help="with --out: also an animated GIF of the frames")
    q.add_argument("--duration", type=float, default=2.0, help="seconds per GIF frame (default 2)")

    e = sub.add_parser("export", help="write the stored explanations")
    common(e)
    e.add_argument("--format", choices=("jsonl",), default="jsonl")
    e.add_argument("-o", "--output", type=Path, default=None, help="file (default: standard output)")
    return p


def main(argv: Sequence[str] | None = None) -> int:
    try:
        args = _parser().parse_args(_join_negative(list(sys.argv[1:] if argv is None else argv)))
        return {"build": _build, "stats": _stats, "query": _query, "export": _export}[args.command](args)
    except (UsageError, PuzzleError, DatabaseError, ValueError, RuntimeError, KeyError) as e:
        msg = e.args[0] if isinstance(e, KeyError) and e.args else str(e)
        print(f"error: {msg}", file=sys.stderr)
        return 2
    except sqlite3.Error as e:
        print(f"error: {getattr(args, 'db', '')}: database error: {e}", file=sys.stderr)
        return 2
    except BrokenPipeError:  # `db export | head`: the reader is gone, nothing to say
        devnull = os.open(os.devnull, os.O_WRONLY)
        os.dup2(devnull, sys.stdout.fileno())
        return 0
    except OSError as e:
        where = f"{e.filename}: " if e.filename else ""
        print(f"error: {where}{e.strerror or e}", file=sys.stderr)
        return 2
    except KeyboardInterrupt:
        print("interrupted (everything stored so far is kept; run the build again to resume)", file=sys.stderr)
        return 130


def _join_negative(argv: list[str]) -> list[str]:
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
    from .dbbuild import build

    if args.jobs is not None and args.jobs < 1:
        raise UsageError(f"--jobs must be at least 1, got {args.jobs}")
    if args.timeout is not None and args.timeout <= 0:
        raise UsageError(f"--timeout must be positive, got {args.timeout:g}")
    techniques = None
    if args.techniques:
        from techniques import select

        techniques = [t.strip() for t in args.techniques.split(",") if t.strip()]
        select(techniques)  # unknown names fail here, before any work
    def say_error(rec: dict) -> None:
        if rec.get("error"):
            line = f"explain-sudoku db: error: {rec['error']}"
            if sys.stderr.isatty():
                from tqdm import tqdm

                tqdm.write(line, file=sys.stderr)
            else:
                print(line, file=sys.stderr)

    report = build(args.files, args.db, jobs=args.jobs, timeout=args.timeout, techniques=techniques,
                   progress=args.progress, dask=args.dask, retry_errors=args.retry_errors,
                   on_stored=say_error)
    print(f"{args.db}: {report.summary()}")
    # like the main command: bad puzzles are stored and reported, and the status says so
    return 2 if report.errors else 0


def _open(args: argparse.Namespace) -> PuzzleDB:
    return PuzzleDB(args.db, create=False)


def _stats(args: argparse.Namespace) -> int:
    with _open(args) as db:
        st = db.stats()
        if args.plot is not None:
            args.plot.parent.mkdir(parents=True, exist_ok=True)
            db.plot(args.plot)
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
        args.out.mkdir(parents=True, exist_ok=True)
        files = []
        for k, r in enumerate(records, 1):
            name = r.technique.upper().replace(" ", "-")
            f = args.out / f"{k:03d}_p{r.puzzle_id}_s{r.index + 1:03d}_{name}.png"
            f.write_bytes(step_png(r.state(), r.explanation))
            files.append(f)
        print(f"{len(files)} frames in {args.out}")
        if args.gif and files:
            gif = args.out / "query.gif"
            write_gif(files, gif, args.duration)
            print(f"animation: {gif}")
    return 0


def write_gif(frames: Sequence[Path], path: Path, seconds: float) -> None:
    """An animated GIF of PNG frames (Pillow), each shown ``seconds``, looping."""
    from PIL import Image

    images = [Image.open(f).convert("RGB") for f in frames]
    size = images[0].size
    images = [im if im.size == size else im.resize(size) for im in images]
    images[0].save(path, save_all=True, append_images=images[1:], duration=int(seconds * 1000), loop=0,
                   optimize=False)


def _export(args: argparse.Namespace) -> int:
    with _open(args) as db:
        if args.output is None:
            n = db.export_jsonl(sys.stdout)
        else:
            args.output.parent.mkdir(parents=True, exist_ok=True)
            n = db.export_jsonl(args.output)
            print(f"{args.output}: {n} documents", file=sys.stderr)
    return 0


if __name__ == "__main__":
    sys.exit(main())
