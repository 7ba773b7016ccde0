"""Write tests/data/hodoku_textbook.txt: hand-made positions in HoDoKu's library format.

Each position is drawn here by hand, and its expected eliminations are
worked out by hand (not by the engine): a value's places as a picture
(``x`` = a candidate; every other value is a candidate everywhere), or a
few cells' candidates (every other cell holds every value). ``-x`` codes
are the same patterns broken by one candidate: the step must not be found.
Codes whose technique has no registry record yet (skyscraper, kite, xyz
wing, remote pair, unique rectangle …) are kept: `steps --check` reports
them as not checked until a record answers to the code.

Run: PYTHONPATH=. python tests/data/make_textbook_positions.py
"""
from __future__ import annotations

from pathlib import Path

from explainer.hints.pencilmarks import parse_pencilmarks
from explainer.hodoku import format_library

HERE = Path(__file__).resolve().parent
FULL = "123456789"


def rcv(text: str) -> list[tuple[int, int, int]]:
    """'r4c5<>3 r2c9<>2' -> 0-based candidates."""
    out = []
    for token in text.split():
        cell, v = token.split("<>")
        r, c = cell[1:].split("c")
        out.append((int(r) - 1, int(c) - 1, int(v)))
    return out


def picture(v: int, rows: str) -> str:
    """The pencil marks of one value's picture (9 rows of 9 'x'/'.')."""
    lines = rows.split()
    assert len(lines) == 9 and all(len(x) == 9 for x in lines), rows
    return "\n".join(" ".join(FULL if ch == "x" else FULL.replace(str(v), "") for ch in line) for line in lines)


def cells(marks: dict[str, str]) -> str:
    """The pencil marks of a few cells' candidates: {"r1c1": "12", ...}."""
    grid = [[FULL] * 9 for _ in range(9)]
    for name, values in marks.items():
        r, c = name[1:].split("c")
        grid[int(r) - 1][int(c) - 1] = values
    return "\n".join(" ".join(row) for row in grid)


def rows_without(v: int, keep: dict[int, str]) -> str:
    """A picture where rows not in ``keep`` are full."""
    return " ".join(keep.get(r, "xxxxxxxxx") for r in range(1, 10))


X_WING = rows_without(1, {2: "..x....x.", 7: "..x....x."})
SWORDFISH = rows_without(2, {1: ".x..x....", 5: "....x..x.", 9: ".x.....x."})
FINNED_X = rows_without(3, {2: ".x....x..", 8: ".x....xx."})
SKYSCRAPER = "xxxx.xxxx .xxxxxxxx .xxx.xxxx .xxx.xxxx .xxx.xxxx .xxx.xxxx xxxxxxxxx .xxx.xxxx .xxx.xxxx"
KITE = ".x....x.. .xxxxxxxx xxxxxxxxx .xxxxxxxx .xxxxxxxx .xxxxxxxx .xxxxxxxx xxxxxxxxx .xxxxxxxx"
EMPTY_RECT = ("xxxxxxx.x xxxxxxxxx xxxxxxx.x xxx.x.x.x xxxxxxxxx xxx.x.x.x xxxxxxx.x xxxxxxx.x "
              "xxxxxxx.x")
COL5_BUT_2_8 = {f"r{r}c5": "23456789" for r in (1, 3, 4, 5, 6, 7, 9)}

