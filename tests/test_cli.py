"""The command line as a user runs it: exit status, one-line errors, no traceback."""
import json
import os
import re
import subprocess
import sys

import pytest

from tests.conftest import ROOT, SEED


def run(*args, stdin=None, cwd=None):
    env = dict(os.environ, PYTHONPATH=str(ROOT))
    return subprocess.run([sys.executable, "-m", "explainer.app.cli", *map(str, args)], capture_output=True,
                          text=True, input=stdin, cwd=cwd or ROOT, env=env)


def one_line_error(result, *fragments):
    assert "Traceback" not in result.stderr, result.stderr
    errors = [line for line in result.stderr.splitlines() if "error:" in line]
    assert errors, result.stderr
    for fragment in fragments:
        assert any(fragment in line for line in errors), (fragment, result.stderr)


def test_help_explains_everything():
    r = run("--help")
    assert r.returncode == 0
    for word in ("--out", "--no-frames", "--no-gif", "--json-only", "--techniques", "solve", "generate",
                 "hint", "db", "exit status"):
        assert word in r.stdout


def test_json_only_writes_steps(tmp_path):
    r = run(ROOT / "examples" / "seed.txt", "--json-only", "--out", tmp_path / "o")
    assert r.returncode == 0, r.stderr
    doc = json.loads((tmp_path / "o" / "steps.json").read_text())
    assert doc["puzzle"] == SEED and doc["complete"]
    assert not list((tmp_path / "o").glob("*.png"))


def test_puzzle_string_and_stdin(tmp_path):
    r = run(SEED, "--json-only", "--out", tmp_path / "a")
    assert r.returncode == 0 and (tmp_path / "a" / "steps.json").exists()
    r = run("-", "--json-only", "--out", tmp_path / "b", stdin=SEED + "\n")
    assert r.returncode == 0 and (tmp_path / "b" / "steps.json").exists()


def test_bad_puzzles_are_reported_and_others_explained(tmp_path):
    out = tmp_path / "o"
    r = run(ROOT / "examples" / "bad.txt", "--json-only", "--out", out)
    assert r.returncode == 2
    one_line_error(r, "bad.txt:3: 80 cells", "bad.txt:4: two 3s in row 9 (r9c7 and r9c8)")
    index = json.loads((out / "index.json").read_text())
    assert [("error" in e) for e in index] == [False, True, True, False]
    assert (out / "001" / "steps.json").exists() and (out / "004" / "steps.json").exists()


@pytest.mark.parametrize("content, fragment", [
    ("1" * 81, "two 1s in row 1"),
    ("." * 81, "more than one solution"),
    ("12345678." + "........9" + "." * 63, "no solution"),
    ("x" * 81, "unknown character 'x'"),
    ("A" + "." * 80, "too large"),
    ("", "no puzzle in file"),
])
def test_each_bad_input_kind(tmp_path, content, fragment):
    f = tmp_path / "p.txt"
    f.write_text(content + "\n")
    r = run(f, "--json-only", "--out", tmp_path / "o")
    assert r.returncode == 2
    one_line_error(r, fragment, "p.txt")


def test_missing_file_and_folder(tmp_path):
    r = run(tmp_path / "nope.txt")
    assert r.returncode == 2
    one_line_error(r, "nope.txt: no such file")
    r = run(tmp_path)
    assert r.returncode == 2
    one_line_error(r, "is a directory")


def test_unwritable_output(tmp_path):
    blocker = tmp_path / "file"
    blocker.write_text("x")
    r = run(ROOT / "examples" / "seed.txt", "--json-only", "--out", blocker / "sub")
    assert r.returncode == 3
    one_line_error(r, "cannot write")


def test_never_mixes_with_foreign_files(tmp_path):
    out = tmp_path / "o"
    out.mkdir()
    (out / "notes.txt").write_text("mine")
    r = run(ROOT / "examples" / "seed.txt", "--json-only", "--out", out)
    assert r.returncode == 3
    one_line_error(r, "--force")
    r = run(ROOT / "examples" / "seed.txt", "--json-only", "--out", out, "--force")
    assert r.returncode == 0 and (out / "notes.txt").read_text() == "mine"


