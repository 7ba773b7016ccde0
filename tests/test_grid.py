import numpy as np
import pytest

from explainer.model.grid import Grid, PuzzleError, geometry, parse_grid, read_sources, split_sources
from tests.conftest import ROOT, SEED

# the seed in Simple Sudoku's .ss layout, as the example file holds it (its comment line dropped)
SS = "\n".join(line for line in (ROOT / "examples" / "seed-grid.ss").read_text().splitlines()
               if not line.startswith("#"))


def test_one_line_and_text_round_trip():
    g = parse_grid(SEED)
    assert g.n == 9 and g.values[0] == 9 and g.values[1] == 0
    assert g.to_line() == SEED
    assert parse_grid(g.to_text()).to_line() == SEED


def test_empty_chars_and_decorated_grid():
    assert parse_grid(SEED.replace(".", "0")).to_line() == SEED
    assert parse_grid(SEED.replace(".", "_")).to_line() == SEED
    assert parse_grid(SS).to_line() == SEED
    starred = SS.replace("|", " * ").replace("-", "+")
    assert parse_grid(starred).to_line() == SEED


def test_rows_and_numpy():
    rows = [[int(ch) if ch != "." else 0 for ch in SEED[r * 9:(r + 1) * 9]] for r in range(9)]
    assert parse_grid(rows).to_line() == SEED
    assert parse_grid(np.array(rows)).to_line() == SEED


def test_letters_for_large_grids():
    g = parse_grid("G" + "." * 255)
    assert g.n == 16 and g.values[0] == 16
    g25 = parse_grid("p" + "." * 624)
    assert g25.n == 25 and g25.values[0] == 25


@pytest.mark.parametrize("text, message", [
    (SEED[:-1], "80 cells is not a sudoku size"),
    ("." * 36, "36 cells is not a sudoku size"),
    (SEED[:-1] + "x", "unknown character 'x' at cell r9c9"),
    (SEED[:-1] + "A", "value 'A' (10) is too large for a 9×9 grid at r9c9"),
    ("99" + SEED[2:], "two 9s in row 1 (r1c1 and r1c2)"),
    ("", "empty puzzle"),
])
def test_errors_say_what_and_where(text, message):
    with pytest.raises(PuzzleError) as e:
        parse_grid(text, "f.txt:7")
    assert message in str(e.value)
    assert str(e.value).startswith("f.txt:7: ")


def test_clash_in_column_and_box():
    col = "1" + "." * 8 + "1" + "." * 71
    with pytest.raises(PuzzleError, match="two 1s in column 1 .r1c1 and r2c1."):
        parse_grid(col)
    box = "1" + "." * 9 + "1" + "." * 70
    with pytest.raises(PuzzleError, match="two 1s in box 1 .r1c1 and r2c2."):
        parse_grid(box)


def test_rows_errors():
    with pytest.raises(PuzzleError, match="row 2 has 3 cells"):
        parse_grid([[0] * 4, [0] * 3, [0] * 4, [0] * 4])
    with pytest.raises(PuzzleError, match="out of range"):
        parse_grid([[5, 0, 0, 0]] + [[0] * 4] * 3)


def test_file_of_many_puzzles_with_comments(tmp_path):
    f = tmp_path / "p.txt"
    f.write_text("# comment\n" + SEED + "\n\n" + SEED.replace("9", ".", 1) + "\n")
    sources = read_sources(f)
    assert [s.line for s in sources] == [2, 4]
    assert sources[0].where == f"{f}:2"


def test_file_with_multiline_grid(tmp_path):
    f = tmp_path / "p.ss"
    f.write_text("# the seed\n" + SS + "\n")
    (src,) = read_sources(f)
    assert parse_grid(src.text, src.where).to_line() == SEED
    assert src.line == 2


def test_16x16_multiline_is_one_grid():
    line = open_sample(16)
    rows = "\n".join(line[r * 16:(r + 1) * 16] for r in range(16))
    (src,) = split_sources(rows)
    assert parse_grid(src.text).to_line() == line


def open_sample(n):
    from tests.conftest import SHARED

    return (SHARED / "data" / f"sample{n}.txt").read_text().split()[0]


@pytest.mark.parametrize("content, message", [
    (None, "no such file"),
    ("", "no puzzle in file"),
    ("# only a comment\n", "no puzzle in file"),
])
def test_file_errors(tmp_path, content, message):
    f = tmp_path / "p.txt"
    if content is not None:
        f.write_text(content)
    with pytest.raises(PuzzleError, match=message):
        read_sources(f)


def test_binary_file(tmp_path):
    f = tmp_path / "p.bin"
    f.write_bytes(b"\xff\xfe\x00\x81" * 10)
    with pytest.raises(PuzzleError, match="a binary file, not a puzzle file"):
        read_sources(f)


def test_geometry_tables():
    for n in (4, 9, 16, 25):
        geo = geometry(n)
        assert len(geo.houses) == 3 * n
        assert all(len(h) == n for h in geo.houses)
        assert all(len(p) == 3 * n - 2 * geo.m - 1 for p in geo.peers)
        assert len(geo.intersections) == 2 * n * geo.m
    geo = geometry(9)
    assert geo.cell_name(80) == "r9c9" and geo.house_name(20) == "box 3" and geo.house_name(9) == "column 1"
    with pytest.raises(PuzzleError):
        geometry(10)


def test_grid_repr_round_trips():
    g = parse_grid(SEED)
    assert eval(repr(g), {"Grid": Grid}) == g
