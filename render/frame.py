"""Draw a scene on a matplotlib Axes (Figure + Agg directly, never pyplot).

Speed: a ``FrameRenderer`` draws the static grid once, keeps the pixels,
and for each frame restores them and draws only the artists of that frame.
Digits are glyph outlines (``TextPath``) merged into one compound path per
colour, so a frame full of candidates costs a handful of artists, not
hundreds of Text objects. All sizes come from the cell size, so 16×16 and
25×25 frames stay legible.
"""
from __future__ import annotations

import io
import math
import textwrap
from collections import OrderedDict
from collections.abc import Callable, Iterator, Mapping, Sequence
from contextlib import contextmanager
from dataclasses import dataclass, field
from functools import cache, lru_cache
from typing import Any, NamedTuple

import numpy as np
from matplotlib.artist import Artist
from matplotlib.backends.backend_agg import FigureCanvasAgg
from matplotlib.collections import LineCollection
from matplotlib.figure import Figure
from matplotlib.font_manager import FontProperties
from matplotlib.patches import FancyBboxPatch, PathPatch
from matplotlib.path import Path
from matplotlib.textpath import TextPath

from explainer.model.explained import Explained
from explainer.model.explanation import Explanation
from explainer.model.state import AnyState
from explainer.model.technique import StepKind

from .routing import Point
from .scene import NO_KINDS, initial_scene
from .scene import scene as make_scene
from .shapes import Scene, Shape, spot
from .sizes import LINK_CLEAR, VALUE_H, cand_h, disk_r, mark_h
from .styles import digit_on
from .theme import DEFAULT_THEME, Theme
from .typeset import glued
from .view import DIGIT_KINDS, MARK_KINDS, SHOWN_WIDTH, View, legible_height, zoomed

# Cell side in inches at the default 100 dpi, per grid size.
CELL_IN = {4: 1.0, 9: 0.8, 16: 0.85, 25: 1.0}  # >= 12 px candidates at 100 dpi (test_frame)
DEFAULT_DPI = 100
MARGIN = {"left": 0.55, "right": 0.3, "top": 1.05, "bottom": 0.15}  # in cells
CAPTION_LINES = 6  # caption and legend (the roles the frame shows) at the caption's own size ...
CAPTION_CHARS = 1000  # ... and at least this many characters at its smallest (se_rated: 913 at most)
LABEL_DIGIT = 0.72  # a row or column number's digit height, in ems of its font size


class Layout:
    """Figure geometry for an n×n grid, in inches and points.

    Every text stays legible when the frame is shown ``SHOWN_WIDTH`` pixels wide: the
    capital letters of the title and of the caption, and the row and column numbers'
    digits, reach ``LEGIBLE_PX`` (``legible_in``); a caption that needs the smallest size
    still has room for ``CAPTION_CHARS`` characters (the strip grows for it)."""

    def __init__(self, n: int, dpi: float | None = None, size: int | None = None,
                 cell_in: float | None = None) -> None:
        self.n = n
        self.m = math.isqrt(n)
        self.cell_in = cell_in or CELL_IN.get(n, 0.6)  # cell_in: a printed page's own cell size
        cell = self.cell_in
        width_in = self.width_in = (n + MARGIN["left"] + MARGIN["right"]) * cell
        # the least height of a glyph (a capital, a digit) legible at SHOWN_WIDTH pixels
        self.legible_in = legible_height(width_in / cell) * cell
        # the smallest caption whose capitals stay legible, never below 8 pt on paper
        self.caption_min_pt = max(8.0, self.legible_in * 72 / cap_height(False))
        self.caption_pt = max(self.caption_min_pt,
                              min(13.0 if n <= 9 else 16.0, cell * 72 * 0.22 * (1 if n <= 9 else 1.25)))
        chars = (width_in - 0.3) * 72 / (0.56 * self.caption_min_pt)  # a line at the smallest size
        self.caption_lines = max(math.ceil(CAPTION_LINES * self.caption_pt / self.caption_min_pt),
                                 math.ceil(CAPTION_CHARS / (0.9 * chars)))  # lines at the smallest size
        self.caption_in = (self.caption_lines * 1.3 * self.caption_min_pt + 8) / 72
        self.title_pt = max(11.0, self.legible_in * 72 / cap_height(True),
                            min(20.0 if n <= 9 else 26.0, cell * 72 * 0.3 * (1 if n <= 9 else 1.3)))
        # title line, then the column numbers, then the grid
        self.top_in = max(MARGIN["top"] * cell, self.title_pt * 1.7 / 72 + 0.55 * cell)
        self.title_y_in = self.title_pt * 0.85 / 72  # title centre below the top edge
        self.height_in = n * cell + self.top_in + MARGIN["bottom"] * cell + self.caption_in
        if size:
            dpi = size / self.width_in
        self.dpi = float(dpi or DEFAULT_DPI)
        self.cell_pt = cell * 72
        self.label_pt = max(7.0, cell * 72 * 0.26, self.legible_in * 72 / LABEL_DIGIT)
        # axes rectangle (figure fraction) holding data 0..n
        self.ax_rect = (MARGIN["left"] * cell / self.width_in,
                        (self.caption_in + MARGIN["bottom"] * cell) / self.height_in,
                        n * cell / self.width_in, n * cell / self.height_in)
        self.caption_chars = int((self.width_in - 0.3) * 72 / (0.56 * self.caption_pt))

    @property
    def pixels(self) -> tuple[int, int]:
        return round(self.width_in * self.dpi), round(self.height_in * self.dpi)


# ---- glyphs ------------------------------------------------------------------------

_FONT = FontProperties(family="DejaVu Sans")
_BOLD = FontProperties(family="DejaVu Sans", weight="bold")


def _no_hinting() -> Any:
    try:
        from matplotlib.ft2font import LoadFlags
        return LoadFlags.NO_HINTING
    except ImportError:  # matplotlib < 3.10
        import matplotlib.ft2font as ft2font

        return getattr(ft2font, "LOAD_NO_HINTING")  # noqa: B009  (absent from the 3.10 stubs)


def _outline(ch: str, bold: bool) -> tuple[np.ndarray, np.ndarray]:
    """A character's outline at size 1 on the baseline: ``TextPath((0, 0), ch, size=1)``'s
    vertices and codes, read from the font as TextPath reads them (its size-100 outline,
    hinting off, scaled by 1/100) without laying out a line of text first: the same numbers,
    15 times faster (a run's first frames draw a hundred characters for the first time).
    A character the font lacks goes through TextPath (its fallback fonts)."""
    from matplotlib.font_manager import findfont, get_font

    prop = _BOLD if bold else _FONT
    font = get_font(findfont(prop))
    if len(ch) != 1 or not font.get_char_index(ord(ch)):
        tp = TextPath((0, 0), ch, size=1, prop=prop)
        return tp.vertices.astype(float), tp.codes.astype(Path.code_type)
    font.set_size(100, 72)  # TextToPath.FONT_SCALE, DPI
    font.load_char(ord(ch), flags=_no_hinting())
    verts, codes = font.get_path()
    return np.asarray(verts, dtype=float) * (1 / 100), np.asarray(codes).astype(Path.code_type)


@cache
def cap_height(bold: bool = False) -> float:
    """The height of a capital letter, in ems (DejaVu Sans: 0.73)."""
    v = _outline("H", bold)[0]
    return float(v[:, 1].max() - v[:, 1].min())


@cache
def _ref_height(bold: bool) -> float:
    v = _outline("8", bold)[0]
    return float(v[:, 1].max() - v[:, 1].min())


@cache
def glyph(ch: str, bold: bool = False) -> tuple[np.ndarray, np.ndarray]:
    """Outline of a character centred on (0, 0), digit height 1, y pointing down."""
    v, codes = _outline(ch, bold)
    v = v.copy()
    lo, hi = v.min(axis=0), v.max(axis=0)
    v -= (lo + hi) / 2
    v /= _ref_height(bold)
    v[:, 1] *= -1
    return v, codes.copy()


def glyphs_path(items: list[tuple[float, float, str]], height: float, bold: bool = False,
                heights: list[float] | None = None,
                placed: dict[tuple[float, float, str, float, bool], np.ndarray] | None = None) -> Path | None:
    """One compound path for many characters (x, y, char) of one height (or ``heights``, one each).
    ``placed``: the outlines already scaled and moved, by character, place and height, kept by
    the caller from frame to frame (a frame's candidates are mostly the last frame's, at the
    same places: a 9x9 frame's plain candidates 0.45 -> 0.1 ms); the same numbers."""
    if not items:
        return None
    verts, codes = [], []
    for i, (x, y, ch) in enumerate(items):
        h = heights[i] if heights else height
        v, c = glyph(ch, bold)
        if placed is None:
            verts.append(v * h + (x, y))
        else:
            key = (x, y, ch, h, bold)
            at = placed.get(key)
            if at is None:
                at = placed[key] = v * h + (x, y)
            verts.append(at)
        codes.append(c)
    return Path(np.concatenate(verts), np.concatenate(codes))


@cache
def _char(ch: str, bold: bool) -> tuple[np.ndarray, np.ndarray, float]:
    """A character's outline at size 1 on the baseline, and its advance."""
    from matplotlib.font_manager import findfont, get_font

    prop = _BOLD if bold else _FONT
    font = get_font(findfont(prop))
    font.set_size(100, 72)
    advance = font.load_char(ord(ch), flags=_no_hinting()).linearHoriAdvance / 65536 / 100
    if ch.isspace():
        return np.zeros((0, 2)), np.zeros(0, dtype=Path.code_type), advance
    verts, codes = _outline(ch, bold)
    return verts, codes, advance


def line_path(line: str, bold: bool = False) -> tuple[np.ndarray | None, np.ndarray | None, float]:
    """(vertices, codes, width) of a line of text at size 1, from cached characters.

    Laying out character by character (no kerning) is ten times faster than
    TextPath on the whole line and looks the same at caption sizes. The characters' outlines
    are joined first and moved to their places in one step (each character's x, the sum of
    the advances before it, added to its vertices: 2.5x faster than one array per character)."""
    chars = [_char(ch, bold) for ch in line]
    drawn = [c for c in chars if len(c[0])]
    starts = np.cumsum([0.0] + [c[2] for c in chars])
    if not drawn:
        return None, None, 0.0
    verts = np.concatenate([c[0] for c in drawn])
    verts[:, 0] += np.repeat(starts[:-1], [len(c[0]) for c in chars])
    return verts, np.concatenate([c[1] for c in drawn]), float(starts[-1])


_CIRCLE = Path.unit_circle()


def circles_path(centres: list[tuple[float, float]], radius: float, radii: list[float] | None = None) -> Path | None:
    if not centres:
        return None
    v0 = np.asarray(_CIRCLE.vertices, dtype=float)
    c0 = np.asarray(_CIRCLE.codes)
    verts = [v0 * (radii[i] if radii else radius) + np.asarray(xy, dtype=float) for i, xy in enumerate(centres)]
    return Path(np.concatenate(verts), np.tile(c0, len(centres)))


