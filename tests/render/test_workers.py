"""A failed or interrupted run ends its worker pool in bounded time (issue 36, item 6)."""
from __future__ import annotations

import subprocess
import sys
import textwrap
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]

# A worker killed while sending a result leaves the result queue's lock taken: here the test
# takes it itself, then ends the pool as a run does on Ctrl-C. Pool.terminate alone waits for
# ever in this state; end_pool must return, every worker gone.
PROGRAM = textwrap.dedent("""
    import multiprocessing as mp, os, sys, time
    sys.path.insert(0, sys.argv[1])
    from render.workers import STOP_WAIT, end_pool

    def nap(x):
        time.sleep(0.2)
        return x

    pool = mp.get_context("fork").Pool(2)
    pool._outqueue._wlock.acquire()
    pool.map_async(nap, range(10))
    time.sleep(0.3)
    t0 = time.monotonic()
    end_pool(pool, failed=True)
    took = time.monotonic() - t0
    time.sleep(0.3)
    alive = [p.pid for p in pool._pool if p.is_alive()]
    print(f"{took:.2f} {len(alive)} {STOP_WAIT}")
    os._exit(0)
""")


@pytest.mark.skipif(sys.platform == "win32", reason="fork start method")
def test_an_interrupted_pool_ends_in_bounded_time(tmp_path: Path) -> None:
    script = tmp_path / "pool.py"
    script.write_text(PROGRAM)
    run = subprocess.run([sys.executable, str(script), str(ROOT)], capture_output=True, text=True, timeout=60)
    assert run.returncode == 0, run.stderr
    took, alive, wait = run.stdout.split()
    assert float(took) <= float(wait) + 1.0
    assert alive == "0"


def test_a_pool_that_succeeded_is_closed_and_joined() -> None:
    import multiprocessing as mp

    from render.workers import end_pool

    pool = mp.get_context("fork").Pool(2)
    assert pool.map(abs, [-1, -2]) == [1, 2]
    end_pool(pool, failed=False)
    assert all(not p.is_alive() for p in pool._pool)


def test_a_worker_that_dies_is_an_error_not_a_wait() -> None:
    """A pool never gives a dead worker's task to another: waiting for its result would last for
    ever. The run's wait notices the death and raises."""
    import multiprocessing as mp
    import os
    import time

    from render.workers import WorkerLost, _result, end_pool

    pool = mp.get_context("fork").Pool(2)
    started = list(pool._pool)
    res = pool.apply_async(os._exit, (3,))
    t0 = time.monotonic()
    with pytest.raises(WorkerLost, match="exit code 3"):
        _result(res, started)
    assert time.monotonic() - t0 < 10
    end_pool(pool, failed=True)


def test_a_result_crosses_the_pipe_packed_and_comes_out_the_same() -> None:
    """``pack`` compresses a worker's large fields of pixels (a 16x16 tile: 252 KB, so that the
    message fits the pipe's 64 KB buffer) and ``unpack`` gives back the result as it was made;
    small fields and the legend are sent as they are."""
    import pickle

    from render.job import Pixels
    from render.workers import PACK_BYTES, pack, unpack

    rng = __import__("random").Random(5)
    runs = bytearray()
    while len(runs) < 252_450:  # long runs of a few indices, as a reduced frame is
        runs += bytes([rng.choice((0, 0, 0, 3, 17, 200))]) * rng.randint(1, 400)
    tile = bytes(runs[:252_450])
    px = Pixels(thumb=b"\x05" * 100, thumb_size=(10, 10), legend="Disques barrés : retirés", tile=tile,
                tile_size=(495, 510), video=bytes(range(256)) * 200, video_size=(256, 200))
    sent = pack((7, px))
    assert sent[1].tile == b"" and sent[1].video == b"" and sent[1].thumb == px.thumb
    assert set(sent[2]) == {"tile", "video"} and sent[3] == -1
    assert len(pickle.dumps(sent)) < 64 * 1024
    assert unpack(sent) == (7, px)
    small = Pixels(tile=b"\x01" * (PACK_BYTES - 1), tile_size=(1, PACK_BYTES - 1))
    assert pack((1, small)) == (1, small, {}, -1)
    assert unpack(pack((1, small))) == (1, small)


def test_a_tile_crosses_in_its_slot_and_comes_out_the_same() -> None:
    """With ``TileSlots`` (shared memory made before the fork) a frame's tile is put in the slot
    of its number, not sent: the message holds its length only; the frames in flight at once
    (one slot each) keep their own tiles; a tile larger than a slot is sent packed."""
    import pickle

    from render.job import Pixels
    from render.workers import TileSlots, pack, unpack

    slots = TileSlots(3, 252_450)
    try:
        tiles = {k: bytes([k]) * 252_450 for k in (4, 5, 6)}
        sent = [pack((k, Pixels(tile=t, tile_size=(495, 510), legend="x")), slots) for k, t in tiles.items()]
        for s, (k, t) in zip(sent, tiles.items(), strict=True):
            assert s[1].tile == b"" and s[2] == {} and s[3] == len(t) and len(pickle.dumps(s)) < 1024
            assert unpack(s, slots) == (k, Pixels(tile=t, tile_size=(495, 510), legend="x"))
        big = Pixels(tile=b"\x02" * 252_451, tile_size=(1, 252_451))
        s = pack((7, big), slots)
        assert s[3] == -1 and "tile" in s[2] and unpack(s, slots) == (7, big)
    finally:
        slots.close()

