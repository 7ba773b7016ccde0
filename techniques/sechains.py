"""Sudoku Explainer's chaining producers as finders (issue 35): SE's own hint, exactly.

SE rates every step from 6.5 up with one engine (``explainer.core.sechain``) run as six
producers, tried in SE's order: forcing chains and cycles (6.5 / 6.6 / 7.0 + length),
Nishio forcing chains (7.5), multiple forcing chains (cell and region, 8.0), dynamic
forcing chains (8.5), dynamic forcing chains (+) (9.0) and nested forcing chains (9.5 to
10.5). Each finder here yields its producer's first hint, the hint SE applies, as a step:

- ``place`` / ``eliminate``: what SE's hint changes (a placement leaves the cell's other
  candidates to the placement);
- ``detail``: ``se_rating``, SE's rating of the step (its base + its length addition as
  SE computes them, rounded as SE prints it: what the SE order's rating rule reads),
  ``difficulty`` (the unrounded double SE sorts by), ``complexity`` (SE's chain length:
  the potentials of every chain and of the nested ones) and the ``chain`` kind;
- ``proof`` (STEPS_JSON.md): one branch per assumption, the implications SE's chains
  hold, each by its rule: a "peer" elimination, a "cell" or "house" placement (what SE's
  dynamic chains count as hidden parents are that rule's other premises), a "step" for
  the pointing, claiming, hidden pair, naked pair or x-wing a Dynamic Plus chain applies
  to its branch's state, or for a nested chain (with its own proof);
- a text (en, fr) read from the proof, and the proof's roles for the frame.

With ``ctx.rating_only`` (the ``rate`` command) a step carries only what its rating and
its effect need: no proof, no text, no roles.
"""
from __future__ import annotations

from collections.abc import Iterator, Sequence
from typing import Any

from explainer.core import sechain
from explainer.core.sechain import Potential, Rule, SeHint
from explainer.model import proofwords
from explainer.model.explanation import Explanation, cands
from explainer.model.grid import Geometry, value_char
from explainer.model.i18n import house_words, notation
from explainer.model.proof import Branch, BranchEnd, Proof, ProofFact
from explainer.model.rating import RECORDED, SE_RATING
from explainer.model.roles import Role, chain, proof_roles
from explainer.model.state import State
from explainer.model.technique import NO_CONTEXT, Context, Finder, StepKind, Technique

from .kinds import K

# ---- step names -------------------------------------------------------------------------------

CYCLE = "se cycle"
FORCING_CHAIN = "se forcing chain"
NISHIO = "se nishio"
CELL_FORCING = "se cell forcing"
REGION_FORCING = "se region forcing"
DYNAMIC = "se dynamic"
DYNAMIC_PLUS = "se dynamic plus"
NESTED = "se nested"

# (en, fr) titles, SE's least difficulty
KINDS: dict[str, tuple[str, str, float]] = {
    CYCLE: ("SE bidirectional cycle", "cycle bidirectionnel (SE)", 6.5),
    FORCING_CHAIN: ("SE forcing chain", "chaîne de forçage (SE)", 6.6),
    NISHIO: ("SE Nishio forcing chain", "chaîne de forçage Nishio (SE)", 7.5),
    CELL_FORCING: ("SE cell forcing chains", "chaînes de forçage de case (SE)", 8.0),
    REGION_FORCING: ("SE region forcing chains", "chaînes de forçage d'unité (SE)", 8.0),
    DYNAMIC: ("SE dynamic forcing chains", "chaînes de forçage dynamiques (SE)", 8.5),
    DYNAMIC_PLUS: ("SE dynamic forcing chains (+)", "chaînes de forçage dynamiques (+) (SE)", 9.0),
    NESTED: ("SE nested forcing chains", "chaînes de forçage imbriquées (SE)", 9.5),
}


def step_name(h: SeHint) -> str:
    """The step name of a hint: by its producer's mode, and for the first producers its kind."""
    mode = h.mode
    if mode.level >= 2:
        return NESTED
    if mode.level == 1:
        return DYNAMIC_PLUS
    if mode.nishio:
        return NISHIO
    if mode.dynamic:
        return DYNAMIC
    if mode.multiple:
        return CELL_FORCING if h.kind == sechain.CELL else REGION_FORCING
    return CYCLE if h.kind == sechain.CYCLE else FORCING_CHAIN


# ---- proofs ------------------------------------------------------------------------------------

Fact = tuple[int, int, int, bool]
# the step name of a Dynamic Plus rule, as the project names these techniques
RULE_TECHNIQUES = {"locking": "locked candidate", "hidden pair": "hidden tuple", "naked pair": "naked tuple",
                   "x-wing": "x wing"}


