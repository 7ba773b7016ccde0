"""Grouped chains: exact step, near misses, purity."""
from __future__ import annotations

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
    assert dict(s.translations)["fr"].startswith("Chaîne groupée : (1)r1c1=r1c56-r3c4=r8c4")


def test_grouped_chain_near_misses():
    # a third 1 in row 1 outside the group: row 1 gives no strong link
    assert list(find_grouped_chain(open_grid(keep={**KEEP, "1 row1": ["r1c1", "r1c5", "r1c6", "r1c9"]}))) == []
    # the group's cells do not all see r3c4 when it moves to r3c7 (box 3): no weak link
    assert list(find_grouped_chain(open_grid(keep={**KEEP, "1 col4": ["r4c4", "r8c4"]}))) == []


def test_finder_is_pure():
    assert_pure(find_grouped_chain, open_grid(keep=KEEP))
