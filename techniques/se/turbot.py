"""Sukaku Explainer's TurbotFish: skyscraper (4.0), 2-string kite (4.1), turbot crane (4.2),
and their grouped forms (4.3).

One digit and two strong links: in a *base* region the digit has two places
(or two groups of places), and in a *cover* region two more; one end of each
(the *bridges*) share a third region, so the digit is at one of the two
other ends, and it leaves every cell seeing both (outside the base and cover
regions). Sukaku Explainer pairs the region types (base, cover) in the order
rows-rows, columns-columns, columns-rows, rows-blocks, columns-blocks.

A region with more than two places may still give a *grouped* strong link: a
line whose places lie in two of its three block segments (the empty one
tried first to last), a block whose places lie on the row and the column
through one *heart* cell (hearts in cell order). One of the two groups may be
a single cell (each such split is tried), else both ends are groups. A group
counts as one end: the removed cells must see all of it.

Ratings: rows-rows or columns-columns 4.0, a row and a column 4.1, a line
and a block 4.2; any grouped link 4.3. Sukaku Explainer collects every hint,
sorts them by rating, then by more removals, then by how many links are
grouped (none first), and takes the first.

Kept apart from the registry: the registry finds skyscrapers, kites and turbot
fish as short X-chains (``techniques.chains``) and grouped ones among grouped
chains, a search with other ends and other groups (a block's groups here are
SE's "heart" crosses only), so it neither finds the same hints nor orders
them as SE does; which one SE takes first decides its rating path.
"""
from __future__ import annotations

from collections.abc import Callable, Iterable, Iterator, Sequence
from functools import cache
from typing import Any

from explainer.model.explanation import Explanation, cands, house_keys
from explainer.model.grid import bits, geometry
from explainer.model.i18n import Arg, Cells, House, Value, Words, say
from explainer.model.roles import chain, on_houses
from explainer.model.session import session_of
from explainer.model.state import State
from explainer.model.technique import NO_CONTEXT, Context

from ..seorder import (
    BLOCK,
    COLUMN,
    ROW,
    N,
    check_size,
    kind_of,
    region,
    step,
)

# (base type, cover type), in Sukaku Explainer's order (a plain grid: no variant regions)
PAIRS = ((ROW, ROW), (COLUMN, COLUMN), (COLUMN, ROW), (ROW, BLOCK), (COLUMN, BLOCK))
PLAIN_RATING = {(ROW, ROW): 4.0, (COLUMN, COLUMN): 4.0, (COLUMN, ROW): 4.1, (ROW, BLOCK): 4.2, (COLUMN, BLOCK): 4.2}
GROUPED = 4.3

# a hint as a producer finds it (the step reads it)
Hint = tuple[Any, ...]
# a link end: its cell and up to two more cells of its group (None when absent), as region indexes
# (``link_ends``) or cells (``_to_cells``)
End = tuple[int, int | None, int | None]
# one side of a link as a hint reads it: its outer end, its bridge end, the cells that see the outer
# end, the regions holding the bridge end
Side = tuple[End, End, int, int]
# a region's link: its two ends, grouped or not, the regions holding each end, the cells seeing each end
Link = tuple[End, End, bool, int, int, int, int]


def end_regions(end: Iterable[int | None], hmask: Sequence[int]) -> int:
    """The regions (house index bits) holding every cell of a link end (None: no such cell)."""
    cells = [c for c in end if c is not None]
    mask = sum(1 << c for c in cells)
    out = 0
    for h in geometry(N).cell_houses[cells[0]]:
        if not mask & ~hmask[h]:
            out |= 1 << h
    return out


_ROWS, _COLUMNS = (1 << N) - 1, ((1 << N) - 1) << N


def first_region(common: int) -> int:
    """The region two link ends share, from the regions holding both (``end_regions``' bits): the
    column, then the row, then the block, as Sukaku Explainer's strong-link producers look; -1 if
    none."""
    if not common:
        return -1
    return ((common & _COLUMNS) or (common & _ROWS) or common).bit_length() - 1


