"""Grouped chains: chains (AIC) whose nodes may be groups.

A *group* is the set of a value's candidates in one box-line intersection
(two or more cells), read as one node: "the group has v" is true when one of
its cells is v. Links (SudokuWiki's "Grouped X-Cycles", HoDoKu's grouped
nice loops / AIC):

- strong: in some house, v's candidates are exactly the cells of two
  disjoint nodes (single cells or groups), so one of them has v; or the two
  candidates of a bivalue cell;
- weak: two disjoint nodes of one value whose cells all see each other (if
  one has v, the other cannot), or two candidates of one cell.

A chain S = … = E (first and last links strong) makes S or E true, so a
candidate that sees every cell of S and of E (same value), or shares the cell
of a single-candidate end, is false. The search is the one of ``chains``
(breadth first from every start, shortest first, no cell of a value used
twice on a path), and only chains with at least one group are reported
(the plain chain search runs first). Frames: the chain candidates in
``marked``, the group cells in ``cells_alt``, links between the nodes' first
candidates; ``detail`` lists each group's candidates.
"""
from __future__ import annotations

from collections.abc import Iterator
from functools import cache

from explainer.explanation import Explanation, cands, cell_coords
from explainer.grid import Geometry, bits, geometry, value_char
from explainer.i18n import Words, say
from explainer.state import State
from explainer.technique import NO_CONTEXT, Context

from .chains import CANNOT, IF_NOT, IS, IS_NOT, SO, eureka_text
from .links import links

MAX_LENGTH = 9  # 11 finds a few more, at a quarter more time

