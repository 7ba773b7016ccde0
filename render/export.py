"""Write one explained puzzle: frames, contact sheet, GIF, steps.json (RENDERING.md).

Each output is an ``Exporter`` that declares the names it writes and writes
them; ``write_puzzle`` runs the exporters the ``RenderOptions`` choose: it
plans the frames (``plan``), checks every name it will write with the guard,
renders the frames in worker processes (``workers``), then runs the
exporters (the contact sheet's pages: ``sheet``; the GIF: ``gif``; the
viewer, the workbook), the heavy ones side by side.
"""
from __future__ import annotations

import json
import os
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

from explainer.model.explained import Explained

from .gif import GIF_WIDTH, gif_durations, write_gif
from .job import Exporter, Guard, Job, Written
from .options import RenderOptions
from .plan import plan_frames
from .sheet import SHEET_DPI, contact_pages, sheet_layout, sheet_names
from .workers import default_workers, palette_image, render_frames, write_exporters

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


class FramesExporter(Exporter):
    """``NNN-TECHNIQUE.png`` (or .svg), written by the render pass itself; a forcing step's
    proof sub-frames ``NNNa-TECHNIQUE.png``, ``NNNb-…`` follow its frame."""

    key = "frames"
    # ``*`` after the number also matches a sub-frame's letters (017a-…, 017aa-…)
    patterns = ("[0-9][0-9][0-9]*-*.png", "[0-9][0-9][0-9]*-*.svg")
    needs_plan = True

    def names(self, job: Job) -> list[str]:
        return [f"{f.stem}.{job.options.fmt}" for f in job.plan]

    def write(self, job: Job, rec: Written) -> list[Path]:
        rec.frames = [p for p in job.frame_paths if p]
        return [Path(p) for p in rec.frames]


class ContactSheetExporter(Exporter):
    """``EXPLANATIONS-01.png``, ``-02`` …: A4 portrait pages at 150 dpi, numbered, with each
    frame's caption written under it at 9.5 pt (print a page at A4: the captions are >= 9 pt).
    ``EXPLANATIONS.png`` (one endless strip) was the name before the pages."""

    key = "contact"
    patterns = ("EXPLANATIONS-[0-9][0-9].png", "EXPLANATIONS-[0-9][0-9][0-9].png", "EXPLANATIONS.png")
    needs_plan = needs_thumbs = True

    def names(self, job: Job) -> list[str]:
        lay = sheet_layout(job.plan, job.puzzle.grid.n, job.options.columns)
        return sheet_names(len(lay.pages))

    def write(self, job: Job, rec: Written) -> list[Path]:
        from .frame import Layout, quantize_image

        n = job.puzzle.grid.n
        lay = Layout(n)
        theme = job.options.theme
        pages = contact_pages(job.plan, job.thumbs, n, theme,
                              columns=job.options.columns, crop=lay.caption_in / lay.height_in)
        paths = [job.out / name for name in sheet_names(len(pages))]
        for page, path in zip(pages, paths, strict=True):
            # on the theme's palette, like the frames: 10x faster to write and a third of the size
            quantize_image(page, theme).save(path, format="PNG", compress_level=1, dpi=(SHEET_DPI, SHEET_DPI))
        rec.contact = str(paths[0])
        rec.contact_pages = [str(p) for p in paths]
        return paths


class GifExporter(Exporter):
    key = "gif"
    patterns = ("explanation.gif",)
    needs_plan = needs_thumbs = True

    def write(self, job: Job, rec: Written) -> list[Path]:
        o = job.options
        path = job.out / "explanation.gif"
        durations = gif_durations(job.plan, o)
        rec.gif_bytes = write_gif(job.thumbs, str(path), durations, loop=o.gif_loop)
        rec.gif = str(path)
        return [path]


class HtmlExporter(Exporter):
    """``index.html``, the step viewer (viewer.py): with ``html_standalone`` (or when no frame
    files are written) the frames are inside the page as data URIs and it works copied alone;
    otherwise it shows the frame files beside it and says so."""

    key = "html"
    patterns = ("index.html",)
    needs_plan = needs_thumbs = True

    def write(self, job: Job, rec: Written) -> list[Path]:
        from .frame import Layout
        from .viewer import data_uri, file_data_uri, write_viewer

        o = job.options
        files = [p for p in job.frame_paths if p]
        if o.frames and not o.html_standalone:
            sources = [Path(p).name for p in files]
        elif o.frames:
            sources = [file_data_uri(p) for p in files]
        else:  # no frame files: inline the reduced frames
            sources = [data_uri(t) for t in job.thumbs]
        lay = Layout(job.puzzle.grid.n)
        path = write_viewer(job.out, job.plan, sources, puzzle=job.puzzle, lang=o.lang,
                            crop=lay.caption_in / lay.height_in, durations=gif_durations(job.plan, o),
                            standalone=not o.frames or o.html_standalone)
        rec.html = str(path)
        return [Path(path)]


