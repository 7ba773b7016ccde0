"""The compiled core builds with the package and can be switched off."""
from __future__ import annotations

import os
import subprocess
import sys

from explainer import core


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
