"""ALS XY wing, ALS chain and death blossom: almost locked sets joined by restricted common values.

Standard definition (HoDoKu's "ALS-XY-Wing"): ALSs A, B and C, pairwise
without a shared cell; C has a restricted common value x with A and another,
y, with B (``als.restricted_pairs``). C holds one value more than cells, so it
cannot lose both x and y: if x is true in C, A has no x and is locked on its
other values; if y is, B is. Either way A or B is locked, so a value z common
to A and B (neither x nor y) is true in one of them, and a z candidate seeing
every z of A and of B is false. Frames: C in ``cells``, A and B in
``cells_alt``; x and y in C in ``marked``, the z candidates of A and B in
``marked_alt``.

Death blossom (HoDoKu's, SudokuWiki's): a *stem* cell S and, for each of its
candidates v, a *petal*: an ALS, pairwise disjoint and without S, whose v
candidates all see S. Whatever S is, v, its petal loses v and is locked on
its other values; so a value z in every petal (not a candidate of S) is true
in one of them, and z goes from the cells seeing every z of every petal.
Frames: the stem in ``cells``, the petals in ``cells_alt``, each petal's v
in ``marked``, the z candidates in ``marked_alt``. Stems of three values are
searched (two are the ALS XY wing's), petals of at most ``MAX_SIZE`` cells.

ALS chain (HoDoKu's "ALS-Chain", SudokuWiki's ALS chains): ALSs A1 … An,
pairwise disjoint, each sharing a restricted common x(k) with the next, two
consecutive ones different. If A1 has no z it is locked on its other values
and holds x(1); then A2 has no x(1), is locked and holds x(2) (x(2) differs
from x(1), which is why they must differ), and so on, until An loses x(n-1)
and holds z. So a value z of A1 and An (neither x(1) nor x(n-1)) is true in
one of them, and leaves every cell seeing all z of both. n = 3 is the ALS XY
wing (tried before); chains of 4 to ``MAX_CHAIN`` ALSs of at most
``MAX_SIZE`` cells are searched, shortest first. Frames: A1, A3 … in
``cells``, A2, A4 … in ``cells_alt`` (neighbours never share a role); each
x(k) in its two sets in ``marked``; the z candidates of A1 and An in
``marked_alt``; the text names each set (``set_name``) and linking value in
chain order.
"""
from __future__ import annotations

from collections.abc import Iterator

from explainer.explanation import Explanation, cands, cell_coords
from explainer.grid import Geometry, bits, value_char
from explainer.i18n import LANGS, Cells, Value, Values, Words, join, say
from explainer.state import State
from explainer.technique import NO_CONTEXT, Context

from .als import ALS, als_list, restricted_pairs

ALS_XY_WING = {
    "en": "ALS XY wing: the set {c} (holding only {vc}) shares the restricted value {x} with the set {a} "
          "(only {va}) and {y} with the set {b} (only {vb}). The set {c} cannot lose both {x} and {y}, so "
          "the set {a} loses {x} or the set {b} loses {y}, and that set is then locked on its other values: "
          "either way {z} is in {a} or in {b}, so {targets} (seeing every {z} of both) cannot be {z}.",
    "fr": "ALS XY wing : {c} (seulement {vc}) partage la valeur restreinte {x} avec {a} (seulement {va}) "
          "et {y} avec {b} (seulement {vb}). {c} ne peut pas perdre à la fois {x} et {y}, donc {a} perd "
          "{x} ou {b} perd {y}, et cet ensemble est alors verrouillé sur ses autres valeurs : dans tous "
          "les cas le {z} est dans {a} ou dans {b}, donc {targets} (qui voient tous les {z} des deux) ne "
          "peuvent pas valoir {z}.",
}


MAX_SIZE = 4  # cells per ALS: larger ones make the pair search quadratic in a long list


def _pairs(state: State) -> list[tuple[int, int, int]]:
    """Restricted commons between ALSs of at most ``MAX_SIZE`` cells, built once per state: the
    ALS XY wing and the ALS chain, tried one after the other on the same state, share them."""
    return state.cached("alschains.pairs", lambda s: restricted_pairs(s, 1, MAX_SIZE))


