"""The frames' plan: a frame's legend, read off its scene laid out for the words alone
(``Frame.words_only``: nothing routed, no given, earlier value or plain candidate made),
is the legend of the scene it draws."""
from __future__ import annotations

import pytest

from explainer import Puzzle
from render.plan import plan_frames
from render.theme import THEMES
from tests.conftest import ROOT, SEED

HARDEST_3 = (ROOT.parent / "shared" / "data" / "hardest300.txt").read_text().split("\n")[2]


def _legends_agree(puzzle: Puzzle, **opts: object) -> int:
    frames = plan_frames(puzzle, **opts)  # type: ignore[arg-type]
    for f in frames:
        assert f.legend == f.scene.text("legend"), f.stem
    return len(frames)


@pytest.mark.parametrize("lang,theme", [("en", None), ("fr", "colorblind")])
def test_words_only_legend_is_the_drawn_frames_seed(seed_puzzle, lang, theme):
    assert _legends_agree(seed_puzzle, lang=lang, theme=THEMES[theme] if theme else None) > 80


def test_words_only_legend_is_the_drawn_frames_with_proof_subframes():
    # a forcing step's proof in sub-frames (part_scene), chains, ALS: every kind of legend
    p = Puzzle(HARDEST_3)
    frames = plan_frames(p, depth=2)
    assert any(f.suffix for f in frames)
    assert _legends_agree(p, depth=2) == len(frames)


def test_words_only_legend_grouped_singles():
    assert _legends_agree(Puzzle(SEED), group_singles=True) > 10


def test_a_proof_subframe_drawn_after_its_legend_is_the_one_drawn_alone():
    # the legend's layout keeps what the picture's shares with it (``part_scene``'s memo: the
    # candidates the proof draws on, the caption): the picture laid out after it is the one laid
    # out in a plan that never made the legend, shape for shape
    p = Puzzle(HARDEST_3)
    after, alone = plan_frames(p, depth=2), plan_frames(p, depth=2)
    parts = [(a, b) for a, b in zip(after, alone, strict=True) if a.suffix]
    assert len(parts) > 5
    for a, b in parts:
        assert a.legend
        memo = a.build.keywords["memo"]
        assert "covered" in memo and memo["caption"] == a.caption
        assert list(a.scene) == list(b.scene), a.stem


def test_proof_parts_lay_out_their_shared_grid_as_alone():
    """The pictures of a proof's parts, laid out on the grid they share (``part_scene``'s
    ``grid``: the values, candidates and obstacles of the last state kept), have the shapes,
    in order, of each laid out alone; a part of another step's state is not given the last one's."""
    from render.scene import part_scene

    line = next(x.strip() for x in (ROOT / "examples" / "16x16.txt").read_text().splitlines()
                if x.strip() and not x.startswith("#"))
    plan = plan_frames(Puzzle(line))
    parts = [f for f in plan if f.suffix][:40]
    assert len({id(f.build.args[0]) for f in parts}) >= 3  # parts of several steps' states
    grid = parts[0].build.keywords["grid"]
    for f in parts + parts[:3]:  # and back to the first step's state
        shared = f.scene
        assert grid["state"] is f.build.args[0]
        alone = part_scene(*f.build.args, **{**f.build.keywords, "grid": None, "memo": {}})
        assert list(shared) == list(alone) and shared.suffix == alone.suffix
