"""Grouped nice loops and AICs with group and ALS nodes, every kind (``steps``).

The engine's grouped chain search (``grouped``) finds the shortest grouped
chains. A teacher listing every step of a position, and a collector
comparing with HoDoKu's grouped nice loops, also want:

- *ALS nodes* (HoDoKu's "ALS" in grouped chains, SudokuWiki's "ALS links"): an
  almost locked set A (p cells, p + 1 values) that loses every x is locked on
  its other values, so it holds y: "A has x" = "A has y" is a strong link
  between the group of A's x cells and the group of its y cells. A node is a
  value and a set of cells ("one of these cells is v"): a single candidate, a
  box-line group, or an ALS's cells holding a value;
- *continuous loops* (HoDoKu's grouped continuous nice loop): a chain whose
  end sees its start closes; then every link holds exactly one true end, so
  each weak link removes what sees both its nodes, and an ALS link leaves its
  set locked on its other values, which go from every cell seeing all of one;
- *discontinuous loops placing a candidate*: X false makes a node false whose
  strong link with X makes X true (HoDoKu's set value); the other
  discontinuous kinds are chains whose two ends X sees (delete candidate).

Only chains holding a group or an ALS link are listed (the others are the
plain chain search's). Links are checked one by one, so a step is sound
however its nodes lie. Only listing every step runs this (``find``, the grouped chain
record's ``Technique.every``), after the grouped chain search: the engine never pays for it.
"""
from __future__ import annotations

from collections.abc import Iterable, Iterator

from explainer.core.search import chain_path
from explainer.model.explanation import Explanation, cands, cell_coords
from explainer.model.grid import bits, value_char
from explainer.model.i18n import Words, say
from explainer.model.roles import chain, on_cells, set_roles
from explainer.model.state import State
from explainer.model.technique import NO_CONTEXT, Context, built

from .als import ALS, als_list
from .chains import CANNOT, IF_NOT, IS, IS_NOT, SO, because, eureka_text
from .grouped import AND, BECAUSE, GROUPED, HAS, HAS_NOT, find_grouped_chain
from .links import links

MAX_LINKS = 17  # links of a chain or loop (HoDoKu's grouped loops of the library reach 16)
MAX_ALS = 6  # cells of an ALS used as a node

LOOP = {
    "en": "Grouped loop: {formal}. The chain closes on itself, so every link of it holds exactly one true end: "
          "{targets} (seeing both ends of a weak link, or outside a set left locked).",
    "fr": "Boucle groupée : {formal}. La chaîne se referme, donc chacun de ses liens a exactement une "
          "extrémité vraie : {targets} (qui voient les deux extrémités d'un lien faible, ou hors d'un "
          "ensemble resté verrouillé).",
}
PLACE = {
    "en": "Grouped discontinuous loop: {formal}. {plain} But then {cell} would be {v} after all: assuming it is "
          "not {v} contradicts itself, so {cell} is {v}.",
    "fr": "Boucle groupée discontinue : {formal}. {plain} Mais alors {cell} vaudrait {v} quand même : supposer "
          "qu'elle ne vaut pas {v} se contredit, donc {cell} vaut {v}.",
}
LOCKED = {"en": "the set {cell} (only {values}) is locked and has a {v}",
          "fr": "l'ensemble {cell} (seulement {values}) est verrouillé et contient un {v}"}


