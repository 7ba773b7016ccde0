"""Chains (AIC), continuous nice loops and empty rectangles, shortest first.

A chain alternates strong and weak links. Read from a start candidate S
assumed false, a strong link makes the next candidate true and a weak link
makes the next one false, so a breadth-first search over (candidate, true or
false) from S finds the shortest chains from S. All starts advance one link
at a time together, so the first chain reported is among the shortest that
work anywhere in the grid:

- chain: S = … = E (first and last links strong): S or E is true, so a
  candidate weakly linked to both is false;
- loop: a chain S = … = E with E weakly linked to S closes into a cycle of
  even length; for each weak link A .. B of the cycle, exactly one of A and
  B is true, so a candidate weakly linked to both is false;
- empty rectangle: a chain C1 .. C2 = … = Cn (first link weak, last strong)
  with C1 and Cn of the same value v; if C1 were true, Cn would be true too,
  and together they would take v out of a box B whose v candidates all lie
  in C1's row and Cn's column (or the other way round): C1 is false. In the
  search this is S = Cn and a false end C1.

The search keeps one path per (candidate, truth) and never reuses a
candidate on a path, so every reported chain is simple. Its cost is bounded
by starts × reachable nodes; the link graph comes from ``links`` (shared
with Medusa and trial).
"""
from __future__ import annotations

from collections.abc import Callable, Iterator
from functools import partial
from typing import Any

from explainer.core import search
from explainer.core.search import chain_path
from explainer.model import rating
from explainer.model.explanation import Explanation, Link
from explainer.model.grid import bits, value_char
from explainer.model.i18n import Arg, Cells, House, Value, Words, join, say
from explainer.model.roles import chain, on, on_cands, on_houses
from explainer.model.state import State
from explainer.model.technique import NO_CONTEXT, Context, Lead

from .links import Links, links
from .wording import Lines

MAX_LENGTH = 15
# explainer.model.rating: a chain on several digits weighs 6.6 at least (SE's y-chain); below that
# only chains on one digit can be the easiest step (Sukaku Explainer's strong-link chains)
ONE_DIGIT_CEILING = 6.6

CHAIN = {
    "en": "Chain: {formal}. {plain} So {start} or {end}: either way, {targets}, because {because}.",
    "fr": "Chaîne : {formal}. {plain} Donc {start} ou {end} : dans les deux cas, {targets}, car {because}.",
}
LOOP = {
    "en": "Loop: {formal}. The chain closes on itself, so along every weak link exactly one end is "
          "true; the candidates that see both ends of a weak link of the loop are removed.",
    "fr": "Boucle : {formal}. La chaîne se referme, donc sur chaque lien faible exactement une "
          "extrémité est vraie ; les candidats qui voient les deux extrémités d'un lien faible de la "
          "boucle sont retirés.",
}
RECTANGLE = {
    "en": "Empty rectangle: {formal}. {plain} Then {v} would have no place left in {box}, whose {v}s all "
          "lie in {lines}. So {target} is not {v}.",
    "fr": "Rectangle vide : {formal}. {plain} Alors {v} n'aurait plus de place dans {box}, dont les {v} "
          "sont tous dans {lines}. Donc {target} ne vaut pas {v}.",
}
BECAUSE = {
    "en": ("each removed candidate sees both ends", ", and every other removed candidate sees both ends"),
    "fr": ("chaque candidat retiré voit les deux extrémités",
           ", et chaque autre candidat retiré voit les deux extrémités"),
}
# a remote pair's cells alternate its two values: two of them an odd number of links apart hold
# one value each, so a cell seeing both loses both (not only a cell seeing the chain's ends)
REMOTE_BECAUSE = {
    "en": ("each cell losing them sees two cells of the chain an odd number of links apart, which hold "
           "one value each", ""),
    "fr": ("chaque case qui les perd voit deux cases de la chaîne séparées par un nombre impair de liens, "
           "qui contiennent chacune l'une des deux valeurs", ""),
}
IN_END_CELL = {"en": "{cands} {shares} a cell with one end and {sees} the other",
               "fr": "{cands} {shares} la case d'une extrémité et {sees} l'autre"}
