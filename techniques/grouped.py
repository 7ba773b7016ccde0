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

from functools import lru_cache
from typing import Iterator

from explainer.explanation import Explanation, cands, cell_coords
from explainer.grid import Geometry, bits, geometry, value_char
from explainer.i18n import Words, say
from explainer.state import State

from .chains import CANNOT, IF_NOT, IS, IS_NOT, SO

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


@lru_cache(maxsize=None)
def _house_parts(n: int) -> tuple[tuple[int, ...], ...]:
    """Per house, the cell masks of the box-line intersections inside it."""
    geo = geometry(n)
    return tuple(tuple(im for _, _, im in geo.intersections if not im & ~hm) for hm in geo.house_mask)


class _Graph:
    """Nodes (value, cell mask) with strong neighbours and weak-link masks."""

    def __init__(self, state: State) -> None:
        geo = state.geo
        n, N = geo.n, geo.ncells
        cand, pos, peer = state.cand, state.pos, geo.peer_mask
        self.geo, self.N = geo, N
        values: list[int] = []
        masks: list[int] = []
        index: dict[tuple[int, int], int] = {}
        for v in range(n):
            for c in bits(pos[v]):
                index[v, 1 << c] = len(values)
                values.append(v)
                masks.append(1 << c)
        singles = len(values)
        for v in range(n):
            pv = pos[v]
            for _, _, im in geo.intersections:
                g = pv & im
                if g & (g - 1) and (v, g) not in index:
                    index[v, g] = len(values)
                    values.append(v)
                    masks.append(g)
        self.values, self.masks, self.index, self.singles = values, masks, index, singles
        # cells seeing every cell of each node
        sees = []
        for m in masks:
            s = geo.all_cells
            for c in bits(m):
                s &= peer[c]
            sees.append(s)
        self.sees = sees
        strong: list[list[int]] = [[] for _ in values]
        pairs = set()
        for c, m in enumerate(cand):
            if m.bit_count() == 2:
                a, b = (index[v, 1 << c] for v in bits(m))
                pairs.add((min(a, b), max(a, b)))
        house_parts = _house_parts(n)
        for v in range(n):
            pv = pos[v]
            for hm, parts in zip(geo.house_mask, house_parts):
                p = pv & hm
                if not p or p.bit_count() > 2 * geo.m:
                    continue
                # the nodes inside the house: its single cells and its groups
                inside = [index[v, 1 << c] for c in bits(p)]
                for im in parts:
                    gi = index.get((v, p & im))
                    if gi is not None and gi >= singles:
                        inside.append(gi)
                for x in inside:
                    y = index.get((v, p & ~masks[x]))
                    if y is not None and x < y:
                        pairs.add((x, y))
        for a, b in pairs:
            strong[a].append(b)
            strong[b].append(a)
        self.strong = strong
        self.groups_of: list[list[int]] = [[] for _ in range(n)]  # group nodes per value
        for i in range(singles, len(values)):
            self.groups_of[values[i]].append(i)
        self.cand, self.pos = cand, pos

    def weak(self, i: int) -> list[int]:
        v, m, s = self.values[i], self.masks[i], self.sees[i]
        index, masks = self.index, self.masks
        out = [index[v, 1 << c] for c in bits(s & self.pos[v])]
        out += [j for j in self.groups_of[v] if not masks[j] & ~s]
        if i < self.singles:
            c = m.bit_length() - 1
            out += [self.index[w, m] for w in bits(self.cand[c]) if w != v]
        return out

    def weak_cands(self, i: int) -> int:
        """Candidate numbers (v * N + cell) weakly linked to node i."""
        v, m = self.values[i], self.masks[i]
        out = (self.sees[i] & self.pos[v]) << (v * self.N)
        if i < self.singles:
            c = m.bit_length() - 1
            for w in bits(self.cand[c]):
                if w != v:
                    out |= 1 << (w * self.N + c)
        return out

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


