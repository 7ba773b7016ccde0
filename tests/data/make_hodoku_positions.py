"""Write tests/data/hodoku_positions.txt: positions in HoDoKu's library format, per technique.

For each step kind with a HoDoKu code, up to PER_KIND positions taken from
the explanations of top1465 (the state before a step of that kind, the
puzzle's givens as givens and every value placed since as ``+d``), with the
eliminations/placements of one step of that kind found there, chosen among
all the steps ``all_steps`` lists (the last one, so not always the engine's
first choice); and, per kind, must-not-fire positions (``<code>-x``): a
position of the same puzzles where the kind finds nothing. Every line is
checked by the independent checker in tests/test_allsteps.py.

Run: PYTHONPATH=. python tests/data/make_hodoku_positions.py [PUZZLES]
"""
from __future__ import annotations

import sys
from pathlib import Path

from explainer import Puzzle
from explainer.app.allsteps import Position, all_steps, library_line
from techniques import REGISTRY

HERE = Path(__file__).resolve().parent
TOP1465 = HERE.parents[2] / "shared" / "data" / "top1465.txt"
PER_KIND = 4


def main(count: int = 60) -> None:
    kinds = {k.name: k for t in REGISTRY for k in t.kinds if k.code and not k.reads_solution}
    found: dict[str, list[str]] = {name: [] for name in kinds}
    quiet: dict[str, list[str]] = {name: [] for name in kinds}
    for line in TOP1465.read_text().split()[:count]:
        puzzle = Puzzle(line)
        givens = puzzle.grid.values
        used: set[str] = set()  # one position per kind and puzzle
        for i, step in enumerate(puzzle.steps):
            if step.technique in ("single position", "single candidate") and i % 10:
                continue
            missing = [name for name in kinds if len(found[name]) < PER_KIND and name not in used]
            if all(len(f) >= PER_KIND for f in found.values()) and all(quiet.values()):
                return _write(kinds, found, quiet)
            if not missing:
                break
            state = puzzle.state_before(i)
            pos = Position(state, tuple(state.values))
            steps = all_steps(pos, missing, seconds=5)
            for name in missing:
                same = [s for s in steps if s.technique == name]
                if same:
                    found[name].append(library_line(pos, same[-1], givens=givens))
                    used.add(name)
            for name in kinds:
                if not quiet[name] and name not in missing and not all_steps(pos, [name]):
                    quiet[name].append(library_line(pos, givens=givens, must_not_fire=kinds[name].code))
                elif not quiet[name] and name in missing and not any(s.technique == name for s in steps):
                    quiet[name].append(library_line(pos, givens=givens, must_not_fire=kinds[name].code))
    _write(kinds, found, quiet)


def _write(kinds, found, quiet) -> None:
    out = ["# Positions in HoDoKu's library format, written by tests/data/make_hodoku_positions.py",
           "# from top1465: per technique, positions with the step expected there, then",
           "# must-not-fire positions (<code>-x) where the technique finds nothing."]
    for name in kinds:
        out.append(f"# {name}")
        out += found[name] + quiet[name]
    (HERE / "hodoku_positions.txt").write_text("\n".join(out) + "\n")
    print({name: (len(found[name]), len(quiet[name])) for name in kinds}, file=sys.stderr)


if __name__ == "__main__":
    main(*(int(a) for a in sys.argv[1:]))
