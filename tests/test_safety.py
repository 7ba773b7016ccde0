"""Issue 14: never touch a user's file, never hint from a wrong grid, no hang, no traceback.

One test (or a few) per numbered defect; each failed before the manifest,
the grid check and the parse-time checks. In-process ``main(argv)`` calls.
"""
from __future__ import annotations

import json
import sqlite3
import time
from pathlib import Path

import pytest

from explainer.app.cli import main
from explainer.app.cli.output import MANIFEST, safe_component
from tests.conftest import ROOT, SEED, TOP1465

FOUR = (ROOT / "examples" / "4x4.txt").read_text().split("\n")[0].strip() or "1..4..2..3..4..1"
SEED_SOLUTION = None


def four_puzzle() -> str:
    for line in (ROOT / "examples" / "4x4.txt").read_text().splitlines():
        if line.strip() and not line.startswith("#"):
            return line.strip()
    raise AssertionError("no 4x4 puzzle in examples/4x4.txt")


def snapshot(folder: Path) -> dict[str, bytes]:
    return {p.relative_to(folder).as_posix(): p.read_bytes() for p in sorted(folder.rglob("*")) if p.is_file()}


def one_line(err: str) -> None:
    assert err.count("\n") == 1 and "Traceback" not in err, err


# ---- 1. the output cleanup never deletes or overwrites a user's file --------------------

def test_1_user_photos_survive_with_and_without_force(tmp_path, capsys):
    photos = tmp_path / "photos"
    (photos / "2024").mkdir(parents=True)
    (photos / "2024" / "beach.jpg").write_text("x")
    (photos / "holiday.gif").write_text("g")
    before = snapshot(photos)
    puzzle = ROOT / "examples" / "4x4.txt"
    assert main([str(puzzle), "--json-only", "--out", str(photos)]) == 3
    err = capsys.readouterr().err
    one_line(err)
    assert "--force" in err and snapshot(photos) == before
    assert main([str(puzzle), "--json-only", "--out", str(photos), "--force", "-q"]) == 0
    after = snapshot(photos)
    assert {k: v for k, v in after.items() if k in before} == before
    # and a second run (no --force needed for our own files, but the photos are still foreign)
    assert main([str(puzzle), "--json-only", "--out", str(photos), "-q"]) == 3
    assert main([str(puzzle), "--json-only", "--out", str(photos), "--force", "-q"]) == 0
    assert {k: v for k, v in snapshot(photos).items() if k in before} == before


@pytest.mark.parametrize("name", ["000-INITIAL-GRID.png", "steps.json", "explanation.gif", "EXPLANATIONS-01.png",
                                  "workbook.pdf"])
def test_1_force_never_overwrites_a_user_file_at_our_name(tmp_path, capsys, name):
    out = tmp_path / "o"
    out.mkdir()
    (out / name).write_bytes(b"mine")
    extra = {"steps.json": "--no-frames", "workbook.pdf": "--pdf"}.get(name, "-q")
    assert main([SEED, "--out", str(out), "--force", "-q", extra]) == 3
    err = capsys.readouterr().err
    one_line(err)
    assert name in err and "not overwritten" in err
    assert (out / name).read_bytes() == b"mine"


def test_1_rerun_replaces_only_unchanged_files_of_ours(tmp_path, capsys):
    out = tmp_path / "o"
    assert main([SEED, "--json-only", "--out", str(out), "-q"]) == 0
    manifest = json.loads((out / MANIFEST).read_text())
    assert list(manifest["files"]) == ["steps.json"]
    assert main([four_puzzle(), "--json-only", "--out", str(out), "-q"]) == 0
    assert json.loads((out / "steps.json").read_text())["size"] == 4
    # the user edits our file: it is theirs now, kept, and the folder needs --force
    (out / "steps.json").write_text("edited")
    assert main([SEED, "--json-only", "--out", str(out), "-q"]) == 3
    assert main([SEED, "--json-only", "--out", str(out), "-q", "--force"]) == 3  # at our name: refused
    assert (out / "steps.json").read_text() == "edited"
    capsys.readouterr()


def test_1_a_tampered_manifest_cannot_delete_outside(tmp_path, capsys):
    out = tmp_path / "o"
    victim = tmp_path / "victim.txt"
    victim.write_text("keep")
    assert main([SEED, "--json-only", "--out", str(out), "-q"]) == 0
    doc = json.loads((out / MANIFEST).read_text())
    size = victim.stat().st_size
    import hashlib

    digest = hashlib.sha256(b"keep").hexdigest()
    doc["files"]["../victim.txt"] = {"size": size, "sha256": digest}
    doc["files"][str(victim)] = {"size": size, "sha256": digest}
    (out / MANIFEST).write_text(json.dumps(doc))
    assert main([SEED, "--json-only", "--out", str(out), "-q"]) == 0
    assert victim.read_text() == "keep"


