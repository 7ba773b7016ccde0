"""Write one explained puzzle: frames, contact sheet, GIF, video, steps.json (RENDERING.md).

Each output is an ``Exporter`` that declares the names it writes and writes
them; ``write_puzzle`` runs the exporters the ``RenderOptions`` choose: it
plans the frames (``plan``: names, titles and captions, up to the level of
detail asked), checks every name it will write with the guard, then draws the
frames once, in worker processes (``workers``; a short job in this process:
``pool_size``), each frame going in order to
the exporters that take frames as they come (the contact sheet's pages:
``sheet``; the GIF: ``gif``; the video: ``video``; the viewer), which write it
at once: no output holds every frame. The workbook draws its own frames (vector
by default, raster on demand) beside them.
"""
from __future__ import annotations

import json
import os
import tempfile
import time
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

from explainer.model.explained import Explained
from explainer.model.grid import PuzzleError, PuzzleTypeError, type_name

from .gif import GIF_WIDTH, Timing, gif_durations, gif_timing, open_gif
from .job import Exporter, Guard, Job, Pixels, Sink, Written
from .options import RenderOptions
from .plan import Frame, plan_frames
from .sheet import ContactSheet, SheetLayout, sheet_layout, sheet_names, tile_geometry
from .workers import PARALLEL_EXPORTERS, default_workers, palette_image, write_exporters

# ---- exporters: each output declares the files it writes, then writes them -------------

class StepsJsonExporter(Exporter):
    """``steps.json``: ``Puzzle.to_json()`` (STEPS_JSON.md), the one writer of that file."""

    key = "steps_json"
    patterns = ("steps.json",)

    def write(self, job: Job, rec: Written) -> list[Path]:
        path = job.out / "steps.json"
        path.write_text(steps_json_text(job.puzzle), encoding="utf-8")
        rec.steps_json = str(path)
        return [path]


class _Done:
    """A sink whose files are written elsewhere (by the workers) or at its end."""

    def __init__(self, finish: Callable[[Written], list[Path]]) -> None:
        self._finish = finish

    def add(self, k: int, frame: Frame, pixels: Pixels) -> None:
        pass

    def finish(self, rec: Written) -> list[Path]:
        return self._finish(rec)

    def abort(self) -> None:
        pass


class FramesExporter(Exporter):
    """``NNN-TECHNIQUE.png`` (or .svg), written by the workers as they draw; a forcing step's
    proof sub-frames ``NNNa-TECHNIQUE.png``, ``NNNb-…`` follow its frame."""

    key = "frames"
    # ``*`` after the number also matches a sub-frame's letters (017a-…, 017aa-…)
    patterns = ("[0-9][0-9][0-9]*-*.png", "[0-9][0-9][0-9]*-*.svg")
    needs_plan = streams = True

    def names(self, job: Job) -> list[str]:
        return [f"{f.stem}.{job.options.fmt}" for f in job.plan]

    def start(self, job: Job) -> Sink:
        def finish(rec: Written) -> list[Path]:
            rec.frames = [p for p in job.frame_paths if p]
            return [Path(p) for p in rec.frames]
        return _Done(finish)


def _thumb(job: Job, pixels: Pixels) -> Any:
    """A frame reduced for the GIF and the contact sheet, as a palette image."""
    from PIL import Image

    t = Image.frombytes("P", pixels.thumb_size, pixels.thumb)
    t.putpalette(palette_image(job.options.theme).getpalette())
    return t


def _caption_crop(job: Job) -> float:
    """The fraction of a frame's height its caption strip takes (at its bottom)."""
    from .frame import Layout

    lay = Layout(job.puzzle.grid.n)
    return lay.caption_in / lay.height_in


