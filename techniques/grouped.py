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
from functools import partial

from explainer.core import search
from explainer.model.explanation import Explanation, cands, cell_coords
from explainer.model.grid import Geometry, bits, value_char
from explainer.model.i18n import Words, say
from explainer.model.roles import chain, on_cells
from explainer.model.session import session_of
from explainer.model.state import State
from explainer.model.technique import NO_CONTEXT, Context, Lead

from .chains import CANNOT, IF_NOT, IS, IS_NOT, SO, because, eureka_text
from .links import links

MAX_LENGTH = 9  # 11 finds a few more, at a quarter more time

GROUPED = {
    "en": "Grouped chain: {formal}. {plain} So {start} or {end}: either way, {targets}, because {because}.",
    "fr": "Chaîne groupée : {formal}. {plain} Donc {start} ou {end} : dans les deux cas, {targets}, car "
          "{because}.",
}
BECAUSE = {
    "en": ("each removed candidate sees every cell of both ends",
           ", and every other removed candidate sees every cell of both ends"),
    "fr": ("chaque candidat retiré voit toutes les cases des deux extrémités",
           ", et chaque autre candidat retiré voit toutes les cases des deux extrémités"),
}
HAS = {"en": "{cell} has a {v}", "fr": "{cell} contient un {v}"}
HAS_NOT = {"en": "{cell} has no {v}", "fr": "{cell} ne contient pas de {v}"}
AND = {"en": " and ", "fr": " et "}


Node = search.GroupedNode  # (value - 1, cell mask)


def _name(geo: Geometry, node: Node) -> str:
    cells = list(bits(node[1]))
    if len(cells) == 1:
        return geo.cell_name(cells[0])
    rows = sorted({geo.row_of[c] + 1 for c in cells})
    cols = sorted({geo.col_of[c] + 1 for c in cells})
    sep = "" if geo.n <= 9 else ","
    return f"r{sep.join(map(str, rows))}c{sep.join(map(str, cols))}"


def _is_group(node: Node) -> bool:
    return bool(node[1] & (node[1] - 1))


def _phrase(geo: Geometry, node: Node, true: bool, lang: str) -> str:
    table = (HAS if true else HAS_NOT) if _is_group(node) else (IS if true else IS_NOT)
    return table[lang].format(cell=_name(geo, node), v=value_char(node[0] + 1))


def find_grouped_chain(state: State, ctx: Context = NO_CONTEXT, /,
                       max_length: int = MAX_LENGTH) -> Iterator[Explanation | Lead]:
    """Shortest grouped chains first, across every start (then in start order).

    The search is the core's (``explainer.core.search.grouped_events``): one
    breadth-first search per start, nodes never sharing a candidate; once a chain
    of length L is found the later starts stop at L, so the chains of the shortest
    length come out in start order, as a search advancing every start a level at a
    time gives them. Only a caller wanting more than those pays for the full
    searches, which yield the rest in that same order."""
    session = session_of(state, ctx)
    n = state.geo.n
    lk = None if search.compiled() else links(state, session)
    memo = None if search.compiled() else session.parts("grouped.values")
    found = search.grouped_events(n, state.cand, state.pos, max_length, False, lk, memo)
    if not found:
        return
    made = _lead if ctx.leads else _step
    for _, _, nodes, elim in found:
        yield made(state, list(nodes), elim)
    # a caller wanting more (SE's path rates several steps): every chain, the shortest first
    for _, _, nodes, elim in search.grouped_events(n, state.cand, state.pos, max_length, True, lk, memo)[len(found):]:
        yield made(state, list(nodes), elim)


def _lead(state: State, nodes: list[Node], elim: int) -> Lead:
    """A chain as a lead ranked by its bare step (``Lead.bare``), built whole only if taken."""
    bare = _step(state, nodes, elim, words=False)
    return Lead(bare.technique, partial(_step, state, nodes, elim), eliminate=len(bare.eliminate), bare=bare)


