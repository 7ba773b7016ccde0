"""The puzzle database: explained puzzles and their steps in one SQLite file.

The seed pickled a dict of explained puzzles; here every puzzle is a row of
``puzzles``, so a build can be resumed, killed at any moment without losing
what was committed, and queried across puzzles ("every chain step, longest
first").

Layout (``PRAGMA user_version`` = ``SCHEMA_VERSION`` = 4):

- ``puzzles``: one row per puzzle text (``text`` is the one-line form of the
  givens, or the raw text when it does not parse). A failed puzzle keeps its
  ``error`` (``file:line: message`` or ``timeout after N s``) and no steps.
  ``er`` / ``ep`` / ``ed`` are the puzzle's ratings on Sudoku Explainer's
  scale (``explainer.model.rating``); ``rating`` / ``rating_sum`` stay the hardest
  step's base weight and the sum of the steps' base weights. Every column a
  query filters or sorts on is a plain column here.
- ``payloads``: the whole steps-JSON document of a puzzle, packed and
  compressed (``explainer.app.bank.pack``: about 3 KB instead of 50 KB), from
  which ``export_jsonl`` rebuilds ``Puzzle.to_json()`` byte for byte.
- ``codecs``: how each part of a payload is compressed (zlib, with a preset
  dictionary learnt from the bank's first 64 puzzles, ``payloads``).
- ``techniques`` (id → step name) and ``step_index``: for each technique of
  each puzzle, its steps' (index, placements, eliminations, ``length``)
  packed in a few bytes; ``length`` is the chain length or pattern size read
  from the step's detail, else the number of highlighted candidates, else of
  highlighted cells. Queries select and sort on these and open a payload
  only for the steps they return.
- ``meta``: key/value facts about the build (technique set, ``order``: the
  engine's order, simplest or seed).

Schema versions: 1 had no ``er`` / ``ep`` / ``ed``; 2 stored every step's
JSON text in a ``steps`` row (44–78 KB a puzzle); 3 classed difficulty by
the steps used (trial, brutal) and named the order a ``path`` (registry or
easiest), where 4 classes it by ER bands (``explainer.model.rating.DIFFICULTY_BANDS``)
and every document records its ``order``. A file of an older
version is refused with the command that converts it
(``explain-sudoku db migrate``, ``explainer.app.bank.migrate``), which keeps
the original beside it.

Every stored puzzle is one transaction in WAL mode (synchronous=NORMAL): a
killed process loses nothing committed; a power cut may lose the last few
commits but never leaves a broken file.

The build itself (worker processes, timeouts, Dask) is ``explainer.app.bank.build``.
"""
from __future__ import annotations

import json
import math
import os
import shutil
import sqlite3
import statistics as pystats
import tempfile
import urllib.parse
import zlib
from collections import Counter
from collections.abc import Callable, Iterable, Iterator, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import IO, Any

from explainer.model.explanation import Explanation, step_length
from explainer.model.grid import PuzzleError, PuzzleTypeError, UnknownNameError, type_name

from .pack import Packed, compact, decode_steps, encode_steps, pack
from .payloads import Payloads

SCHEMA_VERSION = 4
DEFAULT_DB = Path("output") / "puzzles.sqlite"

SCHEMA = """
CREATE TABLE IF NOT EXISTS puzzles (
    id          INTEGER PRIMARY KEY,
    text        TEXT NOT NULL UNIQUE,
    size        INTEGER,
    solution    TEXT,
    difficulty  TEXT,
    complete    INTEGER,
    rating      REAL,
    rating_sum  REAL,
    er          REAL,
    ep          REAL,
    ed          REAL,
    steps       INTEGER,
    seconds     REAL,
    error       TEXT,
    source      TEXT
);
CREATE TABLE IF NOT EXISTS payloads (
    puzzle_id   INTEGER PRIMARY KEY,
    data        BLOB NOT NULL
);
CREATE TABLE IF NOT EXISTS codecs (
    id          INTEGER PRIMARY KEY,
    part        TEXT NOT NULL,
    zdict       BLOB
);
CREATE TABLE IF NOT EXISTS techniques (
    id          INTEGER PRIMARY KEY,
    name        TEXT NOT NULL UNIQUE
);
CREATE TABLE IF NOT EXISTS step_index (
    technique   INTEGER NOT NULL,
    puzzle_id   INTEGER NOT NULL,
    n           INTEGER NOT NULL,
    steps       BLOB NOT NULL,
    PRIMARY KEY (technique, puzzle_id)
) WITHOUT ROWID;
CREATE TABLE IF NOT EXISTS meta (
    key   TEXT PRIMARY KEY,
    value TEXT NOT NULL
);
CREATE INDEX IF NOT EXISTS puzzles_by_difficulty ON puzzles(difficulty, rating);
CREATE INDEX IF NOT EXISTS puzzles_by_rating ON puzzles(rating);
CREATE INDEX IF NOT EXISTS puzzles_by_er ON puzzles(er);
"""

# A query's hit is a plain tuple (tens of thousands are sorted): (place, step, places, eliminations,
# length, row), place = the puzzle's (source file, line, id), row = the query's SQL row (R_* below).
Hit = tuple[tuple[str, int, int], int, int, int, int, tuple[Any, ...]]
R_NAME, R_BLOB, R_ID, R_TEXT, R_DIFFICULTY, R_WEIGHT, R_ER, R_SECONDS, R_STEPS, R_SOURCE = range(10)


def _file_order(h: Hit) -> tuple[tuple[str, int, int], int]:
    """File order: by source file, then line (puzzles are stored in completion order, so ids are not it)."""
    return h[0], h[1]


