"""`rate --classic` against skfr, the fast C++ rater of Sudoku Explainer 1.2.1.3's scale: CPU and agreement.

    git clone https://github.com/dobrichev/skfr /tmp/skfr-src      # anywhere outside this checkout
    python benchmarks/bench_skfr.py /tmp/skfr-src [--set top|hardest] [--limit N] [--rounds R]

skfr is built from its sources (``src/*.cpp``: g++ -O3 -march=native, as its Makefile) into a
temporary folder and run with one thread (OMP_NUM_THREADS=1); a built binary may be given
instead of the folder. The sample: ``top``, every 10th puzzle of top1465 from the first (the
first ``--limit``, default 60), or ``hardest``, the first ``--limit`` (default 40) of hardest300.
Both raters rate the whole sample as one child process each, in turn, ``--rounds`` times (the
machine is noisy: the best round of each is kept); CPU is user + sys of the child and its
threads (``os.wait4``). skfr approximates SE 1.2.1.3 (its ER can differ by 0.1–0.5), so the
agreement line counts the puzzles where the two print the same ER/EP/ED; ``rate --classic``
itself is checked against SE 1.2.1.3's own ratings by benchmarks/bench_se.py.
"""
from __future__ import annotations

import argparse
import os
import subprocess
import sys
import tempfile
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[1]
DATA = ROOT.parent / "shared" / "data"


def build(source: Path, into: Path) -> Path:
    """skfr's binary: ``source`` itself when it is a file, else built from ``source/src/*.cpp``."""
    if source.is_file():
        return source
    sources = sorted(str(p) for p in (source / "src").glob("*.cpp") if p.name != "skfrdll.cpp")
    if not sources:
        sys.exit(f"bench_skfr: {source}: no src/*.cpp (give skfr's checkout or its binary)")
    binary = into / "skfr"
    made = subprocess.run(["g++", "-O3", "-march=native", "-fopenmp", "-w", "-o", str(binary), *sources],
                          capture_output=True, text=True)
    if made.returncode:
        sys.exit(f"bench_skfr: building skfr failed: {made.stderr.strip()[-500:]}")
    return binary


def sample(which: str, limit: int | None) -> list[str]:
    if which == "top":
        lines = (DATA / "top1465.txt").read_text().split("\n")[::10]
        limit = limit or 60
    else:
        lines = (DATA / "hardest300.txt").read_text().split("\n")
        limit = limit or 40
    return [line[:81] for line in lines if line.strip()][:limit]


def timed(argv: list[str], cwd: Path, stdout: Any = subprocess.DEVNULL) -> float:
    """CPU seconds (user + sys) of one child process and its threads (one thread for skfr's
    OpenMP); its standard output to ``stdout``."""
    env = dict(os.environ, OMP_NUM_THREADS="1")
    proc = subprocess.Popen(argv, cwd=cwd, env=env, stdout=stdout, stderr=subprocess.PIPE)
    assert proc.stderr is not None
    err = proc.stderr.read()
    _, status, usage = os.wait4(proc.pid, 0)
    if os.waitstatus_to_exitcode(status):
        sys.exit(f"bench_skfr: {' '.join(argv)}: {err.decode(errors='replace').strip()[-300:]}")
    return usage.ru_utime + usage.ru_stime


def skfr_ratings(path: Path) -> dict[str, str]:
    """puzzle -> 'ER/EP/ED' from skfr's ``NAME_rat.txt`` (``puzzle ED=er/ep/ed``)."""
    out = {}
    for line in path.read_text().split("\n"):
        fields = line.split()
        if len(fields) >= 2 and fields[1].startswith("ED="):
            out[fields[0]] = fields[1][3:]
    return out


def our_ratings(path: Path) -> dict[str, str]:
    out = {}
    for line in path.read_text().split("\n"):
        if line.strip():
            puzzle, er, ep, ed = line.split("\t")[:4]
            out[puzzle] = f"{float(er):.1f}/{float(ep):.1f}/{float(ed):.1f}"
    return out


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("skfr", type=Path, help="skfr's checkout (its src/ is built) or its built binary")
    ap.add_argument("--set", choices=("top", "hardest"), default="top",
                    help="top1465 every 10th (default) or hardest300 from the first")
    ap.add_argument("--limit", type=int, help="puzzles (default 60 of top, 40 of hardest)")
    ap.add_argument("--rounds", type=int, default=1, help="rounds, the two raters in turn (default 1)")
    args = ap.parse_args()
    exe = str(Path(sys.executable).with_name("explain-sudoku"))
    with tempfile.TemporaryDirectory() as t:
        tmp = Path(t)
        binary = build(args.skfr.resolve(), tmp)
        puzzles = sample(args.set, args.limit)
        (tmp / "sample.txt").write_text("\n".join(puzzles) + "\n")
        ours, theirs = [], []
        for _ in range(args.rounds):
            theirs.append(timed([str(binary), "-isample"], tmp))  # skfr adds .txt, writes sample_rat.txt
            with open(tmp / "ours.tsv", "w") as out:
                ours.append(timed([exe, "rate", "--classic", "--jobs", "1", "--no-progress", "sample.txt"], tmp, out))
        a, b = skfr_ratings(tmp / "sample_rat.txt"), our_ratings(tmp / "ours.tsv")
        same = sum(1 for p in puzzles if a.get(p) == b.get(p))
        er = sum(1 for p in puzzles if a.get(p, "/").split("/")[0] == b.get(p, "/").split("/")[0])
        print(f"{args.set}: {len(puzzles)} puzzles, best of {args.rounds} round(s)")
        print(f"  skfr           CPU {min(theirs):7.2f} s  ({min(theirs) / len(puzzles) * 1000:6.0f} ms a puzzle)")
        print(f"  rate --classic CPU {min(ours):7.2f} s  ({min(ours) / len(puzzles) * 1000:6.0f} ms a puzzle)")
        print(f"  ratio rate / skfr: {min(ours) / min(theirs):.2f}")
        print(f"  same ER/EP/ED: {same} of {len(puzzles)}; same ER: {er} (skfr approximates SE 1.2.1.3)")


if __name__ == "__main__":
    main()
