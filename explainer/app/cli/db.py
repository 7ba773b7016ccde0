"""``explain-sudoku db …``: build, inspect, query and export a puzzle database.

    explain-sudoku db build puzzles.txt [--db FILE] [--jobs N] [--timeout S] [--dask ADDR] [--order ORDER]
    explain-sudoku db stats [--plot FILE.png] [--json]
    explain-sudoku db query [--technique T] [--order-by length|-length|rating] [--limit N]
                            [--difficulty D] [--rating 8.0-9.0] [--out DIR [--gif] [--force]]
    explain-sudoku db export --format jsonl [-o FILE [--force]]
    explain-sudoku db migrate [--db FILE]

Errors are one line (``explain-sudoku: error: WHERE: WHAT``) on stderr, with the
exit status of their kind (common.py): 2 bad input (a puzzle file, an option, a
file that is not a puzzle database), 3 an output refused or not written (a
read-only database, another build writing it, an existing file). Every option
is checked when the command is read.

Reading commands (stats, query, export) open the database read-only and leave
nothing beside it (``bank.db.read_connection``); ``build`` refuses a file that
is not a puzzle database before writing anything into it, and a second build
of the same file while one runs (``bank.db.WriterLock``).

Output safety: ``query --out DIR`` follows the rules of the explain command
(cli/output.py): the folder's manifest lists what an earlier query wrote,
only those files (unchanged) are replaced, other files are never changed and
need ``--force`` to write beside. ``export -o FILE`` and ``stats --plot
FILE`` never overwrite an existing file unless ``--force`` is given (the
file is then replaced whole, through a temporary file and a rename), and
never write over the database itself nor its companions (``-wal``, ``-shm``,
``-journal``, ``.lock``). Files are made with the permissions the umask gives.
"""
from __future__ import annotations

import argparse
import json
import os
import sqlite3
import sys
from collections.abc import Sequence
from pathlib import Path
from typing import Any

from explainer.app.bank.db import DEFAULT_DB, ORDER_KEYS, PATH, RATINGS, DatabaseError, DatabaseWriteError, PuzzleDB
from explainer.model.grid import PuzzleError, one_line

from .common import EXIT_BAD_INPUT, EXIT_INTERNAL, EXIT_OK, EXIT_OUTPUT, Parser, UsageError, error, run_alone
from .options import (
    add_order_option,
    add_out_options,
    add_progress_options,
    add_techniques_option,
    file_name,
    integer,
    order_help,
    rating_range,
    real,
    technique_name,
)
from .output import OutputError, OutputFolder, file_mode
from .signals import as_interruption

HELP = "build, rate, query and export a database of explained puzzles"