# order_by keys: the plain key puts the largest first (the longest chain,
# the hardest puzzle: what a query is usually after); a leading "-" reverses
# it. "puzzle" is file order (puzzle, then step index). None sorts below
# every number, as in SQL.
ORDER_KEYS: dict[str, tuple[Callable[[Hit], Any], bool]] = {
    "length": (lambda h: h[4], True),
    "rating": (lambda h: h[5][R_ER], True),
    "er": (lambda h: h[5][R_ER], True),
    "weight": (lambda h: h[5][R_WEIGHT], True),
    "eliminations": (lambda h: h[3], True),
    "progress": (lambda h: h[2] + h[3], True),
    "seconds": (lambda h: h[5][R_SECONDS], True),
    "steps": (lambda h: h[5][R_STEPS], True),
    "puzzle": (_file_order, False),
}
FILE_ORDER = "src_file(p.source) ASC, src_line(p.source) ASC, p.id ASC"


def _src_file(source: str | None) -> str:
    """'dir/f.txt:12' -> 'dir/f.txt' (the file part of a puzzle's source)."""
    if not source:
        return ""
    head, sep, tail = source.rpartition(":")
    return head if sep and tail.isdigit() else source


def _src_line(source: str | None) -> int:
    if not source:
        return 0
    _, sep, tail = source.rpartition(":")
    return int(tail) if sep and tail.isdigit() else 0


class DatabaseError(PuzzleError):
    """The database file cannot be used (missing, not SQLite, newer schema): the library's
    one error type, ``explainer.PuzzleError``, for a database."""


class DatabaseWriteError(DatabaseError):
    """The database cannot be written (a read-only file or folder, another build writing it)."""


def read_connection(path: Path) -> sqlite3.Connection:
    """A connection that only reads ``path`` and leaves nothing behind.

    - ``-wal``, ``-shm`` or ``-journal`` beside the file (a program is writing it, or one
      was killed): ``mode=ro``, reading the committed state through them, left as found;
    - else, when we may write the file and its folder: a plain connection with
      ``query_only`` (SQLite refuses any write), which removes the ``-wal``/``-shm`` it
      makes when it closes;
    - else (a read-only file, folder or mount, where nobody can be writing it):
      ``immutable=1``, which makes no file at all.
    """
    companions = [path.with_name(path.name + s) for s in ("-wal", "-shm", "-journal")]
    uri = "file:" + urllib.parse.quote(str(path.resolve()))
    folder = path.resolve().parent
    wal, shm, _ = companions
    if wal.exists() and not shm.exists():
        return _snapshot_connection(path, wal)
    if any(c.exists() for c in companions):
        conn = sqlite3.connect(uri + "?mode=ro", uri=True, timeout=30, isolation_level=None)
    elif os.access(path, os.W_OK) and os.access(folder, os.W_OK):
        conn = sqlite3.connect(str(path), timeout=30, isolation_level=None)
        conn.execute("PRAGMA query_only = ON")
    else:
        conn = sqlite3.connect(uri + "?immutable=1", uri=True, timeout=30, isolation_level=None)
    return conn


class _SnapshotConnection(sqlite3.Connection):
    """A connection to a private copy of a database, its folder removed when it closes."""

    folder: str = ""

    def close(self) -> None:
        super().close()
        if self.folder:
            shutil.rmtree(self.folder, ignore_errors=True)
            self.folder = ""

    def __del__(self) -> None:
        self.close()


def _snapshot_connection(path: Path, wal: Path) -> sqlite3.Connection:
    """A database copied with its ``-wal`` but no ``-shm`` (nobody has it open: a writer keeps
    the ``-shm``): SQLite would make the ``-shm`` beside it even read-only, so read a private copy
    of the two files instead (a rare case: a copied or moved database)."""
    folder = tempfile.mkdtemp(prefix="explain-sudoku-db-")
    try:
        shutil.copyfile(path, os.path.join(folder, "db.sqlite"))
        shutil.copyfile(wal, os.path.join(folder, "db.sqlite-wal"))
        conn = sqlite3.connect(os.path.join(folder, "db.sqlite"), timeout=30, isolation_level=None,
                               factory=_SnapshotConnection)
    except BaseException:
        shutil.rmtree(folder, ignore_errors=True)
        raise
    assert isinstance(conn, _SnapshotConnection)
    conn.folder = folder
    conn.execute("PRAGMA query_only = ON")
    return conn


LOCK_MARK = "explain-sudoku: a build is writing the database beside this file\n"


class DatabaseBusy(DatabaseWriteError):
    """Another build (or migration) is writing the database."""


