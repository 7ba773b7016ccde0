"""Lines never cross a given or placed digit, nor a candidate that is not theirs
(RENDERING.md wave 2), measured on the chain frames of real puzzles."""
import math

import pytest

from explainer.api import Puzzle
from render.routing import Obstacles, route, sample
from render.scene import scene, spot
from render.sizes import VALUE_H, VALUE_W, cand_h, disk_r
from tests.conftest import SEED, top1465

# top1465 lines whose frames crossed digits before (issue 13): f431 step 36, f12 step 52 …
LINES = (431, 12, 36, 65)
# links drawn curved by the router these frames had before wave 2 (it let 650 lines
# cross big digits over a wider sample); the new router must not need more
CURVES_BEFORE = 101


def crossings(sc):
    """(links, curved links, big digits crossed, candidates crossed) of a scene, with
    glyph-sized boxes (the router's boxes are a little larger)."""
    n, m = sc.n, sc.m
    big = [(s.col + 0.5, s.row + 0.5) for s in sc if s.kind == "value"]
    cands = [spot(n, s.row, s.col, s.value) for s in sc
             if s.kind in ("candidate", "disk", "ring", "light", "struck", "struck-ring")]
    hw_c, hh_c = 0.3 * cand_h(m), 0.5 * cand_h(m)
    links = curves = digits = small = 0
    for s in sc:
        if s.kind not in ("strong", "weak", "arrow"):
            continue
        if int(s.points[0][0]) == int(s.points[-1][0]) and int(s.points[0][1]) == int(s.points[-1][1]):
            continue  # a link inside one cell: an arc between two of its candidates
        links += 1
        curves += len(s.points) > 2
        ends = (s.points[0], s.points[-1])
        mine = [c for c in cands if any(math.dist(c, e) <= disk_r(m) * 1.01 for e in ends)]
        hit_b, hit_c = set(), set()
        for x, y in sample(s.points, 2 * m):
            for k, (bx, by) in enumerate(big):
                if abs(x - bx) < VALUE_W / 2 and abs(y - by) < VALUE_H / 2:
                    hit_b.add(k)
            for c in cands:
                if c not in mine and abs(x - c[0]) < hw_c and abs(y - c[1]) < hh_c:
                    hit_c.add(c)
        digits += len(hit_b)
        small += len(hit_c)
    return links, curves, digits, small


@pytest.fixture(scope="module")
def chain_frames():
    frames = []
    for text in [SEED] + top1465(*LINES):
        p = Puzzle(text, order="seed")
        for k, st in enumerate(p.steps):
            if st.strong_links or st.weak_links:
                frames.append(scene(st.before, st, number=k + 1, givens=p.grid.values))
    return frames


def test_no_line_crosses_a_digit(chain_frames):
    total = [0, 0, 0, 0]
    for sc in chain_frames:
        total = [a + b for a, b in zip(total, crossings(sc), strict=True)]
    links, curves, digits, small = total
    print(f"\n{len(chain_frames)} chain frames, {links} links: {curves} curved, "
          f"{digits} big digits crossed, {small} candidates crossed")
    assert links >= 150
    assert digits == 0
    assert small == 0
    assert curves < CURVES_BEFORE


def test_route_is_straight_in_free_space_and_bends_around_a_digit():
    ob = Obstacles(9)
    a, b = spot(9, 0, 0, 5), spot(9, 0, 4, 5)
    assert route(a, b, ob) == (a, b)
    ob.add_value(0, 2)
    pts = route(a, b, ob)
    assert len(pts) > 2 or pts != (a, b)
    assert ob.cost(pts)[0] == 0


