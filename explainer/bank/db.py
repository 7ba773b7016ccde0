"""The puzzle database: explained puzzles and their steps in one SQLite file.

The seed pickled a dict of explained puzzles; here every puzzle is a row of
``puzzles`` and every step a row of ``steps`` (with its steps-JSON text), so a
build can be resumed, killed at any moment without losing what was
committed, and queried across puzzles ("every chain step, longest first").

Layout (``PRAGMA user_version`` = ``SCHEMA_VERSION``):

- ``puzzles``: one row per puzzle text (``text`` is the one-line form of the
  givens, or the raw text when it does not parse). A failed puzzle keeps its
  ``error`` (``file:line: message`` or ``timeout after N s``) and no steps.
  ``header`` is the steps-JSON document without its steps (``"steps": null``)
  so that ``export_jsonl`` rebuilds ``Puzzle.to_json()`` exactly.
  ``er`` / ``ep`` / ``ed`` are the puzzle's ratings on Sudoku Explainer's
  scale (``explainer.rating``); ``rating`` / ``rating_sum`` stay the hardest
  step's base weight and the sum of the steps' base weights.
- ``steps``: ``(puzzle_id, idx)`` → technique, number of placements and
  eliminations, ``length`` (chain length or pattern size read from the
  step's detail, else the number of highlighted candidates, else of
  highlighted cells) and the step's JSON.
- ``meta``: key/value facts about the build (technique set).

Schema versions: 1 had no ``er`` / ``ep`` / ``ed``; opening a version-1 file
adds the columns and rates its stored steps (``_migrate``).

Every stored puzzle is one transaction in WAL mode (synchronous=NORMAL): a
killed process loses nothing committed; a power cut may lose the last few
commits but never leaves a broken file.

The build itself (worker processes, timeouts, Dask) is ``explainer.bank.build``.
"""
from __future__ import annotations

import json
import math
import os
import sqlite3
import statistics as pystats
import urllib.parse
from collections import Counter
from collections.abc import Callable, Iterable, Iterator, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import IO, Any

from ..explanation import Explanation, step_length

