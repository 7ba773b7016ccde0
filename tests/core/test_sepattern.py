"""Sudoku Explainer's pattern loops: the compiled path returns what the pure path returns.

Each function of ``explainer.core.sepattern`` runs on random 9×9 states
(``tests/core/states.py``) and on states SE itself reached
(tests/data/se_positions.txt), compiled and pure; the results must be equal.
Without the compiled module there is nothing to compare and the test is skipped.
"""
from __future__ import annotations

from pathlib import Path

import pytest

from explainer.core import sepattern

from .states import random_state

pytestmark = pytest.mark.skipif(not sepattern.compiled(), reason="the compiled pattern loops are not in use")

DATA = Path(__file__).resolve().parents[1] / "data" / "se_positions.txt"


def _se_states() -> list[list[int]]:
    out = []
    for line in DATA.read_text().splitlines()[1::7]:
        values, cands = line.split("\t")[2:4]
        cand = [0] * 81
        for i, ch in enumerate(cands):
            if ch != "." and values[i // 9] == ".":
                cand[i // 9] |= 1 << (int(ch) - 1)
        out.append(cand)
    return out


def test_aligned_exclusion_compiled_and_pure_agree() -> None:
    assert sepattern._C is not None
    states = [list(random_state(9, seed, placed=0.3 + 0.04 * (seed % 5), keep=0.2 + 0.05 * (seed % 4)).cand)
              for seed in range(40)] + _se_states()
    found = 0
    for cand in states:
        for degree in (2, 3):
            for classic in (False, True):
                got = sepattern._C.aligned(cand, degree, int(classic))
                assert got == sepattern.aligned_py(cand, degree, classic), (degree, classic)
                found += got is not None
    assert found >= 20  # the states hold hints to compare, not only None
