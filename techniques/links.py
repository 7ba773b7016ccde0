"""The link graph of a candidate state, shared by Medusa, chains and trial.

A candidate (cell c, value v) is numbered ``(v - 1) * ncells + c`` (value
major), so the cells where v is a candidate, ``pos[v-1]``, shifted by
``(v - 1) * ncells`` are exactly the numbers of v's candidates: the weak
neighbours of a candidate through its value are one AND and one shift.

- strong link: bivalue cell, or a value with two places in a house;
- weak link: same cell, or same value in two cells that see each other
  (every strong link is also weak).

``links(state)`` builds the graph once per state (``State.cached``), so the
techniques of one step share it.
"""
from __future__ import annotations

from collections.abc import Callable
from functools import cache, lru_cache

from explainer.explanation import Cand
from explainer.grid import bits, value_char
from explainer.state import State


@cache
def _spread(n: int) -> Callable[[int], int]:
    """For a value mask m, the candidate numbers of m's values in cell 0 (value u -> bit u*n*n);
    shifted by c, those of cell c. Memoised per grid size."""
    N = n * n

    @lru_cache(maxsize=1 << 16)
    def spread(m: int) -> int:
        out = 0
        for u in bits(m):
            out |= 1 << (u * N)
        return out

    return spread


class Links:
    """Strong neighbours (lists) and weak neighbours (bit masks) of every candidate."""

    __slots__ = ("geo", "n", "N", "nodes", "strong", "weak", "strong_pairs")

    def __init__(self, state: State) -> None:
        geo = state.geo
        n, N = geo.n, geo.ncells
        self.geo, self.n, self.N = geo, n, N
        cand, pos = state.cand, state.pos
        peer = geo.peer_mask
        strong: dict[int, list[int]] = {}
        weak: dict[int, int] = {}
        nodes: list[int] = []
        # every candidate of cell c, as candidate numbers: the same-cell links of (c, v) are
        # these minus (c, v) itself
        spread = _spread(n)
        same = [spread(m) << c for c, m in enumerate(cand)]
        for v in range(n):
            pv = pos[v]
            base = v * N
            while pv:
                low = pv & -pv
                pv ^= low
                c = low.bit_length() - 1
                i = base + c
                nodes.append(i)
                weak[i] = (peer[c] & pos[v]) << base | same[c] ^ 1 << i
        pairs: list[tuple[int, int]] = []
        seen: set[tuple[int, int]] = set()
        for c, m in enumerate(cand):
            if m and m.bit_count() == 2:
                lo = m & -m
                a, b = (lo.bit_length() - 1) * N + c, ((m ^ lo).bit_length() - 1) * N + c
                seen.add((a, b))
                pairs.append((a, b))
        for v in range(n):
            pv = pos[v]
            if not pv:
                continue
            base = v * N
            for hm in geo.house_mask:
                w = pv & hm
                if w and w.bit_count() == 2:
                    lo = w & -w
                    a, b = base + lo.bit_length() - 1, base + (w ^ lo).bit_length() - 1
                    if (a, b) not in seen:
                        seen.add((a, b))
                        pairs.append((a, b))
        for a, b in pairs:
            strong.setdefault(a, []).append(b)
            strong.setdefault(b, []).append(a)
        self.nodes = nodes
        self.strong = strong
        self.weak = weak
        self.strong_pairs = pairs

    # ---- candidate numbers ------------------------------------------------------
    def index(self, c: int, v: int) -> int:
        return (v - 1) * self.N + c

    def cell(self, i: int) -> int:
        return i % self.N

    def value(self, i: int) -> int:
        return i // self.N + 1

    def cand(self, i: int) -> Cand:
        c = self.cell(i)
        return (c // self.n, c % self.n, self.value(i))

    def name(self, i: int) -> str:
        """'r1c2=5'."""
        return f"{self.geo.cell_name(self.cell(i))}={value_char(self.value(i))}"

    def cell_order(self, i: int) -> tuple[int, int]:
        """Sort key: by cell, then value (reading order of a list of candidates)."""
        return self.cell(i), i

    def is_strong(self, a: int, b: int) -> bool:
        return b in self.strong.get(a, ())

    def is_weak(self, a: int, b: int) -> bool:
        return bool(self.weak.get(a, 0) >> b & 1)

    def mask_cands(self, mask: int) -> list[Cand]:
        """JSON candidates of a candidate-number mask, sorted."""
        return sorted(self.cand(i) for i in bits(mask))


def links(state: State) -> Links:
    """The link graph of this exact state, built once and shared."""
    return state.cached("links", Links)
