"""Frames drawn from a kept layer (``FrameRenderer(keep_values=True)``: the grid with its
givens and earlier values kept from frame to frame, issue 43 item 4) have the pixels of a
full draw; the layer is the renderer's own (its theme, its size), rebuilt when a frame
lacks one of its values; a frame read straight off the canvas quantises as a copied one."""
from __future__ import annotations

import numpy as np
import pytest

from explainer import Puzzle
from render.frame import FrameRenderer, quantize_image
from render.scene import initial_scene, step_scenes
from render.theme import THEMES
from tests.conftest import ROOT, SEED


def _scenes(line: str, steps: int, lang: str = "en") -> list:
    p = Puzzle(line, max_steps=steps)
    out = [initial_scene(p.initial_state(), givens=p.grid.values, lang=lang)]
    for k, st in enumerate(p.steps):
        out += step_scenes(st.before, st, number=k + 1, givens=p.grid.values, lang=lang, kinds=p.kinds)
    return out


def _first_line(name: str) -> str:
    return next(x.strip() for x in (ROOT / "examples" / name).read_text().splitlines()
                if x.strip() and not x.startswith("#"))


def _pixels(r: FrameRenderer, sc) -> np.ndarray:
    return np.asarray(r.image(sc)).astype(int)


def _same(a: np.ndarray, b: np.ndarray) -> None:
    diff = np.abs(a - b).max(axis=2)
    assert diff.max() == 0, (int(diff.max()), int((diff > 0).sum()))


@pytest.fixture(scope="module")
def seed_scenes():
    return _scenes(SEED, 40)


def test_kept_layer_draws_the_pixels_of_a_full_draw_9x9(seed_scenes):
    # in order, then back to an earlier frame (the layer holds values that frame lacks: rebuilt)
    frames = seed_scenes[:30:3] + seed_scenes[30:] + [seed_scenes[2], seed_scenes[12]]
    fast, full = FrameRenderer(9, keep_values=True), FrameRenderer(9)
    for sc in frames:
        _same(_pixels(fast, sc), _pixels(full, sc))
    assert fast._values is not None and full._values is None  # the layer was used, and only there


def test_kept_layer_draws_the_pixels_of_a_full_draw_16x16():
    frames = _scenes(_first_line("16x16.txt"), 6)
    fast, full = FrameRenderer(16, keep_values=True), FrameRenderer(16)
    for sc in frames:
        _same(_pixels(fast, sc), _pixels(full, sc))


def test_a_new_puzzle_does_not_reuse_the_last_ones_values(seed_scenes):
    other = _scenes("4.....8.5.3..........7......2.....6.....8.4......1.......6.3.7.5..2.....1.4......", 3)
    fast, full = FrameRenderer(9, keep_values=True), FrameRenderer(9)
    for sc in [seed_scenes[5], other[1], other[2], seed_scenes[6]]:
        _same(_pixels(fast, sc), _pixels(full, sc))


def test_two_palettes_in_one_run_keep_their_own_colours(seed_scenes):
    """Two renderers of one run, frames taking turns: each frame has its own palette's
    pixels (the layer is the renderer's, drawn in its theme)."""
    themes = [THEMES["default"], THEMES["high-contrast"]]
    fast = [FrameRenderer(9, t, keep_values=True) for t in themes]
    full = [FrameRenderer(9, t) for t in themes]
    shots = []
    for sc in seed_scenes[:8]:
        for f, g in zip(fast, full, strict=True):
            a = _pixels(f, sc)
            _same(a, _pixels(g, sc))
            shots.append(a)
    # and the two palettes really differ on the same frame
    assert np.abs(shots[0] - shots[1]).max() > 0


def test_frame_read_off_the_canvas_quantises_like_a_copy(seed_scenes):
    r = FrameRenderer(9, keep_values=True)
    for sc in seed_scenes[:4]:
        copied = np.asarray(quantize_image(r.image(sc), r.theme))
        with r.rgba(sc) as im:
            direct = np.asarray(quantize_image(im, r.theme))
            reduced = np.asarray(quantize_image(im.reduce(2), r.theme, 4))
        assert (copied == direct).all()
        assert (reduced == np.asarray(quantize_image(r.image(sc).reduce(2), r.theme, 4))).all()


