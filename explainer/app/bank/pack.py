"""Compact storage of one steps-JSON document (schema 3 of the puzzle bank).

A document of 80 steps is about 50 KB of JSON, most of it step texts in two
languages built from a few dozen sentence patterns. Three lossless steps make
it about fifteen times smaller (top1465: 3.2 KB a puzzle instead of 48 KB)
without touching what ``db export`` writes:

1. **Columns**: the steps are stored key by key (every step's ``place``,
   then every step's ``eliminate``…) with each step's key order kept, so
   similar values sit side by side.
2. **Sentence patterns**: every text (``text`` and each translation) is
   split into its pattern, with the digit runs cut out, and the digits; a
   translation whose digits are the English text's stores none. The
   patterns then repeat exactly, within a puzzle and across puzzles.
3. **zlib with a preset dictionary** (``zdict``) learnt from the bank's own
   first puzzles and stored in the database, so even a puzzle's first steps
   find their patterns already "seen".

``unpack(pack(doc)) == doc`` with the same key order and value types, so
``json.dumps`` of the result is byte-identical to the original's. A
document this layout does not fit (a step that is not an object, a text
that is not a string or holds ``HOLE``) is stored whole instead, still
compressed.
"""
from __future__ import annotations

import json
import re
import sys
import zlib
from collections import Counter
from collections.abc import Iterable, Mapping, Sequence
from functools import lru_cache
from itertools import accumulate
from typing import Any

DIGITS = re.compile(r"\d+")
HOLE = "\x7f"  # where a digit run was cut out of a text (DEL: never in a step text)
LEVEL = 9  # zlib level: 6 is 2% larger and no faster to read; building is worker-bound
DICT_SIZE = 32 * 1024  # zlib's window: a longer dictionary is never used


def compact(value: Any) -> str:
    """JSON text without spaces, UTF-8 kept: how schema 2 stored a step and ``StepRecord.json`` gives it."""
    return json.dumps(value, separators=(",", ":"), ensure_ascii=False)


# ---- texts: pattern + digits -------------------------------------------------------------

def split_text(text: str) -> tuple[str, str] | None:
    """("Single position: in box \\x7f…", "79…"): the pattern and the digit runs, or None.

    Digits are written as one string: "793" when every run is one digit
    (9×9 texts), else ",7,12,3". None when the text already holds ``HOLE``.
    """
    if HOLE in text:
        return None
    runs = DIGITS.findall(text)
    digits = "".join(runs) if all(len(r) == 1 for r in runs) else "," + ",".join(runs)
    return DIGITS.sub(HOLE, text), digits


def join_text(pattern: str, digits: str) -> str:
    if not digits:
        return pattern
    runs = tuple(digits[1:].split(",") if digits.startswith(",") else digits)
    return _format(pattern) % runs


@lru_cache(maxsize=4096)
def _format(pattern: str) -> str:
    """The pattern as a %-format (patterns repeat: a bank has a few hundred of them)."""
    return pattern.replace("%", "%%").replace(HOLE, "%s")


# ---- one document -------------------------------------------------------------------------

class Unpackable(ValueError):
    """The document does not fit the column layout (it is then stored whole)."""


TEXT = "text"
REST = "rest"  # the part holding everything but the sentence patterns


def _texts(steps: Sequence[dict[str, Any]]) -> dict[str, dict[str, list[str | None]]]:
    """The text parts: per step, its pattern and digits (None: no such text; a translation's None
    digits: the same as the step's text)."""
    parts: dict[str, dict[str, list[str | None]]] = {TEXT: {"patterns": [None] * len(steps),
                                                            "digits": [None] * len(steps)}}
    for i, step in enumerate(steps):
        digits: str | None = None
        if "text" in step:
            split = split_text(step["text"]) if isinstance(step["text"], str) else None
            if split is None:
                raise Unpackable("text")
            parts[TEXT]["patterns"][i], digits = split
            parts[TEXT]["digits"][i] = digits
        value = step.get("translations", {})
        if not isinstance(value, dict):
            raise Unpackable("translations")
        for lang, text in value.items():
            split = split_text(text) if isinstance(text, str) and "," not in lang else None
            if split is None:
                raise Unpackable("translation")
            part = parts.setdefault(f"translations/{lang}", {"patterns": [None] * len(steps),
                                                              "digits": [None] * len(steps)})
            part["patterns"][i] = split[0]
            part["digits"][i] = None if split[1] == digits else split[1]
    return parts


