"""Compressed payloads of the puzzle bank: store, read, and learn the dictionaries.

A payload is the packed document of one puzzle (``pack.pack``), each part
compressed with zlib under a *codec*: a row of ``codecs`` naming the part and
the preset dictionary (or none) it was compressed with. Codecs never change
once written, so every payload stays readable whatever this program later
learns; a new dictionary is a new codec.

Dictionaries are learnt per database, once, from its first ``TRAIN_AFTER``
explained puzzles (so a bank of 16×16 puzzles gets 16×16 patterns), and those
first puzzles are then compressed again with them, in the same transaction.
"""
from __future__ import annotations

import sqlite3
from collections.abc import Iterable, Iterator, Mapping

from .pack import Packed, compress, decompress, frame, is_patterns, train, unframe

TRAIN_AFTER = 64  # explained puzzles stored before the dictionaries are learnt from them


class _Parts(Mapping[str, bytes]):
    """The parts of one payload, decompressed on first access."""

    def __init__(self, payloads: Payloads, blob: bytes) -> None:
        self.payloads = payloads
        self.compressed = {payloads._codec(codec)[0]: (codec, data) for codec, data in unframe(blob)}
        self.done: dict[str, bytes] = {}

    def __getitem__(self, part: str) -> bytes:
        if part not in self.done:
            codec, data = self.compressed[part]
            self.done[part] = decompress(data, self.payloads._codec(codec)[1])
        return self.done[part]

    def __iter__(self) -> Iterator[str]:
        return iter(self.compressed)

    def __len__(self) -> int:
        return len(self.compressed)


class Payloads:
    """Payload rows of one open database (the caller holds the transaction when writing)."""

    def __init__(self, conn: sqlite3.Connection, train_after: int | None = None) -> None:
        self.conn = conn
        self.train_after = TRAIN_AFTER if train_after is None else train_after
        self._codecs: dict[int, tuple[str, bytes | None]] = {}

    # ---- codecs ----------------------------------------------------------------------------
    def _codec(self, codec_id: int) -> tuple[str, bytes | None]:
        if codec_id not in self._codecs:
            row = self.conn.execute("SELECT part, zdict FROM codecs WHERE id = ?", (codec_id,)).fetchone()
            if row is None:
                raise ValueError(f"payload compressed with an unknown codec {codec_id}")
            self._codecs[codec_id] = (row[0], row[1])
        return self._codecs[codec_id]

    def _codec_for(self, part: str) -> tuple[int, bytes | None]:
        """The newest codec of this part (a learnt dictionary when there is one); made if none."""
        row = self.conn.execute("SELECT id, zdict FROM codecs WHERE part = ? ORDER BY zdict IS NOT NULL DESC, id DESC"
                                " LIMIT 1", (part,)).fetchone()
        if row is not None:
            return row[0], row[1]
        cur = self.conn.execute("INSERT INTO codecs (part, zdict) VALUES (?, NULL)", (part,))
        assert cur.lastrowid is not None
        return cur.lastrowid, None

    def trained(self) -> bool:
        return self.conn.execute("SELECT 1 FROM codecs WHERE zdict IS NOT NULL LIMIT 1").fetchone() is not None

    # ---- one payload ---------------------------------------------------------------------
    def encode(self, parts: dict[str, bytes]) -> bytes:
        out = []
        for part, data in parts.items():
            codec, zdict = self._codec_for(part)
            out.append((codec, compress(data, zdict)))
        return frame(out)

    def parts(self, blob: bytes) -> dict[str, bytes]:
        """The uncompressed parts of a stored payload."""
        out = {}
        for codec, data in unframe(blob):
            part, zdict = self._codec(codec)
            out[part] = decompress(data, zdict)
        return out

    def store(self, puzzle_id: int, parts: dict[str, bytes]) -> None:
        self.conn.execute("INSERT INTO payloads (puzzle_id, data) VALUES (?, ?)", (puzzle_id, self.encode(parts)))
        if not self.trained():
            (n,) = self.conn.execute("SELECT count(*) FROM payloads").fetchone()
            if n >= self.train_after:
                self.learn()

    def load(self, puzzle_id: int) -> Packed | None:
        """The stored document, each part decompressed when first read."""
        row = self.conn.execute("SELECT data FROM payloads WHERE puzzle_id = ?", (puzzle_id,)).fetchone()
        return None if row is None else Packed(_Parts(self, row[0]))

    def delete(self, puzzle_ids: Iterable[int]) -> None:
        self.conn.executemany("DELETE FROM payloads WHERE puzzle_id = ?", [(i,) for i in puzzle_ids])

    # ---- learning the dictionaries ---------------------------------------------------------
    def learn(self) -> None:
        """Learn one dictionary per part from the stored payloads, then compress them again with it."""
        rows = self.conn.execute("SELECT puzzle_id, data FROM payloads ORDER BY puzzle_id").fetchall()
        decoded = [(pid, self.parts(blob)) for pid, blob in rows]
        samples: dict[str, list[bytes]] = {}
        for _, parts in decoded:
            for part, data in parts.items():
                samples.setdefault(part, []).append(data)
        for part, datas in samples.items():
            self.conn.execute("INSERT INTO codecs (part, zdict) VALUES (?, ?)", (part, train(datas, is_patterns(part))))
        self.conn.executemany("UPDATE payloads SET data = ? WHERE puzzle_id = ?",
                              [(self.encode(parts), pid) for pid, parts in decoded])
