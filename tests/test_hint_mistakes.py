"""Every mistake of a learner's grid is named (explainer.app.hints.mistakes, issue 39), and the
``hint`` command names the removal that leaves a value no place in a house or empties a cell
as that learner's mistake, exit 1, never "impossible pencil marks" (issue 42, item 4)."""
from __future__ import annotations

from pathlib import Path

import pytest

from explainer.app.cli import main
from explainer.app.hints import GridMistake, check_grid, hint, mistakes
from explainer.core.solver import unique_solution
from explainer.model.grid import parse_grid
from explainer.model.state import State

EASY = "..3.2.6..9..3.5..1..18.64....81.29..7.......8..67.82....26.95..8..2.3..9..5.1.3.."
GRID = parse_grid(EASY)
SOLUTION = unique_solution(GRID).values


def start() -> State:
    return State.from_grid(GRID)


def test_a_grid_on_track_has_no_mistake() -> None:
    assert mistakes(start(), SOLUTION) == []


def test_a_wrong_value_is_named_without_the_solutions_value() -> None:
    st = start()
    wrong = SOLUTION[0] % 9 + 1
    st.place(0, wrong)
    found = mistakes(st, SOLUTION)
    assert [(m.name, m.value, m.kind) for m in found] == [("r1c1", wrong, "value")]
    assert found[0].text() == f"r1c1 is not {wrong}"
    assert found[0].text("fr") == f"r1c1 n'est pas {wrong}"
    assert str(SOLUTION[0]) not in found[0].text().replace("r1c1", "")


def test_a_removed_true_candidate_is_named() -> None:
    st = start()
    c = next(i for i in range(81) if not st.values[i] and len(st.candidates(i)) > 2)
    st.eliminate(c, SOLUTION[c])
    (m,) = mistakes(st, SOLUTION)
    v = SOLUTION[c]
    assert (m.cell, m.value, m.kind) == (c, v, "removed")
    assert m.text() == f"you removed {v} from {m.name}, but {v} can still go there"
    assert m.to_dict("fr")["text"] == f"vous avez retiré {v} de {m.name}, mais {v} peut encore y aller"


def test_removal_that_empties_a_house_is_the_learners_mistake(tmp_path: Path,
                                                              capsys: pytest.CaptureFixture[str]) -> None:
    st = start()  # the case: 1 struck from r1c6, the last place of 1 in row 1
    assert [c for c in range(9) if st.has(c, 1)] == [5] and SOLUTION[5] == 1
    st.eliminate(5, 1)
    assert st.contradiction() == "1 has no place left in row 1"
    assert [(m.name, m.value, m.kind) for m in mistakes(st, SOLUTION)] == [("r1c6", 1, "removed")]
    with pytest.raises(GridMistake, match="r1c6: 1 was removed"):
        check_grid(st)
    f = tmp_path / "marks.txt"
    f.write_text(st.to_candidates_line() + "\n")
    assert main(["hint", str(f)]) == 1
    err = capsys.readouterr().err
    assert "r1c6: 1 was removed but the solution needs it" in err and "impossible" not in err


def test_removal_that_empties_a_cell_is_the_learners_mistake(tmp_path: Path,
                                                             capsys: pytest.CaptureFixture[str]) -> None:
    st = start()
    c = next(i for i in range(81) if not st.values[i])
    for v in st.candidates(c):
        st.eliminate(c, v)
    assert st.contradiction() is not None
    found = mistakes(st, SOLUTION)
    assert [(m.cell, m.value, m.kind) for m in found] == [(c, SOLUTION[c], "removed")]
    f = tmp_path / "marks.txt"
    f.write_text(st.to_candidates_line() + "\n")
    assert main(["hint", str(f), "--puzzle", EASY]) == 1
    err = capsys.readouterr().err
    name = f"r{c // 9 + 1}c{c % 9 + 1}"
    assert f"{name}: {SOLUTION[c]} was removed" in err and "impossible" not in err


def test_two_mistakes_at_once_are_both_named(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    st = start()
    empty = [i for i in range(81) if not st.values[i] and len(st.candidates(i)) > 2]
    a, b = empty[0], empty[-1]
    wrong = next(v for v in st.candidates(a) if v != SOLUTION[a])
    st.place(a, wrong)
    st.eliminate(b, SOLUTION[b])
    found = mistakes(st, SOLUTION)
    assert {(m.cell, m.kind) for m in found} == {(a, "value"), (b, "removed")}
    assert all(m.kind == "value" or m.value == SOLUTION[m.cell] for m in found)
    # a true candidate cleared only by the wrong value in a peer is not the learner's removal
    assert not any(m.kind == "removed" and m.cell != b for m in found)
    f = tmp_path / "marks.txt"
    f.write_text(st.to_candidates_line() + "\n")
    assert main(["hint", str(f), "--puzzle", EASY]) == 1
    err = capsys.readouterr().err  # the command names the first mistake, row by row, as one line
    assert err.count("\n") == 1 and "impossible" not in err


def test_a_correct_grid_still_gets_its_hint() -> None:
    h = hint(start(), 1, puzzle=EASY)
    assert h.step is not None and h.text.startswith("Look for:")