CAND_IN = {"en": "the {v} in {cell}", "fr": "le {v} de {cell}"}
AGREE = {"en": (("shares", "share"), ("sees", "see")), "fr": (("partage", "partagent"), ("voit", "voient"))}


def because(inside: list[tuple[str, str]], outside: bool,
            general: dict[str, tuple[str, str]] = BECAUSE) -> Words:
    """Why a chain's removed candidates go: each sees both ends (``general``: the sentence,
    then its tail after the others), or, for a candidate (cell name, value) lying in an end's
    cell, it shares that cell with the end and sees the other: named, not left to guess."""
    by_lang = {}
    for lang, (alone, tail) in general.items():
        if not inside:
            by_lang[lang] = alone
            continue
        one = len(inside) == 1
        shares, sees = (pair[0 if one else 1] for pair in AGREE[lang])
        cands = join([CAND_IN[lang].format(v=v, cell=c) for c, v in inside], lang)
        by_lang[lang] = IN_END_CELL[lang].format(cands=cands, shares=shares, sees=sees) + (tail if outside else "")
    return Words(**by_lang)
IF_NOT = {"en": "If {first}, then {rest}.", "fr": "Si {first}, alors {rest}."}
IS = {"en": "{cell} is {v}", "fr": "{cell} vaut {v}"}
IS_NOT = {"en": "{cell} is not {v}", "fr": "{cell} ne vaut pas {v}"}
SO = {"en": ", so ", "fr": ", donc "}


# ---- reading a chain -------------------------------------------------------------

def eureka(lk: Links, nodes: list[int], kinds: str) -> str:
    """Eureka notation: ``(5)r1c2=r1c7-(5=3)r2c8``; kinds[i] is '=' or '-' between nodes i, i+1."""
    geo = lk.geo
    return eureka_text(nodes, kinds, lambda i: lk.value(i), lambda i: geo.cell_name(lk.cell(i)),
                       lambda i, j: lk.cell(i) == lk.cell(j))


def eureka_text(nodes: list[int], kinds: str, value: Callable[[int], int], name: Callable[[int], str],
                same_cell: Callable[[int, int], bool]) -> str:
    """Eureka notation of any chain (plain or grouped): two nodes of one cell in a row are
    written ``(5=3)r2c8``; a node's value is written when it differs from the one before."""
    out: list[str] = []
    last_value = 0
    i = 0
    while i < len(nodes):
        v = value(nodes[i])
        if i + 1 < len(nodes) and same_cell(nodes[i], nodes[i + 1]):
            w = value(nodes[i + 1])
            token = f"({value_char(v)}{kinds[i]}{value_char(w)}){name(nodes[i])}"
            last_value, step = w, 2
        else:
            token = ("" if v == last_value else f"({value_char(v)})") + name(nodes[i])
            last_value, step = v, 1
        if out:
            out.append(kinds[i - 1])
        out.append(token)
        i += step
    return "".join(out)


def _phrase(lk: Links, i: int, true: bool, lang: str) -> str:
    template = (IS if true else IS_NOT)[lang]
    return template.format(cell=lk.geo.cell_name(lk.cell(i)), v=value_char(lk.value(i)))


def plain(lk: Links, nodes: list[int], first_true: bool) -> Words:
    """'If r1c2 is not 5, then r1c7 is 5, so r2c8 is not 5, so r2c8 is 3.'"""
    # links alternate, and so do the truths: false -strong-> true -weak-> false ...
    by_lang = {}
    for lang in ("en", "fr"):
        rest = [_phrase(lk, nodes[k], first_true != (k % 2 == 1), lang) for k in range(1, len(nodes))]
        by_lang[lang] = IF_NOT[lang].format(first=_phrase(lk, nodes[0], first_true, lang),
                                            rest=SO[lang].join(rest))
    return Words(**by_lang)


def _is(lk: Links, i: int) -> Words:
    return Words(en=_phrase(lk, i, True, "en"), fr=_phrase(lk, i, True, "fr"))