class WriterLock:
    """One writer at a time: an exclusive ``flock`` on ``NAME.lock`` beside the database, held
    while a build or a migration writes it (``with WriterLock(path):``).

    A second writer is refused at once (``DatabaseBusy``, naming the process that holds it)
    rather than redoing the work the first is doing. The kernel drops the lock when its
    process dies, even by SIGKILL; the file is removed when the writer is done, and one left
    by a killed writer is taken over (it holds only our mark and a process id). A file of
    that name that is not ours is left alone, and the build refused."""

    def __init__(self, db_path: str | Path) -> None:
        self.db = Path(db_path)
        self.path = self.db.with_name(self.db.name + ".lock")
        self.fd: int | None = None

    def __enter__(self) -> WriterLock:
        try:
            import fcntl
        except ImportError:  # not on Windows: no lock there (SQLite still serialises the writes)
            return self
        while True:
            try:
                fd = os.open(self.path, os.O_RDWR | os.O_CREAT | getattr(os, "O_NOFOLLOW", 0), 0o666)
            except OSError as e:
                raise DatabaseWriteError(f"{self.path}: cannot make the build lock ({e.strerror or e})") from None
            try:
                head = os.pread(fd, 4096, 0).decode("utf-8", "replace")
                if head and not head.startswith(LOCK_MARK):
                    raise DatabaseWriteError(f"{self.path}: exists and is not ours (a build locks the database "
                                             f"with this name); move it away")
                try:
                    fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
                except BlockingIOError:
                    holder = head[len(LOCK_MARK):].strip()
                    raise DatabaseBusy(f"{self.db}: another build is writing this database ({holder or 'a process'}"
                                       f"); run this again when it is done: the puzzles it stored are then "
                                       f"skipped") from None
                try:
                    same = os.fstat(fd).st_ino == os.stat(self.path, follow_symlinks=False).st_ino
                except FileNotFoundError:
                    same = False
            except BaseException:
                os.close(fd)
                raise
            if same:  # not a file the previous holder removed while we waited for it
                break
            os.close(fd)
        os.ftruncate(fd, 0)
        os.pwrite(fd, f"{LOCK_MARK}pid {os.getpid()}\n".encode(), 0)
        self.fd = fd
        return self

    def __exit__(self, *exc: Any) -> None:
        if self.fd is None:
            return
        try:
            self.path.unlink(missing_ok=True)  # still holding the lock: a waiter then tries the new file
        except OSError:
            pass
        os.close(self.fd)
        self.fd = None


TABLES = ("puzzles", "payloads", "codecs", "techniques", "step_index", "meta")  # every table of SCHEMA


def check_tables(conn: sqlite3.Connection, path: Path) -> None:
    """Refuse a file whose header says this schema but whose tables are not all there (a file
    another program marked, or a damaged one): SQLite would only say "no such table" later, after
    a build had already switched the file's journal mode."""
    have = {n for (n,) in conn.execute("SELECT name FROM sqlite_master WHERE type = 'table'")}
    missing = [t for t in TABLES if t not in have]
    if len(missing) == len(TABLES):
        raise DatabaseError(f"{path}: schema version {SCHEMA_VERSION} but none of its tables: not a puzzle "
                            f"database (left unchanged)")
    if missing:
        raise DatabaseError(f"{path}: schema version {SCHEMA_VERSION} but without its table{'s' * (len(missing) > 1)} "
                            f"{', '.join(missing)}: not a puzzle database (left unchanged)")


def create_new(path: Path) -> bool:
    """Make an empty puzzle database at ``path`` if no file of that name exists; True when this
    call made it.

    Exclusive: the tables are made in a private file beside it, which is then hard-linked to the
    final name (``link`` fails when the name exists), so two builds that both saw no file cannot
    both believe they made it, and the one refused never removes the other's database. Where the
    file system has no hard links, an ``O_EXCL`` placeholder claims the name first."""
    if path.exists() or path.is_symlink():
        return False
    tmp = path.with_name(f".{path.name}.{os.getpid()}.{os.urandom(4).hex()}.new")
    try:
        os.close(os.open(tmp, os.O_WRONLY | os.O_CREAT | os.O_EXCL, 0o666))
        conn = sqlite3.connect(str(tmp), timeout=30, isolation_level=None)
        try:
            conn.execute("PRAGMA journal_mode=WAL")
            with _Transaction(conn):
                create_tables(conn)
        finally:
            conn.close()  # the last connection: checkpoints and removes the -wal and -shm
        try:
            os.link(tmp, path)
        except FileExistsError:
            return False
        except OSError:  # no hard links here: claim the name, then put the database over our own claim
            try:
                os.close(os.open(path, os.O_WRONLY | os.O_CREAT | os.O_EXCL, 0o666))
            except FileExistsError:
                return False
            os.replace(tmp, path)
        return True
    except sqlite3.Error as e:
        raise DatabaseWriteError(f"{path}: cannot make the database ({_disk_words(e)})") from None
    except OSError as e:
        raise DatabaseWriteError(f"{path}: cannot make the database ({e.strerror or e})") from None
    finally:
        for p in (tmp, *(tmp.with_name(tmp.name + s) for s in ("-wal", "-shm", "-journal"))):
            try:
                p.unlink(missing_ok=True)
            except OSError:
                pass


def _disk_words(e: sqlite3.Error) -> str:
    """SQLite's message for a full disk ("database or disk is full", or "disk I/O error" when the
    journal could not grow) said as the system says it."""
    text = str(e)
    return "No space left on device" if "full" in text or "I/O" in text else text


def make_folder(folder: Path) -> None:
    """The database's folder, made when missing (DatabaseWriteError when it cannot be)."""
    try:
        folder.mkdir(parents=True, exist_ok=True)
    except FileExistsError:
        raise DatabaseWriteError(f"{folder}: cannot make the database's folder (a file of that name is in the "
                                 f"way)") from None
    except OSError as e:
        raise DatabaseWriteError(f"{folder}: cannot make the database's folder ({e.strerror or e})") from None


# ---- rating --------------------------------------------------------------------------

def weight_of(technique: str) -> float:
    """The rating weight of a step name (its StepKind in the registry).

    A step name without a weight counts as ``brutal``: an unrated technique
    never makes a puzzle look easier than it is.
    """
    from techniques import kind, weights

    k = kind(technique)
    # unrated: as heavy as the heaviest kind (brutal), never lighter
    return float(k.weight if k is not None else max(weights().values(), default=10.0))


def rating_of(techniques: Iterable[str]) -> tuple[float, float]:
    """(rating, sum): the hardest step's weight and the sum of every step's weight."""
    weights = [weight_of(t) for t in techniques]
    return (max(weights) if weights else 0.0), round(sum(weights), 6)


