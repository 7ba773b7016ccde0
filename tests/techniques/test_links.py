from explainer.model.session import Session
from techniques.links import Links, links
from tests.techniques.chain_fixtures import cell_index, open_grid


def idx(lk: Links, name: str, v: int) -> int:
    return lk.index(cell_index(name), v)


def test_strong_links_are_bivalue_cells_and_bilocal_values():
    state = open_grid({"r9c9": "45"}, keep={"1 col1": ["r1c1", "r5c1"]})
    lk = links(state)
    pairs = {tuple(sorted((lk.cand(a), lk.cand(b)))) for a, b in lk.strong_pairs}
    assert pairs == {((0, 0, 1), (4, 0, 1)), ((8, 8, 4), (8, 8, 5))}
    assert lk.is_strong(idx(lk, "r1c1", 1), idx(lk, "r5c1", 1))
    assert lk.is_strong(idx(lk, "r9c9", 5), idx(lk, "r9c9", 4))
    assert not lk.is_strong(idx(lk, "r1c1", 1), idx(lk, "r1c2", 1))


def test_weak_links_same_cell_and_same_value_peers():
    state = open_grid({"r9c9": "45"}, keep={"1 col1": ["r1c1", "r5c1"]})
    lk = links(state)
    a = idx(lk, "r1c1", 1)
    weak = {lk.cand(j) for j in range(9 * 81) if lk.is_weak(a, j)}
    same_cell = {(0, 0, v) for v in range(2, 10)}
    row = {(0, c, 1) for c in range(1, 9)}
    box = {(r, c, 1) for r in (1, 2) for c in (1, 2)}
    col = {(4, 0, 1)}  # the only other 1 of column 1
    assert weak == same_cell | row | box | col
    # a strong link is weak too, and the relation is symmetric
    assert lk.is_weak(idx(lk, "r5c1", 1), a)
    assert not lk.is_weak(a, a)
    assert lk.weak[idx(lk, "r9c9", 4)] == 1 << idx(lk, "r9c9", 5) | sum(
        1 << idx(lk, f"r{r}c{c}", 4) for r in range(1, 10) for c in range(1, 10)
        if (r, c) != (9, 9) and (r == 9 or c == 9 or (r > 6 and c > 6)))


def test_built_once_per_state_and_rebuilt_after_a_change():
    state = open_grid(keep={"1 col1": ["r1c1", "r5c1"]})
    session = Session(state)
    first = links(state, session)
    assert links(state, session) is first
    a = idx(first, "r9c9", 3)
    assert a in first.weak
    state.eliminate(cell_index("r9c9"), 3)
    again = links(state, session)
    assert again is not first and a not in again.weak
    assert a in first.weak  # a graph keeps the state it was made from, whatever happens after
    other = Session(state)
    assert links(state, other) is not again  # each session its own


def test_one_candidates_weak_links_are_its_entry_of_the_table():
    # medusa reads only its clusters' candidates (weak_of) instead of building the table
    from tests.core.states import SIZES, random_state

    for n in SIZES:
        state = random_state(n, 5, placed=0.3, keep=0.5)
        table = Links(state).weak
        alone = Links(state)
        assert {i: alone.weak_of(i) for i in table} == table
        assert alone._weak is None  # the table was never built
