"""Write ``data/role_positions.txt``: for every step kind of the registry, one position
where it is the engine's next step (the scene tests draw it and check its roles).

Each line: ``kind<TAB>givens<TAB>values<TAB>candidates`` (the puzzle's givens, the values
and the candidates line of the state before the step, ``State.to_candidates_line``). A kind
the engine never takes first (a skyscraper behind a cheaper chain) gets a position where
its technique's finder yields it.
Run: ``python tests/render/make_role_positions.py [seconds]`` from the repository root;
it reads ``../shared/data`` and the examples and stops when every kind is found or the
time is up (the kinds never found are printed).
"""
from __future__ import annotations

import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
DATA = ROOT.parent / "shared" / "data"
SOURCES = [ROOT / "examples" / "seed.txt", DATA / "top1465.txt", DATA / "se_rated.txt", DATA / "hardest300.txt"]
OUT = Path(__file__).resolve().parent / "data" / "role_positions.txt"


def lines() -> list[str]:
    out = []
    for path in SOURCES:
        for line in path.read_text().splitlines():
            line = line.split("#")[0].strip().split()[0] if line.strip() and not line.startswith("#") else ""
            if len(line) == 81:
                out.append(line)
    return out


def main() -> None:
    import techniques
    from explainer import Puzzle

    budget = float(sys.argv[1]) if len(sys.argv) > 1 else 1800.0
    wanted = set(techniques.step_names()) - {"brutal"}
    found: dict[str, str] = {}
    if OUT.exists():
        for row in OUT.read_text().splitlines():
            found[row.split("\t")[0]] = row
    from explainer.model.technique import Context

    order = techniques.step_names()

    def keep(kind: str, line: str, st) -> None:
        found[kind] = "\t".join([kind, line, st.to_line(), st.state().to_candidates_line()])
        print(kind, flush=True)
        OUT.write_text("".join(found[k] + "\n" for k in order if k in found))

    start = time.time()
    sources = [(k.example, True) for k in techniques.all_kinds().values() if k.example] + [(x, False) for x in lines()]
    for line, _ in sources:
        if wanted <= set(found) or time.time() - start > budget:
            break
        p = Puzzle(line)
        for step in p.steps:
            if step.technique in wanted and step.technique not in found:
                keep(step.technique, line, step.before)
        for step in p.steps:  # kinds never taken first: where their finder yields them
            missing = wanted - set(found)
            for t in techniques.REGISTRY:
                kinds = set(t.produces) & missing
                if not kinds or t.name in ("trial", "forcing chain"):
                    continue
                for k, other in enumerate(t.find(step.before.state(), Context())):
                    if other.technique in kinds and other.technique not in found:
                        keep(other.technique, line, step.before)
                    if k > 50:
                        break
    print("missing:", sorted(wanted - set(found)))


if __name__ == "__main__":
    main()
