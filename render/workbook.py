"""workbook.pdf: a puzzle to print and work through (``--pdf``, RENDERING.md wave 2).

Page 1: the puzzle with an empty candidates grid in every empty cell (a small
m×m grid of faint lines to pencil candidates in). Then the steps, two a page,
each frame at one fixed size whatever its caption (a proof's first sub-frames
after its step), its caption and its legend (what each mark means, as under
the frame itself) beside it in 9 pt text, running on under the frame when
long: the next step follows on the same page when it fits (issue 41: a long
caption shrank its frame and left half a page empty; pages had no legend).
Then the solution. The deeper sub-frames
asked for (``--proof-depth 2`` and more) follow in an appendix, in the order
of their names (``17c``, ``17c1`` …), which the captions above them cite.
A4 or Letter portrait (``paper``). Vector by default (``vector=True``): every
frame is drawn again through matplotlib's PDF backend on a ``Figure`` of the
page's size (``frame.draw`` with an origin), so it prints sharp at any size.
With ``vector=False`` (``--pdf-raster``) the steps' frames are images, drawn by
the frames' own renderer (``FrameRenderer``: the static grid blitted) at about
PRINT_DPI on the page: a third less CPU, but matplotlib's PDF writer holds every
image until the file closes (memory grows with the steps). The puzzle and
solution pages are always vector; captions are real text (selectable,
searchable). Pages carry a number at their foot.
"""
from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from .plan import Frame
from .shapes import Scene
from .sizes import PAPER_IN

MARGIN_IN = 0.55
CAPTION_PT = 10.0  # the puzzle's and the solution's captions
TEXT_PT = 9.0  # a step's caption and legend, beside its frame
LINE = 1.3  # line height, in font sizes
FRAME_SHARE = 0.6  # of the page's width, a step's frame (its words take the rest)
GAP_IN = 0.2
FOOTER_IN = 0.35
WORDS = {
    "en": {"puzzle": "Puzzle", "write": "Write the candidates in the small grids, then follow the steps.",
           "page": "{k} / {n}", "appendix": "Appendix: the proofs in more detail"},
    "fr": {"puzzle": "Grille", "write": "Notez les candidats dans les petites grilles, puis suivez les étapes.",
           "page": "{k} / {n}", "appendix": "Annexe : les preuves en détail"},
}
APPENDIX_LEVEL = 2  # sub-frames of this level and deeper go to the appendix
PRINT_DPI = 120  # a raster frame's pixels per printed inch (the largest frame of a page)


def _chars(width_in: float, pt: float) -> int:
    """Characters of DejaVu Sans at ``pt`` a line ``width_in`` wide holds (0.55 em on average)."""
    return max(10, int(width_in * 72 / (0.55 * pt)))


@dataclass
class Box:
    """The fixed layout of a step on a page: its frame's size (inches, without its caption
    strip) and cell, its words' column beside it and the width under it."""

    cell: float
    frame_w: float
    frame_h: float
    side_w: float  # the words' column beside the frame
    full_w: float  # the words under the frame, when they run on
    inner_h: float

    @property
    def line_in(self) -> float:
        return LINE * TEXT_PT / 72

    def lines(self, caption: str, legend: str) -> tuple[list[tuple[str, bool]], list[tuple[str, bool]]]:
        """(lines beside the frame, lines under it): the caption's then the legend's (True: a
        legend line), beside the frame while they fit, the rest as wide as the page."""
        from .frame import wrap_words

        beside = int(self.frame_h / self.line_in)
        out: list[tuple[str, bool]] = []
        under: list[tuple[str, bool]] = []
        for text, is_legend in ((caption, False), (legend, True)):
            words = text.split()
            while words:
                col = out if len(out) < beside else under
                chars = _chars(self.side_w if col is out else self.full_w, TEXT_PT)
                line = wrap_words(" ".join(words), chars)[0]
                col.append((line, is_legend))
                words = words[len(line.split()):]
        return out, under

    def height(self, caption: str, legend: str) -> float:
        """The height a step takes: its frame, and its words running on under it."""
        _, under = self.lines(caption, legend)
        return self.frame_h + (len(under) * self.line_in + 0.1 if under else 0.0)


