"""The search core's primitives, each with a compiled (``_search.c``) and a pure-Python path.

The techniques ask these for the inner loops of their searches and keep the
interpretation (which chain is reported, its eliminations' wording, the step)
to themselves:

- ``chain_events``: the breadth-first chain search of ``techniques.chains``
  over the strong and weak links of a state, from every start;
- ``grouped_events``: the same search with group nodes (a value's places
  in a box-line intersection), for ``techniques.grouped``;
- ``als_sets`` (``als_some``: a few of them), ``als_pairs``, ``als_xz``: the almost locked sets of a
  state (a subset enumeration per house), the restricted commons between
  them (a pair join) and the ALS-XZ eliminations they give;

Every function takes the state as its views (``n``, ``cand``, ``pos``: see
``explainer.model.state``) and returns plain values (ints, tuples, lists), the same
on both paths, bit for bit: ``tests/core`` checks this on random states of
every size. The compiled module is used when it is built and the pure path is
not forced (``explainer.core.load``); a pure-Python twin may take tables a
caller already has (``links``), which the compiled path builds itself.

- ``single_positions``: every single position (a value with one place left in a house), with
  what ``techniques.singles`` needs to choose among them without building their steps
  (``position_cover``: the houses whose placed values explain one).

Candidates are numbered value-major, ``(v - 1) * n * n + cell``, as in
``techniques.links``.
"""
from __future__ import annotations

from bisect import bisect_right
from collections.abc import Callable, Iterator, Sequence
from functools import cache, lru_cache
from itertools import combinations
from typing import Any, Protocol

from explainer.model.grid import Geometry, geometry

from . import load

_C = load("_search")

# event kinds of chain_events
CHAIN, LOOP, RECTANGLE = 0, 1, 2

ChainEvent = tuple[int, int, int, tuple[int, ...], int | None]


class LinkTable(Protocol):
    """What the pure path reads of ``techniques.links.Links``: strong lists and weak masks."""

    @property
    def strong(self) -> dict[int, list[int]]: ...

    @property
    def weak(self) -> dict[int, int]: ...


def compiled() -> bool:
    """True when the compiled primitives are in use."""
    return _C is not None


# ---- single positions ------------------------------------------------------------------------

# What a single position's rating rests on (``kind`` of ``single_positions``): the last empty cell
# of its house, a box, a row or column
LAST, BOX, LINE = 0, 1, 2

SinglePosition = tuple[int, int, int, int, int]


def single_positions(n: int, values: Sequence[int], pos: Sequence[int]) -> list[SinglePosition]:
    """Every single position, ``(house, cell, value, kind, size)``: the houses boxes first, then
    rows, then columns (where people look first), in each the values in order. ``kind``: ``LAST``
    when the cell is its house's only empty cell, else ``BOX`` or ``LINE`` by the house; ``size``:
    how many cells its step highlights (the placed values of ``position_cover``'s houses and the
    placed cells of the house they leave out), 0 when placed values cannot explain it."""
    if _C is not None:
        return _C.single_positions(n, values if type(values) is list else list(values),  # type: ignore[no-any-return]
                                   pos if type(pos) is list else list(pos))
    return single_positions_py(n, values, pos)


def single_positions_py(n: int, values: Sequence[int], pos: Sequence[int]) -> list[SinglePosition]:
    geo = geometry(n)
    holdings: dict[int, dict[int, int]] = {}  # value -> house -> its cell holding the value
    out: list[SinglePosition] = []
    for h in house_order(n):
        hmask = geo.house_mask[h]
        empty = -1
        for v in range(1, n + 1):
            where = pos[v - 1] & hmask
            if where and not where & (where - 1):
                cell = where.bit_length() - 1
                if empty < 0:
                    empty = sum(1 for c in geo.houses[h] if not values[c])
                kind = LAST if empty == 1 else BOX if h >= 2 * n else LINE
                holding = holdings.get(v)
                if holding is None:
                    holding = holdings[v] = _holding(geo, values, v)
                out.append((h, cell, v, kind, _cover_size(geo, values, h, cell, v, holding)))
    return out


@cache
def house_order(n: int) -> tuple[int, ...]:
    """Boxes first (where people look first), then rows, then columns."""
    return tuple(range(2 * n, 3 * n)) + tuple(range(n)) + tuple(range(n, 2 * n))


def _cover_size(geo: Geometry, values: Sequence[int], h: int, target: int, v: int, holding: dict[int, int]) -> int:
    cover = position_cover(geo, values, h, target, v, holding)
    if cover is None:
        return 0
    houses, givers = cover
    covered = 0
    for h2 in houses:
        covered |= geo.house_mask[h2]
    return len(set(givers) | {c for c in geo.houses[h] if values[c] and not covered >> c & 1})


def _holding(geo: Geometry, values: Sequence[int], v: int) -> dict[int, int]:
    """House -> the cell of it where v is placed."""
    return {hh: c for c in range(geo.ncells) if values[c] == v for hh in geo.cell_houses[c]}


def position_cover(geo: Geometry, values: Sequence[int], h: int, target: int, v: int,
                   holding: dict[int, int] | None = None) -> tuple[list[int], list[int]] | None:
    """A smallest set of houses, each holding a placed v, that rules out every other empty
    cell of house h for v's single position at ``target``; with the placed v of each. None if
    placed values cannot explain it (earlier eliminations did). ``holding``: ``_holding``'s
    table for v, when the caller has it."""
    if holding is None:
        holding = _holding(geo, values, v)
    tmask = 1 << target
    empties = [c for c in geo.houses[h] if c != target and not values[c]]
    options: dict[int, int] = {}  # house -> mask of empties it covers
    need = 0
    for c in empties:
        need |= 1 << c
        found = False
        for hh in geo.cell_houses[c]:
            if hh != h and hh in holding and not geo.house_mask[hh] & tmask:
                options[hh] = options.get(hh, 0) | (1 << c)
                found = True
        if not found:
            return None
    if not need:
        return [], []
    keys = sorted(options, key=lambda x: (-bin(options[x]).count("1"), x))
    for size in range(1, len(keys) + 1):
        for combo in combinations(keys, size):
            got = 0
            for k in combo:
                got |= options[k]
            if got == need:
                houses = sorted(combo)
                return houses, [holding[k] for k in houses]
        if size >= 6:  # larger exact covers are rare; take a greedy cover
            return _greedy_cover(options, need, holding)
    return None


def _greedy_cover(options: dict[int, int], need: int, holding: dict[int, int]) -> tuple[list[int], list[int]]:
    chosen: list[int] = []
    while need:
        best = max(options, key=lambda k: bin(options[k] & need).count("1"))
        chosen.append(best)
        need &= ~options[best]
    chosen.sort()
    return chosen, [holding[k] for k in chosen]


# ---- plain chains ----------------------------------------------------------------------------

def chain_events(n: int, cand: Sequence[int], pos: Sequence[int], max_length: int, one_digit: bool,
                 shortest: bool, links: LinkTable | None = None) -> list[ChainEvent]:
    """The chains, loops and empty rectangles of a breadth-first search from every start.

    A start is a candidate with a strong link, assumed false; from it the search
    alternates strong links (false -> true) and weak links (true -> false), never
    reusing a candidate on a path, and keeps one path per (candidate, truth)
    and start (the first found). ``one_digit``: only the start's value is
    followed. Events, each ``(length, start rank, kind, nodes, removed)``:

    - ``CHAIN``: a true end E at an odd length >= 3 not weakly linked to the
      start S, with candidates weakly linked to both (``removed``, a mask of
      candidate numbers, those of the path left out);
    - ``LOOP``: E weakly linked to S: the even cycle's weak links remove the
      candidates weakly linked to both their ends (off the cycle);
    - ``RECTANGLE``: a false end Y of the start's value at an even length
      (a dead end too: a candidate without a strong link) such that a box
      holds the value only in Y's row and S's column or the other way round,
      the box holding neither (``removed`` None: the step names Y).

    ``nodes`` is the path from S. Events come by length, then start (in
    increasing candidate number), then in the order found; with ``shortest``
    only those of the shortest length found (the start searches stop there).
    """
    if _C is not None:
        return list(_C.chain_events(n, list(cand), list(pos), max_length, one_digit, shortest))
    return chain_events_py(n, cand, pos, max_length, one_digit, shortest, links)


