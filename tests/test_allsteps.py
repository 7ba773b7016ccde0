"""Every step from a position (issue #17): all_steps, the HoDoKu library format, `steps`."""
from __future__ import annotations

import json
import re
from collections import Counter
from pathlib import Path

import pytest

from explainer import Puzzle, all_steps
from explainer.app.allsteps import (
    Position,
    check_entry,
    code_kinds,
    library_line,
    one_step_document,
    read_position,
    step_code,
)
from explainer.app.cli import main
from explainer.app.hodoku import format_library, parse_library, read_library
from explainer.model.grid import PuzzleError, parse_grid
from explainer.model.state import State

from .conftest import SEED, top1465, verify_documents

POSITIONS = Path(__file__).parent / "data" / "hodoku_positions.txt"
TEXTBOOK = Path(__file__).parent / "data" / "hodoku_textbook.txt"


def _entries(path: Path = POSITIONS) -> list:
    return [entry for _, entry in read_library(path.read_text(), str(path))]


@pytest.fixture(scope="module")
def own_verdicts() -> list:
    """(entry, check_entry's verdict) for every own position: seconds of searching, done once for
    the tests below that read them."""
    return [(entry, check_entry(entry)) for entry in _entries()]


def _matching(entry, steps):
    return [s for s in steps if set(entry.eliminations) <= set(s.eliminate) and set(entry.placements) <= set(s.place)]


# ---- the library format ------------------------------------------------------------------

def test_library_line_fields() -> None:
    grid = "4...3.......6..8..........1....5..9..8....6...7.2........1.27..5.3....4.9........"
    line = f":0300-1:1:{grid.replace('8', '+8', 1)}:147 167:153 163::extra:"
    e = parse_library(line, "f:1")
    assert (e.code, e.variant, e.digits, e.extra) == ("0300", "1", "1", "extra")
    assert e.placed[15] == 8 and e.givens[15] == 0 and e.values[15] == 8
    assert e.deleted == ((3, 6, 1), (5, 6, 1)) and e.eliminations == ((4, 2, 1), (5, 2, 1))
    state = e.state()
    assert not state.has(3 * 9 + 6, 1) and not state.has(5 * 9 + 6, 1) and state.has(4 * 9 + 2, 1)
    assert parse_library(f":03011:x:{grid}::::").variant == "1"  # a fifth digit is a variant
    assert parse_library(f":0300-x:x:{grid}").must_not_fire  # trailing fields may be missing


@pytest.mark.parametrize("line, message", [
    ("0300:1:123", "starts with ':'"),
    (":0300:1", "at least"),
    (":03a0:x:" + "." * 81 + ":", "bad step code"),
    (":0300:x:" + "." * 16 + ":", "9×9 grids only: this grid has 16 cells (4×4)"),
    (":0300:x:" + "." * 256 + ":", "9×9 grids only"),
    (":0300:x:" + "." * 80 + ":", "the grid has 80 cells"),
    (":0300:x:" + "." * 80 + "+:", "ends with '+'"),
    (":0300:x:" + "." * 81 + ":1x2:", "bad candidate '1x2' in the deleted candidates"),
    (":0300:x:" + "11" + "." * 79 + ":", "two 1s"),
    (":0300:x:1" + "." * 80 + "::121:", "expected elimination r2c1<>1 is not a candidate"),
])
def test_bad_library_lines_say_what(line: str, message: str) -> None:
    with pytest.raises(PuzzleError, match=re.escape(message)) as info:
        parse_library(line, "f.txt:7")
    assert str(info.value).startswith("f.txt:7: ")


def test_round_trip_of_every_own_position() -> None:
    for entry in _entries() + _entries(TEXTBOOK):
        state = entry.state()
        again = parse_library(format_library(state, givens=entry.givens, code=entry.raw_code,
                                             eliminations=entry.eliminations, placements=entry.placements))
        assert again.state().cand == state.cand and again.state().values == state.values
        assert (again.givens, again.placed, again.raw_code) == (entry.givens, entry.placed, entry.raw_code)
        assert again.eliminations == entry.eliminations and again.placements == entry.placements


