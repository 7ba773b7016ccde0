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

from collections.abc import Callable, Iterable, Iterator, Mapping
from functools import cache, partial
from typing import Any, TypeVar

from explainer.core import search
from explainer.model import rating
from explainer.model.explanation import Explanation, cands, cell_coords
from explainer.model.grid import Geometry, bits, value_char
from explainer.model.i18n import LANGS, Cells, Value, Values, Words, join, say, sentence
from explainer.model.roles import Role, on_cands, on_cells, set_link, set_roles
from explainer.model.session import Session, session_of
from explainer.model.state import State
from explainer.model.technique import NO_CONTEXT, Context, Lead

from .als import ALS, als_at, als_list, als_table, alternate_cells, restricted_pairs, targets_seeing

ALS_XY_WING = {
    "en": "ALS XY wing: the set {c} (holding only {vc}) shares the restricted value {x} with the set {a} "
          "(only {va}) and {y} with the set {b} (only {vb}). The set {c} cannot lose both {x} and {y}, so "
          "the set {a} loses {x} or the set {b} loses {y}, and that set is then locked on its other values: "
          "either way {z} is in {a} or in {b}, so {targets} (seeing every {z} of both) cannot be {z}.",
    "fr": "Aile XY d'EPV : l'ensemble {c} (seulement {vc}) partage la valeur restreinte {x} avec "
          "l'ensemble {a} (seulement {va}) et {y} avec l'ensemble {b} (seulement {vb}). L'ensemble {c} ne "
          "peut pas perdre à la fois {x} et {y}, donc l'ensemble {a} perd {x} ou l'ensemble {b} perd {y}, "
          "et cet ensemble est alors verrouillé sur ses autres valeurs : dans tous les cas le {z} est dans "
          "{a} ou dans {b}, donc {targets} ({see} tous les {z} des deux) ne {can} pas valoir {z}.",
}


MAX_SIZE = 4  # cells per ALS: larger ones make the pair search quadratic in a long list


def _pairs(state: State, session: Session) -> list[tuple[int, int, int]]:
    """Restricted commons between ALSs of at most ``MAX_SIZE`` cells, built once per state: the
    ALS XY wing and the ALS chain, tried one after the other on the same state, share them."""
    return session.derived("alschains.pairs", lambda s: restricted_pairs(s, 1, MAX_SIZE, session=session))


def _takes_leads(ctx: Context) -> bool:
    """True when the engine takes leads rated on SE's view (the simplest order's), where this
    family's steps are rated by their cells alone (``_least``)."""
    return ctx.leads and ctx.bound is not None and ctx.bound.view == "se-equivalent"


@cache
def _least(cells: int) -> float:
    """The rating on SE's view (``rating.ALS_AS_CHAIN``: SE's multiple forcing chain through
    the sets' cells) of an ALS XY wing, ALS chain or death blossom highlighting this many
    cells: a lead's, exact, so the engine builds only a step that may win."""
    return rating.rate(Explanation("als chain", cells=tuple((0, c) for c in range(cells))), rating.SE_MULTIPLE,
                       rating.ALS_AS_CHAIN)


def find_als_xy_wing(state: State, ctx: Context = NO_CONTEXT, /) -> Iterator[Explanation | Lead]:
    """Middle ALSs C in list order (smallest first), then their partner pairs
    (``explainer.core.search.als_xy_events``); as leads (``_takes_leads``), each built only
    if it may win."""
    session = session_of(state, ctx)
    leads = _takes_leads(ctx)
    for (ia, ib, ic, x, y, z, elim), sets in _events(state, session, search.als_xy_events, lambda e: e[:3]):
        a, b, c = sets[ia], sets[ib], sets[ic]
        if leads:
            yield Lead("als xy wing", partial(_step, state, a, b, c, x, y, z, elim),
                       _least(c.size + (a.cells | b.cells).bit_count()), 0, elim.bit_count())
        else:
            yield _step(state, a, b, c, x, y, z, elim)


# events asked of the compiled core at first: the engine reads one or two steps
FIRST_EVENTS = 4
E = TypeVar("E")


