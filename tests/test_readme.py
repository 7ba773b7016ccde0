"""The examples of README.md and of every docs/*.md page run as written and print what the
page shows (issue 24, item 16; issue 40, item 5: the README's text moved into docs/ pages).

- Every ```python block of the README and the pages is executed unchanged, in a folder where
  what it reads exists: ``output/puzzles.sqlite`` is a small puzzle bank built
  beforehand (a few top1465 puzzles whose explanations hold chains removing
  more than one candidate, as the query example asks for). A comment right
  under a ``print(...)`` line is its expected output, and so is a comment
  after an expression that starts like a value (``len(steps)  # (3, ...)``,
  ``p.rating  # Rating(...)``): the value's repr must begin it.
- Every ``` block whose first line is ``$ explain-sudoku ...`` is run from the
  repository's root; the lines under it are its whole output (stdout and
  stderr, in order). A ```sh or ```console fence is never run (a server, a long job).
- The outputs quoted in the pages' prose (``INLINE``) are checked too.
"""
from __future__ import annotations

import ast
import contextlib
import io
import re
import shlex
import tokenize
from pathlib import Path

import pytest

from tests.conftest import ROOT, SEED, top1465

BLOCK = re.compile(r"^```python\n(.*?)^```", re.S | re.M)
SHELL = re.compile(r"^```\n(\$ explain-sudoku .*?)^```", re.S | re.M)
# the README first, then every page of docs/, by name
PAGES = {path.relative_to(ROOT).as_posix(): path.read_text(encoding="utf-8")
         for path in [ROOT / "README.md", *sorted((ROOT / "docs").glob("*.md"))]}
README = "\n".join(PAGES.values())  # all the prose, for the quoted outputs
BLOCKS = [(name, code) for name, text in PAGES.items() for code in BLOCK.findall(text)]
SHELL_BLOCKS = [(name, block) for name, text in PAGES.items() for block in SHELL.findall(text)]
# a comment that shows a value, not prose: a literal, a number, or a repr such as Rating(...)
SHOWS_VALUE = re.compile(r"""^(?:[(\[{'"\d-]|True\b|False\b|None\b|[A-Z]\w*\()""")
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
    from explainer.app.bank.build import build

    folder = tmp_path_factory.mktemp("readme")
    puzzles = folder / "puzzles.txt"
    puzzles.write_text("\n".join([SEED, *top1465(*BANK_LINES)]) + "\n")
    (folder / "output").mkdir()
    report = build(puzzles, folder / "output" / "puzzles.sqlite", jobs=1, progress=False)
    assert report.errors == 0
    return folder


def test_the_readme_has_python_examples() -> None:
    assert len(BLOCKS) >= 2
    assert any(expected_output(code) for _, code in BLOCKS)
    assert any(name == "README.md" for name, _ in BLOCKS) and any(name != "README.md" for name, _ in BLOCKS)


def comments(code: str) -> dict[int, str]:
    """Line number -> the comment ending that line."""
    out = {}
    for tok in tokenize.generate_tokens(io.StringIO(code).readline):
        if tok.type == tokenize.COMMENT:
            out[tok.start[0]] = tok.string[1:].strip()
    return out


@pytest.mark.parametrize("k", range(len(BLOCKS)))
def test_readme_example_runs(k: int, readme_folder: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    page, code = BLOCKS[k]
    monkeypatch.chdir(readme_folder)
    stdout = io.StringIO()
    shown = comments(code)
    namespace: dict = {"__name__": "__readme__"}
    with contextlib.redirect_stdout(stdout):
        for node in ast.parse(code).body:  # statement by statement, to read each shown value
            where = f"{page} (python block {k + 1}, line {node.lineno})"
            comment = shown.get(node.end_lineno or node.lineno, "")
            if isinstance(node, ast.Expr) and SHOWS_VALUE.match(comment):
                value = eval(compile(ast.Expression(node.value), where, "eval"), namespace)
                assert comment.startswith(repr(value)), f"{where} shows {comment!r}; the value is {value!r}"
            else:
                exec(compile(ast.Module([node], type_ignores=[]), where, "exec"), namespace)
    printed = stdout.getvalue().splitlines()
    for line in expected_output(code):
        assert line in printed, f"{page}: block {k + 1} says it prints {line!r}; it printed {printed[:5]}"


def test_the_readme_shows_values_and_commands() -> None:
    """The checks below have something to check (a README edit cannot make them vacuous)."""
    assert sum(1 for _, code in BLOCKS for c in comments(code).values() if SHOWS_VALUE.match(c)) >= 2
    assert len(SHELL_BLOCKS) >= 2


@pytest.mark.parametrize("k", range(len(SHELL_BLOCKS)))
def test_readme_command_prints_what_it_shows(k: int, monkeypatch: pytest.MonkeyPatch) -> None:
    from explainer.app.cli import main

    page, block = SHELL_BLOCKS[k]
    command, *shown = block.rstrip("\n").split("\n")
    argv = shlex.split(command[2:])
    monkeypatch.chdir(ROOT)
    both = io.StringIO()  # stdout and stderr in the order they were written
    with contextlib.redirect_stdout(both), contextlib.redirect_stderr(both):
        main(argv[1:])
    assert both.getvalue().splitlines() == shown, f"{page}: {command}"


# Outputs quoted in the README's prose: (command line, a line its output holds).
INLINE = [
    ("explain-sudoku examples/bad.txt --json-only --out {tmp}",
     "explain-sudoku: error: examples/bad.txt:4: two 3s in row 9 (r9c7 and r9c8)"),
    ("explain-sudoku steps examples/hodoku.txt --check",
     "examples/hodoku.txt:4: 0300 x wing: reproduced by x wing: r4c6<>1, r5c6<>1, r6c6<>1"),
]


@pytest.mark.parametrize("command,line", INLINE)
def test_readme_prose_quotes_real_output(command: str, line: str, tmp_path: Path,
                                         monkeypatch: pytest.MonkeyPatch) -> None:
    from explainer.app.cli import main

    assert f"`{line}`" in README.replace("\n", " ") or line in README, f"the README no longer quotes {line!r}"
    monkeypatch.chdir(ROOT)
    both = io.StringIO()
    with contextlib.redirect_stdout(both), contextlib.redirect_stderr(both):
        main(shlex.split(command.format(tmp=tmp_path / "out"))[1:])
    assert line in both.getvalue().splitlines()
