"""Our Sudoku Explainer chaining producers against SE itself, hint for hint.

Each line of the input holds a candidate state and, for some of SE's chaining
producers, the first hint SE's own program gives there (the format of
``tests/data/se_chains.txt``, whose README says how it was made): difficulty
(SE's double), complexity, kind order key, removed candidates and placement,
or none. This script runs the same producers here (``explainer.core.sechain``,
compiled, or the pure-Python twin with ``--pure``) and prints, per producer,
how many first hints agree in every field, then the differences.

    python benchmarks/compare_se_chains.py [FILE ...] [--pure] [--producers 0,1,2] [--every K] [--show N]

Line format: ``VALUES81 MASKS`` (81 three-digit hex candidate masks, bit v-1
for value v), a tab, a label (where the state comes from), then one field per
producer: ``P:-`` (no hint) or ``P:DIFFICULTY:COMPLEXITY:SORTKEY:REMOVALS:PLACE``
with removals ``cell.value`` joined by commas and PLACE ``cell.value`` or ``-``.
"""
from __future__ import annotations

import argparse
import sys
import time
from collections import Counter
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from explainer.core import sechain  # noqa: E402

DATA = ROOT / "tests" / "data" / "se_chains.txt"


@dataclass(frozen=True)
class Hint:
    """A first hint as SE prints it (or as ours compares to it)."""

    difficulty: float
    complexity: int
    sort_key: int
    removable: frozenset[tuple[int, int]]
    place: tuple[int, int] | None


@dataclass(frozen=True)
class Case:
    values: tuple[int, ...]
    cand: tuple[int, ...]
    label: str
    expected: dict[int, Hint | None]


def _cv(text: str) -> tuple[int, int]:
    c, v = text.split(".")
    return int(c), int(v)


def parse(line: str) -> Case:
    state, label, *fields = line.rstrip("\n").split("\t")
    vals, masks = state.split()
    values = tuple(0 if ch == "." else int(ch) for ch in vals)
    cand = tuple(int(masks[3 * i:3 * i + 3], 16) for i in range(len(values)))
    expected: dict[int, Hint | None] = {}
    for f in fields:
        p, _, rest = f.partition(":")
        if rest == "-":
            expected[int(p)] = None
            continue
        d, c, k, rem, place = rest.split(":")
        expected[int(p)] = Hint(float(d), int(c), int(k), frozenset(_cv(x) for x in rem.split(",") if x),
                                None if place == "-" else _cv(place))
    return Case(values, cand, label, expected)


def read(paths: list[Path], every: int = 1) -> list[Case]:
    lines = [line for p in paths for line in p.read_text().splitlines() if line.strip() and not line.startswith("#")]
    return [parse(line) for line in lines[::every]]


def ours(case: Case, producer: int, pure: bool = False) -> Hint | None:
    n = int(round(len(case.values) ** 0.5))
    find = sechain.first_hint_py if pure else sechain.first_hint
    h = find(n, list(case.values), list(case.cand), producer)
    if h is None:
        return None
    return Hint(h.difficulty, h.complexity, h.sort_key, frozenset(h.removable), h.place)


def compare(cases: list[Case], producers: set[int] | None = None, pure: bool = False) -> \
        Iterator[tuple[Case, int, Hint | None, Hint | None, float]]:
    """(case, producer, SE's hint, ours, CPU seconds) for every expected first hint."""
    for case in cases:
        for p, want in case.expected.items():
            if producers is not None and p not in producers:
                continue
            t = time.process_time()
            got = ours(case, p, pure)
            yield case, p, want, got, time.process_time() - t


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("files", nargs="*", type=Path, help=f"state files (default {DATA.relative_to(ROOT)})")
    ap.add_argument("--pure", action="store_true", help="the pure-Python twin instead of the compiled engine")
    ap.add_argument("--producers", help="only these producers (comma-separated indexes of sechain.PRODUCERS)")
    ap.add_argument("--every", type=int, default=1, help="every K-th state only")
    ap.add_argument("--show", type=int, default=5, help="differences shown per producer")
    args = ap.parse_args(argv)
    cases = read(args.files or [DATA], args.every)
    producers = {int(x) for x in args.producers.split(",")} if args.producers else None
    total, same, cpu = Counter(), Counter(), Counter()
    diffs: dict[int, list[str]] = {}
    for case, p, want, got, dt in compare(cases, producers, args.pure):
        total[p] += 1
        cpu[p] += dt
        if want == got:
            same[p] += 1
        else:
            diffs.setdefault(p, []).append(f"  {case.label}: SE {want}\n  {' ' * len(case.label)}  ours {got}")
    print(f"{len(cases)} states, {'pure' if args.pure else 'compiled'} engine")
    for p in sorted(total):
        print(f"producer {p:2d}: {same[p]}/{total[p]} first hints as SE's ({100 * same[p] / total[p]:.1f} %), "
              f"{cpu[p]:.2f} s CPU")
    for p in sorted(diffs):
        print(f"producer {p} differences ({len(diffs[p])}):")
        print("\n".join(diffs[p][:args.show]))
    return 0 if sum(same.values()) == sum(total.values()) else 1


if __name__ == "__main__":
    sys.exit(main())