def _columns(steps: Sequence[dict[str, Any]]) -> dict[str, Any]:
    """Key orders and columns of every value but the texts (a translations value keeps its languages)."""
    shapes: dict[str, int] = {}
    order: list[int] = []
    cols: dict[str, list[Any]] = {}
    for step in steps:
        shape = compact(list(step))
        order.append(shapes.setdefault(shape, len(shapes)))
        for key, value in step.items():
            if key == "translations":
                cols.setdefault(key, []).append(",".join(value))
            elif key != "text":
                cols.setdefault(key, []).append(value)
    return {"shapes": [json.loads(s) for s in shapes], "order": order, "columns": cols}


def pack(doc: dict[str, Any]) -> dict[str, bytes]:
    """The document as parts of compact JSON text (UTF-8), not yet compressed.

    ``"text"`` holds the English sentence patterns and digits, each
    ``"translations/LANG"`` one language's, ``"rest"`` the header, the key
    orders and every other column: each part compresses best with a
    dictionary of its own kind, and a query reads a step's text from the
    ``"text"`` part alone.
    """
    steps = doc.get("steps")
    header = {k: (None if k == "steps" else v) for k, v in doc.items()}
    try:
        if not isinstance(steps, list) or not all(isinstance(step, dict) for step in steps):
            raise Unpackable("no list of steps")
        texts = _texts(steps)
        body = _columns(steps)
    except Unpackable:
        return {REST: compact({"whole": doc}).encode()}
    parts = {name: compact(part).encode() for name, part in texts.items()}
    parts[REST] = compact({"header": header, **body}).encode()
    return parts


