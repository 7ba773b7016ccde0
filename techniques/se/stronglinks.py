"""Sukaku Explainer's 3 strong links (5.4 – 5.7): three strong links on one digit chained by weak ones.

One digit; three regions where it has two places (or two groups of places)
are *links*; chained end to end — the end of one link and the start of the
next share a region — they leave the digit at the chain's first start or its
last end, so it goes from every cell seeing both (outside the links' and
the shared regions). Sukaku Explainer takes the links' region types in ten
configurations (blocks, rows and columns: 000, 001, 002, 011, 012, 022, 111,
112, 122, 222), the regions of each type in order (a later link of the same
type after the one before), then every order of the three links (one of each
reversed pair) and every direction of each.

A region with more than two places may still be a grouped link, split as
Sukaku Explainer splits it: a line whose places lie in two of its block
segments; a block whose places lie on the row and the column through a
*heart* cell, or, with four places or more, on two of its rows or two of its
columns. An end is a cell, with at most one more cell of its group beside it.
A block link whose two places share a line is not used.

Ratings: 5.4 (three parallel lines: "3 skyscrapers"), 5.5 (a block among the
links), 5.6 (rows and columns: "3-string kite"), 5.7 with a grouped link.
Sukaku Explainer collects every hint, sorts them by rating, then by more
removals, then by a name of the links' types, and takes the first.

Kept apart from the registry: it has no three-strong-link fish (the registry
reaches these eliminations with longer X-chains, rated and ordered otherwise),
and the links are split by Sukaku Explainer's own rules above.
"""
from __future__ import annotations

from collections.abc import Iterator
from functools import cache
from typing import Any

from explainer.model.explanation import Explanation, cands, house_keys
from explainer.model.grid import bits, geometry
from explainer.model.i18n import Arg, Cells, Value, say
from explainer.model.roles import chain, on_houses
from explainer.model.state import State
from explainer.model.technique import NO_CONTEXT, Context

from ..seorder import BLOCK, N, check_size, region, step
from .turbot import Group, block_patterns, by_digit, end_regions, end_seen, first_region, indexes, line_patterns

LINKS = 3
BASE_RATING = 5.4
# the link types of each configuration, in Sukaku Explainer's order (block 0, row 1, column 2)
CONFIGURATIONS = ((0, 0, 0), (0, 0, 1), (0, 0, 2), (0, 1, 1), (0, 1, 2), (0, 2, 2), (1, 1, 1), (1, 1, 2),
                  (1, 2, 2), (2, 2, 2))

# An end: (cell, the other cell of its group or None); a link: (end 0, end 1, grouped, region)
End = tuple[int, int | None]


def _same_line(a: int, b: int) -> bool:
    return a // 9 == b // 9 or a % 9 == b % 9


def _links(kind: int, h: int, places: int) -> list[tuple[End, End, bool]]:
    """The links of a region whose digit lies at ``places`` (region indexes), as cells."""
    cells = geometry(N).houses[h]
    k = places.bit_count()
    if k == 2:
        p0, p1 = (cells[i] for i in indexes(places))
        if kind == BLOCK and _same_line(p0, p1):
            return []
        return [((p0, None), (p1, None), False)]
    block = kind == BLOCK
    patterns = block_patterns() if block else line_patterns()
    found: tuple[int, list[int], list[int], int] | None = None
    for e, (area, blade1, blade2, heart) in enumerate(patterns):
        if e > 8 and k < 4:
            continue
        if not places & area:
            if places & blade1 and places & blade2:
                found = (e, indexes(places & blade1), indexes(places & blade2), heart)
            break
    if found is None:
        return []
    e, one, two, heart = found
    c1, c2 = [cells[i] for i in one], [cells[i] for i in two]
    out: list[tuple[End, End, bool]] = []
    if len(c1) == 1 or len(c2) == 1:
        if len(c1) == 1 and len(c2) == 1:
            # Sukaku Explainer overwrites the first split with the second
            return [((c2[0], None), (c1[0], cells[heart]), True)] if block else []
        if len(c1) == 1:
            out.append(((c1[0], None), (c2[0], cells[heart]) if block else (c2[0], c2[1]), True))
        if len(c2) == 1:
            out.append(((c2[0], None), (c1[0], cells[heart]) if block else (c1[0], c1[1]), True))
        return out
    out.append(((c1[0], c1[1]), (c2[0], c2[1]), True))
    if e > 8 and k == 4 and _same_line(c1[1], c2[1]) and _same_line(c1[0], c2[0]):
        out.append(((c1[0], c2[0]), (c1[1], c2[1]), True))
    return out