def configure(p: argparse.ArgumentParser) -> None:
    p.description = "Build, inspect, query and export a puzzle database (one SQLite file)."
    p.epilog = EXIT_STATUS
    sub = p.add_subparsers(dest="db_command", required=True, parser_class=Parser,
                           metavar="{build,stats,query,export,migrate}")

    def common(sp: argparse.ArgumentParser) -> None:
        sp.add_argument("--db", type=file_name("database file"), default=DEFAULT_DB,
                        help=f"database file (default {DEFAULT_DB})")
        sp.epilog = EXIT_STATUS

    b = sub.add_parser("build", help="explain every puzzle of the files and store them",
                       description="Explain every puzzle of the files in worker processes and store each in the "
                                   "database as soon as it is done. Run the same command again to resume: puzzles "
                                   "already stored are skipped. One build at a time per database.")
    b.add_argument("files", nargs="+", help="puzzle files (one puzzle a line, or grids)")
    common(b)
    b.add_argument("--jobs", "-j", type=integer(1, 1024, name="--jobs"), default=None,
                   help="worker processes (default: all cores; not used with --dask)")
    b.add_argument("--timeout", type=real(0, 10**7, open_low=True), default=None, metavar="SECONDS",
                   help="seconds per puzzle before its worker is stopped and it is stored as a timeout "
                        "(default: no limit)")
    add_techniques_option(b)
    b.add_argument("--retry-errors", action="store_true", help="explain again puzzles stored with an error")
    add_order_option(b, order_help() + "; recorded in the bank: a resumed build must use the same order")
    b.add_argument("--rating", choices=RATINGS, default=PATH,
                   help="what the bank's ER/EP/ED are (stats, query --rating, --order-by rating): 'path' (the "
                        "default) the explained path's; 'se' Sudoku Explainer's own numbers as Sukaku Explainer "
                        "1.15.10 rates (the same as explain-sudoku rate), 'se-classic' classic SE 1.2.1.3's; each "
                        "document then records them as se_rating. Recorded in the bank: a resumed build must use "
                        "the same")
    b.add_argument("--dask", default=None, metavar="ADDRESS", help="run on a Dask cluster, e.g. tcp://host:8786")
    add_progress_options(b, "progress bar on stderr even when it is not a terminal")

    s = sub.add_parser("stats", help="counts per difficulty, technique usage, time per puzzle",
                       description="Counts per difficulty, technique usage (puzzles and steps), seconds per puzzle "
                                   "and the ratings (ER histogram and grades) of the database; reads it only.")
    common(s)
    s.add_argument("--plot", type=file_name(), default=None,
                   help="also draw technique usage and the rating histogram into this file (.png, .svg or .pdf; "
                        "an existing file is kept unless --force)")
    s.add_argument("--force", action="store_true", help="replace an existing --plot file")
    s.add_argument("--json", action="store_true", help="print the figures as JSON")

    q = sub.add_parser("query", help="list stored steps (and render them)",
                       description="List the stored steps that match (puzzle, step number, technique, text), "
                                   "optionally one frame per step (--out) and an animation (--gif); reads the "
                                   "database only.")
    common(q)
    q.add_argument("--technique", "-t", action="append", default=None, type=technique_name,
                   help="step name or alias (repeatable)")
    q.add_argument("--order-by", default=None, type=order_key,
                   help=f"{', '.join(ORDER_KEYS)}: largest first; prefix '-' to reverse (default: file order)")
    q.add_argument("--limit", "-n", type=integer(0, 10**9), default=None, metavar="N",
                   help="list at most N steps (default: all)")
    q.add_argument("--difficulty", choices=("easy", "medium", "difficult"), default=None,
                   help="only puzzles of this difficulty class (TECHNIQUES.md)")
    q.add_argument("--rating", type=rating_range, default=None, metavar="LOW-HIGH",
                   help="only puzzles whose ER (Sudoku Explainer's scale) is in this range, e.g. 8.0-9.0")
    add_out_options(q, "folder for one frame PNG per step (guarded by its manifest, as the explain command's)",
                    "write into an --out folder holding other files (they are never changed)", short=False,
                    out_type=Path)
    q.add_argument("--gif", action="store_true", help="with --out: also an animated GIF of the frames")
    q.add_argument("--duration", type=real(0.01, 655.35), default=2.0,
                   help="seconds per GIF frame, 0.01..655.35 (default 2)")

    e = sub.add_parser("export", help="write the stored explanations",
                       description="Write one steps-JSON document per explained puzzle, one per line (what "
                                   "Puzzle.to_json() gives); reads the database only.")
    common(e)
    e.add_argument("--format", choices=("jsonl",), default="jsonl", help="jsonl: one JSON document a line")
    e.add_argument("-o", "--output", type=file_name(), default=None,
                   help="file (default: standard output); an existing file is kept unless --force")
    e.add_argument("--force", action="store_true", help="replace an existing --output file")

    m = sub.add_parser("migrate", help="convert a database of an older schema (the original is kept beside it)",
                       description="Convert a database of schema 1 or 2 to the current one, in one transaction, "
                                   "after copying the original beside it (NAME.vN.bak).")
    common(m)


EXIT_STATUS = ("exit status: 0 done; 2 bad input (a puzzle, an option, a file that is not a puzzle database; "
               "build: some puzzles could not be explained, each stored with its error); 3 an output refused or "
               "not written (a read-only database, another build writing it, an existing file without --force); "
               "130/143 interrupted (build: every puzzle stored so far is kept)")


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
    except BaseException as e:
        stop = as_interruption(e)  # Ctrl-C, kill, or an error that followed one
        if stop is not None:
            if args.db_command == "build":
                stop.note = "every puzzle stored so far is kept; run the build again to resume"  # type: ignore[attr-defined]
            if stop is e:
                raise
            raise stop from e
        if not isinstance(e, Exception):
            raise
        return _failed(args, e)