class Packed:
    """A packed document opened for reading: one step, one step's text, or the whole document.

    Each part is parsed when first needed: a query showing step texts reads
    the ``"text"`` part only.
    """

    def __init__(self, parts: Mapping[str, bytes]) -> None:
        self.parts = parts
        self._parsed: dict[str, Any] = {}
        self._rows: list[dict[str, int]] | None = None

    def _part(self, name: str) -> Any:
        if name not in self._parsed:
            self._parsed[name] = json.loads(self.parts[name])
        return self._parsed[name]

    @property
    def whole(self) -> dict[str, Any] | None:
        """The document stored whole (it did not fit the columns), else None."""
        if TEXT in self.parts:  # a document in columns always has its text part
            return None
        whole: dict[str, Any] | None = self._part(REST).get("whole")
        return whole

    def __len__(self) -> int:
        whole = self.whole
        return len(whole["steps"]) if whole is not None else len(self._part(REST)["order"])

    def _rows_of_columns(self) -> list[dict[str, int]]:
        """For each step, the position of each of its keys' value in that key's column."""
        if self._rows is None:
            rest = self._part(REST)
            seen: Counter[str] = Counter()
            rows = []
            for shape_id in rest["order"]:
                shape = rest["shapes"][shape_id]
                rows.append({key: seen[key] for key in shape})
                seen.update(shape)
            self._rows = rows
        return self._rows

    def _text(self, part: str, index: int, digits: str | None) -> str:
        texts = self._part(part)
        own = texts["digits"][index]
        return join_text(texts["patterns"][index], own if own is not None else digits or "")

    def text(self, index: int) -> str:
        """The step's ``text`` (without rebuilding the rest of the step); "" if it has none."""
        whole = self.whole
        if whole is not None:
            return str(whole["steps"][index].get("text", ""))
        texts = self._part(TEXT)
        return "" if texts["patterns"][index] is None else self._text(TEXT, index, None)

    def step(self, index: int) -> dict[str, Any]:
        whole = self.whole
        if whole is not None:
            return dict(whole["steps"][index])
        rest = self._part(REST)
        cols = rest["columns"]
        rows = self._rows_of_columns()[index]
        out: dict[str, Any] = {}
        for key in rest["shapes"][rest["order"][index]]:
            if key == "text":
                out[key] = self._text(TEXT, index, None)
            elif key == "translations":
                langs = cols[key][rows[key]]
                digits = self._part(TEXT)["digits"][index]
                out[key] = {lang: self._text(f"translations/{lang}", index, digits)
                            for lang in (langs.split(",") if langs else ())}
            else:
                out[key] = cols[key][rows[key]]
        return out

    def document(self) -> dict[str, Any]:
        whole = self.whole
        if whole is not None:
            return whole
        doc = dict(self._part(REST)["header"])
        doc["steps"] = self.steps()
        return doc

    def steps(self) -> list[dict[str, Any]]:
        """Every step, rebuilt column by column (what ``step`` does for one, without its look-ups)."""
        whole = self.whole
        if whole is not None:
            return list(whole["steps"])
        rest = self._part(REST)
        columns = {key: iter(values) for key, values in rest["columns"].items()}
        # per key order: (key, the column's iterator), None for the texts rebuilt from their parts
        plans = [[(key, None if key in ("text", "translations") else columns[key]) for key in shape]
                 for shape in rest["shapes"]]
        texts = self._part(TEXT)
        patterns, digits = texts["patterns"], texts["digits"]
        out = []
        for i, shape_id in enumerate(rest["order"]):
            step: dict[str, Any] = {}
            for key, column in plans[shape_id]:
                if column is not None:
                    step[key] = next(column)
                elif key == "text":
                    step[key] = join_text(patterns[i], digits[i])
                else:
                    langs = next(columns[key])
                    step[key] = {lang: self._text(f"translations/{lang}", i, digits[i])
                                 for lang in (langs.split(",") if langs else ())}
            out.append(step)
        return out


def unpack(parts: Mapping[str, bytes]) -> dict[str, Any]:
    return Packed(parts).document()


# ---- compression --------------------------------------------------------------------------

def compress(data: bytes, zdict: bytes | None) -> bytes:
    co = zlib.compressobj(LEVEL, zlib.DEFLATED, 15, 9, zlib.Z_DEFAULT_STRATEGY, zdict) if zdict else \
        zlib.compressobj(LEVEL, zlib.DEFLATED, 15, 9)
    return co.compress(data) + co.flush()


def decompress(blob: bytes, zdict: bytes | None) -> bytes:
    do = zlib.decompressobj(15, zdict) if zdict else zlib.decompressobj(15)
    return do.decompress(blob) + do.flush()


def train(samples: Sequence[bytes], patterns: bool, size: int = DICT_SIZE) -> bytes:
    """A preset dictionary for one part, learnt from that part of a bank's first puzzles.

    zlib's dictionary is text it pretends to have just read, the most useful
    nearest the end. For a part of sentence patterns (``patterns``): the
    JSON strings found in at least two samples, the ones that would save the
    most bytes last. For the rest: the samples' last ``size`` bytes, which
    hold the usual key lists, values and their order. Measured on top1465
    (learnt from 64 puzzles, compressing the other 1401; English patterns
    alone): 297 bytes a puzzle with these pieces, 384 with the samples'
    tail, 928 with no dictionary; for the rest the tail did best (2,523
    bytes against 3,221 with none).
    """
    if not patterns:
        return b"".join(samples)[-size:]
    found: Counter[str] = Counter()
    for data in samples:
        found.update(set(re.findall(r'"(?:[^"\\]|\\.)*"', data.decode())))
    common = sorted(((k * len(piece), piece) for piece, k in found.items() if k >= 2 and len(piece) >= 6))
    out: list[bytes] = []
    total = 0
    for _, piece in reversed(common):
        encoded = piece.encode()
        if total + len(encoded) <= size:
            out.append(encoded)
            total += len(encoded)
    return b"".join(reversed(out))


