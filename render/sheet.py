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
