"""Files written for one puzzle (RENDERING.md)."""
import json

import pytest
from PIL import Image

from render.export import write_puzzle
from render.plan import fold_singles, normalise_only
from techniques import REGISTRY


def test_full_set(seed_puzzle, seed_out):
    out, rec = seed_out
    steps = seed_puzzle.steps
    names = sorted(p.name for p in out.glob("[0-9]*.png"))
    assert len(names) == len(steps) + 2 == len(rec.frames)
    assert names[0] == "000-INITIAL-GRID.png"
    assert names[-1] == f"{len(steps) + 1:03d}-SOLUTION.png"
    assert names[1] == f"001-{steps[0].technique.upper().replace(' ', '-')}.png"
    k = seed_puzzle.steps_using("locked candidate")[0]
    assert f"{k + 1:03d}-LOCKED-CANDIDATE.png" in names
    assert (out / "EXPLANATIONS-01.png").exists() and rec.contact_pages
    with Image.open(rec.gif) as gif:
        # the seed read at 15 characters a second is longer than the 300 s budget: steps are folded
        assert gif.n_frames == rec.gif_frames <= len(steps) + 2
        assert gif.n_frames + sum(rec.gif_folded.values()) >= len(steps) + 2 - 4  # identical frames merge
        durations = []
        for i in range(gif.n_frames):
            gif.seek(i)
            durations.append(gif.info["duration"])
        assert durations[0] == 2000  # the initial grid: --gif-hold (steps: test_export_wave2)
        assert gif.info.get("loop") == 0
    assert rec.gif_bytes < 2_000_000
    doc = json.loads((out / "steps.json").read_text())
    assert doc["format"] == "sudoku-explainer/steps@1" and len(doc["steps"]) == len(steps)


def test_json_only(seed_puzzle, tmp_path):
    rec = write_puzzle(seed_puzzle, tmp_path, frames=False, gif=False, contact=False)
    assert [p.name for p in tmp_path.iterdir()] == ["steps.json"]
    assert rec.steps_json and not rec.frames


def test_group_singles_and_only(seed_puzzle, tmp_path):
    folded = fold_singles(seed_puzzle.steps, seed_puzzle.kinds)
    assert len(folded) < len(seed_puzzle.steps)
    assert sum(len(idx) for idx, _ in folded) == len(seed_puzzle.steps)
    groups = [(idx, s) for idx, s in folded if s.technique == "singles"]
    assert groups and all(len(s.place) == len(idx) >= 2 for idx, s in groups)
    rec = write_puzzle(seed_puzzle, tmp_path / "g", group_singles=True, gif=False, contact=False)
    assert len(rec.frames) == len(folded) + 2
    assert any(p.endswith("-SINGLES.png") for p in rec.frames)

    rec = write_puzzle(seed_puzzle, tmp_path / "o", only=["locked-candidate"], gif=True, contact=False,
                       gif_loop=None, gif_duration=300, gif_hold=900)
    locked = seed_puzzle.steps_using("locked candidate")
    assert len(rec.frames) == len(locked) + 2
    assert all("LOCKED-CANDIDATE" in p for p in rec.frames[1:-1])
    with Image.open(rec.gif) as gif:
        assert "loop" not in gif.info  # plays once


def test_only_aliases():
    assert normalise_only("naked pair", REGISTRY) >= {"naked tuple"}
    assert normalise_only(["singles"], REGISTRY) == {"single position", "single candidate"}
    assert normalise_only(None, REGISTRY) is None


def test_svg_french_palette(seed_puzzle, tmp_path):
    rec = write_puzzle(seed_puzzle, tmp_path, fmt="svg", only="hidden tuple", lang="fr", theme="colorblind",
                       gif=False, contact=True, size=500)
    assert all(p.endswith(".svg") for p in rec.frames)
    svg = open(rec.frames[1], encoding="utf-8").read()
    assert "<svg" in svg[:500]
    with Image.open(rec.contact) as sheet:
        assert sheet.size[0] <= 3 * 501 + 4 * 6
    doc = json.loads(open(rec.steps_json).read())
    assert doc["steps"][0]["translations"]["fr"]


def test_progress_callback(brutal_puzzle, tmp_path):
    calls = []
    write_puzzle(brutal_puzzle, tmp_path, only="brutal", gif=False, contact=False,
                 progress=lambda done, total: calls.append((done, total)))
    assert calls and calls[-1][0] == calls[-1][1] == 3


def test_bad_options(seed_puzzle, tmp_path):
    with pytest.raises(ValueError):
        write_puzzle(seed_puzzle, tmp_path, fmt="jpg")
    with pytest.raises(ValueError):
        write_puzzle(seed_puzzle, tmp_path, lang="de")
    with pytest.raises(ValueError):
        write_puzzle(seed_puzzle, tmp_path, theme="rainbow")
