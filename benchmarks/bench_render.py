"""Renderer benchmark: frames per second and seconds for one puzzle's full set.

    python benchmarks/bench_render.py [--puzzle LINE] [--steps 89] [--repeat 3]

Prints, for the seed example and for a top1465 puzzle with about 89 steps
(the seed's step count): the step count, the seconds for the full set
(frames + EXPLANATIONS.png + GIF + steps.json, explanation already computed,
imports warm), frames per second of the whole write, one-core frames/s of
drawing alone, and the GIF size.
"""
from __future__ import annotations

import argparse
import os
import sys
import tempfile
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from explainer import Puzzle  # noqa: E402
from render.export import write_puzzle  # noqa: E402
from render.frame import FrameRenderer  # noqa: E402
from render.scene import scene  # noqa: E402

SEED = "9..3....41...2...5..2...3.12..6.9..36.9.5.............48.9...7........4....81...."
TOP1465 = Path(__file__).resolve().parents[2] / "shared" / "data" / "top1465.txt"


def find_long(target: int, limit: int = 300) -> str | None:
    """The first top1465 puzzle (in file order) whose explanation is closest to ``target`` steps."""
    if not TOP1465.exists():
        return None
    best, best_d = None, None
    for k, line in enumerate(TOP1465.read_text().split()):
        if k >= limit:
            break
        p = Puzzle(line.strip())
        d = abs(len(p.steps) - target)
        if best_d is None or d < best_d:
            best, best_d = line.strip(), d
            if d == 0:
                break
    return best


def bench(line: str, repeat: int, label: str) -> None:
    p = Puzzle(line)
    p.steps
    best = None
    with tempfile.TemporaryDirectory() as tmp:
        cpu = []
        for _ in range(repeat):
            t0 = os.times()
            rec = write_puzzle(p, tmp)
            t1 = os.times()
            cpu.append(sum(getattr(t1, k) - getattr(t0, k)
                           for k in ("user", "system", "children_user", "children_system")))
            best = rec if best is None or rec.seconds < best.seconds else best
        r = FrameRenderer(p.n)
        scenes = [scene(s.before, s, number=k + 1, givens=p.grid.values) for k, s in enumerate(p.steps)]
        r.image(scenes[0])
        t = time.perf_counter()
        for sc in scenes:
            r.image(sc)
        draw_fps = len(scenes) / (time.perf_counter() - t)
    frames = len(best.frames)
    print(f"{label}: {len(p.steps)} steps, {frames} frames")
    print(f"  full set (frames + EXPLANATIONS.png + GIF + steps.json): {best.seconds:.2f} s "
          f"(best of {repeat}), {frames / best.seconds:.1f} frames/s")
    print(f"  CPU seconds (all processes) per full set: {min(cpu):.2f} s; load average now "
          f"{os.getloadavg()[0]:.1f} on {os.cpu_count()} cores (wall time suffers when others share them)")
    print(f"  drawing only, one core: {draw_fps:.1f} frames/s")
    print(f"  GIF: {best.gif_bytes / 1e6:.2f} MB")


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--puzzle", help="a puzzle line instead of the defaults")
    ap.add_argument("--steps", type=int, default=89, help="pick a top1465 puzzle with about this many steps")
    ap.add_argument("--repeat", type=int, default=3)
    a = ap.parse_args()
    if a.puzzle:
        bench(a.puzzle, a.repeat, "puzzle")
        return
    bench(SEED, a.repeat, "seed example")
    long = find_long(a.steps)
    if long:
        bench(long, a.repeat, f"top1465 puzzle {long}")


if __name__ == "__main__":
    main()
