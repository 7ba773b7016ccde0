import random

from explainer import Puzzle
from explainer.app.hints.pencilmarks import format_pencilmarks, parse_pencilmarks
from explainer.model.grid import bits, parse_grid
from explainer.model.state import State
from tests.conftest import SEED, top1465


def consistent(state: State) -> bool:
    """pos[] and cand[] describe the same candidates; placed cells have none."""
    geo = state.geo
    for v in range(1, geo.n + 1):
        from_cand = sum(1 << c for c in range(geo.ncells) if state.cand[c] >> (v - 1) & 1)
        if from_cand != state.pos[v - 1]:
            return False
    return all(not (state.values[c] and state.cand[c]) for c in range(geo.ncells)) and \
        state.unsolved == state.values.count(0)


def test_from_grid_removes_peers():
    s = State.from_grid(parse_grid(SEED))
    assert consistent(s)
    assert not s.has(1, 9)  # r1c2 sees the 9 of r1c1
    assert s.candidates(1) == [5, 6, 7]
    assert s.places(0, 9) == 0


def test_place_and_eliminate_keep_views_consistent():
    rng = random.Random(7)
    s = State.from_grid(parse_grid(top1465(1)[0]))
    sol = Puzzle(top1465(1)[0]).solution.values
    for _ in range(30):
        c = rng.choice([c for c in range(81) if not s.values[c]])
        if rng.random() < 0.5:
            s.place(c, sol[c])
        else:
            wrong = [v for v in s.candidates(c) if v != sol[c]]
            if wrong:
                assert s.eliminate(c, wrong[0]) is True
                assert s.eliminate(c, wrong[0]) is False
        assert consistent(s)
        if s.is_solved():
            break


def test_copy_is_independent():
    s = State.from_grid(parse_grid(SEED))
    t = s.copy()
    t.place(1, 5)
    assert s.values[1] == 0 and s.has(2, 5)
    assert consistent(s) and consistent(t)


def test_cached_is_rebuilt_after_a_change():
    s = State.from_grid(parse_grid(SEED))
    calls = []
    build = lambda st: calls.append(1) or len(calls)  # noqa: E731
    assert s.cached("k", build) == 1 and s.cached("k", build) == 1
    s.eliminate(1, 5)
    assert s.cached("k", build) == 2


def test_contradiction_reports_cell():
    s = State.from_grid(parse_grid(SEED))
    for v in s.candidates(1):
        s.eliminate(1, v)
    assert s.contradiction() == "r1c2 has no candidate left"


def test_pencilmarks_round_trip():
    p = Puzzle(SEED)
    s = p.state_before(12)
    again = parse_pencilmarks(format_pencilmarks(s))
    assert again.values == s.values and again.cand == s.cand
    line = s.to_candidates_line()
    assert len(line) == 729
    assert parse_pencilmarks(line).cand == s.cand


def test_bits():
    assert list(bits(0b101001)) == [0, 3, 5]
