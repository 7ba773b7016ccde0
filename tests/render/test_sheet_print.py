"""Issue 41, item 4: the contact sheet explains its marks, fills its pages, and its names
sort in order at any count."""
from __future__ import annotations

from types import SimpleNamespace

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
    """``ContactSheet._legend_line`` renders each legend line once and pastes its colour
    through that mask after: the page's pixels are those ``ImageDraw.text`` draws (descenders,
    accents, a glyph reaching left of its origin), the second time as the first."""
    from PIL import Image, ImageDraw

    from render.sheet import ContactSheet
    from render.theme import THEMES

    theme = THEMES["colorblind"]
    lines = ["Disques barrés en vermillon : retirés ; anneaux « vrai »,", "jq(y) — ÉÀÇ g_p", "x"]
    plan = _plan(2, "a caption", " ".join(lines))
    sheet = ContactSheet(plan, 9, theme, [])
    sheet.page = Image.new("RGB", (900, 200), theme["background"])
    sheet.draw = ImageDraw.Draw(sheet.page)
    drawn = Image.new("RGB", (900, 200), theme["background"])
    pen = ImageDraw.Draw(drawn)
    for k, line in enumerate(lines * 2):  # each line twice: from a new mask, then from the kept one
        xy = (7 + 3 * k, 5 + 31 * k % 170)
        sheet._legend_line(*xy, line)
        pen.text(xy, line, font=sheet.font, fill=theme["label"])
    assert len(sheet._masks) == len(lines)
    assert sheet.page.tobytes() == drawn.tobytes()


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
