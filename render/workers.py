"""The work done in forked processes: turning scenes into pixels, and the heavy exporters.

``write_exporters`` runs a puzzle's exporters. With cores to spare, worker
processes (fork) each keep one ``FrameRenderer`` (one figure, its static grid
drawn once before the fork) and, frame by frame, lay out the scene, turn it
into pixels, write the frame file and send back the frame reduced for the
GIF, contact sheet and viewer, and for the video (``Pixels``). The parent
takes them in frame order and hands each to the exporters that stream (GIF,
video, contact sheet, viewer), which encode it at once: at most ``WINDOW``
frames per worker are on their way, so memory does not grow with the number
of frames. The exporters whose work is heavy and independent (the workbook)
run in the same pool, side by side with the frames. What a forked worker
needs is left in a module global (``_JOB``, ``_EXPORT``) before the fork and
cleared after.
"""
from __future__ import annotations

import contextlib
import dataclasses
import gc
import os
import sys
import threading
import time
from collections import deque
from collections.abc import Callable, Iterator, Sequence
from typing import Any

from .job import Exporter, Job, Pixels, Sink, Written

_JOB: dict[str, Any] = {}
WINDOW = 3  # frames on their way per worker: the parent holds at most this many results


def _render_one(i: int) -> tuple[int, Pixels]:
    """Frame ``i`` of ``_JOB``'s plan: its scene laid out and drawn, its file written, its
    reduced copies (``Pixels``) returned."""
    from .frame import THUMB_STEPS, palette_bytes, quantize_image, quantize_rows, remap, rows_image
    from .pngwrite import save_palette_png, write_rows
    from .sheet import rows_and_tile, sheet_tile

    job = _JOB
    r = job["renderer"]
    sc = job["plan"][i].scene
    path = job["paths"][i]
    if path is not None and job["fmt"] == "svg":
        with open(path, "wb") as f:
            f.write(r.svg(sc))
    thumb, video, tiled = job["thumb"], job["video"], job["tile"][0]
    if job["thumb_frames"] is not None and i not in job["thumb_frames"]:
        thumb = 0  # a frame the GIF does not show
    if not (thumb or video or tiled or path is not None and job["fmt"] == "png"):
        return i, Pixels(legend=sc.text("legend"))
    with r.rgba(sc) as im:  # the canvas's own pixels, read before the next frame draws over them
        full = None  # the frame on the theme's palette (its PNG file)
        reduced: dict[int, Any] = {1: im}  # the frame reduced by a whole factor, made once for all
        tile = None
        if path is not None and job["fmt"] == "png":
            # the compiled palette lookup straight from the canvas into the PNG's rows, else
            # Pillow's (the same indices); ISA-L's deflate: 4x faster than Pillow's zlib level 1
            # looked up over the layer the frame was drawn on: the chunks where it differs
            # marked, the next frame puts back only those (``FrameRenderer.over``)
            over = r.over()
            if over is not None:  # nothing reads the canvas after the lookup: it puts the layer back
                over.restore = thumb <= 1 and video <= 1  # (else the GIF's or video's frame is reduced from it)
            both = rows_and_tile(r.canvas.buffer_rgba(), im.size, r.theme, job["tile"], over) if tiled else None
            rows: bytes | None = None
            if both is not None:  # in one pass over the canvas: its rows in the cache once
                rows, tile = both
            else:
                if over is not None and tiled:  # the tile is made from the canvas below
                    over.restore = False
                rows = quantize_rows(r.canvas.buffer_rgba(), im.size, r.theme, over=over)
            if rows is not None and over is not None:
                r.drawn_over(over)
            if rows is None:
                full = quantize_image(im, r.theme)
                save_palette_png(full, path)
            else:
                write_rows(path, rows, im.size, palette_bytes(r.theme, None, padded=True))
                if thumb == 1 or video == 1:  # the indices as an image, without the filter bytes
                    full = rows_image(rows, im.size, r.theme)
        t = v = b""
        tsize = vsize = (0, 0)
        if thumb:
            if thumb == 1 and full is not None:  # the same pixels on the thumbnails' fewer colours
                small = remap(full, r.theme, THUMB_STEPS)
            else:
                reduced[thumb] = im.reduce(thumb) if thumb > 1 else im
                small = quantize_image(reduced[thumb], r.theme, THUMB_STEPS)
            t, tsize = small.tobytes(), small.size
        if video:
            frame = full if video == 1 and full is not None else quantize_image(
                im.reduce(video) if video > 1 else im, r.theme)
            v, vsize = frame.tobytes(), frame.size
        tb = b""
        tbsize = (0, 0)
        if tiled:  # the contact sheet's tile, from the frame's own pixels (not drawn again)
            if tile is None:
                tile = sheet_tile(im, job["tile"], r.theme, reduced, r.canvas.buffer_rgba())
            tb, tbsize = tile.tobytes(), tile.size
    return i, Pixels(t, tsize, v, vsize, sc.text("legend"), tb, tbsize)


