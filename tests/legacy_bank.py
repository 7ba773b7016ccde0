"""Write puzzle databases of the older schemas (1 and 2) as those versions of the program did.

The layout and row format are frozen copies of schema 2's ``db.py`` (its
``SCHEMA`` and what ``explain_record`` + ``add`` stored); schema 1 is
schema 2 without ``er`` / ``ep`` / ``ed`` and without the ratings in the
documents. Both knew only the seed order; their documents had no ``order``
and classed difficulty by the steps used (wave 1's rule, ``old_difficulty``).
Used to test ``db migrate`` and the refusal message. (Schema 3 banks built by
the program before wave 3 are kept as they were: tests/data/banks.)
"""
from __future__ import annotations

import json
import sqlite3
from collections.abc import Sequence
from pathlib import Path
from typing import Any

from explainer import Puzzle
from explainer.app.bank.db import puzzle_key, rating_of
from explainer.model.explanation import step_length
from techniques.uniqueness import ONE

SCHEMA_2 = """
CREATE TABLE puzzles (
    id INTEGER PRIMARY KEY, text TEXT NOT NULL UNIQUE, size INTEGER, solution TEXT, difficulty TEXT,
    complete INTEGER, rating REAL, rating_sum REAL, er REAL, ep REAL, ed REAL, steps INTEGER, seconds REAL,
    error TEXT, source TEXT, statistics TEXT, header TEXT
);
CREATE TABLE steps (
    puzzle_id INTEGER NOT NULL REFERENCES puzzles(id) ON DELETE CASCADE, idx INTEGER NOT NULL,
    technique TEXT NOT NULL, n_place INTEGER NOT NULL, n_eliminate INTEGER NOT NULL, length INTEGER NOT NULL,
    json TEXT NOT NULL, PRIMARY KEY (puzzle_id, idx)
) WITHOUT ROWID;
CREATE TABLE meta (key TEXT PRIMARY KEY, value TEXT NOT NULL);
CREATE INDEX steps_by_technique ON steps(technique, length);
CREATE INDEX puzzles_by_difficulty ON puzzles(difficulty, rating);
CREATE INDEX puzzles_by_rating ON puzzles(rating);
CREATE INDEX puzzles_by_er ON puzzles(er);
"""


def compact(value: Any) -> str:
    return json.dumps(value, separators=(",", ":"), ensure_ascii=False)


def old_difficulty(statistics: dict[str, int]) -> str:
    """Wave 1's difficulty classes: difficult with a brutal step, medium with a trial or forcing step."""
    if statistics.get("brutal"):
        return "difficult"
    return "medium" if any(statistics.get(name) for name in ("trial", "trial lucky", "forcing chain")) else "easy"


def write_legacy(path: Path, texts: Sequence[str], version: int = 2, bad: Sequence[str] = ()) -> list[dict]:
    """A schema-``version`` file holding ``texts`` explained (and ``bad`` as errors); returns the documents
    as this program writes them in the seed order (what the migrated file exports)."""
    con = sqlite3.connect(path)
    con.executescript(SCHEMA_2)
    docs = []
    for line, text in enumerate(texts, 1):
        today = Puzzle(text, order="seed").to_json()
        docs.append(today)
        doc = json.loads(json.dumps({k: v for k, v in today.items() if k != "order"}))
        doc["difficulty"] = old_difficulty(doc["statistics"])
        for step in doc["steps"]:  # trial lucky did not say it rests on the single solution
            if step["technique"] == "trial lucky":
                step["text"] = step["text"].removesuffix(" " + ONE["en"])
                step["translations"]["fr"] = step["translations"]["fr"].removesuffix(" " + ONE["fr"])
        steps = doc["steps"]
        rating, rating_sum = rating_of(s["technique"] for s in steps)
        header = dict(doc, steps=None)
        se = doc["rating"]
        cur = con.execute(
            "INSERT INTO puzzles (text, size, solution, difficulty, complete, rating, rating_sum, er, ep, ed,"
            " steps, seconds, error, source, statistics, header) VALUES (?,?,?,?,?,?,?,?,?,?,?,?,?,?,?,?)",
            (doc["puzzle"], doc["size"], doc["solution"], doc["difficulty"], int(doc["complete"]), rating,
             rating_sum, se["er"], se["ep"], se["ed"], len(steps), 0.01, None, f"legacy.txt:{line}",
             compact(doc["statistics"]), compact(header)))
        con.executemany("INSERT INTO steps VALUES (?,?,?,?,?,?,?)",
                        [(cur.lastrowid, i, s["technique"], len(s.get("place", ())), len(s.get("eliminate", ())),
                          step_length(s), compact(s)) for i, s in enumerate(steps)])
    for k, text in enumerate(bad, len(texts) + 1):
        con.execute("INSERT INTO puzzles (text, source, error, seconds) VALUES (?,?,?,?)",
                    (puzzle_key(text), f"legacy.txt:{k}", f"legacy.txt:{k}: not a sudoku", 0.0))
    con.execute("INSERT INTO meta VALUES ('techniques', 'all')")
    if version == 1:  # no ratings: neither the columns nor in the documents
        for pid, head in con.execute("SELECT id, header FROM puzzles WHERE header IS NOT NULL").fetchall():
            con.execute("UPDATE puzzles SET header = ? WHERE id = ?",
                        (compact({k: v for k, v in json.loads(head).items() if k != "rating"}), pid))
        for pid, idx, text in con.execute("SELECT puzzle_id, idx, json FROM steps").fetchall():
            step = {k: v for k, v in json.loads(text).items() if k != "rating"}
            con.execute("UPDATE steps SET json = ? WHERE puzzle_id = ? AND idx = ?", (compact(step), pid, idx))
        con.execute("DROP INDEX puzzles_by_er")
        for col in ("er", "ep", "ed"):
            con.execute(f"ALTER TABLE puzzles DROP COLUMN {col}")
    con.execute(f"PRAGMA user_version = {version}")
    con.commit()
    con.close()
    return docs
