"""A trial or forcing step tells one story (issue 23): its caption's assumption and ends
are its proof's, in every language, and its frames read the same proof.

``test_captions_agree_with_proofs`` checks every trial and forcing step of top1465
lines 1-300 and hardest300 lines 1-50, on the order the engine runs by default
(slow: ``pytest --slow tests/test_proof_captions.py``, about a minute and a half on
two cores: 2,600 steps on 2026-11-26); ``test_captions_agree_on_a_sample`` checks a few puzzles in every run.
"""
from __future__ import annotations

from concurrent.futures import ProcessPoolExecutor

import pytest

from explainer.model import proofwords
from explainer.model.i18n import LANGS
from tests.conftest import SHARED

HARDEST = SHARED / "data" / "hardest300.txt"
TOP = SHARED / "data" / "top1465.txt"


def _lines(path, lo: int, hi: int) -> list[str]:
    lines = [x.split()[0] for x in path.read_text().splitlines() if x.strip() and not x.startswith("#")]
    return lines[lo - 1:hi]


def disagreements(step) -> list[str]:
    """What a step's caption says that its proof does not (empty: one story)."""
    out = []
    proof = step.proof
    n = step.before.geo.n if step.before is not None else 9
    for lang in LANGS:
        text = step.text_in(lang)
        for b in proof.branches:
            if b.end.kind in ("cell", "house", "twice"):
                end = proofwords.end_phrase(b, n, lang)
                if end not in text:
                    out.append(f"{lang}: the caption does not end branch {b.assume} on «{end}»: {text}")
        if step.technique == "forcing chain":
            for b in proof.branches:
                if proofwords.suppose_line(b, lang)[:-1] not in text:
                    out.append(f"{lang}: the caption does not assume {b.assume}: {text}")
        elif proof.kind == "contradiction":  # trial, trial lucky: the caption assumes what the proof does
            said = proofwords.fact_words(proof.branches[0].assume, lang)
            if said not in text:
                out.append(f"{lang}: the caption does not assume «{said}»: {text}")
    return out


def _check_line(line: str) -> list[str]:
    return _check(line)[1]


def _check(line: str) -> tuple[int, list[str]]:
    """(trial and forcing steps checked, their disagreements) on one puzzle."""
    from explainer import Puzzle

    p = Puzzle(line)
    out = []
    checked = 0
    for k, step in enumerate(p.steps):
        if step.proof is not None and step.technique in ("trial", "trial lucky", "forcing chain"):
            checked += 1
            out += [f"{line} step {k + 1}: {x}" for x in disagreements(step)]
    return checked, out


def test_captions_agree_on_a_sample():
    from tests.conftest import top1465

    wrong = []
    for line in top1465(1) + _lines(HARDEST, 2, 2):
        wrong += _check_line(line)
    assert not wrong, "\n".join(wrong[:5])


def test_the_check_can_fail():
    """A caption that ends on another contradiction than its proof's is caught."""
    from dataclasses import replace

    from explainer import Puzzle
    from tests.conftest import top1465

    p = Puzzle(top1465(1)[0], order="seed")  # the seed order tries trial before the forcing chains
    step = next(s for s in p.steps if s.technique == "trial" and s.proof.kind == "contradiction")
    bad = replace(step, text=step.text.replace(proofwords.end_phrase(step.proof.branches[0], 9, "en"),
                                               "4 would have no place left in row 5"))
    assert disagreements(bad)


@pytest.mark.slow
def test_captions_agree_with_proofs():
    lines = _lines(TOP, 1, 300) + _lines(HARDEST, 1, 50)
    wrong: list[str] = []
    checked = 0
    with ProcessPoolExecutor(2) as ex:
        for k, out in ex.map(_check, lines):
            checked += k
            wrong += out
    print(f"{len(lines)} puzzles, {checked} trial and forcing steps checked")
    assert checked > 1000, checked  # the collections' hard puzzles: thousands of forcing steps
    assert not wrong, f"{len(wrong)} disagreements:\n" + "\n".join(wrong[:10])


def test_proofwords_doctests():
    import doctest

    assert doctest.testmod(proofwords).failed == 0