# (comment, code, pencil marks, expected eliminations)
POSITIONS = [
    ("x wing on 1: rows 2 and 7, columns 3 and 8", "0300", picture(1, X_WING),
     " ".join(f"r{r}c{c}<>1" for r in (1, 3, 4, 5, 6, 8, 9) for c in (3, 8))),
    ("no x wing: row 7 also has 1 in column 5", "0300-x",
     picture(1, rows_without(1, {2: "..x....x.", 7: "..x.x..x."})), ""),
    ("swordfish on 2: rows 1, 5, 9, columns 2, 5, 8", "0301", picture(2, SWORDFISH),
     " ".join(f"r{r}c{c}<>2" for r in (2, 3, 4, 6, 7, 8) for c in (2, 5, 8))),
    ("no swordfish: row 9's 2s are in columns 2 and 7", "0301-x",
     picture(2, rows_without(2, {1: ".x..x....", 5: "....x..x.", 9: ".x....x.."})), ""),
    ("finned x wing on 3: rows 2 and 8, columns 2 and 7, fin r8c8", "0310", picture(3, FINNED_X),
     "r7c7<>3 r9c7<>3"),
    ("skyscraper on 4: columns 1 and 5, base row 7", "0400", picture(4, SKYSCRAPER),
     "r1c4<>4 r1c6<>4 r2c2<>4 r2c3<>4"),
    ("no skyscraper: column 5 also has 4 in r9", "0400-x",
     picture(4, SKYSCRAPER[:-9] + ".xxxxxxxx"), ""),
    ("2-string kite on 5: row 1 (c2, c7), column 1 (r3, r8), joined in box 1", "0401", picture(5, KITE),
     "r8c7<>5"),
    ("empty rectangle on 6: box 5 (row 5 and column 5), column 8 (r2, r5)", "0402", picture(6, EMPTY_RECT),
     "r2c5<>6"),
    ("y wing in one band: pivot r1c1 12, pincers r1c5 13 and r2c2 23", "0800",
     cells({"r1c1": "12", "r1c5": "13", "r2c2": "23"}), "r1c2<>3 r1c3<>3 r2c4<>3 r2c5<>3 r2c6<>3"),
    ("y wing across bands: pivot r1c1 12, pincers r1c5 13 and r4c1 23 [known gap: the registry's "
     "y wing is the band pattern of TECHNIQUES.md; an xy wing record answering 0800 will find it]", "0800",
     cells({"r1c1": "12", "r1c5": "13", "r4c1": "23"}), "r4c5<>3"),
    ("no y wing: r4c1 is 24", "0800-x", cells({"r1c1": "12", "r1c5": "13", "r4c1": "24"}), ""),
    ("xyz wing: pivot r1c2 123, pincers r1c7 13 and r2c1 23", "0801",
     cells({"r1c2": "123", "r1c7": "13", "r2c1": "23"}), "r1c1<>3 r1c3<>3"),
    ("w wing: r2c1 and r8c9 12, 1 in column 5 only in r2 and r8", "0803",
     cells({"r2c1": "12", "r8c9": "12", **COL5_BUT_2_8}), "r2c9<>2 r8c1<>2"),
    ("no w wing: column 5 also has 1 in r5", "0803-x",
     cells({"r2c1": "12", "r8c9": "12", **{k: v for k, v in COL5_BUT_2_8.items() if k != "r5c5"}}), ""),
    ("naked pair 12 in row 1 (r1c1, r1c5)", "0200", cells({"r1c1": "12", "r1c5": "12"}),
     " ".join(f"r1c{c}<>{v}" for c in (2, 3, 4, 6, 7, 8, 9) for v in (1, 2))),
    ("no naked pair: r1c5 is 13", "0200-x", cells({"r1c1": "12", "r1c5": "13"}), ""),
    ("hidden pair 78 in row 9 (r9c1, r9c2)", "0210", cells({f"r9c{c}": "1234569" for c in range(3, 10)}),
     " ".join(f"r9c{c}<>{v}" for c in (1, 2) for v in (1, 2, 3, 4, 5, 6, 9))),
    ("pointing: in box 1, 1 only in row 1", "0100",
     cells({f"r{r}c{c}": "23456789" for r in (1, 2, 3) for c in (1, 2, 3) if (r, c) not in ((1, 1), (1, 2))}),
     " ".join(f"r1c{c}<>1" for c in range(4, 10))),
    ("claiming: in row 5, 2 only in box 5 (r5c4, r5c5)", "0101",
     cells({f"r5c{c}": "13456789" for c in (1, 2, 3, 6, 7, 8, 9)}),
     " ".join(f"r{r}c{c}<>2" for r in (4, 6) for c in (4, 5, 6))),
    ("remote pair 45: r1c1, r1c5, r3c4, r7c4", "0703",
     cells({"r1c1": "45", "r1c5": "45", "r3c4": "45", "r7c4": "45"}),
     "r7c1<>4 r7c1<>5 r1c4<>4 r1c4<>5"),
    ("unique rectangle type 1: r1c1, r1c4, r2c1 12, r2c4 125", "0600",
     cells({"r1c1": "12", "r1c4": "12", "r2c1": "12", "r2c4": "125"}), "r2c4<>1 r2c4<>2"),
    ("no unique rectangle: r2c1 is 13", "0600-x",
     cells({"r1c1": "12", "r1c4": "12", "r2c1": "13", "r2c4": "125"}), ""),
    ("als chain: r1c1 12 -2- r1c4 25 -5- r2c5 35 + r7c5 34 -4- r8c4 46 + r8c2 16; 1 is in r1c1 or r8c2", "0903",
     cells({"r1c1": "12", "r1c4": "25", "r2c5": "35", "r7c5": "34", "r8c4": "46", "r8c2": "16"}),
     "r1c2<>1 r2c2<>1 r3c2<>1 r7c1<>1 r8c1<>1 r9c1<>1"),
    ("no als chain: r1c1 12 -2- r1c5 25 -5- r5c5 57 -5- r5c3 15 (5 twice in a row)", "0903-x",
     cells({"r1c1": "12", "r1c5": "25", "r5c5": "57", "r5c3": "15"}), ""),
]


def main() -> None:
    out = ["# Hand-made positions in HoDoKu's library format (tests/data/make_textbook_positions.py):",
           "# each pattern drawn and its eliminations worked out by hand; <code>-x: must not fire."]
    for comment, code, marks, elims in POSITIONS:
        state = parse_pencilmarks(marks)
        out.append(f"# {comment}")
        out.append(format_library(state, code=code, eliminations=rcv(elims)))
    (HERE / "hodoku_textbook.txt").write_text("\n".join(out) + "\n")


if __name__ == "__main__":
    main()
