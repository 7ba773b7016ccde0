"""The exact-cover solvers against each other and against py-sudoku."""
from __future__ import annotations

import pytest
from sudoku import Sudoku

from explainer.app.solvers import METHODS, solve
from explainer.core.solver import count_solutions, solve_values, unique_solution
from explainer.model.grid import Grid, PuzzleError, geometry, parse_grid
from tests.conftest import SHARED

DATA = SHARED / "data"
# A classic easy puzzle (unique solution): quick for py-sudoku and plain backtracking.
EASY = "53..7....6..195....98....6.8...6...34..8.3..17...2...6.6....28....419..5....8..79"
EXACT_METHODS = ("bitmask", "dlx")


def lines(name: str, count: int | None = None) -> list[str]:
    rows = [line.strip() for line in (DATA / name).read_text().splitlines() if line.strip()]
    return rows[:count] if count else rows


def assert_valid_solution(puzzle: Grid, values: list[int] | tuple[int, ...]) -> None:
    """Every house holds every value once, and every given is kept."""
    geo = geometry(puzzle.n)
    assert len(values) == geo.ncells
    for h, cells in enumerate(geo.houses):
        assert sorted(values[c] for c in cells) == list(range(1, puzzle.n + 1)), geo.house_name(h)
    for c, v in enumerate(puzzle.values):
        if v:
            assert values[c] == v, geo.cell_name(c)


def oracle(puzzle: Grid) -> list[int]:
    """py-sudoku's solution (independent code)."""
    m = geometry(puzzle.n).m
    board = [[puzzle.values[r * puzzle.n + c] or None for c in range(puzzle.n)] for r in range(puzzle.n)]
    solved = Sudoku(m, m, board=board).solve()
    return [v for row in solved.board for v in row]


