"""Forcing chains for ``steps`` (forcingall): every start, contradiction and verity, each with its proof."""
from __future__ import annotations

from pathlib import Path

from explainer import Puzzle
from explainer.app.allsteps import Position, all_steps, one_step_document
from explainer.model.technique import Context
from techniques import forcingall

from ..conftest import top1465, verify_documents
from .chain_positions import position, state

EVERY = Context()

def test_contradiction_and_cell_and_house_verities() -> None:
    for comment, kinds in (("forcing chain contradiction", {"contradiction"}),
                           ("forcing chain verity (cell", {"cell", "double", "contradiction"}),
                           ("forcing chain verity (house", {"house", "double", "contradiction"})):
        e = position(comment)
        steps = list(forcingall.every(state(comment), EVERY))
        hits = [s for s in steps if set(e.eliminations) <= set(s.eliminate)]
        assert hits and all(s.proof is not None for s in steps), comment
        assert {dict(s.detail)["kind"] for s in hits} <= kinds
    assert not list(forcingall.every(state("no forcing chain"), EVERY))

def test_each_conclusion_once() -> None:
    steps = list(forcingall.every(state("forcing chain verity (house"), EVERY))
    changes = [(s.place, s.eliminate) for s in steps]
    assert len(changes) == len(set(changes)) and len(steps) > 1

def test_every_forcing_step_of_a_real_position_passes_the_checker(tmp_path: Path) -> None:
    p = Puzzle(top1465(3)[0])
    k = next(i for i, s in enumerate(p.steps) if s.technique == "forcing chain")
    st = p.state_before(k)
    pos = Position(st, tuple(st.values))
    steps = all_steps(pos, ["forcing chain"])
    assert len(steps) > 5 and {dict(s.detail)["kind"] for s in steps} >= {"contradiction"}
    engine = p.steps[k]
    assert any(set(engine.eliminate) <= set(s.eliminate) and set(engine.place) <= set(s.place) for s in steps)
    out = verify_documents([one_step_document(pos, s) for s in steps[:40]], tmp_path)
    assert "0 failing" in out