class _Branch:
    """A branch being written: facts in order, one per candidate and truth."""

    def __init__(self, geo: Geometry, assume: Fact) -> None:
        self.geo = geo
        self.facts: list[ProofFact] = [ProofFact(assume, "assume")]
        self.at: dict[Fact, int] = {assume: 0}

    def add(self, fact: Fact, rule: str, premises: Sequence[int] = (), step: Any = None) -> int:
        i = self.at.get(fact)
        if i is None:
            i = self.at[fact] = len(self.facts)
            self.facts.append(ProofFact(fact, rule, tuple(sorted(set(premises))), step))
        return i

    def fact(self, i: int) -> Fact:
        return self.facts[i].fact

    def branch(self, end: BranchEnd) -> Branch:
        return Branch(self.facts[0].fact, tuple(self.facts), end)


def _fact(geo: Geometry, p: Potential) -> Fact:
    return (geo.row_of[p.cell], geo.col_of[p.cell], p.value, p.on)


def _write(b: _Branch, state: State, h: SeHint, target: int, rating_only: bool = False) -> int:
    """Write the ancestry of graph node ``target`` into the branch (parents first); its fact index."""
    geo = state.geo
    nodes = h.nodes
    done: dict[int, int] = {}
    stack: list[tuple[int, bool]] = [(target, False)]
    while stack:
        x, ready = stack.pop()
        if x in done:
            continue
        p = nodes[x]
        f = _fact(geo, p)
        if f in b.at:
            done[x] = b.at[f]
            continue
        if not ready:
            stack.append((x, True))
            for q in reversed(p.parents):
                if q not in done:
                    stack.append((q, False))
            continue
        prem = [done[q] for q in p.parents]
        if not p.parents:  # an assumption met again (a cycle's end): the branch's own
            raise AssertionError(f"a second assumption {f} in a branch")
        if p.on:
            first = nodes[p.parents[0]]
            rule = "cell" if first.cell == p.cell else "house"
            done[x] = b.add(f, rule, prem)
        elif p.cause == sechain.ADVANCED:
            assert p.rule is not None
            done[x] = b.add(f, "step", prem, _rule_step(state, b, p, prem))
        else:
            done[x] = b.add(f, "peer", prem)
    return done[target]


def _branch_state(state: State, b: _Branch, premises: Sequence[int]) -> State:
    """The state a step fact is applied to: the step's start minus the premises' false
    candidates and the peers of their true ones (STEPS_JSON.md, rule ``step``)."""
    geo = state.geo
    sub = state.copy()
    for j in premises:
        r, c, v, t = b.fact(j)
        x = r * geo.n + c
        if t:
            for y in geo.peers[x]:
                sub.eliminate(y, v)
        else:
            sub.eliminate(x, v)
    return sub


def _rule_step(state: State, b: _Branch, p: Potential, premises: Sequence[int]) -> Explanation:
    """The step of a "step" fact: a Dynamic Plus rule, or a nested chain with its proof."""
    geo = state.geo
    fact = (geo.row_of[p.cell], geo.col_of[p.cell], p.value)
    rule = p.rule
    if isinstance(rule, SeHint):
        sub = _branch_state(state, b, premises)
        return make_step(sub, rule, claim=fact)
    assert isinstance(rule, Rule)
    houses = tuple(geo.house_key(h) for h in rule.houses)
    digits = rule.values if rule.value == 0 else (rule.value,)
    marked = cands(geo, [(c, v) for c in rule.cells for v in digits])
    return Explanation(RULE_TECHNIQUES[rule.name], eliminate=cands(geo, rule.removable), houses=houses,
                       cells=tuple(geo.rc(c) for c in rule.cells), marked=marked,
                       detail=(("size", 2),) if rule.name in ("hidden pair", "naked pair") else ())


def _clash(b: _Branch, state: State, on: int, off: int) -> BranchEnd:
    """The end of a branch where a candidate is both true (fact ``on``) and false (``off``)."""
    geo = state.geo
    n = geo.n
    r, c, v, _ = b.fact(on)
    x = r * n + c
    fon = b.facts[on]
    if fon.rule == "cell":
        return BranchEnd("cell", tuple(sorted(set(fon.premises) | {off})), cell=(r, c))
    if fon.rule == "house":
        return _house_end(b, state, on, off)
    # the true one is the assumption: why the candidate is false
    foff = b.facts[off]
    if foff.rule == "peer":
        g = b.fact(foff.premises[0])
        gx = g[0] * n + g[1]
        if gx != x:
            return BranchEnd("twice", (on, foff.premises[0]), cells=((r, c), (g[0], g[1])), value=v)
        # another value of the cell is true: it cannot be, the assumption's value is
        other = b.add((g[0], g[1], g[2], False), "peer", (on,))
        return _clash(b, state, foff.premises[0], other)
    # removed by a step: every other candidate of the cell is false too
    rest = [b.add((r, c, w, False), "peer", (on,)) for w in state.candidates(x) if w != v]
    return BranchEnd("cell", tuple(sorted(set(rest) | {off})), cell=(r, c))