CANNOT = {"en": "{cell} cannot be {v}", "fr": "{cell} ne peut pas valoir {v}"}


class _Targets(Arg):
    """The removed candidates as a sentence: 'r6c5 cannot be 8 and r7c5 cannot be 3'."""

    def __init__(self, lk: Links, mask: int) -> None:
        self.items = [(lk.geo.cell_name(lk.cell(i)), value_char(lk.value(i)))
                      for i in sorted(bits(mask), key=lk.cell_order)]

    def fmt(self, lang: str) -> str:
        return join([CANNOT[lang].format(cell=c, v=v) for c, v in self.items], lang)


def _targets(lk: Links, mask: int) -> str:
    """Eureka's conclusion: 'r6c5<>8, r7c5<>3'."""
    return ", ".join(f"{lk.geo.cell_name(lk.cell(i))}<>{value_char(lk.value(i))}" for i in
                     sorted(bits(mask), key=lk.cell_order))


def _links(lk: Links, nodes: list[int], kinds: str) -> tuple[tuple[Link, ...], tuple[Link, ...]]:
    """Strong and weak links in chain order; a loop has one kind more than links (the closing one)."""
    strong: list[Link] = []
    weak: list[Link] = []
    for k, kind in enumerate(kinds):
        a, b = nodes[k], nodes[(k + 1) % len(nodes)]
        (strong if kind == "=" else weak).append((lk.cand(a), lk.cand(b)))
    return tuple(strong), tuple(weak)


# ---- the search ------------------------------------------------------------------

def find(state: State, ctx: Context = NO_CONTEXT, /,
         max_length: int = MAX_LENGTH) -> Iterator[Explanation | Lead]:
    lk = links(state, ctx.session)
    leads = ctx.leads
    if ctx.ceiling <= ONE_DIGIT_CEILING:
        # the engine has a step rated below any chain on several digits: follow one digit's
        # links only, and only as many strong links as can still rate below the ceiling
        yield from _core_search(state, lk, min(max_length, 2 * _strong_links_below(ctx.ceiling) - 1), True, leads)
        return
    if ctx.lowest_first:
        # the engine keeps the lowest-rated step: one-digit chains (rated from 4.0) before the
        # shortest chains on several digits (6.6 and up)
        yield from _easiest_one_digit(state, lk, min(max_length, 2 * _strong_links_below(ONE_DIGIT_CEILING) - 1),
                                      leads)
    yield from _core_search(state, lk, max_length, False, leads)


def _easiest_one_digit(state: State, lk: Links, max_length: int, leads: bool = False) -> Iterator[Explanation | Lead]:
    """One-digit chains, loops and empty rectangles, the easiest rated first.

    Shortest first is not easiest first: an empty rectangle (two links, 4.3) comes before a
    skyscraper (three links, 4.0). The search goes on while a longer step could still rate
    below the best one found (Sukaku Explainer's bases grow with the strong links)."""
    found: list[tuple[float, int, Explanation | Lead]] = []
    best = float("inf")
    for item in _core_search(state, lk, max_length, True, leads):
        step = item.bare if isinstance(item, Lead) else item
        assert step is not None
        grouped = 1 if step.technique == "empty rectangle" else 0
        links = len(step.strong_links) + grouped
        if rating.STRONG_LINK_BASES.get(links, rating.SE_X_CHAIN) >= best:
            break  # every later step has as many strong links or more
        own = rating.strong_link_rating(step, grouped)
        found.append((own if own is not None else rating.SE_X_CHAIN, len(found), item))
        best = min(best, found[-1][0])
    found.sort(key=lambda x: (x[0], x[1]))
    for _, _, item in found:
        yield item