def test_1_a_foreign_manifest_is_not_ours(tmp_path, capsys):
    out = tmp_path / "o"
    out.mkdir()
    (out / MANIFEST).write_text("my notes")
    assert main([SEED, "--json-only", "--out", str(out), "--force"]) == 3
    one_line(capsys.readouterr().err)
    assert (out / MANIFEST).read_text() == "my notes"


@pytest.mark.parametrize("name", ["...txt", "..txt", ".txt", "..", "a b?*.txt"])
def test_1_safe_output_names(tmp_path, monkeypatch, capsys, name):
    work = tmp_path / "work"
    work.mkdir()
    monkeypatch.chdir(work)
    if name == "..":
        assert safe_component(name) == "puzzle"
        return
    (work / name).write_text(SEED + "\n")
    assert main([name, "--json-only", "-q"]) == 0, capsys.readouterr().err
    written = [p for p in tmp_path.rglob("steps.json")]
    assert len(written) == 1 and (work / "output") in written[0].parents
    assert written[0].parent.parent == work / "output"
    assert not (work / "steps.json").exists() and not (tmp_path / "steps.json").exists()


def test_1_several_puzzles_subfolders_and_rerun(tmp_path, capsys):
    out = tmp_path / "o"
    src = ROOT / "examples" / "bad.txt"
    assert main([str(src), "--json-only", "--out", str(out), "-q"]) == 2
    names = set(snapshot(out))
    assert {"index.json", "001/steps.json", "004/steps.json", MANIFEST} <= names
    (out / "002").mkdir()  # a user's folder at a name we would write
    (out / "002" / "x.txt").write_text("x")
    capsys.readouterr()
    assert main([str(src), "--json-only", "--out", str(out), "-q", "--force"]) == 3  # refused before any work
    assert (out / "002" / "x.txt").read_text() == "x"


@pytest.fixture
def built_db(tmp_path):
    from explainer.app.bank.build import build

    lines = [ln for ln in (ROOT / "examples" / "top1465-sample.txt").read_text().splitlines()
             if ln.strip() and not ln.startswith("#")][:3]
    f = tmp_path / "three.txt"
    f.write_text("\n".join(lines) + "\n")
    db = tmp_path / "q.sqlite"
    build(f, db, jobs=1, progress=False, order="seed")  # the quicker order: these tests are about files
    return db


def test_1_db_query_out_replaces_its_own_frames_only(built_db, tmp_path, capsys):
    out = tmp_path / "frames"
    out.mkdir()
    (out / "query.gif").write_bytes(b"mine")
    base = ["db", "query", "--db", str(built_db), "--out", str(out), "--gif"]
    assert main(base + ["--limit", "3"]) == 3  # foreign files: refused
    assert main(base + ["--limit", "3", "--force"]) == 3  # query.gif is not ours: never overwritten
    assert (out / "query.gif").read_bytes() == b"mine"
    (out / "query.gif").unlink()
    assert main(base + ["--limit", "3"]) == 0
    first = {p.name for p in out.glob("*.png")}
    assert len(first) == 3
    assert main(base + ["--limit", "2"]) == 0  # replaces the earlier frames, does not mix
    assert len(list(out.glob("*.png"))) == 2
    capsys.readouterr()


def test_1_db_export_never_overwrites_silently(built_db, tmp_path, capsys):
    target = tmp_path / "mine.jsonl"
    target.write_text("precious\n")
    assert main(["db", "export", "--db", str(built_db), "-o", str(target)]) == 3
    one_line(capsys.readouterr().err)
    assert target.read_text() == "precious\n"
    assert main(["db", "export", "--db", str(built_db), "-o", str(built_db), "--force"]) == 3
    assert main(["db", "export", "--db", str(built_db), "-o", str(target), "--force"]) == 0
    assert target.read_text().count("\n") == 3


# ---- 2. hint checks the grid first --------------------------------------------------------

@pytest.fixture(scope="module")
def seed_puzzle():
    from explainer.api import Puzzle

    p = Puzzle(SEED)
    assert p.steps
    return p


