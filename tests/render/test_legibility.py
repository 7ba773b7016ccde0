"""Legible at class size (RENDERING.md wave 2): candidates >= 12 px high at the
default size for every grid size, measured on the pixels."""
import numpy as np
import pytest

from render.frame import FrameRenderer
from render.scene import Scene, Shape, spot


def _glyph_height(n: int, ch_value: int) -> int:
    r = FrameRenderer(n)
    row, col = n - 2, n - 2
    sc = Scene(n, [Shape("candidate", "candidate", row, col, ch_value)])
    px = np.asarray(r.image(sc)).astype(int)
    L = r.layout
    x0, y0, w, h = L.ax_rect
    W, H = L.pixels
    cell = w * W / n
    gx, gy = spot(n, row, col, ch_value)
    cx, cy = x0 * W + gx * cell, H - (y0 * H + (n - gy) * cell)
    half = int(cell / (2 * r.layout.m)) + 2
    box = px[int(cy) - half:int(cy) + half, int(cx) - half:int(cx) + half]
    dark = np.where(box.sum(axis=2) < 400)[0]
    return int(dark.max() - dark.min() + 1)


@pytest.mark.parametrize("n", [9, 16, 25])
def test_candidates_at_least_12_px(n):
    # "8" (a digit) and "D" (a letter: must not read as 0 or Ø)
    values = [8] + ([13] if n > 9 else [])
    for v in values:
        assert _glyph_height(n, v) >= 12, (n, v)


def test_big_grids_get_bigger_frames():
    assert FrameRenderer(16).layout.pixels[0] >= 1400
    assert FrameRenderer(25).layout.pixels[0] >= 2500


# ---- at class size: every frame shown 1024 pixels wide (issue 23) --------------------------

def _big_positions():
    from tests.render.test_roles import POSITIONS, _positions

    return _positions(POSITIONS.parent / "big_positions.txt")


def _scenes_of(puzzle):
    from render.scene import step_scenes

    for k, step in enumerate(puzzle.steps):
        yield from step_scenes(step.before, step, number=k + 1, givens=puzzle.grid.values)


def _check(scenes, n, fr_too=False):
    from render.frame import Layout, frame_metrics

    layout = Layout(n)
    count = 0
    for sc in scenes:
        met = frame_metrics(sc, layout)
        assert met["digit"] >= 12 and met["caption"] >= 12, (n, sc.text("title"), met)
        count += 1
    return count


@pytest.mark.parametrize("n", [4, 9])
def test_small_grids_legible_at_1024(n):
    from explainer import Puzzle
    from tests.conftest import ROOT, SEED, top1465

    lines = ([x for x in (ROOT / "examples" / "4x4.txt").read_text().split() if len(x) == 16][:2] if n == 4
             else [SEED, top1465(1)[0]])
    assert sum(_check(_scenes_of(Puzzle(line)), n) for line in lines) > 10


def test_big_grids_legible_at_1024():
    """16×16 and 25×25 frames draw their marks, and the candidates of the cells their step
    marks where they fit, at the scale where their digits reach 12 px at 1024 px wide."""
    from explainer.model.grid import parse_grid
    from render.scene import step_scenes
    from tests.render.test_roles import _step_of

    count = 0
    for kind, (givens, state) in _big_positions():
        step = _step_of(kind, state)
        scenes = step_scenes(state, step, number=1, givens=parse_grid(givens).values)
        scenes += step_scenes(state, step, number=1, givens=parse_grid(givens).values, lang="fr")
        count += _check(scenes, state.geo.n)
    assert count > 20


def test_focused_frame_measured_on_the_pixels():
    """The metric agrees with the pixels: a 25×25 frame's marked candidate, shown 1024 px wide."""
    from explainer.model.grid import parse_grid
    from render.frame import scene_view
    from render.scene import scene as make_scene
    from tests.render.test_roles import _step_of

    kind, (givens, state) = next((k, v) for k, v in _big_positions() if v[1].geo.n == 25 and k == "chain")
    step = _step_of(kind, state)
    sc = make_scene(state, step, number=1, givens=parse_grid(givens).values)
    r = FrameRenderer(25)
    view = scene_view(sc, r.layout)
    assert not view.is_plain and view.uniform
    marks = [s for s in sc if s.kind == "disk" and s.row >= 0]
    places = view.places((s.row, s.col, s.value) for s in marks)
    px = np.asarray(r.image(sc)).astype(int)
    L = r.layout
    x0, y0, w, h = L.ax_rect
    W, H = L.pixels
    unit = w * W / 25
    heights = []
    for mark in marks:
        gx, gy = places[mark.row, mark.col, mark.value]
        cx, cy = x0 * W + gx * unit, H - (y0 * H + (25 - gy) * unit)
        half = int(view.disk(mark.row, mark.col) * unit * 0.9)
        box = px[int(cy) - half:int(cy) + half, int(cx) - half:int(cx) + half]
        # the digit is drawn light on the dark disk: its rows are those with near-white pixels
        light = np.where(box.min(axis=2) > 200)[0]
        heights.append((light.max() - light.min() + 1) * 1024 / W)
    assert min(heights) >= 11.5, heights