MAX_BAD_TEXT = 4000  # characters of an unreadable puzzle kept in the database


def puzzle_key(text: str) -> str:
    """The key a puzzle is stored under: its one-line givens, or the stripped raw text."""
    from explainer.model.grid import PuzzleError, parse_grid

    try:
        return parse_grid(text).to_line()
    except PuzzleError:
        raw = text.strip()
        if len(raw) > MAX_BAD_TEXT:  # a huge bad line is not stored whole
            return f"{raw[:MAX_BAD_TEXT // 2]}… ({len(raw)} characters, cut)"
        return raw


# ---- results as data (what a worker sends back) -------------------------------------

# What a bank's ER / EP / ED are: the explained path's, or Sudoku Explainer's own numbers (Sukaku
# Explainer 1.15.10's, classic SE 1.2.1.3's): the name of the SE order that gives them
PATH = "path"
RATINGS = (PATH, "se", "se-classic")


def explain_record(text: str, where: str = "", techniques: Sequence[str] | None = None,
                   order: str | None = None, rated_by: str = PATH) -> dict[str, Any]:
    """Explain one puzzle and return the row to store (never raises for a bad puzzle).

    ``rated_by``: the ER / EP / ED to store, the path's (``PATH``) or Sudoku Explainer's ("se",
    "se-classic": the document then records them as ``se_rating``). Runs in worker processes
    (local pool or Dask), so it returns plain data.
    """
    import time

    from explainer.api import Puzzle
    from explainer.model.grid import PuzzleError

    start = time.perf_counter()
    rec: dict[str, Any] = {"text": puzzle_key(text), "source": where, "error": None, "steps": []}
    try:
        p = Puzzle(text, techniques, where=where, order=order)
        doc = p.to_json()
        if rated_by != PATH:
            from explainer.api import rate

            se_rated = p.rating if p.order.name == rated_by else rate(p.grid, classic=rated_by == "se-classic",
                                                                      where=where)
            doc["se_rating"] = dict(se_rated.to_dict(), order=rated_by)
    except PuzzleError as e:
        rec["error"] = str(e) if e.where else f"{where}: {e}" if where else str(e)
        rec["seconds"] = time.perf_counter() - start
        return rec
    except Exception as e:  # a technique bug must not stop a build of thousands
        rec["error"] = f"{where}: internal error: {type(e).__name__}: {e}" if where else \
            f"internal error: {type(e).__name__}: {e}"
        rec["seconds"] = time.perf_counter() - start
        return rec
    steps = doc["steps"]
    rating, rating_sum = rating_of(s["technique"] for s in steps)
    se = doc.get("se_rating") or doc.get("rating") or {}
    rec.update(er=se.get("er"), ep=se.get("ep"), ed=se.get("ed"))
    rec.update(
        text=doc["puzzle"], size=doc["size"], solution=doc["solution"], difficulty=doc["difficulty"],
        complete=bool(doc["complete"]), rating=rating, rating_sum=rating_sum, n_steps=len(steps),
        seconds=time.perf_counter() - start, parts=pack(doc),
        steps=[(s["technique"], len(s.get("place", ())), len(s.get("eliminate", ())), step_length(s))
               for s in steps],
    )
    return rec


def error_record(text: str, where: str, error: str, seconds: float = 0.0) -> dict[str, Any]:
    return {"text": puzzle_key(text), "source": where, "error": error, "steps": [], "seconds": seconds}


# ---- step records ---------------------------------------------------------------------

@dataclass
class StepRecord:
    """One stored step found by a query; it can rebuild its state and draw itself.

    ``text`` is read when the record is made; the step's full JSON
    (``json``, ``explanation``) only when asked for, from the puzzle's
    unpacked payload the record shares with the other steps of its puzzle.
    """

    db: PuzzleDB = field(repr=False)
    puzzle_id: int
    puzzle: str
    index: int
    technique: str
    text: str
    length: int
    n_place: int
    n_eliminate: int
    difficulty: str
    rating: float  # the puzzle's hardest base weight
    packed: Packed = field(repr=False)
    er: float | None = None  # the puzzle's ER (Sudoku Explainer's scale)

    @property
    def json(self) -> str:
        """The step's JSON text (compact, UTF-8 kept), as schema 2 stored it."""
        return compact(self.packed.step(self.index))

    @property
    def explanation(self) -> Explanation:
        return Explanation.from_dict(self.packed.step(self.index))

    def state(self) -> Any:
        """The candidate state before this step: the givens, then every earlier step."""
        from explainer.model.grid import parse_grid
        from explainer.model.state import State

        state = State.from_grid(parse_grid(self.puzzle))
        for i in range(self.index):
            state.apply(Explanation.from_dict(self.packed.step(i)))
        return state

    def png(self) -> bytes:
        """The frame of this step (state before it, step drawn) as PNG bytes."""
        from render.frame import step_png  # lazy: the database never needs matplotlib
        from techniques import known_kinds

        # 1-based, as "step N" everywhere
        return step_png(self.state(), self.explanation, number=self.index + 1, kinds=known_kinds())

    def _repr_png_(self) -> bytes:
        return self.png()


# ---- the database --------------------------------------------------------------------

