"""The paged contact sheet: every frame, reduced, on A4 (or Letter) portrait pages, numbered,
each with its caption printed under it at 9 pt or more."""
from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

from .plan import Frame
from .sizes import PAPER_IN

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
    Eureka notation) is cut where the line is full. A line's width is the sum of its words'
    and spaces' (measured once each: a caption's lines are not measured again word by word)."""
    lines: list[str] = []
    space = font.getlength(" ")
    sizes: dict[str, float] = {}

    def size(word: str) -> float:
        if word not in sizes:
            sizes[word] = font.getlength(word)
        return sizes[word]

    for para in text.split("\n"):
        line = ""
        used = 0.0
        for word in para.split():
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
        rows[-1].append((k, wrap_text(f.caption, font, tile_w)))
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


class ContactSheet:
    """The contact sheet's pages written as the frames come (``add``, in order): each
    frame without its own caption (the bottom ``crop`` fraction of its thumbnail) and its
    caption written under it at SHEET_CAPTION_PT, then "page k / N" at the foot of the page;
    a page is written (on the theme's palette) when its last frame is in, so only one page
    is held. ``paths``: a file per page of the layout."""

    def __init__(self, plan: Sequence[Frame], n: int, theme: Any, paths: Sequence[Any], *, columns: int = 3,
                 paper: str = "a4", crop: float = 0.0) -> None:
        self.lay = sheet_layout(plan, n, columns, paper)
        self.theme = theme
        self.paths = list(paths)
        self.crop = crop
        self.written: list[Any] = []
        # where each frame goes: page, top of its row, column, its caption lines, the row's height
        self.at: dict[int, tuple[int, int, int, list[str], bool]] = {}
        for p, rows in enumerate(self.lay.pages):
            y = self.lay.margin
            for r, row in enumerate(rows):
                for col, (k, lines) in enumerate(row):
                    last = r == len(rows) - 1 and col == len(row) - 1
                    self.at[k] = (p, y, col, lines, last)
                y += self.lay.grid_h + self.lay.line_h * max(len(lines) for _, lines in row) + self.lay.gap
        self.page: Any = None
        self.draw: Any = None

    def add(self, k: int, thumb: Any) -> None:
        from PIL import Image, ImageDraw

        lay = self.lay
        p, y, col, lines, last = self.at[k]
        if self.page is None:
            self.page = Image.new("RGB", lay.page, self.theme["background"])
            self.draw = ImageDraw.Draw(self.page)
        elif self.draw is None:  # the same page image, cleared for the next page
            self.page.paste(self.theme["background"], (0, 0, *lay.page))
            self.draw = ImageDraw.Draw(self.page)
        x = lay.margin + col * (lay.tile_w + lay.gap)
        t = thumb.crop((0, 0, thumb.size[0], round(thumb.size[1] * (1 - self.crop)))).convert("RGB")
        whole = t.size[0] // lay.tile_w
        if whole >= 2:  # a whole reduction first (a plain 2x2 … average), much faster than resizing
            t = t.reduce(whole)
        # BOX: a plain average of the pixels a tile pixel covers (4x faster than Lanczos)
        self.page.paste(t.resize((lay.tile_w, lay.grid_h), Image.Resampling.BOX), (x, y))
        font = _font(SHEET_CAPTION_PT)
        for i, line in enumerate(lines):
            self.draw.text((x, y + lay.grid_h + i * lay.line_h), line, font=font, fill=self.theme["caption"])
        if last:
            self._save(p)

    def _save(self, p: int) -> None:
        from .frame import quantize_image

        lay = self.lay
        footer = f"{p + 1} / {len(lay.pages)}"
        self.draw.text((lay.page[0] / 2, lay.page[1] - lay.margin), footer, font=_font(SHEET_FOOTER_PT),
                       fill=self.theme["label"], anchor="ms")
        # on the theme's palette, like the frames: 10x faster to write and a third of the size
        quantize_image(self.page, self.theme).save(self.paths[p], format="PNG", compress_level=1,
                                                   dpi=(SHEET_DPI, SHEET_DPI))
        self.written.append(self.paths[p])
        self.draw = None
