"""Issue 34's output targets, whole process with its workers, A/B against another tree.

    python benchmarks/bench_output.py [--ref OTHER/.venv/bin/explain-sudoku] [--case NAME ...]
    python benchmarks/bench_output.py --fps [--sizes 4 9 16 25] [--ref ...]
    nice python benchmarks/bench_output.py --fps --sizes 9 --repeat 5 --ref ../main/.venv/bin/explain-sudoku

Each case runs ``explain-sudoku`` in a child process; its CPU (user + system) and
peak RSS come from ``os.wait4`` on it (the CPU of the command and of every worker it
forked and reaped; the peak RSS is the largest single process of them, workers
included, not a sum). Printed per
case and per tree: CPU, peak RSS, files written, the GIF's size, frames and play
time; for the "pictures" cases also the CPU of the same run with ``--json-only``
and the difference (the CPU spent on pictures). ``--fps``: frames per CPU second
per grid size (4, 9, 16, 25): frames written over the CPU of the frames alone
(``--no-gif``, contact sheet included) minus ``--json-only``. ``--repeat R``: R rounds,
the two trees taking turns in each round; the median of each tree and the ratio this / ref
(CPU, pictures' CPU, peak RSS; frames per CPU second) are printed. Everything a run writes
goes to a temporary folder, removed at the end.

Cases (the targets of issue 34):
  hardest  hardest300 line 2, default output: <= 60 files, GIF <= 3 MB, <= 5 min of play
  proofall hardest300 line 2 with --proof all --no-gif: every fact of every nested proof drawn
  seed     examples/seed.txt, every output (--html --pdf): pictures <= 2 s, peak RSS <= 500 MB
  hard16   examples/16x16-hard.txt, every output: pictures <= 15 s, peak RSS <= 500 MB
  hard25   examples/25x25-hard.txt, every output: pictures <= 60 s, peak RSS <= 500 MB
Issue 43's targets (the default output: frames, contact sheet, GIF; pictures = CPU beyond --json-only):
  frames16 examples/16x16-hard.txt: pictures <= 10 s, peak RSS <= 500 MB
  frames25 examples/25x25-hard.txt: pictures <= 40 s, peak RSS <= 500 MB
"""
from __future__ import annotations

import argparse
import os
import statistics
import subprocess
import sys
import tempfile
from collections.abc import Callable, Sequence
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
SHARED = ROOT.parent / "shared"
ALL_OUTPUTS = ["--html", "--pdf"]
CASES: dict[str, tuple[str, list[str], bool]] = {  # name: (puzzle file, options, picture CPU too)
    "hardest": ("hardest300:2", [], False),
    "proofall": ("hardest300:2", ["--proof", "all", "--no-gif"], False),
    "seed": ("examples/seed.txt", ALL_OUTPUTS, True),
    "hard16": ("examples/16x16-hard.txt", ALL_OUTPUTS, True),
    "hard25": ("examples/25x25-hard.txt", ALL_OUTPUTS, True),
    "frames16": ("examples/16x16-hard.txt", [], True),
    "frames25": ("examples/25x25-hard.txt", [], True),
}
FPS_CASES = {4: "examples/4x4.txt", 9: "examples/seed.txt", 16: "examples/16x16.txt", 25: "examples/25x25.txt"}


def puzzle_file(spec: str, tmp: Path) -> str:
    """A puzzle file: a path in the project, or ``hardest300:LINE`` (one line of the shared data)."""
    if spec.startswith("hardest300:"):
        line = int(spec.split(":")[1])
        path = tmp / f"hardest300-{line}.txt"
        path.write_text((SHARED / "data" / "hardest300.txt").read_text().split("\n")[line - 1] + "\n")
        return str(path)
    return str(ROOT / spec)