class ContactSheetExporter(Exporter):
    """``EXPLANATIONS-01.png``, ``-02`` …: A4 portrait pages at 150 dpi, numbered, with each
    frame's caption written under it at 9.5 pt (print a page at A4: the captions are >= 9 pt),
    each page written when its last frame is drawn. ``EXPLANATIONS.png`` (one endless strip)
    was the name before the pages."""

    key = "contact"
    patterns = ("EXPLANATIONS-[0-9][0-9].png", "EXPLANATIONS-[0-9][0-9][0-9].png",
                "EXPLANATIONS-[0-9][0-9][0-9][0-9].png", "EXPLANATIONS.png")
    # its tiles come from the frames' own pixels, reduced in the workers (``Job.tile``)
    needs_plan = streams = True

    def layout(self, job: Job) -> SheetLayout:
        """The sheet's layout of the job's plan, worked out once (wrapping every caption is most
        of its cost) for the names and then the pages."""
        key = (len(job.plan), job.options.columns)
        kept = job.memo.get(self.key)
        if kept is None or kept[0] != key:
            kept = job.memo[self.key] = (key, sheet_layout(job.plan, job.puzzle.grid.n, job.options.columns))
        lay: SheetLayout = kept[1]
        return lay

    def names(self, job: Job) -> list[str]:
        return sheet_names(len(self.layout(job).pages))

    def tile(self, job: Job, frame_size: tuple[int, int]) -> tuple[int, int, int]:
        """The tile the workers reduce each frame to (``Job.tile``)."""
        return tile_geometry(self.layout(job), frame_size, _caption_crop(job))

    def start(self, job: Job) -> Sink:
        from PIL import Image

        exporter = self

        class Pages:
            def __init__(self) -> None:
                paths = [job.out / name for name in exporter.names(job)]
                self.sheet = ContactSheet(job.plan, job.puzzle.grid.n, job.options.theme, paths,
                                          columns=job.options.columns, layout=exporter.layout(job))

            def add(self, k: int, frame: Frame, pixels: Pixels) -> None:
                # over the tile's own bytes, no copy (a new image a frame cost 0.5 ms in the
                # run: its memory taken and cleared each time)
                self.sheet.add(k, Image.frombuffer("L", pixels.tile_size, pixels.tile, "raw", "L", 0, 1))

            def finish(self, rec: Written) -> list[Path]:
                paths = [Path(p) for p in self.sheet.written]
                rec.contact = str(paths[0]) if paths else None
                rec.contact_pages = [str(p) for p in paths]
                return paths

            def abort(self) -> None:
                pass

        return Pages()


def gif_frames(job: Job) -> list[int]:
    """The indices of the plan's frames the GIF (and the video) may show: up to level
    ``gif_proof_depth`` (the first sub-frames of a proof by default)."""
    depth = job.options.animated_depth
    return [k for k, f in enumerate(job.plan) if f.level <= depth]


def animation_timing(job: Job) -> Timing:
    """The frames the GIF and the video show, each for its reading time, with what was folded
    to keep within ``gif_max_play`` (``gif.gif_timing``): one timing for both."""
    from .plan import single_names

    return gif_timing(job.plan, gif_frames(job), job.options, single_names(job.puzzle.kinds) | {"singles"})


class _Animation:
    """A sink feeding the frames the GIF or the video shows to its encoder (opened on the first
    frame, when its size is known: ``open_writer(width, height)``), each with its time."""

    def __init__(self, job: Job, open_writer: Callable[[tuple[int, int]], Any], which: str) -> None:
        self.timing = animation_timing(job)
        self.ms = self.timing.ms
        self.open_writer = open_writer
        self.which = which  # the Pixels the encoder takes: "thumb" or "video"
        self.writer: Any = None

    def add(self, k: int, frame: Frame, pixels: Pixels) -> None:
        import numpy as np

        if k not in self.ms:
            return
        data, (w, h) = ((pixels.thumb, pixels.thumb_size) if self.which == "thumb"
                        else (pixels.video, pixels.video_size))
        if self.writer is None:
            self.writer = self.open_writer((w, h))
        self.writer.write(np.frombuffer(data, dtype=np.uint8).reshape(h, w), duration=self.ms[k])

    def close(self) -> Any:
        writer, self.writer = self.writer, None
        if writer is not None:
            writer.close()
        return writer

    def abort(self) -> None:
        self.close()


