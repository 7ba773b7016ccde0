"""How well the project's ER agrees with Sudoku Explainer's, and what rating costs.

    python benchmarks/bench_rating.py [FILE] [--order simplest|seed | --compare] [--limit N] [--every K]
                                      [--save JSONL] [--load JSONL]

FILE has one "PUZZLE SE_RATING" a line (default ../shared/data/se_rated.txt).
Prints Spearman's rank correlation between our ER and SE's (all puzzles, and
without those whose explanation needs brutal), the share within ±0.3 of SE,
the mean absolute difference, the confusion of grades (explainer.model.rating.GRADES
applied to both ratings) and the rating overhead: the time to rate the steps
(step ratings and ER/EP/ED) over the time to explain them.

--order simplest (the default, also --easiest) explains with the
lowest-rated step at each step (SE's choice); --order seed with the first
technique in registry order; --compare runs both and reports how many ERs
change and the time each takes. --save writes every
steps-JSON document (plus "se" and "seconds") to a JSONL file; --load re-rates
such a file with the current scale without explaining again.
"""
from __future__ import annotations

import argparse
import json
import statistics
import sys
import time
from collections import Counter
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

import techniques  # noqa: E402
from explainer import Puzzle  # noqa: E402
from explainer.engine.orders import ORDERS  # noqa: E402
from explainer.model.explanation import Explanation  # noqa: E402
from explainer.model.rating import GRADE_NAMES, grade, puzzle_rating  # noqa: E402
from explainer.model.technique import rate_steps  # noqa: E402


def ranks(xs: list[float]) -> list[float]:
    """Ranks from 1, ties sharing their mean rank."""
    order = sorted(range(len(xs)), key=lambda i: xs[i])
    out = [0.0] * len(xs)
    i = 0
    while i < len(order):
        j = i
        while j + 1 < len(order) and xs[order[j + 1]] == xs[order[i]]:
            j += 1
        for k in range(i, j + 1):
            out[order[k]] = (i + j) / 2 + 1
        i = j + 1
    return out


def pearson(a: list[float], b: list[float]) -> float:
    ma, mb = statistics.fmean(a), statistics.fmean(b)
    cov = sum((x - ma) * (y - mb) for x, y in zip(a, b, strict=False))
    va = sum((x - ma) ** 2 for x in a) ** 0.5
    vb = sum((y - mb) ** 2 for y in b) ** 0.5
    return cov / (va * vb) if va and vb else float("nan")


def spearman(a: list[float], b: list[float]) -> float:
    return pearson(ranks(a), ranks(b))


def read(path: str) -> list[tuple[str, float]]:
    out = []
    for line in Path(path).read_text(encoding="utf-8").splitlines():
        parts = line.split()
        if len(parts) >= 2 and not line.startswith("#"):
            out.append((parts[0], float(parts[1])))
    return out


def explain_all(rows: list[tuple[str, float]], order: str) -> list[dict]:
    docs = []
    for text, se in rows:
        t0 = time.perf_counter()
        p = Puzzle(text, order=order)
        p.steps
        t1 = time.perf_counter()
        p._ratings = None
        r = p.rating  # the step ratings and ER/EP/ED, timed apart
        t2 = time.perf_counter()
        docs.append({"puzzle": text, "se": se, "er": r.er, "ep": r.ep, "ed": r.ed,
                     "explain": t1 - t0, "rate": t2 - t1, "doc": p.to_json(),
                     "brutal": "brutal" in p.statistics})
    return docs


def rerate(docs: list[dict]) -> None:
    """Rate stored documents again with the current registry records, each on its own order
    (a document without ``order`` was made by the seed order)."""
    kinds = techniques.all_kinds()
    for d in docs:
        d.setdefault("doc", d)
        steps = [Explanation.from_dict({k: v for k, v in s.items() if k != "rating"}) for s in d["doc"]["steps"]]
        simplest = d["doc"].get("order", "seed") == "simplest"
        t = time.perf_counter()
        r = puzzle_rating(steps, rate_steps(steps, kinds, "se-equivalent" if simplest else "pattern"))
        d["rate"] = time.perf_counter() - t
        d["er"], d["ep"], d["ed"] = r.er, r.ep, r.ed
        d["brutal"] = "brutal" in d["doc"]["statistics"]


