"""Hint levels on a pencil-mark input (library and `explain-sudoku hint`)."""
import pytest

from explainer import Puzzle
from explainer.app.cli.hint import main
from explainer.app.hints import hint, read_grid_state
from explainer.app.hints.pencilmarks import format_pencilmarks

SEED = "9..3....41...2...5..2...3.12..6.9..36.9.5.............48.9...7........4....81...."


@pytest.fixture(scope="module")
def marks():
    p = Puzzle(SEED)
    k = p.steps_using("locked candidate")[0]
    return p, k, p.state_before(k)


def test_levels_on_pencil_marks(marks, tmp_path, capsys):
    p, k, st = marks
    step = p.steps[k]
    f = tmp_path / "marks.txt"
    f.write_text(format_pencilmarks(st) + "\n")
    assert main([str(f), "--level", "1"]) == 0
    out1 = capsys.readouterr().out
    assert "locked candidate" in out1 and "box" not in out1
    assert main([str(f), "--level", "2"]) == 0
    out2 = capsys.readouterr().out
    kind, h = step.houses[0]
    assert f"box {h + 1}" in out2 and f"value {step.eliminate[0][2]}" in out2
    assert main([str(f), "--level", "3", "--out", str(tmp_path / "h")]) == 0
    out3 = capsys.readouterr().out
    assert step.text in out3
    assert (tmp_path / "h" / "hint.png").read_bytes()[:4] == b"\x89PNG"


def test_candidates_line_and_french(marks):
    p, k, st = marks
    h = hint(st.to_candidates_line(), 2, "fr")
    assert h.text.startswith("Cherchez : candidat verrouillé")
    assert read_grid_state(st.to_candidates_line()).cand == st.cand


def test_puzzle_line_hint():
    h = hint(SEED, 1)
    assert h.step is not None and h.step.technique == Puzzle(SEED).steps[0].technique


def test_errors_one_line(tmp_path, capsys):
    assert main([str(tmp_path / "missing.txt")]) == 2
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and "Traceback" not in err
    bad = tmp_path / "bad.txt"
    bad.write_text("99" + "." * 79 + "\n")
    assert main([str(bad), "--level", "2"]) == 2
    assert "two 9s" in capsys.readouterr().err
