"""Issue 13, export level: proof sub-frames in every output, the GIF, the paged
contact sheet, the viewer and the PDF workbook."""
from __future__ import annotations

from dataclasses import replace
from fnmatch import fnmatchcase

import pytest

from explainer.proof import Branch, BranchEnd, Proof, ProofFact
from render.export import output_patterns, plan_frames, planned_names, write_puzzle

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

    rec = write_puzzle(proof_puzzle, tmp_path, html=True)
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