def chain_events_py(n: int, cand: Sequence[int], pos: Sequence[int], max_length: int, one_digit: bool,
                    shortest: bool, links: LinkTable | None = None, own: bool = False) -> list[ChainEvent]:
    """``chain_events`` in Python. ``own``: a chain or loop may remove candidates of its own
    path too, as HoDoKu's chains do (``explain-sudoku steps``, through ``niceloops``; the
    engine's chains keep theirs, and the compiled search has no such option)."""
    if links is None:
        strong, weak = link_table(n, cand, pos)
    else:
        strong, weak = links.strong, links.weak
    N = n * n
    geo = geometry(n)
    has_strong = 0
    for i in strong:
        has_strong |= 1 << i
    block = (1 << N) - 1
    every = (1 << (N * n)) - 1
    events: list[ChainEvent] = []
    limit = max_length
    keep = -1 if own else 0  # ``keep | ~pm``: every candidate (own), or those off the path
    for k, s in enumerate(sorted(strong)):
        sv = s // N
        same_value = block << (sv * N)
        follow = same_value if one_digit else every
        par = {2 * s: -1}
        von, voff = 0, 1 << s
        ws = weak[s]
        front: list[tuple[int, int]] = [(s, 1 << s)]
        for length in range(1, limit + 1):
            hit = False
            if length & 1:  # false -> true along strong links
                new: list[tuple[int, int]] = []
                for i, pm in front:
                    key = 2 * i
                    for j in strong.get(i, ()):
                        if (pm | von) >> j & 1 or not follow >> j & 1:
                            continue
                        von |= 1 << j
                        par[2 * j + 1] = key
                        new.append((j, pm | 1 << j))
                front = new
                if length >= 3:
                    for e, pm in new:
                        if ws >> e & 1:
                            nodes = chain_path(par, 2 * e + 1)
                            elim = 0
                            for q in range(1, len(nodes), 2):
                                elim |= weak[nodes[q]] & weak[nodes[(q + 1) % len(nodes)]]
                            elim &= keep | ~pm
                            kind = LOOP
                        else:
                            elim = ws & weak[e] & (keep | ~pm)
                            if not elim:
                                continue
                            nodes = chain_path(par, 2 * e + 1)
                            kind = CHAIN
                        if elim:
                            events.append((length, k, kind, tuple(nodes), elim))
                            hit = True
            else:  # true -> false along weak links
                ends: list[int] = []
                live: list[tuple[int, int]] = []
                for i, pm in front:
                    w = weak[i] & ~pm & ~voff & follow
                    if not w:
                        continue
                    voff |= w
                    key = 2 * i + 1
                    w &= has_strong | same_value  # a false candidate goes on by a strong link
                    while w:
                        low = w & -w
                        w ^= low
                        j = low.bit_length() - 1
                        par[2 * j] = key
                        ends.append(j)
                        if has_strong & low:
                            live.append((j, pm | low))
                front = live
                pv = pos[sv]
                cn = s % N
                for y in ends:
                    if y // N == sv and _rectangle_at(geo, pv, cn, y % N):
                        events.append((length, k, RECTANGLE, tuple(chain_path(par, 2 * y)), None))
                        hit = True
            if hit and shortest:
                if length < limit:
                    events = [e for e in events if e[0] == length]
                    limit = length
                break
            if not front:
                break
    if not shortest:
        events.sort(key=lambda e: e[0])
    return events


def link_table(n: int, cand: Sequence[int], pos: Sequence[int]) -> tuple[dict[int, list[int]], dict[int, int]]:
    """Strong lists and weak masks of every candidate (``techniques.links.Links``'s tables)."""
    strong: dict[int, list[int]] = {}
    for a, b in strong_pairs_py(geometry(n), cand, pos):
        strong.setdefault(a, []).append(b)
        strong.setdefault(b, []).append(a)
    return strong, weak_table_py(n, cand, pos)


def weak_table(n: int, cand: Sequence[int], pos: Sequence[int]) -> dict[int, int]:
    """Candidate -> mask of its weak neighbours (the other candidates of its cell, its value
    in the cells it sees), value by value, then cell by cell."""
    if _C is not None:
        return dict(_C.weak_table(n, list(cand), list(pos)))
    return weak_table_py(n, cand, pos)


def weak_table_py(n: int, cand: Sequence[int], pos: Sequence[int]) -> dict[int, int]:
    """``weak_table`` in Python."""
    geo = geometry(n)
    N = n * n
    peer = geo.peer_mask
    spread = _spread(n)
    same = [spread(m) << c for c, m in enumerate(cand)]
    weak: dict[int, int] = {}
    for v in range(n):
        pv = pos[v]
        base = v * N
        while pv:
            low = pv & -pv
            pv ^= low
            c = low.bit_length() - 1
            i = base + c
            weak[i] = (peer[c] & pos[v]) << base | same[c] ^ 1 << i
    return weak


def weak_of(n: int, cand: Sequence[int], pos: Sequence[int], i: int) -> int:
    """Candidate i's entry of ``weak_table`` alone (a finder that reads a few candidates' need
    not build the table of thousands on a big grid)."""
    N = n * n
    v, c = divmod(i, N)
    return ((geometry(n).peer_mask[c] & pos[v]) << (v * N)) | (_spread(n)(cand[c]) << c ^ (1 << i))


@cache
def _spread(n: int) -> Callable[[int], int]:
    """For a value mask m, the candidate numbers of m's values in cell 0 (value u -> bit
    u * n * n); shifted by c, those of cell c. Memoised per grid size."""
    N = n * n

    @lru_cache(maxsize=1 << 16)
    def spread(m: int) -> int:
        out = 0
        while m:
            low = m & -m
            m ^= low
            out |= 1 << ((low.bit_length() - 1) * N)
        return out

    return spread


def strong_pairs(geo: Geometry, cand: Sequence[int], pos: Sequence[int]) -> list[tuple[int, int]]:
    """Strong links (a, b), a < b: bivalue cells in cell order, then per value the houses
    (rows, columns, boxes) where it has two places, each pair once."""
    if _C is not None:
        return list(_C.strong_pairs(geo.n, list(cand), list(pos)))
    return strong_pairs_py(geo, cand, pos)


def strong_pairs_py(geo: Geometry, cand: Sequence[int], pos: Sequence[int]) -> list[tuple[int, int]]:
    """``strong_pairs`` in Python."""
    N = geo.ncells
    pairs: list[tuple[int, int]] = []
    seen: set[tuple[int, int]] = set()
    for c, m in enumerate(cand):
        if m and m.bit_count() == 2:
            lo = m & -m
            a, b = (lo.bit_length() - 1) * N + c, ((m ^ lo).bit_length() - 1) * N + c
            pairs.append((a, b))
    for v, pv in enumerate(pos):
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
    return pairs


def chain_path(par: dict[int, int], key: int) -> list[int]:
    """The nodes from a search's start to ``key`` (2 * candidate + truth), by the parents ``par``."""
    out = []
    while key >= 0:
        out.append(key >> 1)
        key = par[key]
    out.reverse()
    return out


@cache
def _rectangle_table(n: int) -> dict[int, tuple[tuple[int, int], ...]]:
    """Per grid size, filled as cell pairs come up: ``rectangle_boxes`` by cn * ncells + c1."""
    return {}


