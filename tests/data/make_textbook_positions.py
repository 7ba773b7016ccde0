"""Write tests/data/hodoku_textbook.txt: hand-made positions in HoDoKu's library format.

Each position is drawn here by hand, and its expected eliminations are
worked out by hand (not by the engine): a value's places as a picture
(``x`` = a candidate; every other value is a candidate everywhere), or a
few cells' candidates (every other cell holds every value). ``-x`` codes
are the same patterns broken by one candidate: the step must not be found.
Codes whose technique has no registry record yet (skyscraper, kite, xyz
wing, remote pair, unique rectangle …) are kept: `steps --check` reports
them as not checked until a record answers to the code.

Issue #25 adds every variant of the uniqueness, fish and Sue de Coq
families (HoDoKu's codes and suffixes: ``-2`` a rectangle with a missing
candidate, ``03111`` a siamese fish; see explainer/app/hodoku.py), each with
near misses, and bug+1 positions taken from a real puzzle reached by the
engine (``REAL``): the BUG cell and its value found by counting, as the
definition says, not by the finder; HoDoKu writes the step as the cell's
other candidates eliminated.

Run: PYTHONPATH=. python tests/data/make_textbook_positions.py
"""
from __future__ import annotations

from pathlib import Path

from explainer.app.hints.pencilmarks import parse_pencilmarks
from explainer.app.hodoku import format_library

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


# ---- issue #25: every variant of the uniqueness, fish and Sue de Coq families ----------------

NO = {v: FULL.replace(str(v), "") for v in range(1, 10)}
ROW2_NO_1 = {f"r2c{c}": NO[1] for c in (2, 3, 5, 6, 7, 8, 9)}
COL4_NO_1 = {f"r{r}c4": NO[1] for r in range(3, 10)}
ROW1_NO_1 = {f"r1c{c}": NO[1] for c in (2, 3, 5, 6, 7, 8, 9)}
COL1_NO_1 = {f"r{r}c1": NO[1] for r in range(3, 10)}
UR = {"r1c1": "12", "r1c4": "12"}  # the floor on row 1 of a rectangle on rows 1, 2 and columns 1, 4


def row(r: int, cols: str, v: int, without: str = "") -> str:
    """'r2c2<>3 r2c3<>3 ...': value v removed from row r's columns ``cols`` (digits)."""
    return " ".join(f"r{r}c{c}<>{v}" for c in cols if c not in without)


FINNED_SWORD = rows_without(5, {1: "x..x.....", 4: "...x..x..", 7: "x.....xxx"})
FINNED_JELLY = rows_without(6, {1: "xx.......", 4: "....x..x.", 7: ".x....xx.", 8: "x...x...x"})
SASHIMI_SWORD = rows_without(7, {1: "x..x.....", 4: "...x..x..", 7: "x......xx"})
SASHIMI_JELLY = rows_without(8, {1: "xx.......", 2: ".x..x....", 4: "....x..x.", 7: "x.....x.x"})
SIAMESE = rows_without(9, {1: "x..x.....", 4: "x..x.....", 7: "x.....xxx"})
FINS_TWO_BOXES = rows_without(5, {1: "x..x.....", 4: "...x..x..", 7: "x.x...xx."})
BOX1 = [f"r{r}c{c}" for r in (1, 2, 3) for c in (1, 2, 3)]


def box1(values: str, keep: tuple[str, ...]) -> str:
    return " ".join(f"{x}<>{v}" for x in BOX1 if x not in keep for v in values)


