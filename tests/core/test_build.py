"""The compiled core builds with the package and can be switched off."""
from __future__ import annotations

import ast
import os
import subprocess
import sys
from pathlib import Path

import pytest

from explainer import core

ROOT = Path(__file__).resolve().parents[2]


def _modules() -> list[str]:
    """The compiled modules setup.py builds (its ``MODULES``)."""
    tree = ast.parse((ROOT / "setup.py").read_text())
    for node in tree.body:
        if isinstance(node, ast.Assign) and any(getattr(t, "id", "") == "MODULES" for t in node.targets):
            return list(ast.literal_eval(node.value))
    raise AssertionError("setup.py has no MODULES")


def test_compiled_core_is_built_unless_the_pure_path_is_forced() -> None:
    info = core.compiled_info()
    if core.pure_forced():
        assert info is None
    else:
        # ``pip install -e .`` compiles it (gcc and the Python headers are on every machine of the project)
        assert info == {"max_words": 10, "max_cells": 640}


def test_environment_variable_forces_the_pure_path() -> None:
    env = dict(os.environ, **{core.PURE_ENV: "1"})
    out = subprocess.run([sys.executable, "-c", "from explainer import core; print(core.compiled_info())"],
                         env=env, capture_output=True, text=True, check=True)
    assert out.stdout.strip() == "None"


@pytest.mark.skipif(core.pure_forced(), reason="the pure path is forced")
def test_every_compiled_module_is_built() -> None:
    # the extensions are optional (a machine without a compiler gets the pure path), so a module
    # whose C does not compile is skipped by the install without a word: caught here
    modules = _modules()
    assert {p.name for p in (ROOT / "explainer" / "core").glob("_*.c")} == {f"{m}.c" for m in modules}
    missing = [m for m in modules if core.load(m) is None]
    assert not missing, f"not built: {missing} (pip install -e . compiles them; see its output)"
