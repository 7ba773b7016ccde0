"""Schema 3 of the puzzle bank: packed documents, byte-identical export, migration from schemas 1 and 2."""
from __future__ import annotations

import json
import sqlite3
import subprocess
import sys
from pathlib import Path

import pytest

from explainer import Puzzle
from explainer.app.bank import payloads as payloads_module
from explainer.app.bank.build import build
from explainer.app.bank.db import PuzzleDB, puzzle_key
from explainer.app.bank.pack import (
    HOLE,
    Packed,
    decode_steps,
    encode_steps,
    join_text,
    pack,
    split_text,
    unframe,
    unpack,
)
from explainer.app.cli.db import main
from tests.conftest import for_checker
from tests.legacy_bank import write_legacy

ROOT = Path(__file__).resolve().parents[1]
SHARED = ROOT.parent / "shared"
VERIFY = SHARED / "tools" / "verify_steps.py"
SAMPLE4 = (SHARED / "data" / "sample4.txt").read_text().split()
# top1465 lines 757 and 1: forcing chains, trial, chains, wings (texts of many patterns)
HARD = ["....584..8.473...2.5....7..3.5.7..6..46.1.....9...........8.6.....9...73...1...29",
        "4...3.......6..8..........1....5..9..8....6...7.2........1.27..5.3....4.9........"]
SEED = "9..3....41...2...5..2...3.12..6.9..36.9.5.............48.9...7........4....81...."


def jsonl(docs: list[dict]) -> str:
    """What schema 2's ``db export`` wrote for these documents."""
    return "".join(json.dumps(d, ensure_ascii=False) + "\n" for d in docs)


def verify(docs_file: Path, tmp_path: Path) -> None:
    listing = tmp_path / "export.json"
    listing.write_text(json.dumps([for_checker(json.loads(line)) for line in docs_file.read_text().splitlines()]))
    assert VERIFY.exists(), f"the shared checker is missing: {VERIFY}"
    res = subprocess.run([sys.executable, str(VERIFY), str(listing)], capture_output=True, text=True, timeout=300)
    assert res.returncode == 0, res.stdout + res.stderr


# ---- the packed form ----------------------------------------------------------------------

@pytest.mark.parametrize("text", ["Single position: in box 7, 7 can only go in r9c3.", "no digit", "",
                                  "r12c3 is 10, r1c1 is 007", "٣ and 3", "50% of 1,2"])
def test_text_splits_into_pattern_and_digits_and_back(text: str) -> None:
    split = split_text(text)
    assert split is not None
    assert not any(ch.isdigit() for ch in split[0])
    assert join_text(*split) == text
    assert split_text(f"a {HOLE} b") is None  # such a text is stored whole


def test_pack_round_trip_is_exact_on_real_and_odd_documents() -> None:
    docs = [Puzzle(p).to_json() for p in [SEED, *SAMPLE4[:2]]]
    odd = json.loads(json.dumps(docs[0]))
    odd["steps"][0]["text"] = "step 12 of r10c3, value 07"           # multi-digit runs, leading zero
    odd["steps"][1]["translations"] = {"fr": "autre 9 8", "de": "Schritt 1"}  # other digits, a second language
    del odd["steps"][2]["text"]                                       # a step without text
    odd["steps"][3] = dict(reversed(list(odd["steps"][3].items())))   # another key order
    odd["steps"][4]["rating"] = 3                                     # int, not float
    odd["steps"][5]["extra"] = {"nested": [1.5, None, True, "x"]}
    whole = json.loads(json.dumps(docs[1]))
    whole["steps"][0]["text"] = f"holds the hole {HOLE} itself"     # does not fit the columns: stored whole
    for doc in [*docs, odd, whole, {"puzzle": "x", "steps": None}, {"steps": [1, 2]}]:
        parts = pack(doc)
        back = unpack(parts)
        assert json.dumps(back, ensure_ascii=False) == json.dumps(doc, ensure_ascii=False)
        packed = Packed(parts)
        for i, step in enumerate(doc["steps"] if isinstance(doc.get("steps"), list) and
                                 all(isinstance(s, dict) for s in doc["steps"]) else []):
            assert packed.step(i) == step and list(packed.step(i)) == list(step)
            assert packed.text(i) == step.get("text", "")
    assert set(pack(docs[0])) == {"text", "translations/fr", "rest"}
    assert set(pack(whole)) == {"rest"}


