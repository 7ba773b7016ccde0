"""The paged contact sheet: every frame, reduced, on A4 (or Letter) portrait pages, numbered,
each with its caption and its legend (what its marks mean) printed under or beside it at 9 pt
or more; pages filled column after column."""
from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from functools import lru_cache
from typing import TYPE_CHECKING, Any

from .plan import Frame
from .sizes import PAPER_IN
from .typeset import breakable_words

if TYPE_CHECKING:
    from .frame import Over

SHEET_DPI = 150  # pixels per inch of a page: an A4 page is 1240 x 1754 px and prints at A4
SHEET_MARGIN_IN = 0.4
SHEET_GAP_IN = 0.2
SHEET_CAPTION_PT = 9.5  # the caption under each frame, at SHEET_DPI: >= 9 pt on paper
SHEET_FOOTER_PT = 10.0
BESIDE_ROWS = 3  # 16x16 and 25x25 frames a page, their words beside them
COVERED = [0] + [255] * 255  # a glyph's coverage -> the mask of the pixels it touches


def _font(pt: float, dpi: float = SHEET_DPI, bold: bool = False) -> Any:
    """DejaVu Sans (shipped with matplotlib) at ``pt`` points for ``dpi``."""
    from matplotlib import font_manager
    from PIL import ImageFont

    props = font_manager.FontProperties(family="DejaVu Sans", weight="bold" if bold else "normal")
    return ImageFont.truetype(font_manager.findfont(props), round(pt * dpi / 72))


def wrap_text(text: str, font: Any, width: float, sizes: dict[str, float] | None = None) -> list[str]:
    """Greedy word wrap to ``width`` pixels in ``font``; a word longer than a line (a chain in
    Eureka notation) is cut where the line is full. A line's width is the sum of its words'
    and spaces' (measured once each: a caption's lines are not measured again word by word).
    ``sizes``: the words' widths in ``font`` measured so far, shared by the captions of one
    sheet (most words, "r4c7", "in", "the", come back caption after caption)."""
    lines: list[str] = []
    space = font.getlength(" ")
    sizes = {} if sizes is None else sizes

    def size(word: str) -> float:
        if word not in sizes:
            sizes[word] = font.getlength(word)
        return sizes[word]

    for para in text.split("\n"):
        line = ""
        used = 0.0
        for word in breakable_words(para):  # French "flèches : …": no line starts with ":"
            if size(word) <= width:
                if line and used + space + size(word) > width:
                    lines.append(line)
                    line, used = word, size(word)
                else:
                    line, used = (f"{line} {word}", used + space + size(word)) if line else (word, size(word))
                continue
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
            used = font.getlength(line)
        lines.append(line)
    return lines


@dataclass
class Tile:
    """One frame on a page: its picture's top-left corner (``x``, ``y``, page pixels), its
    caption's lines and its legend's (what each mark means, as the frame's own legend says
    it), written under the picture."""

    k: int
    x: int
    y: int
    caption: list[str]
    legend: list[str]


@dataclass
class SheetLayout:
    """Where each frame of a paged contact sheet goes: ``pages[p]`` is the page's tiles, in
    reading order; sizes in page pixels. ``columns`` columns, each frame under the shortest
    column so far: reading order stays by rows, and no row of frames waits for its longest
    caption. ``beside``: one frame a row, its words beside it (``text_w`` wide; 16x16 and
    25x25, whose frames with their words under them took about half a page each, so that
    a page held one row of two, half empty), else under it."""

    page: tuple[int, int]
    columns: int
    tile_w: int
    grid_h: int  # the frame without its caption, scaled to tile_w
    line_h: int
    margin: int
    gap: int
    pages: list[list[Tile]]
    room: int = 0
    beside: bool = False
    text_w: int = 0

    def words_at(self, tile: Tile) -> tuple[int, int]:
        """Where a tile's words start: beside its picture or under it."""
        if self.beside:
            return tile.x + self.tile_w + self.gap, tile.y
        return tile.x, tile.y + self.grid_h  # the height a page holds

    def fill(self) -> list[float]:
        """How full each page is: the fraction of its height its lowest tile reaches, column by
        column, averaged (1.0: every column down to the footer)."""
        out = []
        for tiles in self.pages:
            bottoms: dict[int, int] = {}
            for t in tiles:
                end = self.words_at(t)[1] + self.line_h * (len(t.caption) + len(t.legend))
                bottoms[t.x] = max(bottoms.get(t.x, 0), end, t.y + self.grid_h)
            out.append(sum(b - self.margin for b in bottoms.values()) / (self.columns * self.room))
        return out


