"""Write tests/data/se_positions.txt and se_paths.txt: what Sudoku Explainer does, state by state.

Input: dumps of Sudoku Explainer's own producers, run on every state of SE's
own rating path (one per flavour: Sukaku Explainer 1.15.10 and SE 1.2.1.3;
see benchmarks/data/README.md for how they are made). Each dump line "STATE"
holds the state as SE saw it, each "P" line a producer's first hint there
(its rating, the value it places, the candidates it removes), or none.

For each producer of ``techniques.se``, up to PER_PRODUCER states where SE's
producer has a hint (the test checks ours gives the same one) and up to
PER_PRODUCER where it has none although the registry's technique of the same
family finds a step (SE's own conditions: hidden sets need more empty cells,
fish a placed-count condition, direct steps a hidden single ...): the test
checks ours finds nothing there either.

Line format (tab-separated): flavour, producer name, the state's values (81
characters) and candidates (729: per cell the digits 1-9 or '.'), then SE's
hint "rating place removals" (place "cell:value" or "-", removals
"cell:value,..." or "-"), or "none".

se_paths.txt: SE's whole path for the puzzles that use the most kinds of step
below the chains (PATHS per flavour): flavour, puzzle, then each step as
"rating place removals", tab-separated.

Run: PYTHONPATH=. python tests/data/make_se_positions.py DUMP.gz FLAVOUR [DUMP.gz FLAVOUR ...]
"""
from __future__ import annotations

import gzip
import sys
from collections.abc import Iterator
from pathlib import Path

import techniques.se as se
from explainer.engine.orders import live
from explainer.model.state import State
from explainer.model.technique import Context
from techniques import REGISTRY
from tests.helpers import se_state as state_of

HERE = Path(__file__).resolve().parent
OUT = HERE / "se_positions.txt"
PATHS_OUT = HERE / "se_paths.txt"
PER_PRODUCER = 4
PATHS = 4
# the registry's technique of each producer's family (a near miss: it finds a step, SE's producer none)
FAMILY = {"direct intersections": "locked candidate", "direct hidden pairs": "hidden tuple",
          "direct hidden triplets": "hidden tuple", "intersections": "locked candidate", "naked pairs": "naked tuple",
          "x-wings": "fish", "hidden pairs": "hidden tuple", "naked triplets": "naked tuple", "swordfishes": "fish",
          "hidden triplets": "hidden tuple", "turbot fishes": "chain", "xy-wings": "xy wing",
          "xyz-wings": "xyz wing", "unique loops": "unique loop", "naked quads": "naked tuple",
          "jellyfishes": "fish", "hidden quads": "hidden tuple", "wxyz-wings": "wxyz wing", "bug": "bug"}


def family_finds(name: str, state: State) -> bool:
    record = next((t for t in REGISTRY if t.name == FAMILY.get(name)), None)
    if record is None:
        return False
    return any(live(state, s) for s in record.find(state, Context()))


def dump_lines(path: str) -> Iterator[str]:
    """A dump's whole lines; a dump cut short (its run was stopped) ends at its last whole line."""
    with gzip.open(path, "rt") as f:
        try:
            for line in f:
                if line.endswith("\n"):
                    yield line
        except EOFError:
            return


def main(pairs: list[tuple[str, str]]) -> None:
    lines: list[str] = []
    paths: list[str] = []
    for path, flavour in pairs:
        paths += best_paths(path, flavour)
        producers = se.SUKAKU if flavour == "se" else se.CLASSIC
        # SE's producers but the chaining ones, in the dumps' order
        plain = [t for t in producers if t.name not in se.chains.CHAINING]
        hits: dict[str, int] = {}
        misses: dict[str, int] = {}
        state = None
        raw = ("", "")
        for line in dump_lines(path):
            if line.startswith("STATE"):
                raw = tuple(line.rstrip("\n").split("\t")[3].split(" "))  # type: ignore[assignment]
                state = state_of(*raw)
                continue
            if not line.startswith("P\t") or state is None:
                continue
            parts = line.rstrip("\n").split("\t")
            name = plain[int(parts[1])].name
            if parts[2] == "none":
                if misses.get(name, 0) < PER_PRODUCER and name in FAMILY and family_finds(name, state):
                    misses[name] = misses.get(name, 0) + 1
                    lines.append("\t".join((flavour, name, raw[0], raw[1], "none")))
                continue
            if hits.get(name, 0) >= PER_PRODUCER:
                continue
            hits[name] = hits.get(name, 0) + 1
            rating, place, removals = parts[2], parts[5], parts[6]
            lines.append("\t".join((flavour, name, raw[0], raw[1], f"{float(rating):.1f} {place} {removals}")))
    OUT.write_text("# flavour\tproducer\tvalues\tcandidates\tSE's hint (rating place removals) or none\n"
                   + "\n".join(lines) + "\n")
    print(f"{len(lines)} positions -> {OUT}")
    PATHS_OUT.write_text("# flavour\tpuzzle\tSE's steps (rating place removals)\n" + "\n".join(paths) + "\n")
    print(f"{len(paths)} paths -> {PATHS_OUT}")


def best_paths(path: str, flavour: str) -> list[str]:
    """The PATHS whole paths (ER below 6.5: no chain) using the most kinds of step."""
    found: list[tuple[int, str]] = []
    steps: list[str] = []
    kinds: set[str] = set()
    first = ""
    for line in dump_lines(path):
        parts = line.rstrip("\n").split("\t")
        if parts[0] == "STATE" and parts[2] == "1":
            first = "".join(ch if ch != "." else "." for ch in parts[3].split(" ")[0])
            steps, kinds = [], set()
        elif parts[0] == "STEP":
            steps.append(f"{float(parts[4]):.1f} {parts[7]} {parts[8]}")
            kinds.add(parts[5])
        elif parts[0] == "ER" and float(parts[2]) < 6.5 and steps:
            found.append((len(kinds), "\t".join([flavour, first] + steps)))
    found.sort(key=lambda t: -t[0])
    return [line for _, line in found[:PATHS]]


if __name__ == "__main__":
    args = sys.argv[1:]
    main([(args[i], args[i + 1]) for i in range(0, len(args), 2)])