# A worker's result crosses a pipe whose buffer holds 64 KB: a larger one (a 16x16 frame's
# contact-sheet tile is 252 KB, its GIF thumbnail 655 KB) is written in several turns, and while
# it lies there half read the pool's worker-handler thread, woken by the results queue being
# readable, loops without sleeping (multiprocessing.Pool waits on that queue's reader): 1.2 ms of
# the parent's CPU a result of 252 KB against 0.05 ms for one under 64 KB (300 results of a
# worker busy 15 ms each). The reduced frames are long runs of a few palette indices: compressed
# (ISA-L, level 1) a tile is 35 kB, made in 0.17 ms and read back in 0.14 ms.
PACK_BYTES = 32 * 1024  # a field this large or larger is sent compressed
PACKED = ("thumb", "video", "tile")  # Pixels' fields of pixels


class TileSlots:
    """Memory shared with the forked workers (an anonymous shared mapping, made before the
    fork) where each frame's contact-sheet tile is put rather than sent through the pipe:
    compressing it there and inflating it here cost about 0.8 ms of CPU a frame (16x16-hard:
    0.6 s of the run). Frame ``k`` uses slot ``k % count``: the parent takes the results in
    frame order, with at most ``count - 1`` frames on their way beyond the one it reads
    (``WINDOW`` a worker), so no two frames in flight share a slot."""

    def __init__(self, count: int, size: int) -> None:
        import mmap

        self.count, self.size = count, size
        self.memory = mmap.mmap(-1, count * size)  # MAP_SHARED: the workers write, the parent reads

    def put(self, k: int, data: bytes) -> bool:
        """``data`` in frame ``k``'s slot; False when it does not fit (then sent packed)."""
        if len(data) > self.size:
            return False
        at = (k % self.count) * self.size
        self.memory[at:at + len(data)] = data
        return True

    def take(self, k: int, n: int) -> bytes:
        at = (k % self.count) * self.size
        return self.memory[at:at + n]

    def close(self) -> None:
        self.memory.close()


def pack(result: tuple[int, Pixels], slots: TileSlots | None = None) -> tuple[int, Pixels, dict[str, bytes], int]:
    """A worker's result made small for the pipe: its large fields of pixels compressed, apart
    (by the PNG writer's deflate), the tile put in its slot when there are ``slots`` (its length
    sent; -1: not in a slot)."""
    from .pngwrite import default_deflate

    k, px = result
    in_slot = -1
    if slots is not None and px.tile and slots.put(k, px.tile):
        in_slot = len(px.tile)
        px = dataclasses.replace(px, tile=b"")
    deflate = default_deflate()
    big = {name: deflate(data) for name in PACKED if len(data := getattr(px, name)) >= PACK_BYTES}
    emptied: dict[str, Any] = dict.fromkeys(big, b"")
    return k, dataclasses.replace(px, **emptied), big, in_slot