def _drawn_over(r: FrameRenderer, sc, tile=None) -> tuple[bytes, np.ndarray, bytes]:
    """A frame's PNG rows as a run's worker finds them (over the layer it was drawn on, the
    dirty map kept for the next frame), the canvas's pixels and the tile's (with ``tile``)."""
    from render.frame import quantize_rows
    from render.sheet import rows_and_tile

    with r.rgba(sc) as im:
        over = r.over()
        assert over is not None
        small = b""
        if tile is not None:
            both = rows_and_tile(r.canvas.buffer_rgba(), im.size, r.theme, tile, over)
            assert both is not None
            rows, small = both[0], both[1].tobytes()
        else:
            rows = quantize_rows(r.canvas.buffer_rgba(), im.size, r.theme, over=over)
        assert rows is not None
        r.drawn_over(over)
        return rows, np.asarray(im).copy(), small


@pytest.mark.skipif(not __import__("explainer.core.pixels", fromlist=["compiled"]).compiled,
                    reason="compiled pixels not built")
@pytest.mark.parametrize("tile", [None, (120, 150, 700), (390, 300, 700)])
def test_frames_put_back_by_their_dirty_chunks_are_drawn_whole(seed_scenes, tile):
    """Rows looked up over the frame's layer, the next frame putting back only the chunks the
    last one drew on (``FrameRenderer.over``, ``_put``): in order, back to an earlier frame (the
    layer rebuilt) and after an SVG (the canvas drawn again): every frame's pixels and rows
    those of a renderer that copies its layer whole; the contact sheet's tile (reduced by 6, by
    2), its blocks the frame did not draw on taken from the layer's reduction, the tile made
    from the whole frame."""
    from render.frame import quantize_rows
    from render.sheet import rows_and_tile

    frames = seed_scenes[:30:3] + seed_scenes[30:] + [seed_scenes[2], seed_scenes[12]]
    fast, full = FrameRenderer(9, keep_values=True), FrameRenderer(9, keep_values=True)
    put_back = 0
    for k, sc in enumerate(frames):
        if k == 8:
            fast.svg(sc)
        put_back += fast._dirty_of is not None
        rows, px, small = _drawn_over(fast, sc, tile)
        with full.rgba(sc) as im:
            assert (np.asarray(im) == px).all(), k
            assert rows == quantize_rows(full.canvas.buffer_rgba(), im.size, full.theme), k
            if tile is not None:
                both = rows_and_tile(full.canvas.buffer_rgba(), im.size, full.theme, tile)
                assert both is not None and small == both[1].tobytes(), k
    assert put_back == len(frames) - 2  # the map was used but for the first frame and after the svg


@pytest.mark.skipif(not __import__("explainer.core.pixels", fromlist=["compiled"]).compiled,
                    reason="compiled pixels not built")
def test_a_canvas_made_again_is_filled_whole(seed_scenes):
    """When the canvas's Agg renderer is made again (matplotlib does so when the figure's size
    or dpi changed: its buffer starts blank), the next frame does not put back only the chunks
    the last one drew on: it has the pixels of a fresh renderer's frame."""
    fast, full = FrameRenderer(9, keep_values=True), FrameRenderer(9, keep_values=True)
    for sc in seed_scenes[:6]:
        _drawn_over(fast, sc)
    fast.canvas._lastKey = None  # the next get_renderer makes a new renderer, a blank buffer
    _rows, px, _ = _drawn_over(fast, seed_scenes[6])
    with full.rgba(seed_scenes[6]) as im:
        assert (np.asarray(im) == px).all()


@pytest.mark.skipif(not __import__("explainer.core.pixels", fromlist=["compiled"]).compiled,
                    reason="compiled pixels not built")