def test_big_grids_read_as_grids():
    """Issue 41 item 5: a big grid's marked frame keeps every row and column of one size (its
    givens all of one size, at least 12 px at 1024 px), and shows the candidates of the cells
    its step marks where they fit (every one on 16×16; cells of up to 4 on 25×25)."""
    from explainer.model.grid import parse_grid
    from render.frame import Layout, frame_metrics, scene_view
    from render.scene import step_scenes
    from tests.render.test_roles import _step_of

    shown = {16: 0, 25: 0}
    for kind, (givens, state) in _big_positions():
        n = state.geo.n
        layout = Layout(n)
        for sc in step_scenes(state, _step_of(kind, state), number=1, givens=parse_grid(givens).values):
            view = scene_view(sc, layout)
            assert view.uniform, (n, kind)
            assert {view.scale(s.row, s.col) for s in sc if s.kind == "value"} == {1.0}
            assert frame_metrics(sc, layout)["digit"] >= 12
            cands = [s for s in sc if s.kind == "candidate" and (s.row, s.col) in view.detail]
            shown[n] += len(cands)
            if n == 16:  # every marked cell of a 16×16 frame shows its candidates
                marked = {(s.row, s.col) for s in sc if s.kind in ("disk", "light", "ring") and s.row >= 0}
                assert marked <= set(view.detail), (kind, marked - set(view.detail))
    assert shown[16] > 20 and shown[25] > 20, shown


def test_a_house_outline_is_not_also_a_ring():
    """A "thick" house outline (a proof's deciding house) drew a stray ring at the figure's
    top-left corner too, as if it were a candidate's thick ring."""
    from render.scene import Scene, Shape

    r = FrameRenderer(9)
    sc = Scene(9, [Shape("contradiction", "thick", house=("col", 8), colour="contradiction")])
    px = np.asarray(r.image(sc)).astype(int)
    bg = np.asarray(r.image(Scene(9, []))).astype(int)
    x0, y0, w, h = r.layout.ax_rect
    W, H = r.layout.pixels
    corner = (slice(0, int(H * (1 - y0 - h))), slice(0, int(W * x0)))  # above and left of the grid
    assert (px[corner] == bg[corner]).all()


# ---- every glyph, measured on the drawn artists (issue 34) ---------------------------------
# A frame shown SHOWN_WIDTH pixels wide: every given, every row and column number, every
# candidate and mark digit, and the capitals (and digits) of the title, caption and legend
# reach LEGIBLE_PX. The heights are read from the artists the frame draws (their paths,
# through their transforms), not from the layout's arithmetic.

def _glyph_boxes(patch):
    """The pixel height of every glyph of a path of isolated glyphs (values, numbers, marks):
    its closed contours, a contour inside another's box being that glyph's hole."""
    polys = patch.get_path().to_polygons(patch.get_transform())
    boxes = [(p[:, 0].min(), p[:, 1].min(), p[:, 0].max(), p[:, 1].max()) for p in polys if len(p) > 2]

    def inside(a, b):
        return a is not b and b[0] <= a[0] and b[1] <= a[1] and a[2] <= b[2] and a[3] <= b[3]

    return [b[3] - b[1] for b in boxes if not any(inside(b, o) for o in boxes)]


def _text_glyphs(patch, lines, bold):
    """(character, pixel height) of each capital and digit of a text patch
    (``render.frame.text_patch``: its lines' characters' outlines one after the other)."""
    from matplotlib.path import Path

    from render.frame import _char

    path, tr = patch.get_path(), patch.get_transform()
    out, i = [], 0
    for line in lines:
        for ch in line:
            v, c, _ = _char(ch, bold)
            if len(v) and (ch.isupper() or ch.isdigit()):  # the glyphs checked (Bézier extents are slow)
                glyph = Path(path.vertices[i:i + len(v)], path.codes[i:i + len(v)]).transformed(tr)
                out.append((ch, glyph.get_extents().height))
            i += len(v)
    assert i == len(path.vertices) or not lines
    return out


