"""The wave-2 techniques (issue #16) on real puzzles: each fires on a fixed top1465
line, its steps carry the roles its frame shows, and every step verifies.

The lines (1-based, ../shared/data/top1465.txt) were picked by running the whole
file with the full registry (a greedy cover): 427, 349, 580, 1375, 936 and 985
together fire every wave-2 step name that comes first on top1465. Skyscraper,
turbot fish and remote pair never do (sashimi fish, empty rectangles, wings and
medusa take their eliminations first); their unit tests cover them.
"""
from __future__ import annotations

import pytest

from explainer.api import Puzzle
from tests.conftest import explained_top1465, techniques_used, top1465, verify_documents

LINES = (427, 349, 580, 1375, 936, 985, 16, 91, 96)  # 16, 91: wxyz wing and sashimi swordfish on the merged
# registry; 96: als chain
WAVE2 = {"xy wing", "xyz wing", "wxyz wing", "sashimi x wing", "sashimi swordfish", "sashimi jellyfish",
         "unique rectangle", "bug+1", "2-string kite", "x chain", "xy chain", "grouped chain",
         "als xy wing", "als chain", "death blossom"}
UNIQUENESS = {"unique rectangle", "bug+1"}
# roles: the pivot / middle set in cells, the others in cells_alt
TWO_SETS = {"xy wing", "xyz wing", "wxyz wing", "als xy wing", "als chain", "death blossom"}


@pytest.fixture(scope="module")
def puzzles() -> dict[int, Puzzle]:
    return explained_top1465(LINES)


def test_every_wave2_technique_fires(puzzles):
    used = techniques_used(puzzles)
    assert WAVE2 <= used, sorted(WAVE2 - used)


def test_steps_carry_roles_and_texts(puzzles):
    for p in puzzles.values():
        for s in p.steps:
            if s.technique not in WAVE2:
                continue
            assert (s.eliminate or s.place) and s.text and dict(s.translations).get("fr"), s
            if s.technique in TWO_SETS:
                assert s.cells and s.cells_alt and s.marked, s
            if s.technique in UNIQUENESS:
                assert "single solution" in s.text, s
            if s.technique.startswith("sashimi"):
                assert s.marked_alt and s.get("fin") and s.get("cover_lines"), s
                cover = {h for h in s.get("cover_lines")}
                # the fin lies off every cover line
                for r, c, _ in s.marked_alt:
                    assert ("row", r) not in cover and ("col", c) not in cover, s
            if s.technique == "grouped chain":
                assert s.get("groups") and s.cells_alt, s


def test_independent_checker_accepts_every_step(puzzles, tmp_path):
    report = verify_documents([p.to_json() for p in puzzles.values()], tmp_path)
    assert f"{len(LINES)} documents" in report and " 0 failing" in report


def test_without_uniqueness(tmp_path):
    # 1398 uses bug+1 and 936 unique rectangles with the full registry
    docs = []
    for line, text in zip((1398, 936), top1465(1398, 936), strict=True):
        p = Puzzle(text, where=f"top1465.txt:{line}", uniqueness=False)
        assert p.complete and not UNIQUENESS & set(p.statistics)
        docs.append(p.to_json())
    report = verify_documents(docs, tmp_path)
    assert "2 documents" in report and " 0 failing" in report
