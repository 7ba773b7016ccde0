"""The work done in forked processes: turning scenes into pixels, and the heavy exporters.

``render_frames``: the scenes are built in the parent (pure Python); worker
processes (fork) each keep one ``FrameRenderer`` and turn scenes into pixels,
write the frame files and send back a reduced copy for the contact sheet and
the GIF. ``write_exporters``: the exporters whose work is heavy and
independent (GIF, contact sheet, workbook) run side by side. What a forked
worker needs is left in a module global (``_JOB``, ``_EXPORT``) before the
fork and cleared after.
"""
from __future__ import annotations

import contextlib
import os
import sys
import threading
import time
from collections.abc import Callable, Sequence
from typing import Any

from .job import Exporter, Job, Written
from .plan import Frame

_JOB: dict[str, Any] = {}


def _render_one(i: int) -> tuple[int, bytes, tuple[int, int]]:
    from .frame import THUMB_STEPS, FrameRenderer, quantize_image

    job = _JOB
    r = job.get("renderer")
    if r is None:
        r = job["renderer"] = FrameRenderer(job["n"], job["theme"], job["dpi"], job["size"])
    sc = job["scenes"][i]
    path = job["paths"][i]
    im = r.image(sc)
    if path is not None:
        if job["fmt"] == "svg":
            with open(path, "wb") as f:
                f.write(r.svg(sc))
        else:
            quantize_image(im, r.theme).save(path, format="PNG", compress_level=job["compress"])
    thumb = b""
    tsize = (0, 0)
    if job["thumb"]:
        t = im.reduce(job["thumb"]) if job["thumb"] > 1 else im
        t = quantize_image(t, r.theme, THUMB_STEPS)
        thumb, tsize = t.tobytes(), t.size
    return i, thumb, tsize


def render_frames(frames: list[Frame], paths: list[str | None], *, n: int, theme: Any, dpi: Any, size: Any,
                fmt: str, thumb: int, workers: int, progress: Callable[[int, int], None] | None,
                compress: int = 1) -> list[tuple[bytes, tuple[int, int]]]:
    import multiprocessing as mp

    from .frame import FrameRenderer

    global _JOB
    # the renderer is built and primed (static grid drawn) once, here; forked
    # workers inherit it ready to use
    r = FrameRenderer(n, theme, dpi, size)
    r._prime()
    _JOB = {"n": n, "theme": theme, "dpi": dpi, "size": size, "fmt": fmt, "thumb": thumb,
            "scenes": [f.scene for f in frames], "paths": paths, "compress": compress, "renderer": r}
    total = len(frames)
    out: list[Any] = [None] * total
    done = 0
    if workers > 1 and total >= 8 and "fork" in mp.get_all_start_methods():
        pool = mp.get_context("fork").Pool(workers)
        try:
            chunk = max(1, min(8, total // (workers * 4)))
            for i, data, tsize in pool.imap_unordered(_render_one, range(total), chunksize=chunk):
                out[i] = (data, tsize)
                done += 1
                if progress:
                    progress(done, total)
        finally:
            end_pool(pool, failed=sys.exc_info()[0] is not None)
    else:
        for k in range(total):
            i, data, tsize = _render_one(k)
            out[i] = (data, tsize)
            done += 1
            if progress:
                progress(done, total)
    _JOB = {}
    return out


STOP_WAIT = 3.0  # seconds a failed or interrupted pool's threads are given to end


def end_pool(pool: Any, failed: bool) -> None:
    """Close a worker pool: after success, wait for its workers; after an error or a signal
    (Ctrl-C, kill), kill its workers and give the pool's threads at most ``STOP_WAIT`` seconds.
    Why not ``Pool.terminate`` alone: the signal reaches the whole process group, and a worker
    it kills while sending a result dies holding the result queue's lock; ``terminate`` then
    waits for that lock, or joins a thread waiting for it, for ever: the run would never end."""
    if not failed:
        pool.close()
        pool.join()
        return
    stopper = threading.Thread(target=pool.terminate, name="end-pool", daemon=True)
    stopper.start()  # first, so that the pool starts no new worker in place of those killed here
    deadline = time.monotonic() + STOP_WAIT
    while True:
        for p in list(getattr(pool, "_pool", None) or ()):
            with contextlib.suppress(Exception):
                p.kill()
        stopper.join(0.1)
        if not stopper.is_alive() or time.monotonic() > deadline:
            break


def default_workers() -> int:
    try:
        cpus = len(os.sched_getaffinity(0))
    except AttributeError:  # pragma: no cover
        cpus = os.cpu_count() or 1
    return max(1, min(cpus, 4))


def palette_image(theme: Any) -> Any:
    from .frame import THUMB_STEPS, theme_palette

    return theme_palette(theme, THUMB_STEPS)



# Exporters whose work is heavy and independent (encoding the GIF, composing the sheet's
# pages): with two cores or more they run side by side in forked processes.
PARALLEL_EXPORTERS = frozenset({"gif", "contact", "pdf"})
_EXPORT: dict[str, Any] = {}


def _export_one(k: int) -> tuple[list[str], dict[str, Any]]:
    """Run exporter ``k`` of ``_EXPORT`` (in a forked worker): its files and record fields."""
    e, job = _EXPORT["exporters"][k], _EXPORT["job"]
    fresh = Written(str(job.out))
    r = Written(str(job.out))
    files = [str(p) for p in e.write(job, r)]
    return files, {key: v for key, v in vars(r).items() if v != getattr(fresh, key) and key != "files"}


def write_exporters(exporters: Sequence[Exporter], job: Job, rec: Written, workers: int) -> None:
    """Every exporter's files, in exporter order in ``rec.files``; the heavy ones in parallel
    when there are cores to spare (the same files either way)."""
    import multiprocessing as mp

    global _EXPORT
    heavy = [k for k, e in enumerate(exporters) if e.key in PARALLEL_EXPORTERS]
    results: dict[int, Any] = {}
    pool = None
    if workers > 1 and len(heavy) > 1 and "fork" in mp.get_all_start_methods():
        _EXPORT = {"exporters": list(exporters), "job": job}
        pool = mp.get_context("fork").Pool(min(workers, len(heavy)))
        results = {k: pool.apply_async(_export_one, (k,)) for k in heavy}
    try:
        for k, e in enumerate(exporters):
            if k in results:
                files, fields = results[k].get()
                for key, v in fields.items():
                    setattr(rec, key, v)
                rec.files += files
            else:
                rec.files += [str(p) for p in e.write(job, rec)]
    finally:
        if pool is not None:
            end_pool(pool, failed=sys.exc_info()[0] is not None)
            _EXPORT = {}