class GifExporter(Exporter):
    """``explanation.gif``: the steps and the first sub-frames of their proofs, each encoded as it
    is drawn (``gif.GifStream``, through imageio)."""

    key = "gif"
    patterns = ("explanation.gif",)
    needs_plan = needs_thumbs = streams = True

    def start(self, job: Job) -> Sink:
        from .frame import THUMB_STEPS, palette_bytes

        path = job.out / "explanation.gif"
        palette = palette_bytes(job.options.theme, THUMB_STEPS)

        class Gif(_Animation):
            def finish(self, rec: Written) -> list[Path]:
                writer = self.close()
                if writer is not None:
                    rec.gif_frames, rec.gif_ms = writer.frames, writer.ms
                rec.gif_folded = dict(self.timing.folded)
                if self.timing.folded or self.timing.over:
                    rec.gif_summary = self.timing.words()
                rec.gif_bytes = os.path.getsize(path)
                rec.gif = str(path)
                return [path]

        return Gif(job, lambda size: open_gif(str(path), size, palette, job.options.gif_loop), "thumb")


class VideoExporter(Exporter):
    """``--video NAME``: the GIF's frames and timing as an H.264 film (``video``), in the output
    folder, each frame encoded as it is drawn."""

    key = "video"
    patterns = ("*.mp4", "*.mkv", "*.mov")
    needs_plan = streams = True

    def names(self, job: Job) -> list[str]:
        from .video import partial_name

        # the partial name is claimed too: a film cut short by a kill is the run's, removed by the next
        return [job.options.video, partial_name(job.options.video)] if job.options.video else []

    def start(self, job: Job) -> Sink:
        from .frame import palette_bytes
        from .video import VideoStream, partial_name

        assert job.options.video is not None  # chosen only with a video name
        path = job.out / job.options.video
        partial = job.out / partial_name(job.options.video)  # renamed to ``path`` once complete
        palette = palette_bytes(job.options.theme)

        class Film(_Animation):
            def finish(self, rec: Written) -> list[Path]:
                self.close()
                os.replace(partial, path)
                rec.video = str(path)
                return [path]

            def abort(self) -> None:
                try:
                    self.close()
                finally:
                    partial.unlink(missing_ok=True)

        return Film(job, lambda size: VideoStream(str(partial), palette), "video")


class HtmlExporter(Exporter):
    """``index.html``, the step viewer (viewer.py): with ``html_standalone`` (or when no frame
    files are written) the frames are inside the page as data URIs and it works copied alone;
    otherwise it shows the frame files beside it and says so. Inlined reduced frames are kept
    on disk (a temporary file) until the page is written, not in memory."""

    key = "html"
    patterns = ("index.html",)
    needs_plan = streams = True

    def start(self, job: Job) -> Sink:
        from .viewer import data_uri, file_data_uri, write_viewer

        o = job.options

        class Page:
            def __init__(self) -> None:
                self.spool = None if o.frames else tempfile.TemporaryFile()
                self.offsets: list[int] = []
                self.legends: list[str] = []

            def add(self, k: int, frame: Frame, pixels: Pixels) -> None:
                self.legends.append(pixels.legend)
                if self.spool is not None:
                    self.offsets.append(self.spool.tell())
                    self.spool.write(data_uri(_thumb(job, pixels)).encode("ascii"))

            def sources(self) -> Iterator[str]:
                files = [p for p in job.frame_paths if p]
                if o.frames and not o.html_standalone:
                    yield from (Path(p).name for p in files)
                elif o.frames:
                    yield from (file_data_uri(p) for p in files)
                else:  # no frame files: the reduced frames, inlined
                    assert self.spool is not None
                    ends = [*self.offsets[1:], self.spool.seek(0, os.SEEK_END)]
                    for start, end in zip(self.offsets, ends, strict=True):
                        self.spool.seek(start)
                        yield self.spool.read(end - start).decode("ascii")

            def finish(self, rec: Written) -> list[Path]:
                path = write_viewer(job.out, job.plan, self.sources(), puzzle=job.puzzle, lang=o.lang,
                                    crop=_caption_crop(job), durations=viewer_durations(job),
                                    standalone=not o.frames or o.html_standalone,
                                    main_level=o.animated_depth, legends=self.legends)
                self.abort()
                rec.html = str(path)
                return [Path(path)]

            def abort(self) -> None:
                if self.spool is not None:
                    self.spool.close()

        return Page()