VARIANTS = [
    # unique rectangles
    ("unique rectangle type 1 with a missing candidate: r1c1, r1c4, r2c1 12, r2c4 134 (2 already gone)",
     "0600-2", cells({**UR, "r2c1": "12", "r2c4": "134"}), "r2c4<>1"),
    ("unique rectangle type 3, naked pair: roof r2c1 123, r2c4 124 as one cell {3,4}, with r2c7 34", "0602",
     cells({**UR, "r2c1": "123", "r2c4": "124", "r2c7": "34"}),
     " ".join(row(2, "235689", v) for v in (3, 4))),
    ("unique rectangle type 3, naked triple: the roof {3,4} with r2c7 35, r2c8 45", "0602",
     cells({**UR, "r2c1": "123", "r2c4": "124", "r2c7": "35", "r2c8": "45"}),
     " ".join(row(2, "23569", v) for v in (3, 4, 5))),
    ("unique rectangle type 3, naked quad: the roof {3,4} with r2c7 35, r2c8 56, r2c9 46", "0602",
     cells({**UR, "r2c1": "123", "r2c4": "124", "r2c7": "35", "r2c8": "56", "r2c9": "46"}),
     " ".join(row(2, "2356", v) for v in (3, 4, 5, 6))),
    ("unique rectangle type 3 in a line and a box: roof r1c1 123, r1c2 124, r1c3 34 (row 1 and box 1)", "0602",
     cells({"r4c1": "12", "r4c2": "12", "r1c1": "123", "r1c2": "124", "r1c3": "34"}),
     " ".join(row(1, "456789", v) for v in (3, 4)) + " " + box1("34", ("r1c1", "r1c2", "r1c3"))),
    ("no unique rectangle type 3: r2c7 345 completes no set", "0602-x",
     cells({**UR, "r2c1": "123", "r2c4": "124", "r2c7": "345"}), ""),
    ("unique rectangle type 4: in row 2, 1 only in the roof r2c1 1256, r2c4 1278", "0603",
     cells({**UR, "r2c1": "1256", "r2c4": "1278", **ROW2_NO_1}), "r2c1<>2 r2c4<>2"),
    ("unique rectangle type 4 with a missing candidate: r2c1 156 (2 gone), r2c4 1278", "0603-2",
     cells({**UR, "r2c1": "156", "r2c4": "1278", **ROW2_NO_1}), "r2c4<>2"),
    ("no unique rectangle type 4: row 2 keeps a 1 in r2c9", "0603-x",
     cells({**UR, "r2c1": "1256", "r2c4": "1278", **ROW2_NO_1, "r2c9": FULL}), ""),
    ("no unique rectangle type 4: 1 is already placed in row 2 (r2c9), so the roof r2c1 256, r2c4 278 "
     "holds no 1 and none of it must be 1", "0603-x",
     cells({**UR, "r2c1": "256", "r2c4": "278", **{f"r2c{c}": NO[1] for c in (2, 3, 5, 6, 7, 8)},
            "r2c9": "1"}), ""),
    # hidden rectangles, every orientation
    ("hidden rectangle: floor r1c1 12; in row 2 and column 4, 1 only on the rectangle: r2c4 is not 2",
     "0606", cells({**UR, "r1c4": "123", "r2c1": "124", "r2c4": "1256", **ROW2_NO_1, **COL4_NO_1}), "r2c4<>2"),
    ("hidden rectangle, floor r2c4 12 (bottom right); in row 1 and column 1, 1 only on the rectangle: r1c1 "
     "is not 2", "0606",
     cells({"r2c4": "12", "r1c4": "123", "r2c1": "124", "r1c1": "1256", **ROW1_NO_1, **COL1_NO_1}), "r1c1<>2"),
    ("hidden rectangle with two diagonal floor corners r1c1, r2c4 12: r2c4 is not 2", "0606",
     cells({"r1c1": "12", "r2c4": "12", "r1c4": "123", "r2c1": "124", **ROW2_NO_1, **COL4_NO_1}), "r2c4<>2"),
    ("hidden rectangle with a missing candidate: r1c4 13 (2 gone)", "0606-2",
     cells({**UR, "r1c4": "13", "r2c1": "124", "r2c4": "1256", **ROW2_NO_1, **COL4_NO_1}), "r2c4<>2"),
    ("no hidden rectangle: column 4 keeps a 1 in r9c4", "0606-x",
     cells({**UR, "r1c4": "123", "r2c1": "124", "r2c4": "1256", **ROW2_NO_1, **COL4_NO_1, "r9c4": FULL}), ""),
    # finned and sashimi fish with fins in several cells
    ("finned swordfish on 5: rows 1, 4, 7, columns 1, 4, 7, two fins r7c8, r7c9", "0311",
     picture(5, FINNED_SWORD), "r8c7<>5 r9c7<>5"),
    ("finned jellyfish on 6: rows 1, 4, 7, 8, columns 1, 2, 5, 8, fins r7c7 and r8c9 in two base rows", "0312",
     picture(6, FINNED_JELLY), "r9c8<>6"),
    ("sashimi swordfish on 7: row 7 keeps one body candidate (r7c1), fins r7c8, r7c9", "0321",
     picture(7, SASHIMI_SWORD), "r8c7<>7 r9c7<>7"),
    ("sashimi jellyfish on 8: row 7 keeps one body candidate (r7c1), fins r7c7, r7c9", "0322",
     picture(8, SASHIMI_JELLY), "r8c8<>8 r9c8<>8"),
    ("siamese finned swordfish on 9: rows 1, 4, 7 over columns 1, 4, 7 (fins r7c8, r7c9) and over columns 1, "
     "4, 8 (fins r7c7, r7c9); this engine finds both at once: columns 1 and 4 hold rows 1 and 4, so row 7's "
     "9 is in r7c1 or box 9, which loses it outside row 7", "03111", picture(9, SIAMESE),
     "r8c7<>9 r9c7<>9 r8c8<>9 r9c8<>9"),
    ("no finned swordfish: row 7's extra 5s lie in two boxes (r7c3, r7c8)", "0311-x",
     picture(5, FINS_TWO_BOXES), ""),
    # Sue de Coq with more cells
    ("Sue de Coq: r1c1 123, r1c2 124; r1c5 12 in row 1, r2c2 34 in box 1", "1101",
     cells({"r1c1": "123", "r1c2": "124", "r1c5": "12", "r2c2": "34"}),
     " ".join(row(1, "346789", v) for v in (1, 2)) + " " + box1("34", ("r1c1", "r1c2", "r2c2"))),
    ("Sue de Coq with a value outside the intersection: r1c5 15, r1c6 25 (5 needs the second cell)", "1101",
     cells({"r1c1": "123", "r1c2": "124", "r1c5": "15", "r1c6": "25", "r2c2": "34"}),
     " ".join(row(1, "34789", v) for v in (1, 2, 5)) + " " + box1("34", ("r1c1", "r1c2", "r2c2"))),
    ("Sue de Coq on two of the intersection's cells, the third (r1c3 12) on the line's side", "1101",
     cells({"r1c1": "123", "r1c2": "124", "r1c3": "12", "r2c2": "34"}),
     " ".join(row(1, "456789", v) for v in (1, 2)) + " " + box1("34", ("r1c1", "r1c2", "r1c3", "r2c2"))),
    ("no Sue de Coq: r2c2 345 holds a fifth value", "1101-x",
     cells({"r1c1": "123", "r1c2": "124", "r1c5": "12", "r2c2": "345"}), ""),
]