def step_box(n: int, paper: str = "a4") -> Box:
    """One size for every step's frame on ``paper``: ``FRAME_SHARE`` of the page's width,
    two frames a page."""
    from .frame import CELL_IN, Layout

    w_in, h_in = PAPER_IN[paper]
    inner_w = w_in - 2 * MARGIN_IN
    inner_h = h_in - 2 * MARGIN_IN - FOOTER_IN
    ref = Layout(n, cell_in=1.0)
    fw, fh = ref.width_in, ref.height_in - ref.caption_in
    cell = min(FRAME_SHARE * inner_w / fw, (inner_h / 2 - GAP_IN) / fh, 2 * CELL_IN.get(n, 0.8))
    lay = Layout(n, cell_in=cell)
    frame_w, frame_h = lay.width_in, lay.height_in - lay.caption_in
    return Box(cell, frame_w, frame_h, inner_w - frame_w - GAP_IN, inner_w, inner_h)


def paginate(frames: Sequence[Frame], box: Box, first_room: float | None = None) -> list[list[Frame]]:
    """The steps page by page: each under the one before while the page holds it."""
    pages: list[list[Frame]] = []
    used = room = 0.0
    for f in frames:
        h = box.height(f.caption, f.legend)
        if not pages or used + h > room + 1e-6:
            pages.append([])
            used, room = 0.0, box.inner_h if pages[:-1] or first_room is None else first_room
        pages[-1].append(f)
        used += h + GAP_IN
    return pages


def page_count(plan: Sequence[Frame], n: int, paper: str = "a4") -> int:
    """Puzzle page, the steps' pages, the solution page, the appendix's pages."""
    box = step_box(n, paper)
    steps = [f for f in plan if f.kind == "step" and f.level < APPENDIX_LEVEL]
    appendix = [f for f in plan if f.kind == "step" and f.level >= APPENDIX_LEVEL]
    return 2 + len(paginate(steps, box)) + len(paginate(appendix, box, box.inner_h - 0.3))


def _without(scene: Scene, roles: set[str]) -> Scene:
    return Scene(scene.n, [s for s in scene if s.role not in roles], suffix=scene.suffix)


def _frame(fig: Any, scene: Scene, theme: Mapping[str, Any], box: tuple[float, float, float, float],
           caption: bool = True, raster: Any = None) -> None:
    """Draw ``scene`` (title and grid; caption as wrapped 10 pt text under it) in ``box``
    (left, bottom, width, height in inches) of ``fig``, as large as the box allows; with
    ``raster`` (the ``FrameRenderer`` of a dpi), the frame is its image without the
    caption strip, PRINT_DPI pixels per inch on the page."""
    from .frame import CELL_IN, Layout, wrap_words

    n = scene.n
    left, bottom, width, height = box
    text = scene.text("caption") if caption else ""
    ref = Layout(n, cell_in=1.0)
    # the frame without its caption strip: (width_in, height_in - caption_in) scale with the cell;
    # the caption under it, as wide as the frame
    frame_w = ref.width_in
    frame_h = ref.height_in - ref.caption_in
    lines: list[str] = []
    cell = most = min(width / frame_w, height / frame_h, 2 * CELL_IN.get(n, 0.8))
    for _ in range(3):  # the caption's lines depend on the frame's width, and its room on them
        chars = int(max(cell * frame_w, 0.6 * width) * 72 / (0.55 * CAPTION_PT))
        lines = wrap_words(text, chars)  # the puzzle and the solution: a short caption
        text_h = (len(lines) * 1.3 + 0.6) * CAPTION_PT / 72 if lines else 0.0
        cell = min(width / frame_w, (height - text_h) / frame_h, 2 * CELL_IN.get(n, 0.8))
    lay = Layout(n, cell_in=cell)
    W, H = fig.get_size_inches()
    shown_h = lay.height_in - lay.caption_in
    ox = left + (width - max(lay.width_in, 0.6 * width)) / 2
    top = bottom + height
    oy = top - lay.height_in  # the frame's (uncropped) bottom: its caption strip falls below, unused
    fx = left + (width - lay.width_in) / 2
    if raster is not None:
        # one renderer for every frame of a box's size: PRINT_DPI at the largest, a little more
        # on a frame shrunk by a long caption
        dpi = round(PRINT_DPI * most / CELL_IN.get(n, 0.6))
        _raster_frame(fig, scene, raster(dpi), (fx, top - shown_h, lay.width_in, shown_h))
    else:
        _vector_frame(fig, scene, theme, lay, fx, oy)
    y = top - shown_h - 0.5 * CAPTION_PT / 72
    for line in lines:
        fig.text((ox + 0.1) / W, y / H, line, fontsize=CAPTION_PT, color=theme["caption"], va="top", ha="left",
                 family="DejaVu Sans")
        y -= 1.3 * CAPTION_PT / 72
    return None