def _house_end(b: _Branch, state: State, on: int, off: int) -> BranchEnd:
    geo = state.geo
    n = geo.n
    r, c, v, _ = b.fact(on)
    x = r * n + c
    fon = b.facts[on]
    false = {b.fact(j)[0] * n + b.fact(j)[1] for j in fon.premises if not b.fact(j)[3] and b.fact(j)[2] == v}
    for h in geo.cell_houses[x]:
        if all(y in false for y in geo.houses[h] if y != x and state.has(y, v)):
            return BranchEnd("house", tuple(sorted(set(fon.premises) | {off})), house=geo.house_key(h), value=v)
    raise AssertionError("a house fact without its house")  # pragma: no cover


def _assume(geo: Geometry, cell: int, value: int, on: bool) -> Fact:
    return (geo.row_of[cell], geo.col_of[cell], value, on)


def build_proof(state: State, h: SeHint, claim: tuple[int, int, int] | None = None) -> Proof:
    """The proof of SE's hint ``h`` on ``state`` (its graph's facts, by rule). ``claim``: the
    one elimination a nested step is asked for (a placement's other values are concluded
    as false facts then)."""
    geo = state.geo
    nodes = h.nodes
    kind = h.kind
    branches: list[Branch] = []
    if kind in (sechain.CONTRADICTION, sechain.FORCING_CHAIN):
        if kind == sechain.CONTRADICTION:
            assert h.source is not None
            assume = _assume(geo, *h.source)
            pair = list(h.targets)
        else:
            end_node = nodes[h.targets[0]]
            assume = _assume(geo, end_node.cell, end_node.value, not end_node.on)
            pair = [h.targets[0]]
        r, c, v, truth = assume
        if claim is not None and not truth and claim[2] != v:
            # a nested placement asked for one of the cell's other values: assume that value, which
            # makes the placed one false, and the same chain follows
            b = _Branch(geo, (r, c, claim[2], True))
            b.add(assume, "peer", (0,))
        else:
            b = _Branch(geo, assume)
        idx = [_write(b, state, h, x) for x in pair]
        if len(idx) == 1:
            idx.append(0)
        if len(pair) == 1:
            idx[1] = b.at[assume]
        true_i, false_i = (idx[0], idx[1]) if b.fact(idx[0])[3] else (idx[1], idx[0])
        end = _clash(b, state, true_i, false_i)
        branches.append(b.branch(end))
        return Proof("contradiction", _level(h), tuple(branches), h.mode.dynamic)
    if kind == sechain.CYCLE:
        return _cycle_proof(state, h)
    # double, cell, region: each branch concludes the same fact
    concl = nodes[h.targets[0]]
    concl_fact = _fact(geo, concl)
    if kind == sechain.DOUBLE:
        assert h.source is not None
        c, v, _ = h.source
        starts = [(c, v, True), (c, v, False)]
        pkind = "double"
    else:
        starts = [(nodes[_root(nodes, t)].cell, nodes[_root(nodes, t)].value, True) for t in h.targets]
        pkind = "cell" if kind == sechain.CELL else "house"
    for (c, v, on), t in zip(starts, h.targets, strict=True):
        b = _Branch(geo, _assume(geo, c, v, on))
        i = _write(b, state, h, t)
        ends = [i] + _placed_others(b, state, concl_fact, i, claim)
        branches.append(b.branch(BranchEnd("conclusion", conclusion=tuple(ends))))
    return Proof(pkind, _level(h), tuple(branches), h.mode.dynamic)


def _placed_others(b: _Branch, state: State, fact: Fact, i: int, claim: tuple[int, int, int] | None) -> list[int]:
    """For a nested step asked to remove one of a placed cell's other values: that value's
    false fact (the placement sees it)."""
    r, c, v, t = fact
    if claim is None or not t or (claim[0], claim[1]) != (r, c) or claim[2] == v:
        return []
    return [b.add((r, c, claim[2], False), "peer", (i,))]


def _root(nodes: Sequence[Potential], x: int) -> int:
    while nodes[x].parents:
        x = nodes[x].parents[0]
    return x


def _level(h: SeHint) -> int:
    return h.mode.level


