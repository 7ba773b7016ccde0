"""Shared fixtures: paths to the shared data and the independent checker."""
from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

# The engine's check mode in every test (explainer.engine.check): each finder call is watched
# (the state and the session left as found, every step describing its state), in this process
# and in the ones the tests start. Production runs leave it off.
os.environ.setdefault("SUDOKU_EXPLAINER_CHECK", "1")

ROOT = Path(__file__).resolve().parents[1]
SHARED = ROOT.parent / "shared"
TOP1465 = SHARED / "data" / "top1465.txt"
VERIFY = SHARED / "tools" / "verify_steps.py"
FOUR = "3..22.....4....."  # examples/4x4.txt's first puzzle
SEED = "9..3....41...2...5..2...3.12..6.9..36.9.5.............48.9...7........4....81...."


def top1465(*lines: int) -> list[str]:
    """Puzzles of top1465 by 1-based line number (a fixed sample, never random)."""
    all_lines = TOP1465.read_text().split()
    return [all_lines[k - 1] for k in lines]


def explained_top1465(lines, order: str = "seed") -> dict:
    """line -> the explained Puzzle of top1465 (the engine raises UnsoundStep on a wrong step), in
    the seed order by default: the samples that make every technique fire were picked in it."""
    from explainer.api import Puzzle

    out = {}
    for line, text in zip(lines, top1465(*lines), strict=True):
        p = Puzzle(text, where=f"top1465.txt:{line}", order=order)
        p.steps
        out[line] = p
    return out


def techniques_used(puzzles) -> set:
    used: set = set()
    for p in puzzles.values():
        used |= set(p.statistics)
    return used


def for_checker(doc: dict) -> dict:
    """A steps-JSON document as the shared checker gets it: without ``difficulty``.

    The checker still applies wave 1's difficulty rule (by the steps used: trial, brutal),
    which wave 3 replaced by bands of ER (TECHNIQUES.md, "Wave 3"); without the field it
    skips that one check and checks everything else. The bands are tested here
    (tests/test_rating.py, tests/test_orders.py)."""
    return {k: v for k, v in doc.items() if k != "difficulty"}


def verify_documents(docs: list[dict], tmp_path: Path) -> str:
    """Run the independent checker on steps JSON documents; fail with its report."""
    if not VERIFY.exists():
        pytest.fail(f"independent checker missing: {VERIFY} (the shared folder must sit beside the repository)")
    target = tmp_path / "docs.json"
    target.write_text(json.dumps([for_checker(d) for d in docs]))
    result = subprocess.run([sys.executable, str(VERIFY), str(target)], capture_output=True, text=True)
    assert result.returncode == 0, result.stdout + result.stderr
    return result.stdout


# ---- slow tests: run with ``--slow`` (minutes on the collections, not part of the default run) ----
# The default run (the README's command) stays within minutes on two cores: a test taking more
# than a few seconds of CPU, or much memory, is marked slow and keeps a quick representative
# (a small sample of the same check) in the default run. ``pytest -m slow --slow`` runs only the
# slow ones (CI runs both, see .ci/run).

def pytest_addoption(parser: pytest.Parser) -> None:
    parser.addoption("--slow", action="store_true", default=False,
                     help="also run the tests marked slow (whole collections, full samples; minutes); "
                          "-m slow --slow runs only those")


def pytest_configure(config: pytest.Config) -> None:
    config.addinivalue_line("markers", "slow: a whole collection or a full sample (minutes); only with --slow")


def pytest_collection_modifyitems(config: pytest.Config, items: list[pytest.Item]) -> None:
    if config.getoption("--slow"):
        return
    skip = pytest.mark.skip(reason="slow: run with --slow")
    for item in items:
        if "slow" in item.keywords:
            item.add_marker(skip)


# ---- a clean checkout: the suite writes under tmp_path or output/, never into the repository ----
# Paths a run may create inside the checkout without it being a defect: the virtualenv, caches,
# the build's products and output/ (ignored, the documented place for a run's files).
_ALLOWED_WRITES = (".venv", "output/", "build/", "dist/", ".pytest_cache", ".mypy_cache", ".ruff_cache",
                   ".hypothesis", "__pycache__", ".egg-info", ".so", ".pyc")


def checkout_status(root: Path = ROOT) -> set[str] | None:
    """What ``git status --porcelain --ignored`` lists in the checkout, minus the allowed paths;
    None when the tests do not run in a git checkout (an sdist, a copied tree)."""
    try:
        proc = subprocess.run(["git", "-C", str(root), "status", "--porcelain", "--ignored"],
                              capture_output=True, text=True, timeout=60)
    except (OSError, subprocess.TimeoutExpired):
        return None
    if proc.returncode != 0:
        return None
    return {line for line in proc.stdout.splitlines()
            if not any(part in line[3:] for part in _ALLOWED_WRITES)}


@pytest.fixture(scope="session", autouse=True)
def _checkout_stays_clean():
    """Fail the run when a test (or a benchmark a test starts) wrote into the checkout: the state
    before the session and after it must list the same files (issue 40, item 1)."""
    before = checkout_status()
    yield
    after = checkout_status()
    if before is None or after is None:
        return
    written = sorted(after - before)
    assert not written, ("the tests wrote into the checkout (write under tmp_path, or output/ for a run's "
                         "files): " + "; ".join(written))


@pytest.fixture(scope="module")
def four_bank(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """A puzzle bank of one explained record (FOUR: singles only, no chain), made once a module."""
    from explainer.app.bank.db import PuzzleDB, explain_record

    path = tmp_path_factory.mktemp("db") / "b.sqlite"
    with PuzzleDB(path, create=True) as db:
        db.add(explain_record(FOUR, "x:1"))
    return path
