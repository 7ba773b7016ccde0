"""Write one explained puzzle: frames, contact sheet, GIF, steps.json (RENDERING.md).

Each output is an ``Exporter`` that declares the names it writes and writes
them; ``write_puzzle`` runs the exporters the ``RenderOptions`` choose.

Fast path: scenes are built in this process (pure Python), then two worker
processes (fork) each keep one ``FrameRenderer`` and turn scenes into
pixels, write the frame files and send back a reduced copy for the contact
sheet and the GIF.
"""
from __future__ import annotations

import json
import os
import re
import sys
import time
from collections.abc import Callable, Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from explainer.model.explained import Explained
from explainer.model.explanation import Explanation
from explainer.model.grid import value_char
from explainer.model.technique import StepKind, Technique, find_technique, kinds_of, name_key

from .options import RenderOptions
from .scene import initial_scene, solution_scene, step_scenes
from .shapes import Scene
from .sizes import PAPER_IN

# grouped singles (--group-singles): the frame numbers the placed values in order (scene.py)
# and the caption lists them in that order
SINGLES_TEXT = {"en": "Singles, in order (the small numbers): {cells}; each the only place left for its value "
                      "in a house, or the only candidate left in its cell.",
                "fr": "Singletons, dans l'ordre (les petits numéros) : {cells} ; chacun la seule place restante "
                      "de sa valeur dans une unité, ou le seul candidat restant de sa case."}


def singles_list(place: Sequence[tuple[int, int, int]]) -> str:
    """'(1) r1c2=3, (2) r4c5=7, …' in the order the values were placed."""
    return ", ".join(f"({k}) r{r + 1}c{c + 1}={value_char(v)}" for k, (r, c, v) in enumerate(place, 1))


@dataclass
class Frame:
    """One picture to write: its file stem, scene, and what it shows."""

    stem: str
    scene: Scene
    kind: str  # initial | step | solution
    steps: tuple[int, ...] = ()  # 0-based indexes of the steps it shows
    technique: str = ""


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


def technique_stem(name: str) -> str:
    """The file-name part for a technique: letters, digits and '-' only (never a path)."""
    stem = re.sub(r"[^A-Z0-9]+", "-", name.upper()).strip("-")
    return stem or "STEP"


def single_names(kinds: Mapping[str, StepKind]) -> set[str]:
    """The step names of the singles among ``kinds`` (``StepKind.single``)."""
    return {name for name, k in kinds.items() if k.single}


def normalise_only(only: Iterable[str] | str | None, techniques: Sequence[Technique]) -> set[str] | None:
    """Step names for --only (names and aliases of ``techniques``, the run's records, or step
    names; "singles": every single); None keeps every step. The command line checks the names
    (``explainer.app.cli``); a name no record answers to keeps the steps of that name only."""
    if only is None:
        return None
    if isinstance(only, str):
        only = [x for x in only.split(",")]
    names: set[str] = set()
    for name in only:
        key = name_key(name)
        if not key:
            continue
        if key == "singles":
            names.update(single_names(kinds_of(techniques)))
            continue
        t = find_technique(techniques, key)
        if t is None:
            names.add(key)  # a step name no record of the run lists (e.g. a later technique)
            continue
        names.update(t.produces if key == t.name or key in t.aliases else (key,))
        names.add(t.name)
    return names


def fold_singles(steps: Sequence[Explanation],
                 kinds: Mapping[str, StepKind]) -> list[tuple[tuple[int, ...], Explanation]]:
    """Runs of two or more consecutive singles (``StepKind.single`` in ``kinds``, the run's step
    kinds) become one step placing all their values."""
    out: list[tuple[tuple[int, ...], Explanation]] = []
    singles = single_names(kinds)
    i = 0
    while i < len(steps):
        j = i
        while j < len(steps) and steps[j].technique in singles:
            j += 1
        if j - i >= 2:
            run = steps[i:j]
            place = tuple(p for s in run for p in s.place)
            texts = {lang: tmpl.format(cells=singles_list(place)) for lang, tmpl in SINGLES_TEXT.items()}
            folded = Explanation(technique="singles", place=place, show_candidates=False,
                                 text=texts["en"], translations=(("fr", texts["fr"]),),
                                 before=run[0].before)
            out.append((tuple(range(i, j)), folded))
            i = j
        else:
            out.append(((i,), steps[i]))
            i += 1
    return out


