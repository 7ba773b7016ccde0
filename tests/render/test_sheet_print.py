"""Issue 41, item 4: the contact sheet explains its marks, fills its pages, and its names
sort in order at any count."""
from __future__ import annotations

from types import SimpleNamespace

import pytest

from render.sheet import sheet_layout, sheet_names


def test_sheet_names_sort_in_order_at_any_count():
    for count in (9, 99, 100, 137, 1000, 1234):
        names = sheet_names(count)
        assert sorted(names) == names and len(set(names)) == count
        assert names[0].startswith("EXPLANATIONS-0")
    names = sheet_names(100)
    assert names.index("EXPLANATIONS-100.png") == 99 and sorted(names)[-1] == "EXPLANATIONS-100.png"


def test_frame_names_sort_at_a_thousand_steps():
    """Frames 1000-… when there are 1000 steps or more: every number padded to one width."""
    from render.plan import Frame

    width = max(3, len(str(1000 + 1)))
    stems = [f"{k:0{width}d}-STEP" for k in range(0, 1002)]
    assert sorted(stems) == stems and Frame  # plan_frames pads so (render/plan.py)


def _plan(n_frames: int, caption: str, legend: str) -> list[SimpleNamespace]:
    return [SimpleNamespace(caption=f"Step {k}: {caption}", legend=legend) for k in range(n_frames)]


def test_sheet_tiles_carry_their_legend():
    lay = sheet_layout(_plan(7, "a caption", "Filled disks “on”, light disks “off”."), 9)
    for page in lay.pages:
        for tile in page:
            assert " ".join(tile.legend).startswith("Filled disks")