def _events(state: State, session: Session, search_events: Callable[..., list[E]],
            named: Callable[[E], Iterable[int]]) -> Iterator[tuple[E, Mapping[int, ALS]]]:
    """The events of an ALS search with the ALSs they name (``named``: an event's indexes into
    the state's ALS list): the first few, then more only for a caller reading past them. The
    compiled core reads the state's ALS table (``als.als_table``: one enumeration a state for
    the whole family; only the sets the events name are made here, if some event comes:
    ``als.als_at``); the pure path is given the session's ALS list and pairs."""
    n, cand, pos = state.geo.n, state.cand, state.pos
    pure: tuple[Any, ...] = ()
    if not search.compiled():
        sets = als_list(state, session)
        pure = (sets,) if search_events is search.blossom_events else (sets, _pairs(state, session))
    table = als_table(state, session)
    limit, done = FIRST_EVENTS, 0
    while True:
        events = search_events(n, cand, pos, MAX_SIZE, limit, *pure, table=table)
        if len(events) > done:
            got = als_at(state, session, (i for event in events[done:] for i in named(event)))
            for event in events[done:]:
                yield event, got
        if not limit or len(events) < limit:
            return
        done = len(events)
        limit = 0 if limit >= 256 else limit * 8


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
              **targets_seeing(Cells(geo, bits(elim)))),
        detail=(("sizes", (a.size, b.size, c.size)), ("restricted", (x + 1, y + 1)), ("value", z + 1)),
        roles=(set_roles(geo, 0, c.cells), set_roles(geo, 1, a.cells), set_roles(geo, 2, b.cells),
               on_cands("restricted-common", geo, [(cc, x + 1) for cc in bits(a.where[x] | c.where[x])]
                        + [(cc, y + 1) for cc in bits(b.where[y] | c.where[y])]),
               on_cands("z", geo, [(cc, z + 1) for cc in bits(a.where[z] | b.where[z])]),
               set_link(geo, x + 1, a.where[x], c.where[x]), set_link(geo, y + 1, c.where[y], b.where[y])),
    )


DEATH_BLOSSOM = {
    "en": "Death blossom: the stem {stem} holds only {stem_values}. {petals}. Whatever the stem is, the "
          "petal of that value loses it and is locked on its other values, so one petal holds {z}, and "
          "{targets} (seeing every {z} of the petals) cannot be {z}.",
    "fr": "Fleur mortelle : la tige {stem} ne contient que {stem_values}. {petals}. Quelle que soit la "
          "valeur de la tige, le pétale de cette valeur la perd et se verrouille sur ses autres valeurs, "
          "donc un pétale contient {z}, et {targets} ({see} tous les {z} des pétales) ne {can} pas "
          "valoir {z}.",
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
        return sentence(joined)


def find_death_blossom(state: State, ctx: Context = NO_CONTEXT, /) -> Iterator[Explanation | Lead]:
    """Trivalue stems in cell order, then values z, then petal triples (smaller ALSs first):
    ``explainer.core.search.blossom_events``; as leads (``_takes_leads``), each built only if
    it may win."""
    session = session_of(state, ctx)
    leads = _takes_leads(ctx)
    for (stem, (ia, ib, ic), z, elim), sets in _events(state, session, search.blossom_events, lambda e: e[1]):
        vs = list(bits(state.cand[stem]))
        petals = list(zip(vs, (sets[ia], sets[ib], sets[ic]), strict=True))
        if leads:
            cells = (sets[ia].cells | sets[ib].cells | sets[ic].cells).bit_count()
            yield Lead("death blossom", partial(_blossom, state, stem, petals, z, elim), _least(1 + cells), 0,
                       elim.bit_count())
        else:
            yield _blossom(state, stem, petals, z, elim)


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
              petals=_Petals(geo, petals), z=Value(z + 1), **targets_seeing(Cells(geo, bits(elim)))),
        detail=(("stem", geo.rc(stem)), ("petals", tuple(a.size for _, a in petals)), ("value", z + 1)),
        roles=(on_cells("stem", geo, [stem]),
               *(r for k, (v, a) in enumerate(petals) for r in petal_roles(geo, stem, k, v, a)),
               on_cands("z", geo, [(c, z + 1) for _, a in petals for c in bits(a.where[z])])),
    )


