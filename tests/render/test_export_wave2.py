"""Issue 13, export level: proof sub-frames in every output, the GIF, the paged
contact sheet, the viewer and the PDF workbook."""
from __future__ import annotations

from dataclasses import replace
from fnmatch import fnmatchcase

import pytest

from explainer.model.proof import Branch, BranchEnd, Proof, ProofFact
from render.export import output_patterns, planned_names, write_puzzle
from render.plan import plan_frames

PROOF_STEP = 3  # 0-based index of the seed step given a hand-made two-branch proof


def two_branch_proof(st):
    """Two branches sharing a conclusion (hand-made, not checked for soundness)."""
    n = st.geo.n
    cell = next(c for c in range(n * n) if len(st.candidates(c)) >= 2)
    r, c = divmod(cell, n)
    v, w = st.candidates(cell)[:2]
    other = next(x for x in range(n * n) if x // n == r and x != cell and v in st.candidates(x))
    shared = (r, other % n, v, False)
    b1 = Branch((r, c, v, True), (ProofFact((r, c, v, True), "assume"), ProofFact(shared, "peer", (0,))),
                BranchEnd("conclusion", conclusion=(1,)))
    b2 = Branch((r, c, w, True), (ProofFact((r, c, w, True), "assume"), ProofFact(shared, "peer", (0,))),
                BranchEnd("conclusion", conclusion=(1,)))
    return Proof("cell", 0, (b1, b2))


class ProofPuzzle:
    """The seed puzzle with one step carrying a proof that needs sub-frames."""

    def __init__(self, puzzle):
        self._p = puzzle
        steps = list(puzzle.steps)
        s = steps[PROOF_STEP]
        steps[PROOF_STEP] = replace(s, proof=two_branch_proof(s.before))
        self.steps = steps

    def __getattr__(self, name):
        return getattr(self._p, name)


@pytest.fixture(scope="module")
def proof_puzzle(seed_puzzle):
    return ProofPuzzle(seed_puzzle)


def test_plan_has_proof_subframes_after_their_step(proof_puzzle):
    stems = [f.stem for f in plan_frames(proof_puzzle)]
    k = PROOF_STEP + 1
    i = stems.index(next(s for s in stems if s.startswith(f"{k:03d}-")))
    assert stems[i + 1].startswith(f"{k:03d}a-") and stems[i + 2].startswith(f"{k:03d}b-")
    assert stems[i + 3].startswith(f"{k + 1:03d}-")
    assert len(stems) == len(proof_puzzle.steps) + 2 + 2
    # every planned name is one the manifest knows as ours
    for name in planned_names(proof_puzzle):
        assert any(fnmatchcase(name, p) for p in output_patterns()), name


def test_proof_subframes_in_every_output(proof_puzzle, tmp_path):
    from PIL import Image

    rec = write_puzzle(proof_puzzle, tmp_path, html=True, gif_max_play=0)  # no fold: every frame
    k = PROOF_STEP + 1
    names = sorted(p.name for p in tmp_path.iterdir())
    assert any(n.startswith(f"{k:03d}a-") for n in names) and any(n.startswith(f"{k:03d}b-") for n in names)
    total = len(proof_puzzle.steps) + 4
    assert len(rec.frames) == total
    with Image.open(rec.gif) as gif:
        assert gif.n_frames == total
    page = (tmp_path / "index.html").read_text(encoding="utf-8")
    assert f"{k:03d}a-" in page and f"Step {k}a" in page
    assert set(rec.files) == {str(tmp_path / n) for n in planned_names(proof_puzzle, _opts(html=True))}


def _opts(**kw):
    from render.options import RenderOptions

    return RenderOptions(**kw)


def test_gif_is_wide_and_reads_at_caption_speed(seed_puzzle, seed_out):
    from PIL import Image

    from render.gif import gif_durations
    from render.options import RenderOptions

    out, rec = seed_out
    plan = plan_frames(seed_puzzle)
    with Image.open(rec.gif) as gif:
        assert gif.size[0] >= 600
        stored = []
        for i in range(gif.n_frames):
            gif.seek(i)
            stored.append(gif.info["duration"])
    from render.export import animation_timing
    from render.job import Job

    timing = animation_timing(Job(seed_puzzle, out, RenderOptions(), plan))
    want = [timing.ms[k] for k in sorted(timing.ms)]
    assert stored == want  # every frame differs from the one before: none merged
    assert stored[0] == want[0] == 2000 and stored[-1] == want[-1] == 2000
    # the rule (issue 41): a step shows as long as its caption takes to read, 67 ms a character
    # (about 15 a second), at least 2 s; never shortened to fit the budget
    caps = [len(f.scene.text("caption")) for f in plan]
    free = gif_durations(plan, RenderOptions())
    for f, n, ms in zip(plan[1:-1], caps[1:-1], free[1:-1], strict=True):
        assert ms == 10 * round(max(2000, 67 * n) / 10), f.stem
    for k, ms in timing.ms.items():
        assert ms == free[k]
    # --gif-per-char 0: every step the least time
    assert set(gif_durations(plan, RenderOptions(gif_per_char=0, gif_duration=300))[1:-1]) == {300}


def test_contact_sheet_pages(seed_out, seed_puzzle):
    from PIL import Image

    from render.sheet import SHEET_CAPTION_PT, SHEET_DPI, sheet_layout

    out, rec = seed_out
    pages = sorted(out.glob("EXPLANATIONS-*.png"))
    plan = plan_frames(seed_puzzle)
    lay = sheet_layout(plan, 9)
    assert [p.name for p in pages] == [f"EXPLANATIONS-{k:02d}.png" for k in range(1, len(lay.pages) + 1)]
    assert len(pages) >= 2 and sum(len(pg) for pg in lay.pages) == len(plan)
    for p in pages:
        with Image.open(p) as im:
            assert im.size == (1240, 1754)  # A4 portrait at 150 dpi
            assert round(im.info["dpi"][0]) == SHEET_DPI
            # the page number: ink in the footer's middle
            foot = im.convert("L").crop((520, 1754 - 90, 720, 1754 - 40))
            assert foot.getextrema()[0] < 128
    assert SHEET_CAPTION_PT >= 9


def test_contact_sheet_large_grids():
    """16x16 and 25x25: three frames a page, their words beside them; every caption line fits."""
    from types import SimpleNamespace

    from render.shapes import Scene, Shape
    from render.sheet import SHEET_CAPTION_PT, _font, sheet_layout

    for n in (16, 25):
        plan = []
        for k in range(7):
            sc = Scene(n)
            sc.append(Shape("caption", "text", text="A caption of some length " * (k + 1) + "(4=3)r5c2-" * 9))
            plan.append(SimpleNamespace(caption=sc.text("caption")))
        lay = sheet_layout(plan, n)
        assert lay.beside and lay.tile_w > 450
        font = _font(SHEET_CAPTION_PT)
        for page in lay.pages:
            assert len(page) <= 3
            for tile in page:
                assert all(font.getlength(x) <= lay.text_w for x in tile.caption)