def test_step_index_blobs_round_trip() -> None:
    for rows in ([], [(0, 1, 0, 3)], [(i, 1, 0, 4) for i in range(0, 120, 2)],
                 [(0, 0, 300, 2), (7, 1, 0, 70000)], [(3, 0, 1, 1), (4, 2, 255, 256)]):
        blob = encode_steps(rows)
        assert decode_steps(blob) == rows
    assert len(encode_steps([(i, 1, 0, 4) for i in range(50)])) < 40  # runs deflate: 50 singles in a few bytes


# ---- byte-identical export -----------------------------------------------------------------

def test_fresh_build_exports_what_schema_2_exported(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """Build (dictionaries learnt after 3 puzzles), export, compare bytes, run the shared checker."""
    monkeypatch.setattr(payloads_module, "TRAIN_AFTER", 3)
    texts = [*SAMPLE4, *HARD, SEED]
    f = tmp_path / "p.txt"
    f.write_text("\n".join(texts) + "\n")
    db = tmp_path / "b.sqlite"
    build(f, db, jobs=2, progress=False)
    with PuzzleDB(db, create=False) as store:
        trained = store.conn.execute("SELECT count(*) FROM codecs WHERE zdict IS NOT NULL").fetchone()[0]
        assert trained == 3  # text, translations/fr, rest
        # every payload was compressed again with the dictionaries: the learnt codecs only
        used = {codec for (blob,) in store.conn.execute("SELECT data FROM payloads")
                for codec, _ in unframe(blob)}
        assert used == {i for (i,) in store.conn.execute("SELECT id FROM codecs WHERE zdict IS NOT NULL")}
    out = tmp_path / "export.jsonl"
    assert main(["export", "--db", str(db), "-o", str(out)]) == 0
    assert out.read_text(encoding="utf-8") == jsonl([Puzzle(t).to_json() for t in texts])
    verify(out, tmp_path)


def test_query_records_match_the_documents(tmp_path: Path) -> None:
    db = tmp_path / "q.sqlite"
    f = tmp_path / "p.txt"
    f.write_text("\n".join(HARD) + "\n")
    build(f, db, jobs=2, progress=False)
    with PuzzleDB(db, create=False) as store:
        docs = {puzzle_key(d["puzzle"]): d for d in store.documents()}
        records = store.query()
        assert len(records) == sum(len(d["steps"]) for d in docs.values())
        for r in records:
            step = docs[r.puzzle]["steps"][r.index]
            assert r.text == step["text"] and r.technique == step["technique"]
            assert r.json == json.dumps(step, separators=(",", ":"), ensure_ascii=False)
            assert (r.n_place, r.n_eliminate) == (len(step["place"]), len(step["eliminate"]))
        chains = store.query("forcing chain", order_by="length")
        assert chains and [r.length for r in chains] == sorted((r.length for r in chains), reverse=True)
        by_er = store.query(order_by="-rating", limit=3)
        assert [r.er for r in by_er] == sorted(r.er for r in records)[:3]


# ---- older files ---------------------------------------------------------------------------

def test_schema_2_file_is_refused_with_the_command_that_converts_it(tmp_path: Path,
                                                                  capsys: pytest.CaptureFixture[str]) -> None:
    db = tmp_path / "old.sqlite"
    write_legacy(db, SAMPLE4[:2])
    before = db.read_bytes()
    for argv in (["stats", "--db", str(db)], ["query", "--db", str(db)], ["export", "--db", str(db)],
                 ["build", str(tmp_path / "none.txt"), "--db", str(db)]):
        if argv[0] == "build":
            (tmp_path / "none.txt").write_text(SAMPLE4[2] + "\n")
        assert main(argv) == 2
        err = capsys.readouterr().err
        assert err.count("\n") == 1 and f"explain-sudoku db migrate --db {db}" in err and "schema version 2" in err
    assert db.read_bytes() == before  # refused without writing


@pytest.mark.parametrize("version", [1, 2])
def test_migrate_keeps_the_original_and_exports_the_same_bytes(version: int, tmp_path: Path,
                                                               capsys: pytest.CaptureFixture[str]) -> None:
    db = tmp_path / "old.sqlite"
    docs = write_legacy(db, [*SAMPLE4, HARD[0]], version=version, bad=["12.4"])
    original = sqlite3.connect(db)
    old_rows = original.execute("SELECT * FROM puzzles ORDER BY id").fetchall()
    old_steps = original.execute("SELECT * FROM steps ORDER BY puzzle_id, idx").fetchall()
    original.close()
    assert main(["migrate", "--db", str(db)]) == 0
    out = capsys.readouterr().out
    backup = db.with_name(f"old.sqlite.v{version}.bak")
    assert f"schema version {version} -> 4" in out and str(backup) in out
    kept = sqlite3.connect(backup)  # the original, whole, beside the file
    assert kept.execute("PRAGMA user_version").fetchone()[0] == version
    assert kept.execute("SELECT * FROM puzzles ORDER BY id").fetchall() == old_rows
    assert kept.execute("SELECT * FROM steps ORDER BY puzzle_id, idx").fetchall() == old_steps
    kept.close()
    export = tmp_path / "export.jsonl"
    assert main(["export", "--db", str(db), "-o", str(export)]) == 0
    assert export.read_text(encoding="utf-8") == jsonl(docs)  # the ratings of version 1 filled in as today
    verify(export, tmp_path)
    with PuzzleDB(db, create=False) as store:
        st = store.stats()
        assert (st["puzzles"], st["errors"]) == (7, 1)
        assert st["er"]["max"] == Puzzle(HARD[0], order="seed").rating.er
        assert store.query("forcing chain")
    # again: nothing to do, no second backup
    assert main(["migrate", "--db", str(db)]) == 0
    assert "nothing to do" in capsys.readouterr().out
    assert sorted(p.name for p in tmp_path.glob("old.sqlite.v*")) == [backup.name]


def test_a_failed_migration_leaves_the_file_as_it_was(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    db = tmp_path / "old.sqlite"
    write_legacy(db, SAMPLE4[:3])
    con = sqlite3.connect(db)
    con.execute("UPDATE steps SET json = '{broken' WHERE puzzle_id = 3 AND idx = 0")  # the last puzzle
    con.commit()
    rows = con.execute("SELECT * FROM puzzles ORDER BY id").fetchall()
    con.close()
    assert main(["migrate", "--db", str(db)]) == 2
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and "unchanged" in err
    con = sqlite3.connect(db)
    assert con.execute("PRAGMA user_version").fetchone()[0] == 2
    assert con.execute("SELECT * FROM puzzles ORDER BY id").fetchall() == rows
    assert con.execute("SELECT name FROM sqlite_master WHERE name = 'payloads'").fetchall() == []
    con.close()


def test_forget_removes_the_payload_and_the_step_index(tmp_path: Path) -> None:
    db = tmp_path / "f.sqlite"
    f = tmp_path / "p.txt"
    f.write_text("\n".join(SAMPLE4[:3]) + "\n")
    build(f, db, jobs=1, progress=False)
    with PuzzleDB(db, create=False) as store:
        (pid,) = store.conn.execute("SELECT id FROM puzzles WHERE text = ?", (puzzle_key(SAMPLE4[1]),)).fetchone()
        assert store.forget([puzzle_key(SAMPLE4[1])]) == 1
        for table in ("payloads", "step_index"):
            assert store.conn.execute(f"SELECT count(*) FROM {table} WHERE puzzle_id = ?", (pid,)).fetchone() == (0,)
        docs = list(store.documents())
        assert [d["puzzle"] for d in docs] == [puzzle_key(SAMPLE4[0]), puzzle_key(SAMPLE4[2])]
        usage = store.stats()["techniques"]
        assert sum(u["steps"] for u in usage.values()) == sum(len(d["steps"]) for d in docs)
        assert max(u["puzzles"] for u in usage.values()) == 2
