"""Issue 41, item 2: a GIF one can read. Each frame shows at least as long as its caption takes
to read (about 15 characters a second, 2 s at least); when the story does not fit the time
budget, frames a class can skip are folded (never a reading time shortened), and the fold is
said."""
from __future__ import annotations

import pytest

from explainer import Puzzle
from render.gif import gif_timing
from render.options import RenderOptions
from render.plan import plan_frames, single_names
from tests.conftest import ROOT, SHARED

SEED = "9..3....41...2...5..2...3.12..6.9..36.9.5.............48.9...7........4....81...."
EXAMPLES = ROOT / "examples"


def reading(caption: str) -> int:
    """The least time (ms) to read a caption at 15 characters a second, 2 s at least."""
    return max(2000, round(len(caption) * 1000 / 15))


def check(puzzle: Puzzle, options: RenderOptions, depth: int = 1):
    plan = plan_frames(puzzle, depth=depth)
    shown = [k for k, f in enumerate(plan) if f.level <= options.animated_depth]
    t = gif_timing(plan, shown, options, single_names(puzzle.kinds) | {"singles"})
    for k, ms in t.ms.items():
        if plan[k].kind == "step":
            assert ms >= reading(plan[k].caption) - 50, (plan[k].stem, ms, len(plan[k].caption))
    assert plan and 0 in t.ms and len(plan) - 1 in t.ms  # the start and the solution always shown
    assert sum(t.ms.values()) <= options.gif_max_play * 1000
    assert len(t.ms) + sum(t.folded.values()) == len(shown)
    return plan, t


def test_seed_reads_within_the_budget():
    plan, t = check(Puzzle(SEED), RenderOptions())
    assert t.folded.get("singles", 0) > 0  # the seed at reading speed is longer than 300 s
    assert "folded" in t.words() and "single steps" in t.words()


def test_the_written_gif_says_its_fold(seed_out):
    """The GIF written plays within the budget and the record (the run's summary line) says
    what was folded."""
    from PIL import Image

    out, rec = seed_out
    assert rec.gif_ms <= 300_000 and "folded" in rec.gif_summary and rec.gif_folded
    with Image.open(rec.gif) as gif:
        assert gif.n_frames == rec.gif_frames


def test_no_fold_without_a_budget():
    p = Puzzle(SEED)
    plan = plan_frames(p)
    t = gif_timing(plan, list(range(len(plan))), RenderOptions(gif_max_play=0), single_names(p.kinds))
    assert t.folded == {} and len(t.ms) == len(plan) and "folded" not in t.words()


def test_h2_proof_subframes_fold_first():
    line = (SHARED / "data" / "hardest300.txt").read_text().split("\n")[1].split()[0]
    plan, t = check(Puzzle(line), RenderOptions())
    assert list(t.folded)[0] == "proof"


@pytest.mark.slow
def test_16x16_gif_fits_its_budget(tmp_path):
    """examples/16x16-hard.txt: 516 frames and 364 s before; within 300 s now, every frame kept
    shown as long as its caption takes to read, the fold said in the run's summary line."""
    src = EXAMPLES / "16x16-hard.txt"
    line = [x for x in src.read_text().split("\n") if x.strip() and not x.startswith("#")][0].split()[0]
    check(Puzzle(line), RenderOptions())
