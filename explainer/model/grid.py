"""The grid and its vocabulary.

Glossary (TECHNIQUES.md is the contract):

- n: side of the grid (4, 9, 16, 25); m = sqrt(n): side of a box.
- cell: an index 0..n*n-1, row-major. In every text a person reads it is
  written ``r4c7`` (1-based).
- house: an index 0..3n-1: rows are 0..n-1, columns n..2n-1, boxes 2n..3n-1.
  Its JSON key is ``("row" | "col" | "box", k)`` with k 0-based.
- value: 1..n; in text values above 9 are letters (10 = A).
- mask: a Python int used as a bit set. A *cell mask* has bit c for cell c;
  a *value mask* (the candidates of a cell) has bit v-1 for value v.
- peers of a cell: every other cell sharing a house with it.

Geometry tables are built once per size and shared (``geometry(n)``).
"""
from __future__ import annotations

import math
import numbers
import os
import stat
import sys
import time
from collections.abc import Iterator, Mapping, Sequence
from dataclasses import dataclass
from functools import cache
from pathlib import Path

LETTERS = "123456789ABCDEFGHIJKLMNOP"
EMPTY_CHARS = ".0_"
DECORATION = set("|-+* \t")
SIZES = (4, 9, 16, 25)
HOUSE_KINDS = ("row", "col", "box")


class PuzzleError(ValueError):
    """Bad input: the message says what is wrong; ``where`` says where (file:line).

    The one error type of the library: every misuse (a bad puzzle, an unknown
    technique or language, a step number out of range, an argument of the wrong
    type) raises it or one of its subclasses, whose other base keeps the usual
    Python meaning (``PuzzleTypeError`` is also a TypeError, ``UnknownNameError``
    a KeyError, ``StepIndexError`` an IndexError). The message is one line."""

    def __init__(self, message: str, where: str = "") -> None:
        super().__init__(message)
        self.message = message
        self.where = where

    def at(self, where: str) -> PuzzleError:
        """The same error, located (keeps an inner location if already set)."""
        return type(self)(self.message, self.where or where)

    def __str__(self) -> str:
        text = f"{self.where}: {self.message}" if self.where else self.message
        return one_line(text)


class PuzzleTypeError(PuzzleError, TypeError):
    """An argument of the wrong type (a number where a puzzle is expected, a string where a list is)."""


class UnknownNameError(PuzzleError, KeyError):
    """A name that means nothing here: a technique, a language, a solving method."""


class StepIndexError(PuzzleError, IndexError):
    """A step number outside the explanation (0 .. number of steps)."""


def type_name(value: object) -> str:
    """How a value's type is named in a message: 'None', 'an int', 'a list'."""
    if value is None:
        return "None"
    name = type(value).__name__
    return ("an " if name[:1].lower() in "aeiou" else "a ") + name


def one_line(text: str) -> str:
    """A message on one line: line breaks and other control characters (from file names,
    puzzle text) are shown escaped."""
    if text.isprintable():
        return text
    return "".join(ch if ch.isprintable() else repr(ch)[1:-1] for ch in text)


def value_char(v: int) -> str:
    """The character of a value in text (0 is '.')."""
    return LETTERS[v - 1] if v else "."


def bits(mask: int) -> Iterator[int]:
    """Indexes of the set bits of ``mask``, lowest first."""
    while mask:
        low = mask & -mask
        yield low.bit_length() - 1
        mask ^= low


def values_of(mask: int) -> list[int]:
    """Values (1-based) of a value mask."""
    return [b + 1 for b in bits(mask)]


