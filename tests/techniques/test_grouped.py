"""Grouped chains: exact step, near misses, purity."""
from __future__ import annotations

from explainer.model.grid import bits
from techniques import chains
from techniques.grouped import find_grouped_chain
from tests.helpers import assert_pure
from tests.techniques.chain_fixtures import open_grid

# Row 1 holds its 1s only in r1c1 and the group r1c5-r1c6 (box 2); column 4 only in r3c4 and r8c4.
KEEP = {"1 row1": ["r1c1", "r1c5", "r1c6"], "1 col4": ["r3c4", "r8c4"]}


def test_grouped_chain():
    state = open_grid(keep=KEEP)
    assert list(chains.find(state)) == []  # no plain chain: the row-1 link needs the group
    s = next(find_grouped_chain(state))
    assert s.technique == "grouped chain"
    assert s.eliminate == ((7, 0, 1),)
    assert s.cells_alt == ((0, 4), (0, 5))
    assert s.marked == ((0, 0, 1), (0, 4, 1), (0, 5, 1), (2, 3, 1), (7, 3, 1))
    assert s.strong_links == (((0, 0, 1), (0, 4, 1)), ((2, 3, 1), (7, 3, 1)))
    assert s.weak_links == (((0, 4, 1), (2, 3, 1)),)
    assert s.get("groups") == (((0, 4, 1), (0, 5, 1)),)
    assert s.text.startswith("Grouped chain: (1)r1c1=r1c56-r3c4=r8c4 => r8c1<>1. If r1c1 is not 1, then r1c56 "
                             "has a 1, so r3c4 is not 1, so r8c4 is 1.")
    assert dict(s.translations)["fr"].startswith("Chaîne groupée : (1)L1C1=L1C56-L3C4=L8C4")
    # issue 34: the group's cells are a role of their own, which the legend names
    assert "grouped r1c5 r1c6" in [str(r) for r in s.roles]


def test_grouped_chain_near_misses():
    # a third 1 in row 1 outside the group: row 1 gives no strong link
    assert list(find_grouped_chain(open_grid(keep={**KEEP, "1 row1": ["r1c1", "r1c5", "r1c6", "r1c9"]}))) == []
    # the group's cells do not all see r3c4 when it moves to r3c7 (box 3): no weak link
    assert list(find_grouped_chain(open_grid(keep={**KEEP, "1 col4": ["r4c4", "r8c4"]}))) == []


def test_finder_is_pure():
    assert_pure(find_grouped_chain, open_grid(keep=KEEP))


def _graph_states():
    """Candidate states of a 9×9 and a 4×4 puzzle (the givens' candidates, then after a few singles)."""
    from pathlib import Path

    from explainer.model.grid import parse_grid
    from explainer.model.state import State
    from techniques import singles

    data = Path(__file__).resolve().parents[2].parent / "shared" / "data"
    for name in ("top1465.txt", "sample4.txt"):
        state = State.from_grid(parse_grid((data / name).read_text().split()[0]))
        yield state.copy()
        for _ in range(8):  # a few placements: fewer candidates, other groups
            step = next(singles.find_single_position(state), None)
            if step is None:
                break
            state.apply(step)
        yield state


def _sees_all(geo, a: int, b: int) -> bool:
    """Every cell of mask a sees every cell of mask b."""
    return all(geo.peer_mask[x] >> y & 1 for x in bits(a) for y in bits(b))


def test_graph_matches_the_definitions():
    """The graph's precomputed masks say what the module docstring defines: weak neighbours
    (disjoint nodes of one value whose cells all see each other, or one cell's candidates),
    conflicts (nodes sharing a candidate) and the strong links with a group (a house's places
    are exactly two disjoint nodes, one of them a group)."""
    from explainer.core.search import GroupedGraph

    for state in _graph_states():
        g = GroupedGraph(state.geo.n, state.cand, state.pos)
        geo, N = g.geo, g.N
        nodes = [i for i in range(len(g.values)) if i >= g.singles or state.pos[g.values[i]] >> (i % N) & 1]
        cells = {i: g.masks[i] for i in nodes}
        assert any(i >= g.singles for i in nodes)

        for i in nodes:
            weak = shared = 0
            for j in nodes:
                same_value = g.values[j] == g.values[i]
                if same_value and cells[i] & cells[j]:
                    shared |= 1 << j
                if j != i and (same_value and not cells[i] & cells[j] and _sees_all(geo, cells[i], cells[j])
                               or i < g.singles and j < g.singles and cells[i] == cells[j]):
                    weak |= 1 << j
            assert g.weak_mask(i) == weak, i
            assert g.conflict[i] == shared, i
        expected = set()
        for v in range(geo.n):
            mine = [i for i in nodes if g.values[i] == v]
            for hm in geo.house_mask:
                p = state.pos[v] & hm
                inside = [i for i in mine if not cells[i] & ~p]
                expected |= {(a, b) for a in inside for b in inside
                             if a < b and (a >= g.singles or b >= g.singles) and cells[a] | cells[b] == p
                             and not cells[a] & cells[b]}
        got = {(a, b) for a, js in g.strong.items() for b in js if a < b and (a >= g.singles or b >= g.singles)}
        assert got == expected


def test_value_tables_kept_between_states_give_the_same_graph():
    """A value's group table is kept in a session's parts table by the value's places and read
    by later states: a graph built from kept tables equals one built from fresh ones (ids,
    conflicts, strong lists in order)."""
    from explainer.core.search import GroupedGraph

    states = list(_graph_states())
    kept: dict = {}
    warm = [GroupedGraph(s.geo.n, s.cand, s.pos, memo=kept) for s in states]  # later states read earlier tables
    assert any(len(t.groups) for _, t in kept.values())
    for s, g in zip(states, warm, strict=True):
        fresh = GroupedGraph(s.geo.n, s.cand, s.pos)
        assert (g.values, g.masks, g.conflict, g.strong, g.house_groups) == \
            (fresh.values, fresh.masks, fresh.conflict, fresh.strong, fresh.house_groups)


def test_every_chain_comes_shortest_first_then_in_start_order():
    """The search runs each start to its end, stopping later starts at the shortest length found;
    a caller reading past those chains (SE's path) gets every chain, shortest first, each once.
    top1465 line 12 before its step 25: four chains of 7 links, then three of 9."""
    from pathlib import Path

    import techniques
    from explainer import engine

    data = Path(__file__).resolve().parents[2].parent / "shared" / "data"
    puzzle = engine.Puzzle((data / "top1465.txt").read_text().split()[11], techniques.select(None), order="seed")
    k = puzzle.steps_using("grouped chain")[0]
    state = puzzle.goto(k)
    every = list(find_grouped_chain(state))
    lengths = [s.get("length") for s in every]
    assert lengths == sorted(lengths) and len(set(lengths)) >= 2
    assert every[0] == puzzle.steps[k]
    assert len({(s.eliminate, s.text) for s in every}) == len(every)
    # the shortest ones alone (what the registry path reads) are the same, in the same order
    shortest = [s for s in every if s.get("length") == lengths[0]]
    got = []
    for s in find_grouped_chain(state):
        if s.get("length") != lengths[0]:
            break
        got.append(s)
    assert got == shortest