def viewer_durations(job: Job) -> list[int]:
    """Each frame's time when the viewer plays: its reading time, as in the GIF (the viewer
    plays every frame: nothing is folded there)."""
    return gif_durations(job.plan, job.options)


class PdfExporter(Exporter):
    """``workbook.pdf`` (workbook.py): the puzzle with empty candidate grids, the steps two per
    page with their captions (a proof's first sub-frames with them), the deeper sub-frames
    asked for in an appendix, the solution; A4 or Letter (``paper``); vector frames, raster
    ones with ``pdf_raster``."""

    key = "pdf"
    patterns = ("workbook.pdf",)
    needs_plan = True

    def write(self, job: Job, rec: Written) -> list[Path]:
        from .workbook import write_workbook

        o = job.options
        path = job.out / "workbook.pdf"
        heading = job.puzzle.grid.to_line() if job.puzzle.grid.n <= 9 else ""
        rec.pdf_pages = write_workbook(path, job.plan, theme=o.theme, paper=o.paper, lang=o.lang, heading=heading,
                                       vector=not o.pdf_raster)
        rec.pdf = str(path)
        return [path]


EXPORTERS: tuple[Exporter, ...] = (StepsJsonExporter(), FramesExporter(), ContactSheetExporter(),
                                   GifExporter(), VideoExporter(), HtmlExporter(), PdfExporter())


def chosen_exporters(options: RenderOptions) -> list[Exporter]:
    """The exporters the options ask for, in writing order (steps.json always)."""
    wanted = {"steps_json": True, "frames": options.frames, "contact": options.contact, "gif": options.gif,
              "video": bool(options.video), "html": options.html, "pdf": options.pdf}
    return [e for e in EXPORTERS if wanted[e.key]]


def output_patterns() -> tuple[str, ...]:
    """Every file name pattern an exporter may write (the renderer's notion of 'our files')."""
    return tuple(p for e in EXPORTERS for p in e.patterns)


def steps_json_text(puzzle: Explained) -> str:
    """The text of ``steps.json``: the contract's document, UTF-8, indented by one."""
    return json.dumps(puzzle.to_json(), ensure_ascii=False, indent=1)


def _plan(puzzle: Explained, options: RenderOptions) -> list[Frame]:
    return plan_frames(puzzle, group_singles=options.group_singles, only=options.only, lang=options.lang,
                       depth=options.proof_depth, theme=options.theme)


def planned_names(puzzle: Explained, options: RenderOptions | None = None) -> list[str]:
    """The names write_puzzle would write for ``puzzle`` (without writing anything)."""
    options = options or RenderOptions()
    exporters = chosen_exporters(options)
    job = Job(puzzle, Path("."), options)
    if any(e.needs_plan for e in exporters):
        job.plan = _plan(puzzle, options)
    return [n for e in exporters for n in e.names(job)]


def _checked_entry(puzzle: Any, out_dir: Any, options: Any) -> Path:
    """The library's misuse of ``write_puzzle``, refused with a ``PuzzleError`` (one line) before
    any work: not an explained puzzle, a folder that is not a file name, options of another type."""
    if not all(hasattr(puzzle, name) for name in ("grid", "steps", "state_before")):
        raise PuzzleTypeError(f"write_puzzle draws an explained puzzle (explainer.Puzzle(...)), not "
                              f"{type_name(puzzle)}")
    if not isinstance(out_dir, (str, os.PathLike)):
        raise PuzzleTypeError(f"the output folder is a file name (a string or a Path), not {type_name(out_dir)}")
    if not str(os.fspath(out_dir)).strip():
        raise PuzzleError("an output folder name is needed, not an empty one")
    if options is not None and not isinstance(options, RenderOptions):
        raise PuzzleTypeError(f"options is a RenderOptions (or give its fields by name: fmt='svg'), not "
                              f"{type_name(options)}")
    return Path(out_dir)


