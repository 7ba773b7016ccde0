"""Convert a puzzle database of an older schema to the current one (``db migrate``).

Version 1 had no ``er`` / ``ep`` / ``ed``; version 2 kept every step's JSON
text in a ``steps`` row, 44–78 KB a puzzle. Version 3 keeps the same
documents packed and compressed (``explainer.app.bank.pack``), about 4 KB a
puzzle, and exports them byte for byte as version 2 did. Version 4 (wave 3)
classes difficulty by ER bands (``explainer.model.rating.DIFFICULTY_BANDS``) and
records the engine's order: the bank's (``meta``: ``order``, from version
3's ``path``: registry is the seed order, easiest the simplest) and every
document's (``"order"``); a trial lucky step's text says it rests on the
single solution. The steps and ratings stay as they were, so a version-4 file
exports what this program writes for the same order.

Safety: the original is first copied beside the file (``NAME.v2.bak``,
never over an existing file) with SQLite's backup API, under the write
lock so nothing changes in between; the conversion is then one transaction
(an error or a kill leaves the file as it was), and only after the commit
is the file compacted (``VACUUM``).
"""
from __future__ import annotations

import json
import sqlite3
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from explainer.model.explanation import Explanation

from .db import SCHEMA, SCHEMA_VERSION, DatabaseError, WriterLock, check_tables, index_steps, read_connection
from .pack import compact, pack, unpack
from .payloads import Payloads


@dataclass
class MigrationReport:
    path: Path
    old_version: int
    backup: Path | None
    puzzles: int
    bytes_before: int
    bytes_after: int

    def summary(self) -> str:
        if self.backup is None:
            return f"{self.path}: already schema version {SCHEMA_VERSION}, nothing to do"
        return (f"{self.path}: schema version {self.old_version} -> {SCHEMA_VERSION}, {self.puzzles} puzzles, "
                f"{self.bytes_before / 1e6:.1f} MB -> {self.bytes_after / 1e6:.1f} MB; "
                f"the original is kept as {self.backup}")


def backup_path(path: Path, version: int) -> Path:
    """``NAME.vN.bak`` beside the file, or ``NAME.vN.bak.2``… if that name is taken."""
    candidate = path.with_name(f"{path.name}.v{version}.bak")
    k = 2
    while candidate.exists():
        candidate = path.with_name(f"{path.name}.v{version}.bak.{k}")
        k += 1
    return candidate


def migrate(path: str | Path) -> MigrationReport:
    """Bring the database at ``path`` to ``SCHEMA_VERSION``, keeping a copy of the original beside it."""
    path = Path(path)
    if not path.is_file():
        raise DatabaseError(f"{path}: no such database")
    with WriterLock(path):  # not while a build writes it
        return _migrate(path)


def _migrate(path: Path) -> MigrationReport:
    size_before = _file_bytes(path)
    if _current(path):  # only read: nothing written beside the file either
        return MigrationReport(path, SCHEMA_VERSION, None, 0, size_before, size_before)
    conn = sqlite3.connect(str(path), timeout=30, isolation_level=None)
    try:
        (version,) = conn.execute("PRAGMA user_version").fetchone()
        if version not in (1, 2, 3):
            raise DatabaseError(f"{path}: schema version {version}: not a puzzle database this program can convert")
        conn.execute("BEGIN IMMEDIATE")  # the write lock: nobody changes the file between copy and conversion
        try:
            backup = backup_path(path, version)
            _copy(path, backup)
            if version == 1:
                _migrate_1_to_2(conn)
            if version <= 2:
                _migrate_2_to_3(conn)
            n = _migrate_3_to_4(conn)
        except BaseException:
            conn.execute("ROLLBACK")
            raise
        conn.execute("COMMIT")
        conn.execute("VACUUM")  # give back the space of the old step rows
        conn.execute("PRAGMA wal_checkpoint(TRUNCATE)")
    except DatabaseError:
        raise
    except (sqlite3.DatabaseError, ValueError, KeyError, TypeError) as e:  # a damaged row: nothing was changed
        raise DatabaseError(f"{path}: cannot convert ({type(e).__name__}: {e}); the file is unchanged") from None
    finally:
        conn.close()
    return MigrationReport(path, version, backup, n, size_before, _file_bytes(path))


def _current(path: Path) -> bool:
    """True when the file is a database of this version, and sound (SQLite's ``quick_check``: a
    header that says so over damaged pages is not); read only, leaving nothing behind."""
    from contextlib import closing

    try:
        with closing(read_connection(path)) as conn:
            (version,) = conn.execute("PRAGMA user_version").fetchone()
            if version != SCHEMA_VERSION:
                return False
            check_tables(conn, path)  # a header that says 4 over no tables is not "nothing to do"
            problems = [row[0] for row in conn.execute("PRAGMA quick_check")]
    except sqlite3.DatabaseError as e:
        raise DatabaseError(f"{path}: not a database SQLite can read ({e}); the file is unchanged") from None
    if problems != ["ok"]:
        raise DatabaseError(f"{path}: damaged (SQLite's check: {problems[0]}); the file is unchanged")
    return True


def _copy(path: Path, backup: Path) -> None:
    """A consistent copy of the database through a second connection (the first holds the write lock)."""
    source = sqlite3.connect(f"file:{path}?mode=ro", uri=True, timeout=30)
    try:
        target = sqlite3.connect(str(backup))
        try:
            source.backup(target)
        finally:
            target.close()
    finally:
        source.close()