def report(docs: list[dict], label: str) -> list[str]:
    se = [d["se"] for d in docs]
    er = [d["er"] for d in docs]
    keep = [i for i, d in enumerate(docs) if not d["brutal"]]
    close = sum(abs(a - b) <= 0.3 + 1e-9 for a, b in zip(er, se, strict=False))
    lines = [f"### {label}", "",
             f"{len(docs)} puzzles; Spearman ρ(ER, SE) = {spearman(er, se):.3f}; "
             f"without the {len(docs) - len(keep)} that need brutal: "
             f"{spearman([er[i] for i in keep], [se[i] for i in keep]):.3f}; "
             f"within ±0.3 of SE: {close / len(docs):.1%}; "
             f"mean |ER − SE| = {statistics.fmean(abs(a - b) for a, b in zip(er, se, strict=False)):.2f}; "
             f"Pearson r = {pearson(er, se):.3f}", ""]
    conf = Counter((grade(s), grade(e)) for s, e in zip(se, er, strict=False))
    lines += ["| SE grade \\ our grade | " + " | ".join(GRADE_NAMES) + " |",
              "| --- |" + " ---: |" * len(GRADE_NAMES)]
    for g in GRADE_NAMES:
        lines.append(f"| {g} | " + " | ".join(str(conf[(g, h)]) for h in GRADE_NAMES) + " |")
    explain = sum(d.get("explain", 0.0) for d in docs)
    rate = sum(d["rate"] for d in docs)
    if explain:
        lines += ["", f"explain {explain:.1f} s in all, rating {rate * 1000:.0f} ms "
                      f"({rate / explain:.2%} of explaining)"]
    by_level: dict[float, list[float]] = {}
    for s, e in zip(se, er, strict=False):
        by_level.setdefault(s, []).append(e)
    lines += ["", "SE rating: median of our ER (n) — " + ", ".join(
        f"{s:.1f}: {statistics.median(v):.1f} ({len(v)})" for s, v in sorted(by_level.items()))]
    return lines


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("file", nargs="?", default=str(ROOT.parent / "shared" / "data" / "se_rated.txt"))
    ap.add_argument("--limit", type=int, default=None)
    ap.add_argument("--every", type=int, default=1, metavar="K")
    ap.add_argument("--order", choices=list(ORDERS), default="simplest", help="the engine's order (default simplest)")
    ap.add_argument("--easiest", dest="order", action="store_const", const="simplest", help="--order simplest")
    ap.add_argument("--compare", action="store_true", help="seed and simplest orders, side by side")
    ap.add_argument("--save", type=Path, default=None, help="JSONL of the explained documents")
    ap.add_argument("--load", type=Path, default=None, help="re-rate a --save file, no explaining")
    args = ap.parse_args()
    if args.load:
        docs = [json.loads(line) for line in args.load.read_text(encoding="utf-8").splitlines() if line]
        docs = docs[:: args.every][: args.limit]
        rerate(docs)
        for d in docs:
            d.pop("explain", None)
        print("\n".join(report(docs, f"{args.load.name}, re-rated")))
        return 0
    rows = read(args.file)[:: args.every][: args.limit]
    runs = ["seed", "simplest"] if args.compare else [args.order]
    results = {}
    for order in runs:
        docs = explain_all(rows, order)
        results[order] = docs
        print("\n".join(report(docs, "simplest order (lowest-rated step)" if order == "simplest"
                                else "seed order (first technique in registry order)")))
        print()
        if args.save:
            path = args.save if len(runs) == 1 else args.save.with_suffix(f".{order}.jsonl")
            with path.open("w", encoding="utf-8") as f:
                for d in docs:
                    f.write(json.dumps(d) + "\n")
    if args.compare:
        a, b = results["seed"], results["simplest"]
        changed = [(x["er"], y["er"]) for x, y in zip(a, b, strict=False) if x["er"] != y["er"]]
        ta, tb = sum(d["explain"] for d in a), sum(d["explain"] for d in b)
        print(f"simplest vs seed: ER changes on {len(changed)} of {len(a)} puzzles "
              f"(lower on {sum(y < x for x, y in changed)}, higher on {sum(y > x for x, y in changed)}); "
              f"explaining time {ta:.1f} s -> {tb:.1f} s ({tb / ta - 1:+.1%})")
    return 0


if __name__ == "__main__":
    sys.exit(main())
