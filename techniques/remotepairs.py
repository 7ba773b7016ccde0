"""Remote pairs of any even length, with every elimination they make.

A remote pair is a chain of bivalue cells that all hold the same two values
{a, b}, each cell seeing the next: the cells alternate a, b, a, … along the
chain, so two cells an odd number of links apart hold a and b between them.
A cell outside the chain that sees two such cells can be neither a nor b
(HoDoKu's "Remote Pair", SudokuWiki's "Remote Pairs"). Cells only one link
apart are a naked pair (found long before); the eliminations counted here
are those of cells three, five, … links apart, which only the chain shows.

``removed(state, cells)`` gives those eliminations for a chain the chain
search found (its cells in order). ``paths(state)`` gives every remote pair of
four cells or more: per pair of values, every simple path through the cells
holding exactly that pair, shortest first, one step per set of eliminations
(``niceloops.remote_pairs`` makes them steps for ``explain-sudoku steps``; the engine's own remote
pairs come from the chain search, which names them).
"""
from __future__ import annotations

from collections.abc import Iterator, Sequence

from explainer.model.grid import bits
from explainer.model.state import State

MIN_CELLS = 4  # a chain of four cells: its ends are three links apart
MAX_PATHS = 20_000  # paths looked at per pair of values (a bound for very dense grids)


def removed(state: State, cells: Sequence[int]) -> int:
    """Candidate numbers (``links`` numbering, (v - 1) * ncells + cell) of the remote pair
    through ``cells`` (in chain order, all holding the same two values): both values in
    every cell outside the chain seeing two chain cells 3, 5, … links apart."""
    geo = state.geo
    N = geo.ncells
    peer = geo.peer_mask
    seen = 0
    for i, a in enumerate(cells):
        for b in cells[i + 3::2]:
            seen |= peer[a] & peer[b]
    on_chain = 0
    for c in cells:
        on_chain |= 1 << c
    seen &= ~on_chain
    if not seen:
        return 0
    out = 0
    for v in bits(state.cand[cells[0]]):
        for c in bits(state.pos[v] & seen):
            out |= 1 << (v * N + c)
    return out


def paths(state: State) -> Iterator[list[int]]:
    """Every simple path of ``MIN_CELLS`` cells or more through cells holding one same pair
    of values, each read one way (first cell below last), shorter paths first per pair."""
    geo = state.geo
    peer = geo.peer_mask
    by_pair: dict[int, int] = {}
    for c, m in enumerate(state.cand):
        if m.bit_count() == 2:
            by_pair[m] = by_pair.get(m, 0) | 1 << c
    for m in sorted(by_pair):
        group = by_pair[m]
        if group.bit_count() < MIN_CELLS:
            continue
        found: list[list[int]] = []
        budget = MAX_PATHS
        for start in bits(group):
            stack: list[tuple[int, list[int], int]] = [(start, [start], 1 << start)]
            while stack and budget > 0:
                c, path, used = stack.pop()
                if len(path) >= MIN_CELLS and path[0] < c:
                    found.append(path)
                    budget -= 1
                for d in bits(peer[c] & group & ~used):
                    stack.append((d, path + [d], used | 1 << d))
        found.sort(key=len)
        yield from found

