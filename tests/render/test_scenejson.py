"""A frame as JSON (render.scenejson): the page's SVG and the PNG frame draw one description.

For real steps of several families (a single, a fish, a chain, a forcing chain whose proof
needs sub-frames, a 16×16 step) the dict lists exactly the shapes of the scene the PNG
renderer draws (``render.frame.step_png`` draws ``render.scene.scene``), the same roles,
every kind one the renderer draws, and it survives a JSON round trip.
"""
from __future__ import annotations

import json
from pathlib import Path

import pytest

from explainer import Puzzle
from explainer.model.explanation import Explanation
from render.scene import scene, step_scenes
from render.scenejson import scene_dict, scene_of, themes_dict
from render.shapes import Scene
from render.theme import THEME_COLOURS
from techniques import known_kinds

ROOT = Path(__file__).resolve().parents[2]
HARDEST = (ROOT.parent / "shared" / "data" / "hardest300.txt").read_text().split()
# the kinds render/frame.py draws (its ``get(...)`` of ``draw``), and the words
DRAWN = {"value", "candidate", "fill", "outline", "circle", "square", "band", "solid", "dashed", "dotted", "thick",
         "disk", "light", "ring", "struck", "struck-ring", "halo", "strong", "weak", "arrow", "label", "text"}


@pytest.fixture(scope="module")
def hard() -> Puzzle:
    p = Puzzle(HARDEST[1])  # hardest300 line 2: fish, chains, ALS, forcing chains with sub-frames
    p.steps
    return p


def first(p: Puzzle, pred: object) -> tuple[int, Explanation]:
    for k, s in enumerate(p.steps):
        if pred(s):  # type: ignore[operator]
            return k, s
    raise AssertionError("no such step")


def frames(p: Puzzle, k: int) -> list[Scene]:
    step = p.steps[k]
    assert step.before is not None
    return step_scenes(step.before, step, number=k + 1, givens=p.grid.values, kinds=known_kinds())


def check_frames(scenes: list[Scene], p: Puzzle, k: int) -> None:
    step = p.steps[k]
    assert step.before is not None
    # the PNG frame's own scene (what step_png lays out) is the first of step_scenes
    png = scene(step.before, step, number=k + 1, givens=p.grid.values, kinds=known_kinds())
    assert list(png) == list(scenes[0])
    for sc in scenes:
        data = scene_dict(sc)
        assert json.loads(json.dumps(data)) == data
        back = scene_of(json.loads(json.dumps(data)))
        assert list(back) == list(sc) and (back.n, back.suffix, back.level) == (sc.n, sc.suffix, sc.level)
        assert [(s["role"], s["kind"]) for s in data["shapes"]] == [(s.role, s.kind) for s in sc]
        assert {s["role"] for s in data["shapes"]} == sc.roles
        assert {s["kind"] for s in data["shapes"]} <= DRAWN
        assert data["title"] == sc.text("title") and data["caption"] == sc.text("caption")
        assert data["legend"] == sc.text("legend")
        for s in data["shapes"]:
            assert set(s) == {"role", "kind", "row", "col", "value", "house", "points", "text", "colour", "group",
                              "faint", "directed", "truth"}
            assert s["colour"] == "" or s["colour"] in THEME_COLOURS["default"]


def test_a_single(hard: Puzzle) -> None:
    k, _ = first(hard, lambda s: s.technique == "single position")
    check_frames(frames(hard, k), hard, k)


def test_a_fish(hard: Puzzle) -> None:
    k, _ = first(hard, lambda s: s.technique.endswith(("x wing", "swordfish", "jellyfish")))
    sc = frames(hard, k)
    check_frames(sc, hard, k)
    roles = {s["role"] for s in scene_dict(sc[0])["shapes"]}
    assert {"base", "removed"} <= roles


def test_a_chain(hard: Puzzle) -> None:
    k, _ = first(hard, lambda s: s.technique in ("x chain", "chain", "grouped chain", "xy chain", "aic"))
    sc = frames(hard, k)
    check_frames(sc, hard, k)
    links = [s for s in scene_dict(sc[0])["shapes"] if s["role"] == "link"]
    assert links and all(len(s["points"]) >= 2 for s in links)


def test_a_forcing_chain_with_its_proof_subframes(hard: Puzzle) -> None:
    k, _ = first(hard, lambda s: s.technique == "forcing chain" and s.proof is not None)
    sc = frames(hard, k)
    assert len(sc) > 1 and [s.suffix for s in sc][:2] == ["", "a"]
    check_frames(sc, hard, k)
    assert all(scene_dict(s)["level"] >= 1 for s in sc[1:])
    assert any(s["role"] == "assumption" for s in scene_dict(sc[1])["shapes"])


def test_a_16x16_step() -> None:
    text = "".join(ln.strip() for ln in (ROOT / "examples" / "16x16.txt").read_text().splitlines()
                   if ln.strip() and not ln.startswith("#"))
    p = Puzzle(text, max_steps=3)
    data = scene_dict(frames(p, 2)[0])
    assert (data["n"], data["m"]) == (16, 4)
    check_frames(frames(p, 2), p, 2)


def test_themes_are_every_theme_of_render_theme() -> None:
    pal = themes_dict()
    assert set(pal) == set(THEME_COLOURS) and {"default", "colorblind", "high-contrast"} <= set(pal)
    assert all(set(p) == set(THEME_COLOURS["default"]) for p in pal.values())
    assert json.loads(json.dumps(pal)) == pal