def test_links_go_around_marked_cells_they_do_not_join():
    """Issue 41 (se_rated line 620, step 27, a wxyz wing): the 3–3 arc from the pivot r8c5 to
    the pincer r8c2 ran through the pincer r7c3 and over the removed r7c5, so it read as a link
    between them. A link crosses no cell the step marks other than its own two."""
    from explainer import Puzzle
    from render.routing import sample
    from render.scene import scene
    from tests.conftest import SHARED

    line = (SHARED / "data" / "se_rated.txt").read_text().splitlines()[619][:81]
    step = Puzzle(line).steps[26]
    assert step.technique == "wxyz wing"
    sc = scene(step.before, step, number=27)
    marked = {(s.row, s.col) for s in sc if s.row >= 0 and s.role not in ("candidate", "given", "earlier")}
    links = [s for s in sc if s.role == "link"]
    assert len(links) == 3
    for s in links:
        ends = {(int(y), int(x)) for x, y in (s.points[0], s.points[-1])}
        for x, y in sample(s.points):
            cell = (int(y), int(x))
            inside = 0.1 < x - int(x) < 0.9 and 0.1 < y - int(y) < 0.9
            assert not (inside and cell in marked - ends), (s.points, cell)


def test_clear_is_cost_zero_on_random_routes() -> None:
    """``Obstacles.clear`` (the routing's fast hit test) answers exactly ``cost(..., stop=0) == 0``
    for straight, curved and two-piece routes, with and without ignored keys."""
    import random

    rnd = random.Random(39)
    for n in (4, 9, 16):
        obs = Obstacles(n)
        for r in range(n):
            for c in range(n):
                if rnd.random() < 0.2:
                    obs.add_value(r, c)
                else:
                    for k in range(n):
                        if rnd.random() < 0.4:
                            obs.add_candidate(c + (k % 3 + 0.5) / 3, r + (k // 3 % 3 + 0.5) / 3, (r, c, k + 1))
        for _ in range(600):
            pts = tuple((rnd.uniform(-0.2, n + 0.2), rnd.uniform(-0.2, n + 0.2)) for _ in range(rnd.choice((2, 3, 5))))
            ignore = frozenset(rnd.sample(list(obs.cells), 2)) if rnd.random() < 0.5 else frozenset()
            assert obs.clear(pts, ignore) == (obs.cost(pts, ignore, stop=0)[0] == 0), pts
    fresh = Obstacles(9)
    assert fresh.clear(((0.1, 0.5), (0.9, 0.5)))
    fresh.add_value(0, 0)  # a box added after the first ``clear`` counts too
    assert not fresh.clear(((0.1, 0.5), (0.9, 0.5)))


def test_a_copy_and_its_original_keep_their_own_boxes() -> None:
    """``copy`` shares the cells' lists until one side adds to a cell: what one adds, the other
    never sees, in ``cells`` and in the lists the compiled routing reads (``_index``); a cell
    neither touched stays one list for both."""
    base = Obstacles(9)
    base.add_value(4, 4)
    base.add_plain_candidates(0, 0, 0b101)
    before = {cell: list(boxes) for cell, boxes in base.cells.items() if boxes}
    copy = base.copy()
    copy.add_value(0, 0)  # a cell with boxes already
    copy.add_candidate(7.5, 7.5, "k")  # an empty cell
    assert {cell: boxes for cell, boxes in base.cells.items() if boxes} == before
    assert [len(b) for b in base._index()] == [len(base.cells.get(divmod(i, 9), [])) for i in range(81)]
    assert copy.cells[(0, 0)] == [*before[(0, 0)], copy.cells[(0, 0)][-1]] and len(copy.cells[(7, 7)]) == 1
    assert copy._index()[0] is copy.cells[(0, 0)] and copy._index()[7 * 9 + 7] is copy.cells[(7, 7)]
    assert copy.cells[(4, 4)] is base.cells[(4, 4)]  # untouched: shared
    assert not copy.clear([(0.2, 0.5), (0.9, 0.5)]) and base.clear([(7.1, 7.5), (7.9, 7.5)])
    base.add_value(8, 8)  # and the other way round
    assert copy.cells[(8, 8)] == [] and len(base.cells[(8, 8)]) == 1 and base._index()[80] is base.cells[(8, 8)]
    again = copy.copy()
    again.add_value(4, 4, key="other")
    assert len(copy.cells[(4, 4)]) == len(base.cells[(4, 4)]) == 1 and len(again.cells[(4, 4)]) == 2
