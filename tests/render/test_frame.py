"""PNG smoke tests: one per role, palettes, big grids, SVG."""
import io

import pytest
from PIL import Image

from explainer import Puzzle
from explainer.model.explanation import Explanation
from explainer.model.grid import parse_grid
from explainer.model.state import State
from render.frame import FrameRenderer, state_png, step_png
from render.scene import scene
from render.theme import THEME_COLOURS, THEMES, Theme, theme, theme_colours

SEED = "9..3....41...2...5..2...3.12..6.9..36.9.5.............48.9...7........4....81...."


@pytest.fixture(scope="module")
def hand():
    return State.from_grid(parse_grid(SEED))


@pytest.fixture(scope="module")
def rend():
    return FrameRenderer(9)


def _img(data: bytes) -> Image.Image:
    im = Image.open(io.BytesIO(data))
    im.load()
    return im.convert("RGB")


def _count(im: Image.Image, rgb, tol=40) -> int:
    r0, g0, b0 = rgb
    return sum(n for n, (r, g, b) in im.getcolors(1 << 20) if abs(r - r0) + abs(g - g0) + abs(b - b0) <= tol)


def _hex(h):
    h = h.lstrip("#")
    return tuple(int(h[i:i + 2], 16) for i in (0, 2, 4))


ROLE_STEPS = {
    "placed": Explanation(technique="single candidate", place=((0, 1, 5),), show_candidates=False, text="p"),
    "cells": Explanation(technique="naked tuple", cells=((0, 1), (0, 2)), eliminate=((0, 4, 6),), text="c"),
    "pincer": Explanation(technique="als", cells_alt=((0, 1), (0, 2)), eliminate=((0, 4, 6),), text="c"),
    "house": Explanation(technique="hidden tuple", houses=(("box", 0),), eliminate=((0, 4, 6),), text="h"),
    "value": Explanation(technique="x wing", marked=((0, 1, 5), (0, 2, 5)), eliminate=((0, 5, 5),), text="m"),
    "z": Explanation(technique="chain", marked_alt=((0, 1, 5), (0, 2, 5)), eliminate=((0, 5, 5),), text="m"),
    "removed": Explanation(technique="locked candidate", eliminate=((0, 1, 5), (0, 2, 5)), text="e"),
    "link": Explanation(technique="chain", strong_links=(((0, 1, 5), (6, 2, 5)),), eliminate=((0, 5, 5),),
                        text="s"),
}
ROLE_COLOUR = {"placed": "place", "cells": "houses", "pincer": "cells_alt", "house": "houses", "value": "marked",
               "z": "z", "removed": "eliminate", "link": "strong_link"}


@pytest.mark.parametrize("role", sorted(ROLE_STEPS))
def test_png_per_role(role, hand, rend, tmp_path):
    step = ROLE_STEPS[role]
    sc = scene(hand, step, number=1)
    assert role in sc.roles
    data = rend.png(sc)
    assert data[:8] == b"\x89PNG\r\n\x1a\n"
    im = _img(data)
    assert all(abs(a - b) <= 1 for a, b in zip(im.size, rend.layout.pixels, strict=True))
    (tmp_path / f"{role}.png").write_bytes(data)
    # the role's colour is on the picture, and absent from the bare grid
    key = ROLE_COLOUR[role]
    colour = _hex(rend.theme[key]) if role != "cells" else _hex(rend.theme["cells"])
    if role == "cells":  # translucent squares: look for the blend instead
        return
    bare = _img(rend.png(scene(hand, Explanation(technique="x", eliminate=((0, 4, 6),), text=""), number=1)))
    assert _count(im, colour) > _count(bare, colour) + 20


def test_palettes_differ(hand):
    step = ROLE_STEPS["value"]
    shots = {}
    for name in THEME_COLOURS:
        shots[name] = _img(FrameRenderer(9, THEMES[name]).png(scene(hand, step, number=1)))
    assert _count(shots["colorblind"], _hex(THEME_COLOURS["colorblind"]["marked"])) > 50
    assert _count(shots["default"], _hex(THEME_COLOURS["colorblind"]["marked"]), tol=10) < 10
    assert shots["high-contrast"].tobytes() != shots["default"].tobytes()


