"""How many worker processes draw a puzzle's frames when the options do not say (issue 43):
none for a short job (forking costs more CPU than it saves), one per core for a long one or
beside the workbook."""
from __future__ import annotations

from pathlib import Path
from types import SimpleNamespace
from typing import Any

import pytest

from render import export
from render.export import FRAME_SECONDS, POOL_MIN_SECONDS, chosen_exporters, pool_size
from render.job import Job
from render.options import RenderOptions


def _job(n: int, frames: int) -> Any:
    puzzle = SimpleNamespace(grid=SimpleNamespace(n=n))
    return Job(puzzle, Path("."), RenderOptions(), plan=[None] * frames)  # type: ignore[arg-type, list-item]


@pytest.fixture(autouse=True)
def _four_cores(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(export, "default_workers", lambda: 4)


def test_a_short_job_is_drawn_without_workers() -> None:
    frames = int(POOL_MIN_SECONDS / FRAME_SECONDS[9]) - 1
    assert pool_size(_job(9, frames), chosen_exporters(RenderOptions())) == 1


def test_a_long_job_is_drawn_by_one_worker_a_core() -> None:
    assert pool_size(_job(9, int(POOL_MIN_SECONDS / FRAME_SECONDS[9]) + 1), chosen_exporters(RenderOptions())) == 4
    assert pool_size(_job(25, 20), chosen_exporters(RenderOptions())) == 4


def test_the_workbook_runs_beside_the_frames_whatever_their_number() -> None:
    assert pool_size(_job(9, 3), chosen_exporters(RenderOptions(pdf=True))) == 4


def test_workers_given_in_the_options_are_kept(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    from explainer import Puzzle

    seen: list[int] = []
    original = export.write_exporters

    def spy(exporters: Any, job: Any, rec: Any, workers: int, progress: Any = None) -> None:
        seen.append(workers)
        original(exporters, job, rec, workers, progress)

    monkeypatch.setattr(export, "write_exporters", spy)
    puzzle = Puzzle("3..22.....4.....")
    export.write_puzzle(puzzle, tmp_path / "a", workers=3, gif=False)
    export.write_puzzle(puzzle, tmp_path / "b", gif=False)
    assert seen == [3, 1]
    assert sorted(p.name for p in (tmp_path / "a").iterdir()) == sorted(p.name for p in (tmp_path / "b").iterdir())