def find_als_xy_wing(state: State, ctx: Context = NO_CONTEXT, /) -> Iterator[Explanation]:
    """Middle ALSs C in list order (smallest first), then their partner pairs."""
    pos = state.pos
    sets = als_list(state)
    live_of: dict[int, int] = {}  # ALS index -> the values z of it that something could lose
    partners: dict[int, list[tuple[int, int, int]]] = {}
    for i, j, x in _pairs(state):
        for mid, o in ((i, j), (j, i)):
            live = live_of.get(o)
            if live is None:
                other = sets[o]
                live = 0
                for z, seeing in other.sees.items():
                    if pos[z] & seeing:
                        live |= 1 << z
                live_of[o] = live
            live &= ~(1 << x)
            if live:
                partners.setdefault(mid, []).append((o, x, live))
    for ic in sorted(partners):
        plist = partners[ic]
        c = sets[ic]
        for k, (ia, x, live_a) in enumerate(plist):
            a = sets[ia]
            for ib, y, live_b in plist[k + 1:]:
                zs = live_a & live_b & ~(1 << y | 1 << x)
                if x == y or not zs:
                    continue
                b = sets[ib]
                if a.cells & b.cells:
                    continue
                for z in bits(zs):
                    elim = pos[z] & a.sees[z] & b.sees[z]
                    if elim:
                        yield _step(state, a, b, c, x, y, z, elim)


def _step(state: State, a: ALS, b: ALS, c: ALS, x: int, y: int, z: int, elim: int) -> Explanation:
    geo = state.geo
    return Explanation(
        technique="als xy wing",
        eliminate=cands(geo, [(cc, z + 1) for cc in bits(elim)]),
        cells=cell_coords(geo, bits(c.cells)), cells_alt=cell_coords(geo, bits(a.cells | b.cells)),
        marked=cands(geo, [(cc, v + 1) for v in (x, y) for cc in bits(c.where[v])]),
        marked_alt=cands(geo, [(cc, z + 1) for s in (a, b) for cc in bits(s.where[z])]),
        **say(ALS_XY_WING, a=Cells(geo, bits(a.cells)), b=Cells(geo, bits(b.cells)), c=Cells(geo, bits(c.cells)),
              va=Values(v + 1 for v in bits(a.values)), vb=Values(v + 1 for v in bits(b.values)),
              vc=Values(v + 1 for v in bits(c.values)), x=Value(x + 1), y=Value(y + 1), z=Value(z + 1),
              targets=Cells(geo, bits(elim))),
        detail=(("sizes", (a.size, b.size, c.size)), ("restricted", (x + 1, y + 1)), ("value", z + 1)),
    )


DEATH_BLOSSOM = {
    "en": "Death blossom: the stem {stem} holds only {stem_values}. {petals}. Whatever the stem is, the "
          "petal of that value loses it and is locked on its other values, so one petal holds {z}, and "
          "{targets} (seeing every {z} of the petals) cannot be {z}.",
    "fr": "Death blossom : la tige {stem} ne contient que {stem_values}. {petals}. Quelle que soit la "
          "valeur de la tige, le pétale de cette valeur la perd et se verrouille sur ses autres valeurs, "
          "donc un pétale contient {z}, et {targets} (qui voient tous les {z} des pétales) ne peuvent "
          "pas valoir {z}.",
}
PETAL = {
    "en": "for {v}, the petal {cells} (only {values}) has all its {v}s seeing the stem",
    "fr": "pour le {v}, le pétale {cells} (seulement {values}) a tous ses {v} qui voient la tige",
}


class _Petals(Values):
    """The petals read one after the other."""

    def __init__(self, geo: Geometry, petals: list[tuple[int, ALS]]) -> None:
        self.items = [say(PETAL, v=Value(v + 1), cells=Cells(geo, bits(a.cells)),
                          values=Values(x + 1 for x in bits(a.values))) for v, a in petals]

    def fmt(self, lang: str) -> str:
        texts = [item["text"] if lang == "en" else dict(item["translations"]).get(lang, item["text"])
                 for item in self.items]
        joined = ("; " if lang == "en" else " ; ").join(texts)
        return joined[:1].upper() + joined[1:]


