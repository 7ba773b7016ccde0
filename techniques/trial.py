"""Trial (and trial lucky): assume each end of a strong link, follow singles.

Not a purist's technique; used only after everything else fails. For a
strong link C1 _ C2 (at least one is true), assume C1 on a copy of the
candidates and apply only single position and single candidate as long as
possible; do the same for C2.

- an assumption that ends in a contradiction (a cell without candidate, a
  house without a place for a value) is false, so the other end is true;
- an assumption that solves the whole grid is placed (trial lucky): true only
  because the puzzle has one solution, so it is a uniqueness step, and a
  guess the simplest order never takes (``Context.allows``: without it the
  other end is still tried for a contradiction);
- whatever both assumptions conclude (placements, eliminations) holds.

The propagation never reads the solution: it only sees the candidates.
Each candidate is propagated at most once per call (memo), so a call costs
about one propagation per candidate at the end of some strong link.
"""
from __future__ import annotations

from collections.abc import Iterator
from functools import cache
from typing import Any

from explainer.explanation import Cand, Explanation, cands
from explainer.grid import Geometry, bits, geometry, value_char
from explainer.i18n import Agree, Cells, House, Value, Words, say
from explainer.proof import Proof
from explainer.state import State
from explainer.technique import NO_CONTEXT, Context

from .implication import extract
from .links import links
from .uniqueness import ONE

CONTRADICTION = {
    "en": "Trial: {a} is {va} or {b} is {vb} (strong link). Assuming {a} is {va} and applying only "
          "singles leads to a contradiction ({why}), so {b} is {vb}.",
    "fr": "Essai : {a} vaut {va} ou {b} vaut {vb} (lien fort). Supposer {a} = {va} et n'appliquer que "
          "des singletons mène à une contradiction ({why}), donc {b} vaut {vb}.",
}
LUCKY = {
    "en": "Trial lucky: {a} is {va} or {b} is {vb} (strong link). Assuming {a} is {va} and applying "
          "only singles solves the whole grid without contradiction, so {a} is {va}. " + ONE["en"],
    "fr": "Essai chanceux : {a} vaut {va} ou {b} vaut {vb} (lien fort). Supposer {a} = {va} et "
          "n'appliquer que des singletons résout toute la grille sans contradiction, donc {a} vaut {va}. "
          + ONE["fr"],
}
COMMON = {
    "en": "Trial: {a} is {va} or {b} is {vb} (strong link). Assuming either one and applying only "
          "singles, both cases agree: {what}, so this holds whichever is true.",
    "fr": "Essai : {a} vaut {va} ou {b} vaut {vb} (lien fort). En supposant l'un puis l'autre et en "
          "n'appliquant que des singletons, les deux cas concordent : {what}, donc c'est vrai dans "
          "tous les cas.",
}
WHAT_PLACE = {"en": "{cells} get {values}", "fr": "{cells} reçoivent {values}"}
WHAT_ELIM = {"en": "{k} {removed} ({first})", "fr": "{k} {removed} ({first})"}
WHY_CELL = {"en": "{cell} has no candidate left", "fr": "{cell} n'a plus de candidat"}
WHY_HOUSE = {"en": "{v} has no place left in {house}", "fr": "{v} n'a plus de place dans {house}"}
WHY_TWICE = {"en": "{v} would appear twice in {house}", "fr": "{v} apparaîtrait deux fois dans {house}"}


class _Result:
    __slots__ = ("values", "cand", "why", "solved", "changed")

    def __init__(self, values: list[int], cand: list[int], why: tuple[str, dict[str, Any]] | None,
                 solved: bool, changed: int = 0) -> None:
        self.values, self.cand, self.why, self.solved = values, cand, why, solved
        self.changed = changed  # cell mask: cells placed or losing a candidate in the run


@cache
def _house_bits(n: int) -> tuple[int, ...]:
    """For each cell of an n×n grid, the bit mask of its houses (memoised per size)."""
    geo = geometry(n)
    out = []
    for c in range(geo.ncells):
        m = 0
        for h in geo.cell_houses[c]:
            m |= 1 << h
        out.append(m)
    return tuple(out)


def _placed_by_house(state: State) -> tuple[int, ...]:
    """Per house, the mask of the values already placed in it (once per state: every
    propagation of a trial call starts from it)."""
    values = state.values
    out = []
    for cells in state.geo.houses:
        m = 0
        for c in cells:
            if values[c]:
                m |= 1 << (values[c] - 1)
        out.append(m)
    return tuple(out)