def test_palette_override_and_unknown():
    p = theme_colours("default", {"eliminate": "#123456"})
    assert p["eliminate"] == "#123456" and THEME_COLOURS["default"]["eliminate"] != "#123456"
    with pytest.raises(ValueError):
        theme_colours("nope")
    with pytest.raises(ValueError):
        theme_colours("default", {"not_a_role": "red"})


def test_a_theme_is_built_once_and_keys_the_caches():
    """--palette becomes one Theme (a frozen mapping); names and aliases give the same object, and
    the renderer is cached by the theme, not by a name."""
    from render.frame import renderer

    assert theme("colourblind") is theme("okabe-ito") is THEMES["colorblind"]
    assert theme(THEMES["default"]) is THEMES["default"] and theme("default") == THEME_COLOURS["default"]
    custom = theme("default", {"eliminate": "#123456"})
    assert isinstance(custom, Theme) and custom["eliminate"] == "#123456" and custom != THEMES["default"]
    assert hash(theme({"eliminate": "#123456"})) == hash(custom)
    assert renderer(9, custom) is renderer(9, theme("default", {"eliminate": "#123456"}))
    with pytest.raises(TypeError):
        custom["eliminate"] = "#000000"  # type: ignore[index]


def test_frame_16x16_legible(tmp_path):
    from pathlib import Path

    data = Path(__file__).resolve().parents[3] / "shared" / "data" / "sample16.txt"
    if not data.exists():
        pytest.skip("sample16.txt not available")
    line = [x for x in data.read_text().split() if len(x) == 256][0]
    g = parse_grid(line)
    st = State.from_grid(g)
    n = 16
    c = next(i for i in range(256) if st.cand[i] and bin(st.cand[i]).count("1") >= 2)
    v = st.candidates(c)[-1]
    step = Explanation(technique="locked candidate", eliminate=((c // n, c % n, v),), houses=(("row", c // n),),
                       text="A 16x16 test step.")
    r = FrameRenderer(16)
    im = _img(r.png(scene(st, step, number=1)))
    w, h = im.size
    assert w >= 900  # candidates of a 4x4 sub-grid need room
    assert r.layout.cell_in * r.layout.dpi / 4 >= 14  # >= 14 px per candidate slot
    (tmp_path / "16.png").write_bytes(r.png(scene(st, step, number=1)))


def test_dpi_and_size():
    assert FrameRenderer(9, dpi=50).layout.pixels[0] < FrameRenderer(9).layout.pixels[0]
    assert abs(FrameRenderer(9, size=1200).layout.pixels[0] - 1200) <= 1


def test_svg_frame(hand, rend):
    data = rend.svg(scene(hand, ROLE_STEPS["removed"], number=1))
    assert b"<svg" in data[:500]
    # the raster path still works after an SVG
    assert rend.png(scene(hand, ROLE_STEPS["removed"], number=1))[:4] == b"\x89PNG"


def test_notebook_hooks():
    p = Puzzle(SEED)
    step = p.steps[3]
    assert step._repr_png_()[:4] == b"\x89PNG"
    assert p._repr_png_()[:4] == b"\x89PNG"
    assert step_png(step.before, step, number=4)[:4] == b"\x89PNG"
    assert state_png(p.state, title="x")[:4] == b"\x89PNG"
    # a State shows its candidates grid
    assert p.state._repr_png_()[:4] == b"\x89PNG"
    # the title of a notebook frame is the 1-based step number: steps[17] is "Step 18"
    p.goto(17)
    from render.scene import scene as make
    assert "Step 18 " in make(p.steps[17].before, p.steps[17], number=18).text("title")
    assert p._repr_png_() == p.frame_png(18)
    p.goto(0)


def test_puzzle_frame_at_any_step(seed_puzzle):
    first = seed_puzzle.frame_png(0)
    step = seed_puzzle.frame_png(5)
    last = seed_puzzle.frame_png(len(seed_puzzle.steps) + 1)
    assert all(png[:8] == b"\x89PNG\r\n\x1a\n" for png in (first, step, last))
    assert len({first, step, last}) == 3
    seed_puzzle.goto(4)
    assert seed_puzzle._repr_png_() == step
    seed_puzzle.goto(0)