@cache
def _orders() -> tuple[tuple[int, ...], ...]:
    """The orders of the three links Sukaku Explainer tries: its permutation sequence (Heap's
    countdown), keeping one of each pair of reversed orders."""
    n = LINKS
    q = list(range(n))
    r = list(range(n + 1))
    out = [tuple(q)]
    s = 1
    while s < n:
        r[s] -= 1
        t = (s % 2) * r[s]
        q[t], q[s] = q[s], q[t]
        out.append(tuple(q))
        s = 1
        while r[s] == 0:
            r[s] = s
            s += 1
    return tuple(o for o in out if "".join(map(str, o)) <= "".join(map(str, reversed(o))))


# one link of a region: (end 0, end 1, grouped, region, the region's digit cells, the regions
# holding each end, the cells that see each end (a grouped end: both its cells; else its first))
Link = tuple[End, End, bool, int, int, int, int, int, int]


def _end(link: Link, which: int) -> End:
    return link[0] if which == 0 else link[1]


def _region_links(state: State, v: int) -> dict[int, list[tuple[int, list[Link]]]]:
    """Per region type, the regions (SE's index, their links) where digit v forms links."""
    geo = state.geo
    pv, peer, hmask = state.pos[v - 1], geo.peer_mask, geo.house_mask
    out: dict[int, list[tuple[int, list[Link]]]] = {0: [], 1: [], 2: []}
    for kind in (0, 1, 2):
        for i in range(9):
            h = region(kind, i)
            where = pv & geo.house_mask[h]
            k = where.bit_count()
            if k < 2 or k > 6:
                continue
            places = 0
            for x, c in enumerate(geo.houses[h]):
                if where >> c & 1:
                    places |= 1 << x
            links = [(e0, e1, g, h, where, end_regions(e0, hmask), end_regions(e1, hmask),
                      end_seen(e0 if g else e0[:1], peer), end_seen(e1 if g else e1[:1], peer))
                     for e0, e1, g in _links(kind, h, places)]
            if links:
                out[kind].append((i, links))
    return out


def _share(a: Link, i: int, b: Link, j: int) -> int:
    """The region holding end ``i`` of link a and end ``j`` of link b, every cell of both; -1 if none."""
    return first_region((a[6] if i else a[5]) & (b[6] if j else b[5]))


def _digit_hints(state: State, v: int) -> list[list[tuple[Any, ...]]]:
    """Digit v's hints, per configuration (``CONFIGURATIONS``' order)."""
    def touch(a: Link, b: Link) -> bool:
        """True if some end of a and some end of b share a region (else no chain joins them)."""
        return bool((a[5] | a[6]) & (b[5] | b[6]))

    per_kind = _region_links(state, v)
    out: list[list[tuple[Any, ...]]] = []
    for config in CONFIGURATIONS:
        found: list[tuple[Any, ...]] = []
        out.append(found)
        first = per_kind[config[0]]
        second = per_kind[config[1]]
        third = per_kind[config[2]]
        for i, links_a in first:
            for j, links_b in second:
                if config[1] == config[0] and j <= i:
                    continue
                for a in links_a:
                    for b in links_b:
                        if a[4] & b[4]:
                            break  # the same region cells for every split
                        ab = touch(a, b)
                        for k, links_c in third:
                            if config[2] == config[1] and k <= j:
                                continue
                            for c in links_c:
                                if (a[4] | b[4]) & c[4]:
                                    break
                                if ab + touch(a, c) + touch(b, c) < 2:
                                    continue
                                found.extend(_chains(state, v, [a, b, c]))
    return out


def _chains(state: State, v: int, links: list[Link]) -> Iterator[tuple[Any, ...]]:
    geo = state.geo
    hmask, pv = geo.house_mask, state.pos[v - 1]
    outside = geo.all_cells
    for link in links:
        outside &= ~hmask[link[3]]
    for q in _orders():
        la, lb, lc = links[q[0]], links[q[1]], links[q[2]]
        for u in range(8):
            wa, wb, wc = u >> 2 & 1, u >> 1 & 1, u & 1
            s1 = _share(la, 1 - wa, lb, wb)
            if s1 < 0:
                continue
            s2 = _share(lb, 1 - wb, lc, wc)
            if s2 < 0:
                continue
            removed = (la[8] if wa else la[7]) & (lc[7] if wc else lc[8]) & outside & ~hmask[s1] & ~hmask[s2] & pv
            if removed:
                ends = [(_end(la, wa), _end(la, 1 - wa)), (_end(lb, wb), _end(lb, 1 - wb)),
                        (_end(lc, wc), _end(lc, 1 - wc))]
                types = [_kind(la[3]), _kind(lb[3]), _kind(lc[3])]
                grouped = int(links[0][2]) + int(links[1][2]) + int(links[2][2])
                yield v, ends, [s1, s2], [la[3], lb[3], lc[3]], types, grouped, removed