def test_sheet_pages_are_filled():
    """Mixed caption lengths: every page but the last at least 60% full, the 16x16 three frames
    a page (it made 137 mostly empty pages: one row of two frames a page when a caption was long)."""
    import itertools

    lengths = itertools.cycle([20, 400, 150, 650, 60])
    for n in (9, 16):
        plan = [SimpleNamespace(caption="word " * (next(lengths) // 5), legend="Legend words here.")
                for _ in range(60)]
        lay = sheet_layout(plan, n)
        fill = lay.fill()
        assert min(fill[:-1]) >= 0.6, (n, fill)
        assert sum(len(p) for p in lay.pages) == 60
        if n == 16:
            assert all(len(p) == 3 for p in lay.pages[:-1])


def test_a_legend_line_from_its_kept_mask_has_the_pixels_of_the_text_drawn():
    """``ContactSheet._legend_line`` renders each legend line once and pastes its palette
    indices where it covers the page after: the page's pixels are those ``ImageDraw.text``
    draws in RGB, mapped onto the theme's palette as a page drawn in RGB was (descenders,
    accents, a glyph reaching left of its origin), the second time as the first."""
    from PIL import Image, ImageDraw

    from render.frame import _palette, quantize_image
    from render.sheet import ContactSheet
    from render.theme import THEMES

    theme = THEMES["colorblind"]
    lines = ["Disques barrés en vermillon : retirés ; anneaux « vrai »,", "jq(y) — ÉÀÇ g_p", "x"]
    plan = _plan(2, "a caption", " ".join(lines))
    sheet = ContactSheet(plan, 9, theme, [])
    sheet.page = Image.new("L", (900, 200), 0)
    drawn = Image.new("RGB", (900, 200), theme["background"])
    pen = ImageDraw.Draw(drawn)
    for k, line in enumerate(lines * 2):  # each line twice: from a new mask, then from the kept one
        xy = (7 + 3 * k, 5 + 31 * k % 170)
        sheet._legend_line(*xy, line)
        pen.text(xy, line, font=sheet.font, fill=theme["label"])
    assert len(sheet._masks) == len(lines)
    page = Image.frombytes("P", sheet.page.size, sheet.page.tobytes())
    page.putpalette(_palette(theme, None).getpalette())
    assert page.convert("RGB").tobytes() == quantize_image(drawn, theme).convert("RGB").tobytes()


def test_a_contact_sheet_tile_is_the_frame_reduced():
    """The contact sheet's tile is made from the frame's own pixels (``sheet_tile``), not drawn
    again: the frame without its caption strip, reduced to the tile, on the theme's palette;
    its colours are those of the frame (a reduced frame, not another picture)."""
    from PIL import Image

    from explainer import Puzzle
    from render.frame import FrameRenderer, Layout, quantize_image
    from render.plan import plan_frames
    from render.sheet import sheet_layout, sheet_tile, tile_geometry
    from render.theme import THEMES

    theme = THEMES["default"]
    p = Puzzle("9..3....41...2...5..2...3.12..6.9..36.9.5.............48.9...7........4....81....")
    plan = plan_frames(p)[:6]
    lay = sheet_layout(plan, 9)
    r = FrameRenderer(9, theme)
    frame = r.image(plan[5].scene)
    L = Layout(9)
    tile = tile_geometry(lay, frame.size, L.caption_in / L.height_in)
    assert tile[:2] == (lay.tile_w, lay.grid_h) and tile[2] < frame.size[1]
    small = sheet_tile(frame, tile, theme)
    assert small.size == (lay.tile_w, lay.grid_h)
    # the frame's picture reduced by hand in one resize, seen at a third of the tile (a thin line
    # falls on other tile pixels through a whole reduction first): the same, to within noise
    want = quantize_image(frame.crop((0, 0, frame.size[0], tile[2])).resize(
        small.size, Image.Resampling.BOX), theme).convert("RGB").reduce(3)
    got = small.convert("RGB").reduce(3)
    diff = [abs(a - b) for a, b in zip(want.tobytes(), got.tobytes(), strict=True)]
    assert max(diff) < 100 and sum(diff) / len(diff) < 8
    # the whole frame reduced once for the GIF's thumbnail too: the tile from it is the same
    shared = sheet_tile(frame, tile, theme, {2: frame.reduce(2)})
    diff = [abs(a - b) for a, b in zip(shared.convert("RGB").tobytes(), small.convert("RGB").tobytes(), strict=True)]
    assert sum(d > 0 for d in diff) < 0.01 * len(diff)


def test_a_french_line_never_starts_with_its_colon():
    """The contact sheet wrapped "flèches : la chaîne …" as "flèches" / ": la chaîne" (the
    frames' own wrap glued the space before French ; : ! ? » already): every width of a real
    French legend keeps each ":" and ";" on the line of the word before it."""
    from render.sheet import SHEET_CAPTION_PT, _font, wrap_text

    legend = ("Disques barrés en vermillon : retirés ; disques en bleu « vrai », disques en jaune « faux » ; "
              "flèches : la chaîne dans son sens de lecture, traits pleins en rose : liens forts.")
    font = _font(SHEET_CAPTION_PT)
    widths = range(int(font.getlength("vermillon :")) + 1, int(font.getlength(legend)), 7)
    for width in widths:
        lines = wrap_text(legend, font, width)
        assert not any(x.lstrip().startswith((":", ";", "»")) or x.rstrip().endswith("«") for x in lines), \
            (width, lines)
        assert " ".join(lines).replace("\u00a0", " ") == legend


def test_a_contact_sheet_page_holds_every_frame_s_tile_and_words(tmp_path):
    """Each frame's tile is copied onto its page as it is, and its caption (written word by
    word, each word rendered once) and legend are on the page where the layout puts them:
    each line's ink where ``ImageDraw.text`` would put the whole line, within a pixel."""
    from PIL import Image, ImageDraw

    from render.frame import _palette
    from render.sheet import ContactSheet
    from render.theme import THEMES

    theme = THEMES["default"]
    plan = _plan(5, "in box 2, 1 can only go in r1c6: r4c7 r5c7 and r6c7 lose 1.",
                 "Red: the value placed; green circles: the solved cells.")
    paths = [tmp_path / f"page-{k}.png" for k in range(5)]
    sheet = ContactSheet(plan, 9, theme, paths)
    lay = sheet.lay
    tiles = []
    for k in range(len(plan)):  # a tile of its own index everywhere: told apart on the page
        tiles.append(Image.new("L", (lay.tile_w, lay.grid_h), 1 + k))
        sheet.add(k, tiles[-1])
    assert [str(p) for p in sheet.written] == [str(p) for p in paths[:len(lay.pages)]]
    pal = _palette(theme, None).getpalette()
    for page, path in zip(lay.pages, sheet.written, strict=True):
        with Image.open(path) as im:
            assert im.mode == "P" and im.getpalette() == pal[:len(im.getpalette())]
            for t in page:
                box = (t.x, t.y, t.x + lay.tile_w, t.y + lay.grid_h)
                assert im.crop(box).getextrema() == (1 + t.k, 1 + t.k)
                x, y = lay.words_at(t)
                for line in t.caption + t.legend:
                    whole = Image.new("L", im.size, 0)
                    ImageDraw.Draw(whole).text((x, y), line, font=sheet.font, fill=255)
                    want = whole.getbbox()
                    ink = Image.frombytes("L", im.size, im.tobytes()).point([0] + [255] * 255)
                    got = ink.crop((x - 2, y, x + lay.text_w + 2, y + lay.line_h)).getbbox()
                    assert want is not None and got is not None
                    got = (got[0] + x - 2, got[1] + y, got[2] + x - 2, got[3] + y)
                    assert all(abs(a - b) <= 1 for a, b in zip(got, want, strict=True)), (line, got, want)
                    y += lay.line_h


def test_each_page_starts_blank_and_is_written_as_drawn(tmp_path):
    """The page's memory is reused (the PNG's rows, the page image over them): a page holds
    its own tiles only, none of the page before's, and its file shows what was pasted."""
    import numpy as np
    from PIL import Image

    from render.sheet import ContactSheet
    from render.theme import THEMES

    plan = _plan(14, "a caption", "a legend line.")
    paths = [tmp_path / f"page-{k}.png" for k in range(14)]
    sheet = ContactSheet(plan, 9, THEMES["default"], paths)
    lay = sheet.lay
    assert len(lay.pages) >= 2
    for k in range(len(plan)):  # indices 200 and up: no text ink maps there (the palette has ~180 colours)
        sheet.add(k, Image.new("L", (lay.tile_w, lay.grid_h), 200 + k))
    for page, path in zip(lay.pages, sheet.written, strict=True):
        with Image.open(path) as im:
            px = np.asarray(Image.frombytes("L", im.size, im.tobytes()))
        assert set(np.unique(px[px >= 200]).tolist()) == {200 + t.k for t in page}
        assert px[0, 0] == 0 and abs(im.info["dpi"][0] - 150) < 0.1  # the background; the page's print size


@pytest.mark.parametrize("footer", [False, True])
def test_a_words_mask_is_the_text_drawn_into_its_box(footer):
    """``glyph_mask`` takes FreeType's bitmap as it comes: the same coverage, size and offset as
    the text measured then drawn into its box (accents, descenders, a glyph left of the pen,
    punctuation, arrows, the footer's middle-baseline anchor)."""
    from render.sheet import SHEET_CAPTION_PT, SHEET_FOOTER_PT, _font, drawn_glyph_mask, glyph_mask

    font, anchor = (_font(SHEET_FOOTER_PT), "ms") if footer else (_font(SHEET_CAPTION_PT), None)
    words = ["r4c7", "in", "the", "Disques", "barrés", "«", "vrai", "»,", "jq(y)", "—", "ÉÀÇ", "g_p", "x",
             "⇒", "≠", "1 / 3", "12 / 12", ":", ".", "W", "fj", "(r1c1=5)-(r1c1=3)", "ïô"]
    for word in words:
        mask, left, top = glyph_mask(font, word, anchor)
        drawn, left2, top2 = drawn_glyph_mask(font, word, anchor)
        assert (mask.size, left, top) == (drawn.size, left2, top2), word
        assert mask.tobytes() == drawn.tobytes(), word
