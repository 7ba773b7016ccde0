"""What the exporters of one puzzle share: the job, the record of what was written, the
exporter's interface (a file written at once, or a ``Sink`` fed each frame as it is drawn),
the pixels a worker sends for a frame, and the guard every path passes before anything is
written."""
from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Protocol

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
    gif_frames: int = 0  # frames stored in the GIF (identical neighbours merged into one)
    gif_ms: int = 0  # the GIF's play time
    gif_folded: dict[str, int] = field(default_factory=dict)  # frames left out to fit the budget, by kind
    gif_summary: str = ""  # the GIF's time and what was folded, in words (the run's summary line)
    video: str | None = None
    files: list[str] = field(default_factory=list)  # every file written, in order

    def as_dict(self) -> dict[str, Any]:
        return dict(self.__dict__)


# A guard is called with every path before anything is written and may raise (the command line
# refuses to overwrite files that are not its own).
Guard = Callable[[Path], None]


@dataclass
class Job:
    """What the exporters of one puzzle share: the puzzle, the folder, the options and the
    frames (``plan``; ``frame_paths``: each frame's file, None when frame files are not
    written; ``thumb``: the factor reducing a frame to the GIF's size, 0 when no exporter
    needs reduced frames; ``video``: the factor reducing it to the video's, 0 without one)."""

    puzzle: Explained
    out: Path
    options: RenderOptions
    plan: list[Frame] = field(default_factory=list)
    frame_paths: list[str | None] = field(default_factory=list)
    thumb: int = 0
    video: int = 0
    # the contact sheet's tile: (width, height) in pixels and the frame's rows it shows (the
    # frame without its caption strip); (0, 0, 0) when no contact sheet is written
    tile: tuple[int, int, int] = (0, 0, 0)
    # the frames whose thumbnail is wanted (the GIF's: it shows few of a long run's frames,
    # the 16x16 example 17 of 743); None: every frame's (the inlined viewer)
    thumb_frames: frozenset[int] | None = None
    # what an exporter works out once for the job and reads again (the contact sheet's layout:
    # it names the pages, then places the frames), keyed by the exporter
    memo: dict[str, Any] = field(default_factory=dict)


@dataclass(frozen=True)
class Pixels:
    """What a worker sends back for one frame, beside the frame file it wrote: the frame
    reduced for the GIF, contact sheet and viewer (palette indices on the theme's
    ``THUMB_STEPS`` palette, ``thumb_size`` pixels), for the video (indices on the
    frame's own palette) and the contact sheet's tile (``Job.tile``: the frame without its
    caption strip, reduced to the tile's size, indices on the frame's own palette). Empty
    when not asked for. ``legend``: the frame's legend, read off
    the scene the worker laid out (the viewer shows it without laying the scene out again)."""

    thumb: bytes = b""
    thumb_size: tuple[int, int] = (0, 0)
    video: bytes = b""
    video_size: tuple[int, int] = (0, 0)
    legend: str = ""
    tile: bytes = b""
    tile_size: tuple[int, int] = (0, 0)


class Sink(Protocol):
    """An output fed the frames in order as they are drawn, holding at most what it needs
    for the next one (a GIF its last frame, the contact sheet its current page)."""

    def add(self, k: int, frame: Frame, pixels: Pixels) -> None: ...

    def finish(self, rec: Written) -> list[Path]:
        """Close the output; the files written (also recorded in ``rec``)."""
        ...

    def abort(self) -> None:
        """Close what is open after an error or an interrupt (a file cut short stays, listed)."""
        ...


class Exporter:
    """One output of a puzzle. ``patterns`` are glob patterns of every name it may write
    (for telling our files from others'); ``names(job)`` the exact names it will write.
    ``write`` writes them at once; an exporter that ``streams`` instead opens a ``Sink``
    (``start``) that takes each frame as it is drawn."""

    key = ""
    patterns: tuple[str, ...] = ()
    needs_plan = False  # needs the planned frames (names or pictures)
    needs_thumbs = False  # needs the reduced frames (contact sheet, GIF, inlined viewer)
    streams = False  # fed the frames as they are drawn (``start``), not written at once

    def names(self, job: Job) -> list[str]:
        return list(self.patterns)

    def write(self, job: Job, rec: Written) -> list[Path]:
        raise NotImplementedError

    def start(self, job: Job) -> Sink:
        raise NotImplementedError