def _conflicts(g: "_Graph") -> list[int]:
    """Per node, the node-id mask of the nodes sharing a candidate with it (itself included)."""
    N = g.N
    containing: dict[int, int] = {}  # candidate number -> node-id mask of the nodes holding it
    for i, (v, m) in enumerate(zip(g.values, g.masks)):
        for c in bits(m):
            key = v * N + c
            containing[key] = containing.get(key, 0) | 1 << i
    out = []
    for v, m in zip(g.values, g.masks):
        mask = 0
        for c in bits(m):
            mask |= containing[v * N + c]
        out.append(mask)
    return out


def find_grouped_chain(state: State, ctx: object | None = None, max_length: int = MAX_LENGTH) -> Iterator[Explanation]:
    """Shortest grouped chains first, across every start.

    As in ``chains.find``: one breadth-first search per start, all advancing
    a link at a time; a path keeps the mask of the nodes it may no longer use
    (those sharing a candidate with a node on it), so nodes never overlap."""
    g = state.cached("grouped.graph", _Graph)
    starts = [i for i in range(len(g.values)) if g.strong[i]]
    if not starts:
        return
    has_strong = 0
    for i in starts:
        has_strong |= 1 << i
    conflict = _conflicts(g)
    groups = 0
    for i in range(g.singles, len(g.values)):
        groups |= 1 << i
    weak_nodes: dict[int, int] = {}
    strong = g.strong
    parents = [{2 * s: -1} for s in starts]
    seen_on = [0] * len(starts)
    seen_off = [1 << s for s in starts]
    frontier = [[(s, conflict[s])] for s in starts]
    end_cands: dict[int, int] = {}
    for length in range(1, max_length + 1):
        any_alive = False
        for k, s in enumerate(starts):
            front = frontier[k]
            if not front:
                continue
            par = parents[k]
            new = []
            if length % 2:  # false -> true through strong links
                von = seen_on[k]
                for i, conf in front:
                    key = 2 * i
                    for j in strong[i]:
                        if (conf | von) >> j & 1:
                            continue
                        von |= 1 << j
                        par[2 * j + 1] = key
                        new.append((j, conf | conflict[j]))
                seen_on[k] = von
            else:  # true -> false through weak links, to nodes that continue by a strong link
                voff = seen_off[k]
                for i, conf in front:
                    w = weak_nodes.get(i)
                    if w is None:
                        w = 0
                        for j in g.weak(i):
                            w |= 1 << j
                        w = weak_nodes[i] = w & has_strong
                    w &= ~conf & ~voff
                    if not w:
                        continue
                    voff |= w
                    key = 2 * i + 1
                    while w:
                        low = w & -w
                        w ^= low
                        j = low.bit_length() - 1
                        par[2 * j] = key
                        new.append((j, conf | conflict[j]))
                seen_off[k] = voff
            frontier[k] = new
            if new:
                any_alive = True
            if length % 2 and length >= 3:
                ws = end_cands.get(s)
                if ws is None:
                    ws = end_cands[s] = g.weak_cands(s)
                for e, conf in new:
                    if not conf & groups:
                        continue
                    we = end_cands.get(e)
                    if we is None:
                        we = end_cands[e] = g.weak_cands(e)
                    elim = ws & we
                    if not elim:
                        continue
                    nodes = _path(par, 2 * e + 1)
                    for i in nodes:
                        elim &= ~(g.masks[i] << (g.values[i] * g.N))
                    if elim and any(i >= g.singles for i in nodes):
                        yield _step(state, g, nodes, elim)
        if not any_alive:
            return


def _path(par: dict[int, int], key: int) -> list[int]:
    out = []
    while key >= 0:
        out.append(key >> 1)
        key = par[key]
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
    strong, weak = [], []
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
    out: list[str] = []
    last = -1
    k = 0
    while k < len(nodes):
        i = nodes[k]
        v = g.values[i]
        if (k + 1 < len(nodes) and i < g.singles and nodes[k + 1] < g.singles
                and g.masks[nodes[k + 1]] == g.masks[i]):
            w = g.values[nodes[k + 1]]
            token = f"({value_char(v + 1)}{kinds[k]}{value_char(w + 1)}){g.name(i)}"
            last, step = w, 2
        else:
            token = ("" if v == last else f"({value_char(v + 1)})") + g.name(i)
            last, step = v, 1
        if out:
            out.append(kinds[k - 1])
        out.append(token)
        k += step
    return "".join(out)