class _Net:
    """Nodes (a value and a cell mask), their strong and weak links, once per state.

    A single candidate keeps its ``links`` number (v * N + cell); groups and ALS cells come
    after, from n * N. ``als_link[(i, j)]``: the ALS of a strong link that only an ALS gives."""

    def __init__(self, state: State) -> None:
        geo = state.geo
        n, N = geo.n, geo.ncells
        pos, peer = state.pos, geo.peer_mask
        lk = links(state)
        self.state, self.geo, self.N, self.lk = state, geo, N, lk
        self.singles = singles = n * N
        values = [i // N for i in range(singles)]
        masks = [1 << (i % N) for i in range(singles)]
        index: dict[tuple[int, int], int] = {}

        def node(v: int, mask: int) -> int:
            if not mask & (mask - 1):
                return v * N + mask.bit_length() - 1
            i = index.get((v, mask))
            if i is None:
                i = index[v, mask] = len(values)
                values.append(v)
                masks.append(mask)
            return i

        strong: dict[int, set[int]] = {i: set(js) for i, js in lk.strong.items()}
        self.als_link: dict[tuple[int, int], ALS] = {}

        def link(a: int, b: int, als: ALS | None = None) -> None:
            if b in strong.get(a, ()):
                return
            strong.setdefault(a, set()).add(b)
            strong.setdefault(b, set()).add(a)
            if als is not None:
                self.als_link[a, b] = self.als_link[b, a] = als

        for v in range(n):  # box-line groups and their strong links in a house
            for line, box, im in geo.intersections:
                g = pos[v] & im
                if g & (g - 1):
                    gi = node(v, g)
                    for h in (line, box):
                        rest = pos[v] & geo.house_mask[h] & ~g
                        if rest and (not rest & (rest - 1) or (v, rest) in index):
                            link(gi, node(v, rest))
        for a in als_list(state):  # an ALS that loses x holds y
            if not 2 <= a.size <= MAX_ALS:
                continue
            vs = list(a.where.items())
            for k, (x, wx) in enumerate(vs):
                for y, wy in vs[k + 1:]:
                    link(node(x, wx), node(y, wy), a)
        self.values, self.masks = values, masks
        self.strong = {i: sorted(js) for i, js in strong.items()}
        size = len(values)
        # cells seeing every cell of a node, the nodes sharing a candidate with it, its weak links
        seeing = [0] * size
        for i in range(size):
            if i >= singles or pos[values[i]] >> (i % N) & 1:
                s = geo.all_cells
                for c in bits(masks[i]):
                    s &= peer[c]
                seeing[i] = s
        by_value: list[list[int]] = [[] for _ in range(n)]
        for i in range(singles, size):
            by_value[values[i]].append(i)
        conflict = [1 << i for i in range(size)]
        weak = [0] * size
        for i in range(singles):
            if pos[values[i]] >> (i % N) & 1:
                weak[i] = lk.weak[i]
        for v, multi in enumerate(by_value):
            base = v * N
            for i in multi:
                m = masks[i]
                weak[i] |= (seeing[i] & pos[v]) << base
                for c in bits(m):
                    conflict[base + c] |= 1 << i
                    conflict[i] |= 1 << (base + c)
                for c in bits(pos[v] & seeing[i]):
                    weak[base + c] |= 1 << i
                for j in multi:
                    if j != i and masks[j] & m:
                        conflict[i] |= 1 << j
                    elif j != i and not masks[j] & ~seeing[i]:
                        weak[i] |= 1 << j
        self.seeing, self.conflict, self.weak = seeing, conflict, weak
        self.has_strong = 0
        for i in self.strong:
            self.has_strong |= 1 << i

    def sees(self, i: int) -> int:
        """Candidate numbers weakly linked to node i (what a chain end at i removes with the other)."""
        if i < self.singles:
            return self.lk.weak[i]
        v = self.values[i]
        return (self.seeing[i] & self.state.pos[v]) << (v * self.N)

    def special(self, i: int, j: int) -> bool:
        return i >= self.singles or j >= self.singles or (i, j) in self.als_link

    def name(self, i: int) -> str:
        cells = list(bits(self.masks[i]))
        if len(cells) == 1:
            return self.geo.cell_name(cells[0])
        from .alschains import set_name

        return set_name(self.geo, self.masks[i])


def find(state: State, ctx: Context = NO_CONTEXT, /) -> Iterator[Explanation]:
    """The grouped chain search's steps, then every grouped loop and chain it leaves out."""
    return every(state, built(find_grouped_chain(state, NO_CONTEXT)))


def every(state: State, before: Iterable[Explanation] = ()) -> Iterator[Explanation]:
    """The steps ``before`` (the engine's grouped chains), then every grouped chain, loop and
    placing discontinuous loop with a group or an ALS link, per start, shortest first, each
    change once."""
    seen: set[tuple[object, ...]] = set()
    for step in before:
        seen.add((step.place, step.eliminate))
        yield step
    net = _Net(state)
    for s in sorted(net.strong):
        for step in _from(net, s):
            key = (step.place, step.eliminate)
            if key not in seen:
                seen.add(key)
                yield step


def _from(net: _Net, s: int) -> Iterator[Explanation]:
    strong, weak, conflict = net.strong, net.weak, net.conflict
    ends = 0
    for j in strong[s]:
        ends |= 1 << j
    ws = net.sees(s)
    par = {2 * s: -1}
    von, voff = 0, 1 << s
    front = [(s, conflict[s], s >= net.singles)]
    placed = s >= net.singles  # only a single candidate can be placed
    for length in range(1, MAX_LINKS + 1):
        out = []
        if length % 2:  # false -> true through strong links
            for i, block, sp in front:
                for j in strong[i]:
                    if (block | von) >> j & 1:
                        continue
                    von |= 1 << j
                    par[2 * j + 1] = 2 * i
                    out.append((j, block | conflict[j], sp or net.special(i, j)))
        else:  # true -> false through weak links, to nodes that go on by a strong link
            for i, block, sp in front:
                w = weak[i] & net.has_strong & ~block & ~voff
                voff |= w
                for j in bits(w):
                    par[2 * j] = 2 * i + 1
                    out.append((j, block | conflict[j], sp or j >= net.singles))
        if not out:
            return
        for j, _, sp in out:
            if length % 2 == 0:
                if not placed and ends >> j & 1 and (sp or net.special(j, s)):
                    placed = True
                    yield _place(net, chain_path(par, 2 * j))
            elif sp and length >= 3:
                if weak[s] >> j & 1:
                    step = _loop(net, chain_path(par, 2 * j + 1))
                    if step is not None:
                        yield step
                elim = ws & net.sees(j)
                if elim:
                    yield _chain(net, chain_path(par, 2 * j + 1), elim)
        front = out


def _loop(net: _Net, nodes: list[int]) -> Explanation | None:
    """A continuous loop: per weak link what sees both nodes; per ALS link, the set's other values
    outside it."""
    elim = 0
    count = len(nodes)
    for k in range(count):
        a, b = nodes[k], nodes[(k + 1) % count]
        if k % 2:
            elim |= net.sees(a) & net.sees(b)
        elif (a, b) in net.als_link:
            als = net.als_link[a, b]
            keep = {net.values[a], net.values[b]}
            for z, seeing in als.sees.items():
                if z not in keep:
                    elim |= (seeing & net.state.pos[z]) << (z * net.N)
    if not elim:
        return None
    return _step(net, nodes, "=-" * (count // 2), elim, loop=True)


def _chain(net: _Net, nodes: list[int], elim: int) -> Explanation:
    return _step(net, nodes, "=-" * (len(nodes) // 2 - 1) + "=", elim)


def _place(net: _Net, nodes: list[int]) -> Explanation:
    return _step(net, nodes, "=-" * (len(nodes) // 2) + "=", 0, place=True)


def _phrase(net: _Net, nodes: list[int], k: int, lang: str) -> str:
    i, true = nodes[k], k % 2 == 1
    v = value_char(net.values[i] + 1)
    if true and k and (nodes[k - 1], i) in net.als_link:
        als = net.als_link[nodes[k - 1], i]
        return LOCKED[lang].format(cell=_set(net, als), v=v,
                                   values=", ".join(value_char(x + 1) for x in bits(als.values)))
    group = net.masks[i] & (net.masks[i] - 1)
    table = (HAS if true else HAS_NOT) if group else (IS if true else IS_NOT)
    return table[lang].format(cell=net.name(i), v=v)


def _set(net: _Net, als: ALS) -> str:
    from .alschains import set_name

    return set_name(net.geo, als.cells)


def _step(net: _Net, nodes: list[int], kinds: str, elim: int, loop: bool = False,
          place: bool = False) -> Explanation:
    geo, N = net.geo, net.N
    n = geo.n
    removed = sorted(bits(elim), key=lambda x: (x % N, x))
    placed: tuple[tuple[int, int, int], ...] = ()
    if place:
        s = nodes[0]
        cell, v = s % N, s // N
        placed = ((cell // n, cell % n, v + 1),)
        removed = sorted((u * N + cell for u in bits(net.state.cand[cell]) if u != v), key=lambda x: (x % N, x))
    targets = ", ".join(f"{geo.cell_name(x % N)}<>{value_char(x // N + 1)}" for x in removed)
    closing = nodes + [nodes[0]] if loop or place else nodes
    formal = eureka_text(closing, kinds, lambda i: net.values[i] + 1, net.name,
                         lambda i, j: i < net.singles and j < net.singles and net.masks[i] == net.masks[j])
    formal += f" => {geo.cell_name(nodes[0] % N)}={value_char(nodes[0] // N + 1)}" if place else f" => {targets}"
    strong_links: list[tuple[tuple[int, int, int], tuple[int, int, int]]] = []
    weak_links: list[tuple[tuple[int, int, int], tuple[int, int, int]]] = []
    for k, kind in enumerate(kinds):
        pair = (_first(net, closing[k]), _first(net, closing[k + 1]))
        (strong_links if kind == "=" else weak_links).append(pair)
    plain = {lang: IF_NOT[lang].format(first=_phrase(net, nodes, 0, lang),
                                       rest=SO[lang].join(_phrase(net, nodes, k, lang) for k in range(1, len(nodes))))
             for lang in ("en", "fr")}
    words = {lang: AND[lang].join(CANNOT[lang].format(cell=geo.cell_name(x % N), v=value_char(x // N + 1))
                                  for x in removed) for lang in ("en", "fr")}
    sets = [net.als_link[a, b] for a, b in zip(closing, closing[1:], strict=False) if (a, b) in net.als_link]
    groups = [i for i in nodes if i >= net.singles]
    if place:
        text = say(PLACE, formal=formal, plain=Words(**plain), cell=geo.cell_name(nodes[0] % N),
                   v=value_char(nodes[0] // N + 1))
    elif loop:
        text = say(LOOP, formal=formal, targets=Words(**words))
    else:
        ends = {lang: (_phrase(net, [nodes[0], nodes[0]], 1, lang), _phrase(net, [nodes[-1], nodes[-1]], 1, lang))
                for lang in ("en", "fr")}
        at_ends = net.masks[nodes[0]] | net.masks[nodes[-1]]
        inside = [(geo.cell_name(x % N), value_char(x // N + 1)) for x in removed if at_ends >> (x % N) & 1]
        text = say(GROUPED, formal=formal, plain=Words(**plain), targets=Words(**words),
                   start=Words(**{lang: e[0] for lang, e in ends.items()}),
                   end=Words(**{lang: e[1] for lang, e in ends.items()}),
                   because=because(inside, len(inside) < len(removed), BECAUSE))
    return Explanation(
        technique="grouped chain", place=placed,
        eliminate=cands(geo, ((x % N, x // N + 1) for x in removed)),
        cells=cell_coords(geo, (c for a in sets for c in bits(a.cells))),
        cells_alt=cell_coords(geo, (c for i in groups for c in bits(net.masks[i]))),
        marked=cands(geo, ((c, net.values[i] + 1) for i in nodes for c in bits(net.masks[i]))),
        strong_links=tuple(strong_links), weak_links=tuple(weak_links), **text,
        detail=(("length", len(kinds)), ("kind", "set value" if place else "loop" if loop else "chain"),
                ("als", len(sets)),
                ("groups", tuple(cands(geo, ((c, net.values[i] + 1) for c in bits(net.masks[i]))) for i in groups))),
        roles=(*(set_roles(geo, k, a.cells) for k, a in enumerate(sets)),
               on_cells("grouped", geo, (c for i in groups for c in bits(net.masks[i]))))
        + chain([[(c // n, c % n, net.values[i] + 1) for c in bits(net.masks[i])] for i in nodes], kinds, False,
                closed=loop or place),
    )


def _first(net: _Net, i: int) -> tuple[int, int, int]:
    m = net.masks[i]
    c = (m & -m).bit_length() - 1
    n = net.geo.n
    return (c // n, c % n, net.values[i] + 1)
