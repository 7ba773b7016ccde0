"""The paged contact sheet: every frame, reduced, on A4 (or Letter) portrait pages, numbered,
each with its caption and its legend (what its marks mean) printed under or beside it at 9 pt
or more; pages filled column after column."""
from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

from .plan import Frame
from .sizes import PAPER_IN
from .typeset import breakable_words

SHEET_DPI = 150  # pixels per inch of a page: an A4 page is 1240 x 1754 px and prints at A4
SHEET_MARGIN_IN = 0.4
SHEET_GAP_IN = 0.2
SHEET_CAPTION_PT = 9.5  # the caption under each frame, at SHEET_DPI: >= 9 pt on paper
SHEET_FOOTER_PT = 10.0
BESIDE_ROWS = 3  # 16x16 and 25x25 frames a page, their words beside them


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


class ContactSheet:
    """The contact sheet's pages written as the frames come (``add``, in order): each
    frame without its own caption (the bottom ``crop`` fraction of its thumbnail) and its
    caption written under it at SHEET_CAPTION_PT, then "page k / N" at the foot of the page;
    a page is written (on the theme's palette) when its last frame is in, so only one page
    is held. ``paths``: a file per page of the layout."""

    def __init__(self, plan: Sequence[Frame], n: int, theme: Any, paths: Sequence[Any], *, columns: int = 3,
                 paper: str = "a4", crop: float = 0.0, layout: SheetLayout | None = None) -> None:
        # ``layout``: the plan's layout when the caller has it already (it named the pages)
        self.lay = layout or sheet_layout(plan, n, columns, paper)
        self.font, self.footer_font = _font(SHEET_CAPTION_PT), _font(SHEET_FOOTER_PT)
        self.theme = theme
        self.paths = list(paths)
        self.crop = crop
        self.written: list[Any] = []
        # where each frame goes: its page, its tile, whether it is the page's last
        self.at: dict[int, tuple[int, Tile, bool]] = {}
        for p, tiles in enumerate(self.lay.pages):
            for i, tile in enumerate(tiles):
                self.at[tile.k] = (p, tile, i == len(tiles) - 1)
        self.page: Any = None
        self.draw: Any = None
        # the legends' lines as masks, each rendered once: a legend comes back frame after frame
        # (the seed: 472 legend lines, 51 different), its text need not be laid out and
        # rasterised again (``_legend_line``)
        self._masks: dict[str, tuple[Any, int, int]] = {}

    def add(self, k: int, thumb: Any) -> None:
        from PIL import Image, ImageDraw

        lay = self.lay
        p, tile, last = self.at[k]
        if self.page is None:
            self.page = Image.new("RGB", lay.page, self.theme["background"])
            self.draw = ImageDraw.Draw(self.page)
        elif self.draw is None:  # the same page image, cleared for the next page
            self.page.paste(self.theme["background"], (0, 0, *lay.page))
            self.draw = ImageDraw.Draw(self.page)
        t = thumb.crop((0, 0, thumb.size[0], round(thumb.size[1] * (1 - self.crop)))).convert("RGB")
        whole = t.size[0] // lay.tile_w
        if whole >= 2:  # a whole reduction first (a plain 2x2 … average), much faster than resizing
            t = t.reduce(whole)
        # BOX: a plain average of the pixels a tile pixel covers (4x faster than Lanczos)
        self.page.paste(t.resize((lay.tile_w, lay.grid_h), Image.Resampling.BOX), (tile.x, tile.y))
        font = self.font
        x, y = lay.words_at(tile)
        for line in tile.caption:
            self.draw.text((x, y), line, font=font, fill=self.theme["caption"])
            y += lay.line_h
        for line in tile.legend:  # the marks in words, as under the frame itself
            self._legend_line(x, y, line)
            y += lay.line_h
        if last:
            self._save(p)

    def _legend_line(self, x: int, y: int, line: str) -> None:
        """A legend's line at (x, y), in the label colour: the pixels ``ImageDraw.text`` draws
        there. Its glyphs' coverage is rendered once into a mask (the same FreeType bitmap:
        the line laid out at a whole pixel, as at (x, y)), then the colour is pasted through
        it: both blend the colour into the page by that coverage (Pillow's fill with a mask)."""
        from PIL import Image, ImageDraw

        kept = self._masks.get(line)
        if kept is None:
            left, top, right, bottom = self.draw.textbbox((0, 0), line, font=self.font)
            mask = Image.new("L", (max(1, right - left), max(1, bottom - top)), 0)
            ImageDraw.Draw(mask).text((-left, -top), line, font=self.font, fill=255)
            kept = self._masks[line] = (mask, left, top)
        mask, left, top = kept
        self.page.paste(self.theme["label"], (x + left, y + top, x + left + mask.size[0], y + top + mask.size[1]),
                        mask)

    def _save(self, p: int) -> None:
        from .frame import quantize_image

        lay = self.lay
        footer = f"{p + 1} / {len(lay.pages)}"
        self.draw.text((lay.page[0] / 2, lay.page[1] - lay.margin), footer, font=self.footer_font,
                       fill=self.theme["label"], anchor="ms")
        # on the theme's palette, like the frames: 10x faster to write and a third of the size
        quantize_image(self.page, self.theme).save(self.paths[p], format="PNG", compress_level=1,
                                                   dpi=(SHEET_DPI, SHEET_DPI))
        self.written.append(self.paths[p])
        self.draw = None