def run(exe: str, puzzle: str, options: list[str], out: Path) -> dict[str, float]:
    """One run of ``exe``: its CPU seconds and peak RSS (MB), with every worker it reaped
    (``os.wait4``: this child's own usage and its descendants', not the other runs')."""
    proc = subprocess.Popen([exe, puzzle, "--out", str(out), "--no-progress", *options],
                            stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, text=True)
    assert proc.stderr is not None
    err = proc.stderr.read()
    _, status, usage = os.wait4(proc.pid, 0)
    proc.returncode = os.waitstatus_to_exitcode(status)
    if proc.returncode:
        sys.exit(f"{exe} {puzzle} {' '.join(options)}: exit {proc.returncode}: {err.strip()[-300:]}")
    # ru_maxrss: the largest single process of the tree (the command or one of its workers), in kB
    return {"cpu": usage.ru_utime + usage.ru_stime, "rss": usage.ru_maxrss / 1024}


def bytecode_ready(exe: str) -> None:
    """The tree of ``exe`` (``TREE/.venv/bin/explain-sudoku``) compiled to bytecode first, as a
    user's first run leaves it: where PYTHONDONTWRITEBYTECODE is set (this machine), every run
    would otherwise compile the project's modules from source again (about 0.3 CPU s, 57
    modules), a cost no user pays twice."""
    tree = Path(exe).resolve().parents[2]
    sources = [str(tree / d) for d in ("explainer", "render", "techniques") if (tree / d).is_dir()]
    subprocess.run([str(Path(exe).with_name("python")), "-m", "compileall", "-q", *sources],
                   check=True, stdout=subprocess.DEVNULL)


def gif_figures(out: Path) -> tuple[float, int, float]:
    """The GIF's size (MB), frames and play time (s)."""
    from PIL import Image

    gifs = list(out.glob("*.gif"))
    if not gifs:
        return 0.0, 0, 0.0
    with Image.open(gifs[0]) as im:
        ms = 0
        for k in range(im.n_frames):
            im.seek(k)
            ms += im.info.get("duration", 0)
        return gifs[0].stat().st_size / 1e6, im.n_frames, ms / 1000


def measure(exe: str, case: str, tmp: Path) -> dict[str, float]:
    spec, options, pictures = CASES[case]
    puzzle = puzzle_file(spec, tmp)
    out = Path(tempfile.mkdtemp(dir=tmp))
    fig = run(exe, puzzle, options, out)
    files = [p for p in out.rglob("*") if p.is_file()]
    fig["files"] = len(files)
    fig["pngs"] = sum(1 for p in files if p.suffix == ".png" and not p.name.startswith("EXPLANATIONS"))
    fig["mb"] = sum(p.stat().st_size for p in files) / 1e6
    fig["gif_mb"], fig["gif_frames"], fig["gif_s"] = gif_figures(out)
    if pictures:
        fig["json_cpu"] = run(exe, puzzle, ["--json-only"], Path(tempfile.mkdtemp(dir=tmp)))["cpu"]
        fig["picture_cpu"] = fig["cpu"] - fig["json_cpu"]
    return fig


def show(label: str, case: str, f: dict[str, float]) -> None:
    line = (f"{case:9} {label:4} CPU {f['cpu']:7.1f} s  peak RSS {f['rss']:6.0f} MB  files {f['files']:5.0f} "
            f"({f['pngs']:.0f} frames, {f['mb']:.1f} MB)  GIF {f['gif_mb']:5.2f} MB, {f['gif_frames']:.0f} frames, "
            f"plays {f['gif_s'] / 60:.1f} min")
    if "picture_cpu" in f:
        line += f"  pictures {f['picture_cpu']:.1f} s (json-only {f['json_cpu']:.1f} s)"
    print(line, flush=True)