def propagate(state: State, c0: int, v0: int) -> _Result:
    """Place v0 in c0 on a copy and apply singles until stuck, solved or contradicted."""
    geo = state.geo
    n = geo.n
    hb = _house_bits(n)
    values, cand, pos = state.values[:], state.cand[:], state.pos[:]
    hmask, cell_houses, peer = geo.house_mask, geo.cell_houses, geo.peer_mask
    done = list(state.cached("trial.done", _placed_by_house))
    unsolved = state.unsolved
    changed = 0
    queue = [(c0, v0)]

    def fail(kind: str, **args: Any) -> _Result:
        return _Result(values, cand, (kind, args), False)

    while queue:
        c, v = queue.pop()
        if values[c]:
            if values[c] != v:
                return fail("cell", cell=c)
            continue
        bit = 1 << (v - 1)
        old = cand[c]
        if not old & bit:
            return fail("cell", cell=c)
        cmask = ~(1 << c)
        m = old  # bit loops written out (lowest first, as ``bits``): this is the hot loop
        while m:
            low = m & -m
            m ^= low
            pos[low.bit_length() - 1] &= cmask
        values[c] = v
        cand[c] = 0
        unsolved -= 1
        for h in cell_houses[c]:
            if done[h] & bit:
                return fail("twice", house=h, v=v)
            done[h] |= bit
        pm = peer[c] & pos[v - 1]
        changed |= pm | 1 << c
        touched = 0
        if pm:
            pos[v - 1] &= ~pm
            nbit = ~bit
            rest = pm
            while rest:
                low = rest & -rest
                rest ^= low
                p = low.bit_length() - 1
                m = cand[p] & nbit
                cand[p] = m
                if not m:
                    return fail("cell", cell=p)
                if not m & (m - 1):
                    queue.append((p, m.bit_length()))
                touched |= hb[p]
        # hidden singles: value v in the houses of the peers that lost it
        pv = pos[v - 1]
        while touched:
            low = touched & -touched
            touched ^= low
            h = low.bit_length() - 1
            if done[h] & bit:
                continue
            w = pv & hmask[h]
            if not w:
                return fail("house", house=h, v=v)
            if not w & (w - 1):
                queue.append((w.bit_length() - 1, v))
        # the other values of c lost a place in c's houses
        others = old & ~bit
        while others:
            low = others & -others
            others ^= low
            b = low.bit_length() - 1
            pb = pos[b]
            for h in cell_houses[c]:
                if done[h] >> b & 1:
                    continue
                w = pb & hmask[h]
                if not w:
                    return fail("house", house=h, v=b + 1)
                if not w & (w - 1):
                    queue.append((w.bit_length() - 1, b + 1))
    return _Result(values, cand, None, unsolved == 0, changed)


def _why(geo: Geometry, why: tuple) -> Words:
    kind, args = why
    if kind == "cell":
        d = say(WHY_CELL, cell=geo.cell_name(args["cell"]))
    else:
        d = say(WHY_HOUSE if kind == "house" else WHY_TWICE, v=Value(args["v"]), house=House(geo, args["house"]))
    return Words(en=d["text"], **dict(d["translations"]))


def _strong_links_in_order(state: State) -> list[tuple[int, int]]:
    """Bivalue cells first (easiest to read), then values with two places in a house."""
    lk = links(state)
    pairs = lk.strong_pairs
    return sorted(pairs, key=lambda p: (lk.cell(p[0]) != lk.cell(p[1]), p))


def find(state: State, ctx: Context = NO_CONTEXT, /) -> Iterator[Explanation]:
    """Trial steps, each with its proof (STEPS_JSON.md ``proof``, singles only)."""
    from .forcing import prover

    tracer = prover(state)
    for step in _find(state, ctx.allows("trial lucky")):
        yield _with_proof(state, tracer, step)


def _with_proof(state: State, tracer: Any, step: Explanation) -> Explanation:
    """Replay the trial's branches with the recording tracer and attach the proof:
    a contradiction is one branch assuming the placed end false; lucky one branch
    assuming it true; common conclusions two branches, one end true and false."""
    from dataclasses import replace

    geo = state.geo
    n = geo.n
    a = step.marked[0]
    if step.technique == "trial lucky" or step.get("contradiction"):
        (r, c, v), = step.place
        lucky = step.technique == "trial lucky"
        tr = tracer.run(r * n + c, v, lucky)
        if lucky:
            assert tr.solved, "trial lucky: the tracer does not solve the grid"
            br = extract(tr, solved=True)
        else:
            assert tr.end is not None, "trial: the tracer finds no contradiction"
            br = extract(tr)
        proof = Proof("contradiction", 0, (br,))
    else:
        ca, va = a[0] * n + a[1], a[2]
        branches = []
        for truth in (True, False):
            tr = tracer.run(ca, va, truth)
            if tr.end is not None:
                branches.append(extract(tr))
                continue
            idx = [tr.find(r * n + c, v, True) for r, c, v in step.place]
            idx += [tr.find(r * n + c, v, False) for r, c, v in step.eliminate]
            assert None not in idx, "trial: a common conclusion is missing from a traced branch"
            branches.append(extract(tr, [i for i in idx if i is not None]))
        proof = Proof("double", 0, tuple(branches))
    detail = tuple(step.detail) + (("size", proof.size),)
    return replace(step, proof=proof, detail=detail)