def _cycle_proof(state: State, h: SeHint) -> Proof:
    """A bidirectional cycle as a double forcing proof: the start candidate true, the cycle
    read forwards; false, read backwards; each removed candidate sees a true one either way."""
    geo = state.geo
    nodes = h.nodes
    dst_on, dst_off = h.targets
    start = nodes[_root(nodes, dst_on)]
    removed = [(c, v) for c, v in h.removable]
    branches = []
    for on, target in ((True, dst_on), (False, dst_off)):
        b = _Branch(geo, _assume(geo, start.cell, start.value, on))
        line = []
        x = target
        while nodes[x].parents:
            line.append(x)
            x = nodes[x].parents[0]
        for x in reversed(line):
            p = nodes[x]
            f = _fact(geo, p)
            if f in b.at:
                continue
            prev = _fact(geo, nodes[p.parents[0]])
            pi = b.at[prev]
            if p.on:
                b.add(f, "cell" if prev[:2] == f[:2] else "house", (pi,))
            else:
                b.add(f, "peer", (pi,))
        ends = []
        for c, v in removed:
            seer = next(i for i, pf in enumerate(b.facts) if pf.fact[3] and pf.fact[2] == v
                        and geo.rc(c) != pf.fact[:2] and c in geo.peers[pf.fact[0] * geo.n + pf.fact[1]])
            ends.append(b.add((geo.row_of[c], geo.col_of[c], v, False), "peer", (seer,)))
        branches.append(b.branch(BranchEnd("conclusion", conclusion=tuple(ends))))
    return Proof("double", 0, tuple(branches), False)


# ---- texts ---------------------------------------------------------------------------------------

INTRO = {
    "contradiction": {"en": "{title} ({rating}): {body} {so}", "fr": "{title} ({rating}) : {body} {so}"},
    "double": {"en": "{title} ({rating}): {a} is {va} or not. {body} Either way, {concl}.",
               "fr": "{title} ({rating}) : {a} vaut {va} ou non. {body} Dans les deux cas, {concl}."},
    "cell": {"en": "{title} ({rating}): {a} holds one of {vs}. {body} In every case, {concl}.",
             "fr": "{title} ({rating}) : {a} vaut l'un de {vs}. {body} Dans tous les cas, {concl}."},
    "house": {"en": "{title} ({rating}): {v} goes in {house}: {cells}. {body} In every case, {concl}.",
              "fr": "{title} ({rating}) : {v} va dans {house} : {cells}. {body} Dans tous les cas, {concl}."},
}
TOLD = {1: (5, 4), 2: (3, 2)}
TOLD_MANY = (1, 1)


def _texts(state: State, proof: Proof, name: str, rating: float, place: Sequence[Any], elim: Sequence[Any]) -> \
        dict[str, str]:
    geo = state.geo
    head, tail = TOLD.get(len(proof.branches), TOLD_MANY)
    out = {}
    for lang in ("en", "fr"):
        title = KINDS[name][0] if lang == "en" else KINDS[name][1]
        title = title[0].upper() + title[1:]
        body = " ".join(proofwords.branch_sentence(b, geo.n, lang, head, tail) for b in proof.branches)
        concl = ", ".join([proofwords.fact_words((r, c, v, True), lang) for r, c, v in place]
                          + [proofwords.fact_words((r, c, v, False), lang) for r, c, v in elim])
        a = proof.branches[0].assume
        kw: dict[str, Any] = dict(title=title, rating=f"{rating:.1f}", body=body, concl=concl,
                                  so=proofwords.so_line(proof, lang), a=f"r{a[0] + 1}c{a[1] + 1}", va=value_char(a[2]))
        if proof.kind == "cell":
            kw["vs"] = ", ".join(value_char(b.assume[2]) for b in proof.branches)
        if proof.kind == "house":
            cells = [(b.assume[0], b.assume[1]) for b in proof.branches]
            house = proofwords.common_house(geo.n, cells)
            kw.update(v=value_char(a[2]), house=house_words(*house, lang) if house else "?",
                      cells=", ".join(f"r{r + 1}c{c + 1}" for r, c in cells))
        out[lang] = INTRO[proof.kind].get(lang, INTRO[proof.kind]["en"]).format(**kw)
    return out


# ---- steps -------------------------------------------------------------------------------------

