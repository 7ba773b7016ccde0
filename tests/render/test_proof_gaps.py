"""Issue 41, item 1: a proof's sub-frames leave no gap. Every fact a sub-frame states is drawn
with its reasons on that frame or was stated in an earlier frame of the same proof, at every
level of detail; what a frame draws faint was stated before; the step's own frame draws only
facts leading to the end its caption names.

A fact's reasons are its premises (STEPS_JSON.md ``proof``: ``from``), except a nested proof's
conclusion, whose reason its words say ('supposing r1c7=2 leads to a contradiction') and whose
proof has frames of its own one level down (``proofdraw.grounded``)."""
from __future__ import annotations

import re
from collections.abc import Iterator

import pytest

from explainer import Puzzle
from explainer.model.explanation import Explanation
from render import proofdraw
from render.scene import part_scene, scene
from tests.conftest import SHARED

H2 = 2  # hardest300 line 2: a forcing chain resting on nested contradictions
DEPTHS = (1, 2, 3, proofdraw.ALL)
FACT_ROLES = ("implied-true", "implied-false", "assumption")


def hardest(line: int) -> str:
    return (SHARED / "data" / "hardest300.txt").read_text().split("\n")[line - 1].split()[0]


def _cands(facts, idx) -> set[tuple[int, int, int]]:
    return {tuple(facts[j].fact[:3]) for j in idx if 0 <= j < len(facts)}


def gaps(step: Explanation, depth: int) -> Iterator[str]:
    """Each gap of a step's proof frames drawn up to ``depth``, in words."""
    assert step.proof is not None and step.before is not None
    n = step.before.geo.n
    told: dict[tuple[int, int], set[int]] = {}  # (proof, branch) -> facts stated in the frames before
    for part in proofdraw.plan(step.proof, depth=depth):
        b = part.proof.branches[part.branch]
        facts = b.facts
        before = told.setdefault((id(part.proof), part.branch), set())
        here = set(part.new_facts)
        known = before | here | {0}
        for k in sorted(here):
            if not proofdraw.grounded(facts[k]):
                for j in facts[k].premises:
                    if j not in known:
                        yield f"{part.suffix}: fact {k} {facts[k]} rests on {j} {facts[j]}, never stated"
        if part.at_end:
            for j in (*b.end.premises, *b.end.conclusion):
                if j not in known:
                    yield f"{part.suffix}: the end rests on {j} {facts[j]}, never stated"
        # what the frame draws: faint, a fact stated before (or the outer branch's, for a nested
        # proof: its context); plain, a fact stated here
        outer: set[tuple[int, int, int]] = set()
        if part.outer is not None:
            op, k = part.outer
            outer = _cands(op.facts, (0, *op.facts[k].premises))
        for s in proofdraw.part_shapes(n, part, step.before, None):
            if s.role not in FACT_ROLES or s.kind in ("dotted",):
                continue
            cand = (s.row, s.col, s.value)
            if s.faint and cand not in _cands(facts, before | {0}) | outer:
                yield f"{part.suffix}: {cand} drawn faint, never stated before"
            if not s.faint and cand not in _cands(facts, known):
                yield f"{part.suffix}: {cand} drawn, not stated"
        before |= here


def summary_strays(step: Explanation) -> set[tuple[int, int, int]]:
    """The candidates the step's own frame draws as proof facts that do not lead to the end."""
    assert step.proof is not None and step.before is not None
    sc = scene(step.before, step, number=1)
    b = step.proof.branches[0]
    drawn = {(s.row, s.col, s.value) for s in sc if s.role in ("implied-true", "implied-false") and s.value}
    return drawn - _cands(b.facts, proofdraw.needed(b))


def forcing(puzzle: Puzzle) -> list[Explanation]:
    return [s for s in puzzle.steps if s.proof is not None and proofdraw.needs_subframes(s.proof)]


@pytest.fixture(scope="module")
def h2() -> Puzzle:
    return Puzzle(hardest(H2))


@pytest.mark.parametrize("depth", DEPTHS)
def test_h2_proof_frames_have_no_gap(h2, depth):
    steps = forcing(h2)
    assert steps
    for step in steps:
        assert list(gaps(step, depth)) == [], step.text[:60]