def _failed(args: argparse.Namespace, e: Exception) -> int:
    """A database command's error as one line and its exit status (what is not the database's
    to say goes on to ``common.invoke``)."""
    if isinstance(e, (OutputError, DatabaseWriteError)):
        error(e)
        return EXIT_OUTPUT
    if isinstance(e, (UsageError, PuzzleError, DatabaseError, ValueError, KeyError)):
        error(e.args[0] if isinstance(e, KeyError) and e.args else str(e))
        return EXIT_BAD_INPUT
    if isinstance(e, RuntimeError):  # workers that cannot start, a cluster out of reach, no renderer
        from explainer.app.bank.build import WorkerStartError

        error(e)
        return EXIT_INTERNAL if isinstance(e, WorkerStartError) else EXIT_BAD_INPUT
    if isinstance(e, sqlite3.Error):
        error(f"{getattr(args, 'db', '')}: database error: {e}")
        written = any(w in str(e) for w in ("readonly", "read-only", "locked", "full", "I/O"))
        return EXIT_OUTPUT if written else EXIT_BAD_INPUT
    if isinstance(e, OSError) and not isinstance(e, BrokenPipeError):  # `db export | head`: invoke ends it quietly
        error(f"{e.filename or _output_of(args)}: cannot write ({e.strerror or e})")
        return EXIT_OUTPUT
    raise e


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
    from explainer.app.bank.build import build

    techniques = args.techniques  # checked at parse time

    def say_error(rec: dict[str, Any]) -> None:
        if rec.get("error"):
            message, source = rec["error"], rec.get("source") or ""
            if source and not message.startswith(source):
                message = f"{source}: {message}"  # e.g. a timeout: say which line
            line = one_line(f"explain-sudoku: error: {message}")
            if sys.stderr.isatty():
                from tqdm import tqdm

                tqdm.write(line, file=sys.stderr)
            else:
                print(line, file=sys.stderr)

    report = build(args.files, args.db, jobs=args.jobs, timeout=args.timeout, techniques=techniques,
                   progress=args.progress, dask=args.dask, retry_errors=args.retry_errors,
                   on_stored=say_error, order=args.order, rating=args.rating)
    print(f"{args.db}: {report.summary()}")
    # like the main command: bad puzzles are stored and reported, and the status says so
    return EXIT_BAD_INPUT if report.errors else EXIT_OK


def _output_of(args: argparse.Namespace) -> str:
    """The output a failed write without a file name went to: the file an option named, else
    standard output (``> /dev/full``)."""
    for option in ("output", "plot"):
        value = getattr(args, option, None)
        if value is not None and str(value) != "-":
            return str(value)
    return "standard output"


def _open(args: argparse.Namespace) -> PuzzleDB:
    """The database, read-only (stats, query, export); a missing one says how to make it."""
    if not Path(args.db).exists() and not Path(args.db).is_symlink():
        raise DatabaseError(f"{args.db}: no such database (make it with: explain-sudoku db build FILE --db {args.db})")
    return PuzzleDB(args.db, create=False, read_only=True)


def _stats(args: argparse.Namespace) -> int:
    if args.plot is not None and str(args.plot) == "-":
        raise PuzzleError("--plot -: a plot is an image file, not text for standard output; give a file name")
    with _open(args) as db:
        st = db.stats()
        if args.plot is not None:
            with replacing(args.plot, args.force, args.db, option="--plot") as tmp:
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


COMPANIONS = ("-wal", "-shm", "-journal", ".lock")  # files SQLite and the build keep beside the database


def _stream_target(path: Path) -> bool:
    """True when ``path`` is (or links to) a character device or a FIFO: written as a stream, in
    place (``/dev/null``, a terminal, a named pipe), never replaced by a regular file."""
    import stat

    try:
        mode = path.stat().st_mode
    except OSError:
        return False
    return stat.S_ISCHR(mode) or stat.S_ISFIFO(mode)


def _wait_for_reader(path: Path) -> int | None:
    """A FIFO is written once a program reads it: opening it for writing would otherwise wait for
    ever; one that nothing opens for reading within ``FIFO_WAIT_SECONDS`` is refused. Its write end
    is returned, to be held open until the stream is written (closing it at once would end the
    reader's input before the stream is opened)."""
    import errno
    import stat
    import time

    from explainer.model import grid

    if not stat.S_ISFIFO(path.stat().st_mode):
        return None
    deadline = time.monotonic() + grid.FIFO_WAIT_SECONDS
    while True:
        try:
            return os.open(path, os.O_WRONLY | os.O_NONBLOCK)
        except OSError as e:
            if e.errno != errno.ENXIO:  # ENXIO: no reader yet
                raise OutputError(f"{path}: cannot write ({e.strerror or e})") from None
        if time.monotonic() >= deadline:
            raise OutputError(f"{path}: a FIFO nothing read from in {grid.FIFO_WAIT_SECONDS:g} s; not written "
                              f"(start its reader first)")
        time.sleep(0.05)