class PuzzleDB:
    """An SQLite file of explained puzzles.

    >>> db = PuzzleDB("output/puzzles.sqlite")            # doctest: +SKIP
    >>> for r in db.query("chain", order_by="length", limit=3):   # doctest: +SKIP
    ...     print(r.puzzle, r.index, r.text)
    """

    def __init__(self, path: str | Path = DEFAULT_DB, *, create: bool = False, read_only: bool = False) -> None:
        """Open the database at ``path``; ``create=True``: or make it when no file of that name
        exists (its folder too). Reading never creates anything: without ``create`` a missing
        file is refused, and an empty file (0 bytes) or an SQLite file without our tables is
        refused unchanged in every mode (a build makes only a file that does not exist yet).

        ``read_only``: only read it (the reading commands): the file is never
        written, and no ``-wal``/``-shm`` file is left beside it (``read_connection``).
        A file that is not a puzzle database of this schema is refused before
        anything is written into it, whatever the mode."""
        if not isinstance(path, (str, os.PathLike)):
            raise PuzzleTypeError(f"a database is a file name (a string or a Path), not {type_name(path)}")
        if not str(os.fspath(path)).strip():
            raise DatabaseError("a database file name is needed, not an empty one")
        for name, flag in (("create", create), ("read_only", read_only)):
            if not isinstance(flag, bool):  # create="no" would make a file
                raise PuzzleTypeError(f"{name} is True or False, not {flag!r}")
        self.path = Path(path)
        if not create and not self.path.exists():
            raise DatabaseError(f"{self.path}: no such database (run 'db build' first, or open it with "
                                f"create=True to make it)")
        if self.path.exists() and not self.path.is_file():
            raise DatabaseError(f"{self.path}: not a file")
        if self.path.exists() and self.path.stat().st_size == 0:
            raise DatabaseError(f"{self.path}: an empty file, not a puzzle database (left unchanged)")
        # a file we may not write is only read; one we would write is checked first, read-only
        self.read_only = read_only or (self.path.exists() and not os.access(self.path, os.W_OK))
        if create and self.read_only and not read_only:
            raise DatabaseWriteError(f"{self.path}: read-only file, cannot store puzzles in it")
        try:
            self._connect(create)
        except BaseException:
            conn = getattr(self, "conn", None)
            if conn is not None:  # a refused file: close it now (a reading one leaves nothing behind)
                conn.close()
            raise

    def _connect(self, create: bool) -> None:
        try:
            if self.read_only:
                self.conn = read_connection(self.path)
                self._check_ours()
            else:
                if self.path.exists() and self.path.stat().st_size:
                    self._check_before_writing()
                if create:
                    make_folder(self.path.parent)
                self.conn = sqlite3.connect(str(self.path), timeout=30, isolation_level=None)
                self.conn.execute("PRAGMA journal_mode=WAL")
                self.conn.execute("PRAGMA synchronous=NORMAL")
                self._migrate()
            self.conn.create_function("src_file", 1, _src_file, deterministic=True)
            self.conn.create_function("src_line", 1, _src_line, deterministic=True)
            self.conn.execute("PRAGMA foreign_keys=ON")
            self.payloads = Payloads(self.conn)
        except sqlite3.OperationalError as e:
            if "readonly" in str(e).replace("-", "").replace(" ", ""):
                raise DatabaseWriteError(f"{self.path}: read-only, cannot be written ({e})") from None
            if "locked" in str(e) or "busy" in str(e):
                raise DatabaseWriteError(f"{self.path}: in use by another program ({e})") from None
            raise DatabaseError(f"{self.path}: not a puzzle database ({e})") from None
        except sqlite3.DatabaseError as e:
            raise DatabaseError(f"{self.path}: not a puzzle database ({e})") from None

    def _check_before_writing(self) -> None:
        """Refuse an existing file that is not a puzzle database of this schema, through a
        read-only connection: nothing in it changes (not even its journal mode)."""
        conn = read_connection(self.path)
        try:
            (version,) = conn.execute("PRAGMA user_version").fetchone()
            tables = conn.execute("SELECT count(*) FROM sqlite_master WHERE type = 'table'").fetchone()[0]
            if version == 0:
                what = "has tables of its own" if tables else "has no tables"
                raise DatabaseError(f"{self.path}: an SQLite file but not a puzzle database ({what}; left "
                                    f"unchanged)")
            self._check_version(version)
            check_tables(conn, self.path)
        finally:
            conn.close()
        # a schema-4 file in rollback mode (copied, vacuumed into) is ours: switching it to WAL is fine

    def _check_ours(self) -> None:
        """Refuse (without writing) a file that is not a puzzle database of this program."""
        (version,) = self.conn.execute("PRAGMA user_version").fetchone()
        if version == 0:
            raise DatabaseError(f"{self.path}: not a puzzle database (no schema; left unchanged)")
        self._check_version(version)
        check_tables(self.conn, self.path)

    def _check_version(self, version: int) -> None:
        if version > SCHEMA_VERSION:
            raise DatabaseError(f"{self.path}: schema version {version} is newer than this program's "
                                f"({SCHEMA_VERSION})")
        if version < SCHEMA_VERSION:
            raise DatabaseError(f"{self.path}: schema version {version}, older than this program's "
                                f"({SCHEMA_VERSION}); convert it (the original is kept beside it) with: "
                                f"explain-sudoku db migrate --db {self.path}")

    def _migrate(self) -> None:
        """Create the tables in a new file; refuse a file of another schema version."""
        (version,) = self.conn.execute("PRAGMA user_version").fetchone()
        if version != 0:
            self._check_version(version)
            return
        with self.transaction():  # re-read under the write lock: another process may have just created it
            if self.conn.execute("PRAGMA user_version").fetchone()[0] == SCHEMA_VERSION:
                return
            tables = self.conn.execute("SELECT count(*) FROM sqlite_master WHERE type = 'table'").fetchone()[0]
            if tables:
                raise DatabaseError(f"{self.path}: an SQLite file but not a puzzle database")
            create_tables(self.conn)

    def transaction(self) -> _Transaction:
        return _Transaction(self.conn)

    def close(self) -> None:
        self.conn.close()

    def __enter__(self) -> PuzzleDB:
        return self

    def __exit__(self, *exc: Any) -> None:
        self.close()

    # ---- writing ---------------------------------------------------------------------
    def stored_texts(self) -> set[str]:
        return {t for (t,) in self.conn.execute("SELECT text FROM puzzles")}

    def error_texts(self) -> set[str]:
        return {t for (t,) in self.conn.execute("SELECT text FROM puzzles WHERE error IS NOT NULL")}

    def forget(self, texts: Iterable[str]) -> int:
        """Delete these puzzles (and their steps); returns how many rows went."""
        n = 0
        with self.transaction():
            for t in texts:
                ids = [i for (i,) in self.conn.execute("SELECT id FROM puzzles WHERE text = ?", (t,))]
                self.payloads.delete(ids)
                self.conn.executemany("DELETE FROM step_index WHERE technique IN (SELECT id FROM techniques)"
                                      " AND puzzle_id = ?", [(i,) for i in ids])
                n += self.conn.execute("DELETE FROM puzzles WHERE text = ?", (t,)).rowcount
        return n

    def add(self, rec: dict[str, Any]) -> int | None:
        """Store one explained puzzle (an ``explain_record``) in one transaction.

        Returns its id, or None if that puzzle text was already stored.
        """
        with self.transaction():
            cur = self.conn.execute(
                "INSERT OR IGNORE INTO puzzles (text, size, solution, difficulty, complete, rating, rating_sum,"
                " er, ep, ed, steps, seconds, error, source)"
                " VALUES (?,?,?,?,?,?,?,?,?,?,?,?,?,?)",
                (rec["text"], rec.get("size"), rec.get("solution"), rec.get("difficulty"),
                 None if rec.get("complete") is None else int(rec["complete"]), rec.get("rating"),
                 rec.get("rating_sum"), rec.get("er"), rec.get("ep"), rec.get("ed"), rec.get("n_steps"),
                 rec.get("seconds"), rec.get("error"), rec.get("source")))
            if not cur.rowcount:
                return None
            pid = cur.lastrowid
            assert pid is not None
            if rec.get("parts"):
                self.payloads.store(pid, rec["parts"])
            index_steps(self.conn, pid, rec["steps"])
        return pid

    def get_meta(self, key: str) -> str | None:
        row = self.conn.execute("SELECT value FROM meta WHERE key = ?", (key,)).fetchone()
        return row[0] if row else None

    def order(self) -> str | None:
        """The engine's order the bank was built in, simplest or seed (None: not built yet)."""
        return self.get_meta("order")

    def set_meta(self, key: str, value: str) -> None:
        with self.transaction():
            self.conn.execute("INSERT OR REPLACE INTO meta (key, value) VALUES (?, ?)", (key, value))

    # ---- reading ---------------------------------------------------------------------
    def __len__(self) -> int:
        return int(self.conn.execute("SELECT count(*) FROM puzzles").fetchone()[0])

    def document(self, puzzle_id: int) -> dict[str, Any] | None:
        """The steps-JSON document of a stored puzzle (None for a failed one)."""
        packed = self._payload(puzzle_id)
        try:
            return None if packed is None else packed.document()
        except (ValueError, KeyError, zlib.error) as e:
            raise self._damaged(puzzle_id, e) from None

    def _payload(self, puzzle_id: int) -> Packed | None:
        """``payloads.load``; a damaged payload is a DatabaseError naming the database and the puzzle."""
        try:
            return self.payloads.load(puzzle_id)
        except (ValueError, KeyError, zlib.error) as e:
            raise self._damaged(puzzle_id, e) from None

    def _damaged(self, puzzle_id: int, e: BaseException) -> DatabaseError:
        row = self.conn.execute("SELECT source, text FROM puzzles WHERE id = ?", (puzzle_id,)).fetchone()
        which = f"puzzle {puzzle_id}" + (f" ({row[0] or row[1]})" if row else "")
        why = e.args[0] if isinstance(e, KeyError) and e.args else e
        return DatabaseError(f"{self.path}: {which}: its stored steps are damaged ({why}); build it again into "
                             f"a new database")

    def documents(self) -> Iterator[dict[str, Any]]:
        """Every stored steps-JSON document, in build order; failed puzzles are skipped."""
        ids = [i for (i,) in self.conn.execute(
            f"SELECT p.id FROM puzzles p WHERE p.error IS NULL ORDER BY {FILE_ORDER}")]
        for pid in ids:
            doc = self.document(pid)
            if doc is not None:
                yield doc

    def export_jsonl(self, target: str | Path | IO[str]) -> int:
        """Write one steps-JSON document per line; returns the number written."""
        if isinstance(target, (str, Path)):
            with open(target, "w", encoding="utf-8") as f:
                return self.export_jsonl(f)
        n = 0
        for doc in self.documents():
            target.write(json.dumps(doc, ensure_ascii=False) + "\n")
            n += 1
        return n

    def techniques(self) -> list[str]:
        """Step names present in the database."""
        return [t for (t,) in self.conn.execute(
            "SELECT name FROM techniques t WHERE EXISTS (SELECT 1 FROM step_index s WHERE s.technique = t.id)"
            " ORDER BY name")]

    def _technique_names(self, technique: str | Sequence[str]) -> list[str]:
        """Step names for a query: a stored or known step name as is, else a registry alias."""
        from techniques import lookup, step_names

        if not isinstance(technique, str) and not (isinstance(technique, Sequence)
                                                    and all(isinstance(t, str) for t in technique)):
            raise PuzzleTypeError(f"technique is a name or a list of names, not {type_name(technique)}")
        wanted = [technique] if isinstance(technique, str) else list(technique)
        stored = set(self.techniques()) | set(step_names())
        out: list[str] = []
        for name in wanted:
            key = name.strip().lower().replace("-", " ").replace("_", " ")
            if key in stored:
                out.append(key)
                continue
            try:
                out += list(lookup(key).produces)
            except KeyError:
                known = ", ".join(sorted(stored))
                raise UnknownNameError(f"unknown technique {name!r} (known: {known})") from None
        return out

    def query(self, technique: str | Sequence[str] | None = None,
              where: Callable[[StepRecord], bool] | None = None, order_by: str | None = None,
              limit: int | None = None, difficulty: str | None = None,
              rating: tuple[float, float] | str | None = None) -> list[StepRecord]:
        """Stored steps matching a technique (step name or alias), a difficulty, an ER range and a predicate.

        ``rating``: (low, high) or "8.0-9.0", the puzzle's ER within it (both ends included).

        ``order_by``: one of ``ORDER_KEYS``; the plain key puts the largest
        first ("length": longest chains / biggest patterns first), a leading
        ``-`` reverses it; ties and the default keep file order. ``where`` is
        a Python predicate on each ``StepRecord`` (the seed's condition),
        applied before ``limit``.
        """
        sql = ("SELECT t.name, s.steps, p.id, p.text, p.difficulty, p.rating, p.er, p.seconds, p.steps, p.source"
               " FROM step_index s JOIN techniques t ON t.id = s.technique JOIN puzzles p ON p.id = s.puzzle_id")
        cond: list[str] = []
        args: list[Any] = []
        if technique is not None:
            names = self._technique_names(technique)
            cond.append(f"t.name IN ({','.join('?' * len(names))})")
            args += names
        if difficulty is not None:
            from explainer.model.technique import DIFFICULTIES

            if difficulty not in DIFFICULTIES:
                raise UnknownNameError(f"unknown difficulty {difficulty!r} (known: {', '.join(DIFFICULTIES)})")
            cond.append("p.difficulty = ?")
            args.append(difficulty)
        if rating is not None:
            from explainer.model.rating import parse_range

            low, high = parse_range(rating) if isinstance(rating, str) else rating
            cond.append("p.er BETWEEN ? AND ?")
            args += [low - 1e-9, high + 1e-9]
        if cond:
            sql += " WHERE " + " AND ".join(cond)
        sort = _order_key(order_by)
        if limit is not None and (isinstance(limit, bool) or not isinstance(limit, int)):
            raise PuzzleTypeError(f"limit is a whole number or None, not {limit!r}")
        if limit is not None and limit < 0:
            raise PuzzleError(f"limit must be >= 0, got {limit}")
        if where is not None and not callable(where):
            raise PuzzleTypeError(f"where is a function of a StepRecord (True: keep it) or None, not {where!r}")
        out: list[StepRecord] = []
        if limit == 0:
            return out
        rows = [((_src_file(row[R_SOURCE]), _src_line(row[R_SOURCE]), row[R_ID]), row)
                for row in self.conn.execute(sql, args)]
        rows.sort(key=lambda r: r[0])  # file order, a puzzle's techniques side by side
        hits: Iterable[Hit]
        if sort is None:
            hits = _hits_in_file_order(rows)
        else:
            key, descending = sort
            every = [(place, *step, row) for place, row in rows for step in decode_steps(row[R_BLOB])]
            every.sort(key=_file_order)  # ties keep file order: the next sort is stable
            every.sort(key=lambda h: _nulls_first(key(h)), reverse=descending)
            hits = every
        opened: dict[int, Packed] = {}
        for _, step, n_place, n_elim, length, row in hits:
            pid = row[R_ID]
            packed = opened.get(pid)
            if packed is None:
                packed = self._payload(pid)
                if packed is None:
                    raise DatabaseError(f"{self.path}: puzzle {pid} has steps but no payload")
                opened[pid] = packed
            rec = StepRecord(self, pid, row[R_TEXT], step, row[R_NAME], packed.text(step), length, n_place, n_elim,
                             row[R_DIFFICULTY], row[R_WEIGHT], packed, row[R_ER])
            if where is not None and not where(rec):
                continue
            out.append(rec)
            if limit is not None and len(out) >= limit:
                break
        return out

    # ---- statistics --------------------------------------------------------------------
    def stats(self) -> dict[str, Any]:
        """Counts per difficulty, technique usage, time and rating figures."""
        from explainer.model.technique import DIFFICULTIES

        c = self.conn
        total = len(self)
        errors = c.execute("SELECT count(*) FROM puzzles WHERE error IS NOT NULL").fetchone()[0]
        timeouts = c.execute("SELECT count(*) FROM puzzles WHERE error LIKE 'timeout after%'").fetchone()[0]
        per_diff = {d: 0 for d in DIFFICULTIES}
        for d, k in c.execute("SELECT difficulty, count(*) FROM puzzles WHERE error IS NULL GROUP BY difficulty"):
            per_diff[d] = k
        incomplete = c.execute("SELECT count(*) FROM puzzles WHERE error IS NULL AND complete = 0").fetchone()[0]
        usage: dict[str, dict[str, int]] = {}
        for tech, puzzles, steps in c.execute(
                "SELECT t.name, count(*), sum(s.n) FROM step_index s JOIN techniques t ON t.id = s.technique"
                " GROUP BY s.technique"):
            usage[tech] = {"puzzles": puzzles, "steps": steps}
        usage = dict(sorted(usage.items(), key=lambda kv: (_registry_order(kv[0]), kv[0])))
        secs = sorted(s for (s,) in c.execute("SELECT seconds FROM puzzles WHERE error IS NULL"))
        ratings = self.ratings()
        ers = self.ratings("er")
        from explainer.model.rating import GRADE_NAMES, grade

        grades = Counter(grade(r) for r in ers)
        return {
            "puzzles": total,
            "explained": total - errors,
            "errors": errors,
            "timeouts": timeouts,
            "incomplete": incomplete,
            "difficulty": per_diff,
            "techniques": usage,
            "seconds": {
                "total": round(sum(secs), 3),
                "mean": round(pystats.fmean(secs), 4) if secs else None,
                "median": round(pystats.median(secs), 4) if secs else None,
                "p90": round(percentile(secs, 0.9), 4) if secs else None,
                "max": round(secs[-1], 4) if secs else None,
            },
            "rating": {
                "mean": round(pystats.fmean(ratings), 3) if ratings else None,
                "median": pystats.median(ratings) if ratings else None,
                "max": max(ratings) if ratings else None,
                "histogram": dict(sorted(Counter(ratings).items())),
            },
            "er": {
                "mean": round(pystats.fmean(ers), 3) if ers else None,
                "median": pystats.median(ers) if ers else None,
                "max": max(ers) if ers else None,
                "histogram": dict(sorted(Counter(ers).items())),
                "grades": {g: grades[g] for g in GRADE_NAMES},
            },
        }

    def ratings(self, column: str = "rating") -> list[float]:
        """The rating of every explained puzzle, in build order (``column``: rating, er, ep or ed)."""
        if column not in ("rating", "er", "ep", "ed"):
            raise ValueError(f"unknown rating column {column!r}")
        return [r for (r,) in self.conn.execute(
            f"SELECT {column} FROM puzzles WHERE error IS NULL AND {column} IS NOT NULL ORDER BY id")]

    def plot(self, path: str | Path, format: str | None = None) -> None:
        """Bar chart of technique usage and histogram of ratings (``render.charts.stats_chart``)."""
        from render.charts import stats_chart  # lazy: the database never needs matplotlib

        stats_chart(self.stats(), self.ratings("er"), path, format)