def test_rerun_replaces_previous_output(tmp_path):
    out = tmp_path / "o"
    assert run(ROOT / "examples" / "seed.txt", "--json-only", "--out", out).returncode == 0
    again = run(ROOT / "examples" / "easy.txt", "--json-only", "--out", out)
    assert again.returncode == 0
    assert json.loads((out / "steps.json").read_text())["puzzle"].startswith("..3.2.6")
    manifest = json.loads((out / ".explain-sudoku-manifest.json").read_text())
    assert list(manifest["files"]) == ["steps.json"]
    # frames of the first run that the second does not write again are removed, and it says so
    assert run(ROOT / "examples" / "seed.txt", "--no-gif", "--out", out, "--size", "300").returncode == 0
    third = run(ROOT / "examples" / "easy.txt", "--json-only", "--out", out)
    assert third.returncode == 0 and "files of the previous output" in third.stderr
    assert sorted(p.name for p in out.iterdir()) == [".explain-sudoku-manifest.json", "steps.json"]


def test_unknown_technique(tmp_path):
    r = run(ROOT / "examples" / "seed.txt", "--techniques", "magic", "--out", tmp_path / "o")
    assert r.returncode == 2
    one_line_error(r, "unknown technique 'magic'")


def test_incomplete_is_reported(tmp_path):
    r = run(ROOT / "examples" / "seed.txt", "--json-only", "--techniques", "single position",
            "--out", tmp_path / "o")
    assert r.returncode == 0
    assert "could not finish" in r.stderr
    assert json.loads((tmp_path / "o" / "steps.json").read_text())["complete"] is False


def test_no_brutal_drops_brutal(tmp_path):
    r = run(ROOT / "examples" / "seed.txt", "--json-only", "--techniques", "single position,brutal",
            "--no-brutal", "--out", tmp_path / "o")
    assert r.returncode == 0 and "could not finish" in r.stderr
    doc = json.loads((tmp_path / "o" / "steps.json").read_text())
    assert doc["complete"] is False and "brutal" not in doc["statistics"]


def test_default_output_folder(tmp_path):
    (tmp_path / "mine.txt").write_text(SEED + "\n")
    r = run(tmp_path / "mine.txt", "--json-only", cwd=tmp_path)
    assert r.returncode == 0, r.stderr
    assert (tmp_path / "output" / "mine" / "steps.json").exists()


@pytest.mark.parametrize("example", ["4x4.txt", "seed.txt"])
def test_end_to_end_frames_gif_contact_sheet(tmp_path, example):
    from PIL import Image

    src = ROOT / "examples" / example
    out = tmp_path / "o"
    r = run(src, "--out", out)
    assert r.returncode == 0, r.stderr
    folders = sorted(p for p in out.iterdir() if p.is_dir()) or [out]
    for folder in folders:
        doc = json.loads((folder / "steps.json").read_text())
        frames = sorted(folder.glob("[0-9][0-9][0-9]-*.png"))
        assert len(frames) == len(doc["steps"]) + 2
        assert frames[0].name == "000-INITIAL-GRID.png" and frames[-1].name.endswith("-SOLUTION.png")
        assert frames[1].name == "001-" + doc["steps"][0]["technique"].upper().replace(" ", "-") + ".png"
        assert (folder / "EXPLANATIONS-01.png").exists()
        (gif,) = folder.glob("*.gif")
        with Image.open(gif) as im:
            # past the 300 s budget at reading speed, frames are folded and the summary line says how many
            folded = re.search(r"folded to fit its time: (.*)\)$", r.stdout, re.M)
            gone = sum(int(k) for k in re.findall(r"(?:^|, )(\d+) ", folded.group(1))) if folded else 0
            assert im.n_frames + gone == len(doc["steps"]) + 2


def test_theme_and_its_other_name_palette_give_one_theme() -> None:
    """One word inside the code (theme): ``--theme`` and ``--palette`` are the same option."""
    from explainer.app.cli import build_parser, with_command
    from render.theme import THEMES

    for option in ("--theme", "--palette"):
        args = build_parser().parse_args(with_command([SEED, option, "colourblind"]))
        assert args.theme is THEMES["colorblind"]


def test_steps_json_gives_se_rating_beside_the_path_rating(tmp_path) -> None:
    """The main job's steps.json labels the two numbers apart: ``rating`` (this path's) and, on a
    9×9, ``se_rating`` (the puzzle as Sudoku Explainer rates it, the order that gave it)."""
    from explainer.app.cli import main

    assert main([SEED, "--out", str(tmp_path / "o"), "--json-only", "-q"]) == 0
    doc = json.loads((tmp_path / "o" / "steps.json").read_text())
    assert doc["rating"]["er"] == 8.2 and doc["se_rating"]["er"] == 7.4 and doc["se_rating"]["order"] == "se"
    assert main(["3..22.....4.....", "--out", str(tmp_path / "four"), "--json-only", "-q"]) == 0
    assert "se_rating" not in json.loads((tmp_path / "four" / "steps.json").read_text())  # SE rates 9×9 only