class PdfExporter(Exporter):
    """``workbook.pdf`` (workbook.py): the puzzle with empty candidate grids, the steps two per
    page with their captions, the solution; A4 or Letter (``paper``); vector frames."""

    key = "pdf"
    patterns = ("workbook.pdf",)
    needs_plan = True

    def write(self, job: Job, rec: Written) -> list[Path]:
        from .workbook import write_workbook

        o = job.options
        path = job.out / "workbook.pdf"
        steps = [f.scene for f in job.plan if f.kind == "step"]
        initial = next(f.scene for f in job.plan if f.kind == "initial")
        solution = next(f.scene for f in job.plan if f.kind == "solution")
        heading = job.puzzle.grid.to_line() if job.puzzle.grid.n <= 9 else ""
        rec.pdf_pages = write_workbook(path, initial, steps, solution, theme=o.theme, paper=o.paper,
                                       lang=o.lang, heading=heading)
        rec.pdf = str(path)
        return [path]


EXPORTERS: tuple[Exporter, ...] = (StepsJsonExporter(), FramesExporter(), ContactSheetExporter(),
                                   GifExporter(), HtmlExporter(), PdfExporter())


def chosen_exporters(options: RenderOptions) -> list[Exporter]:
    """The exporters the options ask for, in writing order (steps.json always)."""
    wanted = {"steps_json": True, "frames": options.frames, "contact": options.contact, "gif": options.gif,
              "html": options.html, "pdf": options.pdf}
    return [e for e in EXPORTERS if wanted[e.key]]


def output_patterns() -> tuple[str, ...]:
    """Every file name pattern an exporter may write (the renderer's notion of 'our files')."""
    return tuple(p for e in EXPORTERS for p in e.patterns)


def steps_json_text(puzzle: Explained) -> str:
    """The text of ``steps.json``: the contract's document, UTF-8, indented by one."""
    return json.dumps(puzzle.to_json(), ensure_ascii=False, indent=1)


def planned_names(puzzle: Explained, options: RenderOptions | None = None) -> list[str]:
    """The names write_puzzle would write for ``puzzle`` (without writing anything)."""
    options = options or RenderOptions()
    exporters = chosen_exporters(options)
    job = Job(puzzle, Path("."), options)
    if any(e.needs_plan for e in exporters):
        job.plan = plan_frames(puzzle, group_singles=options.group_singles, only=options.only, lang=options.lang)
    return [n for e in exporters for n in e.names(job)]


def write_puzzle(puzzle: Explained, out_dir: str | os.PathLike[str], options: RenderOptions | None = None, *,
                 progress: Callable[[int, int], None] | None = None, guard: Guard | None = None,
                 **option_values: Any) -> Written:
    """Write the files of RENDERING.md for one puzzle into ``out_dir``; say what was written.

    ``options`` (a ``RenderOptions``) says what to write and how; keyword
    arguments named like its fields are accepted too (``fmt="svg"``) and
    change the given options. ``steps.json`` is always written. ``guard`` is
    called with every path before anything is written and may raise (the
    CLI refuses to overwrite files that are not its own).
    """
    from PIL import Image

    from .frame import Layout

    start = time.perf_counter()
    if options is None:
        options = RenderOptions.from_mapping(option_values)
    elif option_values:
        options = options.with_(**option_values)
    out = Path(out_dir)
    exporters = chosen_exporters(options)
    job = Job(puzzle, out, options)
    if any(e.needs_plan for e in exporters):
        job.plan = plan_frames(puzzle, group_singles=options.group_singles, only=options.only, lang=options.lang)
    declared = [out / name for e in exporters for name in e.names(job)]
    if guard is not None:
        for path in declared:
            guard(path)
    out.mkdir(parents=True, exist_ok=True)
    rec = Written(str(out))
    theme = options.theme
    if options.frames or any(e.needs_thumbs for e in exporters):
        n = puzzle.grid.n
        job.frame_paths = [str(out / f"{f.stem}.{options.fmt}") if options.frames else None for f in job.plan]
        factor = 0  # thumbnails (contact sheet, GIF, viewer) are the frame reduced by this factor
        if any(e.needs_thumbs for e in exporters):
            full_w = Layout(n, options.dpi, options.size).pixels[0]
            # the largest whole reduction that keeps the GIF at least gif_width (600) px wide
            factor = max(1, full_w // (options.gif_width or GIF_WIDTH))
        results = render_frames(job.plan, job.frame_paths, n=n, theme=theme, dpi=options.dpi, size=options.size,
                              fmt=options.fmt, thumb=factor, workers=options.workers or default_workers(),
                              progress=progress)
        pal = palette_image(theme)
        for data, tsize in (results if factor else []):
            t = Image.frombytes("P", tsize, data)
            t.putpalette(pal.getpalette())
            job.thumbs.append(t)
    write_exporters(exporters, job, rec, options.workers or default_workers())
    rec.seconds = time.perf_counter() - start
    return rec