def plan_frames(puzzle: Explained, *, group_singles: bool = False, only: Iterable[str] | str | None = None,
                lang: str = "en") -> list[Frame]:
    """The frames of a puzzle, in order, with their file stems."""
    steps = puzzle.steps
    givens = puzzle.grid.values
    kinds = puzzle.kinds
    width = max(3, len(str(len(steps) + 1)))
    frames = [Frame(f"{0:0{width}d}-INITIAL-GRID", initial_scene(puzzle.initial_state(), givens=givens, lang=lang),
                    "initial")]
    items = fold_singles(steps, kinds) if group_singles else [((i,), s) for i, s in enumerate(steps)]
    keep = normalise_only(only, puzzle.techniques)
    for idx, step in items:
        if keep is not None and not (step.technique in keep or
                                     (step.technique == "singles" and keep & single_names(kinds))):
            continue
        number = (idx[0] + 1, idx[-1] + 1)
        assert step.before is not None  # the engine records the state each step was found in
        # a forcing step's proof too large for its frame: sub-frames 017a-…, 017b-… after 017-…
        for sc in step_scenes(step.before, step, number=number, givens=givens, lang=lang, kinds=kinds):
            frames.append(Frame(f"{idx[0] + 1:0{width}d}{sc.suffix}-{technique_stem(step.technique)}", sc, "step",
                                idx, step.technique))
    final = puzzle.state_before(len(steps))
    frames.append(Frame(f"{len(steps) + 1:0{width}d}-SOLUTION",
                        solution_scene(final, givens=givens, lang=lang, steps=len(steps),
                                       difficulty=puzzle.difficulty, complete=puzzle.complete),
                        "solution"))
    return frames


# ---- rendering (in worker processes) -------------------------------------------------

_JOB: dict[str, Any] = {}


def _render_one(i: int) -> tuple[int, bytes, tuple[int, int]]:
    from .frame import THUMB_STEPS, FrameRenderer, quantize_image

    job = _JOB
    r = job.get("renderer")
    if r is None:
        r = job["renderer"] = FrameRenderer(job["n"], job["theme"], job["dpi"], job["size"])
    sc = job["scenes"][i]
    path = job["paths"][i]
    im = r.image(sc)
    if path is not None:
        if job["fmt"] == "svg":
            with open(path, "wb") as f:
                f.write(r.svg(sc))
        else:
            quantize_image(im, r.theme).save(path, format="PNG", compress_level=job["compress"])
    thumb = b""
    tsize = (0, 0)
    if job["thumb"]:
        t = im.reduce(job["thumb"]) if job["thumb"] > 1 else im
        t = quantize_image(t, r.theme, THUMB_STEPS)
        thumb, tsize = t.tobytes(), t.size
    return i, thumb, tsize


