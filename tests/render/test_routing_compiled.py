"""The compiled routing (explainer/core/_route.c) gives the routes of its pure twin
(render/routing.py) point for point and float for float: on the route requests of real
frames (recorded while their scenes are laid out) and on random obstacle sets, with the
hit tests, the lattice search and the fallback when no route is clear."""
from __future__ import annotations

import math
import os
import random
import subprocess
import sys
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from typing import Any

import pytest

import render.scene
from explainer import Puzzle, core
from render import routing
from render.plan import plan_frames
from render.routing import Obstacles, Point
from render.shapes import spot
from tests.conftest import ROOT, SEED

C = routing._C
compiled = pytest.mark.skipif(C is None, reason="compiled routing not built (or pure path forced)")

Request = tuple[Point, Point, Obstacles, frozenset[Any]]


@contextmanager
def pure() -> Iterator[None]:
    """The pure twin for the time of the block."""
    saved = routing._C
    routing._C = None
    try:
        yield
    finally:
        routing._C = saved


def both(f: Callable[[], Any]) -> tuple[Any, Any]:
    """``f()`` on the compiled path, then on the pure one."""
    got = f()
    with pure():
        return got, f()


def same_routes(requests: list[Request]) -> None:
    """Every request routed the same on both paths: the same points (the same floats, the
    same types), and the same lattice route and lattice path (most routes are found before
    the lattice is searched)."""
    assert C is not None
    for a, b, obs, ignore in requests:
        got, want = both(lambda: routing.route(a, b, obs, ignore))  # noqa: B023
        assert got == want and [type(p) for p in got] == [type(p) for p in want], (a, b, ignore)
        got, want = both(lambda: routing.lattice_route(a, b, obs, ignore))  # noqa: B023
        assert got == want, (a, b, ignore)
        with pure():
            path = routing._Lattice(a, b, obs, ignore).search(a, b)
        assert C.search(a, b, obs._index(), obs.n, obs.m, ignore) == (None if path is None else tuple(path))


def recorded(text: str, frames: slice) -> list[Request]:
    """The route requests (a, b, the obstacles as they were, ignore) made while the scenes of
    ``frames`` of the puzzle's frames are laid out."""
    p = Puzzle(text)
    plan = plan_frames(p)[frames]
    requests: list[Request] = []
    route = routing.route

    def record(a: Point, b: Point, obstacles: Obstacles, ignore: Any = frozenset()) -> tuple[Point, ...]:
        requests.append((a, b, obstacles.copy(), frozenset(ignore)))
        return route(a, b, obstacles, ignore)

    with pytest.MonkeyPatch.context() as m:
        m.setattr(routing, "route", record)  # proofdraw imports it when it draws
        m.setattr(render.scene, "route", record)
        for frame in plan:
            frame.scene
    return requests


def example(name: str) -> str:
    return next(line for line in (ROOT / "examples" / name).read_text().splitlines()
                if line.strip() and not line.startswith("#"))


@compiled
@pytest.mark.parametrize("text, frames, least", [(SEED, slice(0, 60), 40),
                                                 (example("16x16-hard.txt"), slice(0, 60), 40)])
def test_real_frames_get_the_same_routes(text: str, frames: slice, least: int) -> None:
    requests = recorded(text, frames)
    assert len(requests) >= least
    same_routes(requests)


@compiled
@pytest.mark.slow
@pytest.mark.parametrize("name", ["seed.txt", "16x16-hard.txt", "25x25-hard.txt"])
def test_every_frame_of_the_examples_gets_the_same_routes(name: str) -> None:
    """Every frame (16x16-hard: 1339 routes; 25x25-hard: 3218, about a minute on the pure path)."""
    requests = recorded(example(name), slice(None))
    assert requests
    same_routes(requests)


def frame_like(n: int, rnd: random.Random) -> Obstacles:
    """Obstacles as a frame makes them: big digits, every candidate of the other cells, a
    few marked cells and extra boxes (an arrow kept clear of)."""
    obs = Obstacles(n)
    for r in range(n):
        for c in range(n):
            if rnd.random() < 0.3:
                obs.add_value(r, c)
            else:
                for v in range(1, n + 1):
                    if rnd.random() < 0.35:
                        obs.add_plain_candidate(r, c, v)
    for _ in range(3):
        obs.add_cell(rnd.randrange(n), rnd.randrange(n), ("cell", rnd.randrange(n), rnd.randrange(n)))
    for k in range(8):
        obs.add(rnd.uniform(0, n), rnd.uniform(0, n), 0.035, 0.035, routing.LIGHT, ("arrow", 1, k))
    return obs


