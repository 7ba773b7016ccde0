"""What a drawing worker sends back for each frame (``Pixels``): the contact sheet's tile for
every frame, the GIF's thumbnail only for the frames the GIF shows (issue 43, item 4)."""
from __future__ import annotations

from explainer import Puzzle
from render.export import _plan
from render.job import Job
from render.options import RenderOptions
from render.workers import render_frames
from tests.conftest import SEED


def test_thumbnails_only_for_the_frames_shown_and_a_tile_for_every_frame(tmp_path):
    p = Puzzle(SEED, max_steps=5)
    options = RenderOptions()
    job = Job(p, tmp_path, options, plan=_plan(p, options))
    job.frame_paths = [None] * len(job.plan)
    job.thumb, job.tile, job.thumb_frames = 1, (200, 180, 800), frozenset({0, 2})
    got = dict(render_frames(job, workers=1))
    assert sorted(got) == list(range(len(job.plan)))
    for k, pixels in got.items():
        assert pixels.tile_size == (200, 180) and len(pixels.tile) == 200 * 180
        assert bool(pixels.thumb) == (k in job.thumb_frames), k