def is_patterns(part: str) -> bool:
    """A part holding sentence patterns (``text``, ``translations/LANG``)."""
    return part != REST


# ---- a stored payload: parts compressed, each tagged with its codec --------------------------

def _varint(n: int) -> bytes:
    out = bytearray()
    while True:
        byte, n = n & 0x7F, n >> 7
        out.append(byte | (0x80 if n else 0))
        if not n:
            return bytes(out)


def _read_varint(data: bytes, pos: int) -> tuple[int, int]:
    n = shift = 0
    while True:
        byte = data[pos]
        pos += 1
        n |= (byte & 0x7F) << shift
        shift += 7
        if not byte & 0x80:
            return n, pos


def frame(parts: Iterable[tuple[int, bytes]]) -> bytes:
    """(codec id, compressed part) pairs as one blob: varint id, varint length, bytes, …"""
    return b"".join(_varint(codec) + _varint(len(data)) + data for codec, data in parts)


def unframe(blob: bytes) -> list[tuple[int, bytes]]:
    out = []
    pos = 0
    while pos < len(blob):
        codec, pos = _read_varint(blob, pos)
        size, pos = _read_varint(blob, pos)
        out.append((codec, blob[pos:pos + size]))
        pos += size
    if pos != len(blob):
        raise ValueError("a truncated payload")
    return out


# ---- the steps of one technique in one puzzle, for queries ---------------------------------

WIDTHS = {1: "B", 2: "H", 4: "I"}
DEFLATED = 0x80  # flag in the width byte: the values are deflated


def encode_steps(rows: Sequence[tuple[int, int, int, int]]) -> bytes:
    """(index, places, eliminations, length) of each step as a few bytes.

    Column by column (every step's index gap, then every step's placements…)
    so runs repeat (a single always places 1 and eliminates 0), one byte a
    value for 9×9 puzzles, two or four when a value needs it, deflated when
    that is shorter: about 10 bytes for 50 singles.
    """
    from array import array

    gaps = [rows[0][0]] + [b[0] - a[0] - 1 for a, b in zip(rows, rows[1:], strict=False)] if rows else []
    values = gaps + [r[k] for k in (1, 2, 3) for r in rows]
    top = max(values, default=0)
    width = 1 if top < 1 << 8 else 2 if top < 1 << 16 else 4
    packed = array(WIDTHS[width], values)
    if sys.byteorder == "big":  # stored little-endian: a bank file moves between machines
        packed.byteswap()
    raw = packed.tobytes()
    co = zlib.compressobj(9, zlib.DEFLATED, -15)
    deflated = co.compress(raw) + co.flush()
    if len(deflated) < len(raw):
        return bytes([width | DEFLATED]) + deflated
    return bytes([width]) + raw


def decode_steps(blob: bytes) -> list[tuple[int, int, int, int]]:
    from array import array

    raw = zlib.decompress(blob[1:], -15) if blob[0] & DEFLATED else blob[1:]
    width = blob[0] & ~DEFLATED
    values: bytes | array[int]
    if width == 1:
        values = raw  # bytes index as ints: no array needed
    else:
        values = array(WIDTHS[width])
        values.frombytes(raw)
        if sys.byteorder == "big":
            values.byteswap()
    n = len(values) // 4
    if n == 1:  # most rows of a technique other than singles: one step
        return [(values[0], values[1], values[2], values[3])]
    indexes = accumulate(values[:n], lambda index, gap: index + gap + 1)
    return list(zip(indexes, values[n:2 * n], values[2 * n:3 * n], values[3 * n:], strict=True))