# The CPU seconds a frame costs, by grid side (issue 43's measures, frame file, contact-sheet tile
# and GIF thumbnail: 9x9 about 13 ms, 16x16 40 ms, 25x25 200 ms), and the work below which the
# frames are drawn here, without worker processes: forking two workers costs about 0.35 CPU s
# (their copies of the parent's pages, their caches filled again, the frames' pixels sent back),
# a quarter of the whole picture work of a 9x9 puzzle, for half a second less to wait.
FRAME_SECONDS = {4: 0.006, 9: 0.013, 16: 0.04, 25: 0.2}
POOL_MIN_SECONDS = 2.5


def pool_size(job: Job, exporters: list[Exporter]) -> int:
    """The worker processes drawing ``job``'s frames when the options do not say: none (1,
    drawn here) for a short job whose exporters all take the frames as they come; else one per
    core (``default_workers``): a long run, or a heavy exporter (the workbook) that runs
    beside the frames."""
    if any(e.key in PARALLEL_EXPORTERS and not e.streams for e in exporters):
        return default_workers()
    work = len(job.plan) * FRAME_SECONDS.get(job.puzzle.grid.n, 0.2)
    return 1 if work < POOL_MIN_SECONDS else default_workers()


def write_puzzle(puzzle: Explained, out_dir: str | os.PathLike[str], options: RenderOptions | None = None, *,
                 progress: Callable[[int, int], None] | None = None, guard: Guard | None = None,
                 **option_values: Any) -> Written:
    """Write the files of RENDERING.md for one puzzle into ``out_dir``; say what was written.

    ``options`` (a ``RenderOptions``) says what to write and how; keyword
    arguments named like its fields are accepted too (``fmt="svg"``) and
    change the given options. ``steps.json`` is always written. ``guard`` is
    called with every path before anything is written and may raise (the
    CLI refuses to overwrite files that are not its own). Each frame is drawn
    once and handed to every output as it comes: memory does not grow with
    the number of frames.
    """
    from .frame import Layout
    from .video import video_factor

    start = time.perf_counter()
    out = _checked_entry(puzzle, out_dir, options)
    if options is None:
        options = RenderOptions.from_mapping(option_values)
    elif option_values:
        options = options.with_(**option_values)
    exporters = chosen_exporters(options)
    job = Job(puzzle, out, options)
    if any(e.needs_plan for e in exporters):
        job.plan = _plan(puzzle, options)
    declared = [out / name for e in exporters for name in e.names(job)]
    if guard is not None:
        for path in declared:
            guard(path)
    try:
        out.mkdir(parents=True, exist_ok=True)
    except (FileExistsError, NotADirectoryError):
        raise PuzzleError("a file is in the way: the output is a folder", str(out)) from None
    except OSError as e:
        raise PuzzleError(f"cannot make the output folder ({e.strerror or e})", str(out)) from None
    rec = Written(str(out))
    job.frame_paths = [str(out / f"{f.stem}.{options.fmt}") if options.frames else None for f in job.plan]
    full_w, full_h = Layout(puzzle.grid.n, options.dpi, options.size).pixels
    inlined = options.html and not options.frames  # the viewer inlines every frame's thumbnail
    if any(e.needs_thumbs for e in exporters) or inlined:
        # the largest whole reduction that keeps the GIF at least gif_width (600) px wide
        job.thumb = max(1, full_w // (options.gif_width or GIF_WIDTH))
        if not inlined:  # the GIF's frames only
            job.thumb_frames = frozenset(animation_timing(job).ms)
    if options.video:
        job.video = video_factor(full_h)
    for exporter in exporters:
        if isinstance(exporter, ContactSheetExporter):
            job.tile = exporter.tile(job, (full_w, full_h))
    write_exporters(exporters, job, rec, options.workers or pool_size(job, exporters), progress)
    rec.seconds = time.perf_counter() - start
    return rec
