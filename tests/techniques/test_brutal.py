from explainer import Puzzle
from explainer.app.hints.pencilmarks import parse_pencilmarks
from explainer.model.technique import Context
from techniques import select
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


def test_brutal_says_what_was_tried_and_marks_no_pattern():
    """Issue 34 (se_rated line 4 with single position, single candidate, locked candidate and
    brutal, step 1): "no technique applies" though only the listed ones were tried, and the
    value rejected drawn as a pattern's value. The text names the techniques of the run; the
    frame marks the cell the reason names, and places the value."""
    from tests.conftest import SHARED

    line = (SHARED / "data" / "se_rated.txt").read_text().splitlines()[3].split()[0]
    p = Puzzle(line, ["single position", "single candidate", "locked candidate", "brutal"])
    s = p.steps[0]
    assert s.technique == "brutal"
    assert s.text == ("Brutal: none of the techniques in use (single position, single candidate and locked "
                      "candidate) applies, so the solution is read: r1c8 is either 9 or 3; r1c8 is 9.")
    assert dict(s.translations)["fr"] == (
        "Brutal : aucune des techniques employées (position unique, candidat unique et candidat verrouillé) ne "
        "s'applique, on lit la solution : L1C8 vaut 9 ou 3 ; L1C8 vaut 9.")
    assert [str(r) for r in s.roles] == ["cells r1c8", "placed 9r1c8"]
    # a run of every technique counts them instead of naming them
    everything = next(find(p.state_before(0), Context(solution=tuple(p.solution.values),
                                                      earlier=tuple(select(None))[:-1])))
    assert everything.text.startswith(f"Brutal: none of the {len(select(None)) - 1} techniques in use applies")