def _first_cand(geo: Geometry, node: Node) -> tuple[int, int, int]:
    c = (node[1] & -node[1]).bit_length() - 1
    n = geo.n
    return (c // n, c % n, node[0] + 1)


def _step(state: State, nodes: list[Node], elim: int, words: bool = True) -> Explanation:
    """The grouped chain's step; without ``words`` its bare form (no text, translations or
    roles: what the engine ranks a lead by)."""
    geo: Geometry = state.geo
    N = geo.ncells
    kinds = "".join("=" if k % 2 == 0 else "-" for k in range(len(nodes) - 1))
    removed = sorted(bits(elim), key=lambda x: (x % N, x))
    strong: list[tuple[tuple[int, int, int], tuple[int, int, int]]] = []
    weak: list[tuple[tuple[int, int, int], tuple[int, int, int]]] = []
    for k, kind in enumerate(kinds):
        link = (_first_cand(geo, nodes[k]), _first_cand(geo, nodes[k + 1]))
        (strong if kind == "=" else weak).append(link)
    groups = [node for node in nodes if _is_group(node)]
    eliminate = cands(geo, ((x % N, x // N + 1) for x in removed))
    cells_alt = cell_coords(geo, (c for _, mask in groups for c in bits(mask)))
    marked = cands(geo, ((c, v + 1) for v, mask in nodes for c in bits(mask)))
    detail = (("length", len(nodes) - 1),
              ("groups", tuple(cands(geo, ((c, v + 1) for c in bits(mask))) for v, mask in groups)))
    if not words:
        return Explanation(technique="grouped chain", eliminate=eliminate, cells_alt=cells_alt, marked=marked,
                           strong_links=tuple(strong), weak_links=tuple(weak), detail=detail)
    formal = _eureka(geo, nodes, kinds)
    targets = ", ".join(f"{geo.cell_name(x % N)}<>{value_char(x // N + 1)}" for x in removed)
    by_lang = {}
    for lang in ("en", "fr"):
        rest = [_phrase(geo, nodes[k], k % 2 == 1, lang) for k in range(1, len(nodes))]
        by_lang[lang] = IF_NOT[lang].format(first=_phrase(geo, nodes[0], False, lang), rest=SO[lang].join(rest))
    target_words = {lang: AND[lang].join(CANNOT[lang].format(cell=geo.cell_name(x % N), v=value_char(x // N + 1))
                                         for x in removed) for lang in ("en", "fr")}
    ends = nodes[0][1] | nodes[-1][1]
    inside = [(geo.cell_name(x % N), value_char(x // N + 1)) for x in removed if ends >> (x % N) & 1]
    return Explanation(
        technique="grouped chain", eliminate=eliminate, cells_alt=cells_alt, marked=marked,
        strong_links=tuple(strong), weak_links=tuple(weak),
        **say(GROUPED, formal=f"{formal} => {targets}", plain=Words(**by_lang), targets=Words(**target_words),
              start=Words(en=_phrase(geo, nodes[0], True, "en"), fr=_phrase(geo, nodes[0], True, "fr")),
              end=Words(en=_phrase(geo, nodes[-1], True, "en"), fr=_phrase(geo, nodes[-1], True, "fr")),
              because=because(inside, len(inside) < len(removed), BECAUSE)),
        detail=detail,
        roles=(on_cells("grouped", geo, (c for _, mask in groups for c in bits(mask))),)
        + chain([[(c // geo.n, c % geo.n, v + 1) for c in bits(mask)] for v, mask in nodes], kinds, False),
    )


def _eureka(geo: Geometry, nodes: list[Node], kinds: str) -> str:
    """Eureka notation with groups: ``(5)r1c12=r1c7-(5=3)r2c8``."""
    index = list(range(len(nodes)))
    return eureka_text(index, kinds, lambda k: nodes[k][0] + 1, lambda k: _name(geo, nodes[k]),
                       lambda k, j: not _is_group(nodes[k]) and not _is_group(nodes[j]) and nodes[k][1] == nodes[j][1])