def _core_search(state: State, lk: Links, max_length: int, one_digit: bool,
                 leads: bool = False) -> Iterator[Explanation | Lead]:
    """Chains, loops and empty rectangles of up to ``max_length`` links, shortest first
    (``one_digit``: along one digit's links only): the events of the core's breadth-first
    search (``explainer.core.search.chain_events``), those of the shortest length first; the
    longer ones are searched only for a caller reading past those. ``leads``: each as a
    ``Lead`` keyed by its bare step (``_event_lead``), else built."""
    n = state.geo.n

    def events() -> Iterator[search.ChainEvent]:
        first = search.chain_events(n, state.cand, state.pos, max_length, one_digit, True, lk)
        yield from first
        if first:  # the longer ones, only for a caller reading on
            yield from search.chain_events(n, state.cand, state.pos, max_length, one_digit, False, lk)[len(first):]

    for event in events():
        if leads:
            yield _event_lead(state, lk, event)
            continue
        step = _event_step(state, lk, event)
        assert step is not None  # the core reports chains removing something
        yield step


def _event_step(state: State, lk: Links, event: search.ChainEvent, words: bool = True) -> Explanation | None:
    """The step of one search event (None: a chain whose removals make no step); without
    ``words`` its bare form (no text, translations or roles: ``Lead.bare``)."""
    length, _, kind, nodes, elim = event
    if kind == search.RECTANGLE:
        return _rectangle(state, lk, list(nodes)[::-1], words)
    assert elim is not None
    if kind == search.LOOP:
        return _loop(lk, list(nodes), elim, words)
    return _chain(state, lk, list(nodes), elim, length, words)


def _event_lead(state: State, lk: Links, event: search.ChainEvent) -> Lead:
    """One search event as a lead: ranked by its bare step, built whole only if taken (the words
    and roles of a chain cost more than finding it, and most chains found are not taken)."""
    bare = _event_step(state, lk, event, False)
    assert bare is not None  # the core reports chains removing something
    return Lead(bare.technique, partial(_built, state, lk, event), eliminate=len(bare.eliminate), bare=bare)


def _built(state: State, lk: Links, event: search.ChainEvent) -> Explanation:
    step = _event_step(state, lk, event)
    assert step is not None
    return step


def _strong_links_below(ceiling: float) -> int:
    """The most strong links a one-digit chain can have and still rate below ``ceiling``."""
    return max([k for k, base in rating.STRONG_LINK_BASES.items() if base < ceiling], default=2)


def _loop(lk: Links, nodes: list[int], elim: int, words: bool = True) -> Explanation:
    """A continuous loop: its nodes from the start (even count; the last weakly linked to the
    first) and the candidates its weak links remove (without ``words``: its bare form)."""
    kinds = "".join("=" if k % 2 == 0 else "-" for k in range(len(nodes) - 1)) + "-"
    sl, wl = _links(lk, nodes, kinds)
    if not words:
        return Explanation(technique="loop", eliminate=tuple(lk.mask_cands(elim)),
                           marked=tuple(sorted(lk.cand(i) for i in nodes)), strong_links=sl, weak_links=wl,
                           detail=(("length", len(nodes)),))
    formal = eureka(lk, nodes + [nodes[0]], kinds)
    return Explanation(
        technique="loop", eliminate=tuple(lk.mask_cands(elim)), marked=tuple(sorted(lk.cand(i) for i in nodes)),
        strong_links=sl, weak_links=wl,
        **say(LOOP, formal=formal + " => " + _targets(lk, elim)),
        detail=(("length", len(nodes)),),
        roles=chain([lk.cand(i) for i in nodes], kinds, False, closed=True),
    )


