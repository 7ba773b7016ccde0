"""The optional back-ends (OR-tools CP-SAT, Z3; extra [solvers]) against the project's solver.

The back-end tests are skipped where the extra is not installed (.ci/run
installs it); the missing-extra error path is simulated and always runs.
"""
from __future__ import annotations

import re
import sys
from pathlib import Path

import pytest

from explainer.app import backends
from explainer.app.cli import solve as cli_solve
from explainer.app.solvers import ALL_METHODS, OPTIONAL_METHODS, MissingExtra, solve
from explainer.core.solver import solve_values
from explainer.model.grid import Grid, PuzzleError, parse_grid
from tests.test_solver import EASY, assert_valid_solution, lines, no_solution_puzzles, two_solution_puzzle

MESSAGE = "explain-sudoku: error: --method {} needs the optional extra: pip install 'sudoku-explainer[solvers]'"


def backend(method: str) -> str:
    pytest.importorskip(backends._MODULES[method], reason=f"extra [solvers] not installed ({method})")
    return method


@pytest.fixture(params=OPTIONAL_METHODS)
def method(request) -> str:
    return backend(request.param)


def reference(text: str) -> tuple[int, ...]:
    grid = parse_grid(text)
    return tuple(solve_values(grid.n, grid.values, 1)[0])


def test_methods_listed() -> None:
    assert set(OPTIONAL_METHODS) == {"ortools", "z3"} and set(OPTIONAL_METHODS) <= set(ALL_METHODS)


@pytest.mark.parametrize("name,count", [("sample4.txt", 5), ("top1465.txt", 12), ("sample16.txt", 2),
                                        ("sample25.txt", 1)])
def test_agrees_with_the_project_solver(method: str, name: str, count: int) -> None:
    for text in lines(name, count):
        solution = solve(text, method=method)
        assert solution.values == reference(text)
        assert_valid_solution(parse_grid(text), solution.values)


def test_easy_puzzle(method: str) -> None:
    assert solve(EASY, method=method) == solve(EASY, method="dlx")


def rectangle_puzzle(n: int) -> Grid:
    """A solved grid of size n with a swappable rectangle emptied (two rows of one band, or two
    columns of one stack): exactly two solutions."""
    m = {4: 2, 9: 3, 16: 4}[n]
    for text in lines({4: "sample4.txt", 9: "top1465.txt", 16: "sample16.txt"}[n]):
        sol = reference(text)
        for at in (lambda i, j: i * n + j, lambda i, j: j * n + i):  # rows, then columns
            for i1 in range(n):
                for i2 in range(i1 + 1, (i1 // m + 1) * m):
                    for j1 in range(n):
                        for j2 in range(j1 + 1, n):
                            cells = (at(i1, j1), at(i1, j2), at(i2, j1), at(i2, j2))
                            if sol[cells[0]] == sol[cells[3]] and sol[cells[1]] == sol[cells[2]]:
                                return Grid(n, tuple(0 if c in cells else v for c, v in enumerate(sol)))
    raise AssertionError("no swappable rectangle")


@pytest.mark.parametrize("n", [4, 9, 16])
def test_many_solutions_detected(method: str, n: int) -> None:
    sparse = [Grid(n, (0,) * (n * n))] if n < 16 else []  # an empty 16×16 takes Z3 ~20 s
    for grid in sparse + [rectangle_puzzle(n)]:
        with pytest.raises(PuzzleError, match="more than one solution"):
            solve(grid, method=method)
        # Without the uniqueness proof the first solution is accepted.
        assert_valid_solution(grid, solve(grid, method=method, unique=False).values)
    rect = rectangle_puzzle(n)
    assert sorted(backends.SOLVE[method](n, rect.values, 3)) == sorted(solve_values(n, rect.values, 3))


def test_blocking_clause_gives_distinct_solutions(method: str) -> None:
    found = backends.SOLVE[method](4, [0] * 16, 5)
    assert len(found) == 5 and len({tuple(s) for s in found}) == 5
    for values in found:
        assert_valid_solution(Grid(4, (0,) * 16), values)
    # Exactly two: both found, and no third.
    two = two_solution_puzzle()
    found = backends.SOLVE[method](9, two.values, 3)
    assert len(found) == 2 and found[0] != found[1]
    assert sorted(found) == sorted(solve_values(9, two.values, 3))


def test_two_solutions_and_no_solution(method: str) -> None:
    with pytest.raises(PuzzleError, match="more than one solution"):
        solve(two_solution_puzzle(), method=method)
    for text in no_solution_puzzles():
        with pytest.raises(PuzzleError, match="no solution"):
            solve(text, method=method)


def test_full_grid_is_its_own_solution(method: str) -> None:
    full = "".join(str(v) for v in reference(EASY))
    assert "".join(str(v) for v in solve(full, method=method).values) == full


def test_cli_solve(method: str, tmp_path: Path, capsys) -> None:
    path = tmp_path / "p.txt"
    top = lines("top1465.txt", 2)
    path.write_text("\n".join(top + ["." * 81]) + "\n")
    assert cli_solve.main([str(path), "--method", method]) == 2
    out, err = capsys.readouterr()
    assert out.split() == ["".join(str(v) for v in reference(t)) for t in top]
    assert err.strip() == f"explain-sudoku: error: {path}:3: the puzzle has more than one solution"


@pytest.mark.parametrize("name", OPTIONAL_METHODS)
def test_missing_extra(name: str, monkeypatch, tmp_path: Path, capsys) -> None:
    """Simulated: the back-end's module cannot be imported."""
    module = backends._MODULES[name]
    for prefix in {module, module.split(".")[0]}:
        monkeypatch.setitem(sys.modules, prefix, None)  # None in sys.modules: import fails
    assert not backends.available(name)
    with pytest.raises(MissingExtra, match=r"pip install 'sudoku-explainer\[solvers\]'"):
        solve(EASY, method=name)
    path = tmp_path / "p.txt"
    path.write_text(EASY + "\n")
    assert cli_solve.main([str(path), "--method", name]) == 2
    out, err = capsys.readouterr()
    assert out == ""
    assert err == MESSAGE.format(name) + "\n"  # one line, no traceback


def table_puzzles() -> list[str]:
    """The puzzles of the seeds' solver table in benchmarks/RESULTS.md (the lines it lists, and the sets)."""
    results = Path(__file__).resolve().parents[1] / "benchmarks" / "RESULTS.md"
    found = re.search(r"Top1465 lines used: (.*?)\.(?: |$)", results.read_text(), re.M)
    if not found:
        return []
    top = lines("top1465.txt")
    numbers: set[int] = set()
    for ranges in re.findall(r"lines ([\d, -]+)", found.group(1)):
        for part in ranges.replace(" ", "").split(","):
            first, _, last = part.partition("-")
            numbers.update(range(int(first), int(last or first) + 1))
    examples = Path(__file__).resolve().parents[1] / "examples"
    sets = lines("sample16.txt") + lines("sample25.txt")
    for name in ("16x16-hard.txt", "25x25-hard.txt"):
        sets += [t for t in (examples / name).read_text().split("\n") if t and not t.startswith("#")]
    return [top[k - 1] for k in sorted(numbers)] + sets


def test_agrees_on_every_puzzle_of_the_table(method: str) -> None:
    puzzles = table_puzzles()
    if not puzzles:
        pytest.skip("benchmarks/RESULTS.md has no solver table yet")
    for text in puzzles:
        assert solve(text, method=method).values == reference(text), text