def index_steps(conn: sqlite3.Connection, puzzle_id: int, steps: Sequence[tuple[str, int, int, int]]) -> None:
    """One ``step_index`` row per technique of the puzzle: its steps' (index, places, eliminations, length)."""
    by_technique: dict[str, list[tuple[int, int, int, int]]] = {}
    for i, (technique, n_place, n_eliminate, length) in enumerate(steps):
        by_technique.setdefault(technique, []).append((i, n_place, n_eliminate, length))
    conn.executemany("INSERT OR IGNORE INTO techniques (name) VALUES (?)", [(t,) for t in by_technique])
    ids = dict(conn.execute("SELECT name, id FROM techniques"))
    conn.executemany("INSERT INTO step_index (technique, puzzle_id, n, steps) VALUES (?,?,?,?)",
                     [(ids[t], puzzle_id, len(rows), encode_steps(rows)) for t, rows in by_technique.items()])


def create_tables(conn: sqlite3.Connection) -> None:
    """The schema-3 tables (inside the caller's transaction)."""
    for statement in SCHEMA.split(";"):
        if statement.strip():
            conn.execute(statement)
    conn.execute(f"PRAGMA user_version = {SCHEMA_VERSION}")


class _Transaction:
    """BEGIN IMMEDIATE … COMMIT (ROLLBACK on error) on an autocommit connection."""

    def __init__(self, conn: sqlite3.Connection) -> None:
        self.conn = conn

    def __enter__(self) -> None:
        self.conn.execute("BEGIN IMMEDIATE")

    def __exit__(self, exc_type: Any, *rest: Any) -> None:
        self.conn.execute("ROLLBACK" if exc_type else "COMMIT")