def _chain(state: State, lk: Links, nodes: list[int], elim: int, length: int,
           words: bool = True) -> Explanation | None:
    """A chain S = … = E (its nodes from S) and the candidates it removes (weakly linked to
    both ends, and a remote pair's own); None when that is nothing. Without ``words``: its
    bare form (no text, translations or roles), what the engine ranks a lead by."""
    kinds = "".join("=" if k % 2 == 0 else "-" for k in range(len(nodes) - 1))
    sl, wl = _links(lk, nodes, kinds)
    name, lead_words, houses, cells = _shape(lk, state, nodes)
    if name == "remote pair":
        # cells 3, 5 … links apart hold the pair's two values between them: a cell seeing two
        # of them loses both values, not only the chain's ends' (``remotepairs``)
        from .remotepairs import removed

        elim |= removed(state, [i % lk.N for i in nodes[::2]])
    if not elim:
        return None
    detail = (("length", length),) + ((("shape", name),) if name != "chain" else ())
    marked = tuple(sorted(lk.cand(i) for i in nodes))
    if not words:
        return Explanation(technique=name, eliminate=tuple(lk.mask_cands(elim)), marked=marked, cells=cells,
                           houses=houses, strong_links=sl, weak_links=wl, detail=detail)
    lead = lead_words() if lead_words is not None else None
    formal = eureka(lk, nodes, kinds) + " => " + _targets(lk, elim)
    ends = {lk.cell(nodes[0]), lk.cell(nodes[-1])}
    said = dict(formal=formal, plain=plain(lk, nodes, False), targets=_Targets(lk, elim),
                 start=_is(lk, nodes[0]), end=_is(lk, nodes[-1]),
                 because=because([] if name == "remote pair" else
                                 [(lk.geo.cell_name(lk.cell(x)), value_char(lk.value(x)))
                                  for x in sorted(bits(elim), key=lk.cell_order) if lk.cell(x) in ends],
                                 any(lk.cell(x) not in ends for x in bits(elim)),
                                 REMOTE_BECAUSE if name == "remote pair" else BECAUSE))
    if lead is None:
        text = say(CHAIN, **said)
    else:
        text = say(NAMED, lead=lead, **said)
    return Explanation(
        technique=name, eliminate=tuple(lk.mask_cands(elim)), marked=marked,
        cells=cells, houses=houses, strong_links=sl, weak_links=wl, **text,
        detail=detail,
        roles=(on("house", houses=houses), on("cells", cells=cells)) + chain([lk.cand(i) for i in nodes], kinds, False),
    )


# ---- named shapes -----------------------------------------------------------------

NAMED = {
    "en": "{lead}: {formal}. {plain} So {start} or {end}: either way, {targets}, because {because}.",
    "fr": "{lead} : {formal}. {plain} Donc {start} ou {end} : dans les deux cas, {targets}, car {because}.",
}
SKYSCRAPER = {
    "en": "Skyscraper on {v}: in {lines}, {v} can only go in two places each, and {w} share {wl}",
    "fr": "Gratte-ciel sur le {v} : dans {lines}, le {v} n'a que deux places chacune, et {w} "
          "partagent {wl}",
}
KITE = {
    "en": "2-string kite on {v}: {v} can only go in two places in {l1} and in {l2}, and {w} meet in {wl}",
    "fr": "Cerf-volant à deux ficelles sur le {v} : le {v} n'a que deux places dans {l1} et dans {l2}, "
          "et {w} se rejoignent dans {wl}",
}
TURBOT = {
    "en": "Turbot fish on {v}: {v} can only go in two places in {l1} and in {l2}, and {w} see each other",
    "fr": "Turbot sur le {v} : le {v} n'a que deux places dans {l1} et dans {l2}, et {w} se voient",
}
X_CHAIN = {"en": "X chain on {v} (every link on {v})", "fr": "Chaîne X sur le {v} (tous les liens sur le {v})"}
XY_CHAIN = {
    "en": "XY chain through the bivalue cells {cells}",
    "fr": "Chaîne XY à travers les cases bivaleurs {cells}",
}
REMOTE_PAIR = {
    "en": "Remote pair on {a} and {b}: {cells} all hold only {a} and {b}, alternating along the chain",
    "fr": "Paire distante sur {a} et {b} : {cells} ne contiennent que {a} et {b}, en alternance le long "
          "de la chaîne",
}


def _strong_house(state: State, a: int, b: int, v: int) -> int:
    """The house in which cells a and b are v's only two places: row, else column, else box."""
    geo = state.geo
    both = 1 << a | 1 << b
    pv = state.pos[v - 1]
    for h in (geo.row_of[a], geo.n + geo.col_of[a], 2 * geo.n + geo.box_of[a]):
        if pv & geo.house_mask[h] == both:
            return h
    return -1


