"""The ``se`` orders: Sudoku Explainer's own path and numbers, explained or rated only.

tests/data/se_paths.txt holds whole paths of SE's own rating (Sukaku
Explainer 1.15.10, SE 1.2.1.3), step by step: rating, placement, removals
(tests/data/make_se_positions.py).
"""
from __future__ import annotations

import json
from pathlib import Path

import pytest

import explainer
import techniques.se as se
from explainer import Puzzle, PuzzleError, engine
from explainer.engine.orders import ORDERS, SE_CLASSIC_ORDER, SE_ORDER
from explainer.model.rating import Rating

from .conftest import verify_documents

DATA = Path(__file__).resolve().parent / "data" / "se_paths.txt"
LINE29 = "..29.1.3.7.........3526..1.......7..42..3..96..7.......7..5986.........1.5.1.82.."  # SE 6.2/1.5/1.5


def paths() -> list[tuple[str, str, list[str]]]:
    out = []
    for line in DATA.read_text().splitlines():
        if line and not line.startswith("#"):
            flavour, puzzle, *steps = line.split("\t")
            out.append((flavour, puzzle, steps))
    return out


def as_se(step: explainer.Explanation, rating: float) -> str:
    place = "-" if not step.place else f"{step.place[0][0] * 9 + step.place[0][1]}:{step.place[0][2]}"
    removed = ",".join(f"{r * 9 + c}:{v}" for r, c, v in sorted(step.eliminate, key=lambda x: (x[0] * 9 + x[1], x[2])))
    return f"{rating:.1f} {place} {removed or '-'}"


PATHS = paths()


@pytest.mark.parametrize("flavour,puzzle,expected", PATHS, ids=[f"{p[0]}-{i}" for i, p in enumerate(PATHS)])
def test_path_is_se_own_step_by_step(flavour: str, puzzle: str, expected: list[str]) -> None:
    p = Puzzle(puzzle, order=flavour)
    assert [as_se(s, r) for s, r in zip(p.steps, p.step_ratings, strict=True)] == expected
    assert p.complete


def test_rating_only_gives_the_same_path_and_numbers() -> None:
    for flavour, puzzle, _ in PATHS:
        full = Puzzle(puzzle, order=flavour)
        bare = Puzzle(puzzle, order=flavour, rating_only=True)
        assert [(s.technique, s.place, s.eliminate) for s in full.steps] == \
            [(s.technique, s.place, s.eliminate) for s in bare.steps]
        assert full.step_ratings == bare.step_ratings and full.rating == bare.rating
        assert all(s.text for s in full.steps) and not any(s.text or s.roles for s in bare.steps)


def test_rate_returns_se_numbers() -> None:
    assert explainer.rate(LINE29) == Rating(6.2, 1.5, 1.5)
    assert str(explainer.rate(LINE29)) == "ER 6.2/EP 1.5/ED 1.5"
    assert explainer.rate(LINE29, classic=True).ed == 1.5


def test_the_document_carries_se_numbers_and_replays(tmp_path: Path) -> None:
    p = Puzzle(LINE29, order="se")
    doc = p.to_json()
    assert doc["order"] == "se"
    assert (doc["rating"]["er"], doc["rating"]["ep"], doc["rating"]["ed"]) == (6.2, 1.5, 1.5)
    assert all(s["detail"]["se_rating"] == s["rating"] for s in doc["steps"])
    kinds = {s["technique"] for s in doc["steps"]}
    assert {"direct hidden pair", "3 strong links", "wxyz wing", "vwxyz wing"} <= kinds
    verify_documents([json.loads(json.dumps(doc))], tmp_path)


def test_se_orders_refuse_what_se_cannot_rate() -> None:
    assert ORDERS["se"] is SE_ORDER and ORDERS["se-classic"] is SE_CLASSIC_ORDER
    with pytest.raises(PuzzleError, match="own techniques"):
        Puzzle(LINE29, ["x wing"], order="se")
    sample16 = Path(__file__).resolve().parents[2] / "shared" / "data" / "sample16.txt"
    with pytest.raises(PuzzleError, match="9×9 grids only, not 16×16"):
        explainer.rate(sample16.read_text().split()[0])
    with pytest.raises(PuzzleError, match="more than one solution"):
        explainer.rate("." * 81)