def sheet_layout(plan: Sequence[Any], n: int, columns: int = 3, paper: str = "a4") -> SheetLayout:
    """The pages of the contact sheet of ``plan`` (no pixels needed: the names are known
    before anything is drawn; each frame's legend is its scene's, laid out without drawing).
    9x9 and smaller: ``columns`` columns, each frame's caption and legend under it; 16x16
    and 25x25: ``BESIDE_ROWS`` frames a page, their words beside them."""
    from .frame import Layout

    pw, ph = (round(x * SHEET_DPI) for x in PAPER_IN[paper])
    margin, gap = round(SHEET_MARGIN_IN * SHEET_DPI), round(SHEET_GAP_IN * SHEET_DPI)
    beside = n > 9
    inner = pw - 2 * margin
    lay = Layout(n)
    aspect = (lay.height_in - lay.caption_in) / lay.width_in  # the frame without its caption strip
    line_h = round(SHEET_CAPTION_PT * 1.25 * SHEET_DPI / 72)
    footer = round(SHEET_FOOTER_PT * 2 * SHEET_DPI / 72)
    room = ph - 2 * margin - footer
    if beside:  # BESIDE_ROWS frames a page, each as large as that allows, its words beside it
        columns = 1
        tile_w = min(round(0.6 * inner), int((room - (BESIDE_ROWS - 1) * gap) / BESIDE_ROWS / aspect))
        text_w = inner - tile_w - gap
    else:
        tile_w = text_w = (inner - (columns - 1) * gap) // columns
    grid_h = round(tile_w * aspect)
    font = _font(SHEET_CAPTION_PT)
    sizes: dict[str, float] = {}
    pages: list[list[Tile]] = [[]]
    bottom = [margin] * columns  # where each column of the page goes on
    for k, f in enumerate(plan):
        cap = wrap_text(f.caption, font, text_w, sizes)
        legend = getattr(f, "legend", "")
        leg = wrap_text(legend, font, text_w, sizes) if legend else []
        words = line_h * (len(cap) + len(leg))
        h = max(grid_h, words) if beside else grid_h + words
        col = min(range(columns), key=lambda c: (bottom[c], c))  # the shortest column: reading order stays by rows
        if pages[-1] and bottom[col] + h > margin + room:  # no column holds it: the next page
            pages.append([])
            bottom = [margin] * columns
            col = 0
        x, y = margin + col * (tile_w + gap), bottom[col]
        pages[-1].append(Tile(k, x, y, cap, leg))
        bottom[col] = y + h + gap
    return SheetLayout((pw, ph), columns, tile_w, grid_h, line_h, margin, gap, pages, room, beside, text_w)


def sheet_names(count: int) -> list[str]:
    """'EXPLANATIONS-01.png' …: numbers zero-padded to the width of the count (at least 2),
    so that names sort in page order at any count (-100 after -99)."""
    width = max(2, len(str(count)))
    return [f"EXPLANATIONS-{k:0{width}d}.png" for k in range(1, count + 1)]


def tile_geometry(lay: SheetLayout, frame_size: tuple[int, int], crop: float) -> tuple[int, int, int]:
    """A frame's tile on the sheet: its size (``lay.tile_w`` x ``lay.grid_h``) and the frame's
    rows it shows (all but the bottom ``crop`` fraction: the caption strip, written as text)."""
    return lay.tile_w, lay.grid_h, round(frame_size[1] * (1 - crop))


ResizePlan = tuple[bytes, bytes, int, bytes, bytes, int]  # ``pixels.box_plan`` across, then down


