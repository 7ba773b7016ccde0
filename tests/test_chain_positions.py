"""Hand-made chain, nice loop, ALS, forcing and template positions (tests/data/hodoku_chains.txt).

``explain-sudoku steps --check`` must reproduce every line: each pattern's change, worked
out by hand, is made by one step the family lists; each ``-x`` line lists none.
"""
from __future__ import annotations

import importlib.util
import json
from collections import Counter
from pathlib import Path
from types import SimpleNamespace

from explainer.app.allsteps import all_steps
from explainer.app.cli import main
from explainer.app.hodoku import read_library
from techniques import all_kinds

DATA = Path(__file__).parent / "data"
CHAINS = DATA / "hodoku_chains.txt"


def _generator():
    spec = importlib.util.spec_from_file_location("make_chain_positions", DATA / "make_chain_positions.py")
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def test_every_hand_made_chain_position_is_reproduced(capsys) -> None:
    code = main(["steps", str(CHAINS), "--check", "--json"])
    out, err = capsys.readouterr()
    records = [json.loads(line) for line in out.splitlines()]
    assert code == 0, [r for r in records if not r["reproduced"]]
    assert records and all(r["reproduced"] is True for r in records)
    assert f"{len(records)} lines: {len(records)} reproduced" in err


def test_each_family_has_positions_and_near_misses() -> None:
    entries = [e for _, e in read_library(CHAINS.read_text(), str(CHAINS))]
    found = Counter(e.code for e in entries if not e.must_not_fire)
    quiet = Counter(e.code for e in entries if e.must_not_fire)
    for code in ("0703", "0702", "0708", "0706", "0707", "0711", "0901", "0902", "0904", "1302"):
        assert found[code] >= 2, code
    for code in ("0703", "0702", "0707", "0711", "0901", "0903", "0904", "1301", "1201", "1202"):
        assert quiet[code] >= 1, code
    assert all(e.expects for e in entries if not e.must_not_fire)


def test_the_file_is_what_its_generator_writes(tmp_path: Path, monkeypatch) -> None:
    gen = _generator()
    monkeypatch.setattr(gen, "HERE", tmp_path)
    gen.main()
    assert (tmp_path / "hodoku_chains.txt").read_text() == CHAINS.read_text()


def test_kinds_only_steps_lists_are_drawn_faithfully() -> None:
    """Discontinuous loops and templates come from ``steps`` only: their frames show every field."""
    from tests.render.test_scene import faithful

    seen: set[str] = set()
    for _, e in read_library(CHAINS.read_text(), str(CHAINS)):
        if e.must_not_fire or e.code not in ("0707", "1201", "1202", "0710"):
            continue
        before = e.state().snapshot()
        steps = [s.with_before(before) for s in all_steps(e, [e.code])]
        seen |= faithful(SimpleNamespace(steps=steps, grid=SimpleNamespace(values=e.values), kinds=all_kinds()))
    assert {"discontinuous loop", "template set", "template delete", "grouped chain"} <= seen
