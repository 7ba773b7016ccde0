"""Soundness on real puzzles: wings, fish and Sue de Coq steps on top1465.

The line numbers (1-based, in ../shared/data/top1465.txt) were chosen by
running the engine with the whole registry over the whole file so that every
technique of wings.py, fish.py and suedecoq.py fires at least once:

- 537, 475, 739: together y wing, ny wing, w wing, x wing, swordfish,
  jellyfish, the three finned fish, suedecoq and suedecoq bis
- 129: a (sashimi) finned fish of case 2 (no cover line meets the box)

The engine checks every step against the solution (UnsoundStep); the
independent checker ../shared/tools/verify_steps.py then replays the JSON.
"""
from __future__ import annotations

import pytest

from explainer import Puzzle
from tests.conftest import explained_top1465, techniques_used, verify_documents

LINES = (537, 475, 739, 129)
MINE = ("xy wing", "ny wing", "w wing", "x wing", "swordfish", "jellyfish", "finned x wing",
        "finned swordfish", "finned jellyfish", "suedecoq", "suedecoq bis")


@pytest.fixture(scope="module")
def puzzles() -> dict[int, Puzzle]:
    return explained_top1465(LINES)


def test_every_technique_fires(puzzles):
    used = techniques_used(puzzles)
    assert set(MINE) <= used, sorted(set(MINE) - used)


def test_finned_fish_case_2_on_a_real_puzzle(puzzles):
    steps = [s for s in puzzles[129].steps if s.technique.startswith("sashimi") and s.get("case") == 2]
    assert steps and "one line too few" in steps[0].text


def test_steps_carry_pattern_and_texts(puzzles):
    for p in puzzles.values():
        for s in p.steps:
            if s.technique in MINE:
                assert s.eliminate and s.cells, s
                assert s.text and dict(s.translations).get("fr"), s
                assert s.get("size") is not None or s.technique == "w wing"


def test_independent_checker_accepts_every_step(puzzles, tmp_path):
    report = verify_documents([p.to_json() for p in puzzles.values()], tmp_path)
    assert f"{len(LINES)} documents" in report and " 0 failing" in report