@compiled
@pytest.mark.parametrize("n", [4, 9, 16, 25])
def test_random_obstacles_get_the_same_routes(n: int) -> None:
    rnd = random.Random(43 + n)
    obs = frame_like(n, rnd)
    requests: list[Request] = []
    for _ in range(12 if n == 25 else 30):
        a, b = (rnd.randrange(n), rnd.randrange(n), rnd.randrange(1, n + 1)), \
               (rnd.randrange(n), rnd.randrange(n), rnd.randrange(1, n + 1))
        ignore = frozenset({a, b, ("cell", a[0], a[1]), ("cell", b[0], b[1]), (a[0], a[1])})
        requests.append((spot(n, *a), spot(n, *b), obs, ignore if rnd.random() < 0.8 else frozenset()))
    same_routes(requests)


@compiled
def test_a_walled_in_end_falls_back_to_the_least_bad_route_on_both_paths() -> None:
    """No clear route at all (the start is walled in by big digits): the compiled search says
    None and route ranks every candidate by cost, as the pure path does."""
    assert C is not None
    obs = Obstacles(9)
    for r in range(9):
        for c in range(9):
            if (r, c) != (4, 4):
                obs.add_value(r, c)
    obs.add(4.5, 4.5, 0.49, 0.49, routing.HEAVY, "wall")
    a, b = spot(9, 4, 4, 5), spot(9, 0, 0, 1)
    assert C.route(a, b, obs._index(), 9, 3, frozenset(), routing.disk_r(3)) is None
    got, want = both(lambda: routing.route(a, b, obs))
    assert got == want
    assert routing.lattice_route(a, b, obs) is None


@compiled
def test_hit_tests_answer_the_same_on_random_routes() -> None:
    """``clear``, ``cost`` (whole, and stopped early) and ``hides_grid_line`` on random
    straight, curved and two-piece routes, with and without ignored keys."""
    rnd = random.Random(41)
    for n in (4, 9, 16, 25):
        obs = frame_like(n, rnd)
        keys = [box[5] for boxes in obs.cells.values() for box in boxes]
        for _ in range(250):
            k = rnd.choice((2, 3, 5, 7))
            if rnd.random() < 0.3:  # along a grid line, where hides_grid_line answers yes
                x = float(rnd.randrange(n + 1)) + rnd.uniform(-0.05, 0.05)
                pts = tuple((x + rnd.uniform(-0.02, 0.02), rnd.uniform(0, n)) for _ in range(k))
            else:
                pts = tuple((rnd.uniform(-0.2, n + 0.2), rnd.uniform(-0.2, n + 0.2)) for _ in range(k))
            ignore = frozenset(rnd.sample(keys, 5)) if rnd.random() < 0.5 else frozenset()
            got, want = both(lambda: obs.clear(pts, ignore))  # noqa: B023
            assert got == want, pts
            for stop in (None, 0, 5):
                got, want = both(lambda: obs.cost(pts, ignore, stop))  # noqa: B023
                assert got == want, (pts, stop)
            got, want = both(lambda: routing.hides_grid_line(pts, obs.m))  # noqa: B023
            assert got == want, pts


def test_python_dist_is_hypot_of_the_differences() -> None:
    """The compiled routing computes ``math.dist(p, q)`` as ``math.hypot(p - q)`` (it calls
    math.hypot: CPython's own algorithm, not the C library's): the same float."""
    rnd = random.Random(7)
    for _ in range(20000):
        p = (rnd.uniform(-30, 30), rnd.uniform(-30, 30))
        q = (rnd.uniform(-30, 30), rnd.uniform(-30, 30)) if rnd.random() < 0.9 else (p[0], rnd.uniform(-1, 1))
        assert math.dist(p, q) == math.hypot(p[0] - q[0], p[1] - q[1])


@compiled
def test_bad_arguments_raise() -> None:
    assert C is not None
    obs = Obstacles(9)
    with pytest.raises(TypeError):
        C.clear([[]] * 80, 9, 3, ((0.5, 0.5), (1.5, 1.5)), frozenset())
    with pytest.raises(ValueError):
        C.clear(obs._index(), 9, 3, ((0.5, 0.5),), frozenset())
    obs.cells[(0, 0)].append((0.5, 0.5, 0.1))  # type: ignore[arg-type]
    with pytest.raises(TypeError):
        C.clear(obs._index(), 9, 3, ((0.1, 0.5), (0.9, 0.5)), frozenset())
    with pytest.raises(OverflowError):
        C.hides_grid_line(((0.0, 0.0), (math.inf, 1.0)), 3, 0.06, 0.6)


def test_the_pure_path_can_be_forced() -> None:
    env = dict(os.environ, **{core.PURE_ENV: "1"})
    out = subprocess.run([sys.executable, "-c", "from render import routing; print(routing._C)"],
                         env=env, capture_output=True, text=True, check=True, cwd=ROOT)
    assert out.stdout.strip() == "None"