def test_h2_first_step_states_why_the_end_holds(h2):
    """The issue's case: frame 1a said 'r8c7=2 (last place for 2 in column 7)' with r1c7≠2
    faint and unexplained, and never why r1c5=3."""
    step = h2.steps[0]
    parts = proofdraw.plan(step.proof, depth=1)
    caption = " ".join(proofdraw.part_caption(p, 9, "en", 1) for p in parts)
    assert "r1c5=3 (last place for 3 in row 1)" in caption
    for fact in ("r1c6≠3", "r1c8≠3", "r1c9≠3"):
        assert fact in caption
    sub = part_scene(step.before, step, parts[0], number=1)
    assert re.search(r"struck \w+ rings: ruled out", sub.text("legend"))
    # with every level drawn, a nested fact names the frames of its proof (drawn further on)
    deep = proofdraw.plan(step.proof, depth=proofdraw.ALL)
    names = {f"1{p.suffix}" for p in deep}
    caption = proofdraw.part_caption(deep[0], 9, "en", 1, proofdraw.ALL)
    assert "(supposing r1c6=3 leads to a contradiction: frames 1" in caption
    for first, last in re.findall(r"frames (\S+)–(\S+?)\)", caption):
        assert first in names and last in names


def test_h2_summary_draws_only_what_leads_to_the_end(h2):
    for step in forcing(h2):
        if len(step.proof.branches) == 1:
            assert summary_strays(step) == set()
    # the first step: the column-5 contradiction, nothing of row 4 or column 7
    sc = scene(h2.steps[0].before, h2.steps[0], number=1)
    houses = {s.house for s in sc if s.kind == "dotted"}
    assert houses == {("row", 0)}


def test_faint_marks_are_named_by_the_legend(h2):
    step = h2.steps[0]
    for lang, words in (("en", "faint: stated in an earlier frame"), ("fr", "pâle : dit dans une image précédente")):
        for part in proofdraw.plan(step.proof, depth=proofdraw.ALL):
            sc = part_scene(step.before, step, part, number=1, lang=lang)
            has_faint = any(s.faint for s in sc)
            assert (words in sc.text("legend").lower()) == has_faint, (part.suffix, lang)


def test_one_name_for_struck_rings():
    """'struck ring: false' beside 'struck rings: ruled out by the pattern': one look, one name."""
    from render.scene import legend_text

    both = legend_text({"assumption", "implied-false", "implied-true"})
    assert len(re.findall(r"struck (\w+ )?rings?", both)) == 1 and "ruled out" in both
    assert re.search(r"struck \w+ rings: ruled out", legend_text({"implied-false"}).lower())  # its colour named


@pytest.mark.slow
def test_hardest300_proof_frames_have_no_gap():
    lines = [x.split()[0] for x in (SHARED / "data" / "hardest300.txt").read_text().split("\n") if x.strip()]
    for i, line in enumerate(lines, 1):
        p = Puzzle(line)
        for step in forcing(p):
            for depth in DEPTHS:
                found = list(gaps(step, depth))
                assert found == [], (i, step.text[:60], found[:3])
            if len(step.proof.branches) == 1:
                assert summary_strays(step) == set(), (i, step.text[:60])


def test_proof_frames_name_every_mark_they_draw(h2):
    """H2 step 1 (the gap-free proof of issue 41): the step's frame and each sub-frame name, in
    every palette and language, each role they draw and only those, with its colour: the red
    rings of "3 would be twice in column 5" were named nowhere, "filled: true" named no colour,
    and "arrows: implications" was said on frames drawing no arrow."""
    from render.colournames import colour_name
    from render.theme import THEME_COLOURS
    from render.theme import theme as make_theme
    from tests.render.test_roles import legend_gaps

    step = h2.steps[0]
    parts = proofdraw.plan(step.proof, depth=2)
    for name in THEME_COLOURS:
        th = make_theme(name)
        for lang in ("en", "fr"):
            frames = [scene(step.before, step, number=1, lang=lang, theme=th)]
            frames += [part_scene(step.before, step, p, number=1, lang=lang, theme=th) for p in parts]
            for sc in frames:
                legend = sc.text("legend")
                assert legend_gaps(sc, lang, th) == (set(), set()), (name, lang, sc.suffix, legend)
                for s in sc:
                    if s.role in ("implied-true", "implied-false", "contradiction", "conclusion", "assumption") \
                            and not s.colour.startswith("tint"):
                        assert colour_name(str(th[s.colour]), lang) in legend.lower(), (name, lang, s.role, legend)
            assert any(s.role == "contradiction" for sc in frames for s in sc)
            assert any(s.role == "implies" for sc in frames for s in sc)
            assert any("implies" not in {s.role for s in sc} for sc in frames)