def _find(state: State, lucky: bool = True) -> Iterator[Explanation]:
    geo = state.geo
    lk = links(state)
    memo: dict[int, _Result] = {}

    def result(i: int) -> _Result:
        r = memo.get(i)
        if r is None:
            r = memo[i] = propagate(state, lk.cell(i), lk.value(i))
        return r

    for a, b in _strong_links_in_order(state):
        ca, va, cb, vb = lk.cell(a), lk.value(a), lk.cell(b), lk.value(b)
        names = dict(a=geo.cell_name(ca), va=Value(va), b=geo.cell_name(cb), vb=Value(vb))
        marked = cands(geo, [(ca, va), (cb, vb)])
        ra = result(a)
        if ra.why is not None:
            yield _contradiction(geo, marked, names, ra.why, cb, vb)
            continue
        if ra.solved and lucky:
            yield Explanation(technique="trial lucky", place=cands(geo, [(ca, va)]), marked=marked,
                              **say(LUCKY, **names), detail=(("assumed", lk.cand(a)),))
            continue
        rb = result(b)
        if rb.why is not None:
            swapped = dict(a=names["b"], va=names["vb"], b=names["a"], vb=names["va"])
            yield _contradiction(geo, marked, swapped, rb.why, ca, va)
            continue
        if rb.solved and lucky:
            swapped = dict(a=names["b"], va=names["vb"], b=names["a"], vb=names["va"])
            yield Explanation(technique="trial lucky", place=cands(geo, [(cb, vb)]), marked=marked,
                              **say(LUCKY, **swapped), detail=(("assumed", lk.cand(b)),))
            continue
        step = _common(state, marked, names, ra, rb)
        if step is not None:
            yield step


def _contradiction(geo: Geometry, marked: tuple[Cand, ...], names: dict[str, Any], why: tuple[str, dict[str, Any]],
                   c: int, v: int) -> Explanation:
    return Explanation(technique="trial", place=cands(geo, [(c, v)]), marked=marked,
                       **say(CONTRADICTION, why=_why(geo, why), **names),
                       detail=(("contradiction", True),))


def _may_agree(state: State, ra: _Result, rb: _Result) -> bool:
    """False when the two cases share no conclusion: one needs a cell both runs changed
    (most pairs have none; this looks at those cells only, not the whole grid)."""
    cand, va, vb, ca, cb = state.cand, ra.values, rb.values, ra.cand, rb.cand
    for c in bits(ra.changed & rb.changed):
        x = va[c]
        if x and x == vb[c]:
            return True
        ka = (1 << (x - 1)) if x else ca[c]
        kb = (1 << (vb[c] - 1)) if vb[c] else cb[c]
        if cand[c] & ~ka & ~kb:
            return True
    return False


def _common(state: State, marked: tuple[Cand, ...], names: dict[str, Any], ra: _Result,
            rb: _Result) -> Explanation | None:
    if not _may_agree(state, ra, rb):
        return None
    geo = state.geo
    place: list[tuple[int, int]] = []
    placed_peers = [0] * geo.n  # cells that lose v because of a common placement
    placed_cells = 0
    for c in range(geo.ncells):
        if not state.values[c] and ra.values[c] and ra.values[c] == rb.values[c]:
            v = ra.values[c]
            place.append((c, v))
            placed_peers[v - 1] |= geo.peer_mask[c]
            placed_cells |= 1 << c
    elim: list[tuple[int, int]] = []
    for c in range(geo.ncells):
        m = state.cand[c]
        if not m or placed_cells >> c & 1:
            continue
        # a candidate is ruled out in a case when it is neither placed nor still possible there
        gone_a = m & ~ra.cand[c] & ~(1 << (ra.values[c] - 1) if ra.values[c] else 0)
        gone_b = m & ~rb.cand[c] & ~(1 << (rb.values[c] - 1) if rb.values[c] else 0)
        for b in bits(gone_a & gone_b):
            if not placed_peers[b] >> c & 1:
                elim.append((c, b + 1))
    if not place and not elim:
        return None
    parts = []
    if place:
        d = say(WHAT_PLACE, cells=Cells(geo, [c for c, _ in place]),
                values=Words(en=", ".join(value_char(v) for _, v in sorted(place)),
                             fr=", ".join(value_char(v) for _, v in sorted(place))))
        parts.append(d)
    if elim:
        first = ", ".join(f"{geo.cell_name(c)}<>{value_char(v)}" for c, v in sorted(elim)[:4])
        if len(elim) > 4:
            first += ", …"
        removed = Agree(len(elim), en=("candidate is removed", "candidates are removed"),
                        fr=("candidat est retiré", "candidats sont retirés"))
        parts.append(say(WHAT_ELIM, k=len(elim), removed=removed, first=first))
    what = Words(en="; ".join(p["text"] for p in parts),
                 fr="; ".join(dict(p["translations"])["fr"] for p in parts))
    return Explanation(technique="trial", place=cands(geo, place), eliminate=cands(geo, elim),
                       marked=marked, **say(COMMON, what=what, **names))
