"""Every example puzzle of the README's sizes renders its frames (issue 23: the README's
16×16 example ended in an IndexError past 26 proof sub-frames; ``--only trial`` likewise),
and every frame written is legible shown 1024 pixels wide."""
from __future__ import annotations

import pytest

from explainer import Puzzle
from render.export import write_puzzle
from render.frame import Layout, frame_metrics
from render.plan import plan_frames
from tests.conftest import ROOT

EXAMPLES = {"seed": 9, "4x4": 4, "16x16": 16, "25x25": 25}


def _first(name: str) -> str:
    lines = [x.split()[0] for x in (ROOT / "examples" / f"{name}.txt").read_text().splitlines()
             if x.strip() and not x.startswith("#")]
    return lines[0]


@pytest.fixture(scope="module")
def puzzles() -> dict[str, Puzzle]:
    return {name: Puzzle(_first(name)) for name in EXAMPLES}


# the 16×16 example's hundreds of frames take half a minute: with --slow; its trial steps (the
# frames with the most proof sub-frames, where issue 23 broke) are drawn in every run, below
@pytest.mark.parametrize("name", [pytest.param(x, marks=pytest.mark.slow) if x == "16x16" else x
                                  for x in sorted(EXAMPLES)])
def test_example_frames_render(name, puzzles, tmp_path):
    p = puzzles[name]
    # small pixels (the drawing is the same at any size; legibility is measured below on the
    # default layout): a 25×25 puzzle's 250 frames in seconds, not minutes
    rec = write_puzzle(p, tmp_path, contact=False, gif=False, size=600)
    written = sorted(x for x in rec.frames if x.endswith(".png"))
    plan = plan_frames(p)
    assert len(written) == len(plan) and len(written) >= len(p.steps) + 2
    names = [x.rsplit("/", 1)[-1] for x in written]
    assert names == sorted(names)  # file order is frame order, sub-frames after their step
    layout = Layout(p.n)
    for f in plan:
        met = frame_metrics(f.scene, layout)
        assert met["digit"] >= 12 and met["caption"] >= 12, (name, f.stem, met)


def test_only_trial_on_16x16(puzzles, tmp_path):
    p = puzzles["16x16"]
    if "trial" not in p.statistics:
        pytest.skip("no trial step")
    rec = write_puzzle(p, tmp_path, contact=False, gif=False, only=("trial",), size=600)
    assert any("TRIAL" in x for x in rec.frames)