def test_2_removed_true_candidate_is_named(seed_puzzle, tmp_path, capsys):
    from explainer.app.hints.pencilmarks import format_pencilmarks

    st = seed_puzzle.state_before(3)
    sol = seed_puzzle.solution.values
    c = next(i for i in range(81) if not st.values[i] and len(st.candidates(i)) > 1)
    st.eliminate(c, sol[c])
    f = tmp_path / "marks.txt"
    f.write_text(format_pencilmarks(st) + "\n")
    assert main(["hint", str(f), "--level", "3", "--out", str(tmp_path / "h")]) == 1
    out, err = capsys.readouterr()
    one_line(err)
    assert out == "" and not (tmp_path / "h").exists()
    assert f"r{c // 9 + 1}c{c % 9 + 1}: {sol[c]} was removed but the solution needs it" in err


def test_2_wrong_value_is_named(seed_puzzle, capsys):
    sol = seed_puzzle.solution.values
    wrong = 7 if sol[1] != 7 else 8
    grid = SEED[:1] + str(wrong) + SEED[2:]
    assert main(["hint", grid]) == 2  # without the puzzle the values are the givens: no solution (issue 36)
    out, err = capsys.readouterr()
    assert out == "" and "no solution" in err
    assert f"r1c2: {wrong} is probably wrong (without it the grid has one solution, with {sol[1]} there" in err
    assert main(["hint", grid, "--puzzle", SEED]) == 1
    assert f"r1c2: {wrong} is wrong" in capsys.readouterr().err


def test_2_empty_and_impossible_grids_get_explains_errors(capsys):
    assert main(["hint", "." * 81]) == 2
    err = capsys.readouterr().err
    one_line(err)
    assert "more than one solution" in err
    assert main(["hint", "12345678." + "........9" + "." * 63]) == 2
    assert "no solution" in capsys.readouterr().err


def test_2_a_correct_grid_still_gets_its_hint(seed_puzzle, capsys):
    from explainer.app.hints.pencilmarks import format_pencilmarks

    st = seed_puzzle.state_before(10)
    assert main(["hint", st.to_candidates_line()]) == 0
    assert capsys.readouterr().out.startswith("Look for:")
    assert format_pencilmarks(st)


# ---- 3. a 9x9 line is never read as pencil marks -----------------------------------------

def test_3_no_top1465_line_looks_like_pencil_marks():
    from explainer.app.hints import read_grid_state
    from explainer.app.hints.pencilmarks import looks_like_pencilmarks
    from explainer.model.grid import parse_grid

    lines = TOP1465.read_text().split()
    assert len(lines) == 1465
    for line in lines:
        assert not looks_like_pencilmarks(line), line
        assert read_grid_state(line).values == list(parse_grid(line).values) or \
            tuple(read_grid_state(line).values) == parse_grid(line).values


def test_3_the_issues_line_gets_a_hint(capsys):
    line = "7.8...3.....2.1...5.........4.....263...8.......1...9..9.6....4....7.5..........."
    assert main(["hint", line]) == 0
    assert capsys.readouterr().out.startswith("Look for:")


# ---- 4. no hang on a bad technique ---------------------------------------------------------

def test_4_generate_bogus_technique_is_rejected_at_once(capsys):
    start = time.perf_counter()
    assert main(["generate", "--technique", "bogus"]) == 2
    assert time.perf_counter() - start < 5
    err = capsys.readouterr().err
    one_line(err)
    assert "unknown technique 'bogus'" in err


# ---- 5. no tracebacks -----------------------------------------------------------------------

@pytest.mark.parametrize("argv", [
    [SEED, "--gif-loop", "99999999"],
    [SEED, "--gif-loop", "-7"],
    ["db", "query", "--duration", "-1", "--gif"],
    ["db", "query", "--duration", "nan", "--gif", "--out", "x"],
])
def test_5_bad_numbers_are_one_line_errors(tmp_path, monkeypatch, capsys, argv):
    monkeypatch.chdir(tmp_path)
    assert main(argv) == 2
    one_line(capsys.readouterr().err)
    assert not list(tmp_path.iterdir())


@pytest.mark.parametrize("duration", ["-1", "0", "inf", "1e12"])
def test_5_db_query_gif_duration_on_a_real_database(built_db, tmp_path, capsys, duration):
    out = tmp_path / "q"
    argv = ["db", "query", "--db", str(built_db), "--limit", "2", "--out", str(out), "--gif", "--duration", duration]
    assert main(argv) == 2
    one_line(capsys.readouterr().err)
    assert not out.exists()