def squares_path(cells: list[tuple[int, int]], inset: float, view: View | None = None) -> Path | None:
    if not cells:
        return None
    verts, codes = [], []
    for r, c in cells:
        if view is None:
            x, y, w, h = c + inset, r + inset, 1 - 2 * inset, 1 - 2 * inset
        else:
            x, y, w, h = view.rect(c, r, c + 1, r + 1)
            k = inset * view.scale(r, c)
            x, y, w, h = x + k, y + k, w - 2 * k, h - 2 * k
        verts += [(x, y), (x + w, y), (x + w, y + h), (x, y + h), (x, y)]
        codes += [Path.MOVETO, Path.LINETO, Path.LINETO, Path.LINETO, Path.CLOSEPOLY]
    return Path(verts, codes)


def segments_path(segs: list[tuple[tuple[float, float], tuple[float, float]]]) -> Path | None:
    if not segs:
        return None
    verts, codes = [], []
    for a, b in segs:
        verts += [a, b]
        codes += [Path.MOVETO, Path.LINETO]
    return Path(verts, codes)


def house_rect(n: int, m: int, kind: str, k: int) -> tuple[float, float, float, float]:
    if kind == "row":
        return 0, k, n, 1
    if kind == "col":
        return k, 0, 1, n
    return m * (k % m), m * (k // m), m, m


# ---- drawing -----------------------------------------------------------------------

def draw_static(ax: Any, n: int, theme: Mapping[str, Any], layout: Layout) -> list[Artist]:
    """Grid lines and row/column numbers: the part every frame shares."""
    m = math.isqrt(n)
    ax.set_xlim(0, n)
    ax.set_ylim(n, 0)
    ax.set_axis_off()
    thin = [((i, 0), (i, n)) for i in range(1, n) if i % m] + [((0, i), (n, i)) for i in range(1, n) if i % m]
    thick = [((i, 0), (i, n)) for i in range(0, n + 1, m)] + [((0, i), (n, i)) for i in range(0, n + 1, m)]
    lw_thin = max(0.5, layout.cell_pt * 0.012)
    lw_thick = max(1.5, layout.cell_pt * 0.05)
    artists: list[Artist] = [
        LineCollection(thin, colors=theme["grid"], linewidths=lw_thin, zorder=5),
        LineCollection(thick, colors=theme["grid"], linewidths=lw_thick, zorder=6, capstyle="projecting"),
    ]
    for a in artists:
        a.set_clip_on(False)
        ax.add_collection(a)
    artists += draw_labels(ax, View.plain(n), theme, layout)
    return artists


def draw_labels(ax: Any, view: View, theme: Mapping[str, Any], layout: Layout) -> list[Artist]:
    """The row and column numbers along the top and left edges, centred on their rows and
    columns (of any width: ``View.xs``, ``View.ys``), all of one legible size."""
    n, xs, ys = view.n, view.xs, view.ys
    h = layout.label_pt * LABEL_DIGIT / layout.cell_pt  # a number's digit height, in cells
    items: list[tuple[float, float, str]] = []
    for i in range(n):
        items.append(((xs[i] + xs[i + 1]) / 2, -0.28, str(i + 1)))
        items.append((-0.28, (ys[i] + ys[i + 1]) / 2, str(i + 1)))
    path = _text_items_path(items, [h] * len(items))
    if path is None:
        return []
    p = PathPatch(path, facecolor=theme["label"], linewidth=0, zorder=6)
    p.set_clip_on(False)
    p.set_gid("label")
    ax.add_artist(p)
    return [p]


def draw_grid(ax: Any, view: View, theme: Mapping[str, Any], layout: Layout) -> list[Artist]:
    """Grid lines and row/column numbers of a view that widens some rows and columns (the
    plain grid is drawn once per renderer: ``draw_static``)."""
    n, m = view.n, math.isqrt(view.n)
    xs, ys = view.xs, view.ys
    thin = [((xs[i], 0), (xs[i], n)) for i in range(1, n) if i % m] + \
           [((0, ys[i]), (n, ys[i])) for i in range(1, n) if i % m]
    thick = [((xs[i], 0), (xs[i], n)) for i in range(0, n + 1, m)] + \
            [((0, ys[i]), (n, ys[i])) for i in range(0, n + 1, m)]
    out: list[Any] = [
        LineCollection(thin, colors=theme["grid"], linewidths=max(0.5, layout.cell_pt * 0.012), zorder=5),
        LineCollection(thick, colors=theme["grid"], linewidths=max(1.5, layout.cell_pt * 0.05), zorder=6,
                       capstyle="projecting")]
    for a in out:
        a.set_clip_on(False)
        ax.add_collection(a)
    return out + draw_labels(ax, view, theme, layout)


def _text_items_path(items: list[tuple[float, float, str]], heights: list[float]) -> Path | None:
    """Short texts (row and column numbers) centred at (x, y), digit height each."""
    verts, codes = [], []
    for (x, y, text), h in zip(items, heights, strict=True):
        width = 0.62 * h * len(text)
        for k, ch in enumerate(text):
            v, c = glyph(ch)
            verts.append(v * h + (x - width / 2 + (k + 0.5) * 0.62 * h, y))
            codes.append(c)
    if not verts:
        return None
    return Path(np.concatenate(verts), np.concatenate(codes))


DETAIL_KINDS = ("fill", "outline", "square")  # a cell a big grid shows in detail (with MARK_KINDS)


def scene_view(scene: Scene, layout: Layout) -> View:
    """The view a frame is drawn through (``render.view``): the plain grid, or on a big grid
    that marks candidates the same grid with its marks drawn large enough for their digits
    to stay legible (``view.zoomed``)."""
    n = scene.n
    if not any(s.kind in DIGIT_KINDS for s in scene):
        return View.plain(n)
    # the cells whose marks need their digits, most important first: what the step removes
    # or places, where a proof starts and breaks, then the other marks and the links' ends
    first = ("removed", "placed", "assumption", "contradiction", "conclusion")
    # the shapes kept, then sorted (a stable sort: the same order as sorting every shape first;
    # a 16x16 frame's thousand plain candidates are not sorted)
    kept = [s for s in scene
            if s.row >= 0 and s.role != "candidate" and not s.faint and (s.kind in DIGIT_KINDS or s.role == "placed")]
    must = [(s.row, s.col) for s in sorted(kept, key=lambda s: first.index(s.role) if s.role in first else len(first))]
    for s in scene:
        if s.kind in ("strong", "weak", "arrow") and s.points and not s.faint:
            for x, y in (s.points[0], s.points[-1]):
                must.append((min(n - 1, int(y)), min(n - 1, int(x))))
    if not must:  # a pencil-mark grid (no step marks a candidate): every candidate, at its plain size
        return View.plain(n)
    # the cells a big grid shows in detail: those the step marks, with their candidates
    solved = {(s.row, s.col) for s in scene if s.kind == "value"}
    marked = {(s.row, s.col) for s in scene if s.row >= 0 and (s.kind in DETAIL_KINDS or s.kind in MARK_KINDS)
              and s.role not in ("candidate", "given", "earlier")} - solved
    detail: dict[tuple[int, int], set[int]] = {cell: set() for cell in marked}
    for s in scene:
        if (s.row, s.col) in detail and s.value and (s.kind == "candidate" or s.kind in DIGIT_KINDS):
            detail[s.row, s.col].add(s.value)
    return zoomed(n, layout.width_in / layout.cell_in, detail)


def frame_metrics(scene: Scene, layout: Layout) -> dict[str, float]:
    """How large a frame's candidate digits and caption are, in pixels, when it is shown
    ``SHOWN_WIDTH`` pixels wide: ``digit`` (the smallest candidate digit drawn: a plain
    candidate of a cell shown whole, or a mark's digit; inf when none), ``caption`` (the
    height of the caption's capital letters)."""
    view = scene_view(scene, layout)
    per_cell = SHOWN_WIDTH / (layout.width_in / layout.cell_in)  # pixels per grid unit
    m = scene.m
    digits = [view.scale(s.row, s.col) * cand_h(m) for s in scene
              if s.kind == "candidate" and view.whole(s.row, s.col)]
    digits += [view.full * mark_h(m) for s in scene if s.kind == "candidate" and (s.row, s.col) in view.detail]
    digits += [view.mark_scale(s.row, s.col) * mark_h(m) for s in scene if s.kind in DIGIT_KINDS[1:]]
    digit = min(digits) * per_cell if digits else float("inf")
    _, _, fs = fit_caption(scene.text("caption"), scene.text("legend"), layout)
    caption = fs * cap_height() / 72 * SHOWN_WIDTH / layout.width_in if scene.text("caption") else float("inf")
    return {"digit": digit, "caption": caption}


FAINT = 0.3  # the opacity of a faint shape (a proof's earlier facts)
HOUSE_LINES = {"solid": ("-", 0.045), "dashed": ((0, (5, 3)), 0.045), "dotted": ((0, (1.5, 2.5)), 0.04),
               "thick": ("-", 0.07)}  # a house outline's line style and width (in cells)


def draw(ax: Any, scene: Scene, theme: Mapping[str, Any], layout: Layout | None = None,
         origin: tuple[float, float] = (0.0, 0.0), focus: bool = True, pool: PatchPool | None = None,
         texts: list[TextRun] | None = None, view: View | None = None) -> list[Any]:
    """Add the artists of one scene to ``ax`` (and its figure); return them in drawing order.

    ``origin``: where the frame's bottom-left corner is in its figure, in inches (a
    workbook page holds two frames). ``focus``: a big grid's frame widens the rows and
    columns the step marks (``scene_view``); without it, the plain grid. ``pool``: the
    filled paths are ``PatchPool`` patches to draw straight onto a raster canvas (they do
    not join the figure), not artists of their own. ``texts``: the title, caption and legend
    are not drawn but put there (``TextRun``), for a raster canvas to draw them itself."""
    layout = layout or Layout(scene.n)
    if view is None:  # ``view``: the scene's view when the caller has it already (``scene_view``)
        view = scene_view(scene, layout) if focus else View.plain(scene.n)
    art: list[Any] = [] if view.uniform else draw_grid(ax, view, theme, layout)
    painter = _Painter(ax, scene, theme, layout, view, art, pool)
    painter.cells()
    painter.houses()
    painter.digits()
    heads = painter.links()
    painter.marks()
    painter.heads(heads)
    art += draw_texts(ax.figure, scene, theme, layout, origin, pool, texts)
    return art


PLACED_GLYPHS = 40_000  # candidates' outlines kept in place by a renderer (``PatchPool.placed``)


class PatchPool:
    """Filled paths drawn straight onto a raster canvas, each through a patch of its style
    made once (``patch``): a frame's few dozen paths would otherwise each build a
    ``PathPatch`` (its properties checked against rcParams, its colours converted), join the
    axes or the figure (a clip path, a transform) and leave them again, which cost more than
    drawing them (issue 43: about 2 ms of a 9x9 frame's 7). The pixels are those of the
    artist: the same ``Patch.draw`` runs, on the same path, properties and transform."""

    def __init__(self) -> None:
        self._styles: dict[Any, PathPatch] = {}
        # candidates' outlines in place (``glyphs_path``'s ``placed``), for the frames to come;
        # emptied when it holds more than PLACED_GLYPHS (a 25x25 grid's every candidate, 15,625)
        self.placed: dict[tuple[float, float, str, float, bool], np.ndarray] = {}

    def _proto(self, kind: str, make: Callable[[], Any], style: Mapping[str, Any]) -> Any:
        try:
            key = (kind, tuple(sorted(style.items())))
            hash(key)
        except TypeError:  # a colour given as a list: its text names it as well
            key = (kind, tuple(sorted((k, repr(v)) for k, v in style.items())))
        proto = self._styles.get(key)
        if proto is None:
            proto = self._styles[key] = make()
            proto.set_clip_on(False)
        return proto

    def patch(self, path: Path, transform: Any, style: Mapping[str, Any]) -> PooledPatch:
        """A drawable ``path`` in ``style`` (``PathPatch`` keywords) through ``transform``."""
        proto = self._proto("path", lambda: PathPatch(path, **style), style)
        return PooledPatch(proto, path, transform)

    def box(self, bounds: tuple[float, float, float, float], transform: Any,
            style: Mapping[str, Any]) -> PooledPatch:
        """A drawable ``FancyBboxPatch`` of ``bounds`` (x, y, width, height) in ``style``."""
        proto = self._proto("box", lambda: FancyBboxPatch(bounds[:2], *bounds[2:], **style), style)
        return PooledPatch(proto, bounds, transform)


def _prepared(proto: Any, renderer: Any) -> tuple[Any, Any] | None:
    """The graphics context and face colour ``Patch.draw`` would hand ``renderer.draw_path`` for
    ``proto`` (a ``PathPatch`` of the pool, its style fixed), made once per renderer and kept on
    the patch: a frame draws about ten paths, and setting a context up again for each (colours,
    width, dashes, caps, clip) cost 70 us of a 160 us draw. None: a patch whose drawing needs
    more than one plain ``draw_path`` (hatch, sketch, path effects, gap colour, hidden) is drawn
    by matplotlib itself."""
    kept = getattr(proto, "_pool_gc", None)
    if kept is not None and kept[0] is renderer:
        done: tuple[Any, Any] | None = kept[1]
        return done
    ready: tuple[Any, Any] | None = None
    patch: Any = proto  # its drawing properties, read as Patch.draw reads them
    if (isinstance(proto, PathPatch) and proto.get_visible() and not proto.get_hatch()
            and proto.get_sketch_params() is None and not proto.get_path_effects()
            and getattr(proto, "_gapcolor", None) is None and not proto.get_clip_on()):
        gc = renderer.new_gc()
        lw = patch._linewidth
        if patch._edgecolor[3] == 0 or patch._linestyle == "None":
            lw = 0
        gc.set_linewidth(lw)
        gc.set_capstyle(patch._capstyle)
        gc.set_joinstyle(patch._joinstyle)
        gc.set_antialiased(patch._antialiased)
        gc.set_clip_rectangle(None)
        gc.set_clip_path(None)
        gc.set_url(patch._url)
        gc.set_snap(proto.get_snap())
        gc.set_alpha(patch._alpha)
        gc.set_foreground(patch._edgecolor, isRGBA=True)
        if lw > 0:
            gc.set_dashes(*patch._dash_pattern)
        else:
            gc.set_dashes(0, None)
        face = patch._facecolor if patch._facecolor[3] else None
        ready = (gc, face)
    proto._pool_gc = (renderer, ready)
    return ready


class PooledPatch:
    """One path (or box) of a ``PatchPool``: drawn by its style's patch (given the path or
    bounds and the transform just before), removed by forgetting it (it never joined a figure)."""

    __slots__ = ("proto", "path", "transform")

    def __init__(self, proto: Any, path: Path | tuple[float, float, float, float], transform: Any) -> None:
        self.proto, self.path, self.transform = proto, path, transform

    def draw(self, renderer: Any) -> None:
        p = self.proto
        if isinstance(self.path, tuple):
            p.set_bounds(*self.path)
        else:
            ready = _prepared(p, renderer)
            if ready is not None:  # what Patch.draw does, its graphics context set up once
                gc, face = ready
                tpath = self.transform.transform_path_non_affine(self.path)
                renderer.draw_path(gc, tpath, self.transform.get_affine(), face)
                return
            p.set_path(self.path)
        p.set_transform(self.transform)
        p.draw(renderer)

    def remove(self) -> None:
        pass

    def get_gid(self) -> str | None:
        gid: str | None = self.proto.get_gid()
        return gid


class _Painter:
    """The grid's layers of one frame, drawn bottom to top (each shape one more z): cells,
    houses, values and candidates, links, candidate marks, arrowheads. It keeps what every
    layer shares: the view, the sizes, the shapes by kind and the artists drawn so far."""

    def __init__(self, ax: Any, scene: Scene, theme: Mapping[str, Any], layout: Layout, view: View,
                 art: list[Any], pool: PatchPool | None = None) -> None:
        self.ax, self.theme, self.view, self.art, self.pool = ax, theme, view, art, pool
        self.n, self.m = scene.n, scene.m
        m = scene.m
        self.cp = layout.cell_pt
        self.z = 10
        self.by_kind: dict[str, list[Shape]] = {}
        for s in scene:
            self.by_kind.setdefault(s.kind, []).append(s)
        self.r_small = disk_r(m)  # disk radius of a candidate: neighbouring disks never touch
        self.h_cand = cand_h(m)
        self.h_disk = mark_h(m)  # a digit on a disk (big grids: the disk is small)
        # where each candidate mark goes: its spot, or side by side in a narrow cell (view.places)
        self.places = view.places((s.row, s.col, s.value) for s in scene if s.kind in MARK_KINDS and s.row >= 0)

    # ---- what every layer uses ----

    def add_path(self, path: Path | None, **kw: Any) -> None:
        if path is None:
            return
        kw.setdefault("linewidth", 0)
        if self.pool is not None:  # drawn in list order: the z is the artists' alone
            self.art.append(self.pool.patch(path, self.ax.transData, kw))
            return
        p = PathPatch(path, zorder=self.z, **kw)
        p.set_clip_on(False)
        self.z += 1
        self.ax.add_artist(p)  # add_artist: no data-limit update (add_patch walks every Bézier)
        self.art.append(p)

    def get(self, *kinds: str) -> list[Shape]:
        return [s for k in kinds for s in self.by_kind.get(k, ())]

    def by_colour(self, shapes: list[Shape]) -> list[tuple[tuple[str, bool], list[Shape]]]:
        groups: dict[tuple[str, bool], list[Shape]] = {}
        for s in shapes:
            groups.setdefault((s.colour, s.faint), []).append(s)
        return sorted(groups.items())

    def col(self, key: str) -> Any:
        return self.theme.get(key, self.theme["label"])

    def sp(self, s: Shape) -> tuple[float, float]:
        return self.places.get((s.row, s.col, s.value)) or self.view.point(spot(self.n, s.row, s.col, s.value))

    def k(self, s: Shape) -> float:
        return self.view.scale(s.row, s.col)

    def centre(self, s: Shape) -> tuple[float, float]:
        return self.view.point((s.col + 0.5, s.row + 0.5))

    # ---- the layers, bottom to top ----

    def cells(self) -> None:
        """Translucent squares (one fill per cell), the struck-out cell of a contradiction, and
        bands: a translucent closed line through cell centres (a unique loop), under the digits."""
        theme, view, cp = self.theme, self.view, self.cp
        alpha_fill = float(theme.get("cells_alpha", 0.35))
        alpha_tint = float(theme.get("tint_alpha", 0.45))
        for (key, _), shapes in self.by_colour(self.get("fill")):
            self.add_path(squares_path([(s.row, s.col) for s in shapes], 0.06, view), facecolor=self.col(key),
                          alpha=alpha_tint if key.startswith("tint") else alpha_fill, edgecolor="none")
        self.add_path(squares_path([(s.row, s.col) for s in self.get("square")], 0.04, view),
                      facecolor=theme["contradiction"], alpha=0.22, edgecolor=theme["contradiction"],
                      linewidth=cp * 0.06)
        for s in self.get("band"):
            pts = [view.point(p) for p in s.points]
            self.add_path(Path(pts, [Path.MOVETO] + [Path.LINETO] * (len(pts) - 2) + [Path.CLOSEPOLY]),
                          facecolor="none", edgecolor=self.col(s.colour), linewidth=cp * 0.22, alpha=0.35,
                          joinstyle="round", capstyle="round")

    def houses(self) -> None:
        """Inset rounded outlines (overlapping ones stay apart)."""
        n, m, view = self.n, self.m, self.view
        for i, s in enumerate(self.get("solid", "dashed", "dotted", "thick")):
            if s.house is None:
                continue
            x0, y0, w0, h0 = house_rect(n, m, *s.house)
            x, y, w, h = view.rect(x0, y0, x0 + w0, y0 + h0)
            if view.is_plain or not view.uniform:
                inset = (0.05 + 0.04 * (i % 3)) * (1.0 if view.is_plain else min(1.5, view.full))
            else:  # a big grid's marks fill its cells (View.packed): the outlines hug the grid lines
                inset = 0.03 + 0.025 * (i % 3)
            ls, lw = HOUSE_LINES[s.kind]
            bounds = (x + inset, y + inset, w - 2 * inset, h - 2 * inset)
            style = {"boxstyle": f"round,pad=0,rounding_size={0.3:.2f}", "fill": False,
                     "edgecolor": self.col(s.colour), "linewidth": self.cp * lw, "linestyle": ls,
                     "alpha": FAINT if s.faint else 1.0}
            if self.pool is not None:
                self.art.append(self.pool.box(bounds, self.ax.transData, style))
                continue
            patch = FancyBboxPatch(bounds[:2], *bounds[2:], zorder=self.z, clip_on=False, **style)
            self.z += 1
            self.ax.add_artist(patch)  # add_artist: no data-limit update (add_patch walks every Bézier)
            self.art.append(patch)

    def digits(self) -> None:
        """Cell outlines and rings around solved cells, the values, the order of grouped
        singles, the plain candidates."""
        theme, view, cp, k = self.theme, self.view, self.cp, self.k
        for (key, _), shapes in self.by_colour(self.get("outline")):
            self.add_path(squares_path([(s.row, s.col) for s in shapes], 0.07, view), facecolor="none",
                          edgecolor=self.col(key), linewidth=cp * 0.07)
        for (key, _), shapes in self.by_colour(self.get("circle")):
            self.add_path(circles_path([self.centre(s) for s in shapes], 0.4, [0.4 * k(s) for s in shapes]),
                          facecolor="none", edgecolor=self.col(key), linewidth=cp * 0.045)
        for (key, _), shapes in self.by_colour(self.get("value")):
            items = [(*self.centre(s), s.char) for s in shapes]
            self.add_path(glyphs_path(items, VALUE_H, bold=(shapes[0].role == "placed"),
                                      heights=[VALUE_H * k(s) for s in shapes]), facecolor=self.col(key), gid="value",
                          # never snapped to whole pixels: Agg snaps a path of straight strokes only
                          # (F, 7 alone) and not one with curves, so a value would move by a pixel
                          # with the other values in its path (a kept layer draws new ones alone)
                          snap=False)
        # grouped singles: the order of the placed values, small in the cell's top-left corner
        order = [(*view.point((s.col + 0.06 + 0.075 * len(s.text), s.row + 0.16)), s.text) for s in self.get("label")]
        self.add_path(glyphs_path(order, 0.17, bold=True), facecolor=theme["place"], gid="order")
        # plain candidates of cells shown whole or in detail (another cell of a big grid shows
        # its big digit and its marks); in a cell shown in detail, packed beside it at the
        # height of the marks' digits (legible, and clear of its neighbours)
        plain = [s for s in self.get("candidate") if view.whole(s.row, s.col) or (s.row, s.col) in view.detail]
        at = [view.packed(s.row, s.col, s.value) if (s.row, s.col) in view.detail else self.sp(s) for s in plain]
        heights = [self.h_disk * view.full if (s.row, s.col) in view.detail else self.h_cand * k(s) for s in plain]
        bold_cand = self.m >= 4  # small letters (16×16, 25×25) read better bold: "D" is not "0"
        placed = None
        if self.pool is not None:
            if len(self.pool.placed) > PLACED_GLYPHS:
                self.pool.placed.clear()
            placed = self.pool.placed
        self.add_path(glyphs_path([(*xy, s.char) for xy, s in zip(at, plain, strict=True)], self.h_cand,
                                  bold=bold_cand, heights=heights, placed=placed),
                      facecolor=theme["candidate"], gid="candidate")

    def links(self) -> dict[tuple[str, bool], list[list[Point]]]:
        """Links (solid strong, dashed weak) and a proof's arrows; the heads of the directed
        ones, by colour, drawn last (``heads``)."""
        view, m = self.view, self.m
        lw_link = self.cp * 0.035 * min(1.0, (3 / m) ** 0.5)
        heads: dict[tuple[str, bool], list[list[Point]]] = {}
        for s in self.get("weak", "strong", "arrow"):
            pts = _link_points(s.points, view, self.places, 1.2 if s.kind == "arrow" else LINK_CLEAR)
            ls = (0, (4, 2.5)) if s.kind == "weak" else "-"
            self.add_path(_curve(pts), facecolor="none", edgecolor=self.col(s.colour),
                          linewidth=lw_link * (1.15 if s.kind == "arrow" else 1.0),
                          linestyle=ls, capstyle="round", alpha=FAINT if s.faint else 1.0)
            if s.directed:
                # a short link (inside a cell) gets a head in proportion, never one longer than its line
                length = sum(math.dist(p, q) for p, q in zip(pts, pts[1:], strict=False))
                heads.setdefault((s.colour, s.faint), []).append(
                    _head(pts, min(self.r_small * 1.1 * view.full, 0.4 * length)))
        return heads

    def circles(self, shapes: list[Shape], radius: float, **kw: Any) -> None:
        """Candidate marks' disks or rings (no wider than a packed cell's pitch: ``View.disk_scale``)."""
        # a candidate's ring only: "thick" also outlines a house (drawn above), not a candidate
        shapes = [s for s in shapes if s.row >= 0]
        self.add_path(circles_path([self.sp(s) for s in shapes], 1.0,
                                   [radius * self.view.disk_scale(s.row, s.col) for s in shapes]), **kw)

    def mark_digits(self, shapes: list[Shape], colour: Any, faint: bool) -> None:
        """The digits on candidate marks, at their cell's scale or the full one in a narrow cell."""
        self.add_path(glyphs_path([(*self.sp(s), s.char) for s in shapes], self.h_disk, bold=True,
                                  heights=[self.h_disk * self.view.mark_scale(s.row, s.col) for s in shapes]),
                      facecolor=colour, alpha=_alpha(faint), gid="mark")

    def strikes(self, shapes: list[Shape], colour: Any, faint: bool) -> None:
        segs = []
        for s in shapes:
            x, y = self.sp(s)
            d = self.r_small * 0.92 * self.view.disk_scale(s.row, s.col)
            segs.append(((x - d, y + d), (x + d, y - d)))
        self.add_path(segments_path(segs), facecolor="none", edgecolor=colour,
                      linewidth=max(1.0, self.cp * 0.032 * (3 / self.m) ** 0.5), capstyle="round", alpha=_alpha(faint))

    def marks(self) -> None:
        """Candidate marks (disks, lights, rings, struck ones), then the rings around a
        candidate: the assumption (thick), a contradiction or a conclusion (halo)."""
        theme, cp, r_small, col = self.theme, self.cp, self.r_small, self.col
        for (key, faint), shapes in self.by_colour(self.get("disk")):
            self.circles(shapes, r_small, facecolor=col(key), alpha=_alpha(faint))
            self.mark_digits(shapes, digit_on(theme, key), faint)
        for (key, faint), shapes in self.by_colour(self.get("light")):
            self.circles(shapes, r_small, facecolor=col(key), edgecolor=theme["off_ring"], linewidth=cp * 0.025,
                         alpha=_alpha(faint))
            self.mark_digits(shapes, digit_on(theme, key), faint)
        for (key, faint), shapes in self.by_colour(self.get("ring", "struck-ring")):
            self.circles(shapes, r_small * 0.92, facecolor=theme["background"], edgecolor=col(key),
                         linewidth=cp * 0.03, alpha=_alpha(faint))
            self.mark_digits(shapes, col(key), faint)
        for (key, faint), shapes in self.by_colour(self.get("struck")):
            self.circles(shapes, r_small, facecolor=col(key), alpha=_alpha(faint))
            self.mark_digits(shapes, digit_on(theme, key), faint)
        for (_, faint), shapes in self.by_colour(self.get("struck")):
            self.strikes(shapes, theme["strike"], faint)
        for (key, faint), shapes in self.by_colour(self.get("struck-ring")):
            self.strikes(shapes, col(key), faint)
        for (key, faint), shapes in self.by_colour(self.get("thick")):
            self.circles(shapes, r_small * 1.3, facecolor="none", edgecolor=col(key),
                         linewidth=cp * 0.07 * min(1.0, 3 / self.m), alpha=_alpha(faint))
        for (key, faint), shapes in self.by_colour(self.get("halo")):
            self.circles(shapes, r_small * 1.18, facecolor="none", edgecolor=col(key), linewidth=cp * 0.06,
                         alpha=_alpha(faint))

    def heads(self, heads: dict[tuple[str, bool], list[list[Point]]]) -> None:
        """Arrowheads on top: a head never hides under the disk it points at."""
        for (key, faint), tris in sorted(heads.items()):
            verts, codes = [], []
            for tri in tris:
                verts += tri + [tri[0]]
                codes += [Path.MOVETO, Path.LINETO, Path.LINETO, Path.CLOSEPOLY]
            self.add_path(Path(verts, codes), facecolor=self.col(key), alpha=FAINT if faint else 1.0)


def _alpha(faint: bool) -> float:
    return FAINT if faint else 1.0


class TextRun(NamedTuple):
    """Lines of text (``text_patch``'s arguments): the first baseline at (``x_in``, ``y_in``)
    inches from the figure's bottom-left corner, ``spacing`` times the size from baseline to
    baseline; ``gid``: what it is (title, caption, legend)."""

    lines: list[str]
    x_in: float
    y_in: float
    size_pt: float
    colour: Any
    ha: str = "left"
    bold: bool = False
    spacing: float = 1.3
    gid: str = ""

    def patch(self, fig: Any, pool: PatchPool | None = None) -> Any:
        return text_patch(fig, self.lines, self.x_in, self.y_in, self.size_pt, self.colour, ha=self.ha,
                          bold=self.bold, spacing=self.spacing, gid=self.gid, pool=pool)


def draw_texts(fig: Any, scene: Scene, theme: Mapping[str, Any], layout: Layout,
               origin: tuple[float, float], pool: PatchPool | None = None,
               texts: list[TextRun] | None = None) -> list[Any]:
    """The title and the caption (with the legend): glyph outlines too (matplotlib's Text lays
    out and rasterises glyph by glyph, 30 ms a caption; a TextPath fill is ~2 ms). ``texts``:
    the runs are put there instead, none drawn (``FrameRenderer`` draws them)."""
    runs: list[TextRun] = []
    W, H = layout.width_in, layout.height_in
    ox, oy = origin
    title = scene.text("title")
    if title:
        runs.append(TextRun([title], ox + W / 2, oy + H - layout.title_y_in - 0.35 * layout.title_pt / 72,
                            layout.title_pt, theme["title"], ha="center", bold=True, gid="title"))
    caption = scene.text("caption")
    legend = scene.text("legend")
    if caption or legend:
        lines, leg, fs = fit_caption(caption, legend, layout)
        y0 = layout.caption_in - 4 / 72 - fs / 72
        if lines:
            runs.append(TextRun(lines, ox + 0.15, oy + y0, fs, theme["caption"], gid="caption"))
        if leg:
            runs.append(TextRun(leg, ox + 0.15, oy + y0 - len(lines) * fs * 1.3 / 72, fs, theme["label"],
                                gid="legend"))
    if texts is not None:
        texts += runs
        return []
    return [r.patch(fig, pool) for r in runs]


def wrap_words(text: str, width: int) -> list[str]:
    """``textwrap.wrap`` that never breaks before French ; : ! ? » or after « (``typeset.glued``:
    a no-break space there, which textwrap keeps)."""
    return textwrap.wrap(glued(text), width) if text else []


def fit_caption(caption: str, legend: str, layout: Layout) -> tuple[list[str], list[str], float]:
    """The caption's and the legend's lines and their size (pt), in the caption strip
    (``CAPTION_LINES`` lines at the layout's caption size) at no less than its smallest
    legible size: the font shrinks first (more lines fit), then the legend goes (the
    caption names the roles too), then the caption's end is cut ("…")."""
    def wrap(text: str, fs: float) -> list[str]:
        return wrap_words(text, int(layout.caption_chars * layout.caption_pt / fs))

    def room(fs: float) -> int:
        return int(layout.caption_lines * layout.caption_min_pt / fs + 1e-9)

    fs = layout.caption_pt
    while True:
        lines, leg = wrap(caption, fs), wrap(legend, fs)
        if len(lines) + len(leg) <= room(fs) or fs <= layout.caption_min_pt:
            break
        fs = max(layout.caption_min_pt, fs * 0.95)
    if len(lines) + len(leg) > room(fs):
        leg = []
    if len(lines) > room(fs):
        lines = lines[:room(fs)]
        lines[-1] = lines[-1][:max(0, len(lines[-1]) - 2)].rstrip() + " …"
    return lines, leg, fs


def text_patch(fig: Any, lines: list[str], x_in: float, y_in: float, size_pt: float, color: Any,
               ha: str = "left", bold: bool = False, spacing: float = 1.3, gid: str | None = None,
               pool: PatchPool | None = None) -> Any:
    """Lines of text as one filled path; (x_in, y_in) is the first baseline, in inches; ``gid``:
    what it is (title, caption, legend: the legibility tests measure it by that name)."""
    from matplotlib.transforms import Affine2D

    verts: list[np.ndarray] = []
    codes: list[np.ndarray] = []
    for i, line in enumerate(lines):
        v, c, width = line_path(line, bold)
        if v is None or c is None:
            continue
        v = v * size_pt
        if ha == "center":
            v[:, 0] -= width * size_pt / 2
        v[:, 1] -= i * size_pt * spacing
        verts.append(v)
        codes.append(c)
    if not verts:
        verts, codes = [np.zeros((1, 2))], [np.array([Path.MOVETO], dtype=Path.code_type)]
    path = Path(np.concatenate(verts), np.concatenate(codes))
    tr = Affine2D().scale(1 / 72).translate(x_in, y_in) + fig.dpi_scale_trans
    if pool is not None:
        return pool.patch(path, tr, {"facecolor": color, "linewidth": 0, "gid": gid})
    p = PathPatch(path, facecolor=color, linewidth=0, transform=tr, zorder=100, gid=gid)
    p.set_clip_on(False)
    fig.add_artist(p)
    return p


def _curve(pts: Sequence[Point]) -> Path:
    """A straight segment, one quadratic, or quadratic pieces (a, c1, w, c2, b, …)."""
    if len(pts) == 2:
        return Path(pts, [Path.MOVETO, Path.LINETO])
    return Path(pts, [Path.MOVETO] + [Path.CURVE3] * (len(pts) - 1))


def _head(pts: Sequence[Point], size: float) -> list[Point]:
    """An arrowhead triangle at the end of a route, pointing along its last tangent."""
    (x0, y0), (x1, y1) = pts[-2], pts[-1]
    d = math.hypot(x1 - x0, y1 - y0) or 1.0
    ux, uy = (x1 - x0) / d, (y1 - y0) / d
    bx, by = x1 - ux * size, y1 - uy * size
    return [(x1, y1), (bx - uy * size * 0.55, by + ux * size * 0.55), (bx + uy * size * 0.55, by - ux * size * 0.55)]


def _clip_ends(pts: Sequence[Point], centres: Sequence[Point], radii: Sequence[float]) -> list[Point]:
    """Pull both ends of a route back to the circle (``centres``, ``radii``: the first end's,
    the last end's) around the candidate each starts in (a route may leave its disk off
    centre, see routing.py)."""
    out = [(p[0], p[1]) for p in pts]
    for (end, nxt), (cx, cy), radius in zip(((0, 1), (-1, -2)), centres, radii, strict=True):
        p, q = pts[end], pts[nxt]
        ux, uy = q[0] - p[0], q[1] - p[1]
        L = math.hypot(ux, uy) or 1.0
        ux, uy = ux / L, uy / L
        wx, wy = p[0] - cx, p[1] - cy
        b = wx * ux + wy * uy
        disc = b * b - (wx * wx + wy * wy - radius * radius)
        t = -b + math.sqrt(disc) if disc > 0 else 0.0
        t = min(max(t, 0.0), L * 0.4)
        out[end] = (p[0] + ux * t, p[1] + uy * t)
    return out


def _link_points(points: Sequence[Point], view: View, places: Mapping[tuple[int, int, int], Point],
                 clear: float) -> list[Point]:
    """A link's (or an arrow's) route in view units, its ends pulled back to ``clear`` disk
    radii from the marks it joins: at their spots, or where a narrow cell lays its marks
    out (``View.places``; a link inside a narrow cell then joins its two marks straight)."""
    n = view.n
    ends = view.nearest(points[0]), view.nearest(points[-1])
    pts = [view.point(p) for p in points]
    moved = [not view.whole(e[0], e[1]) and e in places for e in ends]
    if ends[0][:2] == ends[1][:2] and any(moved):
        pts = [places.get(ends[0], pts[0]), places.get(ends[1], pts[-1])]
    for i, end in zip((0, -1), ends, strict=True):
        if moved[i]:
            pts[i] = places[end]
    centres = [places.get(e) or view.point(spot(n, *e)) for e in ends]
    return _clip_ends(pts, centres, [view.disk(e[0], e[1]) * clear for e in ends])


def _shorten(points: Sequence[Point], by: float) -> list[Point]:
    """Pull both ends of a link back to the edge of the disks it joins."""
    pts = [(p[0], p[1]) for p in points]

    def toward(p: Point, q: Point) -> Point:
        dx, dy = q[0] - p[0], q[1] - p[1]
        d = math.hypot(dx, dy) or 1.0
        k = min(by, d * 0.4) / d
        return (p[0] + dx * k, p[1] + dy * k)
    out = list(pts)
    out[0] = toward(pts[0], pts[1])
    out[-1] = toward(pts[-1], pts[-2])
    return out


# ---- renderer ----------------------------------------------------------------------

LINE_CACHE_BYTES = 24 << 20  # the pixels of legend lines a renderer keeps (the 16x16 example's 110: ~20 MB)
WORD_CACHE_BYTES = 32 << 20  # the pixels of title and caption words a renderer keeps
VALUE_CACHE_BYTES = 16 << 20  # the pixels of big digits a renderer keeps (a 25x25 grid's 625: about 6 MB)
Box = tuple[int, int, int, int]  # canvas rows r0:r1, columns c0:c1
Kept = tuple[bytes, int, int, int, bytes]  # a kept block's pixels, width, corner (row, column; or from
                                           # a word's pen and baseline), the ground it was drawn on


def _ink_box(pts: np.ndarray, h: int) -> Box:
    """The canvas box holding what Agg inks filling an outline through ``pts`` (display pixels, y
    up; the outline's points hold its curves): their box, ±1 pixel."""
    (lx, ly), (hx, hy) = pts.min(axis=0), pts.max(axis=0)
    return math.floor(h - hy) - 1, math.ceil(h - ly) + 1, math.floor(lx) - 1, math.ceil(hx) + 1


def _ground(buf: np.ndarray, box: Box) -> bytes | None:
    """The one colour of ``box`` on the canvas (a pixel's 4 bytes); None when it holds more than
    one or crosses the canvas's edge."""
    r0, r1, c0, c1 = box
    h, w = buf.shape[:2]
    if not (0 <= r0 < r1 <= h and 0 <= c0 < c1 <= w):
        return None
    area = buf[r0:r1, c0:c1].view(np.uint32)[..., 0]  # a pixel's 4 bytes as one
    return area[0, 0].tobytes() if bool((area == area[0, 0]).all()) else None


def _keep(store: dict[Any, Kept], key: Any, kept: Kept, held: int, budget: int) -> int:
    """``kept`` put in ``store`` under ``key`` (the newest), the oldest dropped while the pixels
    held pass ``budget``; returns the bytes ``store`` holds (``held`` before)."""
    old = store.pop(key, None)
    if old is not None:
        held -= len(old[0])
    store[key] = kept
    held += len(kept[0])
    while held > budget and len(store) > 1:
        held -= len(store.pop(next(iter(store)))[0])  # the oldest kept
    return held


LAYER_ROLES = ("given", "earlier")  # the values kept from frame to frame (FrameRenderer.keep_values)
LAYER_REFRESH = 8  # values drawn on the kept layer before it is kept again
UNDER_VALUES = ("fill", "square")  # what a frame draws under a value's digit, in its cell


@dataclass(eq=False)
class Over:
    """A frame's layer (the pixels the canvas held before the frame's own shapes were drawn)
    and what is known of it, for looking the frame's rows and tile up over it
    (``explainer.core.pixels``'s ``quantize`` and ``quantize_tile``): the layer's palette indices
    (each row after PNG's filter byte), the dirty map the lookup fills, the layer's whole
    reductions made so far (by factor and rows: ``pixels.reduce``'s)."""

    layer: np.ndarray
    rows: bytes
    dirty: bytearray
    reduced: dict[tuple[int, int], bytes] = field(default_factory=dict)
    # the chunks the frame on the canvas drew on (``quantize``'s ``todo``: the others are the
    # layer's, not read), set by ``FrameRenderer.over`` for that frame; None: any, all read
    todo: bytearray | None = None
    # the renderer's buffer the rows are written into (``quantize``'s ``out``: the frame's rows,
    # valid until the next frame's), and whether it holds this layer's rows already but in the
    # chunks ``dirty`` marks (``kept``: only those and the chunks looked up are written)
    out: bytearray | None = None
    kept: bool = False
    # whether the lookup puts the layer back on the canvas as it goes (``quantize``'s ``restore``:
    # the chunks the frame changed copied back while they are in the cache), set for the frame by
    # its caller when nothing reads the canvas after its rows; the next frame then starts from it
    restore: bool = False
    # the layer's contact-sheet tiles (``tile_parts``): by factor, rows and size, its horizontal
    # pass and its indices
    tiles: dict[tuple[int, int, int, int], tuple[bytearray, bytes]] = field(default_factory=dict)

    def into(self) -> tuple[bytearray | None, bytearray | None, bool]:
        """``quantize``'s ``todo``, ``out``, ``kept``."""
        return self.todo, self.out, self.kept

    def args(self) -> tuple[np.ndarray, bytes, bytearray]:
        """``quantize``'s ``layer``, ``layer_rows``, ``dirty``."""
        return self.layer, self.rows, self.dirty

    def reduction(self, k: int, rows: int) -> bytes:
        """The layer's top ``rows`` rows reduced by ``k`` (``pixels.reduce``), made once."""
        from explainer.core import pixels

        red = self.reduced.get((k, rows))
        if red is None:
            assert pixels.reduce is not None  # over a layer: the compiled lookup is built
            h, w = self.layer.shape[:2]
            red = self.reduced[(k, rows)] = pixels.reduce(self.layer, w, 4 * w, k, rows)
        return red

    def tile_parts(self, k: int, rows: int, resize: tuple[Any, ...], size: tuple[int, int],
                   lut: bytes) -> tuple[bytes, bytearray, bytes]:
        """``quantize_tile``'s ``layer_reduced``, ``layer_passed`` and ``layer_tile`` of the layer's
        tile (reduced by ``k`` over its top ``rows`` rows, then resized by ``resize``'s plan to
        ``size``), made once: the tile's pixels whose inputs the frame did not draw on are the
        layer's."""
        from explainer.core import pixels

        key = (k, rows, *size)
        parts = self.tiles.get(key)
        if parts is None:
            assert pixels.tile is not None  # over a layer: the compiled lookup is built
            h, w = self.layer.shape[:2]
            yb = np.frombuffer(resize[3], np.int32)
            first, last = int(yb[0]), int(yb[2 * (size[1] - 1)] + yb[2 * (size[1] - 1) + 1])
            passed = bytearray((last - first) * 3 * size[0])
            indices = pixels.tile(self.layer, w, 4 * w, k, rows, *resize, *size, lut, passed)
            parts = self.tiles[key] = (passed, indices)
        return (self.reduction(k, rows), *parts)


class FrameRenderer:
    """One figure per grid size and theme, reused for every frame."""

    def __init__(self, n: int, theme: Theme = DEFAULT_THEME, dpi: float | None = None,
                 size: int | None = None, keep_values: bool = False) -> None:
        self.n = n
        # keep_values: the pixels of the grid with the last frame's givens and earlier values
        # are kept and the next frame starts from them (a run's renderer; not the shared
        # ``renderer()``s, which would hold a puzzle's state between unrelated calls)
        self.keep_values = keep_values
        self._values: tuple[frozenset[tuple[Any, ...]], np.ndarray] | None = None
        self.theme = theme
        self.layout = Layout(n, dpi, size)
        L = self.layout
        self.fig = Figure(figsize=(L.width_in, L.height_in), dpi=L.dpi, facecolor=self.theme["background"])
        self.canvas = FigureCanvasAgg(self.fig)
        self.ax = self.fig.add_axes(L.ax_rect)
        self._static = draw_static(self.ax, n, self.theme, L)
        # the canvas's pixels kept (copies of its buffer, put back with one copy: about 3x faster
        # than Agg's copy_from_bbox / restore_region row by row): the plain grid, and the
        # figure without it (frames through a widened view)
        self._background: np.ndarray | None = None
        self._blank: np.ndarray | None = None
        # the frame drawn over a layer (``_put``: one of the copies above, or the values kept):
        # that layer (``_base``); the layer the canvas differs from only in the chunks the
        # dirty map marks (``_dirty_of``, set when the frame's rows were looked up over its
        # layer, ``over``/``drawn_over``: the next frame puts back only those chunks); what
        # is known of the layers (``_layers``: their indices and reductions, by identity)
        self._base: np.ndarray | None = None
        self._dirty_of: np.ndarray | None = None
        # the layer the canvas holds again, whole, since its last frame's rows were looked up
        # with ``Over.restore`` (its drawn chunks put back then): the next ``_put`` of it copies nothing
        self._clean_of: np.ndarray | None = None
        self._dirty_on: Any = None  # the Agg renderer whose buffer the dirty map was made on
        self._dirty = bytearray()
        self._layers: list[Over] = []
        # the chunks drawn on since the canvas last held its base layer (``_put``), a byte a
        # chunk laid out as the dirty map: every path its Agg renderer draws is marked
        # (``_renderer``, ``pixels.mark``), as are the legends' and words' pixels copied in
        # (``_note``); ``_todo_known`` False: something drawn whose reach is not worked out.
        # ``over`` hands the map to the lookup, which reads only those chunks.
        self._todo = bytearray()
        self._todo_known = False
        self._todo_rows: np.ndarray | None = None  # ``_todo`` as rows of chunks (a view)
        # the frames' rows are written in one buffer (a new one each frame: 8.5 MB of fresh pages
        # on 25x25, 1 ms), which holds the rows of ``_rows_of`` but in the chunks ``_dirty`` marks
        self._rows_out = bytearray()
        self._rows_of: np.ndarray | None = None
        self._size = (0, 0)  # the canvas's pixels, width and height
        self.pool = PatchPool()  # the frames' filled paths, drawn straight onto the canvas
        # the legends' lines as pixels (``_legend``), least recently used first
        self._lines: OrderedDict[tuple[Any, ...], tuple[np.ndarray, int, int]] = OrderedDict()
        self._line_bytes = 0
        # the title's and captions' words as pixels (``_words``): the pixels of each one's box,
        # the box's width and corner from its pen, the ground it was drawn on; the oldest first
        self._word_pixels: dict[tuple[Any, ...], Kept] = {}
        self._word_bytes = 0
        self._word_widths: dict[tuple[str, bool], float] = {}
        # the big digits drawn on the values' layer as pixels (``_keep_values``), by cell, value and
        # colour: the box of each one's glyph, its width, its corner, the ground it was drawn on;
        # the oldest first; for the Agg renderer they were drawn on (``_value_pixels_on``)
        self._value_pixels: dict[tuple[Any, ...], Kept] = {}
        self._value_bytes = 0
        self._value_pixels_on: Any = None

    def _prime(self) -> None:
        self._dirty_of = self._base = self._clean_of = None
        self.canvas.draw()
        self._background = self._pixels().copy()
        for a in self._static:
            a.set_visible(False)
        self.canvas.draw()
        self._blank = self._pixels().copy()
        for a in self._static:
            a.set_visible(True)

    def _pixels(self) -> np.ndarray:
        """The canvas's buffer as an array (rows, columns, RGBA), the canvas's own memory."""
        return np.asarray(self.canvas.buffer_rgba())

    def _put(self, layer: np.ndarray) -> None:
        """The canvas made ``layer``'s pixels again, the frame's base: only the chunks the last
        frame's dirty map marks when the canvas holds that layer but for them (a 25x25 frame:
        2.4 -> 0.5 ms), else the whole canvas copied."""
        from explainer.core import pixels

        # the map is the canvas's only while its renderer (its buffer) is the one drawn on: one
        # made again (the figure's size or dpi changed meanwhile) starts blank
        same = self._dirty_on is self.canvas.get_renderer()
        buf = self._pixels()
        if self._clean_of is layer and same:
            pass  # put back already, as the last frame's rows were looked up (``Over.restore``)
        elif self._dirty_of is layer and same and pixels.restore is not None:
            h, w = buf.shape[:2]
            pixels.restore(buf, layer, w, h, 4 * w, self._dirty)
        else:
            buf[...] = layer
        self._dirty_of = self._clean_of = None
        self._base = layer
        self._drawn_nothing()

    def over(self) -> Over | None:
        """What the frame on the canvas was drawn over, for looking its rows up: its base layer,
        the layer's palette indices and reductions (made once a layer) and the renderer's dirty
        map (``Over``); None when the frame has no base or the compiled lookup is not built.
        ``drawn_over`` once the map is filled."""
        from explainer.core import pixels

        layer = self._base
        if layer is None or not pixels.compiled:
            return None
        known = next((o for o in self._layers if o.layer is layer), None)
        if known is None:
            h, w = layer.shape[:2]
            rows = quantize_rows(layer, (w, h), self.theme)
            if rows is None:
                return None
            if not self._dirty:  # one map for the renderer's canvas, whose size never changes
                self._dirty = bytearray(-(-w // pixels.CHUNK) * h)
            kept = (self._background, self._blank, self._values[1] if self._values else None)
            self._layers = [o for o in self._layers if any(o.layer is k for k in kept)]
            known = Over(layer, rows, self._dirty)
            self._layers.append(known)
        known.todo = self._todo if self._todo_known else None
        if len(self._rows_out) != len(known.rows):
            self._rows_out = bytearray(len(known.rows))
            self._rows_of = None
        known.out, known.kept = self._rows_out, self._rows_of is layer
        known.restore = False
        self._rows_of = None  # until ``drawn_over``: the rows and dirty map written over ``layer``
        return known

    def _drawn_nothing(self) -> None:
        """The canvas holds its base layer: no chunk drawn on yet (``_todo`` cleared). Without
        the compiled lookup nothing is looked up over a layer (``over``): nothing marked."""
        from explainer.core import pixels

        if not pixels.compiled:
            self._todo_known = False
            return
        w, h = self._size = self.canvas.get_width_height(physical=True)
        size = -(-w // pixels.CHUNK) * h
        if len(self._todo) != size or self._todo_rows is None:
            self._todo = bytearray(size)
            self._todo_rows = np.frombuffer(self._todo, np.uint8).reshape(h, -1)
        else:
            self._todo_rows[...] = 0
        self._todo_known = True

    def _note(self, r0: int, r1: int, c0: int, c1: int) -> None:
        """Rows ``r0:r1``, columns ``c0:c1`` of the canvas drawn on (marked in ``_todo``)."""
        from explainer.core import pixels

        if self._todo_known and self._todo_rows is not None:
            self._todo_rows[max(0, r0):max(0, r1), max(0, c0) // pixels.CHUNK:max(0, -(-c1 // pixels.CHUNK))] = 1

    def _note_path(self, gc: Any, path: Path, transform: Any, face: Any) -> None:
        """The chunks Agg may ink drawing ``path`` through ``transform`` with ``gc`` and ``face``
        marked in ``_todo`` (``pixels.mark``: the box of each segment stroked, of each subpath
        filled), widened by the stroke's reach (a miter reaches half its width times Agg's miter
        limit, which matplotlib sets to the width in pixels), snapping and anti-aliasing."""
        from explainer.core import pixels

        if not self._todo_known:
            return
        if gc.get_sketch_params() is not None:  # a wobbly line: its reach is not worked out
            self._todo_known = False
            return
        lw = gc.get_linewidth() * self.fig.dpi / 72
        pad = 3 + lw / 2 * max(lw, 1.5)
        fill = face is not None or gc.get_hatch() is not None
        codes = path.codes
        w, h = self._size
        pts = np.ascontiguousarray(transform.transform(path.vertices), np.float64)
        if not pixels.mark(self._todo, w, h, pts, None if codes is None else np.ascontiguousarray(codes, np.uint8),
                           fill, pad):
            self._todo_known = False

    def _renderer(self) -> Any:
        """The canvas's Agg renderer, its drawing noted in ``_todo``: ``draw_path`` by the boxes
        of the path, any other drawing (a collection, an image, text, a region restored) as
        drawn anywhere (the whole canvas looked up)."""
        renderer = self.canvas.get_renderer()
        if getattr(renderer, "_noted_by", None) is self:
            return renderer
        draw_path = type(renderer).draw_path

        def noted_path(gc: Any, path: Path, transform: Any, rgbFace: Any = None) -> None:
            self._note_path(gc, path, transform, rgbFace)
            draw_path(renderer, gc, path, transform, rgbFace)

        def unknown(method: Callable[..., Any]) -> Callable[..., Any]:
            def drawn(*args: Any, **kwargs: Any) -> Any:
                self._todo_known = False
                return method(*args, **kwargs)
            return drawn

        # every other way of drawing it has (markers, collections, images, text, and any a later
        # matplotlib adds), and putting pixels back or clearing them: the whole canvas looked up
        others = [name for name in dir(renderer) if name.startswith("draw_") and name != "draw_path"]
        for name in (*others, "restore_region", "clear"):
            method = getattr(renderer, name, None)
            if callable(method):
                setattr(renderer, name, unknown(method))
        renderer.draw_path = noted_path
        renderer._noted_by = self
        return renderer

    def drawn_over(self, over: Over) -> None:
        """The frame's rows were looked up over ``over`` (``over()``'s): its dirty map is the
        canvas's difference from that layer, until the next frame puts the layer back (with
        ``over.restore`` the lookup has put it back already: the canvas is that layer)."""
        self._dirty_of = over.layer
        self._dirty_on = self.canvas.get_renderer()
        self._clean_of = over.layer if over.restore else None
        self._rows_of = over.layer if over.out is self._rows_out else None

    @contextmanager
    def _drawn(self, scene: Scene) -> Iterator[Any]:
        """The canvas with the static grid restored and the scene's artists drawn
        on it; the artists are removed again afterwards."""
        if self._background is None:
            self._prime()
        view = scene_view(scene, self.layout)
        plain = view.uniform
        if plain and self.keep_values:
            scene = self._restore_values(scene)
        else:
            layer = self._background if plain else self._blank
            assert layer is not None
            self._put(layer)
        runs: list[TextRun] = []
        artists = draw(self.ax, scene, self.theme, self.layout, pool=self.pool, texts=runs, view=view)
        try:
            renderer = self._renderer()
            for a in artists:
                a.draw(renderer)  # Figure.draw_artist, without looking the renderer up each time
            for run in runs:
                if run.gid == "legend":
                    self._legend(run, renderer)
                else:
                    self._words(run, renderer)
            yield self.canvas
        finally:
            for a in artists:
                a.remove()

    def _restore_values(self, scene: Scene) -> Scene:
        """The canvas holding the static grid and the frame's givens and earlier values; the
        scene left to draw over it. Those values are the same from frame to frame but for the
        ones each step adds: the values layer kept from the last frame (``_values``) is
        restored and only the values it lacks are drawn on it (a frame that lacks one of the
        layer's values, from another puzzle or an earlier step, starts from the bare grid).
        A value is drawn below the frame's other artists, never over them: those of cells the
        frame fills (``UNDER_VALUES``, drawn before the values; every value under a band)
        stay in the scene, drawn in their order; the other artists drawn before the values (houses, outlines,
        circles) never reach a big digit, so the pixels are those of a full draw."""
        # in one pass over the scene: the values of the layer's roles, and the cells where the
        # frame draws something under the big digit (a fill, a struck square): not kept; a
        # band (a broad line from cell to cell) may pass under any value: none kept
        under: set[tuple[int, int]] = set()
        values = []
        for s in scene:
            kind = s.kind
            if kind == "value":
                if s.role in LAYER_ROLES:
                    values.append(s)
            elif kind in UNDER_VALUES:
                under.add((s.row, s.col))
            elif kind == "band":
                values = []
                break
        layer = [s for s in values if (s.row, s.col) not in under]
        # a value's pixels are those of its cell, digit and colour: the layer is keyed by them,
        # as tuples (comparing Shapes field by field was 5 ms of a 25x25 frame)
        names = [(s.row, s.col, s.value, s.colour) for s in layer]
        key = frozenset(names)
        done, pixels = self._values or (frozenset(), None)
        if pixels is None or not done <= key:
            done = frozenset()
            pixels = self._background
        assert pixels is not None
        self._put(pixels)
        new = [s for s, name in zip(layer, names, strict=True) if name not in done]
        if new:
            # the layer is kept again only once enough values are new: a copy of the whole
            # canvas costs more than drawing a few big digits (a step places one at a time);
            # until then each frame puts the values the layer lacks back as pixels (``_value_pixels``)
            refresh = self._values is None or len(new) >= LAYER_REFRESH
            todo = new if refresh else self._paste_values(new)
            if todo:
                artists = draw(self.ax, Scene(scene.n, todo), self.theme, self.layout, focus=False, pool=self.pool)
                renderer = self._renderer()
                boxes = [] if refresh else self._value_boxes(todo)
                for a in artists:
                    a.draw(renderer)
                    a.remove()
                self._keep_values(boxes)
            if refresh:
                self._values = (key, self._pixels().copy())
                self._base = self._values[1]  # the canvas holds it: the frame's base
                self._drawn_nothing()
        drawn = {id(s) for s in layer}  # by identity: hashing every shape of a 25×25 scene costs more
        return Scene(scene.n, [s for s in scene if id(s) not in drawn], scene.suffix, scene.level)

    def _value_boxes(self, values: list[Shape]) -> list[tuple[tuple[Any, ...], Box, bytes]]:
        """The values about to be drawn whose box is of one colour on the canvas (its ground), with
        that box and ground: their pixels are kept once drawn (``_keep_values``). A value's box is
        that of its glyph drawn as ``draw`` draws it through ``View.plain`` (``_ink_box``)."""
        buf = self._pixels()
        out = []
        for s in values:
            v, _ = glyph(s.char, False)
            box = _ink_box(self.ax.transData.transform(v * VALUE_H + (s.col + 0.5, s.row + 0.5)), buf.shape[0])
            ground = _ground(buf, box)
            if ground is not None:
                out.append(((s.row, s.col, s.value, s.colour), box, ground))
        return out

    def _keep_values(self, boxes: list[tuple[tuple[Any, ...], Box, bytes]]) -> None:
        """The pixels of each box of ``_value_boxes`` (drawn on its ground since), kept for the
        frames to come: a value the kept layer lacks is put back (``_paste_values``), not drawn
        (the sub-frames of a proof share one grid: the 25x25 example drew the same few values
        again in 1,470 of its 1,746 frames, about 1 ms each)."""
        renderer = self.canvas.get_renderer()
        if self._value_pixels_on is not renderer:  # a renderer made again (size, dpi): pixels of its own
            self._value_pixels.clear()
            self._value_bytes = 0
            self._value_pixels_on = renderer
        buf = self._pixels()
        for key, (r0, r1, c0, c1), ground in boxes:
            kept = (buf[r0:r1, c0:c1].tobytes(), c1 - c0, r0, c0, ground)
            self._value_bytes = _keep(self._value_pixels, key, kept, self._value_bytes, VALUE_CACHE_BYTES)

    def _paste_values(self, values: list[Shape]) -> list[Shape]:
        """The values of ``values`` whose pixels are kept put back (``_paste``); the others
        returned, to be drawn."""
        if self._value_pixels_on is not self.canvas.get_renderer() or not self._value_pixels:
            return values
        buf = self._pixels()
        left = []
        for s in values:
            kept = self._value_pixels.get((s.row, s.col, s.value, s.colour))
            if kept is None or not self._paste(buf, kept, 0, 0):
                left.append(s)
        return left

    def _paste(self, buf: np.ndarray, kept: Kept, x: int, y: int) -> bool:
        """A kept block put back, its corner moved by (``x``, ``y``), where every pixel it covers is
        its ground (``pixels.paste``: the pixels drawing it there gives), and marked drawn on;
        False past the canvas's edge or off its ground (nothing written)."""
        from explainer.core import pixels

        block, bw, dy, dx, ground = kept
        h, w = buf.shape[:2]
        r0, c0 = y + dy, x + dx
        r1 = r0 + len(block) // (4 * bw)
        if r0 < 0 or c0 < 0 or r1 > h or c0 + bw > w:
            return False
        if not pixels.paste(buf, w, h, 4 * w, c0, r0, block, bw, ground):
            return False
        self._note(r0, r1, c0, c0 + bw)
        return True

    def _legend(self, run: TextRun, renderer: Any) -> None:
        """A legend's lines, each on a whole pixel's baseline: drawn (its glyphs' outlines, as
        every text) the first time, its pixels then kept and copied where it comes again
        (a legend comes back frame after frame: the seed's 256 legend lines are 41
        different ones, the 16x16 example's 1592 are 110; its text is half of a frame's
        words). A line lies on the plain background of the caption strip, clear of the
        lines above and below it (1.3 ems apart): its box holds nothing else."""
        buf = np.asarray(self.canvas.buffer_rgba())
        h, w = buf.shape[:2]
        dpi = self.fig.dpi
        for i, line in enumerate(run.lines):
            if not line.strip():
                continue
            base = round(h - (run.y_in - i * run.size_pt * run.spacing / 72) * dpi)  # the baseline's row
            key = (line, run.size_pt, run.colour, run.bold, run.x_in)
            kept = self._lines.get(key)
            if kept is not None:
                self._lines.move_to_end(key)
                block, x0, dy = kept
                r0 = base + dy
                if 0 <= r0 and r0 + block.shape[0] <= h:
                    buf[r0:r0 + block.shape[0], x0:x0 + block.shape[1]] = block
                    self._note(r0, r0 + block.shape[0], x0, x0 + block.shape[1])
                    continue
            one = run._replace(lines=[line], y_in=(h - base) / dpi)
            patch = one.patch(self.fig, self.pool)
            patch.draw(renderer)
            # the box of its outlines' points (they hold the curves between them), display pixels, y up
            r0, r1, x0, x1 = _ink_box(patch.transform.transform(patch.path.vertices), h)
            r0, r1, x0, x1 = max(0, r0), min(h, r1), max(0, x0), min(w, x1)
            if x1 <= x0 or r1 <= r0:
                continue
            block = buf[r0:r1, x0:x1].copy()
            self._lines[key] = (block, x0, r0 - base)
            self._line_bytes += block.nbytes
            while self._line_bytes > LINE_CACHE_BYTES and len(self._lines) > 1:
                self._line_bytes -= self._lines.popitem(last=False)[1][0].nbytes

    def _words(self, run: TextRun, renderer: Any) -> None:
        """A title's or caption's lines word by word, each word's pen and baseline on a whole
        pixel: drawn (its glyphs' outlines, as every text) the first time, the pixels it inks
        then kept and put back where it comes again. A caption's lines do not come back from
        frame to frame but their words do (25x25-hard: a frame's caption and title drawn in
        1.8 ms, their words put back in about 0.3). A word is kept only when drawn over a plain
        ground (its box of one colour), and put back only where its box is that ground again
        (``pixels.paste``): the pixels drawing it there gives; elsewhere (a neighbour's ink in
        its box, at small sizes) it is drawn."""
        buf = self._pixels()
        h = buf.shape[0]
        dpi = self.fig.dpi
        scale = run.size_pt / 72 * dpi  # pixels an em
        colour = run.colour if isinstance(run.colour, str) else repr(run.colour)
        space = _char(" ", run.bold)[2]
        for i, line in enumerate(run.lines):
            if not line.strip():
                continue
            base = round(h - (run.y_in - i * run.size_pt * run.spacing / 72) * dpi)  # the baseline's row
            parts = line.split(" ")
            widths = [self._word_width(part, run.bold) for part in parts]
            x = run.x_in * dpi
            if run.ha == "center":
                x -= (sum(widths) + space * (len(parts) - 1)) * scale / 2
            at = 0.0  # the pen from the line's start, in ems (no kerning, as ``line_path``)
            for part, width in zip(parts, widths, strict=True):
                if part:
                    pen = round(x + at * scale)
                    if not self._put_back(buf, (part, run.size_pt, colour, run.bold), pen, base):
                        self._draw_word(part, pen, base, run, colour, scale, renderer)
                at += width + space

    def _word_width(self, word: str, bold: bool) -> float:
        """A word's advance in ems (its characters', no kerning)."""
        width = self._word_widths.get((word, bold))
        if width is None:
            width = self._word_widths[(word, bold)] = sum(_char(ch, bold)[2] for ch in word)
        return width

    def _put_back(self, buf: np.ndarray, key: tuple[Any, ...], pen: int, base: int) -> bool:
        """The word kept under ``key`` pasted from ``pen`` on ``base`` (``_paste``); False when none is
        kept, or its box would cross the canvas's edge or is not all its ground (nothing written)."""
        kept = self._word_pixels.get(key)
        return kept is not None and self._paste(buf, kept, pen, base)

    def _draw_word(self, word: str, pen: int, base: int, run: TextRun, colour: str, scale: float,
                   renderer: Any) -> None:
        """``word`` drawn from ``pen`` on ``base`` (its glyphs' outlines moved by whole pixels) and
        kept (``_word_pixels``: the pixels of the box of its outlines' points, ±1, and the ground
        it was drawn on) when that box was of one colour and inside the canvas."""
        from matplotlib.transforms import Affine2D

        v, c, _ = line_path(word, run.bold)
        if v is None or c is None:
            return
        buf = self._pixels()
        tr = Affine2D().scale(scale).translate(pen, buf.shape[0] - base)  # display pixels, y up
        r0, r1, c0, c1 = box = _ink_box(tr.transform(v), buf.shape[0])
        patch = self.pool.patch(Path(v, c), tr, {"facecolor": run.colour, "linewidth": 0, "gid": run.gid,
                                                 "snap": False})
        ground = _ground(buf, box)
        patch.draw(renderer)
        if ground is None:  # past an edge, or over something: drawn, not kept
            return
        kept = (buf[r0:r1, c0:c1].tobytes(), c1 - c0, r0 - base, c0 - pen, ground)
        self._word_bytes = _keep(self._word_pixels, (word, run.size_pt, colour, run.bold), kept, self._word_bytes,
                                 WORD_CACHE_BYTES)

    @contextmanager
    def rgba(self, scene: Scene) -> Iterator[Any]:
        """The frame as a Pillow RGBX image over the canvas's own buffer, no copy made: valid
        only inside the ``with`` block (the next frame draws over the same pixels)."""
        from PIL import Image

        with self._drawn(scene) as canvas:
            w, h = canvas.get_width_height(physical=True)
            # RGBX: the alpha byte (always opaque) is padding, so Pillow's reduce does not
            # premultiply and un-premultiply it (two conversions of the whole frame)
            yield Image.frombuffer("RGBX", (w, h), canvas.buffer_rgba(), "raw", "RGBX", 0, 1)

    def image(self, scene: Scene) -> Any:
        """The frame as a Pillow RGB image (straight from the Agg buffer: its alpha byte
        skipped as it is read, three times faster than reading RGBA and converting)."""
        from PIL import Image

        with self._drawn(scene) as canvas:
            w, h = canvas.get_width_height(physical=True)
            return Image.frombytes("RGB", (w, h), canvas.buffer_rgba(), "raw", "RGBX")

    def png(self, scene: Scene, compress_level: int = 6, quantize: bool = True) -> bytes:
        """PNG bytes; by default palette-quantised to the theme's colours (3× faster
        to encode and half the size, and the eye cannot tell)."""
        im = self.image(scene)
        if quantize:
            im = quantize_image(im, self.theme)
        buf = io.BytesIO()
        im.save(buf, format="PNG", compress_level=compress_level)
        return buf.getvalue()

    def svg(self, scene: Scene) -> bytes:
        """A vector frame (every artist drawn again, through the SVG backend)."""
        artists = draw(self.ax, scene, self.theme, self.layout)
        plain = scene_view(scene, self.layout).uniform
        for a in self._static:
            a.set_visible(plain)
        try:
            buf = io.BytesIO()
            self.fig.savefig(buf, format="svg", facecolor=self.theme["background"])
            return buf.getvalue()
        finally:
            for a in artists:
                a.remove()
            for a in self._static:
                a.set_visible(True)
            self._background = None  # the canvas was redrawn by savefig
            self._dirty_of = self._base = None

    def save(self, scene: Scene, path: str, fmt: str = "png") -> None:
        data = self.svg(scene) if fmt == "svg" else self.png(scene)
        with open(path, "wb") as f:
            f.write(data)


RGB = tuple[int, int, int]


def _rgb(colour: Any) -> RGB:
    from matplotlib.colors import to_rgb

    r, g, b = to_rgb(colour)
    return round(255 * r), round(255 * g), round(255 * b)


def _blend(a: float, fg: RGB, bg: RGB) -> RGB:
    """``a`` of ``fg`` over ``bg``."""
    r, g, b = (round(a * x + (1 - a) * y) for x, y in zip(fg, bg, strict=True))
    return r, g, b


def theme_palette(theme: Mapping[str, Any], steps: int | None = None) -> Any:
    """A 'P' image whose palette holds the theme's colours and their blends with
    the background (anti-aliased edges): every frame of a run maps onto it."""
    from PIL import Image

    bg = _rgb(theme["background"])
    base: list[tuple[int, int, int]] = []
    for key, col in theme.items():
        if key == "cells_alpha" or not isinstance(col, str):
            continue
        rgb = _rgb(col)
        if key == "cells_fill":
            a = float(theme.get("cells_alpha", 0.35))
            rgb = _blend(a, rgb, bg)
        if rgb not in base:
            base.append(rgb)
    colours: list[tuple[int, int, int]] = [bg]
    if steps is None:
        steps = max(4, min(14, 240 // max(1, len(base) + 1)))
    for rgb in base + [(0, 0, 0)]:
        # no faint tints next to the background: Pillow's palette lookup is
        # coarse and would map pure background onto them
        for k in range(2 if steps > 5 else 1, steps + 1):
            t = k / steps
            c = _blend(t, rgb, bg)
            if c not in colours:
                colours.append(c)
    # dark digits over the translucent cell fill
    fill = _rgb(theme["cells_fill"])
    a = float(theme.get("cells_alpha", 0.35))
    under = _blend(a, fill, bg)
    for k in range(1, 6):
        c = _blend(k / 6, (0, 0, 0), under)
        if c not in colours:
            colours.append(c)
    colours = colours[:256]
    flat = [v for c in colours for v in c] + [0] * (3 * (256 - len(colours)))
    pal = Image.new("P", (1, 1))
    pal.putpalette(flat)
    pal.info["colours"] = len(colours)  # the palette's real length (the rest is padding)
    return pal


def palette_bytes(theme: Theme, steps: int | None = None, padded: bool = False) -> bytes:
    """The RGB bytes of the colours ``quantize_image`` maps a frame onto (no padding; with
    ``padded``, the whole palette its images carry: 256 colours)."""
    pal = _palette(theme, steps)
    return bytes((pal.getpalette() or [])[:None if padded else 3 * pal.info["colours"]])


_QUANTISER_PALETTES: dict[Any, Any] = {}
THUMB_STEPS = 4  # palette blends for the contact sheet and GIF


def _palette(theme: Theme, steps: int | None) -> Any:
    """``theme_palette(theme, steps)``, made once per process."""
    key = (theme, steps)
    pal = _QUANTISER_PALETTES.get(key)
    if pal is None:
        pal = _QUANTISER_PALETTES[key] = theme_palette(theme, steps)
        pal.load()  # the palette put into the image's core, once (``quantize_image`` reads it there)
    return pal


def quantize_image(im: Any, theme: Theme, steps: int | None = None) -> Any:
    """``im`` mapped onto the theme's palette (``steps`` blends per colour; fewer
    colours make a much smaller GIF: 4 steps, ~80 colours, a third of the size)."""
    from PIL import Image

    pal = _palette(theme, steps)
    if im.mode not in ("RGBA", "RGBX"):
        return im.quantize(palette=pal, dither=Image.Dither.NONE)
    # a frame read straight off the canvas (``FrameRenderer.rgba``): Pillow's quantize takes
    # RGB only, its conversion reads any RGB-like pixels (the alpha byte is not looked at),
    # so the same palette lookup runs without first copying the frame into an RGB image
    out = im._new(im.im.convert("P", Image.Dither.NONE, pal.im))
    out.palette = pal.palette.copy()
    return out


def palette_table(theme: Theme, steps: int | None = None) -> bytes:
    """Pillow's palette lookup (``quantize_image``) as a table: the index of every colour
    whose top six bits of red, green and blue are the table's index (r | g << 6 | b << 12).
    Pillow's lookup is one already: its cache slots are those six bits, each slot holding
    the palette colour nearest to the slot's lowest corner, whatever colour filled it
    (tests/core/test_pixels.py checks random colours and every slot's corners). Made once
    per palette and process: the 2^18 corners mapped by Pillow (about 10 ms)."""
    import numpy as np
    from PIL import Image

    key = ("table", theme, steps)
    table = _QUANTISER_PALETTES.get(key)
    if table is None:
        k = np.arange(1 << 18, dtype=np.uint32)
        corners = np.stack([(k & 63) << 2, (k >> 6 & 63) << 2, (k >> 12) << 2], axis=1).astype(np.uint8)
        im = Image.frombytes("RGB", (512, 512), corners.tobytes())
        table = _QUANTISER_PALETTES[key] = quantize_image(im, theme, steps).tobytes()
    return table  # type: ignore[no-any-return]


def quantize_rows(rgba: Any, size: tuple[int, int], theme: Theme, steps: int | None = None,
                  over: Over | None = None) -> bytes | None:
    """The RGBA/RGBX pixels of a buffer (``size``, rows packed: the canvas's own memory) as
    ``quantize_image``'s indices, each row after a zero byte (PNG's filter byte: the rows
    ``pngwrite.png_rows`` compresses as they are), through the compiled table lookup
    (``explainer.core.pixels``); None without it (then ``quantize_image``: Pillow's own
    lookup, the same indices). ``over``: the layer the frame was drawn over (``FrameRenderer.over``):
    the same rows, its dirty map filled, written into the renderer's buffer (``Over.out``: valid
    until the next frame's rows)."""
    from explainer.core import pixels

    if not pixels.compiled:
        return None
    w, h = size
    rows: bytes | None = pixels.quantize(rgba, w, h, 4 * w, palette_table(theme, steps), True,
                                         *(over.args() + over.into() + (over.restore,) if over else ()))
    return rows


def rows_image(rows: bytes, size: tuple[int, int], theme: Theme, steps: int | None = None) -> Any:
    """``quantize_rows``'s rows (each after its filter byte) as ``quantize_image``'s image."""
    import numpy as np
    from PIL import Image

    w, h = size
    out = Image.frombytes("P", size, np.frombuffer(rows, np.uint8).reshape(h, w + 1)[:, 1:].tobytes())
    out.putpalette(_palette(theme, steps).palette)
    return out


def remap(im: Any, theme: Theme, steps: int | None) -> Any:
    """A frame on the theme's palette (``quantize_image`` with no ``steps``) moved onto its
    palette of ``steps`` blends: each index mapped once through a table, not each pixel
    searched again."""
    from PIL import Image

    key = ("remap", theme, steps)
    table = _QUANTISER_PALETTES.get(key)
    if table is None:
        source = Image.frombytes("RGB", (256, 1), palette_bytes(theme).ljust(768, b"\0"))
        table = _QUANTISER_PALETTES[key] = list(quantize_image(source, theme, steps).tobytes())
    out = im.point(table)
    out.putpalette(_palette(theme, steps).getpalette())
    return out


@lru_cache(maxsize=8)
def renderer(n: int, theme: Theme = DEFAULT_THEME, dpi: float | None = None, size: int | None = None) -> FrameRenderer:
    """A renderer for frames of this size and theme, kept for the next frame (keyed by the theme)."""
    return FrameRenderer(n, theme, dpi, size)


def step_png(state: AnyState, step: Explanation, *, number: int | None = None, theme: Theme = DEFAULT_THEME,
             lang: str = "en", dpi: float | None = None, size: int | None = None,
             givens: Sequence[int] | None = None, kinds: Mapping[str, StepKind] = NO_KINDS) -> bytes:
    """PNG bytes of one step drawn on the state before it (notebooks, hints); ``kinds``: the step
    kinds whose titles the title shows (the registry's, ``techniques.all_kinds()``)."""
    sc = make_scene(state, step, number=number if number is not None else 0, lang=lang, givens=givens,
                    kinds=kinds, theme=theme)
    if number is None:  # no step number known: title is just the technique
        from .scene import technique_title

        sc = Scene(sc.n, [s for s in sc if s.role != "title"])
        sc.append(Shape("title", "text", text=technique_title(step.technique, lang, getattr(step, "detail", ()),
                                                              kinds)))
    return renderer(state.geo.n, theme, dpi, size).png(sc)


def state_png(state: AnyState, title: str = "", *, theme: Theme = DEFAULT_THEME, candidates: bool = True,
              lang: str = "en", givens: Sequence[int] | None = None) -> bytes:
    """PNG bytes of a state alone (with its candidates), for notebooks."""
    sc = make_scene(state, None, title=title, caption="", lang=lang, givens=givens,
                    show_candidates=candidates, theme=theme)
    return renderer(state.geo.n, theme).png(sc)


def puzzle_frame_png(puzzle: Explained, k: int, **opts: Any) -> bytes:
    """PNG of frame k of a puzzle's sequence: 0 the initial grid, 1..len(steps) the
    steps, len(steps)+1 the solution (the library's "frame at any step")."""
    from .scene import solution_scene

    steps = puzzle.steps
    theme = opts.pop("theme", DEFAULT_THEME)
    lang = opts.get("lang", "en")
    givens = puzzle.grid.values
    if k == 0:
        sc = initial_scene(puzzle.initial_state(), givens=givens, lang=lang, theme=theme)
    elif 1 <= k <= len(steps):
        step = steps[k - 1]
        assert step.before is not None  # the engine records the state each step was found in
        sc = make_scene(step.before, step, number=k, givens=givens, lang=lang, kinds=puzzle.kinds, theme=theme)
    elif k == len(steps) + 1:
        sc = solution_scene(puzzle.state_before(len(steps)), givens=givens, lang=lang, steps=len(steps),
                            difficulty=puzzle.difficulty, complete=puzzle.complete, theme=theme)
    else:
        raise IndexError(f"frame {k} out of range 0..{len(steps) + 1}")
    return renderer(puzzle.n, theme, opts.get("dpi"), opts.get("size")).png(sc)