def _step(fig: Any, frame: Frame, theme: Mapping[str, Any], box: Box, left: float, top: float,
          raster: Any = None) -> float:
    """A step at its fixed size, its top-left corner at (``left``, ``top``) inches: the frame,
    its caption and legend beside it (running on under it); returns its height."""
    from .frame import Layout

    scene = frame.scene
    lay = Layout(scene.n, cell_in=box.cell)
    W, H = fig.get_size_inches()
    if raster is not None:
        from .frame import CELL_IN

        dpi = round(PRINT_DPI * box.cell / CELL_IN.get(scene.n, 0.6))
        _raster_frame(fig, scene, raster(dpi), (left, top - box.frame_h, lay.width_in, box.frame_h))
    else:
        _vector_frame(fig, scene, theme, lay, left, top - lay.height_in)
    beside, under = box.lines(scene.text("caption"), scene.text("legend"))
    x, y = left + box.frame_w + GAP_IN, top - 0.05
    for lines in (beside, under):
        for line, is_legend in lines:
            fig.text(x / W, y / H, line, fontsize=TEXT_PT, color=theme["label" if is_legend else "caption"],
                     va="top", ha="left", family="DejaVu Sans")
            y -= box.line_in
        x, y = left, top - box.frame_h - 0.1
    return box.height(frame.caption, frame.legend)


def _vector_frame(fig: Any, scene: Scene, theme: Mapping[str, Any], lay: Any, fx: float, oy: float) -> None:
    """The frame drawn again as vectors, its (uncropped) bottom-left corner at (fx, oy) inches."""
    from .frame import draw, draw_static

    W, H = fig.get_size_inches()
    ax = fig.add_axes(((fx + lay.ax_rect[0] * lay.width_in) / W, (oy + lay.ax_rect[1] * lay.height_in) / H,
                       lay.ax_rect[2] * lay.width_in / W, lay.ax_rect[3] * lay.height_in / H))
    draw_static(ax, scene.n, theme, lay)
    draw(ax, _without(scene, {"caption", "legend"}), theme, lay, origin=(fx, oy), focus=False)


def _placed_image() -> type:
    """An image artist placed in a box of the figure whose pixels go to a vector backend
    as they are (matplotlib's ``BboxImage`` resamples them to the page's resolution)."""
    import numpy as np
    from matplotlib.image import BboxImage
    from matplotlib.transforms import Affine2D

    class Placed(BboxImage):
        def _check_unsampled_image(self) -> bool:
            return True

        def make_image(self, renderer: Any, magnification: float = 1.0, unsampled: bool = False) -> Any:
            box = self.get_window_extent(renderer)
            rgba = self.to_rgba(np.asarray(self.get_array()), bytes=True)
            h, w = rgba.shape[:2]
            # the unit square (scaled by the image's size by the caller) onto the box, top row on top
            return rgba, 0, 0, Affine2D().scale(1 / w, -1 / h).translate(0, 1).scale(box.width, box.height) \
                .translate(box.x0, box.y0)

    return Placed