def rectangle_boxes(geo: Geometry, cn: int, c1: int) -> tuple[tuple[int, int], ...]:
    """(box mask, row | column mask) of each box an empty rectangle on C1 = c1, Cn = cn could
    use: a box in C1's row and Cn's column (or Cn's row and C1's column) holding neither."""
    table = _rectangle_table(geo.n)
    key = cn * geo.ncells + c1
    hit = table.get(key)
    if hit is not None:
        return hit
    n = geo.n
    r1, k1, rn, kn = geo.row_of[c1], geo.col_of[c1], geo.row_of[cn], geo.col_of[cn]
    out = []
    if r1 != rn and k1 != kn:
        for row, col in ((r1, kn), (rn, k1)):
            bm = geo.house_mask[2 * n + geo.box_of[row * n + col]]
            if bm >> c1 & 1 or bm >> cn & 1:
                continue
            out.append((bm, geo.house_mask[row] | geo.house_mask[n + col]))
    table[key] = result = tuple(out)
    return result


def _rectangle_at(geo: Geometry, pv: int, cn: int, c1: int) -> bool:
    for bm, lines in rectangle_boxes(geo, cn, c1):
        inside = pv & bm
        if inside and not inside & ~lines:
            return True
    return False


# ---- grouped chains ----------------------------------------------------------------------------

# a node as (value - 1, cell mask): one cell, or a group's cells
GroupedNode = tuple[int, int]
GroupedEvent = tuple[int, int, tuple[GroupedNode, ...], int]


def grouped_events(n: int, cand: Sequence[int], pos: Sequence[int], max_length: int, every: bool,
                   links: LinkTable | None = None,
                   memo: dict[Any, tuple[Any, Any]] | None = None) -> list[GroupedEvent]:
    """Grouped chains: ``chain_events``'s search where a node may also be a *group*, a
    value's places in one box-line intersection (two cells or more), "the group has v".

    Links: strong, in a house holding 3 to 2m places of the value, between a group and the
    rest (one cell or one group); a bivalue cell's or a conjugate pair's (``links``); weak,
    between nodes of one value whose cells all see each other, or two candidates of a cell.
    A path never uses two nodes sharing a candidate. An event ``(length, start rank, nodes,
    removed)``: a true end at an odd length >= 3 on a path holding a group, with candidates
    weakly linked to both ends (``removed``, those of the path left out). Starts: the nodes
    with a strong link, singles (by candidate number) then groups (by value, then
    intersection). With ``every`` all lengths, by length then start; else only the
    shortest (each start searched to the shortest length found so far). ``memo`` (pure
    path): a parts table, value -> (its places, its groups), kept across states.
    """
    if _C is not None:
        return list(_C.grouped_events(n, list(cand), list(pos), max_length, every))
    return grouped_events_py(n, cand, pos, max_length, every, links, memo)


@cache
def _intersection_houses(n: int) -> tuple[tuple[tuple[int, int], tuple[int, int]], ...]:
    """Per box-line intersection (``geo.intersections`` order), its two houses, each with the
    intersection's rank among that house's intersections (a house's parts in that order)."""
    geo = geometry(n)
    parts: list[list[int]] = [[] for _ in geo.house_mask]
    for k, (line, box, _) in enumerate(geo.intersections):
        parts[line].append(k)
        parts[box].append(k)
    out = []
    for k, (line, box, _) in enumerate(geo.intersections):
        out.append(((line, parts[line].index(k)), (box, parts[box].index(k))))
    return tuple(out)