def find_death_blossom(state: State, ctx: Context = NO_CONTEXT, /) -> Iterator[Explanation]:
    """Trivalue stems in cell order, then values z, then petal triples (smaller ALSs first)."""
    cand, pos = state.cand, state.pos
    sets = als_list(state)
    stems = 0
    for cell, m in enumerate(cand):
        if m.bit_count() == 3:
            stems |= 1 << cell
    if not stems:
        return
    # petals per (stem, value), each with its live values (those something outside could lose)
    petals: dict[tuple[int, int], list[tuple[ALS, int]]] = {}
    for a in sets:
        if a.size > MAX_SIZE:
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
            for stem in bits(m):
                petals.setdefault((stem, v), []).append((a, live))
    for s in bits(stems):
        vs = list(bits(cand[s]))
        lists = [petals.get((s, v)) or [] for v in vs]
        if not all(lists):
            continue
        # z: live in a petal of each value (a petal without z, or whose z nothing sees, is no use)
        common = ~cand[s]
        for lst in lists:
            u = 0
            for _, live in lst:
                u |= live
            common &= u
        for z in bits(common):
            zb = 1 << z
            zl = [[a for a, live in lst if live & zb] for lst in lists]
            pz = pos[z]
            for a in zl[0]:
                m1 = pz & a.sees[z]
                for b in zl[1]:
                    if b.cells & a.cells:
                        continue
                    m2 = m1 & b.sees[z]
                    if not m2:
                        continue
                    for c in zl[2]:
                        if c.cells & (a.cells | b.cells):
                            continue
                        m3 = m2 & c.sees[z] & ~(1 << s)
                        if m3:
                            yield _blossom(state, s, list(zip(vs, (a, b, c), strict=True)), z, m3)


def _blossom(state: State, stem: int, petals: list[tuple[int, ALS]], z: int, elim: int) -> Explanation:
    geo = state.geo
    cells = 0
    for _, a in petals:
        cells |= a.cells
    return Explanation(
        technique="death blossom",
        eliminate=cands(geo, [(c, z + 1) for c in bits(elim)]),
        cells=cell_coords(geo, [stem]), cells_alt=cell_coords(geo, bits(cells)),
        marked=cands(geo, [(c, v + 1) for v, a in petals for c in bits(a.where[v])]),
        marked_alt=cands(geo, [(c, z + 1) for _, a in petals for c in bits(a.where[z])]),
        **say(DEATH_BLOSSOM, stem=Cells(geo, [stem]), stem_values=Values(v + 1 for v in bits(state.cand[stem])),
              petals=_Petals(geo, petals), z=Value(z + 1), targets=Cells(geo, bits(elim))),
        detail=(("stem", geo.rc(stem)), ("petals", tuple(a.size for _, a in petals)), ("value", z + 1)),
    )


ALS_CHAIN = {
    "en": "ALS chain: {chain}. Each set holds one value more than cells, and each linking value is a "
          "restricted common: every such candidate of one set sees every one of the next, so the two sets "
          "cannot both have it. If {a1} had no {z}, it would be locked on its other values and hold {x1}; "
          "then {steps}. Either way {z} is in {a1} or in {an}, so {targets} (seeing every {z} of both) "
          "cannot be {z}.",
    "fr": "Chaîne ALS : {chain}. Chaque ensemble contient une valeur de plus que de cases, et chaque valeur "
          "de liaison est restreinte : chacun de ses candidats dans un ensemble voit tous ceux du suivant, "
          "donc les deux ensembles ne peuvent pas l'avoir tous les deux. Si {a1} n'avait pas de {z}, il "
          "serait verrouillé sur ses autres valeurs et contiendrait {x1} ; alors {steps}. Dans tous les cas "
          "le {z} est dans {a1} ou dans {an}, donc {targets} ({see} tous les {z} des deux) ne {can} pas "
          "valoir {z}.",
}
CHAIN_SET = {"en": "{cells} (only {values})", "fr": "{cells} (seulement {values})"}
CHAIN_LINK = {"en": ", linked by {x} to ", "fr": ", relié par {x} à "}
CHAIN_STEP = {"en": "{cells} would lose {x} and hold {y}", "fr": "{cells} perdrait {x} et contiendrait {y}"}

MAX_CHAIN = 6  # ALSs in a chain; 3 is the ALS XY wing, found before
# Nodes one call may push: a bound for dense graphs of big grids (top1465, hardest300 and
# se_rated stay far below it), beyond which the search stops as if it found nothing more.
# The search pushes only branches that can still end a chain (a few hundred nodes over the
# 573 calls of top1465 1-300), so it meets the bound far later than a plain search would.
MAX_NODES = 200_000


def set_name(geo: Geometry, cells: int) -> str:
    """A set of cells in few characters: 'r5c1', 'r27c5', 'r8c24', 'r1c1+r3c12' (rows sharing
    their columns, or columns sharing their rows, whichever reads shorter)."""
    sep = "" if geo.n <= 9 else ","
    names = []
    for by_row in (True, False):
        lines: dict[int, list[int]] = {}
        for c in bits(cells):
            r, k = geo.row_of[c] + 1, geo.col_of[c] + 1
            a, b = (r, k) if by_row else (k, r)
            lines.setdefault(a, []).append(b)
        merged: dict[tuple[int, ...], list[int]] = {}
        for a, line in lines.items():
            merged.setdefault(tuple(line), []).append(a)
        parts = []
        for key, same in merged.items():
            rows, cols = (same, list(key)) if by_row else (list(key), same)
            parts.append(f"r{sep.join(map(str, rows))}c{sep.join(map(str, cols))}")
        names.append("+".join(parts))
    return min(names, key=lambda t: (t.count("+"), len(t)))