def _render_all(frames: list[Frame], paths: list[str | None], *, n: int, theme: Any, dpi: Any, size: Any,
                fmt: str, thumb: int, workers: int, progress: Callable[[int, int], None] | None,
                compress: int = 1) -> list[tuple[bytes, tuple[int, int]]]:
    import multiprocessing as mp

    from .frame import FrameRenderer

    global _JOB
    # the renderer is built and primed (static grid drawn) once, here; forked
    # workers inherit it ready to use
    r = FrameRenderer(n, theme, dpi, size)
    r._prime()
    _JOB = {"n": n, "theme": theme, "dpi": dpi, "size": size, "fmt": fmt, "thumb": thumb,
            "scenes": [f.scene for f in frames], "paths": paths, "compress": compress, "renderer": r}
    total = len(frames)
    out: list[Any] = [None] * total
    done = 0
    if workers > 1 and total >= 8 and "fork" in mp.get_all_start_methods():
        ctx = mp.get_context("fork")
        with ctx.Pool(workers) as pool:
            chunk = max(1, min(8, total // (workers * 4)))
            for i, data, tsize in pool.imap_unordered(_render_one, range(total), chunksize=chunk):
                out[i] = (data, tsize)
                done += 1
                if progress:
                    progress(done, total)
    else:
        for k in range(total):
            i, data, tsize = _render_one(k)
            out[i] = (data, tsize)
            done += 1
            if progress:
                progress(done, total)
    _JOB = {}
    return out


def _workers() -> int:
    try:
        cpus = len(os.sched_getaffinity(0))
    except AttributeError:  # pragma: no cover
        cpus = os.cpu_count() or 1
    return max(1, min(cpus, 4))


def _palette_image(theme: Any) -> Any:
    from .frame import THUMB_STEPS, theme_palette

    return theme_palette(theme, THUMB_STEPS)


# ---- the paged contact sheet: A4 portrait pages, numbered, captions >= 9 pt printed ---------

SHEET_DPI = 150  # pixels per inch of a page: an A4 page is 1240 x 1754 px and prints at A4
SHEET_MARGIN_IN = 0.4
SHEET_GAP_IN = 0.2
SHEET_CAPTION_PT = 9.5  # the caption under each frame, at SHEET_DPI: >= 9 pt on paper
SHEET_FOOTER_PT = 10.0


def _font(pt: float, dpi: float = SHEET_DPI, bold: bool = False) -> Any:
    """DejaVu Sans (shipped with matplotlib) at ``pt`` points for ``dpi``."""
    from matplotlib import font_manager
    from PIL import ImageFont

    props = font_manager.FontProperties(family="DejaVu Sans", weight="bold" if bold else "normal")
    return ImageFont.truetype(font_manager.findfont(props), round(pt * dpi / 72))


def wrap_text(text: str, font: Any, width: float) -> list[str]:
    """Greedy word wrap to ``width`` pixels in ``font``; a word longer than a line (a chain in
    Eureka notation) is cut where the line is full."""
    lines: list[str] = []
    for para in text.split("\n"):
        line = ""
        for word in para.split():
            while font.getlength(word) > width:  # fill the line with its start, go on with the rest
                head = f"{line} " if line else ""
                k = 0
                while k < len(word) and font.getlength(head + word[:k + 1]) <= width:
                    k += 1
                if k == 0 and line:
                    lines.append(line)
                    line = ""
                    continue
                k = max(k, 1)
                lines.append(head + word[:k])
                line = ""
                word = word[k:]
            trial = f"{line} {word}" if line else word
            if line and font.getlength(trial) > width:
                lines.append(line)
                line = word
            else:
                line = trial
        lines.append(line)
    return lines


@dataclass
class SheetLayout:
    """Where each frame of a paged contact sheet goes: ``pages[p]`` is a list of rows, a row
    a list of (frame index, caption lines); sizes in page pixels."""

    page: tuple[int, int]
    columns: int
    tile_w: int
    grid_h: int  # the frame without its caption, scaled to tile_w
    line_h: int
    margin: int
    gap: int
    pages: list[list[list[tuple[int, list[str]]]]]


def sheet_layout(plan: Sequence[Frame], n: int, columns: int = 3, paper: str = "a4") -> SheetLayout:
    """The pages of the contact sheet of ``plan`` (no pixels needed: the names are known
    before anything is drawn). 9x9 and smaller: ``columns`` frames a row; 16x16 and
    25x25: at most two, so their digits stay readable."""
    from .frame import Layout

    if n > 9:
        columns = min(columns, 2)
    pw, ph = (round(x * SHEET_DPI) for x in PAPER_IN[paper])
    margin, gap = round(SHEET_MARGIN_IN * SHEET_DPI), round(SHEET_GAP_IN * SHEET_DPI)
    tile_w = (pw - 2 * margin - (columns - 1) * gap) // columns
    lay = Layout(n)
    grid_h = round(tile_w * (lay.height_in - lay.caption_in) / lay.width_in)
    font = _font(SHEET_CAPTION_PT)
    line_h = round(SHEET_CAPTION_PT * 1.25 * SHEET_DPI / 72)
    footer = round(SHEET_FOOTER_PT * 2 * SHEET_DPI / 72)
    room = ph - 2 * margin - footer
    rows: list[list[tuple[int, list[str]]]] = []
    for k, f in enumerate(plan):
        if k % columns == 0:
            rows.append([])
        rows[-1].append((k, wrap_text(f.scene.text("caption"), font, tile_w)))
    pages: list[list[list[tuple[int, list[str]]]]] = [[]]
    used = 0
    for row in rows:
        h = grid_h + line_h * max(len(lines) for _, lines in row) + gap
        if pages[-1] and used + h > room:
            pages.append([])
            used = 0
        pages[-1].append(row)
        used += h
    return SheetLayout((pw, ph), columns, tile_w, grid_h, line_h, margin, gap, pages)


def sheet_names(count: int) -> list[str]:
    return [f"EXPLANATIONS-{k:02d}.png" for k in range(1, count + 1)]


def contact_pages(plan: Sequence[Frame], thumbs: Sequence[Any], n: int, theme: Any, *, columns: int = 3,
                  paper: str = "a4", crop: float = 0.0) -> list[Any]:
    """The contact sheet's pages (RGB images at SHEET_DPI): each frame without its own caption
    (the bottom ``crop`` fraction of a thumbnail) and the caption written under it at
    SHEET_CAPTION_PT, then "page k / N" at the foot of the page."""
    from PIL import Image, ImageDraw

    lay = sheet_layout(plan, n, columns, paper)
    font, small = _font(SHEET_CAPTION_PT), _font(SHEET_FOOTER_PT)
    out = []
    for p, rows in enumerate(lay.pages, 1):
        page = Image.new("RGB", lay.page, theme["background"])
        draw = ImageDraw.Draw(page)
        y = lay.margin
        for row in rows:
            for col, (k, lines) in enumerate(row):
                x = lay.margin + col * (lay.tile_w + lay.gap)
                t = thumbs[k].convert("RGB")
                t = t.crop((0, 0, t.size[0], round(t.size[1] * (1 - crop))))
                # BOX: a plain average of the pixels a tile pixel covers (4x faster than Lanczos)
                page.paste(t.resize((lay.tile_w, lay.grid_h), Image.Resampling.BOX), (x, y))
                for i, line in enumerate(lines):
                    draw.text((x, y + lay.grid_h + i * lay.line_h), line, font=font, fill=theme["caption"])
            y += lay.grid_h + lay.line_h * max(len(lines) for _, lines in row) + lay.gap
        footer = f"{p} / {len(lay.pages)}"
        draw.text((lay.page[0] / 2, lay.page[1] - lay.margin), footer, font=small, fill=theme["label"], anchor="ms")
        out.append(page)
    return out


def gif_durations(plan: Sequence[Frame], options: RenderOptions) -> list[int]:
    """Time on each GIF frame (ms): the initial grid and the solution ``gif_hold``; a step
    ``gif_duration`` plus ``gif_per_char`` for each character of its caption (time to
    read it), at most ``GIF_MAX_MS`` (unless ``gif_duration`` itself is longer)."""
    out = []
    for f in plan:
        if f.kind != "step":
            out.append(options.gif_hold)
            continue
        reading = options.gif_duration + options.gif_per_char * len(f.scene.text("caption"))
        out.append(max(options.gif_duration, min(GIF_MAX_MS, reading)))
    return out


GIF_MAX_MS = 20_000
GIF_WIDTH = 600  # least GIF width (px) by default


def write_gif(thumbs: list[Any], path: str, durations: list[int], loop: int | None = 0) -> int:
    """An animated GIF of palette images sharing one palette; bytes written.

    Pause lengths are per-frame durations (Pillow merges identical frames and
    stores only the changed rectangle of each frame). ``optimize`` trims the
    colour table to the colours used: a third of the size of an untrimmed one."""
    from PIL import Image

    frames = [t if t.mode == "P" else t.quantize(colors=64, dither=Image.Dither.NONE) for t in thumbs]
    kw: dict[str, Any] = {"save_all": True, "append_images": frames[1:], "duration": durations,
                          "optimize": True, "disposal": 1}
    if loop is not None:
        kw.update(loop=loop)
    frames[0].save(path, format="GIF", **kw)
    return os.path.getsize(path)


# ---- exporters: each output declares the files it writes, then writes them -------------

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
        results = _render_all(job.plan, job.frame_paths, n=n, theme=theme, dpi=options.dpi, size=options.size,
                              fmt=options.fmt, thumb=factor, workers=options.workers or _workers(),
                              progress=progress)
        pal = _palette_image(theme)
        for data, tsize in (results if factor else []):
            t = Image.frombytes("P", tsize, data)
            t.putpalette(pal.getpalette())
            job.thumbs.append(t)
    _write_exporters(exporters, job, rec, options.workers or _workers())
    rec.seconds = time.perf_counter() - start
    return rec


# Exporters whose work is heavy and independent (encoding the GIF, composing the sheet's
# pages): with two cores or more they run side by side in forked processes.
PARALLEL_EXPORTERS = frozenset({"gif", "contact", "pdf"})
_EXPORT: dict[str, Any] = {}


def _export_one(k: int) -> tuple[list[str], dict[str, Any]]:
    """Run exporter ``k`` of ``_EXPORT`` (in a forked worker): its files and record fields."""
    e, job = _EXPORT["exporters"][k], _EXPORT["job"]
    fresh = Written(str(job.out))
    r = Written(str(job.out))
    files = [str(p) for p in e.write(job, r)]
    return files, {key: v for key, v in vars(r).items() if v != getattr(fresh, key) and key != "files"}


def _write_exporters(exporters: Sequence[Exporter], job: Job, rec: Written, workers: int) -> None:
    """Every exporter's files, in exporter order in ``rec.files``; the heavy ones in parallel
    when there are cores to spare (the same files either way)."""
    import multiprocessing as mp

    global _EXPORT
    heavy = [k for k, e in enumerate(exporters) if e.key in PARALLEL_EXPORTERS]
    results: dict[int, Any] = {}
    pool = None
    if workers > 1 and len(heavy) > 1 and "fork" in mp.get_all_start_methods():
        _EXPORT = {"exporters": list(exporters), "job": job}
        pool = mp.get_context("fork").Pool(min(workers, len(heavy)))
        results = {k: pool.apply_async(_export_one, (k,)) for k in heavy}
    try:
        for k, e in enumerate(exporters):
            if k in results:
                files, fields = results[k].get()
                for key, v in fields.items():
                    setattr(rec, key, v)
                rec.files += files
            else:
                rec.files += [str(p) for p in e.write(job, rec)]
    finally:
        if pool is not None:
            if sys.exc_info()[0] is not None:  # an error or an interrupt (Ctrl-C, kill): stop the others now
                pool.terminate()
            else:
                pool.close()
            pool.join()
            _EXPORT = {}