@cache
def _single_nodes(n: int) -> tuple[tuple[int, ...], tuple[int, ...], tuple[int, ...]]:
    """Value, cell mask and node bit of every single-candidate node (v * N + cell), per size."""
    N = n * n
    ids = range(n * N)
    return tuple(i // N for i in ids), tuple(1 << (i % N) for i in ids), tuple(1 << i for i in ids)


@cache
def _seeing_table(n: int) -> dict[int, int]:
    """Cell mask of a group -> cells seeing all of its cells (filled as groups come up)."""
    return {}


class _ValueGroups:
    """The groups of one value and their links, a function of the value's places only.

    ``groups``: (cells, cells seeing all of them, intersection index, cell list) in
    intersection order; ``overlaps[r]``: the groups (bit r' for the value's r'-th group)
    sharing a cell with group r, itself included; ``in_house[h]``: the groups inside house
    h; ``strong``: the strong links with a group, sorted by (house, rank of the group's
    intersection in it, ends), as (a, b) with a < b, a number below N being a cell of the
    value and N + r its r-th group (two groups of one line find each other twice)."""

    __slots__ = ("groups", "overlaps", "in_house", "strong")

    def __init__(self, geo: Geometry, pv: int) -> None:
        N = geo.ncells
        peer = geo.peer_mask
        seeing_of = _seeing_table(geo.n)
        groups: list[tuple[int, int, int, tuple[int, ...]]] = []
        in_house = [0] * len(geo.house_mask)
        rel: dict[int, int] = {}
        for k, (line, box, im) in enumerate(geo.intersections):
            g = pv & im
            if g & (g - 1):  # a cell mask of 2+ cells lies in one intersection only
                seeing = seeing_of.get(g)
                if seeing is None:
                    seeing = geo.all_cells
                    for c in _bits(g):
                        seeing &= peer[c]
                    seeing_of[g] = seeing
                r = len(groups)
                rel[g] = r
                groups.append((g, seeing, k, tuple(_bits(g))))
                in_house[line] |= 1 << r
                in_house[box] |= 1 << r
        # groups sharing a cell: two groups of one value share at most one cell
        overlaps = [1 << r for r in range(len(groups))]
        for r, (g, _, _, _) in enumerate(groups):
            for r2 in range(r + 1, len(groups)):
                if g & groups[r2][0]:
                    overlaps[r] |= 1 << r2
                    overlaps[r2] |= 1 << r
        houses_of = _intersection_houses(geo.n)
        hmask = geo.house_mask
        limit = 2 * geo.m
        found: list[tuple[int, int, int, int]] = []
        for r, (g, _, k, _) in enumerate(groups):
            for h, rank in houses_of[k]:
                p = pv & hmask[h]
                if not 3 <= p.bit_count() <= limit:  # the group (2+ cells) and one more node
                    continue
                rest = p & ~g
                if not rest:
                    continue
                if not rest & (rest - 1):
                    y = rest.bit_length() - 1
                else:
                    y = N + rel[rest] if rest in rel else -1
                if y >= 0:
                    found.append((h, rank, min(N + r, y), max(N + r, y)))
        found.sort()
        self.groups, self.overlaps, self.in_house = groups, overlaps, in_house
        self.strong = [(a, b) for _, _, a, b in found]


class GroupedGraph:
    """Nodes and links. A single candidate keeps its number (v * N + cell), so its plain
    strong and weak links are the chain search's; groups come after, from n * N.
    ``values[i]`` and ``masks[i]`` (cells) describe node i; ``conflict[i]``: the nodes
    sharing a candidate with i (itself included), as a node-id mask."""

    def __init__(self, n: int, cand: Sequence[int], pos: Sequence[int], links: LinkTable | None = None,
                 memo: dict[Any, tuple[Any, Any]] | None = None) -> None:
        geo = geometry(n)
        N = geo.ncells
        if links is None:
            plain_strong, weak = link_table(n, cand, pos)
        else:
            plain_strong, weak = links.strong, links.weak
        self.geo, self.N, self.weak = geo, N, weak
        singles = n * N
        base_values, base_masks, units = _single_nodes(n)
        values = list(base_values)
        masks = list(base_masks)
        conflict = list(units)
        seeing_by_id: dict[int, int] = {}
        inter_of: dict[int, int] = {}  # group -> its intersection's index
        house_groups: list[list[int]] = []  # per value, per house: node-id mask of its groups
        nhouses = len(geo.house_mask)
        found: list[tuple[int, int]] = []
        for v in range(n):
            if memo is None:
                table = _ValueGroups(geo, pos[v])
            else:
                hit = memo.get(v)
                if hit is None or hit[0] != pos[v]:
                    hit = memo[v] = (pos[v], _ValueGroups(geo, pos[v]))
                table = hit[1]
            base = v * N
            first = len(values)  # node id of the value's first group
            for r, (g, seeing, k, cells) in enumerate(table.groups):
                gid = first + r
                values.append(v)
                masks.append(g)
                conflict.append(g << base | table.overlaps[r] << first)
                seeing_by_id[gid] = seeing
                inter_of[gid] = k
                gbit = 1 << gid
                for c in cells:
                    conflict[base + c] |= gbit
            house_groups.append([m << first for m in table.in_house] if table.groups else [0] * nhouses)
            for a, b in table.strong:  # below N: a cell of v; from N on: the value's group a - N
                found.append((base + a if a < N else first + a - N, base + b if b < N else first + b - N))
        self.values, self.masks, self.singles = values, masks, singles
        self.pos, self.conflict = pos, conflict
        self.seeing_by_id, self.house_groups, self.inter_of = seeing_by_id, house_groups, inter_of
        strong: dict[int, list[int]] = dict(plain_strong)
        copied: set[int] = set()  # the plain lists may be shared: copy before adding
        for pair in dict.fromkeys(found):  # each pair once, where first found
            for a, b in (pair, pair[::-1]):
                if a not in copied:
                    copied.add(a)
                    strong[a] = list(strong.get(a, ()))
                strong[a].append(b)
        self.strong = strong
        self.groups = len(values) - singles
        # what the search reads at every node, as node-id masks
        self.starts = sorted(strong)
        has_strong = 0
        for i in self.starts:
            has_strong |= 1 << i
        size = len(values)
        strong_mask = [0] * size
        onward = [0] * size  # strong neighbours sharing no candidate with the node itself
        for i, js in strong.items():
            m = 0
            for j in js:
                m |= 1 << j
            strong_mask[i] = m
            onward[i] = m & ~conflict[i]
        self.has_strong, self.strong_mask, self.onward = has_strong, strong_mask, onward

    def weak_mask(self, i: int) -> int:
        """Node-id mask of node i's weak neighbours.

        A group is seen whole from a cell (or from all cells of another group) exactly when
        it lies in one of their houses and shares no cell with them: its cells span two or
        more lines and one box, so a cell outside its line and box misses one of them."""
        v = self.values[i]
        in_house = self.house_groups[v]
        if i < self.singles:
            row, col, box = self.geo.cell_houses[i - v * self.N]
            near = in_house[row] | in_house[col] | in_house[box]
            return self.weak[i] | near & ~self.conflict[i]
        line, box, _ = self.geo.intersections[self.inter_of[i]]
        near = in_house[line] | in_house[box]
        return (self.seeing_by_id[i] & self.pos[v]) << (v * self.N) | near & ~self.conflict[i]

    def weak_cands(self, i: int) -> int:
        """Candidate numbers (v * N + cell) weakly linked to node i."""
        if i < self.singles:
            return self.weak[i]
        v = self.values[i]
        return (self.seeing_by_id[i] & self.pos[v]) << (v * self.N)


# a path as its last node, the mask of the nodes it may no longer use, whether it holds a group,
# and the path it extends (None at the start)
_Entry = tuple[int, int, bool, "_Entry | None"]


def grouped_events_py(n: int, cand: Sequence[int], pos: Sequence[int], max_length: int, every: bool,
                      links: LinkTable | None = None,
                      memo: dict[Any, tuple[Any, Any]] | None = None) -> list[GroupedEvent]:
    """``grouped_events`` in Python.

    One breadth-first search per start, a link at a time; a path keeps the mask of the
    nodes it may no longer use (those sharing a candidate with a node on it). The low
    n * N bits of that mask are the path's candidates, so the end test needs no walk along
    the path. A false node whose strong neighbours are all used is still claimed (the first
    path to reach a node keeps it) but not extended: it could only lead nowhere."""
    g = GroupedGraph(n, cand, pos, links, memo)
    if not g.groups or not g.strong:
        return []
    conflict, strong, strong_mask, onward = g.conflict, g.strong, g.strong_mask, g.onward
    singles, has_strong = g.singles, g.has_strong
    size = len(g.values)
    weak_nodes: list[int | None] = [None] * size  # weak neighbours that have a strong link
    end_cands: list[int | None] = [None] * size  # candidates weakly linked to the node
    found: list[tuple[int, int, _Entry, int]] = []
    limit = max_length
    for k, s in enumerate(g.starts):
        front: list[_Entry] = [(s, conflict[s], s >= singles, None)]
        von = 0
        voff = 1 << s
        ws = -1
        for length in range(1, limit + 1):
            new: list[_Entry] = []
            if length & 1:  # false -> true through strong links
                for ent in front:
                    i, conf, grouped, _ = ent
                    block = conf | von
                    if not strong_mask[i] & ~block:
                        continue
                    for j in strong[i]:
                        if block >> j & 1:
                            continue
                        bit = 1 << j
                        von |= bit
                        block |= bit
                        new.append((j, conf | conflict[j], grouped or j >= singles, ent))
                if not new:
                    break
                if length >= 3:
                    if ws < 0:
                        known = end_cands[s]
                        if known is None:
                            known = end_cands[s] = g.weak_cands(s)
                        ws = known
                    hit = False
                    for ent in new:
                        if not ent[2]:
                            continue
                        e = ent[0]
                        we = end_cands[e]
                        if we is None:
                            we = end_cands[e] = g.weak_cands(e)
                        # the low n * N bits of a path's conflict mask are its candidates: none is removed
                        elim = ws & we & ~ent[1]
                        if elim:
                            found.append((length, k, ent, elim))
                            hit = True
                    if hit and not every:
                        if length < limit:  # shorter than every chain so far: those go
                            found = [f for f in found if f[0] == length]
                            limit = length
                        break
            else:  # true -> false through weak links, to nodes that continue by a strong link
                for ent in front:
                    i, conf, grouped, _ = ent
                    w = weak_nodes[i]
                    if w is None:
                        w = weak_nodes[i] = g.weak_mask(i) & has_strong
                    w &= ~(conf | voff)
                    if not w:
                        continue
                    voff |= w
                    free = ~(conf | von)
                    while w:
                        low = w & -w
                        w ^= low
                        j = low.bit_length() - 1
                        # a false node whose strong neighbours are all taken (on this path, or
                        # already reached true) ends here: claimed, but never extended
                        if onward[j] & free:
                            new.append((j, conf | conflict[j], grouped or j >= singles, ent))
                if not new:
                    break
            front = new
    if every:
        found.sort(key=lambda f: f[0])  # stable: start order, then the order found
    return _grouped_events_of(g, found)


def _grouped_events_of(g: GroupedGraph, found: list[tuple[int, int, _Entry, int]]) -> list[GroupedEvent]:
    """The events of the paths found (length, start, end entry, removals): each path read back
    from its end, as the (value, cells) nodes it passes."""
    values, masks = g.values, g.masks
    out: list[GroupedEvent] = []
    for length, k, end, elim in found:
        nodes = []
        at: _Entry | None = end
        while at is not None:
            nodes.append((values[at[0]], masks[at[0]]))
            at = at[3]
        nodes.reverse()
        out.append((length, k, tuple(nodes), elim))
    return out


def _bits(mask: int) -> list[int]:
    out = []
    while mask:
        low = mask & -mask
        out.append(low.bit_length() - 1)
        mask ^= low
    return out


# ---- almost locked sets -------------------------------------------------------------------

MAX_SUBSET_BITS = 12  # houses with more empty cells (16×16, 25×25) get small ALSs only
SMALL_SETS = 4
# Largest ALS kept on grids from 16×16 on: a 16-cell house with 12 empty cells has hundreds of
# ALSs of 9 to 11 cells, which multiply the pairs searched and hardly ever make a step
BIG_GRID, BIG_GRID_MAX_CELLS = 16, 8

# (cells, values, where, sees): where[k] the cells holding the k-th value (ascending), sees[k]
# the cells outside seeing all of them
AlsTuple = tuple[int, int, tuple[int, ...], tuple[int, ...]]


class AlsLike(Protocol):
    """What the pure path reads of an ALS (``techniques.als.ALS``)."""

    @property
    def cells(self) -> int: ...

    @property
    def values(self) -> int: ...

    @property
    def size(self) -> int: ...

    @property
    def where(self) -> dict[int, int]: ...

    @property
    def sees(self) -> dict[int, int]: ...


def als_sets(n: int, cand: Sequence[int], pos: Sequence[int],
             memo: dict[Any, tuple[Any, Any]] | None = None) -> list[AlsTuple]:
    """Every almost locked set: p cells of one house holding p + 1 values together.

    Sets are those of every house with two empty cells or more, the house's
    whole set of empty cells left out (it is locked, not almost); from 16×16
    on, of at most ``BIG_GRID_MAX_CELLS`` cells, and of at most ``SMALL_SETS``
    in a house with more than ``MAX_SUBSET_BITS`` empty cells. Each set once
    (a set in a line and a box is found twice), smallest first, then by cells
    (as an integer). ``memo`` (pure path): a parts table, house -> (its empty
    cells and their candidates, its sets), so that only changed houses are
    enumerated again.
    """
    if _C is not None:
        return list(_C.als_sets(n, list(cand), list(pos)))
    return als_sets_py(n, cand, pos, memo)


def als_sets_py(n: int, cand: Sequence[int], pos: Sequence[int],
                memo: dict[Any, tuple[Any, Any]] | None = None) -> list[AlsTuple]:
    """``als_sets`` in Python."""
    geo = geometry(n)
    found: dict[int, AlsTuple] = {}
    for h, house in enumerate(geo.houses):
        empty = [c for c in house if cand[c]]
        if len(empty) < 2:
            continue
        if memo is None:
            sets = _house_sets(geo, cand, empty)
        else:
            key = (*empty, *(cand[c] for c in empty))
            hit = memo.get(h)
            if hit is None or hit[0] != key:
                hit = memo[h] = (key, _house_sets(geo, cand, empty))
            sets = hit[1]
        for a in sets:
            found.setdefault(a[0], a)
    out = list(found.values())
    out.sort(key=lambda a: (a[0].bit_count(), a[0]))
    return out


def als_table(n: int, cand: Sequence[int], pos: Sequence[int]) -> object | None:
    """The state's ALSs enumerated once by the compiled core, for the ``table`` argument of
    the ALS searches of this same state (``als_some``, ``als_xz``, ``als_xy_events``,
    ``blossom_events``, ``als_chain_events``), which then do not enumerate them again (a
    table of another state is a ValueError); None on the pure path, whose searches take
    the sets as objects instead."""
    if _C is None:
        return None
    table: object = _C.als_table(n, list(cand), list(pos))
    return table


def als_some(n: int, cand: Sequence[int], pos: Sequence[int], which: list[int],
             table: object | None = None) -> list[AlsTuple]:
    """The sets of ``als_sets`` at the indexes ``which`` (in its order): a step names two to
    six of a list of hundreds, and only those are made into Python values. ``table``:
    ``als_table`` of this state (compiled path)."""
    if _C is not None:
        return list(_C.als_some(n, list(cand), list(pos), list(which), table))
    return als_some_py(n, cand, pos, which)


def als_some_py(n: int, cand: Sequence[int], pos: Sequence[int], which: list[int]) -> list[AlsTuple]:
    """``als_some`` in Python."""
    listed = als_sets_py(n, cand, pos)
    if any(i < 0 for i in which):
        raise IndexError("ALS index out of range")
    return [listed[i] for i in which]


@cache
def _plus_one(k: int) -> list[int]:
    """Size + 1 of every subset of k cells, by subset mask."""
    return [m.bit_count() + 1 for m in range(1 << k)]


@cache
def _common_peers(n: int) -> dict[int, int]:
    """Cells seeing every cell of a cell mask, per grid size (a pure function of the geometry,
    filled as masks come up)."""
    return {}


MAX_COMMON_PEERS = 1 << 18  # bound on the common-peers table


def _house_sets(geo: Geometry, cand: Sequence[int], empty: list[int]) -> list[AlsTuple]:
    """The ALSs inside one house (given its empty cells), each with its where / sees."""
    found: dict[int, int] = {}
    k = len(empty)
    if k <= MAX_SUBSET_BITS:
        # unions of every subset at once: subset m of the empty cells is entry m
        union = [0]
        cmask = [0]
        for c in empty:
            cc, bit = cand[c], 1 << c
            union += [u | cc for u in union]
            cmask += [m | bit for m in cmask]
        union.pop()  # the whole house is locked, not almost
        largest = BIG_GRID_MAX_CELLS if geo.n >= BIG_GRID else k
        for m in [m for m, u, p in zip(range(len(union)), union, _plus_one(k), strict=False)
                  if u.bit_count() == p and p <= largest + 1]:
            found[cmask[m]] = union[m]
    else:  # big grids: small sets only
        for p in range(1, SMALL_SETS + 1):
            for chosen in combinations(empty, p):
                u = 0
                for c in chosen:
                    u |= cand[c]
                if u.bit_count() == p + 1:
                    found.setdefault(sum(1 << c for c in chosen), u)
    peer, all_cells = geo.peer_mask, geo.all_cells
    common_peers = _common_peers(geo.n)  # many ALSs share the cells of a value
    out = []
    for cells_mask, vmask in found.items():
        wheres, sees = [], []
        notc = ~cells_mask
        vs = vmask
        while vs:
            low = vs & -vs
            vs ^= low
            w = 0
            for c in empty:
                if cells_mask >> c & 1 and cand[c] & low:
                    w |= 1 << c
            s = common_peers.get(w)
            if s is None:
                s = all_cells
                ww = w
                while ww:
                    lw = ww & -ww
                    ww ^= lw
                    s &= peer[lw.bit_length() - 1]
                if len(common_peers) < MAX_COMMON_PEERS:
                    common_peers[w] = s
            wheres.append(w)
            sees.append(s & notc)
        out.append((cells_mask, vmask, tuple(wheres), tuple(sees)))
    return out


def als_pairs(n: int, cand: Sequence[int], pos: Sequence[int], min_common: int, max_size: int,
              wanted: list[int] | None, sets: Sequence[AlsLike] | None = None) -> list[tuple[int, int, int]]:
    """Restricted commons: (i, j, x) for every pair i < j of the ALSs of ``als_sets`` (only
    those of at most ``max_size`` cells when it is not 0) without a shared cell, x a value
    of both whose every candidate in j sees every one in i, and at least ``min_common``
    common values (x included); with ``wanted`` (a value mask per ALS), only ALSs with a
    wanted value, common values counted among i's wanted ones and x, and j sharing a wanted
    value of its own besides x. By the two sets' sizes together, then i, j, x. ``sets``
    (pure path): the ALSs of ``als_sets`` as objects, when the caller has them."""
    if _C is not None:
        return list(_C.als_pairs(n, list(cand), list(pos), min_common, max_size, wanted))
    return als_pairs_py(n, cand, pos, min_common, max_size, wanted, sets)


def als_objects(n: int, cand: Sequence[int], pos: Sequence[int]) -> list[AlsLike]:
    """The ALSs of ``als_sets`` as objects (what the pure paths read)."""
    out: list[AlsLike] = []
    for cells, values, wheres, sees in als_sets_py(n, cand, pos):
        vals = [v for v in range(n) if values >> v & 1]
        out.append(_Als(cells, values, dict(zip(vals, wheres, strict=True)), dict(zip(vals, sees, strict=True))))
    return out


class _Als:
    __slots__ = ("cells", "values", "size", "where", "sees")

    def __init__(self, cells: int, values: int, where: dict[int, int], sees: dict[int, int]) -> None:
        self.cells, self.values, self.size, self.where, self.sees = cells, values, cells.bit_count(), where, sees


def als_pairs_py(n: int, cand: Sequence[int], pos: Sequence[int], min_common: int, max_size: int,
                 wanted: list[int] | None, sets: Sequence[AlsLike] | None = None) -> list[tuple[int, int, int]]:
    """``als_pairs`` in Python: ALSs grouped by (x, cells holding x), each group's partners
    looked up once (every x of a partner lies in the cells seeing every x of the group)."""
    if sets is None:
        sets = als_objects(n, cand, pos)
    if len(sets) < 2:
        return []
    if max_size:
        sets = sets[:bisect_right([a.size for a in sets], max_size)]  # sorted by size
    groups: list[dict[int, list[int]]] = [{} for _ in pos]
    for j, b in enumerate(sets):
        if wanted is not None and not wanted[j]:
            continue  # no value of b is wanted: b is in no pair kept
        for x, w in b.where.items():
            g = groups[x].get(w)
            if g is None:
                groups[x][w] = [j]
            else:
                g.append(j)
    found = []
    for x, gx in enumerate(groups):
        if not gx:
            continue
        px = pos[x]
        many = len(gx)
        for ilist in gx.values():
            p = sets[ilist[0]].sees[x] & px
            if not p:
                continue
            m = []
            if (1 << p.bit_count()) <= many:
                sub = p
                while sub:
                    g = gx.get(sub)
                    if g is not None:
                        m += g
                    sub = (sub - 1) & p
            else:
                for bw, g in gx.items():
                    if not bw & ~p:
                        m += g
            if not m:
                continue
            m.sort()
            top = m[-1]
            for i in ilist:
                if i >= top:
                    break
                a = sets[i]
                acells, avalues, asize = a.cells, a.values, a.size
                if wanted is not None:
                    avalues &= wanted[i] | 1 << x
                for j in m[bisect_right(m, i):]:
                    b = sets[j]
                    if not b.cells & acells:
                        common = b.values & avalues
                        if wanted is not None and not common & wanted[j] & ~(1 << x):
                            continue
                        if common.bit_count() >= min_common:
                            found.append((asize + b.size, i, j, x))
    found.sort()
    return [(i, j, x) for _, i, j, x in found]


def _seen_by_both(a: AlsLike, b: AlsLike, zs: int, pos: Sequence[int]) -> Iterator[tuple[int, int]]:
    """(z, the z candidates seeing every z of a and of b) for each value z of mask zs that has some."""
    while zs:
        low = zs & -zs
        zs ^= low
        z = low.bit_length() - 1
        elim = pos[z] & a.sees[z] & b.sees[z]
        if elim:
            yield z, elim


XzEvent = tuple[int, int, int, int, int, int, int]


def allow_sizes(ok: Callable[[int, int], bool]) -> bytes:
    """The ``allow`` table of ``als_xz``: byte i * 32 + j is 1 when ``ok(i, j)`` (sizes up to 31)."""
    return bytes(1 if ok(i, j) else 0 for i in range(32) for j in range(32))


def als_xz(n: int, cand: Sequence[int], pos: Sequence[int], allow: bytes | None = None, limit: int = 0,
           sets: Sequence[AlsLike] | None = None, table: object | None = None) -> list[XzEvent]:
    """ALS-XZ: (i, j, x, z, removed, size_i, size_j) for each pair of ``als_pairs`` with two
    common values or more (only values some candidate outside could lose wanted), and each
    other common value z (ascending) whose candidates seeing every z of both sets (``removed``)
    exist; with the two sets' sizes (a caller may rank the step before reading the sets).
    ``allow`` (``allow_sizes``): only pairs of the allowed sizes; ``limit``: the first
    ``limit`` only (0: all); ``table``: ``als_table`` of this state (compiled path)."""
    if _C is not None:
        return list(_C.als_xz(n, list(cand), list(pos), allow, limit, table))
    return als_xz_py(n, cand, pos, allow, limit, sets)


def als_xz_py(n: int, cand: Sequence[int], pos: Sequence[int], allow: bytes | None = None, limit: int = 0,
              sets: Sequence[AlsLike] | None = None) -> list[XzEvent]:
    """``als_xz`` in Python."""
    if sets is None:
        sets = als_objects(n, cand, pos)
    out = []
    for i, j, x in als_pairs_py(n, cand, pos, 2, 0, _live(sets, pos), sets):
        a, b = sets[i], sets[j]
        if allow is not None and not allow[a.size * 32 + b.size]:
            continue
        for z, elim in _seen_by_both(a, b, a.values & b.values & ~(1 << x), pos):
            out.append((i, j, x, z, elim, a.size, b.size))
            if len(out) == limit:
                return out
    return out


# ---- ALS XY wing and death blossom ------------------------------------------------------

XyEvent = tuple[int, int, int, int, int, int, int]  # (a, b, c, x, y, z, removed)

def _live(sets: Sequence[AlsLike], pos: Sequence[int]) -> list[int]:
    """Per ALS, the values z some candidate outside could lose (its z-seeing cells hold z)."""
    out = []
    for a in sets:
        m = 0
        for z, seeing in a.sees.items():
            if pos[z] & seeing:
                m |= 1 << z
        out.append(m)
    return out


def als_xy_events(n: int, cand: Sequence[int], pos: Sequence[int], max_size: int, limit: int = 0,
                  sets: Sequence[AlsLike] | None = None,
                  pairs: Sequence[tuple[int, int, int]] | None = None, table: object | None = None) -> list[XyEvent]:
    """ALS XY wings: (a, b, c, x, y, z, removed), ALSs of at most ``max_size`` cells: C shares
    the restricted common x with A and y (not x) with B (``als_pairs`` with one common value
    or more), A and B share no cell, and z, a value of both that something outside could
    lose (neither x nor y), goes from the cells seeing every z of A and of B. By middle C,
    then its partners in the pairs' order (A before B), then z; ``limit``: the first only.
    ``sets``, ``pairs`` (pure path): ``als_sets`` as objects and ``als_pairs(..., 1,
    max_size, None)``, when the caller has them; ``table``: ``als_table`` of this state
    (compiled path)."""
    if _C is not None:
        return list(_C.als_xy_events(n, list(cand), list(pos), max_size, limit, table))
    return als_xy_events_py(n, cand, pos, max_size, limit, sets, pairs)


def als_xy_events_py(n: int, cand: Sequence[int], pos: Sequence[int], max_size: int, limit: int = 0,
                     sets: Sequence[AlsLike] | None = None,
                     pairs: Sequence[tuple[int, int, int]] | None = None) -> list[XyEvent]:
    """``als_xy_events`` in Python."""
    if sets is None:
        sets = als_objects(n, cand, pos)
    if pairs is None:
        pairs = als_pairs_py(n, cand, pos, 1, max_size, None, sets)
    live_of: dict[int, int] = {}
    partners: dict[int, list[tuple[int, int, int]]] = {}
    for i, j, x in pairs:
        for mid, o in ((i, j), (j, i)):
            live = live_of.get(o)
            if live is None:
                live = live_of[o] = _live([sets[o]], pos)[0]
            live &= ~(1 << x)
            if live:
                partners.setdefault(mid, []).append((o, x, live))
    out = []
    for ic in sorted(partners):
        plist = partners[ic]
        for k, (ia, x, live_a) in enumerate(plist):
            a = sets[ia]
            for ib, y, live_b in plist[k + 1:]:
                zs = live_a & live_b & ~(1 << y | 1 << x)
                if x == y or not zs:
                    continue
                b = sets[ib]
                if a.cells & b.cells:
                    continue
                for z, elim in _seen_by_both(a, b, zs, pos):
                    out.append((ia, ib, ic, x, y, z, elim))
                    if len(out) == limit:
                        return out
    return out


def blossom_events(n: int, cand: Sequence[int], pos: Sequence[int], max_size: int, limit: int = 0,
                   sets: Sequence[AlsLike] | None = None,
                   table: object | None = None) -> list[tuple[int, tuple[int, int, int], int, int]]:
    """Death blossoms: (stem, (a, b, c), z, removed). A stem is a cell of three candidates
    (in cell order); the petal of its k-th value v (ascending), an ALS of at most
    ``max_size`` cells whose v candidates all see the stem; petals pairwise disjoint; z a
    value every petal could lose outside (not the stem's), the z candidates seeing every z
    of every petal removed (the stem left out). By stem, z, then petals in list order.
    ``table``: ``als_table`` of this state (compiled path)."""
    if _C is not None:
        return list(_C.blossom_events(n, list(cand), list(pos), max_size, limit, table))
    return blossom_events_py(n, cand, pos, max_size, limit, sets)


def blossom_events_py(n: int, cand: Sequence[int], pos: Sequence[int], max_size: int, limit: int = 0,
                      sets: Sequence[AlsLike] | None = None) -> list[tuple[int, tuple[int, int, int], int, int]]:
    """``blossom_events`` in Python: petals per (stem, value), each with its live values."""
    stems = 0
    for cell, m in enumerate(cand):
        if m.bit_count() == 3:
            stems |= 1 << cell
    if not stems:
        return []
    if sets is None:
        sets = als_objects(n, cand, pos)
    petals: dict[tuple[int, int], list[tuple[int, int]]] = {}
    for i, a in enumerate(sets):
        if a.size > max_size:
            break  # the list is sorted by size
        live = 0
        hits = []
        for v, seeing in a.sees.items():
            t = seeing & pos[v]
            if t:
                live |= 1 << v
                if t & stems:
                    hits.append((v, t & stems))
        for v, m in hits:
            while m:
                low = m & -m
                m ^= low
                petals.setdefault((low.bit_length() - 1, v), []).append((i, live))
    out: list[tuple[int, tuple[int, int, int], int, int]] = []
    s_all = stems
    while s_all:
        low = s_all & -s_all
        s_all ^= low
        s = low.bit_length() - 1
        vs = [v for v in range(n) if cand[s] >> v & 1]
        lists = [petals.get((s, v)) or [] for v in vs]
        if not all(lists):
            continue
        common = ~cand[s]
        for lst in lists:
            u = 0
            for _, live in lst:
                u |= live
            common &= u
        while common:
            zb = common & -common
            common ^= zb
            z = zb.bit_length() - 1
            zl = [[i for i, live in lst if live & zb] for lst in lists]
            pz = pos[z]
            for ia in zl[0]:
                a = sets[ia]
                m1 = pz & a.sees[z]
                for ib in zl[1]:
                    b = sets[ib]
                    if b.cells & a.cells:
                        continue
                    m2 = m1 & b.sees[z]
                    if not m2:
                        continue
                    for ic in zl[2]:
                        c = sets[ic]
                        if c.cells & (a.cells | b.cells):
                            continue
                        m3 = m2 & c.sees[z] & ~(1 << s)
                        if m3:
                            out.append((s, (ia, ib, ic), z, m3))
                            if len(out) == limit:
                                return out
    return out


# ---- ALS chains -------------------------------------------------------------------------------

ChainOfSets = tuple[tuple[int, ...], tuple[int, ...], int, int]  # (path, links, z, removed)


def als_chain_events(n: int, cand: Sequence[int], pos: Sequence[int], max_size: int, max_chain: int,
                     max_nodes: int, limit: int = 0, sets: Sequence[AlsLike] | None = None,
                     pairs: Sequence[tuple[int, int, int]] | None = None,
                     table: object | None = None) -> list[ChainOfSets]:
    """ALS chains: (path, links, z, removed) for chains of 4 to ``max_chain - 1``... ALSs of
    at most ``max_size`` cells (path: their indexes, links: the restricted commons between
    consecutive ones), by number of ALSs, then first edge, then depth-first; each (z,
    removed) once, by its first chain. ``max_nodes`` bounds the nodes pushed
    (``techniques.alschains.find_als_chain`` says how the search is pruned). ``table``:
    ``als_table`` of this state (compiled path)."""
    if _C is not None:
        return list(_C.als_chain_events(n, list(cand), list(pos), max_size, max_chain, max_nodes, limit, table))
    return als_chain_events_py(n, cand, pos, max_size, max_chain, max_nodes, limit, sets, pairs)


class _AlsGraph:
    """The restricted-common graph of one state (``als_chain_events_py``).

    ``adj[i]``: (j, x, cells of j, arrival) for every ALS j sharing a restricted common x with
    ALS i (a pair with two restricted commons gives two edges); ``arrival`` numbers the pair
    (j, x), "at j, come by x"; ``same[arrival]``: the arrivals (k, x) of the edges leaving j
    by x, and ``siblings``: the arrivals of each ALS with two or more linking values. The
    search bounds its branches by sets of arrivals (bit masks over their numbers), not of
    ALSs: an arrival at the last ALS fixes the last linking value, which must differ from the
    value removed, so a goal of arrivals says "a chain ending here removes something"
    exactly. ``targets[i]``: (z, T) for each value z of ALS i that a candidate outside it
    could lose (T: those candidates, the cells seeing every z of i); ``ends(z, T)``: the
    arrivals (m, x), x not z, at ALSs m whose z some cell of T sees too, the possible last
    links of a chain from i removing z. ``overlap[i]``: the arrivals at ALSs sharing a cell
    with ALS i (i among them), which a chain through i cannot end at. ``near(r)[arrival]``:
    the arrivals at the end of a walk of exactly r edges from there whose consecutive edges
    differ (a bound on the chains: a walk may come back to an ALS)."""

    def __init__(self, pos: Sequence[int], ncells: int, sets: Sequence[AlsLike],
                 pairs: Sequence[tuple[int, int, int]]) -> None:
        arrivals: dict[tuple[int, int], int] = {}
        adj: dict[int, list[tuple[int, int, int, int]]] = {}
        same: list[list[int]] = []
        for i, j, x in pairs:
            si = arrivals.get((i, x))
            if si is None:
                si = arrivals[i, x] = len(same)
                same.append([])
            sj = arrivals.get((j, x))
            if sj is None:
                sj = arrivals[j, x] = len(same)
                same.append([])
            same[si].append(sj)
            same[sj].append(si)
            adj.setdefault(i, []).append((j, x, sets[j].cells, sj))
            adj.setdefault(j, []).append((i, x, sets[i].cells, si))
        self.adj, self.same, self.arrivals = adj, same, arrivals
        every: dict[int, int] = {}
        by_value: dict[int, dict[int, int]] = {}
        for (j, x), sid in arrivals.items():
            every[j] = every.get(j, 0) | 1 << sid
            vals = by_value.get(j)
            if vals is None:
                by_value[j] = {x: sid}
            else:
                vals[x] = sid
        self.every = every
        self.siblings = [list(vals.values()) for vals in by_value.values() if len(vals) > 1]
        groups: dict[tuple[int, int], int] = {}
        targets: dict[int, list[tuple[int, int]]] = {}
        for i in adj:
            mine = targets[i] = []
            arr = every[i]
            vals = by_value[i]
            for z, seeing in sets[i].sees.items():
                t = pos[z] & seeing
                if t:
                    zs = vals.get(z)
                    ga = arr if zs is None else arr & ~(1 << zs)
                    if ga:
                        groups[z, t] = groups.get((z, t), 0) | ga
                    mine.append((z, t))
        self.targets = targets
        seen_by: list[list[int]] = [[] for _ in pos]
        for (z, t), g in groups.items():
            row = seen_by[z]
            if not row:
                row = seen_by[z] = [0] * ncells
            while t:
                low = t & -t
                t ^= low
                row[low.bit_length() - 1] |= g
        self._seen_by = seen_by
        self._ends: dict[tuple[int, int], int] = {}
        cell_arrivals: dict[int, int] = {}
        for j, arr in every.items():
            cells = sets[j].cells
            while cells:
                low = cells & -cells
                cells ^= low
                cell_arrivals[low] = cell_arrivals.get(low, 0) | arr
        overlap: dict[int, int] = {}
        for j in adj:
            m = 0
            cells = sets[j].cells
            while cells:
                low = cells & -cells
                cells ^= low
                m |= cell_arrivals[low]
            overlap[j] = m
        self.overlap = overlap
        self._near = [[1 << sid for sid in range(len(same))]]
        self._outs: list[list[tuple[int, int, int, int]] | None] = [None] * len(same)

    def ends(self, z: int, t: int) -> int:
        """The arrivals (m, x), x not z, at ALSs m whose every z some cell of t sees."""
        hit = self._ends.get((z, t))
        if hit is None:
            row = self._seen_by[z]
            hit = 0
            tt = t
            while tt and row:
                low = tt & -tt
                tt ^= low
                hit |= row[low.bit_length() - 1]
            self._ends[z, t] = hit
        return hit

    def outs(self, k: int, xin: int, sid: int) -> list[tuple[int, int, int, int]]:
        """The edges leaving ALS k by another value than xin (arrival sid), in ``adj`` order."""
        out = self._outs[sid]
        if out is None:
            out = self._outs[sid] = [e for e in self.adj[k] if e[1] != xin]
        return out

    def near(self, r: int) -> list[int]:
        """Walks of r edges: from an arrival at j by x, an edge leaving j by another value
        y, that is an edge of the arrival (j, y)'s ``same`` list."""
        while len(self._near) <= r:
            prev = self._near[-1]
            parts = []
            for lst in self.same:
                m = 0
                for nxt in lst:
                    m |= prev[nxt]
                parts.append(m)
            out = [0] * len(prev)
            for sids in self.siblings:
                if len(sids) == 2:
                    a, b = sids
                    out[a], out[b] = parts[b], parts[a]
                    continue
                for s in sids:
                    m = 0
                    for q in sids:
                        if q != s:
                            m |= parts[q]
                    out[s] = m
            self._near.append(out)
        return self._near[r]


def _als_first_links(graph: _AlsGraph, sets: Sequence[AlsLike],
                     anyw: Sequence[int]) -> list[tuple[int, int, int, int, int, int]]:
    """The first links of an ALS chain worth a search: (i, j, x1, arrival, cells used, goal).

    ``anyw``: per arrival, the arrivals some walk of 2 to max_chain - 2 edges from it reaches.
    A chain from ALS i is searched only towards the later ALSs (each chain once), that do not
    overlap i, that some chain from i could end at, and that see a value z of i which is not
    the first link's x1 (a goal: the ends that eliminate)."""
    adj, overlap, same = graph.adj, graph.overlap, graph.same
    # per arrival (i, x): what the walks from the ALSs linked to i by x reach (a chain's first link)
    from_first = []
    for lst in same:
        m = 0
        for nxt in lst:
            m |= anyw[nxt]
        from_first.append(m)
    later: dict[int, int] = {}
    reached: dict[int, int] = {}  # per ALS i: the arrivals some chain from i could end at
    acc = 0
    for i in sorted(adj, reverse=True):
        later[i] = acc
        acc |= graph.every[i]
    for (i, _), sid in graph.arrivals.items():
        reached[i] = reached.get(i, 0) | from_first[sid]
    firsts = []
    for i in sorted(adj):
        keep = later[i] & ~overlap[i] & reached[i]
        if not keep:
            continue
        zl = []
        for z, t in graph.targets[i]:
            e = graph.ends(z, t) & keep
            if e:
                zl.append((z, e))
        if not zl:
            continue
        cells = sets[i].cells
        every = 0
        for _, e in zl:
            every |= e
        by_link: dict[int, int] = {}  # the ends of the chains linked by x1: those of every z but x1
        for j, x1, cj, sid in adj[i]:
            goal = by_link.get(x1)
            if goal is None:
                goal = every
                if any(z == x1 for z, _ in zl):
                    goal = 0
                    for z, e in zl:
                        if z != x1:
                            goal |= e
                by_link[x1] = goal
            if goal and anyw[sid] & goal:
                goal &= ~overlap[j]
                if goal:
                    firsts.append((i, j, x1, sid, cells | cj, goal))
    return firsts


def als_chain_events_py(n: int, cand: Sequence[int], pos: Sequence[int], max_size: int, max_chain: int,
                        max_nodes: int, limit: int = 0, sets: Sequence[AlsLike] | None = None,
                        pairs: Sequence[tuple[int, int, int]] | None = None) -> list[ChainOfSets]:
    """``als_chain_events`` in Python."""
    if sets is None:
        sets = als_objects(n, cand, pos)
    if pairs is None:
        pairs = als_pairs_py(n, cand, pos, 1, max_size, None, sets)
    graph = _AlsGraph(pos, n * n, sets, pairs)
    overlap, same = graph.overlap, graph.same
    near = [graph.near(r) for r in range(max_chain - 1)]
    # per arrival: the arrivals some walk of 2 to max_chain - 2 edges from it reaches
    anyw = near[2] if len(near) > 2 else [0] * len(same)
    for r in range(3, max_chain - 1):
        anyw = [a | b for a, b in zip(anyw, near[r], strict=True)]
    firsts = _als_first_links(graph, sets, anyw)
    out: list[ChainOfSets] = []
    if not firsts:
        return out
    done: set[tuple[int, int]] = set()
    budget = max_nodes
    outs, targets = graph.outs, graph.targets
    for edges in range(3, max_chain):
        path = [0] * (edges + 1)  # path[d]: the ALS at depth d; rcs[d]: the value between d and d + 1
        rcs = [0] * edges
        for i, j, x1, sid, used0, goal0 in firsts:
            if not near[edges - 1][sid] & goal0:
                continue
            path[0], rcs[0] = i, x1
            stack = [(j, sid, 1, x1, used0, goal0)]  # (ALS, its arrival, depth, incoming value, cells, goal)
            budget -= 1
            while stack:
                k, ks, d, xin, used, goal = stack.pop()
                path[d] = k
                rcs[d - 1] = xin
                left = edges - d - 1  # edges left after the next one
                if left:
                    reach = near[left]
                    for m, x, cm, nxt in outs(k, xin, ks):
                        if not cm & used:
                            g = goal & ~overlap[m]
                            if reach[nxt] & g:
                                stack.append((m, nxt, d + 1, x, used | cm, g))
                                budget -= 1
                    if budget < 0:
                        return out
                    continue
                for m, x, _, nxt in outs(k, xin, ks):  # the last edge: m is the other end
                    if not goal >> nxt & 1:
                        continue
                    am = sets[m].sees
                    for z, t in targets[i]:
                        if z != x and z != x1 and z in am:
                            elim = t & am[z]
                            if elim and (z, elim) not in done:
                                done.add((z, elim))
                                path[edges], rcs[edges - 1] = m, x
                                out.append((tuple(path), tuple(rcs), z, elim))
                                if len(out) == limit:
                                    return out
    return out
