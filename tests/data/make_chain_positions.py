"""Write tests/data/hodoku_chains.txt: hand-made chain, ALS, forcing and template positions.

One position per variant of the chain, nice loop, ALS and forcing families
and templates (several per family), and near misses (``<code>-x``) where the
family must find nothing. Each pattern is drawn here by hand in an otherwise
empty grid (every other cell keeps every candidate), and its expected change is
worked out by hand from the technique's definition, not by the engine; the
comment above each line says why. ``tests/test_chain_positions.py`` runs
``explain-sudoku steps --check`` on the file.

Run: PYTHONPATH=. python tests/data/make_chain_positions.py
"""
from __future__ import annotations

from pathlib import Path

from explainer.app.hints.pencilmarks import parse_pencilmarks
from explainer.app.hodoku import format_library

HERE = Path(__file__).resolve().parent
FULL = "123456789"


def cell(name: str) -> tuple[int, int]:
    """'r4c5' -> (3, 4)."""
    r, c = name[1:].split("c")
    return int(r) - 1, int(c) - 1


def house(name: str) -> list[tuple[int, int]]:
    """'r3' / 'c5' / 'b7' -> its cells (0-based)."""
    k = int(name[1:]) - 1
    if name[0] == "r":
        return [(k, c) for c in range(9)]
    if name[0] == "c":
        return [(r, k) for r in range(9)]
    return [(3 * (k // 3) + i, 3 * (k % 3) + j) for i in range(3) for j in range(3)]


def marks(cells: dict[str, str] | None = None, only: tuple[tuple[int, str, str], ...] = ()) -> str:
    """Pencil marks: ``cells`` hold the given candidates, every other cell all nine; each
    (v, house, cells) of ``only`` leaves v in that house only in those cells."""
    grid = [[set(FULL) for _ in range(9)] for _ in range(9)]
    for name, values in (cells or {}).items():
        r, c = cell(name)
        grid[r][c] = set(values)
    for v, h, keep in only:
        kept = {cell(x) for x in keep.split()}
        for r, c in house(h):
            if (r, c) not in kept:
                grid[r][c].discard(str(v))
    return "\n".join(" ".join("".join(sorted(x)) for x in row) for row in grid)


def changes(text: str) -> tuple[list[tuple[int, int, int]], list[tuple[int, int, int]]]:
    """'r4c5<>3 r7c3=9' -> (eliminations, placements), 0-based (row, col, value)."""
    elims, places = [], []
    for token in text.split():
        if "<>" in token:
            name, v = token.split("<>")
            elims.append((*cell(name), int(v)))
        else:
            name, v = token.split("=")
            places.append((*cell(name), int(v)))
    return elims, places


def each(cells_: str, values: str) -> str:
    """'r1c9 r5c1', '12' -> 'r1c9<>1 r1c9<>2 r5c1<>1 r5c1<>2'."""
    return " ".join(f"{c}<>{v}" for c in cells_.split() for v in values)


def others(h: str, but: str) -> str:
    """The cells of house h except those in ``but``, as names."""
    skip = {cell(x) for x in but.split()}
    return " ".join(f"r{r + 1}c{c + 1}" for r, c in house(h) if (r, c) not in skip)


NINE_TEMPLATES = {  # 9's places: every band has two ways, so 8 templates and no cell in all of them
    1: "x..x.....", 2: "...x..x..", 3: "x.....x..", 4: ".x..x....", 5: "....x..x.", 6: ".x.....x.",
    7: "..x..x...", 8: ".....x..x", 9: "..x.....x",
}


def picture(v: int, rows: dict[int, str]) -> dict[str, str]:
    """Cells losing value v where a row's picture has '.'."""
    out = {}
    for r, line in rows.items():
        for c, ch in enumerate(line):
            if ch == ".":
                out[f"r{r}c{c + 1}"] = FULL.replace(str(v), "")
    return out


# C = r5c5 (12) or a stem, A = r5c1 + r6c1 (134), B = r6c1 + r6c5 (234): 3 leaves the cells seeing all 3s
# of A and B; r6c1 is 4 either way (A or B locked, 4 only there), so its peers lose 4
SHARED_R6C1 = " ".join([each("r6c2 r6c3", "3"),
                        each("r6c2 r6c3 r6c4 r6c6 r6c7 r6c8 r6c9 r1c1 r2c1 r3c1 r4c1 r7c1 r8c1 r9c1 r4c2 r4c3 "
                             "r5c2 r5c3", "4")])

# (comment, code, pencil marks, expected change)
POSITIONS = [
    # ---- remote pairs ---------------------------------------------------------------------
    ("remote pair 12 of four cells: r1c1-r1c5-r5c5-r5c9; r1c1 and r5c9 (three links apart) hold 1 and 2, "
     "so the cells seeing both lose both", "0703",
     marks({"r1c1": "12", "r1c5": "12", "r5c5": "12", "r5c9": "12"}), each("r1c9 r5c1", "12")),
    ("remote pair 34 of six cells: r1c1-r1c4-r4c4-r4c7-r7c7-r7c9; the pairs 3 and 5 links apart "
     "(r1c1/r4c7, r1c4/r7c7, r4c4/r7c9, r1c1/r7c9) each clear the cells seeing both", "0703",
     marks({x: "34" for x in "r1c1 r1c4 r4c4 r4c7 r7c7 r7c9".split()}),
     each("r1c7 r4c1 r1c9 r7c1 r4c9 r7c4", "34")),
    ("no remote pair: r5c5 is 13, so only r1c1-r1c5 (and r5c9 alone) hold 12", "0703-x",
     marks({"r1c1": "12", "r1c5": "12", "r5c5": "13", "r5c9": "12"}), ""),
    # ---- xy chains --------------------------------------------------------------------------
    ("xy chain (1=2)r1c1-(2=3)r1c5-(3=4)r5c5-(4=1)r5c9: one end is 1", "0702",
     marks({"r1c1": "12", "r1c5": "23", "r5c5": "34", "r5c9": "14"}), each("r1c9 r5c1", "1")),
    ("xy chain of six cells r1c1 12, r1c4 23, r4c4 34, r4c7 45, r7c7 56, r7c2 16: 1 in r1c1 or r7c2", "0702",
     marks({"r1c1": "12", "r1c4": "23", "r4c4": "34", "r4c7": "45", "r7c7": "56", "r7c2": "16"}),
     each("r1c2 r2c2 r3c2 r7c1 r8c1 r9c1", "1")),
    ("no xy chain: r5c9 is 45, the ends are 1 and 5 and do not see each other", "0702-x",
     marks({"r1c1": "12", "r1c5": "23", "r5c5": "34", "r5c9": "45"}), ""),
    # ---- AIC ---------------------------------------------------------------------------------
    ("AIC type 1: (4)r1c1=(4)r1c5-(4=8)r6c5-(8)r6c8=(8)r9c8-(8=4)r9c9 (4 only twice in row 1, "
     "8 only twice in column 8): 4 in r1c1 or r9c9", "0708",
     marks({"r6c5": "48", "r9c9": "48"}, ((4, "r1", "r1c1 r1c5"), (8, "c8", "r6c8 r9c8"))), "r9c1<>4"),
    ("AIC type 2: (4)r1c1=(4)r1c5-(4=7)r4c5-(7)r4c2=(7)r2c2: r1c1 is 4 or r2c2 is 7, and they see "
     "each other", "0708",
     marks({"r4c5": "47"}, ((4, "r1", "r1c1 r1c5"), (7, "c2", "r2c2 r4c2"))), "r1c1<>7 r2c2<>4"),
    # ---- continuous nice loops ----------------------------------------------------------------
    ("continuous loop (1=2)r1c1-(2=3)r1c5-(3=4)r5c5-(4=1)r5c1-: each weak link clears its house", "0706",
     marks({"r1c1": "12", "r1c5": "23", "r5c5": "34", "r5c1": "14"}),
     " ".join([each(others("r1", "r1c1 r1c5"), "2"), each(others("c5", "r1c5 r5c5"), "3"),
               each(others("r5", "r5c5 r5c1"), "4"), each(others("c1", "r5c1 r1c1"), "1")])),
    ("continuous loop (1)r5c5=(1)r5c9-(1=2)r9c9-(2)r9c5=(2)r5c5-: r5c5 is entered and left by strong "
     "links, so it is 1 or 2; the weak links clear column 9 of 1 and row 9 of 2", "0706",
     marks({"r9c9": "12"}, ((1, "r5", "r5c5 r5c9"), (2, "c5", "r5c5 r9c5"))),
     " ".join([each(others("c9", "r5c9 r9c9"), "1"), each(others("r9", "r9c9 r9c5"), "2"),
               each("r5c5", "3456789")])),
    # ---- discontinuous nice loops ---------------------------------------------------------------
    ("discontinuous loop, two strong links at (1)r1c1: (1)r1c1=(2)r1c1-(2=3)r1c5-(3=1)r5c5-(1)r5c1="
     "(1)r1c1 (1 twice in column 1): r1c1 is 1", "0707",
     marks({"r1c1": "12", "r1c5": "23", "r5c5": "13"}, ((1, "c1", "r1c1 r5c1"),)), "r1c1<>2"),
    ("discontinuous loop, two strong links at (5)r4c4: (5=8)r4c4-(8=9)r4c9-(9=5)r9c9-(5)r9c4=(5)r4c4: "
     "r4c4 is 5", "0707",
     marks({"r4c4": "58", "r4c9": "89", "r9c9": "59"}, ((5, "c4", "r4c4 r9c4"),)), "r4c4<>8"),
    ("discontinuous loop, two weak links at (1)r1c9: (1)r1c9-(1=2)r1c1-(2=3)r1c5-(3=4)r5c5-(4=1)r5c9-"
     "(1)r1c9: r1c9 is not 1", "0707",
     marks({"r1c1": "12", "r1c5": "23", "r5c5": "34", "r5c9": "14"}), "r1c9<>1"),
    ("no nice loop or chain: r9c9 is 69, so the 5 of column 4 closes nothing", "0707-x",
     marks({"r4c4": "58", "r4c9": "89", "r9c9": "69"}, ((5, "c4", "r4c4 r9c4"),)), ""),
    # ---- grouped chains and loops -----------------------------------------------------------------
    ("grouped AIC on 7: (7)r1c12=(7)r3c3-(7)r8c3=(7)r8c7 (7 in box 1 only in r1c1, r1c2, r3c3; only "
     "twice in row 8): 7 in r1c12 or r8c7", "0711",
     marks(only=((7, "b1", "r1c1 r1c2 r3c3"), (7, "r8", "r8c3 r8c7"))), "r1c7<>7"),
    ("no grouped chain: 7 is also in r2c2, so box 1 gives no strong link", "0711-x",
     marks(only=((7, "b1", "r1c1 r1c2 r2c2 r3c3"), (7, "r8", "r8c3 r8c7"))), ""),
    ("grouped continuous loop on 6: (6)r23c2=(6)r8c2-(6)r8c3=(6)r1c3-(6)r23c2 (6 in column 2 only in "
     "r2, r3, r8; in column 3 only in r1, r8): the weak links clear box 7 with row 8, and box 1", "0709",
     marks(only=((6, "c2", "r2c2 r3c2 r8c2"), (6, "c3", "r1c3 r8c3"))),
     each("r1c1 r2c1 r3c1 r7c1 r8c1 r9c1 r8c4 r8c5 r8c6 r8c7 r8c8 r8c9", "6")),
    ("grouped discontinuous loop at (6)r1c3: (6)r1c3=(6)r2c12-(6)r2c7=(6)r8c7-(6)r8c3=(6)r1c3 (box 1's "
     "6s in r1c3, r2c1, r2c2; column 7's in r2, r8; column 3's in r1, r8): r1c3 is 6", "0710",
     marks(only=((6, "b1", "r1c3 r2c1 r2c2"), (6, "c7", "r2c7 r8c7"), (6, "c3", "r1c3 r8c3"))),
     each("r1c3", "12345789")),
    ("grouped AIC through an ALS: (1)r4c1=(1)r4c5-(1)r5c45=ALS r5c456 (1234)=(4)r5c6-(4)r9c6=(4)r9c1: "
     "r4c1 is 1 or r9c1 is 4", "0711",
     marks({"r5c4": "12", "r5c5": "13", "r5c6": "234"}, ((1, "r4", "r4c1 r4c5"), (4, "r9", "r9c1 r9c6"))),
     "r4c1<>4 r9c1<>1"),
    # ---- ALS family ----------------------------------------------------------------------------
    ("ALS-XZ, singly linked: A = r1c12 (123), B = r4c1 + r5c3 (134), restricted common 1 (column 1); "
     "3 is in A or B", "0901",
     marks({"r1c1": "12", "r1c2": "23", "r4c1": "14", "r5c3": "34"}),
     each("r1c3 r2c3 r3c3 r4c2 r5c2 r6c2", "3")),
    ("ALS-XZ, doubly linked: A = r1c12 (123), B = r4c12 (134), restricted commons 1 and 3: 1 and 3 "
     "leave columns 1 and 2, 2 leaves row 1 and box 1, 4 leaves row 4 and box 4", "0901",
     marks({"r1c1": "12", "r1c2": "23", "r4c1": "14", "r4c2": "34"}),
     " ".join([each("r2c1 r3c1 r5c1 r6c1 r7c1 r8c1 r9c1", "1"), each("r2c2 r3c2 r5c2 r6c2 r7c2 r8c2 r9c2", "3"),
               each("r1c3 r1c4 r1c5 r1c6 r1c7 r1c8 r1c9 r2c1 r2c2 r2c3 r3c1 r3c2 r3c3", "2"),
               each("r4c3 r4c4 r4c5 r4c6 r4c7 r4c8 r4c9 r5c1 r5c2 r5c3 r6c1 r6c2 r6c3", "4")])),
    ("no ALS-XZ: A = r1c12 (123), B = r4c2 + r5c3 (134) share no restricted common", "0901-x",
     marks({"r1c1": "12", "r1c2": "23", "r4c2": "14", "r5c3": "34"}), ""),
    ("ALS XY wing: C = r5c5 (12), A = r5c1 + r6c2 (134) by 1, B = r1c5 + r2c6 (235) by 2: 3 is in A or B",
     "0902", marks({"r5c5": "12", "r5c1": "14", "r6c2": "34", "r1c5": "25", "r2c6": "35"}),
     each("r2c2 r6c6", "3")),
    ("ALS XY wing, overlapping sets: C = r5c5 (12), A = r5c1 + r6c1 (134) by 1, B = r6c1 + r6c5 (234) "
     "by 2, sharing r6c1: 3 is in A or B, and so is 4 (only r6c1 holds it)", "0902",
     marks({"r5c5": "12", "r5c1": "13", "r6c1": "34", "r6c5": "23"}),
     SHARED_R6C1),
    ("ALS chain: r1c1 (13) -3- r1c5 (35) -5- r5c56 (578) -8- r9c6 (18): 1 in r1c1 or r9c6", "0903",
     marks({"r1c1": "13", "r1c5": "35", "r5c5": "57", "r5c6": "78", "r9c6": "18"}), "r1c6<>1 r9c1<>1"),
    ("ALS chain of four sets: r1c1 (12) -2- r1c4 + r2c5 (234) -4- r6c5 (45) -5- r6c89 (156): 1 in r1c1 "
     "or r6c89", "0903",
     marks({"r1c1": "12", "r1c4": "23", "r2c5": "34", "r6c5": "45", "r6c8": "56", "r6c9": "16"}),
     "r1c9<>1 r6c1<>1"),
    ("no ALS chain: r6c5 is 46 and r6c89 hold 157, so the chain stops at r6c5", "0903-x",
     marks({"r1c1": "12", "r1c4": "23", "r2c5": "34", "r6c5": "46", "r6c8": "57", "r6c9": "17"}), ""),
    ("death blossom: stem r5c5 (123), petals r5c1 (14) for 1, r5c8 (24) for 2, r6c4 (34) for 3: "
     "4 is in a petal", "0904",
     marks({"r5c5": "123", "r5c1": "14", "r5c8": "24", "r6c4": "34"}), "r5c4<>4 r5c6<>4"),
    ("death blossom, overlapping petals: stem r5c5 (12), petals r5c1 + r6c1 (134) for 1, r6c1 + r6c5 (234) "
     "for 2, sharing r6c1: 3 and 4 are in a petal", "0904",
     marks({"r5c5": "12", "r5c1": "13", "r6c1": "34", "r6c5": "23"}),
     SHARED_R6C1),
    ("no death blossom: r6c4 is 35, so the petal for 3 lacks 4", "0904-x",
     marks({"r5c5": "123", "r5c1": "14", "r5c8": "24", "r6c4": "35"}), ""),
    # ---- forcing chains --------------------------------------------------------------------------
    ("forcing chain contradiction: r1c1 = 1 leaves r1c2 and r1c3 both 3", "1301",
     marks({"r1c1": "12", "r1c2": "13", "r1c3": "13"}), "r1c1<>1"),
    ("forcing chain verity (cell r5c5): 1 makes r5c1 3, 2 makes r1c5 3; either way r1c1 is not 3", "1302",
     marks({"r5c5": "12", "r5c1": "13", "r1c5": "23"}), "r1c1<>3"),
    ("forcing chain verity (house: 7 in row 3 only in r3c1, r3c5): r7c1 or r7c5 is then 8, so r7c9 "
     "is not 8", "1302",
     marks({"r7c1": "78", "r7c5": "78"}, ((7, "r3", "r3c1 r3c5"),)), "r7c9<>8"),
    ("no forcing chain: one bivalue cell in an empty grid implies nothing", "1301-x",
     marks({"r1c1": "12"}), ""),
    # ---- templates ---------------------------------------------------------------------------------
    ("template delete: 9's places allow 8 templates, none through r7c8 (band 2 always takes column 8)",
     "1202", marks(picture(9, {**NINE_TEMPLATES, 7: "..x..x.x."})), "r7c8<>9"),
    ("template set: band 3 has one way left (r7c3, r8c6, r9c9), used by every template", "1201",
     marks(picture(9, {**NINE_TEMPLATES, 7: "..x......"})), "r7c3=9 r8c6=9 r9c9=9"),
    ("no template step: 8 templates, every candidate in one, no cell in all", "1202-x",
     marks(picture(9, NINE_TEMPLATES)), ""),
    ("no template set either", "1201-x", marks(picture(9, NINE_TEMPLATES)), ""),
]


def main() -> None:
    out = ["# Hand-made positions in HoDoKu's library format (tests/data/make_chain_positions.py): chains,",
           "# nice loops, ALS, forcing chains and templates; every pattern drawn in an otherwise empty grid",
           "# and its change worked out by hand; <code>-x: the family must find nothing."]
    for comment, code, pm, expected in POSITIONS:
        state = parse_pencilmarks(pm)
        elims, places = changes(expected)
        out.append(f"# {comment}")
        out.append(format_library(state, code=code, eliminations=elims, placements=places))
    (HERE / "hodoku_chains.txt").write_text("\n".join(out) + "\n")


if __name__ == "__main__":
    main()