# se_rated puzzles whose hardest step is a chain, with SE's own ER/EP/ED in both flavours (serate's
# output: benchmarks/data/se_rated.sukaku.tsv and se_rated.classic.tsv)
CHAINED = [
    (".38....4.2....4..5..92..3.6.4..6.9.....8.7.....2.4..5.1.4..37..3..6....4.8....53.", (8.0, 1.2, 1.2),
     (8.3, 1.2, 1.2)),
    ("............7.3...9.2...3.6...4.2....5.8.6.2.6...9...4.4.5.1.9...6...8..1...7...5", (8.6, 1.2, 1.2),
     (8.3, 1.2, 1.2)),
    (".8.....9.1..5.9..6..7.8.3......1.....2.7.3.4...38.59...1.....2.3..2.4..92..1.8..5", (7.5, 1.2, 1.2),
     (7.8, 1.2, 1.2)),
]


@pytest.mark.parametrize("puzzle,sukaku,classic", CHAINED, ids=["multiple", "dynamic", "nishio"])
def test_chain_puzzles_get_ses_numbers_in_each_flavour(puzzle: str, sukaku: tuple, classic: tuple) -> None:
    assert explainer.rate(puzzle) == Rating(*sukaku)
    assert explainer.rate(puzzle, classic=True) == Rating(*classic)


def test_a_chain_path_is_explained_and_replays(tmp_path: Path) -> None:
    """The se order's chaining steps carry SE's numbers, texts and proofs the checker replays;
    their rating-only twins the same path and numbers."""
    puzzle = CHAINED[0][0]
    p = Puzzle(puzzle, order="se")
    chained = [s for s in p.steps if s.technique.startswith("se ")]
    assert chained and all(s.proof is not None and s.text for s in chained)
    assert p.rating == Rating(8.0, 1.2, 1.2)
    bare = Puzzle(puzzle, order="se", rating_only=True)
    assert [(s.technique, s.place, s.eliminate) for s in bare.steps] == \
        [(s.technique, s.place, s.eliminate) for s in p.steps]
    assert bare.step_ratings == p.step_ratings
    verify_documents([json.loads(json.dumps(p.to_json()))], tmp_path)


def test_a_path_se_cannot_finish_is_rated_20() -> None:
    # SE's producers without its chaining ones stop at this puzzle's first chain (SE_ORDER rates it 8.3):
    # ER 20.0, as SE's serate prints a puzzle beyond its techniques, and EP/ED as far as it went
    patterns = [t for t in se.SUKAKU if t.name not in se.chains.CHAINING]
    p = engine.Puzzle(".3.9...1...2.5......48....3..52...34.........37...81..2....56......1.7...9...4.8.",
                      patterns, order=SE_ORDER, rating_only=True)
    assert not p.complete
    assert p.rating == Rating(20.0, 1.2, 1.2)


def test_a_bank_rated_with_se_numbers(tmp_path: Path, capsys) -> None:
    from explainer.app.bank import PuzzleDB
    from explainer.app.cli import main

    three = "..3...1..2..7.....45...1..2...31.7...71...36...9.87...3..5...17.....4..9..8...2.."  # SE 3.2/1.2/1.2
    path = tmp_path / "p.txt"
    path.write_text(f"{LINE29}\n{three}\n")
    db = tmp_path / "b.sqlite"
    assert main(["db", "build", str(path), "--db", str(db), "--jobs", "1", "--rating", "se", "--no-progress"]) == 0
    with PuzzleDB(db) as bank:
        assert sorted(zip(bank.ratings("er"), bank.ratings("ep"), bank.ratings("ed"), strict=True)) == \
            [(3.2, 1.2, 1.2), (6.2, 1.5, 1.5)]
        docs = list(bank.documents())
    # the default order explains; each document keeps its path's rating and records SE's beside it
    assert all(d["order"] == "simplest" and d["se_rating"]["order"] == "se" for d in docs)
    assert {d["se_rating"]["er"] for d in docs} == {3.2, 6.2}
    # a resumed build must rate as the bank does
    assert main(["db", "build", str(path), "--db", str(db), "--jobs", "1", "--no-progress"]) == 2
    assert "built with the se rating, not the path one" in capsys.readouterr().err