SCHEMA_VERSION = 2
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
    source      TEXT,
    statistics  TEXT,
    header      TEXT
);
CREATE TABLE IF NOT EXISTS steps (
    puzzle_id   INTEGER NOT NULL REFERENCES puzzles(id) ON DELETE CASCADE,
    idx         INTEGER NOT NULL,
    technique   TEXT NOT NULL,
    n_place     INTEGER NOT NULL,
    n_eliminate INTEGER NOT NULL,
    length      INTEGER NOT NULL,
    json        TEXT NOT NULL,
    PRIMARY KEY (puzzle_id, idx)
) WITHOUT ROWID;
CREATE TABLE IF NOT EXISTS meta (
    key   TEXT PRIMARY KEY,
    value TEXT NOT NULL
);
CREATE INDEX IF NOT EXISTS steps_by_technique ON steps(technique, length);
CREATE INDEX IF NOT EXISTS puzzles_by_difficulty ON puzzles(difficulty, rating);
CREATE INDEX IF NOT EXISTS puzzles_by_rating ON puzzles(rating);
CREATE INDEX IF NOT EXISTS puzzles_by_er ON puzzles(er);
"""

# order_by keys: the plain key puts the largest first (the longest chain,
# the hardest puzzle: what a query is usually after); a leading "-" reverses
# it. "puzzle" is file order (puzzle, then step index).
ORDER_KEYS = {
    "length": "s.length DESC",
    "rating": "p.er DESC",
    "er": "p.er DESC",
    "weight": "p.rating DESC",
    "eliminations": "s.n_eliminate DESC",
    "progress": "(s.n_place + s.n_eliminate) DESC",
    "seconds": "p.seconds DESC",
    "steps": "p.steps DESC",
    "puzzle": "src_file(p.source) ASC, src_line(p.source) ASC, p.id ASC",
}
# file order: by source file, then line (puzzles are stored in completion order, so ids are not it)
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


class DatabaseError(Exception):
    """The database file cannot be used (missing, not SQLite, newer schema)."""


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
    from ..grid import PuzzleError, parse_grid

    try:
        return parse_grid(text).to_line()
    except PuzzleError:
        raw = text.strip()
        if len(raw) > MAX_BAD_TEXT:  # a huge bad line is not stored whole
            return f"{raw[:MAX_BAD_TEXT // 2]}… ({len(raw)} characters, cut)"
        return raw


# ---- results as data (what a worker sends back) -------------------------------------

def explain_record(text: str, where: str = "", techniques: Sequence[str] | None = None) -> dict[str, Any]:
    """Explain one puzzle and return the row to store (never raises for a bad puzzle).

    Runs in worker processes (local pool or Dask), so it returns plain data.
    """
    import time

    from ..api import Puzzle
    from ..grid import PuzzleError

    start = time.perf_counter()
    rec: dict[str, Any] = {"text": puzzle_key(text), "source": where, "error": None, "steps": []}
    try:
        p = Puzzle(text, techniques, where=where)
        doc = p.to_json()
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
    header = dict(doc)
    header["steps"] = None
    se = doc.get("rating") or {}
    rec.update(er=se.get("er"), ep=se.get("ep"), ed=se.get("ed"))
    rec.update(
        text=doc["puzzle"], size=doc["size"], solution=doc["solution"], difficulty=doc["difficulty"],
        complete=bool(doc["complete"]), rating=rating, rating_sum=rating_sum, n_steps=len(steps),
        seconds=time.perf_counter() - start, statistics=_compact(doc["statistics"]),
        header=_compact(header),
        steps=[(s["technique"], len(s.get("place", ())), len(s.get("eliminate", ())), step_length(s),
                _compact(s)) for s in steps],
    )
    return rec


def _compact(value: Any) -> str:
    """JSON text as stored: no spaces, UTF-8 kept (about 10% smaller than json.dumps' default)."""
    return json.dumps(value, separators=(",", ":"), ensure_ascii=False)


def error_record(text: str, where: str, error: str, seconds: float = 0.0) -> dict[str, Any]:
    return {"text": puzzle_key(text), "source": where, "error": error, "steps": [], "seconds": seconds}


# ---- step records ---------------------------------------------------------------------

@dataclass
class StepRecord:
    """One stored step found by a query; it can rebuild its state and draw itself."""

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
    json: str = field(repr=False)
    er: float | None = None  # the puzzle's ER (Sudoku Explainer's scale)

    @property
    def explanation(self) -> Explanation:
        return Explanation.from_dict(json.loads(self.json))

    def state(self) -> Any:
        """The candidate state before this step: the givens, then every earlier step."""
        from ..grid import parse_grid
        from ..state import State

        state = State.from_grid(parse_grid(self.puzzle))
        for (doc,) in self.db.conn.execute(
                "SELECT json FROM steps WHERE puzzle_id = ? AND idx < ? ORDER BY idx",
                (self.puzzle_id, self.index)):
            state.apply(Explanation.from_dict(json.loads(doc)))
        return state

    def png(self) -> bytes:
        """The frame of this step (state before it, step drawn) as PNG bytes."""
        from render.frame import step_png  # lazy: the database never needs matplotlib

        return step_png(self.state(), self.explanation, number=self.index + 1)  # 1-based, as "step N" everywhere

    def _repr_png_(self) -> bytes:
        return self.png()


# ---- the database --------------------------------------------------------------------

class PuzzleDB:
    """An SQLite file of explained puzzles.

    >>> db = PuzzleDB("output/puzzles.sqlite")            # doctest: +SKIP
    >>> for r in db.query("chain", order_by="length", limit=3):   # doctest: +SKIP
    ...     print(r.puzzle, r.index, r.text)
    """

    def __init__(self, path: str | Path = DEFAULT_DB, *, create: bool = True) -> None:
        self.path = Path(path)
        if not create and not self.path.exists():
            raise DatabaseError(f"{self.path}: no such database (run 'db build' first)")
        if not create and self.path.is_file() and self.path.stat().st_size == 0:
            raise DatabaseError(f"{self.path}: an empty file, not a puzzle database (left unchanged)")
        if create:
            self.path.parent.mkdir(parents=True, exist_ok=True)
        # reading an existing database never writes into it: a file we may not write is opened
        # read-only, and a file that is not ours is refused before any setting is changed
        self.read_only = self.path.exists() and not os.access(self.path, os.W_OK)
        if create and self.read_only:
            raise DatabaseError(f"{self.path}: read-only file, cannot store puzzles in it")
        try:
            if self.read_only:
                uri = "file:" + urllib.parse.quote(str(self.path.resolve())) + "?mode=ro"
                self.conn = sqlite3.connect(uri, uri=True, timeout=30, isolation_level=None)
            else:
                self.conn = sqlite3.connect(str(self.path), timeout=30, isolation_level=None)
            self.conn.create_function("src_file", 1, _src_file, deterministic=True)
            self.conn.create_function("src_line", 1, _src_line, deterministic=True)
            if not create:
                self._check_ours()
            if not self.read_only:
                self.conn.execute("PRAGMA journal_mode=WAL")
                self.conn.execute("PRAGMA synchronous=NORMAL")
            self.conn.execute("PRAGMA foreign_keys=ON")
            if not self.read_only:
                self._migrate()
        except sqlite3.OperationalError as e:
            if "readonly" in str(e).replace("-", "").replace(" ", ""):
                raise DatabaseError(f"{self.path}: read-only, cannot be written ({e})") from None
            raise DatabaseError(f"{self.path}: not a puzzle database ({e})") from None
        except sqlite3.DatabaseError as e:
            raise DatabaseError(f"{self.path}: not a puzzle database ({e})") from None

    def _check_ours(self) -> None:
        """Refuse (without writing) a file that is not a puzzle database of this program."""
        (version,) = self.conn.execute("PRAGMA user_version").fetchone()
        if version == 0:
            self.conn.close()
            raise DatabaseError(f"{self.path}: not a puzzle database (no schema; left unchanged)")
        if version > SCHEMA_VERSION:
            self.conn.close()
            raise DatabaseError(f"{self.path}: schema version {version} is newer than this program's "
                                f"({SCHEMA_VERSION})")

    def _migrate(self) -> None:
        (version,) = self.conn.execute("PRAGMA user_version").fetchone()
        if version > SCHEMA_VERSION:
            raise DatabaseError(f"{self.path}: schema version {version} is newer than this program's "
                                f"({SCHEMA_VERSION})")
        if version == 0:
            with self.transaction():  # re-read under the write lock: another process may have just created it
                if self.conn.execute("PRAGMA user_version").fetchone()[0] == SCHEMA_VERSION:
                    return
                tables = self.conn.execute("SELECT count(*) FROM sqlite_master WHERE type = 'table'").fetchone()[0]
                if tables:
                    raise DatabaseError(f"{self.path}: an SQLite file but not a puzzle database")
                for statement in SCHEMA.split(";"):
                    if statement.strip():
                        self.conn.execute(statement)
                self.conn.execute(f"PRAGMA user_version = {SCHEMA_VERSION}")
            return
        if version == 1:
            with self.transaction():
                if self.conn.execute("PRAGMA user_version").fetchone()[0] == 1:
                    self._migrate_1_to_2()

    def _migrate_1_to_2(self) -> None:
        """Add ``er`` / ``ep`` / ``ed`` and rate every stored explanation (inside a transaction)."""
        from techniques import weights

        from ..rating import puzzle_rating, rate_steps

        for col in ("er", "ep", "ed"):
            self.conn.execute(f"ALTER TABLE puzzles ADD COLUMN {col} REAL")
        self.conn.execute("CREATE INDEX IF NOT EXISTS puzzles_by_er ON puzzles(er)")
        w = weights()
        ids = [i for (i,) in self.conn.execute("SELECT id FROM puzzles WHERE error IS NULL")]
        for pid in ids:
            docs = [json.loads(doc) for (doc,) in self.conn.execute(
                "SELECT json FROM steps WHERE puzzle_id = ? ORDER BY idx", (pid,))]
            steps = [Explanation.from_dict(d) for d in docs]
            ratings = rate_steps(steps, w)
            r = puzzle_rating(steps, ratings)
            # the stored documents get what Puzzle.to_json() now writes: "rating" before "steps"
            (head,) = self.conn.execute("SELECT header FROM puzzles WHERE id = ?", (pid,)).fetchone()
            header = {k: v for k, v in json.loads(head).items() if k != "steps"} if head else None
            if header is not None:
                header = dict(header, rating=r.to_dict(), steps=None)
            self.conn.execute("UPDATE puzzles SET er = ?, ep = ?, ed = ?, header = ? WHERE id = ?",
                              (r.er, r.ep, r.ed, _compact(header) if header is not None else head, pid))
            self.conn.executemany("UPDATE steps SET json = ? WHERE puzzle_id = ? AND idx = ?",
                                  [(_compact(dict(d, rating=x)), pid, i)
                                   for i, (d, x) in enumerate(zip(docs, ratings, strict=True))])
        self.conn.execute("PRAGMA user_version = 2")

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
                n += self.conn.execute("DELETE FROM puzzles WHERE text = ?", (t,)).rowcount
        return n

    def add(self, rec: dict[str, Any]) -> int | None:
        """Store one explained puzzle (an ``explain_record``) in one transaction.

        Returns its id, or None if that puzzle text was already stored.
        """
        with self.transaction():
            cur = self.conn.execute(
                "INSERT OR IGNORE INTO puzzles (text, size, solution, difficulty, complete, rating, rating_sum,"
                " er, ep, ed, steps, seconds, error, source, statistics, header)"
                " VALUES (?,?,?,?,?,?,?,?,?,?,?,?,?,?,?,?)",
                (rec["text"], rec.get("size"), rec.get("solution"), rec.get("difficulty"),
                 None if rec.get("complete") is None else int(rec["complete"]), rec.get("rating"),
                 rec.get("rating_sum"), rec.get("er"), rec.get("ep"), rec.get("ed"), rec.get("n_steps"),
                 rec.get("seconds"), rec.get("error"),
                 rec.get("source"), rec.get("statistics"), rec.get("header")))
            if not cur.rowcount:
                return None
            pid = cur.lastrowid
            self.conn.executemany(
                "INSERT INTO steps (puzzle_id, idx, technique, n_place, n_eliminate, length, json)"
                " VALUES (?,?,?,?,?,?,?)",
                [(pid, i, *s) for i, s in enumerate(rec["steps"])])
        return pid

    def get_meta(self, key: str) -> str | None:
        row = self.conn.execute("SELECT value FROM meta WHERE key = ?", (key,)).fetchone()
        return row[0] if row else None

    def set_meta(self, key: str, value: str) -> None:
        with self.transaction():
            self.conn.execute("INSERT OR REPLACE INTO meta (key, value) VALUES (?, ?)", (key, value))

    # ---- reading ---------------------------------------------------------------------
    def __len__(self) -> int:
        return self.conn.execute("SELECT count(*) FROM puzzles").fetchone()[0]

    def document(self, puzzle_id: int) -> dict[str, Any] | None:
        """The steps-JSON document of a stored puzzle (None for a failed one)."""
        row = self.conn.execute("SELECT header FROM puzzles WHERE id = ?", (puzzle_id,)).fetchone()
        if row is None or row[0] is None:
            return None
        doc = json.loads(row[0])
        doc["steps"] = [json.loads(s) for (s,) in self.conn.execute(
            "SELECT json FROM steps WHERE puzzle_id = ? ORDER BY idx", (puzzle_id,))]
        return doc

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
        return [t for (t,) in self.conn.execute("SELECT DISTINCT technique FROM steps ORDER BY technique")]

    def _technique_names(self, technique: str | Sequence[str]) -> list[str]:
        """Step names for a query: a stored or known step name as is, else a registry alias."""
        from techniques import lookup, step_names

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
                raise ValueError(f"unknown technique {name!r} (known: {known})") from None
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
        sql = ("SELECT s.puzzle_id, p.text, s.idx, s.technique, s.length, s.n_place, s.n_eliminate,"
               " p.difficulty, p.rating, s.json, p.er FROM steps s JOIN puzzles p ON p.id = s.puzzle_id")
        cond: list[str] = []
        args: list[Any] = []
        if technique is not None:
            names = self._technique_names(technique)
            cond.append(f"s.technique IN ({','.join('?' * len(names))})")
            args += names
        if difficulty is not None:
            from ..technique import DIFFICULTIES

            if difficulty not in DIFFICULTIES:
                raise ValueError(f"unknown difficulty {difficulty!r} (known: {', '.join(DIFFICULTIES)})")
            cond.append("p.difficulty = ?")
            args.append(difficulty)
        if rating is not None:
            from ..rating import parse_range

            low, high = parse_range(rating) if isinstance(rating, str) else rating
            cond.append("p.er BETWEEN ? AND ?")
            args += [low - 1e-9, high + 1e-9]
        if cond:
            sql += " WHERE " + " AND ".join(cond)
        sql += " ORDER BY " + ", ".join(_order_sql(order_by) + [FILE_ORDER, "s.idx ASC"])
        if limit is not None and limit < 0:
            raise ValueError(f"limit must be >= 0, got {limit}")
        if limit is not None and where is None:
            sql += f" LIMIT {int(limit)}"
        out: list[StepRecord] = []
        if limit == 0:
            return out
        for row in self.conn.execute(sql, args):
            pid, text, idx, tech, length, n_place, n_elim, diff, weight, doc, er = row
            rec = StepRecord(self, pid, text, idx, tech, json.loads(doc).get("text", ""), length,
                             n_place, n_elim, diff, weight, doc, er)
            if where is not None and not where(rec):
                continue
            out.append(rec)
            if limit is not None and len(out) >= limit:
                break
        return out

    # ---- statistics --------------------------------------------------------------------
    def stats(self) -> dict[str, Any]:
        """Counts per difficulty, technique usage, time and rating figures."""
        from ..technique import DIFFICULTIES

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
                "SELECT technique, count(DISTINCT puzzle_id), count(*) FROM steps GROUP BY technique"):
            usage[tech] = {"puzzles": puzzles, "steps": steps}
        usage = dict(sorted(usage.items(), key=lambda kv: (_registry_order(kv[0]), kv[0])))
        secs = sorted(s for (s,) in c.execute("SELECT seconds FROM puzzles WHERE error IS NULL"))
        ratings = self.ratings()
        ers = self.ratings("er")
        from ..rating import GRADE_NAMES, grade

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


class _Transaction:
    """BEGIN IMMEDIATE … COMMIT (ROLLBACK on error) on an autocommit connection."""

    def __init__(self, conn: sqlite3.Connection) -> None:
        self.conn = conn

    def __enter__(self) -> None:
        self.conn.execute("BEGIN IMMEDIATE")

    def __exit__(self, exc_type: Any, *rest: Any) -> None:
        self.conn.execute("ROLLBACK" if exc_type else "COMMIT")


def _order_sql(order_by: str | None) -> list[str]:
    if order_by is None:
        return []
    key = order_by.strip()
    reverse = key.startswith("-")
    key = key.lstrip("+-")
    if key not in ORDER_KEYS:
        raise ValueError(f"unknown order {order_by!r} (known: {', '.join(ORDER_KEYS)}, each with '-' to reverse)")
    sql = ORDER_KEYS[key]
    if reverse:
        sql = sql.replace(" DESC", " #").replace(" ASC", " DESC").replace(" #", " ASC")
    return [sql]


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