def drawn_sizes(sc, renderer=None):
    """What a frame draws, by kind (the artists' gid: value, label, candidate, mark, title,
    caption, legend), as pixel heights when the frame is shown SHOWN_WIDTH pixels wide; the
    texts' glyphs as (character, height)."""
    from render.frame import draw, fit_caption, scene_view
    from render.view import SHOWN_WIDTH

    r = renderer or FrameRenderer(sc.n)
    artists = draw(r.ax, sc, r.theme, r.layout)
    try:
        k = SHOWN_WIDTH / r.canvas.get_width_height(physical=True)[0]
        lines, legend, _ = fit_caption(sc.text("caption"), sc.text("legend"), r.layout)
        texts = {"title": ([sc.text("title")], True), "caption": (lines, False), "legend": (legend, False)}
        out = {}
        plain = scene_view(sc, r.layout).uniform  # the static grid (its numbers) drawn under the frame
        for a in artists + (r._static if plain else []):
            gid = a.get_gid()
            if gid in texts:
                out[gid] = [(ch, h * k) for ch, h in _text_glyphs(a, *texts[gid])]
            elif gid:
                out.setdefault(gid, []).extend(h * k for h in _glyph_boxes(a))
        return out
    finally:
        for a in artists:
            a.remove()


def _too_small(sizes):
    """What is under LEGIBLE_PX: every glyph of the grid, the capitals and digits of the texts."""
    from render.view import LEGIBLE_PX

    bad = {}
    for gid, items in sizes.items():
        if gid in ("title", "caption", "legend"):
            small = [(ch, round(h, 1)) for ch, h in items if (ch.isupper() or ch.isdigit()) and h < LEGIBLE_PX]
        else:
            small = [round(h, 1) for h in items if h < LEGIBLE_PX]
        if small:
            bad[gid] = small[:5]
    return bad


def _marked_frames():
    """Frames with marked rows on each grid size: the seed's steps (9×9) and the big grids'
    positions (16×16, 25×25), in both languages, proof sub-frames included."""
    from explainer import Puzzle
    from explainer.model.grid import parse_grid
    from render.scene import step_scenes
    from tests.conftest import SEED
    from tests.render.test_roles import _step_of

    p = Puzzle(SEED)
    for k in (5, 18, 35):  # a locked candidate, a chain, a y wing
        st = p.steps[k - 1]
        for lang in ("en", "fr"):
            yield from step_scenes(st.before, st, number=k, givens=p.grid.values, lang=lang, kinds=p.kinds)
    for i, (kind, (givens, state)) in enumerate(_big_positions()):
        step = _step_of(kind, state)
        yield from step_scenes(state, step, number=54, givens=parse_grid(givens).values, lang=("en", "fr")[i % 2])[:2]


def test_every_glyph_legible_at_1024():
    """Issue 34: on 25×25 the rows and columns a step leaves narrow lost their givens and had
    3.6–4 px numbers, the marks there no digit; 16×16 disk letters were 10.7 px; caption
    capitals 8.6–9 px on 16×16 and 11.7 px on long 9×9 captions."""
    seen = {}
    renderers = {}
    for sc in _marked_frames():
        r = renderers.setdefault(sc.n, FrameRenderer(sc.n))
        sizes = drawn_sizes(sc, r)
        assert not _too_small(sizes), (sc.n, sc.text("title"), _too_small(sizes))
        for gid, items in sizes.items():
            seen.setdefault((sc.n, gid), 0)
            seen[sc.n, gid] += len(items)
    for n in (9, 16, 25):
        for gid in ("value", "label", "candidate", "mark", "title", "caption", "legend"):
            assert seen.get((n, gid)), (n, gid)  # every kind of glyph measured on every size
    # a 25×25 frame keeps all 25 row and 25 column numbers and every given
    assert min(v for (n, gid), v in seen.items() if n == 25 and gid == "label") >= 50


def test_long_caption_capitals_legible():
    """The smallest caption the strip shrinks to still has 12 px capitals, and room for a long
    caption (1000 characters) on every grid size."""
    from render.frame import Layout, fit_caption
    from render.scene import Scene, Shape

    text = " ".join(["If R5C7 is 8, then r5c1 is Not 8, so R2C1 is 8."] * 21)[:1000]
    for n in (4, 9, 16, 25):
        sc = Scene(n, [Shape("title", "text", text="Step 12 — Chain"), Shape("caption", "text", text=text)])
        lines, _, fs = fit_caption(text, "", Layout(n))
        assert not lines[-1].endswith("…"), n
        assert fs == Layout(n).caption_min_pt or n == 4
        assert not _too_small(drawn_sizes(sc)), (n, _too_small(drawn_sizes(sc)))