@lru_cache(maxsize=8)
def _tile_plan(width: int, rows: int, k: int, out_w: int, out_h: int) -> ResizePlan:
    """The BOX resize's bounds and weights of a tile reduced by ``k`` first (``pixels.box_plan``
    along each axis), worked out once for the frame and tile sizes."""
    from explainer.core import pixels

    return (*pixels.box_plan((width + k - 1) // k, 0.0, width / k, out_w),
            *pixels.box_plan((rows + k - 1) // k, 0.0, rows / k, out_h))


def pillow_tile(src: Any, w: int, stride: int, k: int, rows: int, out_w: int, out_h: int) -> bytes:
    """The RGB bytes of Pillow's own reduce by ``k`` and BOX resize of the RGBX frame in ``src``
    (rows ``stride`` bytes apart): what the compiled ``pixels.tile`` reproduces."""
    from PIL import Image

    height = (len(memoryview(src).cast("B")) + stride - 4 * w) // stride
    frame = Image.frombuffer("RGBX", (w, height), src, "raw", "RGBX", stride, 1)
    small = frame.reduce(k, box=(0, 0, w, rows))
    return small.resize((out_w, out_h), Image.Resampling.BOX, box=(0.0, 0.0, w / k, rows / k)).convert("RGB").tobytes()


def _compiled_plan(width: int, tile: tuple[int, int, int]) -> tuple[int, ResizePlan] | None:
    """The whole reduction of a frame ``width`` pixels wide to ``tile`` and the resize's plan
    after it, when the compiled core makes that tile (a reduction by 2 to 16); else None."""
    from explainer.core import pixels

    w, h, rows = tile
    whole = max(1, width // w)
    if pixels.tile is None or not 2 <= whole <= 16:
        return None
    return whole, _tile_plan(width, rows, whole, w, h)


def rows_and_tile(rgba: Any, size: tuple[int, int], theme: Any, tile: tuple[int, int, int],
                  over: Over | None = None) -> tuple[bytes, Any] | None:
    """A frame's PNG rows (``frame.quantize_rows``) and its contact-sheet tile (``sheet_tile``) in
    one pass over the canvas's pixels (``pixels.quantize_tile``: the tile's rows made while the
    frame rows they reduce are in the cache; 16x16-hard, in the run: 2.4 + 2.6 -> 4.7 ms a
    frame, 200 frames); None when the compiled core cannot make this tile (then each alone).
    ``over``: the layer the frame was drawn over (``FrameRenderer.over``): the same rows and tile,
    its dirty map filled, the tile's blocks the frame did not draw on taken from the layer's
    reduction (25x25-hard: 6.6 -> 5.9 ms a frame, with the layer's own read)."""
    from PIL import Image

    from explainer.core import pixels

    from .frame import palette_table

    (width, height), (w, h, rows) = size, tile
    plan = _compiled_plan(width, tile)
    if plan is None or pixels.quantize_tile is None:
        return None
    whole, resize = plan
    lut = palette_table(theme)
    layer: tuple[Any, ...] = ()
    if over is not None:  # the layer's reduction, pass and tile: only what the frame changed made
        red, passed, tile_ix = over.tile_parts(whole, rows, resize, (w, h), lut)
        layer = (*over.args(), red, *over.into(), passed, tile_ix, over.restore)
    out, indices = pixels.quantize_tile(rgba, width, height, 4 * width, lut, True, whole, rows, *resize, w, h,
                                        *layer)
    return out, Image.frombuffer("L", (w, h), indices, "raw", "L", 0, 1)  # over its bytes, no new image


def sheet_tile(frame: Any, tile: tuple[int, int, int], theme: Any, reduced: dict[int, Any] | None = None,
               buffer: Any = None) -> Any:
    """The contact sheet's tile of a frame, from the frame's own pixels (an RGB or RGBX image):
    its top ``tile[2]`` rows reduced to ``tile[:2]``, a whole reduction first (a plain 2x2 …
    average, much faster than resizing) then a BOX resize (a plain average of the pixels a
    tile pixel covers), mapped onto the theme's palette (the sheet's pages are written on it).
    ``reduced``: the frame's whole reductions made already, by factor (the GIF's thumbnail is
    often the same one: 16x16 and 25x25, about 3 ms a frame not spent again). ``buffer``: the
    frame's own RGBX memory (the canvas's), which the compiled core reduces and resizes in one
    call (``pixels.tile``: Pillow's two steps, the same bytes) and looks up on the palette: its
    indices then come as an "L" image (a "P" image from Pillow's way: the same indices)."""
    from PIL import Image

    from explainer.core import pixels

    from .frame import palette_table, quantize_image

    w, h, rows = tile
    whole = max(1, frame.size[0] // w)
    # the compiled tile for any whole reduction it takes (2 to 16): in the run, a 9x9 frame's
    # tile 3.0 -> 1.3 ms, a 25x25 frame's (by 5) 8.3 -> 6.0 ms (examples/25x25-hard.txt); its
    # palette indices looked up there too (the frames' table: ``quantize_image``'s indices)
    plan = _compiled_plan(frame.size[0], tile) if buffer is not None else None
    if plan is not None and pixels.tile is not None and whole not in (reduced or {}):
        width = frame.size[0]
        indices = pixels.tile(buffer, width, 4 * width, whole, rows, *plan[1], w, h, palette_table(theme))
        return Image.frombytes("L", (w, h), indices)
    small = (reduced or {}).get(whole)
    if small is None:  # the rows shown only (not the caption strip)
        small = frame.reduce(whole, box=(0, 0, frame.size[0], rows)) if whole > 1 else frame
    box = (0.0, 0.0, frame.size[0] / whole, rows / whole)
    return quantize_image(small.resize((w, h), Image.Resampling.BOX, box=box), theme)


def glyph_mask(font: Any, text: str, anchor: str | None = None) -> tuple[Any, int, int]:
    """The coverage of ``text`` in ``font`` (an "L" image as large as the text's box) and where
    the box starts from the pen: what ``ImageDraw.text`` draws at the pen (0, 0) into an image
    of the box's size (``drawn_glyph_mask``). The font's own bitmap is that image already, its
    offset the box's corner: taken as it is, without measuring the box first (FreeType lays the
    text out once, not twice) nor drawing it onto a blank image (a word's first rendering
    0.2 -> 0.1 ms; the seed's sheet renders 400 words). A text with no box goes the long way."""
    from PIL import Image

    core, (left, top) = font.getmask2(text, "L", anchor=anchor)
    if core.size[0] < 1 or core.size[1] < 1:
        return drawn_glyph_mask(font, text, anchor)
    return Image.Image()._new(core), left, top


def drawn_glyph_mask(font: Any, text: str, anchor: str | None = None) -> tuple[Any, int, int]:
    """``glyph_mask`` the long way: the text's box measured, then the text drawn into it."""
    from PIL import Image, ImageDraw

    left, top, right, bottom = font.getbbox(text, anchor=anchor)
    mask = Image.new("L", (max(1, right - left), max(1, bottom - top)), 0)
    ImageDraw.Draw(mask).text((-left, -top), text, font=font, fill=255, anchor=anchor)
    return mask, left, top


class ContactSheet:
    """The contact sheet's pages written as the frames come (``add``, in order): each
    frame's tile (``sheet_tile``: the frame without its caption strip, reduced) and its
    caption written under it at SHEET_CAPTION_PT, then "page k / N" at the foot of the page;
    a page is written when its last frame is in, so only one page is held. ``paths``: a file
    per page of the layout.

    A page is held as the theme's palette indices (the frames' palette, an "L" image of
    indices): a tile's indices are copied in, a line of text is its glyphs' coverage mapped
    through a table onto the palette's blends of its colour with the background (the pixels
    of the text drawn in colour, then mapped onto the palette, as a page drawn in RGB and
    quantised was), and the page is written as it is, never quantised. The coverage of each
    legend line and of each caption's word is rendered once: they come back frame after
    frame (the seed: 472 legend lines, 51 different; "r4c7", "in", "the")."""

    def __init__(self, plan: Sequence[Frame], n: int, theme: Any, paths: Sequence[Any], *, columns: int = 3,
                 paper: str = "a4", layout: SheetLayout | None = None) -> None:
        # ``layout``: the plan's layout when the caller has it already (it named the pages)
        self.lay = layout or sheet_layout(plan, n, columns, paper)
        self.font, self.footer_font = _font(SHEET_CAPTION_PT), _font(SHEET_FOOTER_PT)
        self.theme = theme
        self.paths = list(paths)
        self.written: list[Any] = []
        # where each frame goes: its page, its tile, whether it is the page's last
        self.at: dict[int, tuple[int, Tile, bool]] = {}
        for p, tiles in enumerate(self.lay.pages):
            for i, tile in enumerate(tiles):
                self.at[tile.k] = (p, tile, i == len(tiles) - 1)
        self.page: Any = None  # the page being filled: palette indices ("L"), over ``rows`` (``_new_page``)
        self.rows: Any = None
        self._masks: dict[tuple[str, str, bool], tuple[Any, Any, int, int]] = {}  # ``_inked``
        self._inks: dict[str, list[int]] = {}  # colour: coverage -> palette index
        self.space = self.font.getlength(" ")
        self.sizes: dict[str, float] = {}

    def add(self, k: int, tile: Any) -> None:
        """Frame ``k``'s tile (``sheet_tile``: indices on the theme's palette, "L" or "P") and words."""
        from PIL import Image

        lay = self.lay
        p, at, last = self.at[k]
        if self.page is None:  # index 0: the background (``theme_palette``); cleared after each page
            self._new_page()
        indices = (tile if tile.mode == "L" else tile.convert("L") if tile.mode != "P" else
                   Image.frombytes("L", tile.size, tile.tobytes()))
        self.page.im.paste(indices.im, (at.x, at.y, at.x + tile.size[0], at.y + tile.size[1]))
        x, y = lay.words_at(at)
        for line in at.caption:
            self._words(x, y, line, "caption")
            y += lay.line_h
        for line in at.legend:  # the marks in words, as under the frame itself
            self._text(x, y, line, "label")
            y += lay.line_h
        if last:
            self._save(p)

    def _new_page(self) -> None:
        """The page's memory: the rows of its PNG file (``rows``: each row's filter byte, 0,
        then its indices) and, over them, the page as an "L" image (the same memory: drawn
        on through Pillow's core, ``Image.paste`` would copy a shared image first). The
        page is written as it is: no copy of its 2 MB into an image's bytes, then into
        the rows (about 2.5 ms a page)."""
        import numpy as np
        from PIL import Image

        w, h = self.lay.page
        self.rows = np.zeros(h * (w + 1) + 1, np.uint8)  # one byte more: the image starts at 1
        self.page = Image.frombuffer("L", (w, h), self.rows[1:], "raw", "L", w + 1, 1)

    def _words(self, x: int, y: int, line: str, colour: str) -> None:
        """A caption's line, word by word (each word's coverage rendered once for the sheet),
        each word where the line's layout puts it (the widths ``wrap_text`` measured)."""
        pen = float(x)
        for word in line.split(" "):
            if word:
                self._text(round(pen), y, word, colour)
                if word not in self.sizes:
                    self.sizes[word] = self.font.getlength(word)
                pen += self.sizes[word]
            pen += self.space

    def _inked(self, text: str, colour: str, footer: bool = False) -> tuple[Any, Any, int, int]:
        """``text`` in the theme's ``colour`` over the background, rendered once: its palette
        indices, the mask of the pixels it covers, and where its box starts from the pen (the
        FreeType bitmap ``ImageDraw.text`` draws; the footer anchored at its middle and
        baseline). The glyphs' coverage of the colour over the background is mapped onto the
        palette, each covered pixel taken whole (indices are not blended)."""
        key = (text, colour, footer)
        kept = self._masks.get(key)
        if kept is None:
            font, anchor = (self.footer_font, "ms") if footer else (self.font, None)
            mask, left, top = glyph_mask(font, text, anchor)
            # the tables applied by Pillow's core: ``Image.point`` rounds its 256 entries in
            # Python first, twice a text (the 16x16 example's sheet: 2,300 texts)
            kept = self._masks[key] = (mask._new(mask.im.point(self._ink(colour), None)),
                                       mask._new(mask.im.point(COVERED, None)), left, top)
        return kept

    def _ink(self, colour: str) -> list[int]:
        """The table from a glyph's coverage to the palette index of that coverage of the
        theme's ``colour`` over its background (as a page drawn in RGB, then quantised)."""
        from PIL import Image

        from .frame import quantize_image

        kept = self._inks.get(colour)
        if kept is None:
            ramp = Image.new("RGB", (256, 1), self.theme["background"])
            ramp.paste(Image.new("RGB", (256, 1), self.theme[colour]), (0, 0),
                       Image.frombytes("L", (256, 1), bytes(range(256))))
            kept = self._inks[colour] = list(quantize_image(ramp, self.theme).tobytes())
        return kept

    def _text(self, x: int, y: int, text: str, colour: str, footer: bool = False) -> None:
        """``text`` at (x, y) in the theme's ``colour`` over the background (``_inked``)."""
        index, cover, left, top = self._inked(text, colour, footer)
        # Pillow's core paste: ``Image.paste`` checks and loads its three images first, and
        # a sheet takes a call a word (the 16x16 example's: 34,000; with the line above, the
        # sheet's 2.44 -> 2.02 ms a frame)
        x, y = x + left, y + top
        self.page.im.paste(index.im, (x, y, x + index.size[0], y + index.size[1]), cover.im)

    def _legend_line(self, x: int, y: int, line: str) -> None:
        """A legend's line at (x, y), in the label colour."""
        self._text(x, y, line, "label")

    def _save(self, p: int) -> None:
        from .frame import _palette
        from .pngwrite import write_rows

        lay = self.lay
        self._text(lay.page[0] // 2, lay.page[1] - lay.margin, f"{p + 1} / {len(lay.pages)}", "label", footer=True)
        # on the theme's palette, like the frames (10x faster to write than RGB and a third
        # of the size), the indices as they are: nothing to quantise; written as the frames
        # are (``pngwrite``)
        w, h = lay.page
        palette = bytes(_palette(self.theme, None).getpalette() or ())
        write_rows(self.paths[p], self.rows[:h * (w + 1)], lay.page, palette, dpi=(SHEET_DPI, SHEET_DPI))
        self.written.append(self.paths[p])
        self.rows[:] = 0  # the same page, cleared for the next page
