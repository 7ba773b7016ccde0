"""The console script's module (explain_sudoku.py): what it sets up before the package loads."""
from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import pytest

import explain_sudoku
from tests.conftest import ROOT


def test_numpys_blas_gets_one_thread_unless_the_user_chose(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.delenv("OPENBLAS_NUM_THREADS", raising=False)
    explain_sudoku.one_blas_thread()
    assert explain_sudoku.os.environ["OPENBLAS_NUM_THREADS"] == "1"
    monkeypatch.setenv("OPENBLAS_NUM_THREADS", "4")
    explain_sudoku.one_blas_thread()
    assert explain_sudoku.os.environ["OPENBLAS_NUM_THREADS"] == "4"


def test_the_program_sets_it_before_numpy_is_imported(tmp_path: Path) -> None:
    """OpenBLAS reads the variable once, when numpy first loads it: the program's own process
    (a child here: this one has numpy loaded already) has it set by then."""
    code = ("import builtins, os, sys\n"
            "os.environ.pop('OPENBLAS_NUM_THREADS', None)\n"
            "real = builtins.__import__\n"
            "def spy(name, *a, **k):\n"
            "    if name.split('.')[0] == 'numpy' and 'numpy' not in sys.modules:\n"
            "        print('numpy sees', os.environ.get('OPENBLAS_NUM_THREADS'))\n"
            "    return real(name, *a, **k)\n"
            "builtins.__import__ = spy\n"
            "import explain_sudoku\n"
            "sys.argv = ['explain-sudoku', sys.argv[1], '--json-only', '--out', sys.argv[2]]\n"
            "sys.exit(explain_sudoku.main())\n")
    out = subprocess.run([sys.executable, "-c", code, str(ROOT / "examples" / "4x4.txt"), str(tmp_path / "out")],
                         capture_output=True, text=True, timeout=300, cwd=ROOT)
    assert out.returncode == 0, out.stderr
    assert out.stdout.splitlines()[0] == "numpy sees 1"