def test_5_library_gif_loop_and_duration_are_checked():
    from render.options import OptionError, RenderOptions

    for bad in ({"gif_loop": 99999999}, {"gif_loop": -7}, {"gif_duration": -1}, {"size": 6.7},
                {"dpi": float("nan")}, {"fmt": "jpg"}, {"theme": "rainbow"}, {"only": ""}, {"colour": 1}):
        with pytest.raises(OptionError):
            RenderOptions.from_mapping(bad)
    # the names --only keeps are checked by the command line (render reads the model only, not the
    # registry): tests/render/test_cli_pictures.py
    assert RenderOptions(only="nope").only == ("nope",)
    import numpy as np

    assert RenderOptions(size=np.int64(500)).size == 500
    with pytest.raises(OptionError, match="whole number"):
        RenderOptions(size=np.float64(600.7))


# ---- 6. the smaller items --------------------------------------------------------------------

def test_6_no_empty_folder_after_bad_input(tmp_path, capsys):
    bad = tmp_path / "bad.txt"
    bad.write_text("x" * 81 + "\n")
    out = tmp_path / "deep" / "o"
    assert main([str(bad), "--out", str(out)]) == 2
    assert not (tmp_path / "deep").exists()
    capsys.readouterr()


def test_6_solve_output_lines_up_with_input(tmp_path, capsys):
    from explainer.core.solver import unique_solution
    from explainer.model.grid import parse_grid

    f = tmp_path / "p.txt"
    f.write_text(f"{SEED}\n123\n{'.' * 81}\n{SEED}\n")
    assert main(["solve", str(f)]) == 2
    out = capsys.readouterr().out.split("\n")
    solution = unique_solution(parse_grid(SEED)).to_line()
    assert out[:4] == [solution, "", "", solution]


def test_6_short_row_of_a_grid_is_one_error(tmp_path, capsys):
    rows = (ROOT / "examples" / "seed-grid.ss").read_text().splitlines()
    k = next(i for i, r in enumerate(rows) if r.startswith("...|...|.4."))
    rows[k] = rows[k][:-1]
    f = tmp_path / "short.ss"
    f.write_text("\n".join(rows) + "\n")
    assert main([str(f), "--json-only", "--out", str(tmp_path / "o")]) == 2
    err = capsys.readouterr().err
    one_line(err)
    assert "80 cells" in err


@pytest.mark.parametrize("value", ["", ",,,", " , "])
def test_6_empty_technique_lists_are_errors(tmp_path, capsys, value):
    assert main([SEED, "--techniques", value, "--out", str(tmp_path / "o")]) == 2
    one_line(capsys.readouterr().err)
    assert not (tmp_path / "o").exists()


def test_6_numpy_floats_are_not_truncated():
    import numpy as np

    from explainer import PuzzleError, parse_grid

    rows = np.zeros((4, 4))
    rows[0, 0] = 6.7
    with pytest.raises(PuzzleError, match="6.7 at r1c1 is not a whole number"):
        parse_grid(rows)
    assert parse_grid(np.zeros((4, 4))).to_line() == "." * 16


@pytest.mark.parametrize("kind", ["empty", "foreign"])
def test_6_db_stats_never_writes_into_a_file_that_is_not_ours(tmp_path, capsys, kind):
    f = tmp_path / "x.sqlite"
    if kind == "empty":
        f.write_bytes(b"")
    else:
        conn = sqlite3.connect(f)
        conn.execute("CREATE TABLE mine (x)")
        conn.commit()
        conn.close()
    before = f.read_bytes()
    assert main(["db", "stats", "--db", str(f)]) == 2
    one_line(capsys.readouterr().err)
    assert f.read_bytes() == before
    assert sorted(p.name for p in tmp_path.iterdir()) == ["x.sqlite"]


def test_6_plot_path_is_the_file_written(built_db, tmp_path, capsys):
    plot = tmp_path / "plot"
    assert main(["db", "stats", "--db", str(built_db), "--plot", str(plot)]) == 0
    assert f"plot: {plot}" in capsys.readouterr().out
    assert plot.read_bytes()[:4] == b"\x89PNG"
    assert not (tmp_path / "plot.png").exists()


def test_6_huge_bad_line_is_not_stored_whole(tmp_path):
    from explainer.app.bank.db import MAX_BAD_TEXT, puzzle_key

    key = puzzle_key("x" * 10_000_000)
    assert len(key) < MAX_BAD_TEXT and "10000000 characters" in key


def test_6_timeout_lines_name_the_file_and_line(tmp_path, capsys, monkeypatch):
    import explainer.app.bank.build as dbbuild
    from explainer.app.bank.db import error_record

    def fake_build(files, db, **kw):
        kw["on_stored"](error_record(SEED, "p.txt:7", "timeout after 1 s", 1.0))
        return dbbuild.BuildReport() if hasattr(dbbuild, "BuildReport") else type(
            "R", (), {"errors": 1, "summary": lambda self: "1 error"})()

    monkeypatch.setattr(dbbuild, "build", fake_build)
    f = tmp_path / "p.txt"
    f.write_text(SEED + "\n")
    main(["db", "build", str(f), "--db", str(tmp_path / "d.sqlite")])
    assert "p.txt:7: timeout after 1 s" in capsys.readouterr().err