def unpack(sent: tuple[int, Pixels, dict[str, bytes], int], slots: TileSlots | None = None) -> tuple[int, Pixels]:
    """``pack``'s result as the worker made it."""
    from .pngwrite import inflate

    k, px, big, in_slot = sent
    full: dict[str, Any] = {name: inflate(data) for name, data in big.items()}
    if in_slot >= 0:
        assert slots is not None, "a tile sent in a slot, read without the slots"
        full["tile"] = slots.take(k, in_slot)
    return k, dataclasses.replace(px, **full) if full else px


def _render_sent(i: int) -> tuple[int, Pixels, dict[str, bytes], int]:
    """Frame ``i`` drawn in a worker (``_render_one``), packed for the pipe."""
    return pack(_render_one(i), _JOB.get("slots"))


def render_frames(job: Job, workers: int, progress: Callable[[int, int], None] | None = None,
                  side: Sequence[int] = (),
                  side_done: dict[int, tuple[list[str], dict[str, Any]]] | None = None) -> Iterator[tuple[int, Pixels]]:
    """``(k, pixels)`` for every frame ``k`` of the job, in order; then the side exporters
    (indices into ``_EXPORT``'s exporters) are waited for, their files and record fields put
    in ``side_done``. The frames are drawn in forked workers when there are cores and frames
    enough (the side exporters run in the same pool), else here."""
    import multiprocessing as mp

    from .frame import FrameRenderer

    global _JOB
    done_side = side_done if side_done is not None else {}
    o = job.options
    # the renderer is built and primed (static grid drawn) once, here; forked workers
    # inherit it ready to use: one figure per worker
    r = FrameRenderer(job.puzzle.grid.n, o.theme, o.dpi, o.size, keep_values=True)
    r._prime()
    _JOB = {"theme": o.theme, "fmt": o.fmt, "thumb": job.thumb, "video": job.video, "tile": job.tile,
            "thumb_frames": job.thumb_frames, "plan": job.plan,
            "paths": job.frame_paths, "renderer": r}
    total = len(job.plan)
    pool = None
    slots: TileSlots | None = None
    try:
        if workers > 1 and (total >= 8 or side) and "fork" in mp.get_all_start_methods():
            if job.tile[0]:  # made before the fork: the workers inherit the shared mapping
                slots = _JOB["slots"] = TileSlots(WINDOW * workers + 1, job.tile[0] * job.tile[1])
            # the first frame drawn here fills the caches (glyph outlines, palettes) the workers
            # then inherit; the objects made so far are frozen out of the collector, whose
            # passes would otherwise write to (and so copy) every page of them in each worker
            yield _render_one(0)
            if progress:
                progress(1, total)
            gc.freeze()
            pool = mp.get_context("fork").Pool(workers, initializer=end_with_parent, initargs=(os.getpid(),))
            started = list(getattr(pool, "_pool", ()))  # its workers: one ending before close died
            waiting = {k: pool.apply_async(_export_one, (k,)) for k in side}
            pending: deque[Any] = deque()
            ahead = 1
            for done in range(2, total + 1):
                while ahead < total and len(pending) < WINDOW * workers:
                    pending.append(pool.apply_async(_render_sent, (ahead,)))
                    ahead += 1
                yield unpack(_result(pending.popleft(), started), slots)
                if progress:
                    progress(done, total)
            for k, res in waiting.items():
                done_side[k] = _result(res, started)
        else:
            for k in range(total):
                yield _render_one(k)
                if progress:
                    progress(k + 1, total)
            for k in side:
                done_side[k] = _export_one(k)
    finally:
        if pool is not None:
            end_pool(pool, failed=sys.exc_info()[0] is not None)
            gc.unfreeze()
        if slots is not None:
            slots.close()
        _JOB = {}