class Geometry:
    """Houses, peers and masks of an n×n grid, computed once per size."""

    def __init__(self, n: int) -> None:
        m = math.isqrt(n)
        if m * m != n or not 2 <= m <= 5:
            raise PuzzleError(f"size {n} is not supported (n must be 4, 9, 16 or 25)")
        self.n, self.m, self.ncells = n, m, n * n
        self.full = (1 << n) - 1  # every value
        self.all_cells = (1 << (n * n)) - 1
        self.row_of = tuple(c // n for c in range(n * n))
        self.col_of = tuple(c % n for c in range(n * n))
        self.box_of = tuple(m * (c // n // m) + (c % n) // m for c in range(n * n))
        houses: list[tuple[int, ...]] = []
        houses += [tuple(r * n + c for c in range(n)) for r in range(n)]
        houses += [tuple(r * n + c for r in range(n)) for c in range(n)]
        for b in range(n):
            r0, c0 = m * (b // m), m * (b % m)
            houses.append(tuple((r0 + i) * n + c0 + j for i in range(m) for j in range(m)))
        self.houses: tuple[tuple[int, ...], ...] = tuple(houses)
        self.house_mask: tuple[int, ...] = tuple(sum(1 << c for c in h) for h in houses)
        self.cell_houses: tuple[tuple[int, int, int], ...] = tuple(
            (self.row_of[c], n + self.col_of[c], 2 * n + self.box_of[c]) for c in range(n * n)
        )
        peer_masks = []
        for c in range(n * n):
            pm = 0
            for h in self.cell_houses[c]:
                pm |= self.house_mask[h]
            peer_masks.append(pm & ~(1 << c))
        self.peer_mask: tuple[int, ...] = tuple(peer_masks)
        self.peers: tuple[tuple[int, ...], ...] = tuple(tuple(bits(pm)) for pm in peer_masks)
        # Line-box intersections ("sub-regions"): (line house, box house, cell mask).
        inter = []
        for line in range(2 * n):
            for box in range(2 * n, 3 * n):
                mask = self.house_mask[line] & self.house_mask[box]
                if mask:
                    inter.append((line, box, mask))
        self.intersections: tuple[tuple[int, int, int], ...] = tuple(inter)

    # ---- names a person reads ---------------------------------------------
    def cell_name(self, c: int) -> str:
        return f"r{self.row_of[c] + 1}c{self.col_of[c] + 1}"

    def house_name(self, h: int) -> str:
        kind, k = self.house_key(h)
        return f"{ {'row': 'row', 'col': 'column', 'box': 'box'}[kind] } {k + 1}"

    def house_key(self, h: int) -> tuple[str, int]:
        return HOUSE_KINDS[h // self.n], h % self.n

    def rc(self, c: int) -> tuple[int, int]:
        """(row, col) of cell index c, 0-based (what a step's detail records)."""
        return self.row_of[c], self.col_of[c]

    def cell(self, r: int, c: int) -> int:
        return r * self.n + c



@cache
def geometry(n: int) -> Geometry:
    return Geometry(n)


@dataclass(frozen=True)
class Grid:
    """Givens of a puzzle: n and the values row by row (0 = empty)."""

    n: int
    values: tuple[int, ...]

    @property
    def geometry(self) -> Geometry:
        return geometry(self.n)

    def to_line(self) -> str:
        return "".join(value_char(v) for v in self.values)

    def to_text(self) -> str:
        """A readable grid with box separators."""
        n, m = self.n, math.isqrt(self.n)
        width = 1 if n <= 9 else 2
        lines = []
        sep = "+".join("-" * ((width + 1) * m + 1) for _ in range(m))
        for r in range(n):
            if r and r % m == 0:
                lines.append(sep)
            row = []
            for b in range(m):
                chunk = " ".join(value_char(self.values[r * n + b * m + j]).rjust(width) for j in range(m))
                row.append(" " + chunk + " ")
            lines.append("|".join(row).rstrip())
        return "\n".join(lines)

    def __str__(self) -> str:
        return self.to_line()

    def __repr__(self) -> str:
        return f"Grid.parse({self.to_line()!r})"

    @classmethod
    def parse(cls, source: str | Sequence[Sequence[int]] | Grid, where: str = "") -> Grid:
        return parse_grid(source, where)


def _clean(text: str) -> str:
    return "".join(ch for ch in text if ch not in DECORATION and ch not in "\r\n")


def _size_for(count: int) -> int:
    n = math.isqrt(count)
    if n * n != count or n not in SIZES:
        raise PuzzleError(
            f"{count} cells is not a sudoku size (expected 16, 81, 256 or 625 cells)"
        )
    return n


def parse_grid(source: str | Sequence[Sequence[int]] | Grid, where: str = "") -> Grid:
    """A Grid from a one-line or multi-line string, a list of rows or a numpy array.

    Checks only the text itself (size, characters, values, clashing givens);
    whether the puzzle has exactly one solution is the solver's business.
    """
    if isinstance(source, Grid):
        return source
    if isinstance(source, (bytes, bytearray)):
        raise PuzzleTypeError("a puzzle is text (str), not bytes: decode it first", where)
    if not isinstance(source, str) and not hasattr(source, "__iter__"):
        raise PuzzleTypeError(f"a puzzle is a string, a Grid or a list of rows, not {type_name(source)}", where)
    try:
        if isinstance(source, str):
            grid = _parse_text(source)
        else:
            grid = _parse_rows(source)
        check_givens(grid)
        return grid
    except PuzzleError as e:
        raise e.at(where) from None


def _parse_text(text: str) -> Grid:
    cleaned = _clean(text)
    if not cleaned:
        raise PuzzleError("empty puzzle")
    n = _size_for(len(cleaned))
    return Grid(n, tuple(text_values(cleaned, n)))


def text_values(text: str, n: int) -> list[int]:
    """The values of the cells a run of puzzle characters stands for in an n×n grid.

    One character a cell: '.', '0' or '_' is an empty cell (0), '1'..'9' and then 'A'..'P'
    (either case) the values 1..25. Every way a puzzle comes in (a file, a string, the
    page's request) reads its characters here, so that they cannot disagree. A character
    that is no value of an n×n grid raises a PuzzleError naming it and its cell.
    """
    values = []
    for i, ch in enumerate(text):
        if ch in EMPTY_CHARS:
            values.append(0)
            continue
        v = LETTERS.find(ch.upper()) + 1
        if v == 0:
            raise PuzzleError(f"unknown character {ch!r} at cell r{i // n + 1}c{i % n + 1}")
        if v > n:
            raise PuzzleError(
                f"value {ch!r} ({v}) is too large for a {n}×{n} grid at r{i // n + 1}c{i % n + 1}"
            )
        values.append(v)
    return values


def _parse_rows(rows: Sequence[Sequence[int]]) -> Grid:
    if isinstance(rows, Mapping):  # its keys would be read as rows
        raise PuzzleTypeError(f"a puzzle is a string, a Grid or a list of rows, not {type_name(rows)}")
    rows = list(rows)
    if rows and isinstance(rows[0], (str, bytes)):
        raise PuzzleTypeError("rows are lists of whole numbers, not strings: give the puzzle as one string "
                              "(rows joined, '.' or '0' for an empty cell) or rows of numbers")
    if rows and not hasattr(rows[0], "__iter__"):
        n = math.isqrt(len(rows))
        shape = f"a list of {n} rows of {n}" if n * n == len(rows) else "a list of rows"
        raise PuzzleTypeError(f"a flat list of {len(rows)} values: give {shape}, or the puzzle as a string")
    try:
        table = [[_whole(x, r, c) for c, x in enumerate(row)] for r, row in enumerate(rows)]
    except (TypeError, ValueError, OverflowError) as e:
        if isinstance(e, PuzzleError):
            raise
        raise PuzzleError(f"rows must hold integers ({e})") from None
    n = len(table)
    if n not in SIZES:
        raise PuzzleError(f"{n} rows is not a sudoku size (expected 4, 9, 16 or 25)")
    values = []
    for r, row in enumerate(table):
        if len(row) != n:
            raise PuzzleError(f"row {r + 1} has {len(row)} cells, expected {n}")
        for c, v in enumerate(row):
            if not 0 <= v <= n:
                raise PuzzleError(f"value {v} is out of range 0..{n} at r{r + 1}c{c + 1}")
            values.append(v)
    return Grid(n, tuple(values))


def _whole(x: object, r: int, c: int) -> int:
    """A cell value from a list of rows or an array: whole numbers only (6.7 is an error, not 6)."""
    if isinstance(x, (str, bytes, bool)) or not (isinstance(x, numbers.Real) or hasattr(x, "__index__")):
        raise PuzzleError(f"value {x!r} at r{r + 1}c{c + 1} is not a whole number")
    v: int = int(x)
    if v != x:
        raise PuzzleError(f"value {x} at r{r + 1}c{c + 1} is not a whole number")
    return v


def check_givens(grid: Grid) -> None:
    """Two equal givens in one house make the puzzle impossible: say which."""
    geo = grid.geometry
    for h, cells in enumerate(geo.houses):
        seen: dict[int, int] = {}
        for c in cells:
            v = grid.values[c]
            if v:
                if v in seen:
                    raise PuzzleError(
                        f"two {value_char(v)}s in {geo.house_name(h)} "
                        f"({geo.cell_name(seen[v])} and {geo.cell_name(c)})"
                    )
                seen[v] = c


# ---- files --------------------------------------------------------------------------

@dataclass(frozen=True)
class Source:
    """One puzzle's text and where it came from (for messages)."""

    text: str
    where: str
    line: int


# Input limits: a puzzle file, standard input or a position is read up to this many bytes and
# lines and refused beyond (one line, exit status 2), so an endless input (/dev/zero, `yes |`)
# ends at once instead of filling the memory. 64 MiB holds 800,000 9×9 puzzle lines; split a
# larger collection into several files (``db build`` takes many).
MAX_INPUT_BYTES = 64 * 2**20
MAX_INPUT_LINES = 1_000_000


def read_text(path: str | Path) -> tuple[str, str]:
    """The text of a puzzle file ('-' is standard input) and its display name.

    At most ``MAX_INPUT_BYTES`` bytes and ``MAX_INPUT_LINES`` lines are read;
    a longer input is refused. The text must be UTF-8 (a BOM is dropped),
    except in comment lines (``#``), where a byte that is not is shown as
    U+FFFD instead (a Latin-1 comment does not make a file unreadable)."""
    if not isinstance(path, (str, Path)):
        raise PuzzleTypeError(f"a file name is a string or a Path, not {type_name(path)}")
    name = "<stdin>" if str(path) == "-" else str(path)
    if str(path) == "-":
        data = _read_stdin()
    else:
        data = _read_file(path, name)
    size = len(data.encode("utf-8", "surrogatepass")) if isinstance(data, str) else len(data)
    if size > MAX_INPUT_BYTES:
        raise PuzzleError(f"more than {MAX_INPUT_BYTES // 2**20} MiB; refused (the input limit: split a larger "
                          f"collection into several files)", name)
    text = data if isinstance(data, str) else _decode(data, name)
    lines = text.count("\n") + 1
    if lines > MAX_INPUT_LINES:
        raise PuzzleError(f"more than {MAX_INPUT_LINES:,} lines; refused (the input limit: split a larger "
                          f"collection into several files)", name)
    return text, name


def _read_stdin() -> bytes | str:
    if sys.stdin is None:  # the process started with its standard input closed (``<&-``)
        raise PuzzleError("standard input is closed; give a file or a puzzle", "<stdin>")
    stream = getattr(sys.stdin, "buffer", None)
    try:
        if stream is not None:
            data: bytes = stream.read(MAX_INPUT_BYTES + 1)
            return data
        return sys.stdin.read(MAX_INPUT_BYTES + 1)  # a text stream (tests, embedding)
    except OSError as e:
        raise PuzzleError(f"cannot read ({e.strerror or e})", "<stdin>") from None


# A FIFO (``mkfifo f``) that nothing opens for writing within this many seconds is refused,
# rather than waited on for ever; one a writer holds is read as any stream.
FIFO_WAIT_SECONDS = 5.0


def _read_file(path: str | Path, name: str) -> bytes:
    try:
        if stat.S_ISFIFO(os.stat(path).st_mode):
            return _read_fifo(path, name)
        with open(path, "rb") as f:
            return f.read(MAX_INPUT_BYTES + 1)
    except FileNotFoundError:
        raise PuzzleError("no such file", name) from None
    except IsADirectoryError:
        raise PuzzleError("is a directory, not a puzzle file", name) from None
    except PermissionError:
        raise PuzzleError("permission denied", name) from None
    except OSError as e:
        raise PuzzleError(f"cannot read file ({e.strerror or e})", name) from None
    except PuzzleError:
        raise
    except ValueError:  # e.g. a NUL byte in the name
        raise PuzzleError("not a valid file name", name) from None


def _read_fifo(path: str | Path, name: str) -> bytes:
    """A FIFO's bytes, once a writer holds it (its first bytes arrive, or it is open and
    silent: then read as any stream); refused when nothing writes for ``FIFO_WAIT_SECONDS``.
    Opened without blocking: an open(2) that waits for a writer could never time out."""
    fd = os.open(path, os.O_RDONLY | os.O_NONBLOCK)
    try:
        deadline = time.monotonic() + FIFO_WAIT_SECONDS
        while True:
            try:
                first = os.read(fd, 65536)
            except BlockingIOError:  # a writer holds it, nothing written yet: wait for it
                first = b""
                break
            if first:
                break
            if time.monotonic() >= deadline:  # no writer (a writer that left wrote nothing either)
                raise PuzzleError(f"a FIFO nothing wrote to in {FIFO_WAIT_SECONDS:g} s; refused (start "
                                  f"its writer first, or give a file)", name)
            time.sleep(0.05)
        os.set_blocking(fd, True)
        chunks, size = [first], len(first)
        while size <= MAX_INPUT_BYTES:
            chunk = os.read(fd, 1 << 20)
            if not chunk:
                break
            chunks.append(chunk)
            size += len(chunk)
        return b"".join(chunks)
    finally:
        os.close(fd)


def _decode(data: bytes, name: str) -> str:
    """UTF-8 text (BOM dropped); bytes that are not UTF-8 are an error on the line that holds
    them, unless that line is a comment."""
    try:
        return data.decode("utf-8-sig")
    except UnicodeDecodeError:
        pass
    text = data.decode("utf-8-sig", errors="replace")
    raw_lines = data.splitlines()
    if raw_lines and raw_lines[0].startswith(b"\xef\xbb\xbf"):
        raw_lines[0] = raw_lines[0][3:]
    for k, raw in enumerate(raw_lines, 1):
        try:
            raw.decode("utf-8")
        except UnicodeDecodeError as e:
            if raw.lstrip().startswith(b"#"):
                continue
            if b"\0" in data[:8192]:
                raise PuzzleError("a binary file, not a puzzle file (puzzle files are UTF-8 text)", name) from None
            raise PuzzleError(f"not UTF-8 text (byte 0x{raw[e.start]:02X} at column {e.start + 1}); save the "
                              f"file as UTF-8", f"{name}:{k}") from None
    return text


def split_sources(text: str, name: str = "<string>") -> list[Source]:
    """Cut a file's text into puzzles.

    Blank lines separate blocks; ``#`` starts a comment line. A block whose
    every line is a whole puzzle holds one puzzle per line; otherwise the
    block is one multi-line grid (decorated with ``| - + *`` and spaces).
    """
    blocks: list[list[tuple[int, str]]] = [[]]
    for lineno, raw in enumerate(text.splitlines(), 1):
        line = raw.strip()
        if line.startswith("#"):
            continue
        if not line:
            if blocks[-1]:
                blocks.append([])
            continue
        blocks[-1].append((lineno, line))
    sources = []
    for block in blocks:
        if not block:
            continue
        content = [(lineno, line) for lineno, line in block if _clean(line)]
        k = len(content)
        if k > 1 and (k in SIZES and all(len(_clean(line)) == k for _, line in content)
                      or _looks_like_one_grid(content)):
            text = "\n".join(line for _, line in block)
            sources.append(Source(text, f"{name}:{block[0][0]}", block[0][0]))
        else:
            sources += [Source(line, f"{name}:{lineno}", lineno) for lineno, line in block]
    return sources


PUZZLE_LENGTHS = tuple(n * n for n in SIZES)


def _looks_like_one_grid(content: list[tuple[int, str]]) -> bool:
    """A block of rows of one grid, even with a short or long row (then one error, not one
    per row): k rows of mostly k cells for a grid size k, or mostly rows shorter than any
    one-line puzzle."""
    lengths = sorted(len(_clean(line)) for _, line in content)
    k = len(lengths)
    if k in SIZES and lengths[k // 2] == k:
        return True
    short = sum(1 for x in lengths if x < min(PUZZLE_LENGTHS))
    return short * 2 > k


def read_sources(path: str | Path) -> list[Source]:
    """Every puzzle text of a file; an empty file is an error."""
    text, name = read_text(path)
    sources = split_sources(text, name)
    if not sources:
        raise PuzzleError("no puzzle in file (empty or only comments)", name)
    return sources