def _chain_words(geo: Geometry, chain: list[ALS], rcs: list[int], z: int) -> tuple[Words, Words]:
    """The chain read aloud (its sets and linking values), and the locked sets one after the other."""
    names = [set_name(geo, a.cells) for a in chain]
    values = [Values(v + 1 for v in bits(a.values)) for a in chain]
    read, steps = {}, {}
    for lang in LANGS:
        out = CHAIN_SET[lang].format(cells=names[0], values=values[0].fmt(lang))
        for name, vs, x in zip(names[1:], values[1:], rcs, strict=True):
            out += CHAIN_LINK[lang].format(x=value_char(x + 1)) + CHAIN_SET[lang].format(
                cells=name, values=vs.fmt(lang))
        read[lang] = out
        # each set after the first loses the value before it and holds the next (the last, z)
        parts = []
        for k, name in enumerate(names[1:]):
            y = rcs[k + 1] if k + 1 < len(rcs) else z
            parts.append(CHAIN_STEP[lang].format(cells=name, x=value_char(rcs[k] + 1), y=value_char(y + 1)))
        steps[lang] = join(parts, lang)
    return Words(**read), Words(**steps)


class _Graph:
    """The restricted-common graph of one state, built once per call of the chain search.

    ``adj[i]``: (j, x, cells of j, arrival) for every ALS j sharing a restricted common x with
    ALS i (a pair with two restricted commons gives two edges); ``arrival`` numbers the pair
    (j, x), "at j, come by x"; ``same[arrival]``: the arrivals (k, x) of the edges leaving j
    by x, and ``siblings``: the arrivals of each ALS with two or more linking values. The
    search bounds its branches by sets of arrivals (bit masks over their numbers), not of
    ALSs: an arrival at the last ALS fixes the last linking value, which must differ from the
    value removed, so a goal of arrivals says "a chain ending here removes something"
    exactly, where a goal of ALSs was only "may". ``targets[i]``: (z, T) for each value z of
    ALS i that a candidate outside it could lose (T: those candidates, the cells seeing every
    z of i); ``ends(z, T)``: the arrivals (m, x), x not z, at ALSs m whose z some cell of T
    sees too, the possible last links of a chain from i removing z. ``overlap[i]``: the
    arrivals at ALSs sharing a cell with ALS i (i among them), which a chain through i cannot
    end at. ``near(r)[arrival]``: the arrivals at the end of a walk of exactly r edges from
    there whose consecutive edges differ (a bound on the chains: a walk may come back to an
    ALS)."""

    def __init__(self, state: State, sets: list[ALS]) -> None:
        pos = state.pos
        arrivals: dict[tuple[int, int], int] = {}
        adj: dict[int, list[tuple[int, int, int, int]]] = {}
        same: list[list[int]] = []
        for i, j, x in _pairs(state):
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
        # per ALS: its arrivals, and each value's arrival
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
        # ALSs grouped by (z, the z candidates outside seeing all their z): most share one;
        # a group holds the arrivals at its ALSs by another value than z
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
        # per value z, per cell: the arrivals of the ALSs whose every z the cell sees (lists, and
        # the cells taken bit by bit in line: this runs over every group's cells)
        seen_by: list[list[int]] = [[] for _ in pos]
        for (z, t), g in groups.items():
            row = seen_by[z]
            if not row:
                row = seen_by[z] = [0] * len(state.cand)
            while t:
                low = t & -t
                t ^= low
                row[low.bit_length() - 1] |= g
        self._seen_by = seen_by
        self._ends: dict[tuple[int, int], int] = {}
        # the cells of each ALS: the arrivals whose ALS holds it
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