def _file_bytes(path: Path) -> int:
    wal = path.with_name(path.name + "-wal")
    return path.stat().st_size + (wal.stat().st_size if wal.exists() else 0)


def _migrate_2_to_3(conn: sqlite3.Connection) -> int:
    """Pack every stored document into ``payloads`` and index its steps (inside the caller's transaction)."""
    for statement in SCHEMA.split(";"):
        if statement.strip():
            conn.execute(statement)
    payloads = Payloads(conn)
    ids = [i for (i,) in conn.execute("SELECT id FROM puzzles ORDER BY id")]
    for pid in ids:
        rows = conn.execute("SELECT technique, n_place, n_eliminate, length, json FROM steps"
                            " WHERE puzzle_id = ? ORDER BY idx", (pid,)).fetchall()
        (head,) = conn.execute("SELECT header FROM puzzles WHERE id = ?", (pid,)).fetchone()
        if head is not None:
            doc: dict[str, Any] = json.loads(head)
            doc["steps"] = [json.loads(r[4]) for r in rows]  # in the header's place for it: the same key order
            payloads.store(pid, pack(doc))
        index_steps(conn, pid, [r[:4] for r in rows])
    conn.execute("DROP TABLE steps")
    for col in ("header", "statistics"):
        conn.execute(f"ALTER TABLE puzzles DROP COLUMN {col}")
    conn.execute("PRAGMA user_version = 3")
    return len(ids)


def _migrate_3_to_4(conn: sqlite3.Connection) -> int:
    """Difficulty by ER bands and the order recorded, in the bank and in every document (inside
    the caller's transaction); returns the number of puzzles."""
    from explainer.model.rating import difficulty

    old = dict(conn.execute("SELECT key, value FROM meta").fetchall())
    order = "simplest" if old.get("path") == "easiest" else "seed"
    if "techniques" in old:  # a bank that was built (an empty one gets its order when built)
        conn.execute("INSERT OR REPLACE INTO meta (key, value) VALUES ('order', ?)", (order,))
    payloads = Payloads(conn)
    rows = conn.execute("SELECT id, er FROM puzzles ORDER BY id").fetchall()
    for pid, er in rows:
        band = None if er is None else difficulty(er)
        conn.execute("UPDATE puzzles SET difficulty = ? WHERE id = ?", (band, pid))
        row = conn.execute("SELECT data FROM payloads WHERE puzzle_id = ?", (pid,)).fetchone()
        if row is not None:
            doc = wave3_document(unpack(payloads.parts(row[0])), band, order)
            conn.execute("UPDATE payloads SET data = ? WHERE puzzle_id = ?", (payloads.encode(pack(doc)), pid))
    conn.execute(f"PRAGMA user_version = {SCHEMA_VERSION}")
    return len(rows)


def wave3_document(doc: dict[str, Any], band: str | None, order: str) -> dict[str, Any]:
    """A steps-JSON document written before wave 3, as this program writes it: difficulty
    ``band`` (when known), ``"order"`` before the steps, trial lucky saying it rests on the
    single solution."""
    from techniques.uniqueness import ONE

    out: dict[str, Any] = {}
    for key, value in doc.items():
        if key == "steps" and "order" not in doc:
            out["order"] = order
        out[key] = value
    if band is not None and "difficulty" in out:
        out["difficulty"] = band
    for step in out.get("steps") or ():
        if step.get("technique") == "trial lucky" and ONE["en"] not in step.get("text", ""):
            step["text"] = f"{step['text']} {ONE['en']}"
            for lang, text in (step.get("translations") or {}).items():
                if lang in ONE:
                    step["translations"][lang] = f"{text} {ONE[lang]}"
    return out


def _migrate_1_to_2(conn: sqlite3.Connection) -> None:
    """Add ``er`` / ``ep`` / ``ed`` and rate every stored explanation (inside the caller's transaction)."""
    from explainer.model.rating import puzzle_rating
    from explainer.model.technique import rate_steps
    from techniques import all_kinds

    for col in ("er", "ep", "ed"):
        conn.execute(f"ALTER TABLE puzzles ADD COLUMN {col} REAL")
    conn.execute("CREATE INDEX IF NOT EXISTS puzzles_by_er ON puzzles(er)")
    kinds = all_kinds()
    ids = [i for (i,) in conn.execute("SELECT id FROM puzzles WHERE error IS NULL")]
    for pid in ids:
        docs = [json.loads(doc) for (doc,) in conn.execute(
            "SELECT json FROM steps WHERE puzzle_id = ? ORDER BY idx", (pid,))]
        steps = [Explanation.from_dict(d) for d in docs]
        ratings = rate_steps(steps, kinds, "pattern")  # version 1 knew only the seed order (its view)
        r = puzzle_rating(steps, ratings)
        # the stored documents get what Puzzle.to_json() now writes: "rating" before "steps"
        (head,) = conn.execute("SELECT header FROM puzzles WHERE id = ?", (pid,)).fetchone()
        header = {k: v for k, v in json.loads(head).items() if k != "steps"} if head else None
        if header is not None:
            header = dict(header, rating=r.to_dict(), steps=None)
        conn.execute("UPDATE puzzles SET er = ?, ep = ?, ed = ?, header = ? WHERE id = ?",
                     (r.er, r.ep, r.ed, compact(header) if header is not None else head, pid))
        conn.executemany("UPDATE steps SET json = ? WHERE puzzle_id = ? AND idx = ?",
                         [(compact(dict(d, rating=x)), pid, i)
                          for i, (d, x) in enumerate(zip(docs, ratings, strict=True))])
    conn.execute("PRAGMA user_version = 2")