def test_round_trip_of_engine_states_with_placed_values() -> None:
    p = Puzzle(top1465(3)[0])
    for k in (0, len(p.steps) // 3, 2 * len(p.steps) // 3):
        state = p.state_before(k)
        line = library_line(Position(state, tuple(state.values)), givens=p.grid.values)
        back = parse_library(line).state()
        assert back.cand == state.cand and back.values == state.values
        if k:
            assert "+" in line.split(":")[3]


def test_writing_another_size_is_an_error() -> None:
    state = State.from_grid(parse_grid("1..." "..1." "...." "...."))
    with pytest.raises(PuzzleError, match="9×9 grids only, not 4×4"):
        format_library(state)


# ---- all_steps ---------------------------------------------------------------------------

def test_every_x_wing_of_a_position() -> None:
    entry = next(e for e in _entries() if e.code == "0300" and not e.must_not_fire)
    steps = all_steps(entry, ["x wing"])
    assert steps and {s.technique for s in steps} == {"x wing"}
    state = entry.state()
    for s in steps:  # live
        assert all(state.has(r * 9 + c, v) for r, c, v in s.eliminate)
    keys = [(s.eliminate, s.cells) for s in steps]
    assert len(keys) == len(set(keys))  # distinct
    # the whole fish record gives more (swordfish …), x wings first
    fish = all_steps(entry, ["fish"])
    assert [s for s in fish if s.technique == "x wing"] == list(steps)
    sizes = [s.get("size") for s in fish]
    assert sizes == sorted(sizes)


def test_registry_order_then_size_and_brutal_skipped() -> None:
    steps = all_steps(SEED, ["brutal", "locked candidate", "single position"])
    names = [s.technique for s in steps]
    assert names == sorted(names, key=lambda n: n != "single position")
    assert "single position" in names and "locked candidate" in names and "brutal" not in names
    assert any("brutal: skipped" in note for note in steps.notes)


def test_the_cap_stops_a_technique_with_a_note() -> None:
    steps = all_steps(SEED, ["single position"], cap=2)
    assert len(steps) == 2 and "stopped after 2 steps" in steps.notes[0]


def test_codes_and_step_names_choose_the_kinds() -> None:
    assert [k.name for _, k in code_kinds("0300")] == ["x wing"]
    assert [k.name for _, k in code_kinds("0201")] == ["naked tuple"]
    assert code_kinds("9999") == []
    entry = next(e for e in _entries() if e.code == "0301" and not e.must_not_fire)
    assert {s.technique for s in all_steps(entry, ["0301"])} == {"swordfish"}


def test_pencil_marks_and_partly_solved_grids_are_positions() -> None:
    p = Puzzle(SEED)
    state = p.state_before(20)
    from explainer.app.hints.pencilmarks import format_pencilmarks

    for text in (format_pencilmarks(state), state.to_candidates_line()):
        pos = read_position(text)
        assert pos.state.cand == state.cand
        assert [s.summary() for s in all_steps(pos)] == [s.summary() for s in all_steps(state)]


# ---- own positions: reproduced, and every step checked by the independent checker ----------

def test_own_positions_are_reproduced_per_technique(own_verdicts) -> None:
    reproduced: Counter[str] = Counter()
    total: Counter[str] = Counter()
    for entry, verdict in own_verdicts:
        (t, kind), *_ = code_kinds(entry.code)
        total[kind.name] += 1
        reproduced[kind.name] += bool(verdict.ok)
        if not entry.must_not_fire:
            assert all(step_code(s) or kind.name for s in verdict.hits)
    assert reproduced == total, {k: f"{reproduced[k]}/{total[k]}" for k in total}
    # kinds rare in the sample (bug+1, remote pair) may bring only their must-not-fire line;
    # every kind found there brings several positions
    found = {k for k, v in total.items() if v > 1}
    assert len(found) >= 15 and min(total[k] for k in found) >= 2  # a finned fish may be filed as sashimi


# the families of issue #25 in the hand-made file: HoDoKu codes -> family
FAMILIES = {"0600": "unique rectangle 1/4", "0603": "unique rectangle 1/4", "0602": "unique rectangle 3",
            "0606": "hidden rectangle", "0610": "bug+1", "0311": "finned/sashimi fish 3-4",
            "0312": "finned/sashimi fish 3-4", "0321": "finned/sashimi fish 3-4",
            "0322": "finned/sashimi fish 3-4", "1101": "Sue de Coq"}


def test_hand_made_positions_are_reproduced_or_wait_for_their_record() -> None:
    """Patterns drawn by hand, eliminations worked out by hand (tests/data/make_textbook_positions.py),
    checked as HoDoKu's tester checks its library (``check_entry``)."""
    lines = TEXTBOOK.read_text().splitlines()
    verdicts = {}
    per_family: Counter[tuple[str, str]] = Counter()
    for lineno, entry in read_library(TEXTBOOK.read_text(), str(TEXTBOOK)):
        assert not isinstance(entry, PuzzleError), entry
        verdict = check_entry(entry)
        verdicts[lineno] = verdict.ok
        if verdict.ok is None:
            continue  # no record answers to the code yet
        if "[known gap" not in lines[lineno - 2]:
            assert verdict.ok, f"{TEXTBOOK}:{lineno}: {lines[lineno - 2]}: {verdict.message}"
        if entry.code in FAMILIES:
            per_family[(FAMILIES[entry.code], "fail" if entry.must_not_fire else "step")] += 1
    assert sum(v is True for v in verdicts.values()) >= 50
    # every family of issue #25: several positions with a step, and near misses
    for family in set(FAMILIES.values()):
        assert per_family[(family, "step")] >= 2, family
        assert per_family[(family, "fail")] >= 1, family


def test_variants_are_honoured() -> None:
    """-1 on a uniqueness code keeps the rectangles without missing candidates; a fail case is about its
    digits; a siamese line needs both fish."""
    text = TEXTBOOK.read_text().splitlines()
    missing = next(ln for ln in text if ln.startswith(":0600-2:"))
    assert check_entry(missing).ok is True
    assert check_entry(missing.replace(":0600-2:", ":0600-1:", 1)).ok is False  # its corner lacks 2
    assert check_entry(missing.replace(":0600-2:", ":0600:", 1)).ok is True
    hidden = next(ln for ln in text if ln.startswith(":0606:"))
    fields = hidden.split(":")
    assert check_entry(":".join([*fields[:1], "0606-x", "12", *fields[3:5], "", "", ""])).ok is False
    assert check_entry(":".join([*fields[:1], "0606-x", "34", *fields[3:5], "", "", ""])).ok is True
    siamese = next(ln for ln in text if ln.startswith(":03111:"))
    assert parse_library(siamese).siamese and parse_library(siamese).meaning == "siamese fish"
    assert check_entry(siamese).ok is True
    assert parse_library(missing).meaning == "missing candidates allowed"


def test_a_placement_counts_as_removing_its_cells_other_candidates() -> None:
    text = TEXTBOOK.read_text().splitlines()
    bug = [ln for ln in text if ln.startswith(":0610:")]
    assert len(bug) >= 2 and all(check_entry(ln).ok for ln in bug)
    eliminated = parse_library(bug[0])
    assert eliminated.eliminations and not eliminated.placements


def test_own_positions_steps_pass_the_independent_checker(own_verdicts, tmp_path: Path) -> None:
    docs = []
    for entry, verdict in own_verdicts:
        if entry.must_not_fire:
            continue
        pos = read_position(entry)
        step = verdict.hits[0]
        docs.append(one_step_document(pos, step))
    out = verify_documents(docs, tmp_path)
    assert str(len(docs)) in out


def test_every_step_of_a_position_passes_the_checker(tmp_path: Path) -> None:
    p = Puzzle(top1465(5)[0])
    pos = Position(p.state_before(len(p.steps) // 2), tuple(p.state_before(len(p.steps) // 2).values))
    steps = all_steps(pos, seconds=5)
    assert len({s.technique for s in steps}) >= 3
    verify_documents([one_step_document(pos, s) for s in steps], tmp_path)


# ---- the command ---------------------------------------------------------------------------

def _run(capsys, *argv: str) -> tuple[int, str, str]:
    code = main(["steps", *argv])
    out, err = capsys.readouterr()
    return code, out, err


def test_steps_lists_every_x_wing(capsys) -> None:
    entry = next(e for e in _entries() if e.code == "0300" and not e.must_not_fire)
    line = library_line(read_position(entry))
    code, out, _ = _run(capsys, line, "--technique", "x wing")
    assert code == 0
    assert out.count(". x wing: ") == len(all_steps(entry, ["x wing"]))
    code, out, _ = _run(capsys, line, "--technique", "x wing", "--json")
    doc = json.loads(out)
    assert doc["alternatives"] and {s["technique"] for s in doc["steps"]} == {"x wing"}


def test_check_a_mixed_file(tmp_path: Path, capsys) -> None:
    lines = sorted((ln for ln in POSITIONS.read_text().splitlines() if ln.startswith((":0300", ":0800"))),
                   key=lambda ln: not ln.startswith(":0300:"))
    grid = lines[0].split(":")[3]
    bad = [":0300:x:" + grid[:40] + ":",  # a short grid
           ":0300:1:" + grid + ":9zz::",  # a bad candidate
           "not a library line"]
    unknown = f":1001:x:{grid}::::"  # no technique answers to 1001 (HoDoKu's aligned pair exclusion)
    wrong = lines[0].split(":")
    first = parse_library(lines[0])
    state = first.state()
    other = next((r, c, v) for r in range(9) for c in range(9) for v in range(1, 10)
                 if state.has(r * 9 + c, v) and (r, c, v) not in first.eliminations)
    wrong[5] = f"{other[2]}{other[0] + 1}{other[1] + 1}"
    text = "\n".join(["# a mixed file", lines[0], bad[0], lines[1], bad[1], unknown, bad[2], ":".join(wrong)]
                     + lines[2:]) + "\n"
    path = tmp_path / "mixed.txt"
    path.write_text(text)
    code, out, err = _run(capsys, str(path), "--check", "--json")
    assert code == 2
    records = [json.loads(x) for x in out.splitlines()]
    assert [r["line"] for r in records] == list(range(2, 9)) + list(range(9, 9 + len(lines) - 2))
    by_line = {r["line"]: r for r in records}
    assert by_line[2] == {"line": 2, "code": "0300", "technique": "x wing", "reproduced": True}
    assert by_line[3]["reproduced"] is None and "error" in by_line[3]
    assert by_line[6] == {"line": 6, "code": "1001", "technique": None, "reproduced": None}
    assert by_line[8]["reproduced"] is False
    assert all(by_line[k]["reproduced"] is True for k in range(9, 9 + len(lines) - 2))
    errors = [x for x in err.splitlines() if "error:" in x]
    assert len(errors) == 3 and all(f"{path}:" in x for x in errors)
    assert f"{path}:3: " in errors[0] and "81" in errors[0]
    assert "bad candidate '9zz'" in errors[1]
    assert err.splitlines()[-1].startswith("explain-sudoku steps: ") and "3 bad" in err.splitlines()[-1]
    # without the bad lines: 1 (one line not reproduced); without that one too: 0
    kept = [ln for ln in text.splitlines() if ln not in bad]
    path.write_text("\n".join(kept) + "\n")
    assert _run(capsys, str(path), "--check")[0] == 1
    path.write_text("\n".join(ln for ln in kept if ln != ":".join(wrong)) + "\n")
    code, out, _ = _run(capsys, str(path), "--check")
    assert code == 0 and "reproduced" in out


def test_out_writes_frames_into_a_new_folder_only(tmp_path: Path, capsys) -> None:
    entry = next(e for e in _entries() if e.code == "0300" and not e.must_not_fire)
    line = library_line(read_position(entry))
    (tmp_path / "full").mkdir()
    (tmp_path / "full" / "keep.png").write_bytes(b"x")
    code, _, err = _run(capsys, line, "--technique", "x wing", "--out", str(tmp_path / "full"))
    assert code == 3 and "--force" in err
    assert (tmp_path / "full" / "keep.png").read_bytes() == b"x"
    code, out, _ = _run(capsys, line, "--technique", "x wing", "--out", str(tmp_path / "new"))
    assert code == 0
    frames = sorted(p.name for p in (tmp_path / "new").iterdir() if p.name != ".explain-sudoku-manifest.json")
    assert frames and all(f.endswith("-X-WING.png") for f in frames)
    assert len(frames) == len(all_steps(entry, ["x wing"]))


def test_unknown_technique_and_check_with_technique_are_bad_input(capsys) -> None:
    assert _run(capsys, SEED, "--technique", "no such")[0] == 2
    assert _run(capsys, SEED, "--check", "--technique", "x wing")[0] == 2


def test_a_position_without_one_solution_cannot_be_wrapped_for_the_checker() -> None:
    entry = next(e for e in _entries(TEXTBOOK) if e.code == "0300")  # a drawn pattern: no values at all
    pos = read_position(entry)
    step = all_steps(pos, ["x wing"])[0]
    with pytest.raises(PuzzleError, match="no single solution"):
        one_step_document(pos, step)


def test_a_puzzle_line_is_not_taken_for_pencil_marks() -> None:
    line = top1465(2)[0]  # its dots cut it into 16 "tokens", like a 4×4 pencil-mark grid
    assert read_position(line).state.values == list(parse_grid(line).values)


def test_bad_limits_and_palette_are_bad_input(capsys, tmp_path: Path) -> None:
    assert _run(capsys, SEED, "--cap", "0")[0] == 2
    code, _, err = _run(capsys, SEED, "--out", str(tmp_path / "new"), "--palette", "nope")
    assert code == 2 and "unknown theme" in err and not (tmp_path / "new").exists()