def fps_once(exe: str, n: int, tmp: Path) -> dict[str, float]:
    """Frames per CPU second on an n×n grid: frames written over the CPU of the frames
    alone (``--no-gif``, contact sheet included, minus ``--json-only``)."""
    puzzle = puzzle_file(FPS_CASES[n], tmp)
    out = Path(tempfile.mkdtemp(dir=tmp))
    drawn = run(exe, puzzle, ["--no-gif"], out)
    base = run(exe, puzzle, ["--json-only"], Path(tempfile.mkdtemp(dir=tmp)))["cpu"]
    frames = sum(1 for p in out.rglob("*.png") if not p.name.startswith("EXPLANATIONS"))
    cpu = max(1e-9, drawn["cpu"] - base)
    return {"frames": frames, "picture_cpu": cpu, "fps": frames / cpu, "rss": drawn["rss"]}


def medians(runs: list[dict[str, float]]) -> dict[str, float]:
    return {k: statistics.median(r[k] for r in runs) for k in runs[0]}


def ab(trees: list[tuple[str, str]], repeat: int, once: Callable[[str], dict[str, float]],
       show_one: Callable[[str, dict[str, float]], None], keys: Sequence[str]) -> None:
    """``repeat`` rounds, the trees taking turns in each; the median of each tree, then the
    ratio this / ref of ``keys`` (the machine may be shared: medians of runs side by side)."""
    runs: dict[str, list[dict[str, float]]] = {label: [] for label, _ in trees}
    for _ in range(repeat):
        for label, exe in trees:
            runs[label].append(once(exe))
            if repeat > 1:  # each run as it ends (a long one is not lost if the rest is cut short)
                show_one(f"{label} run {len(runs[label])}", runs[label][-1])
    med = {label: medians(r) for label, r in runs.items()}
    for label, _ in trees:
        show_one(label + (f" median of {repeat}" if repeat > 1 else ""), med[label])
    if "ref" in med:
        print("  ratio this/ref: " + ", ".join(
            f"{k} {med['this'][k] / med['ref'][k]:.2f}" for k in keys if med["ref"].get(k)), flush=True)


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--ref", help="another tree's explain-sudoku, run after this one on each case")
    ap.add_argument("--case", action="append", choices=sorted(CASES), help="cases to run (default: all)")
    ap.add_argument("--ref-case", action="append", choices=sorted(CASES),
                    help="cases the other tree runs (default: the same)")
    ap.add_argument("--repeat", type=int, default=1,
                    help="rounds, the trees taking turns in each: medians and ratios printed (default 1)")
    ap.add_argument("--fps", action="store_true", help="frames per CPU second per grid size")
    ap.add_argument("--sizes", type=int, nargs="+", choices=sorted(FPS_CASES), default=sorted(FPS_CASES),
                    help="the grid sizes --fps measures (default: all)")
    args = ap.parse_args()
    here = str(Path(sys.executable).with_name("explain-sudoku"))
    trees = [("this", here)] + ([("ref", args.ref)] if args.ref else [])
    for _, exe in trees:
        bytecode_ready(exe)
    print(f"load average {os.getloadavg()[0]:.1f} on {os.cpu_count()} cores", flush=True)
    with tempfile.TemporaryDirectory() as t:
        tmp = Path(t)
        if args.fps:
            for n in args.sizes:
                ab(trees, args.repeat, lambda exe, n=n: fps_once(exe, n, tmp),
                   lambda label, f, n=n: print(
                       f"  {n:2}x{n:<2} {label:16} {f['frames']:4.0f} frames, {f['picture_cpu']:6.1f} CPU s on "
                       f"pictures: {f['fps']:5.1f} frames per CPU second, peak RSS {f['rss']:.0f} MB", flush=True),
                   ("picture_cpu", "fps", "rss"))
            return
        for case in args.case or list(CASES):
            chosen = [(label, exe) for label, exe in trees
                      if not (label == "ref" and args.ref_case and case not in args.ref_case)]
            ab(chosen, args.repeat, lambda exe, case=case: measure(exe, case, tmp),
               lambda label, f, case=case: show(label, case, f), ("cpu", "picture_cpu", "rss"))

if __name__ == "__main__":
    main()
