"""Issue 42 (items 1-17 but 4): the bank under concurrency, generation that ends, clean library errors.

One test (or a few) per numbered item; each failed on the tree the issue was
filed against (main e5522ca). In-process (``main(argv)``) where no real
process is needed. Item 4 (naming the learner's mistake in ``hint``) is not
here: it belongs to the hints' own change.
"""
from __future__ import annotations

import sqlite3
import sys
from pathlib import Path

import pytest

from explainer.app.cli import main
from tests.conftest import ROOT

EXAMPLES = ROOT / "examples"
FOUR = "3..22.....4....."  # examples/4x4.txt's first puzzle
CLI = [sys.executable, "-m", "explain_sudoku"]  # the console script's module


# ---- item 1: a refused database is never changed --------------------------------------------

def _v4_without_tables(path: Path) -> None:
    conn = sqlite3.connect(path)
    conn.execute("PRAGMA user_version = 4")
    conn.commit()
    conn.close()


@pytest.mark.parametrize("argv", [
    ["db", "build", str(EXAMPLES / "4x4.txt"), "--jobs", "1", "--no-progress"],
    ["db", "migrate"],
    ["db", "stats"],
    ["db", "query", "--technique", "naked single"],
    ["db", "export", "-o", "-"],
], ids=["build", "migrate", "stats", "query", "export"])
def test_1_a_v4_file_without_tables_is_refused_unchanged_in_one_line(argv: list[str], tmp_path: Path,
                                                                      capsys: pytest.CaptureFixture[str]) -> None:
    db = tmp_path / "n.db"
    _v4_without_tables(db)
    before = db.read_bytes()
    assert main([*argv, "--db", str(db)]) == 2
    err = capsys.readouterr().err
    assert err == f"explain-sudoku: error: {db}: schema version 4 but none of its tables: not a puzzle database " \
                  f"(left unchanged)\n"
    assert db.read_bytes() == before and sorted(p.name for p in tmp_path.iterdir()) == ["n.db"]


def test_1_a_v4_file_missing_some_tables_is_refused_by_the_library(tmp_path: Path) -> None:
    from explainer.app.bank.db import DatabaseError, PuzzleDB

    db = tmp_path / "n.db"
    with PuzzleDB(db, create=True):
        pass
    conn = sqlite3.connect(db)
    conn.execute("DROP TABLE meta")
    conn.commit()
    conn.close()
    before = db.read_bytes()
    for create in (True, False):
        with pytest.raises(DatabaseError, match="without its table meta"):
            PuzzleDB(db, create=create)
    assert db.read_bytes() == before


# ---- item 2: a refused build never removes a file it did not create -------------------------

def test_2_a_refused_build_keeps_the_file_another_build_made(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """The other build makes the file between this one's look and its lock (the race seen 1 in 74)."""
    from explainer.app.bank import build as build_module
    from explainer.app.bank.db import DatabaseBusy, PuzzleDB, WriterLock, explain_record

    db = tmp_path / "c.sqlite"
    make_folder = build_module.make_folder

    def the_other_build_runs(folder: Path) -> None:
        make_folder(folder)
        if not db.exists():
            with PuzzleDB(db, create=True) as other:
                other.add(explain_record(FOUR, "x:1"))

    monkeypatch.setattr(build_module, "make_folder", the_other_build_runs)
    with WriterLock(db):  # the other build holds the lock
        with pytest.raises(DatabaseBusy):
            build_module.build([str(EXAMPLES / "4x4.txt")], db, jobs=1, progress=False)
        assert db.exists()
        with PuzzleDB(db, read_only=True) as kept:
            assert len(kept) == 1