def _lead(template: dict[str, str], **args: Any) -> Words:
    made = say(template, **args)
    return Words(en=made["text"], **dict(made["translations"]))


def _shape(lk: Links, state: State, nodes: list[int]
           ) -> tuple[str, Callable[[], Words] | None, tuple[tuple[str, int], ...], tuple[tuple[int, int], ...]]:
    """(step name, its lead words to make or None, houses, cells) of a chain S = … = E of a
    known shape (the words are made only for a step built whole, not for its bare form).

    One value throughout: skyscraper, 2-string kite or turbot fish for three
    links (parallel lines / a row and a column joined in a box / otherwise),
    x chain beyond. Strong links all inside bivalue cells: xy chain, or
    remote pair when every cell holds the same two values (four cells or more).
    """
    geo = lk.geo
    N = lk.N
    cells_of = [i % N for i in nodes]
    values = {i // N + 1 for i in nodes}
    if len(values) == 1:
        v = values.pop()
        if len(nodes) == 4:
            a, b, c, d = cells_of
            h1, h2 = _strong_house(state, a, b, v), _strong_house(state, c, d, v)
            if h1 < 0 or h2 < 0:
                return "chain", None, (), ()
            k1, k2 = h1 // geo.n, h2 // geo.n  # 0 row, 1 column, 2 box
            shared = [h for h in (geo.row_of[b], geo.n + geo.col_of[b], 2 * geo.n + geo.box_of[b])
                      if geo.house_mask[h] >> c & 1]
            w = Cells(geo, [b, c])
            args = dict(v=Value(v), l1=House(geo, h1), l2=House(geo, h2), w=w)
            if k1 == k2 and k1 < 2 and shared and shared[0] // geo.n == 1 - k1:
                return ("skyscraper", lambda: _lead(SKYSCRAPER, wl=House(geo, shared[0]),
                                                    lines=Lines(geo, [h1, h2]), **args),
                        tuple(geo.house_key(h) for h in (h1, h2)), ())
            if {k1, k2} == {0, 1} and shared and shared[-1] // geo.n == 2:
                return ("2-string kite", lambda: _lead(KITE, wl=House(geo, shared[-1]), **args),
                        tuple(geo.house_key(h) for h in (h1, h2, shared[-1])), ())
            return ("turbot fish", lambda: _lead(TURBOT, **args), tuple(geo.house_key(h) for h in (h1, h2)), ())
        return "x chain", lambda: _lead(X_CHAIN, v=Value(v)), (), ()
    # xy chain: strong links inside cells (nodes 0-1, 2-3, ...), weak links between cells on one value
    if len(nodes) % 2 == 0 and all(cells_of[k] == cells_of[k + 1] for k in range(0, len(nodes), 2)) \
            and all(cells_of[k] != cells_of[k + 1] and nodes[k] // N == nodes[k + 1] // N
                    for k in range(1, len(nodes) - 1, 2)):
        cells = cells_of[::2]
        masks = {state.cand[c] for c in cells}
        coords = tuple(sorted(geo.rc(c) for c in cells))
        if len(masks) == 1 and len(cells) >= 4:
            a, b = (x + 1 for x in bits(masks.pop()))
            return ("remote pair", lambda: _lead(REMOTE_PAIR, a=Value(a), b=Value(b), cells=Cells(geo, cells)), (),
                    coords)
        return "xy chain", lambda: _lead(XY_CHAIN, cells=Cells(geo, cells)), (), coords
    return "chain", None, (), ()


def _rectangle(state: State, lk: Links, nodes: list[int], words: bool = True) -> Explanation:
    """An empty rectangle C1 .. C2 = … = Cn (its nodes from C1; C1 and Cn of one value v, a
    box holding v only in C1's row and Cn's column or the other way round): C1 is not v.
    Without ``words``: its bare form."""
    v = lk.value(nodes[0])
    geo = lk.geo
    n = geo.n
    c1, cn = lk.cell(nodes[0]), lk.cell(nodes[-1])
    r1, k1, rn, kn = geo.row_of[c1], geo.col_of[c1], geo.row_of[cn], geo.col_of[cn]
    pv = state.pos[v - 1]
    for row, col in ((r1, kn), (rn, k1)):
        b = 2 * n + geo.box_of[row * n + col]
        bm = geo.house_mask[b]
        if bm >> c1 & 1 or bm >> cn & 1:
            continue
        inside = pv & bm
        if not inside or inside & ~(geo.house_mask[row] | geo.house_mask[n + col]):
            continue
        kinds = "".join("-" if k % 2 == 0 else "=" for k in range(len(nodes) - 1))
        sl, wl = _links(lk, nodes, kinds)
        box_cands = {(c // n, c % n, v) for c in bits(inside)}
        if not words:
            return Explanation(technique="empty rectangle", eliminate=((r1, k1, v),), houses=(geo.house_key(b),),
                               marked=tuple(sorted({lk.cand(i) for i in nodes} | box_cands)),
                               strong_links=sl, weak_links=wl, detail=(("length", len(nodes) - 1),))
        target = geo.cell_name(c1)
        formal = eureka(lk, nodes, kinds) + f" => {target}<>{value_char(v)}"
        lines = say({"en": "{row} and {col}", "fr": "{row} et {col}"},
                    row=House(geo, row), col=House(geo, n + col))
        return Explanation(
            technique="empty rectangle", eliminate=((r1, k1, v),),
            houses=(geo.house_key(b),),
            marked=tuple(sorted({lk.cand(i) for i in nodes} | box_cands)),
            strong_links=sl, weak_links=wl,
            **say(RECTANGLE, formal=formal, plain=plain(lk, nodes, True), v=Value(v),
                  box=House(geo, b), lines=Words(en=lines["text"], **dict(lines["translations"])),
                  target=target),
            detail=(("length", len(nodes) - 1),),
            # the box's v's are all false when the chain's start is true (its two ends see them
            # all): drawn as the chain's "off" candidates, the same light disks
            roles=(on_houses("house", geo, [b]), on_houses("line", geo, [row, n + col]),
                   on_cands("off", geo, [(c, v) for c in bits(inside)])) + chain([lk.cand(i) for i in nodes],
                                                                                kinds, True),
        )
    raise AssertionError("an empty rectangle event without its box")


# ---- the search of every variant (``steps``, ``niceloops``) ----------------------------

def _search(state: State, max_length: int, one_digit: bool, own: bool = False) -> Iterator[Explanation]:
    """Chains, loops and empty rectangles of up to ``max_length`` links, shortest first
    (``one_digit``: along one digit's links only; ``own``: a chain may remove its own
    candidates, as HoDoKu's do): the core's search in Python (``chain_events_py``, which
    alone has ``own``), for ``niceloops``; the engine's chains come from ``_core_search``."""
    lk = links(state)
    for event in search.chain_events_py(state.geo.n, state.cand, state.pos, max_length, one_digit, False, lk,
                                        own=own):
        step = _event_step(state, lk, event)
        if step is not None:
            yield step


def _chain_or_loop(lk: Links, s: int, e: int, par: dict[int, int], length: int, state: State,
                   closed: bool = True) -> Explanation | None:
    """The loop through S … E when E sees S (and ``closed``), else the chain S = … = E, as
    HoDoKu's chains read them (``steps``, through ``niceloops``): the chain only says that S
    or E is true (the loop, that each weak link has one true end), so a candidate of the
    chain itself may go too. The engine's chains keep theirs (``chain_events``)."""
    weak = lk.weak
    nodes = chain_path(par, 2 * e + 1)
    if closed and weak[s] >> e & 1:
        elim = 0
        for k in range(1, len(nodes), 2):
            a, b = nodes[k], nodes[(k + 1) % len(nodes)]
            elim |= weak[a] & weak[b]
        return _loop(lk, nodes, elim) if elim else None
    return _chain(state, lk, nodes, weak[s] & weak[e], length)
