"""The solve and generate subcommands: output lines, error lines, exit statuses."""
from __future__ import annotations

from pathlib import Path

import pytest

from explainer.app.cli import generate as cli_generate
from explainer.app.cli import solve as cli_solve
from explainer.core.solver import count_solutions
from explainer.model.grid import parse_grid
from tests.conftest import TOP1465

HARD = TOP1465.read_text().split()[0]
SOLUTION = "468931527751624839392578461134756298289413675675289314846192753513867942927345186"


@pytest.mark.parametrize("method", ["dlx", "bitmask", "backtracking-mrv"])
def test_solve_prints_one_line_per_puzzle_and_skips_bad_ones(tmp_path: Path, capsys, method: str) -> None:
    two = "." * 81
    bad = "12345678." + "." * 8 + "9" + "." * 63
    path = tmp_path / "p.txt"
    path.write_text(f"{HARD}\n{two}\n123\n{bad}\n{HARD}\n")
    status = cli_solve.main([str(path), "--method", method])
    out, err = capsys.readouterr()
    assert status == 2
    assert out.split() == [SOLUTION, SOLUTION]
    assert err.splitlines() == [
        f"explain-sudoku: error: {path}:2: the puzzle has more than one solution",
        f"explain-sudoku: error: {path}:3: 3 cells is not a sudoku size (expected 16, 81, 256 or 625 cells)",
        f"explain-sudoku: error: {path}:4: the puzzle has no solution",
    ]


def test_solve_missing_file(capsys) -> None:
    assert cli_solve.main(["/no/such/file.txt"]) == 2
    assert capsys.readouterr().err.strip() == "explain-sudoku: error: /no/such/file.txt: no such file"


def test_solve_good_file_exit_zero(tmp_path: Path, capsys) -> None:
    path = tmp_path / "ok.txt"
    path.write_text(HARD + "\n")
    assert cli_solve.main([str(path)]) == 0
    assert capsys.readouterr().out.strip() == SOLUTION


def test_generate_is_reproducible_and_unique(capsys) -> None:
    argv = ["--size", "9", "--count", "3", "--seed", "4", "--symmetry", "mirror", "--dig", "s-wander"]
    assert cli_generate.main(argv) == 0
    first = capsys.readouterr().out.split()
    assert cli_generate.main(argv) == 0
    assert capsys.readouterr().out.split() == first
    assert len(first) == 3
    for line in first:
        assert count_solutions(parse_grid(line)) == 1


def test_generate_rejects_bad_options(capsys) -> None:
    # main(argv) returns the status (never SystemExit); the error is one line
    assert cli_generate.main(["--size", "7"]) == 2
    assert cli_generate.main(["--count", "0"]) == 2
    err = capsys.readouterr().err
    assert err.count("\n") == 2 and "Traceback" not in err