class replacing:
    """A file written through a temporary file beside it; an existing file only with ``force``
    (it keeps its permissions; a new file gets the umask's), never the database or its companions.
    A character device or a FIFO is written in place, as a stream (no temporary file, no rename:
    replacing ``/dev/null`` by a regular file as root would break the system); any other file
    that is not a regular one (a socket, a block device) is refused."""

    def __init__(self, path: Path, force: bool, db_path: Path | None = None, option: str = "") -> None:
        self.path = Path(path)
        self.option = option  # the option that named it (--plot, --output): said when it is refused
        if db_path is not None:
            db = Path(db_path).resolve()
            ours = {db, *(db.with_name(db.name + c) for c in COMPANIONS)}
            if self.path.resolve() in ours:
                raise OutputError(f"{self.path}: is the database or one of its own files; choose another file")
        self.mode = file_mode()
        self.stream = _stream_target(self.path)
        if (self.path.exists() or self.path.is_symlink()) and not self.stream:
            if self.path.is_dir():
                named = f"{self.option} {self.path}" if self.option else str(self.path)
                raise OutputError(f"{named}: is a folder, not a file (give a file name)")
            if self.path.exists() and not self.path.is_file():
                raise OutputError(f"{self.path}: is not a regular file (a socket or a device); not replaced")
            if not force:
                raise OutputError(f"{self.path}: exists; not overwritten (pass --force to replace it)")
            try:
                self.mode = self.path.stat().st_mode & 0o7777
            except OSError:
                pass
        self.tmp: Path | None = None
        self.held: int | None = None  # a FIFO's write end, held open while the stream is written

    def __enter__(self) -> Path:
        import tempfile

        if self.stream:
            self.tmp = None
            self.held = _wait_for_reader(self.path)
            return self.path
        try:
            if not self.path.parent.is_dir():
                self.path.parent.mkdir(parents=True, exist_ok=True)
            fd, tmp = tempfile.mkstemp(dir=self.path.parent, prefix=f".{self.path.name}.", suffix=".tmp")
            os.fchmod(fd, self.mode)
        except FileExistsError:
            raise OutputError(f"{self.path}: cannot write (a file is in the way of its folder)") from None
        except OSError as e:
            raise OutputError(f"{self.path}: cannot write ({e.strerror or e})") from None
        os.close(fd)
        self.tmp = Path(tmp)
        return self.tmp

    def __exit__(self, kind: object, value: object, tb: object) -> None:
        if self.tmp is None:  # a stream, written in place
            if self.held is not None:
                os.close(self.held)
                self.held = None
            return
        if kind is None:
            try:
                os.replace(self.tmp, self.path)
            except OSError as e:
                self.tmp.unlink(missing_ok=True)
                raise OutputError(f"{self.path}: cannot write ({e.strerror or e})") from None
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
                print("explain-sudoku db query: no matching step", file=sys.stderr)
            return 0
        from render.plan import technique_stem
        from techniques import known_kinds

        with OutputFolder(args.out, args.force, tool="explain-sudoku db query").open() as folder:
            names = [args.out / f"{k:03d}_p{int(r.puzzle_id)}_s{r.index + 1:03d}_{technique_stem(r.technique)}.png"
                     for k, r in enumerate(records, 1)]
            gif = args.out / "query.gif"
            for f in names + ([gif] if args.gif and names else []):
                folder.guard(f)  # every name checked before anything is written
            files = []
            for f, r in zip(names, records, strict=True):
                f.write_bytes(step_png(r.state(), r.explanation, kinds=known_kinds()))
                folder.record([f])
                files.append(f)
            print(f"{len(files)} frames in {args.out}")
            if args.gif and files:
                write_gif(files, gif, args.duration)
                folder.record([gif])
                print(f"animation: {gif}")
    return EXIT_OK


def write_gif(frames: Sequence[Path], path: Path, seconds: float) -> None:
    """An animated GIF of PNG frames, each shown ``seconds``, looping (``render.charts.frames_gif``)."""
    from render.charts import frames_gif

    frames_gif(frames, path, seconds)


def _export(args: argparse.Namespace) -> int:
    with _open(args) as db:
        if args.output is None or str(args.output) == "-":  # -o -: standard output
            n = db.export_jsonl(sys.stdout)
        else:
            with replacing(args.output, args.force, args.db, option="--output") as tmp:
                n = db.export_jsonl(tmp)
            print(f"{args.output}: {n} documents", file=sys.stderr)
    return 0


def _migrate(args: argparse.Namespace) -> int:
    from explainer.app.bank.migrate import migrate

    print(migrate(args.db).summary())
    return 0


if __name__ == "__main__":
    sys.exit(main())