def petal_roles(geo: Geometry, stem: int, k: int, v: int, a: ALS) -> tuple[Role, ...]:
    """Petal ``k`` in its tint, the stem value it answers in the same tint, and the links from
    that stem value to the petal's candidates of it (the stem being v takes v from the petal)."""
    return (set_roles(geo, k, a.cells, "petal"), on_cands("stem", geo, [(stem, v + 1)], k),
            on_cands("restricted-common", geo, [(c, v + 1) for c in bits(a.where[v])]),
            set_link(geo, v + 1, 1 << stem, a.where[v], group=k, directed=True))


ALS_CHAIN = {
    "en": "ALS chain: {chain}. Each set holds one value more than cells, and each linking value is a "
          "restricted common: every such candidate of one set sees every one of the next, so the two sets "
          "cannot both have it. If {a1} had no {z}, it would be locked on its other values and hold {x1}; "
          "then {steps}. Either way {z} is in {a1} or in {an}, so {targets} (seeing every {z} of both) "
          "cannot be {z}.",
    "fr": "Chaîne d'EPV : {chain}. Chaque ensemble contient une valeur de plus que de cases, et chaque valeur "
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


def find_als_chain(state: State, ctx: Context = NO_CONTEXT, /) -> Iterator[Explanation | Lead]:
    """Chains of 4, then 5, then 6 ALSs (the shortest first), from the smaller first ALS.

    A depth-first search per length over the restricted-common graph
    (``explainer.core.search.als_chain_events``): consecutive ALSs share a restricted
    common, two consecutive restricted commons differ, and the ALSs are pairwise disjoint.
    Each branch carries its goal, the arrivals (last ALS, last linking value) that would end
    a chain removing something: at an ALS after the first, by a value other than the first
    link's and the value removed, and sharing no cell with the ALSs taken so far. A branch is
    cut when no walk of the right length reaches its goal, so every branch pushed one edge
    before the end finds a last ALS (or one already reported). Each (value, removed cells) is
    reported once, by its shortest chain. The goals only cut branches that could not end a
    chain: the chains found, and their order, are those of the plain search, except where a
    plain search would have met ``MAX_NODES`` (it counts pushed nodes, and this search
    pushes far fewer): there it goes on to the chains after those.

    Most calls find nothing and search every length, so the walks of every length are built
    at once, and a first ALS i is looked at only when a walk of some length from one of its
    arrivals' ``same`` edges reaches a possible end of i."""
    session = session_of(state, ctx)
    leads = _takes_leads(ctx)
    for (path, rcs, z, elim), sets in _events(state, session, _chain_events, lambda e: e[0]):
        chain = [sets[p] for p in path]
        if leads:
            odd, even = alternate_cells(chain)
            yield Lead("als chain", partial(_chain_step, state, chain, list(rcs), z, elim),
                       _least(odd.bit_count() + even.bit_count()), 0, elim.bit_count())
        else:
            yield _chain_step(state, chain, list(rcs), z, elim)


def _chain_events(n: int, cand: list[int], pos: list[int], max_size: int, limit: int,
                  *pure: Any, table: object | None = None) -> list[search.ChainOfSets]:
    sets, pairs = pure or (None, None)
    return search.als_chain_events(n, cand, pos, max_size, MAX_CHAIN, MAX_NODES, limit, sets, pairs, table)


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
              z=Value(z + 1), **targets_seeing(targets)),
        detail=(("sizes", tuple(a.size for a in chain)), ("restricted", tuple(x + 1 for x in rcs)),
                ("value", z + 1)),
        roles=(*(set_roles(geo, k, a.cells) for k, a in enumerate(chain)),
               on_cands("restricted-common", geo, [(c, x + 1) for k, x in enumerate(rcs) for a in chain[k:k + 2]
                                                   for c in bits(a.where[x])]),
               on_cands("z", geo, [(c, z + 1) for a in (first, last) for c in bits(a.where[z])]),
               *(set_link(geo, x + 1, chain[k].where[x], chain[k + 1].where[x]) for k, x in enumerate(rcs))),
    )