# ---- issue 10: subcommands are not hidden by files of the same name --------------------------

@pytest.mark.parametrize("command", ["db", "solve", "hint", "generate"])
def test_a_file_named_like_a_command_does_not_hide_it(tmp_path, monkeypatch, capsys, command):
    monkeypatch.chdir(tmp_path)
    (tmp_path / command).write_text(SEED + "\n")
    argv = {"db": ["db", "stats", "--db", "none.sqlite"], "solve": ["solve", command],
            "hint": ["hint", SEED], "generate": ["generate", "--size", "4", "--seed", "3"]}[command]
    status = main(argv)
    out, err = capsys.readouterr()
    if command == "db":
        assert status == 2 and "no such database" in err
    else:
        assert status == 0, err
    # and the file itself is explained with the explicit command word
    assert main(["explain", command, "--json-only", "--out", str(tmp_path / "o"), "-q"]) == 0
    assert json.loads((tmp_path / "o" / "steps.json").read_text())["puzzle"] == SEED


def test_steps_json_has_one_writer(tmp_path, capsys):
    from explainer.api import Puzzle
    from render.export import steps_json_text

    for extra in (["--json-only"], ["--no-gif"]):
        out = tmp_path / "-".join(extra)
        assert main([SEED, "--out", str(out), "-q", *extra]) == 0
        assert (out / "steps.json").read_text(encoding="utf-8") == steps_json_text(Puzzle(SEED, with_se_rating=True))


def test_6_file_order_is_file_order_not_completion_order(built_db, tmp_path, capsys):
    from explainer.app.bank.db import PuzzleDB

    conn = sqlite3.connect(built_db)
    rows = conn.execute("SELECT id, text FROM puzzles ORDER BY id").fetchall()
    assert len(rows) == 3
    # stored in completion order: pretend the first stored came from the last line
    lines = {rows[0][0]: 9, rows[1][0]: 2, rows[2][0]: 5}
    for pid, line in lines.items():
        conn.execute("UPDATE puzzles SET source = ? WHERE id = ?", (f"f.txt:{line}", pid))
    conn.commit()
    conn.close()
    want = [rows[1][1], rows[2][1], rows[0][1]]
    with PuzzleDB(built_db) as db:
        assert [d["puzzle"] for d in db.documents()] == want
        seen = []
        for r in db.query():
            if r.puzzle not in seen:
                seen.append(r.puzzle)
        assert seen == want
    out = tmp_path / "e.jsonl"
    assert main(["db", "export", "--db", str(built_db), "-o", str(out)]) == 0
    assert [json.loads(x)["puzzle"] for x in out.read_text().splitlines()] == want


def test_output_of_an_earlier_version_is_foreign_but_recognised(tmp_path, capsys):
    out = tmp_path / "o"
    out.mkdir()
    for name in ("steps.json", "000-INITIAL-GRID.png", "explanation.gif"):
        (out / name).write_bytes(b"old run")
    assert main([SEED, "--json-only", "--out", str(out)]) == 3
    err = capsys.readouterr().err
    one_line(err)
    assert "earlier version" in err
    assert all((out / n).read_bytes() == b"old run" for n in ("steps.json", "000-INITIAL-GRID.png"))


@pytest.mark.parametrize("technique", ["brutal", "trial", "trial lucky"])
def test_4_generate_guessing_target_is_rejected_at_once(capsys, technique):
    start = time.perf_counter()
    assert main(["generate", "--technique", technique]) == 2
    assert time.perf_counter() - start < 5
    one_line(capsys.readouterr().err)


def test_6_read_only_database_is_read_and_not_called_foreign(built_db, monkeypatch, capsys):
    import explainer.app.bank.db as dbmod

    real = dbmod.os.access
    monkeypatch.setattr(dbmod.os, "access", lambda p, mode: False if Path(p) == built_db else real(p, mode))
    before = built_db.read_bytes()
    assert main(["db", "stats", "--db", str(built_db)]) == 0
    assert "3 puzzles" in capsys.readouterr().out
    f = built_db.parent / "more.txt"
    f.write_text(SEED + "\n")
    assert main(["db", "build", str(f), "--db", str(built_db)]) == 3
    err = capsys.readouterr().err
    one_line(err)
    assert "read-only" in err and "not a puzzle database" not in err
    assert built_db.read_bytes() == before
