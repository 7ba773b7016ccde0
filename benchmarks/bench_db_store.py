"""CPU cost of storing one explained puzzle in the database, explanation excluded.

    python benchmarks/bench_db_store.py DOCS.jsonl [N]

DOCS.jsonl: documents from ``explain-sudoku db export``. Each is stored
again through this checkout's own code, ``explain_record`` (with the
explanation already made: what a worker does after explaining, e.g.
packing) and ``PuzzleDB.add`` (what the build process does with each
result, e.g. compressing), in a fresh database. Run it from two checkouts
on the same file to compare storage layouts; CPU time (``process_time``).
"""
from __future__ import annotations

import json
import os
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))


def main() -> int:
    docs = [json.loads(line) for line in open(sys.argv[1], encoding="utf-8")]
    if len(sys.argv) > 2:
        docs = docs[:int(sys.argv[2])]
    by_text = {d["puzzle"]: d for d in docs}

    import explainer.api as api

    class Explained:
        """Stands in for ``Puzzle``: the stored explanation, as a fresh copy like ``to_json()`` gives."""

        def __init__(self, text: str, techniques: Any = None, where: str = "") -> None:
            self.text = text

        def to_json(self) -> dict[str, Any]:
            return json.loads(json.dumps(by_text[self.text]))

    api.Puzzle = Explained  # type: ignore[misc, assignment]
    from explainer.app.bank.db import PuzzleDB, explain_record

    worker = build = 0.0
    with tempfile.TemporaryDirectory() as tmp:
        path = Path(tmp) / "s.sqlite"
        db = PuzzleDB(path, create=True)
        for d in docs:
            t0 = time.process_time()
            Explained(d["puzzle"]).to_json()
            t1 = time.process_time()
            rec = explain_record(d["puzzle"])
            t2 = time.process_time()
            db.add(rec)
            t3 = time.process_time()
            worker += (t2 - t1) - (t1 - t0)  # the copy of the document is not storage work
            build += t3 - t2
        db.conn.execute("PRAGMA wal_checkpoint(TRUNCATE)")
        size = os.path.getsize(path)
        db.close()
    n = len(docs)
    print(f"{n} puzzles: worker {1000 * worker / n:.2f} ms/puzzle (record), build process "
          f"{1000 * build / n:.2f} ms/puzzle (store), file {size / n:.0f} bytes/puzzle")
    return 0


if __name__ == "__main__":
    sys.exit(main())
