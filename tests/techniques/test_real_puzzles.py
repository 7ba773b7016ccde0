"""Soundness over real puzzles: every step of a fixed top1465 sample, chosen so
that each technique of medusa / chain / als / trial fires, passes the
independent checker (which also validates every listed strong and weak link
of chain, loop and medusa steps)."""
import json
import subprocess
import sys
from pathlib import Path

from tests.conftest import for_checker
from tests.techniques.chain_fixtures import top1465

VERIFY = Path(__file__).resolve().parents[2].parent / "shared" / "tools" / "verify_steps.py"
# top1465 line numbers (1-based) that, with the whole registry, use every technique of
# this family: 861 fires medusa, chain, loop, empty rectangle, als, trial and trial
# lucky; 36 adds a trial by contradiction and a brutal step.
LINES = (861, 36)
MINE = {"medusa", "chain", "loop", "empty rectangle", "als", "trial", "trial lucky"}


def test_sample_verifies_and_covers_every_technique(tmp_path):
    seen = set()
    for k in LINES:
        doc = top1465(k).to_json()
        assert doc["complete"]
        seen |= set(doc["statistics"])
        (tmp_path / f"{k:04d}.json").write_text(json.dumps(for_checker(doc)))
    assert MINE <= seen, MINE - seen
    run = subprocess.run([sys.executable, str(VERIFY), str(tmp_path)], capture_output=True, text=True)
    assert run.returncode == 0, run.stdout + run.stderr
    assert f"{len(LINES)} documents" in run.stdout and "0 failing" in run.stdout