def test_removals_by_one_value_said_once():
    """'no 5 in r1c4 or r5c1 (r1c1=5 sees them)': one clause for a run of removals by one
    value; a removal for another reason, or by another value, breaks the run."""
    from explainer.model.proof import Branch, BranchEnd, ProofFact

    a = (0, 0, 5, True)
    facts = (ProofFact(a, "assume"), ProofFact((0, 3, 5, False), "peer", (0,)),
             ProofFact((4, 0, 5, False), "peer", (0,)), ProofFact((4, 1, 3, True), "cell", ()),
             ProofFact((4, 2, 3, False), "peer", (3,)), ProofFact((0, 2, 5, False), "peer", (0,)))
    br = Branch(a, facts, BranchEnd("cell", (5,), cell=(0, 2)))
    lines = proofwords.fact_lines(br, [1, 2, 3, 4, 5], 9, "en")
    assert lines == [([1, 2], "no 5 in r1c4 or r5c1 (r1c1=5 sees them)"),
                     ([3], "r5c2=3 (last candidate of the cell)"),
                     ([4], "r5c3≠3 (r5c2=3 sees it)"), ([5], "r1c3≠5 (r1c1=5 sees it)")]
    assert proofwords.fact_lines(br, [1, 2], 9, "fr")[0][1] == "plus de 5 en L1C4 et L5C1 (L1C1=5 les voit)"
    # a fact whose own proof is drawn elsewhere stays alone, with where to find it
    assert [f for f, _ in proofwords.fact_lines(br, [1, 2], 9, "en", lambda i: ": frame 1a" if i == 2 else "")] \
        == [[1], [2]]


def test_proof_words_take_their_notation_from_lang_by_position_or_keyword() -> None:
    from explainer.model.proof import Branch, BranchEnd, ProofFact
    from explainer.model.proofwords import branch_sentence, fact_line

    br = Branch((0, 0, 5, True), (ProofFact((0, 0, 5, True), "assume"), ProofFact((0, 3, 5, False), "peer", (0,))),
                BranchEnd("cell", (1,), cell=(0, 3)))
    assert fact_line(br, 1, 9, "fr") == fact_line(br, 1, 9, lang="fr") == "L1C4≠5 (L1C1=5 le voit)"
    assert fact_line(br, 1, 9, lang="en") == "r1c4≠5 (r1c1=5 sees it)"
    assert branch_sentence(br, 9, lang="fr", head=2) == branch_sentence(br, 9, "fr", 2)
    assert "L1C4" in branch_sentence(br, 9, "fr", head=2)


@pytest.mark.parametrize("lang", ["en", "fr"])
def test_a_long_branch_tells_its_first_and_last_lines(lang: str) -> None:
    """``branch_sentence`` writes only the lines a caption keeps (the first ``head`` and last
    ``tail`` of ``fact_lines``, the others counted): the same words as cutting every line."""
    from explainer.model.proof import Branch, BranchEnd, ProofFact

    a = (0, 0, 5, True)
    facts = [ProofFact(a, "assume")]
    for k in range(1, 9):  # removals by r1c1=5 in row 1, each broken by a true fact of its own
        facts.append(ProofFact((0, k, 5, False), "peer", (0,)))
        facts.append(ProofFact((k, k, 3 if k % 2 else 4, True), "cell", ()))
    br = Branch(a, tuple(facts), BranchEnd("cell", (len(facts) - 1,), cell=(8, 8)))
    idx = proofwords.shown_facts(br)
    lines = proofwords.fact_lines(br, idx, 9, lang)
    w = proofwords.words(lang)
    for head, tail in ((4, 4), (2, 2), (1, 1), (3, 0)):
        hidden = sum(len(f) for f, _ in lines[head:len(lines) - tail])
        last = [t for _, t in lines[-tail:]] if tail else []
        told = [t for _, t in lines[:head]] + [w["more"].format(k=hidden)] + last
        end = proofwords.end_phrase(br, 9, lang)
        want = f"{proofwords.suppose_line(br, lang)} {w['then']} {', '.join(told)}, {w['so']} {end}."
        assert proofwords.branch_sentence(br, 9, lang, head, tail) == want