def _raster_frame(fig: Any, scene: Scene, renderer: Any, box: tuple[float, float, float, float]) -> None:
    """The frame's pixels (its renderer's, without the caption strip) placed in ``box``
    (left, bottom, width, height in inches): the image is stored once, at its own resolution."""
    import numpy as np
    from matplotlib.transforms import Bbox, TransformedBbox

    lay = renderer.layout
    im = renderer.image(_without(scene, {"caption", "legend"}))
    w, h = im.size
    shown = round(h * (1 - lay.caption_in / lay.height_in))
    # an image artist on the figure itself (an Axes per frame costs more than the image),
    # stored at its own pixels, never resampled
    image = _placed_image()(TransformedBbox(Bbox.from_bounds(*box), fig.dpi_scale_trans), interpolation="none")
    image.set_data(np.asarray(im.crop((0, 0, w, shown))))
    fig.add_artist(image)


def _pencil_grid(fig: Any, scene: Scene, theme: Mapping[str, Any]) -> None:
    """Faint m×m lines in every empty cell of the puzzle page's grid (the last axes added)."""
    from matplotlib.collections import LineCollection

    ax = fig.axes[-1]
    n, m = scene.n, scene.m
    filled = {(s.row, s.col) for s in scene if s.kind == "value"}
    segs = []
    for r in range(n):
        for c in range(n):
            if (r, c) in filled:
                continue
            for i in range(1, m):
                segs.append(((c + i / m, r + 0.06), (c + i / m, r + 0.94)))
                segs.append(((c + 0.06, r + i / m), (c + 0.94, r + i / m)))
    lc = LineCollection(segs, colors=theme["label"], linewidths=0.3, alpha=0.5, zorder=4)
    ax.add_collection(lc)


def _footer(fig: Any, k: int, total: int, theme: Mapping[str, Any], lang: str) -> None:
    W, _ = fig.get_size_inches()
    fig.text(0.5, FOOTER_IN / 2 / fig.get_size_inches()[1], WORDS.get(lang, WORDS["en"])["page"].format(k=k, n=total),
             ha="center", va="center", fontsize=9, color=theme["label"], family="DejaVu Sans")


def write_workbook(path: str | Path, plan: Sequence[Frame], *, theme: Mapping[str, Any], paper: str = "a4",
                   lang: str = "en", heading: str = "", vector: bool = True) -> int:
    """Write the workbook of ``plan`` (the planned frames: each scene is laid out when its page
    is drawn); return its number of pages. ``vector``: every frame drawn as vectors, not
    placed as the frames' pixels."""
    from matplotlib.backends.backend_pdf import PdfPages
    from matplotlib.figure import Figure

    from .frame import FrameRenderer

    initial = next(f for f in plan if f.kind == "initial")
    solution = next(f for f in plan if f.kind == "solution")
    steps = [f for f in plan if f.kind == "step" and f.level < APPENDIX_LEVEL]
    appendix = [f for f in plan if f.kind == "step" and f.level >= APPENDIX_LEVEL]
    w_in, h_in = PAPER_IN[paper]
    box = step_box(initial.scene.n, paper)
    step_pages = paginate(steps, box)
    appendix_pages = paginate(appendix, box, box.inner_h - 0.3)
    total = 2 + len(step_pages) + len(appendix_pages)
    renderers: dict[int, FrameRenderer] = {}

    def renderer(dpi: int) -> FrameRenderer:  # one: the steps' boxes are all of one size
        if dpi not in renderers:
            renderers.clear()
            renderers[dpi] = FrameRenderer(initial.scene.n, theme, dpi=dpi)  # type: ignore[arg-type]
        return renderers[dpi]

    raster = None if vector else renderer
    try:
        _write_pages(PdfPages, Figure, path, initial, solution, step_pages, appendix_pages, box, theme=theme,
                     lang=lang, heading=heading, total=total, raster=raster, size=(w_in, h_in))
    except Exception as e:  # matplotlib's close masks a full disk with zlib's "Error -2 while flushing"
        cause: BaseException | None = e
        while cause is not None and not isinstance(cause, OSError):
            cause = cause.__context__
        if cause is not None and cause is not e:
            raise cause from None
        raise
    return total