def _hits_in_file_order(rows: Sequence[tuple[tuple[str, int, int], tuple[Any, ...]]]) -> Iterator[Hit]:
    """The steps of ``step_index`` rows already in file order, one puzzle at a time in step order.

    A generator: a query in file order with a limit unpacks only the puzzles it reaches.
    """
    i = 0
    while i < len(rows):
        j = i
        while j < len(rows) and rows[j][0] == rows[i][0]:
            j += 1
        hits: list[Hit] = [(place, *step, row) for place, row in rows[i:j] for step in decode_steps(row[R_BLOB])]
        hits.sort(key=_file_order)
        yield from hits
        i = j


def _order_key(order_by: str | None) -> tuple[Callable[[Hit], Any], bool] | None:
    """The sort key and direction of an ``order_by`` name (``-`` reverses it); None: file order."""
    if order_by is None:
        return None
    if not isinstance(order_by, str):
        raise PuzzleTypeError(f"order_by is a name ({', '.join(ORDER_KEYS)}) or None, not {order_by!r}")
    key = order_by.strip()
    reverse = key.startswith("-")
    key = key.lstrip("+-")
    if key not in ORDER_KEYS:
        raise UnknownNameError(f"unknown order {order_by!r} (known: {', '.join(ORDER_KEYS)}, "
                               f"each with '-' to reverse)")
    fn, descending = ORDER_KEYS[key]
    return fn, descending != reverse


def _nulls_first(value: Any) -> tuple[bool, Any]:
    """A sort key with None below every value (SQL's order for NULL)."""
    return (value is not None, 0 if value is None else value)


def percentile(values: Sequence[float], q: float) -> float:
    """Nearest-rank percentile (the benchmarks use the same rule); nan when empty."""
    if not values:
        return float("nan")
    ordered = sorted(values)
    return ordered[max(0, math.ceil(q * len(ordered)) - 1)]


def _registry_order(name: str) -> int:
    from techniques import step_names

    names = step_names()
    return names.index(name) if name in names else len(names)