# bug+1 from real puzzles: the first position of the engine's explanation of these top1465 lines
# that is a bug+1 by the definition, and the one before it (not yet a BUG: must not fire)
TOP1465 = HERE.parents[2] / "shared" / "data" / "top1465.txt"
REAL_BUG = [1398, 1461]


def bug_plus_one(state) -> tuple[int, int] | None:
    """(cell, value) of a bug+1 by the definition: one cell of three candidates, every other empty
    cell two, every value twice in every house except the cell's value, three times in its houses."""
    geo = state.geo
    three = [c for c in range(geo.ncells) if state.cand[c].bit_count() == 3]
    if len(three) != 1 or any(state.cand[c].bit_count() not in (0, 2) for c in range(geo.ncells) if c != three[0]):
        return None
    cell = three[0]
    odd = {v for h, mask in enumerate(geo.house_mask) for v in range(1, 10)
           if (state.pos[v - 1] & mask).bit_count() not in (0, 2)}
    if len(odd) != 1:
        return None
    v = odd.pop()
    return (cell, v) if state.has(cell, v) else None


def real_positions() -> list[str]:
    from explainer import Puzzle
    from explainer.app.allsteps import Position, library_line

    out = []
    lines = TOP1465.read_text().split()
    for k in REAL_BUG:
        p = Puzzle(lines[k - 1])
        i, (cell, v) = next((j, b) for j in range(len(p.steps)) if (b := bug_plus_one(p.state_before(j))))
        state = p.state_before(i)
        r, c = divmod(cell, 9)
        others = [(r, c, w) for w in range(1, 10) if w != v and state.has(cell, w)]
        out.append(f"# bug+1 (top1465 line {k}): r{r + 1}c{c + 1} is {v}, written as HoDoKu does: its other "
                   "candidates eliminated")
        out.append(format_library(state, givens=p.grid.values, code="0610", digits=" ", eliminations=others)
                   .replace(": :", "::", 1))
        out.append(f"# the same bug+1 written as a placement (r{r + 1}c{c + 1}={v})")
        out.append(format_library(state, givens=p.grid.values, code="0610", digits=" ", placements=[(r, c, v)])
                   .replace(": :", "::", 1))
        earlier = next(j for j in range(i - 1, -1, -1) if bug_plus_one(p.state_before(j)) is None)
        out.append(f"# no bug+1 yet {i - earlier} step(s) before (not every cell is down to two candidates)")
        out.append(library_line(Position(p.state_before(earlier), ()), givens=p.grid.values,
                                must_not_fire="0610"))
    return out


def main() -> None:
    out = ["# Hand-made positions in HoDoKu's library format (tests/data/make_textbook_positions.py):",
           "# each pattern drawn and its eliminations worked out by hand; <code>-x: must not fire."]
    for comment, code, marks, elims in POSITIONS + VARIANTS:
        state = parse_pencilmarks(marks)
        out.append(f"# {comment}")
        out.append(format_library(state, code=code, eliminations=rcv(elims)))
    out += real_positions()
    (HERE / "hodoku_textbook.txt").write_text("\n".join(out) + "\n")


if __name__ == "__main__":
    main()
