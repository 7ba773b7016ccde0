"""``explain-sudoku rate``: Sudoku Explainer's ER/EP/ED, one line per puzzle, errors as every command."""
from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

from explainer.app.cli import main
from explainer.app.cli import rate as cli_rate
from explainer.app.cli.rate import puzzle_text

ROOT = Path(__file__).resolve().parents[1]
# SE (Sukaku Explainer 1.15.10) rates these 6.2/1.5/1.5 and 3.2/1.2/1.2 (se_rated lines 29 and 3)
LINE29 = "..29.1.3.7.........3526..1.......7..42..3..96..7.......7..5986.........1.5.1.82.."
LINE3 = "..3...1..2..7.....45...1..2...31.7...71...36...9.87...3..5...17.....4..9..8...2.."
TWO = "." * 81
SAMPLE16 = ROOT.parent / "shared" / "data" / "sample16.txt"


def test_one_tab_separated_line_per_puzzle_in_order(tmp_path: Path, capsys) -> None:
    path = tmp_path / "p.txt"
    path.write_text(f"# two puzzles, the second with SE's rating after it\n{LINE29}\n{LINE3} 3.2\n")
    assert cli_rate.main([str(path)]) == 0
    out, err = capsys.readouterr()
    assert out.splitlines() == [f"{LINE29}\t6.2\t1.5\t1.5", f"{LINE3}\t3.2\t1.2\t1.2"]
    assert err == ""


def test_bad_puzzles_are_one_error_line_each_and_the_rest_is_rated(tmp_path: Path, capsys) -> None:
    path = tmp_path / "p.txt"
    sixteen = SAMPLE16.read_text().split()[0]
    path.write_text(f"{TWO}\n{LINE3}\n123\n{sixteen}\n")
    assert main(["rate", str(path)]) == 2
    out, err = capsys.readouterr()
    assert out.splitlines() == [f"{LINE3}\t3.2\t1.2\t1.2"]
    assert err.splitlines() == [
        f"explain-sudoku: error: {path}:1: the puzzle has more than one solution",
        f"explain-sudoku: error: {path}:3: 3 cells is not a sudoku size (expected 16, 81, 256 or 625 cells)",
        f"explain-sudoku: error: {path}:4: Sudoku Explainer rates 9×9 grids only, not 16×16 (the se order)",
    ]


def test_json_lines_and_errors_in_them(tmp_path: Path, capsys) -> None:
    path = tmp_path / "p.txt"
    path.write_text(f"{LINE29}\n{TWO}\n")
    assert main(["rate", str(path), "--json"]) == 2
    out = [json.loads(x) for x in capsys.readouterr().out.splitlines()]
    assert out[0] == {"puzzle": LINE29, "er": 6.2, "ep": 1.5, "ed": 1.5}
    assert out[1]["er"] is None and "more than one solution" in out[1]["error"] and out[1]["puzzle"] == TWO


def test_standard_input_jobs_and_a_puzzle_argument(tmp_path: Path) -> None:
    # a whole process: standard input, two workers (the output keeps the file's order)
    text = "\n".join([LINE29, LINE3] * 3) + "\n"
    run = subprocess.run([sys.executable, "-m", "explainer.app.cli", "rate", "-", "--jobs", "2"], input=text,
                         capture_output=True, text=True, cwd=ROOT)
    assert run.returncode == 0, run.stderr
    assert run.stdout.splitlines() == [f"{LINE29}\t6.2\t1.5\t1.5", f"{LINE3}\t3.2\t1.2\t1.2"] * 3
    assert run.stderr == ""
    one = subprocess.run([sys.executable, "-m", "explainer.app.cli", "rate", LINE3, "--classic"],
                         capture_output=True, text=True, cwd=ROOT)
    assert one.returncode == 0 and one.stdout == f"{LINE3}\t3.2\t1.2\t1.2\n"


def test_usage_errors_and_help(capsys) -> None:
    assert main(["rate", "/no/such/file.txt"]) == 2
    assert capsys.readouterr().err.strip() == "explain-sudoku: error: /no/such/file.txt: no such file"
    assert main(["rate", LINE3, "--jobs", "0"]) == 2
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and "--jobs" in err
    assert main(["rate", "--help"]) == 0
    out = capsys.readouterr().out
    assert "Sukaku Explainer 1.15.10" in out and "--classic" in out and "--json" in out


def test_a_line_keeps_its_first_field_when_that_is_a_puzzle() -> None:
    assert puzzle_text(f"{LINE3}\t3.2\t1.2\t1.2") == LINE3
    assert puzzle_text(f"{LINE3} 3.2") == LINE3
    assert puzzle_text(LINE3) == LINE3
    spaced = " ".join(LINE3)  # a puzzle written with spaces between its cells is one puzzle
    assert puzzle_text(spaced) == spaced