def end_with_parent(parent: int) -> None:
    """A drawing worker ends, silently, when the run that started it is gone (``kill -9`` of the
    main process alone): Linux's parent-death signal, SIGKILL. Without it the orphan went on
    drawing and printed a BrokenPipeError traceback for each result it could not send."""
    import ctypes
    import signal

    try:
        libc = ctypes.CDLL(None, use_errno=True)
        libc.prctl(1, int(signal.SIGKILL), 0, 0, 0)  # PR_SET_PDEATHSIG
    except (OSError, AttributeError):  # not Linux: the orphan's own broken pipe ends it
        return
    if os.getppid() != parent:  # the parent died before the signal was asked for
        os._exit(0)


class WorkerLost(RuntimeError):
    """A drawing worker process ended while the run was waiting for its work."""


def _result(res: Any, started: Sequence[Any]) -> Any:
    """``res.get()``, but an error instead of waiting for ever when a worker has died (a pool
    replaces a dead worker and never hands its task to another: the result would never come,
    and a worker killed while holding the task queue's lock leaves its siblings waiting too)."""
    import multiprocessing as mp

    while True:
        try:
            return res.get(timeout=0.5)
        except mp.TimeoutError:
            dead = [p for p in started if p.exitcode is not None]
            if dead:
                code = dead[0].exitcode
                raise WorkerLost(f"a drawing worker process ended unexpectedly (exit code {code})") from None


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
    """The palette of the reduced frames (``Pixels.thumb``), as a 'P' image."""
    from .frame import THUMB_STEPS, _palette

    return _palette(theme, THUMB_STEPS)


# Exporters whose work is heavy and independent of the frames' pixels (the workbook draws
# its own vector frames): with two cores or more they run in the workers' pool.
PARALLEL_EXPORTERS = frozenset({"pdf"})
_EXPORT: dict[str, Any] = {}


def _export_one(k: int) -> tuple[list[str], dict[str, Any]]:
    """Run exporter ``k`` of ``_EXPORT`` (in a forked worker): its files and record fields."""
    e, job = _EXPORT["exporters"][k], _EXPORT["job"]
    fresh = Written(str(job.out))
    r = Written(str(job.out))
    files = [str(p) for p in e.write(job, r)]
    return files, {key: v for key, v in vars(r).items() if v != getattr(fresh, key) and key != "files"}


def write_exporters(exporters: Sequence[Exporter], job: Job, rec: Written, workers: int,
                    progress: Callable[[int, int], None] | None = None) -> None:
    """Every exporter's files, in exporter order in ``rec.files``: the frames drawn once and
    streamed to the exporters that take them as they come, the heavy independent ones
    side by side with them (the same files either way)."""
    global _EXPORT
    sinks: dict[int, Sink] = {}
    side = [k for k, e in enumerate(exporters) if e.key in PARALLEL_EXPORTERS and not e.streams]
    out: dict[int, list[str]] = {}
    # thumb: GIF, inlined viewer; tile: the contact sheet
    drawing = job.options.frames or bool(job.thumb) or bool(job.video) or bool(job.tile[0])
    try:
        if drawing:
            _EXPORT = {"exporters": list(exporters), "job": job}
            side_done: dict[int, tuple[list[str], dict[str, Any]]] = {}
            for k, pixels in render_frames(job, workers, progress, side, side_done):
                if k == 0:  # opened once the workers are forked: they inherit no open output
                    sinks = {j: e.start(job) for j, e in enumerate(exporters) if e.streams}
                for sink in sinks.values():
                    sink.add(k, job.plan[k], pixels)
            for k, (files, fields) in side_done.items():
                for key, v in fields.items():
                    setattr(rec, key, v)
                out[k] = files
            for k, sink in list(sinks.items()):
                out[k] = [str(p) for p in sink.finish(rec)]
                del sinks[k]
        for k, e in enumerate(exporters):
            if k not in out:
                out[k] = [str(p) for p in (e.start(job).finish(rec) if e.streams else e.write(job, rec))]
            rec.files += out[k]
    finally:
        for sink in sinks.values():  # an error or an interrupt: close what is open
            sink.abort()
        _EXPORT = {}