def two_solution_puzzle() -> Grid:
    """The easy puzzle's solution with a swappable rectangle emptied: exactly two solutions."""
    n = 9
    sol = unique_solution(parse_grid(EASY)).values
    for r1 in range(n):
        for r2 in range(r1 + 1, (r1 // 3 + 1) * 3):
            for c1 in range(n):
                for c2 in range(c1 + 1, n):
                    a, b = sol[r1 * n + c1], sol[r1 * n + c2]
                    if sol[r2 * n + c1] == b and sol[r2 * n + c2] == a:
                        values = list(sol)
                        for c in (r1 * n + c1, r1 * n + c2, r2 * n + c1, r2 * n + c2):
                            values[c] = 0
                        return Grid(n, tuple(values))
    raise AssertionError("no swappable rectangle")


@pytest.mark.parametrize("method", EXACT_METHODS)
@pytest.mark.parametrize("text", [*lines("sample4.txt"), EASY])
def test_small_puzzles_match_py_sudoku(method: str, text: str) -> None:
    puzzle = parse_grid(text)
    solutions = solve_values(puzzle.n, puzzle.values, 2, method=method)
    assert len(solutions) == 1
    assert solutions[0] == oracle(puzzle)


@pytest.mark.parametrize("method", EXACT_METHODS)
@pytest.mark.parametrize("text", lines("top1465.txt", 5) + lines("top1465.txt")[-3:])
def test_hard_9x9_unique_and_valid(method: str, text: str) -> None:
    puzzle = parse_grid(text)
    solutions = solve_values(9, puzzle.values, 2, method=method)
    assert len(solutions) == 1
    assert_valid_solution(puzzle, solutions[0])


def test_one_hard_puzzle_matches_py_sudoku() -> None:
    puzzle = parse_grid(lines("top1465.txt", 1)[0])
    assert list(unique_solution(puzzle).values) == oracle(puzzle)


@pytest.mark.parametrize("name", ["sample16.txt", "sample25.txt"])
def test_large_samples_solved_and_valid(name: str) -> None:
    for text in lines(name):
        puzzle = parse_grid(text)
        solution = unique_solution(puzzle)
        assert_valid_solution(puzzle, solution.values)


def test_dlx_agrees_on_16x16() -> None:
    puzzle = parse_grid(lines("sample16.txt", 2)[1])
    assert solve_values(16, puzzle.values, 2, method="dlx") == solve_values(16, puzzle.values, 2)


@pytest.mark.parametrize("method", EXACT_METHODS)
def test_two_solutions_detected(method: str) -> None:
    puzzle = two_solution_puzzle()
    solutions = solve_values(9, puzzle.values, 10, method=method)
    assert len(solutions) == 2
    for s in solutions:
        assert_valid_solution(puzzle, s)
    with pytest.raises(PuzzleError) as info:
        unique_solution(puzzle, "file.txt:3")
    assert info.value.message == "the puzzle has more than one solution"
    assert str(info.value) == "file.txt:3: the puzzle has more than one solution"


def test_limit_stops_the_count() -> None:
    empty = Grid(9, (0,) * 81)
    assert count_solutions(empty, limit=2) == 2
    assert count_solutions(empty, limit=5) == 5
    assert count_solutions(parse_grid(EASY)) == 1


def no_solution_puzzles() -> list[str]:
    """No two equal givens in a house, yet no solution."""
    # r1c9 can hold nothing: 1-8 in its row, 9 in its column.
    dead_cell = "12345678." + "." * 8 + "9" + "." * 63
    # r1c8 and r1c9 both need 8: 9 is in both their columns.
    blocked = list("1234567.." + "." * 72)
    blocked[3 * 9 + 7] = blocked[6 * 9 + 8] = "9"  # r4c8 and r7c9
    first_row_blocked = "".join(blocked)
    # The easy puzzle with one given changed to a value no house forbids.
    values = list(parse_grid(EASY).values)
    changed = None
    sol = unique_solution(parse_grid(EASY)).values
    geo = geometry(9)
    for c, v in enumerate(values):
        if v:
            for w in range(1, 10):
                if w != v and all(values[p] != w for p in geo.peers[c]):
                    values[c] = w
                    changed = Grid(9, tuple(values))
                    break
        if changed:
            break
    assert changed is not None and changed.values != sol
    out = [dead_cell, first_row_blocked]
    if count_solutions(changed) == 0:
        out.append(changed.to_line())
    return out


@pytest.mark.parametrize("method", EXACT_METHODS)
def test_no_solution_detected(method: str) -> None:
    for text in no_solution_puzzles():
        puzzle = parse_grid(text)  # the givens themselves are fine
        assert solve_values(9, puzzle.values, 2, method=method) == []
        with pytest.raises(PuzzleError) as info:
            unique_solution(puzzle)
        assert info.value.message == "the puzzle has no solution"


def test_clashing_givens_have_no_solution_in_every_method() -> None:
    values = (1, 1) + (0,) * 79  # parse_grid would refuse; the solvers must not crash
    for method in EXACT_METHODS:
        assert solve_values(9, values, 2, method=method) == []


def test_deterministic() -> None:
    puzzle = parse_grid(lines("top1465.txt", 10)[9])
    first = solve_values(9, puzzle.values, 2)
    assert all(solve_values(9, puzzle.values, 2) == first for _ in range(3))
    empty = Grid(9, (0,) * 81)
    assert solve_values(9, empty.values, 3) == solve_values(9, empty.values, 3)


@pytest.mark.parametrize("method", METHODS)
@pytest.mark.parametrize("text", [lines("sample4.txt", 1)[0], EASY])
def test_solve_agrees_across_methods(method: str, text: str) -> None:
    puzzle = parse_grid(text)
    assert list(solve(text, method=method).values) == oracle(puzzle)


@pytest.mark.parametrize("method", METHODS)
def test_solve_reports_bad_puzzles(method: str) -> None:
    with pytest.raises(PuzzleError, match="more than one solution"):
        solve(two_solution_puzzle(), method=method)
    with pytest.raises(PuzzleError, match="no solution"):
        solve(no_solution_puzzles()[0], method=method)
    # Without the uniqueness proof the first solution is accepted.
    assert_valid_solution(two_solution_puzzle(), solve(two_solution_puzzle(), method=method, unique=False).values)


def test_unknown_method() -> None:
    with pytest.raises(ValueError, match="unknown method"):
        solve(EASY, method="guessing")


def test_package_level_solve() -> None:
    import explainer

    assert explainer.solve(EASY) == unique_solution(parse_grid(EASY))


def _both(monkeypatch, n: int, values, limit: int, forbid=(), max_nodes=None):
    """The bitmask search on its compiled twin and on the pure one: solutions, or the node
    count of a search that ran out of its budget."""
    from explainer.core import solver

    def run():
        try:
            return solver.solve_bitmask(n, values, limit, forbid=forbid, max_nodes=max_nodes)
        except solver.SearchLimit as e:
            return ("limit", e.args)

    compiled_ = run()
    with monkeypatch.context() as m:
        m.setattr(solver, "_C", None)
        return compiled_, run()


def test_compiled_search_is_the_pure_search(monkeypatch) -> None:
    """Same solutions in the same order and the same node count (the generator's budgets
    depend on it), on unique, many-solution, forbidden-candidate and budgeted searches."""
    import random

    from explainer.core import solver

    if solver._C is None:
        pytest.skip("compiled core not built (or pure path forced)")
    rng = random.Random(7)
    seen = set()
    for name, count in (("top1465.txt", 40), ("hardest300.txt", 10), ("sample4.txt", 5), ("sample16.txt", 2)):
        for text in lines(name, count):
            grid = parse_grid(text.split()[0])
            values = list(grid.values)
            holes = values[:]
            for c in rng.sample([c for c, v in enumerate(values) if v], min(6, sum(map(bool, values)))):
                holes[c] = 0
            forbid = ((rng.randrange(len(values)), rng.randrange(1, grid.n + 1)),)
            for vals, limit, ban, budget in ((values, 2, (), None), (holes, 4, (), None), (holes, 2, forbid, 30),
                                             (values, 1, forbid, None)):
                compiled_, pure = _both(monkeypatch, grid.n, vals, limit, ban, budget)
                assert compiled_ == pure
                seen.add("limit" if isinstance(pure, tuple) else min(len(pure), 2))
    assert seen == {0, 1, 2, "limit"}
