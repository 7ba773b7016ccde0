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
    """16×16 and 25×25 frames widen the rows and columns their step marks until the candidate
    digits reach 12 px at 1024 px wide (the others narrow, big digits only)."""
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
    """The metric agrees with the pixels: a 25×25 frame's widened candidate, shown 1024 px wide."""
    from explainer.model.grid import parse_grid
    from render.frame import scene_view
    from render.scene import scene as make_scene
    from tests.render.test_roles import _step_of

    kind, (givens, state) = next((k, v) for k, v in _big_positions() if v[1].geo.n == 25 and k == "chain")
    step = _step_of(kind, state)
    sc = make_scene(state, step, number=1, givens=parse_grid(givens).values)
    r = FrameRenderer(25)
    view = scene_view(sc, r.layout)
    assert not view.is_plain
    mark = next(s for s in sc if s.kind == "disk" and view.whole(s.row, s.col))
    px = np.asarray(r.image(sc)).astype(int)
    L = r.layout
    x0, y0, w, h = L.ax_rect
    W, H = L.pixels
    unit = w * W / 25
    gx, gy = view.point(spot(25, mark.row, mark.col, mark.value))
    cx, cy = x0 * W + gx * unit, H - (y0 * H + (25 - gy) * unit)
    half = int(unit * view.full / 10)
    box = px[int(cy) - half:int(cy) + half, int(cx) - half:int(cx) + half]
    # the digit is drawn light on the dark disk: its rows are those with near-white pixels
    light = np.where(box.min(axis=2) > 200)[0]
    height = (light.max() - light.min() + 1) * 1024 / W
    assert height >= 11.5, height
