"""What the exporters of one puzzle share: the job, the record of what was written, the
exporter's interface, and the guard every path passes before anything is written."""
from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from explainer.model.explained import Explained

from .options import RenderOptions
from .plan import Frame


@dataclass
class Written:
    """What write_puzzle wrote (paths are strings)."""

    out_dir: str
    frames: list[str] = field(default_factory=list)
    contact: str | None = None  # the contact sheet's first page
    contact_pages: list[str] = field(default_factory=list)
    gif: str | None = None
    steps_json: str | None = None
    html: str | None = None
    pdf: str | None = None
    pdf_pages: int = 0
    seconds: float = 0.0
    gif_bytes: int = 0
    files: list[str] = field(default_factory=list)  # every file written, in order

    def as_dict(self) -> dict[str, Any]:
        return dict(self.__dict__)


# A guard is called with every path before anything is written and may raise (the command line
# refuses to overwrite files that are not its own).
Guard = Callable[[Path], None]


@dataclass
class Job:
    """What the exporters of one puzzle share: the puzzle, the folder, the options and the frames."""

    puzzle: Explained
    out: Path
    options: RenderOptions
    plan: list[Frame] = field(default_factory=list)
    thumbs: list[Any] = field(default_factory=list)
    frame_paths: list[str | None] = field(default_factory=list)


class Exporter:
    """One output of a puzzle. ``patterns`` are glob patterns of every name it may write
    (for telling our files from others'); ``names(job)`` the exact names it will write."""

    key = ""
    patterns: tuple[str, ...] = ()
    needs_plan = False  # needs the planned frames (names or pictures)
    needs_thumbs = False  # needs the reduced frames (contact sheet, GIF, inlined viewer)

    def names(self, job: Job) -> list[str]:
        return list(self.patterns)

    def write(self, job: Job, rec: Written) -> list[Path]:
        raise NotImplementedError