def find_als_chain(state: State, ctx: Context = NO_CONTEXT, /) -> Iterator[Explanation]:
    """Chains of 4, then 5, then 6 ALSs (the shortest first), from the smaller first ALS.

    A depth-first search per length over the restricted-common graph: consecutive ALSs
    share a restricted common, two consecutive restricted commons differ, and the ALSs are
    pairwise disjoint. Each branch carries its goal, the arrivals (last ALS, last linking
    value) that would end a chain removing something: at an ALS after the first, by a value
    other than the first link's and the value removed, and sharing no cell with the ALSs
    taken so far. A branch is cut when no walk of the right length reaches its goal
    (``_Graph.near``), so every branch pushed one edge before the end finds a last ALS (or
    one already reported). Each (value, removed cells) is reported once, by its shortest
    chain. The goals only cut branches that could not end a chain: the chains found, and
    their order, are those of the plain search, except where a plain search would have met
    ``MAX_NODES`` (it counts pushed nodes, and this search pushes far fewer): there it goes
    on to the chains after those.

    Most calls find nothing and search every length, so the walks of every length are built
    at once, and a first ALS i is looked at only when a walk of some length from one of its
    arrivals' ``same`` edges reaches a possible end of i."""
    sets = als_list(state)
    graph = _Graph(state, sets)
    adj, overlap, same = graph.adj, graph.overlap, graph.same
    near = [graph.near(r) for r in range(MAX_CHAIN - 1)]
    # per arrival: the arrivals some walk of 2 to MAX_CHAIN - 2 edges from it reaches, and per
    # arrival (i, x): what the walks from the ALSs linked to i by x reach (a chain's first link)
    anyw = near[2]
    for r in range(3, MAX_CHAIN - 1):
        anyw = [a | b for a, b in zip(anyw, near[r], strict=True)]
    from_first = []
    for lst in same:
        m = 0
        for nxt in lst:
            m |= anyw[nxt]
        from_first.append(m)
    # the arrivals after each ALS (the last ALS comes later in the list: each chain read one way)
    later: dict[int, int] = {}
    reached: dict[int, int] = {}  # per ALS i: the arrivals some chain from i could end at
    acc = 0
    for i in sorted(adj, reverse=True):
        later[i] = acc
        acc |= graph.every[i]
    for (i, _), sid in graph.arrivals.items():
        reached[i] = reached.get(i, 0) | from_first[sid]
    # the first edges worth a search: (i, j, x1, arrival, cells used, goal)
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
        # the ends of the chains linked by x1: those of every z but x1 (zl has each z once)
        by_link: dict[int, int] = {}
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
    if not firsts:
        return
    done: set[tuple[int, int]] = set()
    budget = MAX_NODES
    outs, targets = graph.outs, graph.targets
    for edges in range(3, MAX_CHAIN):
        path = [0] * (edges + 1)  # path[d]: the ALS at depth d; rcs[d]: the value between d and d + 1
        rcs = [0] * edges
        for i, j, x1, sid, used0, goal0 in firsts:
            if not near[edges - 1][sid] & goal0:
                continue
            path[0], rcs[0] = i, x1
            # depth-first: (ALS, its arrival, depth, its incoming value, cells used, goal)
            stack = [(j, sid, 1, x1, used0, goal0)]
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
                        return
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
                                yield _chain_step(state, [sets[p] for p in path], list(rcs), z, elim)


def _chain_step(state: State, chain: list[ALS], rcs: list[int], z: int, elim: int) -> Explanation:
    geo = state.geo
    first, last = chain[0], chain[-1]
    odd = even = 0  # the sets alternate between the two cell roles, so neighbours differ
    for k, a in enumerate(chain):
        if k % 2:
            even |= a.cells
        else:
            odd |= a.cells
    targets = Cells(geo, bits(elim))
    read, steps = _chain_words(geo, chain, rcs, z)
    return Explanation(
        technique="als chain",
        eliminate=cands(geo, [(c, z + 1) for c in bits(elim)]),
        cells=cell_coords(geo, bits(odd)), cells_alt=cell_coords(geo, bits(even)),
        marked=cands(geo, [(c, x + 1) for k, x in enumerate(rcs) for a in chain[k:k + 2] for c in bits(a.where[x])]),
        marked_alt=cands(geo, [(c, z + 1) for a in (first, last) for c in bits(a.where[z])]),
        **say(ALS_CHAIN, chain=read, steps=steps,
              a1=set_name(geo, first.cells), an=set_name(geo, last.cells), x1=Value(rcs[0] + 1),
              z=Value(z + 1), targets=targets, see=targets.verb(en=("sees", "see"), fr=("qui voit", "qui voient")),
              can=targets.verb(en=("can", "can"), fr=("peut", "peuvent"))),
        detail=(("sizes", tuple(a.size for a in chain)), ("restricted", tuple(x + 1 for x in rcs)),
                ("value", z + 1)),
    )