def _kind(h: int) -> int:
    return (1, 2, 0)[h // 9]


def suffix(types: list[int], grouped: int) -> str:
    """Sukaku Explainer's suffix: the grouped links' count, then a name of the link types."""
    ordered = types if "".join(map(str, types)) <= "".join(map(str, reversed(types))) else types[::-1]
    swap = {0: "0", 1: "2", 2: "1"}
    current = "".join(swap[t] for t in ordered)
    reverse = current[::-1]
    reverse = min(reverse, current)
    original = "".join(map(str, ordered))
    if 1 in ordered:
        name = reverse if original > reverse else original
    else:
        name = "".join("1" if t == 2 else str(t) for t in ordered)
    return f"{grouped}{name}"


def rating(suffix_: str, grouped: int) -> float:
    if grouped:
        return BASE_RATING + 0.3
    if "0" in suffix_[1:]:
        return BASE_RATING + 0.1
    if "2" in suffix_[1:]:
        return BASE_RATING + 0.2
    return BASE_RATING


def find(state: State, ctx: Context = NO_CONTEXT, /) -> Iterator[Explanation]:
    check_size(state)
    found = []
    for i, hint in enumerate(by_digit(state, ctx, "se.stronglinks", _digit_hints, len(CONFIGURATIONS))):
        sfx = suffix(hint[4], hint[5])
        found.append((rating(sfx, hint[5]), -hint[-1].bit_count(), sfx, i, hint))
    found.sort(key=lambda t: t[:4])
    for rated, _, sfx, _, hint in found:
        yield _step(ctx, state, rated, sfx, hint)


NAME = {"en": "3 strong links", "fr": "Trois liens forts"}
TEXT = {
    "en": "Three strong links on {v}: {chain}. Along the chain, if {start} is not {v} then {end} is, so one of "
          "them is {v}, and {v} is removed from {cells}, which {see} both.",
    "fr": "Trois liens forts sur le {v} : {chain}. Le long de la chaîne, si {start} ne vaut pas {v} alors "
          "{end} le vaut, donc l'une des deux vaut {v}, et le {v} est retiré de {cells}, qui {see} les deux.",
}


class _Chain(Arg):
    """The chain read aloud: 'r1c2=r1c7-r4c7=r4c9…' (= a strong link, - a weak one)."""

    def __init__(self, names: list[str]) -> None:
        self.names = names

    def fmt(self, lang: str) -> str:
        out = self.names[0]
        for k, name in enumerate(self.names[1:]):
            out += ("=" if k % 2 == 0 else "-") + name
        return out


def _step(ctx: Context, state: State, rated: float, sfx: str, hint: tuple[Any, ...]) -> Explanation:
    geo = state.geo
    v, ends, shares, regions_, _, grouped, removed = hint

    def build() -> dict[str, Any]:
        from explainer.model.i18n import Words

        groups = [[c for c in end if c is not None and state.pos[v - 1] >> c & 1] for pair in ends for end in pair]
        nodes = [[(c // 9, c % 9, v) for c in g] for g in groups]
        names = [Group(g).fmt("en") for g in groups]
        k = removed.bit_count()
        return dict(houses=house_keys(geo, regions_ + shares),
                    marked=cands(geo, ((c, v) for g in groups for c in g)),
                    **say(TEXT, v=Value(v), chain=Words(en=_Chain(names).fmt("en")), start=Group(groups[0]),
                          end=Group(groups[-1]), cells=Cells(geo, bits(removed)),
                          see=Words(en="sees" if k == 1 else "see", fr="voit" if k == 1 else "voient")),
                    roles=chain(nodes, "=-=-=", first_on=False) + (on_houses("house", geo, regions_ + shares),))

    return step(ctx, "3 strong links", rated, eliminate=[(c, v) for c in bits(removed)], build=build,
                detail=(("suffix", sfx), ("grouped", grouped), ("value", v)))