GROUPED = {
    "en": "Grouped chain: {formal}. {plain} So {start} or {end}: either way, {targets}, because each removed "
          "candidate sees every cell of both ends.",
    "fr": "Chaîne groupée : {formal}. {plain} Donc {start} ou {end} : dans les deux cas, {targets}, car "
          "chaque candidat retiré voit toutes les cases des deux extrémités.",
}
HAS = {"en": "{cell} has a {v}", "fr": "{cell} contient un {v}"}
HAS_NOT = {"en": "{cell} has no {v}", "fr": "{cell} ne contient pas de {v}"}
AND = {"en": " and ", "fr": " et "}


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
    h; ``strong``: the strong links with a group, sorted, as (a, b) with a < b, a number
    below N being a cell of the value and N + r its r-th group."""

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
                    for c in bits(g):
                        seeing &= peer[c]
                    seeing_of[g] = seeing
                r = len(groups)
                rel[g] = r
                groups.append((g, seeing, k, tuple(bits(g))))
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


# per-value group tables by (size, value, places): a step changes the places of few values,
# so most values of the next state find theirs here (bounded; cleared when full)
_VALUE_GROUPS: dict[tuple[int, int, int], _ValueGroups] = {}
MAX_VALUES_KEPT = 8192


def _value_groups(geo: Geometry, v: int, pv: int) -> _ValueGroups:
    key = (geo.n, v, pv)
    hit = _VALUE_GROUPS.get(key)
    if hit is None:
        if len(_VALUE_GROUPS) >= MAX_VALUES_KEPT:
            _VALUE_GROUPS.clear()
        hit = _VALUE_GROUPS[key] = _ValueGroups(geo, pv)
    return hit


class _Graph:
    """Nodes and links. A single candidate keeps its number in ``links`` (v * N + cell), so
    its plain strong and weak links are the chain search's; groups come after, from n * N.
    ``values[i]`` and ``masks[i]`` (cells) describe node i.

    Built once per state, with what the search reads at every node precomputed as node-id
    masks: ``conflict[i]``, the nodes sharing a candidate with i (itself included)."""

    def __init__(self, state: State) -> None:
        geo = state.geo
        n, N = geo.n, geo.ncells
        pos = state.pos
        lk = links(state)
        self.geo, self.N, self.lk = geo, N, lk
        singles = n * N
        base_values, base_masks, units = _single_nodes(n)
        values = list(base_values)
        masks = list(base_masks)
        conflict = list(units)
        index: dict[tuple[int, int], int] = {}
        seeing_by_id: dict[int, int] = {}
        inter_of: dict[int, int] = {}  # group -> its intersection's index
        house_groups: list[list[int]] = []  # per value, per house: node-id mask of its groups
        nhouses = len(geo.house_mask)
        # strong links with a group: in a house, v's places are one node and another; taken in
        # (value, house, rank of the group's intersection in the house) order, which fixes the
        # order of the strong lists
        found: list[tuple[int, int]] = []
        for v in range(n):
            table = _value_groups(geo, v, pos[v])
            base = v * N
            first = len(values)  # node id of the value's first group
            for r, (g, seeing, k, cells) in enumerate(table.groups):
                gid = first + r
                index[v, g] = gid
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
        self.values, self.masks, self.index, self.singles = values, masks, index, singles
        self.pos, self.conflict = pos, conflict
        self.seeing_by_id, self.house_groups, self.inter_of = seeing_by_id, house_groups, inter_of
        strong: dict[int, list[int]] = dict(lk.strong)
        extra: set[tuple[int, int]] = set()
        for a, b in found:
            extra.add((a, b))
        copied: set[int] = set()  # links' own lists are shared with the chain search: copy before adding
        for pair in extra:
            for a, b in (pair, pair[::-1]):
                if a not in copied:
                    copied.add(a)
                    strong[a] = list(strong.get(a, ()))
                strong[a].append(b)
        self.strong = strong
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

    def group_sees(self, i: int) -> int:
        return self.seeing_by_id[i]

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
            return self.lk.weak[i] | near & ~self.conflict[i]
        line, box, _ = self.geo.intersections[self.inter_of[i]]
        near = in_house[line] | in_house[box]
        return (self.seeing_by_id[i] & self.pos[v]) << (v * self.N) | near & ~self.conflict[i]

    def weak_cands(self, i: int) -> int:
        """Candidate numbers (v * N + cell) weakly linked to node i."""
        if i < self.singles:
            return self.lk.weak[i]
        v = self.values[i]
        return (self.seeing_by_id[i] & self.pos[v]) << (v * self.N)

    def name(self, i: int) -> str:
        geo = self.geo
        m = self.masks[i]
        cells = list(bits(m))
        if len(cells) == 1:
            return geo.cell_name(cells[0])
        rows = sorted({geo.row_of[c] + 1 for c in cells})
        cols = sorted({geo.col_of[c] + 1 for c in cells})
        sep = "" if geo.n <= 9 else ","
        return f"r{sep.join(map(str, rows))}c{sep.join(map(str, cols))}"


def _phrase(g: _Graph, i: int, true: bool, lang: str) -> str:
    group = g.masks[i] & (g.masks[i] - 1)
    table = (HAS if true else HAS_NOT) if group else (IS if true else IS_NOT)
    return table[lang].format(cell=g.name(i), v=value_char(g.values[i] + 1))


def find_grouped_chain(state: State, ctx: Context = NO_CONTEXT, /,
                       max_length: int = MAX_LENGTH) -> Iterator[Explanation]:
    """Shortest grouped chains first, across every start (then in start order).

    As in ``chains.find``: one breadth-first search per start, a link at a
    time; a path keeps the mask of the nodes it may no longer use (those
    sharing a candidate with a node on it), so nodes never overlap. The low
    n * N bits of that mask are the path's candidates, so the end test needs no
    walk along the path. A false node whose strong neighbours are all used is
    still claimed (the first path to reach a node keeps it) but not extended:
    it could only lead nowhere, and the steps stay the same.

    The searches of two starts share nothing, so each runs to its end before
    the next begins (no per-level bookkeeping across starts), and once a chain
    of length L is found the later starts stop at L: the chains of the
    shortest length come out in start order, as a search advancing every
    start a level at a time gives them. Only a caller wanting more than those
    pays for the full searches, which yield the rest in that same order."""
    g = state.cached("grouped.graph", _Graph)
    if not g.index or not g.strong:
        return  # no group: the plain chain search has seen everything
    found = _search(g, max_length, False)
    if not found:
        return
    for _, _, end, elim in found:
        yield _step(state, g, _nodes(end), elim)
    # a caller wanting more (SE's path rates several steps): every chain, the shortest first
    for _, _, end, elim in _search(g, max_length, True)[len(found):]:
        yield _step(state, g, _nodes(end), elim)


# a path as its last node, the mask of the nodes it may no longer use, whether it holds a group,
# and the path it extends (None at the start)
_Entry = tuple[int, int, bool, "_Entry | None"]


def _search(g: _Graph, max_length: int, every: bool) -> list[tuple[int, int, _Entry, int]]:
    """(length, start rank, last entry, removed candidates) of the chains of the shortest
    length there is, or with ``every`` of every length up to ``max_length``, sorted by length
    then start (each start's in the order found)."""
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
    return found


def _nodes(end: _Entry) -> list[int]:
    out = []
    e: _Entry | None = end
    while e is not None:
        out.append(e[0])
        e = e[3]
    out.reverse()
    return out


def _first_cand(g: _Graph, i: int) -> tuple[int, int, int]:
    c = (g.masks[i] & -g.masks[i]).bit_length() - 1
    n = g.geo.n
    return (c // n, c % n, g.values[i] + 1)


def _step(state: State, g: _Graph, nodes: list[int], elim: int) -> Explanation:
    geo: Geometry = g.geo
    N = g.N
    kinds = "".join("=" if k % 2 == 0 else "-" for k in range(len(nodes) - 1))
    formal = _eureka(g, nodes, kinds)
    removed = sorted(bits(elim), key=lambda x: (x % N, x))
    targets = ", ".join(f"{geo.cell_name(x % N)}<>{value_char(x // N + 1)}" for x in removed)
    strong: list[tuple[tuple[int, int, int], tuple[int, int, int]]] = []
    weak: list[tuple[tuple[int, int, int], tuple[int, int, int]]] = []
    for k, kind in enumerate(kinds):
        link = (_first_cand(g, nodes[k]), _first_cand(g, nodes[k + 1]))
        (strong if kind == "=" else weak).append(link)
    groups = [i for i in nodes if i >= g.singles]
    by_lang = {}
    for lang in ("en", "fr"):
        rest = [_phrase(g, nodes[k], k % 2 == 1, lang) for k in range(1, len(nodes))]
        by_lang[lang] = IF_NOT[lang].format(first=_phrase(g, nodes[0], False, lang), rest=SO[lang].join(rest))
    target_words = {lang: AND[lang].join(CANNOT[lang].format(cell=geo.cell_name(x % N), v=value_char(x // N + 1))
                                         for x in removed) for lang in ("en", "fr")}
    return Explanation(
        technique="grouped chain",
        eliminate=cands(geo, ((x % N, x // N + 1) for x in removed)),
        cells_alt=cell_coords(geo, (c for i in groups for c in bits(g.masks[i]))),
        marked=cands(geo, ((c, g.values[i] + 1) for i in nodes for c in bits(g.masks[i]))),
        strong_links=tuple(strong), weak_links=tuple(weak),
        **say(GROUPED, formal=f"{formal} => {targets}", plain=Words(**by_lang), targets=Words(**target_words),
              start=Words(en=_phrase(g, nodes[0], True, "en"), fr=_phrase(g, nodes[0], True, "fr")),
              end=Words(en=_phrase(g, nodes[-1], True, "en"), fr=_phrase(g, nodes[-1], True, "fr"))),
        detail=(("length", len(nodes) - 1),
                ("groups", tuple(cands(geo, ((c, g.values[i] + 1) for c in bits(g.masks[i]))) for i in groups))),
    )


def _eureka(g: _Graph, nodes: list[int], kinds: str) -> str:
    """Eureka notation with groups: ``(5)r1c12=r1c7-(5=3)r2c8``."""
    return eureka_text(nodes, kinds, lambda i: g.values[i] + 1, g.name,
                       lambda i, j: i < g.singles and j < g.singles and g.masks[i] == g.masks[j])