def make_step(state: State, h: SeHint, rating_only: bool = False,
              claim: tuple[int, int, int] | None = None) -> Explanation:
    """The step of SE's hint ``h`` found on ``state``. ``claim``: a nested step asked for one
    of its eliminations only (a fact of an enclosing proof)."""
    geo = state.geo
    name = step_name(h)
    if claim is not None:
        place: tuple[Any, ...] = ()
        elim: tuple[Any, ...] = cands(geo, [(geo.cell(claim[0], claim[1]), claim[2])])
    elif h.place is not None:
        place, elim = cands(geo, [h.place]), ()
    else:
        place, elim = (), cands(geo, h.removable)
    detail = (("chain", h.kind), ("complexity", h.complexity), ("difficulty", h.difficulty), ("length", h.complexity),
              (SE_RATING, h.rating))
    if rating_only:
        return Explanation(name, place=place, eliminate=elim, detail=detail)
    proof = build_proof(state, h, claim)
    texts = _texts(state, proof, name, h.rating, place, elim)
    marked = tuple(sorted({(b.assume[0], b.assume[1], b.assume[2]) for b in proof.branches}))
    roles = proof_roles(proof) + (_loop_roles(geo, h) if h.kind == sechain.CYCLE else ())
    return Explanation(name, place=place, eliminate=elim, marked=marked, marked_alt=place + elim,
                       text=texts["en"], translations=(("fr", notation(texts["fr"], "fr")),), detail=detail,
                       proof=proof, roles=roles)


def _loop_roles(geo: Geometry, h: SeHint) -> tuple[Role, ...]:
    """A cycle's loop as the frame draws chains: its true and false candidates when its start
    is true, and its links (weak from a true one, strong from a false one), closed."""
    line = []
    x = h.targets[0]
    while h.nodes[x].parents:
        x = h.nodes[x].parents[0]
        line.append(x)
    nodes = [h.nodes[i] for i in reversed(line)]
    kinds = "".join("-" if p.on else "=" for p in nodes)
    return chain([(geo.row_of[p.cell], geo.col_of[p.cell], p.value) for p in nodes], kinds, nodes[0].on, closed=True)


def finder(producers: Sequence[int]) -> Finder:
    """The finder of SE's producers, tried in order (the nested ones: SE's advanced, then
    experimental lists): the first hint of the first producer that has one."""
    least = min(sechain.PRODUCERS[p].least for p in producers)

    def find(state: State, ctx: Context = NO_CONTEXT, /) -> Iterator[Explanation]:
        if not ctx.can_win(least):
            return
        bare = ctx.rating_only
        for p in producers:
            h = sechain.first_hint(state.geo.n, state.values, state.cand, p, not bare)
            if h is not None:
                yield make_step(state, h, bare)
                return
    find.__doc__ = f"SE's chaining producer{'s' if len(producers) > 1 else ''} {', '.join(map(str, producers))}."
    return find


find_forcing_chains = finder((sechain.FORCING,))
find_nishio = finder((sechain.NISHIO,))
find_multiple = finder((sechain.MULTIPLE,))
find_dynamic = finder((sechain.DYNAMIC,))
# SukakuExplainer 1.15.10 (the rater of the SE-rated banks) and classic SE 1.2.1.3
find_dynamic_plus = finder((sechain.DYNAMIC_PLUS,))
find_nested = finder(sechain.SUKAKU[sechain.NESTED_FC:])
find_dynamic_plus_classic = finder((sechain.CLASSIC_PLUS,))
find_nested_classic = finder(sechain.CLASSIC[sechain.NESTED_FC:])


def kind(name: str) -> StepKind:
    """The step kind of one of SE's chaining step names (``KINDS``), rated as SE rates it."""
    en, fr, least = KINDS[name]
    return K(name, least, fr, en=en, rule=RECORDED, roles="assumption")


def techniques(classic: bool = False) -> tuple[Technique, ...]:
    """SE's chaining producers, in SE's order, as technique records (SE's order puts aligned
    triplet exclusion after the first): SukakuExplainer's or (``classic``) SE 1.2.1.3's. Not
    in the default registry: the ``se`` orders list them among SE's producers."""
    plus, nested = (find_dynamic_plus_classic, find_nested_classic) if classic else (find_dynamic_plus, find_nested)
    return (
        Technique("se forcing chains", find_forcing_chains, (kind(CYCLE), kind(FORCING_CHAIN)),
                  aliases=("se forcing chains and cycles",)),
        Technique("se nishio forcing chains", find_nishio, (kind(NISHIO),)),
        Technique("se multiple forcing chains", find_multiple, (kind(CELL_FORCING), kind(REGION_FORCING))),
        Technique("se dynamic forcing chains", find_dynamic, (kind(DYNAMIC),)),
        Technique("se dynamic forcing chains plus", plus, (kind(DYNAMIC_PLUS),)),
        Technique("se nested forcing chains", nested, (kind(NESTED),)),
    )
