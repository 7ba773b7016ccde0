"""The README's Python examples run as written.

Every ```python block of README.md is executed unchanged, in a folder where
what it reads exists: ``output/puzzles.sqlite`` is a small puzzle bank built
beforehand (a few top1465 puzzles whose explanations hold chains removing
more than one candidate, as the query example asks for). A comment right
under a ``print(...)`` line is its expected output.
"""
from __future__ import annotations

import contextlib
import io
import re
from pathlib import Path

import pytest

from tests.conftest import ROOT, SEED, top1465

BLOCK = re.compile(r"^```python\n(.*?)^```", re.S | re.M)
BLOCKS = BLOCK.findall((ROOT / "README.md").read_text(encoding="utf-8"))
BANK_LINES = (21, 61, 96, 114)  # top1465 lines with a chain step that removes several candidates


def expected_output(code: str) -> list[str]:
    """The comment lines written right under a ``print(...)`` line (without ``# ``)."""
    out: list[str] = []
    lines = code.splitlines()
    for k, line in enumerate(lines):
        if line.lstrip().startswith("print(") and k + 1 < len(lines) and lines[k + 1].startswith("# "):
            out.append(lines[k + 1][2:])
    return out


@pytest.fixture(scope="module")
def readme_folder(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """A working folder with ``output/puzzles.sqlite`` built from a few puzzles."""
    from explainer.bank.build import build

    folder = tmp_path_factory.mktemp("readme")
    puzzles = folder / "puzzles.txt"
    puzzles.write_text("\n".join([SEED, *top1465(*BANK_LINES)]) + "\n")
    (folder / "output").mkdir()
    report = build(puzzles, folder / "output" / "puzzles.sqlite", jobs=1, progress=False)
    assert report.errors == 0
    return folder


def test_the_readme_has_python_examples() -> None:
    assert len(BLOCKS) >= 2
    assert any(expected_output(code) for code in BLOCKS)


@pytest.mark.parametrize("k", range(len(BLOCKS)))
def test_readme_example_runs(k: int, readme_folder: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    code = BLOCKS[k]
    monkeypatch.chdir(readme_folder)
    stdout = io.StringIO()
    with contextlib.redirect_stdout(stdout):
        exec(compile(code, f"README.md (python block {k + 1})", "exec"), {"__name__": "__readme__"})
    printed = stdout.getvalue().splitlines()
    for line in expected_output(code):
        assert line in printed, f"README block {k + 1} says it prints {line!r}; it printed {printed[:5]}"
