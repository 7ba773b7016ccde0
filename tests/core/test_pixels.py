"""explainer/core/pixels.py: the compiled palette lookup (_pixels.c) returns the pure twin's
bytes; the table (render.frame.palette_table) gives Pillow's own indices for every colour."""
from __future__ import annotations

import numpy as np
import pytest
from PIL import Image

from explainer.core import pixels
from render.frame import THUMB_STEPS, palette_table, quantize_image, quantize_rows, rows_image
from render.theme import THEMES

compiled = pytest.mark.skipif(pixels._C is None, reason="compiled pixels not built (or pure path forced)")


def _runs(w: int, h: int, stride: int, seed: int) -> bytes:
    """An RGBA buffer of runs of a few colours and some noise, rows ``stride`` bytes apart."""
    rng = np.random.default_rng(seed)
    colours = rng.integers(0, 256, size=(6, 4), dtype=np.uint8)
    px = colours[rng.integers(0, 6, size=(h, w // 8 + 1)).repeat(8, axis=1)[:, :w]]
    px[h // 2:, ::7] = rng.integers(0, 256, size=px[h // 2:, ::7].shape, dtype=np.uint8)
    buf = np.zeros((h, stride), np.uint8)
    buf[:, :4 * w] = px.reshape(h, 4 * w)
    return buf.tobytes()


@compiled
@pytest.mark.parametrize("filtered", [False, True])
@pytest.mark.parametrize(("w", "h", "stride"), [(37, 11, 148), (37, 11, 160), (1, 1, 4), (0, 3, 0), (64, 0, 256)])
def test_compiled_is_the_pure_twin(w, h, stride, filtered):
    lut = bytes(np.random.default_rng(w + h).integers(0, 256, pixels.LUT_SIZE, dtype=np.uint8))
    src = _runs(max(w, 1), h, stride or 4, seed=w * h + stride)
    assert pixels._C.quantize(src, w, h, stride, lut, filtered) == pixels.quantize_py(src, w, h, stride, lut, filtered)


@compiled
def test_the_fourth_byte_is_not_read():
    """Runs of one colour whose fourth byte changes (the four-pixels-at-once path compares
    whole pixels, the lookup only their RGB): the indices of the colour alone."""
    rng = np.random.default_rng(5)
    px = np.zeros((3, 40, 4), np.uint8)
    px[:, :, :3] = (12, 200, 77)
    px[:, 20:, :3] = (13, 201, 78)
    px[:, :, 3] = rng.integers(0, 256, size=(3, 40))
    px[1, :, 3] = 255
    lut = bytes(np.random.default_rng(6).integers(0, 256, pixels.LUT_SIZE, dtype=np.uint8))
    got = pixels._C.quantize(px.tobytes(), 40, 3, 160, lut, False)
    assert got == pixels.quantize_py(px.tobytes(), 40, 3, 160, lut, False)
    plain = px.copy()
    plain[:, :, 3] = 0
    assert got == pixels._C.quantize(plain.tobytes(), 40, 3, 160, lut, False)


@compiled
@pytest.mark.parametrize("first", [(255, 255, 255, 255), (0, 0, 0, 0), (9, 9, 9, 255)])
@pytest.mark.parametrize("w", [16, 50, 131])
def test_long_runs_of_any_colour_are_the_pure_twin(first, w):
    """Runs of 16 to 80 pixels (the sixteen-at-once path), the first of them white, black or
    grey with every byte alike (no colour is taken for already looked up before it is), runs
    going on from one row to the next, a random table: the pure twin's indices."""
    rng = np.random.default_rng(w)
    colours = np.concatenate([np.array([first], np.uint8), rng.integers(0, 256, size=(4, 4), dtype=np.uint8)])
    lengths = rng.integers(16, 81, size=200)
    which = np.concatenate([[0], rng.integers(0, 5, size=199)])
    px = colours[np.repeat(which, lengths)][:w * 9].reshape(9, w, 4)
    px[5, 3] = (1, 2, 3, 255)  # one odd pixel in a run
    lut = bytes(rng.integers(1, 256, pixels.LUT_SIZE, dtype=np.uint8))  # no index 0: a missed lookup shows
    src = px.tobytes()
    for filtered in (False, True):
        want = pixels.quantize_py(src, w, 9, 4 * w, lut, filtered)
        assert pixels._C.quantize(src, w, 9, 4 * w, lut, filtered) == want


def _over(w: int, h: int, stride: int, seed: int) -> tuple[bytes, bytes]:
    """A layer of long runs and a frame drawn over it: a few blocks changed (one of them by
    its fourth byte alone), the rest the layer's bytes; rows ``stride`` bytes apart."""
    rng = np.random.default_rng(seed)
    colours = rng.integers(0, 256, size=(3, 4), dtype=np.uint8)
    layer = np.zeros((h, stride), np.uint8)
    px = colours[rng.integers(0, 3, size=(h, w // 24 + 1)).repeat(24, axis=1)[:, :w]]
    layer[:, :4 * w] = px.reshape(h, 4 * w)
    frame = layer.copy()
    for _ in range(6):
        y, x = int(rng.integers(0, h)), int(rng.integers(0, w))
        frame[y:y + 3, 4 * x:4 * x + 4 * int(rng.integers(1, 20))] = rng.integers(0, 256, dtype=np.uint8)
    frame[h // 2, 3] ^= 1  # the first pixel's fourth byte alone
    frame[:, 4 * w:] = 7  # the rows' padding is not looked at
    return frame.tobytes(), layer.tobytes()


@compiled
@pytest.mark.parametrize("filtered", [False, True])
@pytest.mark.parametrize(("w", "h", "stride"), [(37, 11, 148), (64, 9, 260), (100, 20, 400), (5, 3, 20)])
def test_rows_over_a_layer_are_the_rows_and_mark_where_it_differs(w, h, stride, filtered):
    """Looked up over a layer (its rows given): the same rows as alone, and the dirty map the
    pure twin finds (a chunk of 16 pixels, the last one partial, marked where any byte of a
    pixel differs); the dirty chunks put back make the frame the layer again."""
    frame, layer = _over(w, h, stride, seed=w + h)
    lut = bytes(np.random.default_rng(w).integers(0, 256, pixels.LUT_SIZE, dtype=np.uint8))
    layer_rows = pixels._C.quantize(layer, w, h, stride, lut, filtered)
    chunks = -(-w // pixels.CHUNK)
    dirty, twin = bytearray(b"\x09" * chunks * h), bytearray(chunks * h)
    got = pixels._C.quantize(frame, w, h, stride, lut, filtered, layer, layer_rows, dirty)
    assert got == pixels.quantize_py(frame, w, h, stride, lut, filtered)
    assert got == pixels.quantize_py(frame, w, h, stride, lut, filtered, layer, layer_rows, twin)
    assert dirty == twin and sum(dirty) > 0
    assert w < 16 or sum(dirty) < len(dirty)  # clean chunks too
    back, back_py = bytearray(frame), bytearray(frame)
    pixels._C.restore(back, layer, w, h, stride, dirty)
    pixels.restore_py(back_py, layer, w, h, stride, dirty)
    assert back == back_py
    drawn = np.frombuffer(back, np.uint8).reshape(h, stride)
    assert (drawn[:, :4 * w] == np.frombuffer(layer, np.uint8).reshape(h, stride)[:, :4 * w]).all()


@compiled
@pytest.mark.parametrize(("w", "h", "stride", "tile"), [(150, 60, 600, (50, 18, 54)), (151, 61, 620, (75, 30, 61)),
                                                       (203, 47, 812, (40, 9, 47)), (99, 70, 400, (24, 20, 69))])
def test_one_pass_over_a_layer_gives_the_same_rows_tile_and_map(w, h, stride, tile):
    """``quantize_tile`` over a layer, with and without the layer's reduction (``reduce``; by
    2, 3, 5 and 4, odd sizes: partial blocks): its rows, tile and dirty map those of ``quantize``
    over it and of the pass alone."""
    from render.sheet import _compiled_plan

    frame, layer = _over(w, h, stride, seed=w)
    lut = bytes(np.random.default_rng(4).integers(0, 256, pixels.LUT_SIZE, dtype=np.uint8))
    k, plan = _compiled_plan(w, tile)
    layer_rows = pixels._C.quantize(layer, w, h, stride, lut, True)
    red = pixels._C.reduce(layer, w, stride, k, tile[2])
    one, two, three = (bytearray(-(-w // 16) * h) for _ in range(3))
    alone = pixels._C.quantize_tile(frame, w, h, stride, lut, True, k, tile[2], *plan, tile[0], tile[1])
    over = pixels._C.quantize_tile(frame, w, h, stride, lut, True, k, tile[2], *plan, tile[0], tile[1],
                                   layer, layer_rows, one)
    reduced = pixels._C.quantize_tile(frame, w, h, stride, lut, True, k, tile[2], *plan, tile[0], tile[1],
                                      layer, layer_rows, three, red)
    assert over == alone and reduced == alone
    assert pixels._C.quantize(frame, w, h, stride, lut, True, layer, layer_rows, two) == alone[0]
    assert one == two == three
    # the layer's reduction is the tile's own: a frame that is its layer has the layer's tile
    same = pixels._C.quantize_tile(layer, w, h, stride, lut, True, k, tile[2], *plan, tile[0], tile[1],
                                   layer, layer_rows, bytearray(len(one)), red)
    assert same == pixels._C.quantize_tile(layer, w, h, stride, lut, True, k, tile[2], *plan, tile[0], tile[1])


@compiled
@pytest.mark.parametrize(("w", "h", "stride", "tile"), [(150, 60, 600, (50, 18, 54)), (151, 61, 620, (75, 30, 61)),
                                                       (203, 47, 812, (40, 9, 47)), (99, 70, 400, (24, 20, 69))])
def test_the_pass_that_restores_leaves_the_layer_and_the_same_rows_and_tile(w, h, stride, tile):
    """``restore``: the rows, tile and dirty map of the pass without it (also with the layer's
    reduction, pass and tile, as the frames use it, and in ``quantize`` alone, and its pure
    twin), and the frame's memory is the layer's again (its rows' padding untouched)."""
    from render.sheet import _compiled_plan

    frame, layer = _over(w, h, stride, seed=w + 1)
    lut = bytes(np.random.default_rng(5).integers(0, 256, pixels.LUT_SIZE, dtype=np.uint8))
    k, plan = _compiled_plan(w, tile)
    layer_rows = pixels._C.quantize(layer, w, h, stride, lut, True)
    red = pixels._C.reduce(layer, w, stride, k, tile[2])
    yb = np.frombuffer(plan[3], np.int32)
    first, last = int(yb[0]), int(yb[2 * (tile[1] - 1)] + yb[2 * (tile[1] - 1) + 1])
    passed = bytearray((last - first) * 3 * tile[0])
    layer_tile = pixels._C.tile(layer, w, stride, k, tile[2], *plan, tile[0], tile[1], lut, passed)
    chunks = -(-w // pixels.CHUNK)
    want_map = bytearray(chunks * h)
    want = pixels._C.quantize_tile(frame, w, h, stride, lut, True, k, tile[2], *plan, tile[0], tile[1],
                                   layer, layer_rows, want_map, red)
    plain = np.frombuffer(layer, np.uint8).reshape(h, stride)
    padding = np.frombuffer(frame, np.uint8).reshape(h, stride)[:, 4 * w:]

    def restored(buf: bytearray) -> bool:
        got = np.frombuffer(buf, np.uint8).reshape(h, stride)
        return bool((got[:, :4 * w] == plain[:, :4 * w]).all() and (got[:, 4 * w:] == padding).all())

    for extra in [(red,), (red, None, None, False, passed, layer_tile), ()]:
        canvas, dirty = bytearray(frame), bytearray(chunks * h)
        rest = extra + (None,) * (6 - len(extra))
        got = pixels._C.quantize_tile(canvas, w, h, stride, lut, True, k, tile[2], *plan, tile[0], tile[1],
                                      layer, layer_rows, dirty, *rest, True)
        assert got == want and dirty == want_map and restored(canvas), len(extra)
    canvas, twin_canvas = bytearray(frame), bytearray(frame)
    dirty, twin_map = bytearray(chunks * h), bytearray(chunks * h)
    rows = pixels._C.quantize(canvas, w, h, stride, lut, True, layer, layer_rows, dirty, None, None, False, True)
    assert rows == want[0] and dirty == want_map and restored(canvas)
    assert pixels.quantize_py(twin_canvas, w, h, stride, lut, True, layer, layer_rows, twin_map, restore=True) == rows
    assert twin_map == dirty and restored(twin_canvas)
    with pytest.raises(TypeError, match="writable"):
        pixels._C.quantize(frame, w, h, stride, lut, True, layer, layer_rows, dirty, None, None, False, True)
    with pytest.raises(TypeError, match="restore without a layer"):
        pixels._C.quantize(bytearray(frame), w, h, stride, lut, True, None, None, None, None, None, False, True)
    with pytest.raises(TypeError, match="restore without a layer"):
        pixels.quantize_py(bytearray(frame), w, h, stride, lut, True, restore=True)


def _small_tile_case() -> tuple:
    """A 150 x 60 frame over its layer, a tile of it (reduced by 3), the layer's rows and
    reduction: the arguments the refusals below start from."""
    from render.sheet import _compiled_plan

    w, h, stride, tile = 150, 60, 600, (50, 18, 54)
    frame, layer = _over(w, h, stride, seed=3)
    lut = bytes(pixels.LUT_SIZE)
    k, plan = _compiled_plan(w, tile)
    rows = pixels._C.quantize(layer, w, h, stride, lut, True)
    red = pixels._C.reduce(layer, w, stride, k, tile[2])
    return w, h, stride, tile, frame, layer, lut, k, plan, rows, red


@compiled
def test_a_layers_reduction_needs_its_layer_and_its_size():
    w, h, stride, tile, frame, layer, lut, k, plan, rows, red = _small_tile_case()
    with pytest.raises(TypeError, match="without the layer"):
        pixels._C.quantize_tile(frame, w, h, stride, lut, True, k, tile[2], *plan, *tile[:2], None, None, None, red)
    with pytest.raises(ValueError, match="does not fit"):
        pixels._C.quantize_tile(frame, w, h, stride, lut, True, k, tile[2], *plan, *tile[:2], layer, rows,
                                bytearray(-(-w // 16) * h), red[:-4])
    with pytest.raises(ValueError, match="does not fit"):
        pixels._C.reduce(layer, w, stride, 17, tile[2])


@compiled
def test_a_layer_is_given_whole_or_not_at_all():
    frame, layer = _over(40, 4, 160, seed=1)
    lut = bytes(pixels.LUT_SIZE)
    rows = pixels._C.quantize(layer, 40, 4, 160, lut, True)
    with pytest.raises(TypeError, match="all three or none"):
        pixels._C.quantize(frame, 40, 4, 160, lut, True, layer, rows)
    with pytest.raises(TypeError, match="all three or none"):
        pixels.quantize_py(frame, 40, 4, 160, lut, True, layer, None, bytearray(12))
    for bad in (dict(rows=rows[:-1]), dict(dirty=bytearray(11)), dict(layer=layer[:200])):
        args = dict(layer=layer, rows=rows, dirty=bytearray(12)) | bad
        with pytest.raises(ValueError, match="do not fit"):
            pixels._C.quantize(frame, 40, 4, 160, lut, True, args["layer"], args["rows"], args["dirty"])
    with pytest.raises(BufferError):
        pixels._C.quantize(frame, 40, 4, 160, lut, True, layer, rows, bytes(12))  # the map is written
    with pytest.raises(ValueError, match="do not fit"):
        pixels._C.restore(bytearray(frame), layer, 40, 4, 160, bytearray(11))
    with pytest.raises(ValueError, match="do not fit"):
        pixels.restore_py(bytearray(frame), layer, 40, 4, 160, bytearray(11))


@compiled
def test_compiled_refuses_a_short_source_or_table():
    with pytest.raises(ValueError):
        pixels._C.quantize(bytes(4 * 10), 10, 2, 40, bytes(pixels.LUT_SIZE), False)
    with pytest.raises(ValueError):
        pixels._C.quantize(bytes(40), 10, 1, 40, bytes(10), False)


@pytest.mark.parametrize("steps", [None, THUMB_STEPS])
@pytest.mark.parametrize("name", ["default", "colorblind", "high-contrast"])
def test_the_table_is_pillows_lookup(name, steps):
    """Pillow's indices for random colours and for every slot's corners and far corners."""
    theme = THEMES[name]
    rng = np.random.default_rng(3)
    k = np.arange(1 << 18, dtype=np.uint32)
    corner = np.stack([(k & 63) << 2, (k >> 6 & 63) << 2, (k >> 12) << 2], axis=1)
    px = np.concatenate([rng.integers(0, 256, size=(1 << 18, 3)), corner + 3, corner]).astype(np.uint8)
    rgbx = np.concatenate([px, np.full((len(px), 1), 255, np.uint8)], axis=1)
    size = (512, len(px) // 512)
    pillow = quantize_image(Image.frombytes("RGBX", size, rgbx.tobytes()), theme, steps).tobytes()
    ours = pixels.quantize_py(rgbx.tobytes(), len(px), 1, 4 * len(px), palette_table(theme, steps), False)
    assert ours == pillow


def test_rows_and_their_image_are_quantize_image():
    from render.frame import DEFAULT_THEME, FrameRenderer
    from render.scene import Scene

    r = FrameRenderer(4, DEFAULT_THEME)
    with r.rgba(Scene(4, [])) as im:
        want = quantize_image(im, DEFAULT_THEME)
        rows = quantize_rows(r.canvas.buffer_rgba(), im.size, DEFAULT_THEME)
    if rows is None:
        assert pixels._C is None
        return
    got = rows_image(rows, want.size, DEFAULT_THEME)
    assert got.tobytes() == want.tobytes() and got.getpalette() == want.getpalette()


# ---- the contact sheet's tile: Pillow's reduce and BOX resize in one compiled call -------------

def _tile_args(src: bytes, w: int, rows: int, out_w: int, out_h: int, k: int = 2) -> tuple:
    return (src, w, 4 * w, k, rows, *pixels.box_plan((w + k - 1) // k, 0.0, w / k, out_w),
            *pixels.box_plan((rows + k - 1) // k, 0.0, rows / k, out_h), out_w, out_h)


def _pillows(args: tuple) -> bytes:
    """Pillow's own tile for ``_tile_args``'s arguments (render.sheet.pillow_tile)."""
    from render.sheet import pillow_tile

    src, w, stride, k, rows, *_plan, out_w, out_h = args
    return pillow_tile(src, w, stride, k, rows, out_w, out_h)


@compiled
@pytest.mark.parametrize(("w", "h", "rows", "out_w", "out_h", "k"), [
    (788, 1016, 817, 353, 366, 2),  # a 9x9 frame and its tile
    (1432, 1829, 1476, 495, 510, 2),  # 16x16
    (2585, 3273, 2644, 499, 510, 5),  # 25x25
    (789, 900, 817, 353, 366, 2),  # an odd width: the last column's blocks are one pixel wide
    (33, 40, 31, 10, 9, 3), (64, 64, 64, 16, 16, 4), (101, 90, 77, 14, 10, 7), (3, 3, 3, 1, 1, 2),
    (130, 121, 119, 40, 37, 3), (203, 199, 197, 50, 49, 4),
    (200, 200, 200, 30, 29, 2), (401, 300, 299, 37, 23, 2)])  # runs of 3 to 7: weights not powers of two
def test_the_compiled_tile_is_pillows(w, h, rows, out_w, out_h, k):
    rng = np.random.default_rng(w * rows)
    src = rng.integers(0, 256, (h, w, 4), dtype=np.uint8).tobytes()
    args = _tile_args(src, w, rows, out_w, out_h, k)
    assert pixels._C.tile(*args) == _pillows(args)


@compiled
@pytest.mark.parametrize("theme", ["default", "colorblind"])
def test_the_compiled_tile_of_real_frames_is_pillows(theme):
    """Frames of the seed drawn on the canvas (long runs, antialiased edges): the same tile."""
    from explainer import Puzzle
    from render.frame import FrameRenderer
    from render.plan import plan_frames

    r = FrameRenderer(9, THEMES[theme], keep_values=True)
    for frame in plan_frames(Puzzle("9..3....41...2...5..2...3.12..6.9..36.9.5.............48.9...7........4....81....")
                             )[15:22]:
        with r.rgba(frame.scene) as im:
            w, h = im.size
            args = _tile_args(r.canvas.buffer_rgba(), w, h - 199, 353, 366)
            assert pixels._C.tile(*args) == _pillows(args)


def _weighted(src: bytes, w: int, k: int, rows: int, bounds: tuple, weights: tuple, sizes: tuple,
              out: tuple[int, int]) -> bytes:
    """The tile by its definition (numpy): the frame reduced by ``k`` (Pillow's rounding, whole
    blocks only: the sizes used divide), then each axis in turn: 2^21 + the sum of pixel x
    weight over the pixel's run, >> 22, clipped."""
    h = len(src) // (4 * w)
    a = np.frombuffer(src, np.uint8).reshape(h, w, 4)[:rows, :, :3].astype(np.int64)
    red = (a.reshape(rows // k, k, w // k, k, 3).sum(axis=(1, 3)) + k * k // 2) // (k * k)
    for axis, (b, wt, ks, n) in enumerate(zip(bounds, weights, sizes, out, strict=True)):
        b = np.frombuffer(b, np.int32).reshape(-1, 2)
        wt = np.frombuffer(wt, np.int32).reshape(-1, ks)
        line = np.moveaxis(red, 1 - axis, 0)  # axis 0: x (the horizontal pass first)
        done = np.empty((n,) + line.shape[1:], np.int64)
        for i in range(n):
            first, count = b[i]
            s = (1 << 21) + np.tensordot(wt[i, :count], line[first:first + count], axes=1)
            done[i] = np.clip(s >> 22, 0, 255)
        red = np.moveaxis(done, 0, 1 - axis)
    return red.astype(np.uint8).tobytes()


@compiled
def test_a_tile_of_unequal_weights_is_the_weighted_sum():
    """Weights that differ within a pixel's run (no BOX plan makes them: the general pass, not
    the run-sum shortcut), negative ones and zeros among them: the definition's numbers."""
    rng = np.random.default_rng(11)
    w, rows, ow, oh, k = 64, 48, 20, 15, 2
    src = rng.integers(0, 256, (rows, w, 4), dtype=np.uint8).tobytes()
    plans = []
    for n_in, n_out in ((w // k, ow), (rows // k, oh)):
        bounds, weights = [], []
        for i in range(n_out):
            first = min(n_in - 3, i * n_in // n_out)
            ws = rng.integers(-(1 << 19), 1 << 21, 3)
            ws[rng.integers(0, 3)] = 0
            bounds += [first, 3]
            weights += list(ws)
        plans.append((np.array(bounds, np.int32).tobytes(), np.array(weights, np.int32).tobytes(), 3))
    (xb, xw, xk), (yb, yw, yk) = plans
    got = pixels._C.tile(src, w, 4 * w, k, rows, xb, xw, xk, yb, yw, yk, ow, oh)
    assert got == _weighted(src, w, k, rows, (xb, yb), (xw, yw), (xk, yk), (ow, oh))


@compiled
@pytest.mark.parametrize("theme", ["default", "high-contrast"])
def test_the_tiles_indices_are_those_quantize_image_finds(theme):
    """With the palette's table, ``tile`` gives the tile's palette indices: those Pillow's
    quantisation finds for its RGB tile (every slot's colours reached: random frames)."""
    from PIL import Image

    from render.frame import palette_table, quantize_image

    rng = np.random.default_rng(3)
    for w, h, rows, out_w, out_h, k in ((788, 1016, 817, 353, 366, 2), (130, 121, 119, 40, 37, 3)):
        src = rng.integers(0, 256, (h, w, 4), dtype=np.uint8).tobytes()
        args = _tile_args(src, w, rows, out_w, out_h, k)
        rgb = pixels._C.tile(*args)
        got = pixels._C.tile(*args, palette_table(THEMES[theme]))
        assert got == quantize_image(Image.frombytes("RGB", (out_w, out_h), rgb), THEMES[theme]).tobytes()
    with pytest.raises(ValueError, match="2\\^18"):
        pixels._C.tile(*args, b"\0" * 100)


@compiled
@pytest.mark.parametrize(("w", "h", "rows", "out_w", "out_h", "k"), [
    (788, 1016, 817, 353, 366, 2), (789, 900, 817, 353, 366, 2), (130, 121, 119, 40, 37, 3),
    (203, 199, 197, 50, 49, 4), (101, 90, 90, 14, 10, 7), (3, 3, 3, 1, 1, 2), (200, 200, 200, 30, 29, 2)])
def test_one_pass_gives_the_rows_and_the_tile_of_two(w, h, rows, out_w, out_h, k):
    """``quantize_tile``: ``quantize``'s rows and ``tile``'s indices, the same bytes, every tile
    row made as its frame rows come (odd sizes, partial blocks, all the rows or fewer)."""
    from render.frame import palette_table

    lut = palette_table(THEMES["default"])
    rng = np.random.default_rng(w + 7 * rows)
    src = rng.integers(0, 256, (h, w, 4), dtype=np.uint8)
    src[h // 3: h // 2] = src[h // 3, 0]  # long runs of one colour as well
    args = _tile_args(src.tobytes(), w, rows, out_w, out_h, k)
    for filtered in (True, False):
        rows_bytes, indices = pixels._C.quantize_tile(args[0], w, h, 4 * w, lut, filtered, k, rows, *args[5:])
        assert rows_bytes == pixels._C.quantize(args[0], w, h, 4 * w, lut, filtered)
        assert indices == pixels._C.tile(*args, lut)


@compiled
def test_one_pass_refuses_what_either_refuses():
    from render.frame import palette_table

    lut = palette_table(THEMES["default"])
    src = bytes(4 * 20 * 20)
    good = _tile_args(src, 20, 20, 8, 8)
    assert len(pixels._C.quantize_tile(src, 20, 20, 80, lut, True, 2, 20, *good[5:])[1]) == 64
    with pytest.raises(ValueError, match="do not fit"):
        pixels._C.quantize_tile(src, 20, 19, 80, lut, True, 2, 20, *good[5:])  # tile rows beyond the frame
    with pytest.raises(ValueError, match="2\\^18"):
        pixels._C.quantize_tile(src, 20, 20, 80, lut[:-1], True, 2, 20, *good[5:])
    with pytest.raises(ValueError, match="smaller than its size"):
        pixels._C.quantize_tile(src, 20, 21, 80, lut, True, 2, 20, *good[5:])


@compiled
def test_a_tile_whose_plan_does_not_fit_the_frame_is_refused():
    src = bytes(4 * 20 * 20)
    good = _tile_args(src, 20, 20, 8, 8)
    assert len(pixels._C.tile(*good)) == 8 * 8 * 3
    with pytest.raises(ValueError, match="do not fit"):
        pixels._C.tile(src, 20, 80, 2, 40, *good[5:])  # more rows than the frame has
    with pytest.raises(ValueError, match="do not fit"):
        pixels._C.tile(*good[:5], *pixels.box_plan(30, 0.0, 30.0, 8), *good[8:])  # columns beyond the frame
    with pytest.raises(ValueError, match="do not fit"):
        pixels._C.tile(src, 20, 80, 1, *good[4:])  # no reduction
    with pytest.raises(ValueError, match="do not fit"):
        pixels._C.tile(src, 20, 80, 17, *good[4:])  # beyond 16: a column's sums would not fit 16 bits


def test_the_box_plan_is_pillows_on_an_image():
    """The bounds and weights ``box_plan`` works out resize a line as Pillow's BOX resize does."""
    rng = np.random.default_rng(7)
    for n_in, n_out, end in ((394, 353, 394.0), (409, 366, 408.5), (716, 495, 716.0), (17, 5, 16.5)):
        line = rng.integers(0, 256, n_in, dtype=np.uint8)
        bounds, weights, k = pixels.box_plan(n_in, 0.0, end, n_out)
        b = np.frombuffer(bounds, np.int32).reshape(-1, 2)
        wt = np.frombuffer(weights, np.int32).reshape(-1, k)
        ours = [min(255, max(0, (int(np.dot(line[x0:x0 + c].astype(np.int64), wt[i, :c])) + (1 << 21)) >> 22))
                for i, (x0, c) in enumerate(b)]
        want = Image.frombytes("L", (n_in, 1), line.tobytes()).resize((n_out, 1), Image.Resampling.BOX,
                                                                        box=(0.0, 0.0, end, 1.0))
        assert bytes(ours) == want.tobytes()


@compiled
@pytest.mark.parametrize(("x", "y", "bw", "bh"), [(0, 0, 5, 3), (7, 2, 9, 4), (31, 6, 1, 1), (0, 9, 32, 1)])
def test_paste_puts_a_block_only_on_its_plain_ground(x, y, bw, bh):
    """``paste``: the block put into the buffer at (x, y) when every pixel it covers is the
    ground (True), nothing written else (False: one pixel of another colour, or one byte of
    it); the pure twin's bytes and answers; a block past the buffer's edge refused."""
    rng = np.random.default_rng(x + y)
    w, h, stride = 32, 10, 140
    ground = bytes([250, 251, 252, 255])
    plain = np.frombuffer(ground * (stride // 4) * h, np.uint8).copy()
    plain[np.arange(len(plain)) % stride >= 4 * w] = 9  # the rows' padding
    block = rng.integers(0, 256, 4 * bw * bh, dtype=np.uint8).tobytes()
    a, b = bytearray(plain.tobytes()), bytearray(plain.tobytes())
    assert pixels._C.paste(a, w, h, stride, x, y, block, bw, ground) is True
    assert pixels.paste_py(b, w, h, stride, x, y, block, bw, ground) is True
    assert a == b
    got = np.frombuffer(a, np.uint8).reshape(h, stride)
    want = plain.reshape(h, stride).copy()
    want[y:y + bh, 4 * x:4 * (x + bw)] = np.frombuffer(block, np.uint8).reshape(bh, 4 * bw)
    assert (got == want).all()
    for byte in (0, 3):  # one pixel under the block not the ground, by its first or its fourth byte
        dirty = plain.copy()
        dirty[(y + bh - 1) * stride + 4 * (x + bw - 1) + byte] ^= 1
        for f in (pixels._C.paste, pixels.paste_py):
            c = bytearray(dirty.tobytes())
            assert f(c, w, h, stride, x, y, block, bw, ground) is False and c == bytearray(dirty.tobytes())
    for f in (pixels._C.paste, pixels.paste_py):
        with pytest.raises(ValueError, match="does not fit"):
            f(bytearray(plain.tobytes()), w, h, stride, w - bw + 1, y, block, bw, ground)


def _todo_over(w: int, h: int, stride: int, seed: int) -> tuple[bytes, bytes, bytearray, bytes]:
    """``_over``'s frame and layer, a map of chunks to look up marking every chunk the frame
    changed and a few more, and the frame with noise put in chunks the map leaves out (pixels
    the lookup must not read: a chunk left out is the layer's)."""
    frame, layer = _over(w, h, stride, seed)
    chunks = -(-w // pixels.CHUNK)
    a = np.frombuffer(frame, np.uint8).reshape(h, stride)[:, :4 * w].reshape(h, w, 4)
    b = np.frombuffer(layer, np.uint8).reshape(h, stride)[:, :4 * w].reshape(h, w, 4)
    differs = np.zeros((h, chunks * pixels.CHUNK), bool)
    differs[:, :w] = (a != b).any(axis=2)
    todo = differs.reshape(h, chunks, pixels.CHUNK).any(axis=2)
    rng = np.random.default_rng(seed)
    todo |= rng.random(todo.shape) < 0.2
    noisy = np.frombuffer(frame, np.uint8).reshape(h, stride).copy()
    unread = np.repeat(~todo, pixels.CHUNK, axis=1)[:, :w]
    noise = rng.integers(0, 256, (h, w, 4), dtype=np.uint8)
    view = noisy[:, :4 * w].reshape(h, w, 4)
    view[unread] = noise[unread]
    return frame, noisy.tobytes(), bytearray(todo.astype(np.uint8).tobytes()), layer


@compiled
@pytest.mark.parametrize(("w", "h", "stride"), [(37, 11, 148), (64, 9, 260), (100, 20, 400), (21, 6, 84)])
def test_chunks_left_out_of_todo_are_the_layers_unread(w, h, stride):
    """``todo``: a chunk it leaves out takes the layer's indices and 0 in the dirty map whatever
    the frame holds there (noise put there changes nothing: not read), the compiled lookup and
    its twin alike; a map that marks every chunk is no map."""
    frame, noisy, todo, layer = _todo_over(w, h, stride, seed=w * h)
    lut = bytes(np.random.default_rng(h).integers(0, 256, pixels.LUT_SIZE, dtype=np.uint8))
    layer_rows = pixels._C.quantize(layer, w, h, stride, lut, True)
    chunks = -(-w // pixels.CHUNK)
    want_dirty = bytearray(chunks * h)
    want = pixels._C.quantize(frame, w, h, stride, lut, True, layer, layer_rows, want_dirty)
    for f in (pixels._C.quantize, pixels.quantize_py):
        dirty = bytearray(b"\x05" * chunks * h)
        assert f(noisy, w, h, stride, lut, True, layer, layer_rows, dirty, todo) == want
        assert dirty == want_dirty
        every = bytearray(b"\x01" * chunks * h)
        assert f(frame, w, h, stride, lut, True, layer, layer_rows, bytearray(chunks * h), every) == want
    assert noisy != frame and sum(todo) < len(todo)


@compiled
@pytest.mark.parametrize(("w", "h", "stride", "tile"), [(150, 60, 600, (50, 18, 54)), (151, 61, 620, (75, 30, 61)),
                                                       (203, 47, 812, (40, 9, 47))])
def test_one_pass_reads_only_the_chunks_of_todo(w, h, stride, tile):
    """``quantize_tile`` with ``todo`` (with and without the layer's reduction): the rows, tile
    and map of the frame; noise in the chunks it leaves out is not read for the rows (a tile's
    block across a marked chunk and one left out reads both: left out, a chunk is the layer's)."""
    from render.sheet import _compiled_plan

    frame, noisy, todo, layer = _todo_over(w, h, stride, seed=w)
    lut = bytes(np.random.default_rng(5).integers(0, 256, pixels.LUT_SIZE, dtype=np.uint8))
    k, plan = _compiled_plan(w, tile)
    layer_rows = pixels._C.quantize(layer, w, h, stride, lut, True)
    red = pixels._C.reduce(layer, w, stride, k, tile[2])
    want_map = bytearray(len(todo))
    want = pixels._C.quantize_tile(frame, w, h, stride, lut, True, k, tile[2], *plan, *tile[:2], layer, layer_rows,
                                   want_map, red)
    assert want == pixels._C.quantize_tile(frame, w, h, stride, lut, True, k, tile[2], *plan, *tile[:2])
    got_map = bytearray(len(todo))
    got = pixels._C.quantize_tile(frame, w, h, stride, lut, True, k, tile[2], *plan, *tile[:2], layer, layer_rows,
                                  got_map, red, todo)
    assert got == want and got_map == want_map
    noisy_map = bytearray(len(todo))
    got = pixels._C.quantize_tile(noisy, w, h, stride, lut, True, k, tile[2], *plan, *tile[:2], layer, layer_rows,
                                  noisy_map, red, todo)
    assert got[0] == want[0] and noisy_map == want_map
    rows_only = pixels._C.quantize_tile(noisy, w, h, stride, lut, True, k, tile[2], *plan, *tile[:2], layer,
                                        layer_rows, bytearray(len(todo)), None, todo)
    assert rows_only[0] == want[0]


@compiled
def test_todo_needs_a_layer_and_its_size():
    frame, layer = _over(40, 4, 160, seed=1)
    lut = bytes(pixels.LUT_SIZE)
    rows = pixels._C.quantize(layer, 40, 4, 160, lut, True)
    for f in (pixels._C.quantize, pixels.quantize_py):
        with pytest.raises(TypeError, match="without a layer"):
            f(frame, 40, 4, 160, lut, True, None, None, None, bytearray(12))
        with pytest.raises(ValueError, match="do not fit"):
            f(frame, 40, 4, 160, lut, True, layer, rows, bytearray(12), bytearray(11))


def _paths(rng: np.random.Generator, w: int, h: int) -> list[tuple[np.ndarray, np.ndarray | None]]:
    """Paths of every kind a frame draws: polylines, closed polygons, quadratic and cubic curves
    (their control points far out), several subpaths, a path of codes None."""
    out: list[tuple[np.ndarray, np.ndarray | None]] = []
    for _ in range(12):
        codes: list[int] = []
        verts: list[tuple[float, float]] = []
        for _sub in range(int(rng.integers(1, 4))):
            codes.append(1)
            verts.append((rng.uniform(0, w), rng.uniform(0, h)))
            for _seg in range(int(rng.integers(1, 4))):
                kind = int(rng.choice([2, 3, 4]))
                take = {2: 1, 3: 2, 4: 3}[kind]
                codes += [kind] * take
                verts += [(rng.uniform(-10, w + 10), rng.uniform(-10, h + 10)) for _ in range(take)]
            if rng.random() < 0.5:
                codes.append(79)
                verts.append((0.0, 0.0))
        out.append((np.array(verts, float), np.array(codes, np.uint8)))
    out.append((np.array([(3.0, 4.0), (60.0, 30.0), (20.0, 50.0)]), None))
    return out


@pytest.mark.parametrize("seed", range(4))
def test_mark_covers_every_pixel_agg_inks(seed):
    """``mark``: every pixel Agg inks drawing a path (filled, or stroked, thick, dashed, mitred
    at sharp corners) lies in a chunk the map marks; the compiled mark and its twin mark the
    same chunks; a stroke's map marks fewer chunks than the box of its whole path."""
    from matplotlib.backends.backend_agg import FigureCanvasAgg
    from matplotlib.figure import Figure
    from matplotlib.path import Path

    rng = np.random.default_rng(seed)
    fig = Figure(figsize=(2.6, 1.7), dpi=100, facecolor="white")
    canvas = FigureCanvasAgg(fig)
    canvas.draw()
    renderer = canvas.get_renderer()
    w, h = canvas.get_width_height(physical=True)
    chunks = -(-w // pixels.CHUNK)
    tighter = 0
    for verts, codes in _paths(rng, w, h):
        styles = ((True, 0.0, None), (False, 1.0, None), (False, 7.0, None), (True, 3.0, (0, (4.0, 2.0))))
        for fill, lw, dashes in styles:
            buf = np.asarray(canvas.buffer_rgba())
            buf[...] = 255
            gc = renderer.new_gc()
            gc.set_linewidth(lw)
            gc.set_foreground("black")
            gc.set_joinstyle("miter")
            if dashes:
                gc.set_dashes(*dashes)
            from matplotlib.transforms import IdentityTransform

            renderer.draw_path(gc, Path(verts, codes), IdentityTransform(), (0, 0, 0, 1) if fill else None)
            inked = (np.asarray(canvas.buffer_rgba())[..., :3] != 255).any(axis=2)
            pad = 3 + lw / 2 * max(lw, 1.5)
            marks = []
            for f in ((pixels._C.mark, pixels.mark_py) if pixels._C is not None else (pixels.mark_py,)):
                todo = bytearray(chunks * h)
                assert f(todo, w, h, verts, codes, fill, pad) is True
                marks.append(bytes(todo))
            assert all(m == marks[0] for m in marks)
            todo_map = np.frombuffer(marks[0], np.uint8).reshape(h, chunks)
            covered = np.repeat(todo_map, pixels.CHUNK, axis=1)[:, :w].astype(bool)
            assert not (inked & ~covered).any(), (seed, fill, lw, int((inked & ~covered).sum()))
            tighter += not fill and sum(marks[0]) < _box_chunks(verts, codes, w, h, pad)
    assert tighter > 0


def _box_chunks(verts: np.ndarray, codes: np.ndarray | None, w: int, h: int, pad: float) -> int:
    """The chunks of a path's whole box (its closing vertices left out), as ``mark`` would mark
    one filled subpath."""
    keep = verts if codes is None else verts[codes != 79]
    todo = bytearray(-(-w // pixels.CHUNK) * h)
    pixels.mark_py(todo, w, h, keep, None, True, pad)
    return sum(todo)


def test_mark_refuses_what_it_cannot_bound():
    """A vertex not finite or a code unknown: False (the caller then looks the whole frame up);
    a map or codes of the wrong size: an error."""
    for f in ((pixels._C.mark, pixels.mark_py) if pixels._C is not None else (pixels.mark_py,)):
        todo = bytearray(2 * 10)
        verts = np.array([(1.0, 2.0), (np.nan, 3.0)])
        assert f(todo, 20, 10, verts, np.array([1, 2], np.uint8), False, 1.0) is False
        assert f(todo, 20, 10, np.array([(1.0, 2.0), (5.0, 3.0)]), np.array([1, 9], np.uint8), True, 1.0) is False
        with pytest.raises(ValueError, match="do not fit"):
            f(bytearray(7), 20, 10, verts, None, False, 1.0)
        with pytest.raises(ValueError, match="do not fit"):
            f(todo, 20, 10, verts, np.array([1], np.uint8), False, 1.0)


@compiled
@pytest.mark.parametrize(("w", "h", "stride", "tile"), [(150, 60, 600, (50, 18, 54)), (151, 61, 620, (75, 30, 61)),
                                                       (203, 47, 812, (40, 9, 47)), (99, 70, 400, (24, 20, 69)),
                                                       (160, 64, 640, (79, 31, 64))])
def test_one_pass_over_a_layers_tile_makes_only_what_changed(w, h, stride, tile):
    """``quantize_tile`` given the layer's reduction, horizontal pass and tile (``tile``'s
    ``passed``, by 2, 3, 5, 4, uniform and weighted resizes): the rows, tile and dirty map of the
    pass alone, from the frame's chunks ``todo`` marks and the rows' buffer kept (``out``); a frame
    that is its layer has the layer's tile."""
    from render.sheet import _compiled_plan

    frame, _noisy, todo, layer = _todo_over(w, h, stride, seed=w + 1)
    lut = bytes(np.random.default_rng(6).integers(0, 256, pixels.LUT_SIZE, dtype=np.uint8))
    k, plan = _compiled_plan(w, tile)
    yb = np.frombuffer(plan[3], np.int32)
    first, last = int(yb[0]), int(yb[2 * (tile[1] - 1)] + yb[2 * (tile[1] - 1) + 1])
    passed = bytearray((last - first) * 3 * tile[0])
    layer_tile = pixels._C.tile(layer, w, stride, k, tile[2], *plan, *tile[:2], lut, passed)
    assert layer_tile == pixels._C.tile(layer, w, stride, k, tile[2], *plan, *tile[:2], lut)
    assert any(passed)
    layer_rows = pixels._C.quantize(layer, w, h, stride, lut, True)
    red = pixels._C.reduce(layer, w, stride, k, tile[2])
    alone = pixels._C.quantize_tile(frame, w, h, stride, lut, True, k, tile[2], *plan, *tile[:2])
    want_map = bytearray(len(todo))
    pixels._C.quantize(frame, w, h, stride, lut, True, layer, layer_rows, want_map)
    out, dirty = bytearray(layer_rows), bytearray(len(todo))
    for _ in range(2):  # the buffer then holds the last frame's rows: kept
        got = pixels._C.quantize_tile(frame, w, h, stride, lut, True, k, tile[2], *plan, *tile[:2], layer,
                                      layer_rows, dirty, red, todo, out, True, passed, layer_tile)
        assert got[0] is out and bytes(out) == alone[0] and got[1] == alone[1] and dirty == want_map
    same = pixels._C.quantize_tile(layer, w, h, stride, lut, True, k, tile[2], *plan, *tile[:2], layer, layer_rows,
                                   bytearray(len(todo)), red, None, None, False, passed, layer_tile)
    assert same[1] == layer_tile


@compiled
def test_a_layers_pass_and_tile_go_together():
    w, h, stride, tile, frame, layer, lut, k, plan, rows, red = _small_tile_case()
    with pytest.raises(ValueError, match="does not fit"):
        pixels._C.tile(layer, w, stride, k, tile[2], *plan, *tile[:2], lut, bytearray(5))
    yb = np.frombuffer(plan[3], np.int32)
    passed = bytearray((int(yb[-2] + yb[-1]) - int(yb[0])) * 3 * tile[0])
    ix = pixels._C.tile(layer, w, stride, k, tile[2], *plan, *tile[:2], lut, passed)
    dirty = bytearray(-(-w // 16) * h)
    with pytest.raises(TypeError, match="need each other"):
        pixels._C.quantize_tile(frame, w, h, stride, lut, True, k, tile[2], *plan, *tile[:2], layer, rows, dirty, red,
                                None, None, False, passed)
    with pytest.raises(TypeError, match="need each other"):
        pixels._C.quantize_tile(frame, w, h, stride, lut, True, k, tile[2], *plan, *tile[:2], layer, rows, dirty, None,
                                None, None, False, passed, ix)
    with pytest.raises(ValueError, match="does not fit"):
        pixels._C.quantize_tile(frame, w, h, stride, lut, True, k, tile[2], *plan, *tile[:2], layer, rows, dirty, red,
                                None, None, False, passed, ix[:-1])
    with pytest.raises(TypeError, match="without their buffer"):
        pixels._C.quantize(frame, w, h, stride, lut, True, layer, rows, dirty, None, None, True)
    with pytest.raises(ValueError, match="does not fit"):
        pixels._C.quantize(frame, w, h, stride, lut, True, layer, rows, dirty, None, bytearray(3), False)
    for f in (pixels._C.quantize, pixels.quantize_py):
        out = bytearray(len(rows))
        assert f(frame, w, h, stride, lut, True, None, None, None, None, out) is out
        assert bytes(out) == pixels._C.quantize(frame, w, h, stride, lut, True)