def _write_pages(PdfPages: Any, Figure: Any, path: str | Path, initial: Frame, solution: Frame,  # noqa: N803
                 step_pages: Sequence[Sequence[Frame]], appendix_pages: Sequence[Sequence[Frame]], box: Box, *,
                 theme: Mapping[str, Any], lang: str, heading: str, total: int, raster: Any,
                 size: tuple[float, float]) -> None:
    """The pages, in order, into ``path`` (write_workbook's body)."""
    w_in, h_in = size
    inner_w = w_in - 2 * MARGIN_IN
    inner_h = h_in - 2 * MARGIN_IN - FOOTER_IN
    words = WORDS.get(lang, WORDS["en"])
    with PdfPages(str(path), metadata={"Title": "Sudoku workbook", "Creator": "sudoku-explainer"}) as pdf:
        def page() -> Any:
            return Figure(figsize=(w_in, h_in), facecolor=theme["background"])

        def finish(fig: Any, k: int) -> None:
            _footer(fig, k, total, theme, lang)
            pdf.savefig(fig, facecolor=theme["background"])

        def flow(pages: Sequence[Sequence[Frame]], first: int, title: str = "") -> None:
            for k, frames in enumerate(pages):
                fig = page()
                top = h_in - MARGIN_IN
                if title and k == 0:
                    fig.text(0.5, 1 - MARGIN_IN / 2 / h_in, title, ha="center", va="center", fontsize=12,
                             weight="bold", family="DejaVu Sans", color=theme["title"])
                    top -= 0.3
                for f in frames:
                    top -= _step(fig, f, theme, box, MARGIN_IN, top, raster) + GAP_IN
                finish(fig, first + k)

        # 1. the puzzle, with pencil grids in the empty cells
        fig = page()
        fig.text(0.5, 1 - MARGIN_IN / h_in, words["puzzle"], ha="center", va="top", fontsize=16,
                 weight="bold", family="DejaVu Sans", color=theme["title"])
        if heading:
            fig.text(0.5, 1 - (MARGIN_IN + 0.32) / h_in, heading, ha="center", va="top", fontsize=7,
                     family="DejaVu Sans Mono", color=theme["label"])
        fig.text(0.5, 1 - (MARGIN_IN + 0.52) / h_in, words["write"], ha="center", va="top", fontsize=11,
                 family="DejaVu Sans", color=theme["caption"])
        scene = initial.scene
        _frame(fig, scene, theme, (MARGIN_IN, FOOTER_IN + MARGIN_IN, inner_w, inner_h - 0.8), caption=True)
        _pencil_grid(fig, scene, theme)
        finish(fig, 1)
        # 2. the steps, two a page (one fixed size), a long caption running on under its frame
        flow(step_pages, 2)
        # 3. the solution
        fig = page()
        _frame(fig, solution.scene, theme, (MARGIN_IN, FOOTER_IN + MARGIN_IN, inner_w, inner_h))  # vector: one page
        solution_page = 2 + len(step_pages)
        finish(fig, solution_page)
        # 4. the deeper sub-frames asked for
        flow(appendix_pages, solution_page + 1, words["appendix"])