def test_drawing_the_renderer_cannot_bound_makes_the_whole_frame_read(seed_scenes):
    """Anything drawn on the canvas other than a path (here the canvas cleared; a collection, an
    image, text alike) leaves the frame's map unknown: ``over`` gives no ``todo`` and the rows
    are looked up whole, the same as without the layer; the next frame is whole again."""
    from render.frame import quantize_rows

    r = FrameRenderer(9, keep_values=True)
    for sc in seed_scenes[:3]:
        _drawn_over(r, sc)
    with r.rgba(seed_scenes[3]) as im:
        r._renderer().clear()
        over = r.over()
        assert over is not None and over.todo is None
        rows = quantize_rows(r.canvas.buffer_rgba(), im.size, r.theme, over=over)
        assert rows is not None and bytes(rows) == quantize_rows(r.canvas.buffer_rgba(), im.size, r.theme)
        r.drawn_over(over)
    _rows, px, _ = _drawn_over(r, seed_scenes[4])
    with FrameRenderer(9, keep_values=True).rgba(seed_scenes[4]) as im:
        assert (np.asarray(im) == px).all()


def _drawn_only_where_marked(r: FrameRenderer, sc) -> float:
    """Draw ``sc`` on ``r``; check the canvas is its base layer in every chunk the renderer's
    ``todo`` map leaves out (what the lookup then takes from the layer, unread); the share of
    chunks marked."""
    with r.rgba(sc):
        over = r.over()
        assert over is not None and over.todo is not None
        h, w = over.layer.shape[:2]
        chunks = -(-w // 16)
        todo = np.repeat(np.frombuffer(over.todo, np.uint8).reshape(h, chunks), 16, axis=1)[:, :w].astype(bool)
        differs = (r._pixels() != over.layer).any(axis=2)
        assert not (differs & ~todo).any(), int((differs & ~todo).sum())
        rows = __import__("render.frame", fromlist=["quantize_rows"]).quantize_rows(
            r.canvas.buffer_rgba(), (w, h), r.theme, over=over)
        r.drawn_over(over)
        assert rows is not None
        return float(todo.mean())


@pytest.mark.skipif(not __import__("explainer.core.pixels", fromlist=["compiled"]).compiled,
                    reason="compiled pixels not built")
@pytest.mark.parametrize(("name", "n", "steps", "theme", "lang"), [
    ("16x16-hard.txt", 16, 40, "default", "en"), ("16x16.txt", 16, 30, "colorblind", "fr"),
    ("25x25.txt", 25, 12, "default", "en")])
def test_a_frame_inks_only_the_chunks_its_renderer_marks(name, n, steps, theme, lang):
    """Every path the renderer's Agg draws, every legend line and word copied in, is marked in
    its ``todo`` map (``FrameRenderer._renderer``, ``pixels.mark``): outside the map each frame
    of real puzzles (both languages, two palettes; 25x25 through widened views) is its layer,
    pixel for pixel, so the lookup may take the layer's indices there unread. The map marks a
    minority of the chunks (it is worth having)."""
    frames = _scenes(_first_line(name), steps, lang=lang)
    r = FrameRenderer(n, THEMES[theme], keep_values=True)
    shares = [_drawn_only_where_marked(r, sc) for sc in frames]
    assert len(shares) > 10 and np.median(shares) < 0.5


@pytest.mark.skipif(not __import__("explainer.core.pixels", fromlist=["compiled"]).compiled,
                    reason="compiled pixels not built")
def test_a_frames_rows_kept_in_the_renderers_buffer_are_its_rows(seed_scenes):
    """The rows are written into the renderer's one buffer, only the chunks the last frame
    changed and this one marks rewritten (``Over.kept``): each frame's rows those of a fresh
    lookup, with the buffer kept from frame to frame for most of them."""
    from render.frame import quantize_rows

    r = FrameRenderer(9, keep_values=True)
    kept = 0
    for sc in seed_scenes:
        with r.rgba(sc) as im:
            over = r.over()
            assert over is not None
            kept += over.kept
            rows = quantize_rows(r.canvas.buffer_rgba(), im.size, r.theme, over=over)
            assert rows is not None and rows is over.out
            assert bytes(rows) == quantize_rows(r.canvas.buffer_rgba(), im.size, r.theme)
            r.drawn_over(over)
    assert kept > len(seed_scenes) // 2


def test_givens_at_least_12_px_on_25x25_at_1024():
    """Every given of a 25×25 frame, plain or through a widened view, is at least LEGIBLE_PX
    high when the frame is shown SHOWN_WIDTH pixels wide (from the layout and the view)."""
    from explainer.model.grid import parse_grid
    from render.frame import Layout, scene_view
    from render.sizes import VALUE_H
    from render.view import LEGIBLE_PX, SHOWN_WIDTH
    from tests.render.test_legibility import _big_positions
    from tests.render.test_roles import _step_of

    layout = Layout(25)
    per_cell = SHOWN_WIDTH / (layout.width_in / layout.cell_in)
    measured = 0
    for kind, (givens, state) in _big_positions():
        if state.geo.n != 25:
            continue
        for sc in step_scenes(state, _step_of(kind, state), number=1, givens=parse_grid(givens).values):
            view = scene_view(sc, layout)
            for s in sc:
                if s.kind == "value":
                    assert VALUE_H * view.scale(s.row, s.col) * per_cell >= LEGIBLE_PX, (kind, s)
                    measured += 1
    assert measured > 1000



@pytest.mark.slow
def test_a_frame_has_the_same_pixels_whatever_the_worker_drew_before():
    """A run's frames are shared among worker processes, so the frame a kept layer comes from
    varies from run to run: a value drawn alone on the layer must have the pixels it has when
    drawn with the other values of its colour (Agg snapped a path of straight strokes alone, F,
    to whole pixels, and not among curved letters: 16x16.txt's frame 310 changed between runs)."""
    from render.plan import plan_frames

    theme = THEMES["colorblind"]
    plan = plan_frames(Puzzle(_first_line("16x16.txt")), theme=theme)
    at = next(i for i, f in enumerate(plan) if f.stem.startswith("310-"))
    full = FrameRenderer(16, theme)
    for every in (1, 2, 3):  # the frames a worker drew before this one: one in `every`
        fast = FrameRenderer(16, theme, keep_values=True)
        for j in range(at - 10, at, every):
            fast.image(plan[j].scene)
        _same(_pixels(fast, plan[at].scene), _pixels(full, plan[at].scene))


def test_a_legend_line_copied_from_the_kept_pixels_is_the_line_drawn(seed_scenes):
    """A legend's lines come back frame after frame: drawn once (on a whole pixel's baseline),
    their pixels kept and copied after (``FrameRenderer._legend``). Each frame of a run, its
    legend lines copied from the kept pixels, has the pixels of the frame drawn by a fresh
    renderer, every line drawn; and the lines were kept once each (fewer than drawn)."""
    kept = FrameRenderer(9, keep_values=True)
    frames = [sc for sc in seed_scenes if sc.text("legend")]
    drawn = 0
    for sc in frames:
        a = _pixels(kept, sc)
        _same(a, _pixels(FrameRenderer(9, keep_values=True), sc))
        drawn += 1
    assert 0 < len(kept._lines) < drawn


def test_the_kept_legend_lines_have_a_budget():
    """The kept lines' pixels stay within ``LINE_CACHE_BYTES``: the oldest go first."""
    import render.frame as frame

    r = FrameRenderer(9, keep_values=True)
    old = frame.LINE_CACHE_BYTES
    frame.LINE_CACHE_BYTES = 200_000
    try:
        for k in range(40):
            run = frame.TextRun([f"legend line number {k} with some words"], 0.15, 1.0, 14.0, "#333333",
                                gid="legend")
            r._prime()
            r._legend(run, r.canvas.get_renderer())
        assert r._line_bytes <= 200_000 and 1 <= len(r._lines) < 40
        assert r._line_bytes == sum(b.nbytes for b, _, _ in r._lines.values())
    finally:
        frame.LINE_CACHE_BYTES = old


def test_a_caption_word_put_back_is_the_word_drawn(seed_scenes):
    """Titles' and captions' words come back from frame to frame: drawn once (pen and baseline
    on whole pixels), the pixels they ink kept and put back after (``FrameRenderer._words``).
    Each frame of a run has the pixels of the frame drawn by a fresh renderer, every word
    drawn; words were put back (fewer kept than drawn), in both languages."""
    for lang, frames in (("en", seed_scenes[::4]), ("fr", _scenes(SEED, 12, lang="fr")[::3])):
        warm = FrameRenderer(9, keep_values=True)
        words = 0
        for sc in frames:
            _same(_pixels(warm, sc), _pixels(FrameRenderer(9, keep_values=True), sc))
            words += sum(len(sc.text(k).split()) for k in ("title", "caption"))
        assert 0 < len(warm._word_pixels) < words / 2, lang


def _ink(r: FrameRenderer, draw) -> np.ndarray:
    """How dark each pixel of the canvas is after ``draw`` on the blank figure."""
    r._prime()
    draw(r.canvas.get_renderer())
    return 255 - np.asarray(r.canvas.buffer_rgba())[:, :, :3].min(axis=2).astype(int)


@pytest.mark.parametrize(("ha", "size"), [("left", 13.0), ("center", 20.0), ("left", 8.0)])
def test_words_sit_where_their_line_puts_them(ha, size):
    """A run drawn word by word (``_words``: each word's pen on a whole pixel) inks what the
    whole line drawn at once does (``text_patch``), each word moved by half a pixel at most:
    the same box of ink within a pixel, the same ink within 2 %."""
    import render.frame as frame

    run = frame.TextRun(["Forcing chain: if r4c7 is 5 then r4c8 is 3, else r2c2 is 9;", "the 5s of box 6 go."],
                        0.15 if ha == "left" else 4.0, 2.0, size, "#222222", ha=ha, gid="caption")
    r = FrameRenderer(9)
    words = _ink(r, lambda rd: r._words(run, rd))
    whole = _ink(r, lambda rd: run.patch(r.fig, r.pool).draw(rd))
    for axis in (0, 1):
        a, b = np.flatnonzero(words.any(axis=axis)), np.flatnonzero(whole.any(axis=axis))
        assert abs(a[0] - b[0]) <= 1 and abs(a[-1] - b[-1]) <= 1, (axis, a[[0, -1]], b[[0, -1]])
    assert abs(words.sum() - whole.sum()) <= 0.02 * whole.sum()


def test_a_word_past_the_edge_is_drawn_not_kept():
    """A word crossing the canvas's edge is drawn (what fits of it) and not kept; one inside is."""
    import render.frame as frame

    r = FrameRenderer(9)
    w = r.canvas.get_width_height(physical=True)[0]
    run = frame.TextRun(["in overflowing"], (w - 60) / r.fig.dpi, 1.0, 14.0, "#222222", gid="caption")
    ink = _ink(r, lambda rd: r._words(run, rd))
    assert ink[:, -4:].any() and ink[:, w - 60:w - 40].any()  # both words drawn, the second up to the edge
    assert [k[0] for k in r._word_pixels] == ["in"]


def test_the_kept_words_have_a_budget():
    """The kept words' pixels stay within ``WORD_CACHE_BYTES``: the oldest go first."""
    import render.frame as frame

    r = FrameRenderer(9, keep_values=True)
    old = frame.WORD_CACHE_BYTES
    frame.WORD_CACHE_BYTES = 60_000
    try:
        r._prime()
        for k in range(40):
            run = frame.TextRun([f"word{k} and{k}"], 0.15, 1.0, 14.0, "#333333", gid="caption")
            r._words(run, r.canvas.get_renderer())
        assert r._word_bytes <= 60_000 and 1 <= len(r._word_pixels) < 80
        assert r._word_bytes == sum(len(b) for b, _, _, _, _ in r._word_pixels.values())
    finally:
        frame.WORD_CACHE_BYTES = old


def test_a_word_over_something_is_drawn_and_not_kept():
    """A word whose box is not all one ground (something drawn there) is drawn by Agg, not put
    back, and not kept: the pixels of a renderer that never kept it."""
    import render.frame as frame

    def over_grey(r: FrameRenderer, x_in: float) -> np.ndarray:
        r._prime()
        buf = np.asarray(r.canvas.buffer_rgba())
        h = buf.shape[0]
        px, base = round(x_in * r.fig.dpi), round(h - 1.0 * r.fig.dpi)
        buf[base - 8:base + 3, px + 5:px + 30] = (200, 200, 200, 255)  # under the word's middle
        r._words(frame.TextRun(["word"], x_in, 1.0, 14.0, "#222222", gid="caption"), r.canvas.get_renderer())
        return np.asarray(r.canvas.buffer_rgba()).copy()

    warm = FrameRenderer(9)
    warm._prime()
    warm._words(frame.TextRun(["word"], 0.5, 1.0, 14.0, "#222222", gid="caption"), warm.canvas.get_renderer())
    assert [k[0] for k in warm._word_pixels] == ["word"]  # kept, drawn on the plain ground
    cold = FrameRenderer(9)
    assert (over_grey(warm, 3.0) == over_grey(cold, 3.0)).all()
    assert not cold._word_pixels  # drawn over the grey: not kept


def test_a_value_put_back_is_the_value_drawn():
    """A value the kept layer lacks is drawn once, its pixels kept and put back in the frames
    after (``FrameRenderer._paste_values``: a proof's parts share one grid and so the same few
    values): each frame has the pixels of a fresh renderer's full draw, and values were put
    back (not drawn) in most of them."""
    from render.plan import plan_frames

    plan = plan_frames(Puzzle(_first_line("16x16.txt")))
    at = next(i for i, f in enumerate(plan) if f.suffix)  # a step with proof parts
    fast, full = FrameRenderer(16, keep_values=True), FrameRenderer(16)
    pasted = []
    paste = fast._paste_values

    def counted(values):
        left = paste(values)
        pasted.append(len(values) - len(left))
        return left

    fast._paste_values = counted
    for f in plan[:at + 6]:  # singles placing a value each, a step with no value, a proof's parts
        sc = f.scene
        _same(_pixels(fast, sc), _pixels(full, sc))
    assert sum(1 for k in pasted if k) >= 5, pasted
    assert fast._value_pixels and not full._value_pixels


def test_a_value_is_put_back_only_on_its_ground_and_renderer():
    """A kept value whose box is no longer its plain ground (something drawn there), or kept on
    another Agg renderer (the figure made again), is not put back: returned to be drawn, the
    canvas untouched."""
    from render.shapes import Shape

    r = FrameRenderer(9, keep_values=True)
    r._prime()
    value = Shape("earlier", "value", 4, 4, 7, colour="earlier")
    boxes = r._value_boxes([value])
    assert len(boxes) == 1
    r0, r1, c0, c1 = boxes[0][1]
    r._put(r._background)
    r._keep_values(boxes)  # the plain ground kept as the value's pixels: enough to tell a paste
    buf = np.asarray(r.canvas.buffer_rgba())
    buf[(r0 + r1) // 2, (c0 + c1) // 2] = (1, 2, 3, 255)
    before = buf.copy()
    assert r._paste_values([value]) == [value]
    assert (np.asarray(r.canvas.buffer_rgba()) == before).all()
    buf[...] = r._background
    assert r._paste_values([value]) == []  # on its ground again: put back
    r._value_pixels_on = object()
    assert r._paste_values([value]) == [value]


def test_the_kept_values_have_a_budget():
    import render.frame as frame
    from render.shapes import Shape

    old = frame.VALUE_CACHE_BYTES
    frame.VALUE_CACHE_BYTES = 20_000
    try:
        r = FrameRenderer(9, keep_values=True)
        r._prime()
        values = [Shape("earlier", "value", row, col, 1 + (row + col) % 9, colour="earlier")
                  for row in range(9) for col in range(9)]
        r._keep_values(r._value_boxes(values))
        assert r._value_bytes <= 20_000 and 1 <= len(r._value_pixels) < 81
        assert r._value_bytes == sum(len(b) for b, _, _, _, _ in r._value_pixels.values())
    finally:
        frame.VALUE_CACHE_BYTES = old
