from explainer import Puzzle
from explainer.app.hints.pencilmarks import parse_pencilmarks
from explainer.model.technique import Context
from techniques.brutal import find
from tests.conftest import top1465


def test_brutal_prefers_a_bivalue_cell_and_reads_the_solution():
    puzzle = Puzzle(top1465(1)[0], ["single position", "single candidate", "brutal"])
    first = next(i for i, s in enumerate(puzzle.steps) if s.technique == "brutal")
    state = puzzle.state_before(first)
    step = next(find(state, Context(solution=tuple(puzzle.solution.values))))
    (r, c, v), = step.place
    assert puzzle.solution.values[r * 9 + c] == v
    assert len(step.marked) >= 2 and (r, c, v) in step.marked


def test_brutal_bilocal_when_no_bivalue_cell():
    state = parse_pencilmarks("\n".join(["1234 1234 1234 1234"] * 3 + ["1234 1234 234 234"]))
    solution = [2, 1, 4, 3, 4, 3, 2, 1, 3, 4, 1, 2, 1, 2, 3, 4]
    step = next(find(state, Context(solution=tuple(solution))))
    assert step.technique == "brutal"
    (r, c, v), = step.place
    assert (r, c, v) == (3, 0, 1) and step.marked == ((3, 0, 1), (3, 1, 1))
