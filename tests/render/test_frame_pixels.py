"""What a drawing worker sends back for each frame (``Pixels``): the contact sheet's tile for
every frame, the GIF's thumbnail only for the frames the GIF shows (issue 43, item 4)."""
from __future__ import annotations

from explainer import Puzzle
from render.export import _plan
from render.job import Job
from render.options import RenderOptions
from render.workers import render_frames
from tests.conftest import SEED


def _job(tmp_path, steps: int, shown: frozenset[int]) -> Job:
    """The seed's first ``steps`` steps as a job that writes no frame file: a tile for every
    frame, a thumbnail for the frames ``shown``."""
    p = Puzzle(SEED, max_steps=steps)
    options = RenderOptions()
    job = Job(p, tmp_path, options, plan=_plan(p, options))
    job.frame_paths = [None] * len(job.plan)
    job.thumb, job.tile, job.thumb_frames = 1, (200, 180, 800), shown
    return job


def test_thumbnails_only_for_the_frames_shown_and_a_tile_for_every_frame(tmp_path):
    job = _job(tmp_path, 5, frozenset({0, 2}))
    got = dict(render_frames(job, workers=1))
    assert sorted(got) == list(range(len(job.plan)))
    for k, pixels in got.items():
        assert pixels.tile_size == (200, 180) and len(pixels.tile) == 200 * 180
        assert bool(pixels.thumb) == (k in job.thumb_frames), k


def test_frames_drawn_in_workers_send_the_tiles_drawn_here(tmp_path):
    """The same tiles, legends and thumbnails from two forked workers (each tile through its
    slot of shared memory, ``TileSlots``) as from the frames drawn in this process."""
    import multiprocessing as mp

    import pytest

    if "fork" not in mp.get_all_start_methods():
        pytest.skip("no fork here")
    job = _job(tmp_path, 8, frozenset({0, 3}))
    here = dict(render_frames(job, workers=1))
    forked = dict(render_frames(job, workers=2))
    assert len(here) == len(job.plan) >= 8 and here == forked