def end_seen(end: Iterable[int | None], peer: Sequence[int]) -> int:
    """The cells that see every cell of a link end."""
    seen = -1
    for c in end:
        if c is not None:
            seen &= peer[c]
    return seen


class Group(Arg):
    """A group of cells named as players write it: 'r4c9' for one cell, 'r45c9' for cells of one
    column, 'r4c78' for cells of one row (the same in every language)."""

    def __init__(self, cells: Iterable[int]) -> None:
        self.cells = sorted(set(cells))

    def fmt(self, lang: str) -> str:
        rows = sorted({c // N + 1 for c in self.cells})
        cols = sorted({c % N + 1 for c in self.cells})
        if len(rows) == 1 or len(cols) == 1:
            return f"r{''.join(map(str, rows))}c{''.join(map(str, cols))}"
        return ",".join(f"r{c // N + 1}c{c % N + 1}" for c in self.cells)


@cache
def block_patterns() -> tuple[tuple[int, int, int, int], ...]:
    """Sukaku Explainer's block patterns: (empty area, blade 1, blade 2, heart or -1) as masks of
    block indexes: a cross through each heart cell, then pairs of rows and pairs of columns."""
    out = []
    for heart in range(9):
        hr, hc = divmod(heart, 3)
        rect = sum(1 << i for i in range(9) if i // 3 != hr and i % 3 != hc)
        col = sum(1 << i for i in range(9) if i % 3 == hc and i // 3 != hr)
        row = sum(1 << i for i in range(9) if i // 3 == hr and i % 3 != hc)
        out.append((rect, col, row, heart))
    rows = [0b111 << (3 * r) for r in range(3)]
    cols = [sum(1 << (3 * r + c) for r in range(3)) for c in range(3)]
    for lines in (rows, cols):
        for empty in (2, 1, 0):
            a, b = (lines[i] for i in range(3) if i != empty)
            out.append((lines[empty], a, b, -1))
    return tuple(out)


@cache
def line_patterns() -> tuple[tuple[int, int, int, int], ...]:
    """A line's patterns, as ``block_patterns``: its empty segment (0..2, its indexes), then the
    other two segments in order, and no heart (-1)."""
    segs = [0b111 << (3 * s) for s in range(3)]
    out = []
    for e in range(3):
        a, b = (segs[s] for s in range(3) if s != e)
        out.append((segs[e], a, b, -1))
    return tuple(out)


def indexes(mask: int) -> list[int]:
    return [i for i in range(9) if mask >> i & 1]


def link_ends(kind: int, places: int) -> list[tuple[End, End, bool]]:
    """The strong links of a region of type ``kind`` whose digit lies at ``places`` (region
    indexes, a mask), as Sukaku Explainer splits them: (first end, second end, grouped), each end
    a (cell index, group index, group index) triple of region indexes (None: no such cell)."""
    k = places.bit_count()
    if k == 2:
        p0, p1 = indexes(places)
        return [((p0, None, None), (p1, None, None), False)]
    block = kind == BLOCK
    found: tuple[int, list[int], list[int]] | None = None
    for e in range(9 if block else 3):
        area, blade1, blade2, _ = (block_patterns() if block else line_patterns())[e]
        if not places & area:
            if places & blade1 and places & blade2:
                found = (e, indexes(places & blade1), indexes(places & blade2))
            break
    if found is None:
        return []
    heart, one, two = found

    def group(cells: list[int], with_heart: bool) -> End:
        if with_heart:
            return (heart, cells[0], cells[1] if len(cells) > 1 else None)
        return (cells[0], cells[1], cells[2] if len(cells) > 2 else None)

    out: list[tuple[End, End, bool]] = []
    if len(one) == 1 or len(two) == 1:
        if len(one) == 1:
            out.append(((one[0], None, None), group(two, block), True))
        if len(two) == 1:
            out.append(((two[0], None, None), group(one, block), True))
    else:
        out.append((group(one, False), group(two, False), True))
    return out


def _to_cells(h: int, end: End) -> End:
    cells = geometry(N).houses[h]
    a, b, c = end
    return cells[a], None if b is None else cells[b], None if c is None else cells[c]


def by_digit(state: State, ctx: Context, owner: str, digit_hints: Callable[[State, int], list[list[Hint]]],
             groups: int) -> Iterator[Hint]:
    """Every hint of a producer whose hints on a digit depend on the digit's places only, in its
    discovery order: its group (region pair, configuration …), then the digit. The session keeps
    each digit's with the places they were found from (``Session.part``), so a step recomputes
    only the digits it changed."""
    session = session_of(state, ctx)
    per_digit = [session.part(owner, v, state.pos[v - 1], lambda: digit_hints(state, v))  # noqa: B023
                 for v in range(1, N + 1)]
    for g in range(groups):
        for found in per_digit:
            yield from found[g]


def _digit_hints(state: State, v: int) -> list[list[tuple[Any, ...]]]:
    """Digit v's hints, per region pair (``PAIRS``' order)."""
    geo = state.geo
    pv, peer, hmask = state.pos[v - 1], geo.peer_mask, geo.house_mask
    # per region: the digit's links (ends as cells), grouped or not
    table: dict[int, list[Link]] = {}
    for h in range(27):
        where = pv & hmask[h]
        k = where.bit_count()
        kind = kind_of(h)
        if k < 2 or k > 6 or (kind == BLOCK and k > 5):
            continue
        places = 0
        for i, c in enumerate(geo.houses[h]):
            if where >> c & 1:
                places |= 1 << i
        links: list[Link] = []
        for a, b, g in link_ends(kind, places):
            first, second = _to_cells(h, a), _to_cells(h, b)
            links.append((first, second, g, end_regions(first, hmask), end_regions(second, hmask),
                          end_seen(first, peer), end_seen(second, peer)))
        if links:
            table[h] = links
    out: list[list[tuple[Any, ...]]] = []
    for base_kind, cover_kind in PAIRS:
        found: list[tuple[Any, ...]] = []
        out.append(found)
        for i1 in range(9):
            hb = region(base_kind, i1)
            base_links = table.get(hb)
            if base_links is None:
                continue
            for bfirst, bsecond, bgrouped, bm1, bm2, bs1, bs2 in base_links:
                base_sides: tuple[Side, Side] = ((bfirst, bsecond, bs1, bm2), (bsecond, bfirst, bs2, bm1))
                for i2 in range(i1 + 1 if base_kind == cover_kind else 0, 9):
                    hc = region(cover_kind, i2)
                    cover_links = table.get(hc)
                    if cover_links is None or pv & hmask[hb] & hmask[hc]:
                        continue  # no link, or a cell with the digit in both regions
                    outside = ~hmask[hb] & ~hmask[hc]
                    for cfirst, csecond, cgrouped, cm1, cm2, cs1, cs2 in cover_links:
                        cover_sides: tuple[Side, Side] = ((cfirst, csecond, cs2, cm1), (csecond, cfirst, cs1, cm2))
                        for start, bridge1, start_seen, bridge1_regions in base_sides:
                            for bridge2, end, finish_seen, bridge2_regions in cover_sides:
                                share = first_region(bridge1_regions & bridge2_regions)
                                if share < 0 or share == hb or share == hc:
                                    continue
                                removed = start_seen & finish_seen & outside & pv
                                if removed:
                                    found.append((v, hb, hc, base_kind, cover_kind, bgrouped, cgrouped, start,
                                                  bridge1, bridge2, end, share, removed))
    return out


def _rating(hint: tuple[Any, ...]) -> float:
    _, _, _, bk, ck, bg, cg = hint[:7]
    return GROUPED if bg or cg else PLAIN_RATING[(bk, ck)]


def find(state: State, ctx: Context = NO_CONTEXT, /) -> Iterator[Explanation]:
    check_size(state)
    hints = by_digit(state, ctx, "se.turbot", _digit_hints, len(PAIRS))
    found = [(_rating(h), -h[-1].bit_count(), int(h[5]) + int(h[6]), k, h) for k, h in enumerate(hints)]
    found.sort(key=lambda t: t[:4])
    for rating, *_, hint in found:
        yield _step(ctx, state, rating, hint)


SHAPES = {"skyscraper": {"en": "Skyscraper", "fr": "Gratte-ciel"},
          "2-string kite": {"en": "2-string kite", "fr": "Cerf-volant à deux ficelles"},
          "turbot fish": {"en": "Turbot crane", "fr": "Turbot"},
          "grouped skyscraper": {"en": "Grouped skyscraper", "fr": "Gratte-ciel groupé"},
          "grouped 2-string kite": {"en": "Grouped 2-string kite", "fr": "Cerf-volant à deux ficelles groupé"},
          "grouped turbot crane": {"en": "Grouped turbot crane", "fr": "Turbot groupé"}}
TEXT = {
    "en": "{shape} on {v}: in {base}, {v} is in {start} or {bridge1}; in {cover}, in {bridge2} or {end}; "
          "{bridge1} and {bridge2} are in {share}, so they are not both {v}, and one of {start} and {end} "
          "is {v}. So {v} is removed from {cells}, which {see} both.",
    "fr": "{shape} sur le {v} : dans {base}, le {v} est en {start} ou en {bridge1} ; dans {cover}, en "
          "{bridge2} ou en {end} ; {bridge1} et {bridge2} sont dans {share}, donc ils ne valent pas tous "
          "deux {v}, et {start} ou {end} vaut {v}. Donc le {v} est retiré de {cells}, qui {see} les deux.",
}


def _shape(hint: tuple[Any, ...]) -> str:
    _, _, _, bk, ck, bg, cg = hint[:7]
    if bg or cg:
        if (bg and bk == BLOCK) or (cg and ck == BLOCK):
            return "grouped turbot crane"
        return "grouped skyscraper" if bk == ck else "grouped 2-string kite"
    if bk == ck:
        return "skyscraper"
    return "2-string kite" if BLOCK not in (bk, ck) else "turbot fish"


def _step(ctx: Context, state: State, rating: float, hint: tuple[Any, ...]) -> Explanation:
    geo = state.geo
    v, hb, hc, _, _, _, _, start, bridge1, bridge2, end, share, removed = hint
    shape = _shape(hint)
    name = "grouped turbot fish" if shape.startswith("grouped") else shape

    def ends(group: tuple[int | None, ...]) -> list[int]:
        return [c for c in group if c is not None and state.pos[v - 1] >> c & 1]

    def build() -> dict[str, Any]:
        nodes = [[(c // 9, c % 9, v) for c in ends(g)] for g in (start, bridge1, bridge2, end)]
        see = Words(en="sees" if removed.bit_count() == 1 else "see",
                    fr="voit" if removed.bit_count() == 1 else "voient")
        return dict(houses=house_keys(geo, [hb, hc, share]),
                    marked=cands(geo, ((c, v) for g in (start, bridge1, bridge2, end) for c in ends(g))),
                    **say(TEXT, shape=Words(**SHAPES[shape]), v=Value(v), base=House(geo, hb), cover=House(geo, hc),
                          share=House(geo, share), start=Group(ends(start)), end=Group(ends(end)),
                          bridge1=Group(ends(bridge1)), bridge2=Group(ends(bridge2)),
                          cells=Cells(geo, bits(removed)), see=see),
                    roles=chain(nodes, "=-=", first_on=False) + (on_houses("house", geo, [hb, hc, share]),))

    return step(ctx, name, rating, eliminate=[(c, v) for c in bits(removed)], build=build,
                detail=(("shape", shape), ("value", v)))
